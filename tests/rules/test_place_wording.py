"""The battle log writes a place as a player measures it ('(22", 38")'); games saved with the older
"(22.0, 38.0)" still reopen to their saved state, keeping their lines."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from battletracker.core.dice import RandomDice
from battletracker.model import savefile
from battletracker.model.backdrop import picture_text
from battletracker.model.fields import state_dict
from battletracker.model.game import Game
from battletracker.rules import actions as actions_module
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.base import inches
from battletracker.rules.base import table_point
from battletracker.rules.log_lines import reads_as
from battletracker.rules.replay import check
from battletracker.rules.replay import replay_steps
from battletracker.rules.replay import start_of
from battletracker.rules.table_actions import unit_choice
from battletracker.rules.tables import resources_dir
from tests.model.pictures import png_bytes
from tests.model.sample import sample_game

FIXTURES = Path(__file__).parents[1] / "fixtures"
OLD_SAVES = ("place_wording_coc_v1.battle", "place_wording_ab_v1.battle", "place_wording_table_v1.battle",
             "fighter_names_v1.battle", "area_edit_v1.battle", "vehicle_he_v1.battle")
"""Written by the version before the change: places as "(22.0, 38.0)" or '(22.3457", 30.04")', fighters by
their unit ids, a bombardment's area edits by field ("shape circle, radius 5.0, firepower_dice 4"), a tank's H.E.
fired by the guns' rule."""
B = {"bombardment": "b1"}

COC_STEPS: list[tuple[str, Choices, list[int] | None]] = [
    ("unit.move", {"unit": "u1", "x": 20.0, "y": 15.0}, None),
    ("unit.move", {"unit": "u2", "x": 36.37, "y": 12.26}, None),
    ("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 24.25, "y": 38.0,
                             "observer_x": 30.0, "observer_y": 12.0}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.ranging_shot", B, [1, 2]),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.ranging_shot", {**B, "bearing": 90.0}, [3, 2, 2, 2, 2]),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.re_aim", {**B, "x": 26.0, "y": 36.5}, None),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.ranging_shot", {**B, "bearing": 45.0}, [3, 3, 2, 1, 1]),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.fire_for_effect", B, None),
    ("coc.hidden_die", {**B, "face": 4, "direction": "right"}, None),
    ("coc.bombardment_phase", {**B, "activation": "begun"}, None),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.bombardment_phase", {**B, "activation": "coc_point"}, None),
    ("coc.new_sos", {"side": 1, "x": 22.0, "y": 38.0}, None),
    ("coc.reverse", {"target_x": 50.0, "target_y": 36.0, "firer_x": 54.0, "firer_y": 8.0,
                     "target_facing": 345.0, "target_id": "u11"}, [4]),
]


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions_module, "now_stamp", lambda: "2026-12-01T02:30:00")


def played(demo: str, steps: list[tuple[str, Choices, list[int] | None]]) -> Game:
    game = savefile.load(resources_dir() / "demo" / f"{demo}.json")
    rng = RandomDice(7)
    for name, choices, dice in steps:
        game.apply_all(perform(game, name, choices, dice, rng=rng).effects)
    return game


def test_moves_bombardments_sos_fire_and_a_reverse_say_places_in_words_or_inches() -> None:
    log = [e.text for e in played("chain_of_command", COC_STEPS).log]
    for line in ('1. Gruppe moved 5" to 8.1" west of Panzerschreck',
                 '2. Gruppe moved 4" to 8.5" east of Panzerschreck',
                 "Germany's mortars, first barrage: Forward Observer placed with 3 Phases of fire; aiming point "
                 '2.2" east of 1st Squad',
                 'Deviates 6" east of the aiming point (a bearing of 90 degrees)',
                 "Germany's mortars, first barrage: Re-aimed " '4.3" east of 1st Squad: ranging begins again',
                 'Deviates 4" north-east of the aiming point (a bearing of 45 degrees)',
                 "Germany's mortars, first barrage: Fire for effect on the landing point, "
                 '8.1" north-east of 1st Squad: the bombardment begins',
                 'Rolling: moves 6" right',
                 "United States' SOS Fire: SOS Fire centred at 1st Squad, " '6" radius',
                 'From where it stands to 4" south of it, bearing 188 degrees; steer round obstacles and move '
                 'intervening infantry 4".'):
        assert line in log
    assert not any(".0)" in line or ".0," in line for line in log)


def test_an_impact_marker_is_placed_from_the_aiming_point() -> None:
    game = played("armour_battles", [("ab.indirect_mission", {"firer": "stuh", "x": 36.0, "y": 18.0, "los": True},
                                      None)])
    assert 'Impact Marker on the aiming point with a 2" burst radius.' in [e.text for e in game.log]


