"""Firepower Dice against infantry (`coc.fire`) and the pieces every such roll shares.

Support weapons, snipers, flamethrowers, guns firing H.E., grenades and
bombardments all end the same way: Firepower Dice (with any Storm of Steel
dice) score hits, the hits are divided between the target Teams, and each hit
rolls one effect die read against the target's cover. This module owns that
sequence (`Volley`, `roll_volley`, `volley_counts`, the input readers) so
every procedure rolls it in the same order and computes its exact odds the
same way.

The to-hit table, the cover levels and the effect of a hit by cover are data
(fire.toml); the documents use them without printing them, so the file marks
them as defaults to check. Each entry of the to-hit and hit-effect tables is
also a ruleset setting (`TABLE_SETTINGS`, Game > Ruleset settings): every
procedure that rolls against them lists `SETTINGS` and reads the game's
changes with `FireTables.read`.

Hits are divided between Teams as evenly as possible; when they do not divide
evenly the Teams listed first take one more (the firer lists the Team that
should take an odd hit first). Effect dice are rolled Team by Team in that
order. Given the figures each Team has (`target_figures`), kills never
exceed them: a Team that loses its last figure scores exactly its figures in
kills and no Shock, and it is out of play (the Effects put it out of play and
the log says its side takes a Force Morale Test, which the step puts on the
side's agenda: chain_of_command/morale_events.py). The exact odds count the
same way, so a two-figure Team's chart never lists three kills.

`coc.fire`
    Inputs: `firepower_dice` (0-60); `to_hit` (2-6) or `range_band` (close |
    effective) with `target_quality` (green | regular | elite); `cover` (open
    | light | hard); `reduce_cover` (levels, never below open; default 0);
    `shock_multiplier` (1 or 2); `storm_of_steel` (bool) and the settings
    `storm_of_steel_per_six`, `storm_of_steel_chains`, `TABLE_SETTINGS`
    (`to_hit_<band>_<quality>`, `hit_effect_<cover>`); `teams` (1-12, default
    1). Optional: `target_id` (one Team) or `target_ids` (comma separated,
    one per Team, in the order the hits are shared), `target_figures` (the
    figures of each, comma separated; kills are capped at them), `target_names`
    (what the log calls each Team, one a line: the names on the table); `team_cover`
    (each Team's cover, comma separated, the first `cover`: each Team's
    effect dice are read against its own cover, reduced as `cover` is);
    `sniper_target` (bool: the one target Team is a spotted sniper, which
    ignores Shock and is removed by a single kill, its side taking a Force
    Morale Test; the outcome then counts at most one kill and no Shock).
    Dice: the Firepower Dice, any Storm of Steel dice, then one effect die per
    hit ("Effect dice", or "Effect dice, 2nd Squad" for several Teams: "team N"
    without their names).
    Outcome: `kills=K shock=S` (totals). Values: `hits`, `kills`, `shock`,
    `sixes`, `dice_rolled`, `storm_dice`, `team_hits`, `team_kills`,
    `team_shock` (lists in Team order), `to_hit`, `cover` (after reduction).
    Effects (with ids): ChangeFigures for kills, `shock` counter for Shock,
    the `out_of_play` condition on a Team left with no figures; RemoveUnit
    on a sniper target killed.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from itertools import repeat
from math import comb
from math import gcd
from math import lcm
from operator import add
from operator import mul

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.text import brief
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Scalar
from battletracker.model.sequence_effects import QueueForceMoraleTest
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import OddsTooLarge
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.chain_of_command.storm_of_steel import StormRoll
from battletracker.rules.tables import TableError
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import ruleset_table

RULESET = "chain_of_command"
MAX_DICE = 60
MAX_TEAMS = 12
RANGE_BANDS = ("close", "effective")
QUALITIES = ("green", "regular", "elite")
HIT_RESULTS = ("none", "shock", "kill")

Counts = tuple[int, int, int]
"""(kills, shock, sixes) summed over a roll; sixes are capped where only a threshold matters."""

TO_HIT_SETTINGS = tuple(f"to_hit_{band}_{quality}" for band in RANGE_BANDS for quality in QUALITIES)
HIT_EFFECT_SETTINGS = ("hit_effect_open", "hit_effect_light", "hit_effect_hard")
"""A cover level fire.toml adds without a setting here keeps the file's row."""
TABLE_SETTINGS = (*TO_HIT_SETTINGS, *HIT_EFFECT_SETTINGS)
SETTINGS = (*storm_of_steel.SETTINGS, *TABLE_SETTINGS)
"""The settings every procedure rolling Firepower Dice against the fire tables takes."""


# ruleset data ------------------------------------------------------------------------------------

def cover_levels() -> tuple[str, ...]:
    """Cover from least to most protection, as fire.toml lists it."""
    table = ruleset_table(RULESET, "fire", "cover")
    levels = table.list("levels")
    if len(levels) < 2 or not all(isinstance(v, str) and v for v in levels) or len(set(levels)) != len(levels):
        raise TableError(f"{table.where}: key 'levels': must list at least two different cover names")
    return tuple(levels)


def reduce_cover(cover: str, levels: int) -> str:
    """Cover `levels` steps less protective, never below the first level (the Open)."""
    order = cover_levels()
    return order[max(0, order.index(cover) - levels)]


def raise_cover(cover: str, levels: int) -> str:
    """Cover `levels` steps more protective, never past the last level (Hard Cover)."""
    order = cover_levels()
    return order[min(len(order) - 1, order.index(cover) + levels)]


@dataclass(frozen=True)
class FireTables:
    """The game's changes to fire.toml's to-hit and hit-effect entries (none: the file's defaults)."""

    overrides: tuple[tuple[str, Scalar], ...] = ()

    @classmethod
    def read(cls, r: InputReader) -> FireTables:
        """The `TABLE_SETTINGS` given in a procedure's inputs, each checked as Game > Ruleset settings checks it."""
        found: list[tuple[str, Scalar]] = []
        for key in TABLE_SETTINGS:
            if key not in r:
                r.str(key, "")
                continue
            declared = find_setting(RULESET, key)
            value: Scalar = r.int(key) if isinstance(declared.default, int) else r.str(key)
            problem = declared.problem(value)
            if problem is not None:
                raise RulesInputError(key, problem)
            found.append((key, value))
        return cls(tuple(found))

    def get(self, key: str) -> Scalar | None:
        return next((value for k, value in self.overrides if k == key), None)


