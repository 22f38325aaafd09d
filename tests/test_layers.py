"""Imports only point down: core <- model <- rules <- ui, nothing below ui/ reaches Qt, no ruleset
imports another, no feature under ui/features imports another, the Effects do not depend on the save
file, and ui/ asks the rules rather than reading the table against rule numbers itself."""

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


# -- ui/: features apart, and no rules read in the window ---------------------------------------------------------

FEATURES = ("battletracker", "ui", "features")


def _feature(name: str) -> str | None:
    """The feature (package or module directly under ui/features/) that the module `name` belongs to."""
    parts = name.split(".")
    return parts[3] if len(parts) > 3 and tuple(parts[:3]) == FEATURES else None


def feature_offences(path: Path) -> list[str]:
    """Imports of another feature from the module at `path` (the features' list, ui/features/__init__, is none)."""
    own = _feature(_module_name(path))
    where = path.relative_to(ROOT).as_posix()
    return [f"{where}:{line} imports {name}: one feature may not import another (shared parts go in ui/)"
            for line, name in _imported_names(path)
            if own is not None and (other := _feature(name)) is not None and other != own]


def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, feature: str, source: str) -> Path:
    """`source` as a module of the feature `feature` in a tree at `tmp_path`, which the scans then take as the root."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    package = tmp_path / Path(*FEATURES) / feature
    package.mkdir(parents=True)
    sample = package / "sample.py"
    sample.write_text(source, encoding="utf-8")
    return sample


def test_the_feature_scan_catches_one_feature_importing_another(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sample = planted(tmp_path, monkeypatch, "necromunda",
                     "from battletracker.ui.features.support_fire.dialog import FireDialog\n"
                     "from ..bombardments import panel\n"
                     "from battletracker.ui.features.necromunda.overlays import shoot_items\n"
                     "from .fighter_card import FighterSection\n"
                     "from battletracker.ui.procedure_parts import FactsPanel\n")
    listing = tmp_path / Path(*FEATURES) / "__init__.py"
    listing.write_text("from battletracker.ui.features import necromunda, support_fire\n", encoding="utf-8")
    named = {o.split(" imports ")[1].split(":")[0] for o in feature_offences(sample)}
    assert named == {"battletracker.ui.features.support_fire.dialog",
                     "battletracker.ui.features.support_fire.dialog.FireDialog",
                     "battletracker.ui.features.bombardments", "battletracker.ui.features.bombardments.panel"}
    assert feature_offences(listing) == []


def test_no_feature_imports_another() -> None:
    files = sorted((ROOT / Path(*FEATURES)).rglob("*.py"))
    assert {"battletracker.ui.features.this_phase", "battletracker.ui.features.necromunda.shoot_dialog"} <= {
        _module_name(p) for p in files}
    offences = [o for path in files for o in feature_offences(path)]
    assert not offences, "\n".join(offences)


GEOMETRY = "battletracker.core.geometry"
RULES_GEOMETRY = frozenset({
    "in_arc", "aspect", "range_band", "in_radius", "within_burst", "corridor", "along_line", "step_parallel",
    "in_rectangle", "length_inside_polygon", "share_inside", "share_inside_sides", "edges_seen_from",
    "sides_seen_from", "segment_crosses_rectangle", "segment_crosses_frame", "segment_crosses_polyline",
    "segment_crosses_polygon"})
"""core.geometry's tests of arc, range band, burst, line of fire and sight: questions only the rules ask."""
MEASURES = frozenset({"distance", "bearing", "angle_between", "distance_to_segment", "distance_to_polyline"})
"""core.geometry's measures: the window may draw with them, but whether a measure is in reach is the rules' call."""
DISTANCES = MEASURES - {"bearing"}
"""The measures a feature takes from its plan (a range, an offset from an arc); a bearing it may draw with."""
TABLE_READINGS = frozenset({"sight", "cover_against"})
"""`TableIndex`'s readings of Line of Sight and cover: a feature shows what its plan read, the map draws them."""
COUNTING = (0, 1)
"""The numbers a rules value may be compared with in ui/: none, one (a count, not a rule's number)."""

