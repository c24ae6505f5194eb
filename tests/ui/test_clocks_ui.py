"""Progress clocks in the browser (issue 34, part 2), on a real Voila server: the GM's page (light
theme) adds an open clock and a known one in its Clocks tab and ticks both; the player's page
(dark theme) sees the open clock fill and the known one as a blank circle, whose name is nowhere
on the page. On a 390 px phone both pages fit (the phone test's check: nothing wider than the screen, nothing of
ours clipped, every character in the default fonts). Screenshots of both pages on a desktop and on
a phone, and in Russian."""

from __future__ import annotations

import pytest
from conftest import open_context
from playwright.sync_api import expect
from tables import _in_play
from test_phone_ui import _fits

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from tabletop_widgets.widgets.lobby import sample_character

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 90_000
KNOWN = "Lampblacks strike back"


def _table(db):
    system = get_system("ret")
    store = open_store(str(db))
    try:
        made = create_table(
            store,
            "ret",
            [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
            characters={"c1": _in_play(sample_character(system, "Aria"))},
            title="Heist",
        )
    finally:
        store.close()
    return made


def _open(browser, url, *, width=1280, height=1000):
    context = open_context(browser, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
    return context, page


def _add(gm, name: str, segments: int, shows: str) -> None:
    tab = gm.locator(".tt-gm-clocks")
    tab.locator(".tt-clock-name-in input").fill(name)
    tab.locator(".tt-clock-segments select").select_option(label=str(segments))
    tab.locator(".tt-clock-shows select").select_option(label=shows)
    tab.locator(".tt-clock-add").click()
    expect(gm.locator(".tt-clocks")).to_contain_text(name, timeout=STEP_TIMEOUT)


def _tick(gm, index: int, times: int, then: str) -> None:
    tab = gm.locator(".tt-gm-clocks")
    tab.locator(".tt-clock-pick select").select_option(index=index)
    for _ in range(times):
        tab.locator(".tt-clock-up").click()
    expect(gm.locator(".tt-clocks .tt-clock").nth(index)).to_contain_text(then, timeout=STEP_TIMEOUT)


def test_the_gm_ticks_clocks_and_the_player_sees_the_open_one_fill(
    browser, voila_url, voila_db, watch_page, screenshot_dir
):
    made = _table(voila_db)
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        c, pat = _open(browser, links["p1"] + "&theme=dark", width=390, height=844)
        contexts.append(c)
        watch = watch_page(pat)
        expect(pat.locator(".tt-clocks")).to_be_hidden()  # no clock yet: nothing drawn

        gm.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Clocks").first.click()
        expect(gm.locator(".tt-gm-clocks .tt-clock-add")).to_be_visible(timeout=STEP_TIMEOUT)
        _add(gm, "Bluecoats alerted", 6, "everything")
        _add(gm, KNOWN, 8, "a blank circle")
        _tick(gm, 0, 2, "2 of 6")
        _tick(gm, 1, 3, "3 of 8")

        clocks = pat.locator(".tt-clocks .tt-clock")
        expect(clocks).to_have_count(2, timeout=STEP_TIMEOUT)
        expect(clocks.nth(0)).to_contain_text("Bluecoats alerted", timeout=STEP_TIMEOUT)
        expect(clocks.nth(0)).to_contain_text("2 of 6", timeout=STEP_TIMEOUT)
        expect(clocks.nth(0).locator(".tt-clock-on")).to_have_count(2)
        expect(clocks.nth(0).locator(".tt-clock-seg")).to_have_count(6)
        expect(clocks.nth(1)).to_have_class("tt-clock tt-clock-hidden")
        expect(clocks.nth(1).locator(".tt-clock-seg")).to_have_count(8)
        expect(clocks.nth(1).locator(".tt-clock-on")).to_have_count(0)
        expect(clocks.nth(1)).to_contain_text("Hidden clock")
        assert KNOWN not in pat.content()
        expect(pat.locator(".tt-table-log")).to_contain_text("Clock «Bluecoats alerted»", timeout=STEP_TIMEOUT)
        # the circle is drawn: its pie has a size on the phone, and fits the screen
        box = clocks.nth(0).locator("svg").bounding_box()
        assert box and box["width"] > 40 and box["x"] + box["width"] <= 390
        assert pat.evaluate("document.documentElement.scrollWidth") <= 390
        _fits(pat, "the player's page with clocks")  # nothing wider than the phone, nothing clipped

        pat.wait_for_timeout(300)
        pat.locator(".tt-clocks").screenshot(path=str(screenshot_dir / "table_clocks_player_phone_dark.png"))
        pat.set_viewport_size({"width": 1280, "height": 900})
        pat.wait_for_timeout(300)
        pat.locator(".tt-clocks").screenshot(path=str(screenshot_dir / "table_clocks_player_dark.png"))
        gm.wait_for_timeout(300)
        gm.screenshot(path=str(screenshot_dir / "table_clocks_gm.png"))
        gm.set_viewport_size({"width": 390, "height": 844})
        gm.wait_for_timeout(300)
        gm.locator(".tt-clocks").screenshot(path=str(screenshot_dir / "table_clocks_gm_phone.png"))
        gm.locator(".tt-gm-clocks").screenshot(path=str(screenshot_dir / "table_clocks_gm_tab_phone.png"))
        _fits(gm, "the GM's page with its Clocks tab")
        # in Russian too: the longer words fit on the phone
        for page in (gm, pat):
            page.set_viewport_size({"width": 390, "height": 844})
            page.locator(".tt-table-header .tt-locale").get_by_role("button", name="RU").click()
        expect(pat.locator(".tt-clocks")).to_contain_text("Скрытые часы", timeout=STEP_TIMEOUT)
        expect(pat.locator(".tt-clocks")).to_contain_text("2 из 6", timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-gm-clocks .tt-clock-add")).to_have_text("Добавить часы", timeout=STEP_TIMEOUT)
        _fits(pat, "the player's page with clocks, in Russian")
        _fits(gm, "the GM's page with its Clocks tab, in Russian")
        gm.locator(".tt-gm-clocks").screenshot(path=str(screenshot_dir / "table_clocks_gm_tab_phone_ru.png"))
        assert not watch.problems(), watch.problems()
    finally:
        for c in contexts:
            c.close()
