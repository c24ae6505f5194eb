"""Campaigns: a table that lives from one game night to the next (issue 18).

A table made by :func:`~.seats.create_table` is a *campaign* whose game session 1 is open. The
campaign holds the characters, the GM's notes and options, and the seats (their links keep
working from one session to the next); each *session* has its own fair-dice seed:

* ``TableSession.end_session()`` (GM): a ``session.ended`` event reveals the session's seed
  (``verify_table(store, table_id, session=n)`` then checks that session), and records the
  roll indices the session used (``first_roll`` .. ``first_roll + rolls - 1``). Between
  sessions nothing is rolled (a roll is refused with a message that says why); characters,
  notes, chat and the GM's edits go on as events.
* ``TableSession.start_session()`` (GM): a fresh secret seed; a ``session.started`` event
  publishes its commitment to every seat (``TableSession.commitment`` is the current session's)
  and the roll index its first roll takes. The system's session rules run in the same write
  (RET's Luck refill, L&D's surprises owed...: ``GameSystem.session_started``), each one recorded
  as a ``character.update`` with ``reason = {"session_rules": n}``.

The store keeps each session's seed in its ``sessions`` table (schema 3), secret until the
session ends; the log is the record: it says when every session started and ended, with which
commitment and seed, so followers, snapshots and the audience filter need nothing new (the two
events go to every seat). Roll indices go on across sessions (the store's gapless ``roll``
column); a roll's stream is ``rng_for(seed of its session, index)``.

A table from before sessions reads as one session: session 1, open unless the table closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, TYPE_CHECKING

from ..core.i18n import T
from ..core.system import term_of
from .events import jsonable
from .kinds import sheets_secret
from .kinds import (
    CHARACTER_SET,
    CHARACTER_UPDATE,
    SEAT_ADDED,
    SEAT_RETIRED,
    SESSION_ENDED,
    SESSION_REMINDER,
    SESSION_STARTED,
)
from .fairdice import FairDice
from .rules import PlayDenied, PlayError
from .seats import register_action
from .store import AUDIENCE_ALL, AUDIENCE_GM, NewEvent, SeatRecord, SessionInfo, Store, WriteTx

if TYPE_CHECKING:  # pragma: no cover
    from .session import TableSession

#: the dice actions, refused between sessions
DICE_ACTIONS = frozenset({"roll", "roll.hidden", "check"})

register_action("session.manage", ["gm"])


@dataclass(frozen=True)
class SessionView:
    """A game session as a seat knows it from the log."""

    n: int
    seed_hash: str
    first_roll: int
    started: float | None
    ended: float | None
    seed: str | None
    rolls: int | None

    @property
    def is_open(self) -> bool:
        return self.ended is None


def sessions(state) -> list[SessionView]:
    """The campaign's sessions as the state (any seat's) knows them, session 1 first."""
    return [
        SessionView(
            n=int(s["n"]),
            seed_hash=str(s.get("seed_hash") or ""),
            first_roll=int(s.get("first_roll") or 0),
            started=s.get("started"),
            ended=s.get("ended"),
            seed=s.get("seed"),
            rolls=s.get("rolls"),
        )
        for s in state.session_list()
    ]


def session_ended_denial(session: "TableSession", action: str) -> PlayDenied:
    """What a seat hears when it tries to roll between sessions."""
    n = session.state.session
    gm_en, gm_ru = term_of(session.system, "gm", "en"), term_of(session.system, "gm", "ru")
    return PlayDenied(
        "session_ended",
        action,
        session.role,
        T(
            f"Session {n} has ended: nothing is rolled until the {gm_en} starts the next session.",
            f"Сессия {n} окончена: бросков нет, пока {gm_ru} не начнёт следующую сессию.",
        ),
        session=n,
    )


def _session_error(code: str, n: int, en: str, ru: str) -> PlayError:
    return PlayError(code, T(en, ru), session=n)


def no_open_session(n: int) -> PlayError:
    return _session_error(
        "no_open_session",
        n,
        f"Session {n} has already ended: start the next one first.",
        f"Сессия {n} уже окончена: сначала начните следующую.",
    )


def still_open(n: int) -> PlayError:
    return _session_error(
        "session_open",
        n,
        f"Session {n} is still open: end it before starting the next one.",
        f"Сессия {n} ещё идёт: закончите её, прежде чем начинать следующую.",
    )


def end_session_events(session: "TableSession", tx: WriteTx) -> list[NewEvent]:
    """Inside the GM's write: end the current session (``tx.end_session()``) and the
    ``session.ended`` event that reveals its seed."""
    if not tx.session.is_open or tx.session.n != session.state.session:
        raise no_open_session(tx.session.n)
    first = int(session.state.session_list()[-1].get("first_roll") or 0)
    seed = tx.end_session()
    return [
        SESSION_ENDED.new(
            session.actor,
            session=tx.session.n,
            seed=seed,
            seed_hash=tx.session.seed_hash,
            first_roll=first,
            rolls=tx.next_roll - first,
        )
    ]


def start_session_events(
    session: "TableSession", tx: WriteTx, dice: FairDice, options: Mapping[str, Any]
) -> list[NewEvent]:
    """Inside the GM's write: open the next session with ``dice`` (``tx.start_session``), the
    ``session.started`` event with its commitment, and the system's session rules."""
    if tx.session.is_open:
        raise still_open(tx.session.n)
    info = tx.start_session(dice.seed, dice.seed_hash)
    out = [SESSION_STARTED.new(session.actor, session=info.n, seed_hash=info.seed_hash, first_roll=tx.next_roll)]
    out += session_rules_events(session, info.n, jsonable(dict(options)))
    return out


