"""Р.Э.Т. — «Разум, Эмоции, Тело» (R.E.T. — Mind, Emotions, Body): the ``ret`` rules system.

from tabletop_systems.ret import Character, SYSTEM
c = Character(attention=5, intuition=3, physique=4)
SYSTEM.chance(c, "attention", difficulty=8, luck=2)
"""

from __future__ import annotations

from .checks import Divider, apply_divider, contest
from .level import LevelRoll, chance_at_least, die_label, level_die, level_roll, roll_outcomes
from .model import Character
from .system import SYSTEM, RetSystem

__all__ = [
    "Character",
    "SYSTEM",
    "RetSystem",
    "Divider",
    "LevelRoll",
    "level_roll",
    "level_die",
    "die_label",
    "roll_outcomes",
    "chance_at_least",
    "apply_divider",
    "contest",
]
