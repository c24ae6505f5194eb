"""Subprocess workers for the table tests and the benchmark (run as a script)."""

from __future__ import annotations

import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))

from tabletop_widgets.table import NewEvent, VersionConflict, open_store  # noqa: E402
from tabletop_widgets.table.follow import Follower  # noqa: E402


def writer(url: str, table: str, tag: str, n: int, mode: str) -> None:
    """Append ``n`` events, one transaction each; ``mode`` "lock" lets the store assign the
    version under the lock, "optimistic" reads the head and retries on VersionConflict."""
    store = open_store(url)
    conflicts = 0
    for i in range(n):
        e = NewEvent("message", tag, {"text": f"{tag}:{i}", "writer": tag, "i": i})
        if mode == "optimistic":
            while True:
                try:
                    store.append(table, [e], expected_version=store.head(table).version)
                    break
                except VersionConflict:
                    conflicts += 1
        else:
            store.append(table, [e])
    print(json.dumps({"writer": tag, "conflicts": conflicts}), flush=True)


def follower(url: str, table: str, total: int, out: str, timeout: float) -> None:
    """Follow until ``total`` events are seen; dump (seq, version, payload text) to ``out``."""
    store = open_store(url)
    f = Follower(store, table)
    log = []
    deadline = time.monotonic() + timeout
    while len(log) < total and time.monotonic() < deadline:
        log.extend([e.seq, e.version, e.payload.get("text")] for e in f.poll())
        time.sleep(0.02)
    with open(out, "w") as fh:
        json.dump(log, fh)


def crash_writer(url: str, table: str, tag: str, stall_at: int = 0, seed: int = 0) -> None:
    """Append forever; print each event's text only after its commit returned (acknowledged).
    Some transactions carry several events and large payloads; the build sleeps at random so a
    kill often lands inside the open transaction. With ``stall_at`` > 0 (SQLite), transaction
    number ``stall_at`` prints ``STALL`` after its rows are inserted and before its COMMIT, with
    a tiny page cache so the uncommitted pages have spilled into the WAL, and waits there to be
    killed. ``seed`` seeds the random sizes and pauses (the test draws it from its own seed)."""
    store = open_store(url)
    count = [0]
    if stall_at:
        from tabletop_widgets.table.sqlite import SQLiteStore

        assert isinstance(store, SQLiteStore)
        store._c().execute("PRAGMA cache_size = 4")  # pages: big transactions spill early
        inner = store._insert

        def stalling_insert(conn, table_id, head, events):
            out = inner(conn, table_id, head, events)
            count[0] += 1
            if count[0] == stall_at:
                big = "y" * 200_000  # surely past the cache: frames in the WAL, uncommitted
                conn.execute(
                    "INSERT INTO events (table_id, version, kind, actor, audience, payload, created)"
                    " VALUES (?, ?, 'message', ?, 'all', ?, 0)",
                    (table_id, head.version + len(events) + 1, tag, json.dumps({"text": "never", "pad": big})),
                )
                sys.stdout.write("STALL\n")
                sys.stdout.flush()
                time.sleep(60)
            return out

        store._insert = stalling_insert
    rnd = random.Random(seed)
    i = 0
    while True:
        k = rnd.choice([1, 1, 2, 5])
        texts = [f"{tag}:{i + j}" for j in range(k)]
        pad = "x" * rnd.choice([10, 1000, 20000])
        evs = [NewEvent("message", tag, {"text": t, "pad": pad}) for t in texts]

        def build(tx, evs=evs):
            if rnd.random() < 0.5:
                time.sleep(rnd.random() * 0.004)
            return evs

        store.write(table, build)
        i += k
        sys.stdout.write("".join(t + "\n" for t in texts))
        sys.stdout.flush()


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "writer":
        writer(args[0], args[1], args[2], int(args[3]), args[4])
    elif cmd == "follower":
        follower(args[0], args[1], int(args[2]), args[3], float(args[4]))
    elif cmd == "crash_writer":
        crash_writer(args[0], args[1], args[2], *(int(a) for a in args[3:5]))
    else:
        raise SystemExit(f"unknown worker {cmd}")
