"""The rules the issue-17 audit found in Threads of Fate, each against its seed line
(``004_930342107b23b376.txt``): no success bought with Threads where the book leaves only Success with
Trouble (Expert skills without access, L138/L140/L413) or an automatic failure (Survival outside
familiar places, L424); the sheet's Valor and Marksmanship show the Veteran's +1 (L537)."""

from __future__ import annotations


import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.widgets import CharacterSheet
from helpers import DiceInOrder

VETERAN = {"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "medicine"]}


def bought(c, check_id, what, **options):
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, check_id, difficulty=10, bought=what, **options)
    assert persisted(c) == before, "nothing is spent"
    with pytest.raises(RuleError):
        SYSTEM.chance(c, check_id, difficulty=10, bought=what, **options)
    return err.value


@pytest.mark.parametrize("what", ["success", "critical_success"])
def test_no_success_is_bought_on_an_expert_skill_without_access_L140(what):
    """L413: no roll, only 5 + modifier; L138/L140: Success with Trouble is the only way to succeed."""
    c = Character(intelligence=14, threads=5)
    err = bought(c, "intelligence+medicine", what)
    assert err.code == "no_access_success"
    assert "only Success with Trouble" in err.text("en") and "Успех с Неприятностями" in err.text("ru")
    # the static value fails, and Success with Trouble is still there (2 Troubles: no XP, L134)
    res = SYSTEM.roll_check(c, "intelligence+medicine", difficulty=10)
    assert (res.total, res.success) == (7, False)
    assert SYSTEM.success_with_trouble(res)["troubles"] == 2


def test_a_bought_failure_stays_allowed_L190():
    c = Character(intelligence=14, threads=5)
    res = SYSTEM.roll_check(c, "intelligence+medicine", difficulty=5, bought="failure")
    assert not res.success and [(e.trait, e.delta) for e in res.effects] == [("threads", -2)]


def test_with_access_a_success_can_be_bought_L189():
    c = Character(intelligence=14, threads=5, attributes=[VETERAN])
    res = SYSTEM.roll_check(c, "intelligence+medicine", difficulty=10, bought="success")
    assert res.success and [(e.trait, e.delta) for e in res.effects] == [("threads", -2)]


@pytest.mark.parametrize("what", ["success", "critical_success"])
def test_survival_outside_familiar_places_fails_whatever_the_threads_L424(what):
    c = Character(wisdom=18, threads=5)
    err = bought(c, "wisdom+survival", what, outside_familiar=True)
    assert err.code == "automatic_failure"
    assert "fails it outside familiar places" in err.text("en") and "вне знакомых мест" in err.text("ru")
    res = SYSTEM.roll_check(c, "wisdom+survival", difficulty=5, outside_familiar=True)
    assert not res.success and res.degree == "automatic_failure"


def test_the_tray_offers_outside_familiar_places_for_survival_without_access_L424():
    def option_names(c):
        spec = next(s for s in SYSTEM.checks(c) if s.id == "wisdom+survival")
        return [o.name for o in spec.options]

    assert "outside_familiar" in option_names(Character())
    ranger = Character(attributes=[{"code": "custom", "name": "Ranger", "expert_access": ["survival"]}])
    assert "outside_familiar" not in option_names(ranger)


def test_the_sheet_shows_the_veterans_plus_one_in_valor_and_marksmanship_L537():
    plain = Character(weapons=3, unarmed=2, shooting=4, dexterity=14)
    vet = Character(weapons=3, unarmed=2, shooting=4, dexterity=14, attributes=[VETERAN])
    assert (vet.valor, vet.valor_unarmed, vet.marksmanship) == (
        plain.valor + 1,
        plain.valor_unarmed + 1,
        plain.marksmanship + 1,
    )
    # the roll adds the shown value, once
    for check_id, shown in (("valor", vet.valor), ("marksmanship", vet.marksmanship)):
        assert SYSTEM.roll_check(vet, check_id, difficulty=10, rng=DiceInOrder([10])).total == 10 + shown
    # every weapon row of the sheet too, and an attack with it rolls that rating
    vet.weapons_list = [{"name": "Machete", "kind": "melee", "dmb": 1}, {"name": "Rifle", "kind": "ranged", "dmb": 2}]
    rows = {r["name"]: r["rating"] for r in vet.attacks}
    assert rows == {"unarmed": vet.valor_unarmed, "Machete": 3 + 0 + 2 + 1 + 1, "Rifle": 4 + 2 + 2 + 1}
    target = Character()
    out = SYSTEM.resolve_attack(vet, target, "melee:machete", rng=DiceInOrder([12]))
    assert out.dice[0].total == 12 + rows["Machete"]
    # the sheet's help names the bonus, and the sheet shows the value with it
    for name in ("valor", "valor_unarmed", "marksmanship"):
        help_text = SYSTEM.sheet.field(name).help
        assert "+1 Veteran" in help_text["en"] and "+1 Ветеран" in help_text["ru"]
    sheet = CharacterSheet(vet, SYSTEM, open_sections="all")
    assert f">{vet.valor}<" in sheet.views["valor"].value.value
