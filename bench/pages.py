"""Benchmark: how long each Voila page takes to show something, against a blank notebook.

One Voila server, started the way ``make play`` starts it (``tabletop_widgets.cli``: the
project's ``voila.json`` shipped beside the notebooks, not the current directory's), serves a
copy of ``notebooks/`` plus ``blank.ipynb``: one cell that shows one ``ipywidgets.Label``. The
store is the bench's own SQLite file, with a lobby key set (as ``make play`` does) and a table of
the R.E.T. system with a GM and four players (the characters the lobby makes).

Each page is opened in a fresh browser context (no cache, its own kernel) in Debian's headless
Chromium through Playwright. The time is from navigation start to the first widget that shows
text (a rendered ``.jupyter-widgets`` element with non-empty ``innerText``), taken in the page
(``performance.now()``, polled every 10 ms). Rounds go blank, then every page, in turn, several
times; each page's median is divided by the blank notebook's median of the same run, so the
ratio is what the page adds over Voila's own start (kernel start, front-end boot), on this
machine, now. The goal is 1.3x for every page.

A second column times navigation to the page **complete**: every part filled in (no
``.tt-part-loading`` frame left: a page that shows its frame first and builds its parts after the
notebook has run marks each part's frame so until the part is in) and the count of rendered
widget views unchanged for ``SETTLE_MS``; the time is that of the count's last change (the wait
itself is not counted). Its ratio is to the blank notebook's complete time, so a frame that shows
early but fills slowly is visible.

After each load the page's kernel is shut down through Voila's API (as the page's unload does),
so that kernels do not pile up and slow the later loads. The server runs without
``PYTHONDONTWRITEBYTECODE`` (an installed package has its bytecode compiled; without it every
kernel would compile the project's modules again).

Progressive rendering (``VoilaConfiguration.progressive_rendering``) is not used: with Voila
0.5.13 a cell that creates about a thousand widgets (the table page) never shows its output in
that mode (reproduced with a plain ``VBox`` of 1,500 ``Label``s); pass
``--voila-arg=--VoilaConfiguration.progressive_rendering=True`` to measure it anyway.

Pages: ``blank``, ``index``, ``play_<slug>`` for the four systems, ``lobby``, ``table_gm`` (the
GM's table page), ``table_player`` (a player's table page); ``--pages`` picks some.

Preheated kernels: ``make play`` keeps two kernels ready per play page (their notebook already
run) and two for the table page (their imports done, waiting for the seat's request), a taken
one replaced once the server is quiet: Voila's ``preheat_kernel`` with the pools of the shipped
``voila.json``; the blank notebook, the index and the lobby have no pool (Voila's default). A
page with a pool is loaded twice per round: the **first visitor** and a **second visitor** right
after (the pool's other ready kernel). Both rows count for the goal. A third visitor within
seconds gets a kernel made at once, as without pools: ``--no-preheat`` serves every page so, as
Voila does by default.

Every load but a second visitor's starts on a settled machine: every pool full again (Voila's
log says so once per kernel made) and the CPUs idle (the server, its kernels, the browser), so
that no page pays for the kernel the page before it left to make.

Run: .venv/bin/python bench/pages.py [--reps 5] [--pages index,table_gm] [--voila-arg=...] [--json]
     .venv/bin/python bench/pages.py --no-preheat [--reps 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
GOAL = 1.3
SYSTEMS = ("ret", "seasons", "life_and_death", "threads_of_fate")
#: the flags of tests/ui/conftest.py (CHROMIUM_ARGS)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
LOAD_TIMEOUT_MS = 180_000

BLANK_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "blank",
            "metadata": {},
            "outputs": [],
            "source": ["import ipywidgets\n", "\n", 'ipywidgets.Label("Blank page")'],
        }
    ],
    "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}

#: Voila served as ``tabletop-widgets play`` serves it, but from the bench's folder of notebooks
#: (argv: folder, host, port, extra Voila arguments). Same settings: ``PlaySettings.voila_argv`` and
#: its environment, the shipped ``voila.json`` (the packaged notebooks' folder) first on the config
#: path; with ``--no-preheat``, the folder in ``TT_BENCH_CONFIG`` (a voila.json turning the pools
#: off) before it.
LAUNCHER = """
import os, sys
from jupyter_core.paths import jupyter_config_path
from voila.app import Voila
from tabletop_widgets.cli import PlaySettings, notebooks_dir
folder, host, port, extra = sys.argv[1], sys.argv[2], int(sys.argv[3]), tuple(sys.argv[4:])
settings = PlaySettings(host=host, port=port, voila_args=extra)
os.environ.update(settings.environment(os.environ))
more = [os.environ["TT_BENCH_CONFIG"]] if os.environ.get("TT_BENCH_CONFIG") else []
Voila.launch_instance(
    argv=settings.voila_argv(folder),
    config_file_paths=[*more, str(notebooks_dir()), *jupyter_config_path()],
)
"""

#: the notebook behind each page that ``make play`` keeps a kernel ready for
POOLED = {
    **{f"play_{slug}": f"play_{slug}.ipynb" for slug in SYSTEMS},
    "table_gm": "table.ipynb",
    "table_player": "table.ipynb",
}


def no_preheat_config(folder: Path) -> Path:
    """A config folder whose voila.json turns the shipped pools off (every page starts its kernel
    when asked for, as Voila does by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "voila.json").write_text(json.dumps({"VoilaConfiguration": {"preheat_kernel": False}}), encoding="utf-8")
    return folder


