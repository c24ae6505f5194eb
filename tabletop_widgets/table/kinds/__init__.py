"""Every event kind of the table log, each one declaration (see :mod:`.base`), listed here and
loaded together: which kinds exist never depends on which modules happened to be imported.

The log records *outcomes*, never commands: a ``roll`` carries the dice that came up, a
``character.update`` the values after the damage, ``combat.state`` the tracker after the turn
advanced. Replaying the log therefore never rolls or re-applies rules. Requests (an attack's odds,
a declaration, the defender's question) are not events: they wait in the store's request table
(:mod:`..requests`).

Code elsewhere names a kind by its object (``kinds.CHARACTER_UPDATE``), never by its string, and
reads a payload through it (``kinds.CHECK.read(payload).check_id``). Adding a kind is one
declaration in one of this package's modules (a :class:`~.base.Kind` subclass with its payload,
writer, audience, reducer, line and, if it rolls, its replay), listed in that module's ``KINDS``,
plus its tests; ``docs/table.md`` says how.
"""

from __future__ import annotations

from typing import Any

from ..events import EventError
from .base import Kind, Line, LineContext, both, own_audience, sheets_secret
from . import blind, characters, clocks, combat, dice, handouts, legacy, luck, safety, table, tables, talk

#: name -> kind: every kind the table knows
KINDS: dict[str, Kind] = {
    k.name: k
    for module in (table, dice, blind, characters, combat, talk, clocks, tables, luck, safety, handouts, legacy)
    for k in module.KINDS
}

TABLE_OPENED, TABLE_CLOSED, TABLE_OPTION, SEAT_LOCALE, SEAT_ADDED, SEAT_RETIRED, SEAT_REISSUED = table.KINDS[:7]
SESSION_STARTED, SESSION_ENDED, SESSION_REMINDER = table.KINDS[7:]
ROLL, ROLL_FAILED, CHECK, CHECK_AFTER = dice.KINDS
BLIND_DICE, BLIND_ROLL, ROLL_REVEAL = blind.KINDS
blind_entry = blind.blind_entry
CHARACTER_SET, CHARACTER_UPDATE = characters.KINDS
COMBAT_STATE, INITIATIVE, ATTACK, TURN = combat.KINDS
MESSAGE, NOTE = talk.KINDS
CLOCK, CLOCK_REMOVED = clocks.KINDS
TABLE_ROLL, ROLL_TABLE_SAVED = tables.KINDS
(LUCK_SHARED,) = luck.KINDS
X_CARD, SAFETY_LINES = safety.KINDS
(HANDOUT,) = handouts.KINDS

#: the kinds that change a character at the table
CHARACTER_KINDS = (CHARACTER_SET, CHARACTER_UPDATE)
#: the kinds that begin or end a game session (or the campaign)
SESSION_KINDS = (SESSION_STARTED, SESSION_ENDED, TABLE_CLOSED)
#: the kinds that change the table's progress clocks
CLOCK_KINDS = (CLOCK, CLOCK_REMOVED)


def kind(name: Any) -> Kind:
    """The kind named ``name``; :class:`~..events.EventError` for an unknown one."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise EventError(f"unknown event kind {name!r} (known: {', '.join(sorted(KINDS))})") from None


def is_kind(event: Any, *candidates: Kind) -> bool:
    """Whether ``event`` (an ``Event``, or a log entry with its ``"kind"``) is one of ``candidates``."""
    name = event.get("kind") if isinstance(event, dict) else getattr(event, "kind", None)
    return any(name == k.name for k in candidates)


def line_of(entry: Any, ctx: LineContext) -> Line | None:
    """The line of a state log entry (or an event as a dict with its ``"kind"``), as the roll log
    and the transcript tell it; None for a kind that tells nothing."""
    found = KINDS.get(entry.get("kind")) if isinstance(entry, dict) else None
    if found is None or found.legacy:
        return None
    return found.line(entry, found.read(entry), ctx)


def register(new: Kind, *, replace: bool = False) -> Kind:
    """Add a kind of another package (its declaration: a :class:`~.base.Kind` instance)."""
    import re

    if not re.match(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$", getattr(new, "name", "") or ""):
        raise ValueError(f"bad event kind {getattr(new, 'name', None)!r} (lowercase words separated by dots)")
    if new.name in KINDS and not replace:
        raise ValueError(f"event kind {new.name!r} is already declared")
    KINDS[new.name] = new
    return new


__all__ = [
    "ATTACK",
    "BLIND_DICE",
    "BLIND_ROLL",
    "CHARACTER_KINDS",
    "CHARACTER_SET",
    "CHARACTER_UPDATE",
    "CHECK",
    "CHECK_AFTER",
    "CLOCK",
    "CLOCK_KINDS",
    "CLOCK_REMOVED",
    "COMBAT_STATE",
    "HANDOUT",
    "INITIATIVE",
    "KINDS",
    "Kind",
    "Line",
    "LineContext",
    "LUCK_SHARED",
    "MESSAGE",
    "NOTE",
    "ROLL",
    "ROLL_FAILED",
    "ROLL_REVEAL",
    "ROLL_TABLE_SAVED",
    "SAFETY_LINES",
    "SEAT_ADDED",
    "SEAT_LOCALE",
    "SEAT_REISSUED",
    "SEAT_RETIRED",
    "SESSION_ENDED",
    "SESSION_KINDS",
    "SESSION_REMINDER",
    "SESSION_STARTED",
    "TABLE_CLOSED",
    "TABLE_OPENED",
    "TABLE_OPTION",
    "TABLE_ROLL",
    "TURN",
    "blind_entry",
    "X_CARD",
    "both",
    "is_kind",
    "kind",
    "line_of",
    "own_audience",
    "register",
    "sheets_secret",
]
