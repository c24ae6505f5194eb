"""Features in a Life&Death character's creation and advancement (spec §4.1): the feature
points budget, each feature's level and requirements, the totals across features."""

from __future__ import annotations

from typing import Mapping

from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.core.rule_problems import problem

from . import data
from .model import feature_def


def feature_kind(tables: DataTables, f: Mapping) -> str:
    d = feature_def(tables, str(f.get("id", ""))) or {}
    return f.get("kind") or d.get("kind") or "positive"


def feature_name(tables: DataTables, fid: str) -> dict:
    d = feature_def(tables, fid)
    return T(d["en"], d["ru"]) if d else T(fid.replace("_", " "), fid.replace("_", " "))


def feature_budget(c) -> dict[str, int]:
    """Step 4 (L94-L104): available = age points + negative levels; cost = 1 per bought level
    (mutation level 0 costs 0), +1 once for the first new mutation (not for raising a racial one)."""
    a = data.row(c.TABLES, "ages", c.age) if c.age else None
    age_pts = int(a["feature_points"]) if a else 0
    negative = sum(
        int(f.get("level", 1))
        for f in c.features
        if f.get("origin") != "racial" and (f.get("origin") == "negative" or feature_kind(c.TABLES, f) == "negative")
    )
    racial_ids = {f.get("id") for f in c.features if f.get("origin") == "racial"}
    cost, new_mutation = 0, False
    for f in c.features:
        if f.get("origin", "bought") != "bought" or feature_kind(c.TABLES, f) == "negative":
            continue
        cost += int(f.get("level", 1))
        if feature_kind(c.TABLES, f) == "mutation" and f.get("id") not in racial_ids:
            new_mutation = True
    if new_mutation:
        cost += 1
    return {"age": age_pts, "negative": negative, "available": age_pts + negative, "cost": cost}


def feature_problems(c, f: Mapping) -> list[Problem]:
    """One feature: its level, its note, its conflicts (L92-L109)."""
    out: list[Problem] = []
    d = feature_def(c.TABLES, str(f.get("id"))) or {}
    lvl = int(f.get("level", 1))
    lo, hi = int(d.get("min_level", 1)), int(d.get("max_level", 99))
    if not (lo <= lvl <= hi) and f.get("origin") != "racial":
        out.append(
            problem(
                "E_FEATURE_LEVEL",
                f"{feature_name(c.TABLES, str(f['id']))['en']}: the level must be {lo}-{hi}.",
                f"Уровень особенности «{feature_name(c.TABLES, str(f['id']))['ru']}» — от {lo} до {hi}.",
                "features",
            )
        )
    need = d.get("needs_text")
    if need and not str(f.get("note", "")).strip():
        what = {
            "partner": T("partner", "партнёр"),
            "container": T("container", "вместилище"),
            "source": T("source", "исток"),
            "armour_type": T("armour type", "тип брони"),
        }[need]
        out.append(
            problem(
                "E_FEATURE_NOTE",
                f"{feature_name(c.TABLES, f['id'])['en']} needs: {what['en']}.",
                f"Для особенности {feature_name(c.TABLES, f['id'])['ru']} нужно указать: {what['ru']}.",
                "features",
            )
        )
    for other in d.get("conflicts", ()):
        if c.has_feature(other):
            out.append(
                problem(
                    "E_FEATURE_CONFLICT",
                    f"{feature_name(c.TABLES, str(f['id']))['en']} is annulled by {feature_name(c.TABLES, other)['en']}.",
                    f"«{feature_name(c.TABLES, str(f['id']))['ru']}» аннулируется особенностью «{feature_name(c.TABLES, other)['ru']}».",
                    "features",
                )
            )
    return out


def feature_total_problems(c, a: Mapping | None) -> list[Problem]:
    """Negative levels, the feature points (``a``: the age row while creating) and the affinity."""
    out: list[Problem] = []
    neg = sum(
        int(f.get("level", 1))
        for f in c.features
        if f.get("origin") != "racial"
        and (f.get("origin") == "negative" or feature_kind(c.TABLES, f) == "negative")
        and f.get("origin") not in ("levelup", "surprise")
    )
    if neg > 2:
        out.append(
            problem(
                "E_NEGATIVE_LIMIT",
                "At most two negative feature levels may be taken.",
                "Можно взять не более 2 уровней отрицательных особенностей.",
                "features",
            )
        )
    if a:
        b = feature_budget(c)
        if b["cost"] > b["available"]:
            out.append(
                problem(
                    "E_FEATURE_POINTS",
                    f"Features cost {b['cost']} points; only {b['available']} available ({b['age']} + {b['negative']} from negative features).",
                    f"Цена особенностей в очках: {b['cost']}, доступно {b['available']}.",
                    "features",
                    **b,
                )
            )
        elif b["cost"] < b["available"]:
            out.append(
                problem(
                    "W_UNSPENT_FEATURE_POINTS",
                    f"{b['available'] - b['cost']} feature point(s) unspent.",
                    f"Не потрачено очков особенностей: {b['available'] - b['cost']}.",
                    "features",
                    "warning",
                )
            )
    sources = {r["id"] for r in c.TABLES.rows("sources")}
    if c.has_feature("source_affinity"):
        src = c.affinity or c.feature_note("source_affinity")
        if src and src not in sources:
            out.append(problem("E_AFFINITY_SOURCE", f"Unknown source {src}.", f"Неизвестный исток {src}.", "affinity"))
    elif c.affinity:
        out.append(
            problem(
                "E_AFFINITY_SOURCE",
                "Affinity needs the Source affinity feature.",
                "Сродство требует особенности «сродство с истоком».",
                "affinity",
            )
        )

    return out
