"""coc.fire: Firepower Dice at infantry, the effect die per hit, Teams sharing hits."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import SetCondition
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import procedures
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import cap_kills
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.fire import effects_of_hits
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.fire import raise_cover
from battletracker.rules.chain_of_command.fire import reduce_cover
from battletracker.rules.chain_of_command.fire import split_hits
from battletracker.rules.chain_of_command.fire import to_hit_number
from battletracker.rules.chain_of_command.fire import volley_counts
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.tables import ruleset_table
from tests.rules.oddscheck import assert_odds_match_simulation

BASE = {"firepower_dice": 3, "to_hit": 4, "cover": "open"}


def fire(dice: list[int], **inputs: object) -> object:
    return resolve("coc.fire", {**BASE, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def test_registered() -> None:
    assert "coc.fire" in procedures("chain_of_command")


def test_tables_are_defaults_to_check() -> None:
    assert cover_levels() == ("open", "light", "hard")
    assert ruleset_table("chain_of_command", "fire", "to_hit").bool("check")
    assert ruleset_table("chain_of_command", "fire", "hit_effect").bool("check")
    assert to_hit_number("close", "regular") == 4  # guns' H.E. "at Close Range, hitting on 4, 5 or 6"
    for cover in cover_levels():
        assert len(hit_effect_faces(cover)) == 6


def test_firepower_dice_then_one_effect_die_per_hit() -> None:
    res = fire([4, 6, 1, 1, 5])
    assert list(res.rolls) == [("Firepower Dice", (4, 6, 1)), ("Effect dice", (1, 5))]
    assert res.values["hits"] == 2 and res.values["sixes"] == 1 and res.values["dice_rolled"] == 3
    open_faces = hit_effect_faces("open")
    kills = sum(1 for f in (1, 5) if open_faces[f - 1] == "kill")
    shock = sum(1 for f in (1, 5) if open_faces[f - 1] == "shock")
    assert res.outcome == f"kills={kills} shock={shock}"
    assert (res.values["kills"], res.values["shock"]) == (kills, shock)
    assert list(res.effects) == []  # no ids: compute only


def test_misses_roll_no_effect_dice() -> None:
    res = fire([1, 2, 3])
    assert res.outcome == "kills=0 shock=0"
    assert [label for label, _ in res.rolls] == ["Firepower Dice"]


def test_to_hit_from_range_band_and_target_quality() -> None:
    inputs = {"firepower_dice": 2, "range_band": "effective", "target_quality": "elite", "cover": "open"}
    needed = to_hit_number("effective", "elite")
    res = resolve("coc.fire", inputs, ScriptedDice([needed, needed - 1, 1]))
    assert res.values["to_hit"] == needed and res.values["hits"] == 1


def test_each_cover_reads_the_effect_table() -> None:
    for cover in cover_levels():
        effect = HitEffect.for_cover(cover)
        for face in range(1, 7):
            res = fire([6, 1, 1, face], cover=cover)
            kills, shock = effect.read(face)
            assert res.outcome == f"kills={kills} shock={shock}"
            assert res.values["cover"] == cover


def test_reduce_cover_never_below_open() -> None:
    assert reduce_cover("hard", 1) == "light"
    assert reduce_cover("hard", 2) == "open"
    assert reduce_cover("light", 3) == "open"
    assert raise_cover("light", 5) == "hard"
    res = fire([6, 1, 1, 1], cover="hard", reduce_cover=3)
    assert res.values["cover"] == "open"


def test_shock_multiplier_doubles_shock_not_kills() -> None:
    shock_face = hit_effect_faces("open").index("shock") + 1
    kill_face = hit_effect_faces("open").index("kill") + 1
    res = fire([6, 5, 1, shock_face, kill_face], shock_multiplier=2)
    assert res.outcome == "kills=1 shock=2"


def test_storm_of_steel_dice_come_before_the_effect_dice() -> None:
    res = fire([6, 1, 1, 5, 1, 1], storm_of_steel=True)
    assert [label for label, _ in res.rolls] == ["Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.values["dice_rolled"] == 4 and res.values["storm_dice"] == 1 and res.values["hits"] == 2


def test_storm_of_steel_setting_is_an_input() -> None:
    res = fire([6, 1, 1, 2, 3, 1], storm_of_steel=True, storm_of_steel_per_six=2)
    assert res.values["storm_dice"] == 2 and res.values["hits"] == 1


def test_hits_divided_between_teams_first_team_takes_the_odd_hit() -> None:
    assert split_hits(5, 2) == (3, 2)
    assert split_hits(1, 3) == (1, 0, 0)
    shock_face = hit_effect_faces("open").index("shock") + 1
    kill_face = hit_effect_faces("open").index("kill") + 1
    res = fire([4, 5, 6, kill_face, kill_face, shock_face], teams=2, target_ids="a, b")
    assert list(res.rolls[1:]) == [("Effect dice, team 1", (kill_face, kill_face)),
                                   ("Effect dice, team 2", (shock_face,))]
    assert res.values["team_hits"] == [2, 1]
    assert res.values["team_kills"] == [2, 0] and res.values["team_shock"] == [0, 1]
    assert list(res.effects) == [ChangeFigures("a", -2), ChangeCounter("b", "shock", 1)]


def test_target_id_gives_effects_and_figures_cap_the_kills() -> None:
    kill_face = hit_effect_faces("open").index("kill") + 1
    shock_face = hit_effect_faces("open").index("shock") + 1
    res = fire([4, 5, 6, kill_face, kill_face, shock_face], target_id="t1", target_figures="3")
    assert res.outcome == "kills=2 shock=1"
    assert list(res.effects) == [ChangeFigures("t1", -2), ChangeCounter("t1", "shock", 1)]


def test_kills_never_exceed_the_figures_and_a_team_with_none_left_is_out_of_play() -> None:
    kill_face = hit_effect_faces("open").index("kill") + 1
    shock_face = hit_effect_faces("open").index("shock") + 1
    res = fire([4, 5, 6, kill_face, shock_face, kill_face], target_id="t1", target_figures="2")
    assert res.outcome == "kills=2 shock=0"
    assert res.values["kills"] == 2 and res.values["shock"] == 0
    assert list(res.effects) == [ChangeFigures("t1", -2), SetCondition("t1", OUT_OF_PLAY)]
    assert "The target has no figures left: out of play. Its side takes a Force Morale Test" in res.log
    # Two Teams sharing the hits: each is capped at its own figures.
    res = fire([4, 5, 6, kill_face, kill_face, kill_face], teams=2, target_ids="a,b", target_figures="1,3")
    assert res.values["team_kills"] == [1, 1] and res.outcome == "kills=2 shock=0"
    assert list(res.effects) == [ChangeFigures("a", -1), SetCondition("a", OUT_OF_PLAY), ChangeFigures("b", -1)]
    assert any(line.startswith("Team 1 has no figures left") for line in res.log)


def test_the_odds_never_list_more_kills_than_the_target_has() -> None:
    dist = odds("coc.fire", {"firepower_dice": 12, "to_hit": 3, "cover": "open", "target_figures": "2"})
    assert max(int(k.split()[0].split("=")[1]) for k in dist.outcomes) == 2
    assert all(k.endswith("shock=0") for k in dist.outcomes if k.startswith("kills=2"))
    uncapped = odds("coc.fire", {"firepower_dice": 12, "to_hit": 3, "cover": "open"})
    assert dist.p("kills=2 shock=0") == sum(p for k, p in uncapped.items() if int(k.split()[0][6:]) >= 2)
    two = odds("coc.fire", {"firepower_dice": 6, "to_hit": 4, "cover": "open", "teams": 2, "target_figures": "1,2"})
    assert max(int(k.split()[0][6:]) for k in two.outcomes) == 3 and sum(p for _, p in two.items()) == 1


@pytest.mark.parametrize(("inputs", "field", "words"), [
    ({"to_hit": 4, "range_band": "close", "target_quality": "green"}, "to_hit", "not both"),
    ({"to_hit": None}, "to_hit", "is required"),
    ({"to_hit": None, "range_band": "close"}, "target_quality", "is required"),
    ({"to_hit": None, "target_quality": "green"}, "range_band", "is required"),
    ({"to_hit": 7}, "to_hit", "at most 6, not 7"),
    ({"cover": "jungle"}, "cover", "open, light, hard"),
    ({"shock_multiplier": 3}, "shock_multiplier", "at most 2, not 3"),
    ({"firepower_dice": -1}, "firepower_dice", "at least 0, not -1"),
    ({"teams": 0}, "teams", "at least 1, not 0"),
    ({"teams": 2, "target_ids": "a"}, "target_ids", "names 1 unit but the hits are shared by 2 teams"),
    ({"target_id": "a,b"}, "target_id", "use target_ids for 2 teams"),
    ({"target_id": "a", "target_ids": "a"}, "target_id", "not both"),
    ({"teams": 2, "target_ids": "a,a"}, "target_ids", "the same unit twice"),
    ({"target_figures": "3,2"}, "target_figures", "gives 2 numbers for 1 team"),
    ({"target_id": "a", "target_figures": "0"}, "target_figures", "The target has no figures left: it is out of play"),
    ({"target_id": "a", "target_figures": "9" * 5000}, "target_figures", "must be whole numbers separated by commas"),
    ({"target_id": "a", "target_figures": 2}, "target_figures", "must be text"),
    ({"target_id": "a", "target_figures": "2,3"}, "target_figures", "gives 2 numbers for 1 team"),
    ({"range": 12}, "range", "not an input"),
])
def test_refusals_name_the_field_and_numbers(inputs: dict[str, object], field: str, words: str) -> None:
    merged = {k: v for k, v in {**BASE, **inputs}.items() if v is not None}
    with pytest.raises(RulesInputError) as err:
        resolve("coc.fire", merged, ScriptedDice([]))  # type: ignore[arg-type]
    assert err.value.field == field and words in str(err.value)
    with pytest.raises(RulesInputError):
        odds("coc.fire", merged)  # type: ignore[arg-type]


def test_closed_form_one_die() -> None:
    dist = odds("coc.fire", {"firepower_dice": 1, "to_hit": 4, "cover": "light"})
    effect = HitEffect.for_cover("light")
    assert dist.p("kills=1 shock=0") == Fraction(1, 2) * effect.kill_chance()
    assert dist.p("kills=0 shock=1") == Fraction(1, 2) * effect.shock_chance()
    miss_or_none = Fraction(1, 2) + Fraction(1, 2) * (1 - effect.kill_chance() - effect.shock_chance())
    assert dist.p("kills=0 shock=0") == miss_or_none


def test_closed_form_storm_of_steel_one_die() -> None:
    # to hit 6: only a 6 hits, and earns one more die that also hits only on a 6.
    dist = odds("coc.fire", {"firepower_dice": 1, "to_hit": 6, "cover": "open", "storm_of_steel": True})
    k = HitEffect.for_cover("open").kill_chance()
    assert dist.p("kills=2 shock=0") == Fraction(1, 36) * k * k


@pytest.mark.parametrize("inputs", [
    {"firepower_dice": 6, "to_hit": 4, "cover": "open"},
    {"firepower_dice": 10, "range_band": "close", "target_quality": "regular", "cover": "hard", "reduce_cover": 1},
    {"firepower_dice": 8, "to_hit": 5, "cover": "light", "storm_of_steel": True, "shock_multiplier": 2, "teams": 3},
    {"firepower_dice": 4, "to_hit": 3, "cover": "open", "storm_of_steel": True, "storm_of_steel_chains": True},
    {"firepower_dice": 0, "to_hit": 4, "cover": "open"},
    {"firepower_dice": 12, "to_hit": 3, "cover": "open", "target_figures": "2"},
    {"firepower_dice": 8, "to_hit": 4, "cover": "open", "storm_of_steel": True, "teams": 2, "target_figures": "1,2"},
    {"firepower_dice": 6, "to_hit": 4, "cover": "light", "teams": 3, "target_ids": "a,b,c", "target_figures": "2,1,3"},
])
def test_odds_match_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.fire", inputs)  # type: ignore[arg-type]


def _enumerate(dice: int, to_hit: int, storm: StormOfSteel | None, effect: HitEffect,
               cap: int) -> dict[tuple[int, int, int], Fraction]:
    """Every way the dice can fall, one branch per die face (independent of the packed arithmetic)."""
    out: dict[tuple[int, int, int], Fraction] = {}

    def roll(pending: int, rounds_left: int, hits: int, sixes: int, p: Fraction, earned: int) -> None:
        if pending == 0:
            if earned and storm is not None and rounds_left:
                roll(earned * storm.per_six, rounds_left - 1, hits, sixes, p, 0)
                return
            effects(hits, 0, 0, sixes, p)
            return
        for face in range(1, 7):
            six = face == 6
            roll(pending - 1, rounds_left, hits + (face >= to_hit), sixes + six, p / 6, earned + six)

    def effects(left: int, kills: int, shock: int, sixes: int, p: Fraction) -> None:
        if left == 0:
            key = (kills, shock, min(cap, sixes))
            out[key] = out.get(key, Fraction(0)) + p
            return
        for face in range(1, 7):
            k, s = effect.read(face)
            effects(left - 1, kills + k, shock + s, sixes, p / 6)

    roll(dice, storm.rounds if storm is not None else 0, 0, 0, Fraction(1), 0)
    return out


@pytest.mark.parametrize(("dice", "to_hit", "storm", "cover", "multiplier", "cap"), [
    (2, 4, None, "light", 1, 0),
    (2, 3, StormOfSteel(1, False), "open", 2, 5),
    (1, 5, StormOfSteel(2, False), "hard", 1, 2),
    (1, 4, StormOfSteel(1, True), "light", 2, 5),
    (3, 6, StormOfSteel(1, False), "open", 1, 1),
])
def test_volley_counts_equal_enumeration(dice: int, to_hit: int, storm: StormOfSteel | None, cover: str,
                                         multiplier: int, cap: int) -> None:
    effect = HitEffect.for_cover(cover, multiplier)
    exact = volley_counts(Volley(dice, to_hit, storm, effect), cap)
    assert dict(exact.items()) == _enumerate(dice, to_hit, storm, effect, cap)


def test_effects_of_hits_is_a_multinomial() -> None:
    effect = HitEffect.for_cover("light")
    dist = effects_of_hits(effect, 3)
    k, s = effect.kill_chance(), effect.shock_chance()
    assert dist.p((1, 1)) == 6 * k * s * (1 - k - s)
    assert dist.p((3, 0)) == k**3


@pytest.mark.parametrize("multiplier", [1, 2])
def test_capped_odds_of_teams_sharing_hits_equal_every_way_the_dice_fall(multiplier: int) -> None:
    """Two Teams of 1 and 2 figures sharing three dice's hits, enumerated die face by die face."""
    effect = HitEffect.for_cover("light", multiplier)
    brute: dict[tuple[int, int, int], Fraction] = {}
    for fire_faces in product(range(1, 7), repeat=3):
        hits = sum(1 for d in fire_faces if d >= 4)
        sixes = min(2, fire_faces.count(6))
        for faces in product(range(1, 7), repeat=hits):
            at, kills, shock = 0, 0, 0
            for n, figures in zip(split_hits(hits, 2), (1, 2), strict=True):
                read = [effect.read(f) for f in faces[at:at + n]]
                at += n
                k, s = cap_kills(sum(r[0] for r in read), sum(r[1] for r in read), figures)
                kills, shock = kills + k, shock + s
            key = (kills, shock, sixes)
            brute[key] = brute.get(key, Fraction(0)) + Fraction(1, 6 ** (3 + hits))
    assert dict(volley_counts(Volley(3, 4, None, effect, 2, (1, 2)), 2).items()) == brute
