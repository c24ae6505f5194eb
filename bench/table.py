"""Benchmark: shared-table propagation latency between processes (the SQLite store).

One process (the GM's kernel) writes events; N follower processes (players' kernels), each with a
``TableSession`` following at the default poll (``PRAGMA data_version`` every 100 ms), note when
each event arrives. Latency runs from just before the write call in the writer to the moment the
follower's session has applied the event (wall clock; same machine). Writes are spaced 150-350 ms
apart at random, so they land at random phases of the followers' polls.

Idle CPU: after the writes, the followers keep polling with nothing to read; their CPU time over
an idle window (from /proc) as a percentage of one core. Measured at the 100 ms poll, i.e. before
the idle back-off (which starts after 30 s without events and slows the poll to 1 s).

The browser-level column (click -> another page's DOM through Voila) comes with the browser tests.

Run: make bench, or .venv/bin/python bench/table.py [--quick] [--events N] [--followers 2,6,12]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store

TICK = os.sysconf("SC_CLK_TCK")


def follower_main(db: str, table: str, token: str, run_for: float) -> None:
    """A follower process: join as a player, follow at the default poll, print arrivals."""
    store = open_store(db)
    session = TableSession.join(store, table, token)

    def arrived(events):
        now = time.time()
        for e in events:
            sys.stdout.write(f"{e.seq} {now:.6f}\n")
        sys.stdout.flush()

    session.on_events(arrived)

    async def main():
        session.follow()  # defaults: 100 ms, back-off after 30 s idle, up to 1 s
        print("ready", flush=True)
        await asyncio.sleep(run_for)

    asyncio.run(main())


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def pct(values, q):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def run(n_followers: int, n_events: int, idle_window: float, tmp: str) -> dict:
    db = os.path.join(tmp, f"bench{n_followers}.db")
    store = open_store(db)
    seats = [SeatSpec("gm", "gm")] + [SeatSpec(f"p{k}", "player", f"P{k}") for k in range(n_followers)]
    made = create_table(store, "ret", seats, validate_characters=False)
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    run_for = 25 + n_events * 0.4 + idle_window
    procs = [subprocess.Popen([sys.executable, __file__, "--follower", db, made.table_id,
                               made.tokens[f"p{k}"], str(run_for)],
                              stdout=subprocess.PIPE, text=True, bufsize=1)
             for k in range(n_followers)]
    arrivals: list[dict[int, float]] = [dict() for _ in procs]
    ready = [threading.Event() for _ in procs]

    def reader(k):
        for line in procs[k].stdout:
            if line.startswith("ready"):
                ready[k].set()
                continue
            seq, t = line.split()
            arrivals[k][int(seq)] = float(t)

    threads = [threading.Thread(target=reader, args=(k,), daemon=True) for k in range(len(procs))]
    for t in threads:
        t.start()
    for r in ready:
        if not r.wait(60):
            raise SystemExit("a follower did not start")
    time.sleep(1.0)  # let imports and first polls settle
    rnd = random.Random(1)
    sent: dict[int, float] = {}
    write_ms = []
    for i in range(n_events):
        t0 = time.time()
        e = gm.say(f"ping {i}")
        write_ms.append((time.time() - t0) * 1000)
        sent[e.seq] = t0
        time.sleep(rnd.uniform(0.15, 0.35))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(len(a) < n_events for a in arrivals):
        time.sleep(0.05)
    lat = [(a[seq] - t0) * 1000 for a in arrivals for seq, t0 in sent.items() if seq in a]
    lost = sum(seq not in a for a in arrivals for seq in sent)

    time.sleep(0.5)
    cpu0 = [cpu_seconds(p.pid) for p in procs]
    t0 = time.monotonic()
    time.sleep(idle_window)
    dt = time.monotonic() - t0
    idle = [(cpu_seconds(p.pid) - c) / dt * 100 for p, c in zip(procs, cpu0)]
    for p in procs:
        p.kill()
        p.wait()
    store.close()
    return {"followers": n_followers, "events": n_events, "samples": len(lat), "lost": lost,
            "median_ms": statistics.median(lat), "p95_ms": pct(lat, 0.95), "max_ms": max(lat),
            "write_ms": statistics.median(write_ms), "idle_cpu_pct": statistics.mean(idle),
            "idle_cpu_max_pct": max(idle)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--follower":
        follower_main(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer events, shorter idle window")
    ap.add_argument("--events", type=int, default=None)
    ap.add_argument("--followers", default="2,6,12")
    ap.add_argument("--idle", type=float, default=None, help="idle window in seconds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    n_events = args.events or (15 if args.quick else 40)
    idle = args.idle or (3.0 if args.quick else 10.0)
    rows = []
    with tempfile.TemporaryDirectory(prefix="tt-bench-") as tmp:
        for n in [int(x) for x in args.followers.split(",")]:
            rows.append(run(n, n_events, idle, tmp))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"Shared table, SQLite store, process level, default poll 100 ms "
          f"({os.cpu_count()} CPUs, {n_events} writes per row)")
    print(f"{'followers':>9} | {'median ms':>9} | {'p95 ms':>7} | {'max ms':>7} | {'write ms':>8} | "
          f"{'idle CPU/follower':>17} | {'lost':>4} | browser")
    print("-" * 92)
    for r in rows:
        print(f"{r['followers']:>9} | {r['median_ms']:>9.1f} | {r['p95_ms']:>7.1f} | {r['max_ms']:>7.1f} | "
              f"{r['write_ms']:>8.1f} | {r['idle_cpu_pct']:>6.2f}% (max {r['idle_cpu_max_pct']:.2f}%) | "
              f"{r['lost']:>4} | (later)")
    print("target: median <= 150 ms at the default poll; idle CPU < 1% of a core per kernel")


if __name__ == "__main__":
    main()
