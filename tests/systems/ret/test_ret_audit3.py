"""The third rules audit of R.E.T. (its findings 4-6 and 8): each reading played through the system
as the tray or the tracker would, a hand case citing the seed line (``000_616609df81580a02.txt``)."""

from __future__ import annotations

import pytest

from ret_testkit import Scripted
from tabletop_systems.ret import SYSTEM, Character, combat
from tabletop_widgets.core import RuleError

MAIL = {"name": "Mail", "class": "light", "defence": 2, "durability": 4, "durability_max": 4, "worn": True}


# -- finding 1: a defender rolls the parameter or a fitting ability (L1043, L1054, L1063) ------------
EVASION = {"name": "Evasion", "kind": "skill", "base_param": "agility", "level": 3}


def test_the_trays_dodge_rolls_agility_or_a_fitting_ability():
    """L1054: «Уклонение — используется бросок Ловкости или подходящей способности». Evasion 3 on
    Agility 3: d6 + 3; a cover bonus of 2 still counts (L1044)."""
    c = Character(name="Ira", abilities=[dict(EVASION)], cover_bonus=2)
    spec = next(s for s in SYSTEM.checks(c) if s.id == "dodge")
    assert [v for v, _ in spec.option("roll").choices] == ["agility", "skill:Evasion"]
    res = SYSTEM.roll_check(c, "dodge", rng=Scripted(4), roll="skill:Evasion")
    assert res.total == 4 + 3 + 2
    assert SYSTEM.chance(c, "dodge", roll="skill:Evasion", difficulty=9) > SYSTEM.chance(c, "dodge", difficulty=9)
    with pytest.raises(RuleError) as err:
        SYSTEM.roll_check(c, "parry", rng=Scripted(4), roll="skill:Evasion")  # on Agility: not a parry
    assert err.value.code == "bad_roll" and "Evasion" in err.value.message["en"] and err.value.message["ru"]


def test_an_attack_or_social_ability_does_not_defend():
    """The fitting rule (docs: Fitting abilities): a social or attack-only ability on Agility does
    not dodge; a defence ability on Body Control (Agility's branch) does."""
    c = Character(
        name="Ira",
        abilities=[
            {"name": "Dance", "kind": "skill", "base_param": "agility", "level": 3, "category": "social"},
            {"name": "Lunge", "kind": "skill", "base_param": "agility", "level": 3, "category": "combat_attack"},
            {
                "name": "Roll away",
                "kind": "talent",
                "base_param": "body_control",
                "level": 4,
                "category": "combat_defence",
            },
        ],
    )
    spec = next(s for s in SYSTEM.checks(c) if s.id == "dodge")
    assert [v for v, _ in spec.option("roll").choices] == ["agility", "talent:Roll away"]


def test_a_mental_defence_may_roll_a_fitting_ability():
    """L1094: behaviour influence — «бросок Воли или подходящей способности»."""
    c = Character(name="Ira", abilities=[{"name": "Iron will", "kind": "talent", "base_param": "will", "level": 5}])
    spec = next(s for s in SYSTEM.checks(c) if s.id == "mental_defence")
    assert "talent:Iron will" in [v for v, _ in spec.option("param").choices]
    res = SYSTEM.roll_check(c, "mental_defence", rng=Scripted(6), param="talent:Iron will")
    assert res.total == 6 + c.will  # a talent: its own d10 + its parameter


# -- finding 4: the minimum of 1 damage belongs to a successful attack (L1381, L1492) -----------------
def test_burning_on_mail_is_stopped_by_the_armour_which_wears():
    """L1381: «при любой успешной атаке наносится 1 урона Здоровью» — the minimum is a successful
    attack's; L1492: burning does 2 Health a turn «с учетом брони — но её прочность портится».
    Burning 2 on light mail (2, 4): 2 − 2 = 0 Health, the mail wears to (2, 3)."""
    c = Character(name="Ira", armour=[dict(MAIL)], conditions=[{"id": "burning"}])
    out = SYSTEM.on_turn(c, "start")
    assert out.details["health_loss"] == 0 and c.health == c.health_max
    assert (c.armour[0]["defence"], c.armour[0]["durability"]) == (2, 3)


def test_the_tick_of_burning_is_not_an_attack_either():
    """L1492 through the character's own list of states (``tick_conditions``)."""
    c = Character(name="Ira", armour=[dict(MAIL)], conditions=[{"id": "burning", "ticks_at": "start"}])
    out = SYSTEM.tick_conditions(c, at="start")
    assert out.details["dot"] == 2 and c.health == c.health_max


