"""The table store on PostgreSQL (psycopg 3, the ``postgres`` extra): tables that span machines.

Chosen by ``TABLETOP_DB=postgresql://user:pass@host:port/db`` (see :func:`.store.open_store`).
Same tables and semantics as the SQLite store (:mod:`.sqlite`); the logic both share is in
:mod:`.sqlstore`, and this module holds the dialect:

* ``events.seq`` is a ``BIGSERIAL``: one global order. A write first locks the table's row
  (``SELECT ... FOR UPDATE``) and only then inserts (takes ``nextval``), so within a table a
  later commit always has a higher ``seq`` (a follower reading ``seq > last`` misses nothing).
* ``UNIQUE(table_id, version)`` and ``UNIQUE(table_id, roll)`` as in SQLite; a violation is a
  :class:`~.store.VersionConflict`.
* Every write sends ``pg_notify`` *in the same transaction* (PostgreSQL delivers it at commit,
  and only if the transaction commits) on a per-table channel and a store-wide one; the payload
  is only the last ``seq``.
* :meth:`PostgresStore.watch` listens on a dedicated connection (one per store object, shared by
  its watches; see :mod:`.pg_listen`). NOTIFY has no replay, so a watch also reports a change
  every ``safety_poll`` seconds (2 s) and after the listening connection reconnects.
* Server restarts: the store reconnects on the next call (a write waits up to
  ``reconnect_timeout`` for the server, a read 2 s, so a follower never blocks its kernel's
  event loop for long); a write whose connection broke *before* ``COMMIT`` was sent is retried once
  on a new connection; if the connection broke *during* ``COMMIT`` the outcome is unknown and
  :class:`~.store.StoreError` says so (a follower will still see the event if it committed).

The URL may carry ``tabletop_schema=<name>`` (stripped before it reaches libpq): the store's
tables then live in that schema (created if missing), e.g. one schema per deployment or per test.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
import threading
import time
from typing import Any, Callable, Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql

from .pg_listen import Listener, NotifyWatch, channel_name
from .sqlschema import SESSIONS_FROM_TABLES, schema_sql, upgrade_schema
from .sqlstore import SQLStore
from .store import SchemaError, StoreError, Watch

log = logging.getLogger(__name__)

#: 2: events carry the chain hash (see chain.py); settings live in tabletop_meta.
#: 3: game sessions (the sessions table: one dice seed per session of a campaign).
#: 4: the request table (requests left the log), the seats' shared rate-limit columns
SCHEMA_VERSION = 4
DEFAULT_SAFETY_POLL = 2.0
READ_RECONNECT_WAIT = 2.0  # seconds a read waits for the server to come back (writes: reconnect_timeout)
SCHEMA_PARAM = "tabletop_schema"
_SCHEMA_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")

SCHEMA = schema_sql(
    seq_key="BIGSERIAL PRIMARY KEY",
    integer="BIGINT",
    real="DOUBLE PRECISION",
    seat_order="n BIGINT GENERATED ALWAYS AS IDENTITY",  # creation order (SQLite: rowid)
)


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


# --------------------------------------------------------------------------------------------
# the store
# --------------------------------------------------------------------------------------------
class PostgresStore(SQLStore):
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
        self.commits = 0  # commits through this object (its watches count them)
        self.reconnects = 0  # connections replaced after the server went away
        self._listener: Listener | None = None
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
            if 1 <= version < SCHEMA_VERSION:
                # one transaction (this one) for the whole upgrade
                upgrade_schema(
                    conn,
                    version,
                    SCHEMA,
                    add_hash="ALTER TABLE events ADD COLUMN IF NOT EXISTS hash TEXT",
                    sessions_from_tables=SESSIONS_FROM_TABLES,
                    add_column="ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {type}",
                    placeholder="%s",
                )
                conn.execute("UPDATE tabletop_meta SET value = %s WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            elif version == 0:
                for stmt in SCHEMA:
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

    def _reading(self, body: Callable[[psycopg.Connection], Any]) -> Any:
        """Run ``body(conn)``, which only reads; retried once on a new connection if the old
        one broke. Reads wait only briefly for a server that is away (a follower in a kernel's
        event loop must not block it for long; it tries again at its next poll)."""
        with self._lock:
            for attempt in (0, 1):
                conn = self._c(wait=min(READ_RECONNECT_WAIT, self.reconnect_timeout))
                try:
                    return body(conn)
                except psycopg.OperationalError as exc:
                    if attempt or not self._lost(conn):
                        raise StoreError(f"PostgreSQL: {str(exc).strip()}") from exc
            raise AssertionError("unreachable")

    def _transaction(self, body: Callable[[psycopg.Connection], Any]) -> Any:
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

    def _get_listener(self) -> Listener:
        with self._lock:
            if self._listener is None or self._listener_pid != os.getpid():
                self._listener = Listener(self.conninfo, self._connect_kwargs)
                self._listener_pid = os.getpid()
            return self._listener

    def close(self) -> None:
        with self._lock:
            listener, conn, ours = self._listener, self._conn, (self._listener_pid, self._pid)
            self._listener = self._conn = None
            lock_conn, self._lock_conn = getattr(self, "_lock_conn", None), None
            if lock_conn is not None and getattr(self, "_lock_pid", None) == os.getpid():
                with contextlib.suppress(Exception):
                    lock_conn.close()  # the resolver locks go with it
        # after fork, the parent's listener and socket are never touched
        if listener is not None and ours[0] == os.getpid():
            listener.close()
        if conn is not None and ours[1] == os.getpid():
            with contextlib.suppress(Exception):
                conn.close()

    # -- the dialect (see SQLStore) ------------------------------------------------------------
    LOCK_TABLE_ROW = " FOR UPDATE"
    SEAT_ORDER = "n"
    RESERVED_META = frozenset({"schema_version"})
    IntegrityError = psycopg.IntegrityError

    def _is_unique_violation(self, exc: Exception) -> bool:
        return isinstance(exc, pg_errors.UniqueViolation)

    def _execute(self, conn: psycopg.Connection, query: str, args: Sequence[Any] = ()) -> psycopg.Cursor:
        return conn.execute(_pyformat(query), args)

    def _insert_event(self, conn: psycopg.Connection, query: str, args: Sequence[Any]) -> int:
        return conn.execute(_pyformat(query + " RETURNING seq"), args).fetchone()[0]

    def _notify(self, conn: psycopg.Connection, table_id: str, stored: list) -> None:
        """Delivered at COMMIT, and only if it commits. Payload: the last seq (< 8000 bytes), or
        ``"r"`` for a write that changed only requests (followers read their requests again)."""
        last = str(stored[-1].seq) if stored else "r"
        conn.execute(
            "SELECT pg_notify(%s, %s), pg_notify(%s, %s)",
            (channel_name(self.schema_name, table_id), last, channel_name(self.schema_name, None), last),
        )

    def _lock_meta(self, conn: psycopg.Connection, key: str) -> None:
        # the row may not exist yet: lock its name
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"tabletop-meta:{key}",))

    # -- the resolver's lock ---------------------------------------------------------------------
    def hold_resolver(self, table_id: str) -> bool:
        """The table's resolver lock: a PostgreSQL advisory lock (per schema and table) held on a
        connection of this store's own, so several servers share the tables and each table is
        served by one; the server lets it go when the connection (its process) dies."""
        with self._lock:
            conn = getattr(self, "_lock_conn", None)
            held: set = getattr(self, "_held", set())
            if conn is None or self._lock_pid != os.getpid() or conn.closed or conn.broken:
                # named, so an operator sees in pg_stat_activity which process serves which table
                named = {**self._connect_kwargs, "application_name": f"tabletop-resolver {os.getpid()}"}
                try:
                    conn = psycopg.connect(self.conninfo, autocommit=True, **named)
                except psycopg.OperationalError:
                    return False
                self._lock_conn, self._lock_pid, held = conn, os.getpid(), set()
                self._held = held
            if table_id in held:
                return True
            key = f"tabletop-resolver:{self.schema_name}:{table_id}"
            try:
                got = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,)).fetchone()[0]
            except psycopg.Error:
                self._lock_conn = None
                return False
            if got:
                held.add(table_id)
            return bool(got)

    # -- following -----------------------------------------------------------------------------
    def watch(self, table_id: str | None = None) -> Watch:
        """Push: ``LISTEN`` on the table's channel (or the store's), plus this store object's own
        commits, with a slow safety poll (see :class:`.pg_listen.NotifyWatch`)."""
        return NotifyWatch(
            self._get_listener(),
            channel_name(self.schema_name, table_id),
            max_seq=lambda: self.max_seq(table_id),
            commits=lambda: self.commits,
            safety_poll=lambda: self.safety_poll,
        )

    def __repr__(self) -> str:
        return f"<PostgresStore {redact(self.conninfo)} schema={self.schema_name}>"


@functools.lru_cache(maxsize=256)
def _pyformat(query: str) -> str:
    """A statement written with ``?`` placeholders in psycopg's ``%s`` style."""
    return query.replace("%", "%%").replace("?", "%s")
