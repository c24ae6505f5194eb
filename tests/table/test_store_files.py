"""Issue 14, holes 6 and 9: the store's files are private from the start; a file that is not ours
is refused with a clear message and left untouched; the CLI's exit codes say what happened."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys

import pytest

from tabletop_widgets.table import NotAStore, SeatSpec, TableSession, create_table, open_store, verify_table
from tabletop_widgets.table.store import StoreError
from tabletop_widgets.table.__main__ import main as cli
from tabletop_widgets.table.sqlite import APPLICATION_ID, SCHEMA_VERSION

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def digest(path) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def loose_umask():
    old = os.umask(0o022)  # what most users have: new files 0644, directories 0755
    yield
    os.umask(old)


def test_files_private_from_the_first_write(tmp_path, loose_umask, ret_sheet):
    db = tmp_path / "data" / "deep" / "table.db"
    store = open_store(db)
    try:
        made = create_table(store, "ret", [SeatSpec("gm", "gm")], characters={"c": ret_sheet})
        # while the store is open the WAL files exist: each was created private
        for p in (db, db.with_name("table.db-wal"), db.with_name("table.db-shm")):
            assert p.exists() and mode(p) == 0o600, (p, oct(mode(p)))
        assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700
        # a second connection (another kernel) recreating the WAL files keeps them private
        other = open_store(db)
        TableSession.join(other, made.table_id, made.tokens["gm"]).say("hi")
        other.close()
    finally:
        store.close()
    for p in db.parent.iterdir():
        assert mode(p) == 0o600, p
    assert (os.umask(0o022), os.umask(0o022))[0] == 0o022  # the process umask was restored


def test_an_existing_directory_is_left_alone(tmp_path, loose_umask):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    with open_store(shared / "t.db") as s:
        s.list_tables()
    assert mode(shared) == 0o755 and mode(shared / "t.db") == 0o600


def test_not_a_database(tmp_path, capsys):
    junk = tmp_path / "notes.db"
    junk.write_text("these are my notes, not a database\n" * 20)
    before = digest(junk)
    with pytest.raises(NotAStore) as exc:
        open_store(junk)
    assert not isinstance(exc.value, sqlite3.Error) and not exc.value.foreign
    assert "is not a database" in exc.value.message["en"] and "не база данных" in exc.value.message["ru"]
    assert str(junk) in str(exc.value)
    assert digest(junk) == before
    assert cli(["verify", str(junk), "sometable"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a database" in err and "Traceback" not in err


def make_foreign(path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('borscht', 120)")
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("variant", ["plain", "with_our_table_names", "other_application_id"])
def test_another_programs_sqlite_file_is_refused_untouched(tmp_path, variant, capsys):
    db = tmp_path / "kitchen.db"
    make_foreign(db)
    conn = sqlite3.connect(db)
    if variant == "with_our_table_names":  # even one that happens to have a table "events"
        conn.execute("PRAGMA user_version = 0")
        conn.execute("CREATE TABLE events (id INTEGER)")
    elif variant == "other_application_id":
        conn.execute("PRAGMA application_id = 1234")
    conn.commit()
    conn.close()
    before = digest(db)
    files = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(NotAStore) as exc:
        open_store(db)
    assert exc.value.foreign and "another program" in exc.value.message["en"]
    assert "untouched" in str(exc.value) and "не изменена" in exc.value.message["ru"]
    assert digest(db) == before  # not one byte written
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal/-shm left behind
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("SELECT name FROM recipes").fetchall() == [("borscht",)]
    conn.close()
    assert cli(["links", str(db), "t"]) == 2
    err = capsys.readouterr().err
    assert "another program" in err and "Traceback" not in err


def test_empty_files_are_initialised_and_marked(tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    empty_db = tmp_path / "empty-sqlite.db"
    sqlite3.connect(empty_db).close()  # a valid, empty database
    for p in (empty, empty_db):
        with open_store(p) as s:
            assert s.list_tables() == []
        conn = sqlite3.connect(p)
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.close()


OLD_SCHEMA = """
CREATE TABLE tables (table_id TEXT PRIMARY KEY, system TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL, seed_hash TEXT NOT NULL, seed TEXT NOT NULL, closed REAL,
    options TEXT NOT NULL DEFAULT '{}');
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(table_id), seat TEXT NOT NULL,
    role TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, character_id TEXT,
    name TEXT NOT NULL DEFAULT '', PRIMARY KEY (table_id, seat));
CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL REFERENCES tables(table_id),
    version INTEGER NOT NULL, kind TEXT NOT NULL, actor TEXT NOT NULL, audience TEXT NOT NULL DEFAULT 'all',
    roll INTEGER, payload TEXT NOT NULL, created REAL NOT NULL, UNIQUE (table_id, version), UNIQUE (table_id, roll));
CREATE TABLE snapshots (table_id TEXT NOT NULL REFERENCES tables(table_id), view TEXT NOT NULL,
    version INTEGER NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (table_id, view, version));
"""


def test_a_store_of_schema_1_is_upgraded(tmp_path, ret_sheet):
    """A store written before the chain (schema 1, unmarked): upgraded in place, its old events
    hashed, and the table plays and verifies on."""
    db = tmp_path / "old.db"
    with open_store(tmp_path / "source.db") as src:
        made = create_table(src, "ret", [SeatSpec("gm", "gm")], characters={"c": ret_sheet})
        gm = TableSession.join(src, made.table_id, made.tokens["gm"])
        gm.roll("3d6")
        info = src.get_table(made.table_id)
        events = src.events(made.table_id)
        seats = src.seats(made.table_id)
    raw = sqlite3.connect(tmp_path / "source.db")
    seed_hex = raw.execute("SELECT seed FROM tables").fetchone()[0]
    raw.close()
    conn = sqlite3.connect(db)
    conn.executescript(OLD_SCHEMA)
    conn.execute(
        "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?)",
        (info.table_id, info.system, info.title, info.created, info.seed_hash, seed_hex, None, "{}"),
    )
    for s in seats:
        conn.execute(
            "INSERT INTO seats VALUES (?,?,?,?,?,?)", (s.table_id, s.seat, s.role, s.token_hash, s.character_id, s.name)
        )
    for e in events:
        conn.execute(
            "INSERT INTO events (table_id, version, kind, actor, audience, roll, payload, created) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (e.table_id, e.version, e.kind, e.actor, e.audience, e.roll, json.dumps(e.payload), e.created),
        )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with open_store(db) as s:
        upgraded = s.events(made.table_id)
        assert [e.hash for e in upgraded] == [e.hash for e in events]  # the same chain
        gm = TableSession.join(s, made.table_id, made.tokens["gm"])
        gm.roll("1d6")
        gm.close_table()
        assert verify_table(s, made.table_id, head=gm.head).ok
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_cli_exit_codes_without_tracebacks(tmp_path, ret_sheet):
    db = tmp_path / "t.db"
    with open_store(db) as s:
        made = create_table(s, "ret", [SeatSpec("gm", "gm")])
        gm = TableSession.join(s, made.table_id, made.tokens["gm"])
        gm.roll("1d20")
        gm.close_table()

    def run(*args):
        p = subprocess.run(
            [sys.executable, "-m", "tabletop_widgets.table", *args], capture_output=True, text=True, timeout=120
        )
        assert "Traceback" not in p.stderr + p.stdout, p.stderr
        return p

    assert run("verify", str(db), made.table_id, "--head", gm.head).returncode == 0
    bad = run("verify", str(db), made.table_id, "--head", "0" * 64)
    assert bad.returncode == 1 and "VERIFY FAILED" in bad.stderr
    for args in [
        ("verify",),  # usage
        ("verify", str(db), made.table_id, "--head", "xyz"),  # not a hash
        ("verify", str(db), "nosuchtable"),  # lookup
        ("verify", str(tmp_path / "missing-dir" / "x" / "t.db"), "t"),  # no table there
        ("verify", str(tmp_path), "t"),
    ]:  # a directory: I/O
        p = run(*args)
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.strip(), args
    assert not (tmp_path / "missing-dir").exists()  # verify never creates a store
    os.chmod(db, 0o000)
    try:
        if os.geteuid() != 0:  # root reads anything
            assert run("verify", str(db), made.table_id).returncode == 2
    finally:
        os.chmod(db, 0o600)


@SQLITE_ONLY
def test_a_store_opened_twice_at_once_is_set_up_once(store_url, backend):
    """Two kernels opening a brand-new file at the same moment: both work, one schema."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from tabletop_widgets.table import open_store; "
                "s = open_store(sys.argv[1]); s.list_tables(); s.close()",
                store_url,
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for p in procs:
        with p:  # closes its stderr pipe (warnings are errors)
            _out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
    with open_store(store_url) as s:
        assert s.list_tables() == []


