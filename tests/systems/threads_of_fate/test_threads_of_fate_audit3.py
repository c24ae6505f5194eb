"""The third rules audit of Threads of Fate, each finding a hand case against its seed line
(``004_930342107b23b376.txt``): a Strength or Dexterity at 0 fails Valor, Marksmanship and the
Defense check (L363 with L336, L338, L355); a Medicine success heals at least 1 (L439); a hero
needs two Tricks to start play (L264); one reading of the minimal hit's Damage (L351, L189, A13);
a new hero's XP are the creation XP alone (L263, L268); every attack the fragment gives a new
character (the unarmed strike, Martial arts, a Combat robot's built-in weapons, a weapon of every
kind the sheet takes) can be made."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, forms
from tabletop_systems.threads_of_fate.entry_limits import WEAPON_KINDS
from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.dice.words import WordContext
from helpers import DiceInOrder
from characters import THREADS_LEGAL

ROBOT = {"code": "combat_robot", "name": "Combat robot"}
MARTIAL = {"code": "martial_arts", "name": "Martial arts"}
MEDIC = {"code": "veteran", "name": "Veteran", "expert_access": ["warfare", "medicine"]}


def legal(**kw) -> Character:
    return Character(**{**THREADS_LEGAL, **kw})


def codes(c, severity="error"):
    return {p.code for p in SYSTEM.validate(c) if p.severity == severity}


def refused_start(c) -> set[str]:
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        SYSTEM.start_play(c)
    assert persisted(c) == before and c.phase == "creation", "a refusal changes nothing"
    return {p.code for p in err.value.data["problems"]}


# ------------------------------------------------------------------------------------------------
# 1. A characteristic at 0 fails the combat checks built on it (L363)
# ------------------------------------------------------------------------------------------------
def drained(characteristic: str, **kw) -> Character:
    """A fighter whose ``characteristic`` is drained to 0 (poison, L362): effective 0."""
    values = dict(name="Ada", strength=14, dexterity=14, weapons=4, unarmed=3, shooting=3, threads=5)
    values.update({characteristic + "_drain": values.get(characteristic, 10)}, **kw)
    c = Character(**values)
    assert c.effective[characteristic] == 0
    return c


@pytest.mark.parametrize(
    "characteristic,fails,holds",
    [
        ("strength", ("valor", "valor_unarmed"), ("marksmanship", "defense_check")),
        ("dexterity", ("valor", "valor_unarmed", "marksmanship", "defense_check"), ()),
    ],
)
def test_a_strength_or_dexterity_at_0_fails_the_combat_checks_built_on_it_L363(characteristic, fails, holds):
    """L363 "Нулевой уровень Характеристики означает, что существо автоматически проваливает любые
    проверки, связанные с ней": Valor adds mSTR and mDEX (L336), Marksmanship mDEX (L338), the
    Defense check DEF − BDEF, which holds mDEX (L340, L355). Before: chance 11/20 and more."""
    c = drained(characteristic)
    for check_id in fails:
        assert SYSTEM.chance(c, check_id, difficulty=2) == 0, check_id
        res = SYSTEM.roll_check(c, check_id, difficulty=2, rng=DiceInOrder([20, 20, 20]))
        assert res.details["kept"] == 20 and res.success is False, "not even a natural 20 (L114)"
        assert res.details["drained_by"] == characteristic
        assert "0: the check fails by itself" in res.outcome["en"]
        assert "проверка проваливается сама собой" in res.outcome["ru"]
    for check_id in holds:
        assert SYSTEM.chance(c, check_id, difficulty=2) > 0, check_id


@pytest.mark.parametrize("characteristic", ["strength", "dexterity"])
def test_an_attack_built_on_a_characteristic_at_0_never_hits_L363(characteristic):
    """L363 over L114: a natural 20 "always costs at least 1 HP", but the check fails by itself."""
    ada, bo = drained(characteristic), Character(name="Bo")
    odds = SYSTEM.attack_odds(ada, bo, "unarmed")
    assert odds.p_hit == 0 and dict(odds.damage) == {0: 1}
    out = SYSTEM.resolve_attack(ada, bo, "unarmed", rng=DiceInOrder([20, 20]))
    assert not out.hit and out.damage == 0
    assert "miss (" in out.text["en"] and "0: the check fails by itself" in out.text["en"]
    assert "промах (" in out.text["ru"]
    assert "no hit, even on a 20" in SYSTEM.attacks(ada, bo)[0].help["en"]
    contest = SYSTEM.resolve_attack(ada, bo, "unarmed", contest=True, rng=DiceInOrder([20, 20, 1]))
    assert not contest.hit and contest.damage == 0
    assert SYSTEM.attack_odds(ada, bo, "unarmed", contest=True).p_hit == 0
    assert not SYSTEM.attack(ada, bo, "valor_unarmed", rng=DiceInOrder([20, 20])).details["hit"]


@pytest.mark.parametrize("what", ["success", "critical_success"])
def test_no_success_is_bought_on_a_check_that_fails_by_itself_L363(what):
    """As for Survival outside familiar places (L424): a check that fails by itself has no success
    to buy, 2 or 4 Threads alike; nothing is spent."""
    ada, bo = drained("dexterity"), Character(name="Bo")
    before = persisted(ada)
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(ada, bo, "unarmed", bought=what)
    assert err.value.code == "drained" and "Threads cannot buy a success" in err.value.text("en")
    assert "успех за Нити не купить" in err.value.text("ru")
    with pytest.raises(RuleError):
        SYSTEM.roll_check(ada, "dexterity+stealth", difficulty=5, bought=what)
    assert persisted(ada) == before
    assert SYSTEM.chance(ada, "dexterity+stealth", difficulty=5, bought="failure") == 0  # still allowed


def test_the_attack_word_fails_for_a_drained_character_too_L363():
    """``%roll attack VAL vs 10`` for a bound character reads the same rule."""
    c = drained("strength")
    ctx = WordContext({}, c)
    form = forms.parse_attack("attack VAL vs 10", context=ctx, options=SYSTEM.rules)
    assert form.distribution().p_pass == 0 and dict(form.damage_distribution()) == {0: 1}
    rolled = form.roll(DiceInOrder([20, 20]))
    assert rolled.tree.details["damage"] == 0 and not rolled.check.passed


def test_a_combat_attack_of_a_drained_character_changes_nothing_but_the_log():
    ada, bo = drained("strength"), Character(name="Bo")
    combat = Combat(SYSTEM, rng=DiceInOrder([20, 20]))
    combat.add("a", ada)
    combat.add("b", bo)
    hp = bo.hp
    event = combat.attack("a", "b", "unarmed")
    assert not event["hit"] and event["damage"] == 0 and combat.character("b").hp == hp


# ------------------------------------------------------------------------------------------------
# 2. A Medicine success heals at least 1 HP (L439)
# ------------------------------------------------------------------------------------------------
def test_a_medicine_success_on_a_natural_20_below_10_heals_1_L439():
    """L439 "В случае успеха герой восстанавливает цели 1 ЕЗ": a natural 20 succeeds below 10 (L114,
    nat20_auto_success), and that success heals 1, not 1 + floor((6 - 10) / 5) = 0 (before: 0)."""
    medic = Character(intelligence=10, medicine=1, attributes=[MEDIC])
    patient = Character(hp=3)
    out = SYSTEM.medicine(medic, patient, rng=DiceInOrder([20]), bonus=-15)  # 20 + 1 + 0 - 15 = 6
    assert out["check"].success and out["check"].total == 6
    assert out["heal"] == 1
    miss = SYSTEM.medicine(medic, Character(hp=3), rng=DiceInOrder([2]), bonus=-15)
    assert not miss["check"].success and miss["heal"] == 0


@pytest.mark.parametrize(
    "total,success,healed",
    [(6, True, 1), (9, True, 1), (9, False, 0), (10, True, 1), (14, True, 1), (15, True, 2), (25, True, 4)],
)
def test_the_medicine_heal_amount_of_a_success_is_at_least_1_L439(total, success, healed):
    """Spec D19 plus the case it misses: a success below 10 (a natural 20) heals 1."""
    from tabletop_systems.threads_of_fate import combat

    assert combat.medicine_heal_amount(total, success) == healed


# ------------------------------------------------------------------------------------------------
# 3. Two Tricks to start play (L264)
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_hero_without_exactly_two_tricks_cannot_start_play_L264(n):
    """L264 "Выберите для героя 2 Трюка" (before: 0 or 1 was a warning and play started)."""
    c = legal(tricks=[{"name": f"Trick {i}"} for i in range(n)])
    (v09,) = [p for p in SYSTEM.validate(c) if p.code == "V09"]
    assert v09.severity == "error" and f"has {n}" in v09.message["en"]
    assert "V09" in refused_start(c)


def test_a_hero_with_two_tricks_starts_play_L264():
    c = legal()
    assert len(c.tricks) == 2 and SYSTEM.validate(c) == []
    SYSTEM.start_play(c)
    assert c.phase == "play"


# ------------------------------------------------------------------------------------------------
# 4. The minimal hit: one reading for a rolled total equal to the Defense and a bought success
# ------------------------------------------------------------------------------------------------
def test_a_total_equal_to_the_defense_and_a_bought_success_deal_the_same_L351():
    """L351 "Цель получает 1 Повреждение за каждую 1, на которую атакующий герой преодолел Защиту":
    a total of exactly 18 against Defense 18 is a hit with 0 Damage (L359: the blow meets the shield);
    a bought minimal success (L189 "минимально необходимый успех") is that same hit (before: 1).
    The house reading ``min_success_damage=1`` makes both cost 1."""
    hero = Character(name="Hero", unarmed=8, strength=12, threads=2)  # Valor (unarmed) 8 + 1 = 9
    target = Character(name="Extra", armour_bonus=8)  # Defense 18
    rolled = SYSTEM.resolve_attack(hero, target, "unarmed", rng=DiceInOrder([9]))  # 9 + 9 = 18
    bought = SYSTEM.resolve_attack(hero, target, "unarmed", bought="success", rng=DiceInOrder([]))
    assert (rolled.hit, rolled.damage) == (True, 0) and (bought.hit, bought.damage) == (True, 0)
    house = SYSTEM.with_rules(min_success_damage=1)
    rolled = house.resolve_attack(hero, target, "unarmed", rng=DiceInOrder([9]))
    bought = house.resolve_attack(hero, target, "unarmed", bought="success", rng=DiceInOrder([]))
    assert (rolled.damage, bought.damage) == (1, 1)
    assert house.resolve_attack(hero, target, "unarmed", rng=DiceInOrder([14])).damage == 5  # the margin
    # the exact odds agree: a 9 on the die is 1/20 of the single d20 (Unarmed 8 XP: no Hindrance)
    assert SYSTEM.attack_odds(hero, target, "unarmed").damage[0] == Fraction(9, 20)  # 1..8 miss, 9 hits for 0
    assert house.attack_odds(hero, target, "unarmed").damage[1] == Fraction(2, 20)  # a 9 and a 10
    assert SYSTEM.attack_odds(hero, target, "unarmed", bought="success").damage[0] == 1
    assert house.attack_odds(hero, target, "unarmed", bought="success").damage[1] == 1


def test_the_attack_word_reads_the_minimal_hit_the_same_way():
    house = SYSTEM.with_rules(min_success_damage=1)
    book = forms.parse_attack("attack 9 vs 18", options=SYSTEM.rules).roll(DiceInOrder([9]))
    house_roll = forms.parse_attack("attack 9 vs 18", options=house.rules).roll(DiceInOrder([9]))
    assert (book.tree.details["damage"], house_roll.tree.details["damage"]) == (0, 1)


def test_min_success_damage_is_checked():
    with pytest.raises(ValueError):
        SYSTEM.with_rules(min_success_damage=-1)
    assert SYSTEM.rules.min_success_damage == 0


# ------------------------------------------------------------------------------------------------
# 5. A new hero's XP are the creation XP alone (L263, L268)
# ------------------------------------------------------------------------------------------------
def test_the_creation_xp_the_book_gives_are_kept_as_unspent_xp_L263_L268():
    """L263: refusing both Attributes gives 10 extra XP; L268: 10 XP for skills. A hero who spends
    none of the 20 enters play with 20 unspent XP, the most the book gives a new hero."""
    c = legal(attributes=[], facets=[], stealth=0, unarmed=0, warfare=0)
    assert c.creation_xp == 20 and not codes(c)
    SYSTEM.start_play(c)
    assert c.xp_free == 20


@pytest.mark.parametrize("trait,code", [("xp_free", "V24"), ("xp_total", "V25")])
def test_one_xp_more_than_the_book_gives_is_refused_L268(trait, code):
    """The audit's case: 5000 XP typed in while creating made 5020 free XP in play. One is one too
    many: XP beyond the creation XP are the GM's award, in play."""
    c = legal(attributes=[], facets=[], stealth=0, unarmed=0, warfare=0, **{trait: 1})
    (p,) = [p for p in SYSTEM.validate(c) if p.code == code]
    assert p.severity == "error" and p.field == trait and "GM" in p.message["en"] and "мастер" in p.message["ru"]
    assert code in refused_start(c)
    c.update(**{trait: 0})
    SYSTEM.start_play(c)
    assert c.xp_free == 20


