"""The actions without dice: move and turn, counters, figures, ammo, conditions, damage, the roster,
a side's Force Morale and points, the clock.

Each is a plan (reads the game, refuses in a player's words) and a procedure
(turns the plan's plain inputs into Effects and log lines), so a card button,
a drag on the map and End Phase go through the same path as a fire procedure:
`rules.actions.perform`, or `Session.act` in the app. The model still refuses
what it always refused (Shock below zero, no rounds left) with a GameError
when the step is applied.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from dataclasses import replace

from battletracker.core.dice import Dice
from battletracker.core.geometry import angle_between
from battletracker.core.geometry import distance
from battletracker.core.odds import Distribution
from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import ChangeSide
from battletracker.model.effects import Effect
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import ReplaceUnit
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.effects import SetSetting
from battletracker.model.effects import SpendAmmo
from battletracker.model.fields import FieldError
from battletracker.model.fields import unit_from_dict
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.sequence_effects import SetActivation
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command.activation import move_effects
from battletracker.rules.chain_of_command.command_dice import next_phase
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_number
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.clock import due_effects
from battletracker.rules.edit_checks import check_edit
from battletracker.rules.places import destination
from battletracker.rules.places import place_words
from battletracker.rules.resupply import resupply_refusal
from battletracker.rules.sequence import side_name
from battletracker.rules.step import STEP
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.words import KIND_TITLES
from battletracker.rules.words import condition_words
from battletracker.rules.words import damage_result
from battletracker.rules.words import title

DONE = "done"

Build = Callable[[InputReader], tuple[list[Effect], list[str]]]


def _procedure(name: str, procedure_title: str, build: Build, typical: Inputs) -> None:
    """Register a procedure that always succeeds: `build` reads the inputs into its effects and log lines;
    `typical` are inputs the demo's table passes it (rules.plan on the demo game)."""

    def resolve(inputs: Inputs, dice: Dice) -> Resolution:
        r = InputReader(inputs)
        effects, log = build(r)
        r.finish()
        return Resolution(name, DONE, {}, [], effects, log)

    def odds(inputs: Inputs) -> Distribution[str]:
        return Distribution.certain(DONE)

    register(Procedure(name, procedure_title, resolve, odds, ruleset="table", typical=typical))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _echo(choices: Choices) -> dict[str, InputValue]:
    return dict(choices)


# -- move and turn -----------------------------------------------------------------------


def _plan_move(game: Game, choices: Choices) -> Plan:
    """`unit` to `x`, `y`; in Chain of Command it must be activated (the choice `activation` may do it now)."""
    unit = chosen_unit(game, choices)
    x = chosen_number(choices, "x", "Where to across the table")
    y = chosen_number(choices, "y", "Where to up the table")
    moved = distance((unit.x, unit.y), (x, y))
    if moved < 1e-9:
        raise Refusal("x", f"{unit.name} is already there.")
    activated, facts = move_effects(game, unit, choices)
    place = place_words(game, (x, y), besides=unit.id)
    line = f"{unit.name} moved {inches(moved)}\" to {destination(place)}"
    return Plan("unit.move", {"unit": unit.id, "x": x, "y": y, "facing": unit.facing, "line": line},
                (*facts, line), _echo(choices), f"Move {unit.name}", tuple(activated), log=tuple(facts),
                said={"place": place})


def _plan_turn(game: Game, choices: Choices) -> Plan:
    """`unit` to face `facing`; in Chain of Command a turn is part of a move (activation, the bombardment's ban)."""
    unit = chosen_unit(game, choices)
    facing = chosen_number(choices, "facing", "The new facing") % 360.0
    turned = angle_between(unit.facing, facing)
    if turned < 1e-9:
        raise Refusal("facing", f"{unit.name} already faces {facing:.0f}°.")
    activated, facts = move_effects(game, unit, choices)
    line = f"{unit.name} turned {turned:.0f}° to face {facing:.0f}°"
    return Plan("unit.move", {"unit": unit.id, "x": unit.x, "y": unit.y, "facing": facing, "line": line},
                (*facts, line), _echo(choices), f"Turn {unit.name}", tuple(activated), log=tuple(facts))


