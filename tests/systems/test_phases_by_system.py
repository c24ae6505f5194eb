"""A character's phase in the four systems (issue #17): ``validate`` reports the creation rules
only while the character is being created, ``start_play`` is the one step into play, and a
character played for a while (resources spent, damage taken, experience gained and spent) shows
no creation problem, while the very same sheet still in creation does."""

from __future__ import annotations

import random

import pytest

from tabletop_widgets.core import RuleError

from tabletop_systems.life_and_death import SYSTEM as LD
from tabletop_systems.life_and_death import Character as LdCharacter
from tabletop_systems.life_and_death.progression import spend_param_point
from tabletop_systems.ret import SYSTEM as RET_DEFAULT
from tabletop_systems.ret import Character as RetCharacter
from tabletop_systems.seasons import SYSTEM as SEASONS
from tabletop_systems.seasons import Character as SeasonsCharacter
from tabletop_systems.threads_of_fate import SYSTEM as THREADS
from tabletop_systems.threads_of_fate import Character as ThreadsCharacter

from characters import THREADS_LEGAL as SHARED_THREADS_LEGAL
from characters import seasons_novice

#: RET with the development points the GM gives for creation (L462; the spec's example 3 + 3)
RET = RET_DEFAULT.with_rules(param_dp=3, ability_dp=3)


def codes(system, c) -> set[str]:
    return {p.code for p in system.validate(c)}


def as_created(c):
    """The same sheet, back in creation: what its creation rules say about it now."""
    twin = type(c).from_dict({**c.to_dict(), "phase": "creation"})
    return twin


# ---------------------------------------------------------------------------------------------
# R.E.T.
# ---------------------------------------------------------------------------------------------
def ret_character(**kw) -> RetCharacter:
    values = dict(
        name="Vera",
        attention=4,
        wits=4,
        physique=4,
        abilities=[
            {"name": "Lockpicking", "kind": "skill", "level": 3, "base_param": "fine_motor"},
            {"name": "Shooting", "kind": "skill", "level": 4, "base_param": "attention"},
            {"name": "Running", "kind": "skill", "level": 3, "base_param": "endurance"},
            {"name": "Lucky", "kind": "talent", "level": 4, "base_param": "intuition"},
        ],
    )
    values.update(kw)
    return RetCharacter(**values)


def test_ret_a_legal_build_starts_play():
    c = ret_character()
    assert RET.validate(c) == []
    assert RET.start_play(c) == {"phase": ("creation", "play")}
    assert c.phase == "play"
    with pytest.raises(RuleError) as e:  # once is enough
        RET.start_play(c)
    assert e.value.code == "already_in_play" and c.phase == "play"


def test_ret_luck_spent_in_play_is_no_problem():
    """The audit's first finding: "Starting Luck must be 6" after the first roll with Luck."""
    c = ret_character()
    RET.start_play(c)
    result = RET.roll_check(c, "attention", rng=random.Random(3), luck=2, difficulty=8)
    RET.apply_result(c, result)
    assert c.luck < c.luck_max
    assert RET.validate(c) == []
    assert "starting_luck" in codes(RET, as_created(c))  # the creation rule still holds there


def test_ret_a_legal_raise_with_development_points_is_no_problem():
    """The audit's second finding: red errors for good after a legal raise (L278, §7.1)."""
    c = ret_character()
    RET.start_play(c)
    c.update(dp=13)  # the GM's awards (recommended costing, one pool: L300)
    RET.raise_parameter(c, "attention")  # 4 -> 5 costs 4
    RET.raise_ability(c, "Shooting")  # 4 -> 5 costs 4
    RET.raise_ability(c, "Shooting")  # 5 -> 6 costs 5
    assert (c.attention, c.dp) == (5, 0)
    assert RET.validate(c) == []
    created = codes(RET, as_created(c))
    assert {"param_overspent", "ability_overspent"} <= created


def test_ret_what_always_holds_is_reported_in_play():
    c = ret_character()
    RET.start_play(c)
    abilities = c.abilities + [
        {"name": "Telekinesis", "kind": "skill", "level": 1, "base_param": "will", "is_superpower": True}
    ]
    c.update(abilities=abilities)  # gained in play (the GM's leave, L1755)
    assert "superpower_cost" in codes(RET, c)  # V13 holds for every superpower
    assert "ability_count" not in codes(RET, c)  # V7 counts the starting picks only


