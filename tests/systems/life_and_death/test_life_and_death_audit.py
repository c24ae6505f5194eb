"""The rules the audit found for Life&Death's Game (issue #17), each against its seed line."""

from __future__ import annotations

import random

import pytest

from tabletop_systems.life_and_death import SYSTEM
from tabletop_systems.life_and_death.options import DESCRIPTIONS, HOUSE_DEFAULTS
from tabletop_widgets.core import RuleError

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


# -- L55: every +1 Might gives +1 HP, on a character built on the sheet -------------------------------
def test_might_entered_on_the_sheet_raises_maximum_hp():
    """L55: «каждое увеличение Силы также даёт персонажу +1 HP». The sheet now takes the race's
    values, so Might typed above the racial value adds HP."""
    from helpers import frontend_update
    from tabletop_widgets.widgets.sheet import CharacterSheet

    c = SYSTEM.Character(name="Ayra")
    sheet = CharacterSheet(c)
    racial = sheet.views["race_params"]
    assert racial.field.creation_only and tuple(racial.field.keys) == tuple(RACE)
    for row, value in zip(racial.entries.children, RACE.values()):
        frontend_update(row.children[1], value=str(value))
    assert c.race_params == RACE and (c.might, c.hp_max) == (2, 10)
    frontend_update(sheet.views["might"].control, value=4)
    assert (c.might, c.hp_max, c.hp) == (4, 12, 12)


def test_without_racial_values_a_typed_might_cannot_know_its_hp():
    """The bug as filed: with no racial values the racial layer absorbs any Might typed."""
    c = SYSTEM.Character(might=2, base_hp=10)
    c.might = 4
    assert c.hp_max == 10
    c.race_params = RACE  # the sheet's racial values fix it
    assert c.hp_max == 10 + (c.might - 2)


def test_age_points_on_might_add_hp_while_creating():
    c = SYSTEM.Character(race_params=RACE, age="young")
    assert (c.might, c.hp_max) == (2, 10)
    c.param_points = {"might": 2}
    assert (c.might, c.hp_max) == (4, 12)


# -- L351: epic dice before or after the roll ---------------------------------------------------------------
def campaigner(**kw):
    c = SYSTEM.Character(name="Ayra", race_params=RACE, age="young", reputation=3, epic_dice=3, **kw)
    return c


def test_epic_dice_may_be_spent_after_the_roll():
    """L351: «до или после броска кубиков»: the same dice, one success more per epic die."""
    c = campaigner(param_points={"might": 1, "luck": 1})
    first = SYSTEM.roll_check(c, "might", difficulty=2, faces=[7, 2, 1])
    assert (first.total, first.success) == (1, False)
    assert first.details["epic_after"]["max"] == 3 and first.details["epic_after"]["label"]["ru"]
    after = SYSTEM.spend_epic_after(c, first, 1)
    assert (after.total, after.success, after.details["faces"]) == (2, True, [7, 2, 1])
    assert [(e.trait, e.delta) for e in after.effects] == [("epic_dice", -1)]
    assert "1 epic die" in after.breakdown() and after.options["epic"] == 1
    SYSTEM.apply_effects(c, after.effects)
    assert c.epic_dice == 2 and after.details["epic_after"]["max"] == 2


def test_before_and_after_add_up_and_cancel_a_critical_failure():
    """L351 with L196: an epic success means the roll has a success: no critical failure."""
    c = campaigner()
    first = SYSTEM.roll_check(c, "luck", difficulty=2, epic=1, faces=[1, 3])
    assert first.total == 1 and first.details["epic_after"]["max"] == 2
    SYSTEM.apply_effects(c, first.effects)
    after = SYSTEM.spend_epic_after(c, first, 1)
    assert (after.total, after.success, after.critical, after.options["epic"]) == (2, True, None, 2)
    fumble = SYSTEM.roll_check(c, "luck", faces=[1, 2])
    assert fumble.critical == "failure"
    assert SYSTEM.spend_epic_after(c, fumble, 1).critical is None


