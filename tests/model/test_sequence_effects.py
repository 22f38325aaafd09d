"""The sequence of play in the model: Command Dice held, the CoC tally, who acted, the agenda; saved and undone."""

from __future__ import annotations

import json

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.game import AgendaItem, CommandRoll, Game, GameError
from battletracker.model.sequence_effects import (
    AddAgendaItem,
    ChangeCocTally,
    ChangeForceMorale,
    RemoveAgendaItem,
    SetActed,
    SetAllActed,
    SetCommandDiceCount,
    SetCommandRoll,
    SetHeldDice,
)
from tests.model.sample import sample_game


def game_in_play() -> Game:
    game = sample_game()
    game.sides[1].held_dice = [1, 3]
    game.sides[1].coc_tally = 4
    game.command_roll = CommandRoll(1, 2, 3, [1, 3, 5, 6, 6])
    game.acted = {"u2": PhaseStamp(2, 3), "u4": PhaseStamp(2, 1)}
    game.agenda = [AgendaItem("a1", "force_morale_test", 0, "sniper_killed", "Sniper killed", 2, 2)]
    return game


EFFECTS: list[tuple[str, Effect]] = [
    ("held dice", SetHeldDice(1, (3,))),
    ("held dice emptied", SetHeldDice(1, ())),
    ("tally", ChangeCocTally(1, 2)),
    ("force morale", ChangeForceMorale(0, -2)),
    ("dice count", SetCommandDiceCount(0, 6)),
    ("command roll", SetCommandRoll(CommandRoll(0, 2, 4, [2, 2, 4, 6, 6, 6]))),
    ("no command roll", SetCommandRoll(None)),
    ("acted new", SetActed("u1", PhaseStamp(2, 3))),
    ("acted again", SetActed("u2", PhaseStamp(2, 4))),
    ("acted forgotten", SetActed("u2", None)),
    ("everybody ready", SetAllActed()),
    ("agenda add", AddAgendaItem(AgendaItem("a2", "force_morale_test", 1, "team_lost", "x", 2, 3), 0)),
    ("agenda remove", RemoveAgendaItem("a1")),
]


@pytest.mark.parametrize(("what", "effect"), EFFECTS, ids=[w for w, _ in EFFECTS])
def test_each_sequence_effect_is_undone_to_the_same_saved_bytes(what: str, effect: Effect) -> None:
    game = game_in_play()
    before = savefile.dumps(game)
    inverse = game.apply(effect)
    after = savefile.dumps(game)
    assert after != before
    assert savefile.dumps(savefile.loads(after)) == after
    game.apply(inverse)
    assert savefile.dumps(game) == before


REFUSED: list[tuple[Effect, str]] = [
    (SetHeldDice(0, (7,)), "a die shows 1 to 6"),
    (ChangeCocTally(1, -5), "cannot take 5"),
    (ChangeForceMorale(0, -10), "cannot fall by 10"),
    (SetCommandDiceCount(0, 0), "1 to 12 Command Dice"),
    (SetCommandRoll(CommandRoll(5, 1, 1, [1])), "no side number 6"),
    (AddAgendaItem(AgendaItem("a1", "force_morale_test", 0, "x", "x", 1, 1)), "already has an item"),
    (RemoveAgendaItem("zz"), "nothing on the agenda"),
    (SetAllActed((("u1", PhaseStamp(1, 1)), ("u1", PhaseStamp(1, 2)))), "listed once"),
]


@pytest.mark.parametrize(("effect", "message"), REFUSED)
def test_refused_sequence_effects_change_nothing(effect: Effect, message: str) -> None:
    game = game_in_play()
    before = savefile.dumps(game)
    with pytest.raises(GameError, match=message):
        game.apply(effect)
    assert savefile.dumps(game) == before


def test_a_file_written_before_the_sequence_was_kept_loads_with_none() -> None:
    doc = savefile.game_to_dict(sample_game())
    for key in ("command_roll", "acted", "agenda"):
        del doc["game"][key]
    for side in doc["game"]["sides"]:
        for key in ("command_dice", "held_dice", "coc_tally"):
            del side[key]
    game = savefile.loads(json.dumps(doc).encode())
    assert game.command_roll is None and game.acted == {} and game.agenda == []
    assert [(s.command_dice, s.held_dice, s.coc_tally) for s in game.sides] == [(5, [], 0), (5, [], 0)]


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: g["sides"][0].update(held_dice=[0]), "held_dice"),
    (lambda g: g.update(command_roll={"side": 4, "turn": 1, "phase": 1, "faces": []}), "no side number 5"),
    (lambda g: g.update(acted=[{"id": "u1", "turn": 1, "phase": 1}] * 2), "listed twice"),
    (lambda g: g["agenda"].append(dict(g["agenda"][0])), "used twice"),
])
def test_a_damaged_sequence_in_a_file_is_refused_with_its_place(change: object, message: str) -> None:
    doc = savefile.game_to_dict(game_in_play())
    change(doc["game"])  # type: ignore[operator]
    with pytest.raises(savefile.SaveFileError, match=message):
        savefile.loads(json.dumps(doc).encode())
