"""A whole Medium Mortar bombardment, scripted from the first ranging shot to the last smoke clearing.

Two unobserved ranging shots (the +1s), a 3D6" deviation on a given bearing,
fire for effect on the landing point, a hidden Rolling 5 revealed on the
second Phase of fire and moving 9" three times, Pinning after the first
Phase (not in a two-storey brick house), four 6s bringing the house down at
the Turn end, a Turn end taking a Phase away, a unit left Pinned outside the
moved area until its Shock is rallied, activation failing for lack of a 1 or
a Chain of Command point, and the effects clearing at the end of that Phase.
The model is checked after every step, and undoing everything restores the
start exactly.
"""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.effects import Effect
from battletracker.model.effects import SetClock
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.phase_end import end_phase_effects
from battletracker.rules.chain_of_command.phase_end import end_turn_effects


def face(cover: str, result: str) -> int:
    """The effect die face that gives `result` in `cover` (fire.toml's defaults, whatever they are)."""
    return hit_effect_faces(cover).index(result) + 1


def start() -> Game:
    game = Game(title="Mortars at dawn", sides=[Side("British", "#3366cc", 9, 1), Side("German", "#cc3333", 8, 0)])
    game.settings = {"storm_of_steel_per_six": 1, "storm_of_steel_chains": False}
    for unit in (
        Unit("a", "1 Gruppe", "section", 1, 25.0, 20.0, figures=8, figures_max=10),
        Unit("b", "2 Gruppe", "section", 1, 36.0, 22.0, figures=8, figures_max=10),
        Unit("c", "3 Gruppe", "section", 1, 45.0, 18.0, figures=7, figures_max=10),
        Unit("tank", "Panzer IV", "vehicle", 1, 31.0, 25.0, figures=5, figures_max=5,
             vehicle=Vehicle("afv", {"front": 5, "side": 3, "rear": 2, "top": 1})),
        Unit("d", "Panzerschreck", "team", 1, 60.0, 22.0, figures=2, figures_max=2),
        Unit("brit", "1 Section", "section", 0, 5.0, 40.0, figures=10, figures_max=10),
    ):
        game.units[unit.id] = unit
    game.buildings["bld1"] = Building("bld1", "Farmhouse", 36.0, 22.0, 6.0, 4.0, 0.0, "brick_stone", 2, ["b"])
    return game


class Table:
    """The game and everything applied to it, so the test can undo it all."""

    def __init__(self) -> None:
        self.game = start()
        self.undo: list[list[Effect]] = []

    def apply(self, effects: list[Effect]) -> None:
        self.undo.append(self.game.apply_all(effects))

    def run(self, name: str, inputs: dict[str, object], dice: list[int]) -> Resolution:
        scripted = ScriptedDice(dice)
        res = resolve(name, inputs, scripted)  # type: ignore[arg-type]
        assert scripted.remaining == 0, f"{name} left {scripted.remaining} dice unused"
        self.apply(res.effects)
        return res

    def end_phase(self, turn: int, phase: int, side: int, turn_ends: bool = False) -> None:
        """The End Phase (or End Turn) button: what is due, then the clock, as one step."""
        due = end_turn_effects(self.game, side) if turn_ends else end_phase_effects(self.game, side)
        self.apply([*due, SetClock(turn, phase, side)])

    def log_since(self, count: int) -> list[str]:
        return [e.text for e in self.game.log[count:]]


