"""Next-phase vehicle damage at End Phase / End Turn: reminders, Halt and Engage Shock, clearing, undo."""

from __future__ import annotations

import copy

from battletracker.model.effects import Effect
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetDamage
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules.chain_of_command.vehicle_phase import in_force
from battletracker.rules.chain_of_command.vehicle_phase import vehicle_phase_effects
from battletracker.rules.clock import due_effects


def game(*damage: str, shock: int = 0, category: str = "afv") -> Game:
    g = Game(sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    g.units["t1"] = Unit("t1", "Sherman", "vehicle", 0, 10, 10, counters={"shock": shock},
                         vehicle=Vehicle(category=category, damage=sorted(damage)))
    return g


class Table:
    """A game moved on by End Phase as the app does it: due effects and the clock as one undoable step."""

    def __init__(self, g: Game) -> None:
        self.game = g
        self.undo: list[list[Effect]] = []

    def end_phase(self) -> list[str]:
        g = self.game
        nxt = (g.active_side + 1) % len(g.sides)
        before = len(g.log)
        self.undo.append(g.apply_all([*due_effects(g, False, nxt), SetClock(g.turn, g.phase + 1, nxt)]))
        return [e.text for e in g.log[before:]]

    def undo_all(self) -> None:
        while self.undo:
            for inverse in reversed(self.undo.pop()):
                inverse.apply(self.game)


def test_halt_and_engage_is_reminded_when_the_owners_phase_starts_and_costs_a_shock_if_not_done() -> None:
    g = game("halt_and_engage")
    g.active_side = 1
    table = Table(g)
    lines = table.end_phase()
    assert any("Sherman must Halt and Engage as a Compulsory Activation" in line for line in lines)
    assert g.units["t1"].has(in_force("halt_and_engage"))
    assert g.units["t1"].shock == 0
    lines = table.end_phase()
    unit = g.units["t1"]
    assert unit.shock == 1 and "halt_and_engage" not in unit.vehicle.damage  # type: ignore[union-attr]
    assert not unit.has(in_force("halt_and_engage"))
    assert "Sherman did not halt and engage the firer: +1 Shock, 1 in all" in lines


def test_halt_and_engage_cleared_on_the_card_costs_nothing() -> None:
    g = game("halt_and_engage")
    g.active_side = 1
    table = Table(g)
    table.end_phase()
    g.apply(SetDamage("t1", "halt_and_engage", False))
    table.end_phase()
    assert g.units["t1"].shock == 0 and not g.units["t1"].conditions


def test_an_immobilised_afv_takes_the_shock_doubled_and_is_abandoned_at_four() -> None:
    g = game("halt_and_engage", "immobilised", shock=2)
    g.active_side = 1
    table = Table(g)
    table.end_phase()
    lines = table.end_phase()
    assert g.units["t1"].shock == 4 and g.units["t1"].has("abandoned")
    assert "Sherman did not halt and engage the firer: +2 Shock (doubled: it is immobilised), 4 in all; the crew " \
           "abandon it" in lines


def test_commander_stunned_and_mg_suppressed_are_reminded_then_cleared_at_the_end_of_that_phase() -> None:
    g = game("commander_stunned", "mg_suppressed", category="apc")
    g.active_side = 1
    table = Table(g)
    lines = table.end_phase()
    assert "Next Phase: Sherman - Commander Stunned: The commander cannot activate in the next active Phase" in lines
    assert "Next Phase: Sherman - MG Suppressed: May not fire any MGs in its next Phase of activation" in lines
    lines = table.end_phase()
    unit = g.units["t1"]
    assert unit.vehicle is not None and unit.vehicle.damage == [] and unit.conditions == [] and unit.shock == 0
    assert "Sherman: Commander Stunned is over" in lines and "Sherman: MG Suppressed is over" in lines


def test_a_result_taken_in_the_owners_own_phase_lasts_through_its_next_phase() -> None:
    g = game("commander_stunned")
    g.active_side = 0
    table = Table(g)
    assert table.end_phase() == []
    assert g.units["t1"].vehicle.damage == ["commander_stunned"]  # type: ignore[union-attr]
    table.end_phase()
    assert g.units["t1"].has(in_force("commander_stunned"))
    table.end_phase()
    assert g.units["t1"].vehicle.damage == []  # type: ignore[union-attr]


def test_only_the_vehicles_of_the_side_whose_phase_comes_next_are_reminded() -> None:
    g = game("commander_stunned")
    g.units["t1"].side = 1
    assert vehicle_phase_effects(g, 0) == []
    assert len(due_effects(g, True, 1)) >= 2


def test_end_phase_then_undo_leaves_the_game_exactly_as_before() -> None:
    g = game("halt_and_engage", "immobilised", shock=3)
    g.active_side = 1
    before = copy.deepcopy(g)
    table = Table(g)
    table.end_phase()
    table.end_phase()
    assert g.units["t1"].has("abandoned")
    table.undo_all()
    assert g == before
