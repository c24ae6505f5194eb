"""Gaps closed after the first pass: character-bound %roll names and ``prob`` (spec §5.15), the
tracker hooks (healing options, per-turn effects, conditions mirrored on the sheet, initiative
skip_rounds / effects / tie-break ids), tracker-side rules (extra turns and defence refusal §6.4,
cover / hide / aim cancelling, end of combat and loot §6.14, Speed and initiative L729) and
items that roll themselves."""

from fractions import Fraction as F
import random

import pytest

from tabletop_systems.ret import SYSTEM, Character, chance_at_least, level_roll
from tabletop_systems.ret import combat
from tabletop_systems.ret.checks import FAIL_KEY
from tabletop_widgets.core import RuleError
from tabletop_widgets.dice import DiceError, distribution, roll
from tabletop_widgets.dice.words import WordContext

from ret_testkit import Scripted

WORDS = {w.name: w for w in SYSTEM.dice_words()}


def hero(**kw):
    c = Character(attention=5, intuition=3, physique=4, fine_motor=4, **kw)
    c.abilities = [
        {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3},
        {"name": "Safe Cracking", "kind": "skill", "base_param": "wits", "level": 2},
        {"name": "Hacking", "kind": "talent", "base_param": "wits", "level": 4},
    ]
    c.luck = 3
    return c


def bound(c):
    return WordContext(character=c)


# ------------------------------------------------------------------------------------------------
# §5.15 character-bound names
# ------------------------------------------------------------------------------------------------
def test_words_registered():
    assert list(WORDS) == ["L", "ret_check", "prob"]
    for w in WORDS.values():
        assert w.system == "ret" and w.help["en"] and w.help["ru"] and w.examples
    chk = WORDS["ret_check"].pattern
    assert chk.match("agility") and chk.match("Agility") and chk.match('skill "x"') and chk.match("ловкость")
    assert not chk.match("agile") and not chk.match("body_controls") and not chk.match("L5")
    assert chk.match("body_control").group() == "body_control"


def test_param_roll_matches_roll_check():
    c = hero()
    r = roll("attention", rng=Scripted(7), variables=bound(c))
    ref = SYSTEM.roll_check(c, "attention", rng=Scripted(7))
    assert r.total == ref.total == 7 and r.tree.details["check_id"] == "attention"
    assert "Attention" in r.notes[0]["en"] and "Внимание" in r.notes[0]["ru"]
    assert roll("ловкость +2", rng=Scripted(5), variables=bound(c)).total == 7  # agility L4 (d8)


@pytest.mark.parametrize(
    "text,check_id,options",
    [
        ('skill "Lockpicking" luck 1', "skill:Lockpicking", {"luck": 1}),
        ("skill Lockpicking >= 8", "skill:Lockpicking", {"difficulty": 8}),
        ('skill:"Safe Cracking" +2 dl-1', "skill:Safe Cracking", {"bonus": 2, "shift": -1}),
        ("навык «Safe Cracking» удача 2", "skill:Safe Cracking", {"luck": 2}),
        ('talent "Hacking" difficulty high', "talent:Hacking", {"difficulty": 16}),
        ("talent Hacking >= very high shift -2", "talent:Hacking", {"difficulty": 20, "shift": -2}),
        ("attention luck 2 >= 8", "attention", {"luck": 2, "difficulty": 8}),
        ("dodge +2[cover] -1 +1[luck]", "dodge", {"bonus": 1, "luck": 1}),
    ],
)
def test_named_check_forms(text, check_id, options):
    c = hero()
    e = WORDS["ret_check"].parse(text, 0, len(text), context=bound(c))
    assert e.check_id == check_id and e.request == options
    d = e.distribution()
    ref = SYSTEM.check_distribution(c, check_id, **options)
    assert dict(d) == dict(ref) and d.p_pass == ref.p_pass


