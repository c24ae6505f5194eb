"""The ``tabletop-widgets`` command in-process: its version, its ``play`` settings and errors (the
served pages themselves are tested from an installed wheel in ``tests/ui/test_wheel_ui.py``), and
``verify`` answering exactly as ``python -m tabletop_widgets.table verify``."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import tabletop_widgets
from tabletop_widgets import cli
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.table.__main__ import main as table_main
from helpers import one_die_changed

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_package_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"tabletop-widgets {tabletop_widgets.__version__}"


def test_version_has_one_source():
    """pyproject reads the version from the package; the changelog names the released one."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in text and 'version = {attr = "tabletop_widgets.__version__"}' in text
    assert f"## [{tabletop_widgets.__version__}]" in (ROOT / "CHANGELOG.md").read_text()


def test_python_dash_m_runs_the_same_command(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "tabletop_widgets", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and r.stdout.strip() == f"tabletop-widgets {tabletop_widgets.__version__}"


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main([])
    assert exit_.value.code == 2
    assert "play" in capsys.readouterr().err


def test_the_dashboards_are_in_the_package():
    folder = cli.notebooks_dir()
    for page in ("index.ipynb", "dice.ipynb", "lobby.ipynb", "table.ipynb", "play_ret.ipynb", "gallery/sheet.ipynb"):
        assert (folder / page).is_file(), page
    # the shipped Voila settings are the repository's voila.json (one source)
    assert json.loads((folder / "voila.json").read_text()) == json.loads((ROOT / "voila.json").read_text())


def test_voila_waits_for_a_heavy_cells_output():
    """nbclient drops whatever a cell sends more than ``iopub_timeout`` seconds (4 by default) after
    the kernel's "done" reply. A sheet cell sends over a thousand widget messages before its output,
    and on a loaded machine they trail the reply by longer: the page opened without its sheet (seen
    in CI, reproduced with six play pages at once; "Timeout waiting for IOPub output" in Voila's log)."""
    settings = json.loads((ROOT / "voila.json").read_text())["VoilaExecutor"]
    assert settings["iopub_timeout"] >= 60
    assert settings["iopub_timeout"] >= settings["timeout"]


def test_play_settings_default_and_voila_arguments():
    args = cli.build_parser().parse_args(["play"])
    settings = cli.PlaySettings.from_args(args)
    assert settings == cli.PlaySettings(host="127.0.0.1", port=8866, db=None, voila_args=())
    assert (settings.lobby_key, settings.no_lobby_key, settings.new_lobby_key, settings.no_preheat) == (
        None,
        False,
        False,
        False,
    )
    argv = settings.voila_argv(Path("/pages"))
    assert argv[0] == "/pages" and "--no-browser" in argv and "--port=8866" in argv
    assert "--Voila.ip=127.0.0.1" in argv and "--Voila.port_retries=0" in argv

    args = cli.build_parser().parse_args(
        ["play", "--host", "0.0.0.0", "--port", "9000", "--db", "x.db", "--", "--theme=dark"]
    )
    settings = cli.PlaySettings.from_args(args)
    assert (settings.host, settings.port, settings.db, settings.voila_args) == (
        "0.0.0.0",
        9000,
        "x.db",
        ("--theme=dark",),
    )
    assert settings.voila_argv(Path("/p"))[-1] == "--theme=dark"


def test_max_kernels_reaches_the_kernel_manager_and_is_checked(capsys):
    """``play --max-kernels N``: the server-wide cap on kernels (trust round 3, item 15)."""
    settings = cli.PlaySettings.from_args(cli.build_parser().parse_args(["play", "--max-kernels", "12"]))
    assert "--PageKernelManager.max_kernels=12" in settings.voila_argv(Path("/p"))
    default = cli.PlaySettings.from_args(cli.build_parser().parse_args(["play"]))
    assert not any("max_kernels" in a for a in default.voila_argv(Path("/p")))  # sized from memory
    for bad in ("0", "-3", "many"):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args(["play", "--max-kernels", bad])
        assert "number of kernels" in capsys.readouterr().err


def test_play_serves_the_pages_with_the_template_that_asks_no_cdn():
    """The first evening, item 15: every page asked a CDN for Font Awesome (a console error
    offline). ``play`` serves them with the ``tabletop`` template, shipped in the package."""
    argv = cli.PlaySettings().voila_argv(Path("/p"))
    assert "--VoilaConfiguration.template=tabletop" in argv
    template = cli.templates_dir() / "voila" / "templates" / "tabletop"
    assert json.loads((template / "conf.json").read_text())["base_template"] == "lab"
    for name in ("index.html.j2", "page.html"):
        text = (template / name).read_text()
        assert "cdn." not in text and "https://" not in text


@pytest.mark.parametrize("port", ["0", "65536", "-1", "http", "80.5", ""])
def test_a_bad_port_is_refused_with_the_reason(port, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["play", "--port", port])
    assert exit_.value.code == 2
    assert "the port must be a whole number from 1 to 65535" in capsys.readouterr().err


def test_messages_follow_the_locale(monkeypatch, capsys):
    assert cli.locale_from_env({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert cli.locale_from_env({"LC_ALL": "en_US.UTF-8", "LANG": "ru_RU.UTF-8"}) == "en"
    assert cli.locale_from_env({}) == "en"
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    with pytest.raises(SystemExit):
        cli.main(["play", "--port", "0"])
    assert "порт — целое число от 1 до 65535" in capsys.readouterr().err


def test_every_message_exists_in_english_and_russian():
    for key, text in cli.TEXTS.items():
        assert set(text) == {"en", "ru"} and all(text.values()), key
        assert text["en"] != text["ru"], key
    for _, label in cli.START_PAGES:
        assert label["en"] and label["ru"]


def test_db_paths_are_made_absolute_and_urls_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.normalise_db("t/table.db") == str(tmp_path / "t" / "table.db")
    assert cli.normalise_db("sqlite:///rel.db") == str(tmp_path / "rel.db")
    assert cli.normalise_db("a/../b/table.db") == str(tmp_path / "b" / "table.db")
    url = "postgresql://u:p@db.example:5432/tabletop"
    assert cli.normalise_db(url) == url
    env = cli.PlaySettings(db="t/table.db").environment({"KEEP": "1"})
    assert env == {
        "KEEP": "1",
        "TABLETOP_DB": str(tmp_path / "t" / "table.db"),
        "VOILA_APP_IP": "127.0.0.1",
        "JUPYTER_PATH": str(cli.templates_dir()),  # the pages' Voila template
    }
    assert cli.PlaySettings().environment({"JUPYTER_PATH": "/mine"})["JUPYTER_PATH"].endswith(os.pathsep + "/mine")
    assert cli.PlaySettings().environment({"TABLETOP_DB": "/x.db"})["TABLETOP_DB"] == "/x.db"
    with pytest.raises(cli.CommandError, match="--db is empty"):
        cli.normalise_db("  ")


def test_the_store_folder_is_created_or_the_reason_given(tmp_path):
    db = tmp_path / "a" / "b" / "table.db"
    cli.prepare_store_folder(str(db))
    assert db.parent.is_dir() and not db.exists()
    assert (db.parent.stat().st_mode & 0o777) == 0o700  # private, like the store makes it
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(cli.CommandError, match="cannot create the folder"):
        cli.prepare_store_folder(str(blocker / "sub" / "table.db"))
    cli.prepare_store_folder("postgresql://u@h/db")  # nothing to create


def _play(*argv):
    return cli.PlaySettings.from_args(cli.build_parser().parse_args(["play", *argv]))


def test_play_sets_the_lobby_key_once_and_keeps_it(tmp_path):
    from tabletop_widgets.table.lobbykey import LobbyKeyError, check_lobby_key, lobby_mode

    db = str(tmp_path / "t.db")
    first = cli.prepare_lobby(_play(), db, {})
    assert first.startswith("Lobby key (shown once")
    key = first.rsplit(": ", 1)[1]
    with open_store(db) as store:
        assert lobby_mode(store) == "key"
        check_lobby_key(store, key)  # the printed key opens the lobby
        with pytest.raises(LobbyKeyError):
            check_lobby_key(store, key + "x")
    # the next start keeps it and prints no key
    again = cli.prepare_lobby(_play(), db, {})
    assert again.startswith("Lobby key: already set") and key not in again
    with open_store(db) as store:
        check_lobby_key(store, key)
    # a chosen key (argument or environment) replaces it
    assert cli.prepare_lobby(_play("--lobby-key", "table-night"), db, {}) == "Lobby key: set as given (stored hashed)."
    cli.prepare_lobby(_play(), db, {"TABLETOP_LOBBY_KEY": "from-env"})
    with open_store(db) as store:
        check_lobby_key(store, "from-env")
        with pytest.raises(LobbyKeyError):
            check_lobby_key(store, "table-night")


def test_play_without_a_lobby_key_is_explicit(tmp_path):
    from tabletop_widgets.table.lobbykey import check_lobby_key, lobby_mode

    db = str(tmp_path / "t.db")
    line = cli.prepare_lobby(_play("--no-lobby-key"), db, {})
    assert "NO KEY" in line and "anyone" in line
    with open_store(db) as store:
        assert lobby_mode(store) == "open"
        check_lobby_key(store, None)
    # without the option the next start puts a key back
    assert cli.prepare_lobby(_play(), db, {}).startswith("Lobby key (shown once")
    with pytest.raises(cli.CommandError, match="not both"):
        cli.prepare_lobby(_play("--no-lobby-key"), db, {"TABLETOP_LOBBY_KEY": "k"})
    with pytest.raises(SystemExit):  # argparse: not allowed together
        _play("--no-lobby-key", "--lobby-key", "k")


def test_play_refuses_a_store_that_is_not_ours(tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (t TEXT)")
    before = other.read_bytes()
    with pytest.raises(cli.CommandError, match="cannot open the table store"):
        cli.prepare_lobby(_play(), str(other), {})
    assert other.read_bytes() == before


def test_play_s_errors_print_no_terminal_escapes(tmp_path, capsys):
    """A foreign database's table names are quoted in the refusal: they reached the terminal raw
    (trust round 3, item 12)."""
    import unicodedata

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute('CREATE TABLE "notes\x1b[8m\x1b]0;ok\x07" (t TEXT)')
    assert cli.main(["play", "--port", "1", "--db", str(other)]) == 2
    err = capsys.readouterr().err
    assert "another program" in err and "\\x1b[8m" in err
    assert [c for c in err if c != "\n" and unicodedata.category(c) == "Cc"] == []


def test_a_busy_port_is_refused_before_voila_starts(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = cli.main(["play", "--port", str(port), "--db", str(tmp_path / "t.db")])
    assert code == 2
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err


def test_banner_names_the_pages_and_the_store():
    text = cli.banner(cli.PlaySettings(port=9001), "/data/table.db")
    assert "http://127.0.0.1:9001/voila/render/index.ipynb" in text
    assert "http://127.0.0.1:9001/voila/render/lobby.ipynb" in text
    assert "/data/table.db" in text
    ru = cli.banner(cli.PlaySettings(port=9001), "/data/table.db", "ru")
    assert "Новый стол:" in ru and "хранилище столов: /data/table.db" in ru


# -- verify: the table CLI's arguments and exit status -------------------------------------------


@pytest.fixture
def closed_table(tmp_path):
    db = str(tmp_path / "table.db")
    with open_store(db) as store:
        made = create_table(store, "ret", [SeatSpec("gm", "gm"), SeatSpec("bob", "player", "Bob")])
    gm = TableSession.join(open_store(db), made.table_id, made.tokens["gm"])
    bob = TableSession.join(open_store(db), made.table_id, made.tokens["bob"])
    rolls = [gm.roll("2d6+3"), bob.roll("4d6kh3"), gm.roll("1d20", hidden=True)]
    gm.close_table()
    return db, made.table_id, rolls


def _both(argv, capsys):
    """Exit status and output of the table CLI and of ``tabletop-widgets``, for the same argv."""
    a = table_main(["verify", *argv])
    out_a = capsys.readouterr()
    b = cli.main(["verify", *argv])
    out_b = capsys.readouterr()
    return (a, out_a.out, out_a.err), (b, out_b.out, out_b.err)


def test_verify_matches_the_table_cli(closed_table, capsys):
    db, table_id, rolls = closed_table
    ours, theirs = _both([db, table_id], capsys)
    assert ours == theirs and ours[0] == 0 and "OK" in ours[1]

    ours, theirs = _both([db, "no-such-table"], capsys)
    assert ours == theirs and ours[0] == 2

    # a changed die is caught the same way
    e = rolls[1]
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(one_die_changed(e)), e.seq))
    conn.commit()
    conn.close()
    ours, theirs = _both([db, table_id], capsys)
    assert ours == theirs and ours[0] == 1 and "VERIFY FAILED" in ours[2]


def test_verify_usage_errors_match(capsys):
    with pytest.raises(SystemExit) as a:
        table_main(["verify"])
    err_a = capsys.readouterr().err
    with pytest.raises(SystemExit) as b:
        cli.main(["verify"])
    err_b = capsys.readouterr().err
    assert a.value.code == b.value.code == 2
    assert err_a == err_b and "required" in err_a


def test_play_without_voila_says_how_to_get_it(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "voila.app", None)  # as if the voila extra were not installed
    code = cli.main(["play", "--db", str(tmp_path / "t.db")])
    assert code == 2
    assert "serving the pages needs Voila: pip install 'tabletop-widgets[voila]'" in capsys.readouterr().err
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize(
    "host, reached_at",
    [
        ("127.0.0.1", "127.0.0.1"),
        ("0.0.0.0", "127.0.0.1"),
        ("::", "127.0.0.1"),
        ("192.168.1.20", "192.168.1.20"),
        ("::1", "[::1]"),
        ("[::1]", "[::1]"),
        ("table.local", "table.local"),
    ],
)
def test_preheated_table_kernels_reach_the_server_where_it_listens(host, reached_at):
    """A preheated table kernel asks Voila for its page's request at ``VOILA_APP_IP`` (Voila
    assumes 127.0.0.1): a server listening on one address only is reached there."""
    assert cli.PlaySettings(host=host).environment({})["VOILA_APP_IP"] == reached_at


def test_kernels_are_kept_ready_for_the_play_pages_and_the_table_page_only():
    """``make play`` preheats: two kernels per play page (their notebook run) and two for the table
    page (waiting for the seat's request), a taken one replaced when the server is quiet; no other
    notebook gets one (Voila's default would give every notebook of the folder a pool, the lobby's
    and the tutorial's included)."""
    config = json.loads((ROOT / "voila.json").read_text())
    assert config["VoilaConfiguration"]["preheat_kernel"] is True
    pools = config["VoilaKernelManager"]["kernel_pools_config"]
    assert pools.pop("default") == {"pool_size": 0}
    expected = {f"play_{slug}.ipynb" for slug in ("ret", "seasons", "life_and_death", "threads_of_fate")}
    assert set(pools) == expected | {"table.ipynb"}
    assert all(pool == {"pool_size": 2, "refill_when_quiet": True} for pool in pools.values())
    assert all((cli.notebooks_dir() / name).is_file() for name in pools)


def test_no_preheat_turns_the_ready_kernels_off():
    settings = cli.PlaySettings.from_args(cli.build_parser().parse_args(["play", "--no-preheat"]))
    assert settings.no_preheat is True
    assert "--VoilaConfiguration.preheat_kernel=False" in settings.voila_argv(Path("/p"))
    assert not any("preheat" in a for a in cli.PlaySettings().voila_argv(Path("/p")))


# -- the first evening, item 15: a quieter `make play` ------------------------------------------
FAKE_PYTHON = """#!/bin/sh
# pip: what a machine's pip config makes it print (a hundred warnings); else: say how it was run
if [ "$1 $2" = "-m pip" ]; then
  i=0
  while [ $i -lt 100 ]; do
    echo "WARNING: Location 'file:///opt/pypi-more/simple' is ignored: it is neither a file nor a directory." >&2
    i=$((i + 1))
  done
  exit "${FAKE_PIP_EXIT:-0}"
fi
echo "RAN $*"
"""


def _make_play(tmp_path, **env):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    for stamp in venv.glob(".stamp-*"):
        stamp.unlink()
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "play", f"VENV={venv}", f"TABLETOP_DB={tmp_path / 't.db'}"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


def test_make_play_prints_none_of_pip_s_output(tmp_path):
    """``make play`` printed about a hundred pip warnings before the server's lines. pip's output
    now goes to a log; one line says where; the server's command is not echoed either."""
    run = _make_play(tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "WARNING" not in out and out.count("\n") <= 3, out
    assert "pip-voila.log" in out and "RAN -m tabletop_widgets play --host" in out
    assert (tmp_path / "venv" / "pip-voila.log").read_text().count("WARNING") == 100
    assert "python -m tabletop_widgets" not in out.replace("RAN -m tabletop_widgets", "")


def test_make_play_shows_pip_s_output_when_it_fails(tmp_path):
    run = _make_play(tmp_path, FAKE_PIP_EXIT="1")
    out = run.stdout + run.stderr
    assert run.returncode != 0 and "pip failed" in out and "pip-voila.log" in out
    assert "WARNING" in out and "RAN" not in out  # the end of pip's log; the server is not started
