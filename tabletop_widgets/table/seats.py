"""Seats, roles, secret tokens and links.

Every seat has its own 128-bit secret token (``secrets.token_urlsafe(16)``), shown once in the
seat's link ``?table=<id>&seat=<token>`` and stored only as its sha256 (fine for random
tokens: there is nothing to brute-force). A query string is user-controlled, so the token is a
capability, never a claim like ``?role=gm``.

Roles: ``gm`` (everything, sees every event), ``player`` (owns one character; sees public events
and those addressed to their seat), ``observer`` (reads public events only).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence
from urllib.parse import parse_qs, urlencode

from tabletop_widgets.core.i18n import LOCALES
from tabletop_widgets.core.system import term_of
from tabletop_widgets.core.wording import ru_n

from .events import jsonable
from .fairdice import FairDice
from .kinds.table import TABLE_OPTIONS  # the GM's table options, declared with their kind
from .store import AUDIENCE_ALL, AUDIENCE_GM, NewEvent, ROLES, SEAT_AUDIENCE_PREFIX, SeatRecord, Store, TableInfo

TOKEN_BYTES = 16  # 128 bits
#: bounds checked in Python whatever the lobby's widgets allow (a forged message can send any value)
MAX_SEATS = 24
MAX_NAME = 60  # a seat's display name
MAX_TITLE = 120  # a table's title
MAX_CHARACTERS = 64
_SEAT_RE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_TABLE_RE = re.compile(r"^[A-Za-z0-9_-]{4,64}$")

#: action -> roles allowed. Player actions on a character are further limited to their own.
ACTIONS: dict[str, frozenset[str]] = {
    "read": frozenset({"gm", "player", "observer"}),
    "roll": frozenset({"gm", "player"}),
    "roll.hidden": frozenset({"gm", "player"}),  # a player's hidden roll: that player and the GM
    "roll.reveal": frozenset({"gm"}),  # show a blind roll's result to the seats that saw it made
    "check": frozenset({"gm", "player"}),
    "character.edit": frozenset({"gm", "player"}),
    "character.create": frozenset({"gm"}),
    "combat": frozenset({"gm"}),
    "note": frozenset({"gm"}),
    "message": frozenset({"gm", "player"}),
    "view.hidden": frozenset({"gm"}),
    "seat.manage": frozenset({"gm"}),
    "table.close": frozenset({"gm"}),
    "safety.tap": frozenset({"gm", "player", "observer"}),  # the X-card: anyone, anonymously
    "safety.edit": frozenset({"gm"}),  # the campaign's lines and veils
    "handout": frozenset({"gm"}),
}
#: actions a player may take only on the character their seat owns
OWN_CHARACTER_ACTIONS = frozenset({"check", "character.edit"})


class SeatError(PermissionError):
    """No token, a wrong token, or a token for another table: nothing of the table is loaded.
    ``message`` is bilingual."""

    def __init__(self, code: str, en: str, ru: str):
        super().__init__(en)
        self.code = code
        self.message = {"en": en, "ru": ru}


class TableSetupError(ValueError):
    """A table that cannot be created as asked (too many seats, a name too long...): nothing
    is written. ``message`` is bilingual, for the lobby to show."""

    def __init__(self, code: str, en: str, ru: str):
        super().__init__(en)
        self.code = code
        self.message = {"en": en, "ru": ru}


class PermissionDenied(PermissionError):
    """The seat's role may not do this (a forged widget message, a stale button...)."""

    def __init__(self, action: str, role: str, detail: str = ""):
        msg = f"a {role} seat may not do {action!r}" + (f": {detail}" if detail else "")
        super().__init__(msg)
        self.action, self.role = action, role


def register_action(action: str, roles: Sequence[str]) -> None:
    """Add a role action (for event kinds registered by other packages)."""
    bad = set(roles) - set(ROLES)
    if bad:
        raise ValueError(f"unknown roles {sorted(bad)}")
    ACTIONS[action] = frozenset(roles)


def role_can(role: str, action: str) -> bool:
    return role in ACTIONS.get(action, frozenset())


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("_", "x").replace("-", "y")


