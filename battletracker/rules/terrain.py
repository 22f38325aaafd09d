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


    # where sight ends --------------------------------------------------------------------------------------

    def sight_line(self, a: Point | Unit, b: Point | Unit) -> tuple[SightReading, float | None]:
        """Line of Sight from a towards b, and how many inches from a it is first blocked (None: clear).

        The map's Line-of-Sight ruler draws the line clear up to that point and
        blocked beyond it. Every blocker `sight` knows is measured and the
        nearest to a is named, so the ruler names what the eye meets first.
        """
        p, q = _point(a), _point(b)
        reading = self.sight(p, q)
        if reading.clear:
            return reading, None
        found: list[tuple[float, SightReading]] = []
        for piece in self.sight_buildings:
            if piece.box.meets_segment(p, q) and not geometry.point_in_polygon(p, piece.points) \
                    and not geometry.point_in_polygon(q, piece.points) \
                    and geometry.segment_crosses_polygon(p, q, piece.points):
                found.append((_entry(p, q, piece.points),
                              SightReading(False, f"No Line of Sight: crosses {piece.name}", piece.id)))
        for piece in self.sight_areas:
            if piece.box.meets_segment(p, q):
                at = depth_reached(p, q, piece.points, piece.depth + geometry.EPSILON)
                if at is not None:
                    found.append((at, SightReading(
                        False, f"No Line of Sight: more than {piece.depth:g}\" through {piece.name}", piece.id)))
        reach = self.rules.linear_adjacent
        for piece in self.sight_lines:
            if piece.box.meets_segment(p, q) and geometry.segment_crosses_polyline(p, q, piece.points) \
                    and geometry.distance_to_polyline(p, piece.points) > reach + geometry.EPSILON \
                    and geometry.distance_to_polyline(q, piece.points) > reach + geometry.EPSILON:
                found.append((first_crossing(p, q, piece.points),
                              SightReading(False, f"No Line of Sight: {piece.name} is in the way", piece.id)))
        for bid, outline, centre, radius in self.barrages:
            if outline:
                at = _entry(p, q, outline) if geometry.segment_crosses_polygon(p, q, outline) else None
            else:
                at = circle_entry(p, q, centre, radius)
            if at is not None:
                found.append((at, SightReading(False, "No Line of Sight: through the smoke of a bombardment", bid)))
        if self.rules.smoke_blocks_sight:
            for (sid, outline, _to_hit), box in zip(self.smoke, self.smoke_boxes, strict=True):
                if box.meets_segment(p, q) and geometry.segment_crosses_polygon(p, q, outline):
                    found.append((_entry(p, q, outline), SightReading(False, "No Line of Sight: through smoke", sid)))
        if not found:
            return reading, 0.0
        at, nearest = min(found, key=lambda f: f[0])
        return nearest, at


def _crossings(a: Point, b: Point, points: tuple[Point, ...] | list[Point], closed: bool) -> list[float]:
    """Where the segment a-b crosses the edges, as fractions of its length from a, in order."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = len(points)
    pairs = [(points[i], points[i + 1]) for i in range(n - 1)]
    if closed and n >= 3:
        pairs.append((points[-1], points[0]))
    cuts: list[float] = []
    for s, e in pairs:
        ex, ey = e[0] - s[0], e[1] - s[1]
        denom = dx * ey - dy * ex
        if abs(denom) < geometry.EPSILON:
            if geometry.distance_to_segment(s, e, a) <= geometry.EPSILON:
                cuts.append(0.0)
            continue
        t = ((s[0] - a[0]) * ey - (s[1] - a[1]) * ex) / denom
        u = ((s[0] - a[0]) * dy - (s[1] - a[1]) * dx) / denom
        if -geometry.EPSILON <= t <= 1.0 + geometry.EPSILON and -geometry.EPSILON <= u <= 1.0 + geometry.EPSILON:
            cuts.append(min(max(t, 0.0), 1.0))
    return sorted(cuts)


def first_crossing(a: Point, b: Point, polyline: tuple[Point, ...] | list[Point]) -> float:
    """Inches from a to where the segment a-b first meets the polyline (its length if it never does)."""
    cuts = _crossings(a, b, polyline, closed=False)
    return (cuts[0] if cuts else 1.0) * geometry.distance(a, b)


def _entry(a: Point, b: Point, polygon: tuple[Point, ...] | list[Point]) -> float:
    """Inches from a to where the segment a-b first enters the polygon (0 if a is inside)."""
    if geometry.point_in_polygon(a, polygon):
        return 0.0
    cuts = _crossings(a, b, polygon, closed=True)
    return (cuts[0] if cuts else 1.0) * geometry.distance(a, b)


def depth_reached(a: Point, b: Point, polygon: tuple[Point, ...] | list[Point], depth: float) -> float | None:
    """Inches from a to the point where the segment a-b has run `depth` inches inside the polygon.

    None when less than that of it lies inside: the sight line through a wood
    is blocked from there on. Concave outlines and lines that leave and
    re-enter are measured piece by piece, as `geometry.length_inside_polygon`.
    """
    length = geometry.distance(a, b)
    if len(polygon) < 3 or length < geometry.EPSILON:
        return None
    dx, dy = b[0] - a[0], b[1] - a[1]
    cuts = [0.0, *_crossings(a, b, polygon, closed=True), 1.0]
    inside = 0.0
    for t0, t1 in zip(cuts, cuts[1:], strict=False):
        if t1 - t0 <= 0.0:
            continue
        mid = (t0 + t1) / 2.0
        if geometry.point_in_polygon((a[0] + dx * mid, a[1] + dy * mid), polygon):
            piece = (t1 - t0) * length
            if inside + piece > depth:
                return t0 * length + (depth - inside)
            inside += piece
    return None


def circle_entry(a: Point, b: Point, centre: Point, radius: float) -> float | None:
    """Inches from a to where the segment a-b first comes within `radius` of `centre`, or None if it never does."""
    length = geometry.distance(a, b)
    if geometry.distance(a, centre) <= radius:
        return 0.0
    if length < geometry.EPSILON:
        return None
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    fx, fy = a[0] - centre[0], a[1] - centre[1]
    along = -(fx * ux + fy * uy)
    miss = (fx + along * ux) ** 2 + (fy + along * uy) ** 2
    if miss > radius * radius + geometry.EPSILON:
        return None
    t = along - (max(radius * radius - miss, 0.0)) ** 0.5
    return t if 0.0 <= t <= length + geometry.EPSILON else None


def cover_against(game: Game, firer: Point | Unit | None, target: Point | Unit, *,
                  linear: bool = True) -> CoverReading:
    """The cover `target` has against `firer` on this table (see TableIndex.cover_against)."""
    return TableIndex(game).cover_against(firer, target, linear=linear)


def sight(game: Game, a: Point | Unit, b: Point | Unit) -> SightReading:
    """Line of Sight between a and b on this table (see TableIndex.sight)."""
    return TableIndex(game).sight(a, b)
