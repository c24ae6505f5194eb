"""Every test vector of spec §9 (book B01-B46, derived D01-D50), one parametrised test per id."""

from fractions import Fraction as F
from itertools import permutations

import pytest

from tabletop_widgets.core import RuleError, ValidationError
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons import combat, conditions, objects
from tabletop_systems.seasons.pool import PoolRoll, contest_distribution, contest_winner, pool_distribution, split_pool
from tabletop_systems.seasons.words import parse_pool
from characters import seasons_novice
from helpers import FixedRng


VECTORS = {}


def vector(vid):
    def deco(fn):
        VECTORS[vid] = fn
        return fn

    return deco


def plan(c, check_id, **o):
    return SYSTEM.pool_plan(c, check_id, **o)


def codes(problems):
    return {p.code for p in problems}


def novice(**kw):
    """A legal novice: D14's attributes, 25 skill points, 10 specialization points."""
    return seasons_novice(**kw)


# -- book examples -----------------------------------------------------------------------------
@vector("B01")
def _():
    assert plan(Character(dexterity=3, larceny=2), "dexterity+larceny", difficulty=0).pool == 5


@vector("B02")
def _():
    assert plan(Character(dexterity=3, larceny=2), "pick_lock", difficulty=0, tool_bonus=2, penalty=1).pool == 6


@vector("B03")
def _():
    assert plan(Character(dexterity=3, larceny=2), "pick_lock", difficulty=4, tool_bonus=2, penalty=1).pool == 2


@vector("B04")
def _():
    r = SYSTEM.roll_check(Character(dexterity=3, larceny=2), "pick_lock", difficulty=3, rng=FixedRng(6, 3))
    assert r.details["faces"] == [6, 3] and r.total == 1 and r.success is True


@vector("B05")
def _():
    thief, guard = Character(dexterity=3, larceny=3), Character(resolve=2, stamina=4, composure=3)
    from tabletop_systems.seasons.checks import resolve_preset

    assert resolve_preset("sneak").opposition == "mental_defence"
    assert plan(thief, "sneak", difficulty=guard.mental_defence).opposition == 2


@vector("B06")
def _():
    c = Character(dexterity=3, larceny=3, manipulation=3, persuasion=2)
    assert plan(c, "sneak", targets=[2, 3, 1]).opposition == 3
    assert plan(c, "persuade", targets="1, 4, 2").opposition == 4


@vector("B07")
def _():
    assert split_pool(14) == (4, 5)
    r = parse_pool("pool 14", 0, 7).roll(FixedRng(1, 1, 1, 1))
    assert r.successes == 5 and len(r.dice) == 4


@vector("B08")
def _():
    assert split_pool(20) == (10, 5)


@vector("B09")
def _():
    assert split_pool(22) == (2, 10)


@vector("B10")
def _():
    assert contest_winner(2, 2) == "tie" and contest_winner(3, 2) == "A"


def _pc_and_criminal():
    pc = Character(dexterity=3, ranged=2, stamina=3, weapons=[{"name": "pistol", "attack_bonus": 2}])
    criminal = Character(strength=3, melee=3, stamina=3, weapons=[{"name": "knife", "attack_bonus": 1}])
    return pc, criminal


@vector("B11")
def _():
    pc, criminal = _pc_and_criminal()
    r = SYSTEM.attack(pc, criminal, "shooting", weapon="pistol", situation=-2, rng=FixedRng(1, 4))
    assert r.details["pool"] == 2 and r.total == 0 and r.success is False and "damage" not in r.details


@vector("B12")
def _():
    pc, criminal = _pc_and_criminal()
    r = SYSTEM.attack(pc, criminal, "shooting", weapon="pistol", rng=FixedRng(7, 2, 8, 9))
    assert r.details["pool"] == 4 and r.details["damage"] == 3
    out = SYSTEM.apply_damage(criminal, r.details["damage"])
    assert criminal.damage == 3 and criminal.health_remaining == 7 and not criminal.in_pain
    assert out.changes["damage"] == (0, 3)


