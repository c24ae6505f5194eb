"""Every test vector of spec §9 as one parametrised test whose id is the vector id (the detailed
tests live in the other files; this is the checklist that nothing was skipped)."""

import random
from fractions import Fraction as F

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character, combat, inventory as inv, magic, progression
from tabletop_systems.life_and_death.checks import RetryTracker, retry_penalty
from tabletop_systems.life_and_death.dice import p_fumble, p_more_crits, p_net_at_least, p_opposed_win, read_faces
from tabletop_systems.life_and_death.validation import feature_budget
from tabletop_widgets.core import RuleError


def opts(**changes):
    """The GM options with ``changes`` (a system built with them)."""
    return SYSTEM.with_rules(**changes).rules


RACE = dict(might=2, dexterity=2, alertness=2, complexity=2, power=2, luck=2)
V = {}


def vector(vid):
    def deco(fn):
        V[vid] = fn
        return fn

    return deco


def codes(c, system=SYSTEM):
    return {p.code for p in system.validate(c)}


def f(fid, level=1, origin="bought", **kw):
    return {"id": fid, "level": level, "origin": origin, **kw}


def aged(race, age, system=SYSTEM):
    c = system.Character()
    system.apply_race_and_age(c, race, age)
    return c


def pool(net, crits=0):
    return read_faces([10] * crits + [7] * (net - crits) + [3])


# -- §9.1 book examples ------------------------------------------------------------------------------------------
@vector("S-01")
def _():
    fs = [f("claws", 1, "racial"), f("claws", 1), f("horns", kind="mutation")]
    assert feature_budget(Character(features=fs))["cost"] == 3
    assert progression.starting_reputation("good", fs, options=SYSTEM.rules) == -1
    assert progression.starting_reputation("good", fs[:2], options=SYSTEM.rules) == 1


@vector("S-02")
def _():
    assert (
        inv.parse_natural_armour("шерстьI")["level"] == 1 and inv.parse_natural_armour("чешуяIIII")["type"] == "scales"
    )


@vector("S-03")
def _():
    assert Character(age="adolescent", features=[f("natural_armour", 4, note="чешуя")]).natural_armour == 3
    assert Character(age="young", features=[f("natural_armour", 4, note="чешуя")]).natural_armour == 4


@vector("S-04")
def _():
    assert inv.coin_weight(azure=1, emerald=13, fire=10) == 0.5


@vector("S-05")
def _():
    assert inv.money_value(azure=1, emerald=13, fire=10) == 240


@vector("S-06")
def _():
    assert magic.spell_complexity(magic.SpellDesign(functions=1, form="simple"), 3, options=SYSTEM.rules) == 2
    with pytest.raises(RuleError):
        magic.spell_complexity(
            magic.SpellDesign(functions=1, form="simple", complexity_factor=2), 3, options=SYSTEM.rules
        )


@vector("S-07")
def _():
    t = RetryTracker()
    t.attempt("thief", "lock A"), t.attempt("thief", "lock A")
    assert retry_penalty(t.attempt("thief", "lock A"), options=SYSTEM.rules) == 2
    assert retry_penalty(t.attempt("thief", "lock B"), options=SYSTEM.rules) == 0
    assert retry_penalty(3, options=opts(retry_penalty="flat")) == 1


@vector("S-08")
def _():
    t = RetryTracker()
    t.attempt("thief", "lock A"), t.attempt("thief", "lock A")
    t.new_scene()
    assert retry_penalty(t.attempt("thief", "lock A"), options=SYSTEM.rules) == 0


@vector("S-09")
def _():
    t = RetryTracker()
    assert [t.attempt("x", "attack", in_combat=True) for _ in range(3)] == [1, 1, 1]


