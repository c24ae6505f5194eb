"""Every GM-configurable reading of spec §11.1, default and alternative."""

import random

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character, combat, magic, progression
from tabletop_systems.life_and_death.dice import read_faces
from tabletop_systems.life_and_death.options import DEFAULT_RULES
from tabletop_widgets.core import RuleError


def R(**kw):
    return SYSTEM.with_rules(**kw).rules


def pool(net, crits=0):
    return read_faces([10] * crits + [7] * (net - crits) + [3])


def test_every_option_is_known():
    assert set(SYSTEM.default_rules) == set(DEFAULT_RULES)
    with pytest.raises(ValueError):
        SYSTEM.with_rules(no_such_option=True)


def test_mode_quick():
    c = Character(dexterity=2, reputation=2, epic_dice=1)
    assert SYSTEM.roll_check(c, "dexterity", epic=1, faces=[2, 2]).total == 1
    with pytest.raises(RuleError):
        SYSTEM.with_rules(mode="quick").roll_check(c, "dexterity", epic=1, faces=[2, 2])
    with pytest.raises(RuleError):
        SYSTEM.with_rules(mode="quick").change_reputation(c, 1)


def test_feature_param_overflow():
    fs = [{"id": "brawn", "level": 1, "origin": "bought", "param_mods": {"might": 1}}]
    race = dict(might=5, dexterity=2, alertness=2, complexity=2, power=2, luck=2)
    c = Character(race_params=race, features=fs, **race)
    assert "W_FEATURE_PARAM_OVERFLOW" in {p.code for p in SYSTEM.validate(c)}
    assert "W_PARAM_LAYERS" not in {p.code for p in SYSTEM.validate(c)}
    err = SYSTEM.with_rules(feature_param_overflow="error")
    assert "E_FEATURE_PARAM_OVERFLOW" in {p.code for p in err.validate(c)}
    allow = SYSTEM.with_rules(feature_param_overflow="allow")
    c2 = allow.Character(race_params=race, features=fs, **dict(race, might=6))
    assert c2.might == 6 and not {"W_FEATURE_PARAM_OVERFLOW", "E_FEATURE_PARAM_OVERFLOW", "W_PARAM_LAYERS"} & {
        p.code for p in allow.validate(c2)
    }


def test_neck_armour():
    assert combat.zone_armour(3, "neck", options=SYSTEM.rules) == 3
    assert combat.zone_armour(3, "neck", options=R(neck_armour="none")) == 0


def test_armour_vs_spells():
    assert combat.resolve_attack(pool(1), None, 4, 2, spell=True, options=SYSTEM.rules).damage == 4
    assert combat.resolve_attack(pool(1), None, 4, 2, spell=True, options=R(armour_vs_spells=True)).damage == 2


def test_spell_level_manual():
    assert magic.spell_level(2, manual=4, options=R(spell_level_rule="manual")) == 4
    assert magic.spell_level(2, options=R(spell_level_rule="manual")) == 2


def test_wild_pattern_threshold():
    c = Character(complexity=3, power=3, skills={"life": 1})
    d = magic.SpellDesign(functions=1, brightness=1)
    assert SYSTEM.cast(c, "life", d, faces=[2, 2, 2]).notes
    assert not SYSTEM.with_rules(wild_pattern_brightness_threshold=3).cast(c, "life", d, faces=[2, 2, 2]).notes


def test_joint_cast_roller_and_ep():
    parts = {
        k: {"character": Character(power=2), "brightness": 1, "complexity": 1, "own_reserve": k == "A"} for k in "AB"
    }
    r = magic.joint_cast(parts, ["A", "B"], faces={"A": [6, 6], "B": [6, 6]}, options=SYSTEM.rules)
    assert r["roller"] == "B" and r["ep_effects"] == {"A": -1}
    assert (
        magic.joint_cast(parts, ["A", "B"], faces={"A": [6, 6], "B": [6, 6]}, options=R(joint_cast_roller="gm"))[
            "roller"
        ]
        is None
    )


def test_damage_type_pools():
    c = Character(complexity=3, power=3)
    SYSTEM.apply_damage(c, 2, damage_type="pattern")
    assert c.ep == c.ep_max - 2
    alt = SYSTEM.with_rules(damage_type_pools={"physical": "hp", "pattern": "hp", "spiritual": "sp", "idea": "ip"})
    c2 = alt.Character(complexity=3, power=3)
    alt.apply_damage(c2, 2, damage_type="pattern")
    assert c2.ep == c2.ep_max and c2.hp == c2.hp_max - 2


def test_initiative_tiebreak_reroll_and_gm():
    cs = {"X": Character(dexterity=3, alertness=3), "Y": Character(dexterity=3, alertness=3)}
    f = {"X": [6] * 6, "Y": [6] * 6}
    o = SYSTEM.with_rules(initiative_tiebreak="reroll").roll_initiative(cs, rng=random.Random(4), faces=f)
    assert sorted(o.order) == ["X", "Y"] and o.tiebreaks
    g = SYSTEM.with_rules(initiative_tiebreak="gm").roll_initiative(cs, rng=random.Random(4), faces=f)
    assert list(g.order) == ["X", "Y"] and "GM" in g.tiebreaks[0]["en"]


