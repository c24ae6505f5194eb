"""Bundled front-end files (ES modules and CSS) that the widgets load from the package: no CDN.

``asset(name)`` is the path of one file here, e.g. ``asset("dice.js")``; widgets pass these
paths as ``_esm`` / ``_css`` so that offline tables and locked-down hosts still work.

``stylesheet(*names)`` is the ``<style>`` block a widget puts in its own ``HTML`` child: the
theme's colour roles (``theme.css``, light and dark) followed by the named stylesheets, e.g.
``stylesheet("sheet")`` for ``sheet.css``. The files are read once per process.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent


def asset(name: str) -> Path:
    """The bundled file ``name`` (raises FileNotFoundError when it is not shipped)."""
    path = HERE / name
    if not path.is_file():
        raise FileNotFoundError(f"tabletop_widgets.front: no bundled file {name!r}")
    return path


@lru_cache(maxsize=None)
def css(name: str) -> str:
    """The text of the bundled stylesheet ``name.css`` (read once)."""
    return asset(f"{name}.css").read_text(encoding="utf-8")


def compact(text: str) -> str:
    """CSS without comments and with runs of white space made one space: the same rules in
    fewer bytes (every widget carries its ``<style>`` in its saved state)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"\s*([{};,])\s*", r"\1", text).strip()


@lru_cache(maxsize=None)
def stylesheet(*names: str) -> str:
    """A ``<style>`` block: ``theme.css`` then each named stylesheet, in order, compacted."""
    return "<style>" + "\n".join(compact(css(n)) for n in ("theme", *names)) + "</style>"


__all__ = ["HERE", "asset", "compact", "css", "stylesheet"]
