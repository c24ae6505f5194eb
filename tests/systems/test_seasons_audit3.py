"""«Времена Года» (Seasons), the third rules audit (spec §13.x T1-T6 and the issue's eight
findings): each corrected reading as a hand case with the seed line (Lnnn of
``001_4de5ee06f0041d30.txt``) in its docstring. Each finding has tests that failed on the code as
the audit found it; a few more guard the readings that stay (a healer with health left, the
conditions a success ends)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from helpers import FixedRng

from tabletop_systems.seasons import SYSTEM, Character, conditions
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat.records import persisted

SIX = [6] * 10  # every die a success
ONE = [1] * 10  # every die a failure


def medic(**values) -> Character:
    return Character(**{"name": "Врач", "wits": 3, "intelligence": 3, "medicine": 3, **values})


def hurt(levels: int, **values) -> Character:
    c = Character(**{"name": "Раненый", **values})
    SYSTEM.apply_damage(c, levels)
    return c


# -- 1. a healer with no health left treats no one (L722, L724-725) -----------------------------
def test_a_healer_at_zero_health_gives_no_first_aid_and_no_treatment_L722_L724_L725():
    """L722: at 0 health levels the character «выпадает из сюжета» (is out of the story), so he
    tends no one; L724-725 name the healer «в сознании и не лишен всех уровней здоровья». The
    audit found a healer at 0 Health (even dead) treating others."""
    healer = medic()
    SYSTEM.apply_damage(healer, healer.health_max)
    patient = hurt(3)
    before = persisted(patient), persisted(healer)
    for roll in (SYSTEM.first_aid, SYSTEM.treatment):
        with pytest.raises(RuleError) as err:
            roll(healer, patient, rng=FixedRng(*SIX))
        assert err.value.code == "healer_out"
        assert "Врач" in err.value.message["ru"] and "Врач" in err.value.message["en"]
    assert (persisted(patient), persisted(healer)) == before  # nothing changed


def test_a_dead_healer_treats_no_one_even_with_health_on_the_track_L722():
    """L722: death is one way of leaving the story; the Storyteller may mark it by hand."""
    healer = medic()
    SYSTEM.leave_fight(healer, "dead")
    with pytest.raises(RuleError) as err:
        SYSTEM.first_aid(healer, hurt(2), rng=FixedRng(*SIX))
    assert err.value.code == "healer_out"


def test_the_dice_tray_refuses_the_healing_checks_of_a_healer_out_of_the_story_L722():
    """The tray's own first aid and treatment checks say the same as ``first_aid`` (L722)."""
    healer = medic()
    SYSTEM.apply_damage(healer, healer.health_max)
    for check_id in ("first_aid", "first_aid_skill", "treatment"):
        with pytest.raises(RuleError) as err:
            SYSTEM.chance(healer, check_id, patient_damage=3)
        assert err.value.code == "healer_out"


def test_a_healer_with_health_left_still_treats_others_L724():
    """L724: «так и кто-то другой» — anyone else may give first aid."""
    healer, patient = medic(), hurt(4)
    SYSTEM.apply_damage(healer, 4)  # wounded, not out (and not in Pain: 2 x 4 < 10)
    r = SYSTEM.first_aid(healer, patient, rng=FixedRng(*SIX))
    assert r.success and patient.damage == 3


# -- 2. hunger, thirst and fatigue are held off, not ended (L716) ------------------------------
def test_a_success_holds_hunger_off_for_an_hour_and_it_stays_until_the_character_eats_L716():
    """L716: «При успехе Состояние отступает на час ... Такие Состояния не проходят сами, пока
    персонаж не поест/попьет/отдохнет». The audit found one success removing the condition."""
    c = Character(stamina=3, athletics=3)
    SYSTEM.condition_changed(c, "hunger_thirst_fatigue", True)
    assert SYSTEM.condition_penalty(c) == -3
    r = SYSTEM.shake_off_condition(c, 0, rng=FixedRng(*SIX))
    assert r.success and [cond["id"] for cond in c.conditions] == ["hunger_thirst_fatigue"]
    assert c.conditions[0]["held_off"] is True and r.details["condition_held_off"]
    assert SYSTEM.condition_penalty(c) == 0  # no -3 for the hour
    assert "condition_1" not in {o.name for o in SYSTEM.check(c, "strength+athletics").options}
    with pytest.raises(RuleError) as err:
        SYSTEM.shake_off_condition(c, 0, rng=FixedRng(*SIX))  # nothing to shake off for the hour
    assert err.value.code == "condition_held_off"
    SYSTEM.hour_passes(c)  # the hour is over: it comes back
    assert not c.conditions[0].get("held_off") and SYSTEM.condition_penalty(c) == -3
    SYSTEM.condition_changed(c, "hunger_thirst_fatigue", False)  # eats, drinks or rests
    assert c.conditions == []


