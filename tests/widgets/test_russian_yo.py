"""«ё» used consistently (#22): within a system's Russian strings (code and data) a word is
written with «ё» everywhere or nowhere (no «Ребенок» beside «ребёнок», «Обреченность» beside
«Лёгкий» is fine only if each word keeps one spelling)."""

from __future__ import annotations

import re

import pytest

from tabletop_widgets import available_systems

from test_glossary import system_ru_strings

#: Different words that differ only by «ё»: «все» (all) and «всё» (everything).
TWO_WORDS = {"всё", "её"}


def mixed_yo(texts) -> list[str]:
    words: dict[str, str] = {}
    for where, text in texts:
        for word in re.findall(r"[А-Яа-яЁё]{2,}", text):
            words.setdefault(word.lower(), where)
    return [
        f"«{w}» ({words[w]}) and «{w.replace('ё', 'е')}» ({words[w.replace('ё', 'е')]})"
        for w in sorted(words)
        if "ё" in w and w not in TWO_WORDS and w.replace("ё", "е") in words
    ]


@pytest.mark.parametrize("slug", available_systems())
def test_a_word_keeps_one_spelling_with_yo(slug):
    found = mixed_yo(system_ru_strings(slug))
    assert not found, "\n".join(found)


def test_the_check_finds_mixed_spellings():
    assert mixed_yo([("a", "Ребенок"), ("b", "ребёнок")]) == ["«ребёнок» (b) and «ребенок» (a)"]
    assert mixed_yo([("a", "всё и все")]) == []
