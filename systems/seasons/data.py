"""The data tables of «Времена Года» (spec §8, ``data/*.json``) and the lookups the rules need.

The attributes, skills and tiers are read from their tables: the lists below are built from the
rows, so each fact lives once (in the JSON).
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType
from typing import Mapping

from tabletop_widgets.core import T
from tabletop_widgets.core.data import DataTables


TABLES = DataTables(__package__)

#: The nine attributes in sheet order (spec §2.4; L127, L460): rows Mental / Social / Physical.
ATTRIBUTES: tuple[str, ...] = tuple(r["id"] for r in TABLES.rows("attributes"))
#: group (mental / social / physical) -> its three attributes
ATTRIBUTE_GROUPS: dict[str, tuple[str, ...]] = {
    g: tuple(r["id"] for r in TABLES.rows("attributes") if r["group"] == g)
    for g in dict.fromkeys(r["group"] for r in TABLES.rows("attributes"))
}
#: The 18 skills in the canonical order of L133 / L482 (spec §2.5).
SKILLS: tuple[str, ...] = tuple(r["id"] for r in TABLES.rows("skills"))
#: The experience tiers, lowest first (L746-752).
TIERS: tuple[str, ...] = tuple(r["id"] for r in sorted(TABLES.rows("tiers"), key=lambda r: r["step"]))


def budgets(tier: str) -> tuple[int, int, int]:
    """(attribute, skill, specialization) points of a tier: 15/25/10 + 5/10/6 per step (L182-184, L749-752)."""
    row = next(r for r in TABLES.rows("tiers") if r["id"] == tier)
    return row["attributes"], row["skills"], row["specializations"]


@cache
def labels() -> Mapping[str, dict[str, str]]:
    """Bilingual labels of every attribute and skill by code id."""
    out = {r["id"]: T(r["en"], r["ru"]) for r in TABLES.rows("attributes")}
    out.update({r["id"]: T(r["en"], r["ru"]) for r in TABLES.rows("skills")})
    return MappingProxyType(out)


def label(name: str) -> dict[str, str]:
    return labels().get(name, T(name, name))


__all__ = ["ATTRIBUTES", "ATTRIBUTE_GROUPS", "SKILLS", "TABLES", "TIERS", "budgets", "label", "labels"]
