"""RET character model: the parameter tree, derived indicators, persistence, shape validation."""

import pytest
from hypothesis import given, settings, strategies as st

from tabletop_systems.ret import Character
from tabletop_widgets.core import ValidationError

from ret_testkit import DERIVED_VECTORS, ORDER, build


def test_public_names_from_the_issue():
    c = Character(attention=5, intuition=3, physique=4)
    assert c.perception == 4 and c.mind == 3  # (5+3)//2, (3+4)//2
    assert (c.health_max, c.sanity_max, c.level, c.luck_max, c.strike_power, c.speed) == (6, 6, 3, 6, 1, 3)
    assert c.health == 6 and c.sanity == 6 and c.luck == 6


DERIVED = [
    ("TV-B3", {"physique": 3}, {"body": 3, "health_max": 6}),
    ("TV-B6", {}, {"mind": 3, "emotions": 3, "sanity_max": 6}),
    ("TV-B9", {}, {"level": 3, "luck_max": 6, "luck": 6}),
    ("TV-B10", {}, {"level": 3}),
    ("TV-B11", {"physique": 4, "endurance": 4}, {"strength": 4, "strike_power": 2}),
    ("TV-B59", {"fine_motor": 4, "body_control": 4}, {"agility": 4, "speed": 4}),
] + [(vid, values, expected) for vid, (values, expected) in DERIVED_VECTORS.items()]


@pytest.mark.parametrize("vid,values,expected", DERIVED, ids=[d[0] for d in DERIVED])
def test_derived_vectors(vid, values, expected):
    c = Character(**values)
    assert {k: getattr(c, k) for k in expected} == expected


def test_TV_B4_thresholds():
    c = Character()
    assert -3 * c.health_max == -18 and -3 * c.sanity_max == -18


def test_derived_follow_every_change():
    c = Character()
    c.fine_motor = 7
    assert (c.agility, c.speed, c.body) == (5, 5, 4)
    c.body_control = 7
    assert (c.agility, c.body, c.health_max) == (7, 5, 10)
    assert c.health == 10  # A40: current follows a raised maximum


def test_lowering_max_clamps_current_A40():
    c = Character(physique=7, endurance=7)
    assert c.health == c.health_max == 10
    c.update(physique=3, endurance=3)
    assert c.health_max == 6 and c.health == 6


def test_damaged_current_follows_raise_by_delta():
    c = Character()
    c.health = 2
    c.physique = 7
    c.endurance = 7  # body 3 -> 5: max 6 -> 10
    assert c.health == 6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=12, max_size=12))
def test_tree_formulas_property(vals):
    c = Character(**build(vals))
    v = build(vals)
    assert c.intellect == (v["education"] + v["wits"]) // 2
    assert c.agility == (v["fine_motor"] + v["body_control"]) // 2
    assert c.body == (c.strength + c.agility) // 2
    assert c.level == (c.mind + c.emotions + c.body) // 3
    assert c.sanity_max == c.mind + c.emotions and c.health_max == 2 * c.body
    assert Character.from_dict(c.to_dict()).to_dict() == c.to_dict()


def test_round_trip_with_lists():
    c = Character(
        name="Ира",
        abilities=[{"name": "Lockpicking", "kind": "skill", "base_param": "fine_motor", "level": 3}],
        armour=[{"name": "mail", "defence": 2, "durability": 2}],
        money="300 gold",
    )
    d = c.to_dict()
    assert d["system"] == "ret" and d["schema"] == 1
    assert Character.from_dict(d).to_dict() == d


def test_penalty_levels_are_legal_values():
    c = Character(body_control=1)  # spec §4.3: V3 is a creation problem, not a shape error
    assert c.body_control == 1


