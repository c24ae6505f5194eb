"""The Life&Death's Game creation wizard (spec §4; seed L41-L188) walked in plain Python with
``core.wizard.Wizard``, from a blank character to play, as a player fills it in step by step."""

from __future__ import annotations

import pytest

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.wizard import Wizard

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def refused(w):
    with pytest.raises(RuleError) as err:
        w.next()
    assert err.value.code == "step_problems"
    return {p.code for p in err.value.data["problems"]}


def budget_texts(w, locale="en"):
    return [b.text(locale) for b in w.budgets()]


def test_a_blank_character_walks_the_books_steps_to_play():
    c = SYSTEM.Character()
    w = Wizard(SYSTEM, c)
    assert [s.id for s in w.steps] == [
        "game",
        "race",
        "age",
        "parameters",
        "skills",
        "features",
        "details",
        "inventory",
    ]
    for step in w.steps:
        assert step.title["en"] and step.title["ru"] and step.explain["en"] and step.explain["ru"]
        assert all(hasattr(c, f) for f in step.fields), step.id

    assert w.step.id == "game" and w.step.fields == ("mode",)
    assert w.next().id == "race"

    # L45: the race's six values; half of them is not enough
    c.race_params = {"might": 2, "dexterity": 3}
    assert refused(w) == {"E_RACE_PARAMS_MISSING"}
    c.race_params = RACE
    assert (c.might, c.dexterity, c.hp_max) == (2, 3, 10), "the parameters follow the racial values"
    assert w.next().id == "age"

    # L49: an age category is chosen
    assert refused(w) == {"E_NO_AGE"}
    c.age = "young"  # L73: Alertness -1, Power +1; 2 parameter points, 1 feature point
    assert (c.alertness, c.power) == (1, 3)
    assert w.next().id == "parameters"

    # L55, L59: the age's free points, no parameter above 5
    assert budget_texts(w) == ["Age points for parameters: 0 of 2 spent, 2 left"]
    c.param_points = {"might": 2, "luck": 1}
    assert budget_texts(w) == ["Age points for parameters: 3 of 2 spent, 1 over"]
    assert budget_texts(w, "ru") == ["Очки возраста на параметры: потрачено 3 из 2, перерасход 1"]
    assert refused(w) == {"E_PARAM_POINTS"}
    c.param_points = {"might": 1, "luck": 1}
    assert (c.might, c.luck, c.hp_max) == (3, 3, 11), "Might above the racial value adds HP"
    assert budget_texts(w) == ["Age points for parameters: 2 of 2 spent, 0 left"]
    assert w.next().id == "skills"

    # L82, L103: skill points per parameter, no skill above its parameter
    assert "Skill points of Might: 0 of 3 spent, 3 left" in budget_texts(w)
    c.skills = {"athletics": 4}
    assert refused(w) == {"E_SKILL_CAP", "E_SKILL_BUDGET"}
    c.skills = {"athletics": 3, "stealth": 3}
    assert "Skill points of Dexterity: 3 of 3 spent, 0 left" in budget_texts(w)
    assert w.next().id == "features"

    # L94-L104: the age's feature point
    assert budget_texts(w) == ["Feature points: 0 of 1 spent, 1 left"]
    c.features = [{"id": "speed", "level": 2, "origin": "bought"}]
    assert refused(w) == {"E_FEATURE_POINTS"}
    c.features = [{"id": "speed", "level": 1, "origin": "bought"}]
    assert budget_texts(w) == ["Feature points: 1 of 1 spent, 0 left"]
    assert w.next().id == "details"

    # L132: a name; in a campaign the reputation is asked too (L47)
    assert "reputation" in w.step.fields
    assert refused(w) == {"no_name"}
    c.name = "Ayra-Vel"
    assert refused(w) == {"E_NAME_FORMAT"}
    c.name = "Ayra"
    assert w.next().id == "inventory" and w.is_last

    # L146: ten inventory points
    c.inventory = [{"name": "Spear", "category": "weapon", "cost": 12, "damage": 2}]
    assert budget_texts(w) == ["Inventory points: 12 of 10 spent, 2 over"]
    with pytest.raises(RuleError) as err:
        w.finish()
    assert err.value.code == "creation_problems" and c.phase == "creation"
    c.inventory = [{"name": "Spear", "category": "weapon", "cost": 3, "damage": 2}]
    assert w.back().id == "details" and w.next().id == "inventory"
    w.finish()
    assert c.phase == "play" and SYSTEM.validate(c) == []
    assert (c.might, c.dexterity, c.alertness, c.complexity, c.power, c.luck) == (3, 3, 1, 3, 3, 3)


def test_steps_follow_earlier_choices():
    c = SYSTEM.Character(mode="quick")
    ids = [s.id for s in Wizard(SYSTEM, c).steps]
    assert "forms" not in ids and "familiar" not in ids
    details = next(s for s in SYSTEM.creation_wizard(c) if s.id == "details")
    assert "reputation" not in details.fields, "no reputation in a quick game (L47)"
    c.features = [{"id": "shapeshifter", "level": 1}, {"id": "bound_pattern", "level": 1, "note": "Fox"}]
    ids = [s.id for s in SYSTEM.creation_wizard(c)]
    assert ids.index("features") < ids.index("forms") < ids.index("details") and ids[-1] == "familiar"


def test_features_that_change_a_parameter_move_it_while_creating():
    house = SYSTEM.with_data(
        "features", {"id": "brawn", "en": "Brawn", "ru": "Мощь", "kind": "positive", "param_mods": {"might": 1}}
    )
    c = house.Character(race_params=RACE, age="young")
    assert c.might == 2
    c.features = [{"id": "brawn", "level": 1, "origin": "bought"}]
    assert (c.might, c.parameter_layers["might"]["feature_mod"]) == (3, 1)
    assert "W_PARAM_LAYERS" not in {p.code for p in house.validate(c)}


def test_in_play_the_layers_no_longer_move_the_parameters():
    c = SYSTEM.Character(name="Ayra", race_params=RACE, age="young", param_points={"might": 1, "luck": 1})
    assert c.might == 3
    c.phase = "play"
    c.race_params = dict(RACE, might=1)
    assert c.might == 3
