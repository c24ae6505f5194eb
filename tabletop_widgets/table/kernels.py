"""Closed pages' kernels go: Voila's kernel culling as table pages need it, and the unload.

Voila starts one kernel per page (about 125 MB each). A page left open keeps its kernel; a
closed page's kernel must go, or a few evenings of play fill the machine.

**Why table kernels were never culled.** jupyter_server's culler
(``MappingKernelManager.cull_kernel_if_idle``) shuts a kernel down when no browser is connected
*and* its ``last_activity`` is older than ``cull_idle_timeout``. ``last_activity`` is refreshed by
every IOPub message the kernel itself sends whose type, or whose parent request's type, is
"tracked": ``comm_msg`` is, and so is ``execute_request``, the parent that every message of a task
started in the notebook's cell inherits (ipykernel keeps the parent header in a context
variable). A table page's follower applies the other seats' events and redraws its widgets: comm
messages. So while anyone at the table plays, every seat's kernel, closed pages included, looks
active and is never culled; and a GM's kernel, which the others' rolls reach, lives for ever.

:class:`PageKernelManager` measures idleness from the browser's side instead: a kernel is idle
for the time since its last page disconnected (or since it started, when no page ever
connected, or since it was last seen executing: the notebook's own run at page load). What the
kernel sends (the follower's redraws) does not count; a connected page is never culled
(``cull_connected`` off, as by default), nor a kernel busy executing. With ``cull_connected`` or ``cull_busy`` set, or for a dead kernel, it
culls as jupyter_server does.

**The unload.** Voila's page posts ``/voila/api/shutdown/<kernel>`` on ``beforeunload`` with an
``_xsrf`` field read from the ``_xsrf`` cookie, but standalone Voila never sets that cookie
(voila issue 1458), so jupyter_server answers 403 "'_xsrf' argument missing from POST" and the
kernel stays. :class:`XsrfCookieIdentityProvider` has tornado set the cookie (its ``xsrf_token``)
on every page GET, so the beacon carries a valid token and the kernel shuts down at once. The
XSRF check itself stays on.

Both are wired in the repository's ``voila.json`` (the settings ``make play`` uses)::

    "VoilaConfiguration": {"multi_kernel_manager_class": "tabletop_widgets.table.kernels.PageKernelManager"},
    "Voila": {"identity_provider_class": "tabletop_widgets.table.kernels.XsrfCookieIdentityProvider"}

**Preheated kernels.** ``make play`` keeps two kernels per play page and two for the table page
ready (Voila's ``preheat_kernel`` with ``kernel_pools_config`` in ``voila.json``): a play page's
kernel has run its notebook, a table page's has imported what it needs and waits in
``TableSession.from_voila`` for the request that brings the seat's token. Voila's pool manager is
a subclass of :class:`PageKernelManager` and never culls a kernel still in its pool; one that a
page takes is culled like any other, its clock restarted while it waited (:meth:`cull_kernels`).
The table notebook's cell that waits has no cell timeout (:class:`CellTimeout`).

**Refills wait for a quiet server.** Making a play page's kernel takes a CPU core for about a
second (the kernel's start and its notebook's run) and some of the server's own time (it renders
the page). Made while a page loads, it slows that page: on two cores, measured in
``bench/pages.py``, a play page took about 0.6 s longer when the refill of the kernel it took
ran beside it. A pool whose entry in ``kernel_pools_config`` says ``"refill_when_quiet": true``
(``voila.json`` gives the play pages and the table page two kernels each and says so) makes its
new kernel when no page has been asked for and no page's browser has connected for
:attr:`PageKernelManager.refill_quiet` seconds, and at the latest
:attr:`PageKernelManager.refill_wait_max` seconds after the kernel was taken. A page that takes a
refill still waiting (a third visitor within seconds) does not wait for the quiet: that refill
starts at once. A pool not so marked is refilled at once, as Voila does.

This module needs jupyter_server (the ``voila`` extra); nothing else of the package imports it.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from datetime import datetime, timedelta, timezone

from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float


def _now() -> datetime:
    return datetime.now(timezone.utc)


#: the metadata of a notebook cell that waits for its page's request (``{"tabletop":
#: {"waits_for_request": true}}``): the executor's cell timeout does not apply to it
WAITS_FOR_REQUEST = "waits_for_request"

#: a pool's key in ``VoilaKernelManager.kernel_pools_config``: its refills wait for a quiet server
REFILL_WHEN_QUIET = "refill_when_quiet"


class ServerStopping(RuntimeError):
    """A refill that waited for a quiet server is dropped: the server is stopping."""


class CellTimeout:
    """``VoilaExecutor.timeout_func``: every cell gets the configured ``VoilaExecutor.timeout``
    but the one that waits for its page's request, which has no limit. In a kernel Voila keeps
    ready that cell waits until a page takes the kernel, minutes or hours later; with the
    timeout it failed with "Cell execution timed out" and the pool kept a broken page. In any
    other kernel the wait returns at once, and the cells that do the page's work keep the limit."""

    def __init__(self, timeout: int | None):
        self.timeout = timeout

    def __call__(self, cell) -> int | None:
        meta = (cell.get("metadata") or {}).get("tabletop") or {}
        return None if meta.get(WAITS_FOR_REQUEST) else self.timeout


