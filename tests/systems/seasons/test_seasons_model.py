"""The Seasons Character model (spec §3): defaults, derived traits, persistence, hard limits."""

import pytest

from tabletop_widgets.core import ValidationError
from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons.data import ATTRIBUTES, SKILLS


def test_defaults():
    c = Character()
    assert all(getattr(c, a) == 1 for a in ATTRIBUTES)
    assert all(getattr(c, s) == 0 for s in SKILLS)
    assert c.size == 5 and c.health_max == 10 and c.tier == "novice"
    assert c.drama == c.drama_start == 3 and c.damage == 0 and c.conditions == []


def test_issue_example():
    c = Character(wits=3, resolve=2, investigation=2)
    assert (c.health_max, c.initiative, c.physical_defence, c.social_defence, c.mental_defence) == (10, 6, 1, 1, 2)


def test_npc_starts_without_drama():
    assert Character(is_player_character=False, presence=4).drama == 0


def test_given_drama_is_kept():
    assert Character(presence=4, drama=1).drama == 1


def test_derived_update_on_every_change():
    c = Character()
    c.stamina = 4
    c.composure = 3
    c.resolve = 2
    c.size = 6
    c.strength = 2
    assert (
        c.physical_defence,
        c.social_defence,
        c.mental_defence,
        c.health_max,
        c.speed,
        c.initiative,
        c.drama_start,
    ) == (4, 3, 2, 12, 7, 4, 5)
    c.damage = 6
    assert c.in_pain and c.pain_active and c.health_remaining == 6
    c.pain_suppressed = True
    assert c.in_pain and not c.pain_active
    c.tier = "hero"
    assert c.attribute_points_budget == 30
    c.armour = [
        {"name": "vest", "penalty": 3},
        {"name": "coat", "penalty": 1},
        {"name": "plate", "penalty": 5, "worn": False},
    ]
    assert c.armour_penalty == 3


def test_round_trip():
    c = Character(
        name="Ира",
        wits=3,
        investigation=2,
        archetype="Детектив",
        goal="Find a lost treasure",
        problems=["Stubborn"],
        advantages=["Sharp eye"],
        tier="expert",
        storyteller_approved=True,
        specializations=[{"skill": "investigation", "name": "tracks", "rating": 2}],
        conditions=[{"id": "phobia", "name": "Phobia", "kind": "mental", "penalty": 3}],
        weapons=[{"name": "knife", "attack_bonus": 1, "armour_piercing": 0, "skill": "melee", "attribute": "strength"}],
        armour=[{"name": "vest", "penalty": 3, "worn": True}],
        tools=[{"name": "lockpicks", "bonus": 2, "applies_to": "pick_lock"}],
        objects=[{"name": "door", "size": 5, "structure_damage": 2, "durability": 3}],
        pending_bonus_dice=[{"source": "aim", "dice": 2, "applies_to": "shooting"}],
        damage=3,
        drama=9,
        notes="x",
    )
    d = c.to_dict()
    assert d["system"] == "seasons" and d["schema"] == 1
    assert "health_max" not in d
    c2 = Character.from_dict(d)
    assert c2.to_dict() == d and c2.health_remaining == 7


def test_from_dict_rejects_header_and_derived():
    d = Character().to_dict()
    with pytest.raises(ValidationError):
        Character.from_dict({**d, "system": "ret"})
    with pytest.raises(ValidationError):
        Character.from_dict({**d, "schema": 99})
    with pytest.raises(ValidationError) as e:
        Character.from_dict({**d, "health_max": 12, "nonsense": 1})
    assert {p.code for p in e.value.problems} == {"derived_given", "unknown_field"}


def test_bad_input_lists_every_problem_in_both_languages():
    with pytest.raises(ValidationError) as e:
        Character(
            wits=0,
            melee=-1,
            size=0,
            drama=-1,
            damage=-2,
            strength=2.5,
            specializations=[{"skill": "nope", "name": "", "rating": 0}],
            conditions=[{"name": "x", "kind": "weird"}],
            weapons=["sword"],
        )
    fields = {p.field for p in e.value.problems}
    assert {
        "wits",
        "melee",
        "size",
        "drama",
        "damage",
        "strength",
        "specializations",
        "conditions",
        "weapons",
    } <= fields
    for p in e.value.problems:
        assert p.message["en"] and p.message["ru"]
    assert "не изменён" in e.value.messages("ru")


def test_booleans_are_not_numbers():
    with pytest.raises(ValidationError):
        Character(stamina=True)


def test_assignment_is_validated_and_changes_nothing():
    c = Character(wits=2)
    with pytest.raises(ValidationError):
        c.wits = 0
    with pytest.raises(ValidationError):
        c.specializations = [{"skill": "melee"}]
    assert c.wits == 2 and c.specializations == [] and c.initiative == 4


def test_update_is_all_or_nothing():
    c = Character()
    with pytest.raises(ValidationError):
        c.update(wits=3, melee=-1)
    assert c.wits == 1 and c.melee == 0
    c.update(wits=3, melee=2)
    assert c.wits == 3 and c.melee == 2 and c.initiative == 5


def test_load_dict_in_place():
    c = Character()
    c.load_dict(Character(wits=4).to_dict())
    assert c.wits == 4 and c.initiative == 6


def test_above_cap_values_are_accepted_by_the_model():
    c = Character(stamina=9, melee=7, size=30)
    assert c.physical_defence == 9 and c.health_max == 60
    with pytest.raises(ValidationError):  # bounded all the same (issue #19): no 40-digit sizes
        Character(size=10**40)


def test_specialization_rating_helper():
    c = Character(
        science=2,
        specializations=[
            {"skill": "science", "name": "chemistry", "rating": 3},
            {"skill": "science", "name": "law", "rating": 1},
        ],
    )
    assert c.specialization_rating("science") == 3
    assert c.specialization_rating("science", "law") == 1
    assert c.specialization_rating("melee") == 0


def test_health_states():
    c = Character()
    assert SYSTEM.health_state(c)["en"] == "unhurt"
    c.damage = 2
    assert SYSTEM.health_state(c)["en"] == "wounded"
    c.damage = 5
    assert "pain" in SYSTEM.health_state(c)["en"]
    c.pain_suppressed = True
    assert "suppressed" in SYSTEM.health_state(c)["en"]
    c.damage = 10
    assert SYSTEM.health_state(c)["ru"] == "вне сюжета"
    assert SYSTEM.health(c) == (0, 10)
