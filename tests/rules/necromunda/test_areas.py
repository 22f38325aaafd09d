"""Blast markers and the Template: who is under them, levels, and combats."""

from __future__ import annotations

import pytest

from battletracker.rules.necromunda.areas import TemplateShape
from battletracker.rules.necromunda.areas import blast_hits
from battletracker.rules.necromunda.areas import blast_radius
from battletracker.rules.necromunda.areas import in_template
from battletracker.rules.necromunda.areas import marker_sizes
from battletracker.rules.necromunda.areas import models_hit
from battletracker.rules.necromunda.areas import template_end
from battletracker.rules.necromunda.areas import template_hits
from battletracker.rules.necromunda.areas import under_blast
from battletracker.rules.necromunda.targeting import FighterOnTable

SHAPE = TemplateShape(length=8.0, narrow_width=0.5, wide_width=2.0)


def fighter(key: str, x: float, y: float, level: int = 0, engaged_with: tuple[str, ...] = ()) -> FighterOnTable:
    return FighterOnTable(key, (x, y), 1, level=level, engaged_with=frozenset(engaged_with))


def test_marker_sizes_come_from_the_data_file() -> None:
    sizes = marker_sizes()
    assert (sizes.blast_small, sizes.blast_large) == (3.0, 5.0)
    assert sizes.template.length == 8.0 and sizes.base_radius == 0.5
    assert blast_radius(sizes.blast_small) == 1.5


def test_blast_covers_bases_it_touches() -> None:
    fighters = [fighter("centre", 0, 0), fighter("edge", 1.5, 0), fighter("touched", 0, 1.9), fighter("clear", 2.1, 0)]
    assert under_blast((0, 0), 3.0, fighters, 0.0) == ["centre", "edge"]
    assert under_blast((0, 0), 3.0, fighters, 0.5) == ["centre", "edge", "touched"]
    assert under_blast((0, 0), 5.0, fighters, 0.0) == ["centre", "edge", "touched", "clear"]


def test_only_models_on_the_targets_level_are_hit() -> None:
    fighters = [fighter("t", 0, 0, level=1), fighter("beside", 1, 0, level=1), fighter("below", 0.5, 0, level=0)]
    assert blast_hits((0, 0), 3.0, "t", fighters, 0.0) == ["t", "beside"]
    assert blast_hits((0, 0), 3.0, "below", fighters, 0.0) == ["below"]


def test_a_hit_engaged_model_brings_everyone_it_is_engaged_with() -> None:
    fighters = [
        fighter("t", 0, 0, engaged_with=("foe",)),
        fighter("foe", 0.9, 0, engaged_with=("t", "friend")),
        fighter("friend", 5, 0, engaged_with=("foe",)),
        fighter("upstairs", 0.9, 0.9, level=1, engaged_with=("foe",)),
        fighter("bystander", 6, 0),
    ]
    assert models_hit(["t"], "t", fighters) == ["t", "foe", "friend"]
    assert blast_hits((0, 0), 3.0, "t", fighters, 0.0) == ["t", "foe", "friend"]


def test_an_unknown_target_is_refused() -> None:
    with pytest.raises(ValueError, match="the target 'x' is not among"):
        models_hit([], "x", [fighter("a", 0, 0)])


def test_template_shape_along_its_bearing() -> None:
    origin = (0.0, 0.0)
    assert template_end(origin, 90.0, SHAPE) == pytest.approx((7.0, 0.0))
    assert in_template(origin, 90.0, SHAPE, (0.0, 0.0), 0.0)
    assert in_template(origin, 90.0, SHAPE, (8.0, 0.0), 0.0)
    assert not in_template(origin, 90.0, SHAPE, (8.2, 0.0), 0.0)
    assert in_template(origin, 90.0, SHAPE, (7.0, 1.0), 0.0)
    assert in_template(origin, 90.0, SHAPE, (3.5, 0.6), 0.0)  # half-width 0.25 + 0.75 * 3.5 / 7 = 0.625
    assert not in_template(origin, 90.0, SHAPE, (3.5, 0.7), 0.0)
    assert in_template(origin, 90.0, SHAPE, (3.5, 1.1), 0.5)
    assert not in_template(origin, 90.0, SHAPE, (-1.0, 0.0), 0.0)
    assert not in_template(origin, 90.0, SHAPE, (0.0, -4.0), 0.0)
    assert in_template(origin, 0.0, SHAPE, (0.0, -4.0), 0.0)  # bearing 0 points up the table


def test_template_hits_follow_the_same_level_and_combat_rules() -> None:
    fighters = [fighter("t", 4, 0, engaged_with=("foe",)), fighter("foe", 4, 3, engaged_with=("t",)),
                fighter("in_line", 6, 0), fighter("above", 6, 0.2, level=1)]
    assert template_hits((0, 0), 90.0, SHAPE, "t", fighters, 0.0) == ["t", "foe", "in_line"]
