"""`coc.bombardment_phase`: one Phase of fire of a Medium Mortar bombardment (or smoke barrage).

The bombardment must be activated each Phase by a Command Dice 1 or one Chain
of Command point (`activation`; the point from the side's loose points, else a
Chain of Command die broken into its points: coc_points.py, read from
`coc_points` (whole dice) and `coc_tally` (points)); without either (`none`)
it ends, contact lost,
and its effects end with the current Phase. Once the side's Command Dice are
rolled this Phase (`held`, the faces it holds), a Command Dice 1 must be one it
holds, and the Phase of fire spends it. The Phase it begins in (on
target, or fire for effect) the Forward Observer's activation already counts
(`begun`). It is activated in its own side's Phase (`side`, `active_side`) and
fires at most once a Phase: a Phase of fire in the Phase of the last one
(`last_fire_turn`, `last_fire_phase`) is refused.

An activated Phase of fire, in order: a rolling bombardment moves first (from
its second Phase, for as many moves as its die allows), the hidden die is
revealed on the second Phase, then every unit in the area rolls
(area_fire.py; a Devastating Bombardment doubles the dice of its first
Phase), empty brick or stone buildings in the area roll the Firepower Dice for
their 6s, every infantry unit hit is Pinned (cover one level better from then
on) unless it is in a substantial building of two or more storeys, and the
Phases left go down by one. At none left the bombardment ends: the Forward
Observer is removed and its effects and smoke stay to the end of the
following Phase.

A smoke barrage rolls no dice: it moves, reveals and counts down the same way.

The app builds the inputs from the table with `phase_inputs`: the units in
the area, each as `target<i>_<field>` (i from 1 to `targets`). Outcome keys:
`contact_lost`; `smoke`; or `kills=K` for the whole area, followed by
` unstable=B` when brick or stone buildings are in it (B buildings made
unstable). The Shock on each vehicle is that vehicle's own (it is abandoned
on its own four), so it is not summed over the area: with Storm of Steel at
its most a tank, a half-track and a lorry's passengers could put 0 to 720
Shock on vehicles, and the area's odds would list a hundred thousand
outcomes. The Resolution's values still give it (`vehicle_shock`), and each
unit's exact chances of a kill, of Shock on its vehicle and of its building
made unstable are `target_chances(inputs)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from battletracker.core import geometry
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveMarker
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.sequence_effects import SetHeldDice
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts
from battletracker.rules.base import numbered
from battletracker.rules.chain_of_command.area_fire import AreaTarget
from battletracker.rules.chain_of_command.area_fire import TargetResult
from battletracker.rules.chain_of_command.area_fire import roll_target
from battletracker.rules.chain_of_command.area_totals import area_kills_unstable
from battletracker.rules.chain_of_command.area_totals import unit_chances
from battletracker.rules.chain_of_command.bombardment import PINNED
from battletracker.rules.chain_of_command.bombardment import carrier_of
from battletracker.rules.chain_of_command.bombardment import describe_pattern
from battletracker.rules.chain_of_command.bombardment import get_bombardment
from battletracker.rules.chain_of_command.bombardment import is_rolling
from battletracker.rules.chain_of_command.bombardment import is_transport
from battletracker.rules.chain_of_command.bombardment import next_centre
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import unit_teams
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment import waiting
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.buildings import building_of
from battletracker.rules.chain_of_command.coc_points import SETTINGS as COC_SETTINGS
from battletracker.rules.chain_of_command.coc_points import CocStore
from battletracker.rules.chain_of_command.coc_points import coc_store
from battletracker.rules.chain_of_command.coc_points import read_store
from battletracker.rules.chain_of_command.coc_points import store_inputs
from battletracker.rules.chain_of_command.command_dice import held_input
from battletracker.rules.chain_of_command.command_dice import read_held
from battletracker.rules.chain_of_command.command_dice import rolled_this_phase
from battletracker.rules.chain_of_command.command_dice import without
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import SETTINGS as FIRE_SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.fire import raise_cover
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.fire import read_storm
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.chain_of_command.vehicle_target import VehicleTarget
from battletracker.rules.log_lines import recorded_point
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import check_once_a_phase
from battletracker.rules.sequence import check_own_phase
from battletracker.rules.sequence import last_inputs
from battletracker.rules.sequence import read_last
from battletracker.rules.tables import setting
from battletracker.rules.terrain import CoverReading
from battletracker.rules.terrain import TableIndex
from battletracker.rules.words import possessive

ACTIVATIONS = ("begun", "command_die", "coc_point", "none", "coc_die")
"""`coc_die` is how games saved before version 3 spent a Chain of Command point: a whole die (savefile.migrate)."""
PHASE_KINDS = ("high_explosive", "smoke")
PHASE_STATES = ("ready", "firing")
TARGET_KINDS = ("infantry", "passengers", "vehicle", "building")
BUILDING_MATERIALS = ("none", "wood", "brick_stone")
PIN_EXEMPT = ("brick_stone", "any")
MAX_TARGETS = 60
SETTINGS = (*FIRE_SETTINGS, "bombardment_devastating_doubles_all", "bombardment_pin_exempt_material", *COC_SETTINGS)


@dataclass(frozen=True)
class PhaseTarget:
    """One target of the Phase: its dice, and whether the fire Pins it."""

    area: AreaTarget
    pins: bool


@dataclass(frozen=True)
class PhaseInputs:
    kind: str
    state: str
    activation: str
    side: int
    store: CocStore | None
    held: tuple[int, ...] | None
    bombardment_id: str | None
    observer_id: str | None
    turn: int
    phase: int
    left_behind: tuple[str, ...]
    centre: geometry.Point
    phases_left: int
    phases_fired: int
    devastating: bool
    pattern_die: int | None
    direction: str | None
    moves_left: int
    firepower_dice: int
    to_hit: int
    targets: tuple[PhaseTarget, ...]

    @property
    def doubled(self) -> bool:
        """The first Phase of fire of a Devastating Bombardment rolls double dice."""
        return self.devastating and self.phases_fired == 0

    @property
    def moves_now(self) -> bool:
        return (self.phases_fired >= 1 and self.moves_left > 0 and self.direction is not None
                and is_rolling(self.pattern_die))

    @property
    def reveals_now(self) -> bool:
        return self.phases_fired + 1 == data().pattern.revealed_on_phase_of_fire

    def centre_now(self) -> geometry.Point:
        """Where this Phase's fire falls (after the move a rolling bombardment makes first)."""
        if not self.moves_now:
            return self.centre
        assert self.pattern_die is not None and self.direction is not None
        return geometry.step_parallel(self.centre, self.direction, float(data().pattern.rate(self.pattern_die)))