@vector("B13")
def _():
    pc, criminal = _pc_and_criminal()
    r = SYSTEM.attack(criminal, pc, "melee", weapon="knife", rng=FixedRng(4, 6, 7, 1))
    assert r.details["pool"] == 4 and r.details["damage"] == 2
    SYSTEM.apply_damage(pc, 2)
    assert pc.damage == 2 and not pc.pain_active


@vector("B14")
def _():
    hero = Character(strength=4, melee=4)
    mooks = {f"m{i}": Character(stamina=2) for i in range(5)}
    r = SYSTEM.attack(hero, mooks["m0"], "unarmed", rng=FixedRng(6, 6, 6, 1, 1, 1))
    assert r.details["pool"] == 6 and r.total == 3
    out = SYSTEM.quick_fight(r.total, "m0", mooks)
    assert len(out) == 3 and len(set(mooks) - set(out)) == 2


@vector("B15")
def _():
    c = novice()
    assert (
        sum(
            getattr(c, a)
            for a in (
                "intelligence",
                "wits",
                "resolve",
                "presence",
                "manipulation",
                "composure",
                "strength",
                "dexterity",
                "stamina",
            )
        )
        == 24
    )
    assert not {"attribute_points_over", "attribute_points_unspent", "attribute_range"} & codes(SYSTEM.validate(c))


@vector("B16")
def _():
    c = Character(
        science=2,
        melee=2,
        specializations=[
            {"skill": "science", "name": "chemistry", "rating": 3},
            {"skill": "melee", "name": "sword", "rating": 4},
        ],
    )
    base = plan(c, "intelligence+science").pool
    assert plan(c, "intelligence+science", specialization="chemistry").pool == base + 3
    base = plan(c, "strength+melee").pool
    assert plan(c, "strength+melee", specialization="sword").pool == base + 4


@vector("B17")
def _():
    c = Character()
    with pytest.raises(RuleError):
        SYSTEM.add_specialization(c, "melee", "swords")
    bad = Character(specializations=[{"skill": "melee", "name": "swords", "rating": 1}])
    assert "specialization_without_skill" in codes(SYSTEM.validate(bad))


@vector("B18")
def _():
    c = Character(presence=2, manipulation=3, composure=2)
    assert c.drama_start == 7 and c.drama == 7


@vector("B19")
def _():
    c = Character(strength=2, dexterity=3, stamina=3, intelligence=2, wits=3, resolve=2, composure=2)
    assert (c.speed, c.initiative, c.health_max, c.physical_defence, c.social_defence, c.mental_defence) == (
        8,
        7,
        10,
        3,
        2,
        2,
    )


@vector("B20")
def _():
    got = [
        (c.attribute_points_budget, c.skill_points_budget, c.specialization_points_budget)
        for c in (Character(tier=t) for t in ("experienced", "expert", "hero"))
    ]
    assert got == [(20, 35, 16), (25, 45, 22), (30, 55, 28)]


@vector("B21")
def _():
    child, teen = Character(size=3), Character(size=4, problems=["Inexperienced"])
    assert child.health_max == 6 and teen.health_max == 8
    assert "child_inexperienced" in codes(SYSTEM.validate(child))
    assert "child_inexperienced" not in codes(SYSTEM.validate(teen))


def _award(**kw):
    c = Character(presence=2, manipulation=2, composure=2, drama=0)
    SYSTEM.chapter_award(c, **kw)
    return c.drama


@vector("B22")
def _():
    assert [_award(archetype=n) for n in (1, 3, 5)] == [1, 3, 5]


@vector("B23")
def _():
    assert [_award(goal=n) for n in (1, 2, 4)] == [1, 2, 4]


