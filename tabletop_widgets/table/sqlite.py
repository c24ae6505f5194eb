"""The embedded table store: one SQLite file in WAL mode, no server (single host only: WAL
"does not work over a network filesystem").

Writes take the write lock up front (``BEGIN IMMEDIATE``) and wait up to ``busy_timeout``
for it; followers poll ``PRAGMA data_version``, which changes when *another* connection commits
(never for this connection's own commits, so writers apply their own events themselves).
One connection per store object, guarded by a lock; a store object used after ``fork()``
reconnects in the child.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import quote

from . import chain
from .store import (
    Event,
    Head,
    NewEvent,
    NotAStore,
    SchemaError,
    SeatRecord,
    Snapshot,
    Store,
    StoreError,
    TableClosed,
    TableExists,
    TableInfo,
    TableNotFound,
    VersionConflict,
    Watch,
    WriteTx,
    audience_ok,
    dumps,
    ROLES,
)

#: 2: events carry the chain hash; the tabletop_meta table; the file is marked (application_id)
SCHEMA_VERSION = 2
#: ``PRAGMA application_id`` of our files ("TTW1"): a file without it is never written to,
#: unless it is empty or an unmarked store of schema 1 (then it is upgraded)
APPLICATION_ID = 0x54545731
OUR_TABLES = frozenset({"tables", "seats", "events", "snapshots", "tabletop_meta", "sqlite_sequence"})

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS tables (
    table_id   TEXT PRIMARY KEY,
    system     TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    created    REAL NOT NULL,
    seed_hash  TEXT NOT NULL,
    seed       TEXT NOT NULL,            -- hex, secret until closed IS NOT NULL
    closed     REAL,
    options    TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS seats (
    table_id     TEXT NOT NULL REFERENCES tables(table_id),
    seat         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ({", ".join(repr(r) for r in ROLES)})),
    token_hash   TEXT NOT NULL UNIQUE,   -- hex sha256 of the seat's secret token
    character_id TEXT,
    name         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,   -- global total order
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    version   INTEGER NOT NULL,                    -- per table: 1, 2, 3 ...
    kind      TEXT NOT NULL,
    actor     TEXT NOT NULL,
    audience  TEXT NOT NULL DEFAULT 'all',         -- 'all' | 'gm' | 'seat:<id>'
    roll      INTEGER,                             -- fair-dice roll index (roll events only)
    payload   TEXT NOT NULL,                       -- JSON
    created   REAL NOT NULL,
    hash      TEXT,                                -- chain hash (see chain.py)
    UNIQUE (table_id, version),
    UNIQUE (table_id, roll)
);
CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    view      TEXT NOT NULL,
    version   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    state     TEXT NOT NULL,
    created   REAL NOT NULL,
    PRIMARY KEY (table_id, view, version)
);
CREATE TABLE IF NOT EXISTS tabletop_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

_UMASK_LOCK = threading.Lock()


@contextlib.contextmanager
def private_files():
    """Files and directories created inside are private to their owner (0600 / 0700) from the
    start: umask 077 around the creation (the umask is per process: a lock keeps two stores of
    one process from interleaving their restores)."""
    with _UMASK_LOCK:
        old = os.umask(0o077)
        try:
            yield
        finally:
            os.umask(old)


class _Tx(WriteTx):
    def __init__(self, store: "SQLiteStore", conn: sqlite3.Connection, table_id: str, head: Head, seed_hex: str):
        self._store, self._conn, self.table_id, self.head, self._seed = store, conn, table_id, head, seed_hex
        self.live = True

    def events_after(self, seq: int, audiences: Sequence[str] | None = None) -> list[Event]:
        if not self.live:
            raise StoreError("the write transaction is over")
        return self._store._select_events(self._conn, self.table_id, seq, audiences, None)

    def secret_seed(self) -> bytes:
        if not self.live:
            raise StoreError("the write transaction is over")
        return bytes.fromhex(self._seed)

    def token_hash(self, seat: str) -> str | None:
        if not self.live:
            raise StoreError("the write transaction is over")
        row = self._conn.execute(
            "SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?", (self.table_id, seat)
        ).fetchone()
        return row[0] if row else None

    def set_token_hash(self, seat: str, token_hash: str) -> None:
        if not self.live:
            raise StoreError("the write transaction is over")
        try:
            cur = self._conn.execute(
                "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?", (token_hash, self.table_id, seat)
            )
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"seat {seat!r}: token already in use") from exc
        if cur.rowcount != 1:
            raise StoreError(f"table {self.table_id!r} has no seat {seat!r}")


class _DataVersionWatch(Watch):
    """``PRAGMA data_version`` (other connections' commits) plus this store object's own commit
    counter (so several sessions sharing one store object in a process also see each other)."""

    def __init__(self, store: "SQLiteStore"):
        self._store = store
        self._last = (store._data_version(), store._commits)

    def changed(self) -> bool:
        now = (self._store._data_version(), self._store._commits)
        if now != self._last:
            self._last = now
            return True
        return False


class SQLiteStore(Store):
    """``SQLiteStore(path)``: the file and its directory are created. ``synchronous`` is
    SQLite's setting: ``"FULL"`` (default: a commit is on disk before :meth:`write` returns, even
    across an OS crash) or ``"NORMAL"`` (faster; survives process crashes, may lose the last
    commits on power loss, never corrupts)."""

    def __init__(self, path: str | os.PathLike, *, busy_timeout: float = 10.0, synchronous: str = "FULL"):
        self.path = Path(path)
        self.url = str(self.path)
        self.busy_timeout = busy_timeout
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.synchronous = synchronous.upper()
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1
        self._commits = 0  # commits through this object (data_version does not count them)
        if str(self.path) != ":memory:" and not self.path.parent.exists():
            # the file holds the tables' secret seeds: keep it private to its owner
            with private_files():
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._connect()

    # -- connection --------------------------------------------------------------------------
    def _classify(self) -> str:
        """What the file is, read without writing a byte: ``"new"`` (missing, empty, or an
        empty database), ``"ours"``, ``"legacy"`` (an unmarked store of schema 1). Anything else
        raises :class:`NotAStore`."""
        if str(self.path) == ":memory:" or not self.path.exists():
            return "new"
        try:
            if self.path.stat().st_size == 0:
                return "new"
            with open(self.path, "rb") as f:
                magic = f.read(16)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read the table store: {exc.strerror or exc}") from exc
        if magic != b"SQLite format 3\x00":
            raise NotAStore(str(self.path), foreign=False)
        try:
            ro = sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?mode=ro", uri=True, timeout=self.busy_timeout)
            try:
                app_id = ro.execute("PRAGMA application_id").fetchone()[0]
                version = ro.execute("PRAGMA user_version").fetchone()[0]
                names = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                ro.close()
        except sqlite3.DatabaseError as exc:
            raise NotAStore(str(self.path), foreign=False, detail=str(exc)) from exc
        if app_id == APPLICATION_ID:
            return "ours"
        if app_id == 0 and version == 0 and not names:
            return "new"
        if app_id == 0 and version == 1 and {"tables", "seats", "events", "snapshots"} <= names and names <= OUR_TABLES:
            return "legacy"
        raise NotAStore(str(self.path), foreign=True, detail=f"application_id {app_id}, tables {sorted(names)[:6]}")

    def _connect(self) -> sqlite3.Connection:
        kind = self._classify()  # before anything that writes (journal_mode, schema)
        try:
            with private_files():  # the main file, -wal and -shm: 0600 from the start
                conn = sqlite3.connect(
                    str(self.path), timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
                )
                try:
                    self._setup(conn, kind)
                except BaseException:
                    conn.close()
                    raise
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: the table store cannot be opened: {exc}") from exc
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _setup(self, conn: sqlite3.Connection, kind: str) -> None:
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal" and str(self.path) != ":memory:":
            raise StoreError(
                f"{self.path}: could not switch to WAL mode (got {mode!r}); is it on a network filesystem?"
            )
        conn.execute(f"PRAGMA synchronous = {self.synchronous}")
        conn.execute("PRAGMA foreign_keys = ON")
        if kind == "ours" and conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # look again under the write lock: another kernel may have set the file up meanwhile
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if app_id not in (0, APPLICATION_ID) or (app_id == 0 and version not in (0, 1)):
                raise NotAStore(str(self.path), foreign=True, detail=f"application_id {app_id}")
            if version > SCHEMA_VERSION:
                raise SchemaError(
                    f"{self.path}: table schema {version} is newer than this "
                    f"tabletop-widgets understands ({SCHEMA_VERSION}); upgrade it"
                )
            if version == 0:
                if names:
                    raise NotAStore(str(self.path), foreign=True, detail=f"tables {sorted(names)[:6]}")
                for stmt in SCHEMA.split(";"):
                    if stmt.strip():
                        conn.execute(stmt)
            elif version == 1:
                # schema 1 -> 2: the chain hash, the settings table; hashes for the old events
                conn.execute("ALTER TABLE events ADD COLUMN hash TEXT")
                conn.execute("CREATE TABLE IF NOT EXISTS tabletop_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                chain.backfill(conn)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _c(self) -> sqlite3.Connection:
        if self._conn is None or self._pid != os.getpid():
            # after fork: never touch the parent's connection (it shares file locks)
            self._conn = None
            return self._connect()
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def _data_version(self) -> int:
        with self._lock:
            return self._c().execute("PRAGMA data_version").fetchone()[0]

    def _read(self, sql: str, args=()) -> list[tuple]:
        with self._lock:
            return self._c().execute(sql, args).fetchall()

    def _begin(self, conn: sqlite3.Connection) -> None:
        # sqlite3's own timeout covers BEGIN IMMEDIATE; retry a few times on a stubborn lock
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise StoreError(f"{self.path}: could not take the write lock: {exc}") from exc
                time.sleep(0.005)

    # -- tables and seats --------------------------------------------------------------------
    @staticmethod
    def _table(row) -> TableInfo:
        table_id, system, title, created, seed_hash, seed, closed, options = row
        return TableInfo(
            table_id=table_id,
            system=system,
            title=title,
            created=created,
            seed_hash=seed_hash,
            closed=closed,
            seed=seed if closed is not None else None,
            options=json.loads(options),
        )

    _TABLE_COLS = "table_id, system, title, created, seed_hash, seed, closed, options"

    def create_table(
        self, table: TableInfo, seed: bytes, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> list[Event]:
        if table.seed is not None or table.closed is not None:
            raise ValueError("a new table is open and its seed is secret: pass seed= separately")
        for s in seats:
            _check_seat(s, table.table_id)
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                if conn.execute("SELECT 1 FROM tables WHERE table_id = ?", (table.table_id,)).fetchone():
                    raise TableExists(f"table {table.table_id!r} already exists")
                conn.execute(
                    f"INSERT INTO tables ({self._TABLE_COLS}) VALUES (?,?,?,?,?,?,?,?)",
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
                for s in seats:
                    conn.execute(
                        "INSERT INTO seats (table_id, seat, role, token_hash, character_id, name) VALUES (?,?,?,?,?,?)",
                        (s.table_id, s.seat, s.role, s.token_hash, s.character_id, s.name),
                    )
                stored = self._insert(conn, table.table_id, Head(0, 0, 0), list(events))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return stored

    def get_table(self, table_id: str) -> TableInfo:
        rows = self._read(f"SELECT {self._TABLE_COLS} FROM tables WHERE table_id = ?", (table_id,))
        if not rows:
            raise TableNotFound(table_id)
        return self._table(rows[0])

    def list_tables(self) -> list[TableInfo]:
        return [self._table(r) for r in self._read(f"SELECT {self._TABLE_COLS} FROM tables ORDER BY created")]

    def close_table(self, table_id: str, build=None) -> tuple[TableInfo, list[Event]]:
        stored = self.write(table_id, build or (lambda tx: ()), _close=True)
        return self.get_table(table_id), stored

    @staticmethod
    def _seat(row) -> SeatRecord:
        return SeatRecord(*row)

    _SEAT_COLS = "table_id, seat, role, token_hash, character_id, name"

    def seats(self, table_id: str) -> list[SeatRecord]:
        self.get_table(table_id)
        return [
            self._seat(r)
            for r in self._read(f"SELECT {self._SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY rowid", (table_id,))
        ]

    def seat_by_token_hash(self, table_id: str, token_hash: str) -> SeatRecord | None:
        rows = self._read(
            f"SELECT {self._SEAT_COLS} FROM seats WHERE table_id = ? AND token_hash = ?", (table_id, token_hash)
        )
        return self._seat(rows[0]) if rows else None

    def add_seat(self, seat: SeatRecord) -> None:
        _check_seat(seat, seat.table_id)
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                self._locked_table(conn, seat.table_id)
                if conn.execute(
                    "SELECT 1 FROM seats WHERE table_id = ? AND seat = ?", (seat.table_id, seat.seat)
                ).fetchone():
                    raise StoreError(f"table {seat.table_id!r} already has a seat {seat.seat!r}")
                conn.execute(
                    f"INSERT INTO seats ({self._SEAT_COLS}) VALUES (?,?,?,?,?,?)",
                    (seat.table_id, seat.seat, seat.role, seat.token_hash, seat.character_id, seat.name),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def set_token_hash(self, table_id: str, seat: str, token_hash: str) -> None:
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                cur = conn.execute(
                    "UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?", (token_hash, table_id, seat)
                )
                if cur.rowcount != 1:
                    raise StoreError(f"table {table_id!r} has no seat {seat!r}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    # -- events --------------------------------------------------------------------------------
    def _locked_table(self, conn, table_id: str):
        row = conn.execute("SELECT seed, closed FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        if row is None:
            raise TableNotFound(table_id)
        return row

    def _head(self, conn, table_id: str) -> Head:
        version, seq, roll = conn.execute(
            "SELECT COALESCE(MAX(version), 0), COALESCE(MAX(seq), 0), COALESCE(MAX(roll), -1) "
            "FROM events WHERE table_id = ?",
            (table_id,),
        ).fetchone()
        row = conn.execute("SELECT hash FROM events WHERE table_id = ? AND version = ?", (table_id, version)).fetchone()
        return Head(version, seq, roll + 1, (row[0] or "") if row else "")

    def _insert(self, conn, table_id: str, head: Head, events: list[NewEvent]) -> list[Event]:
        stored: list[Event] = []
        version, next_roll = head.version, head.next_roll
        prev = head.hash
        if version == 0:
            (seed_hash,) = conn.execute("SELECT seed_hash FROM tables WHERE table_id = ?", (table_id,)).fetchone()
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
            created = time.time()
            payload = dumps(dict(ev.payload))
            prev = chain.event_hash(
                prev,
                table_id=table_id,
                version=version,
                kind=ev.kind,
                actor=ev.actor,
                audience=ev.audience,
                roll=ev.roll,
                payload=json.loads(payload),
                created=created,
            )
            try:
                cur = conn.execute(
                    "INSERT INTO events (table_id, version, kind, actor, audience, roll, payload, created, "
                    "hash) VALUES (?,?,?,?,?,?,?,?,?)",
                    (table_id, version, ev.kind, ev.actor, ev.audience, ev.roll, payload, created, prev),
                )
            except sqlite3.IntegrityError as exc:
                if "UNIQUE" in str(exc):
                    raise VersionConflict(table_id, version - 1, None) from exc
                raise
            stored.append(
                Event(
                    seq=cur.lastrowid,
                    table_id=table_id,
                    version=version,
                    kind=ev.kind,
                    actor=ev.actor,
                    audience=ev.audience,
                    payload=json.loads(payload),
                    created=created,
                    roll=ev.roll,
                    hash=prev,
                )
            )
        return stored

    def write(self, table_id: str, build, *, _close: bool = False) -> list[Event]:
        with self._lock:
            conn = self._c()
            self._begin(conn)
            tx = None
            try:
                seed, closed = self._locked_table(conn, table_id)
                if closed is not None:
                    raise TableClosed(f"table {table_id!r} is closed")
                tx = _Tx(self, conn, table_id, self._head(conn, table_id), seed)
                events = list(build(tx))
                tx.live = False
                stored = self._insert(conn, table_id, tx.head, events)
                if _close:
                    conn.execute("UPDATE tables SET closed = ? WHERE table_id = ?", (time.time(), table_id))
                conn.execute("COMMIT")
                self._commits += 1
            except BaseException:
                if tx is not None:
                    tx.live = False
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
        return stored

    def _select_events(self, conn, table_id, after_seq, audiences, limit) -> list[Event]:
        sql = (
            "SELECT seq, table_id, version, kind, actor, audience, payload, created, roll, hash "
            "FROM events WHERE table_id = ? AND seq > ?"
        )
        args: list = [table_id, int(after_seq)]
        if audiences is not None:
            audiences = list(audiences)
            if not audiences:
                return []
            sql += f" AND audience IN ({','.join('?' * len(audiences))})"
            args += audiences
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [
            Event(
                seq=r[0],
                table_id=r[1],
                version=r[2],
                kind=r[3],
                actor=r[4],
                audience=r[5],
                payload=json.loads(r[6]),
                created=r[7],
                roll=r[8],
                hash=r[9] or "",
            )
            for r in conn.execute(sql, args).fetchall()
        ]

    def events(
        self, table_id: str, *, after_seq: int = 0, audiences: Sequence[str] | None = None, limit: int | None = None
    ) -> list[Event]:
        with self._lock:
            return self._select_events(self._c(), table_id, after_seq, audiences, limit)

    def head(self, table_id: str) -> Head:
        with self._lock:
            conn = self._c()
            self._locked_table(conn, table_id)
            return self._head(conn, table_id)

    # -- snapshots -----------------------------------------------------------------------------
    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                conn.execute(
                    "INSERT OR IGNORE INTO snapshots (table_id, view, version, seq, state, created) "
                    "VALUES (?,?,?,?,?,?)",
                    (
                        snapshot.table_id,
                        snapshot.view,
                        snapshot.version,
                        snapshot.seq,
                        dumps(dict(snapshot.state)),
                        snapshot.created,
                    ),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def latest_snapshot(self, table_id: str, view: str) -> Snapshot | None:
        rows = self._read(
            "SELECT table_id, view, version, seq, state, created FROM snapshots "
            "WHERE table_id = ? AND view = ? ORDER BY version DESC LIMIT 1",
            (table_id, view),
        )
        if not rows:
            return None
        r = rows[0]
        return Snapshot(table_id=r[0], view=r[1], version=r[2], seq=r[3], state=json.loads(r[4]), created=r[5])

    # -- store-wide settings ------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM tabletop_meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def update_meta(self, key: str, fn: Callable[[str | None], str | None]) -> str | None:
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                row = conn.execute("SELECT value FROM tabletop_meta WHERE key = ?", (key,)).fetchone()
                new = fn(row[0] if row else None)
                if new is None:
                    conn.execute("DELETE FROM tabletop_meta WHERE key = ?", (key,))
                else:
                    conn.execute(
                        "INSERT INTO tabletop_meta (key, value) VALUES (?, ?) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        (key, str(new)),
                    )
                conn.execute("COMMIT")
                self._commits += 1
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return new

    # -- following -----------------------------------------------------------------------------
    def watch(self, table_id: str | None = None) -> Watch:
        return _DataVersionWatch(self)

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` (``"ok"`` when the file is consistent)."""
        return "; ".join(r[0] for r in self._read("PRAGMA integrity_check"))

    def __repr__(self) -> str:
        return f"<SQLiteStore {self.path}>"


def _check_seat(s: SeatRecord, table_id: str) -> None:
    if s.table_id != table_id:
        raise ValueError(f"seat {s.seat!r} belongs to table {s.table_id!r}, not {table_id!r}")
    if s.role not in ROLES:
        raise ValueError(f"seat {s.seat!r}: role must be one of {ROLES}, not {s.role!r}")