def session_rules_events(session: "TableSession", n: int, options: Mapping[str, Any]) -> list[NewEvent]:
    """The system's rules at the start of session ``n`` for every character a seat's state
    holds (the GM's: all of them), as ``character.update`` events."""
    return rules_events(session.system, session.state, n, options, session.actor)


def rules_events(system, state, n: int, options: Mapping[str, Any], actor: str) -> list[NewEvent]:
    """``GameSystem.session_started(character, choices=...)`` for every character of ``state``
    (a GM's view), as ``character.update`` events (``reason = {"session_rules": n, "before",
    "notes"}``): what changed, seen by whoever sees the character (a GM-only NPC's, or one with
    changes only the GM knows, by the GM only)."""
    hook = getattr(system, "session_started", None)
    if hook is None:
        return []
    out = []
    for cid, data in sorted(state.characters.items()):
        try:
            model = system.Character.from_dict(data)
        except ValueError:
            continue  # a sheet the system cannot read is left as it is
        outcome = hook(model, choices=dict(options))
        if outcome is None:
            continue
        if not outcome.changes:
            if outcome.notes:  # something owed this session: a reminder for the GM
                notes = jsonable([dict(x) for x in outcome.notes])
                out.append(SESSION_REMINDER.new(actor, AUDIENCE_GM, character_id=cid, session=n, notes=notes))
            continue
        changes = {trait: new for trait, (_old, new) in outcome.changes.items()}
        # whoever sees the character; the GM alone when this view knows values of it not every
        # seat knows (the one rule: kinds.sheets_secret)
        audience = AUDIENCE_GM if sheets_secret(state, [cid]) else AUDIENCE_ALL
        reason = {
            "session_rules": n,
            "before": jsonable({trait: old for trait, (old, _new) in outcome.changes.items()}),
            "notes": jsonable(list(outcome.notes)),
        }
        out.append(CHARACTER_UPDATE.new(actor, audience, character_id=cid, changes=jsonable(changes), reason=reason))
    return out


# --------------------------------------------------------------------------------------------
# the GM's campaign list (the lobby): whoever holds the lobby key acts for the GM
# --------------------------------------------------------------------------------------------
LOBBY_ACTOR = "lobby"


