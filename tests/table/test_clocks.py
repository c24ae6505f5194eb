"""Progress clocks (issue 34, part 2): the GM's clocks, open, known (players see a blank circle of
its segments) or secret; what each seat holds of them, in its state, its events from the store,
its snapshot and its transcript; the GM's actions checked as a hostile page could send them."""

from __future__ import annotations

import json

import pytest

from helpers import SeatPages

from tabletop_widgets import get_system
from tabletop_widgets.table import (
    PermissionDenied,
    PlayError,
    SeatSpec,
    project_state,
    Audience,
    session_transcript,
    verify_table,
)
from tabletop_widgets.table.kinds import CLOCK, CLOCK_REMOVED
from tabletop_widgets.widgets.lobby import sample_character

OPEN, KNOWN, SECRET = "Zqopenalarm", "Zqknowndoom", "Zqsecretplot"


class Table(SeatPages):
    def __init__(self, where: str):
        system = get_system("ret")
        seats = [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("p1", "player", "Pat", "c1"),
            SeatSpec("o1", "observer", "Olga"),
        ]
        chars = {"c1": sample_character(system, "Aria").to_dict()}
        super().__init__(where, "ret", seats, chars, title="Clocks")


@pytest.fixture
def table(tmp_path):
    t = Table(str(tmp_path / "table.db"))
    yield t
    t.close()


@pytest.fixture
def seats(table):
    """The GM with three clocks (open 2/6, known 3/8, secret 1/4), a player and an observer
    who have read the table since."""
    gm, p1, o1 = table.session("gm"), table.session("p1"), table.session("o1")
    ids = {
        "open": gm.add_clock(OPEN, 6),
        "known": gm.add_clock(KNOWN, 8, visibility="known"),
        "secret": gm.add_clock(SECRET, 4, visibility="secret"),
    }
    gm.tick_clock(ids["open"], 2)
    gm.tick_clock(ids["known"], 3)
    gm.tick_clock(ids["secret"])
    p1.poll()
    o1.poll()
    return gm, p1, o1, ids


def head_version(session) -> int:
    return session.store.head(session.table_id).version


def test_the_gm_reads_every_clock_whole(seats):
    gm, _p1, _o1, ids = seats
    assert gm.clocks() == [
        {"id": ids["open"], "segments": 6, "visibility": "open", "name": OPEN, "filled": 2},
        {"id": ids["known"], "segments": 8, "visibility": "known", "name": KNOWN, "filled": 3},
        {"id": ids["secret"], "segments": 4, "visibility": "secret", "name": SECRET, "filled": 1},
    ]


@pytest.mark.parametrize("who", [1, 2])
def test_a_player_and_an_observer_read_an_open_clock_and_only_the_circle_of_a_known_one(seats, who):
    reader, ids = seats[who], seats[3]
    assert reader.clocks() == [
        {"id": ids["open"], "segments": 6, "visibility": "open", "name": OPEN, "filled": 2},
        {"id": ids["known"], "segments": 8, "visibility": "known"},
    ]


@pytest.mark.parametrize("who", [1, 2])
def test_nothing_hidden_reaches_a_reader_s_kernel(seats, who):
    """Not in its state, its snapshot, nor in the events the store gives it."""
    reader = seats[who]
    state = json.dumps(reader.state.to_json(), ensure_ascii=False)
    events = json.dumps([e.payload for e in reader.events()], ensure_ascii=False)
    snap = json.dumps(reader.snapshot().state, ensure_ascii=False)
    for text in (state, events, snap):
        assert OPEN in text
        assert KNOWN not in text and SECRET not in text
    # the known clock's fill (3 of 8) is nowhere either: no copy of it carries a fill
    known = [e.payload for e in reader.events() if e.payload.get("clock_id") == seats[3]["known"]]
    assert known and all("filled" not in p and "name" not in p for p in known)
    assert not any(e.payload.get("clock_id") == seats[3]["secret"] for e in reader.events())


