"""Find game systems through the ``tabletop_widgets.systems`` entry-point group."""
from __future__ import annotations

from importlib.metadata import entry_points

from .system import GameSystem

GROUP = "tabletop_widgets.systems"
_extra: dict[str, GameSystem] = {}
_cache: dict[str, GameSystem] = {}


def _entry_points() -> dict:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available_systems() -> list[str]:
    """Slugs of every installed system (entry points plus ones registered at run time)."""
    return sorted(set(_entry_points()) | set(_extra))


def get_system(slug: str) -> GameSystem:
    """The ``GameSystem`` registered as ``slug``."""
    if slug in _extra:
        return _extra[slug]
    if slug in _cache:
        return _cache[slug]
    eps = _entry_points()
    if slug not in eps:
        known = ", ".join(available_systems()) or "none installed"
        raise KeyError(f"no game system {slug!r} (available: {known})")
    system = eps[slug].load()
    if not isinstance(system, GameSystem):
        raise TypeError(f"entry point {slug!r} in {GROUP} names {system!r}, not a GameSystem")
    _cache[slug] = system
    return system


def register_system(system: GameSystem) -> None:
    """Register a system at run time (tests, notebooks experimenting with a homebrew system)."""
    if not isinstance(system, GameSystem):
        raise TypeError(f"expected a GameSystem, got {type(system).__name__}")
    if not system.slug:
        raise ValueError("a system needs a slug")
    _extra[system.slug] = system


def unregister_system(slug: str) -> None:
    _extra.pop(slug, None)