def _setting_value(key: str) -> int | str | bool:
    value = setting(RULESET, key)
    assert not isinstance(value, float)
    return value


def _parse(inputs: Inputs) -> PhaseInputs:
    r = InputReader(inputs)
    kind = r.choice("kind", PHASE_KINDS, "high_explosive")
    state = r.choice("state", PHASE_STATES, "firing")
    activation = r.choice("activation", ACTIVATIONS)
    side = r.int("side", 0, minimum=0)
    active_side = r.optional_int("active_side", minimum=0)
    last_fire = read_last(r, "last_fire")
    coc_points = r.optional_int("coc_points", minimum=0)
    store = read_store(r, coc_points) if coc_points is not None else None
    held = read_held(r) if r.bool("command_dice_rolled") else None
    bombardment_id = read_id(r, "bombardment_id")
    observer_id = read_id(r, "observer_id")
    if bombardment_id is None:
        turn, phase = r.int("turn", 1, minimum=1), r.int("phase", 1, minimum=1)
    else:
        turn, phase = r.int("turn", minimum=1), r.int("phase", minimum=1)
    left_behind = tuple(i.strip() for i in r.str("left_behind", "").split(",") if i.strip())
    centre = (r.float("x"), r.float("y"))
    phases_left = r.int("phases_left", minimum=1, maximum=99)
    phases_fired = r.int("phases_fired", 0, minimum=0, maximum=99)
    devastating = r.bool("devastating")
    pattern_die = r.optional_int("pattern_die", minimum=1, maximum=6)
    direction = r.optional_str("direction")
    moves_left = r.int("moves_left", 0, minimum=0, maximum=data().pattern.moves)
    firepower_dice = r.int("firepower_dice", int(_setting_value("bombardment_firepower_dice")), minimum=1,
                           maximum=60)
    to_hit = r.int("to_hit", int(_setting_value("bombardment_to_hit")), minimum=2, maximum=6)
    storm = read_storm(r, True)
    tables = FireTables.read(r)
    double_all = r.bool("bombardment_devastating_doubles_all",
                        bool(_setting_value("bombardment_devastating_doubles_all")))
    exempt = r.choice("bombardment_pin_exempt_material", PIN_EXEMPT,
                      str(_setting_value("bombardment_pin_exempt_material")))
    count = r.int("targets", 0, minimum=0, maximum=MAX_TARGETS)
    doubled = devastating and phases_fired == 0
    dice_for_target = firepower_dice * (2 if doubled else 1)
    targets = tuple(_read_target(r, i, dice_for_target, to_hit, storm, doubled and double_all, exempt, tables)
                    for i in range(1, count + 1))
    r.finish()

    check_own_phase(side, active_side, "A bombardment is activated")
    check_once_a_phase(last_fire, PhaseStamp(turn, phase), "last_fire_phase", "has already fired",
                       "a bombardment fires once a Phase, next in a later Phase of its side")
    if activation == "begun" and state != "ready":
        raise RulesInputError("activation", "'begun' is only for the Phase a bombardment begins in; one already "
                                            "firing needs a Command Dice 1 or a Chain of Command point")
    if activation == "coc_die" and coc_points == 0:
        raise RulesInputError("activation", "the side has no Chain of Command die to spend")
    if activation == "coc_point" and store is not None and not store.can_spend_point:
        raise RulesInputError("activation", f"the side has no Chain of Command point to spend ({store.words()})")
    if activation == "command_die" and held is not None and 1 not in held:
        raise SequenceRefusal("activation", "The side holds no Command Dice 1 this Phase: the bombardment needs a "
                                            "Chain of Command point, or it ends, contact lost.")
    if state == "ready" and phases_fired:
        raise RulesInputError("phases_fired", f"a bombardment that has fired {counted(phases_fired, 'Phases')} "
                                              "is firing, not ready")
    if activation != "none":
        if pattern_die is None:
            raise RulesInputError("pattern_die", "is required: place the hidden Static or Rolling die before the "
                                                 "first Phase of fire")
        if is_rolling(pattern_die):
            if direction not in geometry.EDGE_DIRECTIONS:
                raise RulesInputError("direction", f"a Rolling bombardment needs a direction along a table edge "
                                                   f"({', '.join(geometry.EDGE_DIRECTIONS)}), not {direction!r}")
        elif direction is not None:
            raise RulesInputError("direction", f"a Static bombardment ({pattern_die}) does not move")
    if kind == "smoke" and targets:
        raise RulesInputError("targets", f"a smoke barrage rolls no dice against the units in it, not {count}")
    if bombardment_id is not None and activation in ("coc_point", "coc_die") and coc_points is None:
        raise RulesInputError("coc_points", "is required to spend a Chain of Command point from the side")
    return PhaseInputs(kind, state, activation, side, store, held, bombardment_id, observer_id, turn, phase,
                       left_behind, centre, phases_left, phases_fired, devastating, pattern_die, direction,
                       moves_left, firepower_dice, to_hit, targets)


