"""Combat (spec §6) and the Attributes (§8.6): attacks, Defense checks, damage, healing, initiative."""

import random
from fractions import Fraction

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, attributes, checks, combat
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import ConditionSpec, DamageOutcome, InitiativeOrder
from helpers import DiceInOrder


@pytest.mark.parametrize(
    "val,defense,dur,die,dmg",
    [
        pytest.param(10, 18, 0, 14, 6, id="S23"),
        pytest.param(2, 25, 0, 20, 1, id="D12-a"),
        pytest.param(8, 20, 10, 20, 1, id="D12-b"),
        pytest.param(7, 12, 4, 15, 6, id="D13"),
        pytest.param(5, 15, 0, 10, 0, id="D14"),
    ],
)
def test_attack_damage_vectors(val, defense, dur, die, dmg):
    assert checks.attack_damage(die + val, defense, dur, die) == dmg


def test_D14_equality_is_a_success():
    attacker = Character(weapons=5)  # STR 10, DEX 10 -> Valor 5
    target = Character(armour_bonus=5)  # DEF 15
    r = SYSTEM.attack(attacker, target, rng=DiceInOrder([10]))
    assert r.success and r.margin == 0 and r.details["damage"] == 0


def test_S23_through_the_system():
    attacker = Character(weapons=10)
    target = Character(armour_bonus=8)  # DEF 18
    r = SYSTEM.attack(attacker, target, rng=DiceInOrder([14]))
    assert r.total == 24 and r.details["damage"] == 6


def test_attack_zero_xp_hindrance_and_veteran():
    a = Character()
    r = SYSTEM.attack(a, Character(), rng=DiceInOrder([15, 3]))
    assert r.details["dice"] == [15, 3] and r.details["kept"] == 3  # L380
    vet = Character(weapons=6, attributes=[{"code": "veteran", "name": "Veteran"}])
    r2 = SYSTEM.attack(vet, Character(), rng=DiceInOrder([10]))
    assert r2.total == 10 + 6 + 1  # S34


def test_S34_veteran_valor_checks():
    vet = Character(weapons=6, attributes=[{"code": "veteran", "name": "Veteran"}])
    assert vet.valor == 7, "the sheet shows the Veteran's +1 (L537)"
    plan = checks.plan_check(vet, "valor", options=SYSTEM.rules)
    assert plan.bonus == 7, "counted once"
    assert [v for _label, v in plan.parts] == [6, 1]


def test_immunity_beats_natural_20_A21():
    robot = Character(attributes=[{"code": "combat_robot", "name": "Combat robot"}])
    r = SYSTEM.attack(Character(weapons=1), robot, rng=DiceInOrder([20]), damage_kind="poison")
    assert r.details["damage"] == 0 and r.details["immune"]


def test_damage_distribution_exact():
    d = combat.attack_damage_distribution(5, 15, 2)
    assert sum(d.values()) == 1
    # die 20 -> 20+5-15-2 = 8; die 12 -> 0; die <=12 -> 0
    assert d[8] == Fraction(1, 20) and d[0] == Fraction(12, 20)
    weak = combat.attack_damage_distribution(0, 30, 0)
    assert weak[1] == Fraction(1, 20) and weak.p_pass == Fraction(1, 20)


@pytest.mark.parametrize("die,dmg", [pytest.param(18, 0, id="D15-18"), pytest.param(3, 10, id="D15-3")])
def test_D15_defense_check(die, dmg):
    c = Character(dexterity=14, armour_bonus=0)  # DEF 12, BDEF 10
    assert c.defense == 12
    r = SYSTEM.defense_check(c, 15, rng=DiceInOrder([die]))
    assert r.details["damage"] == dmg


def test_S24_defense_check():
    c = Character(dexterity=14, armour_bonus=4)  # DEF 16
    r = SYSTEM.defense_check(c, 20, rng=DiceInOrder([12]))
    assert r.total == 18 and r.details["damage"] == 2


def test_defense_check_durability_reading_A20():
    c = Character(dexterity=14, durability_gm=1)
    assert SYSTEM.defense_check(c, 15, rng=DiceInOrder([3])).details["damage"] == 9
    s = SYSTEM.with_rules(durability_vs_defense_check=False)
    assert s.defense_check(c, 15, rng=DiceInOrder([3])).details["damage"] == 10


