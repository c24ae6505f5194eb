"""Every test vector of spec §9 (TV-B: the book's numeric examples; TV-D: derived), one
parametrised case per vector id. Dice are scripted face sequences (``Scripted``)."""

from fractions import Fraction as F

import pytest

from tabletop_systems.ret import SYSTEM, Character, chance_at_least, die_label, level_roll, roll_outcomes
from tabletop_systems.ret import combat
from tabletop_systems.ret.checks import Divider, apply_divider, flaw_difficulty, resolve_difficulty
from tabletop_systems.ret.advancement import cost, new_skill_level_from_d6, talent_level_from_d6
from tabletop_widgets.core import RuleError

from ret_testkit import B65_WEAPONS, build, d50_fighters, DERIVED_VECTORS, healer, PYROMANCER, Scripted

V = {}
STRICT, NORMAL, GENEROUS = Divider(5, 1), Divider(4, 2), Divider(3, 3)
GM = SYSTEM.with_rules(param_dp=3, ability_dp=3)


def vector(vid):
    def deco(fn):
        V[vid] = fn
        return fn

    return deco


def lr(level, *faces, options=SYSTEM.rules, **kw):
    return level_roll(level, rng=Scripted(*faces), options=options, **kw)


def big(**kw):
    """A sturdy character (Health max 14) for damage vectors."""
    return Character(physique=7, endurance=7, fine_motor=7, body_control=7, **kw)


# ---- TV-B: the book ---------------------------------------------------------------------------
@vector("TV-B1")
def _():
    assert (
        cost(3, 4, "recommended", options=SYSTEM.rules),
        cost(4, 5, "recommended", options=SYSTEM.rules),
        cost(3, 5, "recommended", options=SYSTEM.rules),
    ) == (3, 4, 7)


@vector("TV-B2")
def _():
    c = Character(
        dp_params=3, dp_abilities=3, abilities=[{"name": "Nav", "kind": "skill", "base_param": "wits", "level": 3}]
    )
    s = SYSTEM.with_rules(costing="simplified")
    s.raise_parameter(c, "wits")
    s.raise_ability(c, "Nav")
    assert (c.dp_params, c.dp_abilities) == (2, 2)


@vector("TV-B3")
def _():
    assert Character().health_max == 6


@vector("TV-B4")
def _():
    c = Character()
    assert (-3 * c.health_max, -3 * c.sanity_max) == (-18, -18)


@vector("TV-B5")
def _():
    c = big()
    c.health = -54
    gm = SYSTEM.with_rules(threshold_multiplier=0)  # the book's record predates the GM threshold
    r = gm.roll_check(c, "survival", rng=Scripted(20, 45))
    assert r.total == 65 and r.details["state"] == "stabilised"
    gm.apply_result(c, r)
    assert c.health == -53


@vector("TV-B6")
def _():
    assert Character().sanity_max == 6


@vector("TV-B7")
def _():
    c = Character(composure=6, leadership=6)
    c.sanity, c.luck = -32, 4
    gm = SYSTEM.with_rules(threshold_multiplier=0)
    r = gm.roll_check(c, "self_control", luck=4, rng=Scripted(12, 18))
    assert r.total == 34 and r.details["state"] == "stabilised"
    gm.apply_result(c, r)
    assert (c.sanity, c.luck) == (-31, 0)


@vector("TV-B8")
def _():
    got = [
        lr(3, 1, d4, options=SYSTEM.with_rules(cinematic_luck=cin).rules).luck_gained
        for cin in (False, True)
        for d4 in (2, 1)
    ]
    assert got == [1, 3, 3, 5]


@vector("TV-B9")
def _():
    assert Character().luck == 6


@vector("TV-B10")
def _():
    assert Character().level == 3


@vector("TV-B11")
def _():
    assert Character(physique=4, endurance=4).strike_power == 2


@vector("TV-B12")
def _():
    ab = [{"name": "Nav", "kind": "skill", "base_param": "wits", "level": 7}]
    c = Character(dp=7, abilities=ab)
    SYSTEM.convert_ability(c, "Nav", "Navigator")
    assert c.ability("Navigator")["level"] == 3 and c.dp == 0
    c = Character(dp_abilities=3, abilities=ab)
    SYSTEM.with_rules(costing="simplified").convert_ability(c, "Nav", "Navigator")
    assert c.dp_abilities == 0


@vector("TV-B13")
def _():
    assert [talent_level_from_d6(d) for d in (1, 3, 6)] == [3, 4, 5]


@vector("TV-B14")
def _():
    assert (SYSTEM.rules["n_skills"], SYSTEM.rules["n_talents"]) == (3, 1)
    c = Character(
        abilities=[{"name": f"s{i}", "kind": "skill", "base_param": "wits", "level": 3} for i in range(4)]
        + [{"name": f"t{i}", "kind": "talent", "base_param": "wits", "level": 3} for i in range(2)]
    )
    assert not [p for p in GM.with_rules(n_skills=4, n_talents=2).validate(c) if p.code == "ability_count"]


@vector("TV-B15")
def _():
    c = Character(
        money="300 gold",
        weapons=[{"name": "sword", "damage": 3}],
        items=[{"name": "healing potion"}, {"name": "medallion"}, {"name": "crystal"}],
    )
    assert not [p for p in GM.validate(c) if p.code.startswith("starting_")]


