"""Epic dice spent after the roll at a table, in a real Voila server and Chromium (issue #17,
L351). The play page's sample character has no epic dice (no reputation), so this plays on a
table page: Pat's campaign character (reputation 3, three epic dice) rolls Might in the Dice
tab, spends one epic die after the roll, sees the new outcome, and the sheet's epic dice go
from 3 to 2; on a 390 px phone in Voila's dark theme. Screenshots: the offer under the result,
and the tray with the amended result."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.widgets.tray_controls import group_checks
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000
RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)
CHECK = "might"


def test_a_player_spends_an_epic_die_after_the_roll(browser, voila_url, voila_db, watch_page, screenshot_dir):
    ayra = SYSTEM.Character(name="Ayra", race_params=RACE, age="young", reputation=3, epic_dice=3)
    ayra.phase = "play"
    store = open_store(str(voila_db))
    made = create_table(
        store,
        SYSTEM.slug,
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
        characters={"c1": ayra.to_dict()},
        title="Epic campaign",
    )
    link = made.links(f"{voila_url}/voila/render/table.ipynb")["p1"]
    groups = group_checks(SYSTEM.checks(ayra))
    where = next(i for i, (_, checks) in enumerate(groups) if any(c.id == CHECK for c in checks))
    context = open_context(browser, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        watch = watch_page(page)
        page.goto(link + "&theme=dark", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
        page.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Dice").first.click()
        tray = page.locator(".tt-table-tray")
        card = tray.locator(f".tt-check-{CHECK}").first
        if len(groups) > 1:
            tray.locator(".tt-check-groups .jupyter-widget-Collapse-header").nth(where).click()
        expect(card).to_be_visible(timeout=STEP_TIMEOUT)
        card.locator(".tt-check-button").click()
        after = tray.locator(".tt-after-roll")
        expect(after.locator(".tt-after-button")).to_have_text("Spend after the roll", timeout=STEP_TIMEOUT)

        tray.locator(".tt-tray-result").screenshot(path=str(screenshot_dir / "table_epic_after_roll_offer.png"))
        seat = TableSession.join(store, made.table_id, made.tokens["gm"])
        first = next(e for e in reversed(seat.state.log) if e.get("kind") == "check")
        after.locator(".tt-after-button").click()
        expect(after).to_be_hidden(timeout=STEP_TIMEOUT)  # once per roll at a table
        result = tray.locator(".tt-tray-result")
        expect(result.locator(".tt-effects")).to_contain_text("(3 → 2)", timeout=STEP_TIMEOUT)
        seat.poll()
        amended = seat.state.log[-1]
        assert amended["kind"] == "check.after" and amended["total"] == first["total"] + 1
        outcome = tr(amended["result"]["outcome"], "en")
        expect(result.locator(".tt-verdict")).to_contain_text(outcome)
        expect(page.locator(".tt-roll-log li").first).to_contain_text("changed after the roll", timeout=STEP_TIMEOUT)
        tray.screenshot(path=str(screenshot_dir / "table_epic_after_roll.png"))

        page.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Your character").first.click()
        expect(page.locator(".tt-table-sheet-area .tt-field-epic_dice input")).to_have_value("2", timeout=STEP_TIMEOUT)
        assert seat.state.characters["c1"]["epic_dice"] == 2
        assert [p for p in watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        context.close()
        store.close()
