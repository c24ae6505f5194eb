"""RET advancement through the core contract (issue #17, spec §7.1): every purchase the book
prices with development points, priced before it is bought, refused with a reason a player reads,
all or nothing. Seed lines ``Lnnn`` point into ``000_616609df81580a02.txt``."""

from __future__ import annotations

import pytest

from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.checks import flaw_difficulty
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.advancement import price_text
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.table.phases import creation_only_fields

SIMPLE = SYSTEM.with_rules(costing="simplified")
SKILL = {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3}
TALENT = {"name": "Magic", "kind": "talent", "base_param": "education", "level": 3}
FLAW = {"name": "Drink", "severity": "light", "base_param": "composure", "level": 1}


def played(**values) -> Character:
    c = Character(name="Vera", **values)
    c.phase = "play"
    return c


def spec(system, c, advance_id):
    return next(s for s in system.advancements(c) if s.id == advance_id)


# -- prices against the book ---------------------------------------------------------------------
@pytest.mark.parametrize(("level", "price"), [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_raising_a_parameter_costs_its_level_in_recommended_costing(level, price):
    """L289-300: "from level 3 to 4 the player spends 3 points, from 4 to 5 — 4"; row 0 is blank,
    1 DP by default (spec A6)."""
    c = played(attention=level, dp=20)
    s = spec(SYSTEM, c, "raise:attention")
    assert (dict(s.cost), s.blocked, s.kind) == ({"dp": price}, None, "raise")
    assert s.label == {"en": f"Attention {level} → {level + 1}", "ru": f"Внимание {level} → {level + 1}"}
    assert price_text(SYSTEM, s.cost) == f"{price} DP" and price_text(SYSTEM, s.cost, "ru") == f"{price} ОР"


@pytest.mark.parametrize("level", [1, 3, 6])
def test_simplified_costing_charges_one_point_a_level_from_two_pools(level):
    """L304-315: 1 DP a level, parameters and abilities from separate pools (L442)."""
    assert [r.trait for r in SIMPLE.advancement_resources()] == ["dp_params", "dp_abilities"]
    c = played(attention=level, dp_params=1, dp_abilities=1, abilities=[{**SKILL, "level": level}])
    assert dict(spec(SIMPLE, c, "raise:attention").cost) == {"dp_params": 1}
    assert dict(spec(SIMPLE, c, "skill:Lockpicking").cost) == {"dp_abilities": 1}
    out = SIMPLE.advance(c, "skill:Lockpicking")
    assert dict(out.changes)["dp_abilities"] == (1, 0) and c.ability("Lockpicking")["level"] == level + 1
    assert c.dp_params == 1, "the parameters' pool is not touched"


def test_the_recommended_costing_has_one_common_pool():
    """L300: one pool spent freely on the tree and on abilities."""
    assert [r.trait for r in SYSTEM.advancement_resources()] == ["dp"]
    c = played(dp=7, abilities=[SKILL])
    assert dict(spec(SYSTEM, c, "skill:Lockpicking").cost) == {"dp": 3}
    SYSTEM.advance(c, "raise:attention")
    SYSTEM.advance(c, "skill:Lockpicking")
    assert (c.attention, c.ability("Lockpicking")["level"], c.dp) == (4, 4, 1)


def test_a_raise_shows_its_price_before_it_is_bought_and_planning_changes_nothing():
    c = played(dp=5)
    before = persisted(c)
    plan = SYSTEM.plan_advance(c, "raise:endurance")
    assert (dict(plan.cost), plan.changes["endurance"]) == ({"dp": 3}, 4)
    assert plan.text == {"en": "Endurance 3 → 4 for 3 DP", "ru": "Выносливость 3 → 4 за 3 ОР"}
    assert persisted(c) == before


def test_a_raise_moves_the_tree_and_the_current_health_with_it():
    """L278: only tier III is bought, the tiers above follow; current Health follows its maximum
    (spec A40), and the sheet's creation rules no longer bind (a raise is legal in play)."""
    c = played(dp=10, physique=4)
    c.health = 2  # hurt
    out = SYSTEM.advance(c, "raise:endurance")
    assert dict(out.changes)["endurance"] == (3, 4) and dict(out.changes)["dp"] == (10, 7)
    assert (c.strength, c.body, c.health_max, c.health) == (4, 3, 6, 2)
    SYSTEM.advance(c, "raise:fine_motor")  # agility 3 -> 3 (7 // 2)
    SYSTEM.advance(c, "raise:body_control")  # agility 4, body 4: Health max 8
    assert (c.body, c.health_max, c.health) == (4, 8, 4)
    assert c.dp_log[-1] == {"target": "body_control", "from": 3, "to": 4, "cost": 3, "pool": "dp"}
    assert SYSTEM.validate(c) == []


# -- refusals --------------------------------------------------------------------------------------
def test_level_7_is_the_limit_listed_with_the_reason():
    """L285, L297: level 8 is not for player characters; raising from 7 is the "Limit"."""
    c = played(attention=7, dp=50, abilities=[{**SKILL, "level": 7}])
    s = spec(SYSTEM, c, "raise:attention")
    assert s.blocked == {
        "en": "Level 7 is the limit for player characters",
        "ru": "7-й уровень — предел для персонажей игроков",
    }
    assert s.label["en"] == "Attention 7 (the limit)"
    assert "already at level 7" in spec(SYSTEM, c, "skill:Lockpicking").blocked["en"]
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "raise:attention")
    assert err.value.code == "advance_blocked" and "limit" in str(err.value)
    assert persisted(c) == before


def test_not_enough_development_points_is_shown_and_refused():
    c = played(dp=2, attention=4)
    s = spec(SYSTEM, c, "raise:attention")
    assert dict(s.cost) == {"dp": 4}
    assert s.blocked == {"en": "Needs 4 DP; the character has 2.", "ru": "Нужно 4 ОР; у персонажа 2."}
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "raise:attention")
    assert err.value.code == "advance_blocked" and (c.attention, c.dp) == (4, 2)