@vector("TV-B16")
def _():
    probs = SYSTEM.with_rules(creation_cap=5, param_dp=99).validate(Character(physique=6))
    assert any(p.code == "above_cap" and p.field == "physique" for p in probs)


@vector("TV-B17")
def _():
    a, b = lr(3, 1, 3), lr(3, 1, 1)
    assert (a.fail_degree, a.critical, b.critical) == (3, False, True)


@vector("TV-B18")
def _():
    r = lr(3, 1, 2, luck=65)
    assert (r.luck_spent, r.luck_gained, r.total) == (65, 1, None)


@vector("TV-B19")
def _():
    out, _ = roll_outcomes(3, options=SYSTEM.rules)
    assert sum(p for o, p in out.items() if o[0] == "ok" and o[2] == 5) == F(1, 115200)


@vector("TV-B20")
def _():
    r = SYSTEM.roll_check(Character(), "attention", difficulty=4, luck=2, rng=Scripted(3))
    assert r.total == 5 and r.success


@vector("TV-B21")
def _():
    c = Character(abilities=[{"name": "Sea Navigation", "kind": "skill", "base_param": "wits", "level": 3}])
    r = SYSTEM.roll_check(c, "skill:Sea Navigation", difficulty=8, luck=2, rng=Scripted(3))
    assert r.total == 8 and r.success


@vector("TV-B22")
def _():
    c = Character(abilities=[{"name": "Magic", "kind": "talent", "base_param": "education", "level": 3}])
    r = SYSTEM.roll_check(c, "talent:Magic", luck=2, rng=Scripted(3))
    assert r.total == 8 and SYSTEM.contest(r.details["level_roll"], lr(5, 8)) == "defender"


@vector("TV-B23")
def _():
    c = Character()
    c.health, c.sanity = -3, -3
    assert SYSTEM.roll_check(c, "survival", rng=Scripted(4)).details["difficulty"] == 3
    assert SYSTEM.roll_check(c, "self_control", rng=Scripted(4)).details["difficulty"] == 3


@vector("TV-B24")
def _():
    r = SYSTEM.roll_check(Character(), "sanity_test", harm=7, divider=(3, 0), rng=Scripted(6, 6))
    assert (r.total, r.details["mitigation"], r.details["loss"]) == (12, 4, 3)


@vector("TV-B25")
def _():
    r = SYSTEM.roll_check(Character(composure=6), "sanity_test", harm=8, divider="strict", rng=Scripted(10))
    assert (r.details["mitigation"], r.details["loss"]) == (3, 5)


@vector("TV-B26")
def _():
    assert apply_divider(14, STRICT) == 3


@vector("TV-B27")
def _():
    assert (SYSTEM.divide(7, "normal"), SYSTEM.divide(7, (5, 1))) == (3, 2)


@vector("TV-B28")
def _():
    assert (apply_divider(None, STRICT, fail=True, on_fail="base"), apply_divider(20, STRICT)) == (1, 5)
    assert (apply_divider(None, GENEROUS, fail=True, on_fail="base"), apply_divider(27, GENEROUS)) == (3, 12)


@vector("TV-B29")
def _():
    c = Character()
    st = combat.TurnState.start(c, options=SYSTEM.rules)
    pairs = 1
    for _ in range(2):
        st.use("attack")
        st.use("action")
        SYSTEM.apply_effects(c, combat.buy_extra_turn(c, st, 1, options=SYSTEM.rules))
        pairs += 1
    assert pairs == 3 and c.sanity == 3 and st.defence_refused and st.speed_left == 3


@vector("TV-B30")
def _():
    gm = SYSTEM.with_rules(sanity_extra_turn_from_round=2, refusal_extra_turn_from_round=3).rules
    c = Character()
    with pytest.raises(RuleError):
        combat.buy_extra_turn(c, combat.TurnState.start(c, options=SYSTEM.rules), 1, options=gm)
    st = combat.TurnState.start(c, options=SYSTEM.rules)
    combat.buy_extra_turn(c, st, 2, options=gm)
    with pytest.raises(RuleError):
        combat.buy_extra_turn(c, st, 2, options=gm)


@vector("TV-B31")
def _():
    w = {"automatic": True, "capacity": 30, "ammo": 30}
    h, f = (
        combat.plan_attack(spray="half", weapon=w, options=SYSTEM.rules),
        combat.plan_attack(spray="full", weapon=w, options=SYSTEM.rules),
    )
    assert (h.rounds, h.area_diameter, h.shift, f.rounds, f.area_diameter) == (15, 2, -1, 30, 3)


@vector("TV-B32")
def _():
    a, b = (
        combat.plan_attack(power_area=2, superpower=True, options=SYSTEM.rules),
        combat.plan_attack(power_area=3, superpower=True, options=SYSTEM.rules),
    )
    assert (a.sanity_cost, b.sanity_cost, a.shift) == (2, 3, -1)


@vector("TV-B33")
def _():
    p = combat.plan_attack(extra_targets=2, superpower=True, base_cost=1, options=SYSTEM.rules)
    assert (p.shift, p.sanity_cost) == (-2, 3)


@vector("TV-B34")
def _():
    w = {"automatic": True, "capacity": 30, "ammo": 30}
    assert (
        combat.plan_attack(burst="half", weapon=w, options=SYSTEM.rules).defences_per_target,
        combat.plan_attack(burst="full", weapon=w, options=SYSTEM.rules).defences_per_target,
    ) == (2, 3)


