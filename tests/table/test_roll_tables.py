"""Roll tables at a shared table (issue 35): ``session.roll(table)`` rolls a RollTable with the
table's fair dice into the log (its line names the table and the entry; ``verify`` rolls it
again and catches a forged one), and the campaign keeps its tables (the GM saves, lists, takes
away and rolls them; players see and roll the shared ones only)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tabletop_widgets.dice import RollTable
from tabletop_widgets.table import SeatSpec, TableSession, create_table, rng_for, verify_table
from tabletop_widgets.table.kinds import TABLE_ROLL, LineContext, line_of
from tabletop_widgets.table.rules import PlayDenied, PlayError
from tabletop_widgets.table.seats import PermissionDenied

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)

ENCOUNTER = {1: "Wolves", 2: "Rain", (3, 5): "Nothing", 6: "A stranger"}


@pytest.fixture
def seats(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "GM"), SeatSpec("bob", "player", "Bob", "c1"), SeatSpec("eve", "observer", "Eve")],
        characters={"c1": ret_sheet},
    )
    gm = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    eve = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["eve"])
    return made, gm, bob, eve


def lines(session, kind=TABLE_ROLL):
    session.poll()
    ctx = LineContext(session.state)
    return [line_of(e, ctx) for e in session.state.log if e.get("kind") == kind.name]


def test_a_table_rolls_into_the_log_with_its_title_and_entry(seats, store):
    made, gm, bob, eve = seats
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    event = gm.roll(table)
    p = event.payload
    assert event.kind == TABLE_ROLL.name and event.roll == p["index"] == 0
    total = p["result"]["steps"][0]["total"]
    assert p["entry"] == table.entry_for(total) and p["name"] == "Random encounter"
    assert p["text"] == f"{total} — {p['entry']}"
    for seat in (gm, bob, eve):  # every seat sees it, as a tray roll
        (line,) = lines(seat)
        assert line.who == "GM" and line.what["en"] == "Random encounter (1d6)"
        assert line.text == {"en": f"{total} — {p['entry']}", "ru": f"{total} — {p['entry']}"}
    assert bob.state.log[-1]["total"] == total and "table" not in bob.state.log[-1]


def test_the_roll_is_the_table_s_fair_stream_and_verifies(seats, store):
    made, gm, bob, eve = seats
    wolves = RollTable("1d4", {(1, 2): "Two wolves", (3, 4): "A pack"}, title="Wolves")
    table = RollTable("1d6", {1: wolves, (2, 6): "Nothing"}, title="Encounter")
    gm.roll("1d20")
    events = [gm.roll(table), bob.roll(table), gm.roll(table, hidden=True)]
    assert [e.roll for e in events] == [1, 2, 3]
    gm.close_table()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    for e in events:
        again = table.roll(rng_for(seed, e.roll))
        assert e.payload["result"] == json.loads(json.dumps(again.to_json()))
        assert e.payload["entry"] == again.final
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == 4


def test_a_nested_roll_records_every_step(seats):
    made, gm, bob, eve = seats
    wolves = RollTable("1d4", {(1, 4): "Wolves"}, title="Wolf pack")
    table = RollTable("1d2", {(1, 2): wolves}, title="Road")
    p = gm.roll(table).payload
    steps = p["result"]["steps"]
    assert [s["table"] for s in steps] == ["Road", "Wolf pack"]
    assert (
        p["entry"] == "Wolves" and p["text"] == f"{steps[0]['total']} → Wolf pack (1d4): {steps[1]['total']} — Wolves"
    )


def test_a_hidden_table_roll_is_the_gm_s_and_the_roller_s(seats):
    made, gm, bob, eve = seats
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    gm.roll(table, hidden=True)
    bob.roll(table, hidden=True)
    assert len(lines(gm)) == 2
    assert len(lines(bob)) == 1 and lines(bob)[0].who == "Bob" and lines(bob)[0].what["en"].startswith("[hidden]")
    assert lines(eve) == []


def test_an_observer_may_not_roll_and_nothing_is_rolled_between_sessions(seats):
    made, gm, bob, eve = seats
    table = RollTable("1d6", ENCOUNTER)
    with pytest.raises(PermissionDenied):
        eve.roll(table)
    gm.end_session()
    with pytest.raises(PlayDenied) as err:
        bob.roll(table)
    assert err.value.code == "session_ended"
    assert lines(gm) == []


@SQLITE_ONLY
def test_verify_catches_a_forged_entry(seats, store, store_url, backend):
    made, gm, bob, eve = seats
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    e = bob.roll(table)
    gm.close_table()
    assert verify_table(store, made.table_id).ok
    forged = dict(e.payload)
    steps = [dict(s) for s in forged["result"]["steps"]]
    wanted = 6 if steps[0]["total"] != 6 else 1
    steps[0].update(total=wanted, entry=table.entry_for(wanted))
    forged.update(result={**forged["result"], "steps": steps, "entry": table.entry_for(wanted)})
    conn = sqlite3.connect(store_url)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), e.seq))
    conn.commit()
    conn.close()
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any(f"roll {e.roll} does not match the seed" in p for p in rep.problems), rep.problems


# -- the campaign's tables ---------------------------------------------------------------------
def test_the_gm_saves_lists_and_rolls_the_campaign_s_tables(seats):
    made, gm, bob, eve = seats
    shared = RollTable("1d6", ENCOUNTER, title="Random encounter")
    secret = RollTable("1d4", {(1, 3): "Nothing", 4: "The traitor strikes"}, title="Betrayal")
    gm.save_roll_table(shared, shared=True)
    gm.save_roll_table(secret)
    assert {n: t.shared for n, t in gm.saved_roll_tables().items()} == {"Betrayal": False, "Random encounter": True}
    assert gm.saved_roll_tables()["Betrayal"].table.to_dict() == secret.to_dict()
    bob.poll()
    eve.poll()
    assert list(bob.saved_roll_tables()) == list(eve.saved_roll_tables()) == ["Random encounter"]
    # the GM's own table is rolled hidden by default: the event carries the table
    own = gm.roll_saved_table("Betrayal")
    assert own.payload["hidden"] and own.payload["saved"] == "Betrayal" and own.audience == "gm"
    public = gm.roll_saved_table("Random encounter")
    assert not public.payload["hidden"] and public.payload["saved"] == "Random encounter"
    theirs = bob.roll_saved_table("Random encounter")
    assert theirs.payload["entry"] in shared.chances()
    assert [ln.what["en"] for ln in lines(bob)] == ["Random encounter (1d6)"] * 2


def test_a_player_never_loads_or_rolls_the_gm_s_own_tables(seats, store_url, open_store_at):
    made, gm, bob, eve = seats
    gm.save_roll_table(RollTable("1d4", {(1, 4): "Secret"}), name="Secret plot")
    with pytest.raises(PlayError) as err:
        bob.roll_saved_table("Secret plot")
    assert err.value.code == "no_roll_table" and "Secret plot" in err.value.message["en"]
    assert err.value.message["ru"] and "none" in err.value.message["en"]  # the GM's names are not listed
    assert bob.state.extra.get("roll_tables", {}) == {}
    again = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])  # a fresh kernel
    assert again.saved_roll_tables() == {}
    with pytest.raises(PermissionDenied):
        bob.save_roll_table(RollTable("1d4", {(1, 4): "Mine"}), name="Mine")
    with pytest.raises(PermissionDenied):
        bob.remove_roll_table("Secret plot")


def test_unsharing_or_removing_a_table_takes_it_from_the_players(seats):
    made, gm, bob, eve = seats
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    gm.save_roll_table(table, shared=True)
    bob.poll()
    assert list(bob.saved_roll_tables()) == ["Random encounter"]
    gm.save_roll_table(table, shared=False)  # now the GM's own
    bob.poll()
    assert bob.saved_roll_tables() == {}
    assert gm.saved_roll_tables()["Random encounter"].shared is False
    gm.save_roll_table(table, shared=True)
    gm.remove_roll_table("Random encounter")
    bob.poll()
    assert gm.saved_roll_tables() == bob.saved_roll_tables() == {}
    with pytest.raises(PlayError) as err:
        gm.remove_roll_table("Random encounter")
    assert err.value.code == "no_roll_table"


def test_saving_needs_a_table_and_a_name(seats):
    made, gm, bob, eve = seats
    with pytest.raises(PlayError) as err:
        gm.save_roll_table("1d6")
    assert err.value.code == "not_a_roll_table" and err.value.message["ru"]
    with pytest.raises(PlayError) as err:
        gm.save_roll_table(RollTable("1d6", ENCOUNTER))
    assert err.value.code == "roll_table_name" and err.value.message["ru"]
    with pytest.raises(PlayError):
        gm.save_roll_table(RollTable("1d6", ENCOUNTER), name="x" * 121)
    assert gm.saved_roll_tables() == {}
    with pytest.raises(PlayError) as err:
        gm.roll_table({1: "a"})
    assert err.value.code == "not_a_roll_table" and "rolled as a table" in err.value.message["en"]


def test_a_gm_state_projected_for_a_player_keeps_the_shared_tables_only(seats):
    from tabletop_widgets.table.audience import Audience, project_state

    made, gm, bob, eve = seats
    gm.save_roll_table(RollTable("1d4", {(1, 4): "Open"}), name="Open", shared=True)
    gm.save_roll_table(RollTable("1d4", {(1, 4): "Secret"}), name="Secret")
    assert set(gm.state.extra["roll_tables"]) == {"Open", "Secret"}
    player_view = project_state(gm.state, Audience("player", "bob"))
    assert set(player_view.extra["roll_tables"]) == {"Open"}
    assert set(project_state(gm.state, Audience("gm", "gm")).extra["roll_tables"]) == {"Open", "Secret"}


def test_a_table_too_large_to_record_is_refused_in_words(seats):
    made, gm, bob, eve = seats
    long_rows = {i: f"{i} " + "x" * 1990 for i in range(1, 101)}
    with pytest.raises(PlayError) as err:
        gm.roll(RollTable("1d100", long_rows, title="Long"))
    assert err.value.code == "roll_table_too_big" and err.value.message["ru"]
    big_dice = RollTable("2500d1", {2500: "All ones"}, title="Many dice")  # each die in the record
    with pytest.raises(PlayError) as err:
        gm.roll(big_dice)
    assert err.value.code == "roll_table_too_big"
    assert lines(gm) == [] and gm.state.rolls == 0
