"""Exact odds vs the roller, for constructs icepool cannot express (reroll-and-add, keep/drop
after chain explosions, penetration, counting over exploded dice, unique dice, groups with
fractional members, computed counts/faces/compare points, reroll-until with selectors,
arithmetic and functions of dice): 100,000 seeded ``roll()``s agree with ``distribution()`` by a
chi-square test at a fixed seed (deterministic: it never flakes).
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from tabletop_widgets.dice import distribution
from tabletop_widgets.dice.engine import roll_expression
from tabletop_widgets.dice.parser import parse

N = 100_000


def chi_square(expected: dict, observed: Counter, n: int) -> tuple[float, int]:
    """Pearson's statistic over bins merged (in value order) until each expects >= 5 rolls."""
    stat, dof = 0.0, 0
    acc_e = acc_o = 0.0
    for k in sorted(set(expected) | set(observed)):
        acc_e += float(expected.get(k, 0)) * n
        acc_o += observed.get(k, 0)
        if acc_e >= 5:
            stat += (acc_o - acc_e) ** 2 / acc_e
            dof += 1
            acc_e = acc_o = 0.0
    if acc_e > 0 or acc_o > 0:  # the tail: fold into the last bin's statistic conservatively
        stat += (acc_o - acc_e) ** 2 / max(acc_e, 1.0)
        dof += 1
    return stat, dof - 1


def critical(dof: int, z: float = 3.719) -> float:
    """Wilson-Hilferty upper quantile of chi-square (z = 3.719: p = 1e-4)."""
    h = 2.0 / (9.0 * dof)
    return dof * (1.0 - h + z * math.sqrt(h)) ** 3


CASES = [
    ("3d6ra1kh2", 11),
    ("4d6!kh3", 12),
    ("2d6!p+1d6!!p", 13),
    ("6d10>=8!>=9f1dbl=10", 14),
    ("3d4u+4d6uokh3", 19),
    ("{2d6/3, 1d4, 1d6-1}kh2+(1d4)d4", 15),
    ("2d(1d4+2)!>=(1d3+4)", 16),
    ("4d6r<3k>3dl1", 17),
    ("round(2d6/3)*1d4-max(1d6,2)+5d6ra6ro1", 18),
]


@pytest.mark.parametrize("text,seed", CASES, ids=[c[0] for c in CASES])
def test_exact_matches_sampling(text, seed):
    dist = distribution(text)
    assert dist.truncated_mass < 1e-11
    parsed = parse(text)
    rng = random.Random(seed)
    observed = Counter(roll_expression(parsed, rng).total for _ in range(N))
    unseen = [k for k in observed if k not in dist]
    assert not unseen, f"rolled totals with no exact probability: {unseen[:5]}"
    stat, dof = chi_square(dict(dist), observed, N)
    assert dof >= 1
    assert stat < critical(dof), (text, stat, dof, critical(dof))
