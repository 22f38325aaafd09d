"""Chain of Command: anti-tank fire, support weapons, bombardments and buildings.

Importing the package imports every module of it, which registers every
procedure; then what falls due at the end of a Phase or Turn, in this order.
"""

from battletracker.rules import import_modules
from battletracker.rules.chain_of_command import command_dice
from battletracker.rules.chain_of_command import phase_end
from battletracker.rules.chain_of_command import vehicle_phase
from battletracker.rules.chain_of_command.bombardment import edit_refusal
from battletracker.rules.clock import on_clock
from battletracker.rules.edit_checks import on_edit

import_modules(__name__, __path__)

on_clock(lambda game, turn_end, next_side: (phase_end.end_turn_effects if turn_end else phase_end.end_phase_effects)(
    game, next_side))
on_clock(lambda game, _turn_end, next_side: vehicle_phase.vehicle_phase_effects(game, next_side))
on_clock(command_dice.held_at_phase_end)
on_edit(edit_refusal)
