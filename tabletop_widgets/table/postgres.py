"""The table store on PostgreSQL (psycopg 3, the ``postgres`` extra): tables that span machines.

Chosen by ``TABLETOP_DB=postgresql://user:pass@host:port/db`` (see :func:`.store.open_store`).
Same tables and semantics as the SQLite store (:mod:`.sqlite`):

* ``events.seq`` is a ``BIGSERIAL``: one global order. A write first locks the table's row
  (``SELECT ... FOR UPDATE``) and only then inserts (takes ``nextval``), so within a table a
  later commit always has a higher ``seq`` (a follower reading ``seq > last`` misses nothing).
* ``UNIQUE(table_id, version)`` and ``UNIQUE(table_id, roll)`` as in SQLite; a violation is a
  :class:`~.store.VersionConflict`.
* Every write sends ``pg_notify`` *in the same transaction* (PostgreSQL delivers it at commit,
  and only if the transaction commits) on a per-table channel and a store-wide one; the payload
  is only the last ``seq``.
* :meth:`PostgresStore.watch` listens on a dedicated connection (one per store object, shared by
  its watches, run by a small daemon thread that only flips counters and wakes asyncio waiters
  with ``call_soon_threadsafe``; events are always read from the table by the follower in its
  own loop). NOTIFY has no replay, so a watch also reports a change every ``safety_poll``
  seconds (2 s) and after the listening connection reconnects.
* Server restarts: the store reconnects on the next call (a write waits up to
  ``reconnect_timeout`` for the server, a read 2 s, so a follower never blocks its kernel's
  event loop for long); a write whose connection broke *before* ``COMMIT`` was sent is retried once
  on a new connection; if the connection broke *during* ``COMMIT`` the outcome is unknown and
  :class:`~.store.StoreError` says so (a follower will still see the event if it committed).

The URL may carry ``tabletop_schema=<name>`` (stripped before it reaches libpq): the store's
tables then live in that schema (created if missing), e.g. one schema per deployment or per test.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import select
import threading
import time
from typing import Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql

from . import chain
from .store import (
    Event,
    Head,
    NewEvent,
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

log = logging.getLogger(__name__)

#: 2: events carry the chain hash (see chain.py); settings live in tabletop_meta
SCHEMA_VERSION = 2
DEFAULT_SAFETY_POLL = 2.0
READ_RECONNECT_WAIT = 2.0  # seconds a read waits for the server to come back (writes: reconnect_timeout)
SCHEMA_PARAM = "tabletop_schema"
_SCHEMA_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS tabletop_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    table_id   TEXT PRIMARY KEY,
    system     TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    created    DOUBLE PRECISION NOT NULL,
    seed_hash  TEXT NOT NULL,
    seed       TEXT NOT NULL,            -- hex, secret until closed IS NOT NULL
    closed     DOUBLE PRECISION,
    options    TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS seats (
    table_id     TEXT NOT NULL REFERENCES tables(table_id),
    seat         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ({", ".join(repr(r) for r in ROLES)})),
    token_hash   TEXT NOT NULL UNIQUE,   -- hex sha256 of the seat's secret token
    character_id TEXT,
    name         TEXT NOT NULL DEFAULT '',
    n            BIGINT GENERATED ALWAYS AS IDENTITY,  -- creation order (SQLite: rowid)
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    seq       BIGSERIAL PRIMARY KEY,               -- global total order
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    version   BIGINT NOT NULL,                     -- per table: 1, 2, 3 ...
    kind      TEXT NOT NULL,
    actor     TEXT NOT NULL,
    audience  TEXT NOT NULL DEFAULT 'all',         -- 'all' | 'gm' | 'seat:<id>'
    roll      BIGINT,                              -- fair-dice roll index (roll events only)
    payload   TEXT NOT NULL,                       -- canonical JSON, byte for byte as written
    created   DOUBLE PRECISION NOT NULL,
    hash      TEXT,                                -- chain hash (see chain.py)
    UNIQUE (table_id, version),
    UNIQUE (table_id, roll)
);
CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    view      TEXT NOT NULL,
    version   BIGINT NOT NULL,
    seq       BIGINT NOT NULL,
    state     TEXT NOT NULL,
    created   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, view, version)
)
"""

