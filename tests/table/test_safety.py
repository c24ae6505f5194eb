"""The safety tools (issue 34, part 4): the X-card, tapped anonymously (nothing in the store ties
a tap to a seat), bounded for the whole table, and the campaign's lines and veils (the GM's to
edit, every seat's to read)."""

from __future__ import annotations

import sqlite3

import pytest

from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.table.kinds import X_CARD
from tabletop_widgets.table.rules import PlayError
from tabletop_widgets.table.seats import SeatError, hash_token, set_table_option
from tabletop_widgets.table.session_safety import MAX_SAFETY_TEXT, XCARD_BURST, XCARD_REFILL
from tabletop_widgets.table.transcript import session_transcript

SEATS = [
    SeatSpec("gm", "gm", "Gail"),
    SeatSpec("p1", "player", "Pat"),
    SeatSpec("p2", "player", "Quinn"),
    SeatSpec("o1", "observer", "Olga"),
]


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table(tmp_path):
    path = str(tmp_path / "table.db")
    store = open_store(path)
    made = create_table(store, "ret", SEATS, title="Safe table")
    stores = [store]
    clock = Clock()

    def join(seat):
        s = open_store(path)
        stores.append(s)
        return TableSession.join(s, made.table_id, made.tokens[seat], clock=clock, wall_clock=clock)

    yield path, made, join, clock
    for s in stores:
        s.close()


def every_value(path: str) -> list[tuple[str, str, str]]:
    """(table, column, value as text) of every cell of every table of the SQLite file."""
    conn = sqlite3.connect(path)
    try:
        out = []
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in names:
            cur = conn.execute(f'SELECT * FROM "{name}"')
            cols = [d[0] for d in cur.description]
            for row in cur.fetchall():
                out.extend((name, col, "" if v is None else str(v)) for col, v in zip(cols, row))
        return out
    finally:
        conn.close()


