"""A fifth, homebrew system registered at run time renders and edits without touching widgets/:
every field kind, a tree, a matrix, groups and a section action, from what the system declares."""

from __future__ import annotations

import pytest
from traitlets import Bool, Dict, Int, List, Unicode

from tabletop_widgets.core import (
    CharacterModel,
    Field,
    GameSystem,
    Problem,
    RuleError,
    Section,
    Sheet,
    SheetAction,
    T,
    register_system,
    unregister_system,
)
from tabletop_widgets.widgets.sheet import CharacterSheet
from helpers import frontend_click as click, frontend_update as update


class Hero(CharacterModel):
    SYSTEM = "homebrew"
    name = Unicode("").tag(persist=True)
    bio = Unicode("").tag(persist=True)
    clan = Unicode("fox").tag(persist=True)
    brave = Bool(False).tag(persist=True)
    grit = Int(2, min=0, max=6).tag(persist=True)
    wit = Int(2, min=0, max=6).tag(persist=True)
    total = Int(0).tag(derived=True)
    stamina = Int(4).tag(persist=True)
    stamina_max = Int(4).tag(derived=True)
    gear = List(Dict()).tag(persist=True)
    tags = List(Unicode()).tag(persist=True)
    coins = Dict().tag(persist=True)
    tokens = Int(1).tag(persist=True)

    def _derive(self):
        self.total = (self.grit + self.wit) // 2
        self.stamina_max = 2 + self.grit
        if self.stamina > self.stamina_max:
            self.stamina = self.stamina_max

    @classmethod
    def check_values(cls, values):
        return [
            Problem("no_name", T("gear needs a name", "у снаряжения нет названия"), field="gear")
            for item in values.get("gear") or []
            if not str(item.get("name", "")).strip()
        ]


class Homebrew(GameSystem):
    slug = "homebrew"
    title = T("Homebrew", "Самоделка")
    Character = Hero
    sheet = Sheet(
        (
            Section(
                "who",
                T("Who", "Кто"),
                (
                    Field("name", T("Name", "Имя"), "text"),
                    Field(
                        "clan",
                        T("Clan", "Клан"),
                        "choice",
                        choices=(("fox", T("Fox", "Лиса")), ("owl", T("Owl", "Сова"))),
                    ),
                    Field("brave", T("Brave", "Смелый"), "flag"),
                    Field("bio", T("Bio", "О себе"), "longtext"),
                ),
            ),
            Section(
                "stats",
                T("Stats", "Показатели"),
                (
                    Field("total", T("Total", "Итог"), "derived", tier=1, parent=None),
                    Field("grit", T("Grit", "Стойкость"), "input", min=0, max=6, tier=2, parent="total"),
                    Field("wit", T("Wit", "Ум"), "input", min=0, max=6, tier=2, parent="total"),
                ),
                layout="tree",
            ),
            Section(
                "pool",
                T("Pool", "Запас"),
                (
                    Field("stamina", T("Stamina", "Выносливость"), "resource", min=0, max_trait="stamina_max"),
                    Field("tokens", T("Tokens", "Жетоны"), "resource", min=0, max=3, pips=True),
                ),
                layout="resources",
                actions=(SheetAction(T("Rest", "Отдых"), "rest"),),
            ),
            Section(
                "stuff",
                T("Stuff", "Вещи"),
                (
                    Field(
                        "gear",
                        T("Gear", "Снаряжение"),
                        "list",
                        source="gear",
                        item_fields=(
                            Field("name", T("Name", "Название"), "text"),
                            Field("kind", T("Kind", "Вид"), "choice", source="gear"),
                            Field("weight", T("Weight", "Вес"), "input", min=0),
                        ),
                    ),
                    Field("tags", T("Tags", "Метки"), "tags", choice_values=["lucky", "cursed"]),
                    Field("coins", T("Coins", "Монеты"), "mapping", keys=("gold", "silver")),
                ),
                layout="table",
            ),
        )
    )

    def data(self, table):
        if table == "gear":
            return [
                {"id": "rope", "en": "Rope", "ru": "Верёвка", "weight": 2},
                {"id": "lamp", "en": "Lamp", "ru": "Лампа", "weight": 1},
            ]
        raise KeyError(table)

    def data_tables(self):
        return ["gear"]

    def validate(self, character):
        return (
            []
            if character.name
            else [Problem("no_name", T("Name your hero", "Назовите героя"), field="name", severity="warning")]
        )

    def rest(self, character):
        if character.stamina == character.stamina_max:
            raise RuleError("rested", T("already rested", "уже отдохнул"))
        character.stamina = character.stamina_max


