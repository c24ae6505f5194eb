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
