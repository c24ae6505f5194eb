"""The RET parameter tree (spec §2.1, §3.1): 3 pillars -> 6 aspects -> 12 leaves, with labels, as
``data/parameters.json`` stores it (the one place the tree is written)."""

from __future__ import annotations

from tabletop_widgets.core import T

from . import data

#: the rows of ``data/parameters.json`` in tree order: each pillar, then its aspects and their leaves
_ROWS = data.rows("parameters")
TREE_ORDER = [r["id"] for r in _ROWS]
TIER1, TIER2, TIER3 = ([r["id"] for r in _ROWS if r["tier"] == t] for t in (1, 2, 3))
PARAMS = TIER1 + TIER2 + TIER3
PARENT = {r["id"]: r["parent"] for r in _ROWS if r["parent"]}
#: parent -> (child_a, child_b), aspects before pillars; every parent is the floor-average of its
#: children (L49-52)
TREE = {node: tuple(r["id"] for r in _ROWS if r["parent"] == node) for node in TIER2 + TIER1}


def tier(node: str) -> int:
    return 1 if node in TIER1 else 2 if node in TIER2 else 3


def ancestors(node: str) -> list[str]:
    out = []
    while node in PARENT:
        node = PARENT[node]
        out.append(node)
    return out


def branch(node: str) -> list[str]:
    """The node and all its descendants (spec §2.1 "branch")."""
    out = [node]
    for kid in TREE.get(node, ()):
        out.extend(branch(kid))
    return out


def in_branch(param: str, root: str) -> bool:
    return param == root or root in ancestors(param)


LABELS = {r["id"]: T(r["en"], r["ru"]) for r in _ROWS}

INDICATOR_LABELS = {
    "level": T("Level", "Уровень"),
    "health_max": T("Health (max)", "Здоровье (макс.)"),
    "sanity_max": T("Sanity (max)", "Рассудок (макс.)"),
    "luck_max": T("Luck (max)", "Удача (макс.)"),
    "strike_power": T("Strike Power", "Сила Удара"),
    "speed": T("Speed", "Скорость"),
    "health": T("Health", "Здоровье"),
    "sanity": T("Sanity", "Рассудок"),
    "luck": T("Luck", "Удача"),
}


def label(node: str) -> dict:
    return LABELS.get(node) or INDICATOR_LABELS.get(node) or T(node, node)