def _busy_cpu_seconds() -> float:
    """CPU seconds this machine has spent busy so far, over all CPUs (Linux ``/proc/stat``)."""
    with open("/proc/stat", encoding="ascii") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


#: the machine counts as idle when it was busy less than this share of one CPU over IDLE_WINDOW
#: seconds; SETTLE_TIMEOUT: the longest a load waits for that (then it goes anyway)
IDLE_SHARE, IDLE_WINDOW, SETTLE_TIMEOUT = 0.10, 0.5, 60.0


def settle(log_path: Path, takes: dict[str, int]) -> float:
    """Wait until every pool is full again (``takes``: kernels taken from each pooled notebook
    so far; Voila logs "Kernel pool of <nb> is filled" once at start and once per kernel made
    since) and the machine is idle (the server, its kernels, the browser closing the last
    context). Returns the seconds waited."""
    start = time.monotonic()
    deadline = start + SETTLE_TIMEOUT
    while time.monotonic() < deadline:
        text = log_path.read_text(errors="replace")
        if all(text.count(f"Kernel pool of {nb} is filled") >= 1 + n for nb, n in takes.items()):
            break
        time.sleep(0.2)
    while time.monotonic() < deadline:
        before = _busy_cpu_seconds()
        time.sleep(IDLE_WINDOW)
        if _busy_cpu_seconds() - before < IDLE_SHARE * IDLE_WINDOW:
            break
    return time.monotonic() - start


