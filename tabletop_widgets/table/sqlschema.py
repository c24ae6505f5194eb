"""The SQL layout of the table stores, shared by SQLite (:mod:`.sqlite`) and PostgreSQL
(:mod:`.postgres`): the schema in either dialect and its migration step, the column lists and
their rows as the store's records, the statements written more than once, and the one event
query with its audience filter.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from . import chain
from .store import ROLES, Event, Request, SeatRecord, SessionInfo, TableInfo

TABLE_COLS = "table_id, system, title, created, seed_hash, seed, closed, options"
SEAT_COLS = "table_id, seat, role, token_hash, character_id, name"
EVENT_COLS = "seq, table_id, version, kind, actor, audience, payload, created, roll, hash"
SNAPSHOT_COLS = "table_id, view, version, seq, state, created"
SESSION_COLS = "table_id, n, seed_hash, seed, started, ended"
REQUEST_COLS = "id, table_id, kind, seat, audience, state, payload, answer, waiting, parent, created, updated"

#: a table's head in one query; no row when the table does not exist
HEAD_SQL = (
    "SELECT COALESCE(MAX(e.version), 0), COALESCE(MAX(e.seq), 0), COALESCE(MAX(e.roll), -1), "
    "(SELECT h.hash FROM events h WHERE h.table_id = t.table_id ORDER BY h.version DESC LIMIT 1) "
    "FROM tables t LEFT JOIN events e ON e.table_id = t.table_id WHERE t.table_id = ? "
    "GROUP BY t.table_id"
)

SCHEMA_TEMPLATE = """
CREATE TABLE IF NOT EXISTS tables (
    table_id   TEXT PRIMARY KEY,
    system     TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    created    {real} NOT NULL,
    seed_hash  TEXT NOT NULL,
    seed       TEXT NOT NULL,            -- hex, secret until closed IS NOT NULL
    closed     {real},
    options    TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS seats (
    table_id     TEXT NOT NULL REFERENCES tables(table_id),
    seat         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ({roles})),
    token_hash   TEXT NOT NULL UNIQUE,   -- hex sha256 of the seat's secret token
    character_id TEXT,
    name         TEXT NOT NULL DEFAULT '',{seat_order}
    rate_tokens  {real},                 -- the seat's rate-limit bucket, shared by its pages
    rate_at      {real},
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS events (
    seq       {seq_key},   -- global total order
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    version   {integer} NOT NULL,                    -- per table: 1, 2, 3 ...
    kind      TEXT NOT NULL,
    actor     TEXT NOT NULL,
    audience  TEXT NOT NULL DEFAULT 'all',         -- 'all' | 'gm' | 'seat:<id>'
    roll      {integer},                             -- fair-dice roll index (roll events only)
    payload   TEXT NOT NULL,                       -- canonical JSON, byte for byte as written
    created   {real} NOT NULL,
    hash      TEXT,                                -- chain hash (see chain.py)
    UNIQUE (table_id, version),
    UNIQUE (table_id, roll)
);
CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, seq);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    view      TEXT NOT NULL,
    version   {integer} NOT NULL,
    seq       {integer} NOT NULL,
    state     TEXT NOT NULL,
    created   {real} NOT NULL,
    PRIMARY KEY (table_id, view, version)
);
CREATE TABLE IF NOT EXISTS tabletop_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    table_id   TEXT NOT NULL REFERENCES tables(table_id),
    n          {integer} NOT NULL,             -- game session number: 1, 2, 3 ...
    seed_hash  TEXT NOT NULL,                -- the session's dice commitment
    seed       TEXT NOT NULL,                -- hex, secret until ended IS NOT NULL
    started    {real} NOT NULL,
    ended      {real},
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS requests (
    id        TEXT PRIMARY KEY,
    table_id  TEXT NOT NULL REFERENCES tables(table_id),
    kind      TEXT NOT NULL,               -- 'odds' | 'attack' | 'defence'
    seat      TEXT NOT NULL,               -- who asked (a defence: who answers)
    audience  TEXT NOT NULL,               -- 'gm' | 'seat:<id>': who may read it
    state     TEXT NOT NULL,               -- 'open' | 'waiting' | 'asked' | 'answered' | 'refused'
    payload   TEXT NOT NULL,
    answer    TEXT,
    waiting   TEXT,
    parent    TEXT,
    created   {real} NOT NULL,
    updated   {real} NOT NULL
);
CREATE INDEX IF NOT EXISTS requests_by_table ON requests (table_id, state)
"""

#: schema 2 -> 3 (game sessions): every table so far is one session, open unless the table closed
SESSIONS_FROM_TABLES = (
    f"INSERT INTO sessions ({SESSION_COLS}) SELECT t.table_id, 1, t.seed_hash, t.seed, t.created, t.closed "
    "FROM tables t WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.table_id = t.table_id)"
)


def upgrade_schema(
    conn: Any,
    version: int,
    schema: Sequence[str],
    *,
    add_hash: str,
    sessions_from_tables: str,
    add_column: str,
    placeholder: str = "?",
) -> None:
    """Bring a store of schema 1, 2 or 3 to this one, inside the caller's write transaction
    (``conn.execute`` runs a statement): a failed upgrade changes nothing. Schema 1 -> 2: the
    chain hash column (``add_hash``, the dialect's ``ALTER TABLE``), the settings table, and
    hashes for the events stored before. Schema 2 -> 3: game sessions; ``CREATE ... IF NOT
    EXISTS`` (``schema``) makes only what is missing (the sessions table), and each table so far
    is its session 1, open unless the table was closed, with the table's seed and commitment
    (``sessions_from_tables``). Schema 3 -> 4: the request table (requests left the log: the old
    request events still open become its rows, :func:`.kinds.legacy.open_requests`) and the
    seats' shared rate-limit columns (``add_column``: the dialect's ``ALTER TABLE ... ADD COLUMN``
    with ``{table}``, ``{column}`` and ``{type}``)."""
    if version == 1:
        conn.execute(add_hash)
        conn.execute("CREATE TABLE IF NOT EXISTS tabletop_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        chain.backfill(conn, placeholder)
    if version <= 3:
        real = "DOUBLE PRECISION" if placeholder == "%s" else "REAL"
        have = set() if placeholder == "%s" else {r[1] for r in conn.execute("PRAGMA table_info(seats)").fetchall()}
        for column in ("rate_tokens", "rate_at"):
            if column not in have:  # (PostgreSQL's ADD COLUMN says IF NOT EXISTS itself)
                conn.execute(add_column.format(table="seats", column=column, type=real))
    for stmt in schema:
        conn.execute(stmt)
    if version <= 2:
        conn.execute(sessions_from_tables)
    if version <= 3:
        requests_from_log(conn, placeholder)


def requests_from_log(conn: Any, placeholder: str = "?") -> None:
    """Schema 3 -> 4: every table's old request events (:mod:`.kinds.legacy`) read once; the
    requests they leave open become rows of the request table, for the resolver to answer."""
    from .kinds import KINDS
    from .kinds.legacy import open_requests

    p = placeholder
    names = [name for name, k in KINDS.items() if k.legacy]
    rows = conn.execute(
        f"SELECT {EVENT_COLS} FROM events WHERE kind IN ({','.join(p for _ in names)}) ORDER BY seq", names
    ).fetchall()
    by_table: dict[str, list[Event]] = {}
    for r in rows:
        e = event_from_row(r)
        by_table.setdefault(e.table_id, []).append(e)
    insert = f"INSERT INTO requests ({REQUEST_COLS}) VALUES ({','.join(p for _ in REQUEST_COLS.split(', '))})"
    for table_id, events in by_table.items():
        for row in open_requests(events):
            conn.execute(
                insert,
                (
                    row["id"],
                    table_id,
                    row["kind"],
                    row["seat"],
                    row["audience"],
                    row["state"],
                    json.dumps(row["payload"], sort_keys=True),
                    None if row["answer"] is None else json.dumps(row["answer"], sort_keys=True),
                    None,
                    row["parent"],
                    row["created"],
                    row["created"],
                ),
            )


def schema_sql(*, seq_key: str, integer: str, real: str, seat_order: str = "") -> list[str]:
    """The store's ``CREATE`` statements in a dialect: ``seq_key`` the global event order's
    column (``INTEGER PRIMARY KEY AUTOINCREMENT``, ``BIGSERIAL PRIMARY KEY``), ``integer`` and
    ``real`` the column types, ``seat_order`` the definition of a column that numbers the seats
    in creation order (none where the rows have one already, like SQLite's ``rowid``)."""
    text = SCHEMA_TEMPLATE.format(
        seq_key=seq_key,
        integer=integer,
        real=real,
        roles=", ".join(repr(r) for r in ROLES),
        seat_order=f"\n    {seat_order}," if seat_order else "",
    )
    return [stmt for stmt in text.split(";") if stmt.strip()]


def check_seat(s: SeatRecord, table_id: str) -> None:
    """Refuse a seat of another table or with an unknown role (``ValueError``)."""
    if s.table_id != table_id:
        raise ValueError(f"seat {s.seat!r} belongs to table {s.table_id!r}, not {table_id!r}")
    if s.role not in ROLES:
        raise ValueError(f"seat {s.seat!r}: role must be one of {ROLES}, not {s.role!r}")


def table_from_row(row) -> TableInfo:
    """A :data:`TABLE_COLS` row as a :class:`TableInfo` (the seed only once it is closed)."""
    table_id, system, title, created, seed_hash, seed, closed, options = row
    return TableInfo(
        table_id=table_id,
        system=system,
        title=title,
        created=created,
        seed_hash=seed_hash,
        closed=closed,
        seed=seed if closed is not None else None,
        options=json.loads(options),
    )


def session_from_row(r) -> SessionInfo:
    """A :data:`SESSION_COLS` row as a :class:`SessionInfo` (the seed only once it ended)."""
    table_id, n, seed_hash, seed, started, ended = r
    return SessionInfo(
        table_id=table_id,
        n=int(n),
        seed_hash=seed_hash,
        started=started,
        ended=ended,
        seed=seed if ended is not None else None,
    )


def request_from_row(r) -> Request:
    """A :data:`REQUEST_COLS` row as a :class:`Request`."""
    rid, table_id, kind, seat, audience, state, payload, answer, waiting, parent, created, updated = r
    return Request(
        id=rid,
        table_id=table_id,
        kind=kind,
        seat=seat,
        audience=audience,
        state=state,
        payload=json.loads(payload),
        answer=None if answer is None else json.loads(answer),
        waiting=None if waiting is None else json.loads(waiting),
        parent=parent,
        created=created,
        updated=updated,
    )


def requests_query(
    table_id: str, audiences: Sequence[str] | None, states: Sequence[str] | None, ids: Sequence[str] | None = None
) -> tuple[str, list[Any]] | None:
    """The one request query, with its audience filter in the SQL (as :func:`events_query`)."""
    query = f"SELECT {REQUEST_COLS} FROM requests WHERE table_id = ?"
    args: list[Any] = [table_id]
    for column, values in (("audience", audiences), ("state", states), ("id", ids)):
        if values is None:
            continue
        values = [str(v) for v in values]
        if not values:
            return None
        query += f" AND {column} IN ({','.join('?' * len(values))})"
        args += values
    return query + " ORDER BY created, id", args


REQUEST_UPSERT = (
    f"INSERT INTO requests ({REQUEST_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) "
    "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, seat = excluded.seat, audience = excluded.audience, "
    "state = excluded.state, payload = excluded.payload, answer = excluded.answer, waiting = excluded.waiting, "
    "parent = excluded.parent, updated = excluded.updated"
)


def request_row(r: Request) -> tuple:
    def dumped(value):
        return None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    return (
        r.id,
        r.table_id,
        r.kind,
        r.seat,
        r.audience,
        r.state,
        dumped(dict(r.payload)),
        dumped(None if r.answer is None else dict(r.answer)),
        dumped(None if r.waiting is None else dict(r.waiting)),
        r.parent,
        float(r.created),
        float(r.updated),
    )


def event_from_row(r) -> Event:
    """An :data:`EVENT_COLS` row as an :class:`Event`."""
    return Event(
        seq=int(r[0]),
        table_id=r[1],
        version=int(r[2]),
        kind=r[3],
        actor=r[4],
        audience=r[5],
        payload=json.loads(r[6]),
        created=r[7],
        roll=None if r[8] is None else int(r[8]),
        hash=r[9] or "",
    )


#: the ``INSERT`` statements the store runs from more than one place (``?`` placeholders)
TABLE_INSERT = f"INSERT INTO tables ({TABLE_COLS}) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (table_id) DO NOTHING"
SESSION_INSERT = f"INSERT INTO sessions ({SESSION_COLS}) VALUES (?,?,?,?,?,?)"
EVENT_INSERT = (
    "INSERT INTO events (table_id, version, kind, actor, audience, roll, payload, created, hash) "
    "VALUES (?,?,?,?,?,?,?,?,?)"
)


def events_query(
    table_id: str, after_seq: int, audiences: Sequence[str] | None, limit: int | None
) -> tuple[str, list[Any]] | None:
    """The one event query: ``(sql, args)`` for the events of ``table_id`` after ``after_seq``
    that ``audiences`` may see (``None``: all), in ``seq`` order, at most ``limit``. The audience
    filter is in the SQL, so rows a reader may not see never reach its process; an empty
    ``audiences`` sees nothing (``None`` instead of a query)."""
    query = f"SELECT {EVENT_COLS} FROM events WHERE table_id = ? AND seq > ?"
    args: list[Any] = [table_id, int(after_seq)]
    if audiences is not None:
        audiences = [str(a) for a in audiences]
        if not audiences:
            return None
        query += f" AND audience IN ({','.join('?' * len(audiences))})"
        args += audiences
    query += " ORDER BY seq"
    if limit is not None:
        query += " LIMIT ?"
        args.append(int(limit))
    return query, args
