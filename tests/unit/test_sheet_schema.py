"""The typed sheet schema (issue 15): the hints the generic sheet reads are typed fields of
``Field``/``Section``, a section's buttons are ``SheetAction``s, and every system's sheet is
checked when the system registers (a missing trait, data table or method fails by name)."""

from __future__ import annotations

import pytest
import traitlets

from tabletop_widgets import get_system
from tabletop_widgets.core import (
    CharacterModel,
    Field,
    GameSystem,
    RuleError,
    Section,
    Sheet,
    SheetAction,
    SheetError,
    T,
    register_system,
)
from tabletop_widgets.core.sheet import sheet_problems
from helpers import registered


class Hero(CharacterModel):
    SYSTEM = "schema_probe"
    name = traitlets.Unicode("").tag(persist=True)
    brave = traitlets.Bool(False).tag(persist=True)
    grit = traitlets.Int(1).tag(persist=True)
    quirks = traitlets.List(traitlets.Unicode()).tag(persist=True)
    quirk = traitlets.Unicode("").tag(persist=True)
    gear = traitlets.List(traitlets.Dict()).tag(persist=True)


def probe(*sections: Section, tables=("gear",)):
    class Probe(GameSystem):
        slug = "schema_probe"
        title = T("Probe", "Проба")
        Character = Hero
        sheet = Sheet(sections)

        def data_tables(self):
            return list(tables)

        def data(self, table):
            return [{"id": "rope", "en": "Rope", "ru": "Верёвка"}]

        def rest(self, character):
            character.grit = 1

    return Probe()


GOOD = Section(
    "main",
    T("Main", "Главное"),
    (
        Field("name", T("Name", "Имя"), "text", max_length=40),
        Field("brave", T("Brave", "Смелый"), "flag"),
        Field("grit", T("Grit", "Стойкость"), "input", min=0, max=5, visible_if="brave", dots=True),
        Field("quirk", T("Quirk", "Причуда"), "choice", choices_from="quirks", allow_empty=True),
        Field(
            "gear",
            T("Gear", "Вещи"),
            "list",
            source="gear",
            item_fields=(Field("kind", T("Kind", "Вид"), "choice", source="gear"),),
        ),
    ),
    visible_if="brave",
    actions=(
        SheetAction(T("Rest", "Отдых"), "rest"),
        SheetAction(T("Pick", "Выбрать"), "rest", source="gear", who="gm"),
    ),
)


def test_a_good_sheet_has_no_problems_and_registers():
    system = probe(GOOD)
    assert sheet_problems(system) == []
    with registered(system):
        assert get_system("schema_probe") is system


@pytest.mark.parametrize(
    ("field", "needle"),
    [
        (Field("nerve", T("Nerve", "Нервы")), "field 'nerve': 'nerve' is not a trait of its Character"),
        (
            Field("gear", T("Gear", "Вещи"), "list", source="weapons"),
            "field 'gear': no data table 'weapons' (known: ['gear'])",
        ),
        (
            Field(
                "gear", T("Gear", "Вещи"), "list", item_fields=(Field("kind", T("K", "В"), "choice", source="armour"),)
            ),
            "field 'gear', item 'kind': no data table 'armour'",
        ),
        (
            Field("grit", T("Grit", "Стойкость"), visible_if="bravery"),
            "visible_if='bravery' is not a trait of its Character",
        ),
        (
            Field("grit", T("Grit", "Стойкость"), visible_if="name"),
            "visible_if='name' must name a bool trait, not Unicode",
        ),
        (Field("quirk", T("Q", "П"), "choice", choices_from="name"), "choices_from='name' must name a list trait"),
        (Field("quirk", T("Q", "П"), "choice", allow_empty=True), "allow_empty needs choices_from"),
        (Field("grit", T("Grit", "Стойкость"), parent="body"), "parent='body' is not a field of the sheet"),
        (
            Field("grit", T("Grit", "Стойкость"), "resource", max_trait="grit_max"),
            "max_trait='grit_max' is not a trait",
        ),
        (Field("grit", T("Grit", "Стойкость"), budget="points"), "budget='points' is not a trait"),
    ],
)
def test_a_bad_field_is_refused_naming_the_system_and_the_field(field, needle):
    system = probe(Section("main", T("Main", "Главное"), (field,)))
    problems = sheet_problems(system)
    assert len(problems) == 1 and problems[0].startswith("system 'schema_probe', section 'main', field")
    assert needle in problems[0]
    with pytest.raises(SheetError, match="schema_probe") as e:
        register_system(system)
    assert needle in str(e.value)
    with pytest.raises(KeyError):
        get_system("schema_probe")  # nothing half-registered


def test_bad_sections_and_actions_are_refused():
    section = Section(
        "pool",
        T("Pool", "Запас"),
        (),
        visible_if="quirks",
        actions=(SheetAction(T("Sleep", "Сон"), "sleep"), SheetAction(T("Buy", "Купить"), "rest", source="shop")),
    )
    problems = sheet_problems(probe(section))
    assert problems == [
        "system 'schema_probe', section 'pool': visible_if='quirks' must name a bool trait, not List",
        "system 'schema_probe', section 'pool', action 'sleep': not a method of the system",
        "system 'schema_probe', section 'pool', action 'rest': no data table 'shop' (known: ['gear'])",
    ]


def test_string_keys_in_extra_are_refused_with_the_typed_name():
    with pytest.raises(
        ValueError, match=r"field 'grit': \['tier'\] are typed fields of Field now: write Field\(\.\.\., tier=\.\.\.\)"
    ):
        Field("grit", T("Grit", "Стойкость"), extra={"tier": 2, "note": "kept"})
    assert Field("grit", T("Grit", "Стойкость"), extra={"note": "kept"}).extra == {"note": "kept"}
    with pytest.raises(ValueError, match=r"section 'main': \['visible_if'\] are typed"):
        Section("main", T("Main", "Главное"), (), extra={"visible_if": "brave"})
    with pytest.raises(TypeError, match="SheetAction"):
        Section("main", T("Main", "Главное"), (), actions=({"method": "rest", "label": T("Rest", "Отдых")},))


def test_sheet_action_binds_a_name_or_a_callable_and_checks_who():
    system = probe(GOOD)
    hero = Hero(grit=4)
    SheetAction(T("Rest", "Отдых"), "rest").bound(system)(hero)
    assert hero.grit == 1

    def shout(character):
        raise RuleError("loud", T("too loud", "слишком громко"))

    action = SheetAction(T("Shout", "Крик"), shout)
    assert action.bound(system) is shout and action.method_name == "shout"
    with pytest.raises(SheetError, match="'nap' is not a method"):
        SheetAction(T("Nap", "Дрёма"), "nap").bound(system)
    with pytest.raises(ValueError, match="who must be one of"):
        SheetAction(T("Nap", "Дрёма"), "rest", who="everyone")


def test_for_gm_reads_both_marks():
    assert Field("a", T("A", "А"), gm_only=True).for_gm and Field("a", T("A", "А"), gm_entered=True).for_gm
    assert not Field("a", T("A", "А")).for_gm


@pytest.mark.parametrize("slug", ["ret", "seasons", "life_and_death", "threads_of_fate"])
def test_every_built_in_sheet_is_valid(slug):
    assert sheet_problems(get_system(slug)) == []
