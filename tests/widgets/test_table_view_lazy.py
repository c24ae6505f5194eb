"""A table page builds each character's sheet when it is first shown (issue 21: page speed).

A sheet is hundreds of widgets, and a seat's screen opens on the Dice tab: building every
character's sheet up front made the GM's page the slowest of all, and half a player's page. The sheets are built when the
GM opens the Characters tab (the selected character's only) and when another character's tab is
picked; what the browser sends is checked (an index out of range builds nothing).
"""

from __future__ import annotations

import pytest
from test_table_view import classes, frontend_update

from tabletop_widgets.table.seats import set_table_option
from tabletop_widgets.widgets.sheet import CharacterSheet


def test_the_gm_page_opens_without_building_any_sheet(table):
    gm = table.view("gm")
    assert gm.sheets == {}
    assert gm.tabs.selected_index == 0  # the Dice tab
    assert [gm.sheet_tabs.get_title(i) for i in range(2)] == ["Aria", "Boris"]
    assert "tt-sheet" not in classes(gm) and "tt-table-sheet-slot" in classes(gm)


def test_opening_the_characters_tab_builds_the_selected_sheet_only(table):
    gm = table.view("gm")
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("sheets"))
    assert list(gm.sheets) == ["c1"]
    sheet = gm.sheets["c1"]
    assert isinstance(sheet, CharacterSheet) and sheet.character is gm.models["c1"]
    assert gm.sheet_tabs.children[0].children == (sheet,)
    assert sheet.locale_toggle.layout.display == "none"  # one language switch per screen
    assert "tt-sheet" in classes(gm)
    frontend_update(gm.sheet_tabs, selected_index=1)
    assert list(gm.sheets) == ["c1", "c2"]
    assert gm.sheet_tabs.children[1].children == (gm.sheets["c2"],)
    frontend_update(gm.sheet_tabs, selected_index=0)  # shown again: the same sheet, not a new one
    assert gm.sheet_tabs.children[0].children == (sheet,)


def test_picking_a_character_tab_while_another_tab_is_open_builds_nothing(table):
    gm = table.view("gm")
    frontend_update(gm.sheet_tabs, selected_index=1)
    assert gm.sheets == {}


def test_a_forged_index_builds_nothing(table):
    gm = table.view("gm")
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("sheets"))
    before = dict(gm.sheets)
    for bad in (7, -1, "0", None):
        try:
            frontend_update(gm.sheet_tabs, selected_index=bad)
        except Exception:  # noqa: BLE001 - refused by the Tab's own validation: fine too
            pass
        assert gm.sheets == before


def test_a_sheet_edit_in_a_lazily_built_sheet_reaches_the_table(table):
    gm = table.view("gm")
    sheet = gm.sheet("c2")
    gm.models["c2"].name = "Boris the Bold"
    assert gm.session.state.characters["c2"]["name"] == "Boris the Bold"
    assert sheet.character.name == "Boris the Bold"


def test_a_character_added_later_gets_a_tab_and_a_sheet_when_shown(table):
    gm = table.view("gm")
    other = table.view("gm")
    other.session.update_character("c3", dict(table.system.Character().to_dict(), name="Cleo"))
    gm.session.poll()
    assert len(gm.sheet_tabs.children) == 3 and gm.sheet_tabs.get_title(2) == "Cleo"
    assert "c3" not in gm.sheets
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("sheets"))
    frontend_update(gm.sheet_tabs, selected_index=2)
    assert gm.sheets["c3"].character.name == "Cleo"


def test_a_players_sheet_is_built_when_their_tab_is_opened(table):
    # (a character being created opens on the creation wizard when players make their own; here
    # the GM prepares it, so the page opens on the Dice tab)
    set_table_option(table.session("gm"), "players_build", False)
    p1 = table.view("p1")
    assert p1.sheets == {} and "tt-sheet" not in classes(p1)
    frontend_update(p1.tabs, selected_index=p1._tab_keys.index("your_sheet"))
    assert list(p1.sheets) == ["c1"] and "tt-sheet" in classes(p1)
    assert p1.sheets["c1"].character is p1.models["c1"]
    with pytest.raises(KeyError):
        p1.sheet("c2")  # not this seat's character


# ---------------------------------------------------------------------------------------------
# a GM's Notes, Seat links and Sessions tabs: built when first shown
# ---------------------------------------------------------------------------------------------
def test_the_gm_page_opens_without_its_notes_seats_and_sessions(table, monkeypatch):
    import tabletop_widgets.table as table_layer

    verified = []
    real = table_layer.session_reports
    monkeypatch.setattr(table_layer, "session_reports", lambda *a, **k: verified.append(1) or real(*a, **k))
    gm = table.view("gm")
    assert not gm.gm_tab_built("notes") and not gm.gm_tab_built("tab_seats") and not gm.sessions_built
    assert gm.notes_box.children == () and gm.seats_box.children == () and gm.sessions_box.children == ()
    assert {"tt-note-list", "tt-seat-reissue", "tt-session-list"}.isdisjoint(classes(gm))
    assert verified == []  # no session verified before the tab is shown
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("tab_sessions"))
    assert gm.sessions_built and verified == [1] and "Session 1" in gm.session_list.value
    assert not gm.gm_tab_built("notes")  # the others still wait


def test_a_tab_built_later_shows_the_table_as_it_is_then_and_follows_it(table):
    gm, other = table.view("gm", locale="ru"), table.view("gm")
    other.add_note("The goblin has the key", "Secret")
    other.players_build.value = False  # (the other GM page's box: built when asked for)
    other.session.end_session()
    gm.session.poll()
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("notes"))
    assert "The goblin has the key" in gm.notes_list.value and gm.note_button.description == "Добавить заметку"
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("tab_seats"))
    assert gm.players_build.value is False and "Pat" in str(gm.seat_pick.options)
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("tab_sessions"))
    assert gm.session_end_button.disabled and not gm.session_start_button.disabled  # ended elsewhere
    # and they follow the table from then on
    other.add_note("The door is trapped")
    set_table_option(other.session, "players_build", True)
    gm.session.poll()
    assert "The door is trapped" in gm.notes_list.value and gm.players_build.value is True
    gm.locale = "en"
    assert gm.note_button.description == "Add note"


def test_a_gm_widget_asked_for_builds_its_tab_and_a_player_has_none(table):
    gm, p1 = table.view("gm"), table.view("p1")
    assert gm.reissue_button.description  # asked for: the Seat links tab is built, labelled
    assert gm.gm_tab_built("tab_seats") and not gm.gm_tab_built("notes")
    for name in ("notes_list", "seat_pick", "session_list", "players_build"):
        assert not hasattr(p1, name), name
    with pytest.raises(AttributeError):
        gm.no_such_widget  # noqa: B018
