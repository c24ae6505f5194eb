"""apply_effects validates every effect before applying any; record_changes (issue 15)."""

import pytest
import traitlets

from tabletop_widgets.core import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import DamageOutcome, Effect, GameSystem, record_changes


class Hero(traitlets.HasTraits):
    luck = traitlets.Int(3)
    sanity = traitlets.Int(5)
    health = traitlets.Int(10)
    wounds = traitlets.List()

    @traitlets.validate("health")
    def _health(self, proposal):
        if proposal["value"] < -5:
            raise traitlets.TraitError("health below -5")
        return proposal["value"]


class Strict(GameSystem):
    slug = "strict"

    def effect_value(self, character, trait, old, delta):
        new = old + delta
        if trait == "luck" and new < 0:
            raise RuleError("no_luck", T("not enough Luck", "не хватает Удачи"))
        return min(new, 9) if trait == "sanity" else new


def test_the_default_adds_and_reports_old_and_new():
    hero = Hero()
    changes = GameSystem().apply_effects(hero, [Effect("luck", -1), Effect("sanity", 2), Effect("luck", -1)])
    assert changes == {"luck": (3, 1), "sanity": (5, 7)} and (hero.luck, hero.sanity) == (1, 7)


def test_a_refused_second_effect_leaves_the_first_unapplied():
    hero = Hero()
    with pytest.raises(RuleError, match="not enough Luck"):
        Strict().apply_effects(hero, [Effect("sanity", 1), Effect("luck", -4)])
    assert (hero.sanity, hero.luck) == (5, 3)


def test_effects_on_one_trait_accumulate_before_the_check():
    hero = Hero()
    with pytest.raises(RuleError):
        Strict().apply_effects(hero, [Effect("luck", -2), Effect("luck", -2)])
    assert hero.luck == 3
    assert Strict().apply_effects(hero, [Effect("sanity", 3), Effect("sanity", 3)]) == {"sanity": (5, 9)}


def test_a_model_refusing_a_value_puts_back_the_ones_already_set():
    hero = Hero()
    with pytest.raises(traitlets.TraitError):
        GameSystem().apply_effects(hero, [Effect("luck", 2), Effect("sanity", -1), Effect("health", -20)])
    assert (hero.luck, hero.sanity, hero.health) == (3, 5, 10)


def test_record_changes_reports_only_what_changed():
    hero = Hero()
    with record_changes(hero, ("health", "luck", "wounds")) as out:
        hero.health -= 4
        hero.wounds.append("cut")  # changed in place
        out.notes.append(T("Ouch", "Ай"))
    assert isinstance(out, DamageOutcome)
    assert out.changes == {"health": (10, 6), "wounds": ([], ["cut"])} and out.notes == [T("Ouch", "Ай")]


def test_record_changes_fills_a_given_outcome_and_keeps_its_entries():
    hero = Hero()
    given = DamageOutcome(changes={"note": (0, 1)}, defeated=True)
    with record_changes(hero, ["luck"], given) as out:
        hero.luck = 0
    assert out is given and given.changes == {"note": (0, 1), "luck": (3, 0)} and given.defeated


def test_record_changes_leaves_the_outcome_alone_when_the_block_fails():
    hero = Hero()
    with pytest.raises(RuleError):
        with record_changes(hero, ["luck"]) as out:
            hero.luck = 1
            raise RuleError("x", T("x", "x"))
    assert out.changes == {}
