"""A declarative base for systems that follow the template of ``systems/README.md``.

Every system's :class:`~tabletop_widgets.core.system.GameSystem` subclass used to start with the
same four assignments (``Character = Character``, ``sheet = SHEET``, ``default_rules = DEFAULTS``,
``tables = TABLES``), each naming a module of the template. A subclass of :class:`TemplateSystem`
names its package and its slug and title once; the four parts are read from the package's
template modules::

    class LanternSystem(TemplateSystem, package=__package__, slug="lantern", title=T("Lantern", "Фонарь")): ...
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Mapping

from .system import GameSystem

#: class attribute <- (template module, the name that module defines)
TEMPLATE_PARTS: dict[str, tuple[str, str]] = {
    "Character": ("model", "Character"),
    "sheet": ("sheet", "SHEET"),
    "default_rules": ("options", "DEFAULTS"),
    "tables": ("data", "TABLES"),
}


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
