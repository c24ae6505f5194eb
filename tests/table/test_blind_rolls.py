"""Blind rolls (issue 34): every seat sees that a roll was made, by whom and of what; only the GM
sees its result until the GM reveals it; verify covers the dice and the reveal."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tabletop_widgets.table import (
    EventError,
    LineContext,
    PermissionDenied,
    PlayError,
    SeatSpec,
    TableSession,
    check,
    create_table,
    line_of,
    rng_for,
    session_transcript,
    verify_table,
)
from tabletop_widgets.dice import roll as dice_roll

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
#: a total that appears nowhere else: 1d1 + 918273640
SECRET = "1d1+918273640"
SECRET_TOTAL = "918273641"


@pytest.fixture
def seats(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("p1", "player", "Pat", "c1"),
            SeatSpec("p2", "player", "Quinn", "c2"),
            SeatSpec("o1", "observer", "Olga"),
        ],
        characters={"c1": ret_sheet, "c2": ret_sheet},
    )
    joined = {s: TableSession.join(open_store_at(store_url), made.table_id, made.tokens[s]) for s in made.tokens}
    return made, joined


def poll(joined) -> None:
    for s in joined.values():
        s.poll()


def lines(seat, loc: str = "en") -> list:
    ctx = LineContext(seat.state, seat.system)
    return [line for line in (line_of(e, ctx) for e in seat.state.log) if line is not None]


def seen_text(seat) -> str:
    """Everything this seat's kernel holds of the table: its folded state and its store query."""
    events = [(e.kind, e.payload) for e in seat.events()]
    return json.dumps([seat.state.to_json(), events], ensure_ascii=False, default=str)


def test_what_each_seat_sees_before_and_after_the_reveal(seats):
    made, s = seats
    ev = s["p1"].roll(SECRET, blind=True, label="Search")
    assert ev.kind == "roll.blind" and ev.actor == "p1"
    assert "result" not in ev.payload and "total" not in ev.payload and "dice" not in json.dumps(ev.payload)
    assert ev.payload["expr"] == SECRET and ev.payload["label"] == "Search"
    poll(s)
    # before: every seat knows Pat rolled Search (1d1+918273640) blind; only the GM has the result
    for seat in ("p1", "p2", "o1"):
        assert SECRET_TOTAL not in seen_text(s[seat]), seat
        (line,) = [x for x in lines(s[seat]) if x.blind]
        assert line.who == "Pat" and line.blind == "face_down" and line.reveal is None
        assert line.what["en"] == f"rolled Search ({SECRET}) blind"
        assert line.what["ru"] == f"бросает Search ({SECRET}) вслепую"
        assert "face down" in line.text["en"] and "лицом вниз" in line.text["ru"]
        entry = next(e for e in s[seat].state.log if e["kind"] == "roll.blind")
        assert "total" not in entry and "result" not in entry
    gm_line = next(x for x in lines(s["gm"]) if x.blind)
    assert gm_line.blind == "secret" and gm_line.reveal == ev.seq
    assert SECRET_TOTAL in gm_line.text["en"] and "not revealed yet" in gm_line.what["en"]
    assert "ещё не раскрыт" in gm_line.what["ru"]

    shown = s["gm"].reveal(ev.seq)
    assert shown.kind == "roll.reveal" and shown.payload["blind_seq"] == ev.seq
    poll(s)
    for seat in ("gm", "p1", "p2", "o1"):
        blind, reveal = [x for x in lines(s[seat]) if x.blind]
        assert blind.blind == "revealed" and blind.reveal is None, seat
        assert SECRET_TOTAL in blind.text["en"] and "(revealed)" in blind.what["en"]
        assert reveal.who == "Gail" and reveal.what["en"].startswith("revealed the blind roll of Pat")
        assert SECRET_TOTAL in reveal.text["ru"] and reveal.what["ru"].startswith("раскрывает бросок вслепую (Pat)")
        entry = next(e for e in s[seat].state.log if e["kind"] == "roll.blind")
        assert entry["revealed"]["total"] == entry["total"] == int(SECRET_TOTAL)
        assert next(e for e in s[seat].state.log if e["kind"] == "roll.reveal")["total"] == int(SECRET_TOTAL)


def test_a_gm_blind_roll_may_hide_its_notation(seats):
    made, s = seats
    ev = s["gm"].roll("1d1+77123", blind=True, hide_notation=True, label="Trap DC")
    assert ev.payload["expr"] is None and ev.payload["label"] is None and ev.payload["notation_hidden"] is True
    poll(s)
    for seat in ("p1", "o1"):
        text = seen_text(s[seat])
        assert "77124" not in text and "77123" not in text and "Trap DC" not in text
        (line,) = [x for x in lines(s[seat]) if x.blind]
        assert line.who == "Gail" and line.what["en"] == "rolled blind" and line.what["ru"] == "бросает вслепую"
    (gm_line,) = [x for x in lines(s["gm"]) if x.blind]
    assert "Trap DC (1d1+77123)" in gm_line.what["en"] and "77124" in gm_line.text["en"]
    # a player may not hide what they roll, nor may anyone outside a blind roll
    with pytest.raises(PlayError) as exc:
        s["p1"].roll("1d20", blind=True, hide_notation=True)
    assert exc.value.code == "hide_notation_gm_only"
    with pytest.raises(PlayError) as exc:
        s["gm"].roll("1d20", hide_notation=True)
    assert exc.value.code == "hide_notation_not_blind"


