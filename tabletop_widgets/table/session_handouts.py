"""Handouts as seat actions: the GM gives one (:meth:`HandoutActions.give_handout`), a seat
lists those it got (:meth:`HandoutActions.handouts`).

A mixin of :class:`~.session.TableSession`. Everything a page may send is checked here: the
title (1 to :data:`MAX_HANDOUT_TITLE` characters), the text (Markdown, at most
:data:`MAX_HANDOUT_TEXT`), the seats (players of this table, not retired: an observer reads only
what every seat reads, in a view all observers share, so it gets the handouts given to all), the
image (at most :data:`MAX_IMAGE_BYTES`, a PNG, JPEG, GIF or WebP by its first bytes, whatever
its name says). One handout is one event per audience (see :mod:`.kinds.handouts`), written in
one transaction: all of them or none.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from typing import Any

from ..core.i18n import T
from ..core.safe_markdown import markdown_html
from .kinds import HANDOUT
from .rules import PlayDenied, PlayError
from .seats import role_can
from .store import AUDIENCE_ALL, SEAT_AUDIENCE_PREFIX, Event, NewEvent, WriteTx

MAX_HANDOUT_TITLE = 120
MAX_HANDOUT_TEXT = 10_000
MAX_IMAGE_BYTES = 1024 * 1024

WORDS = {
    "gm_only": T("Only the GM gives handouts.", "Раздаточные материалы выдаёт только ведущий."),
    "title": T("A handout needs a title.", "У раздаточного материала должен быть заголовок."),
    "title_long": T(
        f"A handout's title is at most {MAX_HANDOUT_TITLE} characters.",
        f"Заголовок раздаточного материала — не длиннее {MAX_HANDOUT_TITLE} символов.",
    ),
    "text": T("A handout's text is text.", "Текст раздаточного материала должен быть строкой."),
    "text_long": T(
        f"A handout's text is at most {MAX_HANDOUT_TEXT} characters.",
        f"Текст раздаточного материала — не длиннее {MAX_HANDOUT_TEXT} символов.",
    ),
    "seats": T(
        "Give it to whom? Choose players of this table (observers get what is given to everyone).",
        "Кому выдать? Выберите игроков этого стола (зрители получают то, что выдано всем).",
    ),
    "image_big": T(
        f"The image is larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB: make it smaller.",
        f"Картинка больше {MAX_IMAGE_BYTES // (1024 * 1024)} МБ: уменьшите её.",
    ),
    "image_kind": T(
        "That file is not a PNG, JPEG, GIF or WebP image.",
        "Этот файл — не картинка PNG, JPEG, GIF или WebP.",
    ),
}


def image_type(data: bytes) -> str | None:
    """The image's type by its first bytes (its magic), or None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def check_image(image: Any) -> tuple[str, str] | None:
    """``image`` (bytes, or None) as ``(type, base64)``; :class:`PlayError` when it is too large
    or not an image."""
    if image is None:
        return None
    if isinstance(image, memoryview):
        image = image.tobytes()
    if not isinstance(image, (bytes, bytearray)):
        raise PlayError("handout_image", WORDS["image_kind"])
    if len(image) > MAX_IMAGE_BYTES:
        raise PlayError("handout_image_big", WORDS["image_big"])
    kind = image_type(bytes(image))
    if kind is None:
        raise PlayError("handout_image", WORDS["image_kind"])
    return kind, base64.b64encode(bytes(image)).decode("ascii")


def check_texts(title: Any, text: Any) -> tuple[str, str]:
    if not isinstance(title, str) or not title.strip():
        raise PlayError("handout_title", WORDS["title"])
    title = " ".join(title.split())
    if len(title) > MAX_HANDOUT_TITLE:
        raise PlayError("handout_title", WORDS["title_long"])
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise PlayError("handout_text", WORDS["text"])
    if len(text) > MAX_HANDOUT_TEXT:
        raise PlayError("handout_text", WORDS["text_long"])
    return title, text


def data_url(kind: Any, b64: Any) -> str | None:
    """The image of a stored handout as a ``data:`` URL, checked again (a store may hold anything)."""
    if not isinstance(kind, str) or not isinstance(b64, str):
        return None
    try:
        raw = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) > MAX_IMAGE_BYTES or image_type(raw) != kind:
        return None
    return f"data:{kind};base64,{b64}"


class HandoutActions:
    """Give handouts; list this seat's (see the module)."""

    def _handout_seats(self, seats: Any) -> list[str] | None:
        if seats is None:
            return None
        if isinstance(seats, str):
            seats = [seats]
        if not isinstance(seats, (list, tuple, set, frozenset)) or not seats or len(seats) > 64:
            raise PlayError("handout_seats", WORDS["seats"])
        out: list[str] = []
        for seat in seats:
            info = self.state.seats.get(seat) if isinstance(seat, str) else None
            if not info or info.get("role") != "player" or info.get("retired"):
                raise PlayError("handout_seats", WORDS["seats"])
            if seat not in out:
                out.append(seat)
        return sorted(out)

    def give_handout(self, title: Any, text: Any, seats: Any = None, image: Any = None) -> list[Event]:
        """GM: give a handout (a title, Markdown ``text``, optionally ``image``: the bytes of a
        PNG, JPEG, GIF or WebP of at most 1 MB) to ``seats`` (seat ids; None: every seat). Only
        those seats' kernels ever receive it. Returns the events written (one per seat, or one
        for all); a :class:`~.rules.PlayError` (or ``PlayDenied``) writes nothing."""
        if not role_can(self.role, HANDOUT.action):
            raise PlayDenied("handout_gm", HANDOUT.action, self.role, WORDS["gm_only"])
        title, text = check_texts(title, text)
        picture = check_image(image)
        self.begin_action(HANDOUT.action)
        to = self._handout_seats(seats)
        handout_id = secrets.token_hex(8)
        extra = {"image_type": picture[0], "image": picture[1]} if picture else {}

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require(HANDOUT.action)
            common = dict(handout_id=handout_id, title=title, text=text, **extra)
            if to is None:
                return [HANDOUT.new(self.actor, AUDIENCE_ALL, to=None, **common)]
            return [HANDOUT.new(self.actor, SEAT_AUDIENCE_PREFIX + seat, to=seat, **common) for seat in to]

        return self.transact(make)

    def handouts(self) -> list[dict[str, Any]]:
        """The handouts this seat got (the GM: every one), oldest first: ``id``, ``title``,
        ``text`` (Markdown), ``html`` (the text as safe HTML), ``image`` (a ``data:`` URL, or
        None), ``to`` (the seats; empty with ``all``) and ``all``."""
        cache = self.__dict__.setdefault("_handout_images", {})
        out = []
        for h in self.state.extra.get("handouts") or ():
            image = None
            if h.get("image_type"):
                seq = h.get("seq")
                if seq not in cache:
                    got = self.events(after_seq=int(seq) - 1, limit=1)
                    payload = got[0].payload if got and got[0].seq == seq else {}
                    cache[seq] = data_url(payload.get("image_type"), payload.get("image"))
                image = cache[seq]
            out.append(
                {
                    "id": h.get("id"),
                    "title": h.get("title") or "",
                    "text": h.get("text") or "",
                    "html": markdown_html(h.get("text") or ""),
                    "image": image,
                    "to": list(h.get("to") or ()),
                    "all": bool(h.get("all")),
                }
            )
        return out


__all__ = ["HandoutActions", "MAX_HANDOUT_TEXT", "MAX_HANDOUT_TITLE", "MAX_IMAGE_BYTES", "data_url", "image_type"]
