"""A declarative base for systems that follow the template of ``systems/README.md``.

Every system's :class:`~tabletop_widgets.core.system.GameSystem` subclass used to start with the
same four assignments (``Character = Character``, ``sheet = SHEET``, ``default_rules = DEFAULTS``,
``tables = TABLES``), each naming a module of the template. A subclass of :class:`TemplateSystem`
names its package and its slug and title once; the four parts are read from the package's
template modules::

    class LanternSystem(TemplateSystem, package=__package__, slug="lantern", title=T("Lantern", "Фонарь")): ...
"""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.util import find_spec
from typing import Any, Callable, Mapping, Sequence

from .system import GameSystem

#: class attribute <- (template module, the name that module defines)
TEMPLATE_PARTS: dict[str, tuple[str, str]] = {
    "Character": ("model", "Character"),
    "sheet": ("sheet", "SHEET"),
    "default_rules": ("options", "DEFAULTS"),
    "tables": ("data", "TABLES"),
}


def exported_on_first_use(package: str, names: Sequence[str], module: str = "_api") -> Callable[[str], Any]:
    """A system package's ``__getattr__`` (PEP 562): the names it exports (``names``, its
    ``__all__``) come from ``<package>.<module>``, which is imported on the first use of any of
    them, so that importing the package to read its ``TITLE`` loads none of its rules::

        TITLE = {"en": "Lantern", "ru": "Фонарь"}
        __all__ = ["Character", "SYSTEM"]
        __getattr__ = exported_on_first_use(__name__, __all__)
    """
    exported = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name not in exported:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        # A submodule named in ``names`` is imported as itself: ``from . import fate`` inside the
        # package asks for it here first, while ``<module>`` may be the very import under way
        value = (
            import_module(f"{package}.{name}")
            if find_spec(f"{package}.{name}") is not None
            else getattr(import_module(f"{package}.{module}"), name)
        )
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def template_parts(package: str) -> dict[str, Any]:
    """The class attributes a system in ``package`` takes from its template modules
    (:data:`TEMPLATE_PARTS`); a missing module or name raises ``TypeError`` naming it."""
    parts = {}
    for attribute, (module_name, name) in TEMPLATE_PARTS.items():
        module = import_module(f"{package}.{module_name}")
        if not hasattr(module, name):
            raise TypeError(f"{package}.{module_name} defines no {name} (the system's {attribute})")
        parts[attribute] = getattr(module, name)
    return parts


class TemplateSystem(GameSystem):
    """A :class:`GameSystem` whose ``Character``, ``sheet``, ``default_rules`` and ``tables``
    come from its package's ``model``, ``sheet``, ``options`` and ``data`` modules.

    Subclass it with the keywords ``package`` (``__package__``), ``slug`` and ``title``; a
    subclass without ``package`` (e.g. a test's variant of a system) inherits its parent's parts.
    """

    def __init_subclass__(
        cls, *, package: str | None = None, slug: str | None = None, title: Mapping[str, str] | None = None, **kwargs
    ):
        super().__init_subclass__(**kwargs)
        if slug is not None:
            cls.slug = slug
        if title is not None:
            cls.title = title
        if package is not None:
            for attribute, value in template_parts(package).items():
                setattr(cls, attribute, value)
