"""Contests, mutual aid and Success with Trouble (spec §5.8, §5.9, §5.11)."""

from __future__ import annotations

from fractions import Fraction

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckResult
from tabletop_widgets.core.data import thaw

from . import data
from .kept_die import kept_die_pmf


def contest_odds(a_bonus: int, b_bonus: int, a_net: int = 0, b_net: int = 0) -> dict[str, Fraction]:
    """Exact P(A wins), P(tie), P(B wins) of a Contest (L150-151): strict higher total wins."""
    out = {"a": Fraction(0), "tie": Fraction(0), "b": Fraction(0)}
    for x, p in kept_die_pmf(a_net).items():
        for y, q in kept_die_pmf(b_net).items():
            a, b = x + a_bonus, y + b_bonus
            out["a" if a > b else "b" if b > a else "tie"] += p * q
    return out


def contest_verdict(a_total: int, b_total: int) -> tuple[str, int]:
    """('a'|'b'|'tie', margin). A tie changes nothing (L151)."""
    if a_total > b_total:
        return "a", a_total - b_total
    if b_total > a_total:
        return "b", b_total - a_total
    return "tie", 0


def helper_difficulty(main_difficulty: int) -> int:
    """Helpers roll against the main difficulty - 5 (L142)."""
    return main_difficulty - 5


def aid_counts(helper_successes: list[bool]) -> tuple[int, int]:
    """(Advantages, Hindrances) from helpers (L142): one per success and one per failure, NOT capped
    here. They join the main check's own Advantages and Hindrances, which cancel and are then capped
    at 2 like every other roll (L108-109, ``net_dice`` under ``adv_order``): three helpers who
    succeed and one who fails give a net of +2, not the +1 of capping each count first."""
    adv = sum(1 for s in helper_successes if s)
    hin = len(helper_successes) - adv
    return adv, hin


def success_with_trouble(result: CheckResult, *, gm_allows: bool = True, rules_forbid: bool = False) -> dict:
    """Turn a failed check into a minimal success with Troubles (L120-140). Returns the number of
    Troubles to choose; no Thread is gained (L120)."""
    if result.success:
        raise RuleError(
            "swt_after_failure",
            T(
                "Success with Trouble is only for a failed check",
                "Успех с Неприятностями — только после проваленной проверки",
            ),
        )
    if not gm_allows:
        raise RuleError(
            "swt_forbidden",
            T(
                "the GM forbids Success with Trouble here",  # L136
                "мастер запрещает здесь Успех с Неприятностями",
            ),
        )  # L136
    d = result.details
    n = 1  # L120
    zero_xp = d.get("skill") is not None and (d.get("skill_xp") == 0 or d.get("kind") == "expert_static")
    if zero_xp:
        n += 1  # L134 (A16, R11)
    if (
        d.get("only_on_20")
        or rules_forbid
        or d.get("degree") == "automatic_failure"
        or result.degree == "automatic_failure"
    ):
        n += 1  # L135
    return {
        "troubles": n,
        "threads_gained": 0,
        "outcome": T("minimal success with Trouble", "минимальный успех с Неприятностями"),
        "menu": thaw(data.rows("swt_troubles")),
    }