def test_a_unit_added_or_moved_by_an_edit_is_placed_in_words_and_a_table_picture_in_inches() -> None:
    game = sample_game()
    new = copy.deepcopy(game.units["u3"])
    new.id, new.name, new.x, new.y = "u9", "2 Flamethrower", 22.345678, 30.04
    moved = copy.deepcopy(new)
    moved.x, moved.y = 23.25, 31.0
    for name, choices in [
        ("unit.add", {"unit": unit_choice(new), "what": "Flamethrower team"}),
        ("unit.edit", {"unit": unit_choice(moved)}),
        ("backdrop.set", {"image": picture_text(png_bytes(150, 100)), "name": "table.png"}),
        ("backdrop.place", {"px1": 0.0, "py1": 0.0, "px2": 150.0, "py2": 100.0, "x1": 71.98765, "y1": 48.0,
                            "x2": 0.0, "y2": 0.25}),
        ("backdrop.measure", {"px1": 30.0, "py1": 20.0, "px2": 130.0, "py2": 20.0, "inches": 24.0,
                              "x1": 6.123456, "y1": 10.0}),
    ]:
        game.apply_all(perform(game, name, choices).effects)
    assert [e.text.partition(";")[0] for e in game.log[-5:]] == [
        'Added 2 Flamethrower (Flamethrower team) for British 2.3" east of Flamethrower facing 45\u00b0',
        'Edited 2 Flamethrower: position 2.3" east of Flamethrower -> 3.4" east of Flamethrower',
        "Table picture loaded: table.png (150 x 100 pixels), fitted to the table",
        'Table picture placed by two points: (72", 48") and (0", 0.2")',
        'Table picture placed by two points 24" apart, the first at (6.1", 10")',
    ]


def test_an_old_place_reads_as_the_new_one_and_nothing_else() -> None:
    assert reads_as('SOS Fire on (22.0, 38.0), 6" radius', 'SOS Fire on (22", 38"), 6" radius')
    assert reads_as('1. Gruppe moved 12.0" to (14.0, 20.5)', '1. Gruppe moved 12" to (14", 20.5")')
    assert reads_as("From (50, 36.25) to (49.4, 40.0), bearing 188 degrees",
                    'From (50", 36.2") to (49.4", 40"), bearing 188 degrees')
    assert reads_as('Edited X: position (22.3457", 30.04") -> (23.25", 31")',
                    'Edited X: position (22.3", 30") -> (23.2", 31")')
    assert not reads_as('SOS Fire on (22.0, 38.0), 6" radius', 'SOS Fire on (22", 38.1"), 6" radius')
    assert not reads_as('1. Gruppe moved 12.0" to (14.0, 20.5)', '1. Gruppe moved 12.1" to (14", 20.5")')


def test_every_place_the_old_code_wrote_reads_as_the_place_written_now() -> None:
    """The old lines rounded to one decimal as `table_point` does, ties and negatives alike."""
    pick = random.Random(3)
    points = [(pick.uniform(-5, 80), pick.uniform(-5, 80)) for _ in range(5000)]
    points += [(a / 20, b / 20) for a in range(-20, 200, 7) for b in (-1, 0, 1, 5, 15, 25, 35, 45)]
    for x, y in points:
        old = f'Impact Marker at ({x:.1f}, {y:.1f}) moved {abs(x):.1f}" to ({y:.1f}, {x:.1f})'
        new = f'Impact Marker at {table_point(x, y)} moved {inches(abs(x))}" to {table_point(y, x)}'
        assert reads_as(old, new), (x, y)


@pytest.mark.parametrize("name", OLD_SAVES)
def test_a_game_saved_in_the_old_words_reopens_with_its_undo_history(name: str) -> None:
    saved = savefile.load(FIXTURES / name)
    assert check(saved).ok
    replayed, steps = replay_steps(saved)
    assert replayed == saved and len(steps) == len(saved.actions)
    for step in reversed(steps):  # undo every step
        replayed.apply_all(step.inverses[::-1])
    assert state_dict(replayed) == state_dict(start_of(saved))
    for step in steps:  # and redo them: the saved lines come back as they were saved
        replayed.apply_all(step.effects)
    assert replayed == saved


def test_an_area_edit_is_logged_in_words_and_recorded_as_before() -> None:
    game = played("chain_of_command", [
        ("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 30.0, "y": 20.0,
                                 "observer_x": 10.0, "observer_y": 10.0}, None),
        ("coc.edit_area", {**B, "shape": "rectangle", "width": 13.5, "depth": 7.25, "facing": 30.0, "to_hit": 5,
                           "firepower_dice": 1}, None)])
    assert game.log[-1].text == ("Germany's mortars, first barrage: Area edited: " 'width 13.5", depth 7.2", '
                                 "facing 30°, 1 Firepower Die, hitting on 5+")
    assert game.bombardments["b1"].history[-1].text == ("Area edited: width 13.5, depth 7.25, "
                                                        "facing 30.0, firepower_dice 1, to_hit 5")
    assert reads_as("Germany bombardment b1: Area edited: width 13.5, depth 7.25, facing 30.0, "
                    "firepower_dice 1, to_hit 5", game.log[-1].text)


def test_a_force_morale_test_saved_with_s_after_any_side_reads_as_the_possessive_now_written() -> None:
    assert reads_as("United States's Force Morale Test for a Team wiped out: 4, no change",
                    "United States' Force Morale Test for a Team wiped out: 4, no change")
    assert reads_as("British's Force Morale Test for a Team wiped out: 4", "British Force Morale Test for a Team "
                    "wiped out: 4")
    assert not reads_as("Germany's Force Morale Test: 4", "Germany' Force Morale Test: 4")
