"""The test suite's own rules (issue 15), checked on its source with ``ast``: every test can fail.

Two patterns make a test that cannot fail:

* ``or-true``: an ``assert`` whose test is an ``or`` with a constant true operand
  (``assert x == y or True``) passes whatever ``x`` is;
* ``no-project-code``: a ``test_*`` function that uses nothing of the project checks only
  itself (say, that ``1 - (9/20)**3 == 7271/8000`` by plain arithmetic).

A ``test_*`` function (nested functions, lambdas and classes in its body included) uses the
project when its body reads a *bound name* or ``__file__`` (to read the project's own files),
names a project module in a string (an import by name, a subprocess's code), reads ``self`` in a
test class, or takes a fixture other than pytest's own (``tmp_path``, ``monkeypatch``...) and its
parametrized names: the project's fixtures build project objects, servers or browsers. Bound
names are

* names imported from ``tabletop_widgets`` or ``tabletop_systems`` (anywhere in the file);
* local helpers: functions and classes defined at the file's top level, and names imported from
  test modules (relative imports, ``tests.*``, or a module that is a file under ``tests/`` such
  as ``dice_helpers``);
* module-level names computed from a bound name, from ``__file__`` (paths of the project's own
  files: sources, notebooks, docs), from ``globals()`` or from a string naming a project module
  (``SYSTEM = get_system("ret")``, ``PKG = ROOT / "systems"``);
* module-level tables that the file's functions fill (``V[vid] = fn`` in a ``@vector`` decorator).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PROJECT_MODULES = ("tabletop_widgets", "tabletop_systems")

#: pytest's own fixtures: they build nothing of the project
PYTEST_FIXTURES = {
    "tmp_path",
    "tmp_path_factory",
    "tmpdir",
    "tmpdir_factory",
    "monkeypatch",
    "capsys",
    "capsysbinary",
    "capfd",
    "capfdbinary",
    "caplog",
    "recwarn",
    "request",
    "pytestconfig",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "cache",
    "doctest_namespace",
    "testdir",
    "pytester",
}

#: Offenders known when this checker was written, to be fixed by their owners: (file, test, rule).
#: Each entry must still offend (a stale entry fails too), so remove it once its file is fixed.
KNOWN_OFFENDERS: set[tuple[str, str, str]] = set()


def _test_files():
    return sorted(p for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)


def _local_module_names() -> set[str]:
    return {p.stem for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts}


LOCAL_MODULES = _local_module_names()


def _root_name(node):
    """The name a callee or value starts from: ``a`` in ``a.b(c)[d].e``."""
    while True:
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def _is_local_module(module: str | None, level: int) -> bool:
    if level:
        return True
    if not module:
        return False
    top = module.split(".")[0]
    return top == "tests" or top in LOCAL_MODULES or top == "conftest"


def _names_project_module(node) -> bool:
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and any(m in node.value for m in PROJECT_MODULES)
    )


def _bound_names(tree: ast.Module) -> set[str]:
    """The names of a test file that stand for project code, project files or local test code."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PROJECT_MODULES or _is_local_module(a.name, 0):
                    bound.add((a.asname or a.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if ((node.module or "").split(".")[0] in PROJECT_MODULES and not node.level) or _is_local_module(
                node.module, node.level
            ):
                bound |= {a.asname or a.name for a in node.names}
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    bound |= {n.name for n in functions}
    top_level = {
        t.id
        for n in tree.body
        if isinstance(n, (ast.Assign, ast.AnnAssign))
        for tg in (n.targets if isinstance(n, ast.Assign) else [n.target])
        for t in ast.walk(tg)
        if isinstance(t, ast.Name)
    }
    # tables the file's own helpers fill: V[vid] = fn in a @vector decorator, V.append(fn)
    for fn in functions:
        if fn.name.startswith("test"):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
                root = _root_name(node)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "add", "update", "setdefault", "extend", "insert")
            ):
                root = _root_name(node.func.value)
            else:
                continue
            if root in top_level:
                bound.add(root)
    # module-level names computed from bound names, __file__, globals() or a project module's name
    changed = True
    while changed:
        changed = False
        for node in tree.body:
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            value = list(ast.walk(node.value))
            used = {n.id for n in value if isinstance(n, ast.Name)}
            if used & (bound | {"__file__", "globals"}) or any(_names_project_module(n) for n in value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                new = {t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)} - bound
                if new:
                    bound |= new
                    changed = True
    return bound


def _parametrized(func) -> set[str]:
    names = set()
    for dec in func.decorator_list:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "parametrize":
            if dec.args and isinstance(dec.args[0], ast.Constant) and isinstance(dec.args[0].value, str):
                names |= {n.strip() for n in dec.args[0].value.split(",")}
            elif dec.args and isinstance(dec.args[0], (ast.List, ast.Tuple)):
                names |= {e.value for e in dec.args[0].elts if isinstance(e, ast.Constant)}
    return names


def _uses_project(func, bound: set[str], in_class: bool) -> bool:
    bound = bound | {"__file__"}  # the project's own files, found from the test's place
    if in_class:
        bound = bound | {"self", "cls"}  # the class's own helpers and attributes
    params = [
        a.arg
        for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs
        if not (in_class and a.arg in ("self", "cls"))
    ]
    if set(params) - _parametrized(func) - PYTEST_FIXTURES:
        return True
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound:
            return True
        if _names_project_module(node):
            return True
    return False


