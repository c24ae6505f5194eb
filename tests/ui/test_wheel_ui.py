"""What a pip user gets: the wheel, installed (not editable) into a fresh virtual environment, run
from a directory that is not the checkout, serves the dashboards with ``tabletop-widgets play``,
and Chromium renders the index and a play page without error.

* The wheel is built from a copy of the source (so no stale ``build/`` of the work tree can leak
  into it) with ``pip wheel --no-build-isolation``: setuptools comes from the test extra, so the
  build needs no network.
* The fresh venv gets the wheel with ``pip install --no-deps``; its dependencies are the project
  venv's own installed packages (and their Jupyter data: widget front-ends, Voila templates),
  linked in one by one, leaving out the project's editable install. Fast and offline, and the
  checkout is on no path: the test asserts it.
* The command runs from a directory holding a hostile ``voila.json`` (sources shown, tracebacks
  shown): the project's settings, shipped with the pages, must still apply.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

import tabletop_widgets
from conftest import open_context

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]
JUNK = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
    "test-results",
    "*.db",
    "*.db-*",
)
#: project-venv entries the fresh venv must not share: the editable install, and the installers
#: (the fresh venv's pip runs from the project venv, see _install)
NOT_SHARED = re.compile(r"(__editable__|tabletop|_?distutils|pip\b|pip-|setuptools|pkg_resources|__pycache__)")
START_TIMEOUT = 120
LOAD_TIMEOUT = 120_000
WIDGETS = re.compile(r"application/vnd\.jupyter\.widget-view\+json")
ERROR_OUTPUTS = (
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], '
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
)


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert r.returncode == 0, f"{cmd}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def _share_dependencies(venv: Path) -> None:
    """Link the project venv's installed dependencies and their Jupyter data into ``venv``."""
    ours = Path(sysconfig.get_paths()["purelib"])
    theirs = Path(
        _run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).stdout.strip()
    )
    for entry in ours.iterdir():
        if not NOT_SHARED.match(entry.name):
            (theirs / entry.name).symlink_to(entry)
    for sub in ("share/jupyter", "etc/jupyter"):
        src = Path(sys.prefix) / sub
        if src.is_dir():
            dst = venv / sub
            dst.mkdir(parents=True, exist_ok=True)
            for entry in src.iterdir():
                if entry.name != "kernels":  # the kernel is the fresh venv's own python
                    (dst / entry.name).symlink_to(entry)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv, the wheel) with the wheel installed in the fresh venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=JUNK, symlinks=True)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(src),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp / "dist"),
        ],
        cwd=tmp,
    )
    (wheel,) = (tmp / "dist").glob("tabletop_widgets-*.whl")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        cwd=tmp,
    )
    _share_dependencies(venv)
    return venv, wheel


def _clean_env(tmp: Path) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "TABLETOP_DB", "VIRTUAL_ENV", "JUPYTER_PATH", "JUPYTER_CONFIG_DIR")
    }
    return {**env, "HOME": str(tmp), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}


def test_the_wheel_holds_the_dashboards_and_the_command(installed):
    venv, wheel = installed
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    for page in (
        "index.ipynb",
        "dice.ipynb",
        "lobby.ipynb",
        "table.ipynb",
        "tutorial.ipynb",
        "play_ret.ipynb",
        "play_seasons.ipynb",
        "play_life_and_death.ipynb",
        "play_threads_of_fate.ipynb",
        "gallery/sheet.ipynb",
        "gallery/tray.ipynb",
        "gallery/tracker.ipynb",
        "voila.json",
    ):
        assert f"tabletop_widgets/notebooks/{page}" in names, page
    entry_points = (
        zipfile.ZipFile(wheel)
        .read(f"tabletop_widgets-{tabletop_widgets.__version__}.dist-info/entry_points.txt")
        .decode()
    )
    assert "tabletop-widgets = tabletop_widgets.cli:main" in entry_points
    assert not any(n.startswith(("tests/", "notebooks/", "docs/")) for n in names)