DEFAULT_TABLES = FireTables()


def to_hit_number(range_band: str, quality: str, tables: FireTables = DEFAULT_TABLES) -> int:
    """The score each Firepower Die needs at this range band against a target of this quality."""
    changed = tables.get(f"to_hit_{range_band}_{quality}")
    if isinstance(changed, int):
        return changed
    band = ruleset_table(RULESET, "fire", "to_hit").table(range_band)
    return band.int(quality, minimum=2, maximum=6)


def hit_effect_faces(cover: str, tables: FireTables = DEFAULT_TABLES) -> tuple[str, ...]:
    """What faces 1-6 of one effect die do to a target in `cover`: none, shock or kill."""
    changed = tables.get(f"hit_effect_{cover}")
    if isinstance(changed, str):
        return tuple(changed.split())
    table = ruleset_table(RULESET, "fire", "hit_effect")
    faces = table.list(cover)
    if len(faces) != 6 or any(f not in HIT_RESULTS for f in faces):
        raise TableError(f"{table.where}: key {cover!r}: must list six results, each one of "
                         f"{', '.join(HIT_RESULTS)}")
    return tuple(faces)


# the effect of hits ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HitEffect:
    """How one hit is read: the six faces for the target's cover, and the Shock multiplier."""

    cover: str
    faces: tuple[str, ...]
    shock_multiplier: int = 1

    @classmethod
    def for_cover(cls, cover: str, shock_multiplier: int = 1, tables: FireTables = DEFAULT_TABLES) -> HitEffect:
        return cls(cover, hit_effect_faces(cover, tables), shock_multiplier)

    def read(self, face: int) -> tuple[int, int]:
        """(kills, shock) from one effect die."""
        result = self.faces[face - 1]
        if result == "kill":
            return (1, 0)
        if result == "shock":
            return (0, self.shock_multiplier)
        return (0, 0)

    def kill_chance(self) -> Fraction:
        return Fraction(sum(1 for f in self.faces if f == "kill"), 6)

    def shock_chance(self) -> Fraction:
        return Fraction(sum(1 for f in self.faces if f == "shock"), 6)


def split_hits(hits: int, teams: int) -> tuple[int, ...]:
    """Hits divided between `teams` as evenly as possible, the first Teams taking any odd hits.

    No Teams (an empty building set alight) takes no hits.
    """
    if teams == 0:
        return ()
    base, extra = divmod(hits, teams)
    return tuple(base + (1 if i < extra else 0) for i in range(teams))


# one volley: resolve ---------------------------------------------------------------------------------

def cap_kills(kills: int, shock: int, figures: int | None) -> tuple[int, int]:
    """(kills, shock) on a Team with `figures` left (None: not known).

    Kills never exceed its figures; a Team that loses its last figure is out
    of play and takes no Shock.
    """
    if figures is None or kills < figures:
        return kills, shock
    return figures, 0


@dataclass(frozen=True)
class Volley:
    """A roll of Firepower Dice at infantry, as the dice see it.

    `figures`: the figures of each of the `teams` (empty when not known); kills
    are capped at them (`cap_kills`). `shock_ignored`: the target takes no
    Shock (a spotted sniper). `team_effects`: each Team's own effect when the
    Teams sharing the hits are in different cover (empty: every Team reads
    `effect`, the first Team's). `names`: what the log calls each Team, the
    name on the table (empty: "Team 1", "Team 2"); the dice do not depend on
    them, so they take no part in comparing volleys (the odds' caches).
    """

    dice: int
    to_hit: int
    storm: StormOfSteel | None
    effect: HitEffect
    teams: int = 1
    figures: tuple[int, ...] = ()
    shock_ignored: bool = False
    team_effects: tuple[HitEffect, ...] = ()
    names: tuple[str, ...] = field(default=(), compare=False)

    def figures_of(self, team: int) -> int | None:
        return self.figures[team] if self.figures else None

    def team_name(self, team: int) -> str:
        """A Team of several as the log says it: its unit's name, else "Team 2"."""
        return self.names[team] if self.names else f"Team {team + 1}"

    def effect_of(self, team: int) -> HitEffect:
        return self.team_effects[team] if self.team_effects else self.effect


@dataclass(frozen=True)
class VolleyResult:
    fire: StormRoll
    team_hits: tuple[int, ...]
    team_kills: tuple[int, ...]
    team_shock: tuple[int, ...]
    effect_dice: tuple[tuple[int, ...], ...]

    @property
    def hits(self) -> int:
        return self.fire.hits

    @property
    def sixes(self) -> int:
        return self.fire.sixes

    @property
    def kills(self) -> int:
        return sum(self.team_kills)

    @property
    def shock(self) -> int:
        return sum(self.team_shock)

    @property
    def dice_rolled(self) -> int:
        return len(self.fire.all_dice)

    def values(self) -> dict[str, object]:
        """The numbers every fire procedure reports, under the same names."""
        return {
            "hits": self.hits,
            "kills": self.kills,
            "shock": self.shock,
            "sixes": self.sixes,
            "dice_rolled": self.dice_rolled,
            "storm_dice": len(self.fire.extra),
            "team_hits": list(self.team_hits),
            "team_kills": list(self.team_kills),
            "team_shock": list(self.team_shock),
        }


def roll_volley(roller: Roller, volley: Volley, label: str = "Firepower Dice") -> VolleyResult:
    """Roll the Firepower Dice (then their Storm of Steel dice), then one effect die per hit, Team by Team."""
    fire = storm_of_steel.roll(roller, label, volley.dice, volley.to_hit, volley.storm)
    return roll_effects(roller, fire, volley)


