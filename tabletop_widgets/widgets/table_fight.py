"""The fight on a seat's table page: :class:`TableFight`, the combat tracker the page shows
(a GM's drives the table's combat, a player's or an observer's shows the players' view of it),
and :class:`IdleTracker`, the tracker's empty face on a player's or an observer's page before the
table's first fight.

A player's tracker before any fight shows only its title, *Not started* and a line saying that the
GM brings the combatants in; the tracker itself is about sixty widget models (its toolbar, panel
and forms exist, hidden by the page's style, for when a fight runs). The page shows this face
instead, with the tracker's own texts, classes and style, and builds the tracker when the first
fight comes (:class:`~.table_view.TableView`). It holds no combat and has no control: nothing on
it acts.

:class:`TableFight` is built from the seat's session, its play, the GM's combat sync (None on
other seats' pages) and the screen's language; the screen hands it the new events that touched
the fight (:meth:`TableFight.follow`) and tells it when the table's characters or the language
changed.
"""

from __future__ import annotations

import html
import logging
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import COMBAT_STATE, combat_from_view, is_kind, push_characters

from .base import close_tree, text_lookup
from .sheet_context import hbox, html_widget, vbox
from .tracker import CombatTracker
from .tracker_text import TEXTS as TRACKER_TEXTS

log = logging.getLogger(__name__)

_t = text_lookup(TRACKER_TEXTS)

_CSS = stylesheet("tracker")  # the tracker's own style: the face looks as the tracker does


class IdleTracker:
    """A combat tracker's face with no fight, as a player's tracker draws it: ``box`` (classes
    ``tt-tracker tt-table-tracker tt-player-tracker tt-idle-tracker``) holds the title (``title``),
    the round line (``round_label``), the note (``empty_note``) and the tracker's empty list,
    status and log. :meth:`relabel` draws it in a language."""

    def __init__(self, system, locale: str):
        self.system = system
        self.title = html_widget(classes=("tt-tracker-title",))
        self.round_label = html_widget(classes=("tt-round",))
        self.empty_note = html_widget(classes=("tt-empty",))
        self.box = vbox(
            [
                html_widget(_CSS, classes=("tt-style",)),
                hbox([self.title, self.round_label], classes=("tt-tracker-header",)),
                self.empty_note,
                vbox(classes=("tt-combatants",)),
                html_widget(classes=("tt-tracker-status", "tt-live")),
                html_widget(classes=("tt-tracker-log",)),
            ],
            classes=("tt-tracker", "tt-player-tracker", "tt-table-tracker", "tt-idle-tracker"),
        )
        self.relabel(locale)

    def relabel(self, loc: str) -> None:
        """The face in ``loc``, worded as the tracker words it for a seat that watches."""
        system = self.system
        self.title.value = (
            f'<h2>{_t("title", loc)} <span class="tt-system">· {html.escape(tr(system.title, loc))}</span></h2>'
        )
        self.round_label.value = f'<span class="tt-round-box tt-idle">{_t("not_started", loc)}</span>'
        text = _t("empty_watch", loc).replace("{gm}", term_of(system, "gm", loc))
        self.empty_note.value = f"<i>{html.escape(text)}</i>"

    def close(self) -> None:
        close_tree(self.box)


