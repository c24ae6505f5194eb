"""The embedded table store: one SQLite file in WAL mode, no server (single host only: WAL
"does not work over a network filesystem").

Writes take the write lock up front (``BEGIN IMMEDIATE``) and wait up to ``busy_timeout``
for it; followers poll ``PRAGMA data_version``, which changes when *another* connection commits
(never for this connection's own commits, so writers apply their own events themselves).
One connection per store object, guarded by a lock; a store object used after ``fork()``
reconnects in the child. The tables' logic is shared with PostgreSQL (:mod:`.sqlstore`); this
module holds the file (what it is, its set-up and upgrade), the connection and SQLite's dialect.

The file holds the tables' secret dice seeds: it is created private (0600, its folder 0700), and a
file of ours that is not (``touch table.db``, a copy, WAL files left 0644) is made 0600 with its
companions when the store opens it (:func:`make_private`); another user's file is left as it is,
and refused when every local user may read or write it (:class:`StoreFileExposed`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence
from urllib.parse import quote

from .sqlschema import SESSIONS_FROM_TABLES, schema_sql, upgrade_schema
from .sqlstore import SQLStore
from .store import NotAStore, SchemaError, StoreError, Watch

#: 2: events carry the chain hash; the tabletop_meta table; the file is marked (application_id).
#: 3: game sessions (the sessions table: one dice seed per session of a campaign).
#: 4: the request table (requests left the log), the seats' shared rate-limit columns
SCHEMA_VERSION = 4
#: ``PRAGMA application_id`` of our files ("TTW1"): a file without it is never written to,
#: unless it is empty or an unmarked store of schema 1 (then it is upgraded)
APPLICATION_ID = 0x54545731
OUR_TABLES = frozenset(
    {"tables", "seats", "events", "snapshots", "tabletop_meta", "sessions", "requests", "sqlite_sequence"}
)
SCHEMA = schema_sql(seq_key="INTEGER PRIMARY KEY AUTOINCREMENT", integer="INTEGER", real="REAL")

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


class StoreFileExposed(StoreError):
    """A store file of another user that every local user may read or write: refused, left as
    it is (we cannot change another user's file). ``message`` is bilingual."""

    def __init__(self, path: Path, mode: int, owner: int):
        en = (
            f"{path} holds the tables' secret dice seeds, but every local user may read or change it "
            f"(mode {mode:04o}) and it belongs to another user (uid {owner}), so it cannot be made "
            "private from here. Its owner runs `chmod 600` on it (and on its -wal and -shm files), "
            "or choose a file of your own for TABLETOP_DB."
        )
        ru = (
            f"В {path} хранятся секретные ключи кубиков столов, но его может прочитать или изменить "
            f"любой пользователь этой машины (права {mode:04o}), а принадлежит он другому пользователю "
            f"(uid {owner}), так что закрыть его отсюда нельзя. Пусть владелец выполнит для него (и для "
            "файлов -wal и -shm) `chmod 600`, или укажите в TABLETOP_DB свой файл."
        )
        super().__init__(en)
        self.path, self.mode, self.owner = str(path), mode, owner
        self.message = {"en": en, "ru": ru}


#: the files SQLite keeps beside a database in WAL mode (and a rollback journal, from before)
COMPANION_SUFFIXES = ("", "-wal", "-shm", "-journal")


def make_private(path: Path) -> None:
    """The store's file and its companions (:data:`COMPANION_SUFFIXES`) that exist now: a file
    of ours loses every group and other permission (0600); a file of another user is left as
    it is, unless every local user may read or write it, which raises :class:`StoreFileExposed`
    (its owner shares it with a group deliberately: 0640 and 0660 are opened as they are)."""
    for suffix in COMPANION_SUFFIXES:
        p = path.with_name(path.name + suffix)
        try:
            st = os.stat(p)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StoreError(f"{p}: cannot read the table store: {exc.strerror or exc}") from exc
        mode = stat.S_IMODE(st.st_mode)
        if not mode & 0o077:
            continue
        if st.st_uid == os.geteuid():
            try:
                os.chmod(p, mode & 0o700)
            except OSError as exc:
                raise StoreError(f"{p}: cannot make the table store private: {exc.strerror or exc}") from exc
        elif mode & 0o006:
            raise StoreFileExposed(p, mode, st.st_uid)


class _DataVersionWatch(Watch):
    """``PRAGMA data_version`` (other connections' commits) plus this store object's own commit
    counter (so several sessions sharing one store object in a process also see each other)."""

    def __init__(self, store: "SQLiteStore"):
        self._store = store
        self._last = (store.data_version(), store.commits)

    def changed(self) -> bool:
        now = (self._store.data_version(), self._store.commits)
        if now != self._last:
            self._last = now
            return True
        return False


class SQLiteStore(SQLStore):
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
        self.commits = 0  # commits through this object (data_version does not count them)
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
        if str(self.path) != ":memory:":
            make_private(self.path)  # a file that existed before (``touch``, a copy) was 0644
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
                for stmt in SCHEMA:
                    conn.execute(stmt)
            elif version < SCHEMA_VERSION:
                upgrade_schema(
                    conn,
                    version,
                    SCHEMA,
                    add_hash="ALTER TABLE events ADD COLUMN hash TEXT",
                    sessions_from_tables=SESSIONS_FROM_TABLES,
                    add_column="ALTER TABLE {table} ADD COLUMN {column} {type}",
                )
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
            fd = getattr(self, "_resolver_fd", None)
            if fd is not None and getattr(self, "_resolver_pid", None) == os.getpid():
                os.close(fd)  # the resolver's lock goes with it
            self._resolver_fd = None

    def data_version(self) -> int:
        """``PRAGMA data_version``: changes when another connection commits."""
        with self._lock:
            return self._c().execute("PRAGMA data_version").fetchone()[0]

    # -- the dialect (see SQLStore) ------------------------------------------------------------
    IntegrityError = sqlite3.IntegrityError

    def _is_unique_violation(self, exc: Exception) -> bool:
        return "UNIQUE" in str(exc)

    def _execute(self, conn: sqlite3.Connection, query: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return conn.execute(query, args)

    def _insert_event(self, conn: sqlite3.Connection, query: str, args: Sequence[Any]) -> int:
        return conn.execute(query, args).lastrowid

    def _reading(self, body: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            return body(self._c())

    def _transaction(self, body: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            conn = self._c()
            self._begin(conn)
            try:
                result = body(conn)
                conn.execute("COMMIT")
            except BaseException:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
        return result

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

    # -- following -----------------------------------------------------------------------------
    def watch(self, table_id: str | None = None) -> Watch:
        return _DataVersionWatch(self)

    # -- the resolver's lock ---------------------------------------------------------------------
    def hold_resolver(self, table_id: str) -> bool:
        """One resolver serves every table of a SQLite store (one machine): the one that holds
        ``<store>.resolver.lock`` (an exclusive ``flock``, let go by the system when its process
        dies)."""
        import fcntl

        if str(self.path) == ":memory:":
            return True
        with self._lock:
            fd = getattr(self, "_resolver_fd", None)
            if fd is not None and getattr(self, "_resolver_pid", None) == os.getpid():
                return True
            lock_path = self.path.with_name(self.path.name + ".resolver.lock")
            with private_files():
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
            self._resolver_fd, self._resolver_pid = fd, os.getpid()
            return True

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` (``"ok"`` when the file is consistent)."""
        rows = self._reading(lambda conn: conn.execute("PRAGMA integrity_check").fetchall())
        return "; ".join(r[0] for r in rows)

    def __repr__(self) -> str:
        return f"<SQLiteStore {self.path}>"
