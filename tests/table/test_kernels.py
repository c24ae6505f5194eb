"""Issue 21: the kernel manager culls a kernel by how long it has had no page, whatever the kernel
itself sends (plain Python; ``tests/ui/test_closed_pages_ui.py`` plays it with a real Voila
server and browser)."""

from __future__ import annotations

import ast
import asyncio
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from traitlets.config import Configurable

from tabletop_widgets.table import kernels
from tabletop_widgets.table.kernels import PageKernelManager


@pytest.fixture(autouse=True)
def no_resolver(monkeypatch):
    """These managers are made by the dozen: none starts the table's resolver (one test below
    checks that a server's does)."""
    monkeypatch.setattr(PageKernelManager, "_start_resolver", lambda self: None)


class Clock:
    def __init__(self):
        from datetime import datetime, timezone

        self.now = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)

    def __call__(self):
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def manager(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(kernels, "_now", clock)
    km = PageKernelManager(cull_idle_timeout=300, cull_interval=60)
    kernel = SimpleNamespace(
        execution_state="idle", kernel_spec=SimpleNamespace(metadata={}), kernel_name="python3", last_activity=None
    )
    shut: list[str] = []
    monkeypatch.setattr(km, "get_kernel", lambda kid: kernel)

    async def shutdown_kernel(kid, *args, **kwargs):
        shut.append(kid)

    monkeypatch.setattr(km, "shutdown_kernel", shutdown_kernel)
    km.alone_since["k1"] = clock()  # started now (start_kernel records it)
    return km, kernel, clock, shut


def cull(km) -> None:
    asyncio.run(km.cull_kernel_if_idle("k1"))


def test_a_page_left_open_is_never_culled(manager):
    km, kernel, clock, shut = manager
    km.notify_connect("k1")
    clock.advance(3600)  # an hour with the page open and nobody acting
    kernel.last_activity = clock.now - timedelta(hours=1)
    cull(km)
    assert shut == []


def test_a_closed_page_goes_after_the_timeout_whatever_the_kernel_sends(manager):
    km, kernel, clock, shut = manager
    km.notify_connect("k1")
    clock.advance(100)
    km.notify_disconnect("k1")  # the tab is gone
    for _ in range(4):  # the table plays on: the follower redraws (jupyter_server's "activity")
        clock.advance(60)
        kernel.last_activity = clock.now
        cull(km)
    assert shut == []  # 240 s alone: not yet
    clock.advance(61)
    kernel.last_activity = clock.now
    cull(km)
    assert shut == ["k1"]


def test_a_reload_or_a_second_tab_keeps_it(manager):
    km, kernel, clock, shut = manager
    km.notify_connect("k1")
    km.notify_connect("k1")  # two pages on one kernel (a reconnect before the old socket closed)
    km.notify_disconnect("k1")
    clock.advance(1000)
    cull(km)
    assert shut == []
    km.notify_disconnect("k1")
    clock.advance(299)
    cull(km)
    assert shut == []
    km.notify_connect("k1")  # the page came back
    clock.advance(1000)
    cull(km)
    assert shut == []


def test_a_kernel_running_its_notebook_is_not_culled_and_its_clock_starts_after(manager):
    km, kernel, clock, shut = manager
    kernel.execution_state = "busy"
    clock.advance(400)
    cull(km)
    assert shut == []
    kernel.execution_state = "idle"  # done; the page has not connected yet
    clock.advance(200)
    cull(km)
    assert shut == []
    clock.advance(101)
    cull(km)
    assert shut == ["k1"]


def test_never_connected_kernels_go_too(manager):
    km, kernel, clock, shut = manager
    clock.advance(301)  # a page whose browser never connected (a crashed tab while loading)
    cull(km)
    assert shut == ["k1"]


def test_a_pooled_kernel_is_not_idle_while_it_waits_and_is_culled_after_its_page_leaves(manager):
    """A kernel waiting in Voila's preheat pool (``_pools``: done tasks with ``kernel_id``) had
    no page since it started; its clock restarts at every culler pass, so a page that takes it
    long after is not culled before it connects; after the page leaves, it is culled as usual."""
    km, kernel, clock, shut = manager

    async def twenty_minutes_in_the_pool():
        async def ready():
            return {"kernel_id": "k1"}

        task = asyncio.ensure_future(ready())
        await task
        km._pools = {"play_ret.ipynb": [task]}  # what Voila's pool manager keeps
        assert km.pooled_kernels() == {"k1"}
        for _ in range(20):
            clock.advance(60)
            await km.cull_kernels()

    asyncio.run(twenty_minutes_in_the_pool())
    km._pools = {}  # a page took it; the browser has not connected yet
    clock.advance(5)
    cull(km)
    assert shut == []
    km.notify_connect("k1")
    km.notify_disconnect("k1")
    clock.advance(301)
    cull(km)
    assert shut == ["k1"]


def test_only_the_cell_that_waits_for_the_request_has_no_time_limit():
    """The executor's cell timeout applies to every cell but the table notebook's wait (a kernel
    Voila keeps ready waits there until a page takes it: minutes, hours)."""
    import json
    from pathlib import Path

    from nbformat import from_dict

    timeout = kernels.CellTimeout(60)
    cells = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "table.ipynb").read_text())["cells"]
    code = [from_dict(c) for c in cells if c["cell_type"] == "code"]
    assert [timeout(c) for c in code] == [None, 60]
    assert "wait_for_request()" in "".join(code[0].source) and "TableView(" not in "".join(code[0].source)
    last = ast.parse("".join(code[0].source)).body[-1]
    assert not isinstance(last, ast.Expr), "the waiting cell would show its value (True) above the page"
    assert timeout(from_dict({"cell_type": "code", "metadata": {}, "source": ""})) == 60
    assert kernels.CellTimeout(None)(code[1]) is None  # Voila's default: no limit at all


