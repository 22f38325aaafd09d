"""Necromunda in the app: fighter cards, the Shoot dialog and the map's shapes.

The feature: the "necromunda.fighter" card section, the "necromunda.shoot"
unit action and the window extension that draws the selected fighter's
range bands.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.necromunda.table import RULESET
from battletracker.rules.necromunda.table import in_the_fight
from battletracker.rules.necromunda.table import is_fighter
from battletracker.rules.necromunda.table import profile_refs
from battletracker.ui.extensions import CardSection
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import UnitAction
from battletracker.ui.features.necromunda.fighter_card import FighterSection
from battletracker.ui.features.necromunda.overlays import selection_ranges
from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog

# Ctrl+Shift+S is Save As on Linux desktops (QKeySequence.SaveAs); a second action on it
# would make both ambiguous, so Shoot takes Ctrl+Alt+S.
SHOOT_SHORTCUT = "Ctrl+Alt+S"


def can_shoot(game: Game, unit: Unit) -> bool:
    """A fighter still in the fight with a weapon profile (a Template counts: it is laid instead of rolled)."""
    return is_fighter(game, unit) and in_the_fight(unit) and bool(profile_refs(unit))


def open_shoot_dialog(host: FeatureHost, unit_id: str) -> ShootDialog:
    """Open the Shoot dialog without blocking the window, so the map stays usable for picking."""
    dialog = ShootDialog(host.session, unit_id, host.map, host.window())
    dialog.setModal(False)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


FEATURE = Feature("necromunda", card_sections=(CardSection(
    key="necromunda.fighter",
    applies=is_fighter,
    create=lambda parent, session, unit_id: FighterSection(parent, session, unit_id),
    rulesets=(RULESET,),
),), unit_actions=(UnitAction(
    key="necromunda.shoot",
    title="Shoot...",
    applies=can_shoot,
    run=lambda host, unit_id: open_shoot_dialog(host, unit_id).activateWindow(),
    rulesets=(RULESET,),
    shortcut=SHOOT_SHORTCUT,
    tip="One ranged attack: weapon profile, target, range, exact odds, dice, toolkit checks",
),), window_extensions=(selection_ranges,))
