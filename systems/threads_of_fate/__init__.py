"""«Нити судьбы. Постапокалипсис» (Threads of Fate: Post-Apocalypse), the introductory fragment.

Spec: ``shared/rules/threads_of_fate.md``. Where the fragment lacks a table (difficulties, sizes,
manoeuvres, wounds, equipment) the GM enters values; ``Character.gm_missing`` and the sheet's
``extra["gm_entered"]`` say which.
"""

from . import attributes, checks, combat, data, fate, forms, validation
from .fate import Scene
from .model import Character
from .system import SYSTEM, ThreadsOfFateSystem
from .words import parse_t20, parse_trouble, t20_word, trouble_word

__all__ = [
    "Character",
    "SYSTEM",
    "Scene",
    "ThreadsOfFateSystem",
    "parse_t20",
    "parse_trouble",
    "t20_word",
    "trouble_word",
    "attributes",
    "checks",
    "combat",
    "data",
    "fate",
    "forms",
    "validation",
]
