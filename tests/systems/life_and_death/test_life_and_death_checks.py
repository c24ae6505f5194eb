"""Dice and checks (spec §5, vectors D-01..D-19a, tables 5.9a-d), exact odds vs icepool / brute force."""

import itertools
import random
from fractions import Fraction
from math import comb

import icepool
import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death.checks import retry_penalty
from tabletop_systems.life_and_death.combat import opposed
from tabletop_systems.life_and_death.dice import (
    net_law,
    p_fumble,
    p_more_crits,
    p_net_at_least,
    p_opposed_win,
    read_faces,
)
from tabletop_widgets.core import CheckResult, Effect, RuleError, T, ValidationError
from tabletop_widgets.dice import DiceError, Distribution
from tabletop_widgets.dice.words import WordContext


def opts(**changes):
    """The GM options with ``changes`` (a system built with them)."""
    return SYSTEM.with_rules(**changes).rules


F = Fraction


def brute(n, penalty=0, epic=0):
    """Enumerate all 10^n faces: law of (net, fumble)."""
    out = {}
    for faces in itertools.product(range(1, 11), repeat=n):
        r = read_faces(faces, penalty=penalty, epic=epic)
        out[(r.net, r.fumble)] = out.get((r.net, r.fumble), 0) + 1
    return {k: F(v, 10**n) for k, v in out.items()}


# -- §9.2 dice vectors -------------------------------------------------------------------------------
FACE_VECTORS = [
    ("D-01", [1, 5, 6, 10], 0, 0, 2, dict(raw=2, crits=1, ones=1, net=2, fumble=False, passed=True)),
    ("D-02", [1, 2, 3], 0, 0, 1, dict(raw=0, net=0, fumble=True, passed=False)),
    ("D-03", [2, 3, 4, 5], 0, 0, 1, dict(net=0, fumble=False)),
    ("D-04", [6, 7, 2], 1, 0, 1, dict(raw=2, net=1, passed=True)),
    ("D-05", [6, 1, 2], 1, 0, 1, dict(net=0, fumble=True)),
    ("D-06", [6, 1, 2], 0, 0, 1, dict(net=1, passed=True, fumble=False)),
    ("D-07", [1, 3], 0, 1, 1, dict(net=1, fumble=False, passed=True)),
    ("D-09", [6, 6, 3, 1], 0, 0, 3, dict(net=2, passed=False, fumble=False)),
    ("S-11", [1, 4, 5], 0, 0, 1, dict(net=0, fumble=True)),
]


@pytest.mark.parametrize("vid,faces,pen,epic,dc,expected", FACE_VECTORS, ids=[v[0] for v in FACE_VECTORS])
def test_face_vectors(vid, faces, pen, epic, dc, expected):
    r = read_faces(faces, penalty=pen, epic=epic, difficulty=dc)
    for k, v in expected.items():
        assert getattr(r, k) == v, (vid, k)


def test_D05_fumble_basis_raw():
    assert read_faces([6, 1, 2], penalty=1, fumble_basis="raw").fumble is False


def test_D05_through_system_both_readings():
    c = Character(dexterity=3)
    r = SYSTEM.roll_check(c, "dexterity+stealth", faces=[6, 1, 2])
    assert (r.total, r.critical, r.details["outcome"]) == (0, "failure", "critical_failure")
    r2 = SYSTEM.with_rules(fumble_basis="raw").roll_check(c, "dexterity+stealth", faces=[6, 1, 2])
    assert r2.critical is None and r2.details["fumble"] is False


def test_D06_related_specialization_through_system():
    c = Character(dexterity=3, skills={"craft:smithing": 2}, custom_skills={"craft": "dexterity"})
    r = SYSTEM.roll_check(c, "dexterity+craft:jewellery", faces=[6, 1, 2])
    assert r.total == 1 and r.success and not r.details["fumble"]


@pytest.mark.parametrize("epic,net", [(0, 0), (2, 2)], ids=["D-08", "D-08-epic"])
def test_D08_nonpositive_pool(epic, net):
    c = Character(dexterity=1, epic_dice=2, reputation=2)
    r = SYSTEM.roll_check(c, "dexterity", dice_mod=-2, epic=epic, rng=random.Random(3))
    assert r.details["faces"] == [] and r.total == net and not r.details["fumble"]
    assert r.success is (net >= 1)