def _read_target(r: InputReader, i: int, firepower_dice: int, to_hit: int, storm: StormOfSteel | None,
                 double_all: bool, exempt: str, tables: FireTables) -> PhaseTarget:
    key = f"target{i}_"
    kind = r.choice(key + "kind", TARGET_KINDS)
    name = r.str(key + "name", f"Target {i}")
    target_id = read_id(r, key + "id")
    b = data()
    factor = 2 if double_all else 1
    if kind == "building":
        material = r.choice(key + "building", ("wood", "brick_stone"), "brick_stone")
        intact = r.bool(key + "building_intact", True)
        area = AreaTarget("building", name, dice=firepower_dice, to_hit=to_hit, storm=storm,
                          can_collapse=material == "brick_stone" and intact, building_id=target_id)
        return PhaseTarget(area, False)
    if kind == "vehicle":
        open_topped = r.bool(key + "open_topped")
        vehicle = VehicleTarget(target_id, r.int(key + "vehicle_current_shock", 0, minimum=0),
                                r.bool(key + "vehicle_immobilised"))
        dice = (b.open_topped_dice if open_topped else b.vehicle_dice) * factor
        return PhaseTarget(AreaTarget("vehicle", name, dice=dice, to_hit=6, storm=storm, unit_id=target_id,
                                      vehicle=vehicle), False)
    teams = r.int(key + "teams", 1, minimum=1, maximum=MAX_TEAMS)
    figures = r.optional_int(key + "figures", minimum=0)
    if figures == 0:
        raise RulesInputError(key + "figures", f"{name} has no figures left: it is out of play and cannot be hit")
    if figures is not None and target_id is None:
        raise RulesInputError(key + "figures", f"needs {key}id")
    if kind == "passengers":
        vehicle = VehicleTarget(read_id(r, key + "vehicle_id"), r.int(key + "vehicle_current_shock", 0, minimum=0),
                                r.bool(key + "vehicle_immobilised"))
        effect = HitEffect.for_cover(_cover(b.passenger_cover), 1, tables)
        volley = Volley(b.passenger_dice * teams * factor, b.passenger_to_hit, storm, effect, 1, _caps(figures))
        return PhaseTarget(AreaTarget("passengers", name, volley, storm=storm, unit_id=target_id, figures=figures,
                                      vehicle=vehicle), False)
    cover = rolled_cover(r.choice(key + "cover", cover_levels(), "open"), r.bool(key + "linear_obstacle"),
                         r.bool(key + "pinned"))
    material = r.choice(key + "building", BUILDING_MATERIALS, "none")
    storeys = r.int(key + "storeys", 0, minimum=0, maximum=99)
    building_id = read_id(r, key + "building_id")
    intact = r.bool(key + "building_intact", True)
    if material == "none" and (storeys or building_id is not None):
        raise RulesInputError(key + "building", f"is none, but {key}storeys or {key}building_id is given")
    if material != "none" and storeys < 1:
        raise RulesInputError(key + "storeys", f"a unit in a building needs its storeys (1 or more), not {storeys}")
    substantial = storeys >= b.pin_exempt_storeys and (exempt == "any" or material == "brick_stone")
    volley = Volley(firepower_dice, to_hit, storm, HitEffect.for_cover(cover, 1, tables), 1, _caps(figures))
    area = AreaTarget("infantry", name, volley, storm=storm, unit_id=target_id, figures=figures,
                      can_collapse=material == "brick_stone" and intact, building_id=building_id)
    return PhaseTarget(area, not substantial)


