"""Cover and Line of Sight read from the table: terrain pieces, buildings and smoke.

Each ruleset names its terrain kinds in `resources/rulesets/<ruleset>/terrain.toml`
(`terrain_rules`). The queries the plans and the map call:

- `cover_against(game, firer, target)`: the best cover the target has
  against that firer, with the sentence that says why ("Light cover: in
  Copse", "Hard cover: behind Stone wall"). Area terrain and buildings give
  cover to what stands in them; a linear obstacle gives cover when the line
  of fire crosses it and the target is within `[linear].adjacent` of it.
- `sight(game, a, b)`: whether Line of Sight runs from a to b, and what
  blocks it ("No Line of Sight: crosses Farmhouse"). Blocked by a standing
  building it crosses (unless a or b is inside that building), by an area
  that blocks sight where the line runs deeper into it than its depth, by a
  linear piece that blocks sight unless a or b is next to it, and by smoke
  that blocks sight in this ruleset. Smoke fired through without blocking
  is listed (`SightReading.smoke`) for its to-hit modifier.

Every rule here is symmetric in a and b, so sight from a to b is sight from
b to a. For many questions about one game state build one `TableIndex` and
ask it: it keeps each piece's outline and bounding box ready, and rejects a
piece whose box the line misses before any exact test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core import geometry
from battletracker.core.geometry import Box, Point
from battletracker.model.game import Game, Unit
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.tables import Table, TableError, ruleset_file


@dataclass(frozen=True)
class TerrainKind:
    """One kind of terrain piece of a ruleset, as terrain.toml gives it."""

    key: str
    title: str
    shape: str
    cover: str
    blocks_sight: bool
    sight_depth: float
    check: bool
    source: str


@dataclass(frozen=True)
class TerrainRules:
    """A ruleset's terrain data: its cover levels (least first), kinds, buildings and smoke."""

    ruleset: str
    levels: tuple[str, ...]
    kinds: dict[str, TerrainKind]
    linear_adjacent: float
    building_cover: str
    buildings_block_sight: bool
    smoke_blocks_sight: bool
    smoke_bombardment_kinds: tuple[str, ...]

    def kind(self, key: str) -> TerrainKind | None:
        return self.kinds.get(key)

    def rank(self, level: str) -> int:
        return self.levels.index(level)


def _level(t: Table, key: str, levels: tuple[str, ...]) -> str:
    return t.str(key, levels)


@lru_cache(maxsize=8)
def terrain_rules(ruleset: str) -> TerrainRules:
    """The ruleset's terrain.toml, every value checked (a TableError names the file, table and key)."""
    whole = ruleset_file(ruleset, "terrain")
    levels = tuple(str(v) for v in whole.table("cover").list("levels"))
    if len(levels) < 2 or len(set(levels)) != len(levels) or not all(levels):
        raise TableError(f"{whole.where}: cover levels must be two or more different names")
    kinds: dict[str, TerrainKind] = {}
    for key, t in whole.table("kinds").tables():
        shape = t.str("shape", ("area", "linear"))
        blocks = t.bool("blocks_sight")
        kinds[key] = TerrainKind(
            key=key, title=t.str("title"), shape=shape, cover=_level(t, "cover", levels), blocks_sight=blocks,
            sight_depth=t.float("sight_depth", minimum=0.0) if shape == "area" and blocks else 0.0,
            check=t.bool("check"), source=t.str("source"))
    if not kinds:
        raise TableError(f"{whole.where}: table 'kinds': names no kind of terrain")
    buildings, smoke = whole.table("buildings"), whole.table("smoke")
    return TerrainRules(
        ruleset=ruleset, levels=levels, kinds=kinds,
        linear_adjacent=whole.table("linear").float("adjacent", minimum=0.0),
        building_cover=_level(buildings, "cover", levels),
        buildings_block_sight=buildings.bool("blocks_sight"),
        smoke_blocks_sight=smoke.bool("blocks_sight"),
        smoke_bombardment_kinds=tuple(str(k) for k in smoke.list("bombardment_kinds")))


def piece_problem(game: Game, piece: TerrainPiece) -> str | None:
    """What makes the piece wrong for this game's ruleset, in a player's words, or None."""
    rules = terrain_rules(game.ruleset)
    kind = rules.kind(piece.kind)
    if kind is None:
        names = ", ".join(k.title for k in rules.kinds.values())
        return f"{piece.kind!r} is not a kind of terrain in this ruleset ({names})"
    if kind.shape != piece.shape:
        drawn = "an area" if kind.shape == "area" else "a line"
        return f"{kind.title} is drawn as {drawn}"
    if piece.cover is not None and piece.cover not in rules.levels:
        return f"{piece.cover!r} is not a level of cover ({', '.join(rules.levels)})"
    return None


@dataclass(frozen=True)
class CoverReading:
    """The cover a target has against a firer: `level` (a ruleset cover level) and why.

    `source` is the id of the piece or building that gives it, None in the open.
    """

    level: str
    reason: str
    source: str | None = None


