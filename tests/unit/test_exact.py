"""Exact odds (issue 3): ``distribution()`` equals icepool's exact distribution, fraction for
fraction, on hand-picked edge cases and on a generated set over the shared subset (sums,
keep/drop, counting, explosions at a fixed depth, rerolls). Sampling tests for what icepool cannot
express are in ``test_exact_sampling.py``; the rules specs' vectors in ``test_exact_rules.py``.
"""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest
from icepool import Die

from tabletop_widgets.dice import DiceError, DiceLimitError, chance, distribution, limits
from tabletop_widgets.dice import exact

d = icepool.d


def pmf(die) -> dict:
    den = die.denominator()
    return {int(k): Fraction(q, den) for k, q in die.items() if q}


def assert_same(text: str, die, **kw):
    ours = distribution(text, **kw)
    assert ours.truncated_mass == 0, text
    assert dict(ours) == pmf(die), text
    assert sum(ours.values()) == 1


@pytest.fixture
def depth():
    """Set the engine's per-die explosion/reroll limit and turn the 1e-12 cut-off off: the exact
    distribution is then finite and equals icepool's ``depth=`` version."""
    saved = limits.MAX_EXPLOSIONS, exact.TRUNCATE

    def set_depth(k: int):
        limits.MAX_EXPLOSIONS = k
        exact.TRUNCATE = Fraction(0)

    yield set_depth
    limits.MAX_EXPLOSIONS, exact.TRUNCATE = saved


def F(*faces):
    return Die(list(faces))


def count_map(M, succ, fail=None, dbl=None, faces=None):
    def f(x):
        s = 0
        if succ(x):
            s = 2 if dbl is not None and dbl(x) else 1
        if fail is not None and fail(x):
            s -= 1
        return s

    die = d(M) if faces is None else faces
    return die.map(f)


def rhalf(x: Fraction) -> int:
    import math

    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


