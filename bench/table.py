"""Benchmark: shared-table propagation latency between processes (SQLite and PostgreSQL stores).

One process (the GM's kernel) writes events; N follower processes (players' kernels), each with a
``TableSession`` following at the default poll (``PRAGMA data_version`` every 100 ms), note when
each event arrives. Latency runs from just before the write call in the writer to the moment the
follower's session has applied the event (wall clock; same machine). Writes are spaced 150-350 ms
apart at random, so they land at random phases of the followers' polls.

Idle CPU: after the writes, the followers keep polling with nothing to read; their CPU time over
an idle window (from /proc) as a percentage of one core. Measured at the 100 ms poll, i.e. before
the idle back-off (which starts after 30 s without events and slows the poll to 1 s).

PostgreSQL column (issue 11): the same rows on the PostgreSQL store, when a server is given
(``--postgres URL``, else ``$TABLETOP_BENCH_POSTGRES`` or ``$TABLETOP_TEST_POSTGRES``; each row
uses a throwaway schema, dropped afterwards). Followers there are woken by LISTEN/NOTIFY (push),
with the same 100 ms loop as a fallback. Throughput: one table, 12 followers, one writer
appending as fast as it can (one event per transaction, through ``TableSession.say``) for a few
seconds; "sustained" counts the events every follower has applied divided by the time from the
first write until the last follower had them all.

Browser level (a GM's roll clicked in Chromium -> the other pages' DOMs, through one Voila server,
one kernel per page): ``bench/table_browser.py``, which ``make bench`` runs after this file; pass
``--browser`` here to run it from this script as well (same rows, printed after these tables).

Run: make bench, or .venv/bin/python bench/table.py [--quick] [--events N] [--followers 2,6,12]
     [--postgres URL | --no-postgres] [--throughput-seconds S] [--browser]
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
import uuid

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


class Backend:
    """Where a row's table lives: a fresh SQLite file, or a fresh PostgreSQL schema."""

    def __init__(self, name: str, tmp: str, pg_url: str | None = None):
        self.name, self.tmp, self.pg_url = name, tmp, pg_url
        self.made: list[str] = []

    def new_db(self, tag: str) -> str:
        if self.name == "sqlite":
            return os.path.join(self.tmp, f"bench-{tag}.db")
        schema = f"bench_{tag}_{uuid.uuid4().hex[:8]}"
        self.made.append(schema)
        sep = "&" if "?" in self.pg_url else "?"
        return f"{self.pg_url}{sep}tabletop_schema={schema}"

    def cleanup(self) -> None:
        if self.name != "postgres" or not self.made:
            return
        import psycopg

        with psycopg.connect(self.pg_url, autocommit=True) as conn:
            for schema in self.made:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    def describe(self) -> str:
        if self.name == "sqlite":
            return "SQLite (WAL, synchronous=FULL), poll PRAGMA data_version every 100 ms"
        import psycopg

        with psycopg.connect(self.pg_url) as conn:
            ver = conn.execute("SHOW server_version").fetchone()[0]
            fsync = conn.execute("SHOW fsync").fetchone()[0]
            sync = conn.execute("SHOW synchronous_commit").fetchone()[0]
            host = conn.info.host
        return (
            f"PostgreSQL {ver} on {host} (fsync={fsync}, synchronous_commit={sync}), LISTEN/NOTIFY push + 100 ms loop"
        )


def start_followers(db: str, table: str, tokens: list[str], run_for: float):
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--follower", db, table, tok, str(run_for)],
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        for tok in tokens
    ]
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
        if not r.wait(90):
            raise SystemExit("a follower did not start")
    return procs, arrivals


def run(backend: Backend, n_followers: int, n_events: int, idle_window: float) -> dict:
    db = backend.new_db(f"lat{n_followers}")
    store = open_store(db)
    seats = [SeatSpec("gm", "gm")] + [SeatSpec(f"p{k}", "player", f"P{k}") for k in range(n_followers)]
    made = create_table(store, "ret", seats, validate_characters=False)
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    run_for = 25 + n_events * 0.4 + idle_window
    procs, arrivals = start_followers(db, made.table_id, [made.tokens[f"p{k}"] for k in range(n_followers)], run_for)
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
    return {
        "backend": backend.name,
        "followers": n_followers,
        "events": n_events,
        "samples": len(lat),
        "lost": lost,
        "median_ms": statistics.median(lat),
        "p95_ms": pct(lat, 0.95),
        "max_ms": max(lat),
        "write_ms": statistics.median(write_ms),
        "idle_cpu_pct": statistics.mean(idle),
        "idle_cpu_max_pct": max(idle),
    }


