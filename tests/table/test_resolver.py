"""The resolver on the server (issue 30): requests are not events, and play never waits for a GM's
page. A player attacks another player's character with no GM page anywhere; the resolver asks the
defender, the defender answers, the resolver rolls with the table's fair dice; a killed resolver
loses nothing; exactly one resolver serves a table; an open request from an older log's events
becomes a request of the table at the store's upgrade."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table, resolve_pending, verify_table
from tabletop_widgets.table.resolver import Resolver
from tabletop_widgets.widgets.lobby import sample_character
from helpers import wait_until

RET = get_system("ret")


def fight(store, **bo):
    """Ann and Ben, two players of Р.Э.Т.; the GM set up the fight and left. It is Ann's turn.
    ``bo``: traits of Ben's Bo besides the sample's."""
    chars = {"ada": sample_character(RET, "Ada").to_dict(), "bo": {**sample_character(RET, "Bo").to_dict(), **bo}}
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        characters=chars,
    )
    from tabletop_widgets.table import CombatSync

    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    sync = CombatSync(gm)
    sync.combat.add("ada", sync.table_character("ada")[0], name="Ada")
    sync.combat.add("bo", sync.table_character("bo")[0], name="Bo")
    sync.combat.roll_initiative()
    while sync.combat.current != "ada":
        sync.combat.next_turn()
    gm.stop()
    return made


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def attacks(session):
    session.poll()
    return [r for r in session.requests if r.kind == "attack"]


def test_resolve_pending_answers_each_request_once(store):
    made = fight(store)
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    ann.ask_attack("ada", "bo")
    ann.declare_attack("ada", "bo", "melee:unarmed")
    assert resolve_pending(store, made.table_id) == 2  # the odds answered, the defender asked
    assert resolve_pending(store, made.table_id) == 0  # nothing more until Ben answers
    (waiting,) = attacks(ann)
    assert waiting.state == "waiting" and waiting.waiting == {
        "for": "seat",
        "seat": "ben",
        "name": "Ben",
        "target_name": "Bo",
    }
    ben.poll()
    (q,) = ben.questions()
    ben.answer_attack(q["request"], {})
    assert resolve_pending(store, made.table_id) == 2  # the defence and its attack: rolled, removed
    assert attacks(ann) == [] and ben.questions() == []
    (rolled,) = [e for e in store.events(made.table_id) if e.kind == "attack"]
    assert rolled.actor == "ann" and rolled.payload["request"] == waiting.id
    # the log holds outcomes only: no request ever entered it
    assert not [e for e in store.events(made.table_id) if e.kind.startswith("attack.")]


def test_a_second_attack_in_one_turn_is_refused_where_it_is_resolved(store):
    """Issue 31 item 5: Р.Э.Т.'s turn gives one attack; a second one made on the same turn is
    refused by the resolver, whatever the page sent."""
    made = fight(store)
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    ann.declare_attack("ada", "bo", "melee:unarmed")
    resolve_pending(store, made.table_id)
    ben.poll()
    (q,) = ben.questions()
    ben.answer_attack(q["request"], {})
    resolve_pending(store, made.table_id)
    assert attacks(ann) == []  # rolled
    ann.declare_attack("ada", "bo", "melee:unarmed")  # the same turn: the page may send it
    resolve_pending(store, made.table_id)
    (refusal,) = [r for r in attacks(ann) if r.state == "refused"]
    assert "every attack this turn gives" in refusal.answer["message"]["en"] and refusal.answer["message"]["ru"]
    assert len([e for e in store.events(made.table_id) if e.kind == "attack"]) == 1


def test_the_resolver_loop_answers_as_requests_arrive_and_a_killed_one_loses_nothing(store_url, backend, open_store_at):
    """The resolver ``play`` starts (``python -m tabletop_widgets.table resolve``): an attack on a
    player is asked of the defender within a moment; killed while the defender thinks, it loses
    nothing: started again, it rolls the answered attack; ``verify`` passes after it."""
    store = open_store_at(store_url)
    made = fight(store)
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    env = dict(os.environ)

    def resolver():
        return subprocess.Popen([sys.executable, "-m", "tabletop_widgets.table", "resolve", store_url], env=env)

    first = resolver()
    try:
        ann.declare_attack("ada", "bo", "melee:unarmed")
        wait_until(lambda: ben.poll() is not None and ben.questions(), timeout=20, what="the defender is asked")
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        (q,) = ben.questions()
        ben.answer_attack(q["request"], {})
        time.sleep(0.3)
        assert not [e for e in store.events(made.table_id) if e.kind == "attack"]  # nobody resolves now
        second = resolver()
        try:
            wait_until(
                lambda: [e for e in store.events(made.table_id) if e.kind == "attack"], timeout=20, what="rolled"
            )
        finally:
            second.terminate()
            second.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    assert attacks(ann) == []
    join(store, made, "gm").close_table()
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()


def test_one_resolver_serves_a_table_and_another_takes_over_when_it_dies(store_url, backend, open_store_at):
    """Two servers' resolvers on one store: the one holding the table's resolver lock serves it;
    when its process dies the lock goes with it, and the other serves the table."""
    a, b = open_store_at(store_url), open_store_at(store_url)
    made = fight(a)
    assert a.hold_resolver(made.table_id)
    assert not b.hold_resolver(made.table_id)
    ann = join(a, made, "ann")
    ann.ask_attack("ada", "bo")
    assert Resolver(b).run_once() == 0  # b may not serve it: a does
    assert Resolver(a).run_once() == 1
    a.close()  # a's process dies: its lock goes (SQLite: the file lock; PostgreSQL: the connection)
    ann2 = join(b, made, "ann")
    ann2.ask_attack("ada", "bo", "melee:unarmed")
    assert b.hold_resolver(made.table_id)
    assert Resolver(b).run_once() == 1


def test_a_closed_table_answers_nothing_and_keeps_nothing_waiting(store):
    made = fight(store)
    ann = join(store, made, "ann")
    ann.declare_attack("ada", "bo", "melee:unarmed")
    join(store, made, "gm").close_table()
    assert store.requests(made.table_id) == [] and store.pending_tables() == []
    assert resolve_pending(store, made.table_id) == 0


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_open_requests_of_an_older_log_become_requests_at_the_upgrade(store_url, backend, open_store_at):
    """A store of schema 3 whose log holds a player's declared attack and the question to the
    defender (the old request events): the upgrade makes them requests of the table, in one
    transaction, and the resolver finishes the attack once the defender answers."""
    import json
    import sqlite3

    store = open_store_at(store_url)
    made = fight(store)
    store.close()
    conn = sqlite3.connect(store_url)
    head = conn.execute("SELECT MAX(version), MAX(seq) FROM events").fetchone()
    old = [
        (
            "attack.declared",
            "ann",
            "seat:ann",
            {"request": "a1", "attacker": "ada", "target": "bo", "attack": "melee:unarmed", "options": {}},
        ),
        (
            "attack.question",
            "gm",
            "seat:ben",
            {
                "request": "a1",
                "seat": "ben",
                "attacker_name": {"en": "Ada", "ru": "Ada"},
                "target": "bo",
                "target_name": "Bo",
                "label": {"en": "Unarmed", "ru": "Без оружия"},
                "options": [],
            },
        ),
        (
            "attack.ask",
            "ann",
            "seat:ann",
            {"ask": "k1", "attacker": "ada", "target": "bo", "attack": None, "options": {}},
        ),
        (
            "attack.offer",
            "gm",
            "seat:ann",
            {
                "ask": "k1",
                "attacker": "ada",
                "target": "bo",
                "attacks": [],
                "attack": None,
                "options": {},
                "odds": None,
                "error": None,
            },
        ),
    ]
    for i, (kind, actor, audience, payload) in enumerate(old, start=1):
        conn.execute(
            "INSERT INTO events (table_id, version, kind, actor, audience, roll, payload, created, hash) VALUES (?,?,?,?,?,?,?,?,?)",
            (made.table_id, head[0] + i, kind, actor, audience, None, json.dumps(payload), time.time(), ""),
        )
    conn.execute("DROP TABLE requests")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    again = open_store_at(store_url)
    rows = again.requests(made.table_id)
    assert [(r.kind, r.state, r.seat) for r in rows] == [("attack", "waiting", "ann"), ("defence", "asked", "ben")]
    ben = join(again, made, "ben")
    (q,) = ben.questions()
    assert q["attack_request"] == "a1"
    ben.answer_attack(q["request"], {})
    assert resolve_pending(again, made.table_id) == 2
    assert [e.payload["request"] for e in again.events(made.table_id) if e.kind == "attack"] == ["a1"]


def test_life_and_death_gives_one_attack_in_round_1_and_two_later(store):
    """Life&Death's turn (L226, L250): one ordinary action in round 1, two from round 2; the
    resolver holds a player's attacks to that (``attacks_per_turn``), not to one a turn."""
    ld = get_system("life_and_death")
    chars = {"ada": sample_character(ld, "Ada").to_dict(), "bo": sample_character(ld, "Bo").to_dict()}
    made = create_table(
        store,
        "life_and_death",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        characters=chars,
    )
    from tabletop_widgets.table import CombatSync

    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    sync = CombatSync(gm)
    sync.combat.add("ada", sync.table_character("ada")[0], name="Ada")
    sync.combat.add("bo", sync.table_character("bo")[0], name="Bo")
    sync.combat.roll_initiative()
    while sync.combat.current != "ada":
        sync.combat.next_turn()
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    attack_id = next(
        s.id for s in ld.attacks(sync.combat.character("ada"), sync.combat.character("bo")) if not s.unavailable
    )

    def attack_once():
        ann.declare_attack("ada", "bo", attack_id)
        resolve_pending(store, made.table_id)
        ben.poll()
        for q in ben.questions():
            ben.answer_attack(q["request"], {})
        resolve_pending(store, made.table_id)
        refused = [r for r in attacks(ann) if r.state == "refused"]
        for r in refused:
            ann.dismiss(r.id)
        return refused

    def rolled():
        return len([e for e in store.events(made.table_id) if e.kind == "attack"])

    assert sync.combat.round == 1
    assert attack_once() == [] and rolled() == 1
    assert attack_once() and rolled() == 1  # a second one in round 1: refused
    gm.poll()
    sync.combat.next_turn()
    while sync.combat.current != "ada":
        sync.combat.next_turn()
    assert sync.combat.round == 2
    assert attack_once() == [] and attack_once() == [] and rolled() == 3
    (refusal,) = attack_once()
    assert "every attack this turn gives" in refusal.answer["message"]["en"] and rolled() == 3


