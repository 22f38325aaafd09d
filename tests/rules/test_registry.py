"""The rules API: the registry, typed inputs whose errors name the field, the roll record."""

from __future__ import annotations

import importlib
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker import rules
from battletracker.core.dice import D3
from battletracker.core.dice import D6
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.rules import InputReader
from battletracker.rules import Procedure
from battletracker.rules import Resolution
from battletracker.rules import Roller
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import procedures
from battletracker.rules import register
from battletracker.rules import resolve


def test_procedures_lists_dice_pool_sorted() -> None:
    names = procedures()
    assert "dice.pool" in names
    assert names == sorted(names)
    assert len(names) == len(set(names))
    assert "dice.pool" in procedures("generic")
    assert "dice.pool" not in procedures("necromunda")


def test_every_registered_procedure_is_named_for_its_ruleset() -> None:
    prefixes = {"generic": "dice.", "chain_of_command": "coc.", "armour_battles": "ab.", "necromunda": "necro."}
    for name in procedures():
        procedure = get(name)
        assert procedure.name == name
        assert procedure.title
        assert name.startswith(prefixes.get(procedure.ruleset, "")), name


@pytest.mark.parametrize("call", [lambda: resolve("dice.poool", {}, ScriptedDice([])),
                                  lambda: odds("dice.poool", {}), lambda: get("dice.poool")])
def test_an_unknown_procedure_is_refused_naming_it(call: Any) -> None:
    with pytest.raises(RulesInputError) as caught:
        call()
    assert caught.value.field == "procedure"
    assert "no procedure called 'dice.poool'" in str(caught.value)


def test_registering_a_second_procedure_under_a_taken_name_is_refused() -> None:
    existing = get("dice.pool")
    assert register(existing) is existing
    impostor = Procedure("dice.pool", "Impostor", existing.resolve, existing.odds)
    with pytest.raises(ValueError, match="'dice.pool' is registered twice"):
        register(impostor)
    assert get("dice.pool") is existing


def test_a_procedure_registered_later_is_listed_and_resolved(monkeypatch: pytest.MonkeyPatch) -> None:
    procedures()
    monkeypatch.setattr(rules, "_registry", dict(rules._registry))

    def flip_resolve(inputs: Any, dice: Any) -> Resolution:
        r = InputReader(inputs)
        r.finish()
        roller = Roller(dice)
        (value,) = roller.roll_ints("flip", D3)
        return Resolution("test.flip", str(value), {"value": value}, roller.rolls)

    procedure = register(Procedure("test.flip", "Flip", flip_resolve,
                                   lambda i: Distribution.die(3).map(str), ruleset="test"))
    assert procedures("test") == ["test.flip"]
    res = resolve("test.flip", {}, ScriptedDice([2]))
    assert (res.procedure, res.outcome, res.rolls) == ("test.flip", "2", (("flip", (2,)),))
    assert odds("test.flip", {}).p("2") == Distribution.die(3).p(2)
    assert get("test.flip") is procedure


# -- InputReader ------------------------------------------------------------------------------


def read(inputs: dict[str, Any], getter: str, key: str = "x", *args: Any, **kwargs: Any) -> Any:
    r = InputReader(inputs)
    return getattr(r, getter)(key, *args, **kwargs)


def refusal(inputs: dict[str, Any], getter: str, key: str = "x", *args: Any, **kwargs: Any) -> RulesInputError:
    with pytest.raises(RulesInputError) as caught:
        read(inputs, getter, key, *args, **kwargs)
    assert caught.value.field == key
    assert str(caught.value).startswith(f"{key}: ")
    return caught.value


@pytest.mark.parametrize(("raw", "value"), [(3, 3), ("3", 3), (" 12 ", 12), (4.0, 4), ("-2", -2)])
def test_int_reads_whole_numbers_from_numbers_and_text(raw: Any, value: int) -> None:
    assert read({"x": raw}, "int") == value


@pytest.mark.parametrize("raw", [2.5, "2.5", "two", True, "--5", "²", "1_0", "", None])
def test_int_refuses_anything_else_naming_the_field(raw: Any) -> None:
    if raw in ("", None):
        assert "is required" in str(refusal({"x": raw}, "int"))
    else:
        assert "must be a whole number" in str(refusal({"x": raw}, "int"))


