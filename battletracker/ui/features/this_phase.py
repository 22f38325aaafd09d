"""The "This Phase" dock (Chain of Command): what the active side may do and what falls due, each with its button.

It reads the game and asks the rules what they allow: a button is offered
only when the action's plan (or the bombardment's own checks) accepts it now,
so the panel never offers what the rules would refuse. The Command Dice and
Force Morale Tests run through the shared ProcedureRunner (odds first, dice
typed from the table or rolled by the app) and are applied with
`Session.act`, one recorded undo step each.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.bombardment import Bombardment
from battletracker.model.effects import AppendLog
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import plan
from battletracker.rules.base import message_of
from battletracker.rules.chain_of_command.activation import Way
from battletracker.rules.chain_of_command.activation import activated_words
from battletracker.rules.chain_of_command.activation import current
from battletracker.rules.chain_of_command.activation import faces_line
from battletracker.rules.chain_of_command.activation import giving_orders
from battletracker.rules.chain_of_command.activation import needs_words
from battletracker.rules.chain_of_command.activation import next_steps
from battletracker.rules.chain_of_command.activation import order_targets
from battletracker.rules.chain_of_command.activation import ways
from battletracker.rules.chain_of_command.bombardment import BEGIN_WORDS
from battletracker.rules.chain_of_command.bombardment import next_action
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import waiting
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.coc_points import store_words
from battletracker.rules.chain_of_command.command_dice import RULESET
from battletracker.rules.chain_of_command.command_dice import CommandDiceTable
from battletracker.rules.chain_of_command.command_dice import face_words
from battletracker.rules.chain_of_command.command_dice import next_phase
from battletracker.rules.chain_of_command.command_dice import rolled_this_phase
from battletracker.rules.chain_of_command.force_morale import KIND as MORALE_TEST
from battletracker.rules.chain_of_command.force_morale import events
from battletracker.rules.chain_of_command.force_morale import rows
from battletracker.rules.chain_of_command.vehicle_phase import NEXT_PHASE_RESULTS
from battletracker.rules.chain_of_command.vehicle_phase import in_force
from battletracker.rules.sequence import side_name
from battletracker.rules.words import title
from battletracker.ui.bombardment_steps import BombardmentSteps
from battletracker.ui.bombardment_steps import steps_of
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import unit_actions
from battletracker.ui.procedure_parts import REFUSED
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import WordChoice
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import NotOpened
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import menu_name


def offered(game: Game, name: str, choices: Choices) -> str | None:
    """None when the rules accept the action now, else their sentence saying why not."""
    try:
        plan(name, game, choices)
    except REFUSED as exc:
        return message_of(exc)
    return None


def key_words(shortcut: str) -> str:
    """A shortcut as the platform prints it ("Ctrl+F")."""
    return QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)


def _capitalised(outcome: str) -> str:
    return outcome[0].upper() + outcome[1:]


def _event_row(game: Game, choices: Choices) -> str | None:
    """The setback table's row of the event that put the test on the agenda."""
    return next((events()[item.event].row for side in game.sides for item in side.agenda
                 if item.id == choices["agenda_id"] and item.event in events()), None)


COMMAND_DICE = ActionForm("coc.command_dice", "", actor="", label=_capitalised, size=(520, 560))
FORCE_MORALE = ActionForm("coc.force_morale_test", "", actor="", size=(520, 560), choices=(
    WordChoice("row", "Row of the table", lambda _game, _choices: rows().items(), default=_event_row,
               tip="The row of the Force Morale setback table to read; the event's row by default"),))


class CommandDiceDialog(PlannedActionDialog):
    """The active side rolls its Command Dice: what follows the Phase, with exact odds, before the roll.

    Closes once applied: the dock shows the dice held from then on.
    """
    first_opening = FirstOpening("chain_of_command", 4, "Command Dice", "command_dice")
    closes_after_apply = True

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        game = session.game
        super().__init__(session, COMMAND_DICE, {}, None, parent,
                         heading=f"{side_name(game, game.active_side)} rolls its Command Dice")


