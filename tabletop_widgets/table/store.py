"""The table store interface: what every backend (SQLite now, PostgreSQL later) implements.

The store is an append-only, totally ordered event log per table plus three small tables
(tables, seats, snapshots). It knows nothing about rules, roles or widgets: the session
(:mod:`.session`) does the role checks and builds the events; the store only keeps them.

Semantics every backend must give (the store test suite, ``tests/table/test_store.py``, checks
them against each backend through one parametrised fixture):

* ``seq`` is one global, strictly increasing order over all tables (gaps allowed: other tables).
  Within a table, seq order is commit order: an event committed later has a higher ``seq`` than
  every event of that table committed before it, so a reader that has everything up to
  ``seq = s`` and then reads ``seq > s`` misses nothing. (SQLite: writers are serialised by
  ``BEGIN IMMEDIATE``. PostgreSQL: take ``nextval`` only after the table row's lock, else a
  sequence value taken earlier can commit later and a follower would skip it.)
* ``version`` numbers a table's events 1, 2, 3 ... with no gaps; ``UNIQUE(table_id, version)``
  is the optimistic lock. ``roll`` (the fair-dice roll index) is 0, 1, 2 ... with no gaps among
  the events that carry one; ``UNIQUE(table_id, roll)``.
* :meth:`Store.write` runs its ``build`` callback while holding the table's write lock (SQLite:
  ``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT ... FOR UPDATE`` on the table's row), so what
  ``build`` reads through the :class:`WriteTx` (head version, next roll index, events after a
  ``seq``) cannot change before the commit. Nothing is written if ``build`` raises.
* Audience filtering happens in the query (``audiences=``), so rows a reader may not see are
  never loaded into its process.
* :meth:`Store.watch` gives a cheap change detector for followers (SQLite: ``PRAGMA
  data_version``; PostgreSQL: ``LISTEN`` + a slow safety poll). Like SQLite's ``data_version``,
  a watch need not report the store object's *own* commits: writers apply their own events
  from the return value of :meth:`Store.write`.
"""

from __future__ import annotations

import abc
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

ROLES = ("gm", "player", "observer")

#: Audience values: everyone at the table, GM seats only, or GM seats plus one seat.
AUDIENCE_ALL = "all"
AUDIENCE_GM = "gm"
SEAT_AUDIENCE_PREFIX = "seat:"


# --------------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------------
class StoreError(Exception):
    """Base class of the table store's errors."""


class TableNotFound(StoreError, KeyError):
    def __init__(self, table_id: str):
        super().__init__(f"no table {table_id!r} in this store")
        self.table_id = table_id

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class TableExists(StoreError):
    pass


class TableClosed(StoreError):
    """The table was closed (its seed revealed): no more events may be appended."""


class SeatRevoked(StoreError):
    """A read asked for a seat (``seat=(seat id, token hash)``) that no longer holds that token:
    the GM retired the seat or gave it a new link. Nothing was read."""

    def __init__(self, table_id: str, seat: str):
        super().__init__(f"table {table_id!r}: seat {seat!r} no longer holds this link")
        self.table_id, self.seat = table_id, seat


class VersionConflict(StoreError):
    """Another writer appended first (``expected_version`` was not the head, or a UNIQUE
    constraint on ``(table_id, version)`` / ``(table_id, roll)`` fired). Catch up and retry."""

    def __init__(self, table_id: str, expected: int | None, actual: int | None):
        super().__init__(f"table {table_id!r}: expected version {expected}, head is {actual}")
        self.table_id, self.expected, self.actual = table_id, expected, actual


class SessionEnded(StoreError):
    """The table's current game session has ended (its seed is revealed): nothing may be rolled
    until the GM starts the next session."""


class SchemaError(StoreError):
    """The database file was written by an incompatible version of this package."""


