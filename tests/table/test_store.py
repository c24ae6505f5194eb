"""The store contract, through the Store interface only: runs unchanged on every backend."""

from __future__ import annotations

import time

import pytest

from tabletop_widgets.table import (
    Event,
    Head,
    NewEvent,
    SeatRecord,
    Snapshot,
    StoreError,
    TableClosed,
    TableExists,
    TableInfo,
    TableNotFound,
    VersionConflict,
)
from tabletop_widgets.table.fairdice import FairDice

from helpers import wait_until


def make_table(store, table_id="t1", seats=("gm", "alice", "bob")):
    dice = FairDice.new()
    info = TableInfo(table_id, "ret", "Test", time.time(), dice.seed_hash, options={"x": 1})
    roles = {"gm": "gm"}
    recs = [SeatRecord(table_id, s, roles.get(s, "player"), f"hash-{table_id}-{s}", None, s.title()) for s in seats]
    opened = store.create_table(info, dice.seed, recs, [NewEvent("table.opened", "gm", {"seed_hash": dice.seed_hash})])
    return info, dice, opened


def ev(kind="message", actor="gm", audience="all", roll=None, **payload):
    return NewEvent(kind, actor, payload or {"text": kind}, audience, roll)


def test_create_get_list(store):
    info, dice, opened = make_table(store)
    got = store.get_table("t1")
    assert (got.table_id, got.system, got.title, got.seed_hash) == ("t1", "ret", "Test", dice.seed_hash)
    assert got.options == {"x": 1}
    assert got.seed is None and not got.is_closed  # the seed stays secret while open
    assert [t.table_id for t in store.list_tables()] == ["t1"]
    assert len(opened) == 1 and opened[0].version == 1 and opened[0].kind == "table.opened"
    with pytest.raises(TableExists):
        make_table(store)
    with pytest.raises(TableNotFound):
        store.get_table("nope")
    with pytest.raises(TableNotFound):
        store.write("nope", lambda tx: [ev()])
    with pytest.raises(TableNotFound):
        store.head("nope")


def test_seats_by_token_hash(store):
    make_table(store)
    make_table(store, "t2", seats=("gm",))
    assert [s.seat for s in store.seats("t1")] == ["gm", "alice", "bob"]
    s = store.seat_by_token_hash("t1", "hash-t1-alice")
    assert s == SeatRecord("t1", "alice", "player", "hash-t1-alice", None, "Alice")
    assert store.seat_by_token_hash("t1", "hash-t2-gm") is None  # another table's token
    assert store.seat_by_token_hash("t1", "wrong") is None
    store.add_seat(SeatRecord("t1", "eve", "observer", "hash-eve"))
    assert store.seat_by_token_hash("t1", "hash-eve").role == "observer"
    with pytest.raises(StoreError):
        store.add_seat(SeatRecord("t1", "eve", "observer", "hash-eve2"))
    with pytest.raises(ValueError):
        store.add_seat(SeatRecord("t1", "zed", "king", "hash-zed"))
    store.set_token_hash("t1", "alice", "new-hash")
    assert store.seat_by_token_hash("t1", "hash-t1-alice") is None
    assert store.seat_by_token_hash("t1", "new-hash").seat == "alice"


def test_a_token_in_use_is_refused_on_every_path(store):
    """Two seats never share a token (its hash is UNIQUE): the same clear StoreError on every
    backend, nothing written; inside a write the clash leaves the transaction usable."""
    make_table(store)
    with pytest.raises(StoreError, match="token already in use"):
        store.add_seat(SeatRecord("t1", "eve", "observer", "hash-t1-alice"))
    with pytest.raises(StoreError, match="token already in use"):
        store.set_token_hash("t1", "bob", "hash-t1-alice")
    with pytest.raises(StoreError, match="already has a seat 'alice'"):
        make_table(store, "t2", seats=("gm", "alice", "alice"))
    with pytest.raises(TableNotFound):
        store.get_table("t2")  # nothing of the refused table was kept

    def build(tx):
        with pytest.raises(StoreError, match="token already in use"):
            tx.set_token_hash("bob", "hash-t1-alice")
        tx.set_token_hash("bob", "hash-bob-new")
        return [ev(text="reissued")]

    (stored,) = store.write("t1", build)
    assert stored.payload == {"text": "reissued"}
    assert [s.token_hash for s in store.seats("t1")] == ["hash-t1-gm", "hash-t1-alice", "hash-bob-new"]


def test_a_broken_event_is_no_version_conflict(store):
    """Only the two UNIQUE constraints make a VersionConflict (catch up and retry); an event that
    breaks another one (here NOT NULL) stays the driver's error, or a caller retrying conflicts
    would retry it for ever. Nothing of the write is kept."""
    make_table(store)
    head = store.head("t1")
    with pytest.raises(type(store).IntegrityError) as e:
        store.append("t1", [ev(text="first"), NewEvent(None, "gm", {"text": "no kind"})])
    assert not isinstance(e.value, VersionConflict)
    assert store.head("t1") == head


