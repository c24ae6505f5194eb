"""Everything ``tabletop_systems.life_and_death`` exports, loaded on its first use (see the package)."""

from __future__ import annotations

from . import combat, data, inventory, magic, progression  # noqa: F401 (re-exported by the package)
from .model import PARAMS, Character  # noqa: F401 (re-exported by the package)
from .options import DEFAULT_RULES  # noqa: F401 (re-exported by the package)
from .system import SYSTEM, LifeAndDeathSystem  # noqa: F401 (re-exported by the package)
