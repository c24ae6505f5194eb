"""Progress clocks (Blades in the Dark and most indie games): a named circle of 2 to 12 segments
that the GM fills, one segment at a time.

A clock is *open* (every seat reads its name and fill), *known* (the players see that it exists
and how many segments it has, never its name or fill) or *secret* (the GM's only). Every change
of a clock is written as copies, each for its own audience, in one transaction:

* the GM's copy (audience ``gm``): the whole clock, always;
* the players' copy (audience ``all``): the clock as the players know it (an open clock whole, a
  known one as its id and segments only), written only when the players' picture changes. A clock
  made secret leaves the players' picture (``clock.removed``), as a removed one does: the
  players cannot tell the two apart.

A GM's view (``state.view`` ``"gm"``, or ``""`` for every event) folds the GM's copies only; any
other view folds the players' copies only (it never receives the GM's). So a player's state holds
of a known clock its id and segments alone, and nothing of a secret one. The state keeps the
clocks in ``state.extra["clocks"]``: ``id -> {"id", "segments", "visibility", "name", "filled"}``
(the last two only where the view may read them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.i18n import LOCALES, T, tr
from ...core.wording import counted
from ..payload import Payload, optional
from ..store import AUDIENCE_ALL, AUDIENCE_GM
from .base import Kind, Line, both

#: how a clock shows: everyone reads it, players see only that it exists, the GM alone
VISIBILITIES = ("open", "known", "secret")
#: the segments a clock may have
MIN_SEGMENTS, MAX_SEGMENTS = 2, 12
#: what a clock copy says happened (for its own audience: a clock made known from secret is
#: ``"added"`` for the players, who did not know it)
CHANGES = ("added", "ticked", "visibility")

WORDS = {
    "clock": T("Clock «{name}»", "Часы «{name}»"),
    "hidden_clock": T("A hidden clock", "Скрытые часы"),
    "gm_known": T(" (players see only the circle)", " (игроки видят только круг)"),
    "gm_secret": T(" (secret)", " (тайные)"),
    "added": T("new, {filled} of {segments}", "новые, заполнено {filled} из {segments}"),
    "added_known": T("new: {count}, name and fill hidden", "новые: {count}, название и заполнение не видны"),
    "ticked": T("{filled} of {segments} ({by})", "заполнено {filled} из {segments} ({by})"),
    "full": T("full", "заполнены"),
    "open": T("revealed: {filled} of {segments}", "открыты: заполнено {filled} из {segments}"),
    "known": T("{count}: name and fill hidden now", "{count}: название и заполнение теперь не видны"),
    "gm_known_now": T(
        "players now see only the circle: {filled} of {segments}",
        "игроки теперь видят только круг: заполнено {filled} из {segments}",
    ),
    "gm_secret_now": T(
        "only you see it now: {filled} of {segments}",
        "теперь их видите только вы: заполнено {filled} из {segments}",
    ),
    "removed": T("removed from the table", "убраны со стола"),
}

SEGMENT_WORDS = (("segment", "segments"), ("сегмент", "сегмента", "сегментов"))


def _w(key: str, loc: str, **fmt: Any) -> str:
    return tr(WORDS[key], loc).format(**fmt)


def clock_entry(
    clock_id: str, segments: int, visibility: str, name: str | None = None, filled: int | None = None
) -> dict[str, Any]:
    """A clock as the state keeps it (``name``/``filled`` left out when None)."""
    out: dict[str, Any] = {"id": clock_id, "segments": segments, "visibility": visibility}
    if name is not None:
        out["name"] = name
    if filled is not None:
        out["filled"] = filled
    return out


def players_copy(clock: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What the players know of ``clock`` (the GM's whole clock): all of an open one, the id and
    segments of a known one, nothing (None) of a secret one or of no clock."""
    if not clock or clock.get("visibility") not in ("open", "known"):
        return None
    if clock["visibility"] == "open":
        return dict(clock)
    return clock_entry(clock["id"], clock["segments"], "known")


def project_clocks(clocks: Any, is_gm: bool) -> dict[str, Any]:
    """A view's clocks as a reader may hold them (the audience projection of a snapshot)."""
    if not isinstance(clocks, Mapping):
        return {}
    if is_gm:
        return dict(clocks)
    out = {}
    for cid, clock in clocks.items():
        copy = players_copy(clock) if isinstance(clock, Mapping) else None
        if copy is not None:
            out[cid] = copy
    return out


def _folds(state, event) -> bool:
    """Whether this view folds this copy: a GM's view the GM's copies, any other the players'."""
    return (event.audience == AUDIENCE_GM) == (state.view in ("gm", ""))


def _told(entry: Mapping[str, Any], ctx) -> bool:
    """Whether a log entry is the copy this reader's line tells (the other copy tells nothing)."""
    return (entry.get("audience") == AUDIENCE_GM) == (ctx.state.view in ("gm", ""))


def _count(segments: Any, loc: str) -> str:
    n = segments if isinstance(segments, int) else 0
    return counted(n, *SEGMENT_WORDS)[loc]


def _what(p: Any, loc: str, gm: bool) -> str:
    if not p.name:
        return _w("hidden_clock", loc)
    head = _w("clock", loc, name=p.name)
    if gm and p.visibility in ("known", "secret"):
        head += _w("gm_" + p.visibility, loc)
    return head


