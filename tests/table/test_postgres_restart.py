"""Restart the PostgreSQL server mid-run: followers (asyncio, LISTEN) reconnect and catch up
without losing or duplicating an event; the writer reconnects too.

Uses a private server (``scripts/pg-test-server --dir <tmp>``) so the restart disturbs nothing
else. Needs PostgreSQL's binaries (``make test`` as root installs them); without them the test
skips with the reason, and fails when ``CI`` is set.

Run as a script, this file is the follower process: ``python test_postgres_restart.py follow
URL TABLE TOKEN SECONDS`` prints ``<seq> <text>`` per arrival and ``reconnects <n>`` at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "pg-test-server"
FOLLOWERS = 2
N_BEFORE, N_DURING, N_AFTER = 20, 30, 20
LAST = f"after {N_AFTER - 1}"


def follow_main(url: str, table: str, token: str, seconds: float) -> None:
    import asyncio

    sys.path.insert(0, str(ROOT))
    from tabletop_widgets.table import TableSession, open_store

    store = open_store(url)
    session = TableSession.join(store, table, token)

    finished = None

    def arrived(events):
        for e in events:
            sys.stdout.write(f"{e.seq} {e.payload.get('text')}\n")
            if e.payload.get("text") == LAST:
                finished.set()
        sys.stdout.flush()

    session.on_events(arrived)

    async def main():
        nonlocal finished
        finished = asyncio.Event()
        session.follow(interval=0.1, max_interval=0.5, idle_after=5.0)
        print("ready", flush=True)
        try:
            await asyncio.wait_for(finished.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    asyncio.run(main())
    listener = store._listener
    print(f"reconnects {listener.reconnects if listener else -1}", flush=True)
    os._exit(0)  # do not wait for a server that may be gone


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "follow":
    follow_main(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    raise SystemExit(0)

import pytest  # noqa: E402

from tabletop_widgets.table import SeatSpec, StoreError, TableSession, create_table, open_store  # noqa: E402

from .conftest import in_ci  # noqa: E402
from helpers import wait_until  # noqa: E402


def _server_binaries() -> bool:
    if shutil.which("pg_ctl") and shutil.which("initdb"):
        return True
    return any(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


@pytest.fixture
def private_server():
    """A throwaway server of our own: ``(url, restart)``."""
    if not _server_binaries() and os.geteuid() != 0:
        reason = "no PostgreSQL binaries (initdb/pg_ctl) and not root to install them"
        if in_ci():
            pytest.fail(f"CI is set and the restart test cannot run: {reason}", pytrace=False)
        pytest.skip(reason)
    d = tempfile.mkdtemp(prefix="tt-pg-restart-")  # under /tmp: the `postgres` user can reach it
    os.chmod(d, 0o755)
    pgdir = os.path.join(d, "pg")
    out = subprocess.run([str(SCRIPT), "start", "--dir", pgdir], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    url = out.stdout.strip().split("=", 1)[1]

    def restart():
        r = subprocess.run([str(SCRIPT), "restart", "--dir", pgdir], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr

    yield url, restart
    subprocess.run([str(SCRIPT), "stop", "--dir", pgdir], capture_output=True, timeout=120)
    shutil.rmtree(d, ignore_errors=True)


def test_restart_mid_run_followers_catch_up(private_server):
    url, restart = private_server
    store = open_store(url)
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm")] + [SeatSpec(f"p{k}", "player", f"P{k}") for k in range(FOLLOWERS)],
        validate_characters=False,
    )
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    run_for = 40.0
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "follow", url, made.table_id, made.tokens[f"p{k}"], str(run_for)],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        for k in range(FOLLOWERS)
    ]
    lines: list[list[str]] = [[] for _ in procs]
    ready = [threading.Event() for _ in procs]

    def reader(k):
        for line in procs[k].stdout:
            if line.startswith("ready"):
                ready[k].set()
            else:
                lines[k].append(line.rstrip("\n"))

    threads = [threading.Thread(target=reader, args=(k,), daemon=True) for k in range(FOLLOWERS)]
    for t in threads:
        t.start()
    try:
        assert all(r.wait(60) for r in ready), "a follower did not start"
        acked: list[str] = []
        unknown = 0

        def say(text: str) -> None:
            def landed() -> bool:
                nonlocal unknown
                try:
                    gm.say(text)
                    return True
                except StoreError:
                    # the connection broke; if it broke during COMMIT the write may have landed:
                    # look before writing again (what a careful client does)
                    unknown += 1
                    try:
                        return any(e.payload.get("text") == text for e in store.events(made.table_id))
                    except StoreError:
                        return False

            wait_until(landed, 60, f"the write of {text!r} to land", interval=0.1)
            acked.append(text)

        for i in range(N_BEFORE):
            say(f"before {i}")
            time.sleep(0.01)
        done = threading.Event()

        def writer():
            for i in range(N_DURING):
                say(f"during {i}")
                time.sleep(0.03)
            done.set()

        w = threading.Thread(target=writer)
        w.start()
        wait_until(lambda: any(a.startswith("during") for a in acked), 60, "the writer's first write")
        t0 = time.monotonic()
        restart()  # fast shutdown: every connection is cut, then the server comes back
        print(
            f"restart took {time.monotonic() - t0:.2f}s; writes during it: "
            f"{len([a for a in acked if a.startswith('during')])}/{N_DURING} acked before it returned"
        )
        w.join(timeout=60)
        assert done.is_set(), "the writer did not finish after the restart"
        print(f"writes that failed with StoreError and were checked and retried: {unknown}")
        assert store.reconnects >= 1, "the writer's connection was never cut: no restart?"
        for i in range(N_AFTER):
            say(f"after {i}")
            time.sleep(0.01)

        log = store.events(made.table_id)
        texts = [e.payload.get("text") for e in log[1:]]
        assert sorted(texts) == sorted(acked) and len(set(texts)) == len(texts)
        assert len(texts) == N_BEFORE + N_DURING + N_AFTER
        assert [e.version for e in log] == list(range(1, len(log) + 1))
        expected = [f"{e.seq} {e.payload.get('text')}" for e in log if e.kind == "message"]

        wait_until(
            lambda: all(len([x for x in ls if not x.startswith("reconnects")]) >= len(expected) for ls in lines),
            20,
            f"every follower to print the {len(expected)} events",
            interval=0.05,
        )
        for k in range(FOLLOWERS):
            got = [x for x in lines[k] if not x.startswith("reconnects")]
            assert got == expected, f"follower {k}: lost or duplicated events across the restart"
        for k, p in enumerate(procs):
            p.wait(timeout=30)
            threads[k].join(timeout=10)
            listened = [int(x.split()[1]) for x in lines[k] if x.startswith("reconnects")]
            assert listened and listened[0] >= 1, f"follower {k}: its LISTEN connection never reconnected"
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=10)
        for t in threads:
            t.join(timeout=10)
        for p in procs:
            p.stdout.close()
        store.close()
