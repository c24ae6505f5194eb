"""Issue 18: a table is a campaign of game sessions, each with its own dice seed.

Played on SQLite and PostgreSQL: sessions end and start, rolls between them are refused,
characters and seat links carry over, each session verifies on its own, a tampered roll of a
later session is caught without touching an earlier one's verification, and a store written
by the previous release (schema 2) opens as campaigns whose session 1 is open."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.table import (
    PermissionDenied,
    PlayDenied,
    PlayError,
    SeatSpec,
    StoreError,
    TableSession,
    check,
    create_table,
    open_store,
    verify_table,
)
from tabletop_widgets.table.campaign import sessions
from tabletop_widgets.table.events import jsonable
from tabletop_widgets.table.fairdice import rng_for

from .test_trust import rewrite_chain, sql

DATA = Path(__file__).parent / "data"


@pytest.fixture
def camp(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c_bob"), SeatSpec("eve", "observer")],
        characters={"c_bob": ret_sheet, "npc": ret_sheet},
        hidden_characters=["npc"],
        title="Campaign",
    )

    def join(seat, **kw):
        return TableSession.join(open_store_at(store_url), made.table_id, made.tokens[seat], **kw)

    return made, join


def test_a_new_table_is_a_campaign_whose_session_1_is_open(camp):
    made, join = camp
    gm, bob = join("gm"), join("bob")
    assert gm.session_number == bob.session_number == 1
    assert gm.session_open and bob.session_open
    assert gm.commitment == bob.commitment == made.seed_hash
    assert [s.n for s in sessions(bob.state)] == [1]


def test_only_the_gm_ends_or_starts_a_session(camp, store):
    made, join = camp
    bob, eve, gm = join("bob"), join("eve"), join("gm")
    head = store.head(made.table_id)
    for seat in (bob, eve):
        with pytest.raises(PermissionDenied):
            seat.end_session()
    assert store.head(made.table_id) == head  # nothing written
    gm.end_session()
    for seat in (bob, eve):
        seat.poll()
        with pytest.raises(PermissionDenied):
            seat.start_session()
    assert store.sessions(made.table_id)[-1].n == 1


def test_no_dice_between_sessions_with_a_clear_message(camp, store):
    made, join = camp
    gm, bob = join("gm"), join("bob")
    bob.roll("1d20")
    ended = gm.end_session()
    assert ended.kind == "session.ended" and ended.payload["session"] == 1 and ended.payload["rolls"] == 1
    bob.poll()
    assert not bob.session_open and not bob.can("roll") and not bob.can("check", "c_bob")
    assert bob.can("message")  # the campaign goes on between sessions
    head = store.head(made.table_id)
    for attempt in (
        lambda: bob.roll("1d20"),
        lambda: bob.roll(check("mind")),
        lambda: gm.roll("1d100", hidden=True),
        lambda: gm.roll_initiative({"c_bob": bob.state.characters["c_bob"]}),
    ):
        with pytest.raises(PlayDenied) as err:
            attempt()
        assert err.value.code == "session_ended"
        assert "Session 1 has ended" in err.value.text("en") and "starts the next session" in err.value.text("en")
        assert "Сессия 1 окончена" in err.value.text("ru")
    assert store.head(made.table_id) == head  # no roll index spent, nothing written
    bob.say("see you next week")
    gm.note("prepare the crypt")
    with pytest.raises(PlayError, match="already ended"):
        gm.end_session()


def test_a_stale_page_cannot_roll_after_the_session_ended(camp, store):
    """A page that has not polled yet: the write catches up under the lock and refuses."""
    made, join = camp
    gm, bob = join("gm"), join("bob")
    gm.end_session()
    assert bob.session_open  # not polled yet
    with pytest.raises(PlayDenied, match="Session 1 has ended"):
        bob.roll("1d6")
    assert [e.kind for e in store.events(made.table_id)][-1] == "session.ended"


def test_next_session_new_commitment_same_characters_same_links(camp, store, store_url, open_store_at):
    made, join = camp
    gm, bob = join("gm"), join("bob")
    first = gm.commitment
    bob.update_character("c_bob", {"health": 2, "notes": "bitten"})
    spent = bob.roll(check("mind", luck=2))  # declares Luck: the check's effects change it
    assert any(e["trait"] == "luck" for e in spent.payload["result"]["effects"])
    luck_after = bob.state.characters["c_bob"]["luck"]
    left = dict(bob.state.characters["c_bob"])  # as session 1 leaves it
    gm.end_session()
    with pytest.raises(PlayError, match="ended"):
        gm.end_session()
    started = gm.start_session()
    assert started.kind == "session.started" and started.payload["session"] == 2
    assert gm.commitment == started.payload["seed_hash"] != first
    with pytest.raises(PlayError, match="still open"):
        gm.start_session()
    # the same links open the same characters in the same state, in session 2
    bob2 = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    assert bob2.session_number == 2 and bob2.session_open and bob2.commitment == gm.commitment
    ch = bob2.state.characters["c_bob"]
    assert (ch["health"], ch["notes"]) == (2, "bitten")
    # ...and then the system's session rules: RET refills Luck up to its maximum, never lower
    assert ch["luck"] == max(luck_after, bob2.character("c_bob").luck_max)
    assert {k: v for k, v in ch.items() if k != "luck"} == {k: v for k, v in left.items() if k != "luck"}
    assert "npc" not in bob2.state.characters  # the audience filter still holds
    bob.poll()
    assert bob.commitment == gm.commitment and bob.session_number == 2
    roll = bob2.roll("1d20")
    assert roll.roll == 1  # roll indices go on across sessions
    # the GM can still reissue a link, in any session
    token = gm.reissue_seat("bob")
    assert TableSession.join(open_store_at(store_url), made.table_id, token).character_id == "c_bob"


def test_each_session_verifies_on_its_own(camp, store):
    made, join = camp
    gm, bob = join("gm"), join("bob")
    gm.roll("1d20")
    bob.roll(check("mind", difficulty=8))
    with pytest.raises(ValueError, match="session 1 .* still open"):
        verify_table(store, made.table_id, session=1)
    gm.end_session()
    rep1 = verify_table(store, made.table_id, session=1)
    assert rep1.ok and rep1.rolls == 2 and rep1.checked == 2 and rep1.sessions == [1], rep1.text()
    gm.start_session()
    for _ in range(3):
        gm.roll("3d6")
    bob.roll("2d10", hidden=True)
    assert verify_table(store, made.table_id, session=1).ok  # session 2 has rolls: 1 still verifies
    with pytest.raises(ValueError, match="still open"):
        verify_table(store, made.table_id, session=2)
    with pytest.raises(ValueError, match="no session 3"):
        verify_table(store, made.table_id, session=3)
    every = verify_table(store, made.table_id)
    assert every.ok and every.sessions == [1] and every.rolls == 2  # session 2 is still open
    gm.end_session()
    rep2 = verify_table(store, made.table_id, session=2)
    assert rep2.ok and rep2.rolls == 4 and rep2.commitment == store.sessions(made.table_id)[1].seed_hash
    every = verify_table(store, made.table_id)
    assert every.ok and every.sessions == [1, 2] and every.rolls == 6, every.text()
    # a player's saved commitment and head: session 1's head verifies both ways
    bob.poll()
    assert verify_table(store, made.table_id, session=2, commitment=bob.commitment, head=bob.head).ok
    rep = verify_table(store, made.table_id, session=1, commitment=bob.commitment)
    assert not rep.ok and "session 1's" in rep.problems[0]


def test_a_tampered_roll_in_session_2_is_caught(camp, store, store_url, backend):
    made, join = camp
    gm, bob = join("gm"), join("bob")
    gm.roll("1d20")
    gm.end_session()
    gm.start_session()
    target = bob.roll("1d20")
    gm.end_session()
    assert verify_table(store, made.table_id).ok
    # the attacker re-rolls session 2's roll with another seed and rewrites the whole chain
    seed1 = bytes.fromhex(store.sessions(made.table_id)[0].seed)
    forged = dice_roll("1d20", rng=rng_for(seed1, 7), locale="en")
    payload = {**target.payload, "result": jsonable(forged.to_json()), "text": forged.text("en")}
    if forged.total == target.payload["result"]["total"]:  # make sure the die differs
        payload["result"]["dice"][0]["value"] = payload["result"]["total"] = forged.total % 20 + 1
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), target.seq))
    rewrite_chain(store_url, backend, made.table_id)
    rep2 = verify_table(store, made.table_id, session=2)
    assert not rep2.ok and any(f"roll {target.roll} does not match the seed" in p for p in rep2.problems)
    assert not verify_table(store, made.table_id).ok
    assert verify_table(store, made.table_id, session=1).ok  # session 1 is untouched


def test_a_roll_moved_between_sessions_is_caught(camp, store, store_url, backend):
    made, join = camp
    gm = join("gm")
    gm.roll("1d6")
    ended = gm.end_session()
    started = gm.start_session()
    # the attacker swaps the end and the start's places: session 2 would claim nothing... and
    # a forged end says session 1 had no rolls
    forged = {**ended.payload, "rolls": 0}
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), ended.seq))
    rewrite_chain(store_url, backend, made.table_id)
    rep = verify_table(store, made.table_id, session=1)
    assert not rep.ok and any("its end says 0 roll(s)" in p for p in rep.problems)
    assert started.payload["first_roll"] == 1


def test_closing_a_campaign_between_or_during_sessions(camp, store):
    made, join = camp
    gm = join("gm")
    gm.roll("1d6")
    gm.end_session()
    gm.start_session()
    gm.roll("1d8")
    gm.close_table()
    assert [s.is_open for s in store.sessions(made.table_id)] == [False, False]
    rep = verify_table(store, made.table_id)
    assert rep.ok and rep.sessions == [1, 2] and rep.rolls == 2, rep.text()
    other = create_table(store, "ret", [SeatSpec("gm", "gm")])
    g2 = TableSession.join(store, other.table_id, other.tokens["gm"])
    g2.roll("1d4")
    g2.end_session()
    g2.close_table()  # between sessions: the last session's seed is the one it names
    assert verify_table(store, other.table_id).ok


def test_snapshots_and_followers_across_sessions(camp, store_url, open_store_at):
    made, join = camp
    gm = join("gm", snapshot_every=1)
    bob = join("bob", snapshot_every=1)
    seen = []
    bob.on_events(lambda evs: seen.extend(e.kind for e in evs))
    gm.roll("1d6")
    gm.end_session()
    gm.start_session()
    bob.poll()
    assert seen[-2:] == ["session.ended", "session.started"]
    assert bob.session_number == 2 and bob.commitment == gm.commitment
    again = join("bob")  # from bob's snapshot
    assert [s.n for s in sessions(again.state)] == [1, 2]
    assert sessions(again.state)[0].seed is not None and sessions(again.state)[1].seed is None


def test_a_snapshot_from_before_sessions_reads_as_session_1(camp, store):
    made, join = camp
    gm = join("gm")
    gm.roll("1d6")
    snap = gm.snapshot()
    old = {k: v for k, v in snap.state.items() if k != "sessions"}  # as the previous release wrote it
    store.save_snapshot(type(snap)(snap.table_id, snap.view, snap.version + 1000, snap.seq, old, snap.created))
    again = join("gm")
    assert again.session_number == 1 and again.session_open and again.commitment == made.seed_hash
    again.end_session()
    again.start_session()
    assert [s.n for s in sessions(again.state)] == [1, 2]
    assert verify_table(store, made.table_id, session=1).ok


def test_the_store_of_the_previous_release_opens_as_campaigns(tmp_path):
    """tests/table/data/store_v2.db was written by main 2481fbb (schema 2): upgraded in place,
    its open table is a campaign whose session 1 is open, its closed one-shot still verifies."""
    db = tmp_path / "old.db"
    shutil.copy(DATA / "store_v2.db", db)
    tokens = json.loads((DATA / "store_v2.json").read_text())["tables"]
    with open_store(db) as s:
        old = s.get_table("oldcampaign")
        gm = TableSession.join(s, "oldcampaign", tokens["oldcampaign"]["gm"])
        bob = TableSession.join(s, "oldcampaign", tokens["oldcampaign"]["bob"])
        assert gm.session_number == 1 and gm.session_open and gm.commitment == old.seed_hash
        assert bob.state.characters["c_bob"]["notes"] == "bruised" and "npc" not in bob.state.characters
        assert [x.n for x in s.sessions("oldcampaign")] == [1]
        bob.roll("1d6")
        gm.end_session()
        assert verify_table(s, "oldcampaign", session=1).ok
        gm.start_session()
        bob.roll("1d6")
        gm.end_session()
        assert verify_table(s, "oldcampaign").ok
        assert verify_table(s, "oldoneshot").ok and verify_table(s, "oldoneshot", session=1).ok
        assert not s.sessions("oldoneshot")[0].is_open
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 4  # schema 4: the request table
    conn.close()


def test_an_upgrade_that_fails_changes_nothing(tmp_path, monkeypatch):
    """The upgrade runs in one transaction: when it fails half-way, the file is as it was."""
    from tabletop_widgets.table import sqlite as sqlite_store

    db = tmp_path / "old.db"
    shutil.copy(DATA / "store_v2.db", db)
    monkeypatch.setattr(sqlite_store, "SESSIONS_FROM_TABLES", "INSERT INTO sessions (table_id) VALUES (NULL)")
    with pytest.raises(StoreError, match="NOT NULL"):
        open_store(db)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sessions'").fetchone()[0] == 0
    conn.close()
    monkeypatch.undo()
    with open_store(db) as s:  # and the real upgrade then succeeds
        assert [x.n for x in s.sessions("oldcampaign")] == [1]


def test_a_postgres_store_of_schema_2_is_upgraded(store, store_url, backend, open_store_at, ret_sheet):
    """The same upgrade on both backends: a store of schema 2 (no sessions table) opens with each
    table as its session 1, open unless closed."""
    made = create_table(store, "ret", [SeatSpec("gm", "gm")], characters={"c": ret_sheet})
    done = create_table(store, "ret", [SeatSpec("gm", "gm")])
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("3d6")
    TableSession.join(store, done.table_id, done.tokens["gm"]).close_table()
    store.close()
    sql(store_url, backend, "DROP TABLE sessions")
    if backend == "sqlite":
        sql(store_url, backend, "PRAGMA user_version = 2")
    else:
        sql(store_url, backend, "UPDATE tabletop_meta SET value = '2' WHERE key = 'schema_version'")
    again = open_store_at(store_url)
    assert [(x.n, x.is_open) for x in again.sessions(made.table_id)] == [(1, True)]
    assert [(x.n, x.is_open) for x in again.sessions(done.table_id)] == [(1, False)]
    gm = TableSession.join(again, made.table_id, made.tokens["gm"])
    gm.end_session()
    assert verify_table(again, made.table_id, session=1).ok


def test_verify_cli_per_session(camp, store_url, capsys):
    from tabletop_widgets.table.__main__ import main as cli

    made, join = camp
    gm = join("gm")
    gm.roll("1d6")
    gm.end_session()
    gm.start_session()
    assert cli(["verify", store_url, made.table_id, "--session", "1"]) == 0
    out = capsys.readouterr().out
    assert "session 1:" in out and "OK" in out
    assert cli(["verify", store_url, made.table_id, "--session", "2"]) == 2
    err = capsys.readouterr().err
    assert "session 2" in err and "still open" in err and "Traceback" not in err
    assert cli(["verify", store_url, made.table_id]) == 0  # every ended session


def test_the_campaign_list_starts_sessions_adds_and_retires_players(camp, store, store_url, open_store_at):
    from tabletop_widgets.table.campaign import (
        add_player,
        campaigns,
        reissue_gm_link,
        retire_seat,
        session_reports,
        start_next_session,
    )
    from tabletop_widgets.table import SeatError

    made, join = camp
    gm, bob = join("gm"), join("bob")
    bob.roll("1d20")
    with pytest.raises(PlayError, match="still open"):
        start_next_session(store, made.table_id)
    gm.end_session()
    (listed,) = [c for c in campaigns(store) if c.table_id == made.table_id]
    assert listed.title == "Campaign" and not listed.current.is_open and [p["name"] for p in listed.players] == ["Bob"]
    started = start_next_session(store, made.table_id)
    assert started.n == 2 and started.is_open
    reports = session_reports(store, made.table_id)
    assert [(r.n, r.ok, r.rolls) for r in reports] == [(1, True, 1), (2, None, None)]
    # a new player: a new seat with its own link and a blank character of the system
    seat, token = add_player(store, made.table_id, "Dana")
    dana = TableSession.join(open_store_at(store_url), made.table_id, token)
    assert dana.role == "player" and dana.name == "Dana" and dana.character_id in dana.state.characters
    dana.roll("1d6")
    gm.poll()
    assert gm.state.seats[seat]["name"] == "Dana" and dana.character_id in gm.state.characters
    with pytest.raises(PlayError, match="needs a name"):
        add_player(store, made.table_id, "   ")
    # Bob leaves: his link stops working at once, his character stays
    retire_seat(store, made.table_id, "bob")
    with pytest.raises(SeatError):
        bob.roll("1d6")
    with pytest.raises(SeatError):
        TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    gm.poll()
    assert gm.state.seats["bob"]["retired"] and "c_bob" in gm.state.characters
    (listed,) = [c for c in campaigns(store) if c.table_id == made.table_id]
    assert [(p["name"], p["retired"]) for p in listed.players] == [("Bob", True), ("Dana", False)]
    with pytest.raises(PlayError, match="cannot be retired"):
        retire_seat(store, made.table_id, "gm")
    # tonight's GM link from the list (the old one stops working)
    new_gm = TableSession.join(open_store_at(store_url), made.table_id, reissue_gm_link(store, made.table_id))
    assert new_gm.role == "gm" and new_gm.session_number == 2
    new_gm.end_session()
    assert verify_table(store, made.table_id).ok