_EVENT_COLS = "seq, table_id, version, kind, actor, audience, payload, created, roll, hash"
_TABLE_COLS = "table_id, system, title, created, seed_hash, seed, closed, options"
_SEAT_COLS = "table_id, seat, role, token_hash, character_id, name"


def split_url(url: str) -> tuple[str, str | None]:
    """``(libpq conninfo URL, schema or None)``: our own ``tabletop_schema`` parameter removed
    (libpq refuses unknown URI parameters)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = None
    kept = []
    for k, v in query:
        if k == SCHEMA_PARAM:
            schema = v
        else:
            kept.append((k, v))
    if schema is not None and not _SCHEMA_RE.match(schema):
        raise ValueError(f"{SCHEMA_PARAM} must be a plain identifier, not {schema!r}")
    return urlunsplit(parts._replace(query=urlencode(kept))), schema


def redact(url: str) -> str:
    """The URL without its password (for messages and reprs)."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.netloc.rsplit("@", 1)[-1]
        user = parts.username or ""
        parts = parts._replace(netloc=f"{user}:***@{host}")
    return urlunsplit(parts)


def channel_name(schema: str, table_id: str | None) -> str:
    """A short, safe LISTEN channel per (schema, table); ``None``: the whole store."""
    key = f"{schema}\0{'*' if table_id is None else 't:' + table_id}"
    return "tt_" + hashlib.sha1(key.encode()).hexdigest()[:24]


def _event(r) -> Event:
    return Event(
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


class _Tx(WriteTx):
    def __init__(self, store: "PostgresStore", conn, table_id: str, head: Head, seed_hex: str):
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
            "SELECT token_hash FROM seats WHERE table_id = %s AND seat = %s", (self.table_id, seat)
        ).fetchone()
        return row[0] if row else None

    def set_token_hash(self, seat: str, token_hash: str) -> None:
        if not self.live:
            raise StoreError("the write transaction is over")
        try:
            with self._conn.transaction():  # a savepoint: a clash leaves the write usable
                cur = self._conn.execute(
                    "UPDATE seats SET token_hash = %s WHERE table_id = %s AND seat = %s",
                    (token_hash, self.table_id, seat),
                )
        except pg_errors.UniqueViolation as exc:
            raise StoreError(f"seat {seat!r}: token already in use") from exc
        if cur.rowcount != 1:
            raise StoreError(f"table {self.table_id!r} has no seat {seat!r}")


