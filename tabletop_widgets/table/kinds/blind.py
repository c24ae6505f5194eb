"""Blind rolls (issue 34): every seat sees that a roll was made, by whom and of what; only the GM
sees what it gave, until the GM reveals it.

One blind roll is two events written in one transaction, in this order:

* ``roll.blind.dice`` (audience: the GM only): the roll as a ``roll`` event holds it (its fair-dice
  roll index, the expression, the variables it used, the dice). It carries the roll index, so
  ``verify`` replays it like any other roll; a player's kernel never loads it.
* ``roll.blind`` (audience: everyone, or the roller and the GM for a hidden one): that the roll
  happened: its roll index (a reference, no value), the expression and label unless the GM hid
  them (``hide_notation``). No total, no dice.

``roll.reveal`` (the GM's, later) publishes the result to the blind roll's audience: the roll
index, expression, variables and dice, so that once the session's dice key is revealed any seat
can roll that index again and check it. Its reducer turns the blind roll's log entry into the
result (the log line a page shows changes from the face-down die to the dice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.i18n import LOCALES, T, tr
from ...core.system import term_of
from ..payload import Payload, optional
from ..records import is_big, summary_text
from ..store import AUDIENCE_GM
from .base import Kind, Line, both
from .dice import Roll, RollPayload, hidden_what, texts_of

WORDS = {
    "rolled": T("rolled {what} blind", "бросает {what} вслепую"),
    "rolled_unseen": T("rolled blind", "бросает вслепую"),
    "not_revealed": T("not revealed yet", "результат ещё не раскрыт"),
    "revealed": T("revealed", "результат раскрыт"),
    "face_down": T(
        "face down: only the {gm} sees the result until it is revealed",
        "лицом вниз: результат видит только {gm}, пока не раскроет его",
    ),
    "revealed_by": T("revealed the blind roll of {who}", "раскрывает бросок вслепую ({who})"),
}

#: the face-down die a log line shows in place of the dice
FACE_DOWN_HTML = '<span class="tt-facedown-die" aria-hidden="true">?</span> '


def _w(key: str, loc: str, **fmt: Any) -> str:
    return tr(WORDS[key], loc).format(**fmt)


# --------------------------------------------------------------------------------------------
# roll.blind.dice: the dice, for the GM
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class BlindDicePayload(RollPayload):
    """A blind roll's dice: the fields of a ``roll`` event."""


class BlindDice(Roll):
    """A blind roll's outcome, for the GM only (see the module); replayed by ``verify`` as a roll."""

    name = "roll.blind.dice"
    Payload = BlindDicePayload

    def audience_for(self) -> str:
        return AUDIENCE_GM

    def line(self, entry, p, ctx) -> Line | None:
        return None  # the GM's page tells it in the blind roll's own line


# --------------------------------------------------------------------------------------------
# roll.blind: that a blind roll was made
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class BlindPayload(Payload):
    #: the roll index of its ``roll.blind.dice`` (a reference: no value)
    index: int
    #: the expression and label as every seat reads them; None when the GM hid them
    expr: str | None = optional(omit_none=False, limit="expression")
    label: str | None = optional(omit_none=False, limit="label")
    notation_hidden: bool = False
    hidden: bool = False


def dice_entry(state, index: Any) -> dict | None:
    """The ``roll.blind.dice`` log entry of roll ``index`` in ``state`` (a GM's view only)."""
    for entry in reversed(state.log):
        if entry.get("kind") == BlindDice.name and entry.get("index") == index:
            return entry
    return None


def blind_entry(state, seq: Any) -> dict | None:
    """The ``roll.blind`` log entry whose event is ``seq``, if the state's log still holds it."""
    for entry in reversed(state.log):
        if entry.get("seq") == seq and entry.get("kind") == BlindRoll.name:
            return entry
    return None


def _what(expr: Any, label: Any) -> str:
    expr = expr if isinstance(expr, str) else ""
    label = label if isinstance(label, str) else ""
    return f"{label} ({expr})" if label and expr else label or expr


