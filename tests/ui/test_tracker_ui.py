"""The combat tracker (notebooks/gallery/tracker.ipynb) in a real Voila server and Chromium:
the tracker advances turns on screen and the current-turn highlight moves; one screenshot per
system (one page load per system)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tabletop_widgets import available_systems
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


@pytest.mark.parametrize("slug", available_systems())
def test_tracker_advances_turns(browser, voila_url, watch_page, screenshot_dir, slug):
    context = open_context(browser, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/gallery/tracker.ipynb?system={slug}", timeout=LOAD_TIMEOUT)
        rows = page.locator(".tt-tracker .tt-combatant")
        expect(rows.first).to_be_visible(timeout=LOAD_TIMEOUT)
        n = rows.count()
        assert n >= 3
        current = page.locator(".tt-tracker .tt-combatant.tt-current")
        expect(current).to_have_count(1)

        def expect_current(name):
            expect(rows.filter(has_text=name).first).to_have_class(re.compile(r"\btt-current\b"), timeout=STEP_TIMEOUT)
            expect(current).to_have_count(1)
            expect(current.locator(".tt-select")).to_have_text(name)
            expect(page.locator(".tt-current-name")).to_have_text(name)

        expect(page.locator(".tt-round-number")).to_have_text("1")
        names = [rows.nth(i).locator(".tt-select").inner_text().strip() for i in range(n)]
        # the sample fight starts at the first combatant's turn
        expect_current(names[0])
        page.locator(".tt-tracker .tt-next").click()
        expect_current(names[1])
        expect(rows.nth(1)).to_have_class(re.compile(r"\btt-current\b"))
        expect(rows.nth(0)).not_to_have_class(re.compile(r"\btt-current\b"))
        expect(rows.nth(1).locator(".tt-turn-marker")).to_have_text("▶")
        # back and forward again: the highlight follows
        page.locator(".tt-tracker .tt-prev").click()
        expect_current(names[0])
        page.locator(".tt-tracker .tt-next").click()
        expect_current(names[1])
        # the health bars are drawn from system.health
        expect(rows.first.locator(".tt-hp-bar")).to_be_visible()
        page.locator(".tt-tracker").screenshot(path=str(screenshot_dir / f"tracker_{slug}.png"))
        assert watch.problems() == []
    finally:
        context.close()