@vector("B24")
def _():
    c = Character(dexterity=3, athletics=2)
    base = plan(c, "chase_on_foot", opponent_pool=3).pool
    assert plan(c, "chase_on_foot", opponent_pool=3, problem=True).pool == base - 3  # Lame when chasing
    p = Character(manipulation=3, persuasion=3)
    base = plan(p, "persuade").pool
    assert plan(p, "persuade", problem=True).pool == base - 3  # Bad reputation, people who know of it
    assert plan(p, "persuade", problem=False).pool == base  # loved ones / strangers: no penalty


@vector("B25")
def _():
    assert [_award(problem=n) for n in (1, 3, 5)] == [1, 3, 5]


@vector("B26")
def _():
    c = Character(dexterity=3, athletics=2, manipulation=2, socialize=2)
    assert (
        plan(c, "chase_on_foot", opponent_pool=3, advantage=1).pool
        == plan(c, "chase_on_foot", opponent_pool=3).pool + 3
    )
    assert plan(c, "first_impression", advantage=True).pool == plan(c, "first_impression").pool + 3


@vector("B27")
def _():
    liar, mark = Character(manipulation=3, persuasion=3), Character(composure=2)
    p = plan(liar, "persuade", difficulty=mark.social_defence)
    assert [k for k, _, _ in p.terms][:2] == ["manipulation", "persuasion"] and p.opposition == 2 and p.pool == 4


@vector("B28")
def _():
    victim = Character(stamina=3)
    r = SYSTEM.threat(victim, 8, rng=FixedRng(6, 7, 1, 2, 3))
    assert r.details["pool"] == 5 and r.details["damage"] == 2
    SYSTEM.apply_damage(victim, r.details["damage"])
    assert victim.damage == 2


@vector("B29")
def _():
    c = Character(resolve=3, occult=3)
    r = SYSTEM.resist_condition(c, "hallucinations", difficulty=6, bonus=2, rng=FixedRng(2, 5))
    assert r.details["pool"] == 2 and not r.success
    cond = c.conditions[0]
    assert cond["id"] == "hallucinations" and cond["penalty"] == 3 and cond["retry_interval"] == "minute"
    ok = Character(resolve=3, occult=3)
    assert SYSTEM.resist_condition(ok, "hallucinations", difficulty=6, bonus=2, rng=FixedRng(6, 1)).success
    assert ok.conditions == []


@vector("B30")
def _():
    c = Character(stamina=3, athletics=3, damage=5)
    assert plan(c, "suppress_pain").opposition == 5


@vector("B31")
def _():
    assert Character(size=5).health_max == 10


@vector("B32")
def _():
    healer, patient = Character(wits=3, medicine=3), Character()
    SYSTEM.apply_damage(patient, 4)
    r = SYSTEM.first_aid(healer, patient, rng=FixedRng(6, 6))
    assert r.details["opposition"] == 4 and r.success and patient.damage == 3
    with pytest.raises(RuleError):
        SYSTEM.first_aid(healer, patient, rng=FixedRng(6, 6))


@vector("B33")
def _():
    doctor, patient = Character(intelligence=4, medicine=4), Character(damage=5)
    r = SYSTEM.treatment(doctor, patient, rng=FixedRng(6, 7, 8))
    assert r.details["opposition"] == 5 and r.total == 3 and patient.damage == 2


@vector("B34")
def _():
    assert _award(archetype=5, goal=5, problem=5) == 15
    assert _award(archetype=5, goal=5, problem=5, extras=3) == 18


@vector("B35")
def _():
    c = novice()
    assert SYSTEM.advance_tier(c) == {"attributes": 5, "skills": 10, "specializations": 6}


@vector("B36")
def _():
    c = Character(dexterity=2, crafts=2)
    assert plan(c, "repair_create", help=3).pool == plan(c, "repair_create").pool + 3


@vector("B37")
def _():
    assert PoolRoll(pool=4, faces=[6, 7, 8, 9]).previous_success_bonus == 3
    assert PoolRoll(pool=3, faces=[6, 7, 8]).previous_success_bonus == 2
    c = Character(manipulation=2, persuasion=2)
    assert plan(c, "persuade", previous=3).pool == plan(c, "persuade").pool + 3