def test_the_players_projection_of_the_gm_s_state_keeps_nothing_hidden(seats):
    gm = seats[0]
    out = project_state(gm.state, Audience("player", "p1")).extra["clocks"]
    assert [c.get("name") for c in out.values()] == [OPEN, None]
    assert "filled" not in out[seats[3]["known"]] and seats[3]["secret"] not in out


def test_clock_ids_are_random_so_they_count_no_secret_clock(seats):
    ids = seats[3]
    assert len(set(ids.values())) == 3
    assert all(i.startswith("clock-") and len(i) == len("clock-") + 8 for i in ids.values())


def test_ticks_fill_and_empty_within_bounds_and_a_full_clock_says_full(seats):
    gm, p1, _o1, ids = seats
    assert gm.tick_clock(ids["open"], 4)["filled"] == 6
    with pytest.raises(PlayError) as full:
        gm.tick_clock(ids["open"])
    assert full.value.code == "clock_full" and "is full: 6 of 6" in full.value.message["en"]
    assert "уже заполнены: 6 из 6" in full.value.message["ru"]
    assert gm.tick_clock(ids["open"], -6)["filled"] == 0
    with pytest.raises(PlayError) as empty:
        gm.tick_clock(ids["open"], -1)
    assert empty.value.code == "clock_empty" and "is empty" in empty.value.message["en"]
    with pytest.raises(PlayError) as over:
        gm.tick_clock(ids["known"], 6)
    assert over.value.code == "clock_over" and "3 of 8 are filled already" in over.value.message["en"]
    with pytest.raises(PlayError) as under:
        gm.tick_clock(ids["known"], -4)
    assert under.value.code == "clock_under" and "заполнено только 3 из 8" in under.value.message["ru"]
    p1.poll()
    assert [c.get("filled") for c in p1.clocks()] == [0, None]


def test_a_tick_of_a_known_clock_reaches_no_player(seats):
    gm, p1, _o1, ids = seats
    before = len(p1.events())
    gm.tick_clock(ids["known"], 2)
    gm.tick_clock(ids["secret"], 1)
    p1.poll()
    assert len(p1.events()) == before  # not even that something ticked


@pytest.mark.parametrize(
    "call,code",
    [
        (lambda gm: gm.add_clock("Alarm", 1), "clock_segments"),
        (lambda gm: gm.add_clock("Alarm", 13), "clock_segments"),
        (lambda gm: gm.add_clock("Alarm", 0), "clock_segments"),
        (lambda gm: gm.add_clock("Alarm", True), "clock_segments"),
        (lambda gm: gm.add_clock("Alarm", 4.0), "clock_segments"),
        (lambda gm: gm.add_clock("Alarm", "6"), "clock_segments"),
        (lambda gm: gm.add_clock("", 4), "clock_name_empty"),
        (lambda gm: gm.add_clock(" \n\t ", 4), "clock_name_empty"),
        (lambda gm: gm.add_clock("x" * 81, 4), "too_long"),
        (lambda gm: gm.add_clock("x" * 1_000_000, 4), "too_long"),
        (lambda gm: gm.add_clock(["Alarm"], 4), "clock_name_text"),
        (lambda gm: gm.add_clock(None, 4), "clock_name_text"),
        (lambda gm: gm.add_clock("Alarm", 4, visibility="hidden"), "clock_visibility"),
        (lambda gm: gm.add_clock("Alarm", 4, visibility=None), "clock_visibility"),
        (lambda gm: gm.tick_clock("clock-00000000"), "clock_unknown"),
        (lambda gm: gm.tick_clock(None), "clock_unknown"),
        (lambda gm: gm.tick_clock({"id": 1}), "clock_unknown"),
        (lambda gm: gm.remove_clock("clock-00000000"), "clock_unknown"),
        (lambda gm: gm.set_clock_visibility("clock-00000000", "open"), "clock_unknown"),
    ],
)
def test_bad_input_is_refused_in_both_languages_and_nothing_is_written(table, call, code):
    gm = table.session("gm")
    before = head_version(gm)
    with pytest.raises(PlayError) as refused:
        call(gm)
    assert refused.value.code == code
    assert refused.value.message["en"] and refused.value.message["ru"] != refused.value.message["en"]
    assert head_version(gm) == before and gm.clocks() == []


