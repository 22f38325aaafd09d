"""Exact odds of every registered procedure, cold, at typical and at the largest inputs the rules allow,
each beside a seeded simulation of the same procedure (its `resolve` with `RandomDice`, the method odds
calculators such as UnitCrunch use): the simulation's time as a ratio and its error.

Goals: cold exact odds <= 1 ms with typical inputs and <= 5 ms with the largest, in CPU time (the
machine may be shared). A simulation runs
`SIMULATION_RUNS` samples, fewer where a procedure's `resolve` is slow (`SIMULATION_BUDGET_S` per line,
the count is printed) so that `make bench` stays within two minutes; its time is then scaled to
`SIMULATION_RUNS` for the ratio. `BENCH_SIMULATION_RUNS=100000` forces the full count everywhere.
"""

from __future__ import annotations

import functools
import gc
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable

from battletracker.core.dice import RandomDice
from battletracker.model.game import Unit, Weapon
from battletracker.model.terrain import TerrainPiece
from battletracker.rules import Inputs, Procedure, get, procedures
from battletracker.rules.base import InputValue
from battletracker.rules.table_actions import unit_choice
from battletracker.rules.terrain_actions import terrain_choice

TYPICAL_GOAL_MS = 1.0
LARGEST_GOAL_MS = 5.0
SIMULATION_RUNS = 100_000
SIMULATION_BUDGET_S = 0.25
MIN_SIMULATION_RUNS = 2_000


def _indexed(prefix: str, count_key: str, rows: list[dict[str, InputValue]]) -> dict[str, InputValue]:
    """Numbered inputs for a list of units or targets: `<prefix>1_id`, ... and their count."""
    out: dict[str, InputValue] = {count_key: len(rows)}
    for n, row in enumerate(rows, 1):
        out.update({f"{prefix}{n}_{key}": value for key, value in row.items()})
    return out


def _ab_unit(uid: str, x: float, y: float, armoured: bool, reaction: int) -> dict[str, InputValue]:
    return {"id": uid, "x": x, "y": y, "armoured": armoured, "reaction_dice": reaction}


def _ab_mission(units: list[dict[str, InputValue]], fp: int, at: int) -> dict[str, InputValue]:
    return {"firer_id": "stuh", "aim_x": 30.0, "aim_y": 20.0, "range": 24.0, "ranges": "9/18/36", "los": False,
            "observer": True, "fp_dice": fp, "at_dice": at, "marker_id": "impact1", **_indexed("unit", "units", units)}


_GRUPPE = Unit("u12", "3. Gruppe", "section", 0, 12.0, 6.0, 180.0, 10, 10,
               weapons=[Weapon("Rifles"), Weapon("MG42")])
_ORCHARD = TerrainPiece("t6", "Orchard", "woods", "area", [(40.0, 20.0), (46.0, 20.0), (46.0, 26.0), (40.0, 26.0)])
_BARLEY = TerrainPiece("t1", "Barley field", "crops", "area", [(15.0, 6.5), (25.5, 6.0), (26.0, 13.5), (15.5, 14.0)])

# The demo's units (1. Gruppe u1, sMG42 team u3, Panzerschreck u4, Leutnant Kraus u5, Panzer IV u6) and
# terrain (Wheat field t1, Hedge t4, Stone wall t5), as the table's actions pass them (rules.plan on the demo game).
_TABLE: dict[str, dict[str, InputValue]] = {
    "unit.move": {"unit": "u1", "x": 14.0, "y": 20.0, "facing": 180.0, "line": '1. Gruppe moved 11.7" to (14", 20")'},
    "unit.counter": {"unit": "u1", "counter": "shock", "delta": 1, "line": "Shock on 1. Gruppe: 0 -> 1"},
    "unit.figures": {"unit": "u1", "delta": -2, "line": "Figures of 1. Gruppe: 10 -> 8 of 10"},
    "unit.ammo": {"unit": "u4", "weapon": 0, "rounds": 1, "line": "Panzerschreck (Panzerschreck): 3 -> 2 rounds"},
    "unit.condition": {"unit": "u1", "condition": "pinned", "present": True, "line": "1. Gruppe is now Pinned"},
    "unit.damage": {"unit": "u6", "damage": "immobilised", "present": True,
                    "line": "Panzer IV H: Vehicle Immobilised recorded"},
    "unit.add": {"unit": unit_choice(_GRUPPE),
                 "line": 'Added 3. Gruppe (Section) for Germany at (12", 6") facing 180\u00b0'},
    "unit.edit": {"unit": unit_choice(_GRUPPE), "line": "Edited 3. Gruppe: figures 8/10 -> 10/10"},
    "unit.remove": {"unit": "u5", "line": "Removed Leutnant Kraus (Leader, Germany) from the table"},
    "side.change": {"side": 0, "name": "Germany", "colour": "#3b6fb6", "force_morale": 8, "coc_points": 1,
                    "line": "Force Morale of Germany: 9 -> 8"},
    "clock.set": {"turn": 1, "phase": 2, "next_side": 1, "text": "End of Turn 1 Phase 1",
                  "heading": "Turn 1, Phase 2: United States"},
    "terrain.add": {"piece": terrain_choice(_ORCHARD), "line": "Added Orchard (Woods) to the table"},
    "terrain.edit": {"piece": terrain_choice(_BARLEY), "line": "Edited Wheat field: name Wheat field -> Barley field"},
    "terrain.remove": {"piece": "t4", "line": "Removed Hedge (Hedge) from the table"},
    "terrain.move": {"piece": "t5", "points": "[[34.0,38.3],[45.0,38.3]]", "line": 'Moved Stone wall 1.0"'},
}

