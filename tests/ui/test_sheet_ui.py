"""The character sheet (notebooks/gallery/sheet.ipynb) in Voila + Chromium: one page per system.

For every installed system: the sheet renders, a screenshot is saved, and nothing breaks in the
console. For RET, an edit on screen updates a derived value on screen (Attention -> Perception).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tabletop_widgets import available_systems
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
UPDATE_TIMEOUT = 30_000


def _open(browser, voila_url, watch_page, slug: str):
    context = open_context(browser, viewport={"width": 1240, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    page.goto(f"{voila_url}/voila/render/gallery/sheet.ipynb?system={slug}", timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-sheet")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-sheet-title h2")).to_have_text("Mira Vale", timeout=LOAD_TIMEOUT)
    return context, page, watch


@pytest.mark.parametrize("slug", available_systems())
def test_sheet_renders(browser, voila_url, watch_page, screenshot_dir, slug):
    context, page, watch = _open(browser, voila_url, watch_page, slug)
    try:
        expect(page.locator(".tt-section").first).to_be_visible()
        assert page.locator(".tt-section").count() >= 3
        if slug == "ret":
            # an edit on screen updates a derived value on screen: Attention -> Perception
            perception = page.locator(".tt-field-perception .tt-value")
            expect(perception).to_contain_text("3")
            box = page.locator(".tt-field-attention input")
            box.fill("7")
            box.press("Enter")
            expect(perception).to_contain_text("5", timeout=UPDATE_TIMEOUT)
            expect(page.locator(".tt-field-mind .tt-value")).to_contain_text("4", timeout=UPDATE_TIMEOUT)
        # the whole sheet: Voila scrolls inside its own container, so grow the viewport to fit
        height = page.locator(".tt-sheet").bounding_box()["height"]
        page.set_viewport_size({"width": 1240, "height": int(height) + 160})
        page.locator(".tt-sheet").screenshot(path=str(screenshot_dir / f"sheet_{slug}.png"))
        if slug == "ret":
            box = page.locator(".tt-field-attention input")
            # a refused edit: the box goes back to the model's value, the reason shows inline
            box.fill("99")
            box.press("Enter")
            expect(box).to_have_value("7", timeout=UPDATE_TIMEOUT)
            expect(page.locator(".tt-field-attention .tt-field-problem")).to_be_visible()
            # the language switch relabels the sheet live
            page.locator(".tt-locale button", has_text="RU").click()
            expect(page.locator(".tt-section-parameters h3")).to_have_text("Параметры", timeout=UPDATE_TIMEOUT)
            page.locator(".tt-locale button", has_text="EN").click()
            expect(page.locator(".tt-section-parameters h3")).to_have_text("Parameters", timeout=UPDATE_TIMEOUT)
        assert watch.problems() == []
    finally:
        context.close()
