"""Finish character on a play page, in Voila and Chromium (issue #17): the sheet shows the phase,
the Finish character button puts the character into play, the badge and the button follow, and
the language switch relabels them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


def test_finish_character_on_a_sheet_page(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 1240, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        # an L&D sample with nothing left to fix (the play pages' heroes are in play already)
        page.goto(f"{voila_url}/voila/render/gallery/sheet.ipynb?system=life_and_death", timeout=LOAD_TIMEOUT)
        sheet = page.locator(".tt-sheet").first
        expect(sheet.locator(".tt-sheet-title h2")).to_have_text("Mira Vale", timeout=LOAD_TIMEOUT)
        badge = sheet.locator(".tt-sheet-phase .tt-phase")
        expect(badge).to_have_text("Being created", timeout=LOAD_TIMEOUT)
        finish = sheet.locator(".tt-sheet-finish .tt-action-button")
        expect(finish).to_have_text("Finish character")
        sheet.locator(".tt-sheet-phase-bar").screenshot(path=str(screenshot_dir / "phase_creation.png"))
        finish.click()
        expect(badge).to_have_text("In play", timeout=STEP_TIMEOUT)
        expect(sheet.locator(".tt-phase-play")).to_be_visible()
        expect(finish).to_be_hidden()
        # in play a field only creation sets carries its mark
        expect(sheet.locator(".tt-field-race .tt-badge-creation")).to_be_visible(timeout=STEP_TIMEOUT)
        expect(sheet.locator(".tt-sheet-problems")).to_contain_text("No problems found")
        height = sheet.bounding_box()["height"]
        page.set_viewport_size({"width": 1240, "height": int(height) + 160})
        sheet.screenshot(path=str(screenshot_dir / "phase_play_sheet.png"))
        assert watch.problems() == []
    finally:
        context.close()


def test_a_refused_finish_lists_what_is_left(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 1240, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/gallery/sheet.ipynb?system=ret", timeout=LOAD_TIMEOUT)
        sheet = page.locator(".tt-sheet").first
        expect(sheet.locator(".tt-sheet-title h2")).to_have_text("Mira Vale", timeout=LOAD_TIMEOUT)
        box = sheet.locator(".tt-field-attention input")
        box.fill("7")  # over the creation budget and the GM's cap
        box.press("Enter")
        expect(sheet.locator(".tt-field-perception .tt-value")).to_contain_text("5", timeout=STEP_TIMEOUT)
        sheet.locator(".tt-sheet-finish .tt-action-button").click()
        refusal = sheet.locator(".tt-sheet-finish div.tt-error[role=alert]")
        expect(refusal).to_contain_text("Not yet: fix these first.", timeout=STEP_TIMEOUT)
        expect(refusal.locator("li").first).to_be_visible()
        expect(refusal).to_contain_text("Parameter points overspent")
        expect(sheet.locator(".tt-sheet-phase .tt-phase")).to_have_text("Being created")
        sheet.locator(".tt-sheet-phase-bar").screenshot(path=str(screenshot_dir / "phase_refused.png"))
        assert watch.problems() == []
    finally:
        context.close()
