"""Imports only point down: core <- model <- rules <- ui, nothing below ui/ reaches Qt, no ruleset
imports another, and the Effects do not depend on the save file."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOWER_PACKAGES = ("battletracker.core", "battletracker.model", "battletracker.rules")
FORBIDDEN = ("PySide6", "pyqtgraph", "shiboken6", "battletracker.ui")
LAYERS = ("core", "model", "rules", "ui")
RULESETS = ("chain_of_command", "armour_battles", "necromunda")
EFFECT_MODULES = ("battletracker.model.effects", "battletracker.model.bombardment_effects",
                  "battletracker.model.sequence_effects", "battletracker.model.history")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _lower_modules() -> list[Path]:
    files: list[Path] = []
    for package in LOWER_PACKAGES:
        files.extend(sorted((ROOT / Path(*package.split("."))).rglob("*.py")))
    return files


def _forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


def _imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module name the file imports, relative imports resolved, dynamic imports of literals included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.append((node.lineno, stem))
            found.extend((node.lineno, f"{stem}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.append((node.lineno, first.value))
    return found


def test_the_scan_sees_every_lower_module() -> None:
    files = _lower_modules()
    names = {_module_name(p) for p in files}
    assert {"battletracker.core.dice", "battletracker.model.savefile", "battletracker.rules.generic"} <= names
    assert all(not n.startswith("battletracker.ui") for n in names)


def test_the_scan_catches_every_way_of_importing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_root = tmp_path
    package = fake_root / "battletracker" / "rules"
    package.mkdir(parents=True)
    sample = package / "sample.py"
    sample.write_text(
        "import PySide6.QtCore\n"
        "from pyqtgraph import PlotWidget\n"
        "from ..ui import session\n"
        "from .. import ui\n"
        "import importlib\n"
        "importlib.import_module('shiboken6')\n"
        "__import__('battletracker.ui.map')\n"
        "import json\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake_root)
    bad = [name for _, name in _imported_names(sample) if _forbidden(name)]
    assert "PySide6.QtCore" in bad
    assert "pyqtgraph" in bad
    assert "battletracker.ui" in bad
    assert "battletracker.ui.session" in bad
    assert "shiboken6" in bad
    assert "battletracker.ui.map" in bad
    assert "json" not in bad


def test_no_lower_module_imports_qt_or_the_ui() -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in _lower_modules()
        for line, name in _imported_names(path)
        if _forbidden(name)
    ]
    assert not offences, "\n".join(offences)


_PROBE = """
import importlib, json, pkgutil, sys
names = []
for package in {packages!r}:
    module = importlib.import_module(package)
    names.append(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        importlib.import_module(info.name)
        names.append(info.name)
from battletracker.rules import procedures
procedures()
loaded = sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in {forbidden!r}))
print(json.dumps({{"imported": names, "forbidden": loaded}}))
"""


def test_importing_every_lower_module_loads_no_qt() -> None:
    probe = _PROBE.format(packages=LOWER_PACKAGES, forbidden=FORBIDDEN)
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(result["imported"]) == {_module_name(p) for p in _lower_modules()}
    assert result["forbidden"] == [], f"importing the non-UI packages loaded {result['forbidden']}"


def _package_modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / "battletracker" / layer).rglob("*.py"))


def _layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "battletracker" and parts[1] in LAYERS else None


def _ruleset(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["battletracker", "rules"] and parts[2] in RULESETS else None


def layer_offences(path: Path) -> list[str]:
    """Imports of a higher layer, or of another ruleset's package, from the module at `path`."""
    module = _module_name(path)
    own_layer, own_ruleset = _layer(module), _ruleset(module)
    offences = []
    for line, name in _imported_names(path):
        layer = _layer(name)
        if own_layer is None or layer is None:
            continue
        where = f"{path.relative_to(ROOT)}:{line} imports {name}"
        if LAYERS.index(layer) > LAYERS.index(own_layer):
            offences.append(f"{where}: {own_layer}/ may not import from {layer}/")
        ruleset = _ruleset(name)
        if own_ruleset is not None and ruleset is not None and ruleset != own_ruleset:
            offences.append(f"{where}: one ruleset may not import another (shared code goes in rules/)")
    return offences


def test_the_layer_scan_catches_upward_and_cross_ruleset_imports(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    package = tmp_path / "battletracker" / "rules" / "necromunda"
    package.mkdir(parents=True)
    sample = package / "sample.py"
    sample.write_text(
        "from battletracker.rules.chain_of_command import fire\n"
        "from ..armour_battles.plans import profile_of\n"
        "from battletracker.rules.generic import anything\n"
        "from battletracker.rules import tables\n"
        "from ..base import Procedure\n"
        "from .table import RULESET\n"
        "from battletracker.model.game import Game\n",
        encoding="utf-8",
    )
    model = tmp_path / "battletracker" / "model"
    model.mkdir(parents=True)
    low = model / "low.py"
    low.write_text("from battletracker.rules.base import Procedure\nfrom ..core import dice\n", encoding="utf-8")
    named = {o.split(" imports ")[1].split(":")[0] for o in layer_offences(sample)}
    assert named == {"battletracker.rules.chain_of_command", "battletracker.rules.chain_of_command.fire",
                     "battletracker.rules.armour_battles.plans", "battletracker.rules.armour_battles.plans.profile_of"}
    assert {o.split(": ", 1)[1] for o in layer_offences(low)} == {"model/ may not import from rules/"}


def test_imports_point_down_and_no_ruleset_imports_another() -> None:
    files = _package_modules()
    assert {"battletracker.ui.main_window", "battletracker.rules.necromunda.table"} <= {_module_name(p) for p in files}
    offences = [o for path in files for o in layer_offences(path)]
    assert not offences, "\n".join(offences)


def test_the_effects_do_not_import_the_save_file() -> None:
    """The validators the Effects store parts of a game with live in model/fields.py, beside the save file."""
    offences = [
        f"{module}:{line} imports {name}"
        for module in EFFECT_MODULES
        for line, name in _imported_names((ROOT / Path(*module.split("."))).with_suffix(".py"))
        if name == "battletracker.model.savefile" or name.startswith("battletracker.model.savefile.")
    ]
    assert not offences, "\n".join(offences)
