"""The GM options of a rules system (spec §11) as one frozen object.

A system declares its options once, as ``DEFAULTS`` in ``systems/<slug>/options.py``; a table's GM
may change some of them. :class:`GmOptions` holds the result::

    options = GmOptions({"base_hp": 10, "luck": True}, base_hp=12)
    options.base_hp  # 12 (attribute access)
    options["luck"]  # True (read-only mapping access: .get, iteration, dict(options))
    options.replace(luck=False)  # a new object; ``options`` is unchanged

Unknown names are refused (``ValueError`` when building, ``AttributeError``/``KeyError`` when
reading), naming the known ones, so a misspelt option never silently means "the default".
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping


def _frozen_key(value: Any) -> Any:
    """A hashable stand-in for ``value`` (nested dicts, lists and sets included)."""
    if isinstance(value, Mapping):
        return ("map", tuple(sorted(((repr(k), _frozen_key(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_frozen_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(v) for v in value)))
    try:
        hash(value)
    except TypeError:
        return ("repr", repr(value))
    return value


class GmOptions(Mapping[str, Any]):
    """The GM options: ``defaults`` with ``overrides`` applied; frozen.

    ``defaults`` names every option the system knows; an override of any other name raises
    ``ValueError`` naming the known options. Read an option as ``options.name`` or
    ``options["name"]``; assigning either way raises ``AttributeError``/``TypeError``.
    Two ``GmOptions`` (or a ``GmOptions`` and a plain mapping) are equal when they hold the same
    names and values.
    """

    __slots__ = ("_values", "_hash")

    def __init__(self, defaults: Mapping[str, Any], **overrides: Any):
        if not isinstance(defaults, Mapping):
            raise TypeError(f"GmOptions needs the defaults as a mapping, got {type(defaults).__name__}")
        unknown = sorted(set(overrides) - set(defaults))
        if unknown:
            raise ValueError(f"unknown GM option(s) {unknown}; known: {sorted(defaults)}")
        values = {str(k): v for k, v in defaults.items()}
        values.update(overrides)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_hash", None)

    # -- reading -------------------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        values = object.__getattribute__(self, "_values")
        try:
            return values[name]
        except KeyError:
            raise AttributeError(f"no GM option {name!r}; known: {sorted(values)}") from None

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise KeyError(f"no GM option {name!r}; known: {sorted(self._values)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    # -- frozen --------------------------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"GM options are frozen: use .replace({name}=...) for a changed copy")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("GM options are frozen")

    def replace(self, **changes: Any) -> "GmOptions":
        """A copy with some options changed (unknown names raise ``ValueError``)."""
        unknown = sorted(set(changes) - set(self._values))
        if unknown:
            raise ValueError(f"unknown GM option(s) {unknown}; known: {sorted(self._values)}")
        return GmOptions(self._values, **changes)

    # -- equality ------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, GmOptions):
            return self._values == other._values
        if isinstance(other, Mapping):
            return self._values == dict(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(_frozen_key(self._values)))
        return self._hash

    def __repr__(self) -> str:
        return f"GmOptions({self._values!r})"

    def __reduce__(self):
        return (GmOptions, (dict(self._values),))


__all__ = ["GmOptions"]
