"""The table's own kinds: the table opened and closed, its options, its seats (added, retired,
given a new link, their language), and the game sessions of a campaign."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.i18n import LOCALES, T, tr
from ..payload import Payload, optional
from .base import Kind, Line, both

#: The GM's table options (``create_table(options=...)`` sets them at the start, the GM's
#: ``table.option`` events later): name -> default.
TABLE_OPTIONS: dict[str, bool] = {
    # players make their characters in creation themselves (their seat opens on the creation
    # wizard); off: the GM prepares them, the player's sheet says so, and the table refuses a
    # player's edit of a character in creation
    "players_build": True,
    # an NPC attacked with a choice of defence (a dodge, a parry) defends by its default choice
    # at once; off: the GM is asked, and the attacker's page says it waits for the GM
    "npcs_defend_by_default": False,
    # an X-card tap is shown on every seat's page, not only the GM's
    "x_card_public": False,
}

WORDS = {
    "closed": T("This table is closed: nothing can change any more.", "Стол закрыт: больше ничего нельзя изменить."),
    "seed": T("Dice key revealed", "Ключ кубиков раскрыт"),
    "ended": T("Session {n} ended", "Сессия {n} окончена"),
    "started": T("Session {n} started", "Началась сессия {n}"),
    "session_seed": T("Session {n} dice key revealed", "Ключ кубиков сессии {n} раскрыт"),
    "session_commitment": T("Session {n} dice commitment", "Печать кубиков сессии {n}"),
}


def _w(key: str, **fmt: Any) -> dict[str, str]:
    return {loc: tr(WORDS[key], loc).format(**fmt) for loc in LOCALES}


# --------------------------------------------------------------------------------------------
# the table
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class OpenedPayload(Payload):
    system: str
    title: str
    seed_hash: str
    seats: list
    options: dict | None = optional()
    software: dict | None = optional()


class TableOpened(Kind):
    """First event of every table: the system, the seats (no tokens) and the seed commitment."""

    name = "table.opened"
    Payload = OpenedPayload

    def reduce(self, state, event, p: OpenedPayload) -> None:
        state.system, state.title, state.seed_hash = p.system or "", p.title or "", p.seed_hash or ""
        state.combat_events = []  # tracked from the table's first event
        state.seats = {
            s["seat"]: {k: v for k, v in s.items() if k != "seat"}
            for s in p.seats or ()
            if isinstance(s, Mapping) and "seat" in s
        }
        state.sessions = [new_session(1, p.seed_hash, 0, event.created)]


@dataclass(frozen=True, kw_only=True)
class ClosedPayload(Payload):
    seed: str
    seed_hash: str


class TableClosed(Kind):
    """Last event: the GM closed the table; the fair-dice seed is revealed."""

    name = "table.closed"
    Payload = ClosedPayload
    action = "table.close"
    logged = True

    def reduce(self, state, event, p: ClosedPayload) -> None:
        current = state.session_list()[-1]
        if current["ended"] is None:  # closing the campaign ends its open session
            current.update(ended=event.created, seed=p.seed)
        state.closed, state.seed = True, p.seed

    def line(self, entry, p: ClosedPayload, ctx) -> Line:
        seed = p.seed or ""
        return Line(
            "table", what=both(WORDS["closed"]), text={loc: f"{tr(WORDS['seed'], loc)}: {seed}" for loc in LOCALES}
        )


@dataclass(frozen=True, kw_only=True)
class OptionPayload(Payload):
    name: str
    value: bool


class TableOption(Kind):
    """The GM changed a table option (:data:`TABLE_OPTIONS`)."""

    name = "table.option"
    Payload = OptionPayload
    action = "table.configure"
    recordable = True

    def reduce(self, state, event, p: OptionPayload) -> None:
        if p.name in TABLE_OPTIONS and isinstance(p.value, bool):
            state.extra.setdefault("table_options", {})[p.name] = p.value


# --------------------------------------------------------------------------------------------
# seats
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class LocalePayload(Payload):
    locale: str


class SeatLocale(Kind):
    """The language a seat chose (its pages open in it); the seat is the event's actor."""

    name = "seat.locale"
    Payload = LocalePayload
    action = "read"
    recordable = True

    def reduce(self, state, event, p: LocalePayload) -> None:
        if p.locale in LOCALES:  # the actor is the seat: nobody sets another seat's language
            state.extra.setdefault("seat_locales", {})[event.actor] = p.locale


