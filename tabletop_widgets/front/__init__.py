"""Bundled front-end files (ES modules and CSS) that anywidget loads from the package: no CDN.

``asset(name)`` is the path of one file here, e.g. ``asset("dice.js")``; widgets pass these
paths as ``_esm`` / ``_css`` so that offline tables and locked-down hosts still work.
"""
from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def asset(name: str) -> Path:
    """The bundled file ``name`` (raises FileNotFoundError when it is not shipped)."""
    path = HERE / name
    if not path.is_file():
        raise FileNotFoundError(f"tabletop_widgets.front: no bundled file {name!r}")
    return path


__all__ = ["HERE", "asset"]