@vector("S-10")
def _():
    c = Character(complexity=5, power=3, skills={"life": 5})
    d = magic.SpellDesign(functions=2, form="simple")
    assert SYSTEM.cast(c, "life", d, faces=[6, 6, 1, 1, 1]).outcome == "basic_spell"
    assert SYSTEM.cast(c, "life", d, faces=[2, 2, 2, 2, 2]).outcome == "nothing"
    assert SYSTEM.cast(c, "life", d, faces=[2, 2, 2, 2, 2]).level == 3


@vector("S-11")
def _():
    r = read_faces([1, 4, 5])
    assert r.net == 0 and r.fumble


@vector("S-12")
def _():
    o = combat.resolve_attack(pool(1), None, 3, 2, spell=True, target_max_hp=4, options=SYSTEM.rules)
    assert o.zone == "torso" and o.damage == 3 and o.zone_effect is None


@vector("S-13")
def _():
    assert magic.physical_spell_other_facet(3, read_faces([7, 9, 2]).net, ["x"]) == {"damage": 1, "effects": []}


@vector("S-14")
def _():
    assert progression.change_reputation(-1, 1) == 1


@vector("S-15")
def _():
    assert progression.high_start(4, options=SYSTEM.rules) == {"xp": 60, "param_points": 4, "skill_points": 8}
    assert progression.high_start(4, options=opts(highlevel_param_points="level_minus_1"))["param_points"] == 3


@vector("S-16")
def _():
    c = Character()
    SYSTEM.apply_race_and_age(c, RACE, "young", base_hp=10)
    SYSTEM.spend_param_point(c, "might")
    SYSTEM.spend_param_point(c, "might")
    assert (c.might, c.hp_max) == (4, 12)


@vector("S-17")
def _():
    assert combat.luck_targeting({"a": 2, "b": 0, "c": 1}) == ["b"]
    assert combat.luck_targeting({"a": 0, "b": 0}) == ["a", "b"]


@vector("S-18")
def _():
    assert combat.transformed_damage(3, True) == 6


# -- §9.2 dice ------------------------------------------------------------------------------------------------------
@vector("D-01")
def _():
    r = read_faces([1, 5, 6, 10], difficulty=2)
    assert (r.raw, r.crits, r.ones, r.net, r.fumble, r.passed) == (2, 1, 1, 2, False, True)


@vector("D-02")
def _():
    r = read_faces([1, 2, 3])
    assert (r.raw, r.net, r.fumble) == (0, 0, True)


@vector("D-03")
def _():
    r = read_faces([2, 3, 4, 5])
    assert (r.net, r.fumble) == (0, False)


@vector("D-04")
def _():
    r = read_faces([6, 7, 2], penalty=1, difficulty=1)
    assert (r.raw, r.net, r.passed) == (2, 1, True)


@vector("D-05")
def _():
    assert read_faces([6, 1, 2], penalty=1).fumble and not read_faces([6, 1, 2], penalty=1, fumble_basis="raw").fumble


@vector("D-06")
def _():
    c = Character(dexterity=3, skills={"craft:smithing": 1})
    r = SYSTEM.roll_check(c, "dexterity+craft:jewellery", faces=[6, 1, 2])
    assert (r.total, r.success, r.details["fumble"]) == (1, True, False)


@vector("D-07")
def _():
    r = read_faces([1, 3], epic=1, difficulty=1)
    assert (r.net, r.fumble, r.passed) == (1, False, True)


@vector("D-08")
def _():
    c = Character(dexterity=1, reputation=2, epic_dice=2)
    r = SYSTEM.roll_check(c, "dexterity", dice_mod=-2, rng=random.Random(1))
    assert (r.details["faces"], r.total, r.success, r.details["fumble"]) == ([], 0, False, False)
    assert SYSTEM.roll_check(c, "dexterity", dice_mod=-2, epic=2).total == 2


@vector("D-09")
def _():
    r = read_faces([6, 6, 3, 1], difficulty=3)
    assert (r.net, r.passed, r.fumble) == (2, False, False)


@vector("D-10")
def _():
    assert combat.opposed(read_faces([2]), read_faces([3])) == "passive"


