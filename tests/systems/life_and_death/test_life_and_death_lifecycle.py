"""A Life&Death's Game character's whole life (issue #17, "done when"): made with the wizard from
a blank sheet, finished, played for a session (an epic die spent on a real check, damage taken
in a fight, a new session), awarded experience by the GM and advanced once: no problem in the
rules, none on its sheet, and the same after a save and a load."""

from __future__ import annotations

import json
import random

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.core import Combat
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.wizard import Wizard

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def made_with_the_wizard():
    c = SYSTEM.Character()
    w = Wizard(SYSTEM, c)
    answers = {
        "game": {"mode": "campaign"},
        "race": {"race_params": RACE},
        "age": {"age": "young"},
        "parameters": {"param_points": {"might": 1, "luck": 1}},
        "skills": {"skills": {"athletics": 3, "stealth": 3, "detection": 1}},
        "features": {"features": [{"id": "speed", "level": 1, "origin": "bought"}]},
        "details": {"name": "Ayra", "faith": "esker"},
        "inventory": {"inventory": [{"name": "Spear", "category": "weapon", "cost": 3, "damage": 2, "equipped": True}]},
    }
    while True:
        for name, value in answers[w.step.id].items():
            setattr(c, name, value)
        assert w.step_errors() == [], w.step.id
        if w.is_last:
            break
        w.next()
    w.finish()
    return c


def assert_no_problem_anywhere(c):
    from tabletop_widgets.widgets.sheet import CharacterSheet

    assert SYSTEM.validate(c) == []
    sheet = CharacterSheet(c)
    assert sheet.problems == []
    assert "tt-error" not in sheet.summary.value and "tt-warning" not in sheet.summary.value
    shown = [n for n, v in sheet.views.items() if "tt-has-problem" in v.widget._dom_classes]
    assert shown == []


def test_made_played_awarded_and_advanced_without_a_problem():
    c = made_with_the_wizard()
    assert c.phase == "play" and (c.might, c.luck, c.hp_max, c.reputation) == (3, 3, 11, 1)
    assert_no_problem_anywhere(c)

    # the session: the GM gives an epic die for a heroic act (L349), spent on a real check (L351)
    SYSTEM.award(c, "epic_dice", 1)
    check = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=3, epic=1, rng=random.Random(7))
    SYSTEM.apply_effects(c, check.effects)
    assert c.epic_dice == 0 and check.total >= 1

    # a fight: a goblin's spear hits (the combat's own dice)
    goblin = SYSTEM.Character(name="Goblin", might=3, dexterity=3, alertness=2)
    goblin.phase = "play"
    goblin.inventory = [{"name": "Club", "category": "weapon", "damage": 3, "equipped": True}]
    combat = Combat(SYSTEM, rng=random.Random(3))
    combat.add("ayra", c)
    combat.add("goblin", goblin)
    combat.roll_initiative()
    hp_before = c.hp
    for _ in range(6):
        attack = SYSTEM.attacks(goblin, c)[0]
        combat.attack("goblin", "ayra", attack.id)
        if c.hp < hp_before:
            break
    assert c.hp < hp_before and c.hp > 0

    # a new session, then the GM's experience: skill XP and the session's total (L355-L359)
    SYSTEM.session_started(c)
    SYSTEM.advance(c, "skill_xp:stealth", by_gm=True)
    SYSTEM.award(c, "xp", 19)
    assert (c.level, c.pending_improvements) == (2, 1)

    # advanced once: Luck up with the level's improvement (L369)
    out = SYSTEM.advance(c, "raise:luck")
    assert out.changes["luck"] == (3, 4) and c.pending_improvements == 0
    assert_no_problem_anywhere(c)

    # saved to JSON and loaded: everything kept
    text = json.dumps(c.to_dict())
    back = SYSTEM.Character.from_dict(json.loads(text))
    assert persisted(back) == persisted(c)
    assert (back.hp, back.hp_max, back.luck, back.level, back.phase) == (c.hp, c.hp_max, 4, 2, "play")
    assert_no_problem_anywhere(back)
