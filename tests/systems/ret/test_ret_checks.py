"""Named checks (spec §5): divider, Sanity test, survival, self-control, flaws, contests, choice rolls."""

from fractions import Fraction as F
import random

import pytest

from tabletop_systems.ret import SYSTEM, Character, chance_at_least, level_roll
from tabletop_systems.ret.checks import (
    Divider,
    apply_divider,
    contest_chance,
    divider_presets,
    flaw_difficulty,
    resolve_difficulty,
    resolve_divider,
)
from tabletop_widgets.core import RuleError

from ret_testkit import healer, Scripted

STRICT, NORMAL, GENEROUS = Divider(5, 1), Divider(4, 2), Divider(3, 3)


def test_presets():
    assert divider_presets() == {"strict": STRICT, "normal": NORMAL, "generous": GENEROUS}
    assert resolve_divider("4+2") == NORMAL and resolve_divider((3, 0)) == Divider(3, 0)
    with pytest.raises(RuleError):
        resolve_divider((0, 1))


@pytest.mark.parametrize(
    "name,value",
    [
        ("trivial", 2),
        ("low", 4),
        ("medium", 8),
        ("elevated", 12),
        ("high", 16),
        ("very_high", 20),
        ("extreme", 25),
        ("impossible", 50),
        ("Средняя", 8),
        ("Very High", 20),
        (7, 7),
    ],
)
def test_difficulty_presets(name, value):
    assert resolve_difficulty(name) == value


def test_TV_B54_absurd_spell_threshold():
    assert resolve_difficulty("impossible") == 50


DIVIDER_VECTORS = [
    ("TV-B24", 12, Divider(3, 0), 4),
    ("TV-B25", 10, STRICT, 3),
    ("TV-B26", 14, STRICT, 3),
    ("TV-B35", 12, STRICT, 3),
    ("TV-B36-weak", 7, STRICT, 2),
    ("TV-B36-normal", 7, NORMAL, 3),
    ("TV-B36-exceptional", 7, GENEROUS, 5),
    ("TV-B37-weak", 27, STRICT, 6),
    ("TV-B37-normal", 27, NORMAL, 8),
    ("TV-B37-exceptional", 27, GENEROUS, 12),
    ("TV-D36-strict", 10, STRICT, 3),
    ("TV-D36-normal", 0, NORMAL, 2),
    ("TV-D36-generous", -1, GENEROUS, 3),
    ("TV-D52", 9, Divider(4, 4), 6),
    ("TV-D55", 9, NORMAL, 4),
    ("TV-D56", 7, GENEROUS, 5),
    ("TV-B68", 9, NORMAL, 4),
]


@pytest.mark.parametrize("vid,total,div,expected", DIVIDER_VECTORS, ids=[v[0] for v in DIVIDER_VECTORS])
def test_divider_vectors(vid, total, div, expected):
    assert apply_divider(total, div) == expected


def test_TV_D36_fail():
    for d in (STRICT, NORMAL, GENEROUS):
        assert apply_divider(None, d, fail=True) == 0
        assert apply_divider(None, d, fail=True, on_fail="base") == d.base
    assert SYSTEM.divide(None, "normal", fail=True) == 0
    assert SYSTEM.with_rules(divider_on_fail="base").divide(None, "normal", fail=True) == 2


def test_TV_B27_presets():
    assert (resolve_divider("normal"), resolve_divider("strict"), resolve_divider("normal")) == (NORMAL, STRICT, NORMAL)


@pytest.mark.parametrize(
    "div,bonus,faces,lo,hi",
    [
        (STRICT, 0, 20, 1, 5),
        (GENEROUS, 7, 20, 3, 12),
        (NORMAL, 0, 100, 2, 27),
        (STRICT, 0, 6, 1, 2),
        (GENEROUS, 3, 6, 3, 6),
    ],
    ids=["TV-B28-strict-L7", "TV-B28-generous-b7-L7", "TV-B28-normal-L8", "strict-L3", "gen-b3-L3"],
)
def test_TV_B28_ranges(div, bonus, faces, lo, hi):
    assert apply_divider(None, div, fail=True, on_fail="base") == lo
    assert apply_divider(faces + bonus, div) == hi


