"""The tracker's lazy panel at a shared table, in a real Voila server and Chromium: the GM's and a
player's table pages (separate kernels). The GM's panel is made when the GM first selects a
combatant, its folded parts (options, conditions, name and order) when first opened; what the
GM does in an opened part reaches the player's tracker; the player's page has no form for
adding combatants and no panel parts it never opened."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tabletop_widgets.widgets.tracker import DETAILS, TEXTS
from conftest import open_context
from tables import fight_table

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


def _table(db):
    store, made = fight_table(db, title="Lazy panels", foe="Goblin", players=1)
    store.close()
    return made


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-tracker .tt-round-number")).to_have_text("1", timeout=LOAD_TIMEOUT)
    return context, page


def test_lazy_panels_at_a_shared_table(browser, voila_url, voila_db, watch_page, screenshot_dir):
    made = _table(voila_db)
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        gm_watch = watch_page(gm)
        c, p1 = _open(browser, links["p1"])
        contexts.append(c)
        tracker = gm.locator(".tt-table-tracker")
        mine = p1.locator(".tt-table-tracker")

        # nothing of the panel before a selection; the GM has the form for adding
        expect(tracker.locator(".tt-panel-details")).to_have_count(0)
        expect(tracker.locator(".tt-amount")).to_have_count(0)
        expect(tracker.locator(".tt-add-row .tt-new-name")).to_be_visible()
        # the player has no form for adding combatants at all
        expect(mine.locator(".tt-combatant")).to_have_count(2)
        expect(mine.locator(".tt-new-name")).to_have_count(0)
        # it is Aria's turn: Pat's page selects her for the Attack part, and shows nothing else of the panel
        expect(mine.locator(".tt-panel-details")).to_be_hidden()
        expect(mine.locator(".tt-amount")).to_be_hidden()

        # the GM selects Aria: the harm row and the folded parts appear, none opened
        tracker.locator(".tt-id-c1 .tt-select").click()
        expect(tracker.locator(".tt-selected-name")).to_have_text("Aria", timeout=STEP_TIMEOUT)
        expect(tracker.locator(".tt-amount input")).to_be_visible(timeout=STEP_TIMEOUT)
        headers = tracker.locator(".tt-panel-details .jupyter-widget-Collapse-header")
        expect(headers).to_have_count(len(DETAILS))
        for i, part in enumerate(DETAILS):
            expect(headers.nth(i)).to_contain_text(TEXTS[f"{part}_section"]["en"])
        expect(tracker.locator(".tt-condition-picker")).to_have_count(0)

        # opening "Conditions" makes the editor; a condition added there reaches the player
        headers.nth(DETAILS.index("conditions")).click()
        picker = tracker.locator(".tt-condition-picker select")
        expect(picker).to_be_visible(timeout=STEP_TIMEOUT)
        label = picker.locator("option").first.inner_text().strip()
        tracker.locator(".tt-add-condition").click()
        expect(tracker.locator(".tt-id-c1 .tt-condition")).to_contain_text(label, timeout=STEP_TIMEOUT)
        expect(mine.locator(".tt-id-c1 .tt-condition")).to_contain_text(label, timeout=STEP_TIMEOUT)

        # opening "Damage and healing options" shows the rules' options for Aria
        headers.nth(DETAILS.index("options")).click()
        expect(tracker.locator(".tt-damage-option").first).to_be_visible(timeout=STEP_TIMEOUT)
        gm.wait_for_timeout(300)
        tracker.screenshot(path=str(screenshot_dir / "tracker_lazy_gm.png"))
        mine.screenshot(path=str(screenshot_dir / "tracker_lazy_player.png"))
        assert [p for p in gm_watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        for context in contexts:
            context.close()
