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
    """The modules loaded after running ``notebook``'s code cells in a fresh process (not a
    preheated kernel unless ``env`` says ``VOILA_PREHEAT=True``)."""
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


def test_the_lobby_lists_every_game_and_loads_only_the_rules_of_the_one_it_starts_on(tmp_path):
    """The lobby's game list shows each system's title (its package's ``TITLE``); only the
    default game's rules load (R.E.T.: the GM's title in the form). Loading all four took about
    0.4 s of the lobby's kernel."""
    modules = loaded_by(NOTEBOOKS / "lobby.ipynb", env={"TABLETOP_DB": str(tmp_path / "table.db")})
    assert "tabletop_widgets.widgets.lobby" in modules  # the page did run
    assert {f"tabletop_systems.{s}" for s in SYSTEMS} <= modules  # every title was read
    rules = {m.split(".")[1] for m in modules if m.startswith("tabletop_systems.") and m.count(".") >= 2}
    assert rules == {"ret"}


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


class VoilaQuery:
    """Voila's side of a preheated kernel's wait: a websocket at ``/voila/query/<kernel id>``
    that sends the request's variables (tornado, as in Voila), on a free port of 127.0.0.1."""

    def __init__(self, info: dict[str, str], delay: float = 0.0):
        import asyncio
        import threading

        self.info, self.delay, self.asked = info, delay, []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(10)

    def _serve(self, ready):
        import asyncio

        import tornado.web
        import tornado.websocket

        query = self

        class Handler(tornado.websocket.WebSocketHandler):
            async def open(self, kernel_id):
                query.asked.append(kernel_id)
                await asyncio.sleep(query.delay)  # the page's request comes later
                self.write_message(query.info)

        asyncio.set_event_loop(self.loop)
        app = tornado.web.Application([(r"/voila/query/(.*)", Handler)])
        server = app.listen(0, "127.0.0.1")
        self.port = next(iter(server._sockets.values())).getsockname()[1]
        ready.set()
        self.loop.run_forever()

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_a_preheated_table_kernel_waits_for_its_request_without_voila(seats):
    """A kernel Voila keeps ready (``VOILA_PREHEAT=True``) runs the table notebook up to
    ``from_voila``, waits there for the page's request from Voila's websocket, then joins the seat
    of the token it brings; it never imports Voila or jupyter_server (about 45 MB a seat)."""
    db, made = seats
    query = VoilaQuery({"QUERY_STRING": made.links("")["anna"].lstrip("?")}, delay=1.0)
    try:
        env = {
            "TABLETOP_DB": str(db),
            "VOILA_PREHEAT": "True",
            "VOILA_APP_PORT": str(query.port),
            "VOILA_KERNEL_ID": "k-123",
            "QUERY_STRING": "",
        }
        modules = loaded_by(NOTEBOOKS / "table.ipynb", env)
    finally:
        query.close()
    assert query.asked == ["k-123"]
    assert "tabletop_systems.seasons" in modules  # the seat joined: its table's system loaded
    assert offenders(modules, "seasons") == []
    assert not [m for m in modules if m.split(".")[0] in ("voila", "jupyter_server", "jupyterlab_server")]


def test_only_a_preheated_kernel_waits(monkeypatch):
    """Any other kernel was started for its request: ``from_voila`` reads the query at once."""
    from tabletop_widgets.table import SeatError, TableSession
    from tabletop_widgets.table.voila_request import wait_for_request

    env = {"VOILA_PREHEAT": "False", "VOILA_APP_PORT": "1"}  # nothing listens there: never asked
    assert wait_for_request(env) is False
    monkeypatch.setenv("QUERY_STRING", "table=t1")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    with pytest.raises(SeatError):  # no seat token: refused before any store opens
        TableSession.from_voila()


def test_a_preheated_kernel_that_cannot_reach_voila_says_so_and_finds_no_token(caplog):
    from tabletop_widgets.table.voila_request import wait_for_request

    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"VOILA_PREHEAT": "True", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": "k"}
    assert wait_for_request(env) is False
    assert "QUERY_STRING" not in env
    assert f"ws://127.0.0.1:{port}/voila/query/k" in caplog.text
