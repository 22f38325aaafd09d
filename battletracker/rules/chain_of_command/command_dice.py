"""Command Dice: what the active side rolls at the start of its Phase, what it holds, what follows the Phase.

None of this is in the rules documents: the table is ruleset data
(command_dice.toml, and the numbers as settings in settings.toml) with
documented defaults marked to check. A held 1 activates a Team (and a Forward
Observer's bombardment), 2 a Section, 3 a Junior Leader, 4 a Senior Leader;
each 5 adds a pip to the Chain of Command dice tally (six pips make a die);
the 6s decide what follows: two and the same side takes the next Phase, three
as two and the Turn ends after this Phase, four or more as three plus a Chain
of Command die and a random event.

`coc.command_dice` rolls them (outcome: what follows the Phase, in words,
with exact odds before the roll); `coc.spend_command_die` spends a held die.
The app builds their inputs from the game with `command_dice_inputs` and
`spend_inputs`; End Phase asks `next_phase(game)` whose Phase follows and
whether the Turn ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import binomial
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.effects import Effect
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import Scalar
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.model.sequence_effects import SetActed
from battletracker.model.sequence_effects import SetCommandRoll
from battletracker.model.sequence_effects import SetHeldDice
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import already_words
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import activation_kept
from battletracker.rules.sequence import check_own_phase
from battletracker.rules.sequence import last_inputs
from battletracker.rules.sequence import now
from battletracker.rules.sequence import read_last
from battletracker.rules.sequence import side_name
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import setting

RULESET = "chain_of_command"
SETTINGS = ("command_dice_pips_per_die", "command_dice_sixes_next_phase", "command_dice_sixes_turn_end",
            "command_dice_sixes_bonus")
OPPONENT_POINTS = "command_dice_opponent_points_on_sixes"
"""Chain of Command points the other side gains when the active side rolls as many 6s as take the next Phase."""
HELD_FACES = (1, 2, 3, 4)
MAX_DICE = 12

OTHER_SIDE = "the other side's Phase next"
SAME_SIDE = "the same side takes the next Phase"
TURN_ENDS = "the Turn ends after this Phase"
TURN_ENDS_BONUS = "the Turn ends after this Phase, with a Chain of Command die and a random event"


@lru_cache(maxsize=1)
def face_words() -> dict[int, str]:
    """What a held die of each face activates ("a Section"), from command_dice.toml."""
    faces = ruleset_file(RULESET, "command_dice").table("faces")
    return {int(key): faces.str(key) for key in faces.data}


@dataclass(frozen=True)
class CommandDiceTable:
    """The numbers of the Command Dice table (settings): pips per CoC die, and how many 6s do what."""

    pips_per_die: int
    sixes_next_phase: int
    sixes_turn_end: int
    sixes_bonus: int

    @classmethod
    def read(cls, r: InputReader) -> CommandDiceTable:
        values = [r.int(key, int(setting(RULESET, key)), minimum=1, maximum=MAX_DICE) for key in SETTINGS]
        table = cls(*values)
        if not table.sixes_next_phase <= table.sixes_turn_end <= table.sixes_bonus:
            raise SequenceRefusal("command_dice_sixes_turn_end",
                                  "The Command Dice settings need as many 6s or more to end the Turn as to take the "
                                  "next Phase, and as many or more for a Chain of Command die as to end the Turn.")
        return table

    @classmethod
    def of(cls, game: Game) -> CommandDiceTable:
        return cls.read(InputReader({k: game.settings[k] for k in SETTINGS if k in game.settings}))

    def outcome(self, sixes: int) -> str:
        """What the 6s of a roll mean for the sequence, in words."""
        if sixes >= self.sixes_bonus:
            return TURN_ENDS_BONUS
        if sixes >= self.sixes_turn_end:
            return TURN_ENDS
        if sixes >= self.sixes_next_phase:
            return SAME_SIDE
        return OTHER_SIDE


@dataclass(frozen=True)
class RollInputs:
    side: int
    name: str
    dice: int
    tally: int
    stamp: PhaseStamp
    table: CommandDiceTable
    opponent: int | None = None
    opponent_name: str = ""
    opponent_tally: int = 0
    opponent_points: int = 0


def _parse_roll(inputs: Inputs) -> RollInputs:
    r = InputReader(inputs)
    side = r.int("side", 0, minimum=0)
    name = r.str("side_name", f"Side {side + 1}")
    dice = r.int("dice", 5, minimum=1, maximum=MAX_DICE)
    tally = r.int("coc_tally", 0, minimum=0)
    stamp = PhaseStamp(r.int("turn", 1, minimum=1), r.int("phase", 1, minimum=1))
    rolled = read_last(r, "rolled")
    active_side = r.optional_int("active_side", minimum=0)
    table = CommandDiceTable.read(r)
    opponent = r.optional_int("opponent", minimum=0)
    opponent_name = r.str("opponent_name", "the other side")
    opponent_tally = r.int("opponent_tally", 0, minimum=0)
    opponent_points = r.int(OPPONENT_POINTS, int(setting(RULESET, OPPONENT_POINTS)), minimum=0, maximum=6)
    r.finish()
    check_own_phase(side, active_side, f"{name} rolls its Command Dice")
    if rolled is not None and rolled == stamp:
        raise SequenceRefusal("rolled_phase", f"{name} has already rolled its Command Dice this Phase ({stamp}).")
    return RollInputs(side, name, dice, tally, stamp, table, opponent, opponent_name, opponent_tally,
                      opponent_points)


def command_dice_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse_roll(inputs)
    roller = Roller(dice)
    faces = roller.roll_ints("Command Dice", D6, p.dice)
    held = tuple(sorted(f for f in faces if f in HELD_FACES))
    fives, sixes = faces.count(5), faces.count(6)
    outcome = p.table.outcome(sixes)
    pips = p.tally + fives
    gained, left = divmod(pips, p.table.pips_per_die)
    bonus = 1 if outcome == TURN_ENDS_BONUS else 0
    effects: list[Effect] = [SetCommandRoll(p.side, CommandRoll(p.stamp.turn, p.stamp.phase, list(faces))),
                             SetHeldDice(p.side, held)]
    if left != p.tally:
        effects.append(ChangeCocTally(p.side, left - p.tally))
    if gained + bonus:
        effects.append(ChangeCocPoints(p.side, gained + bonus))
    words = face_words()
    log = [f"{p.name} holds: " + (", ".join(f"{f} ({words.get(f, 'unused')})" for f in held) if held else "nothing")]
    if fives:
        log.append(f"{_count(fives, 'five')}: the Chain of Command tally goes to {pips} of {p.table.pips_per_die} "
                   "pips" + (f", {_count(gained, 'Chain of Command die', 'dice')} gained, "
                             f"{_count(left, 'pip')} carried" if gained else ""))
    log.append(f"{_count(sixes, 'six', 'sixes')}: {outcome}")
    if p.opponent is not None and p.opponent_points and sixes >= p.table.sixes_next_phase:
        effects.extend(_points_to(p.opponent, p.opponent_tally, p.opponent_points, p.table.pips_per_die))
        log.append(f"{p.opponent_name} gains {_count(p.opponent_points, 'Chain of Command point')}")
    if bonus:
        log.append("Roll for a random event")
    values: dict[str, object] = {"faces": list(faces), "held": list(held), "fives": fives, "sixes": sixes,
                                 "coc_tally": left, "coc_dice_gained": gained + bonus}
    return Resolution("coc.command_dice", outcome, values, roller.rolls, effects, log)


def _points_to(side: int, tally: int, points: int, per_die: int) -> list[Effect]:
    """The Effects of `points` Chain of Command points added to a side's `tally`, six (`per_die`) making a die."""
    gained, left = divmod(tally + points, per_die)
    effects: list[Effect] = []
    if left != tally:
        effects.append(ChangeCocTally(side, left - tally))
    if gained:
        effects.append(ChangeCocPoints(side, gained))
    return effects


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def command_dice_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse_roll(inputs)
    return binomial(p.dice, Fraction(1, 6)).map(p.table.outcome)


