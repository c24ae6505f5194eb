"""The table's safety tools as seat actions: the X-card (:meth:`SafetyActions.x_card`) and the
campaign's lines and veils (:meth:`SafetyActions.set_lines_and_veils`).

A mixin of :class:`~.session.TableSession`. An X-card tap must not say who tapped, to anyone,
the store's holder included, so it leaves the seat's usual path (``transact``) where that path
records the seat:

* the event's actor is the table (:data:`~.kinds.safety.XCARD_ACTOR`) and its payload is empty;
* the seat's rate bucket (its row of the store's seats) is not drawn on: a tap is bounded by a
  table-wide bucket (the store's setting ``x_card_rate:<table id>``: at most
  :data:`XCARD_BURST` taps, then one every :data:`XCARD_REFILL` seconds, for the whole table)
  and by a short cooldown in this kernel's memory;
* no request row and no snapshot is made for it (``transact(..., anonymous=True)``: the seat's
  page applies the event like any other event it reads, without saving its state at that moment).

The seat's link is still checked, as for every write (a replaced link taps nothing).
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from ..core.i18n import T
from .kinds import SAFETY_LINES, X_CARD
from .kinds.safety import XCARD_ACTOR
from .rules import PlayDenied, PlayError, RateLimit
from .seats import role_can, table_option
from .store import Event, NewEvent, WriteTx

#: taps the whole table may make at once, and the seconds until the bucket holds one more
XCARD_BURST, XCARD_REFILL = 3, 20.0
#: seconds between two taps of one page (held in this kernel only)
XCARD_COOLDOWN = 5.0
#: at most this many lines, and as many veils, each of at most MAX_SAFETY_TEXT characters
MAX_SAFETY_ITEMS, MAX_SAFETY_TEXT = 40, 200

WORDS = {
    "rate": T(
        "The X-card was tapped just now: the table has heard it. Wait a moment before tapping again.",
        "Х-карту только что коснулись: стол это уже услышал. Подождите немного, прежде чем касаться снова.",
    ),
    "gm_only": T(
        "Only the GM sets the lines and veils; tell the GM what to add.",
        "Границы и завесы задаёт только ведущий: скажите ведущему, что добавить.",
    ),
    "not_list": T("Lines and veils are lists of short texts.", "Границы и завесы — списки коротких строк."),
    "too_many": T(
        f"At most {MAX_SAFETY_ITEMS} lines and {MAX_SAFETY_ITEMS} veils.",
        f"Не больше {MAX_SAFETY_ITEMS} границ и {MAX_SAFETY_ITEMS} завес.",
    ),
    "too_long": T(
        f"Each line or veil is at most {MAX_SAFETY_TEXT} characters.",
        f"Каждая граница или завеса — не длиннее {MAX_SAFETY_TEXT} символов.",
    ),
}


def table_bucket(value: str | None, now: float) -> str:
    """The table-wide X-card bucket after one tap at ``now`` (its stored JSON), or
    :class:`PlayError` when it is empty (then nothing is stored)."""
    try:
        data = json.loads(value) if value else {}
        tokens, at = float(data["tokens"]), float(data["at"])
    except (ValueError, KeyError, TypeError):
        tokens, at = float(XCARD_BURST), now
    tokens = min(float(XCARD_BURST), tokens + max(0.0, now - at) / XCARD_REFILL)
    if tokens < 1:
        raise PlayError("x_card_rate", WORDS["rate"])
    return json.dumps({"tokens": tokens - 1, "at": now})


def clean_items(values: Any) -> list[str]:
    """Lines or veils as the table keeps them: stripped texts, empty ones left out."""
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise PlayError("safety_list", WORDS["not_list"])
    out = []
    for v in values:
        if not isinstance(v, str):
            raise PlayError("safety_list", WORDS["not_list"])
        v = " ".join(v.split())
        if len(v) > MAX_SAFETY_TEXT:
            raise PlayError("safety_long", WORDS["too_long"])
        if v:
            out.append(v)
    if len(out) > MAX_SAFETY_ITEMS:
        raise PlayError("safety_many", WORDS["too_many"])
    return out


class SafetyActions:
    """The X-card and the lines and veils (see the module)."""

    def x_card(self) -> Event:
        """Tap the X-card: the GM's page (every page, with the table option ``x_card_public``)
        says that someone tapped it, naming nobody. Any seat may tap. Refused with a
        :class:`~.rules.PlayError` past the table's bound; returns the event."""
        self.require(X_CARD.action)
        cooldown = self.__dict__.get("_x_card_cooldown")
        if cooldown is None:
            cooldown = self._x_card_cooldown = RateLimit(1, 1 / XCARD_COOLDOWN, getattr(self.rate_limit, "clock", None))
        try:
            cooldown.take()
        except PlayError:
            raise PlayError("x_card_rate", WORDS["rate"]) from None
        now = self.wall_clock()
        self.store.update_meta(f"x_card_rate:{self.table_id}", lambda value: table_bucket(value, now))
        audience = X_CARD.audience_for(table_option(self, "x_card_public"))

        def make(tx: WriteTx) -> Sequence[NewEvent]:
            self.require(X_CARD.action)
            return [X_CARD.new(XCARD_ACTOR, audience)]

        return self.transact(make, anonymous=True)[-1]

    def x_cards(self) -> int:
        """How many X-card taps this seat has seen (the GM: every one)."""
        return int(self.state.extra.get("x_cards") or 0)

    # -- lines and veils -----------------------------------------------------------------------
    def lines_and_veils(self) -> dict[str, list[str]]:
        """The campaign's lines (never in the game) and veils (off screen), as every seat reads them."""
        got = self.state.extra.get("safety") or {}
        return {"lines": list(got.get("lines") or ()), "veils": list(got.get("veils") or ())}

    def set_lines_and_veils(self, lines: Any, veils: Any) -> Event:
        """GM: set the campaign's lines and veils (lists of short texts), for every seat."""
        if not role_can(self.role, SAFETY_LINES.action):
            raise PlayDenied("safety_gm", SAFETY_LINES.action, self.role, WORDS["gm_only"])
        payload = {"lines": clean_items(lines), "veils": clean_items(veils)}
        self.begin_action(SAFETY_LINES.action)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require(SAFETY_LINES.action)
            return [SAFETY_LINES.new(self.actor, SAFETY_LINES.audience_for(), **payload)]

        return self.transact(make)[-1]


__all__ = ["MAX_SAFETY_ITEMS", "MAX_SAFETY_TEXT", "SafetyActions", "XCARD_BURST", "XCARD_REFILL", "table_bucket"]
