"""Energetics (spec §7.1, vectors D-80..D-97, S-06, S-10, S-13)."""

from fractions import Fraction

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death import magic
from tabletop_systems.life_and_death.magic import SpellDesign, spell_complexity, spell_level
from tabletop_widgets.core import RuleError


def opts(**changes):
    """The GM options with ``changes`` (a system built with them)."""
    return SYSTEM.with_rules(**changes).rules


F = Fraction


def test_D80_D81_D82_D83():
    d = SpellDesign(functions=1, triggers=1, form="sharpened", facet="khtruum")
    assert magic.raw_complexity(d) == 4
    with pytest.raises(RuleError):
        spell_complexity(d, 3, options=SYSTEM.rules)
    assert spell_complexity(d, 3, options=opts(spell_complexity_over_skill="clamp")) == 3
    assert (
        spell_complexity(
            SpellDesign(functions=1, triggers=1, form="sharpened", facet="yinsta"), 3, options=SYSTEM.rules
        )
        == 2
    )
    assert spell_complexity(SpellDesign(facet="yinsta"), 0, options=SYSTEM.rules) == 0
    big = SpellDesign(transmutation=True, pinpoint=True, form="complex")
    assert magic.raw_complexity(big) == 9
    for s in range(6):
        with pytest.raises(RuleError):
            spell_complexity(big, s, options=SYSTEM.rules)


@pytest.mark.parametrize(
    "sections,cost",
    [(["a", "a"], 1), (["a", "b"], 2), (["a", "a", "b"], 3), (["a"], 0)],
    ids=["D-84-same", "D-84-diff", "D-84-three", "one-style"],
)
def test_D84_mixing(sections, cost):
    assert magic.mix_cost(sections) == cost


def test_S06_style_override():
    life = SpellDesign(functions=1, form="simple")
    assert spell_complexity(life, 3, options=SYSTEM.rules) == 2
    resto = SpellDesign(functions=1, form="simple", complexity_factor=2)
    assert magic.raw_complexity(resto) == 4
    with pytest.raises(RuleError):
        spell_complexity(resto, 3, options=SYSTEM.rules)


def test_D85_casting_pool():
    c = Character(complexity=4, power=3, skills={"life": 3})
    d = SpellDesign(functions=1, form="simple")
    assert magic.casting_pool(4, 3, 2, 2) == 3
    assert spell_level(2, options=SYSTEM.rules) == 2
    assert magic.cast_chance(c, "life", d, target_complexity=2, options=SYSTEM.rules) == F(1, 2)


def test_D86_parameters():
    assert magic.spell_parameters(3) == {"damage": 3, "duration_rounds": 3, "max_targets": 9, "cast_range_m": 15}


@pytest.mark.parametrize("own,ep", [(True, 2), (False, 5)], ids=["D-87-own", "D-87-free"])
def test_D87_ep_cost(own, ep):
    c = Character(complexity=3, power=3, skills={"life": 2})
    assert c.ep == 6
    c.ep = 5
    r = SYSTEM.cast(c, "life", SpellDesign(functions=1, brightness=3, own_reserve=own), faces=[6, 6, 6, 6, 6])
    assert r.outcome == "as_designed" and c.ep == 5  # not applied silently
    SYSTEM.apply_effects(c, r.effects)
    assert c.ep == ep


def test_D88_ep_refusal():
    c = Character(complexity=3, power=4, skills={"life": 1}, ep=3)
    with pytest.raises(RuleError):
        SYSTEM.cast(c, "life", SpellDesign(brightness=4, own_reserve=True), faces=[6])


def test_D89_brightness_cap():
    c = Character(complexity=3, power=3, skills={"life": 1})
    with pytest.raises(RuleError):
        SYSTEM.cast(c, "life", SpellDesign(brightness=4), faces=[6])


@pytest.mark.parametrize(
    "faces,net,outcome",
    [
        ([6, 6, 1, 1, 1], 2, "basic_spell"),
        ([2, 3, 4, 5, 2], 0, "nothing"),
        ([1, 2, 3, 4, 5], 0, "nothing_fumble"),
        ([6, 7, 8, 1, 1], 3, "as_designed"),
    ],
    ids=["S-10-basic", "S-10-nothing", "S-10-fumble", "S-10-pass"],
)
def test_S10_spell_level_difficulty(faces, net, outcome):
    c = Character(complexity=5, power=3, skills={"life": 5})
    r = SYSTEM.cast(c, "life", SpellDesign(functions=2, form="simple"), faces=faces)
    assert r.level == 3 and r.roll.net == net and r.outcome == outcome
    if outcome != "as_designed":
        assert r.notes


def test_failed_spell_gm_option():
    c = Character(complexity=5, power=3, skills={"life": 5})
    r = SYSTEM.with_rules(failed_spell_fallback="gm").cast(
        c, "life", SpellDesign(functions=2, form="simple"), faces=[6, 6, 1, 1, 1]
    )
    assert r.outcome == "gm"


def test_ep_cost_on_failure_option():
    c = Character(complexity=3, power=3, skills={"life": 1})
    d = SpellDesign(brightness=2, own_reserve=True, functions=1)
    assert SYSTEM.cast(c, "life", d, faces=[2, 2, 2]).effects
    assert not SYSTEM.with_rules(ep_cost_on_failure=False).cast(c, "life", d, faces=[2, 2, 2]).effects


