"""The data tables of spec §8 (``data/*.json``), read through the core loader, and the lookups of rows
the rules need. Each fact lives in its table; the rules modules read it from here."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.data import DataTables, thaw

TABLES = DataTables(__package__)


def rows(name: str) -> tuple[Mapping[str, Any], ...]:
    """The rows of table ``name`` (read-only)."""
    return TABLES.rows(name)


def rows_by(name: str, key: str) -> dict[Any, Mapping[str, Any]]:
    """A table's rows by one column, in the table's order."""
    return {r[key]: r for r in TABLES.rows(name)}


def trouble_band_rows() -> list[dict[str, Any]]:
    """The four Trouble tables (``trouble_bands.json`` keeps them by table) as one list of rows, each with
    its ``table`` key."""
    return [{"table": key, **thaw(row)} for key, t in TABLES.document("trouble_bands").items() for row in t["rows"]]


#: the Trouble tables' names: {table: {"en", "ru"}}
TROUBLE_TABLES = {k: {"en": v["en"], "ru": v["ru"]} for k, v in TABLES.document("trouble_bands").items()}


def trouble_row(table: str, band: str, overrides=None) -> dict[str, Any]:
    """The row of ``band`` in a Trouble table; the general table's names may be the GM's (A33)."""
    for row in TABLES.document("trouble_bands")[table]["rows"]:
        if row["band"] == band:
            out = thaw(row)
            if table == "general" and overrides and band in overrides:  # A33: GM renames bands
                out.update({k: overrides[band][k] for k in ("en", "ru") if k in overrides[band]})
            return out
    raise KeyError(band)
