"""Character model, derived values, creation/advancement validation (spec §3, §4, vectors D-20..D-43)."""

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death.inventory import parse_natural_armour
from tabletop_systems.life_and_death.progression import (
    high_start,
    improve_parameter,
    spend_param_point,
    starting_reputation,
)
from tabletop_widgets.core import RuleError, ValidationError


def codes(c, system=SYSTEM, severity=None):
    return {p.code for p in system.validate(c) if severity is None or p.severity == severity}


def feat(fid, level=1, origin="bought", **kw):
    return {"id": fid, "level": level, "origin": origin, **kw}


# -- derived values -----------------------------------------------------------------------------------------
DERIVED = [
    (
        "D-20",
        dict(might=3, dexterity=2, alertness=4, complexity=3, power=2, luck=4, skills={"athletics": 2}),
        dict(initiative=6, will=5, ep_max=5, sp_max=7, ip_max=6, magic_defence=3, carry_capacity_kg=25),
    ),
    ("D-21", dict(), dict(initiative=2, will=2, ep_max=2, sp_max=2, ip_max=2, carry_capacity_kg=5)),
    (
        "D-22",
        dict(might=5, dexterity=5, alertness=5, complexity=5, power=5, luck=5, skills={"athletics": 5}),
        dict(initiative=10, will=10, ep_max=10, sp_max=10, ip_max=10, carry_capacity_kg=50),
    ),
    (
        "D-42",
        dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=1),
        dict(initiative=5, will=5, magic_defence=3, ep=5, ep_max=5, sp=4, ip=3, level=1, epic_dice=0),
    ),
    ("D-43-39", dict(xp=39), dict(level=2)),
    ("D-43-40", dict(xp=40), dict(level=3)),
]


@pytest.mark.parametrize("vid,values,expected", DERIVED, ids=[d[0] for d in DERIVED])
def test_derived(vid, values, expected):
    c = Character(**values)
    for k, v in expected.items():
        assert getattr(c, k) == v, k


def test_derived_update_on_change_and_pools_follow_max():
    c = Character(complexity=2, power=2, luck=1)
    assert c.ep == 4
    c.complexity = 4
    assert (c.ep_max, c.ep, c.magic_defence, c.will, c.sp) == (6, 6, 4, 6, 5)
    c.ep = 2
    c.power = 3
    assert (c.ep_max, c.ep) == (7, 3)  # raised max raises current by the delta
    c.power = 1
    assert c.ep == 3 and c.ep_max == 5
    c.complexity = 1
    assert c.ep == 2  # clamped to the new max


@pytest.mark.parametrize(
    "age,claws,expected",
    [("young", 2, 3), ("child", 1, 1), ("adult", 0, 1)],
    ids=["D-28-young", "D-28-child", "D-28-adult"],
)
def test_D28_hand_damage(age, claws, expected):
    fs = [feat("claws", claws)] if claws else []
    assert Character(age=age, features=fs).hand_damage == expected


def test_D63_initiative_pool():
    c = Character(dexterity=3, alertness=2, helmet="closed", features=[feat("speed", 1)])
    assert c.initiative == 5 and c.initiative_pool == 6


# -- construction and round trip ----------------------------------------------------------------------------
def test_round_trip():
    c = Character(
        name="Арен Лис",
        might=3,
        skills={"athletics": 2},
        hp=5,
        features=[feat("claws")],
        inventory=[{"name": "sword", "category": "weapon", "damage": 3, "min_might": 2, "equipped": True}],
        money={"fire": 3},
    )
    d = c.to_dict()
    assert d["system"] == "life_and_death" and d["schema"] == 1
    c2 = Character.from_dict(d)
    assert c2.to_dict() == d and c2.hp == 5


@pytest.mark.parametrize(
    "values",
    [
        dict(might=0),
        dict(might=6),
        dict(luck="3"),
        dict(skills={"Bad Key": 1}),
        dict(skills={"stealth": -1}),
        dict(skill_xp={"stealth": 6}),
        dict(age="elder"),
        dict(helmet="bucket"),
        dict(features=[{"level": 1}]),
        dict(initiative=4),
        dict(unknown=1),
        dict(money={"gold": 1}),
        dict(ep=-1),
    ],
)
def test_bad_values_raise(values):
    with pytest.raises(ValidationError):
        Character(**values)