@vector("D-11")
def _():
    assert combat.opposed(read_faces([6, 7]), read_faces([8, 9])) == "passive"


@vector("D-12")
def _():
    assert retry_penalty(4, options=SYSTEM.rules) == 3 and retry_penalty(4, options=opts(retry_penalty="flat")) == 1


@vector("D-13")
def _():
    assert p_fumble(3) == F(61, 1000) and p_net_at_least(3, 1) == F(7, 8)


@vector("D-14")
def _():
    assert p_net_at_least(4, 2) == F(11, 16)


@vector("D-15")
def _():
    assert SYSTEM.chance(Character(dexterity=2), "dexterity+stealth") == F(1, 4)


@vector("D-16")
def _():
    assert [p_opposed_win(a, b) for a, b in ((3, 2), (2, 2), (5, 5), (1, 1))] == [
        F(1, 2),
        F(5, 16),
        F(193, 512),
        F(1, 4),
    ]


@vector("D-17")
def _():
    assert p_more_crits(3, 2) == F(2807, 12500)


@vector("D-18")
def _():
    c = Character(alertness=4)
    assert SYSTEM.chance(c, "alertness", difficulty=2) == F(11, 16)
    assert SYSTEM.chance(c, "alertness+detection", difficulty=2) == F(5, 16)
    assert SYSTEM.chance(Character(alertness=4, skills={"detection": 1}), "alertness+detection", difficulty=2) == F(
        13, 16
    )


@vector("D-19")
def _():
    assert SYSTEM.chance(Character(might=1), "might+athletics") == 0
    assert SYSTEM.chance(Character(dexterity=3, skills={"stealth": 0}), "dexterity+stealth") == F(1, 2)
    assert SYSTEM.chance(Character(dexterity=3), "dexterity", difficulty=4) == 0


@vector("D-19a")
def _():
    c = Character(dexterity=3, skills={"craft:smithing": 2})
    assert SYSTEM.chance(c, "dexterity+craft:jewellery") == F(7, 8)
    assert SYSTEM.with_rules(other_spec_adds_level=True).chance(c, "dexterity+craft:jewellery") == F(31, 32)


# -- §9.3 character ------------------------------------------------------------------------------------------------
@vector("D-20")
def _():
    c = Character(might=3, dexterity=2, alertness=4, complexity=3, power=2, luck=4, skills={"athletics": 2})
    assert (c.initiative, c.will, c.ep_max, c.sp_max, c.ip_max, c.magic_defence, c.carry_capacity_kg) == (
        6,
        5,
        5,
        7,
        6,
        3,
        25,
    )


@vector("D-21")
def _():
    c = Character()
    assert (c.initiative, c.will, c.ep_max, c.sp_max, c.ip_max, c.carry_capacity_kg) == (2, 2, 2, 2, 2, 5)


@vector("D-22")
def _():
    c = Character(**{p: 5 for p in RACE}, skills={"athletics": 5})
    assert (c.initiative, c.will, c.ep_max, c.sp_max, c.ip_max, c.carry_capacity_kg) == (10, 10, 10, 10, 10, 50)


@vector("D-23")
def _():
    c = aged(dict(RACE, might=3), "child")
    assert (c.might, c.dexterity) == (2, 3)


@vector("D-24")
def _():
    c = aged(dict(RACE, might=1), "child")
    assert (c.might, c.dexterity) == (1, 2)


@vector("D-25")
def _():
    c = aged(dict(RACE, might=3, dexterity=5), "child")
    assert (c.might, c.dexterity) == (2, 5)
    with pytest.raises(RuleError):
        aged(dict(RACE, might=3, dexterity=5), "child", SYSTEM.with_rules(age_swap_overflow="error"))


@vector("D-26")
def _():
    c = aged(dict(RACE, power=2, might=4), "adult")
    assert (c.power, c.might, c.base_damage) == (1, 5, 1)
    with pytest.raises(RuleError):
        SYSTEM.spend_param_point(c, "might")