class NotAStore(StoreError):
    """The file is not a table store: not a database at all (``foreign=False``), or another
    program's database (``foreign=True``), which is left exactly as it was. ``message`` is
    bilingual."""

    def __init__(self, path: str, *, foreign: bool, detail: str = ""):
        if foreign:
            en = (
                f"{path} is another program's SQLite database, not a tabletop-widgets table store; "
                "it was left untouched. Choose another file for TABLETOP_DB."
            )
            ru = (
                f"{path} — база SQLite другой программы, а не хранилище столов tabletop-widgets; "
                "она не изменена. Укажите другой файл в TABLETOP_DB."
            )
        else:
            en = (
                f"{path} is not a tabletop-widgets table store: it is not a database (a wrong "
                "file, or a damaged one). Choose another file for TABLETOP_DB."
            )
            ru = (
                f"{path} — не хранилище столов tabletop-widgets: это не база данных (не тот файл "
                "или повреждённый). Укажите другой файл в TABLETOP_DB."
            )
        super().__init__(en + (f" ({detail})" if detail else ""))
        self.path, self.foreign = path, foreign
        self.message = {"en": en, "ru": ru}


# --------------------------------------------------------------------------------------------
# records
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableInfo:
    """A table as readers see it. ``seed`` is ``None`` until the table is closed (then the hex
    seed whose commitment ``seed_hash`` was published at creation)."""

    table_id: str
    system: str
    title: str
    created: float
    seed_hash: str
    closed: float | None = None
    seed: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_closed(self) -> bool:
        return self.closed is not None


@dataclass(frozen=True)
class SessionInfo:
    """One game session of a table (a campaign): number ``n`` (from 1), its own dice commitment
    ``seed_hash``, when it ``started`` and ``ended`` (``None`` while it is open). ``seed`` is
    ``None`` until the session has ended (then the hex seed whose commitment was published when
    it started)."""

    table_id: str
    n: int
    seed_hash: str
    started: float
    ended: float | None = None
    seed: str | None = None

    @property
    def is_open(self) -> bool:
        return self.ended is None


@dataclass(frozen=True)
class SeatRecord:
    """A seat: ``seat`` is a short id (``gm``, ``alice``), ``token_hash`` the hex sha256 of its
    secret token (the token itself is never stored)."""

    table_id: str
    seat: str
    role: str
    token_hash: str
    character_id: str | None = None
    name: str = ""


@dataclass(frozen=True)
class NewEvent:
    """An event to append. ``roll`` is the fair-dice roll index for roll events (take it from
    :attr:`WriteTx.next_roll` inside :meth:`Store.write`), else ``None``."""

    kind: str
    actor: str
    payload: Mapping[str, Any]
    audience: str = AUDIENCE_ALL
    roll: int | None = None


@dataclass(frozen=True)
class Event:
    """A stored event."""

    seq: int
    table_id: str
    version: int
    kind: str
    actor: str
    audience: str
    payload: Mapping[str, Any]
    created: float
    roll: int | None = None
    #: the chain hash (:mod:`.chain`): covers the previous event's hash and this event's content
    hash: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "table_id": self.table_id,
            "version": self.version,
            "kind": self.kind,
            "actor": self.actor,
            "audience": self.audience,
            "payload": self.payload,
            "created": self.created,
            "roll": self.roll,
            "hash": self.hash,
        }


@dataclass(frozen=True)
class Request:
    """A request waiting in the store's request table (:mod:`.requests`): not an event, never in
    the log, removed once answered. ``kind`` is ``"odds"`` (a seat asks which attacks it has and
    their odds), ``"attack"`` (a seat makes an attack) or ``"defence"`` (the defender's choices,
    asked of ``seat``); ``audience`` is who may read it (``"seat:<id>"``: that seat and the GM;
    ``"gm"``); ``state`` is ``"open"`` (for the resolver), ``"waiting"`` (an attack waits for its
    defence: ``waiting`` says for whom), ``"asked"`` (a defence waits for its answer),
    ``"answered"`` (a defence answered, an odds request answered: ``answer``) or ``"refused"``
    (``answer["message"]`` says why). ``parent``: a defence's attack."""

    id: str
    table_id: str
    kind: str
    seat: str
    audience: str
    state: str
    payload: Mapping[str, Any]
    answer: Mapping[str, Any] | None = None
    waiting: Mapping[str, Any] | None = None
    parent: str | None = None
    created: float = 0.0
    updated: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "request": self.id,
            "kind": self.kind,
            "seat": self.seat,
            "audience": self.audience,
            "state": self.state,
            "payload": dict(self.payload),
            "answer": None if self.answer is None else dict(self.answer),
            "waiting": None if self.waiting is None else dict(self.waiting),
            "parent": self.parent,
            "created": self.created,
            "updated": self.updated,
        }


