"""kill -9 a writer at random points, many times: the file stays consistent and every
acknowledged event (its commit returned) is in the log, exactly once."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path


from tabletop_widgets.table import open_store

from .test_concurrency import new_table
from helpers import seeded_random, wait_until

WORKER = str(Path(__file__).with_name("_worker.py"))
KILLS = 15


def _reader(proc, acked: list, stalled: threading.Event) -> None:
    for line in proc.stdout:
        if line == "STALL\n":
            stalled.set()
        elif line.endswith("\n"):  # a half-written line was not acknowledged
            acked.append(line.strip())


def test_kill_9_mid_transaction(store, store_url, backend):
    new_table(store, "crash")
    rnd = seeded_random(15)
    acked_all: list[str] = []
    stalls = 0
    for round_ in range(KILLS):
        tag = f"r{round_}"
        # every third round (SQLite): kill it for sure between its INSERTs and its COMMIT, with
        # uncommitted pages already in the WAL; other rounds: kill at a random moment
        stall_at = rnd.randint(2, 12) if backend == "sqlite" and round_ % 3 == 0 else 0
        proc = subprocess.Popen(
            [sys.executable, WORKER, "crash_writer", store_url, "crash", tag, str(stall_at), str(rnd.randrange(2**32))],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        acked: list[str] = []
        stalled = threading.Event()
        t = threading.Thread(target=_reader, args=(proc, acked, stalled), daemon=True)
        t.start()
        if stall_at:
            assert stalled.wait(30), f"writer {tag} never reached its stall (rc={proc.poll()})"
            stalls += 1
        else:
            wait_until(lambda: acked or proc.poll() is not None, 30, f"writer {tag}'s first commit", interval=0.005)
            assert acked, f"writer {tag} never committed (rc={proc.poll()})"
            time.sleep(rnd.random() * 0.15)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        t.join(timeout=10)
        proc.stdout.close()
        acked_all.extend(acked)

        # a fresh connection after every crash, as a restarted kernel would open
        check = open_store(store_url)
        try:
            if backend == "sqlite":
                assert check.integrity_check() == "ok"
            log = check.events("crash")
            texts = Counter(e.payload.get("text") for e in log[1:])
            assert [e.version for e in log] == list(range(1, len(log) + 1))
            assert set(texts.values()) <= {1}, "an event was duplicated"
            assert "never" not in texts, "an uncommitted row survived the kill"
            missing = [a for a in acked_all if a not in texts]
            assert not missing, f"acknowledged but lost after kill {round_}: {missing[:5]}"
            # and it still takes writes
            check.append("crash", [])
        finally:
            check.close()
    assert len(acked_all) > KILLS
    assert backend != "sqlite" or stalls == (KILLS + 2) // 3