def test_named_check_exact_odds_and_effects():
    c = hero()
    assert distribution("attention luck 2 >= 8", variables=bound(c)).p_pass == chance_at_least(
        5, 8, luck=2, options=SYSTEM.rules
    )
    r = roll('skill "Lockpicking" luck 1', rng=Scripted(1, 3), variables=bound(c))  # a fail burns the Luck
    assert r.tree.details["fail"] and ("luck", -1) in r.tree.details["effects"]
    assert "not applied" in r.notes[1]["en"] and "не применены" in r.notes[1]["ru"]
    assert c.luck == 3  # %roll never applies
    assert len(roll("3#agility", rng=random.Random(2), variables=bound(c)).results) == 3


def test_named_check_token_and_conditions():
    c = hero(tokens=[{"name": "Focus", "kind": "flat", "amount": 2}], conditions=[{"id": "stunned"}])
    r = roll("attention token Focus", rng=Scripted(4), variables=bound(c))
    assert r.total == 6 and r.tree.details["chain"][0][0] == 8  # stunned: d10 -> d8


@pytest.mark.parametrize(
    "text,variables,en,ru",
    [
        ("agility", None, "bind a RET character", "привяжите персонажа"),
        ("agility", {}, "bind a RET character", "привяжите персонажа"),
        ("agility", WordContext(character=object()), "not a RET character", "не из Р.Э.Т."),
        ('skill "Nope"', "hero", "no skill named", "нет способности"),
        ("talent Lockpicking", "hero", "no talent named", "нет способности"),
        ("agility luck 9", "hero", "only 3 Luck", "не больше 3"),
        ("skill", "hero", "expected the skill's name", "ожидалось имя способности"),
        ('skill "Lock', "hero", "missing closing", "нет закрывающей"),
        ("agility foo", "hero", "unexpected 'foo'", "неожиданное 'foo'"),
        ("agility >= nonsense", "hero", "expected a difficulty", "ожидалась сложность"),
        ("agility >=", "hero", "expected a difficulty", "ожидалась сложность"),
        ("dodge +1[luck] luck 3", "hero", "only 3 Luck", "не больше 3"),
        ("attention token Nope", "hero", "No token named", "Нет токена"),
    ],
)
def test_named_check_errors(text, variables, en, ru):
    if variables == "hero":
        variables = bound(hero())
    with pytest.raises(DiceError) as info:
        roll(text, variables=variables)
    assert en in info.value.text("en") and ru in info.value.text("ru")


def test_named_check_error_positions():
    with pytest.raises(DiceError) as info:
        roll("  agility foo", variables=bound(hero()))
    assert info.value.position == 10
    with pytest.raises(DiceError) as info:
        roll("agility", variables=None)
    assert info.value.position == 0


# ------------------------------------------------------------------------------------------------
# §5.15 ``prob``
# ------------------------------------------------------------------------------------------------
def test_prob_word_threshold():
    r = roll("prob L5+3 >= 8")
    assert r.tree.details["p_pass"] == chance_at_least(5, 8, bonus=3, options=SYSTEM.rules) == F(3, 5)
    assert "P(L5+3 >= 8) = 3/5" in r.tree.breakdown["en"] and "60.00%" in r.tree.breakdown["ru"]
    assert distribution("prob L5+3 >= 8").p_pass == F(3, 5)


def test_prob_word_forms():
    c = hero()
    r = roll("prob attention luck 2 >= 8", variables=bound(c))
    assert r.tree.details["p_pass"] == chance_at_least(5, 8, luck=2, options=SYSTEM.rules)
    r = roll("prob L5")
    assert r.tree.details["p_pass"] is None and "fail: 1/10" in r.tree.breakdown["en"]
    assert "провал: 1/10" in r.tree.breakdown["ru"]
    assert r.tree.details["distribution"][FAIL_KEY] == F(1, 10)
    assert roll("prob L4 vs L3").tree.details["p_pass"] == distribution("L4 vs L3").p_pass
    assert roll("prob 2d6 >= 7").tree.details["p_pass"] == F(7, 12)


