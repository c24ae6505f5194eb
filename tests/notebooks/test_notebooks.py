"""Notebooks under nbval: the tutorial strictly against its stored (seeded) outputs, every other
notebook at least executing cleanly (--nbval-lax). Run in a subprocess so nbval's own collection
(and its kernel) stay apart from this session."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
STRICT = [NOTEBOOKS / "tutorial.ipynb"]
LAX = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if p not in STRICT and ".ipynb_checkpoints" not in p.parts)


def _nbval(mode: str, paths, tmp_path):
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        mode,
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--rootdir",
        str(tmp_path),
        *map(str, paths),
    ]
    env = {
        "TABLETOP_DB": str(tmp_path / "table.db"),
        "QUERY_STRING": "",
        "PATH": __import__("os").environ.get("PATH", ""),
        "HOME": str(tmp_path),
    }
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def test_tutorial_outputs_match_strictly(tmp_path):
    r = _nbval("--nbval", STRICT, tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


@pytest.mark.parametrize("path", LAX, ids=[str(p.relative_to(NOTEBOOKS)) for p in LAX])
def test_notebook_executes_cleanly(path, tmp_path):
    r = _nbval("--nbval-lax", [path], tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_notebooks_are_committed_without_outputs_except_the_tutorial():
    import json

    for path in LAX:
        nb = json.loads(path.read_text())
        dirty = [i for i, c in enumerate(nb["cells"]) if c.get("outputs") or c.get("execution_count")]
        assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"