def test_ret_start_play_refuses_and_lists_the_problems():
    c = ret_character(attention=6)  # over the parameter budget
    with pytest.raises(RuleError) as e:
        RET.start_play(c)
    assert c.phase == "creation"
    err = e.value
    assert err.code == "creation_problems"
    assert [p.code for p in err.data["problems"]] == ["param_overspent"]
    assert "Parameter points overspent" in err.text("en") and "fix these first" in err.text("en")
    assert "Очки развития параметров превышены" in err.text("ru") and "сначала исправьте" in err.text("ru")


def test_ret_warnings_do_not_keep_a_character_from_play():
    c = ret_character(items=[{"name": f"Thing {n}", "kind": "misc"} for n in range(4)])
    assert [p.severity for p in RET.validate(c)] == ["warning"]
    RET.start_play(c)
    assert c.phase == "play"
    assert RET.validate(c) == []  # the starting kit is the start's


# ---------------------------------------------------------------------------------------------
# Seasons
# ---------------------------------------------------------------------------------------------
def seasons_character(**kw) -> SeasonsCharacter:
    c = seasons_novice(**{"name": "Ann", **kw})
    c.drama = c.drama_start
    return c


def test_seasons_drama_spent_and_damage_taken_in_play():
    c = seasons_character()
    assert SEASONS.validate(c) == []
    SEASONS.start_play(c)
    SEASONS.apply_effects(c, [SEASONS_EFFECT(trait="drama", delta=-2)])
    SEASONS.apply_damage(c, 2)
    assert c.damage > 0 and c.drama == c.drama_start - 2
    c.update(goal="")  # the Goal reached: Goals change in play (L112)
    assert SEASONS.validate(c) == []
    assert "no_goal" in codes(SEASONS, as_created(c))


def test_seasons_advanced_a_tier_and_spent_the_points():
    """A new tier's points (L752) wait in the unspent pools and are spent through ``advance``;
    the creation budgets no longer bind in play."""
    c = seasons_character()
    SEASONS.start_play(c)
    SEASONS.advance_tier(c)  # the Storyteller grants Experienced (+5 / +10 / +6)
    assert (c.attribute_points, c.skill_points, c.specialization_points) == (5, 10, 6)
    SEASONS.advance(c, "raise:wits")
    SEASONS.advance(c, "skill:survival")
    SEASONS.advance(c, "specialization:new", skill="ranged", name="pistols", rating=3)
    assert (c.attribute_points, c.skill_points, c.specialization_points) == (4, 9, 3)
    assert SEASONS.validate(c) == []
    assert "tier_needs_approval" not in codes(SEASONS, as_created(c))  # approved by advancing


def test_seasons_start_play_keeps_unspent_points_in_creation():
    c = seasons_character(empathy=2)  # one skill point left
    with pytest.raises(RuleError) as e:
        SEASONS.start_play(c)
    assert [p.code for p in e.value.data["problems"]] == ["skill_points_unspent"]
    assert c.phase == "creation"
    lenient = SEASONS.with_rules(allow_unspent=True)
    lenient.start_play(c)
    assert c.phase == "play"


# ---------------------------------------------------------------------------------------------
# Life and Death
# ---------------------------------------------------------------------------------------------
RACE = dict(might=2, dexterity=2, alertness=2, complexity=2, power=2, luck=2)


def ld_character() -> LdCharacter:
    c = LdCharacter(name="Arin")
    LD.apply_race_and_age(c, RACE, "young", base_hp=10)
    spend_param_point(c, "might", options=LD.rules)
    spend_param_point(c, "dexterity", options=LD.rules)
    c.update(features=[{"id": "speed", "level": 1, "origin": "bought"}], skills={"athletics": 2, "stealth": 1})
    return c