def rolled_cover(cover: str, linear_obstacle: bool, pinned: bool) -> str:
    """The cover a unit is rolled with, which may not be the cover it stands in.

    A wall or hedge as its only cover is the Open to fire falling from above,
    and a Pinned unit counts one level better.
    """
    if linear_obstacle:
        cover = cover_levels()[0]
    return raise_cover(cover, 1) if pinned else cover


def _caps(figures: int | None) -> tuple[int, ...]:
    """A unit's figures as the cap on its kills (its Teams take the unit's dice together)."""
    return () if figures is None else (figures,)


def _cover(name: str) -> str:
    if name not in cover_levels():
        raise RulesInputError("passengers", f"bombardment.toml gives passengers cover {name!r}, not one of "
                                            f"{', '.join(cover_levels())}")
    return name


# resolve ---------------------------------------------------------------------------------------------------


def phase_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    if p.activation == "none":
        return _contact_lost(p)
    roller = Roller(dice)
    number = p.phases_fired + 1
    centre = p.centre_now()
    log = [f"Phase of fire {number} ({p.phases_left} left on the Forward Observer's die)"]
    effects: list[Effect] = []
    update: dict[str, object] = {"state": "firing"}
    if p.activation == "coc_point":
        if p.store is None:
            log.append("Activated with a Chain of Command point")
        else:
            log.append(f"Activated with {p.store.spent_words()}")
            effects.extend(p.store.spend_point(p.side))
    elif p.activation == "coc_die":
        log.append("Activated with a Chain of Command point")
        effects.append(ChangeCocPoints(p.side, -1))
    elif p.activation == "command_die":
        log.append("Activated with a Command Dice 1")
        if p.held is not None:
            effects.append(SetHeldDice(p.side, without(p.held, 1)))
    if p.moves_now:
        moves = f"Rolling: moves {geometry.distance(p.centre, centre):g}\" {p.direction}"
        log.append(moves)
        update.update(x=centre[0], y=centre[1], moves_left=p.moves_left - 1)
        effects.extend(_event(p, "move", f"{moves} to {recorded_point(centre)}", centre, p.centre))
    if p.reveals_now:
        log.append(f"The hidden die is revealed: {describe_pattern(p.pattern_die, p.direction)}")
        update["revealed"] = True
        effects.extend(_event(p, "reveal", log[-1], centre))
    if p.doubled:
        log.append("Devastating Bombardment: double dice this Phase")

    results = [roll_target(roller, dice, t.area, data().unstable_sixes) for t in p.targets]
    unstable: list[str] = []
    for result in results:
        log.extend(result.lines)
        effects.extend(result.effects)
        building_id = result.target.building_id
        if result.unstable and building_id is not None and building_id not in unstable:
            unstable.append(building_id)
    effects.extend(SetBuildingState(building_id, "unstable") for building_id in unstable)
    out = {r.target.unit_id for r in results if r.target.figures is not None and r.kills >= r.target.figures}
    pinned = [t.area.unit_id for t in p.targets if t.pins and t.area.unit_id is not None and t.area.unit_id not in out]
    for unit_id in pinned:
        effects.append(SetCondition(unit_id, PINNED))
        if p.bombardment_id is not None:
            effects.append(SetBombardmentPin(p.bombardment_id, unit_id))
    if pinned:
        log.append(f"Pinned for the duration of the bombardment: {', '.join(_names(p, pinned))}")
    spared = [t.area.name for t in p.targets if t.area.kind == "infantry" and not t.pins]
    if spared:
        log.append(f"Not Pinned, in a substantial building: {', '.join(spared)}")

    left = p.phases_left - 1
    update.update(phases_left=left, phases_fired=number, last_fired=PhaseStamp(p.turn, p.phase))
    if p.doubled:
        update["devastating"] = False
    if left:
        log.append(f"{counted(left, 'Phases of fire')} left")
    else:
        linger = data().lingering.after_last_phase_of_fire
        log.append("The bombardment ends: the Forward Observer is removed; its effects and smoke stay until the "
                   "end of the following Phase")
        update.update(state="lingering", linger_phases=linger, observer_id="")
    effects.extend(_event(p, "fire", f"Phase of fire {number}", centre, values=_totals(results)))
    if not left:
        effects.extend(_event(p, "ended", "Out of Phases of fire: the Forward Observer is removed", centre))
        if p.observer_id is not None:
            effects.append(RemoveMarker(p.observer_id))
        effects.extend(_release_left_behind(p, log))
    if p.bombardment_id is not None:
        effects.insert(0, UpdateBombardment(p.bombardment_id, tuple(update.items())))
    values: dict[str, object] = {
        **_totals(results), "x": centre[0], "y": centre[1], "moved": p.moves_now,
        "revealed": number >= data().pattern.revealed_on_phase_of_fire,
        "phase_of_fire": number, "phases_left": left, "ended": not left, "pinned": pinned,
        "unstable_buildings": unstable, "doubled": p.doubled,
        "targets": [_target_values(r) for r in results],
    }
    if number >= data().pattern.revealed_on_phase_of_fire:
        values["pattern_die"] = p.pattern_die
    return Resolution("coc.bombardment_phase", _outcome(p, results), values, roller.rolls, effects, log)


