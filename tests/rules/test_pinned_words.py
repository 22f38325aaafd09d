"""The Pinned condition is written "Pinned", as the seeds name it, wherever a player reads it: log lines, refusals,
cards, dialogs and the guide. Only keys and identifiers say "pinned"."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from battletracker.model import savefile
from battletracker.rules.actions import perform
from battletracker.rules.log_lines import reads_as
from battletracker.rules.replay import check
from battletracker.rules.tables import resources_dir
from battletracker.rules.words import condition_words

PACKAGE = Path(__file__).parents[2] / "battletracker"
LOWER = re.compile(r"\b(un)?pinned\b")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module: read by developers, not shown to players."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def said_in_lower_case(source: str) -> list[tuple[int, str]]:
    """The texts of a module's code that say "pinned" in lower case, with their lines.

    Texts are the string constants (the parts of f-strings too), but for
    docstrings and keys (a text that is one identifier, "pinned").
    """
    tree = ast.parse(source)
    skip = docstrings(tree)
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                  and not node.value.isidentifier() and LOWER.search(node.value))


def test_no_text_a_player_reads_says_pinned_in_lower_case() -> None:
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}" for path in sorted(PACKAGE.rglob("*.py"))
             for line, text in said_in_lower_case(path.read_text(encoding="utf-8"))]
    guide = resources_dir() / "help" / "guide.md"
    found.extend(f"help/guide.md:{i}: {line}" for i, line in
                 enumerate(guide.read_text(encoding="utf-8").splitlines(), 1) if LOWER.search(line))
    assert found == []


def test_the_scan_finds_sentences_and_leaves_keys_and_docstrings() -> None:
    source = '''"""A unit pinned by a bombardment."""
PINNED = "pinned"
line = f"{name} is now pinned"
refusal = "Say which condition (pinned, broken, ...)."
'''
    assert said_in_lower_case(source) == [(3, " is now pinned"), (4, "Say which condition (pinned, broken, ...).")]


def test_putting_the_condition_on_and_off_logs_it_as_pinned() -> None:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    name = game.unit("u7").name
    for present, line in ((True, f"{name} is now Pinned"), (False, f"{name} is no longer Pinned")):
        result = perform(game, "unit.condition", {"unit": "u7", "condition": "pinned", "present": present})
        game.apply_all(result.effects)
        assert game.log[-1].text == line
    assert condition_words("pinned") == "Pinned" and condition_words("out_of_ammo") == "out of ammo"


def test_a_game_saved_when_the_log_said_pinned_in_lower_case_reopens_to_its_saved_state() -> None:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    for present in (True, False):
        game.apply_all(perform(game, "unit.condition", {"unit": "u7", "condition": "pinned",
                                                        "present": present}).effects)
    saved = replace(game)
    saved.log = [*game.log[:-2], replace(game.log[-2], text="1st Squad is now pinned"),
                 replace(game.log[-1], text="1st Squad is no longer pinned")]
    report = check(savefile.loads(savefile.dumps(saved)))
    assert report.ok, report.message
    assert reads_as("1st Squad is now pinned", "1st Squad is now Pinned")
    assert not reads_as("1st Squad is now pinned", "2nd Squad is now Pinned")


@pytest.mark.parametrize(("key", "said"), [("suppressed", "Suppressed"), ("engaged", "Engaged"),
                                           ("seriously_injured", "Seriously Injured")])
def test_necromundas_conditions_are_said_as_the_documents_name_them(key: str, said: str) -> None:
    """Necromunda's documents write Suppressed, Engaged and Seriously Injured with capitals, as Pinned."""
    game = savefile.load(resources_dir() / "demo" / "necromunda.json")
    unit = next(iter(game.units.values()))
    game.apply_all(perform(game, "unit.condition", {"unit": unit.id, "condition": key, "present": True}).effects)
    assert game.log[-1].text == f"{unit.name} is now {said}"
    assert condition_words(key) == said
    assert reads_as(f"{unit.name} is now {said.lower()}", game.log[-1].text)
