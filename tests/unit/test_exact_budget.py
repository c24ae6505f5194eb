"""The running budget of an exact-odds call is a value passed to every kernel (issue 15), not
module state: a term spends the budget it is given, a cached term costs nothing, and two calls
never share one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop_widgets.dice import exact, exact_core, exact_dice, exact_pool
from tabletop_widgets.dice.errors import DiceLimitError

D6 = tuple((v, 1) for v in range(1, 7))
KEEP_3_OF_5 = (("keep", "kh", 3, None, None),)
EXPLODE = (("explode", "explode", None, None, None),)


def expired():
    """A budget whose time is already up: its first spend refuses."""
    times = iter([0.0])
    return exact_core.Budget("5d6kh3", clock=lambda: next(times, 1e9))


@pytest.fixture(autouse=True)
def _fresh_terms():
    exact.clear_cache()
    yield
    exact.clear_cache()


@pytest.mark.parametrize("mods", [KEEP_3_OF_5, EXPLODE], ids=["keep/drop", "explosion"])
def test_a_term_spends_the_budget_it_is_given(mods):
    with pytest.raises(DiceLimitError, match="too large for exact odds"):
        exact_dice.term(5, D6, mods, 100, exact.TRUNCATE, expired())
    budget = exact_core.Budget("5d6")
    exact_dice.term(5, D6, mods, 100, exact.TRUNCATE, budget)
    assert budget.work > 0


def test_a_refused_term_is_not_cached_and_a_cached_one_costs_nothing():
    with pytest.raises(DiceLimitError):
        exact_dice.term(5, D6, KEEP_3_OF_5, 100, exact.TRUNCATE, expired())
    assert exact.cache_info().currsize == 0
    done = exact_dice.term(5, D6, KEEP_3_OF_5, 100, exact.TRUNCATE)  # no budget: no limit
    again = exact_dice.term(5, D6, KEEP_3_OF_5, 100, exact.TRUNCATE, expired())
    assert again is done and exact.cache_info().hits == 1


def test_the_pool_kernels_take_the_budget_too():
    faces = [(v, 1) for v in range(1, 7)]
    with pytest.raises(DiceLimitError):
        exact_pool.order_stat_dp(faces, 6, 0, 3, lambda v: v, expired())
    assert exact_pool.order_stat_dp(faces, 6, 0, 3, lambda v: v).den == 6**6


def test_no_module_keeps_a_running_budget():
    assert not hasattr(exact_dice, "BUDGET") and not hasattr(exact_core, "ACTIVE")
    # a whole call still answers exactly (the budget is passed down from distribution())
    assert exact.distribution("4d6kh3")[18] == Fraction(21, 1296)
