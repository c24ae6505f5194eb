"""Every system follows one template (``systems/README.md``, issue 15), checked on its source and
on the running system: the four built-in systems and the fifth-system example
(``tests/fixtures/fifth_system``, registered only here)."""

from __future__ import annotations

import ast
import importlib
import inspect
import random
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core import GameSystem, Problem
from tabletop_widgets.core.options import GmOptions

from helpers import registered

ROOT = Path(__file__).resolve().parents[2]
FIFTH = ROOT / "tests" / "fixtures" / "fifth_system"

REQUIRED = (
    "__init__.py",
    "system.py",
    "options.py",
    "data.py",
    "model.py",
    "validation.py",
    "checks.py",
    "combat.py",
    "sheet.py",
    "words.py",
)
FORBIDDEN = ("rules.py", "utils.py", "helpers.py", "misc.py")
MAX_FUNCTION_LINES = 80
MAX_FILE_LINES = 700

#: calls that build a mutable container at module level
MUTABLE_FACTORIES = {
    "dict",
    "list",
    "set",
    "defaultdict",
    "OrderedDict",
    "WeakKeyDictionary",
    "WeakValueDictionary",
    "Counter",
    "deque",
}
#: methods that change a container in place
MUTATORS = {
    "append",
    "extend",
    "insert",
    "add",
    "update",
    "setdefault",
    "pop",
    "popitem",
    "clear",
    "remove",
    "discard",
    "appendleft",
}

#: (module the system lives in, its folder)
SYSTEMS = [
    pytest.param("tabletop_systems.ret", ROOT / "systems" / "ret", id="ret"),
    pytest.param("tabletop_systems.seasons", ROOT / "systems" / "seasons", id="seasons"),
    pytest.param("tabletop_systems.life_and_death", ROOT / "systems" / "life_and_death", id="life_and_death"),
    pytest.param("tabletop_systems.threads_of_fate", ROOT / "systems" / "threads_of_fate", id="threads_of_fate"),
    pytest.param("fixtures.fifth_system", FIFTH, id="fifth_system"),
]


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _where(path: Path, node: ast.AST | None = None) -> str:
    """``path`` (relative to the repository, or to its system's parent folder) and the line."""
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.relative_to(path.parents[1])
    return f"{rel}:{node.lineno}" if node is not None else str(rel)


# -- the checks, each a list of what is wrong (empty: fine) -------------------------------------
def layout_problems(folder: Path) -> list[str]:
    names = {p.name for p in folder.glob("*.py")}
    out = [f"{folder.name}: no {m}" for m in REQUIRED if m not in names]
    out += [f"{folder.name}: {m} (name a module after the rules it holds)" for m in FORBIDDEN if m in names]
    return out


def init_problems(folder: Path) -> list[str]:
    path = folder / "__init__.py"
    return [
        f"{_where(path, node)}: __init__.py re-exports only, but defines {node.name!r}"
        for node in ast.walk(_tree(path))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    ]


def system_module_problems(module: str) -> list[str]:
    mod = importlib.import_module(f"{module}.system")
    out = []
    classes = [
        c
        for c in vars(mod).values()
        if inspect.isclass(c) and issubclass(c, GameSystem) and c.__module__ == mod.__name__
    ]
    if len(classes) != 1:
        out.append(f"{module}.system defines {len(classes)} GameSystem subclasses, not one")
    system = getattr(mod, "SYSTEM", None)
    if not isinstance(system, GameSystem) or (classes and type(system) is not classes[0]):
        out.append(f"{module}.system: SYSTEM is not an instance of its GameSystem subclass")
    if importlib.import_module(module).SYSTEM is not system:
        out.append(f"{module}: the package's SYSTEM is not system.SYSTEM")
    return out


def _all_args(fn: ast.FunctionDef | ast.AsyncFunctionDef):
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, default in zip(positional, defaults):
        yield arg.arg, default, False
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        yield arg.arg, default, True


def _is_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def signature_problems(folder: Path) -> list[str]:
    """Module functions take the GM options as the required keyword ``options``; no
    ``rules=None``. Methods of the system class take ``**options`` (check options) and are not
    module functions."""
    out = []
    for path in _modules(folder):
        for node in _tree(path).body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for name, default, keyword_only in _all_args(node):
                if name == "options" and not keyword_only:
                    out.append(f"{_where(path, node)}: {node.name}(options) must take options keyword-only")
                if name == "options" and default is not None:
                    out.append(f"{_where(path, node)}: {node.name}(*, options=...) must not have a default")
                if name == "rules" and default is not None and not _is_none(default):
                    out.append(f"{_where(path, node)}: {node.name}(rules=...) defaults the GM options: take *, options")
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for name, default, _kw in _all_args(node):
                    if name in ("rules", "options") and _is_none(default):
                        out.append(f"{_where(path, node)}: {node.name}({name}=None) silently means the defaults")
    return out