def test_every_problem_listed_and_nothing_changed():
    c = Character(might=3)
    with pytest.raises(ValidationError) as ei:
        c.update(might=9, dexterity=0)
    assert {p.field for p in ei.value.problems} == {"might", "dexterity"}
    assert all(p.message["ru"] and p.message["en"] for p in ei.value.problems)
    assert c.might == 3 and c.dexterity == 1
    with pytest.raises(ValidationError):
        Character.from_dict({"system": "ret", "schema": 1})


def test_params_above_5_option():
    with pytest.raises(ValidationError):
        Character(might=6)
    system = SYSTEM.with_rules(allow_params_above_5=True)
    c = system.Character(might=6, xp=40)
    assert c.might == 6 and "W_HIGH_LEVEL_PARAM_ABOVE_5" in codes(c, system)


# -- creation: race, age, points (S-16, D-23..D-27) -------------------------------------------------------------
RACE = dict(might=2, dexterity=2, alertness=2, complexity=2, power=2, luck=2)


def test_S16_hp_per_might_point():
    c = Character()
    SYSTEM.apply_race_and_age(c, RACE, "young", base_hp=10)
    assert c.alertness == 1 and c.power == 3
    spend_param_point(c, "might", options=SYSTEM.rules)
    spend_param_point(c, "might", options=SYSTEM.rules)
    assert c.might == 4 and c.hp_max == 12 and c.hp == 12
    with pytest.raises(RuleError):
        spend_param_point(c, "luck", options=SYSTEM.rules)  # only 2 points for young
    assert c.luck == 2


@pytest.mark.parametrize(
    "vid,race,age,expected",
    [
        ("D-23", dict(RACE, might=3, dexterity=2), "child", dict(might=2, dexterity=3)),
        ("D-24", dict(RACE, might=1, dexterity=2), "child", dict(might=1, dexterity=2)),
        ("D-25", dict(RACE, might=3, dexterity=5), "child", dict(might=2, dexterity=5)),
        ("D-26", dict(RACE, power=2, might=4), "adult", dict(power=1, might=5, base_damage=1)),
        ("D-27", dict(RACE, alertness=1, power=2), "young", dict(alertness=1, power=2)),
    ],
    ids=lambda x: x if isinstance(x, str) and x.startswith("D-") else None,
)
def test_age_swap(vid, race, age, expected):
    c = Character()
    SYSTEM.apply_race_and_age(c, race, age)
    for k, v in expected.items():
        assert getattr(c, k) == v, k
    assert "W_PARAM_LAYERS" not in codes(c)


def test_D25_overflow_warning_and_error_option():
    c = Character()
    warn = SYSTEM.apply_race_and_age(c, dict(RACE, might=3, dexterity=5), "child")
    assert warn == ["E_AGE_SWAP_OVERFLOW"]
    assert any(p.code == "E_AGE_SWAP_OVERFLOW" and p.severity == "warning" for p in SYSTEM.validate(c))
    strict = SYSTEM.with_rules(age_swap_overflow="error")
    with pytest.raises(RuleError):
        strict.apply_race_and_age(strict.Character(), dict(RACE, might=3, dexterity=5), "child")


def test_D26_adult_points_cannot_raise_might():
    c = Character()
    SYSTEM.apply_race_and_age(c, dict(RACE, power=2, might=4), "adult")
    with pytest.raises(RuleError):
        spend_param_point(c, "might", options=SYSTEM.rules)
    c2 = Character(race_params=dict(RACE, power=2, might=4), age="adult", might=5, power=1, param_points={"might": 1})
    assert "E_PARAM_RANGE" in codes(c2)


def test_D27_minus_only_option():
    system = SYSTEM.with_rules(age_swap_scope="minus_only")
    c = system.Character()
    system.apply_race_and_age(c, dict(RACE, alertness=1, power=2), "young")
    assert (c.power, c.alertness) == (3, 1)


def test_param_points_validation():
    c = Character(race_params=RACE, age="young", alertness=1, power=3)
    assert "W_UNSPENT_PARAM_POINTS" in codes(c)
    c.update(param_points={"might": 2, "luck": 1}, might=4, luck=3)
    assert "E_PARAM_POINTS" in codes(c)


