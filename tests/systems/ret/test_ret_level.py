"""The level roll (spec §5.1) with scripted dice, and its exact distribution (spec §5.14)."""

from fractions import Fraction as F

import icepool
import pytest

from tabletop_systems.ret import SYSTEM, Character, chance_at_least, die_label, level_roll, roll_outcomes
from tabletop_systems.ret.level import LADDER, LEVEL_DIE, explosion_dice, max_total
from tabletop_widgets.core import RuleError

from ret_testkit import PYROMANCER, Scripted


@pytest.mark.parametrize(
    "level,label",
    [
        (2, "d6-1"),
        (8, "d100"),
        (9, "d100"),
        (-1, "d6-3"),
        (0, "d6-3"),
        (1, "d6-2"),
        (3, "d6"),
        (4, "d8"),
        (5, "d10"),
        (6, "d12"),
        (7, "d20"),
    ],
    ids=lambda x: str(x),
)
def test_TV_D8_level_die(level, label):
    assert die_label(level) == label


def roll(level, *faces, options=SYSTEM.rules, **kw):
    return level_roll(level, rng=Scripted(*faces), options=options, **kw)


def test_TV_B17_fail_die():
    r = roll(3, 1, 3)
    assert r.fail and r.fail_degree == 3 and not r.critical and r.total is None
    assert r.breakdown()["en"].endswith("fail 3") and "провал 3" in r.breakdown()["ru"]
    r = roll(3, 1, 1)
    assert r.fail and r.critical and "critical fail" in r.breakdown()["en"]


def test_TV_B18_luck_burn():
    r = roll(3, 1, 2, luck=65)
    assert r.fail and r.luck_spent == 65 and r.luck_gained == 1


@pytest.mark.parametrize(
    "crit,cinematic,gain", [(False, False, 1), (True, False, 3), (False, True, 3), (True, True, 5)]
)
def test_TV_B8_luck_awards(crit, cinematic, gain):
    r = roll(3, 1, 1 if crit else 2, options=SYSTEM.with_rules(cinematic_luck=cinematic).rules)
    assert r.luck_gained == gain


def test_TV_B19_ladder_probability():
    outcomes, _ = roll_outcomes(3, options=SYSTEM.rules)
    p5 = sum(p for o, p in outcomes.items() if o[0] == "ok" and o[2] == 5)
    assert p5 == F(1, 115200) == F(1, 6 * 8 * 10 * 12 * 20)


def test_TV_B20_attention_roll():
    c = Character()
    r = SYSTEM.roll_check(c, "attention", difficulty=4, luck=2, rng=Scripted(3))
    assert r.total == 5 and r.success and r.degree == "passed"


def test_TV_B21_skill_equality_passes():
    c = Character(abilities=[{"name": "Sea Navigation", "kind": "skill", "base_param": "wits", "level": 3}])
    r = SYSTEM.roll_check(c, "skill:Sea Navigation", difficulty=8, luck=2, rng=Scripted(3))
    assert r.total == 8 and r.success


def test_TV_B22_talent_and_tie():
    c = Character(abilities=[{"name": "Magic", "kind": "talent", "base_param": "education", "level": 3}])
    r = SYSTEM.roll_check(c, "talent:Magic", luck=2, rng=Scripted(3))
    assert r.total == 8
    att = r.details["level_roll"]
    dfn = level_roll(5, rng=Scripted(8), options=SYSTEM.rules)
    assert dfn.total == 8
    assert SYSTEM.contest(att, dfn) == "defender"


def test_TV_B39_ultimate():
    c = Character(**PYROMANCER)
    r = SYSTEM.roll_check(c, "ultimate:Firestorm", rng=Scripted(9))
    assert r.details["die"] == "d12" and r.total == 21
    SYSTEM.apply_result(c, r)
    assert c.ability("Firestorm")["used"]
    with pytest.raises(RuleError) as e:
        SYSTEM.roll_check(c, "ultimate:Firestorm", rng=Scripted(9))
    assert e.value.code == "ultimate_used"
    SYSTEM.start_game_session(c)
    assert not c.ability("Firestorm")["used"]


def test_TV_B53_and_D16_ladder_end():
    r = roll(7, 20, 100)
    assert r.total == 120 and r.successes == 1 and r.terminal_max
    r = roll(7, 20, 100, bonus=3)
    assert r.total == 123 and r.successes == 1 and r.terminal_max and len(r.chain) == 2


