"""Checks (spec §5): exact odds against brute force and icepool, the §9 check vectors, GM readings."""

import itertools
import random
from fractions import Fraction

import icepool
import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, checks
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckResult
from helpers import DiceInOrder


def brute_p(bonus, dc, net, nat20=True, nat1=False):
    k = 1 + abs(net)
    hits = 0
    for dice in itertools.product(range(1, 21), repeat=k):
        x = max(dice) if net > 0 else min(dice) if net < 0 else dice[0]
        ok = x + bonus >= dc
        if nat20 and x == 20:
            ok = True
        if nat1 and x == 1:
            ok = False
        hits += ok
    return Fraction(hits, 20**k)


def icepool_p(bonus, dc, net):
    d = icepool.d20
    die = d if net == 0 else d.highest(1 + net) if net > 0 else d.lowest(1 - net)
    return Fraction((die + bonus).probability(">=", dc))


@pytest.mark.parametrize("net", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("bonus,dc", [(5, 15), (0, 10), (3, 22), (-2, 1), (7, 8), (2, 25), (0, 21)])
def test_p_success_matches_brute_force(net, bonus, dc):
    assert checks.p_success(bonus, dc, net, options=SYSTEM.rules) == brute_p(bonus, dc, net)


@pytest.mark.parametrize("net", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("bonus,dc", [(5, 15), (0, 10), (7, 8), (-3, 14), (0, 20)])
def test_p_success_matches_icepool_where_no_auto_success(net, bonus, dc):
    # icepool knows nothing of the natural-20 rule: compare only where need <= 20
    assert checks.p_success(bonus, dc, net, options=SYSTEM.rules) == icepool_p(bonus, dc, net)


@pytest.mark.parametrize("net", [-2, -1, 0, 1, 2])
def test_kept_die_pmf_matches_icepool(net):
    d = icepool.d20
    die = d if net == 0 else d.highest(1 + net) if net > 0 else d.lowest(1 - net)
    pmf = checks.kept_die_pmf(net)
    assert sum(pmf.values()) == 1
    for x in range(1, 21):
        assert pmf[x] == Fraction(die.probability(x))


@pytest.mark.parametrize(
    "net,mean,p20",
    [
        (0, Fraction(21, 2), Fraction(1, 20)),
        (1, Fraction(13825, 1000), Fraction(39, 400)),
        (2, Fraction(154875, 10000), Fraction(1141, 8000)),
        (-1, Fraction(7175, 1000), Fraction(1, 400)),
        (-2, Fraction(55125, 10000), Fraction(1, 8000)),
    ],
    ids=["0", "+1", "+2", "-1", "-2"],
)
def test_reference_means_and_p20(net, mean, p20):
    pmf = checks.kept_die_pmf(net)
    assert sum(x * p for x, p in pmf.items()) == mean
    assert pmf[20] == p20


def test_issue_example():
    c = Character(strength=12, dexterity=15, constitution=14, intelligence=10, wisdom=11, charm=8)
    # Stealth 0 XP: the automatic Hindrance cancels the Advantage -> one d20, need 13
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=15, advantages=1, hindrances=0) == Fraction(2, 5)
    r = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=15, advantages=1, rng=random.Random(1))
    assert isinstance(r, CheckResult)
    assert len(r.details["dice"]) == 1 and r.total == r.details["kept"] + 2
    assert r.success == (r.total >= 15 or r.details["kept"] == 20)
    assert r.details["automatic_hindrance"] == 1 and r.details["requested_advantages"] == 1
    assert r.effects == []


# --- §9 vectors about checks ---------------------------------------------------------------------------
def guard_hero(stealth=6):
    return Character(dexterity=14, stealth=stealth, intelligence=12)


@pytest.mark.parametrize(
    "adv,hin,expected",
    [
        pytest.param(0, 0, Fraction(13, 20), id="S25"),
        pytest.param(1, 0, Fraction(351, 400), id="S26"),
        pytest.param(0, 2, Fraction(2197, 8000), id="S27"),
    ],
)
def test_opposed_stealth_vectors(adv, hin, expected):
    hero = guard_hero()
    assert hero.dexterity_mod == 2
    guard = Character(perception=5, wisdom=12)
    dc = checks.opposed_difficulty(guard.perception, guard.wisdom_mod, options=SYSTEM.rules)
    assert dc == 16
    assert SYSTEM.chance(hero, "dexterity+stealth", difficulty=dc, advantages=adv, hindrances=hin) == expected


