"""Every bombardment action a player takes, as a named plan (rules/actions.py).

    coc.new_bombardment   side, kind (high_explosive/smoke), phases, x, y (aim), observer_x, observer_y
    coc.ranging_shot      bombardment, bearing (optional), activation         dice: 2D6, deviation
    coc.fire_for_effect   bombardment, activation
    coc.re_aim            bombardment, x, y, activation
    coc.hidden_die        bombardment, face, direction (a rolling die's edge)
    coc.bombardment_phase bombardment, activation, cover.<unit>, cover_reason.<unit>, linear.<unit>,
                          leave_out.<unit>   dice
    coc.new_sos           side, x, y
    coc.sos_fire          bombardment, target, cover, cover_reason, linear_obstacle, in_fortification   dice
    coc.extra_rounds      bombardment, rounds
    coc.edit_area         bombardment, shape, width, depth, radius, facing, firepower_dice, to_hit
    coc.add_building      name, x, y, width, depth, facing, material, storeys
    coc.enter_building    unit, building
    coc.leave_building    unit

Each activation of the Forward Observer (a ranging shot, fire for effect,
re-aiming, a later Phase of fire) spends a held Command Dice 1 or one Chain of
Command point (`activation`: command_die or coc_point, by default what the
side holds, a 1 first); the first three wait for the side's Command Dice roll
this Phase (coc_points.py `observer_activation`), and the plan's effects spend
it. Placing the hidden die and buying rounds are free.

The plans read the table with the bombardment rules' own builders
(`ranging_inputs`, `phase_inputs`, `sos_inputs`, `new_bombardment`, ...), so a
refusal is theirs (`waiting` included). The actions without dice carry their
changes as the plan's effects and their log lines as the plan's log, stamped
with the action's time, so a replay writes the same log.

Each unit's cover starts at the table's reading (`bombardment_cover`); the
facts say it, and a player's different cover is logged with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import Bombardment
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Scalar
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command import buildings as bld
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.bombardment_phase import bombardment_cover
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.coc_points import Activation
from battletracker.rules.chain_of_command.coc_points import coc_store
from battletracker.rules.chain_of_command.coc_points import observer_activation
from battletracker.rules.chain_of_command.sos_fire import new_sos
from battletracker.rules.chain_of_command.sos_fire import sos_inputs
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_number
from battletracker.rules.choices import chosen_whole
from battletracker.rules.places import place_words
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.tables import setting
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import cover_override

STEP = "coc.bombardment_step"
"""The procedure of the actions without dice: their changes are all in the plan."""


def _step_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    return Resolution(STEP, "done", {}, [], [], [])


def _step_odds(inputs: Inputs) -> Distribution[str]:
    return Distribution.certain("done")


register(Procedure(STEP, "Bombardment step", _step_resolve, _step_odds, ruleset="chain_of_command",
                   typical={}))


def _str(choices: Choices, key: str, what: str) -> str:
    value = choices.get(key)
    if not isinstance(value, str) or not value:
        raise Refusal(key, f"Say {what}.")
    return value


def _bombardment(game: Game, choices: Choices) -> Bombardment:
    bid = _str(choices, "bombardment", "which bombardment")
    if bid not in game.bombardments:
        raise Refusal("bombardment", "That bombardment is no longer on the table (was it undone?).")
    return game.bombardments[bid]


def _step(choices: Choices, title: str, effects: Sequence[Effect]) -> Plan:
    """A plan that is its effects: log lines become the plan's log, stamped when the action is taken."""
    lines = tuple(e.entry.text for e in effects if isinstance(e, AppendLog))
    rest = tuple(e for e in effects if not isinstance(e, AppendLog))
    return Plan(STEP, {}, lines, dict(choices), title, rest, "bombardment", lines or (title,))


def _name(game: Game, b: Bombardment) -> str:
    return bm.observer_name(game, b)


# -- placing and aiming -----------------------------------------------------------------------------


def _plan_new(game: Game, choices: Choices) -> Plan:
    side = chosen_whole(choices, "side", "The side")
    kind = choices.get("kind", "high_explosive")
    if kind not in ("high_explosive", "smoke"):
        raise Refusal("kind", "A bombardment fires high explosive or smoke.")
    phases = chosen_whole(choices, "phases", "The Forward Observer's die of Phases")
    aim = (chosen_number(choices, "x", "The aiming point across the table"),
           chosen_number(choices, "y", "The aiming point up the table"))
    observer = (chosen_number(choices, "observer_x", "The Forward Observer's place across the table"),
                chosen_number(choices, "observer_y", "The Forward Observer's place up the table"))
    effects = bm.new_bombardment(game, side, observer, aim, kind=str(kind), phases=phases)
    return _step(choices, "New bombardment", effects)