def test_xp_in_play_are_no_creation_problem():
    c = legal()
    SYSTEM.start_play(c)
    c.update(xp_free=c.xp_free + 5, xp_total=5)  # the GM's award in play
    assert not {"V24", "V25"} & {p.code for p in SYSTEM.validate(c)}


# ------------------------------------------------------------------------------------------------
# 6. Every attack the fragment gives a new character can be made
# ------------------------------------------------------------------------------------------------
def every_weapon_hero() -> Character:
    """A hero with one weapon of every kind the sheet takes (``WEAPON_KINDS``; the fragment's weapon
    table is missing, §7.7: the GM enters the Damage bonus), a cumbersome and a Reload one too."""
    weapons = [{"name": f"{kind} weapon", "kind": kind, "dmb": 1} for kind in WEAPON_KINDS]
    weapons += [
        {"name": "Sledgehammer", "kind": "melee", "dmb": 3, "cumbersome": True},
        {"name": "Musket", "kind": "ranged", "dmb": 4, "reload": True},
    ]
    return Character(name="Vera", strength=14, dexterity=14, weapons=3, unarmed=2, shooting=3, weapons_list=weapons)


def usable(attacker, target, attack_id):
    odds = SYSTEM.attack_odds(attacker, target, attack_id)
    out = SYSTEM.resolve_attack(attacker, target, attack_id, rng=random.Random(4))
    assert 0 < odds.p_hit <= 1 and out.attack_id == attack_id
    return odds