@dataclass(frozen=True, kw_only=True)
class ClockPayload(Payload):
    clock_id: str
    segments: int
    #: ``"open"``, ``"known"`` or ``"secret"``
    visibility: str
    #: what happened, for this copy's audience (:data:`CHANGES`)
    change: str
    #: the clock's name and fill: left out of the players' copy of a known clock
    name: str | None = optional(limit="name")
    filled: int | None = optional()
    #: a tick's step (negative: ticked down)
    by: int | None = optional()


class Clock(Kind):
    """A clock as one audience knows it after the GM changed it (see the module)."""

    name = "clock.state"
    Payload = ClockPayload
    action = "clock"
    logged = True

    def reduce(self, state, event, p: ClockPayload) -> None:
        if not _folds(state, event) or not isinstance(p.clock_id, str) or p.visibility not in VISIBILITIES:
            return
        if not isinstance(p.segments, int) or not MIN_SEGMENTS <= p.segments <= MAX_SEGMENTS:
            return  # a hostile store's clock: not drawn
        if p.filled is not None and not 0 <= p.filled <= p.segments:
            return
        entry = clock_entry(p.clock_id, p.segments, p.visibility, p.name, p.filled)
        state.extra.setdefault("clocks", {})[p.clock_id] = entry

    def line(self, entry, p: ClockPayload, ctx) -> Line | None:
        if not _told(entry, ctx):
            return None
        gm = ctx.state.view in ("gm", "")
        fill = {"filled": p.filled if p.filled is not None else 0, "segments": p.segments}
        text, outcome = {}, both("")
        for loc in LOCALES:
            if p.change == "ticked":
                by = p.by if isinstance(p.by, int) else 0
                text[loc] = _w("ticked", loc, by=f"+{by}" if by > 0 else f"−{-by}", **fill)
                if p.filled == p.segments:
                    outcome = both(WORDS["full"])
            elif not p.name:  # the players' copy of a known clock
                key = "added_known" if p.change == "added" else "known"
                text[loc] = _w(key, loc, count=_count(p.segments, loc))
            elif p.change == "added":
                text[loc] = _w("added", loc, **fill)
            elif gm and p.visibility != "open":
                text[loc] = _w(f"gm_{p.visibility}_now", loc, **fill)
            else:
                text[loc] = _w("open", loc, **fill)
        what = {loc: _what(p, loc, gm) for loc in LOCALES}
        return Line(
            "clock",
            ctx.who(entry.get("actor", "")),
            what,
            text,
            outcome=outcome,
            success=True if p.filled == p.segments and p.change == "ticked" else None,
            hidden=entry.get("audience") == AUDIENCE_GM and p.visibility != "open",
        )


@dataclass(frozen=True, kw_only=True)
class ClockRemovedPayload(Payload):
    clock_id: str
    segments: int
    #: left out where the reader did not know it (the players' copy of a known clock)
    name: str | None = optional(limit="name")
    visibility: str | None = optional()


class ClockRemoved(Kind):
    """A clock left this audience's picture: the GM removed it, or (the players' copy) made it
    secret."""

    name = "clock.removed"
    Payload = ClockRemovedPayload
    action = "clock"
    logged = True

    def reduce(self, state, event, p: ClockRemovedPayload) -> None:
        if _folds(state, event) and isinstance(p.clock_id, str):
            state.extra.setdefault("clocks", {}).pop(p.clock_id, None)

    def line(self, entry, p: ClockRemovedPayload, ctx) -> Line | None:
        if not _told(entry, ctx):
            return None
        gm = ctx.state.view in ("gm", "")
        what = {loc: _what(p, loc, gm) for loc in LOCALES}
        return Line(
            "clock",
            ctx.who(entry.get("actor", "")),
            what,
            both(WORDS["removed"]),
            hidden=entry.get("audience") == AUDIENCE_GM and p.visibility != "open",
        )


KINDS = (Clock(), ClockRemoved())


def clock_copies(
    before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, change: str, by: int | None = None
) -> list[tuple[str, str, dict[str, Any]]]:
    """The events one change of a clock writes, ``(kind name, audience, payload)``, the players'
    copy first (see the module): ``before``/``after`` are the GM's whole clock (None: it did not
    exist / it is removed)."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    seen, now = players_copy(before), players_copy(after)
    if now != seen or (now is not None and change == "ticked" and now.get("visibility") == "open"):
        if now is None:
            gone = {k: seen[k] for k in ("name", "visibility") if k in seen}
            out.append(
                (ClockRemoved.name, AUDIENCE_ALL, {"clock_id": seen["id"], "segments": seen["segments"], **gone})
            )
        else:
            told = change if seen is not None else "added"
            out.append((Clock.name, AUDIENCE_ALL, _payload(now, told, by if told == "ticked" else None)))
    if after is None:
        removed = {"clock_id": before["id"], "segments": before["segments"]}
        removed.update(name=before.get("name"), visibility=before.get("visibility"))
        out.append((ClockRemoved.name, AUDIENCE_GM, removed))
    else:
        out.append((Clock.name, AUDIENCE_GM, _payload(after, change, by)))
    return out


def _payload(clock: Mapping[str, Any], change: str, by: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "clock_id": clock["id"],
        "segments": clock["segments"],
        "visibility": clock["visibility"],
        "change": change,
    }
    for key in ("name", "filled"):
        if key in clock:
            out[key] = clock[key]
    if by is not None:
        out["by"] = by
    return out


__all__ = [
    "CHANGES",
    "KINDS",
    "MAX_SEGMENTS",
    "MIN_SEGMENTS",
    "VISIBILITIES",
    "WORDS",
    "clock_copies",
    "clock_entry",
    "players_copy",
    "project_clocks",
]
