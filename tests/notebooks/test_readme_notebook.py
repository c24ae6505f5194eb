"""The notebook route of README.md (first-evening issue, item 14): a reader who wants their own
notebook finds `make lab` (JupyterLab in the same .venv, the `lab` extra) and the lines to type,
the import of a system's Character included, and those lines work as written."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from IPython.terminal.interactiveshell import TerminalInteractiveShell
from IPython.testing.globalipapp import start_ipython

from tabletop_widgets.widgets import CharacterSheet

ROOT = Path(__file__).resolve().parents[2]


def _notebook_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## In a notebook of your own\n(.*?)^## ", text, re.M | re.S)
    assert m, "README.md has no 'In a notebook of your own' section"
    return m.group(1)


def test_the_readme_says_how_to_get_jupyterlab_and_what_to_type():
    section = _notebook_section()
    assert "`make lab`" in section and "pip install 'tabletop-widgets[lab]'" in section
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "from tabletop_systems.ret import Character" in code and "%load_ext tabletop_widgets" in code


def test_the_readme_lines_give_a_live_sheet_that_roll_reads():
    start_ipython()
    shell = TerminalInteractiveShell.instance()
    code = re.search(r"```python\n(.*?)```", _notebook_section(), re.S).group(1)
    result = shell.run_cell(code)
    assert result.success, result.error_in_exec
    assert isinstance(result.result, CharacterSheet)
    assert shell.user_ns["hero"].name == "Vera Lind"
    rolled = shell.run_line_magic("roll", "--seed 1 1d1+@attention")
    assert rolled.total == 1 + shell.user_ns["hero"].attention


def test_the_lab_extra_and_make_lab_bring_jupyterlab():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(dep.startswith("jupyterlab") for dep in extras["lab"])
    assert not any(dep.startswith("jupyterlab") for dep in extras["voila"])  # make play's venv: why lab is needed
    dry = subprocess.run(["make", "-n", "-B", "lab"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "pip install -e '.[lab]'" in dry.stdout
    assert re.search(r"jupyter lab --notebook-dir=notebooks", dry.stdout), dry.stdout
