"""The gaps closed after the first pass: active Problem/Advantage markers (§10.1), queued modifiers
consumed by checks (§7.10), automatic conditions (§7.3, L687, L775), going out at 0 health and
leaving the fight (§6.5, §10.3, §11 #26), the tracker hooks and the named ``pool`` word."""

import random

import pytest

from tabletop_widgets.core import DamageOutcome, RuleError, ValidationError
from tabletop_widgets.dice import DiceError
from tabletop_widgets.dice.words import WordContext
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons import conditions
from tabletop_systems.seasons.words import parse_pool
from helpers import FixedRng

#: the GM option that makes Problem / Advantage / conditions apply without ticking (§11 #43 off by default)
AUTO = SYSTEM.with_rules(auto_sheet_modifiers=True)


def pool(c, check_id="wits+investigation", **options):
    return SYSTEM.pool_plan(c, check_id, **options).pool


def keys(c, check_id="wits+investigation", **options):
    return [k for k, _, _ in SYSTEM.pool_plan(c, check_id, **options).terms]


def apool(c, check_id="wits+investigation", **options):
    """``pool`` with auto_sheet_modifiers on."""
    return AUTO.pool_plan(c, check_id, **options).pool


def akeys(c, check_id="wits+investigation", **options):
    return [k for k, _, _ in AUTO.pool_plan(c, check_id, **options).terms]


# -- (1) active Problem / Advantage ---------------------------------------------------------------
def test_active_markers_apply_when_auto_and_options_override():
    base = Character(wits=3, investigation=2)
    c = Character(
        wits=3,
        investigation=2,
        problems=["Curious"],
        advantages=["Sharp eyes"],
        active_problem="Curious",
        active_advantage="Sharp eyes",
    )
    assert apool(c) == pool(base)  # +3 - 3
    assert "advantage" in akeys(c) and "problem" in akeys(c)
    assert apool(c, problem=False) == pool(base) + 3
    assert apool(c, advantage=0) == pool(base) - 3
    assert apool(c, advantage=0, problem=False) == pool(base)
    c.update(active_problem="")
    assert apool(c) == pool(base) + 3
    r = AUTO.roll_check(c, "wits+investigation", rng=random.Random(1))
    assert r.details["sheet_defaults"]["active_advantage"] == "Sharp eyes"
    # the tray's option defaults show them
    spec = AUTO.check(c, "wits+investigation")
    assert spec.option("advantage").default == 1 and spec.option("problem").default is False


def test_active_markers_persist_and_unlisted_marker_is_ignored_with_a_warning():
    c = Character(problems=["Greedy"], active_problem="Greedy")
    d = c.to_dict()
    assert d["active_problem"] == "Greedy" and Character.from_dict(d).active_problem == "Greedy"
    c.update(problems=[])  # removing the active item never fails
    assert c.active_problem == "Greedy" and "problem" not in keys(c)
    probs = Character.check_values({**{n: getattr(c, n) for n in c.persisted_traits()}})
    assert [p.severity for p in probs if p.code == "active_not_listed"] == ["warning"]
    with pytest.raises(ValidationError):
        c.update(active_advantage=3)


def test_active_markers_do_not_touch_threats_and_are_on_the_sheet():
    c = Character(advantages=["Tough"], active_advantage="Tough")
    assert pool(c, "threat", dice=8) == 8 - c.physical_defence
    f = SYSTEM.sheet.field("active_problem")
    assert f.kind == "choice" and f.choices_from == "problems"
    assert SYSTEM.sheet.field("active_advantage").choices_from == "advantages"


def test_active_marker_chance_matches_the_pool():
    c = Character(wits=2, investigation=1, advantages=["A"], active_advantage="A")
    assert AUTO.chance(c, "wits+investigation", difficulty=3) == 1 - __import__("fractions").Fraction(1, 2**3)


