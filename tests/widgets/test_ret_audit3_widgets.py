"""The third R.E.T. audit seen through the widgets (plain Python, no browser): the dice tray, the
combat tracker's Attack part and its turn effects, and the sheet show the same answers as the
rules (``tests/systems/ret/test_ret_audit3*.py``, ``test_ret_creation_bounds.py``)."""

from __future__ import annotations

import html
import random

from tabletop_widgets import get_system
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.tracker import ATTACK, CombatTracker
from tabletop_widgets.widgets.tray import DiceTray
from helpers import frontend_click, frontend_update
from characters import legal_ret

RET = get_system("ret")
EVASION = {"name": "Evasion", "kind": "skill", "base_param": "agility", "level": 3}


def fraction(p) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def choose(ctrl, value) -> None:
    """The player picks ``value`` in an option's control (a dropdown sends its index)."""
    w = ctrl.widget
    if hasattr(w, "options") and not isinstance(w.value, bool):
        frontend_update(w, index=[v for _, v in w.options].index(value))
    else:
        frontend_update(w, value=value)


def attack_panel(ada, bo):
    t = CombatTracker(RET, rng=random.Random(2))
    t.combat.add("ada", ada)
    t.combat.add("bo", bo)
    t.select("ada")
    t.open_details(ATTACK)
    return t, t.attack_panel


def shown_p_hit(panel) -> str:
    return html.unescape(panel.odds.value)


# -- the tray ------------------------------------------------------------------------------------------
def test_the_trays_dodge_offers_a_fitting_ability_with_the_rules_chance():
    """Finding 1 in the tray: Dodge rolls Agility or Evasion (L1054)."""
    c = RET.Character(name="Bo", abilities=[dict(EVASION)])
    tray = DiceTray(c, rng=random.Random(1))
    ctrl = next(x for x in tray.option_controls("dodge") if x.name == "roll")
    assert [v for v, _ in ctrl.spec.choices] == ["agility", "skill:Evasion"]
    tray.set_option("roll", "skill:Evasion", "dodge")
    assert tray.chance("dodge") == RET.chance(c, "dodge", **tray.options_for("dodge"))
    assert tray.options_for("dodge")["roll"] == "skill:Evasion"


def test_the_trays_sanity_test_offers_composure_will_and_a_fitting_ability():
    """Finding 8 in the tray: Composure (default), Will or a fitting ability (L590)."""
    fortitude = {"name": "Mental fortitude", "kind": "skill", "base_param": "composure", "level": 3}
    tray = DiceTray(RET.Character(name="Bo", abilities=[fortitude]), rng=random.Random(1))
    ctrl = next(x for x in tray.option_controls("sanity_test") if x.name == "param")
    assert ctrl.value == "composure"
    assert [v for v, _ in ctrl.spec.choices] == ["composure", "will", "skill:Mental fortitude"]


# -- the tracker's Attack part -----------------------------------------------------------------------
def test_the_attack_part_offers_the_defenders_fitting_dodge_and_shows_its_odds():
    """Finding 1 in the tracker: Evasion is a defence choice; the odds shown are the rules'
    (25.6 % instead of 43.9 %)."""
    ada, bo = RET.Character(name="Ada"), RET.Character(name="Bo", abilities=[dict(EVASION)])
    t, panel = attack_panel(ada, bo)
    defence = panel.controls["defence"]
    assert "dodge:skill:Evasion" in [v for _, v in defence.widget.options]
    choose(defence, "dodge:skill:Evasion")
    odds = RET.attack_odds(ada, bo, "melee:unarmed", defence="dodge:skill:Evasion")
    assert f"Chance to hit: {fraction(odds.p_hit)}" in shown_p_hit(panel)
    assert round(float(odds.p_hit), 3) == 0.256


def test_the_attack_part_offers_a_swordmaster_roll():
    """Finding 2 in the tracker: Swordmaster on Strength with a sword (L1274)."""
    sword = {"name": "Sword", "category": "blade", "kind": "melee", "damage": 3}
    master = {"name": "Swordmaster", "kind": "skill", "base_param": "strength", "level": 3}
    ada = RET.Character(name="Ada", physique=5, endurance=5, weapons=[sword], abilities=[master])
    t, panel = attack_panel(ada, RET.Character(name="Bo"))
    frontend_update(panel.choice, index=[v for _, v in panel.choice.options].index("melee:sword"))
    roll = panel.controls["roll"]
    assert [v for _, v in roll.widget.options] == ["physique", "skill:Swordmaster"]
    choose(roll, "skill:Swordmaster")
    odds = RET.attack_odds(ada, RET.Character(name="Bo"), "melee:sword", roll="skill:Swordmaster")
    assert f"Chance to hit: {fraction(odds.p_hit)}" in shown_p_hit(panel)