def _build_move(r: InputReader) -> tuple[list[Effect], list[str]]:
    effect = MoveUnit(r.str("unit"), r.float("x"), r.float("y"), r.float("facing"))
    return [effect], [r.str("line")]


# -- counters, figures, ammo, conditions --------------------------------------------------


def _counter_plan(game: Game, choices: Choices, counter: str) -> Plan:
    unit = chosen_unit(game, choices)
    delta = chosen_whole(choices, "delta", "How much to add or take off")
    if delta == 0:
        raise Refusal("delta", "Add or take off at least one.")
    now = unit.counters.get(counter, 0)
    name = title(counter)
    line = f"{name} on {unit.name}: {now} -> {now + delta}"
    more: list[Effect] = []
    lines: list[str] = []
    if counter == "shock" and delta < 0 and game.ruleset == "chain_of_command":
        from battletracker.rules.chain_of_command.bombardment import rally_release

        more, lines = rally_release(game, unit.id, now + delta)
    return Plan("unit.counter", {"unit": unit.id, "counter": counter, "delta": delta, "line": line},
                (line,), _echo(choices), f"{name} {_signed(delta)} on {unit.name}", tuple(more),
                log=tuple(lines))


def _plan_shock(game: Game, choices: Choices) -> Plan:
    return _counter_plan(game, choices, "shock")


def _plan_counter(game: Game, choices: Choices) -> Plan:
    counter = choices.get("counter")
    if not isinstance(counter, str) or not counter.strip():
        raise Refusal("counter", "Say which counter to change (Shock, suppression, ...).")
    return _counter_plan(game, choices, counter.strip())


