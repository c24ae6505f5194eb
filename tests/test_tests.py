"""The test suite's own rules (issue 15), checked on its source with ``ast``: every test can fail.

Three patterns make a test that cannot fail:

* ``or-true``: an ``assert`` whose test is an ``or`` with a constant true operand
  (``assert x == y or True``) passes whatever ``x`` is;
* ``always-true``: an ``assert`` of a constant true value (``assert True``, ``assert 1``) or of a
  non-empty literal (``assert (x == y, "message")`` asserts a tuple, always true);
* ``no-project-code``: a ``test_*`` function that uses nothing of the project checks only
  itself (say, that ``1 - (9/20)**3 == 7271/8000`` by plain arithmetic).

A ``test_*`` function (its decorators, nested functions, lambdas and classes in its body included)
uses the project when it reads a *project name*, reads ``__file__`` (the project's own files),
names a project module in a string (an import by name, a subprocess's code), or goes through
something that does:

* a fixture it takes (or names in ``usefixtures``) defined in its class, its file or a
  ``conftest.py`` above it, whose body or own fixtures use the project (fixtures of plugins, such
  as Playwright's ``browser``, and pytest's own build nothing of the project); parametrized names
  count through the decorator's values;
* in a test class, a method or attribute it reads through ``self`` that uses the project.

Project names of a module are found to a fixed point: names imported from ``tabletop_widgets`` or
``tabletop_systems`` (anywhere in the file); names imported from a test module (``conftest``,
``dice_helpers``, ``tests.helpers``, relative imports) that are project names *there*; top-level
functions and classes whose body uses a project name; module-level names computed from a project
name, ``__file__``, ``globals()`` or a string naming a project module (``SYSTEM =
get_system("ret")``, ``PKG = ROOT / "systems"``); and module-level tables that a helper fills
with functions that use the project (``V[vid] = fn`` in a ``@vector`` decorator).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PROJECT_MODULES = ("tabletop_widgets", "tabletop_systems")

#: Offenders known when this checker was written, to be fixed by their owners: (file, test, rule).
#: Each entry must still offend (a stale entry fails too), so remove it once its file is fixed.
KNOWN_OFFENDERS: set[tuple[str, str, str]] = set()

#: Tests whose subject is the test suite itself, not the project: they check a helper or a checker
#: other tests rely on (that it finds what it must and lets pass what it should), or the suite's
#: size. They can fail, but call nothing of the project, so each is named here with the reason;
#: an entry that no longer offends fails too. (file, test) -> what it checks.
SUITE_SELF_TESTS: dict[tuple[str, str], str] = {
    **{
        ("tests/test_helpers.py", t): "the shared helpers in tests/helpers.py"
        for t in (
            "test_wait_until_returns_the_first_true_answer_and_names_what_it_waited_for",
            "test_async_wait_until_lets_the_loop_run_while_it_waits",
            "test_fixed_rng_scripts_the_dice_and_refuses_one_more",
            "test_seeded_random_prints_its_seed_and_replays",
        )
    },
    ("tests/unit/test_exact.py", "test_oracle_count"): "the number of oracle cases the suite checks",
    **{
        ("tests/unit/test_russian_wording.py", t): "the Russian wording scans the suite runs on the project's texts"
        for t in (
            "test_the_scan_catches_the_reported_cases",
            "test_the_scan_lets_good_templates_through",
            "test_the_declension_scan_catches_the_reported_cases",
            "test_the_declension_scan_lets_good_templates_through",
        )
    },
    ("tests/widgets/test_base.py", "test_the_scan_finds_a_copy"): "the scan for widget boilerplate copies",
    **{
        ("tests/widgets/test_plain_words.py", t): "the plain-words checker (tests/widgets/player_words.py)"
        for t in ("test_the_checker_catches_developer_text", "test_the_checker_lets_player_words_through")
    },
    **{
        ("tests/widgets/test_russian.py", t): "the Russian screens checker"
        for t in ("test_the_checker_catches_english_and_markers", "test_the_banned_check_catches_the_old_words")
    },
    ("tests/widgets/test_russian_yo.py", "test_the_check_finds_mixed_spellings"): "the ё/е consistency check",
}


def _test_files():
    return sorted(p for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)


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


def _names_project_module(node) -> bool:
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and any(m in node.value for m in PROJECT_MODULES)
    )


def _reads(node, names: set[str]) -> bool:
    """Whether ``node`` reads one of ``names``, ``__file__`` or names a project module."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and (n.id in names or n.id == "__file__"):
            return True
        if _names_project_module(n):
            return True
    return False


