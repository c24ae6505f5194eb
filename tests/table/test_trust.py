"""Issue 14, hole 5: the log can no longer be rewritten unseen; hole 10: a GM reissues a seat link.

Each attack is played on the database itself (as someone holding the file or the server would),
on SQLite and on PostgreSQL: the old ``verify`` (dice replayed against the seed) passed every one
of them; the hash chain, the saved head and the saved commitment catch them.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.table import (
    EventError,
    PermissionDenied,
    SeatError,
    SeatSpec,
    TableSession,
    create_table,
    open_store,
    reissue_token,
    verify_table,
)
from tabletop_widgets.table import chain
from tabletop_widgets.table.__main__ import main as cli
from tabletop_widgets.table.events import jsonable
from tabletop_widgets.table.fairdice import rng_for


def sql(store_url: str, backend: str, query: str, args=()) -> None:
    """Run one statement on the database directly, behind the store's back."""
    if backend == "sqlite":
        conn = sqlite3.connect(store_url)
        conn.execute(query, args)
        conn.commit()
        conn.close()
        return
    import psycopg
    from tabletop_widgets.table.postgres import split_url

    conninfo, schema = split_url(store_url)
    with psycopg.connect(conninfo, options=f"-c search_path={schema}", autocommit=True) as conn:
        conn.execute(query.replace("?", "%s"), args)


def rewrite_chain(store_url: str, backend: str, table_id: str) -> None:
    """The skilled attacker: recompute every link after editing, so the chain is whole again."""
    with open_store(store_url) as s:
        seed_hash = s.get_table(table_id).seed_hash
        events = s.events(table_id)
    prev = chain.genesis(table_id, seed_hash)
    for e in events:
        prev = chain.hash_of(prev, e)
        sql(store_url, backend, "UPDATE events SET hash = ? WHERE seq = ?", (prev, e.seq))


@pytest.fixture
def game(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [
            SeatSpec("gm", "gm", "Gina"),
            SeatSpec("bob", "player", "Bob", "c_bob"),
            SeatSpec("amy", "player", "Amy", "c_amy"),
        ],
        characters={"c_bob": ret_sheet, "c_amy": ret_sheet},
        title="Trust",
    )
    gm = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    return made, gm, bob


def play(game):
    made, gm, bob = game
    saves = {}
    ev = {"gm_d20": gm.roll("1d20", label="Trap")}
    ev["chat"] = bob.say("I open the chest")
    ev["hidden"] = gm.roll("1d100", hidden=True)
    bob.poll()
    saves["mid"] = bob.head
    ev["bob"] = bob.roll("2d6")
    gm.close_table()
    bob.poll()
    saves["end"] = bob.head
    return ev, saves


def test_head_covers_hidden_events_without_telling_about_them(game, store):
    made, gm, bob = game
    tid = made.table_id
    assert gm.commitment == bob.commitment == made.seed_hash and chain.is_hash(bob.commitment)
    said = bob.say("hello")
    gm.poll()
    assert bob.head == gm.head == said.hash == store.head(tid).hash
    hidden = gm.roll("1d100", hidden=True)
    bob.poll()
    assert gm.head == hidden.hash == store.head(tid).hash
    assert bob.head == said.hash  # a hidden event does not move a player's head
    seen = bob.roll("1d6")
    assert bob.head == seen.hash
    assert chain.hash_of(hidden.hash, seen) == seen.hash  # ...but the next one covers it
    assert all(e.kind != "roll" or not e.payload["hidden"] for e in bob.events())


def test_honest_log_verifies_with_saved_head_and_commitment(game, store, capsys):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    for head in (saves["mid"], saves["end"]):
        rep = verify_table(store, tid, commitment=made.seed_hash, head=head)
        assert rep.ok, rep.text()
    assert rep.head == saves["end"] and saves["end"] in rep.text()
    assert verify_table(store, tid, bob).ok  # a session supplies both
    # a commitment or head from another table fails
    rep = verify_table(store, tid, commitment="ab" * 32)
    assert not rep.ok and "commitment you saved" in rep.problems[0]
    rep = verify_table(store, tid, head="cd" * 32)
    assert not rep.ok and "head you saved" in rep.problems[0]
    with pytest.raises(ValueError, match="64 hexadecimal"):
        verify_table(store, tid, head=saves["end"][:16])  # a truncated copy is a usage error


