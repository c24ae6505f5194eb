"""The system-word registry: a fake system word plugs into roll() and renders."""
import re
from fractions import Fraction

import pytest

from tabletop_widgets.dice import (DiceError, DiceWord, Distribution, Die, check_from, register_word,
                                   roll, unregister_word, word_result)


class CoinFlips:
    """Fake word ``coins N [>= K]``: N coins, heads count 1."""

    def __init__(self, text, n, target, target_pos):
        self.text, self.n, self.target = text, n, target

    def roll(self, rng):
        dice = [Die("coin", rng.randrange(2)) for _ in range(self.n)]
        heads = sum(d.value for d in dice)
        check = check_from(heads, ">=", self.target) if self.target is not None else None
        return word_result(self.text, "coins", heads, dice,
                           {"en": f"coins {self.n}: {heads} heads", "ru": f"монеты {self.n}: {heads} орлов"},
                           check=check)

    def distribution(self):
        from math import comb
        pmf = {k: Fraction(comb(self.n, k), 2 ** self.n) for k in range(self.n + 1)}
        p = None if self.target is None else sum(v for k, v in pmf.items() if k >= self.target)
        return Distribution(pmf, p_pass=p, expression=self.text)


def parse_coins(text, start, end):
    m = re.compile(r"coins\s+(\d+)(?:\s*>=\s*(\d+))?\s*$").match(text, start, end)
    if not m:
        raise DiceError("expected 'coins N' or 'coins N >= K'", start + 5, text)
    return CoinFlips(text[start:end], int(m.group(1)), int(m.group(2)) if m.group(2) else None, m.start(2))


@pytest.fixture
def coins():
    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_coins, system="test"))
    yield
    unregister_word("coins")


def test_word_rolls_through_roll(coins):
    r = roll("coins 10 >= 5", seed=3)
    assert 0 <= r.total <= 10 and r.check is not None and len(r.dice) == 10
    assert "heads" in str(r) and "орлов" in r.text("ru")
    assert "tt-die" in r._repr_html_()


def test_word_repetition_and_comment(coins):
    r = roll("3#coins 4 # flips", seed=1)
    assert len(r.results) == 3 and r.results[0].comment == "flips"


def test_word_distribution(coins):
    from tabletop_widgets.dice import chance, distribution
    assert distribution("coins 2")[1] == Fraction(1, 2)
    assert chance("coins 3", ">=", 2) == Fraction(1, 2)


def test_word_error_position(coins):
    with pytest.raises(DiceError) as e:
        roll("coins x")
    assert e.value.position == 5


def test_unknown_word_without_registration():
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 3")


def test_registering_a_word_forgets_cached_parses():
    with pytest.raises(DiceError):
        roll("coins 2")
    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_coins, system="test"))
    try:
        assert 0 <= roll("coins 2", seed=1).total <= 2
    finally:
        unregister_word("coins")
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 2")


def test_word_receives_variables_when_it_asks():
    seen = {}

    def parse_v(text, start, end, variables=None):
        seen["v"] = variables
        return parse_coins(text, start, end)

    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_v, system="test"))
    try:
        roll("coins 1", seed=1, variables={"x": 1})
        assert seen["v"] == {"x": 1}
    finally:
        unregister_word("coins")
