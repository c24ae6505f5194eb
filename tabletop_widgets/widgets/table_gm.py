"""The GM's desk on the table page: :class:`GmDesk`, the parts of :class:`~.table_view.TableView`
only a GM's kernel builds: the GM's notes, the seat links (a new link for a seat whose link got
out; whether players build their own characters) and *Bring into combat*. Each action checks the
seat again (a forged widget message reaches the handler even when the widget is not shown).

It is built from the GM's session, the screen's language, the characters *Bring into combat*
offers, and the callbacks it raises: the status line's (``say``, ``refused``) and
``add_to_combat(cid, hidden)``, which puts a table character into the screen's fight. The screen
tells it when the table's notes or options changed (:meth:`GmDesk.render_notes`,
:meth:`GmDesk.render_players_build`), when a character came (:meth:`GmDesk.set_characters`) and
when the language changed (:meth:`GmDesk.relabel`)."""

from __future__ import annotations

from typing import Any, Callable, Collection

import ipywidgets as widgets

from tabletop_widgets.table import EventError, set_table_option, table_option

from .base import text_lookup
from .sheet_context import vbox
from .table_texts import TEXTS, esc, gm_words

_t = text_lookup(TEXTS)


#: The widgets of the GM's Notes and Seat links tabs, by the tab (a key of ``TABS``) that builds
#: them: a tab is built when it is first shown, or when one of its widgets is asked for.
GM_DESK_PARTS: dict[str, tuple[str, ...]] = {
    "notes": ("note_title", "note_text", "note_button", "notes_head", "notes_list"),
    "tab_seats": ("seat_pick", "reissue_button", "seats_help", "new_link", "players_build", "npcs_defend"),
}


#: every widget of :data:`GM_DESK_PARTS` -> the tab that builds it
_PART_TAB: dict[str, str] = {name: key for key, names in GM_DESK_PARTS.items() for name in names}