# -- skills (D-32, D-33) ---------------------------------------------------------------------------------
def test_D32_skill_budget():
    house = SYSTEM.with_data(
        "skills", {"id": "archery", "en": "Archery", "ru": "стрельба из лука", "param": "dexterity"}
    )
    c = house.Character(dexterity=3, skills={"stealth": 2, "archery": 2})
    assert "E_SKILL_BUDGET" in codes(c)
    c.skills = {"stealth": 2, "archery": 1}
    assert "E_SKILL_BUDGET" not in codes(c)
    c.stage = "play"
    c.skills = {"stealth": 3, "archery": 2}
    assert "E_SKILL_BUDGET" not in codes(c) and "E_SKILL_CAP" not in codes(c)


def test_D33_feature_lowers_param():
    weak = feat("weakness", 1, "negative", kind="negative", param_mods={"might": -1})
    c = Character(might=2, features=[weak], skills={"athletics": 3}, custom_skills={"lifting": "might"})
    assert c.base_param("might") == 3
    assert "E_SKILL_CAP" in codes(c)
    c.skills = {"athletics": 2, "lifting": 1}
    assert not {"E_SKILL_CAP", "E_SKILL_BUDGET"} & codes(c)


def test_skill_cap_and_set_skill():
    c = Character(might=2)
    with pytest.raises(RuleError):
        SYSTEM.set_skill(c, "athletics", 3)
    SYSTEM.set_skill(c, "athletics", 2)
    assert c.skills == {"athletics": 2} and c.carry_capacity_kg == 20


def test_unknown_skill_warning_and_specialization():
    c = Character(dexterity=3, skills={"juggling": 1})
    assert "W_UNKNOWN_SKILL" in codes(c, severity="warning")
    house = SYSTEM.with_data(
        "skills", {"id": "craft", "en": "Craft", "ru": "ремесло", "param": "dexterity", "branched": True}
    )
    c2 = house.Character(dexterity=3, skills={"craft": 1})
    assert "E_SPECIALIZATION" in codes(c2)
    c2.skills = {"craft:smithing": 1}
    assert "E_SPECIALIZATION" not in codes(c2)


def test_transformation_needs_shapeshifter():
    c = Character(skills={"transformation": 1}, custom_skills={"transformation": "complexity"})
    assert "E_TRANSFORMATION_NO_SHAPESHIFTER" in codes(c)
    with pytest.raises(RuleError):
        SYSTEM.set_skill(Character(complexity=3), "transformation", 1)


def test_energetics_direction():
    house = SYSTEM.with_data(
        "skills",
        {
            "id": "fire",
            "en": "Fire",
            "ru": "огонь",
            "param": "complexity",
            "energetics": {"section": "elements", "direction": "C"},
        },
    )
    c = house.Character(complexity=3, direction="H", skills={"fire": 1})
    assert "E_ENERGETICS_DIRECTION" in codes(c)
    c.direction = "C"
    assert "E_ENERGETICS_DIRECTION" not in codes(c)


# -- features (S-01, D-29..D-31, D-34) ------------------------------------------------------------------------
def test_S01_racial_claws_then_mutation():
    fs = [feat("claws", 1, "racial"), feat("claws", 1), feat("horns", 1, kind="mutation")]
    c = Character(age="child", features=fs)  # 3 feature points
    from tabletop_systems.life_and_death.validation import feature_budget

    assert feature_budget(c)["cost"] == 3
    assert not {"E_FEATURE_POINTS", "W_UNSPENT_FEATURE_POINTS"} & codes(c)
    assert c.mutant and starting_reputation("good", fs, options=SYSTEM.rules) == -1
    only_claws = [feat("claws", 1, "racial"), feat("claws", 1)]
    assert (
        not Character(features=only_claws).mutant and starting_reputation("good", only_claws, options=SYSTEM.rules) == 1
    )
    assert (
        starting_reputation("good", only_claws, options=SYSTEM.with_rules(racial_upgrade_is_mutation=True).rules) == -1
    )


def test_D29_tail_first_mutation():
    fs = [feat("pathos", 1, "negative"), feat("tail", 0), feat("will_feature", 2)]
    c = Character(age="adolescent", features=fs)
    from tabletop_systems.life_and_death.validation import feature_budget

    b = feature_budget(c)
    assert (b["available"], b["cost"]) == (3, 3)
    assert not {"E_FEATURE_POINTS", "W_UNSPENT_FEATURE_POINTS"} & codes(c)