class ForceMoraleDialog(PlannedActionDialog):
    """A Force Morale Test from the agenda: the setback table's row (the event's by default), odds, the D6.

    Closes once applied: the test leaves the agenda, and the dock its line.
    """
    first_opening = NotOpened("opened from a Force Morale agenda line; the Command Dice dialog's class")
    closes_after_apply = True

    def __init__(self, session: Session, agenda_id: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(session, FORCE_MORALE, {"agenda_id": agenda_id}, None, parent, heading=text)


class ThisPhasePanel(QWidget):
    """For the active side: Command Dice, bombardments, tests due, and what ends with this Phase."""

    def __init__(self, session: Session, window: QWidget | None = None) -> None:
        super().__init__(window)
        self.session = session
        self.window_ = window
        self.buttons: dict[str, QPushButton] = {}
        self.menus: dict[str, QMenu] = {}
        self.body = QWidget(self)
        self._discarded = QWidget()  # never shown: rows taken out wait here to be deleted, out of the panel's
        # children (looked up by name) and unable to show as windows of their own
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.body)
        # Above the list, at the dock's width: a refused spend stays in view however far the list scrolls.
        self.refusal = RefusalBanner(self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.refusal)
        outer.addWidget(scroll)
        self.content = QVBoxLayout(self.body)
        session.changed.connect(lambda _changes: self.rebuild())
        session.game_replaced.connect(self.rebuild)
        self.rebuild()

    # -- building -------------------------------------------------------------------
    def rebuild(self) -> None:
        self.refusal.clear()  # said of the game as it was; it has changed since
        self.buttons = {}
        self.menus = {}
        old = self.body.layout()
        assert isinstance(old, QVBoxLayout)
        while old.count():
            item = old.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(self._discarded)
                widget.deleteLater()
        game = self.session.game
        if game.ruleset != RULESET or not game.sides:
            self._line("This panel follows a Chain of Command game's Phases.")
            old.addStretch(1)
            return
        side = game.sides[game.active_side]
        self._heading(f"Turn {game.turn}, Phase {game.phase}: {side.name}")
        self._command_dice(game)
        self._bombardments(game)
        self._morale_tests(game)
        self._vehicles_and_fuel(game)
        self._phase_end(game)
        self._acted(game)
        old.addStretch(1)

    def _heading(self, text: str) -> None:
        label = QLabel(f"<b>{esc(text)}</b>", self.body)
        label.setWordWrap(True)
        self.content.addWidget(label)

    def _section(self, text: str) -> None:
        label = QLabel(f"<b>{esc(text)}</b>", self.body)
        label.setStyleSheet("margin-top: 6px;")
        self.content.addWidget(label)

    def _line(self, text: str, name: str = "") -> QLabel:
        label = QLabel(esc(text), self.body)
        label.setWordWrap(True)
        if name:
            label.setObjectName(name)
        self.content.addWidget(label)
        return label

    def _button(self, key: str, text: str, slot: Callable[[], object], tip: str = "") -> QPushButton:
        button = QPushButton(text, self.body)
        button.setObjectName(f"this_phase_{key}")
        button.setAutoDefault(False)
        if self.session.replaying:
            button.setEnabled(False)  # the replay is read-only: it shows what was due at that step
            tip = "Read-only while you replay the game"
        if tip:
            button.setToolTip(tip)
        button.clicked.connect(slot)
        row = QHBoxLayout()
        row.addWidget(button)
        row.addStretch(1)
        holder = QWidget(self.body)
        holder.setLayout(row)
        row.setContentsMargins(12, 0, 0, 0)
        self.content.addWidget(holder)
        self.buttons[key] = button
        return button

    # -- the sections ---------------------------------------------------------------
    def _command_dice(self, game: Game) -> None:
        self._section("Command Dice")
        who = game.active_side
        side = game.sides[who]
        if rolled_this_phase(game, who):
            words = face_words()
            held = ", ".join(f"{f} ({words.get(f, '')})" for f in side.held_dice) or "none left"
            self._line(f"Held: {held}", "this_phase_held")
            leaders = giving_orders(game)
            options = {u.id: ways(game, u, leaders) for u in game.units.values() if u.side == who}
            for face in sorted(set(side.held_dice)):
                if offered(game, "coc.spend_command_die", {"face": face}) is None:
                    button = self._button(f"spend_{face}", f"Spend a {face}...", lambda: None,
                                          f"Activates {words.get(face, '')}: choose the unit")
                    self._spend_menu(game, button, face, options)
            self._combine_menu(game, options)
            roll = side.command_roll
            sixes = roll.faces.count(6) if roll is not None else 0
            try:
                follows = CommandDiceTable.of(game).outcome(sixes)
            except RulesInputError as exc:
                follows = message_of(exc)
            self._line(f"Then: {follows}.", "this_phase_follows")
        else:
            refusal = offered(game, "coc.command_dice", {})
            if refusal is None:
                self._line(f"{side.name} has not rolled its {side.command_dice} Command Dice this Phase.")
                self._button("roll", "Roll the Command Dice...", self.open_command_dice,
                             "The odds of each Phase outcome first; then type the table's dice or roll here")
            else:
                self._line(refusal)
        self._line(store_words(game, who) + ".", "this_phase_coc")
        self._line(f"A unit acts once activated: by a held die of its face ({faces_line()}) or by an activated "
                   "Leader's Order. Activate it here, on its card's menu, or in the dialog of what it does.",
                   "this_phase_how")

    def _bombardments(self, game: Game) -> None:
        mine = [b for b in game.bombardments.values()
                if b.side == game.active_side and b.kind != "sos" and b.state != "cleared"]
        self._section("Bombardments")
        for b in mine:
            self._bombardment(game, b)
        self._line(BEGIN_WORDS, "this_phase_bombardment_begin")
        self._button("new_bombardment", "New bombardment...", lambda: self._bombardment_steps().open_new(),
                     "The side, the rounds and the Forward Observer's die, then the aiming point on the map")

    def _bombardment(self, game: Game, b: Bombardment) -> None:
        action = next_action(b)
        self._line(f"{observer_name(game, b)}: {action.text}.", f"this_phase_bombardment_{b.id}")
        wait = waiting(game, b)
        if wait is not None:
            self._line(wait.short + ".")
            return
        if action.key == "range":
            self._button(f"range_{b.id}", action.text + "...", lambda: self._bombardment_steps().open_ranging(b.id))
        elif action.key == "fire_for_effect_or_re_aim":
            self._button(f"fire_for_effect_{b.id}", "Fire for effect",
                         lambda: self._bombardment_steps().fire_for_effect(b.id))
            self._button(f"re_aim_{b.id}", "Re-aim...", lambda: self._bombardment_steps().start_re_aim(b.id))
        elif action.key == "place_pattern_die":
            self._button(f"pattern_{b.id}", "Place the hidden die...",
                         lambda: self._bombardment_steps().open_pattern(b.id))
        elif action.key in ("fire", "activate"):
            activation = self._activation(game, b)
            if activation is None:
                return
            self._line(activation)
            self._button(f"fire_{b.id}", "Fire this Phase...", lambda: self._bombardment_steps().open_phase(b.id))

    def _activation(self, game: Game, b: Bombardment) -> str | None:
        """How the side can activate the bombardment now, in words; None (with the reason shown) if it cannot."""
        side = game.sides[b.side]
        try:
            how = phase_inputs(game, b.id)["activation"]
        except REFUSED as first:
            try:
                phase_inputs(game, b.id, spend_coc_point=True)
            except REFUSED:
                self._line(str(first))
                return None
            return (f"Command Dice not rolled yet: activate with a Chain of Command point "
                    f"({side.coc_points} held), or roll the Command Dice first.")
        if how == "begun":
            return "Its first Phase of fire: the Forward Observer's activation that began it counts."
        if how == "command_die":
            return "Activated with a held Command Dice 1."
        if side.coc_points:
            return (f"No 1 held: activate with a Chain of Command point ({side.coc_points} held), "
                    "or contact is lost and the bombardment ends.")
        return "No 1 held and no Chain of Command point: contact is lost and the bombardment ends."

    def _morale_tests(self, game: Game) -> None:
        due = [(s, item) for s in game.sides for item in s.agenda if item.kind == MORALE_TEST]
        if not due:
            return
        self._section("Force Morale Tests due")
        for _side, item in due:
            self._line(item.text)
            if offered(game, "coc.force_morale_test", {"agenda_id": item.id}) is None:
                self._button(f"morale_{item.id}", "Take the test...",
                             self._test_slot(item.id, item.text))

    def _vehicles_and_fuel(self, game: Game) -> None:
        lines: list[str] = []
        for unit in game.units.values():
            if unit.side != game.active_side or not unit.in_play:
                continue
            for result in NEXT_PHASE_RESULTS:
                if unit.has(in_force(result)):
                    lines.append(f"{unit.name}: {title(result)} this Phase")
            for weapon in unit.weapons:
                if weapon.ammo_label == "fuel" and weapon.ammo is not None:
                    lines.append(f"{unit.name}: {weapon.name}, fuel for {weapon.ammo} more Phase"
                                 f"{'' if weapon.ammo == 1 else 's'} of fire")
        if lines:
            self._section("Vehicle damage and fuel")
            for line in lines:
                self._line(line)

    def _phase_end(self, game: Game) -> None:
        """What End Phase will do, in the rules' own words (the clock's plan), and buildings due to collapse."""
        self._section("At the end of this Phase")
        next_side, turn_ends = next_phase(game)
        then = "the Turn ends" if turn_ends else f"the {side_name(game, next_side)} Phase"
        self._line(f"Next: {then}.", "this_phase_next")
        try:
            p = plan("clock.end_phase", game, {})
        except REFUSED as exc:
            self._line(message_of(exc))
            return
        for effect in p.effects:
            if isinstance(effect, AppendLog):
                self._line(effect.entry.text)
        if not turn_ends:
            for building in game.buildings.values():
                if building.state == "unstable":
                    self._line(f"{building.name} collapses at the end of the Turn.")

    def _acted(self, game: Game) -> None:
        """Who is activated this Phase, what each has done, and each Leader's Orders left with their menu."""
        mine = [u for u in game.units.values() if u.side == game.active_side and current(game, u) is not None]
        if not mine:
            return
        self._section("Activated this Phase")
        for unit in mine:
            self._line(f"{unit.name}: {activated_words(game, unit)}", f"this_phase_activated_{unit.id}")
            then = self._next_line(game, unit)
            if then:
                self._line(then, f"this_phase_then_{unit.id}")
            act = current(game, unit)
            assert act is not None
            if unit.kind == "leader" and act.orders_left > 0:
                self._orders_menu(game, unit.id, act.orders_left)

    def _next_line(self, game: Game, unit: Unit) -> str:
        """What the activated unit may do next, with its actions' keys: the player need not hunt the menus for them."""
        steps = next_steps(game, unit)
        if steps is None:
            return ""
        parts = [f"Next: {steps.words}."]
        if steps.may_move:
            parts.append("Move: drag its token on the map.")
        if steps.may_fire:
            found = unit_actions(game, unit)
            if found:
                keys = "; ".join(f"{a.title.rstrip('.')}: {key_words(a.shortcut)}" if a.shortcut
                                 else f"{a.title.rstrip('.')}: Actions menu" for a in found)
                parts.append(f"{keys} (keys act on the selected unit; click its token or card).")
        return " ".join(parts)

    def _orders_menu(self, game: Game, leader_id: str, left: int) -> None:
        leader = game.units[leader_id]
        activate = order_targets(game, leader, "activate")
        rally = order_targets(game, leader, "rally")
        if not activate and not rally:
            self._line(f"{leader.name} has no unit of its command in range to order now.")
            return
        button = self._button(f"orders_{leader_id}", f"Orders of {leader.name} ({left} left)...", lambda: None,
                              "An Order activates a unit of its command in Command Range, or rallies its Shock")
        menu = QMenu(button)
        for unit in activate:
            action = menu.addAction(f"Activate {menu_name(unit.name)}")
            action.setObjectName(f"order_{leader_id}_{unit.id}")
            action.triggered.connect(self._order_slot(leader_id, unit.id, "activate"))
        if activate and rally:
            menu.addSeparator()
        for unit in rally:
            action = menu.addAction(f"Rally Shock on {menu_name(unit.name)} ({unit.shock})")
            action.setObjectName(f"rally_{leader_id}_{unit.id}")
            action.triggered.connect(self._order_slot(leader_id, unit.id, "rally"))
        button.setMenu(menu)
        self.menus[f"orders_{leader_id}"] = menu

    def _order_slot(self, leader_id: str, unit_id: str, kind: str) -> Callable[[], None]:
        return lambda: self._act("coc.order", {"leader": leader_id, "unit": unit_id, "order": kind})

    def _combine_menu(self, game: Game, options: Mapping[str, list[Way]]) -> None:
        """Units the held dice activate only when combined (a 1 and a 2 for a Junior Leader), if any."""
        found = [(game.units[unit_id], way) for unit_id, found_ways in options.items()
                 for way in found_ways if "+" in way.key]
        if not found:
            return
        button = self._button("combine", "Combine dice...", lambda: None,
                              "Two or more held dice make a higher face (never a 5 or a 6)")
        menu = QMenu(button)
        for unit, way in found:
            action = menu.addAction(f"Activate {menu_name(unit.name)} with {way.words.removeprefix('held ')} "
                                    f"({needs_words(unit)})")
            action.setObjectName(f"combine_{way.key.removeprefix('dice:')}_{unit.id}")
            action.triggered.connect(self._activate_slot(unit.id, way.key))
        button.setMenu(menu)
        self.menus["combine"] = menu

    def _activate_slot(self, unit_id: str, key: str) -> Callable[[], None]:
        return lambda: self._act("coc.activate", {"unit": unit_id, "activation": key})

    def _act(self, name: str, choices: Choices) -> None:
        try:
            self.session.act(name, choices)
        except REFUSED as exc:
            self.refusal.show_refusal(f"Not applied: {message_of(exc)}")
            return
        unit_id = choices.get("unit")
        if isinstance(unit_id, str) and choices.get("order", "activate") == "activate":
            self.session.select(unit_id)  # the unit just activated: its keys (Fire: Ctrl+F) act on it at once

    # -- the buttons ----------------------------------------------------------------
    def _bombardment_steps(self) -> BombardmentSteps:
        found = steps_of(self.window_) if self.window_ is not None else None
        assert found is not None, "the Bombardments dock offers its steps before this panel shows a bombardment"
        return found

    def open_command_dice(self) -> CommandDiceDialog:
        dialog = CommandDiceDialog(self.session, self.window_)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_force_morale(self, agenda_id: str, text: str) -> ForceMoraleDialog:
        dialog = ForceMoraleDialog(self.session, agenda_id, text, self.window_)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _spend_menu(self, game: Game, button: QPushButton, face: int, options: Mapping[str, list[Way]]) -> None:
        """The units this die activates now (their face, their side, not yet activated), then none named."""
        menu = QMenu(button)
        for unit_id, found in options.items():
            unit = game.units[unit_id]
            if any(way.key == f"dice:{face}" for way in found):
                action = menu.addAction(f"Activate {menu_name(unit.name)} ({needs_words(unit)})")
                action.setObjectName(f"spend_{face}_{unit.id}")
                action.triggered.connect(self._spend_slot(face, unit.id))
        menu.addSeparator()
        menu.addAction("Spend it, naming no unit").triggered.connect(self._spend_slot(face))
        button.setMenu(menu)
        self.menus[f"spend_{face}"] = menu

    def _spend_slot(self, face: int, unit_id: str | None = None) -> Callable[[], None]:
        return lambda: self.spend(face, unit_id)

    def _test_slot(self, agenda_id: str, text: str) -> Callable[[], object]:
        return lambda: self.open_force_morale(agenda_id, text)

    def spend(self, face: int, unit_id: str | None = None) -> None:
        """Activate `unit_id` with a held die of `face`, or spend the die naming no unit."""
        if unit_id is not None:
            self._act("coc.activate", {"unit": unit_id, "activation": f"dice:{face}"})
        else:
            self._act("coc.spend_command_die", {"face": face})


