"""The GM's "Roll initiative" at a table draws its dice from the table's fair dice: one
transaction holds the ``initiative`` outcome event (next roll index) and the tracker's
``combat.state``; ``verify`` re-rolls it; tampering with either is caught."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path


from tabletop_widgets.table import rng_for, verify_table

sys.path.insert(0, str(Path(__file__).parent))
from test_table_view import SECRET_NPC, frontend_click  # noqa: E402


def _fight(gm):
    gm.bring_into_combat("c1")
    gm.bring_into_combat("c2")
    gm.tracker.add_combatant(name="Goblin")


def _kinds(store, tid, after=0):
    return [(e.kind, e.audience, e.roll) for e in store.events(tid, after_seq=after)]


def test_the_button_rolls_with_the_next_fair_index(table):
    gm = table.view("gm")
    p1 = table.view("p1")
    _fight(gm)
    first = gm.session.roll("1d6")
    head = gm.session.state.seq
    frontend_click(gm.tracker.initiative_button)
    store = gm.session.store
    tid = table.made.table_id
    everything = store.events(tid, after_seq=head)
    # the initiative and both tracker states are one transaction; a roll whose result costs
    # Luck or Sanity (RET) is followed by the sheets' updates, which depend on the fair dice.
    # The initiative carries the Goblin's sheet (the GM's: an NPC of the tracker), so it is the
    # GM's; players read the order from the tracker's own projection
    written = [e for e in everything if e.kind != "character.update"]
    updates = [e for e in everything if e.kind == "character.update"]
    assert [(e.kind, e.audience) for e in written] == [
        ("initiative", "gm"),
        ("combat.state", "all"),
        ("combat.state", "gm"),
    ]
    assert len({e.version for e in written}) == 3
    if updates:  # only when the roll cost a table character something
        assert any(r.get("effects") for r in written[0].payload["result"]["rolls"].values())
    assert all(e.seq > written[-1].seq for e in updates)
    init = written[0]
    assert init.roll == first.roll + 1 == init.payload["index"]
    assert init.payload["ids"] == ["c1", "c2", "goblin"]
    combat = gm.tracker.combat
    assert combat.order == init.payload["result"]["order"]
    assert {c: combat.combatant(c).initiative["key"] for c in combat.ids} == {
        c: r["key"] for c, r in init.payload["result"]["rolls"].items()
    }
    assert written[2].payload["state"]["event"] == combat.events[-1]
    # the players' screens follow
    p1.session.poll()
    assert p1.tracker.combat.order == combat.order
    assert "initiative" in json.dumps([e.breakdown for e in p1.roll_log.entries], ensure_ascii=False)
    # a reload rebuilds the same tracker (replay never rolls)
    gm2 = table.view("gm")
    assert gm2.tracker.combat.state() == combat.state()
    # a second roll (late joiner) takes the index after
    gm.tracker.add_combatant(name="Rat")
    gm.tracker.roll_initiative()
    late = [e for e in store.events(tid) if e.kind == "initiative"][-1]
    assert late.payload["ids"] == ["rat"] and late.roll == init.roll + 1
    assert "rat" in gm.tracker.combat.order
    # closed: every roll replays from the seed, the tracker's states included
    gm.session.close_table()
    rep = verify_table(store, tid)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == 3
    seed = bytes.fromhex(store.get_table(tid).seed)
    system = table.system
    models = {c: system.Character.from_dict(v) for c, v in init.payload["characters"].items()}
    assert list(system.roll_initiative(models, rng=rng_for(seed, init.roll)).order) == init.payload["result"]["order"]


def test_a_hidden_combatant_keeps_the_initiative_event_with_the_gm(table):
    gm = table.view("gm")
    p1 = table.view("p1")
    gm.bring_into_combat("c1")
    gm.tracker.add_combatant(name=SECRET_NPC, hidden=True)
    gm.tracker.roll_initiative()
    init = [e for e in gm.session.events() if e.kind == "initiative"][-1]
    assert init.audience == "gm"
    p1.session.poll()
    assert not [e for e in p1.session.events() if e.kind == "initiative"]
    assert SECRET_NPC not in json.dumps(p1.session.state.to_json())
    assert SECRET_NPC.lower() not in json.dumps(p1.session.state.to_json())
    assert p1.tracker.combat.order == [c for c in gm.tracker.combat.order if c != SECRET_NPC.lower()]


def test_forged_initiative_click_in_a_players_view_writes_nothing(table):
    gm = table.view("gm")
    p1 = table.view("p1")
    _fight(gm)
    p1.session.poll()
    before = p1.session.store.events(table.made.table_id)
    frontend_click(p1.tracker.initiative_button)
    assert p1.tracker.roll_initiative() is None
    assert p1.session.store.events(table.made.table_id) == before


def test_a_refused_write_puts_the_tracker_back(table):
    gm = table.view("gm")
    _fight(gm)
    state = gm.tracker.combat.state()
    gm.session.close_table()
    assert gm.tracker.roll_initiative() is None
    assert gm.tracker.combat.state() == state
    assert not [e for e in gm.session.events() if e.kind == "initiative"]


def _tamper(db, seq, payload):
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))
    conn.commit()
    conn.close()


def test_verify_catches_a_tampered_tracker_initiative(table):
    gm = table.view("gm")
    _fight(gm)
    gm.tracker.roll_initiative()
    gm.session.close_table()
    store = gm.session.store
    tid = table.made.table_id
    assert verify_table(store, tid).ok
    events = store.events(tid)
    full = [
        e
        for e in events
        if e.kind == "combat.state" and e.audience == "gm" and e.payload["state"]["event"]["type"] == "initiative"
    ][-1]
    pub = [e for e in events if e.kind == "combat.state" and e.audience == "all" and e.version == full.version - 1][0]

    # the GM's tracker: give the goblin a better key than it rolled
    bad = json.loads(json.dumps(full.payload))
    ev = bad["state"]["event"]
    ev["rolls"]["goblin"]["key"] = [99] + list(ev["rolls"]["goblin"]["key"])[1:]
    _tamper(table.path, full.seq, bad)
    rep = verify_table(store, tid)
    assert not rep.ok and "initiative key of 'goblin'" in rep.text(), rep.text()
    _tamper(table.path, full.seq, full.payload)
    assert verify_table(store, tid).ok

    # the players' projection: same
    bad = json.loads(json.dumps(pub.payload))
    bad["state"]["state"]["combatants"]["c1"]["initiative"]["key"] = [99]
    _tamper(table.path, pub.seq, bad)
    rep = verify_table(store, tid)
    assert not rep.ok and "players' tracker shows initiative" in rep.text(), rep.text()
    _tamper(table.path, pub.seq, pub.payload)

    # a tracker initiative with no fair roll behind it (the initiative event made into a note)
    init = [e for e in events if e.kind == "initiative"][-1]
    conn = sqlite3.connect(table.path)
    conn.execute(
        "UPDATE events SET kind = 'message', roll = NULL, payload = ? WHERE seq = ?",
        (json.dumps({"text": "hi"}), init.seq),
    )
    conn.commit()
    conn.close()
    rep = verify_table(store, tid)
    assert not rep.ok and "not rolled with the table's fair dice" in rep.text(), rep.text()
