"""What the players across the table may see: the game with the rules' secrets taken out.

The laptop shows its owner everything; a TV beside the table or a projector
above it shows both sides. What the rules keep from the opponent never goes
there:

- Chain of Command's hidden Static/Rolling die (`Bombardment.pattern_die`),
  and with it the rolling edge and the number of rolling moves it sets, until
  the second Phase of fire reveals it;
- a Chain of Command sniper not yet spotted: the enemy does not know where it
  is, so its token, its arc and anything drawn at it (a ring round it inside
  a bombardment, its name among a building's occupants) stays off.

The display draws from `public_game` alone, so a secret it was never given
cannot be drawn by any of its layers, present or future.
"""

from __future__ import annotations

from dataclasses import replace

from battletracker.model.bombardment import Bombardment
from battletracker.model.game import Game
from battletracker.rules.chain_of_command.fire import RULESET as CHAIN_OF_COMMAND
from battletracker.rules.chain_of_command.fire_plans import is_sniper
from battletracker.rules.chain_of_command.snipers import SPOTTED


def secret_units(game: Game) -> frozenset[str]:
    """The units whose place the opponent may not know: snipers not yet spotted."""
    if game.ruleset != CHAIN_OF_COMMAND:
        return frozenset()
    return frozenset(u.id for u in game.units.values() if is_sniper(u) and not u.has(SPOTTED))


def _public_bombardment(b: Bombardment) -> Bombardment:
    if b.revealed or b.pattern_die is None:
        return b
    return replace(b, pattern_die=None, direction=None, moves_left=0)


def public_game(game: Game, hidden: frozenset[str] | None = None) -> Game:
    """A copy of `game` holding nothing the rules keep from the opponent (see the module's words).

    A shallow copy: what it shares with `game` is what both may see, so it costs one pass over
    the units and the bombardments, and it is never changed (the display only draws it). `hidden`
    is `secret_units(game)` when the caller has it already. Log lines that name a secret unit stay
    out too: "Sniper moved 5 inches" would say where it went.
    """
    if hidden is None:
        hidden = secret_units(game)
    if not hidden and not any(b.pattern_die is not None and not b.revealed for b in game.bombardments.values()):
        return game
    units = {i: u for i, u in game.units.items() if i not in hidden} if hidden else game.units
    buildings = game.buildings
    if hidden and any(set(b.occupants) & hidden for b in buildings.values()):
        buildings = {i: replace(b, occupants=[u for u in b.occupants if u not in hidden]) if set(b.occupants) & hidden
                     else b for i, b in buildings.items()}
    bombardments = {i: _public_bombardment(b) for i, b in game.bombardments.items()}
    names = [game.units[i].name for i in hidden]
    log = [e for e in game.log if not any(name in e.text for name in names)] if names else game.log
    return replace(game, units=units, buildings=buildings, bombardments=bombardments, log=log)


__all__ = ["public_game", "secret_units"]
