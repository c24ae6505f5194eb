"""Short forms for the sheet declarations of ``systems/*/sheet.py``.

Each helper builds an ordinary :class:`~tabletop_widgets.core.sheet.Field` or
:class:`~tabletop_widgets.core.sheet.Section` (they add nothing the generic sheet would have to
know), so a sheet reads as a table of its fields: one line a field where the field is plain. Every
helper passes extra keywords on to ``Field`` (``help=``, ``creation_only=``, ``gm_only=`` ...).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .i18n import T
from .sheet import Field, Section

Label = Mapping[str, str]


def labelled(*rows: tuple[Any, str, str]) -> tuple[tuple[Any, Label], ...]:
    """``choices`` from ``(value, en, ru)`` rows: ``((value, {"en": en, "ru": ru}), ...)``."""
    return tuple((value, T(en, ru)) for value, en, ru in rows)


def pick(keys: Sequence[Any], labels: Mapping[Any, Label]) -> tuple[tuple[Any, Label], ...]:
    """``choices`` from ``keys`` in order, each with its label in ``labels``."""
    return tuple((k, labels[k]) for k in keys)


def text(name: str, label: Label, **kw: Any) -> Field:
    """A short editable text."""
    return Field(name, label, "text", **kw)


def longtext(name: str, label: Label, **kw: Any) -> Field:
    """A multi-line editable text."""
    return Field(name, label, "longtext", **kw)


def flag(name: str, label: Label, **kw: Any) -> Field:
    """An editable yes/no."""
    return Field(name, label, "flag", **kw)


def number(name: str, label: Label, lo: int, hi: int, **kw: Any) -> Field:
    """An editable number between ``lo`` and ``hi``."""
    return Field(name, label, "input", min=lo, max=hi, **kw)


def numbers(lo: int, hi: int, *rows: tuple[str, Label], **kw: Any) -> tuple[Field, ...]:
    """A row of editable numbers with the same bounds (and the same other keywords), from
    ``(name, label)`` pairs."""
    return tuple(number(name, label, lo, hi, **kw) for name, label in rows)


def derived(name: str, label: Label, help: Label | None = None, **kw: Any) -> Field:
    """A read-only value the model computes; ``help`` is usually its formula."""
    return Field(name, label, "derived", help=help, **kw)


def spent_of(spent: str, budget: str, spent_label: Label, budget_label: Label, help: Label | None = None):
    """A pool of creation points: the derived points spent (counted against ``budget``) and the
    derived budget beside it."""
    return (derived(spent, spent_label, help, budget=budget), derived(budget, budget_label))


def choice(name: str, label: Label, choices: Sequence[tuple[Any, Label]] = (), **kw: Any) -> Field:
    """A value picked from ``choices`` (or from a data table: ``source=``)."""
    return Field(name, label, "choice", choices=choices, **kw)


def resource(
    name: str, label: Label, lo: int, hi: int, max_trait: str | None = None, help: Label | None = None, **kw: Any
) -> Field:
    """A current value between ``lo`` and ``hi`` with +/- controls against the trait
    ``max_trait`` (its maximum)."""
    return Field(name, label, "resource", min=lo, max=hi, max_trait=max_trait, help=help, **kw)


def entries(name: str, label: Label, *item_fields: Field, **kw: Any) -> Field:
    """A list of items, each with ``item_fields`` (the first is usually its name)."""
    return Field(name, label, "list", item_fields=item_fields, **kw)


def named(name_label: Label, *item_fields: Field) -> tuple[Field, ...]:
    """The item fields of a list whose items start with a ``name`` text labelled ``name_label``."""
    return (text("name", name_label), *item_fields)


#: The label of the usual ``name`` item field and of the usual notes.
NAME = T("Name", "Название")
NOTES = T("Notes", "Заметки")


def notes_section(*fields: Field, id: str = "notes", label: Label = NOTES, **kw: Any) -> Section:
    """The text section that closes a sheet: ``fields``, by default one ``notes`` long text."""
    return Section(id, label, fields or (longtext("notes", NOTES),), layout="text", **kw)


__all__ = [
    "NAME",
    "NOTES",
    "derived",
    "entries",
    "flag",
    "labelled",
    "longtext",
    "named",
    "notes_section",
    "number",
    "numbers",
    "pick",
    "resource",
    "spent_of",
    "text",
]
