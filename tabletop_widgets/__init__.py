"""tabletop-widgets: character sheets, dice trays and combat trackers for Jupyter and Voila.

Importing the package imports nothing else: ``import tabletop_widgets.dice`` (or
``from tabletop_widgets.dice import roll``) loads the dice layer only, never ``core``, the
registry, widgets or systems. The registry names below (``available_systems``, ``get_system``,
``register_system``) and the subpackages are loaded on first use by the module ``__getattr__``.
"""

__version__ = "0.1.0"

import importlib as _importlib

#: public name -> the module that defines it, imported on first access
_LAZY = {
    "available_systems": "tabletop_widgets.core.registry",
    "get_system": "tabletop_widgets.core.registry",
    "register_system": "tabletop_widgets.core.registry",
}
#: subpackages reachable as attributes (``tabletop_widgets.core`` after a bare ``import tabletop_widgets``)
_SUBMODULES = ("core", "dice", "front", "i18n", "magics", "table", "widgets")


def __getattr__(name):
    if name in _LAZY:
        value = getattr(_importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES:
        value = _importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_SUBMODULES))


def load_ipython_extension(ipython):
    """``%load_ext tabletop_widgets``: register ``%roll`` / ``%%roll`` and friends."""
    from .magics import load_ipython_extension as _load

    _load(ipython)


def unload_ipython_extension(ipython):
    from .magics import unload_ipython_extension as _unload

    _unload(ipython)


__all__ = [
    "__version__",
    "available_systems",
    "get_system",
    "register_system",
    "load_ipython_extension",
    "unload_ipython_extension",
]
