"""The main window: the map in the centre, cards, log and undo history in docks.

It builds the layout, the actions and the menus, and holds the slots that touch the whole window;
the rest is in parts named for what they hold: its games on disk (window_files), the exports
(window_export), the replay (window_replay) and the rules features' host (window_features).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray
from PySide6.QtCore import QSettings
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtGui import QCloseEvent
from PySide6.QtGui import QIcon
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMainWindow
from PySide6.QtWidgets import QToolBar
from PySide6.QtWidgets import QUndoView
from PySide6.QtWidgets import QWidget

from battletracker.model.changes import Changes
from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.tables import resources_dir
from battletracker.ui.cards import CardsPanel
from battletracker.ui.extensions import Feature
from battletracker.ui.features import MODULES as FEATURE_MODULES
from battletracker.ui.fit import DialogFitter
from battletracker.ui.fit import screen_room
from battletracker.ui.log_view import LogPanel
from battletracker.ui.map.view import MapView
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import literal
from battletracker.ui.warmup import WarmUp
from battletracker.ui.window_export import WindowExport
from battletracker.ui.window_features import WindowFeatures
from battletracker.ui.window_files import WindowFiles
from battletracker.ui.window_replay import WindowReplay

if TYPE_CHECKING:
    pass


class MainWindow(QMainWindow):
    """The window; to the rules features it is a `FeatureHost` (battletracker.ui.extensions), through `feature_host`."""

    first_painted = Signal()  # the first frame, the window and everything in it, is painted

    def __init__(self, session: Session, recovery: Recovery | None = None, parent: QWidget | None = None,
                 features: Callable[[], Iterable[Feature]] | None = None) -> None:
        """`features` gives the rules features to add just after the first paint (app.py passes
        `battletracker.ui.features.all_features`); without it the window uses those already added."""
        super().__init__(parent)
        self.session = session
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
        self.tabifyDockWidget(self.log_dock, self.history_dock)
        # The replay's timeline is made the first time the dock shows (`WindowReplay.panel`).
        self.replay_dock = self._dock("Replay", "replay", QWidget(self), Qt.DockWidgetArea.BottomDockWidgetArea)
        self.replay_dock.hide()
        self.log_dock.raise_()
        self.resizeDocks([self.cards_dock, self.log_dock], [330, 360], Qt.Orientation.Horizontal)

        self.files = WindowFiles(self)
        self.exports = WindowExport(self)
        self.replay = WindowReplay(self)
        self.replay_dock.visibilityChanged.connect(lambda visible: self.replay.panel if visible else None)
        self.feature_host = WindowFeatures(self, features)
        self.feature_host.docks.update({"units": self.cards_dock, "log": self.log_dock, "history": self.history_dock})
        self.clock_label = QLabel(self)
        self.clock_label.setObjectName("clock")
        self.clock_label.setMargin(6)
        self._build_actions()
        self._build_menus_and_toolbar()

        session.changed.connect(self._on_changed)
        session.modified_changed.connect(self.setWindowModified)
        session.path_changed.connect(lambda _p: self._update_title())
        session.game_replaced.connect(self._update_title)
        session.game_replaced.connect(self.files.say_history_lost)
        session.selection_changed.connect(self._on_selection)
        session.replay_changed.connect(self._on_replay_changed)
        self.cards.status_message.connect(lambda text: self.show_status(text, 8000))
        self.recovery.status.connect(lambda text, timeout: self.show_status(text, timeout))
        self.cards.action_requested.connect(lambda key, unit_id: self.feature_host.run_unit_action(key, unit_id))
        self.cards.menu_opening.connect(self.feature_host.load)
        self.map.refused.connect(lambda text: self.show_status(f"Not applied: {text}", 8000))
        self.map.context_requested.connect(self.feature_host.map_context_menu)
        self.map.unit_activated.connect(lambda unit_id: self.cards.edit_unit(unit_id))
        self._update_title()
        self._update_clock()
        self._on_selection(session.selected)
        self.files.say_history_lost()
        self.warm_up = WarmUp(self, lambda: self.session.game.ruleset, self._dice_dialog, self.feature_host.load,
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

    def make_action(self, text: str, slot: object,
                    shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                    icon: str | None = None, tip: str | None = None) -> QAction:
        """One of the window's actions, its parts' (the features' unit actions, the replay's keys) as well."""
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
        self.new_action = self.make_action("&New game...", self.files.new_game, key.New, "document-new",
                                           "Start a new game")
        self.open_action = self.make_action("&Open...", self.files.open_dialog, key.Open, "document-open",
                                            "Open a saved game")
        self.save_action = self.make_action("&Save", self.files.save, key.Save, "document-save", "Save the game")
        self.save_as_action = self.make_action("Save &As...", self.files.save_as, key.SaveAs, "document-save-as")
        self.quit_action = self.make_action("&Quit", self.close, key.Quit, "application-exit")
        self.export_report_action = self.make_action("Export &report...", self.exports.export_report, None, None,
                                                     "Save the battle report as a web page (HTML) or a PDF")
        self.print_report_action = self.make_action("&Print report...", self.exports.print_report, key.Print,
                                                    "document-print", "Print the battle report")
        self.export_map_action = self.make_action("Export &map...", self.exports.export_map, None, None,
                                                  "Save a picture of the table as PNG or SVG")
        self.export_log_action = self.make_action("Export &log as CSV...", self.exports.export_log, None, None,
                                                  "Save the battle log as a spreadsheet table (CSV)")
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(key.Undo)
        self.undo_action.setIcon(QIcon.fromTheme("edit-undo"))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcut(key.Redo)
        self.redo_action.setIcon(QIcon.fromTheme("edit-redo"))
        # The toolbar keeps short, fixed labels so End Phase / End Turn never move;
        # the tooltip names the step.
        self.undo_button_action = self.make_action("Undo", stack.undo, None, "edit-undo")
        self.redo_button_action = self.make_action("Redo", stack.redo, None, "edit-redo")
        self.undo_button_action.setEnabled(stack.canUndo())
        self.redo_button_action.setEnabled(stack.canRedo())
        stack.canUndoChanged.connect(self.undo_button_action.setEnabled)
        stack.canRedoChanged.connect(self.redo_button_action.setEnabled)
        stack.undoTextChanged.connect(self._undo_text_changed)
        stack.redoTextChanged.connect(self._redo_text_changed)
        self.add_unit_action = self.make_action("&Add unit...", self.add_unit, "Ctrl+Shift+A", "list-add",
                                                "Add a unit or vehicle from the ruleset's presets")
        self.edit_unit_action = self.make_action("&Edit unit...", self.edit_unit, "Ctrl+E", "document-properties",
                                                 "Edit the selected unit")
        self.remove_unit_action = self.make_action("&Remove unit", self.remove_unit, key.Delete, "list-remove",
                                                   "Remove the selected unit")
        self.end_phase_action = self.make_action("End &Phase", self.end_phase, "Ctrl+Return", None,
                                                 "End this Phase: the other side's Phase begins")
        self.end_turn_action = self.make_action("End &Turn", self.end_turn, "Ctrl+Shift+Return", None,
                                                "End the Turn: everything due at the Turn end happens")
        self.dice_action = self.make_action("&Dice...", self.open_dice, "Ctrl+D", None,
                                            "Roll dice with the exact odds shown first")
        self.settings_action = self.make_action("Ruleset &settings...", self.open_settings, None, None,
                                                "Rules the documents do not state: defaults to check")
        self.fit_action = self.map.fit_action
        self.zoom_in_action = self.map.zoom_in_action
        self.zoom_out_action = self.map.zoom_out_action
        self.next_unit_action = self.make_action("Select &Next Unit", lambda: self.cards.select_step(1), "]", None,
                                                 "Select the next unit, in the order of the cards (])")
        self.previous_unit_action = self.make_action("Select &Previous Unit", lambda: self.cards.select_step(-1), "[",
                                                     None, "Select the previous unit ([)")
        self.guide_action = self.make_action("&User Guide", self.show_guide, QKeySequence.StandardKey.HelpContents,
                                             "help-contents", "How to use BattleTracker (F1)")
        self.measure_action = self.map.measure_action
        self.replay_action = self.make_action("&Replay the Game", self.replay.start, "Ctrl+Shift+R", None,
                                              "Step through every action from the start, read-only")

    def _undo_text_changed(self, text: str) -> None:
        self.undo_button_action.setToolTip(literal(f"Undo {text}".strip()))

    def _redo_text_changed(self, text: str) -> None:
        self.redo_button_action.setToolTip(literal(f"Redo {text}".strip()))

    def _build_menus_and_toolbar(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self.files.fill_recent)
        self.demo_menu = file_menu.addMenu("Open &Demo")
        self.demo_menu.setObjectName("demo_menu")
        self.demo_menu.aboutToShow.connect(self.files.fill_demos)
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
        self.actions_menu.aboutToShow.connect(self.feature_host.fill_actions_menu)
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
        help_menu.addAction(self.make_action("&About BattleTracker", self.about))
        self.feature_host.menus.update({"file": file_menu, "edit": edit, "game": game, "view": view, "help": help_menu})
        for menu in self.feature_host.menus.values():
            # A menu opened before the features are installed lists their entries all the same.
            menu.aboutToShow.connect(self.feature_host.load)

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
            self.feature_host.update_unit_actions()

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
        self.feature_host.update_unit_actions()

    def _on_replay_changed(self) -> None:
        """Read-only while replaying: every editing action off, the banner shown; all back when leaving."""
        replaying = self.session.replaying
        self.replay.follow(replaying)
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
        if not self.feature_host.press_before_loading(event):
            super().keyPressEvent(event)

    # -- messages --------------------------------------------------------------------
    def show_error(self, title: str, text: str) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(self, title, literal(text))

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def status_text(self) -> str:
        return self.statusBar().currentMessage()

    # -- the View menu's colours ------------------------------------------------------------
    def _fill_colours(self) -> None:
        """Light, Dark or the system's palette, the one in use ticked; made when the menu first opens."""
        from PySide6.QtGui import QActionGroup

        from battletracker.ui.theme import CHOICES
        from battletracker.ui.theme import chosen_scheme

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
        if not self.files.maybe_save():
            event.ignore()
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.recovery.close()
        self.warm_up.stop()
        event.accept()
