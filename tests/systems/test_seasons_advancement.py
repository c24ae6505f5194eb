"""Seasons («Времена Года») advancement (issue #17) by the book: no experience points (L746); a new
tier of mastery, granted by the Storyteller, gives +5 attribute, +10 skill and +6 specialization
points (L752, L749-751), spent like creation points, one point a dot (L129, L135, L139-141)."""

from __future__ import annotations

import pytest

from tabletop_widgets.core import RuleError
from tabletop_widgets.core.advancement import price_text
from tabletop_widgets.core.combat.records import persisted
from tabletop_systems.seasons import SYSTEM, Character

from characters import SEASONS_DOCTOR

POOLS = ("attribute_points", "skill_points", "specialization_points")


def played(**values) -> Character:
    """A legal novice (15 / 25 / 10 points spent, L129, L135, L141) in play."""
    c = Character(**SEASONS_DOCTOR)
    assert SYSTEM.validate(c) == [], SYSTEM.validate(c)
    SYSTEM.start_play(c)
    c.update(**values)
    return c


def by_id(c, system=SYSTEM):
    return {a.id: a for a in system.advancements(c)}


# -- the resources ----------------------------------------------------------------------------------
def test_the_resources_are_the_three_unspent_pools_on_the_sheet_and_saved():
    assert [r.trait for r in SYSTEM.advancement_resources()] == list(POOLS)
    for r in SYSTEM.advancement_resources():
        field = SYSTEM.sheet.field(r.trait)
        assert field.gm_only and r.label["en"] and r.label["ru"] and r.label["en"] != r.label["ru"]
    c = played(attribute_points=2, skill_points=3, specialization_points=4)
    again = Character.from_dict(c.to_dict())
    assert tuple(getattr(again, p) for p in POOLS) == (2, 3, 4)


def test_a_negative_pool_is_bad_input():
    with pytest.raises(ValueError):
        Character(skill_points=-1)


# -- prices against the book ----------------------------------------------------------------------
def test_an_attribute_dot_costs_one_attribute_point_L129():
    c = played(attribute_points=1)
    spec = by_id(c)["raise:wits"]
    assert (dict(spec.cost), spec.blocked, spec.kind) == ({"attribute_points": 1}, None, "raise")
    assert price_text(SYSTEM, spec.cost) == "1 attribute pts"
    assert price_text(SYSTEM, spec.cost, "ru") == "1 п. атрибутов"
    out = SYSTEM.advance(c, "raise:wits")
    assert dict(out.changes) == {"wits": (3, 4), "attribute_points": (1, 0)}
    assert out.line() == "Wits 3 → 4 for 1 attribute pts"
    assert out.line("ru").startswith("Сообразительность 3 → 4 за 1")
    assert c.initiative == 3 + 4 + 3  # derived traits follow (L172)


def test_a_skill_dot_costs_one_skill_point_L135():
    c = played(skill_points=2)
    assert dict(by_id(c)["skill:occult"].cost) == {"skill_points": 1}
    SYSTEM.advance(c, "skill:occult")
    SYSTEM.advance(c, "skill:occult")
    assert (c.occult, c.skill_points) == (2, 0)
    assert "Needs 1 skill pts" in by_id(c)["skill:occult"].blocked["en"]


def test_a_specialization_costs_its_rating_in_specialization_points_L139_L141():
    c = played(specialization_points=6)
    new = by_id(c)["specialization:new"]
    assert dict(new.cost) == {"specialization_points": 1}  # at the default rating 1
    assert [v for v, _ in new.option("skill").choices][:2] == ["athletics", "drive"]  # trained skills only
    plan = SYSTEM.plan_advance(c, "specialization:new", skill="empathy", name="lies", rating=3)
    assert dict(plan.cost) == {"specialization_points": 3}
    assert c.specialization_points == 6 and len(c.specializations) == 2, "planning changes nothing"
    SYSTEM.advance(c, "specialization:new", skill="empathy", name="lies", rating=3)
    assert c.specializations[-1] == {"skill": "empathy", "name": "lies", "rating": 3}
    assert c.specialization_points == 3
    raise_it = by_id(c)["specialization:empathy:lies"]
    assert (dict(raise_it.cost), raise_it.blocked) == ({"specialization_points": 1}, None)
    SYSTEM.advance(c, "specialization:empathy:lies")
    assert (c.specializations[-1]["rating"], c.specialization_points) == (4, 2)


