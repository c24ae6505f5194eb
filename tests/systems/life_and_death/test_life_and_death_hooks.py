"""Closing the gaps: the ld word with a bound character, the tracker hooks (healing options,
on_turn, condition_changed, initiative effects and tie-break ids), default parameters of
Survival / Transformation, wounds, sheet visibility, the base-HP default."""

import random
from fractions import Fraction

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death.dice import net_law
from tabletop_widgets.core import DamageOutcome, Effect, RuleError, ValidationError
from tabletop_widgets.dice import DiceError, roll
import inspect

from tabletop_widgets.dice.words import WordContext, word_context

F = Fraction
WORD = SYSTEM.dice_words()[0]


def wparse(text, character=None, variables=None):
    context = WordContext(character=character) if variables is None else word_context(variables)
    return WORD.parse(text, 0, len(text), context=context)


def p_at_least(pool, penalty, dc):
    return sum((v for k, v in net_law(pool, penalty, 0).items() if k >= dc), F(0))


# -- (1) the ld word through the bound character ------------------------------------------------------------
def test_word_declares_context():
    assert "context" in inspect.signature(WORD.parse).parameters


@pytest.mark.parametrize(
    "text,pool,penalty",
    [
        ("ld dexterity+stealth dc 2", 3, 1),  # untrained: Dexterity dice, -1 success (L33)
        ("ld stealth dc 2", 3, 1),  # a skill alone = its parameter + the skill
        ("ld dexterity+detection dc 1", None, None),  # wrong parameter -> error (below)
    ],
)
def test_word_untrained_skill_forms(text, pool, penalty):
    c = Character(dexterity=3, alertness=2)
    if pool is None:
        with pytest.raises(DiceError):
            wparse(text, c)
        return
    e = wparse(text, c)
    assert (e.left.pool, e.left.penalty) == (pool, penalty)
    assert e.distribution().p_pass == SYSTEM.chance(c, "dexterity+stealth", difficulty=2) == p_at_least(3, 1, 2)


def test_word_trained_skill_matches_named_check():
    c = Character(dexterity=3, alertness=2, skills={"stealth": 2})
    for text in ("ld dexterity+stealth dc 2", "ld Dexterity + stealth dc 2", "ld stealth dc 2"):
        e = wparse(text, c)
        assert (e.left.pool, e.left.penalty) == (5, 0)
        assert e.distribution().p_pass == SYSTEM.chance(c, "dexterity+stealth", difficulty=2)
    r = wparse("ld dexterity+stealth dc 2", c).roll(random.Random(3))
    assert len(r.dice) == 5


def test_word_through_the_engine_with_variables():
    c = Character(dexterity=3, alertness=2, skills={"stealth": 2})
    r = roll("ld dexterity+stealth dc 2", rng=random.Random(1), variables=WordContext(character=c))
    assert len(r.dice) == 5 and r.check is not None


def test_word_specialization_and_related():
    c = Character(might=3, dexterity=2, custom_skills={"craft": "might"}, skills={"craft:smithing": 2})
    assert (wparse("ld might+craft:smithing", c).left.pool, wparse("ld might+craft:smithing", c).left.penalty) == (5, 0)
    e = wparse("ld might+craft:cooking", c)  # related specialization: no -1 (L33)
    assert (e.left.pool, e.left.penalty) == (3, 0)


def test_word_init_and_will_and_helmet():
    c = Character(
        dexterity=3, alertness=3, power=2, complexity=2, features=[{"id": "speed", "level": 1}], helmet="closed"
    )
    assert wparse("ld init", c).left.pool == c.initiative_pool == 3 + 3 + 2 - 1
    assert wparse("ld initiative", c).left.pool == c.initiative_pool
    assert wparse("ld will vs ld 3", c).left.pool == 4
    assert wparse("ld alertness", c).left.pool == 3 - 2  # closed helmet: -2 Alertness dice (L159)


@pytest.mark.parametrize(
    "text,pos", [("ld dexterity+stealth dc 2", 3), ("ld stealth", 3), ("ld init", 3), ("ld 2+will", 5)]
)
def test_word_needs_bound_character(text, pos):
    for variables in (None, {}, {"x": 3}):
        with pytest.raises(DiceError) as ei:
            wparse(text, variables=variables)
        assert ei.value.position == pos
        assert "bind a character" in ei.value.text("en") and "привяжите персонажа" in ei.value.text("ru")