@pytest.mark.parametrize(
    "text,pos,en",
    [
        ("prob", 4, "prob needs an expression"),
        ("prob L9", 6, "level 9 is out of range"),
        ("prob L5 >=", 10, "expected a difficulty"),
    ],
)
def test_prob_word_errors(text, pos, en):
    with pytest.raises(DiceError) as info:
        roll(text)
    assert en in info.value.text("en") and info.value.text("ru") != info.value.text("en")
    assert info.value.position == pos


# ------------------------------------------------------------------------------------------------
# Healing options
# ------------------------------------------------------------------------------------------------
def test_healing_options():
    c = Character(items=[{"name": "Medkit", "preset": "medkit", "charges": 5}, {"name": "Rope", "kind": "gear"}])
    opts = {o.name: o for o in SYSTEM.healing_options(c)}
    assert set(opts) == {"resource", "stabilise", "item"}
    assert [v for v, _ in opts["resource"].choices] == ["health", "sanity"]
    assert [v for v, _ in opts["item"].choices] == ["", "Medkit"]
    assert opts["item"].choices[1][1] == {"en": "Medkit (Health)", "ru": "Medkit (Здоровье)"}
    assert "item" not in {o.name for o in SYSTEM.healing_options(Character())}


def test_heal_sanity_and_errors():
    c = Character()
    c.sanity = 1
    out = SYSTEM.apply_healing(c, 3, resource="sanity")
    assert c.sanity == 4 and out.changes["sanity"] == (1, 4)
    for bad in ({"resource": "luck"}, {"resource": "health", "item": "Nothing"}):
        with pytest.raises(RuleError) as info:
            SYSTEM.apply_healing(c, 3, **bad)
        assert info.value.message["ru"]
    with pytest.raises(RuleError):
        SYSTEM.apply_healing(c, -2)
    assert c.sanity == 4


@pytest.mark.parametrize("stabilise", [True, False])
def test_heal_stabilise(stabilise):
    c = Character()
    c.health = -5
    out = SYSTEM.apply_healing(c, 2, stabilise=stabilise)
    assert c.health == -3 and c.stabilised_health is stabilise
    assert out.details["survival_roll"] is (not stabilise)


def test_heal_with_item_total_and_wrong_resource():
    c = Character(physique=5, endurance=5, items=[{"name": "Medkit", "preset": "medkit", "charges": 5}])
    c.health = 1
    SYSTEM.apply_healing(c, 7, item="Medkit", in_combat=False)  # 3 + 7//4 + 2
    assert c.health == 7 and c.items[0]["charges"] == 4
    c.health = 1
    out = SYSTEM.apply_healing(c, 7, item="Medkit", resource="sanity", in_combat=False)  # the item decides
    assert c.health == 7 and c.items[0]["charges"] == 3
    assert out.notes[-1] == {"en": "Medkit restores health", "ru": "«Medkit» восстанавливает Здоровье"}
    c.items = list(c.items) + [{"name": "Stone", "preset": "mana_stone", "charges": 7}]
    with pytest.raises(RuleError) as info:
        SYSTEM.apply_healing(c, 7, item="Stone")
    assert "does not restore" in info.value.message["en"] and c.items[1]["charges"] == 7


# ------------------------------------------------------------------------------------------------
# Items that roll themselves
# ------------------------------------------------------------------------------------------------
def test_use_item_rolls_healer():
    c = Character(
        physique=7,
        endurance=7,
        fine_motor=5,
        body_control=5,
        items=[{"name": "Medkit", "preset": "medkit", "charges": 5}],
    )
    c.health = 1
    out = SYSTEM.use_item(c, "Medkit", rng=Scripted(8), in_combat=False)  # Fine Motor L5 (d10)
    assert out.details["total"] == 8 and out.details["amount"] == 3 + 8 // 4 + 2
    assert c.health == 8 and out.details["roll"].check_id == "fine_motor"


