"""tabletop-widgets: character sheets, dice trays and combat trackers for Jupyter and Voila.

Importing the package imports nothing else: ``import tabletop_widgets.dice`` (or
``from tabletop_widgets.dice import roll``) loads the dice layer only, never ``core``, the
registry, widgets or systems. The registry names below (``available_systems``, ``get_system``,
``register_system``) and the subpackages are loaded on first use by the module ``__getattr__``.
"""

__version__ = "0.1.0"

from ._lazy import lazy_exports as _lazy_exports

#: public name -> the module that defines it, imported on first access
_LAZY = {
    "available_systems": "tabletop_widgets.core.registry",
    "get_system": "tabletop_widgets.core.registry",
    "register_system": "tabletop_widgets.core.registry",
}
#: subpackages reachable as attributes (``tabletop_widgets.core`` after a bare ``import tabletop_widgets``)
_SUBMODULES = ("core", "dice", "front", "i18n", "magics", "table", "widgets")


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY, _SUBMODULES)


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
