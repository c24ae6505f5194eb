"""PostgreSQL-only behaviour of the table store (the shared contract runs in test_store.py etc.
on both backends): push through LISTEN/NOTIFY, kill -9 while holding the table's lock,
tampering caught by ``verify``, schemas, URLs and ``open_store`` selection.

As a script this file is a writer that stalls inside its transaction: ``python test_postgres.py
stall URL TABLE`` (prints ``STALL`` with its rows inserted and the table's row locked, before
COMMIT, and waits to be killed).
"""

from __future__ import annotations

import json
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def stall_main(url: str, table: str) -> None:
    sys.path.insert(0, str(ROOT))
    from tabletop_widgets.table import NewEvent, open_store
    from tabletop_widgets.table.postgres import PostgresStore

    store = open_store(url)
    assert isinstance(store, PostgresStore)
    inner = store._notify

    def stalling_notify(conn, table_id, stored):
        inner(conn, table_id, stored)
        sys.stdout.write("STALL\n")
        sys.stdout.flush()
        time.sleep(60)

    store._notify = stalling_notify
    store.write(
        table,
        lambda tx: [
            NewEvent("message", "w", {"text": "never", "pad": "z" * 50_000}),
            NewEvent("message", "w", {"text": "never2"}),
        ],
    )


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "stall":
    stall_main(sys.argv[2], sys.argv[3])
    raise SystemExit(0)

import pytest  # noqa: E402

from tabletop_widgets.table import (  # noqa: E402
    NewEvent,
    SeatSpec,
    StoreError,
    TableSession,
    check,
    create_table,
    open_store,
    verify_table,
)
from tabletop_widgets.table.follow import Follower  # noqa: E402

from .test_concurrency import new_table  # noqa: E402
from .test_store import ev, make_table  # noqa: E402
from helpers import async_wait_until, one_die_changed, wait_until  # noqa: E402


@pytest.fixture
def pg_url(postgres_url, pg_schema_url) -> str:
    return pg_schema_url(postgres_url)


@pytest.fixture
def pg(pg_url, open_store_at):
    return open_store_at(pg_url)


def _sql(url: str, query: str, args=()):
    import psycopg
    from tabletop_widgets.table.postgres import split_url

    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        cur = conn.execute(query, args)
        return cur.fetchall() if cur.description else None


def test_open_store_chooses_postgres(pg_url, monkeypatch):
    from tabletop_widgets.table.postgres import PostgresStore

    monkeypatch.setenv("TABLETOP_DB", pg_url)
    with open_store() as s:
        assert isinstance(s, PostgresStore)
        assert s.schema_name == pg_url.rsplit("=", 1)[1]
    with open_store(pg_url.replace("postgresql://", "postgres://", 1)) as s:
        assert isinstance(s, PostgresStore)


def test_urls_and_schema_names():
    from tabletop_widgets.table.postgres import PostgresStore, redact, split_url

    assert split_url("postgresql://u:pw@h:5/db?sslmode=disable&tabletop_schema=abc") == (
        "postgresql://u:pw@h:5/db?sslmode=disable",
        "abc",
    )
    assert "pw" not in redact("postgresql://u:pw@h:5/db") and "h:5/db" in redact("postgresql://u:pw@h:5/db")
    with pytest.raises(ValueError):
        split_url("postgresql://h/db?tabletop_schema=x;drop")
    with pytest.raises(ValueError):
        PostgresStore("postgresql://h/db", schema="bad name")


def test_unreachable_server_is_a_store_error():
    with pytest.raises(StoreError, match="cannot connect") as info:
        open_store("postgresql://someone:secret@127.0.0.1:1/nodb")
    assert "secret" not in str(info.value)


def test_newer_schema_refused(pg, pg_url):
    from tabletop_widgets.table.store import SchemaError

    _sql(pg_url, "UPDATE tabletop_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(SchemaError):
        open_store(pg_url)


def test_same_schema_opened_by_many_at_once(pg_url):
    # kernels starting together on an empty database: one creates the tables, none fails
    code = (
        "import sys; sys.path.insert(0, %r); from tabletop_widgets.table import open_store; "
        "open_store(sys.argv[1]).close()" % str(ROOT)
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_url]) for _ in range(4)]
    assert [p.wait(timeout=60) for p in procs] == [0] * 4


