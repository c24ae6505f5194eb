"""Validation problems and the one error that carries them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .i18n import DEFAULT_LOCALE, tr


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a character (or with input meant for one).

    ``code`` is stable (tests and the UI key on it), ``field`` names the trait or data key at
    fault (``None`` for whole-character problems), ``message`` is bilingual, ``severity`` is
    ``"error"`` (illegal) or ``"warning"`` (legal but worth a look).
    """

    code: str
    message: Mapping[str, str]
    field: str | None = None
    severity: str = "error"
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: the field's name as a player reads it (``{"en", "ru"}``), when known; ``field`` is an id
    label: Mapping[str, str] | None = None

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        return tr(self.message, locale)

    def where(self, locale: str = DEFAULT_LOCALE) -> str:
        """``"Label: "`` for a problem with a known label, else ``""`` (never the field's id)."""
        return f"{tr(self.label, locale)}: " if self.label else ""

    def full_text(self, locale: str = DEFAULT_LOCALE) -> str:
        """The message as a player reads it away from its field: with the field's label."""
        return f"{self.where(locale)}{self.text(locale)}"

    def __str__(self) -> str:
        return self.full_text()


class ValidationError(ValueError):
    """Bad character data. Lists every problem found; the target was left unchanged."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: list[Problem] = list(problems)
        super().__init__(self.messages("en"))

    def messages(self, locale: str = DEFAULT_LOCALE) -> str:
        """Every problem on its own line, each with its field's label (never its id)."""
        lines = [f"- {p.full_text(locale)}" for p in self.problems]
        head = "Персонаж не изменён" if locale == "ru" else "The character was not changed"
        return head + ":\n" + "\n".join(lines)

    def __str__(self) -> str:
        return self.messages("en")


class BilingualError(Exception):
    """An error a player reads: a ``code``, a ``message`` ``{"en", "ru"}`` (``str()`` is the
    English text, ``text(locale)`` either) and ``data`` about what was refused. The base of
    :class:`RuleError` and of the table's refusals."""

    def __init__(self, code: str, message: Mapping[str, str], **data: Any):
        self.code = code
        self.message = dict(message)
        self.data = data
        super().__init__(tr(self.message, "en"))

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        return tr(self.message, locale)


class RuleError(BilingualError, ValueError):
    """An illegal move by the rules (spending points you do not have, raising past a cap...)."""


# --------------------------------------------------------------------------------------------
# Player words for the problems every model has (a value of the wrong kind, a number out of its
# range): what the player typed and what the field takes, never the trait's id or a repr.
# --------------------------------------------------------------------------------------------
#: What a value of each kind is, as the player is asked for it.
KIND_WORDS: dict[str, dict[str, str]] = {
    "int": {"en": "Enter a whole number.", "ru": "Введите целое число."},
    "float": {"en": "Enter a number.", "ru": "Введите число."},
    "text": {"en": "Enter text.", "ru": "Введите текст."},
    "flag": {"en": "Tick the box or leave it empty.", "ru": "Поставьте или снимите отметку."},
    "list": {"en": "Enter a list of entries.", "ru": "Нужен список записей."},
    "mapping": {"en": "Enter names and values.", "ru": "Нужны названия и значения."},
    "choice": {"en": "Choose one of the listed values.", "ru": "Выберите значение из списка."},
    "name": {"en": "Enter a name.", "ru": "Введите название."},
    "value": {"en": "This value is not accepted here.", "ru": "Это значение здесь не принимается."},
}


def shown_value(value: Any) -> str:
    """A value as a message may quote it: short numbers and texts as they are, long ones cut."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= 12 else f"{text[:6]}…"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        text = " ".join(value.split())
        return text if len(text) <= 24 else f"{text[:20]}…"
    return ""


def range_words(lo: int | None, hi: int | None) -> dict[str, str]:
    """``from 0 to 8`` / ``at least 1`` / ``at most 0`` in both languages (empty: unbounded)."""
    if lo is not None and hi is not None:
        return {"en": f"from {lo} to {hi}", "ru": f"от {lo} до {hi}"}
    if lo is not None:
        return {"en": f"of at least {lo}", "ru": f"не меньше {lo}"}
    if hi is not None:
        return {"en": f"of at most {hi}", "ru": f"не больше {hi}"}
    return {"en": "", "ru": ""}


def out_of_range(
    field: str | None,
    value: Any,
    lo: int | None,
    hi: int | None,
    *,
    label: Mapping[str, str] | None = None,
    code: str = "out_of_range",
    why: Mapping[str, str] | None = None,
) -> Problem:
    """``value`` is not a whole number in ``lo..hi``: ask for one, quoting what was entered."""
    rng = range_words(lo, hi)
    shown = shown_value(value)
    not_en = f" (not {shown})" if shown else ""
    not_ru = f" (а не {shown})" if shown else ""
    en = f"enter a whole number {rng['en']}{not_en}".replace("  ", " ")
    ru = f"введите целое число {rng['ru']}{not_ru}".replace("  ", " ")
    if why:
        en, ru = f"{en}: {tr(why, 'en')}", f"{ru}: {tr(why, 'ru')}"
    return Problem(
        code,
        {"en": en[0].upper() + en[1:] + ".", "ru": ru[0].upper() + ru[1:] + "."},
        field=field,
        label=label,
        data={"min": lo, "max": hi},
    )


def wrong_kind(field: str | None, kind: str, *, label: Mapping[str, str] | None = None) -> Problem:
    """A value of the wrong kind: say what the field takes (``kind`` is a :data:`KIND_WORDS` key)."""
    return Problem(
        "bad_type",
        dict(KIND_WORDS.get(kind, KIND_WORDS["value"])),
        field=field,
        label=label,
        data={"kind": kind},
    )


def entry_label(
    list_label: Mapping[str, str] | None, item: Any, n: int, what: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Where in a list a problem is, for a player: ``Weapons, "Sword": Damage`` (or ``Weapons,
    entry 2`` for an entry without a name), in both languages. ``n`` counts from 1."""
    name = ""
    if isinstance(item, Mapping):
        name = next(
            (item[k] for k in ("name", "title", "label") if isinstance(item.get(k), str) and item[k].strip()), ""
        )
    elif isinstance(item, str):
        name = item
    name = shown_value(name)
    out = {}
    for loc in ("en", "ru"):
        entry = (
            (f"«{name}»" if loc == "ru" else f'"{name}"') if name else (f"запись {n}" if loc == "ru" else f"entry {n}")
        )
        parts = [tr(list_label, loc)] if list_label else []
        head = ", ".join(parts + [entry])
        out[loc] = f"{head}: {tr(what, loc)}" if what else head
    return out