@pytest.mark.parametrize(
    "text,pos",
    [
        ("ld power+stealth", 9),  # no skills under Power (L86)
        ("ld might+stealth", 9),  # stealth is rolled with Dexterity
        ("ld frobnicate", 3),  # no parameter known for this skill
        ("ld complexity+stealth", 14),  # named with the wrong parameter
    ],
)
def test_word_bad_skill_forms(text, pos):
    c = Character(dexterity=3)
    with pytest.raises(DiceError) as ei:
        wparse(text, c)
    assert ei.value.position == pos and ei.value.text("ru") != ei.value.text("en")


def test_check_refusals_are_bilingual():
    c = Character(dexterity=3)
    with pytest.raises(RuleError) as ei:
        SYSTEM.chance(c, "might+stealth")
    assert ei.value.code == "wrong_param" and "бросается" in ei.value.text("ru")


def test_word_refuses_foreign_character():
    with pytest.raises(DiceError):
        wparse("ld stealth", variables=WordContext(character=object()))


def test_word_uses_the_characters_rules():
    plain = SYSTEM.with_rules(unstated_skill_params={})
    c = plain.Character(alertness=3)
    with pytest.raises(DiceError):
        wparse("ld survival", c)  # no parameter for Survival in this reading
    assert wparse("ld might+survival", c).left.penalty == 1  # the check id names it
    assert wparse("ld survival", Character(alertness=3)).left.pool == 3


# -- (2) initiative: tie-break ids, epic dice as effects, options -------------------------------------------
def twins():
    return {"a": Character(dexterity=2, alertness=2), "b": Character(dexterity=2, alertness=2)}


def test_tiebreaks_name_their_ids():
    order = SYSTEM.roll_initiative(twins(), rng=random.Random(4))
    assert order.tiebreaks
    for t in order.tiebreaks:
        assert set(t["ids"]) == {"a", "b"} and t["en"] and t["ru"]
        assert list(t["ids"]) == [x for x in order.order if x in t["ids"]]


def test_tiebreak_ids_pool_and_dex():
    cs = {
        "x": Character(dexterity=3, alertness=1),
        "y": Character(dexterity=1, alertness=3),
        "z": Character(dexterity=1, alertness=1),
    }
    from tabletop_systems.life_and_death import combat

    o = combat.roll_initiative(cs, faces={"x": [1, 1, 1, 1], "y": [1, 1, 1, 1], "z": [1, 1]}, options=SYSTEM.rules)
    assert o.order == ["x", "y", "z"]
    assert [t["ids"] for t in o.tiebreaks] == [["x", "y"], ["y", "z"]]
    assert "Dexterity" in o.tiebreaks[0]["en"] and "pool" in o.tiebreaks[1]["en"]


def test_initiative_epic_dice_become_effects():
    cs = {"a": Character(dexterity=2, alertness=2, reputation=2, epic_dice=2), "b": Character(dexterity=2, alertness=2)}
    o = SYSTEM.roll_initiative(cs, rng=random.Random(1), epic={"a": 2})
    ra = o.rolls["a"]
    assert ra.effects == (Effect("epic_dice", -2, ra.effects[0].reason),) and o.rolls["b"].effects == ()
    assert ra.key[0] == ra.roll.net and ra.roll.epic == 2 and "+2 epic" in ra.text["en"]
    assert cs["a"].epic_dice == 2  # not applied by the roll
    SYSTEM.apply_effects(cs["a"], ra.effects)
    assert cs["a"].epic_dice == 0
    assert ra.skip_rounds == 0


@pytest.mark.parametrize(
    "epic,code", [({"a": 3}, "not_enough_epic_dice"), ({"zz": 1}, "bad_epic"), ({"a": -1}, "bad_epic"), (2, "bad_epic")]
)
def test_initiative_epic_refused(epic, code):
    cs = {"a": Character(reputation=2, epic_dice=2)}
    rng = random.Random(1)
    state = rng.getstate()
    with pytest.raises(RuleError) as ei:
        SYSTEM.roll_initiative(cs, rng=rng, epic=epic)
    assert ei.value.code == code and ei.value.text("ru")
    assert rng.getstate() == state  # nothing rolled


def test_initiative_epic_quick_game():
    with pytest.raises(RuleError):
        SYSTEM.with_rules(mode="quick").roll_initiative({"a": Character(reputation=2, epic_dice=1)}, epic={"a": 1})


def test_initiative_options():
    assert [o.name for o in SYSTEM.initiative_options()] == ["epic"]


