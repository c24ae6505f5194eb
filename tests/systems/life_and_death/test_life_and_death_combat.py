"""Combat (spec §6, vectors D-50..D-73, S-17, S-18)."""

import itertools
import random
from fractions import Fraction

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death import combat
from tabletop_systems.life_and_death.combat import (
    block_pool,
    coordinate_attack,
    damage_distribution,
    resolve_attack,
    run_distance,
    start_turn,
    take_action,
    zone_armour,
    zone_effect,
)
from tabletop_systems.life_and_death.dice import read_faces
from tabletop_widgets.core import InitiativeOrder, RuleError


def opts(**changes):
    """The GM options with ``changes`` (a system built with them)."""
    return SYSTEM.with_rules(**changes).rules


F = Fraction


def pool(net, crits=0, fails=1):
    """Faces with `net` successes of which `crits` are 10s."""
    return read_faces([10] * crits + [7] * (net - crits) + [3] * fails)


@pytest.mark.parametrize(
    "vid,w,an,ac,dn,dc,arm,hit,pierced,dmg,options",
    [
        ("D-50", 3, 4, 1, 2, 1, 2, True, False, 3, {}),
        ("D-51", 3, 4, 2, 2, 1, 2, True, True, 5, {}),
        ("D-52", 1, 2, 0, 1, 0, 4, True, False, 0, {}),
        ("D-53", 5, 3, 3, 3, 0, 0, False, False, 0, {}),
        ("D-54", 2, 2, 1, 1, 1, 2, True, False, 1, {}),
        ("D-54-any-crit", 2, 2, 1, 1, 1, 2, True, True, 3, {"armour_pierce_rule": "any_attacker_crit"}),
    ],
    ids=lambda x: x if isinstance(x, str) and x.startswith("D-") else None,
)
def test_damage_vectors(vid, w, an, ac, dn, dc, arm, hit, pierced, dmg, options):
    out = resolve_attack(pool(an, ac), pool(dn, dc), w, arm, options=opts(**options))
    assert (out.hit, out.armour_pierced, out.damage) == (hit, pierced, dmg)


def test_D52_raw_negative_and_floor_option():
    out = resolve_attack(pool(2), pool(1), 1, 4, options=SYSTEM.rules)
    assert out.raw_damage == -2 and out.damage == 0
    assert resolve_attack(pool(2), pool(1), 1, 4, options=opts(damage_floor_zero=False)).damage == -2


def test_D55_unarmed():
    c = Character(age="young", features=[{"id": "claws", "level": 2, "origin": "bought"}])
    assert resolve_attack(pool(2), None, c.hand_damage, 0, options=SYSTEM.rules).damage == 5


@pytest.mark.parametrize(
    "helmet,eff", [("none", 0), ("open", 2), ("closed", 3)], ids=["D-56-none", "D-56-open", "D-56-closed"]
)
def test_D56_head_armour(helmet, eff):
    assert (
        zone_armour(3, "head_face", helmet, options=SYSTEM.rules)
        == eff
        == zone_armour(3, "head_skull", helmet, options=SYSTEM.rules)
    )
    assert (
        zone_armour(3, "torso", helmet, options=SYSTEM.rules) == 3
        and zone_armour(3, "neck", helmet, options=SYSTEM.rules) == 3
    )


@pytest.mark.parametrize("dmg,kind", [(2, None), (3, "limb_broken"), (4, "limb_broken"), (5, "limb_severed")])
def test_D57_limb_thresholds(dmg, kind):
    e = zone_effect("limb", dmg, 10)
    assert (e.kind if e else None) == kind


def test_D58_threshold_rounding():
    assert not combat.reaches(1, 7, 25) and combat.reaches(2, 7, 25)
    assert not combat.reaches(3, 7, 50) and combat.reaches(4, 7, 50)
    assert not combat.reaches(5, 7, 75) and combat.reaches(6, 7, 75)


@pytest.mark.parametrize(
    "undead,kind,lethal",
    [(False, "decapitated", True), (True, "head_severed", False)],
    ids=["D-59-living", "D-59-undead"],
)
def test_D59_neck(undead, kind, lethal):
    e = zone_effect("neck", 3, 12, undead=undead)
    assert (e.kind, e.lethal) == (kind, lethal)


@pytest.mark.parametrize("heads,lethal", [(1, True), (2, False)], ids=["D-60-one-head", "D-60-two-heads"])
def test_D60_skull(heads, lethal):
    assert zone_effect("head_skull", 6, 8, heads=heads).lethal is lethal
    assert zone_effect("head_skull", 5, 8) is None


