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
ask it: it keeps each piece's outline, box and circles ready, and
`TableIndex.readings` answers every firer against every target at once
(the map marking what a selected unit sees), the same as pair by pair.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import starmap
from typing import NamedTuple

from battletracker.core import geometry
from battletracker.core.geometry import Box
from battletracker.core.geometry import Frame
from battletracker.core.geometry import Point
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file


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


def clear_cache() -> None:
    """Forget the terrain data read and the pieces prepared with it (the ruleset files are read again)."""
    terrain_rules.cache_clear()
    _prepared.cache_clear()
    _LAST_READY.clear()


FLAT = 0.05
"""Inches: an area whose corners all lie this close to one line has no inside for a unit to stand in."""


def outline_problem(shape: str, points: Sequence[Point]) -> str | None:
    """What makes `points` no outline for a piece of this shape, in words that say what to fix, or None.

    A line may run straight; an area's corners must not all lie on one line.
    Checked when a piece is drawn or reshaped, not when a game is opened (a
    saved game keeps opening as it was).
    """
    if shape == "area" and geometry.in_one_line(points, FLAT):
        return "its corners are all in one line; an area needs 3 corners that are not in a line"
    return None


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


class _Piece(NamedTuple):
    """A piece ready for the queries: outline, box, and its kind's values with the piece's overrides.

    A named tuple (as `_Blocker`): a table is prepared after every change, and tuples are quick to make.
    """

    id: str
    name: str
    linear: bool
    points: tuple[Point, ...]
    box: Box
    rank: int
    level: str
    blocks_sight: bool
    depth: float


_MARGIN = 1e-6
"""Inches by which a circle must settle a line, far above rounding, before the exact test is skipped."""


# What a sight blocker is; the table asks them in this order and names the first that blocks.
_BUILDING, _LINE, _BARRAGE, _AREA, _SMOKE = range(5)
_ASIDE = frozenset({_BUILDING, _LINE})
_sqrt, _atan2, _asin, _PI = math.sqrt, math.atan2, math.asin, math.pi
"""The blockers a line from or to a point next to (or inside) them passes."""


_SweepValues = tuple[float, float, float, float, float, float, float, float, SightReading | None, bool,
                     Frame | None, tuple[Point, ...]]


class _Blocker(NamedTuple):
    """Something a line of sight may cross, its verdict, and two circles about its `centre`.

    `points` is its outline (a circle's is its centre, with `radius`); a
    rectangle (a building, smoke) also has its `frame`. `near_box` is the box
    within which a point may be next to it (a linear piece's reach).
    `reading` is what a blocked line reads; None for smoke that is fired
    through (listed, not blocking). Every point of it is within `outer` of
    `centre`; for an area, every point within `inner` of `centre` is inside it
    (0 when the centre is not). The table-wide answers (`TableIndex.readings`)
    use the circles to pass over the targets a line to which cannot come near
    it, and to settle most lines through an area before the exact test; an
    area's `sides` (of its convex hull, the same as its outline when
    `convex`) settle most of the rest (`edges`, `sides` and `convex` are an
    area's only).
    """

    kind: int
    id: str
    points: tuple[Point, ...]
    box: Box
    depth: float
    radius: float
    reading: SightReading | None
    centre: Point
    outer: float
    inner: float
    frame: Frame | None
    near_box: Box
    edges: list[geometry.Edge]
    wedge: float
    sides: list[geometry.Side]
    convex: bool
    values: _SweepValues
    """What `TableIndex._sweep` reads of it, in one tuple: it reads them from every firer."""