def command_dice_inputs(game: Game, side: int | None = None) -> dict[str, InputValue]:
    """The inputs of `coc.command_dice` for the active side (or `side`) now."""
    who = game.active_side if side is None else side
    s = game.side(who)
    roll = s.command_roll
    rolled = PhaseStamp(roll.turn, roll.phase) if roll is not None else None
    inputs: dict[str, InputValue] = {"side": who, "side_name": s.name, "dice": s.command_dice,
                                     "coc_tally": s.coc_tally, "turn": game.turn, "phase": game.phase,
                                     "active_side": game.active_side,
                                     **last_inputs("rolled", rolled)}
    if len(game.sides) == 2:
        other = game.sides[1 - who]
        inputs.update(opponent=1 - who, opponent_name=other.name, opponent_tally=other.coc_tally)
    inputs.update(_settings(game.settings))
    return inputs


def _settings(values: Mapping[str, Scalar]) -> dict[str, InputValue]:
    return {k: values[k] for k in (*SETTINGS, OPPONENT_POINTS) if k in values}


# the sequence ----------------------------------------------------------------------------------------------


def rolled_this_phase(game: Game, side: int) -> bool:
    """Whether `side` rolled its Command Dice in the Phase the clock shows (so what it holds is known)."""
    roll = game.side(side).command_roll
    return roll is not None and PhaseStamp(roll.turn, roll.phase) == now(game)