def _names(p: PhaseInputs, ids: Iterable[str]) -> list[str]:
    by_id = {t.area.unit_id: t.area.name for t in p.targets}
    return [by_id.get(i, i) for i in ids]


def _totals(results: list[TargetResult]) -> dict[str, int]:
    buildings = {r.target.building_id for r in results if r.unstable}
    return {"kills": sum(r.kills for r in results), "shock": sum(r.shock for r in results),
            "vehicle_shock": sum(r.vehicle_shock for r in results), "unstable": len(buildings)}


def _target_values(r: TargetResult) -> dict[str, object]:
    return {"name": r.target.name, "kind": r.target.kind, "id": r.target.unit_id or r.target.building_id,
            "kills": r.kills, "shock": r.shock, "sixes": r.sixes, "vehicle_shock": r.vehicle_shock,
            "unstable": r.unstable}


def _event(p: PhaseInputs, kind: str, text: str, at: geometry.Point, origin: geometry.Point | None = None,
           values: Mapping[str, int] | None = None) -> list[Effect]:
    if p.bombardment_id is None:
        return []
    source = at if origin is None else origin
    return [AppendBombardmentEvent(p.bombardment_id, BombardmentEvent(p.turn, p.phase, kind, text, at[0], at[1],
                                                                      source[0], source[1], dict(values or {})))]


def _release_left_behind(p: PhaseInputs, log: list[str]) -> list[Effect]:
    """The bombardment has ended: units it left behind when it moved are Pinned no longer.

    "That Unit remains Pinned until all Shock is rallied from it or the
    Bombardment ends, whichever occurs first."
    """
    if not p.left_behind:
        return []
    log.append(f"The bombardment has ended: {counted(len(p.left_behind), 'units')} it left behind when it moved are no "
               "longer Pinned")
    effects: list[Effect] = []
    for unit_id in p.left_behind:
        effects.append(SetCondition(unit_id, PINNED, False))
        if p.bombardment_id is not None:
            effects.append(SetBombardmentPin(p.bombardment_id, unit_id, False))
    return effects


