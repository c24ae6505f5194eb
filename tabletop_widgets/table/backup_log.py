"""What a campaign's chained log records of its rows, and the checks a backup's rows pass against
it before they are restored (see :mod:`.backup`).

A backup file carries the table's row, its seats and its sessions beside the log. The manifest's
hash only shows that the file was not damaged: whoever edits it recomputes that hash. The log is
bound by its hash chain to the table id and its first dice commitment, so the rows are checked
against what the log itself records, and a restore writes nothing unless every row is the log's:

* the table row: ``table.opened``'s system, title, commitment and options; its seed the one of
  that commitment; closed exactly when the log has ``table.closed``;
* the seats: exactly those of ``table.opened`` and of every ``seat.added``, each with the role,
  name and character the log gives it, all of this table; a seat the log retired
  (``seat.retired``) gets, at the restore, a token nobody holds (the log cannot vouch for a token
  hash, but it does say that nobody may use that seat again);
* the sessions: one row per session the log tells of (session 1 from ``table.opened``, the next
  from each ``session.started``), all of this table, each with the commitment the log published
  and a seed of that commitment; ended exactly when the log ended it (``session.ended``, or
  ``table.closed`` for the session open then), with the seed the log revealed.

Replacing a table that exists (``restore_campaign(..., replace=True)``) needs, moreover, a backup
of that very log (:func:`check_replace`): one of the two logs is the other's beginning, so an
earlier backup rolls the table back and a later one brings it forward; and a roll back never opens
again a session whose seed the store's log revealed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from . import chain
from .fairdice import check_commitment
from .kinds import SEAT_ADDED, SEAT_RETIRED, SESSION_ENDED, SESSION_STARTED, TABLE_CLOSED, TABLE_OPENED
from .store import Event


class LogMismatch(ValueError):
    """A backup's rows are not the ones its log records (the message says which and how)."""


@dataclass
class LogSession:
    """A game session as the log tells it."""

    n: int
    commitment: str
    ended: bool = False
    seed: str | None = None  # revealed by session.ended or table.closed


@dataclass
class LogFacts:
    """What a table's log records of its rows."""

    table_id: str
    opened: Mapping[str, Any]
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat -> role, name, character_id
    retired: set[str] = field(default_factory=set)
    sessions: list[LogSession] = field(default_factory=list)
    closed: bool = False


def _seat_fields(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"role": p.get("role"), "name": p.get("name") or "", "character_id": p.get("character_id")}


def log_facts(table_id: str, events: Sequence[Event]) -> LogFacts:
    """Read the seats, sessions and state a table's log records (its events in order, already
    checked to chain). Raises :class:`LogMismatch` for a log that tells them inconsistently."""
    if not events or events[0].kind != TABLE_OPENED.name:
        raise LogMismatch("the log does not start with table.opened")
    for i, e in enumerate(events, start=1):
        if e.version != i:
            raise LogMismatch(f"event {i} of the log has version {e.version}: versions must be 1, 2, 3, ...")
    opened = events[0].payload
    facts = LogFacts(table_id, opened)
    for s in opened.get("seats") or []:
        facts.seats[str(s.get("seat"))] = _seat_fields(s)
    facts.sessions.append(LogSession(1, str(opened.get("seed_hash") or "")))
    for e in events[1:]:
        _apply(facts, e)
    return facts


def _apply(facts: LogFacts, e: Event) -> None:
    p, cur = e.payload, facts.sessions[-1]
    where = f"event {e.version} ({e.kind})"
    if e.kind == SEAT_ADDED.name:
        if p.get("seat") in facts.seats:
            raise LogMismatch(f"{where} adds seat {p.get('seat')!r}, which the table has already")
        facts.seats[str(p.get("seat"))] = _seat_fields(p)
    elif e.kind == SEAT_RETIRED.name:
        if p.get("seat") not in facts.seats:
            raise LogMismatch(f"{where} retires seat {p.get('seat')!r}, which the table never had")
        facts.retired.add(str(p["seat"]))
    elif e.kind == SESSION_STARTED.name:
        if not cur.ended or p.get("session") != cur.n + 1:
            raise LogMismatch(f"{where} starts session {p.get('session')} after session {cur.n}")
        facts.sessions.append(LogSession(cur.n + 1, str(p.get("seed_hash") or "")))
    elif e.kind == SESSION_ENDED.name:
        if cur.ended or p.get("session") != cur.n or p.get("seed_hash") != cur.commitment:
            raise LogMismatch(f"{where} does not end the open session {cur.n} with its commitment")
        cur.ended, cur.seed = True, p.get("seed")
    elif e.kind == TABLE_CLOSED.name:
        if not cur.ended:
            cur.ended, cur.seed = True, p.get("seed")
        facts.closed = True


def check_rows(
    facts: LogFacts, table: Mapping[str, Any], seats: Sequence[Mapping], sessions: Sequence[Mapping]
) -> None:
    """Raise :class:`LogMismatch` unless the backup's table row, seats and sessions are exactly
    the ones ``facts`` (its log) records (see the module)."""
    _check_table(facts, table)
    _check_seats(facts, seats)
    _check_sessions(facts, sessions)


