"""Joining a live table from a notebook: :func:`connect` takes a seat link (the one the GM's page or
``tabletop-widgets table`` gave) and returns that seat's :class:`~.session.TableSession`, on the
same store as the Voila pages of ``tabletop-widgets play``.

    from tabletop_widgets.table import connect
    table = connect("http://127.0.0.1:8866/voila/render/play_ret.ipynb?table=…&seat=…")
    table.roll("2d6+1")                  # the table's fair dice, into its log: every seat sees it
    table.check("attention")             # a check of the seat's character
    table.combat.next_turn()             # the GM's fight, as the tracker runs it

The link is the whole secret, as on a page: a wrong or revoked link is refused before anything of
the table is read, with the same words a page says. The notebook's seat is the link's seat: a
GM's notebook and the GM's Voila page may be open together (two windows of one seat)."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from .seats import SeatError, parse_query
from .store import Store, open_store

#: how long a link may be (a seat link is under 200 characters; anything far longer is not one)
MAX_LINK = 4096


def not_a_link(shown: str) -> SeatError:
    return SeatError(
        "not_a_link",
        f"That is not a seat link ({shown}): a seat link ends in ?table=<id>&seat=<token>. "
        "The GM's page lists them under Seat links.",
        f"Это не ссылка места ({shown}): ссылка места кончается на ?table=<id>&seat=<token>. "
        "Они есть на странице ведущего, в разделе «Ссылки мест».",
    )


def link_query(link: Any) -> str:
    """The query of a seat link: a page's whole URL, its ``?table=…&seat=…`` part, or that part
    without the ``?`` (surrounding spaces, quotes and angle brackets, as chat programs add them,
    are taken off)."""
    if not isinstance(link, str):
        raise not_a_link(type(link).__name__)
    text = link.strip().strip("<>\"'").strip()
    if not text or len(text) > MAX_LINK:
        raise not_a_link("empty" if not text else f"{len(text)} characters")
    if "://" in text or text.startswith("/"):
        return urlsplit(text).query
    return text.split("?", 1)[1] if "?" in text else text


def connect(link: str, db: "str | os.PathLike | Store | None" = None, **kw: Any):
    """The seat of ``link`` at its table: a :class:`~.session.TableSession`.

    ``db`` is the table's store: a SQLite file, a ``postgresql://`` URL or an open
    :class:`~.store.Store`; by default ``$TABLETOP_DB``, else the default store of
    ``tabletop-widgets play`` (the same file its pages open). Other keywords go to
    :meth:`TableSession.join <.session.TableSession.join>`. Raises :class:`~.seats.SeatError`
    (its ``message`` in both languages) for a text that is not a seat link, or a link that is
    wrong, expired or revoked. ``session.close()`` closes the store it opened."""
    from .session import TableSession

    query = link_query(link)
    table_id, token = parse_query(query)
    if not table_id or not token:
        raise not_a_link(repr(link.strip()[:80]))
    own = not isinstance(db, Store)
    store = open_store(db) if own else db
    try:
        session = TableSession.join(store, table_id, token, **kw)
    except BaseException:
        if own:
            store.close()
        raise
    if own:
        session._own_store = store  # closed with the session (TableSession.close)
    return session


__all__ = ["connect", "link_query"]