def test_every_weapon_kind_on_the_sheet_is_an_attack():
    """One attack per weapon (L336-338): melee and unarmed with Valor, ranged, bows and thrown with
    Marksmanship. "Reload" (L157) only stops a Quick attack (not in the fragment): the Musket fires."""
    vera, bo = every_weapon_hero(), Character(name="Bo")
    specs = SYSTEM.attacks(vera, bo)
    assert len(specs) == 1 + len(vera.weapons_list)
    for spec in specs:
        assert spec.unavailable is None
        usable(vera, bo, spec.id)
    kinds = {s.id.split(":")[0] for s in specs}
    assert kinds == {"unarmed", "melee", "ranged"}


def test_a_martial_artists_unarmed_strike_is_light_with_damage_bonus_1_L527():
    lin = Character(name="Lin", dexterity=14, wisdom=14, unarmed=4, attributes=[MARTIAL])
    bo = Character(name="Bo")
    (strike,) = SYSTEM.attacks(lin, bo)
    assert strike.id == "unarmed" and lin.valor_unarmed == 4 + 0 + 2 + 1
    usable(lin, bo, "unarmed")


def test_a_combat_robots_built_in_weapons_are_attacks_even_unticked_L512():
    """L512: built-in weapons "не занимают руки" — always at hand, whatever the In use tick; their
    Damage bonus takes the size bonus (Medium 0)."""
    iron = Character(
        name="Iron",
        constitution=14,
        attributes=[ROBOT],
        shooting=2,
        weapons_list=[
            {"name": "Arm gun", "kind": "ranged", "dmb": 2, "built_in": True, "equipped": False},
            {"name": "Saw", "kind": "melee", "dmb": 1, "built_in": True},
        ],
    )
    bo = Character(name="Bo")
    ids = [s.id for s in SYSTEM.attacks(iron, bo)]
    assert ids == ["unarmed", "ranged:arm_gun", "melee:saw"]
    for attack_id in ids:
        usable(iron, bo, attack_id)