@dataclass(frozen=True, kw_only=True)
class SeatAddedPayload(Payload):
    seat: str
    role: str
    name: str
    character_id: str | None = optional(omit_none=False)


class SeatAdded(Kind):
    """A seat joined the campaign (never its token)."""

    name = "seat.added"
    Payload = SeatAddedPayload

    def reduce(self, state, event, p: SeatAddedPayload) -> None:
        if p.seat:
            state.seats[p.seat] = {"role": p.role, "name": p.name, "character_id": p.character_id}


@dataclass(frozen=True, kw_only=True)
class SeatPayload(Payload):
    seat: str


class SeatRetired(Kind):
    """A player left: their link stops working."""

    name = "seat.retired"
    Payload = SeatPayload

    def reduce(self, state, event, p: SeatPayload) -> None:
        seat = state.seats.get(p.seat)
        if seat is not None:
            seat["retired"] = True


@dataclass(frozen=True, kw_only=True)
class ReissuedPayload(Payload):
    seat: str
    role: str


class SeatReissued(Kind):
    """The GM gave a seat a new link (the old one stopped working); never the token."""

    name = "seat.reissued"
    Payload = ReissuedPayload


# --------------------------------------------------------------------------------------------
# game sessions
# --------------------------------------------------------------------------------------------
def new_session(n: int, seed_hash: Any, first_roll: int, started: Any) -> dict[str, Any]:
    """A game session as the folded state keeps it (``ended``, ``seed``, ``rolls``: None while open)."""
    return {
        "n": n,
        "seed_hash": seed_hash,
        "first_roll": first_roll,
        "started": started,
        "ended": None,
        "seed": None,
        "rolls": None,
    }


@dataclass(frozen=True, kw_only=True)
class StartedPayload(Payload):
    session: int
    seed_hash: str
    first_roll: int


class SessionStarted(Kind):
    """The GM opened game session ``session`` with a fresh secret seed: its commitment, shown to
    every seat, and the roll index its first roll takes."""

    name = "session.started"
    Payload = StartedPayload
    logged = True

    def reduce(self, state, event, p: StartedPayload) -> None:
        state.session_list().append(new_session(p.session, p.seed_hash, p.first_roll or 0, event.created))

    def line(self, entry, p: StartedPayload, ctx) -> Line:
        n = p.session
        return Line(
            "session",
            what=_w("started", n=n),
            text={loc: f"{tr(WORDS['session_commitment'], loc).format(n=n)}: {p.seed_hash}" for loc in LOCALES},
        )


@dataclass(frozen=True, kw_only=True)
class EndedPayload(Payload):
    session: int
    seed: str
    seed_hash: str
    first_roll: int
    rolls: int


class SessionEnded(Kind):
    """The GM ended game session ``session``: its fair-dice seed is revealed (verify it now); its
    rolls had the indices ``first_roll .. first_roll + rolls - 1``. The campaign goes on."""

    name = "session.ended"
    Payload = EndedPayload
    logged = True

    def reduce(self, state, event, p: EndedPayload) -> None:
        current = state.session_list()[-1]
        if current["n"] == p.session:
            current.update(ended=event.created, seed=p.seed, rolls=p.rolls, first_roll=p.first_roll)

    def line(self, entry, p: EndedPayload, ctx) -> Line:
        n = p.session
        return Line(
            "session",
            what=_w("ended", n=n),
            text={loc: f"{tr(WORDS['session_seed'], loc).format(n=n)}: {p.seed}" for loc in LOCALES},
        )


@dataclass(frozen=True, kw_only=True)
class ReminderPayload(Payload):
    character_id: str
    session: int
    notes: list


class SessionReminder(Kind):
    """What the system's rules owe a character this session (L&D's surprises): the GM's."""

    name = "session.reminder"
    Payload = ReminderPayload

    def reduce(self, state, event, p: ReminderPayload) -> None:
        notes = [x for x in p.notes or () if isinstance(x, Mapping)]
        state.notes.append(
            {
                "seq": event.seq,
                "actor": event.actor,
                "text": "; ".join(str(x.get("en", "")) for x in notes),
                "texts": {loc: "; ".join(str(x.get(loc) or x.get("en", "")) for x in notes) for loc in LOCALES},
                "title": None,
                "audience": event.audience,
                "session": p.session,
            }
        )


KINDS = (
    TableOpened(),
    TableClosed(),
    TableOption(),
    SeatLocale(),
    SeatAdded(),
    SeatRetired(),
    SeatReissued(),
    SessionStarted(),
    SessionEnded(),
    SessionReminder(),
)