def rows(path: str, table: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
    finally:
        conn.close()


def test_a_tap_reaches_the_gm_without_a_name_and_no_other_seat(table):
    path, made, join, clock = table
    gm, p1, p2, o1 = (join(s) for s in ("gm", "p1", "p2", "o1"))
    event = p1.x_card()
    assert event.actor == "table" and dict(event.payload) == {} and event.audience == "gm"
    for s in (gm, p1, p2, o1):
        s.poll()
    assert gm.x_cards() == 1
    assert p1.x_cards() == p2.x_cards() == o1.x_cards() == 0
    assert not [e for e in p2.events() if e.kind == X_CARD.name]
    line = [e for e in gm.state.log if e.get("kind") == X_CARD.name]
    assert len(line) == 1 and line[0]["actor"] == "table"


def test_nothing_in_the_store_ties_a_tap_to_the_seat(table):
    path, made, join, clock = table
    gm, p1 = join("gm"), join("p1")
    p1.say("hello")  # the seat's bucket holds something
    seats_before, requests_before, snaps_before = rows(path, "seats"), rows(path, "requests"), rows(path, "snapshots")
    before = set(every_value(path))
    clock.now += 7.25
    p1.x_card()
    gm.poll()
    new = [cell for cell in every_value(path) if cell not in before]
    token = made.tokens["p1"]
    secrets = ("p1", "Pat", token, hash_token(token), "seat:p1")
    for table_name, column, value in new:
        for secret in secrets:
            assert secret not in value, f"{table_name}.{column} holds {secret!r}: {value[:80]}"
    # the seat's row (its rate bucket), the requests and the snapshots did not change
    assert rows(path, "seats") == seats_before
    assert rows(path, "requests") == requests_before and rows(path, "snapshots") == snaps_before
    # what is new: the event itself (and the table-wide bucket)
    assert {t for t, _c, _v in new} <= {"events", "tabletop_meta", "sqlite_sequence"}


def test_the_gm_may_show_a_tap_on_every_page(table):
    path, made, join, clock = table
    gm, p1, p2, o1 = (join(s) for s in ("gm", "p1", "p2", "o1"))
    set_table_option(gm, "x_card_public", True)
    for s in (p1, p2, o1):
        s.poll()
    o1.x_card()  # an observer may tap too
    for s in (gm, p1, p2, o1):
        s.poll()
        assert s.x_cards() == 1
    gm.end_session()
    text = session_transcript(p2, 1)
    assert "Someone tapped the X-card" in text and "Olga" not in text.split("X-card")[0][-200:]
    assert "Кто-то коснулся Х-карты" in session_transcript(p2, 1, locale="ru")


def test_taps_are_bounded_for_the_whole_table_and_per_page(table):
    path, made, join, clock = table
    p1, p2, o1, gm = join("p1"), join("p2"), join("o1"), join("gm")
    p1.x_card()
    with pytest.raises(PlayError) as err:
        p1.x_card()  # the page's own cooldown
    assert err.value.code == "x_card_rate" and "Подождите" in err.value.message["ru"]
    p2.x_card()
    o1.x_card()
    assert XCARD_BURST == 3
    with pytest.raises(PlayError):
        gm.x_card()  # the table's bucket is empty, whoever taps
    gm.poll()
    assert gm.x_cards() == 3
    clock.now += XCARD_REFILL
    gm.x_card()
    gm.poll()
    assert gm.x_cards() == 4


def test_a_replaced_link_taps_nothing(table):
    path, made, join, clock = table
    gm, p1 = join("gm"), join("p1")
    gm.reissue_seat("p1")
    with pytest.raises(SeatError) as err:
        p1.x_card()
    assert err.value.code == "link_replaced"
    gm.poll()
    assert gm.x_cards() == 0


def test_lines_and_veils_are_the_gms_to_set_and_everyones_to_read(table):
    path, made, join, clock = table
    gm, p1, o1 = join("gm"), join("p1"), join("o1")
    assert p1.lines_and_veils() == {"lines": [], "veils": []}
    gm.set_lines_and_veils(["harm to children", "  "], ["torture", "romance   scenes"])
    for s in (p1, o1):
        s.poll()
        assert s.lines_and_veils() == {"lines": ["harm to children"], "veils": ["torture", "romance scenes"]}
    with pytest.raises(PermissionDenied) as err:
        p1.set_lines_and_veils(["mine"], [])
    assert "ведущий" in err.value.message["ru"]
    with pytest.raises(PermissionDenied):
        o1.set_lines_and_veils([], [])


@pytest.mark.parametrize(
    "lines,veils",
    [
        ("a string", []),
        ([1, 2], []),
        (["x" * (MAX_SAFETY_TEXT + 1)], []),
        ([], ["v"] * 41),
        (None, []),
        ([["nested"]], []),
    ],
)
def test_bad_lines_and_veils_are_refused_and_nothing_is_written(table, lines, veils):
    path, made, join, clock = table
    gm = join("gm")
    version = gm.state.version
    with pytest.raises(PlayError) as err:
        gm.set_lines_and_veils(lines, veils)
    assert err.value.message["en"] and err.value.message["ru"]
    assert gm.store.head(made.table_id).version == version


def test_a_tap_is_not_recordable_by_hand(table):
    path, made, join, clock = table
    p1 = join("p1")
    with pytest.raises(PermissionDenied):
        p1.record(X_CARD, {})


def seat_rate(store, table_id: str, seat: str) -> tuple:
    """The seat's rate bucket as the store keeps it (its row of the seats table)."""
    sql = "SELECT rate_tokens, rate_at FROM seats WHERE table_id = ? AND seat = ?"
    return tuple(store._transaction(lambda conn: store._execute(conn, sql, (table_id, seat)).fetchone()))


def test_a_tap_on_either_store_is_anonymous_and_bounded(store_url, open_store_at):
    """SQLite and PostgreSQL alike: the tap's actor is the table, the seat's rate bucket does not
    move, and the table-wide bound holds across pages (one store connection each)."""
    made = create_table(open_store_at(store_url), "ret", SEATS, title="Both stores")
    clock = Clock()

    def join(seat):
        return TableSession.join(open_store_at(store_url), made.table_id, made.tokens[seat], wall_clock=clock)

    gm, pages = join("gm"), [join(s) for s in ("p1", "p2", "o1", "p1")]
    pages[0].say("hello")  # the players' buckets hold something to compare
    pages[1].say("hi")
    rates = {s: seat_rate(gm.store, made.table_id, s) for s in ("p1", "p2", "o1")}
    assert rates["p1"][0] is not None
    clock.now += 3.5
    for page in pages[:3]:
        page.x_card()
    with pytest.raises(PlayError):
        pages[3].x_card()  # another page of p1: its own cooldown is fresh, the table's bound is not
    gm.poll()
    assert gm.x_cards() == 3
    assert {e.actor for e in gm.events() if e.kind == X_CARD.name} == {"table"}
    assert {s: seat_rate(gm.store, made.table_id, s) for s in rates} == rates