def test_TV_B38_boost():
    c = healer()
    r = SYSTEM.roll_check(c, "talent:Heal", extra_sanity=2, rng=Scripted(3))  # 3 Sanity instead of 1
    assert r.details["divider"] == Divider(4, 4)
    assert any(e.trait == "sanity" and e.delta == -3 for e in r.effects)
    assert r.details["magnitude"] == (3 + 3) // 4 + 4


def test_power_cost_spent_on_fail_A44():
    c = Character(
        abilities=[
            {
                "name": "Bolt",
                "kind": "talent",
                "base_param": "will",
                "level": 3,
                "is_superpower": True,
                "sanity_cost": 1,
            }
        ]
    )
    r = SYSTEM.roll_check(c, "talent:Bolt", rng=Scripted(1, 3))
    assert any(e.trait == "sanity" and e.delta == -1 for e in r.effects)
    r = SYSTEM.with_rules(power_sanity_spent_on_fail=False).roll_check(c, "talent:Bolt", rng=Scripted(1, 3))
    assert not any(e.trait == "sanity" for e in r.effects)


def test_TV_B24_sanity_test():
    c = Character()
    # level 3 Composure scripted to 6 then 6 on d8? total 12: faces 6, 6 -> 12
    r = SYSTEM.roll_check(c, "sanity_test", harm=7, divider=(3, 0), rng=Scripted(6, 6))
    assert r.total == 12 and r.details["mitigation"] == 4 and r.details["loss"] == 3
    assert ("sanity", -3) in [(e.trait, e.delta) for e in r.effects]


def test_TV_B25_sanity_test_strict():
    c = Character(composure=6)
    r = SYSTEM.roll_check(c, "sanity_test", harm=8, divider="strict", rng=Scripted(10))
    assert r.details["mitigation"] == 3 and r.details["loss"] == 5


def test_TV_D37_clamp():
    c = Character(composure=5)
    r = SYSTEM.roll_check(c, "sanity_test", harm=7, divider="normal", rng=Scripted(9))
    assert r.details["loss"] == 3
    r = SYSTEM.roll_check(c, "sanity_test", harm=2, divider="normal", rng=Scripted(9))
    assert r.details["loss"] == 0 and r.success
    d = SYSTEM.check_distribution(c, "sanity_test", harm=2, divider="normal")
    assert sum(d.values()) == 1 and d.p_pass == F(9, 10)


def test_TV_B23_auto_difficulties():
    c = Character()
    c.health = -3
    c.sanity = -3
    assert SYSTEM.roll_check(c, "survival", rng=Scripted(3)).details["difficulty"] == 3
    assert SYSTEM.roll_check(c, "self_control", rng=Scripted(3)).details["difficulty"] == 3


def test_no_survival_roll_at_zero():
    c = Character()
    c.health = 0
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "survival", rng=Scripted(3))


def test_TV_B5_record_survival():
    c = Character(endurance=7, physique=7, fine_motor=7, body_control=7, is_npc=False)
    c.health = -54  # health_max 14: threshold -42 is passed -> use the GM option off
    gm = SYSTEM.with_rules(threshold_multiplier=0)
    r = gm.roll_check(c, "survival", rng=Scripted(20, 45))
    assert r.total == 65 and r.details["state"] == "stabilised"
    assert [(e.trait, e.delta) for e in r.effects] == [("health", 1)]
    gm.apply_result(c, r)
    assert c.health == -53 and c.stabilised_health


