"""Issue 21: the kernel manager culls a kernel by how long it has had no page, whatever the kernel
itself sends (plain Python; ``tests/ui/test_closed_pages_ui.py`` plays it with a real Voila
server and browser)."""

from __future__ import annotations

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
