"""Russian wording helpers: a number with its noun, and lists the way Russian writes them.

Every number a Russian template puts before a noun goes through :func:`ru_n` (the form depends
on the number: 1 Нить, 2 Нити, 5 Нитей, 21 Нить); the case is the caller's: after «не больше»,
«из», «до» a noun is in the genitive (``ru_n(n, "Нити", "Нитей", "Нитей")``: 1 Нити, 2 Нитей).
A test scans the Russian templates for a ``{number} noun`` that skipped it.

Player-chosen names are never declined: templates put a name where its nominative reads right
(«Аня — выбывает из боя», «Нити: Аня»), never «у Ани», «раньше Веры».
"""

from __future__ import annotations

from typing import Iterable

from .i18n import plural_ru


def ru_n(n: int, one: str, few: str, many: str) -> str:
    """``ru_n(2, "Нить", "Нити", "Нитей") == "2 Нити"``."""
    return f"{n} {plural_ru(n, one, few, many)}"


def en_n(n: int, one: str, many: str) -> str:
    """``en_n(2, "Thread", "Threads") == "2 Threads"``."""
    return f"{n} {one if abs(int(n)) == 1 else many}"


def counted(n: int, en: tuple[str, str], ru: tuple[str, str, str]) -> dict[str, str]:
    """Both languages of a counted noun: ``counted(2, ("Thread", "Threads"), ("Нить", "Нити", "Нитей"))``."""
    return {"en": en_n(n, *en), "ru": ru_n(n, *ru)}


def join_ru(items: Iterable[str], last: str = "и") -> str:
    """«Бег, Спорт и Плавание»: commas, and no comma before the last «и» / «или»."""
    items = [str(x) for x in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def join_en(items: Iterable[str], last: str = "and") -> str:
    items = [str(x) for x in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


__all__ = ["counted", "en_n", "join_en", "join_ru", "ru_n"]
