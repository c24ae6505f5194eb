"""The GM's campaign list in the lobby (:class:`CampaignList`, issue 18).

With the lobby key, *Show my campaigns* lists the store's campaigns; for the one picked, its
sessions with their verification and its players, and the GM's steps between game nights: open
tonight's session, a new GM link, add a player (a new seat and its link, shown once), retire a
player. Each step is the table layer's (:mod:`tabletop_widgets.table.campaign`) and checks, in
Python, that this page was unlocked with the key, and that the key is still the store's (rotated
since, the page locks itself and says so: :func:`~tabletop_widgets.table.lobbykey.require_same_key`).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.registry import get_system
from tabletop_widgets.table import EventError, LobbyKeyError, StoreError, check_lobby_key, require_same_key

from .base import text_lookup

if TYPE_CHECKING:
    from .lobby import Lobby

#: Every user-facing string of the campaign list, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "campaigns": T("Your campaigns", "Ваши кампании"),
    "campaigns_help": T(
        "Type the lobby key above, then show the campaigns of this server: tonight's session, "
        "past sessions with their verification, players to add or retire.",
        "Введите ключ лобби выше и откройте кампании этого сервера: сегодняшнюю сессию, прошлые "
        "сессии с проверкой, игроков — добавить или убрать.",
    ),
    "campaigns_show": T("Show my campaigns", "Показать мои кампании"),
    "campaigns_none": T("No campaigns on this server yet.", "На этом сервере пока нет кампаний."),
    "campaign_pick": T("Campaign", "Кампания"),
    "campaign_option": T("{title} — {system} — session {n} ({state})", "{title} — {system} — сессия {n} ({state})"),
    "campaign_open_tonight": T("Open tonight's session", "Открыть сегодняшнюю сессию"),
    "campaign_open_tonight_tip": T(
        "Starts the next session (a fresh dice key, its commitment shown to every seat); the "
        "same links open the same characters",
        "Начинает следующую сессию (новый ключ кубиков, его печать видят все места); те же "
        "ссылки открывают тех же персонажей",
    ),
    "campaign_gm_link": T("New {gm} link", "Новая ссылка {gm_gen}"),
    "campaign_gm_link_tip": T(
        "A new link to your own seat (the old one stops working)",
        "Новая ссылка на ваше место (старая перестанет работать)",
    ),
    "campaign_add": T("Add player", "Добавить игрока"),
    "campaign_player_name": T("New player", "Новый игрок"),
    "campaign_retire_pick": T("Player", "Игрок"),
    "campaign_retire": T("Retire player", "Убрать игрока"),
    "campaign_retire_tip": T(
        "Their link stops working at once; their character stays with the campaign",
        "Их ссылка сразу перестаёт работать; персонаж остаётся в кампании",
    ),
    "campaign_started": T("Session {n} is open.", "Сессия {n} открыта."),
    "campaign_already_open": T(
        "Session {n} is already open: open your page with your link.",
        "Сессия {n} уже идёт: откройте свою страницу по своей ссылке.",
    ),
    "campaign_new_link": T(
        "Link for {who} (shown once: copy it now and send it privately):",
        "{who} — ссылка места (показана один раз: скопируйте её сейчас и отправьте лично):",
    ),
    "campaign_retired": T(
        "{who} left the campaign: their link no longer works.", "{who} покинул(а) кампанию: ссылка больше не работает."
    ),
    "campaign_sessions": T("Sessions", "Сессии"),
    "campaign_players": T("Players", "Игроки"),
    "campaign_retired_mark": T("retired", "ушёл(а)"),
    "session_row": T("Session {n}", "Сессия {n}"),
    "session_ok": T("✓ verified", "✓ проверена"),
    "session_bad": T("✗ verification FAILED: {why}", "✗ проверка НЕ ПРОШЛА: {why}"),
    "session_now": T("open now", "идёт сейчас"),
    "session_rolls": T("rolls: {n}", "бросков: {n}"),
    "state_open": T("open", "идёт"),
    "state_ended": T("ended", "окончена"),
    "state_closed": T("closed", "закрыта"),
    "not_unlocked": T("Show the campaigns with the lobby key first.", "Сначала откройте кампании ключом лобби."),
}

_t = text_lookup(TEXTS)


class CampaignList(widgets.VBox):
    """The GM's campaigns in the lobby (class ``tt-lobby-campaigns``): unlocked with the lobby
    key, then each step acts on the campaign picked. Views only: the steps are
    :mod:`tabletop_widgets.table.campaign`'s, and each one checks here that the page was
    unlocked (a forged click before that does nothing)."""

    def __init__(self, lobby: Lobby, **kwargs: Any):
        self.lobby = lobby
        self.unlocked = False
        self._stamp = ""  # the lobby key this page was unlocked with (its stamp)
        self._locked_why: Mapping[str, str] | None = None  # why the page locked itself
        self._campaigns: list = []
        self._reports: dict[str, list] = {}
        self._message: tuple[str, dict[str, str]] | None = None
        self._new_link: tuple[str, str] | None = None
        style = {"description_width": "initial"}
        self.head = widgets.HTML()
        self.show_button = widgets.Button(button_style="info")
        self.show_button.add_class("tt-campaigns-show")
        self.show_button.on_click(lambda _b: self.unlock())
        self.pick = widgets.Dropdown(options=[], style=style, layout=widgets.Layout(width="100%"))
        self.pick.add_class("tt-campaign-pick")
        self.pick.observe(lambda _c: self.render(), names="value")
        self.detail = widgets.HTML()
        self.detail.add_class("tt-campaign-detail")
        self.start_button = widgets.Button(button_style="success", layout=widgets.Layout(width="auto"))
        self.start_button.add_class("tt-campaign-start")
        self.start_button.on_click(lambda _b: self.open_tonight())
        self.gm_link_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.gm_link_button.add_class("tt-campaign-gm-link")
        self.gm_link_button.on_click(lambda _b: self.new_gm_link())
        self.player_name = widgets.Text(style=style)
        self.player_name.add_class("tt-campaign-player-name")
        self.add_button = widgets.Button(layout=widgets.Layout(width="auto"))
        self.add_button.add_class("tt-campaign-add")
        self.add_button.on_click(lambda _b: self.add_player())
        self.retire_pick = widgets.Dropdown(options=[], style=style)
        self.retire_pick.add_class("tt-campaign-retire-pick")
        self.retire_button = widgets.Button(button_style="danger", layout=widgets.Layout(width="auto"))
        self.retire_button.add_class("tt-campaign-retire")
        self.retire_button.on_click(lambda _b: self.retire())
        self.message = widgets.HTML()
        self.message.add_class("tt-campaign-message")
        self.tools = widgets.VBox(
            [
                self.pick,
                self.detail,
                widgets.HBox([self.start_button, self.gm_link_button]),
                widgets.HBox([self.player_name, self.add_button]),
                widgets.HBox([self.retire_pick, self.retire_button]),
            ],
            layout=widgets.Layout(display="none"),
        )
        super().__init__([self.head, self.show_button, self.message, self.tools], **kwargs)
        self.add_class("tt-lobby-campaigns")
        self.render()

    # -- steps ----------------------------------------------------------------------------------
    def unlock(self) -> bool:
        """The lobby key (the lobby's key field) opens the list; wrong keys are counted."""
        lobby = self.lobby
        try:
            self._stamp = check_lobby_key(lobby.store, lobby.key.value)
        except LobbyKeyError as exc:
            lobby.key.value = ""
            return self._say("error", exc.message)
        except StoreError as exc:
            return self._say("error", getattr(exc, "message", None) or {loc: str(exc) for loc in LOCALES})
        lobby.key.value = ""  # the key does not stay in the page
        self.unlocked, self._locked_why = True, None
        self._message = None
        self.reload()
        return True

    def still_unlocked(self) -> bool:
        """Whether this page was unlocked and the lobby key it was unlocked with is still the
        store's; when it was rotated since, the page locks itself and says so."""
        if not self.unlocked:
            return False
        try:
            require_same_key(self.lobby.store, self._stamp)
        except LobbyKeyError as exc:
            self.unlocked, self._stamp, self._locked_why = False, "", exc.message
            self._campaigns, self._reports, self._new_link = [], {}, None
            self.pick.options, self.retire_pick.options, self.detail.value = [], [], ""  # nothing stays shown
            self._say("error", exc.message)
            return False
        except StoreError as exc:
            self._say("error", getattr(exc, "message", None) or {loc: str(exc) for loc in LOCALES})
            return False
        return True

    def reload(self) -> None:
        from tabletop_widgets.table import campaigns

        if not self.still_unlocked():
            return
        keep = self.pick.value
        self._campaigns = campaigns(self.lobby.store)
        self._reports = {}
        ids = [c.table_id for c in self._campaigns]
        self.render(pick=keep if keep in ids else (ids[0] if ids else None))

    def _chosen(self):
        if not self.unlocked:
            self._say("error", self._locked_why or TEXTS["not_unlocked"])
            return None
        if not self.still_unlocked():
            return None
        tid = self.pick.value
        return next((c for c in self._campaigns if c.table_id == tid), None)

    def open_tonight(self):
        """Start the next session of the campaign picked (when its last one ended)."""
        from tabletop_widgets.table import start_next_session
        from tabletop_widgets.table import PlayError

        c = self._chosen()
        if c is None:
            return None
        if c.current.is_open:
            return self._say("info", {loc: _t("campaign_already_open", loc, n=c.current.n) for loc in LOCALES})
        try:
            info = start_next_session(self.lobby.store, c.table_id)
        except (PlayError, StoreError, PermissionError) as exc:
            return self._refused(exc)
        self.reload()
        self._say("info", {loc: _t("campaign_started", loc, n=info.n) for loc in LOCALES})
        return info

    def new_gm_link(self) -> str | None:
        from tabletop_widgets.table import reissue_gm_link
        from tabletop_widgets.table import link

        c = self._chosen()
        if c is None:
            return None
        try:
            url = link(c.table_id, reissue_gm_link(self.lobby.store, c.table_id), self.lobby.base)
        except (EventError, StoreError, PermissionError, ValueError) as exc:
            return self._refused(exc)
        gm = next((s["name"] for s in c.seats if s["role"] == "gm"), "") or _t(
            "link_gm", self.lobby.locale, **self.lobby.words(self.lobby.locale)
        )
        self._new_link = (gm, url)
        self._message = None
        self.render()
        return url

    def add_player(self, name: str | None = None) -> str | None:
        from tabletop_widgets.table import add_player
        from tabletop_widgets.table import link

        c = self._chosen()
        if c is None:
            return None
        name = self.player_name.value if name is None else name
        try:
            _seat, token = add_player(self.lobby.store, c.table_id, name)
        except (EventError, StoreError, PermissionError, ValueError) as exc:
            return self._refused(exc)
        url = link(c.table_id, token, self.lobby.base)
        self.player_name.value = ""
        self._new_link = (name.strip(), url)
        self._message = None
        self.reload()
        return url

    def retire(self, seat: str | None = None) -> bool:
        from tabletop_widgets.table import retire_seat

        c = self._chosen()
        if c is None:
            return False
        seat = self.retire_pick.value if seat is None else seat
        who = next((s["name"] for s in c.seats if s["seat"] == seat), seat)
        try:
            retire_seat(self.lobby.store, c.table_id, seat)
        except (EventError, StoreError, PermissionError, ValueError) as exc:
            self._refused(exc)
            return False
        self._new_link = None
        self.reload()
        self._say("info", {loc: _t("campaign_retired", loc, who=who) for loc in LOCALES})
        return True

    # -- drawing --------------------------------------------------------------------------------
    def _say(self, kind: str, text: Mapping[str, str] | None):
        self._message = (kind, dict(text)) if text else None
        self.render()
        return None

    def _refused(self, exc: BaseException):
        message = getattr(exc, "message", None)
        if not isinstance(message, Mapping) or not message.get("en"):
            message = {loc: str(exc) for loc in LOCALES}
        return self._say("error", {loc: tr(message, loc) for loc in LOCALES})

    def render(self, pick: str | None = None) -> None:
        loc = self.lobby.locale
        words = self.lobby.words(loc)
        self.head.value = (
            f"<h3>{html.escape(_t('campaigns', loc))}</h3>"
            f'<p class="tt-hint-text">{html.escape(_t("campaigns_help", loc))}</p>'
        )
        self.show_button.description = _t("campaigns_show", loc)
        if self._message is not None:
            kind, text = self._message
            role = "alert" if kind == "error" else "status"
            cls = "tt-bad" if kind == "error" else "tt-ok"
            self.message.value = f'<p class="{cls}" role="{role}">{html.escape(tr(text, loc))}</p>'
        else:
            self.message.value = ""
        if not self.unlocked:
            self.tools.layout.display = "none"
            return
        self.tools.layout.display = None
        options = []
        for c in self._campaigns:
            state = "state_closed" if c.closed else ("state_open" if c.current.is_open else "state_ended")
            title = c.title or c.table_id
            try:
                system = tr(get_system(c.system).title, loc)
            except KeyError:
                system = c.system
            options.append(
                (
                    _t("campaign_option", loc, title=title, system=system, n=c.current.n, state=_t(state, loc)),
                    c.table_id,
                )
            )
        value = pick if pick is not None else self.pick.value
        if self.pick.options != tuple(options):
            self.pick.options = options
        if options:
            self.pick.value = value if value in [v for _k, v in options] else options[0][1]
        self.pick.description = _t("campaign_pick", loc)
        c = next((x for x in self._campaigns if x.table_id == self.pick.value), None)
        self.start_button.description = _t("campaign_open_tonight", loc)
        self.start_button.tooltip = _t("campaign_open_tonight_tip", loc)
        self.gm_link_button.description = _t("campaign_gm_link", loc, **words)
        self.gm_link_button.tooltip = _t("campaign_gm_link_tip", loc)
        self.player_name.description = _t("campaign_player_name", loc)
        self.add_button.description = _t("campaign_add", loc)
        self.retire_pick.description = _t("campaign_retire_pick", loc)
        self.retire_button.description = _t("campaign_retire", loc)
        self.retire_button.tooltip = _t("campaign_retire_tip", loc)
        if c is None:
            self.detail.value = f"<p>{html.escape(_t('campaigns_none', loc))}</p>"
            for b in (self.start_button, self.gm_link_button, self.add_button, self.retire_button):
                b.disabled = True
            return
        for b in (self.gm_link_button, self.add_button, self.retire_button):
            b.disabled = c.closed
        self.start_button.disabled = c.closed or c.current.is_open
        active = [(p["name"] or p["seat"], p["seat"]) for p in c.players if not p["retired"]]
        chosen = self.retire_pick.value
        self.retire_pick.options = active
        seats = [v for _k, v in active]
        self.retire_pick.value = chosen if chosen in seats else (seats[0] if seats else None)
        self.retire_button.disabled = c.closed or not active
        self.detail.value = self._detail_html(c, loc)

    def _detail_html(self, c, loc: str) -> str:
        from tabletop_widgets.table import session_reports

        if c.table_id not in self._reports:
            self._reports[c.table_id] = session_reports(self.lobby.store, c.table_id)
        rows = []
        for r in reversed(self._reports[c.table_id]):
            if r.ok is None:
                verdict, cls = _t("session_now", loc), "tt-session-open"
            elif r.ok:
                verdict, cls = _t("session_ok", loc), "tt-session-ok"
            else:
                verdict, cls = _t("session_bad", loc, why="; ".join(r.problems[:2])), "tt-session-bad"
            rolls = "" if r.rolls is None else _t("session_rolls", loc, n=r.rolls)
            rows.append(
                f'<tr class="{cls}" data-session="{r.n}"><td style="padding:2px 12px 2px 0">'
                f'{html.escape(_t("session_row", loc, n=r.n))}</td><td style="padding:2px 12px 2px 0">'
                f'{html.escape(rolls)}</td><td style="padding:2px 12px 2px 0"><code title="{html.escape(r.commitment)}">'
                f"{html.escape(r.commitment[:16])}…</code></td><td>{html.escape(verdict)}</td></tr>"
            )
        players = "".join(
            f'<li class="{"tt-retired" if p["retired"] else ""}">{html.escape(p["name"] or p["seat"])}'
            + (f" ({html.escape(_t('campaign_retired_mark', loc))})" if p["retired"] else "")
            + "</li>"
            for p in c.players
        )
        link = ""
        if self._new_link is not None:
            who, url = self._new_link
            link = (
                f'<p class="tt-campaign-new-link">{html.escape(_t("campaign_new_link", loc, who=who))}<br>'
                f'<a href="{html.escape(url)}" target="_blank" rel="noopener">{html.escape(url)}</a></p>'
            )
        return (
            f"{link}<h4>{html.escape(_t('campaign_sessions', loc))}</h4>"
            f'<table class="tt-campaign-sessions">{"".join(rows)}</table>'
            f"<h4>{html.escape(_t('campaign_players', loc))}</h4><ul>{players}</ul>"
        )
