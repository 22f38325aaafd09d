"""Where rules features plug into the window without editing it.

A feature module (anti-tank fire, bombardments, Necromunda shooting, ...)
registers:

- `UnitAction`s: what can be done with a unit ("Anti-tank fire..."). They
  appear in the Actions menu for the selected unit, on the unit's card menu
  and on the map's right-click menu, with their shortcut.
- `CardSection`s: extra rows on a unit's card for what a ruleset tracks
  (Armour Battles dice and Disruption, a Necromunda fighter's profiles).
- window extensions: called once with the main window to add docks, menu
  entries or map overlays that follow the session.

Feature modules live in `battletracker.ui.features` and register on import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game, Unit

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.session import Session


@dataclass(frozen=True)
class UnitAction:
    """Something a player does with one unit, usually opening a procedure dialog."""

    key: str
    title: str
    applies: Callable[[Game, Unit], bool]
    run: Callable[[MainWindow, str], None]
    rulesets: tuple[str, ...] = ()
    shortcut: str | None = None
    tip: str = ""

    def available(self, game: Game, unit: Unit) -> bool:
        """Never for a unit out of play: it fires at nothing and does nothing more."""
        return (unit.in_play and (not self.rulesets or game.ruleset in self.rulesets)
                and self.applies(game, unit))


class SectionWidget(Protocol):
    """A card section's widget: rebuilt only when the card is, refreshed on every change."""

    def refresh(self, unit: Unit) -> None: ...


@dataclass(frozen=True)
class CardSection:
    """Extra rows on a unit's card.

    `counters` and `conditions` name what the section itself shows (with its own
    words and buttons); the card's generic counters and badges leave them out so
    nothing reads twice.
    """

    key: str
    applies: Callable[[Game, Unit], bool]
    create: Callable[[QWidget, Session, str], QWidget]
    rulesets: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()

    def available(self, game: Game, unit: Unit) -> bool:
        return (not self.rulesets or game.ruleset in self.rulesets) and self.applies(game, unit)


WindowExtension = Callable[["MainWindow"], None]

_actions: dict[str, UnitAction] = {}
_sections: dict[str, CardSection] = {}
_window_extensions: list[WindowExtension] = []


def register_unit_action(action: UnitAction) -> UnitAction:
    _actions[action.key] = action
    return action


def register_card_section(section: CardSection) -> CardSection:
    _sections[section.key] = section
    return section


def register_window_extension(fn: WindowExtension) -> WindowExtension:
    if fn not in _window_extensions:
        _window_extensions.append(fn)
    return fn


def _load() -> None:
    import battletracker.ui.features  # noqa: F401  (importing registers every feature)


def unit_action(key: str) -> UnitAction:
    _load()
    return _actions[key]


def all_unit_actions() -> list[UnitAction]:
    _load()
    return list(_actions.values())


def unit_actions(game: Game, unit: Unit) -> list[UnitAction]:
    """The actions that make sense for this unit in this game, in registration order."""
    return [a for a in all_unit_actions() if a.available(game, unit)]


def card_sections(game: Game, unit: Unit) -> list[CardSection]:
    """The sections registered so far, without loading the features.

    Cards are filled in before the first paint, when the features have not
    loaded yet; the main window rebuilds the cards once they have.
    """
    return [s for s in _sections.values() if s.available(game, unit)]


def window_extensions() -> list[WindowExtension]:
    _load()
    return list(_window_extensions)
