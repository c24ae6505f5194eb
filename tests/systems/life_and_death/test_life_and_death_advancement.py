"""Life&Death's Game advancement on the core contract (spec §7.3-§7.5; seed L345-L371): the GM
awards experience and epic dice, gives skill experience; each level is an improvement the player
spends on a parameter, a feature or a surprise. Every price and refusal against the book."""

from __future__ import annotations

import pytest

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.advancement import price_text
from tabletop_widgets.core.combat.records import persisted

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def played(system=SYSTEM, **values):
    """A legal young character, finished: Might 3, Dexterity 3, Alertness 1, Power 3, Luck 3."""
    c = system.Character(name="Ayra")
    system.apply_race_and_age(c, RACE, "young")
    c.update(param_points={"might": 1, "luck": 1}, skills={"athletics": 2}, features=[_feat("speed")])
    system.start_play(c)
    if values:
        c.update(**values)
    return c


def _feat(fid, level=1, origin="bought", **kw):
    return {"id": fid, "level": level, "origin": origin, **kw}


def by_id(c, system=SYSTEM):
    return {a.id: a for a in system.advancements(c)}


# -- prices ----------------------------------------------------------------------------------------------
def test_every_level_up_choice_costs_one_improvement_and_is_listed_with_its_price():
    """L361-L365: each level gained gives one choice: a feature, a parameter or a surprise."""
    c = played(pending_improvements=1)
    ads = by_id(c)
    level_up = [a for a in ads.values() if not a.id.startswith("skill_xp:")]
    assert {a.id for a in level_up} == {
        "raise:might",
        "raise:dexterity",
        "raise:alertness",
        "raise:complexity",
        "raise:power",
        "raise:luck",
        "feature:speed",
        "feature:new",
        "surprise",
    }
    for a in level_up:
        assert dict(a.cost) == {"pending_improvements": 1} and a.blocked is None, a.id
        assert a.label["en"] and a.label["ru"] and a.help["en"] and a.help["ru"]
    assert price_text(SYSTEM, ads["raise:might"].cost) == "1 level-up improvement"
    assert price_text(SYSTEM, ads["raise:might"].cost, "ru") == "1 улучшение за уровень"
    assert ads["raise:might"].label == {"en": "Might 3 → 4", "ru": "Сила 3 → 4"}
    assert ads["feature:speed"].label["en"] == "Speed I → II"


def test_raising_a_parameter_recalculates_health_and_spends_the_improvement():
    """L369: +1 to a main parameter; the additional parameters and health are recalculated."""
    c = played(pending_improvements=1)
    assert (c.might, c.hp_max) == (3, 11)
    plan = SYSTEM.plan_advance(c, "raise:might")
    assert dict(plan.cost) == {"pending_improvements": 1}
    assert plan.changes["might"] == 4 and plan.changes["param_advances"] == {"might": 1}
    assert (c.might, c.pending_improvements) == (3, 1), "planning changes nothing"
    out = SYSTEM.advance(c, "raise:might")
    assert out.changes["might"] == (3, 4) and out.changes["pending_improvements"] == (1, 0)
    assert out.line() == "Might 3 → 4 for 1 level-up improvement"
    assert out.line("ru") == "Сила 3 → 4 за 1 улучшение за уровень"
    assert (c.might, c.hp_max, c.hp, c.carry_capacity_kg) == (4, 12, 12, 30)
    assert SYSTEM.validate(c) == []


def test_features_go_up_or_down_and_a_new_one_starts_at_level_one():
    """L367: raise a positive feature, lower a negative one, or take a new positive one."""
    c = played(pending_improvements=3, features=[_feat("speed"), _feat("pathos", 2, "negative")])
    ads = by_id(c)
    assert ads["feature:pathos"].label["en"] == "Pathos II → I"
    SYSTEM.advance(c, "feature:speed")
    SYSTEM.advance(c, "feature:pathos")
    out = SYSTEM.advance(c, "feature:new", feature="inconspicuous")
    assert out.line() == "New feature: Inconspicuous I for 1 level-up improvement"
    assert c.feature_level("speed") == 2 and c.feature_level("pathos") == 1
    assert {"id": "inconspicuous", "level": 1, "origin": "levelup", "note": ""} in c.features
    assert c.pending_improvements == 0 and SYSTEM.validate(c) == []


