"""The third rules audit of R.E.T., its attack findings (1, 2, 3 and 7): the attack contract
(``SYSTEM.attacks`` / ``attack_odds`` / ``resolve_attack`` / ``apply_attack``) played as the
tracker plays it, each reading a hand case citing the seed line (``000_616609df81580a02.txt``)."""

from __future__ import annotations

from fractions import Fraction

from ret_testkit import Scripted
from tabletop_systems.ret import SYSTEM, Character


def weapon(category: str, name: str, **extra) -> dict:
    """A sheet weapon from the book's table (§8.7-§8.8): the row's kind and Weapon Damage."""
    row = next(r for r in SYSTEM.data("weapons") if r["id"] == category)
    return {"name": name, "category": category, "kind": row["kind"], "damage": row["damage"], **extra}


def ability(name: str, kind: str, base: str, level: int = 3, **extra) -> dict:
    return {"name": name, "kind": kind, "base_param": base, "level": level, **extra}


def spec(attacker, target, attack_id: str):
    return next(s for s in SYSTEM.attacks(attacker, target) if s.id == attack_id)


def choices(attacker, target, attack_id: str, option: str) -> list:
    return [v for v, _ in spec(attacker, target, attack_id).option(option).choices]


# -- finding 1: the defender may roll a fitting ability (L1043, L1054, L1063) -------------------------
def test_a_dodge_with_evasion_is_offered_and_hit_26_percent_not_44():
    """L1054: «Уклонение — используется бросок Ловкости или подходящей способности». Bare hands
    (Physique 3: d6) against Evasion 3 on Agility 3 (d6 + 3): hit 25.6 %, not the 43.9 % of a
    plain Agility dodge."""
    ada, bo = Character(name="Ada"), Character(name="Bo", abilities=[ability("Evasion", "skill", "agility")])
    assert choices(ada, bo, "melee:unarmed", "defence") == ["dodge", "dodge:skill:Evasion", "parry", "none"]
    with_skill = SYSTEM.attack_odds(ada, bo, "melee:unarmed", defence="dodge:skill:Evasion")
    plain = SYSTEM.attack_odds(ada, bo, "melee:unarmed", defence="dodge")
    assert with_skill.p_hit == SYSTEM.contest_chance({"level": 3}, {"level": 3, "bonus": 3})
    assert (round(float(with_skill.p_hit), 3), round(float(plain.p_hit), 3)) == (0.256, 0.439)
    assert "Evasion" in with_skill.notes[0]["en"]


def test_the_fitting_dodge_decides_the_roll():
    """L1054 by hand: the attack's d6 shows 5; Bo's d6 shows 3. Plain Agility: 5 > 3, a hit.
    With Evasion: 3 + 3 = 6 ≥ 5, a miss (ties would go to the defender, L1047)."""
    ada, bo = Character(name="Ada"), Character(name="Bo", abilities=[ability("Evasion", "skill", "agility")])
    plain = SYSTEM.resolve_attack(ada, bo, "melee:unarmed", rng=Scripted(5, 3), defence="dodge")
    evaded = SYSTEM.resolve_attack(ada, bo, "melee:unarmed", rng=Scripted(5, 3), defence="dodge:skill:Evasion")
    assert (plain.hit, evaded.hit) == (True, False)
    assert evaded.details["defence_total"] == 6 and "Evasion" in evaded.text["en"]


def test_a_parry_with_a_fitting_talent_rolls_its_own_die():
    """L1063: «Парирование — используется бросок Силы или подходящей способности». Iron wall, a
    talent 5 on Strength 3: d10 + 3."""
    ada = Character(name="Ada", weapons=[weapon("blade", "Sword")])
    bo = Character(
        name="Bo", weapons=[weapon("blade", "Sword")], abilities=[ability("Iron wall", "talent", "strength", 5)]
    )
    assert "parry:talent:Iron wall" in choices(ada, bo, "melee:sword", "defence")
    out = SYSTEM.resolve_attack(ada, bo, "melee:sword", rng=Scripted(4, 7), defence="parry:talent:Iron wall")
    assert out.details["defence_total"] == 7 + 3 and not out.hit
    assert [(e.trait, e.delta) for e in out.target_effects] == [("sanity", 1)]  # Battle Rage (L1065)


