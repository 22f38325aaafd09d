"""The odds of every outcome, shown before the roll, with the rolled one marked.

When the outcomes count things ("kills=2 shock=3"), a line leads with what a
player decides on (the chance of at least one kill, the expected kills and
Shock) and each count gets its own small chart, readable however many dice are
rolled; other outcomes share one chart of labels.

pyqtgraph (and numpy with it) is imported the first time a plot is shown, not
at start, so the main window opens as fast as a bare Qt window.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtGui import QPalette
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QTableWidget
from PySide6.QtWidgets import QTableWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.odds import Distribution
from battletracker.core.odds import flag_chances
from battletracker.core.odds import marginals
from battletracker.core.odds import open_ended
from battletracker.core.odds import parse_quantities

GroupFn = Callable[[str], str]

# pyqtgraph plots made ahead on idle (ui/warmup.py), each taken by the next chart shown: making
# one (its axes, view box and menus) costs tens of milliseconds a dialog would otherwise wait for.
# A closed dialog's plots come back here too, up to KEPT_PLOTS, for the next dialog.
SPARE_PLOTS = 2
KEPT_PLOTS = 4
# A spare taken is made again this long after, once the dialog that took it has painted, never in
# the event-loop turn that shows it.
REFILL_MS = 400
_spares: list[Any] = []
_spare_holder: list[QWidget] = []


def _plot_widget(parent: QWidget, background: Any = "default") -> Any:
    """A pyqtgraph plot without its view box menu: odds charts never show a context menu."""
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True)
    return pg.PlotWidget(parent, background=background, enableMenu=False)


def make_spare_plot(holder: QWidget | None = None) -> bool:
    """Make one plot ahead, hidden inside `holder` (then the last holder given); False when enough wait."""
    import shiboken6

    if holder is not None:
        _spare_holder[:] = [holder]
    _spares[:] = [plot for plot in _spares if shiboken6.isValid(plot)]
    if len(_spares) >= SPARE_PLOTS or not _spare_holder or not shiboken6.isValid(_spare_holder[0]):
        return False
    plot = _plot_widget(_spare_holder[0])
    plot.hide()
    _spares.append(plot)
    return True


def _new_plot(parent: QWidget, background: Any) -> Any:
    """A plot for `parent`: a spare made ahead when one waits (another is made on idle), else a new one."""
    import shiboken6

    while _spares:
        plot = _spares.pop()
        if shiboken6.isValid(plot):
            plot.setParent(parent)
            plot.setBackground(background)
            plot.show()  # as a new child shows with its parent
            QTimer.singleShot(REFILL_MS, make_spare_plot)
            return plot
    return _plot_widget(parent, background)


def _keep_plot(plot: Any) -> bool:
    """Take back a plot its chart no longer needs, reset as a new one, for the next chart; False when enough wait."""
    import shiboken6

    _spares[:] = [spare for spare in _spares if shiboken6.isValid(spare)]
    if len(_spares) >= KEPT_PLOTS or not _spare_holder or not shiboken6.isValid(_spare_holder[0]) \
            or not shiboken6.isValid(plot):
        return False
    plot.clear()
    plot.setTitle(None)
    plot.setToolTip("")
    plot.setMinimumHeight(0)
    for name in ("left", "bottom"):
        plot.getAxis(name).setTicks(None)
        plot.setLabel(name, None)
        plot.showLabel(name, False)
    plot.enableAutoRange()
    plot.hide()
    plot.setParent(_spare_holder[0])
    _spares.append(plot)
    return True


def natural_key(text: str) -> list[Any]:
    """Sort "10 successes" after "9 successes"."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def grouped(dist: Distribution[str], group: GroupFn | None,
            order: Callable[[str], Any] | None = None) -> list[tuple[str, Fraction]]:
    """Outcomes (or their groups, or their labels) with their probabilities, in reading order.

    `order` sorts the outcome keys before they are grouped, so the procedure's
    reading order holds however its outcomes are labelled.
    """
    totals: dict[str, Fraction] = {}
    items = sorted(dist.items(), key=lambda item: order(item[0])) if order else list(dist.items())
    for outcome, p in items:
        key = group(outcome) if group else outcome
        totals[key] = totals.get(key, Fraction(0)) + p
    if group is None and order is None:
        return sorted(totals.items(), key=lambda kv: natural_key(kv[0]))
    return list(totals.items())