class TableFight:
    """The fight on a seat's page: ``column`` (class ``tt-table-combat``, made by
    :meth:`build_column`) shows the combat tracker (:attr:`tracker`) or, on a player's or an
    observer's page before the table's first fight, its empty face (``idle_tracker``, a dozen
    models instead of sixty); the tracker is built when a fight starts, or when something asks
    for :attr:`tracker`.

    Parameters
    ----------
    session, play :
        The seat's ``TableSession`` and the play the tracker acts through.
    sync : CombatSync or None
        The GM's combat (the table's fair dice); None on other seats' pages.
    locale : str
        The language it is built in (:meth:`relabel` switches it).
    """

    def __init__(self, session: Any, play: Any, *, sync: Any, locale: str, on_changed: Callable[[], Any] | None = None):
        self.session = session
        #: called after every change of a GM's combat (who is in it: *Bring into combat*)
        self.on_changed = on_changed
        self._unobserve: Callable[[], Any] | None = None
        self.system = session.system
        self.play = play
        self.sync = sync
        self.is_gm = session.role == "gm"
        self.locale = locale
        self.column: widgets.VBox | None = None
        self._tracker: CombatTracker | None = None
        #: a player's or an observer's empty tracker before the table's first fight (then None)
        self.idle_tracker: IdleTracker | None = None
        self._turns_seen: set = set()
        if self.is_gm:
            sync.locale = locale
            self._make_tracker()
        elif session.state.combat:
            self._make_tracker()
        else:
            self.idle_tracker = IdleTracker(self.system, locale)

    def build_column(self, below: list) -> widgets.VBox:
        """``column``: the fight, with ``below`` under it (a GM's *Bring into combat*)."""
        fight = self._tracker if self._tracker is not None else self.idle_tracker.box
        self.column = vbox([fight, *below], classes=("tt-table-combat",))
        return self.column

    @property
    def tracker(self) -> CombatTracker:
        """The combat tracker (a player's is built on first use, in the empty face's place)."""
        if self._tracker is None:
            self._make_tracker()
            self._show_tracker()
        return self._tracker

    @property
    def built_tracker(self) -> CombatTracker | None:
        """The combat tracker if it is built (None on a player's page before the first fight)."""
        return self._tracker

    def _make_tracker(self) -> None:
        s = self.session
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
        self._tracker = tracker
        if self.is_gm:
            self._observe(tracker.combat)
        if not self.is_gm:
            tracker.observe(lambda _change: self._mark_turn(), names="selected")
        self.push_characters()
        self._on_turn()

    def _show_tracker(self) -> None:
        """The tracker, built after the screen, takes the empty face's place."""
        idle, self.idle_tracker = self.idle_tracker, None
        column = self.column
        if idle is not None and column is not None:
            column.children = [self._tracker if c is idle.box else c for c in column.children]
            idle.close()

    def push_characters(self) -> None:
        """Table characters in the combat take their values from the table (sheet edits)."""
        if self._tracker is not None and push_characters(self.session, self._tracker.combat):
            self._tracker.render()

    def add(self, cid: str, hidden: bool):
        """GM: put table character ``cid`` into the combat (``hidden`` from the players)."""
        character, name = self.sync.table_character(cid)
        return self.tracker.add_combatant(character, name=name, cid=cid, hidden=hidden)

    def _observe(self, combat) -> None:
        """Follow the GM's ``combat`` (one at a time): each change is told to ``on_changed``."""
        if self._unobserve is not None:
            self._unobserve()
        self._unobserve = combat.observe(lambda _event: self._changed())

    def _changed(self) -> None:
        if self.on_changed is not None:
            self.on_changed()

    def in_combat(self) -> frozenset[str]:
        """The ids in the GM's fight (none before one is built, or on another seat's page)."""
        return frozenset(self._tracker.combat.ids) if self.is_gm and self._tracker is not None else frozenset()

    def reloaded(self, combat) -> None:
        """The GM's combat was rebuilt from the log: a new tracker shows it."""
        old = self._tracker
        self._observe(combat)
        self._tracker = CombatTracker(
            combat=combat,
            locale=self.locale,
            audience="gm",
            play=self.play,
            _dom_classes=("tt-table-tracker",),
        )
        self.column.children = [self._tracker if c is old else c for c in self.column.children]
        old.close()
        self._tracker.locale_toggle.layout.display = "none"
        self.push_characters()
        self._changed()

    def follow(self, touched: set[str], events) -> None:
        """The combat changed at the table (``touched``: what :meth:`touched` found in
        ``events``): a GM's tracker follows another writer's actions (the resolver's roll of a
        player's attack: the next event of its log, applied; anything else rebuilds it); a
        player's follows the players' view of it."""
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

    def touched(self, events) -> set[str]:
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

    def relabel(self, loc: str) -> None:
        """The empty face in ``loc`` (the tracker follows its own ``locale``, which the screen
        sets)."""
        self.locale = loc
        if self.idle_tracker is not None:
            self.idle_tracker.relabel(loc)


__all__ = ["IdleTracker", "TableFight"]