def _is_fixture(func) -> bool:
    for dec in func.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if (isinstance(target, ast.Attribute) and target.attr == "fixture") or (
            isinstance(target, ast.Name) and target.id == "fixture"
        ):
            return True
    return False


def _functions(body):
    return [n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _module_path(module: str | None, level: int, here: Path) -> Path | None:
    """The test-side file an import names (``None``: not a module of the test suite)."""
    parts = (module or "").split(".") if module else []
    if level:
        base = here.parent
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    elif parts and parts[0] == "tests":
        bases, parts = [TESTS], parts[1:]
    else:
        bases = [here.parent, *[d for d in here.parent.parents if TESTS in d.parents or d == TESTS]]
    for base in bases:
        for candidate in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__init__.py")):
            if parts and candidate.is_file() and (candidate == TESTS or TESTS in candidate.parents):
                return candidate
    return None


class Module:
    """One file of the test suite (a test file, a conftest, a helper module): which of its names
    are project names, and its fixtures."""

    def __init__(self, path: Path, source: str | None = None):
        self.path = path
        self.tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"), str(path))
        self.fixtures = {f.name: f for f in _functions(self.tree.body) if _is_fixture(f)}
        self._bound: set[str] | None = None

    @property
    def bound(self) -> set[str]:
        if self._bound is None:
            self._bound = set()  # a cycle of imports finds what is known so far
            self._bound = self._project_names()
        return self._bound

    def _imported(self) -> set[str]:
        bound = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    top = a.name.split(".")[0]
                    local = _module_path(a.name, 0, self.path)
                    if top in PROJECT_MODULES or (local is not None and module_at(local).bound):
                        bound.add((a.asname or a.name).split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                if (node.module or "").split(".")[0] in PROJECT_MODULES and not node.level:
                    bound |= {a.asname or a.name for a in node.names}
                    continue
                local = _module_path(node.module, node.level, self.path)
                if local is None:
                    continue
                there = module_at(local)
                for a in node.names:
                    sub = _module_path(f"{node.module}.{a.name}" if node.module else a.name, node.level, self.path)
                    if a.name in there.bound or (sub is not None and module_at(sub).bound):
                        bound.add(a.asname or a.name)
        return bound

    def _project_names(self) -> set[str]:
        bound = self._imported()
        defs = [n for n in self.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        assigns = [n for n in self.tree.body if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None]
        top_level = {
            t.id
            for n in assigns
            for tg in (n.targets if isinstance(n, ast.Assign) else [n.target])
            for t in ast.walk(tg)
            if isinstance(t, ast.Name)
        }
        fills = self._tables_filled(defs, top_level)
        changed = True
        while changed:
            changed = False
            for d in defs:
                if d.name not in bound and _reads(d, bound):
                    bound.add(d.name)
                    changed = True
            for n in assigns:
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                new = {t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)} - bound
                if new and (_reads(n.value, bound | {"globals"})):
                    bound |= new
                    changed = True
            for table, helpers in fills.items():
                if table in bound:
                    continue
                registered = [d for d in defs if any(_root_name(dec) in helpers for dec in d.decorator_list)]
                if any(_reads(ast.Module(body=list(d.body), type_ignores=[]), bound) for d in registered):
                    bound.add(table)
                    changed = True
        return bound

    @staticmethod
    def _tables_filled(defs, top_level: set[str]) -> dict[str, set[str]]:
        """Module-level tables that helpers fill (``V[vid] = fn``, ``V.append(fn)``): table -> helpers."""
        fills: dict[str, set[str]] = {}
        for fn in defs:
            if fn.name.startswith("test") or isinstance(fn, ast.ClassDef):
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
                    fills.setdefault(root, set()).add(fn.name)
        return fills

    def conftests(self) -> list["Module"]:
        """The ``conftest.py`` files whose fixtures this file sees, nearest first."""
        out = []
        for d in [self.path.parent, *self.path.parent.parents]:
            if d != TESTS and TESTS not in d.parents:
                break
            c = d / "conftest.py"
            if c.is_file() and c != self.path:
                out.append(module_at(c))
        return out


@functools.lru_cache(maxsize=None)
def module_at(path: Path) -> Module:
    return Module(path)


def _parametrized(func) -> set[str]:
    names = set()
    for dec in func.decorator_list:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "parametrize":
            if dec.args and isinstance(dec.args[0], ast.Constant) and isinstance(dec.args[0].value, str):
                names |= {n.strip() for n in dec.args[0].value.split(",")}
            elif dec.args and isinstance(dec.args[0], (ast.List, ast.Tuple)):
                names |= {e.value for e in dec.args[0].elts if isinstance(e, ast.Constant)}
    return names


def _requested(func, in_class: bool) -> set[str]:
    """The fixtures a function asks for: its parameters (not parametrized ones, not ``self``)
    and the names in ``@pytest.mark.usefixtures(...)``."""
    params = {
        a.arg
        for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs
        if not (in_class and a.arg in ("self", "cls"))
    }
    for dec in func.decorator_list:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "usefixtures":
            params |= {a.value for a in dec.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return params - _parametrized(func)


def _fixture_uses_project(name: str, mod: Module, cls, seen: set) -> bool:
    """Whether the fixture ``name`` as ``mod`` (and the test class ``cls``) sees it uses the project."""
    places = []
    if cls is not None:
        places += [(f, mod, cls) for f in _functions(cls.body) if f.name == name and _is_fixture(f)]
    if name in mod.fixtures:
        places.append((mod.fixtures[name], mod, None))
    places += [(c.fixtures[name], c, None) for c in mod.conftests() if name in c.fixtures]
    for func, where, owner in places:
        key = (where.path, owner.name if owner is not None else "", func.name, func.lineno)
        if key in seen:
            continue  # an override that asks for the fixture it overrides: look further up
        seen.add(key)
        return _function_uses_project(func, where, owner, seen)
    return False  # a plugin's fixture (browser, page, ...) or pytest's own


def _function_uses_project(func, mod: Module, cls, seen: set) -> bool:
    bound = mod.bound
    if _reads(func, bound):
        return True
    if any(_fixture_uses_project(name, mod, cls, seen) for name in sorted(_requested(func, cls is not None))):
        return True
    if cls is not None:  # members reached through self / cls
        members = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        for n in cls.body:
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                for tg in n.targets if isinstance(n, ast.Assign) else [n.target]:
                    if isinstance(tg, ast.Name):
                        members[tg.id] = n
        for node in ast.walk(func):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                member = members.get(node.attr)
                key = (mod.path, cls.name, node.attr)
                if member is None or key in seen:
                    continue
                seen.add(key)
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    if _function_uses_project(member, mod, cls, seen):
                        return True
                elif _reads(member, bound):
                    return True
    return False


def _always_true(node) -> bool:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    return False


def _or_true(test) -> bool:
    return (
        isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.Or)
        and any(_always_true(v) or _or_true(v) for v in test.values)
    )


def _tests_of(tree: ast.Module):
    """(test function, its class or None) for every ``test_*`` function at top level or in a class."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, None
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    yield item, node


def offenders(path: Path, source: str | None = None):
    """``(file, test, rule, line)`` for every test in ``path`` that cannot fail. ``or-true`` and
    ``always-true`` are looked for in every assert of the file (helpers and registered vectors
    too), named after the top-level function or class holding it."""
    mod = Module(path, source) if source is not None else module_at(path)
    try:
        rel = path.relative_to(ROOT).as_posix()
    except ValueError:
        rel = path.name
    found = []
    for top in mod.tree.body:
        for node in ast.walk(top):
            if isinstance(node, ast.Assert):
                rule = "or-true" if _or_true(node.test) else "always-true" if _always_true(node.test) else None
                if rule:
                    found.append((rel, getattr(top, "name", "<module>"), rule, node.lineno))
    for func, cls in _tests_of(mod.tree):
        if not _function_uses_project(func, mod, cls, set()):
            found.append((rel, func.name, "no-project-code", func.lineno))
    return found


def _suite_offenders():
    return [o for p in _test_files() for o in offenders(p)]


def _allowed(f: str, test: str, rule: str) -> bool:
    return (f, test, rule) in KNOWN_OFFENDERS or (rule == "no-project-code" and (f, test) in SUITE_SELF_TESTS)


def test_every_test_can_fail():
    found = _suite_offenders()
    new = [f"{f}:{line} {test}: {rule}" for f, test, rule, line in found if not _allowed(f, test, rule)]
    assert not new, "tests that cannot fail:\n" + "\n".join(new)


def test_known_offenders_still_offend():
    """A fixed offender must leave ``KNOWN_OFFENDERS`` (so the list never hides a new one), and a
    test of the suite that now calls the project leaves ``SUITE_SELF_TESTS``."""
    still = {(f, test, rule) for f, test, rule, _ in _suite_offenders()}
    stale = sorted(KNOWN_OFFENDERS - still)
    assert not stale, f"fixed: remove from KNOWN_OFFENDERS in tests/test_tests.py: {stale}"
    self_tests = {(f, test) for f, test, rule in still if rule == "no-project-code"}
    stale = sorted(set(SUITE_SELF_TESTS) - self_tests)
    assert not stale, f"no longer a test of the suite alone: remove from SUITE_SELF_TESTS: {stale}"


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
W = {}
PLAIN = {2: "b", 1: "a"}

def vector(vid):
    def deco(fn):
        V[vid] = fn
        return fn
    return deco

def plain_vector(vid):
    def deco(fn):
        W[vid] = fn
        return fn
    return deco

@vector("a")
def _():
    assert V or True

@vector("b")
def _b():
    assert roll("1d6").total <= 6

@plain_vector("c")
def _c():
    assert 1 + 1 == 2

def helper():
    return 1

def project_helper():
    return roll("1d6")

def helper_of_helper():
    return project_helper()

@pytest.fixture
def made():
    return roll("1d6")

@pytest.fixture
def chained(made):
    return made

@pytest.fixture
def plain():
    return 1

def test_or_true():
    assert roll("1d6").total == 7 or True

def test_or_true_nested():
    assert roll("1d6").total == 7 or (False or 1)

def test_assert_true():
    roll("1d6")
    assert True

def test_assert_a_tuple():
    assert (roll("1d6").total == 7, "a tuple is always true")

def test_only_arithmetic():
    p = Fraction(11, 20)
    assert 1 - (1 - p) ** 3 == Fraction(7271, 8000)
    assert sum(1 for a in itertools.product(range(3), repeat=2)) == 9

@pytest.mark.parametrize("n", [1, 2])
def test_only_parameters(n, tmp_path):
    assert n > 0 and tmp_path.exists()

@pytest.mark.parametrize("r", [roll("1d4")])
def test_parameters_from_the_project(r):
    assert r.total <= 4

def test_project_call():
    assert roll("1d6").total <= 6

def test_helper_call():
    assert helper() == 1

def test_project_helper_call():
    assert helper_of_helper().total <= 6

def test_imported_helper_only():
    assert Scripted([1]).randint(1, 6) == 1

def test_imported_helper_with_the_project():
    assert roll("1d6", rng=Scripted([1])).total == 1

def test_fixture(made):
    assert made.total <= 6

def test_fixture_of_a_fixture(chained):
    assert chained.total <= 6

@pytest.mark.usefixtures("made")
def test_uses_fixtures_mark():
    assert 1 == 1

def test_plain_fixture(plain):
    assert plain == 1

def test_plugin_fixture(browser):
    assert browser

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
    assert sorted(V) == ["a", "b"]

def test_plain_table_of_vectors():
    assert sorted(W) == ["c"]

@pytest.mark.parametrize("vid", ["a"])
def test_vector(vid):
    V[vid]()

def test_only_a_plain_table():
    assert sorted(PLAIN) == [1, 2]

def test_or_with_a_real_operand():
    assert roll("1d6").total > 0 or roll("1d6").total < 7

class TestGroup:
    def test_method_uses_a_plain_helper(self):
        assert self.make() == 1

    def test_method_uses_a_project_helper(self):
        assert self.roll_one().total <= 4

    def test_method_alone(self):
        assert 1 + 1 == 2

    def make(self):
        return 1

    def roll_one(self):
        return roll("1d4")
"""


def test_the_checker_flags_exactly_the_bad_tests():
    got = sorted((test, rule) for _, test, rule, _ in offenders(TESTS / "unit" / "test_example.py", BAD))
    assert got == [
        ("_", "or-true"),
        ("test_assert_a_tuple", "always-true"),
        ("test_assert_true", "always-true"),
        ("test_helper_call", "no-project-code"),
        ("test_imported_helper_only", "no-project-code"),
        ("test_method_alone", "no-project-code"),
        ("test_method_uses_a_plain_helper", "no-project-code"),
        ("test_only_a_plain_table", "no-project-code"),
        ("test_only_arithmetic", "no-project-code"),
        ("test_only_parameters", "no-project-code"),
        ("test_or_true", "or-true"),
        ("test_or_true_nested", "or-true"),
        ("test_plain_fixture", "no-project-code"),
        ("test_plain_table_of_vectors", "no-project-code"),
        ("test_plugin_fixture", "no-project-code"),
    ]
