"""Repeats the Armour Battles and Necromunda rules forbid, refused by the plans on the shipped demos, Qt-free.

Armour Battles: a Turn is a round in which each unit activates once; a close-support unit's direct or indirect
fire is its activation, and fire in the other side's activation is opportunity fire (which is neither refused for
a unit that has activated nor counted as its activation); a dispersed or out-of-play unit neither fires, observes,
fights nor is fired at. Necromunda: an Activated fighter does not shoot again this round, and a weapon Out of Ammo
(until a Reload action) or jammed (for the battle) is not fired, Template or not.
"""

from __future__ import annotations

import pytest

from battletracker.core.dice import RandomDice
from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.game import Game
from battletracker.model.sequence_effects import SetActed
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.replay import check
from battletracker.rules.sequence import acted
from battletracker.rules.tables import resources_dir

STUH = "StuH 42 (close support)"
FIRE: Choices = {"firer": "stuh", "target": "t34"}
MISSION: Choices = {"firer": "stuh", "x": 36.0, "y": 18.0}
TIME = "2026-01-01T12:00:00"


def demo(name: str) -> Game:
    return savefile.load(resources_dir() / "demo" / f"{name}.json")


def act(game: Game, name: str, choices: Choices) -> None:
    """The action taken with the app's own dice (seeded), applied as one step."""
    game.apply_all(perform(game, name, choices, rng=RandomDice(7), time=TIME).effects)


def refusal(game: Game, name: str, choices: Choices) -> str:
    with pytest.raises(RulesInputError) as refused:
        plan(name, game, choices)
    text = str(refused.value)
    assert text[:1].isupper() and text.endswith("."), text
    return text


# -- Armour Battles ----------------------------------------------------------------------------------------

def test_direct_fire_is_the_units_activation_and_a_second_fire_this_turn_is_refused() -> None:
    game = demo("armour_battles")
    before = savefile.game_to_dict(game)
    fired = perform(game, "ab.direct_fire", FIRE, rng=RandomDice(7), time=TIME)
    assert SetActed("stuh", PhaseStamp(1, 1)) in fired.effects
    inverses = game.apply_all(fired.effects)
    assert acted(game, "stuh") and not acted(game, "stuh2")
    again = (f"{STUH} has already activated this Turn (Turn 1): each unit activates once a Turn, and it is ready "
             "again when the Turn ends.")
    assert refusal(game, "ab.direct_fire", FIRE) == again
    assert refusal(game, "ab.indirect_mission", MISSION) == again
    assert plan("ab.direct_fire", game, {**FIRE, "firer": "stuh2"}).effects == (SetActed("stuh2", PhaseStamp(1, 1)),)
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.game_to_dict(game) == before


def test_end_turn_makes_the_unit_ready_to_fire_again() -> None:
    game = demo("armour_battles")
    act(game, "ab.indirect_mission", MISSION)
    assert acted(game, "stuh")
    act(game, "clock.end_turn", {})
    assert not acted(game, "stuh")
    assert plan("ab.direct_fire", game, FIRE).effects == (SetActed("stuh", PhaseStamp(2, 1)),)


def test_outside_its_sides_activation_a_unit_fires_only_as_opportunity_fire_which_is_no_activation() -> None:
    game = demo("armour_battles")
    act(game, "clock.end_phase", {})
    assert game.active_side == 1
    words = refusal(game, "ab.direct_fire", FIRE)
    assert words == (f"The side activating now is Soviet Union: {STUH} can fire now only as opportunity fire, "
                     "with a direct line of sight to the target.")
    assert refusal(game, "ab.indirect_mission", MISSION) == words
    opportunity = plan("ab.direct_fire", game, {**FIRE, "opportunity": True})
    assert opportunity.effects == ()
    act(game, "ab.direct_fire", {**FIRE, "opportunity": True})
    assert not acted(game, "stuh")
    # The target's Reaction Check is in the firer's activation, whoever's unit it is: never refused for that.
    assert plan("ab.reaction", game, {"firer": "stuh", "target": "t34", "incoming": 1}).procedure == "ab.reaction"


def test_a_unit_that_activated_may_still_use_opportunity_fire_in_the_other_sides_activation() -> None:
    """The document is silent on opportunity fire by a unit that has activated, so it is not refused."""
    game = demo("armour_battles")
    act(game, "ab.direct_fire", FIRE)
    act(game, "clock.end_phase", {})
    assert acted(game, "stuh")
    assert plan("ab.indirect_mission", game, {**MISSION, "opportunity": True}).effects == ()


