"""Creation and advancement rules (spec §4.3, §4.4, §7.5): every validation rule and operation."""

import pytest

from tabletop_widgets.core import RuleError
from tabletop_systems.seasons import SYSTEM, Character

from characters import seasons_novice


def legal(**kw):
    return seasons_novice(**kw)


def by_code(c, system=SYSTEM, **kw):
    return {p.code: p for p in system.validate(c, **kw)}


def test_legal_novice_has_no_problems():
    c = legal()
    assert SYSTEM.validate(c, at_creation=True) == []
    assert SYSTEM.can_finalize(c)


def test_v1_attribute_cap():
    p = by_code(legal(intelligence=6, wits=1))["attribute_range"]
    assert p.field == "intelligence" and p.severity == "error" and "10" in p.message["en"]


def test_v2_attribute_budget_over_and_under():
    assert by_code(legal(strength=3))["attribute_points_over"].severity == "error"
    under = by_code(legal(strength=1))["attribute_points_unspent"]
    assert under.severity == "warning" and under.data["spent"] == 14


def test_v3_skill_cap():
    p = by_code(legal(science=6, persuasion=0))["skill_range"]
    assert p.field == "science" and "0 to 5" in p.message["en"]


def test_v4_skill_budget():
    assert "2 points too many" in by_code(legal(larceny=4))["skill_points_over"].message["en"]
    assert "skill_points_unspent" in by_code(legal(larceny=0))


def test_v5_specialization_rating():
    specs = [{"skill": "science", "name": "chemistry", "rating": 6}]
    assert "specialization_range" in by_code(legal(specializations=specs))


def test_v6_specialization_needs_skill():
    specs = [{"skill": "drive", "name": "cars", "rating": 1}]
    p = by_code(legal(specializations=specs))["specialization_without_skill"]
    assert "Drive is 0" in p.message["en"]


def test_v7_specialization_budget():
    specs = [
        {"skill": "science", "name": "chemistry", "rating": 5},
        {"skill": "melee", "name": "knives", "rating": 5},
        {"skill": "medicine", "name": "first aid", "rating": 1},
    ]
    assert "specialization_points_over" in by_code(legal(specializations=specs))


def test_v8_duplicate_specialization():
    specs = [
        {"skill": "science", "name": "chemistry", "rating": 5},
        {"skill": "science", "name": "Chemistry", "rating": 5},
    ]
    assert "specialization_duplicate" in by_code(legal(specializations=specs))


@pytest.mark.parametrize(
    "field,value,code",
    [
        ("archetype", "", "no_archetype"),
        ("goal", " ", "no_goal"),
        ("problems", [], "no_problem"),
        ("advantages", [""], "no_advantage"),
    ],
)
def test_v9_to_v12_warnings(field, value, code):
    p = by_code(legal(**{field: value}))[code]
    assert p.severity == "warning" and p.field == field


def test_v13_size_is_a_hard_limit():
    from tabletop_widgets.core import ValidationError

    with pytest.raises(ValidationError):
        legal(size=0)


def test_v14_children_take_inexperienced():
    assert "child_inexperienced" in by_code(legal(size=4))
    assert "child_inexperienced" not in by_code(legal(size=3, problems=["Неопытный"]))


def test_unusual_size_needs_approval():
    assert "unusual_size" in by_code(legal(size=6))
    assert "unusual_size" not in by_code(legal(size=6, storyteller_approved=True))


def test_v15_tier_needs_approval():
    assert "tier_needs_approval" in by_code(legal(tier="expert"))
    assert "tier_needs_approval" not in by_code(legal(tier="expert", storyteller_approved=True))


def test_v17_starting_drama_is_set_when_play_starts():
    """L147: at the start of play Drama is Presence + Manipulation + Composure: start_play sets
    it, so a creation sheet never shows an error the player must type away."""
    c = legal(drama=3)
    assert "starting_drama" not in by_code(c, at_creation=True)
    SYSTEM.start_play(c)
    assert c.drama == c.drama_start == 3 + 2 + 4 and "starting_drama" not in by_code(c)
    npc = legal(is_player_character=False, drama=0)
    SYSTEM.start_play(npc)
    assert npc.drama == 0  # NPCs have no Drama (L739)


def test_allow_unspent_both_readings():
    c = legal(strength=1)
    assert not SYSTEM.can_finalize(c)
    assert SYSTEM.with_rules(allow_unspent=True).can_finalize(c)


