"""Everything ``tabletop_systems.ret`` exports, loaded on its first use (see the package)."""

from __future__ import annotations

from .checks import Divider, apply_divider, contest  # noqa: F401 (re-exported by the package)
from .level import LevelRoll, chance_at_least, die_label, level_die, level_roll, roll_outcomes  # noqa: F401 (re-exported by the package)
from .model import Character  # noqa: F401 (re-exported by the package)
from .system import SYSTEM, RetSystem  # noqa: F401 (re-exported by the package)