def test_apply_damage_and_gm_prompt():
    c = Character(constitution=4, durability_gm=2)  # HP 12
    out = SYSTEM.apply_damage(c, 5)
    assert isinstance(out, DamageOutcome) and out.changes == {"hp": (12, 9)} and not out.defeated
    out = SYSTEM.apply_damage(c, 20, durability=False)
    assert c.hp == -11 and out.defeated and out.state["en"].startswith("0 HP") and out.state["ru"]
    assert SYSTEM.is_defeated(c) and SYSTEM.health(c) == (-11, 12)
    assert SYSTEM.apply_damage(Character(durability_gm=5), 3, natural20=True).details["damage"] == 1


def test_damage_kinds():
    robot = Character(attributes=[{"code": "combat_robot", "name": "Combat robot"}])
    assert robot.durability == 3  # A26: 3 + mCON(0)
    assert SYSTEM.apply_damage(robot, 10, kind="poison").details["damage"] == 0
    assert SYSTEM.apply_damage(robot, 11, kind="contaminating").details["damage"] == 4  # (11 - 3) // 2
    assert SYSTEM.apply_damage(Character(), 7, ignore_protection=True).details["damage"] == 7
    opts = SYSTEM.damage_options(robot)
    assert {o.name for o in opts} >= {"kind", "durability", "natural20"}


def test_dangerous_wound_threshold_gm_entered():
    c = Character(dangerous_wound_threshold=8)
    assert SYSTEM.apply_damage(c, 9).details.get("dangerous_wound")
    assert not SYSTEM.apply_damage(Character(), 29).details.get("dangerous_wound")


def test_healing():
    c = Character(hp=10)
    out = SYSTEM.apply_healing(c, 50)
    assert c.hp == 30 and out.changes["hp"] == (10, 30)
    c.hp = 5
    SYSTEM.apply_healing(c, 3, source="medicine")
    with pytest.raises(RuleError) as e:
        SYSTEM.apply_healing(c, 3, source="medicine")
    assert e.value.code == "medicine_once_per_day" and c.hp == 8
    robot = Character(attributes=[{"code": "combat_robot", "name": "Combat robot"}], hp=1)
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(robot, 3, source="medicine")
    SYSTEM.apply_healing(robot, 3, source="repair")
    assert robot.hp == 4


@pytest.mark.parametrize(
    "total,healed",
    list(zip((9, 10, 14, 15, 19, 20, 24, 25), (0, 1, 1, 2, 2, 3, 3, 4))),
    ids=[f"D19-{t}" for t in (9, 10, 14, 15, 19, 20, 24, 25)],
)
def test_D19_medicine(total, healed):
    assert combat.medicine_heal_amount(total) == healed


@pytest.mark.parametrize("skill,m,turns", [pytest.param(4, 2, 4, id="D20-a"), pytest.param(8, 3, 1, id="D20-b")])
def test_D20_medicine_turns(skill, m, turns):
    assert combat.medicine_turns(skill, m) == turns


