"""Who may act now in a Chain of Command Phase: activation by Command Dice, by a Leader's Order, and what follows.

A unit acts (moves, fires) only once activated in its own side's Phase, after
that side has rolled its Command Dice: by a held die of the face its kind
needs (1 a Team, 2 a Section, 3 a Junior Leader, 4 a Senior Leader; several
held dice combined to that face where the settings allow), or by an Order of
a Leader activated this Phase, who spends one of its Orders on a unit of its
command within its Command Range. The faces and the Leaders' numbers are
ruleset data (activation.toml, settings.toml), defaults to check.

An activated unit fires once; it may move before it fires, not after. The
unit's `activation` (model/game.py) records how and what it has done; a new
Phase makes every earlier activation stale, so nothing needs clearing.

`acting(game, unit, doing, choices)` is what every Chain of Command action a
unit takes reads in its plan: the Effects that activate it now (the choice
`activation`, one of `ways`) and mark what it does, or a refusal in a
player's words, or a `ChoiceNeeded` listing only the ways the side has now.
`coc.activate` activates a unit without acting yet; `coc.order` is a Leader's
Order (activate a unit, or rally Shock).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

from battletracker.core.geometry import distance
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import Effect
from battletracker.model.game import Activation
from battletracker.model.game import Game
from battletracker.model.game import Scalar
from battletracker.model.game import Unit
from battletracker.model.sequence_effects import SetActivation
from battletracker.model.sequence_effects import SetHeldDice
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import counted
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command.command_dice import face_words
from battletracker.rules.chain_of_command.command_dice import rolled_this_phase
from battletracker.rules.choices import chosen_unit
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import activation_kept
from battletracker.rules.sequence import now
from battletracker.rules.sequence import side_name
from battletracker.rules.step import STEP
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import setting
from battletracker.rules.words import possessive

RULESET = "chain_of_command"
SETTINGS = ("command_dice_combine", "junior_leader_orders", "senior_leader_orders", "junior_leader_command_range",
            "senior_leader_command_range", "order_activates", "order_rallies_shock")
RANKS = ("junior", "senior")
FIRE = "fire"
MOVE = "move"
ORDER = "order"
DONE_WORDS = {FIRE: "fired", MOVE: "moved", ORDER: "given an Order"}


@lru_cache(maxsize=1)
def _faces() -> dict[str, int]:
    table = ruleset_file(RULESET, "activation").table("faces")
    return {key: table.int(key, minimum=1, maximum=4) for key in table.data}


def _setting(game: Game, key: str) -> Scalar:
    return setting(RULESET, key, game.settings)


def rank(unit: Unit) -> str:
    """A Leader's (or a vehicle commander's) rank from its card; a Leader without one is senior, a tank junior."""
    value = unit.stats.get("rank")
    if isinstance(value, str) and value in RANKS:
        return value
    return "junior" if unit.is_vehicle else "senior"


def is_leader(unit: Unit) -> bool:
    return unit.kind == "leader"


def face_for(unit: Unit) -> int | None:
    """The Command Dice face that activates this unit, None for a kind Command Dice never activate."""
    faces = _faces()
    if unit.kind == "leader":
        return faces.get(f"{rank(unit)}_leader")
    if unit.kind == "vehicle":
        return faces.get(f"{rank(unit)}_vehicle")
    return faces.get(unit.kind)


def kind_words(unit: Unit) -> str:
    """What the unit is, for the Command Dice ("a Section", "a Senior Leader")."""
    face = face_for(unit)
    if unit.kind == "vehicle":
        return f"a vehicle with a {rank(unit).capitalize()} Leader in command"
    return face_words().get(face, "a unit") if face is not None else "a unit"


KIND_NAMES = {"team": "a Team", "support_weapon": "a Support Team", "sniper": "a Sniper Team", "gun": "a gun Team",
              "section": "a Section"}
"""A unit's kind as a player names it beside the die it needs (Leaders and vehicles say their rank)."""


def needs_words(unit: Unit) -> str:
    """The die the unit's kind needs, for a menu entry: a menu of a held die lists units by what they are.

    "a tank under a Junior Leader: needs a 3" says why a vehicle is not under
    the 1 or the 2 alone (only combined, where the settings allow).
    """
    face = face_for(unit)
    if face is None:
        return "not activated by Command Dice"
    if unit.kind == "vehicle":
        what = f"a vehicle under a {rank(unit).capitalize()} Leader"
    elif unit.kind == "leader":
        what = f"a {rank(unit).capitalize()} Leader"
    else:
        what = KIND_NAMES.get(unit.kind, "a Team")
    return f"{what}: needs a {face}"


