"""After the battle: a scripted demo game exported as a report (HTML, PDF), a map (PNG, SVG) and a log (CSV)."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtCore import QModelIndex
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from battletracker.rules import odds
from battletracker.rules.actions import plan
from battletracker.rules.luck import better_of
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session

# The tripod MG42's 14 Firepower Dice, then the Panzer IV's A.P. round: 6 6 to hit, 11 Strike Dice,
# 6 Armour Dice, and a 6 on the damage table: the Sherman explodes.
MG_DICE = [6, 5, 4, 3, 2] * 2 + [6, 5, 4, 3]
AT_DICE = [6, 6] + [6] * 9 + [1] * 6 + [6] * 3


class Page(HTMLParser):
    """The text of a page, and the percentiles its luck table gives (as exact fractions)."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.percentiles: list[Fraction] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if "data-percentile" in named:
            self.percentiles.append(Fraction(named["data-percentile"] or ""))
        if tag == "img":
            self.images.append(named.get("src") or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    del session.game.terrain["t3"]   # the Bois de la Croix would hide 1st Squad from the tripod MG's burst
    win = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def expected_percentile(procedure: str, inputs: dict[str, object], outcome: str) -> Fraction:
    """P(worse) + P(as good)/2 by the procedure's own order of its outcomes, counted here from its odds."""
    d = odds(procedure, inputs)  # type: ignore[arg-type]
    better = better_of(procedure)
    mine = better(outcome)
    return sum((p for o, p in d.items() if better(o) < mine), Fraction(0)) + \
        sum((p for o, p in d.items() if better(o) == mine), Fraction(0)) / 2


def play_demo(window: MainWindow) -> list[Fraction]:
    """A few Turns, a tripod MG burst and an anti-tank kill; returns the percentiles of the two shots."""
    session = window.session
    game = session.game
    session.act("coc.command_dice", {}, [1, 3, 2, 2, 5])  # a 1 for the tripod MG, a 3 for the Panzer IV
    mg_plan = plan("coc.shoot", game, {"firer": "u3", "target": "u7", "activation": "dice:1"})
    burst = session.act("coc.shoot", {"firer": "u3", "target": "u7", "activation": "dice:1"}, MG_DICE)
    at_plan = plan("coc.at_fire", game, {"firer": "u6", "target": "u11", "activation": "dice:3"})
    kill = session.act("coc.at_fire", {"firer": "u6", "target": "u11", "activation": "dice:3"}, AT_DICE)
    session.end_phase()
    assert "explodes" in kill.outcome
    session.end_turn()
    session.end_phase()
    session.end_turn()
    assert game.turn == 3
    return [expected_percentile(mg_plan.procedure, dict(mg_plan.inputs), burst.outcome),
            expected_percentile(at_plan.procedure, dict(at_plan.inputs), kill.outcome)]


def export(window: MainWindow, monkeypatch: pytest.MonkeyPatch, action: str, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), ""))
    getattr(window, action).trigger()
    assert path.exists()


def test_a_played_demo_game_exports_its_report_map_and_log(window: MainWindow, qtbot: QtBot, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    expected = play_demo(window)
    game = window.session.game
    # Star the Sherman's end in the log: the report pictures that moment.
    explodes = next(i for i, e in enumerate(game.log) if "AFV Explodes" in e.text)
    view = window.log.view
    view.setFocus()
    view.selectionModel().select(window.log.model.index(explodes), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert game.log[explodes].starred

    export(window, monkeypatch, "export_report_action", tmp_path / "report.html")
    page = Page()
    page.feed((tmp_path / "report.html").read_text("utf-8"))
    text = "\n".join(page.text)
    for unit in game.units.values():
        assert unit.name in text
    for turn in (1, 2, 3):
        assert f"Turn {turn}" in text
    assert "The dice luck" in text and "Mean percentile" in text
    assert page.percentiles[1:] == expected  # after the Command Dice roll
    assert any(caption.startswith("Starred: ") for caption in page.text)
    assert len(page.images) >= 4 and all(src.startswith("data:image/png;base64,") for src in page.images)

    export(window, monkeypatch, "export_report_action", tmp_path / "report.pdf")
    pdf = (tmp_path / "report.pdf").read_bytes()
    pages = re.search(rb"/Type\s*/Pages\b.*?/Count (\d+)", pdf, re.DOTALL)
    assert pdf.startswith(b"%PDF") and pages is not None and int(pages.group(1)) > 1

    export(window, monkeypatch, "export_map_action", tmp_path / "map.png")
    image = QImage(str(tmp_path / "map.png"))
    assert image.width() / image.height() == pytest.approx(game.table_width / game.table_height, abs=0.002)
    export(window, monkeypatch, "export_map_action", tmp_path / "map.svg")
    svg = (tmp_path / "map.svg").read_text("utf-8")
    assert "<svg" in svg and f'viewBox="0 0 {round(game.table_width * 10)} {round(game.table_height * 10)}"' in svg

    export(window, monkeypatch, "export_log_action", tmp_path / "log.csv")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "log.csv").read_text("utf-8"))))
    assert len(rows) == len(game.log)
    shots = [r for r in rows if r["dice"] == " ".join(map(str, AT_DICE))]
    assert shots and shots[0]["side"] == "Germany" and shots[0]["turn"] == "1"  # the Panzer fired in the US Phase


def test_a_log_selection_is_copied_as_text_and_a_star_is_undone(window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    session.end_phase()
    session.end_phase()
    view = window.log.view
    model = window.log.model
    view.setFocus()
    for row in (0, 2):
        view.selectionModel().select(model.index(row), QItemSelectionModel.SelectionFlag.Select)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert [line.split("\t")[-1] for line in lines] == [session.game.log[0].text, session.game.log[2].text]
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert "\u2605" in model.data(model.index(2, 0, QModelIndex()))
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert not any(e.starred for e in session.game.log)
    qtbot.keyClick(view, Qt.Key.Key_S)
    session.undo_stack.undo()
    assert not any(e.starred for e in session.game.log)


def test_print_report_prints_every_page_of_the_report(window: MainWindow, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6 import QtPrintSupport

    printed = tmp_path / "printed.pdf"

    class AcceptingDialog:
        """The print dialog as a player who picks "print to file" and presses Print."""

        DialogCode = QtPrintSupport.QPrintDialog.DialogCode

        def __init__(self, printer: QtPrintSupport.QPrinter, _parent: object) -> None:
            self.printer = printer

        def exec(self) -> QtPrintSupport.QPrintDialog.DialogCode:
            self.printer.setOutputFormat(QtPrintSupport.QPrinter.OutputFormat.PdfFormat)
            self.printer.setOutputFileName(str(printed))
            return self.DialogCode.Accepted

    monkeypatch.setattr(QtPrintSupport, "QPrintDialog", AcceptingDialog)
    play_demo(window)
    window.print_report_action.trigger()
    assert printed.read_bytes().startswith(b"%PDF")


def test_drawing_the_reports_pictures_replays_nothing(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each picture is drawn from a copy of the table without its history, so no session replays it again."""
    from battletracker.model.game import Game
    from battletracker.rules.report import build_report
    from battletracker.ui.report_export import pictures
    from tests.rules.test_replay import played

    game = played()
    report = build_report(game)
    applied: list[object] = []
    apply_all = Game.apply_all
    monkeypatch.setattr(Game, "apply_all", lambda state, effects: applied.append(effects) or apply_all(state, effects))
    drawn = pictures(report)
    assert set(drawn) == {m.key for m in report.moments} and all(png.startswith(b"\x89PNG") for png in drawn.values())
    assert applied == []