# -- (2) healing options and apply_healing ------------------------------------------------------------------
def test_healing_options_shape():
    opts = {o.name: o for o in SYSTEM.healing_options(Character())}
    assert set(opts) == {"pool", "damage_type", "clear_status"}
    assert [v for v, _ in opts["pool"].choices] == ["hp", "ep", "sp", "ip"]
    assert {v for v, _ in opts["damage_type"].choices} == {"", "physical", "pattern", "spiritual", "idea"}


def test_healing_by_pool_and_damage_type():
    c = Character(complexity=3, power=2, luck=2, hp=2, ep=1, sp=1)
    o = SYSTEM.apply_healing(c, 3, pool="ep")
    assert o.changes == {"ep": (1, 4)} and c.ep == 4
    o = SYSTEM.apply_healing(c, 10, damage_type="spiritual")  # spiritual -> SP
    assert c.sp == c.sp_max and o.details["pool"] == "sp"
    o = SYSTEM.apply_healing(c, 3)
    assert c.hp == 5 and isinstance(o, DamageOutcome)
    custom = SYSTEM.with_rules(damage_type_pools={"physical": "hp", "pattern": "hp", "spiritual": "sp", "idea": "ip"})
    d = custom.Character(hp=1)
    custom.apply_healing(d, 2, damage_type="pattern")
    assert d.hp == 3


def test_healing_clears_gm_status_only_when_asked():
    c = Character(hp=3, status="incapacitated")
    SYSTEM.apply_healing(c, 1)
    assert c.status == "incapacitated" and SYSTEM.is_defeated(c)
    o = SYSTEM.apply_healing(c, 1, clear_status=True)
    assert c.status == "" and not SYSTEM.is_defeated(c) and o.changes["status"] == ("incapacitated", "")


@pytest.mark.parametrize(
    "kw", [dict(amount=-1), dict(amount=True), dict(amount=2, pool="mana"), dict(amount=2, damage_type="fire")]
)
def test_healing_bad_input(kw):
    c = Character(hp=3)
    before = c.to_dict()
    amount = kw.pop("amount")
    with pytest.raises(RuleError) as ei:
        SYSTEM.apply_healing(c, amount, **kw)
    assert ei.value.text("ru") != ei.value.text("en")
    assert c.to_dict() == before


def test_damage_bad_input_bilingual():
    c = Character()
    with pytest.raises(RuleError) as ei:
        SYSTEM.apply_damage(c, 2, zone="elbow")
    assert "зона" in ei.value.text("ru")


# -- (2) on_turn ----------------------------------------------------------------------------------------------
def test_on_turn_nothing():
    assert SYSTEM.on_turn(Character(), "start") is None
    assert (
        SYSTEM.on_turn(Character(), "end", conditions=[{"id": "delayed_action", "duration": 1, "data": None}]) is None
    )


def test_transforming_ends_at_the_start_of_the_next_turn():
    c = Character(might=3, base_hp=10)
    SYSTEM.condition_changed(c, "transforming", True)
    assert c.transforming
    assert SYSTEM.apply_damage(c, 3).details["damage"] == 6  # S-18: doubled (L119)
    assert SYSTEM.on_turn(c, "end") is None and c.transforming  # not at the end of a turn
    o = SYSTEM.on_turn(c, "start")
    assert o.changes == {"transforming": (True, False)} and not c.transforming
    assert SYSTEM.apply_damage(c, 3).details["damage"] == 3


def test_on_turn_ongoing_damage_and_regeneration():
    c = Character(hp=8, complexity=2, power=2)
    conds = [
        {"id": "ongoing_damage", "duration": 3, "data": {"amount": 2, "damage_type": "physical"}},
        {"id": "ongoing_damage", "duration": 3, "data": {"amount": 1, "damage_type": "pattern", "when": "end"}},
        {"id": "regeneration", "duration": None, "data": {"amount": 1, "when": "end"}},
    ]
    o = SYSTEM.on_turn(c, "start", conditions=conds)
    assert c.hp == 6 and o.changes == {"hp": (8, 6)}
    o = SYSTEM.on_turn(c, "end", conditions=conds)
    assert c.hp == 7 and c.ep == c.ep_max - 1 and o.changes["hp"] == (6, 7) and len(o.notes) >= 2


def test_on_turn_ongoing_damage_can_defeat():
    c = Character(hp=1)
    o = SYSTEM.on_turn(c, "start", conditions=[{"id": "ongoing_damage", "duration": 1, "data": {"amount": 1}}])
    assert o.defeated and o.details["state"] == "incapacitated"


