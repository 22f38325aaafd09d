"""A Medium Mortar bombardment's life on the table, as pure functions from the Game to Effects.

The Bombardments panel calls these for the steps that roll no dice (placing
the Forward Observer, fire for effect, re-aiming, the hidden Static/Rolling
die, extra rounds, editing the area) and to build the inputs of the two
procedures that do roll (`coc.ranging_shot`, `coc.bombardment_phase`). The map
and the fire dialogs ask here who is inside an area, where a rolling
bombardment goes next, and what a unit under a bombardment may not do.

Nothing here changes the game: each function returns the Effects (with log
lines) that the session applies as one undo step, and refuses an impossible
step with a RulesInputError naming the input and the numbers.

The Forward Observer acts in its own side's Phase only, and once a Phase: one
ranging shot (repeated only on later Phases), fire for effect or re-aiming at
its next activation after a shot that deviated, one Phase of fire. `waiting`
says why its next step is not allowed now; the steps refuse with the same
sentence.

Passengers are units whose `stats["embarked_in"]` names the vehicle carrying
them; a carrier that is not an AFV or APC (no `vehicle` record, or
`stats["transport"]` true) is a Transport, whose passengers are hit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import fields

from battletracker.core import geometry
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment_effects import AddBombardment
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Marker
from battletracker.model.game import Unit
from battletracker.model.references import EMBARKED_IN
from battletracker.rules.base import InputValue
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.log_lines import area_words
from battletracker.rules.log_lines import recorded_area_edit
from battletracker.rules.log_lines import recorded_point
from battletracker.rules.places import place_words
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import last_inputs
from battletracker.rules.sequence import now
from battletracker.rules.sequence import side_name
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import setting
from battletracker.rules.words import ordinal
from battletracker.rules.words import possessive

OBSERVER_MARKER = "forward_observer"
PINNED = "pinned"


def get_bombardment(game: Game, bombardment_id: str) -> Bombardment:
    try:
        return game.bombardments[bombardment_id]
    except KeyError:
        raise RulesInputError("bombardment_id", "that bombardment is not in the game") from None


def _setting(game: Game, key: str) -> int | str | bool | float:
    return setting(RULESET, key, game.settings)


def _int_setting(game: Game, key: str) -> int:
    value = _setting(game, key)
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def event(game: Game, kind: str, text: str, at: geometry.Point = (0.0, 0.0),
          origin: geometry.Point | None = None, **values: int | float | str | bool) -> BombardmentEvent:
    """A history line stamped with the game's Turn and Phase."""
    source = at if origin is None else origin
    return BombardmentEvent(game.turn, game.phase, kind, text, at[0], at[1], source[0], source[1], dict(values))


def observer_name(game: Game, b: Bombardment) -> str:
    """How every screen, map label, log line and report names a bombardment, as a player would: its side's
    possessive, the support's kind in the ruleset's words and which of the side's calls of that kind it is
    ("Germany's mortars, first barrage", "United States' SOS Fire").

    The count runs over the game's bombardments in the order they were called
    (a cleared one stays in the game), so a name never changes during a game; one
    not yet in the game is named as the next.
    """
    side = game.sides[b.side].name if 0 <= b.side < len(game.sides) else f"Side {b.side + 1}"
    count = 1
    for other in game.bombardments.values():
        if other.id == b.id:
            break
        if other.side == b.side and other.kind == b.kind:
            count += 1
    return f"{possessive(side)} {data().name_of(b.kind, ordinal(count), count > 1)}"


def _log(game: Game, text: str) -> AppendLog:
    return AppendLog.now(game, text, "bombardment")


