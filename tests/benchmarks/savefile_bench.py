"""Saving and loading a big game, each beside the bare JSON work on the same data in the same run.

Goals (issue "Files"): a validated load within 2x `json.loads` of the same
file plus building the same objects without checks (`unchecked_game` below);
a save within 1.5x `json.dumps` of the same data plus the same atomic write.
Measured on 500 units with 10,000 log entries, and on a played game of 500
units carrying a long action history (the start it replays from and 1,000
actions), as real saved games do. With Qt: opening a 300-action game in a
Session, its undo history offered again (beside loading the file and
replaying its actions once), a side's Force Morale changed on a 500-unit
game (beside a unit's Shock), and the battle report (beside one replay).

Run with `python -m tests.benchmarks.savefile_bench`. Not a test: timings are printed, not asserted.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from battletracker.model import savefile
from battletracker.model.actions import RULES
from battletracker.model.actions import Action
from battletracker.model.backdrop import Backdrop
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment import SmokeArea
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.model.savefile import PICTURE
from battletracker.model.savefile import SAME_AS_GAME
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.presets import unit_presets
from tests.benchmarks.common import report_ratio

LOAD_GOAL = 2.0
SAVE_GOAL = 1.5
OPEN_GOAL = 1.3


def paired_ms(measured: Callable[[], object], baseline: Callable[[], object],
              repeat: int = 15) -> tuple[float, float]:
    """Median milliseconds of `measured` and of `baseline`, run in turns so that both meet the same load."""
    times: tuple[list[float], list[float]] = ([], [])
    for k in range(repeat + 2):
        for fn, out in ((measured, times[0]), (baseline, times[1])):
            start = time.perf_counter()
            fn()
            if k >= 2:  # the first two of each warm up
                out.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def ratio(name: str, measured: Callable[[], object], baseline: Callable[[], object], goal: float, said: str,
          repeat: int = 15) -> None:
    report_ratio(name, *paired_ms(measured, baseline, repeat), goal, said)


def big_game(units: int = 500, log_entries: int = 10_000) -> Game:
    presets = unit_presets("chain_of_command")
    game = Game(title="Benchmark", sides=[Side("A", "#3b6fb6"), Side("B", "#b5651d")])
    for i in range(units):
        p = presets[i % len(presets)]
        u = p.make(f"u{i}", f"{p.title} {i}", i % 2, (i * 7) % 72 + 0.5, (i * 13) % 48 + 0.5, (i * 37) % 360)
        game.units[u.id] = u
    game.log = [LogEntry("2026-11-29T12:00:00", 1 + i // 100, 1 + i % 10, f"Entry {i}: 1st Squad takes 1 Shock",
                         "effect") for i in range(log_entries)]
    for i in range(40):  # a table's terrain: woods and hedges
        x, y = (i * 11) % 66 + 1.0, (i * 7) % 42 + 1.0
        piece = TerrainPiece(f"t{i}", f"Wood {i}", "woods", "area", [(x, y), (x + 5, y), (x + 5, y + 4), (x, y + 4)]) \
            if i % 2 else TerrainPiece(f"t{i}", f"Hedge {i}", "hedge", "linear", [(x, y), (x + 6, y + 1)])
        game.terrain[piece.id] = piece
    return game


# -- the baseline: the same objects built from the parsed file with no check at all ------------------


def _stamp(d: dict[str, Any] | None) -> PhaseStamp | None:
    return None if d is None else PhaseStamp(**d)


def _weapon(d: dict[str, Any]) -> Weapon:
    return Weapon(**{**d, "profiles": [WeaponProfile(**p) for p in d.get("profiles", [])]})


def _unit(d: dict[str, Any]) -> Unit:
    vehicle = d.get("vehicle")
    return Unit(**{**d, "weapons": [_weapon(w) for w in d.get("weapons", [])],
                   "vehicle": None if vehicle is None else Vehicle(**vehicle), "acted": _stamp(d.get("acted"))})


def _side(d: dict[str, Any]) -> Side:
    roll = d.get("command_roll")
    return Side(**{**d, "command_roll": None if roll is None else CommandRoll(**roll),
                   "agenda": [AgendaItem(**a) for a in d.get("agenda", [])]})


def _bombardment(d: dict[str, Any]) -> Bombardment:
    return Bombardment(**{**d, "history": [BombardmentEvent(**e) for e in d.get("history", [])],
                          "last_fired": _stamp(d.get("last_fired")), "last_ranged": _stamp(d.get("last_ranged"))})


def _in_place(start: dict[str, Any], terrain: list[dict[str, Any]], pictures: dict[str, str]) -> dict[str, Any]:
    """The start with what the file writes once put in place, unchecked: terrain pieces by id, pictures by hash."""
    held = {t["id"]: t for t in terrain}
    start["terrain"] = [held[t[SAME_AS_GAME]] if SAME_AS_GAME in t else t for t in start.get("terrain", [])]
    backdrop = start.get("backdrop")
    if backdrop and str(backdrop.get("image", "")).startswith(PICTURE):
        backdrop["image"] = pictures[backdrop["image"][len(PICTURE):]]
    return start


def unchecked_game(doc: dict[str, Any]) -> Game:
    """The game of a parsed save file built straight from its values: the dataclasses a load makes, unchecked."""
    g = doc["game"]
    if g.get("backdrop") and str(g["backdrop"].get("image", "")).startswith(PICTURE):
        g["backdrop"]["image"] = doc["pictures"][g["backdrop"]["image"][len(PICTURE):]]
    game = Game(**{**g, "sides": [_side(s) for s in g["sides"]],
                   "units": {u["id"]: _unit(u) for u in g["units"]},
                   "markers": {m["id"]: Marker(**m) for m in g["markers"]},
                   "log": [LogEntry(**e) for e in g["log"]],
                   "bombardments": {b["id"]: _bombardment(b) for b in g["bombardments"]},
                   "buildings": {b["id"]: Building(**b) for b in g["buildings"]},
                   "smoke": {s["id"]: SmokeArea(**s) for s in g["smoke"]},
                   "terrain": {t["id"]: TerrainPiece(**{**t, "points": [(x, y) for x, y in t["points"]]})
                               for t in g["terrain"]},
                   "backdrop": Backdrop(**g["backdrop"]) if g.get("backdrop") else None})
    history = doc.get("history")
    if history is not None:
        game.start = _in_place(history["start"], g["terrain"], doc.get("pictures", {}))
        game.actions = [Action(a["name"], a["choices"], tuple(a["dice"]), a["time"], a.get("typed", False),
                               a.get("rules", RULES)) for a in history["actions"]]
    return game


def _json_bytes(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def files(name: str, game: Game, folder: Path) -> None:
    """Load and save of `game`, each beside its baseline."""
    path = folder / "game.battle"
    savefile.save(game, path)
    raw = path.read_bytes()
    assert unchecked_game(json.loads(raw)) == savefile.loads(raw), "the baseline builds the same game"
    ratio(f"load {name} (validated)", lambda: savefile.load(path),
          lambda: unchecked_game(json.loads(savefile.read_file(path))), LOAD_GOAL, "json.loads + unchecked")
    doc = savefile.game_to_dict(game)
    ratio(f"save {name} (atomic)", lambda: savefile.save(game, path),
          lambda: savefile.write_atomic(path, _json_bytes(doc)), SAVE_GOAL, "json.dumps + write")
    try:
        from PySide6.QtWidgets import QApplication

        from battletracker.ui.files import save_game
        from battletracker.ui.files import write_bytes
    except ImportError:
        return
    app = QApplication.instance() or QApplication([])
    ratio(f"save {name} (QSaveFile)", lambda: save_game(game, path), lambda: write_bytes(path, _json_bytes(doc)),
          SAVE_GOAL, "json.dumps + write")
    del app


def main() -> None:
    from tests.benchmarks.replay_bench import played_game

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        files("500 units + 10,000 log entries", big_game(), folder)
        files("500 units, 1,000 actions of history", played_game(500, 1000), folder)
        sessions(folder)


def sessions(folder: Path) -> None:
    """What a Session pays on a long game: opening it with its undo history, a side changed, the report."""
    try:
        from PySide6.QtWidgets import QApplication

        from battletracker.ui.session import Session
    except ImportError:
        return
    from battletracker.rules.replay import replay_steps
    from battletracker.rules.report import build_report
    from tests.benchmarks.replay_bench import played_game

    app = QApplication.instance() or QApplication([])
    game = played_game(500, 300)
    path = folder / "played.battle"
    savefile.save(game, path)

    def reopen() -> None:
        session = Session(Game())
        session.open(path)
        assert session.undo_stack.count() == 300

    ratio("open 300 actions on 500 units with undo (Session)", reopen, lambda: replay_steps(savefile.load(path)),
          OPEN_GOAL, "load + one replay", repeat=7)
    session = Session(savefile.load(path))

    def change(name: str, choices: dict[str, Any]) -> None:
        session.act(name, choices)
        session.undo_stack.undo()

    ratio("Force Morale -1, 500 units (check, apply, undo)",
          lambda: change("side.change", {"side": 0, "value": "force_morale", "delta": -1}),
          lambda: change("unit.shock", {"unit": "u1", "delta": 1}), 1.5, "a unit's Shock")
    ratio("battle report of 300 actions (replays and luck)", lambda: build_report(game), lambda: replay_steps(game),
          1.5, "one replay", repeat=5)
    del app


if __name__ == "__main__":
    main()
