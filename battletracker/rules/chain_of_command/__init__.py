"""Chain of Command: anti-tank fire, support weapons, bombardments and buildings.

Importing the package registers every procedure and what falls due at the end
of a Phase or Turn.
"""

from battletracker.rules.chain_of_command import (  # noqa: F401
    activation,
    anti_tank,
    bombardment_actions,
    bombardment_phase,
    command_dice,
    fire,
    flamethrowers,
    force_morale,
    grenades_into_vehicles,
    guns,
    machine_guns,
    morale_events,
    phase_end,
    ranging,
    reverse,
    shot_actions,
    sniper_actions,
    snipers,
    sos_fire,
    vehicle_phase,
)
from battletracker.rules.chain_of_command.bombardment import edit_refusal
from battletracker.rules.clock import on_clock
from battletracker.rules.edit_checks import on_edit

on_clock(lambda game, turn_end, next_side: (phase_end.end_turn_effects if turn_end else phase_end.end_phase_effects)(
    game, next_side))
on_clock(lambda game, _turn_end, next_side: vehicle_phase.vehicle_phase_effects(game, next_side))
on_clock(command_dice.held_at_phase_end)
on_edit(edit_refusal)