# -- finding 2: the attacker may roll a fitting ability (L794, L1270-1275) ----------------------------
def test_the_books_example_abilities_are_offered_with_their_weapons():
    """L1270-1275: Martial arts from Body Control bare-handed, Barbarian weapons from Strength
    with a club, Assassin's weapons from Agility with a dagger, Swordmaster from Strength with a
    sword; L794: attacks use the third tier «если не применяются подходящие способности»."""
    ada = Character(
        name="Ada",
        weapons=[weapon("blunt", "Club"), weapon("short_blade", "Dagger"), weapon("blade", "Sword")],
        abilities=[
            ability("Martial arts", "skill", "body_control"),
            ability("Barbarian", "skill", "strength"),
            ability("Assassin", "talent", "agility"),
            ability("Swordmaster", "skill", "strength"),
        ],
    )
    bo = Character(name="Bo")
    assert choices(ada, bo, "melee:unarmed", "roll") == ["physique", "skill:Martial arts"]
    assert choices(ada, bo, "melee:club", "roll") == ["physique", "skill:Barbarian", "skill:Swordmaster"]
    assert choices(ada, bo, "melee:dagger", "roll") == [
        "physique",
        "body_control",
        "skill:Martial arts",
        "talent:Assassin",
    ]
    assert choices(ada, bo, "melee:sword", "roll") == ["physique", "skill:Barbarian", "skill:Swordmaster"]


def test_a_swordmaster_attacks_with_strength_and_its_level():
    """L1274: Swordmaster from Strength with a sword. Strength 5 (d10) + skill 3: the d10 shows 7,
    10 against Bo's dodge 2; damage Strike Power 2 + Weapon Damage 3 = 5 (L1254)."""
    ada = Character(
        name="Ada",
        physique=5,
        endurance=5,
        weapons=[weapon("blade", "Sword")],
        abilities=[ability("Swordmaster", "skill", "strength")],
    )
    bo = Character(name="Bo", physique=7, endurance=7)
    out = SYSTEM.resolve_attack(ada, bo, "melee:sword", rng=Scripted(7, 2), roll="skill:Swordmaster")
    assert (out.hit, out.details["attack_total"], out.damage) == (True, 10, 5)
    assert (
        SYSTEM.attack_odds(ada, bo, "melee:sword", roll="skill:Swordmaster").p_hit
        > SYSTEM.attack_odds(ada, bo, "melee:sword").p_hit
    )


def test_a_support_or_defence_ability_does_not_attack():
    """The fitting rule: Lockpicking (support, Fine Motor) does not shoot a pistol; a Gunslinger
    (no category given) does (L1328)."""
    ada = Character(
        name="Ada",
        weapons=[weapon("light_firearm", "Pistol", ammo=6, capacity=6)],
        abilities=[
            ability("Lockpicking", "skill", "fine_motor", category="support"),
            ability("Gunslinger", "skill", "fine_motor"),
            ability("Parry master", "skill", "fine_motor", category="combat_defence"),
        ],
    )
    assert choices(ada, Character(name="Bo"), "ranged:pistol", "roll") == ["fine_motor", "skill:Gunslinger"]


# -- finding 3: attacks from hiding (L1127, L1131, L1652) ---------------------------------------------
def hider() -> Character:
    """Ada hid with a Body Control roll of 7 (the Hidden condition keeps it)."""
    return Character(name="Ada", conditions=[{"id": "hidden", "magnitude": 7}])


def test_a_hidden_attacker_is_hit_more_often():
    """L1127: the enemy uses «бросок Восприятия или подходящей способности, чтобы обнаружить
    скрывшегося или его неожиданную атаку. И если провалит проверку — защита от его первой атаки
    тоже будет считаться проваленной». Bo's Perception 3 (d6) against Ada's hiding roll 7 misses
    her on 1-5 (a 6 explodes to at least 7, which notices): 5/6; then any attack but a fail hits (5/6)."""
    ada, bo = hider(), Character(name="Bo")
    offered = spec(ada, bo, "melee:unarmed")
    assert offered.option("from_hiding").default is True and offered.option("hide_roll").default == 7
    assert "detection" in offered.defender_options
    hidden = SYSTEM.attack_odds(ada, bo, "melee:unarmed")
    seen = SYSTEM.attack_odds(ada, bo, "melee:unarmed", from_hiding=False)
    plain = SYSTEM.contest_chance({"level": 3}, {"level": 3})
    assert seen.p_hit == plain
    assert hidden.p_hit == Fraction(5, 6) * Fraction(5, 6) + Fraction(1, 6) * plain


