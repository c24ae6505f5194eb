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
import contextlib
import contextvars
import inspect
import json
import os
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlsplit

import tornado.web
from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.base.call_context import CallContext
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Bool, Float, Int

from .admission import (
    SEAT_BUSY,
    SERVER_FULL,
    UNREACHABLE,
    KernelBudget,
    Refusal,
    check_seat_link,
    default_max_kernels,
    default_seat_reserve,
    machine_memory,
    notebook_needs_seat,
    notebook_of_request,
    page_locale,
    refusal_page,
)


def _now() -> datetime:
    return datetime.now(timezone.utc)


#: the metadata of a notebook cell that waits for its page's request (``{"tabletop":
#: {"waits_for_request": true}}``): the executor's cell timeout does not apply to it
WAITS_FOR_REQUEST = "waits_for_request"

#: a pool's key in ``VoilaKernelManager.kernel_pools_config``: its refills wait for a quiet server
REFILL_WHEN_QUIET = "refill_when_quiet"

#: inside a pool's start: the slot it holds in the cap until its kernel id is counted instead
_POOL_HOLD: contextvars.ContextVar[list | None] = contextvars.ContextVar("tabletop_pool_hold", default=None)


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
    max_kernels = Int(
        0,
        config=True,
        help="At most this many kernels on this server, the pools' ready ones included (0: sized from "
        "the machine's memory, 128 MB a kernel in three quarters of it). Past it a page that needs a "
        "new kernel gets 'this table's server is full, try again in a minute' (HTTP 503).",
    )
    pages_per_seat = Int(
        4,
        config=True,
        help="At most this many pages (kernels) open at once with one seat link (a reload, a second "
        "tab): a player looping requests of their own link cannot fill the seats' reserve.",
    )
    seat_reserve = Int(
        -1,
        config=True,
        help="How many of max_kernels only the pages of real seats may use (-1: a quarter, at least "
        "one): a flood of pages anyone may open cannot keep a seat from opening.",
    )

    resolver = Bool(
        True,
        config=True,
        help="Run the table's resolver beside this server (python -m tabletop_widgets.table resolve on "
        "the server's TABLETOP_DB, watched and started again if it stops): it answers the seats' requests "
        "(an attack's odds, the defender's question) whether a GM's page is open or not. Several servers "
        "on one PostgreSQL table may each run one: one serves a table at a time, another takes over.",
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
            seat = await self._admit_to_pool(notebook_name, kw.get("extra_kernel_env_variables") or {})
            self._page_takes(notebook_name)
            self._seat_pending[seat] = self._seat_pending.get(seat, 0) + 1
            try:
                taken = await take(self, notebook_name, *args, **kw)
                if seat is not None:
                    self._seat_pages[taken[2]] = seat
                return taken
            finally:
                self._seat_pending[seat] -= 1

        async def _initialize(self, notebook_path, kernel_id=None, **kw):
            if kernel_id is None:  # a new kernel for the pool (a restart passes its kernel)
                await self._refill_turn(notebook_path)
                async with self._pool_slot():
                    return await make(self, notebook_path, kernel_id, **kw)
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
        self._grants: dict[asyncio.Task, str] = {}  # a pool's start a page took -> that page's kind
        self._past_room: set[asyncio.Task] = set()  # pool starts that hold their room in the cap
        self._room_waiting: set[asyncio.Task] = set()  # pool starts waiting for room in the cap
        self._needs_seat: dict[str, tuple[int, bool]] = {}  # notebook -> (mtime, needs a seat)
        self._seat_store = None
        self._seat_pages: dict[str, str] = {}  # kernel id -> the seat ("table/seat") whose page it is
        self._seat_pending: dict[str | None, int] = {}  # seat -> its pages taking a pooled kernel now
        super().__init__(**kwargs)
        limit = self.max_kernels if self.max_kernels > 0 else default_max_kernels(machine_memory())
        reserve = self.seat_reserve if self.seat_reserve >= 0 else default_seat_reserve(limit)
        self.budget = KernelBudget(limit, reserve, self._kernels_running)
        self.log.info(
            "At most %d kernels on this server, %d of them kept for seats' pages",
            limit,
            self.budget.reserve_for_seats,
        )
        self._resolver = self._start_resolver() if self.resolver else None
        config = getattr(self.parent, "config", None)  # the Voila app's: its executors read it
        if config is not None and config.VoilaExecutor.get("timeout_func") is None:
            config.VoilaExecutor.timeout_func = CellTimeout(config.VoilaExecutor.get("timeout"))

    def _start_resolver(self):
        """The resolver of the server's store (:class:`~.resolver.ResolverProcess`, stopped with
        the server; it also stops by itself when this process is gone)."""
        import atexit

        from .resolver import ResolverProcess
        from .store import default_db_path

        db = os.environ.get("TABLETOP_DB") or str(default_db_path())
        process = ResolverProcess(db).start()
        atexit.register(process.stop)
        self.log.info("The table's resolver runs beside this server (process %s)", process.process.pid)
        return process

    def _kernels_running(self) -> set[str]:
        """Every kernel of the server, those still starting included."""
        return set(self.list_kernel_ids()) | set(getattr(self, "_pending_kernels", None) or ())

    async def start_kernel(self, *args, **kwargs):
        """Starts a kernel counted in the cap: a page's (no pool) only once its request passed
        the forged-page rule and the cap (:meth:`_admit_start`); a pool's in the slot it holds."""
        env = kwargs.get("env") or {}
        kernel_id = kwargs.pop("kernel_id", None) or str(uuid.uuid4())
        if env.get("VOILA_PREHEAT") != "True":
            self.page_activity()  # a page asked for a kernel made at once (no pool)
            seat = await self._admit_start(env)
            if seat is not None:  # counted for its seat from now (no wait since the check)
                self._seat_pages[kernel_id] = seat
        hold = _POOL_HOLD.get()
        if hold:  # the pool's slot becomes this kernel's count, with no gap between
            hold.clear()
            self.budget.unhold()
        self.budget.reserve(kernel_id)
        try:
            started = await super().start_kernel(*args, kernel_id=kernel_id, **kwargs)
        except BaseException:
            self._seat_pages.pop(kernel_id, None)
            raise
        finally:
            self.budget.release(kernel_id)
        self.alone_since.setdefault(started, _now())
        return started

    # -- who may start a kernel: the forged-page rule and the cap (see admission.py) ----------
    def needs_seat(self, notebook: str | None) -> bool:
        """Whether ``notebook`` (relative to the server's folder) declares that its page needs a
        valid seat token (read from the file, again when it changes)."""
        if not notebook:
            return False
        # a path Voila serves, as the file system finds it: never absolute, "a/../" collapsed
        path = Path(self.root_dir) / os.path.normpath(notebook.lstrip("/"))
        try:
            mtime = path.stat().st_mtime_ns
            cached = self._needs_seat.get(notebook)
            if cached is None or cached[0] != mtime:
                cached = (mtime, notebook_needs_seat(json.loads(path.read_text(encoding="utf-8"))))
                self._needs_seat[notebook] = cached
        except (OSError, ValueError):
            return False  # no such notebook: Voila answers 404 itself
        return cached[1]

    def _store(self):
        if self._seat_store is None:
            from .store import open_store

            self._seat_store = open_store()  # TABLETOP_DB, as the pages' kernels open it
        return self._seat_store

    def seat_pages(self, seat: str) -> int:
        """The pages (kernels) open or opening with the link of ``seat``."""
        running = self._kernels_running() | self.budget.reserved()
        return sum(1 for kid, s in self._seat_pages.items() if s == seat and kid in running) + self._seat_pending.get(
            seat, 0
        )

    async def _page_kind(self, notebook: str | None, query: str) -> tuple[str, str | None]:
        """``("seat", its seat)`` for the page of a valid seat, ``("public", None)`` for a page
        that needs none; a page that needs a seat and has no valid one, or whose seat has all the
        pages it may have (:attr:`pages_per_seat`), is refused here (:meth:`refuse`)."""
        if not self.needs_seat(notebook):
            return "public", None
        try:
            refusal, seat = await asyncio.get_running_loop().run_in_executor(
                None, lambda: check_seat_link(self._store(), query)
            )
        except Exception as exc:  # noqa: BLE001 - any store or driver error: the page says so
            self.log.warning("Cannot check a seat link against the table store: %s", exc)
            refusal, seat = UNREACHABLE, None
        if refusal is not None:
            self.refuse(refusal, query)
        if self.seat_pages(seat) >= self.pages_per_seat:
            self.refuse(SEAT_BUSY, query)
        return "seat", seat

    async def _admit_start(self, env) -> str | None:
        """A page asks for a kernel made at once (no pool): refused (:meth:`refuse`) unless it
        passes the forged-page rule and the cap has room for it. Returns its seat, if any."""
        single = getattr(self.parent, "notebook_path", None)
        notebook = notebook_of_request(env.get("SCRIPT_NAME") or "", str(self.root_dir), single)
        query = env.get("QUERY_STRING") or ""
        kind, seat = await self._page_kind(notebook, query)
        if not self.budget.has_room(kind):
            self.refuse(SERVER_FULL, query)
        return seat

    async def _admit_to_pool(self, notebook: str, extra_env) -> str | None:
        """A page asks for ``notebook``'s pooled kernel: refused unless it passes the forged-page
        rule; a kernel the pool has not started yet starts for it if the cap has room for this
        page (a seat's page may use the seats' reserve), else the page hears the server is full.
        Returns its seat, if any."""
        query = urlsplit(extra_env.get("VOILA_REQUEST_URL") or "").query
        kind, seat = await self._page_kind(notebook, query)
        pool = (getattr(self, "_pools", None) or {}).get(notebook) or []
        if not pool or pool[0].done() or pool[0] in self._past_room:
            return seat  # a ready kernel, or one already starting: no new room needed
        if not self.budget.has_room(kind):
            self.refuse(SERVER_FULL, query)
        self._grants[pool[0]] = kind
        self.budget.changed()
        return seat

    @contextlib.asynccontextmanager
    async def _pool_slot(self):
        """Inside a pool's start: wait for room in the cap (a page that took this start lends it
        its kind), then hold the room until the kernel's id counts (:meth:`start_kernel`)."""
        task = asyncio.current_task()
        self._room_waiting.add(task)
        try:
            ok = await self.budget.wait_for_room(lambda: self._grants.get(task, "public"), lambda: self._stopping)
        finally:
            self._room_waiting.discard(task)
        self._grants.pop(task, None)
        if not ok:
            raise ServerStopping("the server is stopping: no new kernel for the pool")
        self.budget.hold()
        self._past_room.add(task)
        hold = [True]
        token = _POOL_HOLD.set(hold)
        try:
            yield
        finally:
            _POOL_HOLD.reset(token)
            self._past_room.discard(task)
            if hold:  # the kernel never started: the room goes back
                self.budget.unhold()

    def refuse(self, refusal: Refusal, query: str = "") -> None:
        """End the page's request with ``refusal``'s page (no kernel started or taken): written
        to the request's handler (jupyter_server's ``CallContext``) with its status, then
        ``tornado.web.Finish``; without a handler, an ``HTTPError`` of that status."""
        self.log.info("A page gets no kernel: %s", refusal.code)
        handler = CallContext.get(CallContext.JUPYTER_HANDLER)
        if handler is None:
            raise tornado.web.HTTPError(refusal.status)
        handler.set_status(refusal.status)
        handler.set_header("Content-Type", "text/html; charset=UTF-8")
        handler.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        if refusal.retry_after:
            handler.set_header("Retry-After", str(refusal.retry_after))
        raise tornado.web.Finish(refusal_page(refusal, page_locale(query)))

    async def settled(self, timeout: float) -> bool:
        """Wait until every pool is filled, or waits for room in the cap (True), at most
        ``timeout`` seconds (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pools = (getattr(self, "_pools", None) or {}).values()
            if all(task.done() or task in self._room_waiting for pool in pools for task in pool):
                return True
            await asyncio.sleep(0.2)
        return False

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
        self.budget.changed()
        if self._resolver is not None:
            self._resolver.stop()
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
        self._seat_pages.pop(kernel_id, None)
        self.alone_since.pop(kernel_id, None)
        removed = super().remove_kernel(kernel_id)
        self.budget.changed()  # room in the cap: a pool waiting for it looks again
        return removed

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
