"""Hypothesis: random text and random valid expressions raise nothing but DiceError, and every
result stays within the expression's static bounds. (CI runs at least 5,000 examples of each.)"""

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_widgets.dice import DiceError, roll
from tabletop_widgets.dice.bounds import bounds
from tabletop_widgets.dice.parser import parse

EXAMPLES = int(os.environ.get("TT_HYPOTHESIS_EXAMPLES", "5000"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

ALPHABET = "0123456789d%F{}()[],+-*/^!<>=#@ khlpdrouesfcxminaxdblvs\n\tадв"


@SETTINGS
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_random_text_raises_only_dice_error(text):
    try:
        roll(text, rng=random.Random(1))
    except DiceError as e:
        assert e.position is None or 0 <= e.position <= len(text)


@SETTINGS
@given(st.text(max_size=30))
def test_any_unicode_raises_only_dice_error(text):
    try:
        roll(text, rng=random.Random(1))
    except DiceError:
        pass


# --- valid expressions -------------------------------------------------------------------------
small = st.integers(min_value=0, max_value=12)
faces = st.sampled_from(["4", "6", "8", "10", "12", "20", "%", "F", "{1,3,5}", "{-2,0,2}"])
cps = st.builds(lambda op, n: f"{op}{n}", st.sampled_from(["=", ">", ">=", "<", "<=", "<>"]), st.integers(1, 12))


def dice_term():
    mods = st.lists(
        st.sampled_from(
            [
                "kh2",
                "kl1",
                "dh1",
                "dl1",
                "k>3",
                "p<2",
                "r1",
                "ro<2",
                "ra1",
                "!",
                "!!",
                "!p",
                "xo",
                "min2",
                "max5",
                "s",
                "sd",
                "cs>=5",
                "cf1",
                ">=4",
                "u",
                "uo",
            ]
        ),
        max_size=3,
        unique=True,
    )
    return st.builds(lambda n, f, ms: f"{n}d{f}{''.join(ms)}", st.integers(0, 8), faces, mods)


def expr(depth=2):
    leaf = st.one_of(small.map(str), dice_term())
    if depth == 0:
        return leaf
    sub = expr(depth - 1)
    return st.one_of(
        leaf,
        st.builds(lambda a, op, b: f"{a} {op} {b}", sub, st.sampled_from(["+", "-", "*", "//"]), sub),
        st.builds(lambda a: f"({a})", sub),
        st.builds(lambda a, b: f"{{{a}, {b}}}kh1", sub, sub),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["abs", "floor", "ceil"]), sub),
        st.builds(lambda a, b: f"max({a}, {b})", sub, sub),
    )


@SETTINGS
@given(expr(), st.integers(0, 2**32))
def test_valid_expressions_stay_within_bounds(text, seed):
    try:
        parsed = parse(text)
    except DiceError:
        return  # generated combinations may be illegal (e.g. an explosion on every face): fine
    try:
        r = roll(text, seed=seed)
    except DiceError:
        return  # limits (too many dice after explosions) are DiceErrors too
    try:
        lo, hi = bounds(parsed)
    except ValueError:
        return
    assert lo <= r.total <= hi, (text, r.total, lo, hi, str(r))


# --- the compiled fast path agrees with the ordinary evaluator --------------------------------
fast_term = st.builds(
    lambda n, f, m: f"{n}d{f}{m}",
    st.integers(0, 6),
    st.sampled_from(["4", "6", "10", "20", "{1,3,5}"]),
    st.sampled_from(["", "", "kh2", "kl1", "dh1", "dl2", ">=4", "<3", "!", "!>=5", "xo", "x2>4"]),
)


def fast_expr(depth=2):
    leaf = st.one_of(st.integers(0, 9).map(str), fast_term, st.builds(lambda t: f"{t}[fire]", fast_term))
    if depth == 0:
        return leaf
    sub = fast_expr(depth - 1)
    return st.one_of(
        leaf,
        st.builds(lambda a, op, b: f"{a} {op} {b}", sub, st.sampled_from(["+", "-", "*", "//"]), sub),
        st.builds(lambda a: f"-({a})", sub),
        st.builds(lambda a: f"+({a}) [bonus]", sub),
        st.builds(lambda a, b, k: f"{{{a}, {b}}}{k}", sub, sub, st.sampled_from(["", "kh1", "kl1", "dh1", "dl1"])),
        st.builds(lambda a, b: f"{a} >= {b}", sub, sub),
    )


@settings(max_examples=min(EXAMPLES, 3000), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(fast_expr(), st.integers(0, 2**32))
def test_fast_path_equals_full_evaluator(text, seed):
    from tabletop_widgets.dice.engine import Context, _roll_once

    try:
        parsed = parse(text)
    except DiceError:
        return
    try:
        full = _roll_once(parsed, Context(random.Random(seed), None, text), "en", None)
    except DiceError as e:
        with __import__("pytest").raises(DiceError) as e2:
            roll(text, seed=seed)
        assert str(e2.value) == str(e)
        return
    fast = roll(text, seed=seed)
    assert fast.total == full.total and str(fast) == str(full), text
    assert fast.successes == full.successes and (fast.check is None) == (full.check is None)
    if fast.check is not None:
        assert (fast.check.passed, fast.check.margin) == (full.check.passed, full.check.margin)


# --- the default path: one private generator, seeded afresh in a forked child ----------------
def test_default_path_builds_no_generator_per_roll(monkeypatch):
    made = []

    class Counting(random.Random):
        def __init__(self, *a):
            made.append(a)
            super().__init__(*a)

    monkeypatch.setattr(random, "Random", Counting)
    totals = {roll("1d20+5").total for _ in range(200)}
    assert made == [] and totals <= set(range(6, 26)) and len(totals) > 5
    assert str(roll("4d6kh3")).startswith("4d6kh3 [")


def test_default_generator_is_reseeded_in_a_forked_child():
    import pytest

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    roll("1d6")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: roll and report, then leave at once
        try:
            os.write(w, repr([roll("1d1000000").total for _ in range(4)]).encode())
        finally:
            os._exit(0)
    os.close(w)
    ours = [roll("1d1000000").total for _ in range(4)]
    with os.fdopen(r) as f:
        theirs = f.read()
    os.waitpid(pid, 0)
    assert theirs and theirs != repr(ours)
