"""coc.sniper and the sniper's tracker state."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.snipers import SHOTS_COUNTER
from battletracker.rules.chain_of_command.snipers import SniperLoss
from battletracker.rules.chain_of_command.snipers import check_sniper_targetable
from battletracker.rules.chain_of_command.snipers import sniper_contacted
from battletracker.rules.chain_of_command.snipers import sniper_fired_on
from battletracker.rules.chain_of_command.snipers import spotting_bonus
from tests.rules.oddscheck import assert_odds_match_simulation


def shoot(dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.sniper", {"target_kind": "infantry", **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def test_hits_on_three_or_more_at_any_range() -> None:
    miss = shoot([2])
    assert miss.outcome == "miss" and list(miss.rolls) == [("Sniper's Firepower Die", (2,))]
    hit = shoot([3, face("open", "kill")])
    assert hit.outcome == "kill" and hit.values["to_hit"] == 3


def test_effect_as_in_the_open_with_shock_doubled() -> None:
    for f in range(1, 7):
        kills, shock = HitEffect.for_cover("open", 2).read(f)
        res = shoot([5, f])
        assert res.values["cover"] == "open" and (res.values["kills"], res.values["shock"]) == (kills, shock)
    assert shoot([5, face("open", "shock")]).outcome == "shock=2"


@pytest.mark.parametrize("kind", ["support", "transport_passengers"])
def test_support_units_and_transport_passengers_as_infantry(kind: str) -> None:
    assert shoot([3, face("open", "shock")], target_kind=kind).outcome == "shock=2"


def test_apc_weapon_crew_outside_an_enclosed_turret() -> None:
    res = shoot([4, face("open", "kill")], target_kind="apc_weapon_crew", enclosed_turret=False)
    assert res.outcome == "kill"


def test_bunker_hits_on_four_in_light_cover_and_cannot_be_ignored() -> None:
    assert shoot([3], target_kind="bunker").outcome == "miss"
    res = shoot([4, face("light", "shock")], target_kind="bunker")
    assert res.outcome == "shock=2" and res.values["cover"] == "light" and res.values["cannot_ignore"] is True
    assert "cannot ignore" in res.log[-1]
    assert shoot([4, face("light", "none")], target_kind="bunker").outcome == "no_effect"


def test_a_kill_with_a_leader_attached_hits_the_leader_on_one_or_two() -> None:
    kill = face("open", "kill")
    for leader_die, outcome in ((1, "kill+leader_hit"), (2, "kill+leader_hit"), (3, "kill"), (6, "kill")):
        res = shoot([6, kill, leader_die], leader_attached=True)
        assert res.outcome == outcome
        assert res.rolls[-1] == ("Leader hit die", (leader_die,))
    assert len(shoot([6, kill]).rolls) == 2  # no Leader, no extra die
    assert len(shoot([6, face("open", "shock")], leader_attached=True).rolls) == 2  # no kill, no extra die


def test_tracker_effects() -> None:
    miss = shoot([1], firer_id="s1", target_id="t1")
    assert list(miss.effects) == [ChangeCounter("s1", SHOTS_COUNTER, 1)]
    kill = shoot([6, face("open", "kill")], firer_id="s1", target_id="t1")
    assert list(kill.effects) == [ChangeCounter("s1", SHOTS_COUNTER, 1), ChangeFigures("t1", -1)]
    shock = shoot([6, face("open", "shock")], target_id="t1")
    assert list(shock.effects) == [ChangeCounter("t1", "shock", 2)]


@pytest.mark.parametrize(("inputs", "field", "words"), [
    ({"target_kind": "vehicle"}, "target_kind", "cannot target vehicles"),
    ({"target_kind": "apc_passengers"}, "target_kind", "APC passengers cannot be targeted"),
    ({"target_kind": "apc_weapon_crew", "enclosed_turret": True}, "enclosed_turret", "enclosed turret"),
    ({"suppressing": True}, "suppressing", "never fire Suppressing Fire"),
    ({"target_kind": "tank"}, "target_kind", "must be one of"),
    ({"firer_id": "a,b"}, "firer_id", "one unit id"),
])
def test_refusals(inputs: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RulesInputError) as err:
        shoot([], **inputs)
    assert err.value.field == field and words in str(err.value)
    with pytest.raises(RulesInputError):
        odds("coc.sniper", {"target_kind": "infantry", **inputs})  # type: ignore[dict-item]


def test_closed_form_kill_in_the_open() -> None:
    dist = odds("coc.sniper", {"target_kind": "infantry"})
    assert dist.p("kill") == Fraction(4, 6) * HitEffect.for_cover("open").kill_chance()
    assert dist.p("miss") == Fraction(2, 6)
    leader = odds("coc.sniper", {"target_kind": "infantry", "leader_attached": True})
    assert leader.p("kill") + leader.p("kill+leader_hit") == Fraction(4, 6) * HitEffect.for_cover("open").kill_chance()
    assert leader.p("kill+leader_hit") == dist.p("kill") * Fraction(2, 6)


def test_closed_form_bunker() -> None:
    dist = odds("coc.sniper", {"target_kind": "bunker"})
    light = HitEffect.for_cover("light")
    assert dist.p("kill") == Fraction(3, 6) * light.kill_chance()
    assert dist.p("shock=2") == Fraction(3, 6) * light.shock_chance()


@pytest.mark.parametrize("inputs", [
    {"target_kind": "infantry", "leader_attached": True},
    {"target_kind": "bunker", "leader_attached": True},
    {"target_kind": "apc_weapon_crew"},
])
def test_odds_match_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.sniper", inputs)  # type: ignore[arg-type]


def test_spotting_bonus_is_one_per_shot() -> None:
    assert [spotting_bonus(n) for n in range(4)] == [0, 1, 2, 3]


def test_an_unspotted_sniper_cannot_be_targeted() -> None:
    with pytest.raises(RulesInputError, match="not been spotted"):
        check_sniper_targetable(False)
    check_sniper_targetable(True)


def test_one_kill_removes_the_sniper_and_shock_is_ignored() -> None:
    assert sniper_fired_on("s1", 0) == SniperLoss((), False)
    assert sniper_fired_on("s1", 2) == SniperLoss((RemoveUnit("s1"),), True)


def test_contact_removes_the_sniper_without_a_force_morale_test() -> None:
    assert sniper_contacted("s1") == SniperLoss((RemoveUnit("s1"),), False)


def test_a_sniper_kill_on_the_last_figure_puts_the_target_out_of_play() -> None:
    kill = hit_effect_faces("open").index("kill") + 1
    res = resolve("coc.sniper", {"target_kind": "infantry", "target_id": "t", "target_figures": "1"},
                  ScriptedDice([5, kill]))
    assert list(res.effects) == [ChangeFigures("t", -1), SetCondition("t", OUT_OF_PLAY)]
    assert "The target has no figures left: out of play. Its side takes a Force Morale Test" in res.log
    res = resolve("coc.sniper", {"target_kind": "infantry", "target_id": "t", "target_figures": "2"},
                  ScriptedDice([5, kill]))
    assert list(res.effects) == [ChangeFigures("t", -1)]
