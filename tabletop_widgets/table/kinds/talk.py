"""What the table says: a chat line (``message``: in character, out of character, or a whisper
to the GM) and the GM's notes (``note``: only GM seats ever load them)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.i18n import LOCALES, T, tr
from ..payload import Payload, optional, text
from ..store import AUDIENCE_ALL, AUDIENCE_GM, SEAT_AUDIENCE_PREFIX
from .base import Kind, Line, both

#: a chat line's registers: in character, out of character
MODES = ("ic", "ooc")
#: who a whisper goes to (a player's whisper goes to the GM; the GM whispers to a seat)
WHISPER_TO_GM = "gm"

WORDS = {
    "ic": T("says", "говорит"),
    "ooc": T("says (out of character)", "говорит (вне игры)"),
    "whisper": T("whispers to the GM", "шепчет ведущему"),
    "whisper_to": T("whispers to {who}", "шепчет: {who}"),
    "note": T("GM note", "Заметка ведущего"),
}


@dataclass(frozen=True, kw_only=True)
class MessagePayload(Payload):
    text: str = text("message")
    #: ``"ic"`` (in character) or ``"ooc"``; a line from before registers read as in character
    mode: str | None = optional()
    #: a whisper: ``"gm"`` (a player's) or the seat the GM whispers to; None: the whole table
    to: str | None = optional()


class Message(Kind):
    """A chat line: to the whole table (in or out of character), or a whisper between a player
    and the GM (its audience: that player's seat, which the GM reads too)."""

    name = "message"
    Payload = MessagePayload
    action = "message"
    recordable = True
    logged = True

    def audience_for(self, role: str, seat: str, to: str | None) -> str:
        if to is None:
            return AUDIENCE_ALL
        if role == "gm":
            return SEAT_AUDIENCE_PREFIX + to if to != WHISPER_TO_GM else AUDIENCE_GM
        return SEAT_AUDIENCE_PREFIX + seat

    def line(self, entry, p: MessagePayload, ctx) -> Line:
        if p.to:
            mode = "whisper"
            if p.to == WHISPER_TO_GM:
                what = both(WORDS["whisper"])
            else:
                who = ctx.who(p.to)
                what = {loc: tr(WORDS["whisper_to"], loc).format(who=who) for loc in LOCALES}
        else:
            mode = p.mode if p.mode in MODES else "ic"
            what = both(WORDS[mode])
        return Line("message", ctx.who(entry.get("actor", "")), what, both(p.text or ""), mode=mode, hidden=bool(p.to))


@dataclass(frozen=True, kw_only=True)
class NotePayload(Payload):
    text: str = text("note")
    title: str | None = optional(omit_none=False, limit="title")


class Note(Kind):
    """A GM note (audience: the GM's)."""

    name = "note"
    Payload = NotePayload
    action = "note"
    recordable = True
    logged = True  # the GM's transcript tells the notes (the GM's page shows them in its Notes)

    def audience_for(self) -> str:
        return AUDIENCE_GM

    def reduce(self, state, event, p: NotePayload) -> None:
        state.notes.append(
            {"seq": event.seq, "actor": event.actor, "text": p.text or "", "title": p.title, "audience": event.audience}
        )

    def line(self, entry, p: NotePayload, ctx) -> Line:
        body = (f"{p.title}: " if p.title else "") + (p.text or "")
        return Line("note", ctx.who(entry.get("actor", "")), both(WORDS["note"]), both(body), hidden=True)


KINDS = (Message(), Note())

__all__ = ["KINDS", "MODES", "WHISPER_TO_GM"]
