"""Issue 18, data safety: a campaign backed up as one file and restored into SQLite or
PostgreSQL plays and verifies on (its seat links too); a tampered backup is refused with a
message that says what is wrong, and nothing is written."""

from __future__ import annotations

import json
import os

import pytest

from tabletop_widgets.table import (
    SeatError,
    SeatSpec,
    TableExists,
    TableSession,
    check,
    create_table,
    open_store,
    verify_table,
)
from tabletop_widgets.table.backup import BackupError, _sha, backup_campaign, read_backup, restore_campaign
from tabletop_widgets.table.__main__ import main as cli
from tabletop_widgets.table.store import dumps


def _play(store, ret_sheet):
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c_bob")],
        characters={"c_bob": ret_sheet, "npc": ret_sheet},
        hidden_characters=["npc"],
        title="Backed up",
    )
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    bob = TableSession.join(store, made.table_id, made.tokens["bob"])
    gm.roll("1d100", hidden=True)
    gm.note("the butler")
    bob.roll(check("mind", luck=1))
    gm.end_session()
    gm.start_session()
    bob.roll("2d6")  # session 2 is open at the backup: its seed travels with it
    return made


def test_round_trip_sqlite_postgres_sqlite(tmp_path, postgres_url, pg_schema_url, open_store_at, ret_sheet):
    src = open_store_at(str(tmp_path / "a.db"))
    made = _play(src, ret_sheet)
    tid = made.table_id
    first = tmp_path / "campaign.jsonl"
    info = backup_campaign(src, tid, first)
    assert info.events == len(src.events(tid)) and info.sessions == 2
    assert oct(os.stat(first).st_mode & 0o777) == "0o600"
    pg = open_store_at(pg_schema_url(postgres_url))
    restore_campaign(pg, first)
    assert [e.hash for e in pg.events(tid)] == [e.hash for e in src.events(tid)]
    assert verify_table(pg, tid, session=1).ok
    # the same links, the open session goes on in PostgreSQL
    gm = TableSession.join(pg, tid, made.tokens["gm"])
    bob = TableSession.join(pg, tid, made.tokens["bob"])
    assert bob.session_number == 2 and bob.session_open and "npc" not in bob.state.characters
    bob.roll("1d20")
    gm.end_session()
    assert verify_table(pg, tid).ok
    # and back into a new SQLite file
    second = tmp_path / "again.jsonl"
    backup_campaign(pg, tid, second)
    dst = open_store_at(str(tmp_path / "b.db"))
    restore_campaign(dst, second)
    assert [e.hash for e in dst.events(tid)] == [e.hash for e in pg.events(tid)]
    rep = verify_table(dst, tid)
    assert rep.ok and rep.sessions == [1, 2], rep.text()
    assert [s.seed for s in dst.sessions(tid)] == [s.seed for s in pg.sessions(tid)]
    with pytest.raises(TableExists):
        restore_campaign(dst, second)


def _rewrite(path, fn):
    lines = path.read_text().split("\n")[:-1]
    lines = fn(lines)
    path.write_text("\n".join(lines) + "\n")


def _rehash(lines):
    """The forger recomputes every hash of the file (not the table's chain)."""
    manifest = json.loads(lines[0])
    body = lines[1:]
    manifest.update(
        events=len(body),
        event_sha256=[_sha(x) for x in body],
        events_sha256=_sha("\n".join(body)),
        manifest_sha256="",
    )
    manifest["manifest_sha256"] = _sha(dumps(manifest))
    return [dumps(manifest), *body]