def test_TV_B7_record_self_control():
    c = Character(composure=6, leadership=6, inspiration=7, charisma=7, education=7, wits=7, attention=7, intuition=7)
    c.sanity = -32
    c.luck = 4
    gm = SYSTEM.with_rules(threshold_multiplier=0)
    r = gm.roll_check(c, "self_control", luck=4, rng=Scripted(12, 18))
    assert r.total == 34 and r.details["state"] == "stabilised"
    gm.apply_result(c, r)
    assert c.sanity == -31 and c.luck == 0 and c.stabilised_sanity


@pytest.mark.parametrize(
    "faces,state",
    [((3,), "stabilised"), ((2,), "coma"), ((1, 1), "dead"), ((1, 3), "coma")],
    ids=["TV-D31-stabilised", "TV-D31-coma", "TV-D31-dead", "fail-coma"],
)
def test_TV_D31_survival(faces, state):
    c = Character()
    c.health = -3
    r = SYSTEM.roll_check(c, "survival", rng=Scripted(*faces))
    assert r.details["state"] == state
    SYSTEM.apply_result(c, r)
    assert c.dead == (state == "dead")
    assert c.has_condition("coma") == (state == "coma")


def test_A16_crit_survival_option():
    c = Character()
    c.health = -3
    r = SYSTEM.with_rules(crit_survival_is_death=False).roll_check(c, "survival", rng=Scripted(1, 1))
    assert r.details["state"] == "coma"


def test_TV_D32_survival_heals():
    c = Character()
    c.health = -5
    r = SYSTEM.roll_check(c, "survival", rng=Scripted(6, 2))
    assert r.total == 8 and r.details["state"] == "stabilised"
    SYSTEM.apply_result(c, r)
    assert c.health == -4


def test_TV_D61_threshold():
    c = Character(physique=5, endurance=5, fine_motor=3, body_control=3)
    assert c.health_max == 8
    c.health = -24
    r = SYSTEM.roll_check(c, "survival", rng=Scripted(3))
    assert r.details["difficulty"] == 24
    c.health = -25
    r = SYSTEM.roll_check(c, "survival", rng=Scripted())
    assert r.details["state"] == "dead" and r.roll is None
    r = SYSTEM.with_rules(health_threshold_outcome="coma").roll_check(c, "survival", rng=Scripted())
    assert r.details["state"] == "coma"


def test_TV_D34_self_control_crit():
    c = Character()
    c.sanity = -2
    r = SYSTEM.roll_check(c, "self_control", rng=Scripted(1, 1))
    assert r.details["state"] == "coma"


def test_TV_D35_loss_of_control():
    c = Character(composure=4, leadership=4)
    c.sanity = -4
    r = SYSTEM.roll_check(c, "self_control", rng=Scripted(3, 4))
    assert r.details["state"] == "panic" and r.details["loss_of_control_d6"] == 4
    SYSTEM.apply_result(c, r)
    assert c.has_condition("panic")


def test_A18_noncombat_crit():
    c = Character()
    c.sanity = -2
    r = SYSTEM.roll_check(c, "self_control", in_combat=False, rng=Scripted(1, 1))
    assert r.details["state"] == "coma"
    r = SYSTEM.with_rules(noncombat_crit_self_control="table_1").roll_check(
        c, "self_control", in_combat=False, rng=Scripted(1, 1)
    )
    assert r.details["state"] == "flaw_state_severe"


@pytest.mark.parametrize(
    "d6,in_combat,state",
    [
        (1, True, "coma"),
        (6, True, "stunned"),
        (1, False, "flaw_state_severe"),
        (6, False, "bad_mood"),
        (5, False, "rage"),
    ],
)
def test_loss_of_control_tables(d6, in_combat, state):
    r = SYSTEM.roll_check(Character(), "loss_of_control", in_combat=in_combat, rng=Scripted(d6))
    assert r.details["state"] == state and r.success is None


def test_TV_D70_no_luck_on_choice_rolls():
    with pytest.raises(RuleError, match="Luck cannot be used on choice rolls"):
        SYSTEM.roll_check(Character(), "loss_of_control", luck=1, rng=Scripted(3))
    with pytest.raises(RuleError):
        SYSTEM.chance(Character(), "loss_of_control")


