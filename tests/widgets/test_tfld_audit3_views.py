"""The third rules audit of «Нити судьбы» and Life&Death's Game, seen in the widgets (plain Python,
no browser): the tray, the tracker's Attack panel and the sheet show the same numbers and refusals
as the rules (``tests/systems/*/test_*_audit3.py`` hold the hand cases with their book lines)."""

from __future__ import annotations

import html
import random
import re

from tabletop_widgets import get_system
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.tracker import ATTACK, CombatTracker
from tabletop_widgets.widgets.tray import DiceTray
from helpers import frontend_click, frontend_update
from characters import THREADS_LEGAL

THREADS = get_system("threads_of_fate")
LD = get_system("life_and_death")


def fraction(p) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def shown_fractions(panel) -> dict[str, str]:
    return dict(re.findall(r'data-damage="([^"]+)" data-fraction="([^"]+)"', panel.chart.value))


def attack_panel(system, characters: dict, attacker: str, attack_id: str):
    t = CombatTracker(system, rng=random.Random(3))
    for cid, ch in characters.items():
        t.combat.add(cid, ch)
    t.select(attacker)
    t.open_details(ATTACK)
    panel = t.attack_panel
    ids = [value for _label, value in panel.choice.options]
    frontend_update(panel.choice, index=ids.index(attack_id))  # the player picks it in the dropdown
    assert panel.choice.value == attack_id
    return t, panel


# ------------------------------------------------------------------------------------------------
# «Нити судьбы»
# ------------------------------------------------------------------------------------------------
def drained_fighter():
    return THREADS.Character(name="Ada", strength=14, strength_drain=14, weapons=3, unarmed=3)


def test_the_tray_shows_0_for_valor_on_a_strength_of_0_L363():
    ada = drained_fighter()
    tray = DiceTray(ada, rng=random.Random(1))
    for check_id in ("valor", "valor_unarmed"):
        assert tray.chance(check_id) == 0 == THREADS.chance(ada, check_id, **tray.options_for(check_id))
    assert tray.chance("marksmanship") == THREADS.chance(ada, "marksmanship", **tray.options_for("marksmanship")) > 0


def test_the_attack_panel_shows_no_hit_for_a_strength_of_0_L363():
    t, panel = attack_panel(THREADS, {"ada": drained_fighter(), "bo": THREADS.Character(name="Bo")}, "ada", "unarmed")
    odds = THREADS.attack_odds(t.combat.character("ada"), t.combat.character("bo"), "unarmed")
    assert odds.p_hit == 0
    assert "Chance to hit: 0" in html.unescape(panel.odds.value)
    assert shown_fractions(panel) == {"0": "1"}


def test_the_attack_panel_shows_the_minimal_hit_the_rules_read():
    """A total equal to the Defence deals 0 (L351) in the panel as in the rules; the house reading 1."""
    hero = dict(name="Hero", unarmed=8, strength=12)
    target = dict(name="Extra", armour_bonus=8)
    for system, zero in ((THREADS, "9/20"), (THREADS.with_rules(min_success_damage=1), "2/5")):
        chars = {"hero": system.Character(**hero), "extra": system.Character(**target)}
        t, panel = attack_panel(system, chars, "hero", "unarmed")
        odds = system.attack_odds(t.combat.character("hero"), t.combat.character("extra"), "unarmed")
        assert shown_fractions(panel) == {str(k): fraction(p) for k, p in odds.damage.items()}
        assert shown_fractions(panel)["0"] == zero


def test_a_weapon_put_away_shows_why_in_the_attack_panel():
    vera = THREADS.Character(
        name="Vera", weapons=2, weapons_list=[{"name": "Machete", "kind": "melee", "equipped": False}]
    )
    t, panel = attack_panel(THREADS, {"vera": vera, "bo": THREADS.Character(name="Bo")}, "vera", "melee:machete")
    assert panel.choice.value == "melee:machete"
    assert "Put away" in html.unescape(panel.odds.value)


