"""«Времена Года» (Seasons): a universal d10 success-pool system (spec ``rules/seasons.md``).

``from tabletop_systems.seasons import Character, SYSTEM``.
"""

from __future__ import annotations

from tabletop_widgets.core.system_template import exported_on_first_use

#: the system's name, read without loading its rules (the lobby lists every game by it); the
#: names of ``__all__`` load on first use, from ``_api.py``
TITLE = {"en": "Seasons", "ru": "Времена Года"}

__all__ = ["Character", "SYSTEM", "SeasonsSystem"]

__getattr__ = exported_on_first_use(__name__, __all__)