def test_only_tier_three_is_bought_and_a_character_in_creation_buys_nothing():
    """L278: tiers II and I follow their children."""
    c = played(dp=50)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "raise:agility")
    assert err.value.code == "unknown_advance"
    fresh = Character(name="Vera", dp=50)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(fresh, "raise:attention")
    assert err.value.code == "not_in_play" and fresh.attention == 3


# -- a skill or talent turned into a talent (L426-436) ------------------------------------------------
@pytest.mark.parametrize(("system", "pool", "price"), [(SYSTEM, "dp", 7), (SIMPLE, "dp_abilities", 3)])
def test_a_level_7_skill_becomes_a_talent_with_the_gms_leave(system, pool, price):
    """L428: a level-7 skill becomes a level-3 talent for 7 DP (3 in simplified costing), if the
    GM allows; L430: the GM may offer a d6 for its level (5-6 -> 5)."""
    c = played(**{pool: price}, abilities=[{**SKILL, "level": 7}])
    s = spec(system, c, "convert:Lockpicking")
    assert (dict(s.cost), s.blocked) == ({pool: price}, None)
    assert set(s.gm_options) == {"gm_leave", "d6"}
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        system.advance(c, "convert:Lockpicking", new_name="Thief")
    assert err.value.code == "needs_gm_leave" and "ask the GM" in str(err.value)
    assert "мастера" in err.value.text("ru") and persisted(c) == before
    out = system.advance(c, "convert:Lockpicking", new_name="Thief", gm_leave=True, d6=5)
    assert out.line() == f"Skill Lockpicking → talent Thief at level 5 for {price_text(system, {pool: price})}"
    (thief,) = c.abilities
    assert (thief["name"], thief["kind"], thief["level"], getattr(c, pool)) == ("Thief", "talent", 5, 0)


