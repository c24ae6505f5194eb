"""Attacks at a shared table in the browser (issue 16): Pat attacks the Goblin (an NPC, whose
sheet only the GM's page holds) on Aria's turn; the odds show before the roll; the Goblin's
defence is the GM's choice, asked on the GM's page; the attack is rolled there with the table's
fair dice; the GM's and Quinn's screens show the result; then the GM's Goblin attacks Boris and
Quinn answers the defence on his own page; ``verify`` passes after the table is closed.
Screenshots: the player's attack with its odds, and the defender's question."""

from __future__ import annotations

import re

import pytest
from conftest import open_context
from playwright.sync_api import expect
from tables import fight_table

from tabletop_widgets.table import TableSession, open_store, verify_table
from tabletop_widgets.table.combat_sync import CombatSync

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 90_000


def _table(db):
    """The fight table (Gail, Pat with Aria ``c1``, Quinn with Boris ``c2``, the GM's Goblin), on
    Aria's turn (the turns moved on by the GM's combat, with the table's dice)."""
    store, made = fight_table(db, title="Attacks", foe="Goblin", players=2)
    sync = CombatSync(TableSession.join(store, made.table_id, made.tokens["gm"]))
    for _ in range(6):
        if sync.combat.current == "c1":
            break
        sync.combat.next_turn()
    assert sync.combat.current == "c1"
    goblin = next(cid for cid in sync.combat.ids if sync.combat.name(cid) == "Goblin")
    store.close()
    return made, goblin


def _open(browser, url):
    context = open_context(browser, viewport={"width": 1280, "height": 1100})
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-tracker .tt-combatant")).to_have_count(3, timeout=LOAD_TIMEOUT)
    return context, page


def _open_attack(tracker):
    """Open the selected combatant's Attack part (a click on its header)."""
    tracker.locator(".tt-attack-fold .jupyter-widget-Collapse-header").click()
    expect(tracker.locator(".tt-attack-panel")).to_be_visible(timeout=STEP_TIMEOUT)


def _asked_or_rolled(page, question, status, line: re.Pattern) -> bool:
    """Wait until the defender's ``question`` shows (True) or ``status`` tells the attack's
    ``line`` (False: the attack had no defender's choice and was rolled at once)."""
    for _ in range(STEP_TIMEOUT // 1000):
        if question.count():
            return True
        if line.search(status.inner_text()):
            return False
        page.wait_for_timeout(1000)
    raise AssertionError(f"neither the defender's question nor {line.pattern!r} appeared")


def test_a_player_attacks_an_npc_at_a_shared_table(browser, voila_url, voila_db, watch_page, screenshot_dir):
    made, goblin = _table(voila_db)
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    contexts = []
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        gm_watch = watch_page(gm)
        c, pat = _open(browser, links["p1"])
        contexts.append(c)
        pat_watch = watch_page(pat)
        c, quinn = _open(browser, links["p2"])
        contexts.append(c)
        mine, theirs, gms = (p.locator(".tt-table-tracker") for p in (pat, quinn, gm))

        # Aria's turn: Pat's page selects her, and only Pat has the Attack part
        expect(mine.locator(".tt-selected-name")).to_have_text("Aria", timeout=STEP_TIMEOUT)
        _open_attack(mine)
        expect(theirs.locator(".tt-attack-fold")).to_have_count(0)
        # the first target is a foe, the GM's Goblin, and the list says who plays each
        expect(mine.locator(".tt-attack-target select")).to_have_value("Goblin · GM", timeout=STEP_TIMEOUT)
        mine.locator(".tt-attack-target select").select_option(label="Goblin · GM")
        expect(mine.locator(".tt-attack-choice select option").first).to_be_attached(timeout=STEP_TIMEOUT)
        # the odds before the roll, worked out by the GM's page from the Goblin's real sheet
        odds = mine.locator(".tt-attack-odds")
        expect(odds).to_contain_text("Chance to hit", timeout=STEP_TIMEOUT)
        expect(mine.locator(".tt-attack-chart")).not_to_be_empty(timeout=STEP_TIMEOUT)
        before = odds.inner_text()
        pat.wait_for_timeout(300)
        mine.screenshot(path=str(screenshot_dir / "table_attack_player.png"))

        mine.locator(".tt-attack-go").click()
        status = pat.locator(".tt-attack-status")
        expect(status).to_contain_text(re.compile("sent|hits|misses"), timeout=STEP_TIMEOUT)  # sent, or rolled
        # the Goblin's defence is the GM's choice: the GM's page asks (when the attack has one)
        question = gm.locator(".tt-attack-question")
        line = re.compile(r"Aria (hits|misses) Goblin")  # the sentence a GM would say
        if _asked_or_rolled(pat, question, status, line):
            expect(question).to_contain_text("How does Goblin defend?")
            question.locator(".tt-attack-answer").click()
        expect(status).to_contain_text(line, timeout=STEP_TIMEOUT)
        # every screen shows the result: the GM's and Quinn's trackers have the attack's line
        expect(gms.locator(".tt-tracker-log")).to_contain_text(line, timeout=STEP_TIMEOUT)
        expect(theirs.locator(".tt-tracker-log")).to_contain_text(line, timeout=STEP_TIMEOUT)
        assert before  # the odds were there before the roll

        # the GM's Goblin attacks Boris: Quinn is asked how Boris defends, on his own page
        gms.locator(f".tt-id-{goblin} .tt-select").click()
        expect(gms.locator(".tt-selected-name")).to_have_text("Goblin", timeout=STEP_TIMEOUT)
        _open_attack(gms)
        gms.locator(".tt-attack-target select").select_option(label="Boris · Quinn")
        expect(gms.locator(".tt-attack-odds")).to_contain_text("Chance to hit", timeout=STEP_TIMEOUT)
        gms.locator(".tt-attack-go").click()
        asked = quinn.locator(".tt-attack-question")
        if _asked_or_rolled(quinn, asked, gm.locator(".tt-attack-status"), re.compile(r"Goblin (hits|misses) Boris")):
            expect(asked).to_contain_text("How does Boris defend?", timeout=STEP_TIMEOUT)
            quinn.wait_for_timeout(300)
            quinn.locator(".tt-table-combat").screenshot(path=str(screenshot_dir / "table_attack_defender.png"))
            expect(gm.locator(".tt-attack-question .tt-attack-answer")).to_contain_text("Answer for Quinn")
            asked.locator(".tt-attack-answer").click()
        expect(theirs.locator(".tt-tracker-log")).to_contain_text(
            re.compile(r"Goblin (hits|misses) Boris"), timeout=STEP_TIMEOUT
        )
        expect(asked).to_have_count(0, timeout=STEP_TIMEOUT)
        for w in (gm_watch, pat_watch):
            assert [p for p in w.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        for c in contexts:
            c.close()
    store = open_store(str(voila_db))
    try:
        TableSession.join(store, made.table_id, made.tokens["gm"]).close_table()
        rep = verify_table(store, made.table_id)
        assert rep.ok, rep.text()
        attacks = [e for e in store.events(made.table_id) if e.kind == "attack"]
        assert len(attacks) == 2 and rep.checked == rep.rolls
    finally:
        store.close()
