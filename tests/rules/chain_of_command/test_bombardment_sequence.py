"""A bombardment acts in its own side's Phase, once a Phase; a ranging shot is repeated only on later Phases.

"Repeat on subsequent Phases with a +1", "Any remaining rounds will be fired
when activated in subsequent Phases", "When the Forward Observer is next
activated, ... call for Fire for Effect": the clock (Turn, Phase, whose Phase)
decides what the Forward Observer may do, and each refusal is a sentence.
"""

from __future__ import annotations

import json

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.effects import SetClock
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.sequence import SequenceRefusal

BRITISH, GERMAN = 0, 1


def table() -> Game:
    game = Game(sides=[Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)])
    game.settings = {"storm_of_steel_per_six": 1, "storm_of_steel_chains": False}
    game.units["a"] = Unit("a", "1 Gruppe", "section", GERMAN, 20.0, 20.0, figures=8, figures_max=10)
    return game


def apply(game: Game, effects: list[Effect]) -> list[Effect]:
    return game.apply_all(effects)


def clock(game: Game, turn: int, phase: int, side: int) -> None:
    apply(game, [SetClock(turn, phase, side)])


def ranging(game: Game) -> None:
    apply(game, bm.new_bombardment(game, BRITISH, (5.0, 5.0), (20.0, 20.0), phases=4))


def begun(game: Game) -> None:
    """On target with the first shot, the hidden die placed (Rolling 9" right): ready to fire this Phase."""
    ranging(game)
    apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1"), ScriptedDice([4, 4])).effects)
    apply(game, bm.place_pattern_die(game, "b1", 5, "right"))


def fire(game: Game, activation: str) -> list[Effect]:
    res = resolve("coc.bombardment_phase", phase_inputs(game, "b1", activation), ScriptedDice([1] * 6))
    return apply(game, res.effects)


def test_a_second_phase_of_fire_in_the_same_phase_is_refused_and_nothing_moves_or_is_revealed() -> None:
    game = table()
    begun(game)
    fire(game, "begun")
    b = game.bombardments["b1"]
    assert b.last_fired == PhaseStamp(1, 1)
    before = savefile.dumps(game)
    with pytest.raises(SequenceRefusal) as err:
        phase_inputs(game, "b1", "command_die")
    assert str(err.value) == ("British mortars, first barrage has already fired this Phase (Turn 1, Phase 1): a "
                              "bombardment fires once a Phase, next in a later British Phase.")
    # the procedure itself refuses the same inputs built a moment earlier
    clock(game, 1, 3, BRITISH)
    stale = {**phase_inputs(game, "b1", "command_die"), "turn": 1, "phase": 1}
    clock(game, 1, 1, BRITISH)
    with pytest.raises(RulesInputError) as err:
        resolve("coc.bombardment_phase", stale, ScriptedDice([1] * 6))
    assert err.value.field == "last_fire_phase"
    assert str(err.value) == ("It has already fired this Phase (Turn 1, Phase 1); a bombardment fires once a Phase, "
                              "next in a later Phase of its side.")
    with pytest.raises(RulesInputError, match="already fired this Phase"):
        odds("coc.bombardment_phase", stale)
    assert savefile.dumps(game) == before
    assert (b.revealed, b.centre, b.phases_fired) == (False, (20.0, 20.0), 1)


def test_contact_lost_is_no_way_round_it() -> None:
    game = table()
    begun(game)
    fire(game, "begun")
    with pytest.raises(SequenceRefusal, match="already fired this Phase"):
        phase_inputs(game, "b1", "none")


