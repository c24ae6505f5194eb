"""The gallery pages (notebooks/gallery/*.ipynb) in a real Voila server and Chromium: they used to
show one system, chosen in the URL (``?system=ret``); a switch above the part now shows it for any
of the four, in the language the part was showing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import open_context
from tabletop_widgets.widgets.system_switch import ORDER, short_title

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 60_000

#: page -> (the part's root, what in it names the system)
PARTS = {
    "sheet": (".tt-sheet", ".tt-sheet-title"),
    "tray": (".tt-dice-tray", ".tt-tray-title"),
    "tracker": (".tt-tracker", ".tt-tracker-title"),
}


def _choose(page, buttons, title_selector: str, words: str) -> None:
    """Click the system ``words`` in the switch and wait for the part to show it. The buttons
    are clicked once the switch shows the system now shown as chosen (the browser has the
    kernel's last word); a click the page lost under a loaded CI machine (twice in CI, never
    here: not understood yet) is made once more after 20 s, and the part must then follow."""
    expect(page.locator(".tt-system-choice button.mod-active")).to_have_count(1, timeout=STEP_TIMEOUT)
    title = page.locator(title_selector).first
    buttons.filter(has_text=words).click()
    try:
        expect(title).to_contain_text(words, timeout=20_000)
    except AssertionError:
        buttons.filter(has_text=words).click()
        expect(title).to_contain_text(words, timeout=STEP_TIMEOUT)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_the_switch_shows_the_part_for_each_system(browser, voila_url, watch_page, screenshot_dir, name):
    root, title = PARTS[name]
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/gallery/{name}.ipynb", timeout=LOAD_TIMEOUT)
        switch = page.locator(".tt-system-switch")
        expect(switch.locator(".tt-system-choice button")).to_have_count(len(ORDER), timeout=LOAD_TIMEOUT)
        buttons = switch.locator(".tt-system-choice button")
        assert [b.strip() for b in buttons.all_inner_texts()] == [short_title(s, "en") for s in ORDER]
        expect(page.locator(root)).to_have_count(1)
        expect(page.locator(f"{root} {title}").first).to_contain_text("R.E.T.", timeout=LOAD_TIMEOUT)
        expect(switch.locator(".tt-system-caption")).to_be_visible()
        for slug in ORDER[1:]:
            _choose(page, buttons, f"{root} {title}", short_title(slug, "en"))
            expect(page.locator(root)).to_have_count(1)  # the old part is gone, not hidden
        # the part's own RU: the switch speaks Russian, and the next system opens in Russian
        page.locator(f"{root} .tt-locale button", has_text="RU").first.click()
        expect(switch.locator(".tt-system-label")).to_have_text("Игровая система", timeout=STEP_TIMEOUT)
        _choose(page, buttons, f"{root} {title}", "Р.Э.Т.")
        if name == "tracker":
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(300)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the gallery is {width} px wide on a phone"
            page.screenshot(path=str(screenshot_dir / "phone_gallery_switch.png"))
        assert watch.problems() == []
    finally:
        context.close()


def test_the_url_still_opens_a_system(browser, voila_url, watch_page):
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{voila_url}/voila/render/gallery/tracker.ipynb?system=seasons&locale=ru", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-tracker .tt-tracker-title")).to_contain_text("Времена Года", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-system-choice button.mod-active")).to_have_text("Времена Года")
    finally:
        context.close()
