"""The live table in a notebook: what ``%table`` and ``%roll --table`` do (:mod:`.magics` reads
their lines). ``%table open <link>`` joins as the link's seat (:func:`tabletop_widgets.table.connect`),
puts the seat's session in the notebook as ``table`` and shows the seat's page; from then on
``%roll --table EXPR`` rolls with the table's fair dice into its log, as the page's tray does.

    %table open http://127.0.0.1:8866/voila/render/table.ipynb?table=…&seat=…
    %roll --table 2d6+1
    table.check("attention")          # the Python side: the seat's TableSession
    %table page                       # the seat's page again
    %table close                      # leave the table (the link still works)
"""

from __future__ import annotations

import html
import re
import shlex
from typing import Any

from IPython.core.error import UsageError

#: the name the joined table goes by in the notebook, and where the magics keep it
TABLE_NAME = "table"
_KEY = "_tt_table"

USAGE = """%table open LINK [--db DB] [--locale en|ru]   join the table as the link's seat: `table` and its page
%table page                                     the seat's page again
%table close                                    leave the table (stop following it)
%table                                          which seat at which table
%roll --table [-n N] [--locale L] EXPR          roll with the table's fair dice into its log"""


def _message(exc: BaseException, locale: str = "en") -> str:
    from .dice import DiceError

    if isinstance(exc, DiceError):  # the message, then the expression with a caret under the trouble
        from .magics import error_text

        return error_text(exc, locale)
    message = getattr(exc, "message", None)
    if isinstance(message, dict):
        return message.get(locale) or message.get("en") or str(exc)
    return str(exc)


def joined(shell) -> Any:
    """The session ``%table open`` joined in this notebook, or None."""
    ns = shell.user_ns if shell is not None else {}
    return ns.get(_KEY)


def table_magic(shell, line: str):
    """``%table ...`` (see :data:`USAGE`)."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"%table: {exc}\n\n{USAGE}") from None
    if not words:
        session = joined(shell)
        if session is None:
            raise UsageError(f"%table: no table joined yet\n\n{USAGE}")
        return _where(session)
    command, rest = words[0], words[1:]
    if command == "open":
        return _open(shell, rest)
    if command in ("page", "close"):
        if rest:
            raise UsageError(f"%table {command} takes nothing more, got {' '.join(rest)!r}\n\n{USAGE}")
        session = joined(shell)
        if session is None:
            raise UsageError(f"%table {command}: no table joined (%table open <link> first)")
        if command == "page":
            return _page(shell, session)
        _close(shell)
        return None
    raise UsageError(f"%table: unknown command {command!r}\n\n{USAGE}")


def _open(shell, words: list[str]):
    from .table import SeatError, connect
    from .table.store import StoreError

    link, db, locale = None, None, None
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("--db", "--locale"):
            if i + 1 >= len(words):
                raise UsageError(f"%table open: {w} needs a value\n\n{USAGE}")
            if w == "--db":
                db = words[i + 1]
            else:
                locale = words[i + 1]
                if locale not in ("en", "ru"):
                    raise UsageError(f"%table open: --locale takes en or ru, got {locale!r}")
            i += 2
            continue
        if link is not None:
            raise UsageError(f"%table open takes one link, got {link!r} and {w!r}\n\n{USAGE}")
        link = w
        i += 1
    if link is None:
        raise UsageError(f"%table open needs the seat link (the GM's page lists them under Seat links)\n\n{USAGE}")
    try:
        session = connect(link, db)
    except SeatError as exc:
        raise UsageError(f"%table open: {_message(exc, locale or 'en')}") from None
    except StoreError as exc:
        raise UsageError(f"%table open: the table's store could not be opened: {exc}") from None
    if joined(shell) is not None:
        _close(shell)
    shell.user_ns[_KEY] = session
    shell.user_ns[TABLE_NAME] = session
    shell.user_ns["_tt_table_locale"] = locale
    return _page(shell, session)


def _page(shell, session):
    from .widgets.table_view import TableView

    old = shell.user_ns.get("_tt_table_page")
    if old is not None:
        old.close()  # one page follows the table per notebook
    # a kernel runs its cells in its event loop: the page follows the table there (a terminal
    # IPython has no loop running: the page shows the table as it is, ``table.poll()`` reads on)
    page = TableView(session, locale=shell.user_ns.get("_tt_table_locale"), follow=_loop_running())
    shell.user_ns["_tt_table_page"] = page
    return page


def _loop_running() -> bool:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _close(shell) -> None:
    ns = shell.user_ns
    page = ns.pop("_tt_table_page", None)
    session = ns.pop(_KEY, None)
    if page is not None:
        page.close()  # stops its follower
    if session is not None:
        session.close()
        if ns.get(TABLE_NAME) is session:
            del ns[TABLE_NAME]


def _where(session) -> "TableSeat":
    return TableSeat(session)


class TableSeat:
    """``%table`` alone: which seat of which table this notebook holds."""

    def __init__(self, session):
        self.session = session

    def __repr__(self) -> str:
        s = self.session
        title = s.state.title if isinstance(getattr(s.state, "title", None), str) else s.table_id
        return f"{title}: seat {s.seat} ({s.role}), table {s.table_id}"

    def _repr_html_(self) -> str:
        return f'<div class="tt-table-seat">{html.escape(repr(self))}</div>'


#: the ``--table`` flag of ``%roll``, among its leading flags
_TABLE_FLAG = re.compile(r"^((?:\s*(?:-n|--repeat|--seed|--locale)\s+\S+|\s*--prob)*)\s*--table(?=\s|$)")


def take_table_flag(line: str) -> tuple[bool, str]:
    """``(True, line without it)`` when ``line``'s leading flags hold ``--table``."""
    m = _TABLE_FLAG.match(line)
    if not m:
        return False, line
    return True, m.group(1) + line[m.end() :]