DRAWING_MEASURES = {
    ("battletracker/ui/map/items.py", "set_wedge"): "how far the arc moved, to repaint only what it crossed",
    ("battletracker/ui/map/terrain_items.py", "label_point"): "the middle of a line, where its name goes",
    ("battletracker/ui/map/terrain_items.py", "piece_at"): "the terrain under the cursor, within a click's reach",
    ("battletracker/ui/features/table_display/shapes.py", "sight_segments"): "where the drawn ruler turns red",
    ("battletracker/ui/features/table_display/shapes.py", "near"): "a laptop overlay drawn at a secret unit, "
                                                                    "kept off the table display",
}
"""Functions in ui/ that compare a measure to draw or to pick, and why."""
KNOWN_FEATURE_MEASURES = {
    "battletracker/ui/features/backdrop.py": "which table corner a calibration click is nearest, a gesture",
    "battletracker/ui/features/table_display/shapes.py": "the ruler's length to split it where sight is blocked, "
                                                         "and overlays drawn at a secret unit, kept off the display",
}
"""Feature modules that measure the table to draw or for a gesture, not for a rule, and why."""


class _RulesInUi:
    """What one ui/ module does that belongs to the rules: see `rule_offences`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = path.relative_to(ROOT).as_posix()
        self.tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        self.geometry_names: dict[str, str] = {}
        self.geometry_modules: set[str] = set()
        self.rules_names: set[str] = set()
        self.offences: list[str] = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self._imported(node.module, alias.name, alias.asname or alias.name, node.lineno)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == GEOMETRY:
                        self.geometry_modules.add(alias.asname or alias.name)
                    elif alias.name.startswith("battletracker.rules") and alias.asname:
                        self.rules_names.add(alias.asname)

    def _imported(self, module: str, name: str, local: str, line: int) -> None:
        if module == GEOMETRY:
            self.geometry_names[local] = name
            if name in RULES_GEOMETRY:
                self._offence(line, f"imports {name} from core.geometry: ask the rules (rules/targets.py, a plan)")
        elif module == "battletracker.core" and name == "geometry":
            self.geometry_modules.add(local)
        elif module == "battletracker.rules" or module.startswith("battletracker.rules."):
            self.rules_names.add(local)

    def _offence(self, line: int, text: str) -> None:
        self.offences.append(f"{self.where}:{line} {text}")

    def _geometry_of(self, func: ast.expr) -> str | None:
        """The core.geometry function `func` names, if it names one."""
        if isinstance(func, ast.Name):
            return self.geometry_names.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in self.geometry_modules:
            return func.attr
        return None

    def _rooted_in_rules(self, func: ast.expr) -> bool:
        while isinstance(func, (ast.Attribute, ast.Subscript, ast.Call)):
            func = func.func if isinstance(func, ast.Call) else func.value
        return isinstance(func, ast.Name) and func.id in self.rules_names

    def scan(self) -> list[str]:
        in_feature = _feature(_module_name(self.path)) is not None
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in self.geometry_modules and node.attr in RULES_GEOMETRY:
                self._offence(node.lineno, f"uses geometry.{node.attr}: ask the rules (rules/targets.py, a plan)")
            elif in_feature and isinstance(node, ast.Call):
                if self._geometry_of(node.func) in DISTANCES and self.where not in KNOWN_FEATURE_MEASURES:
                    self._offence(node.lineno, f"measures the table ({ast.unparse(node)}): show the plan's measure")
                if isinstance(node.func, ast.Attribute) and node.func.attr in TABLE_READINGS:
                    self._offence(node.lineno, f"reads {node.func.attr} from the table: show the plan's reading")
        top = ast.Module(body=[s for s in self.tree.body if not isinstance(s, (ast.FunctionDef, ast.ClassDef))],
                         type_ignores=[])
        for scope in [top, *(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]:
            self._comparisons(scope)
        return self.offences

    def _comparisons(self, scope: ast.AST) -> None:
        """Measures compared with more than a tolerance, and rules values compared with a number, in `scope`."""
        measured: set[str] = set()
        ruled: set[str] = set()
        nodes = list(ast.walk(scope))

        def is_measured(e: ast.expr) -> bool:
            return any((isinstance(n, ast.Call) and self._geometry_of(n.func) in MEASURES)
                       or (isinstance(n, ast.Name) and n.id in measured) for n in ast.walk(e))

        def is_ruled(e: ast.expr) -> bool:
            return any((isinstance(n, ast.Call) and self._rooted_in_rules(n.func))
                       or (isinstance(n, ast.Name) and n.id in ruled) for n in ast.walk(e))

        for _ in range(2):  # a name bound from a name bound from a measure
            for n in nodes:
                if isinstance(n, ast.Assign | ast.AnnAssign | ast.NamedExpr) and n.value is not None:
                    names = {t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                             if isinstance(t, ast.Name)}
                    if is_measured(n.value):
                        measured |= names
                    if is_ruled(n.value):
                        ruled |= names
        name = getattr(scope, "name", "")
        for n in nodes:
            if not isinstance(n, ast.Compare):
                continue
            sides = [n.left, *n.comparators]
            for op, a, b in zip(n.ops, sides, sides[1:], strict=False):
                if not isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE):
                    continue
                for x, y in ((a, b), (b, a)):
                    if is_measured(x) and not _tolerance(y) and (self.where, name) not in DRAWING_MEASURES:
                        self._offence(n.lineno, f"compares a measure ({ast.unparse(n)}): whether it is in reach "
                                                "is the rules' answer")
                    if is_ruled(x) and (number := _number(y)) is not None and number not in COUNTING:
                        self._offence(n.lineno, f"compares a rules value with {number:g} ({ast.unparse(n)}): "
                                                "the number belongs in the rules")


def _tolerance(e: ast.expr) -> bool:
    """EPSILON or a number under a tenth of an inch: a test that two points are one, not a rule's distance."""
    number = _number(e)
    if number is not None:
        return abs(number) < 0.1
    return (isinstance(e, ast.Name) and e.id == "EPSILON") or (isinstance(e, ast.Attribute) and e.attr == "EPSILON")