@pytest.mark.parametrize(
    "values,code,field",
    [
        ({"attention": 8}, "param_range", "attention"),  # V2
        ({"attention": -1}, "bad_type", "attention"),
        ({"attention": "x"}, "bad_type", "attention"),  # V1
        ({"health": 7}, "health_above_max", "health"),  # V16
        ({"sanity": 9}, "sanity_above_max", "sanity"),
        ({"luck": -1}, "bad_type", "luck"),
        ({"abilities": [{"name": "Nav", "kind": "skill", "level": 3}]}, "ability_base", "abilities"),  # V8
        (
            {"abilities": [{"name": "Nav", "kind": "skill", "base_param": "wits", "level": 8}]},
            "ability_level",
            "abilities",
        ),  # V9
        (
            {
                "abilities": [
                    {"name": "Nav", "kind": "skill", "base_param": "wits", "level": 3},
                    {"name": "Nav", "kind": "talent", "base_param": "wits", "level": 3},
                ]
            },
            "ability_duplicate",
            "abilities",
        ),  # V10
        ({"flaws": [{"name": "Fear", "severity": "huge", "level": 1}]}, "flaw_severity", "flaws"),
        ({"armour": [{"name": "mail", "defence": -1, "durability": 2}]}, "armour_value", "armour"),
        ({"level": 5}, "derived_given", "level"),
        ({"nonsense": 1}, "unknown_field", "nonsense"),
        ({"overrides": {"agility": 5}}, "override_pc", "overrides"),
    ],
)
def test_shape_errors_refused(values, code, field):
    with pytest.raises(ValidationError) as exc:
        Character(**values)
    assert any(p.code == code and p.field == field for p in exc.value.problems)
    assert all(p.message["en"] and p.message["ru"] for p in exc.value.problems)


def test_validation_lists_every_problem_and_changes_nothing():
    c = Character()
    before = c.to_dict()
    with pytest.raises(ValidationError) as exc:
        c.update(attention=9, wits=12, health=50)
    assert {p.field for p in exc.value.problems} >= {"attention", "wits"}
    assert c.to_dict() == before
    with pytest.raises(ValidationError):
        c.load_dict({**before, "system": "seasons"})
    assert c.to_dict() == before


def test_npc_level_8_allowed():
    c = Character(is_npc=True, physique=8, endurance=8)
    assert c.strength == 8 and c.strike_power == 4
    assert c.luck == 0  # A38: NPCs have no Luck unless the GM sets it


def test_TV_B55_goblin():
    goblin = Character(is_npc=True, npc_tier="mook", overrides={"mind": 3, "emotions": 3, "body": 3})
    assert goblin.level == 3
    assert all(goblin.value(p) == 3 for p in ORDER)
    nimble = Character(is_npc=True, overrides={"mind": 3, "emotions": 3, "body": 3, "agility": 5})
    assert nimble.agility == 5  # dodges with d10
    from tabletop_systems.ret import die_label

    assert die_label(nimble.value("agility")) == "d10"


def test_TV_D62_nimble_goblin_inheritance():
    g = Character(is_npc=True, overrides={"body": 3, "mind": 3, "emotions": 3, "agility": 5})
    assert g.strength == 3 and g.strike_power == 1 and g.speed == 5 and g.health_max == 6
    assert g.body == 3  # overrides never propagate upward
    assert g.value("fine_motor") == 5 and g.value("body_control") == 5
    assert g.value("physique") == 3


def test_luck_may_exceed_max():
    c = Character(luck=20)
    assert c.luck == 20 and c.luck_max == 6


def test_gm_luck_max_override_A51():
    c = Character(luck_max_override=10)
    assert c.luck_max == 10 and c.luck == 10


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 20),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "name",
                    "kind",
                    "level",
                    "base_param",
                    "defence",
                    "durability",
                    "id",
                    "severity",
                    "divider",
                    "locations",
                ]
            ),
            st.one_of(st.integers(-2, 9), st.text(max_size=4), st.none()),
            max_size=4,
        ),
        max_size=2,
    ),
)


@settings(max_examples=80, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "attention",
                "health",
                "luck",
                "abilities",
                "flaws",
                "armour",
                "weapons",
                "overrides",
                "is_npc",
                "npc_tier",
                "conditions",
                "tokens",
                "temp_armour_kind",
                "luck_max_override",
                "name",
            ]
        ),
        JUNK,
        max_size=4,
    )
)
def test_bad_input_only_raises_validation_error(data):
    try:
        c = Character(**data)
    except ValidationError as exc:
        assert exc.problems
        return
    assert Character.from_dict(c.to_dict()).to_dict() == c.to_dict()
