"""Chain of Command points and dice, as seed 000 counts them, and spending one point.

"If no Command Dice roll of 1 is available, the player must use a single Chain
of Command point to activate the Bombardment." A side keeps whole Chain of
Command dice (`Side.coc_points`) and loose points towards the next die
(`Side.coc_tally`, one for each 5 rolled on its Command Dice); a die is what
`command_dice_pips_per_die` points make (six by default). One point is spent
from the loose points first; with none loose but a whole die, the die is
broken into its points and one of them spent (`coc_point_breaks_die`, a
default to check), the others kept as loose points.

The player reads a side's store in the seed's words: "1 die, 5 points of 6"
(`store_words`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Scalar
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.model.sequence_effects import SetHeldDice
from battletracker.rules.base import InputReader
from battletracker.rules.base import InputValue
from battletracker.rules.chain_of_command.command_dice import rolled_this_phase
from battletracker.rules.chain_of_command.command_dice import without
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import side_name
from battletracker.rules.tables import setting
from battletracker.rules.words import possessive

RULESET = "chain_of_command"
PER_DIE = "command_dice_pips_per_die"
BREAKS = "coc_point_breaks_die"
SETTINGS = (PER_DIE, BREAKS)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True)
class CocStore:
    """A side's Chain of Command dice (`dice`) and loose points (`points`), `per_die` points to a die."""

    dice: int
    points: int
    per_die: int = 6
    breaks: bool = True

    @property
    def can_spend_point(self) -> bool:
        """Whether one point can be spent: a loose one, else (if allowed) one broken from a whole die."""
        return self.points > 0 or (self.breaks and self.dice > 0)

    @property
    def breaks_a_die(self) -> bool:
        """Whether spending a point now breaks a whole die (no loose point left)."""
        return self.points == 0 and self.breaks and self.dice > 0

    def spend_point(self, side: int) -> list[Effect]:
        """The Effects that spend one point; the caller checks `can_spend_point` first."""
        if self.points > 0:
            return [ChangeCocTally(side, -1)]
        return [ChangeCocPoints(side, -1), ChangeCocTally(side, self.per_die - 1)]

    def after_point(self) -> CocStore:
        """The store once one point is spent."""
        if self.points > 0:
            return CocStore(self.dice, self.points - 1, self.per_die, self.breaks)
        return CocStore(self.dice - 1, self.per_die - 1, self.per_die, self.breaks)

    def words(self) -> str:
        """"1 die, 5 points of 6": the whole dice, then the loose points towards the next die."""
        return (f"{_count(self.dice, 'die', 'dice')}, "
                f"{_count(self.points, 'point', 'points')} of {self.per_die}")

    def left_words(self) -> str:
        """What is left once one point is spent, in words ("4 points left", "1 die and 5 points left")."""
        after = self.after_point()
        if after.dice:
            return f"{_count(after.dice, 'die', 'dice')} and {_count(after.points, 'point', 'points')} left"
        return f"{_count(after.points, 'point', 'points')} left"

    def spent_words(self) -> str:
        """The point's spending in the seed's words, for facts and the log."""
        text = f"a Chain of Command point ({self.left_words()})"
        if self.breaks_a_die:
            text += f": a Chain of Command die is broken into its {self.per_die} points"
        return text

    def none_words(self, name: str) -> str:
        """Why no point can be spent, in the seed's words."""
        if self.dice and not self.breaks:
            return (f"{name} has no loose Chain of Command point and its Chain of Command "
                    f"{'die is' if self.dice == 1 else 'dice are'} not broken into points (Ruleset settings)")
        return f"{name} has no Chain of Command point ({self.words()})"


def _int_setting(key: str, overrides: Mapping[str, Scalar] | None) -> int:
    value = setting(RULESET, key, overrides)
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def coc_store(game: Game, side: int) -> CocStore:
    """The side's Chain of Command dice and points now, with the game's settings."""
    s = game.side(side)
    return CocStore(s.coc_points, s.coc_tally, _int_setting(PER_DIE, game.settings),
                    bool(setting(RULESET, BREAKS, game.settings)))


def store_words(game: Game, side: int) -> str:
    """"Chain of Command: 1 die, 5 points of 6" for the side."""
    return f"Chain of Command: {coc_store(game, side).words()}"


def store_inputs(game: Game, side: int) -> dict[str, InputValue]:
    """A procedure's inputs for the side's store: `coc_points` (dice), `coc_tally` (points) and the settings."""
    s = game.side(side)
    inputs: dict[str, InputValue] = {"coc_points": s.coc_points, "coc_tally": s.coc_tally}
    inputs.update({k: game.settings[k] for k in SETTINGS if k in game.settings})
    return inputs


def read_store(r: InputReader, dice: int) -> CocStore:
    """The store from a procedure's inputs (`store_inputs`), its whole dice `dice` read already."""
    points = r.int("coc_tally", 0, minimum=0)
    per_die = r.int(PER_DIE, _int_setting(PER_DIE, None), minimum=1, maximum=12)
    breaks = r.bool(BREAKS, bool(setting(RULESET, BREAKS)))
    return CocStore(dice, points, per_die, breaks)


# the Forward Observer's activation ---------------------------------------------------------------------------

OBSERVER_ACTIVATIONS = ("command_die", "coc_point")


@dataclass(frozen=True)
class Activation:
    """How the Forward Observer is activated now: `kind`, the Effects that spend it, and the words for it."""

    kind: str
    effects: tuple[Effect, ...]
    text: str

    @property
    def fact(self) -> str:
        return f"Activated with {self.text}"


def observer_activation(game: Game, side: int, chosen: InputValue | None, what: str) -> Activation:
    """The Forward Observer's activation by its side (`chosen`: command_die, coc_point, or None for the default).

    Each activation spends a held Command Dice 1, or one Chain of Command
    point when no 1 is held (seed 000; command_dice.toml: "1 = a Team or a
    Forward Observer's bombardment"), and waits for the side's Command Dice
    roll this Phase. `what` names the step for the refusals ("take a ranging
    shot"). The default is what the side holds: a 1 first, else a point.
    """
    name = side_name(game, side)
    if chosen is not None and chosen not in OBSERVER_ACTIVATIONS:
        raise SequenceRefusal("activation", "The Forward Observer is activated by a Command Dice 1 or a Chain of "
                                            "Command point.")
    if not rolled_this_phase(game, side):
        raise SequenceRefusal("activation", f"Roll {possessive(name)} Command Dice for this Phase first: the Forward "
                                            f"Observer is activated with a held 1 or a Chain of Command point to "
                                            f"{what}.")
    held = tuple(game.side(side).held_dice)
    store = coc_store(game, side)
    if chosen is None:
        chosen = "command_die" if 1 in held else "coc_point"
        if chosen == "coc_point" and not store.can_spend_point:
            raise SequenceRefusal("activation", f"{name} holds no Command Dice 1 and "
                                                f"{store.none_words(name).removeprefix(name + ' ')}: the Forward "
                                                f"Observer cannot {what} this Phase.")
    if chosen == "command_die":
        if 1 not in held:
            raise SequenceRefusal("activation", f"{name} holds no Command Dice 1 this Phase: the Forward Observer "
                                                f"needs a Chain of Command point to {what}.")
        return Activation("command_die", (SetHeldDice(side, without(held, 1)),), "a Command Dice 1")
    if not store.can_spend_point:
        raise SequenceRefusal("activation", f"{store.none_words(name)}: the Forward Observer cannot {what} with "
                                            "one.")
    return Activation("coc_point", tuple(store.spend_point(side)), store.spent_words())
