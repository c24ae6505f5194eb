"""«Времена Года» (Seasons): a universal d10 success-pool system (spec ``rules/seasons.md``).

``from tabletop_systems.seasons import Character, SYSTEM``.
"""

from .model import Character
from .system import SYSTEM, SeasonsSystem

__all__ = ["Character", "SYSTEM", "SeasonsSystem"]
