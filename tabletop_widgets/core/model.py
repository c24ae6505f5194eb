"""Base class for per-system Character models (pure traitlets; no widgets).

A system's ``Character`` subclasses :class:`CharacterModel` and tags its traits:

* ``.tag(persist=True)``  saved by ``to_dict`` and accepted by ``from_dict`` / ``Character(**values)``
* ``.tag(derived=True)``  recomputed by the model (read-only for users; never accepted as input)

It implements ``_derive()`` (recompute every derived trait from the persisted ones; called after
construction and on every change of a persisted trait) and ``check_values(values)`` (hard limits
on raw values: ranges, shapes of list items; a list of Problems). Creation and advancement budgets
are *not* hard limits: they belong to ``GameSystem.validate``, because a sheet in progress is
allowed to be over budget while the player fixes it.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Mapping

from traitlets import HasTraits, TraitError

from .i18n import T
from .problems import Problem, ValidationError


class CharacterModel(HasTraits):
    SYSTEM: ClassVar[str] = ""
    SCHEMA: ClassVar[int] = 1

    def __init__(self, **values: Any):
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
        """Every problem with ``data`` as input for this model (empty list: acceptable)."""
        if not isinstance(data, Mapping):
            return [
                Problem(
                    "not_a_mapping",
                    T(
                        f"expected a mapping of trait names to values, got {type(data).__name__}",
                        f"ожидался словарь «имя — значение», получено {type(data).__name__}",
                    ),
                )
            ]
        problems: list[Problem] = []
        if require_header or "system" in data:
            system = data.get("system")
            if system != cls.SYSTEM:
                problems.append(
                    Problem(
                        "wrong_system",
                        T(
                            f"this character is for system {system!r}, not {cls.SYSTEM!r}",
                            f"этот персонаж для системы {system!r}, а не {cls.SYSTEM!r}",
                        ),
                        field="system",
                    )
                )
        if require_header or "schema" in data:
            schema = data.get("schema")
            if not isinstance(schema, int) or isinstance(schema, bool) or not 1 <= schema <= cls.SCHEMA:
                problems.append(
                    Problem(
                        "bad_schema",
                        T(
                            f"unsupported schema version {schema!r} (this version reads 1..{cls.SCHEMA})",
                            f"неподдерживаемая версия схемы {schema!r} (поддерживаются 1..{cls.SCHEMA})",
                        ),
                        field="schema",
                    )
                )
        persisted = set(cls.persisted_traits())
        derived = set(cls.derived_traits())
        probe = HasTraits.__new__(cls)  # an instance to run trait validators against, no __init__
        HasTraits.__init__(probe)
        merged: dict[str, Any] = {n: getattr(probe, n) for n in persisted}
        for name, value in data.items():
            if name in ("system", "schema"):
                continue
            if name in derived:
                problems.append(
                    Problem(
                        "derived_given",
                        T(
                            f"{name} is computed from other values and cannot be set",
                            f"{name} вычисляется из других значений, его нельзя задать",
                        ),
                        field=name,
                    )
                )
                continue
            if name not in persisted:
                problems.append(
                    Problem("unknown_field", T(f"unknown field {name!r}", f"неизвестное поле {name!r}"), field=name)
                )
                continue
            trait = cls.class_traits()[name]
            if value is None and getattr(trait, "allow_none", False):
                merged[name] = None
                continue
            try:
                merged[name] = trait.validate(probe, copy.deepcopy(value))
            except TraitError as exc:
                problems.append(
                    Problem(
                        "bad_type",
                        T(f"bad value {value!r}: {_short(exc)}", f"недопустимое значение {value!r}: {_short(exc)}"),
                        field=name,
                    )
                )
        flagged = {p.field for p in problems}
        problems.extend(p for p in cls.check_values(merged) if p.field not in flagged)
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
        values = {k: v for k, v in data.items() if k not in ("system", "schema")}
        return cls(**values)

    def load_dict(self, data: Mapping[str, Any]) -> None:
        """Replace this character's values with ``data`` in place, all or nothing."""
        fresh = type(self).from_dict(data)
        self.update(**{n: getattr(fresh, n) for n in self.persisted_traits()})

    def update(self, **values: Any) -> None:
        """Set several persisted traits at once, all or nothing (validated together)."""
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


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]
