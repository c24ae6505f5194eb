"""The table's safety tools: the X-card (``safety.xcard``: someone at the table tapped it, nobody
knows who) and the campaign's lines and veils (``safety.lines``: the GM keeps them, every seat
reads them).

An X-card event names no seat: its actor is :data:`XCARD_ACTOR`, its payload is empty, and the
table writes it without the seat's rate bucket (see :mod:`..session_safety`). It goes to the GM,
or to every seat when the GM chose so (the table option ``x_card_public``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.i18n import T
from ..payload import Payload
from ..store import AUDIENCE_ALL, AUDIENCE_GM
from .base import Kind, Line, both

#: who an X-card event is by: the table, never the seat that tapped it
XCARD_ACTOR = "table"

WORDS = {
    "xcard": T("Someone tapped the X-card", "Кто-то коснулся Х-карты"),
    "xcard_text": T(
        "Stop, take out what was just in play, and go on without it. Nobody asks who.",
        "Остановитесь, уберите то, что сейчас было в игре, и продолжайте без этого. Никто не спрашивает, кто это был.",
    ),
}


@dataclass(frozen=True, kw_only=True)
class XCardPayload(Payload):
    """Nothing: the tap itself is the whole event."""


class XCard(Kind):
    """Someone at the table tapped the X-card (no seat is named anywhere)."""

    name = "safety.xcard"
    Payload = XCardPayload
    action = "safety.tap"
    logged = True

    def audience_for(self, public: bool) -> str:
        return AUDIENCE_ALL if public else AUDIENCE_GM

    def reduce(self, state, event, p: XCardPayload) -> None:
        state.extra["x_cards"] = int(state.extra.get("x_cards") or 0) + 1

    def line(self, entry, p: XCardPayload, ctx) -> Line:
        return Line("table", what=both(WORDS["xcard"]), text=both(WORDS["xcard_text"]))


@dataclass(frozen=True, kw_only=True)
class LinesPayload(Payload):
    #: what never enters the game
    lines: list
    #: what happens off screen ("fade to black")
    veils: list


class SafetyLines(Kind):
    """The GM set the campaign's lines and veils (each a list of short texts), for every seat."""

    name = "safety.lines"
    Payload = LinesPayload
    action = "safety.edit"

    def audience_for(self) -> str:
        return AUDIENCE_ALL

    def reduce(self, state, event, p: LinesPayload) -> None:
        state.extra["safety"] = {
            "lines": [str(x) for x in p.lines or () if isinstance(x, str)],
            "veils": [str(x) for x in p.veils or () if isinstance(x, str)],
        }


KINDS = (XCard(), SafetyLines())

__all__ = ["KINDS", "XCARD_ACTOR"]
