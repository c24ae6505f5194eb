"""Each part of a seat's table page built alone, from its explicit inputs (no TableView around it):
the log, the GM's Sessions tab, the GM's desk, the tray, the characters and the fight. And the page
itself is a composition of them, not a stack of mixins. What the page as a whole does is in
test_table_view*.py."""

from __future__ import annotations

import ipywidgets as widgets
from helpers import frontend_click, frontend_update

from tabletop_widgets.table import TablePlay
from tabletop_widgets.widgets.table_chat import TEXTS as CHAT_TEXTS
from tabletop_widgets.widgets.table_fight import IdleTracker, TableFight
from tabletop_widgets.widgets.table_gm import GmDesk
from tabletop_widgets.widgets.table_log import TableLog
from tabletop_widgets.widgets.table_parts import PART_NAMES
from tabletop_widgets.widgets.table_sessions import SessionsTab
from tabletop_widgets.widgets.table_sheets import SheetsArea
from tabletop_widgets.widgets.table_texts import TEXTS
from tabletop_widgets.widgets.table_tray import TrayArea
from tabletop_widgets.widgets.table_view import TableView

PARTS = (SheetsArea, TrayArea, GmDesk, SessionsTab, TableLog, TableFight)


class StatusLine:
    """The two status-line callbacks a part raises, recorded."""

    def __init__(self):
        self.said: list = []

    def say(self, kind, text):
        self.said.append((kind, dict(text) if text else None))

    def refused(self, exc):
        self.said.append(("refused", exc))

    def kw(self):
        return {"say": self.say, "refused": self.refused}


# -- the page is a composition root ----------------------------------------------------------
def test_the_table_view_has_no_mixin_bases():
    assert TableView.__bases__ == (widgets.VBox,)
    assert not any(part in TableView.__mro__ for part in PARTS)
    assert all(not issubclass(part, widgets.Widget) for part in PARTS)  # plain objects


def test_the_views_names_are_its_parts(table):
    gm, p1, obs = table.view("gm"), table.view("p1"), table.view("o1")
    assert gm.roll_log is gm.log_area.roll_log and gm.log_column is gm.log_area.box
    assert gm.models is gm.sheets_area.models and gm.tray_box is gm.tray_area.tray_box
    assert gm.notes_box is gm.gm_desk.notes_box and gm.sessions_box is gm.sessions_tab.box
    assert gm.combat_column is gm.fight.column and gm.tracker is gm.fight.built_tracker
    assert gm.session_end_button is gm.sessions_tab.session_end_button  # built when asked for
    assert p1.gm_desk is None and p1.notes_box is None
    assert p1.sessions_box is p1.sessions_tab.box and obs.sessions_tab is None  # a player's: their Luck only
    assert not hasattr(p1, "players_build") and not hasattr(p1, "session_end_button")
    assert obs.tray_area is None and obs.tray is None and obs.hidden_toggle is None
    assert all(name in dir(TableView) for names in PART_NAMES.values() for name in names)


# -- TableLog ----------------------------------------------------------------------------------
def test_the_log_area_works_from_a_session_and_its_texts(table):
    gm, p1 = table.session("gm"), table.session("p1")
    status = StatusLine()
    area = TableLog(p1, "en", **status.kw())
    assert "tt-table-log-column" in area.box._dom_classes and area.chat is not None
    assert area.roll_log.entries == []
    gm.say("The door creaks open")
    p1.poll()
    area.add_entries()
    assert any("The door creaks open" in e.text() for e in area.roll_log.entries)
    area.add_entries()  # nothing new: nothing added twice
    assert sum("creaks" in e.text() for e in area.roll_log.entries) == 1
    # the chat raises the status line's callbacks it was given
    frontend_click(area.chat.send)
    assert status.said == [("error", CHAT_TEXTS["empty"])]
    frontend_update(area.chat.text, value="I listen")
    frontend_click(area.chat.send)
    assert status.said[-1] == (None, None) and area.chat.text.value == ""
    area.relabel("ru")
    assert area.chat.send.description == "Отправить"
    observer = TableLog(table.session("o1"), "en", **StatusLine().kw())
    assert observer.chat is None


def test_the_log_area_links_the_transcripts_of_ended_sessions(table):
    gm = table.session("gm")
    area = TableLog(gm, "en", **StatusLine().kw())
    area.render_transcripts()
    assert area.transcripts.value == ""
    gm.end_session()
    area.render_transcripts()
    assert "tt-transcript-md" in area.transcripts.value and 'data-session="1"' in area.transcripts.value