def test_D61_spell_thresholds_doubled_and_S12():
    assert zone_effect("limb", 4, 8, spell=True).kind == "limb_broken"
    assert zone_effect("limb", 7, 8, spell=True).kind == "limb_broken"
    assert zone_effect("limb", 8, 8, spell=True).kind == "limb_severed"
    out = resolve_attack(
        pool(1), None, 4, 3, spell=True, target_max_hp=8, options=SYSTEM.rules
    )  # S-12: torso, no armour, no wound
    assert out.zone == "torso" and out.damage == 4 and out.zone_effect is None


def test_D62_S18_transforming_target():
    out = resolve_attack(pool(1), None, 2, 0, zone="limb", target_max_hp=10, transforming=True, options=SYSTEM.rules)
    assert out.damage == 6 and out.zone_effect.kind == "limb_severed"
    c = Character(might=3)
    o = SYSTEM.apply_damage(c, 3, transforming=True)
    assert o.details["damage"] == 6 and c.hp == c.hp_max - 6


def test_D63_D64_initiative_tiebreaks():
    a = Character(dexterity=3, alertness=3)  # pool 6
    b = Character(dexterity=3, alertness=2)  # pool 5
    faces = {"A": [6, 6, 6, 1, 1, 1], "B": [6, 6, 6, 1, 1]}
    o = SYSTEM.roll_initiative({"B": b, "A": a}, rng=random.Random(0), faces=faces)
    assert isinstance(o, InitiativeOrder) and list(o.order) == ["A", "B"]
    assert "larger pool" in o.tiebreaks[0]["en"]
    c = Character(dexterity=2, alertness=4)  # pool 6, lower dex than A
    o2 = SYSTEM.roll_initiative({"C": c, "A": a}, rng=random.Random(0), faces={"A": faces["A"], "C": faces["A"]})
    assert list(o2.order) == ["A", "C"] and "Dexterity" in o2.tiebreaks[0]["en"]
    twins = {"X": Character(dexterity=3, alertness=3), "Y": Character(dexterity=3, alertness=3)}
    f2 = {"X": faces["A"], "Y": faces["A"]}
    r1 = SYSTEM.roll_initiative(twins, rng=random.Random(7), faces=f2)
    r2 = SYSTEM.roll_initiative(twins, rng=random.Random(7), faces=f2)
    assert r1.order == r2.order and "roll-off" in r1.tiebreaks[0]["en"]


def test_initiative_order_by_successes_and_determinism():
    cs = {f"c{i}": Character(dexterity=1 + i % 5, alertness=2) for i in range(6)}
    o1 = SYSTEM.roll_initiative(cs, rng=random.Random(11))
    o2 = SYSTEM.roll_initiative(cs, rng=random.Random(11))
    assert o1.order == o2.order and sorted(o1.order) == sorted(cs)
    nets = [o1.rolls[k].roll.net for k in o1.order]
    assert nets == sorted(nets, reverse=True)


def test_initiative_simultaneous_option():
    cs = {"X": Character(dexterity=3, alertness=3), "Y": Character(dexterity=3, alertness=3)}
    o = SYSTEM.with_rules(initiative_tiebreak="simultaneous").roll_initiative(
        cs, rng=random.Random(1), faces={"X": [6] * 6, "Y": [6] * 6}
    )
    assert "simultaneously" in o.tiebreaks[0]["en"]


def test_D65_coordination():
    cs = {k: Character(dexterity=2, alertness=2) for k in "ABC"}
    assert combat.coordination_pool(cs["A"], 3) == 1
    assert combat.p_coordination(cs["A"], 3) == F(1, 2)
    res = coordinate_attack(cs, ["B", "A", "C"], faces={"A": [3], "B": [2], "C": [9]}, options=SYSTEM.rules)
    assert res["attack_in_round_1"] == ["C"] and set(res["lose_round_1"]) == {"A", "B"}
    res = coordinate_attack(cs, ["B", "A", "C"], faces={"A": [3], "B": [2], "C": [1]}, options=SYSTEM.rules)
    assert res["attack_in_round_1"] == ["B"] and res["fallback"]


def test_coordination_bound_pattern_option():
    cs = {
        k: Character(dexterity=1, alertness=1, features=[{"id": "bound_pattern", "level": 3, "note": "x"}])
        for k in "AB"
    }
    res = coordinate_attack(cs, ["A", "B"], faces={"A": [1], "B": [1]}, options=SYSTEM.rules)
    assert res["attack_in_round_1"] == ["A"]
    res = coordinate_attack(cs, ["A", "B"], options=opts(bound_pattern_iii_skips_coordination=True))
    assert res["attack_in_round_1"] == ["A", "B"]