def throughput(backend: Backend, n_followers: int = 12, seconds: float = 5.0) -> dict:
    """One writer as fast as it can on one table, ``n_followers`` following."""
    db = backend.new_db(f"tp{n_followers}")
    store = open_store(db)
    seats = [SeatSpec("gm", "gm")] + [SeatSpec(f"p{k}", "player", f"P{k}") for k in range(n_followers)]
    made = create_table(store, "ret", seats, validate_characters=False)
    gm = TableSession.join(store, made.table_id, made.tokens["gm"], snapshot_every=0)
    procs, arrivals = start_followers(
        db, made.table_id, [made.tokens[f"p{k}"] for k in range(n_followers)], seconds + 90
    )
    time.sleep(1.0)
    sent: dict[int, float] = {}
    t_start = time.time()
    while time.time() - t_start < seconds:
        t0 = time.time()
        sent[gm.say("x").seq] = t0
    t_end = time.time()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(len(a) < len(sent) for a in arrivals):
        time.sleep(0.02)
    complete = [max(a.values()) for a in arrivals if len(a) >= len(sent)]
    lost = sum(seq not in a for a in arrivals for seq in sent)
    t_all = max(complete) if len(complete) == len(arrivals) else float("nan")
    lat = [(a[seq] - t0) * 1000 for a in arrivals for seq, t0 in sent.items() if seq in a]
    for p in procs:
        p.kill()
        p.wait()
    store.close()
    return {
        "backend": backend.name,
        "followers": n_followers,
        "events": len(sent),
        "write_per_s": len(sent) / (t_end - t_start),
        "sustained_per_s": len(sent) / (t_all - t_start),
        "drain_ms": (t_all - t_end) * 1000,
        "lag_median_ms": statistics.median(lat),
        "lag_p95_ms": pct(lat, 0.95),
        "lost": lost,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--follower":
        follower_main(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer events, shorter idle window")
    ap.add_argument("--events", type=int, default=None)
    ap.add_argument("--followers", default="2,6,12")
    ap.add_argument("--idle", type=float, default=None, help="idle window in seconds")
    ap.add_argument(
        "--postgres",
        default=None,
        help="postgresql:// URL (default: $TABLETOP_BENCH_POSTGRES or $TABLETOP_TEST_POSTGRES)",
    )
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument("--only", choices=["sqlite", "postgres"], default=None)
    ap.add_argument("--throughput-seconds", type=float, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--browser",
        action="store_true",
        help="also run the browser-level bench (bench/table_browser.py) for the same rows",
    )
    args = ap.parse_args()
    n_events = args.events or (15 if args.quick else 40)
    idle = args.idle or (3.0 if args.quick else 10.0)
    tp_seconds = args.throughput_seconds or (3.0 if args.quick else 5.0)
    pg_url = (
        None
        if args.no_postgres
        else (args.postgres or os.environ.get("TABLETOP_BENCH_POSTGRES") or os.environ.get("TABLETOP_TEST_POSTGRES"))
    )
    names = ["sqlite"] + (["postgres"] if pg_url else [])
    if args.only:
        names = [n for n in names if n == args.only]
    rows, tps, described = [], [], {}
    with tempfile.TemporaryDirectory(prefix="tt-bench-") as tmp:
        for name in names:
            backend = Backend(name, tmp, pg_url)
            try:
                described[name] = backend.describe()
                for n in [int(x) for x in args.followers.split(",")]:
                    rows.append(run(backend, n, n_events, idle))
                tps.append(throughput(backend, 12, tp_seconds))
            finally:
                backend.cleanup()
    browser = None
    if args.browser:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import table_browser

        n_rolls = 8 if args.quick else 20
        browser = table_browser.run(sorted({int(x) for x in args.followers.split(",")}), n_rolls, 240.0)
    if args.json:
        print(json.dumps({"latency": rows, "throughput": tps, "backends": described, "browser": browser}, indent=2))
        return
    print(f"Shared table, process level ({os.cpu_count()} CPUs, {n_events} writes per row, writes 150-350 ms apart)")
    for name, text in described.items():
        print(f"  {name}: {text}")
    if not pg_url:
        print("  postgres: not measured (no --postgres URL / TABLETOP_TEST_POSTGRES)")
    print(
        f"{'store':>8} | {'followers':>9} | {'median ms':>9} | {'p95 ms':>7} | {'max ms':>7} | "
        f"{'write ms':>8} | {'idle CPU/follower':>17} | {'lost':>4}"
    )
    print("-" * 93)
    for r in rows:
        print(
            f"{r['backend']:>8} | {r['followers']:>9} | {r['median_ms']:>9.1f} | {r['p95_ms']:>7.1f} | "
            f"{r['max_ms']:>7.1f} | {r['write_ms']:>8.1f} | {r['idle_cpu_pct']:>6.2f}% "
            f"(max {r['idle_cpu_max_pct']:.2f}%) | {r['lost']:>4}"
        )
    print()
    print(f"Throughput: one table, one writer flat out for {tp_seconds:g} s, 12 followers")
    print(
        f"{'store':>8} | {'events':>6} | {'writes/s':>8} | {'sustained/s':>11} | {'drain ms':>8} | "
        f"{'lag median':>10} | {'lag p95':>8} | {'lost':>4}"
    )
    print("-" * 86)
    for t in tps:
        print(
            f"{t['backend']:>8} | {t['events']:>6} | {t['write_per_s']:>8.0f} | {t['sustained_per_s']:>11.0f} | "
            f"{t['drain_ms']:>8.0f} | {t['lag_median_ms']:>8.1f}ms | {t['lag_p95_ms']:>6.1f}ms | {t['lost']:>4}"
        )
    print(
        "targets: SQLite median <= 150 ms at the default poll; PostgreSQL median < 100 ms (push); "
        "idle CPU < 1% of a core per kernel"
    )
    print()
    if browser is not None:
        table_browser.print_table(browser, 8 if args.quick else 20)
    else:
        print(
            "Browser level (click in one page -> DOM of the others, through Voila): "
            "bench/table_browser.py (make bench runs it next; or pass --browser)"
        )


if __name__ == "__main__":
    main()