def test_counterattack_modes():
    att, counter = pool(2), pool(3)
    inc, back = combat.resolve_counterattack(att, counter, att_weapon=2, counter_weapon=2, options=SYSTEM.rules)
    assert inc.hit and inc.damage == 4 and back.hit and back.damage == 5  # separate: no defence either way
    inc, back = combat.resolve_counterattack(
        att, counter, att_weapon=2, counter_weapon=2, options=R(counterattack_mode="exchange")
    )
    assert not inc.hit and back.hit and back.damage == 2 + 3 - 2
    inc, back = combat.resolve_counterattack(
        pool(3), pool(3), att_weapon=2, counter_weapon=2, options=R(counterattack_mode="exchange")
    )
    assert not inc.hit and back is None


def test_speed_ii_extra_actions():
    c = Character(features=[{"id": "speed", "level": 2, "origin": "bought"}])
    assert combat.start_turn(c, 2, options=SYSTEM.rules).extra_left == 1
    assert combat.start_turn(c, 2, options=R(speed_ii_extra_actions=2)).extra_left == 2


def test_round1_free_actions():
    combat.take_action(combat.start_turn(Character(), 1, options=SYSTEM.rules), "talk", options=SYSTEM.rules)
    with pytest.raises(RuleError):
        combat.take_action(
            combat.start_turn(Character(), 1, options=SYSTEM.rules), "talk", options=R(round1_free_actions=False)
        )


def test_zero_hp_state_dead():
    c = Character(base_hp=3)
    assert SYSTEM.with_rules(zero_hp_state="dead").apply_damage(c, 3).details["state"] == "dead"


def test_raise_current_with_max():
    c = Character(complexity=2, power=2, ep=2)
    c.power = 3
    assert c.ep == 3
    alt = SYSTEM.with_rules(raise_current_with_max=False)
    c2 = alt.Character(complexity=2, power=2, ep=2)
    c2.power = 3
    assert c2.ep == 2
    c3 = alt.Character(complexity=2, power=2)
    c3.power = 3
    assert c3.ep == 5  # undamaged pools always follow


def test_enchant_multiplier_scope_on_sheet():
    item = {
        "name": "p",
        "category": "potion",
        "rarity": "rare",
        "brightness": 2,
        "spell_level": 2,
        "effects": ["physical_trigger"],
    }
    assert Character(inventory=[item]).inv_points_spent == 11
    assert SYSTEM.with_rules(enchant_multiplier_scope="spell_only").Character(inventory=[item]).inv_points_spent == 10


def test_inconspicuous_start_rep():
    fs = [{"id": "inconspicuous", "level": 1, "origin": "bought"}]
    assert progression.starting_reputation("good", fs, options=SYSTEM.rules) == 0
    assert progression.starting_reputation("good", fs, options=R(inconspicuous_start_rep=1)) == 1


def test_epic_clamp_on_rep_change():
    c = Character(reputation=3, epic_dice=3)
    SYSTEM.change_reputation(c, -1)
    assert c.epic_dice == 2
    c2 = Character(reputation=3, epic_dice=3)
    SYSTEM.with_rules(epic_clamp_on_rep_change=False).change_reputation(c2, -1)
    assert c2.epic_dice == 3 and "E_EPIC_DICE_CAP" in {p.code for p in SYSTEM.validate(c2)}


def test_xp_capped_counts_toward_total():
    mk = lambda: Character(might=2, skills={"athletics": 2}, skill_xp={"athletics": 5})  # noqa: E731
    c = mk()
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert c.xp == 1
    c2 = mk()
    SYSTEM.with_rules(xp_capped_counts_toward_total=False).end_of_session(c2, {"athletics": 1})
    assert c2.xp == 0


def test_transform_tier_includes_humanoid():
    kw = dict(
        luck=5,
        complexity=3,
        features=[{"id": "shapeshifter", "level": 1}],
        skills={"transformation": 1},
        custom_skills={"transformation": "complexity"},
        forms=[
            {"creature": "human", "tier": 4, "humanoid": True},
            {"creature": "a", "tier": 4},
            {"creature": "b", "tier": 3},
        ],
    )
    c = Character(**kw)
    assert "E_FORMS_TIER_SUM" not in {p.code for p in SYSTEM.validate(c)}
    assert "E_FORMS_TIER_SUM" in {p.code for p in SYSTEM.with_rules(transform_tier_includes_humanoid=True).validate(c)}


def test_luck_targeting_gm():
    cs = {k: Character(luck=2) for k in "ab"}
    assert combat.pick_luck_target(cs, random.Random(1), options=R(luck_targeting="gm")) == (None, [])
    assert combat.pick_luck_target(cs, random.Random(1), options=SYSTEM.rules)[0] in cs


def test_dodge_spell():
    assert combat.dodge_spell(2, 2) and not combat.dodge_spell(3, 2)