def install(host: FeatureHost) -> None:
    panel = ThisPhasePanel(host.session, host.window())
    dock = QDockWidget("This Phase", host.window())
    dock.setObjectName("dock-this-phase")
    dock.setWidget(panel)
    host.add_dock(dock, Qt.DockWidgetArea.RightDockWidgetArea, tabify_with="log")

    def follow_ruleset() -> None:
        coc = host.session.game.ruleset == RULESET
        dock.toggleViewAction().setVisible(coc)
        dock.setVisible(coc)
        if coc:
            dock.raise_()

    def prompt_roll() -> None:
        """At a Phase's start (End Phase, a game opened) remind the active side to roll its Command Dice."""
        game = host.session.game
        if host.session.replaying:
            return
        if game.ruleset == RULESET and game.sides and offered(game, "coc.command_dice", {}) is None:
            host.show_status(f"{side_name(game, game.active_side)}: roll the Command Dice for this Phase "
                             "(This Phase dock).", 0)
        elif host.status_text().endswith(": roll the Command Dice for this Phase (This Phase dock)."):
            host.show_status("", 1)  # rolled: the reminder goes at once

    host.session.game_replaced.connect(follow_ruleset)
    host.session.game_replaced.connect(prompt_roll)
    host.session.changed.connect(lambda changes: prompt_roll() if changes.clock or changes.everything or changes.sides
                                 else None)
    follow_ruleset()
    prompt_roll()


FEATURE = Feature("coc.this_phase", window_extensions=(install,))