def test_D21_treatment_interrupted_cumulatively():
    t = combat.Treatment(medic_will=6, turns_left=4, options=SYSTEM.rules)
    assert not t.medic_hit(4)
    assert t.medic_hit(3)
    with pytest.raises(RuleError):
        t.tick()
    single = combat.Treatment(medic_will=6, turns_left=4, options=SYSTEM.rules.replace(medicine_interrupt="single_hit"))
    assert not single.medic_hit(4) and not single.medic_hit(3)
    medic = Character(
        intelligence=14,
        wisdom=14,
        medicine=4,
        attributes=[{"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "medicine"]}],
    )
    t2 = combat.start_treatment(medic, options=SYSTEM.rules)
    assert t2.turns_left == 4 and t2.medic_will == 7
    assert [t2.tick() for _ in range(4)] == [False, False, False, True]


def test_initiative_static_ties_reported():
    a = Character(dexterity=14, wisdom=10)  # REA 6
    b = Character(dexterity=12, wisdom=12)  # REA 6, lower DEX
    c = Character(entity_type="extra", dexterity=14, wisdom=10)  # REA 6, same DEX, extra
    d = Character(dexterity=20, wisdom=20)  # REA 10
    order = SYSTEM.roll_initiative({"a": a, "b": b, "c": c, "d": d}, rng=random.Random(1))
    assert isinstance(order, InitiativeOrder)
    assert list(order.order) == ["d", "a", "c", "b"]
    by = {t["pair"]: t["by"] for t in order.tiebreaks}
    assert by[("a", "c")].startswith("heroes") and by[("c", "b")] == "DEX score"
    again = SYSTEM.roll_initiative({"a": a, "b": b, "c": c, "d": d}, rng=random.Random(1))
    assert again.order == order.order


def test_initiative_rolloff_and_rolled_mode():
    twins = {"x": Character(), "y": Character()}
    o = SYSTEM.roll_initiative(twins, rng=DiceInOrder([5, 17]))
    assert list(o.order) == ["y", "x"] and "roll-off" in o.tiebreaks[0]["en"]
    o2 = SYSTEM.roll_initiative(twins, rng=DiceInOrder([3, 3]))
    assert list(o2.order) == ["x", "y"] and o2.tiebreaks[0]["by"] == "listed order"
    rolled = SYSTEM.with_rules(initiative_mode="rolled")
    o3 = rolled.roll_initiative(twins, rng=DiceInOrder([2, 1, 19, 1]))
    assert list(o3.order) == ["y", "x"] and o3.rolls["y"].key[0] == 19 + 5


def test_conditions_catalogue():
    cs = SYSTEM.conditions()
    assert {c.id for c in cs} == {
        "immobile",
        "obedient",
        "dead",
        "unconscious",
        "prone",
        "fatigued",
        "contaminated",
        "dangerous_wound",
        "change_active",
    }
    for c in cs:
        assert isinstance(c, ConditionSpec) and c.label["en"] and c.label["ru"] and c.effect["ru"] != c.effect["en"]
    by = {c.id: c for c in cs}
    assert by["change_active"].unit == "scene" and by["prone"].data["gm_entered"]


def test_implied_conditions():
    c = Character(entity_type="extra", constitution=3, constitution_drain=3)
    assert "dead" in combat.implied_conditions(c)
    c2 = Character(dexterity=5, dexterity_drain=5, will_drain=9)
    got = combat.implied_conditions(c2)
    assert "immobile" in got and "obedient" in got


# --- Attributes (§8.6) ---------------------------------------------------------------------------------
def test_S29_augmented():
    c = Character(
        constitution=14,
        attributes=[{"code": "augmented", "name": "Augmented"}],
        changes=[{"name": "Night vision"}, {"name": "Turbo-piston arms"}],
    )
    assert c.constitution_mod == 2 and c.augmented_max_changes == 2 and c.augmented_pool == 3
    attributes.activate_change(c, "Night vision")
    attributes.activate_change(c, "Night vision")
    attributes.activate_change(c, "Turbo-piston arms")
    with pytest.raises(RuleError):
        attributes.activate_change(c, "Turbo-piston arms")
    assert c.change_activations_used == 3
    SYSTEM.start_meeting(c)
    assert c.change_activations_used == 0


@pytest.mark.parametrize(
    "con,pool,changes",
    [pytest.param(10, 1, 1, id="D25-10"), pytest.param(6, 1, 1, id="D25-6"), pytest.param(18, 5, 4, id="D25-18")],
)
def test_D25_augmented(con, pool, changes):
    assert attributes.augmented_pool(con) == pool and attributes.augmented_max_changes(con) == changes


def test_D22_robot():
    r = Character(
        constitution=14, intelligence=12, dexterity=12, attributes=[{"code": "combat_robot", "name": "Combat robot"}]
    )
    assert attributes.robot_repair_full(14, 12, options=SYSTEM.rules) == 6
    assert (
        attributes.robot_repair_half(14, 12, "constitution") == 3
        and attributes.robot_repair_half(14, 12, "intelligence") == 2
    )
    assert (
        attributes.robot_contamination_damage(14) == 3
        and attributes.robot_leak_radius(14, 12, options=SYSTEM.rules) == 6
    )
    assert r.durability == 5 and r.robot_max_weapons == 3 and r.defense == 14


def test_D23_robot_minimums():
    assert attributes.robot_repair_full(10, 10, options=SYSTEM.rules) == 4 and attributes.robot_repair_half(10, 10) == 2
    assert (
        attributes.robot_contamination_damage(10) == 2
        and attributes.robot_leak_radius(10, 10, options=SYSTEM.rules) == 4
    )


def test_D24_robot():
    assert attributes.robot_repair_full(18, 16, options=SYSTEM.rules) == 20


def test_robot_readings_A24_A26():
    assert attributes.robot_repair_full(2, 2, options=SYSTEM.rules) == 4  # factors clamped at 0
    assert (
        attributes.robot_repair_full(2, 2, options=SYSTEM.rules.replace(robot_factor_clamp=None)) == 9
    )  # (-3) * (-3) literal
    assert attributes.robot_durability(3, 14, options=SYSTEM.rules) == 5
    assert attributes.robot_durability(3, 14, sbp=0, options=SYSTEM.rules.replace(robot_dur_base="sbp")) == 2


def test_S33_robot_armour():
    r = Character(attributes=[{"code": "combat_robot", "name": "Combat robot"}], shield_bonus=1)
    assert r.defense == 10 + 0 + 3 + 1
    assert not [p for p in SYSTEM.validate(r) if p.code == "V18"]


def test_robot_repair_outcome_bands():
    r = Character(constitution=14, intelligence=12, attributes=[{"code": "combat_robot", "name": "Combat robot"}])
    assert attributes.robot_repair_outcome(r, "A", options=SYSTEM.rules)["heal"] == 6
    assert attributes.robot_repair_outcome(r, "C", options=SYSTEM.rules) == {
        "heal": 1,
        "area_damage": 3,
        "radius": 1,
        "kind": "contaminating",
        "self_damage": 0,  # A40: the robot itself is not in "everyone within 1 m" by default
    }
    assert attributes.robot_repair_outcome(r, "D", options=SYSTEM.rules)["radius"] == 6


def test_D26_martial_arts():
    m = Character(
        dexterity=16, wisdom=14, strength=12, unarmed=4, attributes=[{"code": "martial_arts", "name": "Martial arts"}]
    )
    assert m.defense == 15 and m.valor_unarmed == 9
    dc = attributes.secrets_no_thread_difficulty(7)
    assert dc == 17
    assert SYSTEM.chance(m, "valor_unarmed", difficulty=dc) == Fraction(13, 20)


@pytest.mark.parametrize("die,ok", [pytest.param(9, True, id="D27-9"), pytest.param(8, False, id="D27-8")])
def test_D27_veteran_scrounge(die, ok):
    v = Character(wisdom=12, attributes=[{"code": "veteran", "name": "Veteran"}])
    out = attributes.veteran_scrounge(v, rng=DiceInOrder([die, 12]), options=SYSTEM.rules)
    assert out["check"].success is ok
    if ok:
        assert out["trouble"] is None
    else:
        assert out["trouble"].details["table"] == "veteran" and out["trouble"].total == 12  # A34: no margin
        m = attributes.veteran_scrounge(
            v, rng=DiceInOrder([die, 12]), options=SYSTEM.rules.replace(veteran_trouble_margin=True)
        )
        assert m["trouble"].total == 11


def test_S20_area_count():
    from tabletop_systems.threads_of_fate.sizes import SIZE_MEDIUM_COUNT

    assert [SIZE_MEDIUM_COUNT[s] for s in ("large", "huge", "gargantuan")] == [2, 3, 4]


# --- bought outcomes, contests, Unique moves ------------------------------------------------------------
def test_bought_minimal_success_on_attack_A13():
    """A13 (audit 3): a bought minimal success deals what a rolled total equal to the Defense does,
    the book's 0 (L351) by default, 1 under the house reading."""
    a = Character(weapons=3, threads=2)
    t = Character(armour_bonus=8, durability_gm=0)  # DEF 18
    r = SYSTEM.attack(a, t, bought="success")
    assert r.success and r.margin == 0 and r.details["damage"] == 0
    assert [(e.trait, e.delta) for e in r.effects] == [("threads", -2)]
    s = SYSTEM.with_rules(min_success_damage=1)
    assert s.attack(a, t, bought="success").details["damage"] == 1
    tough = Character(armour_bonus=8, durability_gm=2)
    assert s.attack(a, tough, bought="success").details["damage"] == 0


def test_bought_results_and_chance():
    c = Character(dexterity=14, stealth=3, threads=4)
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=18, bought="success") == 1
    assert SYSTEM.chance(c, "dexterity+stealth", difficulty=3, bought="failure") == 0
    crit = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=30, bought="critical_success")
    assert crit.success and crit.critical == "success" and crit.total == 25 and crit.effects[0].delta == -4
    with pytest.raises(RuleError) as e:
        SYSTEM.roll_check(c, "dexterity+stealth", difficulty=25, bought="success")  # D10/S11
    assert e.value.code == "only_on_20"
    with pytest.raises(RuleError):
        SYSTEM.roll_check(Character(threads=1), "dexterity", bought="success")  # D31
    cf = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=2, bought="critical_failure")
    assert cf.success is False and cf.critical == "failure"


