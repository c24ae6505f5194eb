"""Threads of Fate's advancement (issue #17): what XP buys in play, priced by the book (seed
``004_930342107b23b376.txt``): a skill point 1 XP (L369, at most Intelligence L370, Expert skills only
with access L410-412), a Trick 5 XP (L157), Threads 1 XP each as the campaign says (L166-169); the GM's
XP award."""

from __future__ import annotations

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.advancement import price_text
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.table.phases import creation_only_fields

from characters import THREADS_LEGAL

HERO = {**THREADS_LEGAL, "name": "Rook"}


def played(system=SYSTEM, **later):
    """Rook made by the book, finished, then ``later`` set in play (the GM's XP, a skill grown)."""
    c = system.Character(**HERO)
    assert system.validate(c) == []
    system.start_play(c)
    c.update(**later)
    return c


def by_id(system, c):
    return {a.id: a for a in system.advancements(c)}


def refusal(system, c, advance_id, **options) -> RuleError:
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        system.advance(c, advance_id, **options)
    assert persisted(c) == before, "a refused advance changes nothing"
    assert err.value.text("en") != err.value.text("ru")
    return err.value


def test_the_resource_is_the_unspent_xp_on_the_sheet():
    (xp,) = SYSTEM.advancement_resources()
    assert xp.trait == "xp_free"
    assert SYSTEM.sheet.field("xp_free").kind == "input"
    assert price_text(SYSTEM, {"xp_free": 5}) == "5 XP"
    assert price_text(SYSTEM, {"xp_free": 5}, "ru") == "5 ОО"


def test_every_price_against_the_book():
    c = played(xp_free=20)
    advances = by_id(SYSTEM, c)
    # a skill's value is the XP put into it (L369): +1 costs 1 XP, for every one of the 18 skills
    skills = [a for a in advances if a.startswith("skill:")]
    assert len(skills) == 18
    assert {dict(advances[a].cost)["xp_free"] for a in skills} == {1}
    assert advances["skill:stealth"].label == {"en": "Stealth 4 → 5", "ru": "Скрытность 4 → 5"}
    # "the player paid 5 XP for the Trick" (L157)
    assert dict(advances["trick"].cost) == {"xp_free": 5}
    # 1 Thread for 1 XP (L167-168)
    assert dict(advances["threads"].cost) == {"xp_free": 1}
    assert {a.blocked for a in advances.values() if a.id in ("skill:stealth", "trick", "threads")} == {None}


def test_a_skill_point_spends_xp_and_raises_the_skill():
    c = played(xp_free=3)
    plan = SYSTEM.plan_advance(c, "skill:stealth", points=2)
    assert (dict(plan.cost), dict(plan.changes)) == ({"xp_free": 2}, {"stealth": 6})
    assert (c.stealth, c.xp_free) == (4, 3), "planning changes nothing"
    out = SYSTEM.advance(c, "skill:stealth", points=2)
    assert dict(out.changes) == {"stealth": (4, 6), "xp_free": (3, 1)}
    assert out.line() == "Stealth 4 → 6 for 2 XP"
    assert out.line("ru") == "Скрытность 4 → 6 за 2 ОО"
    assert c.skill_xp_spent > c.creation_xp and SYSTEM.validate(c) == [], "in play the creation XP no longer bind"


def test_a_skill_stops_at_intelligence_L370():
    c = played(xp_free=10, stealth=12)
    spec = by_id(SYSTEM, c)["skill:stealth"]
    assert "already at the hero's Intelligence (12)" in spec.blocked["en"]
    assert "Интеллекту героя (12)" in spec.blocked["ru"]
    assert refusal(SYSTEM, c, "skill:stealth").code == "advance_blocked"
    # the points option stops at Intelligence too
    assert by_id(SYSTEM, c)["skill:athletics"].option("points").max == 12
    err = refusal(SYSTEM, c, "skill:athletics", points=13)
    assert err.code == "bad_option" and "12" in err.text("en")


def test_an_expert_skill_needs_access_L410_L412():
    c = played(xp_free=10)
    spec = by_id(SYSTEM, c)["skill:medicine"]
    assert "only with access from an Attribute or a Trick" in spec.blocked["en"]
    assert dict(spec.cost) == {"xp_free": 1}, "a blocked advance still shows its price"
    assert refusal(SYSTEM, c, "skill:medicine").code == "advance_blocked"
    # the Veteran's Warfare and chosen Trade are open (L534-535)
    out = SYSTEM.advance(c, "skill:trade")
    assert dict(out.changes) == {"trade": (0, 1), "xp_free": (10, 9)}


def test_not_enough_xp_is_blocked_with_the_price():
    c = played()
    assert c.xp_free == 0
    advances = by_id(SYSTEM, c)
    assert advances["skill:stealth"].blocked["en"] == "Needs 1 XP; the hero has 0."
    assert advances["trick"].blocked == {"en": "Needs 5 XP; the hero has 0.", "ru": "Нужно ОО: 5, у героя 0."}
    assert refusal(SYSTEM, c, "trick", name="Quick draw").code == "advance_blocked"
    c.xp_free = 2
    err = refusal(SYSTEM, c, "skill:stealth", points=3)
    assert err.code == "not_enough" and "costs 3" in err.text("en")