def test_an_unnoticed_attack_is_not_defended_and_reveals_the_attacker():
    """L1131: «провалив защиту Восприятием, даже не защищался»; L1129: an attack reveals the
    position. Bo's d6 shows 4 (< 7): unnoticed; Ada's d6 shows 2 — a hit, no defence rolled."""
    ada, bo = hider(), Character(name="Bo")
    rng = Scripted(4, 2)
    out = SYSTEM.resolve_attack(ada, bo, "melee:unarmed", rng=rng)
    assert out.hit and out.details["unnoticed"] is True and len(rng.asked) == 2
    assert out.details["defence_total"] is None and "defence counts as failed" in out.notes[0]["en"]
    mine, _theirs = SYSTEM.apply_attack(ada, bo, out)
    assert not ada.has_condition("hidden") and "conditions" in mine.changes


def test_a_noticed_hidden_attack_is_defended_as_usual():
    """L1127: noticed (6 explodes: 6 + 3 = 9 ≥ 7), Bo dodges: 5 against Ada's 2, a miss."""
    ada, bo = hider(), Character(name="Bo")
    out = SYSTEM.resolve_attack(ada, bo, "melee:unarmed", rng=Scripted(6, 3, 2, 5))
    assert not out.hit and out.details["unnoticed"] is False and out.details["defence_total"] == 5


def test_the_tracker_may_pass_from_hiding_for_a_combatant_it_hides():
    """A tracker that keeps a combatant hidden passes ``from_hiding`` (and the hiding roll):
    without a recorded roll only a failed Perception roll misses the attacker (1/6)."""
    ada, bo = Character(name="Ada"), Character(name="Bo")
    assert spec(ada, bo, "melee:unarmed").option("from_hiding").default is False
    odds = SYSTEM.attack_odds(ada, bo, "melee:unarmed", from_hiding=True)
    plain = SYSTEM.contest_chance({"level": 3}, {"level": 3})
    assert odds.p_hit == Fraction(1, 6) * Fraction(5, 6) + Fraction(5, 6) * plain
    keen = Character(name="Bo", abilities=[ability("Keen eye", "skill", "attention", category="analytic")])
    assert choices(ada, keen, "melee:unarmed", "detection") == ["perception", "skill:Keen eye"]


# -- finding 7: superpower attacks and defences (L1071-1088, L1153-1158, L912-915, L1213) ------------
MIND_SPIKE = ability(
    "Mind spike", "talent", "will", 4, is_superpower=True, sanity_cost=1, delivery="mind", divider="4+2"
)


def test_a_mind_attack_is_met_by_mental_defence_and_harms_sanity():
    """L1156: «Против ментальной атаки сверхспособностью — применяется ментальная защита»; L912:
    no dodge or parry; L1094-1096: Will, Intellect or Perception; L915: Sanity harm through the
    divider. Mind spike (talent 4: d8, + Will 3) rolls 6 + 3 = 9 against Bo's Will 4: hit,
    9 // 4 + 2 = 4 Sanity; the power costs 1 Sanity (L1158)."""
    ada, bo = Character(name="Ada", abilities=[dict(MIND_SPIKE)]), Character(name="Bo")
    assert choices(ada, bo, "power:mind-spike", "defence") == [
        "mental:will",
        "mental:intellect",
        "mental:perception",
        "none",
    ]
    out = SYSTEM.resolve_attack(ada, bo, "power:mind-spike", rng=Scripted(6, 4))
    assert (out.hit, out.damage, out.details["sanity_loss"]) == (True, 4, 4)
    odds = SYSTEM.attack_odds(ada, bo, "power:mind-spike")
    assert odds.damage.outcome == "sanity_loss" and 4 in odds.damage
    mine, theirs = SYSTEM.apply_attack(ada, bo, out)
    assert (bo.health, bo.sanity, ada.sanity) == (bo.health_max, bo.sanity_max - 4, ada.sanity_max - 1)


def test_no_mental_defence_under_defence_refusal():
    """L913: «Сопротивление влиянию на сознание не доступно в случае отказа от защиты»."""
    ada = Character(name="Ada", abilities=[dict(MIND_SPIKE)])
    bo = Character(name="Bo", conditions=[{"id": "defence_refused"}])
    assert choices(ada, bo, "power:mind-spike", "defence") == ["none"]


def test_a_touch_power_may_be_parried():
    """L1155: «Если сверхспособность имеет снаряд или требует касания — для защиты может
    применяться уклонение, парирование». A projectile is dodged only."""
    touch = ability("Shocking grasp", "talent", "will", 4, is_superpower=True, delivery="touch")
    bolt = ability("Fire bolt", "talent", "will", 4, is_superpower=True)
    ada = Character(name="Ada", abilities=[touch, bolt])
    bo = Character(name="Bo", weapons=[weapon("blade", "Sword")])
    assert choices(ada, bo, "power:shocking-grasp", "defence") == ["dodge", "parry", "none"]
    assert choices(ada, bo, "power:fire-bolt", "defence") == ["dodge", "none"]


