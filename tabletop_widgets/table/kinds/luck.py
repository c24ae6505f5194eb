"""A player's luck report shared with the table (``luck.shared``): the summary of their
:meth:`~..session.TableSession.luck_report` of an ended session (how many rolls were counted,
the mean percentile, the evening's percentile), never a roll's dice or text. Every seat reads
it; the table computes the summary itself from the revealed seed (a page sends no numbers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.i18n import LOCALES, T, tr
from ..payload import Payload, optional
from ..store import AUDIENCE_ALL
from .base import Kind, Line

WORDS = {
    "what": T("luck of session {n}", "удача сессии {n}"),
    "evening": T(
        "luckier than {pct}% of evenings (mean percentile {mean}% over {rolls} rolls)",
        "удачливее {pct}% вечеров (средний процентиль {mean}%, бросков учтено: {rolls})",
    ),
    "simulated": T(" (estimated, ±{err} points)", " (оценка, ±{err} п.)"),
    "none": T("no roll of the session counted", "ни один бросок сессии не учтён"),
    "flagged": T("; {k} roll(s) do not match the seed", "; бросков, не совпавших с ключом: {k}"),
}


@dataclass(frozen=True, kw_only=True)
class LuckPayload(Payload):
    session: int
    rolls: int
    skipped: int
    flagged: int
    mean: float | None = optional(omit_none=False)
    evening: float | None = optional(omit_none=False)
    ties: float | None = optional(omit_none=False)
    method: str | None = optional(omit_none=False)
    error: float | None = optional(omit_none=False)


def luck_sentence(p: Any, loc: str) -> str:
    """The evening line of a summary (a shared one, or a report's own)."""
    if not isinstance(p.rolls, int) or p.rolls <= 0 or not isinstance(p.evening, (int, float)):
        return tr(WORDS["none"], loc)
    mean = p.mean if isinstance(p.mean, (int, float)) else 0.0
    text_ = tr(WORDS["evening"], loc).format(pct=round(100 * p.evening), mean=round(100 * mean), rolls=p.rolls)
    if p.method == "simulated" and isinstance(p.error, (int, float)):
        text_ += tr(WORDS["simulated"], loc).format(err=round(100 * p.error, 1))
    if isinstance(p.flagged, int) and p.flagged > 0:
        text_ += tr(WORDS["flagged"], loc).format(k=p.flagged)
    return text_


class LuckShared(Kind):
    """A seat's luck report of session ``session`` shared with the whole table."""

    name = "luck.shared"
    Payload = LuckPayload
    action = "luck.share"
    logged = True

    def audience_for(self) -> str:
        return AUDIENCE_ALL

    def reduce(self, state, event, p: LuckPayload) -> None:
        if not isinstance(p.session, int):
            return
        shared = state.extra.setdefault("luck_shared", {})
        shared.setdefault(str(p.session), {})[str(event.actor)] = p.to_json()

    def line(self, entry, p: LuckPayload, ctx) -> Line:
        what = {loc: tr(WORDS["what"], loc).format(n=p.session) for loc in LOCALES}
        body = {loc: luck_sentence(p, loc) for loc in LOCALES}
        return Line("luck", ctx.who(entry.get("actor", "")), what, body)


KINDS = (LuckShared(),)

__all__ = ["KINDS", "luck_sentence"]
