"""Data tables of spec §8 (``data/*.json``) and the GM's house rows.

The seed only names most lists (races, skills, features, weapons, armour, creatures): the files
ship the entries the seed gives. A GM's house rows are a GM option (``house_rows``: ``{table:
[rows]}``), so a system built with them (``SYSTEM.with_data(table, *rows)``, or
``SYSTEM.with_rules(house_rows=...)``) reads its own :class:`DataTables` and the shared one never
changes. Every row has ``id``, ``en`` and ``ru``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from tabletop_widgets.core.data import DataTables

#: The book's tables, as shipped (no house rows).
TABLES = DataTables(__package__)


def ids(name: str) -> tuple[str, ...]:
    """The ids of a shipped table, in the book's order."""
    return tuple(r["id"] for r in TABLES.rows(name))


def column(name: str, key: str) -> dict[str, Any]:
    """``{id: row[key]}`` of a shipped table (the rows that have ``key``)."""
    return {r["id"]: r[key] for r in TABLES.rows(name) if key in r}


#: The parameters a skill may hang off (L86).
SKILL_ROW_PARAMS = (None, "might", "dexterity", "alertness", "complexity")


def row(tables: DataTables, name: str, row_id: Any) -> Mapping[str, Any] | None:
    """One row of table ``name`` by id (read-only), or None when there is none."""
    try:
        return tables.row(name, row_id)
    except KeyError:
        return None


def house_row(name: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """A GM row for table ``name``, checked: ``name_en``/``name_ru`` are accepted as aliases of
    ``en``/``ru`` (the spec's schema names); ``id``, ``en`` and ``ru`` are required; a skill's
    ``param`` is one of the four skill parameters. Raises ValueError."""
    if not isinstance(entry, Mapping):
        raise ValueError(f"a data row for {name!r} is a mapping, not {entry!r}")
    out = dict(entry)
    if "name_en" in out:
        out.setdefault("en", out.pop("name_en"))
    if "name_ru" in out:
        out.setdefault("ru", out.pop("name_ru"))
    missing = [k for k in ("id", "en", "ru") if k not in out]
    if missing:
        raise ValueError(f"data row for {name!r} needs {', '.join(missing)}")
    if name == "skills" and out.get("param") not in SKILL_ROW_PARAMS:
        raise ValueError("a skill's param must be might, dexterity, alertness or complexity")  # L86
    return out


def with_house_rows(tables: DataTables, house: Mapping[str, Iterable[Mapping[str, Any]]]) -> DataTables:
    """``tables`` with the GM's rows of every table in ``house`` added (a row with the id of a
    shipped row replaces it). Unknown tables and bad rows raise ValueError."""
    if not isinstance(house, Mapping):
        raise ValueError("house_rows is a mapping of table names to lists of rows")
    known = tables.names()
    for name, rows in house.items():
        if name not in known:
            raise ValueError(f"life_and_death: no data table {name!r}; known: {', '.join(known)}")
        tables = tables.with_rows(name, [house_row(name, r) for r in rows])
    return tables


def more_house_rows(house: Mapping[str, Iterable[Mapping[str, Any]]], rows: Mapping[str, Iterable[Mapping[str, Any]]]):
    """The option ``house_rows`` with ``rows`` (``{table: [rows]}``, each checked) added after
    the ones it has; a new dict (``house`` is unchanged)."""
    out = {name: list(have) for name, have in house.items()}
    for name, new in rows.items():
        out[name] = out.get(name, []) + [house_row(name, r) for r in new]
    return out


def read_file(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """GM rows from a JSON file ``{"table": name, "rows": [...]}`` (or a mapping of several
    tables ``{name: [rows]}``), as ``{table: rows}``."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if "table" in doc and "rows" in doc:
        return {doc["table"]: list(doc["rows"])}
    return {name: list(rows) for name, rows in doc.items()}
