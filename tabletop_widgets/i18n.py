"""Bilingual text: every user-facing string exists in English and Russian.

The bottom layer: imports nothing of the project, so `dice` and `core` both use it
(`tabletop_widgets.core.i18n` re-exports it for the layers above).
"""

from __future__ import annotations

from typing import Mapping, Union

LOCALES = ("en", "ru")
DEFAULT_LOCALE = "en"

#: A piece of user-facing text: ``{"en": "...", "ru": "..."}``.
Text = Mapping[str, str]
TextLike = Union[str, Mapping[str, str]]


def check_locale(locale: str) -> str:
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}: expected one of {', '.join(LOCALES)}")
    return locale


def tr(text: TextLike | None, locale: str = DEFAULT_LOCALE) -> str:
    """The ``locale`` variant of ``text`` (English when that variant is missing)."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return text.get(locale) or text.get(DEFAULT_LOCALE) or next(iter(text.values()), "")


def T(en: str, ru: str) -> dict[str, str]:
    """Build a bilingual text."""
    return {"en": en, "ru": ru}


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    """Russian plural form for ``n``: 1 успех, 2 успеха, 5 успехов, 11 успехов, 21 успех."""
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def plural_en(n: int, one: str, many: str) -> str:
    return one if abs(int(n)) == 1 else many


#: Count nouns used across the project: key -> (en one, en many, ru one, ru few, ru many).
NOUNS: dict[str, tuple[str, str, str, str, str]] = {
    "success": ("success", "successes", "успех", "успеха", "успехов"),
    "failure": ("failure", "failures", "провал", "провала", "провалов"),
    "die": ("die", "dice", "кубик", "кубика", "кубиков"),
    "point": ("point", "points", "очко", "очка", "очков"),
    "round": ("round", "rounds", "раунд", "раунда", "раундов"),
    "turn": ("turn", "turns", "ход", "хода", "ходов"),
    "roll": ("roll", "rolls", "бросок", "броска", "бросков"),
    "explosion": ("explosion", "explosions", "взрыв", "взрыва", "взрывов"),
    "reroll": ("reroll", "rerolls", "переброс", "переброса", "перебросов"),
}


def count(n: int, noun: str, locale: str = DEFAULT_LOCALE) -> str:
    """``count(2, "success", "ru") == "2 успеха"``; nouns come from :data:`NOUNS`."""
    en1, enn, ru1, ru2, ru5 = NOUNS[noun]
    word = plural_ru(n, ru1, ru2, ru5) if locale == "ru" else plural_en(n, en1, enn)
    return f"{n} {word}"