class PageKernelManager(AsyncMappingKernelManager):
    """Culls a kernel ``cull_idle_timeout`` seconds after its last page left (see the module);
    gives Voila's executor :class:`CellTimeout` unless a ``timeout_func`` is configured; with
    Voila's pools, refills the pools that ask for it when the server is quiet."""

    refill_quiet = Float(
        3.0,
        config=True,
        help="Seconds with no page asked for and no page's browser connecting before a pool marked "
        "refill_when_quiet makes its new kernel (a page's load takes about two seconds).",
    )
    refill_wait_max = Float(
        20.0,
        config=True,
        help="Seconds after its kernel was taken that a pool marked refill_when_quiet makes the new "
        "one even if the server never went quiet.",
    )

    def __init_subclass__(cls, **kwargs):
        """Voila's pool manager (``preheat_kernel``) is made on top of this class, its pool
        methods in the subclass: a page taking a pooled kernel and a pool's new kernel pass
        through :meth:`_page_takes` and :meth:`_refill_turn` (see the module)."""
        super().__init_subclass__(**kwargs)
        take, make = cls.__dict__.get("get_rendered_notebook"), cls.__dict__.get("_initialize")
        if take is None or make is None:
            return

        async def get_rendered_notebook(self, notebook_name, *args, **kw):
            self._page_takes(notebook_name)
            return await take(self, notebook_name, *args, **kw)

        async def _initialize(self, notebook_path, kernel_id=None, **kw):
            if kernel_id is None:  # a new kernel for the pool (a restart passes its kernel)
                await self._refill_turn(notebook_path)
            return await make(self, notebook_path, kernel_id, **kw)

        cls.get_rendered_notebook = get_rendered_notebook
        cls._initialize = _initialize

    def __init__(self, **kwargs):
        self.pages: dict[str, int] = {}  # kernel id -> open page connections
        self.alone_since: dict[str, datetime] = {}  # kernel id -> when its last page left
        self._last_page = float("-inf")  # time.monotonic() of the last page asked for or connected
        self._taken: set[str] = set()  # notebooks a page has taken a pooled kernel of
        self._waiting: dict[asyncio.Task, asyncio.Future] = {}  # a pool's waiting refill -> its turn
        self._stopping = False
        super().__init__(**kwargs)
        config = getattr(self.parent, "config", None)  # the Voila app's: its executors read it
        if config is not None and config.VoilaExecutor.get("timeout_func") is None:
            config.VoilaExecutor.timeout_func = CellTimeout(config.VoilaExecutor.get("timeout"))

    async def start_kernel(self, *args, **kwargs):
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") != "True":
            self.page_activity()  # a page asked for a kernel made at once (no pool)
        kernel_id = await super().start_kernel(*args, **kwargs)
        self.alone_since.setdefault(kernel_id, _now())
        return kernel_id

    # -- refills when quiet -------------------------------------------------------------------
    def page_activity(self) -> None:
        """A page was asked for or its browser connected: the server is busy for a while."""
        self._last_page = time.monotonic()

    def refills_when_quiet(self, notebook: str) -> bool:
        """Whether ``notebook``'s pool is marked ``refill_when_quiet`` in ``kernel_pools_config``."""
        pools = getattr(self, "kernel_pools_config", None) or {}
        entry = pools.get(notebook, pools.get("default", {}))
        return bool(entry.get(REFILL_WHEN_QUIET, False))

    def _page_takes(self, notebook: str) -> None:
        """A page asks for ``notebook``'s pooled kernel: from now on its refills wait for a quiet
        server; if the kernel it takes is a refill still waiting, that one starts at once."""
        self.page_activity()
        self._taken.add(notebook)
        pool = (getattr(self, "_pools", None) or {}).get(notebook) or []
        turn = self._waiting.get(pool[0]) if pool else None
        if turn is not None and not turn.done():
            turn.set_result(None)

    def _in_pool(self, notebook: str, task) -> bool:
        return any(item is task for item in (getattr(self, "_pools", None) or {}).get(notebook) or [])

    async def _refill_turn(self, notebook: str) -> None:
        """Returns when a new kernel for ``notebook``'s pool may be made: at once at start, or
        for a pool not marked ``refill_when_quiet``; otherwise when the server has been quiet for
        ``refill_quiet`` seconds, a page has taken this refill from the pool, or
        ``refill_wait_max`` seconds have passed. Raises :class:`ServerStopping` when the server
        stops meanwhile. Runs in the pool's task (Voila keeps the task in its pool)."""
        if notebook not in self._taken or not self.refills_when_quiet(notebook):
            return
        task = asyncio.current_task()
        turn = asyncio.get_running_loop().create_future()
        self._waiting[task] = turn
        start = time.monotonic()
        deadline = start + self.refill_wait_max
        why = "the server is quiet"
        try:
            while True:
                now = time.monotonic()
                quiet_at = self._last_page + self.refill_quiet
                if self._stopping:
                    raise ServerStopping(f"the server is stopping: no new kernel for {notebook}")
                if turn.done() or not self._in_pool(notebook, task):
                    why = "a page takes it"
                    break
                if now >= quiet_at:
                    break
                if now >= deadline:
                    why = f"no quiet for {self.refill_wait_max:g} s"
                    break
                try:
                    await asyncio.wait_for(asyncio.shield(turn), min(quiet_at, deadline) - now)
                except asyncio.TimeoutError:
                    pass
        finally:
            self._waiting.pop(task, None)
        self.log.info("A new kernel for the pool of %s after %.1f s: %s", notebook, time.monotonic() - start, why)

    async def shutdown_all(self, *args, **kwargs):
        """Waiting refills are dropped (they would start a kernel only to stop it)."""
        self._stopping = True
        for turn in list(self._waiting.values()):
            if not turn.done():
                turn.set_result(None)
        return await super().shutdown_all(*args, **kwargs)

    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        self.page_activity()
        self.pages[kernel_id] = self.pages.get(kernel_id, 0) + 1
        self.alone_since.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id):
        super().notify_disconnect(kernel_id)
        left = max(0, self.pages.get(kernel_id, 0) - 1)
        self.pages[kernel_id] = left
        if left == 0:
            self.alone_since[kernel_id] = _now()

    def remove_kernel(self, kernel_id):
        self.pages.pop(kernel_id, None)
        self.alone_since.pop(kernel_id, None)
        return super().remove_kernel(kernel_id)

    def pooled_kernels(self) -> set[str]:
        """The preheated kernels waiting in Voila's pools (``preheat_kernel``: Voila's pool
        manager is made on top of this class and keeps them in ``_pools``), none otherwise."""
        ready: set[str] = set()
        for pool in (getattr(self, "_pools", None) or {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    ready.add(task.result().get("kernel_id"))
        ready.discard(None)
        return ready

    async def cull_kernels(self):
        """One pass of the culler. A kernel waiting in a preheat pool has had no page since it
        started, yet must not count as idle once a page takes it: its clock restarts at every
        pass while it waits (Voila's pool manager skips pooled kernels itself), so a page that
        takes it has at least ``cull_idle_timeout - cull_interval`` seconds to connect."""
        now = _now()
        for kernel_id in self.pooled_kernels():
            if self.pages.get(kernel_id, 0) == 0:
                self.alone_since[kernel_id] = now
        return await super().cull_kernels()

    def idle_for(self, kernel_id: str) -> timedelta | None:
        """How long the kernel has had no page (``None``: a page is connected)."""
        if self.pages.get(kernel_id, 0) > 0:
            return None
        since = self.alone_since.get(kernel_id)
        if since is None:  # started before this manager watched it: jupyter_server's clock
            since = getattr(self.get_kernel(kernel_id), "last_activity", None) or _now()
        return _now() - since

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self.get_kernel(kernel_id)
        if self.cull_connected or self.cull_busy or getattr(kernel, "execution_state", None) == "dead":
            return await super().cull_kernel_if_idle(kernel_id)
        if getattr(kernel, "execution_state", None) == "busy":
            if self.pages.get(kernel_id, 0) == 0:  # running the notebook: the clock starts after
                self.alone_since[kernel_id] = _now()
            return None
        idle = self.idle_for(kernel_id)
        if idle is None:
            return None
        timeout = kernel.kernel_spec.metadata.get("cull_idle_timeout", self.cull_idle_timeout)
        if idle > timedelta(seconds=timeout):
            self.log.warning(
                "Culling kernel '%s' (%s): no page connected for %d seconds.",
                kernel.kernel_name,
                kernel_id,
                int(idle.total_seconds()),
            )
            await self.shutdown_kernel(kernel_id)
        return None


def _is_websocket(request) -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


class XsrfCookieIdentityProvider(PasswordIdentityProvider):
    """Voila's identity provider, which also sets the ``_xsrf`` cookie on every page GET (so
    the page's unload beacon is not refused; see the module)."""

    async def get_user(self, handler):
        user = super().get_user(handler)
        if inspect.isawaitable(user):
            user = await user
        request = handler.request
        if user is not None and request.method in ("GET", "HEAD") and not _is_websocket(request):
            # tornado sets the _xsrf cookie when the token is first read; reading it asks for the
            # request's user, which jupyter_server sets right after this call (the same user)
            handler.current_user = user
            handler.xsrf_token  # noqa: B018
        return user


__all__ = ["WAITS_FOR_REQUEST", "CellTimeout", "PageKernelManager", "XsrfCookieIdentityProvider"]
