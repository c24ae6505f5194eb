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

**Preheated kernels.** ``make play`` keeps one kernel per play page and one for the table page
ready (Voila's ``preheat_kernel`` with ``kernel_pools_config`` in ``voila.json``): a play page's
kernel has run its notebook, a table page's has imported what it needs and waits in
``TableSession.from_voila`` for the request that brings the seat's token. Voila's pool manager is
a subclass of :class:`PageKernelManager` and never culls a kernel still in its pool; one that a
page takes is culled like any other, its clock restarted while it waited (:meth:`cull_kernels`).
The table notebook's cell that waits has no cell timeout (:class:`CellTimeout`).

This module needs jupyter_server (the ``voila`` extra); nothing else of the package imports it.
"""

from __future__ import annotations

import inspect
from datetime import datetime, timedelta, timezone

from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


def _now() -> datetime:
    return datetime.now(timezone.utc)


#: the metadata of a notebook cell that waits for its page's request (``{"tabletop":
#: {"waits_for_request": true}}``): the executor's cell timeout does not apply to it
WAITS_FOR_REQUEST = "waits_for_request"


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
    gives Voila's executor :class:`CellTimeout` unless a ``timeout_func`` is configured."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.pages: dict[str, int] = {}  # kernel id -> open page connections
        self.alone_since: dict[str, datetime] = {}  # kernel id -> when its last page left
        config = getattr(self.parent, "config", None)  # the Voila app's: its executors read it
        if config is not None and config.VoilaExecutor.get("timeout_func") is None:
            config.VoilaExecutor.timeout_func = CellTimeout(config.VoilaExecutor.get("timeout"))

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await super().start_kernel(*args, **kwargs)
        self.alone_since.setdefault(kernel_id, _now())
        return kernel_id

    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
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