@vector("TV-B35")
def _():
    assert apply_divider(12, STRICT) == 3


@vector("TV-B36")
def _():
    assert [apply_divider(7, d) for d in (STRICT, NORMAL, GENEROUS)] == [2, 3, 5]


@vector("TV-B37")
def _():
    assert [apply_divider(27, d) for d in (STRICT, NORMAL, GENEROUS)] == [6, 8, 12]


@vector("TV-B38")
def _():
    c = healer()
    assert SYSTEM.roll_check(c, "talent:Heal", extra_sanity=2, rng=Scripted(3)).details["divider"] == Divider(4, 4)


@vector("TV-B39")
def _():
    c = Character(**PYROMANCER)
    r = SYSTEM.roll_check(c, "ultimate:Firestorm", rng=Scripted(9))
    assert (r.details["die"], r.total) == ("d12", 21)


@vector("TV-B40")
def _():
    p = combat.plan_attack(two_weapons=True, body_part="arms", options=SYSTEM.rules)
    r = SYSTEM.roll_check(Character(physique=5), "attack_melee", shift=p.shift, rng=Scripted(3))
    assert p.shift == -2 and r.details["die"] == "d6"


@vector("TV-B41")
def _():
    a = combat.plan_attack(two_weapons=True, power_area=2, superpower=True, options=SYSTEM.rules)
    b = combat.plan_attack(two_weapons=True, power_area=3, superpower=True, options=SYSTEM.rules)
    assert (a.sanity_cost, b.sanity_cost, a.shift) == (3, 4, -2)


@vector("TV-B42")
def _():
    raw = combat.raw_damage(Character(physique=4, endurance=4).strike_power, {"damage": 3, "kind": "melee"})
    t = big(armour=[{"name": "mail", "defence": 2, "durability": 2}])
    assert SYSTEM.apply_damage(t, raw).details["health_loss"] == 3 and t.armour[0]["durability"] == 1


@vector("TV-B43")
def _():
    t = big(armour=[{"name": "vest", "defence": 2, "durability": 3}])
    assert SYSTEM.apply_damage(t, combat.raw_damage(3, {"damage": 4, "kind": "ranged"})).details["health_loss"] == 2
    assert t.armour[0]["durability"] == 2


@vector("TV-B44")
def _():
    t = big(armour=[{"name": "mail", "defence": 2, "durability": 2}])
    a = SYSTEM.apply_damage(t, 4).details["health_loss"]
    s1 = (t.armour[0]["defence"], t.armour[0]["durability"])
    b = SYSTEM.apply_damage(t, 4).details["health_loss"]
    assert (a, s1, b, t.armour[0]["defence"], t.armour[0]["durability"]) == (2, (1, 1), 3, 0, 0)


@vector("TV-B45")
def _():
    a = {r["id"]: (r["defence"], tuple(r["durability_range"]), r["penalty"]) for r in SYSTEM.data("armour")}
    assert a == {"light": (2, (2, 4), 0), "medium": (4, (4, 6), -2), "heavy": (6, (6, 10), -4)}


@vector("TV-B46")
def _():
    c = Character(items=[{"name": "Medkit", "preset": "medkit", "charges": 5}])
    combat.use_item(c, "Medkit", options=SYSTEM.rules, total=4, in_combat=False)
    assert c.items[0]["charges"] == 4


@vector("TV-B47")
def _():
    c = big(conditions=[{"id": "poisoned", "dot": 1, "shift": 0, "duration": 5}])
    for _ in range(6):
        SYSTEM.tick_conditions(c)
    assert c.health == 14 - 5
    c = big(items=[{"name": "potion", "preset": "healing_potion"}])
    c.health = 5
    combat.use_item(c, "potion", options=SYSTEM.rules)
    assert c.health == 8
    assert next(r for r in SYSTEM.data("items") if r["id"] == "mana_stone")["charges"] == 7


@vector("TV-B48")
def _():
    c = Character(tokens=[{"name": "Goddess of lies", "kind": "flat", "amount": 4, "applies_to": ["inspiration"]}])
    assert SYSTEM.roll_check(c, "inspiration", token="Goddess of lies", rng=Scripted(2)).total == 6


@vector("TV-B49")
def _():
    c = big(conditions=[{"id": "burning"}, {"id": "bleeding"}])
    assert SYSTEM.tick_conditions(c).details["dot"] == 3
    c = big(conditions=[{"id": "regenerating"}])
    c.health = 1
    for _ in range(5):
        SYSTEM.tick_conditions(c)
    assert c.health == 7
    c = Character(conditions=[{"id": "poisoned"}])
    assert SYSTEM.roll_check(c, "attention", rng=Scripted(3)).details["die"] == "d6-1"


@vector("TV-B50")
def _():
    assert (
        combat.effective_speed(
            Character(fine_motor=6, body_control=6, conditions=[{"id": "injury_leg"}]), options=SYSTEM.rules
        )
        == 3
    )


@vector("TV-B51")
def _():
    c = Character(composure=5, flaws=[{"name": "Greed", "severity": "light", "level": 5, "base_param": "composure"}])
    c.sanity = 5
    assert SYSTEM.roll_check(c, "flaw:Greed", rng=Scripted(2)).details["difficulty"] == 2


