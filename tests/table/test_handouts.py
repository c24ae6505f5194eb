"""Handouts (issue 34, part 3): the GM gives a text with an optional image to chosen seats or to
all; only those seats ever receive it (their state, their events, their transcript), and
whatever a page sends is checked first."""

from __future__ import annotations

import base64
import json

import pytest

from tabletop_widgets.core.safe_markdown import markdown_html
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.table.kinds import HANDOUT
from tabletop_widgets.table.rules import PlayError
from tabletop_widgets.table.session_handouts import MAX_HANDOUT_TEXT, MAX_IMAGE_BYTES, image_type
from tabletop_widgets.table.transcript import session_transcript

SEATS = [
    SeatSpec("gm", "gm", "Gail"),
    SeatSpec("p1", "player", "Pat"),
    SeatSpec("p2", "player", "Quinn"),
    SeatSpec("o1", "observer", "Olga"),
]
#: a 1x1 PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@pytest.fixture
def table(tmp_path):
    path = str(tmp_path / "table.db")
    store = open_store(path)
    made = create_table(store, "ret", SEATS, title="Handout table")
    stores = [store]

    def join(seat):
        s = open_store(path)
        stores.append(s)
        return TableSession.join(s, made.table_id, made.tokens[seat])

    yield made, join
    for s in stores:
        s.close()


def holds(session, secret: str) -> bool:
    """Whether anything this seat's kernel holds or can fetch names ``secret``."""
    state = json.dumps(session.state.to_json(), ensure_ascii=False)
    events = json.dumps([dict(e.payload) for e in session.events()], ensure_ascii=False)
    return secret in state or secret in events or secret in json.dumps(session.handouts(), ensure_ascii=False)


