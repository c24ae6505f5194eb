"""«Времена Года» (Seasons): every weapon of the book's lists that a new character can take can be
used (brief item 3). The sheet's Weapons list picks from ``data/weapons.json`` (the book's knife
+1, L96, and pistol +2, L94, and the house list the spec asks for, §8.9), its Objects list from
the book's table of objects with their attack bonuses (L797-814, ``data/improvised_weapons.json``):
«Когда предмет используется в качестве оружия (персонаж дерется с его помощью или бросает в
цель), он дает бонус к проверке атаки, как и любое оружие» (L795). Seasons has no ammunition or
reloading: a ranged weapon needs nothing but Ranged Combat. An attack that cannot be made now (a
broken object, L792) is listed with why and the action that mends it, never dropped."""

from __future__ import annotations

import pytest

from helpers import FixedRng
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_widgets.core import RuleError

WEAPON_ROWS = SYSTEM.data("weapons")
OBJECT_ROWS = SYSTEM.data("improvised_weapons")


def taken(list_name: str, row) -> dict:
    """The list item the sheet makes from a data row: each item field takes the row's value of the
    same name, the name the row's Russian name (what ``CharacterSheet``'s picker does)."""
    item = {}
    for f in SYSTEM.sheet.field(list_name).item_fields:
        if f.name == "name":
            item["name"] = row["ru"]
        elif f.name in row:
            item[f.name] = row[f.name]
        elif f.kind == "choice":
            item[f.name] = f.choices[0][0]
        elif f.kind == "flag":
            item[f.name] = False
        else:
            item[f.name] = max(0, f.min or 0)
    return item


def new_character(**values) -> Character:
    """A new character able to fight every way (Strength, Dexterity, Melee and Ranged 2)."""
    return Character(**{"name": "Аня", "strength": 3, "dexterity": 3, "melee": 2, "ranged": 2, **values})


def target() -> Character:
    return Character(name="Цель", stamina=2, is_player_character=False)


def test_the_books_lists_are_the_ones_the_sheet_picks_from():
    assert SYSTEM.sheet.field("weapons").source == "weapons"
    assert SYSTEM.sheet.field("objects").source == "improvised_weapons"
    assert {r["id"] for r in WEAPON_ROWS} >= {"knife", "pistol"} and len(OBJECT_ROWS) == 18
    assert {r["line"] for r in OBJECT_ROWS} == set(range(797, 815))


@pytest.mark.parametrize("row", WEAPON_ROWS, ids=[r["id"] for r in WEAPON_ROWS])
def test_every_listed_weapon_is_an_attack_a_new_character_can_make(row):
    """Each weapon is offered with its own skill and attribute (L92, L504-515) and its bonus."""
    c = new_character(weapons=[taken("weapons", row)])
    assert SYSTEM.validate(c, at_creation=False) == []
    specs = {s.id: s for s in SYSTEM.attacks(c, target())}
    kind = {"melee": "melee", "ranged": "shooting" if row["attribute"] == "dexterity" else "thrown"}[row["skill"]]
    spec = specs[f"{kind}:{row['ru'].lower().replace(' ', '_')}"]
    assert spec.unavailable is None
    odds = SYSTEM.attack_odds(c, target(), spec.id)
    attribute = {"strength": "Сила 3", "dexterity": "Ловкость 3"}[row["attribute"]]
    skill = {"melee": "Ближний Бой 2", "ranged": "Дальний Бой 2"}[row["skill"]]
    assert f"{attribute} + {skill} + Оружие: {row['ru']} {row['attack_bonus']}" in odds.notes[0]["ru"]
    assert odds.p_hit > 0 and max(odds.damage) > 0
    outcome = SYSTEM.resolve_attack(c, target(), spec.id, rng=FixedRng(*[6] * 30))
    assert outcome.hit and outcome.damage == min(10, 3 + 2 + row["attack_bonus"] - 2)


@pytest.mark.parametrize("row", OBJECT_ROWS, ids=[r["en"] for r in OBJECT_ROWS])
def test_every_object_of_the_books_table_is_an_improvised_weapon_fought_with_or_thrown_L795(row):
    """L795: fought with (Strength + Melee, L505) or thrown (Strength + Ranged, L514), with the
    table's attack bonus (L797-814)."""
    c = new_character(objects=[taken("objects", row)])
    assert c.objects[0]["attack_bonus"] == row["attack_bonus"]
    specs = {s.id: s for s in SYSTEM.attacks(c, target())}
    slug = row["ru"].lower().replace(" ", "_")
    for prefix, skill in (("melee", "Ближний Бой 2"), ("thrown", "Дальний Бой 2")):
        spec = specs[f"{prefix}:{slug}"]
        assert spec.unavailable is None and "импровизированное оружие" in spec.label["ru"]
        odds = SYSTEM.attack_odds(c, target(), spec.id)
        assert f"Сила 3 + {skill} + Оружие: {row['ru']} {row['attack_bonus']}" in odds.notes[0]["ru"]
        assert odds.p_hit > 0
    # the dice tray's checks take it as a weapon too (break a door with a crowbar, L819)
    spec = SYSTEM.check(c, "break_object")
    assert row["ru"] in {v for v, _ in spec.option("weapon").choices}


def test_a_broken_object_is_listed_with_why_and_what_mends_it_L792():
    """L792: Structure filled with damage destroys the object until repaired (Dexterity + Crafts)."""
    bat = taken("objects", next(r for r in OBJECT_ROWS if r["en"] == "Baseball bat"))
    c = new_character(objects=[{**bat, "structure_damage": 4}])  # Structure 2 x Size 2 = 4
    specs = {s.id: s for s in SYSTEM.attacks(c, target())}
    spec = specs["melee:бейсбольная_бита"]
    assert "Ловкость + Ремесло" in spec.unavailable["ru"] and "Dexterity + Crafts" in spec.unavailable["en"]
    for call in (SYSTEM.attack_odds, lambda *a: SYSTEM.resolve_attack(*a, rng=FixedRng())):
        with pytest.raises(RuleError) as err:
            call(c, target(), spec.id)
        assert err.value.code == "attack_unavailable" and err.value.message == dict(spec.unavailable)
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, "armed_attack", weapon=bat["name"], rng=FixedRng())
    assert err.value.code == "weapon_broken"
    assert bat["name"] not in {v for v, _ in SYSTEM.check(c, "armed_attack").option("weapon").choices}


def test_an_object_without_an_attack_bonus_is_not_a_weapon_and_weapons_keep_their_ids():
    """Objects typed by hand without an attack bonus stay objects; a weapon and an object of the
    same name get distinct ids."""
    c = new_character(
        weapons=[taken("weapons", next(r for r in WEAPON_ROWS if r["id"] == "knife"))],
        objects=[{"name": "Сейф", "size": 4}, {"name": "Нож", "size": 1, "attack_bonus": 1}],
    )
    ids = [s.id for s in SYSTEM.attacks(c, target())]
    assert ids == ["unarmed", "melee:нож", "melee:нож_2", "thrown:нож_2"]
