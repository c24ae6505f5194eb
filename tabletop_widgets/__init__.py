"""tabletop-widgets: character sheets, dice trays and combat trackers for Jupyter and Voila."""
__version__ = "0.1.0"

from .core.registry import available_systems, get_system, register_system  # noqa: E402


def load_ipython_extension(ipython):
    """``%load_ext tabletop_widgets``: register ``%roll`` / ``%%roll`` and friends."""
    from .magics import load_ipython_extension as _load
    _load(ipython)


def unload_ipython_extension(ipython):
    from .magics import unload_ipython_extension as _unload
    _unload(ipython)


__all__ = ["__version__", "available_systems", "get_system", "register_system",
           "load_ipython_extension", "unload_ipython_extension"]