def test_a_tampered_backup_is_refused_and_nothing_is_written(tmp_path, store, ret_sheet, capsys):
    made = _play(store, ret_sheet)
    tid = made.table_id
    good = tmp_path / "good.jsonl"
    backup_campaign(store, tid, good)
    target = open_store(tmp_path / "target.db")
    try:

        def attempt(edit, message):
            bad = tmp_path / "bad.jsonl"
            bad.write_text(good.read_text())
            _rewrite(bad, edit)
            with pytest.raises(BackupError, match=message):
                restore_campaign(target, bad)
            assert target.list_tables() == []  # nothing written
            assert cli(["restore", str(tmp_path / "target.db"), str(bad)]) == 2
            err = capsys.readouterr().err
            assert "Traceback" not in err and "error:" in err

        def change_roll(lines):
            for i, line in enumerate(lines[1:], start=1):
                d = json.loads(line)
                if d["kind"] == "roll" and not d["payload"]["hidden"]:
                    d["payload"]["result"]["total"] += 1
                    lines[i] = dumps(d)
                    return lines
            raise AssertionError("no roll")

        attempt(change_roll, r"event \d+ was changed after the backup was made")
        attempt(lambda lines: [lines[0], *lines[2:]], "names .* events, the file holds")

        def change_manifest(lines):
            m = json.loads(lines[0])
            m["seats"][1]["token_hash"] = "0" * 64  # a forger's own link
            return [dumps(m), *lines[1:]]

        attempt(change_manifest, "manifest was changed")
        attempt(lambda lines: _rehash(change_roll(lines)), "does not chain from the one before it")
        attempt(lambda lines: ["{}", *lines[1:]], "not a tabletop-widgets campaign backup")
        assert read_backup(good)["table"]["table_id"] == tid
        assert cli(["restore", str(tmp_path / "target.db"), str(good)]) == 0
        assert verify_table(target, tid, session=1).ok
    finally:
        target.close()


def test_backup_cli(tmp_path, store_url, store, ret_sheet, capsys):
    made = _play(store, ret_sheet)
    out = tmp_path / "c.jsonl"
    assert cli(["backup", store_url, made.table_id, str(out)]) == 0
    assert "2 session(s)" in capsys.readouterr().out
    assert cli(["backup", store_url, "nosuchtable", str(tmp_path / "x.jsonl")]) == 2
    assert "no table" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# issue "A table players can trust, third round", item 13: a planted file next to a backup
# --------------------------------------------------------------------------------------------
def _mode(path) -> int:
    return os.stat(path).st_mode & 0o777


def test_a_planted_tmp_file_does_not_make_the_backup_readable(tmp_path, store, ret_sheet):
    """A 0644 ``<file>.tmp`` left by someone else used to be reused as it was (its mode with
    it): the backup, which holds the open session's seed, became readable by everyone."""
    made = _play(store, ret_sheet)
    out = tmp_path / "campaign.jsonl"
    planted = tmp_path / "campaign.jsonl.tmp"
    planted.write_text("planted")
    os.chmod(planted, 0o644)
    backup_campaign(store, made.table_id, out)
    assert _mode(out) == 0o600
    assert planted.read_text() == "planted"  # not ours: not used, not removed
    assert read_backup(out)["table"]["table_id"] == made.table_id


def test_a_planted_symlink_does_not_make_the_backup_overwrite_another_file(tmp_path, store, ret_sheet):
    """A symlink named ``<file>.tmp`` used to be followed: the backup overwrote its target."""
    made = _play(store, ret_sheet)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "campaign.jsonl"
    os.symlink(victim, tmp_path / "campaign.jsonl.tmp")
    backup_campaign(store, made.table_id, out)
    assert victim.read_text() == "precious"
    assert not out.is_symlink() and _mode(out) == 0o600
    assert read_backup(out)["table"]["table_id"] == made.table_id


def test_a_backup_over_a_symlink_replaces_the_link_not_its_target(tmp_path, store, ret_sheet):
    made = _play(store, ret_sheet)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "campaign.jsonl"
    os.symlink(victim, out)
    backup_campaign(store, made.table_id, out)
    assert victim.read_text() == "precious" and not out.is_symlink() and _mode(out) == 0o600


def test_a_failed_backup_leaves_no_temporary_file(tmp_path, store, ret_sheet, monkeypatch):
    made = _play(store, ret_sheet)
    out = tmp_path / "campaign.jsonl"

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        backup_campaign(store, made.table_id, out)
    assert sorted(p.name for p in tmp_path.iterdir() if "campaign" in p.name) == []


