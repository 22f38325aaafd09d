"""Imports only point down: nothing in core/, model/ or rules/ reaches Qt or the UI."""

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