def _check_point(game: Game, point: geometry.Point, x_key: str, y_key: str) -> None:
    for key, v in ((x_key, point[0]), (y_key, point[1])):
        if v != v or v in (float("inf"), float("-inf")):
            raise RulesInputError(key, f"must be a finite number, not {v}")
    if not -geometry.EPSILON <= point[0] <= game.table_width + geometry.EPSILON:
        raise RulesInputError(x_key, f"{point[0]:g} is off the table (0 to {game.table_width:g} inches)")
    if not -geometry.EPSILON <= point[1] <= game.table_height + geometry.EPSILON:
        raise RulesInputError(y_key, f"{point[1]:g} is off the table (0 to {game.table_height:g} inches)")


# placing the Forward Observer ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AreaOptions:
    """The area and weapon of one bombardment; anything left None comes from the game's settings."""

    shape: str | None = None
    width: float | None = None
    depth: float | None = None
    radius: float | None = None
    facing: float | None = None
    firepower_dice: int | None = None
    to_hit: int | None = None


BEGIN_WORDS = ("Medium Mortars come only with the missions that give them. To call them, New bombardment... places "
               "the Forward Observer with its die of Phases of fire and marks the aiming point, anywhere on the "
               "table; it then ranges in when activated by a held 1 or a Chain of Command point.")
"""How a side begins a bombardment, in the seed's terms (000: "only available for specific missions")."""


def phases_words(game: Game) -> str:
    """Where the Forward Observer's die of Phases of fire comes from: a setting, the document gives no number.

    The document has the Forward Observer track the Phases on a D6 but does not
    say how many a bombardment has, so the number is the Ruleset setting's:
    a default to check, unless this game's settings change it.
    """
    s = find_setting(RULESET, "bombardment_phases")
    value = setting(RULESET, "bombardment_phases", game.settings)
    source = (f"this game's Ruleset settings make it {value}" if value != s.default
              else f"{s.default} is a default to check against your scenario or rulebook")
    return (f"The document has the Forward Observer count its Phases of fire on a D6 but does not say how many: "
            f"{source} (Game > Ruleset settings, \"{s.title}\"). Ranging shots use none.")


def new_bombardment(game: Game, side: int, observer: geometry.Point, aim: geometry.Point, *,
                    kind: str = "high_explosive", phases: int | None = None,
                    area: AreaOptions = AreaOptions(), bombardment_id: str | None = None) -> list[Effect]:
    """Place a Forward Observer (a map marker) with its phase die and the first aiming point."""
    if not 0 <= side < len(game.sides):
        raise RulesInputError("side", f"there is no side number {side + 1}")
    if kind not in ("high_explosive", "smoke"):
        raise RulesInputError("kind", f"must be high_explosive or smoke, not {kind!r}")
    _check_point(game, observer, "observer_x", "observer_y")
    _check_point(game, aim, "aim_x", "aim_y")
    die = _int_setting(game, "bombardment_phases") if phases is None else phases
    if not 1 <= die <= 6:
        raise RulesInputError("phases", f"the Forward Observer's die shows 1-6 Phases of fire, not {die}")
    bid = bombardment_id or game.new_id("b", game.bombardments)
    if bid in game.bombardments:
        raise RulesInputError("bombardment_id", f"{bid!r} is already a bombardment")
    marker_id = game.new_id("fo")
    a = _area(game, area)
    b = Bombardment(id=bid, side=side, kind=kind, state="ranging", observer_id=marker_id, x=aim[0], y=aim[1],
                    phases_left=die, shape=a.shape, width=a.width, depth=a.depth, radius=a.radius,
                    facing=a.facing, firepower_dice=a.firepower_dice, to_hit=a.to_hit)
    b.history.append(event(game, "placed", f"Forward Observer placed, aiming at {recorded_point(aim)}, "
                                           f"{die} Phases of fire", aim, observer, phases=die))
    marker = Marker(marker_id, OBSERVER_MARKER, observer[0], observer[1], 0.0, "FO", side, {"bombardment": bid})
    name = observer_name(game, b)
    return [AddBombardment(b), PlaceMarker(marker),
            _log(game, f"{name}: Forward Observer placed with {die} Phases of fire; aiming point "
                       f"{place_words(game, aim)}")]