def roll_at_table(shell, opts: dict, expression: Any) -> "LiveRoll":
    """``%roll --table``: the expression (or the notebook's RollTable) rolled with the joined
    table's fair dice."""
    from .table import PlayError, SeatError
    from .table.events import EventError

    session = joined(shell)
    if session is None:
        raise UsageError("%roll --table: no table joined (%table open <link> first)")
    if opts.get("prob"):
        raise UsageError("%roll --table rolls at the table: --prob (the odds) rolls nothing; drop one of them")
    if opts.get("seed") is not None:
        raise UsageError("%roll --table rolls the table's fair dice: a --seed cannot choose them")
    if isinstance(expression, str):
        text = expression.strip()
        if not text:
            raise UsageError("%roll --table: nothing to roll: give an expression such as 2d6+1")
        if opts.get("n", 1) > 1:
            text = f"{opts['n']}#{text}"
    else:  # a RollTable: one roll of it at a time, each its own line of the log
        if opts.get("n", 1) > 1:
            raise UsageError("%roll --table: a roll table is rolled at the table once at a time (drop -n)")
        text = expression
    locale = opts.get("locale") or "en"
    try:
        event = session.roll(text, locale=locale)
    except (PlayError, SeatError, PermissionError, EventError) as exc:
        raise UsageError(f"%roll --table: {_message(exc, locale)}") from None
    except ValueError as exc:  # a dice error, in the roller's words
        raise UsageError(f"%roll --table: {_message(exc, locale)}") from None
    return LiveRoll(event, locale)


class LiveRoll:
    """What ``%roll --table`` shows: the roll as the table's log tells it, with its roll number
    (the fair dice's index: ``verify`` checks it once the session's key is revealed)."""

    def __init__(self, event, locale: str = "en"):
        self.event = event
        self.locale = locale

    @property
    def total(self):
        result = self.event.payload.get("result") or {}
        return result.get("total") if isinstance(result, dict) else None

    def text(self) -> str:
        p = self.event.payload
        texts = p.get("texts") if isinstance(p.get("texts"), dict) else {}
        said = texts.get(self.locale) or p.get("text") or ""
        name = p.get("name")  # a roll table's: "Weather (1d6): 3 — Rain"
        if isinstance(name, str) and name and not said.startswith(name):
            said = f"{name} ({p.get('expr')}): {said}"
        return said

    def __repr__(self) -> str:
        # the fair dice's roll index, as `verify` names it (not the log's entry number)
        word = "за столом, честные кубики: бросок " if self.locale == "ru" else "at the table, fair dice: roll "
        return f"{self.text()}  ({word}{self.event.payload.get('index')})"

    def _repr_html_(self) -> str:
        return f'<div class="tt-table-roll">{html.escape(repr(self))}</div>'


__all__ = ["LiveRoll", "TableSeat", "USAGE", "joined", "roll_at_table", "table_magic", "take_table_flag"]