def faces_line() -> str:
    """Which held die activates each kind of unit, vehicles included, from activation.toml and command_dice.toml."""
    faces = _faces()
    people = ", ".join(f"{face} {words}" for face, words in sorted(face_words().items()))
    return (f"{people}; a vehicle by its commander's rank, {faces['junior_vehicle']} under a Junior Leader, "
            f"{faces['senior_vehicle']} under a Senior Leader")


@dataclass(frozen=True)
class NextSteps:
    """What an activated unit may still do this Phase: `words` to read, and whether it may move or fire."""

    words: str
    may_move: bool
    may_fire: bool


def next_steps(game: Game, unit: Unit) -> NextSteps | None:
    """What an activated unit may still do this Phase (None if not activated): it fires once, moves only before."""
    act = current(game, unit)
    if act is None:
        return None
    if FIRE in act.done:
        return NextSteps("it has fired: nothing more this Phase", False, False)
    if MOVE in act.done:
        return NextSteps("it has moved: it may still fire", True, True)
    return NextSteps("it may move, then fire (not move after firing)", True, True)


def orders_of(game: Game, leader: Unit) -> int:
    """How many Orders the Leader gives when activated: its card's `orders`, else the setting for its rank."""
    own = leader.stats.get("orders")
    if isinstance(own, int) and not isinstance(own, bool) and own >= 0:
        return own
    return int(_setting(game, f"{rank(leader)}_leader_orders"))


def command_range(game: Game, leader: Unit) -> float:
    """How far the Leader's Orders reach: its card's `command_range`, else the setting for its rank."""
    own = leader.stats.get("command_range")
    if isinstance(own, int | float) and not isinstance(own, bool) and own >= 0:
        return float(own)
    return float(_setting(game, f"{rank(leader)}_leader_command_range"))


def current(game: Game, unit: Unit) -> Activation | None:
    """The unit's activation in the Phase the clock shows, None if it has not been activated in it."""
    act = unit.activation
    if act is None or (act.turn, act.phase) != (game.turn, game.phase):
        return None
    return act


def commands(leader: Unit, unit: Unit) -> bool:
    """Whether `unit` is of the Leader's command (its Orders may reach it at all).

    A Junior Leader commands only the Unit whose card names it (`stats.leader`):
    "Junior Leaders cannot influence or activate other Units". A Senior Leader
    any unit of its side but another Senior Leader, and no vehicle but one
    whose card names it: "Armoured Fighting Vehicles only ever take orders from
    their own Leaders" (the second edition, 3.1).
    """
    if leader.id == unit.id or leader.side != unit.side or not unit.in_play:
        return False
    own = unit.stats.get("leader") == leader.id
    if rank(leader) == "junior" or unit.is_vehicle:
        return own
    return own or not (is_leader(unit) and rank(unit) == "senior")


def in_range(game: Game, leader: Unit, unit: Unit) -> bool:
    return distance((leader.x, leader.y), (unit.x, unit.y)) <= command_range(game, leader) + 1e-9


def _dice_ways(held: tuple[int, ...], face: int, combine: bool) -> list[tuple[int, ...]]:
    """The distinct sets of held dice that make `face`: one die of that face first, then combinations."""
    found: list[tuple[int, ...]] = [(face,)] if face in held else []
    if combine:
        for size in range(2, len(held) + 1):
            for combo in sorted(set(combinations(sorted(held), size))):
                if sum(combo) == face and combo not in found:
                    found.append(combo)
    return found


@dataclass(frozen=True)
class Way:
    """One way to activate a unit now: `key` is the choice's value, `words` what the player reads."""

    key: str
    words: str
    dice: tuple[int, ...] = ()
    leader: str = ""


def _dice_words(dice: tuple[int, ...]) -> str:
    if len(dice) == 1:
        return f"a held Command Dice {dice[0]}"
    return "held Command Dice " + " and ".join(str(f) for f in dice) + " combined"


def giving_orders(game: Game) -> list[Unit]:
    """The Leaders activated this Phase with an Order left, in play (none while Orders do not activate)."""
    if not bool(_setting(game, "order_activates")):
        return []
    return [u for u in game.units.values() if is_leader(u) and u.in_play
            and (act := current(game, u)) is not None and act.orders_left > 0]


