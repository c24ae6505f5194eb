"""Lobby: create a shared table (system, characters, seats) and get one link per seat.

``Lobby(store, base=...)`` shows a form: the table's title and game system, a row per player
seat (the player's name and their character's name; sample characters are built with the
system's own ``Character`` class from what its sheet declares), how many observers, and a
*Create table* button. The result is one link per seat (GM, each player, each observer):
``<base>?table=<id>&seat=<token>``. Tokens exist only in these links (the store keeps hashes),
so the links are shown once, to copy: a copy button per link and *Copy all as a message* (the
players' links and the dice commitment as one chat message in the GM's language, without the
GM's own link; :func:`tabletop_widgets.table.invite.invite_message`). Copying is the browser's
(:class:`~tabletop_widgets.widgets.copy.CopyButton`): the clipboard API, or a selected text
field where the browser refuses it.

A seat row may take a saved character (what a sheet's Save produced): the file is read for the
chosen game; a bad file, or one made for another game, says why and the table is not created
while it is attached (the rows: :class:`~.lobby_seats.SeatRows`).

Creating a table asks for the server's lobby key (class ``tt-lobby-key``; see
:mod:`tabletop_widgets.table.lobbykey`): checked in Python, wrong keys rate-limited in the store,
and the seat count and names bounded by ``create_table`` whatever the widgets send.

The lobby is also the GM's campaign list (:class:`~.lobby_campaigns.CampaignList`, issue 18): with the same key,
*Show my campaigns* lists the store's campaigns; for the one picked, its sessions with their
verification and its players, and the GM's steps between game nights: open tonight's session,
a new GM link, add a player (a new seat and its link, shown once), retire a player. Each step is
the table layer's (:mod:`tabletop_widgets.table.campaign`) and checks, in Python, that this page
was unlocked with the key.
"""

from __future__ import annotations

import html
import os
from typing import Any, Callable

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.registry import available_systems, get_system, system_title
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import (
    CharacterFileError,
    LobbyKeyError,
    StoreError,
    check_lobby_key,
    invite_message,
    lobby_mode,
)

from .base import locale_toggle, text_lookup
from .copy import CopyButton
from .lobby_campaigns import CampaignList
from .lobby_seats import MAX_PLAYERS, SAMPLE_NAMES, SAMPLE_NAMES_RU, SeatRows, sample_character
from .table_texts import gm_words

MAX_OBSERVERS = 4

