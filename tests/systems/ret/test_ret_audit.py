"""The rules the audit of issue #17 found for RET, each played through the system as a player or
the tracker would, citing the seed line (``000_616609df81580a02.txt``)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from ret_testkit import Scripted
from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.sheet import SHEET
from tabletop_widgets.core import Combat, RuleError

POWER = {
    "name": "Telepathy",
    "kind": "talent",
    "base_param": "intuition",
    "level": 4,
    "is_superpower": True,
    "sanity_cost": 2,
}


def check(c, check_id):
    return next(s for s in SYSTEM.checks(c) if s.id == check_id)


# -- L1158-1159: analysis with a superpower costs no Sanity -------------------------------------------
def test_using_a_superpower_costs_its_sanity_but_analysing_with_it_does_not():
    """L1158: a superpower costs at least 1 Sanity per use; L1159: not when it is used for an
    analysis roll, understanding the situation or theorising about the power."""
    c = Character(name="Vera", abilities=[POWER])
    assert "analysis" in [o.name for o in check(c, "talent:Telepathy").options]
    used = SYSTEM.roll_check(c, "talent:Telepathy", rng=Scripted(3))
    assert [(e.trait, e.delta) for e in used.effects] == [("sanity", -2)]
    analysed = SYSTEM.roll_check(c, "talent:Telepathy", rng=Scripted(3), analysis=True)
    assert analysed.total == used.total and analysed.effects == []
    SYSTEM.apply_result(c, analysed)
    assert c.sanity == c.sanity_max
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, "talent:Telepathy", rng=Scripted(3), analysis=True, extra_sanity=1)
    assert err.value.code == "analysis_boost" and "nothing to boost" in str(err.value)


# -- L1636: mind control resisted by Perception vs Mind or Will vs Emotions ----------------------------
@pytest.mark.parametrize(("param", "threshold"), [("perception", "mind"), ("will", "emotions")])
def test_mind_control_is_resisted_by_perception_against_mind_or_will_against_emotions(param, threshold):
    """L1636: control not held by an opponent is resisted by Perception against the value of
    Mind, or by Will against the value of Emotions, by the nature of the control."""
    c = Character(name="Vera", attention=6, intuition=6, composure=4, leadership=4, inspiration=2, charisma=2)
    assert (c.perception, c.mind, c.will, c.emotions) == (6, 4, 4, 3)
    spec = check(c, "resist:mind_control")
    assert [v for v, _ in spec.option("param").choices] == ["perception", "will"]
    assert spec.help["en"] == "Perception vs Mind (4) or Will vs Emotions (3)"
    result = SYSTEM.roll_check(c, "resist:mind_control", rng=random.Random(1), param=param)
    assert result.details["param"] == param and result.details["difficulty"] == getattr(c, threshold)
    assert SYSTEM.chance(c, "resist:mind_control", param=param) > 0
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, "resist:mind_control", rng=random.Random(1), param="charisma")
    assert err.value.code == "bad_param" and "Will (against Emotions)" in str(err.value)


def test_the_two_mind_control_readings_give_different_odds():
    c = Character(name="Vera", attention=6, intuition=6, inspiration=2, charisma=2)
    assert (c.perception, c.mind, c.will, c.emotions) == (6, 4, 3, 2)
    by_perception = SYSTEM.chance(c, "resist:mind_control", param="perception")  # d12 >= 4: faces 4-12
    by_will = SYSTEM.chance(c, "resist:mind_control", param="will")  # d6 >= 2: faces 2-6
    assert (by_perception, by_will) == (Fraction(9, 12), Fraction(5, 6))


# -- L843-854: immobilising attacks ----------------------------------------------------------------------
def test_a_grab_is_an_attack_that_restrains_instead_of_harming():
    """L845: immobilising attacks (grab, arm lock, binding) may do no harm but put a state on the
    target; L847: Physique for a grab, L849: Fine Motor with ropes or handcuffs."""
    ann, bob = Character(name="Ann", physique=5), Character(name="Bob")
    spec = next(s for s in SYSTEM.attacks(ann, bob) if s.id == "immobilise:unarmed")
    assert [v for v, _ in spec.option("roll").choices] == ["physique", "fine_motor"]
    assert spec.option("hold").default == "person" and spec.defender_options == ("defence", "defence_luck", "detection")
    odds = SYSTEM.attack_odds(ann, bob, "immobilise:unarmed")
    assert odds.damage == {0: 1} and 0 < odds.p_hit < 1 and odds.p_defeat == 0
    combat = Combat(SYSTEM, rng=Scripted(5, 2))  # Physique d10: 5; Bob's dodge d6: 2
    combat.add("ann", ann)
    combat.add("bob", bob)
    event = combat.attack("ann", "bob", "immobilise:unarmed")
    assert event["hit"] and event["text"]["en"].endswith("hit: Restrained")
    assert bob.health == bob.health_max and bob.sanity == bob.sanity_max
    (inst,) = event["conditions"]
    assert (inst["condition"], inst["data"]) == ("restrained", {"held_by": "person", "roll": 5})
    assert [x["id"] for x in bob.conditions] == ["restrained"]
    assert SYSTEM.turn_limits(bob)["defence"] == "limited"


def test_a_bound_character_breaks_free_against_the_binding_roll():
    """L852: bound by an object, breaking free is an action rolled against the binding roll,
    which must be remembered; L851: held in person, a new contest with the holder."""
    ann, bob = Character(name="Ann"), Character(name="Bob")
    combat = Combat(SYSTEM, rng=Scripted(4, 1, 2))  # Fine Motor 4; Bob's dodge fails (1, d4 2)
    combat.add("ann", ann)
    combat.add("bob", bob)
    event = combat.attack("ann", "bob", "immobilise:unarmed", roll="fine_motor", hold="object")
    assert event["hit"] and "a roll of at least 4" in event["notes"][-1]["en"]
    free = check(bob, "resist:restrained")
    assert "binding roll (4)" in free.help["en"]
    assert SYSTEM.chance(bob, "resist:restrained") == Fraction(1, 2)  # d6 >= 4
    result = SYSTEM.roll_check(bob, "resist:restrained", rng=Scripted(4))
    assert result.success and result.details["difficulty"] == 4
    SYSTEM.apply_result(bob, result)
    assert bob.conditions == []
    held = Character(name="Cid", conditions=[{"id": "restrained", "held_by": "person", "roll": 5}])
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(held, "resist:restrained", rng=Scripted(4))
    assert err.value.code == "holder_roll_needed"
    tie = SYSTEM.roll_check(held, "resist:restrained", rng=Scripted(4), holder_roll=4)
    assert tie.success is False, "the holder wins a tie (L502)"


def test_a_superpower_holds_for_its_sanity():
    """L853: immobilising with a superpower costs Sanity."""
    ann = Character(name="Ann", abilities=[POWER])
    bob = Character(name="Bob")
    ids = [s.id for s in SYSTEM.attacks(ann, bob)]
    assert "immobilise:telepathy" in ids
    out = SYSTEM.resolve_attack(ann, bob, "immobilise:telepathy", rng=Scripted(4, 1, 3))
    assert [(e.trait, e.delta) for e in out.attacker_effects] == [("sanity", -2)]
    assert out.hit and out.damage == 0 and [c.condition for c in out.conditions] == ["restrained"]


# -- a stunned character's tray shows the die actually rolled ------------------------------------------
def test_a_stunned_characters_checks_show_the_die_it_rolls():
    """L1567, L620 (stun: −1 die level on every roll): level 3 rolls d6-1, so the tray's notation and
    help say d6-1, not d6, before the roll as well as after it."""
    c = Character(
        name="Vera", abilities=[{"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 2}]
    )
    assert check(c, "attention").notation == "L3"
    c.conditions = [{"id": "stunned"}]
    attention = check(c, "attention")
    assert attention.notation == "L3 dl-1"
    assert "rolls d6-1, not d6" in attention.help["en"] and "бросается d6-1, а не d6" in attention.help["ru"]
    assert check(c, "skill:Lockpicking").notation == "L3+2 dl-1"
    assert check(c, "dodge").notation == "L3 dl-1"
    result = SYSTEM.roll_check(c, "attention", rng=Scripted(4))
    assert result.total == 3 and result.details["die"] == "d6-1"
    assert str(result.roll).startswith("L2 d6-1: 4 -1 = 3")
    ann = Character(name="Ann", conditions=[{"id": "stunned"}])
    odds = SYSTEM.attack_odds(ann, Character(name="Bob"), "melee:unarmed")
    assert "L3 dl-1" in odds.notes[0]["en"]


# -- the "kept between sessions" token flag is the one the code reads (L1474, L1479) ---------------------
def test_tokens_are_one_shot_and_only_those_kept_between_sessions_survive_a_new_session():
    """L1474: a token is a one-shot bonus; L1479: whether tokens are kept between games is the
    GM's call: the sheet's "Kept between sessions" flag (``persistent``)."""
    field = next(f for f in SHEET.field("tokens").item_fields if f.name == "persistent")
    assert field.label["en"] == "Kept between sessions" and field.gm_only
    tokens = [
        {"name": "Blessing", "kind": "flat", "amount": 4, "persistent": True},
        {"name": "Good mood", "kind": "flat", "amount": 2},
        {"name": "Focus", "kind": "die_level", "amount": 1, "persistent": True},
    ]
    c = Character(name="Vera", tokens=tokens)
    c.phase = "play"
    result = SYSTEM.roll_check(c, "inspiration", rng=Scripted(3), token="Focus")
    SYSTEM.apply_result(c, result)
    assert [t["name"] for t in c.tokens] == ["Blessing", "Good mood"], "used up, even a kept one"
    out = SYSTEM.session_started(c)
    assert [t["name"] for t in c.tokens] == ["Blessing"]
    assert any("Good mood" in n["en"] for n in out.notes)