_BOMBARDMENT: dict[str, InputValue] = {"activation": "command_die", "x": 20.0, "y": 20.0, "phases_left": 3,
                                       "phases_fired": 1, "pattern_die": 2, "firepower_dice": 6, "to_hit": 4}
_SECTION: dict[str, InputValue] = {"kind": "infantry", "id": "u1", "name": "1 Section", "figures": 8, "cover": "open"}
# Ten targets under a devastating bombardment's first Phase (its Firepower Dice doubled): Sections in every
# cover, passengers in a lorry, tanks (one open-topped), units in a brick building, an empty building.
_TEN_TARGETS: list[dict[str, InputValue]] = [
    {**_SECTION, "id": "s1", "name": "1 Section", "figures": 10},
    {**_SECTION, "id": "s2", "name": "2 Section", "figures": 10, "cover": "light"},
    {**_SECTION, "id": "s3", "name": "3 Section", "figures": 9, "cover": "hard"},
    {**_SECTION, "id": "mg", "name": "MG team", "figures": 5},
    {"kind": "passengers", "id": "p1", "name": "Passengers", "figures": 10, "vehicle_id": "lorry"},
    {"kind": "vehicle", "id": "t1", "name": "Panzer IV"},
    {"kind": "vehicle", "id": "t2", "name": "Sd.Kfz. 251", "open_topped": True},
    {**_SECTION, "id": "s4", "name": "HQ", "figures": 4, "cover": "hard", "building": "brick_stone",
     "storeys": 2},
    {"kind": "building", "id": "bld", "name": "Church", "building": "brick_stone"},
    {**_SECTION, "id": "s5", "name": "Sniper", "figures": 2, "cover": "light"},
]