def test_restore_errors_print_no_terminal_escapes(tmp_path, store, ret_sheet, capfd):
    """A forged file's event kind reached the terminal raw in "event N (kind) does not chain"."""
    import unicodedata

    made = _play(store, ret_sheet)
    bad = tmp_path / "bad.jsonl"
    backup_campaign(store, made.table_id, bad)

    def evil_kind(lines):
        d = json.loads(lines[2])
        d["kind"] = "note\x1b[8m\x1b]0;restored\x07\r"
        lines[2] = dumps(d)
        return _rehash(lines)

    _rewrite(bad, evil_kind)
    assert cli(["restore", str(tmp_path / "target.db"), str(bad)]) == 2
    out, err = capfd.readouterr()
    assert "does not chain" in err
    assert [c for c in out + err if c != "\n" and unicodedata.category(c) == "Cc"] == []


# --------------------------------------------------------------------------------------------
# trust round 3, item 1: a forged backup takes over another table
# --------------------------------------------------------------------------------------------
def _forge_manifest(path, edit):
    """The forger edits the manifest and recomputes its hash (the events are left as they are)."""

    def fn(lines):
        m = json.loads(lines[0])
        edit(m)
        m["manifest_sha256"] = ""
        m["manifest_sha256"] = _sha(dumps(m))
        return [dumps(m), *lines[1:]]

    _rewrite(path, fn)


def test_a_forged_backup_cannot_take_over_another_table(tmp_path, ret_sheet):
    """The attack as reported: back up your own table, add to its manifest a GM seat and an open
    session with a seed you know for the victim's table id, recompute ``manifest_sha256``, have
    the operator restore it. It was restored: the forger's token was the victim's GM (their
    notes read, their rolls predicted). Now it is refused and nothing is written."""
    from tabletop_widgets.table.fairdice import commitment
    from tabletop_widgets.table.seats import hash_token

    victim_store = open_store(tmp_path / "server.db")
    victim = create_table(
        victim_store,
        "ret",
        [SeatSpec("gm", "gm", "Vera"), SeatSpec("p", "player", "Pat", "c")],
        characters={"c": ret_sheet},
    )
    vgm = TableSession.join(victim_store, victim.table_id, victim.tokens["gm"])
    vgm.note("the twist: the butler is the king")
    mine_store = open_store(tmp_path / "mine.db")
    mine = create_table(mine_store, "ret", [SeatSpec("gm", "gm", "Mallory")], characters={"c": ret_sheet})
    forged = tmp_path / "mine.jsonl"
    backup_campaign(mine_store, mine.table_id, forged)
    known = bytes(range(32))
    my_token = "mallorys-own-token"

    def takeover(m):
        m["seats"].append(
            {
                "table_id": victim.table_id,
                "seat": "gm2",
                "role": "gm",
                "token_hash": hash_token(my_token),
                "character_id": None,
                "name": "Mallory",
            }
        )
        m["sessions"].append(
            {
                "table_id": victim.table_id,
                "n": 2,
                "seed_hash": commitment(known),
                "seed": known.hex(),
                "started": 0.0,
                "ended": None,
            }
        )

    _forge_manifest(forged, takeover)
    seats_before = [(s.seat, s.token_hash) for s in victim_store.seats(victim.table_id)]
    sessions_before = victim_store.sessions(victim.table_id)
    with pytest.raises(BackupError, match="belongs to table"):
        restore_campaign(victim_store, forged)
    assert [(s.seat, s.token_hash) for s in victim_store.seats(victim.table_id)] == seats_before
    assert victim_store.sessions(victim.table_id) == sessions_before
    assert [t.table_id for t in victim_store.list_tables()] == [victim.table_id]  # nothing written
    with pytest.raises(SeatError):
        TableSession.join(victim_store, victim.table_id, my_token)
    # the victim's dice are still the victim's: their session's commitment, not the forger's seed's
    assert TableSession.join(victim_store, victim.table_id, victim.tokens["p"]).commitment == victim.seed_hash
    victim_store.close()
    mine_store.close()


def _known_seed():
    from tabletop_widgets.table.fairdice import commitment

    seed = bytes(range(1, 33))
    return seed.hex(), commitment(seed)