def short_labels(labels: list[str]) -> tuple[list[str], str]:
    """Labels without the words they all share ("3 successes" -> "3"), and those words as a caption."""
    if len(labels) < 2:
        return labels, ""
    split = [label.split(" ") for label in labels]
    prefix: list[str] = []
    while all(len(words) > len(prefix) + 1 and words[len(prefix)] == split[0][len(prefix)] for words in split):
        prefix.append(split[0][len(prefix)])
    suffix: list[str] = []
    while all(len(words) > len(prefix) + len(suffix) + 1 and words[-1 - len(suffix)] == split[0][-1 - len(suffix)]
              for words in split):
        suffix.insert(0, split[0][-1 - len(suffix)])
    short = [" ".join(words[len(prefix):len(words) - len(suffix)]) for words in split]
    caption = " ".join([*prefix, "...", *suffix]) if prefix or suffix else ""
    heads = [label.split(": ", 1)[0] for label in short]
    if (sum(len(label) for label in short) > 60 and len(set(heads)) == len(heads) and heads != short
            and sum(len(head) for head in heads) <= 60):
        # "+1: one Penetrating Hit more than the Armour Saves": the bar keeps its head, the table the meaning.
        return heads, "; ".join(part for part in (caption, "what each means: the table below") if part)
    if sum(len(label) for label in short) > 60:
        short, legend = _abbreviate(short)
        caption = "; ".join(part for part in (caption, legend) if part)
    if sum(len(label) for label in short) > 60 and max(len(label) for label in short) > 24:
        # Sentences ("the Turn ends after this Phase") cannot stand under bars: number the bars
        # in the order of the outcomes' table beneath the chart, which reads them whole.
        return [str(i + 1) for i in range(len(labels))], "bars numbered in the order of the table below"
    return short, caption


def _abbreviate(labels: list[str]) -> tuple[list[str], str]:
    """"kills=1 shock=2" -> "K1 S2" when the full labels would pile up under the bars."""
    names: dict[str, str] = {}
    out = []
    for label in labels:
        words = []
        for word in label.split(" "):
            name, sep, value = word.partition("=")
            if sep and name:
                names.setdefault(name[0].upper(), name)
                words.append(f"{name[0].upper()}{value}")
            else:
                words.append(word)
        out.append(" ".join(words))
    return out, ", ".join(f"{k} = {v}" for k, v in names.items())


def percent(p: Fraction) -> str:
    value = float(p) * 100
    if 0 < value < 0.1:
        return "<0.1%"
    return f"{value:.1f}%"


def rounded_percent(p: Fraction) -> str:
    """A chance as a player reads it: whole percent, never "0%" or "100%" for what may or may not happen."""
    if p in (0, 1):
        return f"{int(p) * 100}%"
    value = math.floor(p * 100 + Fraction(1, 2))
    if value < 1:
        return "<1%"
    if value > 99:
        return ">99%"
    return f"{value}%"


QUANTITY_WORDS: dict[str, tuple[str, str]] = {
    # name in the outcome key -> (chart title, in a sentence)
    "kills": ("Kills", "kills"),
    "shock": ("Shock", "Shock"),
    "vehicle_shock": ("Vehicle Shock", "vehicle Shock"),
}


def quantity_title(name: str) -> str:
    return QUANTITY_WORDS.get(name, (name.replace("_", " ").capitalize(), ""))[0]


def quantity_words(name: str) -> str:
    return QUANTITY_WORDS.get(name, ("", name.replace("_", " ")))[1]


