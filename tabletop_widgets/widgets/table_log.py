"""The table's log on a seat's page: :class:`TableLog`, the part of
:class:`~.table_view.TableView` that shows the table's log as this seat may read it (a
:class:`~.log.RollLog` filled from the session's state, in every language the table recorded),
the table's chat above it, and the links to download each ended session's transcript.

It is built from the seat's session, the screen's language and the two callbacks of the
screen's status line (``say``, ``refused``) that the chat raises; the screen tells it when new
events came (:meth:`TableLog.add_entries`) and when the language changed
(:meth:`TableLog.relabel`)."""

from __future__ import annotations

import base64
import logging
from typing import Any, Callable, Mapping

from tabletop_widgets.table import ROLL_REVEAL, LineContext, blind_entry, line_of

from .base import text_lookup
from .log import RollLog
from .table_chat import ChatBox
from .sheet_context import html_widget, vbox
from .table_texts import TEXTS, esc

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)


class TableLog:
    """``box`` (class ``tt-table-log-column``): the table's chat (``chat``, a
    :class:`~.table_chat.ChatBox`; None on an observer's page), the table's log (``roll_log``)
    and the transcripts of ended sessions (``transcripts``).

    Parameters
    ----------
    session : TableSession
        The seat: what its log shows, what its chat says.
    locale : str
        The language it is built in (:meth:`relabel` switches it).
    say, refused : callable
        The screen's status line: ``say(kind, text)`` and ``refused(exc)``, raised by the chat.
    """

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
    ):
        self.session = session
        self.locale = locale
        self._refused = refused
        self._log_seq = 0  # the last log entry shown
        self._blind_items: dict[int, int] = {}  # a blind roll's seq -> its entry's number in the log
        # ``roll_log`` only adds and filters: the log is the table's, nothing to clear
        self.roll_log = RollLog(
            locale=locale, title=TEXTS["log_title"], can=lambda a: a in ("add", "filter") and session.can("read")
        )
        self.roll_log.add_class("tt-table-log")
        self._line_context = LineContext(session.state, session.system)
        self.transcripts = html_widget(classes=("tt-transcripts",))
        self._transcript_cache: dict[tuple[int, str, str], str] = {}
        # the table's chat, for the seats that speak at it (an observer only reads)
        self.chat = ChatBox(session, locale, say=say, refused=refused) if session.role in ("gm", "player") else None
        chat = [self.chat.box] if self.chat is not None else []
        self.box = vbox([*chat, self.roll_log, self.transcripts], classes=("tt-table-log-column",))
        self.roll_log.clear_button.layout.display = "none"

    def relabel(self, loc: str) -> None:
        """The chat and the transcripts' links in ``loc`` (the log follows its own ``locale``,
        which the screen sets)."""
        self.locale = loc
        if self.chat is not None:
            self.chat.relabel(loc)
        self.render_transcripts()

    def add_entries(self) -> None:
        """The log entries of events not shown yet, added at once (a page opening on a long
        session draws its log once, not once per old entry)."""
        st = self.session.state
        items, blind, revealed = [], [], []
        for entry in st.log:
            if entry["seq"] <= self._log_seq:
                continue
            self._log_seq = entry["seq"]
            item = self._log_item(entry)
            if entry.get("kind") == ROLL_REVEAL.name:
                revealed.append(entry.get("blind_seq"))
            if item is not None:
                if item.get("classes"):
                    blind.append((entry["seq"], len(items)))
                items.append(item)
        added = self.roll_log.add_many(items)
        for seq, at in blind:
            if at < len(added):
                self._blind_items[seq] = added[at].n
        for seq in revealed:  # a blind roll shown face down (or, to the GM, not revealed) turns over
            self.redraw_blind(seq)

    def redraw_blind(self, seq) -> None:
        """Draw the blind roll ``seq`` again as the state tells it now (revealed)."""
        n = self._blind_items.get(seq) if isinstance(seq, int) else None
        entry = blind_entry(self.session.state, seq) if n is not None else None
        item = self._log_item(entry) if entry is not None else None
        if item is not None:
            self.roll_log.update(n, **item)

    def reveal(self, seq: int):
        """GM: the *Reveal* under a blind roll (the session refuses anyone else, and says why)."""
        try:
            return self.session.reveal(seq)
        except (PermissionError, ValueError) as exc:
            return self._refused(exc)

    def _log_item(self, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the log shows for one state log entry (``RollLog.add``'s keywords), or None: the
        entry's kind's line (the one renderer the transcript uses too), a GM's notes left to
        their tab and a round's heading to the transcript."""
        line = line_of(entry, self._line_context)
        if line is None or line.style in ("note", "round"):
            return None
        item = line.log_item()
        if line.reveal is not None and self.session.can(ROLL_REVEAL.action):
            seq = line.reveal
            item["action"] = {
                "label": TEXTS["reveal"],
                "tip": TEXTS["reveal_tip"],
                "classes": ("tt-log-reveal",),
                "on_click": lambda: self.reveal(seq),
            }
        return item

    def render_transcripts(self) -> None:
        """Links to download each ended session's transcript as this seat saw it (Markdown, or
        a self-contained web page), in the screen's language; built once per session and
        language (an ended session does not change)."""
        from tabletop_widgets.table import session_transcript, sessions

        loc = self.locale
        ended = [s for s in sessions(self.session.state) if not s.is_open]
        if not ended:
            self.transcripts.value = ""
            return
        rows = []
        for s in ended:
            links = []
            for fmt, mime, key in (("md", "text/markdown", "transcript_md"), ("html", "text/html", "transcript_html")):
                data = self._transcript_cache.get((s.n, loc, fmt))
                if data is None:
                    try:
                        text = session_transcript(self.session, s.n, fmt=fmt, locale=loc)
                    except Exception:  # a transcript must not take the page down
                        log.exception("transcript of session %s failed", s.n)
                        continue
                    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
                    self._transcript_cache[(s.n, loc, fmt)] = data
                name = f"session-{s.n}.{fmt}"
                links.append(
                    f'<a download="{name}" href="data:{mime};charset=utf-8;base64,{data}" '
                    f'class="tt-transcript-{fmt}" data-session="{s.n}">{esc(_t(key, loc))}</a>'
                )
            rows.append(f"<li>{esc(_t('transcript_row', loc, n=s.n))} {' · '.join(links)}</li>")
        self.transcripts.value = (
            f'<div title="{esc(_t("transcript_tip", loc))}"><b>{esc(_t("transcripts", loc))}</b>'
            f"<ul>{''.join(rows)}</ul></div>"
        )


__all__ = ["TableLog"]
