"""«Времена Года» (Seasons), the third rules audit seen through the views: the dice tray, the
combat tracker's Attack panel and the character sheet show the same answers as the rules'
API for every rule the audit changed (plain Python, no browser). Lnnn: the seed file's line."""

from __future__ import annotations

import html
import random
from fractions import Fraction

from helpers import FixedRng, frontend_click, frontend_update

from tabletop_systems.seasons import SYSTEM, Character
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.tracker import ATTACK, CombatTracker
from tabletop_widgets.widgets.tray import DiceTray


def fraction(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def panel_for(fighters: dict, attacker: str, target: str, attack: str):
    t = CombatTracker(SYSTEM, rng=random.Random(3))
    for cid, ch in fighters.items():
        t.combat.add(cid, ch)
    t.select(attacker)
    t.open_details(ATTACK)
    panel = t.attack_panel
    frontend_update(panel.target, index=[v for _, v in panel.target.options].index(target))
    frontend_update(panel.choice, index=[v for _, v in panel.choice.options].index(attack))
    return t, panel


def hit_chance_shown(panel) -> str:
    return html.unescape(panel.odds.value).split("Chance to hit: ", 1)[1].split('"', 1)[0]


# -- the dice tray ---------------------------------------------------------------------------------
def test_the_trays_first_aid_and_treatment_take_the_patients_damage_L723_L725():
    """The tray's answer equals ``first_aid(healer, patient)``: WIT 3 + Medicine 3 - the patient's
    4 damaged levels = 2 dice, 3/4 (L723); treatment INT 3 + Medicine 3 - 4, 3/4 (L725)."""
    healer = Character(name="Врач", wits=3, intelligence=3, medicine=3)
    patient = Character(name="Раненый")
    SYSTEM.apply_damage(patient, 4)
    tray = DiceTray(healer, rng=random.Random(1))
    assert tray.chance("first_aid") is None  # the healer is unhurt: nothing of his own to heal
    tray.set_option("patient_damage", patient.damage)
    assert tray.chance("first_aid") == tray.chance("first_aid_skill") == Fraction(3, 4)
    assert tray.chance("treatment") == Fraction(3, 4)
    result = tray.roll_check("first_aid")
    same = SYSTEM.first_aid(healer, patient, rng=FixedRng(*result.details["faces"]))
    assert result.details["pool"] == same.details["pool"] == 2 and result.success == same.success


def test_the_tray_of_a_healer_out_of_the_story_offers_no_healing_L722():
    healer = Character(name="Врач", wits=5, medicine=5)
    SYSTEM.apply_damage(healer, healer.health_max)
    tray = DiceTray(healer, rng=random.Random(1))
    tray.set_option("patient_damage", 3)
    assert tray.chance("first_aid") is None and tray.chance("treatment") is None
    assert tray.roll_check("first_aid") is None and tray.last_error.code == "healer_out"


def test_the_tray_drops_hunger_held_off_for_the_hour_L716():
    c = Character(name="Путник", stamina=3, athletics=3, strength=3)
    SYSTEM.condition_changed(c, "hunger_thirst_fatigue", True)
    tray = DiceTray(c, rng=random.Random(1))
    assert [o.name for o in tray.check_spec("strength+athletics").options if o.name == "condition_1"]
    SYSTEM.shake_off_condition(c, 0, rng=FixedRng(6, 6, 6))
    assert c.conditions[0]["held_off"]
    assert not [o.name for o in tray.check_spec("strength+athletics").options if o.name == "condition_1"]


def test_the_tray_counts_carried_successes_on_an_attack_L771():
    c = Character(name="Аня", strength=3, melee=2)
    SYSTEM.add_pending(c, "previous successes", 2)
    tray = DiceTray(c, rng=random.Random(1))
    tray.set_option("difficulty", 2, check_id="armed_attack")
    assert tray.chance("armed_attack") == SYSTEM.chance(c, "armed_attack", difficulty=2) == 1 - Fraction(1, 2**5)


# -- the combat tracker's Attack panel ------------------------------------------------------------------
def test_the_panel_caps_the_average_damage_at_the_health_left_L93():
    """A bear's 23 dice against 10 Health: 10 damage at most, the average 10.0, not 11.5."""
    bear = Character(name="Медведь", strength=12, melee=12, is_player_character=False)
    _t, panel = panel_for({"bear": bear, "anya": Character(name="Аня", stamina=1)}, "bear", "anya", "unarmed")
    assert '<span class="tt-odds-value">10.0</span>' in panel.odds.value
    bars = panel.chart.value
    assert 'data-damage="10" data-fraction="1"' in bars and 'data-damage="11"' not in bars


def test_the_panel_rolls_a_dexterity_rapier_with_strength_L505():
    rapier = {"name": "Рапира", "attack_bonus": 2, "skill": "melee", "attribute": "dexterity"}
    duelist = Character(name="Дуэлянт", strength=1, dexterity=4, melee=3, weapons=[rapier])
    guard = Character(name="Страж", stamina=2, is_player_character=False)
    _t, panel = panel_for({"d": duelist, "g": guard}, "d", "g", "melee:рапира")
    text = html.unescape(panel.odds.value)
    assert "Strength 1 + Melee 3 + Weapon: Рапира 2" in text and "Dexterity" not in text.split("pool:")[1]
    assert hit_chance_shown(panel) == fraction(SYSTEM.attack_odds(duelist, guard, "melee:рапира").p_hit) == "15/16"


def test_the_panel_shows_drama_spent_by_an_ally_against_the_attacker_L773():
    bandit = Character(name="Бандит", strength=3, melee=3, is_player_character=False)
    friend = Character(name="Борис", stamina=1, is_player_character=False)
    ally = Character(name="Аня")
    t, panel = panel_for({"bandit": bandit, "friend": friend, "ally": ally}, "bandit", "friend", "unarmed")
    assert hit_chance_shown(panel) == "31/32"
    SYSTEM.spend_drama_against(ally, bandit)
    panel.changed()  # the sheets changed outside the combat's events
    assert hit_chance_shown(panel) == "3/4"
    assert "Drama spent against it: Аня 3" in html.unescape(panel.odds.value)


def test_the_panel_lists_an_improvised_weapon_and_a_broken_one_with_why_L792_L795():
    bat = {"name": "Бита", "size": 2, "durability": 3, "attack_bonus": 2}
    hitter = Character(name="Аня", strength=3, melee=2, ranged=1, objects=[bat])
    guard = Character(name="Страж", stamina=2, is_player_character=False)
    t, panel = panel_for({"a": hitter, "g": guard}, "a", "g", "melee:бита")
    assert [v for _, v in panel.choice.options] == ["unarmed", "melee:бита", "thrown:бита"]
    assert hit_chance_shown(panel) == "31/32"  # 3 + 2 + 2 - 2 = 5 dice
    hitter.objects = [{**bat, "structure_damage": 4}]  # Structure 4 used up: broken
    panel.changed()
    assert [v for _, v in panel.choice.options] == ["unarmed", "melee:бита", "thrown:бита"]  # still listed
    assert panel.choice.value == "melee:бита"  # kept: the player sees why it cannot be made
    assert "Dexterity + Crafts" in html.unescape(panel.note.value)  # what mends it
    assert "Dexterity + Crafts" in panel.choice.options[1][0] and panel.go.layout.display == "none"


# -- the character sheet -----------------------------------------------------------------------------------
def test_an_object_picked_on_the_sheet_is_an_attack_L795():
    """The sheet's Objects picker (the book's table, L797-814) gives the object its bonus."""
    c = Character(name="Аня", strength=3, melee=2, ranged=2)
    sheet = CharacterSheet(c)
    objects = sheet.views["objects"]
    rows = SYSTEM.data("improvised_weapons")
    crowbar = next(i for i, r in enumerate(rows) if r["en"] == "Crowbar")
    frontend_update(objects.picker, index=crowbar)
    frontend_click(objects.add_button)
    assert c.objects[0]["attack_bonus"] == 3
    ids = [s.id for s in SYSTEM.attacks(c, Character(stamina=1))]
    name = c.objects[0]["name"].lower().replace(" ", "_")
    assert ids == ["unarmed", f"melee:{name}", f"thrown:{name}"]


# -- the sheet's hour and sickness (the audit's rules reachable from the page) ---------------------
def test_the_storytellers_sheet_passes_an_hour_and_a_players_may_not_L716():
    """Hunger held off for the hour (L716) comes back when the Storyteller says an hour passed:
    a button on the GM's sheet (the rules' ``hour_passes``); a player's click changes nothing."""
    c = Character(stamina=3, athletics=3)
    SYSTEM.condition_changed(c, "hunger_thirst_fatigue", True)
    SYSTEM.shake_off_condition(c, 0, rng=FixedRng(6, 6, 6, 6, 6, 6))
    assert c.conditions[0]["held_off"] is True and SYSTEM.condition_penalty(c) == 0
    player = CharacterSheet(c, SYSTEM, can=lambda action: action != "edit_gm")
    bar = next(b for b in player.actions["status"] if b.action.method_name == "hour_passes")
    frontend_click(bar.button)
    assert c.conditions[0]["held_off"] is True and "you may not change this" in bar.message.value
    gm = CharacterSheet(c, SYSTEM)
    bar = next(b for b in gm.actions["status"] if b.action.method_name == "hour_passes")
    frontend_click(bar.button)
    assert not c.conditions[0].get("held_off") and SYSTEM.condition_penalty(c) == -3
    player.close()
    gm.close()


def test_the_sheet_says_what_a_sickness_came_from_L711():
    """A sickness's cause (a substance: retry after an hour; an illness: after a day, L711) is a
    choice in the conditions list, shown as the rules recorded it."""
    c = Character()
    SYSTEM.condition_changed(c, "sickness", True, cause="illness")
    assert c.conditions[0]["cause"] == "illness" and c.conditions[0]["retry_interval"] == "day"
    sheet = CharacterSheet(c, SYSTEM, open_sections="all")
    view = sheet.views["conditions"]
    view.open_form(0)
    f, ctl, _label = view.form.controls["cause"]
    assert ctl.value == "illness" and [v for _, v in ctl.options] == ["", "substance", "illness"]
    sheet.close()