def test_choice_distributions():
    d = SYSTEM.check_distribution(Character(), "fail_die")
    assert dict(d) == {k: F(1, 4) for k in range(1, 5)}
    assert SYSTEM.roll_check(Character(), "talent_level_d6", rng=Scripted(4)).details["level"] == 4
    assert SYSTEM.roll_check(Character(), "new_skill_level_d6", rng=Scripted(4)).details["level"] == 2


FLAWS = [
    ("TV-B51", 12, 5, 5, 2),
    ("TV-B52-l33", 12, 3, 3, 6),
    ("TV-B52-l55", 12, 5, 5, 2),
    ("TV-B52-m33", 15, 3, 3, 9),
    ("TV-B52-m55", 15, 5, 5, 5),
    ("TV-B52-s33", 20, 3, 3, 14),
    ("TV-B52-s55", 20, 5, 5, 10),
    ("TV-D58-a", 20, 4, 2, 14),
    ("TV-D58-b", 20, -2, 1, 21),
    ("TV-D59", 12, 8, 5, -1),
]


@pytest.mark.parametrize("vid,strength,sanity,level,expected", FLAWS, ids=[f[0] for f in FLAWS])
def test_flaw_difficulty(vid, strength, sanity, level, expected):
    assert flaw_difficulty({"strength": strength, "level": level}, sanity) == expected


def test_flaw_resistance_is_clean_and_TV_D59():
    fl = {"name": "Gambling", "severity": "light", "level": 5, "base_param": "composure"}
    c = Character(composure=5, flaws=[fl], conditions=[{"id": "flaw_state_light", "flat": -3}])
    c.sanity = 5
    r = SYSTEM.roll_check(c, "flaw:Gambling", luck=1, rng=Scripted(2))
    assert r.details["difficulty"] == 2 and r.total == 3 and r.success  # no flat penalties: clean roll
    c.sanity = 6  # max 6: light flaw level 5 -> difficulty 1
    assert SYSTEM.chance(c, "flaw:Gambling") == F(9, 10)  # any non-fail resists
    r = SYSTEM.roll_check(c, "flaw:Gambling", rng=Scripted(1, 4))
    assert not r.success


@pytest.mark.parametrize(
    "cond,param,threshold",
    [
        ("unconscious", "perception", "mind"),
        ("rage", "perception", "mind"),
        ("doom", "will", "emotions"),
        ("panic", "composure", "emotions"),
        ("coma", "endurance", "body"),
    ],
)
def test_state_resistance(cond, param, threshold):
    c = Character(composure=5, conditions=[{"id": cond}])
    r = SYSTEM.roll_check(c, f"resist:{cond}", rng=Scripted(4))
    assert r.details["difficulty"] == c.value(threshold) and r.details["param"] == param
    assert r.success == (r.total >= c.value(threshold))
    SYSTEM.apply_result(c, r)
    assert c.has_condition(cond) == (not r.success)


def test_stunned_resistance_shift_applies_once():
    c = Character(composure=5, conditions=[{"id": "stunned"}])
    r = SYSTEM.roll_check(c, "resist:stunned", rng=Scripted(4))
    assert r.details["die"] == "d8"  # composure 5 (d10) at -1 die level


def test_armour_penalty_on_agility_branch():
    c = Character(
        armour=[
            {"name": "plate", "defence": 6, "durability": 8, "penalty": -4},
            {"name": "helm", "defence": 2, "durability": 2, "penalty": -2, "locations": ["head"]},
        ]
    )
    r = SYSTEM.roll_check(c, "dodge", rng=Scripted(5))
    assert r.total == 1  # penalties do not stack: worst -4
    r = SYSTEM.roll_check(c, "attention", rng=Scripted(5))
    assert r.total == 5