@vector("TV-B52")
def _():
    got = [flaw_difficulty({"severity": s, "level": lv}, lv) for s in ("light", "moderate", "severe") for lv in (3, 5)]
    assert got == [6, 2, 9, 5, 14, 10]


@vector("TV-B53")
def _():
    r = lr(7, 20, 100)
    assert (r.total, r.successes, r.terminal_max) == (120, 1, True)


@vector("TV-B54")
def _():
    assert resolve_difficulty("impossible") == 50


@vector("TV-B55")
def _():
    g = Character(is_npc=True, overrides={"mind": 3, "emotions": 3, "body": 3})
    n = Character(is_npc=True, overrides={"mind": 3, "emotions": 3, "body": 3, "agility": 5})
    assert g.level == 3 and {die_label(g.value(p)) for p in ("attention", "physique", "agility")} == {"d6"}
    assert die_label(n.agility) == "d10"


@vector("TV-B56")
def _():
    m = Character(is_npc=True, npc_tier="mook")
    SYSTEM.apply_damage(m, 6)
    n = Character(is_npc=True, npc_tier="mook")
    SYSTEM.apply_damage(n, 6, sanity=True)
    assert m.dead and n.has_condition("coma")


@vector("TV-B57")
def _():
    assert [new_skill_level_from_d6(d) for d in (2, 4, 5)] == [1, 2, 3]


@vector("TV-B58")
def _():
    c = Character(
        abilities=[
            {
                "name": "Weather avatar",
                "kind": "talent",
                "base_param": "will",
                "level": 3,
                "is_superpower": True,
                "sanity_cost": 3,
            }
        ]
    )
    r = SYSTEM.roll_check(c, "talent:Weather avatar", rng=Scripted(4))
    assert [(e.trait, e.delta) for e in r.effects] == [("sanity", -3)]


@vector("TV-B59")
def _():
    assert Character(fine_motor=4, body_control=4).speed == 4


@vector("TV-B60")
def _():
    win = lr(3, 4)
    assert combat.free_steps_after("dodge", win, True) == 1
    assert [(e.trait, e.delta) for e in combat.defence_riders("parry", win, True)] == [("sanity", 1)]


@vector("TV-B61")
def _():
    assert combat.dispel_cost(3, protect_allies=True) == 4


@vector("TV-B62")
def _():
    assert combat.STEP_METRES == 1


@vector("TV-B63")
def _():
    c = Character()
    assert SYSTEM.gain_ability(c, "Swim", "skill", "body_control")["level"] == 1
    assert SYSTEM.gain_ability(c, "Fire", "talent", "will")["level"] == 3
    assert (SYSTEM.rules["start_level_skill"], SYSTEM.rules["start_level_talent"]) == (3, 3)


@vector("TV-B64")
def _():
    assert combat.in_reach({"name": "spear", "reach": 2}, 2) and not combat.in_reach({"name": "sword"}, 2)


@vector("TV-B65")
def _():
    w = {r["id"]: r for r in SYSTEM.data("weapons")}
    assert [combat.raw_damage(2, w[k]) for k in B65_WEAPONS] == [2, 3, 4, 4, 5, 6, 3, 4, 3]
    assert (w["light_firearm"]["damage_range"], w["heavy_weapon"]["damage_range"]) == ([3, 4], [5, 6])


@vector("TV-B66")
def _():
    b = {r["id"]: (r["damage_range"], r["diameter_min"]) for r in SYSTEM.data("explosions")}
    assert b == {"weak": ([5, 7], 2), "medium": ([8, 15], 3), "strong": ([15, 25], 4)}


@vector("TV-B67")
def _():
    assert next(r for r in SYSTEM.data("items") if r["id"] == "ingredient_bag")["charges"] == 4


@vector("TV-B68")
def _():
    c = Character(conditions=[{"id": "berserk", "flat": apply_divider(9, NORMAL), "scope": ["branch:body"]}])
    assert SYSTEM.roll_check(c, "physique", rng=Scripted(2)).total == 6


# ---- TV-D: derived ----------------------------------------------------------------------------
def _derived(values, expected):
    c = Character(**values)
    assert {k: getattr(c, k) for k in expected} == expected


@vector("TV-D1")
def _():
    _derived(*DERIVED_VECTORS["TV-D1"])


@vector("TV-D2")
def _():
    _derived(*DERIVED_VECTORS["TV-D2"])


@vector("TV-D3")
def _():
    _derived(*DERIVED_VECTORS["TV-D3"])


@vector("TV-D4")
def _():
    _derived(*DERIVED_VECTORS["TV-D4"])


@vector("TV-D5")
def _():
    _derived(*DERIVED_VECTORS["TV-D5"])


@vector("TV-D6")
def _():
    _derived(*DERIVED_VECTORS["TV-D6"])
    assert SYSTEM.roll_check(Character(**build([0] * 12)), "mind", rng=Scripted(3)).details["die"] == "d6-3"


@vector("TV-D7")
def _():
    _derived(*DERIVED_VECTORS["TV-D7"])


@vector("TV-D8")
def _():
    assert [die_label(lv) for lv in (2, 8, 9, -1)] == ["d6-1", "d100", "d100", "d6-3"]