@vector("D-27")
def _():
    assert (aged(dict(RACE, alertness=1), "young").power) == 2
    assert aged(dict(RACE, alertness=1), "young", SYSTEM.with_rules(age_swap_scope="minus_only")).power == 3


@vector("D-28")
def _():
    assert Character(age="young", features=[f("claws", 2)]).hand_damage == 3
    assert Character(age="child", features=[f("claws", 1)]).hand_damage == 1
    assert Character(age="adult").hand_damage == 1


@vector("D-29")
def _():
    b = feature_budget(
        Character(age="adolescent", features=[f("pathos", 1, "negative"), f("tail", 0), f("will_feature", 2)])
    )
    assert (b["available"], b["cost"]) == (3, 3)


@vector("D-30")
def _():
    assert feature_budget(Character(features=[f("horns", kind="mutation"), f("tail", 0)]))["cost"] == 2


@vector("D-31")
def _():
    neg = lambda *lv: [f(f"n{i}", x, "negative", kind="negative") for i, x in enumerate(lv)]  # noqa: E731
    assert "E_NEGATIVE_LIMIT" in codes(Character(features=neg(1, 1, 1)))
    assert "E_NEGATIVE_LIMIT" not in codes(Character(features=neg(2)))
    assert "E_NEGATIVE_LIMIT" in codes(Character(features=neg(2, 1)))


@vector("D-32")
def _():
    c = Character(dexterity=3, skills={"stealth": 2, "archery": 2}, custom_skills={"archery": "dexterity"})
    assert "E_SKILL_BUDGET" in codes(c)


@vector("D-33")
def _():
    weak = f("weak", 1, "negative", kind="negative", param_mods={"might": -1})
    assert "E_SKILL_CAP" in codes(Character(might=2, features=[weak], skills={"athletics": 3}))
    ok = Character(might=2, features=[weak], skills={"athletics": 2, "lifting": 1}, custom_skills={"lifting": "might"})
    assert not {"E_SKILL_CAP", "E_SKILL_BUDGET"} & codes(ok)


@vector("D-34")
def _():
    c = Character(
        race_params=dict(RACE, luck=1),
        luck=1,
        features=[f("jinx", 1, "negative", kind="negative", param_mods={"luck": -1})],
    )
    assert "E_PARAM_ZERO_BY_FEATURE" in codes(c)


@vector("D-35")
def _():
    mk = lambda t: (  # noqa: E731
        Character(
            complexity=3,
            features=[f("shapeshifter")],
            skills={"transformation": t},  # noqa: E731
            custom_skills={"transformation": "complexity"},
        ).max_forms
    )
    assert [mk(0), mk(1), mk(2)] == [1, 3, 5]


@vector("D-36")
def _():
    mk = lambda luck, tiers: codes(  # noqa: E731
        Character(
            luck=luck,
            complexity=3,
            features=[f("shapeshifter")],  # noqa: E731
            skills={"transformation": 1},
            custom_skills={"transformation": "complexity"},
            forms=[{"creature": f"c{i}", "tier": t} for i, t in enumerate(tiers)],
        )
    )
    assert not {"E_FORM_TIER_LUCK", "E_FORMS_TIER_SUM"} & mk(3, [3, 3, 3])
    assert "E_FORM_TIER_LUCK" in mk(3, [4])
    assert "E_FORMS_TIER_SUM" in mk(4, [4, 4, 3])


@vector("D-37")
def _():
    assert progression.propagate_to_forms([{"might": 2, "start_might": 2}], "might", 3)[0]["might"] == 4


@vector("D-38")
def _():
    def sr(*args):
        return progression.starting_reputation(*args, options=SYSTEM.rules)

    assert [
        sr("good", []),
        sr("evil", []),
        sr("good", [f("horns", kind="mutation")]),
        sr("good", [f("inconspicuous")]),
    ] == [1, -1, -1, 0]