def _edit_seat(i, **changes):
    return lambda m: m["seats"][i].update(changes)


def _edit_session(i, **changes):
    return lambda m: m["sessions"][i].update(changes)


FORGERIES = {
    "a seat of another table": (_edit_seat(0, table_id="someoneelse"), "belongs to table"),
    "a seat the log never added": (
        lambda m: m["seats"].append({**m["seats"][0], "seat": "mallory", "token_hash": "1" * 64}),
        "seat 'mallory' is not in the table's log",
    ),
    "a seat left out": (lambda m: m["seats"].pop(), "the log records seat"),
    "a player made GM": (_edit_seat(1, role="gm"), "role 'gm', the log says 'player'"),
    "a seat's character changed": (_edit_seat(1, character_id="npc"), "character"),
    "a session of another table": (_edit_session(1, table_id="someoneelse"), "belongs to table"),
    "a session with another commitment": (
        lambda m: m["sessions"][1].update(seed=_known_seed()[0], seed_hash=_known_seed()[1]),
        "commitment is not the one the log publishes",
    ),
    "the open session's seed swapped": (
        _edit_session(1, seed=_known_seed()[0]),
        "seed does not match its commitment",
    ),
    "an ended session's seed swapped": (_edit_session(0, seed=_known_seed()[0]), "seed does not match"),
    "an ended session reopened": (_edit_session(0, ended=None), "ended in the log"),
    "an open session ended": (_edit_session(1, ended=123.0), "open in the log"),
    "a session the log never started": (
        lambda m: m["sessions"].append({**m["sessions"][1], "n": 3}),
        "the log tells of 2 session",
    ),
    "the table renamed": (lambda m: m["table"].update(title="Mine now"), "table.opened"),
    "the table's system changed": (lambda m: m["table"].update(system="seasons"), "table.opened"),
    "the table's seed swapped": (lambda m: m["table"].update(seed=_known_seed()[0]), "seed"),
    "the table marked closed": (lambda m: m["table"].update(closed=123.0), "closed"),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_backup_whose_rows_the_log_does_not_record_is_refused(tmp_path, store, ret_sheet, forgery):
    """Every seat and role is one the chained log records (``table.opened``'s seats,
    ``seat.added``), every session's commitment the log's, an ended session's seed its revealed
    one, the open session's seed its commitment's, the table row the log's ``table.opened``."""
    edit, message = FORGERIES[forgery]
    made = _play(store, ret_sheet)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    _forge_manifest(path, edit)
    target = open_store(tmp_path / "target.db")
    try:
        with pytest.raises(BackupError, match=message):
            restore_campaign(target, path)
        assert target.list_tables() == []
    finally:
        target.close()


def test_a_retired_seat_stays_retired_whatever_the_file_says(tmp_path, store, ret_sheet):
    """The log cannot vouch for a token hash; it does say which seats were retired: those get a
    link nobody holds at the restore, so a file cannot bring a retired seat back to a new link."""
    from tabletop_widgets.table.campaign import add_player, retire_seat
    from tabletop_widgets.table.seats import hash_token

    made = _play(store, ret_sheet)
    seat, token = add_player(store, made.table_id, "Rita")
    retire_seat(store, made.table_id, seat)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    mine = "a token I know"
    _forge_manifest(
        path, lambda m: next(s for s in m["seats"] if s["seat"] == seat).update(token_hash=hash_token(mine))
    )
    target = open_store(tmp_path / "target.db")
    try:
        restore_campaign(target, path)
        for t in (mine, token):
            with pytest.raises(SeatError):
                TableSession.join(target, made.table_id, t)
        assert TableSession.join(target, made.table_id, made.tokens["bob"]).seat == "bob"
    finally:
        target.close()


# -- restoring over a table that exists: only when told to, and only the same log -------------
def test_a_table_that_exists_is_replaced_only_when_asked(tmp_path, store, ret_sheet, capsys):
    made = _play(store, ret_sheet)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    events = [e.hash for e in store.events(made.table_id)]
    with pytest.raises(TableExists, match="replace"):
        restore_campaign(store, path)
    assert cli(["restore", store.url, str(path)]) == 2
    assert "--replace" in capsys.readouterr().err
    assert [e.hash for e in store.events(made.table_id)] == events


def test_replace_rolls_a_table_back_to_an_earlier_backup_of_its_log(tmp_path, store, ret_sheet):
    """What replace does: the table's rows (its row, seats, sessions, events and snapshots) become
    the backup's, in one transaction. Here the store went on after the backup (more rolls in the
    open session): those events go, the links keep working, the log verifies."""
    made = _play(store, ret_sheet)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    before = [e.hash for e in store.events(made.table_id)]
    bob = TableSession.join(store, made.table_id, made.tokens["bob"])
    for _ in range(3):
        bob.roll("1d6")
    info = restore_campaign(store, path, replace=True)
    assert info.events == len(before)
    assert [e.hash for e in store.events(made.table_id)] == before
    for view in ("all", "gm", "seat:bob"):
        snap = store.latest_snapshot(made.table_id, view)
        assert snap is None or snap.version <= len(before)
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("1d20")
    gm.end_session()
    assert verify_table(store, made.table_id).ok


def test_replace_brings_a_table_forward_to_a_later_backup(tmp_path, store, ret_sheet):
    made = _play(store, ret_sheet)
    early, late = tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    backup_campaign(store, made.table_id, early)
    TableSession.join(store, made.table_id, made.tokens["bob"]).roll("1d6")
    backup_campaign(store, made.table_id, late)
    target = open_store(tmp_path / "target.db")
    try:
        restore_campaign(target, early)
        restore_campaign(target, late, replace=True)
        assert [e.hash for e in target.events(made.table_id)] == [e.hash for e in store.events(made.table_id)]
        assert TableSession.join(target, made.table_id, made.tokens["gm"]).role == "gm"
    finally:
        target.close()


def test_replace_never_reopens_a_session_whose_seed_the_log_revealed(tmp_path, store, ret_sheet):
    """Rolling back over a ``session.ended`` would open again a session whose seed every seat
    has seen: every later roll of it could be predicted."""
    made = _play(store, ret_sheet)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)  # session 2 open
    TableSession.join(store, made.table_id, made.tokens["gm"]).end_session()  # its seed revealed
    with pytest.raises(BackupError, match="reopen session 2"):
        restore_campaign(store, path, replace=True)
    assert not store.sessions(made.table_id)[-1].is_open


