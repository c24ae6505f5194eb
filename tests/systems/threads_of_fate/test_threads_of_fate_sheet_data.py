"""Sheet layout (spec §10.1), data tables (§8), GM options (§10.4) and package hygiene."""

import ast
import pathlib

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, ThreadsOfFateSystem
from tabletop_systems.threads_of_fate.options import DEFAULTS as DEFAULT_RULES
from tabletop_widgets.core.system import GameSystem

PKG = pathlib.Path(__import__("tabletop_systems.threads_of_fate", fromlist=["x"]).__file__).parent


def test_system_identity():
    assert isinstance(SYSTEM, GameSystem) and SYSTEM.slug == "threads_of_fate"
    assert SYSTEM.title["ru"] == "Нити судьбы. Постапокалипсис" and SYSTEM.Character is Character
    assert isinstance(SYSTEM.with_rules(nat1_auto_fail=True), ThreadsOfFateSystem)
    with pytest.raises(ValueError):
        SYSTEM.with_rules(no_such_rule=1)


def test_sheet_covers_every_persisted_and_derived_trait():
    names = {f.name for f in SYSTEM.sheet.fields()}
    missing = set(Character.persisted_traits()) - names - {"phase"}  # the phase: the generic sheet's header
    assert not missing
    derived_missing = set(Character.derived_traits()) - names - {"attribute_codes"}
    assert not derived_missing
    for f in SYSTEM.sheet.fields():
        assert f.label["en"] and f.label["ru"]
        if f.kind == "derived" and not f.extra.get("persisted"):
            assert f.name in Character.derived_traits()
        if f.extra.get("persisted"):  # saved state shown read-only (the treatment in progress)
            assert f.name in Character.persisted_traits()
        if f.kind == "resource":
            assert f.max_trait or f.max is not None


def test_sheet_marks_gm_entered_values():
    gm = {f.name for f in SYSTEM.sheet.fields() if f.gm_entered}
    assert {"size_hp_mult", "size_sbp", "dangerous_wound_threshold", "armour_bonus", "gm_missing", "wealth"} <= gm


def test_sheet_sources_are_data_tables():
    tables = set(SYSTEM.data_tables())
    for f in SYSTEM.sheet.fields():
        if f.source:
            assert f.source in tables


@pytest.mark.parametrize("name", SYSTEM.data_tables())
def test_data_tables_have_en_and_ru(name):
    rows = SYSTEM.data(name)
    assert rows
    for r in rows:
        assert r["en"] and r["ru"]


def test_table_contents():
    assert len(SYSTEM.data("skills")) == 18
    assert sum(1 for s in SYSTEM.data("skills") if s["kind"] == "basic") == 8
    moves = SYSTEM.data("moves")
    assert len(moves) == 14 and [m["cost_min"] for m in moves[:6]] == [1, 1, 1, 1, 2, 4]
    assert len(SYSTEM.data("swt_troubles")) == 10 and len(SYSTEM.data("caprices")) == 5
    assert len(SYSTEM.data("trouble_bands")) == 16 and len(SYSTEM.data("attributes")) == 4
    assert all(r["placeholder"] for r in SYSTEM.data("difficulty_ladder"))
    custom = SYSTEM.with_rules(difficulty_ladder=[{"dc": 12, "en": "Tricky", "ru": "Хитро"}])
    assert custom.data("difficulty_ladder")[0]["dc"] == 12
    with pytest.raises(KeyError):
        SYSTEM.data("weapons")


def test_every_rule_option_has_a_default():
    assert set(SYSTEM.default_rules) == set(DEFAULT_RULES)
    for name in (
        "char_points",
        "nat20_auto_success",
        "nat1_auto_fail",
        "adv_order",
        "static_includes_mod",
        "static_flat_5",
        "contest_keep_sbp",
        "refresh_mode",
        "xp_threads_mode",
        "thread_overflow",
        "trouble_allow_adv",
        "catastrophe_controllable",
        "min_success_damage",
        "initiative_mode",
        "robot_dur_base",
        "robot_factor_clamp",
        "veteran_trouble_margin",
        "static_zero_xp_hindrance",
        "expert_static_adv",
        "dex_cap_scope",
    ):
        assert name in SYSTEM.default_rules


def test_no_ipywidgets_import():
    for path in PKG.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "ipywidgets" for a in node.names), path
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "ipywidgets", path


def test_no_module_level_random_or_round():
    for path in PKG.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "random.randint(" not in text and "random.choice(" not in text, path
        assert " round(" not in text, path
