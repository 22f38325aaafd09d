"""The main window as the rules features see it: the `FeatureHost`, their installing, and their unit actions.

The features come in after the first paint (or at once, when the player reaches for one before that);
their unit actions are entries of the window's, in the Actions menu, the map's menu and the cards' menus.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QWidget

from battletracker.ui.extensions import DockId
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import MenuId
from battletracker.ui.extensions import add_features
from battletracker.ui.extensions import all_unit_actions
from battletracker.ui.extensions import unit_action as unit_action_by_key
from battletracker.ui.extensions import unit_actions
from battletracker.ui.extensions import window_extensions
from battletracker.ui.text import literal

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.map.view import MapView
    from battletracker.ui.session import Session


class WindowFeatures:
    """The `FeatureHost` (battletracker.ui.extensions) the window hands its features, and their unit actions' entries.

    A feature gets this rather than the window, so it reaches only the host's members; the window
    answers the same calls (it delegates here), so a test may hand either to a unit action.
    """

    def __init__(self, window: MainWindow, features: Callable[[], Iterable[Feature]] | None) -> None:
        """`features` gives the features to add (see `MainWindow`); without it those already added are used."""
        self._window = window
        self._features = features
        self.loaded = False
        self.error: Exception | None = None
        """Why the features did not load, if they did not."""
        self.entries: dict[str, QAction] = {}
        """The window's entry for each unit action, by its key, once the features are installed."""
        self.menus: dict[MenuId, QMenu] = {}
        """The window's menus by their stable ids, filled as the window builds its menu bar."""
        self.docks: dict[DockId, QDockWidget] = {}
        """The window's own docks a feature's dock may sit beside."""

    # -- the FeatureHost ----------------------------------------------------------------
    @property
    def session(self) -> Session:
        return self._window.session

    @property
    def map(self) -> MapView:
        return self._window.map

    def window(self) -> QWidget:
        return self._window

    def add_dock(self, dock: QDockWidget, area: Qt.DockWidgetArea, tabify_with: DockId | None = None) -> None:
        """Dock a feature's `dock`, listed in the View menu; beside `tabify_with`, which stays in front."""
        self._window.addDockWidget(area, dock)
        if tabify_with is not None:
            self._window.tabifyDockWidget(self.docks[tabify_with], dock)
            self.docks[tabify_with].raise_()
        self.menus["view"].addAction(dock.toggleViewAction())

    def menu(self, menu_id: MenuId) -> QMenu:
        return self.menus[menu_id]

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        self._window.show_status(text, timeout_ms)

    def status_text(self) -> str:
        return self._window.status_text()

    # -- installing ---------------------------------------------------------------------
    def load(self) -> None:
        """Add the features: their unit actions, card sections and window extensions, and fit dialogs to the screen.

        The warm-up calls it once the rules are imported; a feature's shortcut, a menu or a unit action
        reached for before then calls it at once.
        """
        if self.loaded:
            return
        self.loaded = True  # once only, even if it fails: a second try would add what did load again
        try:
            self._install()
        except Exception as exc:  # noqa: BLE001 - the window goes on with what it has, and says what is missing
            import logging

            logging.getLogger("battletracker").exception("the rules features did not load")
            self.error = exc
            self._failed(exc)

    def _install(self) -> None:
        window = self._window
        window.dialog_fitter.install()
        if self._features is not None:
            add_features(self._features())
        for unit_action in all_unit_actions():
            entry = window.make_action(unit_action.title, lambda _=False, k=unit_action.key: self.run_unit_action(k),
                                       unit_action.shortcut, None, unit_action.tip or None)
            entry.setObjectName(f"action_{unit_action.key}")
            window.addAction(entry)
            self.entries[unit_action.key] = entry
        for extend in window_extensions():
            extend(self)
        window.cards.sections_added()
        self.update_unit_actions()

    def _failed(self, exc: Exception) -> None:
        """Say so, without blocking the window: the game can go on without the features that did not load."""
        from PySide6.QtWidgets import QMessageBox

        from battletracker.ui.app_log import log_path

        box = QMessageBox(QMessageBox.Icon.Critical, "Rules features not loaded",
                          literal("Some of the rules' procedures, panels and unit actions could not be loaded, so "
                                  "they are missing from this window. The game itself can still be played, "
                                  f"saved and undone.\n\n{exc}\n\nThe details are in the app's log, {log_path()}: "
                                  "send it with a report."),
                          QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("features_failed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def press_before_loading(self, event: QKeyEvent) -> bool:
        """A key pressed before the features are installed: install them, and carry out the unit action
        whose shortcut it is. Whether it was one: otherwise the window handles the key as usual."""
        if self.loaded:
            return False
        self.load()
        pressed = QKeySequence(event.keyCombination())
        for entry in self.entries.values():
            if entry.isEnabled() and entry.shortcut().matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                entry.trigger()
                return True
        return False

    # -- the unit actions ---------------------------------------------------------------
    def update_unit_actions(self) -> None:
        """Only the selected unit's actions are on, and none while replaying."""
        session = self.session
        unit = None if session.replaying else session.game.units.get(session.selected or "")
        available = {a.key for a in unit_actions(session.game, unit)} if unit is not None else set()
        for key, entry in self.entries.items():
            entry.setEnabled(key in available)

    def fill_actions_menu(self) -> None:
        """The Actions menu, refilled as it opens with what the selected unit can do."""
        self.load()
        menu = self._window.actions_menu
        menu.clear()
        session = self.session
        unit = session.game.units.get(session.selected or "")
        if unit is None:
            menu.addAction("Select a unit on the map or its card").setEnabled(False)
            return
        menu.addSection(unit.name)
        entries = [self.entries[a.key] for a in unit_actions(session.game, unit)]
        if not entries:
            menu.addAction("Nothing to do with this unit").setEnabled(False)
        menu.addActions(entries)

    def map_context_menu(self, unit_id: str | None, where: QPoint) -> None:
        """A unit's actions, and editing or removing it, at the point of the map the player right-clicked."""
        session, window = self.session, self._window
        if unit_id is None or unit_id not in session.game.units:
            return
        self.load()
        session.select(unit_id)
        menu = QMenu(window)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addSection(session.game.unit(unit_id).name)
        for unit_action in unit_actions(session.game, session.game.unit(unit_id)):
            menu.addAction(self.entries[unit_action.key])
        menu.addSeparator()
        menu.addActions([window.edit_unit_action, window.remove_unit_action])
        menu.popup(self.map.mapToGlobal(where))

    def run_unit_action(self, key: str, unit_id: str | None = None) -> None:
        """Carry out a registered unit action for `unit_id` (default: the selected unit)."""
        self.load()
        session = self.session
        unit_id = unit_id or session.selected
        if unit_id is None or unit_id not in session.game.units:
            self.show_status("Select a unit first", 5000)
            return
        unit_action = unit_action_by_key(key)
        if not unit_action.available(session.game, session.game.unit(unit_id)):
            self.show_status(f"{unit_action.title.rstrip('.')} does not apply to this unit", 5000)
            return
        session.select(unit_id)
        unit_action.run(self, unit_id)
