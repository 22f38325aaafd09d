"""Anti-tank fire and anti-tank grenades read from the table: who can fire, at what, with which inputs.

The procedures (`coc.at_fire`, `coc.at_grenade`) take plain numbers; this
module reads them from the game so that no dialog has to: the range and its
band, the face struck (the firer's position against the target's facing) and
its Armour Dice, the weapon's A.P. Strike Dice, the rounds left, the firer's
Shock and damage, the target's Shock and Immobilised, and the arc of fire
with a rotated turret. A plan function takes the Game and the player's
choices (a plain mapping: `firer`, `target`, `weapon`, `location`,
`turret_rotated`, `visibility`, the adjustments the map cannot see, and for a
grenade `distance`; for a round of A.P. also `sight` and `sight_reason`, the
player's word over the map's Line of Sight, and `visibility_reason`) and
returns a `ShotPlan`: the procedure to resolve, its inputs and the sentences
a dialog shows. When the table forbids the shot it
raises `ShotRefusal`, whose text is a sentence for the player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from battletracker.core.geometry import angle_between
from battletracker.core.geometry import aspect
from battletracker.core.geometry import bearing
from battletracker.core.geometry import distance
from battletracker.core.geometry import in_arc
from battletracker.core.geometry import range_band
from battletracker.core.odds import Distribution
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.actions import with_game_settings
from battletracker.rules.base import InputValue
from battletracker.rules.base import Refusal
from battletracker.rules.base import RulesInputError
from battletracker.rules.chain_of_command.anti_tank import GRENADE_MOVEMENT_SETTING
from battletracker.rules.chain_of_command.anti_tank import VISIBILITIES
from battletracker.rules.chain_of_command.anti_tank import VISIBILITY_TEXT
from battletracker.rules.chain_of_command.anti_tank import parse_at_fire
from battletracker.rules.chain_of_command.anti_tank import parse_at_grenade
from battletracker.rules.chain_of_command.arsenal import arsenal
from battletracker.rules.chain_of_command.damage import GROUP_LABELS
from battletracker.rules.chain_of_command.damage import GROUP_MEANINGS
from battletracker.rules.chain_of_command.damage import GROUP_ORDER
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.damage import outcome_group
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.choices import Choices
from battletracker.rules.choices import Reach
from battletracker.rules.choices import check_within
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_number
from battletracker.rules.choices import chosen_text
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.places import enemies_within
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.tables import setting
from battletracker.rules.targets import centre_to_centre
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import sight_override

RULESET = "chain_of_command"
AT_FIRE = "coc.at_fire"
AT_GRENADE = "coc.at_grenade"
AT_KINDS = ("infantry_at", "at_gun", "tank_gun")
FACE_NAMES = {"front": "Front", "side": "Side", "rear": "Rear", "top": "Top"}
# The map cannot know these: the player ticks them. The firer's Shock, optics
# and engine damage and the range bands come from the table instead.
CHECKED_ADJUSTMENTS = (
    "target_moved_flat_out",
    "firer_moved",
    "turret_rotated",
    "target_low_profile",
    "target_small",
    "under_suppressing_fire",
    "two_orders",
    "hit_last_round_stationary",
)



class ShotRefusal(Refusal):
    """A shot the table forbids; its text is the whole sentence a player reads, `field` the choice at fault."""


@dataclass(frozen=True)
class ShotPlan:
    """One shot read from the table: what to resolve, with which inputs, and the sentences shown before it.

    The last fact is the reading of the dice: what the roll needs.
    """

    procedure: str
    inputs: Mapping[str, InputValue]
    facts: tuple[str, ...]
    log: tuple[str, ...] = ()
    """Lines the log adds after the roll's: a player's override of what the table reads."""

    @property
    def reading(self) -> str:
        return self.facts[-1]


# -- who fires, at whom --------------------------------------------------------------------------------------------

def is_at_weapon(weapon: Weapon) -> bool:
    """A weapon that fires A.P.: an anti-tank kind, or any weapon with A.P. on its card."""
    ap = weapon.stats.get("ap", 0)
    return weapon.kind in AT_KINDS or (isinstance(ap, int | float) and not isinstance(ap, bool) and ap > 0)


def at_weapons(unit: Unit) -> list[tuple[int, Weapon]]:
    """The unit's weapons that fire A.P., with their index on the card."""
    return [(i, w) for i, w in enumerate(unit.weapons) if is_at_weapon(w)]


