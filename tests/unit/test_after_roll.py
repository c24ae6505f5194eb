"""The after-roll contract (issue #17, L351): what a player may still do to a rolled check,
generic over ``GameSystem`` (a toy system here; Life&Death's epic dice in tests/systems)."""

from __future__ import annotations

import dataclasses

import pytest
import traitlets

from tabletop_widgets.core import CheckResult, OptionSpec, T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import Effect, GameSystem


class Hero(traitlets.HasTraits):
    grit = traitlets.Int(2)


class Pushy(GameSystem):
    """A toy game: after a roll, "push" spends grit for +1 each, up to what is left."""

    slug = "pushy"

    def after_roll_options(self, character, result):
        if character.grit < 1:
            return []
        return [OptionSpec("push", T("Push", "Нажим"), default=1, min=1, max=character.grit)]

    def after_roll(self, character, result, **options):
        push = self.checked_after_roll_options(character, result, options)["push"]
        return dataclasses.replace(result, total=result.total + push, effects=[Effect("grit", -push)])


def rolled(total=3):
    return CheckResult("climb", T("Climb", "Лазание"), total >= 4, total)


def test_the_default_offers_nothing_and_refuses_for_a_player():
    with pytest.raises(RuleError) as err:
        GameSystem().after_roll(Hero(), rolled(), push=1)
    assert GameSystem().after_roll_options(Hero(), rolled()) == []
    assert err.value.code == "no_after_roll" and "roll" in err.value.text("en") and err.value.text("ru")


def test_a_system_reads_the_roll_again_with_its_effects_not_applied():
    hero = Hero()
    after = Pushy().after_roll(hero, rolled(3), push=2)
    assert (after.total, [(e.trait, e.delta) for e in after.effects], hero.grit) == (5, [("grit", -2)], 2)
    assert Pushy().after_roll(hero, rolled(3)).total == 4  # the default, 1


@pytest.mark.parametrize(
    ("options", "code", "said"),
    [
        ({"push": 3}, "bad_option", "above the highest"),
        ({"push": 0}, "bad_option", "below the lowest"),
        ({"push": "2"}, "bad_option", "whole number"),
        ({"push": True}, "bad_option", "whole number"),
        ({"shove": 1}, "unknown_option", "no option 'shove'"),
    ],
)
def test_forged_options_are_refused_by_name(options, code, said):
    with pytest.raises(RuleError) as err:
        Pushy().after_roll(Hero(), rolled(), **options)
    assert err.value.code == code and said in err.value.text("en") and err.value.text("ru")


def test_nothing_offered_means_refused():
    with pytest.raises(RuleError) as err:
        Pushy().after_roll(Hero(grit=0), rolled(), push=1)
    assert err.value.code == "no_after_roll"