def test_a_new_tier_gives_5_10_6_points_L752_with_the_storytellers_leave():
    c = played()
    tier = by_id(c)["tier:experienced"]
    assert (tier.kind, dict(tier.cost), tuple(tier.gm_options)) == ("level", {}, ("storyteller_grants",))
    assert tier.option("storyteller_grants").default is False
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "tier:experienced")
    assert err.value.code == "storyteller_grants_tiers" and "Storyteller" in str(err.value)
    assert c.tier == "novice" and c.attribute_points == 0
    for tier_id, pools in (
        ("tier:experienced", (5, 10, 6)),  # L749
        ("tier:expert", (10, 20, 12)),  # L750
        ("tier:hero", (15, 30, 18)),  # L751
    ):
        out = SYSTEM.advance(c, tier_id, storyteller_grants=True)
        assert tuple(getattr(c, p) for p in POOLS) == pools
        assert out.changes["tier"][1] == tier_id.split(":")[1]
    assert by_id(c)["tier:next"].blocked["en"].startswith("Hero is the highest tier")
    assert SYSTEM.validate(c) == []


def test_tiers_come_in_order():
    c = played()
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "tier:hero", storyteller_grants=True)
    assert err.value.code == "tier_order"


# -- what the book forbids ----------------------------------------------------------------------------
def test_the_cap_of_5_blocks_and_the_epic_cap_of_10_lets_it_rise_L129_L752():
    c = played(skill_points=3)
    spec = by_id(c)["skill:medicine"]
    assert (
        spec.blocked["en"]
        == "Medicine is already at the cap, 5 (the Storyteller may raise the cap to 10 in an epic game)."
    )
    assert dict(spec.cost) == {"skill_points": 1}, "a blocked advance still shows its price"
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "skill:medicine")
    assert err.value.code == "advance_blocked" and c.medicine == 5
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "skill:medicine")
    assert err.value.code == "over_cap"
    epic = SYSTEM.with_rules(trait_cap=10)
    assert by_id(c, epic)["skill:medicine"].blocked is None
    epic.advance(c, "skill:medicine")
    assert c.medicine == 6 and epic.validate(c) == []


def test_a_specialization_needs_a_trained_skill_L141():
    c = played(specialization_points=5)
    with pytest.raises(RuleError) as err:  # a forged option: occult is 0
        SYSTEM.advance(c, "specialization:new", skill="occult", name="hypnosis")
    assert err.value.code == "bad_option"
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "specialization:new", skill="occult", name="hypnosis")
    assert err.value.code == "specialization_without_skill"
    assert "Occult is 0" in err.value.text("en") and "навык равен 0" in err.value.text("ru")
    blank = played(specialization_points=5)
    blank_skills = {
        s: 0 for s in ("medicine", "science", "investigation", "empathy", "athletics", "persuasion", "drive")
    }
    blank.update(specializations=[], **blank_skills)
    assert "raise a skill first" in by_id(blank)["specialization:new"].blocked["en"]


@pytest.mark.parametrize(
    ("opts", "code", "words"),
    [
        ({"skill": "medicine", "name": "  "}, "specialization_name", "needs a name"),
        ({"skill": "medicine", "name": "Surgery"}, "specialization_duplicate", "raise it instead"),
        ({"skill": "medicine", "name": "toxicology", "rating": 6}, "bad_option", "above the highest"),
        ({"skill": "medicine", "name": "toxicology", "rating": 0}, "bad_option", "below the lowest"),
        ({"skill": "medicine", "name": "x" * 61}, "specialization_name", "at most 60"),
        ({"skill": "medicine", "name": "toxicology", "colour": "red"}, "unknown_option", "no option"),
    ],
)
def test_bad_specialization_options_are_refused_and_change_nothing(opts, code, words):
    c = played(specialization_points=10)
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "specialization:new", **opts)
    assert err.value.code == code and words in err.value.text("en")
    assert err.value.text("ru") and err.value.text("ru") != err.value.text("en")
    assert persisted(c) == before


