"""A tripod MG's ten dice read at a glance: what to decide on, then one small chart per count."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from pytestqt.qtbot import QtBot

from battletracker.core.odds import parse_quantities
from battletracker.rules import odds
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.labelled import labelled_odds

MG, SQUAD = "u3", "u8"


pytestmark = pytest.mark.usefixtures("germany_ready")


def exact_percent(p: Fraction) -> str:
    return f"{math.floor(p * 100 + Fraction(1, 2))}%"


def test_tripod_mg_fire_leads_with_the_chances_and_charts_kills_and_shock(qtbot: QtBot, session: Session) -> None:
    del session.game.terrain["t5"]   # 2nd Squad in the open: without the demo's stone wall in front of it
    window = MainWindow(session)
    window.feature_host.load()
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    window.feature_host.run_unit_action("coc.support_fire", MG)
    dialog = window.findChildren(FireDialog)[-1]
    assert dialog.set_target(SQUAD)
    dialog.resize(680, 700)
    runner = dialog.runner
    assert runner is not None and dialog.plan is not None
    plot = runner.odds_plot

    dist = odds("coc.tripod_mg", dialog.plan.inputs)
    assert len(dist.outcomes) > 20                       # dozens of (kills, Shock) pairs
    kills = {k: sum((p for o, p in dist.items() if parse_quantities(o)["kills"] == k), Fraction(0))
             for k in range(11)}
    at_least_one = 1 - kills[0]
    mean_kills = sum((k * p for k, p in kills.items()), Fraction(0))
    mean_shock = sum((parse_quantities(o)["shock"] * p for o, p in dist.items()), Fraction(0))
    text = plot.summary.text()
    assert plot.summary.isVisible()
    assert f"At least one kill: {exact_percent(at_least_one)}" in text
    assert f"Expected kills: {float(mean_kills):.1f}" in text and f"Expected Shock: {float(mean_shock):.1f}" in text
    assert str(at_least_one) in plot.summary.toolTip()    # the exact fraction only in the tooltip
    assert "/" not in text

    assert set(plot.charts) == {"kills", "shock"}
    qtbot.waitUntil(lambda: all(chart.isVisible() and chart.width() > 50 for chart in plot.charts.values()))
    for name, chart in plot.charts.items():
        axis = chart.getAxis("bottom")
        ticks = plot.tick_labels[name]
        low, high = chart.viewRange()[0]
        px_per_unit = axis.width() / (high - low)
        metrics = QFontMetrics(axis.style.get("tickFont") or axis.font())
        widest = max(metrics.horizontalAdvance(label) for _x, label in ticks)
        gaps = [(b[0] - a[0]) * px_per_unit for a, b in zip(ticks, ticks[1:], strict=False)]
        assert gaps and min(gaps) > widest + 4, (name, gaps, widest)

    runner.start_typed()
    for text in ("6 6 6 6 6 6 6 6 6 6", "3 4 5 6 1 1 1 1 1 1"):
        runner.entry.setText(text)
        qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.result is not None and runner.result.outcome == "kills=2 shock=2"
    assert plot.marked_values == {"kills": 2, "shock": 2}
    assert plot.charts["kills"].plotItem.titleLabel.text.startswith("Kills (rolled 2)")
    dialog.close()


def test_an_indirect_mission_leads_with_the_chance_on_target_and_charts_each_count(qtbot: QtBot) -> None:
    from battletracker.rules.armour_battles.mission import NAME
    from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
    from tests.ui.test_armour_battles_mission import _table

    dlg = IndirectFireDialog(_table(), "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.set_aim(30.0, 20.0)
    dlg.set_observer("observer")
    assert dlg.plan is not None
    dist = odds(NAME, dlg.plan.inputs)
    on_target = sum((p for o, p in dist.items() if o.split()[0] == "on_target"), Fraction(0))
    plot = dlg.runner.odds_plot
    assert f"On target: {exact_percent(on_target)}" in plot.summary.text()
    assert set(plot.charts) == {"suppressed", "disrupted"}


def test_exact_fractions_are_in_tooltips_only(qtbot: QtBot, session: Session) -> None:
    dialog = FireDialog(session, MG)
    qtbot.addWidget(dialog)
    assert dialog.set_target(SQUAD) and dialog.runner is not None and dialog.plan is not None
    table = dialog.runner.odds_plot.table
    assert table.columnCount() == 2
    dist = labelled_odds("coc.tripod_mg", dialog.plan.inputs)
    for row in range(table.rowCount()):
        label, chance = table.item(row, 0).text(), table.item(row, 1)
        assert "/" not in chance.text() and chance.toolTip() == f"Exactly {dist[label]}"