def check_seat_id(seat: str) -> str:
    if not isinstance(seat, str) or not _SEAT_RE.match(seat):
        raise ValueError(f"seat id must be 1-40 letters, digits, '_' or '-', not {seat!r}")
    return seat


def audiences_for(role: str, seat: str) -> list[str] | None:
    """The audiences a seat may read (``None``: all of them, for the GM)."""
    if role == "gm":
        return None
    if role == "player":
        return [AUDIENCE_ALL, SEAT_AUDIENCE_PREFIX + seat]
    return [AUDIENCE_ALL]


def view_for(role: str, seat: str) -> str:
    """The snapshot view of a seat: seats that see the same events share it."""
    if role == "gm":
        return "gm"
    if role == "player":
        return SEAT_AUDIENCE_PREFIX + seat
    return "observer"


def visible(audience: str, role: str, seat: str) -> bool:
    allowed = audiences_for(role, seat)
    return allowed is None or audience in allowed


# --------------------------------------------------------------------------------------------
# links
# --------------------------------------------------------------------------------------------
def link(table_id: str, token: str, base: str = "") -> str:
    """``<base>?table=<id>&seat=<token>``."""
    return f"{base}?{urlencode({'table': table_id, 'seat': token})}"


def parse_query(query: str | None) -> tuple[str | None, str | None]:
    """``(table_id, token)`` from a query string (``QUERY_STRING`` in a Voila kernel)."""
    if not query:
        return None, None
    q = parse_qs(query.lstrip("?"), keep_blank_values=True)
    table = (q.get("table") or [None])[0]
    token = (q.get("seat") or [None])[0]
    return (table or None), (token or None)


# --------------------------------------------------------------------------------------------
# creating a table
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatSpec:
    seat: str
    role: str
    name: str = ""
    character_id: str | None = None


@dataclass
class CreatedTable:
    """What :func:`create_table` returns. ``tokens`` (seat -> secret) exist only here: keep the
    links, the store has only hashes."""

    table: TableInfo
    seats: list[SeatRecord]
    tokens: dict[str, str]
    seed_hash: str

    def links(self, base: str = "") -> dict[str, str]:
        return {seat: link(self.table.table_id, tok, base) for seat, tok in self.tokens.items()}

    @property
    def table_id(self) -> str:
        return self.table.table_id


def create_table(
    store: Store,
    system: str,
    seats: Sequence[SeatSpec | Mapping[str, Any]],
    *,
    title: str = "",
    characters: Mapping[str, Mapping[str, Any]] | None = None,
    hidden_characters: Sequence[str] = (),
    table_id: str | None = None,
    options: Mapping[str, Any] | None = None,
    validate_characters: bool = True,
) -> CreatedTable:
    """Create a table: the seats (at least one GM), a token per seat, the seed commitment, and
    the first events (``table.opened``, then a ``character.set`` per character; characters
    listed in ``hidden_characters`` are GM-only)."""
    specs = [s if isinstance(s, SeatSpec) else SeatSpec(**s) for s in seats]
    _check_bounds(specs, title, characters, system)
    characters = dict(characters or {})
    _check_seats(specs, characters)
    _check_characters(system, characters, validate_characters)
    table_id = table_id or new_table_id()
    if not _TABLE_RE.match(table_id):
        raise ValueError(f"table id must be 4-64 letters, digits, '_' or '-', not {table_id!r}")
    dice = FairDice.new()
    info = TableInfo(
        table_id=table_id,
        system=system,
        title=title,
        created=time.time(),
        seed_hash=dice.seed_hash,
        options=dict(options or {}),
    )
    tokens = {s.seat: new_token() for s in specs}
    records = [SeatRecord(table_id, s.seat, s.role, hash_token(tokens[s.seat]), s.character_id, s.name) for s in specs]
    events = _first_events(info, specs, characters, hidden_characters)
    store.create_table(info, dice.seed, records, events)
    return CreatedTable(table=info, seats=records, tokens=tokens, seed_hash=dice.seed_hash)


