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
status line, its tabs, the combat tracker, and the follower that redraws what new events touched.
Its parts live next to it, each a mixin of :class:`TableView` with its own widgets:

* :mod:`.table_sheets`: the characters' models and sheets, a player's creation guide;
* :mod:`.table_tray`: the dice (:class:`TableTray`, and the GM's *Roll for* and hidden rolls);
* :mod:`.table_gm`: the GM's notes, seat links and *Bring into combat*;
* :mod:`.table_sessions`: the GM's Sessions tab;
* :mod:`.table_log`: the table's log and the sessions' transcripts;
* :mod:`.table_attack`: the Attack part at the table (a part the view holds, not a mixin);
* :mod:`.table_fight`: the tracker's empty face on a player's page before the first fight;
* :mod:`.table_seat_error`: the page a link without a valid seat gets (:func:`seat_error_page`).

The parts call the screen through its public names (:meth:`TableView.say`,
:meth:`TableView.refused`, :meth:`TableView.showing`, :meth:`TableView.show_tab`,
:meth:`TableView.character_name`), and the screen calls theirs (``build_*``, ``render_*``,
``relabel_*``).
"""

from __future__ import annotations

import logging
from typing import Any, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.i18n import LOCALES, check_locale, tr
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import (
    CHARACTER_KINDS,
    COMBAT_STATE,
    NOTE,
    SEAT_REISSUED,
    SESSION_KINDS,
    TABLE_OPTION,
    CombatSync,
    TablePlay,
    combat_from_view,
    is_kind,
    push_characters,
    remember_locale,
    seat_locale,
)

from . import language
from .base import locale_toggle, locale_validator, text_lookup
from .sheet_context import hbox, html_widget, shared_layout, vbox
from .table_fight import IdleTracker
from .table_gm import GM_DESK_PARTS, GmDesk
from .table_log import TableLogArea
from .table_seat_error import seat_error_page
from .table_sessions import SESSIONS_PARTS, SessionsTab
from .table_sheets import SheetsArea, creation_wizard
from .table_texts import TEXTS, esc, gm_words
from .table_tray import TrayArea
from .tracker import CombatTracker
from .tray import error_text

log = logging.getLogger(__name__)

_t = text_lookup(TEXTS)

_CSS = stylesheet("table")  # tabletop_widgets/front/table.css

#: The tabs of a seat's screen, by role: each tab's title (a key of ``TEXTS``) and the view's
#: attribute holding what it shows. An observer's screen has no tabs.
TABS: dict[str, tuple[tuple[str, str], ...]] = {
    "gm": (
        ("tab_dice", "tray_box"),
        ("sheets", "sheet_area"),
        ("notes", "notes_box"),
        ("tab_seats", "seats_box"),
        ("tab_sessions", "sessions_box"),
    ),
    "player": (("tab_dice", "tray_box"), ("your_sheet", "sheet_area")),
}

#: A GM's widgets that are made with their tab (when it is first shown, or when one of them is
#: asked for): the widget's attribute -> the tab's key.
TAB_WIDGETS: dict[str, str] = {name: key for key, names in GM_DESK_PARTS.items() for name in names}
TAB_WIDGETS.update({name: "tab_sessions" for name in SESSIONS_PARTS})


class TableView(SheetsArea, TrayArea, GmDesk, SessionsTab, TableLogArea, widgets.VBox):
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

    _tracker: CombatTracker | None = None
    _tracker_building = True  # nothing asks for the tracker before the screen builds it
    #: a player's or an observer's empty tracker before the table's first fight (then None)
    idle_tracker: IdleTracker | None = None

    locale = t.Unicode("en", help="Language of the whole screen: 'en' or 'ru'")

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
        self.build_models()
        self.build_log_column(locale)
        self._build_tracker(locale)
        self._build_tabs(locale)
        tabs = [self.tabs] if self.tabs is not None else []
        self.children = [self.style_block, header, self.status, self._build_top(), *tabs]
        if self.render_creation():  # an unfinished character to build
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
        self._turns_seen: set = set()
        # the GM's combat (the table's fair dice), and what every part of the screen acts through
        self.sync = (
            CombatSync(session, on_reload=self._on_combat_reloaded, on_refused=self.refused) if self.is_gm else None
        )
        self.play = TablePlay(session, sync=self.sync, hidden=self.hidden_wanted)

    def _build_header(self, locale: str) -> widgets.HBox:
        """The style, the title with the seat's badge, the fair-dice proof, the language switch
        and the status line (hidden while there is nothing to say); returns the header."""
        # made with their classes, sharing one style and (unless they hide) one layout: a
        # model each, sent once
        self.style_block = html_widget(_CSS, classes=("tt-style",))
        self.title = html_widget(classes=("tt-table-title",))
        self.commit = html_widget(classes=("tt-table-commit",))
        self.locale_toggle = locale_toggle(locale)
        header = hbox([vbox([self.title, self.commit]), self.locale_toggle], classes=("tt-table-header",))
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
        self.build_sheet_area(locale)
        self.build_tray_area(locale)
        if self.is_gm:
            self.build_gm_desk()
            self.build_sessions_tab()
        self._tab_keys = [key for key, _part in TABS[self.role]]
        self.tabs = widgets.Tab(
            children=[getattr(self, part) for _key, part in TABS[self.role]],
            layout=shared_layout(),
            _dom_classes=("tt-table-tabs",),
        )
        self.tabs.observe(lambda _ch: self.show_parts(), names="selected_index")

    def _build_top(self) -> widgets.HBox:
        """The table at a glance: the fight (with a GM's *Bring into combat*) and the log."""
        combat_add = [self.combat_add] if self.combat_add is not None else []
        fight = self._tracker if self._tracker is not None else self.idle_tracker.box
        self.combat_column = vbox([fight, *combat_add], classes=("tt-table-combat",))
        return hbox([self.combat_column, self.log_column], classes=("tt-table-top",))

    def _start(self, locale: str, *, follow: bool) -> None:
        """Draw the screen in ``locale`` with the log so far, and follow the table."""
        self.locale = locale
        self.locale_toggle.observe(lambda ch: self.choose_locale(ch["new"]), names="value")
        self.add_log_entries()
        self._render_labels()
        self._unsubscribe = self.session.on_events(self._on_events)
        self.session.on_revoked(lambda: self.link_was_replaced("link_revoked"))
        self.task = self.session.follow() if follow else None

    def show_parts(self) -> None:
        """Build what the shown tab holds and is not built yet: the Dice tab's tray, the sheet
        the seat is looking at, a GM's notes, seat links and sessions."""
        self.show_tray()
        self.show_sheet()
        for key in GM_DESK_PARTS:
            if self.showing(key):
                self.build_gm_tab(key)
        if self.showing("tab_sessions"):
            self.build_sessions()

    def __getattr__(self, name: str) -> Any:
        # only for a GM's widgets not made yet (TAB_WIDGETS): make their tab, then answer
        key = TAB_WIDGETS.get(name)
        if key is None or not self.__dict__.get("is_gm") or self.__dict__.get("notes_box") is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if key == "tab_sessions":
            self.build_sessions()
        else:
            self.build_gm_tab(key)
        return self.__dict__[name]

    def showing(self, key: str) -> bool:
        """Whether the tab titled ``key`` (a key of :data:`TABS`) is the one shown."""
        return self.tabs is not None and key in self._tab_keys and self.tabs.selected_index == self._tab_keys.index(key)

    def show_tab(self, key: str) -> None:
        """Show the tab titled ``key`` (nothing when the screen has no such tab)."""
        if self.tabs is not None and key in self._tab_keys:
            self.tabs.selected_index = self._tab_keys.index(key)

    def _build_tracker(self, locale: str) -> None:
        """The combat tracker: a GM's drives the table's combat (:class:`CombatSync`); a
        player's or an observer's shows the players' view of it. Before the table's first
        fight, a player's or an observer's page shows the tracker's empty face
        (:class:`~.table_fight.IdleTracker`, a dozen models instead of sixty) and the tracker
        is built when a fight starts (or when something asks for :attr:`tracker`)."""
        s = self.session
        self._tracker_building = False  # from now on, asking for the tracker builds it
        if self.is_gm:
            self.sync.locale = locale
            self._make_tracker()
        elif s.state.combat:
            self._make_tracker()
        else:
            self.idle_tracker = IdleTracker(self.system, locale)

    @property
    def tracker(self) -> CombatTracker | None:
        """The combat tracker (a player's is built on first use: see :meth:`_build_tracker`);
        None while it is being built."""
        if self._tracker is None and not self._tracker_building:
            self._make_tracker()
            self._show_tracker()
        return self._tracker

    @property
    def built_tracker(self) -> CombatTracker | None:
        """The combat tracker if it is built (None on a player's page before the first fight)."""
        return self._tracker

    def _make_tracker(self) -> None:
        s = self.session
        self._tracker_building = True
        try:
            if self.is_gm:
                tracker = CombatTracker(
                    combat=self.sync.combat,
                    locale=self.locale,
                    audience="gm",
                    play=self.play,
                    _dom_classes=("tt-table-tracker",),
                )
            else:
                combat = Combat(self.system)
                if s.state.combat:
                    try:
                        combat_from_view(self.system, s.state.combat, into=combat)
                    except Exception:  # a bad payload must not take the page down
                        log.exception("combat state does not load")
                # players act on the combat only by attacking with their own character on its
                # turn (sent to the table, which rolls it); the play refuses every other action
                tracker = CombatTracker(
                    combat=combat,
                    locale=self.locale,
                    audience="player",
                    play=self.play,
                    _dom_classes=("tt-player-tracker", "tt-table-tracker"),
                )
            tracker.locale_toggle.layout.display = "none"  # the screen's one switch rules
        finally:
            self._tracker_building = False
        self._tracker = tracker
        if not self.is_gm:
            tracker.observe(lambda _change: self._mark_turn(), names="selected")
        self._push_into_combat()
        self._on_turn()

    def _show_tracker(self) -> None:
        """The tracker, built after the screen, takes the empty face's place."""
        idle, self.idle_tracker = self.idle_tracker, None
        column = getattr(self, "combat_column", None)
        if idle is not None and column is not None:
            column.children = [self._tracker if c is idle.box else c for c in column.children]
            idle.close()

    def _push_into_combat(self) -> None:
        """Table characters in the combat take their values from the table (sheet edits)."""
        if self._tracker is not None and push_characters(self.session, self._tracker.combat):
            self._tracker.render()

    def _on_combat_reloaded(self, combat) -> None:
        """The GM's combat was rebuilt from the log: a new tracker shows it."""
        old = self._tracker
        self._tracker = CombatTracker(
            combat=combat,
            locale=self.locale,
            audience="gm",
            play=self.play,
            _dom_classes=("tt-table-tracker",),
        )
        self.combat_column.children = [self._tracker if c is old else c for c in self.combat_column.children]
        old.close()
        self._tracker.locale_toggle.layout.display = "none"
        self._push_into_combat()

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
        """Redraw what ``events`` touched: sessions, characters, the combat, notes, options,
        attacks, the log, a replaced link, the header."""
        touched = self._touched(events)
        if any(is_kind(e, *SESSION_KINDS) for e in events):
            self._on_session_changed()
        characters = {e.payload.get("character_id") for e in events if is_kind(e, *CHARACTER_KINDS)}
        self._apply_characters(characters)
        self._apply_combat(touched, events)
        if characters:
            self._push_into_combat()
        if any(is_kind(e, NOTE) for e in events):
            self.render_notes()
        if any(is_kind(e, TABLE_OPTION) for e in events) or characters:
            self.render_players_build()
            self.open_creation_if_allowed()
        self.add_log_entries()
        reissued = [e for e in events if is_kind(e, SEAT_REISSUED) and e.payload.get("seat") == self.session.seat]
        if reissued and self.session.link_replaced():
            self.link_was_replaced()
        self._render_header()

    def _touched(self, events) -> set[str]:
        """What ``events`` did to the fight: ``"remote"`` when another writer changed the GM's
        combat (the resolver rolled a player's attack, another GM window acted), ``"public"``
        when the players' view of it changed."""
        touched = set()
        for e in events:
            if not is_kind(e, COMBAT_STATE):
                continue
            if e.audience != "gm":
                touched.add("public")
            elif not self.sync.is_own(e):
                touched.add("remote")
        return touched

    def _apply_characters(self, cids: set[str]) -> None:
        """Characters changed at the table: their models follow; a GM gets the new ones."""
        for cid in cids:
            if cid in self.models:
                self.push_model(cid)
            elif cid in self.session.state.characters and self.is_gm:
                self.add_character(cid)

    def _apply_combat(self, touched: set[str], events) -> None:
        """The combat changed at the table: a GM's tracker follows another writer's actions (the
        resolver's roll of a player's attack: the next event of its log, applied; anything else
        rebuilds it); a player's follows the players' view of it."""
        st = self.session.state
        if self.is_gm and "remote" in touched:
            current = self.sync.combat
            self.sync.follow(events)
            if self.sync.combat is current and self._tracker is not None:
                self._tracker.render()
        elif not self.is_gm and "public" in touched and st.combat:
            if self._tracker is None:  # the table's first fight: the tracker shows it
                self.tracker  # noqa: B018 - built from the table's state, in the empty face's place
                return
            combat_from_view(self.system, st.combat, into=self._tracker.combat)
            push_characters(self.session, self._tracker.combat)
            self._tracker.render()
            self._on_turn()

    def _on_turn(self) -> None:
        """A player's turn came: their character is selected (its panel shows the Attack part)
        and the table is asked for its attacks on every target it can see."""
        tracker, me = self._tracker, self.session.character_id
        if self.is_gm or tracker is None or me is None:
            return
        view = (self.session.state.combat or {}).get("state") or {}
        key = (view.get("round"), view.get("current"))
        if self.play.my_turn() and key not in self._turns_seen:
            self._turns_seen.add(key)
            if me in tracker.combat:
                tracker.selected = me
            self.play.ask_for_targets(tracker.combat)
        self._mark_turn()

    def _mark_turn(self) -> None:
        """A player's tracker shows its panel (only the Attack part) while they may attack: the
        class ``tt-your-attack`` says so to the page's style."""
        t = self._tracker
        if t is None or self.is_gm:
            return
        if self.play.my_turn() and t.selected == self.session.character_id:
            t.add_class("tt-your-attack")
        else:
            t.remove_class("tt-your-attack")

    def _on_session_changed(self) -> None:
        """A session ended or started: every seat is told (the status line), the GM's sessions
        tab is redrawn, and the tray's buttons follow."""
        st = self.session.state
        now = (st.session, st.session_open)
        if now == self._session_seen or st.closed:
            self._session_seen = now
            self.render_sessions(reverify=True)
            self.render_transcripts()
            return
        self._session_seen = now
        self.render_transcripts()
        key = "session_ended_status" if not st.session_open else "session_started_status"
        self._message = ("info", {loc: _t(key, loc, n=st.session, **gm_words(self.system, loc)) for loc in LOCALES})
        self._render_status()
        self.render_sessions(reverify=True)
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
        self.relabel_sheets(loc)
        if self.tabs is not None:
            for i, key in enumerate(self._tab_keys):
                title = (
                    term_of(self.system, "dice", loc)
                    if key == "tab_dice"
                    else _t(key, loc, **gm_words(self.system, loc))
                )
                self.tabs.set_title(i, title)
        self.relabel_tray(loc)
        if self.chat is not None:
            self.chat.relabel(loc)
        if self.idle_tracker is not None:
            self.idle_tracker.relabel(loc)
        self.relabel_gm_desk(loc)
        self.render_sessions()
        self.render_transcripts()
        self.render_creation()
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


def show_table(session, locale: str | None = None, **kwargs: Any) -> TableView:
    """The seat's screen for ``session``; the notebook displays the returned widget."""
    return TableView(session, locale=locale, **kwargs)


__all__ = ["TableView", "creation_wizard", "seat_error_page", "show_table"]
