"""Issue 18 on the table pages, without a browser: the GM ends tonight's session and starts the
next (each after a confirm step), sees the campaign's sessions with their verification; a
player's page shows the current commitment and that a session ended; forged clicks from a
player's page change nothing."""

from __future__ import annotations


from tabletop_widgets.widgets.table_view import TableView
from helpers import frontend_click

from test_table_view import classes, synced_text


def test_the_gm_ends_and_starts_sessions_after_a_confirm_step(table):
    gm, p1 = table.view("gm"), table.view("p1")
    first = p1.session.commitment
    assert "tt-gm-sessions" in classes(gm) and "tt-gm-sessions" not in classes(p1)
    assert first in p1.commit.value and "Dice commitment" in p1.commit.value
    p1.tray.roll("1d20")
    frontend_click(gm.session_end_button)
    assert gm.session.session_open  # only asked
    assert gm.session_confirm.layout.display is None and "End session 1?" in gm.session_confirm_text.value
    frontend_click(gm.session_no)
    assert gm.session_confirm.layout.display == "none" and gm.session.session_open
    frontend_click(gm.session_end_button)
    frontend_click(gm.session_yes)
    assert not gm.session.session_open
    assert gm.session_end_button.disabled and not gm.session_start_button.disabled
    assert "Session 1" in gm.session_list.value and "verified" in gm.session_list.value
    # the player's page learns it: the status says so, the revealed key shows, dice are refused
    p1.session.poll()
    assert "Session 1 has ended" in p1.status.value
    assert p1.session.state.session_list()[0]["seed"] in p1.commit.value
    assert p1.tray.roll("1d20") is None
    assert getattr(p1.tray.last_error, "code", None) == "session_ended"
    assert "Session 1 has ended" in synced_text(p1.tray)
    assert p1.roll_log.entries[-1].what["en"] == "Session 1 ended"
    # next week
    frontend_click(gm.session_start_button)
    assert "Start session 2?" in gm.session_confirm_text.value
    frontend_click(gm.session_yes)
    assert gm.session.session_open and gm.session.commitment != first
    p1.session.poll()
    assert "Session 2 has started" in p1.status.value
    assert p1.session.commitment in p1.commit.value and "Session 2 dice commitment" in p1.commit.value
    assert p1.tray.roll("1d6") is not None
    rows = gm.session_list.value
    assert 'data-session="2"' in rows and "open now" in rows and 'data-session="1"' in rows


def test_a_page_opened_between_sessions_says_so(table):
    gm = table.view("gm")
    gm.session.end_session()
    p2 = table.view("p2", locale="ru")
    assert "Сессия 1 окончена" in p2.status.value
    assert "Session 1 has ended" in gm.session_status.value


def test_forged_session_clicks_from_a_player_do_nothing(table):
    gm, p1 = table.view("gm"), table.view("p1")
    # a player's page has no such buttons; calling the view's methods as a forged message would
    p1.ask_session("end")
    assert "may not" in p1.status.value or "нельзя" in p1.status.value
    p1._confirming = "end"  # even a forged pending step
    assert p1.confirm_session() is None
    assert gm.session.session_open and p1.session.session_open
    assert [e.kind for e in gm.session.events()][-1] != "session.ended"


def test_the_session_list_shows_a_failed_verification(table):
    import json
    import sqlite3

    gm = table.view("gm")
    ev = gm.session.roll("1d20")
    gm.session.end_session()
    forged = {**ev.payload, "text": "1d20: [20] = 20"}
    conn = sqlite3.connect(table.path)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), ev.seq))
    conn.commit()
    conn.close()
    fresh = TableView(table.session("gm"), follow=False, animate=False)
    assert "FAILED" in fresh.session_list.value and "tt-session-bad" in fresh.session_list.value


def test_each_seat_downloads_the_transcript_of_an_ended_session(table):
    import base64
    import html as html_mod

    gm, p1 = table.view("gm"), table.view("p1", locale="ru")
    assert p1.transcripts.value == ""  # nothing ended yet
    gm.session.note("the butler did it")
    gm.session.roll("1d1+918273640", hidden=True)
    p1.tray.roll("2d6+100")
    gm.session.end_session()
    p1.session.poll()
    value = html_mod.unescape(p1.transcripts.value)
    assert "Сессия 1:" in value and 'download="session-1.md"' in value and 'download="session-1.html"' in value
    data = value.split('class="tt-transcript-md"')[0].split("base64,")[-1].split('"')[0]
    text = base64.b64decode(data).decode("utf-8")
    assert "2d6+100" in text and "сессия 1" in text
    assert "butler" not in text and "918273641" not in text  # never what the seat may not see
    gm_value = html_mod.unescape(gm.transcripts.value)
    gm_data = gm_value.split('class="tt-transcript-md"')[0].split("base64,")[-1].split('"')[0]
    assert "butler" in base64.b64decode(gm_data).decode("utf-8")
