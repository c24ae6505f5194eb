"""Seasons attacks under the attack contract (issue #16; spec §6.4, §6.6; L90-101, L504-515,
L741, L762-777): the attacks offered, exact odds against 3,000 rolls, odds worked out by hand,
``Combat.attack`` end to end, bad input refused, and the audit's two combat findings."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from helpers import FixedRng, assert_attack_odds_match_sample

from tabletop_systems.seasons import SYSTEM, Character
from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.combat.text import attack_dice

#: rolls per option variant (the default options get the full 3,000)
VARIANT_ROLLS = 500


def sheet_weapon(weapon_id: str) -> dict:
    """A weapon of the data table (spec §8.9) as the sheet holds it."""
    row = next(r for r in SYSTEM.data("weapons") if r["id"] == weapon_id)
    return {k: row[k] for k in ("attack_bonus", "armour_piercing", "skill", "attribute")} | {"name": row["ru"]}


def sheet_armour(armour_id: str) -> dict:
    row = next(r for r in SYSTEM.data("armour") if r["id"] == armour_id)
    return {"name": row["ru"], "penalty": row["penalty"], "worn": True}


def fresh_pair():
    return Character(name="Аня"), Character(name="Борис")


def fighter(**values):
    """A player character with a weapon of each kind: a knife (melee), a throwing knife (thrown)
    and a rifle with armour-piercing rounds (shooting), specializations in both skills, an
    Advantage, a Problem and a phobia."""
    base = dict(
        name="Вера",
        strength=4,
        dexterity=3,
        stamina=3,
        melee=3,
        ranged=2,
        weapons=[sheet_weapon("knife"), sheet_weapon("throwing_knife"), sheet_weapon("ap_rifle")],
        specializations=[
            {"skill": "melee", "name": "Ножи", "rating": 1},
            {"skill": "ranged", "name": "Винтовки", "rating": 2},
        ],
        advantages=["Боец"],
        problems=["Трусость"],
        conditions=[{"id": "phobia", "name": "Phobia", "kind": "mental"}],
    )
    return Character(**(base | values))


def guard(**values):
    """A non-player guard in a bulletproof vest (armour 3)."""
    return Character(**({"name": "Охранник", "stamina": 2, "is_player_character": False} | values))


def armoured_pc(**values):
    return Character(**({"name": "Глеб", "stamina": 3, "armour": [sheet_armour("leather")]} | values))


def non_default_values(spec) -> list[dict]:
    """Each option of ``spec`` set, one at a time, to a value other than its default."""
    out = []
    for o in spec.options:
        if o.kind == "bool":
            out.append({o.name: not o.default})
        elif o.kind == "choice":
            out += [{o.name: v} for v, _label in o.choices if v != o.default]
        else:
            out += [{o.name: v} for v in (o.min, o.max) if v != o.default]
    return out


# -- what is offered ----------------------------------------------------------------------------
def test_fresh_characters_can_always_fight_unarmed():
    ann, bob = fresh_pair()
    (unarmed,) = SYSTEM.attacks(ann, bob)
    assert unarmed.id == "unarmed" and unarmed.kind == "unarmed"
    assert unarmed.label == {"en": "Unarmed attack", "ru": "Безоружная атака"}  # L504
    # a fresh sheet has no Advantage, Problem, condition or specialization to offer
    assert [o.name for o in unarmed.options] == ["drama", "aim", "help", "situation", "defender_drama"]
    assert unarmed.defender_options == ("defender_drama",)
    assert "ФЗ цели" in unarmed.help["ru"] and "Physical Defence" in unarmed.help["en"]


def test_each_sheet_weapon_is_one_attack_of_its_own_kind():
    vera, target = fighter(), guard(armour=[sheet_armour("vest")])
    specs = {s.id: s for s in SYSTEM.attacks(vera, target)}
    assert list(specs) == [
        "unarmed",
        "melee:нож",
        "thrown:метательный_нож",
        "shooting:винтовка_с_бронебойными_патронами",
    ]
    assert [specs[i].kind for i in specs] == ["unarmed", "melee", "ranged", "ranged"]
    assert specs["melee:нож"].label == {"en": "Нож (melee)", "ru": "Нож (ближний бой)"}
    # against an NPC: no Drama to spend for him (L739), the quick-fight rule instead (L100)
    assert specs["melee:нож"].defender_options == ()
    quick = specs["melee:нож"].option("quick_fight")
    assert quick.gm_only and quick.default is False
    # each attack's specializations are those of its own skill (L762)
    assert [v for v, _ in specs["melee:нож"].option("specialization").choices] == ["", "Ножи"]
    assert [v for v, _ in specs["shooting:винтовка_с_бронебойными_патронами"].option("specialization").choices] == [
        "",
        "Винтовки",
    ]


def test_two_weapons_of_one_name_get_distinct_ids():
    twin_knives = fighter(weapons=[sheet_weapon("knife"), sheet_weapon("knife") | {"attack_bonus": 2}])
    ids = [s.id for s in SYSTEM.attacks(twin_knives, guard())]
    assert ids == ["unarmed", "melee:нож", "melee:нож_2"]
    # the second knife's own bonus counts (+2, not the first one's +1): 4 + 3 + 2 - 2 = 7 dice
    assert SYSTEM.attack_odds(twin_knives, guard(), "melee:нож_2").p_hit == 1 - Fraction(1, 2**7)


def test_an_npc_attacker_has_no_drama_to_spend():
    spec = SYSTEM.attacks(guard(), fighter())[0]
    assert "drama" not in [o.name for o in spec.options] and spec.defender_options == ("defender_drama",)


def test_an_attacker_out_of_the_fight_has_no_attacks():
    ann, bob = fresh_pair()
    SYSTEM.apply_damage(ann, ann.health_max)
    assert SYSTEM.attacks(ann, bob) == []
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(ann, bob, "unarmed")
    assert err.value.code == "attacker_out" and "Аня" in err.value.message["en"] and err.value.message["ru"]


# -- odds against rolls -------------------------------------------------------------------------
def test_fresh_characters_odds_agree_with_3000_rolls():
    ann, bob = fresh_pair()
    odds = assert_attack_odds_match_sample(SYSTEM, ann, bob, "unarmed", seed=16)
    assert odds.p_hit == 0  # Strength 1 + Melee 0 - PD 1: no dice left (L34)


FRESH_VARIANTS = non_default_values(SYSTEM.attacks(*fresh_pair())[0])


def test_fresh_characters_have_seven_option_variants():
    # drama, aim, help 5, situation -3 and +3, defender_drama
    assert len(FRESH_VARIANTS) == 6


@pytest.mark.parametrize("values", FRESH_VARIANTS, ids=lambda v: "-".join(f"{k}={v[k]}" for k in v))
def test_fresh_characters_each_option_agrees_with_rolls(values):
    ann, bob = fresh_pair()
    assert_attack_odds_match_sample(SYSTEM, ann, bob, "unarmed", n=VARIANT_ROLLS, seed=3, **values)


ARMED_PAIRS = {
    "guard": lambda: (fighter(), guard(armour=[sheet_armour("vest")])),
    "pc": lambda: (fighter(), armoured_pc()),
    "guard_attacks": lambda: (guard(strength=3, melee=2, weapons=[sheet_weapon("club")]), fighter()),
}


@pytest.mark.parametrize("pair", list(ARMED_PAIRS))
def test_armed_attacks_agree_with_3000_rolls(pair):
    attacker, target = ARMED_PAIRS[pair]()
    specs = SYSTEM.attacks(attacker, target)
    assert len(specs) >= 2
    for seed, spec in enumerate(specs):
        odds = assert_attack_odds_match_sample(SYSTEM, attacker, target, spec.id, seed=seed)
        assert 0 < odds.p_hit < 1 or spec.id == "unarmed"


@pytest.mark.parametrize("pair", list(ARMED_PAIRS))
def test_armed_attacks_each_option_agrees_with_rolls(pair):
    attacker, target = ARMED_PAIRS[pair]()
    checked = 0
    for spec in SYSTEM.attacks(attacker, target):
        for k, values in enumerate(non_default_values(spec)):
            assert_attack_odds_match_sample(SYSTEM, attacker, target, spec.id, n=VARIANT_ROLLS, seed=k, **values)
            checked += 1
    assert checked >= 10


# -- odds by hand -------------------------------------------------------------------------------
def book_pc_and_criminal():
    """The book's fight (L94-96): the PC has DEX 3, Ranged 2 and a pistol (+2); the criminal
    STR 3, Melee 3 and a knife (+1); both have PD 3 (Stamina 3)."""
    pc = Character(name="PC", dexterity=3, ranged=2, stamina=3, weapons=[sheet_weapon("pistol") | {"name": "pistol"}])
    criminal = Character(
        name="Criminal", strength=3, melee=3, stamina=3, weapons=[sheet_weapon("knife") | {"name": "knife"}]
    )
    return pc, criminal


def test_the_books_fight_by_hand():
    pc, criminal = book_pc_and_criminal()
    # Round 1 (L94): 3 + 2 + 2 - 3 - 2 (far, at dusk) = 2 dice; a hit is at least one 6+ on 2d10:
    # 1 - (1/2)^2 = 3/4; the damage is the successes, Binomial(2, 1/2).
    far = SYSTEM.attack_odds(pc, criminal, "shooting:pistol", situation=-2)
    assert far.p_hit == Fraction(3, 4)
    assert dict(far.damage) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    # Round 2 (L95): no penalty, 4 dice: 15/16; damage Binomial(4, 1/2); 10 health: no way out.
    near = SYSTEM.attack_odds(pc, criminal, "shooting:pistol")
    assert near.p_hit == Fraction(15, 16)
    assert dict(near.damage) == {k: Fraction(c, 16) for k, c in enumerate((1, 4, 6, 4, 1))}
    assert near.p_defeat == 0
    # The knife (L96): 3 + 3 + 1 - 3 = 4 dice. A PC with 8 of 10 levels filled is out on 2+
    # successes: 1 - 1/16 - 4/16 = 11/16.
    pc.damage = 8
    assert SYSTEM.attack_odds(criminal, pc, "melee:knife").p_defeat == Fraction(11, 16)


def test_armour_and_armour_piercing_by_hand():
    vera, target = fighter(), guard(armour=[sheet_armour("vest")])
    # Knife: STR 4 + Melee 3 + 1 - armour 3 - PD 2 = 3 dice: 7/8 (L92, L505, L774)
    assert SYSTEM.attack_odds(vera, target, "melee:нож").p_hit == Fraction(7, 8)
    # Rifle with AP 4: armour max(0, 3 - 4) = 0 (L826): DEX 3 + Ranged 2 + 3 - PD 2 = 6 dice: 63/64
    rifle = SYSTEM.attack_odds(vera, target, "shooting:винтовка_с_бронебойными_патронами")
    assert rifle.p_hit == Fraction(63, 64) and max(rifle.damage) == 6
    # With 18 dice (10 + 5 + knife 1 + Advantage 3 + help 1 - PD 2) 8 are rolled and 5 count
    # as successes (L55): a sure hit, 5-13 successes, but the guard has 10 health levels to lose
    # (L93, L722; audit 3): 5-10 damage, 10 whenever 10 or more successes come up
    strong = fighter(strength=10, melee=5)
    odds = SYSTEM.attack_odds(strong, guard(), "melee:нож", help=1, advantage=True)
    assert odds.p_hit == 1 and min(odds.damage) == 5 and max(odds.damage) == 10
    assert odds.damage[10] == sum(Fraction(comb(8, k), 2**8) for k in range(5, 9))


def test_quick_fight_by_hand():
    vera, mook = fighter(), guard()
    # Quick fight (L100): the first success takes the mook out whatever his health:
    # 4 + 3 + 1 - 2 = 6 dice, out with chance 63/64
    odds = SYSTEM.attack_odds(vera, mook, "melee:нож", quick_fight=True)
    assert odds.p_hit == odds.p_defeat == Fraction(63, 64)
    assert dict(odds.damage) == {0: Fraction(1, 64), 10: Fraction(63, 64)}


def test_what_the_sheet_brings_counts_in_the_odds():
    """The Problem and a condition (-3 each, L775) when ticked, Pain (-3, L708) and a queued aim
    (+2, L766) by themselves."""
    vera = fighter()
    base = 4 + 3 + 1 - 2  # 6 dice against the guard

    def p_hit(**options):
        return SYSTEM.attack_odds(vera, guard(), "melee:нож", **options).p_hit

    assert p_hit() == 1 - Fraction(1, 2**base)
    assert p_hit(problem=True, conditions=1) == 1 - Fraction(1, 2 ** (base - 6))
    SYSTEM.add_pending(vera, "aim", 2, "attack")
    assert p_hit() == 1 - Fraction(1, 2 ** (base + 2))
    vera.damage = 5  # half the health filled: Pain
    assert vera.pain_active and p_hit() == 1 - Fraction(1, 2 ** (base + 2 - 3))


# -- one roll -----------------------------------------------------------------------------------
def test_a_roll_shows_its_dice_and_says_what_it_did():
    pc, criminal = book_pc_and_criminal()
    out = SYSTEM.resolve_attack(pc, criminal, "shooting:pistol", rng=FixedRng(7, 2, 8, 9))  # L95
    assert out.hit and out.damage == 3 and out.details["pool"] == 4
    assert out.text["en"].endswith("hit, 3 damage") and "[7*, 2, 8*, 9*]" in out.text["en"]
    assert out.text["ru"] == "3 + 2 + 2 - 3 = 4: 4 дайса [7*, 2, 8*, 9*] → 3 успеха — попадание, урон 3"
    assert out.dice[0].total == 3
    miss = SYSTEM.resolve_attack(pc, criminal, "shooting:pistol", rng=FixedRng(1, 4), situation=-2)  # L94
    assert not miss.hit and miss.damage == 0 and miss.text["ru"].endswith("промах")


def test_quick_fight_roll_names_the_further_mooks():
    vera = fighter()
    out = SYSTEM.resolve_attack(vera, guard(), "melee:нож", rng=FixedRng(6, 6, 6, 1, 1, 1), quick_fight=True)
    assert out.damage == 10 and "2 more" in out.notes[0]["en"] and "ещё 2 рядовых" in out.notes[0]["ru"]


# -- Combat.attack end to end -------------------------------------------------------------------
class NoDice(random.Random):
    def random(self):
        raise AssertionError("replay rolled a die")


def test_combat_attack_applies_damage_effects_and_undoes_exactly():
    vera, gleb = fighter(), armoured_pc()
    SYSTEM.add_pending(vera, "aim", 2, "attack")
    combat = Combat(SYSTEM, rng=random.Random(5))
    combat.add("vera", vera)
    combat.add("gleb", gleb)
    before = {cid: persisted(combat.character(cid)) for cid in combat.ids}
    event = combat.attack("vera", "gleb", "melee:нож", drama=True, defender_drama=True)
    assert event["type"] == "attack" and event["text"]["en"] and event["text"]["ru"]
    v, g = combat.character("vera"), combat.character("gleb")
    # Drama spent on both sides (L741, L773), the queued aim used up (spec §7.10)
    assert v.drama == before["vera"]["drama"] - 1 and g.drama == before["gleb"]["drama"] - 1
    assert v.pending_bonus_dice == []
    # 4 + 3 + 1 + 3 (Drama) + 2 (aim) - 3 (Drama) - 1 (leather) - 3 (PD) = 6 dice
    assert "= 6" in event["text"]["en"]
    line = combat.describe(event, "ru")
    # the log's sentence: who, whom, with what, the outcome; what each side spent; the dice fold under it
    assert (
        line
        == "Вера → Глеб, Нож (ближний бой): попадание; урон 4 после брони; Вера: Драма 3→2; Глеб: 10→6 / 10, Драма 3→2"
    )
    assert attack_dice(event, "ru")[0].startswith("4 + 3 + 1 + 3 + 2 - 3 - 1 - 3 = 6: 6 дайсов [")
    assert g.damage == event["damage"] and (event["damage"] > 0) == event["hit"]
    effects = {e["id"]: e for e in event["effects"]}
    assert effects["vera"]["changes"]["drama"] == [before["vera"]["drama"], v.drama]
    assert effects["gleb"]["changes"]["drama"] == [before["gleb"]["drama"], g.drama]
    again = Combat.replay(SYSTEM, None, combat.events, rng=NoDice())
    assert {c: persisted(again.character(c)) for c in again.ids} == {
        c: persisted(combat.character(c)) for c in combat.ids
    }
    combat.undo()
    assert {cid: persisted(combat.character(cid)) for cid in combat.ids} == before


def test_combat_attack_to_zero_health_takes_the_target_out():
    vera, mook = fighter(), guard()
    combat = Combat(SYSTEM, rng=random.Random(2))
    combat.add("vera", vera)
    combat.add("mook", mook)
    for _ in range(10):
        event = combat.attack("vera", "mook", "melee:нож", quick_fight=True)
        if event["hit"]:
            break
    assert event["hit"] and event["damage"] == 10
    assert SYSTEM.is_defeated(combat.character("mook")) and combat.is_defeated("mook")
    target = next(e for e in event["effects"] if e["id"] == "mook")
    assert target["defeated"] and target["health"][1][0] == 0
    # with health gone he cannot strike back (L93)
    with pytest.raises(RuleError) as err:
        combat.attack("mook", "vera", "unarmed")
    assert err.value.code == "attacker_out"


def test_pain_follows_the_damage_of_an_attack():
    """Half the health filled brings Pain, -3 to all checks (L708): the log says so."""
    vera, gleb = fighter(), armoured_pc(damage=4)
    combat = Combat(SYSTEM, rng=random.Random(1))
    combat.add("vera", vera)
    combat.add("gleb", gleb)
    for _ in range(10):
        event = combat.attack("vera", "gleb", "melee:нож")
        if event["hit"]:
            break
    assert event["hit"] and combat.character("gleb").pain_active
    notes = next(e for e in event["effects"] if e["id"] == "gleb")["notes"]
    assert {"en": "Pain: -3 to all checks", "ru": "Боль: -3 ко всем проверкам"} in notes


# -- bad input ----------------------------------------------------------------------------------
def fight():
    combat = Combat(SYSTEM, rng=random.Random(9))
    combat.add("vera", fighter())
    combat.add("gleb", armoured_pc())
    combat.add("mook", guard())
    combat.add("broke", fighter(name="Нищий", drama=0))
    return combat


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda c: c.attack("vera", "gleb", "melee:базука"), "unknown_attack"),
        (lambda c: c.attack("vera", "gleb", "melee:нож", help=9), "bad_option"),
        (lambda c: c.attack("vera", "gleb", "melee:нож", situation="far"), "bad_option"),
        (lambda c: c.attack("vera", "gleb", "melee:нож", specialization="Мечи"), "bad_option"),
        (lambda c: c.attack("vera", "gleb", "melee:нож", quick_fight=True), "unknown_option"),
        (lambda c: c.attack("mook", "vera", "unarmed", drama=True), "unknown_option"),
        (lambda c: c.attack("broke", "gleb", "unarmed", drama=True), "no_drama"),
        (lambda c: c.attack("vera", "broke", "unarmed", defender_drama=True), "defender_no_drama"),
    ],
)
def test_bad_attacks_are_refused_with_nothing_changed(call, code):
    combat = fight()
    before = (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids})
    with pytest.raises(RuleError) as err:
        call(combat)
    assert err.value.code == code
    assert err.value.message["en"] and err.value.message["ru"] and err.value.message["en"] != err.value.message["ru"]
    assert (len(combat.events), {cid: persisted(combat.character(cid)) for cid in combat.ids}) == before


def test_one_drama_point_per_check_when_the_rules_say_so():
    """GM option drama_limit = per_check (L742): attacker and defender cannot both spend."""
    strict = SYSTEM.with_rules(drama_limit="per_check")
    with pytest.raises(RuleError) as err:
        strict.attack_odds(fighter(), armoured_pc(), "unarmed", drama=True, defender_drama=True)
    assert err.value.code == "drama_per_check" and err.value.message["ru"]


# -- the audit's findings -----------------------------------------------------------------------
def test_the_sheets_weapon_attribute_and_skill_are_what_the_attack_rolls():
    """L92, L504-515: Strength + Melee or Dexterity + Ranged (thrown: Strength + Ranged), as the
    sheet's weapon says. A melee blow is always Strength + Melee (L505): a rapier the sheet marks
    Dexterity still strikes with Strength, Dexterity + Melee being the feint (L506; audit 3)."""
    rapier = {"name": "Рапира", "attack_bonus": 2, "skill": "melee", "attribute": "dexterity"}
    duelist = Character(name="Дуэлянт", strength=1, dexterity=4, melee=3, ranged=0, weapons=[rapier])
    odds = SYSTEM.attack_odds(duelist, guard(), "melee:рапира")
    assert "Сила 1 + Ближний Бой 3" in odds.notes[0]["ru"] and odds.p_hit == 1 - Fraction(1, 2**4)
    # the older SYSTEM.attack rolls the weapon's own attribute and skill too, whatever kind is asked
    r = SYSTEM.attack(duelist, guard(), "melee", weapon="Рапира", rng=FixedRng(*[1] * 4))
    assert r.details["pool"] == 1 + 3 + 2 - 2 and r.details["terms"][0] == ("strength", 1)
    pc, criminal = book_pc_and_criminal()
    shot = SYSTEM.attack(pc, criminal, "melee", weapon="pistol", rng=FixedRng(*[1] * 4))
    assert shot.check_id == "shooting" and shot.details["terms"][:2] == [("dexterity", 3), ("ranged", 2)]
    vera = fighter()
    thrown = SYSTEM.resolve_attack(vera, guard(), "thrown:метательный_нож", rng=FixedRng(*[1] * 10))
    assert thrown.dice[0].check_id == "thrown_attack"
    assert thrown.dice[0].details["terms"][:2] == [("strength", 4), ("ranged", 2)]


def test_a_character_with_no_health_left_cannot_treat_himself():
    """L724-725: first aid and treatment may be given to oneself only while conscious and with
    health left; someone else may always try."""
    hurt = Character(name="Раненый", intelligence=8, medicine=5)
    SYSTEM.apply_damage(hurt, hurt.health_max)
    before = persisted(hurt)
    for roll in (SYSTEM.first_aid, SYSTEM.treatment):
        with pytest.raises(RuleError) as err:
            roll(hurt, hurt, rng=FixedRng(*[6] * 10))
        assert err.value.code == "cannot_treat_self" and "Раненый" in err.value.message["ru"]
        assert persisted(hurt) == before
    medic = Character(name="Врач", wits=6, medicine=5)  # 6 + 5 - 10 damaged levels = 1 die
    SYSTEM.first_aid(medic, hurt, rng=FixedRng(*[6] * 10))
    assert hurt.damage == hurt.health_max - 1
    # with a level back he may treat himself: 8 + 5 - 9 damaged levels - 3 Pain = 1 die (L725)
    SYSTEM.treatment(hurt, hurt, rng=FixedRng(*[6] * 10))
    assert hurt.damage < hurt.health_max - 1
