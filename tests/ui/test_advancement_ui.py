"""Advancement between two game sessions of one campaign, in a real Voila server and Chromium
(issues #17 and #18).

Session 1 has a roll and ends. Between sessions the GM awards the table system's first
advancement resource on the GM page (the sheet's Advancement part, Award), and the player, on
the player page, opens the part, sees the price of the first advance that is not blocked, sees
its plan and buys it. Session 2 starts, and the same links opened anew show the advanced
character on both pages; both sessions verify. Screenshots: the player's part (light, wide),
the GM's part in Voila's dark theme, and the player's part on a 390 px phone.

Written generically (the first resource, the first advance not blocked) for RET's table.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.core.advancement import price_text
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store, verify_table
from tabletop_widgets.widgets.lobby import sample_character
from conftest import open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000
SLUG = "ret"


def _table(db):
    system = get_system(SLUG)
    aria = sample_character(system, "Aria")
    aria.phase = "play"  # a character that has played session 1
    store = open_store(str(db))
    made = create_table(
        store,
        SLUG,
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
        characters={"c1": aria.to_dict()},
        title="Advancing campaign",
    )
    return store, made


def _open(browser, url, width=1280, height=1000):
    context = open_context(browser, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
    return context, page


def _tab(page, name):
    page.locator(".tt-table-tabs .lm-TabBar-tab", has_text=name).first.click()


def _open_part(page):
    part = page.locator(".tt-table-sheet-area .tt-advance")
    expect(part).to_be_visible(timeout=STEP_TIMEOUT)
    part.locator(".tt-advance-toggle").click()
    expect(part.locator(".tt-advance-resources")).to_be_visible(timeout=STEP_TIMEOUT)
    return part


def test_advancement_between_two_sessions(browser, voila_url, voila_db, watch_page, screenshot_dir):
    system = get_system(SLUG)
    assert system.advancement_resources(), f"{SLUG} offers no advancement"
    resource = system.advancement_resources()[0]
    store, made = _table(voila_db)
    gm_seat = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm_seat.roll("1d20")
    gm_seat.end_session()  # session 1 ends
    base = f"{voila_url}/voila/render/table.ipynb"
    links = made.links(base)
    contexts = []
    try:
        c, gm = _open(browser, links["gm"] + "&theme=dark")
        contexts.append(c)
        gm_watch = watch_page(gm)
        c, pat = _open(browser, links["p1"])
        contexts.append(c)
        pat_watch = watch_page(pat)

        # the GM awards on the GM page (and may still correct the resource on the sheet)
        _tab(gm, "Characters")
        gm_box = gm.locator(f".tt-table-sheet-area .tt-field-{resource.trait} input").first
        expect(gm_box).to_be_enabled(timeout=STEP_TIMEOUT)
        gm_part = _open_part(gm)
        award = gm_part.locator(".tt-advance-award")
        award.locator(".tt-advance-award-resource select").select_option(label=tr(resource.label, "en"))
        amount = award.locator(".tt-advance-award-amount input")
        amount.fill("30")
        amount.press("Enter")
        award.locator(".tt-advance-award-button").click()
        expect(gm_part.locator(".tt-advance-status")).to_contain_text(
            f"Awarded: Aria gets {resource.price_text(30)}.", timeout=STEP_TIMEOUT
        )
        gm_part.screenshot(path=str(screenshot_dir / "sheet_advance_gm_dark.png"))

        # the player sees it, and the price of the first advance not blocked, before buying
        gm_seat.poll()
        model = system.Character.from_dict(gm_seat.state.characters["c1"])
        have = getattr(model, resource.trait)
        spec = next(s for s in system.advancements(model) if not s.blocked)
        plan = system.plan_advance(model, spec.id)
        _tab(pat, "Your character")
        # on the player's sheet the resource is read-only: only awards and advances change it
        field = pat.locator(f".tt-table-sheet-area .tt-field-{resource.trait}").first
        expect(field.locator("input")).to_be_disabled(timeout=STEP_TIMEOUT)
        field.screenshot(path=str(screenshot_dir / "sheet_resource_read_only.png"))
        part = _open_part(pat)
        expect(part.locator(".tt-advance-resources")).to_contain_text(resource.price_text(have), timeout=STEP_TIMEOUT)
        label = tr(spec.label, "en")
        row = part.locator(".tt-advance-row", has=pat.locator(".tt-advance-choose", has_text=label)).first
        price = price_text(system, spec.cost)
        expect(row.locator(".tt-advance-cost")).to_have_text(price)
        row.locator(".tt-advance-choose").click()
        expect(part.locator(".tt-advance-plan")).to_contain_text(tr(plan.text, "en"), timeout=STEP_TIMEOUT)
        expect(part.locator(".tt-advance-buy")).to_contain_text(price)
        part.screenshot(path=str(screenshot_dir / "sheet_advance_plan.png"))
        part.locator(".tt-advance-buy").click()
        expect(part.locator(".tt-advance-status")).to_contain_text(
            f"Bought: {tr(plan.text, 'en')}", timeout=STEP_TIMEOUT
        )
        gm_seat.poll()
        after = gm_seat.state.characters["c1"]
        left = have - sum(plan.cost.values())
        assert after[resource.trait] == left
        for trait, value in plan.changes.items():
            assert after[trait] == value
        expect(gm_part.locator(".tt-advance-resources")).to_contain_text(
            resource.price_text(left), timeout=STEP_TIMEOUT
        )

        # session 2 starts; the same links opened anew show the advanced character on both pages
        gm_seat.start_session()
        for ctx in contexts:
            ctx.close()
        contexts = []
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        c, pat = _open(browser, links["p1"], width=390, height=844)
        contexts.append(c)
        _tab(gm, "Characters")
        _tab(pat, "Your character")
        for page in (gm, pat):
            for trait, value in plan.changes.items():
                field = page.locator(f".tt-table-sheet-area .tt-field-{trait} input")
                if field.count():
                    expect(field.first).to_have_value(str(value), timeout=STEP_TIMEOUT)
            part = _open_part(page)
            expect(part.locator(".tt-advance-resources")).to_contain_text(resource.price_text(left))
        pat.locator(".tt-table-sheet-area .tt-advance").screenshot(path=str(screenshot_dir / "sheet_advance_phone.png"))
        width = pat.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, f"the phone page scrolls sideways ({width} px)"
        gm_seat.end_session()
        for n in (1, 2):
            assert verify_table(store, made.table_id, session=n).ok
        assert verify_table(store, made.table_id).ok
        for watch in (gm_watch, pat_watch):
            assert [p for p in watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        for ctx in contexts:
            ctx.close()
        store.close()