def test_D30_tail_not_first():
    from tabletop_systems.life_and_death.validation import feature_budget

    c1 = Character(features=[feat("horns", 1, kind="mutation")])
    c2 = Character(features=[feat("horns", 1, kind="mutation"), feat("tail", 0)])
    assert feature_budget(c1)["cost"] == 2 == feature_budget(c2)["cost"]


def test_feature_points_over():
    c = Character(age="adult", features=[feat("speed", 1)])
    assert "E_FEATURE_POINTS" in codes(c)


@pytest.mark.parametrize(
    "levels,error", [([1, 1, 1], True), ([2], False), ([2, 1], True)], ids=["D-31-three", "D-31-one-at-II", "D-31-II+I"]
)
def test_D31_negative_limit(levels, error):
    fs = [feat(f"neg{i}", lv, "negative", kind="negative") for i, lv in enumerate(levels)]
    assert ("E_NEGATIVE_LIMIT" in codes(Character(features=fs))) is error


def test_D34_param_zero_by_feature():
    c = Character(
        race_params=dict(RACE, luck=1),
        luck=1,
        features=[feat("jinx", 1, "negative", kind="negative", param_mods={"luck": -1})],
    )
    assert "E_PARAM_ZERO_BY_FEATURE" in codes(c)


def test_feature_notes_and_affinity():
    c = Character(features=[feat("bound_pattern"), feat("hoarder"), feat("source_affinity"), feat("natural_armour")])
    assert sum(p.code == "E_FEATURE_NOTE" for p in SYSTEM.validate(c)) == 4
    c2 = Character(features=[feat("source_affinity", note="fire")], affinity="plasma")
    assert "E_AFFINITY_SOURCE" in codes(c2)
    c2.affinity = "fire"
    assert "E_AFFINITY_SOURCE" not in codes(c2)


def test_feature_conflict_from_data():
    house = SYSTEM.with_data(
        "features",
        {
            "id": "deaf",
            "en": "Deaf",
            "ru": "глухота",
            "kind": "negative",
            "max_level": 1,
            "conflicts": ["keen_hearing"],
        },
    )
    house = house.with_data(
        "features", {"id": "keen_hearing", "en": "Keen hearing", "ru": "острый слух", "max_level": 1}
    )
    c = house.Character(features=[feat("deaf", 1, "negative"), feat("keen_hearing")])
    assert "E_FEATURE_CONFLICT" in codes(c)


def test_bound_pattern_reciprocal():
    a = Character(name="Ари", features=[feat("bound_pattern", note="Бон")])
    b = Character(name="Бон")
    assert [p.code for p in SYSTEM.validate_party({"a": a, "b": b})] == ["E_BOUND_PATTERN_RECIPROCAL"]
    b.features = [feat("bound_pattern", note="Ари")]
    assert SYSTEM.validate_party({"a": a, "b": b}) == []


# -- natural armour (S-02, S-03) ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,expected",
    [("шерстьI", {"type": "fur", "level": 1}), ("чешуяIIII", {"type": "scales", "level": 4})],
    ids=["S-02-fur", "S-02-scales"],
)
def test_S02_natural_armour_notation(text, expected):
    r = parse_natural_armour(text)
    assert {k: r[k] for k in expected} == expected


@pytest.mark.parametrize("age,prot", [("adolescent", 3), ("child", 3), ("young", 4), ("adult", 4)])
def test_S03_natural_armour_age(age, prot):
    c = Character(age=age, features=[feat("natural_armour", 4, note="чешуя")])
    assert c.natural_armour == prot and c.armour_level == prot


def test_armour_stacking_option():
    inv = [{"name": "mail", "category": "armour", "protection": 2, "equipped": True}]
    fs = [feat("natural_armour", 1, note="fur")]
    assert Character(age="adult", features=fs, inventory=inv).armour_level == 3
    assert (
        SYSTEM.with_rules(natural_armour_stacking="max").Character(age="adult", features=fs, inventory=inv).armour_level
        == 2
    )


