"""Undo is exact to the byte, and every effect changes only what its `touches` names.

A game that compares equal is not enough: a setting or a marker's data entry
put back at the end of its dict re-saves as a different file. Each effect type
is applied to a game with several entries in every dict (and a Pinned unit and
an occupant that have left the game, as older saves hold), then undone, and
the saved bytes must be the same.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.model import savefile
from battletracker.model.actions import Action
from battletracker.model.backdrop import Backdrop
from battletracker.model.backdrop_effects import SetBackdrop
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment_effects import AddBombardment
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.bombardment_effects import AddSmoke
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.bombardment_effects import PopBombardmentEvent
from battletracker.model.bombardment_effects import RemoveBombardment
from battletracker.model.bombardment_effects import RemoveBuilding
from battletracker.model.bombardment_effects import RemoveSmoke
from battletracker.model.bombardment_effects import ReplaceBuilding
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.bombardment_effects import SetOccupant
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import Changes
from battletracker.model.effects import ChangeSide
from battletracker.model.effects import Effect
from battletracker.model.effects import SetMarkerData
from battletracker.model.effects import SetSetting
from battletracker.model.effects import SetUnitStat
from battletracker.model.effects import StarLogEntry
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Side
from battletracker.model.history import PopAction
from battletracker.model.history import RecordAction
from battletracker.model.terrain import TerrainPiece
from battletracker.model.terrain_effects import AddTerrain
from battletracker.model.terrain_effects import RemoveTerrain
from battletracker.model.terrain_effects import ReplaceTerrain
from battletracker.model.terrain_effects import SetTerrainPoints
from tests.model.sample import sample_game
from tests.model.test_backdrop import PICTURE
from tests.model.test_backdrop import SMALL_PICTURE
from tests.model.test_bombardment_model import bombardment_game
from tests.model.test_properties import SCALARS
from tests.model.test_properties import UNIT_IDS
from tests.model.test_properties import effects as unit_and_table_effects

BOMBARDMENT_IDS = st.sampled_from(["b1", "sos1", "b2", "b9"])
BUILDING_IDS = st.sampled_from(["bld1", "bld2", "bld9"])
PIN_IDS = st.sampled_from(["u1", "u2", "u3", "ghost", "nobody"])
ACTIONS = [Action("unit.shock", {"unit": "u1", "delta": 1}, (), "2026-01-01T10:00:00"),
           Action("fire", {"firer": "u2", "target": "u3"}, (6, 1, 4), "2026-01-01T10:01:00")]


TERRAIN = [TerrainPiece("t1", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)]),
           TerrainPiece("t2", "Wall", "wall", "linear", [(20.0, 0.0), (20.0, 12.0)], cover="light"),
           TerrainPiece("t3", "Crops", "crops", "area", [(30.0, 30.0), (36.0, 30.0), (36.0, 36.0)],
                        blocks_sight=True, sight_depth=2.0)]
TERRAIN_IDS = st.sampled_from(["t1", "t2", "t3", "t9"])
POINTS = st.lists(st.tuples(st.sampled_from([0.0, 1.5, 7.0, float("nan")]), st.sampled_from([0.0, 2.25, 9.0])),
                  max_size=5)
pieces = st.builds(TerrainPiece, TERRAIN_IDS, st.sampled_from(["Wood", ""]), st.sampled_from(["woods", "hedge", ""]),
                   st.sampled_from(["area", "linear", "hill"]), POINTS,
                   cover=st.none() | st.sampled_from(["hard", ""]), blocks_sight=st.none() | st.booleans(),
                   sight_depth=st.none() | st.sampled_from([0.0, 3.0, -1.0]))


def full_game() -> Game:
    """The sample game with bombardments, buildings and smoke, several entries in every dict,
    and references to a unit "ghost" that an older version left behind when it was removed."""
    game = sample_game()
    table = bombardment_game()
    game.bombardments, game.buildings, game.smoke = table.bombardments, table.buildings, table.smoke
    game.bombardments["sos1"].pinned = ["ghost", "u3"]
    game.buildings["bld2"].occupants = ["ghost"]
    game.settings = {"a_first": 1, "storm_of_steel_per_six": 2, "z_last": "x"}
    game.markers["m1"].data = {"phase": "ranging", "bombardment": "b1", "target_id": "u2"}
    game.units["u1"].stats = {"quality": "regular", "embarked_in": "u4", "teams": 2}
    game.terrain = {p.id: p for p in TERRAIN}
    game.start, game.actions = savefile.state_dict(sample_game()), [ACTIONS[0]]
    game.backdrop = Backdrop(PICTURE, "table.png", 8, 6, 9.0, 0.0, 0.0, 3.0, 0.5)
    return game


def test_the_full_game_is_a_game_a_save_file_holds() -> None:
    game = full_game()
    assert savefile.dumps(savefile.loads(savefile.dumps(game))) == savefile.dumps(game)


@pytest.mark.parametrize("removal", [SetSetting("a_first", None), SetMarkerData("m1", "phase", None),
                                     SetUnitStat("u1", "quality", None)], ids=lambda e: type(e).__name__)
def test_undoing_the_removal_of_a_first_entry_puts_it_back_first(removal: Effect) -> None:
    game = full_game()
    before = savefile.dumps(game)
    game.apply(game.apply(removal))
    assert savefile.dumps(game) == before


events = st.builds(BombardmentEvent, st.integers(0, 2), st.integers(1, 2), st.sampled_from(["fire", "move", "bad"]),
                   st.just("text"))

table_effects: st.SearchStrategy[Effect] = st.one_of(
    st.builds(SetUnitStat, UNIT_IDS, st.sampled_from(["quality", "embarked_in", "teams", "new", ""]), SCALARS,
              st.none() | st.integers(-1, 4)),
    st.builds(SetMarkerData, st.sampled_from(["m1", "m2", "gone"]),
              st.sampled_from(["phase", "bombardment", "target_id", "new", ""]), SCALARS,
              st.none() | st.integers(-1, 4)),
    st.builds(SetSetting, st.sampled_from(["a_first", "storm_of_steel_per_six", "z_last", "new", ""]), SCALARS,
              st.none() | st.integers(-1, 4)),
    st.builds(AddBombardment, st.builds(Bombardment, BOMBARDMENT_IDS, st.integers(0, 2), phases_left=st.just(1)),
              st.none() | st.integers(-1, 4)),
    st.builds(RemoveBombardment, BOMBARDMENT_IDS),
    st.builds(UpdateBombardment, BOMBARDMENT_IDS,
              st.lists(st.tuples(st.sampled_from(["x", "phases_left", "state", "pinned"]),
                                 st.sampled_from([0, 3, 12.5, "lingering", "firing"])), max_size=2).map(tuple)),
    st.builds(AppendBombardmentEvent, BOMBARDMENT_IDS, events),
    st.builds(PopBombardmentEvent, BOMBARDMENT_IDS, events),
    st.builds(SetBombardmentPin, BOMBARDMENT_IDS, PIN_IDS, st.booleans()),
    st.builds(ChangeCocPoints, st.integers(0, 2), st.integers(-3, 3)),
    st.builds(AddBuilding, st.builds(Building, BUILDING_IDS, st.just("Hut"), st.just(1.0), st.just(2.0),
                                     occupants=st.lists(PIN_IDS, unique=True, max_size=2)),
              st.none() | st.integers(-1, 3)),
    st.builds(RemoveBuilding, BUILDING_IDS),
    st.builds(ReplaceBuilding, st.builds(Building, BUILDING_IDS, st.just("Hut"), st.just(1.0), st.just(2.0),
                                         occupants=st.lists(PIN_IDS, unique=True, max_size=2))),
    st.builds(SetBuildingState, BUILDING_IDS, st.sampled_from(["intact", "unstable", "collapsed", "haunted"])),
    st.builds(SetOccupant, BUILDING_IDS, PIN_IDS, st.booleans()),
    st.builds(AddSmoke, st.builds(SmokeArea, st.sampled_from(["smoke1", "smoke2"]), st.just(1.0), st.just(1.0),
                                  st.just(2.0), st.just(2.0)), st.none() | st.integers(-1, 2)),
    st.builds(RemoveSmoke, st.sampled_from(["smoke1", "smoke2"])),
    st.builds(AddTerrain, pieces, st.none() | st.integers(-1, 4)),
    st.builds(RemoveTerrain, TERRAIN_IDS),
    st.builds(ReplaceTerrain, pieces),
    st.builds(SetTerrainPoints, TERRAIN_IDS, POINTS.map(tuple)),
    st.builds(RecordAction, st.sampled_from(ACTIONS)),
    st.builds(SetBackdrop, st.none() | st.builds(
        Backdrop, st.sampled_from([PICTURE, SMALL_PICTURE, "%"]),
        st.just("map.png"), st.integers(3, 8), st.integers(4, 6), st.sampled_from([0.5, 9.0, 0.0]),
        st.sampled_from([0.0, 90.0, 400.0]), st.floats(-5, 5), st.floats(-5, 5), st.sampled_from([0.0, 0.3, 2.0]),
        st.booleans())),
    # A side's record: its views redraw everything, a rollback copies the sides alone (`writes`).
    st.builds(ChangeSide, st.integers(-1, 2), st.builds(Side, st.sampled_from(["British", "Germans"]),
                                                        st.sampled_from(["#3366cc", "red"]), st.integers(-1, 10),
                                                        st.integers(0, 3))),
    # Index -1 and one past the end are refused; the sample game's log has a few lines.
    st.builds(StarLogEntry, st.integers(-1, 4), st.booleans()),
    # The game has a start: forgetting it (clear_start) only ever undoes the first action recorded.
    st.builds(PopAction, st.sampled_from(ACTIONS), st.just(False)),
)

any_effect = st.one_of(unit_and_table_effects, table_effects)


def _every_effect_type() -> set[type[Effect]]:
    found: set[type[Effect]] = set()
    todo = list(Effect.__subclasses__())
    while todo:
        cls = todo.pop()
        found.add(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_every_effect_type_is_drawn_by_these_tests() -> None:
    here = Path(__file__).parent
    source = (here / "test_exact_undo.py").read_text("utf-8") + (here / "test_properties.py").read_text("utf-8")
    missing = sorted(cls.__name__ for cls in _every_effect_type() if cls.__module__.startswith("battletracker.")
                     and f"st.builds({cls.__name__}," not in source)
    assert not missing, f"add a strategy for {', '.join(missing)} to tests/model/test_exact_undo.py"


@settings(max_examples=600, deadline=None)
@given(any_effect)
def test_doing_and_undoing_any_effect_gives_back_the_same_saved_bytes(effect: Effect) -> None:
    game = full_game()
    before = savefile.dumps(game)
    try:
        inverse = game.apply(effect)
    except GameError:
        assert savefile.dumps(game) == before, f"refused {effect!r} changed the game"
        return
    after = savefile.dumps(game)
    redo = game.apply(inverse)
    assert savefile.dumps(game) == before, f"undoing {effect!r} did not give back the same file"
    game.apply(redo)
    assert savefile.dumps(game) == after, f"redoing {effect!r} did not give back the same file"


_FLAGS = {"backdrop": ("backdrop",), "markers": ("markers",), "log": ("log",),
          "clock": ("turn", "phase", "active_side"), "sides": ("sides",),
          "settings": ("settings",), "bombardments": ("bombardments",), "buildings": ("buildings", "smoke"),
          "terrain": ("terrain",), "history": ("actions", "start")}


def _covered(touches: Changes) -> set[str]:
    if touches.everything:
        return {f.name for f in fields(Game)}
    return {name for flag, names in _FLAGS.items() if getattr(touches, flag) for name in names}


@settings(max_examples=600, deadline=None)
@given(any_effect)
def test_an_effect_changes_only_what_its_writes_name(effect: Effect) -> None:
    """What a rollback copies (`writes`, the same as `touches` unless narrower) covers every change."""
    game = full_game()
    start = full_game()
    try:
        game.apply(effect)
    except GameError:
        return
    touches = effect.writes
    changed = {f.name for f in fields(Game) if f.name != "units" and getattr(game, f.name) != getattr(start, f.name)}
    assert changed <= _covered(touches), f"{effect!r} changed {changed} but touches {touches}"
    units = {u for u in {*game.units, *start.units} if game.units.get(u) != start.units.get(u)}
    assert units <= set(touches.units) or touches.everything, f"{effect!r} changed units {units}"
    if list(game.units) != list(start.units):
        assert touches.roster or touches.everything, f"{effect!r} changed the roster without saying so"


def test_every_flag_of_changes_is_a_part_of_the_game_rollback_copies() -> None:
    from battletracker.model.game import _REGIONS

    flags = {f.name for f in fields(Changes)} - {"units", "roster", "everything"}
    assert flags == set(_REGIONS) == set(_FLAGS)


def test_a_star_on_a_log_line_is_saved_and_undone_exactly() -> None:
    game = full_game()
    before = savefile.dumps(game)
    undo = game.apply(StarLogEntry(1, True))
    assert game.log[1].starred
    assert savefile.loads(savefile.dumps(game)).log[1].starred
    game.apply(undo)
    assert savefile.dumps(game) == before