@vector("B38")
def _():
    c = Character(resolve=3)
    assert plan(c, "resolve+occult", problem=True, conditions=1).pool == plan(c, "resolve+occult").pool - 6


@vector("B39")
def _():
    c = Character(dexterity=4, athletics=4)
    assert plan(c, "climb", difficulty=6, penalty=3).pool == plan(c, "climb", difficulty=9).pool == -1


@vector("B40")
def _():
    c = Character(dexterity=3, crafts=2)
    from tabletop_systems.seasons.checks import resolve_preset

    assert resolve_preset("repair_object").duration == "extended"
    first = SYSTEM.roll_check(c, "repair_object", rng=FixedRng(1, 1))
    again = SYSTEM.roll_check(c, "repair_object", rng=FixedRng(6, 1))  # spend another 30 min, roll again
    assert not first.success and again.success


@vector("B41")
def _():
    assert combat.interval_checks(60, 15) == 4


@vector("B42")
def _():
    bat = next(r for r in SYSTEM.data("improvised_weapons") if r["en"] == "Baseball bat")
    assert bat["size"] == 2 and bat["structure"] == 4 == objects.structure_max(2)


@vector("B43")
def _():
    vault = next(r for r in SYSTEM.data("improvised_weapons") if r["en"] == "Bank vault door")
    assert (vault["size"], vault["structure"], vault["durability"], vault["attack_bonus"]) == (8, 16, 8, 8)


@vector("B44")
def _():
    assert objects.effective_durability(5, 4) == 1
    assert plan(Character(strength=3, melee=2), "break_object", durability=5, armour_piercing=4).opposition == 1


@vector("B45")
def _():
    c = Character(resolve=3, investigation=2)
    p = plan(c, "detect_trap", difficulty=6)
    assert p.opposition == 6 and [k for k, _, _ in p.terms] == ["resolve", "investigation"]


@vector("B46")
def _():
    c = Character(dexterity=3, ranged=2)
    assert plan(c, "shooting", aim=True).pool == plan(c, "shooting").pool + 2


# -- derived vectors ----------------------------------------------------------------------------
@vector("D01")
def _():
    c = Character(strength=1, athletics=0)
    r = SYSTEM.roll_check(c, "strength+athletics", rng=FixedRng())
    assert r.details["pool"] == -2 and r.details["impossible"] and r.details["faces"] == [] and r.success is False


@vector("D02")
def _():
    r = SYSTEM.roll_check(Character(dexterity=2, larceny=1), "sneak", difficulty=3, rng=FixedRng())
    assert r.details["pool"] == 0 and r.details["impossible"] and r.success is False


@vector("D03")
def _():
    assert pool_distribution(1).p_pass == F(1, 2)


@vector("D04")
def _():
    assert PoolRoll(pool=3, faces=[5, 6, 10]).successes == 2


@vector("D05")
def _():
    assert [split_pool(n) for n in (10, 11, 21, 30, 31, 40)] == [(10, 0), (1, 5), (1, 10), (10, 10), (1, 15), (10, 15)]


@vector("D06")
def _():
    d = pool_distribution(14)
    assert d.min == 5 and d.max == 9 and d.p_pass == 1


@vector("D07")
def _():
    d = pool_distribution(14, rule_of_10=False)
    assert split_pool(14, False) == (14, 0) and (d.min, d.max) == (0, 14) and d[0] == F(1, 16384)


@vector("D08")
def _():
    d = pool_distribution(4)
    assert [d[k] for k in range(5)] == [F(1, 16), F(4, 16), F(6, 16), F(4, 16), F(1, 16)]
    assert d.p_pass == F(15, 16) and d.mean == 2


@vector("D09")
def _():
    assert pool_distribution(6).p_ge(3) == F(21, 32)


