"""The character model (spec §3): derived values, hp following hp_max, persistence, bad input."""

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character
from tabletop_systems.threads_of_fate.traits import mod
from characters import THREADS_CHARACTERISTICS
from tabletop_widgets.core.problems import ValidationError


def test_issue_names():
    c = Character(strength=12, dexterity=15, constitution=14, intelligence=10, wisdom=11, charm=8)
    assert (c.dexterity_mod, c.hp, c.speed, c.will, c.reaction) == (2, 42, 7, 5, 6)
    assert (c.strength_mod, c.constitution_mod, c.intelligence_mod, c.wisdom_mod, c.charm_mod) == (1, 2, 0, 0, -1)


@pytest.mark.parametrize(
    "score,m",
    [(0, -5), (1, -5), (8, -1), (9, -1), (10, 0), (11, 0), (12, 1), (18, 4), (19, 4), (20, 5), (30, 10)],
    ids=[f"D01-{s}" for s in (0, 1, 8, 9, 10, 11, 12, 18, 19, 20, 30)],
)
def test_D01_modifier(score, m):
    assert mod(score) == m


def test_D01_through_the_model_for_an_npc():
    assert Character(entity_type="extra", strength=30).strength_mod == 10
    assert Character(strength=9).strength_mod == -1


def test_D02():
    c = Character(
        **THREADS_CHARACTERISTICS,
        weapons=3,
        shooting=2,
        weapons_list=[{"name": "machete", "kind": "melee", "dmb": 1}, {"name": "pistol", "kind": "ranged", "dmb": 2}],
    )
    assert c.char_points_spent == 70
    assert (c.hp, c.speed, c.will, c.reaction, c.defense) == (42, 7, 6, 6, 12)
    assert c.valor == 6 and c.marksmanship == 6 and c.skill_cap == 12
    assert not [p for p in SYSTEM.validate(c) if p.code in ("V01", "V03")]


def test_D03():
    tricks = [{"name": "Quick draw"}, {"name": "Scavenger"}]  # L264: every hero takes two (V09)
    c = Character(strength=18, dexterity=18, constitution=18, intelligence=8, wisdom=7, charm=1, tricks=tricks)
    assert [
        getattr(c, f + "_mod") for f in ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charm")
    ] == [4, 4, 4, -1, -2, -5]
    assert (c.hp, c.speed, c.will, c.reaction, c.skill_cap) == (54, 9, 3, 6, 8)
    assert not [p for p in SYSTEM.validate(c) if p.severity == "error"]


def test_D05_minimum_one():
    assert Character(dexterity=1, constitution=1).speed == 1
    assert Character(intelligence=1, wisdom=2).will == 1


@pytest.mark.parametrize(
    "kw,speed",
    [
        pytest.param(dict(size="small", dexterity=12, constitution=10), 4, id="D06-small"),
        pytest.param(dict(size="large", quadruped=True, dexterity=14, constitution=16), 16, id="D06-large-quadruped"),
        pytest.param(dict(size="tiny", flying=True, dexterity=16, constitution=8), 12, id="D06-tiny-flyer"),
        pytest.param(dict(size="tiny", dexterity=1, constitution=1), 1, id="A7-min-1"),
    ],
)
def test_D06_speed(kw, speed):
    assert Character(gm_approved_size=True, **kw).speed == speed


def test_D06_stealthy_halves():
    c = Character(dexterity=14, constitution=14)
    assert c.speed // 2 == 3


@pytest.mark.parametrize(
    "size,bdef",
    [("tiny", 12), ("small", 11), ("medium", 10), ("large", 9)],
    ids=["D07-tiny", "D07-small", "D07-medium", "D07-large"],
)
def test_D07_base_defense(size, bdef):
    assert Character(size=size).base_defense == bdef


@pytest.mark.parametrize(
    "size,delta", [pytest.param("tiny", -2, id="S22-tiny"), pytest.param("large", 1, id="S22-large")]
)
def test_S22_speed_size(size, delta):
    assert Character(size=size, dexterity=14, constitution=14).speed == 7 + delta


def test_S21_hp():
    assert Character(constitution=14).hp_max == 42


def test_S18_point_buy_is_one_to_one():
    c = Character(strength=16)
    assert c.strength == 16 and c.char_points_spent == 66


