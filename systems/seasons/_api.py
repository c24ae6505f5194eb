"""Everything ``tabletop_systems.seasons`` exports, loaded on its first use (see the package)."""

from __future__ import annotations

from .model import Character  # noqa: F401 (re-exported by the package)
from .system import SYSTEM, SeasonsSystem  # noqa: F401 (re-exported by the package)