WIND = ability("Wind shield", "talent", "will", 4, is_superpower=True, sanity_cost=2)


def test_a_power_defence_costs_its_sanity_even_when_it_fails():
    """L1073-1077: a superpower may defend against a physical attack; at least 1 Sanity, «Рассудок
    расходуется даже в случае неудачной попытки защиты». The d8 of Wind shield shows 1: a fail
    (d4 2), the attack hits, Bo pays 2 Sanity and gains 1 Luck for the fail."""
    ada, bo = Character(name="Ada"), Character(name="Bo", abilities=[dict(WIND)])
    assert "power:Wind shield" in choices(ada, bo, "melee:unarmed", "defence")
    out = SYSTEM.resolve_attack(ada, bo, "melee:unarmed", rng=Scripted(5, 1, 2), defence="power:Wind shield")
    assert out.hit
    assert sorted((e.trait, e.delta) for e in out.target_effects) == [("luck", 1), ("sanity", -2)]
    assert SYSTEM.with_rules(power_defence=False).attacks(ada, bo)[0].option("defence").choices[-1][0] == "none"
    assert "power:Wind shield" not in [
        v for v, _ in SYSTEM.with_rules(power_defence=False).attacks(ada, bo)[0].option("defence").choices
    ]


def test_a_dispel_costs_what_the_attacker_paid():
    """L1082-1087: a dispel rolls the defender's power and costs «так же как и требовалось
    атакующему» — Fire bolt costs 2, so the dispel costs 2, spent even on a failed roll."""
    bolt = ability("Fire bolt", "talent", "will", 4, is_superpower=True, sanity_cost=2)
    ada, bo = Character(name="Ada", abilities=[bolt]), Character(name="Bo", abilities=[dict(WIND, sanity_cost=1)])
    offered = dict(spec(ada, bo, "power:fire-bolt").option("defence").choices)
    assert offered["dispel:Wind shield"]["en"] == "Dispel: Wind shield (−2 Sanity)"
    assert offered["power:Wind shield"]["en"] == "Power defence: Wind shield (−1 Sanity)"
    out = SYSTEM.resolve_attack(ada, bo, "power:fire-bolt", rng=Scripted(3, 7), defence="dispel:Wind shield")
    assert not out.hit and ("sanity", -2) in [(e.trait, e.delta) for e in out.target_effects]


PYROMANCY = ability("Pyromancy", "talent", "will", 6, is_superpower=True, sanity_cost=2)
FIRESTORM = {"name": "Firestorm", "kind": "ultimate", "parent_talent": "Pyromancy", "level": 5}


def test_an_ultimate_of_a_superpower_talent_costs_sanity():
    """L1213: an ultimate is «навык от основного боевого таланта» — of a pyromancer's talent it is a
    spell, and L1158: every use of a superpower costs Sanity (here the talent's 2). L1215: the
    talent's d12 + the ultimate's 5 + Will."""
    ada = Character(name="Ada", composure=7, leadership=7, abilities=[dict(PYROMANCY), dict(FIRESTORM)])
    res = SYSTEM.roll_check(ada, "ultimate:Firestorm", rng=Scripted(4))
    assert res.total == 4 + 5 + 7
    assert ("sanity", -2) in [(e.trait, e.delta) for e in res.effects]
    bo = Character(name="Bo")
    assert choices(ada, bo, "power:firestorm", "roll") == ["ultimate:Firestorm"]
    out = SYSTEM.resolve_attack(ada, bo, "power:firestorm", rng=Scripted(4, 2))
    assert out.details["attack_total"] == 16 and ("sanity", -2) in [(e.trait, e.delta) for e in out.attacker_effects]
    SYSTEM.apply_attack(ada, bo, out)
    assert ada.ability("Firestorm")["used"] is True  # once a game session (L1217)


def test_fitting_odds_are_exact_fractions():
    ada, bo = Character(name="Ada"), Character(name="Bo", abilities=[ability("Evasion", "skill", "agility")])
    odds = SYSTEM.attack_odds(ada, bo, "melee:unarmed", defence="dodge:skill:Evasion")
    assert isinstance(odds.p_hit, Fraction) and sum(odds.damage.values()) + odds.damage.truncated_mass == 1