TEXTS: dict[str, dict[str, str]] = {
    "title": T("New table", "Новый стол"),
    "intro": T(
        "Pick the game, name the players and their characters, then send each seat its link.",
        "Выберите игру, назовите игроков и их персонажей, затем отправьте каждому месту его ссылку.",
    ),
    "table_title": T("Table name", "Название стола"),
    "system": T("Game system", "Система"),
    "players": T("Players", "Игроков"),
    "observers": T("Observers", "Зрителей"),
    "gm_name": T("{gm_title}'s name", "Имя {gm_gen}"),
    "create": T("Create table", "Создать стол"),
    "create_tip": T("Create the table and show the seat links", "Создать стол и показать ссылки мест"),
    "links": T("Seat links (shown once: copy them now)", "Ссылки мест (показаны один раз: скопируйте их)"),
    "link_gm": T("{gm_title}", "{gm_title}"),
    "link_player": T("{name} (plays {character})", "{name} (персонаж: {character})"),
    "link_observer": T("Observer {n}", "Зритель {n}"),
    "commitment": T("Dice commitment", "Печать кубиков"),
    "commitment_help": T(
        "The fingerprint (SHA-256) of the secret dice key of this campaign's first session, fixed "
        "before anyone rolls. Keep a copy: when the {gm} ends the session the key is shown, and with "
        "this fingerprint any player can check that nobody changed the rolls.",
        "Отпечаток (SHA-256) секретного ключа кубиков первой сессии этой кампании, сделанный до "
        "первого броска. Сохраните его: когда {gm} закончит сессию, ключ откроется. По этому "
        "отпечатку любой игрок проверит, что броски никто не подменял.",
    ),
    "copy": T("Copy: {who}", "Копировать: {who}"),
    "copy_tip": T("Copy the link of {who}", "Скопировать ссылку: {who}"),
    "copy_all": T("Copy all as a message", "Скопировать всё сообщением"),
    "copy_all_tip": T(
        "One message with each player's name and link and the dice commitment (your own link is "
        "not in it). Paste it only where no one but your players reads it; else copy each link "
        "and send it privately",
        "Одно сообщение: имя и ссылка каждого игрока и печать кубиков (вашей ссылки в нём нет). "
        "Вставляйте его только туда, где его читают лишь ваши игроки; иначе копируйте ссылки по "
        "одной и отправляйте каждому лично",
    ),
    "copied": T("Copied", "Скопировано"),
    "select_hint": T(
        "The browser did not allow copying: the text is selected, press Ctrl+C (⌘C on a Mac)",
        "Браузер не дал скопировать: текст выделен, нажмите Ctrl+C (⌘C на Mac)",
    ),
    "seat_file_bad": T("{player}: {why}", "{player}: {why}"),
    "need_names": T("Every player and character needs a name.", "У каждого игрока и персонажа должно быть имя."),
    "failed": T("The table was not created: {why}", "Стол не создан: {why}"),
    "locale_tip": T("Language", "Язык"),
    "default_title": T("Friday game", "Игра в пятницу"),
    "lobby_key": T("Lobby key", "Ключ лобби"),
    "lobby_key_tip": T(
        "The key whoever runs the server got when starting it", "Ключ, который получил тот, кто запустил сервер"
    ),
    "bounds": T(
        "A table from the lobby has 1 to {players} players and at most {observers} observers.",
        "У стола из лобби от 1 до {players} игроков и не больше {observers} зрителей.",
    ),
    "no_key_mode": T(
        "This server's lobby runs without a key: anyone who reaches it can create tables.",
        "Лобби этого сервера работает без ключа: столы может создавать любой, кто до него дошёл.",
    ),
}


_t = text_lookup(TEXTS)


_CSS = stylesheet("lobby")  # tabletop_widgets/front/lobby.css


def default_base() -> str:
    """The table page's URL next to this page (from Voila's request), or a relative one."""
    url = os.environ.get("VOILA_REQUEST_URL") or ""
    if url:
        url = url.split("?", 1)[0]
        head, _, _ = url.rpartition("/")
        return f"{head}/table.ipynb"
    return "table.ipynb"


