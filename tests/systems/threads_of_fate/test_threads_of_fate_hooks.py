"""Gaps closed after the first pass: GM options A7/A22/A39, rules-bound Characters, the campaign size
table, the scene's GM-Caprice limit, saved treatments, stealthy movement, the tracker hooks, the
character-bound %roll forms and the sheet's matrix column labels."""

import importlib
import itertools
import json
import random
import weakref
from fractions import Fraction

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, Scene, checks, combat, forms
from tabletop_widgets.core.problems import RuleError, ValidationError
from tabletop_widgets.core.system import DamageOutcome, OptionSpec
from tabletop_widgets.dice import roll
from tabletop_widgets.dice.errors import DiceError
from tabletop_widgets.dice.words import WordContext


def hero(**kw):
    base = dict(
        name="A",
        strength=12,
        dexterity=15,
        constitution=14,
        intelligence=12,
        wisdom=11,
        charm=8,
        perception=3,
        weapons=2,
        stealth=2,
    )
    return Character(**{**base, **kw})


def bound(ch):
    return WordContext({}, ch)


# ------------------------------------------------------------------------------------------------
# (1) GM options and the rules-bound Character
# ------------------------------------------------------------------------------------------------
def test_default_system_keeps_the_plain_character_class():
    assert SYSTEM.Character is Character
    assert Character().rules["speed_min_after_sbp"] == 1


def test_bound_character_class_knows_its_rules():
    gm = SYSTEM.with_rules(speed_min_after_sbp=0)
    Bound = gm.Character
    assert Bound is not Character and issubclass(Bound, Character)
    assert Bound().rules["speed_min_after_sbp"] == 0
    assert gm.with_rules(speed_min_after_sbp=0).Character is Bound  # cached per rules
    c = Bound(size="tiny", dexterity=3, constitution=3)
    assert "rules" not in c.to_dict() and type(Bound.from_dict(c.to_dict())) is Bound
    assert Character.from_dict(c.to_dict()).speed == 1  # the rules are not character data


@pytest.mark.parametrize("floor,speed", [pytest.param(1, 1, id="A7-default-min-1"), pytest.param(0, 0, id="A7-min-0")])
def test_A7_speed_min_after_sbp(floor, speed):
    # Tiny (SBP -2), DEX 3 + CON 3: base max(1, 6 // 4) = 1, minus 2 = -1 -> the floor
    Bound = SYSTEM.with_rules(speed_min_after_sbp=floor).Character
    c = Bound(size="tiny", dexterity=3, constitution=3)
    assert c.speed == speed
    c.flying = True
    assert c.speed == speed * 3  # L319: after SBP


def test_A7_does_not_touch_speeds_above_the_floor():
    for floor in (0, 1):
        c = SYSTEM.with_rules(speed_min_after_sbp=floor).Character(size="tiny", dexterity=16, constitution=16)
        assert c.speed == 8 - 2


def test_bind_character_copies_to_the_rules():
    gm = SYSTEM.with_rules(speed_min_after_sbp=0)
    c = Character(size="tiny", dexterity=3, constitution=3)
    b = gm.bind_character(c)
    assert (c.speed, b.speed) == (1, 0) and b.to_dict() == c.to_dict()


def test_bound_character_robot_durability_follows_A26():
    attrs = [{"code": "combat_robot", "name": "Robot"}]
    assert Character(constitution=14, attributes=attrs).durability == 3 + 2  # size multiplier
    assert SYSTEM.with_rules(robot_dur_base="sbp").Character(constitution=14, attributes=attrs).durability == 0 + 2


@pytest.mark.parametrize(
    "bad",
    [
        dict(speed_min_after_sbp=-1),
        dict(resistance="quarter"),
        dict(resistance_flat=-2),
        dict(thread_overflow="kept"),
        dict(size_table={"colossal": {"sbp": 3}}),
        dict(size_table={"huge": {"hp_multiplier": 0}}),
        dict(size_table={"huge": {"x": 1}}),
    ],
)
def test_bad_rule_values_are_refused(bad):
    with pytest.raises(ValueError) as e:
        SYSTEM.with_rules(**bad)
    assert " / " in str(e.value)  # en / ru


