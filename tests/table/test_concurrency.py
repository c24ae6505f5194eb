"""Several processes writing one table at once; followers in other processes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from tabletop_widgets.table import NewEvent, SeatRecord, TableInfo
from tabletop_widgets.table.fairdice import FairDice

WORKER = str(Path(__file__).with_name("_worker.py"))
WRITERS = 4
PER_WRITER = 500
FOLLOWERS = 2


def new_table(store, table_id="busy"):
    dice = FairDice.new()
    store.create_table(
        TableInfo(table_id, "ret", "", time.time(), dice.seed_hash),
        dice.seed,
        [SeatRecord(table_id, "gm", "gm", "h")],
        [NewEvent("table.opened", "gm", {"text": "opened"})],
    )


def test_parallel_writers_lose_and_duplicate_nothing(store, store_url, tmp_path):
    new_table(store)
    total = 1 + WRITERS * PER_WRITER
    followers = [
        subprocess.Popen(
            [
                sys.executable,
                WORKER,
                "follower",
                store_url,
                "busy",
                str(total),
                str(tmp_path / f"follower{k}.json"),
                "90",
            ]
        )
        for k in range(FOLLOWERS)
    ]
    # half the writers let the store number events under the lock, half use optimistic retries
    writers = [
        subprocess.Popen(
            [
                sys.executable,
                WORKER,
                "writer",
                store_url,
                "busy",
                f"w{k}",
                str(PER_WRITER),
                "optimistic" if k % 2 else "lock",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(WRITERS)
    ]
    outs = [w.communicate(timeout=120)[0] for w in writers]
    assert [w.returncode for w in writers] == [0] * WRITERS, outs
    for f in followers:
        assert f.wait(timeout=120) == 0

    log = store.events("busy")
    assert len(log) == total
    assert [e.version for e in log] == list(range(1, total + 1))  # no gap, no duplicate
    assert all(a.seq < b.seq for a, b in zip(log, log[1:]))
    texts = [e.payload["text"] for e in log[1:]]
    counts = Counter(texts)
    assert len(counts) == WRITERS * PER_WRITER and set(counts.values()) == {1}
    for k in range(WRITERS):  # each writer's events in its own order
        mine = [int(t.split(":")[1]) for t in texts if t.startswith(f"w{k}:")]
        assert mine == list(range(PER_WRITER))

    expected = [[e.seq, e.version, e.payload["text"]] for e in log]
    for k in range(FOLLOWERS):
        followed = json.loads((tmp_path / f"follower{k}.json").read_text())
        assert followed == expected, f"follower {k} log differs"
