"""Every weapon of the book's list (§8.7-§8.8, L1267-1275, L1322-1331) that a new character can
buy can be used: added to the sheet as the list adds it, it is offered as an attack, a gun starts
with a full magazine, an empty gun is listed with why (never dropped), and Reload fills it (L1287)."""

from __future__ import annotations

import random
import re

import pytest

from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.sheet import SHEET
from tabletop_widgets.core import RuleError

ROWS = list(SYSTEM.data("weapons"))
WEAPON_FIELDS = [f for f in SHEET.field("weapons").item_fields]


def _blank(f):
    """A new list item's value of field ``f`` the row does not name (as the sheet's list fills it:
    a number its lowest bound above 0 or 0, a flag off, a choice its first, a text empty)."""
    if f.kind == "input":
        return f.min if f.min is not None and f.min > 0 else 0
    if f.kind == "flag":
        return False
    if f.kind == "choice":
        return f.choices[0][0] if f.choices else ""
    return ""


def bought(row) -> dict:
    """The sheet row a player gets by picking ``row`` from the book's list: every item field takes
    the row's value of its name (or the blank of its kind), the category the row's id, the name
    its label (``tests/widgets/test_ret_book_weapons_ui.py`` adds it through the sheet itself)."""
    item = {f.name: row.get(f.name, _blank(f)) for f in WEAPON_FIELDS}
    return {**item, "name": row["en"], "category": row["id"]}


def new_character(row) -> Character:
    return Character(name="Ada", weapons=[bought(row)])


def offered(c, target=None):
    return {s.id: s for s in SYSTEM.attacks(c, target or Character(name="Bo"))}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_book_weapon_a_new_character_buys_is_a_usable_attack(row):
    """Each row of §8.7-§8.8 bought at creation: a legal sheet, offered as a plain attack and a
    called shot, with exact odds above 0; a gun with its full magazine (the software's size,
    the book gives none: L1335 leaves magazines to the GM)."""
    c = new_character(row)
    assert not [p for p in SYSTEM.validate(c) if p.field == "weapons" and p.severity == "error"]
    slug = re.sub(r"[^\w]+", "-", row["en"].lower()).strip("-")
    specs = offered(c)
    attack, called = specs[f"{row['kind']}:{slug}"], specs[f"called:{slug}"]
    assert attack.unavailable is None and called.unavailable is None
    odds = SYSTEM.attack_odds(c, Character(name="Bo"), attack.id)
    assert odds.p_hit > 0
    if "capacity" in row:
        assert c.weapons[0]["ammo"] == c.weapons[0]["capacity"] == row["capacity"] > 0
    else:  # no magazine written: the GM counts its ammunition (arrows, stones)
        assert (c.weapons[0]["ammo"], c.weapons[0]["capacity"]) == (0, 0)


def test_a_light_firearm_spends_its_magazine_then_is_listed_empty_and_reloads():
    """L1287: ranged weapons «расходуют боезапас. Перезарядка одного оружия тратит 1 действие
    хода». A pistol from the list has 12 rounds; each attack spends one; empty, it is listed with
    why and refused with that reason; Reload fills it again."""
    row = next(r for r in ROWS if r["id"] == "light_firearm")
    ada, bo = new_character(row), Character(name="Bo", physique=7, endurance=7)
    attack_id = next(i for i in offered(ada, bo) if i.startswith("ranged:"))
    rng = random.Random(3)
    for left in range(11, -1, -1):
        SYSTEM.apply_attack(ada, bo, SYSTEM.resolve_attack(ada, bo, attack_id, rng=rng))
        assert ada.weapons[0]["ammo"] == left
        bo.health = bo.health_max  # keep the target standing
    spec = offered(ada, bo)[attack_id]
    assert spec.unavailable == {"en": "empty: reload (an action)", "ru": "пусто: перезарядите (действие)"}
    assert offered(ada, bo)[attack_id.replace("ranged:", "called:")].unavailable == spec.unavailable
    for call in (SYSTEM.attack_odds, SYSTEM.attack_spec):
        with pytest.raises(RuleError) as err:
            call(ada, bo, attack_id)
        assert err.value.code == "no_ammo" and "reload" in err.value.message["en"]
        assert "перезарядите" in err.value.message["ru"]
    out = SYSTEM.reload(ada)
    assert out["ammo"] == (0, 12) and ada.weapons[0]["ammo"] == 12
    assert "action" in out["note"]["en"] and "действие" in out["note"]["ru"]
    assert offered(ada, bo)[attack_id].unavailable is None


def test_reload_picks_an_empty_weapon_first_and_refuses_when_all_are_full():
    """L1287: one weapon per reload (one action each); the sheet's Reload takes the empty one."""
    pistol = next(r for r in ROWS if r["id"] == "light_firearm")
    rifle = next(r for r in ROWS if r["id"] == "medium_firearm")
    ada = Character(name="Ada", weapons=[dict(bought(pistol), ammo=5), dict(bought(rifle), ammo=0)])
    assert SYSTEM.reload(ada)["weapon"] == rifle["en"] and ada.weapons[1]["ammo"] == 30
    assert ada.weapons[0]["ammo"] == 5  # the other one is not reloaded by the same action
    SYSTEM.reload(ada, pistol["en"])
    with pytest.raises(RuleError) as err:
        SYSTEM.reload(ada)
    assert err.value.code == "nothing_to_reload" and err.value.message["ru"]
    with pytest.raises(RuleError) as err:
        SYSTEM.reload(ada, "Bow")
    assert err.value.code == "no_such_magazine"


def test_the_sheet_offers_reload_as_an_action():
    """The equipment section declares Reload the way sheet actions are declared (``SheetAction``)."""
    section = next(s for s in SHEET.sections if s.id == "equipment")
    assert [a.method_name for a in section.actions] == ["reload"]
    assert section.actions[0].label == {"en": "Reload", "ru": "Перезарядить"}


def test_a_gun_typed_in_without_a_magazine_is_not_counted():
    """A ranged weapon whose magazine is written as 0 (the sheet's New form) counts no rounds:
    the GM counts them, and the gun is usable."""
    ada = Character(name="Ada", weapons=[{"name": "Blaster", "kind": "ranged", "damage": 4, "ammo": 0, "capacity": 0}])
    spec = offered(ada)["ranged:blaster"]
    assert spec.unavailable is None
    with pytest.raises(RuleError) as err:
        SYSTEM.reload(ada)
    assert err.value.code == "nothing_to_reload"
