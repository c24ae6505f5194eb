"""Issue 21 in the browser: the GM rolls ``10000d10`` at a shared table; the GM's tray and the
player's log show a summary (total, counts per face) at once, and the player opens the entry to
see the dice, built only then. Screenshots of both pages go to the screenshot folder."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 60_000


def test_a_big_roll_reaches_the_other_seat_as_a_summary_that_opens(
    browser, voila_url, voila_db, watch_page, screenshot_dir
):
    system = get_system("ret")
    with open_store(str(voila_db)) as store:
        made = create_table(
            store,
            "ret",
            [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
            characters={"c1": system.Character(name="Aria").to_dict()},
            title="Big rolls",
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
        gm, p1 = pages["gm"], pages["p1"]
        watch = watch_page(p1)
        for page in (gm, p1):
            expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
        box = gm.locator(".tt-table-tray .tt-tray-notation input")
        box.fill("10000d10")
        gm.locator(".tt-table-tray .tt-tray-roll").click()
        summary = gm.locator(".tt-table-tray .tt-big-roll")
        expect(summary).to_contain_text("10,000 dice", timeout=STEP_TIMEOUT)
        total = int(re.findall(r"= (\d+)$", summary.get_attribute("aria-label"))[0])
        assert 10_000 <= total <= 100_000
        # the player's log: the summary, the button, no dice yet
        entry = p1.locator(".tt-table-log .tt-log-big").last
        expect(entry).to_contain_text("10,000 dice", timeout=STEP_TIMEOUT)
        expect(entry).to_contain_text(f"= {total}")
        expect(entry.locator(".tt-face-count")).to_have_count(10)
        expect(entry.locator(".tt-big-dice")).to_have_count(0)
        gm.locator(".tt-table-tray .tt-result").screenshot(path=str(screenshot_dir / "big-roll-tray.png"))
        entry.locator(".tt-log-dice-toggle button, button.tt-log-dice-toggle").first.click()
        dice = entry.locator(".tt-big-dice")
        expect(dice).to_be_visible(timeout=STEP_TIMEOUT)
        values = dice.inner_text().split()
        assert values[0] == "d10" and len(values) == 10_001
        assert sum(int(v) for v in values[1:]) == total
        expect(entry.locator("button")).to_have_text("Hide the dice")
        p1.locator(".tt-table-log").screenshot(path=str(screenshot_dir / "big-roll-log.png"))
        assert not [p for p in watch.problems() if "/voila/api/shutdown/" not in p]
    finally:
        for context in contexts:
            context.close()