def test_TV_D12_ladder():
    r = roll(3, 6, 8, 3)
    assert r.total == 17 and r.successes == 2 and r.sanity_gained == 2 and not r.fail


def test_TV_D13_one_after_explosion_is_not_a_fail():
    r = roll(3, 6, 1)
    assert r.total == 7 and r.successes == 1 and not r.fail


def test_TV_D14_penalty_level_explodes():
    r = roll(0, 6, 5)
    assert r.total == 8 and r.successes == 1


def test_A4_level_ladder_option():
    r = level_roll(0, rng=Scripted(6, 6, 6, 6, 2), options=SYSTEM.with_rules(penalty_explosion="level_ladder").rules)
    assert [f for f, _ in r.chain] == [6, 6, 6, 6, 8]
    assert r.total == 6 + 6 + 6 + 6 + 2 - 3
    assert SYSTEM.with_rules(penalty_explosion="level_ladder").chance(
        Character(attention=0, intuition=0), "perception", difficulty=10
    ) != chance_at_least(0, 10, options=SYSTEM.rules)
    assert explosion_dice(2, options=SYSTEM.with_rules(penalty_explosion="level_ladder").rules)[:2] == (6, 8)
    assert explosion_dice(0, options=SYSTEM.rules)[:1] == (8,)


def test_TV_D15_negative_total():
    c = Character(**{k: 0 for k in ["attention", "intuition"]})
    r = SYSTEM.roll_check(c, "perception", difficulty="trivial", rng=Scripted(2))
    assert r.total == -1 and r.degree == "not_passed"


def test_TV_D17_d100_max():
    c = Character(is_npc=True, attention=8, intuition=8)
    r = SYSTEM.roll_check(c, "perception", difficulty="impossible", rng=Scripted(100))
    assert r.total == 100 and r.details["successes"] == 0 and r.details["terminal_max"]
    assert r.degree == "passed_with_success"
    assert not any(e.trait == "sanity" for e in r.effects)


def test_A5_d100_options():
    r = level_roll(8, rng=Scripted(100), options=SYSTEM.with_rules(d100_max_grants_sanity=True).rules)
    assert r.sanity_gained == 1
    r = level_roll(8, rng=Scripted(100, 40), options=SYSTEM.with_rules(d100_reroll_on_max=True).rules)
    assert r.total == 140 and r.successes == 1 and not r.terminal_max
    outcomes, cut = roll_outcomes(8, options=SYSTEM.with_rules(d100_reroll_on_max=True).rules)
    assert cut == F(1, 100**5)
    assert sum(outcomes.values()) + cut == 1