def test_a_bombardment_fires_only_in_its_own_sides_phase() -> None:
    game = table()
    begun(game)
    fire(game, "begun")
    clock(game, 1, 2, GERMAN)
    with pytest.raises(SequenceRefusal) as err:
        phase_inputs(game, "b1", "command_die")
    assert str(err.value) == "It is the German Phase: British mortars, first barrage acts only in a British Phase."
    clock(game, 1, 3, BRITISH)
    inputs = phase_inputs(game, "b1", "command_die")
    assert (inputs["active_side"], inputs["last_fire_turn"], inputs["last_fire_phase"]) == (BRITISH, 1, 1)
    with pytest.raises(RulesInputError) as err:
        resolve("coc.bombardment_phase", {**inputs, "active_side": GERMAN}, ScriptedDice([1] * 6))
    assert err.value.field == "active_side"
    assert str(err.value) == ("A bombardment is activated only in its own side's Phase, and this is the other "
                              "side's Phase.")
    fire(game, "command_die")
    b = game.bombardments["b1"]
    assert (b.phases_fired, b.revealed, b.centre, b.last_fired) == (2, True, (29.0, 20.0), PhaseStamp(1, 3))


def test_the_next_turn_is_a_later_phase_and_a_clock_gone_back_is_refused() -> None:
    game = table()
    begun(game)
    clock(game, 1, 3, BRITISH)
    fire(game, "begun")
    clock(game, 2, 1, BRITISH)
    assert bm.waiting(game, game.bombardments["b1"]) is None
    clock(game, 1, 1, BRITISH)
    with pytest.raises(RulesInputError, match=r"fired in Turn 1, Phase 3, after this Phase \(Turn 1, Phase 1\)"):
        resolve("coc.bombardment_phase", {**phase_inputs(game, "b1", "command_die")}, ScriptedDice([1] * 6))


def test_undoing_a_phase_of_fire_lets_it_fire_again() -> None:
    game = table()
    begun(game)
    before = savefile.dumps(game)
    inverses = fire(game, "begun")
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before and game.bombardments["b1"].last_fired is None
    assert phase_inputs(game, "b1", "begun")["activation"] == "begun"


def test_a_second_ranging_shot_in_one_phase_is_refused_and_the_plus_one_waits_for_a_later_phase() -> None:
    game = table()
    ranging(game)
    b = game.bombardments["b1"]
    first = bm.ranging_inputs(game, "b1")
    res = resolve("coc.ranging_shot", first, ScriptedDice([1, 2]))
    apply(game, res.effects)
    assert (res.outcome, b.unobserved_attempts, b.last_ranged) == ("unobserved", 1, PhaseStamp(1, 1))
    assert bm.next_action(b).text == "Range (+1)"
    wait = bm.waiting(game, b)
    assert wait is not None and wait.short == "Ranged this Phase: again in a later Phase with +1"
    with pytest.raises(SequenceRefusal) as err:
        bm.ranging_inputs(game, "b1")
    assert str(err.value) == ("British mortars, first barrage has already taken a ranging shot this Phase (Turn 1, "
                              "Phase 1): an unobserved shot is repeated on a later British Phase.")
    # the same shot again in this Phase, +1 and all, is refused by the procedure too
    again = {**first, "unobserved_attempts": 1, "last_ranging_turn": 1, "last_ranging_phase": 1}
    with pytest.raises(RulesInputError) as err:
        resolve("coc.ranging_shot", again, ScriptedDice([2, 2]))
    assert err.value.field == "last_ranging_phase"
    assert str(err.value) == ("It took a ranging shot this Phase (Turn 1, Phase 1); an unobserved shot is repeated on "
                              "a later Phase.")

    clock(game, 1, 2, GERMAN)
    with pytest.raises(SequenceRefusal, match="It is the German Phase: British mortars, first barrage acts only in a "
                                              "British Phase."):
        bm.ranging_inputs(game, "b1")
    with pytest.raises(RulesInputError, match="A Forward Observer ranges only in its own side's Phase"):
        resolve("coc.ranging_shot", {**again, "turn": 1, "phase": 2, "active_side": GERMAN}, ScriptedDice([2, 2]))

    clock(game, 1, 3, BRITISH)
    res = resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1"), ScriptedDice([1, 2]))
    assert (res.values["natural"], res.values["modifier"], res.values["roll"], res.outcome) == (3, 1, 4, "unobserved")
    apply(game, res.effects)
    assert (b.unobserved_attempts, b.last_ranged) == (2, PhaseStamp(1, 3))