def _blocker(kind: int, blocker_id: str, points: tuple[Point, ...], reading: SightReading | None, *,
             depth: float = 0.0, radius: float = 0.0, frame: Frame | None = None, reach: float = 0.0) -> _Blocker:
    box = geometry.bounding_box(points).grown(radius)
    middle = ((box.left + box.right) / 2.0, (box.top + box.bottom) / 2.0)
    centre, inner = middle, radius
    if kind != _LINE and radius == 0.0:
        # The centre of the widest circle inside, of the box's middle and the corners' average.
        mean = (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))
        for at in (middle, mean):
            if geometry.point_in_polygon(at, points):
                room = geometry.distance_to_polyline(at, (points[-1], *points))
                if room > inner:
                    centre, inner = at, room
    cx, cy = centre
    hypot = math.hypot
    outer = max([hypot(x - cx, y - cy) for x, y in points]) + radius
    if kind == _AREA:
        hull = geometry.convex_hull(points)
        edges, sides, convex = geometry.polygon_edges(points), geometry.convex_sides(hull), \
            geometry.is_outline_of(points, hull)
    else:
        edges, sides, convex = [], [], False
    # A line deeper than the depth through the outer circle passes this close to its centre.
    wedge = math.sqrt(max(0.0, outer * outer - depth * depth / 4.0)) + _MARGIN
    outer2, inner2, wedge2 = (outer + _MARGIN) ** 2, inner * inner, (wedge + _MARGIN) ** 2
    values = (centre[0], centre[1], wedge, wedge2, outer, outer2, inner2, depth, reading, convex, frame,
              points if kind == _LINE else ())
    return _Blocker(kind, blocker_id, points, box, depth, radius, reading, centre, outer, inner, frame,
                    box.grown(reach), edges, wedge, sides, convex, values)


_PieceKey = tuple[str, str, str, str, str, tuple[Point, ...], str | None, bool | None, float | None]
_Ready = tuple[_Piece, _Blocker | None, CoverReading]


_LAST_READY: dict[tuple[str, str], tuple[list[Point], tuple[object, ...], _Ready | None]] = {}
"""Each piece's last preparation by ruleset and id, with its points and the rest it was made from."""
_LAST_READY_MOST = 4096


def _ready(piece: TerrainPiece, rules: TerrainRules) -> _Ready | None:
    """The piece prepared for the queries (`_prepared`), the same piece's kept from an earlier table.

    A piece whose points are the very ones it had at its last preparation is
    known at the cost of comparing their references, not by hashing every
    corner again: a table of 300 woods of 500 corners is read in a fraction
    of a millisecond instead of eight at every shot.
    """
    rest = (piece.name, piece.kind, piece.shape, piece.cover, piece.blocks_sight, piece.sight_depth)
    last = _LAST_READY.get((rules.ruleset, piece.id))
    if last is not None and last[1] == rest and last[0] == piece.points:
        return last[2]
    ready = _prepared((rules.ruleset, piece.id, piece.name, piece.kind, piece.shape, tuple(piece.points),
                       piece.cover, piece.blocks_sight, piece.sight_depth))
    if len(_LAST_READY) >= _LAST_READY_MOST:
        _LAST_READY.clear()
    _LAST_READY[(rules.ruleset, piece.id)] = (list(piece.points), rest, ready)
    return ready


@lru_cache(maxsize=2048)
def _prepared(key: _PieceKey) -> _Ready | None:
    """A piece ready for the queries, its sight blocker (None: it blocks no sight) and the cover it gives.

    None when the piece is not of a kind of the ruleset. A table is prepared
    again after every change (`TableIndex`) by the map, every plan and every
    rule that asks, while its pieces seldom change: each is prepared once
    and kept by everything that decides what it is here.
    """
    ruleset, piece_id, name, kind_key, shape, points, cover, blocks_sight, sight_depth = key
    rules = terrain_rules(ruleset)
    kind = rules.kind(kind_key)
    if kind is None or kind.shape != shape:
        return None
    level = cover if cover in rules.levels else kind.cover
    blocks = kind.blocks_sight if blocks_sight is None else blocks_sight
    depth = kind.sight_depth if sight_depth is None else sight_depth
    piece = _Piece(piece_id, name or kind.title, shape == "linear", points, geometry.bounding_box(points),
                   rules.rank(level), level, blocks, depth)
    words = _cover_words(level)
    blocker: _Blocker | None = None
    if piece.linear:
        if blocks:
            blocker = _blocker(_LINE, piece_id, points,
                               SightReading(False, f"No Line of Sight: {piece.name} is in the way", piece_id),
                               reach=rules.linear_adjacent)
        return piece, blocker, CoverReading(level, f"{words}: behind {piece.name}", piece_id)
    if blocks:
        blocker = _blocker(_AREA, piece_id, points,
                           SightReading(False, f"No Line of Sight: more than {depth:g}\" through {piece.name}",
                                        piece_id), depth=depth)
    return piece, blocker, CoverReading(level, f"{words}: in {piece.name}", piece_id)