def test_D08_forbid_option():
    c = Character(dexterity=1)
    with pytest.raises(RuleError):
        SYSTEM.with_rules(pool_nonpositive="forbid").roll_check(c, "dexterity", dice_mod=-2)


@pytest.mark.parametrize(
    "a,d,winner", [(0, 0, "passive"), (2, 2, "passive"), (3, 2, "active")], ids=["D-10", "D-11", "opposed-win"]
)
def test_opposed_ties_to_defender(a, d, winner):
    A = read_faces([6] * a + [2])
    D = read_faces([7] * d + [3])
    assert opposed(A, D) == winner


@pytest.mark.parametrize(
    "vid,attempt,rule,dice",
    [
        ("S-07", 3, "cumulative", 2),
        ("S-07-flat", 3, "flat", 1),
        ("D-12", 4, "cumulative", 3),
        ("D-12-flat", 4, "flat", 1),
        ("S-08", 1, "cumulative", 0),
        ("S-09", 1, "cumulative", 0),
    ],
    ids=lambda x: x if isinstance(x, str) and x[:2] in ("S-", "D-") else None,
)
def test_retry_penalty(vid, attempt, rule, dice):
    assert retry_penalty(attempt, options=opts(retry_penalty=rule)) == dice


def test_retry_applies_to_pool():
    c = Character(dexterity=4)
    assert SYSTEM.pool_for(c, "dexterity", retry=3).pool == 2
    assert SYSTEM.with_rules(retry_penalty="flat").pool_for(c, "dexterity", retry=3).pool == 3


def test_D13_D14_D15():
    assert p_fumble(3) == F(61, 1000)
    assert p_net_at_least(3, 1) == F(7, 8)
    assert p_net_at_least(4, 2) == F(11, 16)
    assert p_net_at_least(2, 1, penalty=1) == F(1, 4)


@pytest.mark.parametrize(
    "na,nd,p",
    [(3, 2, F(1, 2)), (2, 2, F(5, 16)), (5, 5, F(193, 512)), (1, 1, F(1, 4))],
    ids=["D-16-3v2", "D-16-2v2", "D-16-5v5", "D-16-1v1"],
)
def test_D16_opposed(na, nd, p):
    assert p_opposed_win(na, nd) == p


def test_D17_crit_comparison():
    assert p_more_crits(3, 2) == F(2807, 12500)


def test_D18_bare_vs_untrained():
    c = Character(alertness=4)
    assert SYSTEM.chance(c, "alertness", difficulty=2) == F(11, 16)
    assert SYSTEM.chance(c, "alertness+detection", difficulty=2) == F(5, 16)
    c2 = Character(alertness=4, skills={"detection": 1})
    assert SYSTEM.chance(c2, "alertness+detection", difficulty=2) == F(13, 16)


def test_D19_impossible_and_level0():
    assert SYSTEM.chance(Character(might=1), "might+athletics", difficulty=1) == 0
    assert SYSTEM.chance(Character(dexterity=3, skills={"stealth": 0}), "dexterity+stealth") == F(1, 2)
    assert SYSTEM.chance(Character(dexterity=3), "dexterity", difficulty=4) == 0


@pytest.mark.parametrize("adds,p", [(False, F(7, 8)), (True, F(31, 32))], ids=["D-19a", "D-19a-adds-level"])
def test_D19a_related_specialization(adds, p):
    c = Character(dexterity=3, skills={"craft:smithing": 2})
    system = SYSTEM.with_rules(other_spec_adds_level=adds)
    assert system.chance(c, "dexterity+craft:jewellery", difficulty=1) == p


def test_D19a_level0_other_spec_does_not_help():
    c = Character(dexterity=3, skills={"craft:smithing": 0})
    assert SYSTEM.chance(c, "dexterity+craft:jewellery") == F(1, 2)


