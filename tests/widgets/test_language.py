"""One switch, one language (issue #19): the page's language and its one EN/RU control; a
table seat remembers its language; the log, the screen-reader text and a roll's tags follow it.

Front-end messages are forged the way a browser sends them (``frontend_update``)."""

from __future__ import annotations

import re

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import EventError
from tabletop_widgets.widgets import (
    CharacterSheet,
    CombatTracker,
    DiceTray,
    RollLog,
    language_switch,
    page_language,
)
from tabletop_widgets.widgets.language import prose_style
from tabletop_widgets.widgets.lobby import sample_character

from test_table_view import frontend_update

RET = get_system("ret")


def play_page(**kw):
    """A play page's widgets: a sheet, a tray writing to a log, a tracker with the hero."""
    hero = sample_character(RET, "Vera")
    log = RollLog(**kw)
    sheet = CharacterSheet(hero, **kw)
    tray = DiceTray(hero, log=log, animate=False, seed=3, **kw)
    tracker = CombatTracker(RET, **kw)
    tracker.combat.add("hero", hero)
    return [sheet, tray, tracker, log]


def toggles(widgets_):
    return [w.locale_toggle for w in widgets_ if hasattr(w, "locale_toggle")]


def test_every_widget_made_without_a_locale_follows_the_page():
    page = play_page()
    own = CharacterSheet(sample_character(RET, "Olga"), locale="en")  # a language of its own
    page_language().locale = "ru"
    assert [w.locale for w in page] == ["ru"] * 4
    assert own.locale == "en"
    assert "Лоток" in page[1].title.value and "Бой" in page[2].title.value
    page_language().locale = "en"
    assert [w.locale for w in page] == ["en"] * 4


def test_the_page_switch_is_one_control_that_switches_everything():
    page = play_page()
    own = DiceTray(sample_character(RET, "Olga"), locale="en", animate=False)
    assert all(t.layout.display != "none" for t in toggles(page))  # no page switch yet
    switch = language_switch()
    assert language_switch() is switch  # one per page
    assert "tt-language-switch" in switch._dom_classes
    # the widgets following the page drop their own toggles; a widget of its own keeps its own
    assert all(t.layout.display == "none" for t in toggles(page))
    assert own.locale_toggle.layout.display != "none"
    frontend_update(switch.toggle, index=1)  # one click on RU
    assert [w.locale for w in page] == ["ru"] * 4 and own.locale == "en"
    # the prose: the other language's blocks are hidden by the switch's style
    assert ".tt-lang-en" in switch.style_block.value and ".tt-lang-ru" not in switch.style_block.value
    assert switch.style_block.value == prose_style("ru")
    # a widget made after the switch follows it and shows no toggle of its own
    later = CombatTracker(RET)
    assert later.locale == "ru" and later.locale_toggle.layout.display == "none"
    frontend_update(switch.toggle, value="xx")  # a forged value changes nothing
    assert page_language().locale == "ru" and switch.toggle.value == "ru"


def test_without_a_page_switch_any_widgets_toggle_switches_the_page():
    page = play_page()
    frontend_update(page[1].locale_toggle, index=1)  # the tray's own toggle
    assert [w.locale for w in page] == ["ru"] * 4
    assert all(t.value == "ru" for t in toggles(page))


def test_log_entries_the_screen_reader_text_and_tags_follow_the_language():
    hero = RET.Character(
        name="Vera",
        abilities=[dict(name="Medicine", kind="skill", base_param="education", level=3, category="support")],
    )
    log = RollLog()
    tray = DiceTray(hero, log=log, animate=False, seed=3)
    tray.roll_check("skill:Medicine")
    assert "[skill]" in log.entries[-1].text("en")
    page_language().locale = "ru"
    line = log.entries[-1].text("ru")
    assert "[навык]" in line and "[skill]" not in line
    assert tray.announcement.startswith("Vera: Навык: Medicine:")  # what a screen reader says
    assert "пройдена" in tray.announcement
    assert "[навык]" in tray.result_view.value and "[skill]" not in tray.result_view.value


# ---------------------------------------------------------------------------------------------
# at a table: one switch per screen, remembered for the seat
# ---------------------------------------------------------------------------------------------
def test_the_seat_remembers_its_language(table):
    p1 = table.view("p1")
    assert p1.locale == "en"
    frontend_update(p1.locale_toggle, index=1)  # Pat switches to Russian
    assert p1.locale == p1.tray.locale == p1.tracker.locale == p1.roll_log.locale == "ru"
    assert page_language().locale == "ru"  # anything else on the page follows too
    # Pat opens the link again (a new kernel): Russian; Quinn's seat still opens in English
    page_language().locale = "en"
    again = table.view("p1")
    assert again.locale == "ru" and again.tray.locale == "ru"
    assert table.view("p2").locale == "en"
    assert table.view("p1", locale="en").locale == "en"  # a ?locale= in the link wins
    frontend_update(again.locale_toggle, value="xx")  # forged: nothing written, nothing changed
    assert again.locale == "ru"
    langs = [e for e in again.session.events() if e.kind == "seat.locale"]
    assert [(e.actor, e.payload["locale"]) for e in langs] == [("p1", "ru")]


def test_a_seat_cannot_choose_another_seats_language(table):
    from tabletop_widgets.table.seats import seat_locale

    p2 = table.session("p2")
    p2.record("seat.locale", {"locale": "ru"}, audience="all")  # "for p1", as far as p2 can say
    p1 = table.session("p1")
    assert seat_locale(p1) is None and seat_locale(table.session("p2")) == "ru"
    with pytest.raises(EventError, match="unknown field"):  # there is no "for whom" to forge
        p2.record("seat.locale", {"locale": "ru", "seat": "p1"}, audience="all")


def test_table_log_entries_follow_the_readers_language(table):
    gm, p1 = table.view("gm"), table.view("p1")
    p1.tray.roll_check(p1.tray.checks[0].id)  # Pat rolls in English
    p1.tray.roll("2d6+100")
    gm.session.poll()
    gm.locale = "ru"
    check, roll = gm.roll_log.entries[-2:]
    assert any(word in check.text("ru") for word in ("успех", "провал", "пройден")), check.text("ru")
    assert " pass " not in check.text("ru") and " fail " not in check.text("ru")
    assert "2d6+100" in roll.text("ru")


def test_table_log_effects_name_the_trait_as_the_sheet_does(table):
    gm = table.view("gm")
    # a RET fail (a natural 1) gives Luck: roll Aria's Mind check until the table's dice fail
    for _ in range(80):
        gm.tray.roll_check("mind")
        if "Luck" in gm.roll_log.entries[-1].text("en"):
            break
    line = gm.roll_log.entries[-1]
    assert re.search(r"\(Luck \+\d\)", line.text("en")) and re.search(r"\(Удача \+\d\)", line.text("ru"))
    assert not re.search(r"luck \+\d", line.text("en"))  # the sheet's word, not the trait's code id