def test_a_trick_for_5_xp_L157():
    c = played(xp_free=7)
    out = SYSTEM.advance(c, "trick", name="Quick draw", text="draws and shoots in one go")
    assert out.line() == "The Trick Quick draw for 5 XP"
    assert c.tricks[-1] == {"name": "Quick draw", "text": "draws and shoots in one go", "expert_access": []}
    assert c.xp_free == 2 and len(c.tricks) == 3
    assert SYSTEM.validate(c) == [], "a third Trick is fine once in play (V09 is a creation rule)"


@pytest.mark.parametrize(
    ("name", "code", "en"),
    [("", "trick_name", "Name the Trick first."), ("  ambidextrous ", "trick_taken", "already has the Trick")],
)
def test_a_trick_needs_a_new_name(name, code, en):
    c = played(xp_free=7)
    err = refusal(SYSTEM, c, "trick", name=name)
    assert err.code == code and en in err.text("en")


def test_a_trick_opens_an_expert_skill_only_with_the_gms_leave():
    c = played(xp_free=12)
    spec = by_id(SYSTEM, c)["trick"]
    assert tuple(spec.gm_options) == ("access",), "a player's advance that sets it is refused at a table"
    assert by_id(SYSTEM, c)["skill:medicine"].blocked
    plan = SYSTEM.plan_advance(c, "trick", name="Field medic", access="medicine")
    assert "opens the Expert skill Medicine (the GM agreed)" in plan.notes[0]["en"]
    SYSTEM.advance(c, "trick", name="Field medic", access="medicine")
    assert c.has_access("medicine")
    assert by_id(SYSTEM, c)["skill:medicine"].blocked is None
    SYSTEM.advance(c, "skill:medicine", points=2)
    assert (c.medicine, c.xp_free) == (2, 5)
    assert refusal(SYSTEM, c, "trick", name="X", access="flying").code == "bad_option"


def test_threads_for_xp_at_a_meetings_start_L167():
    c = played(xp_free=10)
    SYSTEM.session_started(c)
    spec = by_id(SYSTEM, c)["threads"]
    assert spec.option("count").max == 3 and "up to 3 a meeting" in spec.help["en"]
    out = SYSTEM.advance(c, "threads", count=2)
    assert dict(out.changes) == {"threads": (2, 4), "threads_bought": (0, 2), "xp_free": (10, 8)}
    assert out.line() == "Threads of Fate 2 → 4 for 2 XP"
    # the hero holds at most 5 (L164), and buys at most 3 a meeting (L167)
    assert by_id(SYSTEM, c)["threads"].option("count").max == 1
    SYSTEM.advance(c, "threads")
    assert "bought 3 Threads with XP this meeting" in by_id(SYSTEM, c)["threads"].blocked["en"]
    assert refusal(SYSTEM, c, "threads").code == "advance_blocked"
    c.threads_bought = 0
    assert "holds 5 Threads" in by_id(SYSTEM, c)["threads"].blocked["en"]
    c.threads = 4
    err = refusal(SYSTEM, c, "threads", count=2)
    assert err.code == "bad_option" and "highest allowed value, 1" in err.text("en")
    SYSTEM.session_started(c)  # a new meeting: the count starts again
    assert by_id(SYSTEM, c)["threads"].blocked is None


def test_threads_between_scenes_up_to_5_L168():
    system = SYSTEM.with_rules(xp_threads_mode="between_scenes_5")
    c = played(system, xp_free=10, threads=0)
    spec = by_id(system, c)["threads"]
    assert spec.option("count").max == 5 and "between scenes" in spec.help["en"]
    system.advance(c, "threads", count=5)
    assert (c.threads, c.xp_free, c.threads_bought) == (5, 5, 5)


def test_xp_as_threads_leaves_nothing_to_buy_L169():
    system = SYSTEM.with_rules(xp_threads_mode="xp_as_threads")
    c = played(system, xp_free=10)
    spec = by_id(system, c)["threads"]
    assert "already count as Threads" in spec.blocked["en"]
    assert refusal(system, c, "threads").code == "advance_blocked"
    with pytest.raises(RuleError) as err:
        system.plan_advance(c, "threads")
    assert err.value.code == "xp_as_threads"


def test_extras_buy_no_threads_L64():
    c = played(entity_type="extra", xp_free=5, threads=0)
    assert "threads" not in by_id(SYSTEM, c)
    assert refusal(SYSTEM, c, "threads").code == "unknown_advance"


