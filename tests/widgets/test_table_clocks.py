"""The progress clocks on the seats' pages (issue 34, part 2): the GM's Clocks tab makes and ticks
them, every page draws what its seat may see as SVG pie segments, and a player's widgets never
hold a known clock's name or fill, nor anything of a secret clock."""

from __future__ import annotations

import re

from helpers import frontend_click, frontend_update
from test_table_view import classes, synced_text

from tabletop_widgets.widgets.table_clocks import clock_face, clock_svg

KNOWN, SECRET = "Zqknowndoom", "Zqsecretplot"


def open_clocks_tab(gm):
    frontend_update(gm.tabs, selected_index=gm._tab_keys.index("tab_clocks"))
    assert gm.clocks.built


def add(gm, name, segments, shows):
    frontend_update(gm.clocks.name, value=name)
    frontend_update(gm.clocks.segments, index=list(gm.clocks.segments.options).index(segments))
    frontend_update(gm.clocks.shows, index=[v for _, v in gm.clocks.shows.options].index(shows))
    frontend_click(gm.clocks.add_button)


def pick(gm, clock_id):
    frontend_update(gm.clocks.pick, index=[v for _, v in gm.clocks.pick.options].index(clock_id))


def faces(view) -> list[str]:
    return re.findall(r'<div class="tt-clock[ "].*?</svg>', view.clocks.faces.value)


def test_the_svg_is_a_pie_of_its_segments_filled_clockwise():
    svg = clock_svg(6, 2, label="Clock «A»: 2 of 6")
    assert svg.count("<path") == 6 and svg.count("tt-clock-on") == 2
    assert 'role="img"' in svg and 'aria-label="Clock «A»: 2 of 6"' in svg
    blank = clock_svg(8, None, label="A hidden clock")
    assert blank.count("<path") == 8 and "tt-clock-on" not in blank and ">?</text>" in blank
    face = clock_face({"id": "x", "segments": 4, "visibility": "known"}, "ru", gm=False)
    assert "Скрытые часы" in face and "4 сегмента" in face


def test_the_gm_makes_and_ticks_clocks_and_every_page_follows(table):
    gm, p1, o1 = table.view("gm"), table.view("p1"), table.view("o1")
    assert gm.clocks.faces.layout.display == "none" and not gm.clocks.built  # nothing yet, tab unbuilt
    open_clocks_tab(gm)
    add(gm, "Alarm", 6, "open")
    add(gm, KNOWN, 8, "known")
    add(gm, SECRET, 4, "secret")
    assert gm.clocks.name.value == "" and len(gm.session.clocks()) == 3
    ids = [c["id"] for c in gm.session.clocks()]
    pick(gm, ids[0])
    frontend_click(gm.clocks.up_button)
    frontend_click(gm.clocks.up_button)
    pick(gm, ids[1])
    for _ in range(3):
        frontend_click(gm.clocks.up_button)
    assert [c["filled"] for c in gm.session.clocks()] == [2, 3, 0]
    assert len(faces(gm)) == 3 and "players see the circle" in gm.clocks.faces.value
    for view in (p1, o1):
        view.session.poll()
        drawn = faces(view)
        assert len(drawn) == 2 and view.clocks.faces.layout.display != "none"
        assert drawn[0].count("tt-clock-on") == 2 and "Alarm" in drawn[0] and "2 of 6" in drawn[0]
        assert "tt-clock-hidden" in drawn[1] and "tt-clock-on" not in drawn[1] and "8 segments" in drawn[1]
        text = synced_text(view)
        assert KNOWN not in text and SECRET not in text and "3 of 8" not in text
        assert any("Clock «Alarm»" in e.text() for e in view.roll_log.entries)


def test_a_player_s_page_has_no_clock_controls_and_a_forged_call_is_refused(table):
    gm, p1 = table.view("gm"), table.view("p1")
    clock = gm.session.add_clock("Alarm", 4)
    p1.session.poll()
    assert "tab_clocks" not in p1._tab_keys and p1.clocks.tab_box is None
    assert not {"tt-clock-add", "tt-clock-up", "tt-gm-clocks"} & classes(p1)
    before = p1.session.store.head(table.made.table_id).version
    p1.clocks.tick(1, clock)  # a forged call on a player's page
    assert "Only the GM keeps the clocks" in p1.status.value
    p1.clocks.add("Mine", 4, "open")
    assert p1.session.store.head(table.made.table_id).version == before


def test_a_full_clock_says_full_and_remove_asks_once_more(table):
    gm, p1 = table.view("gm"), table.view("p1")
    open_clocks_tab(gm)
    add(gm, "Tide", 2, "open")
    frontend_click(gm.clocks.up_button)
    frontend_click(gm.clocks.up_button)
    assert "full" in gm.clocks.faces.value
    frontend_click(gm.clocks.up_button)
    assert "is full: 2 of 2" in gm.status.value
    frontend_click(gm.clocks.remove_button)
    assert gm.clocks.remove_button.description.startswith("Remove it?") and gm.session.clocks()
    frontend_click(gm.clocks.remove_button)
    assert gm.session.clocks() == [] and gm.clocks.faces.layout.display == "none"
    p1.session.poll()
    assert p1.clocks.faces.value == "" and p1.session.clocks() == []


def test_the_gm_reveals_a_known_clock_from_the_picker(table):
    gm, p1 = table.view("gm"), table.view("p1")
    open_clocks_tab(gm)
    add(gm, KNOWN, 8, "known")
    frontend_click(gm.clocks.up_button)
    p1.session.poll()
    assert KNOWN not in synced_text(p1)
    frontend_update(gm.clocks.pick_shows, index=[v for _, v in gm.clocks.pick_shows.options].index("open"))
    assert gm.session.clocks()[0]["visibility"] == "open"
    p1.session.poll()
    assert KNOWN in p1.clocks.faces.value and "1 of 8" in p1.clocks.faces.value


def test_bad_input_from_the_form_is_said_and_nothing_is_made(table):
    gm = table.view("gm")
    open_clocks_tab(gm)
    add(gm, "   ", 4, "open")
    assert "Give the clock a name" in gm.status.value
    gm.clocks.add("Alarm", 13, "open")  # a forged value the picker does not offer
    assert "2 to 12 segments" in gm.status.value
    gm.clocks.add("x" * 5000, 4, "open")
    assert "too long" in gm.status.value
    assert gm.session.clocks() == []


def test_the_clocks_speak_the_page_s_language(table):
    gm = table.view("gm")
    open_clocks_tab(gm)
    add(gm, "Alarm", 6, "known")
    gm.choose_locale("ru")
    assert gm.tabs.get_title(gm._tab_keys.index("tab_clocks")) == "Часы"
    assert gm.clocks.add_button.description == "Добавить часы"
    assert "0 из 6" in gm.clocks.faces.value and "игроки видят круг" in gm.clocks.faces.value
    assert [label for label, _ in gm.clocks.shows.options] == ["видно всё", "пустой круг", "ничего (тайные)"]