def test_S25_die_values():
    hero = guard_hero()

    class Fixed(random.Random):
        def __init__(self, v):
            super().__init__(0)
            self.v = v

        def randint(self, a, b):
            return self.v

    assert SYSTEM.roll_check(hero, "dexterity+stealth", difficulty=16, rng=Fixed(8)).success is True
    r = SYSTEM.roll_check(hero, "dexterity+stealth", difficulty=16, rng=Fixed(7))
    assert (r.success, r.total) == (False, 15)


@pytest.mark.parametrize(
    "net,expected",
    [
        (-2, Fraction(1331, 8000)),
        (-1, Fraction(121, 400)),
        (0, Fraction(11, 20)),
        (1, Fraction(319, 400)),
        (2, Fraction(7271, 8000)),
    ],
)
def test_D08(net, expected):
    assert checks.p_success(5, 15, net, options=SYSTEM.rules) == expected


@pytest.mark.parametrize(
    "adv,hin,order,net",
    [
        (2, 1, "cancel_then_cap", 1),
        (3, 0, "cancel_then_cap", 2),
        (3, 1, "cancel_then_cap", 2),
        (3, 1, "cap_then_cancel", 1),
        (2, 1, "cap_then_cancel", 1),
        (3, 0, "cap_then_cancel", 2),
    ],
)
def test_D09_netting(adv, hin, order, net):
    assert checks.net_dice(adv, hin, order) == net


def test_D09_through_the_system_both_readings():
    c = Character(dexterity=14, stealth=3)
    default = SYSTEM.chance(c, "dexterity+stealth", difficulty=15, advantages=3, hindrances=1)
    capped = SYSTEM.with_rules(adv_order="cap_then_cancel").chance(
        c, "dexterity+stealth", difficulty=15, advantages=3, hindrances=1
    )
    assert default == checks.p_success(5, 15, 2, options=SYSTEM.rules)
    assert capped == checks.p_success(5, 15, 1, options=SYSTEM.rules)


@pytest.mark.parametrize("net,expected", [(0, Fraction(1, 20)), (1, Fraction(39, 400)), (-1, Fraction(1, 400))])
def test_D10(net, expected):
    assert checks.p_success(2, 25, net, options=SYSTEM.rules) == expected
    assert checks.succeeds_only_on_20(2, 25, options=SYSTEM.rules) is True


def test_D10_nat20_off_makes_it_impossible():
    rules = SYSTEM.rules.replace(nat20_auto_success=False)
    assert checks.p_success(2, 25, 0, options=rules) == 0
    assert checks.succeeds_only_on_20(2, 25, options=rules) is False
    assert checks.succeeds_only_on_20(2, 22, options=rules) is True  # needed die exactly 20
    assert checks.p_success(2, 22, 0, options=rules) == Fraction(1, 20)


@pytest.mark.parametrize(
    "adv,hin,dice,kept,crit",
    [
        pytest.param(0, 1, [17, 4], 4, None, id="D11-hin"),
        pytest.param(1, 0, [17, 4], 17, None, id="D11-adv"),
        pytest.param(2, 0, [3, 20, 9], 20, "success", id="D11-adv2"),
    ],
)
def test_D11(adv, hin, dice, kept, crit):
    c = Character(dexterity=10, stealth=1)
    r = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=10, advantages=adv, hindrances=hin, rng=DiceInOrder(dice))
    assert r.details["dice"] == dice and r.details["kept"] == kept and r.critical == crit
    kept_flags = [d.kept for d in r.roll.dice]
    assert kept_flags.count(True) == 1


def test_S30_at_most_three_dice():
    c = Character(stealth=2)
    r = SYSTEM.roll_check(c, "dexterity+stealth", advantages=5, rng=random.Random(3))
    assert len(r.details["dice"]) == 3


