"""The data tables of spec §8 (``data/*.json``; every row has ``en`` and ``ru`` names), read once
through the core loader, and the lookups of rows the rules need."""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from tabletop_widgets.core import ConditionSpec, T
from tabletop_widgets.core.data import DataTables, thaw

TABLES = DataTables(__package__)


@lru_cache(maxsize=None)
def rows(name: str) -> tuple[Mapping[str, Any], ...]:
    """The rows of table ``name`` (read-only; read once: the files are frozen and ``TABLES``
    never changes, house rows make a copy, and combat reads the conditions and weapons thousands
    of times per odds check)."""
    return TABLES.rows(name)


def by_id(name: str) -> dict[str, Mapping[str, Any]]:
    """The rows of table ``name`` by id (a fresh dict of read-only rows)."""
    return dict(_table(name))


@lru_cache(maxsize=None)
def _table(name: str) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({r["id"]: r for r in rows(name) if "id" in r})


def row(name: str, row_id: str) -> Mapping[str, Any]:
    """The row of table ``name`` with id ``row_id`` (read-only)."""
    found = _table(name).get(row_id)
    return found if found is not None else TABLES.row(name, row_id)


def conditions() -> dict[str, Mapping[str, Any]]:
    """The conditions catalogue (``data/conditions.json``) by id."""
    return by_id("conditions")


def condition_specs() -> list[ConditionSpec]:
    """The conditions catalogue (spec §6.13) as the tracker reads it."""
    out = []
    for r in TABLES.rows("conditions"):
        out.append(
            ConditionSpec(
                id=r["id"],
                label=T(r["en"], r["ru"]),
                effect=T(r["effect_en"], r["effect_ru"]),
                duration=r.get("duration"),
                unit=r.get("unit", "turns" if r.get("duration") else "until_removed"),
                ticks_at=r.get("ticks_at", "start"),
                stacks=bool(r.get("stacks", False)),
                data=thaw({k: v for k, v in r.items() if k not in ("id", "en", "ru", "effect_en", "effect_ru")}),
            )
        )
    return out