def test_a_talent_is_upgraded_and_a_lower_ability_waits_for_level_7():
    """L434: a level-7 talent becomes a stronger talent of level 3 for 7 DP."""
    c = played(dp=20, abilities=[{**TALENT, "level": 7}, SKILL])
    assert spec(SYSTEM, c, "convert:Magic").label["en"] == "Talent Magic → a stronger talent"
    out = SYSTEM.advance(c, "convert:Magic", new_name="Sorcery", gm_leave=True)
    assert c.ability("Sorcery")["level"] == 3 and dict(out.changes)["dp"] == (20, 13)
    blocked = spec(SYSTEM, c, "convert:Lockpicking").blocked
    assert blocked["en"] == "Lockpicking must reach level 7 before it can be converted (it is 3)."
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "convert:Magic", new_name="", gm_leave=True)
    assert err.value.code == "unknown_advance", "Magic is no longer there"


# -- a new ability the GM offers (L1754-1757) -------------------------------------------------------
def test_a_new_ability_costs_5_to_7_dp_when_the_gm_offers_it():
    """L1757: before a game the GM may offer an ability for 5-7 DP; a skill gained in play starts
    at level 1 (L409, L1754), or by the GM's d6 (5-6 -> 3)."""
    c = played(dp=12)
    s = spec(SYSTEM, c, "learn:ability")
    assert (dict(s.cost), s.kind, s.blocked) == ({"dp": 5}, "learn", None)
    assert {"gm_offer", "price", "base_param"} <= set(s.gm_options)
    assert "5-7 DP" in s.help["en"] and "5-7 ОР" in s.help["ru"]
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "learn:ability", name="Stealth", base_param="body_control")
    assert err.value.code == "needs_gm_offer" and "ask the GM" in str(err.value) and c.abilities == []
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "learn:ability", name="Stealth", gm_offer=True)
    assert err.value.code == "bad_base" and "GM picks" in str(err.value)
    out = SYSTEM.advance(c, "learn:ability", name="Stealth", base_param="body_control", gm_offer=True, price=7)
    assert out.line() == "New skill Stealth at level 1 for 7 DP" and c.dp == 5
    SYSTEM.advance(c, "learn:ability", name="Boxing", base_param="physique", gm_offer=True, d6=6)
    assert c.ability("Boxing")["level"] == 3 and c.dp == 0


@pytest.mark.parametrize(("nascent", "level"), [(False, 3), (True, 1)])
def test_a_new_talent_starts_at_3_or_nascent_at_1_and_costs_3_in_simplified_costing(nascent, level):
    """L421, L1755: a talent gained in play starts at 3, a nascent one at 1; L1757: 3 ability DP
    in simplified costing (no price to choose)."""
    c = played(dp_abilities=3)
    s = spec(SIMPLE, c, "learn:ability")
    assert dict(s.cost) == {"dp_abilities": 3} and "price" not in [o.name for o in s.options]
    opts = dict(name="Magic", kind="talent", base_param="education", gm_offer=True, nascent=nascent)
    out = SIMPLE.advance(c, "learn:ability", **opts)
    assert out.line("ru") == f"Талант «Magic» {level}-го уровня за 3 ОР способностей"
    assert c.ability("Magic")["level"] == level and c.dp_abilities == 0


def test_a_new_ability_needs_a_name_of_its_own_and_a_bad_option_changes_nothing():
    c = played(dp=20, abilities=[SKILL])
    before = persisted(c)
    for opts, code in [
        ({"name": "Lockpicking"}, "ability_duplicate"),
        ({"name": "  "}, "no_name"),
        ({"name": "X", "price": 4}, "bad_option"),
        ({"name": "X", "kind": "spell"}, "bad_option"),
    ]:
        with pytest.raises(RuleError) as err:
            SYSTEM.advance(c, "learn:ability", base_param="wits", gm_offer=True, **opts)
        assert err.value.code == code
        assert err.value.text("en") != err.value.text("ru")
        assert persisted(c) == before