def test_a_specialization_capped_by_its_skill_under_the_gm_option():
    strict = SYSTEM.with_rules(spec_max_equals_skill=True)  # §11 #18
    c = played(specialization_points=5)
    with pytest.raises(RuleError) as err:
        strict.plan_advance(c, "specialization:new", skill="empathy", name="lies", rating=4)
    assert err.value.code == "specialization_range" and "1–3" in err.value.text("en")
    c.update(specializations=[*c.specializations, {"skill": "empathy", "name": "lies", "rating": 3}])
    assert "cap, 3" in by_id(c, strict)["specialization:empathy:lies"].blocked["en"]
    assert by_id(c)["specialization:empathy:lies"].blocked is None


def test_not_enough_points_is_refused_with_the_standard_words():
    c = played(attribute_points=0)
    assert by_id(c)["raise:strength"].blocked == {
        "en": "Needs 1 attribute pts; the character has 0.",
        "ru": "Нужно 1 п. атрибутов; у персонажа 0.",
    }
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "raise:strength")
    assert err.value.code == "advance_blocked" and c.strength == 2
    c.update(specialization_points=2)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "specialization:new", skill="drive", name="racing", rating=3)
    assert err.value.code == "not_enough" and err.value.data == {
        "resource": "specialization_points",
        "cost": 3,
        "have": 2,
    }
    assert c.specialization_points == 2 and len(c.specializations) == 2


def test_a_character_in_creation_does_not_advance():
    c = Character(skill_points=5)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "skill:occult")
    assert err.value.code == "not_in_play" and c.occult == 0


def test_planning_checks_its_options_too():
    c = played(specialization_points=5)
    for advance_id, opts in (("skill:occult", {"rating": 2}), ("specialization:new", {"colour": "red"})):
        with pytest.raises(RuleError) as err:
            SYSTEM.plan_advance(c, advance_id, **opts)
        assert err.value.code == "unknown_option"
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "specialization:new", skill="drive", name="racing", rating="3")
    assert err.value.code == "bad_option"


def test_unknown_advances_are_refused():
    c = played(attribute_points=3)
    for bad in ("raise:luck", "skill:strength", "specialization:medicine:nothing", "fly"):
        with pytest.raises(RuleError) as err:
            SYSTEM.advance(c, bad)
        assert err.value.code == "unknown_advance"
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "specialization:medicine:nothing")
    assert err.value.code == "no_specialization"


# -- the GM's award and the sheet in play ---------------------------------------------------------------
def test_the_storyteller_awards_loose_points():
    c = played()
    out = SYSTEM.award(c, "skill_points", 10)
    assert dict(out.changes) == {"skill_points": (0, 10)} and out.line() == "Vera gets 10 skill pts."
    assert out.line("ru") == "Vera получает 10 п. навыков."
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "drama", 3)
    assert err.value.code == "unknown_resource" and "Skill points" in str(err.value)


def test_fields_an_advance_changes_are_creation_only_on_the_sheet():
    creation_only = {f.name for f in SYSTEM.sheet.fields() if f.creation_only}
    assert {"strength", "stamina", "occult", "empathy", "specializations", "tier", "size"} <= creation_only
    # what the book lets a player change freely in play (L112, L116, L121, L741) is not
    assert not {"goal", "problems", "advantages", "drama", "damage"} & creation_only


def test_in_play_the_creation_budgets_no_longer_bind():
    c = played(skill_points=1)
    SYSTEM.advance(c, "skill:occult")
    assert c.skill_points_spent == 26 > c.skill_points_budget
    assert SYSTEM.validate(c) == []
    assert "skill_points_over" in {p.code for p in SYSTEM.validate(c, at_creation=True)}