# -- (2) queued bonuses / penalties ---------------------------------------------------------------
def test_roll_check_consumes_the_relevant_queue_and_reports_it():
    c = Character(wits=3, investigation=2, dexterity=2, ranged=2)
    SYSTEM.add_pending(c, "aim", 2, "shooting")
    SYSTEM.add_pending(c, "inspired", 3)
    SYSTEM.add_pending(c, "frightened", -3, "mental")
    base = Character(wits=3, investigation=2)
    assert pool(c) == pool(base) + 3 - 3  # preview: inspired (any) + frightened (mental); aim not
    before = (list(c.pending_bonus_dice), list(c.pending_penalties))
    SYSTEM.check_distribution(c, "wits+investigation")
    assert (c.pending_bonus_dice, c.pending_penalties) == before  # odds never consume
    r = SYSTEM.roll_check(c, "wits+investigation", rng=random.Random(2))
    consumed = r.details["pending_consumed"]
    assert {(x["source"], x["dice"]) for x in consumed} == {("inspired", 3), ("frightened", -3)}
    assert c.pending_bonus_dice == [{"source": "aim", "dice": 2, "applies_to": "shooting"}]
    assert c.pending_penalties == []
    assert r.details["pool"] == pool(base)
    SYSTEM.restore_pending(c, consumed)
    assert len(c.pending_bonus_dice) == 2 and len(c.pending_penalties) == 1


def test_pending_false_keeps_the_queue():
    c = Character()
    SYSTEM.add_pending(c, "inspired", 3)
    r = SYSTEM.roll_check(c, "wits+investigation", rng=random.Random(1), pending=False)
    assert "pending_consumed" not in r.details and len(c.pending_bonus_dice) == 1


def test_previous_successes_reach_attacks_unless_the_narrow_reading_and_aim_option_wins():
    c = Character(strength=3, melee=2)
    SYSTEM.add_pending(c, "previous successes", 2)
    assert "pending:previous successes" in keys(c, "armed_attack", difficulty=2)  # L771 (audit 3)
    narrow = SYSTEM.with_rules(previous_successes_reach="single_success_checks")
    plan = narrow.pool_plan(c, "armed_attack", difficulty=2)
    assert "pending:previous successes" not in [k for k, _, _ in plan.terms]  # §11 #36
    assert "pending:previous successes" in keys(c, "strength+athletics")
    d = Character(dexterity=3, ranged=2)
    SYSTEM.add_pending(d, "aim", 2)
    assert "pending:aim" not in keys(d, "shooting", aim=True) and "aim" in keys(d, "shooting", aim=True)
    r = SYSTEM.roll_check(d, "shooting", rng=random.Random(1), aim=True)
    assert d.pending_bonus_dice and "pending_consumed" not in r.details


def test_threat_rolls_never_consume_the_queue():
    c = Character()
    SYSTEM.add_pending(c, "inspired", 3)
    SYSTEM.threat(c, 6, rng=random.Random(3))
    assert len(c.pending_bonus_dice) == 1


# -- (3) conditions apply by themselves -------------------------------------------------------------
def test_conditions_apply_to_the_checks_they_affect_and_stack():
    c = Character(
        wits=3, investigation=2, strength=3, athletics=2, conditions=[conditions.condition_entry("fixation")]
    )  # all mental checks
    assert apool(c) == 5 - 3 - 3
    assert apool(c, "strength+athletics") == 5 - 3
    c.update(conditions=[*c.conditions, conditions.condition_entry("phobia")])  # all checks
    assert apool(c) == 5 - 6 - 3 and apool(c, "strength+athletics") == 5 - 3 - 3
    assert apool(c, condition_1=False, condition_2=False) == 5 - 3  # unticking still overrides
    assert apool(c, condition_1=False, conditions=1) == 5 - 6 - 3  # one more not on the sheet
    spec = AUTO.check(c, "wits+investigation")
    assert spec.option("condition_1").default is True and spec.option("condition_2").default is True
    assert spec.option("conditions").default == 0


def test_condition_category_decides_sickness_and_pain_is_never_counted_twice():
    c = Character(
        presence=3,
        persuasion=2,
        strength=3,
        athletics=2,
        conditions=[conditions.condition_entry("sickness", category="social")],
    )
    assert apool(c, "presence+persuasion") == 5 - 3 - 3 and apool(c, "strength+athletics") == 5 - 3
    c = Character(damage=5, conditions=[conditions.condition_entry("pain")])
    assert keys(c, "strength+athletics").count("pain") == 1 and "conditions" not in keys(c, "strength+athletics")