def test_a_weapon_put_away_is_listed_with_why_and_refused():
    """Never dropped: a weapon not at hand is listed, says why, and attacking with it is refused."""
    vera = Character(name="Vera", weapons=2, weapons_list=[{"name": "Machete", "kind": "melee", "equipped": False}])
    bo = Character(name="Bo")
    spec = next(s for s in SYSTEM.attacks(vera, bo) if s.id == "melee:machete")
    assert "In use" in spec.unavailable["en"] and "Используется" in spec.unavailable["ru"]
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(vera, bo, "melee:machete")
    assert err.value.code == "attack_unavailable" and err.value.message == spec.unavailable
    vera.weapons_list = [{"name": "Machete", "kind": "melee", "equipped": True}]
    usable(vera, bo, "melee:machete")


# ------------------------------------------------------------------------------------------------
# 7. The spec's §11 readings that had no GM option: each default and its other reading
# ------------------------------------------------------------------------------------------------
def test_A17_the_critical_move_is_before_the_roll_unless_the_gm_says_any_time_L191():
    """L189 says the 2-Thread Move is declared before the die; L191 (4 Threads) does not say: the
    default reads it the same way (nothing after the roll), ``any_time`` lets it follow the roll."""
    c = Character(dexterity=12, stealth=2, threads=4)
    res = SYSTEM.roll_check(c, "dexterity+stealth", difficulty=25, rng=DiceInOrder([3]))
    assert not res.success and SYSTEM.after_roll_options(c, res) == []
    late = SYSTEM.with_rules(critical_move_timing="any_time")
    res = late.roll_check(c, "dexterity+stealth", difficulty=25, rng=DiceInOrder([3]))
    (opt,) = late.after_roll_options(c, res)
    assert opt.name == "critical" and opt.label["ru"]
    crit = late.after_roll(c, res, critical="success")
    assert crit.success and crit.critical == "success" and crit.total == 23
    assert [(e.trait, e.delta) for e in crit.effects] == [("threads", -4)] and c.threads == 4  # not applied
    assert late.after_roll(c, res, critical="failure").critical == "failure"
    assert late.after_roll_options(Character(dexterity=12, stealth=2, threads=3), res) == []


