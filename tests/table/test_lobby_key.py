"""Issue 14, hole 8: the lobby is no longer open. Table creation needs the lobby key (stored
hashed, wrong keys rate-limited across kernels), the no-key mode is only ever explicit, and the
seats and names are bounded in Python whatever a forged widget message sends."""

from __future__ import annotations


import pytest

from tabletop_widgets.table import (
    LobbyKeyError,
    SeatSpec,
    TableSetupError,
    check_lobby_key,
    create_table,
    lobby_mode,
    prepare_lobby_key,
)
from tabletop_widgets.table import lobbykey, open_store
from tabletop_widgets.table.__main__ import main as cli
from tabletop_widgets.table.seats import MAX_NAME, MAX_SEATS

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


def test_no_key_and_no_explicit_choice_refuses(store):
    assert lobby_mode(store) == "unset"
    with pytest.raises(LobbyKeyError) as exc:
        check_lobby_key(store, "anything")
    assert exc.value.code == "not_set" and "make play" in exc.value.message["en"]
    assert "ключа лобби" in exc.value.message["ru"]


def test_prepare_generates_once_and_keeps_it(store, store_url, open_store_at):
    key = prepare_lobby_key(store)
    assert isinstance(key, str) and len(key) >= 22
    assert lobby_mode(store) == "key"
    assert prepare_lobby_key(store_url) is None  # kept: printed only the first time
    check_lobby_key(open_store_at(store_url), key)  # another kernel accepts it
    new = prepare_lobby_key(store, renew=True)
    assert new and new != key
    with pytest.raises(LobbyKeyError):
        check_lobby_key(store, key)
    check_lobby_key(store, new)
    # a chosen key
    assert prepare_lobby_key(store, key="correct horse battery staple") is None
    check_lobby_key(store, "correct horse battery staple")
    with pytest.raises(ValueError):
        prepare_lobby_key(store, key="x", disabled=True)


def test_the_no_key_mode_is_explicit_and_lasts_only_while_asked(store):
    assert prepare_lobby_key(store, disabled=True) is None
    assert lobby_mode(store) == "open"
    check_lobby_key(store, None)  # open: no key needed
    key = prepare_lobby_key(store)  # the next start without the flag
    assert key and lobby_mode(store) == "key"
    with pytest.raises(LobbyKeyError):
        check_lobby_key(store, None)


@SQLITE_ONLY
def test_the_key_is_stored_only_hashed(store, store_url, backend):
    key = prepare_lobby_key(store)
    store.close()
    raw = b"".join(p.read_bytes() for p in __import__("pathlib").Path(store_url).parent.glob("table.db*"))
    assert key.encode() not in raw and b"pbkdf2_sha256$" in raw


def test_wrong_keys_are_refused_and_rate_limited(store, store_url, open_store_at):
    key = prepare_lobby_key(store)
    t = 1_000_000.0
    for i in range(lobbykey.FREE_ATTEMPTS - 1):
        with pytest.raises(LobbyKeyError) as exc:
            check_lobby_key(store, f"guess{i}", now=t + i)
        assert exc.value.code == "wrong_key" and exc.value.retry_after == 0
        assert "Неверный ключ" in exc.value.message["ru"]
    with pytest.raises(LobbyKeyError) as exc:  # the 5th wrong key starts the wait
        check_lobby_key(store, "guess-last", now=t + 10)
    assert exc.value.code == "wrong_key" and exc.value.retry_after == lobbykey.FIRST_WAIT
    assert "try again in 30 s" in exc.value.message["en"]
    # while waiting every attempt is refused, the right key too, in every kernel
    other = open_store_at(store_url)
    for s, k in ((store, key), (other, key), (other, "guess")):
        with pytest.raises(LobbyKeyError) as exc:
            check_lobby_key(s, k, now=t + 20)
        assert exc.value.code == "rate_limited" and 0 < exc.value.retry_after <= 20
    # the wait doubles with each further wrong key
    with pytest.raises(LobbyKeyError) as exc:
        check_lobby_key(store, "guess-again", now=t + 41)
    assert exc.value.retry_after == 2 * lobbykey.FIRST_WAIT
    with pytest.raises(LobbyKeyError):
        check_lobby_key(store, key, now=t + 41 + 59)
    # after the wait the right key opens, and the count starts afresh
    check_lobby_key(store, key, now=t + 41 + 61)
    with pytest.raises(LobbyKeyError) as exc:
        check_lobby_key(store, "oops", now=t + 200)
    assert exc.value.retry_after == 0


def test_lobby_key_cli(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "t.db")
    monkeypatch.delenv("TABLETOP_LOBBY_KEY", raising=False)
    assert cli(["lobby-key", db]) == 0
    out = capsys.readouterr().out
    key = out.split("hashed): ")[1].split()[0]
    assert cli(["lobby-key", db]) == 0
    again = capsys.readouterr().out
    assert key not in again and "already set" in again
    from tabletop_widgets.table import open_store

    with open_store(db) as s:
        check_lobby_key(s, key)
    assert cli(["lobby-key", db, "--no-lobby-key"]) == 0
    assert "NO KEY" in capsys.readouterr().out
    monkeypatch.setenv("TABLETOP_LOBBY_KEY", "our table key")
    assert cli(["lobby-key", db]) == 0
    with open_store(db) as s:
        check_lobby_key(s, "our table key")
    assert cli(["lobby-key", db, "--no-lobby-key"]) == 2  # a key and no key: a usage error
    assert "choose one" in capsys.readouterr().err
    monkeypatch.delenv("TABLETOP_LOBBY_KEY")
    with pytest.raises(SystemExit) as exc:  # argparse: exit 2, no traceback
        cli(["lobby-key", db, "--no-lobby-key", "--new"])
    assert exc.value.code == 2