def test_TV_D18_D19_skill_fail_luck():
    c = Character(abilities=[{"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3}])
    r = SYSTEM.roll_check(c, "skill:Lockpicking", luck=2, rng=Scripted(1, 3))
    assert r.details["fail_degree"] == 3 and r.total is None and r.degree == "failed"
    SYSTEM.apply_effects(c, r.effects)
    assert c.luck == 5
    c2 = Character(abilities=c.abilities)
    r = SYSTEM.roll_check(c2, "skill:Lockpicking", luck=2, rng=Scripted(1, 1))
    assert r.critical == "failure" and r.degree == "critically_failed"
    SYSTEM.apply_effects(c2, r.effects)
    assert c2.luck == 7
    c3 = Character(abilities=c.abilities)
    cine = SYSTEM.with_rules(cinematic_luck=True)
    SYSTEM.apply_effects(c3, cine.roll_check(c3, "skill:Lockpicking", luck=2, rng=Scripted(1, 1)).effects)
    assert c3.luck == 9


def test_TV_D20_luck_pool():
    c = Character()
    with pytest.raises(RuleError) as e:
        SYSTEM.roll_check(c, "attention", luck=7, rng=Scripted(3))
    assert "You only have 6 Luck" in str(e.value) and e.value.code == "not_enough_luck"


def test_TV_D22_shifts_from_conditions():
    c = Character(fine_motor=5, body_control=5, conditions=[{"id": "off_balance"}])
    r = SYSTEM.roll_check(c, "dodge", rng=Scripted(3))
    assert r.details["die"] == "d8"
    c = Character(attention=0, intuition=0, conditions=[{"id": "stunned"}])
    r = SYSTEM.roll_check(c, "perception", rng=Scripted(3))
    assert r.details["die"] == "d6-3"


def test_TV_D29_D30_checks():
    c = Character(composure=7, leadership=7)
    r = SYSTEM.roll_check(c, "will", difficulty="impossible", rng=Scripted(20, 10))
    assert r.total == 30 and r.degree == "not_passed"
    assert [(e.trait, e.delta) for e in r.effects] == [("sanity", 1)]
    r = SYSTEM.roll_check(c, "will", difficulty=8, rng=Scripted(8))
    assert r.degree == "passed"
    r = SYSTEM.roll_check(c, "will", difficulty=8, rng=Scripted(7))
    assert r.degree == "not_passed"


def test_below_zero_auto_fail_option():
    c = Character(attention=0, intuition=0)
    r = SYSTEM.with_rules(below_zero="auto_fail").roll_check(c, "perception", shift=-1, rng=Scripted(2))
    assert r.details["fail"] and r.details["fail_degree"] == 2
    r = SYSTEM.roll_check(
        c,
        "perception",
        shift=-1,
        rng=Scripted(
            2,
        ),
    )
    assert not r.details["fail"] and r.total == -1
    assert SYSTEM.with_rules(below_zero="auto_fail").chance(c, "perception", difficulty=-10, shift=-1) == 0


# ------------------------------------------------------------------------------------------------
# Exact odds
# ------------------------------------------------------------------------------------------------
D67 = [
    ("L3>=4", 3, 4, 0, 0, F(1, 2)),
    ("L3>=3", 3, 3, 0, 0, F(2, 3)),
    ("L0>=2", 0, 2, 0, 0, F(1, 3)),
    ("L1>=4", 1, 4, 0, 0, F(1, 6)),
    ("L2>=4", 2, 4, 0, 0, F(1, 3)),
    ("L4>=8", 4, 8, 0, 0, F(1, 8)),
    ("L5>=8", 5, 8, 0, 0, F(3, 10)),
    ("L6>=12", 6, 12, 0, 0, F(1, 12)),
    ("L7>=20", 7, 20, 0, 0, F(1, 20)),
    ("L3+3>=8", 3, 8, 3, 0, F(1, 3)),
    ("L7>=54", 7, 54, 0, 0, F(67, 2000)),
    ("L6+luck4>=32", 6, 32, 0, 4, F(1, 48)),
    ("L3>=50", 3, 50, 0, 0, F(7, 115200)),
]
D73 = [
    ("L3>=-10", 3, -10, 0, 0, F(5, 6)),
    ("L3+luck5>=6", 3, 6, 0, 5, F(5, 6)),
    ("L0>=0", 0, 0, 0, 0, F(2, 3)),
    ("L7>=120", 7, 120, 0, 0, F(1, 2000)),
    ("L7>=121", 7, 121, 0, 0, F(0)),
    ("L3>=156", 3, 156, 0, 0, F(1, 11520000)),
    ("L3>=157", 3, 157, 0, 0, F(0)),
]


@pytest.mark.parametrize("case,level,target,bonus,luck,p", D67, ids=[f"TV-D67-{c[0]}" for c in D67])
def test_TV_D67(case, level, target, bonus, luck, p):
    assert chance_at_least(level, target, bonus=bonus, luck=luck, options=SYSTEM.rules) == p


@pytest.mark.parametrize("case,level,target,bonus,luck,p", D73, ids=[f"TV-D73-{c[0]}" for c in D73])
def test_TV_D73(case, level, target, bonus, luck, p):
    assert chance_at_least(level, target, bonus=bonus, luck=luck, options=SYSTEM.rules) == p


@pytest.mark.parametrize(
    "level,fail,crit",
    [(3, F(1, 6), F(1, 24)), (5, F(1, 10), F(1, 40)), (7, F(1, 20), F(1, 80)), (8, F(1, 100), F(1, 400))],
)
def test_TV_D68_fail_probabilities(level, fail, crit):
    outcomes, _ = roll_outcomes(level, options=SYSTEM.rules)
    assert sum(p for o, p in outcomes.items() if o[0] == "fail") == fail
    assert outcomes[("fail", 1)] == crit


def test_success_counts_level_3():
    outcomes, _ = roll_outcomes(3, options=SYSTEM.rules)
    got = [sum(p for o, p in outcomes.items() if o[0] == "ok" and o[2] == k) for k in range(6)]
    assert got == [F(2, 3), F(7, 48), F(3, 160), F(11, 5760), F(19, 115200), F(1, 115200)]


def test_max_totals():
    assert [max_total(lv, options=SYSTEM.rules) for lv in range(9)] == [153, 154, 155, 156, 150, 142, 132, 120, 100]


def _brute(level):
    """Enumerate every die sequence explicitly (independent of the recursive engine)."""
    faces, flat = LEVEL_DIE[level]
    ladder = list(LADDER[LADDER.index(faces) + 1 :])
    out = {}

    def walk(dice, total, prob, succ):
        n = dice[0]
        for f in range(1, n + 1):
            p = prob / n
            if f == n and len(dice) > 1:
                walk(dice[1:], total + f, p, succ + 1)
            else:
                key = ("ok", total + f + flat, succ, n == 100 and f == 100)
                out[key] = out.get(key, 0) + p

    for f in range(1, faces + 1):
        p = F(1, faces)
        if f == 1:
            for d4 in range(1, 5):
                out[("fail", d4)] = p / 4
        elif f == faces and ladder:
            walk(ladder, f, p, 1)
        else:
            out[("ok", f + flat, 0, faces == 100 and f == 100)] = out.get(("ok", f + flat, 0, faces == 100), 0) + p
    return out


@pytest.mark.parametrize("level", range(9))
def test_distribution_matches_brute_force(level):
    outcomes, cut = roll_outcomes(level, options=SYSTEM.rules)
    assert cut == 0
    assert outcomes == _brute(level)
    assert sum(outcomes.values()) == 1


@pytest.mark.parametrize("level", [3, 5, 7])
def test_distribution_matches_icepool(level):
    faces, flat = LEVEL_DIE[level]
    ladder = LADDER[LADDER.index(faces) :]
    chain = icepool.d(ladder[-1])
    for n in reversed(ladder[:-1]):
        nxt = chain
        chain = icepool.Die([nxt + n if f == n else icepool.Die([f]) for f in range(1, n + 1)])
    outcomes, _ = roll_outcomes(level, options=SYSTEM.rules)
    totals = {}
    for o, p in outcomes.items():
        if o[0] == "ok":
            totals[o[1]] = totals.get(o[1], 0) + p
    # icepool: the chain total; face 1 on the first die is the fail (its mass = 1/n)
    ice = {int(k): F(chain.quantity(k), chain.denominator()) for k in chain.outcomes()}
    ice.pop(1)
    assert totals == ice


def test_public_chance_api():
    c = Character(attention=5, intuition=3, physique=4)
    assert (
        SYSTEM.chance(c, "attention", difficulty=8, luck=2)
        == chance_at_least(5, 8, luck=2, options=SYSTEM.rules)
        == F(1, 2)
    )
    d = SYSTEM.check_distribution(c, "attention", difficulty=8, luck=2)
    assert d.p_pass == F(1, 2) and sum(d.values()) == 1
    for lv in range(9):
        for t in (-5, 2, 4, 8, 12, 20, 50):
            attrs = {"attention": lv, "intuition": lv, "is_npc": lv == 8}
            assert SYSTEM.chance(Character(**attrs), "perception", difficulty=t) == chance_at_least(
                lv, t, options=SYSTEM.rules
            )
    od = SYSTEM.outcome_distribution(c, "attention", difficulty=8)
    assert sum(od.values()) == 1 and od["failed"] + od["critically_failed"] == F(1, 10)


def test_roll_check_reproducible_and_matches_issue_call():
    import random

    c = Character(attention=5, intuition=3, physique=4)
    a = SYSTEM.roll_check(c, "attention", difficulty=8, luck=2, rng=random.Random(1))
    b = SYSTEM.roll_check(c, "attention", difficulty=8, luck=2, rng=random.Random(1))
    assert (a.total, a.degree, a.details["chain"]) == (b.total, b.degree, b.details["chain"])
    assert a.roll.expression.startswith("L5") and a.roll.check.target == 8
    assert any(e.trait == "luck" and e.delta == -2 for e in a.effects)
    assert c.luck == 6  # effects are data, not applied
