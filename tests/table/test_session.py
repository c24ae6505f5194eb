"""Sessions: own writes applied at once, catch-up under the write lock, snapshots, following."""

from __future__ import annotations

import asyncio
import time

import pytest

from tabletop_widgets.dice import DiceError
from tabletop_widgets.table import EventError, SeatSpec, TableClosed, TableSession, check, create_table, rebuild
from tabletop_widgets.table.follow import Follower
from tabletop_widgets.table.seats import audiences_for

from helpers import async_wait_until


@pytest.fixture
def made(store, ret_sheet):
    return create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob", "c1"), SeatSpec("eve", "observer")],
        characters={"c1": ret_sheet},
    )


def join(store_url, open_store_at, made, seat, **kw):
    return TableSession.join(open_store_at(store_url), made.table_id, made.tokens[seat], **kw)


def test_own_writes_apply_at_once_and_others_after_poll(store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm")
    bob = join(store_url, open_store_at, made, "bob")
    seen = []
    bob.on_events(lambda evs: seen.extend(e.seq for e in evs))
    mine = bob.say("hello")
    assert bob.state.log[-1]["seq"] == mine.seq and seen == [mine.seq]  # no poll needed
    assert bob.poll() == []  # not handed over a second time
    theirs = gm.roll("1d6")
    assert bob.state.log[-1]["seq"] == mine.seq
    assert [e.seq for e in bob.poll()] == [theirs.seq]
    assert seen == [mine.seq, theirs.seq]


def test_write_catches_up_under_lock(store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm")
    bob = join(store_url, open_store_at, made, "bob")
    a = gm.say("first")
    b = bob.say("second")  # bob had not polled: he applies gm's event before his own
    assert [x["seq"] for x in bob.state.log[-2:]] == [a.seq, b.seq]
    assert bob.poll() == []
    assert bob.state.to_json() == rebuild(bob.store, made.table_id, audiences_for("player", "bob")).to_json()


def test_two_sessions_one_store_object(store, made):
    # a process holding several seats on one store object still sees the others' writes
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    eve = TableSession.join(store, made.table_id, made.tokens["eve"])
    e = gm.say("shared connection")
    assert [x.seq for x in eve.poll()] == [e.seq]


def test_snapshots_and_rebuild(store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm", snapshot_every=10)
    for i in range(25):
        gm.roll("1d6", hidden=bool(i % 3 == 0)) if i % 2 else gm.say(f"m{i}")
    gm.update_character("c1", {"luck": 3})
    snap = gm.store.latest_snapshot(made.table_id, "gm")
    assert snap is not None and snap.version >= 20
    gm2 = join(store_url, open_store_at, made, "gm")  # a reload: snapshot + later events
    full = rebuild(gm.store, made.table_id)
    assert gm2.state.to_json() == gm.state.to_json() == full.to_json()
    assert gm2.state.characters["c1"]["luck"] == 3
    # the player's view snapshots separately and never contains hidden rolls
    bob = join(store_url, open_store_at, made, "bob", snapshot_every=5)
    bob_snap = bob.store.latest_snapshot(made.table_id, "seat:bob")
    assert bob_snap is not None
    assert all(not x.get("hidden") for x in bob_snap.state["log"])
    bob2 = join(store_url, open_store_at, made, "bob")
    assert bob2.state.to_json() == bob.state.to_json()


def test_check_effects_and_character_validation(store_url, open_store_at, made):
    bob = join(store_url, open_store_at, made, "bob")
    e = bob.roll(check("mind"))
    assert e.kind == "check" and e.payload["character_id"] == "c1"
    assert e.payload["result"]["roll"]["dice"]
    with pytest.raises(EventError):
        bob.update_character("c1", {"no_such_trait": 1})
    with pytest.raises(EventError):
        bob.roll(check("mind", "c1", no_such_option=1))
    with pytest.raises(DiceError, match="number of faces"):
        bob.roll("1d")  # bad notation: nothing written
    assert bob.store.head(made.table_id).next_roll == 1


def test_closed_table_refuses_writes(store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm")
    bob = join(store_url, open_store_at, made, "bob")
    gm.close_table()
    assert gm.table.is_closed and gm.state.closed
    with pytest.raises(TableClosed):
        bob.say("too late")
    bob.poll()
    assert bob.state.closed and bob.state.seed == gm.table.seed
    assert not bob.can("roll")


def test_asyncio_follower_delivers_and_backs_off(store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm")
    bob = join(store_url, open_store_at, made, "bob")

    async def scenario():
        got = asyncio.Queue()
        bob.on_events(lambda evs: [got.put_nowait((time.monotonic(), e.seq)) for e in evs])
        task = bob.follow(interval=0.05, max_interval=0.2, idle_after=0.3)
        await async_wait_until(lambda: bob.follower.polls > 0, 30, "the follower's first poll")
        lat = []
        for _ in range(5):
            t0 = time.monotonic()
            e = gm.say("ping")
            t, seq = await asyncio.wait_for(got.get(), 60)
            assert seq == e.seq
            lat.append(t - t0)
        await async_wait_until(
            lambda: bob.follower.current_interval >= 0.2 - 1e-9, 60, "the idle follower to back off to max_interval"
        )
        backed_off = bob.follower.current_interval
        e = gm.say("wake")
        t, seq = await asyncio.wait_for(got.get(), 60)
        after = bob.follower.current_interval
        bob.stop()
        await asyncio.sleep(0)
        return lat, backed_off, after, task

    lat, backed_off, after, task = asyncio.run(scenario())
    assert len(lat) == 5
    print(f"follower latency: median {sorted(lat)[2] * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms")
    assert backed_off == pytest.approx(0.2)
    assert after == pytest.approx(0.05)
    assert task.cancelled() or task.done()


def test_follower_poll_filters(store, store_url, open_store_at, made):
    gm = join(store_url, open_store_at, made, "gm")
    f = Follower(open_store_at(store_url), made.table_id, audiences=["all"], after_seq=gm.state.seq)
    gm.note("hidden")
    pub = gm.say("public")
    assert [e.seq for e in f.poll()] == [pub.seq]
    assert f.poll() == []
    with pytest.raises(ValueError):
        Follower(store, made.table_id, interval=0)