@vector("D10")
def _():
    d = contest_distribution(4, 4)
    assert d.p_pass == F(93, 256) and d[0] == F(70, 256) and d.chance("<", 0) == F(93, 256)


@vector("D11")
def _():
    d = contest_distribution(6, 4)
    assert d.p_pass == F(319, 512) and d[0] == F(105, 512) and d.chance("<", 0) == F(88, 512)


@vector("D12")
def _():
    d = contest_distribution(0, 3)
    assert d.chance("<", 0) == F(7, 8) and d[0] == F(1, 8)


@vector("D13")
def _():
    assert plan(Character(dexterity=3, larceny=3), "sneak", targets=[2, 3, 1]).pool == 3


@vector("D14")
def _():
    c = novice()
    assert (
        c.initiative,
        c.drama_start,
        c.speed,
        c.physical_defence,
        c.social_defence,
        c.mental_defence,
        c.health_max,
        c.attribute_points_spent,
    ) == (6, 9, 9, 4, 4, 1, 10, 15)
    assert [p for p in SYSTEM.validate(c, at_creation=True) if p.severity == "error"] == []


@vector("D15")
def _():
    probs = [p for p in SYSTEM.validate(novice(strength=3)) if p.code == "attribute_points_over"]
    assert len(probs) == 1 and "1 point too many" in probs[0].message["en"] and probs[0].severity == "error"


@vector("D16")
def _():
    c = Character(strength=6)
    assert "attribute_range" in codes(SYSTEM.validate(c))
    assert "attribute_range" not in codes(SYSTEM.with_rules(trait_cap=10).validate(c))


@vector("D17")
def _():
    with pytest.raises(ValidationError):
        Character(wits=0)


@vector("D18")
def _():
    c = Character(tier="hero")
    assert (
        c.attribute_points_budget,
        9 + c.attribute_points_budget,
        c.skill_points_budget,
        c.specialization_points_budget,
    ) == (30, 39, 55, 28)


@vector("D19")
def _():
    c = Character(damage=4)
    assert not c.pain_active
    c.damage = 5
    assert c.pain_active
    assert plan(c, "wits+investigation").pool == plan(Character(), "wits+investigation").pool - 3


@vector("D20")
def _():
    states = []
    for dmg in (2, 3, 6):
        c = Character(size=3, damage=dmg)
        states.append((c.health_max, c.in_pain, c.is_out))
    assert states == [(6, False, False), (6, True, False), (6, True, True)]


@vector("D21")
def _():
    c = Character(stamina=4, athletics=3, damage=5)
    assert plan(c, "suppress_pain", drama=True).pool == 2
    assert SYSTEM.with_rules(pain_penalises_own_suppression=False).pool_plan(c, "suppress_pain", drama=True).pool == 5


@vector("D22")
def _():
    c = Character(stamina=5, athletics=5, damage=5)
    SYSTEM.suppress_pain(c, rng=FixedRng(6, 6, 6, 6))
    assert c.pain_suppressed and not c.pain_active
    SYSTEM.apply_damage(c, 1)
    assert not c.pain_suppressed and c.pain_active
    assert plan(c, "suppress_pain").opposition == 6


@vector("D23")
def _():
    c = Character(damage=5)
    assert c.in_pain
    SYSTEM.apply_healing(c, 1)
    assert c.damage == 4 and not c.in_pain


@vector("D24")
def _():
    c = Character(damage=8)
    out = SYSTEM.apply_damage(c, 4)
    assert c.damage == 10 and c.is_out and out.defeated and SYSTEM.is_defeated(c)


@vector("D25")
def _():
    c = Character()
    assert plan(c, "wits+crafts", help=7).pool == plan(c, "wits+crafts").pool + 5


@vector("D26")
def _():
    assert PoolRoll(pool=1, faces=[6]).previous_success_bonus == 0
    assert PoolRoll(pool=5, faces=[6, 6, 6, 6, 6]).previous_success_bonus == 4