def ways(game: Game, unit: Unit, leaders: list[Unit] | None = None) -> list[Way]:
    """Every way the unit's side can activate it now (none once it is activated this Phase).

    `leaders` is `giving_orders(game)` when the caller asks for many units of one game.
    """
    if current(game, unit) is not None or unit.side != game.active_side or not unit.in_play:
        return []
    out: list[Way] = []
    face = face_for(unit)
    if face is not None and rolled_this_phase(game, unit.side):
        held = tuple(game.side(unit.side).held_dice)
        for dice in _dice_ways(held, face, bool(_setting(game, "command_dice_combine"))):
            out.append(Way("dice:" + "+".join(str(f) for f in dice), _dice_words(dice), dice=dice))
    for leader in giving_orders(game) if leaders is None else leaders:
        if not (commands(leader, unit) and in_range(game, leader, unit)):
            continue
        left = current(game, leader)
        assert left is not None
        out.append(Way(f"order:{leader.id}", f"an Order from {leader.name} "
                                             f"({counted(left.orders_left, 'Orders')} left)", leader=leader.id))
    return out


def _refuse(field: str, text: str) -> SequenceRefusal:
    return SequenceRefusal(field, text)


def check_turn(game: Game, unit: Unit) -> None:
    """Refuse any step of a unit outside its side's Phase, or before the side has rolled its Command Dice."""
    if unit.off_table is not None:
        raise _refuse("unit", f"{unit.name} is {unit.off_table}: it takes no part in the game any more.")
    own = side_name(game, unit.side)
    if unit.side != game.active_side:
        raise _refuse("unit", f"It is the {side_name(game, game.active_side)} Phase: {unit.name} acts only in a "
                              f"{own} Phase.")
    if not rolled_this_phase(game, unit.side):
        raise _refuse("unit", f"Roll {possessive(own)} Command Dice for this Phase first: {unit.name} acts once "
                              "activated by a Command Dice or a Leader's Order.")


def why_not(game: Game, unit: Unit) -> str:
    """Why the unit cannot be activated now, in a player's words (it has no `ways`)."""
    own = side_name(game, unit.side)
    face = face_for(unit)
    if face is None:
        return f"{unit.name} is not activated by Command Dice."
    held = game.side(unit.side).held_dice
    holds = ", ".join(str(f) for f in held) if held else "no Command Dice"
    leaders = [u.name for u in game.units.values()
               if is_leader(u) and u.side == unit.side and current(game, u) is not None and commands(u, unit)]
    order = (f"; {' and '.join(leaders)} cannot order it now (out of Command Range or no Order left)" if leaders
             else "")
    return (f"{unit.name} has not been activated this Phase: it needs a Command Dice {face} "
            f"({kind_words(unit)}) or a Leader's Order, and {own} holds {holds}{order}.")


def _activation_effects(game: Game, unit: Unit, way: Way, doing: str | None) -> list[Effect]:
    stamp = now(game)
    done = [doing] if doing else []
    effects: list[Effect] = []
    if way.dice:
        held = list(game.side(unit.side).held_dice)
        for face in way.dice:
            held.remove(face)
        effects.append(SetHeldDice(unit.side, tuple(held)))
        orders = orders_of(game, unit) if is_leader(unit) else 0
        effects.append(SetActivation(unit.id, Activation(stamp.turn, stamp.phase, "command_die", list(way.dice),
                                                         "", orders, done)))
        return effects
    leader = game.unit(way.leader)
    act = current(game, leader)
    assert act is not None
    effects.append(SetActivation(leader.id, replace(act, orders_left=act.orders_left - 1,
                                                    done=[*act.done, ORDER] if ORDER not in act.done else act.done)))
    orders = orders_of(game, unit) if is_leader(unit) else 0
    effects.append(SetActivation(unit.id, Activation(stamp.turn, stamp.phase, "order", [], leader.id, orders, done)))
    return effects


def _way(game: Game, unit: Unit, key: object) -> Way:
    options = ways(game, unit)
    for way in options:
        if way.key == key:
            return way
    if not options:
        raise _refuse("activation", why_not(game, unit))
    offered = "; ".join(w.words for w in options)
    raise _refuse("activation", f"{unit.name} cannot be activated that way now: {offered}.")


def activated_words(game: Game, unit: Unit) -> str:
    """How the unit was activated this Phase and what it has done, for its card and the This Phase dock."""
    act = current(game, unit)
    if act is None:
        return ""
    if act.how == "command_die":
        how = "Command Dice " + " and ".join(str(f) for f in act.dice) if act.dice else "Command Dice"
    elif act.how == "order":
        leader = game.units.get(act.leader)
        how = f"Order from {leader.name if leader is not None else 'a Leader'}"
    else:
        how = "Chain of Command point"
    done = [DONE_WORDS[d] for d in act.done if d in DONE_WORDS and d != ORDER]
    text = f"Activated ({how})" + (": " + ", ".join(done) if done else "")
    if is_leader(unit):
        text += f"; {counted(act.orders_left, 'Orders')} left"
    return text


