"""Exact odds of the d10 pool (spec §5.4, §5.6, §5.13) against brute force and icepool."""

import random
from collections import Counter
from fractions import Fraction as F
from itertools import product

import icepool
import pytest
from hypothesis import given, settings, strategies as st

from tabletop_systems.seasons import SYSTEM, Character
from tabletop_systems.seasons.checks import presets
from tabletop_systems.seasons.pool import contest_distribution, pool_distribution, roll_pool, split_pool, success_pmf
from tabletop_systems.seasons.data import ATTRIBUTES, SKILLS


def icepool_pmf(die):
    total = die.denominator()
    return {int(k): F(q, total) for k, q in die.items()}


def brute_force(n, threshold=6):
    counts = Counter(sum(f >= threshold for f in faces) for faces in product(range(1, 11), repeat=n))
    return {k: F(v, 10**n) for k, v in counts.items()}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pool_matches_brute_force(n):
    assert success_pmf(n) == brute_force(n)


@pytest.mark.parametrize("threshold", [2, 8, 10])
def test_house_threshold_matches_brute_force(threshold):
    assert success_pmf(3, threshold=threshold) == {k: v for k, v in brute_force(3, threshold).items()}


@pytest.mark.parametrize("n", list(range(1, 11)))
def test_pool_matches_icepool(n):
    assert success_pmf(n) == icepool_pmf(n @ (icepool.d10 >= 6))


@pytest.mark.parametrize("n", [11, 14, 19, 20, 21, 22, 30, 31, 40])
def test_rule_of_10_matches_icepool(n):
    rolled, auto = split_pool(n)
    assert 1 <= rolled <= 10 and auto == 5 * ((n - 1) // 10)
    assert success_pmf(n) == icepool_pmf(rolled @ (icepool.d10 >= 6) + auto)
    d = pool_distribution(n)
    assert d.mean == F(n, 2) and d.p_pass == 1


@pytest.mark.parametrize("n", [11, 14, 25])
def test_rule_of_10_off_matches_icepool(n):
    assert success_pmf(n, rule_of_10=False) == icepool_pmf(n @ (icepool.d10 >= 6))


@pytest.mark.parametrize("pool", [-3, 0])
def test_impossible_pool_has_zero_chance(pool):
    d = pool_distribution(pool)
    assert d.p_pass == 0 and dict(d) == {0: 1}


@pytest.mark.parametrize("a,b", [(1, 1), (3, 2), (4, 4), (6, 4), (0, 3), (12, 5), (2, 0)])
def test_contest_matches_icepool(a, b):
    die = icepool.d10 >= 6

    def side(n):
        return (n @ die) if n > 0 else icepool.Die([0])

    ra, aa = split_pool(max(a, 0))
    rb, ab = split_pool(max(b, 0))
    margin = (side(ra) + aa) - (side(rb) + ab)
    d = contest_distribution(a, b)
    assert dict(d) == icepool_pmf(margin)
    assert d.p_pass == sum(p for m, p in icepool_pmf(margin).items() if m > 0)


def test_contest_tie_closed_form():
    from math import comb

    for n in range(1, 11):
        assert contest_distribution(n, n)[0] == F(comb(2 * n, n), 4**n)


def test_spec_table_of_chances():
    expected = {
        1: F(1, 2),
        2: F(3, 4),
        3: F(7, 8),
        4: F(15, 16),
        5: F(31, 32),
        6: F(63, 64),
        7: F(127, 128),
        8: F(255, 256),
        9: F(511, 512),
        10: F(1023, 1024),
        11: F(1),
        25: F(1),
    }
    for n, p in expected.items():
        assert pool_distribution(n).p_pass == p


def test_spec_table_of_at_least_k():
    d = pool_distribution(10)
    assert [d.p_ge(k) for k in range(1, 6)] == [F(1023, 1024), F(1013, 1024), F(121, 128), F(53, 64), F(319, 512)]


@settings(max_examples=60, deadline=None)
@given(
    attr=st.sampled_from(ATTRIBUTES),
    skill=st.sampled_from(SKILLS),
    a=st.integers(1, 12),
    s=st.integers(0, 8),
    diff=st.integers(0, 12),
)
def test_generic_chance_closed_form(attr, skill, a, s, diff):
    c = Character(**{attr: a, skill: s})
    pool = a + s - diff
    expected = F(0) if pool <= 0 else F(1) if pool > 10 else 1 - F(1, 2**pool)
    assert SYSTEM.chance(c, f"{attr}+{skill}", difficulty=diff) == expected


def test_chance_of_every_preset_is_a_probability():
    c = Character(**{a: 3 for a in ATTRIBUTES}, **{s: 2 for s in SKILLS}, damage=2)
    for pid, p in presets().items():
        if p.special == "rolloff":
            d = SYSTEM.check_distribution(c, pid)
            assert d.p_pass is None and sum(d.values()) == 1
            continue
        opts = {"opponent_pool": 3} if p.opposition == "contest" else {}
        ch = SYSTEM.chance(c, pid, **opts)
        assert 0 <= ch <= 1, pid


def test_chance_agrees_with_a_sampled_frequency():
    c = Character(wits=3, investigation=2)
    rng = random.Random(7)
    n = 4000
    wins = sum(SYSTEM.roll_check(c, "wits+investigation", difficulty=3, rng=rng).success for _ in range(n))
    assert abs(wins / n - 0.75) < 0.04


def test_roll_is_deterministic_given_rng_and_never_uses_module_random(monkeypatch):
    c = Character(wits=3, resolve=2, investigation=2)
    a = SYSTEM.roll_check(c, "wits+investigation", difficulty=3, rng=random.Random(1))
    b = SYSTEM.roll_check(c, "wits+investigation", difficulty=3, rng=random.Random(1))
    assert a.details["faces"] == b.details["faces"] and a.total == b.total
    monkeypatch.setattr(random, "randint", lambda *a: (_ for _ in ()).throw(AssertionError("module random")))
    monkeypatch.setattr(random, "random", lambda *a: (_ for _ in ()).throw(AssertionError("module random")))
    SYSTEM.roll_check(c, "wits+investigation", rng=random.Random(2))
    roll_pool(14, random.Random(3))


def test_rolled_faces_are_d10_and_successes_counted():
    r = roll_pool(9, random.Random(11))
    assert len(r.faces) == 9 and all(1 <= f <= 10 for f in r.faces)
    assert r.successes == sum(f >= 6 for f in r.faces)
    assert [d.success for d in r.dice()] == [f >= 6 for f in r.faces]


def test_exact_odds_refuse_huge_pools_without_rule_of_10():
    from tabletop_widgets.dice import DiceLimitError

    with pytest.raises(DiceLimitError):
        pool_distribution(5000, rule_of_10=False)
    assert pool_distribution(5000).p_pass == 1  # with the rule of 10 only 10 dice are rolled
    with pytest.raises(DiceLimitError):
        contest_distribution(300, 300, rule_of_10=False)
