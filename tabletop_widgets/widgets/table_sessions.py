"""The GM's Sessions tab on the table page: :class:`SessionsTab`, the part of
:class:`~.table_view.TableView` where the GM ends tonight's session and starts the next (each
after a confirm step), and sees every session of the campaign with its verification (the table
layer verifies, :func:`~tabletop_widgets.table.campaign.session_reports`; this draws). Under them, and
alone on a player's Sessions tab, the Luck part (:class:`~.table_luck.LuckPart`): how lucky the last
ended session was.

It is built from the GM's session, the screen's language and the status line's callbacks
(``say``, ``refused``); the screen tells it when the table's sessions changed
(:meth:`SessionsTab.render_sessions` with ``reverify``) and when the language changed
(:meth:`SessionsTab.relabel`)."""

from __future__ import annotations

import datetime
import logging
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.table import EventError

from .base import text_lookup
from .sheet_context import vbox
from .table_luck import LuckPart
from .table_texts import TEXTS, esc, gm_words

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)

#: the columns of the campaign's list of sessions
SESSION_COLUMNS = (
    "sessions_col_n",
    "sessions_col_when",
    "sessions_col_rolls",
    "sessions_col_commitment",
    "sessions_col_check",
)


#: The widgets of the GM's Sessions tab: it is built when first shown (verifying every session of
#: the campaign takes the kernel a while), or when one of them is asked for.
SESSIONS_PARTS = (
    "session_status",
    "session_end_button",
    "session_start_button",
    "session_confirm_text",
    "session_yes",
    "session_no",
    "session_confirm",
    "session_list",
)