def has_at_weapon(_game: Game, unit: Unit) -> bool:
    return bool(at_weapons(unit))


def _is_vehicle(unit: Unit) -> bool:
    return unit.is_vehicle


def enemy_vehicles(game: Game, firer: Unit) -> list[Unit]:
    """Enemy AFVs and APCs, nearest first."""
    found = [u for u in game.units.values() if u.side != firer.side and u.vehicle is not None and u.in_play]
    return sorted(found, key=lambda u: centre_to_centre(firer, u))


def infantry_near(game: Game, centre: tuple[float, float], radius: float, exclude: str) -> list[Unit]:
    """Teams on foot within `radius` of the point: who takes hits when a vehicle explodes."""
    return [u for u in game.units.values()
            if u.id != exclude and u.vehicle is None and u.in_play and distance(centre, (u.x, u.y)) <= radius + 1e-9]


def grenade_reach(game: Game) -> float:
    """The furthest a figure can run at a vehicle: every movement die a 6."""
    value = game.settings.get(GRENADE_MOVEMENT_SETTING)
    if not isinstance(value, int) or isinstance(value, bool):
        value = next((s.default for s in ruleset_settings(RULESET) if s.key == GRENADE_MOVEMENT_SETTING), 2)
    assert isinstance(value, int)
    return 6.0 * value


def vehicles_in_reach(game: Game, unit: Unit) -> list[Unit]:
    """Enemy vehicles a figure of the unit could run to, nearest first."""
    return enemies_within(game, unit, grenade_reach(game), _is_vehicle)


def map_run(unit: Unit, target: Unit) -> float:
    """The run at `target` as the map gives it, centre to centre to a tenth of an inch.

    Where the player's measure starts: the rules run from the nearest figure, which only the table shows.
    """
    return round(centre_to_centre(unit, target), 1)


def can_throw_grenade(game: Game, unit: Unit) -> bool:
    """Infantry on foot with an enemy AFV or APC its figures could run to."""
    return unit.vehicle is None and unit.figures > 0 and bool(vehicles_in_reach(game, unit))


# -- how the odds read -----------------------------------------------------------------------------------------------

def group_label(outcome: str) -> str:
    """What the odds show an outcome under, with what it means: miss, no effect, equal, +1, +2, +3."""
    group = outcome_group(outcome)
    return GROUP_MEANINGS.get(group) or GROUP_LABELS.get(group, group)


def group_rank(outcome: str) -> int:
    """Where an outcome's group comes in reading order: miss first, +3 last."""
    group = outcome_group(outcome)
    return GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)


def in_group_order(dist: Distribution[str]) -> Distribution[str]:
    """The same odds with the outcomes in reading order: miss first, +3 last."""
    return Distribution(sorted(dist.items(), key=lambda item: group_rank(item[0])))


# -- reading the choices ---------------------------------------------------------------------------------------------

def _damaged(unit: Unit, result: str) -> bool:
    return unit.vehicle is not None and result in unit.vehicle.damage


def _enemy_vehicle(game: Game, firer: Unit, choices: Choices, what: str) -> Unit:
    target = chosen_unit(game, choices, "target", "enemy vehicle to " + what, in_play=True, refusal=ShotRefusal)
    if target.vehicle is None or target.side == firer.side:
        raise ShotRefusal("target", f"{target.name} is not an enemy AFV or APC: {what} needs a vehicle target.")
    check_bombardment(game, firer, target)
    return target