def test_condition_changed_adds_and_removes_sheet_conditions():
    c = Character(wits=3, investigation=2)
    out = AUTO.condition_changed(c, "fixation", True, removal_difficulty=5, duration=3)
    assert isinstance(out, DamageOutcome) and "conditions" in out.changes
    assert c.conditions[0]["id"] == "fixation" and c.conditions[0]["removal_difficulty"] == 5
    assert apool(c) == 5 - 3 - 3
    AUTO.condition_changed(c, "fixation", True)
    assert apool(c) == 5 - 6 - 3  # two instances stack
    AUTO.condition_changed(c, "fixation", False)
    AUTO.condition_changed(c, "fixation", False)
    assert c.conditions == [] and AUTO.condition_changed(c, "fixation", False) is None
    assert AUTO.condition_changed(c, "pain", True) is None
    assert AUTO.condition_changed(c, "exposed", True, dice=8) is None


def test_condition_changed_refuses_bad_input_and_changes_nothing():
    c = Character()
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "leprosy", True)
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "phobia", True, removal_difficulty=-1)
    assert c.conditions == []


def test_a_condition_does_not_hinder_its_own_shaking_off():
    c = Character(
        composure=3,
        empathy=2,
        conditions=[
            conditions.condition_entry("emotional_sway", removal_difficulty=1),
            conditions.condition_entry("phobia"),
        ],
    )
    r = SYSTEM.shake_off_condition(c, 0, rng=FixedRng(7))
    assert r.details["pool"] == 5 - 1 - 3 and r.success and [x["id"] for x in c.conditions] == ["phobia"]
    with pytest.raises(RuleError):
        SYSTEM.shake_off_condition(c, 5)


# -- (4) going out ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rule,state",
    [("storyteller_choice", "out"), ("death", "dead"), ("incapacitated", "incapacitated"), ("captured", "captured")],
)
def test_zero_health_outcome_sets_out_state(rule, state):
    c = Character(damage=8)
    out = SYSTEM.with_rules(zero_health_outcome=rule).apply_damage(c, 5)
    assert out.defeated and c.out_state == state and out.state["id"] == state
    assert out.changes["out_state"] == ("", state) and SYSTEM.is_defeated(c)


def test_per_blow_outcome_and_bad_outcome_changes_nothing():
    c = Character(damage=9)
    with pytest.raises(RuleError):
        SYSTEM.apply_damage(c, 2, outcome="exploded")
    assert c.damage == 9 and c.out_state == ""
    out = SYSTEM.apply_damage(c, 2, outcome="captured")
    assert c.out_state == "captured" and any("captured" in n["en"] for n in out.notes)
    assert [o.name for o in SYSTEM.damage_options(c)] == ["quick_fight_mook", "outcome"]


def test_healing_brings_the_out_back_but_not_the_dead_or_the_captive():
    c = Character(damage=10, out_state="out")
    out = SYSTEM.apply_healing(c, 1)
    assert c.out_state == "" and not out.defeated and out.state["id"] == "pain"
    dead = Character(damage=10, out_state="dead")
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(dead, 1)
    assert dead.damage == 10
    captive = Character(damage=10, out_state="captured")
    out = SYSTEM.apply_healing(captive, 2)
    assert captive.out_state == "captured" and out.defeated


def test_fled_and_surrendered_defeat_with_health_left():
    c = Character(damage=2)
    out = SYSTEM.condition_changed(c, "fled", True)
    assert out.defeated and c.defeated and SYSTEM.is_defeated(c) and out.state["id"] == "fled"
    assert SYSTEM.condition_changed(c, "fled", True) is None
    out = SYSTEM.condition_changed(c, "fled", False)
    assert not out.defeated and c.out_state == ""
    SYSTEM.leave_fight(c, "surrendered")
    assert SYSTEM.health_state(c)["id"] == "surrendered" and SYSTEM.is_defeated(c)
    with pytest.raises(RuleError):
        SYSTEM.leave_fight(c, "teleported")
    down = Character(damage=10, out_state="out")
    with pytest.raises(RuleError):
        SYSTEM.leave_fight(down, "")
    with pytest.raises(ValidationError):
        c.update(out_state="asleep")


