"""Life&Death's Game (Diavir, by Alanetta): rules system for tabletop-widgets.

Spec: ``shared/rules/life_and_death.md``. d10 success pools (6+ succeeds, 10 is a crit, 1s with no
success are a critical failure), six parameters with skills, four health pools, energetics.
"""

from . import combat, data, inventory, magic, progression
from .model import PARAMS, Character
from .options import DEFAULT_RULES
from .system import SYSTEM, LifeAndDeathSystem

__all__ = [
    "Character",
    "SYSTEM",
    "LifeAndDeathSystem",
    "DEFAULT_RULES",
    "PARAMS",
    "combat",
    "magic",
    "inventory",
    "progression",
    "data",
]
