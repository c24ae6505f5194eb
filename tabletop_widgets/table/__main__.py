"""``python -m tabletop_widgets.table``: create a table, (re)issue its links, verify its dice.

    python -m tabletop_widgets.table create DB --system ret --seat gm:gm:Alice \\
        --seat bob:player:Bob:c1 --character c1=bob.json [--base URL] [--title T] [--json]
    python -m tabletop_widgets.table links DB TABLE [--seat SEAT ...] [--base URL] [--json]
    python -m tabletop_widgets.table verify DB TABLE [--seed HEX]

``DB`` is a SQLite path (or ``-`` for ``$TABLETOP_DB`` / the default). Tokens are stored only as
hashes, so ``links`` issues *new* tokens (the seats' old links stop working).
Exit status: 0 fine, 1 verification failed, 2 usage or lookup error.
"""
from __future__ import annotations

import argparse
import json
import sys

from .seats import SeatSpec, create_table, link, reissue_token
from .store import StoreError, open_store


def _store(db: str):
    return open_store(None if db == "-" else db)


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tabletop_widgets.table",
                                 description="Shared tables: create, links, verify.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    c = sub.add_parser("create", help="create a table and print its links")
    c.add_argument("db")
    c.add_argument("--system", required=True)
    c.add_argument("--title", default="")
    c.add_argument("--seat", action="append", type=_seat, required=True,
                   help="id:role[:name[:character_id]], role gm|player|observer (repeat)")
    c.add_argument("--character", action="append", type=_character, default=[],
                   help="id=path.json: a character sheet (repeat)")
    c.add_argument("--hidden", action="append", default=[], help="a character id only the GM sees")
    c.add_argument("--table-id", default=None)
    c.add_argument("--base", default="", help="page URL the links start with")
    c.add_argument("--json", action="store_true")

    lk = sub.add_parser("links", help="issue new seat links (old links of those seats stop working)")
    lk.add_argument("db")
    lk.add_argument("table")
    lk.add_argument("--seat", action="append", default=None, help="only these seats (repeat)")
    lk.add_argument("--base", default="")
    lk.add_argument("--json", action="store_true")

    v = sub.add_parser("verify", help="replay the log and check every roll against the revealed seed")
    v.add_argument("db")
    v.add_argument("table")
    v.add_argument("--seed", default=None, help="the secret seed (hex), to check an open table")

    args = ap.parse_args(argv)
    try:
        if args.cmd == "create":
            with _store(args.db) as store:
                made = create_table(store, args.system, args.seat, title=args.title,
                                    characters=dict(args.character), hidden_characters=args.hidden,
                                    table_id=args.table_id)
            links = made.links(args.base)
            if args.json:
                print(json.dumps({"table": made.table_id, "seed_hash": made.seed_hash, "links": links,
                                  "roles": {s.seat: s.role for s in made.seats}}, indent=2))
            else:
                print(f"table {made.table_id} ({args.system}); dice commitment {made.seed_hash}")
                for s in made.seats:
                    print(f"  {s.seat:12} {s.role:8} {links[s.seat]}")
                print("Keep these links: only their hashes are stored.")
            return 0
        if args.cmd == "links":
            with _store(args.db) as store:
                seats = store.seats(args.table)
                wanted = set(args.seat) if args.seat else {s.seat for s in seats}
                unknown = wanted - {s.seat for s in seats}
                if unknown:
                    print(f"error: table {args.table} has no seat(s) {sorted(unknown)}", file=sys.stderr)
                    return 2
                out = {}
                for s in seats:
                    if s.seat in wanted:
                        out[s.seat] = (s.role, link(args.table, reissue_token(store, args.table, s.seat), args.base))
            if args.json:
                print(json.dumps({k: {"role": r, "link": u} for k, (r, u) in out.items()}, indent=2))
            else:
                for seat, (role, url) in out.items():
                    print(f"  {seat:12} {role:8} {url}")
                print("New tokens issued: the previous links of these seats no longer work.")
            return 0
        if args.cmd == "verify":
            from .verify import verify_table
            with _store(args.db) as store:
                try:
                    rep = verify_table(store, args.table, seed_hex=args.seed)
                except ValueError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    return 2
            print(rep.text(), file=sys.stdout if rep.ok else sys.stderr)
            if not rep.ok:
                print("VERIFY FAILED: the log does not match the table's fair-dice seed", file=sys.stderr)
            return 0 if rep.ok else 1
    except (StoreError, KeyError, ValueError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"error: {msg}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