class SessionsTab:
    """The GM's sessions tab (``box``), filled when first shown (:meth:`build_sessions`) or
    when one of its widgets (:data:`SESSIONS_PARTS`) is asked for.

    Parameters
    ----------
    session : TableSession
        The GM's seat (every action checks it again: a forged message reaches the handlers).
    locale : str
        The language it is drawn in (:meth:`relabel` switches it).
    say, refused : callable
        The screen's status line: ``say(kind, text)`` and ``refused(exc)``.
    """

    built = False  # whether the tab's widgets are made

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
    ):
        self.session = session
        self.system = session.system
        self.locale = locale
        self.say = say
        self.refused = refused
        self._confirming: str | None = None  # "end" / "start": the GM's step awaiting a yes
        self._session_reports: list | None = None  # the campaign's verified sessions, once computed
        self.box = vbox(classes=("tt-gm-sessions" if session.role == "gm" else "tt-seat-sessions",))

    def __getattr__(self, name: str) -> Any:
        # only for the tab's widgets not made yet: make the tab, then answer (a player's tab
        # holds the Luck part only)
        if name not in SESSIONS_PARTS or "box" not in self.__dict__ or self.__dict__.get("built"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.build_sessions()
        if name not in self.__dict__:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self.__dict__[name]

    def relabel(self, loc: str) -> None:
        """The tab in ``loc`` (when it is built)."""
        self.locale = loc
        self.render_sessions()

    def build_sessions(self) -> None:
        """GM: end tonight's session, start the next one (each after a confirm step), and the
        campaign's sessions with their verification; drawn as the table is now."""
        if self.built:
            return
        self.built = True
        self.luck = LuckPart(self.session, self.locale, say=self.say, refused=self.refused)
        if self.session.role != "gm":  # a player's (an observer's) tab: their luck only
            self.box.children = [self.luck.box]
            self.luck.render()
            return
        self.session_status = widgets.HTML()
        self.session_status.add_class("tt-session-status")
        self.session_end_button = widgets.Button(button_style="warning")
        self.session_end_button.add_class("tt-session-end")
        self.session_end_button.on_click(lambda _b: self.ask_session("end"))
        self.session_start_button = widgets.Button(button_style="success")
        self.session_start_button.add_class("tt-session-start")
        self.session_start_button.on_click(lambda _b: self.ask_session("start"))
        self.session_confirm_text = widgets.HTML()
        self.session_confirm_text.add_class("tt-session-confirm-text")
        self.session_yes = widgets.Button(button_style="danger")
        self.session_yes.add_class("tt-session-confirm")
        self.session_yes.on_click(lambda _b: self.confirm_session())
        self.session_no = widgets.Button()
        self.session_no.add_class("tt-session-cancel")
        self.session_no.on_click(lambda _b: self.cancel_session())
        self.session_confirm = widgets.VBox(
            [self.session_confirm_text, widgets.HBox([self.session_yes, self.session_no])],
            layout=widgets.Layout(display="none"),
        )
        self.session_confirm.add_class("tt-session-confirm-box")
        self.session_list = widgets.HTML()
        self.session_list.add_class("tt-session-list")
        self.box.children = [
            self.session_status,
            widgets.HBox([self.session_end_button, self.session_start_button]),
            self.session_confirm,
            self.session_list,
            self.luck.box,
        ]
        self.render_sessions()

    def ask_session(self, step: str) -> None:
        """GM: the first press of *End tonight's session* / *Start the next session*: shows
        what it will do and asks for a yes (:meth:`confirm_session`)."""
        if step not in ("end", "start") or not self.session.can("session.manage"):
            self.say("error", TEXTS["not_allowed"])
            return
        self._confirming = step
        self.render_sessions()

    def cancel_session(self) -> None:
        self._confirming = None
        self.render_sessions()

    def confirm_session(self):
        """GM: the yes of the confirm step: ends or starts the session (the table layer checks
        the role and the session's state again). Returns the event, or None."""
        step, self._confirming = self._confirming, None
        if step is None or not self.session.can("session.manage"):
            self.render_sessions()
            return self.say("error", TEXTS["not_allowed"]) if step is not None else None
        try:
            event = self.session.end_session() if step == "end" else self.session.start_session()
        except (PermissionError, EventError) as exc:
            self.refused(exc)
            self.render_sessions()
            return None
        self.render_sessions(reverify=True)  # the list verifies the ended session anew
        return event

    def render_sessions(self, *, reverify: bool = False) -> None:
        """The GM's sessions tab: where the campaign is, the two steps and their confirm, and
        every session with its verification (``reverify``: the table changed its sessions, so
        the list verifies them anew)."""
        if reverify:
            self._session_reports = None
        if not self.built:
            return
        self.luck.locale = self.locale
        self.luck.render(recompute=reverify)
        if self.session.role != "gm":
            return
        loc = self.locale
        self._render_session_steps(loc)
        self._render_session_confirm(loc)
        self._render_session_list(loc)

    def _render_session_steps(self, loc: str) -> None:
        """Where the campaign is, and the two steps' buttons (each only when it applies)."""
        st = self.session.state
        key = "session_open_status" if st.session_open else "session_ended_status"
        status = _t(key, loc, n=st.session, **gm_words(self.system, loc))
        self.session_status.value = f'<p class="tt-hint-text" role="status">{esc(status)}</p>'
        manage = self.session.can("session.manage")
        self.session_end_button.description = _t("session_end", loc)
        self.session_end_button.tooltip = _t("session_end_tip", loc)
        self.session_end_button.disabled = not (manage and st.session_open)
        self.session_start_button.description = _t("session_start", loc)
        self.session_start_button.tooltip = _t("session_start_tip", loc)
        self.session_start_button.disabled = not (manage and not st.session_open)

    def _render_session_confirm(self, loc: str) -> None:
        """The confirm step of the step pressed, while it still applies."""
        st = self.session.state
        n = st.session
        step = self._confirming
        if step == "end" and not st.session_open or step == "start" and st.session_open:
            step = self._confirming = None  # the table moved on meanwhile
        if step is None:
            self.session_confirm.layout.display = "none"
            return
        what = "session_confirm_end" if step == "end" else "session_confirm_start"
        self.session_confirm_text.value = (
            f'<p class="tt-msg tt-info" role="alert">{esc(_t(what, loc, n=n if step == "end" else n + 1))}</p>'
        )
        self.session_yes.description = _t("session_yes_end" if step == "end" else "session_yes_start", loc)
        self.session_no.description = _t("session_cancel", loc)
        self.session_confirm.layout.display = None

    def _render_session_list(self, loc: str) -> None:
        """Every session of the campaign, the latest first, with its verification."""
        from tabletop_widgets.table import session_reports

        if self._session_reports is None:
            try:
                self._session_reports = session_reports(self.session.store, self.session.table_id)
            except Exception:  # the list must not take the page down
                log.exception("session reports failed")
                self._session_reports = []
        rows = []
        for r in self._session_reports:
            when = _when(r.started, loc) + (f" – {_when(r.ended, loc)}" if r.ended else "")
            if r.ok is None:
                verdict, cls = _t("session_running", loc), "tt-session-open"
            elif r.ok:
                verdict, cls = "✓ " + _t("session_verified", loc), "tt-session-ok"
            else:
                verdict, cls = "✗ " + _t("session_failed", loc, why="; ".join(r.problems[:2])), "tt-session-bad"
            rows.append(
                f'<tr class="{cls}" data-session="{r.n}"><td>{esc(_t("session_label", loc, n=r.n))}</td>'
                f"<td>{esc(when)}</td><td>{'' if r.rolls is None else r.rolls}</td>"
                f'<td><code class="tt-hash">{esc(r.commitment)}</code></td><td>{esc(verdict)}</td></tr>'
            )
        head = "".join(f"<th>{esc(_t(k, loc))}</th>" for k in SESSION_COLUMNS)
        self.session_list.value = (
            f"<h3>{esc(_t('sessions_past', loc))}</h3><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(reversed(rows))}</tbody></table>"
        )


def _when(stamp: Any, loc: str) -> str:
    """A session's start or end as a date and time (UTC), or nothing when not known."""
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool) or stamp <= 0:
        return ""
    when = datetime.datetime.fromtimestamp(stamp, tz=datetime.timezone.utc)
    if loc == "ru":
        return when.strftime("%d.%m.%Y %H:%M") + " по Гринвичу"
    return when.strftime("%Y-%m-%d %H:%M") + " UTC"


__all__ = ["SESSIONS_PARTS", "SessionsTab"]
