"""Life&Death's Game (Diavir, by Alanetta): rules system for tabletop-widgets.

Spec: ``shared/rules/life_and_death.md``. d10 success pools (6+ succeeds, 10 is a crit, 1s with no
success are a critical failure), six parameters with skills, four health pools, energetics.
"""

from __future__ import annotations

from tabletop_widgets.core.system_template import exported_on_first_use

#: the system's name, read without loading its rules (the lobby lists every game by it); the
#: names of ``__all__`` load on first use, from ``_api.py``
TITLE = {"en": "Life & Death's Game", "ru": "Life&Death’s Game"}

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

__getattr__ = exported_on_first_use(__name__, __all__)