@pytest.mark.parametrize("bad", [{"amount": -1}, {"amount": 1, "damage_type": "fire"}, {"amount": 1, "when": "noon"}])
def test_on_turn_bad_data_applies_nothing(bad):
    c = Character(hp=8)
    c.transforming = True
    before = c.to_dict()
    conds = [
        {"id": "ongoing_damage", "duration": 1, "data": {"amount": 2}},
        {"id": "ongoing_damage", "duration": 1, "data": bad},
    ]
    with pytest.raises(RuleError):
        SYSTEM.on_turn(c, "start", conditions=conds)
    assert c.to_dict() == before


def test_on_turn_bad_when():
    with pytest.raises(RuleError):
        SYSTEM.on_turn(Character(), "middle")


def test_catalogue_has_ongoing_conditions():
    ids = {s.id for s in SYSTEM.conditions()}
    assert {"ongoing_damage", "regeneration", "transforming", "dead", "incapacitated"} <= ids


# -- (2) condition_changed ------------------------------------------------------------------------------------
def test_condition_dead_and_incapacitated():
    c = Character()
    o = SYSTEM.condition_changed(c, "incapacitated", True)
    assert o.defeated and c.status == "incapacitated" and SYSTEM.is_defeated(c)
    SYSTEM.condition_changed(c, "dead", True)
    assert c.status == "dead"
    assert SYSTEM.condition_changed(c, "incapacitated", True) is None and c.status == "dead"  # dead stays dead
    assert SYSTEM.condition_changed(c, "incapacitated", False) is None
    o = SYSTEM.condition_changed(c, "dead", False)
    assert c.status == "" and not o.defeated and not SYSTEM.is_defeated(c)


def test_condition_dead_removed_keeps_lethal_wound():
    c = Character(wounds=[{"zone": "neck", "kind": "decapitated", "note": ""}])
    assert SYSTEM.is_defeated(c)
    assert SYSTEM.condition_changed(c, "dead", False) is None and SYSTEM.is_defeated(c)


def test_condition_wounds_recorded_and_removed():
    c = Character()
    o = SYSTEM.condition_changed(c, "limb_broken", True, note="left arm")
    assert c.wounds == [{"zone": "limb", "kind": "limb_broken", "note": "left arm"}] and "wounds" in o.changes
    SYSTEM.condition_changed(c, "limb_broken", True)
    assert SYSTEM.condition_changed(c, "limb_broken", True, record=False) is None  # already recorded by damage
    assert len(c.wounds) == 2
    SYSTEM.condition_changed(c, "limb_broken", False)
    assert c.wounds == [{"zone": "limb", "kind": "limb_broken", "note": "left arm"}]
    assert SYSTEM.condition_changed(c, "tail_severed", False) is None


def test_condition_without_sheet_effect_and_unknown():
    c = Character()
    for cid in ("delayed_action", "not_participating", "spell_active", "failed_coordination", "ongoing_damage"):
        assert SYSTEM.condition_changed(c, cid, True) is None
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "sleepy", True)


def test_apply_damage_reports_recorded_wound():
    c = Character(base_hp=10)
    o = SYSTEM.apply_damage(c, 3, zone="limb")
    assert o.details["wound"] == "limb_broken" and c.wounds[0]["kind"] == "limb_broken"


# -- (3) Survival and Transformation get a default parameter ------------------------------------------------
def ids(c, system=SYSTEM):
    return {s.id for s in system.checks(c)}


def test_survival_and_transformation_checks_default():
    c = Character(alertness=3, might=2)
    assert "alertness+survival" in ids(c) and not any("transformation" in i for i in ids(c))
    assert SYSTEM.chance(c, "alertness+survival", difficulty=1) == p_at_least(3, 1, 1)
    with pytest.raises(ValueError):
        SYSTEM.chance(c, "might+survival")  # rolled with Alertness here
    s = Character(might=2, features=[{"id": "shapeshifter", "level": 1}], skills={"transformation": 1})
    assert "might+transformation" in ids(s)
    assert SYSTEM.pool_for(s, "might+transformation").pool == 3
    assert s.skill_budget["might"]["used"] == 1


def test_unstated_params_gm_reading_none():
    plain = SYSTEM.with_rules(unstated_skill_params={})
    c = plain.Character(alertness=3, might=2)
    assert not any("survival" in i for i in ids(c, plain))
    assert plain.pool_for(c, "might+survival").penalty == 1  # ad-hoc: the check id names it
    assert plain.pool_for(c, "alertness+survival").penalty == 1


