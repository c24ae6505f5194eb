"""A seat's session at a shared table: what one Voila kernel holds.

``TableSession.join(store, table_id, token)`` looks the token up by its hash; no token, a wrong
token or a token of another table raise :class:`~.seats.SeatError` before anything of the table is
read. The session then rebuilds its view's state from the latest snapshot plus later events, with
the audience filter in the store's query: hidden rolls, GM-only characters and GM notes never
enter a player's or observer's process.

Every action a seat takes starts in one place (``_begin``: the role in Python, ``can`` /
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

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..core.i18n import LOCALES
from ..core.problems import RuleError
from ..core.system import term_of
from .after_roll import KIND as AFTER_ROLL_KIND, after_roll_events
from .advancement import advance_update, award_update, check_award_role, check_character_write
from .attacks import ATTACK_KINDS, answer_events, ask_events, declare_events
from .audience import Audience, project_state, visible_events
from .campaign import DICE_ACTIONS, session_ended_denial
from .events import EventError, jsonable, kind as event_kind, validate
from .fairdice import rng_for
from .follow import DEFAULT_INTERVAL, DEFAULT_MAX_INTERVAL, DEFAULT_IDLE_AFTER, Follower
from .rolling import DrawWatch, failed_payload, failed_roll_error, roll_guarded, roll_payload
from .phases import check_phase_edit, check_players_make, finish_changes
from .rules import PlayError, check_character_texts, check_gm_fields, check_options, check_text, rate_limit_for
from .seats import PermissionDenied, SeatError, hash_token, parse_query, role_can, table_option, OWN_CHARACTER_ACTIONS
from .state import TableState, reducer
from .store import (
    AUDIENCE_ALL,
    AUDIENCE_GM,
    SEAT_AUDIENCE_PREFIX,
    Event,
    NewEvent,
    SeatRecord,
    Snapshot,
    Store,
    TableInfo,
    WriteTx,
    audience_ok,
    open_store,
)

log = logging.getLogger(__name__)

DEFAULT_SNAPSHOT_EVERY = 200
#: kinds that only dedicated methods write (their content must come from the fair dice or the table)
RESERVED_KINDS = frozenset(
    {"roll", "roll.failed", "check", "initiative", "table.opened", "table.closed", "session.started", "session.ended"}
    | ATTACK_KINDS
    | {AFTER_ROLL_KIND}
)


@dataclass(frozen=True)
class CheckRequest:
    """A named check of the table's system: ``check("mind", "c1", difficulty=3)``."""

    check_id: str
    character_id: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def check(check_id: str, character_id: str | None = None, **options: Any) -> CheckRequest:
    return CheckRequest(check_id, character_id, options)


def check_json(result) -> dict[str, Any]:
    """A ``CheckResult`` as JSON (deterministic: ``verify`` recomputes and compares it)."""
    roll = result.roll
    return jsonable(
        {
            "check_id": result.check_id,
            "label": dict(result.label),
            "success": result.success,
            "total": result.total,
            "margin": result.margin,
            "degree": result.degree,
            "degree_label": dict(result.degree_label) if result.degree_label else None,
            "critical": result.critical,
            "outcome": dict(result.outcome),
            "effects": [{"trait": e.trait, "delta": e.delta, "reason": dict(e.reason)} for e in result.effects],
            "roll": roll.to_json() if hasattr(roll, "to_json") else jsonable(roll),
            "details": result.details,
        }
    )


def initiative_json(result) -> dict[str, Any]:
    """A system's ``InitiativeOrder`` as JSON (deterministic: ``verify`` re-rolls and compares):
    the system's order, each combatant's key, text, roll, rounds sat out and effects, and the
    tie-break notes."""
    rolls = {}
    for cid, r in result.rolls.items():
        rolls[str(cid)] = {
            "key": jsonable(r.key),
            "text": jsonable(dict(r.text) if isinstance(r.text, Mapping) else r.text),
            "roll": jsonable(r.roll),
            "skip_rounds": int(getattr(r, "skip_rounds", 0) or 0),
            "effects": [
                {"trait": e.trait, "delta": e.delta, "reason": jsonable(getattr(e, "reason", None))}
                for e in (getattr(r, "effects", ()) or ())
            ],
        }
    return jsonable({"order": [str(c) for c in result.order], "rolls": rolls, "tiebreaks": list(result.tiebreaks)})