@dataclass(frozen=True)
class Area:
    """A bombardment's area and weapon with every value settled."""

    shape: str
    width: float
    depth: float
    radius: float
    facing: float
    firepower_dice: int
    to_hit: int

    def items(self) -> tuple[tuple[str, object], ...]:
        return tuple((f.name, getattr(self, f.name)) for f in fields(self))


def _area(game: Game, area: AreaOptions) -> Area:
    """The options with the game's settings filled in, each checked."""
    settled = Area(
        shape=area.shape if area.shape is not None else str(_setting(game, "bombardment_area_shape")),
        width=float(area.width if area.width is not None else _int_setting(game, "bombardment_area_width")),
        depth=float(area.depth if area.depth is not None else _int_setting(game, "bombardment_area_depth")),
        radius=float(area.radius if area.radius is not None else _int_setting(game, "bombardment_area_radius")),
        facing=geometry.normalise(area.facing if area.facing is not None else 0.0),
        firepower_dice=(area.firepower_dice if area.firepower_dice is not None
                        else _int_setting(game, "bombardment_firepower_dice")),
        to_hit=area.to_hit if area.to_hit is not None else _int_setting(game, "bombardment_to_hit"),
    )
    if settled.shape not in ("rectangle", "circle"):
        raise RulesInputError("shape", f"must be rectangle or circle, not {settled.shape!r}")
    for key, value in (("width", settled.width), ("depth", settled.depth), ("radius", settled.radius)):
        if not 0 < value <= 1000:
            raise RulesInputError(key, f"must be more than 0 inches, not {inches(value)}")
    if not 1 <= settled.firepower_dice <= 60:
        raise RulesInputError("firepower_dice", f"must be 1 to 60, not {settled.firepower_dice}")
    if not 2 <= settled.to_hit <= 6:
        raise RulesInputError("to_hit", f"must be 2 to 6, not {settled.to_hit}")
    return settled


def edit_area(game: Game, bombardment_id: str, area: AreaOptions) -> list[Effect]:
    """Change one bombardment's area or weapon (the values left None keep theirs)."""
    b = get_bombardment(game, bombardment_id)
    if b.state == "cleared":
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} has cleared")
    merged = AreaOptions(
        shape=b.shape if area.shape is None else area.shape,
        width=b.width if area.width is None else area.width,
        depth=b.depth if area.depth is None else area.depth,
        radius=b.radius if area.radius is None else area.radius,
        facing=b.facing if area.facing is None else area.facing,
        firepower_dice=b.firepower_dice if area.firepower_dice is None else area.firepower_dice,
        to_hit=b.to_hit if area.to_hit is None else area.to_hit,
    )
    changed = tuple((k, v) for k, v in _area(game, merged).items() if getattr(b, k) != v)
    if not changed:
        return []
    text = "Area edited: " + ", ".join(area_words(k, v) for k, v in changed)
    record = event(game, "edited", recorded_area_edit(changed), b.centre)
    return [UpdateBombardment(b.id, changed), AppendBombardmentEvent(b.id, record),
            _log(game, f"{observer_name(game, b)}: {text}")]


# ranging --------------------------------------------------------------------------------------------------


def ranging_inputs(game: Game, bombardment_id: str, bearing: float | None = None) -> dict[str, InputValue]:
    """The inputs of `coc.ranging_shot` for this bombardment's next ranging shot."""
    b = get_bombardment(game, bombardment_id)
    if b.state != "ranging":
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} is {b.state}; only a bombardment "
                                                "that is ranging takes a ranging shot")
    _check_not_waiting(game, b)
    inputs: dict[str, InputValue] = {
        "aim_x": b.x, "aim_y": b.y, "unobserved_attempts": b.unobserved_attempts, "bombardment_id": b.id,
        "turn": game.turn, "phase": game.phase, "side": b.side, "active_side": game.active_side,
        **last_inputs("last_ranging", b.last_ranged), "table_width": game.table_width,
        "table_height": game.table_height,
    }
    if b.kind == "smoke":
        inputs["smoke"] = True
    if bearing is not None:
        inputs["bearing"] = bearing
    for key in ("ranging_bearing_die_sides", "ranging_above_table"):
        if key in game.settings:
            inputs[key] = game.settings[key]
    return inputs