@pytest.mark.parametrize(
    "mode,expected", [pytest.param("half", 3, id="A39-half"), pytest.param("flat", 5, id="A39-flat-2")]
)
def test_A39_resistance_apply_damage(mode, expected):
    gm = SYSTEM.with_rules(resistance=mode, resistance_flat=2)
    c = hero(resistances=["contaminating"])
    out = gm.apply_damage(c, 7, kind="contaminating")
    assert out.details["damage"] == expected and c.hp == c.hp_max - expected
    assert any(("halved" if mode == "half" else "-2") in n["en"] for n in out.notes)


def test_A39_flat_never_below_zero_and_nat20_keeps_one():
    gm = SYSTEM.with_rules(resistance="flat", resistance_flat=5)
    assert combat.resist(3, options=gm.rules) == 0 and combat.resist(9, options=gm.rules) == 4
    assert combat.resist(9, options=SYSTEM.rules) == 4
    c = hero(resistances=["poison"])
    assert gm.apply_damage(c, 3, kind="poison", natural20=True).details["damage"] == 1


def test_A39_resistance_in_attacks():
    target = hero(resistances=["contaminating"], dexterity=10)  # DEF 10
    attacker = hero(weapons=5)

    class Fixed(random.Random):
        def randint(self, a, b):
            return 15

    half = SYSTEM.attack(attacker, target, rng=Fixed(), damage_kind="contaminating")
    flat = SYSTEM.with_rules(resistance="flat", resistance_flat=2).attack(
        attacker, target, rng=Fixed(), damage_kind="contaminating"
    )
    raw = half.total - 10
    assert half.details["damage"] == raw // 2 and flat.details["damage"] == raw - 2


@pytest.mark.parametrize("mode", ["lost", "refused"])
def test_A22_thread_overflow(mode):
    rules = SYSTEM.with_rules(thread_overflow=mode)
    c = hero(threads=5)
    if mode == "lost":
        out = rules.gain_threads(c, 1)
        assert c.threads == 5 and out["lost"] == 1
        assert rules.invoke_caprice(c, "C1")["status"] == "entered_play" and c.threads == 5
    else:
        with pytest.raises(RuleError) as e:
            rules.gain_threads(c, 1)
        assert e.value.code == "threads_cap" and c.threads == 5
        with pytest.raises(RuleError):
            rules.invoke_caprice(c, "C1")
        assert c.threads == 5
        c.threads = 4
        rules.gain_threads(c, 1)
        assert c.threads == 5


def test_A22_refused_checks_before_anything_changes():
    rules = SYSTEM.with_rules(thread_overflow="refused")
    c, other = hero(threads=5), hero(threads=2)
    with pytest.raises(RuleError):
        rules.invoke_caprice(c, "C2", by="other_player", by_hero=other)
    assert other.threads == 2  # M13's Thread not spent
    scene = Scene()
    with pytest.raises(RuleError):
        rules.invoke_caprice(c, "C1", by="gm", scene=scene, hero_id="c")
    assert scene.gm_caprices == []
    assert rules.invoke_caprice(c, "C1", refuse=True)["status"] == "refused" and c.threads == 4  # M1 is fine


def test_A22_common_trouble_both_readings():
    a, b = hero(threads=5), hero(threads=2)
    lost = SYSTEM.common_trouble([a, b])
    assert lost[id(a)]["lost"] == 1 and b.threads == 3
    a2, b2 = hero(threads=5), hero(threads=2)
    refused = SYSTEM.with_rules(thread_overflow="refused").common_trouble([a2, b2])
    assert refused[id(a2)] == {"refused": True} and a2.threads == 5 and b2.threads == 3