def test_the_kernel_manager_gives_voila_s_executor_the_cell_timeout():
    """Wired through the kernel manager ``voila.json`` names: the Voila app's config (which its
    executors read) gets :class:`CellTimeout` with the configured timeout, unless it has one."""
    from traitlets.config import Config, Configurable

    app = Configurable(config=Config({"VoilaExecutor": {"timeout": 120}}))
    PageKernelManager(parent=app)
    func = app.config.VoilaExecutor.timeout_func
    assert isinstance(func, kernels.CellTimeout) and func.timeout == 120

    mine = object()
    app = Configurable(config=Config({"VoilaExecutor": {"timeout_func": mine}}))
    PageKernelManager(parent=app)
    assert app.config.VoilaExecutor.timeout_func is mine


# -- refills when quiet: Voila's own pool manager made on top of PageKernelManager ----------------
class _Voila(Configurable):
    """What Voila's pool manager reads of its parent (the Voila app)."""

    def __init__(self, root_dir, **kwargs):
        super().__init__(**kwargs)
        self.root_dir, self.notebook_path = str(root_dir), None
        self.base_url = self.server_url = "/"
        self.port = 0


class _Renderer:
    """Voila's NotebookRenderer as the pool uses it: the notebook's run is instant here."""

    def __init__(self, notebook_path):
        self.notebook_path = notebook_path
        self.notebook = SimpleNamespace(metadata=SimpleNamespace(kernelspec=SimpleNamespace(name="python3")))
        self.template_name, self.theme = "lab", "light"
        self.rendered_cache: list[str] = []
        self.stop_generator = False

    async def initialize(self):
        return None

    async def generate_content_hybrid(self, kernel_id, kernel_future):
        return [], None


POOLS = {
    "default": {"pool_size": 0},
    "play_ret.ipynb": {"pool_size": 2, "refill_when_quiet": True},
    "table.ipynb": {"pool_size": 1},
}