def test_D90_boost_while_acting_fails():
    c = Character(complexity=3, power=3)
    s = magic.Spell(brightness=2)
    r = magic.boost(s, c, ordinary_actions=1, free_actions=1, faces=[])
    assert r["roll"].pool == 0 and not r["ok"] and s.dissipated


def test_D91_boost_idle():
    s = magic.Spell(brightness=2)
    assert magic.boost(s, Character(complexity=3, power=3))["brightness"] == 3


def test_D92_boost_limits():
    c = Character(power=3)
    with pytest.raises(RuleError):
        magic.boost(magic.Spell(brightness=3), c)
    s = magic.Spell(brightness=1)
    magic.boost(s, c)
    with pytest.raises(RuleError):
        magic.boost(s, c)
    with pytest.raises(RuleError):
        magic.boost(magic.Spell(brightness=1, casters=("a", "b")), c)


@pytest.mark.parametrize("radii,r", [([5, 8], 6), ([3, 4, 4], 3)], ids=["D-93-a", "D-93-b"])
def test_D93_mixed_radius(radii, r):
    assert magic.mixed_radius(radii) == r


@pytest.mark.parametrize(
    "types,t",
    [(["physical", "spiritual"], "spiritual"), (["pattern", "physical"], "pattern")],
    ids=["D-94-a", "D-94-b"],
)
def test_D94_mixed_damage_type(types, t):
    assert magic.mixed_damage_type(types) == t


def test_D95_joint_casting():
    A = Character(power=3, dexterity=2, alertness=2)
    B = Character(power=2, dexterity=2, alertness=2)
    C = Character(power=2, dexterity=1, alertness=1)
    parts = {
        "A": {"character": A, "brightness": 3, "complexity": 2},
        "B": {"character": B, "brightness": 2, "complexity": 3},
        "C": {"character": C, "brightness": 2, "complexity": 1},
    }
    r = magic.joint_cast(
        parts, ["A", "B", "C"], faces={"A": [6, 1, 1, 1], "B": [7, 2, 2, 2], "C": [2, 2]}, options=SYSTEM.rules
    )
    assert r["lost_action"] == ["C"] and r["brightness"] == 5 and r["complexity"] == 3 and r["turn_of"] == "B"


def test_D96_facet_transition():
    r = magic.facet_transition(4, ["poison", "curse"], [1, 1], options=SYSTEM.rules)
    assert r["pool"] == 2 and r["cleared"] == ["poison", "curse"] and r["failed"]
    assert r["per_facet"] == 3 and r["total"] == 6
    assert (
        magic.facet_transition(4, ["poison", "curse"], [1, 1], options=opts(facet_transition_damage="once"))["total"]
        == 3
    )


def test_S13_physical_spell_other_facet():
    from tabletop_systems.life_and_death.dice import read_faces

    s = read_faces([7, 9, 2]).net
    assert magic.physical_spell_other_facet(3, s, ["burning"]) == {"damage": 1, "effects": []}
    assert magic.physical_spell_other_facet(3, 0, ["burning"]) == {"damage": 3, "effects": ["burning"]}


@pytest.mark.parametrize("cx,default,plus1", [(0, 1, 1), (3, 3, 4)], ids=["D-97-0", "D-97-3"])
def test_D97_spell_level(cx, default, plus1):
    assert spell_level(cx, options=SYSTEM.rules) == default
    assert spell_level(cx, options=opts(spell_level_rule="complexity_plus_1")) == plus1


def test_spell_duration_tick():
    s = magic.Spell(brightness=2)
    assert not s.tick() and s.tick()
    s2 = magic.Spell(brightness=3)
    s2.took_effect()
    assert s2.dissipated


def test_cast_as_named_check():
    c = Character(complexity=4, power=3, skills={"life": 3}, epic_dice=1, reputation=2)
    assert "cast:life" in {s.id for s in SYSTEM.checks(c)}
    d = SYSTEM.check_distribution(c, "cast:life", functions=1, form="simple", target_complexity=2)
    assert d.p_pass == F(1, 2)
    r = SYSTEM.roll_check(c, "cast:life", functions=1, brightness=2, own_reserve=True, faces=[6, 6, 1, 2, 3])
    assert r.success and r.details["cast_outcome"] == "as_designed" and r.details["spell"]["max_targets"] == 4
    assert [(e.trait, e.delta) for e in r.effects] == [("ep", -2)] and c.ep == c.ep_max
    r2 = SYSTEM.roll_check(c, "cast:life", functions=1, faces=[1, 2, 3, 4, 5], epic=1)
    assert r2.total == 1 and r2.details["cast_outcome"] == "as_designed"
    with pytest.raises(ValueError):
        SYSTEM.roll_check(c, "cast:life", sparkles=3)
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "cast:life", functions=5)


def test_untrained_casting_loses_a_success():
    c = Character(complexity=3, power=2)
    assert SYSTEM.chance(c, "cast:life") == p_ge(3, 2)


def p_ge(n, k):
    from tabletop_systems.life_and_death.dice import p_net_at_least

    return p_net_at_least(n, k)
