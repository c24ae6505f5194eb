"""Seasons («Времена Года») audit fix (issue #17): the sheet and the dice tray agree on what the
active Problem, the active Advantage and the conditions do to a check. By the book only Pain
applies by itself (L708, spec §11 #43); a Problem is -3 where it hinders (L316), an Advantage +3
where it helps (L390, L123), each condition -3 on the checks it affects, stacking (L687, L775).
So the tray offers each of them as an option of the checks it can fit, unticked for the player to
tick, and pre-ticked under the Storyteller's ``auto_sheet_modifiers``."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tabletop_widgets.core import RuleError
from tabletop_systems.seasons import SYSTEM, Character, conditions

AUTO = SYSTEM.with_rules(auto_sheet_modifiers=True)
MENTAL, PHYSICAL = "wits+investigation", "strength+athletics"


def troubled() -> Character:
    return Character(
        wits=3,
        investigation=2,
        strength=3,
        athletics=2,
        problems=["Curious", "Broke"],
        active_problem="Curious",
        advantages=["Calm"],
        active_advantage="Calm",
        conditions=[conditions.condition_entry("fixation"), {"name": "Drunk", "kind": "physical"}],
    )


def option_names(system, c, check_id):
    return [o.name for o in system.check(c, check_id).options]


def test_each_active_modifier_is_offered_unticked_on_the_checks_it_can_fit_L316_L390_L687():
    c = troubled()
    spec = SYSTEM.check(c, MENTAL)
    problem, advantage = spec.option("problem"), spec.option("advantage")
    assert (problem.label["en"], problem.default) == ("Problem: Curious (-3)", False)
    assert problem.label["ru"] == "Проблема: Curious (-3)"
    assert (advantage.label["en"], advantage.default) == ("Advantage: Calm (+3)", 0)
    fixation, drunk = spec.option("condition_1"), spec.option("condition_2")
    assert (fixation.kind, fixation.label["en"], fixation.default) == ("bool", "Condition: Fixation (-3)", False)
    assert fixation.label["ru"] == "Состояние: Fixation (-3)"
    assert drunk.label["en"] == "Condition: Drunk (-3)" and drunk.default is False
    assert "tick it where it fits" in fixation.help["en"]
    # Fixation hinders mental checks only (L695-716): a physical check does not offer it
    physical = option_names(SYSTEM, c, PHYSICAL)
    assert "condition_1" not in physical and "condition_2" in physical
    assert "condition_1" not in option_names(SYSTEM, c, "threat")  # the hazard rolls, not the character


def test_the_roll_counts_what_is_ticked_and_only_that():
    c = troubled()
    base = SYSTEM.pool_plan(c, MENTAL, difficulty=0).pool
    assert base == 5  # nothing by itself (§11 #43)
    ticked = SYSTEM.roll_check(
        c, MENTAL, rng=random.Random(4), difficulty=0, problem=True, advantage=1, condition_1=True
    )
    assert ticked.details["pool"] == 5 - 3 + 3 - 3
    assert SYSTEM.chance(c, MENTAL, difficulty=0, condition_1=True) == 1 - Fraction(1, 2**2)
    assert SYSTEM.chance(c, MENTAL, difficulty=0, condition_1=True, condition_2=True) == 0  # 5 - 6: impossible
    plan = SYSTEM.pool_plan(c, MENTAL, difficulty=0, condition_1=True)
    assert ("condition_1", {"en": "Condition: Fixation", "ru": "Состояние: Fixation"}, -3) in plan.terms
    assert SYSTEM.roll_check(c, MENTAL, rng=random.Random(4), difficulty=0).details["pool"] == 5


def test_pain_alone_applies_by_itself_L708():
    c = troubled()
    c.update(damage=5)  # half of 10: Pain
    assert SYSTEM.pool_plan(c, PHYSICAL, difficulty=0).pool == 5 - 3
    assert SYSTEM.check(c, PHYSICAL).option("pain").default is True


def test_the_storytellers_option_ticks_them_beforehand():
    c = troubled()
    spec = AUTO.check(c, MENTAL)
    assert spec.option("problem").default is True and spec.option("advantage").default == 1
    assert spec.option("condition_1").default is True and spec.option("condition_2").default is True
    assert "untick it where it does not fit" in spec.option("condition_1").help["en"]
    assert AUTO.pool_plan(c, MENTAL, difficulty=0).pool == 5 - 3 + 3 - 3 - 3
    assert AUTO.pool_plan(c, MENTAL, difficulty=0, condition_2=False).pool == 5 - 3 + 3 - 3
    assert AUTO.pool_plan(c, PHYSICAL, difficulty=0).pool == 5 - 3 + 3 - 3  # Fixation does not fit


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"condition_1": True}, "no_such_condition"),  # Fixation cannot affect a physical check
        ({"condition_7": True}, "no_such_condition"),  # no seventh condition on the sheet
        ({"condition_2": "yes"}, "bad_option"),
    ],
)
def test_a_forged_condition_option_is_refused(options, code):
    c = troubled()
    before = c.to_dict()
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, PHYSICAL, rng=random.Random(1), **options)
    assert err.value.code == code and err.value.text("ru") != err.value.text("en")
    assert c.to_dict() == before


def test_the_sheets_help_says_exactly_that():
    for name in ("active_problem", "active_advantage", "conditions"):
        help_en = SYSTEM.sheet.field(name).help["en"]
        help_ru = SYSTEM.sheet.field(name).help["ru"]
        assert "unticked" in help_en and "tick it" in help_en and "beforehand" in help_en
        assert "без отметки" in help_ru and "заранее" in help_ru
        assert "unless the tray unticks" not in help_en and "automatically" not in help_en
    assert "Pain always applies by itself" in SYSTEM.sheet.field("conditions").help["en"]


def test_the_tray_shows_the_condition_on_a_check_it_fits():
    from tabletop_widgets.widgets.tray import DiceTray

    c = troubled()
    tray = DiceTray(c, system=SYSTEM, rng=random.Random(2))
    mental = {ctrl.name: ctrl for ctrl in tray.option_controls(MENTAL)}
    assert mental["condition_1"].value is False
    assert mental["condition_1"].spec.label["en"] == "Condition: Fixation (-3)"
    assert "condition_1" not in {ctrl.name for ctrl in tray.option_controls(PHYSICAL)}
    before = tray.chance(MENTAL)
    tray.set_option("condition_1", True, MENTAL)  # the player ticks it
    assert tray.options_for(MENTAL)["condition_1"] is True
    assert tray.chance(MENTAL) == SYSTEM.chance(c, MENTAL, **tray.options_for(MENTAL)) < before