class Lobby(SeatRows, widgets.VBox):
    """The table creation form (class ``tt-lobby``). ``create()`` makes the table in ``store``
    and shows the links; ``created`` holds the :class:`CreatedTable`."""

    locale = t.Unicode("en", help="Language of the lobby: 'en' or 'ru'")

    def __init__(
        self,
        store=None,
        *,
        base: str | None = None,
        locale: str = "en",
        can: Callable[[str], bool] | None = None,
        **kwargs: Any,
    ):
        self._store = store
        self.base = default_base() if base is None else base
        self.can = can or (lambda action: True)
        self.created = None
        self._error: dict[str, str] | None = None
        header = self._build_header(locale)
        grid = self._build_form(locale)
        self.build_seat_rows()
        self._build_results()
        super().__init__(
            [
                self.style_block,
                header,
                grid,
                self.seats_box,
                self.key,
                self.key_note,
                self.create_button,
                self.error,
                self.links,
                self.copy_box,
            ],
            **kwargs,
        )
        self.campaign_list = CampaignList(self)
        self.children = [*self.children, self.campaign_list]
        self.add_class("tt-lobby")
        self.locale = locale
        self.sync_rows()
        self.players.observe(lambda _c: self.sync_rows(), names="value")
        self.system.observe(self._on_system, names="value")
        self.create_button.on_click(lambda _b: self.create())
        self.locale_toggle.observe(lambda ch: setattr(self, "locale", ch["new"]), names="value")
        self._read_key_mode()
        self._render()

    # -- building -------------------------------------------------------------------------------
    def _build_header(self, locale: str) -> widgets.HBox:
        """The style, the title and the language switch; returns the header."""
        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-lobby-title")
        self.locale_toggle = locale_toggle(locale)
        header = widgets.HBox([self.title, self.locale_toggle])
        header.add_class("tt-lobby-header")
        return header

    def _build_form(self, locale: str) -> widgets.GridBox:
        """The table's name and game, the GM's name, how many players and observers."""
        style = {"description_width": "initial"}
        self.table_title = widgets.Text(value=_t("default_title", locale), style=style)
        self.table_title.add_class("tt-lobby-table-title")
        systems = available_systems()
        self.system = widgets.Dropdown(
            options=[(tr(system_title(s), locale), s) for s in systems],
            value="ret" if "ret" in systems else systems[0],
            style=style,
        )
        self.system.add_class("tt-lobby-system")
        self.gm_name = widgets.Text(value=self._default_gm(locale), style=style)
        self.gm_name.add_class("tt-lobby-gm-name")
        self.players = widgets.BoundedIntText(value=2, min=1, max=MAX_PLAYERS, style=style)
        self.players.add_class("tt-lobby-players")
        self.observers = widgets.BoundedIntText(value=0, min=0, max=MAX_OBSERVERS, style=style)
        self.observers.add_class("tt-lobby-observers")
        grid = widgets.GridBox(
            [self.table_title, self.system, self.gm_name, self.players, self.observers],
            layout=widgets.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))"),
        )
        grid.add_class("tt-lobby-grid")
        return grid

    def _build_results(self) -> None:
        """The lobby key, *Create table*, the error line, and the links with their copy
        buttons (shown once the table is made)."""
        self.create_button = widgets.Button(button_style="primary")
        self.create_button.add_class("tt-lobby-create")
        self.key = widgets.Password(style={"description_width": "initial"})
        self.key.add_class("tt-lobby-key")
        self.key_note = widgets.HTML()
        self.key_note.add_class("tt-lobby-key-note")
        self.error = widgets.HTML()
        self.error.add_class("tt-lobby-error")
        self.links = widgets.HTML()
        self.links.add_class("tt-lobby-links")
        self.copy_all = CopyButton()
        self.copy_all.add_class("tt-copy-all")
        self.copy_buttons: dict[str, CopyButton] = {}
        self._made_labels: dict[str, tuple[str, str]] = {}
        self.copy_box = widgets.HBox(layout=widgets.Layout(display="none"))
        self.copy_box.add_class("tt-lobby-copy")

    def _read_key_mode(self) -> None:
        """Whether this server's lobby asks for a key (the key field hidden when it does not)."""
        try:
            self.key_mode = lobby_mode(self.store)
        except StoreError as exc:
            self.key_mode = "unset"
            self._error = getattr(exc, "message", None) or {loc: str(exc) for loc in LOCALES}
        self.key.layout.display = "none" if self.key_mode == "open" else None

    @property
    def store(self):
        if self._store is None:
            from tabletop_widgets.table import open_store

            self._store = open_store()
        return self._store

    # -- actions --------------------------------------------------------------------------------
    def create(self):
        """Create the table from the form; returns the CreatedTable or None (the reason shown)."""
        from tabletop_widgets.table import SeatSpec, create_table

        if not self.can("create"):
            self._error = {"en": "not allowed", "ru": "нельзя"}
            return self._render()
        try:
            # first: nothing of the form is looked at for someone without the key
            check_lobby_key(self.store, self.key.value)
        except LobbyKeyError as exc:
            self._error = exc.message
            self.key.value = ""
            return self._render()
        except StoreError as exc:
            self._error = getattr(exc, "message", None) or {loc: str(exc) for loc in LOCALES}
            return self._render()
        if not (1 <= int(self.players.value) <= MAX_PLAYERS and 0 <= int(self.observers.value) <= MAX_OBSERVERS):
            self._error = {loc: _t("bounds", loc, players=MAX_PLAYERS, observers=MAX_OBSERVERS) for loc in LOCALES}
            return self._render()
        rows = [(p.value.strip(), c.value.strip()) for p, c in self.seat_rows]
        if any(not p or not c for p, c in rows):
            self._error = TEXTS["need_names"]
            return self._render()
        system = get_system(self.system.value)
        seats = [SeatSpec("gm", "gm", self.gm_name.value.strip() or self._default_gm(self.locale))]
        characters = {}
        for i, (player, character) in enumerate(rows, 1):
            cid = f"c{i}"
            try:
                characters[cid] = self.seat_character(system, i - 1, character)
            except CharacterFileError as exc:
                # the file was read for another game, or is bad: nothing is created
                self._error = {loc: _t("seat_file_bad", loc, player=player, why=exc.text(loc)) for loc in LOCALES}
                return self._render()
            seats.append(SeatSpec(f"p{i}", "player", player, cid))
        for i in range(1, int(self.observers.value) + 1):
            seats.append(SeatSpec(f"o{i}", "observer", _t("link_observer", self.locale, n=i)))
        try:
            self.created = create_table(
                self.store, system.slug, seats, title=self.table_title.value.strip(), characters=characters
            )
        except (ValueError, OSError, StoreError) as exc:
            why = getattr(exc, "message", None) or {}
            self._error = {loc: _t("failed", loc, why=why.get(loc) or str(exc)) for loc in LOCALES}
            return self._render()
        self.key.value = ""  # the key does not stay in the page
        self._error = None
        self._made_labels = {
            f"p{i}": (player, str(characters[f"c{i}"].get("name") or character))
            for i, (player, character) in enumerate(rows, 1)
        }
        self._build_copy_buttons()
        self._render()
        return self.created

    def _build_copy_buttons(self) -> None:
        for b in self.copy_buttons.values():
            b.close()
        self.copy_buttons = {}
        for seat in self.created.seats:
            b = CopyButton()
            b.add_class(f"tt-copy-{seat.role}")
            self.copy_buttons[seat.seat] = b
        self.copy_box.children = [*self.copy_buttons.values(), self.copy_all]
        self.copy_box.layout.display = None

    def _seat_label(self, seat, loc: str) -> str:
        if seat.role == "gm":
            return _t("link_gm", loc, **self.words(loc))
        if seat.role == "player":
            player, character = self._made_labels.get(seat.seat, (seat.name, seat.character_id or ""))
            return _t("link_player", loc, name=player, character=character)
        return _t("link_observer", loc, n=seat.seat[1:])

    def _render_copy(self, loc: str) -> None:
        made = self.created
        if made is None:
            return
        links = made.links(self.base)
        for seat in made.seats:
            b = self.copy_buttons.get(seat.seat)
            if b is None:
                continue
            who = seat.name if seat.role == "player" else self._seat_label(seat, loc)
            b.text = links[seat.seat]
            b.label = _t("copy", loc, who=who)
            b.tooltip = _t("copy_tip", loc, who=self._seat_label(seat, loc))
            b.copied, b.select_hint = _t("copied", loc), _t("select_hint", loc)
        system = get_system(made.table.system)
        rows = [
            {
                "role": s.role,
                "name": self._made_labels.get(s.seat, (s.name, ""))[0] or s.name,
                "character": self._made_labels.get(s.seat, ("", ""))[1],
                "link": links[s.seat],
            }
            for s in made.seats
        ]
        self.copy_all.text = invite_message(system, made.table.title, rows, made.seed_hash, loc)
        self.copy_all.label = _t("copy_all", loc)
        self.copy_all.tooltip = _t("copy_all_tip", loc)
        self.copy_all.copied, self.copy_all.select_hint = _t("copied", loc), _t("select_hint", loc)

    # -- drawing --------------------------------------------------------------------------------
    # -- the words of the chosen game, and the sample values in the lobby's language -------------
    def words(self, loc: str) -> dict[str, str]:
        """The chosen game's words for the GM (RET «мастер», Seasons «Рассказчик»)."""
        try:
            system = get_system(self.system.value)
        except KeyError:
            system = None
        return gm_words(system, loc)

    def _default_gm(self, loc: str) -> str:
        system = getattr(self, "system", None)
        try:
            return term_of(get_system(system.value) if system is not None else None, "gm_title", loc)
        except KeyError:
            return term_of(None, "gm_title", loc)

    def _sample_defaults(self) -> None:
        """Fields still holding a sample value take the sample of the lobby's language and game
        (what someone typed stays as it is). Once a table is made, its links shown, the form
        keeps the values it was made with, in any language (its links are out with those names)."""
        if self.created is not None:
            return
        loc = self.locale
        gms = {term_of(get_system(s), "gm_title", x) for s in available_systems() for x in LOCALES} | {"GM"}
        if self.gm_name.value in gms:
            self.gm_name.value = self._default_gm(loc)
        self.sample_row_defaults(loc)
        if self.table_title.value in {_t("default_title", x) for x in LOCALES}:
            self.table_title.value = _t("default_title", loc)

    def _on_system(self, _change) -> None:
        if hasattr(self, "links"):
            self._sample_defaults()
            self.recheck_files()
            self._render()

    @t.observe("locale")
    def _on_locale(self, change) -> None:
        if change["new"] not in LOCALES:
            self.locale = change["old"]
            return
        if hasattr(self, "links"):
            if self.locale_toggle.value != change["new"]:
                self.locale_toggle.value = change["new"]
            self._sample_defaults()
            self._render()

    def _render(self) -> None:
        loc = self.locale
        words = self.words(loc)
        self.title.value = f"<h2>{html.escape(_t('title', loc))}</h2><p>{html.escape(_t('intro', loc))}</p>"
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        for w, key in (
            (self.table_title, "table_title"),
            (self.system, "system"),
            (self.gm_name, "gm_name"),
            (self.players, "players"),
            (self.observers, "observers"),
        ):
            w.description = _t(key, loc, **words)
            w.tooltip = _t(key, loc, **words)
        value = self.system.value
        self.system.options = [(tr(system_title(s), loc), s) for s in available_systems()]
        self.system.value = value
        self.label_rows()
        self.key.description = _t("lobby_key", loc)
        self.key.tooltip = _t("lobby_key_tip", loc)
        self.key_note.value = (
            f"<p>{html.escape(_t('no_key_mode', loc))}</p>" if getattr(self, "key_mode", None) == "open" else ""
        )
        self.create_button.description = _t("create", loc)
        self.create_button.tooltip = _t("create_tip", loc)
        self.error.value = f'<div role="alert">{html.escape(tr(self._error, loc))}</div>' if self._error else ""
        self.links.value = self._links_html(loc) if self.created else ""
        self.render_files()
        self._render_copy(loc)
        if hasattr(self, "campaign_list"):
            self.campaign_list.render()

    def _links_html(self, loc: str) -> str:
        made = self.created
        links = made.links(self.base)
        rows = []
        for seat in made.seats:
            label = self._seat_label(seat, loc)
            url = links[seat.seat]
            rows.append(
                f'<tr class="tt-link-{html.escape(seat.role)}"><td>{html.escape(label)}</td>'
                f'<td><a href="{html.escape(url)}" target="_blank" rel="noopener" '
                f'data-seat="{html.escape(seat.seat)}">{html.escape(url)}</a></td></tr>'
            )
        return (
            f"<h3>{html.escape(_t('links', loc))}</h3><table>{''.join(rows)}</table>"
            f'<p class="tt-commit">{html.escape(_t("commitment", loc))}: {html.escape(made.seed_hash)}</p>'
            f'<p class="tt-hint-text">{html.escape(_t("commitment_help", loc, **self.words(loc)))}</p>'
        )


def show_lobby(store=None, locale: str = "en", **kwargs: Any) -> Lobby:
    return Lobby(store, locale=locale, **kwargs)


__all__ = [
    "MAX_OBSERVERS",
    "MAX_PLAYERS",
    "SAMPLE_NAMES",
    "SAMPLE_NAMES_RU",
    "CampaignList",
    "Lobby",
    "sample_character",
    "show_lobby",
    "default_base",
]
