"""A short played game of each ruleset, saved in tests/fixtures: what an installation check replays.

`packaging/check-bundle.sh` and `.ci/smoke-install` replay each with
`battletracker replay` and export its report and map with `battletracker
export`, so every ruleset's rules are loaded from the bundle and the wheel
as a player's saved game loads them. The Chain of Command game starts with a
move, Command Dice and End Phase; each game fires once. Rebuild them after a
change to the save format with `python -m tests.played_games`;
tests/rules/test_played_games.py checks they replay.
"""

from __future__ import annotations

from pathlib import Path

from battletracker.core.dice import Face
from battletracker.core.dice import RandomDice
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import perform
from battletracker.rules.base import InputValue
from battletracker.rules.tables import resources_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TIME = "2026-12-02T20:00:00"

Play = list[tuple[str, dict[str, InputValue], list[Face] | None]]

PLAYS: dict[str, Play] = {
    "chain_of_command": [
        ("unit.move", {"unit": "u8", "x": 30.0, "y": 20.0}, None),
        ("coc.command_dice", {}, [1, 2, 3, 4, 5]),
        ("clock.end_phase", {}, None),
        ("coc.command_dice", {}, [1, 1, 2, 2, 5]),
        ("clock.end_phase", {}, None),
        ("coc.command_dice", {}, [3, 1, 1, 2, 2]),
        # The Panzer IV at the Sherman on a 3: the rules' worked example, immobilised.
        ("coc.at_fire", {"firer": "u6", "target": "u11", "weapon": "7.5cm KwK 40", "activation": "dice:3"},
         [6, 1, 1, 1, 2, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6, 4]),
        ("clock.end_phase", {}, None),
    ],
    "armour_battles": [
        ("unit.move", {"unit": "stuh", "x": 20.0, "y": 30.0}, None),
        ("ab.direct_fire", {"firer": "stuh", "target": "t34"}, None),
        ("clock.end_phase", {}, None),
    ],
    "necromunda": [
        ("terrain.remove", {"piece": "t1"}, None),
        ("terrain.remove", {"piece": "t2"}, None),
        ("terrain.remove", {"piece": "t3"}, None),
        ("necro.attack", {"firer": "u1", "target": "u6"}, None),
        ("clock.end_phase", {}, None),
    ],
}


def path(ruleset: str) -> Path:
    return FIXTURES / f"played_{ruleset}.battle"


def played(ruleset: str) -> Game:
    """The ruleset's demo after its play, the dice given or else the app's own, seeded."""
    game = savefile.load(resources_dir() / "demo" / f"{ruleset}.json")
    rng = RandomDice(2026)
    for name, choices, dice in PLAYS[ruleset]:
        game.apply_all(perform(game, name, choices, dice, rng=rng, time=TIME).effects)
    return game


def main() -> None:
    for ruleset in PLAYS:
        savefile.save(played(ruleset), path(ruleset))
        print(f"wrote {path(ruleset)}")


if __name__ == "__main__":
    main()