def test_use_item_roll_fail_and_its_luck():
    c = Character(items=[{"name": "Shot", "preset": "adrenaline"}])
    c.sanity, c.luck = 1, 0
    out = SYSTEM.use_item(c, "Shot", rng=Scripted(1, 3))  # Endurance fails
    assert out.details["amount"] == 0 and c.sanity == 1 and c.items == []
    assert c.luck == 1 and out.changes["luck"] == (0, 1)  # Luck for a fail
    c = Character(items=[{"name": "Shot", "preset": "adrenaline"}])
    c.sanity = 1
    SYSTEM.with_rules(divider_on_fail="base").use_item(c, "Shot", rng=Scripted(1, 3))
    assert c.sanity == 3  # A10: base on a fail


@pytest.mark.parametrize("reading,roller", [("healer", "healer"), ("patient_endurance", "patient")])
def test_use_item_A30_who_rolls(reading, roller):
    healer = Character(fine_motor=7, body_control=7, items=[{"name": "Medkit", "preset": "medkit", "charges": 5}])
    patient = Character(physique=3, endurance=3)
    patient.health = 0
    out = SYSTEM.with_rules(medkit_roll=reading).use_item(
        healer, "Medkit", rng=Scripted(4), in_combat=False, target=patient
    )
    assert out.details["roll"].check_id == ("fine_motor" if roller == "healer" else "endurance")
    assert out.details["roll"].details["die"] == ("d20" if roller == "healer" else "d6")
    assert patient.health == 6 and healer.items[0]["charges"] == 4


def test_use_item_refusal_changes_nothing():
    c = Character(items=[{"name": "Medkit", "preset": "medkit", "charges": 0}])
    with pytest.raises(RuleError) as info:
        SYSTEM.use_item(c, "Medkit", rng=Scripted(), in_combat=False)
    assert info.value.code == "no_charges" and c.items[0]["charges"] == 0


def test_berserk_potion_bonus_reported():
    c = Character(physique=7, endurance=7, items=[{"name": "B", "preset": "berserk_potion"}])
    out = SYSTEM.use_item(c, "B", rng=Scripted(9))  # Endurance L7 (d20)
    assert out.details["bonus"] == 9 // 4 + 2 and c.items == []


# ------------------------------------------------------------------------------------------------
# on_turn
# ------------------------------------------------------------------------------------------------
def test_on_turn_burning_through_armour_bleeding_not():
    c = Character(physique=7, endurance=7, armour=[{"name": "m", "defence": 1, "durability": 5}])
    out = SYSTEM.on_turn(
        c,
        "start",
        conditions=[
            {"id": "burning", "duration": None, "data": {}},
            {"id": "bleeding", "duration": None, "data": {"amount": 3}},
        ],
    )
    assert out.details["dot"] == 5 and out.details["health_loss"] == 1 + 3  # armour takes 1 of the fire
    assert c.health == 10 - 4 and c.armour[0]["durability"] == 4  # and wears (L1492)
    assert out.changes["health"] == (10, 6) and out.details["sources"] == ["burning", "bleeding"]


def test_on_turn_regeneration_and_nothing():
    c = Character()
    c.health = 1
    out = SYSTEM.on_turn(c, "start", conditions=[{"id": "regenerating", "duration": 3, "data": {}}])
    assert c.health == 3 and out.details["hot"] == 2 and out.changes["health"] == (1, 3)
    assert SYSTEM.on_turn(c, "end", conditions=[{"id": "regenerating", "duration": 3, "data": {}}]) is None
    assert SYSTEM.on_turn(c, "start", conditions=[{"id": "stunned", "duration": None, "data": {}}]) is None
    assert SYSTEM.on_turn(c, "start", conditions=[{"id": "homebrew", "duration": 1, "data": {}}]) is None
    with pytest.raises(RuleError):
        SYSTEM.on_turn(c, "middle")


def test_on_turn_reads_the_sheet_and_triggers_rules():
    c = Character(conditions=[{"id": "poisoned"}])
    c.health = 0
    out = SYSTEM.on_turn(c, "start")
    assert c.health == -1 and out.details["survival_roll"] and out.details["survival_difficulty"] == 1
    c = Character(conditions=[{"id": "coma"}, {"id": "bleeding"}])
    out = SYSTEM.on_turn(c, "start")
    assert c.dead and out.defeated  # damage in coma (L328)
    assert SYSTEM.on_turn(c, "start") is None  # the dead do not bleed
    c = Character(conditions=[{"id": "burning", "ticks_at": "end"}])
    assert SYSTEM.on_turn(c, "start") is None and SYSTEM.on_turn(c, "end").details["dot"] == 2