def _check_table(facts: LogFacts, table: Mapping[str, Any]) -> None:
    opened = facts.opened
    for name in ("system", "title", "seed_hash"):
        if table.get(name) != opened.get(name):
            raise LogMismatch(f"the table's {name} is {table.get(name)!r}, its table.opened says {opened.get(name)!r}")
    options = table.get("options")
    try:
        options = json.loads(options) if isinstance(options, str) else options
    except ValueError:
        options = None
    if (options or {}) != (opened.get("options") or {}):
        raise LogMismatch("the table's options are not the ones its table.opened set")
    if not _seed_of(table.get("seed"), str(opened.get("seed_hash"))):
        raise LogMismatch("the table's seed does not match the dice commitment its table.opened published")
    if (table.get("closed") is not None) != facts.closed:
        state = "closed" if table.get("closed") is not None else "open"
        raise LogMismatch(f"the table is marked {state}, its log {'closed' if facts.closed else 'never closed'} it")


def _seed_of(seed: Any, commitment: str) -> bool:
    try:
        return isinstance(seed, str) and check_commitment(bytes.fromhex(seed), commitment)
    except (ValueError, TypeError):  # not hex; a commitment that is not ASCII
        return False


def _check_seats(facts: LogFacts, seats: Sequence[Mapping]) -> None:
    seen: set[str] = set()
    for s in seats:
        seat = str(s.get("seat"))
        if s.get("table_id") != facts.table_id:
            raise LogMismatch(f"seat {seat!r} belongs to table {s.get('table_id')!r}, not {facts.table_id!r}")
        if seat in seen:
            raise LogMismatch(f"seat {seat!r} appears twice")
        seen.add(seat)
        logged = facts.seats.get(seat)
        if logged is None:
            raise LogMismatch(f"seat {seat!r} is not in the table's log (no table.opened or seat.added records it)")
        for name, want in logged.items():
            got = s.get(name) if name != "name" else (s.get("name") or "")
            if got != want:
                raise LogMismatch(f"seat {seat!r} has {name} {got!r}, the log says {want!r}")
        if not chain.is_hash(str(s.get("token_hash") or "")):
            raise LogMismatch(f"seat {seat!r}: its token hash is not a SHA-256 hash")
    missing = sorted(set(facts.seats) - seen)
    if missing:
        raise LogMismatch(f"the log records seat {missing[0]!r}, the backup has no row for it")


def _check_sessions(facts: LogFacts, sessions: Sequence[Mapping]) -> None:
    for s in sessions:
        if s.get("table_id") != facts.table_id:
            raise LogMismatch(f"session {s.get('n')} belongs to table {s.get('table_id')!r}, not {facts.table_id!r}")
    rows = sorted(sessions, key=lambda s: int(s.get("n") or 0))
    if [s.get("n") for s in rows] != [x.n for x in facts.sessions]:
        raise LogMismatch(
            f"the backup has sessions {[s.get('n') for s in rows]}, the log tells of {len(facts.sessions)} session(s)"
        )
    for row, logged in zip(rows, facts.sessions):
        n = logged.n
        if row.get("seed_hash") != logged.commitment:
            raise LogMismatch(f"session {n}'s commitment is not the one the log publishes for it")
        if not _seed_of(row.get("seed"), logged.commitment):
            raise LogMismatch(f"session {n}'s seed does not match its commitment")
        ended = row.get("ended") is not None
        if ended != logged.ended:
            raise LogMismatch(
                f"session {n} is {'ended' if ended else 'open'} in the backup, "
                f"{'ended' if logged.ended else 'open'} in the log"
            )
        if logged.seed is not None and row.get("seed") != logged.seed:
            raise LogMismatch(f"session {n}'s seed is not the one the log revealed")


def check_replace(
    store_events: Sequence[Event], store_facts: LogFacts, events: Sequence[Event], facts: LogFacts
) -> None:
    """Raise :class:`LogMismatch` unless a backup (``events``, ``facts``) may replace a table whose
    log in the store is ``store_events`` (see the module)."""
    for i, (mine, theirs) in enumerate(zip(store_events, events), start=1):
        if mine.hash != theirs.hash:
            raise LogMismatch(
                f"the file is not a backup of this table's log: the store's log and the file's differ from "
                f"event {i} on (another table under the same id, or a log forged from its start)"
            )
    if len(events) >= len(store_events):
        return
    for logged in facts.sessions:
        if logged.ended:
            continue
        stored = next((s for s in store_facts.sessions if s.n == logged.n), None)
        if stored is not None and stored.ended:
            raise LogMismatch(
                f"replacing the table with this earlier backup would reopen session {logged.n}, whose seed "
                "the store's log has revealed since: every roll of it could be predicted"
            )


__all__ = ["LogFacts", "LogMismatch", "LogSession", "check_replace", "check_rows", "log_facts"]
