"""The third rules audit of Life&Death's Game, each finding a hand case against its seed line
(``003_7a338e1d12309549.txt``): the brightness boost (L314) is a declared option of the casting
check and of a spell attack, so the tray and the tracker offer it; a skill whose parameter the
sheet declares under Own skills is no "unknown skill"; a new character holds no more experience,
skill experience, level-up improvements or epic dice than the book gives (L349, L355-L376); every
attack a new character can take can be made, and a weapon too heavy or empty is listed with why,
with a Reload action (L155, L237)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death.dice import p_net_at_least
from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from helpers import DiceInOrder

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def caster(**kw) -> Character:
    return Character(**{"name": "Lirien", "complexity": 3, "power": 3, "skills": {"life": 2}, **kw})


def legal(system=SYSTEM, **values) -> Character:
    """A legal young character still being created (Might 3, Dexterity 3, Alertness 1, Power 3)."""
    c = system.Character(name="Ayra")
    system.apply_race_and_age(c, RACE, "young")
    c.update(param_points={"might": 1, "luck": 1}, skills={"athletics": 2}, features=[{"id": "speed", "level": 1}])
    if values:
        c.update(**values)
    return c


def refused_start(system, c) -> set[str]:
    before = persisted(c)
    with pytest.raises(RuleError) as err:
        system.start_play(c)
    assert persisted(c) == before and c.phase == "creation"
    return {p.code for p in err.value.data["problems"]}


# ------------------------------------------------------------------------------------------------
# 1. The brightness boost in the tray and the tracker (L314)
# ------------------------------------------------------------------------------------------------
def test_the_casting_check_declares_the_boost_L314():
    """L314 "Яркость заклинания можно увеличить на 1, потратив на это весь раунд": the tray renders
    what ``checks()`` declares, so the boost is there (before: only ``magic.boost`` from Python)."""
    c = caster()
    spec = next(s for s in SYSTEM.checks(c) if s.id == "cast:life")
    names = [o.name for o in spec.options]
    assert {"boost", "boost_actions", "boost_free_actions"} <= set(names)
    boost = next(o for o in spec.options if o.name == "boost")
    assert boost.kind == "bool" and boost.default is False and boost.help["en"] and boost.help["ru"]


def test_a_boost_in_an_idle_round_always_works_and_brightens_the_spell_L314():
    """Idle round: no roll (L314 asks for one only "если в этом раунде персонаж совершает какие-либо
    действия"); the chance is the cast's, the spell's damage, duration and range follow brightness 3."""
    c = caster()
    plain = SYSTEM.chance(c, "cast:life", brightness=2)
    assert SYSTEM.chance(c, "cast:life", brightness=2, boost=True) == plain
    res = SYSTEM.roll_check(c, "cast:life", brightness=2, boost=True, rng=DiceInOrder([7, 8, 9, 6, 7]))
    assert res.success and res.details["boost"] == {"ok": True, "faces": [], "pool": None, "brightness": 3}
    assert res.details["spell"] == {"damage": 3, "duration_rounds": 3, "max_targets": 9, "cast_range_m": 15}
    assert "boosted to brightness 3" in res.outcome["en"] and "усилено до яркости 3" in res.outcome["ru"]


def test_acting_in_the_boost_round_costs_the_complexity_roll_dice_L314():
    """L314: −2 dice per ordinary action, −1 per free one; a failure dissipates the spell. Complexity
    3, one ordinary action: 1 die, needs a success (1/2); D-90: one ordinary + one free: 0 dice."""
    c = caster()
    cast = SYSTEM.chance(c, "cast:life", brightness=2)
    one = SYSTEM.chance(c, "cast:life", brightness=2, boost=True, boost_actions=1)
    assert one == cast * p_net_at_least(1, 1) == cast * Fraction(1, 2)
    assert SYSTEM.chance(c, "cast:life", brightness=2, boost=True, boost_actions=1, boost_free_actions=1) == 0
    # the cast passes (three 6+), then the boost's one die shows 3: the spell dissipates
    res = SYSTEM.roll_check(
        c, "cast:life", brightness=2, boost=True, boost_actions=1, rng=DiceInOrder([7, 8, 9, 6, 7, 3])
    )
    assert res.success is False and res.details["cast_outcome"] == "dissipated"
    assert res.details["boost"]["faces"] == [3] and "dissipates" in res.outcome["en"]
    assert "рассеивается" in res.outcome["ru"]


def test_a_boost_is_refused_above_the_casters_power_L314():
    """L314 "Яркость заклинания не может быть больше чем яркость его создателя"."""
    c = caster()
    with pytest.raises(RuleError) as err:
        SYSTEM.chance(c, "cast:life", brightness=3, boost=True)
    assert err.value.code == "boost_power" and "Power 3" in err.value.text("en")
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "cast:life", brightness=3, boost=True, rng=random.Random(1))


