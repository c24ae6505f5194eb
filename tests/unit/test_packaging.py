"""Every package of the project is installed: a subpackage missing from ``[tool.setuptools]
packages`` in pyproject.toml works in the editable checkout but is absent from the wheel (the
installed ``tabletop_widgets`` then fails to import). Splitting a module into a package must list
the new package."""

from __future__ import annotations

import tomllib
from pathlib import Path

import tabletop_widgets

ROOT = Path(tabletop_widgets.__file__).resolve().parents[1]


def _packages_on_disk() -> set[str]:
    found = set()
    for top, name in ((ROOT / "tabletop_widgets", "tabletop_widgets"), (ROOT / "systems", "tabletop_systems")):
        for init in top.rglob("__init__.py"):
            if "__pycache__" in init.parts:
                continue
            rel = init.parent.relative_to(top).parts
            found.add(".".join((name, *rel)))
    return found


def test_every_package_is_listed_for_the_wheel():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    missing = sorted(_packages_on_disk() - listed)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"
    assert "tabletop_widgets.core.combat" in listed