def test_mutations_are_not_level_up_features():
    """L367 names positive and negative features only: a mutation is not offered."""
    c = played(pending_improvements=1, features=[_feat("speed"), _feat("claws", 1, "racial")])
    assert "feature:claws" not in by_id(c)
    choices = {k for k, _ in by_id(c)["feature:new"].option("feature").choices}
    assert "claws" not in choices and "speed" not in choices and "well_stocked" in choices


def test_a_surprise_is_owed_for_the_next_session():
    """L371: nothing now; the GM arranges a random bonus in the next session."""
    c = played(pending_improvements=1)
    out = SYSTEM.advance(c, "surprise")
    assert dict(out.changes) == {"surprises_pending": (0, 1), "pending_improvements": (1, 0)}
    note = SYSTEM.session_started(c)
    assert "owed 1 surprise" in note.notes[0]["en"]


def test_skill_experience_is_the_gms_and_five_points_raise_the_skill():
    """L355-L357: the GM gives a used skill 1 XP; 5 XP raise it by 1; L359: the points add to the
    character's experience."""
    c = played(skill_xp={"athletics": 4})
    spec = by_id(c)["skill_xp:athletics"]
    assert dict(spec.cost) == {} and tuple(spec.gm_options) == ("by_gm",)
    assert price_text(SYSTEM, spec.cost) == "free"
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "skill_xp:athletics")
    assert err.value.code == "gm_gives_skill_xp" and "given by the GM" in err.value.text("en")
    out = SYSTEM.advance(c, "skill_xp:athletics", by_gm=True)
    assert out.line() == "Athletics: +1 skill XP, the skill rises to 3"
    assert (c.skills["athletics"], c.skill_xp["athletics"], c.xp) == (3, 0, 1)


def test_a_skill_at_its_parameter_keeps_no_more_experience():
    """L357: at the parameter's level the skill stops; 5 XP saved and no more accumulates."""
    c = played(skills={"athletics": 3}, skill_xp={"athletics": 4})
    SYSTEM.advance(c, "skill_xp:athletics", by_gm=True)
    assert (c.skills["athletics"], c.skill_xp["athletics"], c.xp) == (3, 5, 1)
    strict = SYSTEM.with_rules(xp_capped_counts_toward_total=False)
    d = played(strict, skills={"athletics": 3}, skill_xp={"athletics": 5})
    with pytest.raises(RuleError) as err:
        strict.advance(d, "skill_xp:athletics", by_gm=True)
    assert err.value.code == "skill_xp_capped" and "change nothing" in err.value.text("en")


# -- awards --------------------------------------------------------------------------------------------------
def test_twenty_experience_make_a_level_and_an_improvement_to_choose():
    """L359: every 20 XP a level; L361: each level one improvement."""
    c = played(xp=15)
    out = SYSTEM.award(c, "xp", 30)
    assert dict(out.changes) == {"xp": (15, 45), "pending_improvements": (0, 2)}
    assert out.line() == "Ayra gets 30 XP." and out.line("ru") == "Ayra получает 30 очков опыта."
    assert c.level == 3 and SYSTEM.validate(c) == []


def test_epic_dice_are_awarded_up_to_the_reputation():
    """L349: the GM gives an epic die for a heroic act; at most |reputation|."""
    c = played(reputation=2)
    assert SYSTEM.award(c, "epic_dice", 5).line() == "Ayra gets 5 epic dice."
    assert c.epic_dice == 2
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "epic_dice", 1)
    assert err.value.code == "epic_dice_cap" and "|reputation|" in err.value.text("en")


def test_no_epic_dice_in_a_quick_game():
    """L347: epic dice are a campaign's."""
    c = played(mode="quick")
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "epic_dice", 1)
    assert err.value.code == "quick_game" and c.epic_dice == 0


def test_improvements_come_only_with_levels():
    c = played()
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "pending_improvements", 1)
    assert err.value.code == "improvements_from_levels" and "award experience" in err.value.text("en")
    assert err.value.text("ru") == "Улучшения за уровень приходят с уровнями: выдайте опыт."


# -- refusals, options, GM leave, all or nothing ---------------------------------------------------------------
def test_without_a_level_every_choice_is_blocked_with_the_xp_still_needed():
    c = played(xp=12)
    blocked = by_id(c)["raise:luck"].blocked
    assert blocked["en"] == "No level-up improvement to choose: the next level comes with 8 more XP."
    assert blocked["ru"] == "Нет улучшения за уровень: следующий уровень — ещё через 8 очков опыта."
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "raise:luck")
    assert err.value.code == "no_improvement"