def test_contest_attack_A9():
    a = Character(weapons=4)
    t = Character(size="small", gm_approved_size=True, dexterity=14)  # BDEF 11, DEF 13
    assert combat.contest_defense_bonus(t, options=SYSTEM.rules) == 2
    assert combat.contest_defense_bonus(t, options=SYSTEM.rules.replace(contest_keep_sbp=True)) == 3
    out = SYSTEM.contest_attack(a, t, rng=DiceInOrder([15, 10]))
    assert out["defense_total"] == 12 and out["attack"].total == 19 and out["winner"] == "a" and out["damage"] == 7
    tie = SYSTEM.contest_attack(a, t, rng=DiceInOrder([8, 10]))
    assert tie["winner"] == "tie" and tie["damage"] == 0


def test_unique_moves():
    aug = Character(intelligence=14, threads=1, attributes=[{"code": "augmented", "name": "Augmented"}])
    out = attributes.steel_and_flesh(aug, options=SYSTEM.rules)
    assert out["die"] == 20 and out["effects"][0].delta == -1
    out = attributes.steel_and_flesh(
        aug, with_threads=False, difficulty=15, rng=DiceInOrder([10, 16]), options=SYSTEM.rules
    )
    # INT check 10 + 2 = 12 vs 15: failed by 3 -> Trouble 16 - 3 = 13 -> Decompensation
    assert out["trouble"].total == 13 and out["works"] and out["swt"] == 1
    robot = Character(
        constitution=14, intelligence=12, threads=0, attributes=[{"code": "combat_robot", "name": "Combat robot"}]
    )
    with pytest.raises(RuleError):
        attributes.automatic_repair(robot, options=SYSTEM.rules)
    rep = attributes.automatic_repair(robot, with_threads=False, rng=DiceInOrder([3]), options=SYSTEM.rules)
    assert rep["heal"] == 0 and rep["radius"] == 6 and rep["area_damage"] == 3
    m = Character(
        dexterity=16, wisdom=14, strength=12, unarmed=4, attributes=[{"code": "martial_arts", "name": "Martial arts"}]
    )
    assert attributes.secrets_of_mastery(m, 7, with_threads=False, rng=DiceInOrder([8]), options=SYSTEM.rules)[
        "ignored"
    ]
    fail = attributes.secrets_of_mastery(m, 7, with_threads=False, rng=DiceInOrder([7]), options=SYSTEM.rules)
    assert fail["prone"] and fail["hp_lost"] == 7