def test_D40_bonus_caps():
    c = Character(strength=19, strength_bonus=3, strength_implant=2, stage="play")
    assert c.effective["strength"] == 22 and c.strength_mod == 6


def test_npc_has_no_cap():
    c = Character(entity_type="persona", strength=19, strength_bonus=3)
    assert c.effective["strength"] == 22


def test_hp_follows_hp_max_while_undamaged_then_clamps():
    c = Character(constitution=14)
    assert c.hp == 42
    c.constitution = 16
    assert c.hp == 48
    c.hp = 40
    c.constitution = 18
    assert c.hp == 40
    c.constitution = 10
    assert c.hp == 30


def test_unknown_size_values_are_gm_entered():
    c = Character(size="large", gm_approved_size=True, constitution=12)
    assert c.hp_max is None
    assert "size_hp_mult" in [m["field"] for m in c.gm_missing]
    c.size_hp_mult = 4
    assert c.hp_max == 48 and c.hp == 48
    h = Character(size="huge")
    assert h.speed is None and h.defense is None
    assert {"size_sbp", "size_hp_mult"} <= {m["field"] for m in h.gm_missing}
    h.size_sbp = 2
    assert h.base_defense == 8
    for m in h.gm_missing:
        assert m["en"] and m["ru"]


def test_round_trip():
    c = Character(
        name="Ржавый",
        strength=14,
        stealth=3,
        attributes=[{"code": "veteran", "name": "Ветеран", "expert_access": ["warfare", "trade"]}],
        tricks=[{"name": "Experienced shooter"}],
        hp=10,
        threads=4,
        conditions=["prone"],
    )
    d = c.to_dict()
    assert d["system"] == "threads_of_fate" and d["schema"] == 1
    c2 = Character.from_dict(d)
    assert c2.to_dict() == d and c2.hp == 10 and c2.has_access("trade")


def test_bad_input_lists_every_problem_and_changes_nothing():
    with pytest.raises(ValidationError) as e:
        Character(strength=25, stealth=-1, size="enormous", threads=-1)
    fields = {p.field for p in e.value.problems}
    assert {"strength", "stealth", "size", "threads"} <= fields
    for p in e.value.problems:
        assert p.message["en"] and p.message["ru"]
    c = Character()
    with pytest.raises(ValidationError):
        c.update(strength=12, dexterity=0)
    assert c.strength == 10
    with pytest.raises(ValidationError):
        Character.from_dict({"system": "ret", "schema": 1})
    with pytest.raises(ValidationError):
        Character.from_dict({"system": "threads_of_fate", "schema": 99})
    with pytest.raises(ValidationError):
        Character(hp_max=3)
    with pytest.raises(ValidationError):
        Character(weapons_list=[{"name": "x", "kind": "laser"}])
    with pytest.raises(ValidationError):
        Character(attributes=[{"notes": "no name"}])
    with pytest.raises(ValidationError):
        Character(expert_access=["stealth"])


def test_load_dict_all_or_nothing():
    c = Character(strength=12)
    with pytest.raises(ValidationError):
        c.load_dict({"system": "threads_of_fate", "schema": 1, "strength": 50})
    assert c.strength == 12
    c.load_dict({"system": "threads_of_fate", "schema": 1, "strength": 14})
    assert c.strength == 14 and c.strength_mod == 2


def test_derived_traits_update_on_every_change():
    c = Character()
    c.wisdom = 14
    assert c.will == 6 and c.reaction == 6 and c.wisdom_mod == 2
    c.intelligence = 8
    assert c.skill_cap == 8


def test_combat_derived_values():
    c = Character(dexterity=16, strength=12, armour_bonus=2, armour_max_dex=1, shield_bonus=1, unarmed=2)
    assert c.dexterity_mod == 3 and c.dexterity_mod_effective == 1
    assert c.defense == 10 + 1 + 2 + 1
    assert c.valor_unarmed == 2 + 1 + 1
    bow = Character(strength=14, dexterity=14, shooting=2, weapons_list=[{"name": "bow", "kind": "bow", "dmb": 1}])
    assert bow.marksmanship == 2 + 2 + 1 + 2  # A48: DMB + mSTR


def test_drain_and_secondary_drain():
    c = Character(constitution=12, constitution_drain=2, will_drain=10)
    assert c.effective["constitution"] == 10 and c.hp_max == 30
    assert c.will == 0