def _landed(game: Game, bombardment_id: str, what: str) -> Bombardment:
    b = get_bombardment(game, bombardment_id)
    if b.state != "landed" or b.landed_x is None or b.landed_y is None:
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} is {b.state}; {what} follows a "
                                                "ranging shot that deviated")
    _check_not_waiting(game, b)
    return b


def fire_for_effect(game: Game, bombardment_id: str) -> list[Effect]:
    """The Forward Observer calls for fire on the point where the ranging shot landed: the bombardment begins."""
    b = _landed(game, bombardment_id, "fire for effect")
    assert b.landed_x is not None and b.landed_y is not None
    at = (b.landed_x, b.landed_y)
    text = "Fire for effect on {}: the bombardment begins"
    return [UpdateBombardment(b.id, (("state", "ready"), ("x", at[0]), ("y", at[1]), ("landed_x", None),
                                     ("landed_y", None), ("devastating", False))),
            AppendBombardmentEvent(b.id, event(game, "fire_for_effect", text.format(recorded_point(at)), at,
                                               b.centre)),
            _log(game, f"{observer_name(game, b)}: Fire for effect on the landing point, {place_words(game, at)}: "
                       "the bombardment begins")]


def re_aim(game: Game, bombardment_id: str, aim: geometry.Point) -> list[Effect]:
    """A fresh aiming point instead of the landed shot: ranging begins again (the +1s start again too)."""
    b = _landed(game, bombardment_id, "re-aiming")
    _check_point(game, aim, "aim_x", "aim_y")
    text = "Re-aimed at {}: ranging begins again"
    return [UpdateBombardment(b.id, (("state", "ranging"), ("x", aim[0]), ("y", aim[1]), ("landed_x", None),
                                     ("landed_y", None), ("unobserved_attempts", 0))),
            AppendBombardmentEvent(b.id, event(game, "re_aim", text.format(recorded_point(aim)), aim, b.centre)),
            _log(game, f"{observer_name(game, b)}: Re-aimed {place_words(game, aim)}: ranging begins again")]


# the hidden Static or Rolling die -------------------------------------------------------------------------


def is_rolling(face: int | None) -> bool:
    return face is not None and data().pattern.rate(face) > 0


def place_pattern_die(game: Game, bombardment_id: str, face: int, direction: str | None = None) -> list[Effect]:
    """The owner's hidden D6: 1-3 Static, 4-6 Rolling 6", 9", 12" per move along `direction`.

    `direction` is the way a rolling bombardment moves, parallel with the
    table edge the owner picks (up, down, left or right). The log and the
    history say only that the die was placed, so the opponent cannot read it.
    """
    b = get_bombardment(game, bombardment_id)
    if b.kind == "sos":
        raise RulesInputError("bombardment_id", "SOS Fire has no Static or Rolling die")
    if b.phases_fired or b.state not in ("ranging", "landed", "ready"):
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} has begun firing; its die was placed "
                                                "when the bombardment began")
    if not 1 <= face <= 6:
        raise RulesInputError("pattern_die", f"a D6 shows 1-6, not {face}")
    pattern = data().pattern
    if is_rolling(face):
        if direction not in geometry.EDGE_DIRECTIONS:
            raise RulesInputError("direction", f"a Rolling bombardment ({face}: {pattern.rate(face)}\" per move) "
                                               f"needs a direction along a table edge "
                                               f"({', '.join(geometry.EDGE_DIRECTIONS)}), not {direction!r}")
        moves = pattern.moves
    else:
        if direction is not None:
            raise RulesInputError("direction", f"a Static bombardment ({face}) does not move")
        moves = 0
    text = "Static or Rolling die placed, hidden from the opponent"
    return [UpdateBombardment(b.id, (("pattern_die", face), ("direction", direction), ("moves_left", moves),
                                     ("revealed", False))),
            AppendBombardmentEvent(b.id, event(game, "pattern", text, b.centre)),
            _log(game, f"{observer_name(game, b)}: {text}")]