@vector("TV-D9")
def _():
    assert [cost(a, b, "recommended", options=SYSTEM.rules) for a, b in ((3, 7), (1, 7), (5, 6), (0, 3))] == [
        18,
        21,
        5,
        4,
    ]
    with pytest.raises(RuleError, match="Level 7 is the limit"):
        cost(7, 8, "recommended", options=SYSTEM.rules)


@vector("TV-D10")
def _():
    assert (cost(3, 7, "simplified", options=SYSTEM.rules), cost(1, 3, "simplified", options=SYSTEM.rules)) == (4, 2)


@vector("TV-D11")
def _():
    assert not [p for p in GM.validate(Character(physique=5, attention=4)) if p.code == "param_overspent"]
    p = [p for p in GM.validate(Character(physique=5, attention=4, wits=4)) if p.code == "param_overspent"][0]
    assert "Parameter points overspent: 4 of 3 (1 too many)" in p.message["en"]


@vector("TV-D12")
def _():
    r = lr(3, 6, 8, 3)
    assert (r.total, r.successes, r.sanity_gained) == (17, 2, 2)


@vector("TV-D13")
def _():
    r = lr(3, 6, 1)
    assert (r.total, r.successes, r.fail) == (7, 1, False)


@vector("TV-D14")
def _():
    r = lr(0, 6, 5)
    assert (r.total, r.successes) == (8, 1)


@vector("TV-D15")
def _():
    c = Character(attention=0, intuition=0)
    r = SYSTEM.roll_check(c, "perception", difficulty="trivial", rng=Scripted(2))
    assert (r.total, r.degree) == (-1, "not_passed")


@vector("TV-D16")
def _():
    r = lr(7, 20, 100, bonus=3)
    assert (r.total, r.successes, r.terminal_max, len(r.chain)) == (123, 1, True, 2)


@vector("TV-D17")
def _():
    c = Character(is_npc=True, attention=8, intuition=8)
    r = SYSTEM.roll_check(c, "perception", difficulty=50, rng=Scripted(100))
    assert (r.total, r.details["successes"], r.details["terminal_max"], r.degree) == (
        100,
        0,
        True,
        "passed_with_success",
    )
    assert not [e for e in r.effects if e.trait == "sanity"]


