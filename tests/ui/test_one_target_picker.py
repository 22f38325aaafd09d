"""Every feature dialog picks its target units with the shared TargetPicker, never with a copy of its own.

A copy would drift: one dialog's list would say why it is empty and another not, one would step aside
while the player clicks the map and another stay over it. The check reads the sources: no module under
ui/features asks the map for a unit itself, fills a list with unit ids, or keeps a combo box named for
a target.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import battletracker.ui.features as features

# The names a list of target units went by: `self.target`, `self.vehicle_box`, `self.opponent`, ...
TARGET_NAME = re.compile(r"(target|targets|vehicle|opponent|observer|enemy|also)(_box|_combo)?")


def own_target_pickers(source: str) -> list[str]:
    """Where `source` picks units without the TargetPicker, one line each."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            if isinstance(node, ast.Assign) and _makes_combo(node.value):
                found += [(node.lineno, f"{ast.unparse(t)} is a combo box of its own")
                          for t in node.targets if TARGET_NAME.fullmatch(ast.unparse(t).split(".")[-1])]
            continue
        if node.func.attr == "pick_unit":
            found.append((node.lineno, "asks the map for a unit itself"))
        elif node.func.attr in ("addItem", "insertItem") and any(_is_unit_id(arg) for arg in node.args[1:]):
            found.append((node.lineno, "fills a list with unit ids"))
    return [f"line {line}: {what}" for line, what in sorted(found)]


def _makes_combo(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] == "QComboBox"


def _is_unit_id(arg: ast.expr) -> bool:
    text = ast.unparse(arg)
    return text.endswith(".id") or text in ("unit_id", "uid") or text.endswith("_id")


def test_the_check_finds_a_dialog_with_its_own_target_list() -> None:
    source = (
        "class D:\n"
        "    def __init__(self, game, view):\n"
        "        self.target_box = QComboBox(self)\n"
        "        for unit in game.units.values():\n"
        "            self.target_box.addItem(unit.name, unit.id)\n"
        "        view.pick_unit(self.set_target, 'Click the target')\n"
        "        self.cover = QComboBox(self)\n"
        "        self.cover.addItem('Light', 'light')\n"
    )
    assert own_target_pickers(source) == ["line 3: self.target_box is a combo box of its own",
                                          "line 5: fills a list with unit ids",
                                          "line 6: asks the map for a unit itself"]


def test_no_feature_keeps_a_target_list_of_its_own() -> None:
    root = Path(features.__file__).parent
    found = {str(path.relative_to(root)): own
             for path in sorted(root.rglob("*.py")) if (own := own_target_pickers(path.read_text(encoding="utf-8")))}
    assert found == {}, "pick target units with procedure_parts.TargetPicker"