def roll_effects(roller: Roller, fire: StormRoll, volley: Volley) -> VolleyResult:
    """One effect die per hit of `fire`, divided between the Teams (dice rolled for the first Team first)."""
    teams = volley.teams
    team_hits = split_hits(fire.hits, teams)
    kills: list[int] = []
    shock: list[int] = []
    faces: list[tuple[int, ...]] = []
    for i, n in enumerate(team_hits):
        who = volley.names[i] if volley.names else f"team {i + 1}"
        label = "Effect dice" if teams == 1 else f"Effect dice, {who}"
        rolled = roller.roll_ints(label, D6, n)
        read = [volley.effect_of(i).read(f) for f in rolled]
        k, s = cap_kills(sum(k for k, _ in read), sum(s for _, s in read), volley.figures_of(i))
        kills.append(k)
        shock.append(0 if volley.shock_ignored else s)
        faces.append(rolled)
    return VolleyResult(fire, team_hits, tuple(kills), tuple(shock), tuple(faces))


# one volley: exact odds ------------------------------------------------------------------------------

def effects_of_hits(effect: HitEffect, hits: int) -> Distribution[tuple[int, int]]:
    """Exact (kills, shock) from `hits` effect dice."""
    counts = _uncapped_counts(Volley(hits, 1, None, effect))
    return counts.map(lambda c: (c[0], c[1]))


def _slot_bytes(largest: int) -> int:
    """Bytes per packed coefficient: room for `largest` and never a carry into the next slot."""
    return largest.bit_length() // 8 + 1


@lru_cache(maxsize=4096)
def volley_counts(volley: Volley, sixes_cap: int = 0) -> Distribution[Counts]:
    """Exact joint distribution of (kills, shock, sixes capped at `sixes_cap`) for `roll_volley`.

    Kills are capped at the Teams' figures as `roll_effects` caps them: one
    Team's cap is read off the uncapped counts; several Teams, each with its
    own cap, are counted hit total by hit total (`_capped_counts`). A volley
    whose target ignores Shock counts none.
    """
    if volley.shock_ignored:
        counted = volley_counts(replace(volley, shock_ignored=False), sixes_cap)
        return counted.map(lambda c: (c[0], 0, c[2]))
    if volley.team_effects:
        return _team_cover_counts(volley, sixes_cap)
    if not volley.figures:
        return _uncapped_counts(volley, sixes_cap)
    if volley.teams == 1:
        figures = volley.figures[0]

        def cap(c: Counts) -> Counts:
            k, s = cap_kills(c[0], c[1], figures)
            return (k, s, c[2])

        return _uncapped_counts(Volley(volley.dice, volley.to_hit, volley.storm, volley.effect), sixes_cap).map(cap)
    return _capped_counts(volley, sixes_cap)


def _reduced_faces(effect: HitEffect) -> tuple[int, int, int, int]:
    """(kill, shock, none, faces) of one effect die with the faces' common factor taken out (open ground's
    2:2:2 reads 1:1:1 over 3), so the weights stay as small as the odds allow."""
    faces = effect.faces
    kill, shock = faces.count("kill"), faces.count("shock")
    none = len(faces) - kill - shock
    common = gcd(kill, shock, none)
    return kill // common, shock // common, none // common, len(faces) // common


@lru_cache(maxsize=4096)
def _team_rows(kill: int, per_hit: int, hits: int, figures: int) -> tuple[tuple[int, int, int], ...]:
    """One Team with `figures` taking `hits`: (kills, hits left to read as Shock or nothing, whole weight over
    per_hit**hits with those hits' weight left out).

    Alive with `k` kills (k < figures): C(hits, k) kill**k, its other hits
    still to be read. Out of play (at least `figures` kills): the weight of
    every such roll, no hit left to read (its Shock is not counted).
    """
    alive = [(k, hits - k, comb(hits, k) * kill**k) for k in range(min(hits, figures - 1) + 1)]
    if hits < figures:
        return tuple(alive)
    other = per_hit - kill
    out = per_hit**hits - sum(comb(hits, k) * kill**k * other ** (hits - k) for k in range(figures))
    return (*alive, (figures, 0, out))


def _capped_counts(volley: Volley, sixes_cap: int) -> Distribution[Counts]:
    """Several Teams with their own caps: for each number of hits, the Teams' shares are fixed by `split_hits`.

    Fewer kills than the smallest Team has figures leave every Team alive,
    and then the ways to share K kills between the Teams' hits add up to
    C(hits, K) however the hits are split (Vandermonde's identity): those
    outcomes are read as at one Team, one product each (`_few_kills`).
    For the rest, given the hits, each Team either ends alive with `k`
    kills, its other hits each Shock or nothing, or out of play with its
    figures in kills (`_team_rows`). Combined over the Teams, what is left
    to read is the total kills and the number `m` of hits still to read as
    Shock or nothing, so the weights are summed into one row per `m` (a
    slot per total kills and count of sixes, byte-aligned, wide enough that
    nothing carries), and the Shock of every row is read at once: the rows
    as a polynomial in t shifted to t + none (a Taylor shift), as
    `uncapped_weights` does. With chained Storm of Steel dice 12 Firepower
    Dice reach 480 hits; no product of the Teams' whole (kills, Shock)
    tables per hit total is ever made.
    """
    fire, den = storm_of_steel.capped_weights(volley.dice, volley.to_hit, volley.storm, sixes_cap)
    most_h = max(h for h, _ in fire)
    most_x = max(x for _, x in fire)
    xc = min(sixes_cap, most_x) + 1
    kill, shock, none, per_hit = _reduced_faces(volley.effect)
    fewest = min(volley.figures)  # below this many kills every Team is alive
    kills_side = sum(volley.figures) + 1 - fewest
    total = den * per_hit**most_h
    size = _slot_bytes(total)
    width = 8 * size
    rows: dict[int, int] = {}
    for (h, x), n in fire.items():
        rows[h] = rows.get(h, 0) + (n << (width * min(x, xc - 1)))
    left = [0] * (most_h + 1)  # m hits still to read -> slots (kills less `fewest`, sixes)
    for h, row in rows.items():
        if h < fewest:
            continue
        states: dict[tuple[int, int], int] = {(0, 0): 1}
        for share, f in zip(split_hits(h, volley.teams), volley.figures, strict=True):
            merged: dict[tuple[int, int], int] = {}
            for (k0, m0), w0 in states.items():
                for k, m, w in _team_rows(kill, per_hit, share, f):
                    state = (k0 + k, m0 + m)
                    merged[state] = merged.get(state, 0) + w0 * w
            states = merged
        scaled = row * per_hit ** (most_h - h)
        for (k, m), w in states.items():
            if k >= fewest:
                left[m] += (w * scaled) << (width * (k - fewest) * xc)
    while len(left) > 1 and not left[-1]:
        left.pop()
    most_m = len(left) - 1
    # m hits still to read, s of them Shock: C(m, s) shock**s none**(m - s). Summed over m for every s at once.
    for i in range(most_m):
        for j in range(most_m - 1, i - 1, -1):
            if left[j + 1]:
                left[j] += left[j + 1] if none == 1 else left[j + 1] * none
    few, few_den = _few_kills(volley, sixes_cap, fewest)
    common = lcm(total, few_den)
    scale, few_scale = common // total, common // few_den
    out: dict[Counts, int] = {c: n * few_scale for c, n in few.items()}
    multiplier = volley.effect.shock_multiplier
    for s, packed in enumerate(left):
        if not packed:
            continue
        raw = packed.to_bytes(size * kills_side * xc, "little")
        ways = shock**s * scale
        for k in range(kills_side):
            for x in range(xc):
                at = (k * xc + x) * size
                n = int.from_bytes(raw[at:at + size], "little")
                if n:
                    out[(k + fewest, s * multiplier, x)] = n * ways
    return Distribution.from_weights(out, common)


