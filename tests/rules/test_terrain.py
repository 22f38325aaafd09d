"""Cover and Line of Sight read from the table: terrain pieces, buildings, smoke and bombardments."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.tables import ruleset_file
from battletracker.rules.terrain import CoverReading
from battletracker.rules.terrain import SightReading
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import TableReadings
from battletracker.rules.terrain import cover_against
from battletracker.rules.terrain import piece_problem
from battletracker.rules.terrain import sight
from battletracker.rules.terrain import terrain_rules

COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(10.0, 10.0), (20.0, 10.0), (20.0, 20.0), (10.0, 20.0)])
WALL = TerrainPiece("t2", "Stone wall", "wall", "linear", [(30.0, 0.0), (30.0, 40.0)])
HEDGE = TerrainPiece("t3", "Hedge", "hedge", "linear", [(40.0, 0.0), (40.0, 40.0)])
CROPS = TerrainPiece("t4", "Wheat", "crops", "area", [(50.0, 10.0), (60.0, 10.0), (60.0, 20.0), (50.0, 20.0)])
BOCAGE = TerrainPiece("t5", "Bocage", "bocage", "linear", [(0.0, 30.0), (72.0, 30.0)])


def table(*pieces: TerrainPiece, ruleset: str = "chain_of_command") -> Game:
    game = Game(ruleset=ruleset, sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    game.terrain = {p.id: p for p in pieces}
    return game


@pytest.mark.parametrize("ruleset", ["chain_of_command", "armour_battles", "necromunda"])
def test_every_ruleset_names_its_kinds_with_a_source_and_marks_unprinted_values_to_check(ruleset: str) -> None:
    rules = terrain_rules(ruleset)
    shapes = {k.shape for k in rules.kinds.values()}
    assert shapes == {"area", "linear"}
    for kind in rules.kinds.values():
        assert kind.cover in rules.levels and kind.source and kind.check
        if kind.shape == "area" and kind.blocks_sight:
            assert kind.sight_depth > 0
    whole = ruleset_file(ruleset, "terrain")
    for table_name in ("linear", "buildings", "smoke"):
        assert whole.table(table_name).bool("check") and whole.table(table_name).str("source")


def test_chain_of_command_has_the_kinds_the_issue_names() -> None:
    kinds = terrain_rules("chain_of_command").kinds
    assert {k: (v.shape, v.cover) for k, v in kinds.items()} == {
        "woods": ("area", "light"), "crops": ("area", "light"), "rubble": ("area", "hard"),
        "rough_ground": ("area", "light"), "hedge": ("linear", "light"), "wall": ("linear", "hard"),
        "bocage": ("linear", "hard")}
    assert kinds["woods"].blocks_sight and kinds["woods"].sight_depth == 4.0


def test_a_target_in_area_terrain_has_its_cover_whoever_fires() -> None:
    game = table(COPSE, CROPS)
    assert cover_against(game, (0.0, 0.0), (15.0, 15.0)) == CoverReading("light", "Light cover: in Copse", "t1")
    assert cover_against(game, None, (55.0, 15.0)) == CoverReading("light", "Light cover: in Wheat", "t4")
    assert cover_against(game, (0.0, 0.0), (25.0, 15.0)) == CoverReading("open", "In the open")
    # On the edge of the wood is in it.
    assert cover_against(game, (0.0, 0.0), (10.0, 15.0)).source == "t1"


def test_a_linear_obstacle_covers_a_target_close_behind_it_from_the_far_side_only() -> None:
    game = table(WALL)
    assert cover_against(game, (0.0, 20.0), (30.8, 20.0)) == CoverReading("hard", "Hard cover: behind Stone wall",
                                                                         "t2")
    # Same side as the firer: the wall is not between them.
    assert cover_against(game, (0.0, 20.0), (29.5, 20.0)).level == "open"
    # Behind the wall but further than the adjacent distance (1").
    assert cover_against(game, (0.0, 20.0), (31.5, 20.0)).level == "open"
    # A bombardment or SOS Fire leaves linear obstacles out.
    assert cover_against(game, (0.0, 20.0), (30.8, 20.0), linear=False).level == "open"


def test_the_best_cover_wins_and_is_named() -> None:
    field = TerrainPiece("t6", "Field", "crops", "area", [(25.0, 0.0), (35.0, 0.0), (35.0, 40.0), (25.0, 40.0)])
    game = table(field, WALL)
    assert cover_against(game, (0.0, 20.0), (30.5, 20.0)).reason == "Hard cover: behind Stone wall"
    assert cover_against(game, (60.0, 20.0), (30.5, 20.0)).reason == "Light cover: in Field"


def test_a_piece_may_override_its_kinds_cover_and_sight() -> None:
    thin = TerrainPiece("t1", "Thin copse", "woods", "area", COPSE.points, cover="hard", sight_depth=20.0)
    game = table(thin)
    assert cover_against(game, (0.0, 0.0), (15.0, 15.0)).reason == "Hard cover: in Thin copse"
    assert sight(game, (0.0, 15.0), (40.0, 15.0)).clear
    game.terrain["t1"] = TerrainPiece("t1", "Orchard", "woods", "area", COPSE.points, blocks_sight=False)
    assert sight(game, (0.0, 15.0), (40.0, 15.0)).clear


def test_woods_block_sight_only_beyond_their_depth() -> None:
    game = table(COPSE)
    assert sight(game, (0.0, 15.0), (40.0, 15.0)) == SightReading(
        False, "No Line of Sight: more than 4\" through Copse", "t1")
    assert sight(game, (0.0, 15.0), (13.0, 15.0)).clear        # 3" into the wood
    assert sight(game, (0.0, 15.0), (14.0, 15.0)).clear        # exactly 4": still seen
    assert not sight(game, (0.0, 15.0), (14.5, 15.0)).clear
    assert sight(game, (0.0, 9.0), (40.0, 9.0)).clear          # passes by
    assert sight(game, (0.0, 8.0), (12.0, 10.0)).clear          # clips the corner


def test_bocage_blocks_sight_except_to_and_from_a_unit_next_to_it() -> None:
    game = table(BOCAGE, WALL)
    assert sight(game, (10.0, 20.0), (10.0, 40.0)) == SightReading(False, "No Line of Sight: Bocage is in the way",
                                                                    "t5")
    assert sight(game, (10.0, 29.5), (10.0, 40.0)).clear
    assert sight(game, (10.0, 20.0), (10.0, 30.8)).clear
    assert sight(game, (0.0, 20.0), (60.0, 20.0)).clear        # a wall does not block sight


def test_buildings_block_sight_and_give_their_cover_but_not_to_those_inside() -> None:
    game = table()
    game.buildings = {"bld1": Building("bld1", "Farmhouse", 20.0, 20.0, 6.0, 4.0)}
    assert sight(game, (0.0, 20.0), (40.0, 20.0)) == SightReading(False, "No Line of Sight: crosses Farmhouse",
                                                                   "bld1")
    assert sight(game, (20.0, 20.0), (40.0, 20.0)).clear
    assert cover_against(game, (0.0, 20.0), (21.0, 20.0)) == CoverReading("hard", "Hard cover: in Farmhouse", "bld1")
    game.buildings["bld1"].state = "collapsed"
    assert sight(game, (0.0, 20.0), (40.0, 20.0)).clear
    assert cover_against(game, (0.0, 20.0), (21.0, 20.0)).level == "open"


def test_smoke_of_a_collapse_is_fired_through_and_listed_and_a_bombardments_smoke_blocks() -> None:
    game = table()
    game.smoke = {"smoke1": SmokeArea("smoke1", 20.0, 20.0, 6.0, 4.0)}
    assert sight(game, (0.0, 20.0), (40.0, 20.0)) == SightReading(True, "Line of Sight through smoke",
                                                                   smoke=("smoke1",))
    game.bombardments = {"b1": Bombardment("b1", 0, kind="smoke", state="firing", x=20.0, y=40.0, phases_left=1),
                         "sos": Bombardment("sos", 0, kind="sos", state="firing", x=50.0, y=40.0, phases_left=1,
                                            shape="circle", radius=6.0)}
    reading = sight(game, (0.0, 40.0), (40.0, 40.0))
    assert reading == SightReading(False, "No Line of Sight: through the smoke of a bombardment", "b1")
    assert sight(game, (40.0, 30.0), (60.0, 40.0)).clear       # SOS Fire lays no smoke
    game.bombardments["b1"].state = "ranging"
    assert sight(game, (0.0, 40.0), (40.0, 40.0)).clear


def test_smoke_blocks_sight_where_the_ruleset_says_so() -> None:
    game = table(ruleset="necromunda")
    game.smoke = {"smoke1": SmokeArea("smoke1", 20.0, 20.0, 6.0, 4.0)}
    assert sight(game, (0.0, 20.0), (40.0, 20.0)).reason == "No Line of Sight: through smoke"


def test_units_stand_for_their_centre() -> None:
    game = table(COPSE)
    firer = Unit("u1", "Rifles", "section", 0, 0.0, 15.0)
    target = Unit("u2", "Gruppe", "section", 1, 13.0, 15.0)
    assert cover_against(game, firer, target).source == "t1"
    assert sight(game, firer, target).clear


def test_a_piece_the_ruleset_does_not_know_is_named_and_left_out() -> None:
    game = table(TerrainPiece("t9", "Pond", "water", "area", COPSE.points))
    assert piece_problem(game, game.terrain["t9"]) == ("'water' is not a kind of terrain in this ruleset "
                                                       "(Woods, Standing crops, Rubble, Rough ground, Hedge, "
                                                       "Stone wall, Bocage)")
    assert cover_against(game, None, (15.0, 15.0)).level == "open"
    assert piece_problem(game, TerrainPiece("x", "Hedge", "hedge", "area", COPSE.points)) == \
        "Hedge is drawn as a line"
    assert piece_problem(game, TerrainPiece("x", "Copse", "woods", "area", COPSE.points, cover="partial")) == \
        "'partial' is not a level of cover (open, light, hard)"
    assert piece_problem(game, COPSE) is None


coords = st.floats(0, 72, allow_nan=False).map(lambda v: round(v, 1))
points = st.tuples(coords, coords)


def _blockers() -> Game:
    game = table(COPSE, BOCAGE, HEDGE, TerrainPiece("t7", "Big wood", "woods", "area",
                                                    [(45.0, 35.0), (60.0, 32.0), (66.0, 45.0), (52.0, 40.0)]))
    game.buildings = {"bld1": Building("bld1", "Farmhouse", 25.0, 40.0, 6.0, 4.0, 30.0)}
    game.smoke = {"s1": SmokeArea("s1", 62.0, 8.0, 4.0, 4.0)}
    return game


@settings(max_examples=300, deadline=None)
@given(points, points)
def test_sight_is_the_same_either_way_round(a: tuple[float, float], b: tuple[float, float]) -> None:
    index = TableIndex(_blockers())
    there, back = index.sight(a, b), index.sight(b, a)
    assert there.clear == back.clear
    assert set(there.smoke) == set(back.smoke)


@settings(max_examples=200, deadline=None)
@given(points, points, coords)
def test_moving_a_blocker_out_of_the_line_restores_sight(a: tuple[float, float], b: tuple[float, float],
                                                         shift: float) -> None:
    wood = TerrainPiece("w", "Wood", "woods", "area", [(30.0, 20.0), (40.0, 18.0), (42.0, 28.0), (31.0, 30.0)])
    game = table(wood)
    blocked = sight(game, a, b)
    if blocked.clear:
        return
    assert blocked.blocker == "w"
    # Far off the table: nothing of the line is near it any more.
    game.terrain["w"] = TerrainPiece("w", "Wood", "woods", "area",
                                     [(x + 200.0 + shift, y) for x, y in wood.points])
    assert sight(game, a, b).clear


def _all_pairs_one_by_one(index: TableIndex, firers: list[tuple[float, float]],
                          targets: list[tuple[float, float]]) -> list[list[tuple[CoverReading, SightReading]]]:
    return [[(index.cover_against(f, t), index.sight(f, t)) for t in targets] for f in firers]


def _pairs(readings: TableReadings, firers: int, targets: int) -> list[list[tuple[CoverReading, SightReading]]]:
    return [[readings.pair(f, t) for t in range(targets)] for f in range(firers)]


def test_the_whole_table_at_once_answers_as_each_pair_does() -> None:
    from tests.benchmarks.terrain_bench import terrain_table

    game, firers, targets = terrain_table()
    game.bombardments = {"b1": Bombardment("b1", 0, kind="smoke", state="firing", x=30.0, y=24.0, phases_left=1),
                         "b2": Bombardment("b2", 0, kind="high_explosive", state="lingering", x=60.0, y=30.0,
                                           linger_phases=1, shape="circle", radius=4.0)}
    index = TableIndex(game)
    together = index.readings(firers, targets)
    assert _pairs(together, len(firers), len(targets)) == _all_pairs_one_by_one(index, firers, targets)
    assert 300 < sum(not s.clear for row in together.sight for s in row) < 2400
    assert any(s.smoke for row in together.sight for s in row)


@settings(max_examples=60, deadline=None)
@given(st.lists(points, min_size=1, max_size=6), st.lists(points, min_size=1, max_size=6),
       st.lists(st.tuples(points, st.integers(0, 2)), max_size=6))
def test_the_whole_table_at_once_matches_each_pair_on_any_table(firers: list[tuple[float, float]],
                                                                targets: list[tuple[float, float]],
                                                                corners: list[tuple[tuple[float, float], int]]) -> None:
    game = _blockers()
    # Firers and targets standing on corners and edges of the pieces, in buildings and next to lines.
    outlines = [piece.points for piece in game.terrain.values()]
    targets = targets + [outlines[k % len(outlines)][n % len(outlines[k % len(outlines)])]
                         for n, ((_x, _y), k) in enumerate(corners)]
    firers = firers + [(25.0, 40.0), (10.0, 15.0), (10.0, 29.5)]
    index = TableIndex(game)
    together = index.readings(firers, targets)
    assert _pairs(together, len(firers), len(targets)) == _all_pairs_one_by_one(index, firers, targets)


@pytest.mark.parametrize("ruleset", ["chain_of_command", "armour_battles", "necromunda"])
def test_the_demo_tables_have_terrain_that_gives_cover_and_hides_some_targets(ruleset: str) -> None:
    from battletracker.model import savefile
    from battletracker.rules.tables import resources_dir

    game = savefile.load(resources_dir() / "demo" / f"{ruleset}.json")
    assert game.terrain and all(piece_problem(game, piece) is None for piece in game.terrain.values())
    firers = [u for u in game.units.values() if u.side == 0]
    targets = [u for u in game.units.values() if u.side == 1]
    found = TableIndex(game).readings(firers, targets)
    assert any(c.source for row in found.cover for c in row)
    assert any(not s.clear for row in found.sight for s in row)


def test_the_chain_of_command_demo_keeps_its_main_lines_of_fire_open() -> None:
    from battletracker.model import savefile
    from battletracker.rules.tables import resources_dir

    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    mg, squad, panzer, sherman, sniper = (game.units[u] for u in ("u3", "u8", "u6", "u11", "u9"))
    assert cover_against(game, mg, squad).reason == "Hard cover: behind Stone wall"
    assert sight(game, mg, squad).clear and sight(game, panzer, sherman).clear
    assert cover_against(game, game.units["u1"], sniper).reason == "Light cover: in Copse"
    assert sight(game, game.units["u1"], sniper).clear
    assert sight(game, game.units["u2"], game.units["u7"]).reason == \
        "No Line of Sight: more than 4\" through Bois de la Croix"


def test_terrain_data_is_read_again_when_the_ruleset_files_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from battletracker.rules import tables

    copy = tmp_path / "resources"
    shutil.copytree(tables.resources_dir(), copy)
    path = copy / "rulesets" / "chain_of_command" / "terrain.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("sight_depth = 4.0", "sight_depth = 6.0"),
                    encoding="utf-8")
    assert terrain_rules("chain_of_command").kinds["woods"].sight_depth == 4.0
    game = table(COPSE)
    assert not sight(game, (15.0, 5.0), (15.0, 15.5)).clear      # 5.5" into the copse
    monkeypatch.setenv("BATTLETRACKER_RESOURCES", str(copy))
    tables.clear_cache()
    try:
        assert terrain_rules("chain_of_command").kinds["woods"].sight_depth == 6.0
        assert sight(game, (15.0, 5.0), (15.0, 15.5)).clear      # the copse prepared again with the new depth
    finally:
        monkeypatch.delenv("BATTLETRACKER_RESOURCES")
        tables.clear_cache()
    assert terrain_rules("chain_of_command").kinds["woods"].sight_depth == 4.0
    assert not sight(game, (15.0, 5.0), (15.0, 15.5)).clear


wood_corner = st.tuples(st.integers(20, 50).map(float), st.integers(15, 35).map(float))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(wood_corner, min_size=3, max_size=8), min_size=1, max_size=3),
       st.lists(points, min_size=1, max_size=5), st.lists(points, min_size=1, max_size=5))
def test_the_whole_table_at_once_matches_each_pair_through_any_woods(woods: list[list[tuple[float, float]]],
                                                                     firers: list[tuple[float, float]],
                                                                     targets: list[tuple[float, float]]) -> None:
    # Woods of any shape (concave, crossing themselves, corners on whole inches), seen from their own
    # corners too: lines through corners and along edges, as deep as the woods' depth or just short of it.
    game = table(*(TerrainPiece(f"w{k}", f"Wood {k}", "woods", "area", outline) for k, outline in enumerate(woods)))
    corners = [corner for outline in woods for corner in outline]
    firers, targets = firers + corners[::2], targets + corners[1::2]
    index = TableIndex(game)
    together = index.readings(firers, targets)
    assert _pairs(together, len(firers), len(targets)) == _all_pairs_one_by_one(index, firers, targets)


def test_asking_again_about_other_targets_answers_for_those_targets() -> None:
    from tests.benchmarks.terrain_bench import terrain_table

    game, firers, targets = terrain_table()
    index = TableIndex(game)
    others = [(x + 0.5, y - 3.0) for x, y in reversed(targets)]
    for asked in (targets, others, targets[:7], others, targets):
        assert index.readings(firers[:9], asked) == TableIndex(game).readings(firers[:9], asked)


def test_a_table_prepared_again_keeps_each_unchanged_piece_and_prepares_a_changed_one_afresh() -> None:
    copse = TerrainPiece("t1", "Copse", "woods", "area", list(COPSE.points))
    game = table(copse, WALL, HEDGE)
    first, second = TableIndex(game), TableIndex(game)
    assert [b is c for b, c in zip(first.blockers, second.blockers, strict=True)] == [True] * len(first.blockers)
    assert first.readings([(15.0, 0.0)], [(15.0, 30.0)]).sight[0][0].reason == \
        "No Line of Sight: more than 4\" through Copse"
    copse.points = [(x + 30.0, y + 20.0) for x, y in copse.points]     # the copse is moved off the line
    assert TableIndex(game).readings([(15.0, 0.0)], [(15.0, 30.0)]).sight[0][0].clear
    copse.points, copse.name, copse.sight_depth = list(COPSE.points), "Spinney", 20.0
    assert TableIndex(game).sight((15.0, 0.0), (15.0, 30.0)).clear         # 10" through, 20" allowed
    copse.sight_depth = None
    assert TableIndex(game).sight((15.0, 0.0), (15.0, 30.0)).reason == \
        "No Line of Sight: more than 4\" through Spinney"
