"""Creation and advancement rules as problems (spec §4.1): ``validate(character, options=...)``,
``validate_party`` (leaving the creation stage is ``GameSystem.start_play``)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.core.rule_problems import problem

from . import data
from .feature_rules import feature_budget, feature_name, feature_problems, feature_total_problems
from .inventory import EFFECT_COST
from .model import PARAM_LABELS, PARAMS, SKILL_PARAMS, feature_def, skill_def, skill_id_of
from .progression import skill_cap
from .starting import starting_problems


def _sname(tables: DataTables, key: str) -> dict:
    """A skill key (``id`` or ``id:specialization``) as a player reads it: «Melee (swords)»."""
    sid, _, spec = str(key).partition(":")
    d = skill_def(tables, sid)
    en, ru = (d["en"], d["ru"]) if d and d.get("en") else (sid.replace("_", " "),) * 2
    spec = spec.replace("_", " ")
    return T(f"{en} ({spec})" if spec else en, f"{ru} ({spec})" if spec else ru)


def validate(c, *, options: Mapping[str, Any]) -> list[Problem]:
    """Every problem of the sheet (spec §4.1), section by section; budgets only while creating."""
    a = data.row(c.TABLES, "ages", c.age) if c.age else None
    creation = c.phase == "creation"
    out = _base_hp_problems(c, options=options) + _race_problems(c, creation)
    for p in PARAMS:
        out += _age_swap_problems(c, p, a, options=options)
        out += _param_value_problems(c, p, options=options)
    if creation and a:
        out += _param_point_problems(c, a)
    for key, lvl in sorted(c.skills.items()):
        if lvl:
            out += _skill_problems(c, key, lvl)
    if creation:
        out += _skill_budget_problems(c) + starting_problems(c, options=options)
    for f in c.features:
        out += feature_problems(c, f)
    out += feature_total_problems(c, a if creation else None)
    if c.forms:
        out += _form_problems(c, creation, options=options)
    return out + _story_problems(c) + _inventory_problems(c, creation) + _reputation_problems(c)


def _base_hp_problems(c, *, options: Mapping[str, Any]) -> list[Problem]:
    """A-02: OPTION default_base_hp=None means the GM must enter the base HP."""
    out: list[Problem] = []
    if c.base_hp is None and options.default_base_hp is None:
        r = data.row(c.TABLES, "races", c.race) if c.race else None
        if not (r and isinstance(r.get("base_hp"), int)):
            out.append(
                problem(
                    "E_BASE_HP_MISSING",
                    "Enter the race's base HP (the seed gives none and there is no default).",
                    "Укажите базовое HP расы (в книге его нет, значения по умолчанию нет).",
                    "base_hp",
                )
            )

    return out


def _race_problems(c, creation: bool) -> list[Problem]:
    """Racial values, when entered, are all six, 1 to 5 each (L45, L59); then an age category is
    chosen while creating (L49)."""
    if not c.race_params:
        return []
    out: list[Problem] = []
    missing = [p for p in PARAMS if p not in c.race_params]
    bad = [p for p, v in c.race_params.items() if p in PARAMS and not 1 <= int(v) <= 5]
    if missing:
        names = T(", ".join(PARAM_LABELS[p]["en"] for p in missing), ", ".join(PARAM_LABELS[p]["ru"] for p in missing))
        out.append(
            problem(
                "E_RACE_PARAMS_MISSING",
                f"Enter the race's value of every parameter; missing: {names['en']}.",
                f"Впишите расовое значение каждого параметра; не хватает: {names['ru']}.",
                "race_params",
            )
        )
    for p in bad:
        out.append(
            problem(
                "E_RACE_PARAM_RANGE",
                f"A race's {PARAM_LABELS[p]['en']} is 1 to 5 (is {c.race_params[p]}).",
                f"Расовое значение «{PARAM_LABELS[p]['ru']}» — от 1 до 5 (сейчас {c.race_params[p]}).",
                "race_params",
            )
        )
    if creation and not c.age:
        out.append(
            problem(
                "E_NO_AGE",
                "Choose the character's age category.",
                "Выберите возрастную категорию персонажа.",
                "age",
            )
        )
    return out


def _age_swap_problems(c, p: str, a: Mapping | None, *, options: Mapping[str, Any]) -> list[Problem]:
    """The age swap pushing a parameter past 5 (A-04)."""
    out: list[Problem] = []
    plab = PARAM_LABELS
    if (
        c.race_params
        and a
        and p == a["plus"]
        and int(c.race_params.get(a["minus"], 1)) > 1
        or (c.race_params and a and p == a["plus"] and options.age_swap_scope == "minus_only")
    ):
        if int(c.race_params.get(p, 1)) + 1 > 5:
            if options.age_swap_overflow == "error":
                out.append(
                    problem(
                        "E_AGE_SWAP_OVERFLOW",
                        f"Age bonus would raise {plab[p]['en']} above 5.",
                        f"Возрастной бонус поднимает {plab[p]['ru']} выше 5.",
                        p,
                    )
                )
            else:
                out.append(
                    problem(
                        "E_AGE_SWAP_OVERFLOW",
                        f"Age bonus would raise {plab[p]['en']} above 5; clamped to 5.",
                        f"Возрастной бонус поднимает {plab[p]['ru']} выше 5; ограничено 5.",
                        p,
                        "warning",
                    )
                )
    return out


def _param_value_problems(c, p: str, *, options: Mapping[str, Any]) -> list[Problem]:
    """A parameter's range and its feature layers (L59, L102, L55)."""
    out: list[Problem] = []
    plab = PARAM_LABELS
    cap = 10 if options.allow_params_above_5 else 5
    lay = c.param_layers(p)
    base = lay["base"]
    if not 1 <= base <= cap:
        out.append(
            problem(
                "E_PARAM_RANGE",
                f"{plab[p]['en']} must be between 1 and {cap} (is {base}).",
                f"{plab[p]['ru']} должен быть от 1 до {cap} (сейчас {base}).",
                p,
                value=base,
            )
        )
    final = base + lay["feature_mod"]
    if lay["feature_mod"] > 0 and final > 5 and 1 <= base <= 5:
        mode = options.feature_param_overflow
        if mode == "error":
            out.append(
                problem(
                    "E_FEATURE_PARAM_OVERFLOW",
                    f"Features raise {plab[p]['en']} to {final}, above 5.",
                    f"Особенности поднимают {plab[p]['ru']} до {final}, выше 5.",
                    p,
                )
            )
        elif mode == "clamp":
            out.append(
                problem(
                    "W_FEATURE_PARAM_OVERFLOW",
                    f"Features raise {plab[p]['en']} to {final}; clamped to 5.",
                    f"Особенности поднимают {plab[p]['ru']} до {final}; ограничено 5.",
                    p,
                    "warning",
                )
            )
            final = 5
    if lay["feature_mod"] and final <= 0:
        culprit = next((f.get("id") for f in c.features if c_mod(c.TABLES, f, p) < 0), "?")
        out.append(
            problem(
                "E_PARAM_ZERO_BY_FEATURE",
                f"Feature {culprit} would reduce {plab[p]['en']} to {final}; parameters cannot drop below 1.",
                f"Особенность {culprit} снижает {plab[p]['ru']} до {final}; параметр не может быть ниже 1.",
                p,
            )
        )
    elif c.race_params and final != c.param(p):
        out.append(
            problem(
                "W_PARAM_LAYERS",
                f"{plab[p]['en']} is {c.param(p)} but its layers add up to {final}.",
                f"{plab[p]['ru']} = {c.param(p)}, а по слоям выходит {final}.",
                p,
                "warning",
            )
        )
    if c.param(p) > 5 and c.level > 1:
        out.append(
            problem(
                "W_HIGH_LEVEL_PARAM_ABOVE_5",
                "Parameters above 5 need GM agreement.",
                "Параметры выше 5 — только по договорённости с Мастером.",
                p,
                "warning",
            )
        )
    return out


