"""Odds plot labels stay readable under the bars."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPicture
from pytestqt.qtbot import QtBot

from battletracker.core.odds import Distribution
from battletracker.ui.odds_plot import MOST_BARS
from battletracker.ui.odds_plot import OddsPlot
from battletracker.ui.odds_plot import rounded_percent
from battletracker.ui.odds_plot import short_labels


def test_shared_words_move_to_the_caption() -> None:
    assert short_labels(["0 successes", "1 successes", "10 successes"]) == (["0", "1", "10"], "... successes")


def test_distinct_labels_are_kept() -> None:
    assert short_labels(["miss", "no_effect", "equal:none"]) == (["miss", "no_effect", "equal:none"], "")


def test_many_name_value_labels_are_abbreviated_with_a_legend() -> None:
    labels = [f"kills={k} shock={s}" for k in range(4) for s in range(5)]
    short, caption = short_labels(labels)
    assert short[0] == "K0 S0" and short[-1] == "K3 S4"
    assert caption == "K = kills, S = shock"


def test_outcomes_that_are_sentences_are_numbered_as_the_table_lists_them() -> None:
    labels = ["the Turn ends after this Phase",
              "the Turn ends after this Phase, with a Chain of Command die and a random event",
              "the other side's Phase next", "the same side takes the next Phase"]
    assert short_labels(labels) == (["1", "2", "3", "4"], "bars numbered in the order of the table below")


def test_a_long_thin_tail_of_shock_ends_in_one_or_more_bar_with_readable_ticks(qtbot: QtBot) -> None:
    """Chained Storm of Steel dice can bring hundreds of Shock at odds far below a thousandth: the chart stops
    where the tail falls under a thousandth, its last bar "N+" the exact chance of N or more, so every bar is seen
    and the ticks do not run into each other (a flamethrower at a transport once drew 0 to 847 Shock)."""
    weights = {f"kills=0 shock={n}": Fraction(1, 2 ** (n + 1)) for n in range(400)}
    weights["kills=0 shock=400"] = 1 - sum(weights.values(), Fraction(0))
    dist = Distribution(weights)
    plot = OddsPlot()
    qtbot.addWidget(plot)
    plot.resize(600, 400)
    plot.show()
    plot.set_distribution(dist)
    qtbot.waitUntil(lambda: "shock" in plot.tick_labels)
    shock = Distribution({n: dist.probability(lambda o, n=n: o.endswith(f"shock={n}")) for n in range(401)})
    ticks = plot.tick_labels["shock"]
    assert ticks[-1] == (10, "10+")                                # 1/2**10 is the first tail under 1/1000
    assert shock.at_least(10) < Fraction(1, 1000) <= shock.at_least(9)
    assert len(ticks) <= 8 and all(len(text) <= 3 for _x, text in ticks)
    tips = plot.charts["shock"].toolTip().splitlines()
    assert len(tips) == 12 and tips[-1] == f"10+: {rounded_percent(shock.at_least(10))} (exactly {shock.at_least(10)})"
    plot.mark("kills=0 shock=250")
    assert plot.charts["shock"].plotItem.titleLabel.text == "Shock (rolled 250)"


def test_a_count_rolled_on_the_or_more_bar_of_a_cut_chart_is_said_as_rolled(qtbot: QtBot) -> None:
    """The bar "N+" of a cut chart holds N and every count above it: the title names the count rolled, and the
    ticks always label that last bar whatever their step."""
    weights = {f"shock={n}": Fraction(1, 2 ** (n + 1)) for n in range(60)}
    weights["shock=60"] = 1 - sum(weights.values(), Fraction(0))
    plot = OddsPlot()
    qtbot.addWidget(plot)
    plot.show()
    plot.set_distribution(Distribution(weights))
    plot.mark("shock=10")
    qtbot.waitUntil(lambda: "shock" in plot.tick_labels)
    assert plot.charts["shock"].plotItem.titleLabel.text == "Shock (rolled 10)"
    assert plot.tick_labels["shock"][-1] == (10, "10+")


def drawn_labels(axis: Any) -> list[tuple[QRectF, str]]:
    """The tick labels pyqtgraph actually paints on `axis` (it leaves out those it finds no room for), in the
    chart widget's pixels."""
    picture = QPicture()
    painter = QPainter(picture)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [] if specs is None else [(axis.mapRectToScene(rect), text) for rect, _flags, text in specs[2]]


def test_the_last_bar_of_a_narrow_cut_chart_shows_its_or_more_label_whole(qtbot: QtBot) -> None:
    """In a chart a third of a dialog wide, the last bar's "N+" is painted whole inside the chart and no two
    labels run into each other, or the player could not tell the last bar holds every count above."""
    weights = {f"kills=0 shock={n}": Fraction(9 ** n, 10 ** (n + 1)) for n in range(100)}
    weights["kills=0 shock=100"] = 1 - sum(weights.values(), Fraction(0))
    plot = OddsPlot()
    qtbot.addWidget(plot)
    plot.resize(420, 400)
    plot.show()
    plot.set_distribution(Distribution(weights))
    qtbot.waitUntil(lambda: "shock" in plot.tick_labels)
    top = MOST_BARS - 1
    assert plot.tick_labels["shock"][-1] == (top, f"{top}+")
    chart = plot.charts["shock"]
    assert chart.width() < 230
    qtbot.wait(50)
    drawn = drawn_labels(chart.getAxis("bottom"))
    assert drawn[-1][1] == f"{top}+" and drawn[-1][0].right() <= chart.width()
    for (left, _a), (right, _b) in zip(drawn, drawn[1:], strict=False):
        assert left.right() < right.left(), (_a, _b)


def test_labels_that_say_what_they_mean_keep_their_heads_under_the_bars() -> None:
    labels = ["miss", "no effect: more Armour Saves than Penetrating Hits",
              "equal: as many Armour Saves as Penetrating Hits", "+1: one Penetrating Hit more than the Armour Saves"]
    assert short_labels(labels) == (["miss", "no effect", "equal", "+1"], "what each means: the table below")
