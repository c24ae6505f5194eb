"""A notebook as a user meets it: JupyterLab 4 and Notebook 7, light and dark, in Chromium.

One ``jupyter lab`` and one ``jupyter notebook`` server (127.0.0.1, a free port, a token, settings,
workspaces, config and runtime in a temporary folder) serve a notebook that loads the extension
and runs ``%roll``, ``%%roll``, ``%roll --prob``, a system word, a sheet (``%sheet``), a dice
tray and a combat tracker, and ends with a bad ``%roll``. For each app and theme, after "Run All
Cells":

* every output renders (rolls, odds table, the three widgets; no "Error displaying widget");
* no console error mentions this package or the widgets, and no request fails (or answers 4xx/5xx);
* the WCAG contrast ratio of every piece of visible text in our outputs against its actual
  background is at least 4.5:1 (3:1 for large text), in both themes;
* the bad ``%roll`` prints the expression and its caret on lines of their own with the caret
  under the problem: the same column in the text, and the same x position on screen.

Screenshots of both themes go to docs/screenshots with ``TT_SCREENSHOTS=1`` (``make
screenshots``). The same contrast check also runs on the Voila dashboards of the sheet, tray and
tracker in Voila's light and dark templates, and on the four play pages (every sheet section open)
and a player's and a GM's table page (every tab shown).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from conftest import free_port, open_context

pytestmark = pytest.mark.ui

LOAD_TIMEOUT = 180_000
RUN_TIMEOUT = 240_000
START_TIMEOUT = float(os.environ.get("TT_JUPYTER_START_TIMEOUT", "180"))

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
APPS = {"lab": ("jupyterlab", "lab/tree"), "notebook": ("notebook", "notebooks")}

#: The notebook's code cells, in order; the bad %roll is last (Run All stops at an error).
CELLS = [
    "%load_ext tabletop_widgets",
    "%roll --seed 3 4d6kh3 + 2",
    "%%roll --seed 4\nattack: 1d20+5 >= 15\ndamage: 2d6+3",
    "%roll --prob 2d6+1 >= 8",
    "%roll --seed 5 L5",
    "from tabletop_systems.ret import Character\n"
    'hero = Character(name="Vera Lind", concept="Field medic")\n'
    "%sheet hero",
    "from tabletop_widgets.widgets import show_combat, show_tray\nshow_tray(hero)",
    'show_combat("ret", characters=[hero, Character(name="Grim the Ogre")])',
    "%roll 1d20 + 2x6",
]
BAD_EXPR, BAD_CHAR = "1d20 + 2x6", "x"

#: Where our text lives in the page, for the contrast check.
OUR_ROOTS = ".tt-sheet, .tt-dice-tray, .tt-tracker, .tt-roll, .tt-roll-table, .tt-dist"

#: Console text that points at this package or the widgets.
OURS = ("tabletop", "tt-", "anywidget", "widget", "comm", "model")


def write_settings(settings: Path, app: str, theme: str) -> None:
    """JupyterLab's user settings (Notebook 7 reads the same folder): the theme; every cell
    rendered (no windowing, so every output is in the page); in JupyterLab, no news or update
    checks (no network; Notebook 7 has no such plugin, and settings for a missing plugin break
    its page)."""
    for old in settings.rglob("*.jupyterlab-settings"):
        old.unlink()
    files = {
        "@jupyterlab/apputils-extension/themes.jupyterlab-settings": {"theme": THEMES[theme]},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
    }
    if app != "lab":
        del files["@jupyterlab/apputils-extension/notification.jupyterlab-settings"]
    for name, data in files.items():
        path = settings / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def jupyter_home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("jupyter")
    for sub in ("root", "settings", "workspaces", "config", "data", "runtime", "ipython"):
        (home / sub).mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, home / "root" / "play.ipynb")
    return home


class Server:
    def __init__(self, app: str, home: Path):
        module, self.tree = APPS[app]
        self.app = app
        self.home = home
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = home / f"{app}.log"
        env = {
            **os.environ,
            "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
            "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
            "JUPYTER_CONFIG_DIR": str(home / "config"),
            "JUPYTER_DATA_DIR": str(home / "data"),
            "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
            "IPYTHONDIR": str(home / "ipython"),
            "PYTHONUNBUFFERED": "1",
        }
        cmd = [
            sys.executable,
            "-m",
            module,
            "--no-browser",
            f"--port={self.port}",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={home / 'root'}",
            "--ServerApp.open_browser=False",
            "--allow-root",
        ]
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=home / "root", env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = self.log_path.read_text(errors="replace")[-3000:]
                pytest.fail(f"{module} did not start (exit {self.proc.poll()}); log:\n{tail}", pytrace=False)
            time.sleep(0.5)

    def wait_kernel_idle(self, timeout: float = 180) -> None:
        """Until the notebook's kernel has started and is idle (asked through the REST API)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base}/api/sessions?token={self.token}", timeout=5) as r:
                    sessions = json.load(r)
                if sessions and all(s["kernel"]["execution_state"] == "idle" for s in sessions):
                    return
            except OSError:
                pass
            time.sleep(0.5)
        pytest.fail(f"the {self.app} kernel did not become idle in {timeout:.0f} s", pytrace=False)

    def url(self) -> str:
        return f"{self.base}/{self.tree}/play.ipynb?token={self.token}"

    def stop(self) -> None:
        # shut the kernels down through the API first, then the server itself
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


