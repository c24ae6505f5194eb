"""The hash chain over a table's log: nobody holding the database can rewrite history unseen.

Every stored event carries ``hash = sha256(prefix, previous hash, the event's full content)``,
where the content is everything a reader relies on: table id, version, kind, actor, audience,
roll index, payload (canonical JSON) and time. The first event's previous hash is the table's
*genesis* hash, which binds the chain to the table id and its dice commitment.

So editing an event, deleting one, renumbering or reordering them breaks a link that ``verify``
recomputes; and rewriting the whole chain after an edit (recomputing every later hash) changes the
head, which a player who saved it will not find (``verify --head``).

The chain covers *every* event, hidden ones included, in one order. A seat is shown the hash of
the last event it has seen (``TableSession.head``): it covers everything before it, hidden events
too, yet says nothing about them (not even how many there were, or when they happened, since the
seat's head moves only when the seat itself gets an event). A player cannot recompute it in their
kernel (they never receive hidden events); they save it, and after the table closes ``verify``
runs over the whole log and checks that the saved head is one of its links.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

PREFIX = b"tabletop-widgets/chain/v1\x00"
HASH_LEN = 64  # hex sha256


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def genesis(table_id: str, seed_hash: str) -> str:
    """The chain's starting point: binds it to the table and its dice commitment."""
    return hashlib.sha256(PREFIX + b"genesis\x00" + _canonical([table_id, seed_hash])).hexdigest()


def event_hash(
    prev: str,
    *,
    table_id: str,
    version: int,
    kind: str,
    actor: str,
    audience: str,
    roll: int | None,
    payload: Mapping[str, Any],
    created: float,
) -> str:
    """The hash of one event following ``prev`` (the previous event's hash, or the genesis)."""
    body = {
        "prev": prev,
        "table_id": table_id,
        "version": int(version),
        "kind": kind,
        "actor": actor,
        "audience": audience,
        "roll": roll,
        "payload": payload,
        "created": float(created),
    }
    return hashlib.sha256(PREFIX + b"event\x00" + _canonical(body)).hexdigest()


def hash_of(prev: str, event) -> str:
    """:func:`event_hash` of a stored :class:`~.store.Event` (its own ``hash`` ignored)."""
    return event_hash(
        prev,
        table_id=event.table_id,
        version=event.version,
        kind=event.kind,
        actor=event.actor,
        audience=event.audience,
        roll=event.roll,
        payload=event.payload,
        created=event.created,
    )


def is_hash(text: Any) -> bool:
    """Whether ``text`` looks like a full head or commitment (64 hex digits)."""
    return isinstance(text, str) and len(text) == HASH_LEN and all(c in "0123456789abcdef" for c in text.lower())


def backfill(conn, placeholder: str = "?") -> None:
    """Compute the chain hashes of events stored without one (a schema 1 store being
    upgraded): the chain then vouches for the log from the upgrade on."""
    p = placeholder
    tables = conn.execute("SELECT table_id, seed_hash FROM tables").fetchall()
    for table_id, seed_hash in tables:
        prev = genesis(table_id, seed_hash)
        rows = conn.execute(
            f"SELECT seq, version, kind, actor, audience, roll, payload, created, hash "
            f"FROM events WHERE table_id = {p} ORDER BY version",
            (table_id,),
        ).fetchall()
        for seq, version, kind, actor, audience, roll, payload, created, old in rows:
            h = event_hash(
                prev,
                table_id=table_id,
                version=version,
                kind=kind,
                actor=actor,
                audience=audience,
                roll=roll,
                payload=json.loads(payload),
                created=created,
            )
            if old != h:
                conn.execute(f"UPDATE events SET hash = {p} WHERE seq = {p}", (h, seq))
            prev = h