def _module_mutables(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        targets, value = [], None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        mutable = isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)) or (
            isinstance(value, ast.Call)
            and (getattr(value.func, "id", None) or getattr(value.func, "attr", None)) in MUTABLE_FACTORIES
        )
        if mutable:
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def global_state_problems(folder: Path) -> list[str]:
    """No module-level state written at run time: a module-level dict/list/set (or weak
    dictionary...) changed inside a function, a ``global`` rebound, or an attribute written on a
    module-level name (a class used as a cache)."""
    out = []
    for path in _modules(folder):
        tree = _tree(path)
        mutables = _module_mutables(tree)
        top_names = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        top_names |= {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            local = {a for a, _d, _k in _all_args(fn)} | {"self", "cls"}
            for node in ast.walk(fn):
                if isinstance(node, ast.Global):
                    out.append(f"{_where(path, node)}: {fn.name} rebinds the module global(s) {node.names}")
                elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    base = node.value
                    if isinstance(base, ast.Name) and base.id not in local:
                        if (isinstance(node, ast.Subscript) and base.id in mutables) or (
                            isinstance(node, ast.Attribute) and base.id in top_names
                        ):
                            out.append(f"{_where(path, node)}: {fn.name} writes the module-level {base.id}")
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    base = node.func.value
                    if isinstance(base, ast.Name) and base.id in mutables and node.func.attr in MUTATORS:
                        out.append(f"{_where(path, node)}: {fn.name} changes the module-level {base.id}")
    return out


def size_problems(folder: Path) -> list[str]:
    out = []
    for path in _modules(folder):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + (not text.endswith("\n"))
        if lines > MAX_FILE_LINES:
            out.append(f"{_where(path)}: {lines} lines (at most {MAX_FILE_LINES}: split it along its seams)")
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(f"{_where(path, node)}: {node.name} is {length} lines (at most {MAX_FUNCTION_LINES})")
    return out


def party_problems(module: str) -> list[str]:
    system = importlib.import_module(module).SYSTEM
    party = {"a": system.Character(), "b": system.Character()}
    validation = importlib.import_module(f"{module}.validation")
    out = []
    for where, got in (
        ("SYSTEM.validate_party", system.validate_party(party)),
        ("validation.validate_party", validation.validate_party(party, options=system.rules)),
    ):
        if not isinstance(got, list) or not all(isinstance(p, Problem) for p in got):
            out.append(f"{module}: {where} returns {type(got).__name__}, not a list of Problems")
    return out


def options_problems(module: str) -> list[str]:
    system = importlib.import_module(module).SYSTEM
    options = importlib.import_module(f"{module}.options")
    out = []
    if dict(system.default_rules) != dict(options.DEFAULTS):
        out.append(f"{module}: default_rules is not options.DEFAULTS")
    if not isinstance(system.rules, GmOptions):
        out.append(f"{module}: SYSTEM.rules is not a GmOptions")
    for name in options.DEFAULTS:
        text = getattr(options, "DESCRIPTIONS", {}).get(name) or {}
        if not (text.get("en") and text.get("ru")):
            out.append(f"{module}: options.DESCRIPTIONS[{name!r}] needs en and ru")
    return out


def data_problems(module: str) -> list[str]:
    from tabletop_widgets.core.data import DataTables

    data = importlib.import_module(f"{module}.data")
    tables = getattr(data, "TABLES", None)
    if not isinstance(tables, DataTables):
        return [f"{module}.data: TABLES is not a DataTables"]
    return [] if tables.names() else [f"{module}.data: TABLES finds no data/*.json"]


@pytest.mark.parametrize(("module", "folder"), SYSTEMS)
def test_system_follows_the_template(module, folder):
    problems = layout_problems(folder)
    if not problems:
        problems += init_problems(folder)
        problems += system_module_problems(module)
        problems += options_problems(module)
        problems += data_problems(module)
        problems += party_problems(module)
    problems += signature_problems(folder) + global_state_problems(folder) + size_problems(folder)
    assert not problems, "\n".join(problems)


# -- the checks catch what they are for ---------------------------------------------------------
BAD = """
import weakref
_LAST = weakref.WeakKeyDictionary()
_SEEN = {}
_COUNT = 0


class Cache:
    pass


def roll(character, options, rules=None):
    _LAST[character] = 1
    _SEEN.setdefault("x", 1)
    Cache.hit = True
    global _COUNT
    _COUNT += 1


def plan(character, *, options=None):
    local = {}
    local["x"] = 1
    return local
"""


def test_the_checks_catch_a_bad_system(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "__init__.py").write_text("def helper():\n    return 1\n")
    (folder / "rules.py").write_text(BAD + "\n" * 700)
    (folder / "checks.py").write_text("def long():\n" + "    x = 1\n" * 81)
    layout = layout_problems(folder)
    assert "bad: no system.py" in layout and any("rules.py" in p for p in layout)
    assert init_problems(folder) == ["bad/__init__.py:1: __init__.py re-exports only, but defines 'helper'"]
    sig = "\n".join(signature_problems(folder))
    assert "roll(options) must take options keyword-only" in sig
    assert "roll(rules=None)" in sig and "plan(*, options=...) must not have a default" in sig
    state = "\n".join(global_state_problems(folder))
    for needle in (
        "writes the module-level _LAST",
        "changes the module-level _SEEN",
        "writes the module-level Cache",
        "rebinds",
    ):
        assert needle in state
    assert "local" not in state
    sizes = "\n".join(size_problems(folder))
    assert "bad/rules.py" in sizes and "long is 82 lines" in sizes


# -- the fifth system works end to end, registered only here --------------------------------------
@pytest.fixture()
def lantern():
    from fixtures.fifth_system import SYSTEM

    with registered(SYSTEM):
        yield get_system("lantern")


def test_the_fifth_system_plays(lantern):
    from tabletop_widgets.dice import DiceError, roll
    from tabletop_widgets.dice.words import WordContext

    hero = lantern.Character(name="Ada", nerve=2, wits=3)
    assert [c.id for c in lantern.checks(hero)] == ["nerve", "wits"]
    assert lantern.chance(hero, "nerve") == Fraction(26, 36)  # 2d6 >= 6
    assert lantern.chance(hero, "wits", difficulty=10) == Fraction(21, 36)  # 2d6 >= 7
    result = lantern.roll_check(hero, "nerve", rng=random.Random(3))
    assert result.success is (result.total >= 8)
    assert lantern.with_rules(difficulty=6).chance(hero, "nerve") == Fraction(33, 36)  # 2d6 >= 4
    assert [r["target"] for r in lantern.data("difficulties")] == [6, 8, 10]

    assert (
        lantern.validate(hero) == [] and lantern.validate(lantern.Character(nerve=4, wits=3))[0].code == "over_budget"
    )
    twins = lantern.validate_party({"a": hero, "b": lantern.Character(name="Ada")})
    assert [p.code for p in twins] == ["same_name"]

    assert roll("lan nerve vs 10", rng=random.Random(1), variables=WordContext({}, hero)).check.target == 10
    with pytest.raises(DiceError, match="bind a character") as e:
        roll("lan wits", rng=random.Random(1))
    assert e.value.position == 4

    assert lantern.health(hero) == (10, 10)
    out = lantern.apply_damage(hero, 9)
    assert out.changes == {"health": (10, 1)} and out.state == {"en": "wounded", "ru": "ранен"}
    assert lantern.apply_healing(hero, 3).changes == {"health": (1, 4)}
    order = lantern.roll_initiative({"a": hero, "b": lantern.Character(wits=0)}, rng=random.Random(2))
    assert set(order.order) == {"a", "b"} and list(order.order) == sorted(
        order.order, key=lambda c: order.rolls[c].key, reverse=True
    )


@pytest.mark.parametrize("slug", ["ret", "seasons", "life_and_death", "threads_of_fate"])
def test_a_systems_rules_module_imports_first_in_a_fresh_process(slug):
    """``import tabletop_systems.<slug>.system`` before anything else of the package: a submodule
    named in the package's lazy exports (``from . import fate``) is imported as itself, not through
    ``_api`` (which imports ``system``, the import under way: a circular import)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", f"import tabletop_systems.{slug}.system as m; print(m.SYSTEM.slug)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == slug, done.stderr[-2000:]