def next_phase(game: Game) -> tuple[int, bool]:
    """Whose Phase follows this one, and whether the Turn ends after it, as this Phase's Command Dice say.

    Without a Command Dice roll this Phase (or in another ruleset) the other
    side takes the next Phase and the Turn goes on.
    """
    other = (game.active_side + 1) % max(1, len(game.sides))
    if game.ruleset != RULESET or not rolled_this_phase(game, game.active_side):
        return other, False
    roll = game.sides[game.active_side].command_roll
    assert roll is not None
    outcome = CommandDiceTable.of(game).outcome(roll.faces.count(6))
    if outcome == OTHER_SIDE:
        return other, False
    return game.active_side, outcome != SAME_SIDE


# spending a held die ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpendInputs:
    side: int
    name: str
    face: int
    held: tuple[int, ...]
    unit_id: str | None
    unit_name: str
    stamp: PhaseStamp


def _parse_spend(inputs: Inputs) -> SpendInputs:
    r = InputReader(inputs)
    side = r.int("side", 0, minimum=0)
    name = r.str("side_name", f"Side {side + 1}")
    face = r.int("face", minimum=1, maximum=4)
    held = read_held(r)
    unit_id = read_id(r, "unit_id")
    unit_name = r.str("unit_name", unit_id or "")
    stamp = PhaseStamp(r.int("turn", 1, minimum=1), r.int("phase", 1, minimum=1))
    r.finish()
    if face not in held:
        holds = ", ".join(str(f) for f in held) if held else "no Command Dice"
        raise SequenceRefusal("face", f"{name} holds no Command Dice {face} this Phase (it holds {holds}), so it "
                                      f"cannot activate {face_words().get(face, 'anything')} with one.")
    return SpendInputs(side, name, face, held, unit_id, unit_name, stamp)


def read_held(r: InputReader, key: str = "held") -> tuple[int, ...]:
    """The held dice as input: their faces separated by spaces ("1 1 3"), empty for none."""
    raw = r.optional_str(key)
    words = raw.split() if raw is not None else []
    if not all(w.isdigit() and int(w) in HELD_FACES for w in words):
        raise RulesInputError(key, f"must be faces 1 to 4 separated by spaces, not {raw!r}")
    return tuple(int(w) for w in words)


def held_input(faces: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(f) for f in faces)


def without(held: tuple[int, ...], face: int) -> tuple[int, ...]:
    """The held dice after one `face` is spent (the first of them)."""
    at = held.index(face)
    return held[:at] + held[at + 1:]


def spend_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse_spend(inputs)
    effects: list[Effect] = [SetHeldDice(p.side, without(p.held, p.face))]
    what = face_words().get(p.face, "")
    text = f"{p.name} spends a Command Dice {p.face} to activate {what}"
    if p.unit_id is not None:
        effects.append(SetActed(p.unit_id, p.stamp))
        text += f": {p.unit_name}"
    return Resolution("coc.spend_command_die", "spent", {"face": p.face}, [], effects, [text])


def spend_odds(inputs: Inputs) -> Distribution[str]:
    _parse_spend(inputs)
    return Distribution.certain("spent")


def spend_inputs(game: Game, face: int, unit_id: str | None = None) -> dict[str, InputValue]:
    """The inputs of `coc.spend_command_die` for the active side now (activating `unit_id`, if given)."""
    side = game.active_side
    inputs: dict[str, InputValue] = {"side": side, "side_name": side_name(game, side), "face": face,
                                     "held": held_input(game.side(side).held_dice), "turn": game.turn,
                                     "phase": game.phase}
    if unit_id is not None:
        inputs.update(unit_id=unit_id, unit_name=game.unit(unit_id).name)
    return inputs


