"""Initiative at a table is rolled with the table's fair dice: the session reserves the next roll
index in the write transaction, records an ``initiative`` outcome event, and ``verify`` re-rolls
``system.roll_initiative`` with ``rng_for(seed, index)`` and checks it (and the tracker state
written in the same transaction)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, rng_for, verify_table
from tabletop_widgets.table.__main__ import main as cli
from tabletop_widgets.table.session import initiative_json
from tabletop_widgets.widgets.lobby import sample_character

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


@pytest.fixture
def table(store, store_url, open_store_at):
    system = get_system("ret")
    chars = {
        "c1": sample_character(system, "Aria").to_dict(),
        "c2": sample_character(system, "Boris").to_dict(),
        "npc": sample_character(system, "Ogre").to_dict(),
    }
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("bob", "player", "Bob", "c1")],
        characters=chars,
        hidden_characters=["npc"],
    )
    gm = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store_at(store_url), made.table_id, made.tokens["bob"])
    return made, gm, bob, chars


def test_initiative_takes_the_next_roll_index_and_verifies(table, store):
    made, gm, bob, chars = table
    first = gm.roll("1d20")
    stored = gm.roll_initiative({"c1": chars["c1"], "c2": chars["c2"]}, names={"c1": "Aria", "c2": "Boris"})
    assert [e.kind for e in stored] == ["initiative"]
    init = stored[0]
    assert first.roll == 0 and init.roll == 1 and init.payload["index"] == 1
    assert init.audience == "all" and init.payload["ids"] == ["c1", "c2"]
    assert init.payload["characters"]["c1"] == json.loads(json.dumps(chars["c1"]))
    assert sorted(init.payload["result"]["order"]) == ["c1", "c2"]
    assert init.payload["text"].startswith("Initiative: ")
    after = bob.roll("1d6")
    assert after.roll == 2
    bob.poll()
    assert any(x.get("kind") == "initiative" for x in bob.state.log)

    gm.close_table()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    system = gm.system
    models = {cid: system.Character.from_dict(chars[cid]) for cid in ("c1", "c2")}
    again = initiative_json(system.roll_initiative(models, rng=rng_for(seed, 1)))
    assert json.loads(json.dumps(again, sort_keys=True)) == json.loads(
        json.dumps(init.payload["result"], sort_keys=True)
    )
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == 3


def test_combat_state_goes_in_the_same_transaction(table, store):
    made, gm, bob, chars = table
    seen = {}

    def in_combat(rng, outcome):
        seen["rng"] = rng.random()
        seen["outcome"] = outcome
        event = {
            "type": "initiative",
            "ids": ["c1", "c2"],
            "order": outcome["order"],
            "rolls": {c: {"key": r["key"], "text": r["text"], "roll": None} for c, r in outcome["rolls"].items()},
            "tiebreaks": outcome["tiebreaks"],
        }
        return {"format": 1, "event": event}, {"format": 1, "state": {}, "events": []}

    stored = gm.roll_initiative({"c1": chars["c1"], "c2": chars["c2"]}, combat=in_combat)
    assert [(e.kind, e.audience) for e in stored] == [
        ("initiative", "all"),
        ("combat.state", "all"),
        ("combat.state", "gm"),
    ]
    assert [e.version for e in stored] == list(range(stored[0].version, stored[0].version + 3))
    gm.close_table()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    assert seen["rng"] == rng_for(seed, stored[0].roll).random()  # the same stream, fresh
    assert verify_table(store, made.table_id).ok


def test_an_aborted_combat_writes_nothing(table, store):
    made, gm, bob, chars = table

    def broken(rng, outcome):
        raise RuntimeError("tracker disagrees")

    with pytest.raises(RuntimeError):
        gm.roll_initiative({"c1": chars["c1"]}, combat=broken)
    assert not [e for e in store.events(made.table_id) if e.kind == "initiative"]
    assert gm.roll("1d4").roll == 0  # the index was not used up


def test_only_the_gm_rolls_initiative_and_not_by_record(table):
    made, gm, bob, chars = table
    with pytest.raises(PermissionDenied):
        bob.roll_initiative({"c1": chars["c1"]})
    with pytest.raises(PermissionDenied):
        gm.record("initiative", {"index": 0})
    with pytest.raises(PermissionDenied):
        bob.record("initiative", {"index": 0})


def test_hidden_initiative_and_gm_only_characters_stay_with_the_gm(table):
    made, gm, bob, chars = table
    a = gm.roll_initiative({"c1": chars["c1"], "npc": chars["npc"]})[0]  # a GM-only character
    b = gm.roll_initiative({"c1": chars["c1"]}, hidden=True)[0]
    c = gm.roll_initiative({"c1": chars["c1"]})[0]
    assert (a.audience, b.audience, c.audience) == ("gm", "gm", "all")
    bob.poll()
    assert [e.roll for e in bob.events() if e.kind == "initiative"] == [c.roll]
    assert "Ogre" not in json.dumps(bob.state.to_json())


def _tamper(db, seq, payload):
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))
    conn.commit()
    conn.close()


@SQLITE_ONLY
def test_verify_detects_a_tampered_initiative(table, store, store_url, backend, capsys):
    made, gm, bob, chars = table
    init = gm.roll_initiative({"c1": chars["c1"], "c2": chars["c2"]})[0]
    gm.close_table()
    tid = made.table_id
    assert cli(["verify", store_url, tid]) == 0
    capsys.readouterr()

    # swap the order (and the keys with it): the seed says otherwise
    res = json.loads(json.dumps(init.payload["result"]))
    a, b = res["order"]
    res["order"] = [b, a]
    res["rolls"][a]["key"], res["rolls"][b]["key"] = res["rolls"][b]["key"], res["rolls"][a]["key"]
    _tamper(store_url, init.seq, {**init.payload, "result": res})
    assert cli(["verify", store_url, tid]) == 1
    err = capsys.readouterr().err
    assert f"roll {init.roll} does not match the seed" in err

    # put it back: OK again; then claim other ids than the sheets rolled
    _tamper(store_url, init.seq, init.payload)
    assert verify_table(store, tid).ok
    ids = {**init.payload, "ids": ["c2", "c1"]}
    _tamper(store_url, init.seq, ids)
    rep = verify_table(store, tid)
    assert not rep.ok and "differ from the characters rolled" in rep.text()
