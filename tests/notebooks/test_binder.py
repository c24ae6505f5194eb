"""Binder: a fresh virtual environment built from binder/requirements.txt alone (as repo2docker
does, from the repository root) serves the demo with Voila, and the pages render without error.

This is the slowest test (it installs the project and Voila into a new venv: about a minute with
a warm pip cache); it runs in CI like every other test.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["notebooks/index.ipynb", "notebooks/dice.ipynb", "notebooks/gallery/sheet.ipynb"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    venv = tmp_path_factory.mktemp("binder") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    # repo2docker: `pip install -r binder/requirements.txt` run from the repository root
    r = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "-r", "binder/requirements.txt"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return py


def test_runtime_matches_the_tested_python():
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}"


def test_binder_env_serves_the_demo(binder_env, tmp_path):
    py = binder_env
    # the installed package, not the work tree, must be what runs
    out = subprocess.run(
        [
            str(py),
            "-c",
            "import tabletop_widgets, tabletop_systems.ret, sys; "
            "print(tabletop_widgets.__file__); print(tabletop_widgets.available_systems())",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "site-packages" in out and "threads_of_fate" in out
    port = _free_port()
    env = {**os.environ, "TABLETOP_DB": str(tmp_path / "table.db"), "HOME": str(tmp_path)}
    log = open(tmp_path / "voila.log", "wb")
    proc = subprocess.Popen(
        [
            str(py),
            "-m",
            "voila",
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            "--show_tracebacks=True",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/voila/static/voila.js", timeout=2)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "voila.log").read_text()[-3000:]
                time.sleep(0.3)
        for page in PAGES:
            with urllib.request.urlopen(f"{base}/voila/render/{page}", timeout=180) as resp:
                body = resp.read().decode("utf-8", "replace")
            assert resp.status == 200, page
            assert "Traceback" not in body and 'output_type": "error"' not in body, (page, body[-2000:])
            assert "application/vnd.jupyter.widget-view+json" in body, page
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