def test_A25_built_in_weapons_have_no_minimum_unless_the_gm_sets_one_L512():
    weak = dict(constitution=6, attributes=[ROBOT])  # 1 + (-2) = -1
    assert Character(**weak).robot_max_weapons == 0
    assert SYSTEM.with_rules(robot_min_weapons=1).Character(**weak).robot_max_weapons == 1


def test_A27_energy_saving_is_the_players_pick_or_the_higher_L520():
    from tabletop_systems.threads_of_fate import attributes

    r = Character(constitution=10, intelligence=16, attributes=[ROBOT])  # 1 + 0 or 1 + 3, minimum 2
    assert attributes.robot_repair_outcome(r, "B", "constitution", options=SYSTEM.rules)["heal"] == 2
    higher = SYSTEM.with_rules(energy_saving_pick="higher").rules
    assert attributes.robot_repair_outcome(r, "B", "constitution", options=higher)["heal"] == 4


def test_A40_a_robots_discharge_leaves_the_robot_out_unless_the_gm_says_L521():
    from tabletop_systems.threads_of_fate import attributes

    r = Character(constitution=14, intelligence=12, attributes=[ROBOT])  # Contaminating 3
    assert attributes.robot_repair_outcome(r, "C", options=SYSTEM.rules)["self_damage"] == 0
    hits = SYSTEM.with_rules(robot_discharge_self=True).rules
    assert attributes.robot_repair_outcome(r, "D", options=hits)["self_damage"] == 1  # resisted: halved (L514)


def test_A46_a_persona_follows_the_npc_rule_unless_built_as_a_hero_L279():
    strong = dict(entity_type="persona", strength=22)
    assert not [p for p in SYSTEM.validate(Character(**strong)) if p.severity == "error"]
    as_hero = SYSTEM.with_rules(persona_caps="hero")
    with pytest.raises(ValueError):
        as_hero.Character(**strong)  # a hero's characteristic is entered 1-20
    p = as_hero.Character(entity_type="persona", strength=20, strength_bonus=2)
    assert p.effective["strength"] == 20 and "V05" in {x.code for x in as_hero.validate(p)}


def test_the_new_options_refuse_bad_values():
    for name, value in (
        ("critical_move_timing", "never"),
        ("energy_saving_pick", "lowest"),
        ("persona_caps", "god"),
        ("robot_min_weapons", -1),
    ):
        with pytest.raises(ValueError):
            SYSTEM.with_rules(**{name: value})