def test_the_defenders_question_leaves_out_a_choice_that_changes_nothing(store):
    """Р.Э.Т.'s "target notices with" matters only against an attack from hiding (L1127): Ben is
    asked for Bo's defence and Luck, not how Bo notices Ada, when she does not hide; when she
    attacks from hiding he is asked that too, with the chances of each way."""
    eye = {"name": "Keen eye", "kind": "skill", "base_param": "attention", "level": 6, "category": "analytic"}
    made = fight(store, abilities=[eye])  # two ways to notice: Perception, or the Keen eye
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    ann.declare_attack("ada", "bo", "melee:unarmed")
    resolve_pending(store, made.table_id)
    ben.poll()
    (q,) = ben.questions()
    names = [o["name"] for o in q["options"]]
    assert "defence" in names and "defence_luck" in names and "detection" not in names
    assert "detection" not in q["chances"] and len(q["chances"]["defence"]) >= 2
    ben.answer_attack(q["request"], {})
    resolve_pending(store, made.table_id)
    other = fight(store, abilities=[eye])
    ann, ben = join(store, other, "ann"), join(store, other, "ben")
    ann.declare_attack("ada", "bo", "melee:unarmed", {"from_hiding": True, "hide_roll": 9})
    resolve_pending(store, other.table_id)
    ben.poll()
    (q,) = ben.questions()
    assert "detection" in [o["name"] for o in q["options"]]
    assert [v for v, _p in q["chances"]["detection"]] == ["perception", "skill:Keen eye"]


def test_a_request_the_rules_cannot_work_out_never_stalls_the_table(store, monkeypatch, caplog):
    """An attacker's hunt for a request that breaks the rules' code (here: any error a rule does
    not name) must not stall the table: that request is refused with a word for its seat (and the
    server's log says why), the other requests are served in the same pass."""
    from tabletop_widgets.table.attack_desk import GAVE_UP, AttackDesk

    made = fight(store)
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    ann.declare_attack("ada", "bo", "melee:unarmed")
    ben.ask_attack("bo", "ada")

    def broken(self, req):
        raise KeyError("a bug the request found")

    monkeypatch.setattr(AttackDesk, "_declared", broken)
    assert resolve_pending(store, made.table_id) == 2  # no exception, both moved on
    (refused,) = attacks(ann)
    assert refused.state == "refused" and refused.answer["message"] == dict(GAVE_UP)
    ben.poll()
    (odds,) = [r for r in ben.requests if r.kind == "odds"]
    assert odds.state == "answered" and odds.answer["attacks"]
    assert "could not be worked out" in caplog.text