def test_five_is_the_top_unless_the_gm_allows_more():
    """L59: no parameter above 5; L377: above 5 only by agreement with the GM (the GM's option)."""
    c = played(pending_improvements=1, might=5, param_advances={"might": 2})
    spec = by_id(c)["raise:might"]
    assert dict(spec.cost) == {"pending_improvements": 1}, "listed, so the price shows"
    assert "top (5)" in spec.blocked["en"] and "agreement with the GM" in spec.blocked["en"]
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "raise:might")
    assert err.value.code == "advance_blocked"
    generous = SYSTEM.with_rules(allow_params_above_5=True)
    d = played(generous, pending_improvements=1, might=5, param_advances={"might": 2})
    assert by_id(d, generous)["raise:might"].blocked is None
    generous.advance(d, "raise:might")
    assert d.might == 6


def test_a_feature_at_its_top_level_is_blocked():
    c = played(pending_improvements=1, features=[_feat("speed", 3)])
    assert "top level (III)" in by_id(c)["feature:speed"].blocked["en"]


@pytest.mark.parametrize(
    ("advance_id", "options", "code", "words"),
    [
        ("feature:new", {"feature": "speed"}, "bad_option", ""),
        ("feature:new", {"feature": "bound_pattern"}, "advance_breaks_rules", "needs: partner"),
        ("raise:strength", {}, "unknown_advance", "can buy now"),
        ("feature:new", {"feature": "well_stocked", "level": 2}, "unknown_option", "no option"),
        ("skill_xp:stealth", {"by_gm": True}, "unknown_advance", "can buy now"),
    ],
)
def test_refusals_say_why_and_change_nothing(advance_id, options, code, words):
    c = played(pending_improvements=1)
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, advance_id, **options)
    assert err.value.code == code and words in err.value.text("en")
    assert err.value.text("ru") and err.value.text("ru") != err.value.text("en")
    assert persisted(c) == before


def test_a_feature_that_asks_for_a_partner_takes_it_as_an_option():
    c = played(pending_improvements=1)
    SYSTEM.advance(c, "feature:new", feature="bound_pattern", note="Vesna")
    assert c.feature_note("bound_pattern") == "Vesna" and SYSTEM.validate(c) == []


def test_a_character_in_creation_does_not_advance():
    c = SYSTEM.Character(name="Ayra", pending_improvements=1)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "surprise")
    assert err.value.code == "not_in_play" and c.pending_improvements == 1


def test_the_resources_are_on_the_sheet():
    names = {f.name for f in SYSTEM.sheet.fields()}
    assert {r.trait for r in SYSTEM.advancement_resources()} == {"xp", "pending_improvements", "epic_dice"} <= names


def test_what_advances_and_the_gm_change_is_set_at_creation_on_the_sheet():
    fields = {f.name: f for f in SYSTEM.sheet.fields()}
    for name in (
        "might",
        "luck",
        "race_params",
        "param_points",
        "skills",
        "skill_xp",
        "features",
        "xp",
        "pending_improvements",
        "surprises_pending",
        "epic_dice",
        "reputation",
    ):
        assert fields[name].creation_only, name
    for name in ("hp", "ep", "name", "inventory", "notes", "wounds"):
        assert not fields[name].creation_only, name


@pytest.mark.parametrize(("rule", "athletics"), [("apply", 4), ("discard", 3)])
def test_raising_a_parameter_releases_a_saturated_skill_as_the_gm_option_says(rule, athletics):
    """L357: a skill at its parameter keeps no more XP; when the parameter rises, the 5 XP saved
    raise it (spec §7.5 [DEFAULT], OPTION saturated_xp_on_cap_raise)."""
    system = SYSTEM.with_rules(saturated_xp_on_cap_raise=rule)
    c = played(system, pending_improvements=1, skills={"athletics": 3}, skill_xp={"athletics": 5})
    plan = system.plan_advance(c, "raise:might")
    assert plan.changes.get("skills", c.skills) == {"athletics": athletics}
    assert plan.changes["skill_xp"] == {"athletics": 0}
    system.advance(c, "raise:might")
    assert (c.might, c.skills["athletics"], c.skill_xp["athletics"]) == (4, athletics, 0)