def test_a_spell_cast_takes_epic_dice_after_the_roll():
    c = campaigner(skills={"clairvoyance": 2}, param_points={"complexity": 1, "luck": 1})
    cast = SYSTEM.roll_check(c, "cast:clairvoyance", functions=2, faces=[6, 2, 2, 2])
    assert cast.details["cast_outcome"] == "basic_spell"
    after = SYSTEM.spend_epic_after(c, cast, 1)
    assert after.details["cast_outcome"] == "as_designed" and after.outcome["en"] == "spell created as designed"


@pytest.mark.parametrize(
    ("setup", "epic", "code"),
    [
        ({}, 4, "not_enough_epic_dice"),
        ({}, 0, "bad_epic"),
        ({}, True, "bad_epic"),
        ({"mode": "quick"}, 1, "epic_in_quick_game"),
    ],
)
def test_spending_after_the_roll_refuses_what_the_rules_forbid(setup, epic, code):
    c = campaigner(**setup)
    first = SYSTEM.roll_check(c, "might", faces=[7, 2])
    with pytest.raises(RuleError) as err:
        SYSTEM.spend_epic_after(c, first, epic)
    assert err.value.code == code and err.value.text("en") and err.value.text("ru")
    assert c.epic_dice == 3


def test_a_quick_game_offers_no_epic_dice_after_the_roll():
    c = campaigner(mode="quick")
    assert SYSTEM.roll_check(c, "might", rng=random.Random(1)).details["epic_after"] is None


def test_a_result_without_this_games_dice_takes_no_epic_dice():
    from tabletop_widgets.core import CheckResult

    with pytest.raises(RuleError) as err:
        SYSTEM.spend_epic_after(campaigner(), CheckResult("might", {"en": "x", "ru": "x"}, True, 1), 1)
    assert err.value.code == "no_pool"


# -- L312: a spell's parameters may be lowered on purpose, never raised ------------------------------------
def caster():
    c = SYSTEM.Character(name="Ayra", race_params=dict(RACE, power=3), age="young", skills={"clairvoyance": 2})
    return c


def test_a_spells_parameters_may_be_lowered_on_purpose():
    """L312: «Любой из параметров может быть намеренно снижен ... но не повышен»."""
    c = caster()
    spec = next(s for s in SYSTEM.checks(c) if s.id == "cast:clairvoyance")
    lower = {o.name: o for o in spec.options if o.name in ("damage", "duration_rounds", "max_targets", "cast_range_m")}
    assert {n: (o.default, o.max) for n, o in lower.items()} == {
        "damage": (0, 4),
        "duration_rounds": (0, 4),
        "max_targets": (0, 16),
        "cast_range_m": (0, 20),
    }
    full = SYSTEM.roll_check(c, "cast:clairvoyance", brightness=3, faces=[6, 6, 6, 6, 6])
    assert full.details["spell"] == {"damage": 3, "duration_rounds": 3, "max_targets": 9, "cast_range_m": 15}
    low = SYSTEM.roll_check(c, "cast:clairvoyance", brightness=3, damage=1, max_targets=1, faces=[6, 6, 6, 6, 6])
    assert low.details["spell"] == {"damage": 1, "duration_rounds": 3, "max_targets": 1, "cast_range_m": 15}
    assert low.success and low.details["spell_level"] == full.details["spell_level"], "the check itself is the same"


def test_a_spells_parameter_is_never_raised():
    c = caster()
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, "cast:clairvoyance", brightness=2, damage=3, faces=[6, 6, 6, 6, 6])
    assert err.value.code == "E_SPELL_PARAM_RAISED"
    assert err.value.text("en") == "A spell's damage can be lowered, never raised: at most 2 at brightness 2."
    assert "не повысить" in err.value.text("ru")