def test_push_not_poll(pg, pg_url, open_store_at):
    """An asyncio follower that would poll only once an hour gets every event: LISTEN/NOTIFY wakes
    it (the latencies are printed; their speed is not asserted on a noisy machine)."""
    import asyncio

    made = create_table(pg, "ret", [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob")], validate_characters=False)
    gm = TableSession.join(open_store_at(pg_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(pg_url), made.table_id, made.tokens["bob"])

    async def scenario():
        got: asyncio.Queue = asyncio.Queue()
        bob.on_events(lambda evs: [got.put_nowait((time.monotonic(), e.seq)) for e in evs])
        bob.follow(interval=3600.0, max_interval=3600.0)
        await async_wait_until(lambda: bob.follower.polls > 0, 30, "the follower's first poll")
        lat = []
        for i in range(10):
            await asyncio.sleep(0.02)
            t0 = time.monotonic()
            e = await asyncio.to_thread(gm.say, f"ping {i}")
            t, seq = await asyncio.wait_for(got.get(), 60)
            assert seq == e.seq
            lat.append(t - t0)
        bob.stop()
        return lat

    lat = asyncio.run(scenario())
    print(f"LISTEN/NOTIFY latency: median {statistics.median(lat) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms")
    assert len(lat) == 10


def test_watch_channels_per_table(pg, pg_url, open_store_at):
    import asyncio

    make_table(pg)
    make_table(pg, "t2")
    other = open_store_at(pg_url)
    w1, wall = pg.watch("t1"), pg.watch(None)

    async def scenario():
        other.append("t2", [ev()])
        woke_all = await wall.wait(2.0)
        woke_t1 = await w1.wait(0.3)  # t2's notification is not on t1's channel
        other.append("t1", [ev()])
        woke_t1_now = await w1.wait(30.0)
        return woke_all, woke_t1, woke_t1_now

    woke_all, woke_t1, woke_t1_now = asyncio.run(scenario())
    assert woke_all and not woke_t1 and woke_t1_now


def test_safety_poll_without_notify(pg, pg_url, open_store_at):
    """NOTIFY has no replay: a row that arrives without a notification (here: inserted by hand)
    is still found by the slow safety poll."""
    import asyncio

    make_table(pg)
    reader = open_store_at(pg_url)
    reader.safety_poll = 0.3
    f = Follower(reader, "t1", after_seq=reader.head("t1").seq)
    f.must_read = False
    _sql(
        pg_url,
        "INSERT INTO events (table_id, version, kind, actor, audience, payload, created) "
        "VALUES ('t1', 2, 'message', 'gm', 'all', '{\"text\":\"sneaky\"}', 0)",
    )

    async def scenario():
        t0 = time.monotonic()
        while time.monotonic() - t0 < 60:
            if f.poll(changed=await f._watch.wait(0.1)):
                return True
        return False

    assert asyncio.run(scenario()), "the safety poll never found the row inserted without a notification"
    assert f.last_seq == reader.head("t1").seq


def test_kill_9_while_holding_the_table_lock(pg, pg_url):
    """A writer killed between its INSERTs and COMMIT, holding the table's row lock: the server
    rolls it back when the socket closes, the next writer gets the lock at once, and nothing of
    the dead transaction is visible."""
    new_table(pg, "crash")
    before = pg.head("crash")
    proc = subprocess.Popen([sys.executable, __file__, "stall", pg_url, "crash"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "STALL\n"
        locked = _sql(
            pg_url,
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
            "WHERE a.application_name = 'tabletop-widgets' AND l.mode = 'RowShareLock'",
        )
        assert locked[0][0] >= 1  # it holds the lock on the table's row
        assert pg.head("crash") == before  # its rows are not visible
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stdout.close()
    # the dead writer's lock is gone: the next writer gets it (a held lock would keep it waiting)
    appended = []
    writer = threading.Thread(target=lambda: appended.extend(pg.append("crash", [ev(text="next")])), daemon=True)
    writer.start()
    writer.join(timeout=120)
    assert not writer.is_alive(), "the next writer still waits for the killed writer's lock"
    (e,) = appended
    log = pg.events("crash")
    assert [x.version for x in log] == list(range(1, len(log) + 1))
    assert not any(str(x.payload.get("text", "")).startswith("never") for x in log)
    assert e.version == before.version + 1 and e.seq > before.seq


def test_verify_catches_tampering_on_postgres(pg, pg_url, open_store_at, ret_sheet):
    made = create_table(
        pg, "ret", [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob", "c1")], characters={"c1": ret_sheet}
    )
    gm = TableSession.join(open_store_at(pg_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(pg_url), made.table_id, made.tokens["bob"])
    rolls = [gm.roll("2d6+3"), bob.roll("4d6kh3"), bob.roll(check("mind"))]
    gm.close_table()
    assert verify_table(pg, made.table_id).ok
    from tabletop_widgets.table.__main__ import main as cli

    assert cli(["verify", pg_url, made.table_id]) == 0
    e = rolls[1]
    _sql(pg_url, "UPDATE events SET payload = %s WHERE seq = %s", (json.dumps(one_die_changed(e)), e.seq))
    rep = verify_table(pg, made.table_id)
    assert not rep.ok and any("does not match the seed" in p for p in rep.problems)
    assert cli(["verify", pg_url, made.table_id]) == 1


def test_seq_follows_commit_order_within_a_table(pg, pg_url, open_store_at):
    """Two writers interleaved by the row lock: whoever commits later has the higher seq, even
    when it started (and would have taken a sequence number) first."""
    import threading

    new_table(pg, "order")
    a, b = open_store_at(pg_url), open_store_at(pg_url)
    in_a, go = threading.Event(), threading.Event()
    out = {}

    def slow(tx):
        in_a.set()
        go.wait(5)
        return [NewEvent("message", "a", {"text": "a"})]

    t = threading.Thread(target=lambda: out.setdefault("a", a.write("order", slow)))
    t.start()
    assert in_a.wait(5)
    tb = threading.Thread(
        target=lambda: out.setdefault("b", b.append("order", [NewEvent("message", "b", {"text": "b"})]))
    )
    tb.start()

    def b_queues_behind_a() -> bool:  # a session that holds the tables' lock and waits for another
        (n,) = _sql(
            pg_url,
            "SELECT count(*) FROM pg_locks l WHERE l.relation = 'tables'::regclass "
            "AND cardinality(pg_blocking_pids(l.pid)) > 0",
        )[0]
        return n > 0

    wait_until(b_queues_behind_a, 30, "the second writer to wait for the first one's lock on the table's row")
    assert "b" not in out
    go.set()
    t.join(10)
    tb.join(10)
    assert out["a"][0].seq < out["b"][0].seq and out["a"][0].version + 1 == out["b"][0].version
