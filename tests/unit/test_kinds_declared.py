"""Issue 30's two structural promises, checked on the source: an event kind is one declaration
(a dotted kind's name is written in at most three modules of the package), and the widgets reach
the table layer only through the package itself (``tabletop_widgets.table``) and its play
interface's module (``tabletop_widgets.table.play``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tabletop_widgets
from tabletop_widgets.table.kinds import KINDS

PACKAGE = Path(tabletop_widgets.__file__).resolve().parent
#: the most modules of the package a dotted kind's name may be written in
MAX_MODULES = 3


def modules_naming(names, root: Path = PACKAGE) -> dict[str, list[str]]:
    """``kind name -> [module paths]`` that write it as a string literal."""
    found: dict[str, list[str]] = {n: [] for n in names}
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in names:
            if re.search(r"""["']""" + re.escape(name) + r"""["']""", text):
                found[name].append(path.relative_to(root).as_posix())
    return found


def table_imports(path: Path) -> list[str]:
    """The ``tabletop_widgets.table...`` modules a file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tabletop_widgets.table"):
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.startswith("tabletop_widgets.table")]
    return out


def test_a_dotted_kind_is_written_in_at_most_three_modules():
    dotted = sorted(n for n in KINDS if "." in n)
    assert len(dotted) > 15  # the kinds are there to be counted
    found = modules_naming(dotted)
    over = {n: paths for n, paths in found.items() if len(paths) > MAX_MODULES}
    assert not over, over
    # each is written where it is declared
    assert all(any(p.startswith("table/kinds/") for p in paths) for paths in found.values())


def test_the_count_finds_a_name_written_in_a_fourth_module(tmp_path):
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text(f'KIND = "character.update"  # {i}\n')
    (tmp_path / "other.py").write_text("NAME = 'character.updates'\n")
    assert len(modules_naming(["character.update"], tmp_path)["character.update"]) == 4
    assert KINDS["character.update"].name == "character.update"


def test_widgets_reach_the_table_only_through_the_package_and_the_play_module():
    allowed = {"tabletop_widgets.table", "tabletop_widgets.table.play"}
    bad = {
        path.relative_to(PACKAGE).as_posix(): sorted(set(table_imports(path)) - allowed)
        for path in sorted((PACKAGE / "widgets").rglob("*.py"))
        if set(table_imports(path)) - allowed
    }
    assert not bad, bad
    assert table_imports(PACKAGE / "widgets" / "table_view.py") == ["tabletop_widgets.table"]
