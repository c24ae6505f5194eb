"""Load test: N tables x 5 seats on one machine, each seat a real kernel running the table page.

Every seat (one GM and four players per table) is an IPython kernel started with
``jupyter_client``, as Voila starts one per open page, with the page's environment
(``TABLETOP_DB``, the seat's ``QUERY_STRING``). Each kernel runs the code of
``notebooks/table.ipynb`` (``TableSession.from_voila()`` and ``TableView``, whose follower polls
the store at the default 100 ms). No browser: the widgets talk to no front end, so this measures
the kernels and the store, which is what grows with the number of seats; ``bench/pages.py`` and
``bench/table_browser.py`` measure the browser side.

Then every table's GM kernel writes rolls (``session.roll``, as the tray's Roll button does),
one per table per round, rounds 150-350 ms apart. Each player kernel notes when its view has
applied each roll (a listener after the view's own). Latency is write -> screen state: from the
event's ``created`` time (taken in the GM's kernel when it appends) to that moment (same machine
clock). Memory is the resident set size (RSS) of every kernel process, summed, after the rolls.

Rows: N = 1, 2, 4, 8 tables (5, 10, 20, 40 kernels), each row on a fresh SQLite store (or a
PostgreSQL schema with ``--postgres URL``). A row whose kernels do not all start within
``--start-budget`` seconds is skipped, with the reason printed.

Run: .venv/bin/python bench/load.py [--tables 1,2,4,8] [--rolls 20] [--postgres URL] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "table.ipynb"
SEATS_PER_TABLE = 5

#: run in each seat's kernel after the page's own cell: note when the view has applied a roll
LISTEN = """
import time as _tt_time
_tt_arrivals = []
def _tt_note(events):
    now = _tt_time.time()
    for e in events:
        if e.kind == "roll":
            _tt_arrivals.append((e.seq, now))
