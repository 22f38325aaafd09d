"""Saving and loading a big game: 500 units and 10,000 log entries (budget 100 ms each)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from battletracker.model import savefile
from battletracker.model.game import Game, LogEntry, Side
from battletracker.rules.presets import unit_presets
from tests.benchmarks.common import median_ms, report

BUDGET_MS = 100.0


def big_game(units: int = 500, log_entries: int = 10_000) -> Game:
    presets = unit_presets("chain_of_command")
    game = Game(title="Benchmark", sides=[Side("A", "#3b6fb6"), Side("B", "#b5651d")])
    for i in range(units):
        p = presets[i % len(presets)]
        u = p.make(f"u{i}", f"{p.title} {i}", i % 2, (i * 7) % 72 + 0.5, (i * 13) % 48 + 0.5, (i * 37) % 360)
        game.units[u.id] = u
    game.log = [LogEntry("2026-11-29T12:00:00", 1 + i // 100, 1 + i % 10, f"Entry {i}: 1st Squad takes 1 Shock",
                         "effect") for i in range(log_entries)]
    return game


def main() -> None:
    game = big_game()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.battle"
        report("save 500 units + 10,000 log entries (model, atomic)", median_ms(lambda: savefile.save(game, path)),
               BUDGET_MS)
        report("load 500 units + 10,000 log entries (validated)", median_ms(lambda: savefile.load(path)), BUDGET_MS)
        try:
            from PySide6.QtWidgets import QApplication

            from battletracker.ui.files import save_game
        except ImportError:
            return
        app = QApplication.instance() or QApplication([])
        report("save 500 units + 10,000 log entries (QSaveFile)", median_ms(lambda: save_game(game, path)), BUDGET_MS)
        del app


if __name__ == "__main__":
    main()