@pytest.mark.parametrize("by", [0, True, 1.0, "1", None, 10**100])
def test_a_bad_step_is_refused(seats, by):
    gm, _p1, _o1, ids = seats
    before = head_version(gm)
    with pytest.raises(PlayError):
        gm.tick_clock(ids["open"], by)
    assert head_version(gm) == before and gm.clocks()[0]["filled"] == 2


def test_a_table_keeps_a_bounded_number_of_clocks(seats, monkeypatch):
    from tabletop_widgets.table import session_clocks

    gm = seats[0]
    monkeypatch.setattr(session_clocks, "MAX_CLOCKS", 3)
    with pytest.raises(PlayError) as many:
        gm.add_clock("One more", 4)
    assert many.value.code == "clock_too_many" and len(gm.clocks()) == 3


def test_the_same_visibility_again_is_refused(seats):
    gm, _p1, _o1, ids = seats
    with pytest.raises(PlayError) as same:
        gm.set_clock_visibility(ids["known"], "known")
    assert same.value.code == "clock_same" and "«Zqknowndoom»" in same.value.message["ru"]


@pytest.mark.parametrize("who", [1, 2])
def test_a_player_s_or_an_observer_s_forged_clock_actions_are_refused(seats, who):
    gm, reader, ids = seats[0], seats[who], seats[3]
    before = head_version(gm)
    calls = [
        lambda: reader.add_clock("Mine", 4),
        lambda: reader.tick_clock(ids["open"]),
        lambda: reader.tick_clock(ids["known"], -1),
        lambda: reader.tick_clock(ids["secret"]),
        lambda: reader.set_clock_visibility(ids["known"], "open"),
        lambda: reader.remove_clock(ids["open"]),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied) as denied:
            call()
        assert denied.value.message["en"] == "Only the GM keeps the clocks."
        assert denied.value.message["ru"] == "Часы ведёт только мастер."
    # nor through the free path of recordable kinds
    for kind in (CLOCK, CLOCK_REMOVED):
        with pytest.raises(PermissionDenied):
            reader.record(kind, {"clock_id": ids["open"], "segments": 6, "visibility": "open", "change": "added"})
    assert head_version(gm) == before


def test_revealing_hiding_and_removing_follow_on_every_page(table, seats):
    gm, p1, o1, ids = seats
    gm.set_clock_visibility(ids["known"], "open")  # the GM reveals a known clock
    for s in (p1, o1):
        s.poll()
        assert {"id": ids["known"], "segments": 8, "visibility": "open", "name": KNOWN, "filled": 3} in s.clocks()
    gm.set_clock_visibility(ids["open"], "known")
    gm.set_clock_visibility(ids["secret"], "known")
    p1.poll()
    assert [c.get("name") for c in p1.clocks()] == [None, KNOWN, None]
    assert all("filled" not in c for c in p1.clocks() if c["visibility"] == "known")
    gm.set_clock_visibility(ids["open"], "secret")  # the players lose it
    gm.remove_clock(ids["secret"])
    p1.poll()
    assert [c["id"] for c in p1.clocks()] == [ids["known"]]
    assert [c["id"] for c in gm.clocks()] == [ids["open"], ids["known"]]
    # a page opened now (a fresh kernel) folds the same picture from the store
    assert [c["id"] for c in table.session("gm").clocks()] == [ids["open"], ids["known"]]
    assert [c["id"] for c in table.session("p1").clocks()] == [ids["known"]]


def test_live_across_two_sessions_on_one_sqlite_file(table):
    gm, p1 = table.session("gm"), table.session("p1")
    clock = gm.add_clock("Tide", 4)
    assert p1.clocks() == []  # not read yet
    got = p1.poll()
    assert [e.kind for e in got] == [CLOCK.name]
    assert p1.clocks() == [{"id": clock, "segments": 4, "visibility": "open", "name": "Tide", "filled": 0}]
    gm.tick_clock(clock, 3)
    p1.poll()
    assert p1.clocks()[0]["filled"] == 3


