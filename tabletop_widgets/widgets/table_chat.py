"""The table's chat on a seat's page: :class:`ChatBox` (class ``tt-chat``), above the table's log.

A line goes to the whole table, in character or out of character, or as a whisper: a player's to
the GM, the GM's to one player. It is the seat's ``say`` (``TableSession.say``: the role, the
length and the seat's rate checked there, whatever the browser sends); the line comes back as the
table's ``message`` event and shows in the log (and the session's transcript) of every seat that
may read it. An observer's page has no chat: observers read the table, they do not speak at it.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.table import EventError

from .base import text_lookup
from .sheet_context import hbox, vbox

TEXTS: dict[str, dict[str, str]] = {
    "placeholder": {"en": "Say something to the table…", "ru": "Скажите что-нибудь столу…"},
    "send": {"en": "Send", "ru": "Отправить"},
    "send_tip": {"en": "Send the line (Enter sends it too)", "ru": "Отправить реплику (можно и клавишей Enter)"},
    "mode": {"en": "As", "ru": "Как"},
    "mode_tip": {
        "en": "In character, out of character, or a whisper only the two of you read",
        "ru": "В роли, вне игры или шёпотом: его прочтёте только вы двое",
    },
    "ic": {"en": "In character", "ru": "В роли"},
    "ooc": {"en": "Out of character", "ru": "Вне игры"},
    "to_gm": {"en": "Whisper to the {gm}", "ru": "Шёпотом: {gm}"},
    "to_seat": {"en": "Whisper to {name}", "ru": "Шёпотом: {name}"},
    "empty": {"en": "Type a line to send.", "ru": "Напишите реплику."},
}

_t = text_lookup(TEXTS)


class ChatBox:
    """A seat's chat (see the module): ``text`` (``tt-chat-text``), ``mode`` (``tt-chat-mode``)
    and ``send`` (``tt-chat-send``) in ``box``. It speaks through ``session`` (the seat's
    ``TableSession``) and tells the seat's status line through ``say(kind, text)`` (``say(None,
    None)`` clears it) and ``refused(exc)`` (why the table refused a line)."""

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
    ):
        self.session = session
        self._status = say
        self._refused = refused
        self.text = widgets.Text(
            layout=widgets.Layout(flex="1 1 180px", width="auto"),
            _dom_classes=("tt-chat-text",),
            placeholder=_t("placeholder", locale),
        )
        self.mode = widgets.Dropdown(
            options=self._modes(locale),
            value="ic",
            layout=widgets.Layout(width="auto", min_width="9em"),
            _dom_classes=("tt-chat-mode",),
        )
        self.send = widgets.Button(button_style="primary", _dom_classes=("tt-chat-send",), icon="")
        self.send.on_click(lambda _b: self.say())
        self.text.on_msg(self._on_text_msg)
        self.box = vbox([hbox([self.text, self.mode, self.send], classes=("tt-chat-row",))], classes=("tt-chat",))
        self.relabel(locale)

    def _modes(self, loc: str) -> list[tuple[str, str]]:
        from .table_texts import gm_words

        s = self.session
        modes = [(_t("ic", loc), "ic"), (_t("ooc", loc), "ooc")]
        if s.role == "gm":
            for seat, info in sorted(s.state.seats.items()):
                if info.get("role") == "player" and not info.get("retired"):
                    modes.append((_t("to_seat", loc, name=info.get("name") or seat), "to:" + seat))
        else:
            modes.append((_t("to_gm", loc, gm=gm_words(s.system, loc)["gm"]), "to:gm"))
        return modes

    def _on_text_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # the reader pressed Enter
            self.say()

    def say(self, text: str | None = None, mode: str | None = None) -> Any:
        """Send a line (the text box's, by default) as ``mode`` (the picker's): the table checks
        it; the box is cleared once it is at the table, kept (with why) when it is refused."""
        text = (self.text.value if text is None else text).strip()
        mode = self.mode.value if mode is None else mode
        if not text:
            return self._status("error", TEXTS["empty"])
        to = mode[3:] if isinstance(mode, str) and mode.startswith("to:") else None
        register = mode if mode in ("ic", "ooc") else "ic"
        try:
            event = self.session.say(text, mode=register, to=to)
        except (PermissionError, EventError, ValueError) as exc:
            return self._refused(exc)
        self.text.value = ""
        self._status(None, None)
        return event

    def relabel(self, loc: str) -> None:
        value = self.mode.value
        self.mode.options = self._modes(loc)
        if value in [v for _, v in self.mode.options]:
            self.mode.value = value
        self.mode.description = _t("mode", loc)
        self.mode.tooltip = _t("mode_tip", loc)
        self.text.placeholder = _t("placeholder", loc)
        self.send.description = _t("send", loc)
        self.send.tooltip = _t("send_tip", loc)


__all__ = ["ChatBox", "TEXTS"]
