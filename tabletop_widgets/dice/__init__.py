"""Dice: notation parser, roller (injected RNG), exact distributions, results.

Public names: ``roll``, ``distribution``, ``chance``, ``DiceError``, ``RollResult``,
``Distribution``, roll tables (``RollTable``, ``TableRoll``) and the system-word registry
(``DiceWord``, ``register_word``).
"""

from .distribution import Distribution
from .errors import DiceError, DiceLimitError
from .results import Check, Die, RollResult
from .tables import RollTable, TableRoll
from .words import DiceWord, check_from, register_word, registered_words, unregister_word, word_result


def roll(expr: str, *, seed=None, rng=None, variables=None, locale: str = "en") -> RollResult:
    """Roll ``expr`` (NOTATION.md). ``seed`` or ``rng`` (a ``random.Random``) make it
    reproducible; ``variables`` maps ``@name`` / ``@{Имя}`` to integers."""
    return _engine_roll(expr, seed=seed, rng=rng, variables=variables, locale=locale)


from .engine import roll as _engine_roll  # noqa: E402  (after the public types it returns)


from .exact import distribution as _distribution  # noqa: E402  (exact odds are part of the API)


def distribution(expr: str, *, variables=None) -> Distribution:
    """The exact distribution of ``expr`` (for checks: ``p_pass`` set, outcomes are totals)."""
    return _distribution(expr, variables=variables)


def chance(expr: str, op: str, target: int, *, variables=None):
    """Exact ``P(expr op target)`` as a Fraction, e.g. ``chance("2d6+1", ">=", 8)``."""
    return distribution(expr, variables=variables).chance(op, target)


__all__ = [
    "roll",
    "distribution",
    "chance",
    "DiceError",
    "DiceLimitError",
    "RollResult",
    "Die",
    "Check",
    "Distribution",
    "RollTable",
    "TableRoll",
    "DiceWord",
    "register_word",
    "unregister_word",
    "registered_words",
    "word_result",
    "check_from",
]