def _contact_lost(p: PhaseInputs) -> Resolution:
    linger = data().lingering.after_contact_lost
    log = ["No Command Dice 1 and no Chain of Command point: the bombardment ends, contact with the mortars lost",
           "The Forward Observer is removed; the bombardment's effects end with this Phase"]
    effects: list[Effect] = []
    if p.bombardment_id is not None:
        effects.append(UpdateBombardment(p.bombardment_id, (("state", "lingering"), ("linger_phases", linger),
                                                            ("observer_id", ""))))
        effects.extend(_event(p, "contact_lost", log[0], p.centre))
    if p.observer_id is not None:
        effects.append(RemoveMarker(p.observer_id))
    effects.extend(_release_left_behind(p, log))
    return Resolution("coc.bombardment_phase", "contact_lost",
                      {"phases_left": p.phases_left, "ended": True, "x": p.centre[0], "y": p.centre[1]},
                      [], effects, log)


# exact odds --------------------------------------------------------------------------------------------------


def _outcome(p: PhaseInputs, results: list[TargetResult]) -> str:
    totals = _totals(results)
    return _key(p.kind, _shows(p.targets), totals["kills"], totals["unstable"])


def _shows(targets: tuple[PhaseTarget, ...]) -> bool:
    """Whether the key reports unstable buildings (brick or stone ones in the area)."""
    return any(t.area.can_collapse for t in targets)


def _key(kind: str, shows: bool, kills: int, unstable: int) -> str:
    if kind == "smoke":
        return "smoke"
    return f"kills={kills} unstable={unstable}" if shows else f"kills={kills}"


@lru_cache(maxsize=256)
def _odds(kind: str, lost: bool, targets: tuple[PhaseTarget, ...]) -> Distribution[str]:
    if lost:
        return Distribution.certain("contact_lost")
    if kind == "smoke":
        return Distribution.certain("smoke")
    shows = _shows(targets)
    totals = area_kills_unstable([t.area for t in targets], data().unstable_sixes)
    return totals.map(lambda c: _key(kind, shows, c[0], c[1]))


def phase_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    targets = tuple(PhaseTarget(replace(t.area.for_odds(), building_id=t.area.building_id), False)
                    for t in p.targets)
    return _odds(p.kind, p.activation == "none", targets)


def target_chances(inputs: Inputs) -> list[tuple[str, tuple[tuple[str, Fraction], ...]]]:
    """Each target's exact chances this Phase, by name, for the panel's per-unit list: of at least one kill
    (`kills`: infantry and passengers), of Shock on its vehicle (`vehicle_shock`: vehicles and passengers), of
    its brick or stone building made unstable (`unstable`); nothing for a unit the fire cannot harm.

    Only these chances, not each unit's whole (kills, Shock, vehicle Shock)
    odds: with Storm of Steel at its most, a lorry's passengers alone would
    have most of a million outcomes and the dialog would freeze for a minute.
    """
    p = _parse(inputs)
    return [(t.area.name, unit_chances(t.area.for_odds(), data().unstable_sixes)) for t in p.targets]


_BOMBARDMENT: dict[str, InputValue] = {"activation": "command_die", "x": 20.0, "y": 20.0, "phases_left": 3,
                                       "phases_fired": 1, "pattern_die": 2, "firepower_dice": 6, "to_hit": 4}
_SECTION: dict[str, InputValue] = {"kind": "infantry", "id": "u1", "name": "1 Section", "figures": 8, "cover": "open"}
# The largest: ten targets under a devastating bombardment's first Phase (its Firepower Dice doubled): Sections in
# every cover, passengers in a lorry, tanks (one open-topped), units in a brick building, an empty building.
_TEN_TARGETS: list[dict[str, InputValue]] = [
    {**_SECTION, "id": "s1", "name": "1 Section", "figures": 10},
    {**_SECTION, "id": "s2", "name": "2 Section", "figures": 10, "cover": "light"},
    {**_SECTION, "id": "s3", "name": "3 Section", "figures": 9, "cover": "hard"},
    {**_SECTION, "id": "mg", "name": "MG team", "figures": 5},
    {"kind": "passengers", "id": "p1", "name": "Passengers", "figures": 10, "vehicle_id": "lorry"},
    {"kind": "vehicle", "id": "t1", "name": "Panzer IV"},
    {"kind": "vehicle", "id": "t2", "name": "Sd.Kfz. 251", "open_topped": True},
    {**_SECTION, "id": "s4", "name": "HQ", "figures": 4, "cover": "hard", "building": "brick_stone",
     "storeys": 2},
    {"kind": "building", "id": "bld", "name": "Church", "building": "brick_stone"},
    {**_SECTION, "id": "s5", "name": "Sniper", "figures": 2, "cover": "light"},
]
register(Procedure("coc.bombardment_phase", "Bombardment: Phase of fire", phase_resolve, phase_odds,
                   ruleset=RULESET, settings=SETTINGS, better=counts("kills"), rolled_by=("side",),
                   typical={**_BOMBARDMENT, **numbered("target", "targets", [
                       _SECTION, {**_SECTION, "id": "u2", "name": "2 Section", "cover": "hard"}])},
                   largest={**_BOMBARDMENT, "phases_fired": 0, "state": "ready", "activation": "begun",
                            "devastating": True, **numbered("target", "targets", _TEN_TARGETS)},
                   worst_best=("kills=0", "kills=16")))


