"""The architecture's rules, checked on the source: imports point downwards only, no eval/exec,
no module-level random (randomness is injected)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "tabletop_widgets"
SYSTEMS = ROOT / "systems"

UI = ("ipywidgets", "anywidget", "tabletop_widgets.widgets", "tabletop_widgets.magics", "IPython")
FORBIDDEN = {
    # layer: modules it must never import
    "systems": UI + ("tabletop_widgets.table",),
    "core": UI + ("tabletop_widgets.table", "tabletop_systems"),
    # dice is the bottom layer with i18n: it knows nothing of games (issue 15)
    "dice": UI + ("tabletop_widgets.table", "tabletop_systems", "tabletop_widgets.core"),
    "table": UI,
}


def _modules(folder: Path):
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _imports(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                rel = path.relative_to(ROOT).with_suffix("").parts
                base = list(rel[: -node.level])
                if base and base[0] == "systems":
                    base[0] = "tabletop_systems"
                yield ".".join(base + ([node.module] if node.module else [])), node.lineno
            else:
                yield node.module or "", node.lineno


LAYERS = [("systems", SYSTEMS), ("core", PKG / "core"), ("dice", PKG / "dice"), ("table", PKG / "table")]


def test_i18n_is_the_bottom_layer():
    """``tabletop_widgets.i18n`` (used by dice and core) imports nothing of the project."""
    bad = [
        f"{name} (line {line})"
        for name, line in _imports(PKG / "i18n.py")
        if name.startswith(("tabletop_widgets", "tabletop_systems"))
    ]
    assert not bad, bad


@pytest.mark.parametrize("layer,folder", LAYERS, ids=[name for name, _ in LAYERS])
def test_imports_point_downwards(layer, folder):
    bad = []
    for path in _modules(folder):
        for name, line in _imports(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def _calls(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


ALL_CODE = _modules(PKG) + _modules(SYSTEMS)


def test_no_eval_or_exec():
    bad = [
        f"{p.relative_to(ROOT)}:{c.lineno}"
        for p in ALL_CODE
        for c in _calls(p)
        if isinstance(c.func, ast.Name) and c.func.id in ("eval", "exec", "compile")
    ]
    assert not bad, bad


def test_no_module_level_random():
    """``random.Random(...)`` instances are injected; ``random.randint`` & co. would use the
    hidden global generator and make rolls unreproducible."""
    bad = []
    for p in ALL_CODE:
        for c in _calls(p):
            f = c.func
            if (
                isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id == "random"
                and f.attr not in ("Random", "SystemRandom")
            ):
                bad.append(f"{p.relative_to(ROOT)}:{c.lineno} random.{f.attr}()")
    assert not bad, bad


def test_no_python_round_in_rules():
    """Rules say floor (or half away from zero): Python's banker's round() never decides a rule."""
    bad = [
        f"{p.relative_to(ROOT)}:{c.lineno}"
        for p in _modules(SYSTEMS) + _modules(PKG / "core") + _modules(PKG / "dice")
        for c in _calls(p)
        if isinstance(c.func, ast.Name) and c.func.id == "round"
    ]
    assert not bad, bad


# --- import cost: the package's top module is lazy ----------------------------------------------

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

#: what the dice layer must never pull in (the layers above it and the UI stack)
ABOVE_DICE = (
    "tabletop_widgets.core",
    "tabletop_widgets.table",
    "tabletop_widgets.widgets",
    "tabletop_widgets.magics",
    "tabletop_systems",
    "ipywidgets",
    "traitlets",
    "IPython",
)


def _fresh_modules(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter; return the loaded modules that ``ABOVE_DICE`` names."""
    probe = (
        code + "\nimport json, sys\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({ABOVE_DICE!r}))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "code",
    [
        "import tabletop_widgets.dice",
        "from tabletop_widgets.dice import roll\nroll('4d6kh3'); str(roll('1d20+5 >= 15'))",
        "from tabletop_widgets.dice import distribution\ndistribution('4d6kh3')",
        "import tabletop_widgets",
    ],
)
def test_dice_imports_nothing_above_it(code):
    """``import tabletop_widgets.dice`` loads the dice layer (and i18n) only: no core, registry,
    widgets, table, systems, ipywidgets or IPython."""
    assert _fresh_modules(code) == []


def test_top_level_names_stay_importable():
    """The lazy top module keeps every public name: registry functions, the extension hooks,
    subpackages as attributes, and a clear AttributeError for anything else."""
    code = (
        "import json, tabletop_widgets\n"
        "from tabletop_widgets import (__version__, available_systems, get_system, register_system,\n"
        "                              load_ipython_extension, unload_ipython_extension)\n"
        "from tabletop_widgets.core import registry\n"
        "import tabletop_widgets as t\n"
        "ok = [get_system is registry.get_system, t.available_systems is registry.available_systems,\n"
        "      register_system is registry.register_system,\n"
        "      t.core is __import__('sys').modules['tabletop_widgets.core'],\n"
        "      'ret' in available_systems(), set(t.__all__) <= set(dir(t)), callable(load_ipython_extension)]\n"
        "try:\n"
        "    t.no_such_name\n"
        "except AttributeError as e:\n"
        "    ok.append('no_such_name' in str(e))\n"
        "print(json.dumps(ok))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [True] * 8
