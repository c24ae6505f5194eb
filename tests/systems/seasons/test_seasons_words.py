"""The ``pool`` and ``rolloff`` roll words for %roll (spec §5.12)."""

import random
from fractions import Fraction as F

import pytest

from tabletop_widgets.dice import DiceError, DiceWord, RollResult
from tabletop_widgets.dice.words import WordContext
from tabletop_systems.seasons import SYSTEM
from tabletop_systems.seasons.pool import pool_distribution
from tabletop_systems.seasons.words import parse_pool, parse_rolloff

from helpers import FixedRng


def parse(text):
    word = next(w for w in SYSTEM.dice_words() if w.pattern.match(text))
    return word.parse(text, 0, len(text))


def test_words_are_registered_by_the_system():
    words = SYSTEM.dice_words()
    assert [w.name for w in words] == ["pool", "rolloff"] and all(isinstance(w, DiceWord) for w in words)
    assert all(w.system == "seasons" and w.help["ru"] and w.examples for w in words)
    for w in words:
        for ex in w.examples:
            assert w.pattern.match(ex)
            w.parse(ex, 0, len(ex))
    assert not words[0].pattern.match("pools 3")


def test_pool_7():
    e = parse("pool 7")
    r = e.roll(random.Random(1))
    assert isinstance(r, RollResult) and len(r.dice) == 7 and r.total == r.successes
    assert r.successes == sum(d.value >= 6 for d in r.dice) and r.check.passed == (r.successes >= 1)
    d = e.distribution()
    assert d == pool_distribution(7) and d.p_pass == F(127, 128)


@pytest.mark.parametrize(
    "text,pool",
    [
        ("pool 3+2+2-1 diff 4", 2),
        ("pool 5 diff max(2,3,1)", 2),
        ("pool 6 - 3[conditions] + 3[drama]", 6),
        ("pool (2+3) diff 1", 4),
        ("pool -1+4", 3),
        ("pool 8 diff 3 [threat]", 5),
        ("pool 2+3+4-6-3", 0),
    ],
)
def test_pool_arithmetic(text, pool):
    assert parse(text).pool == pool


def test_labels_and_trace():
    e = parse("pool 3[dex]+2[larceny]+2[tools]-1[dark] diff 4 [lock]")
    assert e.labels == ["lock"] and e.trace() == "3[dex] + 2[larceny] + 2[tools] - 1[dark] - 4[diff] = 2"
    r = e.roll(FixedRng(6, 1))
    assert r.labels == ["lock"] and r.tree.details["trace"].endswith("= 2")


def test_impossible_rolls_nothing():
    r = parse("pool 2 diff 3").roll(FixedRng())
    assert r.dice == [] and r.tree.details["impossible"] and r.check.passed is False
    assert "impossible (pool = -1)" in r.tree.breakdown["en"] and "невозможно" in r.tree.breakdown["ru"]
    assert parse("pool 2 diff 3").distribution().p_pass == 0


def test_rule_of_10_and_flag():
    r = parse("pool 14").roll(FixedRng(1, 1, 1, 6))
    assert len(r.dice) == 4 and r.successes == 6 and "5 automatic" in r.tree.breakdown["en"]
    r = parse("pool 14 --no-r10").roll(random.Random(2))
    assert len(r.dice) == 14
    assert parse("pool 14 --no-r10").distribution()[0] == F(1, 16384)


def test_contest():
    e = parse("pool 6 contest 4")
    assert e.distribution().p_pass == F(319, 512)
    r = e.roll(FixedRng(6, 6, 1, 1, 1, 1, 6, 6, 1, 1))
    assert r.tree.details["winner"] == "tie" and r.check.passed is False
    assert len(r.dice) == 10 and sum(d.note == "vs" for d in r.dice) == 4


def test_previous_success_note():
    r = parse("pool 3").roll(FixedRng(6, 6, 6))
    assert r.tree.details["previous_success_bonus"] == 2 and "+2" in r.notes[0]["en"]


@pytest.mark.parametrize(
    "text,pos",
    [
        ("pool", 4),
        ("pool x", 5),
        ("pool 3 foo", 7),
        ("pool 3 diff", 11),
        ("pool max(1,2", 12),
        ("pool @dexterity", 5),
        ("pool 3 diff 1 diff 2", 14),
        ("pool 3 diff -1", 7),
        ("pool 3 [x", 7),
        ("pool 1234567", 5),
        ("pool 3 contest 1 contest 2", 17),
    ],
)
def test_errors_point_at_the_problem(text, pos):
    with pytest.raises(DiceError) as e:
        parse(text)
    assert e.value.position == pos and e.value.message_ru


def test_error_positions_are_absolute():
    text = "2 + pool 3 oops"
    with pytest.raises(DiceError) as e:
        parse_pool(text, 4, len(text))
    assert e.value.position == 11 and e.value.expression == text


def test_rolloff_word():
    e = parse("rolloff Ann Bob Cid")
    r = e.roll(FixedRng(5, 5, 2, 8, 1))
    assert r.tree.details["order"] == ["Ann", "Bob", "Cid"]  # 5, 5, 2; Ann and Bob roll again: 8, 1
    assert r.tree.details["rolls"] == {"Ann": (5, 8), "Bob": (5, 1), "Cid": (2,)}
    with pytest.raises(DiceError):
        e.distribution()
    for bad in ("rolloff", "rolloff Ann", "rolloff Ann Ann"):
        with pytest.raises(DiceError):
            parse_rolloff(bad, 0, len(bad))


def test_sheet_variables_when_supplied():
    text = "pool @dexterity+@larceny+2-1 diff 4"
    assert parse_pool(text, 0, len(text), context=WordContext({"dexterity": 3, "larceny": 2})).pool == 2
    text = "pool @{Ловкость}+1"
    assert parse_pool(text, 0, len(text), context=WordContext({"Ловкость": 4})).pool == 5
    with pytest.raises(DiceError) as e:
        parse_pool("pool @dex", 0, 9, context=WordContext({"strength": 2}))
    assert e.value.position == 5


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="pol 0123456789+-()[]dif max,contes@-r1x", max_size=30))
def test_parser_only_raises_dice_errors(tail):
    text = "pool " + tail
    try:
        e = parse_pool(text, 0, len(text))
    except DiceError as err:
        assert err.position is None or 0 <= err.position <= len(text)
        return
    if abs(e.pool) < 60 and (e.opponent is None or abs(e.opponent) < 60):
        assert sum(e.distribution().values()) == 1
        e.roll(random.Random(0))