# -- (5) hooks ----------------------------------------------------------------------------------------
def test_healing_options_and_sources():
    opts = SYSTEM.healing_options(Character())
    assert [o.name for o in opts] == ["source"]
    assert {v for v, _ in opts[0].choices} == {"other", "rest", "first_aid", "treatment"}
    c = Character(damage=4)
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, 1, source="first_aid")  # not damaged this scene
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, 1, source="magic")
    SYSTEM.apply_damage(c, 1)
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, 2, source="first_aid")
    out = SYSTEM.apply_healing(c, 1, source="first_aid")
    assert c.damage == 4 and c.first_aid_used_this_scene and out.changes["first_aid_used_this_scene"] == (False, True)
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, 1, source="first_aid")
    SYSTEM.apply_healing(c, 2, source="treatment")
    assert c.treated_today and c.damage == 2
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, 1, source="treatment")


def test_on_turn_exposed_rolls_the_threat_at_the_start():
    c = Character(stamina=3)
    conds = [{"id": "exposed", "duration": None, "data": {"dice": 8}}]
    out = SYSTEM.on_turn(c, "start", rng=FixedRng(6, 7, 1, 2, 9), conditions=conds)  # 8 - PD 3 = 5 dice
    assert c.damage == 3 and out.changes["damage"] == (0, 3) and out.details["threats"][0]["damage"] == 3
    assert SYSTEM.on_turn(c, "end", rng=FixedRng(), conditions=conds) is None
    assert SYSTEM.on_turn(c, "start", rng=FixedRng(), conditions=[{"id": "phobia", "data": {}}]) is None
    with pytest.raises(ValueError):
        SYSTEM.on_turn(c, "middle")
    with pytest.raises(RuleError):
        SYSTEM.on_turn(c, "start", conditions=[{"id": "exposed", "data": {"dice": -1}}])


def test_on_turn_exposure_can_take_a_character_out():
    c = Character(stamina=1, damage=9)
    out = SYSTEM.on_turn(c, "start", rng=FixedRng(*[10] * 9), conditions=[{"id": "exposed", "data": {"dice": 10}}])
    assert out.defeated and c.out_state == "out"


def test_tiebreaks_name_their_ids():
    group = {"a": Character(intelligence=3), "b": Character(intelligence=3), "c": Character(intelligence=1)}
    order = SYSTEM.roll_initiative(group, rng=FixedRng(4, 9))
    assert list(order.order) == ["b", "a", "c"] and order.tiebreaks[0]["ids"] == ["b", "a"]


def test_roll_initiative_previous_keeps_the_order_and_inserts_late_joiners():
    group = {"a": Character(intelligence=3), "b": Character(intelligence=3), "c": Character(intelligence=1)}
    first = SYSTEM.roll_initiative(group, rng=FixedRng(4, 9))
    assert SYSTEM.roll_initiative(group, rng=FixedRng(), previous=first) is first
    late = {**group, "d": Character(intelligence=2)}
    del late["a"]
    nxt = SYSTEM.roll_initiative(late, rng=FixedRng(), previous=first)
    assert list(nxt.order) == ["b", "d", "c"] and nxt.tiebreaks[-1]["ids"] == ["d"]
    again = SYSTEM.with_rules(reroll_ties_each_round=True).roll_initiative(group, rng=FixedRng(9, 4), previous=first)
    assert list(again.order) == ["a", "b", "c"]
    with pytest.raises(ValueError):
        SYSTEM.roll_initiative(group, rng=FixedRng(), surprise=True)


# -- (6) the named pool word ------------------------------------------------------------------------
def parse(text, character=None):
    return parse_pool(text, 0, len(text), context=WordContext(character=character))


def test_pool_word_named_check_uses_the_bound_character():
    c = Character(wits=3, investigation=2)
    e = parse("pool wits+investigation diff 3", c)
    assert e.pool == 2 and e.distribution().p_pass == SYSTEM.chance(c, "wits+investigation", difficulty=3)
    e = parse("pool wits+investigation+2[lens]-1 diff 3", c)
    assert e.pool == 3 and ("lens", 2) in e.terms
    assert parse("pool sneak diff 1", Character(dexterity=2, larceny=1)).pool == 2
    r = e.roll(random.Random(1))
    assert 0 <= r.total <= 3