def test_medicine_procedure():
    medic = Character(intelligence=14, wisdom=16, medicine=4, expert_access=["medicine", "repair"], repair=2)
    patient = Character(hp=5)
    out = SYSTEM.medicine(medic, patient, rng=DiceInOrder([12]))  # 12 + 4 + 2 = 18 -> 1 + 1 = 2 HP
    assert out["heal"] == 2 and out["source"] == "medicine" and out["combat_turns"] == 4
    SYSTEM.apply_healing(patient, out["heal"], source="medicine")
    assert patient.hp == 7
    with pytest.raises(RuleError):
        SYSTEM.medicine(medic, patient, rng=DiceInOrder([12]))
    SYSTEM.new_day(patient)
    revive = SYSTEM.medicine(medic, patient, mode="revive", rng=DiceInOrder([9]))
    assert revive["revived"] and revive["heal"] == 0
    first = SYSTEM.medicine(medic, patient, mode="first_aid", rng=DiceInOrder([5]))
    assert first["check"].details["characteristic"] == "wisdom"
    bot = Character(attributes=[{"code": "combat_robot", "name": "Combat robot"}], hp=3)
    assert SYSTEM.medicine(medic, bot, rng=DiceInOrder([10]))["source"] == "repair"
    with pytest.raises(RuleError):
        SYSTEM.medicine(bot, bot)


def test_gm_entered_catalogue_and_turn_slots():
    rows = SYSTEM.gm_entered()
    assert {"difficulty_table", "size_table", "manoeuvres", "wounds", "equipment"} <= {r["id"] for r in rows}
    for r in rows:
        assert r["software"] and r["software_ru"]
    assert [s["id"] for s in SYSTEM.turn_slots()] == ["manoeuvre", "quick_action"]
    assert any(a["id"] == "medicine" for a in SYSTEM.data("actions"))


def test_robot_durability_reading_A26_in_combat():
    bot = Character(constitution=14, attributes=[{"code": "combat_robot", "name": "Combat robot"}])
    assert SYSTEM.apply_damage(Character(constitution=14, attributes=bot.attributes), 10).details["damage"] == 5
    s = SYSTEM.with_rules(robot_dur_base="sbp")
    assert s.apply_damage(bot, 10).details["damage"] == 8  # SBP 0 + mCON 2


def test_medicine_per_medic_reading_A28():
    s = SYSTEM.with_rules(medicine_once_per="medic")
    medic = Character(intelligence=14, medicine=4, expert_access=["medicine"])
    s.medicine(medic, Character(hp=1), rng=DiceInOrder([12]))
    assert medic.medicine_given_today
    with pytest.raises(RuleError):
        s.medicine(medic, Character(hp=1), rng=DiceInOrder([12]))
    SYSTEM.medicine(medic, Character(hp=1), rng=DiceInOrder([12]))  # default: per patient