# the inputs from the table -------------------------------------------------------------------------------------


def phase_inputs(game: Game, bombardment_id: str, activation: str | None = None, *, spend_coc_point: bool = False,
                 covers: Mapping[str, str] | None = None, linear_obstacles: Iterable[str] = (),
                 exclude: Iterable[str] = ()) -> dict[str, InputValue]:
    """The inputs of `coc.bombardment_phase` for this bombardment's Phase of fire now.

    Without an `activation` it is what the side holds (`activation_now`): a
    held Command Dice 1 first, else a Chain of Command point when the player
    chooses to spend one (`spend_coc_point`), else none and contact is lost.

    The targets are the units in the area where this Phase's fire falls (after
    a rolling bombardment's move), in roster order, then the empty brick or
    stone buildings there. `covers` gives the player's cover for a unit (else
    `bombardment_cover`: its card's, else the table's), `linear_obstacles`
    the units whose only cover is a wall or hedge, and `exclude` the units the
    player leaves out.
    """
    b = get_bombardment(game, bombardment_id)
    if b.state not in PHASE_STATES:
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} is {b.state}; only a bombardment "
                                                "that has begun has Phases of fire")
    wait = waiting(game, b)
    if wait is not None:
        raise SequenceRefusal("bombardment_id", wait.sentence)
    if activation is None:
        activation = activation_now(game, b, spend_coc_point)
    elif activation == "coc_point":
        store = coc_store(game, b.side)
        if not store.can_spend_point:
            raise SequenceRefusal("activation", f"{store.none_words(game.sides[b.side].name)} to spend.")
    inputs: dict[str, InputValue] = {
        "kind": b.kind, "state": b.state, "activation": activation, "side": b.side,
        "active_side": game.active_side, **last_inputs("last_fire", b.last_fired),
        **store_inputs(game, b.side), "bombardment_id": b.id, "turn": game.turn,
        "phase": game.phase, "x": b.x, "y": b.y, "phases_left": b.phases_left, "phases_fired": b.phases_fired,
        "devastating": b.devastating, "moves_left": b.moves_left, "firepower_dice": b.firepower_dice,
        "to_hit": b.to_hit,
    }
    if rolled_this_phase(game, b.side):
        inputs.update(command_dice_rolled=True, held=held_input(game.sides[b.side].held_dice))
    if b.observer_id:
        inputs["observer_id"] = b.observer_id
    left_behind = _left_behind(game, b)
    if left_behind:
        inputs["left_behind"] = ",".join(left_behind)
    if b.pattern_die is not None:
        inputs["pattern_die"] = b.pattern_die
    if b.direction is not None:
        inputs["direction"] = b.direction
    for key in SETTINGS:
        if key in game.settings:
            inputs[key] = game.settings[key]
    if b.kind != "high_explosive" or activation == "none":
        return inputs
    skip = set(exclude)
    targets = _targets(game, b, covers or {}, set(linear_obstacles), skip)
    inputs["targets"] = len(targets)
    for i, fields in enumerate(targets, start=1):
        inputs.update({f"target{i}_{k}": v for k, v in fields.items()})
    return inputs


def _left_behind(game: Game, b: Bombardment) -> list[str]:
    """Units this bombardment Pinned that its area (after this Phase's move) has left, held by no other."""
    inside = set(units_in_area(game, b, next_centre(b)))
    held = {u for other in game.bombardments.values() if other.id != b.id and other.active for u in other.pinned}
    return [u for u in b.pinned if u in game.units and u not in inside and u not in held]


