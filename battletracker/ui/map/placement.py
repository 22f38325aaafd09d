"""Placing the tokens' names and badges so that close units do not cover each other's.

Greedy and cheap: tokens are taken top to bottom; each name, then each badge
row, goes to the first of its usual places (below, above, right, left) that
covers no label and no other token already there, or else to the one that
covers least. A second pass moves again the labels that still cover
something, now trying the corners too. What counts is pixels at the current
zoom, so it runs again when the zoom settles; a grid of buckets keeps each
test to the few rectangles nearby. Nothing here runs while painting: about
1 ms for 50 units, and the limits below keep 500 units crowded on a whole
table near 15 ms.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence

from battletracker.ui.map.items import BADGE_PLACES
from battletracker.ui.map.items import NAME_PLACES
from battletracker.ui.map.items import Place
from battletracker.ui.map.items import UnitToken
from battletracker.ui.map.labels import PixmapLabel

Rect = tuple[float, float, float, float]    # left, top, right, bottom in pixels
_Entry = tuple[float, float, float, float, int]   # a rectangle and whose it is (-1: nobody's)

CELL = 64.0
# Past this many rectangles around a label there is no clear place to find (hundreds of
# units at a zoom that shows the whole table): the label keeps its usual place, and
# the placement stays within a few milliseconds however many units there are.
CROWD = 24
# The first pass tries the usual places only; the second pass, for the labels still
# covering something, tries every place, unless so many clash that none will come clear.
FIRST_TRIES = 4
MAX_SECOND_TRIES = 60


class _Grid:
    """Rectangles bucketed by the cells they touch, to sum what a new one would cover."""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], list[_Entry]] = {}

    @staticmethod
    def _keys(r: Rect) -> list[tuple[int, int]]:
        return [(i, j) for i in range(int(r[0] // CELL), int(r[2] // CELL) + 1)
                for j in range(int(r[1] // CELL), int(r[3] // CELL) + 1)]

    def add(self, r: Rect, owner: int = -1) -> _Entry:
        entry = (r[0], r[1], r[2], r[3], owner)
        cells = self._cells
        rows = range(int(r[1] // CELL), int(r[3] // CELL) + 1)
        for i in range(int(r[0] // CELL), int(r[2] // CELL) + 1):
            for j in rows:
                cell = cells.get((i, j))
                if cell is None:
                    cells[(i, j)] = [entry]
                else:
                    cell.append(entry)
        return entry

    def remove(self, entry: _Entry) -> None:
        for key in self._keys(entry[:4]):
            cell = self._cells.get(key)
            if cell is not None and entry in cell:
                cell.remove(entry)

    def crowd(self, r: Rect) -> int:
        """How many rectangles share the cells `r` touches: a quick measure of how busy it is there."""
        cells = self._cells
        rows = range(int(r[1] // CELL), int(r[3] // CELL) + 1)
        count = 0
        for i in range(int(r[0] // CELL), int(r[2] // CELL) + 1):
            for j in rows:
                cell = cells.get((i, j))
                if cell is not None:
                    count += len(cell)
        return count

    def covered(self, r: Rect, enough: float, skip: int) -> float:
        """About how much of `r` the rectangles here (other than `skip`'s) cover; stops once past `enough`.

        A rectangle in two cells counts twice: the sum only ranks places, and
        zero still means nothing is covered.
        """
        total = 0.0
        left, top, right, bottom = r
        cells = self._cells
        for i in range(int(left // CELL), int(right // CELL) + 1):
            for j in range(int(top // CELL), int(bottom // CELL) + 1):
                for o in cells.get((i, j), ()):
                    if o[4] == skip:
                        continue
                    w = (right if right < o[2] else o[2]) - (left if left > o[0] else o[0])
                    if w > 0.0:
                        h = (bottom if bottom < o[3] else o[3]) - (top if top > o[1] else o[1])
                        if h > 0.0:
                            total += w * h
                            if total >= enough:
                                return total
        return total


def _rect(label: PixmapLabel, place: Place, cx: float, cy: float, ex: float, ey: float) -> Rect:
    anchor, shift, (kx, ky) = place
    return label.pixel_rect(cx + kx * ex, cy + ky * ey, anchor, shift)


def _best(label: PixmapLabel, places: Sequence[Place], order: Sequence[int], grid: _Grid, owner: int,
          frame: tuple[float, float, float, float]) -> tuple[int, Rect, float]:
    """The first place in `order` that covers nothing, else the one that covers least."""
    cx, cy, ex, ey = frame
    best, best_rect, least = order[0], _rect(label, places[order[0]], cx, cy, ex, ey), float("inf")
    if grid.crowd(best_rect) > CROWD:
        return best, best_rect, 0.0
    for index in order:
        r = _rect(label, places[index], cx, cy, ex, ey)
        covered = grid.covered(r, least, owner)
        if covered < least:
            best, best_rect, least = index, r, covered
            if covered == 0.0:
                break
    return best, best_rect, least


def place_labels(tokens: Iterable[UnitToken], scale: float, obstacles: Iterable[Rect] = ()) -> None:
    """Move each token's name and badges to places that cover no other label or token body (its ring included).

    `scale` is pixels per inch; `obstacles` are other things to keep clear of
    (markers' symbols and names), in the same pixels (table inches times `scale`).
    A token's own badges may overlap its own body, as they do by default.
    """
    grid = _Grid()
    for r in obstacles:
        grid.add(r)
    ordered = sorted(tokens, key=lambda t: (t.y(), t.x()))
    frames = []
    for n, token in enumerate(ordered):
        ex, ey = token.extent()
        frame = (token.x() * scale, token.y() * scale, ex * scale, ey * scale)
        grid.add(token.body_rect(scale), n)
        frames.append(frame)
    chosen: list[list[int]] = []
    placed: list[list[_Entry | None]] = []
    crowded: list[int] = []
    for n, token in enumerate(ordered):
        names, badges = token.preferred_places()
        choice: list[int] = [names[0], badges[0]]
        entries: list[_Entry | None] = [None, None]
        clash = 0.0
        for k, (label, places, order) in enumerate(((token.label, NAME_PLACES, names),
                                                    (token.badges, BADGE_PLACES, badges))):
            if label.size_px[0] > 0.0:
                choice[k], r, covered = _best(label, places, order[:FIRST_TRIES], grid, n, frames[n])
                entries[k] = grid.add(r)
                clash += covered
        chosen.append(choice)
        placed.append(entries)
        if clash > 0.0:
            crowded.append(n)
    for n in crowded if len(crowded) <= MAX_SECOND_TRIES else ():
        token = ordered[n]
        names, badges = token.preferred_places()
        for k, (label, places, order) in enumerate(((token.label, NAME_PLACES, names),
                                                    (token.badges, BADGE_PLACES, badges))):
            entry = placed[n][k]
            if entry is None:
                continue
            grid.remove(entry)
            chosen[n][k], r, _covered = _best(label, places, order, grid, n, frames[n])
            placed[n][k] = grid.add(r)
    for token, (name, badge) in zip(ordered, chosen, strict=True):
        if (name, badge) != (token.name_place, token.badge_place):
            token.place_labels(name, badge)
