"""Everything ``tabletop_systems.threads_of_fate`` exports, loaded on its first use (see the package)."""

from __future__ import annotations

from . import attributes, checks, combat, data, fate, forms, validation  # noqa: F401 (re-exported by the package)
from .fate import Scene  # noqa: F401 (re-exported by the package)
from .model import Character  # noqa: F401 (re-exported by the package)
from .system import SYSTEM, ThreadsOfFateSystem  # noqa: F401 (re-exported by the package)
from .words import parse_t20, parse_trouble, t20_word, trouble_word  # noqa: F401 (re-exported by the package)