def test_advancement_is_for_a_hero_in_play():
    c = Character(**HERO, xp_free=10)
    with pytest.raises(RuleError) as err:
        SYSTEM.advance(c, "skill:stealth")
    assert err.value.code == "not_in_play"
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "skill:stealth")
    assert err.value.code == "not_in_play"


@pytest.mark.parametrize(
    ("advance_id", "options", "code"),
    [
        ("skill:flying", {}, "unknown_advance"),
        ("raise:strength", {}, "unknown_advance"),
        ("skill:stealth", {"gm_leave": True}, "unknown_option"),
        ("skill:stealth", {"points": "2"}, "bad_option"),
        ("skill:stealth", {"points": 0}, "bad_option"),
        ("trick", {"name": "x" * 201}, "bad_option"),
    ],
)
def test_forged_advances_are_refused_and_change_nothing(advance_id, options, code):
    c = played(xp_free=10)
    assert refusal(SYSTEM, c, advance_id, **options).code == code


def test_an_advance_is_all_or_nothing():
    """Planning touches nothing; a refusal found only by the rules operation (a Trick's name taken)
    keeps the XP; a purchase changes the skill and the XP together."""
    c = played(xp_free=10)
    SYSTEM.session_started(c)
    before = persisted(c)
    for spec in SYSTEM.advancements(c):
        if spec.blocked is None:
            SYSTEM.plan_advance(c, spec.id, **({"name": "Quick draw"} if spec.id == "trick" else {}))
    assert persisted(c) == before
    assert refusal(SYSTEM, c, "trick", name="Experienced shooter").code == "trick_taken"
    out = SYSTEM.advance(c, "skill:warfare", points=3)
    assert dict(out.changes) == {"warfare": (3, 6), "xp_free": (10, 7)}


def test_the_gm_awards_xp_and_the_total_earned_grows():
    c = played()
    out = SYSTEM.award(c, "xp_free", 10)
    assert dict(out.changes) == {"xp_free": (0, 10), "xp_total": (0, 10)}
    assert out.line() == "Rook gets 10 XP." and out.line("ru") == "Rook получает 10 ОО."
    for bad, code in ((0, "bad_award"), (True, "bad_award"), ("5", "bad_award")):
        with pytest.raises(RuleError) as err:
            SYSTEM.award(c, "xp_free", bad)
        assert err.value.code == code
    with pytest.raises(RuleError) as err:
        SYSTEM.award(c, "threads", 1)
    assert err.value.code == "unknown_resource"
    assert (c.xp_free, c.xp_total) == (10, 10)


def test_what_an_advance_changes_is_set_at_creation_only_on_the_sheet():
    """In play only advances (and the GM) change skills, Tricks and XP; Threads the player spends freely."""
    c = played(xp_free=20)
    SYSTEM.session_started(c)
    changed = set()
    for advance_id, options in (("skill:stealth", {}), ("trick", {"name": "Quick draw"}), ("threads", {})):
        plan = SYSTEM.plan_advance(c, advance_id, **options)
        changed |= set(plan.changes) | set(plan.cost)
    marked = creation_only_fields(SYSTEM)
    assert changed - {"threads"} <= marked
    assert {"athletics", "medicine", "tricks", "xp_free", "xp_total", "threads_bought"} <= marked
    assert "threads" not in marked


def test_the_gms_own_skills_are_bought_alike_A32():
    """The GM may add the basic skills the fragment lacks and split Expert skills (spec A32, L260):
    a point still costs 1 XP (L369), up to Intelligence (L370), an Expert one only with access."""
    swimming = {"code": "swimming", "en": "Swimming", "ru": "Плавание", "kind": "basic", "value": 0}
    boats = {"code": "boats", "en": "Boats", "ru": "Лодки", "kind": "expert", "parent": "driving", "value": 0}
    c = played(xp_free=3, custom_skills=[swimming, boats])
    advances = by_id(SYSTEM, c)
    assert advances["skill:swimming"].label == {"en": "Swimming 0 → 1", "ru": "Плавание 0 → 1"}
    assert "only with access" in advances["skill:boats"].blocked["en"]
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "skill:boats")
    assert err.value.code == "no_access"
    out = SYSTEM.advance(c, "skill:swimming", points=2)
    assert out.line() == "Swimming 0 → 2 for 2 XP"
    assert [s["value"] for s in c.custom_skills] == [2, 0] and c.xp_free == 1
    c.expert_access = ["driving"]  # the GM opens Driving, and its boats with it
    SYSTEM.advance(c, "skill:boats")
    assert [s["value"] for s in c.custom_skills] == [2, 1] and c.xp_free == 0
    c.update(xp_free=20, custom_skills=[{**swimming, "value": 12}, boats])
    assert "Intelligence (12)" in by_id(SYSTEM, c)["skill:swimming"].blocked["en"]
    with pytest.raises(RuleError) as err:
        SYSTEM.plan_advance(c, "skill:boats", points=13)
    assert err.value.code == "bad_option" and "12" in err.value.text("en")
    assert SYSTEM.validate(c) == []
