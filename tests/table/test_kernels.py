"""Issue 21: the kernel manager culls a kernel by how long it has had no page, whatever the kernel
itself sends (plain Python; ``tests/ui/test_closed_pages_ui.py`` plays it with a real Voila
server and browser)."""

from __future__ import annotations

import ast
import asyncio
from datetime import timedelta
from types import SimpleNamespace

import pytest

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