# --------------------------------------------------------------------------------------------
# trust round 3, item 14: a store file that existed before is made private
# --------------------------------------------------------------------------------------------
def test_a_file_that_existed_before_is_made_private(tmp_path, loose_umask, ret_sheet):
    """``touch table.db`` (0644) made a store readable by every local user, dice seeds and all:
    the store makes its file, and the -wal and -shm files already there, 0600 when it opens one
    that is ours."""
    db = tmp_path / "table.db"
    db.touch()
    os.chmod(db, 0o644)
    with open_store(db) as store:
        create_table(store, "ret", [SeatSpec("gm", "gm")], characters={"c": ret_sheet})
        for p in (db, db.with_name("table.db-wal"), db.with_name("table.db-shm")):
            assert mode(p) == 0o600, (p, oct(mode(p)))
    # a store of ours whose files were loosened later (a copy, a chmod), its WAL files left behind
    for p in (db, db.with_name("table.db-wal"), db.with_name("table.db-shm")):
        p.touch()
        os.chmod(p, 0o664)
    with open_store(db) as store:
        assert len(store.list_tables()) == 1
        for p in (db, db.with_name("table.db-wal"), db.with_name("table.db-shm")):
            assert mode(p) == 0o600, (p, oct(mode(p)))


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


@needs_root
def test_a_file_of_another_user_is_left_as_it_is_and_refused_when_everyone_reads_it(tmp_path):
    """A store file we do not own cannot be made private by us: a file its owner shares with a
    group (0640, 0660) is opened and left as it is; one that every local user may read or write
    is refused, untouched, with what to do."""
    nobody = 65534
    shared = tmp_path / "shared.db"
    with open_store(shared) as store:
        store.list_tables()
    for p in tmp_path.iterdir():
        os.chown(p, nobody, nobody)
        os.chmod(p, 0o640)
    with open_store(shared) as store:
        assert store.list_tables() == []
    assert mode(shared) == 0o640 and os.stat(shared).st_uid == nobody
    os.chmod(shared, 0o644)
    before = digest(shared)
    with pytest.raises(StoreError) as exc:
        open_store(shared)
    message = exc.value.message
    assert "every local user" in message["en"] and "chmod 600" in message["en"]
    assert "любой пользователь" in message["ru"] and str(shared) in str(exc.value)
    assert mode(shared) == 0o644 and digest(shared) == before


# --------------------------------------------------------------------------------------------
# trust round 3, item 12: a hostile store's terminal escapes never reach the terminal
# --------------------------------------------------------------------------------------------
#: what a hostile store writes: conceal the rest, set the window title, clear the screen, return
#: to the line's start, reorder the text (a bidi override), and C1's single-byte CSI
ESCAPES = ("\x1b[8m", "\x1b]0;all good\x07", "\x1b[2J", "\r", "\u202e", "\x9b8m")


def _control_chars(text: str) -> list[str]:
    import unicodedata

    return [c for c in text if c != "\n" and (unicodedata.category(c) == "Cc" or c in "\u202a\u202b\u202c\u202d\u202e")]


def test_verify_of_a_hostile_store_prints_no_escapes_and_its_verdict_last(tmp_path, ret_sheet, capfd):
    """A store whose events carry terminal escapes in their kind, actor and payload: ``ESC[8m``
    in a problem line hid the "VERIFY FAILED" line that followed. Nothing of the store reaches
    the terminal as a control character, and the verdict is the last line."""
    db = tmp_path / "table.db"
    with open_store(db) as store:
        made = create_table(store, "ret", [SeatSpec("gm", "gm", "Gina")], characters={"c": ret_sheet})
        gm = TableSession.join(store, made.table_id, made.tokens["gm"])
        gm.say("hello")
        gm.close_table()
    conn = sqlite3.connect(db)
    evil = "".join(ESCAPES)
    conn.execute(
        "UPDATE events SET kind = ?, actor = ?, payload = ? WHERE table_id = ? AND version = 2",
        ("character.set" + evil, "gm" + evil, json.dumps({"text": evil}), made.table_id),
    )
    conn.commit()
    conn.close()
    assert cli(["verify", str(db), made.table_id]) == 1
    out, err = capfd.readouterr()
    assert _control_chars(out + err) == []
    assert "\\x1b[8m" in out + err  # shown, harmless, for whoever looks into it
    assert err.rstrip("\n").split("\n")[-1].startswith("VERIFY FAILED")
