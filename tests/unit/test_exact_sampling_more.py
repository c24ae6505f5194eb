"""Exact odds vs the roller, part 2 (see ``test_exact_sampling.py``): groups with fractional
members, computed counts, faces and compare points, reroll-until with selectors, arithmetic and
functions of dice, reroll-and-add followed by reroll-once. 100,000 seeded rolls each, chi-square
at a fixed seed.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from tabletop_widgets.dice import distribution
from tabletop_widgets.dice.engine import roll_expression
from tabletop_widgets.dice.parser import parse

from test_exact_sampling import N, chi_square, critical

CASES = [
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