def _param_point_problems(c, a: Mapping) -> list[Problem]:
    """The age's free parameter points, while creating."""
    out: list[Problem] = []
    n = int(a["free_params"])
    m = sum(int(v) for v in c.param_points.values())
    if m > n:
        out.append(
            problem(
                "E_PARAM_POINTS",
                f"Age {a['en']} gives {n} parameter points; {m} assigned.",
                f"Возраст «{a['ru']}»: очков параметров {n}, распределено {m}.",
                "param_points",
            )
        )
    elif m < n:
        out.append(
            problem(
                "W_UNSPENT_PARAM_POINTS",
                f"{n - m} parameter point(s) unspent.",
                f"Не распределено очков параметров: {n - m}.",
                "param_points",
                "warning",
            )
        )

    return out


def _skill_problems(c, key: str, lvl: int) -> list[Problem]:
    """One skill: known, under its cap, specialised, its feature and energetics (L80-L90, L103, L284)."""
    out: list[Problem] = []
    plab = PARAM_LABELS
    sid = skill_id_of(key)
    d = skill_def(c.TABLES, sid)
    if d is None and not (c.custom_skills.get(sid) or c.custom_skills.get(key)):
        # a skill of the sheet's own (its parameter under "Own skills") is known: no warning then
        out.append(
            problem(
                "W_UNKNOWN_SKILL",
                f"Skill {_sname(c.TABLES, key)['en']} is not in the skill list; give it its parameter "
                "under Own skills.",
                f"Навыка «{_sname(c.TABLES, key)['ru']}» нет в списке навыков; укажите его параметр в "
                "разделе «Свои навыки».",
                "skills",
                "warning",
                skill=key,
            )
        )
    p = c.skill_param(key)
    if p:
        sc = skill_cap(c, key)
        if lvl > sc:
            out.append(
                problem(
                    "E_SKILL_CAP",
                    f"{_sname(c.TABLES, key)['en']} ({lvl}) cannot exceed {plab[p]['en']} ({sc}).",
                    f"{_sname(c.TABLES, key)['ru']} ({lvl}) не может быть выше {plab[p]['ru']} ({sc}).",
                    "skills",
                    skill=key,
                )
            )
    if d and d.get("branched") and ":" not in key:
        out.append(
            problem(
                "E_SPECIALIZATION",
                f"{_sname(c.TABLES, key)['en']} needs a specialization.",
                f"Для навыка «{_sname(c.TABLES, key)['ru']}» нужна специализация.",
                "skills",
                skill=key,
            )
        )
    req = (d or {}).get("requires_feature")
    if req and not c.has_feature(req):
        if req == "shapeshifter":
            out.append(
                problem(
                    "E_TRANSFORMATION_NO_SHAPESHIFTER",
                    "Transformation requires the Shapeshifter feature.",
                    "Трансформация доступна только с особенностью «оборотень».",
                    "skills",
                )
            )
        else:
            out.append(
                problem(
                    "E_SKILL_REQUIRES_FEATURE",
                    f"{_sname(c.TABLES, key)['en']} requires the feature {feature_name(c.TABLES, req)['en']}.",
                    f"Для навыка «{_sname(c.TABLES, key)['ru']}» нужна особенность «{feature_name(c.TABLES, req)['ru']}».",
                    "skills",
                )
            )
    en = (d or {}).get("energetics") or {}
    if en.get("direction") and c.direction and en["direction"] != c.direction:
        out.append(
            problem(
                "E_ENERGETICS_DIRECTION",
                f"{_sname(c.TABLES, key)['en']} is {en['direction']}; this character's energetics is {c.direction}.",
                f"{_sname(c.TABLES, key)['ru']} — {en['direction']}, а энергетика персонажа — {c.direction}.",
                "skills",
            )
        )
    return out


