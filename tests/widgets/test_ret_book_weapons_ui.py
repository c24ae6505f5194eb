"""R.E.T.'s book weapons through the widgets (plain Python, no browser): a Light firearm added
from the sheet's list starts with its full magazine, the tracker's Attack part offers it with the
system's odds, an empty one stays listed with why, and the sheet's Reload button fills it (L1287)."""

from __future__ import annotations

import html
import random

from tabletop_widgets import get_system
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.tracker import ATTACK, CombatTracker
from helpers import frontend_click, frontend_update

SYSTEM = get_system("ret")


def armed_by_the_sheet():
    """Ada, with the book's Light firearm added through the sheet's Equipment list."""
    ada = SYSTEM.Character(name="Ada")
    sheet = CharacterSheet(ada)
    weapons = sheet.views["weapons"]
    rows = [r["id"] for r in SYSTEM.data("weapons")]
    frontend_update(weapons.picker, index=rows.index("light_firearm"))
    frontend_click(weapons.add_button)
    return sheet, ada


def panel_on(ada):
    t = CombatTracker(SYSTEM, rng=random.Random(4))
    t.combat.add("ada", ada)
    t.combat.add("bo", SYSTEM.Character(name="Bo"))
    t.select("ada")
    t.open_details(ATTACK)
    return t, t.attack_panel


def pick(panel, attack_id: str) -> None:
    """The player picks ``attack_id`` in the Attack part's list (the browser sends its index)."""
    frontend_update(panel.choice, index=[v for _, v in panel.choice.options].index(attack_id))
    assert panel.choice.value == attack_id


def test_a_light_firearm_from_the_list_starts_loaded_and_is_offered():
    sheet, ada = armed_by_the_sheet()
    gun = ada.weapons[0]
    assert gun["category"] == "light_firearm" and gun["ammo"] == gun["capacity"] == 12
    t, panel = panel_on(ada)
    attack_id = "ranged:light-firearm-pistols-smgs"
    assert attack_id in [v for _, v in panel.choice.options]
    pick(panel, attack_id)
    odds = SYSTEM.attack_odds(t.combat.character("ada"), t.combat.character("bo"), attack_id)
    p = odds.p_hit
    assert f"Chance to hit: {p.numerator}/{p.denominator}" in html.unescape(panel.odds.value)


def test_an_empty_gun_is_listed_with_why_and_the_sheets_reload_fills_it():
    sheet, ada = armed_by_the_sheet()
    ada.weapons = [dict(ada.weapons[0], ammo=0)]
    t, panel = panel_on(ada)
    attack_id = "ranged:light-firearm-pistols-smgs"
    assert attack_id in [v for _, v in panel.choice.options]  # listed, never dropped
    pick(panel, attack_id)
    assert "empty: reload" in html.unescape(panel.odds.value)
    reload = next(bar for bar in sheet.actions["equipment"] if tr(bar.action.label, "en") == "Reload")
    frontend_click(reload.button)
    assert ada.weapons[0]["ammo"] == 12 and "✓ Reload" in reload.message.value
    frontend_click(reload.button)  # full now: refused, with the reason, nothing changed
    assert ada.weapons[0]["ammo"] == 12 and "Nothing to reload" in html.unescape(reload.message.value)