# --------------------------------------------------------------------------------------------
# bounds, in Python
# --------------------------------------------------------------------------------------------
def test_seat_count_bounded_in_python(store):
    seats = [SeatSpec("gm", "gm")] + [SeatSpec(f"p{i}", "observer") for i in range(300)]
    with pytest.raises(TableSetupError) as exc:
        create_table(store, "ret", seats)
    assert exc.value.code == "too_many_seats" and f"at most {MAX_SEATS}" in str(exc.value)
    assert "301" in exc.value.message["ru"]
    assert store.list_tables() == []  # nothing written
    create_table(store, "ret", seats[:MAX_SEATS])  # the bound itself is fine


@pytest.mark.parametrize(
    "bad, code",
    [
        (dict(seats=[SeatSpec("gm", "gm", "G" * (MAX_NAME + 1))]), "name_too_long"),
        (dict(seats=[SeatSpec("gm", "gm")], title="T" * 121), "title_too_long"),
        (dict(seats=[SeatSpec("gm", "gm"), SeatSpec("p", "player", "P", "c" * 41)]), "bad_character_id"),
    ],
)
def test_names_and_title_bounded(store, bad, code):
    with pytest.raises(TableSetupError) as exc:
        create_table(store, "ret", **bad)
    assert exc.value.code == code and exc.value.message["en"] and exc.value.message["ru"]
    assert store.list_tables() == []


# --------------------------------------------------------------------------------------------
# trust round 3, item 6: parallel guesses are counted before any is checked
# --------------------------------------------------------------------------------------------
GUESSERS = 16


def _guess_at_once(store_url, guess, count: int) -> list[str]:
    """``count`` guesses started together, one store connection each (one lobby page's kernel
    each): the codes they got."""
    import threading

    barrier = threading.Barrier(count)
    codes: list[str] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        store = open_store(store_url)
        try:
            barrier.wait()
            try:
                guess(store, i)
                code = "opened"
            except LobbyKeyError as exc:
                code = exc.code
        finally:
            store.close()
        with lock:
            codes.append(code)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return codes


def test_sixteen_guesses_at_once_try_only_five_keys(store, store_url, monkeypatch):
    """The wait was read, PBKDF2 ran, and only then was the failure counted: sixteen guesses
    started together (a lobby page each) were all tried. An attempt is now counted in the store
    (``update_meta``) before its key is checked."""
    prepare_lobby_key(store)
    checked = []
    real = lobbykey.key_matches

    def counting(key, stored):
        checked.append(key)
        return real(key, stored)

    monkeypatch.setattr(lobbykey, "key_matches", counting)
    codes = _guess_at_once(store_url, lambda s, i: check_lobby_key(s, f"guess-{i}"), GUESSERS)
    assert len(checked) == lobbykey.FREE_ATTEMPTS, checked
    assert sorted(codes) == sorted(["wrong_key"] * lobbykey.FREE_ATTEMPTS + ["rate_limited"] * 11)


@SQLITE_ONLY
def test_sixteen_guessing_processes_try_only_five_keys(store, store_url, backend, tmp_path):
    """The same with a process per guess (kernels are processes)."""
    import subprocess
    import sys

    prepare_lobby_key(store)
    code = (
        "import sys, time\n"
        "from tabletop_widgets.table import open_store, check_lobby_key, LobbyKeyError\n"
        "s = open_store(sys.argv[1])\n"
        "while time.time() < float(sys.argv[2]): time.sleep(0.001)\n"
        "try:\n    check_lobby_key(s, 'guess-' + sys.argv[3]); print('opened')\n"
        "except LobbyKeyError as e:\n    print(e.code)\n"
    )
    import time

    start = time.time() + 8  # every process has started and opened its store by then
    procs = [
        subprocess.Popen([sys.executable, "-c", code, store_url, str(start), str(i)], stdout=subprocess.PIPE, text=True)
        for i in range(GUESSERS)
    ]
    codes = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert codes.count("wrong_key") == lobbykey.FREE_ATTEMPTS, codes
    assert codes.count("rate_limited") == GUESSERS - lobbykey.FREE_ATTEMPTS, codes


def test_the_right_key_among_the_first_five_still_opens_and_resets(store):
    key = prepare_lobby_key(store)
    t = 2_000_000.0
    for i in range(lobbykey.FREE_ATTEMPTS - 1):
        with pytest.raises(LobbyKeyError):
            check_lobby_key(store, f"guess{i}", now=t)
    check_lobby_key(store, key, now=t)  # the fifth attempt: counted, checked, right: the count goes
    for i in range(lobbykey.FREE_ATTEMPTS - 1):
        with pytest.raises(LobbyKeyError) as exc:
            check_lobby_key(store, f"again{i}", now=t + 1)
        assert exc.value.retry_after == 0