# ------------------------------------------------------------------------------------------------
# (3) the campaign size table
# ------------------------------------------------------------------------------------------------
def test_size_table_defaults_show_what_is_missing():
    rows = {r["code"]: r for r in SYSTEM.size_table()}
    assert rows["medium"]["hp_multiplier"] == 3 and rows["medium"]["missing"] == []
    assert rows["huge"]["missing"] == ["hp_multiplier", "sbp"] and rows["huge"]["base_defense"] is None
    assert SYSTEM.data("sizes") == SYSTEM.size_table()


def test_gm_enters_size_values_once_and_characters_pick_a_class():
    camp = SYSTEM.with_size_table({"small": {"hp_multiplier": 2}, "huge": {"hp_multiplier": 6, "sbp": 2}})
    rows = {r["code"]: r for r in camp.data("sizes")}
    assert rows["huge"]["sbp"] == 2 and rows["huge"]["base_defense"] == 8
    assert rows["huge"]["gm_entered"] == ["hp_multiplier", "sbp"] and rows["small"]["gm_entered"] == ["hp_multiplier"]
    assert rows["small"]["sbp"] == -1  # the book's cell is kept
    camp2 = camp.with_size_table({"huge": {"sbp": 3}})  # merged, not replaced
    assert {r["code"]: r for r in camp2.size_table()}["huge"]["hp_multiplier"] == 6
    ogre = camp.Character(entity_type="persona", size="huge", constitution=16, dexterity=10)
    assert ogre.hp_max == 16 * 6 and ogre.base_defense == 8 and ogre.speed == (10 + 16) // 4 + 2
    assert not [m for m in ogre.gm_missing if m["field"] in ("size_hp_mult", "size_sbp")]
    h = camp.Character(constitution=12)
    out = camp.choose_size(h, "small")
    assert h.size == "small" and h.hp_max == 24 and out["missing"] == []
    assert any("approval" in n["en"] for n in out["notes"])  # L303
    out = camp.choose_size(h, "gargantuan")
    assert out["missing"] == ["hp_multiplier", "sbp"] and h.hp_max is None


def test_choose_size_clears_overrides_unless_kept_and_refuses_bad_size():
    camp = SYSTEM.with_size_table({"large": {"hp_multiplier": 4}})
    c = camp.Character(size_hp_mult=5)
    camp.choose_size(c, "large", keep_overrides=True)
    assert c.hp_max == 10 * 5
    camp.choose_size(c, "large")
    assert c.size_hp_mult is None and c.hp_max == 40
    with pytest.raises(RuleError):
        camp.choose_size(c, "colossal")
    assert c.size == "large"
    with pytest.raises(ValueError):
        camp.with_size_table({"large": {"hp_multiplier": -1}})


def test_size_table_feeds_stealth_group_penalty():
    camp = SYSTEM.with_size_table({"huge": {"sbp": 2}})
    c = hero(stealth=4)
    out = camp.stealth_move(c, ["medium", "huge"], rng=random.Random(2), difficulty=10)
    assert out["group_penalty"] == -1 + -(1 + 2)
    with pytest.raises(RuleError):
        SYSTEM.stealth_move(c, ["huge"], rng=random.Random(2))


# ------------------------------------------------------------------------------------------------
# (4) the scene object for the GM's Caprice limit
# ------------------------------------------------------------------------------------------------
def test_scene_limits_gm_caprices_per_hero():
    scene = SYSTEM.new_scene("ambush")
    a, b = hero(threads=2), hero(threads=2)
    SYSTEM.invoke_caprice(a, "C1", by="gm", scene=scene, hero_id="a")
    assert a.threads == 3 and not a.gm_caprice_used  # the flag is not used
    with pytest.raises(RuleError) as e:
        SYSTEM.invoke_caprice(a, "C1", by="gm", scene=scene, hero_id="a")
    assert e.value.code == "gm_caprice_once" and a.threads == 3
    SYSTEM.invoke_caprice(b, "C3", by="gm", scene=scene, hero_id="b")  # another hero: allowed
    SYSTEM.invoke_caprice(a, "C1", by="player", scene=scene, hero_id="a")  # A45: the player's own does not count
    assert scene.gm_caprices == ["a", "b"] and a.threads == 4
    fresh = SYSTEM.new_scene("next")
    assert fresh.gm_caprice_available("a")


