"""H.E. at infantry read from the demo table, without a dialog: the Panzerschreck's and the Panzer IV's."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import SpendAmmo
from battletracker.model.game import Game
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.fire_plans import fire_weapons
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.tables import resources_dir

SCHRECK, TANK, SQUAD = "u4", "u6", "u8"   # the Panzerschreck team, the Panzer IV H, the 2nd Squad at (38, 39)


@pytest.fixture
def game() -> Game:
    """The demo on an open table, the Panzerschreck 20" from the 2nd Squad (its second band, 18-24")."""
    demo = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    demo.terrain.clear()
    MoveUnit(SCHRECK, 38.0, 19.0, 180.0).apply(demo)
    return demo


def test_the_panzerschreck_offers_its_he_at_infantry(game: Game) -> None:
    [fw] = fire_weapons(game.unit(SCHRECK))
    assert (fw.procedure, fw.title, fw.he_kind) == ("coc.gun_he", "Panzerschreck (H.E.)", "infantry_at")


def test_the_plan_reads_band_quality_and_rounds_and_the_shot_spends_a_round(game: Game) -> None:
    plan = plan_fire(game, {"firer": SCHRECK, "target": SQUAD})
    assert plan.procedure == "coc.gun_he"
    assert {k: plan.inputs[k] for k in ("he_dice", "firer_kind", "range_band_index", "target_quality",
                                        "rounds_left", "weapon_index", "firer_id", "target_id")} == {
        "he_dice": 4, "firer_kind": "infantry_at", "range_band_index": 1, "target_quality": "regular",
        "rounds_left": 3, "weapon_index": 0, "firer_id": SCHRECK, "target_id": SQUAD}
    assert "crew" not in plan.inputs and "barrel_facing" not in plan.inputs
    assert "4 H.E. dice at Close Range, 1 band out (5+), no Storm of Steel" in plan.facts
    assert "Rounds left: 3 on the card (one is spent)" in plan.facts
    before = savefile.dumps(game)
    kill = hit_effect_faces("open").index("kill") + 1
    res = resolve("coc.gun_he", plan.inputs, ScriptedDice([5, 6, 1, 1, kill, kill]))
    assert res.values["to_hit"] == 5 and res.outcome == "kills=2 shock=0"
    assert list(res.effects) == [ChangeFigures(SQUAD, -2), SpendAmmo(SCHRECK, 0, 1)]
    undo = game.apply_all(res.effects)
    assert game.unit(SCHRECK).weapons[0].ammo == 2 and game.unit(SQUAD).figures == 10
    for inverse in reversed(undo):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_the_game_settings_change_the_plans_words(game: Game) -> None:
    game.settings.update(infantry_at_he_range="close_effective", infantry_at_he_storm_of_steel=True,
                         infantry_at_he_reduce_cover=1)
    plan = plan_fire(game, {"firer": SCHRECK, "target": SQUAD, "target_quality": "elite"})
    assert "4 H.E. dice at Effective Range (6+), Storm of Steel, cover reduced one level" in plan.facts


def test_an_empty_panzerschreck_is_refused_and_beyond_its_last_band_too(game: Game) -> None:
    game.unit(SCHRECK).weapons[0].ammo = 0
    with pytest.raises(ShotRefusal, match=r"^Panzerschreck has no rounds left \(Limited Ammunition: 3 rounds\)\.$"):
        plan_fire(game, {"firer": SCHRECK, "target": SQUAD})
    game.unit(SCHRECK).weapons[0].ammo = 3
    MoveUnit(SCHRECK, 38.0, 1.0, 180.0).apply(game)
    with pytest.raises(ShotRefusal, match="beyond the longest range band"):
        plan_fire(game, {"firer": SCHRECK, "target": SQUAD})


def test_a_score_no_die_can_make_is_refused_as_out_of_reach(game: Game) -> None:
    MoveUnit(SCHRECK, 38.0, 9.0, 180.0).apply(game)     # 30": its third band, two past the first
    plan = plan_fire(game, {"firer": SCHRECK, "target": SQUAD, "target_quality": "regular"})
    assert any("2 bands out (6+)" in fact for fact in plan.facts)
    with pytest.raises(ShotRefusal, match=r"^Out of reach: Panzerschreck would need 7\+ to hit 2nd Squad with H\.E\. "
                                          r"here, and a die scores at most 6\.$"):
        plan_fire(game, {"firer": SCHRECK, "target": SQUAD, "target_quality": "elite"})


def test_the_tanks_he_is_fired_by_the_guns_rule_as_saved_games_were_played(game: Game) -> None:
    plan = plan_fire(game, {"firer": TANK, "target": SQUAD, "weapon": "7.5cm KwK 40"})
    assert plan.procedure == "coc.gun_he" and "firer_kind" not in plan.inputs
    assert plan.inputs["crew"] >= 3 and "rounds_left" not in plan.inputs  # no three crew rule for it
    assert "4 H.E. dice at Close Range (4+), Storm of Steel, cover reduced one level" in plan.facts
    res = resolve("coc.gun_he", {**plan.inputs, "cover": "hard"}, ScriptedDice([6, 4, 1, 1, 1, 1, 1, 1]))
    assert [label for label, _ in res.rolls] == ["H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.values["cover"] == "light"
