"""Threads of Fate's attacks (issue 16): the attack contract (``attacks``, ``attack_odds``,
``resolve_attack``, ``Combat.attack``) over the book's attack rules (spec §6.5, seed L108-109,
L114, L150-151, L189-191, L336-352, L380, L528-531) and the audit's fix of mutual aid (L142)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from helpers import assert_attack_odds_match_sample

from tabletop_systems.threads_of_fate import SYSTEM, Character, checks
from tabletop_systems.threads_of_fate.entry_limits import WEAPON_KINDS
from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.combat.text import attack_dice
from helpers import DiceInOrder

ROBOT = {"code": "combat_robot", "name": "Combat robot"}
MARTIAL = {"code": "martial_arts", "name": "Martial arts"}
VETERAN = {"code": "veteran", "name": "Veteran"}


def fresh():
    return Character(name="Ada"), Character(name="Bo")


def fighter(**kw):
    """A hero with one weapon of every kind the sheet allows (``entry_limits.WEAPON_KINDS``) and armour."""
    weapons = [
        {"name": name, "kind": kind, "dmb": dmb}
        for name, kind, dmb in (
            ("Machete", "melee", 2),
            ("Brass knuckles", "unarmed", 1),
            ("Rifle", "ranged", 3),
            ("Bow", "bow", 1),
            ("Throwing knife", "thrown", 0),
        )
    ]
    assert {w["kind"] for w in weapons} == set(WEAPON_KINDS)
    values = dict(
        name="Vera",
        strength=14,
        dexterity=14,
        weapons=4,
        unarmed=2,
        shooting=3,
        threads=4,
        weapons_list=weapons,
        armour_name="Leather",
        armour_bonus=2,
    )
    return Character(**{**values, **kw})


def robot(**kw):
    return Character(
        name="Iron",
        constitution=14,
        attributes=[ROBOT],
        weapons_list=[{"name": "Arm gun", "kind": "ranged", "dmb": 2, "built_in": True}],
        **kw,
    )


def martial(**kw):
    return Character(name="Lin", dexterity=14, wisdom=14, unarmed=4, attributes=[MARTIAL], **kw)


# ------------------------------------------------------------------------------------------------
# Which attacks
# ------------------------------------------------------------------------------------------------
def test_a_fresh_character_has_the_unarmed_strike():
    ada, bo = fresh()
    (strike,) = SYSTEM.attacks(ada, bo)
    assert strike.id == "unarmed" and strike.kind == "unarmed"
    assert strike.label == {"en": "Unarmed strike (Valor)", "ru": "Безоружный удар (Доблесть)"}
    assert [o.name for o in strike.options] == ["advantages", "hindrances", "bonus", "damage_kind", "contest", "bought"]
    assert strike.defender_options == ()
    assert strike.help["en"] and strike.help["ru"] and "Hindrance" in strike.help["en"]  # 0 XP in Unarmed combat (L380)
    assert {o.name for o in strike.options if o.gm_only} == {"bonus", "contest"}
    spec, chosen = SYSTEM.attack_spec(ada, bo, "unarmed", options={"advantages": 1})  # as GameSystem names it
    assert spec == strike and chosen == {**strike.defaults(), "advantages": 1}


def test_every_equipped_weapon_is_an_attack_with_its_own_rating():
    vera = fighter()
    ids = [a.id for a in SYSTEM.attacks(vera, Character())]
    assert ids == [
        "unarmed",
        "melee:machete",
        "unarmed:brass_knuckles",
        "ranged:rifle",
        "ranged:bow",
        "ranged:throwing_knife",
    ]
    kinds = {a.id: a.kind for a in SYSTEM.attacks(vera, Character())}
    assert kinds["melee:machete"] == "melee" and kinds["ranged:bow"] == "ranged"
    # Valor = Weapon handling 4 + mSTR 2 + mDEX 2 + DMB 2 = 10 (L336); a bow adds mSTR to its DMB (L338):
    # Shooting 3 + mDEX 2 + DMB 1 + mSTR 2 = 8; the throwing knife 3 + 2 + 0 + 2 = 7
    target = Character()  # Defense 10
    assert SYSTEM.attack_odds(vera, target, "melee:machete").p_hit == Fraction(20, 20)  # needs 0 on the die
    assert SYSTEM.attack_odds(vera, target, "ranged:bow").p_hit == Fraction(19, 20)  # needs 2
    assert SYSTEM.attack_odds(vera, target, "ranged:throwing_knife").p_hit == Fraction(18, 20)  # needs 3
    unequipped = fighter(weapons_list=[{"name": "Machete", "kind": "melee", "dmb": 2, "equipped": False}])
    # audit 3: a weapon put away is listed with why, never dropped (and making it is refused)
    listed = SYSTEM.attacks(unequipped, target)
    assert [a.id for a in listed] == ["unarmed", "melee:machete"]
    assert listed[0].unavailable is None and listed[1].unavailable["en"].startswith("Put away")


def test_weapon_ids_stay_readable_in_russian_and_unique():
    c = Character(
        weapons_list=[
            {"name": "Ржавый нож", "kind": "melee"},
            {"name": "Ржавый нож", "kind": "melee"},
            {"kind": "melee"},
        ]
    )
    assert [a.id for a in SYSTEM.attacks(c, Character())] == [
        "unarmed",
        "melee:ржавый_нож",
        "melee:ржавый_нож~2",
        "melee:3",
    ]
    assert SYSTEM.attacks(c, Character())[1].label["ru"] == "Ближний бой: Ржавый нож (Доблесть)"


def test_an_extra_is_not_offered_threads_and_a_martial_artist_defends():
    extra = Character(name="Raider", entity_type="extra")
    (strike,) = SYSTEM.attacks(extra, martial())
    assert "bought" not in [o.name for o in strike.options]  # extras do not use Threads (L64)
    assert strike.defender_options == ("mastery",)
    armoured = martial(armour_name="Plate", armour_bonus=4, armour_max_dex=0)  # loses the art (L527, L530)
    assert SYSTEM.attacks(extra, armoured)[0].defender_options == ()


# ------------------------------------------------------------------------------------------------
# Odds against 3,000 rolls
# ------------------------------------------------------------------------------------------------
FRESH_OPTIONS = [
    {},
    {"advantages": 2},
    {"hindrances": 2},
    {"advantages": 3, "hindrances": 1},
    {"bonus": 7},
    {"bonus": -5},
    {"damage_kind": "poison"},
    {"damage_kind": "contaminating"},
    {"contest": True},
    {"bought": "success"},
]


@pytest.mark.parametrize(
    "options", FRESH_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_fresh_characters_odds_agree_with_3000_rolls(options):
    ada, bo = fresh()
    for spec in SYSTEM.attacks(ada, bo):
        assert_attack_odds_match_sample(SYSTEM, ada, bo, spec.id, seed=16, **options)


ARMED_OPTIONS = [
    {"advantages": 1},
    {"hindrances": 1},
    {"bonus": -8},
    {"damage_kind": "contaminating"},
    {"contest": True},
    {"contest": True, "advantages": 2},
    {"bought": "success"},
    {"bought": "critical_success"},
    {"bought": "critical_success", "contest": True},
    {"bought": "success", "contest": True},
]


def _armed_pair():
    return fighter(), fighter(
        name="Oleg", shield_name="Door", shield_bonus=2, durability_gm=1
    )  # Defense 16, Durability 1


def test_an_armed_hero_against_an_armoured_one_every_attack():
    vera, oleg = _armed_pair()
    assert len(SYSTEM.attacks(vera, oleg)) == 6
    for spec in SYSTEM.attacks(vera, oleg):
        assert_attack_odds_match_sample(SYSTEM, vera, oleg, spec.id, seed=17)


@pytest.mark.parametrize("options", ARMED_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("attack_id", ["melee:machete", "unarmed:brass_knuckles", "ranged:bow"])
def test_an_armed_hero_against_an_armoured_one_with_options(attack_id, options):
    vera, oleg = _armed_pair()
    assert_attack_odds_match_sample(SYSTEM, vera, oleg, attack_id, seed=17, **options)


@pytest.mark.parametrize("kind", ["", "poison", "contaminating"])
def test_against_a_combat_robot_immune_and_resistant(kind):
    vera = fighter(attributes=[VETERAN])
    iron = robot()
    for attack_id in ("melee:machete", "ranged:rifle"):
        odds = assert_attack_odds_match_sample(SYSTEM, vera, iron, attack_id, seed=18, damage_kind=kind)
        if kind == "poison":
            assert odds.damage[0] == 1  # immune to Poison (L514)


def test_a_robot_attacks_with_its_built_in_gun():
    iron, vera = robot(), fighter()
    ids = [a.id for a in SYSTEM.attacks(iron, vera)]
    assert ids == ["unarmed", "ranged:arm_gun"]
    for attack_id in ids:
        assert_attack_odds_match_sample(SYSTEM, iron, vera, attack_id, seed=19)


@pytest.mark.parametrize("mastery", ["", "thread", "roll"])
def test_secrets_of_mastery_against_each_attack(mastery):
    vera, lin = fighter(), martial()
    for attack_id in ("melee:machete", "ranged:throwing_knife"):
        odds = assert_attack_odds_match_sample(SYSTEM, vera, lin, attack_id, seed=20, mastery=mastery)
        if mastery == "thread":
            assert set(odds.damage) == {0}


def test_the_sample_check_would_catch_odds_that_forget_durability():
    """The oracle can fail: odds computed for a target without Durability disagree with the rolls."""
    vera, tough = fighter(), Character(name="Tough", durability_gm=3)

    class Forgetful(type(SYSTEM)):
        def attack_odds(self, attacker, target, attack_id, **options):
            return super().attack_odds(attacker, Character(name="Soft"), attack_id, **options)

    with pytest.raises(AssertionError):
        assert_attack_odds_match_sample(Forgetful(), vera, tough, "melee:machete", seed=21)


# ------------------------------------------------------------------------------------------------
# Exact odds by hand
# ------------------------------------------------------------------------------------------------
def test_the_book_example_by_hand():
    """L352: Valor 10 against Defense 18, a 14 on the die: 10 + 14 - 18 = 6 Damage."""
    hero = Character(name="Hero", weapons=8, strength=12, weapons_list=[{"name": "Sabre", "kind": "melee", "dmb": 1}])
    target = Character(name="Extra", armour_bonus=8)  # Defense 10 + 0 + 8 = 18
    assert SYSTEM.attacks(hero, target)[1].id == "melee:sabre"
    out = SYSTEM.resolve_attack(hero, target, "melee:sabre", rng=DiceInOrder([14]))
    assert out.hit and out.damage == 6
    assert out.text["en"] == "d20 [14] → 14 +10 = 24 vs Defense 18: hit: 6 Damage"
    assert out.text["ru"] == "К20 [14] → 14 +10 = 24 против Защиты 18: попадание: Повреждения 6"
    # Exact: a die x hits when x + 10 >= 18, x >= 8: 13/20, and deals x - 8 (0 on an 8: the blow
    # meets the shield or armour, L359). Each value 1..12 has 1/20; 0 has 7/20 (misses) + 1/20.
    odds = SYSTEM.attack_odds(hero, target, "melee:sabre")
    assert odds.p_hit == Fraction(13, 20)
    assert odds.damage[0] == Fraction(8, 20)
    assert all(odds.damage[d] == Fraction(1, 20) for d in range(1, 13))
    assert odds.p_defeat == 0  # 30 HP, at most 12 Damage


def test_fresh_characters_by_hand():
    """Two fresh heroes: Valor (unarmed) 0 with a Hindrance (0 XP in Unarmed combat, L380) against
    Defense 10. The kept die is the lower of two d20: P(kept = x) = ((21-x)^2 - (20-x)^2)/400 =
    (41 - 2x)/400. A hit needs x >= 10: sum of (41 - 2x) for x = 10..20 = 11*41 - 2*165 = 121,
    so 121/400. A 20 deals 10, probability 1/400; a 10 deals 0 (a hit without Damage)."""
    ada, bo = fresh()
    odds = SYSTEM.attack_odds(ada, bo, "unarmed")
    assert odds.p_hit == Fraction(121, 400)
    assert odds.damage[10] == Fraction(1, 400)
    assert odds.damage[0] == 1 - Fraction(121, 400) + Fraction(21, 400)
    assert odds.p_defeat == 0
    # Two Advantages cancel the automatic Hindrance to one net Advantage: 1 - (9/20)^2 = 319/400
    assert SYSTEM.attack_odds(ada, bo, "unarmed", advantages=2).p_hit == Fraction(319, 400)


def test_natural_20_and_durability_by_hand():
    """L114: a 20 on the die always costs at least 1 HP, even against Defense 30 and Durability 5.
    Valor 0 with a Hindrance: P(kept 20) = 1/400; everything else misses."""
    ada = Character(name="Ada")
    wall = Character(name="Wall", armour_bonus=20, durability_gm=5)  # Defense 30
    odds = SYSTEM.attack_odds(ada, wall, "unarmed")
    assert odds.p_hit == Fraction(1, 400) and odds.damage[1] == Fraction(1, 400)
    out = SYSTEM.resolve_attack(ada, wall, "unarmed", rng=DiceInOrder([20, 20]))
    assert out.hit and out.damage == 1
    assert "a 20 on the die: at least 1" in out.text["en"] and "20 на кубике: не меньше 1" in out.text["ru"]
    out = SYSTEM.resolve_attack(fighter(), wall, "melee:machete", rng=DiceInOrder([20]))  # 20 + 10 - 30 - 5 < 1
    assert out.damage == 1 and "at least 1" in out.text["en"]
    out = SYSTEM.resolve_attack(fighter(), Character(name="Bo"), "melee:machete", rng=DiceInOrder([20]))
    assert out.damage == 20 and "at least 1" not in out.text["en"]  # the margin gave more: no note


def test_contest_by_hand():
    """L150-151: the defender rolls d20 + (Defense - Base Defense) in place of the Defense. A Valor 10
    machete against a fresh Bo (d20 + 0): the attacker wins when d20 + 10 > d20', ties change nothing.
    Without a Hindrance (4 XP in Weapon handling): P(win) = P(x + 10 > y) = 1 - P(y >= x + 10)
    = 1 - sum_{x=1..10} (11 - x)/400 = 1 - 55/400 = 345/400, and a tie (y = x + 10) has 10/400."""
    vera, bo = fighter(), Character(name="Bo")
    odds = SYSTEM.attack_odds(vera, bo, "melee:machete", contest=True)
    assert odds.p_hit == Fraction(345, 400)
    out = SYSTEM.resolve_attack(vera, bo, "melee:machete", contest=True, rng=DiceInOrder([5, 15]))
    assert not out.hit and out.damage == 0
    assert out.text["en"].endswith("vs Defense d20 [15] +0 = 15 (Contest): a tie: nothing changes")
    assert out.text["ru"].endswith("против Защиты К20 [15] +0 = 15 (Состязание): равенство: ничего не меняется")


def test_a_natural_20_lands_even_in_a_lost_contest():
    """L114 over L151: a 20 on the die costs at least 1 HP even when the defender rolls higher."""
    ada = Character(name="Ada", unarmed=1)
    wall = Character(name="Wall", armour_bonus=15)  # d20 + 15 in a Contest
    out = SYSTEM.resolve_attack(ada, wall, "unarmed", contest=True, rng=DiceInOrder([20, 10]))
    assert out.hit and out.damage == 1 and out.details["winner"] == "b"


def test_secrets_of_mastery_without_threads_by_hand():
    """L531: without Threads the Martial artist rolls Valor against 10 + the HP lost. Machete Valor 10
    against Lin's Defense 10 + 2 + 2 (mWIS, L527) = 14: a 19 deals 15, Lin needs 25 on Valor (unarmed)
    4 + 0 + 2 + 1 = 7 (DMB +1, L527), i.e. 18 on the die: 3/20; on a failure Lin falls."""
    vera, lin = fighter(), martial()
    assert lin.defense == 14 and lin.valor_unarmed == 7
    out = SYSTEM.resolve_attack(vera, lin, "melee:machete", mastery="roll", rng=DiceInOrder([19, 17]))
    assert out.hit and out.damage == 15 and [c.condition for c in out.conditions] == ["prone"]
    out = SYSTEM.resolve_attack(vera, lin, "melee:machete", mastery="roll", rng=DiceInOrder([19, 18]))
    assert out.hit and out.damage == 0 and out.conditions == []
    odds = SYSTEM.attack_odds(vera, lin, "melee:machete", mastery="roll")
    # a die x >= 4 hits for x - 4 Damage d; Lin keeps it off with 7 + a d20 >= 10 + d, i.e. a die of
    # d + 3 or more: a 19 (15 Damage) stays with Lin's 1..17, a 20 (16) with 1..18, a 5 (1) with 1..3
    assert odds.damage[15] == Fraction(1, 20) * Fraction(17, 20)
    assert odds.damage[16] == Fraction(1, 20) * Fraction(18, 20)
    assert odds.damage[1] == Fraction(1, 20) * Fraction(3, 20)
    assert odds.p_hit == Fraction(17, 20)


def test_lucky_a_bought_success_deals_the_minimal_damage():
    """L189: 2 Threads before the roll buy the minimal success; its Damage before Durability is the
    GM option ``min_success_damage``: the book's 0 by default, as a rolled total equal to the Defense
    (L351, audit 3); the house reading 1 costs 1, so against Durability 1 nothing."""
    ada, bo = fresh()
    odds = SYSTEM.attack_odds(ada, bo, "unarmed", bought="success")
    assert odds.p_hit == 1 and odds.damage[0] == 1
    out = SYSTEM.resolve_attack(ada, bo, "unarmed", bought="success", rng=DiceInOrder([]))
    assert out.hit and out.damage == 0 and [(e.trait, e.delta) for e in out.attacker_effects] == [("threads", -2)]
    house = SYSTEM.with_rules(min_success_damage=1)
    assert house.attack_odds(ada, bo, "unarmed", bought="success").damage[1] == 1
    assert house.resolve_attack(ada, bo, "unarmed", bought="success", rng=DiceInOrder([])).damage == 1
    assert house.attack_odds(ada, Character(durability_gm=1), "unarmed", bought="success").damage[0] == 1


# ------------------------------------------------------------------------------------------------
# Combat.attack end to end
# ------------------------------------------------------------------------------------------------
class NoDice(random.Random):
    def random(self):
        raise AssertionError("replay rolled a die")


def _fight(attacker, target, seed=5):
    combat = Combat(SYSTEM, rng=random.Random(seed))
    combat.add("a", attacker)
    combat.add("t", target)
    return combat


def test_combat_attack_applies_damage_threads_and_the_fall_and_undoes_exactly():
    vera, lin = fighter(), martial(threads=3, dangerous_wound_threshold=5)
    combat = _fight(vera, lin)
    before = {cid: persisted(combat.character(cid)) for cid in combat.ids}
    # the machete with a bought critical success (4 Threads): the die counts as 20, 20 + 10 - 14 = 16
    event = combat.attack("a", "t", "melee:machete", bought="critical_success")
    assert event["hit"] and event["damage"] == 16
    mine = next(e for e in event["effects"] if e["id"] == "a")
    theirs = next(e for e in event["effects"] if e["id"] == "t")
    assert mine["changes"]["threads"] == [4, 0]
    assert theirs["changes"]["hp"] == [30, 14]  # CON 10 x 3 = 30 HP (L314)
    assert any("Dangerous wound" in n["en"] for n in theirs["notes"])  # the GM's threshold (apply_damage)
    # Lin answers the next blow (a 15: 11 Damage) with Secrets of mastery for 1 Thread: no HP lost
    combat.rng = DiceInOrder([15])
    event = combat.attack("a", "t", "melee:machete", mastery="thread")
    assert event["hit"] and event["damage"] == 0
    theirs = next(e for e in event["effects"] if e["id"] == "t")
    assert theirs["changes"] == {"threads": [3, 2]} and combat.character("t").hp == 14
    # without Threads: a 19 deals 15, Lin's Valor check against 25 fails (a 1) and Lin falls
    combat.rng = DiceInOrder([19, 1])
    event = combat.attack("a", "t", "melee:machete", mastery="roll")
    assert event["damage"] == 15 and [c["id"] for c in combat.conditions("t")] == ["prone"]
    assert combat.character("t").hp == -1 and SYSTEM.is_defeated(combat.character("t"))
    assert "prone" in combat.character("t").conditions
    assert "the defender falls" in event["text"]["en"] and "защитник падает" in event["text"]["ru"]
    # the log replays without dice to the same characters
    again = Combat.replay(SYSTEM, None, combat.events, rng=NoDice())
    assert {c: persisted(again.character(c)) for c in again.ids} == {
        c: persisted(combat.character(c)) for c in combat.ids
    }
    assert again.conditions("t") == combat.conditions("t")
    for _ in range(3):
        combat.undo()
    assert {cid: persisted(combat.character(cid)) for cid in combat.ids} == before
    assert combat.conditions("t") == []


def test_the_log_line_reads_in_both_languages():
    combat = _fight(fighter(), Character(name="Bo"), seed=2)
    event = combat.attack("a", "t", "ranged:rifle")
    # a hit that Bo's Defense just meets, without Damage: the sentence says so; the dice are folded
    assert combat.describe(event, "en") == "Vera hits Bo with Ranged: Rifle (Marksmanship), but no damage gets through"
    assert combat.describe(event, "ru") == "Vera → Bo, Дистанционный бой: Rifle (Меткость): попадание; урон не прошёл"
    assert attack_dice(event, "en")[0].startswith("d20 [2] → 2 +8 = 10 vs Defense 10: hit")
    assert attack_dice(event, "ru")[0].startswith("К20 [2] → 2 +8 = 10 против Защиты 10: попадание")


def test_a_defeating_blow_is_reported():
    vera = fighter()
    weak = Character(name="Weak", constitution=3)  # 9 HP
    odds = SYSTEM.attack_odds(vera, weak, "melee:machete")
    # Defense 10 - 1 (mDEX of DEX... 10 -> 0) = 10; Valor 10: a die x deals x; 9 HP fall to x >= 9: 12/20
    assert weak.defense == 10 and odds.p_defeat == Fraction(12, 20)
    combat = _fight(vera, weak)
    combat.rng = DiceInOrder([15])
    event = combat.attack("a", "t", "melee:machete")
    assert event["damage"] == 15 and SYSTEM.is_defeated(combat.character("t"))
    assert next(e for e in event["effects"] if e["id"] == "t")["defeated"]


# ------------------------------------------------------------------------------------------------
# Refusals: a clear bilingual error and nothing changed
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "attacker, target, attack_id, options, code",
    [
        (lambda: fighter(), lambda: Character(), "melee:axe", {}, "unknown_attack"),
        (lambda: fighter(), lambda: Character(), "melee:machete", {"advantages": 7}, "bad_option"),
        (lambda: fighter(), lambda: Character(), "melee:machete", {"damage_kind": "fire"}, "bad_option"),
        (lambda: fighter(), lambda: Character(), "melee:machete", {"contest": "yes"}, "bad_option"),
        (lambda: fighter(), lambda: Character(), "melee:machete", {"mastery": "thread"}, "unknown_option"),
        (lambda: fighter(threads=1), lambda: Character(), "melee:machete", {"bought": "success"}, "not_enough_threads"),
        (
            lambda: fighter(threads=3),
            lambda: Character(),
            "ranged:rifle",
            {"bought": "critical_success"},
            "not_enough_threads",
        ),
        (
            lambda: Character(name="Ada"),
            lambda: Character(armour_bonus=10),
            "unarmed",
            {"bought": "success"},
            "only_on_20",
        ),
        (lambda: fighter(), lambda: martial(threads=0), "melee:machete", {"mastery": "thread"}, "not_enough_threads"),
        (
            lambda: Character(entity_type="extra"),
            lambda: Character(),
            "unarmed",
            {"bought": "success"},
            "unknown_option",
        ),
        (lambda: fighter(), lambda: Character(size="huge"), "melee:machete", {}, "needs_gm_value"),
    ],
)
def test_bad_attacks_are_refused_and_nothing_changes(attacker, target, attack_id, options, code):
    a, t = attacker(), target()
    combat = _fight(a, t)
    before = (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids})
    for call in (
        lambda: SYSTEM.attack_odds(combat.character("a"), combat.character("t"), attack_id, **options),
        lambda: SYSTEM.resolve_attack(
            combat.character("a"), combat.character("t"), attack_id, rng=random.Random(1), **options
        ),
        lambda: combat.attack("a", "t", attack_id, **options),
    ):
        with pytest.raises(RuleError) as err:
            call()
        assert err.value.code == code
        assert err.value.message["en"] and err.value.message["ru"]
        assert err.value.message["en"] != err.value.message["ru"]
    assert (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids}) == before


# ------------------------------------------------------------------------------------------------
# The audit's fixes
# ------------------------------------------------------------------------------------------------
def test_mutual_aid_feeds_an_attack_and_cancels_before_the_cap():
    """L142 with L108-109 (the audit's finding): three helpers who succeed and one who fails give the
    attack 3 Advantages and 1 Hindrance, which cancel to a net of +2 (3 dice), not +1."""
    vera = fighter()
    aided = SYSTEM.attack_odds(vera, Character(armour_bonus=12), "ranged:rifle", advantages=3, hindrances=1)
    assert aided.p_hit == 1 - Fraction(13, 20) ** 3  # Marksmanship 3 + 2 + 3 = 8 vs 22: needs 14; net +2
    assert checks.net_dice(3, 1) == 2


def test_a_natural_1_never_deals_damage_when_it_fails():
    """A4 option ``nat1_auto_fail``: a 1 on the die fails the attack, so it deals no Damage even when
    the total reaches the Defense (the Damage is the margin of a successful attack, L351)."""
    strict = SYSTEM.with_rules(nat1_auto_fail=True)
    vera, bo = strict.Character(**fighter().to_dict()), strict.Character(name="Bo")
    out = strict.resolve_attack(vera, bo, "melee:machete", rng=DiceInOrder([1]))
    assert not out.hit and out.damage == 0
    assert strict.attack_odds(vera, bo, "melee:machete").p_hit == Fraction(19, 20)
    assert SYSTEM.resolve_attack(vera, bo, "melee:machete", rng=DiceInOrder([1])).damage == 1  # 1 + 10 - 10


def test_the_attack_word_agrees_a_failed_natural_1_deals_nothing():
    """The ``%roll attack`` word follows the same rule under ``nat1_auto_fail`` (A4, L351)."""
    from tabletop_systems.threads_of_fate import forms

    strict = SYSTEM.rules.replace(nat1_auto_fail=True)
    form = forms.parse_attack("attack 12 vs 10", options=strict)
    assert form.roll(DiceInOrder([1])).tree.details["damage"] == 0
    assert form.damage_distribution()[0] == Fraction(1, 20)  # only the 1 (13 >= 10 otherwise hits)
    loose = forms.parse_attack("attack 12 vs 10", options=SYSTEM.rules)
    assert loose.roll(DiceInOrder([1])).tree.details["damage"] == 3