def check_bombardment(game: Game, firer: Unit, target: Unit) -> None:
    """Refuse a shot into or out of a bombardment's area, whatever Line of Sight the player gives.

    "Leaders and Units inside the Bombardment area cannot fire or be fired at
    by any other Units" (000). SOS Fire does not do this: units fire into,
    through or out of it.
    """
    from battletracker.rules.chain_of_command.bombardment import covering
    from battletracker.rules.chain_of_command.bombardment import observer_name
    from battletracker.rules.sequence import activation_kept

    if not activation_kept():
        return
    for field, unit, verb in (("firer", firer, "fire"), ("target", target, "be fired at")):
        b = covering(game, unit.id)
        if b is not None:
            raise ShotRefusal(field, f"{unit.name} is under {observer_name(game, b)}: units in a bombardment area "
                                     f"cannot {verb}, whatever the Line of Sight.")


def _sentence(exc: RulesInputError | TableError) -> str:
    """A procedure's refusal as a sentence: without the input's name, capitalised, with its full stop."""
    text = str(exc)
    if isinstance(exc, RulesInputError) and not isinstance(exc, ShotRefusal):
        text = text.removeprefix(f"{exc.field}: ")
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _weapon(firer: Unit, choices: Choices) -> tuple[int, Weapon]:
    name = choices.get("weapon")
    found = at_weapons(firer)
    if not found:
        raise ShotRefusal("weapon", f"{firer.name} has no weapon that fires A.P.")
    if name is None or name == "":
        return found[0]
    for index, weapon in found:
        if weapon.name == name:
            return index, weapon
    raise ShotRefusal("weapon", f"{firer.name} carries no anti-tank weapon called {name}.")


def _inches(value: float) -> str:
    return f"{value:.1f}\""


# -- coc.at_fire -----------------------------------------------------------------------------------------------------

def plan_at_fire(game: Game, choices: Choices) -> ShotPlan:
    """Read the table for one A.P. round from the firer's weapon at an enemy vehicle.

    `location` (a face) overrides the face the facings give; `turret_rotated`
    lets a tank gun fire outside its arc; the adjustments the map cannot see
    are the player's. The firer needs Line of Sight on the map (else the
    player's `sight`, logged); `visibility` starts at the target's cover on
    the map (`map_visibility`), the player's different one logged with
    `visibility_reason`. Raises ShotRefusal with the reason when the shot
    cannot be taken.
    """
    firer = chosen_unit(game, choices, "firer", "firing unit", in_play=True, refusal=ShotRefusal)
    target = _enemy_vehicle(game, firer, choices, "anti-tank fire")
    vehicle = target.vehicle
    assert vehicle is not None
    weapon_index, weapon = _weapon(firer, choices)
    here, there = (firer.x, firer.y), (target.x, target.y)
    rng = distance(here, there)
    derived_face = aspect(here, there, target.facing)
    chosen_face = choices.get("location")
    if chosen_face in (None, ""):
        face = derived_face
    elif isinstance(chosen_face, str) and chosen_face in FACE_NAMES:
        face = chosen_face
    else:
        raise ShotRefusal("location", f"Choose the hit location: {', '.join(FACE_NAMES.values())}.")
    log: list[str] = []
    seen = TableIndex(game).sight(firer, target)
    seen_fact = ""
    if not seen.clear:
        if not chosen_flag(choices, "sight", what="Line of Sight", refusal=ShotRefusal):
            raise ShotRefusal("sight", f"{seen.reason}. If {firer.name} can see {target.name} on the real table, "
                                       "tick Line of Sight to fire anyway.")
        seen_fact = sight_override(seen, chosen_text(choices, "sight_reason"))
        log.append(seen_fact)
    mapped, why = map_visibility(game, firer, target)
    visibility = choices.get("visibility") or mapped
    if visibility not in VISIBILITIES:
        raise ShotRefusal("visibility", "Choose how well the firer sees the target.")
    if visibility == mapped:
        seen_fact = seen_fact or (why if mapped != "open" else "")
    else:
        reason = chosen_text(choices, "visibility_reason")
        said = f"player: '{reason}'" if reason else "player"
        text = VISIBILITY_TEXT[str(visibility)]
        log.append(f"{text[0].upper()}{text[1:]} ({said}; the map: {why})")
    turret_rotated = chosen_flag(choices, "turret_rotated", refusal=ShotRefusal)
    inputs: dict[str, InputValue] = {
        "location": face,
        "armour_dice": vehicle.armour.get(face, 0),
        "target": vehicle.category,
        "target_shock": target.shock,
        "target_immobilised": _damaged(target, "immobilised"),
        "target_id": target.id,
        "firer_shock": firer.shock,
        "optics_damaged": _damaged(firer, "optics_damaged"),
        "firer_engine_damage": _damaged(firer, "engine_damage"),
        "firer_id": firer.id,
        "weapon_index": weapon_index,
        "visibility": str(visibility),
    }
    for key in CHECKED_ADJUSTMENTS:
        if chosen_flag(choices, key, refusal=ShotRefusal):
            inputs[key] = True
    facts = [_range_fact(firer, weapon, target, rng, inputs)]
    facts.append(_arc_fact(firer, weapon, target, turret_rotated))
    facts.extend(line for line in (seen_fact, *log) if line)
    face_note = "" if face == derived_face else f" (chosen; the facings give {FACE_NAMES[derived_face].lower()})"
    facts.append(f"{FACE_NAMES[face]} armour{face_note}: {inputs['armour_dice']} Armour Dice")
    facts.append(f"Target {target.name}: {vehicle.category.upper()}, Shock {target.shock}"
                 + (", immobilised" if inputs["target_immobilised"] else "")
                 + (" (later Shock doubled)" if later_shock_doubled(vehicle.category, vehicle.damage) else ""))
    facts.append(f"Firer {firer.name}: Shock {firer.shock}"
                 + (", optics damaged" if inputs["optics_damaged"] else "")
                 + (", engine damage" if inputs["firer_engine_damage"] else ""))
    if weapon.ammo is not None:
        facts.append(f"Rounds left: {weapon.ammo} on the card")
    inputs = with_game_settings(game, AT_FIRE, inputs)
    try:
        parsed = parse_at_fire(inputs)
    except (RulesInputError, TableError) as exc:
        raise ShotRefusal(getattr(exc, "field", "weapon"), _sentence(exc)) from exc
    adjusted = ", ".join(f"{text} {m:+d}" for text, m in parsed.applied) or "no adjustments"
    facts.append(f"To hit: {parsed.to_hit_needed}+ on 2D6, modifier {parsed.modifier:+d} ({adjusted}); "
                 f"{parsed.strike_dice} A.P. Strike Dice penetrating on {parsed.penetration_target}+ against "
                 f"{parsed.armour_dice} Armour Dice saving on {parsed.save_target}+")
    return ShotPlan(AT_FIRE, inputs, tuple(dict.fromkeys(facts)), tuple(log))


