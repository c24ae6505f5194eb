"""Named checks, options, results and the GM readings that change a check (spec §5, §11)."""

import random

import pytest

from tabletop_widgets.core import CheckResult, CheckSpec, RuleError
from tabletop_widgets.dice import RollResult
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons.checks import presets
from tabletop_systems.seasons.words import parse_pool
from helpers import FixedRng


def test_checks_list_presets_and_every_pair():
    specs = SYSTEM.checks(Character())
    ids = [s.id for s in specs]
    assert len(ids) == len(set(ids)) == 80 + 9 * 18
    assert "wits+investigation" in ids and "presence+animal_ken" in ids and "suppress_pain" in ids
    assert all(isinstance(s, CheckSpec) and s.label["en"] and s.label["ru"] for s in specs)


def test_check_spec_options_and_notation():
    c = Character(wits=3, investigation=2, specializations=[{"skill": "investigation", "name": "tracks", "rating": 1}])
    spec = SYSTEM.check(c, "wits+investigation")
    assert spec.option("difficulty").default == 3
    assert ("tracks", {"en": "tracks", "ru": "tracks"}) in spec.option("specialization").choices
    assert spec.notation == "pool 3[wits]+2[investigation] diff 3"
    assert SYSTEM.check(c, "armed_attack").option("armour").default == 0
    assert SYSTEM.check(c, "haggle").option("opponent_pool").default == 0
    assert SYSTEM.check(Character(damage=4), "first_aid").option("patient_damage").default is None  # own: L724
    assert SYSTEM.pool_plan(Character(damage=4), "first_aid").opposition == 4  # L723
    assert SYSTEM.check(Character(damage=5), "wits+investigation").option("pain").default is True


def test_roll_check_result_shape():
    c = Character(wits=3, resolve=2, investigation=2)
    r = SYSTEM.roll_check(c, "wits+investigation", difficulty=3, rng=random.Random(1))
    assert isinstance(r, CheckResult) and isinstance(r.roll, RollResult)
    assert r.total == r.degree == r.details["successes"] and r.critical is None
    assert r.roll.successes == r.total and r.roll.check.passed == r.success
    assert [d.value for d in r.roll.dice] == r.details["faces"] and len(r.details["faces"]) == 2
    assert r.details["trace"] == "3 + 2 - 3 = 2" and r.outcome["en"] and r.outcome["ru"]


def test_notation_of_a_check_parses_back_to_the_same_pool():
    c = Character(dexterity=3, larceny=2, specializations=[{"skill": "larceny", "name": "locks", "rating": 2}])
    plan = SYSTEM.pool_plan(c, "pick_lock", specialization="locks", tool_bonus=2, situation=-1, difficulty=4)
    text = plan.notation()
    assert parse_pool(text, 0, len(text)).pool == plan.pool == 4


def test_bad_options():
    c = Character()
    with pytest.raises(ValueError):
        SYSTEM.roll_check(c, "wits+investigation", difficulty=-1)
    with pytest.raises(ValueError):
        SYSTEM.chance(c, "wits+investigation", nonsense=1)
    with pytest.raises(ValueError):
        SYSTEM.chance(c, "wits+investigation", help=1.5)
    with pytest.raises(RuleError):
        SYSTEM.chance(c, "wits+flying")
    with pytest.raises(RuleError):
        SYSTEM.chance(c, "wits+investigation", specialization="tracks")
    with pytest.raises(RuleError):
        SYSTEM.chance(c, "armed_attack", weapon="bazooka")
    with pytest.raises(ValueError):
        SYSTEM.chance(c, "lift", attribute="wits")
    with pytest.raises(ValueError):
        SYSTEM.chance(c, "lift", opponent_pool=3)


def test_sport_alternative_attribute():
    c = Character(strength=2, dexterity=4, athletics=1)
    assert SYSTEM.pool_plan(c, "sport", attribute="dexterity", opponent_pool=2).pool == 5


def test_drama_spend_is_an_effect_and_clamped():
    c = Character(wits=2, drama=1)
    r = SYSTEM.roll_check(c, "wits+investigation", drama=True, rng=random.Random(3))
    assert r.details["pool"] == 2 and [(e.trait, e.delta) for e in r.effects] == [("drama", -1)]
    assert c.drama == 1  # not applied silently
    SYSTEM.apply_effects(c, r.effects)
    SYSTEM.apply_effects(c, r.effects)
    assert c.drama == 0
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "wits+investigation", drama=True)
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(is_player_character=False, drama=2), "wits+investigation", drama=True)


def test_apply_effects_clamps_damage():
    c = Character(damage=9)
    from tabletop_widgets.core import Effect

    assert SYSTEM.apply_effects(c, [Effect("damage", 5)]) == {"damage": (9, 10)}
    SYSTEM.apply_effects(c, [Effect("damage", -20)])
    assert c.damage == 0