_tt_unsubscribe = session.on_events(_tt_note)
"""


def page_code() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def pct(values, q):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(q * (len(values) - 1))))
    return values[k]


def make_tables(db: str, n: int) -> list[dict[str, str]]:
    """N tables of R.E.T., GM + 4 players each; per table: seat -> query string."""
    from tabletop_widgets import get_system
    from tabletop_widgets.table import SeatSpec, create_table, open_store
    from tabletop_widgets.widgets.lobby import sample_character

    system = get_system("ret")
    store = open_store(db)
    out = []
    try:
        for t in range(n):
            names = ["Vera", "Oleg", "Mira", "Ivan"]
            chars = {f"c{k}": sample_character(system, name).to_dict() for k, name in enumerate(names)}
            seats = [SeatSpec("gm", "gm", "Gail")] + [
                SeatSpec(f"p{k}", "player", name, f"c{k}") for k, name in enumerate(names)
            ]
            made = create_table(store, "ret", seats, characters=chars, title=f"Load {t}")
            out.append({seat: q.lstrip("?") for seat, q in made.links("").items()} | {"_id": made.table_id})
    finally:
        store.close()
    return out


class Seat:
    """One kernel running the table page for one seat."""

    def __init__(self, db: str, query: str, cwd: str):
        from jupyter_client.manager import KernelManager

        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(TABLETOP_DB=db, QUERY_STRING=query, VOILA_PREHEAT="False")
        self.km = KernelManager(kernel_name="python3")
        self.km.start_kernel(env=env, cwd=cwd)
        self.kc = self.km.client()
        self.kc.start_channels()

    def ready(self, timeout: float) -> None:
        self.kc.wait_for_ready(timeout=timeout)

    def run(self, code: str, timeout: float = 300.0) -> str:
        """Execute ``code``; its stdout; raises on an error in the kernel."""
        out: list[str] = []
        error: list[str] = []

        def hook(msg):
            kind = msg["msg_type"]
            if kind == "stream" and msg["content"].get("name") == "stdout":
                out.append(msg["content"]["text"])
            elif kind == "error":
                error.append("\n".join(msg["content"].get("traceback", []))[-2000:])

        self.kc.execute_interactive(code, timeout=timeout, output_hook=hook, store_history=False)
        if error:
            raise RuntimeError(error[0])
        return "".join(out)

    def send(self, code: str) -> None:
        """Execute without waiting for the reply (the GM's write)."""
        self.kc.execute(code, store_history=False)

    def drain(self) -> None:
        while True:
            try:
                self.kc.get_shell_msg(timeout=0.01)
            except queue.Empty:
                break

    def rss(self) -> int:
        import psutil

        pid = self.km.provisioner.process.pid if self.km.provisioner else None
        return psutil.Process(pid).memory_info().rss if pid else 0

    def stop(self) -> None:
        try:
            self.kc.stop_channels()
        finally:
            self.km.shutdown_kernel(now=True)


def run_row(n: int, rolls: int, start_budget: float, postgres: str | None, rnd: random.Random) -> dict:
    with tempfile.TemporaryDirectory(prefix="tt-bench-load-") as tmp:
        if postgres:
            sep = "&" if "?" in postgres else "?"
            db = f"{postgres}{sep}tabletop_schema=load_{uuid.uuid4().hex[:10]}"
        else:
            db = str(Path(tmp) / "table.db")
        tables = make_tables(db, n)
        seats: list[list[Seat]] = []
        t0 = time.monotonic()
        try:
            for t in tables:
                seats.append([Seat(db, t[s], tmp) for s in ["gm", "p0", "p1", "p2", "p3"]])
            deadline = t0 + start_budget
            code = page_code() + "\n" + LISTEN
            for row in seats:
                for seat in row:
                    seat.ready(timeout=max(5.0, deadline - time.monotonic()))
                    seat.run(code, timeout=max(30.0, deadline - time.monotonic()))
            start_s = time.monotonic() - t0
            time.sleep(2.0)  # followers' first polls settle
            rss_idle = [seat.rss() for row in seats for seat in row]
            marker = 700_000
            for _ in range(rolls):
                for row in seats:
                    marker += 1
                    row[0].send(f"session.roll('1d1+{marker}')")
                time.sleep(rnd.uniform(0.15, 0.35))
            time.sleep(3.0)  # the last rolls arrive
            for row in seats:
                row[0].drain()
            lat: list[float] = []
            lost = 0
            from tabletop_widgets.table import open_store

            store = open_store(db)
            try:
                for t, row in zip(tables, seats):
                    created = {e.seq: e.created for e in store.events(t["_id"]) if e.kind == "roll"}
                    for seat in row[1:]:
                        got = dict(json.loads(seat.run("import json; print(json.dumps(_tt_arrivals))")))
                        for seq, at in created.items():
                            if seq in got:
                                lat.append((got[seq] - at) * 1000.0)
                            else:
                                lost += 1
            finally:
                store.close()
            rss = [seat.rss() for row in seats for seat in row]
        finally:
            for row in seats:
                for seat in row:
                    seat.stop()
    return {
        "tables": n,
        "kernels": n * SEATS_PER_TABLE,
        "start_s": start_s,
        "samples": len(lat),
        "lost": lost,
        "p50_ms": statistics.median(lat) if lat else float("nan"),
        "p95_ms": pct(lat, 0.95) if lat else float("nan"),
        "rss_total_mb": sum(rss) / 2**20,
        "rss_seat_median_mb": statistics.median(rss) / 2**20,
        "rss_seat_idle_median_mb": statistics.median(rss_idle) / 2**20,
    }


def print_table(res: dict) -> None:
    print(
        f"Load: N tables x {SEATS_PER_TABLE} seats, one kernel per seat running the table page "
        f"({os.cpu_count()} CPUs, {res['rolls']} rolls per table, {res['store']} store, default poll)"
    )
    print(
        f"{'tables':>6} | {'kernels':>7} | {'write->state p50':>16} | {'p95':>7} | {'lost':>4} | "
        f"{'RSS total':>9} | {'per seat':>8} | {'start':>6}"
    )
    print("-" * 88)
    for r in res["rows"]:
        print(
            f"{r['tables']:>6} | {r['kernels']:>7} | {r['p50_ms']:>13.0f} ms | {r['p95_ms']:>4.0f} ms | "
            f"{r['lost']:>4} | {r['rss_total_mb']:>6.0f} MB | {r['rss_seat_median_mb']:>5.0f} MB | "
            f"{r['start_s']:>4.0f} s"
        )
    for s in res["skipped"]:
        print(f"{s['tables']:>6} | skipped: {s['reason']}")
    print("write->state: from the GM kernel's append to a player kernel's view having applied the roll")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default="1,2,4,8", help="rows: numbers of tables (5 seats each)")
    ap.add_argument("--rolls", type=int, default=20, help="rolls per table")
    ap.add_argument("--start-budget", type=float, default=600.0, help="seconds for a row's kernels to start")
    ap.add_argument("--postgres", default=None, help="a postgresql:// URL: run on PostgreSQL instead of SQLite")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = sorted({int(x) for x in args.tables.split(",") if x})
    rnd = random.Random(1)
    res: dict = {"rolls": args.rolls, "store": "PostgreSQL" if args.postgres else "SQLite", "rows": [], "skipped": []}
    for n in rows:
        try:
            row = run_row(n, args.rolls, args.start_budget, args.postgres, rnd)
        except Exception as exc:  # noqa: BLE001 - a row that cannot run is reported, not fatal
            reason = f"{type(exc).__name__}: {str(exc)[:300]}"
            print(f"  {n} tables: skipped ({reason})", file=sys.stderr, flush=True)
            res["skipped"].append({"tables": n, "reason": reason})
            continue
        res["rows"].append(row)
        print(
            f"  {n} tables: p50 {row['p50_ms']:.0f} ms, p95 {row['p95_ms']:.0f} ms, "
            f"RSS {row['rss_total_mb']:.0f} MB ({row['rss_seat_median_mb']:.0f} MB a seat)",
            file=sys.stderr,
            flush=True,
        )
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_table(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
