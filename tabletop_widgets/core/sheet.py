"""Declarative character-sheet layout: a system says *what* to show, widgets decide *how*."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

#: Caps for the numbers the rules leave open (a bonus, a count, points, an amount of money): far
#: above anything play reaches, so that a slip of the keyboard or a forged message cannot store a
#: 40-digit number. Every number on a sheet has a ``min`` and a ``max`` (a test walks them all).
OPEN_SMALL = 99
OPEN_LARGE = 9_999
OPEN_MONEY = 999_999_999
#: The longest text a short text field (a name, an age) and a long one (a backstory) take.
TEXT_MAX = 200
LONGTEXT_MAX = 20_000

#: Field kinds the generic CharacterSheet knows how to render.
FIELD_KINDS = (
    "input",  # an editable number (int trait)
    "text",  # an editable short text (str trait)
    "longtext",  # an editable multi-line text
    "choice",  # an editable value picked from ``choices`` (or a data table named by ``source``)
    "flag",  # an editable bool
    "derived",  # read-only, recomputed by the model
    "resource",  # current value with +/- controls against ``max_trait``
    "list",  # a list of dict items (abilities, equipment...) with ``item_fields``
    "tags",  # a list of short strings (conditions, immunities), optionally from ``choices``/``source``
    "mapping",  # a dict name -> value (skills by code id, money by coin); ``item_fields`` may
    # describe the value, ``choices``/``source`` the allowed names
)


@dataclass(frozen=True)
class Field:
    """One row of a sheet.

    name         trait name on the Character
    label        ``{"en", "ru"}``
    kind         one of FIELD_KINDS
    min/max      the hard bounds of a number (inputs, resources, the numbers of list entries and
                 of mappings; for a text, every number written in it, e.g. an age): the model
                 refuses a value outside them (a text also past ``extra["max_length"]``, by
                 default :data:`TEXT_MAX` / :data:`LONGTEXT_MAX` characters); ``max_trait`` names the
                 trait holding a resource's maximum (the model's rules enforce that one)
    choices      for ``choice``: a sequence of ``(value, {"en","ru"})``
    source       for ``choice``/``list``: the name of a data table the system exposes through
                 ``GameSystem.data(source)`` (e.g. ``"weapons"``)
    item_fields  for ``list``: the columns of one item (Fields whose name is the item key)
    help         tooltip text (``{"en","ru"}``), e.g. a formula
    extra        anything system-specific the widget may use (die label, badge, column...)
    """

    name: str
    label: Mapping[str, str]
    kind: str = "input"
    min: int | None = None
    max: int | None = None
    max_trait: str | None = None
    choices: Sequence[tuple[Any, Mapping[str, str]]] = ()
    source: str | None = None
    item_fields: Sequence["Field"] = ()
    help: Mapping[str, str] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Section:
    """A block of the sheet. ``layout`` hints the arrangement: ``"grid"`` (label/value pairs in
    ``columns`` columns), ``"tree"`` (a parameter tree; fields carry ``extra["tier"]`` and
    ``extra["parent"]``), ``"resources"``, ``"table"`` (one list field), ``"text"``."""

    id: str
    label: Mapping[str, str]
    fields: Sequence[Field]
    layout: str = "grid"
    columns: int = 2
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Sheet:
    sections: Sequence[Section]

    def fields(self) -> list[Field]:
        return [f for s in self.sections for f in s.fields]

    def field(self, name: str) -> Field:
        for f in self.fields():
            if f.name == name:
                return f
        raise KeyError(name)