def test_unstated_params_gm_reading_other_mapping():
    alt = SYSTEM.with_rules(unstated_skill_params={"survival": "might", "transformation": "dexterity"})
    c = alt.Character(might=3, skills={"survival": 1})
    assert "might+survival" in ids(c, alt) and alt.pool_for(c, "might+survival").pool == 4


def test_sheet_custom_skill_beats_the_default():
    c = Character(dexterity=3, custom_skills={"survival": "dexterity"})
    assert "dexterity+survival" in ids(c) and "alertness+survival" not in ids(c)


def test_data_row_param_beats_the_default():
    house = SYSTEM.with_data("skills", {"id": "survival", "en": "Survival", "ru": "выживание", "param": "might"})
    assert "might+survival" in ids(house.Character(), house)
    assert "might+survival" not in ids(Character())  # the shared tables are unchanged


# -- (4) wounds ---------------------------------------------------------------------------------------------
def test_wounds_add_show_remove():
    c = Character()
    e = SYSTEM.add_wound(c, "face_lost", note="left eye")
    assert e == {"zone": "head_face", "kind": "face_lost", "note": "left eye"} and c.wound_count == 1
    SYSTEM.add_wound(c, "scar", zone="torso", note="burn")
    assert c.wound_count == 2 and not SYSTEM.is_defeated(c)
    assert SYSTEM.remove_wound(c, 0)["kind"] == "face_lost" and [w["kind"] for w in c.wounds] == ["scar"]
    d = Character.from_dict(c.to_dict())
    assert d.wounds == c.wounds


def test_lethal_wound_kind_means_dead():
    c = Character()
    SYSTEM.add_wound(c, "skull_pierced")
    assert SYSTEM.is_defeated(c) and c.wounds[0]["zone"] == "head_skull"
    SYSTEM.remove_wound(c, 0)
    assert not SYSTEM.is_defeated(c)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: SYSTEM.add_wound(c, ""),
        lambda c: SYSTEM.add_wound(c, "x", zone="elbow"),
        lambda c: SYSTEM.remove_wound(c, 5),
        lambda c: SYSTEM.remove_wound(c, True),
    ],
)
def test_wound_bad_input(call):
    c = Character(wounds=[{"zone": "tail", "kind": "tail_severed", "note": ""}])
    before = c.to_dict()
    with pytest.raises((RuleError, ValidationError)):
        call(c)
    assert c.to_dict() == before


@pytest.mark.parametrize(
    "w", [{"zone": "elbow", "kind": "x"}, {"zone": "limb"}, {"zone": "limb", "kind": 3}, {"zone": "limb", "kind": ""}]
)
def test_wound_shape_validated(w):
    with pytest.raises(ValidationError) as ei:
        Character(wounds=[w])
    assert any(p.field == "wounds" for p in ei.value.problems)


def test_wound_kinds_table_and_sheet():
    kinds = {r["id"]: r for r in SYSTEM.data("wound_kinds")}
    assert {
        "limb_broken",
        "limb_severed",
        "tail_severed",
        "face_lost",
        "head_severed",
        "decapitated",
        "skull_pierced",
        "skull_pierced_wound",
        "other",
    } <= set(kinds)
    assert all(r["en"] and r["ru"] for r in kinds.values())
    assert {k for k, r in kinds.items() if r["lethal"]} == {"decapitated", "skull_pierced"}
    f = {f.name: f for f in SYSTEM.sheet.fields()}
    w = f["wounds"]
    assert w.kind == "list" and [i.name for i in w.item_fields] == ["zone", "kind", "note"]
    assert w.source == "wound_kinds" and f["wound_count"].kind == "derived"
    from tabletop_widgets.widgets.sheet_fields import item_from_row

    item = item_from_row(w, kinds["tail_severed"], "en")
    assert item["kind"] == "tail_severed" and item["zone"] == "tail"
    Character(wounds=[item])  # an item from the picker is valid


def test_status_and_transforming_are_validated_and_on_the_sheet():
    with pytest.raises(ValidationError):
        Character(status="asleep")
    names = {f.name for f in SYSTEM.sheet.fields()}
    assert {"status", "transforming", "hp_base"} <= names