# --------------------------------------------------------------------------------------------
# LISTEN: one dedicated connection per store object, run by a daemon thread
# --------------------------------------------------------------------------------------------
class _Listener:
    """Keeps ``LISTEN`` on the channels its watches need; counts notifications per channel;
    reconnects with back-off when the server goes away (and then counts a change on every
    channel, since notifications sent meanwhile are lost)."""

    def __init__(self, conninfo: str, connect_kwargs: dict):
        self.conninfo, self.connect_kwargs = conninfo, connect_kwargs
        self.counts: dict[str, int] = {}  # channel -> generation (bumped after a reconnect)
        self.maxseq: dict[str, int] = {}  # channel -> highest seq notified
        self.waiters: dict[str, set] = {}  # channel -> {(loop, asyncio.Event)}
        self._lock = threading.Lock()
        self._wanted: set[str] = set()
        self._listening: set[str] = set()
        self._acked = threading.Condition(self._lock)
        self._stop = False
        self.connected = False
        self.reconnects = 0
        self.failures = 0  # connection attempts failed since the last success
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self._thread = threading.Thread(target=self._run, name="tabletop-pg-listen", daemon=True)
        self._thread.start()

    # -- used by watches (any thread) ----------------------------------------------------------
    def subscribe(self, channel: str, wait: float = 5.0) -> None:
        """Add ``channel``; return once ``LISTEN`` is in place (or at once when the server is
        unreachable: the reconnect will LISTEN and report a change)."""
        with self._lock:
            self.counts.setdefault(channel, 0)
            self.waiters.setdefault(channel, set())
            self._wanted.add(channel)
            if channel in self._listening:
                return
        self._poke()
        deadline = time.monotonic() + wait
        with self._acked:
            while channel not in self._listening and not self._stop and self.failures == 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._acked.wait(min(left, 0.05))

    def count(self, channel: str) -> int:
        return self.counts.get(channel, 0)

    def notified(self, channel: str) -> int:
        return self.maxseq.get(channel, 0)

    def deliver(self, notes) -> None:
        """``notes``: (channel, payload) pairs; the payload is the writer's last seq."""
        with self._lock:
            wake = []
            for ch, payload in notes:
                if ch not in self.counts:
                    continue
                try:
                    seq = int(payload)
                except ValueError:
                    continue  # a write without events: nothing to read
                if seq > self.maxseq.get(ch, 0):
                    self.maxseq[ch] = seq
                wake.extend(self.waiters.get(ch, ()))
        self._wake(wake)

    def add_waiter(self, channel: str, loop, event) -> None:
        with self._lock:
            self.waiters.setdefault(channel, set()).add((loop, event))

    def remove_waiter(self, channel: str, loop, event) -> None:
        with self._lock:
            self.waiters.get(channel, set()).discard((loop, event))

    def bump(self, channels) -> None:
        with self._lock:
            wake = []
            for ch in channels:
                if ch in self.counts:
                    self.counts[ch] += 1
                    wake.extend(self.waiters.get(ch, ()))
        self._wake(wake)

    @staticmethod
    def _wake(wake) -> None:
        for loop, event in wake:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the loop is closed
                pass

    def _poke(self) -> None:
        try:
            os.write(self._w, b"x")
        except OSError:
            pass

    def close(self) -> None:
        self._stop = True
        self._poke()
        self._thread.join(timeout=2)
        if self._thread.is_alive():
            return  # stuck in a connection attempt: it exits after it; keep its pipe open
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass

    # -- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        conn = None
        delay = 0.05
        ever = False  # connected at least once
        lost = False  # notifications may have been lost: report a change after LISTEN
        while not self._stop:
            if conn is None:
                try:
                    conn = psycopg.connect(self.conninfo, autocommit=True, **self.connect_kwargs)
                except psycopg.Error as exc:
                    log.debug("table listener: cannot connect (%s); retrying in %.2fs", exc, delay)
                    with self._acked:
                        self.failures += 1
                        self._acked.notify_all()
                    self._sleep(delay)
                    delay = min(delay * 2, 2.0)
                    continue
                if ever:
                    self.reconnects += 1
                    lost = True
                ever, delay = True, 0.05
                with self._lock:
                    self._listening = set()
                    self.failures = 0
                self.connected = True
            try:
                with self._lock:
                    todo = self._wanted - self._listening
                for ch in todo:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(ch)))
                if todo:
                    with self._acked:
                        self._listening |= todo
                        self._acked.notify_all()
                if lost:
                    lost = False
                    self.bump(list(self._listening))  # catch up: read seq > last
                r, _, _ = select.select([conn.fileno(), self._r], [], [], 5.0)
                if self._r in r:
                    self._drain_pipe()
                if conn.fileno() in r:
                    got = [(n.channel, n.payload) for n in conn.notifies(timeout=0)]
                    if got:
                        self.deliver(got)
            except (psycopg.Error, OSError, ValueError) as exc:
                if self._stop:
                    break
                log.info("table listener: connection lost (%s); reconnecting", exc)
                try:
                    conn.close()
                except Exception:
                    pass
                conn, lost = None, True
                self.connected = False
                with self._lock:
                    self._listening = set()
                self._sleep(delay)
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def _drain_pipe(self) -> None:
        try:
            while os.read(self._r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _sleep(self, seconds: float) -> None:
        try:
            select.select([self._r], [], [], seconds)
        except (OSError, ValueError):
            pass
        self._drain_pipe()


class _NotifyWatch(Watch):
    """Push: ``LISTEN`` on the table's channel (or the store's), plus this store object's own
    commits. ``wait()`` (the asyncio follower) returns as soon as a notification arrives; every
    ``safety_poll`` seconds it also asks the table itself (NOTIFY has no replay). ``changed()``
    (a synchronous poll) is definitive: a notification already received, else one indexed
    ``max(seq)`` query, so a commit acknowledged to another process is never missed."""

    def __init__(self, store: "PostgresStore", table_id: str | None):
        self._store = store
        self._table_id = table_id
        self._listener = store._get_listener()
        self._channel = channel_name(store.schema_name, table_id)
        self._listener.subscribe(self._channel)
        self._gen = self._listener.count(self._channel)
        self._commits = store._commits
        self._last_probe = time.monotonic()
        self._seq = self._max_seq()

    def _pushed(self) -> bool:
        """A notification of a seq we have not seen, a reconnect, or a commit of our own."""
        changed = False
        n = self._listener.notified(self._channel)
        if n and (self._seq is None or n > self._seq):
            self._seq, changed = n, True
        g, c = self._listener.count(self._channel), self._store._commits
        if g != self._gen or c != self._commits:
            self._gen, self._commits, changed = g, c, True
        return changed

    def _max_seq(self) -> int | None:
        try:
            return self._store._max_seq(self._table_id)
        except StoreError:
            return None  # server away: the next probe reports a change

    def _probe(self) -> bool:
        self._last_probe = time.monotonic()
        seq = self._max_seq()
        if seq is None or self._seq is None or seq > self._seq:
            self._seq = seq
            return True
        return False

    def changed(self) -> bool:
        pushed = self._pushed()
        return self._probe() or pushed

    async def wait(self, timeout: float) -> bool:
        import asyncio

        if self._pushed():
            return True
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._listener.add_waiter(self._channel, loop, event)
        try:
            if self._pushed():  # a notification between the first check and add_waiter
                return True
            until_probe = self._store.safety_poll - (time.monotonic() - self._last_probe)
            try:
                await asyncio.wait_for(event.wait(), max(0.0, min(timeout, until_probe)))
            except asyncio.TimeoutError:
                pass
        finally:
            self._listener.remove_waiter(self._channel, loop, event)
        if self._pushed():
            return True
        if time.monotonic() - self._last_probe >= self._store.safety_poll:
            return self._probe()  # the slow safety poll
        return False


# --------------------------------------------------------------------------------------------
# the store
# --------------------------------------------------------------------------------------------
class PostgresStore(Store):
    """``PostgresStore("postgresql://user:pass@host/db[?tabletop_schema=name]")``.

    ``schema``: the PostgreSQL schema for the tables (default: the URL's ``tabletop_schema``,
    else the connection's ``search_path``); created if missing (a schema replaces any
    ``options`` in the URL with ``-c search_path=<schema>``). ``safety_poll``: seconds between a
    following watch's own look at the table (NOTIFY has no replay). ``reconnect_timeout``: how
    long a write waits for the server to come back before raising :class:`StoreError` (reads:
    2 s). ``connect_timeout``: per connection attempt. ``lock_timeout``: how long a write waits
    for the table's lock."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        safety_poll: float = DEFAULT_SAFETY_POLL,
        reconnect_timeout: float = 15.0,
        connect_timeout: float = 5.0,
        lock_timeout: float = 30.0,
    ):
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://") :]
        self.url = url
        conninfo, url_schema = split_url(url)
        self.schema = schema or url_schema
        if self.schema is not None and not _SCHEMA_RE.match(self.schema):
            raise ValueError(f"schema must be a plain identifier, not {self.schema!r}")
        self.conninfo = conninfo
        self.safety_poll = float(safety_poll)
        self.reconnect_timeout = float(reconnect_timeout)
        self.lock_timeout = float(lock_timeout)
        self._connect_kwargs = {
            "connect_timeout": max(1, int(connect_timeout)),
            "application_name": "tabletop-widgets",
            "keepalives": 1,
            "keepalives_idle": 30,
            "keepalives_interval": 10,
            "keepalives_count": 3,
        }
        if self.schema:
            self._connect_kwargs["options"] = f"-c search_path={self.schema}"
        self._lock = threading.RLock()
        self._conn: psycopg.Connection | None = None
        self._pid = -1
        self._commits = 0
        self.reconnects = 0  # connections replaced after the server went away
        self._listener: _Listener | None = None
        self._listener_pid = -1
        self.schema_name = ""
        self._connect(initial=True)

    # -- connection --------------------------------------------------------------------------
    def _connect(self, initial: bool = False, wait: float | None = None) -> psycopg.Connection:
        if wait is None:
            wait = self.reconnect_timeout
        deadline = time.monotonic() + (0 if initial else wait)
        delay = 0.05
        while True:
            try:
                conn = psycopg.connect(self.conninfo, autocommit=True, **self._connect_kwargs)
                break
            except psycopg.OperationalError as exc:
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"cannot connect to PostgreSQL at {redact(self.conninfo)}: {str(exc).strip()}"
                    ) from exc
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
        try:
            conn.execute(f"SET lock_timeout = {int(self.lock_timeout * 1000)}")
            if initial or not self.schema_name:
                self._ensure_schema(conn)
        except BaseException:
            conn.close()
            raise
        if not initial:
            self.reconnects += 1
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _ensure_schema(self, conn) -> None:
        with conn.transaction():
            # one creator at a time (CREATE ... IF NOT EXISTS races otherwise)
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"tabletop:{self.schema}",))
            if self.schema:
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            self.schema_name = conn.execute("SELECT current_schema()").fetchone()[0]
            if self.schema_name is None:
                raise StoreError("no schema to create the table store in (empty search_path)")
            has_meta = conn.execute("SELECT to_regclass('tabletop_meta') IS NOT NULL").fetchone()[0]
            version = 0
            if has_meta:
                row = conn.execute("SELECT value FROM tabletop_meta WHERE key = 'schema_version'").fetchone()
                version = int(row[0]) if row else 0
            if version == 1:
                # schema 1 -> 2: the chain hash; hashes for the events stored before
                conn.execute("ALTER TABLE events ADD COLUMN IF NOT EXISTS hash TEXT")
                chain.backfill(conn, placeholder="%s")
                conn.execute("UPDATE tabletop_meta SET value = %s WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            elif version == 0:
                for stmt in SCHEMA.split(";"):
                    if stmt.strip():
                        conn.execute(stmt)
                conn.execute(
                    "INSERT INTO tabletop_meta (key, value) VALUES ('schema_version', %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    (str(SCHEMA_VERSION),),
                )
            elif version > SCHEMA_VERSION:
                raise SchemaError(
                    f"{redact(self.url)}: table schema {version} is newer than this "
                    f"tabletop-widgets understands ({SCHEMA_VERSION}); upgrade it"
                )

    def _c(self, wait: float | None = None) -> psycopg.Connection:
        """The connection, reconnecting if it broke (waiting up to ``wait`` seconds for the
        server; default ``reconnect_timeout``)."""
        conn = self._conn
        if conn is None or self._pid != os.getpid() or conn.closed or conn.broken:
            if conn is not None and self._pid == os.getpid():
                try:
                    conn.close()
                except Exception:
                    pass
            self._conn = None  # after fork: never touch the parent's socket
            return self._connect(wait=wait)
        return conn

    def _lost(self, conn) -> bool:
        return conn.closed or conn.broken

    def _read(self, query, args=()) -> list[tuple]:
        """A read-only query; retried once on a new connection if the old one broke. Reads wait
        only briefly for a server that is away (a follower in a kernel's event loop must not
        block it for long; it tries again at its next poll)."""
        with self._lock:
            for attempt in (0, 1):
                conn = self._c(wait=min(READ_RECONNECT_WAIT, self.reconnect_timeout))
                try:
                    return conn.execute(query, args).fetchall()
                except psycopg.OperationalError as exc:
                    if attempt or not self._lost(conn):
                        raise StoreError(f"PostgreSQL: {str(exc).strip()}") from exc
            raise AssertionError("unreachable")

    def _transaction(self, body):
        """Run ``body(conn)`` in a transaction; commit; return its result. A connection that
        broke before ``COMMIT`` was sent: retried once on a new connection. During ``COMMIT``:
        :class:`StoreError` (outcome unknown)."""
        with self._lock:
            for attempt in (0, 1):
                conn = self._c()
                committing = False
                try:
                    conn.execute("BEGIN")
                    result = body(conn)
                    committing = True
                    conn.execute("COMMIT")
                    return result
                except BaseException as exc:
                    lost = self._lost(conn)
                    if not lost:
                        try:
                            conn.execute("ROLLBACK")
                        except psycopg.Error:
                            pass
                    if isinstance(exc, psycopg.OperationalError) and lost:
                        if committing:
                            raise StoreError(
                                "the connection to PostgreSQL broke during COMMIT: the "
                                "write may or may not have happened (a follower will "
                                "see it if it did)"
                            ) from exc
                        if attempt == 0:
                            log.info("table store: connection lost before commit; retrying once")
                            continue
                        raise StoreError(f"PostgreSQL: {str(exc).strip()}") from exc
                    if isinstance(exc, pg_errors.LockNotAvailable):
                        raise StoreError(
                            f"could not take the table's write lock within {self.lock_timeout:g} s"
                        ) from exc
                    raise
            raise AssertionError("unreachable")

    def _get_listener(self) -> _Listener:
        with self._lock:
            if self._listener is None or self._listener_pid != os.getpid():
                self._listener = _Listener(self.conninfo, self._connect_kwargs)
                self._listener_pid = os.getpid()
            return self._listener

    def close(self) -> None:
        with self._lock:
            if self._listener is not None and self._listener_pid == os.getpid():
                self._listener.close()
            self._listener = None
            if self._conn is not None and self._pid == os.getpid():
                try:
                    self._conn.close()
                except Exception:
                    pass
            self._conn = None

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

    def create_table(
        self, table: TableInfo, seed: bytes, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> list[Event]:
        if table.seed is not None or table.closed is not None:
            raise ValueError("a new table is open and its seed is secret: pass seed= separately")
        for s in seats:
            _check_seat(s, table.table_id)
        events = list(events)

        def body(conn):
            cur = conn.execute(
                f"INSERT INTO tables ({_TABLE_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s) "
                "ON CONFLICT (table_id) DO NOTHING",
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
            for s in seats:
                try:
                    conn.execute(
                        f"INSERT INTO seats ({_SEAT_COLS}) VALUES (%s,%s,%s,%s,%s,%s)",
                        (s.table_id, s.seat, s.role, s.token_hash, s.character_id, s.name),
                    )
                except pg_errors.UniqueViolation as exc:
                    raise StoreError(f"seat {s.seat!r}: {exc.diag.message_detail or exc}") from exc
            stored = self._insert(conn, table.table_id, Head(0, 0, 0), events)
            self._notify(conn, table.table_id, stored)
            return stored

        stored = self._transaction(body)
        self._commits += 1
        return stored

    def get_table(self, table_id: str) -> TableInfo:
        rows = self._read(f"SELECT {_TABLE_COLS} FROM tables WHERE table_id = %s", (table_id,))
        if not rows:
            raise TableNotFound(table_id)
        return self._table(rows[0])

    def list_tables(self) -> list[TableInfo]:
        return [self._table(r) for r in self._read(f"SELECT {_TABLE_COLS} FROM tables ORDER BY created")]

    def close_table(self, table_id: str, build=None) -> tuple[TableInfo, list[Event]]:
        stored = self.write(table_id, build or (lambda tx: ()), _close=True)
        return self.get_table(table_id), stored

    def seats(self, table_id: str) -> list[SeatRecord]:
        self.get_table(table_id)
        return [
            SeatRecord(*r)
            for r in self._read(f"SELECT {_SEAT_COLS} FROM seats WHERE table_id = %s ORDER BY n", (table_id,))
        ]

    def seat_by_token_hash(self, table_id: str, token_hash: str) -> SeatRecord | None:
        rows = self._read(
            f"SELECT {_SEAT_COLS} FROM seats WHERE table_id = %s AND token_hash = %s", (table_id, token_hash)
        )
        return SeatRecord(*rows[0]) if rows else None

    def add_seat(self, seat: SeatRecord) -> None:
        _check_seat(seat, seat.table_id)

        def body(conn):
            self._locked_table(conn, seat.table_id)
            if conn.execute(
                "SELECT 1 FROM seats WHERE table_id = %s AND seat = %s", (seat.table_id, seat.seat)
            ).fetchone():
                raise StoreError(f"table {seat.table_id!r} already has a seat {seat.seat!r}")
            try:
                conn.execute(
                    f"INSERT INTO seats ({_SEAT_COLS}) VALUES (%s,%s,%s,%s,%s,%s)",
                    (seat.table_id, seat.seat, seat.role, seat.token_hash, seat.character_id, seat.name),
                )
            except pg_errors.UniqueViolation as exc:
                raise StoreError(f"seat {seat.seat!r}: token already in use") from exc

        self._transaction(body)

    def set_token_hash(self, table_id: str, seat: str, token_hash: str) -> None:
        def body(conn):
            try:
                cur = conn.execute(
                    "UPDATE seats SET token_hash = %s WHERE table_id = %s AND seat = %s", (token_hash, table_id, seat)
                )
            except pg_errors.UniqueViolation as exc:
                raise StoreError(f"seat {seat!r}: token already in use") from exc
            if cur.rowcount != 1:
                raise StoreError(f"table {table_id!r} has no seat {seat!r}")

        self._transaction(body)

    # -- events --------------------------------------------------------------------------------
    @staticmethod
    def _locked_table(conn, table_id: str):
        """Lock the table's row until the transaction ends: writers of one table queue here, so
        ``nextval`` (taken by the INSERTs after this) follows commit order within the table."""
        row = conn.execute("SELECT seed, closed FROM tables WHERE table_id = %s FOR UPDATE", (table_id,)).fetchone()
        if row is None:
            raise TableNotFound(table_id)
        return row

    @staticmethod
    def _head(conn, table_id: str) -> Head:
        version, seq, roll = conn.execute(
            "SELECT COALESCE(MAX(version), 0), COALESCE(MAX(seq), 0), COALESCE(MAX(roll), -1) "
            "FROM events WHERE table_id = %s",
            (table_id,),
        ).fetchone()
        row = conn.execute(
            "SELECT hash FROM events WHERE table_id = %s AND version = %s", (table_id, version)
        ).fetchone()
        return Head(int(version), int(seq), int(roll) + 1, (row[0] or "") if row else "")

    @staticmethod
    def _insert(conn, table_id: str, head: Head, events: list[NewEvent]) -> list[Event]:
        stored: list[Event] = []
        version, next_roll = head.version, head.next_roll
        prev = head.hash
        if version == 0:
            (seed_hash,) = conn.execute("SELECT seed_hash FROM tables WHERE table_id = %s", (table_id,)).fetchone()
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
                (seq,) = conn.execute(
                    "INSERT INTO events (table_id, version, kind, actor, audience, roll, payload, created, "
                    "hash) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING seq",
                    (table_id, version, ev.kind, ev.actor, ev.audience, ev.roll, payload, created, prev),
                ).fetchone()
            except pg_errors.UniqueViolation as exc:
                raise VersionConflict(table_id, version - 1, None) from exc
            stored.append(
                Event(
                    seq=seq,
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

    def _notify(self, conn, table_id: str, stored: list[Event]) -> None:
        """Delivered at COMMIT, and only if it commits. Payload: the last seq (< 8000 bytes)."""
        last = str(stored[-1].seq) if stored else ""
        conn.execute(
            "SELECT pg_notify(%s, %s), pg_notify(%s, %s)",
            (channel_name(self.schema_name, table_id), last, channel_name(self.schema_name, None), last),
        )

    def write(self, table_id: str, build, *, _close: bool = False) -> list[Event]:
        def body(conn):
            seed, closed = self._locked_table(conn, table_id)
            if closed is not None:
                raise TableClosed(f"table {table_id!r} is closed")
            tx = _Tx(self, conn, table_id, self._head(conn, table_id), seed)
            try:
                events = list(build(tx))
            finally:
                tx.live = False
            stored = self._insert(conn, table_id, tx.head, events)
            if _close:
                conn.execute("UPDATE tables SET closed = %s WHERE table_id = %s", (time.time(), table_id))
            self._notify(conn, table_id, stored)
            return stored

        stored = self._transaction(body)
        self._commits += 1
        return stored

    @staticmethod
    def _select_events(conn, table_id, after_seq, audiences, limit) -> list[Event]:
        query = f"SELECT {_EVENT_COLS} FROM events WHERE table_id = %s AND seq > %s"
        args: list = [table_id, int(after_seq)]
        if audiences is not None:
            audiences = list(audiences)
            if not audiences:
                return []
            query += " AND audience = ANY(%s)"
            args.append(audiences)
        query += " ORDER BY seq"
        if limit is not None:
            query += " LIMIT %s"
            args.append(int(limit))
        return [_event(r) for r in conn.execute(query, args).fetchall()]

    def events(
        self, table_id: str, *, after_seq: int = 0, audiences: Sequence[str] | None = None, limit: int | None = None
    ) -> list[Event]:
        with self._lock:
            for attempt in (0, 1):
                conn = self._c(wait=min(READ_RECONNECT_WAIT, self.reconnect_timeout))
                try:
                    return self._select_events(conn, table_id, after_seq, audiences, limit)
                except psycopg.OperationalError as exc:
                    if attempt or not self._lost(conn):
                        raise StoreError(f"PostgreSQL: {str(exc).strip()}") from exc
            raise AssertionError("unreachable")

    def head(self, table_id: str) -> Head:
        rows = self._read(
            "SELECT COALESCE(MAX(e.version), 0), COALESCE(MAX(e.seq), 0), COALESCE(MAX(e.roll), -1), "
            "(SELECT h.hash FROM events h WHERE h.table_id = t.table_id ORDER BY h.version DESC LIMIT 1) "
            "FROM tables t LEFT JOIN events e ON e.table_id = t.table_id WHERE t.table_id = %s "
            "GROUP BY t.table_id",
            (table_id,),
        )
        if not rows:
            raise TableNotFound(table_id)
        version, seq, roll, head_hash = rows[0]
        return Head(int(version), int(seq), int(roll) + 1, head_hash or "")

    # -- snapshots -----------------------------------------------------------------------------
    def save_snapshot(self, snapshot: Snapshot) -> None:
        def body(conn):
            conn.execute(
                "INSERT INTO snapshots (table_id, view, version, seq, state, created) "
                "VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
                (
                    snapshot.table_id,
                    snapshot.view,
                    snapshot.version,
                    snapshot.seq,
                    dumps(dict(snapshot.state)),
                    snapshot.created,
                ),
            )

        self._transaction(body)

    def latest_snapshot(self, table_id: str, view: str) -> Snapshot | None:
        rows = self._read(
            "SELECT table_id, view, version, seq, state, created FROM snapshots "
            "WHERE table_id = %s AND view = %s ORDER BY version DESC LIMIT 1",
            (table_id, view),
        )
        if not rows:
            return None
        r = rows[0]
        return Snapshot(
            table_id=r[0], view=r[1], version=int(r[2]), seq=int(r[3]), state=json.loads(r[4]), created=r[5]
        )

    # -- store-wide settings ------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM tabletop_meta WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    def update_meta(self, key: str, fn) -> str | None:
        if key == "schema_version":
            raise ValueError("schema_version is the store's own setting")

        def body(conn):
            # one updater of this key at a time (the row may not exist yet: lock its name)
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"tabletop-meta:{key}",))
            row = conn.execute("SELECT value FROM tabletop_meta WHERE key = %s", (key,)).fetchone()
            new = fn(row[0] if row else None)
            if new is None:
                conn.execute("DELETE FROM tabletop_meta WHERE key = %s", (key,))
            else:
                conn.execute(
                    "INSERT INTO tabletop_meta (key, value) VALUES (%s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    (key, str(new)),
                )
            return new

        return self._transaction(body)

    # -- following -----------------------------------------------------------------------------
    def _max_seq(self, table_id: str | None) -> int:
        if table_id is None:
            rows = self._read("SELECT COALESCE(MAX(seq), 0) FROM events")
        else:
            rows = self._read("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s", (table_id,))
        return int(rows[0][0])

    def watch(self, table_id: str | None = None) -> Watch:
        return _NotifyWatch(self, table_id)

    def __repr__(self) -> str:
        return f"<PostgresStore {redact(self.conninfo)} schema={self.schema_name}>"


def _check_seat(s: SeatRecord, table_id: str) -> None:
    if s.table_id != table_id:
        raise ValueError(f"seat {s.seat!r} belongs to table {s.table_id!r}, not {table_id!r}")
    if s.role not in ROLES:
        raise ValueError(f"seat {s.seat!r}: role must be one of {ROLES}, not {s.role!r}")
