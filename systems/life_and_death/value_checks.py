"""Hard limits on a Life&Death character's raw values (``Character.check_values``): what no
stored character may hold, whatever the stage of creation, with the sheet's labels."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.problems import entry_label, out_of_range, shown_value

from .model import (
    AGES,
    COINS,
    FEATURE_ORIGINS,
    HELMETS,
    ITEM_CATEGORIES,
    PARAM_LABELS,
    PARAMS,
    RARITY_MULT,
    SKILL_KEY_RE,
    SKILL_PARAMS,
    STATUSES,
    WEAPON_KINDS,
    WOUND_ZONES,
    int_map,
    is_int,
)


class ValueProblems:
    """The problems ``Character.check_values`` collects, with the sheet's labels."""

    def __init__(self, cls):
        self.cls = cls
        self.probs: list[Problem] = []

    def add(self, problem: Problem) -> None:
        self.probs.append(problem)

    def bad(
        self, field: str, en: str, ru: str, code: str = "bad_value", label: Mapping[str, str] | None = None
    ) -> None:
        self.probs.append(Problem(code, T(en, ru), field=field, label=label or self.cls.field_label(field)))

    def entry(self, key: str, item: Any, i: int, what: str | None = None) -> dict[str, str]:
        f = self.cls.sheet_field(key)
        what_label = next((x.label for x in f.item_fields if x.name == what), None) if f and what else None
        return entry_label(f.label if f else None, item, i + 1, what_label)


def value_problems(cls, values: Mapping[str, Any]) -> list[Problem]:
    """Every problem of ``values`` (a character's persisted traits) for the model class ``cls``."""
    col = ValueProblems(cls)
    for step in (
        param_value_problems,
        skill_value_problems,
        feature_value_problems,
        inventory_value_problems,
        entry_value_problems,
    ):
        step(cls, values, col)
    return col.probs


def param_value_problems(cls, values: Mapping[str, Any], col: ValueProblems) -> None:
    """Parameters and the maps of parameter points."""
    hi = cls.param_cap()
    for p in PARAMS:
        v = values.get(p)
        if not is_int(v) or not 1 <= v <= hi:
            col.add(out_of_range(p, v, 1, hi, label=PARAM_LABELS[p], code="E_PARAM_RANGE"))
    for key in ("param_points", "param_advances", "race_params"):
        for p, v in values.get(key, {}).items():
            if p not in PARAMS or not is_int(v):
                col.bad(
                    key,
                    "Each value must be a parameter with a whole number.",
                    "Каждое значение — параметр и целое число.",
                )


def skill_value_problems(cls, values: Mapping[str, Any], col: ValueProblems) -> None:
    """Skill levels, skill XP and ad-hoc skills."""
    for k, v in values.get("skills", {}).items():
        if not isinstance(k, str) or not SKILL_KEY_RE.match(k):
            col.bad(
                "skills",
                f"«{shown_value(k)}» is not a skill: choose one from the list.",
                f"«{shown_value(k)}» — не навык: выберите навык из списка.",
            )
        elif not is_int(v) or not 0 <= v <= 10:
            col.add(out_of_range("skills", v, 0, 10, label=cls.field_label("skills")))
    for k, v in values.get("skill_xp", {}).items():
        if not isinstance(k, str) or not SKILL_KEY_RE.match(k) or not is_int(v) or not 0 <= v <= 5:
            col.add(out_of_range("skill_xp", v, 0, 5, label=cls.field_label("skill_xp")))
    for k, v in values.get("custom_skills", {}).items():
        if v not in SKILL_PARAMS:
            col.bad(
                "custom_skills",
                "Choose its parameter: Might, Dexterity, Alertness or Complexity.",
                "Выберите параметр: Сила, Ловкость, Восприятие или Сложность.",
            )


def _weapon_load_problems(it: Mapping[str, Any], i: int, col: ValueProblems) -> None:
    """A weapon's kind (L155, L237) and its shots loaded: 0 up to its capacity."""
    if it.get("kind", "") not in WEAPON_KINDS:
        col.bad(
            "inventory",
            "Choose the weapon's kind from the list.",
            "Выберите вид оружия из списка.",
            label=col.entry("inventory", it, i, "kind"),
        )
    if "ammo" in it and it["ammo"] is not None:
        top = it.get("capacity") if is_int(it.get("capacity")) else None
        if not is_int(it["ammo"]) or it["ammo"] < 0 or (top is not None and it["ammo"] > top):
            col.add(out_of_range("inventory", it["ammo"], 0, top, label=col.entry("inventory", it, i, "ammo")))