@vector("TV-D18")
def _():
    c = Character(abilities=[{"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3}])
    r = SYSTEM.roll_check(c, "skill:Lockpicking", luck=2, rng=Scripted(1, 3))
    SYSTEM.apply_effects(c, r.effects)
    assert (r.details["fail_degree"], r.total, c.luck) == (3, None, 5)


@vector("TV-D19")
def _():
    ab = [{"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3}]
    for system, luck in ((SYSTEM, 7), (SYSTEM.with_rules(cinematic_luck=True), 9)):
        c = Character(abilities=ab)
        system.apply_effects(c, system.roll_check(c, "skill:Lockpicking", luck=2, rng=Scripted(1, 1)).effects)
        assert c.luck == luck


@vector("TV-D20")
def _():
    with pytest.raises(RuleError, match="You only have 6 Luck"):
        SYSTEM.roll_check(Character(), "attention", luck=7, rng=Scripted(3))


@vector("TV-D21")
def _():
    a, b = Character(luck=3), Character(luck=9)
    SYSTEM.start_game_session(a)
    SYSTEM.start_game_session(b)
    assert (a.luck, b.luck) == (6, 9)


@vector("TV-D22")
def _():
    c = Character(fine_motor=5, body_control=5, conditions=[{"id": "off_balance"}])
    assert SYSTEM.roll_check(c, "dodge", rng=Scripted(3)).details["die"] == "d8"
    c = Character(attention=0, intuition=0, conditions=[{"id": "stunned"}])
    assert SYSTEM.roll_check(c, "perception", rng=Scripted(3)).details["die"] == "d6-3"


@vector("TV-D23")
def _():
    p = combat.plan_attack(two_weapons=True, body_part="head", options=SYSTEM.rules)
    assert (
        SYSTEM.roll_check(Character(physique=5), "attack_melee", shift=p.shift, rng=Scripted(3)).details["die"] == "d6"
    )


@vector("TV-D24")
def _():
    assert SYSTEM.contest(lr(5, 8), lr(5, 8)) == "defender"


@vector("TV-D25")
def _():
    assert SYSTEM.contest(lr(3, 1, 4), lr(3, 1, 2)) == "attacker"


@vector("TV-D26")
def _():
    assert SYSTEM.contest(lr(3, 1, 3), lr(3, 1, 3)) == "defender"


@vector("TV-D27")
def _():
    assert SYSTEM.contest(lr(3, 1, 3), None) == "defender"


@vector("TV-D28")
def _():
    a = lr(0, 5)
    assert a.total == 2 and SYSTEM.contest(a, lr(3, 1, 2)) == "attacker"


@vector("TV-D29")
def _():
    c = Character(composure=5, leadership=5)
    assert SYSTEM.roll_check(c, "will", difficulty="medium", rng=Scripted(8)).success
    assert not SYSTEM.roll_check(c, "will", difficulty="medium", rng=Scripted(7)).success


@vector("TV-D30")
def _():
    c = Character(composure=7, leadership=7)
    r = SYSTEM.roll_check(c, "will", difficulty=50, rng=Scripted(20, 10))
    assert (r.total, r.degree, [(e.trait, e.delta) for e in r.effects]) == (30, "not_passed", [("sanity", 1)])


@vector("TV-D31")
def _():
    states = []
    for faces in ((3,), (2,), (1, 1)):
        c = Character()
        c.health = -3
        states.append(SYSTEM.roll_check(c, "survival", rng=Scripted(*faces)).details["state"])
    assert states == ["stabilised", "coma", "dead"]


@vector("TV-D32")
def _():
    c = Character()
    c.health = -5
    r = SYSTEM.roll_check(c, "survival", rng=Scripted(6, 2))
    SYSTEM.apply_result(c, r)
    assert (r.total, r.details["state"], c.health) == (8, "stabilised", -4)


@vector("TV-D33")
def _():
    c = Character()
    c.health, c.stabilised_health = -4, True
    out = SYSTEM.apply_damage(c, 2)
    assert (c.health, out.details["survival_roll"], out.details["survival_difficulty"]) == (-6, True, 6)


@vector("TV-D34")
def _():
    c = Character()
    c.sanity = -2
    assert SYSTEM.roll_check(c, "self_control", rng=Scripted(1, 1)).details["state"] == "coma"


@vector("TV-D35")
def _():
    c = Character(composure=4, leadership=4)
    c.sanity = -4
    assert SYSTEM.roll_check(c, "self_control", rng=Scripted(3, 4)).details["state"] == "panic"


@vector("TV-D36")
def _():
    assert (
        apply_divider(10, STRICT),
        apply_divider(0, NORMAL),
        apply_divider(-1, GENEROUS),
        apply_divider(None, NORMAL, fail=True),
    ) == (3, 2, 3, 0)


@vector("TV-D37")
def _():
    mit = apply_divider(9, NORMAL)
    assert (mit, max(0, 7 - mit), max(0, 2 - mit)) == (4, 3, 0)


@vector("TV-D38")
def _():
    raw = combat.raw_damage(Character(physique=6, endurance=6).strike_power, {"damage": 3, "kind": "melee"})
    assert SYSTEM.apply_damage(big(), raw).details["health_loss"] == 6


@vector("TV-D39")
def _():
    t = big(armour=[{"name": "a", "defence": 2, "durability": 3}])
    assert SYSTEM.apply_damage(t, 1).details["health_loss"] == 1 and t.armour[0]["durability"] == 3


@vector("TV-D40")
def _():
    t = big(armour=[{"name": "h", "defence": 6, "durability": 8}])
    assert SYSTEM.apply_damage(t, 2).details["health_loss"] == 1 and (
        t.armour[0]["defence"],
        t.armour[0]["durability"],
    ) == (6, 7)
    t = big(armour=[{"name": "h", "defence": 6, "durability": 8}])
    SYSTEM.with_rules(durability_needs_raw_gt_1=False).apply_damage(t, 2)
    assert t.armour[0]["durability"] == 8


@vector("TV-D41")
def _():
    t = big(armour=[{"name": "m", "defence": 4, "durability": 6}])
    gm = SYSTEM.with_rules(threshold_multiplier=0)
    losses, states = [], []
    for _ in range(7):
        losses.append(gm.apply_damage(t, 5).details["health_loss"])
        states.append((t.armour[0]["defence"], t.armour[0]["durability"]))
    assert losses == [1, 1, 1, 2, 3, 4, 5]
    assert states[:6] == [(4, 5), (4, 4), (3, 3), (2, 2), (1, 1), (0, 0)]


@vector("TV-D42")
def _():
    t = big(armour=[{"name": "m", "defence": 4, "durability": 6}])
    gm = SYSTEM.with_rules(threshold_multiplier=0, defence_tracks_durability=False)
    assert [gm.apply_damage(t, 5).details["health_loss"] for _ in range(7)] == [1, 1, 1, 1, 1, 1, 5]


@vector("TV-D43")
def _():
    t = big(armour=[{"name": "helm", "defence": 2, "durability": 3, "locations": ["head"]}])
    out = SYSTEM.apply_damage(t, 5, location="head")
    assert (out.details["health_loss"], out.details["sanity_loss"], t.armour[0]["durability"]) == (6, 3, 2)


@vector("TV-D44")
def _():
    t = big(armour=[{"name": "helm", "defence": 2, "durability": 2, "locations": ["head"]}])
    out = SYSTEM.apply_damage(t, 2, location="head")
    assert (out.details["health_loss"], out.details["sanity_loss"]) == (2, 1)
    assert (t.armour[0]["defence"], t.armour[0]["durability"]) == (1, 1)


@vector("TV-D45")
def _():
    t = big(temp_armour=2, temp_armour_kind="skin", armour=[{"name": "a", "defence": 2, "durability": 4}])
    out = SYSTEM.apply_damage(t, 5)
    assert (out.details["health_loss"], t.temp_armour, t.armour[0]["durability"]) == (1, 0, 3)


@vector("TV-D46")
def _():
    t = big(temp_armour=2, temp_armour_kind="shield", armour=[{"name": "a", "defence": 2, "durability": 4}])
    out = SYSTEM.apply_damage(t, 5)
    assert (out.details["health_loss"], t.temp_armour, t.armour[0]["defence"], t.armour[0]["durability"]) == (
        1,
        0,
        2,
        3,
    )


@vector("TV-D47")
def _():
    t = big(temp_armour=5, temp_armour_kind="shield")
    out = SYSTEM.apply_damage(t, 3)
    assert (t.temp_armour, out.details["health_loss"]) == (2, 0)


@vector("TV-D48")
def _():
    t = Character(conditions=[{"id": "coma"}])
    SYSTEM.apply_damage(t, 1)
    assert t.dead


@vector("TV-D49")
def _():
    c = Character()
    c.sanity = 2
    st = combat.TurnState.start(c, options=SYSTEM.rules)
    SYSTEM.apply_effects(c, combat.buy_extra_turn(c, st, 1, options=SYSTEM.rules))
    assert c.sanity == -1 and st.sanity_went_negative
    r = SYSTEM.roll_check(c, "self_control", rng=Scripted(1, 3, 2))
    assert r.details["difficulty"] == 1 and r.details["state"] != "stabilised"
    st.failed_self_control = True
    with pytest.raises(RuleError, match="turn ends"):
        combat.buy_extra_turn(c, st, 1, options=SYSTEM.rules)


@vector("TV-D50")
def _():
    cs = d50_fighters()
    order = SYSTEM.roll_initiative(cs, rng=Scripted(7, 12, 1, 3, 1, 1, 1, 4))
    assert list(order.order) == ["B", "A", "E", "C", "D"] and combat.skips_round_1(order, "D")


@vector("TV-D51")
def _():
    w = {"automatic": True, "capacity": 30, "ammo": 30}
    p = combat.plan_attack(burst="half", weapon=w, options=SYSTEM.rules)
    att = lr(5, 9, bonus=2)
    hits = combat.resolve_attack(att, [lr(6, 11, bonus=1), lr(5, 9)], options=SYSTEM.rules)
    assert (p.rounds, sum(hits)) == (15, 1)


@vector("TV-D52")
def _():
    assert apply_divider(9, Divider(4, 2 + 2)) == 6


@vector("TV-D53")
def _():
    c = Character(physique=5, endurance=5, items=[{"name": "Medkit", "preset": "medkit", "charges": 5}])
    c.health = 1
    combat.use_item(c, "Medkit", options=SYSTEM.rules, total=7, in_combat=False)
    assert (c.health, c.items[0]["charges"]) == (7, 4)


@vector("TV-D54")
def _():
    c = Character(items=[{"name": "shot", "preset": "adrenaline"}])
    c.sanity = 1
    combat.use_item(c, "shot", options=SYSTEM.rules, total=10)
    assert c.sanity == 5


@vector("TV-D55")
def _():
    assert (combat.aim_bonus(lr(5, 9), NORMAL), combat.aim_bonus(lr(5, 5), NORMAL)) == (4, 3)


@vector("TV-D56")
def _():
    assert combat.cover_bonus(lr(5, 7), GENEROUS) == 5


@vector("TV-D57")
def _():
    c = Character()
    c.sanity = 5
    for _ in range(2):
        SYSTEM.apply_effects(c, combat.defence_riders("parry", lr(3, 4), True))
    assert c.sanity == 6


@vector("TV-D58")
def _():
    assert (
        flaw_difficulty({"severity": "severe", "level": 2}, 4),
        flaw_difficulty({"severity": "severe", "level": 1}, -2),
    ) == (14, 21)


@vector("TV-D59")
def _():
    fl = {"name": "Vice", "severity": "light", "level": 5, "base_param": "composure"}
    c = Character(composure=7, leadership=7, inspiration=4, charisma=4, flaws=[fl])
    assert c.sanity == 8 and SYSTEM.roll_check(c, "flaw:Vice", rng=Scripted(2)).details["difficulty"] == -1
    assert SYSTEM.chance(c, "flaw:Vice") == F(19, 20)
    assert not SYSTEM.roll_check(c, "flaw:Vice", rng=Scripted(1, 4)).success


@vector("TV-D60")
def _():
    assert (
        combat.effective_speed(
            Character(fine_motor=5, body_control=5, conditions=[{"id": "injury_leg"}]), options=SYSTEM.rules
        )
        == 2
    )


@vector("TV-D61")
def _():
    c = Character(physique=5, endurance=5)
    c.health = -24
    assert SYSTEM.roll_check(c, "survival", rng=Scripted(3)).details["difficulty"] == 24
    c.health = -25
    assert SYSTEM.roll_check(c, "survival", rng=Scripted()).details["state"] == "dead"


@vector("TV-D62")
def _():
    g = Character(is_npc=True, overrides={"mind": 3, "emotions": 3, "body": 3, "agility": 5})
    assert (g.strength, g.strike_power, g.speed, g.health_max, g.value("fine_motor"), g.value("body_control")) == (
        3,
        1,
        5,
        6,
        5,
        5,
    )


@vector("TV-D63")
def _():
    t = big(armour=[{"name": "a", "defence": 2, "durability": 4}])
    out = combat.blast(t, 10, options=SYSTEM.rules, composure=lr(5, 6), divider=STRICT)
    assert (out.details["health_loss"], out.details["sanity_loss"], t.armour[0]["durability"]) == (8, 6, 3)


@vector("TV-D64")
def _():
    assert combat.blast(big(), 9, options=SYSTEM.rules, dodged=True).details["health_loss"] == 4


@vector("TV-D65")
def _():
    c = Character(dp=7, abilities=[{"name": "Nav", "kind": "skill", "base_param": "wits", "level": 7}])
    SYSTEM.convert_ability(c, "Nav", "Navigator", d6=4)
    assert (c.ability("Navigator")["level"], c.dp) == (4, 0)


@vector("TV-D66")
def _():
    t = big(armour=[{"name": "a", "defence": 2, "durability": 4}])
    assert SYSTEM.apply_damage(t, 5, dual_wield=True).details["health_loss"] == 6 and t.armour[0]["durability"] == 3
    t = big(armour=[{"name": "a", "defence": 2, "durability": 4}])
    assert SYSTEM.with_rules(dual_wield_mode="two_hits").apply_damage(t, 5, dual_wield=True).details["health_loss"] == 6
    assert t.armour[0]["durability"] == 2


@vector("TV-D67")
def _():
    cases = [
        (3, 4, 0, 0, F(1, 2)),
        (3, 3, 0, 0, F(2, 3)),
        (0, 2, 0, 0, F(1, 3)),
        (1, 4, 0, 0, F(1, 6)),
        (2, 4, 0, 0, F(1, 3)),
        (4, 8, 0, 0, F(1, 8)),
        (5, 8, 0, 0, F(3, 10)),
        (6, 12, 0, 0, F(1, 12)),
        (7, 20, 0, 0, F(1, 20)),
        (3, 8, 3, 0, F(1, 3)),
        (7, 54, 0, 0, F(67, 2000)),
        (6, 32, 0, 4, F(1, 48)),
        (3, 50, 0, 0, F(7, 115200)),
    ]
    assert [chance_at_least(lv, t, bonus=b, luck=k, options=SYSTEM.rules) for lv, t, b, k, _ in cases] == [
        p for *_, p in cases
    ]


@vector("TV-D68")
def _():
    got = []
    for level in (3, 5, 7, 8):
        out, _ = roll_outcomes(level, options=SYSTEM.rules)
        got.append((sum(p for o, p in out.items() if o[0] == "fail"), out[("fail", 1)]))
    assert got == [(F(1, 6), F(1, 24)), (F(1, 10), F(1, 40)), (F(1, 20), F(1, 80)), (F(1, 100), F(1, 400))]


@vector("TV-D69")
def _():
    from tabletop_systems.ret.level import LEVEL_DIE

    def min_level(threshold, bonus, levels):
        return next(
            (
                lv
                for lv in levels
                if (LEVEL_DIE[lv][0] - (LEVEL_DIE[lv][0] != 100)) + LEVEL_DIE[lv][1] + bonus >= threshold
            ),
            8,
        )

    rows = SYSTEM.data("difficulties")
    assert all([min_level(r["threshold"], b, (0, 3, 5, 7, 8)) for b in (0, 3, 7)] == r["min_level"] for r in rows)
    diff = [
        (r["id"], b)
        for r in rows
        for b in (0, 3, 7)
        if min_level(r["threshold"], b, range(9)) != min_level(r["threshold"], b, (0, 3, 5, 7, 8))
    ]
    assert diff == [("low", 0)]


@vector("TV-D70")
def _():
    with pytest.raises(RuleError, match="Luck cannot be used on choice rolls"):
        SYSTEM.roll_check(Character(), "loss_of_control", luck=1, rng=Scripted(3))


@vector("TV-D71")
def _():
    t = big(temp_armour=2, temp_armour_kind="skin", armour=[{"name": "a", "defence": 2, "durability": 4}])
    SYSTEM.apply_damage(t, 2)
    assert (t.health, t.temp_armour, t.armour[0]["durability"]) == (14, 1, 3)


@vector("TV-D72")
def _():
    t = Character(temp_armour=5, temp_armour_kind="shield")
    t.health, t.stabilised_health = -4, True
    out = SYSTEM.apply_damage(t, 3)
    assert (t.health, t.temp_armour, t.stabilised_health, out.details["survival_roll"]) == (-4, 2, True, False)


@vector("TV-D73")
def _():
    cases = [
        (3, -10, 0, F(5, 6)),
        (3, 6, 5, F(5, 6)),
        (0, 0, 0, F(2, 3)),
        (7, 120, 0, F(1, 2000)),
        (7, 121, 0, F(0)),
        (3, 156, 0, F(1, 11520000)),
        (3, 157, 0, F(0)),
    ]
    assert [chance_at_least(lv, t, luck=k, options=SYSTEM.rules) for lv, t, k, _ in cases] == [p for *_, p in cases]


@vector("TV-D74")
def _():
    c = Character(fine_motor=6, body_control=6, conditions=[{"id": "injury_leg"}] * 2)
    assert combat.effective_speed(c, options=SYSTEM.rules) == 3
    assert combat.effective_speed(c, options=SYSTEM.with_rules(leg_injury_speed="per_leg").rules) == 1
    assert SYSTEM.roll_check(c, "dodge", rng=Scripted(3)).details["die"] == "d8"


ALL_IDS = [f"TV-B{i}" for i in range(1, 69)] + [f"TV-D{i}" for i in range(1, 75)]


def test_every_vector_has_a_case():
    assert sorted(V) == sorted(ALL_IDS)


@pytest.mark.parametrize("vid", ALL_IDS, ids=ALL_IDS)
def test_vector(vid):
    V[vid]()
