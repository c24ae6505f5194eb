"""The characters on a seat's table page: :class:`SheetsArea`, the part of
:class:`~.table_view.TableView` that holds the models of the characters the seat may see, their
sheets (built when first shown), and a player's creation guide (:func:`creation_wizard`).

Every edit of a model takes the seat's path: the table checks and records it, or the model is
put back (:meth:`SheetsArea.push_model`); events from the table are pushed into the models the
same way.

The area is built from the seat's session and play, the screen's language, and the callbacks
it raises: the status line's (``say``, ``refused``), ``shown()`` (whether the tab of the seat's
sheets is the one shown), ``show_tab()`` (open that tab), ``guide(cid)`` (the widget a player
making their character is shown) and ``on_added(cid)`` (a GM's new character). The screen tells
it when the table's characters or options changed and when the language changed."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.phases import FINISH_ACTION
from tabletop_widgets.table import table_option

from .base import text_lookup
from .sheet import CharacterSheet
from .sheet_context import html_widget, vbox
from .table_texts import TEXTS, esc, gm_words
from .wizard import CreationWizard

if TYPE_CHECKING:
    from .table_view import TableView

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)


def creation_wizard(view: TableView, character_id: str) -> CreationWizard:
    """The wizard a player's seat shows for their character in creation
    (``TableView.creation_guide``): it edits the view's model of the character, so every edit
    takes the sheet's seat path (the table checks and records it, or puts it back); Finish is
    ``TableSession.finish_character``. ``refresh()`` follows the view's language."""
    play = view.play
    wizard = CreationWizard(
        view.models[character_id],
        view.system,
        locale=view.locale,
        can=lambda action: play.can(action, character_id),
        start_play=lambda c: play.sheet_action(character_id, c, FINISH_ACTION, [c]),
    )
    wizard.locale_toggle.layout.display = "none"  # the screen's one switch rules
    shown = wizard.refresh

    def refresh() -> None:
        if wizard.locale != view.locale:
            wizard.locale = view.locale
        shown()

    wizard.refresh = refresh  # type: ignore[method-assign]
    return wizard


