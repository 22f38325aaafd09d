"""Invariants over any sequence of effects and any bytes offered as a save file."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import AddUnit
from battletracker.model.effects import AppendLog
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import ChangeSide
from battletracker.model.effects import Effect
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import PopLog
from battletracker.model.effects import RemoveMarker
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import ReplaceUnit
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.effects import SetMarkerData
from battletracker.model.effects import SetProfileState
from battletracker.model.effects import SetSetting
from battletracker.model.effects import SpendAmmo
from battletracker.model.effects import TurnUnit
from battletracker.model.game import Activation
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.savefile import SaveFileError
from battletracker.model.savefile import game_to_dict
from battletracker.model.sequence_effects import AddAgendaItem
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.model.sequence_effects import ChangeForceMorale
from battletracker.model.sequence_effects import QueueForceMoraleTest
from battletracker.model.sequence_effects import RemoveAgendaItem
from battletracker.model.sequence_effects import SetActed
from battletracker.model.sequence_effects import SetActivation
from battletracker.model.sequence_effects import SetCommandDiceCount
from battletracker.model.sequence_effects import SetCommandRoll
from battletracker.model.sequence_effects import SetHeldDice
from tests.model.sample import sample_game

UNIT_IDS = st.sampled_from(["u1", "u2", "u3", "u4", "u5", "u9", "nobody"])
MARKER_IDS = st.sampled_from(["m1", "m2", "m3", "gone"])
COUNTERS = st.sampled_from(["shock", "suppression", "disruption"])
NAMES = st.sampled_from(["pinned", "broken", "out_of_ammo", "buttoned", "immobilised", ""])
SMALL = st.integers(-6, 6)
SIDES = st.integers(-1, 2)
FACES = st.lists(st.integers(0, 7), max_size=6)
AGENDA_IDS = st.sampled_from(["a1", "a2", ""])
COORD = st.one_of(st.floats(-10, 100, allow_nan=False), st.sampled_from([float("nan"), float("inf")]))
ANGLE = st.one_of(st.floats(-1000, 1000), st.sampled_from([-1e-20, 360.0, -0.0, 359.9999999999999]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=5),
                    st.floats(allow_nan=True, allow_infinity=True))

new_units = st.builds(
    Unit,
    id=UNIT_IDS,
    name=st.text(min_size=1, max_size=8),
    kind=st.sampled_from(["team", "section", "vehicle", "tank"]),
    side=st.integers(-1, 2),
    x=COORD,
    y=COORD,
    facing=ANGLE,
    figures=st.integers(-1, 6),
    figures_max=st.integers(0, 6),
    counters=st.dictionaries(COUNTERS, st.integers(-1, 5), max_size=2),
    conditions=st.lists(NAMES.filter(bool), unique=True, max_size=2),
    weapons=st.lists(st.builds(Weapon, name=st.just("Bren"), ammo=st.none() | st.integers(-1, 5),
                               ammo_max=st.none() | st.integers(0, 5)), max_size=2),
)

markers = st.builds(
    Marker, id=MARKER_IDS, kind=st.sampled_from(["smoke", "burst"]), x=COORD, y=COORD,
    radius=st.floats(-1, 6, allow_nan=False), side=st.none() | st.integers(0, 2),
)

log_entries = st.builds(LogEntry, time=st.just("2026-05-01T12:00:00"), turn=st.integers(0, 3),
                        phase=st.integers(1, 3), text=st.text(max_size=10))

effects: st.SearchStrategy[Effect] = st.one_of(
    st.builds(ChangeCounter, UNIT_IDS, COUNTERS, SMALL),
    st.builds(ChangeFigures, UNIT_IDS, SMALL),
    st.builds(SpendAmmo, UNIT_IDS, st.integers(-1, 1), SMALL),
    st.builds(SetCondition, UNIT_IDS, NAMES, st.booleans()),
    st.builds(SetDamage, UNIT_IDS, NAMES, st.booleans()),
    st.builds(SetProfileState, UNIT_IDS, st.integers(0, 1), st.integers(0, 2),
              st.sampled_from(["ok", "out_of_ammo", "jammed", "melted"])),
    st.builds(MoveUnit, UNIT_IDS, COORD, COORD, ANGLE),
    st.builds(TurnUnit, UNIT_IDS, ANGLE),
    st.builds(AddUnit, new_units, st.none() | st.integers(-1, 7)),
    st.builds(RemoveUnit, UNIT_IDS),
    st.builds(ReplaceUnit, new_units),
    st.builds(PlaceMarker, markers),
    st.builds(RemoveMarker, MARKER_IDS),
    st.builds(SetMarkerData, MARKER_IDS, st.sampled_from(["phase", "fire", ""]), SCALARS),
    st.builds(AppendLog, log_entries),
    st.builds(PopLog, log_entries),
    st.builds(SetClock, st.integers(0, 4), st.integers(0, 4), st.integers(-1, 2)),
    st.builds(ChangeSide, st.integers(0, 2),
              st.builds(Side, st.text(max_size=5), st.sampled_from(["#112233", "red"]),
                        st.integers(-1, 12), st.integers(-1, 5))),
    st.builds(SetSetting, st.sampled_from(["storm_of_steel_per_six", "other", ""]), SCALARS),
    st.builds(SetHeldDice, SIDES, FACES.map(tuple)),
    st.builds(ChangeCocTally, SIDES, SMALL),
    st.builds(ChangeForceMorale, SIDES, SMALL),
    st.builds(SetCommandDiceCount, SIDES, st.integers(0, 13)),
    st.builds(SetCommandRoll, SIDES, st.none() | st.builds(CommandRoll, st.integers(0, 3), st.integers(0, 3), FACES)),
    st.builds(SetActed, UNIT_IDS, st.none() | st.builds(PhaseStamp, st.integers(0, 3), st.integers(0, 3))),
    st.builds(SetActivation, UNIT_IDS, st.none() | st.builds(
        Activation, st.integers(0, 3), st.integers(0, 3), st.sampled_from(["command_die", "order", "coc_point", "x"]),
        FACES, st.sampled_from(["", "u2"]), st.integers(-1, 3), st.lists(st.sampled_from(["move", "fire"]),
                                                                          max_size=2))),
    st.builds(AddAgendaItem, SIDES, st.builds(AgendaItem, AGENDA_IDS, st.just("force_morale_test"),
                                              st.just("team_lost"), st.just("Team lost"), st.integers(0, 3),
                                              st.integers(0, 3)), st.none() | st.integers(-1, 3)),
    st.builds(RemoveAgendaItem, AGENDA_IDS),
    st.builds(QueueForceMoraleTest, UNIT_IDS, st.just("sniper_killed"), st.just("Sniper killed")),
)


def _check_invariants(game: Game) -> None:
    for unit in game.units.values():
        assert all(v >= 0 for v in unit.counters.values()), unit.counters
        assert 0 <= unit.figures <= unit.figures_max
        assert 0.0 <= unit.facing < 360.0
        for weapon in unit.weapons:
            assert weapon.ammo is None or weapon.ammo >= 0
            assert weapon.ammo is None or weapon.ammo_max is None or weapon.ammo <= weapon.ammo_max
    for side in game.sides:
        assert side.force_morale >= 0 and side.coc_points >= 0


@settings(max_examples=300, deadline=None)
@given(st.lists(effects, max_size=25))
def test_undoing_every_effect_restores_the_exact_start(sequence: list[Effect]) -> None:
    game = sample_game()
    start = game_to_dict(game)
    undo: list[Effect] = []
    for effect in sequence:
        before = game_to_dict(game)
        try:
            undo.append(game.apply(effect))
        except GameError:
            assert game_to_dict(game) == before, f"refused {effect!r} changed the game"
        _check_invariants(game)
    # Whatever the effects made can be saved and loaded back exactly.
    assert game_to_dict(savefile.loads(savefile.dumps(game))) == game_to_dict(game)
    for inverse in reversed(undo):
        game.apply(inverse)
    assert game_to_dict(game) == start


@settings(max_examples=200, deadline=None)
@given(st.lists(effects, max_size=12))
def test_apply_all_is_all_or_nothing_for_any_batch(batch: list[Effect]) -> None:
    game = sample_game()
    start = game_to_dict(game)
    try:
        inverses = game.apply_all(batch)
    except GameError:
        assert game_to_dict(game) == start
        return
    _check_invariants(game)
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert game_to_dict(game) == start


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(UNIT_IDS, COUNTERS, st.integers(-20, 20)), max_size=40))
def test_counters_never_go_negative(changes: list[tuple[str, str, int]]) -> None:
    game = sample_game()
    for unit_id, counter, delta in changes:
        for effect in (ChangeCounter(unit_id, counter, delta), SpendAmmo(unit_id, 0, delta),
                       ChangeFigures(unit_id, delta)):
            with contextlib.suppress(GameError):
                game.apply(effect)
        _check_invariants(game)


def _loads_or_refuses(raw: bytes) -> None:
    try:
        game = savefile.loads(raw)
    except SaveFileError as exc:
        assert str(exc)
        return
    # Whatever loads can be written and read back unchanged.
    assert game_to_dict(savefile.loads(savefile.dumps(game))) == game_to_dict(game)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_load_or_are_refused_cleanly(raw: bytes) -> None:
    _loads_or_refuses(raw)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60), st.integers(0, 3000), st.integers(0, 40))
def test_damaged_save_files_load_or_are_refused_cleanly(junk: bytes, at: int, cut: int) -> None:
    raw = savefile.dumps(sample_game())
    at %= len(raw)
    _loads_or_refuses(raw[:at] + junk + raw[at + cut:])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | st.sampled_from(["#123456", "ok", "afv", "section", "", "\ud800"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


def _containers(node: Any, found: list[Any]) -> list[Any]:
    if isinstance(node, dict | list):
        found.append(node)
        for child in node.values() if isinstance(node, dict) else node:
            _containers(child, found)
    return found


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_mutated_save_documents_load_or_are_refused_cleanly(data: st.DataObject) -> None:
    document = json.loads(savefile.dumps(sample_game()))
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        containers = _containers(document, [])
        target = data.draw(st.sampled_from(containers), label="container")
        if not target:
            continue
        key = data.draw(st.sampled_from(list(target.keys()) if isinstance(target, dict) else range(len(target))))
        if data.draw(st.booleans(), label="drop"):
            del target[key]
        else:
            target[key] = data.draw(json_values, label="value")
    try:
        raw = json.dumps(document, ensure_ascii=data.draw(st.booleans())).encode("utf-8")
    except UnicodeEncodeError:
        raw = json.dumps(document, ensure_ascii=True).encode("utf-8")
    _loads_or_refuses(raw)