def test_scene_round_trip_and_bad_data():
    s = Scene("x", ["a"])
    data = json.loads(json.dumps(s.to_dict()))
    assert Scene.from_dict(data) == s
    for bad in ({}, {**data, "schema": 2}, {**data, "gm_caprices": ["a", "a"]}, {**data, "gm_caprices": [1]}, [1]):
        with pytest.raises(RuleError):
            Scene.from_dict(bad)
    with pytest.raises(RuleError):
        SYSTEM.invoke_caprice(hero(), "C1", by="gm", scene=s)  # which hero?


# ------------------------------------------------------------------------------------------------
# (5) treatment in progress saved with the character
# ------------------------------------------------------------------------------------------------
def test_treatment_saved_and_restored():
    medic = hero(medicine=3, intelligence=14, expert_access=["medicine"])  # turns max(1, 10 - 3 - 2) = 5
    ch = SYSTEM.begin_treatment(medic, "patient-1")
    assert medic.treatment["turns_left"] == 5 and ch["treatment"][0] == {}
    SYSTEM.treatment_turn(medic)
    restored = Character.from_dict(json.loads(json.dumps(medic.to_dict())))
    assert restored.treatment == medic.treatment and restored.treatment["turns_left"] == 4
    assert combat.Treatment.from_dict(restored.treatment, options=SYSTEM.rules).to_dict() == restored.treatment
    assert SYSTEM.treatment_status(restored)["patient"] == "patient-1"
    SYSTEM.end_treatment(restored)
    assert restored.treatment == {} and SYSTEM.treatment_status(restored) is None


@pytest.mark.parametrize(
    "bad",
    [
        {"patient": "p"},
        {
            **dict(
                patient="p",
                turns_left=-1,
                hp_lost=0,
                medic_will=3,
                interrupted=False,
                skill="medicine",
                characteristic="intelligence",
            )
        },
        {
            **dict(
                patient="p",
                turns_left=2,
                hp_lost=0,
                medic_will=3,
                interrupted=False,
                skill="medicine",
                characteristic="intelligence",
            ),
            "extra": 1,
        },
    ],
)
def test_bad_saved_treatment_is_refused(bad):
    with pytest.raises(ValidationError):
        Character(treatment=bad)
    with pytest.raises(RuleError):
        combat.Treatment.from_dict(bad, options=SYSTEM.rules)


@pytest.mark.parametrize("mode,interrupted", [("cumulative", True), ("single_hit", False)])
def test_damage_to_a_treating_medic_interrupts_A29(mode, interrupted):
    gm = SYSTEM.with_rules(medicine_interrupt=mode)
    medic = hero(medicine=2)  # Will (12 + 11) // 4 = 5
    gm.begin_treatment(medic, "p")
    gm.apply_damage(medic, 3)
    out = gm.apply_damage(medic, 3)
    assert medic.treatment["interrupted"] is interrupted
    assert bool(out.details.get("treatment_interrupted")) is interrupted
    assert "treatment" in out.changes


def test_on_turn_counts_the_treatment_down():
    medic = hero(medicine=6, intelligence=14)  # max(1, 10 - 6 - 2) = 2 turns
    assert SYSTEM.on_turn(medic, "end") is None  # nothing in progress
    SYSTEM.begin_treatment(medic, "p")
    assert SYSTEM.on_turn(medic, "start") is None
    first = SYSTEM.on_turn(medic, "end")
    assert isinstance(first, DamageOutcome) and first.details["turns_left"] == 1
    done = SYSTEM.on_turn(medic, "end")
    assert done.details["treatment_done"] and "roll the Medicine" in done.notes[0]["en"]
    with pytest.raises(RuleError):
        SYSTEM.on_turn(medic, "middle")


