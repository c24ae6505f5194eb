"""The shapes of a RET sheet's raw values (spec §4.3 shape errors V1, V2, V8, V9, V10): parameter
levels, NPC settings and every list (abilities, flaws, weapons, armour, items, conditions,
tokens), each problem named as the sheet names its place."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.problems import entry_label, out_of_range, wrong_kind

from .params import PARAMS, TIER3, label
from .powers import DELIVERIES

ABILITY_KINDS = ("skill", "talent", "ultimate")
FLAW_SEVERITIES = {"light": 12, "moderate": 15, "severe": 20}  # L1668-1670
NPC_TIERS = ("mook", "regular", "important", "boss")
TEMP_ARMOUR_KINDS = ("skin", "shield")
ARMOUR_LOCATIONS = ("body", "head", "arms", "legs")
WEAPON_KINDS = ("melee", "ranged", "thrown")
ITEM_KINDS = ("single_use", "multi_use", "resource", "functional_active", "functional_passive")
PC_MAX_LEVEL = 7  # L285: level 8 is for the GM's strongest creatures
ABILITY_MAX_LEVEL = 7  # L410, L422


#: The words a player may type for each armour location (either language), by location id.
LOCATION_WORDS = {
    "body": ("body", "torso", "тело", "торс", "корпус"),
    "head": ("head", "голова"),
    "arms": ("arms", "arm", "руки", "рука"),
    "legs": ("legs", "leg", "ноги", "нога"),
}
_LOCATION_OF = {w: loc for loc, words in LOCATION_WORDS.items() for w in words}


def armour_locations(piece: Mapping[str, Any]) -> list[str] | None:
    """The locations an armour piece covers: a list, or a comma-separated text from the sheet
    (in English or Russian words: ``голова, руки``)."""
    locs = piece.get("locations", ["body"])
    if isinstance(locs, str):
        words = [x.strip() for x in locs.replace(";", ",").split(",") if x.strip()] or ["body"]
        return [_LOCATION_OF.get(w.lower(), w) for w in words]
    if isinstance(locs, (list, tuple)):
        return [_LOCATION_OF.get(w.lower(), w) if isinstance(w, str) else w for w in locs]
    return None


def value_problems(model, values: Mapping[str, Any]) -> list[Problem]:
    """The shape problems of ``values`` for the character model ``model`` (its sheet names the
    places)."""
    problems: list[Problem] = []
    npc = bool(values.get("is_npc"))
    cap = 8 if npc else PC_MAX_LEVEL
    problems += _leaf_problems(values, cap)
    if values.get("npc_tier", "regular") not in NPC_TIERS:
        problems.append(
            Problem(
                "bad_npc_tier",
                T(
                    f"NPC tier must be one of {', '.join(NPC_TIERS)}",
                    "категория противника: безымянный, обычный, важный или босс",
                ),
                field="npc_tier",
            )
        )
    over = values.get("overrides") or {}
    for k, v in over.items():
        if k not in PARAMS or not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 8:
            problems.append(
                Problem(
                    "bad_override",
                    T(
                        f"override {k!r}={v!r}: expected a parameter id and a level 0..8",
                        f"переопределение {k!r}={v!r}: ожидались параметр и уровень 0..8",
                    ),
                    field="overrides",
                )
            )
    if over and not npc:
        problems.append(
            Problem(
                "override_pc",
                T("only NPCs may override tree nodes", "переопределять узлы дерева можно только противникам"),
                field="overrides",
            )
        )
    if values.get("temp_armour_kind", "skin") not in TEMP_ARMOUR_KINDS:
        problems.append(
            Problem(
                "bad_temp_armour_kind",
                T(
                    "temporary armour kind must be skin or shield",
                    "вид временной брони: усиление кожи или энергетический щит",
                ),
                field="temp_armour_kind",
            )
        )
    problems += _check_abilities(model, values.get("abilities") or [])
    problems += _check_flaws(model, values.get("flaws") or [])
    problems += _check_list(model, values, "weapons", {"name": str, "damage": int})
    problems += _check_armour(model, values.get("armour") or [])
    problems += _check_list(model, values, "items", {"name": str})
    problems += _check_list(model, values, "conditions", {"id": str})
    problems += _check_list(model, values, "tokens", {"name": str})
    return problems


def _leaf_problems(values: Mapping[str, Any], cap: int) -> list[Problem]:
    """V1, V2: each of the 12 leaves is a whole number from 0 to the cap (7, or 8 for an NPC)."""
    problems: list[Problem] = []
    for leaf in TIER3:
        v = values.get(leaf)
        if not isinstance(v, int) or isinstance(v, bool):
            problems.append(
                Problem(
                    "param_missing",
                    T(
                        f"Parameter {label(leaf)['en']} is missing or not a whole number.",
                        f"Параметр {label(leaf)['ru']} не задан или не целое число.",
                    ),
                    field=leaf,
                )
            )
        elif not 0 <= v <= cap:
            problems.append(
                Problem(
                    "param_range",
                    T(
                        f"{label(leaf)['en']} = {v}: player characters can have levels 0–7 (level 8 is "
                        f"reserved for the GM's strongest creatures).",
                        f"{label(leaf)['ru']} = {v}: у персонажей игроков уровни 0–7 (8-й уровень — только "
                        f"для сильнейших существ мастера).",
                    ),
                    field=leaf,
                )
            )
    return problems


def _bad(field: str, code: str, en: str, ru: str, label: Mapping[str, str] | None = None) -> Problem:
    return Problem(code, T(en, ru), field=field, label=label)


def _where(model, key: str, item: Any, i: int, what: str | None = None) -> dict[str, str]:
    """Where in list ``key`` the problem is, as the sheet names it: ``Weapons, "Sword": Damage``."""
    f = model.sheet_field(key)
    what_label = next((x.label for x in f.item_fields if x.name == what), None) if f is not None and what else None
    return entry_label(f.label if f is not None else None, item, i + 1, what_label)


def _damaged(model, key: str, item: Any, i: int) -> Problem:
    return _bad(
        key,
        "bad_item",
        "This entry cannot be read: remove it or enter it again.",
        "Эту запись не прочитать: удалите её или введите заново.",
        _where(model, key, item, i),
    )


def _check_list(model, values: Mapping[str, Any], key: str, shape: Mapping[str, type]) -> list[Problem]:
    out = []
    for i, item in enumerate(values.get(key) or []):
        if not isinstance(item, Mapping):
            out.append(_damaged(model, key, item, i))
            continue
        for k, typ in shape.items():
            v = item.get(k)
            if not isinstance(v, typ) or isinstance(v, bool) or (typ is str and not v.strip()):
                kind = "int" if typ is int else ("name" if k in ("name", "id") else "text")
                p = wrong_kind(key, kind, label=_where(model, key, item, i, k))
                out.append(dataclasses.replace(p, code="bad_item"))
    return out


def _check_abilities(model, abilities: list) -> list[Problem]:
    out: list[Problem] = []
    seen: set[str] = set()
    talents = {a.get("name") for a in abilities if isinstance(a, Mapping) and a.get("kind") == "talent"}
    for i, a in enumerate(abilities):
        if not isinstance(a, Mapping):
            out.append(_damaged(model, "abilities", a, i))
            continue
        out += _ability_identity(model, a, i, seen, talents)
        lv = a.get("level")
        if not isinstance(lv, int) or isinstance(lv, bool) or not 1 <= lv <= ABILITY_MAX_LEVEL:  # V9
            p = out_of_range("abilities", lv, 1, ABILITY_MAX_LEVEL, label=_where(model, "abilities", a, i, "level"))
            out.append(dataclasses.replace(p, code="ability_level"))
        sc = a.get("sanity_cost", 0)
        if not isinstance(sc, int) or isinstance(sc, bool) or sc < 0:
            p = out_of_range("abilities", sc, 0, None, label=_where(model, "abilities", a, i, "sanity_cost"))
            out.append(dataclasses.replace(p, code="ability_sanity_cost"))
        out += _ability_divider(model, a, i)
        if a.get("delivery") not in (None, "", *DELIVERIES):
            out.append(
                _bad(
                    "abilities",
                    "ability_delivery",
                    "Choose how the superpower reaches its target: a projectile, a touch or the mind.",
                    "Выберите, как действует сверхспособность: снаряд, касание или на сознание.",
                    _where(model, "abilities", a, i, "delivery"),
                )
            )
    return out


def _ability_identity(model, a: Mapping[str, Any], i: int, seen: set[str], talents: set) -> list[Problem]:
    """V8, V10: an ability's name (unique), kind, and base parameter or parent talent."""
    out: list[Problem] = []
    where = _where(model, "abilities", a, i)
    name = a.get("name")
    if not isinstance(name, str) or not name.strip():
        out.append(_bad("abilities", "ability_name", "Enter a name.", "Введите название.", where))
        name = ""
    elif name in seen:  # V10
        out.append(
            _bad(
                "abilities",
                "ability_duplicate",
                f"Two abilities are named {name}.",
                f"Две способности называются «{name}».",
                where,
            )
        )
    seen.add(name)
    kind = a.get("kind")
    if kind not in ABILITY_KINDS:
        out.append(
            _bad(
                "abilities",
                "ability_kind",
                "Choose its kind: skill, talent or ultimate.",
                "Выберите вид: навык, талант или ультимативная.",
                where,
            )
        )
    if kind == "ultimate":
        if a.get("parent_talent") not in talents:
            out.append(
                _bad(
                    "abilities",
                    "ultimate_parent",
                    "An ultimate must name one of your talents as its parent talent.",
                    "Ультимативная способность должна ссылаться на ваш талант.",
                    where,
                )
            )
    elif a.get("base_param") not in PARAMS:  # V8
        out.append(
            _bad(
                "abilities",
                "ability_base",
                "No base parameter yet; the GM assigns one (e.g. Fine Motor for Lockpicking).",
                "Нет основы; её назначает мастер (например, Мелкая моторика для взлома).",
                where,
            )
        )
    return out


