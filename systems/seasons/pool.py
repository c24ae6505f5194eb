"""The d10 success pool: the rule of 10, rolling, exact odds and contests (spec §5.4, §5.6).

Each die succeeds on 6+ (L39), so a die is a fair coin; the exact distribution is binomial after
the rule of 10 (L55) turns every full block of 10 dice beyond the last 1-10 into 5 successes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.dice import DiceLimitError, Die, Distribution

SUCCESS_THRESHOLD = 6  # a die succeeds on 6+ (L39)
#: Advantage, Problem, Condition, Drama: exactly 3 dice (L123, L316, L687, L741)
STANDARD_MODIFIER = 3


def split_pool(pool: int, rule_of_10: bool = True) -> tuple[int, int]:
    """(dice rolled, automatic successes) for a pool (L55; spec §11 #1).

    ``rolled = ((N-1) mod 10) + 1`` and ``auto = 5 * floor((N-1)/10)`` fit all three book
    examples: 14 -> 4 + 5, 20 -> 10 + 5, 22 -> 2 + 10.
    """
    if pool <= 0:
        return 0, 0
    if not rule_of_10 or pool <= 10:
        return pool, 0
    groups = (pool - 1) // 10
    return pool - 10 * groups, 5 * groups


#: Exact odds are refused above this many rolled dice (only reachable with the rule of 10 off);
#: NOTATION.md: "exact distribution refuses (with a clear message) past a documented size".
EXACT_DICE_LIMIT = 1000
EXACT_CONTEST_LIMIT = 40_000  # (dice A + 1) x (dice B + 1) outcome pairs


def _check_exact(rolled: int) -> None:
    if rolled > EXACT_DICE_LIMIT:
        raise DiceLimitError(
            f"exact odds are computed for at most {EXACT_DICE_LIMIT} rolled dice, not {rolled}",
            None,
            message_ru=(
                f"точные шансы считаются не больше чем для {ru_n(EXACT_DICE_LIMIT, 'дайса', 'дайсов', 'дайсов')}, "
                f"а не для {rolled}"
            ),
        )


def p_die(threshold: int = SUCCESS_THRESHOLD) -> Fraction:
    """P(one d10 shows ``threshold`` or more); 1/2 for the book's 6 (face "0" = 10, §11 #2)."""
    return Fraction(max(0, min(10, 11 - threshold)), 10)


def success_pmf(pool: int, *, rule_of_10: bool = True, threshold: int = SUCCESS_THRESHOLD) -> dict[int, Fraction]:
    """Exact P(successes = k) for a pool; an impossible pool (<= 0) has 0 successes for sure."""
    rolled, auto = split_pool(pool, rule_of_10)
    _check_exact(rolled)
    p = p_die(threshold)
    return {auto + k: comb(rolled, k) * p**k * (1 - p) ** (rolled - k) for k in range(rolled + 1)}


def pool_distribution(
    pool: int, *, rule_of_10: bool = True, threshold: int = SUCCESS_THRESHOLD, expression: str = ""
) -> Distribution:
    """Distribution of the success count with ``p_pass`` = P(at least one success) (0 if impossible)."""
    pmf = success_pmf(pool, rule_of_10=rule_of_10, threshold=threshold)
    p_pass = Fraction(0) if pool <= 0 else sum((q for k, q in pmf.items() if k >= 1), Fraction(0))
    return Distribution(pmf, p_pass=p_pass, expression=expression, outcome="successes")


def chance_of_success(pool: int, *, rule_of_10: bool = True, threshold: int = SUCCESS_THRESHOLD) -> Fraction:
    return pool_distribution(pool, rule_of_10=rule_of_10, threshold=threshold).p_pass


def contest_distribution(
    pool_a: int, pool_b: int, *, rule_of_10: bool = True, threshold: int = SUCCESS_THRESHOLD, expression: str = ""
) -> Distribution:
    """Distribution of the margin (A's successes - B's); ``p_pass`` = P(A wins) (L57-59).
    A side whose pool is <= 0 counts 0 successes (spec §11 #15)."""
    ra, rb = split_pool(pool_a, rule_of_10)[0], split_pool(pool_b, rule_of_10)[0]
    if (ra + 1) * (rb + 1) > EXACT_CONTEST_LIMIT:
        raise DiceLimitError(
            f"exact contest odds are computed up to {EXACT_CONTEST_LIMIT} outcome pairs "
            f"({ra} and {rb} rolled dice are too many)",
            None,
            message_ru=f"точные шансы соревнования считаются, пока пар исходов не больше {EXACT_CONTEST_LIMIT} "
            f"(дайсов {ra} и {rb} — слишком много)",
        )
    a = success_pmf(pool_a, rule_of_10=rule_of_10, threshold=threshold)
    b = success_pmf(pool_b, rule_of_10=rule_of_10, threshold=threshold)
    pmf: dict[int, Fraction] = {}
    for sa, pa in a.items():
        for sb, pb in b.items():
            pmf[sa - sb] = pmf.get(sa - sb, Fraction(0)) + pa * pb
    p_win = sum((p for m, p in pmf.items() if m > 0), Fraction(0))
    return Distribution(pmf, p_pass=p_win, expression=expression, outcome="margin")


@dataclass
class PoolRoll:
    """A rolled pool: the faces, automatic successes and the verdict."""

    pool: int
    faces: list[int] = field(default_factory=list)
    auto: int = 0
    threshold: int = SUCCESS_THRESHOLD

    @property
    def impossible(self) -> bool:
        return self.pool <= 0

    @property
    def rolled(self) -> int:
        return len(self.faces)

    @property
    def successes(self) -> int:
        return self.auto + sum(1 for f in self.faces if f >= self.threshold)

    @property
    def success(self) -> bool:
        return not self.impossible and self.successes >= 1

    @property
    def previous_success_bonus(self) -> int:
        """Dice carried to the next related check: successes - 1 (L771)."""
        return max(0, self.successes - 1)

    def dice(self) -> list[Die]:
        return [Die(10, f, success=f >= self.threshold) for f in self.faces]


def roll_pool(
    pool: int, rng: random.Random | None = None, *, rule_of_10: bool = True, threshold: int = SUCCESS_THRESHOLD
) -> PoolRoll:
    """Roll a pool with the injected rng; no dice are drawn when the pool is impossible (L34)."""
    rng = rng if rng is not None else random.Random()
    rolled, auto = split_pool(pool, rule_of_10)
    faces = [rng.randint(1, 10) for _ in range(rolled)]
    return PoolRoll(pool=pool, faces=faces, auto=auto, threshold=threshold)


def contest_winner(successes_a: int, successes_b: int) -> str:
    """``"A"``, ``"B"`` or ``"tie"`` (L59)."""
    if successes_a > successes_b:
        return "A"
    if successes_b > successes_a:
        return "B"
    return "tie"
