"""Issue 18, data safety: a campaign backed up as one file and restored into SQLite or
PostgreSQL plays and verifies on (its seat links too); a tampered backup is refused with a
message that says what is wrong, and nothing is written."""

from __future__ import annotations

import json
import os

import pytest

from tabletop_widgets.table import SeatSpec, TableExists, TableSession, check, create_table, open_store, verify_table
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