def _build_counter(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [ChangeCounter(r.str("unit"), r.str("counter"), r.int("delta"))], [r.str("line")]


def _plan_figures(game: Game, choices: Choices) -> Plan:
    unit = chosen_unit(game, choices)
    delta = chosen_whole(choices, "delta", "How many figures to add or take off")
    if delta == 0:
        raise Refusal("delta", "Add or take off at least one figure.")
    after = unit.figures + delta
    line = f"Figures of {unit.name}: {unit.figures} -> {after} of {unit.figures_max}"
    more: tuple[Effect, ...] = ()
    lines: tuple[str, ...] = ()
    if game.ruleset == "chain_of_command" and 0 <= after <= unit.figures_max:
        if after == 0 and not unit.has(OUT_OF_PLAY):
            more = (SetCondition(unit.id, OUT_OF_PLAY),)
            lines = (f"{unit.name} has no figures left: out of play. Its side takes a Force Morale Test",)
        elif after > 0 and unit.has(OUT_OF_PLAY):
            more, lines = (SetCondition(unit.id, OUT_OF_PLAY, False),), (f"{unit.name} is back in play",)
    return Plan("unit.figures", {"unit": unit.id, "delta": delta, "line": line}, (line,), _echo(choices),
                f"Figures {_signed(delta)} on {unit.name}", more, log=lines)


def _build_figures(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [ChangeFigures(r.str("unit"), r.int("delta"))], [r.str("line")]


def _plan_ammo(game: Game, choices: Choices) -> Plan:
    """Spend `rounds` (default 1) from weapon number `weapon` (counted from 0), or `refill` it to its maximum."""
    unit = chosen_unit(game, choices)
    index = chosen_whole(choices, "weapon", "The weapon", 0)
    if not 0 <= index < len(unit.weapons):
        raise Refusal("weapon", f"{unit.name} has no weapon number {index + 1}.")
    weapon = unit.weapons[index]
    now = weapon.ammo if weapon.ammo is not None else 0
    if chosen_flag(choices, "refill", what="Refill"):
        refusal = resupply_refusal(weapon)
        if refusal is not None:
            raise Refusal("refill", refusal[0].upper() + refusal[1:] + ".")
        full = weapon.ammo_max if weapon.ammo_max is not None else now
        rounds = now - full
        step = f"{weapon.name} ({unit.name}): refill"
        line = f"{weapon.name} ({unit.name}) refilled: {now} -> {full} {weapon.ammo_label}"
    else:
        rounds = chosen_whole(choices, "rounds", "How many rounds", 1)
        if rounds < 1:
            raise Refusal("rounds", "Spend at least one.")
        step = f"{weapon.name} ({unit.name}): spend {rounds} {weapon.ammo_label}"
        line = f"{weapon.name} ({unit.name}): {now} -> {now - rounds} {weapon.ammo_label}"
    return Plan("unit.ammo", {"unit": unit.id, "weapon": index, "rounds": rounds, "line": line}, (line,),
                _echo(choices), step)


def _build_ammo(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [SpendAmmo(r.str("unit"), r.int("weapon"), r.int("rounds"))], [r.str("line")]


def _plan_condition(game: Game, choices: Choices) -> Plan:
    unit = chosen_unit(game, choices)
    condition = choices.get("condition")
    if not isinstance(condition, str) or not condition.strip():
        raise Refusal("condition", "Say which condition (Pinned, Broken, ...).")
    condition = condition.strip()
    present = choices.get("present", True)
    if not isinstance(present, bool):
        raise Refusal("present", "Say whether the condition is put on or taken off.")
    words = condition_words(condition)
    line = f"{unit.name} is now {words}" if present else f"{unit.name} is no longer {words}"
    return Plan("unit.condition", {"unit": unit.id, "condition": condition, "present": present, "line": line},
                (line,), _echo(choices), f"{title(condition)} {'on' if present else 'off'}: {unit.name}")


def _build_condition(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [SetCondition(r.str("unit"), r.str("condition"), r.bool("present"))], [r.str("line")]


def _plan_damage(game: Game, choices: Choices) -> Plan:
    """Record vehicle damage `damage` (a key of the ruleset's damage table) or repair it (`present` false)."""
    unit = chosen_unit(game, choices)
    if unit.vehicle is None:
        raise Refusal("unit", f"{unit.name} is not a vehicle.")
    damage = choices.get("damage")
    if not isinstance(damage, str) or not damage.strip():
        raise Refusal("damage", "Say which damage (immobilised, engine damage, ...).")
    present = choices.get("present", True)
    if not isinstance(present, bool):
        raise Refusal("present", "Say whether the damage is recorded or repaired.")
    words = damage_result(game.ruleset, unit.vehicle.category, damage.strip()).title
    line = f"{unit.name}: {words} recorded" if present else f"{unit.name}: {words} repaired"
    return Plan("unit.damage", {"unit": unit.id, "damage": damage.strip(), "present": present, "line": line},
                (line,), _echo(choices), f"{words} {'on' if present else 'off'}: {unit.name}")


def _build_damage(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [SetDamage(r.str("unit"), r.str("damage"), r.bool("present"))], [r.str("line")]


# -- the roster ---------------------------------------------------------------------------


def unit_choice(unit: Unit) -> str:
    """A unit as the text an add or edit action takes as its `unit` choice (the save file's JSON)."""
    return json.dumps(asdict(unit), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _parse_unit(text: InputValue | None) -> Unit:
    if not isinstance(text, str):
        raise Refusal("unit", "The unit to add is missing.")
    try:
        return unit_from_dict(json.loads(text), "unit")
    except RecursionError:
        raise Refusal("unit", "That unit cannot be put on the table: it is nested too deeply to read.") from None
    except (ValueError, FieldError) as exc:
        raise Refusal("unit", f"That unit cannot be put on the table: {exc}.") from None


def _side(game: Game, unit: Unit) -> str:
    if not 0 <= unit.side < len(game.sides):
        raise Refusal("unit", f"There is no side number {unit.side + 1} for {unit.name}.")
    return side_name(game, unit.side)


def _plan_add(game: Game, choices: Choices) -> Plan:
    """Add the unit in `unit` (see unit_choice); `what` names what it is in the log ("Tripod MG team")."""
    unit = _parse_unit(choices.get("unit"))
    if unit.id in game.units:
        raise Refusal("unit", f"{game.units[unit.id].name} already has the id {unit.id!r}.")
    side = _side(game, unit)
    what = choices.get("what")
    what = what if isinstance(what, str) and what else KIND_TITLES.get(unit.kind, title(unit.kind))
    where = f"{place_words(game, (unit.x, unit.y), besides=unit.id)} facing {unit.facing:g}\u00b0"
    line = f"Added {unit.name} ({what}) for {side} {where}"
    return Plan("unit.add", {"unit": unit_choice(unit), "line": line}, (line,), _echo(choices),
                f"Add {unit.name}", log_kind="effect")


def _build_add(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [AddUnit(_parse_unit(r.str("unit")))], [r.str("line")]


def _plan_edit(game: Game, choices: Choices) -> Plan:
    """Replace a unit by the edited copy in `unit` (same id)."""
    unit = _parse_unit(choices.get("unit"))
    old = chosen_unit(game, {"unit": unit.id})
    _side(game, unit)
    check_edit(game, old, unit)
    changes = describe_changes(game, old, unit)
    if not changes:
        raise Refusal("unit", f"Nothing about {old.name} was changed.")
    if (old.x, old.y, old.facing) != (unit.x, unit.y, unit.facing):
        unit = _edit_as_move(game, old, unit)
    line = f"Edited {old.name}: {'; '.join(changes)}"
    return Plan("unit.edit", {"unit": unit_choice(unit), "line": line}, tuple(changes), _echo(choices),
                f"Edit {old.name}")


def _edit_as_move(game: Game, old: Unit, new: Unit) -> Unit:
    """An edit that puts the unit elsewhere or turns it is a move: it reads what `unit.move` reads.

    The edit does not activate the unit (the card's Activate does); an activated
    unit's edit is marked as its move, in the edited unit itself.
    """
    try:
        effects, _facts = move_effects(game, old, {})
    except ChoiceNeeded:
        raise Refusal("unit", f"{old.name} has not been activated this Phase: activate it (its card's Activate) "
                              "before it moves or turns.") from None
    for effect in effects:
        if isinstance(effect, SetActivation) and effect.unit_id == old.id:
            new = replace(new, activation=effect.activation)
    return new


def _build_edit(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [ReplaceUnit(_parse_unit(r.str("unit")))], [r.str("line")]


def _plan_remove(game: Game, choices: Choices) -> Plan:
    unit = chosen_unit(game, choices)
    kind = KIND_TITLES.get(unit.kind, title(unit.kind))
    line = f"Removed {unit.name} ({kind}, {side_name(game, unit.side)}) from the table"
    return Plan("unit.remove", {"unit": unit.id, "line": line}, (line,), _echo(choices), f"Remove {unit.name}")


def _build_remove(r: InputReader) -> tuple[list[Effect], list[str]]:
    return [RemoveUnit(r.str("unit"))], [r.str("line")]


def describe_changes(game: Game, old: Unit, new: Unit) -> list[str]:
    """Each edited field as "what: before -> after", for the log line."""
    out: list[str] = []
    if new.name != old.name:
        out.append(f"name {old.name} -> {new.name}")
    if new.side != old.side:
        out.append(f"side {side_name(game, old.side)} -> {side_name(game, new.side)}")
    if new.kind != old.kind:
        out.append(f"kind {KIND_TITLES.get(old.kind, old.kind)} -> {KIND_TITLES.get(new.kind, new.kind)}")
    if (new.x, new.y) != (old.x, old.y):
        out.append(f"position {place_words(game, (old.x, old.y), besides=old.id)} -> "
                   f"{place_words(game, (new.x, new.y), besides=old.id)}")
    if new.facing != old.facing:
        out.append(f"facing {old.facing:g}\u00b0 -> {new.facing:g}\u00b0")
    if (new.figures, new.figures_max) != (old.figures, old.figures_max):
        out.append(f"figures {old.figures}/{old.figures_max} -> {new.figures}/{new.figures_max}")
    for before, after in zip(old.weapons, new.weapons, strict=False):
        if (before.ammo, before.ammo_max) != (after.ammo, after.ammo_max):
            out.append(f"{after.name} {before.ammo}/{before.ammo_max} -> {after.ammo}/{after.ammo_max} "
                       f"{after.ammo_label}")
    if new.vehicle != old.vehicle:
        if new.vehicle is None:
            out.append("no longer a vehicle")
        else:
            armour = ", ".join(f"{face} {dice}" for face, dice in new.vehicle.armour.items())
            kind = new.vehicle.category.upper() + (" open-topped" if new.vehicle.open_topped else "")
            out.append(f"vehicle {kind}, Armour Dice {armour}")
    if new.notes != old.notes:
        out.append("notes")
    return out


# -- the sides ---------------------------------------------------------------------------

SIDE_VALUES = {"force_morale": "Force Morale", "coc_points": "Chain of Command points"}


def _plan_side(game: Game, choices: Choices) -> Plan:
    """Force Morale or Chain of Command points of side number `side` (from 0) up or down by `delta`."""
    index = chosen_whole(choices, "side", "The side")
    if not 0 <= index < len(game.sides):
        raise Refusal("side", f"There is no side number {index + 1}.")
    value = choices.get("value")
    if not isinstance(value, str) or value not in SIDE_VALUES:
        raise Refusal("value", "Say whether Force Morale or Chain of Command points change.")
    delta = chosen_whole(choices, "delta", "How much to add or take off")
    if delta == 0:
        raise Refusal("delta", "Add or take off at least one.")
    side = game.sides[index]
    name = SIDE_VALUES[value]
    now: int = getattr(side, value)
    line = f"{name} of {side.name}: {now} -> {now + delta}"
    inputs: dict[str, InputValue] = {"side": index, "name": side.name, "colour": side.colour,
                                     "force_morale": side.force_morale, "coc_points": side.coc_points, "line": line}
    inputs[value] = now + delta
    return Plan("side.change", inputs, (line,), _echo(choices), f"{name} {_signed(delta)} for {side.name}")


def _build_side(r: InputReader) -> tuple[list[Effect], list[str]]:
    side = Side(r.str("name"), r.str("colour"), r.int("force_morale"), r.int("coc_points"))
    return [ChangeSide(r.int("side", minimum=0), side)], [r.str("line")]


# -- the clock ----------------------------------------------------------------------------


def _clock_plan(game: Game, choices: Choices, turn_end: bool, side: int | None = None) -> Plan:
    """The clock moved on; `side` takes the next Phase (End Turn by hand: the first side)."""
    if choices:
        raise Refusal(sorted(choices)[0], "Ending a Phase or a Turn takes no choices.")
    if turn_end:
        turn, phase, side = game.turn + 1, 1, 0 if side is None else side
        text = f"End of Turn {game.turn}"
    else:
        turn, phase = game.turn, game.phase + 1
        side = (game.active_side + 1) % max(1, len(game.sides)) if side is None else side
        text = f"End of Turn {game.turn} Phase {game.phase}"
    heading = f"Turn {turn}, Phase {phase}: {game.sides[side].name if game.sides else ''}"
    due = tuple(due_effects(game, turn_end, side))
    return Plan("clock.set", {"turn": turn, "phase": phase, "next_side": side, "text": text, "heading": heading},
                (text, heading), {}, text, due, log_kind="clock")


def _plan_end_phase(game: Game, choices: Choices) -> Plan:
    """End Phase asks the sequence what follows: whose Phase, and whether the Turn ends with this one
    (Chain of Command's Command Dice, `next_phase`); then the Turn ends by itself."""
    side, turn_end = next_phase(game)
    return _clock_plan(game, choices, turn_end, side)


def _plan_end_turn(game: Game, choices: Choices) -> Plan:
    return _clock_plan(game, choices, True)


def _build_clock(r: InputReader) -> tuple[list[Effect], list[str]]:
    effect = SetClock(r.int("turn", minimum=1), r.int("phase", minimum=1), r.int("next_side", minimum=0))
    return [effect], [r.str("text"), r.str("heading")]


# -- the ruleset settings ---------------------------------------------------------------

SETTINGS = "game.settings"


def _plan_settings(game: Game, choices: Choices) -> Plan:
    """Ruleset settings changed together: each choice a setting's key and its new value (its default
    takes the game's own value away)."""
    if not choices:
        raise Refusal("settings", "No setting was changed.")
    try:
        known = {s.key: s for s in ruleset_settings(game.ruleset)}
    except TableError as exc:
        raise Refusal("settings", f"The ruleset's settings could not be read: {exc}.") from None
    effects: list[Effect] = []
    changed: list[str] = []
    for key, value in choices.items():
        setting = known.get(key)
        if setting is None:
            raise Refusal(key, f"This ruleset has no setting {key!r}.")
        problem = setting.problem(value)
        if problem is not None:
            raise Refusal(key, f"{setting.title} {problem}.")
        wanted = None if value == setting.default else value
        if game.settings.get(key) == wanted:
            raise Refusal(key, f"{setting.title} is {value} already.")
        effects.append(SetSetting(key, wanted))
        changed.append(f"{setting.title}: {value if wanted is not None else 'back to the default'}")
    line = f"Ruleset settings: {'; '.join(changed)}"
    return Plan(STEP, {}, (line,), _echo(choices), "Change ruleset settings", tuple(effects), log=(line,))


# The demo's units (1. Gruppe u1, Panzerschreck u4, Leutnant Kraus u5, Panzer IV u6) and a third Gruppe added.
_GRUPPE = Unit("u12", "3. Gruppe", "section", 0, 12.0, 6.0, 180.0, 10, 10,
               weapons=[Weapon("Rifles"), Weapon("MG42")])
_procedure("unit.move", "Move or turn a unit", _build_move,
           {"unit": "u1", "x": 14.0, "y": 20.0, "facing": 180.0, "line": '1. Gruppe moved 11.7" to (14", 20")'})
_procedure("unit.counter", "Change a counter", _build_counter,
           {"unit": "u1", "counter": "shock", "delta": 1, "line": "Shock on 1. Gruppe: 0 -> 1"})
_procedure("unit.figures", "Change the figures", _build_figures,
           {"unit": "u1", "delta": -2, "line": "Figures of 1. Gruppe: 10 -> 8 of 10"})
_procedure("unit.ammo", "Spend or refill ammunition", _build_ammo,
           {"unit": "u4", "weapon": 0, "rounds": 1, "line": "Panzerschreck (Panzerschreck): 3 -> 2 rounds"})
_procedure("unit.condition", "Put a condition on or off", _build_condition,
           {"unit": "u1", "condition": "pinned", "present": True, "line": "1. Gruppe is now Pinned"})
_procedure("unit.damage", "Record or repair vehicle damage", _build_damage,
           {"unit": "u6", "damage": "immobilised", "present": True,
            "line": "Panzer IV H: Vehicle Immobilised recorded"})
_procedure("unit.add", "Add a unit", _build_add,
           {"unit": unit_choice(_GRUPPE),
            "line": 'Added 3. Gruppe (Section) for Germany at (12", 6") facing 180\u00b0'})
_procedure("unit.edit", "Edit a unit", _build_edit,
           {"unit": unit_choice(_GRUPPE), "line": "Edited 3. Gruppe: figures 8/10 -> 10/10"})
_procedure("unit.remove", "Remove a unit", _build_remove,
           {"unit": "u5", "line": "Removed Leutnant Kraus (Leader, Germany) from the table"})
_procedure("clock.set", "Move the clock on", _build_clock,
           {"turn": 1, "phase": 2, "next_side": 1, "text": "End of Turn 1 Phase 1",
            "heading": "Turn 1, Phase 2: United States"})
_procedure("side.change", "Change a side's Force Morale or points", _build_side,
           {"side": 0, "name": "Germany", "colour": "#3b6fb6", "force_morale": 8, "coc_points": 1,
            "line": "Force Morale of Germany: 9 -> 8"})

register_plan("unit.move", _plan_move)
register_plan("unit.turn", _plan_turn)
register_plan("unit.shock", _plan_shock)
register_plan("unit.counter", _plan_counter)
register_plan("unit.figures", _plan_figures)
register_plan("unit.ammo", _plan_ammo)
register_plan("unit.condition", _plan_condition)
register_plan("unit.damage", _plan_damage)
register_plan("unit.add", _plan_add)
register_plan("unit.edit", _plan_edit)
register_plan("unit.remove", _plan_remove)
register_plan("clock.end_phase", _plan_end_phase)
register_plan("clock.end_turn", _plan_end_turn)
register_plan("side.change", _plan_side)
register_plan(SETTINGS, _plan_settings)

__all__ = ["SETTINGS", "describe_changes", "unit_choice"]