def test_attack_change_a_rolls_shown_text(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    e = ev["gm_d20"]
    forged = {**e.payload, "text": "1d20: [20] = 20"}
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), e.seq))
    rep = verify_table(store, tid)
    assert not rep.ok
    assert any(f"version={e.version}" in p and "chain hash does not match" in p for p in rep.problems)
    rewrite_chain(store_url, backend, tid)
    assert not verify_table(store, tid, head=saves["end"]).ok


def test_attack_change_1d20_to_1d20_plus_15_recomputed_from_the_seed(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    e = ev["gm_d20"]
    seed = bytes.fromhex(store.get_table(tid).seed)
    again = dice_roll("1d20+15", rng=rng_for(seed, e.roll), locale="en")
    forged = {**e.payload, "expr": "1d20+15", "result": jsonable(again.to_json()), "text": again.text("en")}
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), e.seq))
    rep = verify_table(store, tid)
    assert not rep.ok  # the dice replay alone would pass this
    assert all("does not match the seed" not in p for p in rep.problems)
    assert any("chain hash does not match" in p for p in rep.problems)
    # the whole chain recomputed: only what a player saved tells
    rewrite_chain(store_url, backend, tid)
    assert verify_table(store, tid).ok
    for head in (saves["mid"], saves["end"]):
        rep = verify_table(store, tid, head=head)
        assert not rep.ok and "head you saved" in rep.problems[0]


