"""Loading the data tables of spec §8 (``data/*.json``; every row has ``en`` and ``ru`` names)."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).with_name("data")


@lru_cache(maxsize=None)
def _load(name: str) -> tuple:
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise KeyError(f"ret: no data table {name!r}")
    return tuple(json.loads(path.read_text(encoding="utf-8")))


def table(name: str) -> list[dict]:
    """A copy of data table ``name`` (callers may mutate it)."""
    return copy.deepcopy(list(_load(name)))


def row(name: str, row_id: str) -> dict:
    for r in _load(name):
        if r.get("id") == row_id:
            return copy.deepcopy(r)
    raise KeyError(f"ret: no row {row_id!r} in {name!r}")


def table_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.json"))