def wait_for_pools(log_path: Path, notebooks: set[str], timeout: float = 240.0) -> None:
    """Until Voila's log says every pool in ``notebooks`` was filled at start (then a little more:
    the log line comes when the kernel started, its notebook still running)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log_path.read_text(errors="replace")
        if all(f"Kernel pool of {nb} is filled" in text for nb in notebooks):
            time.sleep(10.0)
            return
        time.sleep(0.5)
    raise SystemExit(f"the kernel pools did not fill within {timeout:.0f} s; log:\n{text[-3000:]}")


#: How long the page's widget views must stay unchanged (and no part still loading) for the
#: page to count as complete; the time reported is that of the last change, not of this wait.
SETTLE_MS = 2000

#: Installed in every page before its own scripts: note when the first widget shows text, and
#: when the page is complete: every part filled in (no ``.tt-part-loading`` frame left) and the
#: count of widget views settled (the time of its last change).
FIRST_WIDGET_JS = """
(() => {
  window.__ttFirstWidget = null;
  window.__ttComplete = null;
  let lastCount = -1, lastChange = 0;
  const look = () => {
    for (const el of document.querySelectorAll('.jupyter-widgets')) {
      if (el.offsetParent !== null && (el.innerText || '').trim()) {
        window.__ttFirstWidget = performance.now();
        return true;
      }
    }
    return false;
  };
  const settle = () => {
    const now = performance.now();
    const count = document.querySelectorAll('.jupyter-widgets').length;
    if (count !== lastCount || document.querySelector('.tt-part-loading')) {
      if (count !== lastCount) { lastCount = count; lastChange = now; }
      return false;
    }
    if (window.__ttFirstWidget === null || now - lastChange < SETTLE_MS) return false;
    window.__ttComplete = Math.max(lastChange, window.__ttFirstWidget);
    return true;
  };
  const timer = setInterval(() => {
    if (window.__ttFirstWidget === null) look();
    if (settle()) clearInterval(timer);
  }, 10);
})();
""".replace("SETTLE_MS", str(SETTLE_MS))

#: Shut the page's kernel down the way Voila's own page does on unload (with the XSRF cookie).
SHUTDOWN_JS = """
async () => {
  const el = document.getElementById('jupyter-config-data');
  if (!el) return 'no config';
  const cfg = JSON.parse(el.textContent);
  // Tornado's double-submit check: the header must match the _xsrf cookie; the page sets
  // none (Voila 0.5), so set one for this origin first.
  let m = document.cookie.match(/(?:^|; )_xsrf=([^;]*)/);
  if (!m) {
    const token = Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('');
    document.cookie = '_xsrf=' + token + '; path=/; SameSite=Strict';
    m = [null, token];
  }
  const headers = {'X-XSRFToken': decodeURIComponent(m[1])};
  const r = await fetch(cfg.baseUrl + 'voila/api/shutdown/' + cfg.kernelId, {method: 'POST', headers,
                                                                            credentials: 'same-origin'});
  return r.status;
}
"""


def find_chromium() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    for path in [explicit] if explicit else ["/usr/bin/chromium", shutil.which("chromium") or ""]:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_folder(tmp: Path) -> Path:
    """A copy of notebooks/ with the blank notebook added."""
    folder = tmp / "pages"
    shutil.copytree(NOTEBOOKS, folder, ignore=shutil.ignore_patterns("__pycache__", "*.py", "voila.json"))
    (folder / "blank.ipynb").write_text(json.dumps(BLANK_NOTEBOOK), encoding="utf-8")
    return folder


def start_voila(
    folder: Path, db: Path, log_path: Path, voila_args=(), timeout: float = 120.0, config: Path | None = None
):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TT_BENCH_CONFIG")}
    env.update(TABLETOP_DB=str(db), PYTHONUNBUFFERED="1")
    if config is not None:
        env["TT_BENCH_CONFIG"] = str(config)
    log = open(log_path, "wb")
    cmd = [sys.executable, "-c", LAUNCHER, str(folder), "127.0.0.1", str(port), *voila_args]
    proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    return wait_for_voila(proc, log, f"http://127.0.0.1:{port}", log_path, timeout)


def wait_for_voila(proc, log, base: str, log_path: Path, timeout: float = 120.0):
    """``(proc, log, base)`` once the Voila server ``proc`` serves its static files (a GET of a
    notebook would start a kernel); it is stopped, and the run ends with its log, if it dies or
    takes longer than ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2) as r:
                if r.status == 200:
                    return proc, log, base
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_voila(proc, log)
            raise SystemExit(f"voila did not start; log:\n{log_path.read_text(errors='replace')[-3000:]}")
        time.sleep(0.25)


def stop_voila(proc, log) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    log.close()


def prepare_store(db: Path) -> dict[str, str]:
    """The lobby key (as ``make play`` sets one) and a table: GM + 4 players; seat -> query."""
    from tabletop_widgets import get_system
    from tabletop_widgets.table import SeatSpec, create_table, open_store, prepare_lobby_key
    from tabletop_widgets.widgets.lobby import sample_character

    prepare_lobby_key(str(db))
    system = get_system("ret")
    store = open_store(str(db))
    try:
        names = ["Vera", "Oleg", "Mira", "Ivan"]
        chars = {f"c{k}": sample_character(system, name).to_dict() for k, name in enumerate(names)}
        seats = [SeatSpec("gm", "gm", "Gail")] + [
            SeatSpec(f"p{k}", "player", name, f"c{k}") for k, name in enumerate(names)
        ]
        made = create_table(store, "ret", seats, characters=chars, title="Page bench")
        return made.links("")
    finally:
        store.close()


def page_urls(base: str, links: dict[str, str]) -> dict[str, str]:
    render = f"{base}/voila/render/"
    urls = {"blank": render + "blank.ipynb", "index": render + "index.ipynb"}
    for slug in SYSTEMS:
        urls[f"play_{slug}"] = render + f"play_{slug}.ipynb"
    urls["lobby"] = render + "lobby.ipynb"
    urls["table_gm"] = render + "table.ipynb" + links["gm"]
    urls["table_player"] = render + "table.ipynb" + links["p0"]
    return urls


#: Where a load's time went: the page's HTML ends when Voila has run every cell (the server:
#: kernel start and the notebook's execution); the rest is the front end (widget manager, the
#: models' states, rendering). Also how many widget views the page drew by then.
PHASES_JS = """
() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {html: nav ? nav.responseEnd : null, views: document.querySelectorAll('.jupyter-widgets').length};
}
"""

#: the phases of each load (``load_once`` fills it): page -> [(html_s, front_s, views once complete)]
PHASES: dict[str, list[tuple[float, float, int | None]]] = {}
#: seconds from navigation to the page complete, per load (``load_once`` fills it)
COMPLETE: dict[str, list[float]] = {}


