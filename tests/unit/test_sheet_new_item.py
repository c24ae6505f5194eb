"""A new list item as the sheet's New form starts it (``core.sheet.new_item``): the item fields'
declared ``default`` first, else each kind's blank; a default that is not one of its choices is a
sheet problem when the system registers."""

from __future__ import annotations

from tabletop_widgets.core import T
from tabletop_widgets.core.sheet import Field, Section, Sheet, blank_value, new_item, sheet_problems
from tabletop_widgets.core.sheet_helpers import choice, entries, flag, number, text

ROW = entries(
    "things",
    T("Things", "Вещи"),
    text("name", T("Name", "Название")),
    number("level", T("Level", "Уровень"), 1, 7, default=3),
    number("count", T("Count", "Количество"), 0, 9),
    number("rank", T("Rank", "Ранг"), 2, 9),
    choice("kind", T("Kind", "Вид"), (("a", T("A", "А")), ("b", T("B", "Б"))), default="b"),
    choice("other", T("Other", "Другое"), (("x", T("X", "Х")),)),
    flag("worn", T("Worn", "Надета")),
)


def test_declared_defaults_come_first_then_each_kinds_blank():
    assert new_item(ROW) == {"name": "", "level": 3, "count": 0, "rank": 2, "kind": "b", "other": "x", "worn": False}
    assert blank_value(Field("tags", T("Tags", "Метки"), "choice", multiple=True)) == []


class _Model:
    @classmethod
    def class_traits(cls):
        return {"things": object()}


class _System:
    slug = "probe"
    Character = _Model
    sheet = Sheet(
        (
            Section(
                "s",
                T("S", "С"),
                (
                    entries(
                        "things",
                        T("Things", "Вещи"),
                        choice("kind", T("Kind", "Вид"), (("a", T("A", "А")),), default="z"),
                    ),
                ),
            ),
        )
    )

    def data_tables(self):
        return []


def test_a_default_outside_the_choices_is_a_sheet_problem():
    problems = sheet_problems(_System())
    assert any("default='z' is not one of its choices" in p for p in problems)