class SheetsArea:
    """The characters of :class:`~.table_view.TableView`: ``models`` (id -> the system's
    ``Character``) of the characters the seat may see, ``sheet_area`` (a GM's tab per character,
    a player's own sheet under their creation guide; built by :meth:`build_area` on the pages
    with tabs), and ``sheets`` built so far.

    Parameters
    ----------
    session, play :
        The seat's ``TableSession`` and the play every edit goes through.
    locale : str
        The language it is built in (:meth:`relabel` switches it).
    say, refused : callable
        The screen's status line: ``say(kind, text)`` and ``refused(exc)``.
    shown : callable
        ``shown() -> bool``: whether the tab of the seat's sheets is the one shown.
    show_tab : callable
        ``show_tab()``: show that tab (a player's creation guide opened).
    guide : callable
        ``guide(cid) -> widget``: what a player making character ``cid`` is shown (refreshed
        through its ``refresh()`` when the character or the language changes).
    on_added : callable
        ``on_added(cid)``: a character new at the table got its model and its tab (a GM's).
    """

    creation_box: widgets.VBox | None = None  # a player's: the creation steps or a note

    def __init__(
        self,
        session: Any,
        play: Any,
        *,
        locale: str,
        say: Callable[[str | None, Any], Any],
        refused: Callable[[BaseException], Any],
        shown: Callable[[], bool],
        show_tab: Callable[[], None],
        guide: Callable[[str], widgets.Widget],
        on_added: Callable[[str], None],
    ):
        self.session = session
        self.system = session.system
        self.play = play
        self.is_gm = session.role == "gm"
        self.locale = locale
        self.say = say
        self.refused = refused
        self._shown = shown
        self._show_tab = show_tab
        self._make_guide = guide
        self._on_added = on_added
        self._building: bool | None = None
        self._guide_kind: str | None = None
        self._no_character: widgets.HTML | None = None
        # the models of the characters this seat may see (its sheets are built when shown)
        self.models: dict[str, Any] = {}
        self.sheets: dict[str, CharacterSheet] = {}
        for cid in self._visible_character_ids():
            self._make_model(cid)

    def _visible_character_ids(self) -> list[str]:
        st = self.session.state
        if self.is_gm:
            return list(st.characters)
        if self.session.role == "player":
            cid = self.session.character_id
            return [cid] if cid in st.characters else []
        return []

    def characters(self) -> list[tuple[str, str]]:
        """The characters this seat may see, as a picker's options: (name, id)."""
        return [(self.character_name(c), c) for c in self.models]

    def _make_model(self, cid: str):
        data = self.session.state.characters[cid]
        try:
            model = self.system.Character.from_dict(data)
        except ValueError:
            log.exception("character %s does not load", cid)
            model = self.system.Character()
        model.observe(lambda change, c=cid: self._on_model_change(c), names=t.All)
        self.play.follow_model(cid, model, refused=self._edit_refused)  # the seat's edits, recorded
        self.models[cid] = model
        return model

    def _edit_refused(self, exc: BaseException) -> None:
        """The table refused an edit (the model was put back): the screen says why."""
        if isinstance(exc, PermissionError) and not getattr(exc, "message", None):
            self.say("error", TEXTS["closed"] if self.session.state.closed else TEXTS["not_allowed"])
        else:
            self.refused(exc)

    def character_name(self, cid: str) -> str:
        """Character ``cid``'s name as the table holds it (its id when it has none)."""
        data = self.session.state.characters.get(cid) or {}
        return str(data.get("name") or cid)

    def _new_sheet(self, cid: str, locale: str) -> CharacterSheet:
        sheet = CharacterSheet(self.models[cid], self.system, locale=locale, play=self.play, character_id=cid)
        self.sheets[cid] = sheet
        return sheet

    def build_area(self) -> None:
        """``sheet_area``: a GM's tab per character, a player's creation box over their sheet's
        slot, or the note of a seat without a character."""
        ids = list(self.models)
        # one empty slot per character; :meth:`sheet` fills a slot when its tab is shown
        self._sheet_slots: dict[str, widgets.VBox] = {cid: self._sheet_slot() for cid in ids}
        if self.is_gm:
            self.sheet_tabs = widgets.Tab(children=[self._sheet_slots[c] for c in ids])
            for i, cid in enumerate(ids):
                self.sheet_tabs.set_title(i, self.character_name(cid))
            self.sheet_tabs.add_class("tt-table-sheets")
            self.sheet_tabs.observe(lambda _ch: self.show_sheet(), names="selected_index")
            body: widgets.Widget = self.sheet_tabs
        elif ids:
            self.creation_box = widgets.VBox(layout=widgets.Layout(display="none"), _dom_classes=("tt-creation",))
            body = vbox([self.creation_box, self._sheet_slots[ids[0]]])
        else:
            body = html_widget(classes=("tt-no-character",))
            self._no_character = body
        self.sheet_area = vbox([body], classes=("tt-table-sheet-area",))

    @staticmethod
    def _sheet_slot() -> widgets.VBox:
        return vbox(classes=("tt-table-sheet-slot",))

    def sheet(self, cid: str) -> CharacterSheet:
        """The sheet of character ``cid`` that this seat may see, built on first use (the page
        builds it when its tab is first shown). ``KeyError`` for any other id."""
        if cid not in self.models:
            raise KeyError(cid)
        sheet = self.sheets.get(cid)
        if sheet is None:
            sheet = self._new_sheet(cid, self.locale)
            sheet.locale_toggle.layout.display = "none"
            self._sheet_slots[cid].children = [sheet]
        return sheet

    def show_sheet(self) -> None:
        """Build the sheet the seat is looking at: a player's with the "Your character" tab
        open; a GM's with the Characters tab open and that character's tab selected. Indexes
        come from the browser: anything out of range shows nothing."""
        if not self._shown():
            return
        ids = list(self._sheet_slots)
        index = self.sheet_tabs.selected_index if self.is_gm else 0
        if isinstance(index, int) and 0 <= index < len(ids):
            self.sheet(ids[index])

    def _on_model_change(self, cid: str) -> None:
        """The character changed (an edit, or the table's values pushed in): a player's
        creation guide follows (the play records or puts back the edit: ``follow_model``)."""
        if cid == self.session.character_id:
            self.render_creation()

    def follow(self, cids: set[str]) -> None:
        """Characters changed at the table: their models follow; a GM gets the new ones."""
        for cid in cids:
            if cid in self.models:
                self.push_model(cid)
            elif cid in self.session.state.characters and self.is_gm:
                self.add_character(cid)

    def push_model(self, cid: str) -> None:
        """Put the table's values of character ``cid`` into its model (recording nothing)."""
        self.play.push(cid, self.models.get(cid))

    def add_character(self, cid: str) -> None:
        """GM: a character new at the table gets its model, its tab and a place in the pickers."""
        self._make_model(cid)
        self._sheet_slots[cid] = self._sheet_slot()
        self.sheet_tabs.children = list(self.sheet_tabs.children) + [self._sheet_slots[cid]]
        self.sheet_tabs.set_title(len(self.sheet_tabs.children) - 1, self.character_name(cid))
        self.show_sheet()
        self._on_added(cid)

    def render_creation(self) -> bool:
        """A player's character in creation: the creation wizard above the sheet (when the GM
        lets players make their characters), or a note that the GM prepares it. Returns whether
        the player makes it now."""
        box = self.creation_box
        cid = self.session.character_id
        if box is None or cid not in self.models:
            return False
        loc = self.locale
        unfinished = getattr(self.models[cid], "phase", "play") == "creation"
        builds = unfinished and table_option(self.session, "players_build")
        if not unfinished:
            kind = None
        else:
            kind = "build" if builds else "wait"
        if kind is None:
            box.layout.display = "none"
            for old in box.children:
                old.close()
            box.children = []
            self._guide_kind = None
        elif kind == "wait":
            note = widgets.HTML(
                f'<p class="tt-hint-text tt-gm-prepares" role="status">{esc(_t("gm_prepares", loc, **gm_words(self.system, loc)))}</p>'
            )
            self._set_creation(box, [note], kind)
        else:
            guide = self._guide if self._guide_kind == "build" else self._make_guide(cid)
            refresh = getattr(guide, "refresh", None)
            if callable(refresh):
                refresh()
            self._guide = guide
            self._set_creation(box, [guide], kind)
        self._building = builds
        return builds

    def _set_creation(self, box, children, kind) -> None:
        for old in box.children:
            if old not in children:
                old.close()
        box.children = children
        box.layout.display = None
        self._guide_kind = kind

    def open_creation_if_allowed(self) -> None:
        """The table's options changed: a player's creation guide follows them, and opens
        when the GM just allowed players to build their characters."""
        was = self._building
        if self.render_creation() and was is False:
            self._show_tab()

    def relabel(self, loc: str) -> None:
        """The note of a seat without a character, in ``loc`` (the sheets follow their own
        ``locale``, which the screen sets; the creation guide is redrawn by
        :meth:`render_creation`)."""
        self.locale = loc
        if self._no_character is not None:
            self._no_character.value = f"<p><i>{esc(_t('no_character', loc, **gm_words(self.system, loc)))}</i></p>"


__all__ = ["SheetsArea", "creation_wizard"]