def test_pool_word_named_check_reads_pain_but_not_unticked_modifiers_nor_the_queue():
    # default rules (§11 #43): Pain applies by itself; the active Advantage only when ticked
    c = Character(wits=3, investigation=2, damage=5, advantages=["A"], active_advantage="A")
    SYSTEM.add_pending(c, "inspired", 3)
    assert parse("pool wits+investigation diff 3", c).pool == 5 - 3 - 3
    assert len(c.pending_bonus_dice) == 1


@pytest.mark.parametrize(
    "text,character",
    [("pool wits+investigation diff 3", None), ("pool wits+nothing", Character()), ("pool threat", Character())],
)
def test_pool_word_named_check_errors(text, character):
    with pytest.raises(DiceError) as exc:
        parse(text, character)
    assert exc.value.position == 5


def test_plain_pool_word_still_works_without_a_character():
    assert parse("pool 3+2 diff 1").pool == 4


def test_queued_aim_and_help_respect_their_caps():
    c = Character(dexterity=3, ranged=2)
    SYSTEM.add_pending(c, "aim", 2)
    SYSTEM.add_pending(c, "aim", 2)
    plan = SYSTEM.pool_plan(c, "shooting", difficulty=0)
    assert dict((k, v) for k, _, v in plan.terms)["pending:aim"] == 2 and plan.warnings  # §11 #33
    h = Character(wits=3, investigation=2)
    for _ in range(3):
        SYSTEM.add_pending(h, "help", 1)
    plan = SYSTEM.pool_plan(h, "wits+investigation", help=4)
    terms = dict((k, v) for k, _, v in plan.terms)
    assert terms["help"] + terms["pending:help"] == 5  # L767: +1 each, at most +5
    r = SYSTEM.roll_check(h, "wits+investigation", rng=random.Random(1), help=4)
    assert len(r.details["pending_consumed"]) == 3 and h.pending_bonus_dice == []


def test_validate_warns_about_an_unlisted_active_marker():
    c = Character(advantages=["A"], active_advantage="B")
    probs = [p for p in SYSTEM.validate(c) if p.code == "active_not_listed"]
    assert len(probs) == 1 and probs[0].field == "active_advantage" and probs[0].message["ru"]


def test_condition_penalty_uses_the_condition_scopes():
    c = Character(conditions=[conditions.condition_entry("fixation"), conditions.condition_entry("megalomania")])
    assert SYSTEM.condition_penalty(c) == -6
    assert SYSTEM.condition_penalty(c, "mental") == -3 and SYSTEM.condition_penalty(c, "physical") == 0
    free = Character(conditions=[{"name": "Drunk", "kind": "physical"}])  # free text: all checks
    assert SYSTEM.condition_penalty(free, "social") == -3


def test_unused_queued_help_lapses_at_the_end_of_the_turn():
    c = Character()
    SYSTEM.add_pending(c, "help", 1)
    SYSTEM.add_pending(c, "aim", 2)
    out = SYSTEM.on_turn(c, "end", rng=FixedRng())
    assert c.pending_bonus_dice == [{"source": "aim", "dice": 2, "applies_to": ""}]
    assert out.changes["pending_bonus_dice"][0][0]["source"] == "help" and out.details["lapsed"]
    assert SYSTEM.on_turn(c, "end", rng=FixedRng()) is None


@pytest.mark.parametrize("auto", [True, False])
def test_auto_sheet_modifiers_readings(auto):
    """§11 #43 literally (False): markers and conditions only when ticked; the queue is still used."""
    system = SYSTEM.with_rules(auto_sheet_modifiers=auto)
    c = Character(
        wits=3, investigation=2, problems=["P"], active_problem="P", conditions=[conditions.condition_entry("phobia")]
    )
    SYSTEM.add_pending(c, "inspired", 3)
    plan = system.pool_plan(c, "wits+investigation", difficulty=0)
    assert plan.pool == (5 - 3 - 3 + 3 if auto else 5 + 3)
    assert system.pool_plan(c, "wits+investigation", difficulty=0, problem=True, condition_1=True).pool == 5 - 3 - 3 + 3
    spec = system.check(c, "wits+investigation")
    assert spec.option("problem").default is auto and spec.option("condition_1").default is auto
