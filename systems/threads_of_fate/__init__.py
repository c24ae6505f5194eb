"""«Нити судьбы. Постапокалипсис» (Threads of Fate: Post-Apocalypse), the introductory fragment.

Spec: ``shared/rules/threads_of_fate.md``. Where the fragment lacks a table (difficulties, sizes,
manoeuvres, wounds, equipment) the GM enters values; ``Character.gm_missing`` and the sheet's
``extra["gm_entered"]`` say which.
"""

from __future__ import annotations

from tabletop_widgets.core.system_template import exported_on_first_use

#: the system's name, read without loading its rules (the lobby lists every game by it); the
#: names of ``__all__`` load on first use, from ``_api.py``
TITLE = {"en": "Threads of Fate: Post-Apocalypse", "ru": "Нити судьбы. Постапокалипсис"}

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

__getattr__ = exported_on_first_use(__name__, __all__)
