"""The package's modules and functions stay a size a reviewer can read (issue #15).

The four systems and the fifth-system example are held to the same limits by
``tests/unit/test_system_template.py``; this test covers ``tabletop_widgets`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tabletop_widgets

PACKAGE = Path(tabletop_widgets.__file__).resolve().parent
#: a module past this many lines is split along its seams
MAX_MODULE_LINES = 700
#: a function past this many lines is split into named steps
MAX_FUNCTION_LINES = 100


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def long_modules(paths, limit=MAX_MODULE_LINES):
    """``(path, lines)`` of every module longer than ``limit`` lines."""
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append((path, lines))
    return found


def long_functions(paths, limit=MAX_FUNCTION_LINES):
    """``(path, name, lines)`` of every function or method longer than ``limit`` lines."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((path, node.name, lines))
    return found


def test_the_package_has_its_modules():
    # a wrong root would make the two checks below pass on nothing
    names = {p.relative_to(PACKAGE).as_posix() for p in _modules()}
    assert {"dice/engine.py", "table/session.py", "widgets/sheet.py"} <= names
    assert len(names) > 100


def test_no_module_is_past_the_limit():
    found = long_modules(_modules())
    assert not found, "split along their seams: " + ", ".join(f"{p.relative_to(PACKAGE)} ({n} lines)" for p, n in found)


def test_no_function_is_past_the_limit():
    found = long_functions(_modules())
    assert not found, "split into named steps: " + ", ".join(
        f"{p.relative_to(PACKAGE)}::{name} ({n} lines)" for p, name, n in found
    )


def test_the_checks_catch_long_modules_and_functions():
    # the same checks with tighter limits find the package's longest module and function
    paths = _modules()
    longest = max(paths, key=lambda p: len(p.read_text(encoding="utf-8").splitlines()))
    lines = len(longest.read_text(encoding="utf-8").splitlines())
    assert long_modules(paths, limit=lines - 1) == [(longest, lines)]
    assert long_modules(paths, limit=lines) == []
    functions = long_functions(paths, limit=40)
    assert functions and all(n > 40 for _, _, n in functions)
    assert long_functions(paths, limit=max(n for _, _, n in functions)) == []