def describe_pattern(pattern_die: int | None, direction: str | None) -> str:
    """The hidden die's meaning in words (only show it where `Bombardment.pattern_visible_to` allows)."""
    if pattern_die is None:
        return "no die placed"
    rate = data().pattern.rate(pattern_die)
    if not rate:
        return f"{pattern_die}: Static"
    return f"{pattern_die}: Rolling {rate}\" per move, {direction}"


def next_centre(b: Bombardment) -> geometry.Point:
    """Where the next Phase of fire falls: a rolling bombardment moves first, from its second Phase on."""
    if b.phases_fired >= 1 and b.moves_left > 0 and b.pattern_die is not None and b.direction is not None:
        rate = data().pattern.rate(b.pattern_die)
        if rate:
            return geometry.step_parallel(b.centre, b.direction, float(rate))
    return b.centre


def _phases_that_may_move(b: Bombardment) -> int:
    """The Phases of fire left that begin with a move: all of them once it has fired, else all but the first."""
    return b.phases_left if b.phases_fired >= 1 else b.phases_left - 1


def future_centres(b: Bombardment) -> list[geometry.Point]:
    """Every position a rolling bombardment will still fire at, in order (the map's ghosts).

    A static bombardment, or one that has made all its moves, lists nothing.
    """
    if b.pattern_die is None or b.direction is None or b.state in ("lingering", "cleared"):
        return []
    rate = data().pattern.rate(b.pattern_die)
    if not rate:
        return []
    out: list[geometry.Point] = []
    at = b.centre
    for _ in range(max(0, min(b.moves_left, _phases_that_may_move(b)))):
        at = geometry.step_parallel(at, b.direction, float(rate))
        out.append(at)
    return out


def add_rounds(game: Game, bombardment_id: str, rounds: int) -> list[Effect]:
    """Extra rounds bought for a bombardment: more Phases of fire, static at its last position.

    A rolling bombardment still makes the moves its own Phases allow; the
    extra Phases never move it.
    """
    b = get_bombardment(game, bombardment_id)
    if b.state not in ("ready", "firing"):
        raise RulesInputError("bombardment_id", f"{observer_name(game, b)} is {b.state}; rounds are added to a "
                                                "bombardment that is firing")
    if rounds < 1:
        raise RulesInputError("rounds", f"at least one round, not {rounds}")
    moves = max(0, min(b.moves_left, _phases_that_may_move(b)))
    text = f"{counted(rounds, 'extra rounds')} bought, static at the last position"
    return [UpdateBombardment(b.id, (("phases_left", b.phases_left + rounds), ("extra_rounds", b.extra_rounds + rounds),
                                     ("moves_left", moves))),
            AppendBombardmentEvent(b.id, event(game, "rounds_added", text, b.centre, rounds=rounds)),
            _log(game, f"{observer_name(game, b)}: {text}")]


# the panel's next step --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextAction:
    """What the panel's button offers next: `key` for code, `text` for the player."""

    key: str
    text: str


