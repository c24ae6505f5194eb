"""Payload helpers of the table log: the error of a payload that does not fit its kind, plain
JSON copies of values (what events carry, and what ``verify`` compares), and the strict check of a
payload against its kind (the kinds themselves are declared in :mod:`.kinds`)."""

from __future__ import annotations

import json
import math
from typing import Any, Mapping

from .payload import MAX_PAYLOAD_BYTES


class EventError(ValueError):
    """A payload that does not fit its kind (or an unknown kind)."""


def validate(name: str, payload: Any) -> dict[str, Any]:
    """Check ``payload`` against kind ``name`` (:mod:`.kinds`); returns it as a plain JSON dict
    (round-tripped, so tuples became lists). Raises :class:`EventError`."""
    from .kinds import kind

    return kind(name).check(payload)


def jsonable(value: Any, _depth: int = 0) -> Any:
    """A JSON-safe copy of ``value``: dataclasses to dicts, tuples to lists, Fractions and other
    objects to ``str``, objects with ``to_json()`` through it. Deterministic (``verify`` compares
    these)."""
    if _depth > 30:
        return str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, _depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v, _depth + 1) for v in value), key=repr)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return jsonable(to_json(), _depth + 1)
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name), _depth + 1) for f in dataclasses.fields(value)}
    return str(value)


def norm(value: Any) -> Any:
    """``value`` as JSON gives it back (:func:`jsonable`, keys sorted): the form two outcomes are
    compared in (a replayed roll and the recorded one, the tracker's and the fair dice's)."""
    return json.loads(json.dumps(jsonable(value), sort_keys=True))


__all__ = ["EventError", "MAX_PAYLOAD_BYTES", "jsonable", "norm", "validate"]
