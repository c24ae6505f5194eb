"""The shared table in a real Voila server and Chromium: a GM and two players in separate
browser contexts (separate kernels) on one table in the server's TABLETOP_DB.

* a player's roll, a GM's damage and a GM's turn advance appear on the other screens with
  nobody touching anything there (each kernel's follower task applies them);
* a hidden GM roll reaches neither a player's DOM nor any websocket frame the player's page
  receives;
* a reload rebuilds the same screen from the store;
* a Voila viewer cannot execute code (an execute_request sent over the kernel websocket gets no
  answer, while a kernel_info_request on the same socket does);
* a link without a valid seat token gets a clear page and nothing of the table;
* the index page links the pages; the lobby creates a table and shows the seat links.

Page loads are the cost here (~4 s each on 2 cores): 3 seats + 1 reload + 1 bad link + index
+ lobby.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
from conftest import open_context
from tables import fight_table

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 120_000
STEP_TIMEOUT = 30_000
SECRET = "918273641"  # the hidden roll's total (1d1+918273640)


def _open(browser, url, frames=None):
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    if frames is not None:
        page.on(
            "websocket",
            lambda ws: (
                frames["urls"].append(ws.url),
                ws.on("framereceived", lambda payload: frames["data"].append(payload)),
            ),
        )
    page.goto(url, timeout=LOAD_TIMEOUT)
    return context, page


def _ready(page):
    expect(page.locator(".tt-table-view")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(".tt-table-tracker .tt-round-number")).to_have_text("1", timeout=LOAD_TIMEOUT)


def _frames_text(frames) -> str:
    out = []
    for f in frames["data"]:
        out.append(f.decode("utf-8", "replace") if isinstance(f, (bytes, bytearray)) else str(f))
    return "\n".join(out)


def _problems(watch) -> list[str]:
    """Console errors and failed requests, but the 403 that Voila's own beforeunload POST to
    /voila/api/shutdown/<kernel> gets when a page is left (the old kernel is culled later)."""
    return [p for p in watch.problems() if "/voila/api/shutdown/" not in p]


FORGE_JS = """
async ([url, marker]) => await new Promise((resolve) => {
  const ws = new WebSocket(url);
  const got = [];
  const mk = (type, content, id) => JSON.stringify({
    header: {msg_id: id, username: 'viewer', session: 'forged-session', msg_type: type, version: '5.3',
             date: new Date().toISOString()},
    parent_header: {}, metadata: {}, content: content, channel: 'shell', buffers: []});
  ws.onmessage = (m) => {
    try { const d = JSON.parse(m.data);
          got.push([d.header ? d.header.msg_type : d.msg_type, d.parent_header ? d.parent_header.msg_id : null]); }
    catch (e) { got.push(['binary', null]); }
  };
  ws.onerror = () => resolve([['socket-error', null]]);
  ws.onopen = () => {
    ws.send(mk('execute_request', {code: "open(" + JSON.stringify(marker) + ", 'w').write('pwned')",
                                   silent: false, store_history: false, user_expressions: {},
                                   allow_stdin: false, stop_on_error: true}, 'forged-exec'));
    ws.send(mk('kernel_info_request', {}, 'forged-info'));
    setTimeout(() => { ws.close(); resolve(got); }, 4000);
  };
})
"""


def test_shared_table_in_three_browsers(browser, voila_url, voila_db, watch_page, screenshot_dir, tmp_path):
    store, made = fight_table(voila_db, title="Browser table", foe="Goblin")
    base = f"{voila_url}/voila/render/table.ipynb"
    links = made.links(base)
    contexts = []
    frames = {"urls": [], "data": []}
    try:
        c, gm = _open(browser, links["gm"])
        contexts.append(c)
        gm_watch = watch_page(gm)
        c, p1 = _open(browser, links["p1"], frames)
        contexts.append(c)
        p1_watch = watch_page(p1)
        c, p2 = _open(browser, links["p2"])
        contexts.append(c)
        for page in (gm, p1, p2):
            _ready(page)
        # what each seat got
        expect(gm.locator(".tt-gm-notes")).to_have_count(1)  # (in the Notes tab)
        expect(gm.locator(".tt-hidden-roll")).to_be_visible()
        for page in (p1, p2):
            expect(page.locator(".tt-gm-notes")).to_have_count(0)
            expect(page.locator(".tt-hidden-roll")).to_have_count(0)
        for page, name in ((p1, "Aria"), (p2, "Boris")):  # each sheet is built when its tab opens
            page.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Your character").click()
            expect(page.locator(".tt-table-sheet-area .tt-sheet-title")).to_contain_text(name)
            page.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Dice").click()

        # 1. a player's roll appears on the GM's and the other player's screens
        p1.locator(".tt-tray-notation input").fill("2d6+100")
        p1.locator(".tt-tray-roll").click()
        expect(p1.locator(".tt-table-tray .tt-result-body")).to_contain_text("2d6+100", timeout=STEP_TIMEOUT)
        for page in (gm, p2):
            expect(page.locator(".tt-table-log .tt-log-list")).to_contain_text("2d6+100", timeout=STEP_TIMEOUT)
            expect(page.locator(".tt-table-log .tt-log-list")).to_contain_text("Pat")

        # 2. a damage by the GM appears on both players' trackers and on Pat's own sheet
        hp = p1.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")
        before = hp.inner_text().strip()
        gm.locator(".tt-table-tracker .tt-id-c1 .tt-select").click()
        amount = gm.locator(".tt-table-tracker .tt-amount input")
        amount.fill("2")
        amount.press("Enter")
        gm.locator(".tt-table-tracker .tt-damage").click()
        gm_hp = gm.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")
        expect(gm_hp).not_to_have_text(before, timeout=STEP_TIMEOUT)
        after = gm_hp.inner_text().strip()
        assert int(re.findall(r"-?\d+", after)[0]) < int(re.findall(r"-?\d+", before)[0])
        for page in (p1, p2):
            expect(page.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")).to_have_text(after, timeout=STEP_TIMEOUT)

        # 3. a turn advance by the GM moves the highlight on both players' screens
        current = gm.locator(".tt-table-tracker .tt-current-name")
        was = current.inner_text().strip()
        gm.locator(".tt-table-tracker .tt-next").click()
        expect(current).not_to_have_text(was, timeout=STEP_TIMEOUT)
        now = current.inner_text().strip()
        for page in (p1, p2):
            expect(page.locator(".tt-table-tracker .tt-current-name")).to_have_text(now, timeout=STEP_TIMEOUT)
            expect(page.locator(".tt-table-tracker .tt-combatant.tt-current .tt-select")).to_have_text(now)

        # 4. a hidden GM roll: on the GM's screen only
        gm.locator(".tt-hidden-roll input").check()
        gm.locator(".tt-table-tray .tt-tray-notation input").fill("1d1+918273640")
        gm.locator(".tt-table-tray .tt-tray-roll").click()
        expect(gm.locator(".tt-table-log .tt-log-list")).to_contain_text(SECRET, timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-table-log .tt-log-list")).to_contain_text("hidden")
        gm.locator(".tt-hidden-roll input").uncheck()
        gm.locator(".tt-table-tray .tt-tray-notation input").fill("1d1+776")
        gm.locator(".tt-table-tray .tt-tray-roll").click()
        for page in (p1, p2):  # the public roll after it has arrived: the hidden one had its chance
            expect(page.locator(".tt-table-log .tt-log-list")).to_contain_text("777", timeout=STEP_TIMEOUT)
            assert SECRET not in page.content()
        assert any("/api/kernels/" in u for u in frames["urls"])
        assert frames["data"], "no websocket frames recorded"
        assert "777" in _frames_text(frames)  # the recording works ...
        assert SECRET not in _frames_text(frames)  # ... and never saw the hidden roll
        assert "918273640" not in _frames_text(frames)

        # every seat shows the full dice commitment and the same log checkpoint (head): the hash
        # of the table's last event, which each of them has received (the public roll)
        last = store.events(made.table_id)[-1]
        assert last.kind == "roll" and "777" in json.dumps(last.payload)
        for page in (gm, p1, p2):
            expect(page.locator(".tt-table-commit .tt-head")).to_have_text(last.hash, timeout=STEP_TIMEOUT)
            expect(page.locator(".tt-table-commit .tt-commitment")).to_have_text(made.table.seed_hash)

        for page, name in ((gm, "table_gm.png"), (p1, "table_player.png")):
            view = page.locator(".tt-table-view")
            height = int(view.evaluate("el => el.scrollHeight")) + 40
            page.set_viewport_size({"width": 1280, "height": max(1000, height)})
            view.evaluate("el => el.scrollIntoView()")
            view.screenshot(path=str(screenshot_dir / name))
            page.set_viewport_size({"width": 1280, "height": 1000})

        # the other tabs draw: the GM's sheets of every character, the player's own sheet
        gm.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Characters").click()
        expect(gm.locator(".tt-table-sheets .tt-sheet").first).to_be_visible(timeout=STEP_TIMEOUT)
        expect(gm.locator(".tt-table-sheets .lm-TabBar-tab")).to_have_count(2)
        p1.locator(".tt-table-tabs .lm-TabBar-tab", has_text="Your character").click()
        expect(p1.locator(".tt-table-tabs .tt-sheet")).to_be_visible(timeout=STEP_TIMEOUT)
        expect(p1.locator(".tt-table-tabs .tt-sheet")).to_have_count(1)

        # 5. a Voila viewer cannot execute code in their kernel
        kernel_ws = next(u for u in frames["urls"] if "/api/kernels/" in u)
        # a connection of its own (a new client session id), as a hand-written client would open
        kernel_ws = re.sub(r"session_id=[^&]*", "session_id=forged-session", kernel_ws)
        marker = tmp_path / "executed.txt"
        got = p1.evaluate(FORGE_JS, [kernel_ws, str(marker)])
        replies = {(t, parent) for t, parent in got}
        assert ("kernel_info_reply", "forged-info") in replies, got  # the socket is live
        assert not [m for m in got if m[1] == "forged-exec"], got  # no reply, no status, nothing
        assert not marker.exists()

        # 6. a reload rebuilds the same screen (new kernel, state from the store)
        log_before = p1.locator(".tt-table-log .tt-log-list").text_content()
        round_before = p1.locator(".tt-table-tracker .tt-round").text_content()
        frames["data"].clear()
        p1.reload(timeout=LOAD_TIMEOUT)
        _ready(p1)
        expect(p1.locator(".tt-table-tracker .tt-id-c1 .tt-hp-text")).to_have_text(after)
        expect(p1.locator(".tt-table-tracker .tt-round")).to_have_text(round_before)
        expect(p1.locator(".tt-table-log .tt-log-list")).to_have_text(log_before)
        assert SECRET not in p1.content() and SECRET not in _frames_text(frames)
        # (the reload's beforeunload POST to /voila/api/shutdown/<kernel> answers 403 in this
        # Voila: the old kernel is left to the culler; that is Voila's, not the page's)
        assert gm_watch.problems() == []
        assert _problems(p1_watch) == []
    finally:
        for c in contexts:
            c.close()
        store.close()


def test_bad_links_and_the_lobby(browser, voila_url, voila_db, watch_page, screenshot_dir):
    context = open_context(
        browser, viewport={"width": 1100, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    page = context.new_page()
    try:
        # a wrong token for a real table: a clear page, nothing of the table
        store = open_store(str(voila_db))
        made = create_table(store, "ret", [SeatSpec("gm", "gm", "Gail")], title="Secret title")
        store.close()
        page.goto(f"{voila_url}/voila/render/table.ipynb?table={made.table_id}&seat=not-a-token", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-seat-error")).to_be_visible(timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-seat-error")).to_contain_text("not valid")
        expect(page.locator(".tt-table-view")).to_have_count(0)
        assert "Secret title" not in page.content()

        watch = watch_page(page)
        # the index page links every page; its lobby link leads to the lobby
        page.goto(f"{voila_url}/voila/render/index.ipynb", timeout=LOAD_TIMEOUT)
        index_links = page.locator(".tt-index a.tt-index-link")
        notebooks = Path(__file__).resolve().parents[2] / "notebooks"
        pages = sorted(
            p.relative_to(notebooks).as_posix()
            for p in notebooks.rglob("*.ipynb")
            if p.name not in ("index.ipynb", "table.ipynb") and ".ipynb_checkpoints" not in p.parts
        )
        expect(index_links).to_have_count(len(pages), timeout=LOAD_TIMEOUT)
        hrefs = [index_links.nth(i).get_attribute("href") for i in range(len(pages))]
        # every page but the index itself and the seat-bound table page is linked
        assert sorted(h.split("?")[0] for h in hrefs) == pages
        page.locator(".tt-index a.tt-index-link", has_text="New table").click()
        expect(page.locator(".tt-lobby")).to_be_visible(timeout=LOAD_TIMEOUT)
        assert page.url.endswith("/voila/render/lobby.ipynb")
        # the lobby asks for the server's key: a wrong one creates nothing, the right one does
        from tabletop_widgets.table import prepare_lobby_key

        lobby_key = prepare_lobby_key(str(voila_db), renew=True)
        page.locator(".tt-lobby-key input").fill("not the key")
        page.locator(".tt-lobby-create").click()
        expect(page.locator(".tt-lobby-error")).to_contain_text("lobby key is wrong", timeout=STEP_TIMEOUT)
        expect(page.locator(".tt-lobby-links a")).to_have_count(0)

        # a saved character for the first seat: a broken file says why; a good one names the seat
        def pick_file(name: str, content: bytes) -> None:
            # the file field opens the browser's file chooser (its input is not in the page)
            with page.expect_file_chooser() as chooser:
                page.locator(".tt-lobby-character-file").first.click()
            chooser.value.set_files({"name": name, "mimeType": "application/json", "buffer": content})

        pick_file("broken.json", b"{not json")
        notes = page.locator(".tt-lobby-character-status")
        expect(notes.first).to_contain_text("“broken.json” cannot be used: it is not JSON", timeout=STEP_TIMEOUT)
        hero = get_system("ret").Character(name="Yaroslava").to_dict()
        pick_file("yaroslava.json", json.dumps(hero).encode())
        expect(notes.first).to_contain_text("Loaded: yaroslava.json", timeout=STEP_TIMEOUT)
        expect(page.locator(".tt-lobby-character-name input").first).to_have_value("Yaroslava")
        page.locator(".tt-lobby-key input").fill(lobby_key)
        page.locator(".tt-lobby-create").click()
        links = page.locator(".tt-lobby-links a")
        expect(links).to_have_count(3, timeout=STEP_TIMEOUT)  # GM + 2 players by default
        href = links.first.get_attribute("href")
        assert "/voila/render/table.ipynb?table=" in href and "&seat=" in href
        player_href = links.nth(1).get_attribute("href")
        # copy all: one message for the chat, every player's link and never the GM's
        page.locator(".tt-copy-all button").click()
        expect(page.locator(".tt-copy-all")).to_have_attribute("data-copied", "clipboard", timeout=STEP_TIMEOUT)
        pasted = page.evaluate("navigator.clipboard.readText()")
        assert pasted.startswith("Links to") and player_href in pasted and href not in pasted
        assert "(plays Yaroslava)" in pasted and "Dice commitment:" in pasted
        # a browser that refuses the clipboard (plain http on a LAN): the link is shown selected
        page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }")
        page.locator(".tt-copy-player button").first.click()
        fallback = page.locator(".tt-copy-player .tt-copy-fallback").first
        expect(fallback).to_be_visible(timeout=STEP_TIMEOUT)
        expect(fallback).to_have_value(player_href)
        assert page.evaluate("document.activeElement.classList.contains('tt-copy-fallback')")
        page.screenshot(path=str(screenshot_dir / "lobby.png"), full_page=True)
        assert _problems(watch) == []
        # the link works: a token the lobby made joins the table in the server's store
        from urllib.parse import parse_qs, urlparse

        q = parse_qs(urlparse(href).query)
        s = TableSession.join(open_store(str(voila_db)), q["table"][0], q["seat"][0])
        assert s.role == "gm" and json.dumps(s.state.characters)
        assert s.state.characters["c1"] == hero  # the saved character, as the file held it
    finally:
        context.close()