def summary(per: dict[str, Distribution[int]], flags: dict[str, Fraction] | None = None,
            or_more: dict[str, int] | None = None) -> list[tuple[str, str]]:
    """What a player weighs before rolling, each as (text with a rounded chance, its exact value).

    The chance of at least one kill, of each flag that may ride along ("On
    target", "Building on fire"), then the expected value of every count; a
    count whose top bar is "N or more" (`or_more`, from `open_ended`) has no
    mean, and says its chance of N or more instead.
    """
    lines: list[tuple[str, str]] = []
    if "kills" in per:
        p = per["kills"].at_least(1)
        lines.append((f"At least one kill: {rounded_percent(p)}", str(p)))
    for flag, p in (flags or {}).items():
        lines.append((f"{flag.replace('_', ' ').capitalize()}: {rounded_percent(p)}", str(p)))
    for name, dist in per.items():
        if or_more and name in or_more:
            n = or_more[name]
            p = dist.at_least(n)
            lines.append((f"{n} or more {quantity_words(name)}: {rounded_percent(p)}", str(p)))
            continue
        mean = dist.mean()
        lines.append((f"Expected {quantity_words(name)}: {float(mean):.1f}", str(mean)))
    return lines


# A chart of more counts than this ends where the chance of going further falls under TAIL_CHANCE, its last
# bar "N+" (the exact chance of N or more): chained Storm of Steel dice can add hundreds of Shock at odds
# nobody could see as bars, and would squeeze the likely ones to slivers.
MOST_BARS = 16
# A cut chart labels fewer bars, wider than a count, and leaves room after its "N+" for the label.
CUT_TICKS = 5
CUT_ROOM = 1.4
# How far (pixels) a tick label at a chart's edge may reach past its axis and still be painted.
EDGE_LABEL_PX = 12
TAIL_CHANCE = Fraction(1, 1000)


def chart_top(dist: Distribution[int]) -> int | None:
    """The count whose bar reads "N or more" on a chart too long to read, or None to draw every count."""
    low, high = min(dist.outcomes), max(dist.outcomes)
    if high - low < MOST_BARS:
        return None
    beyond = Fraction(1)
    for n in range(low, low + MOST_BARS - 1):
        beyond -= dist.p(n)
        if beyond < TAIL_CHANCE:
            return n + 1
    return low + MOST_BARS - 1


def tick_step(count: int, most: int = 8) -> int:
    """Label every n-th bar so at most `most` labels share a small chart's axis."""
    return max(1, math.ceil(count / most))


