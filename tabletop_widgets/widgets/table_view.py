"""TableView: one seat's screen at a shared table (GM or player), following the table live.

``TableView(session)`` builds what the seat may see and nothing else:

* GM: every character's sheet (tabs), a dice tray with a character picker and a *hidden roll*
  toggle, the combat tracker with every control, GM notes, the shared log.
* player: their own sheet, a tray for their character, the shared log, the combat tracker as
  players may see it (no hidden combatants, read-only).
* observer: the shared log and the public tracker.

Nothing is rolled or changed in the widgets themselves: every action goes through the
:class:`~tabletop_widgets.table.TableSession` (which checks the seat's role in Python, rolls with
the table's fair dice and appends the outcome), and every handler here checks ``session.can``
first as well (a viewer can forge widget messages; a disabled button still fires). GM-only
widgets are only built in a GM's kernel, and a player's kernel never holds hidden information
(the session's store query filters it), so it cannot reach a synced trait.

What the seat does not see when the page opens is built when it is first shown (issue 21: a
page's every widget model costs the kernel a message and the browser a model, a view and DOM):
a character's sheet, the Dice tab's tray (a player's page that opens on their character's
creation), a GM's Notes, Seat links and Sessions tabs, and, on a player's or an observer's page,
the combat tracker, whose empty face (:mod:`.table_fight`) shows until the table's first fight.
Each is drawn as the table is when it is built, and follows it from then on.

The view follows the table: ``session.follow()`` runs an asyncio task in the kernel that applies
other seats' events, and :meth:`TableView._on_events` redraws what they changed (sheets, log,
tracker, notes). A reload is a fresh kernel that rebuilds the same state from the store.

The view holds no game logic: what a seat may do or see, the stored roll and check records, the
GM's combat sync (with the players' projection and the fair-dice initiative) and the character
push/pull live in :mod:`tabletop_widgets.table` (``session``, ``records``, ``combat_sync``,
``audience``); the widgets here call them and render the answer.

This module is the screen itself: its header (the seat, the fair-dice proof, the language), its
status line and its tabs, and the follower that hands what new events touched to the parts. The
screen is a composition root: each part is a plain object built with what it needs (the seat's
session or play, the language, the callbacks it raises) and exposing its widgets, and the screen
puts those widgets in place and passes the table's changes and the language on. The parts never
read each other; what one needs from another goes through the screen's callbacks.

* :class:`~.table_sheets.SheetsArea` (``sheets_area``): the characters' models and sheets, a
  player's creation guide (:func:`creation_wizard`);
* :class:`~.table_tray.TrayArea` (``tray_area``): the dice, the GM's *Roll for* and hidden rolls;
* :class:`~.table_gm.GmDesk` (``gm_desk``): the GM's notes, seat links and *Bring into combat*;
* :class:`~.table_sessions.SessionsTab` (``sessions_tab``): the GM's Sessions tab;
* :class:`~.table_log.TableLog` (``log_area``): the table's chat, log and sessions' transcripts;
* :class:`~.table_fight.TableFight` (``fight``): the combat tracker, or its empty face on a
  player's page before the first fight;
* :class:`~.table_clocks.TableClocks` (``clocks``): the progress clocks under the header, and the
  GM's Clocks tab;
* :mod:`.table_seat_error`: the page a link without a valid seat gets (:func:`seat_error_page`).

A part a seat's page does not have is None (an observer has no tray nor Sessions tab, only a GM has a
desk; a player's Sessions tab holds their Luck only). The screen keeps the names it had before it was composed (``view.tray``,
``view.roll_log``, ``view.notes_box``...): each is the part's, listed in :data:`PART_NAMES`.
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, check_locale, tr
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import (
    CHARACTER_KINDS,
    NOTE,
    ROLL_TABLE_SAVED,
    SEAT_REISSUED,
    SESSION_KINDS,
    TABLE_OPTION,
    CombatSync,
    TablePlay,
    is_kind,
    remember_locale,
    seat_locale,
)

from . import language
from .base import locale_toggle, locale_validator, text_lookup
from .sheet_context import hbox, html_widget, set_display, shared_layout, vbox
from .table_clocks import TableClocks
from .table_fight import TableFight
from .table_gm import GM_DESK_PARTS, GmDesk
from .table_handouts import HandoutsPart
from .table_log import TableLog
from .table_safety import SafetyPart
from .table_parts import PART_NAMES, TAB_WIDGETS, keep_part_names  # noqa: F401 - the screen's names
from .table_seat_error import seat_error_page
from .table_sessions import SessionsTab
from .table_sheets import SheetsArea, creation_wizard
from .table_texts import TEXTS, esc, gm_words
from .table_tray import TrayArea
from .tracker import CombatTracker
from .tray import error_text

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)

_CSS = stylesheet("table", "clocks", "safety")  # tabletop_widgets/front/table.css, clocks.css, safety.css

#: The tabs of a seat's screen, by role: each tab's title (a key of ``TEXTS``) and the view's
#: attribute holding what it shows. An observer's screen has no tabs.
TABS: dict[str, tuple[tuple[str, str], ...]] = {
    "gm": (
        ("tab_dice", "tray_box"),
        ("sheets", "sheet_area"),
        ("notes", "notes_box"),
        ("tab_seats", "seats_box"),
        ("tab_sessions", "sessions_box"),
        ("tab_clocks", "clocks_box"),
    ),
    "player": (("tab_dice", "tray_box"), ("your_sheet", "sheet_area"), ("tab_sessions", "sessions_box")),
}


class TableView(widgets.VBox):
    """One seat's screen at a shared table (class ``tt-table-view``).

    Parameters
    ----------
    session : TableSession
        The seat (``TableSession.from_voila()`` in a Voila page).
    locale : {"en", "ru"}, optional
        Not given: the language the seat chose last time (remembered with the seat), else the
        page's. The screen's one EN/RU switch switches everything on it, the page's language
        with it, and is remembered for the seat.
    follow : bool
        Start the session's follower (an asyncio task in the kernel's loop) so other seats'
        actions appear without interaction. Tests call ``session.poll()`` instead.
    animate : bool
        Tumble the tray's dice.
    """

    locale = t.Unicode("en", help="Language of the whole screen: 'en' or 'ru'")

    #: What a player making their character is shown: ``make(view, character_id) -> widget``
    #: (refreshed through its ``refresh()`` when the character or the language changes); the
    #: creation wizard (:func:`creation_wizard`), whose steps and checks are the rules'
    #: (:class:`~tabletop_widgets.core.wizard.Wizard`).
    creation_guide = creation_wizard

    def __init__(self, session, *, locale: str | None = None, follow: bool = True, animate: bool = True, **kwargs: Any):
        if locale is None:
            locale = seat_locale(session) or language.page_language().locale
        check_locale(locale)
        self._take_seat(session, animate=animate)
        header = self._build_header(locale)
        # the screen's language first: every part is built in it (not built in English and
        # relabelled, which sends every label twice); :meth:`_on_locale` waits for the parts
        kwargs.setdefault("_dom_classes", ("tt-table-view", f"tt-table-{self.role}"))
        super().__init__(locale=locale, **kwargs)
        # what this seat shows: the table at a glance (the fight, the log) on top; the seat's
        # tools in tabs below
        status = {"say": self.say, "refused": self.refused}
        self.sheets_area = SheetsArea(
            session,
            self.play,
            locale=locale,
            shown=lambda: self.showing("sheets" if self.is_gm else "your_sheet"),
            show_tab=lambda: self.show_tab("your_sheet"),
            guide=lambda cid: type(self).creation_guide(self, cid),
            on_added=self._on_character_added,
            **status,
        )
        self.log_area = TableLog(session, locale, **status)
        self.clocks = TableClocks(session, locale, **status)
        self.safety, self.handouts = SafetyPart(session, locale, **status), HandoutsPart(session, locale, **status)
        self.fight = TableFight(session, self.play, sync=self.sync, locale=locale, on_changed=self._on_fight_changed)
        self._build_tabs(locale)
        tabs = [self.tabs] if self.tabs is not None else []
        top = self._build_top()
        self.children = [
            self.style_block,
            header,
            self.status,
            self.clocks.faces,
            self.safety.box,
            self.handouts.box,  # beside the safety tools: found at once on a desktop as on a phone
            top,
            *tabs,
        ]
        if self.sheets_area.render_creation():  # an unfinished character to build
            self.show_tab("your_sheet")
        self.show_parts()  # the shown tab's part (the other tabs' parts are built when shown)
        self._built = True
        self._start(locale, follow=follow)

    # ==========================================================================================
    # building
    # ==========================================================================================
    def _take_seat(self, session, *, animate: bool) -> None:
        """The seat this screen shows, and the screen's own state."""
        self.session = session
        self.system = session.system
        self.role = session.role
        self.is_gm = session.role == "gm"
        self.animate = animate  # tumble the tray's dice
        self._message: tuple[str, dict] | None = None
        self._session_seen = (session.state.session, session.state.session_open)
        self.replaced = False
        self._built = False  # True once every part of the screen is there (see _on_locale)
        # the parts a seat's page may not have (built with the tabs)
        self.tray_area: TrayArea | None = None
        self.gm_desk: GmDesk | None = None
        self.sessions_tab: SessionsTab | None = None
        # the GM's combat (the table's fair dice), and what every part of the screen acts through
        self.sync = (
            CombatSync(session, on_reload=self._on_combat_reloaded, on_refused=self.refused) if self.is_gm else None
        )
        self.play = TablePlay(
            session,
            sync=self.sync,
            hidden=self.hidden_wanted,
            blind=self.blind_wanted,
            hide_notation=self.hide_notation_wanted,
        )

    def _build_header(self, locale: str) -> widgets.HBox:
        """The style, the title with the seat's badge, the fair-dice proof, the language switch
        and the status line (hidden while there is nothing to say); returns the header."""
        # made with their classes, sharing one style and (unless they hide) one layout: a
        # model each, sent once
        self.style_block = html_widget(_CSS, classes=("tt-style",))
        self.title = html_widget(classes=("tt-table-title",))
        # the fair-dice proof (commitment, checkpoint, a revealed key) is for checking later:
        # folded under "Fair dice", opened when a session starts or ends (the status line
        # points at it then)
        self.proof_toggle = widgets.ToggleButton(value=False, layout=widgets.Layout(width="auto"))
        self.proof_toggle.add_class("tt-proof-toggle")
        self.commit = html_widget(classes=("tt-table-commit",), layout=widgets.Layout(display="none"))
        self.proof_toggle.observe(lambda ch: set_display(self.commit, None if ch["new"] else "none"), names="value")
        self.locale_toggle = locale_toggle(locale)
        header = hbox(
            [vbox([self.title, self.proof_toggle, self.commit]), self.locale_toggle], classes=("tt-table-header",)
        )
        self.status = html_widget(classes=("tt-table-status",), layout=widgets.Layout(display="none"))
        return header

    def _build_tabs(self, locale: str) -> None:
        """A GM's or a player's parts, each in its tab (:data:`TABS`); sheets are built when
        they are first shown (a sheet is hundreds of widgets, and the screen opens on the Dice
        tab)."""
        self.tabs: widgets.Tab | None = None
        self._tab_keys: list[str] = []
        if self.role not in TABS:
            return
        s, status = self.session, {"say": self.say, "refused": self.refused}
        self.sheets_area.build_area()
        characters = self.sheets_area.characters()
        self.tray_area = TrayArea(
            s,
            self.play,
            models=self.sheets_area.models,
            characters=characters,
            locale=locale,
            animate=self.animate,
            shown=lambda: self.showing("tab_dice"),
        )
        if self.is_gm:
            self.gm_desk = GmDesk(
                s, locale, characters=characters, add_to_combat=self.fight.add, in_combat=self.fight.in_combat, **status
            )
        self.sessions_tab = SessionsTab(s, locale, **status)  # a player's: the Luck part only
        self._tab_keys = [key for key, _part in TABS[self.role]]
        self.tabs = widgets.Tab(
            children=[getattr(self, part) for _key, part in TABS[self.role]],
            layout=shared_layout(),
            _dom_classes=("tt-table-tabs",),
        )
        self.tabs.observe(lambda _ch: self.show_parts(), names="selected_index")

    def _build_top(self) -> widgets.HBox:
        """The table at a glance: the fight (with a GM's *Bring into combat*) and the log."""
        combat_add = [self.gm_desk.combat_add] if self.gm_desk is not None else []
        return hbox([self.fight.build_column(combat_add), self.log_area.box], classes=("tt-table-top",))

    def _start(self, locale: str, *, follow: bool) -> None:
        """Draw the screen in ``locale`` with the log so far, and follow the table."""
        self.locale = locale
        self.locale_toggle.observe(lambda ch: self.choose_locale(ch["new"]), names="value")
        self.log_area.add_entries()
        self._render_labels()
        self._unsubscribe = self.session.on_events(self._on_events)
        self.session.on_revoked(lambda: self.link_was_replaced("link_revoked"))
        self.task = self.session.follow() if follow else None

    def show_parts(self) -> None:
        """Build what the shown tab holds and is not built yet: the Dice tab's tray, the sheet
        the seat is looking at, a GM's notes, seat links and sessions."""
        if self.tray_area is not None:
            self.tray_area.show_tray()
        self.sheets_area.show_sheet()
        if self.gm_desk is not None:
            for key in GM_DESK_PARTS:
                if self.showing(key):
                    self.gm_desk.build_gm_tab(key)
        if self.sessions_tab is not None and self.showing("tab_sessions"):
            self.sessions_tab.build_sessions()
        if self.showing("tab_clocks"):
            self.clocks.build_tab()

    def showing(self, key: str) -> bool:
        """Whether the tab titled ``key`` (a key of :data:`TABS`) is the one shown."""
        return self.tabs is not None and key in self._tab_keys and self.tabs.selected_index == self._tab_keys.index(key)

    def show_tab(self, key: str) -> None:
        """Show the tab titled ``key`` (nothing when the screen has no such tab)."""
        if self.tabs is not None and key in self._tab_keys:
            self.tabs.selected_index = self._tab_keys.index(key)

    @property
    def tracker(self) -> CombatTracker | None:
        """The combat tracker (a player's is built on first use: see
        :class:`~.table_fight.TableFight`); None while the screen is being built."""
        fight = self.__dict__.get("fight")
        return fight.tracker if fight is not None else None

    @property
    def clocks_box(self):
        """The GM's Clocks tab (:class:`~.table_clocks.TableClocks`; built when first shown)."""
        return self.clocks.tab_box

    def hidden_wanted(self) -> bool:
        """Whether the GM's next roll is hidden (the tray's *hidden roll* toggle)."""
        tray_area = self.__dict__.get("tray_area")
        return tray_area is not None and tray_area.hidden_wanted()

    def blind_wanted(self) -> bool:
        """Whether the seat's next roll is blind (the tray's *Roll blind* toggle)."""
        tray_area = self.__dict__.get("tray_area")
        return tray_area is not None and tray_area.blind_wanted()

    def hide_notation_wanted(self) -> bool:
        """Whether the GM's next blind roll hides what it rolls (*Hide what is rolled*)."""
        tray_area = self.__dict__.get("tray_area")
        return tray_area is not None and tray_area.hide_notation_wanted()

    def _on_combat_reloaded(self, combat) -> None:
        """The GM's combat was rebuilt from the log: a new tracker shows it."""
        self.fight.reloaded(combat)

    def _on_fight_changed(self) -> None:
        """GM: someone came into the fight or left it: *Bring into combat* offers the others."""
        desk = self.__dict__.get("gm_desk")
        if desk is not None:
            desk.render_pick()

    def _on_character_added(self, _cid: str) -> None:
        """GM: a character new at the table: the pickers offer it."""
        characters = self.sheets_area.characters()
        self.tray_area.set_characters(characters)
        self.gm_desk.set_characters(characters)

    # -- a GM's actions (a forged call on another seat's page is refused) ----------------------
    def _not_allowed(self) -> None:
        return self.say("error", TEXTS["not_allowed"])

    def gm_tab_built(self, key: str) -> bool:
        """Whether the GM's tab ``key`` (of :data:`GM_DESK_PARTS`) is built."""
        return self.gm_desk is not None and self.gm_desk.gm_tab_built(key)

    def add_note(self, text: str | None = None, title: str | None = None):
        """GM: a note to the table's GM notes (:meth:`~.table_gm.GmDesk.add_note`)."""
        return self.gm_desk.add_note(text, title) if self.gm_desk is not None else self._not_allowed()

    def reissue_link(self, seat: str | None = None, base: str | None = None) -> str | None:
        """GM: a new link for ``seat`` (:meth:`~.table_gm.GmDesk.reissue_link`)."""
        return self.gm_desk.reissue_link(seat, base) if self.gm_desk is not None else self._not_allowed()

    def bring_into_combat(self, cid: str | None = None, hidden: bool | None = None):
        """GM: a table character into the fight (:meth:`~.table_gm.GmDesk.bring_into_combat`)."""
        return self.gm_desk.bring_into_combat(cid, hidden) if self.gm_desk is not None else self._not_allowed()

    def ask_session(self, step: str) -> None:
        """GM: *End tonight's session* / *Start the next session* pressed (a confirm step)."""
        return self.sessions_tab.ask_session(step) if self.sessions_tab is not None else self._not_allowed()

    def cancel_session(self) -> None:
        if self.sessions_tab is not None:
            self.sessions_tab.cancel_session()

    def confirm_session(self):
        """GM: the confirm step's yes (:meth:`~.table_sessions.SessionsTab.confirm_session`)."""
        return self.sessions_tab.confirm_session() if self.sessions_tab is not None else self._not_allowed()

    # ==========================================================================================
    # following the table
    # ==========================================================================================
    def _on_events(self, events) -> None:
        """New events (followed, or written here): redraw what they touched."""
        try:
            self._apply_events(events)
        except Exception:  # never let a drawing bug stop the follower
            log.exception("table view: redraw failed")

    def _apply_events(self, events) -> None:
        """Hand what ``events`` touched to the parts: sessions, characters, the combat, notes,
        options, the log; then a replaced link and the header."""
        touched = self.fight.touched(events)
        if any(is_kind(e, *SESSION_KINDS) for e in events):
            self._on_session_changed()
        characters = {e.payload.get("character_id") for e in events if is_kind(e, *CHARACTER_KINDS)}
        self.sheets_area.follow(characters)
        self.fight.follow(touched, events)
        if characters:
            self.fight.push_characters()
        if self.gm_desk is not None and any(is_kind(e, NOTE) for e in events):
            self.gm_desk.render_notes()
        if any(is_kind(e, TABLE_OPTION) for e in events) or characters:
            if self.gm_desk is not None:
                self.gm_desk.render_players_build()
            self.sheets_area.open_creation_if_allowed()
        self.clocks.follow(events)
        if self.tray_area is not None and any(is_kind(e, ROLL_TABLE_SAVED) for e in events):
            self.tray_area.roll_tables.render()
        self.log_area.add_entries()
        self.safety.follow(events), self.handouts.follow(events)
        reissued = [e for e in events if is_kind(e, SEAT_REISSUED) and e.payload.get("seat") == self.session.seat]
        if reissued and self.session.link_replaced():
            self.link_was_replaced()
        self._render_header()

    def _on_session_changed(self) -> None:
        """A session ended or started: every seat is told (the status line), the GM's sessions
        tab is redrawn, and the tray's buttons follow."""
        st = self.session.state
        now = (st.session, st.session_open)
        sessions = self.sessions_tab
        if now == self._session_seen or st.closed:
            self._session_seen = now
            if sessions is not None:
                sessions.render_sessions(reverify=True)
            self.log_area.render_transcripts()
            return
        self._session_seen = now
        self.log_area.render_transcripts()
        key = "session_ended_status" if not st.session_open else "session_started_status"
        self.proof_toggle.value = True  # the message points at the new commitment, or the key
        self._message = ("info", {loc: _t(key, loc, n=st.session, **gm_words(self.system, loc)) for loc in LOCALES})
        self._render_status()
        if sessions is not None:
            sessions.render_sessions(reverify=True)
        if self.built_tray is not None:  # a tray built later is drawn as the table is then
            render = getattr(self.built_tray, "render", None)
            if callable(render):
                render()

    def link_was_replaced(self, key: str = "link_replaced") -> None:
        """The GM gave this seat a new link (or retired it: ``key="link_revoked"``): stop
        following the table and say so."""
        if self.replaced:
            return
        self.replaced = True
        self.session.stop()
        self._message = ("error", self._text(key))
        self._render_status()

    # ==========================================================================================
    # rendering
    # ==========================================================================================
    def _text(self, key: str) -> dict[str, str]:
        """``TEXTS[key]`` in both languages, with the table's words for the GM."""
        return {loc: _t(key, loc, **gm_words(self.system, loc)) for loc in LOCALES}

    _check_locale = locale_validator()

    def choose_locale(self, locale: str) -> None:
        """The seat chose ``locale`` (the screen's switch): everything on the page switches
        (this screen, and the page's language) and the seat remembers it."""
        if locale not in LOCALES:  # a forged value: the switch goes back
            self.locale_toggle.value = self.locale
            return
        self.locale = locale
        language.page_language().locale = locale
        if not self.replaced:
            remember_locale(self.session, locale)

    @t.observe("locale")
    def _on_locale(self, change) -> None:
        if not self._built:  # the parts are being built in this language
            return
        loc = change["new"]
        if self.locale_toggle.value != loc:
            self.locale_toggle.value = loc
        for w in [*self.sheets.values(), self.built_tray, self.roll_log, self.built_tracker]:
            if w is not None and getattr(w, "locale", loc) != loc:
                w.locale = loc
        self._render_labels()

    def _render_labels(self) -> None:
        """Every label of the screen in its language, and what is drawn from the table."""
        loc = self.locale
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = ["English", "Русский"]
        self.sheets_area.relabel(loc)
        if self.tabs is not None:
            for i, key in enumerate(self._tab_keys):
                title = (
                    term_of(self.system, "dice", loc)
                    if key == "tab_dice"
                    else _t(key, loc, **gm_words(self.system, loc))
                )
                self.tabs.set_title(i, title)
        for part in (
            self.tray_area,
            self.log_area,
            self.fight,
            self.gm_desk,
            self.sessions_tab,
            self.clocks,
            self.safety,
            self.handouts,
        ):
            if part is not None:
                part.relabel(loc)
        self.sheets_area.render_creation()
        self._render_header()
        self._render_status()

    def _render_header(self) -> None:
        loc = self.locale
        st = self.session.state
        title = st.title or _t("table", loc)
        badge = (
            f'<span class="tt-seat-badge tt-seat-{self.role}" title="{esc(_t("seat_tip", loc))}">'
            f"{esc(_t(self.role, loc, **gm_words(self.system, loc)))}: {esc(self.session.name or self.session.seat)}</span>"
        )
        self.title.value = f'<h1>{esc(title)}{badge}</h1><span class="tt-sub">{esc(tr(self.system.title, loc))}</span>'
        # the fair-dice proof every seat keeps: the full commitment and the head it has reached
        n = st.session
        label = "session_commitment" if len(st.session_list()) > 1 or not st.session_open else "commitment"
        rows = [(label, self.session.commitment, "tt-commitment"), ("head", self.session.head, "tt-head")]
        current = st.session_list()[-1]
        if current.get("seed"):  # the session ended (or the table closed): its key is public
            rows.append(("session_seed" if label == "session_commitment" else "seed", current["seed"], "tt-seed"))
        tips = {"session_commitment": "commitment_tip"}
        commit = "".join(
            f'<div class="tt-proof-row" title="{esc(self._tip(tips.get(key, key + "_tip"), loc))}">'
            f'<span class="tt-proof-label">{esc(_t(key, loc, n=n))}:</span> '
            f'<code class="tt-hash {cls}">{esc(value)}</code></div>'
            for key, value, cls in rows
        )
        self.commit.value = f'<div class="tt-proof" title="{esc(_t("proof_help", loc))}">{commit}</div>'
        self.proof_toggle.description = _t("proof", loc)
        self.proof_toggle.tooltip = self._tip("proof_tip", loc)
        if self.replaced:
            self._message = ("error", self._text("link_replaced"))
            self._render_status()
        elif st.closed:
            self._message = ("info", TEXTS["closed"])
            self._render_status()
        elif not st.session_open and self._message is None:
            # a page opened between sessions says so (a page open at the time was told)
            self._message = (
                "info",
                {lc: _t("session_ended_status", lc, n=n, **gm_words(self.system, lc)) for lc in LOCALES},
            )
            self._render_status()

    def _tip(self, key: str, loc: str) -> str:
        return _t(key, loc, **gm_words(self.system, loc)) if key in TEXTS else ""

    def say(self, kind: str | None, text: Mapping[str, str] | None) -> None:
        """Show ``text`` (``{"en": ..., "ru": ...}``) in the status line, as an ``"error"`` or
        an ``"info"``; ``say(None, None)`` clears it. Returns None (what a refused action
        returns)."""
        self._message = (kind, dict(text)) if kind and text else None
        self._render_status()
        return None

    def refused(self, exc: BaseException) -> None:
        """Say why the table refused an action (``exc``: its ``message`` in both languages)."""
        why = {loc: error_text(exc, loc) for loc in LOCALES}
        return self.say("error", {loc: _t("refused", loc, why=why[loc]) for loc in LOCALES})

    def _render_status(self) -> None:
        if self._message is None:
            self.status.layout.display = "none"
            self.status.value = ""
            return
        kind, text = self._message
        cls = "tt-msg" if kind == "error" else "tt-msg tt-info"
        role = "alert" if kind == "error" else "status"
        self.status.value = f'<div class="{cls}" role="{role}">{esc(tr(text, self.locale))}</div>'
        self.status.layout.display = None

    # ==========================================================================================
    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        try:
            if unsubscribe is not None:
                self.session.stop()
                unsubscribe()
        finally:
            super().close()


keep_part_names(TableView)


def show_table(session, locale: str | None = None, **kwargs: Any) -> TableView:
    """The seat's screen for ``session``; the notebook displays the returned widget."""
    return TableView(session, locale=locale, **kwargs)


__all__ = ["TableView", "creation_wizard", "seat_error_page", "show_table"]