def test_int_bounds_and_defaults() -> None:
    assert read({}, "int", "x", 4) == 4
    assert read({"x": ""}, "int", "x", 0) == 0
    assert "is required" in str(refusal({}, "int"))
    assert "must be at least 1, not 0" in str(refusal({"x": 0}, "int", "x", minimum=1))
    assert "must be at most 6, not 7" in str(refusal({"x": "7"}, "int", "x", maximum=6))


def test_float_reads_numbers_and_refuses_non_finite() -> None:
    assert read({"x": "2.5"}, "float") == 2.5
    assert read({"x": 3}, "float") == 3.0
    assert read({}, "float", "x", 1.5) == 1.5
    for bad in ("nan", "inf", float("nan"), float("-inf")):
        assert "must be a finite number" in str(refusal({"x": bad}, "float"))
    assert "must be a number, not 'far'" in str(refusal({"x": "far"}, "float"))
    assert "must be a number" in str(refusal({"x": False}, "float"))
    assert "must be at least 0, not -1" in str(refusal({"x": -1}, "float", "x", minimum=0))
    assert "must be at most 48, not 48.5" in str(refusal({"x": 48.5}, "float", "x", maximum=48))


def test_optional_getters_give_none_when_absent() -> None:
    r = InputReader({"a": "", "b": 3, "c": "u1"})
    assert r.optional_float("z") is None
    assert r.optional_int("a") is None
    assert r.optional_int("b", minimum=1) == 3
    assert r.optional_str("c") == "u1"
    assert r.optional_str("y") is None
    r.finish()


@pytest.mark.parametrize(("raw", "value"), [(True, True), ("yes", True), ("On", True), (1, True), ("0", False),
                                            ("false", False), (0, False), ("", False), (None, False)])
def test_bool(raw: Any, value: bool) -> None:
    assert read({"x": raw}, "bool") is value


def test_bool_refuses_other_values() -> None:
    assert "must be true or false, not 'maybe'" in str(refusal({"x": "maybe"}, "bool"))
    assert "must be true or false, not 2" in str(refusal({"x": 2}, "bool"))


def test_choice_and_str() -> None:
    options = ("front", "side", "rear")
    assert read({"x": " side "}, "choice", "x", options) == "side"
    assert read({}, "choice", "x", options, "front") == "front"
    assert "must be one of front, side, rear, not 'top'" in str(refusal({"x": "top"}, "choice", "x", options))
    assert "is required (one of front, side, rear)" in str(refusal({}, "choice", "x", options))
    assert read({"x": "u5"}, "str") == "u5"
    assert read({}, "str", "x", "none") == "none"
    assert "is required" in str(refusal({}, "str"))


def test_finish_refuses_inputs_nobody_read() -> None:
    r = InputReader({"dice": 3, "targte": 4})
    r.int("dice")
    r.int("target", 4)
    with pytest.raises(RulesInputError) as caught:
        r.finish()
    assert caught.value.field == "targte"
    assert str(caught.value) == "targte: is not an input of this procedure"


def test_inputs_must_be_a_mapping() -> None:
    with pytest.raises(RulesInputError, match="inputs: must be a mapping"):
        InputReader([("dice", 3)])  # type: ignore[arg-type]


# -- Roller --------------------------------------------------------------------------------


def test_roller_records_every_labelled_roll_in_order() -> None:
    roller = Roller(ScriptedDice([6, 2, 3, 1]))
    assert roller.roll("Firepower", D6, 2) == (6, 2)
    assert roller.roll("nothing", D6, 0) == ()
    assert roller.one("Shock", D3) == 3
    assert roller.roll_ints("Morale", D6) == (1,)
    assert roller.rolls == [("Firepower", (6, 2)), ("Shock", (3,)), ("Morale", (1,))]


def test_roller_passes_the_label_to_scripted_dice_that_run_out() -> None:
    roller = Roller(ScriptedDice([6]))
    roller.one("To hit", D6)
    with pytest.raises(DiceExhausted) as caught:
        roller.roll("Penetration", D6, 2)
    assert caught.value.label == "Penetration"
    assert roller.rolls == [("To hit", (6,))]


