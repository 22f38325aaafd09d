"""The cards dock: every unit's card, grouped under its side's header.

The panel follows the session: a change to some units updates only their
cards, a roster change adds, removes or moves cards, and only a change to
everything (a new game, a side edited) looks at every card again. Cards are
filled in when they scroll into view, so a long roster stays quick to open
and to change. Refusals (Shock below zero, no rounds left) appear as a notice
at the foot of the panel and on `status_message`; nothing is applied.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QPalette
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.changes import Changes
from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.ui.cards.card import UnitCard
from battletracker.ui.cards.header import SideHeader
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import literal

if TYPE_CHECKING:
    from battletracker.rules.actions import Choices

NOTICE_MS = 8000
KEEP_BUILT = 60
REFILL_SLICE_S = 0.008  # cards built again after the features install: about this long a turn, one card at least


class CardsPanel(QWidget):
    """Cards grouped by side in a scroll area, with a filter and an Add unit button."""

    status_message = Signal(str)
    action_requested = Signal(str, str)  # action key, unit id
    menu_opening = Signal()  # a card's menu is about to be built: the window installs the features if need be

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._cards: dict[str, UnitCard] = {}
        self._live: set[UnitCard] = set()
        self._stale: set[UnitCard] = set()  # filled in before card sections were added: built again in view
        self._headers: list[SideHeader] = []
        self._order: list[QWidget] = []
        self._selected: str | None = None
        self._pending_scroll: str | None = None
        self._metrics: tuple[int, int] | None = None

        root = QVBoxLayout(self)
        root.setContentsMargins(0, 0, 0, 0)
        root.setSpacing(4)

        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 0)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("filter")
        self.filter.setPlaceholderText("Filter units by name")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _t: self._apply_visibility())
        self.filter.installEventFilter(self)
        self.add_button = QToolButton(self)
        self.add_button.setObjectName("add_unit")
        self.add_button.setText("Add unit\u2026")
        self.add_button.setToolTip("Add a unit or vehicle from the ruleset's presets")
        self.add_button.clicked.connect(self.add_unit)
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.add_button)
        root.addLayout(bar)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("cards_scroll")
        # Qt's own viewport, made here instead: PySide6 spends milliseconds the first
        # time it hands Python a widget Qt made, which the first paint need not wait for.
        viewport = QWidget()
        viewport.setObjectName("qt_scrollarea_viewport")
        viewport.setAutoFillBackground(True)
        viewport.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents)
        viewport.setBackgroundRole(QPalette.ColorRole.NoRole)
        self.scroll_area.setViewport(viewport)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.container = QWidget()
        self.container.setObjectName("cards")
        self._layout = QVBoxLayout(self.container)
        self._layout.setContentsMargins(4, 0, 4, 6)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.scroll_area.setWidget(self.container)
        root.addWidget(self.scroll_area, 1)

        self.notice = RefusalBanner(self)
        self.notice.setObjectName("notice")
        self.notice.setToolTip("Click to dismiss")
        self.notice.installEventFilter(self)
        root.addWidget(self.notice)
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.setInterval(NOTICE_MS)
        self._notice_timer.timeout.connect(self.notice.clear)

        self._realise_timer = QTimer(self)
        self._realise_timer.setSingleShot(True)
        self._realise_timer.setInterval(0)
        self._realise_timer.timeout.connect(self._realise)
        self.scroll_area.verticalScrollBar().valueChanged.connect(lambda _v: self._realise_timer.start())
        self.scroll_area.viewport().installEventFilter(self)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.scroll_area.installEventFilter(self)

        session.changed.connect(self._on_changed)
        session.game_replaced.connect(self._on_game_replaced)
        session.selection_changed.connect(self._on_selection)
        self._reconcile()
        self._on_selection(session.selected)

    # -- public -----------------------------------------------------------------
    def card(self, unit_id: str) -> UnitCard | None:
        """The unit's card, filled in and up to date (None when there is no such unit)."""
        card = self._cards.get(unit_id)
        if card is not None:
            self._fill(card)
        return card

    def headers(self) -> list[SideHeader]:
        return list(self._headers)

    def act(self, name: str, choices: Choices) -> bool:
        """Take one action (rules/actions.py) as an undo step; a refusal is shown and nothing changes."""
        try:
            self.session.act(name, choices)
        except (GameError, RulesInputError) as exc:
            self.show_refusal(message_of(exc))
            return False
        return True

    def show_refusal(self, text: str) -> None:
        self.notice.show_refusal(f"Not applied: {text}")
        self._notice_timer.start()
        self.status_message.emit(f"Not applied: {text}")

    def select_unit(self, unit_id: str) -> None:
        self.scroll_area.setFocus(Qt.FocusReason.MouseFocusReason)   # so the arrow keys go on from this card
        self.session.select(unit_id)

    def unit_order(self) -> list[str]:
        """The units in the order of their cards, leaving out the ones filtered out or folded away."""
        shown = [w.unit_id for w in self._order if isinstance(w, UnitCard) and self._visible(w)]
        return shown or [w.unit_id for w in self._order if isinstance(w, UnitCard)]

    def select_step(self, step: int) -> None:
        """Select the next (`step` 1) or previous (-1) unit in card order, going round at the ends."""
        order = self.unit_order()
        if not order:
            return
        selected = self.session.selected
        start = order.index(selected) if selected in order else (-1 if step > 0 else 0)
        self.session.select(order[(start + step) % len(order)])

    def run_action(self, key: str, unit_id: str) -> None:
        """A unit action from a card's menu; the window that hosts the panel carries it out."""
        self.action_requested.emit(key, unit_id)

    def menu_opens(self) -> None:
        self.menu_opening.emit()

    def add_unit(self) -> None:
        from battletracker.ui.unit_dialog import UnitDialog

        self._open_dialog(UnitDialog(self.session, None, self))

    def edit_unit(self, unit_id: str) -> None:
        from battletracker.ui.unit_dialog import UnitDialog

        if unit_id in self.session.game.units:
            self._open_dialog(UnitDialog(self.session, unit_id, self))

    def remove_unit(self, unit_id: str) -> None:
        """Ask first; the removal is one undo step that puts the unit back where it was."""
        from PySide6.QtWidgets import QMessageBox  # not needed for the window's first paint

        game = self.session.game
        unit = game.units.get(unit_id)
        if unit is None:
            return
        answer = QMessageBox.question(
            self, "Remove unit",
            literal(f"Remove {unit.name} from the table?\n\nUndo puts it back with everything it had."),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.act("unit.remove", {"unit": unit.id})

    def _open_dialog(self, dialog: QDialog) -> None:
        """Window-modal, so the unit cannot change under the dialog before OK."""
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def sections_added(self) -> None:
        """Card sections were added: the filled-in cards are built again with them, from the next turn on.

        Every card stays (its height, selection and folded side with it) and shows what it showed until
        it is built again: those in view a slice of about `REFILL_SLICE_S` a turn of the event loop, the
        others as they come into view. Adding the features itself builds no card, and a panel of cards
        that take milliseconds each never holds the window for all of them at once.
        """
        self._stale.update(self._live)
        self._realise_timer.start()

    # -- following the session ----------------------------------------------------
    def _on_game_replaced(self) -> None:
        for card in self._cards.values():
            self._discard(card)
        self._cards = {}
        self._selected = None
        for header in self._headers:
            header.set_folded(False)
        self._reconcile()

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything:
            self._reconcile()
            for card in self._cards.values():
                card.mark_dirty()
            self._realise_timer.start()
            return
        if changes.roster:
            self._reconcile()
        elif changes.sides:
            self._update_headers()
        units = set(changes.units)
        game = self.session.game
        if changes.clock:
            # who has acted this Phase is read against the clock
            units.update(u.id for u in game.units.values() if u.acted is not None or u.activation is not None)
        if (changes.clock or changes.sides) and game.ruleset == "chain_of_command":
            # what the held Command Dice may activate is on the active side's cards
            units.update(u.id for u in game.units.values() if u.side == game.active_side)
        for unit_id in units:
            touched = self._cards.get(unit_id)
            if touched is None:
                continue
            touched.mark_dirty()
            if touched in self._stale:
                touched.ensure_current()  # its values now; built again with the new sections in view
            elif touched.built:
                self._fill(touched)
            else:
                touched.estimate(*self._estimates())
            self._apply_visibility_to(touched)
        if units:
            self._realise_timer.start()

    def _on_selection(self, unit_id: str | None) -> None:
        old = self._cards.get(self._selected or "")
        if old is not None:
            old.set_selected(False)
        self._selected = unit_id
        card = self._cards.get(unit_id or "")
        if card is None:
            return
        card.set_selected(True)
        unit = self.session.game.units.get(card.unit_id)
        if unit is not None and 0 <= unit.side < len(self._headers):
            self._headers[unit.side].set_folded(False)
        self._pending_scroll = card.unit_id
        self._realise_timer.start()

    # -- structure -----------------------------------------------------------------
    def _reconcile(self) -> None:
        """Make the cards and headers match the roster, keeping every card that still belongs."""
        game = self.session.game
        while len(self._headers) < len(game.sides):
            header = SideHeader(len(self._headers), self.container)
            header.step.connect(lambda field, delta, i=header.index: self._step_side(i, field, delta))
            header.folded.connect(lambda _f: self._apply_visibility())
            self._headers.append(header)
        while len(self._headers) > len(game.sides):
            self._discard(self._headers.pop())

        for unit_id in [u for u in self._cards if u not in game.units]:
            self._discard(self._cards.pop(unit_id))
        line, control = self._estimates()
        for unit_id in game.units:
            if unit_id not in self._cards:
                card = UnitCard(self.session, unit_id, self, self.container)
                card.estimate(line, control)
                self._cards[unit_id] = card

        order: list[QWidget] = []
        by_side: dict[int, list[QWidget]] = {}
        for unit in game.units.values():
            by_side.setdefault(unit.side, []).append(self._cards[unit.id])
        for index, header in enumerate(self._headers):
            order.append(header)
            order.extend(by_side.pop(index, []))
        for stray in by_side.values():
            order.extend(stray)
        if order != self._order:
            while self._layout.count():
                self._layout.takeAt(0)
            for widget in order:
                self._layout.addWidget(widget)
            self._layout.addStretch(1)
            self._order = order

        for unit in game.units.values():
            if 0 <= unit.side < len(game.sides):
                self._cards[unit.id].set_side_colour(QColor(game.sides[unit.side].colour))
        self._update_headers()
        self._apply_visibility()
        if self._selected is not None and self._selected in self._cards:
            self._cards[self._selected].set_selected(True)

    def _update_headers(self) -> None:
        game = self.session.game
        counts = [0] * len(game.sides)
        for unit in game.units.values():
            if 0 <= unit.side < len(counts):
                counts[unit.side] += 1
        per_die = game.settings.get("command_dice_pips_per_die", 6)
        per_die = per_die if isinstance(per_die, int) and not isinstance(per_die, bool) else 6
        for header, side, count in zip(self._headers, game.sides, counts, strict=True):
            header.set_side(side, count, self.session.game.ruleset == "chain_of_command", per_die)

    def _step_side(self, index: int, field: str, delta: int) -> None:
        self.act("side.change", {"side": index, "value": field, "delta": delta})

    def _visible(self, card: UnitCard) -> bool:
        unit = self.session.game.units.get(card.unit_id)
        if unit is None:
            return False
        if 0 <= unit.side < len(self._headers) and self._headers[unit.side].is_folded:
            return False
        wanted = self.filter.text().strip().casefold()
        return not wanted or wanted in unit.name.casefold()

    def _apply_visibility_to(self, card: UnitCard) -> None:
        card.setVisible(self._visible(card))

    def _apply_visibility(self) -> None:
        for card in self._cards.values():
            self._apply_visibility_to(card)
        self._realise_timer.start()

    def _discard(self, widget: QWidget) -> None:
        if isinstance(widget, UnitCard):
            self._live.discard(widget)
            self._stale.discard(widget)
        widget.hide()
        widget.deleteLater()

    def _fill(self, card: UnitCard) -> bool:
        """Fill in or update a card (built again if it was filled in before sections were added), keeping
        count of the filled-in ones."""
        if card in self._stale:
            self._stale.discard(card)
            card.release()
        done = card.ensure_current()
        if card.built:
            self._live.add(card)
        return done

    # -- filling cards in as they come into view -----------------------------------------
    def _estimates(self) -> tuple[int, int]:
        if self._metrics is None:
            probe = QToolButton()
            probe.setText("+")
            self._metrics = (self.fontMetrics().lineSpacing(), probe.sizeHint().height())
            probe.deleteLater()
        return self._metrics

    def _realise(self) -> None:
        """Fill in the cards in the viewport, then on the next round those near it; keep a pending selection in view.

        The cards out of sight wait for a round of their own, so the window's first paint
        waits only for the cards the player sees.
        """
        if not self.isVisible():
            return
        bar = self.scroll_area.verticalScrollBar()
        height = self.scroll_area.viewport().height()
        # Cards built again after the install come a slice a turn; any other filling-in is never cut short.
        until = time.perf_counter() + REFILL_SLICE_S if self._stale else None
        built = self._fill_between(bar.value(), bar.value() + height, until)
        if not built:
            built = self._fill_between(bar.value() - height // 2, bar.value() + height + height // 2, until)
        target = self._cards.get(self._pending_scroll or "")
        if target is not None and not target.isHidden():
            built = self._fill(target) or built
            if not built:
                before = bar.value()
                self.scroll_area.ensureWidgetVisible(target, 0, 12)
                if bar.value() == before:
                    self._pending_scroll = None
        else:
            self._pending_scroll = None
        if built:
            self._realise_timer.start()
        self._release_far(bar.value() - 2 * height, bar.value() + 3 * height)

    def _fill_between(self, top: int, bottom: int, until: float | None = None) -> bool:
        """Fill in the shown cards between `top` and `bottom` of the scrolled area; True when any was filled or
        is left for the next turn. Cards to build again with new sections wait for the next turn once one has
        been built and `time.perf_counter()` is past `until`; every other card is filled in now."""
        built = rebuilt = False
        for widget in self._order:
            if not isinstance(widget, UnitCard) or widget.isHidden():
                continue
            geometry = widget.geometry()
            if geometry.bottom() < top:
                continue
            if geometry.top() > bottom:
                break
            stale = widget in self._stale
            if stale and rebuilt and until is not None and time.perf_counter() > until:
                built = True  # left for the next turn
                continue
            done = self._fill(widget)
            built = done or built
            rebuilt = rebuilt or (stale and done)
        return built

    def _release_far(self, top: int, bottom: int) -> None:
        """Past KEEP_BUILT filled-in cards, empty those well out of view so layouts stay cheap."""
        if len(self._live) <= KEEP_BUILT:
            return
        for card in list(self._live):
            geometry = card.geometry()
            far = card.isHidden() or geometry.bottom() < top or geometry.top() > bottom
            if far and card.unit_id != self._pending_scroll:
                card.release()
                self._live.discard(card)
                self._stale.discard(card)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._realise_timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.scroll_area and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1}.get(Qt.Key(event.key()))
            if step is not None:
                self.select_step(step)
                return True
        if watched is self.filter and event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and event.matches(QKeySequence.StandardKey.Undo) and not self.filter.isUndoAvailable():
            # Nothing typed to undo: Ctrl+Z goes to the window and undoes the game.
            event.ignore()
            return True
        if watched is self.scroll_area.viewport() and event.type() == QEvent.Type.Resize:
            self._realise_timer.start()
        elif watched is self.notice and event.type() == QEvent.Type.MouseButtonPress:
            self.notice.clear()
            return True
        return super().eventFilter(watched, event)