def load_once(browser, url: str, name: str | None = None) -> float | None:
    """Seconds from navigation start to the first widget with text, in a fresh context (None:
    nothing within LOAD_TIMEOUT_MS, or the page never completed). With ``name``, the load's
    phases go to ``PHASES`` and its time to the page complete to ``COMPLETE``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script(FIRST_WIDGET_JS)
        page = context.new_page()
        try:
            page.goto(url, timeout=LOAD_TIMEOUT_MS, wait_until="commit")
            page.wait_for_function("() => window.__ttFirstWidget !== null", polling=50, timeout=LOAD_TIMEOUT_MS)
            seconds = page.evaluate("() => window.__ttFirstWidget") / 1000.0
            phases = page.evaluate(PHASES_JS) if name is not None else {}
            try:
                page.wait_for_function("() => window.__ttComplete !== null", polling=100, timeout=LOAD_TIMEOUT_MS)
            except PlaywrightTimeout:  # shown, never complete: the headline keeps its time
                print(f"  {name or url}: never complete", file=sys.stderr, flush=True)
            else:
                if name is not None:
                    COMPLETE.setdefault(name, []).append(page.evaluate("() => window.__ttComplete") / 1000.0)
            if name is not None:
                if phases.get("html") is not None:
                    html_s = phases["html"] / 1000.0
                    views = page.evaluate(PHASES_JS).get("views")
                    PHASES.setdefault(name, []).append((html_s, seconds - html_s, views))
        except PlaywrightTimeout:
            seconds = None
        try:
            page.evaluate(SHUTDOWN_JS)
        except Exception:  # noqa: BLE001 - a kernel left running is culled by Voila later
            pass
        return seconds
    finally:
        context.close()


#: the two loads of a page with a kernel pool: the first visitor, and a second one right after
FIRST, SECOND = "first visitor", "second visitor"


def rounds(pages: list[str], preheat: bool) -> list[tuple[str, str]]:
    """One round's loads as (row name, page): every page once; with ``preheat``, a page with a
    pool twice in a row (the pool's kernel, then the second visitor who finds the pool empty)."""
    out = []
    for name in ["blank", *pages]:
        if preheat and name in POOLED:
            out += [(f"{name} ({FIRST})", name), (f"{name} ({SECOND})", name)]
        else:
            out.append((name, name))
    return out


def run(pages: list[str], reps: int, voila_args: tuple[str, ...] = (), preheat: bool = True) -> dict:
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        return {"skipped": "Debian's chromium is not installed (/usr/bin/chromium; set CHROMIUM_PATH)"}
    plan = rounds(pages, preheat)
    out: dict = {"reps": reps, "times": {row: [] for row, _ in plan}, "timeouts": {}, "preheat": preheat}
    takes: dict[str, int] = {nb: 0 for nb in set(POOLED.values())} if preheat else {}
    with tempfile.TemporaryDirectory(prefix="tt-bench-pages-") as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "table.db"
        links = prepare_store(db)
        folder = serve_folder(tmp)
        config = None if preheat else no_preheat_config(tmp / "config")
        proc, log, base = start_voila(folder, db, tmp / "voila.log", voila_args, config=config)
        urls = page_urls(base, links)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                out["browser_version"] = browser.version
                try:
                    if preheat:  # the pools fill when the server starts
                        wait_for_pools(tmp / "voila.log", set(POOLED.values()))
                    load_once(browser, urls["blank"])  # warm-up: first kernel start, disk caches
                    for rep in range(reps):
                        for name, page in plan:
                            if not name.endswith(f"({SECOND})"):
                                settle(tmp / "voila.log", takes)
                            seconds = load_once(browser, urls[page], name)
                            if preheat and page in POOLED:
                                takes[POOLED[page]] += 1
                            if seconds is None:
                                out["timeouts"][name] = out["timeouts"].get(name, 0) + 1
                                print(f"  round {rep + 1}/{reps} {name:<22} timed out", file=sys.stderr, flush=True)
                                tail = (tmp / "voila.log").read_text(errors="replace").splitlines()[-15:]
                                print("\n".join("    voila: " + line for line in tail), file=sys.stderr, flush=True)
                                continue
                            out["times"][name].append(seconds)
                            print(f"  round {rep + 1}/{reps} {name:<22} {seconds:6.2f} s", file=sys.stderr, flush=True)
                finally:
                    browser.close()
        finally:
            stop_voila(proc, log)
    if not out["times"]["blank"]:
        return {"skipped": "the blank notebook never showed its widget"}
    blank = statistics.median(out["times"]["blank"])
    out["median_s"] = {name: statistics.median(ts) for name, ts in out["times"].items() if ts}
    out["ratio"] = {name: m / blank for name, m in out["median_s"].items()}
    out["complete_s"] = {name: statistics.median(ts) for name, ts in COMPLETE.items() if ts}
    blank_complete = out["complete_s"].get("blank")
    out["complete_ratio"] = (
        {name: m / blank_complete for name, m in out["complete_s"].items()} if blank_complete else {}
    )
    out["phases"] = {
        name: {
            "html_s": statistics.median(h for h, _, _ in rows),
            "front_s": statistics.median(f for _, f, _ in rows),
            "views": rows[-1][2],
        }
        for name, rows in PHASES.items()
    }
    return out


def print_table(res: dict) -> None:
    print(
        f"Voila pages: navigation -> first widget with text, fresh browser context, median of "
        f"{res.get('reps', '?')} ({os.cpu_count()} CPUs)"
    )
    if res.get("skipped"):
        print(f"  not measured: {res['skipped']}")
        return
    print(f"  Chromium {res.get('browser_version', '?')} headless; one Voila server as `make play` runs it")
    if res.get("preheat"):
        print(
            "  kernels kept ready as `make play` does (play pages, table page): "
            f"'{FIRST}' = a kernel of its pool, '{SECOND}' = right after; every other load on a settled machine"
        )
    else:
        print("  --no-preheat: every page starts its kernel when asked for (Voila's default)")
    print(f"  load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("  complete = every part filled in (no frame still loading) and the widget views settled")
    head = f"{'page':<36} | {'median':>8} | {'ratio to blank':>14} | {'goal':>5} | {'complete':>8} | {'ratio':>6}"
    print(f"{head} | all loads (s)")
    print("-" * 124)
    complete, complete_ratio = res.get("complete_s", {}), res.get("complete_ratio", {})
    for name, median in res["median_s"].items():
        ratio = res["ratio"][name]
        mark = "ok" if ratio <= GOAL else "SLOW"
        loads = ", ".join(f"{x:.2f}" for x in res["times"][name])
        if res["timeouts"].get(name):
            loads += f" (+{res['timeouts'][name]} timed out)"
        done = f"{complete[name]:>6.2f} s" if name in complete else f"{'never':>8}"
        done_ratio = f"{complete_ratio[name]:>5.2f}x" if name in complete_ratio else f"{'-':>6}"
        print(f"{name:<36} | {median:>6.2f} s | {ratio:>13.2f}x | {mark:>5} | {done} | {done_ratio} | {loads}")
    for name, n in res["timeouts"].items():
        if name not in res["median_s"]:
            print(f"{name:<36} | every load ({n}) timed out after {LOAD_TIMEOUT_MS // 1000} s")
    print(f"goal: every page at most {GOAL}x the blank one-cell notebook")
    if res.get("phases"):
        print()
        print("where the time goes (medians): the page's HTML complete = Voila ran every cell (kernel")
        print("start + execution); then the front end until the first widget shows (manager, states, drawing)")
        print(f"{'page':<36} | {'HTML done':>9} | {'front end':>9} | {'widget views':>12}")
        print("-" * 78)
        for name, ph in res["phases"].items():
            print(f"{name:<36} | {ph['html_s']:>7.2f} s | {ph['front_s']:>7.2f} s | {ph['views']!s:>12}")


def main(argv=None) -> int:
    all_pages = ["index", *(f"play_{s}" for s in SYSTEMS), "lobby", "table_gm", "table_player"]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5, help="rounds (each loads every page once)")
    ap.add_argument("--pages", default=",".join(all_pages), help="comma-separated: " + ",".join(all_pages))
    ap.add_argument("--voila-arg", action="append", default=[], help="an extra Voila argument (repeatable)")
    ap.add_argument(
        "--no-preheat", action="store_true", help="no kernels kept ready: every page starts its kernel when asked for"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    pages = [p for p in args.pages.split(",") if p]
    unknown = sorted(set(pages) - set(all_pages))
    if unknown:
        ap.error(f"unknown page(s): {', '.join(unknown)}; choose from {', '.join(all_pages)}")
    try:
        import playwright  # noqa: F401
    except ImportError:
        res = {"skipped": "playwright is not installed (pip install -e '.[test]')"}
    else:
        res = run(pages, max(1, args.reps), tuple(args.voila_arg), not args.no_preheat)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_table(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