# -- SessionsTab -------------------------------------------------------------------------------
def test_the_sessions_tab_is_built_when_asked_and_ends_a_session(table):
    gm = table.session("gm")
    status = StatusLine()
    tab = SessionsTab(gm, "en", **status.kw())
    assert not tab.built and tab.box.children == ()
    assert not tab.session_end_button.disabled and tab.built  # asking for a widget builds it
    tab.ask_session("end")
    assert tab.session_confirm.layout.display is None
    assert tab.confirm_session() is not None and not gm.session_open
    assert tab.session_start_button.disabled is False and tab.session_end_button.disabled is True


def test_the_sessions_tab_refuses_a_seat_that_may_not_manage_sessions(table):
    p1 = table.session("p1")
    status = StatusLine()
    tab = SessionsTab(p1, "en", **status.kw())
    tab.ask_session("end")
    assert status.said == [("error", TEXTS["not_allowed"])] and p1.session_open


# -- GmDesk ------------------------------------------------------------------------------------
def test_the_gm_desk_writes_notes_and_brings_characters_through_its_callback(table):
    gm = table.session("gm")
    status, brought = StatusLine(), []
    desk = GmDesk(
        gm,
        "en",
        characters=[("Aria", "c1"), ("Boris", "c2")],
        add_to_combat=lambda cid, hidden: brought.append((cid, hidden)) or "added",
        **status.kw(),
    )
    assert not desk.gm_tab_built("notes")
    assert desk.add_note("The goblin has the key", "Secret") is not None
    assert desk.gm_tab_built("notes") is False  # a note written without its tab
    desk.render_notes()  # nothing to draw while the tab is not built
    desk.note_text  # noqa: B018 - asking for a widget builds its tab
    assert desk.gm_tab_built("notes") and "The goblin has the key" in desk.notes_list.value
    assert desk.bring_into_combat("c2", hidden=True) == "added" and brought == [("c2", True)]
    desk.set_characters([("Aria", "c1")])
    assert desk.combat_pick.options == (("Aria", "c1"),)
    desk.relabel("ru")
    assert desk.note_button.description != "Add note" and desk.locale == "ru"


def test_the_gm_desk_refuses_a_players_seat(table):
    status = StatusLine()
    desk = GmDesk(table.session("p1"), "en", characters=[], add_to_combat=lambda *_: None, **status.kw())
    assert desk.add_note("forged") is None and desk.reissue_link("p2") is None
    assert status.said == [("error", TEXTS["not_allowed"])] * 2


# -- TrayArea ----------------------------------------------------------------------------------
def test_the_tray_area_builds_its_tray_when_shown(table):
    p1 = table.session("p1")
    play = TablePlay(p1)
    model = p1.system.Character.from_dict(p1.state.characters["c1"])
    shown = [False]
    area = TrayArea(p1, play, models={"c1": model}, characters=[], locale="en", animate=False, shown=lambda: shown[0])
    assert area.roll_for is None and area.hidden_toggle is None and not area.hidden_wanted()
    area.show_tray()
    assert area.built_tray is None
    shown[0] = True
    area.show_tray()
    assert area.built_tray is not None and area.tray.character is model
    assert area.tray_box.children == (area.tray_bar, area.roll_tables.box, area.tray)


# -- SheetsArea --------------------------------------------------------------------------------
def test_the_sheets_area_holds_the_seats_models_and_builds_a_sheet_on_use(table):
    p1 = table.session("p1")
    play = TablePlay(p1)
    shown, opened, guided, added = [False], [], [], []
    area = SheetsArea(
        p1,
        play,
        locale="ru",
        shown=lambda: shown[0],
        show_tab=lambda: opened.append(True),
        guide=lambda cid: guided.append(cid) or widgets.HTML(),
        on_added=added.append,
        **StatusLine().kw(),
    )
    assert list(area.models) == ["c1"] and area.characters() == [(area.character_name("c1"), "c1")]
    area.build_area()
    area.show_sheet()
    assert area.sheets == {}  # its tab is not shown
    shown[0] = True
    area.show_sheet()
    assert area.sheets["c1"].locale == "ru" and area.sheet("c1") is area.sheets["c1"]
    area.follow({"c2"})  # a player's page never gets another player's character
    assert list(area.models) == ["c1"] and added == []


# -- TableFight --------------------------------------------------------------------------------
def test_a_players_fight_shows_the_idle_face_until_the_tracker_is_asked_for(table):
    p1 = table.session("p1")
    fight = TableFight(p1, TablePlay(p1), sync=None, locale="en")
    assert isinstance(fight.idle_tracker, IdleTracker) and fight.built_tracker is None
    column = fight.build_column([])
    assert column.children == (fight.idle_tracker.box,)
    tracker = fight.tracker
    assert fight.idle_tracker is None and column.children == (tracker,)
    assert fight.touched([]) == set()
