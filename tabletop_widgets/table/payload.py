"""Typed payloads of the table's event kinds: a frozen dataclass per kind, to and from JSON.

Each event kind (:mod:`.kinds`) declares its payload as a subclass of :class:`Payload`: a frozen,
keyword-only dataclass whose fields say the JSON types they take (``int``, ``str``, ``bool``,
``dict``, ``list``, or those or ``None``) and, for text a seat writes, the limit it must keep
(``field(metadata={"limit": "message"})``: a name of :data:`.rules.TEXT_LIMITS`).

* :meth:`Payload.check` (a write): the JSON a seat or the table is about to append, checked
  strictly (a missing field, a value of another type, an unknown field, a text past its limit,
  more than :data:`MAX_PAYLOAD_BYTES` in all): :class:`~.events.EventError` (the text limit: a
  bilingual :class:`~.rules.PlayError`) and nothing is written.
* :meth:`Payload.read` (a reader: the log, the transcript, a widget): a stored payload as the
  typed object, leniently: a hostile or older store may hold anything, so a value of the wrong
  type reads as the field's default and nothing raises.
* :meth:`Payload.to_json`: the JSON again, with exactly the keys it was read with (what the
  chain hash and ``verify`` compare), or for a payload made in code every field but those left
  at ``None`` that say ``omit_none``.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, ClassVar, Mapping

#: the most bytes one event's payload may have as JSON
MAX_PAYLOAD_BYTES = 256 * 1024


def text(limit: str | None = None, *, default: Any = dataclasses.MISSING, omit_none: bool = False) -> Any:
    """A payload field of text with a seat's length limit (a key of ``rules.TEXT_LIMITS``)."""
    meta = {"limit": limit, "omit_none": omit_none}
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def optional(default: Any = None, *, omit_none: bool = True, limit: str | None = None) -> Any:
    """A payload field a payload may leave out (read as ``default``); left at ``None``, a payload
    made in code leaves it out of its JSON too (``omit_none``)."""
    return dataclasses.field(default=default, metadata={"omit_none": omit_none, "limit": limit})


def _allowed(hint: Any) -> tuple[type, ...]:
    """The JSON types a field's annotation allows."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        out: tuple[type, ...] = ()
        for arg in typing.get_args(hint):
            out += _allowed(arg)
        return out
    if hint is type(None) or hint is None:
        return (type(None),)
    if hint is Any:
        return (object,)
    base = origin or hint
    if base in (dict, Mapping, typing.Mapping) or (isinstance(base, type) and issubclass(base, Mapping)):
        return (dict,)
    if base in (list, tuple, typing.Sequence) or base is typing.List:
        return (list,)
    if base in (int, str, bool, float):
        return (base,)
    raise TypeError(f"payload fields take JSON types, not {hint!r}")


def type_ok(value: Any, allowed: tuple[type, ...]) -> bool:
    """Whether ``value`` is one of the JSON types ``allowed`` (``True`` is not an int here, nor
    ``1.0``)."""
    if object in allowed:
        return True
    if isinstance(value, bool) and bool not in allowed:
        return False
    if isinstance(value, float) and int in allowed and float not in allowed:
        return False
    return isinstance(value, allowed)


def _type_name(allowed: tuple[type, ...]) -> str:
    names = {dict: "dict", list: "list", type(None): "None"}
    return " or ".join(names.get(t, t.__name__) for t in allowed)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Payload:
    """Base of a kind's payload (see the module). Subclasses are ``@dataclass(frozen=True,
    kw_only=True)`` with JSON-typed fields; ``kind`` is set by the kind that declares them."""

    #: the event kind's name (set by :class:`~.kinds.base.Kind`)
    kind: ClassVar[str] = ""
    #: the most bytes this kind's payload may have as JSON
    max_bytes: ClassVar[int] = MAX_PAYLOAD_BYTES
    #: the keys the payload was read with (None: made in code)
    _keys: tuple[str, ...] | None = dataclasses.field(default=None, repr=False, compare=False)

    # -- the fields ------------------------------------------------------------------------
    @classmethod
    def fields(cls) -> dict[str, tuple[tuple[type, ...], bool, Mapping[str, Any]]]:
        """``name -> (allowed types, required, metadata)`` of the payload's fields."""
        cached = cls.__dict__.get("_fields_cache")
        if cached is not None:
            return cached
        hints = typing.get_type_hints(cls)
        out = {}
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            out[f.name] = (_allowed(hints[f.name]), required, f.metadata)
        cls._fields_cache = out
        return out

    # -- writing ---------------------------------------------------------------------------
    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        """``data`` (a mapping about to be appended) as plain JSON, checked strictly (see the
        module); raises :class:`~.events.EventError` or :class:`~.rules.PlayError`."""
        from .events import EventError

        name = cls.kind or cls.__name__
        if not isinstance(data, Mapping):
            raise EventError(f"{name}: payload must be a mapping, not {type(data).__name__}")
        try:
            text_ = json.dumps(data, sort_keys=True, allow_nan=False, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise EventError(f"{name}: payload is not plain JSON: {exc}") from None
        size = len(text_.encode())
        if size > cls.max_bytes:
            raise EventError(f"{name}: payload is {size} bytes (limit {cls.max_bytes})")
        plain = json.loads(text_)
        spec = cls.fields()
        for fname, (allowed, required, meta) in spec.items():
            if fname not in plain:
                if required:
                    raise EventError(f"{name}: missing field {fname!r}")
                continue
            value = plain[fname]
            if not type_ok(value, allowed):
                raise EventError(f"{name}: field {fname!r} must be {_type_name(allowed)}, not {type(value).__name__}")
            if meta.get("limit") and isinstance(value, str):
                from .rules import check_text

                check_text(meta["limit"], value)
        unknown = set(plain) - set(spec)
        if unknown:
            raise EventError(f"{name}: unknown field(s) {sorted(unknown)}")
        return plain

    @classmethod
    def make(cls, **values: Any) -> "Payload":
        """A payload made in code (its JSON checked strictly, as a write is)."""
        return cls.read(cls.check(cls(**values).to_json()))

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def read(cls, data: Any) -> "Payload":
        """A stored payload as this type, leniently: a missing or ill-typed value reads as the
        field's default (or ``None`` for a required one); never raises."""
        if not isinstance(data, Mapping):
            data = {}
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue
            allowed = cls.fields()[f.name][0]
            value = data.get(f.name, dataclasses.MISSING)
            if value is dataclasses.MISSING or not type_ok(value, allowed):
                if f.default is not dataclasses.MISSING:
                    value = f.default
                elif f.default_factory is not dataclasses.MISSING:
                    value = f.default_factory()
                else:
                    value = None
            values[f.name] = value
        keys = tuple(k for k in data if k in values) if isinstance(data, Mapping) else ()
        return cls(_keys=keys, **values)

    def given(self, name: str) -> bool:
        """Whether the payload holds ``name`` (read from JSON that has it, or made in code)."""
        return name in self._keys if self._keys is not None else name in self.fields()

    def to_json(self) -> dict[str, Any]:
        spec = self.fields()
        if self._keys is not None:
            return {k: getattr(self, k) for k in self._keys}
        return {
            k: getattr(self, k)
            for k, (_allowed_, _required, meta) in spec.items()
            if not (meta.get("omit_none") and getattr(self, k) is None)
        }


__all__ = ["MAX_PAYLOAD_BYTES", "Payload", "optional", "text", "type_ok"]
