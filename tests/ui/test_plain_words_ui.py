"""Issue #19 in the browser (notebooks/gallery/sheet.ipynb, RET): a number out of range typed into
the sheet is refused beside the field in a player's words (the field's range, no trait names),
the sheet check at the top counts it (never "No problems found" beside a red error), and RET
Health is bounded by the rules' threshold."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 300_000  # a loaded CI machine starts a kernel slowly
UPDATE_TIMEOUT = 30_000


def test_a_refused_number_is_explained_and_counted(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 1240, "height": 1400})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/gallery/sheet.ipynb?system=ret", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-sheet")).to_be_visible(timeout=LOAD_TIMEOUT)
        banner = page.locator(".tt-sheet-problems")
        before = banner.inner_text()
        box = page.locator(".tt-field-attention input")
        expect(box).to_have_accessible_name(re.compile(r"\(0–7\)"))  # the range a player may enter
        box.fill("9" * 40)
        box.press("Enter")
        problem = page.locator(".tt-field-attention .tt-field-problem")
        expect(problem).to_contain_text("from 0 to 7", timeout=UPDATE_TIMEOUT)
        expect(problem).not_to_contain_text("trait")
        expect(banner).not_to_contain_text("No problems found")
        banner.locator("summary").click()
        expect(banner.locator('li[data-field="attention"]')).to_contain_text("Attention", timeout=UPDATE_TIMEOUT)
        assert banner.inner_text() != before
        health = page.locator(".tt-field-health .tt-res-current input")
        health.fill("-500")  # past −3 × Health max (L325)
        health.press("Enter")
        expect(page.locator(".tt-field-health .tt-field-problem")).to_contain_text(
            re.compile(r"from -\d+ to \d+"), timeout=UPDATE_TIMEOUT
        )
        page.locator(".tt-sheet").screenshot(path=str(screenshot_dir / "sheet_ret_refused.png"))
        page.locator(".tt-locale button", has_text="RU").click()
        expect(problem).to_contain_text("от 0 до 7", timeout=UPDATE_TIMEOUT)
        assert watch.problems() == []
    finally:
        context.close()