# ------------------------------------------------------------------------------------------------
# (6) stealthy movement (L403)
# ------------------------------------------------------------------------------------------------
def test_stealthy_speed_halves_and_rounds_down():
    c = hero(dexterity=15, constitution=14)  # Speed 7
    assert c.speed == 7 and c.speed_stealthy == 3 and SYSTEM.stealthy_speed(c) == 3
    c.quadruped = True
    assert c.speed_stealthy == 7  # 14 // 2
    assert Character(size="huge").speed_stealthy is None


def test_stealth_move_rolls_stealth_with_the_group_penalty():
    c = hero(stealth=3)
    out = SYSTEM.stealth_move(c, ["medium", "large"], rng=random.Random(4), difficulty=12)
    assert out["group_penalty"] == -1 - 2 and out["speed"] == c.speed // 2
    plain = SYSTEM.roll_check(c, "dexterity+stealth", rng=random.Random(4), difficulty=12)
    assert out["check"].total == plain.total - 3


# ------------------------------------------------------------------------------------------------
# (7) tracker hooks
# ------------------------------------------------------------------------------------------------
def test_healing_options_match_apply_healing():
    living, robot = hero(), hero(attributes=[{"code": "combat_robot", "name": "R"}])
    opts = SYSTEM.healing_options(living)
    assert all(isinstance(o, OptionSpec) for o in opts) and opts[0].name == "source"
    assert [v for v, _ in opts[0].choices] == ["", "medicine", "living"]
    assert [v for v, _ in SYSTEM.healing_options(robot)[0].choices] == ["", "repair"]
    living.hp = 5
    for value, _ in opts[0].choices:
        SYSTEM.apply_healing(living, 1, source=value)
    assert living.hp == 8 and living.medicine_today


def test_condition_changed_mirrors_the_catalogue():
    c = hero()
    out = SYSTEM.condition_changed(c, "unconscious", True)
    assert out.defeated and c.conditions == ["unconscious"] and out.state["en"]
    assert SYSTEM.condition_changed(c, "unconscious", True) is None  # already there
    out = SYSTEM.condition_changed(c, "unconscious", False)
    assert not out.defeated and c.conditions == [] and out.changes["conditions"] == (["unconscious"], [])
    assert SYSTEM.condition_changed(c, "prone", False) is None
    with pytest.raises(RuleError):
        SYSTEM.condition_changed(c, "on_fire", True)


def test_initiative_tiebreaks_list_ids():
    a, b = Character(dexterity=14, wisdom=10), Character(dexterity=12, wisdom=12)
    order = SYSTEM.roll_initiative({"a": a, "b": b}, rng=random.Random(1))
    assert order.tiebreaks and order.tiebreaks[0]["ids"] == ["a", "b"]
    assert json.loads(json.dumps(order.tiebreaks[0]["ids"])) == ["a", "b"]


# ------------------------------------------------------------------------------------------------
# (2) %roll forms through the bound character, or standalone
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "static perception",
        "check dexterity+stealth vs 10",
        "defcheck vs 20",
        "attack VAL vs 18",
        "attack MRK vs 12 dur 1",
        "reroll",
    ],
)
def test_character_forms_need_a_bound_character(text):
    with pytest.raises(DiceError) as e:
        roll(text, rng=random.Random(1))
    assert "bound character" in e.value.message and "привязанный персонаж" in e.value.message_ru
    assert e.value.position in (0, 7)  # the form, or the VAL/MRK name