def next_action(b: Bombardment) -> NextAction:
    if b.state == "ranging":
        plus = b.unobserved_attempts * data().ranging.per_unobserved_attempt
        return NextAction("range", "Range" + (f" (+{plus})" if plus else ""))
    if b.state == "landed":
        return NextAction("fire_for_effect_or_re_aim", "Fire for effect on the landing point, or re-aim")
    if b.state == "ready" and b.pattern_die is None:
        return NextAction("place_pattern_die", "Place the hidden Static or Rolling die")
    if b.state == "ready":
        return NextAction("fire", "Fire this Phase")
    if b.state == "firing":
        return NextAction("activate", "Activate with a Command Dice 1 or a Chain of Command point, "
                                      "or contact is lost")
    if b.state == "lingering":
        return NextAction("wait", f"Effects clear after {b.linger_phases} more "
                                   f"{'Phase end' if b.linger_phases == 1 else 'Phase ends'}")
    return NextAction("none", "Cleared")


@dataclass(frozen=True)
class Waiting:
    """Why the Forward Observer's next step is not allowed now: `short` for the panel, `sentence` for a refusal."""

    short: str
    sentence: str


def waiting(game: Game, b: Bombardment) -> Waiting | None:
    """Why the next step (ranging, fire for effect or re-aiming, a Phase of fire) must wait, or None.

    Each is an activation of the Forward Observer: in its own side's Phase
    only, once a Phase. Placing the hidden die and buying rounds never wait.
    """
    key = next_action(b).key
    if key not in ("range", "fire_for_effect_or_re_aim", "fire", "activate"):
        return None
    name = observer_name(game, b)
    owner = side_name(game, b.side)
    if game.active_side != b.side:
        return Waiting(f"Waits for the {owner} Phase",
                       f"It is the {side_name(game, game.active_side)} Phase: {name} acts only in a {owner} Phase.")
    current = now(game)
    if key == "range" and b.last_ranged == current:
        plus = b.unobserved_attempts * data().ranging.per_unobserved_attempt
        return Waiting(f"Ranged this Phase: again in a later Phase with +{plus}",
                       f"{name} has already taken a ranging shot this Phase ({current}): an unobserved shot "
                       f"is repeated on a later {owner} Phase.")
    if key == "fire_for_effect_or_re_aim" and b.last_ranged == current:
        return Waiting("The shot landed this Phase: fire for effect or re-aim in a later Phase",
                       f"{name}'s ranging shot landed this Phase ({current}): the Forward Observer calls for fire "
                       f"for effect or re-aims when next activated, in a later {owner} Phase.")
    if key in ("fire", "activate") and b.last_fired == current:
        return Waiting("Fired this Phase",
                       f"{name} has already fired this Phase ({current}): a bombardment fires once a Phase, "
                       f"next in a later {owner} Phase.")
    return None


def _check_not_waiting(game: Game, b: Bombardment) -> None:
    wait = waiting(game, b)
    if wait is not None:
        raise SequenceRefusal("bombardment_id", wait.sentence)


# who is inside, and what they may not do -------------------------------------------------------------------


def carrier_of(game: Game, unit: Unit) -> Unit | None:
    """The vehicle a passenger is embarked in (`stats["embarked_in"]`), if it is in the game."""
    carrier = unit.stats.get(EMBARKED_IN)
    if isinstance(carrier, str) and carrier in game.units and carrier != unit.id:
        return game.units[carrier]
    return None


def is_transport(unit: Unit) -> bool:
    """A soft-skinned Transport, whose passengers are hit (an AFV's or APC's are not)."""
    return unit.stats.get("transport") is True or (unit.kind == "vehicle" and unit.vehicle is None)


def unit_teams(unit: Unit) -> int:
    """How many Teams the unit's card says it has (`stats["teams"]`, a Section's two); one when it does not say."""
    teams = unit.stats.get("teams")
    return teams if isinstance(teams, int) and not isinstance(teams, bool) and teams >= 1 else 1


def units_in_area(game: Game, b: Bombardment, centre: geometry.Point | None = None,
                  units: Iterable[Unit] | None = None) -> list[str]:
    """Ids of the units in play inside the area, in roster order; a passenger is where its vehicle is."""
    out: list[str] = []
    for unit in (game.units.values() if units is None else units):
        if not unit.in_play:
            continue
        carrier = carrier_of(game, unit)
        where = (carrier.x, carrier.y) if carrier is not None else (unit.x, unit.y)
        if b.contains(where, centre):
            out.append(unit.id)
    return out