# -- tables 5.9 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(1, 11))
def test_table_59a_binomial(n):
    assert net_law(n) == {k: F(comb(n, k), 2**n) for k in range(n + 1)}


@pytest.mark.parametrize("n", range(1, 11))
def test_table_59ab_vs_icepool(n):
    ip = n @ icepool.Die({0: 5, 1: 5})
    for d in range(1, 6):
        assert p_net_at_least(n, d) == sum((ip.probability(k) for k in range(d, n + 1)), F(0))


FUMBLE = {
    1: F(1, 10),
    2: F(9, 100),
    3: F(61, 1000),
    4: F(369, 10**4),
    5: F(2101, 10**5),
    6: F(11529, 10**6),
    7: F(61741, 10**7),
    8: F(325089, 10**8),
    9: F(1690981, 10**9),
    10: F(8717049, 10**10),
}


@pytest.mark.parametrize("n", range(1, 11))
def test_table_59c_fumble(n):
    assert p_fumble(n) == FUMBLE[n] == F(1, 2) ** n - F(2, 5) ** n


UNTRAINED = {
    1: [0, 0, 0, 0, 0],
    2: [F(1, 4), 0, 0, 0, 0],
    3: [F(1, 2), F(1, 8), 0, 0, 0],
    4: [F(11, 16), F(5, 16), F(1, 16), 0, 0],
    5: [F(13, 16), F(1, 2), F(3, 16), F(1, 32), 0],
}


@pytest.mark.parametrize("n", range(1, 6))
def test_table_59d_untrained(n):
    c = Character(dexterity=n)
    for d in range(1, 6):
        assert SYSTEM.chance(c, "dexterity+stealth", difficulty=d) == UNTRAINED[n][d - 1]


@pytest.mark.parametrize("n,pen,epic", [(1, 0, 0), (2, 1, 0), (3, 0, 1), (3, 1, 2), (4, 0, 0)])
def test_exact_law_vs_brute_force(n, pen, epic):
    b = brute(n, pen, epic)
    law = net_law(n, pen, epic)
    for v in set(k[0] for k in b):
        assert law[v] == sum(p for (net, _), p in b.items() if net == v)
    assert p_fumble(n, pen, epic) == sum(p for (_, fum), p in b.items() if fum)


# -- the public API of the issue --------------------------------------------------------------------------
def test_issue_api():
    c = Character(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=1)
    assert SYSTEM.chance(c, "dexterity", difficulty=2) == F(1, 2)  # P(Bin(3,1/2) >= 2)
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=2) == F(1, 8)  # untrained: raw >= 3
    c.skills = {"stealth": 2}
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=2) == F(13, 16)
    r = SYSTEM.roll_check(c, "dexterity", difficulty=2, rng=random.Random(1))
    assert isinstance(r, CheckResult)
    rng = random.Random(1)
    faces = [rng.randint(1, 10) for _ in range(3)]
    assert r.details["faces"] == faces
    assert r.total == sum(f >= 6 for f in faces)
    assert r.success == (r.total >= 2)
    assert [d.value for d in r.roll.dice] == faces
    assert r.roll.check.target == 2


def test_distribution_and_options():
    c = Character(dexterity=3)
    d = SYSTEM.check_distribution(c, "dexterity", difficulty=2)
    assert isinstance(d, Distribution) and d.p_pass == F(1, 2) and d[3] == F(1, 8)
    assert SYSTEM.chance(c, "dexterity", difficulty=2, epic=1) == F(7, 8)
    assert SYSTEM.chance(c, "dexterity", difficulty=2, dice_mod=1) == F(11, 16)
    assert SYSTEM.chance(c, "dexterity", difficulty=6) == 0


@pytest.mark.parametrize("bad", ["dexterity+athletics", "power+charm", "luck+x", "strength", "dexterity+Bad Key", "+x"])
def test_bad_check_ids(bad):
    with pytest.raises(ValueError):
        SYSTEM.chance(Character(), bad)


@pytest.mark.parametrize("d", [0, -1, 1.5, True])
def test_bad_difficulty(d):
    with pytest.raises(ValueError):
        SYSTEM.chance(Character(), "might", difficulty=d)


