"""The sequence of play in the model: Command Dice held and rolled, the CoC tally, who acted, each side's agenda;
saved, read as none from older files, and undone to the same bytes."""

from __future__ import annotations

import json

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.sequence_effects import AddAgendaItem
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.model.sequence_effects import ChangeForceMorale
from battletracker.model.sequence_effects import RemoveAgendaItem
from battletracker.model.sequence_effects import SetActed
from battletracker.model.sequence_effects import SetCommandDiceCount
from battletracker.model.sequence_effects import SetCommandRoll
from battletracker.model.sequence_effects import SetHeldDice
from tests.model.sample import sample_game


def game_in_play() -> Game:
    game = sample_game()
    game.sides[1].held_dice = [1, 3]
    game.sides[1].coc_tally = 4
    game.sides[1].command_roll = CommandRoll(2, 3, [1, 3, 5, 6, 6])
    game.units["u2"].acted = PhaseStamp(2, 3)
    game.units["u4"].acted = PhaseStamp(2, 1)
    game.sides[0].agenda = [AgendaItem("a1", "force_morale_test", "sniper_killed", "Sniper killed", 2, 2),
                            AgendaItem("a3", "force_morale_test", "team_lost", "Team lost", 2, 2)]
    return game


EFFECTS: list[tuple[str, Effect]] = [
    ("held dice", SetHeldDice(1, (3,))),
    ("held dice emptied", SetHeldDice(1, ())),
    ("tally", ChangeCocTally(1, 2)),
    ("force morale", ChangeForceMorale(0, -2)),
    ("dice count", SetCommandDiceCount(0, 6)),
    ("command roll", SetCommandRoll(0, CommandRoll(2, 4, [2, 2, 4, 6, 6, 6]))),
    ("no command roll", SetCommandRoll(1, None)),
    ("acted new", SetActed("u1", PhaseStamp(2, 3))),
    ("acted again", SetActed("u2", PhaseStamp(2, 4))),
    ("ready again", SetActed("u2", None)),
    ("agenda add", AddAgendaItem(1, AgendaItem("a2", "force_morale_test", "team_lost", "x", 2, 3), 0)),
    ("agenda add first", AddAgendaItem(0, AgendaItem("a2", "force_morale_test", "team_lost", "x", 2, 3), 0)),
    ("agenda remove first", RemoveAgendaItem("a1")),
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
    (SetCommandRoll(5, CommandRoll(1, 1, [1])), "no side number 6"),
    (SetCommandRoll(0, CommandRoll(1, 1, [0])), "a die shows 1 to 6"),
    (AddAgendaItem(1, AgendaItem("a1", "force_morale_test", "x", "x", 1, 1)), "already has an item"),
    (RemoveAgendaItem("zz"), "nothing on the agenda"),
    (SetActed("nobody", PhaseStamp(1, 1)), "no unit"),
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
    for unit in doc["game"]["units"]:
        del unit["acted"]
    for side in doc["game"]["sides"]:
        for key in ("command_dice", "held_dice", "coc_tally", "command_roll", "agenda"):
            del side[key]
    game = savefile.loads(json.dumps(doc).encode())
    assert all(unit.acted is None for unit in game.units.values())
    assert [(s.command_dice, s.held_dice, s.coc_tally, s.command_roll, s.agenda) for s in game.sides] == [
        (5, [], 0, None, []), (5, [], 0, None, [])]


@pytest.mark.parametrize(("change", "message"), [
    (lambda g: g["sides"][0].update(held_dice=[0]), "held_dice"),
    (lambda g: g["sides"][1].update(command_roll={"turn": 0, "phase": 1, "faces": []}), "command_roll"),
    (lambda g: g["units"][0].update(acted={"turn": 1}), "acted"),
    (lambda g: g["sides"][1].update(agenda=[dict(g["sides"][0]["agenda"][0])]), r"sides\[1\]\.agenda\[0\].*used twice"),
])
def test_a_damaged_sequence_in_a_file_is_refused_with_its_place(change: object, message: str) -> None:
    doc = savefile.game_to_dict(game_in_play())
    change(doc["game"])  # type: ignore[operator]
    with pytest.raises(savefile.SaveFileError, match=message):
        savefile.loads(json.dumps(doc).encode())
