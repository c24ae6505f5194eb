"""How lucky was the evening, as seat actions: :meth:`LuckActions.luck_report` (this seat's
rolls of an ended session, re-rolled from its revealed seed: :mod:`.luck`) and
:meth:`LuckActions.share_luck` (a player tells the table their report's summary, a
``luck.shared`` event).

A mixin of :class:`~.session.TableSession`. The report reads the store through the seat's own
audience (a player's kernel never gets the GM's hidden rolls, nor another player's), never the
kernel's folded state; a share is computed again here, so a page can send nothing but the press.
"""

from __future__ import annotations

from typing import Any

from ..core.i18n import T
from .kinds import LUCK_SHARED
from .luck import LuckReport, luck_of
from .rules import PlayError
from .seats import PermissionDenied, register_action
from .store import Event, NewEvent, WriteTx

register_action("luck.share", ["player"])


class LuckActions:
    """A seat's luck report of an ended session, and sharing it with the table."""

    def luck_report(self, session: int | None = None) -> LuckReport:
        """This seat's rolls of game session ``session`` (default: the last one whose key is
        revealed), each re-rolled from the session's revealed seed with its total and its
        percentile ``P(X < total) + P(X = total) / 2`` in its exact distribution, the session's
        mean percentile and the evening's percentile (``P(mean < observed)`` under fair dice).
        The GM's report holds every seat's rolls (``report.seats``), hidden ones included; a
        player's, their own. A bilingual :class:`~.rules.PlayError` until the key is revealed."""
        self.require("read")
        events = self.events()  # the store, through this seat's audience
        return luck_of(
            self.table,
            events,
            self.system,
            seat=self.seat,
            everyone=self.role == "gm",
            session=session,
        )

    def share_luck(self, report: LuckReport | None = None, *, session: int | None = None) -> Event:
        """Player: tell the table the summary of this seat's luck report of ``session`` (or of
        ``report``'s session). The summary is computed again here from the revealed seed; a
        report of another seat, or one that differs from what the table computes, is refused,
        and so is a second share of the same session. Returns the ``luck.shared`` event."""
        self.begin_action("luck.share")
        if report is not None:
            if not isinstance(report, LuckReport) or report.seat != self.seat:
                raise PermissionDenied("luck.share", self.role, "a report of another seat")
            session = report.session
        fresh = self.luck_report(session)
        if report is not None and report.own.summary() != fresh.own.summary():
            raise PlayError(
                "luck_forged",
                T(
                    "This luck report is not the one the table computes from the revealed key.",
                    "Этот отчёт об удаче не совпадает с тем, что стол вычисляет по раскрытому ключу.",
                ),
                session=fresh.session,
            )
        summary: dict[str, Any] = {"session": fresh.session, **fresh.own.summary()}

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("luck.share")
            shared = (self.state.extra.get("luck_shared") or {}).get(str(fresh.session)) or {}
            if self.seat in shared:
                raise PlayError(
                    "luck_shared_already",
                    T(
                        f"You have already shared your luck of session {fresh.session}.",
                        f"Вы уже поделились удачей сессии {fresh.session}.",
                    ),
                    session=fresh.session,
                )
            return [LUCK_SHARED.new(self.actor, **summary)]

        return self.transact(make)[0]

    def shared_luck(self, session: int | None = None) -> dict[str, dict[str, Any]]:
        """The luck reports shared with the table: ``seat -> summary`` of ``session`` (default:
        the last session with a revealed key), as every seat reads them."""
        shared = self.state.extra.get("luck_shared") or {}
        if session is None:
            ended = [s for s in self.state.session_list() if s.get("seed")]
            if not ended:
                return {}
            session = int(ended[-1]["n"])
        return dict(shared.get(str(session)) or {})


__all__ = ["LuckActions"]