def test_the_sheet_refuses_to_finish_a_hero_with_one_trick_or_typed_in_xp():
    for values, code_words in (
        ({"tricks": [{"name": "Quick draw"}]}, "Choose exactly 2 Tricks"),
        ({"xp_free": 5000}, "no unspent XP besides the creation XP"),
    ):
        hero = THREADS.Character(**{**THREADS_LEGAL, **values})
        sheet = CharacterSheet(hero, locale="en")
        assert code_words in sheet.summary.value
        frontend_click(sheet.finish.button)
        assert hero.phase == "creation" and code_words in sheet.finish.message.value
        sheet.close()


# ------------------------------------------------------------------------------------------------
# Life&Death's Game
# ------------------------------------------------------------------------------------------------
def lirien():
    return LD.Character(name="Lirien", complexity=3, power=3, skills={"life": 2})


def test_the_tray_offers_the_brightness_boost_and_its_chance_L314():
    c = lirien()
    tray = DiceTray(c, rng=random.Random(1))
    names = [ctrl.name for ctrl in tray.option_controls("cast:life")]
    assert {"boost", "boost_actions", "boost_free_actions"} <= set(names)
    tray.set_option("brightness", 2, "cast:life")
    plain = tray.chance("cast:life")
    tray.set_option("boost", True, "cast:life")
    tray.set_option("boost_actions", 1, "cast:life")
    shown = tray.chance("cast:life")
    assert shown == LD.chance(c, "cast:life", **tray.options_for("cast:life")) == plain / 2


def test_the_attack_panel_offers_the_boost_on_a_spell_attack_L314():
    chars = {"lirien": lirien(), "ulf": LD.Character(name="Ulf")}
    t, panel = attack_panel(LD, chars, "lirien", "spell:life")
    assert {"boost", "boost_actions", "boost_free_actions"} <= set(panel.controls)
    frontend_update(panel.controls["brightness"].widget, value=2)
    frontend_update(panel.controls["boost"].widget, value=True)
    boosted = LD.attack_odds(
        t.combat.character("lirien"), t.combat.character("ulf"), "spell:life", brightness=2, boost=True
    )
    assert f"Chance to hit: {fraction(boosted.p_hit)}" in html.unescape(panel.odds.value)
    assert shown_fractions(panel) == {str(k): fraction(p) for k, p in boosted.damage.items()}
    assert "3" in shown_fractions(panel)  # brightness 2 + the boost


def test_an_empty_crossbow_shows_why_and_the_sheet_reloads_it_L237():
    brann = LD.Character(
        name="Brann",
        dexterity=3,
        inventory=[
            {"name": "Crossbow", "category": "weapon", "damage": 3, "kind": "crossbow", "capacity": 1, "ammo": 0}
        ],
    )
    t, panel = attack_panel(LD, {"brann": brann, "ulf": LD.Character(name="Ulf")}, "brann", "ranged:crossbow")
    assert "Empty: reload" in html.unescape(panel.odds.value)
    sheet = CharacterSheet(brann, locale="en")
    if not sheet.is_open("inventory"):
        frontend_click(sheet.sections["inventory"].children[1])  # the player opens the section
    (reload_action,) = sheet.actions["inventory"]
    assert reload_action.button.description == "Reload"
    frontend_click(reload_action.button)
    assert brann.inventory[0]["ammo"] == 1
    sheet.close()


def test_the_sheet_refuses_to_finish_a_character_with_typed_in_experience():
    c = LD.Character(name="Ayra")
    LD.apply_race_and_age(c, dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2), "young")
    c.update(param_points={"might": 1, "luck": 1}, skills={"athletics": 2}, features=[{"id": "speed", "level": 1}])
    c.xp = 5000
    sheet = CharacterSheet(c, locale="en")
    assert "starts at level 1 with 0 XP" in sheet.summary.value
    frontend_click(sheet.finish.button)
    assert c.phase == "creation" and "starts at level 1 with 0 XP" in sheet.finish.message.value
    c.xp = 0
    assert sheet.finish_character() and c.phase == "play"
    sheet.close()
