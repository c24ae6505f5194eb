"""The table's chat (issue 30: the chat kind had no box on any seat's page; issue 32 item 2): a box
on every speaking seat's page, in character, out of character, and a whisper between a player and
the GM; the lines reach the log and the transcript of exactly the seats that may read them."""

from __future__ import annotations

from helpers import frontend_click, frontend_update

from tabletop_widgets.table import session_transcript


def send(view, text, mode=None):
    frontend_update(view.chat.text, value=text)
    if mode is not None:
        frontend_update(view.chat.mode, index=[v for _, v in view.chat.mode.options].index(mode))
    frontend_click(view.chat.send)


def lines(view) -> list[str]:
    return [x.text() for x in view.roll_log.entries]


def test_every_speaking_seat_has_a_chat_box_and_an_observer_none(table):
    gm, p1, o1 = table.view("gm"), table.view("p1"), table.view("o1")
    assert "tt-chat" in gm.chat.box._dom_classes and p1.chat is not None
    assert o1.chat is None
    assert [v for _, v in p1.chat.mode.options] == ["ic", "ooc", "to:gm"]
    assert [v for _, v in gm.chat.mode.options] == ["ic", "ooc", "to:p1", "to:p2"]


def test_lines_in_and_out_of_character_reach_every_seat(table):
    gm, p1, p2, o1 = (table.view(s) for s in ("gm", "p1", "p2", "o1"))
    send(p1, "I open the door")
    send(p1, "brb, coffee", "ooc")
    assert p1.chat.text.value == ""  # sent: the box is cleared
    for view in (gm, p2, o1):
        view.session.poll()
        assert any("Pat — I open the door" in line for line in lines(view))
        assert any("brb, coffee" in line and "out of character" in line for line in lines(view))


def test_a_whisper_is_read_by_the_two_seats_only(table):
    gm, p1, p2, o1 = (table.view(s) for s in ("gm", "p1", "p2", "o1"))
    send(p1, "I pocket the ring", "to:gm")
    send(gm, "you feel watched", "to:p2")
    for view in (gm, p1, p2, o1):
        view.session.poll()
    assert any("I pocket the ring" in x for x in lines(gm)) and any("I pocket the ring" in x for x in lines(p1))
    assert not any("I pocket the ring" in x for x in lines(p2) + lines(o1))
    assert any("you feel watched" in x for x in lines(p2)) and any("you feel watched" in x for x in lines(gm))
    assert not any("you feel watched" in x for x in lines(p1) + lines(o1))
    gm.session.end_session()
    for view in (p1, p2):
        view.session.poll()
    assert "I pocket the ring" in session_transcript(p1.session, 1) and "whispers" in session_transcript(p1.session, 1)
    assert "I pocket the ring" not in session_transcript(p2.session, 1)
    assert "I pocket the ring" in session_transcript(gm.session, 1)


def test_a_forged_whisper_or_an_empty_line_changes_nothing(table):
    p1 = table.view("p1")
    before = p1.session.store.head(table.made.table_id).version
    p1.chat.say("hello Quinn", "to:p2")  # a player whispers to the GM only
    assert "whispers to the GM only" in p1.status.value or "may not" in p1.status.value
    p1.chat.say("   ")
    assert "Type a line" in p1.status.value
    p1.chat.say("x" * 1001)
    assert "too long" in p1.status.value
    assert p1.session.store.head(table.made.table_id).version == before


def test_the_chat_speaks_the_page_s_language(table):
    p1 = table.view("p1")
    p1.choose_locale("ru")
    assert p1.chat.send.description == "Отправить" and p1.chat.mode.options[1][0] == "Вне игры"
