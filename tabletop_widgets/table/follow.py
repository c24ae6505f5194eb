"""Following a table: notice other processes' writes and hand over the new events.

``Follower.poll()`` (synchronous; tests and the asyncio loop both use it) asks the store's
:class:`~tabletop_widgets.table.store.Watch` whether anything changed (SQLite: ``PRAGMA
data_version``, a few microseconds) and only then reads ``seq > last`` filtered by the reader's
audiences in the query. ``Follower.start()`` runs it as an asyncio task in the kernel's loop:
every ``interval`` (100 ms) while the table is active, backing off by ``backoff`` per poll up to
``max_interval`` (1 s) after ``idle_after`` seconds without a change, and back to ``interval`` at
the next change.

``data_version`` does not change for the store connection's own commits: the writer passes its
own events (and those it caught up with inside its write transaction) to :meth:`Follower.advance`.

Kernel culling: the widgets a view redraws for followed events send comm messages, which
jupyter_server's culler counts as the kernel's activity; so a closed page's kernel at a busy
table would never look idle. The project's Voila settings use
:class:`~tabletop_widgets.table.kernels.PageKernelManager`, which counts idleness from the
browser's side (since the page's last connection closed), so the follower may keep the view
current without keeping a closed page's kernel alive (issue 21).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Callable, Sequence

from .store import Event, SeatRevoked, Store

log = logging.getLogger(__name__)

DEFAULT_INTERVAL = 0.1
DEFAULT_MAX_INTERVAL = 1.0
DEFAULT_IDLE_AFTER = 30.0


class Follower:
    def __init__(
        self,
        store: Store,
        table_id: str,
        *,
        audiences: Sequence[str] | None = None,
        after_seq: int = 0,
        callback: Callable[[list[Event]], None] | None = None,
        on_change: Callable[[], None] | None = None,
        seat: tuple[str, str] | None = None,
        on_revoked: Callable[[], None] | None = None,
        interval: float = DEFAULT_INTERVAL,
        max_interval: float = DEFAULT_MAX_INTERVAL,
        idle_after: float = DEFAULT_IDLE_AFTER,
        backoff: float = 1.5,
    ):
        if interval <= 0 or max_interval < interval:
            raise ValueError("need 0 < interval <= max_interval")
        self.store, self.table_id = store, table_id
        self.audiences = None if audiences is None else list(audiences)
        self.last_seq = after_seq
        self.callback = callback
        #: called after every poll that found the store changed (events or not): what else the
        #: reader follows (its requests) is read again then
        self.on_change = on_change
        #: the reader's seat, ``(seat id, token hash)``, checked in every read: once the GM retires
        #: it or gives it a new link, nothing more is read (``revoked``) and ``on_revoked`` is told
        self.seat = seat
        self.on_revoked = on_revoked
        self.revoked = False
        self.interval, self.max_interval = interval, max_interval
        self.idle_after, self.backoff = idle_after, backoff
        self.current_interval = interval
        self.last_change = time.monotonic()
        self.polls = 0
        self._watch = store.watch(table_id)
        self._task: asyncio.Task | None = None
        self._lock = threading.RLock()
        self.must_read = True  # the next poll reads even when the watch saw no change

    # -- synchronous -------------------------------------------------------------------------
    def poll(self, *, force: bool = False, changed: bool | None = None) -> list[Event]:
        """New visible events since the last poll (calls ``callback`` with them if any).
        ``changed``: the watch was already asked (by ``Watch.wait``)."""
        with self._lock:
            self.polls += 1
            if changed is None:
                changed = self._watch.changed()
            if self.revoked or not (changed or force or self.must_read):
                return []
            self.must_read = False
            try:
                events = self.store.events(
                    self.table_id, after_seq=self.last_seq, audiences=self.audiences, seat=self.seat
                )
            except SeatRevoked:
                self.revoked = True
            else:
                if events:
                    self.last_seq = events[-1].seq
        if self.revoked:
            if self.on_revoked is not None:
                self.on_revoked()
            return []
        if events:
            self.last_change = time.monotonic()
            self.current_interval = self.interval
            if self.callback is not None:
                self.callback(events)
        if self.on_change is not None:
            self.on_change()
        return events

    def advance(self, events: Sequence[Event]) -> None:
        """The writer's own (already applied) events: don't hand them over again."""
        with self._lock:
            if events:
                self.last_seq = max(self.last_seq, max(e.seq for e in events))
                self.last_change = time.monotonic()
                self.current_interval = self.interval

    # -- asyncio -------------------------------------------------------------------------------
    def _next_interval(self) -> float:
        if time.monotonic() - self.last_change > self.idle_after:
            self.current_interval = min(self.max_interval, self.current_interval * self.backoff)
        return self.current_interval

    async def run(self) -> None:
        while not self.revoked:
            try:
                changed = await self._watch.wait(self._next_interval())
                self.poll(changed=changed)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bad callback must not stop the table
                log.exception("table follower %s: poll failed", self.table_id)
                await asyncio.sleep(self.max_interval)

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Task:
        """Start following in the running (or given) event loop; returns the task."""
        if self._task is not None and not self._task.done():
            return self._task
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # called outside the loop (e.g. a kernel's cell before it runs)
                loop = asyncio.get_event_loop()
        self._task = loop.create_task(self.run())
        return self._task

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._watch.close()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()