def _ability_divider(model, a: Mapping[str, Any], i: int) -> list[Problem]:
    """An ability's divider: ``D+base`` text or a ``[D, base]`` pair, D >= 1 and base >= 0."""
    div = a.get("divider")
    if isinstance(div, str) and div.strip():
        try:
            d_, _, b_ = div.replace("(", "").replace(")", "").partition("+")
            div = [int(d_), int(b_ or 0)]
        except ValueError:
            div = "bad"
    elif isinstance(div, str):
        div = None
    if div is not None and not (
        isinstance(div, (list, tuple))
        and len(div) == 2
        and all(isinstance(x, int) for x in div)
        and div[0] >= 1
        and div[1] >= 0
    ):
        return [
            _bad(
                "abilities",
                "ability_divider",
                "Write the divider as D+base, e.g. 4+2 (D at least 1, base at least 0).",
                "Запишите делитель как D+основа, например 4+2 (D не меньше 1, основа не меньше 0).",
                _where(model, "abilities", a, i, "divider"),
            )
        ]
    return []


def _check_flaws(model, flaws: list) -> list[Problem]:
    out: list[Problem] = []
    for i, f in enumerate(flaws):
        if not isinstance(f, Mapping):
            out.append(_damaged(model, "flaws", f, i))
            continue
        if f.get("severity") not in FLAW_SEVERITIES:
            out.append(
                _bad(
                    "flaws",
                    "flaw_severity",
                    "Choose its severity: light, moderate or severe.",
                    "Выберите силу: лёгкий, средний или сильный.",
                    _where(model, "flaws", f, i, "severity"),
                )
            )
        if f.get("base_param", "composure") not in PARAMS:
            out.append(
                _bad(
                    "flaws",
                    "flaw_base",
                    "Choose its base parameter from the list.",
                    "Выберите основу из списка.",
                    _where(model, "flaws", f, i, "base_param"),
                )
            )
        lv = f.get("level", 1)
        if not isinstance(lv, int) or isinstance(lv, bool) or not 1 <= lv <= 7:  # A35: cap 7
            p = out_of_range("flaws", lv, 1, 7, label=_where(model, "flaws", f, i, "level"))
            out.append(dataclasses.replace(p, code="flaw_level"))
        st = f.get("strength")
        if st is not None and (not isinstance(st, int) or isinstance(st, bool)):
            p = wrong_kind("flaws", "int", label=_where(model, "flaws", f, i, "strength"))
            out.append(dataclasses.replace(p, code="flaw_strength"))
    return out


def _check_armour(model, pieces: list) -> list[Problem]:
    out: list[Problem] = []
    for i, p in enumerate(pieces):
        if not isinstance(p, Mapping):
            out.append(_damaged(model, "armour", p, i))
            continue
        for k in ("defence", "durability"):
            v = p.get(k)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad = out_of_range("armour", v, 0, None, label=_where(model, "armour", p, i, k))
                out.append(dataclasses.replace(bad, code="armour_value"))
        locs = armour_locations(p)
        if locs is None or any(loc not in ARMOUR_LOCATIONS for loc in locs):
            out.append(
                _bad(
                    "armour",
                    "armour_locations",
                    "List what it covers, separated by commas: body, head, arms, legs.",
                    "Перечислите через запятую, что она закрывает: тело, голова, руки, ноги.",
                    _where(model, "armour", p, i, "locations"),
                )
            )
    return out