def test_drama_limit_readings():
    c = Character(drama=2)
    assert SYSTEM.pool_plan(c, "wits+investigation", drama=True, opponent_drama=2).pool == 1 + 3 - 6 - 3
    with pytest.raises(RuleError):
        SYSTEM.with_rules(drama_limit="per_check").pool_plan(c, "wits+investigation", drama=True, opponent_drama=1)


def test_max_advantages_readings():
    c = Character()
    with pytest.raises(RuleError):
        SYSTEM.pool_plan(c, "wits+investigation", advantage=2)
    assert SYSTEM.with_rules(max_advantages_per_check=2).pool_plan(c, "wits+investigation", advantage=2).pool == 4


def test_untrained_penalty_reading():
    c = Character(wits=3)
    assert SYSTEM.pool_plan(c, "wits+investigation").pool == 0
    assert SYSTEM.with_rules(untrained_penalty=1).pool_plan(c, "wits+investigation").pool == -1


def test_rule_of_10_option_and_reading():
    c = Character(strength=12, melee=5)
    assert SYSTEM.chance(c, "strength+melee") == 1
    assert SYSTEM.chance(c, "strength+melee", rule_of_10=False) == 1 - __import__("fractions").Fraction(1, 2**14)
    assert SYSTEM.with_rules(rule_of_10=False).chance(c, "strength+melee") < 1
    r = SYSTEM.roll_check(c, "strength+melee", rng=random.Random(5))
    assert r.details["rolled"] == 4 and r.details["auto"] == 5


def test_success_threshold_house_rule():
    c = Character(wits=2)
    from fractions import Fraction

    assert SYSTEM.with_rules(success_threshold=8).chance(c, "wits+investigation", difficulty=1) == Fraction(3, 10)


def test_mundane_over_5_warns():
    c = Character()
    r = SYSTEM.roll_check(c, "wits+crafts", tool_bonus=7, rng=random.Random(1))
    assert r.details["warnings"]
    r = SYSTEM.with_rules(warn_mundane_over_5=False).roll_check(c, "wits+crafts", tool_bonus=7, rng=random.Random(1))
    assert not r.details["warnings"]


def test_contest_check():
    from fractions import Fraction

    c = Character(manipulation=3, persuasion=3)  # pool 6, no difficulty in contests (§11 #14)
    r = SYSTEM.roll_check(c, "haggle", opponent_pool=4, rng=FixedRng(6, 6, 1, 1, 1, 1, 6, 6, 6, 1))
    assert (r.details["winner"], r.success, r.details["opponent_successes"], r.margin) == ("B", False, 3, -1)
    r = SYSTEM.roll_check(c, "haggle", opponent_pool=4, rng=FixedRng(6, 6, 1, 1, 1, 1, 6, 6, 1, 1))
    assert r.details["winner"] == "tie" and r.success is False
    r = SYSTEM.roll_check(c, "haggle", opponent_pool=4, rng=FixedRng(6, 6, 6, 1, 1, 1, 6, 6, 1, 1))
    assert r.details["winner"] == "A" and r.success is True
    d = SYSTEM.check_distribution(c, "haggle", opponent_pool=4)
    assert d.outcome == "margin" and d.p_pass == Fraction(319, 512) == SYSTEM.chance(c, "haggle", opponent_pool=4)


def test_contest_with_difficulty_subtracts_from_both():
    c = Character(dexterity=3, ranged=3)
    plan = SYSTEM.pool_plan(c, "target_shooting", difficulty=2, opponent_pool=5)
    assert plan.pool == 4 and plan.opponent_pool == 3


def test_threat_armour_flag():
    victim = Character(stamina=2, armour=[{"name": "coat", "penalty": 2}])
    assert SYSTEM.pool_plan(victim, "threat", dice=8).pool == 6
    assert SYSTEM.pool_plan(victim, "threat", dice=8, armour_applies=True).pool == 4
    victim.damage = 5
    assert SYSTEM.pool_plan(victim, "threat", dice=8).pool == 6  # the victim's Pain does not help


def test_rolloff_check():
    r = SYSTEM.roll_check(Character(), "initiative_rolloff", rng=FixedRng(7))
    assert r.total == 7 and r.success is None
    with pytest.raises(RuleError):
        SYSTEM.chance(Character(), "initiative_rolloff")


def test_every_preset_rolls():
    c = Character(
        **{
            "strength": 3,
            "dexterity": 3,
            "stamina": 3,
            "wits": 3,
            "resolve": 3,
            "composure": 3,
            "intelligence": 3,
            "presence": 3,
            "manipulation": 3,
        },
        damage=3,
    )
    rng = random.Random(9)
    for pid, p in presets().items():
        opts = {"opponent_pool": 2} if p.opposition == "contest" else {}
        r = SYSTEM.roll_check(c, pid, rng=rng, **opts)
        assert r.check_id == pid and r.label["ru"]