# -- flaws (L1658) ----------------------------------------------------------------------------------
def test_a_flaw_is_raised_like_a_skill_and_turned_into_a_talent():
    """L1658: a flaw is a skill that can be strengthened (its checks get easier) and, for
    development points, become a useful talent (priced as a skill becoming one, spec A35)."""
    c = played(dp=9, flaws=[FLAW])
    assert dict(spec(SYSTEM, c, "flaw:Drink").cost) == {"dp": 1}
    before = flaw_difficulty(c.flaws[0], c.sanity)
    SYSTEM.advance(c, "flaw:Drink")
    assert c.flaws[0]["level"] == 2 and c.dp == 8
    assert flaw_difficulty(c.flaws[0], c.sanity) == before - 1, "L1660: strength − Sanity − level"
    s = spec(SYSTEM, c, "flaw_talent:Drink")
    assert dict(s.cost) == {"dp": 7} and s.gm_options == ("base_param",)
    out = SYSTEM.advance(c, "flaw_talent:Drink", new_name="Iron stomach", base_param="endurance")
    assert out.line() == "Flaw Drink → talent Iron stomach at level 3 for 7 DP"
    assert (c.flaws, c.ability("Iron stomach")["base_param"], c.dp) == ([], "endurance", 1)


# -- all or nothing, the GM's award --------------------------------------------------------------------
def test_an_advance_that_fails_half_way_leaves_the_character_as_it_was():
    c = played(dp=7, abilities=[{**SKILL, "level": 7}, TALENT])
    before = persisted(c)
    with pytest.raises(RuleError) as err:  # the new name is taken: nothing is paid
        SYSTEM.advance(c, "convert:Lockpicking", new_name="Magic", gm_leave=True)
    assert err.value.code == "ability_duplicate"
    assert persisted(c) == before


def test_the_gm_awards_development_points_and_the_log_keeps_the_award():
    """L278, L284: the GM gives development points after a session or an arc."""
    c = played(dp=2)
    out = SYSTEM.award(c, "dp", 7)
    assert out.line() == "Vera gets 7 DP." and out.line("ru") == "Vera получает 7 ОР."
    assert c.dp == 9 and c.dp_log == [{"target": "award", "from": 2, "to": 9, "cost": -7, "pool": "dp"}]
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "dp_params", 3)
    assert err.value.code == "unknown_resource" and "Development points" in str(err.value)
    s = played()
    SIMPLE.award(s, "dp_params", 3)  # L315: 3 for the tree and 3 for abilities, separately
    SIMPLE.award(s, "dp_abilities", 3)
    assert (s.dp_params, s.dp_abilities, s.dp) == (3, 3, 0)


def test_what_an_advance_changes_is_set_at_creation_on_the_sheet():
    """In play only advances and the GM change what an advance changes: the sheet marks it."""
    c = played(dp=50, dp_params=5, dp_abilities=5, abilities=[{**SKILL, "level": 7}, TALENT], flaws=[FLAW])
    fixed = creation_only_fields(SYSTEM)
    options = {"convert:Lockpicking": {"new_name": "Thief", "gm_leave": True}}
    options["learn:ability"] = {"name": "Run", "base_param": "agility", "gm_offer": True}
    options["flaw_talent:Drink"] = {"new_name": "Iron"}
    for system in (SYSTEM, SIMPLE):
        for s in system.advancements(c):
            if s.blocked:
                continue
            plan = system.plan_advance(c, s.id, **options.get(s.id, {}))
            assert set(plan.changes) | set(plan.cost) <= fixed, s.id
    assert {"attention", "abilities", "flaws", "dp", "dp_params", "dp_abilities", "dp_log"} <= fixed


def test_every_label_and_help_reads_in_both_languages():
    c = played(dp=3, abilities=[SKILL], flaws=[FLAW])
    for s in SYSTEM.advancements(c) + SIMPLE.advancements(c):
        for text in (s.label, s.help, s.group):
            assert text["en"] and text["ru"] and text["en"] != text["ru"], s.id
