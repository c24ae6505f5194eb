"""R.E.T. attacks through the attack contract (``core/attacks.py``): what is offered, exact odds
against 3,000 rolls, odds worked out by hand, ``Combat.attack`` end to end, bad input, and the
combat rules the audit of issue 16 found wrong or unwired (each test cites the seed line)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from helpers import assert_attack_odds_match_sample

from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.plan import plan
from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.combat.text import attack_dice

from ret_testkit import Scripted


def fresh_pair():
    return SYSTEM.Character(name="Ada"), SYSTEM.Character(name="Bo")


def weapon(category: str, name: str, **extra) -> dict:
    """A sheet weapon from the book's table (§8.7-§8.8): the row's kind and Weapon Damage."""
    row = next(r for r in SYSTEM.data("weapons") if r["id"] == category)
    return {"name": name, "category": category, "kind": row["kind"], "damage": row["damage"], **extra}


def armour(cls: str, name: str, locations: str = "body", **extra) -> dict:
    row = next(r for r in SYSTEM.data("armour") if r["id"] == cls)
    d = row["defence"]
    return {
        "name": name,
        "class": cls,
        "locations": locations,
        "defence": d,
        "durability": d,
        "durability_max": d,
        "penalty": row["penalty"],
        "worn": True,
        **extra,
    }


def fighter() -> Character:
    """A sword, a halberd, a pistol with a magazine, throwing knives and a fencing skill."""
    return Character(
        name="Vera",
        physique=5,
        endurance=4,
        fine_motor=4,
        weapons=[
            weapon("blade", "Sword"),
            weapon("heavy_blade", "Halberd", heavy=True),
            weapon("light_firearm", "Pistol", ammo=6, capacity=6),
            weapon("thrown_sharp", "Knives"),
        ],
        abilities=[{"name": "Fencing", "kind": "skill", "base_param": "physique", "level": 2}],
    )


def duelist() -> Character:
    """A one-handed sabre in each hand."""
    return Character(
        name="Lev",
        physique=5,
        endurance=4,
        weapons=[weapon("blade", "Sabre", one_handed=True), weapon("blade", "Sabre", one_handed=True)],
    )


def knight() -> Character:
    """Medium armour on the body, a light helmet, a sword to parry with."""
    return Character(
        name="Gleb",
        body_control=4,
        weapons=[weapon("blade", "Sword")],
        armour=[armour("medium", "Mail"), armour("light", "Helmet", "head")],
    )


def caster() -> Character:
    return Character(
        name="Mira",
        inspiration=5,
        abilities=[
            {
                "name": "Fire bolt",
                "kind": "talent",
                "base_param": "inspiration",
                "level": 4,
                "is_superpower": True,
                "sanity_cost": 1,
                "divider": [4, 2],
            }
        ],
    )


def _other_values(o) -> list:
    """The values of option ``o`` other than its default: every other choice; the other truth
    value; for a number, one step up (or down when up is out of bounds)."""
    if o.kind == "choice":
        return [v for v, _label in o.choices if v != o.default]
    if o.kind == "bool":
        return [not o.default]
    if o.kind == "int":
        for v in (o.default + 1, o.default - 1):
            if (o.min is None or v >= o.min) and (o.max is None or v <= o.max):
                return [v]
    return []


def option_variants(spec) -> list[dict]:
    """Default options, then each option set to each of its other values."""
    return [{}] + [{o.name: v} for o in spec.options for v in _other_values(o)]


def all_changed(spec) -> dict:
    """Every option that has another value set to it at once (the first other choice)."""
    return {o.name: _other_values(o)[0] for o in spec.options if _other_values(o)}


def every_attack(attacker, target, *, one_by_one: bool):
    """(attack id, options) for every attack offered: with its defaults and then each option
    non-default one by one (``one_by_one``) or all at once."""
    out = []
    for spec in SYSTEM.attacks(attacker, target):
        variants = option_variants(spec) if one_by_one else [{}, all_changed(spec)]
        out += [(spec.id, opts) for opts in variants]
    return out


# ------------------------------------------------------------------------------------------
# What is offered
# ------------------------------------------------------------------------------------------
def test_fresh_characters_have_bare_hands_plain_and_called():
    ada, bo = fresh_pair()
    specs = SYSTEM.attacks(ada, bo)
    assert [s.id for s in specs] == ["melee:unarmed", "called:unarmed", "immobilise:unarmed"]
    plain, called, _hold = specs
    assert plain.kind == "unarmed" and called.kind == "called"
    assert plain.label == {"en": "Unarmed (fists, kicks)", "ru": "Безоружная атака (кулаки, ноги)"}
    hiding = ["from_hiding", "hide_roll"]  # L1127 (audit 3 finding 3)
    defender = ["defence", "defence_luck", "detection"]
    assert [o.name for o in plain.options] == ["roll", "luck", "modifier", "extra_turn", *hiding, *defender]
    assert [o.name for o in called.options] == [
        "roll",
        "luck",
        "modifier",
        "extra_turn",
        "body_part",
        *hiding,
        *defender,
    ]
    assert plain.defender_options == tuple(defender)
    assert plain.option("modifier").gm_only and not plain.option("defence").gm_only
    # a bare hand parries bare hands (L1064), so all three defences are the target's to choose
    assert [v for v, _ in plain.option("defence").choices] == ["dodge", "parry", "none"]
    assert plain.option("luck").max == ada.luck == 6
    for spec in specs:
        for o in spec.options:
            assert o.label["en"] and o.label["ru"] and o.help["en"] and o.help["ru"]


def test_every_weapon_gives_a_plain_and_a_called_attack_and_a_superpower_its_own():
    ids = [s.id for s in SYSTEM.attacks(fighter(), knight())]
    assert ids == [
        "melee:unarmed",
        "called:unarmed",
        "immobilise:unarmed",
        "melee:sword",
        "called:sword",
        "melee:halberd",
        "called:halberd",
        "ranged:pistol",
        "called:pistol",
        "thrown:knives",
        "called:knives",
    ]
    assert [s.id for s in SYSTEM.attacks(caster(), knight())][-2:] == ["power:fire-bolt", "immobilise:fire-bolt"]
    sword = next(s for s in SYSTEM.attacks(fighter(), knight()) if s.id == "melee:sword")
    # the weapon's parameter first, then a skill based on it
    assert [v for v, _ in sword.option("roll").choices] == ["physique", "skill:Fencing"]


def test_a_bare_hand_cannot_parry_a_blade_nor_anyone_a_bullet():
    """L1064: parrying a knife with a bare hand is a failed defence; L1066: bullets are not
    parried; dodging is always there."""
    unarmed = Character(name="Bo")
    specs = {s.id: s for s in SYSTEM.attacks(fighter(), unarmed)}
    assert [v for v, _ in specs["melee:sword"].option("defence").choices] == ["dodge", "none"]
    assert [v for v, _ in specs["ranged:pistol"].option("defence").choices] == ["dodge", "none"]
    armed = {s.id: s for s in SYSTEM.attacks(fighter(), knight())}
    assert [v for v, _ in armed["melee:sword"].option("defence").choices] == ["dodge", "parry", "none"]
    assert [v for v, _ in armed["ranged:pistol"].option("defence").choices] == ["dodge", "none"]


def test_a_target_that_refused_defence_or_panics_has_fewer_defences():
    """L1046: no defence roll under defence refusal; L1548: in panic only the dodge."""
    ada = Character(name="Ada")
    refused = Character(name="Bo", conditions=[{"id": "defence_refused"}])
    spec = SYSTEM.attacks(ada, refused)[0]
    assert [v for v, _ in spec.option("defence").choices] == ["none"]
    panicking = Character(name="Bo", conditions=[{"id": "panic"}])
    spec = SYSTEM.attacks(ada, panicking)[0]
    assert [v for v, _ in spec.option("defence").choices] == ["dodge", "none"]
    # the attack roll is still made (L1046): only its fail misses
    assert SYSTEM.attack_odds(ada, refused, "melee:unarmed").p_hit == Fraction(5, 6)


# ------------------------------------------------------------------------------------------
# Exact odds agree with 3,000 rolls
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("attack_id, options", every_attack(*fresh_pair(), one_by_one=True))
def test_fresh_characters_odds_match_3000_rolls(attack_id, options):
    ada, bo = fresh_pair()
    assert_attack_odds_match_sample(SYSTEM, ada, bo, attack_id, seed=16, **options)


@pytest.mark.parametrize("attack_id, options", every_attack(fighter(), knight(), one_by_one=False))
def test_armed_against_armoured_odds_match_3000_rolls(attack_id, options):
    assert_attack_odds_match_sample(SYSTEM, fighter(), knight(), attack_id, seed=61, **options)


@pytest.mark.parametrize("attack_id", ["power:fire-bolt", "immobilise:fire-bolt"])
@pytest.mark.parametrize("changed", [False, True])
def test_superpower_odds_match_3000_rolls(attack_id, changed):
    spec = next(s for s in SYSTEM.attacks(caster(), knight()) if s.id == attack_id)
    options = all_changed(spec) if changed else {}
    assert_attack_odds_match_sample(SYSTEM, caster(), knight(), attack_id, seed=5, **options)


def test_the_variants_cover_every_option():
    """Each option of every attack gets a non-default value in some 3,000-roll check."""
    for attacker, target, one_by_one in [(*fresh_pair(), True), (fighter(), knight(), False)]:
        cases = every_attack(attacker, target, one_by_one=one_by_one)
        for spec in SYSTEM.attacks(attacker, target):
            changed = {k for attack_id, opts in cases if attack_id == spec.id for k in opts}
            assert changed == {o.name for o in spec.options if _other_values(o)}, spec.id
            # one choice only: the roll, and noticing a hidden attacker with Perception alone
            assert {o.name for o in spec.options if not _other_values(o)} <= {"roll", "detection"}


# ------------------------------------------------------------------------------------------
# Odds worked out by hand
# ------------------------------------------------------------------------------------------
def test_fresh_unarmed_against_a_dodge_by_hand():
    # Physique 3 vs Agility 3: both roll d6 (L486); a 1 fails (d4 degree), a 6 adds d8, an 8 on
    # it adds d10, then d12, d20, d100 (L538). Totals 2..5 have 1/6 each; 7..13: 1/48 each;
    # 15..23: 1/480; 25..35: 1/5760; 37..55: 1/115200; 57..156: 1/11520000. The attack wins when
    #   it fails and the dodge fails with a lower d4 (A9):   1/6 * 1/6 * 6/16 = 1/96
    #   it does not fail and the dodge fails:                 5/6 * 1/6       = 5/36
    #   neither fails and the attack total is higher (a tie goes to the defender, L1047):
    #     (P(both ok) − P(equal totals)) / 2, with P(equal) = Σ p(t)².
    equal = (
        4 * Fraction(1, 6) ** 2
        + 7 * Fraction(1, 48) ** 2
        + 9 * Fraction(1, 480) ** 2
        + 11 * Fraction(1, 5760) ** 2
        + 19 * Fraction(1, 115200) ** 2
        + 100 * Fraction(1, 11520000) ** 2
    )
    p_hit = Fraction(1, 96) + Fraction(5, 36) + (Fraction(25, 36) - equal) / 2
    ada, bo = fresh_pair()
    odds = SYSTEM.attack_odds(ada, bo, "melee:unarmed")
    assert odds.p_hit == p_hit
    # Strike Power = Strength 3 // 2 = 1, bare hands add 0 (L1254, L1270): every hit deals 1
    assert dict(odds.damage) == {0: 1 - p_hit, 1: p_hit}
    assert odds.p_defeat == 0  # 6 Health; negative Health alone is not defeat (L574)


def test_no_defence_roll_and_a_head_shot_by_hand():
    # No defence roll: only the attack's own fail misses (L1046): 5/6. A head shot rolls a die
    # level lower (L813: d6−1), still fails only on a 1; its damage is doubled (L818): 2 × 1.
    ada, bo = fresh_pair()
    odds = SYSTEM.attack_odds(ada, bo, "called:unarmed", defence="none")
    assert odds.p_hit == Fraction(5, 6)
    assert dict(odds.damage) == {0: Fraction(1, 6), 2: Fraction(5, 6)}
    # the weapon as a body part deals no damage to the target (L837)
    odds = SYSTEM.attack_odds(ada, bo, "called:unarmed", defence="none", body_part="weapon")
    assert odds.p_hit == Fraction(5, 6) and dict(odds.damage) == {0: 1}


def test_strike_power_plus_weapon_less_armour_by_hand():
    # Vera: Strength (5 + 4) // 2 = 4, Strike Power 2. Sword: 2 + 3 = 5 raw (L1254) − mail's
    # Defence 4 = 1. Halberd: 2 + 4 = 6 − 4 = 2. Pistol: Weapon Damage 3 only (L1309) − 4 < 1,
    # so the minimum, 1 (L1381). Head shot with the sword: 5 − helmet 2 = 3, doubled: 6 (L1415).
    vera, gleb = fighter(), knight()
    for attack_id, options, taken in [
        ("melee:sword", {}, 1),
        ("melee:halberd", {}, 2),
        ("ranged:pistol", {}, 1),
        ("called:sword", {"body_part": "head"}, 6),
    ]:
        odds = SYSTEM.attack_odds(vera, gleb, attack_id, defence="none", **options)
        assert set(odds.damage) == {0, taken}, attack_id
        assert odds.damage[taken] == odds.p_hit


def test_a_dying_mook_is_taken_out_by_any_hit():
    ada = Character(name="Ada")
    mook = Character(name="Goblin", is_npc=True, npc_tier="mook", health=1)
    odds = SYSTEM.attack_odds(ada, mook, "melee:unarmed", defence="none")
    assert odds.p_defeat == odds.p_hit == Fraction(5, 6)  # a mook dies at 0 Health (L1739)


# ------------------------------------------------------------------------------------------
# The audit's rules (issue 16), each with its seed line
# ------------------------------------------------------------------------------------------
def test_L1381_every_successful_attack_deals_at_least_one_health():
    # «Независимо от защиты брони при любой успешной атаке наносится 1 урона Здоровью!» (L1381)
    weakling = Character(name="Ada", physique=1, endurance=1)  # Strength 1: Strike Power 0
    assert weakling.strike_power == 0
    bo = Character(name="Bo")
    odds = SYSTEM.attack_odds(weakling, bo, "melee:unarmed", defence="none")
    assert dict(odds.damage) == {0: Fraction(1, 6), 1: Fraction(5, 6)}
    out = SYSTEM.resolve_attack(weakling, bo, "melee:unarmed", rng=Scripted(4), defence="none")
    assert out.hit and out.damage == 1
    SYSTEM.apply_attack(weakling, bo, out)
    assert bo.health == bo.health_max - 1
    # typed damage of 0 is still nothing (no attack was made)
    twin = Character(name="Cy")
    SYSTEM.apply_damage(twin, 0)
    assert twin.health == twin.health_max


def test_L698_a_tense_turn_may_spend_one_of_its_two_actions_on_the_attack():
    # «вместо атаки и действия, участники могут совершить два действия в свой ход, заменив по
    # своему желанию одну атаку на действие» (L698)
    st = SYSTEM.turn_state(Character(), tense=True)
    st.use("attack")
    st.use("action")
    with pytest.raises(RuleError):
        st.use("action")
    st = SYSTEM.turn_state(Character(), tense=True)
    st.use("action")
    st.use("attack")  # in any order
    with pytest.raises(RuleError):
        st.use("attack")
    st = SYSTEM.turn_state(Character(), tense=True)
    st.use("action")
    st.use("action")
    with pytest.raises(RuleError) as err:
        st.use("attack")  # both slots went to actions
    assert err.value.message["ru"]


def test_L1600_a_limb_injury_lowers_defence_dice_not_mental_defence():
    # «Повреждение ног ... -1 ур. куба защиты за каждую конечность» (L1600): the defences of
    # the body (dodge, parry), not mental defence nor psychological resistance
    for injury in ("injury_leg", "injury_arm"):
        c = Character(conditions=[{"id": injury}])
        assert plan(c, "dodge", {}, options=SYSTEM.rules).shift == -1
        assert plan(c, "parry", {}, options=SYSTEM.rules).shift == -1
        assert plan(c, "mental_defence", {}, options=SYSTEM.rules).shift == 0
        assert plan(c, "psych_resist", {}, options=SYSTEM.rules).shift == 0
    stunned = Character(conditions=[{"id": "stunned"}])  # "all rolls" still reaches them (L1566)
    assert plan(stunned, "mental_defence", {}, options=SYSTEM.rules).shift == -1


def test_L1065_a_won_parry_restores_one_sanity_through_the_attack():
    # «Боевой Раж — успешное парирование атаки ... восстанавливает 1 Рассудка» (L1065)
    vera = fighter()
    gleb = knight()
    gleb.sanity = was = gleb.sanity_max - 2
    fight = Combat(SYSTEM, rng=Scripted(3, 5))  # sword: physique d10 3; parry: Strength d6 5
    fight.add("vera", vera)
    fight.add("gleb", gleb)
    event = fight.attack("vera", "gleb", "melee:sword", defence="parry")
    assert not event["hit"]
    assert fight.character("gleb").sanity == was + 1
    assert event["notes"] == [
        {"en": "Battle Rage: the parry restores 1 Sanity", "ru": "Боевой Раж: парирование восстанавливает 1 Рассудка"}
    ]
    # a lost parry restores nothing
    out = SYSTEM.resolve_attack(vera, gleb, "melee:sword", rng=Scripted(7, 2), defence="parry")
    assert out.hit and not [e for e in out.target_effects if e.trait == "sanity"]


def test_L1269_L1275_the_weapon_names_its_attack_parameter():
    # «Тяжелое холодное оружие (алебарды, двуручные мечи, копья) | Сила Удара + 4 | Сила» (L1275):
    # Vera's Physique 5 rolls d10, her Strength 4 rolls d8; the halberd rolls Strength.
    vera, gleb = fighter(), knight()
    rng = Scripted(5, 3)
    SYSTEM.resolve_attack(vera, gleb, "melee:halberd", rng=rng)
    assert rng.asked[0] == (1, 8)
    rng = Scripted(5, 3)
    SYSTEM.resolve_attack(vera, gleb, "melee:sword", rng=rng)
    assert rng.asked[0] == (1, 10)
    # a heavy flag on a weapon without a category also makes it a Strength weapon (L1231)
    axe = Character(physique=5, endurance=4, weapons=[{"name": "Axe", "kind": "melee", "damage": 4, "heavy": True}])
    spec = next(s for s in SYSTEM.attacks(axe, gleb) if s.id == "melee:axe")
    assert spec.option("roll").default == "strength"
    # a pistol rolls Fine Motor (L1285): 4 -> d8
    rng = Scripted(5, 3)
    SYSTEM.resolve_attack(vera, gleb, "ranged:pistol", rng=rng)
    assert rng.asked[0] == (1, 8)


def test_L813_a_called_shot_rolls_one_die_level_lower():
    # «Атака совершается на 1 уровень куба ниже» (L813): Physique 5 (d10) becomes d8
    vera, gleb = fighter(), knight()
    rng = Scripted(5, 3, 4)  # the attack, the dodge, the target's Fine Motor against the disarm
    SYSTEM.resolve_attack(vera, gleb, "called:sword", rng=rng, body_part="arms")
    assert rng.asked[0] == (1, 8)


def test_L827_a_hit_to_the_legs_knocks_the_target_off_balance_unless_it_resists():
    # «Чтобы не упасть противник бросает Контроль Тела ... против того же броска атаки» (L827)
    vera, bo = fighter(), Character(name="Bo")
    # attack d8 7 vs dodge d6 2: hit; Body Control d6 3 < 7: off balance
    out = SYSTEM.resolve_attack(vera, bo, "called:sword", rng=Scripted(7, 2, 3), body_part="legs")
    assert out.hit and [(c.condition, c.on) for c in out.conditions] == [("off_balance", "target")]
    assert "off_balance" in {c.id for c in SYSTEM.conditions()}
    # the same total resisted: a tie goes to the target (spec §5.6)
    out = SYSTEM.resolve_attack(vera, bo, "called:sword", rng=Scripted(5, 2, 5), body_part="legs")
    assert out.hit and out.conditions == []


def test_L757_L769_an_attack_in_an_extra_turn_pays_for_it_through_the_tracker():
    # «Дополнительный ход за 3 Рассудка» (L762), the second «с отказом от защиты» (L769): an
    # attack made in a bought extra turn carries its price into the combat log, not by hand
    fight = Combat(SYSTEM, rng=random.Random(4))
    fight.add("ada", Character(name="Ada"))
    fight.add("bo", Character(name="Bo"))
    sanity = fight.character("ada").sanity
    event = fight.attack("ada", "bo", "melee:unarmed", extra_turn=1)
    assert fight.character("ada").sanity - sanity in (-3, -2)  # −3, +1 if the roll exploded (L541)
    assert {"en": "extra turn 1: 3 Sanity", "ru": "доп. ход 1: 3 Рассудка"} in event["notes"]
    fight.attack("ada", "bo", "melee:unarmed", extra_turn=2)
    assert [c["id"] for c in fight.conditions("ada")] == ["defence_refused"]
    assert fight.character("ada").has_condition("defence_refused")
    # now Ada cannot defend (L769): only "no defence roll" is hers to choose
    spec = SYSTEM.attacks(fight.character("bo"), fight.character("ada"))[0]
    assert [v for v, _ in spec.option("defence").choices] == ["none"]
    fight.undo()
    assert fight.conditions("ada") == []
    # no extra turns in rage (L1559) nor when the GM forbids them (L712)
    raging = Character(name="Ada", conditions=[{"id": "rage"}])
    assert "extra_turn" not in [o.name for o in SYSTEM.attacks(raging, Character())[0].options]
    strict = SYSTEM.with_rules(extra_turns="forbidden")
    assert "extra_turn" not in [o.name for o in strict.attacks(Character(), Character())[0].options]
    with pytest.raises(RuleError) as err:
        strict.resolve_attack(Character(), Character(), "melee:unarmed", rng=random.Random(1), extra_turn=1)
    assert err.value.code == "unknown_option"
    # the GM may require 3 Sanity for it (A23)
    needy = SYSTEM.with_rules(extra_turn_requires_sanity_ge_3=True)
    with pytest.raises(RuleError) as err:
        needy.attack_odds(Character(sanity=2), Character(), "melee:unarmed", extra_turn=1)
    assert err.value.message["ru"] == "Для доп. хода нужно 3 Рассудка."


@pytest.mark.parametrize("mode, taken", [("multiply", 2), ("two_hits", 3)])
def test_L1239_L1244_two_weapons_double_the_damage_one_level_lower(mode, taken):
    # «Атака двумя оружиями совершается на 1 уровень куба ниже ... Удвоенный урон в одну цель»
    # (L1241-1244). Lev: Strike Power 2 + sabre 3 = 5 raw against mail 4 (durability 4): one hit
    # deals 1, doubled 2 (A15); as two hits (GM option) the first wears the mail to 3/3 and the
    # second deals 5 − 3 = 2: 3 in all. Physique 5 − 1 level: d8, a fail 1/8 (no defence roll).
    system = SYSTEM.with_rules(dual_wield_mode=mode)
    lev, gleb = duelist(), knight()
    specs = {s.id: s for s in system.attacks(lev, gleb)}
    assert specs["melee:sabre"].option("two_weapons").default is False
    assert specs["melee:sabre-2"].option("two_weapons")  # either hand leads
    odds = system.attack_odds(lev, gleb, "melee:sabre", defence="none", two_weapons=True)
    assert odds.p_hit == Fraction(7, 8) and dict(odds.damage) == {0: Fraction(1, 8), taken: Fraction(7, 8)}
    assert_attack_odds_match_sample(system, lev, gleb, "melee:sabre", seed=12, two_weapons=True)
    fight = Combat(system, rng=Scripted(4))
    fight.add("lev", lev)
    fight.add("gleb", gleb)
    health = gleb.health
    event = fight.attack("lev", "gleb", "melee:sabre", defence="none", two_weapons=True)
    assert event["damage"] == taken and fight.character("gleb").health == health - taken
    # a sword alone is not a pair (L1239)
    assert "two_weapons" not in [o.name for o in SYSTEM.attacks(fighter(), gleb)[2].options]


# ------------------------------------------------------------------------------------------
# Combat.attack end to end
# ------------------------------------------------------------------------------------------
class _NoDice(random.Random):
    def random(self):
        raise AssertionError("replay rolled a die")

    def randint(self, a, b):
        raise AssertionError("replay rolled a die")


def test_combat_attack_applies_by_the_rules_undoes_and_replays():
    vera, gleb = fighter(), knight()
    fight = Combat(SYSTEM, rng=random.Random(0))
    fight.add("vera", vera)
    fight.add("gleb", gleb)
    before = {cid: persisted(fight.character(cid)) for cid in fight.ids}
    luck = vera.luck
    # a head shot: attack d8 7 (Physique 5, −1 level) + 2 Luck = 9; dodge d6 (Agility 3) 3
    fight.rng = Scripted(7, 3)
    event = fight.attack("vera", "gleb", "called:sword", body_part="head", luck=2)
    assert event["hit"] and event["damage"] == 6  # (2 + 3 − helmet 2) × 2
    g = fight.character("gleb")
    assert g.health == gleb.health_max - 6 and g.sanity == gleb.sanity_max - 3  # ×1 Sanity (L818)
    helmet = next(p for p in g.armour if p["name"] == "Helmet")
    assert helmet["durability"] == 1  # it protected against more than 1 (L1391)
    assert fight.character("vera").luck == luck - 2  # the Luck declared is spent
    # the mail's −2 burdens the dodge, an Agility roll (L1383, L1409)
    assert event["text"]["en"].startswith(
        "Head: L4 d8: 7 +2 [luck] = 9; Dodge (Agility): L3 d6: 3 -2 [armour] = 1 — hit"
    )
    # the log's sentence, what was spent, then the dice (the body part with them) in the fold
    assert fight.describe(event, "ru").startswith(
        "Vera → Gleb, Sword: атака в часть тела: попадание; урон 6 после брони; Vera: Удача 6→4; "
        "Gleb: 6→0 / 6, Рассудок 6→3, Helmet"  # the head shot's Sanity, then the helmet's wear
    )
    assert attack_dice(event, "ru")[0].startswith("В голову: L4 d8: 7")
    assert "попадание: −6 Здоровья, −3 Рассудка" in event["text"]["ru"]
    # a pistol shot spends a round (L1284) and a leg hit puts Off-balance on (L827)
    # Fine Motor 4, −1 level: d6 5 vs dodge 2: hit; Body Control d6 1: a fail (d4 2)
    fight.rng = Scripted(5, 2, 1, 2)
    event = fight.attack("vera", "gleb", "called:pistol", body_part="legs")
    assert event["hit"]
    assert next(w for w in fight.character("vera").weapons if w["name"] == "Pistol")["ammo"] == 5
    assert [c["id"] for c in fight.conditions("gleb")] == ["off_balance"]
    assert fight.character("gleb").has_condition("off_balance")  # its -1 reaches the rolls
    # the log replays to the same characters without a die
    again = Combat.replay(SYSTEM, None, fight.events, rng=_NoDice())
    assert {c: persisted(again.character(c)) for c in again.ids} == {
        c: persisted(fight.character(c)) for c in fight.ids
    }
    fight.undo()
    fight.undo()
    assert fight.character("gleb").health == gleb.health_max
    assert {cid: persisted(fight.character(cid)) for cid in fight.ids} == before
    assert fight.conditions("gleb") == []


def test_L936_the_aim_bonus_goes_into_the_next_attack_and_is_used_up():
    # «получить бонус к попаданию следующей атаки» (L936): Physique 5 d10 2 + aim 3 = 5 beats a
    # dodge of 4; the bonus is spent by that attack
    vera = fighter()
    vera.aim_bonus = 3
    fight = Combat(SYSTEM, rng=Scripted(2, 4))
    fight.add("vera", vera)
    fight.add("gleb", knight())
    event = fight.attack("vera", "gleb", "melee:sword")
    assert event["hit"] and "+3 [aim] = 5" in event["text"]["en"]
    assert fight.character("vera").aim_bonus == 0
    unaimed = SYSTEM.attack_odds(fighter(), knight(), "melee:sword").p_hit
    assert SYSTEM.attack_odds(vera, knight(), "melee:sword").p_hit == unaimed  # used up
    aimed = fighter()
    aimed.aim_bonus = 3
    assert SYSTEM.attack_odds(aimed, knight(), "melee:sword").p_hit > unaimed


def test_a_superpower_costs_sanity_and_deals_its_divider():
    # Fire bolt: talent level 4 (d8) + Inspiration 5; the normal divider 4 (+2) (L1185):
    # d8 8 → d10 3: 8 + 3 + 5 = 16 → 16 // 4 + 2 = 6 raw; no defence; mail 4: 2 Health.
    mira, gleb = caster(), knight()
    out = SYSTEM.resolve_attack(mira, gleb, "power:fire-bolt", rng=Scripted(8, 3), defence="none")
    assert out.hit and out.details["raw"] == 6 and out.damage == 2
    costs = [e for e in out.attacker_effects if e.trait == "sanity"]
    assert sum(e.delta for e in costs) == -1 + 1  # −1 cost (L1158), +1 for the success die (L541)
    # spent even on a fail (A44)
    out = SYSTEM.resolve_attack(mira, gleb, "power:fire-bolt", rng=Scripted(1, 2), defence="none")
    assert not out.hit and [e.delta for e in out.attacker_effects if e.trait == "sanity"] == [-1]


# ------------------------------------------------------------------------------------------
# Bad input
# ------------------------------------------------------------------------------------------
def _fight():
    fight = Combat(SYSTEM, rng=random.Random(1))
    fight.add("vera", fighter())
    fight.add("gleb", knight())
    return fight


@pytest.mark.parametrize(
    "attack_id, options, code",
    [
        ("melee:laser", {}, "unknown_attack"),
        ("power:fire-bolt", {}, "unknown_attack"),  # Vera has no superpower
        ("melee:sword", {"defence": "teleport"}, "bad_option"),
        ("ranged:pistol", {"defence": "parry"}, "bad_option"),  # nobody parries a bullet
        ("melee:sword", {"luck": 99}, "bad_option"),  # more Luck than she has
        ("melee:sword", {"luck": "2"}, "bad_option"),
        ("melee:sword", {"roll": "intellect"}, "bad_option"),
        ("called:sword", {"body_part": "soul"}, "bad_option"),
        ("melee:sword", {"body_part": "head"}, "unknown_option"),  # a plain attack has none
        ("melee:sword", {"modifier": 500}, "bad_option"),
    ],
)
def test_bad_attacks_are_refused_with_nothing_changed(attack_id, options, code):
    fight = _fight()
    before = (len(fight.events), {cid: persisted(fight.character(cid)) for cid in fight.ids})
    with pytest.raises(RuleError) as err:
        fight.attack("vera", "gleb", attack_id, **options)
    assert err.value.code == code
    assert err.value.message["en"] and err.value.message["ru"]
    assert (len(fight.events), {cid: persisted(fight.character(cid)) for cid in fight.ids}) == before


def test_an_empty_magazine_is_refused_and_the_weapon_listed_with_why():
    """L1287: an empty gun is listed ("empty: reload"), never dropped, and refused with that reason."""
    vera = fighter()
    vera.weapons = [dict(w, ammo=0) if w["name"] == "Pistol" else w for w in vera.weapons]
    gleb = knight()
    pistol = next(s for s in SYSTEM.attacks(vera, gleb) if s.id == "ranged:pistol")
    assert pistol.unavailable["en"] == "empty: reload (an action)"
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(vera, gleb, "ranged:pistol")
    assert err.value.code == "no_ammo"
    assert "Pistol" in err.value.message["en"] and "перезарядите" in err.value.message["ru"]


def test_no_attack_in_panic_or_doom():
    """L1548 (panic: no attacks), L1538 (doom: no attacks)."""
    for state in ("panic", "doom"):
        ada = Character(name="Ada", conditions=[{"id": state}])
        assert SYSTEM.attacks(ada, Character(name="Bo")) == []
        with pytest.raises(RuleError) as err:
            SYSTEM.resolve_attack(ada, Character(name="Bo"), "melee:unarmed", rng=random.Random(1))
        assert err.value.code == "cannot_attack" and err.value.message["ru"].startswith("Атаковать сейчас нельзя")