def _few_kills(volley: Volley, sixes_cap: int, fewest: int) -> tuple[dict[Counts, int], int]:
    """(kills, shock, sixes capped at `sixes_cap`) of the rolls with fewer than `fewest` kills, as whole weights
    over the returned denominator: every Team alive, so K kills and s Shock come from K + s of the hits in
    C(K + s, K) kill**K shock**s ways, each hit total's share of them one coefficient of
    `storm_of_steel.effect_columns`, whichever Teams took the hits."""
    kill, shock, none, per_hit = _reduced_faces(volley.effect)
    columns, den = storm_of_steel.effect_columns(volley.dice, volley.to_hit, volley.storm, sixes_cap, none,
                                                 per_hit)
    multiplier = volley.effect.shock_multiplier
    out: dict[Counts, int] = {}
    for x, column in enumerate(columns):
        for k in range(min(fewest, len(column))):
            kills = kill**k
            for s in range(len(column) - k):
                n = column[k + s]
                if n:
                    out[(k, s * multiplier, x)] = comb(k + s, k) * kills * shock**s * n
    return out, den


def _team_poly(effect: HitEffect, hits: int, figures: int | None, width: int, shock_slots: int) -> int:
    """One Team's (kills, Shock) from `hits` effect dice as whole weights over 6**hits, packed in an integer:
    the weight of k kills and s Shock in slot k * shock_slots + s, each slot `width` bits.

    The die's faces as a polynomial (kill: the next kill row, shock: the
    multiplier's slots on, none: where it is) raised to the hits; with
    `figures` known every roll with at least that many kills is one slot,
    the figures in kills and no Shock (`cap_kills`).
    """
    faces = effect.faces
    kill, shock = faces.count("kill"), faces.count("shock")
    none = len(faces) - kill - shock
    die = (kill << (width * shock_slots)) + (shock << (width * effect.shock_multiplier)) + none
    if figures is None or hits < figures:
        power: int = die**hits
        return power
    # Rows of `figures` kills or more are dropped after every product (kills only add), so the power never
    # holds more rows than the Team has figures.
    mask = (1 << (width * shock_slots * figures)) - 1
    alive, base, left = 1, die, hits
    while left:
        if left & 1:
            alive = (alive * base) & mask
        left >>= 1
        if left:
            base = (base * base) & mask
    other = len(faces) - kill
    out: int = len(faces)**hits - sum(comb(hits, k) * kill**k * other ** (hits - k) for k in range(figures))
    return alive + (out << (width * shock_slots * figures))


TEAM_COVER_MOST_HITS = 48
"""The most hits Teams in different cover are counted exactly for (12 dice with 3 Storm of Steel dice a 6, not
chained: about 0.1 s); chained Storm of Steel dice bring hundreds, and minutes of counting."""


def _team_cover_counts(volley: Volley, sixes_cap: int) -> Distribution[Counts]:
    """(kills, shock, sixes capped at `sixes_cap`) when the Teams sharing the hits are in different cover.

    Given the hits, `split_hits` fixes each Team's share, and each Team reads
    its own effect dice against its own cover (and caps its kills at its
    figures), independently of the others: the product of the Teams' packed
    (kills, Shock) polynomials (`_team_poly`), weighted by the chance of that
    hit total and count of sixes, summed over the hit totals.
    """
    most_dice = volley.dice * storm_of_steel.most_dice_per_die(volley.storm)
    if most_dice > TEAM_COVER_MOST_HITS:
        raise OddsTooLarge(
            f"Exact odds not shown: with the Storm of Steel settings in Ruleset settings these {volley.dice} "
            f"Firepower Dice can bring {most_dice} dice, and Teams in different cover would take minutes to "
            f"count. Roll as usual.")
    fire, den = storm_of_steel.capped_weights(volley.dice, volley.to_hit, volley.storm, sixes_cap)
    most_h = max(h for h, _ in fire)
    xc = min(sixes_cap, max(x for _, x in fire)) + 1
    per_hit = len(volley.effect.faces)
    total = den * per_hit**most_h
    width = 8 * _slot_bytes(total)
    shock_slots = most_h * max(e.shock_multiplier for e in volley.team_effects) + 1
    kill_slots = (sum(min(f, most_h) for f in volley.figures) if volley.figures else most_h) + 1
    block = width * kill_slots * shock_slots  # one count of sixes
    rows: dict[int, dict[int, int]] = {}
    for (h, x), n in fire.items():
        row = rows.setdefault(h, {})
        row[min(x, xc - 1)] = row.get(min(x, xc - 1), 0) + n
    packed = 0
    polys: dict[tuple[int, int], int] = {}  # (Team, its hits) -> its packed polynomial, for this volley only
    for h, row in rows.items():
        product = 1
        for team, share in enumerate(split_hits(h, volley.teams)):
            poly = polys.get((team, share))
            if poly is None:
                poly = polys[team, share] = _team_poly(volley.team_effects[team], share, volley.figures_of(team),
                                                       width, shock_slots)
            product *= poly
        scale = per_hit ** (most_h - h)
        for x, n in row.items():
            packed += (product * (n * scale)) << (block * x)
    size = width // 8
    raw = packed.to_bytes(size * kill_slots * shock_slots * xc, "little")
    out: dict[Counts, int] = {}
    for at in range(0, len(raw), size):
        n = int.from_bytes(raw[at:at + size], "little")
        if n:
            slot = at // size
            x, rest = divmod(slot, kill_slots * shock_slots)
            k, shock = divmod(rest, shock_slots)
            out[(k, shock, x)] = n
    return Distribution.from_weights(out, total)


