"""A state machine over the steps a table takes: a refused step changes nothing, undo-all gives back the start.

Steps are applied as the session applies them (checked first, then one
effect at a time, a unit's removal completed by `with_references_cleared`), and
any step may carry a change the game refuses at its end, as a slip of the
player's hand would. After every step the saved bytes are compared: a refused
step must leave them unchanged. At the end every step is undone and the file
must be the one the game started as. The start holds references to a unit
"ghost" that an older version left behind when it removed a unit.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine
from hypothesis.stateful import invariant
from hypothesis.stateful import precondition
from hypothesis.stateful import rule

from battletracker.model import savefile
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetOccupant
from battletracker.model.effects import AddUnit
from battletracker.model.effects import AppendLog
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetUnitStat
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.game import Unit
from battletracker.model.references import EMBARKED_IN
from battletracker.model.references import with_references_cleared
from battletracker.rules.clock import due_effects
from tests.model.test_exact_undo import full_game

UNIT_IDS = st.sampled_from(["u1", "u2", "u3", "u4", "u5", "u6", "u7", "ghost"])
BOMBARDMENTS = st.sampled_from(["b1", "sos1", "b2"])
BUILDINGS = st.sampled_from(["bld1", "bld2"])
LEFT_BEHIND = "ghost"


def _refusal(game: Game) -> Effect:
    """A change the game always refuses: more figures lost than any unit has."""
    return ChangeFigures(next(iter(game.units), "nobody"), -1000)


class TableSteps(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.game = full_game()
        self.game.units["u1"].stats.pop(EMBARKED_IN)
        self.start = savefile.dumps(self.game)
        self.done: list[tuple[list[Effect], list[Effect]]] = []
        self.undone: list[list[Effect]] = []

    def _log(self, text: str) -> AppendLog:
        return AppendLog(LogEntry("2026-11-30T12:00:00", self.game.turn, self.game.phase, text, "effect"))

    def _step(self, effects: list[Effect], spoil: bool) -> None:
        """Session.apply without Qt: check everything, then apply effect by effect as one undo step."""
        game = self.game
        wanted = [*with_references_cleared(game, effects), self._log("step")]
        if spoil:
            wanted.append(_refusal(game))
        before = savefile.dumps(game)
        try:
            game.check_all(wanted)
        except GameError:
            assert savefile.dumps(game) == before, f"the refused step {wanted!r} changed the game"
            return
        assert savefile.dumps(game) == before, "checking a step changed the game"
        assert not spoil
        self.done.append((wanted, [game.apply(effect) for effect in wanted]))
        self.undone.clear()

    @rule(side=st.integers(0, 1), spoil=st.booleans())
    def add(self, side: int, spoil: bool) -> None:
        unit_id = self.game.new_id("u", self.game.units)
        self._step([AddUnit(Unit(unit_id, f"Team {unit_id}", "team", side, 10.0, 20.0))], spoil)

    @rule(unit_id=UNIT_IDS, spoil=st.booleans())
    def remove(self, unit_id: str, spoil: bool) -> None:
        self._step([RemoveUnit(unit_id)], spoil)

    @rule(bombardment_id=BOMBARDMENTS, unit_id=UNIT_IDS, spoil=st.booleans())
    def pin(self, bombardment_id: str, unit_id: str, spoil: bool) -> None:
        self._step([SetBombardmentPin(bombardment_id, unit_id), SetCondition(unit_id, "pinned")], spoil)

    @rule(building_id=BUILDINGS, unit_id=UNIT_IDS, present=st.booleans(), spoil=st.booleans())
    def occupy(self, building_id: str, unit_id: str, present: bool, spoil: bool) -> None:
        self._step([SetOccupant(building_id, unit_id, present)], spoil)

    @rule(unit_id=UNIT_IDS, carrier=UNIT_IDS, spoil=st.booleans())
    def embark(self, unit_id: str, carrier: str, spoil: bool) -> None:
        if carrier in self.game.units:
            self._step([SetUnitStat(unit_id, EMBARKED_IN, carrier)], spoil)

    @rule(spoil=st.booleans())
    def end_phase(self, spoil: bool) -> None:
        g = self.game
        nxt = (g.active_side + 1) % len(g.sides)
        self._step([*due_effects(g, False, nxt), SetClock(g.turn, g.phase + 1, nxt)], spoil)

    @rule(spoil=st.booleans())
    def end_turn(self, spoil: bool) -> None:
        g = self.game
        self._step([*due_effects(g, True, 0), SetClock(g.turn + 1, 1, 0)], spoil)

    @precondition(lambda self: bool(self.done))
    @rule()
    def undo(self) -> None:
        effects, inverses = self.done.pop()
        for inverse in reversed(inverses):
            self.game.apply(inverse)
        self.undone.append(effects)

    @precondition(lambda self: bool(self.undone))
    @rule()
    def redo(self) -> None:
        effects = self.undone.pop()
        self.done.append((effects, [self.game.apply(effect) for effect in effects]))

    @invariant()
    def nothing_names_a_unit_that_is_gone(self) -> None:
        g = self.game
        named = {u for b in g.bombardments.values() for u in b.pinned}
        named |= {u for b in g.buildings.values() for u in b.occupants}
        named |= {str(u.stats[EMBARKED_IN]) for u in g.units.values() if EMBARKED_IN in u.stats}
        named |= {str(v) for m in g.markers.values() for k, v in m.data.items() if k.endswith("_id")}
        assert named - set(g.units) <= {LEFT_BEHIND}, f"{named - set(g.units)} are named but not in the game"

    def teardown(self) -> None:
        while self.done:
            self.undo()
        assert savefile.dumps(self.game) == self.start, "undoing every step did not give back the start"


TableSteps.TestCase.settings = settings(max_examples=100, stateful_step_count=30, deadline=None)
test_table_steps = TableSteps.TestCase
