"""A card says each thing once: a section's own rows are not repeated as generic counters or badges."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import ChangeCounter
from battletracker.rules.tables import resources_dir
from battletracker.ui.cards.card import UnitCard
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def window_on(qtbot: QtBot, demo: str, tmp_path: Path) -> MainWindow:
    session = Session(savefile.load(resources_dir() / "demo" / demo))
    win = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.feature_host.load()
    win.show()
    qtbot.waitExposed(win)
    return win


def card_texts(card: UnitCard) -> list[str]:
    """Every line of text the card shows: labels and badges."""
    labels = [w.text() for w in card.findChildren(QLabel) if w.isVisibleTo(card) and w.text()]
    return labels + [chip.text for chip in card.chips.chips()]


def times(texts: list[str], word: str) -> int:
    return sum(1 for t in texts if word.lower() in t.lower())


def test_armour_battles_card_shows_suppression_and_disruption_once(qtbot: QtBot, tmp_path: Path) -> None:
    win = window_on(qtbot, "armour_battles.json", tmp_path)
    card = win.cards.card("rifles")
    assert card is not None
    for tip in ("Suppress the unit", "Suppress the unit", "Add a Disruption Point"):  # artillery suppressed, +1
        card = win.cards.card("rifles")
        assert card is not None
        [button] = [b for b in card.findChildren(QToolButton) if b.toolTip().startswith(tip) and b.isVisibleTo(card)]
        qtbot.waitUntil(lambda b=button: b.height() >= b.minimumSizeHint().height())   # laid out, so clickable
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    card = win.cards.card("rifles")
    assert card is not None
    texts = card_texts(card)
    assert times(texts, "suppressed") == 1, texts
    assert times(texts, "disruption") == 1, texts
    assert "Suppressed (artillery)" in texts and any(t.startswith("1 of ") for t in texts), texts


def test_sniper_card_shows_its_shot_count_once(qtbot: QtBot, tmp_path: Path) -> None:
    win = window_on(qtbot, "chain_of_command.json", tmp_path)
    win.session.apply("Sniper shot", [ChangeCounter("u9", "sniper_shots", 2)])
    card = win.cards.card("u9")
    assert card is not None
    texts = card_texts(card)
    assert times(texts, "shot") == 1, texts
    assert any(t.startswith("Shots fired: 2") for t in texts)
