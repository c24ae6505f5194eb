"""Names a package exports but imports on first use (PEP 562 module ``__getattr__``).

A page's kernel then loads only what the page uses: ``from tabletop_widgets.widgets import
show_sheet`` imports the sheet, not the table layer or the lobby. This module imports nothing
but ``importlib``, so the top-level package can use it and still load nothing else.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Callable, Iterable, Mapping


def lazy_exports(
    package: str, names: Mapping[str, str], submodules: Iterable[str] | None = ()
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``.

    ``names`` maps each public name to the module defining it: a submodule of ``package``
    (``"sheet"``) or an absolute module name (``"tabletop_widgets.core.registry"``).
    ``submodules`` are the package's modules reachable as attributes (``widgets.tray``); ``None``
    means any of them. A name is imported once, then stored in the package like a plain import.
    """
    subs = None if submodules is None else frozenset(submodules)

    def module_of(target: str) -> str:
        return target if "." in target else f"{package}.{target}"

    def __getattr__(name: str) -> object:
        if name in names:
            value = getattr(importlib.import_module(module_of(names[name])), name)
        elif (name in subs) if subs is not None else importlib.util.find_spec(f"{package}.{name}") is not None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)  # later lookups skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names) | (subs or set()))

    return __getattr__, __dir__
