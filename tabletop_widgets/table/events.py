"""Event kinds of the table log and validation of their JSON payloads.

Events record *outcomes*, never commands: a ``roll`` carries the dice that came up, a
``character.update`` the values after the damage, ``combat.state`` the tracker after the turn
advanced. Replaying the log therefore never rolls or re-applies rules.

Each kind names the role action (:data:`tabletop_widgets.table.seats.ACTIONS`) needed to write
it, and the payload fields it requires (and allows). Other packages (the combat tracker, ...) add
kinds with :func:`register_kind`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

MAX_PAYLOAD_BYTES = 256 * 1024
_KIND_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")


class EventError(ValueError):
    """A payload that does not fit its kind (or an unknown kind)."""


@dataclass(frozen=True)
class Kind:
    """``fields``: name -> (allowed types, required). ``action``: the role action needed to
    write it (``None``: only the table itself writes it, e.g. ``table.opened``). ``extra``:
    whether fields beyond ``fields`` are allowed."""

    name: str
    action: str | None
    fields: Mapping[str, tuple[tuple[type, ...], bool]] = field(default_factory=dict)
    extra: bool = False
    doc: str = ""


_S, _I, _B, _D, _L, _N = (str,), (int,), (bool,), (dict,), (list,), (type(None),)
_KINDS: dict[str, Kind] = {}


def register_kind(
    name: str,
    *,
    action: str | None,
    fields: Mapping[str, tuple] | None = None,
    extra: bool = False,
    doc: str = "",
    replace: bool = False,
) -> Kind:
    """Add an event kind. ``fields`` maps a name to ``(types, required)``."""
    if not _KIND_RE.match(name):
        raise ValueError(f"bad event kind {name!r} (lowercase words separated by dots)")
    if name in _KINDS and not replace:
        raise ValueError(f"event kind {name!r} is already registered")
    kind = Kind(name, action, dict(fields or {}), extra, doc)
    _KINDS[name] = kind
    return kind


def kind(name: str) -> Kind:
    try:
        return _KINDS[name]
    except KeyError:
        raise EventError(f"unknown event kind {name!r} (known: {', '.join(sorted(_KINDS))})") from None


def kinds() -> dict[str, Kind]:
    return dict(_KINDS)


def _type_ok(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False  # True is not an int here
    if isinstance(value, float) and int in types and float not in types:
        return False
    return isinstance(value, types)


def validate(name: str, payload: Any) -> dict[str, Any]:
    """Check ``payload`` against kind ``name``; returns it as a plain JSON dict (round-tripped,
    so tuples became lists). Raises :class:`EventError`."""
    k = kind(name)
    if not isinstance(payload, Mapping):
        raise EventError(f"{name}: payload must be a mapping, not {type(payload).__name__}")
    try:
        text = json.dumps(payload, sort_keys=True, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise EventError(f"{name}: payload is not plain JSON: {exc}") from None
    if len(text.encode()) > MAX_PAYLOAD_BYTES:
        raise EventError(f"{name}: payload is {len(text.encode())} bytes (limit {MAX_PAYLOAD_BYTES})")
    data = json.loads(text)
    for fname, (types, required) in k.fields.items():
        if fname not in data:
            if required:
                raise EventError(f"{name}: missing field {fname!r}")
            continue
        if not _type_ok(data[fname], types):
            want = " or ".join(t.__name__ for t in types)
            raise EventError(f"{name}: field {fname!r} must be {want}, not {type(data[fname]).__name__}")
    if not k.extra:
        unknown = set(data) - set(k.fields)
        if unknown:
            raise EventError(f"{name}: unknown field(s) {sorted(unknown)}")
    return data


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


# --------------------------------------------------------------------------------------------
# the built-in kinds
# --------------------------------------------------------------------------------------------
register_kind(
    "table.opened",
    action=None,
    fields={
        "system": (_S, True),
        "title": (_S, True),
        "seed_hash": (_S, True),
        "seats": (_L, True),
        "options": (_D, False),
        "software": (_D, False),
    },
    doc="First event of every table: the system, the seats (no tokens) and the seed commitment.",
)
register_kind(
    "table.closed",
    action="table.close",
    fields={"seed": (_S, True), "seed_hash": (_S, True)},
    doc="Last event: the GM closed the table; the fair-dice seed is revealed.",
)
register_kind(
    "session.ended",
    action=None,
    fields={
        "session": (_I, True),
        "seed": (_S, True),
        "seed_hash": (_S, True),
        "first_roll": (_I, True),
        "rolls": (_I, True),
    },
    doc="The GM ended game session `session`: its fair-dice seed is revealed (verify it now); "
    "its rolls had the indices first_roll .. first_roll + rolls - 1. The campaign goes on.",
)
register_kind(
    "session.started",
    action=None,
    fields={"session": (_I, True), "seed_hash": (_S, True), "first_roll": (_I, True)},
    doc="The GM opened game session `session` with a fresh secret seed: its commitment, shown to "
    "every seat, and the roll index its first roll takes.",
)
register_kind(
    "roll",
    action="roll",
    fields={
        "index": (_I, True),
        "expr": (_S, True),
        "variables": (_D + _N, False),
        "label": (_S + _N, False),
        "hidden": (_B, True),
        "result": (_D, True),
        "text": (_S, True),
        "texts": (_D, False),  # the breakdown in every language, for the log's readers
    },
    doc="A dice expression rolled with the fair-dice stream of roll number `index`: its outcome.",
)
register_kind(
    "check",
    action="check",
    fields={
        "index": (_I, True),
        "system": (_S, True),
        "check_id": (_S, True),
        "character_id": (_S, True),
        "character": (_D, True),
        "options": (_D, True),
        "hidden": (_B, True),
        "result": (_D, True),
        "text": (_S, True),
        "texts": (_D, False),  # the roll's breakdown in every language, for the log's readers
    },
    doc="A named check of the system for a character (its sheet as rolled, the options, the outcome).",
)
register_kind(
    "initiative",
    action="combat",
    fields={
        "index": (_I, True),
        "system": (_S, True),
        "ids": (_L, True),
        "characters": (_D, True),
        "options": (_D, True),
        "hidden": (_B, True),
        "result": (_D, True),
        "text": (_S, True),
    },
    doc="Initiative rolled by the system with the fair-dice stream of roll number `index`: the "
    "combatants' sheets as rolled, the options, the outcome (order, keys, texts, tie-breaks).",
)
register_kind(
    "character.set",
    action="character.edit",
    fields={"character_id": (_S, True), "data": (_D, True), "owner": (_S + _N, False)},
    doc="A whole character sheet (new or replaced).",
)
register_kind(
    "character.update",
    action="character.edit",
    fields={"character_id": (_S, True), "changes": (_D, True), "reason": (_S + _D + _N, False)},
    doc="Trait values after a change: {trait: new value}.",
)
register_kind(
    "combat.state",
    action="combat",
    fields={"state": (_D, True)},
    doc="The combat tracker's state after an action (GM's full view or the public projection).",
)
register_kind(
    "note", action="note", fields={"text": (_S, True), "title": (_S + _N, False)}, doc="A GM note (audience gm)."
)
register_kind("message", action="message", fields={"text": (_S, True)}, doc="A chat line.")
register_kind(
    "seat.reissued",
    action=None,
    fields={"seat": (_S, True), "role": (_S, True)},
    doc="The GM gave a seat a new link (the old one stopped working); never the token.",
)