def activation_now(game: Game, b: Bombardment, spend_coc_point: bool) -> str:
    """How the bombardment is activated this Phase from what its side holds (see `phase_inputs`).

    Before the side's Command Dice are rolled this Phase a held 1 is not known:
    only a Chain of Command point can be spent, else the roll comes first.
    """
    if b.state == "ready":
        return "begun"
    side = game.sides[b.side]
    rolled = rolled_this_phase(game, b.side)
    if rolled and 1 in side.held_dice:
        return "command_die"
    if spend_coc_point:
        store = coc_store(game, b.side)
        if not store.can_spend_point:
            raise SequenceRefusal("activation", f"{store.none_words(side.name)} to spend.")
        return "coc_point"
    if not rolled:
        raise SequenceRefusal("activation", f"Roll {possessive(side.name)} Command Dice for this Phase first: the "
                                            "bombardment is activated with a held 1 or a Chain of Command point.")
    return "none"


def bombardment_cover(index: TableIndex, unit: Unit) -> CoverReading:
    """A unit's cover against a Bombardment or SOS Fire: its card's `cover`, else the table's.

    "A Bombardment does not reduce the target's cover in Area Terrain.
    Linear obstacles do not give any cover to Units adjacent to them." (and
    the same of SOS Fire, 000): the area terrain or building the unit stands
    in keeps its cover (terrain.toml's levels, defaults to check), and no
    wall, hedge or bocage counts, whichever side the unit is on.
    """
    stated = unit.stats.get("cover")
    if isinstance(stated, str) and stated in cover_levels():
        return CoverReading(stated, f"{stated.capitalize()} cover: on {unit.name}'s card")
    reading = index.cover_against(None, unit, linear=False)
    if reading.source is None:
        return CoverReading(reading.level, "In the open (a wall or hedge gives no cover from above)")
    return reading


def _targets(game: Game, b: Bombardment, covers: Mapping[str, str], linear: set[str],
             skip: set[str]) -> list[dict[str, InputValue]]:
    centre = next_centre(b)
    index = TableIndex(game)
    out: list[dict[str, InputValue]] = []
    for unit_id in units_in_area(game, b, centre):
        if unit_id in skip:
            continue
        fields = _unit_target(game, game.units[unit_id], {unit_id: bombardment_cover(index, game.units[unit_id]).level,
                                                          **covers}, linear)
        if fields is not None:
            out.append(fields)
    for building in game.buildings.values():
        if (building.id not in skip and building.state == "intact" and building.material == "brick_stone"
                and not any(u in game.units for u in building.occupants) and b.contains(building.centre, centre)):
            out.append({"kind": "building", "name": building.name, "id": building.id, "building": "brick_stone"})
    return out


def _unit_target(game: Game, unit: Unit, covers: Mapping[str, str],
                 linear: set[str]) -> dict[str, InputValue] | None:
    """One unit as a target, or None for units the rules leave alone (Transports, APC passengers)."""
    team_fields: dict[str, InputValue] = {"teams": unit_teams(unit)} if "teams" in unit.stats else {}
    if unit.vehicle is not None and not is_transport(unit):
        return {"kind": "vehicle", "name": unit.name, "id": unit.id, "open_topped": unit.vehicle.open_topped,
                "vehicle_current_shock": unit.shock,
                "vehicle_immobilised": later_shock_doubled(unit.vehicle.category, unit.vehicle.damage)}
    if is_transport(unit):
        return None
    carrier = carrier_of(game, unit)
    if carrier is not None:
        if not is_transport(carrier):
            return None
        doubled = carrier.vehicle is not None and later_shock_doubled(carrier.vehicle.category,
                                                                      carrier.vehicle.damage)
        if unit.figures == 0:
            return None
        return {"kind": "passengers", "name": unit.name, "id": unit.id, "figures": unit.figures,
                "vehicle_id": carrier.id, "vehicle_current_shock": carrier.shock,
                "vehicle_immobilised": doubled, **team_fields}
    if unit.figures == 0:
        return None
    cover = covers.get(unit.id, "open")
    fields: dict[str, InputValue] = {"kind": "infantry", "name": unit.name, "id": unit.id, "figures": unit.figures,
                                     "cover": cover, "linear_obstacle": unit.id in linear,
                                     "pinned": unit.has(PINNED), **team_fields}
    building = building_of(game, unit.id)
    if building is not None:
        fields.update(building=building.material, storeys=building.storeys, building_id=building.id,
                      building_intact=building.state == "intact")
    return fields