def feature_value_problems(cls, values: Mapping[str, Any], col: ValueProblems) -> None:
    """Feature entries and the single values (base HP, status, XP, pools, choices)."""
    for i, f in enumerate(values.get("features", [])):
        if (
            not isinstance(f, Mapping)
            or not isinstance(f.get("id"), str)
            or not f.get("id")
            or not is_int(f.get("level", 1))
            or f.get("level", 1) < 0
            or f.get("origin", "bought") not in FEATURE_ORIGINS
            or not isinstance(f.get("note", ""), str)
            or f.get("kind", "positive") not in ("positive", "negative", "mutation")
            or not int_map(f.get("param_mods", {}), PARAMS)
            or not int_map(f.get("skill_caps", {}), None)
        ):
            col.bad(
                "features",
                "Choose the feature from the list and give it a level of at least 0.",
                "Выберите особенность из списка и задайте уровень не меньше 0.",
                label=col.entry("features", f, i),
            )
    v = values.get("base_hp")
    if v is not None and (not is_int(v) or v < 0):
        col.add(out_of_range("base_hp", v, 0, None, label=cls.field_label("base_hp")))
    if values.get("status") not in STATUSES:
        col.bad("status", "Choose one of the listed values.", "Выберите значение из списка.")
    for key, lo in (("xp", 0), ("epic_dice", 0), ("pending_improvements", 0), ("surprises_pending", 0)):
        v = values.get(key)
        if not is_int(v) or v < lo:
            col.add(out_of_range(key, v, lo, None, label=cls.field_label(key)))
    for key in ("ep", "sp", "ip"):
        v = values.get(key)
        if v is not None and v < 0:
            col.add(out_of_range(key, v, 0, None, label=cls.field_label(key)))
    for key, allowed in (
        ("age", ("",) + AGES),
        ("helmet", HELMETS),
        ("direction", ("", "H", "C")),
        ("mode", ("quick", "campaign")),
    ):
        if values.get(key) not in allowed:
            col.bad(key, "Choose one of the listed values.", "Выберите значение из списка.")


def inventory_value_problems(cls, values: Mapping[str, Any], col: ValueProblems) -> None:
    """Money and inventory items."""
    for c, v in values.get("money", {}).items():
        if c not in COINS:
            col.bad("money", "Choose a coin from the list.", "Выберите монету из списка.")
        elif not is_int(v) or v < 0:
            col.add(out_of_range("money", v, 0, None, label=cls.field_label("money")))
    for i, it in enumerate(values.get("inventory", [])):
        if (
            not isinstance(it, Mapping)
            or it.get("category") not in ITEM_CATEGORIES
            or it.get("rarity", "common") not in tuple(RARITY_MULT)
        ):
            col.bad(
                "inventory",
                "Choose its category and rarity from the lists.",
                "Выберите категорию и редкость из списков.",
                label=col.entry("inventory", it, i),
            )
            continue
        for num in ("cost", "weight_kg", "damage", "protection", "min_might", "intent_radius_m"):
            if num in it and (not isinstance(it[num], (int, float)) or isinstance(it[num], bool) or it[num] < 0):
                col.add(out_of_range("inventory", it[num], 0, None, label=col.entry("inventory", it, i, num)))
        for num, lo in (("qty", 1), ("brightness", 0), ("spell_level", 0), ("friends", 0), ("capacity", 0)):
            if num in it and (not is_int(it[num]) or it[num] < lo):
                col.add(out_of_range("inventory", it[num], lo, None, label=col.entry("inventory", it, i, num)))
        _weapon_load_problems(it, i, col)
        if not isinstance(it.get("name", ""), str):
            col.bad("inventory", "Enter a name.", "Введите название.", label=col.entry("inventory", it, i, "name"))
        if "container" in it and it["container"] not in ("pendant", "ring", "vial", "unbreakable_vial", "object"):
            col.bad(
                "inventory",
                "Choose its container from the list.",
                "Выберите вместилище из списка.",
                label=col.entry("inventory", it, i),
            )
        eff = it.get("effects", [])
        if not isinstance(eff, (list, tuple)) or not all(isinstance(e, str) for e in eff):
            col.bad(
                "inventory",
                "Choose its effects from the list.",
                "Выберите эффекты из списка.",
                label=col.entry("inventory", it, i),
            )


def entry_value_problems(cls, values: Mapping[str, Any], col: ValueProblems) -> None:
    """Wounds, forms and pets entries."""
    for key in ("wounds", "forms", "pets"):
        for i, it in enumerate(values.get(key, [])):
            if not isinstance(it, Mapping):
                col.bad(
                    key,
                    "This entry cannot be read: remove it or enter it again.",
                    "Эту запись не прочитать: удалите её или введите заново.",
                    label=col.entry(key, it, i),
                )
            elif any(
                k in it and it[k] is not None and not isinstance(it[k], str)
                for k in ("creature", "requires_affinity", "behaviour", "zone", "kind", "note", "name")
            ):
                col.bad(
                    key, "Names and notes are text.", "Названия и заметки — это текст.", label=col.entry(key, it, i)
                )
            elif key == "wounds" and (
                not isinstance(it.get("kind"), str) or not it.get("kind") or it.get("zone", "") not in WOUND_ZONES
            ):
                col.bad(
                    key,
                    "Enter the wound's kind and choose its zone from the list.",
                    "Укажите вид травмы и выберите зону из списка.",
                    label=col.entry(key, it, i),
                )
            elif key == "forms":
                nums = (
                    "tier",
                    "might",
                    "dexterity",
                    "alertness",
                    "start_might",
                    "start_dexterity",
                    "start_alertness",
                )
                for n in nums:
                    if n in it and (not is_int(it[n]) or it[n] < 0):
                        col.add(out_of_range(key, it[n], 0, None, label=col.entry(key, it, i, n)))
                        break
