"""No module reads another module's ``_private`` names (issue 15), checked on the source with ``ast``.

A name is private when it starts with one underscore (``_x``; dunders ``__x__`` and protocol
names such as ``_repr_html_`` are not). A module reaches across when it

* imports one from another project module (``from .x import _y``), or
* reads or writes ``obj._x`` where ``_x`` is defined in another module of the project and the
  module does not define it itself. A module defines ``_x`` with ``def _x``/``class _x``, an
  assignment ``_x = ...`` or ``self._x = ...``/``cls._x = ...``: a subclass that overrides a
  hook of its base class defines the hook too. On any other receiver (``other._x = ...``,
  ``self.part._x = ...``) a write defines nothing: it is a write into another object's
  private state.

Scope: the packages listed in ``CLEAN`` (``table``, ``core``, ``dice`` and ``widgets``) must have
no such access, with no allow-list.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import tabletop_widgets

PACKAGE = Path(tabletop_widgets.__file__).resolve().parent
ROOT = PACKAGE.parent
#: every module of the project: where a private name may be defined
PROJECT = [PACKAGE, ROOT / "systems"]
#: the packages (and modules) that must be clean
CLEAN = ["table", "core", "dice", "widgets"]


def is_private(name: str) -> bool:
    if name.startswith("__") and name.endswith("__"):
        return False
    if len(name) > 2 and name.startswith("_") and name.endswith("_"):
        return False  # a protocol name: _repr_html_, _ipython_display_
    return name.startswith("_")


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def defined_names(tree: ast.AST) -> set[str]:
    """The private names a module defines itself (see the module's docstring)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_self(node.value):
            names.add(node.attr)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
    return {n for n in names if is_private(n)}


def _is_project_import(node: ast.ImportFrom) -> bool:
    return bool(node.level) or (node.module or "").split(".")[0] in ("tabletop_widgets", "tabletop_systems")


def cross_module_private(source: str, own: set[str], elsewhere: set[str], where: str = "<module>") -> list[str]:
    """The places in ``source`` that reach another module's private names: ``own`` are the names
    the module defines itself, ``elsewhere`` those defined by the project's other modules."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, ast.ImportFrom) and _is_project_import(node):
            for alias in node.names:
                if is_private(alias.name):
                    found.append(
                        f"{where}:{node.lineno}: from {'.' * node.level}{node.module or ''} import {alias.name}"
                    )
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            own_write = isinstance(node.ctx, ast.Store) and _is_self(node.value)
            if not own_write and node.attr in elsewhere and node.attr not in own:
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


@functools.lru_cache(maxsize=1)
def _project() -> tuple[dict[Path, str], dict[Path, set[str]]]:
    """Every project module's source, and the private names each defines."""
    sources = {p: p.read_text(encoding="utf-8") for root in PROJECT for p in sorted(root.rglob("*.py"))}
    return sources, {p: defined_names(ast.parse(src)) for p, src in sources.items()}


def _scan(paths: list[Path]) -> list[str]:
    sources, defined = _project()
    found = []
    for path in paths:
        elsewhere = set().union(*(names for p, names in defined.items() if p != path))
        found += cross_module_private(sources[path], defined[path], elsewhere, str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("package", CLEAN)
def test_no_module_reads_another_modules_private_names(package):
    where = PACKAGE / package
    paths = [where] if where.is_file() else sorted(where.rglob("*.py"))
    assert paths, f"no modules under {package}"
    found = _scan(paths)
    assert not found, "private names reached across modules (give what is shared a public name):\n" + "\n".join(found)


# -- the checker catches what it must, and lets pass what it should --------------------------------
ELSEWHERE = {"_secret", "_hook", "_count", "_helper"}


@pytest.mark.parametrize(
    "source",
    [
        "from .store import _helper",
        "from tabletop_widgets.table.store import _helper as helper",
        "def f(store):\n    return store._secret",
        "def f(follower):\n    follower._count = 0",
        "class A:\n    def f(self):\n        self.part._count = 0",
        "class B(Base):\n    def f(self):\n        return self._hook()",  # a base class's private state
    ],
)
def test_the_checker_finds_a_reach_across(source):
    own = defined_names(ast.parse(source))
    assert cross_module_private(source, own, ELSEWHERE)


@pytest.mark.parametrize(
    "source",
    [
        "def _helper():\n    pass\nx = _helper()",
        "class A:\n    def __init__(self):\n        self._count = 0\n    def f(self, other):\n        return other._count",
        "class B(Base):\n    def _hook(self):\n        return 1\n    def f(self):\n        return self._hook()",
        "def f(parts):\n    return parts._replace(x=1)",  # not a project name: namedtuple's API
        "def f(r):\n    return r._repr_html_()",
        "from .store import helper",
    ],
)
def test_the_checker_lets_a_module_use_its_own_names(source):
    own = defined_names(ast.parse(source))
    assert cross_module_private(source, own, ELSEWHERE) == []