def test_damage_the_gm_enters_is_a_hit_unless_marked_ongoing():
    """L1381 for the hit of an attack entered by hand (at least 1 Health); the tracker's option
    ``attack`` off for ongoing damage (burning, L1492), which the armour may stop entirely."""
    hit, burn = Character(name="A", armour=[dict(MAIL)]), Character(name="B", armour=[dict(MAIL)])
    assert "attack" in [o.name for o in SYSTEM.damage_options(hit)]
    assert SYSTEM.apply_damage(hit, 2).details["health_loss"] == 1
    assert SYSTEM.apply_damage(burn, 2, attack=False).details["health_loss"] == 0
    assert burn.armour[0]["durability"] == 3  # protecting from 2 still wears it (L1391)


def test_a_blast_is_an_attack_and_keeps_the_minimum():
    """L1381 with an explosion (an area attack, L860): weak blast 2 on mail 2 → 1 Health."""
    c = Character(name="Ira", armour=[dict(MAIL)])
    out = combat.blast(c, 2, options=SYSTEM.rules)
    assert out.details["health_loss"] == 1 and c.health == c.health_max - 1


# -- finding 5: an item used on someone else rolls the patient where the book says (L1120, L1459) -----
def test_adrenaline_given_by_an_ally_is_the_patients_endurance_roll():
    """L1120: «участник совершает бросок Выносливости, чтобы понять сколько очков Рассудка ему
    сможет восстановить инъекция адреналина, сделанная союзником»; L1459: Endurance via 4 (+2).
    The medic (Endurance 3) injects Ira (Endurance 6: d12): Ira's d12 rolls 10 → 10 // 4 + 2 = 4."""
    medic = Character(name="Medic", items=[{"name": "Adrenaline", "preset": "adrenaline"}])
    ira = Character(name="Ira", endurance=6, physique=6)
    ira.sanity = 1
    rng = Scripted(10)
    out = SYSTEM.use_item(medic, "Adrenaline", rng=rng, target=ira)
    assert rng.asked == [(1, 12)]  # Ira's d12, not the medic's d6
    assert out.details["amount"] == 4 and ira.sanity == 5
    assert out.details["roll"].details["level"] == 6


def test_a_medkit_still_rolls_the_healers_fine_motor():
    """L1461: a medkit heals 3 + the healer's Fine Motor roll via 4 (+2) (A30's default)."""
    medic = Character(name="Medic", fine_motor=5, items=[{"name": "Kit", "preset": "medkit", "charges": 5}])
    ira = Character(name="Ira")
    ira.health = 1
    rng = Scripted(8)  # the medic's d10
    out = SYSTEM.use_item(medic, "Kit", rng=rng, target=ira, in_combat=False)
    assert rng.asked == [(1, 10)] and out.details["amount"] == 3 + 8 // 4 + 2


# -- finding 6: extra turns in a tense situation are usually not available (L700) ---------------------
def test_no_extra_turn_in_a_tense_situation_unless_the_gm_allows():
    """L700: «Обычно дополнительные ходы во время острых ситуаций недоступны»: refused by default;
    the GM option ``tense_extra_turns`` allows them. In a fight they stay (L757)."""
    c = Character(name="Ira")
    tense = SYSTEM.turn_state(c, tense=True)
    with pytest.raises(RuleError) as err:
        SYSTEM.extra_turn(c, tense, 1)
    assert err.value.code == "tense_no_extra_turns" and err.value.message["ru"]
    assert tense.extra_turns_taken == 0 and c.sanity == c.sanity_max
    assert SYSTEM.extra_turn(c, SYSTEM.turn_state(c), 1)["number"] == 1
    gm = SYSTEM.with_rules(tense_extra_turns=True)
    assert gm.extra_turn(c, gm.turn_state(c, tense=True), 1)["number"] == 1


def test_the_gm_may_leave_one_action_a_turn_in_a_tense_situation():
    """L701: «Мастер для сохранения динамики может оставить только одно действие в ход» (the GM
    option ``tense_actions``: 2 by default, L698)."""
    c = Character(name="Ira")
    two = SYSTEM.turn_state(c, tense=True)
    two.use("action")
    two.use("action")
    one = SYSTEM.with_rules(tense_actions=1).turn_state(c, tense=True)
    one.use("action")
    with pytest.raises(RuleError) as err:
        one.use("attack")
    assert err.value.code == "no_attack"