def test_a_spell_attack_declares_the_boost_and_its_odds_follow_L314():
    """The tracker's Attack panel renders the attack's options: a boosted spell deals brightness + 1
    (L276: damage = brightness) and hits only when the boost works too."""
    lirien, ulf = caster(), Character(name="Ulf")
    spec = next(s for s in SYSTEM.attacks(lirien, ulf) if s.id == "spell:life")
    assert {"boost", "boost_actions", "boost_free_actions"} <= {o.name for o in spec.options}
    plain = SYSTEM.attack_odds(lirien, ulf, "spell:life", brightness=2)
    idle = SYSTEM.attack_odds(lirien, ulf, "spell:life", brightness=2, boost=True)
    busy = SYSTEM.attack_odds(lirien, ulf, "spell:life", brightness=2, boost=True, boost_actions=1)
    assert idle.p_hit == plain.p_hit and set(idle.damage) - {0} == {3} and set(plain.damage) - {0} == {2}
    assert busy.p_hit == plain.p_hit / 2
    out = SYSTEM.resolve_attack(
        lirien, ulf, "spell:life", brightness=2, boost=True, boost_actions=1, rng=DiceInOrder([7, 8, 9, 6, 7, 3])
    )
    assert not out.hit and out.damage == 0 and "the spell dissipates" in out.text["en"]
    out = SYSTEM.resolve_attack(
        lirien, ulf, "spell:life", brightness=2, boost=True, boost_actions=1, rng=DiceInOrder([7, 8, 9, 6, 7, 9])
    )
    assert out.hit and out.damage == 3 and out.details["boost"] == {"ok": True, "brightness": 3}
    assert len(out.dice) == 2  # the cast and the boost's Complexity roll


# ------------------------------------------------------------------------------------------------
# 2. A skill of the sheet's own is no "unknown skill"
# ------------------------------------------------------------------------------------------------
def test_a_skill_declared_under_own_skills_is_not_unknown():
    """The warning asked for a parameter the sheet already had (``custom_skills``)."""
    declared = Character(dexterity=3, skills={"swords": 2}, custom_skills={"swords": "dexterity"})
    assert "W_UNKNOWN_SKILL" not in {p.code for p in SYSTEM.validate(declared)}
    bare = Character(dexterity=3, skills={"swords": 2})
    (w,) = [p for p in SYSTEM.validate(bare) if p.code == "W_UNKNOWN_SKILL"]
    assert "Own skills" in w.message["en"] and "Свои навыки" in w.message["ru"]


# ------------------------------------------------------------------------------------------------
# 3. What a new character holds (L349, L355-L376)
# ------------------------------------------------------------------------------------------------
def test_a_first_level_character_starts_with_0_xp_L376():
    """L376: a character starting above level 1 records 20 x (level - 1) XP, so a first-level one 0
    (the audit: 5000 typed in made a level-251 character)."""
    c = legal()
    assert c.xp == 0 and not [p for p in SYSTEM.validate(c) if p.severity == "error"]
    one_more = legal(xp=1)
    (p,) = [p for p in SYSTEM.validate(one_more) if p.code == "E_START_XP"]
    assert p.field == "xp" and "level 1 with 0 XP" in p.message["en"] and "Мастер" in p.message["ru"]
    assert "E_START_XP" in refused_start(SYSTEM, one_more)
    SYSTEM.start_play(c)
    assert c.phase == "play"