def test_cover_and_aim_bonuses():
    c = Character(cover_bonus=5, aim_bonus=3)
    assert SYSTEM.roll_check(c, "dodge", rng=Scripted(2)).total == 7
    assert SYSTEM.roll_check(c, "parry", rng=Scripted(2)).total == 7
    assert SYSTEM.with_rules(cover_bonus_scope="dodge_only").roll_check(c, "parry", rng=Scripted(2)).total == 2
    assert SYSTEM.roll_check(c, "attack_melee", rng=Scripted(2)).total == 5
    c = Character(cover_bonus=4, cover_shield_only=True)
    assert SYSTEM.roll_check(c, "dodge", rng=Scripted(2)).total == 2
    assert SYSTEM.roll_check(c, "parry", rng=Scripted(2)).total == 6


CONTESTS = [
    ("TV-D24", (5, 8), (5, 8), "defender"),
    ("TV-D25", (3, 1, 4), (3, 1, 2), "attacker"),
    ("TV-D26", (3, 1, 3), (3, 1, 3), "defender"),
    ("TV-D27", (3, 1, 3), None, "defender"),
    ("TV-D28", (0, 5), (3, 1, 2), "attacker"),
]


@pytest.mark.parametrize("vid,att,dfn,winner", CONTESTS, ids=[c[0] for c in CONTESTS])
def test_contest_vectors(vid, att, dfn, winner):
    a = level_roll(att[0], rng=Scripted(*att[1:]), options=SYSTEM.rules)
    d = None if dfn is None else level_roll(dfn[0], rng=Scripted(*dfn[1:]), options=SYSTEM.rules)
    assert SYSTEM.contest(a, d) == winner


def test_A9_double_fail_option():
    a = level_roll(3, rng=Scripted(1, 4), options=SYSTEM.rules)
    d = level_roll(3, rng=Scripted(1, 2), options=SYSTEM.rules)
    assert SYSTEM.with_rules(double_fail_attack_can_hit=False).contest(a, d) == "defender"


def _contest_brute(la, ld):
    """Exact P(attacker wins) by enumerating both rolls' outcomes with the simple comparison rule."""
    from tabletop_systems.ret import roll_outcomes

    a, _ = roll_outcomes(la, options=SYSTEM.rules)
    d, _ = roll_outcomes(ld, options=SYSTEM.rules)
    win = F(0)
    for oa, pa in a.items():
        for od, pd in d.items():
            if oa[0] == "fail" and od[0] == "fail":
                w = oa[1] > od[1]
            elif oa[0] == "fail":
                w = False
            elif od[0] == "fail":
                w = True
            else:
                w = oa[1] > od[1]
            win += pa * pd * w
    return win


@pytest.mark.parametrize("la,ld,refused", [(3, 3, F(5, 6)), (4, 3, F(7, 8)), (0, 7, F(5, 6))])
def test_contest_chance_exact(la, ld, refused):
    p = contest_chance({"level": la}, {"level": ld}, options=SYSTEM.rules)
    assert p == _contest_brute(la, ld)
    assert contest_chance({"level": la}, None, options=SYSTEM.rules) == refused


def test_contest_chance_monte_carlo_sanity():
    rng = random.Random(5)
    wins = sum(
        SYSTEM.contest(level_roll(4, rng=rng, options=SYSTEM.rules), level_roll(3, rng=rng, options=SYSTEM.rules))
        == "attacker"
        for _ in range(4000)
    )
    assert abs(wins / 4000 - float(contest_chance({"level": 4}, {"level": 3}, options=SYSTEM.rules))) < 0.03


def test_checks_catalogue():
    c = Character(
        abilities=[{"name": "Nav", "kind": "skill", "base_param": "wits", "level": 3}],
        flaws=[{"name": "Fear", "severity": "light", "level": 1}],
    )
    ids = {s.id for s in SYSTEM.checks(c)}
    assert {
        "attention",
        "mind",
        "perception",
        "skill:Nav",
        "flaw:Fear",
        "survival",
        "self_control",
        "sanity_test",
        "initiative",
        "dodge",
        "parry",
        "resist:stunned",
        "loss_of_control",
        "fail_die",
    } <= ids
    spec = SYSTEM.check(c, "attention")
    assert spec.option("luck").max == 6 and spec.option("difficulty").choices
    for s in SYSTEM.checks(c):
        assert s.label["en"] and s.label["ru"]