def test_resisting_hunger_as_it_strikes_also_only_holds_it_off_L716_L687():
    """L687: a condition may be resisted the moment it strikes; for hunger/thirst/fatigue the
    success still only holds it off for an hour (L716)."""
    c = Character(stamina=3, athletics=3)
    r = SYSTEM.resist_condition(c, "hunger_thirst_fatigue", rng=FixedRng(*SIX))
    assert r.success and c.conditions[0]["id"] == "hunger_thirst_fatigue" and c.conditions[0]["held_off"]
    assert SYSTEM.condition_penalty(c) == 0
    other = Character(resolve=3, occult=3)
    assert SYSTEM.resist_condition(other, "phobia", rng=FixedRng(*SIX)).success and other.conditions == []  # L690


def test_a_new_day_brings_back_what_was_held_off_for_the_hour_L716():
    """L716: the hold lasts an hour; a new day is long past it."""
    c = Character(stamina=3, athletics=3)
    SYSTEM.resist_condition(c, "hunger_thirst_fatigue", rng=FixedRng(*SIX))
    out = SYSTEM.new_day(c)
    assert not c.conditions[0].get("held_off") and SYSTEM.condition_penalty(c) == -3
    assert out.changes["conditions"][0][0]["held_off"] is True


def test_other_conditions_still_end_on_a_success_L690():
    """L690: «Если проверка удачна, Состояние не действует на персонажа»."""
    c = Character(stamina=3, athletics=3)
    SYSTEM.condition_changed(c, "sickness", True)
    assert SYSTEM.shake_off_condition(c, 0, rng=FixedRng(*SIX)).success and c.conditions == []


# -- 3. the tray's first aid and treatment take the patient's damage (L723, L725) ---------------
def test_first_aid_and_treatment_checks_take_the_patients_damage_L723_L725():
    """L723: «Сложность первой помощи равна числу заполненных уроном уровней здоровья» (of the
    patient); L725 the same for treatment. The audit found the tray's checks subtracting the
    roller's own damage."""
    healer, patient = medic(), hurt(4)
    for check_id in ("first_aid", "first_aid_skill", "treatment"):
        spec = SYSTEM.check(healer, check_id)
        option = spec.option("patient_damage")
        assert option.label["en"] == "Patient's damaged health levels"
        assert option.label["ru"] == "Уровни урона пациента"
        assert "difficulty" not in {o.name for o in spec.options}
        assert SYSTEM.pool_plan(healer, check_id, patient_damage=4).opposition == 4
    # the tray's answer is first_aid's: 3 + 3 - 4 = 2 dice, 3/4
    assert SYSTEM.chance(healer, "first_aid", patient_damage=patient.damage) == Fraction(3, 4)
    r = SYSTEM.first_aid(healer, patient, rng=FixedRng(1, 6))
    assert r.details["pool"] == 2 and r.details["opposition"] == 4
    assert patient.damage == 3  # healed one level: treatment now subtracts 3 (3 + 3 - 3 = 3 dice)
    assert SYSTEM.chance(healer, "treatment", patient_damage=patient.damage) == Fraction(7, 8)


def test_tending_oneself_starts_from_ones_own_damage_and_nothing_to_heal_is_refused_L723():
    """L724: the character may tend himself; with no damaged levels there is nothing to heal
    (spec §7.2: the tray should not offer the roll)."""
    me = hurt(3, wits=3, medicine=3)
    assert SYSTEM.check(me, "first_aid").option("patient_damage").default is None  # empty: oneself
    assert SYSTEM.pool_plan(me, "first_aid").opposition == 3
    assert SYSTEM.chance(me, "first_aid") == SYSTEM.chance(me, "first_aid", patient_damage=3) == Fraction(7, 8)
    with pytest.raises(RuleError) as err:
        SYSTEM.chance(medic(), "first_aid", patient_damage=0)
    assert err.value.code == "nothing_to_heal"
    assert err.value.message["ru"]


