"""A RET character's whole life (issue #17, "done when"): made through the creation wizard from
a blank sheet, finished, played for a session (Luck spent on a real check, damage taken in a
fight), a new session started, development points awarded by the GM and spent once, and at every
point after finishing nothing shows as a problem, neither in the rules nor on the sheet; the same
character saved to JSON and loaded keeps everything."""

from __future__ import annotations

import json

from ret_testkit import Scripted
from tabletop_systems.ret import SYSTEM, Character
from tabletop_widgets.core import Combat
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.wizard import Wizard
from tabletop_widgets.widgets import CharacterSheet

#: the GM gives 3 parameter points and 3 ability points at creation (L315's example)
TABLE = SYSTEM.with_rules(param_dp=3, ability_dp=3)


def make_vera() -> Character:
    """Through the wizard, step by step, as a player would."""
    c = Character()
    w = Wizard(TABLE, c)
    c.name, c.concept = "Vera", "A retired detective"
    w.next()
    c.backstory = "Twenty years in the city's police."
    w.next()
    c.abilities = [
        {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Interrogation", "kind": "skill", "base_param": "leadership", "level": 3},
        {"name": "First aid", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Detective", "kind": "talent", "base_param": "perception", "level": 3},
    ]
    w.next()
    c.weapons = [{"name": "Revolver", "category": "pistol", "kind": "ranged", "damage": 3, "ammo": 6}]
    c.items = [{"name": "Medkit"}, {"name": "Badge"}]
    w.next()
    c.attention, c.intuition, c.physique = 5, 4, 3
    c.abilities = [{**c.abilities[0], "level": 4}, *c.abilities[1:3], {**c.abilities[3], "level": 5}]
    assert [b.text() for b in w.budgets()] == [
        "Parameter points: 3 of 3 spent, 0 left",
        "Ability points: 3 of 3 spent, 0 left",
    ]
    w.next()
    w.finish()
    return c


def shows_no_problem(c) -> None:
    assert TABLE.validate(c) == []
    sheet = CharacterSheet(c, TABLE)
    assert sheet.problems == []
    assert "tt-error" not in sheet.summary.value and "✖" not in sheet.summary.value
    shown = [name for name, view in sheet.views.items() if "tt-error" in (view.problem.value or "")]
    assert shown == []


def test_made_played_awarded_and_advanced_without_a_problem():
    vera = make_vera()
    assert vera.phase == "play" and (vera.luck, vera.health, vera.sanity) == (6, 6, 6)
    shows_no_problem(vera)

    # the session: Luck declared on an Attention check (L351-355): Attention 5 rolls d10: 6 + 2 Luck
    result = TABLE.roll_check(vera, "attention", rng=Scripted(6), luck=2, difficulty=8)
    assert (result.total, result.degree) == (8, "passed")
    TABLE.apply_result(vera, result)
    assert vera.luck == 4, "the declared Luck is spent"
    shows_no_problem(vera)  # the audit's "Starting Luck must be 6" no longer shows in play

    # a fight: a thug's fist hits (d6 5 against Vera's dodge d6 2)
    thug = Character(name="Thug", is_npc=True)
    fight = Combat(TABLE, rng=Scripted(5, 2))
    fight.add("vera", vera)
    fight.add("thug", thug)
    event = fight.attack("thug", "vera", "melee:unarmed")
    assert event["hit"] and vera.health < vera.health_max
    hurt = vera.health
    shows_no_problem(vera)

    # a new session: Luck refills to its maximum (L357)
    TABLE.session_started(vera)
    assert vera.luck == 6 and vera.health == hurt

    # the GM awards development points (L278) and Vera raises Endurance (3 -> 4 costs 3, L300)
    TABLE.award(vera, "dp", 4)
    spec = next(s for s in TABLE.advancements(vera) if s.id == "raise:endurance")
    assert dict(spec.cost) == {"dp": 3} and spec.blocked is None
    out = TABLE.advance(vera, "raise:endurance")
    assert out.line() == "Endurance 3 → 4 for 3 DP"
    assert (vera.endurance, vera.dp) == (4, 1)
    shows_no_problem(vera)

    # saved and loaded, the character is the same
    saved = json.loads(json.dumps(vera.to_dict()))
    loaded = Character.from_dict(saved)
    assert persisted(loaded) == persisted(vera)
    assert (loaded.phase, loaded.endurance, loaded.dp, loaded.health, loaded.luck) == ("play", 4, 1, hurt, 6)
    assert loaded.dp_log == vera.dp_log and len(loaded.dp_log) == 2
    shows_no_problem(loaded)