CLEAR = SightReading(True, "Line of Sight clear")

_TargetFacts = tuple[list[CoverReading], list[list[_Piece]], list[list[bool]], list[int]]


@dataclass(frozen=True)
class TableReadings:
    """What `TableIndex.readings` found: `cover[f][t]` and `sight[f][t]` for firer f and target t (by place)."""

    cover: list[list[CoverReading]]
    sight: list[list[SightReading]]

    def pair(self, firer: int, target: int) -> tuple[CoverReading, SightReading]:
        return self.cover[firer][target], self.sight[firer][target]


class TableIndex:
    """One game state's terrain, buildings and smoke, prepared for many cover and sight questions.

    Build it once per state (after each change) and ask it as often as needed;
    it reads the game only while being built. `readings` answers a whole
    table of firers and targets at once, far faster than pair by pair, and
    always as `cover_against` and `sight` would.
    """

    def __init__(self, game: Game) -> None:
        self.rules = rules = terrain_rules(game.ruleset)
        ready = [r for r in (_ready(piece, rules) for piece in game.terrain.values()) if r is not None]
        self.areas = [p for p, _, _ in ready if not p.linear]
        self.lines = [p for p, _, _ in ready if p.linear]
        self._reach = rules.linear_adjacent + geometry.EPSILON
        self._reach_boxes = [(p, p.rank, *p.box.grown(rules.linear_adjacent), p.points) for p in self.lines]
        building_rank = rules.rank(rules.building_cover)
        self.buildings: list[_Piece] = []
        for b in game.buildings.values():
            if b.state == "collapsed":
                continue
            outline = tuple(b.outline())
            self.buildings.append(_Piece(b.id, b.name, False, outline, geometry.bounding_box(outline),
                                         building_rank, rules.building_cover, rules.buildings_block_sight, 0.0))
        self._in = {p.id: reading for p, _, reading in ready if not p.linear}
        self._in.update((p.id, CoverReading(p.level, f"{_cover_words(p.level)}: in {p.name}", p.id))
                        for p in self.buildings)
        self._standing_boxes = [(p.rank, *p.box, p.points, self._in[p.id]) for p in (*self.areas, *self.buildings)]
        self._behind = {p.id: reading for p, _, reading in ready if p.linear}
        self._open = CoverReading(rules.levels[0], "In the open")
        self.blockers = self._blockers(game, [b for p, b, _ in ready if p.linear and b is not None],
                                       [b for p, b, _ in ready if not p.linear and b is not None])
        self._through_smoke: dict[tuple[str, ...], SightReading] = {}
        self._target_facts: tuple[tuple[Point, ...], _TargetFacts] | None = None

    def _blockers(self, game: Game, lines: list[_Blocker], areas: list[_Blocker]) -> list[_Blocker]:
        """Everything that may block sight, in the order it is asked; the pieces' own were prepared with them."""
        frames = {b.id: Frame.of(b.centre, b.width, b.depth, b.facing) for b in game.buildings.values()}
        out = [_blocker(_BUILDING, p.id, p.points, SightReading(False, f"No Line of Sight: crosses {p.name}", p.id),
                        frame=frames[p.id])
               for p in self.buildings if p.blocks_sight]
        out += lines
        # A bombardment lays its smoke from its first Phase of fire until its effects end (`active`).
        for b in game.bombardments.values():
            if b.kind in self.rules.smoke_bombardment_kinds and b.active:
                reading = SightReading(False, "No Line of Sight: through the smoke of a bombardment", b.id)
                if b.shape == "circle":
                    out.append(_blocker(_BARRAGE, b.id, (b.centre,), reading, radius=b.radius))
                else:
                    out.append(_blocker(_BARRAGE, b.id, tuple(b.outline()), reading,
                                        frame=Frame.of(b.centre, b.width, b.depth, b.facing)))
        out += areas
        for s in game.smoke.values():
            through = SightReading(False, "No Line of Sight: through smoke", s.id) \
                if self.rules.smoke_blocks_sight else None
            out.append(_blocker(_SMOKE, s.id, tuple(s.outline()), through,
                                frame=Frame.of(s.centre, s.width, s.depth, s.facing)))
        return out

    # cover ---------------------------------------------------------------------------------------------

    def _standing_in(self, at: Point) -> CoverReading:
        """The cover of the area terrain or building `at` stands in (the best; of equal, the first)."""
        best = self._open
        rank = 0
        x, y = at
        inside = geometry.point_in_polygon
        for piece_rank, left, top, right, bottom, points, reading in self._standing_boxes:
            if piece_rank > rank and left <= x <= right and top <= y <= bottom and inside(at, points):
                best, rank = reading, piece_rank
        return best

    def _lines_near(self, at: Point, standing: CoverReading) -> list[_Piece]:
        """Linear obstacles within reach of `at` that would give better cover than it has, in table order."""
        reach = self._reach
        rank = self.rules.rank(standing.level) if standing.source is not None else 0
        x, y = at
        away = geometry.distance_to_polyline
        return [piece for piece, piece_rank, left, top, right, bottom, points in self._reach_boxes
                if piece_rank > rank and left <= x <= right and top <= y <= bottom and away(at, points) <= reach]

    def _cover(self, standing: CoverReading, near: list[_Piece], origin: Point, at: Point) -> CoverReading:
        """The best of `standing` and the linear obstacles `near` the target that the line of fire crosses."""
        best = standing
        rank = self.rules.rank(standing.level) if standing.source is not None else 0
        for piece in near:
            if piece.rank > rank and geometry.segment_crosses_polyline(origin, at, piece.points):
                best, rank = self._behind[piece.id], piece.rank
        return best

    def cover_against(self, firer: Point | Unit | None, target: Point | Unit, *,
                      linear: bool = True) -> CoverReading:
        """The best cover `target` has against fire from `firer` (None: from no point, as a bombardment).

        `linear` False leaves out linear obstacles (a Bombardment or SOS Fire:
        "linear obstacles do not give any cover to Units adjacent to them").
        Of equal levels the one found first is named: area terrain, then
        buildings, then linear obstacles, each in the table's order.
        """
        at = _point(target)
        standing = self._standing_in(at)
        if not linear or firer is None:
            return standing
        return self._cover(standing, self._lines_near(at, standing), _point(firer), at)

    # sight -----------------------------------------------------------------------------------------------

    def _aside(self, blocker: _Blocker, at: Point) -> bool:
        """Whether a line from or to `at` is never blocked by `blocker`: inside a building, next to a line."""
        if blocker.kind == _BUILDING:
            return blocker.box.contains(at) and geometry.point_in_polygon(at, blocker.points)
        if blocker.kind == _LINE:
            return blocker.near_box.contains(at) and \
                geometry.distance_to_polyline(at, blocker.points) <= self.rules.linear_adjacent + geometry.EPSILON
        return False

    @staticmethod
    def _crosses(blocker: _Blocker, p: Point, q: Point) -> bool:
        """Whether the line p-q, neither end aside, is blocked by (or, for smoke, passes through) `blocker`.

        A rectangle (building, smoke) is met when the line comes within
        EPSILON of it; an area with a depth when the line runs deeper into it.
        """
        if blocker.frame is not None:
            return geometry.segment_crosses_frame(p, q, blocker.frame)
        if blocker.kind == _AREA:
            if blocker.depth <= 0.0:
                return geometry.segment_crosses_polygon(p, q, blocker.points)
            return geometry.length_inside_polygon(p, q, blocker.points) > blocker.depth + geometry.EPSILON
        if blocker.kind == _LINE:
            return geometry.segment_crosses_polyline(p, q, blocker.points)
        return geometry.distance_to_segment(p, q, blocker.points[0]) <= blocker.radius + geometry.EPSILON

    def _clear(self, smoke: list[str] | None) -> SightReading:
        if not smoke:
            return CLEAR
        key = tuple(smoke)
        reading = self._through_smoke.get(key)
        if reading is None:
            reading = self._through_smoke[key] = SightReading(True, "Line of Sight through smoke", smoke=key)
        return reading

    def sight(self, a: Point | Unit, b: Point | Unit) -> SightReading:
        """Line of Sight between two points (or units); the same answer either way round.

        The blockers are asked in one order (buildings, linear pieces,
        bombardments' smoke, area terrain, other smoke; each in the table's
        order) and the first that blocks is named.
        """
        p, q = _point(a), _point(b)
        smoke: list[str] = []
        for blocker in self.blockers:
            if blocker.box.meets_segment(p, q) and not self._aside(blocker, p) and not self._aside(blocker, q) \
                    and self._crosses(blocker, p, q):
                if blocker.reading is None:
                    smoke.append(blocker.id)
                else:
                    return blocker.reading
        return self._clear(smoke)

    # the whole table at once -----------------------------------------------------------------------------

    def readings(self, firers: Sequence[Point | Unit], targets: Sequence[Point | Unit]) -> TableReadings:
        """Cover and sight for every firer against every target, as the pair queries give.

        For each firer the targets are sorted by bearing once. Each blocker in
        turn then looks only at the targets within the wedge of its outer
        circle, beyond its near side (and its depth), that nothing before it
        blocks; its circles settle most of those, an area's convex hull most
        of the rest, and only what is left gets the exact test. What the
        targets' places decide is kept for the next call about the same
        targets (`_targets`).
        """
        at = [_point(t) for t in targets]
        count = len(at)
        standing, near, aside, lined = self._targets(at)
        covers: list[list[CoverReading]] = []
        sights: list[list[SightReading]] = []
        atan2, hypot = math.atan2, math.hypot
        for firer in firers:
            p = _point(firer)
            px, py = p
            rel = [(x - px, y - py) for x, y in at]
            dists = list(starmap(hypot, rel))
            bearing = [atan2(dy, dx) for dx, dy in rel]
            order = sorted(range(count), key=bearing.__getitem__)
            angles = sorted(bearing)
            blocked: list[SightReading | None] = [None] * count
            smoke: list[list[str] | None] = [None] * count
            for blocker, aside_t in zip(self.blockers, aside, strict=True):
                if blocker.kind not in _ASIDE or not self._aside(blocker, p):
                    self._sweep(blocker, p, at, rel, dists, angles, order, blocked, aside_t, smoke)
            cover = list(standing)
            for i in lined:
                cover[i] = self._cover(standing[i], near[i], p, at[i])
            covers.append(cover)
            if smoke.count(None) == count:
                sights.append([verdict or CLEAR for verdict in blocked])
            else:
                sights.append([verdict or (CLEAR if through is None else self._clear(through))
                               for verdict, through in zip(blocked, smoke, strict=True)])
        return TableReadings(covers, sights)

    def _targets(self, at: list[Point]) -> _TargetFacts:
        """What the targets' own places decide, kept for the targets last asked about.

        That is the cover each stands in, the linear pieces near it, which
        blockers it stands aside from, and which targets have linear pieces
        near. The map asks again about the same targets whenever the selected
        firer changes, and then only the firer's part is new.
        """
        key = tuple(at)
        if self._target_facts is not None and self._target_facts[0] == key:
            return self._target_facts[1]
        standing = [self._standing_in(t) for t in at]
        near = [self._lines_near(t, s) for t, s in zip(at, standing, strict=True)]
        never = [False] * len(at)
        aside = [[self._aside(blocker, t) for t in at] if blocker.kind in _ASIDE else never
                 for blocker in self.blockers]
        facts = standing, near, aside, [i for i, lines in enumerate(near) if lines]
        self._target_facts = key, facts
        return facts

    def _sweep(self, blocker: _Blocker, p: Point, at: list[Point], rel: list[Point], dists: list[float],
               angles: list[float], order: list[int], blocked: list[SightReading | None], aside: list[bool],
               smoke: list[list[str] | None]) -> None:
        """Record what `blocker` does to the line from `p` to each target, as `sight` would.

        `rel` holds the targets less `p` and `dists` their distances from it;
        `order` holds the targets by bearing from `p` and `angles` those
        bearings, so that the targets within the wedge of the blocker's outer
        circle (narrowed to where a line runs deeper than its depth through
        the circle) are found by bisecting. Only those are looked at, and of
        them not one already blocked, aside, or nearer than the blocker's near
        side and depth. A line that stays out of its outer circle (or runs no
        deeper than its depth through it) is not blocked; one deeper than its
        depth through its inner circle is. Through an area, a line no deeper
        than its depth through the area's convex hull is not blocked, and one
        deeper through a convex area is. The rest get the exact test, an
        area's with its edges seen from `p` kept for all of them (the same
        sums as `length_inside_polygon`). One function does all this with the
        blocker's values in locals: it runs for every firer and blocker.
        """
        cx, cy, wedge, wedge2, outer, outer2, inner2, depth, reading, convex, frame, polyline = blocker.values
        px, py = p
        ux, uy = cx - px, cy - py
        to_centre2 = ux * ux + uy * uy
        if to_centre2 <= wedge2:
            targets, need = order, -math.inf
        else:
            to_centre = _sqrt(to_centre2)
            ref = _atan2(uy, ux)
            half = _asin(wedge / to_centre) + _MARGIN
            lo, hi = ref - half, ref + half
            if lo >= -_PI and hi <= _PI:
                targets = order[bisect_left(angles, lo):bisect_right(angles, hi)]
            elif lo < -_PI:
                targets = order[bisect_left(angles, lo + 2 * _PI):] + order[:bisect_right(angles, hi)]
            else:
                targets = order[bisect_left(angles, lo):] + order[:bisect_right(angles, hi - 2 * _PI)]
            if not targets:
                return
            need = to_centre - outer + depth - _MARGIN
        low, high, deeper = depth - _MARGIN, depth + _MARGIN, depth + geometry.EPSILON
        sqrt, share_inside, share_inside_sides = _sqrt, geometry.share_inside, geometry.share_inside_sides
        seen: list[geometry.SeenEdge] | None = None
        hull: list[geometry.SeenSide] | None = None
        crosses_frame, crosses_polyline = geometry.segment_crosses_frame, geometry.segment_crosses_polyline
        for i in targets:
            if blocked[i] is not None or aside[i]:
                continue
            d = dists[i]
            if d < need:
                continue
            dx, dy = rel[i]
            verdict: bool | None = None
            if d > 0.0:
                along = (ux * dx + uy * dy) / d
                off2 = to_centre2 - along * along
                if off2 >= outer2:
                    continue
                chord = sqrt(outer2 - off2)
                far = along + chord
                if (d if d < far else far) - (along - chord if along > chord else 0.0) <= low:
                    continue
                if off2 < inner2:
                    chord = sqrt(inner2 - off2)
                    far = along + chord
                    if (d if d < far else far) - (along - chord if along > chord else 0.0) > high:
                        verdict = True
                if verdict is None and depth > 0.0:
                    if hull is None:
                        hull = geometry.sides_seen_from(p, blocker.sides)
                    share = share_inside_sides(hull, dx, dy, d)
                    if share is not None:
                        if share * d <= low:
                            continue
                        if convex and share * d > high:
                            verdict = True
                    if verdict is None:
                        if seen is None:
                            seen = geometry.edges_seen_from(p, blocker.edges)
                        share = share_inside(seen, dx, dy, d)
                        if share is not None:
                            verdict = share * d > deeper
            if verdict is None:
                if frame is not None:
                    verdict = crosses_frame(p, at[i], frame)
                elif polyline:
                    verdict = crosses_polyline(p, at[i], polyline)
                else:
                    verdict = self._crosses(blocker, p, at[i])
            if not verdict:
                continue
            if reading is not None:
                blocked[i] = reading
            else:
                listed = smoke[i]
                if listed is None:
                    smoke[i] = [blocker.id]
                else:
                    listed.append(blocker.id)

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
        for blocker in self.blockers:
            if blocker.reading is None or not blocker.box.meets_segment(p, q) or self._aside(blocker, p) \
                    or self._aside(blocker, q) or not self._crosses(blocker, p, q):
                continue
            at: float | None
            if blocker.kind == _LINE:
                at = first_crossing(p, q, blocker.points)
            elif blocker.kind == _AREA and blocker.depth > 0.0:
                at = depth_reached(p, q, blocker.points, blocker.depth + geometry.EPSILON)
            elif blocker.kind == _BARRAGE and blocker.frame is None:
                at = circle_entry(p, q, blocker.points[0], blocker.radius)
            else:
                at = _entry(p, q, blocker.points)
            if at is not None:
                found.append((at, blocker.reading))
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