@dataclass(frozen=True)
class SightReading:
    """Whether Line of Sight is clear, and why not (`blocker` the id of what blocks it).

    `smoke` names smoke areas the line passes through without being blocked
    (each is its to-hit modifier, see SmokeArea.to_hit).
    """

    clear: bool
    reason: str
    blocker: str | None = None
    smoke: tuple[str, ...] = ()


def _point(where: Point | Unit) -> Point:
    return (where.x, where.y) if isinstance(where, Unit) else where


def _cover_words(level: str) -> str:
    return f"{level.replace('_', ' ').capitalize()} cover"


@dataclass(frozen=True)
class _Piece:
    """A piece ready for the queries: outline, box, and its kind's values with the piece's overrides."""

    id: str
    name: str
    linear: bool
    points: tuple[Point, ...]
    box: Box
    rank: int
    level: str
    blocks_sight: bool
    depth: float


def _prepare(piece: TerrainPiece, rules: TerrainRules) -> _Piece | None:
    kind = rules.kind(piece.kind)
    if kind is None or kind.shape != piece.shape:
        return None
    level = piece.cover if piece.cover in rules.levels else kind.cover
    blocks = kind.blocks_sight if piece.blocks_sight is None else piece.blocks_sight
    depth = kind.sight_depth if piece.sight_depth is None else piece.sight_depth
    points = tuple(piece.points)
    return _Piece(piece.id, piece.name or kind.title, piece.shape == "linear", points,
                  geometry.bounding_box(points), rules.rank(level), level, blocks, depth)


class TableIndex:
    """One game state's terrain, buildings and smoke, prepared for many cover and sight questions.

    Build it once per state (after each change) and ask it as often as needed;
    it reads the game only while being built.
    """

    def __init__(self, game: Game) -> None:
        self.rules = rules = terrain_rules(game.ruleset)
        prepared = [p for p in (_prepare(piece, rules) for piece in game.terrain.values()) if p is not None]
        self.areas = [p for p in prepared if not p.linear]
        self.lines = [p for p in prepared if p.linear]
        building_rank = rules.rank(rules.building_cover)
        self.buildings: list[_Piece] = []
        for b in game.buildings.values():
            if b.state == "collapsed":
                continue
            outline = tuple(b.outline())
            self.buildings.append(_Piece(b.id, b.name, False, outline, geometry.bounding_box(outline),
                                         building_rank, rules.building_cover, rules.buildings_block_sight, 0.0))
        self.sight_areas = [p for p in self.areas if p.blocks_sight]
        self.sight_lines = [p for p in self.lines if p.blocks_sight]
        self.sight_buildings = [p for p in self.buildings if p.blocks_sight]
        self.smoke = [(s.id, tuple(s.outline()), s.to_hit) for s in game.smoke.values()]
        self.smoke_boxes = [geometry.bounding_box(outline) for _, outline, _ in self.smoke]
        # A bombardment lays its smoke from its first Phase of fire until its effects end (`active`).
        self.barrages: list[tuple[str, tuple[Point, ...], Point, float]] = []
        for barrage in game.bombardments.values():
            if barrage.kind in rules.smoke_bombardment_kinds and barrage.active:
                self.barrages.append((barrage.id, tuple(barrage.outline()), barrage.centre, barrage.radius))

    # cover ---------------------------------------------------------------------------------------------

    def cover_against(self, firer: Point | Unit | None, target: Point | Unit, *,
                      linear: bool = True) -> CoverReading:
        """The best cover `target` has against fire from `firer` (None: from no point, as a bombardment).

        `linear` False leaves out linear obstacles (a Bombardment or SOS Fire:
        "linear obstacles do not give any cover to Units adjacent to them").
        Of equal levels the one found first is named: area terrain, then
        buildings, then linear obstacles, each in the table's order.
        """
        at = _point(target)
        best: _Piece | None = None
        rank, how = 0, ""
        for piece in (*self.areas, *self.buildings):
            if piece.rank > rank and piece.box.contains(at) and geometry.point_in_polygon(at, piece.points):
                best, rank, how = piece, piece.rank, "in"
        if linear and firer is not None:
            origin = _point(firer)
            reach = self.rules.linear_adjacent
            for piece in self.lines:
                if piece.rank > rank and piece.box.grown(reach).contains(at) \
                        and geometry.distance_to_polyline(at, piece.points) <= reach + geometry.EPSILON \
                        and geometry.segment_crosses_polyline(origin, at, piece.points):
                    best, rank, how = piece, piece.rank, "behind"
        if best is None:
            return CoverReading(self.rules.levels[0], "In the open")
        return CoverReading(best.level, f"{_cover_words(best.level)}: {how} {best.name}", best.id)

    # sight -----------------------------------------------------------------------------------------------

    def sight(self, a: Point | Unit, b: Point | Unit) -> SightReading:
        """Line of Sight between two points (or units); the same answer either way round."""
        p, q = _point(a), _point(b)
        for piece in self.sight_buildings:
            if piece.box.meets_segment(p, q) and not geometry.point_in_polygon(p, piece.points) \
                    and not geometry.point_in_polygon(q, piece.points) \
                    and geometry.segment_crosses_polygon(p, q, piece.points):
                return SightReading(False, f"No Line of Sight: crosses {piece.name}", piece.id)
        for piece in self.sight_areas:
            if piece.box.meets_segment(p, q):
                deep = geometry.length_inside_polygon(p, q, piece.points)
                if deep > piece.depth + geometry.EPSILON:
                    return SightReading(False, f"No Line of Sight: more than {piece.depth:g}\" through {piece.name}",
                                        piece.id)
        reach = self.rules.linear_adjacent
        for piece in self.sight_lines:
            if piece.box.meets_segment(p, q) and geometry.segment_crosses_polyline(p, q, piece.points) \
                    and geometry.distance_to_polyline(p, piece.points) > reach + geometry.EPSILON \
                    and geometry.distance_to_polyline(q, piece.points) > reach + geometry.EPSILON:
                return SightReading(False, f"No Line of Sight: {piece.name} is in the way", piece.id)
        for bid, outline, centre, radius in self.barrages:
            crossed = geometry.distance_to_segment(p, q, centre) <= radius + geometry.EPSILON if not outline \
                else geometry.segment_crosses_polygon(p, q, outline)
            if crossed:
                return SightReading(False, "No Line of Sight: through the smoke of a bombardment", bid)
        through: list[str] = []
        for (sid, outline, _to_hit), box in zip(self.smoke, self.smoke_boxes, strict=True):
            if box.meets_segment(p, q) and geometry.segment_crosses_polygon(p, q, outline):
                if self.rules.smoke_blocks_sight:
                    return SightReading(False, "No Line of Sight: through smoke", sid)
                through.append(sid)
        if through:
            return SightReading(True, "Line of Sight through smoke", smoke=tuple(through))
        return SightReading(True, "Line of Sight clear")