@vector("D-39")
def _():
    ok = [("E_NAME_FORMAT" not in codes(Character(name=n))) for n in ("Арен Лис", "Арен-Лис", "Ар'ен", "Арен Лис Вел")]
    assert ok == [True, False, False, False]


@vector("D-40")
def _():
    assert progression.high_start(3, options=SYSTEM.rules) == {"xp": 40, "param_points": 3, "skill_points": 6}


@vector("D-41")
def _():
    c = Character(race_params=dict(RACE, might=2), might=2, base_hp=10, pending_improvements=1)
    hp = c.hp
    SYSTEM.improve(c, "parameter", "might")
    assert (c.hp_max, c.hp) == (11, hp + 1)


@vector("D-42")
def _():
    c = Character(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=1)
    assert (c.initiative, c.will, c.magic_defence, c.ep, c.ep_max, c.sp, c.ip, c.level, c.epic_dice) == (
        5,
        5,
        3,
        5,
        5,
        4,
        3,
        1,
        0,
    )


@vector("D-43")
def _():
    assert (Character(xp=39).level, Character(xp=40).level) == (2, 3)


# -- §9.4 combat ---------------------------------------------------------------------------------------------------
def dmg(w, an, ac, dn, dc, arm, options=SYSTEM.rules):
    return combat.resolve_attack(pool(an, ac), pool(dn, dc), w, arm, options=options)


@vector("D-50")
def _():
    o = dmg(3, 4, 1, 2, 1, 2)
    assert (o.armour_pierced, o.damage) == (False, 3)


@vector("D-51")
def _():
    o = dmg(3, 4, 2, 2, 1, 2)
    assert (o.armour_pierced, o.damage) == (True, 5)


@vector("D-52")
def _():
    o = dmg(1, 2, 0, 1, 0, 4)
    assert (o.hit, o.damage) == (True, 0)


@vector("D-53")
def _():
    o = dmg(5, 3, 3, 3, 0, 0)
    assert (o.hit, o.damage) == (False, 0)


@vector("D-54")
def _():
    assert dmg(2, 2, 1, 1, 1, 2).damage == 1
    assert dmg(2, 2, 1, 1, 1, 2, opts(armour_pierce_rule="any_attacker_crit")).damage == 3


@vector("D-55")
def _():
    c = Character(age="young", features=[f("claws", 2)])
    assert combat.resolve_attack(pool(2), None, c.hand_damage, 0, options=SYSTEM.rules).damage == 5


@vector("D-56")
def _():
    assert [combat.zone_armour(3, "head_face", h, options=SYSTEM.rules) for h in ("none", "open", "closed")] == [
        0,
        2,
        3,
    ]


@vector("D-57")
def _():
    kinds = [getattr(combat.zone_effect("limb", d, 10), "kind", None) for d in (2, 3, 4, 5)]
    assert kinds == [None, "limb_broken", "limb_broken", "limb_severed"]


@vector("D-58")
def _():
    first = lambda pct: next(d for d in range(1, 8) if combat.reaches(d, 7, pct))  # noqa: E731
    assert (first(25), first(50), first(75)) == (2, 4, 6)


@vector("D-59")
def _():
    assert combat.zone_effect("neck", 3, 12).kind == "decapitated"
    assert combat.zone_effect("neck", 3, 12, undead=True).kind == "head_severed"


@vector("D-60")
def _():
    assert combat.zone_effect("head_skull", 6, 8).lethal and not combat.zone_effect("head_skull", 6, 8, heads=2).lethal


@vector("D-61")
def _():
    assert combat.zone_effect("limb", 4, 8, spell=True).kind == "limb_broken"
    assert combat.zone_effect("limb", 8, 8, spell=True).kind == "limb_severed"


@vector("D-62")
def _():
    o = combat.resolve_attack(
        pool(1), None, 2, 0, zone="limb", target_max_hp=10, transforming=True, options=SYSTEM.rules
    )
    assert (o.damage, o.zone_effect.kind) == (6, "limb_severed")