# -- (5) sheet visibility ------------------------------------------------------------------------------------
def test_forms_section_visibility_is_a_derived_trait():
    sec = next(s for s in SYSTEM.sheet.sections if s.id == "forms")
    assert sec.visible_if == "is_shapeshifter"
    assert "is_shapeshifter" in Character.derived_traits()
    c = Character()
    assert c.is_shapeshifter is False
    c.features = [{"id": "shapeshifter", "level": 1}]
    assert c.is_shapeshifter is True
    for s in SYSTEM.sheet.sections:
        for f in s.fields:
            v = f.visible_if
            if v:
                assert v in Character.derived_traits()


def test_uses_reputation():
    assert Character().uses_reputation and not Character(mode="quick").uses_reputation
    assert not SYSTEM.with_rules(mode="quick").Character().uses_reputation


# -- (6) base HP default ---------------------------------------------------------------------------------------
def test_base_hp_house_default_10():
    c = Character(might=2)
    assert c.base_hp is None and c.hp_base == 10 and c.hp_max == 10 == c.hp
    assert not [p for p in SYSTEM.validate(c) if p.code == "E_BASE_HP_MISSING"]
    d = Character.from_dict(c.to_dict())
    assert d.base_hp is None and d.hp_max == 10
    assert Character(base_hp=7).hp_max == 7


def test_base_hp_from_race_row():
    house = SYSTEM.with_data(
        "races",
        {
            "id": "testfolk",
            "en": "Testfolk",
            "ru": "тестовцы",
            "params": {"might": 2},
            "alignment": "good",
            "base_hp": 8,
        },
    )
    c = house.Character(race="testfolk", might=2)
    assert c.hp_base == 8 and c.hp_max == 8
    assert house.Character(race="testfolk", might=2, base_hp=12).hp_max == 12


def test_base_hp_no_default_reading():
    strict = SYSTEM.with_rules(default_base_hp=None)
    c = strict.Character(might=2)
    assert c.hp_base == 0 and c.hp_max == 0
    probs = [p for p in strict.validate(c) if p.code == "E_BASE_HP_MISSING"]
    assert probs and probs[0].field == "base_hp" and probs[0].severity == "error"
    c.base_hp = 9
    assert c.hp_max == 9 and not [p for p in strict.validate(c) if p.code == "E_BASE_HP_MISSING"]
    assert not [p for p in SYSTEM.validate(Character()) if p.code == "E_BASE_HP_MISSING"]


def test_base_hp_other_gm_default():
    assert SYSTEM.with_rules(default_base_hp=12).Character(might=2).hp_max == 12


def test_base_hp_bad_values():
    for bad in (-1, "ten", 1.5):
        with pytest.raises(ValidationError):
            Character(base_hp=bad)


def test_ongoing_damage_catalogue_defaults():
    c = Character(hp=5)
    o = SYSTEM.on_turn(c, "start", conditions=[{"id": "ongoing_damage", "duration": 2, "data": {}}])
    assert c.hp == 4 and o.changes == {"hp": (5, 4)}
    assert SYSTEM.on_turn(c, "end", conditions=[{"id": "regeneration", "duration": 2, "data": None}]) is None


def test_condition_data_named_like_keywords():
    c = Character()
    SYSTEM.condition_changed(c, "face_lost", True, note="nose", rules="ignored")
    assert c.wounds == [{"zone": "head_face", "kind": "face_lost", "note": "nose"}]
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "face_lost", True, note=3)


# -- the generic tracker drives the hooks ------------------------------------------------------------------
def test_tracker_drives_hooks():
    from tabletop_widgets.core.combat import Combat

    combat = Combat(SYSTEM, rng=random.Random(2))
    combat.add("ann", Character(name="Ann", dexterity=3, alertness=3, reputation=1, epic_dice=1))
    combat.add("bob", Character(name="Bob", dexterity=1, alertness=1, base_hp=10))
    ev = combat.roll_initiative(epic={"ann": 1})
    assert combat.character("ann").epic_dice == 0  # the tracker applied the effect
    assert ev["effects"][0]["changes"] == {"epic_dice": [1, 0]}
    for t in combat.tiebreaks:
        assert "ids" in t
    combat.next_turn()
    combat.add_condition("bob", "transforming")
    assert combat.character("bob").transforming
    combat.damage("bob", 2)
    assert combat.character("bob").hp == 10 - 4  # doubled (L119)
    while combat.current != "bob":
        combat.next_turn()
    assert not combat.character("bob").transforming  # cleared at bob's next turn
    combat.add_condition("bob", "dead")
    assert combat.character("bob").status == "dead" and SYSTEM.is_defeated(combat.character("bob"))