# -- forms (D-35..D-37) ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("t,n", [(0, 1), (1, 3), (2, 5)], ids=["D-35-0", "D-35-1", "D-35-2"])
def test_D35_forms_count(t, n):
    c = Character(
        complexity=3,
        features=[feat("shapeshifter")],
        skills={"transformation": t},
        custom_skills={"transformation": "complexity"},
    )
    assert c.max_forms == n
    c.forms = [{"creature": "wolf", "tier": 1}] * (n + 1)
    assert "E_FORMS_COUNT" in codes(c)


@pytest.mark.parametrize(
    "luck,tiers,code",
    [(3, [3, 3, 3], None), (3, [4], "E_FORM_TIER_LUCK"), (4, [4, 4, 3], "E_FORMS_TIER_SUM")],
    ids=["D-36-ok", "D-36-luck", "D-36-sum"],
)
def test_D36_form_tiers(luck, tiers, code):
    c = Character(
        luck=luck,
        complexity=3,
        features=[feat("shapeshifter")],
        skills={"transformation": 1},
        custom_skills={"transformation": "complexity"},
        forms=[{"creature": f"c{i}", "tier": t} for i, t in enumerate(tiers)],
    )
    got = codes(c) & {"E_FORM_TIER_LUCK", "E_FORMS_TIER_SUM", "E_FORMS_COUNT"}
    assert got == ({code} if code else set())


def test_D37_form_cap_on_propagation():
    c = Character(
        might=1,
        pending_improvements=3,
        features=[feat("shapeshifter")],
        forms=[{"creature": "wolf", "tier": 1, "might": 2, "start_might": 2}],
    )
    for _ in range(3):
        improve_parameter(c, "might", options=SYSTEM.rules)
    assert c.might == 4 and c.forms[0]["might"] == 4
    bad = Character(features=[feat("shapeshifter")], forms=[{"creature": "x", "tier": 1, "might": 5, "start_might": 2}])
    assert "E_FORM_PARAM_DOUBLE" in codes(bad)


def test_form_guardian_and_affinity():
    c = Character(luck=3, features=[feat("shapeshifter")], forms=[{"creature": "dragon", "tier": 2}])
    assert "E_FORM_GUARDIAN" in codes(c)
    assert "E_FORM_GUARDIAN" not in codes(c, SYSTEM.with_rules(gm_allows_guardians=True))
    c.forms = [{"creature": "salamander", "tier": 2, "requires_affinity": "fire"}]
    assert "E_FORM_AFFINITY" in codes(c)


# -- story (D-38, D-39) ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "alignment,features,rep",
    [
        ("good", [], 1),
        ("evil", [], -1),
        ("good", [feat("horns", kind="mutation")], -1),
        ("good", [feat("inconspicuous")], 0),
    ],
    ids=["D-38-good", "D-38-evil", "D-38-mutant", "D-38-inconspicuous"],
)
def test_D38_starting_reputation(alignment, features, rep):
    assert starting_reputation(alignment, features, options=SYSTEM.rules) == rep


@pytest.mark.parametrize(
    "name,ok",
    [("Арен Лис", True), ("Арен-Лис", False), ("Ар'ен", False), ("Арен Лис Вел", False)],
    ids=["D-39-ok", "D-39-hyphen", "D-39-apostrophe", "D-39-three"],
)
def test_D39_name(name, ok):
    assert ("E_NAME_FORMAT" not in codes(Character(name=name))) is ok


def test_faith_reputation_epic():
    c = Character(faith="odin", reputation=0, epic_dice=1)
    got = codes(c)
    assert {"W_FAITH_UNKNOWN", "E_REPUTATION_ZERO", "E_EPIC_DICE_CAP"} <= got
    c.update(faith="esker", features=[feat("inconspicuous")])
    assert not {"W_FAITH_UNKNOWN", "E_REPUTATION_ZERO"} & codes(c)
    assert not {"E_REPUTATION_ZERO", "E_EPIC_DICE_CAP"} & codes(Character(mode="quick", reputation=0, epic_dice=1))


# -- high-level start, level-up (S-15, D-40, D-41) -----------------------------------------------------------------
@pytest.mark.parametrize(
    "level,rule,expected",
    [
        (4, "level", dict(xp=60, param_points=4, skill_points=8)),
        (4, "level_minus_1", dict(xp=60, param_points=3, skill_points=8)),
        (3, "level", dict(xp=40, param_points=3, skill_points=6)),
    ],
    ids=["S-15", "S-15-level-1", "D-40"],
)
def test_high_start(level, rule, expected):
    assert high_start(level, options=SYSTEM.with_rules(highlevel_param_points=rule).rules) == expected