def test_D66_round1_one_action():
    c = Character(features=[{"id": "speed", "level": 2, "origin": "bought"}])
    s = start_turn(c, 1, initiator=True, options=SYSTEM.rules)
    assert (s.ordinary_left, s.extra_left) == (1, 0)
    take_action(s, "attack", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(s, "attack", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(start_turn(c, 1, initiator=True, options=SYSTEM.rules), "reload", options=SYSTEM.rules)
    other = start_turn(c, 1, options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(other, "counterattack", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(start_turn(c, 1, options=SYSTEM.rules), "step", options=SYSTEM.rules)
    loose = opts(round1_others="anything_but_counterattack")
    take_action(start_turn(c, 1, options=SYSTEM.rules), "step", options=loose)
    take_action(other, "talk", options=SYSTEM.rules)
    take_action(other, "block", options=SYSTEM.rules)


def test_D67_later_rounds():
    c = Character()
    s = start_turn(c, 2, options=SYSTEM.rules)
    assert (s.ordinary_left, s.extra_left) == (2, 0)
    take_action(s, "talk", options=SYSTEM.rules)
    take_action(s, "jog", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(s, "talk", options=SYSTEM.rules)
    take_action(s, "attack", options=SYSTEM.rules)
    take_action(s, "step", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        take_action(s, "attack", options=SYSTEM.rules)
    fast = Character(features=[{"id": "speed", "level": 2, "origin": "bought"}])
    s2 = start_turn(fast, 2, options=SYSTEM.rules)
    assert s2.extra_left == 1
    take_action(s2, "attack", extra_phase=True, options=SYSTEM.rules)
    assert s2.extra_left == 0 and s2.ordinary_left == 2


def test_reactions_wait_transform():
    s = start_turn(Character(), 2, options=SYSTEM.rules)
    take_action(s, "wait", options=SYSTEM.rules)
    assert s.held and s.ordinary_left == 1
    combat.use_held_action(s, "attack")
    take_action(s, "transform", options=SYSTEM.rules)
    assert s.ordinary_left == 0 and s.transforming
    s2 = start_turn(Character(), 2, options=SYSTEM.rules)
    take_action(s2, "block", options=opts(reactions_consume_actions=False))
    assert s2.ordinary_left == 2


def test_D68_run():
    assert run_distance(3) == 15 and run_distance(3, grid=True) == 6 and run_distance(0) == 0


@pytest.mark.parametrize(
    "direction,dice", [("back", 3), ("side", 4), ("front", 5)], ids=["D-69-back", "D-69-side", "D-69-front"]
)
def test_D69_block_direction(direction, dice):
    assert block_pool(5, direction) == dice


def test_D70_noncombat_skill_in_combat():
    c = Character(alertness=3, helmet="closed")
    assert SYSTEM.pool_for(c, "alertness").pool == 1
    assert combat.noncombat_skill_dice(0) == -1 and combat.noncombat_skill_dice(1) == 0


def test_dodge_visible_spell():
    caster, dodger = Character(), Character(complexity=2)
    assert not combat.can_dodge_spell(dodger, caster)
    dodger.skills = {"clairvoyance": 1}
    assert combat.can_dodge_spell(dodger, caster)
    assert combat.can_dodge_spell(Character(), Character(features=[{"id": "pathos", "level": 1, "origin": "negative"}]))


def brute_damage(na, nd, w, arm, options=SYSTEM.rules):
    out = {}
    for fa in itertools.product(range(1, 11), repeat=na):
        for fd in itertools.product(range(1, 11), repeat=nd):
            o = resolve_attack(read_faces(fa), read_faces(fd) if nd else None, w, arm, options=options)
            out[o.damage] = out.get(o.damage, 0) + 1
    return {k: F(v, 10 ** (na + nd)) for k, v in out.items()}


def test_D71():
    d = damage_distribution(1, None, 2, 1, options=SYSTEM.rules)
    assert dict(d) == {0: F(1, 2), 2: F(2, 5), 3: F(1, 10)} and d.mean == F(11, 10)


def test_D72_and_option():
    d = damage_distribution(2, 1, 3, 2, options=SYSTEM.rules)
    assert dict(d) == {0: F(1, 2), 2: F(36, 125), 3: F(2, 25), 4: F(87, 1000), 5: F(9, 200)}
    assert d.mean == F(1389, 1000)
    any_crit = opts(armour_pierce_rule="any_attacker_crit")
    d2 = damage_distribution(2, 1, 3, 2, options=any_crit)
    assert dict(d2) == {0: F(1, 2), 2: F(7, 25), 3: F(2, 25), 4: F(19, 200), 5: F(9, 200)}
    assert d2.mean == F(1405, 1000)
    assert dict(d2) == brute_damage(2, 1, 3, 2, any_crit)


def test_D73_and_brute_force():
    d = damage_distribution(2, 2, 1, 3, options=SYSTEM.rules)
    assert (d[0], d[2], d[3]) == (F(1831, 2000), F(31, 500), F(9, 400))
    assert dict(d) == brute_damage(2, 2, 1, 3)
    assert dict(damage_distribution(2, 1, 3, 2, options=SYSTEM.rules)) == brute_damage(2, 1, 3, 2)


def test_apply_damage_zones_and_states():
    c = Character(might=2, base_hp=8)
    o = SYSTEM.apply_damage(c, 2, zone="neck")
    assert c.hp == 6 and c.wounds[-1]["kind"] == "decapitated" and o.defeated and o.details["state"] == "dead"
    d = Character(base_hp=4)
    o = SYSTEM.apply_damage(d, 5)
    assert d.hp == -1 and o.details["state"] == "incapacitated" and SYSTEM.is_defeated(d)
    assert not SYSTEM.with_rules(zero_hp_state="none").is_defeated(d)
    h = SYSTEM.apply_healing(d, 10)
    assert d.hp == d.hp_max and h.changes["hp"] == (-1, 4)
    e = Character(complexity=3, power=3)
    SYSTEM.apply_damage(e, 4, damage_type="pattern")
    assert e.ep == 2 and e.hp == e.hp_max
    SYSTEM.apply_damage(e, 9, damage_type="idea")
    assert e.ip == 0
    with pytest.raises(ValueError):
        SYSTEM.apply_damage(e, 1, damage_type="cold")
    assert SYSTEM.health(e) == (e.hp, e.hp_max)


def test_S17_luck_targeting():
    assert combat.luck_targeting({"a": 2, "b": 0, "c": 1}) == ["b"]
    assert combat.luck_targeting({"a": 0, "b": 0, "c": 1}) == ["a", "b"]
    cs = {k: Character(luck=2) for k in "abc"}
    t1, h1 = combat.pick_luck_target(cs, random.Random(3), options=SYSTEM.rules)
    t2, h2 = combat.pick_luck_target(cs, random.Random(3), options=SYSTEM.rules)
    assert t1 == t2 and t1 in cs and h1 == h2


def test_conditions_and_damage_options():
    ids = {c.id for c in SYSTEM.conditions()}
    assert {"transforming", "incapacitated", "dead", "limb_broken", "delayed_action", "not_participating"} <= ids
    t = next(c for c in SYSTEM.conditions() if c.id == "transforming")
    assert t.duration == 1 and t.unit == "turns"
    assert {o.name for o in SYSTEM.damage_options(Character())} >= {"damage_type", "zone", "transforming"}


@pytest.mark.parametrize("mode", ["reroll_all", "insert_newcomers"])
def test_join_combat(mode):
    options = opts(initiative_on_join=mode)
    cs = {"A": Character(dexterity=3, alertness=3), "B": Character(dexterity=1, alertness=1)}
    first = combat.roll_initiative(cs, rng=random.Random(2), options=options)
    allc = dict(cs, N=Character(dexterity=5, alertness=5))
    after = combat.join_combat(first, allc, ["N"], rng=random.Random(9), options=options)
    assert sorted(after.order) == ["A", "B", "N"]
    if mode == "insert_newcomers":
        assert [x for x in after.order if x != "N"] == list(first.order)
        assert after.rolls["A"] == first.rolls["A"]
    keys = [after.rolls[k].key for k in after.order]
    assert keys == sorted(keys, reverse=True)


def test_attack_between_characters():
    att = Character(
        dexterity=3,
        age="young",
        skills={"swords": 2},
        custom_skills={"swords": "dexterity"},
        inventory=[{"name": "sword", "category": "weapon", "damage": 3, "equipped": True}],
    )
    dfn = Character(
        dexterity=2,
        might=2,
        helmet="open",
        inventory=[{"name": "mail", "category": "armour", "protection": 3, "equipped": True}],
    )
    o = SYSTEM.attack(att, "dexterity+swords", dfn, "dexterity+dodge", att_faces=[7, 8, 9, 2, 2], def_faces=[6, 2])
    # dodge untrained: 1 raw - 1 = 0; 3 + 3 - 0 - 3 = 3
    assert o.hit and o.damage == 3 and o.defender.net == 0
    o = SYSTEM.attack(
        att, "dexterity+swords", dfn, "dexterity+dodge", zone="head_face", att_faces=[10, 8], def_faces=[2, 2]
    )
    assert o.armour_pierced and o.damage == 5 and o.zone_effect.kind == "face_lost"
    o = SYSTEM.attack(
        att, "dexterity+swords", dfn, "dexterity", block=True, direction="back", att_faces=[7], def_faces=[]
    )
    assert o.defender.pool == 0 and o.damage == 1
    unarmed = SYSTEM.attack(Character(age="young"), "dexterity", None, att_faces=[6])
    assert unarmed.damage == 1 + 1
    before = dfn.hp
    SYSTEM.apply_damage(dfn, o.damage)
    assert dfn.hp == before - 1