# -- house defaults shown as the GM's options, not the book's ------------------------------------------------
@pytest.mark.parametrize("name", HOUSE_DEFAULTS)
def test_house_defaults_say_they_are_the_houses(name):
    assert DESCRIPTIONS[name]["en"].startswith("House rule, not the book's")
    assert DESCRIPTIONS[name]["ru"].startswith("Домашнее правило, не из книги")


def test_the_house_defaults_are_the_three_the_audit_named():
    assert SYSTEM.rules.default_base_hp == 10
    assert dict(SYSTEM.rules.unstated_skill_params) == {"survival": "alertness", "transformation": "might"}
    assert (
        "Survival" in DESCRIPTIONS["unstated_skill_params"]["en"]
        and "Transformation" in DESCRIPTIONS["unstated_skill_params"]["en"]
    )


def test_the_tray_marks_a_skill_parameter_that_is_the_houses():
    """L324 names Survival and L84 Transformation without a parameter: Alertness / Might is the house's."""
    c = SYSTEM.Character(name="Ayra", features=[{"id": "shapeshifter", "level": 1}])
    helps = {s.id: s.help for s in SYSTEM.checks(c)}
    assert "house's reading" in helps["alertness+survival"]["en"]
    assert "домашнее правило" in helps["alertness+survival"]["ru"]
    assert "house's reading" in helps["might+transformation"]["en"]
    assert "house" not in (helps["might+athletics"] or {}).get("en", "")
    book = SYSTEM.with_rules(unstated_skill_params={"survival": "dexterity"})
    helps = {s.id: s.help for s in book.checks(c)}
    assert "house's reading" in helps["dexterity+survival"]["en"]


def test_the_sheet_says_the_base_hp_default_is_the_houses():
    field = next(f for f in SYSTEM.sheet.fields() if f.name == "base_hp")
    assert "house default" in field.help["en"] and "book gives no number" in field.help["en"]
    assert "домашнее правило" in field.help["ru"]


# -- L351 through the generic contract: GameSystem.after_roll_options / after_roll ------------------------
def test_after_roll_offers_the_epic_dice_left_and_spends_them():
    c = campaigner(param_points={"might": 1, "luck": 1})
    first = SYSTEM.roll_check(c, "might", difficulty=2, epic=1, faces=[7, 2, 1])
    SYSTEM.apply_effects(c, first.effects)
    (spec,) = SYSTEM.after_roll_options(c, first)
    assert (spec.name, spec.kind, spec.min, spec.max, spec.default) == ("epic", "int", 1, 2, 1)
    after = SYSTEM.after_roll(c, first, epic=2)
    assert (after.total, after.options["epic"]) == (first.total + 2, 3)
    assert [(e.trait, e.delta) for e in after.effects] == [("epic_dice", -2)] and c.epic_dice == 2
    SYSTEM.apply_effects(c, after.effects)
    assert c.epic_dice == 0 and SYSTEM.after_roll_options(c, after) == []


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"epic": 4}, "bad_option"),
        ({"epic": 0}, "bad_option"),
        ({"epic": "1"}, "bad_option"),
        ({"dice": 1}, "unknown_option"),
    ],
)
def test_after_roll_refuses_forged_options(options, code):
    c = campaigner()
    first = SYSTEM.roll_check(c, "might", faces=[7, 2])
    with pytest.raises(RuleError) as err:
        SYSTEM.after_roll(c, first, **options)
    assert err.value.code == code and err.value.text("ru") and c.epic_dice == 3


def test_after_roll_offers_nothing_in_a_quick_game():
    c = campaigner(mode="quick")
    first = SYSTEM.roll_check(c, "might", faces=[7, 2])
    assert SYSTEM.after_roll_options(c, first) == []
    with pytest.raises(RuleError) as err:
        SYSTEM.after_roll(c, first, epic=1)
    assert err.value.code == "no_after_roll"