# -- 4. melee damage is Strength + Melee; Dexterity + Melee is the feint (L92, L505, L506) ------
RAPIER = {"name": "Рапира", "attack_bonus": 2, "skill": "melee", "attribute": "dexterity"}


def test_a_melee_weapon_marked_dexterity_strikes_with_strength_L92_L505():
    """L92: «Сила + Ближний Бой или Ловкость + Дальний Бой»; L505: «Бой с оружием: Сила + Ближний
    Бой + бонус оружия». The audit found a Dexterity melee weapon dealing damage with Dexterity."""
    a = Character(strength=2, dexterity=4, melee=2, weapons=[RAPIER])
    target = Character(stamina=1)
    (melee,) = [s for s in SYSTEM.attacks(a, target) if s.id != "unarmed"]
    assert melee.id == "melee:рапира"
    odds = SYSTEM.attack_odds(a, target, melee.id)
    assert "Strength 2" in odds.notes[0]["en"] and "Dexterity" not in odds.notes[0]["en"]
    r = SYSTEM.attack(a, target, "melee", weapon="Рапира", rng=FixedRng(*SIX))
    assert r.details["terms"][:2] == [("strength", 2), ("melee", 2)]
    assert "feint" in melee.help["en"] and "финт" in melee.help["ru"]


def test_validate_says_a_dexterity_melee_weapon_strikes_with_strength_L505_L506():
    """L506: «Касательная атака/финт: Ловкость + Ближний Бой - сложность» — the feint, no damage."""
    problems = [p for p in SYSTEM.validate(Character(weapons=[RAPIER])) if p.code == "melee_weapon_dexterity"]
    assert len(problems) == 1 and problems[0].severity == "warning" and problems[0].field == "weapons"
    assert "Рапира" in problems[0].message["ru"] and "Рапира" in problems[0].message["en"]
    assert "feint" in problems[0].message["en"] and "финт" in problems[0].message["ru"]
    thrown = {"name": "Нож", "skill": "ranged", "attribute": "strength"}
    assert not [p for p in SYSTEM.validate(Character(weapons=[thrown])) if p.code == "melee_weapon_dexterity"]


# -- 5. carried-over successes reach the next fitting action (L771) -----------------------------
def test_carried_successes_reach_any_fitting_check_by_default_L771():
    """L771: «Всюду, где дополнительные успехи не используются сразу же, они превращаются в бонус к
    следующему подходящему действию» — the book limits the checks that PRODUCE the bonus, not the
    ones that receive it (an attack, first aid, a contest too)."""
    c = Character(strength=3, melee=2, wits=3, medicine=2)
    SYSTEM.add_pending(c, "previous successes", 2)
    for check_id, opts in (
        ("armed_attack", {}),
        ("haggle", {"opponent_pool": 3}),
        ("first_aid", {"patient_damage": 2}),
    ):
        plan = SYSTEM.pool_plan(c, check_id, **opts)
        assert ("pending:previous successes", 2) in [(k, v) for k, _, v in plan.terms], check_id
    target = Character(stamina=2)
    odds = SYSTEM.attack_odds(c, target, "unarmed")
    assert "Queued: previous successes 2" in odds.notes[0]["en"]


def test_the_narrow_reading_is_a_gm_option_L771():
    """Spec §11 #36 (the second reading): only checks that need a single success receive it."""
    narrow = SYSTEM.with_rules(previous_successes_reach="single_success_checks")
    c = Character(strength=3, melee=2)
    SYSTEM.add_pending(c, "previous successes", 2)
    keys = [k for k, _, _ in narrow.pool_plan(c, "armed_attack").terms]
    assert "pending:previous successes" not in keys
    assert "pending:previous successes" in [k for k, _, _ in narrow.pool_plan(c, "strength+athletics").terms]


def test_checks_whose_successes_are_used_produce_no_carried_bonus_L771():
    """L771: an attack's successes are its damage, treatment's are the levels healed: nothing is
    left to carry over; a single-success check carries successes - 1."""
    c = Character(strength=3, melee=3, intelligence=3, medicine=3, manipulation=3, persuasion=3)
    attack = SYSTEM.attack(c, Character(stamina=1), "unarmed", rng=FixedRng(*SIX))
    assert attack.total == 5 and attack.details["previous_success_bonus"] == 0
    treat = SYSTEM.roll_check(c, "treatment", patient_damage=1, rng=FixedRng(*SIX))
    assert treat.details["previous_success_bonus"] == 0
    talk = SYSTEM.roll_check(c, "persuade", difficulty=1, rng=FixedRng(*SIX))
    assert talk.total == 5 and talk.details["previous_success_bonus"] == 4  # all but the first (L771)


