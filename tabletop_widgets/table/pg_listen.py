"""PostgreSQL's LISTEN/NOTIFY for the table store's followers (:mod:`.postgres`).

A :class:`Listener` keeps one dedicated connection per store object, run by a small daemon
thread that only flips counters and wakes asyncio waiters with ``call_soon_threadsafe``; events
are always read from the table by the follower in its own loop. A :class:`NotifyWatch` follows
one channel (:func:`channel_name`: a table, or the whole store). NOTIFY has no replay, so a
watch also reports a change every ``safety_poll`` seconds and after the listening connection
reconnects.
"""

from __future__ import annotations

import hashlib
import logging
import os
import select
import threading
import time
from typing import Callable

import psycopg
from psycopg import sql

from .store import StoreError, Watch

log = logging.getLogger(__name__)


def channel_name(schema: str, table_id: str | None) -> str:
    """A short, safe LISTEN channel per (schema, table); ``None``: the whole store."""
    key = f"{schema}\0{'*' if table_id is None else 't:' + table_id}"
    return "tt_" + hashlib.sha1(key.encode()).hexdigest()[:24]


# --------------------------------------------------------------------------------------------
# LISTEN: one dedicated connection per store object, run by a daemon thread
# --------------------------------------------------------------------------------------------
class Listener:
    """Keeps ``LISTEN`` on the channels its watches need; counts notifications per channel;
    reconnects with back-off when the server goes away (and then counts a change on every
    channel, since notifications sent meanwhile are lost)."""

    def __init__(self, conninfo: str, connect_kwargs: dict):
        self.conninfo, self.connect_kwargs = conninfo, connect_kwargs
        self.counts: dict[str, int] = {}  # channel -> generation (bumped after a reconnect)
        self.maxseq: dict[str, int] = {}  # channel -> highest seq notified
        self.waiters: dict[str, set] = {}  # channel -> {(loop, asyncio.Event)}
        self._lock = threading.Lock()
        self._wanted: set[str] = set()
        self._listening: set[str] = set()
        self._acked = threading.Condition(self._lock)
        self._stop = False
        self.connected = False
        self.reconnects = 0
        self.failures = 0  # connection attempts failed since the last success
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        self._thread = threading.Thread(target=self._run, name="tabletop-pg-listen", daemon=True)
        self._thread.start()

    # -- used by watches (any thread) ----------------------------------------------------------
    def subscribe(self, channel: str, wait: float = 5.0) -> None:
        """Add ``channel``; return once ``LISTEN`` is in place (or at once when the server is
        unreachable: the reconnect will LISTEN and report a change)."""
        with self._lock:
            self.counts.setdefault(channel, 0)
            self.waiters.setdefault(channel, set())
            self._wanted.add(channel)
            if channel in self._listening:
                return
        self._poke()
        deadline = time.monotonic() + wait
        with self._acked:
            while channel not in self._listening and not self._stop and self.failures == 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._acked.wait(min(left, 0.05))

    def count(self, channel: str) -> int:
        return self.counts.get(channel, 0)

    def notified(self, channel: str) -> int:
        return self.maxseq.get(channel, 0)

    def deliver(self, notes) -> None:
        """``notes``: (channel, payload) pairs; the payload is the writer's last seq, or a word
        for a write without events (requests changed: a change for every watch of the channel)."""
        with self._lock:
            wake = []
            for ch, payload in notes:
                if ch not in self.counts:
                    continue
                try:
                    seq = int(payload)
                except ValueError:
                    self.counts[ch] += 1  # no event to read, but the channel's requests changed
                    wake.extend(self.waiters.get(ch, ()))
                    continue
                if seq > self.maxseq.get(ch, 0):
                    self.maxseq[ch] = seq
                wake.extend(self.waiters.get(ch, ()))
        self._wake(wake)

    def add_waiter(self, channel: str, loop, event) -> None:
        with self._lock:
            self.waiters.setdefault(channel, set()).add((loop, event))

    def remove_waiter(self, channel: str, loop, event) -> None:
        with self._lock:
            self.waiters.get(channel, set()).discard((loop, event))

    def bump(self, channels) -> None:
        with self._lock:
            wake = []
            for ch in channels:
                if ch in self.counts:
                    self.counts[ch] += 1
                    wake.extend(self.waiters.get(ch, ()))
        self._wake(wake)

    @staticmethod
    def _wake(wake) -> None:
        for loop, event in wake:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the loop is closed
                pass

    def _poke(self) -> None:
        try:
            os.write(self._w, b"x")
        except OSError:
            pass

    def close(self) -> None:
        self._stop = True
        self._poke()
        self._thread.join(timeout=2)
        if self._thread.is_alive():
            return  # stuck in a connection attempt: it exits after it; keep its pipe open
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass

    # -- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        conn = None
        delay = 0.05
        ever = False  # connected at least once
        lost = False  # notifications may have been lost: report a change after LISTEN
        while not self._stop:
            if conn is None:
                try:
                    conn = psycopg.connect(self.conninfo, autocommit=True, **self.connect_kwargs)
                except psycopg.Error as exc:
                    log.debug("table listener: cannot connect (%s); retrying in %.2fs", exc, delay)
                    with self._acked:
                        self.failures += 1
                        self._acked.notify_all()
                    self._sleep(delay)
                    delay = min(delay * 2, 2.0)
                    continue
                if ever:
                    self.reconnects += 1
                    lost = True
                ever, delay = True, 0.05
                with self._lock:
                    self._listening = set()
                    self.failures = 0
                self.connected = True
            try:
                with self._lock:
                    todo = self._wanted - self._listening
                for ch in todo:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(ch)))
                if todo:
                    with self._acked:
                        self._listening |= todo
                        self._acked.notify_all()
                if lost:
                    lost = False
                    self.bump(list(self._listening))  # catch up: read seq > last
                r, _, _ = select.select([conn.fileno(), self._r], [], [], 5.0)
                if self._r in r:
                    self._drain_pipe()
                if conn.fileno() in r:
                    got = [(n.channel, n.payload) for n in conn.notifies(timeout=0)]
                    if got:
                        self.deliver(got)
            except (psycopg.Error, OSError, ValueError) as exc:
                if self._stop:
                    break
                log.info("table listener: connection lost (%s); reconnecting", exc)
                try:
                    conn.close()
                except Exception:
                    pass
                conn, lost = None, True
                self.connected = False
                with self._lock:
                    self._listening = set()
                self._sleep(delay)
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def _drain_pipe(self) -> None:
        try:
            while os.read(self._r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _sleep(self, seconds: float) -> None:
        try:
            select.select([self._r], [], [], seconds)
        except (OSError, ValueError):
            pass
        self._drain_pipe()


class NotifyWatch(Watch):
    """Push: ``LISTEN`` on the table's channel (or the store's), plus this store object's own
    commits. ``wait()`` (the asyncio follower) returns as soon as a notification arrives; every
    ``safety_poll`` seconds it also asks the table itself (NOTIFY has no replay). ``changed()``
    (a synchronous poll) is definitive: a notification already received, else one indexed
    ``max(seq)`` query, so a commit acknowledged to another process is never missed."""

    def __init__(
        self,
        listener: Listener,
        channel: str,
        *,
        max_seq: Callable[[], int],
        commits: Callable[[], int],
        safety_poll: Callable[[], float],
    ):
        """``max_seq()``: the watched table's last ``seq`` (raises :class:`StoreError` while the
        server is away); ``commits()``: the store object's own commit counter; ``safety_poll()``:
        the seconds between two looks at the table itself (read at each wait)."""
        self._listener = listener
        self._channel = channel
        self._read_max_seq, self._read_commits = max_seq, commits
        self._safety_poll = safety_poll
        self._listener.subscribe(self._channel)
        self._gen = self._listener.count(self._channel)
        self._commits = commits()
        self._last_probe = time.monotonic()
        self._seq = self._max_seq()

    def _pushed(self) -> bool:
        """A notification of a seq we have not seen, a reconnect, or a commit of our own."""
        changed = False
        n = self._listener.notified(self._channel)
        if n and (self._seq is None or n > self._seq):
            self._seq, changed = n, True
        g, c = self._listener.count(self._channel), self._read_commits()
        if g != self._gen or c != self._commits:
            self._gen, self._commits, changed = g, c, True
        return changed

    def _max_seq(self) -> int | None:
        try:
            return self._read_max_seq()
        except StoreError:
            return None  # server away: the next probe reports a change

    def _probe(self) -> bool:
        self._last_probe = time.monotonic()
        seq = self._max_seq()
        if seq is None or self._seq is None or seq > self._seq:
            self._seq = seq
            return True
        return False

    def changed(self) -> bool:
        pushed = self._pushed()
        return self._probe() or pushed

    async def wait(self, timeout: float) -> bool:
        import asyncio

        if self._pushed():
            return True
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self._listener.add_waiter(self._channel, loop, event)
        try:
            if self._pushed():  # a notification between the first check and add_waiter
                return True
            until_probe = self._safety_poll() - (time.monotonic() - self._last_probe)
            try:
                await asyncio.wait_for(event.wait(), max(0.0, min(timeout, until_probe)))
            except asyncio.TimeoutError:
                pass
        finally:
            self._listener.remove_waiter(self._channel, loop, event)
        if self._pushed():
            return True
        if time.monotonic() - self._last_probe >= self._safety_poll():
            return self._probe()  # the slow safety poll
        return False
