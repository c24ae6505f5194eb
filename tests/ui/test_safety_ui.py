"""The safety tools and handouts in the browser (issue 34, parts 3 and 4), on a real Voila server:
a GM's page and two players' pages, each its own kernel.

* The GM gives a handout (a title, Markdown and an image) to Pat alone: Pat's page shows it, with
  the image; Quinn's page holds nothing of it (not shown, not in its DOM).
* Quinn taps the X-card: the GM's page says that someone tapped it, naming nobody; Pat's page
  (the option is off) shows nothing.
* The GM writes the lines and veils; Quinn's page reads them (and has nothing to edit them with).

Screenshots: Pat's page (light) on a desktop and a 390 px phone, the GM's page with the alert in
Voila's dark theme on a desktop and a phone."""

from __future__ import annotations

import base64

import pytest
from conftest import open_context
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from tabletop_widgets.widgets.lobby import sample_character

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 60_000
TITLE = "The sealed letter"


def _png(width: int = 240, height: int = 120) -> bytes:
    """A PNG of a parchment-coloured gradient (made here: no image library needed)."""
    import struct
    import zlib

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    rows = b"".join(
        b"\x00" + b"".join(bytes((230 - y // 2, 200 - y // 2, 140 - x // 4)) for x in range(width))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG = _png()


def _table(db):
    system = get_system("ret")
    chars = {
        cid: {**sample_character(system, name).to_dict(), "phase": "play"}
        for cid, name in (("c1", "Aria"), ("c2", "Boris"))
    }
    seats = [
        SeatSpec("gm", "gm", "Gail"),
        SeatSpec("p1", "player", "Pat", "c1"),
        SeatSpec("p2", "player", "Quinn", "c2"),
    ]
    store = open_store(str(db))
    try:
        return create_table(store, "ret", seats, characters=chars, title="Safe table")
    finally:
        store.close()


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-view .tt-xcard")).to_be_visible(timeout=LOAD_TIMEOUT)
    return context, page


def test_a_handout_to_one_player_and_an_anonymous_x_card(browser, voila_url, voila_db, watch_page, screenshot_dir):
    made = _table(voila_db)
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        pages = {}
        for seat in ("gm", "p1", "p2"):  # the GM reads in Voila's dark theme
            c, pages[seat] = _open(browser, links[seat] + ("&theme=dark" if seat == "gm" else ""))
            contexts.append(c)
        gm, p1, p2 = pages["gm"], pages["p1"], pages["p2"]
        watch = watch_page(gm)

        # the GM gives a handout to Pat alone
        gm.locator(".tt-handouts-toggle").click()
        gm.locator(".tt-handout-title input").fill(TITLE)
        gm.locator(".tt-handout-text textarea").fill("Come **alone** to the mill.\n\n- bring the key\n- tell no one")
        gm.locator(".tt-handout-whom select").select_option(label="Pat")
        with gm.expect_file_chooser() as chooser:  # the upload opens the browser's file chooser
            gm.locator(".tt-handout-image").click()
        chooser.value.set_files({"name": "letter.png", "mimeType": "image/png", "buffer": PNG})
        expect(gm.locator(".tt-handout-image")).to_contain_text("(1)", timeout=STEP_TIMEOUT)
        gm.locator(".tt-handout-give").click()
        expect(gm.locator(".tt-handouts-list")).to_contain_text("to Pat", timeout=STEP_TIMEOUT)

        handout = p1.locator(".tt-handouts-list .tt-handout")
        expect(handout).to_contain_text(TITLE, timeout=STEP_TIMEOUT)
        expect(handout.locator("strong")).to_have_text("alone")
        expect(handout.locator("img.tt-handout-img")).to_be_visible()
        assert handout.locator("img").get_attribute("src").startswith("data:image/png;base64,")
        p1.screenshot(path=str(screenshot_dir / "table_handout_player.png"), full_page=True)
        p1.set_viewport_size({"width": 390, "height": 844})
        expect(handout).to_be_visible()
        p1.screenshot(path=str(screenshot_dir / "table_handout_phone.png"), full_page=True)

        # Quinn taps the X-card: the GM's page says so, naming nobody
        p2.locator(".tt-xcard").click()
        expect(p2.locator(".tt-table-status")).to_contain_text("Nobody is told", timeout=STEP_TIMEOUT)
        alert = gm.locator(".tt-xcard-alert")
        expect(alert).to_contain_text("Someone tapped the X-card", timeout=STEP_TIMEOUT)
        assert "Quinn" not in alert.inner_text() and "Boris" not in alert.inner_text()
        gm.screenshot(path=str(screenshot_dir / "table_xcard_gm_dark.png"))
        gm.set_viewport_size({"width": 390, "height": 844})
        gm.screenshot(path=str(screenshot_dir / "table_xcard_gm_phone_dark.png"), full_page=True)

        # the GM writes the lines and veils; a player reads them
        gm.set_viewport_size({"width": 1280, "height": 1000})
        gm.locator(".tt-safety-toggle").click()
        gm.locator(".tt-safety-edit-lines textarea").fill("harm to children\nspiders")
        gm.locator(".tt-safety-edit-veils textarea").fill("romance")
        gm.locator(".tt-safety-save").click()
        expect(gm.locator(".tt-safety-list")).to_contain_text("spiders", timeout=STEP_TIMEOUT)
        gm.locator(".tt-safety").screenshot(path=str(screenshot_dir / "table_lines_veils_gm_dark.png"))
        p2.locator(".tt-safety-toggle").click()
        expect(p2.locator(".tt-safety-list")).to_contain_text("harm to children", timeout=STEP_TIMEOUT)
        expect(p2.locator(".tt-safety-list")).to_contain_text("romance")
        expect(p2.locator(".tt-safety-edit-lines")).to_have_count(0)  # a player reads, does not edit
        p2.locator(".tt-safety").screenshot(path=str(screenshot_dir / "table_lines_veils_player.png"))

        # Quinn's page never got the handout; Pat's page shows no tap (the GM's alone)
        expect(p2.locator(".tt-handouts")).to_be_hidden()
        for text in (TITLE, "alone to the mill", base64.b64encode(PNG).decode()):
            assert text not in p2.content()
        expect(p1.locator(".tt-xcard-alert")).to_be_hidden()
        # nothing on the phone is wider than the screen
        wide = p1.evaluate(
            "() => [...document.querySelectorAll('.tt-safety *, .tt-handouts *')]"
            ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).length"
        )
        assert wide == 0
        assert not [p for p in watch.problems() if "/voila/api/shutdown/" not in p]
    finally:
        for c in contexts:
            c.close()
