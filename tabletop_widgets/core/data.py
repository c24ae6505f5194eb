"""One loader for a system's data tables (spec §8): ``<package>/data/<name>.json``.

A table file holds either a list of rows or an object with a ``rows`` list (and notes beside it).
Rows come back read-only (nested objects as read-only mappings, lists as tuples), so no caller can
change a table for everyone else. A GM's house rows make a *new* :class:`DataTables`
(:meth:`DataTables.with_rows`); the shared one never changes::

    TABLES = DataTables(__package__)            # in systems/<slug>/data.py
    TABLES.rows("weapons")                      # (row, row, ...)
    house = TABLES.with_rows("weapons", [{"id": "club", "en": "Big club", "ru": "Дубина", ...}])

A row's id is its ``"id"`` (or, in tables keyed by code, its ``"code"``): a house row with the id
of a book row replaces it in place, a new id is added at the end.
"""

from __future__ import annotations

import json
from importlib import resources
from types import MappingProxyType
from typing import Any, Iterable, Mapping

#: the keys a row's id is read from, in order
ID_KEYS = ("id", "code")


def freeze(value: Any) -> Any:
    """``value`` made read-only: mappings as read-only mappings, lists as tuples (recursively)."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, writable copy of a frozen value (dicts and lists), e.g. to hand a row to JSON."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def row_id(row: Mapping[str, Any]) -> Any:
    """The id of ``row`` (its first :data:`ID_KEYS` key), or None."""
    for key in ID_KEYS:
        if key in row:
            return row[key]
    return None


class DataTables:
    """The data tables of one package: read lazily, cached on this object, never mutated."""

    def __init__(self, package: str, folder: str = "data"):
        if not package:
            raise ValueError("DataTables needs the package that holds the tables (pass __package__)")
        self.package = package
        self.folder = folder
        self._loaded: dict[str, Any] = {}  # name -> the whole file, frozen (shared with copies)
        self._house: dict[str, tuple[Mapping[str, Any], ...]] = {}  # name -> rows with house rows

    def __repr__(self) -> str:
        return f"DataTables({self.package!r}, {self.folder!r})"

    def _dir(self):
        return resources.files(self.package).joinpath(self.folder)

    def names(self) -> list[str]:
        """The tables' names (the file names without ``.json``), sorted."""
        try:
            entries = list(self._dir().iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted(e.name[: -len(".json")] for e in entries if e.name.endswith(".json") and e.is_file())

    def document(self, name: str) -> Any:
        """The whole file of table ``name``, read-only (for files that are not a list of rows)."""
        if name not in self._loaded:
            entry = self._dir().joinpath(f"{name}.json")
            if not entry.is_file():
                raise KeyError(f"{self.package}: no data table {name!r}; known: {self.names()}")
            with entry.open(encoding="utf-8") as fh:
                self._loaded[name] = freeze(json.load(fh))
        return self._loaded[name]

    def rows(self, name: str) -> tuple[Mapping[str, Any], ...]:
        """The rows of table ``name`` (read-only), house rows included."""
        if name in self._house:
            return self._house[name]
        doc = self.document(name)
        if isinstance(doc, Mapping):
            doc = doc.get("rows")
        if not isinstance(doc, tuple) or not all(isinstance(r, Mapping) for r in doc):
            raise ValueError(f"{self.package}: data table {name!r} is not a list of rows (read it with document())")
        return doc

    def row(self, name: str, id: Any) -> Mapping[str, Any]:
        """The row of table ``name`` whose id is ``id``."""
        for r in self.rows(name):
            if row_id(r) == id:
                return r
        raise KeyError(f"{self.package}: no row {id!r} in data table {name!r}")

    def with_rows(self, name: str, rows: Iterable[Mapping[str, Any]]) -> "DataTables":
        """A new object whose table ``name`` has ``rows`` added (a row with the id of an existing
        one replaces it in place). This object and every other copy stay unchanged."""
        base = self.rows(name)  # raises KeyError for an unknown table
        new_rows = [freeze(r) for r in rows]
        for r in new_rows:
            if not isinstance(r, Mapping):
                raise TypeError(f"{self.package}: a row of data table {name!r} must be a mapping, got {r!r}")
            if row_id(r) is None and base and all(row_id(b) is not None for b in base):
                raise ValueError(
                    f"{self.package}: a house row of data table {name!r} needs an id ({' or '.join(ID_KEYS)}): {thaw(r)!r}"
                )
        merged = list(base)
        index = {row_id(r): i for i, r in enumerate(merged) if row_id(r) is not None}
        for r in new_rows:
            rid = row_id(r)
            if rid is not None and rid in index:
                merged[index[rid]] = r
            else:
                if rid is not None:
                    index[rid] = len(merged)
                merged.append(r)
        copy = DataTables(self.package, self.folder)
        copy._loaded = self._loaded  # frozen file contents: safe to share
        copy._house = {**self._house, name: tuple(merged)}
        return copy


__all__ = ["DataTables", "ID_KEYS", "freeze", "thaw", "row_id"]