# ------------------------------------------------------------------------------------------------
# condition_changed
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cid", ["unconscious", "coma", "doom"])
def test_condition_changed_defeating(cid):
    c = Character()
    out = SYSTEM.condition_changed(c, cid, True)
    assert out.defeated and SYSTEM.is_defeated(c) and c.has_condition(cid)
    assert SYSTEM.condition_changed(c, cid, True) is None  # already there
    out = SYSTEM.condition_changed(c, cid, False)
    assert not out.defeated and not SYSTEM.is_defeated(c) and not c.has_condition(cid)


def test_condition_changed_penalties_reach_rolls():
    c = Character(attention=5, intuition=5)
    SYSTEM.condition_changed(c, "stunned", True)
    assert SYSTEM.roll_check(c, "attention", rng=Scripted(3)).details["die"] == "d8"
    out = SYSTEM.condition_changed(c, "stunned", False)
    assert "conditions" in out.changes
    assert SYSTEM.roll_check(c, "attention", rng=Scripted(3)).details["die"] == "d10"
    SYSTEM.condition_changed(c, "flaw_state_light", True)
    assert SYSTEM.roll_check(c, "attention", rng=Scripted(3)).total == 2  # flat -1 on Mind


def test_condition_changed_stacks_dead_cover_unknown():
    c = Character()
    SYSTEM.condition_changed(c, "bleeding", True)
    SYSTEM.condition_changed(c, "bleeding", True, amount=2)
    assert [x["id"] for x in c.conditions] == ["bleeding", "bleeding"] and c.conditions[1]["amount"] == 2
    SYSTEM.condition_changed(c, "bleeding", False)
    assert len(c.conditions) == 1
    out = SYSTEM.condition_changed(c, "dead", True)
    assert c.dead and out.defeated and out.changes["dead"] == (False, True)
    SYSTEM.condition_changed(c, "dead", False)
    assert not c.dead
    c = Character(cover_bonus=3, conditions=[{"id": "in_cover"}])
    out = SYSTEM.condition_changed(c, "in_cover", False)
    assert c.cover_bonus == 0 and out.changes["cover_bonus"] == (3, 0)
    assert SYSTEM.condition_changed(c, "homebrew", True) is None


# ------------------------------------------------------------------------------------------------
# Initiative: skip_rounds, effects, tie-break ids, Speed (L729)
# ------------------------------------------------------------------------------------------------
def test_initiative_skip_rounds_and_effects():
    cs = {"a": Character(), "b": Character(), "c": Character()}
    order = SYSTEM.roll_initiative(cs, rng=Scripted(1, 1, 6, 3, 1, 4), luck={"c": 0})
    assert order.rolls["a"].skip_rounds == 1 and order.rolls["b"].skip_rounds == 0
    assert [(e.trait, e.delta) for e in order.rolls["a"].effects] == [("luck", 3)]  # critical fail: +3
    assert [(e.trait, e.delta) for e in order.rolls["b"].effects] == [("sanity", 1)]
    assert combat.round_order(order, 1) == ["b", "c"]
    c = Character()
    c.luck = 2
    order = SYSTEM.roll_initiative({"x": c}, rng=Scripted(4), luck={"x": 2})
    assert [(e.trait, e.delta) for e in order.rolls["x"].effects] == [("luck", -2)]
    SYSTEM.apply_effects(c, order.rolls["x"].effects)
    assert c.luck == 0
    for bad in (3, -1):  # more than the pool / negative: refused
        with pytest.raises(RuleError) as info:
            SYSTEM.roll_initiative({"x": c}, rng=Scripted(), luck={"x": bad})
        assert info.value.message["ru"]