@pytest.fixture
def pools(tmp_path, monkeypatch):
    """Voila's pool manager (``voila_kernel_manager_factory``, as ``preheat_kernel`` makes it) on
    top of PageKernelManager, with the pools of ``POOLS``; starting a kernel records its time
    and whether it was for a pool. Yields a function that runs a coroutine with the manager."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    started: list[tuple[str, float, bool]] = []

    async def start_kernel(self, *args, **kwargs):
        kernel_id = f"k{len(started) + 1}"
        started.append((kernel_id, time.monotonic(), (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"))
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    manager_class = voila_kernel_manager_factory(PageKernelManager, True, 0)

    def play(scenario, **traits):
        async def main():
            km = manager_class(parent=_Voila(tmp_path), kernel_pools_config=POOLS, fill_delay=0, **traits)
            km._notebook_renderer_factory = _Renderer
            km.get_kernel = lambda kernel_id: SimpleNamespace(kernel_id=kernel_id)
            for name in ("play_ret.ipynb", "table.ipynb"):
                km.fill_if_needed(delay=0, notebook_name=name)
            await asyncio.gather(*(task for pool in km._pools.values() for task in pool))
            try:
                return await scenario(km, started)
            finally:
                await km.shutdown_all()

        return asyncio.run(main())

    return play


async def _take(km, notebook="play_ret.ipynb") -> str:
    """What Voila's page handler does with a pooled notebook: take its kernel."""
    _task, _cache, kernel_id = await km.get_rendered_notebook(notebook_name=notebook)
    return kernel_id


async def _until(predicate, timeout=30.0) -> float:
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < timeout, "timed out"
        await asyncio.sleep(0.01)
    return time.monotonic() - start


def test_the_pools_fill_at_once_when_the_server_starts(pools):
    async def scenario(km, started):
        return list(started)

    started = pools(scenario, refill_quiet=60.0)
    assert len(started) == 3 and all(preheat for _, _, preheat in started)  # two play kernels, one table's


def test_a_taken_play_kernel_is_replaced_only_when_the_server_is_quiet(pools):
    """Making a kernel takes a CPU core for a second: not while a page loads (its browser
    connecting counts as loading too)."""

    async def scenario(km, started):
        taken = await _take(km)
        assert taken == "k1"
        for _ in range(10):  # the page's browser connects and loads: 1 s of activity
            await asyncio.sleep(0.1)
            km.notify_connect(taken)
            assert len(started) == 3, "a new kernel was made while the page loaded"
        waited = await _until(lambda: len(started) == 4)
        assert started[-1][2] is True  # for the pool
        return waited

    assert pools(scenario, refill_quiet=2.0) >= 1.0


def test_a_server_that_never_goes_quiet_replaces_the_kernel_after_refill_wait_max(pools):
    async def scenario(km, started):
        await _take(km)
        return await _until(lambda: len(started) == 4)

    assert pools(scenario, refill_quiet=600.0, refill_wait_max=0.5) >= 0.5


def test_a_third_visitor_within_seconds_gets_a_kernel_made_at_once(pools):
    """Two ready kernels serve two visitors at once; the third takes a refill still waiting for the
    quiet, which then starts at once (it does not wait for the quiet the pages keep away)."""

    async def scenario(km, started):
        first, second = await _take(km), await _take(km)
        assert {first, second} == {"k1", "k2"} and len(started) == 3  # both refills wait
        third = await asyncio.wait_for(_take(km), 30.0)
        assert third == "k4" and len(started) == 4  # only the one it took was made
        return True

    assert pools(scenario, refill_quiet=600.0, refill_wait_max=600.0)


def test_a_pool_not_marked_refill_when_quiet_is_refilled_at_once_as_voila_does(pools):

    async def scenario(km, started):
        assert await _take(km, "table.ipynb") == "k3"
        await _until(lambda: len(started) == 4)
        return True

    assert pools(scenario, refill_quiet=600.0, refill_wait_max=600.0)


def test_a_stopping_server_drops_the_waiting_refills(pools):
    async def scenario(km, started):
        await _take(km)
        await _take(km)
        await asyncio.sleep(0.05)
        stopping = asyncio.ensure_future(km.shutdown_all())
        await asyncio.wait_for(stopping, 30.0)  # at once: no 600 s wait for a quiet server
        return len(started)

    assert pools(scenario, refill_quiet=600.0, refill_wait_max=600.0) == 3  # no kernel made to be stopped