def test_append_versions_and_seq(store):
    make_table(store)
    make_table(store, "t2")
    a = store.append("t1", [ev(text="a"), ev(text="b")])
    b = store.append("t2", [ev(text="c")])
    c = store.append("t1", [ev(text="d")])
    assert [e.version for e in a + c] == [2, 3, 4]
    assert b[0].version == 2
    assert a[0].seq < a[1].seq < b[0].seq < c[0].seq  # one global order
    log = store.events("t1")
    assert [e.version for e in log] == [1, 2, 3, 4]
    assert [e.payload.get("text") for e in log[1:]] == ["a", "b", "d"]
    assert all(isinstance(e, Event) and e.table_id == "t1" for e in log)
    assert store.events("t1", after_seq=a[1].seq) == c
    assert [e.version for e in store.events("t1", limit=2)] == [1, 2]
    assert store.head("t1") == Head(version=4, seq=c[0].seq, next_roll=0, hash=c[0].hash)


def test_expected_version_conflict(store):
    make_table(store)
    store.append("t1", [ev()], expected_version=1)
    with pytest.raises(VersionConflict):
        store.append("t1", [ev()], expected_version=1)
    assert store.head("t1").version == 2


def test_roll_index_unique(store):
    make_table(store)
    store.write("t1", lambda tx: [ev("roll", roll=tx.next_roll)])
    store.write("t1", lambda tx: [ev("roll", roll=tx.next_roll)])
    assert store.head("t1").next_roll == 2
    with pytest.raises(VersionConflict):
        store.append("t1", [ev("roll", roll=1)])  # taken
    with pytest.raises(VersionConflict):
        store.append("t1", [ev("roll", roll=3)])  # would leave a gap
    store.write("t1", lambda tx: [ev("roll", roll=tx.next_roll), ev(), ev("roll", roll=tx.next_roll + 1)])
    assert [e.roll for e in store.events("t1")] == [None, 0, 1, 2, None, 3]
    assert store.head("t1").next_roll == 4


def test_build_failure_writes_nothing(store):
    make_table(store)
    before = store.events("t1")

    def bad(tx):
        raise RuntimeError("rules said no")

    with pytest.raises(RuntimeError):
        store.write("t1", bad)
    with pytest.raises(ValueError):
        store.append("t1", [ev(audience="everyone")])
    with pytest.raises(TypeError):
        store.write("t1", lambda tx: ["not an event"])
    assert store.events("t1") == before
    # and the store is still usable
    assert store.append("t1", [ev()])[0].version == 2


def test_write_tx_sees_catch_up_and_seed(store, store_url, open_store_at):
    _, dice, _ = make_table(store)
    other = open_store_at(store_url)
    other.append("t1", [ev(text="theirs")])
    seen = {}

    def build(tx):
        seen["head"] = tx.head
        seen["after"] = [e.payload.get("text") for e in tx.events_after(0)]
        seen["seed"] = tx.secret_seed()
        return [ev(text="mine")]

    store.write("t1", build)
    assert seen["head"].version == 2
    assert seen["after"][-1] == "theirs"
    assert seen["seed"] == dice.seed


def test_audience_filter_in_query(store):
    make_table(store)
    store.append(
        "t1",
        [
            ev(text="pub"),
            ev(text="gm only", audience="gm"),
            ev(text="to alice", audience="seat:alice"),
            ev(text="to bob", audience="seat:bob"),
        ],
    )

    def texts(aud):
        return [e.payload.get("text") for e in store.events("t1", audiences=aud)][1:]

    assert texts(None) == ["pub", "gm only", "to alice", "to bob"]
    assert texts(["all", "seat:alice"]) == ["pub", "to alice"]
    assert texts(["all"]) == ["pub"]
    assert store.events("t1", audiences=[]) == []


def test_snapshots(store):
    make_table(store)
    assert store.latest_snapshot("t1", "gm") is None
    store.save_snapshot(Snapshot("t1", "gm", 5, 9, {"a": 1}, time.time()))
    store.save_snapshot(Snapshot("t1", "gm", 5, 9, {"a": "other"}, time.time()))  # idempotent
    store.save_snapshot(Snapshot("t1", "gm", 3, 6, {"a": 0}, time.time()))
    store.save_snapshot(Snapshot("t1", "seat:bob", 7, 12, {"b": 2}, time.time()))
    snap = store.latest_snapshot("t1", "gm")
    assert (snap.version, snap.seq, snap.state) == (5, 9, {"a": 1})
    assert store.latest_snapshot("t1", "seat:bob").state == {"b": 2}
    assert store.latest_snapshot("t1", "observer") is None


def test_close_reveals_seed_and_freezes(store):
    _, dice, _ = make_table(store)
    info, closing = store.close_table("t1", lambda tx: [ev("table.closed", seed=tx.secret_seed().hex())])
    assert info.is_closed and info.seed == dice.seed.hex()
    assert closing[0].payload["seed"] == dice.seed.hex()
    assert store.get_table("t1").seed == dice.seed.hex()
    with pytest.raises(TableClosed):
        store.append("t1", [ev()])
    with pytest.raises(TableClosed):
        store.close_table("t1")


def test_watch_sees_other_connections(store, store_url, open_store_at):
    make_table(store)
    other = open_store_at(store_url)
    w = store.watch("t1")
    assert not w.changed()
    other.append("t1", [ev()])
    # PostgreSQL delivers NOTIFY asynchronously
    wait_until(w.changed, 30, "the watch to see another connection's commit")
    assert not w.changed()
    w.close()


def test_payload_round_trip(store):
    make_table(store)
    payload = {"text": "Ёж 🎲", "nested": {"list": [1, 2.5, None, True]}, "n": 10**15}
    (stored,) = store.append("t1", [NewEvent("message", "gm", payload)])
    assert stored.payload == payload
    assert store.events("t1")[-1].payload == payload
    assert stored.created == pytest.approx(time.time(), abs=60)