def test_tiebreak_entries_name_ids():
    cs = {"npc": Character(is_npc=True), "pc": Character(), "pc2": Character()}
    order = SYSTEM.roll_initiative(cs, rng=Scripted(4, 4, 4, 5, 2))
    kinds = {t["kind"]: t["ids"] for t in order.tiebreaks}
    assert kinds["pcs_first"] == ["npc", "pc", "pc2"] and kinds["roll_off"] == ["pc", "pc2"]
    assert all(t["en"] and t["ru"] for t in order.tiebreaks)


@pytest.mark.parametrize(
    "mode,expected", [(None, ["slow", "fast"]), ("tiebreak", ["fast", "slow"]), ("bonus", ["fast", "slow"])]
)
def test_L729_speed_and_initiative(mode, expected):
    cs = {"slow": Character(), "fast": Character(fine_motor=5, body_control=5)}  # Speed 3 vs 5
    gm = SYSTEM.with_rules(initiative_speed=mode, pcs_win_ties=False)
    # both roll 4 (the fast one's Perception is the same L3); off: roll-off 5 vs 2 for slow
    order = gm.roll_initiative(cs, rng=Scripted(4, 4, 5, 2))
    assert list(order.order) == expected
    if mode == "tiebreak":
        assert any(t["kind"] == "speed" and t["ids"] == ["slow", "fast"] for t in order.tiebreaks)
    if mode == "bonus":
        assert order.rolls["fast"].key[0] == (2, 9) and order.rolls["slow"].key[0] == (2, 7)


def test_L729_speed_bonus_never_lifts_a_fail():
    cs = {"fail": Character(fine_motor=7, body_control=7), "ok": Character()}
    order = SYSTEM.with_rules(initiative_speed="bonus").roll_initiative(cs, rng=Scripted(1, 4, 2))
    assert list(order.order) == ["ok", "fail"]
    with pytest.raises(RuleError):
        SYSTEM.with_rules(initiative_speed="sideways").roll_initiative(cs, rng=Scripted(3, 3))


# ------------------------------------------------------------------------------------------------
# §6.4 extra turns and defence refusal
# ------------------------------------------------------------------------------------------------
def test_extra_turns_bookkeeping():
    c = Character()
    c.sanity = 2
    st = SYSTEM.turn_state(c)
    st.use("attack")
    st.move(1)
    first = SYSTEM.extra_turn(c, st, 1)
    assert first["number"] == 1 and [(e.trait, e.delta) for e in first["effects"]] == [("sanity", -3)]
    assert first["self_control_at_end"] and not first["add_conditions"]
    assert st.attack_available and st.speed_left == 2  # Speed not refreshed
    SYSTEM.apply_effects(c, first["effects"])
    assert c.sanity == -1
    assert SYSTEM.end_extra_turn(st, True)
    second = SYSTEM.extra_turn(c, st, 1)
    assert second["add_conditions"] == ["defence_refused"] and second["condition_duration"] == 1
    assert not second["effects"] and "defence refused" in second["note"]["en"]
    with pytest.raises(RuleError):
        SYSTEM.extra_turn(c, st, 1)


def test_failed_self_control_blocks_refusal_and_state_is_kept():
    c = Character()
    st = SYSTEM.turn_state(c)
    SYSTEM.extra_turn(c, st, 1)
    assert not SYSTEM.end_extra_turn(st, False)
    before = dict(st.__dict__)
    with pytest.raises(RuleError) as info:
        SYSTEM.extra_turn(c, st, 1)
    assert info.value.code == "self_control_failed" and st.__dict__ == before


@pytest.mark.parametrize(
    "mode,round_no,ok",
    [("allowed", 1, True), ("forbidden", 3, False), ("not_round_1", 1, False), ("not_round_1", 2, True)],
)
def test_L712_extra_turns_in_cinematic_fights(mode, round_no, ok):
    c = Character()
    st = SYSTEM.turn_state(c)
    gm = SYSTEM.with_rules(extra_turns=mode)
    if ok:
        assert gm.extra_turn(c, st, round_no)["number"] == 1
    else:
        with pytest.raises(RuleError) as info:
            gm.extra_turn(c, st, round_no)
        assert info.value.message["ru"] and st.extra_turns_taken == 0