def held_at_phase_end(game: Game, _turn_end: bool, _next_side: int | None) -> list[Effect]:
    """Command Dice not spent are lost at the end of the Phase."""
    if game.ruleset != RULESET:
        return []
    return [SetHeldDice(i, ()) for i, s in enumerate(game.sides) if s.held_dice]


# the actions ----------------------------------------------------------------------------------------------


def _plan_command_dice(game: Game, choices: Choices) -> Plan:
    """The active side rolls its Command Dice now: side, dice, tally and clock read from the game."""
    if choices:
        raise Refusal(sorted(choices)[0], "Rolling the Command Dice takes no choices: the active side rolls.")
    inputs = command_dice_inputs(game)
    _parse_roll(inputs)
    name = side_name(game, game.active_side)
    return Plan("coc.command_dice", inputs, (f"{name} rolls {game.side(game.active_side).command_dice} "
                                             f"Command Dice for {now(game)}",),
                {}, f"{name}: Command Dice", log_kind="roll")


def _plan_spend(game: Game, choices: Choices) -> Plan:
    """The active side spends one held die (`face`, 1 to 4), activating `unit` if given."""
    r = InputReader(choices)
    face = r.int("face", minimum=1, maximum=4)
    unit_id = r.optional_str("unit")
    r.finish()
    if unit_id is not None and unit_id not in game.units:
        raise Refusal("unit", "That unit is no longer on the table.")
    if unit_id is not None and (gone := game.unit(unit_id).off_table) is not None:
        raise Refusal("unit", f"{game.unit(unit_id).name} is {gone}: it cannot be activated.")
    if unit_id is not None and activation_kept():
        # Naming a unit activates it: the face must be its own (activation.py), as `coc.activate` reads it.
        from battletracker.rules.actions import plan

        return plan("coc.activate", game, {"unit": unit_id, "activation": f"dice:{face}"})
    inputs = spend_inputs(game, face, unit_id)
    _parse_spend(inputs)
    return Plan("coc.spend_command_die", inputs, (), dict(choices),
                f"{side_name(game, game.active_side)}: spend a Command Dice {face}")


register_plan("coc.command_dice", _plan_command_dice)
register_plan("coc.spend_command_die", _plan_spend)

def roller_rank(outcome: str) -> tuple[float, ...]:
    """How good a Command Dice roll's outcome is for the side that rolled it (`Procedure.better`).

    Another Phase (two 6s or more) is better than the Phase passing to the other side; four 6s or more
    add a Chain of Command die to it, better still. The Turn ending (three 6s or more) counts for
    nothing either way: it clears smoke, ends bombardments and resets what both sides have done, the
    same for the enemy as for the roller, and whether that helps depends on the table, not on the
    dice. So three 6s rank alike with two (another Phase), and four with more (another Phase and a
    Chain of Command die); the random event is no side's gain either.
    """
    return (_ROLLER_RANKS[outcome],)


_ROLLER_RANKS = {OTHER_SIDE: 0.0, SAME_SIDE: 1.0, TURN_ENDS: 1.0, TURN_ENDS_BONUS: 2.0}


_TYPICAL_COMMAND_DICE: Inputs = {"side": 0, "side_name": "Germany", "dice": 5, "coc_tally": 0, "turn": 1, "phase": 1,
                                 "active_side": 0}
register(Procedure("coc.command_dice", "Command Dice", command_dice_resolve, command_dice_odds, ruleset=RULESET,
                   settings=(*SETTINGS, OPPONENT_POINTS), label=already_words, better=roller_rank,
                   rolled_by=("side",),
                   typical=_TYPICAL_COMMAND_DICE, largest={**_TYPICAL_COMMAND_DICE, "dice": 12},
                   worst_best=(OTHER_SIDE, TURN_ENDS_BONUS)))
register(Procedure("coc.spend_command_die", "Spend a Command Die", spend_resolve, spend_odds, ruleset=RULESET,
                   typical={"side": 0, "side_name": "Germany", "face": 2, "held": "1 2 4", "unit_id": "u1",
                            "unit_name": "1. Gruppe", "turn": 1, "phase": 1}))