def test_a_hidden_blind_roll_is_the_roller_and_the_gm_only(seats):
    made, s = seats
    ev = s["p1"].roll(SECRET, hidden=True, blind=True)
    poll(s)
    assert ev.audience == "seat:p1"
    assert not [e for e in s["p2"].state.log if e["kind"].startswith("roll")]
    assert SECRET_TOTAL not in seen_text(s["p1"])
    s["gm"].reveal(ev.seq)
    poll(s)
    assert SECRET_TOTAL in seen_text(s["p1"]) and SECRET not in seen_text(s["p2"])


def test_refusals_write_nothing(seats, store):
    made, s = seats
    ev = s["p1"].roll("1d20", blind=True)
    plain = s["p1"].roll("1d20")
    poll(s)
    before = len(store.events(made.table_id))
    with pytest.raises(PermissionDenied):
        s["p1"].reveal(ev.seq)  # a forged reveal from a player's page
    with pytest.raises(PermissionDenied):
        s["o1"].reveal(ev.seq)
    with pytest.raises(PlayError) as exc:
        s["gm"].reveal(plain.seq)
    assert exc.value.code == "reveal_not_blind" and "not a blind roll" in exc.value.message["en"]
    assert "не бросок вслепую" in exc.value.message["ru"]
    with pytest.raises(PlayError) as exc:
        s["gm"].reveal(10**6)
    assert exc.value.code == "reveal_unknown"
    with pytest.raises(EventError):
        s["gm"].reveal("1")
    with pytest.raises(PlayError) as exc:
        s["p1"].roll(check("mind"), blind=True)
    assert exc.value.code == "blind_check" and "вслепую" in exc.value.message["ru"]
    with pytest.raises(EventError):
        s["p1"].roll("1d20", blind="yes")
    assert len(store.events(made.table_id)) == before
    s["gm"].reveal(ev.seq)
    with pytest.raises(PlayError) as exc:
        s["gm"].reveal(ev.seq)
    assert exc.value.code == "reveal_again"


def test_the_reveal_publishes_only_the_numbers_the_roll_used(seats):
    made, s = seats
    ev = s["gm"].roll("1d20+@stealth", blind=True, variables={"stealth": 4, "secret_hp": 99})
    shown = s["gm"].reveal(ev.seq)
    assert shown.payload["variables"] == {"stealth": 4}
    dice = next(e for e in s["gm"].state.log if e["kind"] == "roll.blind.dice")
    assert dice["variables"] == {"stealth": 4} and dice["index"] == ev.payload["index"]


def test_verify_checks_the_revealed_results_once_the_key_is_out(seats, store):
    made, s = seats
    s["p2"].roll("2d6")
    ev = s["p1"].roll("3d6+@a", blind=True, variables={"a": 2})
    kept = s["gm"].roll("1d8", blind=True)  # never revealed
    shown = s["gm"].reveal(ev.seq)
    with pytest.raises(ValueError):
        verify_table(store, made.table_id)  # the key is secret until the session ends
    s["gm"].end_session()
    seed = bytes.fromhex(store.sessions(made.table_id)[0].seed)
    # any seat rolls the revealed index again from the reveal alone
    p = shown.payload
    again = dice_roll(p["expr"], rng=rng_for(seed, p["index"]), variables=p["variables"])
    assert again.total == p["result"]["total"]
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == 3 and rep.reveals == 1
    assert "1 revealed blind roll(s) checked" in rep.text()
    assert kept.payload["index"] == 2


def _tamper(db, seq, payload):
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload), seq))
    conn.commit()
    conn.close()


@SQLITE_ONLY
def test_verify_catches_a_changed_reveal(seats, store, store_url, backend):
    made, s = seats
    ev = s["p1"].roll("4d6", blind=True)
    shown = s["gm"].reveal(ev.seq)
    s["gm"].end_session()
    payload = dict(shown.payload)
    result = dict(payload["result"])
    result["total"] = result["total"] + 1
    _tamper(store_url, shown.seq, {**payload, "result": result})
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any("other dice than it rolled" in p for p in rep.problems), rep.text()
    # a reveal that names another seat's roll, or one revealed twice, is caught too
    _tamper(store_url, shown.seq, {**payload, "blind_seq": shown.seq})
    rep = verify_table(store, made.table_id)
    assert any("not a blind roll of this log" in p for p in rep.problems), rep.text()


def test_transcripts_tell_each_seat_what_it_saw(seats):
    made, s = seats
    ev = s["p1"].roll(SECRET, blind=True)
    s["gm"].reveal(ev.seq)
    later = s["p1"].roll("1d1+5550", blind=True)
    s["gm"].end_session()
    poll(s)
    pat = session_transcript(s["p1"], 1)
    assert f"**Pat**: rolled {SECRET} blind: \\[?\\] face down" in pat
    assert f"**Gail**: revealed the blind roll of Pat: {SECRET}" in pat and SECRET_TOTAL in pat
    assert "rolled 1d1+5550 blind" in pat and "5551" not in pat
    gm = session_transcript(s["gm"], 1, locale="ru")
    assert "бросает 1d1+5550 вслепую (результат ещё не раскрыт)" in gm and "5551" in gm
    assert later.payload["index"] == 1