@dataclass(frozen=True)
class Snapshot:
    """A folded state of one *view* of a table (``"gm"``, ``"observer"``, ``"seat:<id>"``) at
    ``version`` / ``seq``: the state of exactly the events that view may see."""

    table_id: str
    view: str
    version: int
    seq: int
    state: Mapping[str, Any]
    created: float


@dataclass(frozen=True)
class Head:
    """A table's head: its last ``version`` (0 when empty), last ``seq`` (0 when empty), the
    next fair-dice roll index and the last event's chain hash (``""`` when empty)."""

    version: int
    seq: int
    next_roll: int
    hash: str = ""


# --------------------------------------------------------------------------------------------
# the interface
# --------------------------------------------------------------------------------------------
class WriteTx(abc.ABC):
    """What :meth:`Store.write` hands its ``build`` callback, valid only during the call."""

    table_id: str
    head: Head

    @property
    def version(self) -> int:
        return self.head.version

    @property
    def next_roll(self) -> int:
        return self.head.next_roll

    @abc.abstractmethod
    def events_after(self, seq: int, audiences: Sequence[str] | None = None) -> list[Event]:
        """Events of this table with ``seq`` greater than ``seq`` (in the transaction's view)."""

    #: the table's current game session as of this transaction (open, or ended and waiting for
    #: the next one)
    session: SessionInfo

    @abc.abstractmethod
    def secret_seed(self) -> bytes:
        """The current session's fair-dice seed (secret until the session ends): only for
        rolling. Raises :class:`SessionEnded` between sessions."""

    @abc.abstractmethod
    def end_session(self) -> str:
        """Mark the current session ended in this transaction (with the event that records it)
        and return its seed (hex), now revealed. Raises :class:`SessionEnded` if it has ended."""

    @abc.abstractmethod
    def start_session(self, seed: bytes, seed_hash: str) -> SessionInfo:
        """Open the next session with a fresh secret ``seed`` (its commitment ``seed_hash``) in
        this transaction (with the event that records it). Raises :class:`StoreError` while the
        current session is still open."""

    @abc.abstractmethod
    def token_hash(self, seat: str) -> str | None:
        """The seat's current token hash (``None``: no such seat), as of this transaction."""

    @abc.abstractmethod
    def set_token_hash(self, seat: str, token_hash: str) -> None:
        """Replace the seat's token in this transaction (with the event that records it)."""

    @abc.abstractmethod
    def add_seat(self, seat: SeatRecord) -> None:
        """Add a seat to the table in this transaction (with the event that records it)."""

    # -- requests (see :mod:`.requests`) -------------------------------------------------------
    @abc.abstractmethod
    def requests(self, *, states: Sequence[str] | None = None, ids: Sequence[str] | None = None) -> list[Request]:
        """This table's requests (every audience: the writer filters), oldest first."""

    @abc.abstractmethod
    def put_request(self, request: Request) -> None:
        """Add a request, or replace the one with its id, in this transaction."""

    @abc.abstractmethod
    def delete_request(self, request_id: str) -> None:
        """Remove a request (answered, or given up) in this transaction."""

    # -- a seat's rate of actions, shared by all its pages ---------------------------------------
    @abc.abstractmethod
    def rate(self, seat: str) -> tuple[float | None, float | None]:
        """The seat's rate-limit bucket as stored: ``(tokens, at)`` (None, None: never used)."""

    @abc.abstractmethod
    def set_rate(self, seat: str, tokens: float, at: float) -> None:
        """Store the seat's bucket in this transaction."""


Build = Callable[[WriteTx], Sequence[NewEvent]]


class Watch(abc.ABC):
    """A change detector for one table (or the whole store). ``changed()`` is cheap and
    non-blocking; ``wait(timeout)`` waits at most ``timeout`` seconds and says whether something
    may have changed (false positives are allowed, false negatives are not, except for the
    store's own commits)."""

    @abc.abstractmethod
    def changed(self) -> bool: ...

    async def wait(self, timeout: float) -> bool:
        import asyncio

        await asyncio.sleep(timeout)
        return self.changed()

    def close(self) -> None:  # noqa: B027 - optional: most watches hold nothing to release
        pass