def test_replace_refuses_another_log_and_keeps_the_store_s_links(tmp_path, store, ret_sheet):
    """A backup that is not an earlier or later state of the table's own log (another table under
    the same id, a log forged from the start) is refused; and a seat that exists in both keeps
    the store's link, so a file cannot hand the GM's seat to a link of its own."""
    from tabletop_widgets.table.seats import hash_token, reissue_token

    made = _play(store, ret_sheet)
    other_store = open_store(tmp_path / "other.db")
    other = create_table(other_store, "ret", [SeatSpec("gm", "gm", "Gina")], table_id=made.table_id)
    impostor = tmp_path / "impostor.jsonl"
    backup_campaign(other_store, other.table_id, impostor)
    other_store.close()
    with pytest.raises(BackupError, match="not a backup of this table's log"):
        restore_campaign(store, impostor, replace=True)
    # the same log, the GM's token swapped in the file; and the GM's link reissued since the backup
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    _forge_manifest(path, _edit_seat(0, token_hash=hash_token("forger's")))
    current = reissue_token(store, made.table_id, "gm")
    restore_campaign(store, path, replace=True)
    for stale in ("forger's", made.tokens["gm"]):
        with pytest.raises(SeatError):
            TableSession.join(store, made.table_id, stale)
    assert TableSession.join(store, made.table_id, current).role == "gm"


def test_restore_replace_cli(tmp_path, store, ret_sheet, capsys):
    made = _play(store, ret_sheet)
    path = tmp_path / "c.jsonl"
    backup_campaign(store, made.table_id, path)
    assert cli(["restore", store.url, str(path), "--replace"]) == 0
    assert "replacing the table" in capsys.readouterr().out