def test_a_higher_start_is_the_gms_and_records_20_xp_a_level_L373_L376():
    """L373-L378: the GM may start a campaign above level 1 (OPTION start_level); level 3 records
    40 XP (and its parameter and skill points, L377-L378); 41 is one too many, 60 a level too high."""
    gm = SYSTEM.with_rules(start_level=3)
    for xp in (0, 20, 40):
        assert "E_START_XP" not in {p.code for p in gm.validate(legal(gm, xp=xp))}
    for xp in (41, 30, 60):
        assert "E_START_XP" in refused_start(gm, legal(gm, xp=xp))
    with pytest.raises(ValueError):
        SYSTEM.with_rules(start_level=0)


@pytest.mark.parametrize(
    "values,code",
    [
        (dict(reputation=1, epic_dice=1), "E_START_EPIC_DICE"),  # L349 "На старте ... равно 0"
        (dict(pending_improvements=1), "E_START_IMPROVEMENTS"),  # L361: a level gained in play
        (dict(surprises_pending=1), "E_START_IMPROVEMENTS"),  # L371
        (dict(skill_xp={"athletics": 1}), "E_START_SKILL_XP"),  # L355: the GM's, after a session
    ],
)
def test_awards_typed_in_while_creating_are_refused(values, code):
    c = legal(**values)
    assert code in {p.code for p in SYSTEM.validate(c) if p.severity == "error"}
    assert code in refused_start(SYSTEM, c)


def test_awards_in_play_are_no_creation_problem():
    c = legal()
    SYSTEM.start_play(c)
    c.update(xp=45, epic_dice=1, skill_xp={"athletics": 2}, pending_improvements=2)
    codes = {p.code for p in SYSTEM.validate(c)}
    assert not {"E_START_XP", "E_START_EPIC_DICE", "E_START_SKILL_XP", "E_START_IMPROVEMENTS"} & codes


# ------------------------------------------------------------------------------------------------
# 4. Every attack a new character can take can be made (L57, L131, L155, L237, L276)
# ------------------------------------------------------------------------------------------------
def armoury() -> Character:
    """A new character with the unarmed strike (Claws: hand damage, L131), a hand weapon and one
    weapon of every ranged kind the book names (bows and crossbows, L155; cartridges, a quiver and
    a crossbow to reload, L237), and an energetics skill (a spell attack, L276)."""
    return Character(
        name="Brann",
        might=3,
        dexterity=3,
        complexity=3,
        power=2,
        skills={"life": 1},
        features=[{"id": "claws", "level": 1}],
        inventory=[
            {"name": "Sword", "category": "weapon", "damage": 3},
            {"name": "Bow", "category": "weapon", "damage": 2, "kind": "bow", "capacity": 12},
            {"name": "Crossbow", "category": "weapon", "damage": 3, "kind": "crossbow", "capacity": 1},
            {"name": "Pistol", "category": "weapon", "damage": 4, "kind": "firearm", "capacity": 6},
            {"name": "Javelin", "category": "weapon", "damage": 2, "kind": "thrown"},
        ],
    )


def test_every_attack_of_a_new_character_is_offered_and_usable():
    brann, ulf = armoury(), Character(name="Ulf")
    specs = {s.id: s for s in SYSTEM.attacks(brann, ulf)}
    assert list(specs) == [
        "unarmed",
        "melee:sword",
        "ranged:bow",
        "ranged:crossbow",
        "ranged:pistol",
        "ranged:javelin",
        "spell:life",
    ]
    for attack_id, spec in specs.items():
        assert spec.unavailable is None, attack_id
        odds = SYSTEM.attack_odds(brann, ulf, attack_id)
        out = SYSTEM.resolve_attack(brann, ulf, attack_id, rng=random.Random(2))
        assert 0 < odds.p_hit <= 1 and out.attack_id == attack_id
    assert brann.hand_damage == brann.base_damage + 1  # base damage + Claws I (L131)
    assert specs["ranged:crossbow"].label["en"] == "Crossbow (ranged) 1/1"  # starts loaded