@pytest.mark.parametrize("duration,expected", [("until_next_turn", 1), ("until_removed", None)])
def test_A22_refusal_duration(duration, expected):
    c = Character()
    st = SYSTEM.turn_state(c)
    gm = SYSTEM.with_rules(defence_refusal_duration=duration)
    gm.extra_turn(c, st, 1)
    assert gm.extra_turn(c, st, 1)["condition_duration"] == expected


# ------------------------------------------------------------------------------------------------
# Cancelling cover / hidden / aim
# ------------------------------------------------------------------------------------------------
def test_move_and_attack_cancel_cover_heal_does_not():
    c = Character(cover_bonus=4, conditions=[{"id": "in_cover"}])
    out = SYSTEM.after_act(c, "heal")
    assert c.cover_bonus == 4 and out.details["remove_conditions"] == []
    out = SYSTEM.after_act(c, "move")
    assert c.cover_bonus == 0 and out.details["remove_conditions"] == ["in_cover"]
    assert not c.has_condition("in_cover") and out.notes[0]["ru"] == "выходит из укрытия"
    c = Character(cover_bonus=4, conditions=[{"id": "in_cover"}])
    SYSTEM.after_act(c, "attack")
    assert c.cover_bonus == 0
    c = Character(cover_bonus=4, conditions=[{"id": "in_cover"}])
    SYSTEM.after_act(c, "move", leaves_cover=False)  # moving inside the cover
    assert c.cover_bonus == 4
    SYSTEM.after_act(c, "action", leaves_cover=True)  # the GM says it exposes
    assert c.cover_bonus == 0


def test_hidden_and_aim_and_block():
    c = Character(conditions=[{"id": "hidden"}, {"id": "movement_block"}], aim_bonus=3)
    assert SYSTEM.after_act(c, "move").details["remove_conditions"] == []
    out = SYSTEM.after_act(c, "noise")
    assert out.details["remove_conditions"] == ["hidden"] and c.aim_bonus == 3
    SYSTEM.after_act(c, "action")
    assert c.aim_bonus == 0
    assert SYSTEM.after_act(c, "attack").details["remove_conditions"] == ["movement_block"]
    c = Character(conditions=[{"id": "hidden"}])
    assert SYSTEM.after_act(c, "attack", reveals=False).details["remove_conditions"] == []
    with pytest.raises(RuleError):
        SYSTEM.after_act(c, "dance")


# ------------------------------------------------------------------------------------------------
# §6.14 end of combat and loot
# ------------------------------------------------------------------------------------------------
def test_combat_over():
    a, b = Character(), Character(is_npc=True, npc_tier="mook")
    sides = {"a": "allies", "b": "opponents"}
    assert SYSTEM.combat_over({"a": a, "b": b}, sides) is None
    assert SYSTEM.combat_over({"a": a, "b": b}, sides, unwilling=["b"]) == "allies"  # surrendered / fled
    b.health = 0
    assert SYSTEM.combat_over({"a": a, "b": b}, sides) == "allies"
    a.conditions = [{"id": "unconscious"}]
    assert SYSTEM.combat_over({"a": a, "b": b}, sides) == "none"
    with pytest.raises(RuleError):
        SYSTEM.combat_over({"a": a}, {})


def test_loot_queue_modes():
    cs = {"a": Character(), "b": Character(), "c": Character(conditions=[{"id": "coma"}])}
    q = SYSTEM.loot_queue(cs, order=["b", "c", "a"])
    assert q["queue"] == ["b", "a"] and q["actions"] == 1 and q["initiative"] is None
    assert SYSTEM.loot_queue(cs, mode="seating", seating=["c", "a", "b"])["queue"] == ["a", "b"]
    assert SYSTEM.loot_queue(cs, mode="seating", seating=["c", "a"], include_unable=True)["queue"] == ["c", "a"]
    q = SYSTEM.with_rules(loot_actions=2).loot_queue(cs, mode="new", rng=Scripted(2, 5, 3))
    assert q["queue"] == ["b", "a"] and q["actions"] == 2 and list(q["initiative"].order)[0] == "b"
    for kw in ({"mode": "dice"}, {"mode": "initiative"}, {"mode": "seating"}, {"order": ["zz"]}):
        with pytest.raises(RuleError) as info:
            SYSTEM.loot_queue(cs, **kw)
        assert info.value.message["ru"]


