"""Browser tests: a real Voila server serving notebooks/, driven by Debian's Chromium.

* One Voila server per session on a free 127.0.0.1 port. Readiness is probed on a static file
  (``/voila/static/voila.js``): a GET of a notebook URL would start a kernel.
* pytest-playwright launches Chromium from ``executable_path`` (Debian's ``/usr/bin/chromium``,
  or ``CHROMIUM_PATH``); Playwright's own browser downloads are not used.
* No Chromium: the tests skip with the reason on a developer machine, but when ``CI`` is set
  they fail loudly (CI must run them, not skip them). ``make test`` installs Chromium as root.
* ``watch_page(page)`` records console errors and failed requests; the FontAwesome stylesheet
  that Voila's lab template loads from cdn.jsdelivr.net is expected to fail offline and is
  ignored (notes-jupyter §3.6, §9.12).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "docs" / "screenshots"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

#: Hosts whose failed requests are known and harmless offline (Voila's FontAwesome CSS).
IGNORED_HOSTS = ("cdn.jsdelivr.net",)

START_TIMEOUT = float(os.environ.get("TT_VOILA_START_TIMEOUT", "120"))

#: Patience for one browser step (a click, a fill, an ``expect``) when no test says otherwise.
#: Playwright's defaults (30 s for actions, 5 s for ``expect``) are too short on a loaded CI machine,
#: where a kernel can take a minute to answer; a step that succeeds returns as soon as it can.
STEP_TIMEOUT = 90_000


def open_context(browser, **kwargs):
    """``browser.new_context(**kwargs)`` whose clicks and fills wait up to :data:`STEP_TIMEOUT`."""
    context = browser.new_context(**kwargs)
    context.set_default_timeout(STEP_TIMEOUT)
    return context


@pytest.fixture(scope="session", autouse=True)
def _patient_expect():
    """Every ``expect`` without its own timeout waits up to :data:`STEP_TIMEOUT`."""
    expect.set_options(timeout=STEP_TIMEOUT)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def find_chromium() -> str | None:
    """Debian's chromium; an explicit ``CHROMIUM_PATH`` is the only candidate when set."""
    explicit = os.environ.get("CHROMIUM_PATH")
    candidates = (
        [explicit] if explicit else ["/usr/bin/chromium", shutil.which("chromium"), "/usr/lib/chromium/chromium"]
    )
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def pytest_collection_modifyitems(config, items):
    """Every test here that drives the browser or the server is a ``ui`` test."""
    here = Path(__file__).parent
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        if here in Path(str(item.fspath)).parents and uses & {"browser", "page", "voila_url"}:
            item.add_marker(pytest.mark.ui)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        where = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
        reason = (
            f"Debian's chromium is not installed ({where} missing; set CHROMIUM_PATH "
            "or run `make test` as root, which apt-installs it)"
        )
        if in_ci():
            pytest.fail(f"CI is set and the browser tests cannot run: {reason}", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, chromium_path):
    """pytest-playwright's hook: launch Debian's chromium, not a downloaded build."""
    return {**browser_type_launch_args, "executable_path": chromium_path, "args": CHROMIUM_ARGS}


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kernel_pids(pid: int) -> list[int]:
    """The kernels among a Voila server's children (not the table's resolver beside them)."""
    out = []
    for kid in child_pids(pid):
        try:
            with open(f"/proc/{kid}/cmdline", "rb") as f:
                if b"tabletop_widgets.table\x00resolve" in f.read():
                    continue
        except OSError:
            continue
        out.append(kid)
    return out


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a Voila server's kernels), read from ``/proc``."""
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return kids


class Server:
    """A server process the tests start (its output in ``log_path``), ready once ``base + probe``
    answers: a static file, since a GET of a notebook URL would start a kernel."""

    def __init__(self, cmd: list[str], *, env: dict, cwd: Path, log_path: Path, base: str, what: str = "voila"):
        self.log_path, self.base, self.what = log_path, base, what
        self.log = open(log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, probe: str = "/voila/static/voila.js", timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + probe, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.flush()
                tail = self.log_path.read_text(errors="replace")[-3000:]
                pytest.fail(f"{self.what} did not start (exit {self.proc.poll()}); log:\n{tail}", pytrace=False)
            time.sleep(0.25)

    def stop(self, timeout: float = 20) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


def start_voila(
    tmp: Path,
    db,
    *,
    name: str = "voila",
    args: tuple[str, ...] = ("--show_tracebacks=True",),
    folder: Path = NOTEBOOKS,
    cell_timeout: int = 120,
) -> Server:
    """A Voila server serving ``folder`` (notebooks/) with ``TABLETOP_DB=db`` on a free port, its
    log in ``tmp/<name>.log`` (``args``: more command-line options; ``cell_timeout``: the
    executor's, patient for a loaded CI machine). Started from the repository
    root, so its ``voila.json`` applies as it does for ``make play``. Use it in :func:`running`."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "voila",
        str(folder),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        f"--VoilaExecutor.timeout={cell_timeout}",
        *args,
    ]
    env = {**os.environ, "TABLETOP_DB": str(db), "PYTHONUNBUFFERED": "1"}
    return Server(cmd, env=env, cwd=ROOT, log_path=tmp / f"{name}.log", base=f"http://127.0.0.1:{port}")


@contextlib.contextmanager
def running(*servers: Server):
    """Wait until every server answers; stop them all when the block ends (also on failure)."""
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()
    # nbclient drops a cell's late output with only this warning, and the page opens without that
    # widget; voila.json's iopub_timeout prevents it. Fail loudly if it ever happens again.
    for server in servers:
        dropped = server.log_path.read_text(errors="replace").count("Timeout waiting for IOPub output")
        if dropped:
            pytest.fail(f"Voila dropped the output of {dropped} cell(s) (see {server.log_path})", pytrace=False)


@pytest.fixture(scope="session")
def voila_tmp(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("voila")


@pytest.fixture(scope="session")
def voila_db(voila_tmp) -> Path:
    """The TABLETOP_DB file of the Voila server (tests create tables in it)."""
    return voila_tmp / "table.db"


@pytest.fixture(scope="session")
def voila_url(voila_tmp, voila_db, chromium_path):
    """Base URL of a Voila server serving notebooks/ (started once per session)."""
    with running(start_voila(voila_tmp, voila_db)) as (server,):
        yield server.base


class PageWatch:
    """Console errors and failed requests seen by one page (known offline noise ignored)."""

    def __init__(self, page):
        self.console_errors: list[str] = []
        self.failed_requests: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.console_errors.append(f"pageerror: {exc}"))
        page.on("requestfailed", self._on_request_failed)

    @staticmethod
    def _ignored(url: str) -> bool:
        return any(f"//{host}/" in url for host in IGNORED_HOSTS)

    def _on_console(self, msg):
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        if self._ignored(url) or any(host in msg.text for host in IGNORED_HOSTS):
            return
        self.console_errors.append(f"console: {msg.text} ({url})")

    def _on_request_failed(self, request):
        if self._ignored(request.url):
            return
        self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def problems(self) -> list[str]:
        return self.console_errors + self.failed_requests


@pytest.fixture(scope="session")
def watch_page():
    return PageWatch


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where screenshots go: docs/screenshots when TT_SCREENSHOTS=1 (``make screenshots``),
    else a temporary folder, so that a test run leaves the work tree clean."""
    if os.environ.get("TT_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")
