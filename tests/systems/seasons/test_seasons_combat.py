"""Combat and harm (spec §6, §7.2-7.4, §7.6): every step, and both readings of each GM option."""

import random

import pytest

from tabletop_widgets.core import ConditionSpec, InitiativeOrder, RuleError
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons import conditions, objects
from helpers import FixedRng


def party(**inits):
    return {cid: Character(intelligence=v - 2) for cid, v in inits.items()}


# -- initiative ---------------------------------------------------------------------------------
def test_initiative_without_ties_rolls_nothing():
    order = SYSTEM.roll_initiative(party(a=5, b=9, c=7), rng=FixedRng())
    assert isinstance(order, InitiativeOrder) and list(order.order) == ["b", "c", "a"] and order.tiebreaks == []
    assert order.rolls["b"].key == (9,) and order.rolls["b"].text["ru"]


def test_initiative_is_deterministic_given_the_rng():
    group = party(a=6, b=6, c=6, d=6, e=4, f=4)
    one = SYSTEM.roll_initiative(group, rng=random.Random(42))
    two = SYSTEM.roll_initiative(group, rng=random.Random(42))
    assert one.order == two.order and one.tiebreaks == two.tiebreaks and len(one.tiebreaks) == 2
    keys = [one.rolls[i].key for i in one.order]
    assert keys == sorted(keys, reverse=True)


def test_initiative_endless_ties_fall_back_to_listed_order():
    class Always5:
        def randint(self, a, b):
            return 5

    order = SYSTEM.roll_initiative(party(x=6, y=6), rng=Always5())
    assert list(order.order) == ["x", "y"] and "listed order" in order.tiebreaks[0]["en"]


def test_reroll_ties_each_round_readings():
    group = party(a=6, b=6)
    first = SYSTEM.roll_initiative(group, rng=FixedRng(9, 1))
    assert SYSTEM.initiative_for_round(first, group, rng=FixedRng()) is first
    again = SYSTEM.with_rules(reroll_ties_each_round=True).initiative_for_round(first, group, rng=FixedRng(1, 9))
    assert list(first.order) == ["a", "b"] and list(again.order) == ["b", "a"]


def test_late_joiner_inserted_by_initiative():
    group = party(a=9, b=6, c=4)
    order = SYSTEM.roll_initiative(group, rng=FixedRng())
    group["d"] = Character(intelligence=4)  # initiative 6
    order = SYSTEM.insert_combatant(order, group, "d")
    assert list(order.order) == ["a", "b", "d", "c"]


# -- action economy -------------------------------------------------------------------------------
def test_round_actions():
    ra = SYSTEM.round_actions()
    ra.use_normal("a")
    with pytest.raises(RuleError):
        ra.use_normal("a")
    ra.use_instant("a", "suppress_pain")
    ra.use_instant("a", "notice_clue")
    with pytest.raises(RuleError):
        ra.use_instant("a", "suppress_pain")
    ra.new_round()
    ra.use_normal("a")


def test_instants_with_normal_reading():
    ra = SYSTEM.with_rules(instants_with_normal=False).round_actions()
    ra.use_instant("a", "notice_clue")
    with pytest.raises(RuleError):
        ra.use_normal("a")
    ra.use_normal("b")
    with pytest.raises(RuleError):
        ra.use_instant("b", "notice_clue")


def test_extended_checks_not_in_round_time_and_first_aid_reading():
    ra = SYSTEM.round_actions()
    with pytest.raises(RuleError):
        ra.check_duration("extended", "repair_object")
    with pytest.raises(RuleError):
        ra.check_duration("extended", "first_aid")
    SYSTEM.with_rules(first_aid_in_rounds=True).round_actions().check_duration("extended", "first_aid")
    ra.check_duration("normal", "shooting")


# -- attacks -------------------------------------------------------------------------------------
def test_attack_subtracts_pd_and_armour():
    att = Character(strength=3, melee=3, weapons=[{"name": "club", "attack_bonus": 1}])
    target = Character(stamina=2, armour=[{"name": "leather", "penalty": 1}])
    r = SYSTEM.attack(att, target, "melee", weapon="club", rng=FixedRng(6, 6, 6, 1))
    assert r.details["pool"] == 3 + 3 + 1 - 2 - 1 and r.details["damage"] == 3
    assert target.damage == 0  # nothing applied by the roll