def test_attack_delete_an_event_and_renumber(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    gone = ev["chat"]
    sql(store_url, backend, "DELETE FROM events WHERE seq = ?", (gone.seq,))
    for e in store.events(tid):
        if e.version > gone.version:
            sql(store_url, backend, "UPDATE events SET version = ? WHERE seq = ?", (e.version - 1, e.seq))
    assert [e.version for e in store.events(tid)] == list(range(1, len(store.events(tid)) + 1))
    rep = verify_table(store, tid)
    assert not rep.ok and any("chain hash does not match" in p for p in rep.problems)
    rewrite_chain(store_url, backend, tid)
    assert not verify_table(store, tid, head=saves["mid"]).ok


def test_attack_reorder_two_events(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    a, b = ev["gm_d20"], ev["chat"]
    sql(store_url, backend, "UPDATE events SET version = ? WHERE seq = ?", (-1, a.seq))
    sql(store_url, backend, "UPDATE events SET version = ? WHERE seq = ?", (a.version, b.seq))
    sql(store_url, backend, "UPDATE events SET version = ? WHERE seq = ?", (b.version, a.seq))
    sql(store_url, backend, "UPDATE events SET seq = ? WHERE seq = ?", (-5, a.seq))
    sql(store_url, backend, "UPDATE events SET seq = ? WHERE seq = ?", (a.seq, b.seq))
    sql(store_url, backend, "UPDATE events SET seq = ? WHERE seq = ?", (b.seq, -5))
    rep = verify_table(store, tid)
    assert not rep.ok and any("chain hash does not match" in p for p in rep.problems)


def test_attack_truncate_the_tail(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    cut = ev["bob"]  # bob's last roll goes; table.closed renumbered and the chain recomputed
    sql(store_url, backend, "DELETE FROM events WHERE seq = ?", (cut.seq,))
    closed = store.events(tid)[-1]
    assert closed.kind == "table.closed"
    sql(store_url, backend, "UPDATE events SET version = ? WHERE seq = ?", (closed.version - 1, closed.seq))
    rewrite_chain(store_url, backend, tid)
    assert verify_table(store, tid).ok  # a whole, shorter chain: only a saved head tells
    rep = verify_table(store, tid, head=saves["end"])
    assert not rep.ok and "cut short" in rep.problems[0]
    assert verify_table(store, tid, head=saves["mid"]).ok  # what came before is intact


def test_a_closed_table_log_ends_with_table_closed(game, store, store_url, backend):
    made, gm, bob = game
    ev, saves = play(game)
    last = store.events(made.table_id)[-1]
    sql(store_url, backend, "DELETE FROM events WHERE seq = ?", (last.seq,))
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any("table.closed" in p for p in rep.problems)


def test_verify_cli_commitment_and_head(game, store_url, backend, capsys):
    made, gm, bob = game
    ev, saves = play(game)
    tid = made.table_id
    ok = ["verify", store_url, tid, "--commitment", bob.commitment, "--head", saves["end"]]
    assert cli(ok) == 0
    out = capsys.readouterr().out
    assert "OK" in out and saves["end"] in out and made.seed_hash in out
    assert cli(["verify", store_url, tid, "--head", "ef" * 32]) == 1
    assert "head you saved" in capsys.readouterr().err
    assert cli(["verify", store_url, tid, "--commitment", "12" * 32]) == 1
    assert cli(["verify", store_url, tid, "--head", "not-a-hash"]) == 2
    err = capsys.readouterr().err
    assert "64 hexadecimal" in err and "Traceback" not in err


# --------------------------------------------------------------------------------------------
# hole 10: the GM reissues a seat's link
# --------------------------------------------------------------------------------------------
def test_gm_reissues_a_seat_link(game, store, store_url, open_store_at):
    made, gm, bob = game
    tid = made.table_id
    amy = TableSession.join(open_store_at(store_url), tid, made.tokens["amy"])
    bob.say("before")
    token = gm.reissue_seat("bob")
    assert token != made.tokens["bob"] and len(token) >= 22
    # the old link no longer joins
    with pytest.raises(SeatError) as exc:
        TableSession.join(open_store_at(store_url), tid, made.tokens["bob"])
    assert exc.value.code == "bad_token"
    # the page still open with it fails on its next action, and writes nothing
    head = store.head(tid)
    assert bob.link_replaced()
    for act in (lambda: bob.say("after"), lambda: bob.roll("1d6")):
        with pytest.raises(SeatError) as exc:
            act()
        assert exc.value.code == "link_replaced" and "ссылку" in exc.value.message["ru"]
    assert store.head(tid) == head
    # the new link works
    bob2 = TableSession.join(open_store_at(store_url), tid, token)
    assert bob2.seat == "bob" and not bob2.link_replaced()
    bob2.roll("1d6")
    # recorded for the GM and that seat, never the token; other players do not see it
    gm.poll()
    amy.poll()
    rec = [e for e in gm.events() if e.kind == "seat.reissued"]
    assert len(rec) == 1 and rec[0].payload == {"seat": "bob", "role": "player"}
    assert rec[0].audience == "seat:bob"
    assert [e.seq for e in bob2.events() if e.kind == "seat.reissued"] == [rec[0].seq]
    assert not [e for e in amy.events() if e.kind == "seat.reissued"]
    assert all(token not in json.dumps(e.to_json()) for e in store.events(tid))
    gm.close_table()
    assert verify_table(store, tid, head=bob2.head).ok  # the reissue is a link of the chain


def test_only_the_gm_reissues_and_not_by_record(game, store_url, open_store_at):
    made, gm, bob = game
    with pytest.raises(PermissionDenied):
        bob.reissue_seat("amy")
    with pytest.raises(PermissionDenied):
        gm.record("seat.reissued", {"seat": "bob", "role": "player"})
    with pytest.raises(EventError):
        gm.reissue_seat("nobody")
    # the GM may replace their own leaked link and goes on acting
    token = gm.reissue_seat("gm")
    gm.say("still here")
    with pytest.raises(SeatError):
        TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    assert TableSession.join(open_store_at(store_url), made.table_id, token).role == "gm"


def test_operator_reissue_is_recorded_too(game, store, store_url, open_store_at):
    made, gm, bob = game
    token = reissue_token(store, made.table_id, "bob")
    with pytest.raises(SeatError):
        bob.say("old page")
    assert TableSession.join(open_store_at(store_url), made.table_id, token).seat == "bob"
    assert [e.payload["seat"] for e in store.events(made.table_id) if e.kind == "seat.reissued"] == ["bob"]


def test_a_store_of_schema_1_is_upgraded_on_both_backends(store, store_url, backend, open_store_at, ret_sheet):
    """A store from before the chain: the hash column gone, schema 1. Opening it upgrades it in
    place (the old events hashed in order), and the table plays and verifies on."""
    made = create_table(store, "ret", [SeatSpec("gm", "gm")], characters={"c": ret_sheet})
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("3d6")
    before = [e.hash for e in store.events(made.table_id)]
    store.close()
    sql(store_url, backend, "ALTER TABLE events DROP COLUMN hash")
    if backend == "sqlite":
        sql(store_url, backend, "PRAGMA user_version = 1")
        sql(store_url, backend, "PRAGMA application_id = 0")
    else:
        sql(store_url, backend, "UPDATE tabletop_meta SET value = '1' WHERE key = 'schema_version'")
    again = open_store_at(store_url)
    assert [e.hash for e in again.events(made.table_id)] == before
    gm = TableSession.join(again, made.table_id, made.tokens["gm"])
    gm.roll("1d6")
    gm.close_table()
    assert verify_table(again, made.table_id, head=gm.head).ok