def test_undoing_a_ranging_shot_lets_it_range_again_this_phase() -> None:
    game = table()
    ranging(game)
    before = savefile.dumps(game)
    inverses = apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1"), ScriptedDice([1, 2])).effects)
    for inverse in reversed(inverses):
        game.apply(inverse)
    b = game.bombardments["b1"]
    assert savefile.dumps(game) == before and (b.last_ranged, b.unobserved_attempts) == (None, 0)
    assert bm.waiting(game, b) is None and bm.ranging_inputs(game, "b1")["unobserved_attempts"] == 0


def test_fire_for_effect_or_re_aiming_waits_for_the_next_activation() -> None:
    game = table()
    ranging(game)
    apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1", 90.0), ScriptedDice([3, 3, 1, 1, 1])).effects)
    b = game.bombardments["b1"]
    assert b.state == "landed"
    wait = bm.waiting(game, b)
    assert wait is not None and wait.short == "The shot landed this Phase: fire for effect or re-aim in a later Phase"
    for step in (lambda: bm.fire_for_effect(game, "b1"), lambda: bm.re_aim(game, "b1", (30.0, 30.0))):
        with pytest.raises(SequenceRefusal, match="calls for fire for effect or re-aims when next activated"):
            step()
    clock(game, 1, 2, GERMAN)
    with pytest.raises(SequenceRefusal, match="It is the German Phase"):
        bm.fire_for_effect(game, "b1")
    clock(game, 1, 3, BRITISH)
    apply(game, bm.fire_for_effect(game, "b1"))
    assert b.state == "ready" and bm.waiting(game, b) is None


def test_what_the_panel_is_told_while_it_waits() -> None:
    game = table()
    begun(game)
    b = game.bombardments["b1"]
    assert bm.waiting(game, b) is None
    fire(game, "begun")
    assert bm.waiting(game, b) == bm.Waiting(
        "Fired this Phase", "British mortars, first barrage has already fired this Phase (Turn 1, Phase 1): a "
                            "bombardment fires once a Phase, next in a later British Phase.")
    clock(game, 1, 2, GERMAN)
    wait = bm.waiting(game, b)
    assert wait is not None and wait.short == "Waits for the British Phase"
    clock(game, 1, 3, BRITISH)
    assert bm.waiting(game, b) is None


def test_the_save_file_keeps_the_last_phases_and_older_files_read_them_from_the_history() -> None:
    game = table()
    ranging(game)
    apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1"), ScriptedDice([4, 4])).effects)
    apply(game, bm.place_pattern_die(game, "b1", 2))
    clock(game, 1, 3, BRITISH)
    fire(game, "begun")
    doc = json.loads(savefile.dumps(game))
    saved = doc["game"]["bombardments"][0]
    assert (saved["last_fired"], saved["last_ranged"]) == ({"turn": 1, "phase": 3}, {"turn": 1, "phase": 1})
    assert savefile.loads(savefile.dumps(game)) == game

    del saved["last_fired"], saved["last_ranged"]
    older = savefile.loads(json.dumps(doc).encode())
    b = older.bombardments["b1"]
    assert (b.last_fired, b.last_ranged) == (PhaseStamp(1, 3), PhaseStamp(1, 1))
    saved["history"] = [e for e in saved["history"] if e["kind"] not in ("fire", "ranging")]
    never = savefile.loads(json.dumps(doc).encode()).bombardments["b1"]
    assert (never.last_fired, never.last_ranged) == (None, None)

    saved["last_fired"] = {"turn": 0, "phase": 1}
    with pytest.raises(savefile.SaveFileError, match=r"bombardments\[0\]\.last_fired\.turn: must be at least 1"):
        savefile.loads(json.dumps(doc).encode())