def test_unarmed_attack_ignores_weapon_bonus():
    att = Character(strength=3, melee=2, weapons=[{"name": "club", "attack_bonus": 1}])
    r = SYSTEM.attack(att, Character(stamina=1), "unarmed", weapon="club", rng=FixedRng(1, 1, 1, 1))
    assert r.details["pool"] == 4 and r.success is False and "damage" not in r.details


def test_attack_with_weapon_mapping_and_shooting_uses_dexterity():
    att = Character(dexterity=4, strength=1, ranged=2)
    r = SYSTEM.attack(att, Character(stamina=2), "shooting", weapon={"attack_bonus": 2}, rng=FixedRng(1, 1, 1, 1, 1, 1))
    assert r.details["pool"] == 6
    with pytest.raises(ValueError):
        SYSTEM.attack(att, Character(), "kick")


def test_ap_reduces_pd_reading():
    att = Character(strength=3, melee=2)
    target = Character(stamina=3, armour=[{"name": "vest", "penalty": 3}])
    w = {"attack_bonus": 2, "armour_piercing": 4}
    assert SYSTEM.attack(att, target, "melee", weapon=w, rng=FixedRng(1, 1, 1, 1)).details["pool"] == 4
    r = SYSTEM.with_rules(ap_reduces_pd=True).attack(att, target, "melee", weapon=w, rng=FixedRng(*[1] * 7))
    assert r.details["pool"] == 7


def test_multiple_targets_use_highest_defence():
    att = Character(presence=4, intimidation=3)
    assert SYSTEM.pool_plan(att, "frighten", targets=[1, 3, 2]).opposition == 3


# -- damage, Pain, defeat -------------------------------------------------------------------------
def test_apply_damage_flags_and_notes():
    c = Character()
    out = SYSTEM.apply_damage(c, 5)
    assert c.damaged_this_scene and c.pain_active and out.changes["damage"] == (0, 5) and not out.defeated
    assert any("Pain" in n["en"] for n in out.notes) and out.state["en"].startswith("in pain")
    with pytest.raises(ValueError):
        SYSTEM.apply_damage(c, -1)
    assert SYSTEM.apply_damage(c, 0).changes == {}


def test_zero_health_outcome_reading():
    c = Character(damage=9)
    out = SYSTEM.with_rules(zero_health_outcome="captured").apply_damage(c, 3)
    assert out.defeated and any("captured" in n["en"] for n in out.notes)


def test_quick_fight_mook_option():
    mook = Character(stamina=2)
    out = SYSTEM.apply_damage(mook, 1, quick_fight_mook=True)
    assert out.defeated and mook.is_out
    assert [o.name for o in SYSTEM.damage_options(mook)] == ["quick_fight_mook", "outcome"]


def test_pain_suppression_cycle():
    c = Character(stamina=3, athletics=3, damage=5)
    with pytest.raises(RuleError):
        SYSTEM.suppress_pain(Character(), rng=FixedRng())
    r = SYSTEM.suppress_pain(c, rng=FixedRng())  # 3 + 3 - 5 - 3 (own Pain) = -2: impossible
    assert r.details["impossible"] and c.pain_failed_this_scene
    with pytest.raises(RuleError):
        SYSTEM.suppress_pain(c, rng=FixedRng())
    SYSTEM.apply_damage(c, 0)
    assert c.pain_failed_this_scene  # no damage, no new attempt
    SYSTEM.apply_damage(c, 1)
    assert not c.pain_failed_this_scene
    c2 = Character(stamina=5, athletics=5, damage=5)
    SYSTEM.suppress_pain(c2, rng=FixedRng(6, 1))
    assert c2.pain_suppressed
    with pytest.raises(RuleError):
        SYSTEM.suppress_pain(c2, rng=FixedRng())
    SYSTEM.end_scene(c2)
    assert not c2.pain_suppressed and c2.pain_active and not c2.damaged_this_scene


