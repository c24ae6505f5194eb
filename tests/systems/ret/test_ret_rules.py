"""Creation and advancement (spec §4, §7.1): costs, validation, DP operations."""

import pytest

from tabletop_systems.ret import SYSTEM, Character
from tabletop_systems.ret.advancement import cost, new_skill_level_from_d6, talent_level_from_d6
from tabletop_widgets.core import RuleError


SKILLS3_TALENT1 = [
    {"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3},
    {"name": "Sea Navigation", "kind": "skill", "base_param": "wits", "level": 3},
    {"name": "Brawling", "kind": "skill", "base_param": "physique", "level": 3},
    {"name": "Magic", "kind": "talent", "base_param": "education", "level": 3},
]


def codes(problems, severity="error"):
    return {p.code for p in problems if p.severity == severity}


def test_TV_B1_recommended():
    assert (
        cost(3, 4, "recommended", options=SYSTEM.rules) == 3
        and cost(4, 5, "recommended", options=SYSTEM.rules) == 4
        and cost(3, 5, "recommended", options=SYSTEM.rules) == 7
    )


def test_TV_B2_simplified_pools():
    c = Character(dp_params=3, dp_abilities=3, abilities=[dict(a) for a in SKILLS3_TALENT1])
    sysm = SYSTEM.with_rules(costing="simplified")
    sysm.raise_parameter(c, "physique")
    sysm.raise_ability(c, "Lockpicking")
    assert (c.dp_params, c.dp_abilities, c.physique, c.ability("Lockpicking")["level"]) == (2, 2, 4, 4)


@pytest.mark.parametrize(
    "a,b,scheme,expected",
    [
        (3, 7, "recommended", 18),
        (1, 7, "recommended", 21),
        (5, 6, "recommended", 5),
        (0, 3, "recommended", 4),
        (3, 7, "simplified", 4),
        (1, 3, "simplified", 2),
    ],
    ids=["TV-D9-3to7", "TV-D9-1to7", "TV-D9-5to6", "TV-D9-0to3", "TV-D10-3to7", "TV-D10-1to3"],
)
def test_TV_D9_D10_costs(a, b, scheme, expected):
    assert cost(a, b, scheme, options=SYSTEM.rules) == expected


def test_TV_D9_limit_and_cost_0_to_1_option():
    with pytest.raises(RuleError, match="Level 7 is the limit"):
        cost(7, 8, "recommended", options=SYSTEM.rules)
    assert cost(0, 1, "recommended", options=SYSTEM.with_rules(cost_0_to_1=2).rules) == 2


def test_TV_B12_TV_D65_conversion():
    ab = [dict(a) for a in SKILLS3_TALENT1]
    ab[0]["level"] = 7
    c = Character(dp=10, abilities=ab)
    SYSTEM.convert_ability(c, "Lockpicking", "Master Thief", d6=4)
    t = c.ability("Master Thief")
    assert t["kind"] == "talent" and t["level"] == 4 and c.dp == 3 and c.ability("Lockpicking") is None
    c2 = Character(dp_abilities=3, abilities=ab)
    SYSTEM.with_rules(costing="simplified").convert_ability(c2, "Lockpicking", "Master Thief")
    assert c2.ability("Master Thief")["level"] == 3 and c2.dp_abilities == 0


def test_conversion_refusals_change_nothing():
    c = Character(dp=10, abilities=[dict(a) for a in SKILLS3_TALENT1])
    before = c.to_dict()
    with pytest.raises(RuleError) as e:
        SYSTEM.convert_ability(c, "Lockpicking", "X")
    assert e.value.code == "needs_level_7"
    ab = [dict(a) for a in SKILLS3_TALENT1]
    ab[3]["level"] = 7
    c = Character(dp=2, abilities=ab)
    before = c.to_dict()
    with pytest.raises(RuleError) as e:
        SYSTEM.convert_ability(c, "Magic", "Archmagic")  # talent upgrade costs 7
    assert e.value.code == "dp_insufficient" and c.to_dict() == before


@pytest.mark.parametrize("d6,level", [(1, 3), (3, 4), (6, 5)], ids=["TV-B13-1", "TV-B13-3", "TV-B13-6"])
def test_TV_B13(d6, level):
    assert talent_level_from_d6(d6) == level


@pytest.mark.parametrize("d6,level", [(2, 1), (4, 2), (5, 3)], ids=["TV-B57-2", "TV-B57-4", "TV-B57-5"])
def test_TV_B57(d6, level):
    assert new_skill_level_from_d6(d6) == level
    c = Character()
    a = SYSTEM.gain_ability(c, "Swimming", "skill", "body_control", d6=d6)
    assert a["level"] == level


def test_TV_B63_ability_levels():
    c = Character()
    assert SYSTEM.gain_ability(c, "Swim", "skill", "body_control")["level"] == 1
    assert SYSTEM.gain_ability(c, "Fire", "talent", "will")["level"] == 3
    assert SYSTEM.gain_ability(c, "Spark", "talent", "will", nascent=True)["level"] == 1
    ab = [dict(a) for a in c.abilities]
    ab[0]["level"] = 7
    c.abilities = ab
    c.dp = 100
    with pytest.raises(RuleError, match="limit"):
        SYSTEM.raise_ability(c, "Swim")


def test_raise_parameter_refusals():
    c = Character(dp=2)
    with pytest.raises(RuleError) as e:
        SYSTEM.raise_parameter(c, "physique")  # 3 -> 4 costs 3
    assert e.value.code == "dp_insufficient" and c.physique == 3 and c.dp == 2
    with pytest.raises(RuleError) as e:
        SYSTEM.raise_parameter(c, "strength")
    assert e.value.code == "not_tier3"
    with pytest.raises(RuleError) as e:
        SYSTEM.raise_parameter(c, "physique", in_play=True)
    assert e.value.code == "dp_in_play"
    c = Character(dp=100, physique=7)
    with pytest.raises(RuleError, match="Level 7 is the limit"):
        SYSTEM.raise_parameter(c, "physique")
    c = Character(dp=3)
    entry = SYSTEM.raise_parameter(c, "physique")
    assert entry["cost"] == 3 and c.physique == 4 and c.strength == 3 and c.dp == 0 and c.dp_log[-1]["to"] == 4
    c = Character(dp=3)
    SYSTEM.with_rules(dp_spend_only_between_games=False).raise_parameter(c, "physique", in_play=True)
    assert c.physique == 4


def legal(**kw):
    return Character(abilities=[dict(a) for a in SKILLS3_TALENT1], **kw)


GM = SYSTEM.with_rules(param_dp=3, ability_dp=3)


def test_default_character_is_legal():
    assert codes(GM.validate(legal())) == set()
    assert codes(SYSTEM.validate(legal())) == set()


def test_TV_D11_budget():
    c = legal(physique=5, attention=4)
    assert codes(GM.validate(c)) == set()
    c = legal(physique=5, attention=4, wits=4)
    probs = [p for p in GM.validate(c) if p.code == "param_overspent"]
    assert len(probs) == 1
    assert probs[0].message["en"].startswith("Parameter points overspent: 4 of 3 (1 too many)")
    assert probs[0].field == "physique" and probs[0].message["ru"]


def test_TV_B16_creation_cap():
    c = legal(physique=6, attention=6)
    probs = SYSTEM.with_rules(creation_cap=5, param_dp=99).validate(c)
    assert {p.field for p in probs if p.code == "above_cap"} == {"physique", "attention"}


def test_V3_below_start_and_option():
    c = legal(body_control=1)
    assert "below_start" in codes(GM.validate(c))
    assert "below_start" not in codes(GM.with_rules(allow_below_start=True).validate(c))


def test_V6_ability_budget():
    ab = [dict(a) for a in SKILLS3_TALENT1]
    ab[0]["level"] = 5
    ab[3]["level"] = 5
    c = Character(abilities=ab)
    p = [p for p in GM.validate(c) if p.code == "ability_overspent"][0]
    assert "4 of 3" in p.message["en"]


def test_TV_B14_V7_counts():
    c = Character(abilities=[dict(a) for a in SKILLS3_TALENT1[:2]])
    assert "ability_count" in codes(GM.validate(c))
    assert "ability_count" not in codes(GM.with_rules(ability_count_mode="at_most").validate(c))
    four_two = [dict(a) for a in SKILLS3_TALENT1] + [
        {"name": "Swim", "kind": "skill", "base_param": "body_control", "level": 3},
        {"name": "Fire", "kind": "talent", "base_param": "will", "level": 3},
    ]
    assert "ability_count" not in codes(GM.with_rules(n_skills=4, n_talents=2).validate(Character(abilities=four_two)))


def test_V12_starting_luck():
    assert "starting_luck" in codes(GM.validate(legal(luck=3)))


def test_V13_superpower_cost():
    ab = [dict(a) for a in SKILLS3_TALENT1]
    ab[3]["is_superpower"] = True
    assert "superpower_cost" in codes(GM.validate(Character(abilities=ab)))
    ab[3]["sanity_cost"] = 1
    assert "superpower_cost" not in codes(GM.validate(Character(abilities=ab)))


def test_V14_V15_warnings():
    ab = [dict(a) for a in SKILLS3_TALENT1]
    ab[0]["category"] = "combat_attack"
    ab[0]["base_param"] = "agility"
    c = Character(abilities=ab, items=[{"name": n} for n in "abcd"])
    w = codes(GM.validate(c), "warning")
    assert {"base_tier_attack", "starting_kit"} <= w
    assert "base_tier_attack" not in codes(GM.validate(c))


def test_TV_B15_starting_kit_legal():
    c = legal(
        money="300 gold",
        weapons=[{"name": "sword", "damage": 3, "kind": "melee"}],
        items=[{"name": "healing potion"}, {"name": "medallion"}, {"name": "crystal"}],
    )
    assert not [p for p in GM.validate(c) if p.code.startswith("starting_")]


def test_TV_D21_start_of_session():
    c = Character(luck=3)
    SYSTEM.start_game_session(c)
    assert c.luck == 6
    c = Character(luck=9)
    SYSTEM.start_game_session(c)
    assert c.luck == 9


def test_flaw_conversion():
    c = Character(dp=7, flaws=[{"name": "Fear of fire", "severity": "light", "level": 3, "base_param": "composure"}])
    SYSTEM.convert_flaw(c, "Fear of fire", "Fire-warded", "will")
    assert c.flaws == [] and c.ability("Fire-warded")["kind"] == "talent" and c.dp == 0


def test_validate_party_lists_each_members_problems_by_member():
    over = legal(physique=7)
    problems = GM.validate_party({"anna": legal(), "boris": over})
    assert isinstance(problems, list) and problems
    assert {p.data["member"] for p in problems} == {"boris"}
    assert [p.code for p in problems] == [p.code for p in GM.validate(over)]
    assert GM.validate_party({}) == []
