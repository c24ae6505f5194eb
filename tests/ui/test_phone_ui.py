"""Every page on a phone: a 390x844 viewport in Chromium against a real Voila server.

Remote players often join from a phone. For the player's and the GM's table pages, the lobby, the
index, the dice page and each ``play_<slug>`` page, as first shown and again after the parts a user opens on a
phone (the player's "Your character" tab, every folded sheet section, a combatant's panel):

* no element is wider than the viewport: no element's left edge before 0 or right edge past 390;
* nothing of ours is clipped: no element inside our widgets (``tt-`` classes) has a scrollWidth
  greater than its clientWidth (a button cut to "Rol", a label cut to "Nam", an input too narrow
  for its value, a row that scrolls sideways);
* on the player's page every combatant's HP bar is on screen, and the dice (the seat's tabs) come
  before the table log;
* every character of our rendered text is one that the common default fonts have (both DejaVu
  Sans and Liberation Sans, the metric twin of Arial), or one of the nine signs of the bundled
  "TT Symbols" font (theme.css) drawn in that font: no sign shows as an empty box.

Screenshots of each page at 390 px wide (a play page: its sheet's first screens and its fight) go
to ``docs/screenshots/phone_*.png`` with ``TT_SCREENSHOTS=1``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import open_context
from tables import fight_table

pytestmark = pytest.mark.ui

PHONE = {"width": 390, "height": 844}
LOAD_TIMEOUT = 300_000  # a play page on a loaded 2-core machine can take minutes
STEP_TIMEOUT = 60_000
PLAY = ["ret", "seasons", "life_and_death", "threads_of_fate"]
WIDGET_OUTPUT = re.compile(r"application/vnd\.jupyter\.widget-view\+json")

#: Elements past the viewport's edges, and elements of ours whose content is cut.
FIT_JS = r"""
() => {
  const W = document.documentElement.clientWidth;
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === "none" || s.visibility === "hidden") return false;
    }
    return true;
  };
  const name = (el) => {
    const own = el.tagName.toLowerCase() + [...el.classList].filter(c => !c.startsWith("lm-") && !c.startsWith("jupyter"))
      .slice(0, 3).map(c => "." + c).join("");
    const tt = el.closest("[class*='tt-']");
    const ttc = tt ? [...tt.classList].filter(c => c.startsWith("tt-")).slice(0, 3).join(".") : "";
    return ttc && tt !== el ? `${own} in .${ttc}` : own;
  };
  const text = (el) => (el.value || el.innerText || "").trim().replace(/\s+/g, " ").slice(0, 40);
  const out = { width: W, checked: 0, wide: [], clipped: [] };
  for (const el of document.querySelectorAll("body *")) {
    if (["STYLE", "SCRIPT", "OPTION", "BR", "svg"].includes(el.tagName)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || !shown(el)) continue;
    out.checked++;
    if (r.right > W + 0.5 || r.left < -0.5) {
      out.wide.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px: "${text(el)}"`);
    }
    // an editable field's own value scrolls under the caret: not clipping (its box is checked)
    const editable = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && ["text", "search", ""].includes(el.type));
    if (!editable && el.closest("[class*='tt-']") && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      out.clipped.push(`${name(el)} needs ${el.scrollWidth} px, has ${el.clientWidth}: "${text(el)}"`);
    }
  }
  return out;
}
"""


#: Code points that both DejaVu Sans 2.37 and Liberation Sans 2.1 have (``fc-query --format
#: '%{charset}'`` of each, intersected): what any default font shows.
SAFE_RANGES = (
    "20-7e a0-17f 192 1fa-1ff 218-21b 2c6-2c7 2c9 2d8-2dd 37e 384-38a 38c 38e-3a1 3a3-3ce 400-45f 472-473 "
    "490-491 1e80-1e85 1ef2-1ef3 2010-2011 2013-2015 2017-201e 2020-2022 2026 2030 2032-2033 2039-203a 203c "
    "203e 2044 207f 20a3-20a4 20a7 20ac 2105 2113 2116 2122 2126 212e 215b-215e 2190-2195 21a8 2202 2206 220f "
    "2211-2212 2215 2219-221a 221e-221f 2229 222b 2248 2260-2261 2264-2265 2302 2310 2320-2321 2500 2502 250c "
    "2510 2514 2518 251c 2524 252c 2534 253c 2550-256c 2580 2584 2588 258c 2590-2593 25a0-25a1 25aa-25ac 25b2 "
    "25ba 25bc 25c4 25ca-25cb 25cf 25d8-25d9 25e6 263a-263c 2640 2642 2660 2663 2665-2666 266a-266c"
)
#: The signs of the bundled "TT Symbols" font (theme.css's @font-face and its unicode-range).
SYMBOLS = "\u21b6\u25b6\u25c0\u26a0\u2713\u2715\u2716\u2717\u2b07"


def _ranges(text: str) -> list[list[int]]:
    out = []
    for part in text.split():
        a, _, b = part.partition("-")
        out.append([int(a, 16), int(b or a, 16)])
    return out


#: Characters of our text that a default font may lack, and signs not drawn in TT Symbols.
GLYPHS_JS = r"""
([safe, symbols]) => {
  const ok = (cp) => safe.some(([a, b]) => cp >= a && cp <= b);
  const bad = new Map();
  let symbolsSeen = 0, checked = 0;
  for (const el of document.querySelectorAll("[class*='tt-'], [class*='tt-'] *")) {
    if (["STYLE", "SCRIPT", "OPTION"].includes(el.tagName)) continue;
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") continue;
    let text = "";
    if (["INPUT", "TEXTAREA"].includes(el.tagName)) text = el.value || el.placeholder || "";
    else if (el.tagName === "SELECT") text = el.selectedOptions.length ? el.selectedOptions[0].textContent : "";
    else text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join("");
    for (const ch of text) {
      if (/[\s\p{Cf}]/u.test(ch)) continue;  // spaces and invisible marks (a zero-width space) draw nothing
      checked++;
      const cp = ch.codePointAt(0);
      if (ok(cp)) continue;
      if (symbols.includes(ch) && st.fontFamily.replace(/["']/g, "").startsWith("TT Symbols")) { symbolsSeen++; continue; }
      const why = symbols.includes(ch) ? `not in TT Symbols (font-family ${st.fontFamily})` : "not in every default font";
      const key = `U+${cp.toString(16).toUpperCase().padStart(4, "0")} "${ch}" ${why}`;
      if (!bad.has(key)) bad.set(key, `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}: "${text.trim().slice(0, 40)}"`);
    }
  }
  return { checked, symbolsSeen, loaded: document.fonts.check("16px 'TT Symbols'", symbols),
           bad: [...bad].map(([k, v]) => `${k}, e.g. in ${v}`) };
}
"""


def _glyphs(page, where: str) -> None:
    result = page.evaluate(GLYPHS_JS, [_ranges(SAFE_RANGES), SYMBOLS])
    assert result["checked"] > 20, f"{where}: only {result['checked']} characters read"
    assert result["bad"] == [], f"{where}: characters that may show as empty boxes:\n" + "\n".join(result["bad"])
    if result["symbolsSeen"]:
        assert result["loaded"], f"{where}: signs drawn in TT Symbols, but the font did not load"


@pytest.fixture(scope="module")
def phone_table(voila_db, voila_url):
    """A RET table with a GM and two players, a fight under way (a long name among them)."""
    store, made = fight_table(voila_db, title="Phone table", foe="Goblin warlord of the deep caves")
    store.close()
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    yield {"gm": links["gm"], "player": links["p1"]}


def _open(browser, url, watch_page, marker):
    context = open_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    watch = watch_page(page)
    response = page.goto(url, timeout=LOAD_TIMEOUT)
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    n_widgets = len(WIDGET_OUTPUT.findall(response.text()))
    try:
        expect(page.locator(marker).first).to_be_visible(timeout=LOAD_TIMEOUT)
    except AssertionError:
        # Once seen under load: Voila dropped the sheet cell's output (nbclient's iopub_timeout,
        # now 120 s in voila.json). Say what the page showed before failing.
        outputs = page.locator(".jp-OutputArea-output").count()
        drawn = page.locator(".jp-OutputArea-output > .jupyter-widgets").count()
        print(f"{url}: {marker} not drawn; {drawn} of {n_widgets} widget outputs drawn, {outputs} outputs;")
        print("  what the page reported:", watch.problems())
        raise
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets').length >= n",
        arg=n_widgets,
        timeout=LOAD_TIMEOUT,
    )
    return context, page, watch


def _fits(page, where: str) -> None:
    page.wait_for_timeout(400)  # one layout after the last change
    result = page.evaluate(FIT_JS)
    assert result["width"] == PHONE["width"], result["width"]
    assert result["checked"] >= 20, f"{where}: only {result['checked']} elements measured"
    problems = [f"wider than the screen: {w}" for w in result["wide"]]
    problems += [f"clipped: {c}" for c in result["clipped"]]
    assert not problems, f"{where} at {PHONE['width']} px:\n" + "\n".join(problems[:40])
    _glyphs(page, where)


def _screenshot(page, path, part: str | None = None, max_height: int = 16000) -> None:
    """The whole page at phone width, or from the top of ``part`` down (Voila scrolls inside its
    own container: the viewport grows to the content's height first)."""
    height = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('body, body *')).map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": PHONE["width"], "height": min(int(height) + 40, 16000)})
    page.wait_for_timeout(300)
    if part is None:
        page.screenshot(
            path=str(path), clip={"x": 0, "y": 0, "width": PHONE["width"], "height": min(height, max_height)}
        )
    else:
        box = page.locator(part).first.bounding_box()
        top = max(0, box["y"] - 8)
        clip = {"x": 0, "y": top, "width": PHONE["width"], "height": min(box["height"] + 16, max_height)}
        page.screenshot(path=str(path), clip=clip)
    page.set_viewport_size(PHONE)


def _problems(watch) -> list[str]:
    return [p for p in watch.problems() if "/voila/api/shutdown/" not in p]


def _open_folded_sections(page) -> None:
    """Unfold every folded sheet section, one after the other (each is built on first open)."""
    folded = page.locator(".tt-section.tt-folded .tt-section-toggle:visible")
    n = folded.count()
    while n:
        folded.first.click()
        expect(folded).to_have_count(n - 1, timeout=STEP_TIMEOUT)
        n -= 1


def test_player_table_page_on_a_phone(browser, voila_url, phone_table, watch_page, screenshot_dir):
    context, page, watch = _open(browser, phone_table["player"], watch_page, ".tt-table-view")
    try:
        expect(page.locator(".tt-table-tracker .tt-round-number")).to_have_text("1", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-table-tracker .tt-combatant")).to_have_count(3, timeout=STEP_TIMEOUT)
        _fits(page, "the player's table page")
        # HP always in view: every combatant's bar is inside the screen's width
        bars = page.locator(".tt-table-tracker .tt-hp-bar")
        expect(bars).to_have_count(3)
        for i in range(3):
            expect(bars.nth(i)).to_be_visible()
            box = bars.nth(i).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
            assert re.fullmatch(r"-?\d+ / \d+", bars.nth(i).inner_text().strip())
        # the dice come first: the seat's tabs (Dice open) sit above the table log
        tray = page.locator(".tt-table-tabs .tt-table-tray")
        expect(tray).to_be_visible()
        log = page.locator(".tt-table-log")
        assert tray.bounding_box()["y"] < log.bounding_box()["y"], "the table log comes before the dice tray"
        tracker_box = page.locator(".tt-table-tracker").bounding_box()
        assert tracker_box["y"] < tray.bounding_box()["y"]
        # the Roll button shows its whole word and rolls
        roll = page.locator(".tt-table-tray .tt-tray-roll")
        assert roll.evaluate("b => b.scrollWidth <= b.clientWidth")
        page.locator(".tt-table-tray .tt-tray-notation input").fill("2d6+3")
        roll.click()
        expect(page.locator(".tt-table-tray .tt-result-body")).to_contain_text("2d6+3", timeout=STEP_TIMEOUT)
        _fits(page, "the player's table page after a roll")
        _screenshot(page, screenshot_dir / "phone_table_player.png")
        # the character tab: the sheet in one column, every section open
        page.locator(".tt-table-tabs .lm-TabBar-tab").nth(1).click()
        expect(page.locator(".tt-table-tabs .tt-sheet")).to_be_visible(timeout=STEP_TIMEOUT)
        _open_folded_sections(page)
        _fits(page, "the player's sheet")
        sections = page.locator(".tt-table-tabs .tt-sheet .tt-section")
        xs = {round(sections.nth(i).bounding_box()["x"]) for i in range(sections.count())}
        assert len(xs) == 1, f"the sheet's sections are not in one column: x = {sorted(xs)}"
        _screenshot(page, screenshot_dir / "phone_table_player_sheet.png", ".tt-table-tabs", max_height=3000)
        assert _problems(watch) == []
    finally:
        context.close()


def test_gm_table_page_on_a_phone(browser, voila_url, phone_table, watch_page, screenshot_dir):
    context, page, watch = _open(browser, phone_table["gm"], watch_page, ".tt-table-view")
    try:
        expect(page.locator(".tt-table-tracker .tt-round-number")).to_have_text("1", timeout=LOAD_TIMEOUT)
        expect(page.locator(".tt-table-tracker .tt-combatant")).to_have_count(3, timeout=STEP_TIMEOUT)
        _fits(page, "the GM's table page")
        for i in range(3):
            box = page.locator(".tt-table-tracker .tt-hp-bar").nth(i).bounding_box()
            assert box and box["x"] + box["width"] <= PHONE["width"], box
        # a combatant's panel (damage, healing, conditions) fits too
        page.locator(".tt-table-tracker .tt-id-c1 .tt-select").click()
        expect(page.locator(".tt-table-tracker .tt-tracker-panel")).to_be_visible(timeout=STEP_TIMEOUT)
        _fits(page, "the GM's table page with a combatant's panel")
        _screenshot(page, screenshot_dir / "phone_table_gm.png")
        assert _problems(watch) == []
    finally:
        context.close()


@pytest.mark.parametrize(
    "rel, marker, shot",
    [
        ("index.ipynb", ".tt-index-page", "phone_index.png"),
        ("lobby.ipynb", ".tt-lobby", "phone_lobby.png"),
        ("dice.ipynb", ".tt-roller", "phone_dice.png"),
    ],
)
def test_index_lobby_and_dice_on_a_phone(browser, voila_url, watch_page, screenshot_dir, rel, marker, shot):
    context, page, watch = _open(browser, f"{voila_url}/voila/render/{rel}", watch_page, marker)
    try:
        if rel == "index.ipynb":
            # "Play" first: the four play pages lead the index, the other pages follow
            links = page.locator(".tt-index a.tt-index-link")
            expect(links.first).to_be_visible()
            hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
            assert hrefs[:4] == [f"play_{slug}.ipynb" for slug in PLAY], hrefs
            assert len(hrefs) > 4 and not any(h.startswith("play_") for h in hrefs[4:]), hrefs
            heads = page.locator(".tt-index h2")
            expect(heads.first).to_contain_text("Play")
            assert page.locator(".tt-index h2").first.bounding_box()["y"] < links.first.bounding_box()["y"]
        _fits(page, rel)
        _screenshot(page, screenshot_dir / shot)
        assert _problems(watch) == []
    finally:
        context.close()


@pytest.mark.parametrize("slug", PLAY)
def test_play_page_on_a_phone(browser, voila_url, watch_page, screenshot_dir, slug):
    context, page, watch = _open(browser, f"{voila_url}/voila/render/play_{slug}.ipynb", watch_page, ".tt-sheet")
    try:
        for part in (".tt-play-checks", ".tt-sheet", ".tt-dice-tray", ".tt-tracker .tt-combatant"):
            expect(page.locator(part).first).to_be_visible(timeout=LOAD_TIMEOUT)
        _fits(page, f"play_{slug}")
        for bar in page.locator(".tt-tracker .tt-hp-bar").all():
            box = bar.bounding_box()
            assert box and box["x"] + box["width"] <= PHONE["width"], box
        _open_folded_sections(page)
        _fits(page, f"play_{slug} with every sheet section open")
        # the sheet's first screens and the fight (the whole page is ~14,000 px tall)
        _screenshot(page, screenshot_dir / f"phone_play_{slug}.png", ".tt-sheet", max_height=2400)
        _screenshot(page, screenshot_dir / f"phone_play_{slug}_combat.png", ".tt-tracker", max_height=2400)
        assert _problems(watch) == []
    finally:
        context.close()