@lru_cache(maxsize=4096)
def _uncapped_counts(volley: Volley, sixes_cap: int = 0) -> Distribution[Counts]:
    """Exact joint distribution of (kills, shock, sixes capped at `sixes_cap`) with no figures to cap the kills."""
    weights, total = uncapped_weights(volley, sixes_cap)
    return Distribution.from_weights(
        {(k, s, x): n for k, s, x, n in weights}, total)


def uncapped_weights(volley: Volley, sixes_cap: int = 0, merge: Callable[[int], int] | None = None,
                     ) -> tuple[Iterator[tuple[int, int, int, int]], int]:
    """(kills, shock, sixes capped at `sixes_cap`, whole weight) of a volley with no figures to cap the
    kills, and the denominator of the weights.

    Given the hits, the effect dice are independent of which dice scored them,
    of the sixes and of how the hits are split between Teams: of `h` hits, `m`
    kill or shock in C(h, m) none**(h - m) ways (face counts, with the faces'
    common factor taken out: open ground reads 1:1:1 over 3), and those `m`
    split into kills and Shock in C(m, k) kill**k shock**(m - k) ways. So the
    sum over the hits is made once per `m`, for every count of sixes at once
    (each a byte-aligned slot of one integer, wide enough that nothing
    carries), and each outcome is one product. The weights come one by one,
    not as a distribution, so a caller keys them as its outcomes need
    without an intermediate outcome space. `merge` maps a
    count of sixes to the one it reads as (the smallest with the same key):
    such counts are added up before they are read.
    """
    if volley.dice == 0:
        return iter([(0, 0, 0 if merge is None else merge(0), 1)]), 1
    fire, den = storm_of_steel.capped_weights(volley.dice, volley.to_hit, volley.storm, sixes_cap)
    most_h = max(h for h, _ in fire)
    most_x = max(x for _, x in fire)
    faces = volley.effect.faces
    kill, shock = faces.count("kill"), faces.count("shock")
    none = len(faces) - kill - shock
    common = gcd(kill, shock, none)
    kill, shock, none, per_hit = kill // common, shock // common, none // common, len(faces) // common
    xc = min(sixes_cap, most_x) + 1
    total = den * per_hit**most_h
    size = _slot_bytes(total)
    width = 8 * size
    columns: dict[int, int] = {}  # count of sixes read -> its place in the packed rows
    rows = [0] * (most_h + 1)  # the weights of h hits, one slot per count of sixes read
    for (h, x), n in sorted(fire.items(), key=lambda hx: hx[0][1]):
        x = min(x, xc - 1)
        place = columns.setdefault(x if merge is None else merge(x), len(columns))
        rows[h] += n << (width * place)
    # m of the h hits kill or shock: C(h, m) ways, none**(h - m) for the rest, over the common denominator.
    # Summed over h for every m at once: the rows as a polynomial in t, shifted to t + none (Taylor shift).
    packed = [row * per_hit ** (most_h - h) for h, row in enumerate(rows)]
    for i in range(most_h):
        for j in range(most_h - 1, i - 1, -1):
            packed[j] += packed[j + 1] if none == 1 else packed[j + 1] * none
    raw = [p.to_bytes(size * len(columns), "little") for p in packed]
    sums = [[int.from_bytes(r[at:at + size], "little") for at in range(0, len(r), size)] for r in raw]
    return _split(sums, tuple(columns), kill, shock, volley.effect.shock_multiplier), total


def _split(sums: list[list[int]], columns: tuple[int, ...], kill: int, shock: int,
           multiplier: int) -> Iterator[tuple[int, int, int, int]]:
    """The nonzero (kills, shock, sixes, weight): m hits that kill or shock split into k kills and m - k Shock
    in C(m, k) kill**k shock**(m - k) ways. Lazily, so no list of thousands of tuples is ever held."""
    for k in range(len(sums)):
        for s in range(len(sums) - k):
            ways = comb(k + s, k) * kill**k * shock**s
            if ways:
                for place, n in enumerate(sums[k + s]):
                    if n:
                        yield k, s * multiplier, columns[place], ways * n


def kills_shock_key(kills: int, shock: int) -> str:
    return f"kills={kills} shock={shock}"


@lru_cache(maxsize=1024)
def kills_shock_odds(volley: Volley) -> Distribution[str]:
    """Exact odds of the `kills=K shock=S` keys of a volley."""
    return keyed_volley_odds(volley)


def _no_words(sixes: int) -> str:
    return ""