@vector("D-63")
def _():
    assert Character(dexterity=3, alertness=2, helmet="closed", features=[f("speed")]).initiative_pool == 6


@vector("D-64")
def _():
    a, b = Character(dexterity=3, alertness=3), Character(dexterity=3, alertness=2)
    o = SYSTEM.roll_initiative(
        {"B": b, "A": a}, rng=random.Random(0), faces={"A": [6, 6, 6, 1, 1, 1], "B": [6, 6, 6, 1, 1]}
    )
    assert list(o.order) == ["A", "B"]


@vector("D-65")
def _():
    cs = {k: Character(dexterity=2, alertness=2) for k in "ABC"}
    assert combat.p_coordination(cs["A"], 3) == F(1, 2)
    assert combat.coordinate_attack(cs, ["C", "B", "A"], faces={k: [1] for k in "ABC"}, options=SYSTEM.rules)[
        "attack_in_round_1"
    ] == ["C"]


@vector("D-66")
def _():
    s = combat.start_turn(Character(features=[f("speed", 2)]), 1, options=SYSTEM.rules)
    assert (s.ordinary_left, s.extra_left) == (1, 0)


@vector("D-67")
def _():
    assert (
        combat.start_turn(Character(), 2, options=SYSTEM.rules).ordinary_left,
        combat.start_turn(Character(features=[f("speed", 2)]), 2, options=SYSTEM.rules).extra_left,
    ) == (2, 1)


@vector("D-68")
def _():
    assert (combat.run_distance(3), combat.run_distance(3, grid=True)) == (15, 6)


@vector("D-69")
def _():
    assert (combat.block_pool(5, "back"), combat.block_pool(5, "side")) == (3, 4)


@vector("D-70")
def _():
    assert SYSTEM.pool_for(Character(alertness=3, helmet="closed"), "alertness").pool == 1
    assert combat.noncombat_skill_dice(0) == -1


@vector("D-71")
def _():
    d = combat.damage_distribution(1, None, 2, 1, options=SYSTEM.rules)
    assert dict(d) == {0: F(1, 2), 2: F(2, 5), 3: F(1, 10)} and d.mean == F(11, 10)


@vector("D-72")
def _():
    d = combat.damage_distribution(2, 1, 3, 2, options=SYSTEM.rules)
    assert dict(d) == {0: F(1, 2), 2: F(36, 125), 3: F(2, 25), 4: F(87, 1000), 5: F(9, 200)} and d.mean == F(1389, 1000)
    d2 = combat.damage_distribution(2, 1, 3, 2, options=opts(armour_pierce_rule="any_attacker_crit"))
    assert (d2[2], d2[4], d2.mean) == (F(7, 25), F(19, 200), F(1405, 1000))


@vector("D-73")
def _():
    d = combat.damage_distribution(2, 2, 1, 3, options=SYSTEM.rules)
    assert (d[0], d[2], d[3]) == (F(1831, 2000), F(31, 500), F(9, 400))


# -- §9.5 energetics -----------------------------------------------------------------------------------------------
@vector("D-80")
def _():
    with pytest.raises(RuleError):
        magic.spell_complexity(
            magic.SpellDesign(functions=1, triggers=1, form="sharpened", facet="khtruum"), 3, options=SYSTEM.rules
        )


@vector("D-81")
def _():
    assert (
        magic.spell_complexity(
            magic.SpellDesign(functions=1, triggers=1, form="sharpened", facet="yinsta"), 3, options=SYSTEM.rules
        )
        == 2
    )


@vector("D-82")
def _():
    assert magic.spell_complexity(magic.SpellDesign(facet="yinsta"), 0, options=SYSTEM.rules) == 0


@vector("D-83")
def _():
    assert magic.raw_complexity(magic.SpellDesign(transmutation=True, pinpoint=True, form="complex")) == 9