def test_the_attack_part_attacks_from_hiding_for_a_hidden_attacker():
    """Finding 3 in the tracker: a Hidden attacker's attack is from hiding by default, and the
    odds shown are the hidden ones (L1127)."""
    ada = RET.Character(name="Ada", conditions=[{"id": "hidden", "magnitude": 7}])
    bo = RET.Character(name="Bo")
    t, panel = attack_panel(ada, bo)
    assert panel.controls["from_hiding"].value is True
    hidden = RET.attack_odds(ada, bo, "melee:unarmed")
    assert f"Chance to hit: {fraction(hidden.p_hit)}" in shown_p_hit(panel)
    frontend_update(panel.controls["from_hiding"].widget, value=False)
    seen = RET.attack_odds(ada, bo, "melee:unarmed", from_hiding=False)
    assert f"Chance to hit: {fraction(seen.p_hit)}" in shown_p_hit(panel) and seen.p_hit < hidden.p_hit


def test_a_combatant_the_tracker_keeps_hidden_attacks_from_hiding_by_default():
    """The GM's hidden NPC (hidden from the players in the tracker, no Hidden condition on its
    sheet) attacks from hiding by default (L1127); a shown one does not; the attack still rolls
    as the control says."""
    t = CombatTracker(RET, rng=random.Random(2))
    t.combat.add("ada", RET.Character(name="Ada"), hidden=True)
    t.combat.add("bo", RET.Character(name="Bo"))
    t.select("ada")
    t.open_details(ATTACK)
    panel = t.attack_panel
    assert panel.controls["from_hiding"].value is True
    assert t.combat.combatant("ada").hidden
    t.combat.set_hidden("ada", False)
    specs = t.play.attacks_on(t.combat, "ada", "bo")
    assert specs and all(o.default is False for s in specs for o in s.options if o.name == "from_hiding")


def test_the_attack_part_meets_a_mind_attack_with_mental_defence():
    """Finding 7 in the tracker: no dodge or parry against a mind attack (L912, L1156)."""
    spike = {
        "name": "Mind spike",
        "kind": "talent",
        "base_param": "will",
        "level": 4,
        "is_superpower": True,
        "sanity_cost": 1,
        "delivery": "mind",
    }
    ada = RET.Character(name="Ada", abilities=[spike])
    t, panel = attack_panel(ada, RET.Character(name="Bo"))
    frontend_update(panel.choice, index=[v for _, v in panel.choice.options].index("power:mind-spike"))
    assert [v for _, v in panel.controls["defence"].widget.options] == [
        "mental:will",
        "mental:intellect",
        "mental:perception",
        "none",
    ]


def test_burning_on_mail_costs_no_health_at_the_trackers_turn():
    """Finding 4 in the tracker: the start of Ira's turn burns 2 through mail (2, 4): no Health
    (L1381 is an attack's minimum), the mail wears (L1492)."""
    mail = {"name": "Mail", "defence": 2, "durability": 4, "durability_max": 4, "worn": True}
    t = CombatTracker(RET, rng=random.Random(2))
    t.combat.add("ira", RET.Character(name="Ira", armour=[mail]))
    t.combat.add("bo", RET.Character(name="Bo"))
    t.combat.add_condition("ira", "burning")
    t.combat.roll_initiative()
    for _ in range(3):
        t.combat.next_turn()
    ira = t.combat.character("ira")
    assert ira.health == ira.health_max and ira.armour[0]["durability"] < 4


# -- the sheet -----------------------------------------------------------------------------------------
def test_the_sheet_keeps_typed_in_dp_and_a_level_1_skill_from_play():
    """Items 2 and 4 on the sheet: both problems show, and Finish character is refused."""
    skills = [dict(a) for a in legal_ret().abilities]
    skills[0]["level"] = 1
    c = legal_ret(dp=5000, abilities=skills)
    sheet = CharacterSheet(c, locale="en")
    codes = [p.code for p in sheet.problems]
    assert "creation_dp" in codes and "ability_below_start" in codes
    frontend_click(sheet.finish.button)
    assert c.phase == "creation" and "Not yet: fix these first." in sheet.finish.message.value
    assert "starts play with no development points" in html.unescape(sheet.finish.message.value)