def _check_seats(specs: Sequence[SeatSpec], characters: Mapping[str, Any]) -> None:
    """At least one GM, unique well-formed seat ids, known roles, players' characters given."""
    if not any(s.role == "gm" for s in specs):
        raise ValueError("a table needs at least one GM seat")
    ids = [check_seat_id(s.seat) for s in specs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"duplicate seat ids in {ids}")
    for s in specs:
        if s.role not in ROLES:
            raise ValueError(f"seat {s.seat!r}: role must be one of {ROLES}, not {s.role!r}")
        if s.role == "player" and s.character_id is not None and s.character_id not in characters:
            raise ValueError(f"seat {s.seat!r} owns character {s.character_id!r}, which is not given")


def _check_characters(system: str, characters: Mapping[str, Mapping[str, Any]], validate: bool) -> None:
    """The system exists (an unknown one fails early); with ``validate``, every character
    loads without errors."""
    from .. import get_system

    try:
        system_obj = get_system(system)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None
    if validate and characters:
        model = system_obj.Character
        for cid, data in characters.items():
            errors = [p for p in model.check_dict(data) if p.severity == "error"]
            if errors:
                raise ValueError(f"character {cid!r}: " + "; ".join(str(p) for p in errors))


def _first_events(
    info: TableInfo,
    specs: Sequence[SeatSpec],
    characters: Mapping[str, Mapping[str, Any]],
    hidden_characters: Sequence[str],
) -> list[NewEvent]:
    """``table.opened`` (the seats, the options, the commitment and the software that rolls),
    then a ``character.set`` per character, all written by the first GM seat."""
    from .. import __version__
    from .kinds import CHARACTER_SET, TABLE_OPENED

    gm = next(s.seat for s in specs if s.role == "gm")
    opened = TABLE_OPENED.new(
        gm,
        system=info.system,
        title=info.title,
        seed_hash=info.seed_hash,
        seats=[{"seat": s.seat, "role": s.role, "name": s.name, "character_id": s.character_id} for s in specs],
        options=jsonable(dict(info.options)),
        # verify replays checks with the system's code: record which version rolled them
        software={"tabletop_widgets": __version__},
    )
    events = [opened]
    owners = {s.character_id: s.seat for s in specs if s.character_id}
    for cid, data in characters.items():
        audience = AUDIENCE_GM if cid in hidden_characters else AUDIENCE_ALL
        events.append(
            CHARACTER_SET.new(gm, audience, character_id=cid, data=jsonable(dict(data)), owner=owners.get(cid))
        )
    return events


def _gm_word(system: Any, locale: str) -> str:
    """The word of ``system``'s book (a slug) for the GM (RET «мастер», Seasons «Рассказчик»)."""
    from .. import get_system

    try:
        obj = get_system(system)
    except (KeyError, TypeError, ValueError):
        obj = None
    return term_of(obj, "gm", locale)


def _check_bounds(specs: Sequence[SeatSpec], title: Any, characters: Any, system: Any = None) -> None:
    """Seat count, names and title within bounds, before anything else is looked at."""
    if len(specs) > MAX_SEATS:
        raise TableSetupError(
            "too_many_seats",
            f"A table has at most {MAX_SEATS} seats ({_gm_word(system, 'en')}, players and observers together); "
            f"{len(specs)} were asked for.",
            f"За столом не больше {MAX_SEATS} мест ({_gm_word(system, 'ru')}, игроки и зрители вместе), "
            f"а запрошено {len(specs)}.",
        )
    for s in specs:
        if not isinstance(s.name, str) or len(s.name) > MAX_NAME:
            shown = s.name[:20] + "…" if isinstance(s.name, str) else repr(s.name)[:20]
            raise TableSetupError(
                "name_too_long",
                f"A seat's name has at most {MAX_NAME} characters ({shown!r} is "
                f"{len(s.name) if isinstance(s.name, str) else '?'}).",
                f"Имя места — не длиннее {MAX_NAME} символов ({shown!r}: "
                f"{len(s.name) if isinstance(s.name, str) else '?'}).",
            )
        if s.character_id is not None and (not isinstance(s.character_id, str) or not _SEAT_RE.match(s.character_id)):
            raise TableSetupError(
                "bad_character_id",
                f"A character id is 1-40 letters, digits, '_' or '-', not {str(s.character_id)[:50]!r}.",
                f"Код персонажа — от 1 до 40 латинских букв, цифр, '_' или '-', а не {str(s.character_id)[:50]!r}.",
            )
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise TableSetupError(
            "title_too_long",
            f"A table's name has at most {MAX_TITLE} characters.",
            f"Название стола — не длиннее {MAX_TITLE} символов.",
        )
    if characters is not None and len(characters) > MAX_CHARACTERS:
        raise TableSetupError(
            "too_many_characters",
            f"A new table has at most {MAX_CHARACTERS} characters.",
            f"У нового стола не больше {ru_n(MAX_CHARACTERS, 'персонажа', 'персонажей', 'персонажей')}.",
        )


