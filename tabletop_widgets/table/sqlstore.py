"""The SQL table store: everything SQLite (:mod:`.sqlite`) and PostgreSQL (:mod:`.postgres`)
do alike, written once.

:class:`SQLStore` holds the tables' logic: creating a table with its seats, the write
transaction (lock the table's row, read the head, call ``build``, append the events with their
chain hashes, commit), the audience filter of every event read, seats, snapshots and settings.
A backend supplies the dialect through a few hooks:

* :meth:`SQLStore._execute` runs one statement written with ``?`` placeholders (PostgreSQL
  turns them into ``%s``);
* :meth:`SQLStore._transaction` runs ``body(conn)`` in a write transaction and commits
  (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: ``BEGIN``, with its retry on a lost connection);
  :meth:`SQLStore._reading` runs ``body(conn)`` for a read;
* :meth:`SQLStore._insert_event` appends one event row and returns its ``seq`` (``lastrowid``
  or ``RETURNING seq``);
* :meth:`SQLStore._notify` tells followers at commit (PostgreSQL's ``pg_notify``; SQLite's
  followers poll ``data_version`` instead) and :meth:`SQLStore._lock_meta` serialises the
  updates of one setting (PostgreSQL's advisory lock; SQLite's write lock already does);
* the class attributes :attr:`SQLStore.LOCK_TABLE_ROW` (``FOR UPDATE`` where the row lock is
  not implied), :attr:`SQLStore.SEAT_ORDER` (the column of the seats' creation order),
  :attr:`SQLStore.RESERVED_META` and :attr:`SQLStore.IntegrityError` (the driver's
  constraint error);
* the column types of :func:`.sqlschema.schema_sql` (the schema, its rows and the event query
  with the audience filter are in :mod:`.sqlschema`).
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import json
import time
from typing import Any, Callable, Sequence

from . import chain
from .sqlschema import (
    EVENT_INSERT,
    HEAD_SQL,
    REQUEST_UPSERT,
    SEAT_COLS,
    SESSION_COLS,
    SESSION_INSERT,
    SNAPSHOT_COLS,
    TABLE_COLS,
    TABLE_INSERT,
    check_seat,
    event_from_row,
    events_query,
    request_from_row,
    request_row,
    requests_query,
    session_from_row,
    table_from_row,
)
from .store import (
    Event,
    Head,
    NewEvent,
    Request,
    SeatRecord,
    SeatRevoked,
    SessionEnded,
    SessionInfo,
    Snapshot,
    Store,
    StoreError,
    TableClosed,
    TableExists,
    TableInfo,
    TableNotFound,
    VersionConflict,
    WriteTx,
    audience_ok,
    dumps,
)


class SQLWriteTx(WriteTx):
    """The :class:`WriteTx` of :meth:`SQLStore.write`: reads go through the open transaction."""

    def __init__(self, store: SQLStore, conn: Any, table_id: str, head: Head, session: SessionInfo, seed_hex: str):
        self._store, self._conn, self.table_id, self.head, self._seed = store, conn, table_id, head, seed_hex
        self.session = session
        self.live = True
        self.changed_requests = False  # followers are told of a write that changed only requests

    def _check_live(self) -> None:
        if not self.live:
            raise StoreError("the write transaction is over")

    def events_after(self, seq: int, audiences: Sequence[str] | None = None) -> list[Event]:
        self._check_live()
        return self._store._select_events(self._conn, self.table_id, seq, audiences, None)

    def secret_seed(self) -> bytes:
        self._check_live()
        if not self.session.is_open:
            raise SessionEnded(f"table {self.table_id!r}: session {self.session.n} has ended")
        return bytes.fromhex(self._seed)

    def end_session(self) -> str:
        self._check_live()
        if not self.session.is_open:
            raise SessionEnded(f"table {self.table_id!r}: session {self.session.n} has already ended")
        now = time.time()
        self._store._execute(
            self._conn,
            "UPDATE sessions SET ended = ? WHERE table_id = ? AND n = ? AND ended IS NULL",
            (now, self.table_id, self.session.n),
        )
        self.session = dataclasses.replace(self.session, ended=now, seed=self._seed)
        return self._seed

    def start_session(self, seed: bytes, seed_hash: str) -> SessionInfo:
        self._check_live()
        if self.session.is_open:
            raise StoreError(f"table {self.table_id!r}: session {self.session.n} is still open")
        info = SessionInfo(self.table_id, self.session.n + 1, seed_hash, time.time())
        self._store._execute(
            self._conn,
            SESSION_INSERT,
            (self.table_id, info.n, seed_hash, bytes(seed).hex(), info.started, None),
        )
        self.session, self._seed = info, bytes(seed).hex()
        return info

    def token_hash(self, seat: str) -> str | None:
        self._check_live()
        row = self._store._execute(
            self._conn, "SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?", (self.table_id, seat)
        ).fetchone()
        return row[0] if row else None

    def set_token_hash(self, seat: str, token_hash: str) -> None:
        self._check_live()
        self._store._update_token(self._conn, self.table_id, seat, token_hash)

    def add_seat(self, seat: SeatRecord) -> None:
        self._check_live()
        check_seat(seat, self.table_id)
        with self._store._savepoint(self._conn):  # a clash leaves the write usable
            self._store._insert_seat(self._conn, seat)

    # -- requests --------------------------------------------------------------------------------
    def requests(self, *, states: Sequence[str] | None = None, ids: Sequence[str] | None = None) -> list[Request]:
        self._check_live()
        return self._store._select_requests(self._conn, self.table_id, None, states, ids)

    def put_request(self, request: Request) -> None:
        self._check_live()
        if request.table_id != self.table_id:
            raise ValueError(f"request {request.id!r} is for table {request.table_id!r}, not {self.table_id!r}")
        self._store._execute(self._conn, REQUEST_UPSERT, request_row(request))
        self.changed_requests = True

    def delete_request(self, request_id: str) -> None:
        self._check_live()
        self._store._execute(
            self._conn, "DELETE FROM requests WHERE table_id = ? AND id = ?", (self.table_id, request_id)
        )
        self.changed_requests = True

    # -- the seat's rate -------------------------------------------------------------------------
    def rate(self, seat: str) -> tuple[float | None, float | None]:
        self._check_live()
        row = self._store._execute(
            self._conn, "SELECT rate_tokens, rate_at FROM seats WHERE table_id = ? AND seat = ?", (self.table_id, seat)
        ).fetchone()
        return (row[0], row[1]) if row else (None, None)

    def set_rate(self, seat: str, tokens: float, at: float) -> None:
        self._check_live()
        self._store._execute(
            self._conn,
            "UPDATE seats SET rate_tokens = ?, rate_at = ? WHERE table_id = ? AND seat = ?",
            (float(tokens), float(at), self.table_id, seat),
        )


class SQLStore(Store):
    """A :class:`Store` on a SQL database; a backend subclasses it with its dialect's hooks."""

    #: appended to the ``SELECT`` that takes a table's write lock (PostgreSQL: ``" FOR UPDATE"``;
    #: SQLite's ``BEGIN IMMEDIATE`` already holds the whole file)
    LOCK_TABLE_ROW = ""
    #: the column that orders a table's seats as they were created
    SEAT_ORDER = "rowid"
    #: settings the store keeps for itself: :meth:`update_meta` refuses them
    RESERVED_META: frozenset[str] = frozenset()
    #: the driver's exception for a violated constraint
    IntegrityError: type[Exception] = Exception

    #: commits through this store object (followers' watches count them: a database's own change
    #: counter may leave out the commits of the connection that watches)
    commits: int = 0

    # -- the dialect ---------------------------------------------------------------------------
    @abc.abstractmethod
    def _execute(self, conn: Any, query: str, args: Sequence[Any] = ()) -> Any:
        """Run one statement written with ``?`` placeholders; return the cursor."""

    @abc.abstractmethod
    def _transaction(self, body: Callable[[Any], Any]) -> Any:
        """Run ``body(conn)`` in a write transaction and commit; return what it returned. If
        anything raises, roll back and raise."""

    @abc.abstractmethod
    def _reading(self, body: Callable[[Any], Any]) -> Any:
        """Run ``body(conn)``, which only reads; return what it returned."""

    @abc.abstractmethod
    def _insert_event(self, conn: Any, query: str, args: Sequence[Any]) -> int:
        """Run ``query`` (an ``INSERT INTO events``) and return the new row's ``seq``."""

    def _notify(self, conn: Any, table_id: str, stored: list[Event]) -> None:  # noqa: B027
        """Inside a write transaction: tell the followers of ``table_id`` at commit (optional)."""

    def _lock_meta(self, conn: Any, key: str) -> None:  # noqa: B027
        """Inside a transaction: wait until no other updater of setting ``key`` is running
        (optional: nothing to do where the write transaction locks the whole store)."""

    def _is_unique_violation(self, exc: Exception) -> bool:
        """Whether ``exc`` (an :attr:`IntegrityError`) is a violated UNIQUE constraint."""
        return True

    # -- shared pieces -------------------------------------------------------------------------
    @contextlib.contextmanager
    def _unique(self, error: Callable[[], Exception]):
        """A UNIQUE constraint violated inside raises ``error()``; any other constraint error
        (a NOT NULL, a foreign key) passes unchanged: it is no conflict to catch up on."""
        try:
            yield
        except self.IntegrityError as exc:
            if not self._is_unique_violation(exc):
                raise
            raise error() from exc

    def _read(self, query: str, args: Sequence[Any] = ()) -> list[tuple]:
        return self._reading(lambda conn: self._execute(conn, query, args).fetchall())

    @contextlib.contextmanager
    def _savepoint(self, conn: Any):
        """A failed statement inside leaves the transaction usable (PostgreSQL would otherwise
        abort the whole transaction)."""
        self._execute(conn, "SAVEPOINT tabletop_step")
        try:
            yield
        except BaseException:
            self._execute(conn, "ROLLBACK TO SAVEPOINT tabletop_step")
            self._execute(conn, "RELEASE SAVEPOINT tabletop_step")
            raise
        self._execute(conn, "RELEASE SAVEPOINT tabletop_step")

    def _locked_table(self, conn: Any, table_id: str) -> tuple[str, float | None]:
        """``(seed, closed)`` of the table, whose row is locked until the transaction ends:
        writers of one table queue here, so the ``seq`` the INSERTs take after this follows
        commit order within the table. Raises :class:`TableNotFound`."""
        row = self._execute(
            conn, "SELECT seed, closed FROM tables WHERE table_id = ?" + self.LOCK_TABLE_ROW, (table_id,)
        ).fetchone()
        if row is None:
            raise TableNotFound(table_id)
        return row[0], row[1]

    def _current_session(self, conn: Any, table_id: str, table_seed: str) -> tuple[SessionInfo, str]:
        """The table's last session (open or ended) and its secret seed, in the write
        transaction (the table's row is locked, so no other writer starts or ends one)."""
        row = self._execute(
            conn, f"SELECT {SESSION_COLS} FROM sessions WHERE table_id = ? ORDER BY n DESC LIMIT 1", (table_id,)
        ).fetchone()
        if row is None:  # a table row written without its session 1 (never by this package)
            (seed_hash, created) = self._execute(
                conn, "SELECT seed_hash, created FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
            self._execute(
                conn,
                SESSION_INSERT,
                (table_id, 1, seed_hash, table_seed, created, None),
            )
            return SessionInfo(table_id, 1, seed_hash, created), table_seed
        return session_from_row(row), row[3]

    def _head(self, conn: Any, table_id: str) -> Head | None:
        row = self._execute(conn, HEAD_SQL, (table_id,)).fetchone()
        if row is None:
            return None
        version, seq, roll, head_hash = row
        return Head(int(version), int(seq), int(roll) + 1, head_hash or "")

    def _insert_seat(self, conn: Any, s: SeatRecord) -> None:
        if self._execute(conn, "SELECT 1 FROM seats WHERE table_id = ? AND seat = ?", (s.table_id, s.seat)).fetchone():
            raise StoreError(f"table {s.table_id!r} already has a seat {s.seat!r}")
        with self._unique(lambda: StoreError(f"seat {s.seat!r}: token already in use")):  # the other UNIQUE
            self._execute(
                conn,
                f"INSERT INTO seats ({SEAT_COLS}) VALUES (?,?,?,?,?,?)",
                (s.table_id, s.seat, s.role, s.token_hash, s.character_id, s.name),
            )

    def _update_token(self, conn: Any, table_id: str, seat: str, token_hash: str) -> None:
        with self._unique(lambda: StoreError(f"seat {seat!r}: token already in use")):
            with self._savepoint(conn):  # a clash leaves the write usable
                cur = self._execute(
                    conn,
                    "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?",
                    (token_hash, table_id, seat),
                )
        if cur.rowcount != 1:
            raise StoreError(f"table {table_id!r} has no seat {seat!r}")

    def _insert(self, conn: Any, table_id: str, head: Head, events: list[NewEvent]) -> list[Event]:
        """Append ``events`` after ``head`` with their versions, roll indices and chain hashes.
        Every event is checked (type, audience, roll index) before it is written."""
        stored: list[Event] = []
        version, next_roll = head.version, head.next_roll
        prev = head.hash
        if version == 0:
            (seed_hash,) = self._execute(
                conn, "SELECT seed_hash FROM tables WHERE table_id = ?", (table_id,)
            ).fetchone()
            prev = chain.genesis(table_id, seed_hash)
        for ev in events:
            if not isinstance(ev, NewEvent):
                raise TypeError(f"build must return NewEvent objects, got {type(ev).__name__}")
            if not audience_ok(ev.audience):
                raise ValueError(f"bad audience {ev.audience!r}")
            if ev.roll is not None:
                if ev.roll != next_roll:  # roll indices have no gaps and no repeats
                    raise VersionConflict(table_id, next_roll, ev.roll)
                next_roll += 1
            version += 1
            payload = dumps(dict(ev.payload))
            row = Event(0, table_id, version, ev.kind, ev.actor, ev.audience, json.loads(payload), time.time(), ev.roll)
            prev = chain.hash_of(prev, row)
            # UNIQUE (table_id, version) or (table_id, roll): another writer came first
            with self._unique(lambda: VersionConflict(table_id, version - 1, None)):
                seq = self._insert_event(
                    conn,
                    EVENT_INSERT,
                    (table_id, version, ev.kind, ev.actor, ev.audience, ev.roll, payload, row.created, prev),
                )
            stored.append(dataclasses.replace(row, seq=int(seq), hash=prev))
        return stored

    def _select_requests(
        self,
        conn: Any,
        table_id: str,
        audiences: Sequence[str] | None,
        states: Sequence[str] | None,
        ids: Sequence[str] | None = None,
    ) -> list[Request]:
        sql = requests_query(table_id, audiences, states, ids)
        if sql is None:
            return []
        return [request_from_row(r) for r in self._execute(conn, *sql).fetchall()]

    def _select_events(
        self, conn: Any, table_id: str, after_seq: int, audiences: Sequence[str] | None, limit: int | None
    ) -> list[Event]:
        """The one event query. The audience filter is in the SQL, so rows a reader may not see
        never reach its process; an empty ``audiences`` sees nothing."""
        sql = events_query(table_id, after_seq, audiences, limit)
        if sql is None:
            return []
        return [event_from_row(r) for r in self._execute(conn, *sql).fetchall()]

    def _write(self, table_id: str, build: Callable, *, close: bool) -> list[Event]:
        def body(conn):
            seed, closed = self._locked_table(conn, table_id)
            if closed is not None:
                raise TableClosed(f"table {table_id!r} is closed")
            session, seed = self._current_session(conn, table_id, seed)
            tx = SQLWriteTx(self, conn, table_id, self._head(conn, table_id), session, seed)
            try:
                events = list(build(tx))
            finally:
                tx.live = False
            stored = self._insert(conn, table_id, tx.head, events)
            if not stored and not tx.changed_requests and not close:
                return stored  # nothing written: no one to tell
            if close:
                now = time.time()
                self._execute(conn, "UPDATE tables SET closed = ? WHERE table_id = ?", (now, table_id))
                self._execute(
                    conn, "UPDATE sessions SET ended = ? WHERE table_id = ? AND ended IS NULL", (now, table_id)
                )
                # a closed table answers nothing more: what waited is gone with it
                self._execute(conn, "DELETE FROM requests WHERE table_id = ?", (table_id,))
            self._notify(conn, table_id, stored)
            return stored

        stored = self._transaction(body)
        self.commits += 1
        return stored

    # -- tables and seats --------------------------------------------------------------------
    def create_table(
        self, table: TableInfo, seed: bytes, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> list[Event]:
        if table.seed is not None or table.closed is not None:
            raise ValueError("a new table is open and its seed is secret: pass seed= separately")
        for s in seats:
            check_seat(s, table.table_id)
        seats, events = list(seats), list(events)

        def body(conn):
            cur = self._execute(
                conn,
                TABLE_INSERT,
                (
                    table.table_id,
                    table.system,
                    table.title,
                    table.created,
                    table.seed_hash,
                    seed.hex(),
                    None,
                    dumps(dict(table.options)),
                ),
            )
            if cur.rowcount != 1:
                raise TableExists(f"table {table.table_id!r} already exists")
            self._execute(
                conn,
                SESSION_INSERT,
                (table.table_id, 1, table.seed_hash, seed.hex(), table.created, None),
            )
            for s in seats:
                self._insert_seat(conn, s)
            stored = self._insert(conn, table.table_id, Head(0, 0, 0), events)
            self._notify(conn, table.table_id, stored)
            return stored

        stored = self._transaction(body)
        self.commits += 1
        return stored

    def get_table(self, table_id: str) -> TableInfo:
        rows = self._read(f"SELECT {TABLE_COLS} FROM tables WHERE table_id = ?", (table_id,))
        if not rows:
            raise TableNotFound(table_id)
        return table_from_row(rows[0])

    def list_tables(self) -> list[TableInfo]:
        return [table_from_row(r) for r in self._read(f"SELECT {TABLE_COLS} FROM tables ORDER BY created")]

    def close_table(self, table_id: str, build: Callable | None = None) -> tuple[TableInfo, list[Event]]:
        stored = self._write(table_id, build or (lambda tx: ()), close=True)
        return self.get_table(table_id), stored

    def seats(self, table_id: str) -> list[SeatRecord]:
        self.get_table(table_id)
        rows = self._read(f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY {self.SEAT_ORDER}", (table_id,))
        return [SeatRecord(*r) for r in rows]

    def sessions(self, table_id: str) -> list[SessionInfo]:
        self.get_table(table_id)
        rows = self._read(f"SELECT {SESSION_COLS} FROM sessions WHERE table_id = ? ORDER BY n", (table_id,))
        return [session_from_row(r) for r in rows]

    def seat_by_token_hash(self, table_id: str, token_hash: str) -> SeatRecord | None:
        rows = self._read(
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? AND token_hash = ?", (table_id, token_hash)
        )
        return SeatRecord(*rows[0]) if rows else None

    def add_seat(self, seat: SeatRecord) -> None:
        check_seat(seat, seat.table_id)

        def body(conn):
            self._locked_table(conn, seat.table_id)
            self._insert_seat(conn, seat)

        self._transaction(body)

    def set_token_hash(self, table_id: str, seat: str, token_hash: str) -> None:
        self._transaction(lambda conn: self._update_token(conn, table_id, seat, token_hash))

    # -- events --------------------------------------------------------------------------------
    def write(self, table_id: str, build: Callable) -> list[Event]:
        return self._write(table_id, build, close=False)

    def events(
        self,
        table_id: str,
        *,
        after_seq: int = 0,
        audiences: Sequence[str] | None = None,
        limit: int | None = None,
        seat: tuple[str, str] | None = None,
    ) -> list[Event]:
        def body(conn):
            self._check_seat(conn, table_id, seat)
            return self._select_events(conn, table_id, after_seq, audiences, limit)

        return self._reading(body)

    def _check_seat(self, conn: Any, table_id: str, seat: tuple[str, str] | None) -> None:
        """A seat-checked read: the seat must still hold the token it joined with."""
        if seat is None:
            return
        row = self._execute(
            conn, "SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat[0])
        ).fetchone()
        if row is None or row[0] != seat[1]:
            raise SeatRevoked(table_id, seat[0])

    def head(self, table_id: str) -> Head:
        head = self._reading(lambda conn: self._head(conn, table_id))
        if head is None:
            raise TableNotFound(table_id)
        return head

    # -- requests ----------------------------------------------------------------------------------
    def requests(
        self,
        table_id: str,
        *,
        audiences: Sequence[str] | None = None,
        states: Sequence[str] | None = None,
        seat: tuple[str, str] | None = None,
    ) -> list[Request]:
        def body(conn):
            self._check_seat(conn, table_id, seat)
            return self._select_requests(conn, table_id, audiences, states)

        return self._reading(body)

    def pending_tables(self) -> list[str]:
        rows = self._read(
            "SELECT DISTINCT table_id FROM requests WHERE state = 'open' OR (kind = 'defence' AND state = 'answered') "
            "ORDER BY table_id"
        )
        return [r[0] for r in rows]

    def purge_requests(self, before: float) -> int:
        def body(conn):
            cur = self._execute(
                conn,
                "DELETE FROM requests WHERE state IN ('refused', 'answered') AND kind <> 'defence' AND updated < ?",
                (float(before),),
            )
            return cur.rowcount or 0

        gone = self._transaction(body)
        if gone:
            self.commits += 1
        return gone

    def max_seq(self, table_id: str | None = None) -> int:
        """The last ``seq`` of ``table_id`` (``None``: of the whole store); 0 when empty."""
        if table_id is None:
            rows = self._read("SELECT COALESCE(MAX(seq), 0) FROM events")
        else:
            rows = self._read("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?", (table_id,))
        return int(rows[0][0])

    # -- snapshots -----------------------------------------------------------------------------
    def save_snapshot(self, snapshot: Snapshot) -> None:
        args = (
            snapshot.table_id,
            snapshot.view,
            snapshot.version,
            snapshot.seq,
            dumps(dict(snapshot.state)),
            snapshot.created,
        )
        self._transaction(
            lambda conn: self._execute(
                conn, f"INSERT INTO snapshots ({SNAPSHOT_COLS}) VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING", args
            )
        )

    def latest_snapshot(self, table_id: str, view: str) -> Snapshot | None:
        rows = self._read(
            f"SELECT {SNAPSHOT_COLS} FROM snapshots WHERE table_id = ? AND view = ? ORDER BY version DESC LIMIT 1",
            (table_id, view),
        )
        if not rows:
            return None
        r = rows[0]
        return Snapshot(
            table_id=r[0], view=r[1], version=int(r[2]), seq=int(r[3]), state=json.loads(r[4]), created=r[5]
        )

    # -- backup and restore (see backup.py) ------------------------------------------------------
    def export_rows(self, table_id: str) -> dict[str, Any]:
        """A table's rows as stored, secrets included (its seeds, the seats' token hashes):
        ``{"table", "seats", "sessions", "events"}``, read in one transaction."""

        def body(conn):
            t = self._execute(conn, f"SELECT {TABLE_COLS} FROM tables WHERE table_id = ?", (table_id,)).fetchone()
            if t is None:
                raise TableNotFound(table_id)
            seats = self._execute(
                conn, f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY {self.SEAT_ORDER}", (table_id,)
            ).fetchall()
            sessions = self._execute(
                conn, f"SELECT {SESSION_COLS} FROM sessions WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            events = self._select_events(conn, table_id, 0, None, None)
            return {
                "table": dict(zip(TABLE_COLS.split(", "), t)),
                "seats": [dict(zip(SEAT_COLS.split(", "), r)) for r in seats],
                "sessions": [dict(zip(SESSION_COLS.split(", "), r)) for r in sessions],
                "events": events,
            }

        return self._transaction(body)

    def restore_rows(self, rows: dict[str, Any], *, replace_head: str | None = None) -> None:
        """Write a table exported by :meth:`export_rows` (checked by the caller) in one
        transaction: its row, seats, sessions and events as they were (versions, roll indices,
        times, chain hashes); ``seq`` is this store's. Raises :class:`TableExists`. With
        ``replace_head`` (the hash of its last event, ``""`` for none), the table's rows are
        deleted first in the same transaction, provided its head is still that one."""
        t = rows["table"]

        def body(conn):
            if replace_head is not None:
                self._delete_table(conn, t["table_id"], replace_head)
            cur = self._execute(
                conn,
                TABLE_INSERT,
                tuple(t[c] for c in TABLE_COLS.split(", ")),
            )
            if cur.rowcount != 1:
                raise TableExists(f"table {t['table_id']!r} already exists in this store")
            for s in rows["seats"]:
                self._insert_seat(conn, SeatRecord(*(s[c] for c in SEAT_COLS.split(", "))))
            for s in rows["sessions"]:
                self._execute(
                    conn,
                    SESSION_INSERT,
                    tuple(s[c] for c in SESSION_COLS.split(", ")),
                )
            stored = []
            for e in rows["events"]:
                seq = self._insert_event(
                    conn,
                    EVENT_INSERT,
                    (
                        e.table_id,
                        e.version,
                        e.kind,
                        e.actor,
                        e.audience,
                        e.roll,
                        dumps(dict(e.payload)),
                        e.created,
                        e.hash,
                    ),
                )
                stored.append(seq)
            self._notify(conn, t["table_id"], [])

        self._transaction(body)
        self.commits += 1

    def _delete_table(self, conn, table_id: str, head: str) -> None:
        """Inside a restore's transaction: every row of ``table_id``, if its head is ``head``."""
        row = self._execute(
            conn, "SELECT hash FROM events WHERE table_id = ? ORDER BY version DESC LIMIT 1", (table_id,)
        ).fetchone()
        if (row[0] if row else "") != head:
            raise StoreError(f"table {table_id!r} changed while it was being replaced: nothing was written")
        for name in ("snapshots", "events", "sessions", "seats", "tables"):
            self._execute(conn, f"DELETE FROM {name} WHERE table_id = ?", (table_id,))

    # -- store-wide settings ------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM tabletop_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def update_meta(self, key: str, fn: Callable[[str | None], str | None]) -> str | None:
        if key in self.RESERVED_META:
            raise ValueError(f"{key} is the store's own setting")

        def body(conn):
            self._lock_meta(conn, key)  # one updater of this key at a time
            row = self._execute(conn, "SELECT value FROM tabletop_meta WHERE key = ?", (key,)).fetchone()
            new = fn(row[0] if row else None)
            if new is None:
                self._execute(conn, "DELETE FROM tabletop_meta WHERE key = ?", (key,))
            else:
                self._execute(
                    conn,
                    "INSERT INTO tabletop_meta (key, value) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, str(new)),
                )
            return new

        new = self._transaction(body)
        self.commits += 1
        return new