def _result_line(style: str, who: str, what: dict, result: Mapping, payload: Any, hidden: bool) -> Line:
    """A line showing a blind roll's dice (the GM's meanwhile, everyone's once revealed)."""
    r = result if isinstance(result, Mapping) else {}
    passed = (r.get("check") or {}).get("passed") if isinstance(r.get("check"), Mapping) else None
    if is_big(r):
        text_ = {loc: summary_text(r, loc) for loc in LOCALES}
    else:
        text_ = texts_of(payload) if (payload.texts or payload.text) else both(r.get("text") or "")
    return Line(style, who, hidden_what(what, hidden), text_, success=passed, hidden=hidden)


class BlindRoll(Kind):
    """That a seat rolled blind (see the module): a face-down die until the GM reveals it; the
    GM's own page shows the dice meanwhile, marked as blind, with a way to reveal them."""

    name = "roll.blind"
    Payload = BlindPayload
    action = "roll"
    logged = True

    def line(self, entry, p: BlindPayload, ctx) -> Line:
        who = ctx.who(entry.get("actor", ""))
        revealed = entry.get("revealed") if isinstance(entry.get("revealed"), Mapping) else None
        dice = None if revealed else dice_entry(ctx.state, p.index)
        source = revealed or dice
        shown = _what(source.get("expr"), source.get("label")) if source else _what(p.expr, p.label)
        rolled = {loc: _w("rolled", loc, what=shown) if shown else _w("rolled_unseen", loc) for loc in LOCALES}
        if source is not None:
            mark = "revealed" if revealed else "not_revealed"
            what = {loc: f"{rolled[loc]} ({_w(mark, loc)})" for loc in LOCALES}
            got = BlindDice.Payload.read(source)
            line = _result_line("roll", who, what, source.get("result"), got, bool(p.hidden))
            line.blind = "revealed" if revealed else "secret"
            line.reveal = None if revealed else entry.get("seq")
            return line
        gm = {loc: term_of(ctx.system, "gm", loc) for loc in LOCALES}
        text_ = {loc: "[?] " + _w("face_down", loc, gm=gm[loc]) for loc in LOCALES}
        html = {loc: FACE_DOWN_HTML + _w("face_down", loc, gm=gm[loc]) for loc in LOCALES}
        return Line(
            "roll", who, hidden_what(rolled, bool(p.hidden)), text_, hidden=bool(p.hidden), html=html, blind="face_down"
        )


# --------------------------------------------------------------------------------------------
# roll.reveal: the GM shows a blind roll's result
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class RevealPayload(Payload):
    #: the ``roll.blind`` event revealed
    blind_seq: int
    #: its roll index, and what was rolled: any seat rolls the index again once the key is out
    index: int
    expr: str
    variables: dict | None = optional(omit_none=False)
    label: str | None = optional(omit_none=False, limit="label")
    #: the dice, as the blind roll's ``roll.blind.dice`` holds them
    result: dict
    text: str
    texts: dict | None = optional()
    #: who rolled it
    roller: str = ""


class Reveal(Kind):
    """The GM reveals a blind roll: its dice to every seat that saw the roll made."""

    name = "roll.reveal"
    Payload = RevealPayload
    action = "roll.reveal"
    logged = True

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        r = payload.get("result") if isinstance(payload.get("result"), Mapping) else {}
        return {**payload, "total": r.get("total")}

    def reduce(self, state, event, p: RevealPayload) -> None:
        shown = {
            "seq": event.seq,
            "expr": p.expr,
            "label": p.label,
            "result": p.result,
            "text": p.text,
            "texts": p.texts,
            "total": (p.result or {}).get("total") if isinstance(p.result, Mapping) else None,
        }
        entry = blind_entry(state, p.blind_seq)
        if entry is not None:  # the seat's copy of the blind roll now holds its result
            entry.update(revealed=shown, result=p.result, total=shown["total"])
        dice = dice_entry(state, p.index)
        if dice is not None:
            dice["revealed"] = event.seq

    def line(self, entry, p: RevealPayload, ctx) -> Line:
        who = ctx.who(entry.get("actor", ""))
        roller = ctx.who(p.roller)
        shown = _what(p.expr, p.label)
        what = {loc: f"{_w('revealed_by', loc, who=roller)}: {shown}" for loc in LOCALES}
        line = _result_line("reveal", who, what, p.result, p, False)
        line.blind = "revealed"
        return line


KINDS = (BlindDice(), BlindRoll(), Reveal())

__all__ = ["FACE_DOWN_HTML", "KINDS", "blind_entry", "dice_entry"]
