"""Data tables (spec §8), the sheet layout (spec §10.1) and the package's shape."""

import pathlib
import re

import pytest

from tabletop_widgets.core import GameSystem, Sheet
from tabletop_widgets.core.sheet import FIELD_KINDS
from tabletop_systems.seasons import SYSTEM, Character, SeasonsSystem
from tabletop_systems.seasons.data import ATTRIBUTES, SKILLS

PACKAGE = pathlib.Path(__import__("tabletop_systems.seasons", fromlist=["x"]).__file__).parent
SEED = pathlib.Path("/work/shared/seeds/001_4de5ee06f0041d30.txt")


@pytest.mark.parametrize(
    "table,count",
    [
        ("archetypes", 63),
        ("goals", 45),
        ("advantages", 61),
        ("sizes", 19),
        ("improvised_weapons", 18),
        ("equipment", 19),
        ("checks", 80),
        ("conditions", 14),
        ("threats", 6),
        ("tiers", 4),
        ("attributes", 9),
        ("skills", 18),
        ("modifiers", 16),
    ],
)
def test_table_sizes(table, count):
    assert len(SYSTEM.data(table)) == count


def test_problems_are_63_from_the_book_plus_inexperienced():
    rows = SYSTEM.data("problems")
    assert len([r for r in rows if not r.get("extra")]) == 63
    assert rows[-1]["ru"] == "Неопытный" and rows[-1]["line"] == 186


@pytest.mark.parametrize(
    "table",
    [
        "archetypes",
        "goals",
        "problems",
        "advantages",
        "sizes",
        "improvised_weapons",
        "equipment",
        "checks",
        "conditions",
        "threats",
        "tiers",
        "attributes",
        "skills",
        "modifiers",
        "weapons",
        "armour",
        "difficulties",
    ],
)
def test_every_row_is_bilingual(table):
    rows = SYSTEM.data(table)
    for r in rows:
        assert r["en"].strip() and r["ru"].strip() and "\u00a0" not in r["ru"]
    ids = [r["id"] for r in rows if "id" in r]
    assert len(ids) == len(set(ids))


@pytest.mark.skipif(not SEED.exists(), reason="seed not available")
@pytest.mark.parametrize("table", ["archetypes", "goals", "problems", "advantages"])
def test_list_names_match_the_seed_lines(table):
    lines = SEED.read_text(encoding="utf-8").splitlines()
    for r in SYSTEM.data(table):
        if not r.get("extra"):
            # the book writes «е» for «ё»; the product writes «ё» throughout (Ребёнок)
            assert lines[r["line"] - 1].replace("\u00a0", " ").strip() == r["ru"].replace("ё", "е")


def test_list_ends():
    assert SYSTEM.data("archetypes")[0]["ru"] == "Мать" and SYSTEM.data("archetypes")[-1]["ru"] == "Рыцарь"
    assert SYSTEM.data("goals")[-1]["en"] == "Discover a cure for death"
    assert SYSTEM.data("advantages")[-1]["ru"] == "Сопротивление магии"


def test_structure_exceptions_are_exactly_the_two_printed_ones():
    odd = [r["en"] for r in SYSTEM.data("improvised_weapons") if r["structure"] != 2 * r["size"]]
    for r in SYSTEM.data("equipment"):
        if isinstance(r["size"], int) and isinstance(r["structure"], int) and r["structure"] != 2 * r["size"]:
            odd.append(r["en"])
    assert odd == ["Reinforced window", "Radio / mobile phone"]


def test_sizes_table():
    sizes = [r["size"] for r in SYSTEM.data("sizes")]
    assert sizes[:8] == [1, 2, 3, 4, 5, 6, 7, 8] and sizes[-1] == 100 and 9 not in sizes


def test_checks_catalogue_is_consistent():
    for r in SYSTEM.data("checks"):
        if "special" in r:
            continue
        assert r["attribute"] in ATTRIBUTES and r["skill"] in SKILLS
        assert r["duration"] in ("instant", "normal", "extended")
    rows = {r["id"]: r for r in SYSTEM.data("checks")}
    assert rows["sneak"]["opposition"] == "mental_defence" and rows["perform"]["opposition"] == "social_defence"
    assert rows["armed_attack"]["armour"] and rows["first_aid"]["opposition"] == "damage"
    assert rows["resist_mental_condition"]["attribute"] == "resolve"


def test_data_returns_copies_and_unknown_table_raises():
    rows = SYSTEM.data("archetypes")
    rows[0]["ru"] = "changed"
    assert SYSTEM.data("archetypes")[0]["ru"] == "Мать"
    with pytest.raises(KeyError):
        SYSTEM.data("dragons")
    assert {"archetypes", "goals", "problems", "advantages", "checks"} <= set(SYSTEM.data_tables())


# -- sheet ---------------------------------------------------------------------------------------
def test_sheet_fields_exist_and_are_well_typed():
    sheet = SYSTEM.sheet
    assert isinstance(sheet, Sheet)
    traits = Character.class_traits()
    derived = set(Character.derived_traits())
    names = [f.name for f in sheet.fields()]
    assert len(names) == len(set(names))
    for f in sheet.fields():
        assert f.name in traits, f.name
        assert f.kind in FIELD_KINDS and f.label["en"] and f.label["ru"]
        assert (f.kind == "derived") == (f.name in derived), f.name
        if f.source:
            assert f.source in SYSTEM.data_tables(), f.source
        if f.max_trait:
            assert f.max_trait in traits
        for item in f.item_fields:
            assert item.label["ru"] and item.kind in FIELD_KINDS


def test_sheet_covers_every_input_trait():
    on_sheet = {f.name for f in SYSTEM.sheet.fields()}
    persisted = set(Character.persisted_traits()) - {"phase"}  # the phase: the generic sheet's header
    assert persisted <= on_sheet
    assert set(ATTRIBUTES) | set(SKILLS) <= on_sheet
    for name in (
        "health_max",
        "initiative",
        "speed",
        "physical_defence",
        "social_defence",
        "mental_defence",
        "drama_start",
        "pain_active",
        "is_out",
    ):
        assert name in on_sheet


def test_sheet_sections():
    ids = [s.id for s in SYSTEM.sheet.sections]
    assert ids[:4] == ["header", "traits", "attributes", "skills"]
    attrs = next(s for s in SYSTEM.sheet.sections if s.id == "attributes")
    assert [f.name for f in attrs.fields] == list(ATTRIBUTES) and attrs.columns == 3
    assert SYSTEM.sheet.field("archetype").source == "archetypes"
    assert SYSTEM.sheet.field("damage").max_trait == "health_max"


# -- package -------------------------------------------------------------------------------------
def test_system_identity():
    assert isinstance(SYSTEM, GameSystem) and isinstance(SYSTEM, SeasonsSystem)
    assert SYSTEM.slug == "seasons" and SYSTEM.title == {"en": "Seasons", "ru": "Времена Года"}
    assert SYSTEM.Character is Character
    assert SYSTEM.with_rules(trait_cap=10).rules["trait_cap"] == 10 and SYSTEM.rules["trait_cap"] == 5


def test_no_ipywidgets_and_no_module_random():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "ipywidgets" not in text, path
        assert not re.search(r"random\.(randint|random|choice|shuffle)\(", text), path
        assert not re.search(r"\bround\(", text), path
