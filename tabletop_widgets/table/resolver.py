"""The resolver: what answers the seats' requests, on the server, so play never waits for a GM's
page (:mod:`.requests`).

It holds the GM's view of a table (every sheet, the GM's copy of the tracker: a player's kernel
never does) and no browser. :func:`resolve_pending` answers every request of one table it can, once:
the odds asked, the attacks made (the defender asked, or the attack rolled with the table's fair
dice), the defences answered (the attack rolled); an NPC's defence is the GM's to choose unless the
GM lets NPCs defend by their default choice, and a request that waits says for whom. What it writes
goes through the table's one write path, under the table's lock, so a GM's page answering the same
request at the same moment makes no difference: each step re-checks its request first.

:class:`Resolver` is the server's loop: it waits for the store to change (SQLite's
``data_version``, PostgreSQL's ``LISTEN``; a slow safety look besides), then serves each table
with a request for it. Exactly one resolver serves a table at a time: it holds the table's
resolver lock (:meth:`~.store.Store.hold_resolver`: PostgreSQL's advisory lock on a connection of
its own, SQLite's lock on a file beside the store), which the operating system or the database
server lets go when its process dies; another resolver then takes the table over. A killed
resolver loses nothing: the requests wait in the store and are answered when one runs again.

``tabletop-widgets play`` starts one beside Voila (``python -m tabletop_widgets.table resolve
--db DB``) and starts it again if it stops.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from .requests import KEEP_ANSWERED
from .store import Store, StoreError, TableClosed

log = logging.getLogger(__name__)

#: seconds between the resolver's own looks at the store when nothing told it of a change
SAFETY_LOOK = 2.0
#: seconds between two purges of answers no seat came back for
PURGE_EVERY = 60.0
#: seconds between two looks at a store that cannot tell of a change (SQLite's ``data_version``:
#: a few microseconds each)
POLL = 0.05


def resolve_pending(store: Store, table_id: str) -> int:
    """Answer every request of ``table_id`` that can be answered now, once; returns how many
    requests it moved on (answered, asked of the defender, rolled, refused). Needs the store
    itself (the GM's view of the table): call it on the server, never from a seat's page."""
    from .combat_sync import CombatSync
    from .session import TableSession

    try:
        desk = TableSession.as_operator(store, table_id)
    except StoreError:
        return 0
    try:
        if not desk.can("combat"):  # a closed table: nothing more is written
            return 0
        sync = CombatSync(desk)
        sync.attacks.serve()
        return sync.attacks.answered
    except TableClosed:
        return 0
    finally:
        desk.stop()


class Resolver:
    """The server's loop over a store (see the module). ``run(stop)`` until ``stop`` is set;
    :meth:`run_once` serves every table with a request for it once."""

    def __init__(self, store: Store, *, safety_look: float = SAFETY_LOOK, purge_every: float = PURGE_EVERY):
        self.store = store
        self.safety_look = safety_look
        self.purge_every = purge_every
        self.served = 0  # requests moved on since the start
        self._last_purge = 0.0

    def run_once(self) -> int:
        """Serve every table with a request for the resolver (that this resolver may serve: it
        holds, or takes now, the table's resolver lock); returns the requests moved on."""
        moved = 0
        for table_id in self.store.pending_tables():
            if not self.store.hold_resolver(table_id):
                continue  # another resolver serves this table
            try:
                moved += resolve_pending(self.store, table_id)
            except Exception:  # one table's trouble never stops the others
                log.exception("resolving the requests of table %s failed", table_id)
        self.served += moved
        now = time.time()
        if now - self._last_purge >= self.purge_every:
            self._last_purge = now
            try:
                self.store.purge_requests(now - KEEP_ANSWERED)
            except StoreError:
                log.exception("purging old answers failed")
        return moved

    def run(self, stop: threading.Event | None = None, *, parent: int | None = None) -> None:
        """Serve until ``stop`` is set (or ``parent``, a process id, is gone: the server that
        started this resolver stopped)."""
        import asyncio

        stop = stop or threading.Event()
        watch = self.store.watch(None)

        async def loop() -> None:
            last = 0.0
            while not stop.is_set():
                if parent is not None and os.getppid() != parent:
                    log.info("the server that started this resolver is gone: stopping")
                    return
                changed = await watch.wait(min(POLL, self.safety_look))
                if not changed and time.monotonic() - last < self.safety_look:
                    continue
                last = time.monotonic()
                try:
                    self.run_once()
                except StoreError:
                    log.exception("the resolver could not read the store; trying again")

        try:
            asyncio.run(loop())
        finally:
            watch.close()


class ResolverProcess:
    """The resolver ``tabletop-widgets play`` starts beside Voila and watches: ``python -m
    tabletop_widgets.table resolve DB --parent <this process>``, started again (after a pause
    that grows, at most :attr:`MAX_PAUSE` seconds) whenever it stops while the server runs; stopped
    with it. ``with ResolverProcess(db): ...``."""

    MAX_PAUSE = 30.0

    def __init__(self, db: str, *, python: str | None = None):
        import sys

        self.db = db
        self.python = python or sys.executable
        self.process = None
        self.starts = 0
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    def command(self) -> list[str]:
        return [self.python, "-m", "tabletop_widgets.table", "resolve", self.db, "--parent", str(os.getpid())]

    def start(self) -> "ResolverProcess":
        import subprocess

        self.process = subprocess.Popen(self.command())
        self.starts += 1
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name="tabletop-resolver-watch", daemon=True)
            self._watcher.start()
        return self

    def _watch(self) -> None:
        pause = 0.5
        while not self._stop.is_set():
            process = self.process
            if process is not None and process.poll() is not None and not self._stop.is_set():
                log.warning("the resolver stopped (exit %s): starting it again in %.1f s", process.returncode, pause)
                if self._stop.wait(pause):
                    return
                pause = min(pause * 2, self.MAX_PAUSE)
                self.start()
            elif self._stop.wait(0.5):
                return

    def stop(self) -> None:
        self._stop.set()
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except Exception:  # noqa: BLE001 - it would not go: it must
                process.kill()

    def __enter__(self) -> "ResolverProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


__all__ = ["Resolver", "ResolverProcess", "resolve_pending"]