def acting(game: Game, unit: Unit, doing: str, choices: Choices) -> tuple[list[Effect], list[str]]:
    """The Effects and facts of `unit` doing `doing` (FIRE, MOVE) now, or a refusal, in Chain of Command.

    Not yet activated: the choice `activation` (a `Way.key`) activates it in the
    same step; without it, `ChoiceNeeded` offers the ways the side has now, or
    a refusal says why there are none. Activated already: a second fire, or a
    move after firing, is refused. Other rulesets keep their own activation.
    """
    if game.ruleset != RULESET or not activation_kept():
        return [], []
    check_turn(game, unit)
    act = current(game, unit)
    if act is not None:
        if FIRE in act.done and doing == FIRE:
            raise _refuse("firer", f"{unit.name} has already fired this Phase ({now(game)}): an activated unit "
                                   "fires once.")
        if FIRE in act.done and doing == MOVE:
            raise _refuse("unit", f"{unit.name} has fired this Phase ({now(game)}): it cannot move after firing.")
        if doing in act.done:
            return [], []
        return [SetActivation(unit.id, replace(act, done=[*act.done, doing]))], []
    way = _chosen_way(game, unit, choices)
    return _activation_effects(game, unit, way, doing), [f"{unit.name} activated with {way.words}"]


def _chosen_way(game: Game, unit: Unit, choices: Choices) -> Way:
    """The way the choice `activation` names; without one, ask for it among the ways the side has now."""
    key = choices.get("activation")
    if key is None or key == "":
        options = ways(game, unit)
        if not options:
            raise _refuse("activation", why_not(game, unit))
        raise ChoiceNeeded("activation", tuple((w.key, w.words) for w in options), f"How is {unit.name} activated?")
    return _way(game, unit, key)


def status(game: Game, unit: Unit, doing: str, choice: str | None) -> tuple[str | None, list[Way]]:
    """What a dialog shows before `unit` does `doing`: a refusal sentence or None, and the ways to pick from.

    The same reading as `acting`, for a dialog that offers the ways before the
    plan runs: ways are listed only while the unit still needs activating.
    """
    options = ways(game, unit)
    try:
        acting(game, unit, doing, {"activation": choice} if choice else {})
    except ChoiceNeeded:
        return None, options
    except Refusal as exc:
        return str(exc).removeprefix(f"{exc.field}: "), options
    return None, options


# -- the actions --------------------------------------------------------------------------------------------


def _plan_activate(game: Game, choices: Choices) -> Plan:
    """`unit` is activated now (`activation`: one of `ways`), before it does anything."""
    if game.ruleset != RULESET:
        raise Refusal("unit", "Activation by Command Dice and Orders is Chain of Command's.")
    unit = chosen_unit(game, choices)
    unknown = sorted(set(choices) - {"unit", "activation"})
    if unknown:
        raise Refusal(unknown[0], f"Activating a unit takes no choice {unknown[0]!r}.")
    check_turn(game, unit)
    if current(game, unit) is not None:
        raise _refuse("unit", f"{unit.name} has already been activated this Phase ({now(game)}).")
    way = _chosen_way(game, unit, choices)
    line = f"{unit.name} activated with {way.words}"
    if is_leader(unit):
        line += f": {counted(orders_of(game, unit), 'Orders')} to give"
    return Plan(STEP, {}, (line,), dict(choices), f"Activate {unit.name}",
                tuple(_activation_effects(game, unit, way, None)), "sequence", (line,))


ORDER_KINDS = ("activate", "rally")


