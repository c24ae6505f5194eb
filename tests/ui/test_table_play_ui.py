"""Issue 30 in the browser, on a server started as ``make play`` starts it (``python -m
tabletop_widgets play``, whose Voila runs the table's resolver): the GM and two players, one of
them reading in Russian.

* The chat box on every seat's page: a line in character reaches everyone, a whisper between a
  player and the GM reaches those two only.
* A player attacks the other player's character with no GM page open: the attacker's page says
  whom it waits for ("Waiting for Quinn to choose Boris's defence"), the defender's page (in
  Russian) asks, the defender answers, both pages show the attack's line, all answered by the
  server's resolver.
* The session's transcript, downloaded from each player's page after the GM ends the session,
  tells the fight and the chat that seat saw, and not the whisper it did not.

Screenshots: the chat, the waiting attacker, the defender's question in Russian."""

from __future__ import annotations

import base64
import re

import pytest
from conftest import open_context, running
from playwright.sync_api import expect
from tables import fight_table
from test_strangers_ui import announced, start_play

from tabletop_widgets.table import CombatSync, TableSession, open_store, verify_table

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 90_000

#: the attack's sentence in either language ("Aria hits Boris with…", "Aria → Boris, …")
ARIA_ON_BORIS = re.compile(r"Aria (→|hits|misses) Boris")


@pytest.fixture(scope="module")
def play_server(tmp_path_factory, chromium_path):
    tmp = tmp_path_factory.mktemp("play")
    with running(start_play(tmp, "play")) as (server,):
        announced(server)
        yield server


def _table(db):
    """Gail (GM), Pat (Aria) and Quinn (Boris) in a fight, on Aria's turn."""
    store, made = fight_table(db, title="Crossing", players=2)
    sync = CombatSync(TableSession.join(store, made.table_id, made.tokens["gm"]))
    for _ in range(6):
        if sync.combat.current == "c1":
            break
        sync.combat.next_turn()
    assert sync.combat.current == "c1"
    store.close()
    return made


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1100})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-tracker .tt-combatant")).to_have_count(2, timeout=LOAD_TIMEOUT)
    return context, page


def _say(page, text: str, mode: int | None = None) -> None:
    """Say ``text`` in the chat (``mode``: the index of the chat's "As" choice: 0 in character,
    1 out of character, 2 on a player's page a whisper to the GM)."""
    chat = page.locator(".tt-chat")
    if mode is not None:
        chat.locator(".tt-chat-mode select").select_option(index=mode)
    box = chat.locator(".tt-chat-text input")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("", timeout=STEP_TIMEOUT)  # sent: the box is cleared


def _transcript(page) -> str:
    link = page.locator(".tt-transcripts a.tt-transcript-md").first
    expect(link).to_be_attached(timeout=STEP_TIMEOUT)
    href = link.get_attribute("href")
    return base64.b64decode(href.split("base64,", 1)[1]).decode("utf-8")


def test_chat_an_attack_with_no_gm_page_and_the_transcripts(browser, play_server, watch_page, screenshot_dir):
    made = _table(play_server.db)
    links = made.links(f"{play_server.base}/voila/render/table.ipynb")
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        c, pat = _open(browser, links["p1"])
        contexts.append(c)
        pat_watch = watch_page(pat)
        c, quinn = _open(browser, links["p2"])
        contexts.append(c)
        quinn.locator(".tt-table-header .tt-locale").get_by_role("button", name="RU").click()
        expect(quinn.locator(".tt-chat-send")).to_have_text("Отправить", timeout=STEP_TIMEOUT)

        # the chat: in character to everyone, then a whisper between Pat and the GM
        _say(pat, "I open the door")
        for page in (gm, quinn):
            expect(page.locator(".tt-table-log")).to_contain_text("I open the door", timeout=STEP_TIMEOUT)
        _say(pat, "I pocket the ring", 2)
        expect(gm.locator(".tt-table-log")).to_contain_text("I pocket the ring", timeout=STEP_TIMEOUT)
        _say(quinn, "Иду вперёд")
        expect(pat.locator(".tt-table-log")).to_contain_text("Иду вперёд", timeout=STEP_TIMEOUT)
        expect(quinn.locator(".tt-table-log")).not_to_contain_text("I pocket the ring")
        pat.locator(".tt-table-log-column").screenshot(path=str(screenshot_dir / "table_chat.png"))

        # the GM leaves: every GM page is closed
        contexts.remove(c_gm := gm.context)
        c_gm.close()

        # Pat attacks Boris; the server's resolver asks Quinn, and Pat's page says so
        mine, theirs = pat.locator(".tt-table-tracker"), quinn.locator(".tt-table-tracker")
        expect(mine.locator(".tt-selected-name")).to_have_text("Aria", timeout=STEP_TIMEOUT)
        mine.locator(".tt-attack-fold .jupyter-widget-Collapse-header").click()
        mine.locator(".tt-attack-target select").select_option(label="Boris · Quinn")
        expect(mine.locator(".tt-attack-odds")).to_contain_text("Chance to hit", timeout=STEP_TIMEOUT)
        mine.locator(".tt-attack-go").click()
        status = pat.locator(".tt-attack-status")
        expect(status).to_contain_text("Waiting for Quinn to choose Boris", timeout=STEP_TIMEOUT)
        pat.wait_for_timeout(300)
        mine.screenshot(path=str(screenshot_dir / "table_attack_waiting.png"))
        question = quinn.locator(".tt-attack-question")
        expect(question).to_contain_text("Boris", timeout=STEP_TIMEOUT)
        expect(question).to_contain_text(re.compile("защищ"))  # in Quinn's language
        quinn.wait_for_timeout(300)
        quinn.locator(".tt-table-combat").screenshot(path=str(screenshot_dir / "table_attack_defender_ru.png"))
        question.locator(".tt-attack-answer").click()
        expect(status).to_contain_text(ARIA_ON_BORIS, timeout=STEP_TIMEOUT)
        expect(theirs.locator(".tt-tracker-log")).to_contain_text(ARIA_ON_BORIS, timeout=STEP_TIMEOUT)
        expect(question).to_have_count(0, timeout=STEP_TIMEOUT)

        # the GM ends the session elsewhere; each player's page offers the transcript it saw
        store = open_store(str(play_server.db))
        try:
            TableSession.join(store, made.table_id, made.tokens["gm"]).end_session()
        finally:
            store.close()
        told = _transcript(pat)
        assert ARIA_ON_BORIS.search(told) and "I open the door" in told and "I pocket the ring" in told
        theirs_told = _transcript(quinn)
        assert ARIA_ON_BORIS.search(theirs_told) and "I open the door" in theirs_told
        assert "I pocket the ring" not in theirs_told  # a whisper Quinn never saw
        assert "Раунд 1" in theirs_told or "Бой" in theirs_told  # in Quinn's language
        assert [p for p in pat_watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        for c in contexts:
            c.close()
    store = open_store(str(play_server.db))
    try:
        TableSession.join(store, made.table_id, made.tokens["gm"]).close_table()
        rep = verify_table(store, made.table_id)
        assert rep.ok, rep.text()
        (rolled,) = [e for e in store.events(made.table_id) if e.kind == "attack"]
        assert rolled.actor == "p1"  # Pat's attack, rolled by the resolver with the table's dice
    finally:
        store.close()
