"""Making an RET character with the creation wizard (issue #17, spec §4): the book's steps in its
order (L450-470), each explained, with the running budgets, walked in plain Python as a player
would. Seed lines ``Lnnn`` point into ``000_616609df81580a02.txt``."""

from __future__ import annotations

import pytest

from tabletop_systems.ret import SYSTEM, Character
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.wizard import Wizard

#: a table whose GM gives 3 parameter points and 3 ability points at creation (L315's example)
TABLE = SYSTEM.with_rules(param_dp=3, ability_dp=3)
SKILLS = [
    {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3},
    {"name": "Stealth", "kind": "skill", "base_param": "body_control", "level": 3},
    {"name": "First aid", "kind": "skill", "base_param": "fine_motor", "level": 3},
]
TALENT = {"name": "Detective", "kind": "talent", "base_param": "perception", "level": 3}


def texts(budgets, locale="en"):
    return [b.text(locale) for b in budgets]


def codes(problems):
    return [p.code for p in problems]


def test_the_steps_follow_the_book_and_explain_themselves():
    """L452-466: idea and identity, backstory, abilities, starting kit, development points,
    then the indicators to write down."""
    steps = TABLE.creation_wizard(Character())
    assert [s.id for s in steps] == ["identity", "backstory", "abilities", "kit", "points", "indicators"]
    for s in steps:
        assert s.title["en"] != s.title["ru"] and s.explain["en"] != s.explain["ru"]
        assert all(f in Character.class_trait_names() for f in s.fields), s.id
    abilities = steps[2]
    assert "3 skills and 1 talent," in abilities.explain["en"]  # L457
    assert "3 навыка и 1 талант" in abilities.explain["ru"]
    assert "twelve parameters" in steps[4].explain["en"] and "starts at 3" in steps[4].explain["en"]  # L463


def test_a_player_walks_from_a_blank_character_to_play():
    c = Character()
    w = Wizard(TABLE, c)
    # 1. identity: the name first (L454)
    assert w.step.id == "identity" and w.budgets() == []
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems" and "name" in str(err.value)
    c.name = "Vera"
    c.concept = "A retired detective"
    assert w.next().id == "backstory"
    c.backstory = "Twenty years in the city's police."
    assert w.next().id == "abilities"
    # 3. three skills and a talent (L457)
    assert texts(w.budgets()) == ["Skills: 0 of 3 spent, 3 left", "Talents: 0 of 1 spent, 1 left"]
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems" and codes(err.value.data["problems"]) == ["ability_count"]
    assert "this game starts with 3 skills and 1 talent." in str(err.value)
    c.abilities = SKILLS + [TALENT]
    assert texts(w.budgets(), "ru") == [
        "Навыки: потрачено 3 из 3, осталось 0",
        "Таланты: потрачено 1 из 1, осталось 0",
    ]
    assert w.next().id == "kit"
    # 4. the starting kit: more than the GM's 3 items is a warning, not a stop (L461)
    c.weapons = [{"name": "Revolver", "category": "pistol", "kind": "ranged", "damage": 3}]
    c.items = [{"name": n} for n in ("Medkit", "Badge", "Notebook", "Flask")]
    assert texts(w.budgets()) == ["Extra items: 4 of 3 spent, 1 over"]
    assert [(p.code, p.severity) for p in w.problems()] == [("starting_kit", "warning")]
    c.items = c.items[:3]
    assert w.next().id == "points"
    # 5. development points (L462-464): simplified costing at creation, 1 point a level
    assert "Lockpicking, Stealth, First aid" in w.step.explain["en"], "the step names the skills picked"
    assert texts(w.budgets()) == ["Parameter points: 0 of 3 spent, 3 left", "Ability points: 0 of 3 spent, 3 left"]
    c.attention, c.intuition, c.composure = 5, 4, 4
    assert texts(w.budgets())[0] == "Parameter points: 4 of 3 spent, 1 over"
    with pytest.raises(RuleError) as err:
        w.next()
    assert codes(err.value.data["problems"]) == ["param_overspent"]
    assert "Parameter points overspent: 4 of 3" in str(err.value)
    c.composure = 3
    c.abilities = [{**SKILLS[0], "level": 5}] + SKILLS[1:] + [{**TALENT, "level": 4}]
    assert texts(w.budgets()) == ["Parameter points: 3 of 3 spent, 0 left", "Ability points: 3 of 3 spent, 0 left"]
    assert w.back().id == "kit" and w.next().id == "points"
    assert w.next().id == "indicators"
    # 6. the indicators follow from the tree (L466); finishing starts play
    assert w.is_last and w.problems() == []
    assert (c.perception, c.mind, c.level, c.health_max, c.sanity_max, c.luck_max, c.luck) == (4, 3, 3, 6, 6, 6, 6)
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "last_step"
    w.finish()
    assert c.phase == "play" and TABLE.validate(c) == []


def test_finishing_is_refused_while_a_creation_rule_is_broken_on_any_step():
    """The last step lists everything still keeping the character from play."""
    c = Character(name="Vera", abilities=SKILLS + [TALENT], attention=7)
    w = Wizard(TABLE, c)
    w.index = len(w.steps) - 1
    assert codes(w.problems()) == ["param_overspent"]
    with pytest.raises(RuleError) as err:
        w.finish()
    assert err.value.code == "creation_problems" and c.phase == "creation"


def test_the_gms_numbers_reach_the_steps_and_budgets():
    """L457: the GM may start with 4 skills and 2 talents; L465: a cap at the start, e.g. 5."""
    table = SYSTEM.with_rules(n_skills=4, n_talents=2, creation_cap=5, param_dp=6)
    c = Character(name="Vera")
    steps = table.creation_wizard(c)
    assert "4 skills and 2 talents" in steps[2].explain["en"]
    assert "4 навыка и 2 таланта" in steps[2].explain["ru"]
    assert "не выше 5-го уровня" in steps[4].explain["ru"]
    budgets = table.creation_budgets(c)
    assert (budgets["skills"].total, budgets["talents"].total, budgets["param_dp"].total) == (4, 2, 6)
    c.attention = 6
    w = Wizard(table, c)
    w.index = 4
    assert "above_cap" in codes(w.step_errors())