UNRECORDED = "unrecorded"
"""The `activation` of a ranging shot, fire for effect or re-aiming saved before version 3, which charged none."""


def activation_of(game: Game, b: Bombardment, choices: Choices, what: str) -> Activation:
    """The Forward Observer's activation for this step (`activation` among the choices, else what the side holds).

    A step saved before version 3 (`unrecorded`) charged nothing and replays so.
    """
    if choices.get("activation") == UNRECORDED:
        return Activation(UNRECORDED, (), "")
    return observer_activation(game, b.side, choices.get("activation"), what)


STEP_WORDS = {"coc.ranging_shot": "take a ranging shot", "coc.fire_for_effect": "call for fire for effect",
              "coc.re_aim": "re-aim"}
"""What each activation of the Forward Observer does, as its refusals say it."""


def _plan_ranging(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    bearing = chosen_number(choices, "bearing", "The bearing") if "bearing" in choices else None
    inputs = bm.ranging_inputs(game, b.id, bearing)
    activation = activation_of(game, b, choices, STEP_WORDS["coc.ranging_shot"])
    plus = b.unobserved_attempts * data().ranging.per_unobserved_attempt
    said = (activation.fact,) if activation.text else ()
    facts = (*said, f"Aiming {place_words(game, b.centre)}",
             *((f"+{plus} for {counted(b.unobserved_attempts, 'earlier unobserved shots')}",) if plus else ()))
    return Plan("coc.ranging_shot", inputs, facts, dict(choices), f"{_name(game, b)}: ranging shot",
                activation.effects, log_kind="bombardment", log=tuple(f"{_name(game, b)}: {fact}" for fact in said))


def _activated(game: Game, b: Bombardment, activation: Activation, effects: Sequence[Effect]) -> list[Effect]:
    """A step's effects after those that spend its activation, said first in its log."""
    said = [AppendLog.now(game, f"{_name(game, b)}: {activation.fact}", "bombardment")] if activation.text else []
    return [*activation.effects, *said, *effects]


def _plan_fire_for_effect(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    effects = bm.fire_for_effect(game, b.id)
    activation = activation_of(game, b, choices, STEP_WORDS["coc.fire_for_effect"])
    return _step(choices, f"{_name(game, b)}: fire for effect", _activated(game, b, activation, effects))


def _plan_re_aim(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    aim = (chosen_number(choices, "x", "The new aiming point across the table"),
           chosen_number(choices, "y", "The new aiming point up the table"))
    effects = bm.re_aim(game, b.id, aim)
    activation = activation_of(game, b, choices, STEP_WORDS["coc.re_aim"])
    return _step(choices, f"{_name(game, b)}: re-aimed", _activated(game, b, activation, effects))


def _plan_hidden_die(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    face = chosen_whole(choices, "face", "The hidden die")
    direction = choices.get("direction")
    if direction is not None and not isinstance(direction, str):
        raise Refusal("direction", "The rolling edge is up, down, left or right.")
    return _step(choices, f"{_name(game, b)}: hidden die placed",
                 bm.place_pattern_die(game, b.id, face, direction or None))


# -- the Phase of fire --------------------------------------------------------------------------------


def _per_unit(choices: Choices, prefix: str) -> dict[str, InputValue]:
    return {key[len(prefix):]: value for key, value in choices.items() if key.startswith(prefix)}


def _plan_phase(game: Game, choices: Choices) -> Plan:
    """`activation`: begun, command_die, coc_point or none; without it, what the side holds now."""
    b = _bombardment(game, choices)
    activation = choices.get("activation")
    if activation is not None and activation not in ("begun", "command_die", "coc_point", "none", "coc_die"):
        raise Refusal("activation", "The Forward Observer is activated by a Command Dice 1, a Chain of Command "
                                    "point, or not at all.")
    covers = {u: str(v) for u, v in _per_unit(choices, "cover.").items()}
    linear = [u for u, v in _per_unit(choices, "linear.").items() if v is True]
    out = [u for u, v in _per_unit(choices, "leave_out.").items() if v is True]
    inputs = phase_inputs(game, b.id, activation if isinstance(activation, str) else None,
                          covers=covers, linear_obstacles=linear, exclude=out)
    reasons = _per_unit(choices, "cover_reason.")
    infantry = [str(inputs[f"target{i}_id"]) for i in range(1, int(inputs.get("targets", 0)) + 1)
                if inputs.get(f"target{i}_kind") == "infantry"]
    covered, log = _cover_readings(game, infantry, covers, {u: str(v) for u, v in reasons.items()})
    facts = (activation_fact(game, b, str(inputs["activation"])),
             f"Phase of fire {b.phases_fired + 1}, {b.phases_left} left on the Forward Observer's die",
             phase_dice_fact(b, game.settings), *covered)
    return Plan("coc.bombardment_phase", inputs, facts, dict(choices), f"{_name(game, b)}: Phase of fire",
                log_kind="bombardment", log=log)


def activation_fact(game: Game, b: Bombardment, activation: str) -> str:
    """What activates this Phase of fire, and what it spends, said before the roll."""
    if activation == "begun":
        return "The Forward Observer's activation that began the bombardment counts for this Phase of fire"
    if activation == "command_die":
        return "Activated with a Command Dice 1"
    if activation == "coc_point":
        return f"Activated with {coc_store(game, b.side).spent_words()}"
    if activation == "coc_die":
        return "Activated with a whole Chain of Command die, as games saved before version 3 spent a point"
    return "No Command Dice 1 and no Chain of Command point: the bombardment ends, contact with the mortars lost"


def _cover_readings(game: Game, unit_ids: Sequence[str], chosen: Mapping[str, str],
                    reasons: Mapping[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each unit's cover from the map as a fact, and a log line for each the player changed."""
    index = TableIndex(game)
    facts: list[str] = []
    log: list[str] = []
    for unit_id in unit_ids:
        unit = game.units[unit_id]
        reading = bombardment_cover(index, unit)
        changed = cover_override(reading, chosen.get(unit_id, reading.level), reasons.get(unit_id, "").strip())
        facts.append(f"{unit.name}: {changed or reading.reason}")
        if changed is not None:
            log.append(f"{unit.name}: {changed}")
    return tuple(facts), tuple(log)


def phase_dice_fact(b: Bombardment, settings: Mapping[str, Scalar]) -> str:
    """What this Phase of fire rolls against each unit in the area, said before the roll."""
    if b.kind == "smoke":
        return "Smoke rolls no dice: the barrage moves, reveals its die and counts down as usual"
    d = data()
    doubled = b.devastating and b.phases_fired == 0
    factor = 2 if doubled else 1
    others = 2 if doubled and setting(RULESET, "bombardment_devastating_doubles_all", settings) else 1
    why = " (doubled: the first Phase of a Devastating Bombardment)" if doubled else ""
    return (f"Each unit in the area takes {b.firepower_dice * factor} Firepower Dice, hitting on {b.to_hit}+{why}; "
            f"passengers {counted(d.passenger_dice * others, 'dice')} a Team, hitting on {d.passenger_to_hit}+; "
            f"vehicles {counted(d.vehicle_dice * others, 'dice')} ({d.open_topped_dice * others} if open-topped), "
            "hitting on 6s")


# -- SOS Fire ------------------------------------------------------------------------------------------


def _plan_new_sos(game: Game, choices: Choices) -> Plan:
    side = chosen_whole(choices, "side", "The side")
    centre = (chosen_number(choices, "x", "The centre across the table"),
              chosen_number(choices, "y", "The centre up the table"))
    return _step(choices, "SOS Fire", new_sos(game, side, centre))


def _plan_sos_fire(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    target = _str(choices, "target", "which unit SOS Fire falls on")
    cover = choices.get("cover")
    inputs = sos_inputs(game, b.id, target, cover=cover if isinstance(cover, str) else None,
                        linear_obstacle=chosen_flag(choices, "linear_obstacle", what="Behind a linear obstacle"),
                        in_fortification=chosen_flag(choices, "in_fortification", what="In a fortification"))
    unit = game.units[target]
    covered: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    if unit.vehicle is not None:
        dice = data().open_topped_dice if unit.vehicle.open_topped else data().vehicle_dice
        against = f"{unit.name}: {counted(dice, 'dice')}, hitting on 6s"
    else:
        teams = int(inputs.get("teams", 1))
        against = f"{unit.name}: {b.firepower_dice * teams} Firepower Dice, hitting on {b.to_hit}+"
        reason = choices.get("cover_reason")
        covered, log = _cover_readings(game, [target], {target: str(inputs["cover"])},
                                       {target: reason if isinstance(reason, str) else ""})
    facts = (f"SOS Fire centred {place_words(game, b.centre)}, {b.radius:g}\" radius", against, *covered)
    return Plan("coc.sos_fire", inputs, facts, dict(choices), f"{_name(game, b)}: SOS Fire at {unit.name}",
                log_kind="bombardment", log=log)


# -- the row's menu ------------------------------------------------------------------------------------


def _plan_rounds(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)
    rounds = chosen_whole(choices, "rounds", "The extra rounds")
    return _step(choices, f"{_name(game, b)}: {counted(rounds, 'extra rounds')}", bm.add_rounds(game, b.id, rounds))


def _plan_edit_area(game: Game, choices: Choices) -> Plan:
    b = _bombardment(game, choices)

    def opt_number(key: str, what: str) -> float | None:
        return chosen_number(choices, key, what) if key in choices else None

    def opt_whole(key: str, what: str) -> int | None:
        return chosen_whole(choices, key, what) if key in choices else None

    shape = choices.get("shape")
    area = bm.AreaOptions(shape=shape if isinstance(shape, str) else None, width=opt_number("width", "The width"),
                          depth=opt_number("depth", "The depth"), radius=opt_number("radius", "The radius"),
                          facing=opt_number("facing", "The facing"),
                          firepower_dice=opt_whole("firepower_dice", "The Firepower Dice"),
                          to_hit=opt_whole("to_hit", "The score to hit"))
    return _step(choices, f"{_name(game, b)}: area edited", bm.edit_area(game, b.id, area))


# -- buildings -----------------------------------------------------------------------------------------


def _plan_add_building(game: Game, choices: Choices) -> Plan:
    name = choices.get("name", "Building")
    name = name.strip() if isinstance(name, str) and name.strip() else "Building"
    centre = (chosen_number(choices, "x", "The centre across the table"),
              chosen_number(choices, "y", "The centre up the table"))
    material = choices.get("material", "brick_stone")
    effects = bld.add_building(game, name, centre, width=chosen_number(choices, "width", "The width"),
                               depth=chosen_number(choices, "depth", "The depth"),
                               facing=chosen_number(choices, "facing", "The facing", 0.0),
                               material=str(material), storeys=chosen_whole(choices, "storeys", "The storeys", 1))
    return _step(choices, f"{name} placed", effects)


def _plan_enter(game: Game, choices: Choices) -> Plan:
    unit_id = _str(choices, "unit", "which unit goes in")
    building_id = _str(choices, "building", "which building")
    if unit_id not in game.units:
        raise Refusal("unit", "That unit is no longer on the table (was it removed?).")
    if building_id not in game.buildings:
        raise Refusal("building", "That building is no longer on the table (was it removed?).")
    unit, building = game.units[unit_id], game.buildings[building_id]
    return _step(choices, f"{unit.name} goes into {building.name}", bld.enter(game, building_id, unit_id))


def _plan_leave(game: Game, choices: Choices) -> Plan:
    unit_id = _str(choices, "unit", "which unit comes out")
    if unit_id not in game.units:
        raise Refusal("unit", "That unit is no longer on the table (was it removed?).")
    unit = game.units[unit_id]
    building = bld.building_of(game, unit_id)
    if building is None:
        raise Refusal("unit", f"{unit.name} is not in a building.")
    return _step(choices, f"{unit.name} comes out of {building.name}", bld.leave(game, unit_id))


WHAT = {
    "aim_x": "The aiming point", "aim_y": "The aiming point", "observer_x": "The Forward Observer's place",
    "observer_y": "The Forward Observer's place", "side": "The side", "kind": "The bombardment",
    "phases": "The Forward Observer's die", "pattern_die": "The hidden die", "direction": "The rolling edge",
    "rounds": "The extra rounds", "x": "The centre", "y": "The centre", "width": "The width", "depth": "The depth",
    "radius": "The radius", "shape": "The area's shape", "facing": "The facing", "material": "The material",
    "storeys": "The storeys", "firepower_dice": "The Firepower Dice", "to_hit": "The score to hit",
    "unit_id": "The unit",
}
"""How a refusal of the bombardment rules names what it refuses, in a player's words."""


def _worded(fn: Callable[[Game, Choices], Plan]) -> Callable[[Game, Choices], Plan]:
    """The plan `fn`, its rules' refusals put as a sentence that names what is wrong, never a field."""

    def planned(game: Game, choices: Choices) -> Plan:
        try:
            return fn(game, choices)
        except (Refusal, SequenceRefusal):
            raise
        except RulesInputError as exc:
            text = str(exc).removeprefix(f"{exc.field}: ")
            what = WHAT.get(exc.field)
            sentence = f"{what}: {text}" if what else text[:1].upper() + text[1:]
            raise Refusal(exc.field, sentence if sentence.endswith(".") else sentence + ".") from None

    return planned


register_plan("coc.new_bombardment", _worded(_plan_new))
register_plan("coc.ranging_shot", _worded(_plan_ranging))
register_plan("coc.fire_for_effect", _worded(_plan_fire_for_effect))
register_plan("coc.re_aim", _worded(_plan_re_aim))
register_plan("coc.hidden_die", _worded(_plan_hidden_die))
register_plan("coc.bombardment_phase", _worded(_plan_phase))
register_plan("coc.new_sos", _worded(_plan_new_sos))
register_plan("coc.sos_fire", _worded(_plan_sos_fire))
register_plan("coc.extra_rounds", _worded(_plan_rounds))
register_plan("coc.edit_area", _worded(_plan_edit_area))
register_plan("coc.add_building", _worded(_plan_add_building))
register_plan("coc.enter_building", _worded(_plan_enter))
register_plan("coc.leave_building", _worded(_plan_leave))