def test_D41_hp_recalculated():
    c = Character(race_params=dict(RACE, might=2), might=2, base_hp=10, pending_improvements=1)
    assert c.hp_max == 10
    c.hp = 7
    SYSTEM.improve(c, "parameter", "might")
    assert c.hp_max == 11 and c.hp == 8 and c.pending_improvements == 0
    with pytest.raises(RuleError):
        SYSTEM.improve(c, "parameter", "might")


def test_hp_formula_options():
    c = SYSTEM.with_rules(hp_formula="manual").Character(might=4, base_hp=9)
    assert c.hp_max == 9
    fs = [feat("brawn", 1, param_mods={"might": 1})]
    assert Character(might=3, features=fs, race_params=dict(RACE, might=2), base_hp=10).hp_max == 11
    no_feat = SYSTEM.with_rules(hp_include_feature_might=False)
    assert no_feat.Character(might=3, features=fs, race_params=dict(RACE, might=2), base_hp=10).hp_max == 10


def test_finish_creation():
    c = Character(age="adult", features=[feat("speed")])
    with pytest.raises(RuleError):
        SYSTEM.finish_creation(c)
    assert c.stage == "creation"
    c.features = []
    SYSTEM.finish_creation(c)
    assert c.stage == "play"


def test_gm_data_file(tmp_path):
    import json

    p = tmp_path / "races.json"
    p.write_text(
        json.dumps(
            {
                "table": "races",
                "rows": [
                    {
                        "id": "elf",
                        "name_en": "Elf",
                        "name_ru": "эльф",
                        "params": RACE,
                        "alignment": "good",
                        "base_hp": 8,
                    }
                ],
            }
        )
    )
    house = SYSTEM.with_data_file(p)
    assert house.data("races")[0]["en"] == "Elf"
    assert house.Character(race="elf").hp_base == 8
    assert not SYSTEM.data("races") and SYSTEM.rules.house_rows == {}  # the shared system is unchanged
    with pytest.raises(ValueError):
        SYSTEM.with_data("skills", {"id": "charm", "en": "Charm", "ru": "обаяние", "param": "power"})


def test_data_tables_have_names():
    for t in SYSTEM.data_tables():
        for r in SYSTEM.data(t):
            assert "id" in r and r["en"] and r["ru"], (t, r)
    assert len(SYSTEM.data("deities")) == 9 and len(SYSTEM.data("sources")) == 9
    assert len(SYSTEM.data("guardian_forms")) == 9 and len(SYSTEM.data("zones")) == 6


def test_sheet_covers_persisted_traits():
    names = {f.name for f in SYSTEM.sheet.fields()}
    for t in Character.persisted_traits():
        if t not in ("race_params", "param_advances", "phase"):  # the phase: the generic sheet's header
            assert t in names, t
    for f in SYSTEM.sheet.fields():
        assert hasattr(Character(), f.name), f.name
        if f.source:
            SYSTEM.data(f.source)


def test_no_ipywidgets_import():
    import pathlib

    root = pathlib.Path(__import__("tabletop_systems.life_and_death", fromlist=["x"]).__file__).parent
    for p in root.glob("*.py"):
        assert "ipywidgets" not in p.read_text(encoding="utf-8"), p


def test_sheet_counters():
    c = Character(dexterity=3, age="young", skills={"stealth": 2}, features=[feat("speed")])
    assert c.skill_budget["dexterity"] == {"used": 2, "budget": 3}
    assert c.feature_points["available"] == 1 and c.feature_points["cost"] == 1
    assert c.parameter_layers["dexterity"]["final"] == 3


def test_load_dict_keeps_damaged_pools():
    src = Character(might=4, complexity=3, power=3, hp=5, ep=2, race_params=dict(RACE, might=2), base_hp=10)
    d = src.to_dict()
    c = Character(might=2)
    c.load_dict(d)
    assert c.to_dict() == d and (c.hp, c.hp_max, c.ep) == (5, 12, 2)
    c.update(might=5)
    assert (c.hp, c.hp_max) == (6, 13)
