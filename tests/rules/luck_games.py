"""Long games played through `perform` with the app's own seeded dice (or loaded dice), for the dice luck tests.

Each Phase the side whose Phase it is rolls its Command Dice (Chain of
Command), then every one of its units tries each attack at each enemy unit;
whatever the rules refuse is skipped, and a choice the rules ask for takes
the first option offered. Then the Phase ends.
"""

from __future__ import annotations

from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import perform
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputValue
from battletracker.rules.base import RulesInputError
from battletracker.rules.tables import resources_dir

ATTACKS = {
    "chain_of_command": ("coc.shoot", "coc.at_fire", "coc.at_grenade"),
    "armour_battles": ("ab.direct_fire", "ab.close_assault"),
    "necromunda": ("necro.attack",),
}
TIME = "2026-12-02T20:00:00"


class Loaded:
    """Dice that always show their highest face (`high`) or their lowest."""

    def __init__(self, high: bool) -> None:
        self.high = high

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        face = die.faces[-1] if self.high else die.faces[0]
        return (face,) * count


def _try(game: Game, name: str, choices: dict[str, InputValue], dice: Dice) -> bool:
    for _ in range(8):
        try:
            result = perform(game, name, choices, None, rng=dice, time=TIME)
        except ChoiceNeeded as asked:
            choices = {**choices, asked.field: asked.options[0][0]}
            continue
        except RulesInputError:
            return False
        game.apply_all(result.effects)
        return True
    return False


def play(ruleset: str, dice: Dice, phases: int) -> Game:
    """The ruleset's demo played for `phases` Phases with `dice`."""
    game = savefile.load(resources_dir() / "demo" / f"{ruleset}.json")
    for _ in range(phases):
        if ruleset == "chain_of_command":
            _try(game, "coc.command_dice", {}, dice)
        side = game.active_side
        for firer in [u.id for u in game.units.values() if u.side == side]:
            for target in [u.id for u in game.units.values() if u.side != side]:
                for name in ATTACKS[ruleset]:
                    if firer in game.units and target in game.units:
                        _try(game, name, {"firer": firer, "target": target}, dice)
        _try(game, "clock.end_phase", {}, dice)
    return game
