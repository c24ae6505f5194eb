"""Data tables of spec §8 (``data/*.json``) and the GM's own additions to them.

The seed only names most lists (races, skills, features, weapons, armour, creatures): the files
ship the entries the seed gives, and a GM adds rows with :func:`add_row` (or a JSON file with
:func:`load_file`). Every row has ``id``, ``en`` and ``ru``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Iterable

_DIR = Path(__file__).with_name("data")
_BASE: dict[str, dict[str, Any]] = {}
_EXTRA: dict[str, list[dict[str, Any]]] = {}
_INDEX: dict[str, dict[Any, dict[str, Any]]] = {}  # merged rows by id; cleared on every GM change


def _load_base() -> dict[str, dict[str, Any]]:
    if not _BASE:
        for path in sorted(_DIR.glob("*.json")):
            with path.open(encoding="utf-8") as f:
                _BASE[path.stem] = json.load(f)
    return _BASE


def table_names() -> list[str]:
    return sorted(_load_base())


def _index(name: str) -> dict[Any, dict[str, Any]]:
    if name not in _INDEX:
        base = _load_base()
        if name not in base:
            raise KeyError(f"life_and_death: no data table {name!r}; known: {', '.join(sorted(base))}")
        out = {r["id"]: r for r in base[name]["rows"]}
        for r in _EXTRA.get(name, ()):
            out[r["id"]] = r
        _INDEX[name] = out
    return _INDEX[name]


def rows(name: str) -> list[dict[str, Any]]:
    """The rows of table ``name`` (shipped rows, then GM rows; a GM row replaces a shipped row
    with the same id). Returns copies."""
    return copy.deepcopy(list(_index(name).values()))


def row(name: str, row_id: Any) -> dict[str, Any] | None:
    """One row by id (shared, read-only: do not mutate), or None."""
    try:
        return _index(name).get(row_id)
    except TypeError:  # unhashable id
        return None


def by_id(name: str) -> dict[Any, dict[str, Any]]:
    return {r["id"]: r for r in rows(name)}


def add_row(name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """Add (or replace by id) a GM row to table ``name``. ``name_en``/``name_ru`` are accepted
    as aliases of ``en``/``ru`` (the spec's schema names)."""
    base = _load_base()
    if name not in base:
        raise KeyError(f"life_and_death: no data table {name!r}")
    entry = dict(entry)
    if "name_en" in entry:
        entry.setdefault("en", entry.pop("name_en"))
    if "name_ru" in entry:
        entry.setdefault("ru", entry.pop("name_ru"))
    missing = [k for k in ("id", "en", "ru") if k not in entry]
    if missing:
        raise ValueError(f"data row for {name!r} needs {', '.join(missing)}")
    if name == "skills" and entry.get("param") not in (None, "might", "dexterity", "alertness", "complexity"):
        raise ValueError("a skill's param must be might, dexterity, alertness or complexity")  # L86
    lst = _EXTRA.setdefault(name, [])
    lst[:] = [r for r in lst if r["id"] != entry["id"]] + [entry]
    _INDEX.pop(name, None)
    return copy.deepcopy(entry)


def remove_row(name: str, row_id: Any) -> None:
    if name in _EXTRA:
        _EXTRA[name] = [r for r in _EXTRA[name] if r["id"] != row_id]
    _INDEX.pop(name, None)


def load_file(path: str | Path) -> list[str]:
    """Load GM rows from a JSON file ``{"table": name, "rows": [...]}`` (or a mapping of several
    tables ``{name: [rows]}``); returns the table names touched."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    items: Iterable[tuple[str, list]]
    if "table" in doc and "rows" in doc:
        items = [(doc["table"], doc["rows"])]
    else:
        items = doc.items()
    touched = []
    for name, rs in items:
        for r in rs:
            add_row(name, r)
        touched.append(name)
    return touched


def reset_gm_rows() -> None:
    """Forget every GM row (tests use this)."""
    _EXTRA.clear()
    _INDEX.clear()