def test_adhoc_skill_uses_named_parameter():
    c = Character(dexterity=2, alertness=4, skills={"archery": 1})
    assert SYSTEM.pool_for(c, "dexterity+archery").pool == 3
    assert SYSTEM.pool_for(c, "alertness+survival").penalty == 1


def test_helmet_alertness_dice():
    c = Character(alertness=3, helmet="closed", skills={"detection": 1})
    assert SYSTEM.pool_for(c, "alertness").pool == 1
    assert SYSTEM.pool_for(c, "alertness+detection").pool == 2
    c.helmet = "open"
    assert SYSTEM.pool_for(c, "alertness").pool == 2
    assert SYSTEM.pool_for(c, "dexterity").pool == 1


def test_initiative_will_coordination_checks():
    c = Character(
        dexterity=3,
        alertness=2,
        power=2,
        complexity=3,
        features=[{"id": "speed", "level": 1, "origin": "bought"}],
        helmet="closed",
    )
    assert SYSTEM.pool_for(c, "initiative").pool == 6  # D-63
    assert SYSTEM.pool_for(c, "will").pool == 5
    assert SYSTEM.pool_for(c, "coordination", attackers=3).pool == 2
    assert SYSTEM.pool_for(c, "coordination", joint=True).pool == 5
    ids = {s.id for s in SYSTEM.checks(c)}
    assert {"might", "luck", "initiative", "will", "coordination", "might+athletics", "dexterity+stealth"} <= ids


def test_epic_dice_effects_not_applied():
    c = Character(dexterity=2, reputation=3, epic_dice=2)
    r = SYSTEM.roll_check(c, "dexterity", epic=2, faces=[1, 3])
    assert r.total == 2 and r.success and c.epic_dice == 2
    assert [(e.trait, e.delta) for e in r.effects] == [("epic_dice", -2)]
    SYSTEM.apply_effects(c, r.effects)
    assert c.epic_dice == 0
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "dexterity", epic=1)
    q = Character(mode="quick", epic_dice=1)
    with pytest.raises(RuleError):
        SYSTEM.roll_check(q, "dexterity", epic=1)


def test_roll_is_reproducible():
    c = Character(dexterity=5)
    a = SYSTEM.roll_check(c, "dexterity", rng=random.Random(42))
    b = SYSTEM.roll_check(c, "dexterity", rng=random.Random(42))
    assert a.details["faces"] == b.details["faces"]


def test_unknown_option():
    with pytest.raises(ValueError):
        SYSTEM.roll_check(Character(), "might", luck=2)


# -- the ld word ----------------------------------------------------------------------------------------------
def parse(text):
    return SYSTEM.dice_words()[0].parse(text, 0, len(text), context=WordContext())


def test_word_basic():
    e = parse("ld 4")
    r = e.roll(random.Random(1))
    rng = random.Random(1)
    faces = [rng.randint(1, 10) for _ in range(4)]
    assert [d.value for d in r.dice] == faces and r.total == sum(f >= 6 for f in faces)
    assert e.distribution()[2] == F(3, 8)
    assert e.distribution().p_pass is None


@pytest.mark.parametrize(
    "text,p",
    [
        ("ld 4 dc 2", F(11, 16)),
        ("ld 3 -1s dc 1", F(1, 2)),
        ("ld 3+1 dc 2", F(11, 16)),
        ("ld 6 e2 dc 3", p_net_at_least(6, 1)),
        ("ld 5 +1s dc 2", F(31, 32)),
        ("ld 3 vs ld 2", F(1, 2)),
        ("ld 5 vs ld 5", F(193, 512)),
    ],
)
def test_word_odds(text, p):
    assert parse(text).distribution().p_pass == p


def test_word_damage_distribution_matches_D72():
    d = parse("ld 2 vs ld 1 dmg 3 armour 2").distribution()
    assert d[0] == F(1, 2) and d[2] == F(36, 125)


def test_word_roll_vs_and_damage():
    r = parse("ld 6 vs ld 4 dmg 3 armour 2 zone limb maxhp 10").roll(random.Random(5))
    assert r.tree.details["faces"] and "damage" in r.tree.details
    assert len(r.dice) == 5 + 4


