"""Find game systems through the ``tabletop_widgets.systems`` entry-point group."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Mapping

from ..dice import words as _dice_words
from .sheet import validate_sheet
from .system import GameSystem

GROUP = "tabletop_widgets.systems"
_extra: dict[str, GameSystem] = {}
_cache: dict[str, GameSystem] = {}


def _entry_points() -> dict:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available_systems() -> list[str]:
    """Slugs of every installed system (entry points plus ones registered at run time)."""
    return sorted(set(_entry_points()) | set(_extra))


def system_title(slug: str) -> Mapping[str, str]:
    """The title of the system registered as ``slug`` ({"en": ..., "ru": ...}), without loading
    the system when its package declares ``TITLE`` (the built-in ones do: their packages load the
    rules on first use); otherwise the loaded system's ``title``."""
    if slug in _extra:
        return _extra[slug].title
    if slug in _cache:
        return _cache[slug].title
    eps = _entry_points()
    if slug in eps:
        title = getattr(importlib.import_module(eps[slug].module), "TITLE", None)
        if isinstance(title, Mapping):
            return title
    return get_system(slug).title


def _with_words(slug: str, system: GameSystem) -> GameSystem:
    """Register ``system``'s dice words (once) as the registry hands it out."""
    if not _dice_words.system_words_registered(slug):
        _dice_words.register_system_words(slug, list(system.dice_words()))
    return system


def get_system(slug: str) -> GameSystem:
    """The ``GameSystem`` registered as ``slug`` (its dice words are registered with it)."""
    if slug in _extra:
        return _with_words(slug, _extra[slug])
    if slug in _cache:
        return _with_words(slug, _cache[slug])
    eps = _entry_points()
    if slug not in eps:
        known = ", ".join(available_systems()) or "none installed"
        raise KeyError(f"no game system {slug!r} (available: {known})")
    system = eps[slug].load()
    if not isinstance(system, GameSystem):
        raise TypeError(f"entry point {slug!r} in {GROUP} names {system!r}, not a GameSystem")
    validate_sheet(system)  # a sheet naming a missing trait, table or method fails here, by name
    _cache[slug] = system
    return _with_words(slug, system)


def register_system(system: GameSystem) -> None:
    """Register a system at run time (tests, notebooks experimenting with a homebrew system)."""
    if not isinstance(system, GameSystem):
        raise TypeError(f"expected a GameSystem, got {type(system).__name__}")
    if not system.slug:
        raise ValueError("a system needs a slug")
    validate_sheet(system)
    words = list(system.dice_words())
    _extra[system.slug] = system
    _dice_words.register_system_words(system.slug, words)


def unregister_system(slug: str) -> None:
    if _extra.pop(slug, None) is not None:
        _dice_words.unregister_system_words(slug)


# plain notation never loads a system; an expression that starts with a prefix some system
# declares (entry-point group ``tabletop_widgets.dice_words``) loads that system through here
_dice_words.set_system_loader(get_system)
