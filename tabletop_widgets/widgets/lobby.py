"""Lobby: create a shared table (system, characters, seats) and get one link per seat.

``Lobby(store, base=...)`` shows a form: the table's title and game system, a row per player
seat (the player's name and their character's name; sample characters are built with the
system's own ``Character`` class from what its sheet declares), how many observers, and a
*Create table* button. The result is one link per seat (GM, each player, each observer):
``<base>?table=<id>&seat=<token>``. Tokens exist only in these links (the store keeps hashes),
so the links are shown once, to copy.

Creating a table asks for the server's lobby key (class ``tt-lobby-key``; see
:mod:`tabletop_widgets.table.lobbykey`): checked in Python, wrong keys rate-limited in the store,
and the seat count and names bounded by ``create_table`` whatever the widgets send.
"""

from __future__ import annotations

import html
import os
from typing import Any, Callable

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.problems import ValidationError
from tabletop_widgets.core.registry import available_systems, get_system
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table.lobbykey import LobbyKeyError, check_lobby_key, lobby_mode
from tabletop_widgets.table.store import StoreError

MAX_PLAYERS = 8
MAX_OBSERVERS = 4
SAMPLE_NAMES = ["Aria", "Boris", "Chen", "Dana", "Emil", "Fay", "Gleb", "Hana"]

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
    "gm_name": T("GM name", "Имя ведущего"),
    "player_name": T("Player {n}", "Игрок {n}"),
    "character_name": T("Character", "Персонаж"),
    "create": T("Create table", "Создать стол"),
    "create_tip": T("Create the table and show the seat links", "Создать стол и показать ссылки мест"),
    "links": T("Seat links (shown once: copy them now)", "Ссылки мест (показаны один раз: скопируйте их)"),
    "link_gm": T("GM", "Ведущий"),
    "link_player": T("{name} (plays {character})", "{name} (играет за {character})"),
    "link_observer": T("Observer {n}", "Зритель {n}"),
    "commitment": T("Dice commitment (SHA-256 of the secret seed)", "Обязательство кубиков (SHA-256 секретного зерна)"),
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


def _t(key: str, locale: str, **fmt: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**fmt) if fmt else text


_CSS = stylesheet("lobby")  # tabletop_widgets/front/lobby.css


def sample_character(system, name: str = ""):
    """A mid-range character of ``system`` built only from what its sheet declares (inputs on a
    rules' scale, at most 20 wide, at the middle of the range a player may enter), named
    ``name``; no system-specific code."""
    values: dict[str, Any] = {}
    model = system.Character
    defaults = model().to_dict()
    for field in system.sheet.fields():
        if field.kind == "input" and field.min is not None and field.max is not None:
            lo, hi = (
                model.input_range(field.name, defaults) if hasattr(model, "input_range") else (field.min, field.max)
            )
            if lo is not None and hi is not None and hi - lo <= 20:
                values[field.name] = lo + (hi - lo) // 2
    extra = {"name": name} if name and "name" in system.Character.class_trait_names() else {}
    try:
        return system.Character(**extra, **values)
    except (ValidationError, ValueError):
        return system.Character(**extra)


def default_base() -> str:
    """The table page's URL next to this page (from Voila's request), or a relative one."""
    url = os.environ.get("VOILA_REQUEST_URL") or ""
    if url:
        url = url.split("?", 1)[0]
        head, _, _ = url.rpartition("/")
        return f"{head}/table.ipynb"
    return "table.ipynb"