def test_first_aid_rules():
    healer = Character(wits=3, medicine=3)
    with pytest.raises(RuleError):
        SYSTEM.first_aid(healer, Character(damage=3), rng=FixedRng())  # not this scene's damage
    p = Character()
    SYSTEM.apply_damage(p, 2)
    r = SYSTEM.first_aid(healer, p, rng=FixedRng(6, 1, 1, 1))
    assert r.success and p.damage == 1 and p.first_aid_used_this_scene
    SYSTEM.apply_damage(p, 1)
    with pytest.raises(RuleError):
        SYSTEM.first_aid(healer, p, rng=FixedRng())  # new damage does not re-open it (§11 #9)
    SYSTEM.end_scene(p)
    assert not p.first_aid_used_this_scene


def test_treatment_once_per_day_and_rest():
    doctor, p = Character(intelligence=3, medicine=3), Character(damage=4)
    SYSTEM.treatment(doctor, p, rng=FixedRng(1, 1))
    assert p.treated_today and p.damage == 4
    with pytest.raises(RuleError):
        SYSTEM.treatment(doctor, p, rng=FixedRng())
    out = SYSTEM.new_day(p, treated_yesterday=True)
    assert p.damage == 3 and not p.treated_today and out.details["source"] == "rest"
    SYSTEM.with_rules(treatment_stacks_with_rest=False).new_day(p, treated_yesterday=True)
    assert p.damage == 3
    SYSTEM.night_rest(p)
    assert p.damage == 2
    with pytest.raises(RuleError):
        SYSTEM.treatment(doctor, Character(), rng=FixedRng())


def test_healing_clamps_and_reports_pain_end():
    c = Character(damage=5)
    out = SYSTEM.apply_healing(c, 9)
    assert c.damage == 0 and any(n["en"] == "Pain ends" for n in out.notes)
    with pytest.raises(ValueError):
        SYSTEM.apply_healing(c, -1)


# -- threats, objects ---------------------------------------------------------------------------
def test_threat_is_a_check_against_pd():
    r = SYSTEM.threat(Character(stamina=2), 10, rng=FixedRng(*([6] * 8)))
    assert r.details["pool"] == 8 and r.details["damage"] == 8


def test_objects():
    door = {"name": "door", "size": 5, "structure_damage": 0, "durability": 3}
    hit = objects.damage_object(door, 12)
    assert hit["destroyed"] and hit["structure_damage"] == 10
    assert objects.repair_object(hit, 1, options=SYSTEM.rules)["structure_damage"] == 0
    assert (
        objects.repair_object(hit, 3, options=SYSTEM.with_rules(repair_restores="successes").rules)["structure_damage"]
        == 7
    )
    assert objects.repair_object(hit, 0, options=SYSTEM.rules)["structure_damage"] == 10
    assert objects.effective_armour(3, 5) == 0 and objects.effective_armour(4, 1) == 3


# -- conditions --------------------------------------------------------------------------------
def test_condition_catalogue():
    cat = SYSTEM.conditions()
    assert len(cat) == 17 and all(isinstance(c, ConditionSpec) for c in cat)
    assert all(c.stacks for c in cat[:14]) and [c.id for c in cat[14:]] == ["fled", "surrendered", "exposed"]
    by_id = {c.id: c for c in cat}
    assert by_id["pain"].data["removal_check"] == "stamina+athletics"
    assert by_id["phobia"].data["removal_check"] == "resolve+occult"
    assert by_id["emotional_sway"].data["retry_interval"] == "day"
    assert by_id["hunger_thirst_fatigue"].data["kind"] == "physical"
    assert all(c.label["ru"] and c.effect["ru"] for c in cat)


def test_shake_off_condition():
    c = Character(
        composure=3, empathy=2, conditions=[conditions.condition_entry("emotional_sway", removal_difficulty=4)]
    )
    r = SYSTEM.shake_off_condition(c, 0, rng=FixedRng(1))
    assert r.details["pool"] == 1 and not r.success and len(c.conditions) == 1
    r = SYSTEM.shake_off_condition(c, 0, rng=FixedRng(7))
    assert r.success and c.conditions == []
    with pytest.raises(RuleError):
        conditions.condition_entry("leprosy")