# -- finding 8: the Sanity test rolls Composure, Will or a fitting ability (L590, L178, L183, L592) --
FORTITUDE = {"name": "Mental fortitude", "kind": "skill", "base_param": "composure", "level": 3}


def test_the_sanity_test_rolls_composure_by_default_will_or_a_fitting_ability():
    """L590: «требовать броски Воли, Самообладания и иных параметров или подходящих способностей»;
    L178: Composure is the Sanity tests' parameter (L592's example rolls it); L183: «ментальная
    стойкость» is an ability on Composure. Harm 7, Mental fortitude 3 on Composure 5: d10 7 + 3 =
    10, through 3 (+0) as at L592: 3 → Sanity −4."""
    c = Character(name="Ira", composure=5, leadership=3, abilities=[dict(FORTITUDE)])
    spec = next(s for s in SYSTEM.checks(c) if s.id == "sanity_test")
    opt = spec.option("param")
    assert opt.default == "composure"
    assert [v for v, _ in opt.choices] == ["composure", "will", "skill:Mental fortitude"]
    res = SYSTEM.roll_check(c, "sanity_test", rng=Scripted(7), harm=7, divider=[3, 0], param="skill:Mental fortitude")
    assert (res.total, res.details["mitigation"], res.details["loss"]) == (10, 3, 4)
    plain = SYSTEM.roll_check(c, "sanity_test", rng=Scripted(7), harm=7, divider=[3, 0])
    assert (plain.details["param"], plain.total, plain.details["loss"]) == ("composure", 7, 5)
    assert SYSTEM.check_distribution(c, "sanity_test", harm=7, param="skill:Mental fortitude").p_pass > 0


# -- the spec's §11 readings a GM may switch (A26, A28, A46, A52) -------------------------------------
def test_a_movement_block_tie_lets_the_mover_through_unless_the_gm_says_otherwise():
    """L1012: blocker's Physique or Body Control against the mover's Strength or Agility, which
    L212/L249 list as defences against blocking: the mover defends and wins ties (A26); the GM
    option ``movement_block_ties="blocker"`` stops it on a tie."""
    from tabletop_systems.ret.level import level_roll

    tie = level_roll(3, rng=Scripted(4), options=SYSTEM.rules), level_roll(3, rng=Scripted(4), options=SYSTEM.rules)
    assert not combat.movement_block(*tie, options=SYSTEM.rules)
    assert combat.movement_block(*tie, options=SYSTEM.with_rules(movement_block_ties="blocker").rules)


def test_a_burst_costs_no_action_unless_the_gm_says_so():
    """L898-904: a burst at one target names no action (A28); a spray does (L877)."""
    gun = {"name": "SMG", "automatic": True, "capacity": 30, "ammo": 30}
    assert not combat.plan_attack(burst="half", weapon=gun, options=SYSTEM.rules).action_cost
    gm = SYSTEM.with_rules(burst_costs_action=True).rules
    assert combat.plan_attack(burst="half", weapon=gun, options=gm).action_cost


def test_a_token_may_lift_a_roll_to_level_8_unless_the_gm_stops_it_at_7():
    """L285: level 8 is closed to player characters «для развития»; a token's +1 die level on a
    level-7 roll gives d100 (A46) unless the GM option ``tokens_reach_level_8`` is off."""
    c = Character(
        name="Ira", physique=7, endurance=7, tokens=[{"name": "Luck charm", "kind": "die_level", "amount": 1}]
    )
    assert SYSTEM.roll_check(c, "strength", rng=Scripted(50), token="Luck charm").details["die"] == "d100"
    capped = SYSTEM.with_rules(tokens_reach_level_8=False)
    assert capped.roll_check(c, "strength", rng=Scripted(15), token="Luck charm").details["die"] == "d20"


def test_armour_penalises_agility_rolls_not_speed_unless_the_gm_reads_it_so():
    """L1383, L1409: medium armour gives −2 to the Agility branch's rolls; Speed is Agility's value
    (L387), untouched (A52); ``armour_penalty_speed`` lowers Speed by the penalty."""
    c = Character(name="Ira", armour=[{"name": "Mail", "defence": 4, "durability": 4, "penalty": -2, "worn": True}])
    assert SYSTEM.turn_state(c).speed_left == 3
    assert SYSTEM.with_rules(armour_penalty_speed=True).turn_state(c).speed_left == 1
