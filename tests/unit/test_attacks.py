"""The attack contract (``core/attacks.py``, ``GameSystem.attacks/attack_odds/resolve_attack/
apply_attack``, ``Combat.attack``), played with the fifth-system example (Lantern)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from helpers import assert_attack_odds_match_sample, assert_refused_unchanged

from tabletop_widgets.core import AttackCondition, Combat, ConditionSpec, RuleError, T
from tabletop_widgets.core.combat.records import persisted


@pytest.fixture()
def lantern():
    from fixtures.fifth_system import SYSTEM

    return SYSTEM


def pair(system):
    return system.Character(name="Ada", nerve=2, wits=2), system.Character(name="Bo", nerve=1, wits=3)


def test_the_strike_is_offered_with_its_options(lantern):
    ada, bo = pair(lantern)
    (strike,) = lantern.attacks(ada, bo)
    assert strike.id == "strike" and strike.kind == "unarmed"
    assert [o.name for o in strike.options] == ["aim", "might", "dodge"]
    assert strike.defender_options == ("dodge",)


def test_exact_odds_by_hand(lantern):
    ada, bo = pair(lantern)
    odds = lantern.attack_odds(ada, bo, "strike")
    # needs 2d6 >= 7 + 3 - 2 = 8: 15/36
    assert odds.p_hit == Fraction(15, 36)
    assert odds.damage[0] == Fraction(21, 36)
    # a margin of 3+ (2d6 >= 11: 3/36) adds 1: damage 4 only then
    assert odds.damage[4] == Fraction(3, 36) / 3
    assert lantern.attack_odds(ada, bo, "strike", dodge=True).p_hit == Fraction(6, 36)  # 2d6 >= 10
    assert lantern.attack_odds(ada, bo, "strike", aim=True).p_hit == Fraction(21, 36)  # 2d6 >= 7
    assert odds.p_defeat == 0  # Bo has 8 Health, a strike deals at most 4
    weak = lantern.Character(name="Cy", nerve=1, wits=3, health=2)
    assert lantern.attack_odds(ada, weak, "strike").p_defeat == Fraction(15, 36) * Fraction(2, 3) + Fraction(
        3, 36
    ) * Fraction(1, 3)


@pytest.mark.parametrize("options", [{}, {"aim": True, "might": True}, {"dodge": True}])
def test_odds_agree_with_3000_rolls(lantern, options):
    ada, bo = pair(lantern)
    assert_attack_odds_match_sample(lantern, ada, bo, "strike", seed=7, **options)


def test_the_sample_check_catches_wrong_odds(lantern):
    """The oracle can fail: odds that ignore the dodge disagree with the rolls."""
    ada, bo = pair(lantern)

    class Lying(type(lantern)):
        def attack_odds(self, attacker, target, attack_id, **options):
            options.pop("dodge", None)
            return super().attack_odds(attacker, target, attack_id, **options)

    with pytest.raises(AssertionError, match="hit rate"):
        assert_attack_odds_match_sample(Lying(), ada, bo, "strike", seed=7, dodge=True)


def fight(system, rng_seed=3):
    ada, bo = pair(system)
    combat = Combat(system, rng=random.Random(rng_seed))
    combat.add("ada", ada)
    combat.add("bo", bo)
    return combat


def test_combat_attack_resolves_applies_records_and_undoes(lantern):
    combat = fight(lantern)
    before = {cid: persisted(combat.character(cid)) for cid in combat.ids}
    hits = 0
    for _ in range(20):
        event = combat.attack("ada", "bo", "strike", aim=True, might=True)
        assert event["type"] == "attack" and event["target"] == "bo" and event["attack"] == "strike"
        assert event["text"]["en"] and event["text"]["ru"]
        hits += event["hit"]
        if lantern.is_defeated(combat.character("ada")) or lantern.is_defeated(combat.character("bo")):
            break
    assert hits, "twenty aimed strikes and not one hit"
    hit = next(e for e in combat.events if e["type"] == "attack" and e["hit"])
    target = next(x for x in hit["effects"] if x["id"] == "bo")
    assert target["health"][0][0] - target["health"][1][0] == hit["damage"]
    striker = next(x for x in hit["effects"] if x["id"] == "ada")
    assert striker["health"][0][0] - striker["health"][1][0] == 1  # all one's might costs 1 Health
    # the log replays to the same characters without rolling
    again = Combat.replay(lantern, None, combat.events, rng=_NoDice())
    assert again.state() == combat.state()
    assert {c: persisted(again.character(c)) for c in again.ids} == {
        c: persisted(combat.character(c)) for c in combat.ids
    }
    for _ in range(sum(e["type"] == "attack" for e in combat.events)):
        combat.undo()
    assert {cid: persisted(combat.character(cid)) for cid in combat.ids} == before


def test_the_log_says_what_the_attack_did(lantern):
    combat = fight(lantern)
    event = combat.attack("ada", "bo", "strike")
    """Who attacked whom with what, hit or miss, the damage after armour and what it did to the
    target's Health; the dice are the event's own (the log's fold), not the sentence."""
    en, ru = combat.describe(event, "en"), combat.describe(event, "ru")
    if event["hit"]:
        assert en.startswith(f"Ada hits Bo with Strike: {event['damage']} damage after armour; Bo: ")
        assert ru.startswith(f"Ada → Bo, Удар: попадание; урон {event['damage']} после брони; Bo: ")
    else:
        assert en == "Ada misses Bo with Strike" and ru == "Ada → Bo, Удар: промах"
    assert "2d6 [" not in en and "2d6 [" not in ru
    from tabletop_widgets.core.combat.text import attack_dice

    assert attack_dice(event, "en")[0].startswith("2d6 [") and attack_dice(event, "ru")[0].startswith("2d6 [")


class _NoDice(random.Random):
    def random(self):
        raise AssertionError("replay rolled a die")


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda c: c.attack("ada", "nobody", "strike"), "unknown_combatant"),
        (lambda c: c.attack("ada", "ada", "strike"), "self_attack"),
        (lambda c: c.attack("ada", "bo", "fireball"), "unknown_attack"),
        (lambda c: c.attack("ada", "bo", "strike", aim="yes"), "bad_option"),
        (lambda c: c.attack("ada", "bo", "strike", aim=True, teleport=True), "unknown_option"),
    ],
)
def test_bad_attacks_are_refused_with_nothing_written(lantern, call, code):
    combat = fight(lantern)
    assert_refused_unchanged(combat, call, code)