def rally_release(game: Game, unit_id: str, shock_after: int) -> tuple[list[Effect], list[str]]:
    """Effects and log lines when a unit's Shock is rallied to `shock_after`: left behind, at none it is unpinned.

    "If a Bombardment moves and a unit previously affected is no longer in the
    Bombardment area, that Unit remains Pinned until all Shock is rallied from
    it or the Bombardment ends, whichever occurs first." Only when every
    bombardment holding it lets it go (none still covers it, no SOS Fire holds it).
    """
    unit = game.units.get(unit_id)
    if unit is None or shock_after != 0 or not unit.has(PINNED):
        return [], []
    holders = [b for b in game.bombardments.values() if b.state != "cleared" and unit_id in b.pinned]
    if not holders or any(b.kind != "high_explosive" or unit_id in units_in_area(game, b) for b in holders):
        return [], []
    effects: list[Effect] = [SetBombardmentPin(b.id, unit_id, False) for b in holders]
    effects.append(SetCondition(unit_id, PINNED, False))
    return effects, [f"{unit.name} has rallied all its Shock outside the bombardment: no longer Pinned"]


def active_areas(game: Game, kinds: tuple[str, ...] = ("high_explosive",)) -> list[Bombardment]:
    """Bombardments whose areas have effects now (begun and not cleared)."""
    return [b for b in game.bombardments.values() if b.active and b.kind in kinds]


def covering(game: Game, unit_id: str, kinds: tuple[str, ...] = ("high_explosive",)) -> Bombardment | None:
    """The first active bombardment whose area holds this unit."""
    unit = game.units.get(unit_id)
    if unit is None:
        return None
    for b in active_areas(game, kinds):
        if unit.id in units_in_area(game, b, units=[unit]):
            return b
    return None


def fire_refusal(game: Game, firer_id: str, target_id: str) -> str | None:
    """Why this shot is not allowed under a bombardment (None if it is): the fire dialogs show it."""
    for role, unit_id in (("firer", firer_id), ("target", target_id)):
        b = covering(game, unit_id)
        if b is not None:
            name = game.units[unit_id].name
            verb = "fire" if role == "firer" else "be fired at"
            return f"{name} is under {observer_name(game, b)}: units in a bombardment area cannot {verb}"
    return None


def move_refusal(game: Game, unit_id: str) -> str | None:
    """Why a unit may not move (it may still Reposition), or None."""
    b = covering(game, unit_id)
    if b is None:
        return None
    return (f"{game.units[unit_id].name} is under {observer_name(game, b)}: it cannot move, but may Reposition "
            f"with a Chain of Command point")


def disembark_refusal(game: Game, unit_id: str) -> str | None:
    """Why a passenger may not disembark voluntarily this Phase of movement, or None."""
    unit = game.units.get(unit_id)
    if unit is None or carrier_of(game, unit) is None:
        return None
    b = covering(game, unit_id)
    if b is None:
        return None
    return f"{unit.name} is under {observer_name(game, b)}: passengers cannot disembark voluntarily"


def edit_refusal(game: Game, old: Unit, new: Unit) -> str | None:
    """Why a unit's edit may not take a passenger out of its vehicle now (rules/edit_checks.py), or None.

    "No passengers can voluntarily disembark in any Phase of movement in the
    Bombardment." A passenger leaves its vehicle when the edit changes or
    clears its `embarked_in`; while the vehicle is in an active high-explosive
    bombardment's area that is refused, naming the bombardment. SOS Fire and
    smoke do not stop it.
    """
    if game.ruleset != RULESET or old.stats.get(EMBARKED_IN) == new.stats.get(EMBARKED_IN):
        return None
    return disembark_refusal(game, old.id)