@vector("D-84")
def _():
    assert [magic.mix_cost(s) for s in (["a", "a"], ["a", "b"], ["a", "a", "b"])] == [1, 2, 3]


@vector("D-85")
def _():
    c = Character(complexity=4, power=3, skills={"life": 3})
    assert magic.casting_pool(4, 3, 2, 2) == 3 and magic.spell_level(2, options=SYSTEM.rules) == 2
    assert SYSTEM.chance(c, "cast:life", functions=1, form="simple", target_complexity=2) == F(1, 2)


@vector("D-86")
def _():
    assert magic.spell_parameters(3) == {"damage": 3, "duration_rounds": 3, "max_targets": 9, "cast_range_m": 15}


@vector("D-87")
def _():
    assert magic.ep_after_cast(5, 3, True) == 2 and magic.ep_after_cast(5, 3, False) == 5


@vector("D-88")
def _():
    with pytest.raises(RuleError):
        magic.ep_after_cast(3, 4, True)


@vector("D-89")
def _():
    with pytest.raises(RuleError):
        magic.check_brightness(4, 3)


@vector("D-90")
def _():
    s = magic.Spell(brightness=2)
    r = magic.boost(s, Character(complexity=3, power=3), 1, 1, faces=[])
    assert not r["ok"] and s.dissipated


@vector("D-91")
def _():
    assert magic.boost(magic.Spell(brightness=2), Character(power=3))["brightness"] == 3


@vector("D-92")
def _():
    for s in (
        magic.Spell(brightness=3),
        magic.Spell(brightness=1, boosted=True),
        magic.Spell(brightness=1, casters=("a", "b")),
    ):
        with pytest.raises(RuleError):
            magic.boost(s, Character(power=3))


@vector("D-93")
def _():
    assert (magic.mixed_radius([5, 8]), magic.mixed_radius([3, 4, 4])) == (6, 3)


@vector("D-94")
def _():
    assert magic.mixed_damage_type(["physical", "spiritual"]) == "spiritual"
    assert magic.mixed_damage_type(["pattern", "physical"]) == "pattern"


@vector("D-95")
def _():
    A, B, C = Character(power=3), Character(power=2), Character(power=2)
    parts = {
        "A": {"character": A, "brightness": 3, "complexity": 2},
        "B": {"character": B, "brightness": 2, "complexity": 3},
        "C": {"character": C, "brightness": 2, "complexity": 1},
    }
    r = magic.joint_cast(parts, ["A", "B", "C"], faces={"A": [6, 1], "B": [6, 1], "C": [1, 1]}, options=SYSTEM.rules)
    assert (r["lost_action"], r["brightness"], r["complexity"], r["turn_of"]) == (["C"], 5, 3, "B")


@vector("D-96")
def _():
    r = magic.facet_transition(4, ["a", "b"], [1, 1], options=SYSTEM.rules)
    assert (r["cleared"], r["pool"], r["per_facet"], r["total"]) == (["a", "b"], 2, 3, 6)
    assert magic.facet_transition(4, ["a", "b"], [1, 1], options=opts(facet_transition_damage="once"))["total"] == 3


@vector("D-97")
def _():
    assert (magic.spell_level(0, options=SYSTEM.rules), magic.spell_level(3, options=SYSTEM.rules)) == (1, 3)
    p1 = opts(spell_level_rule="complexity_plus_1")
    assert (magic.spell_level(0, options=p1), magic.spell_level(3, options=p1)) == (1, 4)


# -- §9.6 inventory, reputation, epic dice, XP ---------------------------------------------------------------------
@vector("D-100")
def _():
    assert [inv.weapon_cost(3, r) for r in ("common", "rare", "unique")] == [3, 6, 9]


@vector("D-101")
def _():
    assert inv.armour_cost(2, "rare") == 4


@vector("D-102")
def _():
    assert inv.enchanted_cost(2, 2, "vial", "common", ["physical_trigger"]) == 6


