"""Issue 21, exactness: an unbounded reroll is a conditioning (computed exactly, checked against
icepool), a reroll whose condition matches every face works or says why, and the time budget
refuses within its limit (checked with an injected clock, never by timing)."""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_widgets.dice import DiceError, DiceLimitError, distribution, roll
from tabletop_widgets.dice import exact


def as_fractions(die) -> dict:
    den = die.denominator()
    return {int(k): Fraction(q, den) for k, q in die.items() if q}


def test_reroll_until_is_exactly_uniform_on_the_rest():
    d = distribution("1d6r<3")
    assert dict(d) == {3: Fraction(1, 4), 4: Fraction(1, 4), 5: Fraction(1, 4), 6: Fraction(1, 4)}
    assert d.truncated_mass == 0 and not any("cut off" in n["en"] for n in d.notes)


@pytest.mark.parametrize(
    "text,ice",
    [
        ("1d6r<3", lambda: icepool.d6.reroll([1, 2], depth="inf")),
        ("4d6r1kh3", lambda: icepool.d6.reroll([1], depth="inf").highest(4, 3)),
        ("2d6rr<2", lambda: 2 @ icepool.d6.reroll([1], depth="inf")),
        ("3d10r>8", lambda: 3 @ icepool.d10.reroll([9, 10], depth="inf")),
        ("d%r<50", lambda: icepool.d100.reroll(list(range(1, 50)), depth="inf")),
        ("5d8r<=2>=6", lambda: icepool.d8.reroll([1, 2], depth="inf").count(5, range(6, 9))),
        ("1d{1,1,2,5}r1", lambda: icepool.Die([1, 1, 2, 5]).reroll([1], depth="inf")),
    ],
)
def test_reroll_until_agrees_with_icepool(text, ice):
    d = distribution(text)
    assert dict(d) == as_fractions(ice()) and d.truncated_mass == 0


def test_explosions_keep_their_reported_cut_off():
    d = distribution("1d6!")
    assert 0 < d.truncated_mass < Fraction(1, 10**12)
    assert any("cut off" in n["en"] for n in d.notes)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("2d1ra1", {3: 1}),  # both dice match: the extra die always comes (d20: 3)
        ("2d2ra<3", {3: Fraction(1, 8), 4: Fraction(3, 8), 5: Fraction(3, 8), 6: Fraction(1, 8)}),
        ("2d{3,3}ra3", {9: 1}),
        ("2d1ra1>=1", {3: 1}),
        ("1d1ro1", {1: 1}),
    ],
)
def test_a_reroll_matching_every_face_has_exact_odds(text, expected):
    assert dict(distribution(text)) == expected
    assert roll(text, seed=3).total in expected


# every r / rr / ra / ro on dice whose faces all match: odds or a DiceError, never another error
ALL_MATCH = st.tuples(
    st.integers(0, 4),
    st.sampled_from(
        [
            ("1", ["1", "<2", "<=1", ">0", "!=2"]),
            ("2", ["<3", "<=2", ">=1", "!=7"]),
            ("{3,3}", ["3", "=3", ">2"]),
            ("F", [">-2", "<2", "!=5"]),
            ("{1,1,2}", ["<3", ">0"]),
            ("6", ["<7", ">=1"]),
        ]
    ),
    st.sampled_from(["r", "rr", "ra", "ro"]),
    st.data(),
)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(ALL_MATCH)
def test_rerolls_matching_every_face_never_raise_another_error(case):
    n, (faces, cps), kind, data = case
    cp = data.draw(st.sampled_from(cps))
    extra = data.draw(st.sampled_from(["", "kh1", "dl1", ">=2", "ro1", "ra1", "!", "xo", "min2", "u"]))
    text = f"{n}d{faces}{kind}{cp}{extra}"
    try:
        d = distribution(text)
    except DiceError:
        return
    try:
        totals = {roll(text, rng=random.Random(s)).total for s in range(5)}
    except DiceError:
        return
    assert totals <= set(d), (text, totals, dict(d))


# -- the time budget, checked with an injected clock -------------------------------------------
# a mixture over computed counts and faces, a sum of exploding dice, keep on groups, a big sum,
# a pool of compounding dice, a check with dice on both sides
SLOW = ["(2d6)d(1d8+4)", "12d12!p", "{4d6,3d8,2d10}kh2", "100d20", "10d6!!", "4d6kh3+1d8 >= 2d10"]


class Clock:
    """Reads 0 until reading number ``at``, then a time past any limit."""

    def __init__(self, at: int):
        self.at, self.reads = at, 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads <= self.at else 1e9


def _reads(text: str) -> int:
    exact.clear_cache()
    c = Clock(10**12)
    exact.distribution(text, clock=c)
    return c.reads


@pytest.mark.parametrize("text", SLOW)
def test_time_up_at_any_step_refuses_never_answers_late(text):
    """Whenever the limit passes (after any clock reading, the last one included), the call
    refuses at the next reading: no result comes back after the budget."""
    total = _reads(text)
    assert total > 3  # the computation checks as it goes
    for at in sorted({1, 2, total // 3, total // 2, total - 2, total - 1}):
        exact.clear_cache()
        c = Clock(at)
        with pytest.raises(DiceLimitError, match=r"too large for exact odds \(more than 5 s\)"):
            exact.distribution(text, clock=c)
        assert c.reads == at + 1  # refused at the first reading past it


def test_big_multiplications_check_the_clock_between_steps():
    """``25d6!!`` is one sum of 25 compounding dice: the packed power is done step by step,
    so the clock is read several times inside it, not only before and after."""
    reads = _reads("25d6!!")
    exact.clear_cache()
    assert reads >= 8
