"""What an effect touched (`Changes`) and the base of every effect (`Effect`).

Apart from the effects themselves (model/effects.py and its siblings), so the
views, which refresh by `Changes`, and the rules, which name `Effect` in their
signatures, load without building every effect class: those load with the
first change to the game. model/effects.py gives both names too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import ClassVar

if TYPE_CHECKING:
    from battletracker.model.game import Game


@dataclass(frozen=True)
class Changes:
    """What an effect touched; views refresh only for the flags they care about."""

    units: frozenset[str] = frozenset()
    roster: bool = False
    markers: bool = False
    log: bool = False
    clock: bool = False
    sides: bool = False
    settings: bool = False
    everything: bool = False
    bombardments: bool = False
    buildings: bool = False
    terrain: bool = False
    history: bool = False  # the actions applied and the start they replay from (model/history.py)
    backdrop: bool = False  # the table's own picture under the map (model/backdrop.py)

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            units=self.units | other.units,
            roster=self.roster or other.roster,
            markers=self.markers or other.markers,
            log=self.log or other.log,
            clock=self.clock or other.clock,
            sides=self.sides or other.sides,
            settings=self.settings or other.settings,
            everything=self.everything or other.everything,
            bombardments=self.bombardments or other.bombardments,
            buildings=self.buildings or other.buildings,
            terrain=self.terrain or other.terrain,
            history=self.history or other.history,
            backdrop=self.backdrop or other.backdrop,
        )

    def unit(self, unit_id: str) -> bool:
        return self.everything or self.roster or unit_id in self.units


class Effect:
    """Base class: `apply` validates, mutates and returns the inverse."""

    at_the_end: ClassVar[bool] = False
    """True when the effect changes the log and the list of actions only at their end (adds the newest
    entry or takes it off): `Game.apply_all` then keeps only their last entries to put back on a refusal,
    not a copy of a log of 50,000 lines for every step of a long game."""

    def apply(self, game: Game) -> Effect:
        raise NotImplementedError

    @property
    def touches(self) -> Changes:
        """Every part of the game `apply` may change or the views must redraw for it (`writes` may be narrower).

        An effect that does not say is taken to touch everything.
        """
        return Changes(everything=True)

    @property
    def writes(self) -> Changes:
        """The parts of the game `apply` may change, which `Game.apply_all` copies first to put back on a refusal.

        The same as `touches` unless an effect changes less than the views must redraw.
        """
        return self.touches