def test_a_whole_bombardment_from_ranging_to_the_last_smoke() -> None:
    t = Table()
    g = t.game
    original = savefile.dumps(g)

    # Turn 1, British Phase: the Forward Observer is placed, aiming at (20, 20) with six Phases of fire.
    t.apply(bm.new_bombardment(g, 0, (5.0, 5.0), (20.0, 20.0), phases=6))
    b = g.bombardments["b1"]
    assert (b.state, b.phases_left, b.observer_id, b.centre) == ("ranging", 6, "fo1", (20.0, 20.0))
    assert g.markers["fo1"].kind == "forward_observer" and g.markers["fo1"].data == {"bombardment": "b1"}
    assert bm.next_action(b).key == "range"

    # First ranging shot: 1 + 2 = 3, unobserved.
    res = t.run("coc.ranging_shot", bm.ranging_inputs(g, "b1"), [1, 2])
    assert res.outcome == "unobserved" and b.unobserved_attempts == 1 and b.state == "ranging"
    t.end_phase(1, 2, 1)
    count = len(g.log)
    t.end_phase(1, 3, 0)
    assert "Next Phase: British mortars, first barrage ranges again with +1" in t.log_since(count)

    # Second: 2 + 1 + 1 = 4, unobserved again.
    res = t.run("coc.ranging_shot", bm.ranging_inputs(g, "b1"), [2, 1])
    assert res.outcome == "unobserved" and res.values["roll"] == 4 and b.unobserved_attempts == 2
    t.end_phase(1, 4, 1)
    t.end_phase(1, 5, 0)
    assert b.phases_left == 6, "ranging uses no Phases of fire"

    # Third: 2 + 2 + 2 = 6, deviates 3D6 = 9" on a bearing of 90: lands at (29, 20).
    res = t.run("coc.ranging_shot", bm.ranging_inputs(g, "b1", bearing=90.0), [2, 2, 2, 3, 4])
    assert res.outcome == "deviates" and res.values["distance"] == 9.0
    assert (b.state, b.landed_x, b.landed_y) == ("landed", 29.0, 20.0)
    assert (b.history[-1].from_x, b.history[-1].x) == (20.0, 29.0)
    t.end_phase(1, 6, 1)
    t.end_phase(1, 7, 0)

    # Next activation: fire for effect on the landing point; the owner places the hidden die: 5, rolling right.
    t.apply(bm.fire_for_effect(g, "b1"))
    assert (b.state, b.centre, b.landed_x) == ("ready", (29.0, 20.0), None)
    assert bm.next_action(b).key == "place_pattern_die"
    t.apply(bm.place_pattern_die(g, "b1", 5, "right"))
    assert (b.pattern_die, b.direction, b.moves_left, b.revealed) == (5, "right", 3, False)
    assert b.pattern_visible_to(0) and not b.pattern_visible_to(1)
    assert "5" not in g.log[-1].text
    assert bm.future_centres(b) == [(38.0, 20.0), (47.0, 20.0), (56.0, 20.0)]

    # Phase of fire 1 at (29, 20): 1 Gruppe in the open, 2 Gruppe in the farmhouse, the Panzer IV.
    inputs = phase_inputs(g, "b1", "begun", covers={"b": "hard"})
    assert [inputs[f"target{i}_id"] for i in range(1, inputs["targets"] + 1)] == ["a", "b", "tank"]  # type: ignore[operator]
    res = t.run("coc.bombardment_phase", inputs, [
        1, 2, 3, 4, 5, 5, face("open", "kill"), face("open", "shock"), face("open", "kill"),   # 1 Gruppe
        1, 1, 2, 3, 3, 4, face("hard", "shock"),                                               # 2 Gruppe
        6, 2, 3,                                                                               # Panzer IV
    ])
    assert res.outcome == "kills=2 unstable=0" and res.values["vehicle_shock"] == 1
    assert (g.units["a"].figures, g.units["a"].shock, g.units["b"].shock, g.units["tank"].shock) == (6, 1, 1, 1)
    assert g.units["a"].has("pinned") and not g.units["b"].has("pinned") and not g.units["tank"].has("pinned")
    assert (b.state, b.phases_left, b.phases_fired, b.pinned, b.revealed) == ("firing", 5, 1, ["a"], False)
    assert "pattern_die" not in res.values
    assert bm.fire_refusal(g, "brit", "a") is not None and bm.fire_refusal(g, "brit", "c") is None
    assert bm.move_refusal(g, "b") is not None
    t.end_phase(1, 8, 1)
    count = len(g.log)
    t.end_phase(1, 9, 0)
    assert any(line.startswith("Next Phase: British mortars, first barrage must be activated")
               for line in t.log_since(count))

    # Phase of fire 2, a Command Dice 1: the die is revealed, the area moves 9" right to (38, 20).
    inputs = phase_inputs(g, "b1", "command_die", covers={"b": "hard"})
    assert [inputs[f"target{i}_id"] for i in (1, 2, 3)] == ["b", "c", "tank"] and inputs["targets"] == 3
    res = t.run("coc.bombardment_phase", inputs, [
        6, 6, 6, 6, 2, 1, 1, 1, 1, 1, face("hard", "none"), face("hard", "none"), face("hard", "none"),
        face("hard", "none"),                                                                  # 2 Gruppe: four 6s
        1, 1, 1, 1, 1, 1,                                                                      # 3 Gruppe
        1, 1,                                                                                  # Panzer IV
    ])
    assert res.outcome == "kills=0 unstable=1" and res.values["vehicle_shock"] == 0
    assert res.values["pattern_die"] == 5 and "The hidden die is revealed: 5: Rolling 9\" per move, right" in res.log
    assert (b.centre, b.revealed, b.moves_left, b.phases_left, b.phases_fired) == ((38.0, 20.0), True, 2, 4, 2)
    assert b.pattern_visible_to(1)
    assert g.buildings["bld1"].state == "unstable"
    assert b.pinned == ["a", "c"] and g.units["c"].has("pinned")
    assert g.units["a"].has("pinned"), "left behind with Shock: still Pinned"

    # The Turn ends: one Phase of fire is lost, and the unstable farmhouse collapses into smoke.
    count = len(g.log)
    t.end_phase(2, 1, 1, turn_ends=True)
    assert b.phases_left == 3 and b.history[-1].kind == "turn_end"
    assert g.buildings["bld1"].state == "collapsed" and g.buildings["bld1"].occupants == []
    (smoke,) = g.smoke.values()
    assert (smoke.centre, smoke.width, smoke.depth, smoke.to_hit) == ((36.0, 22.0), 6.0, 4.0, -1)
    assert any("2 Gruppe: caught in the collapse" in line for line in t.log_since(count))
    assert g.units["a"].has("pinned")

    # German Phase: 1 Gruppe rallies its Shock, and at the end of the Phase it is no longer Pinned.
    t.apply([add_shock("a", -1)])
    t.end_phase(2, 2, 0)
    assert not g.units["a"].has("pinned") and b.pinned == ["c"]

    # Phase of fire 3: no 1, so a Chain of Command point (the side's one die is broken into its six points, one
    # spent); it moves to (47, 20). 3 Gruppe is Pinned: Light, not Open.
    inputs = phase_inputs(g, "b1", "coc_point")
    assert (inputs["targets"], inputs["target1_id"], inputs["target1_cover"], inputs["target1_pinned"]) == (
        1, "c", "open", True)
    res = t.run("coc.bombardment_phase", inputs, [5, 5, 1, 1, 1, 1, face("light", "kill"), face("light", "none")])
    assert res.outcome == "kills=1"
    assert (g.sides[0].coc_points, g.sides[0].coc_tally) == (0, 5) and g.units["c"].figures == 6
    assert (b.centre, b.phases_left, b.moves_left) == ((47.0, 20.0), 2, 1)
    t.end_phase(2, 3, 1)
    t.end_phase(2, 4, 0)

    # Phase of fire 4, a Command Dice 1: the third and last move, to (56, 20). The Panzerschreck team is hit.
    inputs = phase_inputs(g, "b1", "command_die")
    assert (inputs["targets"], inputs["target1_id"]) == (1, "d")
    res = t.run("coc.bombardment_phase", inputs, [1, 2, 3, 4, 4, 6, 2] + [face("open", "shock")] * 3)
    assert res.outcome == "kills=0" and g.units["d"].shock == 3
    assert (b.centre, b.phases_left, b.moves_left, b.pinned) == ((56.0, 20.0), 1, 0, ["c", "d"])
    assert bm.future_centres(b) == []
    t.end_phase(2, 5, 1)
    assert b.pinned == ["d"] and not g.units["c"].has("pinned"), "3 Gruppe, outside with no Shock, is released"
    t.end_phase(2, 6, 0)

    # Next British Phase: the five points left have gone elsewhere; no Command Dice 1 and no Chain of Command point.
    t.apply([ChangeCocTally(0, -5)])
    with pytest.raises(RulesInputError, match=r"British has no Chain of Command point \(0 dice, 0 points of 6\)"):
        resolve("coc.bombardment_phase", phase_inputs(g, "b1", "coc_point"), ScriptedDice([]))
    res = t.run("coc.bombardment_phase", phase_inputs(g, "b1", "none"), [])
    assert res.outcome == "contact_lost"
    assert (b.state, b.linger_phases, b.observer_id, b.phases_left) == ("lingering", 1, "", 1)
    assert "fo1" not in g.markers
    assert g.units["d"].has("pinned") and bm.fire_refusal(g, "brit", "d") is not None

    # Its effects end with this Phase.
    t.end_phase(2, 7, 1)
    assert (b.state, b.pinned) == ("cleared", []) and not g.units["d"].has("pinned")
    assert bm.fire_refusal(g, "brit", "d") is None and bm.next_action(b).key == "none"

    # The farmhouse's smoke clears at the Turn end.
    t.end_phase(3, 1, 0, turn_ends=True)
    assert g.smoke == {}

    # Undo everything.
    for inverses in reversed(t.undo):
        for inverse in reversed(inverses):
            g.apply(inverse)
    assert g == start()
    assert savefile.dumps(g) == original
