"""Handouts: the GM gives a text (Markdown) with an optional image to chosen seats or to all.

One handout given to several seats is one event per audience (each seat's own audience, or
every seat's), all with the same ``handout_id``: a seat's kernel only ever receives the events
addressed to it. The image stays in the store's event: the folded state (and its snapshots)
keeps the handout without it, and :meth:`~..session_handouts.HandoutActions.handouts` reads it
from the store when a seat asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.i18n import LOCALES, T, tr
from ...core.safe_markdown import markdown_plain
from ..payload import Payload, optional
from .base import Kind, Line, both

#: an image may make a handout's event this large (base64 of an image of at most 1 MB)
HANDOUT_PAYLOAD_BYTES = 1_500_000

WORDS = {
    "handout": T("Handout: {title}", "Раздаточный материал: {title}"),
    "image": T("(with an image)", "(с картинкой)"),
}


@dataclass(frozen=True, kw_only=True)
class HandoutPayload(Payload):
    max_bytes = HANDOUT_PAYLOAD_BYTES

    #: the same for every event of one handout (given to several seats)
    handout_id: str
    title: str
    text: str
    #: the seat this event is for; None: every seat
    to: str | None = optional(omit_none=False)
    #: ``"image/png"``, ``"image/jpeg"``, ``"image/gif"`` or ``"image/webp"``; None: no image
    image_type: str | None = optional()
    #: the image's bytes as base64
    image: str | None = optional()


class Handout(Kind):
    """The GM gave a handout (see the module)."""

    name = "handout"
    Payload = HandoutPayload
    action = "handout"
    logged = True
    log_drop = ("image",)

    def reduce(self, state, event, p: HandoutPayload) -> None:
        handouts = state.extra.setdefault("handouts", [])
        for h in handouts:
            if h.get("id") == p.handout_id:  # the GM reads every seat's event of it
                if p.to is not None and p.to not in h["to"]:
                    h["to"].append(p.to)
                return
        handouts.append(
            {
                "id": p.handout_id or "",
                "seq": event.seq,
                "title": p.title or "",
                "text": p.text or "",
                "to": [] if p.to is None else [p.to],
                "all": p.to is None,
                "image_type": p.image_type if p.image else None,
            }
        )

    def line(self, entry, p: HandoutPayload, ctx) -> Line:
        title = p.title or ""
        what = {loc: tr(WORDS["handout"], loc).format(title=title) for loc in LOCALES}
        image = entry.get("image_type") or p.image_type
        said = markdown_plain(p.text or "")  # the log's one line: the Markdown's marks off
        text = {loc: said + (f" {tr(WORDS['image'], loc)}" if image else "") for loc in LOCALES}
        who = ctx.who(entry.get("actor", ""))
        return Line("table", who=who, what=what, text=both(text), hidden=p.to is not None)


KINDS = (Handout(),)

__all__ = ["HANDOUT_PAYLOAD_BYTES", "KINDS"]