def test_condition_penalties_stack():
    c = Character(conditions=[conditions.condition_entry("phobia"), conditions.condition_entry("fixation")])
    assert SYSTEM.condition_penalty(c) == -6
    assert SYSTEM.pool_plan(c, "wits+occult", conditions=2).pool == 1 - 6 - 3


# -- Drama outside checks --------------------------------------------------------------------------
def test_drama_after_roll_reading():
    pc = Character(drama=3)
    ledger = SYSTEM.drama_ledger()
    ledger.rolled = True
    with pytest.raises(RuleError):
        ledger.spend("pc", pc)
    late = SYSTEM.with_rules(drama_after_roll=True).drama_ledger()
    late.rolled = True
    assert late.spend("pc", pc).delta == -1


def test_drama_per_check_reading():
    a, b = Character(drama=2), Character(drama=2)
    ledger = SYSTEM.drama_ledger()
    ledger.spend("a", a, "boost_own")
    ledger.spend("b", b, "hinder_opponent")
    assert ledger.pool_modifier == 0
    strict = SYSTEM.with_rules(drama_limit="per_check").drama_ledger()
    strict.spend("a", a)
    with pytest.raises(RuleError):
        strict.spend("b", b, "hinder_opponent")


def test_drama_reset_reading():
    c = Character(presence=3, manipulation=2, composure=2, drama=12)
    SYSTEM.with_rules(drama_reset="only_if_lower").new_story(c)
    assert c.drama == 12
    c.drama = 2
    SYSTEM.with_rules(drama_reset="only_if_lower").new_story(c)
    assert c.drama == 7


def test_chapter_award_limits():
    with pytest.raises(RuleError):
        SYSTEM.chapter_award(Character(), archetype=6)
    with pytest.raises(RuleError):
        SYSTEM.chapter_award(Character(is_player_character=False), goal=1)


# -- carried modifiers, ambush, doors -------------------------------------------------------------
def test_pending_modifiers_are_consumed_once():
    c = Character()
    SYSTEM.add_pending(c, "aim", 2, "shooting")
    SYSTEM.add_pending(c, "previous successes", 3)
    SYSTEM.add_pending(c, "frightened", -3, "melee")
    assert SYSTEM.take_pending(c, "shooting") == 5
    assert SYSTEM.take_pending(c, "shooting") == 0
    assert SYSTEM.take_pending(c, "melee") == -3 and c.pending_penalties == []
    with pytest.raises(ValueError):
        SYSTEM.add_pending(c, "x", 0)


def test_inspire_and_frighten_readings():
    a, b = Character(), Character()
    SYSTEM.inspire([a])
    SYSTEM.with_rules(inspire_bonus=2).inspire([b])
    assert SYSTEM.take_pending(a) == 3 and SYSTEM.take_pending(b) == 2
    SYSTEM.frighten([a])
    SYSTEM.with_rules(frighten_penalty=1).frighten([b])
    assert SYSTEM.take_pending(a) == -3 and SYSTEM.take_pending(b) == -1


def test_ambush_mode_readings():
    thieves = {"t": Character(dexterity=3, larceny=3)}
    guards = {"g1": Character(resolve=2), "g2": Character(resolve=4)}
    assert SYSTEM.ambush_plan(thieves, guards) == {"check_id": "sneak", "rollers": ["t"], "difficulty": 4}
    plan = SYSTEM.with_rules(ambush_mode="observer_rolls").ambush_plan(thieves, guards, difficulty=5)
    assert plan == {"check_id": "notice_clue", "rollers": ["g1", "g2"], "difficulty": 5}


def test_hold_door_tie_keeps_the_door_shut():
    holder = Character(strength=2, athletics=1)  # pool 3
    r = SYSTEM.roll_check(holder, "hold_door", opponent_pool=3, rng=FixedRng(6, 1, 1, 6, 1, 1))
    assert r.details["winner"] == "tie" and r.details["door_held"]
    r = SYSTEM.roll_check(holder, "hold_door", opponent_pool=3, rng=FixedRng(1, 1, 1, 6, 1, 1))
    assert not r.details["door_held"]
