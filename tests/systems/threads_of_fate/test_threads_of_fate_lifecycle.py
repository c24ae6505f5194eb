"""A Threads of Fate hero's whole life (issue #17, "done when"): made through the creation wizard from
a blank sheet, finished, played for a meeting (Threads of Fate spent on a real check, Damage taken in
a fight), a new meeting started, XP awarded by the GM and spent once, and no problem anywhere: not in
``validate``, not on the sheet, not after a save to JSON and a load."""

from __future__ import annotations

import json

from tabletop_systems.threads_of_fate import SYSTEM, Character
from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.wizard import Wizard
from tabletop_widgets.widgets import CharacterSheet
from helpers import DiceInOrder

#: what the player sets on each step, in the book's order (L249-268)
CHOICES = {
    "concept": {"name": "Rook", "concept": "An old soldier from the river forts, looking for his brother."},
    "characteristics": {
        "strength": 10,
        "dexterity": 14,
        "constitution": 14,
        "intelligence": 12,
        "wisdom": 12,
        "charm": 8,
    },
    "attributes": {
        "attributes": [
            {"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "trade"]},
            {"code": "martial_arts", "name": "Martial arts"},
        ]
    },
    "tricks": {"tricks": [{"name": "Experienced shooter"}, {"name": "Ambidextrous"}]},
    "flaws": {"flaws": [{"name": "Drunkard"}]},
    "facets": {"facets": [{"name": "Old soldier"}, {"name": "Calm"}]},
    "bonds": {"bonds": [{"name": "Never leave your own"}]},
    "skills": {"stealth": 4, "unarmed": 3, "warfare": 2},
}


def made_by_the_wizard() -> Character:
    c = Character()
    w = Wizard(SYSTEM, c)
    seen = []
    while True:
        seen.append(w.step.id)
        c.update(**CHOICES.get(w.step.id, {}))
        assert w.problems() == [], w.step.id
        if w.is_last:
            break
        w.next()
    assert seen == [*CHOICES, "ready"]
    assert [b.text() for b in w.budgets()] == [
        "Characteristic points: 70 of 70 spent, 0 left",
        "XP for skills: 9 of 10 spent, 1 left",
    ]
    w.finish()
    return c


def assert_no_problem(c):
    assert SYSTEM.validate(c) == []
    sheet = CharacterSheet(c, SYSTEM, open_sections="all")
    try:
        assert sheet.problems == [] and sheet.shown_problems() == []
        assert "tt-clean" in sheet.summary.value and "tt-error" not in sheet.summary.value
        for name, view in sheet.views.built.items():
            assert not view.problems and view.edit_error is None, name
    finally:
        sheet.close()


def test_a_hero_made_played_and_advanced_shows_no_problem():
    c = made_by_the_wizard()
    assert (c.phase, c.xp_free, c.threads) == ("play", 1, 2)
    assert_no_problem(c)

    # a meeting: 2 Threads (L164); a bought success on Stealth spends 2 of them (L189)
    SYSTEM.session_started(c)
    check = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=18, bought="success")
    assert check.success
    SYSTEM.apply_effects(c, check.effects)
    assert c.threads == 0
    # the Flaw enters play: a Caprice extends a Thread (L172, L215)
    SYSTEM.invoke_caprice(c, "C1")
    assert c.threads == 1
    # a raider's blade finds him: a natural 20 always costs at least 1 HP (L114)
    raider = Character(name="Raider", entity_type="extra", strength=14, weapons=3)
    raider.weapons_list = [{"name": "Machete", "kind": "melee", "dmb": 2}]
    fight = Combat(SYSTEM, rng=DiceInOrder([20]))
    fight.add("rook", c)
    fight.add("raider", raider)
    event = fight.attack("raider", "rook", "melee:machete")
    assert event["hit"] and event["damage"] > 0
    rook = fight.character("rook")
    assert rook.hp == rook.hp_max - event["damage"]
    c = rook
    assert_no_problem(c)

    # the next meeting: Threads back to 2, the hurt stays
    SYSTEM.session_started(c)
    assert c.threads == 2 and c.hp < c.hp_max

    # the GM awards 6 XP; Rook puts 2 into Warfare (Veteran's access) and buys a Trick
    SYSTEM.award(c, "xp_free", 6)
    assert (c.xp_free, c.xp_total) == (7, 6)
    SYSTEM.advance(c, "skill:warfare", points=2)
    assert (c.warfare, c.xp_free) == (4, 5)
    SYSTEM.advance(c, "trick", name="Quick draw")
    assert (len(c.tricks), c.xp_free) == (3, 0)
    assert c.skill_xp_spent > c.creation_xp, "past the creation budget, legally"
    assert_no_problem(c)

    # saved and loaded, everything is kept
    data = json.loads(json.dumps(c.to_dict()))
    back = Character.from_dict(data)
    assert persisted(back) == persisted(c)
    assert (back.phase, back.hp, back.threads, back.xp_free, back.xp_total, back.warfare) == (
        "play",
        c.hp,
        2,
        0,
        6,
        4,
    )
    assert [t["name"] for t in back.tricks] == ["Experienced shooter", "Ambidextrous", "Quick draw"]
    assert_no_problem(back)