@dataclass(frozen=True)
class Campaign:
    """A campaign of the store as its list shows it."""

    table_id: str
    title: str
    system: str
    created: float
    closed: bool
    sessions: list[SessionInfo]
    seats: list[dict[str, Any]]  # {"seat", "role", "name", "character_id", "retired"}

    @property
    def current(self) -> SessionInfo:
        return self.sessions[-1]

    @property
    def players(self) -> list[dict[str, Any]]:
        return [s for s in self.seats if s["role"] == "player"]


def campaigns(store: Store) -> list[Campaign]:
    """Every campaign of the store, the newest first, with its sessions and seats (retired
    players marked: their seat has no working link)."""
    from .session import rebuild

    out = []
    for info in store.list_tables():
        state = rebuild(store, info.table_id, audiences=[AUDIENCE_ALL])
        retired = {s for s, d in state.seats.items() if d.get("retired")}
        seats = [
            {
                "seat": r.seat,
                "role": r.role,
                "name": r.name,
                "character_id": r.character_id,
                "retired": r.seat in retired,
            }
            for r in store.seats(info.table_id)
        ]
        out.append(
            Campaign(
                table_id=info.table_id,
                title=info.title,
                system=info.system,
                created=info.created,
                closed=info.is_closed,
                sessions=store.sessions(info.table_id),
                seats=seats,
            )
        )
    out.sort(key=lambda c: -c.created)
    return out


@dataclass(frozen=True)
class SessionReport:
    """A game session with its verification (``verify_table(..., session=n)``)."""

    n: int
    commitment: str
    started: float
    ended: float | None
    rolls: int | None
    ok: bool | None  # None: still open
    problems: list[str]


def session_reports(store: Store, table_id: str) -> list[SessionReport]:
    """Every session of a campaign, each ended one verified on its own."""
    from .verify import verify_table

    out = []
    for s in store.sessions(table_id):
        if s.is_open:
            out.append(SessionReport(s.n, s.seed_hash, s.started, None, None, None, []))
            continue
        try:
            rep = verify_table(store, table_id, session=s.n)
            out.append(SessionReport(s.n, s.seed_hash, s.started, s.ended, rep.rolls, rep.ok, list(rep.problems)))
        except ValueError as exc:
            out.append(SessionReport(s.n, s.seed_hash, s.started, s.ended, None, False, [str(exc)]))
    return out


def _gm_state(store: Store, table_id: str):
    from .session import rebuild

    return rebuild(store, table_id)


def start_next_session(
    store: Store, table_id: str, *, options: Mapping[str, Any] | None = None, actor: str = LOBBY_ACTOR
) -> SessionInfo:
    """Open the next session of a campaign from its list (see :meth:`TableSession.start_session`):
    the same events as the GM's page writes. Raises :class:`~.rules.PlayError` while a session
    is open, :class:`~.store.TableClosed` for a closed campaign."""
    from .session import system_for

    table = store.get_table(table_id)
    system = system_for(table)
    dice = FairDice.new()
    opts = jsonable(dict(options or {}))
    started: list[SessionInfo] = []

    def build(tx: WriteTx) -> list[NewEvent]:
        if tx.session.is_open:
            raise still_open(tx.session.n)
        state = _gm_state(store, table_id)  # the whole log, under the table's write lock
        info = tx.start_session(dice.seed, dice.seed_hash)
        started.append(info)
        started_event = SESSION_STARTED.new(actor, session=info.n, seed_hash=info.seed_hash, first_roll=tx.next_roll)
        return [started_event] + rules_events(system, state, info.n, opts, actor)

    store.write(table_id, build)
    return started[0]