@vector("D27")
def _():
    others = {"a": 2, "b": 3, "c": 1, "d": 2}
    out = combat.quick_fight_takedowns(4, "p", 2, others)
    assert out == ["p", "a", "c", "d"] and "b" not in out


@vector("D28")
def _():
    assert combat.quick_fight_takedowns(6, "p", 2, {"a": 2, "b": 3, "c": 1, "d": 2}) == ["p", "a", "c", "d"]


@vector("D29")
def _():
    assert objects.effective_durability(5, 6) == 0


@vector("D30")
def _():
    att = Character(strength=3, melee=2, weapons=[{"name": "AP blade", "attack_bonus": 2, "armour_piercing": 4}])
    target = Character(stamina=3, armour=[{"name": "vest", "penalty": 3}])
    assert (
        plan(
            att, "armed_attack", weapon="AP blade", difficulty=target.physical_defence, armour=target.armour_penalty
        ).pool
        == 4
    )
    r = SYSTEM.attack(att, target, "melee", weapon="AP blade", rng=FixedRng(1, 1, 1, 1))
    assert r.details["pool"] == 4


def _init(values):
    out = {}
    for cid, v in values.items():
        out[cid] = Character(intelligence=v - 2)
    return out


@vector("D31")
def _():
    order = SYSTEM.roll_initiative(_init({"A": 9, "B": 7, "C": 7, "D": 5}), rng=FixedRng(4, 4, 8, 2))
    assert list(order.order) == ["A", "B", "C", "D"] and len(order.tiebreaks) == 1


@vector("D32")
def _():
    order = SYSTEM.roll_initiative(_init({"B": 7, "C": 7, "E": 7}), rng=FixedRng(6, 6, 3, 2, 9))
    assert list(order.order) == ["C", "B", "E"]
    assert order.rolls["C"].key == (7, 6, 9) and order.rolls["E"].key == (7, 3)


@vector("D33")
def _():
    doctor, patient = Character(intelligence=3, medicine=3), Character(damage=2)
    r = SYSTEM.treatment(doctor, patient, rng=FixedRng(6, 6, 6, 6))
    assert r.total == 4 and patient.damage == 0


@vector("D34")
def _():
    healer, patient = Character(wits=3, medicine=3), Character()
    SYSTEM.apply_damage(patient, 3)
    SYSTEM.first_aid(healer, patient, rng=FixedRng(1, 1, 1))
    with pytest.raises(RuleError, match="first aid already attempted this scene"):
        SYSTEM.first_aid(healer, patient, rng=FixedRng(6, 6, 6))


@vector("D35")
def _():
    r = SYSTEM.threat(Character(stamina=5), 6, rng=FixedRng(6))
    assert r.details["pool"] == 1 and r.details["damage"] == 1
    r = SYSTEM.threat(Character(stamina=6), 6, rng=FixedRng())
    assert r.details["impossible"] and "damage" not in r.details


@vector("D36")
def _():
    c = Character(strength=3, melee=2)
    door = next(r for r in SYSTEM.data("improvised_weapons") if r["en"] == "Wooden door")
    r = SYSTEM.roll_check(c, "break_object", tool_bonus=2, durability=door["durability"], rng=FixedRng(6, 6, 1, 1))
    assert r.details["pool"] == 4 and r.details["structure_damage"] == 2
    assert objects.damage_object(door, 2)["structure_left"] == 8


@vector("D37")
def _():
    door = next(r for r in SYSTEM.data("improvised_weapons") if r["en"] == "Metal door")
    r = SYSTEM.roll_check(
        Character(),
        "explosion",
        dice=8,
        armour_piercing=5,
        durability=door["durability"],
        rng=FixedRng(6, 6, 6, 6, 6, 1, 1, 1),
    )
    assert r.details["pool"] == 8 and r.details["structure_damage"] == 5
    assert objects.damage_object(door, 5)["structure_left"] == 5


