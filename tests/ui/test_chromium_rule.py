"""The rule for a missing Chromium: skip with the reason on a developer machine, fail in CI.

Runs the browser tests in a child pytest with ``CHROMIUM_PATH`` pointing nowhere; the
``chromium_path`` fixture stops them before any server or browser starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(ci: str | None):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["CHROMIUM_PATH"] = str(ROOT / "no-such-chromium")
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/ui/test_dice_page.py",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "-k",
            "roll_shows",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_chromium_skips_with_the_reason_outside_ci():
    proc = _run(None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 skipped" in proc.stdout
    assert "no-such-chromium missing" in proc.stdout


def test_missing_chromium_fails_loudly_in_ci():
    proc = _run("true")
    assert proc.returncode != 0
    assert "CI is set and the browser tests cannot run" in proc.stdout
    assert "skipped" not in proc.stdout.splitlines()[-1]
