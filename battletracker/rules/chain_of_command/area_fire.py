"""Fire that falls on an area: each unit inside rolls against the same mortars.

A Medium Mortar bombardment and SOS Fire treat every unit in their area alike,
by what it is:

- infantry: the weapon's Firepower Dice through coc.fire's volley (to-hit,
  Storm of Steel, one effect die per hit read against its cover);
- passengers in a Transport: 4D6 for each passenger Team (`teams`), hitting
  on 5-6, effect as in Light Cover,
  every 6 (Storm of Steel dice included) one Shock on the vehicle;
- an AFV or APC: 2D6 (3D6 open-topped), every 6 one Shock;
- an empty building: the weapon's Firepower Dice, its 6s applied to the building.

H.E. that rolls four 6s at a brick or stone building, or at a unit in one,
makes the building unstable. Each target's exact odds are over
`AreaCounts` = (kills, shock, vehicle Shock, buildings made unstable), built
from the same per-die distributions coc.fire uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache

from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.odds import Distribution
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules.base import Roller
from battletracker.rules.base import counted
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import VolleyResult
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.fire import volley_counts
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.chain_of_command.vehicle_target import VehicleTarget

TARGET_KINDS = ("infantry", "passengers", "vehicle", "building")
UNCAPPED = 10_000

AreaCounts = tuple[int, int, int, int]
"""(kills, shock, Shock added to vehicles, buildings made unstable) from one target or a whole area."""


@dataclass(frozen=True)
class AreaTarget:
    """One unit (or empty building) under the fire, as the dice see it.

    `volley` is the Firepower Dice at infantry and passengers (one unit, its
    kills capped at its `figures`: with none left it is out of play); `dice` and
    `to_hit` are the vehicle's or the empty building's dice. `vehicle` takes
    Shock from the 6s (the AFV or APC itself, or the passengers' Transport).
    `building_id` is the brick or stone building four 6s make unstable (the
    empty building, or the one the unit is in); `can_collapse` says whether 6s
    can do that here at all.
    """

    kind: str
    name: str
    volley: Volley | None = None
    dice: int = 0
    to_hit: int = 6
    storm: StormOfSteel | None = None
    unit_id: str | None = None
    figures: int | None = None
    vehicle: VehicleTarget = VehicleTarget()
    can_collapse: bool = False
    building_id: str | None = None

    def for_odds(self) -> AreaTarget:
        """The same dice without the ids and the card numbers that do not change the odds."""
        return AreaTarget(self.kind, "", self.volley, self.dice, self.to_hit, self.storm,
                          vehicle=self.vehicle.for_odds(), can_collapse=self.can_collapse)


@dataclass(frozen=True)
class TargetResult:
    """What the fire did to one target, with its log lines and Effects."""

    target: AreaTarget
    kills: int
    shock: int
    sixes: int
    vehicle_shock: int
    unstable: bool
    lines: tuple[str, ...]
    effects: tuple[Effect, ...]

    @property
    def counts(self) -> AreaCounts:
        return (self.kills, self.shock, self.vehicle_shock, int(self.unstable))


class _Labelled:
    """Dice that put the target's name in front of each roll's label, so a dialog asks for the right dice."""

    def __init__(self, dice: Dice, prefix: str) -> None:
        self._dice = dice
        self._prefix = prefix

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        return self._dice.roll(die, count, f"{self._prefix}: {label}")


def roll_target(roller: Roller, dice: Dice, target: AreaTarget, unstable_sixes: int) -> TargetResult:
    """Roll everything for one target, recording the rolls in `roller` under the target's name."""
    sub = Roller(_Labelled(dice, target.name))
    if target.volley is not None:
        volley = roll_volley(sub, target.volley)
        result = volley_result(target, volley, unstable_sixes)
    else:
        result = _dice_result(target, storm_of_steel.roll(sub, "Firepower Dice" if target.kind == "building"
                                                          else "Dice for Shock", target.dice, target.to_hit,
                                                          target.storm), unstable_sixes)
    roller.rolls.extend((f"{target.name}: {label}", values) for label, values in sub.rolls)
    return result


def volley_result(target: AreaTarget, v: VolleyResult, unstable_sixes: int) -> TargetResult:
    """What a rolled volley did to `target`: its kills, Shock and 6s, log lines and Effects."""
    assert target.volley is not None
    lines = [f"{target.name}:"] + [f"  {line}" for line in describe_volley(v, target.volley)]
    effects: list[Effect] = []
    kills = v.kills
    if target.unit_id is not None:
        if kills:
            effects.append(ChangeFigures(target.unit_id, -kills))
        if v.shock:
            effects.append(add_shock(target.unit_id, v.shock))
        if target.figures is not None and kills >= target.figures:
            effects.append(SetCondition(target.unit_id, OUT_OF_PLAY))
    vehicle_shock = 0
    if target.kind == "passengers":
        vehicle_shock = target.vehicle.shock_added(v.sixes)
        lines.extend(f"  {line}" for line in target.vehicle.describe(v.sixes))
        effects.extend(target.vehicle.effects(v.sixes))
    unstable = target.can_collapse and v.sixes >= unstable_sixes
    if unstable:
        lines.append(f"  {v.sixes} sixes: the building it is in becomes unstable")
    return TargetResult(target, kills, v.shock, v.sixes, vehicle_shock, unstable, tuple(lines), tuple(effects))


def _dice_result(target: AreaTarget, roll: storm_of_steel.StormRoll, unstable_sixes: int) -> TargetResult:
    shown = " ".join(map(str, roll.base)) or "none"
    lines = [f"{target.name}: {counted(target.dice, 'dice')}: {shown}"]
    if roll.extra:
        lines.append(f"  Storm of Steel dice: {' '.join(map(str, roll.extra))}")
    effects: list[Effect] = []
    vehicle_shock = 0
    unstable = False
    if target.kind == "vehicle":
        vehicle_shock = target.vehicle.shock_added(roll.sixes)
        lines.append(f"  {counted(roll.sixes, 'sixes')}")
        lines.extend(f"  {line}" for line in target.vehicle.describe(roll.sixes))
        effects.extend(target.vehicle.effects(roll.sixes))
    else:
        unstable = target.can_collapse and roll.sixes >= unstable_sixes
        lines.append(f"  {counted(roll.sixes, 'sixes')}: " + ("the building becomes unstable and collapses at the end "
                                                    "of the Turn" if unstable else "the building stands"))
    return TargetResult(target, 0, 0, roll.sixes, vehicle_shock, unstable, tuple(lines), tuple(effects))


# exact odds ------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def target_counts(target: AreaTarget, unstable_sixes: int) -> Distribution[AreaCounts]:
    """Exact distribution of one target's `AreaCounts` (give it `target.for_odds()` to share the cache)."""
    if target.volley is not None:
        cap = UNCAPPED if target.kind == "passengers" else (unstable_sixes if target.can_collapse else 0)

        def read(c: tuple[int, int, int]) -> AreaCounts:
            vehicle = target.vehicle.shock_added(c[2]) if target.kind == "passengers" else 0
            return (c[0], c[1], vehicle, int(target.can_collapse and c[2] >= unstable_sixes))

        return volley_counts(target.volley, cap).map(read)
    fire = storm_of_steel.hits_and_sixes(target.dice, target.to_hit, target.storm)
    if target.kind == "vehicle":
        return fire.map(lambda hx: (0, 0, target.vehicle.shock_added(hx[1]), 0))
    return fire.map(lambda hx: (0, 0, 0, int(target.can_collapse and hx[1] >= unstable_sixes)))


def add_counts(a: AreaCounts, b: AreaCounts) -> AreaCounts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _same_building(a: AreaCounts, b: AreaCounts) -> AreaCounts:
    """Two targets in one building: their losses add up, but the building becomes unstable once."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], max(a[3], b[3]))


@lru_cache(maxsize=1024)
def _kept_counts(target: AreaTarget, unstable_sixes: int, keep: tuple[bool, bool, bool, bool],
                 ) -> Distribution[AreaCounts]:
    """One target's counts with the parts a caller does not report read as 0.

    Without Shock the effect dice's Shock faces read as nothing: the kills and
    6s are the same, and the volley's odds have one dimension fewer.
    """
    if not keep[1] and target.volley is not None:
        effect = target.volley.effect
        faces = tuple("none" if f == "shock" else f for f in effect.faces)
        target = replace(target, volley=replace(target.volley, effect=replace(effect, faces=faces)))
    return target_counts(target, unstable_sixes).map(
        lambda c: (c[0] if keep[0] else 0, c[1] if keep[1] else 0, c[2] if keep[2] else 0, c[3] if keep[3] else 0))


def total_counts(targets: Sequence[AreaTarget], unstable_sixes: int,
                 keep: tuple[bool, bool, bool, bool] = (True, True, True, True)) -> Distribution[AreaCounts]:
    """Exact distribution of the summed counts over independent targets (unstable counts buildings).

    `keep` zeroes the parts a caller does not report, before combining, so the
    combination stays small (the whole area's kills alone is a short list).
    Targets that can bring down the same building are combined first so that
    building counts once; then the parts are summed (`_summed`).
    """
    zero: AreaCounts = (0, 0, 0, 0)
    by_building: dict[str, Distribution[AreaCounts]] = {}
    parts: list[Distribution[AreaCounts]] = []
    for target in targets:
        one = _kept_counts(target.for_odds(), unstable_sixes, keep)
        if target.can_collapse and target.building_id is not None:
            before = by_building.get(target.building_id, Distribution.certain(zero))
            by_building[target.building_id] = before.convolve(one, _same_building).reduced()
        else:
            parts.append(one)
    return _summed([*parts, *by_building.values()])


def _summed(parts: Sequence[Distribution[AreaCounts]]) -> Distribution[AreaCounts]:
    """Exact distribution of the sum of independent `parts`.

    Kept as a dict from the other counts, (Shock, vehicle Shock, unstable), to
    the kills' polynomial packed into one integer (a byte-aligned slot per
    count of kills, wide enough for the whole sum's weights so nothing
    carries): combining two parts multiplies these integers pair by pair, so
    ten targets' thousands of outcomes take a few hundred products, not a
    million pairs of outcomes.
    """
    zero: AreaCounts = (0, 0, 0, 0)
    if not parts:
        return Distribution.certain(zero)
    weighted = [d.whole_weights() for d in parts]
    den = 1
    for _, d in weighted:
        den *= d
    size = den.bit_length() // 8 + 1
    width = 8 * size
    kills = sum(max(c[0] for c in w) for w, _ in weighted) + 1
    total: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for w, _ in weighted:
        packed: dict[tuple[int, int, int], int] = {}
        for c, n in w.items():
            rest = (c[1], c[2], c[3])
            packed[rest] = packed.get(rest, 0) + (n << (width * c[0]))
        summed: dict[tuple[int, int, int], int] = {}
        for a, pa in total.items():
            for b, pb in packed.items():
                key = (a[0] + b[0], a[1] + b[1], a[2] + b[2])
                summed[key] = summed.get(key, 0) + pa * pb
        total = summed
    out: dict[AreaCounts, int] = {}
    for rest, poly in total.items():
        raw = poly.to_bytes(size * kills, "little")
        for k in range(kills):
            n = int.from_bytes(raw[k * size:(k + 1) * size], "little")
            if n:
                out[(k, *rest)] = n
    return Distribution.from_weights(out, den)


def target_key(kind: str, counts: tuple[int, int, int, int]) -> str:
    """One target's outcome key (the same keys coc.sos_fire uses)."""
    kills, shock, vehicle_shock, unstable = counts
    if kind == "vehicle":
        return f"vehicle_shock={vehicle_shock}"
    if kind == "building":
        return "unstable" if unstable else "standing"
    key = f"kills={kills} shock={shock}"
    if kind == "passengers":
        key += f" vehicle_shock={vehicle_shock}"
    if unstable:
        key += " unstable"
    return key