def test_0xp_hindrance_consequences():
    c = Character(dexterity=14)  # stealth 0 XP
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=12, advantages=1) == Fraction(11, 20)
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=12) == checks.p_success(2, 12, -1, options=SYSTEM.rules)
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=12, hindrances=2) == checks.p_success(
        2, 12, -2, options=SYSTEM.rules
    )
    c2 = Character(dexterity=14, stealth=2)
    assert SYSTEM.chance(c2, "dexterity+stealth", difficulty=12, advantages=1) == Fraction(351, 400)


def test_characteristic_and_secondary_checks():
    c = Character(dexterity=14, wisdom=12)
    assert SYSTEM.chance(c, "dexterity", difficulty=12) == Fraction(11, 20)
    assert c.reaction == 6
    assert SYSTEM.chance(c, "reaction", difficulty=16) == Fraction(11, 20)
    c.perception = 2
    assert SYSTEM.chance(c, "will+perception", difficulty=16) == checks.p_success(
        c.will + 2, 16, 0, options=SYSTEM.rules
    )


def test_substitute_characteristic_allowed():
    c = Character(charm=16, stealth=1)
    r = SYSTEM.roll_check(c, "charm+stealth", difficulty=10, rng=random.Random(1))
    assert r.details["substitute"] is True


def test_drained_characteristic_fails_every_check():
    c = Character(entity_type="extra", strength=3, strength_drain=3, athletics=2)
    assert c.effective["strength"] == 0
    assert SYSTEM.chance(c, "strength", difficulty=2) == 0
    assert SYSTEM.chance(c, "strength+athletics", difficulty=2) == 0


def test_need_one_or_less_is_certain_and_nat1_reading():
    c = Character(dexterity=20, stealth=10, intelligence=10)
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=5) == 1
    strict = SYSTEM.with_rules(nat1_auto_fail=True)
    assert strict.chance(c, "dexterity+stealth", difficulty=5) == Fraction(19, 20)
    assert strict.chance(c, "dexterity+stealth", difficulty=5, advantages=1) == 1 - Fraction(1, 400)


def test_brute_force_through_system_with_options():
    c = Character(dexterity=13, stealth=3)
    for adv in range(3):
        for hin in range(3):
            for dc in (5, 12, 18, 24):
                net = checks.net_dice(adv, hin)
                assert SYSTEM.chance(
                    c, "dexterity+stealth", difficulty=dc, advantages=adv, hindrances=hin, bonus=1
                ) == brute_p(5, dc, net)


def test_distribution_is_of_totals():
    c = Character(dexterity=14, stealth=3)
    d = SYSTEM.check_distribution(c, "dexterity+stealth", difficulty=15, advantages=1)
    assert d.min == 6 and d.max == 25 and d.p_pass == checks.p_success(5, 15, 1, options=SYSTEM.rules)


# --- static values (§5.6) and expert skills without access (§5.13) ---------------------------------------
def test_S01_static_value():
    c = Character(perception=4)  # WIS 10 -> modifier 0
    assert SYSTEM.static_value(c, "wisdom+perception") == 14
    assert SYSTEM.chance(c, "wisdom+perception", difficulty=14, static=True) == 1
    assert SYSTEM.chance(c, "wisdom+perception", difficulty=15, static=True) == 0


@pytest.mark.parametrize(
    "adv,hin,expected", [pytest.param(1, 0, 19, id="D16-adv"), pytest.param(0, 1, 9, id="D16-hin")]
)
def test_D16_static(adv, hin, expected):
    c = Character(perception=4)
    assert SYSTEM.static_value(c, "wisdom+perception", advantages=adv, hindrances=hin) == expected


def test_D16_zero_xp_static_both_readings():
    c = Character(dexterity=14)
    assert SYSTEM.static_value(c, "dexterity+stealth") == 7
    assert SYSTEM.with_rules(static_zero_xp_hindrance=False).static_value(c, "dexterity+stealth") == 12


def test_static_readings_A5_A6():
    c = Character(perception=4, wisdom=14)
    assert SYSTEM.static_value(c, "wisdom+perception") == 16
    assert SYSTEM.with_rules(static_includes_mod=False).static_value(c, "wisdom+perception") == 14
    assert SYSTEM.static_value(c, "wisdom+perception", advantages=2) == 21
    assert SYSTEM.with_rules(static_flat_5=False).static_value(c, "wisdom+perception", advantages=2) == 26


