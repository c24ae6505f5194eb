"""Loading the data tables of spec §8 (``data/*.json``; every row has ``en`` and ``ru`` names)."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

from tabletop_widgets.core import ConditionSpec, T

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


def conditions() -> dict[str, dict]:
    """The conditions catalogue (``data/conditions.json``) by id (copies)."""
    return {r["id"]: r for r in table("conditions")}


def table_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.json"))


def condition_specs() -> list[ConditionSpec]:
    """The conditions catalogue (spec §6.13, ``data/conditions.json``) as the tracker reads it."""
    out = []
    for r in _load("conditions"):
        out.append(
            ConditionSpec(
                id=r["id"],
                label=T(r["en"], r["ru"]),
                effect=T(r["effect_en"], r["effect_ru"]),
                duration=r.get("duration"),
                unit=r.get("unit", "turns" if r.get("duration") else "until_removed"),
                ticks_at=r.get("ticks_at", "start"),
                stacks=bool(r.get("stacks", False)),
                data=copy.deepcopy(
                    {k: v for k, v in r.items() if k not in ("id", "en", "ru", "effect_en", "effect_ru")}
                ),
            )
        )
    return out
