"""A page's kernel imports only what the page uses (issue 21: page speed, memory per seat).

Each test runs a dashboard's own code cells, in order, in a fresh Python process (IPython's shell,
as a Voila kernel runs them; widgets get a dummy comm there) and then lists the modules loaded.
A play page or a table page must not load the exact-odds oracle (``icepool``), the PostgreSQL
driver (``psycopg``, for a SQLite table), Voila's server side (``voila``, ``jupyter_server``,
``jsonschema``: seconds of start-up in every kernel) or another system's rules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SYSTEMS = ("ret", "seasons", "life_and_death", "threads_of_fate")
#: top-level modules no page kernel needs
HEAVY = ("icepool", "psycopg", "voila", "jupyter_server", "jsonschema")

RUNNER = r"""
import json, sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
cells = json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
for cell in cells:
    if cell["cell_type"] != "code":
        continue
    result = shell.run_cell("".join(cell["source"]), silent=True)
    if not result.success:
        err = result.error_in_exec or result.error_before_exec
        print(json.dumps({"error": repr(err)}))
        sys.exit(1)
print(json.dumps({"modules": sorted(sys.modules)}))
"""


def loaded_by(notebook: Path, env: dict[str, str] | None = None) -> set[str]:
    """The modules loaded after running ``notebook``'s code cells in a fresh process."""
    run_env = {**os.environ, "VOILA_PREHEAT": "False", **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(notebook)],
        cwd=notebook.parent,
        env=run_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, f"the notebook failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    report = json.loads(lines[-1])
    return set(report["modules"])


def offenders(modules: set[str], system: str) -> list[str]:
    """Heavy modules and other systems' modules among ``modules``."""
    bad = [m for m in modules if m.split(".")[0] in HEAVY]
    others = [s for s in SYSTEMS if s != system]
    bad += [m for m in modules if m.split(".")[:2][-1] in others and m.startswith("tabletop_systems.")]
    return sorted(bad)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_play_page_loads_only_its_own_system(system):
    modules = loaded_by(NOTEBOOKS / f"play_{system}.ipynb")
    assert f"tabletop_systems.{system}" in modules  # the page did run
    assert offenders(modules, system) == []
    # nor the views it does not show (the table layer with them)
    assert not {"tabletop_widgets.widgets.table_view", "tabletop_widgets.widgets.lobby"} & modules


def test_every_view_name_is_still_importable_from_the_package():
    import tabletop_widgets.widgets as views

    for name in views.__all__:
        assert getattr(views, name).__name__ == name
    assert views.tray.DiceTray is views.DiceTray  # the modules too, as attributes
    with pytest.raises(AttributeError):
        views.NoSuchView  # noqa: B018


@pytest.fixture
def seats(tmp_path):
    """A SQLite table of Seasons (not the first system) with a GM and one player."""
    from tabletop_widgets import get_system
    from tabletop_widgets.table import SeatSpec, create_table, open_store
    from tabletop_widgets.widgets.lobby import sample_character

    db = tmp_path / "table.db"
    store = open_store(str(db))
    try:
        hero = sample_character(get_system("seasons"), "Anna").to_dict()
        made = create_table(
            store,
            "seasons",
            [SeatSpec("gm", "gm", "Gail"), SeatSpec("anna", "player", "Anna", "c1")],
            characters={"c1": hero},
        )
    finally:
        store.close()
    return db, made


@pytest.mark.parametrize("seat", ["gm", "anna"])
def test_a_table_page_loads_only_the_tables_system(seats, seat):
    db, made = seats
    query = made.links("")[seat].lstrip("?")
    modules = loaded_by(NOTEBOOKS / "table.ipynb", {"TABLETOP_DB": str(db), "QUERY_STRING": query})
    assert "tabletop_widgets.widgets.table_view" in modules and "tabletop_systems.seasons" in modules
    assert offenders(modules, "seasons") == []


def test_a_preheated_kernel_still_waits_for_its_request(monkeypatch):
    """Voila sets VOILA_PREHEAT=True in a pool kernel: ``from_voila`` then asks Voila for the
    request (``wait_for_request``) before it reads the query; in every other kernel it reads the
    query at once, without importing Voila."""
    from tabletop_widgets.table import SeatError, TableSession

    calls = []
    fake_voila, fake_utils = type(sys)("voila"), type(sys)("voila.utils")

    def wait_for_request():
        calls.append(os.environ.get("QUERY_STRING"))
        os.environ["QUERY_STRING"] = "table=t1"  # no seat token: refused before any store opens

    fake_utils.wait_for_request = wait_for_request
    fake_voila.utils = fake_utils
    monkeypatch.setitem(sys.modules, "voila", fake_voila)
    monkeypatch.setitem(sys.modules, "voila.utils", fake_utils)

    monkeypatch.setenv("QUERY_STRING", "table=t1")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    with pytest.raises(SeatError):
        TableSession.from_voila()
    assert calls == []

    monkeypatch.delenv("QUERY_STRING")
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    with pytest.raises(SeatError):
        TableSession.from_voila()
    assert calls == [None]  # it waited before reading the query
