"""``python -m tabletop_widgets.table``: create a table, (re)issue its links, verify its dice.

    python -m tabletop_widgets.table create DB --system ret --seat gm:gm:Alice \\
        --seat bob:player:Bob:c1 --character c1=bob.json [--base URL] [--title T] [--json]
    python -m tabletop_widgets.table links DB TABLE [--seat SEAT ...] [--base URL] [--json]
    python -m tabletop_widgets.table verify DB TABLE [--session N] [--commitment HEX] [--head HEX] [--seed HEX]
    python -m tabletop_widgets.table lobby-key DB [--no-lobby-key | --new]
    python -m tabletop_widgets.table backup DB TABLE FILE
    python -m tabletop_widgets.table restore DB FILE [--replace]
    python -m tabletop_widgets.table resolve DB [--once] [--parent PID]

``DB`` is a SQLite path or a ``postgresql://`` URL (or ``-`` for ``$TABLETOP_DB`` / the default).
Tokens are stored only as hashes, so ``links`` issues *new* tokens (the seats' old links stop
working). ``verify --commitment/--head`` take what a player copied from their seat. ``lobby-key``
makes sure the lobby has a key (generated and printed once when there is none; ``$TABLETOP_LOBBY_KEY``
sets a chosen one) or, with ``--no-lobby-key``, records that the lobby runs without one.
``resolve`` answers the seats' requests (an attack's odds, an attack, a defence) until stopped
(``--once``: what waits now; ``--parent``: stop when that process is gone): the resolver
``tabletop-widgets play`` runs beside Voila (:mod:`.resolver`).
Exit status: 0 fine, 1 verification failed, 2 usage, lookup or I/O error (never a traceback).

Everything printed passes through :func:`terminal_safe`: a store or a backup file is data from
whoever could write it, and a terminal obeys control characters (``ESC[8m`` conceals the lines
that follow, ``ESC]0;`` sets the window title, ``\r`` overwrites a line). ``verify`` prints its
verdict last, after the report, on its own line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata

from .seats import SeatSpec, create_table, link, reissue_token
from .store import StoreError, open_store


#: characters that reorder the text a terminal shows (bidi embeddings, overrides, isolates)
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def terminal_safe(text: object) -> str:
    """``text`` with every control character but the newline (C0, DEL, C1) and every bidi control
    shown as its escape (``\\x1b``, ``\\u202e``): harmless on a terminal, visible to whoever
    looks into the store."""
    out = []
    for c in str(text):
        if c != "\n" and (unicodedata.category(c) == "Cc" or c in _BIDI):
            out.append(f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "".join(out)


def say(text: object = "", *, err: bool = False) -> None:
    """Print one message, terminal-safe (see :func:`terminal_safe`)."""
    stream = sys.stderr if err else sys.stdout
    print(terminal_safe(text), file=stream, flush=True)


def _store(db: str, *, create: bool = False):
    """Open the store; only ``create`` makes a new SQLite file (verify and links never do)."""
    where = None if db == "-" else db
    if not create:
        from pathlib import Path
        from .store import default_db_path

        text = str(where) if where is not None else (os.environ.get("TABLETOP_DB") or str(default_db_path()))
        if not text.startswith(("postgresql://", "postgres://")):
            path = Path(text[len("sqlite:///") :] if text.startswith("sqlite:///") else text).expanduser()
            if not path.exists():
                raise StoreError(f"{path}: no table store there (check the path)")
    return open_store(where)


def _seat(text: str) -> SeatSpec:
    parts = text.split(":")
    if len(parts) < 2 or len(parts) > 4:
        raise argparse.ArgumentTypeError(f"seat must be id:role[:name[:character_id]], not {text!r}")
    seat, role = parts[0], parts[1]
    name = parts[2] if len(parts) > 2 else ""
    character = parts[3] if len(parts) > 3 and parts[3] else None
    return SeatSpec(seat, role, name, character)


def _character(text: str) -> tuple[str, dict]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"character must be id=path.json, not {text!r}")
    cid, path = text.split("=", 1)
    try:
        with open(path, encoding="utf-8") as f:
            return cid, json.load(f)
    except (OSError, ValueError) as exc:
        raise argparse.ArgumentTypeError(f"{path}: {exc}") from None


def _add_create(sub) -> None:
    c = sub.add_parser("create", help="create a table and print its links")
    c.add_argument("db")
    c.add_argument("--system", required=True)
    c.add_argument("--title", default="")
    c.add_argument(
        "--seat",
        action="append",
        type=_seat,
        required=True,
        help="id:role[:name[:character_id]], role gm|player|observer (repeat)",
    )
    c.add_argument(
        "--character", action="append", type=_character, default=[], help="id=path.json: a character sheet (repeat)"
    )
    c.add_argument("--hidden", action="append", default=[], help="a character id only the GM sees")
    c.add_argument("--table-id", default=None)
    c.add_argument("--base", default="", help="page URL the links start with")
    c.add_argument("--json", action="store_true")


def _add_links(sub) -> None:
    lk = sub.add_parser("links", help="issue new seat links (old links of those seats stop working)")
    lk.add_argument("db")
    lk.add_argument("table")
    lk.add_argument("--seat", action="append", default=None, help="only these seats (repeat)")
    lk.add_argument("--base", default="")
    lk.add_argument("--json", action="store_true")


def _add_verify(sub) -> None:
    v = sub.add_parser("verify", help="replay the log and check every roll against the revealed seed")
    v.add_argument("db")
    v.add_argument("table")
    v.add_argument(
        "--session",
        type=int,
        default=None,
        help="the game session to check (from 1); default: every session that has ended",
    )
    v.add_argument("--seed", default=None, help="the secret seed (hex), to check a session still open")
    v.add_argument(
        "--commitment", default=None, help="the dice commitment you copied from your seat: must be this table's"
    )
    v.add_argument("--head", default=None, help="the head hash you copied from your seat: must be a link of this log")


def _add_lobby_key(sub) -> None:
    lb = sub.add_parser("lobby-key", help="make sure the lobby asks for a key (print a new one once)")
    lb.add_argument("db")
    mode = lb.add_mutually_exclusive_group()
    mode.add_argument(
        "--no-lobby-key",
        action="store_true",
        help="let anyone who reaches the server create tables (explicit no-key mode)",
    )
    mode.add_argument("--new", action="store_true", help="replace the key with a new one")


def _add_backup_restore(sub) -> None:
    bk = sub.add_parser("backup", help="write a campaign to one file (JSON lines with a manifest of hashes)")
    bk.add_argument("db")
    bk.add_argument("table")
    bk.add_argument("file")

    rs = sub.add_parser("restore", help="restore a campaign from a backup file (checked first)")
    rs.add_argument("db")
    rs.add_argument("file")
    rs.add_argument(
        "--replace",
        action="store_true",
        help="put the backup in the place of the table if the store has it (only a backup of that "
        "table's own log, earlier or later; its seats keep the store's links; stop its pages first)",
    )


def _add_resolve(sub) -> None:
    rv = sub.add_parser("resolve", help="answer the seats' requests on the server (what `play` runs beside Voila)")
    rv.add_argument("db")
    rv.add_argument("--once", action="store_true", help="answer what waits now, then stop")
    rv.add_argument("--parent", type=int, default=None, help="stop when the process with this id is gone")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tabletop_widgets.table", description="Shared tables: create, links, verify."
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    for add in (_add_create, _add_links, _add_verify, _add_lobby_key, _add_backup_restore, _add_resolve):
        add(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (StoreError, KeyError, ValueError, OSError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        say(f"error: {msg}", err=True)
        return 2
    except Exception as exc:  # a driver's own error (sqlite3, psycopg...): still no traceback
        say(f"error: {type(exc).__name__}: {exc}", err=True)
        return 2


def _create(args) -> int:
    with _store(args.db, create=True) as store:
        made = create_table(
            store,
            args.system,
            args.seat,
            title=args.title,
            characters=dict(args.character),
            hidden_characters=args.hidden,
            table_id=args.table_id,
        )
    links = made.links(args.base)
    if args.json:
        say(
            json.dumps(
                {
                    "table": made.table_id,
                    "seed_hash": made.seed_hash,
                    "links": links,
                    "roles": {s.seat: s.role for s in made.seats},
                },
                indent=2,
            )
        )
    else:
        say(f"table {made.table_id} ({args.system}); dice commitment {made.seed_hash}")
        for s in made.seats:
            say(f"  {s.seat:12} {s.role:8} {links[s.seat]}")
        say("Keep these links: only their hashes are stored.")
    return 0


def _links(args) -> int:
    with _store(args.db) as store:
        seats = store.seats(args.table)
        wanted = set(args.seat) if args.seat else {s.seat for s in seats}
        unknown = wanted - {s.seat for s in seats}
        if unknown:
            say(f"error: table {args.table} has no seat(s) {sorted(unknown)}", err=True)
            return 2
        out = {}
        for s in seats:
            if s.seat in wanted:
                out[s.seat] = (s.role, link(args.table, reissue_token(store, args.table, s.seat), args.base))
    if args.json:
        say(json.dumps({k: {"role": r, "link": u} for k, (r, u) in out.items()}, indent=2))
    else:
        for seat, (role, url) in out.items():
            say(f"  {seat:12} {role:8} {url}")
        say("New tokens issued: the previous links of these seats no longer work.")
    return 0


def _verify(args) -> int:
    from .verify import verify_table

    with _store(args.db) as store:
        rep = verify_table(
            store, args.table, args.session, seed_hex=args.seed, commitment=args.commitment, head=args.head
        )
    say(rep.text(), err=not rep.ok)
    if not rep.ok:  # last, on a line of its own; nothing before it can hide it (terminal_safe)
        say(
            "VERIFY FAILED: the log was changed, or does not match the table's fair-dice seed or what you saved",
            err=True,
        )
    return 0 if rep.ok else 1


def _backup(args) -> int:
    from .backup import backup_campaign

    with _store(args.db) as store:
        info = backup_campaign(store, args.table, args.file)
    say(
        f"campaign {info.table_id} ({info.title or info.system}): {info.events} events, "
        f"{info.sessions} session(s) written to {args.file} (keep it private: it holds the dice seeds)"
    )
    return 0


def _restore(args) -> int:
    from .backup import restore_campaign

    with _store(args.db, create=True) as store:
        info = restore_campaign(store, args.file, replace=args.replace)
    done = "restored, replacing the table the store had" if info.replaced else "restored"
    say(f"campaign {info.table_id} ({info.title or info.system}): {info.events} events {done}; head {info.head}")
    return 0


def _lobby_key(args) -> int:
    from .lobbykey import prepare_lobby_key

    key = os.environ.get("TABLETOP_LOBBY_KEY") or None
    if args.no_lobby_key and key:
        raise ValueError("TABLETOP_LOBBY_KEY is set and --no-lobby-key given: choose one")
    with _store(args.db, create=True) as store:
        made = prepare_lobby_key(store, key=key, disabled=args.no_lobby_key, renew=args.new)
    if args.no_lobby_key:
        say("  Lobby: NO KEY (--no-lobby-key): anyone who reaches this server can create tables.")
    elif made:
        say(f"  Lobby key (shown once, stored only hashed): {made}")
    elif key:
        say("  Lobby key: set from TABLETOP_LOBBY_KEY.")
    else:
        say("  Lobby key: already set (stored hashed; `lobby-key --new` replaces it).")
    return 0


def _resolve(args) -> int:
    import logging
    import signal
    import threading

    from .resolver import Resolver

    logging.basicConfig(level=logging.INFO, format="[resolver %(levelname)s] %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with _store(args.db, create=True) as store:
        resolver = Resolver(store)
        if args.once:
            print(f"{resolver.run_once()} request(s) answered")
            return 0
        try:
            resolver.run(stop, parent=args.parent)
        except KeyboardInterrupt:
            pass
    return 0


#: each subcommand's step
COMMANDS = {
    "resolve": _resolve,
    "create": _create,
    "links": _links,
    "verify": _verify,
    "backup": _backup,
    "restore": _restore,
    "lobby-key": _lobby_key,
}


def _run(args) -> int:
    command = COMMANDS.get(args.cmd)
    return command(args) if command is not None else 2


if __name__ == "__main__":
    sys.exit(main())