def initiative_text(outcome: Mapping[str, Any], names: Mapping[str, str] | None = None, locale: str = "en") -> str:
    """One line for the log: ``Initiative: Aria 14, Goblin 9``."""
    names = names or {}
    parts = []
    for cid in outcome.get("order", []):
        r = (outcome.get("rolls") or {}).get(cid) or {}
        text = r.get("text")
        if isinstance(text, Mapping):
            text = text.get(locale) or text.get("en") or ""
        parts.append(f"{names.get(cid, cid)} {text}".strip())
    head = "Инициатива" if locale == "ru" else "Initiative"
    return f"{head}: " + ", ".join(parts)


def system_for(table: TableInfo):
    """The table's GameSystem with the GM's rule options (``options["rules"]``) applied."""
    from .. import get_system

    system = get_system(table.system)
    rules = dict(table.options.get("rules") or {})
    return system.with_rules(**rules) if rules else system


class TableSession:
    """Use :meth:`join` (or :meth:`from_query`), not the constructor."""

    def __init__(
        self,
        store: Store,
        table: TableInfo,
        seat: SeatRecord,
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        clock: Callable[[], float] | None = None,
        _token_checked: bool = False,
    ):
        if not _token_checked:
            raise TypeError("use TableSession.join(store, table_id, token)")
        self.store = store
        self.table = table
        self._seat = seat
        #: who reads through this session: every query, the follower and snapshots use it
        self.reader = Audience(seat.role, seat.seat)
        self.view = self.reader.view
        self.audiences = self.reader.tags
        self.snapshot_every = snapshot_every
        self.rate_limit = rate_limit_for(seat.role, clock)
        self._listeners: list[Callable[[list[Event]], None]] = []
        self._lock = threading.RLock()  # widget handlers and the follower may run on different threads
        self._system = None
        snap = store.latest_snapshot(table.table_id, self.view)
        self.state = (
            project_state(TableState.from_json(dict(snap.state)), self.reader) if snap else TableState(table.table_id)
        )
        self._snap_events = self.state.events
        self._follower = Follower(
            store, table.table_id, audiences=self.audiences, after_seq=self.state.seq, callback=self._on_followed
        )
        self._apply(store.events(table.table_id, after_seq=self.state.seq, audiences=self.audiences))
        self._follower.last_seq = self.state.seq
        self._follower.must_read = False
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
        kernel was preheated (``voila.utils.wait_for_request``; a no-op otherwise), then reads
        ``QUERY_STRING``. Raises :class:`SeatError` (show its bilingual ``message``) for a
        missing or wrong token, before anything of the table is read.

        ``voila.utils`` is imported only in a preheated kernel (Voila sets ``VOILA_PREHEAT`` to
        ``"False"`` in every other kernel, and ``wait_for_request`` returns at once then): the
        import pulls in jupyter_server and jsonschema, seconds of a page's start."""
        if os.environ.get("VOILA_PREHEAT", "False") == "False":
            return cls.from_query(os.environ.get("QUERY_STRING") or "", store=store, **kw)
        try:
            from voila.utils import wait_for_request
        except ImportError:
            pass
        else:
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

    def _begin(self, action: str, character_id: str | None = None) -> None:
        """Every action a seat takes starts here: the role (and for players, whose character),
        then the seat's rate limit. The write re-checks the role under the table's lock."""
        self.require(action, character_id)
        self.rate_limit.take()

    def _own_audience(self, hidden: bool) -> str:
        if not hidden:
            return AUDIENCE_ALL
        return AUDIENCE_GM if self.role == "gm" else SEAT_AUDIENCE_PREFIX + self.seat

    # -- applying events -----------------------------------------------------------------------
    def _apply(self, events: Sequence[Event]) -> list[Event]:
        applied = []
        for e in visible_events(events, self.reader):  # defence in depth: the query filtered
            if e.seq > self.state.seq:
                self.state.apply(e)
                applied.append(e)
        return applied

    def _notify(self, events: list[Event]) -> None:
        if not events:
            return
        for fn in list(self._listeners):
            try:
                fn(events)
            except Exception:
                log.exception("table listener failed")
        self._maybe_snapshot()

    def _on_followed(self, events: list[Event]) -> None:
        with self._lock:
            applied = self._apply(events)
        self._notify(applied)

    def on_events(self, callback: Callable[[list[Event]], None]) -> Callable[[], None]:
        """Call ``callback(events)`` with every batch of newly applied events (followed or
        written here). Returns a function that unsubscribes."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def poll(self) -> list[Event]:
        """Apply events other processes wrote since the last poll; returns them."""
        return self._follower.poll()

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
    def _write(self, make: Callable[[WriteTx], Sequence[NewEvent]], *, close: bool = False) -> list[Event]:
        pending: list[Event] = []

        def build(tx: WriteTx) -> Sequence[NewEvent]:
            # catch up under the lock: validation sees the state the new events follow
            pending.extend(self._apply(tx.events_after(self.state.seq, self.audiences)))
            self._check_token(tx)  # a reissued link stops working at once, open pages too
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
            self._notify(pending)
        return stored

    def record(self, kind: str, payload: Mapping[str, Any], *, audience: str = AUDIENCE_ALL) -> Event:
        """Append an outcome of kind ``kind`` (role-checked, payload validated). Rolls, checks
        and opening/closing have their own methods."""
        if kind in RESERVED_KINDS:
            raise PermissionDenied(kind, self.role, f"use the session's own method for {kind!r}")
        spec = event_kind(kind)
        if spec.action is None:
            raise PermissionDenied(kind, self.role, "written by the table itself")
        data = validate(kind, payload)
        character_id = data.get("character_id") if kind.startswith("character.") else None
        self.require(spec.action, character_id)
        self._check_audience(audience)
        self._check_texts(kind, data)
        self.rate_limit.take()

        def make(tx: WriteTx) -> list[NewEvent]:
            if kind.startswith("character.") and character_id not in self.state.characters:
                self.require("character.create")
            self.require(spec.action, character_id)
            if (
                kind == "character.update"
                and audience != AUDIENCE_GM
                and self.character_audience(character_id) == AUDIENCE_GM
            ):
                raise EventError(
                    f"character {character_id!r} is GM-only: reveal it with "
                    "set_character(..., hidden=False) before public updates"
                )
            if kind.startswith("character."):
                self._validate_character(character_id, data)
            return [NewEvent(kind, self.seat, data, audience)]

        return self._write(make)[-1]

    @staticmethod
    def _check_texts(kind: str, data: Mapping[str, Any]) -> None:
        if kind == "message":
            check_text("message", data.get("text"))
        elif kind == "note":
            check_text("note", data.get("text"))
            check_text("title", data.get("title"))
        elif kind == "character.set":
            check_character_texts(data["data"])
        elif kind == "character.update":
            check_character_texts(data["changes"])

    def _check_audience(self, audience: str) -> None:
        if not audience_ok(audience):
            raise EventError(f"bad audience {audience!r}")
        if self.role != "gm" and audience not in (AUDIENCE_ALL, SEAT_AUDIENCE_PREFIX + self.seat):
            raise PermissionDenied("audience", self.role, f"cannot address {audience!r}")

    def _validate_character(self, character_id: str, data: Mapping[str, Any]) -> None:
        before = self.state.characters.get(character_id, {})
        if "data" in data:
            merged = dict(data["data"])
        else:
            merged = {**before, **data["changes"]}
        # a character in creation: a player's only when the GM lets players make their own
        check_players_make(self.system, self.role, before, table_option(self, "players_build"))
        # the sheet's GM fields: a player changes none of them, on any path
        if "data" in data:
            check_gm_fields(self.system, self.role, before, data["data"], replace=True)
            check_phase_edit(self.system, self.role, before, data["data"], replace=True)
            check_character_write(self.system, self.role, before, data, replace=True)
        else:
            check_gm_fields(self.system, self.role, before, data["changes"])
            check_phase_edit(self.system, self.role, before, data["changes"])
            check_character_write(self.system, self.role, before, data)
        model = self.system.Character
        errors = [p for p in model.check_dict(merged) if p.severity == "error"]
        if errors:
            raise EventError(f"character {character_id!r}: " + "; ".join(str(p) for p in errors))

    # convenience wrappers --------------------------------------------------------------------
    def set_character(
        self, character_id: str, data: Mapping[str, Any], *, hidden: bool = False, owner: str | None = None
    ) -> Event:
        payload: dict[str, Any] = {"character_id": character_id, "data": jsonable(dict(data))}
        if owner is not None or character_id not in self.state.characters:
            payload["owner"] = owner
        return self.record("character.set", payload, audience=AUDIENCE_GM if hidden else AUDIENCE_ALL)

    def character_audience(self, character_id: str) -> str:
        """Who may see this character: ``"all"``, or ``"gm"`` for a GM-only one (an NPC)."""
        return self.state.character_audience.get(character_id, AUDIENCE_ALL)

    def has_hidden_changes(self, character_id: str) -> bool:
        """Whether this seat knows values of the character that not every seat knows (a
        hidden check's effects): then anything carrying its sheet stays hidden too."""
        public = self.state.public_characters.get(character_id)
        return public is not None and public != self.state.characters.get(character_id)

    def update_character(
        self, character_id: str, changes: Mapping[str, Any], *, reason=None, hidden: bool | None = None
    ) -> Event:
        """Record trait values after a change. By default the update is seen by whoever sees
        the character (a GM-only NPC's damage stays GM-only)."""
        if hidden is None:
            audience = self.character_audience(character_id)
        else:
            audience = AUDIENCE_GM if hidden else AUDIENCE_ALL
        return self.record(
            "character.update",
            {"character_id": character_id, "changes": jsonable(dict(changes)), "reason": reason},
            audience=audience,
        )

    def finish_character(self, character_id: str) -> Event:
        """Finish a character: the system's ``start_play`` on the character as the table holds
        it, recorded as a ``character.update`` (``reason="finish"``) seen by whoever sees the
        character. The GM may finish any character, a player their own (:mod:`.phases`); the
        system's ``RuleError`` (the creation problems, or "already in play") when it refuses,
        and nothing is written."""
        self._begin("character.edit", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.edit", character_id)
            data = self.state.characters.get(character_id)
            if data is None:
                raise EventError(f"no character {character_id!r} at this table (or not visible to this seat)")
            check_players_make(self.system, self.role, data, table_option(self, "players_build"))
            changes = finish_changes(self.system, data)
            payload = validate(
                "character.update", {"character_id": character_id, "changes": jsonable(changes), "reason": "finish"}
            )
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self._write(make)[-1]

    def advance(self, character_id: str, advance_id: str, **options: Any) -> Event:
        """Buy ``advance_id`` (with ``options``) for a character in play: the system's ``advance``
        on the character as the table holds it, recorded as a ``character.update`` whose
        ``reason`` names the advance, its options, cost and text (:mod:`.advancement`), seen by
        whoever sees the character. Between sessions, and during one unless the system's rules
        say advancement waits for the session's end (RET). The GM may advance any
        character, a player their own and without the advance's GM options; a refusal (the
        rules' ``RuleError``, or :class:`~.rules.PlayDenied`) writes nothing."""
        self._begin("character.edit", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.edit", character_id)
            waits = self.system.advance_waits_for_session_end()
            if waits and self.state.session_open:
                raise RuleError("advance_after_session", dict(waits))
            data = self.state.characters.get(character_id)
            payload = advance_update(self.system, self.role, character_id, data, advance_id, options)
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self._write(make)[-1]

    def award(self, character_id: str, resource: str, amount: int) -> Event:
        """The GM gives ``amount`` of ``resource`` (one of the system's advancement resources) to
        a character in play: the system's ``award`` on the character as the table holds it,
        recorded like :meth:`advance`. GM only."""
        check_award_role(self.system, self.role)  # a player hears who gives awards
        self._begin("character.award", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.award", character_id)
            data = self.state.characters.get(character_id)
            payload = award_update(self.system, self.role, character_id, data, resource, amount)
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self._write(make)[-1]

    def note(self, text: str, title: str | None = None) -> Event:
        """A GM note: only GM seats ever load it."""
        return self.record("note", {"text": text, "title": title}, audience=AUDIENCE_GM)

    def say(self, text: str) -> Event:
        return self.record("message", {"text": text})

    def set_combat(
        self, state: Mapping[str, Any], public: Mapping[str, Any] | None = None, *, public_changed: bool = True
    ) -> list[Event]:
        """The combat tracker after a GM action. With ``public`` (the audience projection:
        no hidden combatants, no sheets...), players get only that; the GM's view gets
        ``state``. ``public_changed=False``: the action changed nothing players see (a hidden
        combatant's turn), so nothing goes to them at all."""
        self._begin("combat")
        if public is None and not public_changed:
            raise ValueError("public_changed=False needs the public projection")
        events = self._combat_events(state, public)
        if not public_changed:
            events = [e for e in events if e.audience == AUDIENCE_GM]

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            return events

        return self._write(make)

    # -- dice ----------------------------------------------------------------------------------
    def roll(
        self,
        what: "str | CheckRequest",
        hidden: bool = False,
        *,
        variables=None,
        label: str | None = None,
        locale: str = "en",
    ) -> Event:
        """Roll a dice expression or a named check (:func:`check`) with the table's fair dice
        (stream = the next roll index) and append the outcome. ``hidden``: only the GM (and the
        roller) see it. Returns the stored event (``event.payload["result"]``)."""
        if isinstance(what, CheckRequest):
            return self._roll_check(what, hidden, locale)
        if not isinstance(what, str) or not what.strip():
            raise PlayError(
                "no_expression",
                {
                    "en": "Type a dice expression to roll (e.g. 2d6+1).",
                    "ru": "Введите выражение броска (например, 2d6+1).",
                },
            )
        check_text("expression", what)
        check_text("label", label)
        self._begin("roll.hidden" if hidden else "roll")
        audience = self._own_audience(hidden)
        from ..dice import roll as dice_roll

        variables = dict(variables) if variables else None
        failed: list[int] = []
        errors: list[BaseException] = []

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("roll.hidden" if hidden else "roll")
            index = tx.next_roll
            rng = DrawWatch(tx.secret_seed(), index)
            result, error = roll_guarded(rng, lambda r: dice_roll(what, rng=r, variables=variables, locale=locale))
            if error is not None:  # the dice are drawn: the index is spent, and recorded
                failed.append(index)
                errors.append(error)
                payload = validate(
                    "roll.failed",
                    failed_payload(
                        index, what="roll", hidden=hidden, error=error, expr=what, variables=variables, label=label
                    ),
                )
                return [NewEvent("roll.failed", self.seat, payload, audience, roll=index)]
            # a big roll is stored packed, with a bounded summary text (issue 21)
            payload = roll_payload(
                index,
                what,
                variables=variables,
                label=label,
                hidden=hidden,
                result=result,
                locale=locale,
            )
            return [NewEvent("roll", self.seat, payload, audience, roll=index)]

        stored = self._write(make)
        if failed:
            raise failed_roll_error(failed[0], errors[0])
        return stored[0]

    def roll_initiative(
        self,
        characters: Mapping[str, Mapping[str, Any]],
        *,
        options: Mapping[str, Any] | None = None,
        hidden: bool = False,
        combat: Callable[[Any, dict[str, Any]], "tuple[Mapping, Mapping | None] | None"] | None = None,
        names: Mapping[str, str] | None = None,
        locale: str = "en",
    ) -> list[Event]:
        """GM: roll initiative with the table's fair dice and record the outcome.

        ``characters``: ``{combatant_id: sheet values}`` (``Character.to_dict()``) of those who
        roll, in the order given to the system. Inside the write transaction the session takes
        the next roll index ``i``, calls ``system.roll_initiative`` with ``rng_for(seed, i)`` on
        characters rebuilt from those values, and appends an ``initiative`` event (index, ids,
        values, options and the outcome: order, keys, texts, tie-breaks), which ``verify``
        re-rolls and checks.

        ``combat(rng, outcome)``, when given, runs in the same transaction with a fresh
        ``rng_for(seed, i)`` (the same stream) and the recorded outcome: the tracker rolls its
        own Combat with it and returns ``(full_state, public_state)`` for ``combat.state``
        events appended in the same transaction (as :meth:`set_combat` writes them), or
        ``None``. An exception there aborts the whole write.

        ``hidden`` (or any GM-only character among ``characters``): only GM seats get the
        ``initiative`` event. Returns the stored events (the ``initiative`` event first)."""
        self._begin("combat")
        if not self.state.session_open:
            raise session_ended_denial(self, "combat")
        if not characters:
            raise EventError("nobody to roll initiative for")
        system = self.system
        values = {str(cid): jsonable(dict(v)) for cid, v in characters.items()}
        opts = jsonable(dict(options or {}))
        secret = hidden or any(
            self.character_audience(cid) == AUDIENCE_GM or self.has_hidden_changes(cid) for cid in values
        )
        audience = AUDIENCE_GM if secret else AUDIENCE_ALL

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            if not self.state.session_open:
                raise session_ended_denial(self, "combat")
            index = tx.next_roll
            models = {cid: system.Character.from_dict(v) for cid, v in values.items()}
            result = system.roll_initiative(models, rng=rng_for(tx.secret_seed(), index), **opts)
            outcome = initiative_json(result)
            if sorted(outcome["order"]) != sorted(values):
                raise EventError("the system's initiative order does not match the combatants")
            payload = validate(
                "initiative",
                {
                    "index": index,
                    "system": system.slug,
                    "ids": list(values),
                    "characters": values,
                    "options": opts,
                    "hidden": bool(secret),
                    "result": outcome,
                    "text": initiative_text(outcome, names, locale),
                },
            )
            out = [NewEvent("initiative", self.seat, payload, audience, roll=index)]
            if combat is not None:
                states = combat(rng_for(tx.secret_seed(), index), outcome)
                if states is not None:
                    full, public = states
                    out += self._combat_events(full, public)
            return out

        return self._write(make)

    # -- attacks (see :mod:`.attacks`) ----------------------------------------------------------
    def ask_attack(self, attacker_id: str, target_id: str, attack_id: str | None = None, options=None) -> Event:
        """Ask the GM's kernel which attacks ``attacker_id`` can make on ``target_id`` and, for
        ``attack_id`` with ``options``, the exact odds (answered by an ``attack.offer`` to this
        seat: :func:`.attacks.offer_for`). A player asks for their own character only, about a
        target their seat sees."""
        return self._attack_write("attack", lambda: ask_events(self, attacker_id, target_id, attack_id, options))[0]

    def declare_attack(self, attacker_id: str, target_id: str, attack_id: str, options=None) -> Event:
        """Make an attack: a player with their own character on its turn, on a target their seat
        sees (the GM's kernel checks it again, asks the defender when the attack has defender
        options, and rolls it with the table's fair dice)."""
        return self._attack_write("attack", lambda: declare_events(self, attacker_id, target_id, attack_id, options))[0]

    def answer_attack(self, request: str, options=None) -> Event:
        """The defender's choices for a pending attack: from the seat asked, or the GM (for an
        absent player or an NPC)."""
        return self._attack_write("attack", lambda: answer_events(self, request, options))[0]

    def write_attack_events(self, make: Callable[[], Sequence[tuple[str, Mapping[str, Any], str]]]) -> list[Event]:
        """GM: the attack desk's events without dice (offers, questions, refusals): ``make()``
        runs under the table's lock on the caught-up state and returns ``(kind, payload,
        audience)`` triples (none: nothing is written)."""
        return self._attack_write("combat", make)

    def _attack_write(self, action: str, make: Callable[[], Sequence[tuple]]) -> list[Event]:
        self._begin(action)
        if action == "attack" and not self.state.session_open:
            raise session_ended_denial(self, action)
        make()  # the checks on the state as this seat has it: refuse before taking the lock

        def build(tx: WriteTx) -> list[NewEvent]:
            self.require(action)
            out = []
            for kind, payload, audience in make():
                if not audience_ok(audience):
                    raise EventError(f"bad audience {audience!r}")
                out.append(NewEvent(kind, self.seat, validate(kind, payload), audience))
            return out

        return self._write(build)

    def roll_attack(
        self, roll: Callable[[Callable[[], Any], int], "tuple | None"], *, kind: str = "attack"
    ) -> list[Event]:
        """GM: a tracker action rolled with the table's fair dice (an ``attack``, or a ``turn``'s
        start/end effects). Inside the write transaction ``roll(stream, index)`` gets the next
        roll index and ``stream()``, a fresh stream of it each call (``rng_for(seed, index)``
        noting whether anything was drawn), and returns None (nothing to write) or ``(payload,
        hidden, full_state, public_state, public_changed, more)``: the ``kind`` event (None:
        no dice were drawn, no index used), the tracker's ``combat.state`` events as
        :meth:`set_combat` writes them, and further ``(kind, payload, audience)`` triples. An
        exception aborts the whole write."""
        if kind not in ("attack", "turn"):
            raise ValueError(f"roll_attack writes attack or turn events, not {kind!r}")
        self._begin("combat")
        if not self.state.session_open:
            raise session_ended_denial(self, "combat")

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            index = tx.next_roll
            seed = tx.secret_seed()
            got = roll(lambda: DrawWatch(seed, index), index)
            if got is None:
                return []
            payload, hidden, full, public, changed, more = got
            out = []
            if payload is not None:
                data = validate(kind, payload)
                out.append(NewEvent(kind, self.seat, data, AUDIENCE_GM if hidden else AUDIENCE_ALL, roll=index))
            events = self._combat_events(full, public)
            out += events if changed else [e for e in events if e.audience == AUDIENCE_GM]
            for k, p, audience in more:
                if not audience_ok(audience):
                    raise EventError(f"bad audience {audience!r}")
                out.append(NewEvent(k, self.seat, validate(k, p), audience))
            return out

        return self._write(make)

    def _combat_events(self, state: Mapping[str, Any], public: Mapping[str, Any] | None) -> list[NewEvent]:
        full = validate("combat.state", {"state": jsonable(dict(state))})
        if public is None:
            return [NewEvent("combat.state", self.seat, full, AUDIENCE_ALL)]
        pub = validate("combat.state", {"state": jsonable(dict(public))})
        # public first: GM's view applies both and ends on the full state
        return [
            NewEvent("combat.state", self.seat, pub, AUDIENCE_ALL),
            NewEvent("combat.state", self.seat, full, AUDIENCE_GM),
        ]

    def _roll_check(self, req: CheckRequest, hidden: bool, locale: str) -> Event:
        cid = req.character_id or self.character_id
        if cid is None:
            raise EventError("which character? pass check(check_id, character_id)")
        self.require("roll.hidden" if hidden else "roll")
        self._begin("check", cid)
        # a check carries the sheet it was rolled with (for verify): a GM-only character's
        # checks are GM-only whatever ``hidden`` says
        audience = self._own_audience(
            hidden or self.character_audience(cid) == AUDIENCE_GM or self.has_hidden_changes(cid)
        )
        system = self.system
        options = jsonable(dict(req.options))
        failed: list[int] = []

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("check", cid)
            data = self.state.characters.get(cid)
            if data is None:
                raise EventError(f"no character {cid!r} at this table (or not visible to this seat)")
            model = system.Character.from_dict(data)
            # the options as the check declares them for the character as the table holds it
            # (bounds that follow the character, e.g. declared Luck <= Luck held, included)
            check_options(system.check(model, req.check_id), options, role=self.role, system=system)
            index = tx.next_roll
            rng = DrawWatch(tx.secret_seed(), index)
            result, error = roll_guarded(rng, lambda r: system.roll_check(model, req.check_id, rng=r, **options))
            if error is not None:  # the dice are drawn: the index is spent, and recorded
                failed.append(index)
                payload = validate(
                    "roll.failed",
                    failed_payload(
                        index,
                        what="check",
                        hidden=hidden,
                        error=error,
                        check_id=req.check_id,
                        character_id=cid,
                        character=jsonable(data),
                        options=options,
                    ),
                )
                return [NewEvent("roll.failed", self.seat, payload, audience, roll=index)]
            payload = validate(
                "check",
                {
                    "index": index,
                    "system": system.slug,
                    "check_id": req.check_id,
                    "character_id": cid,
                    "character": jsonable(data),
                    "options": options,
                    "hidden": hidden,
                    "result": check_json(result),
                    "text": result.text(locale),
                    "texts": {loc: result.breakdown(loc) for loc in LOCALES},
                },
            )
            out = [NewEvent("check", self.seat, payload, audience, roll=index)]
            if result.effects:
                changes = system.apply_effects(model, result.effects)
                if changes:
                    upd = validate(
                        "character.update",
                        {
                            "character_id": cid,
                            "changes": jsonable({k: v[1] for k, v in changes.items()}),
                            "reason": {"check": req.check_id, "index": index},
                        },
                    )
                    out.append(NewEvent("character.update", self.seat, upd, audience))
            return out

        stored = self._write(make)
        if failed:
            raise failed_roll_error(failed[0])
        return stored[0]

    def after_roll(self, index: int, *, locale: str = "en", **options: Any) -> Event:
        """Change this seat's latest check (roll ``index``) as the rules allow after the roll
        (``GameSystem.after_roll``: Life&Death's epic dice spent after it), once: recomputed
        from the roll as the table recorded it, written as a ``check.after`` event that every
        seat that saw the check sees, with the effects as a ``character.update``. A refusal
        (someone else's roll, an old one, nothing offered, bad options) writes nothing
        (:mod:`.after_roll`). Returns the ``check.after`` event."""
        entry = next(
            (e for e in reversed(self.state.log) if e.get("kind") == "check" and e.get("index") == index), None
        )
        cid = (entry or {}).get("character_id") or self.character_id
        self._begin("check", cid)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("check", cid)
            return after_roll_events(self, tx, index, options, locale)

        return self._write(make)[0]

    # -- sessions and closing -------------------------------------------------------------------
    def end_session(self) -> Event:
        """GM: end tonight's game session. Its fair-dice seed is revealed in a
        ``session.ended`` event (then ``verify_table(store, table_id, session=n)`` checks it);
        until :meth:`start_session`, nothing is rolled. Characters, notes, options and seats
        stay. Returns the event. A player's or observer's seat gets ``PermissionDenied``; a
        session that has already ended, a :class:`~.rules.PlayError` saying so."""
        from .campaign import end_session_events, no_open_session

        self._begin("session.manage")
        if not self.state.session_open:
            raise no_open_session(self.state.session)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("session.manage")
            return end_session_events(self, tx)

        return self._write(make)[0]

    def start_session(self, *, options: Mapping[str, Any] | None = None) -> Event:
        """GM: open the next game session with a fresh secret seed; its commitment (the new
        :attr:`commitment`) goes to every seat in a ``session.started`` event. The system's
        session rules (``GameSystem.session_started``, with ``options``) run for every
        character in the same write. Characters enter it as the last session left them; seat
        links keep working. Returns the ``session.started`` event."""
        from .campaign import start_session_events, still_open
        from .fairdice import FairDice

        self._begin("session.manage")
        if self.state.session_open:
            raise still_open(self.state.session)
        dice = FairDice.new()
        opts = dict(options or {})

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("session.manage")
            return start_session_events(self, tx, dice, opts)

        return self._write(make)[0]

    def close_table(self) -> TableInfo:
        """GM: close the campaign for good. Ends the open session (its seed is revealed), and
        nothing more is written (then anyone can ``verify``)."""
        self._begin("table.close")

        def make(tx: WriteTx) -> list[NewEvent]:
            # the seed of the session this closes: the open one, else the last one (revealed)
            seed = tx.secret_seed().hex() if tx.session.is_open else str(tx.session.seed)
            payload = validate("table.closed", {"seed": seed, "seed_hash": tx.session.seed_hash})
            return [NewEvent("table.closed", self.seat, payload, AUDIENCE_ALL)]

        self._write(make, close=True)
        return self.table

    # -- views ---------------------------------------------------------------------------------
    def events(self, after_seq: int = 0) -> list[Event]:
        """This seat's visible log from the store (filtered in the query)."""
        return self.store.events(self.table_id, after_seq=after_seq, audiences=self.audiences)

    def character(self, character_id: str | None = None):
        """The character as the system's model (a fresh object built from the state)."""
        cid = character_id or self.character_id
        if cid not in self.state.characters:
            raise KeyError(f"no character {cid!r} visible at this seat")
        return self.system.Character.from_dict(self.state.characters[cid])

    # -- trust: the chain head, the commitment, reissued links (issue 14) ----------------------
    @property
    def commitment(self) -> str:
        """The current game session's full dice commitment (sha256 of its secret seed, published
        when the session started; session 1's at the table's creation): a player copies it and
        passes it to ``verify --commitment`` after the session ends."""
        return self.state.commitment or self.table.seed_hash

    @property
    def session_number(self) -> int:
        """The current game session's number (1, 2, ...; the last one started)."""
        return self.state.session

    @property
    def session_open(self) -> bool:
        """Whether tonight's session is open (dice may be rolled)."""
        return self.state.session_open

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
            payload = validate("seat.reissued", {"seat": seat, "role": known[seat].role})
            return [NewEvent("seat.reissued", self.seat, payload, audience)]

        self._write(make)
        if seat == self.seat:
            self._seat = dataclasses.replace(self._seat, token_hash=new_hash)
        return token


@reducer("initiative")
def _initiative(state: TableState, e: Event) -> None:
    p = e.payload
    state.rolls += 1
    state.log_event(e, index=p["index"], ids=list(p["ids"]), hidden=p["hidden"], text=p["text"], result=p["result"])


def rebuild(store: Store, table_id: str, audiences: Sequence[str] | None = None) -> TableState:
    """The state of ``table_id`` folded from its whole log (no snapshot), for checks and tools."""
    state = TableState(table_id)
    for e in store.events(table_id, audiences=audiences):
        state.apply(e)
    return state
