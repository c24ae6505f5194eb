"""The d10 success pool (spec §5.1-§5.2, §5.9): reading faces, rolling, exact laws.

A die shows 1-10: 6+ is a success, 10 a crit (also a success), 1 counts toward a critical
failure only when the result has no successes (L31, L196).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial
from typing import Sequence

from tabletop_widgets.core.i18n import plural_ru

P_ONE = Fraction(1, 10)  # face 1
P_BLANK = Fraction(4, 10)  # faces 2-5
P_PLAIN = Fraction(4, 10)  # faces 6-9
P_CRIT = Fraction(1, 10)  # face 10


@dataclass
class PoolResult:
    """One rolled pool (spec §5.2)."""

    faces: list[int]
    pool: int
    raw: int
    crits: int
    ones: int
    penalty: int  # success penalty (untrained: 1)
    epic: int  # epic dice spent: +1 success each (L351)
    net: int
    fumble: bool
    difficulty: int | None
    passed: bool | None
    extra: dict = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        if self.fumble:
            return "critical_failure"
        if self.passed is None:
            return "rolled"
        return "success" if self.passed else "failure"

    def text(self, locale: str = "en") -> str:
        """The pool in words: its dice and net successes (a fumble says so)."""
        faces = ", ".join(str(f) for f in self.faces)
        if locale == "ru":
            n = plural_ru(self.net, "успех", "успеха", "успехов")
            verdict = "критический провал" if self.fumble else f"{self.net} {n}"
        else:
            verdict = "critical failure" if self.fumble else f"{self.net} success{'es' if abs(self.net) != 1 else ''}"
        return f"[{faces}] → {verdict}"

    @classmethod
    def zero(cls) -> "PoolResult":
        """No defence roll at all (the defender did not react)."""
        return cls([], 0, 0, 0, 0, 0, 0, 0, False, None, None)


def read_faces(
    faces: Sequence[int],
    *,
    penalty: int = 0,
    epic: int = 0,
    difficulty: int | None = None,
    pool: int | None = None,
    fumble_basis: str = "net",
) -> PoolResult:
    """Read fixed faces (tests inject faces here). Net = max(0, raw - penalty) + epic (L33, L351);
    critical failure = no successes and at least one 1 (L31), judged on the net by default
    (OPTION fumble_basis = "raw": on the dice alone)."""
    faces = list(faces)
    for f in faces:
        if not isinstance(f, int) or not 1 <= f <= 10:
            raise ValueError(f"a d10 face must be 1-10, got {f!r}")
    raw = sum(f >= 6 for f in faces)
    crits = sum(f == 10 for f in faces)
    ones = sum(f == 1 for f in faces)
    net = max(0, raw - penalty) + epic
    basis = raw if fumble_basis == "raw" else net
    fumble = basis == 0 and ones > 0
    passed = None if difficulty is None else net >= difficulty
    return PoolResult(
        faces, len(faces) if pool is None else pool, raw, crits, ones, penalty, epic, net, fumble, difficulty, passed
    )


def roll_faces(n: int, rng: random.Random) -> list[int]:
    """``rng.randint(1, 10)`` once per die, in pool order (§5.11); pools <= 0 roll nothing."""
    return [rng.randint(1, 10) for _ in range(max(0, n))]


def roll_pool(n: int, rng: random.Random, **kw) -> PoolResult:
    return read_faces(roll_faces(n, rng), pool=n, **kw)


# -- exact laws ---------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def raw_law(n: int) -> dict[int, Fraction]:
    """P(raw = k) = C(n, k) / 2^n (Binomial(n, 1/2))."""
    n = max(0, n)
    return {k: Fraction(comb(n, k), 2**n) for k in range(n + 1)}


def net_law(n: int, penalty: int = 0, epic: int = 0) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for k, p in raw_law(n).items():
        v = max(0, k - penalty) + epic
        out[v] = out.get(v, Fraction(0)) + p
    return out


def p_net_at_least(n: int, difficulty: int, penalty: int = 0, epic: int = 0) -> Fraction:
    return sum((p for v, p in net_law(n, penalty, epic).items() if v >= difficulty), Fraction(0))


@lru_cache(maxsize=None)
def raw_crit_law(n: int) -> dict[tuple[int, int], Fraction]:
    """Joint law of (raw successes, crits) in n dice (multinomial over blank/plain/crit)."""
    n = max(0, n)
    out: dict[tuple[int, int], Fraction] = {}
    for c in range(n + 1):
        for plain in range(n - c + 1):
            fail = n - c - plain
            ways = factorial(n) // (factorial(c) * factorial(plain) * factorial(fail))
            out[(c + plain, c)] = (
                out.get((c + plain, c), Fraction(0)) + ways * P_CRIT**c * P_PLAIN**plain * Fraction(1, 2) ** fail
            )
    return out


@lru_cache(maxsize=None)
def full_law(n: int) -> dict[tuple[int, int, int], Fraction]:
    """Joint law of (raw, crits, ones) in n dice."""
    n = max(0, n)
    out: dict[tuple[int, int, int], Fraction] = {}
    for c in range(n + 1):
        for plain in range(n - c + 1):
            for o in range(n - c - plain + 1):
                blank = n - c - plain - o
                ways = factorial(n) // (factorial(c) * factorial(plain) * factorial(o) * factorial(blank))
                out[(c + plain, c, o)] = ways * P_CRIT**c * P_PLAIN**plain * P_ONE**o * P_BLANK**blank
    return out


def p_fumble(n: int, penalty: int = 0, epic: int = 0, fumble_basis: str = "net") -> Fraction:
    """P(critical failure); with no penalty and no epic dice it is (1/2)^n - (2/5)^n (§5.9)."""
    total = Fraction(0)
    for (raw, _c, ones), p in full_law(n).items():
        net = max(0, raw - penalty) + epic
        basis = raw if fumble_basis == "raw" else net
        if basis == 0 and ones > 0:
            total += p
    return total


def p_opposed_win(
    n_active: int, n_passive: int, pen_a: int = 0, pen_p: int = 0, epic_a: int = 0, epic_p: int = 0
) -> Fraction:
    """P(active net > passive net): ties go to the defender / hider (L37)."""
    la, lp = net_law(n_active, pen_a, epic_a), net_law(n_passive, pen_p, epic_p)
    return sum((pa * pp for a, pa in la.items() for d, pp in lp.items() if a > d), Fraction(0))


def p_more_crits(n_active: int, n_passive: int) -> Fraction:
    """P(crits_A > crits_D), crits ~ Binomial(n, 1/10) independently (armour piercing, §6.7)."""

    def law(n):
        return {k: comb(n, k) * P_CRIT**k * (1 - P_CRIT) ** (n - k) for k in range(max(0, n) + 1)}

    la, lp = law(n_active), law(n_passive)
    return sum((pa * pp for a, pa in la.items() for d, pp in lp.items() if a > d), Fraction(0))