@pytest.mark.parametrize(("condition", "state"), [("dispersed", "has dispersed"), ("out_of_play", "is out of play")])
def test_a_dispersed_or_out_of_play_unit_neither_fires_observes_nor_fights(condition: str, state: str) -> None:
    game = demo("armour_battles")
    act(game, "unit.condition", {"unit": "stuh", "condition": condition})
    assert refusal(game, "ab.direct_fire", FIRE) == f"{STUH} {state} and cannot fire."
    assert refusal(game, "ab.indirect_mission", MISSION) == f"{STUH} {state} and cannot fire."
    assert refusal(game, "ab.direct_fire", {**FIRE, "opportunity": True}) == f"{STUH} {state} and cannot fire."
    assert refusal(game, "ab.close_assault", FIRE) == f"{STUH} {state} and cannot fight a Close Assault."
    assert refusal(game, "ab.reaction", {"firer": "stuh", "target": "t34", "incoming": 1}) == \
        f"{STUH} {state} and cannot fire."
    observed: Choices = {**MISSION, "firer": "stuh2", "los": False, "observer": "stuh"}
    assert refusal(game, "ab.indirect_mission", observed) == f"{STUH} {state} and cannot act as Forward Observer."


def test_an_out_of_play_unit_is_not_fired_at_nor_under_the_burst() -> None:
    game = demo("armour_battles")
    act(game, "unit.condition", {"unit": "t34", "condition": "out_of_play"})
    assert refusal(game, "ab.direct_fire", FIRE) == "T34/43 is out of play."
    assert refusal(game, "ab.close_assault", FIRE) == "T34/43 is out of play."
    mission = plan("ab.indirect_mission", game, {**MISSION, "x": 35.5, "y": 19.0})
    under = [mission.inputs[f"unit{n}_id"] for n in range(1, int(mission.inputs["units"]) + 1)]
    assert "t34" not in under and "rifles" in under


def test_a_game_saved_before_fire_was_an_activation_replays_to_its_saved_state() -> None:
    game = demo("armour_battles")
    act(game, "ab.direct_fire", FIRE)
    assert check(game).ok
    game.units["stuh"].acted = None  # as the version before activations saved it: it fired twice in Turn 1
    act(game, "ab.direct_fire", FIRE)
    game.units["stuh"].acted = None
    assert len(game.actions) == 2 and check(game).ok


# -- Necromunda --------------------------------------------------------------------------------------------

SHOT: Choices = {"firer": "u11", "target": "u2", "sight": True}  # Brakk: the closest enemy, so no Cool check


def test_an_activated_fighter_is_refused_a_second_shot_this_round() -> None:
    game = demo("necromunda")
    act(game, "necro.attack", SHOT)
    assert acted(game, "u11")
    assert refusal(game, "necro.attack", SHOT) == ("Syl is Activated: it has already shot this round, and is "
                                                   "Ready again when the round ends.")
    act(game, "clock.end_turn", {})
    assert plan("necro.attack", game, SHOT).procedure == "necro.attack"


def test_an_out_of_action_fighter_neither_shoots_nor_is_shot() -> None:
    game = demo("necromunda")
    act(game, "necro.condition", {"unit": "u2", "condition": "out_of_action", "present": True})
    assert refusal(game, "necro.attack", SHOT) == "The target must be an enemy fighter still in the fight."
    assert refusal(game, "necro.attack", {"firer": "u2", "target": "u11", "sight": True}) == \
        "Brakk (Champion) is Out of Action and cannot shoot."


def test_an_out_of_ammo_profile_is_refused_by_the_plan_until_a_reload() -> None:
    game = demo("necromunda")
    game.units["u9"].weapons[0].profiles[0].state = "out_of_ammo"
    shot: Choices = {"firer": "u9", "target": "u4", "sight": True}
    assert refusal(game, "necro.attack", shot) == ("Kessa's Autopistol is Out of Ammo and cannot fire until a "
                                                   "Reload action.")
    act(game, "necro.reload", {"unit": "u9", "weapon": 0, "profile": 0})
    assert plan("necro.attack", game, shot).procedure == "necro.attack"


def test_a_jammed_template_weapon_is_refused_for_the_rest_of_the_battle() -> None:
    game = demo("necromunda")
    game.units["u11"].x, game.units["u11"].y = 25.0, 13.0  # within the Flamer's Template
    flame: Choices = {"firer": "u5", "target": "u11", "sight": True}
    assert plan("necro.attack", game, flame).inputs["template"] is True
    game.units["u5"].weapons[0].profiles[0].state = "jammed"
    assert refusal(game, "necro.attack", flame) == "Hekk's Flamer is jammed and cannot be used again this battle."
    with pytest.raises(RulesInputError):
        perform(game, "necro.attack", flame, [])