def test_static_rolled_result_has_no_dice():
    c = Character(perception=4)
    r = SYSTEM.roll_check(c, "wisdom+perception", difficulty=14, static=True, rng=random.Random(1))
    assert r.success and r.total == 14 and r.details["dice"] == [] and r.details["static"]


def test_static_only_for_skills():
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(), "wisdom", static=True)


@pytest.mark.parametrize(
    "dc,verdict,success",
    [
        pytest.param(17, "critical_failure", False, id="D17-17"),
        pytest.param(16, "failure", False, id="D17-16"),
        pytest.param(7, "success", True, id="D17-7"),
    ],
)
def test_D17_expert_without_access(dc, verdict, success):
    c = Character(intelligence=14)
    r = SYSTEM.roll_check(c, "intelligence+science", difficulty=dc, rng=random.Random(1))
    assert r.total == 7 and r.degree == verdict and r.success is success
    assert r.details["dice"] == []
    assert SYSTEM.chance(c, "intelligence+science", difficulty=dc) == int(success)
    if verdict == "critical_failure":
        assert r.critical == "failure"


def test_expert_static_advantage_reading_A52():
    c = Character(intelligence=14)
    assert SYSTEM.chance(c, "intelligence+science", difficulty=12, advantages=1) == 1
    assert (
        SYSTEM.with_rules(expert_static_adv=False).chance(c, "intelligence+science", difficulty=12, advantages=1) == 0
    )


def test_expert_with_access_rolls_with_0xp_hindrance():
    c = Character(
        intelligence=14, attributes=[{"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "medicine"]}]
    )
    assert c.has_access("warfare") and c.has_access("medicine")
    assert SYSTEM.chance(c, "intelligence+warfare", difficulty=12) == checks.p_success(2, 12, -1, options=SYSTEM.rules)
    c.warfare = 2
    assert SYSTEM.chance(c, "intelligence+warfare", difficulty=12) == checks.p_success(4, 12, 0, options=SYSTEM.rules)


def test_survival_without_access_outside_familiar_places():
    c = Character(wisdom=20)
    r = SYSTEM.roll_check(c, "wisdom+survival", difficulty=5, outside_familiar=True)
    assert r.success is False and r.degree == "automatic_failure"


def test_checks_catalogue():
    c = Character(intelligence=14)
    ids = {s.id for s in SYSTEM.checks(c)}
    for needed in (
        "strength",
        "charm",
        "will",
        "reaction",
        "dexterity+stealth",
        "intelligence+science",
        "valor",
        "marksmanship",
        "defense_check",
        "trouble",
    ):
        assert needed in ids
    spec = SYSTEM.check(c, "dexterity+stealth")
    assert spec.option("difficulty").kind == "int" and spec.option("static").kind == "bool"
    assert SYSTEM.check(c, "charm+stealth").id == "charm+stealth"


def test_bad_options_and_ids():
    c = Character()
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "luck+stealth")
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "dexterity+flying")
    with pytest.raises(RuleError):
        SYSTEM.chance(c, "dexterity", advantages=-1)
    with pytest.raises(RuleError):
        SYSTEM.chance(c, "dexterity", luck=2)


def test_roll_is_deterministic_and_uses_only_the_rng():
    c = Character(dexterity=14, stealth=3)
    a = SYSTEM.roll_check(c, "dexterity+stealth", advantages=2, rng=random.Random(42))
    random.seed(1)
    b = SYSTEM.roll_check(c, "dexterity+stealth", advantages=2, rng=random.Random(42))
    assert a.details["dice"] == b.details["dice"] and a.total == b.total


# --- re-rolls (M3) -------------------------------------------------------------------------------------
def test_S10_reroll_rerolls_all_dice():
    c = Character(stealth=2)
    r = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=15, advantages=2, rng=random.Random(1))
    r2 = SYSTEM.reroll(c, r, rng=random.Random(2))
    assert len(r2.details["dice"]) == 3
    assert r2.effects[0].trait == "threads" and r2.effects[0].delta == -1
    assert c.threads == 2  # not applied


def test_S09_third_reroll_rejected():
    c = Character(stealth=2, threads=5)
    r = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=15, rng=random.Random(1))
    r = SYSTEM.reroll(c, r, rng=random.Random(2))
    r = SYSTEM.reroll(c, r, rng=random.Random(3))
    assert len(r.details["candidates"]) == 3  # A42: the player may pick any of them
    with pytest.raises(RuleError) as e:
        SYSTEM.reroll(c, r, rng=random.Random(4))
    assert e.value.code == "reroll_limit"


