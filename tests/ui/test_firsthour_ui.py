"""A player's first hour in a real Voila server and Chromium (issue #19, ``firsthour``).

* One character, one state: at a table the GM changes a character's Health and its name on the
  sheet, and the player's tracker (another kernel) shows both without a reload.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, create_table, open_store
from conftest import open_context
from tables import fight_table

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-tracker .tt-round-number")).to_have_text("1", timeout=LOAD_TIMEOUT)
    return context, page


def test_gm_sheet_edit_reaches_the_players_tracker(browser, voila_url, voila_db, watch_page):
    store, made = fight_table(voila_db, title="One state")
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        c, p1 = _open(browser, links["p1"])
        contexts.append(c)
        watch = watch_page(p1)
        hp = p1.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")
        expect(hp).to_have_text("6 / 6")

        # the GM edits Aria's Health on her sheet (Characters tab)
        gm.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Characters").click()
        health = gm.locator(".tt-table-sheets .tt-sheet").first.locator(".tt-field-health input").first
        health.fill("2")
        health.press("Enter")
        expect(gm.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")).to_have_text("2 / 6", timeout=STEP_TIMEOUT)
        # the player's tracker follows, no reload
        expect(hp).to_have_text("2 / 6", timeout=STEP_TIMEOUT)

        # the GM renames her: the player's tracker row and turn line follow
        name = gm.locator(".tt-table-sheets .tt-sheet").first.locator(".tt-field-name input").first
        name.fill("Aria the Bold")
        name.press("Enter")
        expect(p1.locator(".tt-table-tracker .tt-id-c1 .tt-select")).to_have_text("Aria the Bold", timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-table-tracker .tt-id-c1 .tt-select")).to_have_text("Aria the Bold")
        assert watch.problems() == []
    finally:
        for c in contexts:
            c.close()
        store.close()


HEIGHT_JS = "() => Math.max(...Array.from(document.querySelectorAll('body, body *')).map(e => e.scrollHeight))"
PROSE_JS = """() => Array.from(document.querySelectorAll('.tt-lang'))
    .reduce((sum, el) => sum + el.getBoundingClientRect().height, 0)"""
SHOW_BOTH = "div.jp-RenderedMarkdown div.tt-lang.tt-lang-en, div.jp-RenderedMarkdown div.tt-lang.tt-lang-ru { display: block !important; }"


def test_one_switch_switches_every_widget_and_the_prose(browser, voila_url, watch_page, screenshot_dir):
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(f"{voila_url}/voila/render/play_ret.ipynb", timeout=LOAD_TIMEOUT)
        for part in (".tt-language-switch", ".tt-sheet", ".tt-dice-tray", ".tt-tracker .tt-combatant", ".tt-roll-log"):
            expect(page.locator(part).first).to_be_visible(timeout=LOAD_TIMEOUT)
        # one switch on the page: the widgets' own toggles are gone
        expect(page.locator(".tt-locale:visible")).to_have_count(1)
        expect(page.locator(".tt-lang-ru").first).to_be_hidden()
        expect(page.locator(".tt-lang-en h1")).to_contain_text("Play R.E.T.")

        one = page.evaluate(PROSE_JS)
        page.add_style_tag(content=SHOW_BOTH)  # both languages stacked, as the page was before
        both_prose, both_page = page.evaluate(PROSE_JS), page.evaluate(HEIGHT_JS)
        page.evaluate(
            "() => document.querySelectorAll('style').forEach(s => s.textContent.includes('display: block !important') && s.remove())"
        )
        single_page = page.evaluate(HEIGHT_JS)
        print(
            f"prose {one:.0f} px of {both_prose:.0f} px; page {single_page:.0f} px, both languages {both_page:.0f} px"
        )
        assert one < 0.6 * both_prose, (one, both_prose)  # the prose about halves
        assert single_page < both_page - 0.35 * both_prose, (single_page, both_page, both_prose)

        # one click on RU: every widget and the prose
        page.locator(".tt-language-switch button", has_text="RU").click()
        expect(page.locator(".tt-lang-ru h1")).to_contain_text("Играть в «Р.Э.Т.»")
        expect(page.locator(".tt-lang-en").first).to_be_hidden()
        expect(page.locator(".tt-dice-tray .tt-tray-title")).to_contain_text("Лоток")
        expect(page.locator(".tt-tracker .tt-tracker-title")).to_contain_text("Бой")
        expect(page.locator(".tt-roll-log .tt-log-title")).to_contain_text("Журнал")
        expect(page.locator(".tt-sheet .tt-sheet-save")).to_contain_text("Сохранить в файл")
        # the upload button reads as words, without the widget's file count "(0)" (issue 32 item 11)
        load = page.locator(".tt-sheet .tt-sheet-load").first
        expect(load).to_have_class(re.compile("tt-load-ru"))
        drawn = load.evaluate("el => getComputedStyle(el, '::after').content")
        assert drawn == '"Загрузить из файла"', drawn
        assert load.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") == 0  # "(0)" not drawn
        box = load.bounding_box()
        assert box and box["width"] > 60, f"the load button shows no words: {box}"
        expect(page.locator(".tt-play-checks .tt-lang-ru", has_text="Черновик")).to_be_visible()
        expect(page.locator(".tt-play-checks .tt-lang-en", has_text="First draft")).to_be_hidden()
        log = page.locator(".tt-roll-log .tt-log-list")
        expect(log).to_contain_text("[навык]")
        expect(log).not_to_contain_text("[skill]")
        height = int(page.evaluate(HEIGHT_JS))
        page.set_viewport_size({"width": 1100, "height": min(height + 40, 16000)})
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshot_dir / "play_ret_ru.png"))
        assert watch.problems() == []
    finally:
        context.close()


def test_a_new_player_opens_on_the_creation_wizard(browser, voila_url, voila_db, watch_page, screenshot_dir):
    """A seat with a blank character at a table where players make their characters: the page
    opens on the creation wizard; the tray names the character; the tracker speaks to a player."""
    system = get_system("ret")
    store = open_store(str(voila_db))
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pavel", "c1")],
        characters={"c1": system.Character().to_dict()},
        options={"players_build": True},
        validate_characters=False,
        title="First hour",
    )
    store.close()
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(made.links(f"{voila_url}/voila/render/table.ipynb")["p1"], timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
        wizard = page.locator(".tt-creation .tt-wizard")
        expect(wizard).to_be_visible(timeout=LOAD_TIMEOUT)  # the character's tab, without a click
        todo = wizard.locator(".tt-wizard-problems")
        expect(todo).to_contain_text("Give your character a name.")
        expect(page.locator(".tt-table-tracker .tt-empty")).to_contain_text("the GM brings the combatants in")
        name = wizard.locator(".tt-field-name input").first
        name.fill("Aria")
        name.press("Enter")
        expect(todo).not_to_contain_text("Give your character a name.", timeout=STEP_TIMEOUT)
        page.screenshot(path=str(screenshot_dir / "table_player_first_minutes.png"))
        page.locator(".tt-table-tabs .lm-TabBar-tab").first.click()
        expect(page.locator(".tt-table-tray .tt-tray-title")).to_contain_text("Aria")
        expect(page.locator(".tt-table-tray .tt-tray-title")).not_to_contain_text("Pavel")
        assert watch.problems() == []
    finally:
        context.close()
