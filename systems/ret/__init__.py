"""Р.Э.Т. — «Разум, Эмоции, Тело» (R.E.T. — Mind, Emotions, Body): the ``ret`` rules system.

from tabletop_systems.ret import Character, SYSTEM
c = Character(attention=5, intuition=3, physique=4)
SYSTEM.chance(c, "attention", difficulty=8, luck=2)
"""

from __future__ import annotations

from tabletop_widgets.core.system_template import exported_on_first_use

#: the system's name, read without loading its rules (the lobby lists every game by it); the
#: names of ``__all__`` load on first use, from ``_api.py``
TITLE = {"en": "R.E.T. — Mind, Emotions, Body", "ru": "Р.Э.Т. — Разум, Эмоции, Тело"}

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

__getattr__ = exported_on_first_use(__name__, __all__)
