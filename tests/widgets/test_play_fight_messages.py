"""The play pages' scripted fight (the last code cell of each ``play_*.ipynb``) costs the page few
messages (issue 21, page speed): the fight is played on the Combat and the tracker drawn once,
as it stands, instead of redrawing it at every step. Before, the cell sent 216 (R.E.T.), 173
(Seasons), 172 (Life&Death) and 166 (Threads of Fate) updates; most of what is left are the
sheet's and the tray's (the hero is hurt, their odds change).

Each test runs the page's code cells in order in a fresh process (IPython's shell, as a Voila
kernel does; widgets get a dummy comm), counting the updates the last cell sends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: updates the fight cell may send at most, by page (what it sends now)
BUDGET = {"ret": 42, "seasons": 30, "life_and_death": 30, "threads_of_fate": 32}

RUNNER = r"""
import json, sys
from collections import Counter
import ipywidgets as widgets
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
cells = [c for c in json.load(open(sys.argv[1], encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
updates = Counter()
original = widgets.Widget.send_state
def counting(self, key=None):
    for k in key if isinstance(key, (list, tuple, set)) else [key]:
        updates[k] += 1
    return original(self, key)
for i, cell in enumerate(cells):
    if i == len(cells) - 1:
        widgets.Widget.send_state = counting
    result = shell.run_cell("".join(cell["source"]), silent=True)
    if not result.success:
        print(json.dumps({"error": repr(result.error_in_exec or result.error_before_exec)}))
        sys.exit(1)
widgets.Widget.send_state = original
t = shell.user_ns["tracker"]
print(json.dumps({
    "updates": sum(updates.values()),
    "round": t.combat.round,
    "events": [e["type"] for e in t.combat.events],
    "log": t.log_view.value,
    "selected": t.selected,
    "panel": t.panel_head.value,
    "status": t.status.value,
}))
"""


@pytest.mark.parametrize("slug", sorted(BUDGET))
def test_the_fight_cell_plays_the_fight_then_draws_it_once(slug):
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(NOTEBOOKS / f"play_{slug}.ipynb")],
        cwd=NOTEBOOKS,
        env={**os.environ, "VOILA_PREHEAT": "False"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, f"the notebook failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    report = json.loads(lines[-1])
    # what the page's text says stands: round 1 under way, blows traded, every step in the log
    assert report["round"] == 1 and report["events"].count("attack") >= 2, report["events"]
    assert report["log"].count("<li>") >= 5 and report["selected"] and "tt-selected-name" in report["panel"]
    if slug != "threads_of_fate":  # the hero's blow in the status line, as the Attack button shows it
        assert 'class="tt-msg"' in report["status"] and "→" in report["status"], report["status"]
    assert report["updates"] <= BUDGET[slug], report["updates"]