def test_live_on_each_backend_and_nothing_hidden_in_the_player_s_events(store_url):
    """The same on SQLite and PostgreSQL: another kernel follows the GM's clocks, and the store's
    query gives the player no copy that names the known or the secret clock."""
    t = Table(store_url)
    try:
        gm, p1 = t.session("gm"), t.session("p1")
        shown = gm.add_clock(OPEN, 4)
        known = gm.add_clock(KNOWN, 6, visibility="known")
        gm.add_clock(SECRET, 8, visibility="secret")
        gm.tick_clock(shown, 2)
        gm.tick_clock(known, 5)
        p1.poll()
        assert p1.clocks() == [
            {"id": shown, "segments": 4, "visibility": "open", "name": OPEN, "filled": 2},
            {"id": known, "segments": 6, "visibility": "known"},
        ]
        text = json.dumps([e.payload for e in p1.events()], ensure_ascii=False)
        assert OPEN in text and KNOWN not in text and SECRET not in text
    finally:
        t.close()


def test_transcript_lines_per_seat(seats):
    gm, p1, o1, ids = seats
    gm.tick_clock(ids["open"], 4)
    for s in (p1, o1):
        s.poll()
    gm_md = session_transcript(gm, 1)
    assert "Clock «Zqopenalarm»: new, 0 of 6" in gm_md
    assert "Clock «Zqknowndoom» (players see only the circle): 3 of 8 (+3)" in gm_md
    assert "Clock «Zqsecretplot» (secret): 1 of 4 (+1)" in gm_md
    assert "Clock «Zqopenalarm»: 6 of 6 (+4) → full" in gm_md
    assert gm_md.count("Zqknowndoom") == 2  # one line per change: the players' copy tells the GM nothing
    for reader in (p1, o1):
        md = session_transcript(reader, 1)
        assert "Clock «Zqopenalarm»: 2 of 6 (+2)" in md and "→ full" in md
        assert "A hidden clock: new: 8 segments, name and fill hidden" in md
        assert KNOWN not in md and SECRET not in md and "3 of 8" not in md
        ru = session_transcript(reader, 1, locale="ru")
        assert "Скрытые часы: новые: 8 сегментов, название и заполнение не видны" in ru
        assert "Часы «Zqopenalarm»: заполнено 6 из 6 (+4) → заполнены" in ru


def test_a_session_with_clocks_verifies(seats):
    gm = seats[0]
    gm.end_session()
    assert verify_table(gm.store, gm.table_id, session=1).ok


def test_a_hostile_store_s_clock_is_not_drawn():
    """The reducer reads leniently: a clock of 99 segments, or filled past its segments, or a
    GM copy arriving in a player's view, changes nothing."""
    from tabletop_widgets.table import Event, TableState

    state = TableState("t", view="seat:p1")
    base = {"clock_id": "clock-1", "visibility": "open", "change": "added", "name": "X"}
    bad = [
        (AUDIENCE_ALL_TAG, {**base, "segments": 99, "filled": 0}),
        (AUDIENCE_ALL_TAG, {**base, "segments": 4, "filled": 5}),
        (AUDIENCE_ALL_TAG, {**base, "segments": "4", "filled": 0}),
        ("gm", {**base, "segments": 4, "filled": 1}),
    ]
    for seq, (audience, payload) in enumerate(bad, 1):
        state.apply(Event(seq, "t", seq, CLOCK.name, "gm", audience, payload, 0.0))
    assert state.extra.get("clocks", {}) == {}
    state.apply(Event(9, "t", 9, CLOCK.name, "gm", AUDIENCE_ALL_TAG, {**base, "segments": 4, "filled": 1}, 0.0))
    assert list(state.extra["clocks"]) == ["clock-1"]


AUDIENCE_ALL_TAG = "all"