LONG_NUMBER = "9" * 5000  # past the 4,300 digits Python's int() reads from text
HUGE = pytest.param(10**5000, id="10**5000")


@pytest.mark.parametrize("raw", [5, 2.5, True, ["u", 1], {"u": 1}, ("u",)])
def test_str_takes_only_text(raw: Any) -> None:
    message = str(refusal({"x": raw}, "str"))
    assert "must be text" in message


@pytest.mark.parametrize("raw", [["front"], 1, True])
def test_choice_takes_only_text(raw: Any) -> None:
    assert "must be one of front, side" in str(refusal({"x": raw}, "choice", "x", ("front", "side")))


@pytest.mark.parametrize("raw", [LONG_NUMBER, "-" + LONG_NUMBER, HUGE, 10**7, "10000001", 1e300, -1e300])
def test_int_refuses_numbers_past_its_sane_bound_in_a_short_message(raw: Any) -> None:
    message = str(refusal({"x": raw}, "int"))
    assert "whole number from -1,000,000 to 1,000,000" in message
    assert len(message) < 120


@pytest.mark.parametrize("raw", [LONG_NUMBER, HUGE, 1e300, "1e300", "1" + "0" * 400, [1.0]])
def test_float_refuses_numbers_past_its_sane_bound_in_a_short_message(raw: Any) -> None:
    message = str(refusal({"x": raw}, "float"))
    assert len(message) < 120
    assert "must be a" in message


def test_the_bounds_are_inclusive() -> None:
    assert read({"x": "1000000"}, "int") == 1_000_000
    assert read({"x": -1_000_000}, "int") == -1_000_000
    assert read({"x": "1e6"}, "float") == 1e6


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.text(alphabet="0123456789-", min_size=1, max_size=6000), st.integers(),
                 st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
                 st.lists(st.one_of(st.integers(), st.text(max_size=3)), max_size=3), st.none()))
def test_every_getter_reads_or_refuses_naming_the_field(raw: Any) -> None:
    """Whatever arrives, a getter returns its type within bounds or raises RulesInputError; nothing else escapes."""
    for getter in ("int", "float", "bool", "str", "optional_int", "optional_float", "optional_str"):
        try:
            value = read({"x": raw}, getter)
        except RulesInputError as exc:
            assert exc.field == "x" and len(str(exc)) < 160
            continue
        if getter.endswith("int") and value is not None:
            assert type(value) is int and abs(value) <= 1_000_000
        if getter.endswith("float") and value is not None:
            assert isinstance(value, float) and abs(value) <= 1e6
        if getter.endswith("str") and value is not None:
            assert isinstance(value, str)


_PACKAGE_INIT = "from battletracker.rules import import_modules\nimported = []\nimport_modules(__name__, __path__)\n"


def _write_package(root: Path, name: str) -> None:
    """A package that walks itself as a ruleset package does, and two modules that note their import."""
    (root / name).mkdir()
    (root / name / "__init__.py").write_text(_PACKAGE_INIT, encoding="utf-8")
    for module in ("zulu", "alpha"):
        (root / name / f"{module}.py").write_text(f"from {name} import imported\nimported.append({module!r})\n",
                                                   encoding="utf-8")


@pytest.mark.parametrize("zipped", [False, True], ids=["folder", "zip"])
def test_a_module_added_to_a_ruleset_package_is_imported_by_existing(tmp_path: Path, zipped: bool,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """No list names the modules: the package's walk finds them, in name order, from a folder and from a zip
    (a zipped wheel or the bundle's archive)."""
    name = f"walked_{'zip' if zipped else 'folder'}"
    _write_package(tmp_path, name)
    where = tmp_path
    if zipped:
        where = tmp_path / "walked.zip"
        with zipfile.ZipFile(where, "w") as archive:
            for path in sorted((tmp_path / name).rglob("*.py")):
                archive.write(path, path.relative_to(tmp_path).as_posix())
        shutil.rmtree(tmp_path / name)
    monkeypatch.syspath_prepend(str(where))
    package = importlib.import_module(name)
    assert package.imported == ["alpha", "zulu"]