def test_reroll_needs_a_thread_and_not_an_extra():
    r = SYSTEM.roll_check(Character(threads=0), "dexterity", rng=random.Random(1))
    with pytest.raises(RuleError):
        SYSTEM.reroll(Character(threads=0), r)
    with pytest.raises(RuleError):
        SYSTEM.reroll(Character(entity_type="extra", threads=0), r)


def test_D38_reroll_odds():
    """D38 (M3): single-roll p = 11/20, re-rolled on failure up to twice (2 Threads) gives
    1 - (9/20)^3 = 7271/8000. Every die sequence goes through the project's ``roll_check`` and
    ``reroll`` (Threads spent and applied, the limit enforced by the system), each face weighted 1/20."""
    hero = Character(dexterity=14, threads=2)
    assert SYSTEM.chance(hero, "dexterity", difficulty=12) == Fraction(11, 20)
    refused = []

    def p_ends_in_success(previous, threads):
        if previous.success:
            return Fraction(1)
        total = Fraction(0)
        for face in range(1, 21):
            hero = Character(dexterity=14, threads=threads)
            try:
                again = SYSTEM.reroll(hero, previous, rng=DiceInOrder([face]))
            except RuleError as e:
                refused.append(e.code)
                return Fraction(0)  # no re-roll left: the failure stands
            SYSTEM.apply_effects(hero, again.effects)
            total += Fraction(1, 20) * p_ends_in_success(again, hero.threads)
        return total

    p = sum(
        Fraction(1, 20)
        * p_ends_in_success(SYSTEM.roll_check(hero, "dexterity", difficulty=12, rng=DiceInOrder([face])), hero.threads)
        for face in range(1, 21)
    )
    assert p == 1 - (1 - Fraction(11, 20)) ** 3 == Fraction(7271, 8000)
    assert len(refused) == 9**3 and set(refused) <= {"reroll_limit", "not_enough_threads"}


# --- Trouble (§5.10) ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value,band", [(20, "A"), (19, "A"), (18, "B"), (13, "B"), (12, "C"), (7, "C"), (6, "D"), (1, "D")]
)
def test_D18_bands(value, band):
    assert checks.trouble_band(value) == band


@pytest.mark.parametrize(
    "die,margin,forced,band",
    [
        pytest.param(17, 3, None, "A", id="D18-17+3"),
        pytest.param(5, 3, None, "C", id="D18-5+3"),
        pytest.param(2, 3, None, "D", id="D18-2+3"),
        pytest.param(0, -4, "best", "B", id="D18-best-4"),
        pytest.param(16, 3, None, "A", id="S15"),
        pytest.param(16, -2, None, "B", id="S16"),
    ],
)
def test_trouble_with_control(die, margin, forced, band):
    r = SYSTEM.roll_trouble(rng=DiceInOrder([die]), margin=margin, forced=forced)
    assert r.degree == band


def test_S08_forced_best():
    hero = Character(threads=2)
    r = SYSTEM.roll_check(hero, "trouble", forced="best", rng=random.Random(1))
    assert r.total == 20 and r.degree == "A"
    assert [(e.trait, e.delta) for e in r.effects] == [("threads", -1)]
    SYSTEM.apply_effects(hero, r.effects)
    assert hero.threads == 1


def test_S14_catastrophe_and_A12():
    hero = Character(threads=2)
    r = SYSTEM.roll_trouble(hero, forced="worst", margin=5, rng=random.Random(1))
    assert r.total == 1 and r.degree == "D"
    assert [(e.trait, e.delta) for e in r.effects] == [("threads", 1)]
    r2 = SYSTEM.with_rules(catastrophe_controllable=True).roll_trouble(hero, forced="worst", margin=5)
    assert r2.total == 6 and r2.degree == "D"


def test_trouble_uniform_odds_and_distribution():
    odds = checks.trouble_band_odds()
    assert odds == {"A": Fraction(1, 10), "B": Fraction(3, 10), "C": Fraction(3, 10), "D": Fraction(3, 10)}
    d = SYSTEM.check_distribution(Character(), "trouble", margin=3)
    assert d.p_pass == Fraction(5, 20)