def test_a_weapon_too_heavy_is_listed_with_why_L155():
    weak = Character(name="Ash", inventory=[{"name": "Greatsword", "category": "weapon", "damage": 5, "min_might": 4}])
    spec = next(s for s in SYSTEM.attacks(weak, Character()) if s.id == "melee:greatsword")
    assert spec.unavailable == {"en": "Needs Might 4 (you have 1).", "ru": "Нужна Сила 4 (у вас 1)."}
    with pytest.raises(RuleError):
        SYSTEM.resolve_attack(weak, Character(), "melee:greatsword", rng=random.Random(1))


def test_a_crossbow_shot_empties_it_and_reload_loads_it_again_L237():
    """L237 "перезарядка – смена патронов/колчана со стрелами/перезарядка арбалета": the shot is
    spent by the attack (undo gives it back); the empty crossbow is listed with why, never dropped,
    and the sheet's Reload action loads it."""
    combat = Combat(SYSTEM, rng=random.Random(3))
    combat.add("brann", armoury())
    combat.add("ulf", Character(name="Ulf"))
    combat.attack("brann", "ulf", "ranged:crossbow")
    brann = combat.character("brann")
    assert brann.inventory[2]["ammo"] == 0
    spec = next(s for s in SYSTEM.attacks(brann, combat.character("ulf")) if s.id == "ranged:crossbow")
    assert spec.label["en"].endswith("0/1") and spec.unavailable["en"].startswith("Empty: reload")
    assert "перезарядите" in spec.unavailable["ru"]
    before = persisted(brann)
    with pytest.raises(RuleError) as err:
        combat.attack("brann", "ulf", "ranged:crossbow")
    assert err.value.code == "attack_unavailable" and persisted(brann) == before
    combat.undo()
    assert "ammo" not in combat.character("brann").inventory[2]  # loaded again, as bought
    # the sheet declares Reload the way the system's other actions are declared
    section = next(s for s in SYSTEM.sheet.sections if s.id == "inventory")
    assert [a.method_name for a in section.actions] == ["reload"]
    empty = armoury()
    empty.inventory = [dict(it, ammo=0) if it.get("capacity") else it for it in empty.inventory]
    changes = SYSTEM.reload(empty)
    assert [it.get("ammo") for it in empty.inventory] == [None, 12, 1, 6, None]
    assert set(changes) == {"inventory"}
    with pytest.raises(RuleError) as err:
        SYSTEM.reload(empty)
    assert err.value.code == "nothing_to_reload"


def test_loaded_shots_are_checked_against_the_capacity():
    with pytest.raises(ValueError):
        Character(inventory=[{"name": "Crossbow", "category": "weapon", "kind": "crossbow", "capacity": 1, "ammo": 2}])
    with pytest.raises(ValueError):
        Character(inventory=[{"name": "Sling", "category": "weapon", "kind": "catapult"}])


# ------------------------------------------------------------------------------------------------
# 5. The spec's §11 reading that had no GM option: A-11, which pools a block and a dodge roll
# ------------------------------------------------------------------------------------------------
def test_A11_the_gm_names_the_skills_of_a_block_and_a_dodge_L235_L236():
    """L235-L236 name the block and the dodge but not what they roll: by default the defender's own
    weapon check and Dexterity + Dodge; ``defence_pools`` names other skills."""
    ash = Character(name="Ash")
    vesna = dict(name="Vesna", dexterity=3, skills={"acrobatics": 2}, custom_skills={"acrobatics": "dexterity"})
    plain = SYSTEM.attack_odds(ash, Character(**vesna), "unarmed", defence="dodge")
    gm = SYSTEM.with_rules(defence_pools={"block": "acrobatics", "dodge": "acrobatics"})
    ruled = gm.attack_odds(ash, gm.Character(**vesna), "unarmed", defence="dodge")
    assert ruled.p_hit < plain.p_hit  # 5 dice to dodge in place of 3, less 1 success (no Dodge skill)
    spec = gm.attacks(ash, gm.Character(**vesna))[0]
    choices = dict(next(o for o in spec.options if o.name == "defence").choices)
    assert "acrobatics, 5 dice" in choices["dodge"]["en"] and "acrobatics, 5" in choices["block"]["en"]
