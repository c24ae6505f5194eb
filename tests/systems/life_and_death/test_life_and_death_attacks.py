"""Life&Death's Game combat rules the audit found wrong (issue #16): transformation doubling
L119/L260, the brightness boost L314, a non-combat skill in combat L240. Seed lines ``L123`` point
into the book."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tabletop_widgets.core import RuleError
from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death import actions, magic


# -- the audit's findings ---------------------------------------------------------------------------------
def test_transforming_target_takes_double_damage_once_and_the_wound_follows_it():
    """L119: all damage to a transforming character is doubled (once); L260: the limb is severed at
    50% of max HP, broken at 25%: judged on the doubled damage."""
    att = Character(name="Kai", dexterity=2, inventory=[{"name": "Club", "category": "weapon", "damage": 2}])
    dfn = Character(name="Wolf", transforming=True)  # 10 HP
    # two successes, no crit, no defence: 2 + 2 = 4 -> doubled 8: severed (4 alone would only break it)
    o = SYSTEM.attack(att, "dexterity", dfn, None, weapon_damage=2, zone="limb", att_faces=[7, 8])
    assert o.damage == 8 and o.zone_effect.kind == "limb_severed"
    SYSTEM.apply_damage(dfn, o.damage, **o.apply_options)
    assert dfn.hp == dfn.hp_max - 8 and [w["kind"] for w in dfn.wounds] == ["limb_severed"]


def test_boosting_a_spell_does_not_forbid_acting_it_costs_the_complexity_roll():
    """L314: the boost takes the round; acting in it means a Complexity roll at -2 per ordinary
    action and -1 per free action."""
    turn = actions.start_turn(Character(), 2, options=SYSTEM.rules)
    actions.take_action(turn, "boost", options=SYSTEM.rules)
    actions.take_action(turn, "attack", options=SYSTEM.rules)  # refused before the fix
    actions.take_action(turn, "talk", options=SYSTEM.rules)
    assert turn.ordinary_left == 1 and turn.boost_roll_actions() == (1, 1)
    with pytest.raises(RuleError):
        actions.take_action(turn, "boost", options=SYSTEM.rules)
    mage = Character(complexity=4, power=3)
    spell = magic.Spell(brightness=2)
    out = magic.boost(spell, mage, *turn.boost_roll_actions(), faces=[6])  # 4 - 2 - 1 = 1 die
    assert out["roll"].pool == 1 and out["ok"] and spell.brightness == 3
    idle = actions.start_turn(Character(), 2, options=SYSTEM.rules)
    actions.take_action(idle, "boost", options=SYSTEM.rules)
    assert idle.boost_roll_actions() == (0, 0)  # no roll at all


def test_a_non_combat_skill_in_combat_rolls_alertness_first():
    """L240: using a non-combat skill in combat needs an Alertness roll; no success -> -1 die."""
    c = Character(dexterity=2, alertness=1, skills={"stealth": 1})
    # Alertness 1 die: no success 1/2 -> Stealth rolls 2 dice (3/4) instead of 3 (7/8)
    assert SYSTEM.chance(c, "dexterity+stealth", in_combat=True) == Fraction(1, 2) * Fraction(3, 4) + Fraction(
        1, 2
    ) * Fraction(7, 8)
    assert SYSTEM.chance(c, "dexterity+stealth") == Fraction(7, 8)
    spec = next(s for s in SYSTEM.checks(c) if s.id == "dexterity+stealth")
    assert spec.option("in_combat").default is False
    pools = set()
    for seed in range(12):
        r = SYSTEM.roll_check(c, "dexterity+stealth", in_combat=True, rng=random.Random(seed))
        first = r.details["alertness_first"]
        pools.add(r.details["pool"])
        assert r.details["pool"] == (2 if first["successes"] == 0 else 3)
        assert "Alertness first" in r.text("en") and "сначала Восприятие" in r.text("ru")
    assert pools == {2, 3}
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "dexterity", in_combat=True)