def _skill_budget_problems(c) -> list[Problem]:
    """Skill points per parameter while creating (L86, L378, A-52)."""
    out: list[Problem] = []
    plab = PARAM_LABELS
    used = {p: 0 for p in SKILL_PARAMS}
    for key, lvl in c.skills.items():
        p = c.skill_param(key) if lvl else None
        if p:
            used[p] += lvl
    extra_pool = 2 * c.level if c.level > 1 else 0  # L378, A-52: a free pool at a higher start
    over_total = 0
    for p in SKILL_PARAMS:
        budget = c.base_param(p)
        if used[p] > budget:
            over_total += used[p] - budget
            if over_total > extra_pool:
                out.append(
                    problem(
                        "E_SKILL_BUDGET",
                        f"Skills under {plab[p]['en']} use {used[p]} points; only {budget} available.",
                        f"Навыки от параметра «{plab[p]['ru']}»: потрачено очков {used[p]}, доступно {budget}.",
                        "skills",
                        param=p,
                        used=used[p],
                        budget=budget,
                    )
                )

    return out


def _form_problems(c, creation: bool, *, options: Mapping[str, Any]) -> list[Problem]:
    """A shapeshifter's forms (L84, L109-L117, L55)."""
    out: list[Problem] = []
    if not c.has_feature("shapeshifter"):
        out.append(
            problem("E_FORMS_COUNT", "Only a Shapeshifter has forms.", "Ипостаси есть только у оборотня.", "forms")
        )
    elif len(c.forms) > c.max_forms:
        t = c.skill_level("transformation")
        out.append(
            problem(
                "E_FORMS_COUNT",
                f"Max {c.max_forms} forms with Transformation {t}.",
                f"Максимум форм: {c.max_forms}.",
                "forms",
            )
        )
    tiers = [
        int(f.get("tier", 0)) for f in c.forms if options.transform_tier_includes_humanoid or not f.get("humanoid")
    ]
    if creation and sum(tiers) > 10:
        out.append(
            problem(
                "E_FORMS_TIER_SUM",
                f"Form tiers sum to {sum(tiers)}; max 10.",
                f"Сумма уровней ипостасей {sum(tiers)} > 10.",
                "forms",
            )
        )
    guardians = {r["id"] for r in c.TABLES.rows("guardian_forms")}
    for f in c.forms:
        out += _one_form_problems(c, f, guardians, options=options)
    return out