def test_the_installed_package_runs_without_the_checkout(installed, tmp_path):
    venv, _ = installed
    env = _clean_env(tmp_path)
    out = _run([str(venv / "bin" / "tabletop-widgets"), "--version"], cwd=tmp_path, env=env).stdout
    assert out.strip() == f"tabletop-widgets {tabletop_widgets.__version__}"
    probe = (
        "import json, sys, tabletop_widgets, tabletop_systems.ret; "
        "from tabletop_widgets.cli import notebooks_dir; "
        "print(json.dumps([tabletop_widgets.__file__, str(notebooks_dir()), sys.path, "
        "tabletop_widgets.available_systems()]))"
    )
    module, pages, path, systems = json.loads(
        _run([str(venv / "bin" / "python"), "-c", probe], cwd=tmp_path, env=env).stdout
    )
    assert Path(module).is_relative_to(venv) and Path(pages).is_relative_to(venv)
    assert not [p for p in path if p and Path(p).resolve().is_relative_to(ROOT.resolve())]
    assert set(systems) >= {"ret", "seasons", "life_and_death", "threads_of_fate"}


@pytest.fixture(scope="module")
def served(installed, tmp_path_factory, chromium_path):
    """``tabletop-widgets play`` of the installed wheel, started from a directory that is not the
    checkout and holds a hostile voila.json. Yields (base URL, db path, log path)."""
    venv, _ = installed
    tmp = tmp_path_factory.mktemp("play")
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "voila.json").write_text(
        json.dumps({"VoilaConfiguration": {"strip_sources": False, "show_tracebacks": True}})
    )
    db = tmp / "store" / "table.db"
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = tmp / "play.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [str(venv / "bin" / "tabletop-widgets"), "play", "--port", str(port), "--db", os.path.relpath(db, elsewhere)],
        cwd=elsewhere,
        env=_clean_env(tmp),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail(
                        f"tabletop-widgets play did not start (exit {proc.poll()}):\n"
                        + log_path.read_text(errors="replace")[-3000:],
                        pytrace=False,
                    )
                time.sleep(0.25)
        yield base, db, log_path
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def _render(browser, watch_page, url, marker, parts=()):
    context = open_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    watch = watch_page(page)
    try:
        response = page.goto(url, timeout=LOAD_TIMEOUT)
        assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
        html = response.text()
        n_widgets = len(WIDGETS.findall(html))
        assert n_widgets > 0, url
        expect(page.locator(marker).first).to_be_visible(timeout=LOAD_TIMEOUT)
        page.wait_for_function(
            "n => document.querySelectorAll('.jp-OutputArea-output > .jupyter-widgets').length >= n",
            arg=n_widgets,
            timeout=LOAD_TIMEOUT,
        )
        for part in parts:
            expect(page.locator(part).first).to_be_visible(timeout=LOAD_TIMEOUT)
        errors = page.locator(ERROR_OUTPUTS)
        assert errors.count() == 0, f"{url}: error output: {errors.first.inner_text()[:2000]}"
        text = page.locator("body").inner_text()
        assert "Traceback" not in text and "Error displaying widget" not in text, url
        assert watch.problems() == [], f"{url}: {watch.problems()}"
        return html
    finally:
        context.close()


def test_play_serves_the_index_and_a_play_page(installed, served, browser, watch_page):
    base, db, log_path = served
    html = _render(browser, watch_page, f"{base}/voila/render/index.ipynb", ".tt-index-page")
    # the project's voila.json applied, not the one in the current directory: sources stripped
    assert "PAGES = [" not in html
    _render(
        browser,
        watch_page,
        f"{base}/voila/render/play_ret.ipynb",
        ".tt-sheet",
        parts=(".tt-play-checks", ".tt-sheet", ".tt-dice-tray", ".tt-tracker .tt-combatant"),
    )
    # a table in the store --db named (a relative path, from where play started): its GM link
    # opens it, so the pages' kernels use that store
    venv, _ = installed
    made = json.loads(
        _run(
            [
                str(venv / "bin" / "python"),
                "-m",
                "tabletop_widgets.table",
                "create",
                str(db),
                "--system",
                "ret",
                "--seat",
                "gm:gm:Gail",
                "--title",
                "Wheel table",
                "--base",
                f"{base}/voila/render/table.ipynb",
                "--json",
            ],
            cwd=db.parent,
            env=_clean_env(db.parent),
        ).stdout
    )
    _render(browser, watch_page, made["links"]["gm"], ".tt-table-view")
    # the installed command verifies like the table CLI: the table is still open, so 2
    r = subprocess.run(
        [str(venv / "bin" / "tabletop-widgets"), "verify", str(db), made["table"]],
        capture_output=True,
        text=True,
        timeout=120,
        env=_clean_env(db.parent),
    )
    assert r.returncode == 2 and "still open" in r.stderr, (r.returncode, r.stderr)
    log = log_path.read_text(errors="replace")
    assert f"{base}/voila/render/index.ipynb" in log and str(db) in log
    assert "Traceback" not in log, log[-3000:]