class GmDesk:
    """The GM's notes (``notes_box``), seat links (``seats_box``) and *Bring into combat*
    (``combat_add``, shown with the fight). The notes' and the seat links' tabs are filled when
    first shown (:meth:`build_gm_tab`) or when one of their widgets is asked for.

    Parameters
    ----------
    session : TableSession
        The GM's seat (every action checks it again).
    locale : str
        The language it is drawn in (:meth:`relabel` switches it).
    characters : list of (name, id)
        The table's characters, for *Bring into combat* (:meth:`set_characters` updates them).
    say, refused : callable
        The screen's status line: ``say(kind, text)`` and ``refused(exc)``.
    add_to_combat : callable
        ``add_to_combat(cid, hidden)``: put table character ``cid`` into the fight; returns
        what :meth:`bring_into_combat` returns.
    """

    def __init__(
        self,
        session: Any,
        locale: str,
        *,
        characters: list[tuple[str, str]],
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
        add_to_combat: Callable[[str, bool], Any],
        in_combat: Callable[[], Collection[str]] = frozenset,
    ):
        self.session = session
        self.system = session.system
        self.locale = locale
        self.say = say
        self.refused = refused
        self._add_to_combat = add_to_combat
        self._in_combat = in_combat  # the ids in the GM's fight: *Bring into combat* leaves them out
        self._characters = list(characters)
        self._setting_options = 0  # > 0 while the options' boxes are set from the table
        self._desk_built: frozenset[str] = frozenset()  # the tabs of GM_DESK_PARTS built so far
        self._new_link: tuple[str, str] | None = None  # the last link made: (who, url)
        self._build_combat_add(characters)
        self.notes_box = vbox(classes=("tt-gm-notes",))
        self.seats_box = vbox(classes=("tt-gm-seats",))

    def __getattr__(self, name: str) -> Any:
        # only for the widgets of a tab not made yet: make the tab, then answer
        key = _PART_TAB.get(name)
        if key is None or "seats_box" not in self.__dict__ or key in self.__dict__["_desk_built"]:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.build_gm_tab(key)
        return self.__dict__[name]

    def gm_tab_built(self, key: str) -> bool:
        """Whether the GM's tab ``key`` (of :data:`GM_DESK_PARTS`) is built."""
        return key in self._desk_built

    def build_gm_tab(self, key: str) -> None:
        """Fill the GM's tab ``key`` (of :data:`GM_DESK_PARTS`), drawn as the table is now;
        nothing on other seats' pages or when it is built already."""
        if key not in GM_DESK_PARTS or self.gm_tab_built(key):
            return
        self._desk_built = self._desk_built | {key}
        if key == "notes":
            self._build_notes()
        else:
            self._build_seats()
        self.relabel(self.locale)

    def _build_notes(self) -> None:
        self.note_title = widgets.Text(style={"description_width": "initial"}, layout=widgets.Layout(width="100%"))
        self.note_title.add_class("tt-note-title-input")
        self.note_text = widgets.Textarea(layout=widgets.Layout(width="100%"))
        self.note_text.add_class("tt-note-text")
        self.note_button = widgets.Button(button_style="warning")
        self.note_button.add_class("tt-note-add")
        self.note_button.on_click(lambda _b: self.add_note())
        self.notes_head = widgets.HTML()
        self.notes_list = widgets.HTML()
        self.notes_list.add_class("tt-note-list")
        self.notes_box.children = [self.notes_head, self.notes_list, self.note_title, self.note_text, self.note_button]

    def _build_seats(self) -> None:
        """GM: give a seat a new link (the old one stops working at once); whether players
        build their own characters."""
        others = [s for s in self.session.store.seats(self.session.table_id) if s.seat != self.session.seat]
        self._other_seats = others
        self.seat_pick = widgets.Dropdown(
            options=self._seat_options(self.locale), style={"description_width": "initial"}
        )
        self.seat_pick.add_class("tt-seat-pick")
        self.reissue_button = widgets.Button(button_style="danger", disabled=not others)
        self.reissue_button.add_class("tt-seat-reissue")
        self.reissue_button.on_click(lambda _b: self.reissue_link())
        self.seats_help = widgets.HTML()
        self.new_link = widgets.HTML()
        self.new_link.add_class("tt-seat-new-link")
        self.players_build = self._option_box("players_build", "tt-players-build")
        self.npcs_defend = self._option_box("npcs_defend_by_default", "tt-npcs-defend")
        self.seats_box.children = [
            self.seats_help,
            widgets.HBox([self.seat_pick, self.reissue_button]),
            self.new_link,
            self.players_build,
            self.npcs_defend,
        ]

    def _option_box(self, name: str, css: str) -> widgets.Checkbox:
        """The box of the table option ``name`` (every seat at once), as the table holds it."""
        box = widgets.Checkbox(
            value=table_option(self.session, name), indent=False, layout=widgets.Layout(width="auto")
        )
        box.add_class(css)
        box.observe(lambda change: self._on_option(name, change), names="value")
        return box

    def _seat_options(self, loc: str) -> list[tuple[str, str]]:
        """A seat as the GM knows it: its name and its role («Пётр — игрок»), never its id."""
        words = gm_words(self.system, loc)
        role = {"gm": words["gm"], "player": _t("player", loc).lower(), "observer": _t("observer", loc).lower()}
        return [(f"{s.name or s.seat} — {role.get(s.role, s.role)}", s.seat) for s in self._other_seats]

    def _build_combat_add(self, characters: list[tuple[str, str]]) -> None:
        self.combat_pick = widgets.Dropdown(options=self._outside(), style={"description_width": "initial"})
        self.combat_pick.add_class("tt-combat-pick")
        self.combat_pick_hidden = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        self.combat_pick_hidden.add_class("tt-combat-pick-hidden")
        self.combat_add_button = widgets.Button(button_style="info")
        self.combat_add_button.add_class("tt-combat-add-button")
        self.combat_add_button.on_click(lambda _b: self.bring_into_combat())
        self.combat_add = widgets.HBox([self.combat_pick, self.combat_pick_hidden, self.combat_add_button])
        self.combat_add.add_class("tt-combat-add")
        self.render_pick()

    def set_characters(self, characters: list[tuple[str, str]]) -> None:
        """The table's characters (a new one came): *Bring into combat* offers them."""
        self._characters = list(characters)
        self.render_pick()

    def _outside(self) -> list[tuple[str, str]]:
        """The table's characters not in the fight yet: the ones *Bring into combat* can add."""
        inside = set(self._in_combat())
        return [(label, cid) for label, cid in self._characters if cid not in inside]

    def render_pick(self) -> None:
        """*Bring into combat* offers only who is not in the fight (called when the fight
        changes); with everyone in, its button says so and does nothing."""
        options = self._outside()
        if list(self.combat_pick.options) != options:
            self.combat_pick.options = options
        everyone = not options
        self.combat_add_button.disabled = everyone
        self.combat_add_button.tooltip = _t("combat_all_in" if everyone else "combat_add_tip", self.locale)

    # -- actions (each checks the seat first) ----------------------------------------------------
    def add_note(self, text: str | None = None, title: str | None = None):
        if not self.session.can("note"):
            return self.say("error", TEXTS["not_allowed"])
        text = (self.note_text.value if text is None else text).strip()
        title = (self.note_title.value if title is None else title).strip() or None
        if not text:
            return self.say("error", TEXTS["note_need_text"])
        try:
            event = self.session.note(text, title)
        except (PermissionError, EventError) as exc:
            return self.refused(exc)
        if self.gm_tab_built("notes"):
            self.note_text.value = ""
            self.note_title.value = ""
        self.say(None, None)
        return event

    def reissue_link(self, seat: str | None = None, base: str | None = None) -> str | None:
        """GM: a new link for ``seat`` (the old one stops working at once); shown once."""
        from tabletop_widgets.table import link
        from .lobby import default_base

        if not self.session.can("seat.manage"):
            return self.say("error", TEXTS["not_allowed"])
        seat = seat or self.seat_pick.value
        if not seat:
            return None
        try:
            token = self.session.reissue_seat(seat)
        except (PermissionError, EventError) as exc:
            return self.refused(exc)
        url = link(self.session.table_id, token, default_base() if base is None else base)
        who = {v: k for k, v in self.seat_pick.options}.get(seat, seat)
        self._new_link = (who, url)
        self._render_new_link()
        self.say(None, None)
        return url

    def _render_new_link(self) -> None:
        made = self._new_link
        if not self.gm_tab_built("tab_seats") or made is None:
            return
        who, url = made
        self.new_link.value = (
            f'<p>{esc(_t("reissued", self.locale, who=who))}</p><code class="tt-hash tt-link">{esc(url)}</code>'
        )

    def bring_into_combat(self, cid: str | None = None, hidden: bool | None = None):
        """GM: put a table character into the combat tracker (as combatant ``cid``)."""
        if not self.session.can("combat"):
            return self.say("error", TEXTS["not_allowed"])
        cid = cid or self.combat_pick.value
        hidden = self.combat_pick_hidden.value if hidden is None else hidden
        if cid not in self.session.state.characters:
            return None
        if cid in set(self._in_combat()):  # a forged or stale pick: already fighting
            return self.say("error", TEXTS["combat_already_in"])
        added = self._add_to_combat(cid, bool(hidden))
        self.render_pick()
        return added

    def _on_option(self, name: str, change) -> None:
        """GM: a table option (players build their own characters; NPCs defend by their default
        choice) on or off, for every seat at once."""
        if self._setting_options:
            return
        try:
            if not self.session.can("table.configure"):
                raise PermissionError("table.configure")
            set_table_option(self.session, name, bool(change["new"]))
        except (PermissionError, EventError, ValueError, TypeError) as exc:
            if isinstance(exc, PermissionError) and not getattr(exc, "message", None):
                self.say("error", TEXTS["not_allowed"])
            else:
                self.refused(exc)
            self.render_players_build()  # the box springs back to what the table holds

    # -- drawing -----------------------------------------------------------------------------------
    def render_players_build(self) -> None:
        """The table options' boxes (*players build*, *NPCs defend by default*) as the table
        holds them."""
        if self.gm_tab_built("tab_seats"):
            self._setting_options += 1
            try:
                self.players_build.value = table_option(self.session, "players_build")
                self.npcs_defend.value = table_option(self.session, "npcs_defend_by_default")
            finally:
                self._setting_options -= 1

    def render_notes(self) -> None:
        """The GM's notes as the table holds them."""
        if not self.gm_tab_built("notes"):
            return
        loc = self.locale
        words = gm_words(self.system, loc)
        self.notes_head.value = (
            f'<h3 title="{esc(_t("notes_tip", loc, **words))}">{esc(_t("notes", loc, **words))}</h3>'
        )
        notes = self.session.state.notes
        if not notes:
            self.notes_list.value = f"<i>{esc(_t('note_empty', loc))}</i>"
            return
        items = "".join(
            "<li>"
            + (f'<span class="tt-note-title">{esc(n.get("title"))}</span>' if n.get("title") else "")
            + f"{esc((n.get('texts') or {}).get(loc) or n.get('text', ''))}</li>"
            for n in notes
        )
        self.notes_list.value = f"<ul>{items}</ul>"

    def relabel(self, loc: str) -> None:
        """The desk's labels in ``loc`` (the notes and the new link redrawn)."""
        self.locale = loc
        self.combat_pick.description = _t("combat_who", loc)
        self.combat_pick.tooltip = _t("combat_add_tip", loc)
        self.combat_pick_hidden.description = _t("combat_hidden", loc)
        self.combat_add_button.description = _t("combat_add", loc)
        self.combat_add_button.tooltip = _t("combat_add_tip", loc)
        if self.gm_tab_built("notes"):
            self.note_title.description = _t("note_title", loc)
            self.note_text.placeholder = _t("note_text", loc)
            self.note_text.tooltip = _t("note_text", loc)
            self.note_button.description = _t("note_add", loc)
            self.note_button.tooltip = _t("notes_tip", loc, **gm_words(self.system, loc))
            self.render_notes()
        if self.gm_tab_built("tab_seats"):
            self.render_players_build()
            self.seats_help.value = f'<p class="tt-hint-text">{esc(_t("seats_help", loc))}</p>'
            self.players_build.description = _t("players_build", loc)
            self.players_build.tooltip = _t("players_build_tip", loc)
            self.npcs_defend.description = _t("npcs_defend", loc)
            self.npcs_defend.tooltip = _t("npcs_defend_tip", loc)
            self.seat_pick.description = _t("seat_pick", loc)
            value = self.seat_pick.value
            self.seat_pick.options = self._seat_options(loc)
            self.seat_pick.value = value
            self.reissue_button.description = _t("reissue", loc)
            self.reissue_button.tooltip = _t("reissue_tip", loc)
            self._render_new_link()


__all__ = ["GM_DESK_PARTS", "GmDesk"]
