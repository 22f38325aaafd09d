"""The main window: the map in the centre, cards, log and undo history in docks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, QSettings, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeyEvent, QKeySequence, QPaintEvent, QUndoStack
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QToolBar,
    QUndoView,
    QWidget,
)

from battletracker.model import savefile
from battletracker.model.changes import Changes
from battletracker.model.game import Game, GameError
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.tables import resources_dir
from battletracker.ui.cards import CardsPanel
from battletracker.ui.extensions import (
    DockId,
    Feature,
    MenuId,
    add_features,
    all_unit_actions,
    unit_actions,
    window_extensions,
)
from battletracker.ui.extensions import unit_action as unit_action_by_key
from battletracker.ui.features import MODULES as FEATURE_MODULES
from battletracker.ui.files import SaveError, fingerprint, save_game
from battletracker.ui.fit import DialogFitter, screen_room
from battletracker.ui.log_view import LogPanel
from battletracker.ui.map.view import MapView
from battletracker.ui.recovery import Orphan, Recovery
from battletracker.ui.session import Session
from battletracker.ui.text import esc, literal
from battletracker.ui.warmup import WarmUp

if TYPE_CHECKING:
    from battletracker.ui.replay_panel import ReplayBanner, ReplayPanel

FILE_FILTER = "BattleTracker games (*.battle *.json);;All files (*)"
MAX_RECENT = 8
OPENING_AT_START = "start/opening"
"""The setting naming the game a start is opening, until its first paint: there after a start that crashed."""


def safe_file_name(title: str) -> str:
    """A file name from a game title that every desktop system accepts."""
    cleaned = "".join("-" if c in '<>:"/\\|?*' or ord(c) < 32 else c for c in title).strip(" .")
    return cleaned or "battle"


class MainWindow(QMainWindow):
    """The window; to the rules features it is a `FeatureHost` (battletracker.ui.extensions)."""

    first_painted = Signal()  # the first frame, the window and everything in it, is painted

    def __init__(self, session: Session, recovery: Recovery | None = None, parent: QWidget | None = None,
                 features: Callable[[], Iterable[Feature]] | None = None) -> None:
        """`features` gives the rules features to add just after the first paint (app.py passes
        `battletracker.ui.features.all_features`); without it the window uses those already added."""
        super().__init__(parent)
        self.session = session
        self.features = features
        self.recovery = recovery if recovery is not None else Recovery(session, parent=self)
        self.settings = QSettings()
        self.painted = False
        self.setWindowIcon(QIcon(str(resources_dir() / "icons" / "battletracker.svg")))
        self.setMinimumSize(800, 560)
        self.map = MapView(session, self)
        self.setCentralWidget(self.map)
        # Installed with the features, after the first paint: an application-wide Python event filter
        # sees every event of every object, and the first one for an object Qt made itself has
        # PySide6 load every Qt class (a few hundred enums) before the window could paint.
        self.dialog_fitter = DialogFitter(self, beside=self.map)
        self.cards = CardsPanel(session, self)
        self.log = LogPanel(session, self)
        self.cards_dock = self._dock("Units", "units", self.cards, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.log_dock = self._dock("Battle log", "log", self.log, Qt.DockWidgetArea.RightDockWidgetArea)
        # The undo history is a tab behind the log: its view is made the first time the tab shows.
        self.history: QUndoView | None = None
        self.history_dock = self._dock("History", "history", QWidget(self), Qt.DockWidgetArea.RightDockWidgetArea)
        self.history_dock.visibilityChanged.connect(self._show_history)
        self._docks: dict[DockId, QDockWidget] = {"units": self.cards_dock, "log": self.log_dock,
                                                  "history": self.history_dock}
        self.tabifyDockWidget(self.log_dock, self.history_dock)
        # The replay's timeline and banner are made the first time they show.
        self._replay_panel: ReplayPanel | None = None
        self._replay_banner: ReplayBanner | None = None
        self.replay_dock = self._dock("Replay", "replay", QWidget(self), Qt.DockWidgetArea.BottomDockWidgetArea)
        self.replay_dock.hide()
        self.replay_dock.visibilityChanged.connect(lambda visible: self.replay_panel if visible else None)
        self.log_dock.raise_()
        self.resizeDocks([self.cards_dock, self.log_dock], [330, 360], Qt.Orientation.Horizontal)

        self.clock_label = QLabel(self)
        self.clock_label.setObjectName("clock")
        self.clock_label.setMargin(6)
        self._build_actions()
        self._build_menus_and_toolbar()

        session.changed.connect(self._on_changed)
        session.modified_changed.connect(self.setWindowModified)
        session.path_changed.connect(lambda _p: self._update_title())
        session.game_replaced.connect(self._update_title)
        session.game_replaced.connect(self._say_history_lost)
        session.selection_changed.connect(self._on_selection)
        session.replay_changed.connect(self._on_replay_changed)
        self.cards.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.recovery.status.connect(lambda text, timeout: self.statusBar().showMessage(text, timeout))
        self.cards.action_requested.connect(lambda key, unit_id: self.run_unit_action(key, unit_id))
        self.cards.menu_opening.connect(self.load_features)
        self.map.refused.connect(lambda text: self.statusBar().showMessage(f"Not applied: {text}", 8000))
        self.map.context_requested.connect(self._map_context_menu)
        self.map.unit_activated.connect(lambda unit_id: self.cards.edit_unit(unit_id))
        self._update_title()
        self._update_clock()
        self._on_selection(session.selected)
        self._say_history_lost()
        self.features_loaded = False
        self.features_error: Exception | None = None  # why the features did not load, if they did not
        self.warm_up = WarmUp(self, lambda: self.session.game.ruleset, self._dice_dialog, self.load_features,
                              FEATURE_MODULES if features is not None else ())
        self.guide_window: QDialog | None = None
        self._restore_settings()

    # -- construction -------------------------------------------------------------
    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{name}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _show_history(self, visible: bool) -> None:
        if visible and self.history is None:
            self.history = QUndoView(self.session.undo_stack, self)
            self.history.setEmptyLabel("Game start")
            self.history.setEnabled(not self.session.replaying)
            placeholder = self.history_dock.widget()
            self.history_dock.setWidget(self.history)
            placeholder.deleteLater()

    @property
    def replay_panel(self) -> ReplayPanel:
        """The Replay dock's timeline, made the first time the dock shows or a replay starts."""
        if self._replay_panel is None:
            from battletracker.ui.replay_panel import ReplayPanel

            self._replay_panel = ReplayPanel(self.session, self)
            self._replay_panel.start_requested.connect(self.start_replay)
            self._replay_panel.continue_requested.connect(self.continue_from_here)
            placeholder = self.replay_dock.widget()
            self.replay_dock.setWidget(self._replay_panel)
            self._replay_panel.show()  # now, not on the next round: a replay starting puts the focus in it
            placeholder.deleteLater()
        return self._replay_panel

    @property
    def replay_banner(self) -> ReplayBanner:
        """The read-only line above the map, made when the first replay starts."""
        if self._replay_banner is None:
            self._replay_banner = self._make_replay_banner()
        return self._replay_banner

    def _make_replay_banner(self) -> ReplayBanner:
        from battletracker.ui.replay_panel import ReplayBanner

        banner = ReplayBanner(self.session, self)
        self.banner_bar.addWidget(banner)
        return banner

    def _action(self, text: str, slot: object,
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                icon: str | None = None, tip: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if icon:
            action.setIcon(QIcon.fromTheme(icon))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        key = QKeySequence.StandardKey
        stack: QUndoStack = self.session.undo_stack
        self.new_action = self._action("&New game...", self.new_game, key.New, "document-new", "Start a new game")
        self.open_action = self._action("&Open...", self.open_dialog, key.Open, "document-open", "Open a saved game")
        self.save_action = self._action("&Save", self.save, key.Save, "document-save", "Save the game")
        self.save_as_action = self._action("Save &As...", self.save_as, key.SaveAs, "document-save-as")
        self.quit_action = self._action("&Quit", self.close, key.Quit, "application-exit")
        self.export_report_action = self._action("Export &report...", self.export_report, None, None,
                                                 "Save the battle report as a web page (HTML) or a PDF")
        self.print_report_action = self._action("&Print report...", self.print_report, key.Print, "document-print",
                                                "Print the battle report")
        self.export_map_action = self._action("Export &map...", self.export_map, None, None,
                                              "Save a picture of the table as PNG or SVG")
        self.export_log_action = self._action("Export &log as CSV...", self.export_log, None, None,
                                              "Save the battle log as a spreadsheet table (CSV)")
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(key.Undo)
        self.undo_action.setIcon(QIcon.fromTheme("edit-undo"))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcut(key.Redo)
        self.redo_action.setIcon(QIcon.fromTheme("edit-redo"))
        # The toolbar keeps short, fixed labels so End Phase / End Turn never move;
        # the tooltip names the step.
        self.undo_button_action = self._action("Undo", stack.undo, None, "edit-undo")
        self.redo_button_action = self._action("Redo", stack.redo, None, "edit-redo")
        self.undo_button_action.setEnabled(stack.canUndo())
        self.redo_button_action.setEnabled(stack.canRedo())
        stack.canUndoChanged.connect(self.undo_button_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_button_action.setEnabled)
        stack.undoTextChanged.connect(self._undo_text_changed)
        stack.redoTextChanged.connect(self._redo_text_changed)
        self.add_unit_action = self._action("&Add unit...", self.add_unit, "Ctrl+Shift+A", "list-add",
                                            "Add a unit or vehicle from the ruleset's presets")
        self.edit_unit_action = self._action("&Edit unit...", self.edit_unit, "Ctrl+E", "document-properties",
                                             "Edit the selected unit")
        self.remove_unit_action = self._action("&Remove unit", self.remove_unit, key.Delete, "list-remove",
                                               "Remove the selected unit")
        self.end_phase_action = self._action("End &Phase", self.end_phase, "Ctrl+Return", None,
                                             "End this Phase: the other side's Phase begins")
        self.end_turn_action = self._action("End &Turn", self.end_turn, "Ctrl+Shift+Return", None,
                                            "End the Turn: everything due at the Turn end happens")
        self.dice_action = self._action("&Dice...", self.open_dice, "Ctrl+D", None,
                                        "Roll dice with the exact odds shown first")
        self.settings_action = self._action("Ruleset &settings...", self.open_settings, None, None,
                                            "Rules the documents do not state: defaults to check")
        self.fit_action = self.map.fit_action
        self.zoom_in_action = self.map.zoom_in_action
        self.zoom_out_action = self.map.zoom_out_action
        self.next_unit_action = self._action("Select &Next Unit", lambda: self.cards.select_step(1), "]", None,
                                             "Select the next unit, in the order of the cards (])")
        self.previous_unit_action = self._action("Select &Previous Unit", lambda: self.cards.select_step(-1), "[",
                                                 None, "Select the previous unit ([)")
        self.guide_action = self._action("&User Guide", self.show_guide, QKeySequence.StandardKey.HelpContents,
                                         "help-contents", "How to use BattleTracker (F1)")
        self.measure_action = self.map.measure_action
        self.unit_action_entries: dict[str, QAction] = {}
        self.replay_action = self._action("&Replay the Game", self.start_replay, "Ctrl+Shift+R", None,
                                          "Step through every action from the start, read-only")
        self.replay_keys = [
            self._action("Replay: Back", lambda: self._replay_by(-1), "Left"),
            self._action("Replay: Next", lambda: self._replay_by(1), "Right"),
            self._action("Replay: Start", lambda: self.session.show_step(0), "Home"),
            self._action("Replay: End", lambda: self._replay_by(10**9), "End"),
        ]
        for entry in self.replay_keys:
            entry.setEnabled(False)
            self.addAction(entry)

    def load_features(self) -> None:
        """Add the features: their unit actions, card sections and window extensions, and fit dialogs to the screen.

        The warm-up calls it once the rules are imported; a feature's shortcut, a menu or a unit action
        reached for before then calls it at once.
        """
        if self.features_loaded:
            return
        self.features_loaded = True  # once only, even if it fails: a second try would add what did load again
        try:
            self._install_features()
        except Exception as exc:  # noqa: BLE001 - the window goes on with what it has, and says what is missing
            import logging

            logging.getLogger("battletracker").exception("the rules features did not load")
            self.features_error = exc
            self._features_failed(exc)

    def _install_features(self) -> None:
        self.dialog_fitter.install()
        if self.features is not None:
            add_features(self.features())
        for unit_action in all_unit_actions():
            entry = self._action(unit_action.title, lambda _=False, k=unit_action.key: self.run_unit_action(k),
                                 unit_action.shortcut, None, unit_action.tip or None)
            entry.setObjectName(f"action_{unit_action.key}")
            self.addAction(entry)
            self.unit_action_entries[unit_action.key] = entry
        for extend in window_extensions():
            extend(self)
        self.cards.sections_added()
        self._update_unit_actions()

    def _features_failed(self, exc: Exception) -> None:
        """Say so, without blocking the window: the game can go on without the features that did not load."""
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Critical, "Rules features not loaded",
                          literal("Some of the rules' procedures, panels and unit actions could not be loaded, so "
                                  "they are missing from this window. The game itself can still be played, "
                                  f"saved and undone.\n\n{type(exc).__name__}: {exc}"),
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("features_failed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- the FeatureHost the rules features see ------------------------------------------
    def add_dock(self, dock: QDockWidget, area: Qt.DockWidgetArea, tabify_with: DockId | None = None) -> None:
        """Dock a feature's `dock`, listed in the View menu; beside `tabify_with`, which stays in front."""
        self.addDockWidget(area, dock)
        if tabify_with is not None:
            self.tabifyDockWidget(self._docks[tabify_with], dock)
            self._docks[tabify_with].raise_()
        self._menus["view"].addAction(dock.toggleViewAction())

    def menu(self, menu_id: MenuId) -> QMenu:
        return self._menus[menu_id]

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def status_text(self) -> str:
        return self.statusBar().currentMessage()

    def _undo_text_changed(self, text: str) -> None:
        self.undo_button_action.setToolTip(literal(f"Undo {text}".strip()))

    def _redo_text_changed(self, text: str) -> None:
        self.redo_button_action.setToolTip(literal(f"Redo {text}".strip()))

    def _build_menus_and_toolbar(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.demo_menu = file_menu.addMenu("Open &Demo")
        self.demo_menu.setObjectName("demo_menu")
        self.demo_menu.aboutToShow.connect(self._fill_demos)
        file_menu.addSeparator()
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        file_menu.addActions([self.export_report_action, self.print_report_action, self.export_map_action,
                              self.export_log_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit = bar.addMenu("&Edit")
        edit.addActions([self.undo_action, self.redo_action])
        edit.addSeparator()
        edit.addActions([self.add_unit_action, self.edit_unit_action, self.remove_unit_action])
        edit.addSeparator()
        edit.addActions([self.next_unit_action, self.previous_unit_action])
        self.actions_menu = bar.addMenu("&Actions")
        self.actions_menu.aboutToShow.connect(self._fill_actions_menu)
        game = bar.addMenu("&Game")
        game.addActions([self.end_phase_action, self.end_turn_action])
        game.addSeparator()
        game.addActions([self.dice_action, self.settings_action])
        game.addSeparator()
        game.addAction(self.replay_action)
        view = bar.addMenu("&View")
        view.addActions([self.zoom_in_action, self.zoom_out_action, self.fit_action, self.measure_action])
        view.addSeparator()
        self.colours_menu = view.addMenu("&Colours")
        self.colours_menu.setObjectName("colours_menu")
        self.colours_menu.aboutToShow.connect(self._fill_colours)
        view.addSeparator()
        for dock in (self.cards_dock, self.log_dock, self.history_dock, self.replay_dock):
            view.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.guide_action)
        help_menu.addAction(self._action("&About BattleTracker", self.about))
        self._menus: dict[MenuId, QMenu] = {"file": file_menu, "edit": edit, "game": game, "view": view,
                                            "help": help_menu}
        for menu in self._menus.values():
            # A menu opened before the features are installed lists their entries all the same.
            menu.aboutToShow.connect(self.load_features)

        tools = QToolBar("Main", self)
        tools.setObjectName("toolbar-main")
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tools.addActions([self.new_action, self.open_action, self.save_action])
        tools.addSeparator()
        tools.addActions([self.undo_button_action, self.redo_button_action])
        tools.addSeparator()
        tools.addActions([self.add_unit_action, self.dice_action, self.measure_action, self.fit_action])
        tools.addSeparator()
        tools.addWidget(self.clock_label)
        tools.addActions([self.end_phase_action, self.end_turn_action])
        self.addToolBar(tools)
        self.addToolBarBreak()
        self.banner_bar = QToolBar("Replay banner", self)
        self.banner_bar.setObjectName("toolbar-replay")
        self.banner_bar.setMovable(False)
        self.banner_bar.toggleViewAction().setVisible(False)
        self.addToolBar(self.banner_bar)
        self.banner_bar.hide()
        self.statusBar()

    # -- refresh ---------------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if changes.everything or changes.clock or changes.sides:
            self._update_clock()
        if changes.everything:
            self._update_title()
        if changes.everything or changes.roster or (self.session.selected and changes.unit(self.session.selected)):
            self._update_unit_actions()

    def _update_clock(self) -> None:
        g = self.session.game
        side = g.sides[g.active_side].name if g.sides else ""
        # Rich text for the bold numbers; the side's name is escaped, and rich text runs a line break in a
        # name into a space, so the clock stays one line whatever the side is called.
        self.clock_label.setText(f"Turn <b>{g.turn}</b> · Phase <b>{g.phase}</b> · {esc(side)}")

    def _update_title(self) -> None:
        path = self.session.path
        where = path.name if path else "not saved"
        self.setWindowTitle(f"{self.session.game.title} ({where})[*] - BattleTracker")
        self.setWindowModified(self.session.modified)

    def _on_selection(self, unit_id: str | None) -> None:
        editable = unit_id is not None and not self.session.replaying
        self.edit_unit_action.setEnabled(editable)
        self.remove_unit_action.setEnabled(editable)
        self._update_unit_actions()

    def _update_unit_actions(self) -> None:
        unit = None if self.session.replaying else self.session.game.units.get(self.session.selected or "")
        available = {a.key for a in unit_actions(self.session.game, unit)} if unit is not None else set()
        for key, entry in self.unit_action_entries.items():
            entry.setEnabled(key in available)

    def _fill_actions_menu(self) -> None:
        self.load_features()
        self.actions_menu.clear()
        unit = self.session.game.units.get(self.session.selected or "")
        if unit is None:
            self.actions_menu.addAction("Select a unit on the map or its card").setEnabled(False)
            return
        self.actions_menu.addSection(unit.name)
        entries = [self.unit_action_entries[a.key] for a in unit_actions(self.session.game, unit)]
        if not entries:
            self.actions_menu.addAction("Nothing to do with this unit").setEnabled(False)
        self.actions_menu.addActions(entries)

    def _map_context_menu(self, unit_id: str | None, where: QPoint) -> None:
        if unit_id is None or unit_id not in self.session.game.units:
            return
        self.load_features()
        self.session.select(unit_id)
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addSection(self.session.game.unit(unit_id).name)
        for unit_action in unit_actions(self.session.game, self.session.game.unit(unit_id)):
            menu.addAction(self.unit_action_entries[unit_action.key])
        menu.addSeparator()
        menu.addActions([self.edit_unit_action, self.remove_unit_action])
        menu.popup(self.map.mapToGlobal(where))

    def run_unit_action(self, key: str, unit_id: str | None = None) -> None:
        """Carry out a registered unit action for `unit_id` (default: the selected unit)."""
        self.load_features()
        unit_id = unit_id or self.session.selected
        if unit_id is None or unit_id not in self.session.game.units:
            self.statusBar().showMessage("Select a unit first", 5000)
            return
        unit_action = unit_action_by_key(key)
        if not unit_action.available(self.session.game, self.session.game.unit(unit_id)):
            self.statusBar().showMessage(f"{unit_action.title.rstrip('.')} does not apply to this unit", 5000)
            return
        self.session.select(unit_id)
        unit_action.run(self, unit_id)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            # The window's own paint comes first in its frame: the map, the cards and the log
            # are painted after it, so the first frame is done on the next turn of the event loop.
            QTimer.singleShot(0, self._after_first_paint)

    def _after_first_paint(self) -> None:
        """The first frame is painted: the rules features (and the rulesets they import) load from now
        on, before what the first paint's listeners queue; then what the first procedure dialog needs
        is warmed on idle. The warm-up installs the features once a thread has imported their rules."""
        self.warm_up.start()
        self.first_painted.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """A feature's shortcut pressed before the feature is installed: install it now and carry it out."""
        if not self.features_loaded:
            self.load_features()
            pressed = QKeySequence(event.keyCombination())
            for entry in self.unit_action_entries.values():
                if entry.isEnabled() and entry.shortcut().matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                    entry.trigger()
                    return
        super().keyPressEvent(event)

    # -- replay ------------------------------------------------------------------------
    def start_replay(self) -> None:
        """Show the game at its start, read-only, with the Replay dock to step through it."""
        try:
            self.session.start_replay()
        except GameError as exc:
            self.statusBar().showMessage(f"Cannot replay: {exc}", 8000)
            return
        self.statusBar().clearMessage()  # said of the game being played, not of the replay's steps
        self.replay_dock.show()
        self.replay_dock.raise_()
        self.replay_panel.slider.setFocus()

    def _replay_by(self, steps: int) -> None:
        timeline = self.session.timeline
        if timeline is not None:
            self.session.show_step(timeline.step + steps)

    def continue_from_here(self) -> None:
        """After the player confirms, play on from the replay's step (one undo step gives the rest back)."""
        from PySide6.QtWidgets import QMessageBox

        timeline = self.session.timeline
        if timeline is None:
            return
        later = len(self.session.live_game.actions) - timeline.step
        if later == 0:
            self.session.stop_replay()
            self.statusBar().showMessage("This is the last action: back to the game, nothing dropped", 5000)
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Continue from here?",
                          f"Play on from step {timeline.step}: the {later} later action{'s' if later != 1 else ''} "
                          "will be dropped from the game. Undo gives them back.",
                          QMessageBox.StandardButton.Cancel, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        go = box.addButton("&Continue from here", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(go)
        box.exec()
        if box.clickedButton() is not go:
            return
        try:
            self.session.continue_from_here()
        except GameError as exc:
            self.show_error("Cannot continue from here", str(exc))

    def _on_replay_changed(self) -> None:
        """Read-only while replaying: every editing action off, the banner shown; all back when leaving."""
        replaying = self.session.replaying
        if replaying and self._replay_banner is None:
            self._replay_banner = self._make_replay_banner()
        self.banner_bar.setVisible(replaying)
        for entry in self.replay_keys:
            entry.setEnabled(replaying)
        editing = [self.add_unit_action, self.end_phase_action, self.end_turn_action, self.dice_action,
                   self.settings_action, self.replay_action]
        for entry in editing:
            entry.setEnabled(not replaying)
        stack = self.session.undo_stack
        self.undo_action.setEnabled(not replaying and stack.canUndo())
        self.redo_action.setEnabled(not replaying and stack.canRedo())
        self.undo_button_action.setEnabled(not replaying and stack.canUndo())
        self.redo_button_action.setEnabled(not replaying and stack.canRedo())
        self.history_dock.widget().setEnabled(not replaying)
        self.cards.add_button.setEnabled(not replaying)
        self._on_selection(self.session.selected)
        self._update_clock()

    # -- messages --------------------------------------------------------------------
    def show_error(self, title: str, text: str) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(self, title, literal(text))

    # -- files ----------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask before losing changes; False means the player cancelled."""
        from PySide6.QtWidgets import QMessageBox

        if not self.session.modified:
            return True
        answer = QMessageBox.warning(
            self, "Unsaved changes", literal(f"Save the changes to \"{self.session.game.title}\"?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_game(self) -> None:
        if not self.maybe_save():
            return
        from battletracker.ui.new_game_dialog import NewGameDialog

        dialog = NewGameDialog(self)
        if dialog.exec():
            self.session.replace_game(dialog.game(), None)
            self.map.fit_table()

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if not self.maybe_save():
            return
        start = str(self.session.path.parent) if self.session.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open game", start, FILE_FILTER)
        if name:
            self.open_path(Path(name))

    def open_path(self, path: Path) -> bool:
        """Open a save file; a broken one is refused with its reason and the game stays.

        A long game's replay shows its progress, with Cancel, after a second.
        """
        from battletracker.rules.replay import Cancelled
        from battletracker.ui.long_work import LongWork

        progress = LongWork(self, "Opening a game", f"Opening {path.name}: replaying its actions to offer Undo "
                                                    "again...")
        try:
            self.session.open(path, progress)
        except savefile.SaveFileError as exc:
            self.show_error("Cannot open game", f"{path.name} was not opened:\n\n{message_of(exc)}")
            return False
        except Cancelled:
            self.statusBar().showMessage(f"Opening {path.name} was cancelled: the game on screen is as it was",
                                         8000)
            return False
        finally:
            progress.close()
        self._remember(path)
        self.map.fit_table()
        if self.session.history_lost is not None:
            return True  # the status bar says it opened without its Undo history, and why: that matters more
        if self.session.path is None:
            self.statusBar().showMessage(f"Opened a copy of {path.name}, which comes with BattleTracker: "
                                         "Save asks where to keep your game", 10000)
        else:
            self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    # -- after the battle ---------------------------------------------------------------
    def _export_name(self, caption: str, suffix: str, filters: str) -> tuple[Path | None, str]:
        """A file name the player picked (`suffix` added when none was typed), and the filter chosen."""
        from PySide6.QtWidgets import QFileDialog

        folder = (str(self.session.path.parent) if self.session.path is not None else
                  QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation))
        start = str(Path(folder) / f"{safe_file_name(self.session.game.title)}{suffix}")
        name, chosen = QFileDialog.getSaveFileName(self, caption, start, filters)
        if not name:
            return None, chosen
        path = Path(name)
        return (path if path.suffix else path.with_suffix(suffix)), chosen

    def _write_export(self, what: str, path: Path, write: Callable[[Game, Path], None]) -> bool:
        """Write an export; on failure say why, and that whatever was at `path` before is still there."""
        try:
            write(self.session.game, path)
        except SaveError as exc:
            self.show_error(f"Could not save the {what}",
                            f"{path} could not be written: {exc.reason}. Any earlier file of that name is kept.")
            return False
        self.statusBar().showMessage(f"Saved the {what} to {path}", 5000)
        return True

    def export_report(self) -> bool:
        from battletracker.rules.replay import Cancelled
        from battletracker.ui import report_export
        from battletracker.ui.long_work import LongWork

        path, _ = self._export_name("Export battle report", ".html", "Web page (*.html);;PDF (*.pdf)")
        if path is None:
            return False
        write = report_export.export_report_pdf if path.suffix.lower() == ".pdf" else report_export.export_report_html
        progress = LongWork(self, "Exporting the battle report",
                            f"Writing {path.name}: replaying the game and drawing the table at its moments...")
        try:
            return self._write_export("battle report", path, lambda game, to: write(game, to, progress))
        except Cancelled:
            self.statusBar().showMessage(f"Exporting {path.name} was cancelled: nothing was written", 8000)
            return False
        finally:
            progress.close()

    def export_map(self) -> bool:
        from battletracker.ui import report_export

        path, _ = self._export_name("Export map", ".png", "PNG picture (*.png);;SVG drawing (*.svg)")
        if path is None:
            return False
        write = report_export.export_map_svg if path.suffix.lower() == ".svg" else report_export.export_map_png
        return self._write_export("map", path, write)

    def export_log(self) -> bool:
        from battletracker.ui import report_export

        path, _ = self._export_name("Export battle log", ".csv", "CSV table (*.csv)")
        if path is None:
            return False
        return self._write_export("battle log", path, report_export.export_log_csv)

    def print_report(self) -> bool:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        from battletracker.ui import report_export

        printer = QPrinter()
        dialog = QPrintDialog(printer, self)
        if dialog.exec() != QPrintDialog.DialogCode.Accepted:
            return False
        from battletracker.rules.replay import Cancelled
        from battletracker.ui.long_work import LongWork

        progress = LongWork(self, "Printing the battle report", "Replaying the game and drawing the table at its "
                                                                "moments...")
        try:
            document = report_export.report_document(self.session.game, progress)
        except Cancelled:
            self.statusBar().showMessage("Printing the battle report was cancelled", 8000)
            return False
        finally:
            progress.close()
        document.print_(printer)
        return True

    def save(self) -> bool:
        if self.session.path is None:
            return self.save_as()
        return self.save_to(self.session.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog

        if self.session.path is not None:
            start = str(self.session.path)
        else:
            folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
            start = str(Path(folder) / f"{safe_file_name(self.session.game.title)}.battle")
        name, _ = QFileDialog.getSaveFileName(self, "Save game as", start, FILE_FILTER)
        if not name:
            return False
        return self.save_to(Path(name))

    def save_to(self, path: Path) -> bool:
        from PySide6.QtWidgets import QMessageBox

        if self._changed_on_disk(path):
            box = QMessageBox(QMessageBox.Icon.Warning, "File changed on disk",
                              f"{path.name} has changed on disk since you opened or last saved it, perhaps "
                              "in another BattleTracker window. Saving here would overwrite those changes.",
                              QMessageBox.StandardButton.Cancel, self)
            box.setTextFormat(Qt.TextFormat.PlainText)
            save_as = box.addButton("Save &As...", QMessageBox.ButtonRole.AcceptRole)
            overwrite = box.addButton("&Overwrite", QMessageBox.ButtonRole.DestructiveRole)
            box.setDefaultButton(save_as)
            box.exec()
            if box.clickedButton() is save_as:
                return self.save_as()
            if box.clickedButton() is not overwrite:
                return False
        try:
            written, note = save_game(self.session.live_game, path)
        except SaveError as exc:
            self.show_error("Cannot save game", message_of(exc))
            return False
        self.session.mark_saved(path, written)
        self.recovery.discard()
        self._remember(path)
        if note is None:
            self.statusBar().showMessage(f"Saved {path}", 5000)
        else:
            self.statusBar().showMessage(f"Saved {path}: {note}", 30000)
        return True

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether `path` is the game's own file and someone else wrote to it since it was opened or saved."""
        known = self.session.disk_fingerprint
        if known is None or path != self.session.path or not path.exists():
            return False
        try:
            return fingerprint(savefile.read_file(path)) != known
        except savefile.SaveFileError:
            return True

    # -- crash recovery ------------------------------------------------------------------
    def offer_recovery(self) -> None:
        """Offer back every game left unsaved by a run that did not close properly."""
        from PySide6.QtWidgets import QMessageBox

        orphans = self.recovery.orphans()
        if len(orphans) == 1:
            orphan = orphans[0]
            box = QMessageBox(QMessageBox.Icon.Question, "Restore unsaved game?",
                              f"BattleTracker did not close properly last time. Restore {orphan.label()}?",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
            box.setTextFormat(Qt.TextFormat.PlainText)
            if box.exec() == QMessageBox.StandardButton.Yes:
                self.restore(orphan)
            else:
                self.recovery.drop(orphan)
        elif orphans:
            from battletracker.ui.recovery_dialog import RecoveryDialog

            dialog = RecoveryDialog(orphans, self)
            dialog.exec()
            for orphan in dialog.discarded:
                self.recovery.drop(orphan)
            later = [o for o in orphans if o is not dialog.chosen and o not in dialog.discarded]
            for orphan in later:
                self.recovery.release(orphan)
            if dialog.chosen is not None:
                self.restore(dialog.chosen)
            if later:
                more = (f"{len(later)} more unsaved game{'s' if len(later) > 1 else ''} will be offered at the next "
                        "start.")
                lost = self._history_lost_words() if dialog.chosen is not None else None
                self.statusBar().showMessage(f"{more} {lost}" if lost else more, 0)

    def _history_lost_words(self) -> str | None:
        """That the game just opened has no Undo history and why, or None when it has it (or never had any)."""
        lost = self.session.history_lost
        return f"{self.session.game.title} opened without its Undo history: {lost}" if lost is not None else None

    def _say_history_lost(self) -> None:
        """Say it once, as the game opens: a game whose record does not replay opens as saved, without Undo history."""
        words = self._history_lost_words()
        if words is not None:
            import logging

            logging.getLogger("battletracker").info(words)
            self.statusBar().showMessage(words, 0)

    def restore(self, orphan: Orphan) -> None:
        """Put a recovered game in this window, unsaved, with the file it came from."""
        if not self.maybe_save():
            self.recovery.release(orphan)
            return
        self.session.replace_game(orphan.game, orphan.origin)
        self.session.disk_fingerprint = orphan.origin_fingerprint
        self.session.undo_stack.resetClean()
        self.recovery.take(orphan)
        self.map.fit_table()

    def _remember(self, path: Path) -> None:
        recent = [p for p in self.recent_files() if p != str(path)]
        recent.insert(0, str(path))
        self.settings.setValue("recent_files", recent[:MAX_RECENT])

    def reopen_last(self) -> None:
        """Open the last game played, unless the last start stopped while opening it.

        A start that never reached its first paint may have been killed by that
        very file; opening it again at every start would crash every start, so
        the player is told and opens it from File > Open Recent if they wish.
        """
        from PySide6.QtCore import QTimer

        last = next((Path(p) for p in self.recent_files() if Path(p).exists()), None)
        if last is None:
            return
        if self.settings.value(OPENING_AT_START, "") == str(last):
            self.settings.remove(OPENING_AT_START)
            self.show_status(f"{last.name} was not opened again: the last start stopped while opening it. "
                             "Open it from File > Open Recent if you wish.", 30000)
            return
        self.settings.setValue(OPENING_AT_START, str(last))
        self.settings.sync()  # on disk before the paint that may not return
        self.first_painted.connect(lambda: QTimer.singleShot(0, lambda: self.settings.remove(OPENING_AT_START)))
        self.open_path(last)

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for name in files:
            entry = self.recent_menu.addAction(name)
            entry.triggered.connect(lambda _checked=False, n=name: self._open_recent(Path(n)))

    def _open_recent(self, path: Path) -> None:
        if self.maybe_save():
            self.open_path(path)

    def _fill_demos(self) -> None:
        """The demo battles shipped with the app, one a ruleset; each opens as an untitled copy (`open_path`)."""
        from battletracker.ui.new_game_dialog import RULESETS

        self.demo_menu.clear()
        shipped = {path.stem: path for path in (resources_dir() / "demo").glob("*.json")}
        for stem in sorted(shipped, key=lambda s: (list(RULESETS).index(s) if s in RULESETS else len(RULESETS), s)):
            title = RULESETS[stem][0] if stem in RULESETS else stem.replace("_", " ").capitalize()
            entry = self.demo_menu.addAction(title)
            entry.setObjectName(f"demo_{stem}")
            entry.triggered.connect(lambda _checked=False, p=shipped[stem]: self._open_recent(p))

    def _fill_colours(self) -> None:
        """Light, Dark or the system's palette, the one in use ticked; made when the menu first opens."""
        from PySide6.QtGui import QActionGroup

        from battletracker.ui.theme import CHOICES, chosen_scheme

        if not self.colours_menu.actions():
            group = QActionGroup(self.colours_menu)
            for key, text in CHOICES.items():
                entry = self.colours_menu.addAction(text)
                entry.setObjectName(f"colours_{key}")
                entry.setCheckable(True)
                group.addAction(entry)
                entry.triggered.connect(lambda _checked=False, k=key: self.choose_colours(k))
        current = chosen_scheme() or "system"
        for entry in self.colours_menu.actions():
            entry.setChecked(entry.objectName() == f"colours_{current}")

    def choose_colours(self, choice: str) -> None:
        """Use the palette now and at every later start (a --light or --dark start still wins)."""
        from PySide6.QtWidgets import QApplication

        from battletracker.ui.theme import choose_scheme

        app = QApplication.instance()
        assert isinstance(app, QApplication)
        choose_scheme(app, choice)

    # -- game actions ------------------------------------------------------------------
    def add_unit(self) -> None:
        self.cards.add_unit()

    def edit_unit(self) -> None:
        if self.session.selected is not None:
            self.cards.edit_unit(self.session.selected)

    def remove_unit(self) -> None:
        if self.session.selected is not None:
            self.cards.remove_unit(self.session.selected)

    def end_phase(self) -> None:
        try:
            self.session.act("clock.end_phase", {})
        except (GameError, RulesInputError) as exc:
            self.show_error("Cannot end the Phase", message_of(exc))

    def end_turn(self) -> None:
        """End the Turn by hand. In Chain of Command the Command Dice end it, so this asks first."""
        from PySide6.QtWidgets import QMessageBox

        if self.session.game.ruleset == "chain_of_command":
            answer = QMessageBox.question(
                self, "End the Turn?",
                "In Chain of Command the Command Dice end the Turn (End Phase after three 6s). End it now by hand, "
                "for the scenario's own reasons?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            self.session.act("clock.end_turn", {})
        except (GameError, RulesInputError) as exc:
            self.show_error("Cannot end the Turn", message_of(exc))

    def _dice_dialog(self) -> QDialog:
        from battletracker.ui.dice_dialog import DiceDialog

        return DiceDialog(self.session, self)

    def open_dice(self) -> None:
        dialog = self._dice_dialog()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_settings(self) -> None:
        from battletracker.ui.settings_dialog import SettingsDialog

        SettingsDialog(self.session, self).exec()

    def show_guide(self) -> None:
        """The user guide in its own window, beside the game (F1 again brings it to the front)."""
        from battletracker.ui.help_window import HelpWindow

        if self.guide_window is None:
            self.guide_window = HelpWindow(self)
        if self.guide_window.isVisible():
            self.guide_window.raise_()
            self.guide_window.activateWindow()
        else:
            self.guide_window.show()

    def about(self) -> None:
        from battletracker.ui.about import about_box

        about_box(self).exec()

    # -- window state ----------------------------------------------------------------
    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.open_first_time()
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        QTimer.singleShot(0, self.map.fit_table)

    def open_first_time(self) -> None:
        """Without a saved size, take most of the screen: on a laptop the map needs every pixel.

        Sized to the screen as well as maximised, so it is large even where nothing maximises it.
        """
        room = screen_room(self)
        if room.width() < 1600 or room.height() < 1000:
            self.resize(room)
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
        else:
            self.resize(int(room.width() * 0.9), int(room.height() * 0.9))

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.recovery.close()
        self.warm_up.stop()
        event.accept()
