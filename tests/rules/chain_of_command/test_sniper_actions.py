"""The sniper card's actions without dice: Spotted on and off, and contact by the enemy."""

from __future__ import annotations

import pytest

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.sniper_actions import CONTACTED
from battletracker.rules.chain_of_command.sniper_actions import SPOTTED
from battletracker.rules.presets import preset


def table() -> Game:
    p = preset("chain_of_command", "sniper_us")
    game = Game(title="Snipers", ruleset="chain_of_command", sides=[Side("A", "#111111"), Side("B", "#222222")])
    game.units["s"] = p.make("s", "Sniper", 0, 10.0, 10.0)
    game.units["r"] = Unit("r", "Rifles", "section", 1, 20.0, 20.0, figures=10, figures_max=10)
    return game


def test_spotted_goes_on_and_off_once() -> None:
    game = table()
    game.apply_all(perform(game, SPOTTED, {"unit": "s", "spotted": True}).effects)
    assert game.units["s"].has("spotted") and game.log[-1].text == "Sniper is spotted"
    with pytest.raises(Refusal, match="already spotted"):
        plan(SPOTTED, game, {"unit": "s", "spotted": True})
    game.apply_all(perform(game, SPOTTED, {"unit": "s", "spotted": False}).effects)
    assert not game.units["s"].has("spotted")


def test_contact_takes_the_sniper_away_and_only_snipers_take_these_actions() -> None:
    game = table()
    with pytest.raises(Refusal, match="Rifles is not a sniper"):
        plan(CONTACTED, game, {"unit": "r"})
    game.apply_all(perform(game, CONTACTED, {"unit": "s"}).effects)
    assert "s" not in game.units and game.actions[-1].name == CONTACTED
    assert "leaves the area (no Force Morale Test)" in game.log[-1].text
