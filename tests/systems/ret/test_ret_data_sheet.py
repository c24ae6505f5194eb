"""Data tables (spec §8), the sheet layout (spec §10.1), rules options and package hygiene."""

import ast
import pathlib

import pytest

from tabletop_systems.ret import SYSTEM, Character, RetSystem
from tabletop_widgets.core import GameSystem
from tabletop_widgets.core.sheet import Sheet

from ret_testkit import B65_WEAPONS

PKG = pathlib.Path(__file__).resolve().parents[3] / "systems" / "ret"


def test_system_identity():
    assert isinstance(SYSTEM, GameSystem) and SYSTEM.slug == "ret" and SYSTEM.Character is Character
    assert SYSTEM.title["ru"].startswith("Р.Э.Т.")
    with pytest.raises(ValueError):
        RetSystem(no_such_rule=1)


@pytest.mark.parametrize("name", SYSTEM.data_tables())
def test_every_table_has_bilingual_rows(name):
    rows = SYSTEM.data(name)
    assert rows
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        assert r["en"] and r["ru"]


def test_tables_listed():
    assert {
        "level_dice",
        "advancement_costs",
        "difficulties",
        "basic_checks",
        "dividers",
        "loss_of_control",
        "weapons",
        "explosions",
        "armour",
        "items",
        "trauma_severity",
        "trauma_examples",
        "diseases",
        "attack_examples",
        "action_examples",
        "flaws",
        "choice_tables",
        "parameters",
        "npc_tiers",
        "conditions",
    } <= set(SYSTEM.data_tables())
    with pytest.raises(KeyError):
        SYSTEM.data("nope")


def test_list_counts():
    assert len(SYSTEM.data("basic_checks")) == 24
    assert len(SYSTEM.data("attack_examples")) == 8
    acts = SYSTEM.data("action_examples")
    assert len(acts) == 11 and len(acts[0]["sub"]) == 7
    assert len(SYSTEM.data("trauma_examples")) == 9
    assert len(SYSTEM.data("parameters")) == 21
    assert len(SYSTEM.data("loss_of_control")) == 12


def test_TV_B45_armour_presets():
    a = {r["id"]: (r["defence"], tuple(r["durability_range"]), r["penalty"]) for r in SYSTEM.data("armour")}
    assert a == {"light": (2, (2, 4), 0), "medium": (4, (4, 6), -2), "heavy": (6, (6, 10), -4)}


def test_TV_B65_weapon_presets():
    from tabletop_systems.ret.combat import raw_damage

    w = {r["id"]: r for r in SYSTEM.data("weapons")}
    got = {k: raw_damage(2, w[k]) for k in B65_WEAPONS}
    assert got == {
        "unarmed": 2,
        "reinforced_unarmed": 3,
        "blunt": 4,
        "short_blade": 4,
        "blade": 5,
        "heavy_blade": 6,
        "thrown_blunt": 3,
        "thrown_sharp": 4,
        "light_nonfirearm": 3,
    }
    assert w["light_firearm"]["damage_range"] == [3, 4] and w["heavy_weapon"]["damage_range"] == [5, 6]


def test_TV_B66_blasts():
    b = {r["id"]: (tuple(r["damage_range"]), r["diameter_min"]) for r in SYSTEM.data("explosions")}
    assert b == {"weak": ((5, 7), 2), "medium": ((8, 15), 3), "strong": ((15, 25), 4)}


def test_difficulty_table_min_levels_TV_D69():
    """Recompute the book's "minimum level" columns from the rule of spec §5.5."""
    from tabletop_systems.ret.level import LEVEL_DIE

    def min_level(threshold, bonus, levels):
        for lv in levels:
            faces, flat = LEVEL_DIE[lv]
            top = faces if faces == 100 else faces - 1
            if top + flat + bonus >= threshold:
                return lv
        return 8

    changed = []
    for r in SYSTEM.data("difficulties"):
        got = [min_level(r["threshold"], b, (0, 3, 5, 7, 8)) for b in (0, 3, 7)]
        assert got == r["min_level"], r["id"]
        every = [min_level(r["threshold"], b, range(9)) for b in (0, 3, 7)]
        changed += [(r["id"], i) for i, (x, y) in enumerate(zip(got, every)) if x != y]
    assert changed == [("low", 0)]


def test_sheet_fields_exist():
    sheet = SYSTEM.sheet
    assert isinstance(sheet, Sheet)
    traits = Character.class_traits()
    for f in sheet.fields():
        assert f.name in traits, f.name
        assert f.label["en"] and f.label["ru"]
        if f.kind == "derived":
            assert traits[f.name].metadata.get("derived")
        if f.source:
            assert f.source in SYSTEM.data_tables()
        for sub in f.item_fields:
            assert sub.label["en"] and sub.label["ru"]
            if sub.source:
                assert sub.source in SYSTEM.data_tables()
    tree = [s for s in sheet.sections if s.id == "parameters"][0]
    assert len(tree.fields) == 21
    assert sum(1 for f in tree.fields if f.kind == "input") == 12
    resources = {f.name: f for f in sheet.fields() if f.kind == "resource"}
    assert resources["health"].max_trait == "health_max" and resources["luck"].min == 0
    assert sheet.field("agility").help["en"].startswith("Agility = (Fine Motor + Body Control) // 2")


def test_every_persisted_trait_on_the_sheet_or_internal():
    on_sheet = {f.name for f in SYSTEM.sheet.fields()}
    missing = set(Character.persisted_traits()) - on_sheet - {"overrides", "phase"}  # phase: the sheet header
    assert not missing, missing


def test_no_ipywidgets_import():
    for path in PKG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "ipywidgets" for n in names), path


def test_no_module_level_random_or_round():
    for path in PKG.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "random.randint(" not in text and "random.choice(" not in text, path
        assert " round(" not in text, path


def test_rules_defaults_documented():
    r = SYSTEM.rules
    for key, value in {
        "penalty_explosion": "die_ladder",
        "divider_on_fail": "zero",
        "crit_survival_is_death": True,
        "durability_needs_raw_gt_1": True,
        "defence_tracks_durability": True,
        "dual_wield_mode": "multiply",
        "leg_injury_speed": "once",
        "pcs_win_ties": True,
        "cover_bonus_scope": "physical_defences",
        "cost_0_to_1": 1,
        "below_zero": "clamp",
    }.items():
        assert r[key] == value
    assert SYSTEM.with_rules(costing="simplified").rules["costing"] == "simplified"
    assert SYSTEM.rules["costing"] == "recommended"


def test_every_gm_option_is_described_once_in_both_languages():
    from tabletop_systems.ret.options import DEFAULTS, DESCRIPTIONS

    assert dict(SYSTEM.default_rules) == DEFAULTS
    assert set(DESCRIPTIONS) == set(DEFAULTS)
    for name, text in DESCRIPTIONS.items():
        assert set(text) == {"en", "ru"} and all(text.values()), name
        assert text["en"] != text["ru"], name
    docs = (PKG.parents[1] / "docs" / "systems" / "ret.md").read_text(encoding="utf-8")
    for name in DEFAULTS:
        assert f"| `{name}` |" in docs, name