class Lobby(widgets.VBox):
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
        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-lobby-title")
        self.locale_toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")], value=locale, style={"button_width": "44px"}
        )
        self.locale_toggle.add_class("tt-locale")
        header = widgets.HBox([self.title, self.locale_toggle])
        header.add_class("tt-lobby-header")
        style = {"description_width": "initial"}
        self.table_title = widgets.Text(value=_t("default_title", locale), style=style)
        self.table_title.add_class("tt-lobby-table-title")
        systems = available_systems()
        self.system = widgets.Dropdown(
            options=[(tr(get_system(s).title, locale), s) for s in systems],
            value="ret" if "ret" in systems else systems[0],
            style=style,
        )
        self.system.add_class("tt-lobby-system")
        self.gm_name = widgets.Text(value="GM", style=style)
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
        self.seat_rows: list[tuple[widgets.Text, widgets.Text]] = []
        self.seats_box = widgets.VBox()
        self.seats_box.add_class("tt-lobby-seats")
        self.create_button = widgets.Button(button_style="primary")
        self.create_button.add_class("tt-lobby-create")
        self.key = widgets.Password(style=style)
        self.key.add_class("tt-lobby-key")
        self.key_note = widgets.HTML()
        self.key_note.add_class("tt-lobby-key-note")
        self.error = widgets.HTML()
        self.error.add_class("tt-lobby-error")
        self.links = widgets.HTML()
        self.links.add_class("tt-lobby-links")
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
            ],
            **kwargs,
        )
        self.add_class("tt-lobby")
        self.locale = locale
        self._sync_rows()
        self.players.observe(lambda _c: self._sync_rows(), names="value")
        self.create_button.on_click(lambda _b: self.create())
        self.locale_toggle.observe(lambda ch: setattr(self, "locale", ch["new"]), names="value")
        try:
            self.key_mode = lobby_mode(self.store)
        except StoreError as exc:
            self.key_mode = "unset"
            self._error = getattr(exc, "message", None) or {loc: str(exc) for loc in LOCALES}
        self.key.layout.display = "none" if self.key_mode == "open" else None
        self._render()

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
        seats = [SeatSpec("gm", "gm", self.gm_name.value.strip() or "GM")]
        characters = {}
        for i, (player, character) in enumerate(rows, 1):
            cid = f"c{i}"
            characters[cid] = sample_character(system, character).to_dict()
            seats.append(SeatSpec(f"p{i}", "player", player, cid))
        for i in range(1, int(self.observers.value) + 1):
            seats.append(SeatSpec(f"o{i}", "observer", f"Observer {i}"))
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
        self._render()
        return self.created

    # -- drawing --------------------------------------------------------------------------------
    def _sync_rows(self) -> None:
        # a forged message may raise the widget's max: never build more rows than the lobby offers
        n = max(0, min(int(self.players.value), MAX_PLAYERS))
        while len(self.seat_rows) < n:
            i = len(self.seat_rows)
            p = widgets.Text(value=f"Player {i + 1}", style={"description_width": "initial"})
            p.add_class("tt-lobby-player-name")
            c = widgets.Text(value=SAMPLE_NAMES[i % len(SAMPLE_NAMES)], style={"description_width": "initial"})
            c.add_class("tt-lobby-character-name")
            self.seat_rows.append((p, c))
        for p, c in self.seat_rows[n:]:
            p.close()
            c.close()
        del self.seat_rows[n:]
        rows = []
        for p, c in self.seat_rows:
            row = widgets.HBox([p, c])
            row.add_class("tt-lobby-seat")
            rows.append(row)
        self.seats_box.children = rows
        self._label_rows()

    def _label_rows(self) -> None:
        loc = self.locale
        for i, (p, c) in enumerate(self.seat_rows, 1):
            p.description = _t("player_name", loc, n=i)
            p.tooltip = p.description
            c.description = _t("character_name", loc)
            c.tooltip = c.description

    @t.observe("locale")
    def _on_locale(self, change) -> None:
        if change["new"] not in LOCALES:
            self.locale = change["old"]
            return
        if hasattr(self, "links"):
            if self.locale_toggle.value != change["new"]:
                self.locale_toggle.value = change["new"]
            self._render()

    def _render(self) -> None:
        loc = self.locale
        self.title.value = f"<h2>{html.escape(_t('title', loc))}</h2><p>{html.escape(_t('intro', loc))}</p>"
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        for w, key in (
            (self.table_title, "table_title"),
            (self.system, "system"),
            (self.gm_name, "gm_name"),
            (self.players, "players"),
            (self.observers, "observers"),
        ):
            w.description = _t(key, loc)
            w.tooltip = _t(key, loc)
        value = self.system.value
        self.system.options = [(tr(get_system(s).title, loc), s) for s in available_systems()]
        self.system.value = value
        self._label_rows()
        self.key.description = _t("lobby_key", loc)
        self.key.tooltip = _t("lobby_key_tip", loc)
        self.key_note.value = (
            f"<p>{html.escape(_t('no_key_mode', loc))}</p>" if getattr(self, "key_mode", None) == "open" else ""
        )
        self.create_button.description = _t("create", loc)
        self.create_button.tooltip = _t("create_tip", loc)
        self.error.value = f'<div role="alert">{html.escape(tr(self._error, loc))}</div>' if self._error else ""
        self.links.value = self._links_html(loc) if self.created else ""

    def _links_html(self, loc: str) -> str:
        made = self.created
        links = made.links(self.base)
        rows = []
        for seat in made.seats:
            if seat.role == "gm":
                label = _t("link_gm", loc)
            elif seat.role == "player":
                char = next(
                    (n for (p, n) in [(r[0].value, r[1].value) for r in self.seat_rows] if p == seat.name),
                    seat.character_id,
                )
                label = _t("link_player", loc, name=seat.name, character=char)
            else:
                label = _t("link_observer", loc, n=seat.seat[1:])
            url = links[seat.seat]
            rows.append(
                f'<tr class="tt-link-{html.escape(seat.role)}"><td>{html.escape(label)}</td>'
                f'<td><a href="{html.escape(url)}" target="_blank" rel="noopener" '
                f'data-seat="{html.escape(seat.seat)}">{html.escape(url)}</a></td></tr>'
            )
        return (
            f"<h3>{html.escape(_t('links', loc))}</h3><table>{''.join(rows)}</table>"
            f'<p class="tt-commit">{html.escape(_t("commitment", loc))}: {html.escape(made.seed_hash)}</p>'
        )


def show_lobby(store=None, locale: str = "en", **kwargs: Any) -> Lobby:
    return Lobby(store, locale=locale, **kwargs)


__all__ = ["Lobby", "sample_character", "show_lobby", "default_base"]