@pytest.fixture(scope="module")
def servers(jupyter_home, chromium_path):
    made: dict[str, Server] = {}

    def get(app: str) -> Server:
        if app not in made:
            made[app] = Server(app, jupyter_home)
        return made[app]

    yield get
    for server in made.values():
        server.stop()


class Watch:
    """Console errors and failed requests of one page."""

    def __init__(self, page, base: str):
        self.base = base
        self.errors: list[str] = []
        self.other_errors: list[str] = []
        self.failed: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self._sort(f"pageerror: {exc} {getattr(exc, 'stack', '')}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _sort(self, text: str) -> None:
        """Errors that point at this package or the widgets fail the test; the others (e.g.
        Notebook 7.6's own "reading 'schema'" on every page load) are reported, not failed."""
        (self.errors if any(w in text.lower() for w in OURS) else self.other_errors).append(text)

    def _console(self, msg) -> None:
        if msg.type == "error":
            self._sort(f"{msg.text} ({(msg.location or {}).get('url', '')})")

    def _failed(self, request) -> None:
        failure = request.failure or ""
        # a kernel's websocket or a long poll cut when the page goes away is not a failure
        if "ERR_ABORTED" in failure and self.closing:
            return
        self.failed.append(f"{request.method} {request.url}: {failure}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.request.method} {response.url}: HTTP {response.status}")

    closing = False


CONTRAST_JS = r"""
(rootSelector) => {
  const parse = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {           // top (rgba) composited over under (opaque rgb)
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const stops = (image) => (image.match(/rgba?\([^)]+\)/g) || []).map(parse);
  const backgrounds = (el) => {            // the colours actually behind el's text
    const layers = [];
    let base = [[255, 255, 255, 1]];
    for (let e = el; e; e = e.parentElement) {
      const st = getComputedStyle(e);
      const g = st.backgroundImage.includes("gradient") ? stops(st.backgroundImage) : [];
      if (g.length) { base = g.map(c => over(c, [255, 255, 255, 1])); break; }  // every stop
      const c = parse(st.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) { base = [[255, 255, 255, 1]]; break; } }
    }
    return base.map(b => { let bg = b; for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg); return bg; });
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  const name = (el) => {
    const own = el.tagName.toLowerCase() + [...el.classList].map(c => "." + c).join("");
    let tt = el.closest("[class*='tt-']");
    const ttc = tt ? [...tt.classList].filter(c => c.startsWith("tt-")).join(".") : "";
    return ttc ? `${own} in .${ttc}` : own;
  };
  const out = { checked: 0, failures: [] };
  const failed = new Map();
  const seen = new Set();
  for (const root of document.querySelectorAll(rootSelector)) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      if (seen.has(el)) continue;
      seen.add(el);
      const st = getComputedStyle(el);
      let text = "";
      if (["INPUT", "TEXTAREA"].includes(el.tagName)) {
        if (["checkbox", "radio", "file", "hidden"].includes(el.type)) continue;
        text = el.value || "";
      } else if (el.tagName === "SELECT") {
        text = el.selectedOptions.length ? el.selectedOptions[0].textContent : "";
      } else if (["STYLE", "SCRIPT", "OPTION"].includes(el.tagName)) {
        continue;
      } else {
        text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join("");
      }
      text = text.trim();
      if (!text) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || st.visibility !== "visible" || st.display === "none") continue;
      if (el.disabled || el.closest("[disabled]")) continue;          // inactive: exempt
      if (opacity(el) < 0.99) continue;                               // shown as inactive: exempt
      const fg = parse(st.color);
      if (!fg || fg[3] === 0) continue;
      // the worst case over the background's colours (a gradient has several)
      let bg = null, c = Infinity;
      for (const b of backgrounds(el)) {
        const r = ratio(over(fg, b), b);
        if (r < c) { c = r; bg = b; }
      }
      const size = parseFloat(st.fontSize), bold = parseInt(st.fontWeight, 10) >= 700;
      const large = size >= 24 || (size >= 18.66 && bold);
      const need = large ? 3 : 4.5;
      out.checked++;
      if (c < need) {
        const key = `${c.toFixed(2)} < ${need}: ${name(el)} color ${st.color} on ` +
                    `rgb(${bg.slice(0, 3).map(Math.round).join(", ")})`;
        if (!failed.has(key)) failed.set(key, []);
        failed.get(key).push(text.slice(0, 30));
      }
    }
  }
  // one line per kind of failure, with a few of its texts
  out.failures = [...failed].map(([key, texts]) => `${key}: ${texts.length}x, e.g. "${texts[0]}"`);
  return out;
}
"""

CARET_JS = r"""
([expr, bad]) => {
  // the error output's text lines, and the screen x of the bad character and of the caret
  const pres = [...document.querySelectorAll(".jp-OutputArea-output pre")]
    .filter(p => p.textContent.includes(expr) && p.textContent.includes("^"));
  if (!pres.length) return null;
  const pre = pres[pres.length - 1];
  const lines = pre.innerText.split("\n");
  const xOf = (lineText, index) => {
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    let full = "", nodes = [];
    while (walker.nextNode()) { nodes.push([walker.currentNode, full.length]); full += walker.currentNode.textContent; }
    const start = full.indexOf(lineText);
    if (start < 0) return null;
    const at = start + index;
    for (const [node, offset] of nodes) {
      if (at >= offset && at < offset + node.textContent.length) {
        const range = document.createRange();
        range.setStart(node, at - offset); range.setEnd(node, at - offset + 1);
        const rect = range.getBoundingClientRect();
        return rect.left + rect.width / 2;
      }
    }
    return null;
  };
  const i = lines.findIndex(l => l.trim() === expr);
  if (i < 0 || i + 1 >= lines.length) return { lines };
  const caretLine = lines[i + 1];
  return { lines, exprLine: lines[i], caretLine,
           badX: xOf(lines[i], lines[i].indexOf(bad)),
           caretX: xOf(lines[i] + "\n" + caretLine, lines[i].length + 1 + caretLine.indexOf("^")) };
}
"""


def run_all(page) -> None:
    """Run > Run All Cells (the same menu in JupyterLab and Notebook 7)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()


@pytest.mark.parametrize("app, theme", [("lab", "light"), ("lab", "dark"), ("notebook", "light"), ("notebook", "dark")])
def test_notebook_in_jupyter(browser, servers, jupyter_home, screenshot_dir, app, theme):
    write_settings(jupyter_home / "settings", app, theme)
    server = servers(app)
    context = open_context(browser, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    watch = Watch(page, server.base)
    try:
        page.goto(server.url(), timeout=LOAD_TIMEOUT)
        expect(page.locator(".jp-Notebook .jp-CodeCell").first).to_be_visible(timeout=LOAD_TIMEOUT)
        assert page.evaluate("document.body.dataset.jpThemeLight") == ("true" if theme == "light" else "false")
        server.wait_kernel_idle()
        page.locator(".jp-Notebook .jp-Cell").first.click()
        run_all(page)

        cells = page.locator(".jp-Notebook .jp-CodeCell")
        expect(cells).to_have_count(len(CELLS), timeout=LOAD_TIMEOUT)
        # every output renders
        expect(cells.nth(8).locator(".jp-OutputArea-output")).to_contain_text("UsageError", timeout=RUN_TIMEOUT)
        expect(cells.nth(1).locator(".tt-roll .tt-total")).to_be_visible()
        expect(cells.nth(2).locator(".tt-roll-table")).to_contain_text("attack")
        expect(cells.nth(2).locator(".tt-roll-table")).to_contain_text("damage")
        expect(cells.nth(3).locator(".tt-dist table")).to_be_visible()
        expect(cells.nth(4).locator(".tt-roll")).to_contain_text("L5")
        expect(cells.nth(5).locator(".tt-sheet .tt-sheet-title h2")).to_have_text("Vera Lind", timeout=RUN_TIMEOUT)
        # the tray's check groups start folded: a click on the first one shows its checks
        cells.nth(6).locator(".tt-dice-tray .tt-check-groups .jupyter-widget-Collapse-header").first.click(
            timeout=RUN_TIMEOUT
        )
        expect(cells.nth(6).locator(".tt-dice-tray .tt-check-button").first).to_be_visible(timeout=RUN_TIMEOUT)
        expect(cells.nth(7).locator(".tt-tracker .tt-combatant")).to_have_count(2, timeout=RUN_TIMEOUT)
        expect(cells.nth(7).locator(".tt-tracker")).to_contain_text("Grim the Ogre")
        for i in range(1, 8):
            text = cells.nth(i).locator(".jp-OutputArea").inner_text()
            assert "Error displaying widget" not in text and "Traceback" not in text, (i, text)
            assert cells.nth(i).locator(".jp-OutputArea-output").count() >= 1, i
        # a click works: the sheet's folded "Abilities" opens (built on first open)
        section = cells.nth(5).locator(".tt-section-abilities")
        expect(section.locator(".tt-section-toggle")).to_be_visible(timeout=RUN_TIMEOUT)
        section.locator(".tt-section-toggle").click()
        expect(section.locator(".tt-field-abilities")).to_be_visible(timeout=RUN_TIMEOUT)

        # the caret sits under the bad character, in the text and on screen
        caret = page.evaluate(CARET_JS, [BAD_EXPR, BAD_CHAR])
        assert caret and "caretLine" in caret, caret
        assert caret["caretLine"].index("^") == caret["exprLine"].index(BAD_CHAR), caret["lines"]
        assert caret["badX"] is not None and caret["caretX"] is not None, caret
        assert abs(caret["badX"] - caret["caretX"]) < 2, caret

        # contrast of every piece of our text against what is behind it: as first shown, then
        # after a check is rolled in the tray and combat has started in the tracker (verdicts,
        # the breakdown, the current combatant's highlight)
        result = page.evaluate(CONTRAST_JS, OUR_ROOTS)
        assert result["checked"] >= 100, result
        assert result["failures"] == [], "\n".join(result["failures"])
        tray = cells.nth(6).locator(".tt-dice-tray")
        tray.locator(".tt-check-button").first.click()
        expect(tray.locator(".tt-tray-result .tt-verdict, .tt-tray-result .tt-roll").first).to_be_visible(
            timeout=RUN_TIMEOUT
        )
        tray.locator(".tt-tray-notation input").fill("4d6kh3 + 1d20 >= 12")
        tray.locator(".tt-tray-roll").click()
        expect(tray.locator(".tt-tray-result")).to_contain_text("4d6kh3", timeout=RUN_TIMEOUT)
        tracker = cells.nth(7).locator(".tt-tracker")
        tracker.locator(".tt-initiative").click()
        tracker.locator(".tt-next").click()
        expect(tracker.locator(".tt-combatant.tt-current")).to_have_count(1, timeout=RUN_TIMEOUT)
        result = page.evaluate(CONTRAST_JS, OUR_ROOTS)
        assert result["failures"] == [], "after rolling:\n" + "\n".join(result["failures"])

        # screenshots (docs/screenshots with TT_SCREENSHOTS=1, else a temporary folder); the
        # notebook scrolls inside its own panel, so the window grows to fit each widget first
        name = {"lab": "jupyterlab", "notebook": "notebook7"}[app]
        parts = [(".tt-sheet", 5, "sheet"), (".tt-dice-tray", 6, "tray"), (".tt-tracker", 7, "tracker")]
        for cls, idx, part in parts if app == "lab" else parts[:1]:
            widget = cells.nth(idx).locator(cls).first
            height = widget.bounding_box()["height"]
            page.set_viewport_size({"width": 1400, "height": int(height) + 360})
            widget.scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            widget.screenshot(path=str(screenshot_dir / f"{name}_{theme}_{part}.png"))
        if app == "lab":
            page.set_viewport_size({"width": 1400, "height": 1000})
            outputs = [cells.nth(i).locator(".jp-OutputArea") for i in (1, 2, 3, 4)]
            outputs[0].scroll_into_view_if_needed()
            top, bottom = outputs[0].bounding_box(), outputs[-1].bounding_box()
            page.set_viewport_size({"width": 1400, "height": int(bottom["y"] + bottom["height"] - top["y"]) + 400})
            outputs[0].scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            top, bottom = outputs[0].bounding_box(), outputs[-1].bounding_box()
            page.screenshot(
                path=str(screenshot_dir / f"{name}_{theme}_rolls.png"),
                clip={
                    "x": top["x"],
                    "y": top["y"],
                    "width": top["width"],
                    "height": bottom["y"] + bottom["height"] - top["y"],
                },
            )

        if watch.other_errors:
            print(f"{app}/{theme}: console errors not from this package:", *watch.other_errors, sep="\n  ")
        assert watch.errors == [], "\n\n".join(watch.errors)
        assert watch.failed == [], watch.failed
    finally:
        watch.closing = True
        context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(
    "page_name, root", [("sheet", ".tt-sheet"), ("tray", ".tt-dice-tray"), ("tracker", ".tt-tracker")]
)
def test_voila_pages_read_well_in_both_themes(browser, voila_url, watch_page, page_name, root, theme):
    """The same contrast check on the Voila dashboards (``?theme=dark`` is Voila's dark
    template; the light one keeps the widgets' own palette)."""
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    try:
        page.goto(
            f"{voila_url}/voila/render/gallery/{page_name}.ipynb?system=threads_of_fate&theme={theme}",
            timeout=LOAD_TIMEOUT,
        )
        expect(page.locator(root).first).to_be_visible(timeout=LOAD_TIMEOUT)
        if page_name == "tray":  # its check groups start folded: open the first, as a player does
            page.locator(".tt-check-groups .jupyter-widget-Collapse-header").first.click()
            expect(page.locator(".tt-check-button").first).to_be_visible(timeout=LOAD_TIMEOUT)
        page.wait_for_timeout(500)
        assert page.evaluate("document.body.dataset.jpThemeLight") == ("true" if theme == "light" else "false")
        result = page.evaluate(CONTRAST_JS, OUR_ROOTS)
        assert result["checked"] >= 30, result
        assert result["failures"] == [], "\n".join(result["failures"])
        assert watch.problems() == []
    finally:
        context.close()


#: Our text on the play pages and the table pages (the creation cards, the table's own parts).
PAGE_ROOTS = OUR_ROOTS + ", .tt-table-view, .tt-play-checks, .tt-roll-log"


@pytest.fixture(scope="module")
def contrast_table(voila_db, voila_url):
    """A RET table (GM, one player) with a fight under way: the links of both seats."""
    from tables import fight_table

    store, made = fight_table(voila_db, title="Contrast table", foe="Goblin", players=1)
    store.close()
    links = made.links(f"{voila_url}/voila/render/table.ipynb")
    return {"table_gm": links["gm"], "table_player": links["p1"]}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(
    "page_name",
    [
        "play_ret",
        "play_seasons",
        "play_life_and_death",
        "play_threads_of_fate",
        "table_player",
        "table_gm",
    ],
)
def test_play_and_table_pages_read_well_in_both_themes(
    browser, voila_url, contrast_table, watch_page, page_name, theme
):
    """The same contrast check on the four play pages (every sheet section unfolded) and on a
    player's and a GM's table page (every tab shown in turn), in Voila's light and dark themes."""
    url = contrast_table.get(page_name) or f"{voila_url}/voila/render/{page_name}.ipynb"
    url += ("&" if "?" in url else "?") + f"theme={theme}"
    context = open_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    watch = watch_page(page)
    try:
        patience = 300_000  # a play page on a loaded 2-core machine can take minutes
        page.goto(url, timeout=patience)
        root = ".tt-table-view" if page_name.startswith("table_") else ".tt-sheet"
        expect(page.locator(root).first).to_be_visible(timeout=patience)
        expect(page.locator(".tt-tracker .tt-combatant").first).to_be_visible(timeout=patience)
        assert page.evaluate("document.body.dataset.jpThemeLight") == ("true" if theme == "light" else "false")
        failures: list[str] = []
        checked = 0

        def check(where: str) -> None:
            nonlocal checked
            page.wait_for_timeout(400)
            result = page.evaluate(CONTRAST_JS, PAGE_ROOTS)
            checked += result["checked"]
            failures.extend(f"{where}: {f}" for f in result["failures"])

        check("as first shown")
        tabs = page.locator(".tt-table-tabs > .lm-TabBar .lm-TabBar-tab")
        for i in range(1, tabs.count()):
            tabs.nth(i).click()
            check(f"tab {tabs.nth(i).inner_text().strip()!r}")
        folded = page.locator(".tt-section.tt-folded .tt-section-toggle:visible")
        n = folded.count()
        while n:
            folded.first.click()
            expect(folded).to_have_count(n - 1, timeout=RUN_TIMEOUT)
            n -= 1
        check("every sheet section open")
        assert checked >= 60, checked
        assert failures == [], "\n".join(failures)
        assert [p for p in watch.problems() if "/voila/api/shutdown/" not in p] == []
    finally:
        context.close()
