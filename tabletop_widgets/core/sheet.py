"""Declarative character-sheet layout: a system says *what* to show, widgets decide *how*."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

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
class SheetAction:
    """A button a section offers that runs a rule on the character (buy Threads with XP, make a
    Move of Fate from a data table).

    label       ``{"en", "ru"}``: the button's words
    method      the system's method to call: its name (checked when the system registers: a
                method of the system that exists) or the callable itself; it is called as
                ``method(character)``, or ``method(character, row_id)`` with ``source``, changes
                the character and raises ``RuleError`` to refuse
    source      a data table (``GameSystem.data``) to pick a row from first
    cost_field  the column of ``source`` shown as the row's cost beside its name
    who         who may press it: ``"player"`` (whoever may edit the character) or ``"gm"``
    """

    label: Mapping[str, str]
    method: str | Callable[..., Any]
    source: str | None = None
    cost_field: str | None = None
    who: str = "player"

    def __post_init__(self):
        if self.who not in ACTION_WHO:
            raise ValueError(f"action {self.method_name!r}: who must be one of {ACTION_WHO}, not {self.who!r}")

    @property
    def method_name(self) -> str:
        return self.method if isinstance(self.method, str) else getattr(self.method, "__name__", repr(self.method))

    def bound(self, system: Any) -> Callable[..., Any]:
        """The callable this action runs on ``system``."""
        if callable(self.method):
            return self.method
        method = getattr(system, self.method, None)
        if not callable(method):
            raise SheetError(
                f"system {getattr(system, 'slug', system)!r}: action {self.method!r} is not a method of it"
            )
        return method


#: who may use a :class:`SheetAction`
ACTION_WHO = ("player", "gm")


class SheetError(ValueError):
    """A system's sheet layout names something that does not exist (a trait, a data table, a
    method): raised when the system registers, naming the system and the field."""


@dataclass(frozen=True)
class Field:
    """One row of a sheet.

    name         trait name on the Character (for an item field: the key in the item)
    label        ``{"en", "ru"}``
    kind         one of FIELD_KINDS
    min/max      the hard bounds of a number (inputs, resources, the numbers of list entries and
                 of mappings; for a text, every number written in it, e.g. an age): the model
                 refuses a value outside them (a text also past ``max_length``, by default
                 :data:`TEXT_MAX` / :data:`LONGTEXT_MAX` characters); ``max_trait`` names the
                 trait holding a resource's maximum (the model's rules enforce that one)
    choices      for ``choice``: a sequence of ``(value, {"en","ru"})``
    source       for ``choice``/``list``: the name of a data table the system exposes through
                 ``GameSystem.data(source)`` (e.g. ``"weapons"``)
    item_fields  for ``list``: the columns of one item (Fields whose name is the item key)
    help         tooltip text (``{"en","ru"}``), e.g. a formula

    Typed hints the generic sheet reads (each optional):

    max_length     (int) the longest text a text field takes
    choice_values  (sequence of str) for ``choice``/``tags``: the allowed values, each shown by
                   the sheet's name for it (a field's label or ``labels``)
    choices_from   (str) for ``choice``: a list trait of the character whose entries (names, or
                   rows with a ``name``) are the choices (Seasons: the active Problem)
    allow_empty    (bool) with ``choices_from``: "none" is a choice too
    multiple       (bool) for ``choice`` item fields: several values, shown as chips
    free_text      (bool) for ``choice``: any text is accepted, the choices are suggestions
    dots           (bool) an ``input`` drawn as a row of dots (Seasons' traits)
    pips           (bool) a ``resource`` drawn as pips (up to 12)
    track          (bool) a ``resource`` that fills up as it gets worse (a damage track)
    signed         (bool) a number always shown with its sign (+2)
    badge          (str or ``{"en","ru"}``) a short mark beside the label
    die_label      (bool) a derived value shown with the die it rolls (RET levels)
    budget         (str or int) a trait (or a fixed number) the field's points are counted against
    labels         (``{key: {"en","ru"}}``) names of the keys a derived value or mapping shows
    keys           (sequence of str) for ``mapping``: the fixed keys, in order
    over_max       (bool) for a ``resource``: the rules let the value go past its maximum
                   (Р.Э.Т.'s Luck); the sheet says "+1 over" (with why in its tooltip) rather than a bare "7 / 6"
    gm_only        (bool) only the GM changes it (RET's notes)
    gm_entered     (bool) a value the GM enters for the table (Threads' campaign numbers)
    creation_only  (bool) a value the player sets while creating the character (RET's tier-III
                   parameters, a race): once the character is in play only the rules (an
                   advancement) or the GM change it
    visible_if     (str) a bool trait: the field shows only while it is true
    tier, parent   (int, str) for a ``tree`` section: the level and the parent field's name
    row, column    (str, str) for a matrix: the field's row and column
    column_label   (``{"en","ru"}``) the matrix column's heading
    group          (str) for grouped columns: the group's id
    group_label    (``{"en","ru"}``) the group's heading
    row_total      (str) a trait shown as the group's total
    default        for an item field of a ``list``: the value a new item starts with (the
                   book's starting level, a usual choice); None: the kind's own blank (see
                   :func:`new_item`)

    extra        system-specific data the generic widgets never read (a system's own notes)
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
    max_length: int | None = None
    choice_values: Sequence[Any] = ()
    choices_from: str | None = None
    allow_empty: bool = False
    multiple: bool = False
    free_text: bool = False
    dots: bool = False
    pips: bool = False
    track: bool = False
    signed: bool = False
    over_max: bool = False
    badge: str | Mapping[str, str] | None = None
    die_label: bool = False
    budget: str | int | None = None
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    keys: Sequence[str] = ()
    gm_only: bool = False
    gm_entered: bool = False
    creation_only: bool = False
    visible_if: str | None = None
    tier: int | None = None
    parent: str | None = None
    row: str | None = None
    column: str | None = None
    column_label: Mapping[str, str] | None = None
    group: str | None = None
    group_label: Mapping[str, str] | None = None
    row_total: str | None = None
    default: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")
        typed = sorted(set(self.extra) & _FIELD_HINTS)
        if typed:
            raise ValueError(
                f"field {self.name!r}: {typed} are typed fields of Field now: write Field(..., {typed[0]}=...), not extra"
            )

    @property
    def for_gm(self) -> bool:
        """Whether only the GM changes this field (``gm_only`` or ``gm_entered``)."""
        return self.gm_only or self.gm_entered


@dataclass(frozen=True)
class Section:
    """A block of the sheet. ``layout`` hints the arrangement: ``"grid"`` (label/value pairs in
    ``columns`` columns), ``"tree"`` (a parameter tree; fields carry ``tier`` and ``parent``),
    ``"resources"``, ``"table"`` (one list field), ``"text"``.

    collapsed   (bool or None) whether the section starts folded; None: the sheet decides
    visible_if  (str) a bool trait: the section shows only while it is true
    actions     (:class:`SheetAction` s) buttons that run rules on the character
    extra       system-specific data the generic widgets never read
    """

    id: str
    label: Mapping[str, str]
    fields: Sequence[Field]
    layout: str = "grid"
    columns: int = 2
    collapsed: bool | None = None
    visible_if: str | None = None
    actions: Sequence[SheetAction] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        typed = sorted(set(self.extra) & {"collapsed", "visible_if", "actions"})
        if typed:
            raise ValueError(f"section {self.id!r}: {typed} are typed fields of Section now, not extra")
        for a in self.actions:
            if not isinstance(a, SheetAction):
                raise TypeError(f"section {self.id!r}: actions must be SheetAction objects, got {a!r}")


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


#: the typed hints of :class:`Field` (a key of these in ``extra`` is refused)
_FIELD_HINTS = frozenset(
    {
        "max_length",
        "choice_values",
        "choices",
        "choices_from",
        "allow_empty",
        "multiple",
        "free_text",
        "dots",
        "pips",
        "track",
        "signed",
        "over_max",
        "badge",
        "die_label",
        "budget",
        "labels",
        "keys",
        "gm_only",
        "gm_entered",
        "creation_only",
        "visible_if",
        "tier",
        "parent",
        "row",
        "column",
        "column_label",
        "group",
        "group_label",
        "row_total",
        "default",
    }
)


def _traits(character_class: Any) -> dict[str, Any]:
    try:
        return dict(character_class.class_traits())
    except AttributeError:
        return {}


def sheet_problems(system: Any) -> list[str]:
    """What ``system``'s sheet names that does not exist: traits, data tables, the hints' traits,
    tree parents, actions' methods. Each problem names the system and the field."""
    slug = getattr(system, "slug", "?")
    sheet = getattr(system, "sheet", None)
    if not isinstance(sheet, Sheet):
        return [f"system {slug!r}: its sheet is not a Sheet"]
    traits = _traits(getattr(system, "Character", None))
    try:
        tables = set(system.data_tables())
    except Exception as exc:  # noqa: BLE001 - report a broken data_tables() as a problem
        return [f"system {slug!r}: data_tables() fails: {exc}"]
    names = {f.name for f in sheet.fields()}
    out: list[str] = []

    def trait_of_kind(where: str, hint: str, name: str | None, kind: str | None = None) -> None:
        if name is None:
            return
        trait = traits.get(name)
        if trait is None:
            out.append(f"system {slug!r}, {where}: {hint}={name!r} is not a trait of its Character")
        elif kind is not None and type(trait).__name__ not in _TRAIT_KINDS[kind]:
            out.append(
                f"system {slug!r}, {where}: {hint}={name!r} must name a {kind} trait, not {type(trait).__name__}"
            )

    def table(where: str, source: str | None) -> None:
        if source is not None and source not in tables:
            out.append(f"system {slug!r}, {where}: no data table {source!r} (known: {sorted(tables)})")

    def check_field(f: Field, where: str, top: bool) -> None:
        if top and traits and f.name not in traits:
            out.append(f"system {slug!r}, {where}: {f.name!r} is not a trait of its Character")
        table(where, f.source)
        if top:
            trait_of_kind(where, "max_trait", f.max_trait)
            trait_of_kind(where, "visible_if", f.visible_if, "bool")
            trait_of_kind(where, "choices_from", f.choices_from, "list")
            trait_of_kind(where, "row_total", f.row_total)
            if isinstance(f.budget, str):
                trait_of_kind(where, "budget", f.budget)
        if f.parent is not None and f.parent not in names:
            out.append(f"system {slug!r}, {where}: parent={f.parent!r} is not a field of the sheet")
        if f.allow_empty and not f.choices_from:
            out.append(f"system {slug!r}, {where}: allow_empty needs choices_from")
        offered = [v for v, _ in f.choices]
        if f.default is not None and f.kind == "choice" and offered and not f.free_text and f.default not in offered:
            out.append(f"system {slug!r}, {where}: default={f.default!r} is not one of its choices")
        for item in f.item_fields:
            check_field(item, f"{where}, item {item.name!r}", False)

    for section in sheet.sections:
        for f in section.fields:
            check_field(f, f"section {section.id!r}, field {f.name!r}", True)
        trait_of_kind(f"section {section.id!r}", "visible_if", section.visible_if, "bool")
        for a in section.actions:
            where = f"section {section.id!r}, action {a.method_name!r}"
            if isinstance(a.method, str) and not callable(getattr(system, a.method, None)):
                out.append(f"system {slug!r}, {where}: not a method of the system")
            table(where, a.source)
    return out


def blank_value(item_field: Field) -> Any:
    """The value a new list item gives ``item_field`` when nothing else does: its ``default``,
    else its kind's blank (a flag off, a number its lowest bound above 0 or 0, a choice its first
    choice, several choices none, a text empty)."""
    if item_field.default is not None:
        return item_field.default
    kind = item_field.kind
    if kind == "flag":
        return False
    if kind == "input":
        return item_field.min if item_field.min is not None and item_field.min > 0 else 0
    if kind == "choice":
        if item_field.multiple:
            return []
        return item_field.choices[0][0] if item_field.choices else ""
    return ""


def new_item(list_field: Field) -> dict[str, Any]:
    """A new item of the list field ``list_field`` as the sheet's New form starts it: each item
    field's :func:`blank_value` (the system's declared defaults first)."""
    return {f.name: blank_value(f) for f in list_field.item_fields}


def validate_sheet(system: Any) -> None:
    """Raise :class:`SheetError` listing every problem of ``system``'s sheet (see
    :func:`sheet_problems`); the registry calls it when a system registers."""
    problems = sheet_problems(system)
    if problems:
        raise SheetError("; ".join(problems))


#: the trait classes a hint accepts
_TRAIT_KINDS = {"bool": {"Bool", "CBool"}, "list": {"List", "Tuple"}}