@vector("D38")
def _():
    c = Character(damage=5, conditions=[conditions.condition_entry("sickness", category="physical")])
    assert SYSTEM.condition_penalty(c, "physical") == -6
    assert SYSTEM.condition_penalty(c, "social") == -3


@vector("D39")
def _():
    c = Character(presence=3, manipulation=2, composure=2, drama=12)
    SYSTEM.new_story(c)
    assert c.drama == 7


@vector("D40")
def _():
    ledger = SYSTEM.drama_ledger()
    with pytest.raises(RuleError):
        ledger.spend("npc", Character(is_player_character=False, drama=3))
    with pytest.raises(RuleError):
        ledger.spend("broke", Character(drama=0))
    pc = Character(drama=2)
    ledger.spend("pc", pc)
    with pytest.raises(RuleError):
        ledger.spend("pc", pc)


@vector("D41")
def _():
    attacker = Character(strength=4, melee=4)
    defender = Character(drama=3, stamina=3)
    base = plan(attacker, "unarmed_attack", difficulty=defender.physical_defence)
    assert base.pool == 5
    ledger = SYSTEM.drama_ledger()
    effect = ledger.spend("defender", defender, "hinder_opponent")
    SYSTEM.apply_effects(defender, [effect])
    assert plan(attacker, "unarmed_attack", difficulty=3, opponent_drama=1).pool == 2 == 5 + ledger.pool_modifier
    assert defender.drama == 2


@vector("D42")
def _():
    assert Character().speed == 3
    assert Character(strength=5, dexterity=5, stamina=5).speed == 15


@vector("D43")
def _():
    c = Character(tier="experienced")
    assert (c.attribute_points_budget, c.skill_points_budget, c.specialization_points_budget) == (20, 35, 16)


@vector("D44")
def _():
    assert objects.structure_max(7) == 14


@vector("D45")
def _():
    for order in permutations(["+2", "+3", "+4", "-6", "-3"]):
        text = "pool " + "".join(order).lstrip("+")
        e = parse_pool(text, 0, len(text))
        assert e.pool == 0
        assert e.roll(FixedRng()).tree.details["impossible"]


@vector("D46")
def _():
    c = Character(wits=3, resolve=2, investigation=2)
    assert SYSTEM.chance(c, "wits+investigation") == F(3, 4)
    assert (c.health_max, c.initiative, c.physical_defence, c.social_defence, c.mental_defence) == (10, 6, 1, 1, 2)


@vector("D47")
def _():
    c = Character(presence=5, intimidation=5)
    assert [SYSTEM.chance(c, "presence+intimidation", difficulty=d) for d in (1, 9, 10)] == [F(511, 512), F(1, 2), 0]


@vector("D48")
def _():
    c = Character(strength=9, melee=4)
    assert SYSTEM.chance(c, "strength+melee", difficulty=3) == F(1023, 1024)
    assert SYSTEM.chance(c, "strength+melee", difficulty=2) == 1


@vector("D49")
def _():
    c = Character(stamina=9)
    assert c.physical_defence == 9
    assert "attribute_range" in codes(SYSTEM.validate(c))
    assert "attribute_range" not in codes(SYSTEM.with_rules(trait_cap=10).validate(c))


@vector("D50")
def _():
    c = Character(stamina=4, athletics=3, damage=5)
    assert SYSTEM.chance(c, "stamina+athletics", difficulty=5) == 0
    assert SYSTEM.with_rules(auto_pain=False).chance(c, "stamina+athletics", difficulty=5) == F(3, 4)


def test_every_spec_vector_is_covered():
    expected = {f"B{i:02d}" for i in range(1, 47)} | {f"D{i:02d}" for i in range(1, 51)}
    assert set(VECTORS) == expected


@pytest.mark.parametrize("vid", sorted(VECTORS))
def test_vector(vid):
    VECTORS[vid]()