# -- 6. anyone may spend Drama against an opponent's attack (L773) ------------------------------
def test_any_character_may_spend_drama_during_the_opponents_attack_L773():
    """L773: «персонаж может потратить 1 пункт Драмы во время действия противника или соперника,
    чтобы тот получил штраф -3» — not only the attack's target. The audit found only the target
    offered it."""
    attacker = Character(name="Бандит", strength=3, melee=3, is_player_character=False)
    ally = Character(name="Аня", presence=2, manipulation=2, composure=2)
    target = Character(name="Борис", stamina=1, is_player_character=False)  # an NPC friend: no Drama
    before = SYSTEM.attack_odds(attacker, target, "unarmed").p_hit
    changes = SYSTEM.spend_drama_against(ally, attacker)
    assert ally.drama == 5 and changes["spender"]["drama"] == (6, 5)
    assert attacker.pending_penalties == [{"source": "drama", "dice": 3, "applies_to": "", "by": "Аня"}]
    odds = SYSTEM.attack_odds(attacker, target, "unarmed")  # 3 + 3 - 1 - 3 = 2 dice
    assert before == Fraction(31, 32) and odds.p_hit == Fraction(3, 4)
    with pytest.raises(RuleError) as err:
        SYSTEM.spend_drama_against(ally, attacker)  # one point per character on a check (L742)
    assert err.value.code == "drama_twice" and ally.drama == 5
    with pytest.raises(RuleError):
        SYSTEM.spend_drama_against(target, attacker)  # NPCs have no Drama (L739)
    outcome = SYSTEM.resolve_attack(attacker, target, "unarmed", rng=FixedRng(6, 6))
    SYSTEM.apply_attack(attacker, target, outcome)
    assert outcome.details["pool"] == 2 and attacker.pending_penalties == []  # used up by the attack


def test_one_point_per_check_in_all_refuses_a_second_spender_L742():
    """§11 #3: under ``drama_limit = "per_check"`` one Drama point per check in all."""
    rules = SYSTEM.with_rules(drama_limit="per_check")
    attacker = Character(strength=3, melee=3, is_player_character=False)
    ann, bob = Character(name="Аня"), Character(name="Борис")
    rules.spend_drama_against(ann, attacker)
    with pytest.raises(RuleError) as err:
        rules.spend_drama_against(bob, attacker)
    assert err.value.code == "drama_per_check" and bob.drama == bob.drama_start


def test_the_target_spends_one_point_against_an_attack_either_way_and_the_pool_names_the_spender_L742_L773():
    """L742: one Drama point per character on a check — a target who spent it through the queue
    cannot also tick the attack's own option."""
    attacker = Character(name="Бандит", strength=3, melee=3, is_player_character=False)
    target = Character(name="Аня", stamina=1)
    SYSTEM.spend_drama_against(target, attacker)
    odds = SYSTEM.attack_odds(attacker, target, "unarmed")
    assert "Drama spent against it: Аня 3" in odds.notes[0]["en"] and "Драма против: Аня 3" in odds.notes[0]["ru"]
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(attacker, target, "unarmed", defender_drama=True)
    assert err.value.code == "drama_twice"
    with pytest.raises(RuleError):
        SYSTEM.spend_drama_against(target, target)  # on one's own check Drama is the +3


# -- 7. illness retries after a day, substances after an hour (L711) ---------------------------
def test_illness_retries_after_a_day_and_substances_after_an_hour_L711():
    """L711: «повторную попытку можно совершить через час (для веществ) или день (болезни)».
    The audit found ``data/conditions.json`` knowing only "hour"."""
    assert conditions.condition_entry("sickness", cause="illness")["retry_interval"] == "day"
    assert conditions.condition_entry("sickness", cause="substance")["retry_interval"] == "hour"
    spec = conditions.condition_spec("sickness")
    assert spec.data["retry_intervals"] == {"substance": "hour", "illness": "day"}
    c = Character()
    SYSTEM.condition_changed(c, "sickness", True, cause="illness")
    assert c.conditions[0]["retry_interval"] == "day" and c.conditions[0]["cause"] == "illness"
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "sickness", True, cause="curse")
    with pytest.raises(RuleError):
        conditions.condition_entry("phobia", cause="illness")  # only sickness has a cause