def _always_true(node) -> bool:
    return isinstance(node, ast.Constant) and bool(node.value)


def _or_true(test) -> bool:
    return (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.Or)
        and any(_always_true(v) or _or_true(v) for v in test.values)
    )


def _tests_of(tree: ast.Module):
    """(test function, is it a method) for every ``test_*`` function at top level or in a class."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, False
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    yield item, True


def offenders(path: Path, source: str | None = None):
    """``(file, test, rule, line)`` for every test in ``path`` that cannot fail. ``or-true`` is
    looked for in every assert of the file (helpers and registered vectors too), named after the
    top-level function or class holding it."""
    tree = ast.parse(source if source is not None else path.read_text(), str(path))
    try:
        rel = path.relative_to(ROOT).as_posix()
    except ValueError:
        rel = path.name
    bound = _bound_names(tree)
    found = []
    for top in tree.body:
        for node in ast.walk(top):
            if isinstance(node, ast.Assert) and _or_true(node.test):
                found.append((rel, getattr(top, "name", "<module>"), "or-true", node.lineno))
    for func, in_class in _tests_of(tree):
        if not _uses_project(func, bound, in_class):
            found.append((rel, func.name, "no-project-code", func.lineno))
    return found


def _suite_offenders():
    return [o for p in _test_files() for o in offenders(p)]


def test_every_test_can_fail():
    found = _suite_offenders()
    new = [f"{f}:{line} {test}: {rule}" for f, test, rule, line in found if (f, test, rule) not in KNOWN_OFFENDERS]
    assert not new, "tests that cannot fail:\n" + "\n".join(new)


def test_known_offenders_still_offend():
    """A fixed offender must leave ``KNOWN_OFFENDERS`` (so the list never hides a new one)."""
    still = {(f, test, rule) for f, test, rule, _ in _suite_offenders()}
    stale = sorted(KNOWN_OFFENDERS - still)
    assert not stale, f"fixed: remove from KNOWN_OFFENDERS in tests/test_tests.py: {stale}"


# --- the checker itself can fail ----------------------------------------------------------------

BAD = """
import itertools
import pathlib
from fractions import Fraction
import pytest
from tabletop_widgets.dice import roll
from dice_helpers import Scripted

SYSTEM = None
ROOT = pathlib.Path(__file__).parents[1]
PKG = ROOT / "systems"
V = {}
PLAIN = {2: "b", 1: "a"}

def vector(vid):
    def deco(fn):
        V[vid] = fn
        return fn
    return deco

@vector("a")
def _():
    assert V or True

def helper():
    return 1

def test_or_true():
    assert roll("1d6").total == 7 or True

def test_or_true_nested():
    assert roll("1d6").total == 7 or (False or 1)

def test_only_arithmetic():
    p = Fraction(11, 20)
    assert 1 - (1 - p) ** 3 == Fraction(7271, 8000)
    assert sum(1 for a in itertools.product(range(3), repeat=2)) == 9

@pytest.mark.parametrize("n", [1, 2])
def test_only_parameters(n, tmp_path):
    assert n > 0 and tmp_path.exists()

def test_project_call():
    assert roll("1d6").total <= 6

def test_helper_call():
    assert helper() == 1

def test_imported_helper():
    assert Scripted([1]).randint(1, 6) == 1

def test_fixture(table):
    assert table

def test_project_call_nested():
    def inner():
        return roll("1d4")
    assert inner().total <= 4

def test_reads_a_project_constant():
    from tabletop_systems.threads_of_fate.rules import SIZE_MEDIUM_COUNT
    assert SIZE_MEDIUM_COUNT["large"] == 2

def test_imports_by_name():
    assert __import__("tabletop_systems.ret", fromlist=["x"]).SYSTEM

def test_reads_project_files():
    for path in PKG.rglob("*.py"):
        assert "ipywidgets" not in path.read_text()

def test_every_vector_is_registered():
    assert sorted(V) == ["a"]

@pytest.mark.parametrize("vid", ["a"])
def test_vector(vid):
    V[vid]()

def test_only_a_plain_table():
    assert sorted(PLAIN) == [1, 2]

def test_or_with_a_real_operand():
    assert roll("1d6").total > 0 or roll("1d6").total < 7

class TestGroup:
    def test_method_uses_self(self):
        assert self.make() == 1

    def test_method_alone(self):
        assert 1 + 1 == 2

    def make(self):
        return 1
"""


def test_the_checker_flags_exactly_the_bad_tests():
    got = sorted((test, rule) for _, test, rule, _ in offenders(TESTS / "test_example.py", BAD))
    assert got == [
        ("_", "or-true"),
        ("test_method_alone", "no-project-code"),
        ("test_only_a_plain_table", "no-project-code"),
        ("test_only_arithmetic", "no-project-code"),
        ("test_only_parameters", "no-project-code"),
        ("test_or_true", "or-true"),
        ("test_or_true_nested", "or-true"),
    ]