def test_static_forms():
    c = hero()  # perception 3, INT +1, WIS 0
    assert roll("static perception WIS", variables=bound(c)).total == 10 + 3 + 0
    assert roll("static perception", variables=bound(c)).total == 10 + 3 + 1  # best usual characteristic
    r = roll("static perception adv vs 16", variables=bound(c))
    assert r.total == 19 and r.check.passed
    assert roll("static perception INT hin2", variables=bound(c)).total == 14 - 5  # flat 5 (A6)
    assert roll("static perception INT hin2", variables=bound(c)).total == SYSTEM.static_value(
        c, "intelligence+perception", hindrances=2
    )
    d = roll("static survival WIS", variables=bound(c))  # no access: 5 + mod (L413)
    assert d.total == 5
    p = forms.parse_static("static stealth DEX vs 14", 0, None, context=bound(c), options=SYSTEM.rules).distribution()
    assert p.p_pass == 1 and dict(p) == {10 + 2 + 2: 1}


def test_static_errors_point_into_the_text():
    c = hero()
    with pytest.raises(DiceError) as e:
        roll("static nosuch", variables=bound(c))
    assert e.value.position == 7
    with pytest.raises(DiceError) as e:
        roll("static perception WIS banana", variables=bound(c))
    assert e.value.position == 22


def test_check_form_matches_the_named_check_and_records_it():
    c = hero()
    r = roll("check dexterity+stealth adv vs 15", rng=random.Random(5), variables=bound(c))
    direct = SYSTEM.roll_check(c, "dexterity+stealth", rng=random.Random(5), advantages=1, difficulty=15)
    assert r.total == direct.total and r.check.passed == direct.success
    d = forms.parse_check("check dexterity+stealth adv vs 15", context=bound(c), options=SYSTEM.rules).distribution()
    assert d.p_pass == SYSTEM.chance(c, "dexterity+stealth", difficulty=15, advantages=1)


def test_defcheck_form():
    c = hero(dexterity=14, armour_bonus=2)  # DEF - BDEF = 2 + 2
    r = roll("defcheck vs 20", rng=random.Random(3), variables=bound(c))
    assert r.total - 4 in range(1, 21)
    assert r.tree.details["damage"] == max(0, 20 - r.total)
    d = forms.parse_defcheck("defcheck vs 20", context=bound(c), options=SYSTEM.rules).distribution()
    assert d.p_pass == Fraction(5, 20)
    with pytest.raises(DiceError):
        roll("defcheck", variables=bound(c))  # the difficulty is required


@pytest.mark.parametrize("die,dmg", [(14, 6), (3, 0), (20, 12)])
def test_attack_standalone_S23(die, dmg):
    class Fixed(random.Random):
        def randint(self, a, b):
            return die

    r = roll("attack 10 vs 18", rng=Fixed())
    assert r.total == die + 10 and r.tree.details["damage"] == dmg  # S23: 14 + 10 vs 18 -> 6


def test_attack_durability_and_nat20():
    class Fixed(random.Random):
        def randint(self, a, b):
            return 20

    r = roll("attack 2 vs 25 dur 3", rng=Fixed())
    assert r.tree.details["damage"] == 1  # L114: a natural 20 costs >= 1 HP
    f = forms.parse_attack("attack 7 vs 12 dur 4", options=SYSTEM.rules)
    dist = f.damage_distribution()
    brute = {}
    for x in range(1, 21):
        k = checks.attack_damage(x + 7, 12, 4, x)
        brute[k] = brute.get(k, 0) + Fraction(1, 20)
    assert dict(dist) == brute and f.distribution().p_pass == Fraction(16, 20)


def test_attack_with_the_bound_characters_valor():
    c = hero()  # weapons 2: no 0-XP Hindrance
    f = forms.parse_attack("attack VAL vs 12 dur 2", context=bound(c), options=SYSTEM.rules)
    assert f.distribution().p_pass == SYSTEM.chance(c, "valor", difficulty=12)
    z = hero(weapons=0)
    fz = forms.parse_attack("attack VAL vs 12", context=bound(z), options=SYSTEM.rules)
    assert fz.distribution().p_pass == SYSTEM.chance(z, "valor", difficulty=12)  # L380 Hindrance included
    r = roll("attack VAL vs 12 dur 2", rng=random.Random(9), variables=bound(c))
    assert r.tree.details["damage"] == checks.attack_damage(r.total, 12, 2, r.tree.details["kept"])