def reissue_token(store: Store, table_id: str, seat: str, *, actor: str = "operator") -> str:
    """A new token for ``seat`` (the old link stops working at once, also in a page still open
    with it); returns the new token. On an open table the change is recorded as a
    ``seat.reissued`` event (never the token). A GM at the table uses
    ``TableSession.reissue_seat``."""
    from .kinds import SEAT_REISSUED
    from .store import TableClosed

    known = {s.seat: s for s in store.seats(table_id)}
    if seat not in known:
        raise ValueError(f"table {table_id!r} has no seat {seat!r}")
    token = new_token()
    new_hash = hash_token(token)
    audience = SEAT_AUDIENCE_PREFIX + seat if known[seat].role == "player" else AUDIENCE_GM

    def build(tx):
        tx.set_token_hash(seat, new_hash)
        return [SEAT_REISSUED.new(actor, audience, seat=seat, role=known[seat].role)]

    try:
        store.write(table_id, build)
    except TableClosed:
        store.set_token_hash(table_id, seat, new_hash)  # a closed table's log stays as it closed
    return token


# --------------------------------------------------------------------------------------------
# what a seat keeps: its language; what the GM decides for the players: whether they build
# --------------------------------------------------------------------------------------------
register_action("table.configure", ["gm"])


def seat_locale(session) -> str | None:
    """The language ``session``'s seat chose last (None: it never chose)."""
    return (session.state.extra.get("seat_locales") or {}).get(session.seat)


def remember_locale(session, locale: str):
    """Keep ``locale`` for the seat (its pages open in it next time); the event goes to the
    seat itself (and the GM). Returns the event, or None when nothing changed or the table
    cannot take it (closed: the language still switches on the page)."""
    from .events import EventError

    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}: expected one of {', '.join(LOCALES)}")
    if seat_locale(session) == locale or session.state.closed:
        return None
    from .kinds import SEAT_LOCALE

    audience = {"gm": AUDIENCE_GM, "player": SEAT_AUDIENCE_PREFIX + session.seat}.get(session.role, AUDIENCE_ALL)
    try:
        return session.record(SEAT_LOCALE, {"locale": locale}, audience=audience)
    except (PermissionError, EventError):
        return None


def table_option(session, name: str) -> bool:
    """A table option as the seat knows it: the GM's last ``table.option``, else the value the
    table was created with, else the default."""
    if name not in TABLE_OPTIONS:
        raise KeyError(f"no table option {name!r} (known: {', '.join(TABLE_OPTIONS)})")
    chosen = session.state.extra.get("table_options") or {}
    if name in chosen:
        return bool(chosen[name])
    return bool((getattr(session.table, "options", None) or {}).get(name, TABLE_OPTIONS[name]))


def set_table_option(session, name: str, value: bool):
    """GM: change a table option, for every seat (a public event). Role checked by the session."""
    if name not in TABLE_OPTIONS:
        raise KeyError(f"no table option {name!r} (known: {', '.join(TABLE_OPTIONS)})")
    if not isinstance(value, bool):
        raise TypeError(f"table option {name!r} is true or false, not {value!r}")
    from .kinds import TABLE_OPTION

    return session.record(TABLE_OPTION, {"name": name, "value": value}, audience=AUDIENCE_ALL)
