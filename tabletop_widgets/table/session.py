"""A seat's session at a shared table: what one Voila kernel holds.

``TableSession.join(store, table_id, token)`` looks the token up by its hash; no token, a wrong
token or a token of another table raise :class:`~.seats.SeatError` before anything of the table is
read. The session then rebuilds its view's state from the latest snapshot plus later events, with
the audience filter in the store's query: hidden rolls, GM-only characters and GM notes never
enter a player's or observer's process.

Every action a seat takes starts in one place (``begin_action``: the role in Python, ``can`` /
``require``, then the seat's rate limit): widget messages can be forged and a disabled button
still fires. The arguments are checked against what the system declares before anything is
written (:mod:`.rules`: check options against the check's ``OptionSpec`` list, GM-only sheet
fields, text limits), and a roll that fails after drawing dice spends its index (:mod:`.rolling`).
What this seat reads (the store query, the follower, snapshots) goes through the one audience
projection (:mod:`.audience`). Writes go through :meth:`Store.write`: under the
table's write lock the session first applies the events it had not seen yet, then validates
against that state, rolls with the fair-dice stream of the next roll index, and appends the
outcome. It applies its own events at once (``data_version`` ignores its own commits).

Initiative is rolled the same way (:meth:`TableSession.roll_initiative`: the next roll index, the
system's ``roll_initiative`` with that stream, an ``initiative`` outcome event), with the tracker's
``combat.state`` in the same transaction.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from typing import Any, Callable, Sequence

from ..core.system import term_of
from .audience import Audience, project_state, visible_events
from .campaign import DICE_ACTIONS, session_ended_denial
from .events import EventError
from .follow import DEFAULT_INTERVAL, DEFAULT_MAX_INTERVAL, DEFAULT_IDLE_AFTER, Follower
from .kinds import SEAT_REISSUED, own_audience
from .rules import rate_limit_for, take_seat_rate
from .seats import PermissionDenied, SeatError, hash_token, parse_query, role_can, OWN_CHARACTER_ACTIONS
from .session_campaign import CampaignActions
from .session_clocks import ClockActions
from .session_combat import CombatActions, initiative_json, initiative_text
from .session_dice import CheckRequest, DiceActions, check, check_json
from .session_handouts import HandoutActions
from .session_luck import LuckActions
from .session_records import RecordActions
from .session_safety import SafetyActions
from .session_tables import RollTableActions
from .state import TableState
from .store import (
    AUDIENCE_GM,
    SEAT_AUDIENCE_PREFIX,
    Event,
    NewEvent,
    Request,
    SeatRecord,
    SeatRevoked,
    Snapshot,
    Store,
    TableInfo,
    WriteTx,
    open_store,
)

#: the actor of what the table's own desk writes (the resolver: no seat, no token)
OPERATOR = "@table"

#: defined in the action modules; importable from here as before
__all__ = [
    "OPERATOR",
    "CheckRequest",
    "TableSession",
    "check",
    "check_json",
    "initiative_json",
    "initiative_text",
    "rebuild",
    "system_for",
]

log = logging.getLogger(__name__)

DEFAULT_SNAPSHOT_EVERY = 200


def system_for(table: TableInfo):
    """The table's GameSystem with the GM's rule options (``options["rules"]``) applied."""
    from .. import get_system

    system = get_system(table.system)
    rules = dict(table.options.get("rules") or {})
    return system.with_rules(**rules) if rules else system


class TableSession(
    RecordActions,
    DiceActions,
    RollTableActions,
    CombatActions,
    CampaignActions,
    ClockActions,
    LuckActions,
    SafetyActions,
    HandoutActions,
):
    """Use :meth:`join` (or :meth:`from_query`), not the constructor.

    The seat actions come from one mixin per job (:mod:`.session_records`, :mod:`.session_dice`,
    :mod:`.session_combat`, :mod:`.session_campaign`); this class holds the seat, the state, the
    follower and the one write path (:meth:`transact`)."""

    def __init__(
        self,
        store: Store,
        table: TableInfo,
        seat: SeatRecord,
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        clock: Callable[[], float] | None = None,
        wall_clock: Callable[[], float] | None = None,
        _token_checked: bool = False,
        _operator: bool = False,
    ):
        if not _token_checked:
            raise TypeError("use TableSession.join(store, table_id, token)")
        self.store = store
        self.table = table
        self._seat = seat
        #: the table's own desk (the resolver on the server): the GM's view, no token to hold
        self.operator = _operator
        self._acting_for: str | None = None
        #: this seat's requests (its own, and the questions asked of it; a GM: every one)
        self.requests: list[Request] = []
        self._request_listeners: list[Callable[[list[Request]], None]] = []
        self._revoked_listeners: list[Callable[[], None]] = []
        self._reissuing = False
        #: who reads through this session: every query, the follower and snapshots use it
        self.reader = Audience(seat.role, seat.seat)
        self.view = self.reader.view
        self.audiences = self.reader.tags
        self.snapshot_every = snapshot_every
        self.rate_limit = rate_limit_for(seat.role, clock)
        #: the time of the seat's bucket in the store, shared by every process (``time.time``)
        self.wall_clock = wall_clock or time.time
        self._listeners: list[Callable[[list[Event]], None]] = []
        self._lock = threading.RLock()  # widget handlers and the follower may run on different threads
        self._system = None
        snap = store.latest_snapshot(table.table_id, self.view)
        self.state = (
            project_state(TableState.from_json(dict(snap.state)), self.reader)
            if snap and TableState.readable(snap.state)
            else TableState(table.table_id)
        )
        self.state.view = self.view
        self._snap_events = self.state.events
        self._follower = Follower(
            store,
            table.table_id,
            audiences=self.audiences,
            after_seq=self.state.seq,
            callback=self._on_followed,
            on_change=self.refresh_requests,
            seat=self._read_seat(),
            on_revoked=self._on_revoked,
        )
        self._apply(store.events(table.table_id, after_seq=self.state.seq, audiences=self.audiences))
        self._follower.last_seq = self.state.seq
        self._follower.must_read = False
        self.refresh_requests(notify=False)
        self._maybe_snapshot()

    # -- joining -----------------------------------------------------------------------------
    @classmethod
    def join(cls, store: Store, table_id: str | None, token: str | None, **kw: Any) -> "TableSession":
        if not table_id or not token:
            raise SeatError(
                "no_token",
                "This page needs a seat link (…?table=<id>&seat=<token>). Ask your GM for yours.",
                "Для этой страницы нужна ссылка места (…?table=<id>&seat=<token>). Попросите её у того, кто ведёт игру.",
            )
        seat = store.seat_by_token_hash(str(table_id), hash_token(str(token)))
        if seat is None:
            # same answer for an unknown table and a wrong token: the link says nothing
            raise SeatError(
                "bad_token",
                "This seat link is not valid (wrong or expired token). Ask your GM for a new link.",
                "Ссылка места недействительна (неверный или устаревший токен). "
                "Попросите новую ссылку у того, кто ведёт игру.",
            )
        return cls(store, store.get_table(seat.table_id), seat, _token_checked=True, **kw)

    @classmethod
    def as_operator(cls, store: Store, table_id: str, **kw: Any) -> "TableSession":
        """The table's own desk: the GM's view of the table for the resolver on the server
        (:mod:`.resolver`), which answers the seats' requests. It holds no token and is no seat:
        only a process that holds the store itself makes one. Nothing a page sends reaches it."""
        table = store.get_table(table_id)
        seat = SeatRecord(table.table_id, OPERATOR, "gm", "", None, "")
        kw.setdefault("snapshot_every", 0)
        return cls(store, table, seat, _token_checked=True, _operator=True, **kw)

    @classmethod
    def from_query(cls, query: str | None = None, store: Store | None = None, **kw: Any) -> "TableSession":
        """Join from a query string (default: ``QUERY_STRING``, as Voila sets it; when
        preheating, call ``voila.utils.wait_for_request()`` first)."""
        if query is None:
            query = os.environ.get("QUERY_STRING", "")
        table_id, token = parse_query(query)
        if not table_id or not token:
            return cls.join(store, None, None)  # raises SeatError without touching the store
        return cls.join(store if store is not None else open_store(), table_id, token, **kw)

    @classmethod
    def from_voila(cls, store: Store | None = None, **kw: Any) -> "TableSession":
        """Join from the Voila request that opened this kernel: waits for the request when the
        kernel was preheated (:func:`.voila_request.wait_for_request`; at once otherwise), then
        reads ``QUERY_STRING``. Raises :class:`SeatError` (show its bilingual ``message``) for a
        missing or wrong token, before anything of the table is read."""
        from .voila_request import wait_for_request

        wait_for_request()
        return cls.from_query(os.environ.get("QUERY_STRING") or "", store=store, **kw)

    # -- who am I -----------------------------------------------------------------------------
    @property
    def seat(self) -> str:
        return self._seat.seat

    @property
    def role(self) -> str:
        return self._seat.role

    @property
    def name(self) -> str:
        return self._seat.name

    @property
    def actor(self) -> str:
        """Who the events this session writes are by: the seat, or (a GM's page, the table's
        desk) the seat it acts for now (:meth:`acting_for`: a player's attack it rolls)."""
        return self._acting_for or self._seat.seat

    @contextlib.contextmanager
    def acting_for(self, seat: str | None):
        """GM or the table's desk: what is written inside is by ``seat`` (whose request it
        answers); ``None`` changes nothing. A player's or an observer's page acts for itself only."""
        if seat is None:
            yield
            return
        if self.role != "gm":
            raise PermissionDenied("act for another seat", self.role)
        was, self._acting_for = self._acting_for, seat
        try:
            yield
        finally:
            self._acting_for = was

    @property
    def character_id(self) -> str | None:
        return self._seat.character_id

    @property
    def table_id(self) -> str:
        return self.table.table_id

    @property
    def system(self):
        if self._system is None:
            self._system = system_for(self.table)
        return self._system

    def __repr__(self) -> str:
        return f"<TableSession {self.table_id} seat={self.seat} role={self.role} v{self.state.version}>"

    # -- roles ---------------------------------------------------------------------------------
    def can(self, action: str, character_id: str | None = None) -> bool:
        """Whether this seat may do ``action`` (on ``character_id`` for character actions)."""
        if not role_can(self.role, action):
            return False
        if self.state.closed and action not in ("read",):
            return False
        if action in DICE_ACTIONS and not self.state.session_open:
            return False  # between sessions nothing is rolled
        if self.role == "player" and action in OWN_CHARACTER_ACTIONS and character_id is not None:
            return character_id == self.character_id
        return True

    def require(self, action: str, character_id: str | None = None) -> None:
        if self.state.closed and action != "read":
            raise PermissionDenied(action, self.role, "the table is closed")
        if action in DICE_ACTIONS and not self.state.session_open and role_can(self.role, action):
            raise session_ended_denial(self, action)
        if not self.can(action, character_id):
            detail = (
                f"character {character_id!r} is not theirs"
                if role_can(self.role, action) and character_id is not None
                else ""
            )
            raise PermissionDenied(action, self.role, detail)

    def begin_action(self, action: str, character_id: str | None = None) -> None:
        """Every action a seat takes starts here: the role (and for players, whose character),
        then the seat's rate limit. The write re-checks the role under the table's lock."""
        self.require(action, character_id)
        if not self.operator:
            self.rate_limit.take()

    def own_audience(self, hidden: bool) -> str:
        """Who sees what this seat writes: everyone, or (``hidden``) the GM and this seat."""
        return own_audience(self.role, self.seat, hidden)

    # -- applying events -----------------------------------------------------------------------
    def _apply(self, events: Sequence[Event]) -> list[Event]:
        applied = []
        for e in visible_events(events, self.reader):  # defence in depth: the query filtered
            if e.seq > self.state.seq:
                self.state.apply(e)
                applied.append(e)
        return applied

    def _notify(self, events: list[Event], *, snapshot: bool = True) -> None:
        if not events:
            return
        for fn in list(self._listeners):
            try:
                fn(events)
            except Exception:
                log.exception("table listener failed")
        if snapshot:
            self._maybe_snapshot()

    def _on_followed(self, events: list[Event]) -> None:
        with self._lock:
            applied = self._apply(events)
        self._notify(applied)

    def refresh_requests(self, *, notify: bool = True) -> bool:
        """Read this seat's requests again (the store's query filters them by audience); tell the
        request listeners when they changed. Returns whether they did."""
        if self._follower.revoked or self._reissuing:
            return False
        try:
            got = self.store.requests(self.table_id, audiences=self.audiences, seat=self._read_seat())
        except SeatRevoked:
            self._follower.revoked = True
            self._on_revoked()
            return False
        if [r.to_json() for r in got] == [r.to_json() for r in self.requests]:
            return False
        self.requests = got
        if notify:
            for fn in list(self._request_listeners):
                try:
                    fn(got)
                except Exception:
                    log.exception("table request listener failed")
        return True

    def _read_seat(self) -> tuple[str, str] | None:
        """What this session's reads check: its seat and the token hash it joined with (none for
        the table's own desk)."""
        return None if self.operator else (self._seat.seat, self._seat.token_hash)

    @property
    def revoked(self) -> bool:
        """Whether the GM retired this seat or gave it a new link since it joined: this session
        reads nothing more of the table and writes nothing (see :meth:`on_revoked`)."""
        return self._follower.revoked

    def on_revoked(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` once when this seat's link stops working (its page then says so);
        returns a function that stops it."""
        self._revoked_listeners.append(callback)
        return lambda: self._revoked_listeners.remove(callback) if callback in self._revoked_listeners else None

    def _on_revoked(self) -> None:
        listeners, self._revoked_listeners = self._revoked_listeners, []
        self._follower.stop()
        self.requests = []
        for fn in listeners:
            try:
                fn()
            except Exception:
                log.exception("table revoked listener failed")

    def on_requests(self, callback: Callable[[list[Request]], None]) -> Callable[[], None]:
        """Call ``callback(requests)`` whenever this seat's requests change (its attack answered,
        a question asked of it). Returns a function that unsubscribes."""
        self._request_listeners.append(callback)
        return lambda: self._request_listeners.remove(callback) if callback in self._request_listeners else None

    def on_events(self, callback: Callable[[list[Event]], None]) -> Callable[[], None]:
        """Call ``callback(events)`` with every batch of newly applied events (followed or
        written here). Returns a function that unsubscribes."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def poll(self) -> list[Event]:
        """Apply events other processes wrote since the last poll (and read this seat's requests
        again: a poll is definitive, whatever the store's change detector heard yet); returns the
        events."""
        events = self._follower.poll()
        self.refresh_requests()
        return events

    def follow(
        self,
        interval: float = DEFAULT_INTERVAL,
        max_interval: float = DEFAULT_MAX_INTERVAL,
        idle_after: float = DEFAULT_IDLE_AFTER,
    ):
        """Start the asyncio follower in the running loop (the kernel's); returns the task."""
        f = self._follower
        f.interval, f.max_interval, f.idle_after = interval, max_interval, idle_after
        f.current_interval = interval
        return f.start()

    def stop(self) -> None:
        self._follower.stop()

    def close(self) -> None:
        """Stop following, and close the store when this session opened it (:func:`~.connect.connect`)."""
        self.stop()
        store = self.__dict__.pop("_own_store", None)
        if store is not None:
            store.close()

    @property
    def follower(self) -> Follower:
        return self._follower

    def _maybe_snapshot(self) -> None:
        if self.snapshot_every and self.state.events - self._snap_events >= self.snapshot_every:
            self.snapshot()

    def snapshot(self) -> Snapshot:
        snap = Snapshot(
            self.table_id,
            self.view,
            self.state.version,
            self.state.seq,
            project_state(self.state, self.reader).to_json(),
            time.time(),
        )
        self.store.save_snapshot(snap)
        self._snap_events = self.state.events
        return snap

    # -- writing -------------------------------------------------------------------------------
    def transact(
        self, make: Callable[[WriteTx], Sequence[NewEvent]], *, close: bool = False, anonymous: bool = False
    ) -> list[Event]:
        """The one write path of the seat actions: under the table's write lock, apply the events
        this seat had not seen yet, check that the seat's link still holds, then append what
        ``make(tx)`` returns (``close``: and close the table). The stored events are applied here
        at once and passed to the listeners. Call :meth:`begin_action` first. ``anonymous`` (an
        X-card tap): the seat's rate bucket is not drawn on, and no snapshot is saved for it."""
        pending: list[Event] = []

        def build(tx: WriteTx) -> Sequence[NewEvent]:
            # catch up under the lock: validation sees the state the new events follow
            pending.extend(self._apply(tx.events_after(self.state.seq, self.audiences)))
            self._check_token(tx)  # a reissued link stops working at once, open pages too
            if not self.operator and not anonymous:  # one bucket a seat, however many pages it has open
                take_seat_rate(tx, self.seat, self.role, self.wall_clock())
            return make(tx)

        try:
            with self._lock:
                if close:
                    self.table, stored = self.store.close_table(self.table_id, build)
                else:
                    stored = self.store.write(self.table_id, build)
                pending.extend(self._apply(stored))
                self._follower.advance(pending)
        finally:
            self._notify(pending, snapshot=not anonymous)
        self.refresh_requests()
        return stored

    # -- views ---------------------------------------------------------------------------------
    def events(self, after_seq: int = 0, limit: int | None = None) -> list[Event]:
        """This seat's visible log from the store (filtered in the query; :class:`SeatRevoked`
        once the seat's link stopped working); ``limit``: at most that many."""
        return self.store.events(
            self.table_id, after_seq=after_seq, audiences=self.audiences, limit=limit, seat=self._read_seat()
        )

    def character(self, character_id: str | None = None):
        """The character as the system's model (a fresh object built from the state)."""
        cid = character_id or self.character_id
        if cid not in self.state.characters:
            raise KeyError(f"no character {cid!r} visible at this seat")
        return self.system.Character.from_dict(self.state.characters[cid])

    # -- trust: the chain head, reissued links (issue 14) ----------------------
    @property
    def head(self) -> str:
        """The chain hash of the last event this seat has: it covers every earlier event of the
        table, hidden ones included, and moves only when this seat gets an event (so it tells
        nothing about hidden ones). A player copies it and passes it to ``verify --head``."""
        seq = self.state.seq
        cached = getattr(self, "_head_cache", None)
        if cached is None or cached[0] != seq:
            got = self.store.events(self.table_id, after_seq=seq - 1, audiences=self.audiences, limit=1)
            cached = (seq, got[0].hash if got and got[0].seq == seq else "")
            self._head_cache = cached
        return cached[1]

    def _check_token(self, tx: WriteTx) -> None:
        """Inside a write: the seat's token must still be the one this session joined with."""
        if self.operator:
            return
        if tx.token_hash(self.seat) != self._seat.token_hash:
            raise SeatError(
                "link_replaced",
                f"Your seat link was replaced by the {term_of(self.system, 'gm', 'en')}: this page no "
                f"longer acts at the table. Ask your {term_of(self.system, 'gm', 'en')} for the new link.",
                f"{term_of(self.system, 'gm_title', 'ru')} заменил ссылку вашего места: эта страница больше не "
                f"действует за столом. Попросите у {term_of(self.system, 'gm_gen', 'ru')} новую ссылку.",
            )

    def link_replaced(self) -> bool:
        """Whether the GM has reissued this seat's link since this session joined (then every
        action fails); a view asks when a ``seat.reissued`` event for its seat arrives."""
        return self.store.seat_by_token_hash(self.table_id, self._seat.token_hash) is None

    def reissue_seat(self, seat: str) -> str:
        """GM: give ``seat`` a new secret token and return it (the new link is
        ``seats.link(table_id, token, base)``). The old link stops working at once: joining
        with it fails, and a page still open with it fails on its next action. Recorded as a
        ``seat.reissued`` event (the token is never stored or logged) for the GM and that seat."""
        import dataclasses
        from .seats import hash_token, new_token

        self.require("seat.manage")
        known = {s.seat: s for s in self.store.seats(self.table_id)}
        if seat not in known:
            raise EventError(f"this table has no seat {seat!r}")
        token = new_token()
        new_hash = hash_token(token)
        audience = SEAT_AUDIENCE_PREFIX + seat if known[seat].role == "player" else AUDIENCE_GM

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("seat.manage")
            tx.set_token_hash(seat, new_hash)
            return [SEAT_REISSUED.new(self.actor, audience, seat=seat, role=known[seat].role)]

        own = seat == self.seat
        self._reissuing = own  # this page's own reads wait for the new hash
        try:
            self.transact(make)
        finally:
            self._reissuing = False
        if own:
            self._seat = dataclasses.replace(self._seat, token_hash=new_hash)
            self._follower.seat = self._read_seat()
            self.refresh_requests()
        return token


def rebuild(store: Store, table_id: str, audiences: Sequence[str] | None = None) -> TableState:
    """The state of ``table_id`` folded from its whole log (no snapshot), for checks and tools:
    every event (``audiences`` None), or the view of those audiences (a seat's, an observer's)."""
    seats = [a for a in audiences or () if a.startswith(SEAT_AUDIENCE_PREFIX)]
    view = "gm" if audiences is None or AUDIENCE_GM in audiences else (seats[0] if seats else "observer")
    state = TableState(table_id, view=view)
    for e in store.events(table_id, audiences=audiences):
        state.apply(e)
    return state