def add_player(
    store: Store,
    table_id: str,
    name: str,
    character: Mapping[str, Any] | None = None,
    *,
    actor: str = LOBBY_ACTOR,
) -> tuple[str, str]:
    """A new player seat in a campaign, playing a new character (``character``: its sheet;
    default: a blank one of the system). Returns ``(seat, token)``: the token is shown once in
    the seat's link. Recorded as ``character.set`` and ``seat.added`` events."""
    from .rules import check_text
    from .seats import MAX_NAME, MAX_SEATS, TableSetupError, hash_token, new_token
    from .session import system_for

    if not isinstance(name, str) or not name.strip():
        raise PlayError("need_name", T("The new player needs a name.", "Новому игроку нужно имя."))
    name = name.strip()
    if len(name) > MAX_NAME:
        raise PlayError(
            "name_too_long",
            T(f"A seat's name has at most {MAX_NAME} characters.", f"Имя места — не длиннее {MAX_NAME} символов."),
        )
    check_text("name", name)
    table = store.get_table(table_id)
    system = system_for(table)
    data = jsonable(dict(character) if character is not None else system.Character().to_dict())
    errors = [p for p in system.Character.check_dict(data) if p.severity == "error"]
    if errors:
        raise PlayError("bad_character", T("; ".join(map(str, errors)), "; ".join(map(str, errors))))
    seats = store.seats(table_id)
    if len(seats) >= MAX_SEATS:
        raise TableSetupError(
            "too_many_seats",
            f"A table has at most {MAX_SEATS} seats.",
            f"За столом не больше {MAX_SEATS} мест.",
        )
    taken = {s.seat for s in seats}
    n = len(seats)
    while f"p{n}" in taken:
        n += 1
    seat = f"p{n}"
    state = _gm_state(store, table_id)
    cid = f"c{n}"
    while cid in state.characters:
        cid += "x"
    token = new_token()
    record = SeatRecord(table_id, seat, "player", hash_token(token), cid, name)

    def build(tx: WriteTx) -> list[NewEvent]:
        tx.add_seat(record)
        return [
            CHARACTER_SET.new(actor, character_id=cid, data=data, owner=seat),
            SEAT_ADDED.new(actor, seat=seat, role="player", name=name, character_id=cid),
        ]

    store.write(table_id, build)
    return seat, token


def retire_seat(store: Store, table_id: str, seat: str, *, actor: str = LOBBY_ACTOR) -> None:
    """A player leaves the campaign: their link stops working at once (a page open with it
    stops acting), their character stays with the campaign. Recorded as ``seat.retired``. The
    GM's seat is never retired (reissue its link instead)."""
    from .seats import hash_token, new_token

    known = {s.seat: s for s in store.seats(table_id)}
    if seat not in known:
        raise PlayError("no_seat", T(f"This campaign has no seat {seat!r}.", f"В этой кампании нет места {seat!r}."))
    if known[seat].role == "gm":
        raise PlayError(
            "retire_gm",
            T(
                "The GM's seat cannot be retired: give it a new link instead.",
                "Место мастера нельзя убрать: выдайте ему новую ссылку.",
            ),
        )
    dead = hash_token("retired:" + new_token())  # no token hashes to it that anyone holds

    def build(tx: WriteTx) -> list[NewEvent]:
        tx.set_token_hash(seat, dead)
        return [SEAT_RETIRED.new(actor, seat=seat)]

    store.write(table_id, build)


def reissue_gm_link(store: Store, table_id: str, *, actor: str = LOBBY_ACTOR) -> str:
    """A new token for the campaign's GM seat (the old GM link stops working): how the lobby
    opens tonight's session for the GM. Returns the token."""
    from .seats import reissue_token

    gm = next((s for s in store.seats(table_id) if s.role == "gm"), None)
    if gm is None:
        raise PlayError("no_gm", T("This campaign has no GM seat.", "В этой кампании нет места мастера."))
    return reissue_token(store, table_id, gm.seat, actor=actor)


__all__ = [
    "Campaign",
    "DICE_ACTIONS",
    "LOBBY_ACTOR",
    "SessionReport",
    "SessionView",
    "add_player",
    "campaigns",
    "end_session_events",
    "no_open_session",
    "reissue_gm_link",
    "retire_seat",
    "rules_events",
    "session_ended_denial",
    "session_reports",
    "sessions",
    "start_next_session",
    "start_session_events",
    "still_open",
]