def cover_against(game: Game, firer: Point | Unit | None, target: Point | Unit, *,
                  linear: bool = True) -> CoverReading:
    """The cover `target` has against `firer` on this table (see TableIndex.cover_against)."""
    return TableIndex(game).cover_against(firer, target, linear=linear)


def sight(game: Game, a: Point | Unit, b: Point | Unit) -> SightReading:
    """Line of Sight between a and b on this table (see TableIndex.sight)."""
    return TableIndex(game).sight(a, b)


SIGHT_RING = 16
"""Points sampled on the rim of a Line-of-Sight circle (every 22.5°)."""
SIGHT_INNER = 8
"""Points sampled on a circle at half the radius, for a blocker that hides the rim but not the middle."""


def circle_points(centre: Point, radius: float) -> tuple[Point, ...]:
    """The points `sight_within` tries: the centre, SIGHT_INNER at half the radius, SIGHT_RING on the rim.

    The rim ones are offset half a step from the inner ones so the two rings
    between them cover the circle evenly; 25 points keep a reading well under
    a millisecond on a table of a few dozen pieces.
    """
    out: list[Point] = [centre]
    for count, reach, offset in ((SIGHT_INNER, radius / 2, 0.0), (SIGHT_RING, radius, 0.5)):
        for i in range(count):
            angle = 2 * math.pi * (i + offset) / count
            out.append((centre[0] + reach * math.cos(angle), centre[1] + reach * math.sin(angle)))
    return tuple(out)


def sight_within(index: TableIndex, centre: Point | Unit, radius: float, b: Point | Unit) -> SightReading:
    """Line of Sight to b from any point within `radius` of `centre` (a sniper's 3" circle).

    Clear when one of the `circle_points` sees b, the centre first; blocked,
    the centre's reading says why.
    """
    middle = _point(centre)
    first = index.sight(middle, b)
    if first.clear:
        return first
    for p in circle_points(middle, radius)[1:]:
        reading = index.sight(p, b)
        if reading.clear:
            return SightReading(True, f"Line of Sight from within {radius:g}\" of the centre", smoke=reading.smoke)
    return first


def _quoted(reason: str) -> str:
    said = " ".join(reason.split())
    return f"player: '{said}'" if said else "player"


def cover_override(reading: CoverReading, chosen: str, reason: str = "") -> str | None:
    """The log line of a player's cover that differs from the table's reading, None when they agree.

    "Cover Hard (player: 'behind the wall the map lacks'; the map: In the open)".
    """
    if chosen == reading.level:
        return None
    return f"Cover {chosen.replace('_', ' ').capitalize()} ({_quoted(reason)}; the map: {reading.reason})"


def sight_override(reading: SightReading, reason: str = "") -> str:
    """The log line of a shot the player makes although the table reads no Line of Sight."""
    return f"Line of Sight given ({_quoted(reason)}; the map: {reading.reason})"


def sight_change(reading: SightReading, given: bool, reason: str = "") -> str | None:
    """The log line of a player's Line of Sight that differs from the table's reading, None when they agree."""
    if given == reading.clear:
        return None
    if given:
        return sight_override(reading, reason)
    return f"No Line of Sight ({_quoted(reason)}; the map: {reading.reason})"