class OddsPlot(QWidget):
    """Charts (pyqtgraph, created lazily) above a table of the odds; exact fractions in the tooltips."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._plot: Any = None
        self._bars: list[tuple[str, Fraction]] = []
        self._group: GroupFn | None = None
        self._marked: str | None = None
        self._released = False
        self.quantities: dict[str, Distribution[int]] | None = None
        self.marked_values: dict[str, int] = {}
        self.or_more: dict[str, int] = {}  # quantities whose top bar reads "N or more" (`open_ended`)
        self.charts: dict[str, Any] = {}
        self.tick_labels: dict[str, list[tuple[int, str]]] = {}
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setStyleSheet("font-weight: bold;")
        self.summary.hide()
        self._layout.addWidget(self.summary)
        self._charts_row = QHBoxLayout()
        self._charts_row.setContentsMargins(0, 0, 0, 0)
        self._layout.addLayout(self._charts_row, 2)
        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels(["Outcome", "Chance"])
        self.table.setToolTip("Hover over a chance for its exact value")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumHeight(200)
        self._layout.addWidget(self.table)

    @property
    def rows(self) -> list[tuple[str, Fraction]]:
        return list(self._bars)

    def set_distribution(self, dist: Distribution[str], group: GroupFn | None = None,
                         order: Callable[[str], Any] | None = None) -> None:
        """Show `dist`, each outcome under `group(outcome)` (its label, or a coarser group), sorted by `order`."""
        self._group = group
        self._bars = grouped(dist, group, order)
        self.quantities = marginals(dist, parse_quantities)
        self.or_more = open_ended(dist) if self.quantities is not None else {}
        self.marked_values = {}
        if self.quantities is not None:
            lines = summary(self.quantities, flag_chances(dist), self.or_more)
            self.summary.setText("   ·   ".join(text for text, _exact in lines))
            self.summary.setToolTip("\n".join(f"{text} (exactly {exact})" for text, exact in lines))
        certain = len(self._bars) == 1
        if certain:
            self.summary.setText(f"Certain, no dice decide it: {self._bars[0][0].replace('_', ' ')}")
            self.summary.setToolTip("")
        self.summary.setVisible(self.quantities is not None or certain)
        self.table.setVisible(not certain)
        # The Chance column fits its contents once they are all in, not again after every cell.
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self.table.setRowCount(len(self._bars))
        for row, (label, p) in enumerate(self._bars):
            self.table.setItem(row, 0, QTableWidgetItem(label))
            chance = QTableWidgetItem(percent(p))
            chance.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            chance.setToolTip(f"Exactly {p}")
            self.table.setItem(row, 1, chance)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._marked = None
        self._draw(None)

    def set_unavailable(self, sentence: str) -> None:
        """No exact odds to show (`OddsTooLarge`): say why in place of the charts and the table."""
        self._group = None
        self._bars = []
        self.quantities = None
        self.or_more = {}
        self.marked_values = {}
        self.summary.setText(sentence)
        self.summary.setToolTip("")
        self.summary.show()
        self.table.setRowCount(0)
        self.table.hide()
        self._marked = None
        self._draw(None)

    def mark(self, outcome: str | None) -> None:
        """Highlight where the actual roll landed (None clears it)."""
        key = None if outcome is None else (self._group(outcome) if self._group else outcome)
        counts = parse_quantities(outcome) if outcome is not None else None
        self.marked_values = {name: counts.get(name, 0) for name in self.quantities or {}} if counts else {}
        for row, (label, _p) in enumerate(self._bars):
            for col in range(2):
                item = self.table.item(row, col)
                if item is not None:
                    font = item.font()
                    font.setBold(label == key)
                    item.setFont(font)
        self._marked = key
        self._draw(key)

    def release_plots(self) -> None:
        """Give this widget's plots back for the next dialog's charts; they are drawn again if it shows again."""
        for plot in [self._plot, *self.charts.values()]:
            if plot is not None and not _keep_plot(plot):
                plot.hide()
                plot.deleteLater()
        self._plot = None
        self.charts = {}
        self._released = True

    def showEvent(self, event: QShowEvent) -> None:
        if self._released:
            self._released = False
            self._draw(self._marked)
        super().showEvent(event)

    def _ensure_plot(self) -> Any:
        if self._plot is None:
            self._plot = _new_plot(self, self.palette().color(QPalette.ColorRole.Base))
            self._plot.setMinimumHeight(160)
            self._plot.setMenuEnabled(False)
            self._plot.setMouseEnabled(x=False, y=False)
            self._plot.hideButtons()
            self._plot.setLabel("left", "chance", units="%")
            self._layout.insertWidget(0, self._plot, 2)
        return self._plot

    def _draw(self, marked: str | None) -> None:
        """The charts, or none when nothing is left to chance (one certain outcome)."""
        if len(self._bars) <= 1:
            for chart in [self._plot, *self.charts.values()]:
                if chart is not None:
                    chart.hide()
            return
        if self.quantities is not None:
            if self._plot is not None:
                self._plot.hide()
            self._draw_quantities()
            return
        for chart in self.charts.values():
            chart.hide()
        import pyqtgraph as pg

        plot = self._ensure_plot()
        plot.show()
        plot.clear()
        pal = self.palette()
        normal = pal.color(QPalette.ColorRole.Highlight)
        normal.setAlpha(150)
        hit = pal.color(QPalette.ColorRole.Accent) if hasattr(QPalette.ColorRole, "Accent") else normal
        text = pal.color(QPalette.ColorRole.Text)
        xs = list(range(len(self._bars)))
        heights = [float(p) * 100 for _l, p in self._bars]
        brushes = [pg.mkBrush(hit if label == marked else normal) for label, _p in self._bars]
        pens = [pg.mkPen(text, width=2) if label == marked else pg.mkPen(None) for label, _p in self._bars]
        plot.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.7, brushes=brushes, pens=pens))
        labels, caption = short_labels([label for label, _p in self._bars])
        axis = plot.getAxis("bottom")
        step = max(1, len(labels) // 12)
        axis.setTicks([[(i, label) for i, label in enumerate(labels) if i % step == 0]])
        plot.setLabel("bottom", caption)
        for name in ("bottom", "left"):
            plot.getAxis(name).setTextPen(text)
            plot.getAxis(name).setPen(text)
        plot.setYRange(0, max(heights) * 1.15 if heights else 1)

    def _chart(self, name: str) -> Any:
        """The small chart of one quantity, made the first time it is shown."""
        if name not in self.charts:

            chart = _new_plot(self, self.palette().color(QPalette.ColorRole.Base))
            chart.setMinimumHeight(120)
            chart.setMenuEnabled(False)
            chart.setMouseEnabled(x=False, y=False)
            chart.hideButtons()
            self._charts_row.addWidget(chart, 1)
            self.charts[name] = chart
        return self.charts[name]

    def _draw_quantities(self) -> None:
        """One bar chart per quantity: its chance of each count, the rolled count outlined."""
        import pyqtgraph as pg

        assert self.quantities is not None
        pal = self.palette()
        normal = pal.color(QPalette.ColorRole.Highlight)
        normal.setAlpha(150)
        hit = pal.color(QPalette.ColorRole.Accent) if hasattr(QPalette.ColorRole, "Accent") else normal
        text = pal.color(QPalette.ColorRole.Text)
        for name, chart in self.charts.items():
            chart.setVisible(name in self.quantities)
        for name, dist in self.quantities.items():
            chart = self._chart(name)
            chart.show()
            chart.clear()
            low, high = min(dist.outcomes), max(dist.outcomes)
            top = None if name in self.or_more else chart_top(dist)
            high = high if top is None else top
            xs = list(range(low, high + 1))
            chances = {x: dist.p(x) for x in xs}
            if top is not None:
                chances[top] = dist.at_least(top)
            heights = [float(chances[x]) * 100 for x in xs]
            rolled = self.marked_values.get(name)
            bar = rolled if top is None or rolled is None else min(rolled, top)
            brushes = [pg.mkBrush(hit if x == bar else normal) for x in xs]
            pens = [pg.mkPen(text, width=2) if x == bar else pg.mkPen(None) for x in xs]
            chart.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.7, brushes=brushes, pens=pens))
            step = tick_step(len(xs), 8 if top is None else CUT_TICKS)
            shown = {x: str(x) for x in xs}
            if name in self.or_more:
                shown[self.or_more[name]] += "+"
            if top is not None:
                shown[top] += "+"
            first = low if top is None else low + (top - low) % step   # an "N+" bar cut here is always labelled
            ticks = [(x, shown[x]) for x in xs if x >= first and (x - first) % step == 0]
            self.tick_labels[name] = ticks
            chart.getAxis("bottom").setTicks([ticks])
            # pyqtgraph drops a label reaching past the axis end: a narrow chart's last bar would lose its "N+".
            chart.getAxis("bottom").setStyle(hideOverlappingLabels=EDGE_LABEL_PX)
            chart.getAxis("left").setTicks(None)
            title = quantity_title(name)
            if rolled is not None:   # the "N+" bar of a cut chart holds many counts: say the one rolled
                title += f" (rolled {rolled if top is not None else shown.get(rolled, rolled)})"
            chart.setTitle(title, color=text, size="9pt")
            chart.setLabel("left", "%")
            chart.setXRange(low - 0.6, high + (0.6 if top is None else CUT_ROOM), padding=0)
            chart.setYRange(0, max(heights) * 1.15 if heights else 1, padding=0)
            tips = "\n".join(f"{shown[x]}: {rounded_percent(chances[x])} (exactly {chances[x]})" for x in xs)
            chart.setToolTip(f"{quantity_title(name)}\n{tips}")
            for axis in ("bottom", "left"):
                chart.getAxis(axis).setTextPen(text)
                chart.getAxis(axis).setPen(text)