@pytest.fixture
def homebrew():
    system = Homebrew()
    register_system(system)
    yield system
    unregister_system("homebrew")


def test_a_fifth_system_renders_and_edits(homebrew):
    hero = Hero()
    sheet = CharacterSheet(hero)  # the system is found through the registry
    assert sheet.system is homebrew
    assert set(sheet.views) == {f.name for f in homebrew.sheet.fields()}
    assert "Name your hero" in sheet.views["name"].problem.value
    update(sheet.views["name"].control, value="Ash")
    assert hero.name == "Ash" and sheet.views["name"].problem.layout.display == "none"
    update(sheet.views["grit"].control, value=6)  # the tree root follows
    assert ">4</span>" in sheet.views["total"].value.value
    assert hero.stamina_max == 8
    update(sheet.views["grit"].control, value=9)  # above the trait's max: refused
    assert hero.grit == 6 and sheet.views["grit"].control.value == 6
    update(sheet.views["clan"].control, index=1)
    assert hero.clan == "owl"
    click(sheet.views["tokens"].plus)
    assert hero.tokens == 2 and "●●○" in sheet.views["tokens"].bar.value
    rest = sheet.actions["pool"][0]
    click(rest.button)
    assert hero.stamina == 8
    click(rest.button)
    assert "already rested" in rest.message.value
    gear = sheet.views["gear"]
    update(gear.picker, index=1)
    click(gear.add_button)
    assert hero.gear == [{"name": "Lamp", "kind": "lamp", "weight": 1}]
    click(gear.new_button)  # a blank entry without a name: refused
    click(gear.form.save)
    assert len(hero.gear) == 1 and "gear needs a name" in gear.form.error.value
    update(sheet.views["tags"].picker, value="lucky")
    click(sheet.views["tags"].add_button)
    assert hero.tags == ["lucky"]
    update(sheet.views["coins"].entries.children[1].children[1], value="5")
    assert hero.coins == {"silver": 5}
    sheet.locale = "ru"
    assert "Лампа" in gear.rows_box.children[1].children[0].value  # the kind, from the table
    assert "Показатели" in sheet.section_titles["stats"][0].value


def test_visible_if_and_choices_from_hints():
    """A section shown only while a boolean trait is true, and a choice picked from one of the
    character's own lists, both following changes live (generic hints any system may use)."""
    import traitlets
    from tabletop_widgets.core import CharacterModel, Field, GameSystem, Section, Sheet, T
    from tabletop_widgets.core.registry import register_system, unregister_system
    from tabletop_widgets.widgets import CharacterSheet

    class Hero(CharacterModel):
        SYSTEM = "hinted"
        shifter = traitlets.Bool(False).tag(persist=True)
        form = traitlets.Unicode("").tag(persist=True)
        quirks = traitlets.List(traitlets.Unicode()).tag(persist=True)
        active_quirk = traitlets.Unicode("").tag(persist=True)

    class Hinted(GameSystem):
        slug = "hinted"
        title = T("Hinted", "С подсказками")
        Character = Hero
        sheet = Sheet(
            (
                Section(
                    "main",
                    T("Main", "Главное"),
                    (
                        Field("shifter", T("Shapeshifter", "Оборотень"), "flag"),
                        Field("quirks", T("Quirks", "Причуды"), "tags"),
                        Field(
                            "active_quirk",
                            T("Active quirk", "Активная причуда"),
                            "choice",
                            choices_from="quirks",
                            allow_empty=True,
                        ),
                    ),
                ),
                Section(
                    "forms",
                    T("Forms", "Облики"),
                    (Field("form", T("Form", "Облик"), "text"),),
                    visible_if="shifter",
                ),
            )
        )

        def validate(self, character):
            return []

    register_system(Hinted())
    try:
        hero = Hero(quirks=["Greedy"])
        sheet = CharacterSheet(hero)
        forms = sheet.sections["forms"]
        assert forms.layout.display == "none"
        hero.shifter = True
        assert forms.layout.display is None
        hero.shifter = False
        assert forms.layout.display == "none"
        control = sheet.views["active_quirk"].control
        values = lambda: (  # noqa: E731
            [v for _, v in control.options]
            if control.options and isinstance(control.options[0], tuple)
            else list(control.options)
        )  # noqa: E731
        assert "Greedy" in values() and "Brave" not in values()
        hero.quirks = ["Greedy", "Brave"]
        assert "Brave" in values()
    finally:
        unregister_system("hinted")
