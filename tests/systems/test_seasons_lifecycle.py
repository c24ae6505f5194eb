"""A Seasons («Времена Года») character's whole life (issue #17, "done when"): made through the
wizard from a blank sheet (L105-186), finished, played for a session (Drama spent on a real
check, L741; damage taken up to Pain, L708), given points by the Storyteller and advanced
(L752), and it shows no problem, in the rules or on its sheet; saved and loaded, it keeps
everything."""

from __future__ import annotations

import json
import random

from tabletop_widgets.core.wizard import Wizard
from tabletop_widgets.widgets import CharacterSheet
from tabletop_systems.seasons import SYSTEM, Character

from characters import SEASONS_DOCTOR_STEPS


def made_by_the_wizard() -> Character:
    c = Character()
    w = Wizard(SYSTEM, c)
    steps = {
        **SEASONS_DOCTOR_STEPS,
        "problem": dict(problems=["Curious"], active_problem="Curious"),
        "extras": dict(size=5),
        "experience": dict(tier="novice"),
    }
    while True:
        c.update(**steps[w.step.id])
        assert w.step_errors() == [], (w.step.id, w.step_errors())
        if w.is_last:
            break
        w.next()
    w.finish()
    return c


def no_problem_anywhere(c: Character) -> None:
    assert SYSTEM.validate(c) == []
    sheet = CharacterSheet(c, SYSTEM)
    assert sheet.problems == [] and sheet.shown_problems() == []
    assert "tt-clean" in sheet.summary.value and "No problems found." in sheet.summary.value


def test_made_played_awarded_advanced_and_clean():
    c = made_by_the_wizard()
    assert c.phase == "play" and c.drama == c.drama_start == 7  # L147
    no_problem_anywhere(c)

    # a session: Drama spent on a real check (+3 dice, L741), damage taken (L93), Pain (L708)
    assert SYSTEM.session_started(c) is None  # the book does nothing at a session's start
    result = SYSTEM.roll_check(c, "wits+investigation", rng=random.Random(5), drama=True, problem=True)
    assert [(e.trait, e.delta) for e in result.effects] == [("drama", -1)]
    SYSTEM.apply_effects(c, result.effects)
    assert c.drama == 6
    hurt = SYSTEM.apply_damage(c, 5)
    assert c.damage == 5 and c.pain_active and hurt.changes
    SYSTEM.chapter_award(c, archetype=2, goal=1, problem=3)  # Drama at the chapter's end (L742)
    assert c.drama == 12
    no_problem_anywhere(c)

    # the Storyteller gives points; the player spends them (L752)
    SYSTEM.award(c, "skill_points", 2)
    SYSTEM.advance(c, "skill:occult")
    assert (c.occult, c.skill_points) == (1, 1)
    SYSTEM.advance(c, "tier:experienced", storyteller_grants=True)
    SYSTEM.advance(c, "raise:stamina")
    SYSTEM.advance(c, "specialization:new", skill="occult", name="rituals", rating=2)
    assert (c.tier, c.stamina, c.attribute_points, c.specialization_points) == ("experienced", 4, 4, 4)
    no_problem_anywhere(c)

    # saved to JSON and loaded: everything kept
    data = json.loads(json.dumps(c.to_dict()))
    again = Character.from_dict(data)
    assert again.to_dict() == c.to_dict()
    assert (again.phase, again.tier, again.skill_points, again.specializations[-1]["name"]) == (
        "play",
        "experienced",
        11,
        "rituals",
    )
    no_problem_anywhere(again)