def _one_form_problems(c, f: Mapping, guardians: set, *, options: Mapping[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    name = f.get("creature", "?")
    if int(f.get("tier", 0)) > c.luck:
        out.append(
            problem(
                "E_FORM_TIER_LUCK",
                f"{name} (tier {f.get('tier')}) exceeds Luck {c.luck}.",
                f"Уровень формы {name} ({f.get('tier')}) выше Удачи ({c.luck}).",
                "forms",
            )
        )
    req = f.get("requires_affinity")
    if req and req != c.affinity:
        out.append(
            problem(
                "E_FORM_AFFINITY",
                f"{name} requires affinity with {req}.",
                f"Форма {name} требует сродства с истоком {req}.",
                "forms",
            )
        )
    if (f.get("guardian") or name in guardians) and not options.gm_allows_guardians and not f.get("gm_allowed"):
        out.append(
            problem(
                "E_FORM_GUARDIAN",
                f"{name} is a Guardian form (GM permission required).",
                f"{name} — форма Хранителей (нужно разрешение Мастера).",
                "forms",
            )
        )
    for p in ("might", "dexterity", "alertness"):
        st = f.get(f"start_{p}")
        if st is not None and f.get(p) is not None and int(f[p]) > 2 * int(st):
            out.append(
                problem(
                    "E_FORM_PARAM_DOUBLE",
                    f"{name} {p} cannot exceed {2 * int(st)}.",
                    f"{p} формы {name} не может превышать {2 * int(st)}.",
                    "forms",
                )
            )

    return out


def _story_problems(c) -> list[Problem]:
    """The name and the faith (L132-L142)."""
    out: list[Problem] = []
    if c.name and not name_ok(c.name):
        out.append(
            problem(
                "E_NAME_FORMAT",
                "Name: given name + optional nickname, no hyphens or apostrophes.",
                "Имя: имя и прозвище, без дефисов и апострофов.",
                "name",
            )
        )
    if c.faith and c.faith not in {r["id"] for r in c.TABLES.rows("deities")}:
        out.append(
            problem(
                "W_FAITH_UNKNOWN", f"Unknown deity {c.faith}.", f"Неизвестное божество {c.faith}.", "faith", "warning"
            )
        )

    return out


def _inventory_problems(c, creation: bool) -> list[Problem]:
    """The inventory (L146-L177, L127)."""
    out: list[Problem] = []
    if creation and c.inv_points_spent > c.inv_points:
        spent = c.inv_points_spent
        spent_s = str(int(spent)) if spent == int(spent) else str(spent)
        out.append(
            problem(
                "E_INVENTORY_BUDGET",
                f"Inventory costs {spent_s} points; budget {c.inv_points}.",
                f"Инвентарь стоит {spent_s} ОИ; доступно {c.inv_points}.",
                "inventory",
            )
        )
    for it in c.inventory:
        mm = it.get("min_might")
        if it.get("category") in ("weapon", "armour") and mm is not None and mm > c.might:
            out.append(
                problem(
                    "E_MIN_MIGHT",
                    f"{it.get('name', it['category'])} requires Might {mm}.",
                    f"{it.get('name', it['category'])}: нужна Сила {mm}.",
                    "inventory",
                )
            )
        if "mental_trigger" in it.get("effects", ()) and it.get("category") != "artifact":
            out.append(
                problem(
                    "E_MENTAL_TRIGGER",
                    "Mental triggers are for artifacts only.",
                    "Ментальный триггер — только для артефактов.",
                    "inventory",
                )
            )
        for e in it.get("effects", ()):
            if e not in EFFECT_COST:
                out.append(
                    problem("E_UNKNOWN_EFFECT", f"Unknown special effect {e}.", f"Неизвестный эффект {e}.", "inventory")
                )
    if c.carried_weight_kg > c.carry_capacity_kg:
        out.append(
            problem(
                "W_OVERWEIGHT",
                f"Carrying {c.carried_weight_kg:g} kg; comfortable max {c.carry_capacity_kg} kg.",
                f"Вес {c.carried_weight_kg:g} кг превышает комфортный {c.carry_capacity_kg} кг.",
                "carried_weight_kg",
                "warning",
            )
        )

    return out


def _reputation_problems(c) -> list[Problem]:
    """Reputation and epic dice (L343, L349)."""
    out: list[Problem] = []
    if c.mode == "campaign":
        if c.reputation == 0 and not c.has_feature("inconspicuous"):
            out.append(
                problem(
                    "E_REPUTATION_ZERO",
                    "Reputation can be 0 only with Inconspicuous.",
                    "Репутация 0 возможна только с «неприметностью».",
                    "reputation",
                )
            )
        if c.epic_dice > abs(c.reputation):
            out.append(
                problem(
                    "E_EPIC_DICE_CAP",
                    f"Epic dice max is {abs(c.reputation)}.",
                    f"Максимум эпик-дайсов: {abs(c.reputation)}.",
                    "epic_dice",
                )
            )
    return out


def c_mod(tables: DataTables, f: Mapping, p: str) -> int:
    mods = f.get("param_mods")
    if mods is not None:
        return int(mods.get(p, 0))
    d = feature_def(tables, str(f.get("id", ""))) or {}
    return int((d.get("param_mods") or {}).get(p, 0)) * int(f.get("level", 1))


def name_ok(name: str) -> bool:
    """L132: given name + optional nickname; no surname, hyphens or apostrophes."""
    parts = name.split()
    return 1 <= len(parts) <= 2 and not any(ch in name for ch in "-'’ʼ‘`")


def validate_party(characters: Mapping[str, Any], *, options: Mapping[str, Any]) -> list[Problem]:
    """Cross-sheet rule L105: a PC named as Bound pattern partner must have Bound pattern too."""
    out = []
    by_name = {getattr(c, "name", k) or k: c for k, c in characters.items()}
    by_name.update(characters)
    for k, c in characters.items():
        for f in c.features:
            if f.get("id") == "bound_pattern" and f.get("note") in by_name:
                partner = by_name[f["note"]]
                if not partner.has_feature("bound_pattern"):
                    out.append(
                        problem(
                            "E_BOUND_PATTERN_RECIPROCAL",
                            f"{f['note']} must also have Bound pattern.",
                            f"У {f['note']} тоже должна быть особенность «связанный узор».",
                            "features",
                        )
                    )
    return out


def errors(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


#: ``feature_budget`` lives in ``feature_rules`` and is still read from here
__all__ = ["c_mod", "errors", "feature_budget", "name_ok", "validate", "validate_party"]