def _number(e: ast.expr) -> float | None:
    negative = isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub)
    value = e.operand if isinstance(e, ast.UnaryOp) and negative else e
    if isinstance(value, ast.Constant) and isinstance(value.value, int | float) and not isinstance(value.value, bool):
        return -value.value if negative else value.value
    return None


def rule_offences(path: Path) -> list[str]:
    """What the ui/ module at `path` decides that the rules should: an arc, band or line-of-fire test from
    core.geometry, a measure compared with more than a tolerance, a rules value compared with a number other
    than none or one, and (in a feature) a distance measured or sight and cover read from the table."""
    return _RulesInUi(path).scan()


def test_the_rules_scan_catches_table_reading_in_the_window(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sample = planted(
        tmp_path, monkeypatch, "armour_battles",
        "from battletracker.core.geometry import EPSILON, distance, in_arc, offset\n"
        "from battletracker.core import geometry as g\n"
        "from battletracker.rules.armour_battles.actions import suppression_level\n"
        "from battletracker.rules.terrain import TableIndex\n"
        "\n"
        "def targets(game, unit, reach):\n"
        "    found = set()\n"
        "    for other in game.units.values():\n"
        "        if distance((unit.x, unit.y), (other.x, other.y)) <= reach + EPSILON:\n"
        "            found.add(other.id)\n"
        "    return found\n"
        "\n"
        "def refresh(self, unit, target):\n"
        "    level = suppression_level(unit)\n"
        "    self.plus.setEnabled(level < 2)\n"
        "    self.minus.setEnabled(level > 0)\n"
        "    self.range.setValue(round(g.distance((unit.x, unit.y), (target.x, target.y)), 1))\n"
        "    self.cover = TableIndex(self.game).cover_against(unit, target).level\n"
        "    far = g.distance((unit.x, unit.y), (target.x, target.y))\n"
        "    if far > 12:\n"
        "        self.note.setText('long')\n"
        "    if far < 1e-9:\n"
        "        return offset((unit.x, unit.y), 0.0, 1.0)\n"
        "    return g.range_band(far, (6.0, 12.0))\n")
    found = [o.split(":", 1)[1] for o in rule_offences(sample)]
    lines = sorted(int(o.split(" ", 1)[0]) for o in found)
    assert lines == [1, 9, 9, 15, 17, 18, 19, 20, 24], "\n".join(found)
    assert any("imports in_arc" in o for o in found) and any("geometry.range_band" in o for o in found)
    assert any("compares a rules value with 2 (level < 2)" in o for o in found)
    assert not any("level > 0" in o or "far < 1e-09" in o for o in found)
    drawn = tmp_path / "battletracker" / "ui" / "map" / "drawn.py"
    drawn.parent.mkdir(parents=True)
    drawn.write_text("from battletracker.core.geometry import bearing, distance\n"
                     "def arrow(a, b):\n"
                     "    if distance(a, b) < 1e-9:\n"
                     "        return None\n"
                     "    return bearing(b, a), distance(a, b)\n", encoding="utf-8")
    assert rule_offences(drawn) == []


def test_no_rules_are_read_in_the_window() -> None:
    files = sorted((ROOT / "battletracker" / "ui").rglob("*.py"))
    offences = [o for path in files for o in rule_offences(path)]
    assert not offences, "\n".join(offences)