@vector("D-103")
def _():
    assert inv.enchanted_cost(2, 2, "vial", "rare", ["physical_trigger"]) == 11
    assert inv.enchanted_cost(2, 2, "vial", "rare", ["physical_trigger"], scope="spell_only") == 10


@vector("D-104")
def _():
    assert (
        inv.enchanted_cost(
            1, 1, "object", effects=["mental_trigger", "personal_use"], intent_radius_m=5, category="artifact"
        )
        == 11
    )


@vector("D-105")
def _():
    assert inv.enchanted_cost(1, 1, "ring", friends=3, category="amulet") == 6


@vector("D-106")
def _():
    assert [inv.helmet_weight(w) for w in (12, 15, 7.5, 2)] == [1.0, 1.5, 1.0, 0]


@vector("D-107")
def _():
    assert [inv.coin_weight(fire=n) for n in (19, 20, 40, 59)] == [0, 0.5, 1.0, 1.0]


@vector("D-108")
def _():
    assert inv.item_weight(0.4) == 0


@vector("D-109")
def _():
    c = Character(features=[f("well_stocked")], inventory=[{"name": "x", "category": "simple", "cost": 21}])
    assert "E_INVENTORY_BUDGET" in codes(c)


@vector("D-110")
def _():
    assert {"emerald": 1} in inv.money_for_points(10) and {"agate": 100} in inv.money_for_points(10)


@vector("D-111")
def _():
    cr = progression.change_reputation
    assert [cr(1, -1), cr(-2, 3), cr(3, -1), cr(2, -3)] == [-1, 2, 2, -2]


@vector("D-112")
def _():
    assert progression.change_reputation(1, -1, inconspicuous=True) == 0


@vector("D-113")
def _():
    c = Character(reputation=-3, epic_dice=3)
    SYSTEM.change_reputation(c, 1)
    assert c.epic_dice == 2


@vector("D-114")
def _():
    assert SYSTEM.award_epic_die(Character(reputation=1, epic_dice=1)) == 1


@vector("D-115")
def _():
    c = Character(might=3, skills={"athletics": 1}, skill_xp={"athletics": 4})
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (2, 0)


@vector("D-116")
def _():
    c = Character(might=3, skills={"athletics": 3}, skill_xp={"athletics": 4})
    SYSTEM.end_of_session(c, {"athletics": 1})
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (3, 5)


@vector("D-117")
def _():
    c = Character(might=3, skills={"athletics": 3}, skill_xp={"athletics": 5}, pending_improvements=1)
    SYSTEM.improve(c, "parameter", "might")
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (4, 0)


@vector("D-118")
def _():
    assert (Character(xp=19).level, Character(xp=20).level) == (1, 2)
    c = Character(xp=38, might=5, dexterity=5, alertness=5)
    SYSTEM.end_of_session(c, {"athletics": 1, "stealth": 1, "detection": 1})
    assert (c.level, c.pending_improvements) == (3, 1)


@vector("D-119")
def _():
    c = Character(might=3, dexterity=3, alertness=3, features=[f("carelessness", 1, "negative")])
    r = SYSTEM.end_of_session(c, {"athletics": 1, "stealth": 1, "detection": 1}, careless_pick="stealth")
    assert (r["awards"]["stealth"], r["session_xp"]) == (0, 2)


SPEC_IDS = (
    [f"S-{i:02d}" for i in range(1, 19)]
    + [f"D-{i:02d}" for i in range(1, 20)]
    + ["D-19a"]
    + [f"D-{i}" for i in range(20, 44)]
    + [f"D-{i}" for i in range(50, 74)]
    + [f"D-{i}" for i in range(80, 98)]
    + [f"D-{i}" for i in range(100, 120)]
)


def test_every_spec_vector_is_registered():
    assert sorted(V) == sorted(SPEC_IDS)


@pytest.mark.parametrize("vid", SPEC_IDS)
def test_vector(vid):
    V[vid]()
