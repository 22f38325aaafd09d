"""Where rules features plug into the window without editing it.

A feature (anti-tank fire, bombardments, Necromunda shooting, ...) is a
`Feature` value naming what it adds:

- `UnitAction`s: what can be done with a unit ("Anti-tank fire..."). They
  appear in the Actions menu for the selected unit, on the unit's card menu
  and on the map's right-click menu, with their shortcut.
- `CardSection`s: extra rows on a unit's card for what a ruleset tracks
  (Armour Battles dice and Disruption, a Necromunda fighter's profiles).
- window extensions: called once with a `FeatureHost`, the small part of the
  main window a feature may use (the session, the map, docks, menus by id,
  the status bar), to add docks, menu entries or map overlays that follow
  the session.

The app's features are found by `battletracker.ui.features.all_features` (each
module of that package with a module-level `FEATURE`), which app.py hands to the
main window; the window adds them (`add_features`)
just after its first paint, so they do not slow the start.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Literal
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView
    from battletracker.ui.session import Session

MenuId = Literal["file", "edit", "game", "view", "help"]
"""The window's menus a feature may add entries to. The Actions menu is not one:
it is refilled with the selected unit's `UnitAction`s each time it opens."""

DockId = Literal["units", "log", "history"]
"""The window's own docks, which a feature's dock can share tabs with."""


class FeatureHost(Protocol):
    """What a feature may use of the main window, and nothing more.

    A window extension gets this rather than the window, so a feature cannot
    come to depend on how the window is built (its widgets, its menu labels),
    and a test can install a feature into a small fake host.
    """

    @property
    def session(self) -> Session:
        """The game being played: its state, the undo stack and the change signals."""

    @property
    def map(self) -> MapView:
        """The table: overlays (`set_overlay`), picking a point or a unit."""

    def window(self) -> QWidget:
        """The top-level window, as the parent of a feature's dialogs."""

    def add_dock(self, dock: QDockWidget, area: Qt.DockWidgetArea, tabify_with: DockId | None = None) -> None:
        """Dock `dock` at `area` (beside the window's dock `tabify_with`, which stays in front), listed in View."""

    def menu(self, menu_id: MenuId) -> QMenu:
        """One of the window's menus by its stable id, whatever its label says."""

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        """A short message in the status bar (0 keeps it until the next one)."""

    def status_text(self) -> str:
        """The status bar's message now ("" for none): a feature takes back only its own reminder."""


@dataclass(frozen=True)
class UnitAction:
    """Something a player does with one unit, usually opening a procedure dialog."""

    key: str
    title: str
    applies: Callable[[Game, Unit], bool]
    run: Callable[[FeatureHost, str], None]
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


WindowExtension = Callable[[FeatureHost], None]


@dataclass(frozen=True)
class Feature:
    """One rules feature: what it adds to units, cards and the window.

    `menu_order` places it among the features (a lower one first; equal ones in
    their modules' name order): the order their actions appear in the menus and
    their window extensions are added.
    """

    name: str
    unit_actions: tuple[UnitAction, ...] = ()
    card_sections: tuple[CardSection, ...] = ()
    window_extensions: tuple[WindowExtension, ...] = ()
    menu_order: int = 0


_features: dict[str, Feature] = {}
_actions: dict[str, UnitAction] = {}
_sections: dict[str, CardSection] = {}
_window_extensions: list[WindowExtension] = []


def add_features(features: Iterable[Feature]) -> None:
    """Register `features` in order; one already registered (by name) is left as it is."""
    for feature in features:
        if feature.name in _features:
            continue
        _features[feature.name] = feature
        _actions.update((a.key, a) for a in feature.unit_actions)
        _sections.update((s.key, s) for s in feature.card_sections)
        _window_extensions.extend(feature.window_extensions)


def unit_action(key: str) -> UnitAction:
    return _actions[key]


def all_unit_actions() -> list[UnitAction]:
    return list(_actions.values())


def unit_actions(game: Game, unit: Unit) -> list[UnitAction]:
    """The actions that make sense for this unit in this game, in registration order."""
    return [a for a in all_unit_actions() if a.available(game, unit)]


def card_sections(game: Game, unit: Unit) -> list[CardSection]:
    """The sections registered so far.

    Cards are filled in before the first paint, when the features have not
    been added yet; the main window rebuilds the cards once they have.
    """
    return [s for s in _sections.values() if s.available(game, unit)]


def window_extensions() -> list[WindowExtension]:
    return list(_window_extensions)
