"""The Luck part of a seat's Sessions tab (issue 35, part 4): after a session ends, each of the
seat's rolls with its total and percentile bar and the evening's line; the GM sees every seat's;
a player's Share button tells the table, and the others see it. Driven by forged front-end
messages; a player's page never holds the GM's hidden roll."""

from __future__ import annotations

import html

from test_table_view import SECRET_EXPR, classes, synced_text

from tabletop_widgets.widgets.table_luck import LuckPart
from helpers import frontend_click, frontend_update


def _open_sessions(view) -> LuckPart:
    frontend_update(view.tabs, selected_index=view._tab_keys.index("tab_sessions"))
    return view.sessions_tab.luck


def _text(part: LuckPart) -> str:
    return html.unescape(part.view.value)


def test_the_luck_part_before_and_after_the_session_ends(table):
    gm, p1, p2, obs = table.view("gm"), table.view("p1"), table.view("p2"), table.view("o1")
    assert obs.tabs is None and obs.sessions_tab is None  # an observer rolls nothing
    luck = _open_sessions(p1)
    assert "comes once" in _text(luck) and luck.share_button.layout.display == "none"
    assert "tt-session-end" not in classes(p1) and "tt-session-list" not in classes(p1)
    p1.tray.roll("1d6")
    p1.session.roll("2d6", hidden=True)
    gm.session.roll(SECRET_EXPR, hidden=True)  # one outcome: not counted, said so
    gm.session.roll("1d12", hidden=True)
    p2.session.roll("1d8")
    gm.session.end_session()
    p1.session.poll()
    text = _text(luck)
    report = p1.session.luck_report()
    assert text.count('class="tt-luck-roll"') == 2 and "1d6" in text and "2d6" in text
    assert "evenings" in text and f"{round(100 * report.evening.below)}%" in text
    for r in report.rolls:
        assert f'data-index="{r.index}"' in text and f"{float(r.percentile) * 100:.0f}%" in text
    assert "918273641" not in synced_text(p1) and SECRET_EXPR not in synced_text(p1)
    assert luck.share_button.layout.display is None and luck.share_button.description == "Share with the table"
    # the GM's part: every seat's rolls, the GM's hidden one included
    gm_luck = _open_sessions(gm)
    gm.session.poll()
    gm_text = _text(gm_luck)
    assert gm_text.count('class="tt-luck-roll"') == 4 and "1d12 <em>(hidden)</em>" in gm_text and "Pat" in gm_text
    assert "Not counted: 1 (nothing random decides it" in gm_text
    assert gm_luck.share_button.layout.display == "none"
    # the player shares; the GM and the other player see it
    frontend_click(luck.share_button)
    assert luck.share_button.layout.display == "none" and "Shared with the table" in _text(luck)
    for view, part in ((gm, gm_luck), (p2, _open_sessions(p2))):
        view.session.poll()
        assert "Shared with the table" in _text(part) and "Pat" in _text(part)
    assert p1.session.shared_luck()["p1"]["rolls"] == 2
    frontend_click(luck.share_button)  # a forged second click on the hidden button: refused
    assert "already shared" in html.unescape(p1.status.value)


def test_the_luck_part_in_russian_and_a_forged_share(table):
    gm, p1 = table.view("gm"), table.view("p1", locale="ru")
    p1.session.roll("1d6")
    gm.session.end_session()
    p1.session.poll()
    luck = _open_sessions(p1)
    assert "Удача" in _text(luck) and "вечеров" in _text(luck)
    assert luck.share_button.description == "Поделиться со столом"
    gm_luck = _open_sessions(gm)
    assert gm_luck.share() is None  # the GM's page has no share: a forged click is refused
    assert gm.session.shared_luck() == {}
    p1.choose_locale("en")
    assert "Luck" in _text(luck) and "evenings" in _text(luck)
