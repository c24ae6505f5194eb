"""The table's log on a seat's page: :class:`TableLogArea`, the part of
:class:`~.table_view.TableView` that shows the table's log as this seat may read it (a
:class:`~.log.RollLog` filled from the session's state, in every language the table recorded)
and the links to download each ended session's transcript."""

from __future__ import annotations

import base64
import logging
from typing import Any, Mapping


from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.table.records import dice_html, is_big, summary_html, summary_text

from .base import text_lookup
from .log import RollLog
from .sheet_context import html_widget, vbox
from .table_texts import TEXTS, esc

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)


def _texts(entry: Mapping[str, Any]) -> dict[str, str] | None:
    """A log entry's breakdown in every language, when the table recorded it so."""
    texts = entry.get("texts")
    if isinstance(texts, Mapping) and all(isinstance(texts.get(loc), str) for loc in LOCALES):
        return {loc: texts[loc] for loc in LOCALES}
    return None


def _roll_item(e: Mapping[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    """A roll of dice notation; a big one as a summary, its dice built when the reader opens
    the entry."""
    r = e.get("result") or {}
    label = e.get("label") or e.get("expr") or r.get("expression", "")
    passed = (r.get("check") or {}).get("passed")
    if is_big(r):
        return dict(
            what=label,
            breakdown=lambda loc: summary_text(r, loc),
            success=passed,
            breakdown_html=lambda loc: summary_html(r, loc),
            details=lambda loc: dice_html(r, loc),
        )
    text = dict(texts) or r.get("text") or e.get("text", "")  # every reader's language
    return dict(what=label, breakdown=text, success=passed)


class TableLogArea:
    """``log_column`` of :class:`~.table_view.TableView`: the table's log (``roll_log``) and the
    transcripts of ended sessions (``transcripts``)."""

    _log_seq = 0  # the last log entry shown

    def build_log_column(self, locale: str) -> None:
        """``roll_log`` (which only adds and filters: the log is the table's, nothing to clear)
        and ``transcripts``, in ``log_column``."""
        session = self.session
        self.roll_log = RollLog(
            locale=locale, title=TEXTS["log_title"], can=lambda a: a in ("add", "filter") and session.can("read")
        )
        self.roll_log.add_class("tt-table-log")
        self.transcripts = html_widget(classes=("tt-transcripts",))
        self._transcript_cache: dict[tuple[int, str, str], str] = {}
        self.log_column = vbox([self.roll_log, self.transcripts], classes=("tt-table-log-column",))
        self.roll_log.clear_button.layout.display = "none"

    def add_log_entries(self) -> None:
        """The log entries of events not shown yet, added at once (a page opening on a long
        session draws its log once, not once per old entry)."""
        st = self.session.state
        items = []
        for entry in st.log:
            if entry["seq"] <= self._log_seq:
                continue
            self._log_seq = entry["seq"]
            item = self._log_item(entry)
            if item is not None:
                items.append(item)
        self.roll_log.add_many(items)

    def _trait_label(self, effect: Mapping[str, Any], loc: str) -> str:
        """An effect's trait as the sheet names it (never its id)."""
        try:
            return tr(self.system.sheet.field(str(effect.get("trait"))).label, loc)
        except (KeyError, AttributeError, LookupError, ValueError):
            reason = effect.get("reason")
            return tr(reason, loc) if isinstance(reason, Mapping) and reason else str(effect.get("trait"))

    def _who(self, seat: str) -> str:
        info = self.session.state.seats.get(seat) or {}
        return str(info.get("name") or seat)

    def _log_item(self, e: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the log shows for one state log entry (``RollLog.add``'s keywords), or None.
        A roll, a check, an attack or an initiative the GM rolled hidden says so."""
        kind = e.get("kind")
        texts = _texts(e) or {}  # every language, when the table recorded it so
        if kind == "roll":
            item = _roll_item(e, texts)
        elif kind in ("check", "check.after"):
            item = self._check_item(e, texts)
        elif kind == "attack":  # rolled with the table's dice: the line in every language
            item = dict(what=T("Attack", "Атака"), breakdown=dict(texts) or e.get("text", ""), success=e.get("success"))
        elif kind == "initiative":
            item = dict(what=T("Initiative", "Инициатива"), breakdown=e.get("text", ""))
        else:
            item = self._table_item(e)
            return None if item is None else dict(item, who=self._who(e.get("actor", "")))
        what = {loc: tr(item["what"], loc) for loc in LOCALES}
        if e.get("hidden"):
            what = {loc: f"[{_t('hidden_mark', loc)}] {what[loc]}" for loc in LOCALES}
        return dict(item, who=self._who(e.get("actor", "")), what=what)

    def _check_item(self, e: Mapping[str, Any], texts: dict[str, str]) -> dict[str, Any]:
        """A named check of a character (``check.after``: changed after the roll, epic dice),
        with the changes it made as the sheet names them."""
        r = e.get("result") or {}
        roll = r.get("roll") or {}
        name = self.character_name(e.get("character_id") or "")
        what = {loc: f"{tr(r.get('label') or {}, loc)} · {name}" for loc in LOCALES}
        if e.get("kind") == "check.after":  # the latest check, changed after the roll (epic dice)
            what = {loc: f"{what[loc]} · {_t('after_roll_mark', loc)}" for loc in LOCALES}
        effects = {
            loc: "; ".join(
                f"{self._trait_label(x, loc)} {x.get('delta'):+}"
                for x in r.get("effects") or ()
                if isinstance(x.get("delta"), int)
            )
            for loc in LOCALES
        }
        return dict(
            what=what,
            breakdown=dict(texts) or roll.get("text", ""),
            outcome=r.get("outcome") or "",
            success=r.get("success"),
            effects=effects,
        )

    def _table_item(self, e: Mapping[str, Any]) -> dict[str, Any] | None:
        """A chat message, a session ended or started, the table closed (never hidden)."""
        kind = e.get("kind")
        if kind == "message":
            return dict(what=e.get("text", ""))
        if kind in ("session.ended", "session.started"):
            n = e.get("session")
            if kind == "session.ended":
                what = {loc: _t("log_session_ended", loc, n=n) for loc in LOCALES}
                detail = {loc: f"{_t('session_seed', loc, n=n)}: {e.get('seed', '')}" for loc in LOCALES}
            else:
                what = {loc: _t("log_session_started", loc, n=n) for loc in LOCALES}
                detail = {loc: f"{_t('session_commitment', loc, n=n)}: {e.get('seed_hash', '')}" for loc in LOCALES}
            return dict(what=what, breakdown=detail)
        if kind == "table.closed":
            seed = self.session.state.seed or ""
            return dict(what=TEXTS["closed"], breakdown={loc: f"{_t('seed', loc)}: {seed}" for loc in LOCALES})
        return None

    def render_transcripts(self) -> None:
        """Links to download each ended session's transcript as this seat saw it (Markdown, or
        a self-contained web page), in the screen's language; built once per session and
        language (an ended session does not change)."""
        from tabletop_widgets.table.campaign import sessions
        from tabletop_widgets.table.transcript import session_transcript

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


__all__ = ["TableLogArea"]
