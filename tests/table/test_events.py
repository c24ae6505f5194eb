"""Event kinds and payload validation."""

from __future__ import annotations

import fractions
from dataclasses import dataclass

import pytest

from tabletop_widgets.table import EventError, register_kind, TableState, reducer
from tabletop_widgets.table.events import MAX_PAYLOAD_BYTES, jsonable, kinds, validate
from tabletop_widgets.table.store import Event


def test_builtin_kinds():
    assert {
        "table.opened",
        "table.closed",
        "roll",
        "check",
        "character.set",
        "character.update",
        "combat.state",
        "note",
        "message",
    } <= set(kinds())


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


def test_register_kind_and_reducer():
    register_kind("test.turn", action="combat", fields={"round": ((int,), True)}, replace=True)
    with pytest.raises(ValueError):
        register_kind("test.turn", action="combat")
    with pytest.raises(ValueError):
        register_kind("Bad Kind", action=None)
    assert validate("test.turn", {"round": 2}) == {"round": 2}

    @reducer("test.turn")
    def _turn(state, e):
        state.extra["round"] = e.payload["round"]

    st = TableState("t")
    st.apply(Event(1, "t", 1, "test.turn", "gm", "all", {"round": 3}, 0.0))
    st.apply(Event(1, "t", 1, "test.turn", "gm", "all", {"round": 9}, 0.0))  # same seq: ignored
    assert st.extra == {"round": 3} and st.events == 1


def test_jsonable():
    @dataclass
    class D:
        a: tuple
        f: fractions.Fraction

    assert jsonable({"d": D((1, 2), fractions.Fraction(1, 3)), 1: {3, 2}}) == {
        "d": {"a": [1, 2], "f": "1/3"},
        "1": [2, 3],
    }
