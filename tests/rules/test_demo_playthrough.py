"""The Chain of Command demo played for a few Phases through actions alone, without Qt: it saves and replays exactly.

The same play through the app's `Session.act` gives the same game
(tests/ui/test_demo_playthrough_session.py).
"""

from __future__ import annotations

from pathlib import Path

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import perform
from battletracker.rules.base import InputValue
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir

TIME = "2026-11-30T21:00:00"
MG, SQUAD, PANZER, SHERMAN = "u3", "u8", "u6", "u11"

PLAY: list[tuple[str, dict[str, InputValue], list[Face]]] = [
    # Germany's Command Dice: a 1 for the sMG42 team, a 3 held for the Panzer IV's commander later.
    ("coc.command_dice", {}, [1, 2, 3, 4, 5]),
    # The sMG42 bursts into 2nd Squad behind the demo's Stone wall, Hard Cover from the map: ten dice hit,
    # and of the effect dice in Hard Cover (1-4 nothing, 5 Shock, 6 a kill) the 5 and the 6 count.
    ("coc.shoot", {"firer": MG, "target": SQUAD, "activation": "dice:1"},
     [6] * 10 + [3, 4, 5, 6, 1, 1, 1, 1, 1, 1]),
    ("clock.end_phase", {}, []),
    ("coc.command_dice", {}, [1, 1, 2, 2, 5]),
    ("unit.shock", {"unit": PANZER, "delta": 1}, []),
    ("clock.end_phase", {}, []),
    ("coc.command_dice", {}, [3, 1, 1, 2, 2]),
    # The Panzer IV at the Sherman on a 3 (a vehicle with a Junior Leader in command): the rules' worked
    # example, immobilised.
    ("coc.at_fire", {"firer": PANZER, "target": SHERMAN, "weapon": "7.5cm KwK 40", "activation": "dice:3"},
     [6, 1, 1, 1, 2, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6, 4]),
    ("clock.end_phase", {}, []),
]


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def played() -> Game:
    """The demo after PLAY, each action planned, resolved with its dice and applied as one step."""
    game = demo()
    for name, choices, dice in PLAY:
        game.apply_all(perform(game, name, choices, dice, time=TIME).effects)
    return game


def test_the_demo_played_through_actions_alone_saves_and_replays(tmp_path: Path) -> None:
    game = played()
    assert [a.name for a in game.actions] == [name for name, _c, _d in PLAY]
    squad, sherman = game.unit(SQUAD), game.unit(SHERMAN)
    assert squad.figures == 11 and squad.shock == 1
    assert "10 hits, 10 sixes; effect rolled as hard" in [entry.text for entry in game.log]
    assert sherman.vehicle is not None and sherman.vehicle.damage == ["immobilised"]
    assert (game.turn, game.phase) == (1, 4)
    path = tmp_path / "demo.battle"
    savefile.save(game, path)
    loaded = savefile.load(path)
    replayed, steps = replay_steps(loaded)
    assert len(steps) == len(PLAY)
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game) == savefile.game_to_dict(loaded)