def test_epic_cap_reading():
    c = legal(intelligence=7, wits=1, resolve=1, presence=1, composure=2)  # still 15 points
    assert "attribute_range" in by_code(c)
    assert "attribute_range" not in by_code(c, SYSTEM.with_rules(trait_cap=10))


def test_spec_max_equals_skill_both_readings():
    c = legal(
        specializations=[
            {"skill": "ranged", "name": "pistols", "rating": 4},
            {"skill": "science", "name": "chemistry", "rating": 3},
            {"skill": "medicine", "name": "first aid", "rating": 3},
        ]
    )
    assert "specialization_range" not in by_code(c)
    assert "specialization_range" in by_code(c, SYSTEM.with_rules(spec_max_equals_skill=True))


def test_messages_are_bilingual():
    for p in SYSTEM.validate(Character(strength=9, specializations=[{"skill": "drive", "name": "x", "rating": 1}])):
        assert p.message["en"] and p.message["ru"] and p.code


# -- operations ---------------------------------------------------------------------------------
def test_raise_trait_spends_points():
    c = Character()
    SYSTEM.raise_trait(c, "wits", 2)
    SYSTEM.raise_trait(c, "melee")
    assert c.wits == 3 and c.melee == 1 and c.attribute_points_spent == 2


def test_raise_trait_refuses_past_cap_and_changes_nothing():
    c = Character(wits=5)
    with pytest.raises(RuleError) as e:
        SYSTEM.raise_trait(c, "wits")
    assert e.value.code == "over_cap" and c.wits == 5
    SYSTEM.with_rules(trait_cap=10).raise_trait(c, "wits")
    assert c.wits == 6


def test_raise_trait_refuses_past_budget():
    c = Character(intelligence=5, wits=5, resolve=5, presence=4)  # 4+4+4+3 = 15 spent
    with pytest.raises(RuleError) as e:
        SYSTEM.raise_trait(c, "strength")
    assert e.value.code == "no_points" and c.strength == 1 and "0 left" in str(e.value)
    with pytest.raises(RuleError):
        SYSTEM.raise_trait(c, "nonsense")


def test_lower_trait():
    c = Character(wits=2, melee=1, specializations=[{"skill": "melee", "name": "knives", "rating": 1}])
    SYSTEM.lower_trait(c, "wits")
    assert c.wits == 1
    with pytest.raises(RuleError):
        SYSTEM.lower_trait(c, "wits")
    with pytest.raises(RuleError) as e:
        SYSTEM.lower_trait(c, "melee")
    assert e.value.code == "specialization_needs_skill" and c.melee == 1


def test_add_and_raise_specialization():
    c = Character(science=2)
    SYSTEM.add_specialization(c, "science", "chemistry", rating=2)
    SYSTEM.raise_specialization(c, "science", "chemistry", 2)
    assert c.specializations == [{"skill": "science", "name": "chemistry", "rating": 4}]
    with pytest.raises(RuleError):
        SYSTEM.add_specialization(c, "science", "Chemistry")
    with pytest.raises(RuleError):
        SYSTEM.raise_specialization(c, "science", "chemistry", 2)  # past 5
    with pytest.raises(RuleError):
        SYSTEM.raise_specialization(c, "science", "law")
    SYSTEM.add_specialization(c, "science", "law", rating=5)
    with pytest.raises(RuleError) as e:
        SYSTEM.add_specialization(c, "science", "math", rating=2)  # 9 of 10 spent
    assert e.value.code == "no_points" and len(c.specializations) == 2


def test_spec_capped_by_skill_reading():
    c = Character(science=2)
    with pytest.raises(RuleError):
        SYSTEM.with_rules(spec_max_equals_skill=True).add_specialization(c, "science", "chemistry", rating=3)
    SYSTEM.add_specialization(c, "science", "chemistry", rating=3)


def test_advance_tier_to_hero_and_no_further():
    c = Character()
    for tier in ("experienced", "expert", "hero"):
        SYSTEM.advance_tier(c)
        assert c.tier == tier
    with pytest.raises(RuleError):
        SYSTEM.advance_tier(c)
    assert c.tier == "hero" and c.storyteller_approved


def test_unknown_rules_option_and_bad_value():
    with pytest.raises(ValueError):
        SYSTEM.with_rules(no_such_rule=1)
    with pytest.raises(ValueError):
        SYSTEM.with_rules(drama_limit="sometimes")