def map_visibility(game: Game, firer: Unit, target: Unit) -> tuple[str, str]:
    """The visibility the target's cover against the firer gives on the map, and why.

    terrain.toml's [anti_tank].visibility maps each cover level to one of
    VISIBILITIES (a default to check: the to-hit table's obscured views are
    "approximately 1/3 cover" and "approximately 2/3 cover").
    """
    reading = TableIndex(game).cover_against(firer, target)
    table = ruleset_file(RULESET, "terrain").table("anti_tank").table("visibility")
    visibility = table.str(reading.level, VISIBILITIES)
    return visibility, f"{reading.reason}: {VISIBILITY_TEXT[visibility]}" if reading.source else reading.reason


def _range_fact(firer: Unit, weapon: Weapon, target: Unit, rng: float, inputs: dict[str, InputValue]) -> str:
    """The range and what it gives the weapon; fills the weapon's inputs, refuses a target out of range."""
    entry = arsenal().weapon(weapon.name)
    if entry is not None:
        inputs["weapon"] = entry.name
        if entry.limited and weapon.ammo is not None:
            inputs["rounds_left"] = weapon.ammo
        if entry.close_range_only:
            return f"Range {_inches(rng)}: the whole table is Close Range for the {entry.name}, " \
                   f"A.P. {entry.strike_dice(0)}"
        inputs["range"] = round(rng, 2)
        band = entry.band(rng)
        if band is None:
            raise ShotRefusal("target", f"{target.name} is {_inches(rng)} away: the {entry.name} cannot fire "
                                        f"beyond {entry.bands[-1]:g}\" ({entry.describe_bands()}).")
        return (f"Range {_inches(rng)}: band {band + 1} of {entry.describe_bands()}, "
                f"A.P. {entry.strike_dice(band)} (the {entry.name} from the arsenal)")
    ap = weapon.stats.get("ap", 0)
    strike = int(ap) if isinstance(ap, int | float) and not isinstance(ap, bool) else 0
    inputs["strike_dice"] = strike
    if weapon.ammo is not None:
        inputs["rounds_left"] = weapon.ammo
    extra = 0
    if weapon.kind == "infantry_at" and weapon.ranges:
        found = range_band(rng, weapon.ranges)
        if found is None:
            raise ShotRefusal("target", f"{target.name} is {_inches(rng)} away: the {weapon.name} cannot fire "
                                        f"beyond {weapon.ranges[-1]:g}\".")
        extra = found
    inputs["extra_range_bands"] = extra
    past = f", {extra} range band{'s' if extra != 1 else ''} past the first" if extra else ""
    return f"Range {_inches(rng)}: A.P. {strike} from {firer.name}'s card{past}"