def test_a_page_s_kernel_made_at_once_counts_as_page_activity_a_pool_s_does_not(monkeypatch):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    async def start_kernel(self, *args, **kwargs):
        return "k"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    km = PageKernelManager()
    asyncio.run(km.start_kernel(env={"VOILA_PREHEAT": "True"}))  # a pool's kernel
    assert km._last_page == float("-inf")
    asyncio.run(km.start_kernel(env={}))  # the lobby's, asked for by a page
    assert km._last_page > 0
    assert km.refills_when_quiet("play_ret.ipynb") is False  # no pools configured: Voila's default


# -- trust round 3, item 15: strangers start no kernels; a cap on kernels ----------------------
import json as _json  # noqa: E402

import tornado.web  # noqa: E402

from tabletop_widgets.table import SeatSpec, create_table, open_store  # noqa: E402
from tabletop_widgets.table.admission import KernelBudget, default_max_kernels, default_seat_reserve  # noqa: E402


def _seat_notebooks(root) -> None:
    """A folder like notebooks/: the table page (needs a seat) and a page anyone may open."""
    seat_cell = {"cell_type": "code", "metadata": {"tabletop": {"waits_for_request": True, "needs_seat": True}}}
    for name, cells in (("table.ipynb", [seat_cell]), ("play_ret.ipynb", [{"cell_type": "code", "metadata": {}}])):
        (root / name).write_text(_json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


@pytest.fixture
def seat_table(tmp_path, monkeypatch):
    """A store with one table (``TABLETOP_DB``, as the server has it) and the notebooks."""
    _seat_notebooks(tmp_path)
    db = tmp_path / "table.db"
    monkeypatch.setenv("TABLETOP_DB", str(db))
    with open_store(db) as store:
        return create_table(store, "ret", [SeatSpec("gm", "gm", "Gina")])


class _Kernels:
    """jupyter_server's kernel start, faked: a kernel is running once started, until removed."""

    def __init__(self, monkeypatch, delay: float = 0.0):
        from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

        self.running: list[str] = []
        kernels = self

        async def start_kernel(self, *args, kernel_id=None, **kwargs):
            await asyncio.sleep(delay)
            kernels.running.append(kernel_id)
            return kernel_id

        monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
        monkeypatch.setattr(AsyncMappingKernelManager, "list_kernel_ids", lambda self: list(kernels.running))


def _page(notebook: str, query: str = "") -> dict:
    """The environment Voila gives a page's kernel made at once (no pool)."""
    return {"SCRIPT_NAME": f"/voila/render/{notebook}", "QUERY_STRING": query, "VOILA_PREHEAT": "False"}


def _refused(coro) -> int:
    with pytest.raises(tornado.web.HTTPError) as exc:
        asyncio.run(coro)
    return exc.value.status_code


def test_a_forged_table_page_starts_no_kernel(seat_table, tmp_path, monkeypatch):
    """Each request of ``table.ipynb?table=x&seat=y`` with made-up values started a kernel that
    lived until culled: eight forged requests, eight kernels alive. The token is checked where
    Voila starts the page's kernel, before the notebook runs."""
    kernels = _Kernels(monkeypatch)
    km = PageKernelManager(root_dir=str(tmp_path))
    for query in (
        "",
        "table=x&seat=y",
        f"table={seat_table.table_id}&seat=made-up",
        f"table=x&seat={seat_table.tokens['gm']}",
    ):
        assert _refused(km.start_kernel(env=_page("table.ipynb", query))) == 403
    # the same notebook spelled otherwise (found attacking this work: "//table.ipynb" was read
    # as the absolute path /table.ipynb, which needs no seat, and its page got a kernel)
    for spelled in ("/table.ipynb", "./table.ipynb", "%74able.ipynb", "gallery/../table.ipynb"):
        assert _refused(km.start_kernel(env=_page(spelled, "table=x&seat=y"))) == 403
    assert kernels.running == []
    gm = f"table={seat_table.table_id}&seat={seat_table.tokens['gm']}"
    asyncio.run(km.start_kernel(env=_page("table.ipynb", gm)))  # a real seat opens
    asyncio.run(km.start_kernel(env=_page("play_ret.ipynb")))  # a page anyone may open needs no seat
    assert len(kernels.running) == 2


def test_the_refusal_is_the_page_s_answer_with_its_status(seat_table, tmp_path, monkeypatch):
    """On a real request the refusal is written to the page's handler: the status, the bilingual
    page, and ``tornado.web.Finish`` (Voila's handler ends the request without a kernel)."""
    from jupyter_server.base.call_context import CallContext

    _Kernels(monkeypatch)
    km = PageKernelManager(root_dir=str(tmp_path), max_kernels=2, seat_reserve=1)

    class Handler:
        def __init__(self):
            self.status, self.headers = 200, {}

        def set_status(self, status):
            self.status = status

        def set_header(self, name, value):
            self.headers[name] = value

    async def ask(env):
        handler = Handler()
        CallContext.set(CallContext.JUPYTER_HANDLER, handler)
        with pytest.raises(tornado.web.Finish) as exc:
            await km.start_kernel(env=env)
        return handler, exc.value.args[0]

    handler, page = asyncio.run(ask(_page("table.ipynb", "table=x&seat=y&locale=ru")))
    assert handler.status == 403 and "Ссылка места недействительна" in page and "not valid" in page
    assert page.index("Нет места") < page.index("No seat") and "<script" not in page
    asyncio.run(km.start_kernel(env=_page("play_ret.ipynb")))  # the one kernel the other pages may have
    handler, page = asyncio.run(ask(_page("play_ret.ipynb")))
    assert handler.status == 503 and handler.headers["Retry-After"] == "60"
    assert "server is full" in page and "попробуйте снова через минуту" in page.lower()


def test_the_cap_keeps_room_for_real_seats(seat_table, tmp_path, monkeypatch):
    """Pages anyone may open stop at ``max_kernels - seat_reserve``; a real seat may use the
    reserve; past ``max_kernels`` every new kernel is refused."""
    kernels = _Kernels(monkeypatch)
    km = PageKernelManager(root_dir=str(tmp_path), max_kernels=4, seat_reserve=2)
    gm = f"table={seat_table.table_id}&seat={seat_table.tokens['gm']}"
    for _ in range(2):
        asyncio.run(km.start_kernel(env=_page("play_ret.ipynb")))
    assert _refused(km.start_kernel(env=_page("lobby.ipynb"))) == 503
    for _ in range(2):
        asyncio.run(km.start_kernel(env=_page("table.ipynb", gm)))
    assert _refused(km.start_kernel(env=_page("table.ipynb", gm))) == 503
    assert len(kernels.running) == 4
    kernels.running.pop(0)  # a page's kernel goes (culled, or its page closed)
    asyncio.run(km.start_kernel(env=_page("table.ipynb", gm)))
    assert len(kernels.running) == 4


def test_starts_at_the_same_moment_cannot_pass_the_cap_together(tmp_path, monkeypatch):
    """Each start is counted as it is admitted, before its kernel exists: twenty pages asked for
    at once while kernels take a while to start get three kernels, not twenty."""
    kernels = _Kernels(monkeypatch, delay=0.2)
    km = PageKernelManager(root_dir=str(tmp_path), max_kernels=4, seat_reserve=1)

    async def burst():
        return await asyncio.gather(
            *(km.start_kernel(env=_page("lobby.ipynb")) for _ in range(20)), return_exceptions=True
        )

    results = asyncio.run(burst())
    refused = [r for r in results if isinstance(r, tornado.web.HTTPError)]
    assert len(kernels.running) == 3 and len(refused) == 17
    assert {r.status_code for r in refused} == {503}


def test_the_store_that_cannot_be_reached_starts_no_kernel(tmp_path, monkeypatch):
    _seat_notebooks(tmp_path)
    monkeypatch.setenv("TABLETOP_DB", str(tmp_path / "missing" / "x" / "table.db"))
    (tmp_path / "missing").write_text("a file where the store's folder should be")
    kernels = _Kernels(monkeypatch)
    km = PageKernelManager(root_dir=str(tmp_path))
    assert _refused(km.start_kernel(env=_page("table.ipynb", "table=x&seat=y"))) == 503
    assert kernels.running == []


SEAT_POOLS = {
    "default": {"pool_size": 0},
    "play_ret.ipynb": {"pool_size": 1},
    "table.ipynb": {"pool_size": 1},
}


@pytest.fixture
def seat_pools(seat_table, tmp_path, monkeypatch):
    """Voila's pool manager on top of PageKernelManager over the notebooks of ``seat_table``:
    ``play(scenario, **traits)`` runs ``scenario(km, kernels)``."""
    from voila.voila_kernel_manager import voila_kernel_manager_factory

    kernels = _Kernels(monkeypatch)
    manager_class = voila_kernel_manager_factory(PageKernelManager, True, 0)

    def play(scenario, **traits):
        async def main():
            km = manager_class(parent=_Voila(tmp_path), kernel_pools_config=SEAT_POOLS, fill_delay=0, **traits)
            km._notebook_renderer_factory = _Renderer
            km.get_kernel = lambda kernel_id: SimpleNamespace(kernel_id=kernel_id)
            try:  # (the pool manager fills the pools of the folder's notebooks as it starts)
                return await scenario(km, kernels)
            finally:
                kernels.running.clear()  # (no real kernels to shut down)
                await km.shutdown_all()

        return asyncio.run(main())

    return play


def _url(query: str) -> dict:
    return {"extra_kernel_env_variables": {"VOILA_REQUEST_URL": f"http://h/voila/render/table.ipynb?{query}"}}


def test_a_forged_table_page_takes_no_pooled_kernel(seat_table, seat_pools):
    """With kernels kept ready, a forged request took the table page's ready kernel (and the
    pool made another): now it takes none, and the ready kernel waits for a real seat."""

    async def scenario(km, kernels):
        await _until(lambda: len(kernels.running) == 2)
        ready = set(km.pooled_kernels())
        for i in range(8):
            with pytest.raises(tornado.web.HTTPError) as exc:
                await km.get_rendered_notebook(notebook_name="table.ipynb", **_url(f"table=x{i}&seat=y{i}"))
            assert exc.value.status_code == 403
        assert set(km.pooled_kernels()) == ready and len(kernels.running) == 2
        gm = f"table={seat_table.table_id}&seat={seat_table.tokens['gm']}"
        _task, _cache, kid = await km.get_rendered_notebook(notebook_name="table.ipynb", **_url(gm))
        return kid in ready

    assert seat_pools(scenario)


def test_pools_wait_for_room_and_a_seat_may_use_the_reserve(seat_table, seat_pools):
    """Under a cap of three, one kept for seats: the two pools fill a kernel each, the pages'
    share. A page anyone may open takes the play page's ready kernel; its refill waits for room,
    and the next such page hears the server is full. A real seat takes the table page's ready
    kernel, and the next seat's page lets the waiting refill start in the seats' reserve; past
    the cap a seat is refused too. Refills never take the reserve."""

    async def scenario(km, kernels):
        await _until(lambda: len(kernels.running) == 2)
        await km.get_rendered_notebook(notebook_name="play_ret.ipynb")
        with pytest.raises(tornado.web.HTTPError) as exc:
            await km.get_rendered_notebook(notebook_name="play_ret.ipynb")
        assert exc.value.status_code == 503
        gm = f"table={seat_table.table_id}&seat={seat_table.tokens['gm']}"
        await km.get_rendered_notebook(notebook_name="table.ipynb", **_url(gm))
        await asyncio.sleep(0.3)
        assert len(kernels.running) == 2  # both refills wait: the pages' share is full
        await asyncio.wait_for(km.get_rendered_notebook(notebook_name="table.ipynb", **_url(gm)), 10)
        assert len(kernels.running) == 3  # in the reserve
        with pytest.raises(tornado.web.HTTPError) as exc:
            await km.get_rendered_notebook(notebook_name="table.ipynb", **_url(gm))
        assert exc.value.status_code == 503
        kernels.running.pop(0)  # a page's kernel goes (what remove_kernel says:)
        km.budget.changed()
        await asyncio.sleep(0.3)
        assert len(kernels.running) == 2  # the reserve is not a refill's
        kernels.running.pop(0)
        km.budget.changed()
        await _until(lambda: len(kernels.running) == 2)  # now a refill has room
        return True

    assert seat_pools(scenario, max_kernels=3, seat_reserve=1)


def test_the_default_cap_follows_the_machine_s_memory(tmp_path):
    from tabletop_widgets.table.admission import machine_memory

    gb = 2**30
    assert [default_max_kernels(m) for m in (2 * gb, 8 * gb, 24 * gb)] == [10, 46, 142]
    assert default_max_kernels(512 * 2**20) == 4 and default_max_kernels(None) == 40
    assert [default_seat_reserve(n) for n in (1, 2, 4, 10, 142)] == [0, 1, 1, 2, 35]
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/meminfo").write_text("MemTotal:       25165824 kB\nMemFree: 1 kB\n")
    assert machine_memory(tmp_path) == 24 * gb
    (tmp_path / "sys/fs/cgroup").mkdir(parents=True)
    (tmp_path / "sys/fs/cgroup/memory.max").write_text(f"{2 * gb}\n")
    assert machine_memory(tmp_path) == 2 * gb  # a container's limit
    (tmp_path / "sys/fs/cgroup/memory.max").write_text("max\n")
    assert machine_memory(tmp_path) == 24 * gb
    budget = KernelBudget(4, 9, lambda: set())
    assert budget.reserve_for_seats == 3 and budget.allowed("public") == 1


def test_one_seat_link_cannot_open_pages_without_end(seat_table, tmp_path, monkeypatch):
    """Attacking this work as a player: a loop of requests of one's own valid link started a
    kernel each, up to the whole cap, the seats' reserve included. One link now has at most
    ``pages_per_seat`` pages at once (429)."""
    kernels = _Kernels(monkeypatch)
    km = PageKernelManager(root_dir=str(tmp_path), max_kernels=10, seat_reserve=5, pages_per_seat=2)
    gm = f"table={seat_table.table_id}&seat={seat_table.tokens['gm']}"
    for _ in range(2):
        asyncio.run(km.start_kernel(env=_page("table.ipynb", gm)))
    assert _refused(km.start_kernel(env=_page("table.ipynb", gm))) == 429
    assert len(kernels.running) == 2
    kernels.running.pop(0)  # one of its pages goes: the link may open another
    asyncio.run(km.start_kernel(env=_page("table.ipynb", gm)))
    assert km.seat_pages(f"{seat_table.table_id}/gm") == 2


def test_the_server_is_settled_when_its_pools_are_full_or_wait_for_room(seat_table, seat_pools):
    """``play`` prints the lobby key once the server has settled: a cap smaller than the pools
    (a small machine) leaves pools waiting for room, which must not hold the key back for the
    two minutes ``play`` waits at most."""

    async def scenario(km, kernels):
        start = time.monotonic()
        assert await km.settled(30.0)
        return time.monotonic() - start, len(kernels.running)

    waited, running = seat_pools(scenario, max_kernels=2, seat_reserve=1)
    assert waited < 10 and running == 1


def test_the_servers_kernel_manager_runs_the_tables_resolver_and_stops_it(tmp_path, monkeypatch):
    """Issue 30: any Voila server with the project's voila.json (``make play``, a hand-started one,
    each of several on one PostgreSQL table) runs the resolver on its ``TABLETOP_DB``; it stops
    with the server."""
    monkeypatch.undo()
    monkeypatch.setenv("TABLETOP_DB", str(tmp_path / "table.db"))
    km = PageKernelManager()
    process = km._resolver.process
    try:
        assert process.poll() is None
        assert process.args[-3:-1] == [str(tmp_path / "table.db"), "--parent"]
    finally:
        asyncio.run(km.shutdown_all())
    process.wait(timeout=10)
    assert process.returncode is not None
    assert not PageKernelManager(resolver=False)._resolver