# ------------------------------------------------------------------------------------------------
# hand-picked edge cases
# ------------------------------------------------------------------------------------------------
HAND = [
    ("3d6", lambda: 3 @ d(6)),
    ("1d1", lambda: d(1)),
    ("5d1+2", lambda: Die([7])),
    ("0d6", lambda: Die([0])),
    ("0d6+3", lambda: Die([3])),
    ("d20", lambda: d(20)),
    ("d%", lambda: d(100)),
    ("2d%", lambda: 2 @ d(100)),
    ("4dF", lambda: 4 @ F(-1, 0, 1)),
    ("dF.1", lambda: F(-1, 0, 0, 0, 0, 1)),
    ("3d{1,2,4,8}", lambda: 3 @ F(1, 2, 4, 8)),
    ("2d{-3,0,0,5}", lambda: 2 @ F(-3, 0, 0, 5)),
    ("3d{2,2,2}", lambda: Die([6])),
    ("4d6kh3", lambda: d(6).highest(4, 3)),
    ("4d6k3", lambda: d(6).highest(4, 3)),
    ("4d6dl1", lambda: d(6).highest(4, 3)),
    ("4d6d1", lambda: d(6).highest(4, 3)),
    ("4d6kl3", lambda: d(6).lowest(4, 3)),
    ("4d6dh1", lambda: d(6).lowest(4, 3)),
    ("8d6k6", lambda: d(6).highest(8, 6)),
    ("2d20kh1", lambda: d(20).highest(2, 1)),
    ("2d20kl1", lambda: d(20).lowest(2, 1)),
    ("2d20ph1", lambda: d(20).lowest(2, 1)),
    ("2d20pl1", lambda: d(20).highest(2, 1)),
    ("1d20 adv", lambda: d(20).highest(2, 1)),
    ("1d20+5 dis", lambda: d(20).lowest(2, 1) + 5),
    ("3d6kh0", lambda: Die([0])),
    ("3d6kh5", lambda: 3 @ d(6)),
    ("3d6dl5", lambda: Die([0])),
    ("3d6dh3", lambda: Die([0])),
    # keep/drop select from the whole pool (d20, rpg-dice-roller; issue 21): kh3 minus the lowest
    ("5d6kh3dl1", lambda: d(6).highest(5, 3)),
    ("5d6dh1dl1", lambda: d(6).pool(5)[1:4].sum()),
    ("6d6kh4kl2", lambda: 6 @ d(6)),  # the union of the keeps: every die
    ("20d10kh2", lambda: d(10).highest(20, 2)),
    ("9d20kh1", lambda: d(20).highest(9, 1)),
    ("16d10kh8", lambda: d(10).highest(16, 8)),
    ("12d8kl3", lambda: d(8).lowest(12, 3)),
    ("7d12dh2dl2", lambda: d(12).pool(7)[2:5].sum()),
    ("5dFkh2", lambda: F(-1, 0, 1).highest(5, 2)),
    ("4d{1,1,3,7}kl2", lambda: F(1, 1, 3, 7).lowest(4, 2)),
    ("10d10>=6", lambda: d(10).count(10, range(6, 11))),
    ("6d10>7", lambda: d(10).count(6, range(8, 11))),
    ("6d10=10", lambda: d(10).count(6, [10])),
    ("6d10<>1", lambda: d(10).count(6, range(2, 11))),
    ("6d10<3", lambda: d(10).count(6, [1, 2])),
    ("6d10<=3", lambda: d(10).count(6, [1, 2, 3])),
    ("30d10>=8f1", lambda: 30 @ count_map(10, lambda x: x >= 8, lambda x: x == 1)),
    ("8d10>=6f<3", lambda: 8 @ count_map(10, lambda x: x >= 6, lambda x: x < 3)),
    ("8d10>=6dbl=10", lambda: 8 @ count_map(10, lambda x: x >= 6, None, lambda x: x == 10)),
    ("8d10>=6f1dbl>=9", lambda: 8 @ count_map(10, lambda x: x >= 6, lambda x: x == 1, lambda x: x >= 9)),
    ("5d10>=6f>=6", lambda: Die([0])),
    ("4d6kh3>=4", lambda: count_map(6, lambda x: x >= 4).highest(4, 3)),
    (
        "5d10kh3>=6f1",
        lambda: (
            count_map(10, lambda x: x >= 6, lambda x: x == 1).highest(5, 3)
            if False
            else d(10).pool(5).highest(3).expand().map(lambda t: sum((x >= 6) - (x == 1) for x in t))
        ),
    ),
    ("6d6k>3", lambda: 6 @ d(6).map(lambda x: x if x > 3 else 0)),
    ("6d6p<3", lambda: 6 @ d(6).map(lambda x: 0 if x < 3 else x)),
    ("6d6k=6", lambda: 6 @ d(6).map(lambda x: 6 if x == 6 else 0)),
    ("6d6d>4", lambda: 6 @ d(6).map(lambda x: 0 if x > 4 else x)),
    # the dice over 3 together with the top two: the top max(2, #over 3)
    ("6d6k>3kh2", lambda: d(6).pool(6).expand().map(lambda t: sum(t[-max(2, sum(1 for x in t if x > 3)) :]))),
    ("3d6min3", lambda: 3 @ d(6).map(lambda x: max(x, 3))),
    ("3d6mi2ma5", lambda: 3 @ d(6).map(lambda x: min(max(x, 2), 5))),
    ("4d6max4kh2", lambda: d(6).map(lambda x: min(x, 4)).highest(4, 2)),
    ("3d6min7", lambda: Die([21])),
    ("2d6+3", lambda: 2 @ d(6) + 3),
    ("3d6+2d8+4", lambda: 3 @ d(6) + 2 @ d(8) + 4),
    ("10d6-4d8", lambda: 10 @ d(6) - 4 @ d(8)),
    ("-2d4", lambda: -(2 @ d(4))),
    ("2d6*3", lambda: (2 @ d(6)) * 3),
    ("1d6*1d6", lambda: d(6) * d(6)),
    ("1d6*-1d4", lambda: d(6) * -d(4)),
    ("(1d4)d6", lambda: d(4) @ d(6)),
    ("(1d4-1)d6", lambda: (d(4) - 1) @ d(6)),
    ("(2d2)d(1d3+1)", lambda: (2 @ d(2)).map(lambda n: (d(3) + 1).map(lambda s: n @ d(s)))),
    ("d(1d6+2)", lambda: (d(6) + 2).map(lambda s: d(s))),
    ("1d6^2", lambda: d(6) ** 2),
    ("2^1d4", lambda: d(4).map(lambda e: 2**e)),
    ("1d20//3", lambda: d(20) // 3),
    ("-1d20//3", lambda: (-d(20)) // 3),
    ("1d20%7", lambda: d(20) % 7),
    ("1d20/3", lambda: d(20) // 3),
    ("-1d20/3", lambda: (-d(20)) // 3),
    (
        "2d6/1d3",
        lambda: (
            (2 @ d(6)).map(lambda a: d(3).map(lambda b: Fraction(a, b))).map(lambda x: x.numerator // x.denominator)
        ),
    ),
    ("1d6/4+1d6/4", lambda: (d(6) + d(6)) // 4),
    ("floor(1d6/4)+floor(1d6/4)", lambda: d(6) // 4 + d(6) // 4),
    ("round(1d6/4)", lambda: d(6).map(lambda x: rhalf(Fraction(x, 4)))),
    ("round(-1d6/4)", lambda: d(6).map(lambda x: rhalf(Fraction(-x, 4)))),
    ("round(3d6/2)", lambda: (3 @ d(6)).map(lambda x: rhalf(Fraction(x, 2)))),
    ("ceil(2d6/4)", lambda: (2 @ d(6)).map(lambda x: -((-x) // 4))),
    ("abs(1d6-4)", lambda: (d(6) - 4).abs()),
    ("max(1d6,1d8)", lambda: icepool.highest(d(6), d(8))),
    ("min(1d6,1d8,1d10)", lambda: icepool.lowest(d(6), d(8), d(10))),
    ("max(2d6, 7)", lambda: (2 @ d(6)).map(lambda x: max(x, 7))),
    ("{1d6, 1d8}kh1", lambda: icepool.highest(d(6), d(8))),
    ("{1d20+5, 1d20+3}kh1", lambda: icepool.highest(d(20) + 5, d(20) + 3)),
    ("{1d6, 1d8, 1d10}kh2", lambda: icepool.Pool([d(6), d(8), d(10)]).highest(2).sum()),
    ("{1d6, 1d8, 1d10}dl1", lambda: icepool.Pool([d(6), d(8), d(10)]).highest(2).sum()),
    ("{3d6, 3d6, 3d6}kl1", lambda: (3 @ d(6)).lowest(3, 1)),
    ("{2d6, 1d12}>=7", lambda: (2 @ d(6)).map(lambda x: int(x >= 7)) + d(12).map(lambda x: int(x >= 7))),
    (
        "{2d6, 1d12}>=7f<3",
        lambda: (2 @ d(6)).map(lambda x: (x >= 7) - (x < 3)) + d(12).map(lambda x: (x >= 7) - (x < 3)),
    ),
    ("{1d6, 1d8}", lambda: d(6) + d(8)),
    ("{4d6}kh3", lambda: d(6).highest(4, 3)),
    ("{5d6}>=5", lambda: d(6).count(5, [5, 6])),
    ("{4d6kh3}kl1", lambda: d(6).pool(4)[1:2].sum()),
    ("(3d6, 2d8)kh1", lambda: icepool.highest(3 @ d(6), 2 @ d(8))),
    # xo: each die explodes at most once (x3<5 is one budget for the whole term: see
    # test_notation_peers.py)
    ("6d6xo", lambda: 6 @ d(6).explode(depth=1)),
    ("3d6xo", lambda: 3 @ d(6).explode(depth=1)),
    ("3d6xo>=5", lambda: 3 @ d(6).explode([5, 6], depth=1)),
    ("2d10xo>8", lambda: 2 @ d(10).explode([9, 10], depth=1)),
    ("2d6x0=6", lambda: 2 @ d(6)),
    ("3d6ro1", lambda: 3 @ d(6).reroll([1], depth=1)),
    ("3d6ro<3", lambda: 3 @ d(6).reroll([1, 2], depth=1)),
    ("4d6ro1kh3", lambda: d(6).reroll([1], depth=1).highest(4, 3)),
    ("2d20ro<5kh1", lambda: d(20).reroll(range(1, 5), depth=1).highest(2, 1)),
    ("5d10ro1>=6", lambda: d(10).reroll([1], depth=1).count(5, range(6, 11))),
    ("2d6+3 >= 8", lambda: 2 @ d(6) + 3),
    ("1d20 vs 1d20", lambda: d(20)),
]


@pytest.mark.parametrize("text,build", HAND, ids=[h[0] for h in HAND])
def test_hand_picked(text, build):
    assert_same(text, build())


DEPTH = [
    (3, "1d6!", lambda: d(6).explode(depth=3)),
    (3, "3d6!", lambda: 3 @ d(6).explode(depth=3)),
    (4, "2d6!>=5", lambda: 2 @ d(6).explode([5, 6], depth=4)),
    (2, "2d4!=1", lambda: 2 @ d(4).explode([1], depth=2)),
    (3, "2d6!!", lambda: 2 @ d(6).explode(depth=3)),
    (3, "4d6!!kh2", lambda: d(6).explode(depth=3).highest(4, 2)),
    (3, "4d6!!k4>=8", lambda: d(6).explode(depth=3).count(4, range(8, 30))),
    # r / rr reroll until the die stops matching: a conditioning, exact whatever the depth
    # limit of explosions (issue 21), so icepool's depth='inf'
    (5, "3d6r1", lambda: 3 @ d(6).reroll([1], depth="inf")),
    (4, "2d20r<3", lambda: 2 @ d(20).reroll([1, 2], depth="inf")),
    (4, "4d6r1kh3", lambda: d(6).reroll([1], depth="inf").highest(4, 3)),
    (3, "4d6rr<3", lambda: 4 @ d(6).reroll([1, 2], depth="inf")),
    (
        3,
        "6d10r1>=8f1",
        lambda: 6 @ count_map(10, lambda x: x >= 8, lambda x: x == 1, faces=d(10).reroll([1], depth="inf")),
    ),
    (2, "3d6min2!", lambda: 3 @ d(6).map(lambda x: max(x, 2)).explode(depth=2)),
    (2, "3d6max5!", lambda: 3 @ d(6).map(lambda x: min(x, 5)).explode(depth=2)),
    (3, "2d6!x", lambda: None),  # placeholder replaced below
]
DEPTH = [c for c in DEPTH if c[1] != "2d6!x"]


@pytest.mark.parametrize("k,text,build", DEPTH, ids=[f"{c[1]}@depth{c[0]}" for c in DEPTH])
def test_fixed_depth(depth, k, text, build):
    depth(k)
    assert_same(text, build())


def test_checks_p_pass_against_icepool():
    die = pmf(2 @ d(6) + 3)
    assert distribution("2d6+3 >= 8").p_pass == sum(p for k, p in die.items() if k >= 8)
    assert distribution("1d20+2 vs 12").p_pass == Fraction(11, 20)
    assert distribution("1d20 dc 15").p_pass == Fraction(6, 20)
    assert distribution("1d20 > 1d20").p_pass == Fraction(190, 400)
    assert distribution("1d20 = 1d20").p_pass == Fraction(20, 400)
    assert distribution("3d6 < 2d8+1").p_pass == sum(
        p
        for (a, b), p in [
            ((a, b), Fraction(pa) * Fraction(pb))
            for a, pa in pmf(3 @ d(6)).items()
            for b, pb in pmf(2 @ d(8) + 1).items()
        ]
        if a < b
    )
    assert chance("2d6", ">=", 7) == Fraction(21, 36)


# ------------------------------------------------------------------------------------------------
# the generated set over the shared subset
# ------------------------------------------------------------------------------------------------
SIDES = [2, 3, 4, 6, 8, 10, 12, 20]


def _gen_sum(r):
    terms, dice = [], []
    for _ in range(r.randint(1, 3)):
        n, m = r.randint(1, 5), r.choice(SIDES)
        sign = r.choice("++-") if terms else ""
        terms.append(f"{sign}{n}d{m}")
        die = n @ d(m)
        dice.append(-die if sign == "-" else die)
    c = r.randint(-5, 5)
    text = "".join(terms) + (f"{c:+d}" if c else "")
    total = dice[0]
    for x in dice[1:]:
        total = total + x
    return text, (lambda: total + c)


def _gen_keep(r):
    m = r.choice(SIDES)
    n = r.randint(1, 9)
    k = r.randint(0, n)
    kind = r.choice(["kh", "kl", "dh", "dl"])
    if kind == "kh":
        build = (lambda: d(m).highest(n, k)) if k else (lambda: Die([0]))
    elif kind == "kl":
        build = (lambda: d(m).lowest(n, k)) if k else (lambda: Die([0]))
    elif kind == "dh":
        build = (lambda: d(m).lowest(n, n - k)) if n - k else (lambda: Die([0]))
    else:
        build = (lambda: d(m).highest(n, n - k)) if n - k else (lambda: Die([0]))
    return f"{n}d{m}{kind}{k}", build


def _gen_count(r):
    m = r.choice([6, 8, 10, 12, 20])
    n = r.randint(1, 12)
    t = r.randint(2, m)
    op = r.choice([">=", ">", "="])
    succ = {">=": lambda x: x >= t, ">": lambda x: x > t, "=": lambda x: x == t}[op]
    text = f"{n}d{m}{op}{t}"
    fail = dbl = None
    if r.random() < 0.5:
        f = r.randint(1, 2)
        text += f"f<={f}" if f > 1 else "f1"

        def fail(x):
            return x <= f

    if r.random() < 0.3:
        text += f"dbl={m}"

        def dbl(x):
            return x == m

    return text, (lambda: n @ count_map(m, succ, fail, dbl))


def _gen_explode_capped(r):
    m = r.choice([4, 6, 8, 10])
    n = r.randint(1, 4)
    r.randint(0, 4)  # (was a per-die cap: drawn still, so the generated set stays the same)
    t = r.randint(max(2, m - 2), m)
    return f"{n}d{m}xo>={t}", (lambda: n @ d(m).explode(range(t, m + 1), depth=1))


def _gen_reroll_once(r):
    m = r.choice([4, 6, 8, 10, 12, 20])
    n = r.randint(1, 6)
    t = r.randint(1, m - 1)
    keep = r.random() < 0.4 and n > 1
    text = f"{n}d{m}ro<={t}" + (f"kh{n - 1}" if keep else "")
    die = d(m).reroll(range(1, t + 1), depth=1)
    return text, ((lambda: die.highest(n, n - 1)) if keep else (lambda: n @ die))


def _gen_clamp_keep(r):
    m = r.choice([6, 8, 10, 12])
    n = r.randint(2, 6)
    lo = r.randint(1, m // 2)
    k = r.randint(1, n)
    die = d(m).map(lambda x: max(x, lo))
    return f"{n}d{m}min{lo}kh{k}", (lambda: die.highest(n, k))


def _gen_custom(r):
    faces = [r.randint(-3, 6) for _ in range(r.randint(2, 5))]
    n = r.randint(1, 5)
    text = f"{n}d{{{','.join(map(str, faces))}}}"
    if r.random() < 0.5 and n > 1:
        return text + "kh1", (lambda: Die(faces).highest(n, 1))
    return text, (lambda: n @ Die(faces))


GENERATORS = [_gen_sum, _gen_keep, _gen_count, _gen_explode_capped, _gen_reroll_once, _gen_clamp_keep, _gen_custom]


def _generated(n=280, seed=2026):
    r = random.Random(seed)
    out, seen = [], set()
    while len(out) < n:
        text, build = GENERATORS[len(out) % len(GENERATORS)](r)
        if text not in seen:
            seen.add(text)
            out.append((text, build))
    return out


GENERATED = _generated()


@pytest.mark.parametrize("text,build", GENERATED, ids=[g[0] for g in GENERATED])
def test_generated_oracle(text, build):
    assert_same(text, build())


def _generated_depth(n=24, seed=7):
    r = random.Random(seed)
    out = []
    for i in range(n):
        m = r.choice([4, 6, 8, 10])
        k = r.randint(1, 4)
        nd = r.randint(1, 4)
        if i % 3 == 0:
            out.append((k, f"{nd}d{m}!", (lambda m=m, k=k, nd=nd: nd @ d(m).explode(depth=k))))
        elif i % 3 == 1:
            t = r.randint(1, m // 2)
            out.append((k, f"{nd}d{m}r<={t}", (lambda m=m, nd=nd, t=t: nd @ d(m).reroll(range(1, t + 1), depth="inf"))))
        else:
            out.append((k, f"{nd}d{m}!!kh1", (lambda m=m, k=k, nd=nd: d(m).explode(depth=k).highest(nd, 1))))
    return out


GEN_DEPTH = _generated_depth()


@pytest.mark.parametrize("k,text,build", GEN_DEPTH, ids=[f"{c[1]}@depth{c[0]}" for c in GEN_DEPTH])
def test_generated_depth_oracle(depth, k, text, build):
    depth(k)
    assert_same(text, build())


def test_oracle_count():
    assert len(HAND) + len(DEPTH) + len(GENERATED) + len(GEN_DEPTH) >= 300


# ------------------------------------------------------------------------------------------------
# truncation, notes, caching, errors, budget
# ------------------------------------------------------------------------------------------------
def test_explosion_cut_off_is_reported_not_renormalised():
    dist = distribution("1d6!")
    assert 0 < dist.truncated_mass < Fraction(1, 10**12)
    assert sum(dist.values()) + dist.truncated_mass == 1
    # every computed outcome is exactly icepool's (depth 20 reaches beyond our cut)
    deep = pmf(d(6).explode(depth=20))
    for k, p in dist.items():
        assert p == deep[k]
    assert abs(float(dist.mean) - 4.2) < 1e-9
    assert dist.notes and "cut off" in dist.notes[0]["en"]


def test_reroll_until_is_exact_not_cut_off():
    """An unbounded reroll is a conditioning (issue 21): uniform on 2..20, nothing cut off."""
    dist = distribution("1d20r1")
    assert dist.truncated_mass == 0
    assert 1 not in dist and set(dist.values()) == {Fraction(1, 19)}
    assert dist.mean == 11


def test_explosion_reaching_the_engine_limit_is_exact(depth):
    # with the limit at 100, 1d6!>=2 keeps 1/6^... : the chain stops at the limit, like roll()
    depth(100)
    dist = distribution("1d3!>=2")
    assert dist.truncated_mass == 0
    assert sum(dist.values()) == 1


def test_repetition_is_one_roll_with_a_note():
    dist = distribution("6#4d6kh3")
    assert dict(dist) == pmf(d(6).highest(4, 3))
    assert "one of the 6 rolls" in dist.notes[0]["en"]


def test_variables():
    assert dict(distribution("1d20+@str", variables={"str": 3})) == pmf(d(20) + 3)
    assert dict(distribution("@{n}d6", variables={"n": 2})) == pmf(2 @ d(6))
    with pytest.raises(DiceError):
        distribution("1d20+@nope", variables={"str": 3})


def test_check_outcomes_are_totals_with_p_pass():
    dist = distribution("2d6+3 >= 8")
    assert dist.outcome == "total"
    assert dist.min == 5 and dist.max == 15
    assert dist.p_pass == Fraction(30, 36)


def test_cache_is_used():
    exact.clear_cache()
    distribution("{4d6kh3, 4d6kh3}kh1")
    info = exact.cache_info()
    assert info.hits >= 1
    before = info.hits
    distribution("4d6kh3+1")
    assert exact.cache_info().hits > before


def test_division_by_zero_possible_is_an_error():
    with pytest.raises(DiceError, match="division by zero"):
        distribution("1d6/(1d3-1)")


def test_unique_small_pools_exact_and_refusals():
    # 2d6uo: the second die is rerolled once when it equals the first
    dist = distribution("2d6uo")
    brute = {}
    for a in range(1, 7):
        for b in range(1, 7):
            if a != b:
                brute[a + b] = brute.get(a + b, 0) + Fraction(1, 36)
            else:
                for c in range(1, 7):
                    brute[a + c] = brute.get(a + c, 0) + Fraction(1, 216)
    assert dict(dist) == brute
    # 6d6u: six different faces, unless the last die repeats a seen face 100 times (the
    # engine's limit: (5/6)^100 ~ 1.2e-8, then the duplicate stays)
    dist = distribution("6d6u")
    assert 1 - Fraction(1, 10**7) < dist[21] < 1 - Fraction(1, 10**8)
    assert dist.truncated_mass < Fraction(1, 10**11) and (dist.min, dist.max) == (16, 26)
    with pytest.raises(DiceError, match="unique"):
        distribution("4d6!u")
    with pytest.raises(DiceLimitError, match="too large for exact odds"):
        distribution("12d20u")


def test_margin_distribution():
    from tabletop_widgets.dice.exact import margin_distribution

    m = margin_distribution("2d6+3 >= 8")
    assert m.outcome == "margin" and m.min == -3 and m.max == 7
    assert m.chance(">=", 0) == m.p_pass == Fraction(5, 6)
    m = margin_distribution("1d20+5 vs 1d20+3")
    assert m.p_pass == m.chance(">=", 0) == Fraction(247, 400)
    with pytest.raises(DiceError):
        margin_distribution("2d6")


def test_roll_magic_prob_renders():
    from IPython.terminal.interactiveshell import TerminalInteractiveShell
    from IPython.testing.globalipapp import start_ipython

    start_ipython()  # returns None when another test file started the shared test shell
    ip = TerminalInteractiveShell.instance()
    ip.run_line_magic("load_ext", "tabletop_widgets")
    view = ip.run_line_magic("roll", "--prob 2d6+3 >= 8")
    data, _ = ip.display_formatter.format(view)
    assert "P(pass) = 5/6" in data["text/plain"]
    assert "tt-dist" in data["text/html"] and "83.33%" in data["text/html"]
    view = ip.run_line_magic("roll", "--prob --locale ru 1d6!")
    data, _ = ip.display_formatter.format(view)
    assert "cut off" in data["text/plain"] and "tt-bar" in data["text/html"]


def test_budget_refuses_with_limit_error():
    with pytest.raises(DiceLimitError, match="too large for exact odds"):
        distribution("4d1000000")
    with pytest.raises(DiceLimitError, match="too large for exact odds"):
        distribution("1d100000*1d100000")


def test_big_pools_have_exact_odds():
    """Big keep/count pools are computed exactly (their speed is `bench/odds.py`'s, not a test's)."""
    from fractions import Fraction

    means = {"100d6": Fraction(350), "40d10>=6": Fraction(20), "9d20kh1": None, "20d10kh2": None}
    for text in ("20d10kh2", "16d10kh8", "9d20kh1", "100d6", "40d10>=6", "50d20kh10"):
        exact.clear_cache()
        d = distribution(text)
        assert sum(d.values()) == 1, text
        if means.get(text) is not None:
            assert sum(Fraction(k) * p for k, p in d.items()) == means[text], text
    # 9d20kh1: P(highest <= k) = (k/20)^9
    d = distribution("9d20kh1")
    assert sum(p for k, p in d.items() if k <= 10) == Fraction(1, 2**9)


def test_word_without_exact_odds_says_so():
    import re
    from tabletop_widgets.dice import DiceWord, register_word, unregister_word

    class NoOdds:
        def roll(self, rng):  # pragma: no cover
            raise NotImplementedError

        def distribution(self):
            raise DiceError("the ladder has no closed form")

    register_word(DiceWord(name="zz_test", pattern=re.compile(r"zzq\d"), parse=lambda text, s, e: NoOdds()))
    try:
        with pytest.raises(DiceError, match="no exact odds for this system roll"):
            distribution("zzq1")
    finally:
        unregister_word("zz_test")


def test_word_with_exact_odds_is_used():
    import re
    from tabletop_widgets.dice import DiceWord, Distribution, register_word, unregister_word

    class Odds:
        def roll(self, rng):  # pragma: no cover
            raise NotImplementedError

        def distribution(self):
            return Distribution({1: Fraction(1, 2), 2: Fraction(1, 2)})

    register_word(DiceWord(name="zz_test2", pattern=re.compile(r"zzw\d"), parse=lambda text, s, e: Odds()))
    try:
        assert dict(distribution("zzw1")) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    finally:
        unregister_word("zz_test2")


def test_html_renders():
    html = distribution("2d6+3 >= 8")._repr_html_()
    assert "<table>" in html and "mean" in html