class Store(abc.ABC):
    """The table store. Backends: :class:`tabletop_widgets.table.sqlite.SQLiteStore` (the
    embedded default) and :class:`tabletop_widgets.table.postgres.PostgresStore` (several
    machines; the ``postgres`` extra), with the same methods and semantics."""

    url: str = ""

    # -- tables and seats --------------------------------------------------------------------
    @abc.abstractmethod
    def create_table(
        self, table: TableInfo, seed: bytes, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> list[Event]:
        """Create a table with its seats and first events in one transaction.
        ``table.seed`` must be ``None`` (the seed stays secret until :meth:`close_table`).
        Raises :class:`TableExists`."""

    @abc.abstractmethod
    def get_table(self, table_id: str) -> TableInfo:
        """Raises :class:`TableNotFound`. The seed is included only once the table is closed."""

    @abc.abstractmethod
    def list_tables(self) -> list[TableInfo]: ...

    @abc.abstractmethod
    def close_table(self, table_id: str, build: Build | None = None) -> tuple[TableInfo, list[Event]]:
        """Like :meth:`write` (``build`` returns the last events, e.g. ``table.closed`` with the
        seed from ``tx.secret_seed()``), and in the same transaction mark the table closed, which
        reveals its seed in :meth:`get_table`, and its current session ended (if it was open).
        Raises :class:`TableClosed` if already closed."""

    @abc.abstractmethod
    def seats(self, table_id: str) -> list[SeatRecord]: ...

    @abc.abstractmethod
    def sessions(self, table_id: str) -> list[SessionInfo]:
        """The table's game sessions in order (session 1 first); each seed only once its
        session has ended. Raises :class:`TableNotFound`."""

    @abc.abstractmethod
    def seat_by_token_hash(self, table_id: str, token_hash: str) -> SeatRecord | None:
        """The seat of ``table_id`` whose token hashes to ``token_hash``, or ``None``."""

    @abc.abstractmethod
    def add_seat(self, seat: SeatRecord) -> None: ...

    @abc.abstractmethod
    def set_token_hash(self, table_id: str, seat: str, token_hash: str) -> None:
        """Replace a seat's token (the old link stops working)."""

    # -- events --------------------------------------------------------------------------------
    @abc.abstractmethod
    def write(self, table_id: str, build: Build) -> list[Event]:
        """Under the table's write lock: call ``build(tx)``, append the events it returns with
        versions ``head+1, head+2 ...`` and commit; return the stored events. Raises
        :class:`TableNotFound`, :class:`TableClosed`, :class:`VersionConflict` (a ``roll`` index
        other than the next one: taken, or leaving a gap), ``ValueError`` (bad audience),
        ``TypeError`` (not a :class:`NewEvent`), or whatever ``build`` raised; then nothing is
        written."""

    def append(self, table_id: str, events: Sequence[NewEvent], *, expected_version: int | None = None) -> list[Event]:
        """Append ``events`` atomically. With ``expected_version``, raise
        :class:`VersionConflict` unless the table's head is exactly that version."""
        events = list(events)

        def build(tx: WriteTx) -> Sequence[NewEvent]:
            if expected_version is not None and tx.version != expected_version:
                raise VersionConflict(table_id, expected_version, tx.version)
            return events

        return self.write(table_id, build)

    @abc.abstractmethod
    def events(
        self,
        table_id: str,
        *,
        after_seq: int = 0,
        audiences: Sequence[str] | None = None,
        limit: int | None = None,
        seat: tuple[str, str] | None = None,
    ) -> list[Event]:
        """Events of ``table_id`` with ``seq > after_seq`` in ``seq`` order; ``audiences``
        (e.g. ``["all", "seat:alice"]``) filters in the query; ``None`` means every event.
        ``seat`` (``(seat id, token hash)``): the reader's seat, checked in the same read; one
        that no longer holds that token (retired, reissued) gets :class:`SeatRevoked`."""

    @abc.abstractmethod
    def head(self, table_id: str) -> Head: ...

    # -- requests (see :mod:`.requests`) -------------------------------------------------------
    @abc.abstractmethod
    def requests(
        self,
        table_id: str,
        *,
        audiences: Sequence[str] | None = None,
        states: Sequence[str] | None = None,
        seat: tuple[str, str] | None = None,
    ) -> list[Request]:
        """The table's requests that ``audiences`` may read (``None``: all), oldest first; the
        audience filter is in the query, as for events, and ``seat`` is checked as for them."""

    @abc.abstractmethod
    def pending_tables(self) -> list[str]:
        """The tables with a request for the resolver (an open one, or an answered defence)."""

    @abc.abstractmethod
    def purge_requests(self, before: float) -> int:
        """Remove the requests answered or refused before ``before`` (their seat never came back
        to read them); returns how many."""

    def hold_resolver(self, table_id: str) -> bool:
        """Whether this store object holds (or takes now) the resolver lock of ``table_id``: the
        one resolver that serves the table (:mod:`.resolver`). The lock goes with the process
        (or its connection): another resolver takes the table over when it dies. A backend
        with a single writer holds every lock."""
        return True

    # -- snapshots -----------------------------------------------------------------------------
    @abc.abstractmethod
    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Store a snapshot (idempotent: the same view and version twice keeps the first)."""

    @abc.abstractmethod
    def latest_snapshot(self, table_id: str, view: str) -> Snapshot | None: ...

    # -- backup and restore (see backup.py) ------------------------------------------------------
    @abc.abstractmethod
    def export_rows(self, table_id: str) -> dict[str, Any]:
        """A table's rows as stored, secrets included (see :mod:`.backup`)."""

    @abc.abstractmethod
    def restore_rows(self, rows: dict[str, Any], *, replace_head: str | None = None) -> None:
        """Write a table exported by :meth:`export_rows`, in one transaction (see :mod:`.backup`).
        Raises :class:`TableExists`; with ``replace_head``, replaces the table's rows if its head
        is still that hash."""

    # -- store-wide settings ------------------------------------------------------------------
    @abc.abstractmethod
    def get_meta(self, key: str) -> str | None:
        """A store-wide setting (e.g. the lobby key's hash), or ``None``."""

    @abc.abstractmethod
    def update_meta(self, key: str, fn: Callable[[str | None], str | None]) -> str | None:
        """Atomically replace a setting with ``fn(old)`` (``None`` deletes it); returns the new
        value. Concurrent updates of the store (other kernels) are serialised."""

    # -- following -----------------------------------------------------------------------------
    @abc.abstractmethod
    def watch(self, table_id: str | None = None) -> Watch: ...

    # -- lifecycle -----------------------------------------------------------------------------
    @abc.abstractmethod
    def close(self) -> None: ...

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --------------------------------------------------------------------------------------------
# helpers shared by backends
# --------------------------------------------------------------------------------------------
def audience_ok(audience: str) -> bool:
    if audience in (AUDIENCE_ALL, AUDIENCE_GM):
        return True
    return audience.startswith(SEAT_AUDIENCE_PREFIX) and len(audience) > len(SEAT_AUDIENCE_PREFIX)


def dumps(obj: Any) -> str:
    """Canonical JSON for payloads and snapshots (sorted keys, no NaN)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def default_db_path() -> Path:
    """``$TABLETOP_DB``, else ``$XDG_DATA_HOME/tabletop-widgets/table.db`` (default
    ``~/.local/share/tabletop-widgets/table.db``)."""
    env = os.environ.get("TABLETOP_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tabletop-widgets" / "table.db"


def open_store(where: str | os.PathLike | None = None, **options: Any) -> Store:
    """Open the store at ``where`` (default: ``$TABLETOP_DB`` or the user data directory).
    ``postgresql://...`` (or ``postgres://``) selects the PostgreSQL backend (needs the
    ``postgres`` extra: psycopg 3; ``?tabletop_schema=name`` picks a schema); anything else is a
    SQLite file path (``sqlite:///path`` also accepted). The file and its directory are created."""
    if where is None:
        where = os.environ.get("TABLETOP_DB") or default_db_path()
    text = os.fspath(where)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from .postgres import PostgresStore
        except ImportError as exc:
            raise StoreError(
                "the PostgreSQL table store needs psycopg 3: pip install "
                f"'tabletop-widgets[postgres]' (TABLETOP_DB=...@{text.split('@')[-1]}; "
                f"{exc})"
            ) from exc
        return PostgresStore(text, **options)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]  # sqlite:///rel/path, sqlite:////abs/path
    from .sqlite import SQLiteStore

    return SQLiteStore(Path(text).expanduser(), **options)