def test_trouble_adv_reading_A11():
    with pytest.raises(RuleError):
        SYSTEM.roll_trouble(advantages=1)
    loose = SYSTEM.with_rules(trouble_allow_adv=True)
    r = loose.roll_trouble(advantages=1, rng=random.Random(4))
    assert len(r.details["dice"]) == 2
    assert loose.check_distribution(Character(), "trouble", advantages=1).p_pass == Fraction(39, 400) + Fraction(
        37, 400
    )


@pytest.mark.parametrize(
    "table,names",
    [
        ("augmented", ("Contact!", "Decompensation", "Imbalance", "Overload")),
        ("combat_robot", ("Operation complete", "Energy-saving mode", "Discharge", "Leak")),
        ("veteran", ("Take it, of course!", "Hands off!", "Shame on you!", "To the pitchforks!")),
    ],
)
def test_attribute_trouble_tables(table, names):
    for die, name in zip((20, 15, 9, 3), names):
        assert SYSTEM.roll_trouble(rng=DiceInOrder([die]), table=table).degree_label["en"] == name


def test_trouble_band_names_gm_option():
    s = SYSTEM.with_rules(trouble_band_names={"A": {"en": "All clear", "ru": "Всё чисто"}})
    assert s.roll_trouble(rng=DiceInOrder([20])).degree_label == {"en": "All clear", "ru": "Всё чисто"}


# --- Contest, mutual aid, SwT, group stealth, grapple ------------------------------------------------------
def test_D44_contest_odds():
    o = checks.contest_odds(0, 0)
    assert o["a"] == Fraction(19, 40) and o["tie"] == Fraction(1, 20) and o["b"] == Fraction(19, 40)


@pytest.mark.parametrize(
    "a,b,verdict",
    [pytest.param(13 + 8, 15 + 6, ("tie", 0), id="D35-tie"), pytest.param(14 + 8, 15 + 6, ("a", 1), id="D35-win")],
)
def test_D35(a, b, verdict):
    assert checks.contest_verdict(a, b) == verdict


def test_contest_through_system():
    a, b = Character(dexterity=14, stealth=4), Character(wisdom=12, perception=3)
    res = SYSTEM.contest(a, "dexterity+stealth", b, "wisdom+perception", rng=random.Random(5))
    assert res["winner"] in ("a", "b", "tie")
    odds = SYSTEM.contest_odds(a, "dexterity+stealth", b, "wisdom+perception")
    assert sum(odds.values()) == 1 and odds == checks.contest_odds(6, 4)


def test_S31_helper_difficulty():
    assert checks.helper_difficulty(15) == 10


def test_D33_D34_aid():
    assert checks.aid_counts([True, False]) == (1, 1)
    assert checks.net_dice(*checks.aid_counts([True, False])) == 0
    assert checks.aid_counts([True, True, True]) == (3, 0)  # counted; the roll caps the net at 2 (L109)
    assert checks.net_dice(*checks.aid_counts([True, True, True])) == 2
    helpers = [(Character(dexterity=16, athletics=1), "dexterity+athletics", {}), (Character(), "strength", {})]
    res = SYSTEM.mutual_aid(15, helpers, rng=DiceInOrder([7, 8]))
    assert res["difficulty"] == 10 and res["advantages"] == 1 and res["hindrances"] == 1


def test_mutual_aid_cancels_before_the_cap():
    """L142 with L108-109 (the audit's finding): each helper's success is an Advantage and each failure
    a Hindrance for the main check, and like every other roll they cancel first and then at most 2
    count: three helpers who succeed and one who fails leave a net of +2 (3 dice), not the +1 of
    capping each count first."""
    helpers = [(Character(dexterity=16, athletics=3), "dexterity+athletics", {})] * 3 + [(Character(), "strength", {})]
    res = SYSTEM.mutual_aid(15, helpers, rng=DiceInOrder([10, 10, 10, 2]))
    assert (res["advantages"], res["hindrances"], res["net"]) == (3, 1, 2)
    main = Character(dexterity=16, athletics=3)
    roll = SYSTEM.roll_check(
        main,
        "dexterity+athletics",
        rng=DiceInOrder([4, 9, 17]),
        difficulty=15,
        advantages=res["advantages"],
        hindrances=res["hindrances"],
    )
    assert roll.details["dice"] == [4, 9, 17] and roll.details["kept"] == 17
    capped_first = SYSTEM.with_rules(adv_order="cap_then_cancel")  # the A2 reading a GM may choose
    assert capped_first.mutual_aid(15, helpers, rng=DiceInOrder([10, 10, 10, 2]))["net"] == 1