def test_ld_played_and_advanced_shows_no_problem():
    c = ld_character()
    assert LD.validate(c) == []
    LD.start_play(c)
    LD.apply_damage(c, 3)
    for _session in range(10):  # experience: a point per skill used, 5 raise it (L355-357)
        LD.end_of_session(c, {"athletics": 1, "stealth": 1})
    c.update(pending_improvements=1)
    LD.improve(c, "parameter", "alertness")  # the level-up choice (L361-371)
    loot = {
        "name": "Treasure sword",
        "category": "weapon",
        "rarity": "rare",
        "damage": 2,
        "min_might": 1,
        "weight_kg": 1,
        "cost": 15,
        "equipped": False,
    }
    c.update(inventory=c.inventory + [loot])  # found in play, worth more than the starting budget
    assert c.hp < c.hp_max and c.skills["athletics"] > 2 and c.level == 2
    assert LD.validate(c) == []
    assert "E_INVENTORY_BUDGET" in codes(LD, as_created(c))


def test_ld_finish_creation_is_start_play_and_reads_old_stage():
    c = LdCharacter(age="adult", features=[{"id": "speed", "level": 1, "origin": "bought"}])
    with pytest.raises(RuleError):
        LD.finish_creation(c)
    assert c.phase == "creation" and c.stage == "creation"
    old = {**ld_character().to_dict(), "stage": "play"}
    del old["phase"]
    assert LdCharacter.from_dict(old).phase == "play"  # a file saved before the phase


# ---------------------------------------------------------------------------------------------
# Threads of Fate
# ---------------------------------------------------------------------------------------------
THREADS_LEGAL = dict(SHARED_THREADS_LEGAL, name="Rook")


def test_threads_played_and_advanced_shows_no_problem():
    c = ThreadsCharacter(**THREADS_LEGAL)
    assert THREADS.validate(c) == []
    THREADS.start_play(c)
    THREADS.spend_threads(c, 1)
    THREADS.apply_damage(c, 3)
    c.update(xp_free=c.xp_free + 10)  # the GM's XP for the meeting
    THREADS.raise_skill(c, "stealth")
    THREADS.buy_trick(c, "Quick draw")  # a third Trick for 5 XP (L157)
    assert len(c.tricks) == 3 and c.skill_xp_spent > c.creation_xp
    assert THREADS.validate(c) == []
    assert {"V09", "V13"} <= codes(THREADS, as_created(c))


def test_threads_start_play_turns_creation_xp_left_into_free_xp():
    c = ThreadsCharacter(**{**THREADS_LEGAL, "stealth": 2})  # 2 of the 10 creation XP left
    left = c.creation_xp_left
    assert left > 0
    changes = THREADS.finalise(c)
    assert c.phase == "play" and c.xp_free == left
    assert changes["xp_free"] == (0, left)


def test_threads_party_duplicates_only_at_the_start():
    a = ThreadsCharacter(**THREADS_LEGAL)
    b = ThreadsCharacter(**THREADS_LEGAL)
    assert "V23" in codes_with_party(a, b)
    THREADS.start_play(a)
    assert "V23" not in codes_with_party(a, b)


def codes_with_party(c, *others) -> set[str]:
    return {p.code for p in THREADS.validate(c, (c, *others))}


# ---------------------------------------------------------------------------------------------
# every system
# ---------------------------------------------------------------------------------------------
UNFINISHED = {
    "ret": dict(abilities=[{"name": "Lockpicking", "kind": "skill", "level": 3, "base_param": "fine_motor"}]),
    "seasons": dict(strength=5),
    "life_and_death": dict(age="adult", features=[{"id": "speed", "level": 1, "origin": "bought"}]),
    "threads_of_fate": dict(THREADS_LEGAL, strength=18),
}


@pytest.mark.parametrize("system", [RET, SEASONS, LD, THREADS], ids=lambda s: s.slug)
def test_an_unfinished_character_cannot_start_play(system):
    c = system.Character(**UNFINISHED[system.slug])
    problems = system.creation_problems(c)
    assert problems
    with pytest.raises(RuleError) as e:
        system.start_play(c)
    assert c.phase == "creation"
    assert e.value.data["problems"] == problems
    for p in problems:
        assert p.text("en") in e.value.text("en") and p.text("ru") in e.value.text("ru")


def SEASONS_EFFECT(**kw):
    from tabletop_widgets.core import Effect

    return Effect(**kw)