def test_split_loot_and_disputes():
    assert SYSTEM.split_loot(10, ["a", "b", "c"]) == {"a": 4, "b": 3, "c": 3}
    assert SYSTEM.split_loot(0, ["a"]) == {"a": 0}
    for bad in ((5, []), (-1, ["a"])):
        with pytest.raises(RuleError):
            SYSTEM.split_loot(*bad)
    rolls = {
        "a": level_roll(3, rng=Scripted(5), options=SYSTEM.rules),
        "b": level_roll(3, rng=Scripted(4), options=SYSTEM.rules),
        "c": None,
    }
    assert SYSTEM.loot_dispute(rolls) == ("a", [])
    tied = {
        "a": level_roll(3, rng=Scripted(4), options=SYSTEM.rules),
        "b": level_roll(3, rng=Scripted(4), options=SYSTEM.rules),
    }
    assert SYSTEM.loot_dispute(tied) == (None, ["a", "b"])
    fails = {
        "a": level_roll(3, rng=Scripted(1, 2), options=SYSTEM.rules),
        "b": level_roll(3, rng=Scripted(1, 3), options=SYSTEM.rules),
    }
    assert SYSTEM.loot_dispute(fails) == ("b", [])  # the milder fail
    with pytest.raises(RuleError):
        SYSTEM.loot_dispute({})


def test_round_order_honours_skip_rounds():
    from tabletop_widgets.core import InitiativeOrder, InitiativeRoll

    rolls = {
        "a": InitiativeRoll("a", ((2, 9),), {"en": "9", "ru": "9"}),
        "b": InitiativeRoll("b", ((2, 5),), {"en": "5", "ru": "5"}, skip_rounds=2),
    }
    order = InitiativeOrder(order=["a", "b"], rolls=rolls)
    assert combat.round_order(order, 1) == ["a"] and combat.round_order(order, 2) == ["a"]
    assert combat.round_order(order, 3) == ["a", "b"]
    assert combat.round_order(order, 1, initiator="b") == ["b", "a"]


# ------------------------------------------------------------------------------------------------
# Condition action limits (§6.13 table)
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "conds,expect",
    [
        ([], dict(turn=True, move=True, attack=True, action=True, social=True, extra_turns=True, defence="any")),
        (["unconscious"], dict(turn=False, move=False, attack=False, social=False, defence="none", psych_resist=False)),
        (["coma"], dict(turn=False, defence="none")),
        (["doom"], dict(turn=True, move=False, attack=False, action=False, social=True, defence="none")),
        (["panic"], dict(move=True, attack=False, action=False, extra_turns=False, defence="dodge_only")),
        (["rage"], dict(move=True, attack=True, action=False, extra_turns=False, defence="any")),
        (["stunned"], dict(turn=True, extra_turns=True, defence="any")),
        (["defence_refused"], dict(attack=True, defence="none")),
        (["restrained"], dict(defence="limited")),
        (["rage", "panic"], dict(attack=False, action=False, defence="dodge_only")),
    ],
)
def test_turn_limits(conds, expect):
    c = Character(conditions=[{"id": x} for x in conds])
    lim = SYSTEM.turn_limits(c)
    for k, v in expect.items():
        assert lim[k] == v, k
    assert len(lim["reasons"]) == len([x for x in conds if x not in ("stunned",)])
    assert all(r["en"] and r["ru"] for r in lim["reasons"])


def test_turn_limits_dead():
    c = Character(dead=True)
    assert not SYSTEM.turn_limits(c)["turn"]