def test_a_handout_reaches_the_chosen_seats_only(table):
    made, join = table
    gm, p1, p2, o1 = (join(s) for s in ("gm", "p1", "p2", "o1"))
    events = gm.give_handout("The letter", "Meet me at **midnight**.", seats=["p1"], image=PNG)
    assert [e.audience for e in events] == ["seat:p1"]
    for s in (p1, p2, o1):
        s.poll()
    got = p1.handouts()
    assert [h["title"] for h in got] == ["The letter"]
    assert got[0]["html"] == "<p>Meet me at <strong>midnight</strong>.</p>"
    assert got[0]["image"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    for s in (p2, o1):
        assert s.handouts() == []
        assert not holds(s, "The letter") and not holds(s, "midnight")
    assert holds(p1, "midnight")
    gm.end_session()
    p1.poll(), p2.poll()
    assert "The letter" in session_transcript(p1, 1) and "midnight" in session_transcript(p1, 1, fmt="html")
    assert "Раздаточный материал: The letter" in session_transcript(p1, 1, locale="ru")
    assert "The letter" not in session_transcript(p2, 1) and "midnight" not in session_transcript(o1, 1)


def test_a_handout_to_several_seats_is_one_event_each_and_the_gm_sees_one(table):
    made, join = table
    gm, p1, p2, o1 = (join(s) for s in ("gm", "p1", "p2", "o1"))
    events = gm.give_handout("Map", "The old road", seats=["p2", "p1", "p2"])
    assert sorted(e.audience for e in events) == ["seat:p1", "seat:p2"]
    assert len({e.payload["handout_id"] for e in events}) == 1
    [mine] = gm.handouts()
    assert mine["to"] == ["p1", "p2"] and not mine["all"] and mine["image"] is None
    gm.give_handout("Note", "For Quinn", seats="p2")
    p2.poll(), p1.poll(), o1.poll()
    assert [h["title"] for h in p2.handouts()] == ["Map", "Note"] and [h["title"] for h in p1.handouts()] == ["Map"]
    assert o1.handouts() == []
    assert p2.handouts()[0]["to"] == ["p2"]  # a seat learns of no other recipient


def test_a_handout_to_all_reaches_every_seat(table):
    made, join = table
    gm, p1, o1 = join("gm"), join("p1"), join("o1")
    [event] = gm.give_handout("Rumours", "- one\n- two")
    assert event.audience == "all"
    for s in (p1, o1):
        s.poll()
        assert s.handouts()[0]["html"] == "<ul><li>one</li><li>two</li></ul>" and s.handouts()[0]["all"]


def test_the_text_is_rendered_without_html(table):
    made, join = table
    gm = join("gm")
    gm.give_handout("<b>x</b>", '<script>alert(1)</script> <img src=x onerror="alert(2)"> [a](javascript:alert(3))')
    html = gm.handouts()[0]["html"]
    assert "<script" not in html and "<img" not in html and "href" not in html
    assert "&lt;script&gt;" in html
    assert markdown_html("# T\n> q") == "<h3>T</h3>\n<blockquote>q</blockquote>"


@pytest.mark.parametrize(
    "title,text,seats,image,code",
    [
        ("", "text", None, None, "handout_title"),
        ("   ", "text", None, None, "handout_title"),
        (None, "text", None, None, "handout_title"),
        ("x" * 121, "text", None, None, "handout_title"),
        ("T", "x" * (MAX_HANDOUT_TEXT + 1), None, None, "handout_text"),
        ("T", 42, None, None, "handout_text"),
        ("T", "t", ["nobody"], None, "handout_seats"),
        ("T", "t", ["gm"], None, "handout_seats"),
        ("T", "t", ["o1"], None, "handout_seats"),  # an observer gets what is given to all
        ("T", "t", [], None, "handout_seats"),
        ("T", "t", [["p1"]], None, "handout_seats"),
        ("T", "t", {"p1": 1}, None, "handout_seats"),
        ("T", "t", None, b"GIF89a" + b"\0" * MAX_IMAGE_BYTES, "handout_image_big"),
        ("T", "t", None, b"<svg onload=alert(1)>", "handout_image"),
        ("T", "t", None, b"not an image.png", "handout_image"),
        ("T", "t", None, "iVBORw0KGgo=", "handout_image"),
    ],
)
def test_bad_handouts_are_refused_and_nothing_is_written(table, title, text, seats, image, code):
    made, join = table
    gm = join("gm")
    version = gm.store.head(made.table_id).version
    with pytest.raises(PlayError) as err:
        gm.give_handout(title, text, seats=seats, image=image)
    assert err.value.code == code
    assert err.value.message["en"] and err.value.message["ru"] != err.value.message["en"]
    assert gm.store.head(made.table_id).version == version


def test_a_player_or_an_observer_gives_no_handout(table):
    made, join = table
    for seat in ("p1", "o1"):
        s = join(seat)
        with pytest.raises(PermissionDenied) as err:
            s.give_handout("Mine", "text")
        assert "ведущий" in err.value.message["ru"]
        with pytest.raises(PermissionDenied):
            s.record(HANDOUT, {"handout_id": "x", "title": "t", "text": "t", "to": None})
    assert join("gm").handouts() == []


def test_images_are_known_by_their_first_bytes():
    assert image_type(PNG) == "image/png"
    assert image_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert image_type(b"GIF87a...") == "image/gif"
    assert image_type(b"RIFF\0\0\0\0WEBPVP8 ") == "image/webp"
    assert image_type(b"RIFF\0\0\0\0AVI ") is None and image_type(b"") is None


def test_a_forged_stored_image_is_not_shown(table):
    made, join = table
    gm = join("gm")
    gm.give_handout("Pic", "", image=PNG)

    def forge(tx):
        return [
            HANDOUT.new(
                "gm",
                "all",
                handout_id="f",
                title="Forged",
                text="",
                to=None,
                image_type="image/png",
                image="PHNjcmlwdD4=",
            )
        ]

    gm.transact(forge)
    shown = {h["title"]: h["image"] for h in gm.handouts()}
    assert shown["Pic"].startswith("data:image/png;base64,") and shown["Forged"] is None


def test_a_large_image_round_trips_on_either_store(store_url, open_store_at):
    """An image near the 1 MB bound is stored (its event past the usual payload limit) and read
    back whole by the recipient, on SQLite and PostgreSQL."""
    made = create_table(open_store_at(store_url), "ret", SEATS, title="Big picture")
    gm, p1 = (TableSession.join(open_store_at(store_url), made.table_id, made.tokens[s]) for s in ("gm", "p1"))
    big = PNG + bytes(range(256)) * ((MAX_IMAGE_BYTES - len(PNG)) // 256)
    assert len(big) <= MAX_IMAGE_BYTES
    gm.give_handout("Map", "", seats=["p1"], image=big)
    p1.poll()
    [got] = p1.handouts()
    assert base64.b64decode(got["image"].split(",", 1)[1]) == big


def test_a_campaign_with_handouts_and_taps_verifies_and_restores(table, tmp_path):
    """The new kinds chain like every other: the session verifies, and a backup (a handout's
    large event included) restores into another store as it was."""
    from tabletop_widgets.table import backup_campaign, restore_campaign, verify_table

    made, join = table
    gm, p1 = join("gm"), join("p1")
    gm.give_handout("Map", "The road", seats=["p1", "p2"], image=PNG)
    p1.x_card()
    gm.set_lines_and_veils(["spiders"], [])
    gm.end_session()
    assert verify_table(gm.store, made.table_id, session=1).ok
    backup_campaign(gm.store, made.table_id, tmp_path / "campaign.jsonl")
    other = open_store(str(tmp_path / "other.db"))
    try:
        restore_campaign(other, tmp_path / "campaign.jsonl")
        assert [e.hash for e in other.events(made.table_id)] == [e.hash for e in gm.store.events(made.table_id)]
        assert verify_table(other, made.table_id, session=1).ok
    finally:
        other.close()


def test_the_log_tells_a_handout_in_plain_words():
    from tabletop_widgets.core.safe_markdown import markdown_plain

    assert (
        markdown_plain("*Meet me at the old mill at midnight.* — **V.**") == "Meet me at the old mill at midnight. — V."
    )
    assert (
        markdown_plain("# The letter\n\n- one\n- two\n> a quote with `code`") == "The letter one two a quote with code"
    )
    assert markdown_plain("") == "" and markdown_plain("<b>x</b>") == "<b>x</b>"  # the log escapes it
