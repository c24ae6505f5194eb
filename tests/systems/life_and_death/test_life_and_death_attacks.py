"""Life&Death's Game attacks (issue #16): the attacks a character can make on another, their exact
odds against 3,000 rolls, hand-counted odds, ``Combat.attack`` end to end, bad input refused, and
the combat rules the audit found wrong (transformation doubling L119/L260, the brightness boost
L314, a non-combat skill in combat L240). Seed lines ``L123`` point into the book."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from helpers import assert_attack_odds_match_sample, assert_refused_unchanged

from tabletop_widgets.core import Combat, RuleError
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.combat.text import attack_dice
from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death import actions, magic


# -- characters ------------------------------------------------------------------------------------------
def fresh() -> tuple:
    return Character(name="Ash"), Character(name="Birch")


def fighter(**kw) -> Character:
    """An adult swordsman with a bow and an epic die (reputation 1 allows one)."""
    values = dict(
        name="Brann",
        age="adult",
        might=3,
        dexterity=3,
        alertness=2,
        skills={"swords": 2},
        custom_skills={"swords": "dexterity"},
        epic_dice=1,
        inventory=[
            {"name": "Sword", "category": "weapon", "damage": 3, "equipped": True, "skill": "swords", "min_might": 2},
            {"name": "Bow", "category": "weapon", "damage": 2, "ranged": True},
        ],
    )
    values.update(kw)
    return Character(**values)


def armoured(**kw) -> Character:
    """Mail and an open helmet, an axe to block with, a tail and an epic die."""
    values = dict(
        name="Ulf",
        might=3,
        dexterity=2,
        helmet="open",
        epic_dice=1,
        features=[{"id": "tail", "level": 0}],
        inventory=[
            {"name": "Mail", "category": "armour", "protection": 2, "equipped": True},
            {"name": "Axe", "category": "weapon", "damage": 2, "equipped": True},
        ],
    )
    values.update(kw)
    return Character(**values)


def caster() -> Character:
    return Character(name="Lirien", complexity=3, power=3, skills={"life": 2})


def seer() -> Character:
    """Clairvoyance makes spells visible to her: she may dodge them (L236)."""
    return Character(name="Vesna", dexterity=2, complexity=2, skills={"clairvoyance": 1})


PAIRS = {
    "fresh": fresh,
    "armed-vs-armoured": lambda: (fighter(), armoured()),
    "armoured-vs-fresh": lambda: (armoured(), Character(name="Birch")),
    "caster-vs-seer": lambda: (caster(), seer()),
    "caster-vs-armoured": lambda: (caster(), armoured()),
}


def non_default(option):
    if option.kind == "bool":
        return not option.default
    if option.kind == "choice":
        return next(v for v, _label in option.choices if v != option.default)
    return option.max if option.max != option.default else option.min


def variants(attacker, target, *, every_option: bool = True) -> list[tuple[str, dict]]:
    """Every attack with its defaults, then (``every_option``) with each option at a value other
    than its default."""
    out = []
    for spec in SYSTEM.attacks(attacker, target):
        out.append((spec.id, {}))
        for o in spec.options if every_option else ():
            if o.kind == "choice" and len(o.choices) < 2:
                continue
            if o.name == "boost":  # needs a brightness below the caster's Power (L314): see CASES
                continue
            out.append((spec.id, {o.name: non_default(o)}))
    return out


#: every option of every attack between fresh characters, of the armed and armoured pair and of the
#: caster against a target who sees spells; the other pairs with their defaults
FULL = ("fresh", "armed-vs-armoured", "caster-vs-seer")
CASES = [
    (pair, aid, opts) for pair, make in PAIRS.items() for aid, opts in variants(*make(), every_option=pair in FULL)
]
# a few more that reach the wounds and the armour rules
CASES += [
    ("armed-vs-armoured", "melee:sword", {"zone": "neck", "defence": "none", "undead": True}),
    ("armed-vs-armoured", "melee:sword", {"zone": "head_face", "defence": "dodge"}),
    ("armed-vs-armoured", "melee:sword", {"zone": "tail", "direction": "back", "epic": 1, "defence_epic": 1}),
    ("caster-vs-armoured", "spell:life", {"zone": "limb", "damage_type": "pattern"}),
    # the brightness boost (L314): in an idle round, and with actions costing the Complexity roll dice
    ("caster-vs-seer", "spell:life", {"brightness": 2, "boost": True}),
    ("caster-vs-seer", "spell:life", {"brightness": 2, "boost": True, "boost_actions": 1}),
    ("caster-vs-armoured", "spell:life", {"brightness": 1, "boost": True, "boost_free_actions": 2}),
]


@pytest.mark.parametrize(
    "pair, attack_id, options",
    CASES,
    ids=[f"{p}-{a}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}" for p, a, o in CASES],
)
def test_odds_agree_with_rolls(pair, attack_id, options):
    """3,000 rolls with the defaults (what the all-systems test does), 1,000 with an option changed."""
    attacker, target = PAIRS[pair]()
    n = 1000 if options else 3000
    assert_attack_odds_match_sample(SYSTEM, attacker, target, attack_id, n=n, seed=16, **options)


def test_the_sample_check_catches_odds_that_forget_the_zone():
    class Forgetful(type(SYSTEM)):
        def attack_odds(self, attacker, target, attack_id, **options):
            options.pop("zone", None)
            return super().attack_odds(attacker, target, attack_id, **options)

    with pytest.raises(AssertionError, match="hit rate"):
        assert_attack_odds_match_sample(Forgetful(), fighter(), armoured(), "melee:sword", seed=16, zone="neck")


# -- what is offered ---------------------------------------------------------------------------------------
def test_fresh_characters_strike_unarmed_with_the_defenders_choice_of_defence():
    ash, birch = fresh()
    (strike,) = SYSTEM.attacks(ash, birch)
    assert strike.id == "unarmed" and strike.kind == "unarmed"
    # a fresh defender has no epic dice: the choice of defence is all there is to ask
    assert strike.defender_options == ("defence",)
    assert [v for v, _ in strike.option("defence").choices] == ["block", "dodge", "none"]
    assert "tail" not in [v for v, _ in strike.option("zone").choices]  # Birch has no tail
    assert all(o.label["en"] and o.label["ru"] for o in strike.options)
    assert {o.name for o in strike.options if o.gm_only} == {"dice_mod", "undead", "heads"}


def test_each_weapon_and_style_is_an_attack_and_a_tail_is_a_zone():
    ids = [a.id for a in SYSTEM.attacks(fighter(), armoured())]
    assert ids == ["unarmed", "melee:sword", "ranged:bow"]
    sword = next(a for a in SYSTEM.attacks(fighter(), armoured()) if a.id == "melee:sword")
    assert sword.option("check").default == "dexterity+swords"  # the weapon's skill
    assert "tail" in [v for v, _ in sword.option("zone").choices]  # L262
    assert sword.option("epic").max == 1 and sword.option("defence_epic").max == 1
    spells = SYSTEM.attacks(caster(), seer())
    assert [a.id for a in spells] == ["unarmed", "spell:life"]
    assert spells[1].option("defence").choices[0][0] == "dodge"  # visible to a clairvoyant (L236)
    assert "defence" not in [o.name for o in SYSTEM.attacks(caster(), armoured())[1].options]
    # a severed tail is no longer a target
    stump = armoured(wounds=[{"zone": "tail", "kind": "tail_severed", "note": ""}])
    assert "tail" not in [v for v, _ in SYSTEM.attacks(fighter(), stump)[1].option("zone").choices]


# -- exact odds by hand ------------------------------------------------------------------------------------
def test_fresh_unarmed_odds_by_hand():
    ash, birch = fresh()
    # one Dexterity die each (L29): a hit needs Ash's success and Birch's block to fail (ties to the
    # defender, L37): 1/2 x 1/2. Damage = hand damage 0 + 1 - 0 - no armour = 1 (L131, L272).
    odds = SYSTEM.attack_odds(ash, birch, "unarmed")
    assert odds.p_hit == Fraction(1, 4) and dict(odds.damage) == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert odds.p_defeat == 0
    # Birch has no Dodge skill: one die minus one success (L33) never succeeds, so only Ash's die counts
    assert SYSTEM.attack_odds(ash, birch, "unarmed", defence="dodge").p_hit == Fraction(1, 2)
    # aiming at a limb costs the only die (L260): 0 successes against 0 goes to the defender (L37)
    assert SYSTEM.attack_odds(ash, birch, "unarmed", zone="limb", defence="none").p_hit == 0


def test_sword_against_mail_by_hand():
    att = Character(name="Kai", dexterity=2, inventory=[{"name": "Sword", "category": "weapon", "damage": 3}])
    mail = Character(name="Ox", inventory=[{"name": "Mail", "category": "armour", "protection": 2, "equipped": True}])
    # two dice, no defence: a die fails 1/2, succeeds plainly 2/5, crits 1/10 (L31). Damage = 3 + net
    # - armour 2, the armour ignored when a 10 shows (more crits than the defender's none, L274):
    #   miss: 1/4; plain+fail 2/5 -> 2; crit+fail 1/10 -> 4; plain+plain 4/25 -> 3;
    #   crit+plain 8/100 and crit+crit 1/100 -> 5.
    odds = SYSTEM.attack_odds(att, mail, "melee:sword", defence="none")
    assert odds.p_hit == Fraction(3, 4)
    expected = {0: Fraction(1, 4), 2: Fraction(2, 5), 3: Fraction(4, 25), 4: Fraction(1, 10), 5: Fraction(9, 100)}
    assert dict(odds.damage) == expected
    # transforming, Ox takes it all doubled (L119); 10 HP: only the 10 takes him out (incapacitated)
    mail.transforming = True
    doubled = SYSTEM.attack_odds(att, mail, "melee:sword", defence="none")
    assert dict(doubled.damage) == {2 * k: v for k, v in expected.items()}
    assert doubled.p_defeat == Fraction(9, 100)


def test_spell_odds_by_hand():
    lirien, ulf = caster(), armoured()
    # Complexity 3 + Life 2 = 5 dice; a basic attacking pattern needs 1 success (L35, L286); it cannot
    # be dodged unseen (L236) and armour does not count (L276): damage = brightness 3 on 31/32.
    odds = SYSTEM.attack_odds(lirien, ulf, "spell:life")
    assert odds.p_hit == Fraction(31, 32) and dict(odds.damage) == {0: Fraction(1, 32), 3: Fraction(31, 32)}
    # acting on Ulf directly subtracts his Complexity 1 (L288): 4 dice
    assert SYSTEM.attack_odds(lirien, ulf, "spell:life", direct=True).p_hit == Fraction(15, 16)
    # a neck aimed at: -3 dice from the casting roll (L316): 2 dice
    assert SYSTEM.attack_odds(lirien, ulf, "spell:life", zone="neck").p_hit == Fraction(3, 4)


# -- Combat.attack end to end --------------------------------------------------------------------------------
class _NoDice(random.Random):
    def random(self):
        raise AssertionError("replay rolled a die")


def _fight(seed: int, **target) -> Combat:
    combat = Combat(SYSTEM, rng=random.Random(seed))
    axe = {"name": "Greataxe", "category": "weapon", "damage": 6, "min_might": 3}
    combat.add("brann", fighter(inventory=[axe]))
    combat.add("ulf", armoured(**target))
    return combat


def test_combat_attack_applies_damage_wounds_effects_and_undoes():
    combat = _fight(5)
    before = {cid: persisted(combat.character(cid)) for cid in combat.ids}
    event = None
    for _ in range(40):
        event = combat.attack("brann", "ulf", "melee:greataxe", zone="limb", epic=1, defence_epic=1)
        if event["hit"] and event["damage"] >= 3:
            break
        combat.undo()
    assert event["hit"] and event["damage"] >= 3, "forty swings and no wound"
    ulf, brann = combat.character("ulf"), combat.character("brann")
    assert ulf.hp == ulf.hp_max - event["damage"]  # the damage the target takes, applied once
    assert brann.epic_dice == 0 and ulf.epic_dice == 0  # both sides spent their epic die (L351)
    kind = "limb_severed" if event["damage"] * 100 >= 50 * ulf.hp_max else "limb_broken"  # L260
    assert [w["kind"] for w in ulf.wounds] == [kind]  # recorded once, by the damage rules
    assert [c["id"] for c in combat.conditions("ulf")] == [kind]
    assert event["text"]["en"].startswith("zone: leg / arm / wing;") and event["text"]["ru"].startswith("зона:")
    line = combat.describe(event, "ru")
    # the sentence, then everything each side lost: the epic dice, the Hit Points and the wound
    assert line.startswith(
        f"Brann → Ulf, Greataxe: попадание; урон {event['damage']} после брони; Brann: Эпик-дайсы 1→0; "
    )
    assert f"Ulf: {ulf.hp_max}→{ulf.hp} / {ulf.hp_max}, Эпик-дайсы 1→0, " in line
    assert line.endswith("конечность отрублена" if kind == "limb_severed" else "конечность сломана"), line
    assert attack_dice(event, "ru")[0].startswith("зона: ноги / руки / крылья;")
    # the log replays to the same characters without rolling
    again = Combat.replay(SYSTEM, None, combat.events, rng=_NoDice())
    assert {c: persisted(again.character(c)) for c in again.ids} == {
        c: persisted(combat.character(c)) for c in combat.ids
    }
    for _ in range(sum(e["type"] == "attack" for e in combat.events) - sum(e["type"] == "undo" for e in combat.events)):
        combat.undo()
    assert {cid: persisted(combat.character(cid)) for cid in combat.ids} == before
    assert combat.conditions("ulf") == []


def test_a_decapitating_blow_kills_and_undo_brings_the_target_back():
    combat = _fight(1, helmet="closed")
    for _ in range(200):
        event = combat.attack("brann", "ulf", "melee:greataxe", check="dexterity+swords", zone="neck", defence="none")
        if event["hit"] and event["damage"] * 100 >= 25 * combat.character("ulf").hp_max:
            break
        combat.undo()
    ulf = combat.character("ulf")
    assert any(w["kind"] == "decapitated" for w in ulf.wounds)  # L264
    assert SYSTEM.is_defeated(ulf) and [c["id"] for c in combat.conditions("ulf")] == ["dead"]
    with pytest.raises(RuleError) as err:
        combat.attack("brann", "ulf", "unarmed")
    assert err.value.code == "target_dead"
    combat.undo()
    assert not combat.character("ulf").wounds and not SYSTEM.is_defeated(combat.character("ulf"))


def test_a_spell_from_ones_own_reserve_costs_ep_in_combat():
    combat = Combat(SYSTEM, rng=random.Random(2))
    tired = caster()
    tired.ep = 4  # of 6: the rules work on the EP she has, not on a refilled copy
    combat.add("lirien", tired)
    combat.add("ulf", armoured())
    event = combat.attack("lirien", "ulf", "spell:life", own_reserve=True, brightness=2, damage_type="pattern")
    assert combat.character("lirien").ep == 2  # L282 (paid whatever the roll, the default)
    ulf = combat.character("ulf")
    assert ulf.ep == ulf.ep_max - event["damage"] and ulf.hp == ulf.hp_max  # pattern damage -> EP (§8.11)


# -- the audit's findings ---------------------------------------------------------------------------------
def test_transforming_target_takes_double_damage_once_and_the_wound_follows_it():
    """L119: all damage to a transforming character is doubled (once); L260: the limb is severed at
    50% of max HP, broken at 25%: judged on the doubled damage."""
    att = Character(name="Kai", dexterity=2, inventory=[{"name": "Club", "category": "weapon", "damage": 2}])
    dfn = Character(name="Wolf", transforming=True)  # 10 HP
    # two successes, no crit, no defence: 2 + 2 = 4 -> doubled 8: severed (4 alone would only break it)
    o = SYSTEM.attack(att, "dexterity", dfn, None, weapon_damage=2, zone="limb", att_faces=[7, 8])
    assert o.damage == 8 and o.zone_effect.kind == "limb_severed"
    SYSTEM.apply_damage(dfn, o.damage, **o.apply_options)
    assert dfn.hp == dfn.hp_max - 8 and [w["kind"] for w in dfn.wounds] == ["limb_severed"]
    # through Combat: the event's damage is what the HP lose, not twice that
    combat = Combat(SYSTEM, rng=random.Random(4))
    combat.add("kai", att)
    combat.add("wolf", Character(name="Wolf"))
    combat.add_condition("wolf", "transforming")
    for _ in range(30):
        event = combat.attack("kai", "wolf", "melee:club", defence="none")
        if event["damage"]:
            break
    wolf = combat.character("wolf")
    assert event["damage"] % 2 == 0 and wolf.hp == wolf.hp_max - event["damage"]
    assert "doubled" in event["text"]["en"] and "удвоен" in event["text"]["ru"]


def test_boosting_a_spell_does_not_forbid_acting_it_costs_the_complexity_roll():
    """L314: the boost takes the round; acting in it means a Complexity roll at -2 per ordinary
    action and -1 per free action."""
    turn = actions.start_turn(Character(), 2, options=SYSTEM.rules)
    actions.take_action(turn, "boost", options=SYSTEM.rules)
    actions.take_action(turn, "attack", options=SYSTEM.rules)  # refused before the fix
    actions.take_action(turn, "talk", options=SYSTEM.rules)
    assert turn.ordinary_left == 1 and turn.boost_roll_actions() == (1, 1)
    with pytest.raises(RuleError):
        actions.take_action(turn, "boost", options=SYSTEM.rules)
    mage = Character(complexity=4, power=3)
    spell = magic.Spell(brightness=2)
    out = magic.boost(spell, mage, *turn.boost_roll_actions(), faces=[6])  # 4 - 2 - 1 = 1 die
    assert out["roll"].pool == 1 and out["ok"] and spell.brightness == 3
    idle = actions.start_turn(Character(), 2, options=SYSTEM.rules)
    actions.take_action(idle, "boost", options=SYSTEM.rules)
    assert idle.boost_roll_actions() == (0, 0)  # no roll at all


def test_a_non_combat_skill_in_combat_rolls_alertness_first():
    """L240: using a non-combat skill in combat needs an Alertness roll; no success -> -1 die."""
    c = Character(dexterity=2, alertness=1, skills={"stealth": 1})
    # Alertness 1 die: no success 1/2 -> Stealth rolls 2 dice (3/4) instead of 3 (7/8)
    assert SYSTEM.chance(c, "dexterity+stealth", in_combat=True) == Fraction(1, 2) * Fraction(3, 4) + Fraction(
        1, 2
    ) * Fraction(7, 8)
    assert SYSTEM.chance(c, "dexterity+stealth") == Fraction(7, 8)
    spec = next(s for s in SYSTEM.checks(c) if s.id == "dexterity+stealth")
    assert spec.option("in_combat").default is False
    pools = set()
    for seed in range(12):
        r = SYSTEM.roll_check(c, "dexterity+stealth", in_combat=True, rng=random.Random(seed))
        first = r.details["alertness_first"]
        pools.add(r.details["pool"])
        assert r.details["pool"] == (2 if first["successes"] == 0 else 3)
        assert "Alertness first" in r.text("en") and "сначала Восприятие" in r.text("ru")
    assert pools == {2, 3}
    with pytest.raises(RuleError):
        SYSTEM.roll_check(c, "dexterity", in_combat=True)


# -- bad input -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, code",
    [
        (lambda c: c.attack("brann", "ulf", "melee:zweihander"), "unknown_attack"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", zone="wing"), "bad_option"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", defence="parry"), "bad_option"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", epic=2), "bad_option"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", heads=0), "bad_option"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", check="complexity"), "bad_option"),
        (lambda c: c.attack("brann", "ulf", "melee:sword", teleport=True), "unknown_option"),
        (lambda c: c.attack("brann", "ulf", "melee:greatsword"), "too_heavy"),
        (lambda c: c.attack("lirien", "ulf", "spell:life", own_reserve=True), "not_enough_ep"),
        (lambda c: c.attack("lirien", "ulf", "spell:life", brightness=4), "bad_option"),
    ],
)
def test_bad_attacks_are_refused_with_nothing_changed(call, code):
    combat = Combat(SYSTEM, rng=random.Random(1))
    heavy = {"name": "Greatsword", "category": "weapon", "damage": 5, "min_might": 5}
    combat.add("brann", fighter(inventory=fighter().inventory + [heavy]))
    combat.add("ulf", armoured())
    combat.add("lirien", Character(name="Lirien", complexity=3, power=3, skills={"life": 2}, ep=1))
    assert_refused_unchanged(combat, call, code)


def test_a_too_heavy_weapon_is_listed_unavailable_and_its_refusal_says_why():
    """Audit 3: listed with why, never dropped (L155: Might 2 needed)."""
    weak = fighter(might=1)
    sword = next(a for a in SYSTEM.attacks(weak, armoured()) if a.id == "melee:sword")
    assert sword.unavailable == {"en": "Needs Might 2 (you have 1).", "ru": "Нужна Сила 2 (у вас 1)."}
    with pytest.raises(RuleError) as err:
        SYSTEM.attack_odds(weak, armoured(), "melee:sword")
    assert "Might 2" in err.value.message["en"] and "Сила 2" in err.value.message["ru"]


def test_out_of_the_fight_attackers_have_no_attacks():
    down = Character(name="Down", hp=0)
    assert SYSTEM.attacks(down, Character(name="Up")) == []
    with pytest.raises(RuleError) as err:
        SYSTEM.resolve_attack(down, Character(name="Up"), "unarmed", rng=random.Random(1))
    assert err.value.code == "attacker_out"
