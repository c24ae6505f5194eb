"""The books' own words where a Russian player meets them (#22, a last read): every term the
issue names is the one the sheet, the tray or the tracker declares, in the system it belongs to."""

from __future__ import annotations

import dataclasses

import pytest

from tabletop_widgets import get_system


def russian_labels(obj, out=None, seen=None) -> set[str]:
    """Every Russian label a system's sheet declares, list items' fields included."""
    out = set() if out is None else out
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return out
    seen.add(id(obj))
    if isinstance(obj, dict):
        if isinstance(obj.get("ru"), str):
            out.add(obj["ru"])
        for v in obj.values():
            russian_labels(v, out, seen)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            russian_labels(v, out, seen)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            russian_labels(getattr(obj, f.name), out, seen)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        for v in vars(obj).values():
            russian_labels(v, out, seen)
    return out


@pytest.mark.parametrize(
    "slug,words",
    [
        # L1667 (a flaw's «Сложность» and «Сила»), L1424-1427, L49, L525
        ("ret", ["Сложность недостатка", "Сила недостатка", "Величина", "Усиление кожи", "Энергетический щит"]),
        ("seasons", ["Рассказчик"]),
        ("life_and_death", ["Удача"]),
    ],
)
def test_the_sheet_says_the_books_words(slug, words):
    system = get_system(slug)
    labels = russian_labels(system.sheet)
    labels |= {system.term(k, "ru") for k in ("gm_title", "dice", "turn")}
    missing = [w for w in words if not any(w in label for label in labels)]
    assert not missing, missing


def test_ret_tree_tiers_and_fail_die():
    from tabletop_widgets.widgets import CharacterSheet
    from russian_screens import widget_texts

    texts = "\n".join(widget_texts(CharacterSheet(get_system("ret").Character(name="Аня"), locale="ru")))
    assert "I уровень вложенности" in texts  # L49
    assert get_system("ret").term("dice", "ru") == "Кубы"  # «куб», L486


def test_threads_turn_and_twenty_on_the_die():
    from tabletop_widgets.dice import roll

    system = get_system("threads_of_fate")
    assert system.term("turn", "ru") == "Очередь"  # L441: «Ход» is a Move of Fate
    twenty = next(r for r in (roll("t20 vs 10", seed=s) for s in range(400)) if r.dice[0].value == 20)
    assert "20 на кубике" in twenty.text("ru") and "натуральн" not in twenty.text("ru")  # L114
