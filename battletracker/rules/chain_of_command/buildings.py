"""Buildings under H.E.: unstable brick and stone, collapse at the Turn end, the smoke of the ruin, fire.

A brick or stone building becomes unstable when a weapon firing H.E. rolls
four 6s at it or at a unit in it (bombardment.toml), and collapses at the end
of the Turn. The collapsed building's area becomes smoke, -1 to hit through
it, removed at the next Turn end; a Sniper inside relocates up to 12" into
cover, and the other units inside are resolved by the players (Structures
Collapsing, Section 14.4.2.1, is not in the documents). A building on fire
must be evacuated at once.

Every function returns Effects (with log lines) and changes nothing itself.
"""

from __future__ import annotations

from battletracker.core import geometry
from battletracker.model.bombardment import BUILDING_MATERIALS
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.bombardment_effects import AddSmoke
from battletracker.model.bombardment_effects import RemoveSmoke
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.bombardment_effects import SetOccupant
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command.bombardment_data import data

COLLAPSE_SOURCE = "collapse:"


def get_building(game: Game, building_id: str) -> Building:
    try:
        return game.buildings[building_id]
    except KeyError:
        raise RulesInputError("building_id", f"no building with id {building_id!r}") from None


def building_of(game: Game, unit_id: str) -> Building | None:
    """The building a unit is in (listed among its occupants), if any."""
    for building in game.buildings.values():
        if unit_id in building.occupants:
            return building
    return None


def _log(game: Game, text: str) -> AppendLog:
    return AppendLog.now(game, text, "building")


def add_building(game: Game, name: str, centre: geometry.Point, *, width: float, depth: float,
                 facing: float = 0.0, material: str = "brick_stone", storeys: int = 1,
                 building_id: str | None = None) -> list[Effect]:
    """Put a building on the map (the effect refuses a material, size or storeys no building can have)."""
    bid = building_id or game.new_id("bld", game.buildings)
    if bid in game.buildings:
        raise RulesInputError("building_id", f"{bid!r} is already a building")
    if material not in BUILDING_MATERIALS:
        raise RulesInputError("material", f"must be one of {', '.join(BUILDING_MATERIALS)}, not {material!r}")
    if storeys < 1:
        raise RulesInputError("storeys", f"a building has at least one storey, not {storeys}")
    for key, value in (("width", width), ("depth", depth)):
        if not 0 < value <= 1000:
            raise RulesInputError(key, f"must be more than 0 inches, not {inches(value)}")
    building = Building(bid, name, centre[0], centre[1], width, depth, geometry.normalise(facing), material,
                        storeys)
    return [AddBuilding(building), _log(game, f"{name}: {storeys} storey {material.replace('_', ' or ')} "
                                              "building placed")]


def enter(game: Game, building_id: str, unit_id: str) -> list[Effect]:
    """A unit goes into a building (it leaves any other it was in)."""
    building = get_building(game, building_id)
    if unit_id not in game.units:
        raise RulesInputError("unit_id", f"no unit with id {unit_id!r}")
    if building.state in ("collapsed", "on_fire"):
        raise RulesInputError("building_id", f"{building.name} is {building.state.replace('_', ' ')}; no unit "
                                             "can go in")
    effects: list[Effect] = []
    current = building_of(game, unit_id)
    if current is not None and current.id != building.id:
        effects.append(SetOccupant(current.id, unit_id, False))
    effects.append(SetOccupant(building.id, unit_id, True))
    return effects


def leave(game: Game, unit_id: str) -> list[Effect]:
    current = building_of(game, unit_id)
    return [] if current is None else [SetOccupant(current.id, unit_id, False)]


def he_sixes(game: Game, building_id: str, sixes: int) -> list[Effect]:
    """The 6s an H.E. weapon rolled to hit this building or a unit in it: four and brick or stone turns unstable.

    For H.E. other than a bombardment's (an infantry or anti-tank gun firing
    at a unit inside); a bombardment's phase applies this itself.
    """
    building = get_building(game, building_id)
    if sixes < 0:
        raise RulesInputError("sixes", f"cannot be negative ({sixes})")
    if building.material != "brick_stone" or building.state != "intact" or sixes < data().unstable_sixes:
        return []
    return [SetBuildingState(building.id, "unstable"),
            _log(game, f"{building.name}: {sixes} sixes from H.E.: the building is unstable and collapses at the "
                       "end of the Turn")]


def set_on_fire(game: Game, building_id: str) -> list[Effect]:
    """A building set on fire (a flamethrower's two 6s at a wooden building): everyone inside must get out."""
    building = get_building(game, building_id)
    if building.state in ("collapsed", "on_fire"):
        raise RulesInputError("building_id", f"{building.name} is already {building.state.replace('_', ' ')}")
    effects: list[Effect] = [SetBuildingState(building.id, "on_fire")]
    names = [game.units[u].name for u in building.occupants if u in game.units]
    effects.extend(SetOccupant(building.id, u, False) for u in building.occupants)
    text = f"{building.name} is on fire"
    if names:
        text += f": evacuate {', '.join(names)} at once, placed outside by a door or window of their player's choice"
    effects.append(_log(game, text))
    return effects


def collapse_at_turn_end(game: Game) -> list[Effect]:
    """What the Turn end does to buildings: the old ruins' smoke clears, unstable buildings collapse into smoke."""
    effects: list[Effect] = []
    for smoke in game.smoke.values():
        if smoke.source.startswith(COLLAPSE_SOURCE):
            effects.append(RemoveSmoke(smoke.id))
            effects.append(_log(game, f"The smoke of the collapsed {_source_name(game, smoke)} clears"))
    taken = set(game.smoke)
    for building in game.buildings.values():
        if building.state != "unstable":
            continue
        smoke_id = game.new_id("smoke", taken)
        taken.add(smoke_id)
        effects.append(SetBuildingState(building.id, "collapsed"))
        effects.append(AddSmoke(SmokeArea(smoke_id, building.x, building.y, building.width, building.depth,
                                          building.facing, COLLAPSE_SOURCE + building.id,
                                          data().collapse_smoke_to_hit)))
        effects.extend(SetOccupant(building.id, u, False) for u in building.occupants)
        effects.append(_log(game, f"{building.name} collapses: its area is smoke ({data().collapse_smoke_to_hit} "
                                  "to hit through it) until the next Turn end"))
        snipers = [game.units[u].name for u in building.occupants if u in game.units
                   and game.units[u].kind == "sniper"]
        others = [game.units[u].name for u in building.occupants if u in game.units
                  and game.units[u].kind != "sniper"]
        if snipers:
            effects.append(_log(game, f"{', '.join(snipers)}: relocate up to {data().sniper_relocation:g}\" into "
                                      "cover at once"))
        if others:
            effects.append(_log(game, f"{', '.join(others)}: caught in the collapse; resolve Structures Collapsing "
                                      "(Section 14.4.2.1)"))
    return effects


def _source_name(game: Game, smoke: SmokeArea) -> str:
    building = game.buildings.get(smoke.source[len(COLLAPSE_SOURCE):])
    return building.name if building is not None else "building"


def smoke_to_hit(game: Game, firer: geometry.Point, target: geometry.Point) -> int:
    """The to-hit modifier for firing through smoke on the table (each smoke area crossed counts)."""
    return sum(s.to_hit for s in game.smoke.values() if s.crosses(firer, target))
