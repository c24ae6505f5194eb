"""Seats and roles: a player's session refuses GM actions and never loads hidden events."""

from __future__ import annotations

import pytest

from tabletop_widgets.table import (
    EventError,
    PermissionDenied,
    SeatError,
    SeatSpec,
    TableSession,
    check,
    create_table,
    parse_query,
)
from tabletop_widgets.table.seats import hash_token

#: tests that read or edit the SQLite file itself (PostgreSQL has its own versions)
SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


@pytest.fixture
def table(store, ret_sheet):
    return create_table(
        store,
        "ret",
        [
            SeatSpec("gm", "gm", "Gina"),
            SeatSpec("bob", "player", "Bob", "c_bob"),
            SeatSpec("amy", "player", "Amy", "c_amy"),
            SeatSpec("eve", "observer", "Eve"),
        ],
        characters={"c_bob": ret_sheet, "c_amy": ret_sheet, "npc": ret_sheet},
        hidden_characters=["npc"],
        title="Security",
    )


def join(store_url, open_store_at, table, seat):
    # each seat in its own store object, as each Voila kernel has its own connection
    return TableSession.join(open_store_at(store_url), table.table_id, table.tokens[seat])


class CountingStore:
    """Wraps a store and records every method called."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.inner, name)


def test_no_or_wrong_token_loads_nothing(store, table):
    spy = CountingStore(store)
    for table_id, token in [
        (None, None),
        (table.table_id, None),
        (None, table.tokens["gm"]),
        (table.table_id, ""),
        (table.table_id, "wrong-token"),
        ("other-table", table.tokens["gm"]),
    ]:
        with pytest.raises(SeatError) as exc:
            TableSession.join(spy, table_id, token)
        assert exc.value.code in ("no_token", "bad_token")
        assert "link" in exc.value.message["en"] and "ссылк" in exc.value.message["ru"].lower()
    # only the hashed-token lookup ran: no table info, events or snapshots were read
    assert set(spy.calls) <= {"seat_by_token_hash"}
    with pytest.raises(SeatError):
        TableSession.from_query("", store=spy)
    with pytest.raises(SeatError):
        TableSession.from_query(f"table={table.table_id}&seat=nope", store=spy)
    assert set(spy.calls) <= {"seat_by_token_hash"}


@SQLITE_ONLY
def test_tokens_only_hashed(store, store_url, table, backend):
    # the database file holds hashes, never a token
    store.close()
    raw = b"".join(p.read_bytes() for p in __import__("pathlib").Path(store_url).parent.glob("table.db*"))
    for seat, token in table.tokens.items():
        assert token.encode() not in raw
        assert hash_token(token).encode() in raw
    assert len(set(table.tokens.values())) == 4
    assert all(len(t) >= 22 for t in table.tokens.values())  # 128 bits in urlsafe base64


def test_links(table):
    links = table.links("http://h:8866/voila/render/table.ipynb")
    tid, tok = parse_query(links["bob"].split("?", 1)[1])
    assert tid == table.table_id and tok == table.tokens["bob"]
    assert parse_query(None) == (None, None)
    assert parse_query("?table=x") == ("x", None)


def test_player_refuses_gm_actions(store_url, open_store_at, table):
    bob = join(store_url, open_store_at, table, "bob")
    gm = join(store_url, open_store_at, table, "gm")
    before = gm.store.head(table.table_id)
    forged = [
        lambda: bob.note("I am the GM now"),
        lambda: bob.set_combat({"round": 9}),
        lambda: bob.close_table(),
        lambda: bob.roll(check("mind", "c_amy")),  # someone else's character
        lambda: bob.update_character("c_amy", {"name": "x"}),
        lambda: bob.set_character("new", {}),  # creating characters is the GM's
        lambda: bob.record("message", {"text": "psst"}, audience="gm"),
        lambda: bob.record("message", {"text": "psst"}, audience="seat:amy"),
        lambda: bob.record("roll", {"index": 0}),  # forged roll outcome
        lambda: bob.record("table.closed", {"seed": "00", "seed_hash": "00"}),
        lambda: bob.record("table.opened", {}),
    ]
    for action in forged:
        with pytest.raises((PermissionDenied, EventError)):
            action()
    for action in ("note", "combat", "table.close", "view.hidden", "seat.manage", "character.create"):
        assert not bob.can(action)
    assert bob.can("roll") and bob.can("check", "c_bob") and not bob.can("check", "c_amy")
    assert gm.store.head(table.table_id) == before  # nothing was written

    eve = join(store_url, open_store_at, table, "eve")
    for action in (lambda: eve.roll("1d6"), lambda: eve.say("hi"), lambda: eve.roll(check("mind", "c_bob"))):
        with pytest.raises(PermissionDenied):
            action()
    assert eve.can("read") and not eve.can("roll")


def test_hidden_never_reaches_player(store_url, open_store_at, table):
    gm = join(store_url, open_store_at, table, "gm")
    bob = join(store_url, open_store_at, table, "bob")
    amy = join(store_url, open_store_at, table, "amy")
    eve = join(store_url, open_store_at, table, "eve")
    secret_roll = gm.roll("3d6+2", hidden=True, label="ambush")
    gm.note("the butler did it")
    gm.set_combat({"combatants": ["bob", "amy", "lurker"], "hp": {"lurker": 40}}, public={"combatants": ["bob", "amy"]})
    bob_secret = bob.roll("1d20", hidden=True)
    public = gm.roll("1d6")

    for s in (gm, bob, amy, eve):
        s.poll()
    # GM sees everything
    assert {e.seq for e in gm.events()} >= {secret_roll.seq, bob_secret.seq, public.seq}
    assert gm.state.notes and gm.state.combat["hp"] == {"lurker": 40}
    assert "npc" in gm.state.characters

    def leaks(session, *needles):
        blob = repr(session.state.to_json()) + repr([e.to_json() for e in session.events()])
        return [n for n in needles if n in blob]

    for s in (bob, amy, eve):
        assert "npc" not in s.state.characters
        assert s.state.notes == []
        assert s.state.combat == {"combatants": ["bob", "amy"]}
        assert leaks(s, "butler", "lurker", "ambush") == []
        seqs = {e.seq for e in s.events()} | {x["seq"] for x in s.state.log}
        assert secret_roll.seq not in seqs and public.seq in seqs
    # a player's own hidden roll: them and the GM, not the other player
    assert bob_secret.seq in {e.seq for e in bob.events()}
    assert bob_secret.seq not in {e.seq for e in amy.events()} | {e.seq for e in eve.events()}

    # a new kernel for bob (a reload) rebuilds the same view, still without hidden things
    bob2 = join(store_url, open_store_at, table, "bob")
    assert bob2.state.to_json() == bob.state.to_json()


def test_player_gm_only_check_option(store_url, open_store_at, table):
    from tabletop_widgets import get_system

    system = get_system("ret")
    sheet = system.Character()
    gm_only = [(c.id, o.name) for c in system.checks(sheet) for o in c.options if o.gm_only]
    if not gm_only:
        pytest.skip("ret has no GM-only check option")
    bob = join(store_url, open_store_at, table, "bob")
    cid, opt = gm_only[0]
    spec = system.check(sheet, cid).option(opt)
    with pytest.raises(PermissionDenied):
        bob.roll(check(cid, "c_bob", **{opt: spec.default}))


def test_db_file_private(tmp_path):
    import os
    import stat
    from tabletop_widgets.table import open_store

    db = tmp_path / "sub" / "table.db"
    with open_store(db) as s:
        s.list_tables()
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(db.parent).st_mode) == 0o700


def test_from_voila_reads_query_string(store, table, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", f"table={table.table_id}&seat={table.tokens['eve']}")
    assert TableSession.from_voila(store=store).role == "observer"
    monkeypatch.setenv("QUERY_STRING", "")
    with pytest.raises(SeatError):
        TableSession.from_voila(store=store)
    monkeypatch.delenv("QUERY_STRING")
    with pytest.raises(SeatError):
        TableSession.from_voila(store=store)


def test_default_path(monkeypatch, tmp_path):
    from tabletop_widgets.table import default_db_path

    monkeypatch.delenv("TABLETOP_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local/share/tabletop-widgets/table.db"
    monkeypatch.setenv("TABLETOP_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_gm_only_character_stays_gm_only(store_url, open_store_at, table):
    gm = join(store_url, open_store_at, table, "gm")
    bob = join(store_url, open_store_at, table, "bob")
    dmg = gm.update_character("npc", {"luck": 1})  # follows the NPC's audience
    chk = gm.roll(check("mind", "npc"))  # carries the NPC's sheet: forced GM-only
    assert dmg.audience == "gm" and chk.audience == "gm"
    with pytest.raises(EventError):
        gm.update_character("npc", {"luck": 2}, hidden=False)
    bob.poll()
    assert "npc" not in bob.state.characters
    assert {dmg.seq, chk.seq}.isdisjoint(e.seq for e in bob.events())
    # revealing it makes it public from then on
    gm.set_character("npc", gm.state.characters["npc"], hidden=False)
    pub = gm.update_character("npc", {"luck": 4})
    assert pub.audience == "all"
    bob.poll()
    assert bob.state.characters["npc"]["luck"] == 4