def keyed_volley_odds(volley: Volley, sixes_cap: int = 0,
                      sixes_words: Callable[[int], str] = _no_words) -> Distribution[str]:
    """Exact odds of `kills=K shock=S` keys followed by what the sixes (capped at `sixes_cap`) add to them.

    Unless several Teams each cap their own kills, the keys are made straight
    from the weights, one Team's cap applied while keying: thousands of
    outcomes never pass through a distribution of tuples. Where at most
    `FEW_SIXES` counts of sixes are told apart, each weight is one product
    (`_one_team_odds`); where every count is (the Shock on a transport),
    from the shift of every hit total (`uncapped_weights`).
    """
    if (volley.figures and volley.teams > 1) or volley.team_effects:
        return volley_counts(volley, sixes_cap).map(lambda c: kills_shock_key(c[0], c[1]) + sixes_words(c[2]))
    figures = volley.figures[0] if volley.figures else None
    if volley.dice and sixes_cap <= FEW_SIXES:
        return _one_team_odds(volley, figures, sixes_cap, sixes_words)
    first_with: dict[str, int] = {}
    more_words: dict[int, str] = {}

    def merge(sixes: int) -> int:
        more_words[sixes] = words = sixes_words(sixes)
        return first_with.setdefault(words, sixes)

    weights, total = uncapped_weights(volley, sixes_cap, merge)
    counts_words: dict[int, str] = {}
    keyed: dict[str, int] = {}
    for k, s, x, n in weights:
        words = counts_words.get(k << 16 | s)
        if words is None:
            kills, shock = cap_kills(k, s, figures)
            words = counts_words[k << 16 | s] = kills_shock_key(kills, 0 if volley.shock_ignored else shock)
        key = words + more_words[x]
        keyed[key] = keyed.get(key, 0) + n
    return Distribution.from_weights(keyed, total)


FEW_SIXES = 8
"""Counts of sixes that change an outcome key, up to which `_one_team_odds` keeps each count apart."""