def _arc_fact(firer: Unit, weapon: Weapon, target: Unit, turret_rotated: bool) -> str:
    """Where the target lies against the weapon's arc; refuses one outside it unless the turret swings round."""
    here, there = (firer.x, firer.y), (target.x, target.y)
    off = round(angle_between(bearing(here, there), firer.facing))
    if weapon.arc is None or weapon.arc >= 180.0:
        return f"Target in the arc: the {weapon.name} fires all round"
    if in_arc(here, firer.facing, weapon.arc, there):
        return f"Target in the arc, {off}° off the barrel"
    arc = f"the arc is {weapon.arc:g}° either side"
    if weapon.kind == "tank_gun" and turret_rotated:
        return f"Target {off}° off the barrel, outside the arc ({arc}): the turret rotated"
    hint = (" Tick \"Firer rotated turret out of Arc of Fire\" if the turret swings round."
            if weapon.kind == "tank_gun" else "")
    raise ShotRefusal("target", f"{target.name} is {off}° off the barrel of {firer.name}'s {weapon.name}, "
                                f"outside the arc of fire ({arc}): the shot cannot be taken.{hint}")


# -- coc.at_grenade --------------------------------------------------------------------------------------------------

def plan_at_grenade(game: Game, choices: Choices) -> ShotPlan:
    """Read the table for a figure running at a vehicle with an anti-tank grenade or charge.

    `weapon` names the grenade; `distance` overrides the run (the map gives
    centre to centre; the player measures from the nearest figure).

    No Line of Sight is read, unlike anti-tank fire: the grenade or charge is
    not fired from afar but placed by a figure that "must move into contact
    with the armoured vehicle"; the movement roll decides whether it gets
    there, and "If the vehicle is contacted, the attack is made successfully"
    (001). What stands between the Team and the vehicle changes nothing but
    the run the player measures.
    """
    unit = chosen_unit(game, choices, "firer", "Team throwing the grenade", in_play=True, refusal=ShotRefusal)
    if unit.vehicle is not None or unit.figures <= 0:
        raise ShotRefusal("firer", f"{unit.name} has no figure on foot to run at a vehicle.")
    target = _enemy_vehicle(game, unit, choices, "an anti-tank grenade")
    vehicle = target.vehicle
    assert vehicle is not None
    centre = centre_to_centre(unit, target)
    reach = grenade_reach(game)
    check_within(target, Reach(unit, reach, f'a figure runs at most {reach:g}"'), "target", ShotRefusal)
    grenade = choices.get("weapon")
    if not isinstance(grenade, str) or arsenal().grenade(grenade) is None:
        raise ShotRefusal("weapon", "Choose the grenade or charge from the arsenal.")
    run = chosen_number(choices, "distance", "The distance to run", map_run(unit, target), minimum=0, measure="inches",
                        refusal=ShotRefusal)
    inputs: dict[str, InputValue] = {
        "weapon": grenade,
        "armour_dice": vehicle.armour.get("top", 0),
        "target": vehicle.category,
        "distance": float(run),
        "target_shock": target.shock,
        "target_immobilised": _damaged(target, "immobilised"),
        "target_id": target.id,
    }
    inputs = with_game_settings(game, AT_GRENADE, inputs)
    try:
        parsed = parse_at_grenade(inputs)
    except (RulesInputError, TableError) as exc:
        raise ShotRefusal(getattr(exc, "field", "weapon"), _sentence(exc)) from exc
    measured = "" if abs(float(run) - centre) < 0.05 else f" (the map gives {_inches(centre)} centre to centre)"
    facts = (
        f"Run {_inches(float(run))}{measured} on {parsed.movement_dice}D6",
        f"Top armour: {parsed.armour_dice} Armour Dice",
        f"Target {target.name}: {vehicle.category.upper()}, Shock {target.shock}"
        + (", immobilised" if inputs["target_immobilised"] else ""),
        f"The {parsed.weapon}: {parsed.strike_dice} A.P. Strike Dice penetrating on {parsed.penetration_target}+ "
        f"against {parsed.armour_dice} Armour Dice saving on {parsed.save_target}+",
    )
    return ShotPlan(AT_GRENADE, inputs, facts)



