"""The data tables of spec §8 (``data/*.json``), loaded once relative to this package, and the lookups
of rows the rules need. Each fact lives in its table; the rules modules read it from here."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")
TABLE_NAMES = (
    "characteristics",
    "skills",
    "moves",
    "caprices",
    "swt_troubles",
    "trouble_bands",
    "sizes",
    "attributes",
    "conditions",
    "difficulty_ladder",
    "referenced_names",
    "missing",
    "actions",
)


@lru_cache(maxsize=None)
def _raw(name: str):
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def load(name: str) -> list[dict[str, Any]]:
    """A table as a list of rows (a fresh copy); ``trouble_bands`` is flattened with a ``table`` key."""
    if name not in TABLE_NAMES:
        raise KeyError(f"threads_of_fate: no data table {name!r}")
    raw = _raw(name)
    if name == "trouble_bands":
        return [{"table": key, **row} for key, t in raw.items() for row in t["rows"]]
    return copy.deepcopy(raw)


TROUBLE_TABLES = {k: {"en": v["en"], "ru": v["ru"]} for k, v in _raw("trouble_bands").items()}


def trouble_row(table: str, band: str, overrides=None) -> dict[str, Any]:
    for row in _raw("trouble_bands")[table]["rows"]:
        if row["band"] == band:
            out = dict(row)
            if table == "general" and overrides and band in overrides:  # A33: GM renames bands
                out.update({k: overrides[band][k] for k in ("en", "ru") if k in overrides[band]})
            return out
    raise KeyError(band)


def row(name: str, key: str, value) -> dict[str, Any]:
    for r in load(name):
        if r.get(key) == value:
            return r
    raise KeyError(f"{name}: no row with {key}={value!r}")


def rows_by(name: str, key: str) -> dict[Any, dict[str, Any]]:
    """A table's rows by one column, in the table's order."""
    return {r[key]: r for r in load(name)}