def test_unknown_check():
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(), "nope", rng=Scripted())
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(), "attention", difficulty="hardish", rng=Scripted())


def test_apply_effects_clamps():
    from tabletop_widgets.core import Effect

    c = Character()
    c.sanity = 5
    SYSTEM.apply_effects(c, [Effect("sanity", 3), Effect("luck", -10)])
    assert c.sanity == 6 and c.luck == 0
    SYSTEM.apply_effects(c, [Effect("health", -10)])
    assert c.health == -4


def test_TV_B48_token():
    c = Character(
        tokens=[
            {"name": "Goddess of lies", "kind": "flat", "amount": 4, "applies_to": ["inspiration"]},
            {"name": "Focus", "kind": "die_level", "amount": 1},
        ]
    )
    r = SYSTEM.roll_check(c, "inspiration", token="Goddess of lies", rng=Scripted(3))
    assert r.total == 7
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "physique", token="Goddess of lies", rng=Scripted(3))
    SYSTEM.apply_result(c, r)
    assert [t["name"] for t in c.tokens] == ["Focus"]
    r = SYSTEM.roll_check(c, "physique", token="Focus", rng=Scripted(3))
    assert r.details["die"] == "d8"


def test_TV_B68_berserk_bonus_as_condition():
    bonus = apply_divider(9, NORMAL)
    c = Character(conditions=[{"id": "berserk", "flat": bonus, "scope": ["branch:body"]}])
    assert SYSTEM.roll_check(c, "physique", rng=Scripted(3)).total == 7
    assert SYSTEM.roll_check(c, "attention", rng=Scripted(3)).total == 3


def test_analysis_reveal():
    from tabletop_systems.ret.checks import analysis_reveal

    tiers = [(4, "a"), (8, "b"), (12, "c")]
    assert analysis_reveal(9, tiers) == ["a", "b"] and analysis_reveal(None, tiers) == []


def test_threshold_distribution_is_zero():
    c = Character()
    c.health = -19
    assert SYSTEM.chance(c, "survival") == 0
    c.health = -18
    assert SYSTEM.chance(c, "survival") == chance_at_least(3, 18, options=SYSTEM.rules)


def test_defence_refusal_and_psych_resistance():
    c = Character(conditions=[{"id": "defence_refused"}])
    for cid in ("dodge", "parry", "mental_defence"):
        with pytest.raises(RuleError) as e:
            SYSTEM.roll_check(c, cid, rng=Scripted(3))
        assert e.value.code == "defence_refused"
    r = SYSTEM.roll_check(c, "psych_resist", param="will", rng=Scripted(3))  # still allowed (L771)
    assert r.total == 3
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(), "psych_resist", param="physique", rng=Scripted(3))
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(conditions=[{"id": "panic"}]), "parry", rng=Scripted(3))
    assert SYSTEM.roll_check(Character(conditions=[{"id": "panic"}]), "dodge", rng=Scripted(3)).total == 3


def test_token_option_in_catalogue():
    c = Character(tokens=[{"name": "Focus", "kind": "die_level", "amount": 1}])
    assert SYSTEM.check(c, "attention").option("token").choices[1][0] == "Focus"


def test_A49_resist_on_first_turn():
    c = Character(conditions=[{"id": "rage"}])
    assert SYSTEM.roll_check(c, "resist:rage", first_turn=True, rng=Scripted(3)).total == 3
    with pytest.raises(RuleError):
        SYSTEM.with_rules(resist_on_first_turn=False).roll_check(c, "resist:rage", first_turn=True, rng=Scripted(3))
