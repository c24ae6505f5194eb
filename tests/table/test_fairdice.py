"""Fair dice: commitment, per-roll streams, and `verify` catching tampering."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.table import (
    FairDice,
    SeatSpec,
    TableSession,
    check,
    commitment,
    create_table,
    rng_for,
    verify_table,
)
from tabletop_widgets.table.__main__ import main as cli
from helpers import one_die_changed

#: tests that read or edit the SQLite file itself (PostgreSQL has its own versions)
SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


def test_streams_and_commitment():
    seed = bytes(range(32))
    assert rng_for(seed, 3).random() == rng_for(seed, 3).random()
    assert rng_for(seed, 3).random() != rng_for(seed, 4).random()
    assert rng_for(seed, 0).random() != rng_for(bytes(32), 0).random()
    assert len(commitment(seed)) == 64 and commitment(seed) != commitment(bytes(32))
    d = FairDice.new()
    assert FairDice.revealed(d.seed.hex(), d.seed_hash).seed == d.seed
    with pytest.raises(ValueError):
        FairDice.revealed(bytes(32).hex(), d.seed_hash)
    with pytest.raises(ValueError):
        rng_for(seed, -1)


@pytest.fixture
def played(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store, "ret", [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob", "c1")], characters={"c1": ret_sheet}
    )
    gm = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    rolls = [
        gm.roll("2d6+3"),
        bob.roll("4d6kh3"),
        gm.roll("1d20", hidden=True),
        bob.roll(check("mind")),
        bob.roll("3#1d8"),
        gm.roll(check("intellect", "c1"), hidden=True),
    ]
    bob.say("gg")
    return made, gm, bob, rolls


def test_roll_uses_the_stream_of_its_index(played, store):
    made, gm, bob, rolls = played
    assert [e.roll for e in rolls] == list(range(6))
    assert [e.payload["index"] for e in rolls] == list(range(6))
    # before the reveal nobody can verify: the seed is secret
    assert store.get_table(made.table_id).seed is None
    with pytest.raises(ValueError):
        verify_table(store, made.table_id)
    gm.close_table()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    again = dice_roll("2d6+3", rng=rng_for(seed, 0))
    assert rolls[0].payload["result"]["total"] == again.total
    assert rolls[0].payload["result"]["dice"] == json.loads(json.dumps(again.to_json()))["dice"]
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == 6


def _tamper(db, sql, args=()):
    conn = sqlite3.connect(db)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


@SQLITE_ONLY
def test_verify_cli_detects_tampering(played, store, store_url, backend, capsys):
    made, gm, bob, rolls = played
    gm.close_table()
    tid = made.table_id
    assert cli(["verify", store_url, tid]) == 0
    assert "OK" in capsys.readouterr().out

    # change one die of bob's roll, and its total to match: still caught
    e = rolls[1]
    payload = one_die_changed(e)
    _tamper(store_url, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), e.seq))
    assert cli(["verify", store_url, tid]) == 1
    err = capsys.readouterr().err
    assert f"roll {e.roll} does not match the seed" in err and "VERIFY FAILED" in err

    # and through a real subprocess, as a player would run it
    proc = subprocess.run(
        [sys.executable, "-m", "tabletop_widgets.table", "verify", store_url, tid],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1 and "does not match the seed" in proc.stderr


@SQLITE_ONLY
def test_verify_detects_deleted_and_reordered_rolls(played, store, store_url, backend):
    made, gm, bob, rolls = played
    gm.close_table()
    _tamper(store_url, "DELETE FROM events WHERE seq = ?", (rolls[2].seq,))  # a bad GM roll erased
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any("missing" in p for p in rep.problems)
    assert any("roll index 3" in p for p in rep.problems)


@SQLITE_ONLY
def test_verify_detects_wrong_seed(played, store, store_url, backend):
    made, gm, bob, rolls = played
    gm.close_table()
    _tamper(store_url, "UPDATE tables SET seed = ? WHERE table_id = ?", ("00" * 32, made.table_id))
    rep = verify_table(store, made.table_id)
    assert not rep.ok and "commitment" in rep.problems[0]


def test_verify_open_table_cli(played, store_url, capsys):
    made, gm, bob, rolls = played
    assert cli(["verify", store_url, made.table_id]) == 2
    assert "still open" in capsys.readouterr().err
    assert cli(["verify", store_url, "nope"]) == 2


def test_cli_create_and_links(tmp_path, capsys, ret_sheet):
    db = str(tmp_path / "cli.db")
    sheet = tmp_path / "c1.json"
    sheet.write_text(json.dumps(ret_sheet))
    assert (
        cli(
            [
                "create",
                db,
                "--system",
                "ret",
                "--title",
                "CLI",
                "--seat",
                "gm:gm:Gina",
                "--seat",
                "bob:player:Bob:c1",
                "--seat",
                "eve:observer",
                "--character",
                f"c1={sheet}",
                "--base",
                "http://h/table.ipynb",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    tid = out["table"]
    assert out["roles"] == {"gm": "gm", "bob": "player", "eve": "observer"}
    from tabletop_widgets.table import open_store, parse_query

    with open_store(db) as store:
        for seat, url in out["links"].items():
            assert url.startswith("http://h/table.ipynb?")
            s = TableSession.from_query(url.split("?", 1)[1], store=store)
            assert s.seat == seat
        old_bob = parse_query(out["links"]["bob"].split("?", 1)[1])[1]
    assert cli(["links", db, tid, "--seat", "bob", "--json"]) == 0
    new = json.loads(capsys.readouterr().out)
    assert list(new) == ["bob"]
    with open_store(db) as store:
        from tabletop_widgets.table import SeatError

        with pytest.raises(SeatError):
            TableSession.join(store, tid, old_bob)  # the old link stopped working
        assert TableSession.from_query(new["bob"]["link"].split("?", 1)[1], store=store).seat == "bob"
    assert cli(["links", db, tid, "--seat", "zed"]) == 2
    assert cli(["create", db, "--system", "ret", "--seat", "p:player"]) == 2  # no GM
    assert cli(["create", db, "--system", "nosuch", "--seat", "gm:gm"]) == 2
    assert "no game system 'nosuch'" in capsys.readouterr().err
