"""Requests: what a seat asks the table that is not an outcome (an attack's odds, an attack made,
the defender's choice). They are not events: they wait in the store's request table, scoped by
audience like events (a seat reads its own and the questions asked of it; the GM every one), each
with a state, and are removed once answered. The resolver (:mod:`.resolver`), on the server,
answers them; the log records only what came of them.

=============  ==========================================================================
kind           states
=============  ==========================================================================
``odds``       ``open`` (asked) → ``answered`` (the offer in ``answer``), read by its seat
``attack``     ``open`` (made) → ``waiting`` (a defence asked: ``waiting`` says of whom)
               → removed once rolled (the ``attack`` event names it), or ``refused``
               (``answer["message"]``) until its seat has read it
``defence``    ``asked`` (of ``seat``: a player, or ``"gm"``) → ``answered`` (the choice in
               ``answer``) → removed with its attack
=============  ==========================================================================

An answer or a refusal a seat never came back to read is removed after :data:`KEEP_ANSWERED`
seconds (:meth:`~.store.Store.purge_requests`).
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Mapping

from ..core.i18n import LOCALES, T, tr
from .store import AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, Request

ODDS, ATTACK, DEFENCE = "odds", "attack", "defence"
OPEN, WAITING, ASKED, ANSWERED, REFUSED = "open", "waiting", "asked", "answered", "refused"
#: seconds an answer (or a refusal) waits for its seat to read it
KEEP_ANSWERED = 600.0
#: after this many seconds an open request with no answer says the resolver may not be running
RESOLVER_LATE = 8.0


def new_id(prefix: str = "r") -> str:
    return prefix + secrets.token_hex(6)


def seat_audience(role: str, seat: str) -> str:
    """Who reads what a seat asks: the GM's own requests are the GM's; a player's, that seat's
    (and the GM's)."""
    return AUDIENCE_GM if role == "gm" else SEAT_AUDIENCE_PREFIX + seat


def new_request(
    kind: str,
    table_id: str,
    seat: str,
    audience: str,
    payload: Mapping[str, Any],
    *,
    state: str = OPEN,
    parent: str | None = None,
    now: float | None = None,
) -> Request:
    now = time.time() if now is None else now
    rid = new_id({ODDS: "k", ATTACK: "a", DEFENCE: "q"}.get(kind, "r"))
    return Request(rid, table_id, kind, seat, audience, state, dict(payload), parent=parent, created=now, updated=now)


def moved(
    request: Request, state: str, *, answer: Any = None, waiting: Any = None, now: float | None = None
) -> Request:
    """``request`` in a new ``state`` (with its ``answer`` or ``waiting``)."""
    import dataclasses

    return dataclasses.replace(
        request,
        state=state,
        answer=request.answer if answer is None else dict(answer),
        waiting=request.waiting if waiting is None else dict(waiting),
        updated=time.time() if now is None else now,
    )


WORDS = {
    "sent": T(
        "Your attack is sent: the table rolls it with its dice.", "Атака отправлена: стол бросит её своими кубиками."
    ),
    "late": T(
        "No answer yet from the table's server: is `tabletop-widgets play` running there? (It answers attacks.)",
        "Сервер стола пока не ответил: запущен ли на нём `tabletop-widgets play`? (Он отвечает на атаки.)",
    ),
    "waiting_seat": T(
        "Waiting for {who} to choose {target}'s defence.", "Ждём, пока {who} выберет защиту для цели «{target}»."
    ),
    "waiting_gm": T(
        "Waiting for the {gm} to choose {target}'s defence.", "Ждём, пока {gm} выберет защиту для цели «{target}»."
    ),
    "refused": T("Your attack was refused: {why}", "Атака отклонена: {why}"),
    "asking": T("Asking the table for the odds…", "Спрашиваем у стола шансы…"),
}


def status_text(request: Request, *, gm: Mapping[str, str] | None = None, now: float | None = None) -> dict[str, str]:
    """What the asking seat's page says of its attack request, in every language."""
    now = time.time() if now is None else now
    gm = gm or {"en": "GM", "ru": "ведущий"}
    if request.state == REFUSED:
        why = (request.answer or {}).get("message") or {}
        return {loc: tr(WORDS["refused"], loc).format(why=tr(why, loc)) for loc in LOCALES}
    if request.state == WAITING and request.waiting:
        w = request.waiting
        target = str(w.get("target_name") or "")
        if w.get("for") == "gm":
            return {loc: tr(WORDS["waiting_gm"], loc).format(gm=tr(gm, loc), target=target) for loc in LOCALES}
        return {loc: tr(WORDS["waiting_seat"], loc).format(who=w.get("name") or "", target=target) for loc in LOCALES}
    if now - float(request.created or now) > RESOLVER_LATE:
        return {loc: tr(WORDS["late"], loc) for loc in LOCALES}
    return {loc: tr(WORDS["sent"], loc) for loc in LOCALES}


__all__ = [
    "ANSWERED",
    "ASKED",
    "ATTACK",
    "DEFENCE",
    "KEEP_ANSWERED",
    "ODDS",
    "OPEN",
    "REFUSED",
    "RESOLVER_LATE",
    "WAITING",
    "moved",
    "new_id",
    "new_request",
    "seat_audience",
    "status_text",
]