def _plan_order(game: Game, choices: Choices) -> Plan:
    """`leader` spends an Order on `unit`: `order` "activate" it or "rally" its Shock."""
    if game.ruleset != RULESET:
        raise Refusal("leader", "Leaders' Orders are Chain of Command's.")
    leader = chosen_unit(game, choices, "leader")
    unit = chosen_unit(game, choices)
    kind = choices.get("order", "activate")
    if kind not in ORDER_KINDS:
        raise Refusal("order", "An Order activates a unit or rallies its Shock.")
    check_turn(game, leader)
    act = current(game, leader)
    if not is_leader(leader):
        raise _refuse("leader", f"{leader.name} is not a Leader: only Leaders give Orders.")
    if act is None:
        raise _refuse("leader", f"{leader.name} has not been activated this Phase: activate the Leader first "
                                f"(a Command Dice {face_for(leader)}).")
    if act.orders_left <= 0:
        raise _refuse("leader", f"{leader.name} has no Order left this Phase.")
    if unit.id != leader.id and not commands(leader, unit):
        why = ("a Junior Leader orders only the Unit it leads" if rank(leader) == "junior"
               else "an armoured vehicle takes Orders only from its own Leaders" if unit.is_vehicle
               else "it is not of this Leader's command")
        raise _refuse("unit", f"{leader.name} cannot order {unit.name}: {why}.")
    gap = distance((leader.x, leader.y), (unit.x, unit.y))
    reach = command_range(game, leader)
    if unit.id != leader.id and gap > reach + 1e-9:
        raise _refuse("unit", f"{unit.name} is {inches(gap)}\" from {leader.name}, beyond its Command Range of "
                              f"{inches(reach)}\".")
    spent = SetActivation(leader.id, replace(act, orders_left=act.orders_left - 1,
                                             done=[*act.done, ORDER] if ORDER not in act.done else act.done))
    if kind == "rally":
        most = int(_setting(game, "order_rallies_shock"))
        if most <= 0:
            raise _refuse("order", "Rallying Shock by Order is off in this game's Ruleset settings.")
        if unit.shock <= 0:
            raise _refuse("unit", f"{unit.name} has no Shock to rally.")
        removed = min(most, unit.shock)
        line = f"{leader.name} gives an Order: {unit.name} rallies {counted(removed, 'Shock')}"
        return Plan(STEP, {}, (line,), dict(choices), f"{leader.name}: rally {unit.name}",
                    (spent, ChangeCounter(unit.id, "shock", -removed)), "sequence", (line,))
    if unit.id == leader.id:
        raise _refuse("unit", f"{leader.name} is activated already: an Order goes to another unit.")
    if not bool(_setting(game, "order_activates")):
        raise _refuse("order", "Activating by Order is off in this game's Ruleset settings.")
    if current(game, unit) is not None:
        raise _refuse("unit", f"{unit.name} has already been activated this Phase ({now(game)}).")
    line = f"{leader.name} gives an Order: {unit.name} is activated"
    way = Way(f"order:{leader.id}", "", leader=leader.id)
    return Plan(STEP, {}, (line,), dict(choices), f"{leader.name} orders {unit.name}",
                tuple(_activation_effects(game, unit, way, None)), "sequence", (line,))


def order_targets(game: Game, leader: Unit, kind: str = "activate") -> list[Unit]:
    """The units the Leader's next Order of `kind` may go to now, nearest first (none when it has none left)."""
    act = current(game, leader)
    if act is None or act.orders_left <= 0 or leader.side != game.active_side or not leader.in_play:
        return []
    if kind == "rally" and int(_setting(game, "order_rallies_shock")) <= 0:
        return []
    if kind != "rally" and not bool(_setting(game, "order_activates")):
        return []
    here = (leader.x, leader.y)
    out = []
    for unit in game.units.values():
        if kind == "rally":
            ok = unit.shock > 0 and (unit.id == leader.id or (commands(leader, unit) and in_range(game, leader, unit)))
        else:
            ok = current(game, unit) is None and commands(leader, unit) and in_range(game, leader, unit)
        if ok and unit.in_play:
            out.append(unit)
    return sorted(out, key=lambda u: (distance(here, (u.x, u.y)), u.name))


def settings_of(values: Mapping[str, Scalar]) -> dict[str, Scalar]:
    return {k: values[k] for k in SETTINGS if k in values}


register_plan("coc.activate", _plan_activate)
register_plan("coc.order", _plan_order)


def started(game: Game) -> bool:
    """Whether play has begun: a side has rolled Command Dice. Before that the table is being set up."""
    return any(side.command_roll is not None for side in game.sides)


def move_effects(game: Game, unit: Unit, choices: Choices) -> tuple[list[Effect], list[str]]:
    """What moving `unit` on the map reads in Chain of Command: the bombardment's ban, then its activation.

    "They cannot move, but may Reposition" (000): a unit in a bombardment's
    area is refused whatever else allows it. Before the first Command Dice
    of the game the tokens are being set out on the table, and move freely.
    """
    if game.ruleset != RULESET or not activation_kept():
        return [], []
    from battletracker.rules.chain_of_command.bombardment import move_refusal

    refusal = move_refusal(game, unit.id)
    if refusal is not None:
        raise _refuse("unit", refusal + ".")
    if not started(game):
        return [], []
    return acting(game, unit, MOVE, choices)
