"""Issue 34 in the browser: a blind roll at a shared table, with a GM's and a player's page on a
real Voila server. The player ticks *Roll blind* and rolls: their tray and their log show a
face-down die, and the page holds no result; the GM's log shows the result marked blind, with a
*Reveal* button; the GM reveals it and the player's log line turns into the dice.

Screenshots: the player's face-down die (tray and log), the GM's log with the Reveal button, the
player's log after the reveal."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from tabletop_widgets.widgets.lobby import sample_character
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 60_000
#: a total that appears nowhere else on either page: 1d1 + 918273640
SECRET = "1d1+918273640"
SECRET_TOTAL = "918273641"


def test_a_player_rolls_blind_and_the_gm_reveals_it(browser, voila_url, voila_db, watch_page, screenshot_dir):
    system = get_system("ret")
    aria = {**sample_character(system, "Aria").to_dict(), "phase": "play"}
    with open_store(str(voila_db)) as store:
        made = create_table(
            store,
            "ret",
            [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
            characters={"c1": aria},
            title="Blind rolls",
        )
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        pages = {}
        for seat in ("gm", "p1"):
            context = open_context(browser, viewport={"width": 1280, "height": 1000})
            contexts.append(context)
            page = context.new_page()
            page.goto(links[seat], timeout=LOAD_TIMEOUT)
            pages[seat] = page
        gm, pat = pages["gm"], pages["p1"]
        watch = watch_page(pat)
        for page in (gm, pat):
            expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)

        # the player rolls blind
        toggle = pat.locator(".tt-blind-roll")
        expect(toggle).to_contain_text("Roll blind", timeout=STEP_TIMEOUT)
        toggle.locator("input").check()
        pat.locator(".tt-table-tray .tt-tray-notation input").fill(SECRET)
        pat.locator(".tt-table-tray .tt-tray-roll").click()
        tray = pat.locator(".tt-table-tray")
        expect(tray.locator(".tt-tray-result .tt-facedown-verdict")).to_have_text("blind", timeout=STEP_TIMEOUT)
        expect(tray.locator(".tt-anim-die.tt-anim-facedown")).to_have_count(1)
        mine = pat.locator(".tt-table-log li.tt-log-face-down")
        expect(mine).to_contain_text(f"rolled {SECRET} blind", timeout=STEP_TIMEOUT)
        expect(mine.locator(".tt-facedown-die")).to_have_count(1)
        assert SECRET_TOTAL not in pat.content()  # not on the page, not in its widget models' views
        pat.wait_for_timeout(700)  # the die settles (decoration: the test checks the DOM above)
        pat.locator(".tt-table-tray-area").screenshot(path=str(screenshot_dir / "blind_roll_tray.png"))
        pat.locator(".tt-table-log").screenshot(path=str(screenshot_dir / "blind_roll_player_log.png"))

        # the GM sees the result, marked blind, and reveals it
        secret = gm.locator(".tt-table-log li.tt-log-secret").first
        expect(secret).to_contain_text(SECRET_TOTAL, timeout=STEP_TIMEOUT)
        expect(secret).to_contain_text("not revealed yet")
        reveal = gm.locator(".tt-table-log .tt-log-reveal")
        expect(reveal).to_have_count(1)
        gm.locator(".tt-table-log").screenshot(path=str(screenshot_dir / "blind_roll_gm_log.png"))
        reveal.click()
        expect(reveal).to_have_count(0, timeout=STEP_TIMEOUT)

        # the player's line turns into the dice; the reveal is told below it
        turned = pat.locator(".tt-table-log li.tt-log-revealed", has_text=f"rolled {SECRET} blind (revealed)")
        expect(turned).to_have_count(1, timeout=STEP_TIMEOUT)
        expect(turned).to_contain_text(SECRET_TOTAL)
        expect(pat.locator(".tt-table-log li.tt-log-face-down")).to_have_count(0)
        expect(pat.locator(".tt-table-log")).to_contain_text("revealed the blind roll of Pat")
        pat.locator(".tt-table-log").screenshot(path=str(screenshot_dir / "blind_roll_revealed.png"))

        # on a 390 px phone the toggle and the log's lines fit the screen (nothing sticks out)
        pat.set_viewport_size({"width": 390, "height": 900})
        bar = pat.locator(".tt-table-tray-bar")
        expect(bar.locator(".tt-blind-roll")).to_be_visible()
        for part in (bar, pat.locator(".tt-table-log")):
            box = part.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, box
        pat.locator(".tt-table-log").screenshot(path=str(screenshot_dir / "blind_roll_phone.png"))
        assert not [p for p in watch.problems() if "/voila/api/shutdown/" not in p]
    finally:
        for context in contexts:
            context.close()