# Typical inputs per procedure, as the dialogs would pass them (from the seeds' worked examples and the demo).
TYPICAL: dict[str, dict[str, InputValue]] = {
    "dice.pool": {"dice": 10, "target": 4},
    "coc.fire": {"firepower_dice": 12, "to_hit": 4, "cover": "light", "storm_of_steel": True, "teams": 2},
    "coc.tripod_mg": {"figures": 5, "range_band": "effective", "target_quality": "regular", "cover": "light"},
    "coc.sniper": {"target_kind": "infantry", "leader_attached": True},
    "coc.flamethrower": {"range": 8, "fuel": 3, "target_kind": "wooden_building", "to_hit": 4},
    "coc.gun_he": {"he_dice": 4, "cover": "hard", "crew": 4, "teams": 2},
    "coc.grenade_into_vehicle": {"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 2, "to_hit": 4},
    "coc.at_fire": {"strike_dice": 9, "armour_dice": 6, "location": "front", "visibility": "open", "target": "afv"},
    "coc.armour_save_only": {"armour_dice": 6, "target": "afv"},
    "coc.at_grenade": {"weapon": "Teller mine", "armour_dice": 2, "target": "afv", "distance": 4},
    "coc.reverse": {},
    "coc.ranging_shot": {"aim_x": 36, "aim_y": 24, "unobserved_attempts": 1},
    "coc.sos_fire": {"cover": "light"},
    "coc.bombardment_step": {},
    "coc.bombardment_phase": {**_BOMBARDMENT, **_indexed("target", "targets", [
        _SECTION, {**_SECTION, "id": "u2", "name": "2 Section", "cover": "hard"}])},
    "coc.command_dice": {"side": 0, "side_name": "Germany", "dice": 5, "coc_tally": 0, "turn": 1, "phase": 1,
                         "active_side": 0},
    "coc.spend_command_die": {"side": 0, "side_name": "Germany", "face": 2, "held": "1 2 4", "unit_id": "u1",
                              "unit_name": "1. Gruppe", "turn": 1, "phase": 1},
    "coc.force_morale_test": {"side": 0, "side_name": "Germany", "force_morale": 9, "event": "team_lost",
                              "agenda_id": "fm1"},
    "table.step": {},
    "ab.indirect_placement": {"aim_x": 30, "aim_y": 20, "range": 24, "ranges": "9/18/36", "los": False,
                              "observer": True},
    "ab.indirect_mission": _ab_mission([_ab_unit("rifles", 29.0, 20.0, False, 4),
                                        _ab_unit("smgs", 31.5, 21.0, False, 4),
                                        _ab_unit("t34", 30.0, 18.0, True, 5),
                                        _ab_unit("far", 32.01, 20.0, False, 4)], 7, 4),
    "ab.close_support_fire": {"mode": "indirect", "dice_type": "fp", "fp_dice": 7, "at_dice": 4, "move": "single",
                              "range": 24, "ranges": "9/18/36"},
    "ab.reaction": {"reaction_dice": 4, "incoming": 3, "incoming_sixes": 1, "suppression": "artillery"},
    "ab.direct_fire_reaction": {"mode": "direct", "dice_type": "fp", "fp_dice": 7, "at_dice": 4, "move": "single",
                                "range": 12, "ranges": "9/18/36", "reaction:reaction_dice": 4,
                                "reaction:suppression": "artillery"},
    "ab.close_support_assault": {"dice_type": "fp", "fp_dice": 7, "at_dice": 4},
    "necro.shoot": {"bs": 4, "range": 10, "short_range": 8, "long_range": 24, "acc_short": 1, "rapid_fire": 2,
                    "ammo": 4},
    "necro.attack": {"bs": 4, "range": 10.0, "short_range": 8.0, "long_range": 24.0, "acc_short": 1, "acc_long": 0,
                     "rapid_fire": 2, "ammo": 4, "firer_id": "a", "weapon": 0, "target_id": "b",
                     "weapon_name": "Autogun", "cool": 7, "toolkit_target_priority": True},
    "necro.cool_check": {"cool": 7},
    "necro.engaged_allocation": {"combat": "u1,u2,u3", "hits": 3},
    "necro.reload": {"profile_state": "out_of_ammo"},
    "necro.stray_shots": {"at_risk": "u1,u2,u3", "hits": 2, "toolkit_stray_shots": True},
    **_TABLE,
}

# The largest inputs the rules allow, where a procedure's work grows with its inputs (the rest are in
# NO_LARGER). Where the seeds print a number (12 Firepower Dice for a flamethrower, six for SOS Fire) it is
# used; where they leave it to a unit's profile, the largest the procedure accepts.
LARGEST: dict[str, dict[str, InputValue]] = {
    "dice.pool": {"dice": 60, "target": 4},
    "coc.fire": {"firepower_dice": 12, "to_hit": 3, "cover": "open", "storm_of_steel": True, "teams": 2,
                 "target_figures": "5,5", "shock_multiplier": 2},
    "coc.tripod_mg": {"figures": 5, "range_band": "close", "target_quality": "green", "cover": "open"},
    "coc.flamethrower": {"range": 4, "fuel": 3, "target_kind": "transport", "range_band": "close",
                         "target_quality": "green", "firer_id": "flammen", "vehicle_id": "lorry",
                         "vehicle_current_shock": 1},
    "coc.gun_he": {"he_dice": 5, "cover": "open", "crew": 4, "teams": 2},
    "coc.grenade_into_vehicle": {"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 3,
                                 "to_hit": 4},
    "coc.at_fire": {"strike_dice": 11, "armour_dice": 6, "location": "front", "visibility": "open", "target": "afv"},
    "coc.armour_save_only": {"armour_dice": 6, "target": "afv"},
    "coc.at_grenade": {"weapon": "Teller mine", "armour_dice": 6, "target": "afv", "distance": 4},
    "coc.ranging_shot": {"aim_x": 36, "aim_y": 24, "unobserved_attempts": 20},
    "coc.sos_fire": {"cover": "open", "teams": 2},
    "coc.bombardment_phase": {**_BOMBARDMENT, "phases_fired": 0, "state": "ready", "activation": "begun",
                              "devastating": True, **_indexed("target", "targets", _TEN_TARGETS)},
    "coc.command_dice": {**TYPICAL["coc.command_dice"], "dice": 12},
    "ab.indirect_mission": _ab_mission(
        [_ab_unit(f"u{n}", 28.0 + (n % 5), 18.0 + n // 5, n % 3 == 0, 6) for n in range(10)], 20, 20),
    "ab.close_support_fire": {**TYPICAL["ab.close_support_fire"], "fp_dice": 20, "at_dice": 20},
    "ab.reaction": {"reaction_dice": 20, "incoming": 40, "incoming_sixes": 10, "suppression": "artillery"},
    "ab.direct_fire_reaction": {**TYPICAL["ab.direct_fire_reaction"], "fp_dice": 20, "at_dice": 20,
                                "reaction:reaction_dice": 20},
    "ab.close_support_assault": {"dice_type": "fp", "fp_dice": 20, "at_dice": 20},
    "necro.shoot": {**TYPICAL["necro.shoot"], "rapid_fire": 6},
    "necro.attack": {**TYPICAL["necro.attack"], "rapid_fire": 6, "at_risk": "c,d,e,f,g,h,i,j",
                     "toolkit_stray_shots": True},
    "necro.engaged_allocation": {"combat": "u1,u2,u3,u4,u5,u6", "hits": 12},
    "necro.stray_shots": {"at_risk": "u1,u2,u3,u4,u5,u6,u7,u8", "hits": 18, "toolkit_stray_shots": True},
}

# The Storm of Steel settings at the most the ruleset allows (settings.toml: 3 extra dice per 6, extras earning
# more for 3 rounds): 12 Firepower Dice can then bring 480 dice.
STORM_OF_STEEL_MOST: dict[str, InputValue] = {"storm_of_steel_per_six": 3, "storm_of_steel_chains": True}
_FLAME_AT_SECTION: dict[str, InputValue] = {"range": 4, "fuel": 3, "range_band": "close", "target_quality": "green",
                                             "firer_id": "flammen", "target_id": "u1", "target_figures": "10"}
# (procedure, what is measured, inputs): the flamethrower as the table's shot plans pass a Section of 10 (one
# unit with its figures) in the open, in a wooden building and carried in a transport; the bombardment's ten
# targets, passengers in a lorry, a tank and a half-track among them; SOS Fire at a Section of two Teams with its
# figures, as the table passes it (without them 115,921 kills-and-Shock outcomes).
LARGEST_STORM: list[tuple[str, str, dict[str, InputValue]]] = [
    ("coc.fire", "storm", {**LARGEST["coc.fire"], **STORM_OF_STEEL_MOST}),
    ("coc.at_grenade", "storm", {**LARGEST["coc.at_grenade"], **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at infantry", {**_FLAME_AT_SECTION, "target_kind": "infantry", **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at a wooden building", {**_FLAME_AT_SECTION, "target_kind": "wooden_building",
                                                        "building_id": "barn", **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at a transport", {**LARGEST["coc.flamethrower"], "target_ids": "u1",
                                                  "target_figures": "10", **STORM_OF_STEEL_MOST}),
    # an empty wooden building, where only the 6s count
    ("coc.flamethrower", "storm at an empty wooden building", {
        "range": 4, "fuel": 3, "range_band": "close", "target_quality": "green", "firer_id": "flammen",
        "target_kind": "wooden_building", "teams": 0, "building_id": "barn", **STORM_OF_STEEL_MOST}),
    ("coc.bombardment_phase", "storm", {**LARGEST["coc.bombardment_phase"], **STORM_OF_STEEL_MOST}),
    ("coc.sos_fire", "storm", {**LARGEST["coc.sos_fire"], "target_id": "s1", "target_figures": "10",
                               **STORM_OF_STEEL_MOST}),
]

# Procedures whose inputs have no size to grow: their typical inputs are their largest.
NO_LARGER: frozenset[str] = frozenset({
    "coc.sniper", "coc.reverse", "coc.bombardment_step", "coc.spend_command_die", "coc.force_morale_test",
    "table.step", "ab.indirect_placement", "necro.cool_check", "necro.reload", *_TABLE})


def _caches() -> list[functools._lru_cache_wrapper[object]]:
    """The rules' and odds' memo caches (not the data tables, which load once at start)."""
    return [obj for obj in gc.get_objects()
            if isinstance(obj, functools._lru_cache_wrapper)
            and obj.__module__.startswith(("battletracker.core", "battletracker.rules"))
            and obj.__module__ not in ("battletracker.rules.tables", "battletracker.rules.presets")]


def cold_median_ms(fn: Callable[[], object], caches: list[functools._lru_cache_wrapper[object]],
                   repeat: int = 9) -> float:
    """Median CPU time of `fn` with every memo cache emptied before each run (outside the timing).

    CPU time of this thread, not wall time: on a machine shared with other
    work the time the thread waits for a core is not the odds' cost.
    """
    fn()
    times = []
    for _ in range(repeat):
        for cache in caches:
            cache.cache_clear()
        start = time.thread_time()
        fn()
        times.append((time.thread_time() - start) * 1000)
        if times[-1] > 200:  # a slow one is slow every time: three runs say enough
            repeat = min(repeat, 3)
        if len(times) >= repeat:
            break
    return statistics.median(times)


def cached_median_ms(fn: Callable[[], object], repeat: int = 15) -> float:
    """Median CPU time of `fn` once its memo caches are warm."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def simulate(proc: Procedure, inputs: Inputs, runs: int, seed: int = 1) -> tuple[Counter[str], float]:
    """Outcome counts of `runs` resolutions with seeded dice, and the CPU time they took in ms."""
    dice = RandomDice(seed)
    resolve = proc.resolve
    start = time.thread_time()
    seen = Counter(resolve(inputs, dice).outcome for _ in range(runs))
    return seen, (time.thread_time() - start) * 1000


def simulation_runs(proc: Procedure, inputs: Inputs) -> int:
    """`SIMULATION_RUNS`, or as many as `SIMULATION_BUDGET_S` allows where `resolve` is slow."""
    forced = os.environ.get("BENCH_SIMULATION_RUNS")
    if forced:
        return int(forced)
    _, pilot_ms = simulate(proc, inputs, 200, seed=2)
    fits = int(SIMULATION_BUDGET_S * 1000 / (pilot_ms / 200))
    return max(MIN_SIMULATION_RUNS, min(SIMULATION_RUNS, fits // 1000 * 1000))


def simulation_error(proc: Procedure, inputs: Inputs, seen: Counter[str], runs: int) -> float:
    """Largest absolute difference between a simulated and the exact probability of any outcome."""
    exact = proc.odds(inputs).as_floats()
    return max(abs(seen[o] / runs - exact.get(o, 0.0)) for o in set(exact) | set(seen))


def measure(name: str, which: str, inputs: Inputs, goal_ms: float,
            caches: list[functools._lru_cache_wrapper[object]]) -> bool:
    """Print one line: cold and cached exact odds against the goal, the simulation's ratio and error."""
    proc = get(name)

    def run() -> None:
        proc.odds(inputs)

    cold = cold_median_ms(run, caches)
    cached = cached_median_ms(run)
    runs = simulation_runs(proc, inputs)
    seen, sim_ms = simulate(proc, inputs, runs)
    full_ms = sim_ms * SIMULATION_RUNS / runs
    error = simulation_error(proc, inputs, seen, runs)
    within = cold <= goal_ms
    timed = "" if runs == SIMULATION_RUNS else f" (timed over {runs:,})"
    print(f"odds {name} {which:<8} cold {cold:6.2f} ms CPU (goal <= {goal_ms:g} ms: {'within' if within else 'OVER'})"
          f", cached {cached:.2f} ms | simulation of {SIMULATION_RUNS:,} {full_ms:6.0f} ms{timed},"
          f" ratio exact/simulation {cold / full_ms:.1e}x, error {error:.4f} (1/sqrt(runs) {runs ** -0.5:.4f})",
          flush=True)
    return within


def main() -> None:
    names = procedures()
    caches = _caches()
    missing = sorted(set(names) - set(TYPICAL))
    if missing:
        print(f"no typical inputs for: {', '.join(missing)}")
    over: list[str] = []
    for name in names:
        if name in TYPICAL and not measure(name, "typical", TYPICAL[name], TYPICAL_GOAL_MS, caches):
            over.append(f"{name} typical")
        if name in LARGEST and not measure(name, "largest", LARGEST[name], LARGEST_GOAL_MS, caches):
            over.append(f"{name} largest")
        for storm_name, which, inputs in LARGEST_STORM:
            if storm_name == name and not measure(name, which, inputs, LARGEST_GOAL_MS, caches):
                over.append(f"{name} {which} (the most Storm of Steel)")
    print(f"odds: {len(names)} procedures, over their goal: {', '.join(over) if over else 'none'}", flush=True)


if __name__ == "__main__":
    main()
