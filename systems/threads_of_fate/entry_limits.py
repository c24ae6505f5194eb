"""Hard limits on a Threads of Fate character's raw values (spec §3.9): what ``Character.from_dict`` and
the sheet refuse before anything is derived, as Problems in the player's words."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import Problem, entry_label, out_of_range, wrong_kind

from .options import hero_caps
from .sizes import SIZES
from .traits import CHAR_LABELS, CHARACTERISTICS, ENTITY_TYPES, EXPERT_SKILLS, HERO_MAX, SKILLS

WEAPON_KINDS = ("melee", "unarmed", "ranged", "thrown", "bow")


def entry_problems(cls, values: Mapping[str, Any]) -> list[Problem]:
    """Every problem with ``values`` for the model class ``cls`` (its field labels name the fields)."""
    return value_problems(cls, values) + item_problems(cls, values)


def value_problems(cls, values: Mapping[str, Any]) -> list[Problem]:
    """Choices, characteristics, skills and counters out of their ranges."""
    problems: list[Problem] = []
    choose = T("Choose one of the listed values.", "Выберите значение из списка.")
    et = values.get("entity_type")
    for name, ok, code in (
        ("entity_type", et in ENTITY_TYPES, "bad_entity_type"),
        ("size", values.get("size") in SIZES, "bad_size"),
    ):
        if not ok:
            problems.append(Problem(code, choose, field=name, label=cls.field_label(name)))
    # §3.2 / §3.9: a hero's score is 1-20; NPCs (and personas, A46) have no cap but cannot be negative.
    lo, hi = (1, HERO_MAX) if hero_caps(et, options=cls.RULES) else (0, 999)
    for c in CHARACTERISTICS:
        v = values.get(c)
        if v is not None and not lo <= v <= hi:
            problems.append(out_of_range(c, v, lo, hi, label=CHAR_LABELS[c], code="characteristic_range"))
    for c in CHARACTERISTICS:
        for suffix in ("_implant", "_drain"):
            v = values.get(c + suffix)
            if v is not None and v < 0:
                problems.append(
                    out_of_range(c + suffix, v, 0, None, label=cls.field_label(c + suffix), code="negative")
                )
    for s in SKILLS:
        v = values.get(s)
        if v is not None and not 0 <= v <= 99:
            problems.append(out_of_range(s, v, 0, 99, label=cls.field_label(s), code="skill_range"))
    for name in (
        "threads",
        "threads_bought",
        "xp_free",
        "xp_total",
        "change_activations_used",
        "armour_bonus",
        "shield_bonus",
        "durability_gm",
        "speed_drain",
        "will_drain",
        "reaction_drain",
        "bonus_xp",
    ):
        v = values.get(name)
        if v is not None and v < 0:
            problems.append(out_of_range(name, v, 0, None, label=cls.field_label(name), code="negative"))
    if values.get("threads") is not None and values["threads"] > 99:
        problems.append(
            out_of_range("threads", values["threads"], 0, 5, label=cls.field_label("threads"), code="negative")
        )
    for name in ("size_hp_mult",):
        v = values.get(name)
        if v is not None and v < 1:
            problems.append(out_of_range(name, v, 1, None, label=cls.field_label(name), code="bad_multiplier"))
    return problems


def item_problems(cls, values: Mapping[str, Any]) -> list[Problem]:
    """Entries of the lists (Attributes, Tricks, weapons, custom skills...) and the saved treatment."""
    problems: list[Problem] = []
    choose = T("Choose one of the listed values.", "Выберите значение из списка.")
    problems += _check_items(cls, values, "attributes", required=("name", "code"), lists=("expert_access",))
    for key in ("tricks", "flaws", "facets", "bonds", "changes", "xp_log"):
        problems += _check_items(cls, values, key, required=("name",) if key != "xp_log" else ("reason",))
    for i, w in enumerate(values.get("weapons_list") or []):
        where = entry_label(_list_label(cls, "weapons_list"), w, i + 1)
        if w.get("kind", "melee") not in WEAPON_KINDS:
            problems.append(Problem("bad_item", choose, field="weapons_list", label=where))
        if not isinstance(w.get("dmb", 0), int) or isinstance(w.get("dmb", 0), bool):
            p = wrong_kind("weapons_list", "int", label=where)
            problems.append(Problem("bad_item", p.message, field="weapons_list", label=where))
    for i, s in enumerate(values.get("custom_skills") or []):
        ok = (
            isinstance(s.get("code"), str)
            and s.get("code")
            and s.get("code") not in SKILLS
            and isinstance(s.get("value", 0), int)
            and s.get("value", 0) >= 0
            and s.get("kind", "basic") in ("basic", "expert")
        )
        if not ok:
            problems.append(
                Problem(
                    "bad_item",
                    T(
                        "Give the skill a new name, choose basic or expert, and a value of at least 0.",
                        "Дайте навыку новое название, выберите: базовый или экспертный, и значение не меньше 0.",
                    ),
                    field="custom_skills",
                    label=entry_label(_list_label(cls, "custom_skills"), s, i + 1),
                )
            )
    problems += check_treatment(values.get("treatment"))
    for name in ("expert_access",):
        bad = [s for s in values.get(name) or [] if s not in EXPERT_SKILLS]
        if bad:
            problems.append(
                Problem(
                    "bad_item",
                    T("Choose Expert skills from the list.", "Выберите Экспертные навыки из списка."),
                    field=name,
                    label=cls.field_label(name),
                )
            )
    return problems


def _list_label(model, key: str):
    f = model.sheet_field(key)
    return f.label if f is not None else None


TREATMENT_KEYS = {
    "patient": str,
    "turns_left": int,
    "hp_lost": int,
    "medic_will": int,
    "interrupted": bool,
    "skill": str,
    "characteristic": str,
}


def check_treatment(t) -> list[Problem]:
    """A saved treatment in progress (L441) must have every key with the right type (or be empty)."""
    if not t:
        return []
    bad = sorted(
        k
        for k, typ in TREATMENT_KEYS.items()
        if not isinstance(t.get(k), typ) or (typ is int and isinstance(t.get(k), bool)) or (typ is int and t.get(k) < 0)
    )
    bad += sorted(set(t) - set(TREATMENT_KEYS))
    if bad:
        return [
            Problem(
                "bad_treatment",
                T(
                    "The treatment in progress cannot be read: the GM starts it again.",
                    "Лечение не прочитать: мастер начинает его заново.",
                ),
                field="treatment",
                data={"keys": bad},
            )
        ]
    return []


def _check_items(model, values, key, required=("name",), lists=()) -> list[Problem]:
    out = []
    for i, item in enumerate(values.get(key) or []):
        where = entry_label(_list_label(model, key), item, i + 1)
        if not any(isinstance(item.get(r), str) and item.get(r) for r in required):
            words = (
                T("Enter a reason.", "Укажите причину.")
                if "reason" in required
                else T("Enter a name.", "Введите название.")
            )
            out.append(Problem("bad_item", words, field=key, label=where))
        for lname in lists:
            if lname in item and not (isinstance(item[lname], list) and all(isinstance(x, str) for x in item[lname])):
                out.append(
                    Problem(
                        "bad_item",
                        T("Choose the skills from the list.", "Выберите навыки из списка."),
                        field=key,
                        label=where,
                    )
                )
    return out