# ---------------------------------------------------------------------------------------------
# the seat pages: a player's widgets never hold the result
# ---------------------------------------------------------------------------------------------
def _tree(widget) -> list:
    import ipywidgets as widgets

    seen: dict = {}
    stack = [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, widgets.Widget):
            continue
        seen[id(w)] = w
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    return list(seen.values())


def _synced(view) -> str:
    return json.dumps([w.get_state() for w in _tree(view)], default=str, ensure_ascii=False)


def _reveal_buttons(view) -> list:
    import ipywidgets as widgets

    return [w for w in _tree(view) if isinstance(w, widgets.Button) and "tt-log-reveal" in w._dom_classes]


def test_the_pages_show_a_face_down_die_until_the_gm_reveals_it(seat_views):
    from tabletop_widgets import get_system
    from tabletop_widgets.widgets.lobby import sample_character
    from helpers import frontend_click, frontend_update

    system = get_system("ret")
    aria = {**sample_character(system, "Aria").to_dict(), "phase": "play"}
    view = seat_views("ret", [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")], {"c1": aria})
    gm, pat = view("gm"), view("p1")
    assert pat.tray_area.blind_toggle.description == "Roll blind" and pat.tray_area.hide_notation_toggle is None
    frontend_update(pat.tray_area.blind_toggle, value=True)
    frontend_update(pat.tray.notation, value=SECRET)
    frontend_click(pat.tray.roll_button)
    assert pat.tray.last_error is None and pat.tray.last_result.blind
    # the roller's page: the die face down in the tray and in the log, the result nowhere
    assert pat.tray.dice.dice == [{"faces": "", "sides": 0, "value": "?", "classes": ["facedown"]}]
    assert "tt-facedown-die" in pat.tray.result_view.value
    assert SECRET_TOTAL not in _synced(pat)
    (entry,) = pat.roll_log.entries
    assert entry.text("en").startswith(f"#1 Pat — rolled {SECRET} blind: [?] face down")
    assert "tt-log-face-down" in entry.classes and not _reveal_buttons(pat)
    # the GM's page: the result, marked blind, with a Reveal button
    gm.session.poll()
    (gm_entry,) = gm.roll_log.entries
    assert "(not revealed yet)" in gm_entry.text("en") and SECRET_TOTAL in gm_entry.text("en")
    (button,) = _reveal_buttons(gm)
    assert button.description == "Reveal"
    gm.locale = "ru"
    (button,) = _reveal_buttons(gm)
    assert button.description == "Раскрыть"
    frontend_click(button)
    assert not _reveal_buttons(gm) and "(результат раскрыт)" in gm.roll_log.entries[0].text("ru")
    pat.session.poll()
    assert SECRET_TOTAL in _synced(pat)
    first, reveal = pat.roll_log.entries
    assert "(revealed)" in first.text("en") and SECRET_TOTAL in first.text("en")
    assert reveal.text("en").startswith("#2 Gail — revealed the blind roll of Pat")
    # a page opened after the reveal draws the line turned over at once
    fresh = view("p1")
    assert [e.text("en") for e in fresh.roll_log.entries] == [e.text("en") for e in pat.roll_log.entries]
    # a forged reveal from the player's page is refused, with nothing written
    before = len(pat.session.events())
    pat.log_area.reveal(reveal.n)
    assert "not" in pat.status.value.lower() and len(pat.session.events()) == before


def test_a_gm_page_hides_what_it_rolls_blind_when_asked(seat_views):
    from tabletop_widgets import get_system
    from tabletop_widgets.widgets.lobby import sample_character
    from helpers import frontend_click, frontend_update

    system = get_system("ret")
    aria = {**sample_character(system, "Aria").to_dict(), "phase": "play"}
    view = seat_views("ret", [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")], {"c1": aria})
    gm, pat = view("gm"), view("p1")
    area = gm.tray_area
    assert area.hide_notation_toggle.layout.display == "none"
    frontend_update(area.blind_toggle, value=True)
    assert area.hide_notation_toggle.layout.display is None
    frontend_update(area.hide_notation_toggle, value=True)
    frontend_update(gm.tray.notation, value="1d1+77123")
    frontend_click(gm.tray.roll_button)
    assert gm.tray.last_error is None
    pat.session.poll()
    (entry,) = pat.roll_log.entries
    assert entry.text("en").startswith("#1 Gail — rolled blind: [?]") and "77123" not in _synced(pat)
    # a named check is never blind: the tray says why, and nothing is rolled
    assert gm.tray.roll_check("mind") is None
    assert getattr(gm.tray.last_error, "code", None) == "blind_check"
    assert "blind" in gm.tray.error.value and len(gm.session.state.log) == 2  # the blind roll only
