"""Base class for per-system Character models (pure traitlets; no widgets).

A system's ``Character`` subclasses :class:`CharacterModel` and tags its traits:

* ``.tag(persist=True)``  saved by ``to_dict`` and accepted by ``from_dict`` / ``Character(**values)``
* ``.tag(derived=True)``  recomputed by the model (read-only for users; never accepted as input)

It implements ``_derive()`` (recompute every derived trait from the persisted ones; called after
construction and on every change of a persisted trait) and ``check_values(values)`` (hard limits
on raw values: ranges, shapes of list items; a list of Problems). Creation and advancement budgets
are *not* hard limits: they belong to ``GameSystem.validate``, because a sheet in progress is
allowed to be over budget while the player fixes it.

The numbers' bounds come from the system's sheet declaration (``Field.min``/``max``, for fields,
list entries and tables of values; :meth:`CharacterModel.check_bounds`), so that the sheet shows
the same range the model enforces; ``input_range`` narrows what a player may type by hand where
the rules draw a line the rules' own moves may cross (RET Health past −3 × its maximum). Every
problem is in a player's words: the field's label (``Problem.label``) and what it takes, never a
trait's id, a class name or a Python repr.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any, ClassVar, Mapping

from traitlets import HasTraits, TraitError

from .i18n import T, tr
from .phases import PhaseTrait, phase_of
from .problems import Problem, ValidationError, entry_label, out_of_range, wrong_kind
from .sheet import LONGTEXT_MAX, TEXT_MAX


class CharacterModel(HasTraits):
    SYSTEM: ClassVar[str] = ""
    SCHEMA: ClassVar[int] = 1
    #: Old names of persisted traits that saved characters may still use: ``{old: new}`` (L&D's
    #: and Threads' ``stage`` is ``phase`` now); input under an old name is read as the new one.
    RENAMED: ClassVar[Mapping[str, str]] = {}

    #: ``"creation"`` (the creation rules apply) or ``"play"`` (see ``core.phases``); only
    #: ``GameSystem.start_play`` moves a character from creation to play by the rules
    phase = PhaseTrait().tag(persist=True)

    def __init__(self, **values: Any):
        values = type(self).renamed(values)
        problems = type(self).check_dict(values, require_header=False)
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise ValidationError(errors)
        super().__init__()
        self._deriving = False
        with self.hold_trait_notifications():
            for name, value in values.items():
                if name in ("schema", "system"):
                    continue
                setattr(self, name, copy.deepcopy(value))
        self.observe(self._on_persisted_change, names=self.persisted_traits())
        self._run_derive()

    # -- trait catalogue ---------------------------------------------------------------------
    @classmethod
    def renamed(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """``data`` with the old names of :attr:`RENAMED` read as the new ones (a value under the
        new name wins)."""
        out = dict(data)
        for old, new in cls.RENAMED.items():
            if old in out:
                value = out.pop(old)
                out.setdefault(new, value)
        return out

    @classmethod
    def phase_of(cls, data: Mapping[str, Any]) -> str:
        """The phase of stored values ``data`` (``"creation"`` when they say none)."""
        return phase_of(data, cls.RENAMED)

    @classmethod
    def persisted_traits(cls) -> list[str]:
        return [n for n, t in cls.class_traits().items() if t.metadata.get("persist")]

    @classmethod
    def derived_traits(cls) -> list[str]:
        return [n for n, t in cls.class_traits().items() if t.metadata.get("derived")]

    # -- derivation ----------------------------------------------------------------------------
    def _derive(self) -> None:  # pragma: no cover - overridden by every system
        """Recompute every derived trait. Subclasses override."""

    def _run_derive(self) -> None:
        if self._deriving:
            return
        self._deriving = True
        try:
            with self.hold_trait_notifications():
                self._derive()
        finally:
            self._deriving = False

    def _on_persisted_change(self, change) -> None:
        self._run_derive()

    # -- validation of raw data ----------------------------------------------------------------
    @classmethod
    def check_values(cls, values: Mapping[str, Any]) -> list[Problem]:
        """System-specific hard limits on raw values (merged over defaults). Subclasses extend."""
        return []

    @classmethod
    def check_dict(cls, data: Any, *, require_header: bool = True) -> list[Problem]:
        """Every problem with ``data`` as input for this model (empty list: acceptable), in words
        a player reads: each names its field by the sheet's label (``Problem.label``), never by
        the trait's id, and says what the field takes."""
        if not isinstance(data, Mapping):
            return [
                Problem(
                    "not_a_mapping",
                    T(
                        "This is not a character: expected the character's values, one per field.",
                        "Это не персонаж: ожидались значения персонажа, по одному на поле.",
                    ),
                )
            ]
        data = cls.renamed(data)
        problems = cls.header_problems(data, require_header=require_header)
        merged, value_problems = cls.validated_values(data)
        problems += value_problems
        flagged = {p.field for p in problems}
        for p in cls.check_values(merged):
            if p.field in flagged:
                continue
            if p.label is None and p.field is not None:
                p = dataclasses.replace(p, label=cls.field_label(p.field))
            problems.append(p)
        flagged = {p.field for p in problems}
        problems.extend(p for p in cls.check_bounds(merged) if p.field not in flagged)
        return problems

    @classmethod
    def header_problems(cls, data: Mapping[str, Any], *, require_header: bool = True) -> list[Problem]:
        """What is wrong with the ``system`` and ``schema`` of ``data`` (checked when
        ``require_header`` or when given)."""
        problems: list[Problem] = []
        if require_header or "system" in data:
            system = data.get("system")
            if system != cls.SYSTEM:
                problems.append(
                    Problem(
                        "wrong_system",
                        T(
                            f"This character is for another game ({_game(system, 'en')}), not {_game(cls.SYSTEM, 'en')}.",
                            f"Этот персонаж для другой игры ({_game(system, 'ru')}), а не для {_game(cls.SYSTEM, 'ru')}.",
                        ),
                        data={"system": system},
                    )
                )
        if require_header or "schema" in data:
            schema = data.get("schema")
            if not isinstance(schema, int) or isinstance(schema, bool) or not 1 <= schema <= cls.SCHEMA:
                problems.append(
                    Problem(
                        "bad_schema",
                        T(
                            f"This file was saved in a format this version cannot read (it reads formats 1 to {cls.SCHEMA}).",
                            f"Файл сохранён в формате, который эта версия не читает (она читает форматы 1–{cls.SCHEMA}).",
                        ),
                        data={"schema": schema},
                    )
                )
        return problems

    @classmethod
    def validated_values(cls, data: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
        """Each value of ``data`` through its trait's validator: the persisted values as they
        would be (defaults for the ones not given), and the problems of derived, unknown and
        refused values."""
        persisted = set(cls.persisted_traits())
        derived = set(cls.derived_traits())
        probe = HasTraits.__new__(cls)  # an instance to run trait validators against, no __init__
        HasTraits.__init__(probe)
        merged: dict[str, Any] = {n: getattr(probe, n) for n in persisted}
        problems: list[Problem] = []
        unknown = []
        for name, value in data.items():
            if name in ("system", "schema"):
                continue
            if name in derived:
                problems.append(
                    Problem(
                        "derived_given",
                        T(
                            "This is worked out from other values: it cannot be set.",
                            "Это значение вычисляется из других: его нельзя задать.",
                        ),
                        field=name,
                        label=cls.field_label(name),
                    )
                )
                continue
            if name not in persisted:
                unknown.append(name)
                continue
            trait = cls.class_traits()[name]
            if value is None and getattr(trait, "allow_none", False):
                merged[name] = None
                continue
            try:
                merged[name] = trait.validate(probe, copy.deepcopy(value))
            except ValidationError as exc:  # a trait that says what is wrong itself (the phase)
                problems.extend(exc.problems)
            except TraitError:
                problems.append(_trait_problem(cls, name, trait, value))
        for name in unknown:  # named by the file, not by us: the message does not repeat it
            problems.append(
                Problem(
                    "unknown_field",
                    T(
                        "The file has a value this sheet does not know: is it from another game or a newer version?",
                        "В файле есть значение, которого этот лист не знает: он от другой игры или более новой версии?",
                    ),
                    field=name,
                )
            )
        return merged, problems

    # -- the sheet's words and bounds ----------------------------------------------------------
    @classmethod
    def layout(cls):
        """The sheet layout (``core.sheet.Sheet``) of this character's system, found through the
        registry: the labels of its fields and the bounds of its numbers. None when the system is
        not registered (a bare model)."""
        cached = _LAYOUTS.get(cls)
        if cached is not None:
            return cached
        if not cls.SYSTEM or cls in _LOOKING_UP:
            return None
        _LOOKING_UP.add(cls)
        try:
            from .registry import get_system

            system = get_system(cls.SYSTEM)
        except Exception:  # not registered, or still importing: no layout yet
            return None
        finally:
            _LOOKING_UP.discard(cls)
        sheet = getattr(system, "sheet", None)
        if getattr(system, "Character", None) is not cls or sheet is None:
            return None
        _LAYOUTS[cls] = sheet
        return sheet

    @classmethod
    def sheet_field(cls, name: str):
        """The sheet's ``Field`` for trait ``name`` (None when the sheet does not show it)."""
        sheet = cls.layout()
        if sheet is None:
            return None
        fields = _FIELDS.get(cls)
        if fields is None:
            fields = _FIELDS[cls] = {}
            for f in sheet.fields():
                fields.setdefault(f.name, f)
        return fields.get(name)

    @classmethod
    def field_label(cls, name: str) -> dict[str, str] | None:
        """Trait ``name`` as a player reads it: the sheet's label (None when not on the sheet)."""
        f = cls.sheet_field(name)
        return dict(f.label) if f is not None else None

    @classmethod
    def bounds(cls, name: str) -> tuple[int | None, int | None]:
        """The hard range of the numeric trait ``name``: the sheet field's ``min``/``max`` and the
        trait's own, whichever is narrower. Every value the rules can produce lies inside it."""
        lo = hi = None
        trait = cls.class_traits().get(name)
        for a, b in (
            (getattr(trait, "min", None), getattr(trait, "max", None)),
            _field_bounds(cls.sheet_field(name)),
        ):
            if a is not None:
                lo = a if lo is None else max(lo, a)
            if b is not None:
                hi = b if hi is None else min(hi, b)
        return lo, hi

    @classmethod
    def input_range(cls, name: str, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """The range a player may enter for the numeric trait ``name``, given the character's
        other ``values``: :meth:`bounds` unless the rules narrow it (systems override, e.g. a
        resource that may not be entered past a threshold)."""
        return cls.bounds(name)

    @classmethod
    def check_input(cls, values: Mapping[str, Any], name: str, old: Any = None) -> list[Problem]:
        """The problems of entering ``values[name]`` by hand: outside :meth:`input_range`. A
        value that the rules left outside (``old``, e.g. Health past a threshold after a hit)
        may still be moved towards the range."""
        value = values.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            return []
        lo, hi = cls.input_range(name, values)
        if isinstance(old, int) and not isinstance(old, bool):
            if lo is not None and old < lo and old <= value < lo:
                return []
            if hi is not None and old > hi and hi < value <= old:
                return []
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return [out_of_range(name, value, lo, hi, label=cls.field_label(name))]
        return []

    @classmethod
    def check_bounds(cls, values: Mapping[str, Any]) -> list[Problem]:
        """Every number on the sheet inside its declared range: the fields, the numbers in the
        entries of a list, and the values of a table of names and values (and every text within
        its length)."""
        problems: list[Problem] = []
        for f, kind, lo, hi, numbers in _bounds_plan(cls):
            if f.name not in values:
                continue
            value = values[f.name]
            if kind == "number":
                if isinstance(value, int) and not isinstance(value, bool):
                    if (lo is not None and value < lo) or (hi is not None and value > hi):
                        problems.append(out_of_range(f.name, value, lo, hi, label=dict(f.label)))
            elif kind == "text":
                if isinstance(value, str):
                    problems.extend(_text_problems(f, value))
            elif kind == "list":
                if not isinstance(value, (list, tuple)):
                    continue
                for n, item in enumerate(value, start=1):
                    if not isinstance(item, Mapping):
                        continue
                    for i in numbers:
                        v = item.get(i.name)
                        if isinstance(v, int) and not isinstance(v, bool):
                            if (i.min is not None and v < i.min) or (i.max is not None and v > i.max):
                                label = entry_label(f.label, item, n, i.label)
                                problems.append(out_of_range(f.name, v, i.min, i.max, label=label))
            elif kind == "mapping" and isinstance(value, Mapping):
                for v in value.values():
                    if isinstance(v, int) and not isinstance(v, bool):
                        if (lo is not None and v < lo) or (hi is not None and v > hi):
                            problems.append(out_of_range(f.name, v, lo, hi, label=dict(f.label)))
        return problems

    # -- persistence ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"system": self.SYSTEM, "schema": self.SCHEMA}
        for name in self.persisted_traits():
            out[name] = copy.deepcopy(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        problems = [p for p in cls.check_dict(data) if p.severity == "error"]
        if problems:
            raise ValidationError(problems)
        values = {k: v for k, v in cls.renamed(data).items() if k not in ("system", "schema")}
        return cls(**values)

    def load_dict(self, data: Mapping[str, Any]) -> None:
        """Replace this character's values with ``data`` in place, all or nothing."""
        fresh = type(self).from_dict(data)
        self.update(**{n: getattr(fresh, n) for n in self.persisted_traits()})

    def update(self, **values: Any) -> None:
        """Set several persisted traits at once, all or nothing (validated together)."""
        values = type(self).renamed(values)
        current = {n: getattr(self, n) for n in self.persisted_traits()}
        current.update(values)
        problems = [p for p in type(self).check_dict(current, require_header=False) if p.severity == "error"]
        if problems:
            raise ValidationError(problems)
        with self.hold_trait_notifications():
            for name, value in values.items():
                setattr(self, name, copy.deepcopy(value))

    def __repr__(self) -> str:
        name = getattr(self, "name", "") or ""
        return f"<{type(self).__module__.split('.')[-2] if '.' in type(self).__module__ else ''} Character {name!r}>"


_LAYOUTS: dict[type, Any] = {}
_PLANS: dict[type, list] = {}


def _bounds_plan(model: type) -> list:
    """``(field, kind, lo, hi, item number fields)`` for every bounded thing on ``model``'s
    sheet, worked out once per class (``check_dict`` runs on every edit and every clone)."""
    plan = _PLANS.get(model)
    if plan is not None:
        return plan
    sheet = model.layout()
    if sheet is None:
        return []
    plan = []
    for f in sheet.fields():
        if f.kind == "derived":
            continue
        if f.kind in ("input", "resource"):
            lo, hi = model.bounds(f.name)
            plan.append((f, "number", lo, hi, ()))
        elif f.kind in ("text", "longtext"):
            plan.append((f, "text", f.min, f.max, ()))
        elif f.kind == "list":
            numbers = tuple(i for i in f.item_fields if i.kind == "input")
            if numbers:
                plan.append((f, "list", None, None, numbers))
        elif f.kind == "mapping":
            number = next((i for i in f.item_fields if i.kind == "input"), None)
            if number is not None:
                plan.append((f, "mapping", number.min, number.max, ()))
    _PLANS[model] = plan
    return plan


_FIELDS: dict[type, dict[str, Any]] = {}
_DIGITS = re.compile(r"\d+")


def _text_problems(f, value: str) -> list[Problem]:
    """A text field's limits: its length (``Field.max_length``, else :data:`TEXT_MAX` /
    :data:`LONGTEXT_MAX`) and, when it declares ``min``/``max``, every number written in it (an
    age, an amount of money)."""
    limit = f.max_length or (TEXT_MAX if f.kind == "text" else LONGTEXT_MAX)
    if len(value) > limit:
        return [
            Problem(
                "too_long",
                T(
                    f"Keep it to {limit} characters (this is {len(value)}).",
                    f"Не больше {limit} знаков (здесь {len(value)}).",
                ),
                field=f.name,
                label=dict(f.label),
                data={"max_length": limit},
            )
        ]
    if f.min is None and f.max is None:
        return []
    for m in _DIGITS.finditer(value):
        n = int(m.group()) if len(m.group()) <= 30 else 10**30
        if (f.min is not None and n < f.min) or (f.max is not None and n > f.max):
            return [out_of_range(f.name, n, f.min, f.max, label=dict(f.label))]
    return []


_LOOKING_UP: set[type] = set()


def _field_bounds(f) -> tuple[int | None, int | None]:
    if f is None:
        return None, None
    return f.min, f.max


def _trait_kind(trait) -> str:
    from traitlets import Bool, Dict, Enum, Float, Int, List, Unicode

    for cls_, kind in ((Bool, "flag"), (Int, "int"), (Float, "float"), (Unicode, "text"), (Enum, "choice")):
        if isinstance(trait, cls_):
            return kind
    if isinstance(trait, List):
        return "list"
    if isinstance(trait, Dict):
        return "mapping"
    return "value"


def _trait_problem(model: type, name: str, trait, value: Any) -> Problem:
    """A value the trait refused, in player words: a number out of the trait's range, or a
    value of the wrong kind."""
    label = model.field_label(name)
    kind = _trait_kind(trait)
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        lo, hi = model.bounds(name)
        return out_of_range(name, value, lo, hi, label=label, code="bad_type")  # the code tests key on
    if kind == "choice":
        return Problem(
            "bad_choice", T("Choose one of the listed values.", "Выберите значение из списка."), field=name, label=label
        )
    return wrong_kind(name, kind, label=label)


def _game(slug: Any, locale: str) -> str:
    """A game's title for a player (the slug is an id)."""
    if not isinstance(slug, str) or not slug:
        return "an unknown game" if locale == "en" else "неизвестной игры"
    try:
        from .registry import get_system

        return tr(get_system(slug).title, locale)
    except Exception:
        return "an unknown game" if locale == "en" else "неизвестной игры"
