"""Clipped text and buttons (issue 32 item 10), in Chromium against a real Voila server: every
page on a desktop (1280 px) in English, then in Russian (one click on the page's RU), then the
same page narrowed to a phone (390 px) in Russian. Nothing of ours may be clipped (an element
inside our widgets whose content is wider than its box: a button cut to «Показать мои кам…», a
label cut to "Skin hardening (afte", a name cut in its button; an editable text field's own
value may scroll under the caret, as every editor's does) and nothing may stand past the
screen's edge. The phone in English is ``test_phone_ui.py``'s."""

from __future__ import annotations

import re

import pytest
from conftest import open_context
from playwright.sync_api import expect
from tables import fight_table
from test_phone_ui import FIT_JS

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 300_000
STEP_TIMEOUT = 60_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PLAY = ["ret", "seasons", "life_and_death", "threads_of_fate"]


@pytest.fixture(scope="module")
def table_links(voila_db, voila_url):
    store, made = fight_table(voila_db, title="Clipping", foe="Goblin warlord of the deep caves")
    store.close()
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    return {"gm": links["gm"], "player": links["p1"]}


def _clipped(page, where: str, width: int) -> None:
    page.wait_for_timeout(400)  # one layout after the last change
    result = page.evaluate(FIT_JS)
    assert result["width"] == width, result["width"]
    assert result["checked"] >= 20, f"{where}: only {result['checked']} elements measured"
    problems = [f"wider than the screen: {w}" for w in result["wide"]]
    problems += [f"clipped: {c}" for c in result["clipped"]]
    assert not problems, f"{where} at {width} px:\n" + "\n".join(problems[:40])


def _to_russian(page) -> None:
    button = page.locator(".tt-language-switch button", has_text="RU")
    if not button.count():  # a table page or the lobby: its header's own switch
        button = page.locator(".tt-locale button", has_text="RU")
    button.first.click()
    expect(button.first).to_have_class(re.compile("mod-active"), timeout=STEP_TIMEOUT)
    page.wait_for_timeout(1500)  # every widget redrawn in Russian


def _open_parts(page) -> None:
    """What a user opens: every folded sheet section, and on a table page a combatant's panel."""
    folded = page.locator(".tt-section.tt-folded .tt-section-toggle:visible")
    n = folded.count()
    while n:
        folded.first.click()
        expect(folded).to_have_count(n - 1, timeout=STEP_TIMEOUT)
        n -= 1


def _check(browser, url: str, marker: str, where: str) -> None:
    context = open_context(browser, viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(url, timeout=LOAD_TIMEOUT)
        expect(page.locator(marker).first).to_be_visible(timeout=LOAD_TIMEOUT)
        _open_parts(page)
        _clipped(page, f"{where} (en)", DESKTOP["width"])
        _to_russian(page)
        _open_parts(page)
        _clipped(page, f"{where} (ru)", DESKTOP["width"])
        page.set_viewport_size(PHONE)
        _clipped(page, f"{where} (ru)", PHONE["width"])
    finally:
        context.close()


@pytest.mark.parametrize("slug", PLAY)
def test_a_play_page_clips_nothing(browser, voila_url, slug):
    _check(browser, f"{voila_url}/voila/render/play_{slug}.ipynb", ".tt-sheet", f"play_{slug}")


@pytest.mark.parametrize("seat", ["gm", "player"])
def test_a_table_page_clips_nothing(browser, table_links, seat):
    _check(browser, table_links[seat], ".tt-table-tracker .tt-combatant", f"the {seat}'s table page")


@pytest.mark.parametrize("rel, marker", [("lobby.ipynb", ".tt-lobby"), ("index.ipynb", ".tt-index-page")])
def test_the_lobby_and_the_index_clip_nothing(browser, voila_url, rel, marker):
    _check(browser, f"{voila_url}/voila/render/{rel}", marker, rel)