def test_contest_form_odds_and_roll():
    f = forms.parse_contest("d20+8 vs d20+6", options=SYSTEM.rules)
    d = f.distribution()
    brute_win = sum(Fraction(1, 400) for x, y in itertools.product(range(1, 21), repeat=2) if x + 8 > y + 6)
    assert d.p_pass == brute_win == checks.contest_odds(8, 6)["a"]
    r = roll("t20+3 adv vs t20+5", rng=random.Random(1))
    assert r.tree.details["winner"] in ("a", "b", "tie") and len(r.tree.rolled) == 3
    with pytest.raises(DiceError):
        roll("t20+8 vs d20+6 extra")


def test_a_contest_bound_to_another_systems_character_uses_the_words_own_options():
    """The Contest and ``dist d20`` forms need no character: one of another system bound to the tray
    (no Threads of Fate GM options) leaves the options the words were made with."""
    from tabletop_widgets import get_system

    other = get_system("ret").Character()
    ctx = WordContext({}, other)
    assert forms.parse_contest("d20+8 vs d20+6", context=ctx, options=SYSTEM.rules).rules == SYSTEM.rules
    assert forms.parse_dist("dist d20+5 adv vs 15", context=ctx, options=SYSTEM.rules).distribution().p_pass


def test_contest_tie_changes_nothing():
    class Fixed(random.Random):
        def randint(self, a, b):
            return 10

    r = roll("t20+6 vs t20+6", rng=Fixed())
    assert r.tree.details["winner"] == "tie" and not r.check.passed
    assert any("tie" in n["en"] for n in r.notes)


def test_reroll_form_spends_a_thread_twice_at_most():
    c = hero(threads=3)
    with pytest.raises(DiceError) as e:
        roll("reroll", variables=bound(c))
    assert "nothing to re-roll" in e.value.message
    SYSTEM.roll_check(c, "dexterity+stealth", rng=random.Random(1), difficulty=15)
    r1 = roll("reroll", rng=random.Random(2), variables=bound(c))
    assert c.threads == 2 and "1 of 2" in r1.notes[1]["en"]
    roll("reroll", rng=random.Random(3), variables=bound(c))
    assert c.threads == 1
    with pytest.raises(DiceError) as e:
        roll("reroll", rng=random.Random(4), variables=bound(c))
    assert "twice" in e.value.message and c.threads == 1
    d = forms.parse_dist("dist reroll", context=bound(c), options=SYSTEM.rules).distribution()
    assert d.p_pass == SYSTEM.chance(c, "dexterity+stealth", difficulty=15)


def test_the_last_check_belongs_to_its_character_not_to_a_module_table():
    """Two trays bound to two heroes: a check rolled in one is not the other's to re-roll; a copy of a
    hero (``from_dict``) starts without one; the last check is never saved."""
    import tabletop_systems.threads_of_fate as package

    a, b = hero(name="A", threads=3), hero(name="B", threads=3)
    tray_a = WordContext(SYSTEM.variables(a), a)
    tray_b = WordContext(SYSTEM.variables(b), b)
    first = roll("check dexterity+stealth vs 15", rng=random.Random(1), variables=tray_a)
    assert a.last_check is not None and a.last_check.check_id == "dexterity+stealth" and b.last_check is None
    with pytest.raises(DiceError) as e:
        roll("reroll", rng=random.Random(2), variables=tray_b)
    assert "nothing to re-roll" in e.value.message and b.threads == 3
    SYSTEM.roll_check(b, "strength+athletics", rng=random.Random(3), difficulty=12)
    again = roll("reroll", rng=random.Random(4), variables=tray_a)  # A's own check, not B's newer one
    assert a.threads == 2 and b.threads == 3 and a.last_check.check_id == "dexterity+stealth"
    assert again.tree.details["check_id"] == "dexterity+stealth" and a.last_check.details["rerolls"] == 1
    assert first.tree.details["check_id"] == "dexterity+stealth"
    assert b.last_check.check_id == "strength+athletics" and b.last_check.details["rerolls"] == 0
    copy = Character.from_dict(a.to_dict())
    assert copy.last_check is None and "last_check" not in a.to_dict()
    with pytest.raises(DiceError):
        roll("reroll", variables=bound(copy))
    for name in ("checks", "forms", "attack_forms", "form_parts", "system", "model"):
        module = importlib.import_module(f"{package.__name__}.{name}")
        assert not [k for k, v in vars(module).items() if isinstance(v, weakref.WeakKeyDictionary)], name