def test_word_with_sheet():
    c = Character(dexterity=3, alertness=2)
    e = SYSTEM.parse_roll("ld dexterity+stealth dc 1", c)
    assert e.left.pool == 3 and e.left.penalty == 1
    e2 = SYSTEM.parse_roll("ld dexterity+alertness+1", c)
    assert e2.left.pool == 6


@pytest.mark.parametrize(
    "text,pos",
    [
        ("ld x", 3),
        ("ld 4 dc", 7),
        ("ld 4 zone arm", 10),
        ("ld 4 foo", 5),
        ("ld 4 ?", 5),
        ("ld 4 dc 0", 5),
        ("ld 400", 3),
    ],
)
def test_word_errors(text, pos):
    with pytest.raises(DiceError) as ei:
        parse(text)
    assert ei.value.position == pos


def test_word_absolute_positions():
    text = "2#ld 4 dc"
    with pytest.raises(DiceError) as ei:
        SYSTEM.dice_words()[0].parse(text, 2, len(text), context=WordContext())
    assert ei.value.position == len(text)


def test_word_pattern():
    w = SYSTEM.dice_words()[0]
    assert w.pattern.match("ld 4") and not w.pattern.match("ldx 4") and w.name == "ld"


def test_word_bound_epic_dice_refused():
    c = Character(dexterity=3, reputation=2, epic_dice=1)
    assert SYSTEM.parse_roll("ld dexterity e1 dc 2", c).left.epic == 1
    with pytest.raises(DiceError) as ei:
        SYSTEM.parse_roll("ld dexterity e2 dc 2", c)
    assert ei.value.position == len("ld dexterity ")


def test_word_damage_with_success_modifiers_vs_brute_force():
    import itertools
    from tabletop_systems.life_and_death.combat import resolve_attack

    d = parse("ld 2 -1s e1 vs ld 1 +1s dmg 2 armour 1").distribution()
    out = {}
    for fa in itertools.product(range(1, 11), repeat=2):
        for fd in itertools.product(range(1, 11), repeat=1):
            o = resolve_attack(read_faces(fa, penalty=1, epic=1), read_faces(fd, epic=1), 2, 1, options=SYSTEM.rules)
            out[o.damage] = out.get(o.damage, 0) + F(1, 1000)
    assert dict(d) == out


def test_pool_limit():
    with pytest.raises(ValueError):
        SYSTEM.chance(Character(dexterity=3), "dexterity", dice_mod=1000)
    with pytest.raises(ValidationError):
        Character(skills={"athletics": 11})


def test_refused_effect_leaves_the_earlier_ones_unapplied():
    """All or none: a cast's EP cost and an epic die the character does not have are one batch;
    the refused epic die leaves the EP where they were (and the same batch applies whole once
    the die is there)."""
    c = Character(complexity=3, power=3, reputation=2, epic_dice=0, ep=5)
    batch = [Effect("ep", -3, T("spell", "заклинание")), Effect("epic_dice", -1, T("epic", "эпик"))]
    with pytest.raises(RuleError) as ei:
        SYSTEM.apply_effects(c, batch)
    assert ei.value.code == "not_enough_epic_dice"
    assert c.ep == 5 and c.epic_dice == 0
    c.epic_dice = 1
    assert SYSTEM.apply_effects(c, batch) == {"ep": (5, 2), "epic_dice": (1, 0)}
    assert c.ep == 2 and c.epic_dice == 0


def test_several_effects_on_one_trait_clamp_in_turn():
    c = Character(complexity=3, power=3, reputation=2, epic_dice=1, ep=5)
    assert c.ep_max == 6
    assert SYSTEM.apply_effects(c, [Effect("epic_dice", 5, T("a", "а")), Effect("epic_dice", -1, T("b", "б"))]) == {
        "epic_dice": (1, 1)
    }
    assert SYSTEM.apply_effects(c, [Effect("ep", 10, T("a", "а")), Effect("ep", -3, T("b", "б"))]) == {"ep": (5, 3)}
    assert c.ep == 3  # 5 + 10 held at 6, then 6 - 3