# -- coc.grenade_into_vehicle ----------------------------------------------------------------------------------------
# The documents say the grenade is tossed into the vehicle but give no
# distance: 6" (centre to centre on the map) keeps the action to Teams close
# enough to throw, and the player judges the last inch at the table. The
# card decides how the grenade works: into an open-topped vehicle or a
# Transport (`open_topped`: hits on the passengers, Shock from 6s), or
# against an APC from outside (`apc_outside`: the Armour Dice of the face the
# Team sees). A closed AFV that is no APC is the anti-tank grenade's work.

GRENADE_INTO_VEHICLE = "coc.grenade_into_vehicle"
THROW_REACH = 6.0
THROW_SETTING = "grenade_throw_to_hit"
THROWS = ("roll", "in", "bullseye", "missed")
IMMOBILISED = "immobilised"


def vehicles_in_throw(game: Game, unit: Unit) -> list[Unit]:
    """Enemy vehicles within THROW_REACH of the Team, nearest first."""
    return enemies_within(game, unit, THROW_REACH, _is_vehicle)


def can_throw_into_vehicle(game: Game, unit: Unit) -> bool:
    return unit.vehicle is None and unit.figures > 0 and bool(vehicles_in_throw(game, unit))


def grenade_modes(vehicle: Unit) -> list[str]:
    """How a grenade can hurt this vehicle, read from its card."""
    card = vehicle.vehicle
    if card is None:
        return []
    modes = []
    if card.open_topped or vehicle.stats.get("transport") is True:
        modes.append("open_topped")
    if card.category == "apc":
        modes.append("apc_outside")
    return modes


def passengers_of(game: Game, vehicle: Unit) -> list[Unit]:
    """Teams carried by the vehicle (`stats["embarked_in"]`), as the bombardment rules read them."""
    return [u for u in game.units.values()
            if u.stats.get("embarked_in") == vehicle.id and u.vehicle is None and u.in_play]


def throw_to_hit(game: Game) -> int:
    """The 2D6 score a throw needs: the ruleset setting, or the game's override of it."""
    value = setting(RULESET, THROW_SETTING, game.settings)
    assert isinstance(value, int)
    return value


def throw_inputs(game: Game, choices: Choices) -> dict[str, InputValue]:
    """A grenade throw's inputs from the choices `throw` (roll, in, bullseye, missed) and `to_hit`.

    Rolled, the throw needs the ruleset's score (or the one the player gives); told, the player says where it
    landed, a Bullseye! being one 6.
    """
    throw = choices.get("throw", "roll")
    if throw not in THROWS:
        raise ShotRefusal("throw", "Say whether to roll the throw, or where it landed.")
    inputs: dict[str, InputValue] = {
        THROW_SETTING: chosen_whole(choices, "to_hit", "The score the throw needs", throw_to_hit(game), minimum=0,
                                    refusal=ShotRefusal)}
    if throw != "roll":
        inputs["throw_hit"] = throw != "missed"
        if throw == "bullseye":
            inputs["bullseye_dice"] = 1
    return inputs