def _failed(skill_xp, only20):
    return CheckResult("x", {}, False, 5, details={"skill": "stealth", "skill_xp": skill_xp, "only_on_20": only20})


@pytest.mark.parametrize(
    "xp,only20,n",
    [
        pytest.param(0, False, 2, id="D36-0xp"),
        pytest.param(3, True, 2, id="D36-only20"),
        pytest.param(0, True, 3, id="D36-both"),
        pytest.param(3, False, 1, id="D36-plain"),
    ],
)
def test_D36_success_with_trouble(xp, only20, n):
    out = SYSTEM.success_with_trouble(_failed(xp, only20))
    assert out["troubles"] == n and out["threads_gained"] == 0 and len(out["menu"]) == 10


def test_swt_refusals_and_inaccessible_expert():
    with pytest.raises(RuleError):
        SYSTEM.success_with_trouble(CheckResult("x", {}, True, 20))
    with pytest.raises(RuleError):
        SYSTEM.success_with_trouble(_failed(3, False), gm_allows=False)
    r = SYSTEM.roll_check(Character(intelligence=14), "intelligence+science", difficulty=16)
    assert SYSTEM.success_with_trouble(r)["troubles"] == 2  # A16
    assert SYSTEM.success_with_trouble(r, rules_forbid=True)["troubles"] == 3


@pytest.mark.parametrize(
    "helped,penalty",
    [
        pytest.param(["medium", "medium"], -2, id="S28"),
        pytest.param(["medium", "large"], -3, id="D37-ML"),
        pytest.param(["small"], -1, id="D37-S"),
        pytest.param([], 0, id="D37-none"),
    ],
)
def test_group_stealth(helped, penalty):
    assert checks.group_stealth_penalty(helped) == penalty


@pytest.mark.parametrize(
    "a,b,m",
    [
        pytest.param("small", "medium", -1, id="S19-SM"),
        pytest.param("small", "large", -2, id="S19-SL"),
        pytest.param("large", "small", 2, id="S19-LS"),
        pytest.param("tiny", "large", -3, id="D42"),
    ],
)
def test_grapple(a, b, m):
    assert checks.grapple_modifier(a, b) == m


def test_grapple_needs_gm_value_for_huge():
    with pytest.raises(RuleError):
        checks.grapple_modifier("huge", "medium")


def test_dex_cap_scope_A31():
    c = Character(dexterity=16, weapons=2, armour_bonus=3, armour_max_dex=1)
    assert c.dexterity_mod_effective == 1
    narrow = SYSTEM.with_rules(dex_cap_scope="defense_only")
    assert checks.plan_check(c, "valor", options=SYSTEM.rules).bonus == 2 + 1
    assert checks.plan_check(c, "valor", options=narrow.rules).bonus == 2 + 3
    assert SYSTEM.chance(c, "dexterity", difficulty=12) == Fraction(10, 20)
    assert narrow.chance(c, "dexterity", difficulty=12) == Fraction(12, 20)


def test_no_reroll_without_dice():
    c = Character(perception=4, threads=4)
    with pytest.raises(RuleError) as e:
        SYSTEM.reroll(c, SYSTEM.roll_check(c, "wisdom+perception", static=True))
    assert e.value.code == "no_dice"
    with pytest.raises(RuleError):
        SYSTEM.reroll(c, SYSTEM.roll_check(c, "wisdom+perception", bought="success", difficulty=12))


def test_trouble_through_the_check_distribution_reads_the_gm_options():
    gm = SYSTEM.with_rules(trouble_allow_adv=True)
    d = checks.check_distribution(Character(), "trouble", options=gm.rules, advantages=1)
    assert d == gm.check_distribution(Character(), "trouble", advantages=1)
    with pytest.raises(RuleError):
        checks.check_distribution(Character(), "trouble", options=SYSTEM.rules, advantages=1)
