"""Event kinds (one declaration each, :mod:`tabletop_widgets.table.kinds`) and payload validation."""

from __future__ import annotations

import fractions
import subprocess
import sys
from dataclasses import dataclass

import pytest

from tabletop_widgets.table import EventError, TableState
from tabletop_widgets.table import kinds
from tabletop_widgets.table.events import MAX_PAYLOAD_BYTES, jsonable, validate
from tabletop_widgets.table.kinds.base import Kind
from tabletop_widgets.table.payload import Payload
from tabletop_widgets.table.store import Event


def test_builtin_kinds():
    assert {
        "table.opened",
        "table.closed",
        "roll",
        "check",
        "check.after",
        "roll.failed",
        "character.set",
        "character.update",
        "combat.state",
        "attack",
        "turn",
        "note",
        "message",
        "seat.added",
        "seat.retired",
        "session.reminder",
    } <= set(kinds.KINDS)


def test_every_kind_is_known_whatever_was_imported():
    """Which kinds exist never depends on which modules happened to be imported (issue 30:
    ``check.after``, ``roll.failed``, ``seat.added``, ``seat.retired`` and
    ``session.reminder`` were unknown until some module was)."""
    code = (
        "from tabletop_widgets.table.events import validate\n"
        "from tabletop_widgets.table.verify import verify_table\n"
        "import tabletop_widgets.table.kinds as k\n"
        "print(sorted(k.KINDS))"
    )
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    with_session = subprocess.run(
        [sys.executable, "-c", "import tabletop_widgets.table.session\n" + code],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert alone == with_session
    for name in ("check.after", "roll.failed", "seat.added", "seat.retired", "session.reminder"):
        assert repr(name) in alone


@pytest.mark.parametrize(
    "kind,payload,match",
    [
        ("nope", {}, "unknown event kind"),
        ("message", [], "must be a mapping"),
        ("message", {}, "missing field 'text'"),
        ("message", {"text": 3}, "must be str"),
        ("message", {"text": "x", "extra": 1}, "unknown field"),
        ("roll", {"index": True, "expr": "1d6", "hidden": False, "result": {}, "text": ""}, "must be int"),
        ("roll", {"index": 1.0, "expr": "1d6", "hidden": False, "result": {}, "text": ""}, "must be int"),
        ("message", {"text": float("nan")}, "not plain JSON"),
        ("message", {"text": object()}, "not plain JSON"),
        ("message", {"text": "x" * (MAX_PAYLOAD_BYTES + 1)}, "bytes"),
    ],
)
def test_bad_payloads(kind, payload, match):
    with pytest.raises(EventError, match=match):
        validate(kind, payload)


def test_validate_returns_plain_json():
    out = validate("combat.state", {"state": {"order": ("a", "b")}})
    assert out == {"state": {"order": ["a", "b"]}}


def test_a_new_kind_is_one_declaration():
    """Adding a kind is one declaration (its payload, writer, reducer) registered once."""

    @dataclass(frozen=True, kw_only=True)
    class RoundPayload(Payload):
        round: int

    class TestRound(Kind):
        name = "test.round"
        Payload = RoundPayload
        action = "combat"

        def reduce(self, state, event, p):
            state.extra["round"] = p.round

    kinds.register(TestRound(), replace=True)
    with pytest.raises(ValueError):
        kinds.register(TestRound())
    bad = TestRound()
    bad.name = "Bad Kind"
    with pytest.raises(ValueError):
        kinds.register(bad)
    assert validate("test.round", {"round": 2}) == {"round": 2}
    st = TableState("t")
    st.apply(Event(1, "t", 1, "test.round", "gm", "all", {"round": 3}, 0.0))
    st.apply(Event(1, "t", 1, "test.round", "gm", "all", {"round": 9}, 0.0))  # same seq: ignored
    assert st.extra == {"round": 3} and st.events == 1
    del kinds.KINDS["test.round"]


def test_a_payload_reads_a_hostile_store_without_raising():
    """A reader gets a typed payload whatever the store holds: a value of the wrong type reads as
    the field's default, and the JSON it gives back is exactly what was stored."""
    stored = {"text": ["not", "text"], "mode": 3, "extra": 1}
    p = kinds.MESSAGE.read(stored)
    assert p.text is None and p.mode is None
    good = kinds.MESSAGE.read({"text": "hi", "mode": "ooc"})
    assert (good.text, good.mode, good.to) == ("hi", "ooc", None)
    assert good.to_json() == {"text": "hi", "mode": "ooc"}


def test_a_text_past_its_limit_is_refused_with_a_message_for_the_player():
    from tabletop_widgets.table.rules import PlayError

    with pytest.raises(PlayError) as long:
        validate("message", {"text": "x" * 1001})
    assert "too long" in long.value.message["en"] and long.value.message["ru"]


def test_jsonable():
    @dataclass
    class D:
        a: tuple
        f: fractions.Fraction

    assert jsonable({"d": D((1, 2), fractions.Fraction(1, 3)), 1: {3, 2}}) == {
        "d": {"a": [1, 2], "f": "1/3"},
        "1": [2, 3],
    }