def _one_team_odds(volley: Volley, figures: int | None, sixes_cap: int,
                   sixes_words: Callable[[int], str]) -> Distribution[str]:
    """Exact keyed odds of a volley at one Team (or at Teams with no figures given), one product per outcome.

    Of j hits that kill or shock, k kill in C(j, k) kill**k shock**(j - k)
    ways, and the weight of j such hits summed over every hit total is one
    coefficient of `storm_of_steel.effect_columns`: with the most Storm of
    Steel dice (480 hits) an outcome costs a few multiplications, not a sum
    over the hits or a Taylor shift of every hit total. A Team with
    `figures` is alive below that many kills; the rest of each column's
    weight is the Team out of play (its figures in kills, no Shock).
    """
    kill, shock, none, per_hit = _reduced_faces(volley.effect)
    columns, total = storm_of_steel.effect_columns(volley.dice, volley.to_hit, volley.storm, sixes_cap, none,
                                                   per_hit)
    by_words: dict[str, list[int]] = {}  # counts of sixes that read the same, added up before they are read
    for x, column in enumerate(columns):
        if any(column):
            words = sixes_words(x)
            same = by_words.get(words)
            by_words[words] = list(column) if same is None else list(map(add, same, column))
    common = total  # a factor every weight shares, taken out of a few hundred row entries, not thousands of keys
    for row in by_words.values():  # few 6s bring few Storm of Steel dice: a short row of hits
        while not row[-1]:
            row.pop()
        for n in row:
            if n % common:
                common = gcd(common, n)
    if common > 1:
        total //= common
        by_words = {words: [n // common for n in row] for words, row in by_words.items()}
    multiplier = 0 if volley.shock_ignored else volley.effect.shock_multiplier
    most = len(columns[0]) - 1
    kills_to = most if figures is None else min(figures - 1, most)
    keyed: dict[str, int] = {}
    shock_powers = list(accumulate(repeat(shock, most), mul, initial=1))
    alive = dict.fromkeys(by_words, 0)
    shock_words = [f" shock={s * multiplier}" for s in range(most + 1)] if multiplier else []
    for k in range(kills_to + 1):
        # C(k + s, k) kill**k shock**s ways for k kills and s Shock, s = 0, 1, ...: alike for every count of sixes
        ways = list(map(mul, map(comb, range(k, most + 1), repeat(k)), shock_powers))
        if k and kill != 1:
            ways = [kill**k * n for n in ways]
        for words, row in by_words.items():
            weights = list(map(mul, ways, row[k:]))
            alive[words] += sum(weights)
            if multiplier:  # every (kills, Shock) its own key
                kills_words = f"kills={k}"  # thousands of keys: their words joined, not formatted one by one
                keyed.update(zip([kills_words + shock + words for shock in shock_words[:len(weights)]], weights,
                                 strict=True))
            elif any(weights):
                key = kills_shock_key(k, 0) + words
                keyed[key] = keyed.get(key, 0) + sum(weights)
    if figures is not None:
        reading = kill + shock
        for words, row in by_words.items():
            every = 0
            for t in reversed(row):  # the sum of row[j] * (kill + shock)**j, by Horner's rule
                every = every * reading + t
            if every > alive[words]:
                key = kills_shock_key(figures, 0) + words
                keyed[key] = keyed.get(key, 0) + every - alive[words]
    common = total
    for n in keyed.values():
        if n % common:
            common = gcd(common, n)
            if common == 1:
                return Distribution.from_lowest_terms(keyed, total)
    return Distribution.from_lowest_terms({key: n // common for key, n in keyed.items()}, total // common)


# reading inputs shared by the fire procedures ------------------------------------------------------

def read_to_hit(r: InputReader, tables: FireTables = DEFAULT_TABLES) -> int:
    """`to_hit`, or `range_band` with `target_quality` looked up in the to-hit table (not both)."""
    band = r.choice("range_band", RANGE_BANDS, "")
    quality = r.choice("target_quality", QUALITIES, "")
    if "to_hit" in r:
        if band or quality:
            raise RulesInputError("to_hit", "give to_hit or range_band with target_quality, not both")
        return r.int("to_hit", minimum=2, maximum=6)
    r.str("to_hit", "")
    if not band and not quality:
        raise RulesInputError("to_hit", "is required (or range_band with target_quality)")
    if not band:
        raise RulesInputError("range_band", f"is required with target_quality (one of {', '.join(RANGE_BANDS)})")
    if not quality:
        raise RulesInputError("target_quality", f"is required with range_band (one of {', '.join(QUALITIES)})")
    return to_hit_number(band, quality, tables)


def read_cover(r: InputReader, key: str = "cover", default: str | None = None) -> str:
    return r.choice(key, cover_levels(), default)


def read_storm(r: InputReader, enabled: bool) -> StormOfSteel | None:
    """The Storm of Steel setting (always read, so the app can pass it to every procedure)."""
    storm = StormOfSteel.read(r)
    return storm if enabled else None


FIGURES_DIGITS = 4  # no Team has 10,000 figures; longer numbers are refused before `int` reads them


def _id_list(r: InputReader, key: str) -> tuple[str, ...]:
    if key not in r:
        r.str(key, "")
        return ()
    parts = tuple(p.strip() for p in r.str(key).split(","))
    if any(not p for p in parts):
        raise RulesInputError(key, f"must be unit ids separated by commas, not {brief(r.str(key))}")
    return parts


def read_id(r: InputReader, key: str) -> str | None:
    """An optional unit id: given, the procedure returns Effects for that unit."""
    raw = r.optional_str(key)
    if raw is None:
        return None
    text = raw.strip()
    if not text or "," in text:
        raise RulesInputError(key, f"must be one unit id, not {raw!r}")
    return text


@dataclass(frozen=True)
class Targets:
    """The target Teams' unit ids (empty: compute only), if known the figures each has, and their names for the
    log (empty: "Team 1", "Team 2")."""

    ids: tuple[str, ...] = ()
    figures: tuple[int, ...] = ()
    sniper: bool = False
    names: tuple[str, ...] = ()


def read_targets(r: InputReader, teams: int, one_unit: bool = False) -> Targets:
    """`target_id` (one Team) or `target_ids` (comma separated, one per Team), `target_figures`, and
    `target_names` (one a line, in the same order: what the log calls each Team).

    With `one_unit`, `target_id` may also be one unit made of all the `teams`
    (a Section of two Teams), with its figures as one number.
    """
    one = _id_list(r, "target_id")
    many = _id_list(r, "target_ids")
    if one and many:
        raise RulesInputError("target_id", "give target_id or target_ids, not both")
    if len(one) > 1:
        raise RulesInputError("target_id", f"names one unit; use target_ids for {len(one)} teams")
    ids = one or many
    field = "target_id" if one else "target_ids"
    if one_unit and len(many) <= 1:
        teams = 1
    if ids and len(ids) != teams:
        raise RulesInputError(field, f"names {counted(len(ids), 'units')} but the hits are shared by "
                                     f"{counted(teams, 'teams')}")
    if len(set(ids)) != len(ids):
        raise RulesInputError(field, "names the same unit twice")
    figures_text = _id_list(r, "target_figures")
    figures: list[int] = []
    for text in figures_text:
        if not (text.isascii() and text.isdigit()) or len(text) > FIGURES_DIGITS:
            raise RulesInputError("target_figures", f"must be whole numbers separated by commas, not {brief(text)}")
        figures.append(int(text))
    if figures and len(figures) != (len(ids) or teams):
        raise RulesInputError("target_figures", f"gives {counted(len(figures), 'numbers')} for "
                                                f"{counted(len(ids) or teams, 'teams')}")
    names = tuple(line.strip() for line in r.str("target_names", "").splitlines() if line.strip())
    if names and len(names) != (len(ids) or teams):
        raise RulesInputError("target_names", f"gives {counted(len(names), 'names')} for "
                                              f"{counted(len(ids) or teams, 'teams')}")
    if 0 in figures:
        team = figures.index(0)
        who = "The target" if len(figures) == 1 else names[team] if names else f"Team {team + 1}"
        raise RulesInputError("target_figures", f"{who} has no figures left: it is out of play and cannot be "
                                                "fired at")
    return Targets(ids, tuple(figures), names=names)


def read_sniper_target(r: InputReader, targets: Targets) -> Targets:
    """`sniper_target`: the one target Team is a spotted sniper, fired at as any infantry target.

    Snipers ignore Shock and a single kill removes the Sniper Team, whose side
    takes a Force Morale Test: the target counts as one figure that ignores
    Shock, so the odds count exactly what the Effects do.
    """
    if not r.bool("sniper_target"):
        return targets
    if len(targets.ids) > 1 or (targets.figures and len(targets.figures) > 1):
        raise RulesInputError("sniper_target", "a spotted sniper is fired at on its own: no other Team can share "
                                               "the hits")
    return Targets(targets.ids, (1,), sniper=True, names=targets.names)


def sniper_volley(volley: Volley, targets: Targets) -> Volley:
    """The volley as the sniper target takes it: one kill removes it, Shock is ignored."""
    if not targets.sniper:
        return volley
    if volley.teams != 1:
        raise RulesInputError("sniper_target", "a spotted sniper is fired at on its own: no other Team can share "
                                               "the hits")
    return replace(volley, figures=(1,), shock_ignored=True)


def target_effects(targets: Targets, team_kills: Sequence[int], team_shock: Sequence[int]) -> list[Effect]:
    """Shock added and figures removed on each target Team, which is out of play with none left (none without ids).

    A spotted sniper takes no Shock; a kill removes it from the table.
    """
    effects: list[Effect] = []
    if targets.sniper:
        return [e for unit_id in targets.ids if team_kills[0]
                for e in (QueueForceMoraleTest(unit_id, "sniper_killed", "Sniper killed"), RemoveUnit(unit_id))]
    for i, unit_id in enumerate(targets.ids):
        figures = targets.figures[i] if targets.figures else None
        kills, shock = cap_kills(team_kills[i], team_shock[i], figures)
        if kills:
            effects.append(ChangeFigures(unit_id, -kills))
        if shock:
            effects.append(add_shock(unit_id, shock))
        if figures is not None and kills >= figures:
            effects.append(SetCondition(unit_id, OUT_OF_PLAY))
    return effects


SNIPER_KILLED = "The sniper is killed and removed from the table: its side takes a Force Morale Test"
SNIPER_UNHARMED = "The sniper is not killed and ignores the Shock"


def out_of_play_line(who: str) -> str:
    """The log's reminder when a Team loses its last figure."""
    return f"{who} has no figures left: out of play. Its side takes a Force Morale Test"


def describe_volley(v: VolleyResult, volley: Volley) -> list[str]:
    """Log lines for a volley, in roll order."""
    lines = [f"{volley.dice} Firepower Dice needing {volley.to_hit}+: "
             f"{' '.join(map(str, v.fire.base)) or 'none'}"]
    if v.fire.extra:
        lines.append(f"Storm of Steel dice: {' '.join(map(str, v.fire.extra))}")
    lines.append(f"{counted(v.hits, 'hits')}, {counted(v.sixes, 'sixes')}; effect rolled as {cover_words(volley)}")
    if volley.shock_ignored:
        if v.effect_dice and v.effect_dice[0]:
            lines.append(f"Target: effect dice {' '.join(map(str, v.effect_dice[0]))}")
        lines.append(SNIPER_KILLED if v.kills else SNIPER_UNHARMED)
        return lines
    for i, faces in enumerate(v.effect_dice):
        who = "Target" if volley.teams == 1 else volley.team_name(i)
        if faces:
            lines.append(f"{who}: effect dice {' '.join(map(str, faces))} -> "
                         f"{counted(v.team_kills[i], 'kills')}, {v.team_shock[i]} Shock")
        figures = volley.figures_of(i)
        if figures is not None and v.team_kills[i] >= figures:
            lines.append(out_of_play_line("The target" if volley.teams == 1 else volley.team_name(i)))
    return lines


# coc.fire ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FireInputs:
    volley: Volley
    targets: Targets


def read_team_effects(r: InputReader, teams: int, cover: str, reduce_by: int, multiplier: int,
                      tables: FireTables) -> tuple[HitEffect, ...]:
    """`team_cover`: each Team's cover, comma separated in the order the hits are shared, the first `cover`.

    Each is reduced by `reduce_by` levels as `cover` is. Empty (every Team
    reads the first Team's effect) when not given or when the covers, so
    reduced, are all the same.
    """
    if "team_cover" not in r:
        r.str("team_cover", "")
        return ()
    levels = cover_levels()
    parts = tuple(p.strip() for p in r.str("team_cover").split(","))
    if any(p not in levels for p in parts):
        raise RulesInputError("team_cover", f"lists each Team's cover ({', '.join(levels)}) separated by commas, "
                                            f"not {brief(r.str('team_cover'))}")
    if len(parts) != teams:
        raise RulesInputError("team_cover", f"gives {counted(len(parts), 'covers')} for {counted(teams, 'teams')}")
    if parts[0] != cover:
        raise RulesInputError("team_cover", f"starts with {parts[0]}, but the first Team's cover is {cover}")
    effects = tuple(HitEffect.for_cover(reduce_cover(c, reduce_by), multiplier, tables) for c in parts)
    return effects if len({e.cover for e in effects}) > 1 else ()


def cover_words(volley: Volley) -> str:
    """The cover the effect dice are read against: "light", or "open for 2nd Squad, light for 1st Squad"."""
    if not volley.team_effects:
        return volley.effect.cover
    return ", ".join(f"{e.cover} for {volley.team_name(i)}" for i, e in enumerate(volley.team_effects))


def read_fire(r: InputReader, dice: int, extra_cover_reduction: int = 0) -> tuple[Volley, Targets]:
    """The coc.fire inputs other than the dice count: to-hit, cover, Shock, Storm of Steel, Teams, ids."""
    tables = FireTables.read(r)
    to_hit = read_to_hit(r, tables)
    cover = read_cover(r)
    reduce_by = r.int("reduce_cover", 0, minimum=0, maximum=len(cover_levels()))
    multiplier = r.int("shock_multiplier", 1, minimum=1, maximum=2)
    storm = read_storm(r, r.bool("storm_of_steel"))
    teams = r.int("teams", 1, minimum=1, maximum=MAX_TEAMS)
    targets = read_sniper_target(r, read_targets(r, teams))
    effect = HitEffect.for_cover(reduce_cover(cover, reduce_by + extra_cover_reduction), multiplier, tables)
    team_effects = read_team_effects(r, teams, cover, reduce_by + extra_cover_reduction, multiplier, tables)
    return sniper_volley(Volley(dice, to_hit, storm, effect, teams, targets.figures, team_effects=team_effects,
                                names=targets.names), targets), targets


def _parse(inputs: Inputs) -> FireInputs:
    r = InputReader(inputs)
    dice = r.int("firepower_dice", minimum=0, maximum=MAX_DICE)
    volley, targets = read_fire(r, dice)
    r.finish()
    return FireInputs(volley, targets)


def fire_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    v = roll_volley(roller, p.volley)
    values = {**v.values(), "to_hit": p.volley.to_hit, "cover": p.volley.effect.cover}
    return Resolution("coc.fire", kills_shock_key(v.kills, v.shock), values, roller.rolls,
                      target_effects(p.targets, v.team_kills, v.team_shock), describe_volley(v, p.volley))


def fire_odds(inputs: Inputs) -> Distribution[str]:
    return kills_shock_odds(_parse(inputs).volley)


register(Procedure("coc.fire", "Fire", fire_resolve, fire_odds, ruleset=RULESET, settings=SETTINGS,
                   better=counts("kills", "shock"), rolled_by=FIRER,
                   typical={"firepower_dice": 12, "to_hit": 4, "cover": "light", "storm_of_steel": True, "teams": 2},
                   largest={"firepower_dice": 12, "to_hit": 3, "cover": "open", "storm_of_steel": True, "teams": 2,
                            "target_figures": "5,5", "shock_multiplier": 2},
                   worst_best=("kills=0 shock=0", "kills=24 shock=0")))