def face_seen(team: Unit, vehicle: Unit) -> tuple[str, int]:
    """The face of the vehicle the Team is beside, and its Armour Dice."""
    assert vehicle.vehicle is not None
    face = aspect((team.x, team.y), (vehicle.x, vehicle.y), vehicle.facing)
    return face, vehicle.vehicle.armour.get(face, 0)


def _quality(unit: Unit) -> str:
    quality = unit.stats.get("quality")
    return quality if isinstance(quality, str) and quality in QUALITIES else "regular"


def plan_grenade_into_vehicle(game: Game, choices: Choices) -> ShotPlan:
    """Read the table for a grenade tossed into (or at) an enemy vehicle beside the Team.

    Choices: `firer` (the Team), `target` (the vehicle), `mode` (default the
    first the card allows), `firepower_dice`, `throw` (roll, in, bullseye,
    missed), `to_hit` (default the ruleset setting), and for an APC from
    outside `armour_dice` (default the face the Team sees).
    """
    team = chosen_unit(game, choices, "firer", "Team throwing the grenade", in_play=True, refusal=ShotRefusal)
    if team.vehicle is not None or team.figures <= 0:
        raise ShotRefusal("firer", f"{team.name} has no figure on foot to throw a grenade.")
    vehicle = _enemy_vehicle(game, team, choices, "a grenade into a vehicle")
    card = vehicle.vehicle
    assert card is not None
    check_within(vehicle, Reach(team, THROW_REACH, f'a grenade is thrown at a vehicle within {THROW_REACH:g}"'),
                 "target", ShotRefusal)
    modes = grenade_modes(vehicle)
    if not modes:
        raise ShotRefusal("target", f"{vehicle.name} is a closed {card.category.upper()}, neither open-topped nor "
                                    "an APC: a grenade cannot be tossed inside (use Anti-tank grenade).")
    mode = choices.get("mode") or modes[0]
    if mode not in modes:
        raise ShotRefusal("mode", f"{vehicle.name}'s card does not allow that: "
                                  + ("it is not open-topped." if mode == "open_topped" else "it is not an APC."))
    dice = chosen_whole(choices, "firepower_dice", "The Team's Firepower Dice", minimum=0, refusal=ShotRefusal)
    doubled = later_shock_doubled(card.category, card.damage)
    inputs: dict[str, InputValue] = {
        "firepower_dice": dice, "vehicle": str(mode), "vehicle_id": vehicle.id,
        "vehicle_current_shock": vehicle.shock, "vehicle_immobilised": doubled,
    }
    facts = [f"{vehicle.name}: Shock {vehicle.shock}"
             + (", immobilised" if IMMOBILISED in card.damage else "")
             + (" (Shock doubled)" if doubled else "")]
    if mode == "apc_outside":
        face, armour = face_seen(team, vehicle)
        inputs["armour_dice"] = chosen_whole(choices, "armour_dice", "The Armour Dice", armour, minimum=0,
                                             refusal=ShotRefusal)
        facts.append(f"{FACE_NAMES[face]} armour faces the Team: {armour} Armour Dice")
        facts.append("Every 6 penetrates (no Storm of Steel); each net hit after the Armour Dice is one Shock")
    else:
        inputs.update(throw_inputs(game, choices))
        carried = passengers_of(game, vehicle)
        if carried:
            inputs.update(passenger_teams=len(carried), range_band="close", target_quality=_quality(carried[0]),
                          cover="open", target_ids=",".join(u.id for u in carried),
                          target_figures=",".join(str(u.figures) for u in carried))
        facts.append("Passengers: " + (", ".join(f"{u.name} ({u.figures})" for u in carried) if carried
                                       else "none; only the 6s count, as Shock on the vehicle"))
        facts.append("+1 die for the confined space, +1 for a Bullseye!; every 6 is one Shock on the vehicle")
    from battletracker.rules import odds

    try:
        odds(GRENADE_INTO_VEHICLE, inputs)  # the procedure's own checks, in a player's words
    except (RulesInputError, TableError) as exc:
        raise ShotRefusal(getattr(exc, "field", "firepower_dice"), _sentence(exc)) from exc
    return ShotPlan(GRENADE_INTO_VEHICLE, inputs, tuple(facts))