def test_a_defeated_attacker_cannot_attack(lantern):
    combat = fight(lantern)
    combat.set_defeated("ada", True)
    with pytest.raises(RuleError) as err:
        combat.attack("ada", "bo", "strike")
    assert err.value.code == "attacker_out" and "Ada" in err.value.message["en"]


def test_an_attack_puts_its_conditions_on_and_undo_takes_them_off(lantern):
    class Tripping(type(lantern)):
        def conditions(self):
            return [
                ConditionSpec(
                    "prone",
                    T("Prone", "Сбит с ног"),
                    T("Down on the ground.", "Лежит на земле."),
                    duration=1,
                    unit="rounds",
                )
            ]

        def resolve_attack(self, attacker, target, attack_id, *, rng, **options):
            out = super().resolve_attack(attacker, target, attack_id, rng=rng, **options)
            out.conditions.append(AttackCondition("prone"))
            return out

    combat = fight(Tripping())
    combat.attack("ada", "bo", "strike")
    assert [c["id"] for c in combat.conditions("bo")] == ["prone"]
    assert combat.conditions("ada") == []
    combat.undo()
    assert combat.conditions("bo") == []


def test_an_unavailable_attack_is_listed_and_refused_with_its_reason(lantern):
    """An attack the rules list but cannot make now (an empty gun) says why, and making it, or
    asking its odds through ``attack_spec``, is refused with that reason; nothing changes."""
    import dataclasses

    ada, bo = pair(lantern)
    (strike,) = lantern.attacks(ada, bo)
    why = T("Empty: reload first.", "Пусто: сначала перезарядите.")

    class Jammed(type(lantern)):
        def attacks(self, attacker, target):
            return [dataclasses.replace(s, unavailable=why) for s in super().attacks(attacker, target)]

    jammed = Jammed()
    (listed,) = jammed.attacks(ada, bo)
    assert listed.unavailable == why and strike.unavailable is None
    with pytest.raises(RuleError) as refused:
        jammed.attack_spec(ada, bo, "strike", {})
    assert refused.value.code == "attack_unavailable" and refused.value.message == why
    combat = Combat(jammed, rng=random.Random(3))
    combat.add("a", ada)
    combat.add("b", bo)
    before = combat.state()
    with pytest.raises(RuleError):
        combat.attack("a", "b", "strike")
    assert combat.state() == before


def test_an_attack_is_told_the_way_a_gm_says_it():
    """The sentence of every attack line (the tracker's, the table's, the transcript's): the
    score from the details a built-in system records, the damage after armour, no declined
    names in Russian."""
    from tabletop_widgets.core.combat.text import attack_score, attack_sentence

    sword = {"en": "Sword", "ru": "Меч"}
    assert attack_score({"attack_total": 12, "defence_total": 9}) == "12 against 9"
    assert attack_score({"total": 7, "defense_total": None}, "ru") == "выпало 7"
    assert attack_score({"attacker_successes": 3, "defender_successes": 1}, "ru") == "3 успехов против 1"
    assert attack_score({"successes": 2}) == ""  # no pair the sentence knows
    assert attack_score({"attack_total": True, "defence_total": 9}) == ""  # a flag is no total
    assert attack_score(None) == ""
    hit = attack_sentence("Aria", "Goblin", sword, True, 3, "en", "12 against 9")
    assert hit == "Aria hits Goblin with Sword, 12 against 9: 3 damage after armour"
    assert (
        attack_sentence("Aria", "Goblin", sword, True, 0, "en")
        == "Aria hits Goblin with Sword, but no damage gets through"
    )
    assert (
        attack_sentence("Aria", "Goblin", sword, False, 0, "en", "5 against 9")
        == "Aria misses Goblin with Sword, 5 against 9"
    )
    ru = attack_sentence("Ария", "Гоблин", sword, True, 3, "ru", "12 против 9")
    assert ru == "Ария → Гоблин, Меч: попадание, 12 против 9; урон 3 после брони"
    assert attack_sentence("Ария", "Гоблин", sword, True, 0, "ru").endswith("попадание; урон не прошёл")
    assert attack_sentence("Ария", "Гоблин", None, False, None, "ru") == "Ария → Гоблин: промах"