# -- 8. the loose ends ----------------------------------------------------------------------------
def test_attack_with_several_targets_subtracts_the_highest_physical_defence_L51():
    """L51: against several targets the highest defence is subtracted; ``targets_pd`` was ignored."""
    a, t = Character(strength=4, melee=4), Character(stamina=1)
    r = SYSTEM.attack(a, t, "unarmed", targets_pd=[3, 5], rng=FixedRng(*SIX))
    assert r.details["opposition"] == 5 and r.details["pool"] == 3


def test_bad_target_defences_get_a_bilingual_error_L51():
    """The tray's «Defences of several targets» is typed text: a slip is told in both languages."""
    a, t = Character(strength=4, melee=4), Character(stamina=1)
    for bad in ("2, x", [2, -1], [True]):
        with pytest.raises(RuleError) as err:
            SYSTEM.attack(a, t, "unarmed", targets_pd=bad, rng=FixedRng(*SIX))
        assert err.value.message["ru"].startswith("Укажите защиты целей") and err.value.message["en"]
    with pytest.raises(RuleError):
        SYSTEM.chance(a, "sneak", targets="1, два")


def test_attack_odds_damage_stops_at_the_health_left_L93_L722():
    """L93: successes come off the target's health levels, «Когда уровни здоровья цели исчерпаны»
    it is out; the damage taken cannot be more than the health left (a bear's 10.5 average
    against 10 Health)."""
    bear = Character(name="Медведь", strength=12, melee=12, is_player_character=False)
    target = Character(name="Аня", stamina=1, size=5)
    odds = SYSTEM.attack_odds(bear, target, "unarmed")  # 12 + 12 - 1 = 23 dice
    assert max(odds.damage) == 10 and odds.damage.mean <= 10
    assert odds.p_defeat == sum(p for d, p in odds.damage.items() if d >= 10)
    SYSTEM.apply_damage(target, 7)
    assert max(SYSTEM.attack_odds(bear, target, "unarmed").damage) == 3
    outcome = SYSTEM.resolve_attack(bear, target, "unarmed", rng=random.Random(1))
    assert outcome.damage == 3


def test_the_active_problem_and_advantage_help_no_longer_says_checks_apply_them_by_default():
    """Spec §11 #43: only Pain applies by itself; the active markers are offered unticked."""
    for name in ("active_problem", "active_advantage"):
        help_text = Character.class_traits()[name].help
        assert "by default" not in help_text and "auto_sheet_modifiers" in help_text


def test_an_average_character_cannot_suppress_pain_at_five_damage_under_either_reading_L708():
    """L708: difficulty = the damaged levels, 5 at half of 10; Stamina 2 and Athletics 2 (average,
    L128, L134): 2 + 2 - 5 - 3 (Pain's own -3) = -4, or 2 + 2 - 5 = -1 without it: impossible."""
    c = Character(stamina=2, athletics=2)
    SYSTEM.apply_damage(c, 5)
    assert SYSTEM.pool_plan(c, "suppress_pain").pool == -4
    assert SYSTEM.chance(c, "suppress_pain") == 0
    other = SYSTEM.with_rules(pain_penalises_own_suppression=False)
    assert other.pool_plan(c, "suppress_pain").pool == -1 and other.chance(c, "suppress_pain") == 0


def test_after_a_failed_suppression_new_damage_allows_a_new_try_and_the_gm_may_say_no_L708():
    """L708 allows a new try after new damage «при успехе»; §11 #7 reads it after a failure too
    (default) and the GM option ``pain_retry_after_new_damage`` says no."""
    for rules, again in ((SYSTEM, True), (SYSTEM.with_rules(pain_retry_after_new_damage=False), False)):
        c = Character(stamina=5, athletics=5)
        rules.apply_damage(c, 5)
        assert not rules.suppress_pain(c, rng=FixedRng(1, 1)).success  # 5 + 5 - 5 - 3 = 2 dice
        rules.apply_damage(c, 1)
        if again:
            assert rules.suppress_pain(c, rng=FixedRng(6)).success  # 5 + 5 - 6 - 3 = 1 die
        else:
            with pytest.raises(RuleError):
                rules.suppress_pain(c, rng=FixedRng(6))