def test_reroll_needs_a_thread():
    c = hero(threads=0)
    SYSTEM.roll_check(c, "dexterity+stealth", rng=random.Random(1), difficulty=15)
    with pytest.raises(DiceError) as e:
        roll("reroll", variables=bound(c))
    assert "Thread" in e.value.message and e.value.message_ru


@pytest.mark.parametrize(
    "text,p",
    [
        ("dist d20+5 adv vs 15", Fraction(319, 400)),
        ("dist t20+5 vs 15", Fraction(11, 20)),
        ("dist t20+5 adv3 hin1 vs 15", Fraction(7271, 8000)),
        ("dist t20+8 vs t20+6", Fraction(229, 400)),
        ("dist attack 7 vs 18", Fraction(1, 2)),
    ],
)
def test_dist_forms(text, p):
    r = roll(text)
    assert r.tree.details["p_pass"] == p and str(p) in r.tree.breakdown["en"]
    assert forms.parse_dist(text, options=SYSTEM.rules).distribution().p_pass == p


def test_dist_with_character_and_errors():
    c = hero()
    r = roll("dist static perception INT vs 14", variables=bound(c))
    assert r.tree.details["p_pass"] == 1
    for bad in ("dist", "dist banana"):
        with pytest.raises(DiceError) as e:
            roll(bad)
        assert e.value.message_ru and e.value.position == 5 if bad == "dist banana" else True


def test_forms_follow_the_characters_rules():
    c = SYSTEM.with_rules(static_flat_5=False).Character(
        **{k: v for k, v in hero().to_dict().items() if k not in ("system", "schema")}
    )
    assert roll("static perception INT hin2", variables=bound(c)).total == 14 - 10  # A6: per level


def test_form_words_are_registered():
    names = {w.name for w in SYSTEM.dice_words()}
    assert {"tof_static", "tof_check", "tof_defcheck", "tof_attack", "tof_contest", "tof_reroll", "tof_dist"} <= names
    for w in SYSTEM.dice_words():
        assert w.help["en"] and w.help["ru"] and w.system == "threads_of_fate"


# ------------------------------------------------------------------------------------------------
# (8) the sheet's matrix column labels
# ------------------------------------------------------------------------------------------------
def test_matrix_columns_have_translated_labels():
    chars = next(s for s in SYSTEM.sheet.sections if s.id == "characteristics")
    by_column = {}
    for f in chars.fields:
        col = f.column
        if col:
            by_column.setdefault(col, set()).add(tuple(sorted(f.column_label.items())))
    assert set(by_column) == {"score", "mod", "bonus", "implant", "drain"}
    for col, labels in by_column.items():
        assert len(labels) == 1  # one header per column
        label = dict(next(iter(labels)))
        assert label["en"] and label["ru"] and label["en"] != label["ru"]


def test_plain_d20_contest_keeps_the_generic_meaning():
    """Installing this system must not change what generic notation means: ``d20+8 vs d20+6``
    is the generic check (ties pass), not this system's contest (ties are no success)."""
    from tabletop_widgets.dice import chance

    r = roll("d20+8 vs d20+6", seed=1)
    assert r.check is not None and r.check.op == ">="
    assert chance("1d20+6", ">=", 0) == 1  # sanity
    from tabletop_widgets.dice import distribution

    assert distribution("d20+8 vs d20+6").p_pass == Fraction(247, 400)  # P(a + 2 >= b), brute force
