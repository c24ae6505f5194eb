"""Issue 18 in a real Voila server and Chromium: two game sessions of one campaign.

Session 1: the GM damages Pat's character in the tracker and Pat spends Luck on a check; the GM
ends the session on the Sessions tab (after its confirm step), and Pat's page says so and shows
the revealed dice key. Session 2: the GM starts it; the same links (pages opened anew) show the
same character in the same state, the new commitment differs from session 1's, Pat rolls, the
GM ends it, and both sessions verify (and the whole campaign). The lobby, unlocked with its key,
lists the campaign with both sessions verified. Screenshots of the changed pages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store, verify_table
from conftest import open_context
from tables import fight_table

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000


def _campaign(db):
    return fight_table(db, title="Tuesday campaign", foe="Goblin", players=1)


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
    return context, page


def _tab(page, name):
    page.locator(".tt-table-tabs .lm-TabBar-tab", has_text=name).click()


def _shot(page, locator, path):
    view = page.locator(locator)
    height = int(view.evaluate("el => el.scrollHeight")) + 40
    page.set_viewport_size({"width": 1280, "height": max(1000, height)})
    view.evaluate("el => el.scrollIntoView()")
    view.screenshot(path=str(path))
    page.set_viewport_size({"width": 1280, "height": 1000})


def _character(store, made):
    return TableSession.join(store, made.table_id, made.tokens["gm"]).state.characters["c1"]


def test_two_sessions_of_one_campaign(browser, voila_url, voila_db, watch_page, screenshot_dir):
    store, made = _campaign(voila_db)
    base = f"{voila_url}/voila/render/table.ipynb"
    links = made.links(base)
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        gm_watch = watch_page(gm)
        c, pat = _open(browser, links["p1"])
        contexts.append(c)
        first = made.table.seed_hash
        for page in (gm, pat):
            expect(page.locator(".tt-table-commit .tt-commitment")).to_have_text(first, timeout=LOAD_TIMEOUT)

        # session 1: the GM damages Aria; Pat spends Luck on a check
        before = _character(store, made)
        gm.locator(".tt-table-tracker .tt-id-c1 .tt-select").click()
        amount = gm.locator(".tt-table-tracker .tt-amount input")
        amount.fill("2")
        amount.press("Enter")
        gm.locator(".tt-table-tracker .tt-damage").click()
        hp = pat.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")
        expect(hp).not_to_have_text(re.compile(rf"^\s*{before['health']}\b"), timeout=STEP_TIMEOUT)
        luck = pat.locator(".tt-table-tray .tt-tray-situation .tt-option-luck input")
        luck.fill("2")
        luck.press("Tab")
        # the tray's check groups start folded: open the first, as a player does
        pat.locator(".tt-table-tray .tt-check-groups .jupyter-widget-Collapse-header").first.click()
        pat.locator(".tt-table-tray .tt-check-button").first.click()
        expect(pat.locator(".tt-table-log .tt-log-list")).to_contain_text("Luck", timeout=STEP_TIMEOUT)
        after = _character(store, made)
        assert after["health"] < before["health"] and after["luck"] != before["luck"]
        hp_text = hp.inner_text().strip()

        # the GM ends tonight's session, after the confirm step
        _tab(gm, "Sessions")
        gm.locator(".tt-session-end").click()
        expect(gm.locator(".tt-session-confirm-text")).to_contain_text("End session 1?", timeout=STEP_TIMEOUT)
        _shot(gm, ".tt-table-view", screenshot_dir / "campaign_gm_confirm.png")
        gm.locator(".tt-session-confirm").click()
        expect(pat.locator(".tt-table-status")).to_contain_text("Session 1 has ended", timeout=STEP_TIMEOUT)
        seed1 = store.sessions(made.table_id)[0].seed
        expect(pat.locator(".tt-table-commit .tt-seed")).to_have_text(seed1, timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-session-list tr[data-session='1']")).to_contain_text("verified")
        # a roll now is refused, and says why
        pat.locator(".tt-table-tray .tt-tray-notation input").fill("1d20")
        pat.locator(".tt-table-tray .tt-tray-roll").click()
        expect(pat.locator(".tt-table-tray .tt-tray-error")).to_contain_text(
            "Session 1 has ended", timeout=STEP_TIMEOUT
        )
        _shot(pat, ".tt-table-view", screenshot_dir / "campaign_player_ended.png")
        assert verify_table(store, made.table_id, session=1).ok

        # session 2: the GM starts it; every seat gets the new commitment
        gm.locator(".tt-session-start").click()
        expect(gm.locator(".tt-session-confirm-text")).to_contain_text("Start session 2?", timeout=STEP_TIMEOUT)
        gm.locator(".tt-session-confirm").click()
        expect(pat.locator(".tt-table-status")).to_contain_text("Session 2 has started", timeout=STEP_TIMEOUT)
        second = store.sessions(made.table_id)[1].seed_hash
        assert second != first
        expect(pat.locator(".tt-table-commit .tt-commitment")).to_have_text(second, timeout=STEP_TIMEOUT)

        # the same links, opened anew (next week's browsers): the same character, same state
        for ctx in contexts:
            ctx.close()
        contexts = []
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        c, pat = _open(browser, links["p1"])
        contexts.append(c)
        for page in (gm, pat):
            expect(page.locator(".tt-table-commit .tt-commitment")).to_have_text(second, timeout=LOAD_TIMEOUT)
        expect(pat.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")).to_have_text(hp_text, timeout=STEP_TIMEOUT)
        _tab(pat, "Your character")
        expect(pat.locator(".tt-table-sheet-area .tt-sheet-title")).to_contain_text("Aria", timeout=STEP_TIMEOUT)
        # the same state, and then the rules of a new session: RET refills Luck to its maximum
        now = _character(store, made)
        luck_max = get_system("ret").Character.from_dict(after).luck_max
        assert now["luck"] == max(after["luck"], luck_max)
        assert {k: v for k, v in now.items() if k != "luck"} == {k: v for k, v in after.items() if k != "luck"}
        _tab(pat, "Dice")
        pat.locator(".tt-table-tray .tt-tray-notation input").fill("3d6+1000")
        pat.locator(".tt-table-tray .tt-tray-roll").click()
        expect(gm.locator(".tt-table-log .tt-log-list")).to_contain_text("3d6+1000", timeout=STEP_TIMEOUT)
        _tab(gm, "Sessions")
        gm.locator(".tt-session-end").click()
        gm.locator(".tt-session-confirm").click()
        expect(gm.locator(".tt-session-list tr[data-session='2']")).to_contain_text("verified", timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-session-list tr[data-session='1']")).to_contain_text("verified")
        _shot(gm, ".tt-table-view", screenshot_dir / "campaign_gm_sessions.png")
        for n in (1, 2):
            rep = verify_table(store, made.table_id, session=n)
            assert rep.ok and rep.rolls >= 1, rep.text()
        assert verify_table(store, made.table_id).ok
        assert gm_watch.problems() == [] or all("/voila/api/shutdown/" in p for p in gm_watch.problems())
    finally:
        for ctx in contexts:
            ctx.close()
        store.close()


def test_the_lobby_lists_the_campaigns(browser, voila_url, voila_db, watch_page, screenshot_dir):
    from tabletop_widgets.table import prepare_lobby_key

    store = open_store(str(voila_db))
    made = create_table(store, "ret", [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat")], title="Ours")
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("1d20")
    gm.end_session()
    key = prepare_lobby_key(str(voila_db), renew=True)
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{voila_url}/voila/render/lobby.ipynb", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-lobby-campaigns")).to_be_visible(timeout=LOAD_TIMEOUT)
        watch = watch_page(page)
        expect(page.locator(".tt-campaign-pick")).to_be_hidden()
        page.locator(".tt-lobby-key input").fill(key)
        page.locator(".tt-campaigns-show").click()
        pick = page.locator(".tt-campaign-pick select")
        expect(pick).to_be_visible(timeout=STEP_TIMEOUT)
        from tabletop_widgets.core.i18n import tr

        pick.select_option(label=f"Ours — {tr(get_system('ret').title, 'en')} — session 1 (ended)")
        detail = page.locator(".tt-campaign-detail")
        expect(detail).to_contain_text("✓ verified", timeout=STEP_TIMEOUT)
        page.locator(".tt-campaign-start").click()
        expect(page.locator(".tt-campaign-message")).to_contain_text("Session 2 is open", timeout=STEP_TIMEOUT)
        expect(detail.locator("tr[data-session='2']")).to_contain_text("open now")
        page.locator(".tt-lobby-campaigns").screenshot(path=str(screenshot_dir / "campaign_lobby.png"))
        gm.poll()
        assert gm.session_number == 2 and gm.session_open
        assert [p for p in watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        context.close()
        store.close()
