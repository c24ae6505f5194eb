"""Validation of a build (spec §4.3 creation-legality rules; shape errors live in the model)."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.wording import en_n
from tabletop_widgets.core.options import GmOptions

from .advancement import cost
from .shapes import ABILITY_MAX_LEVEL, PC_MAX_LEVEL
from .params import PARAMS, TIER1, TIER3, label, tier


def validate(c, *, options: GmOptions) -> list[Problem]:
    """The problems of ``c`` under the GM's options (errors and warnings), by its phase.

    In creation (spec §4.3): the starting level and the GM's cap (V3, V4), the development
    points' budgets (V5, V6), the numbers of skills and talents (V7), the starting Luck (V12) and
    the starting kit (V15), which describe the character as it starts (L462-465, L461, L362).
    Always: a superpower's Sanity cost (V13) and the base parameters' tiers (V14), which hold for
    every ability, also one gained in play. In play the parameters and abilities grow with
    development points (L278, §7.1) and Luck is spent and refilled (L353-357), so the creation
    rules no longer describe the character."""
    always = [*_ability_shapes(c)]
    if getattr(c, "phase", "creation") != "creation":
        return always
    return [
        *_parameter_levels(c, options=options),
        *_parameter_budget(c, options=options),
        *_ability_starts(c, options=options),
        *_ability_budget(c, options=options),
        *_ability_counts(c, options=options),
        *_starting_luck(c),
        *always,
        *_starting_kit(c, options=options),
        *_creation_dp(c),
    ]


def validate_party(characters: Mapping[str, Any], *, options: GmOptions) -> list[Problem]:
    """The problems of every member of a party, each naming its member in ``data["member"]``: the
    book has no rule across sheets (unlike L&D's Bound pattern), so a party is legal when each
    member is."""
    return [
        Problem(p.code, p.message, p.field, p.severity, {**p.data, "member": key}, p.label)
        for key, c in characters.items()
        for p in validate(c, options=options)
    ]


def _parameter_levels(c, *, options: GmOptions) -> list[Problem]:
    """V3, V4: each leaf from the starting level up to the GM's cap."""
    out: list[Problem] = []
    start = int(options.start_level_param)
    cap = int(options.creation_cap)
    for leaf in TIER3:
        v = getattr(c, leaf)
        name = label(leaf)
        if v < start and not options.allow_below_start:  # V3
            out.append(
                Problem(
                    "below_start",
                    T(
                        f"{name['en']} = {v} is below the starting level {start}; the rules only let you "
                        f"raise parameters.",
                        f"{name['ru']} = {v} ниже стартового уровня {start}; правила позволяют только "
                        f"повышать параметры.",
                    ),
                    field=leaf,
                    data={"value": v, "start": start},
                )
            )
        if v > cap:  # V4
            out.append(
                Problem(
                    "above_cap",
                    T(
                        f"{name['en']} = {v} exceeds the starting cap of {cap} set by the GM.",
                        f"{name['ru']} = {v} превышает стартовый предел {cap}, заданный мастером.",
                    ),
                    field=leaf,
                    data={"value": v, "cap": cap},
                )
            )
    return out


def parameter_points(c, *, options: GmOptions) -> dict[str, int]:
    """The creation points each tier-III parameter costs above the starting level (L462-464)."""
    start = int(options.start_level_param)
    scheme = options.costing_at_creation
    return {
        leaf: cost(start, getattr(c, leaf), scheme, options=options) if getattr(c, leaf) <= PC_MAX_LEVEL else 0
        for leaf in TIER3
    }


def ability_points(c, *, options: GmOptions) -> int:
    """The creation points the skills and talents cost above their starting levels (L462-464)."""
    spent = 0
    for a in c.abilities:
        kind = a.get("kind")
        if kind not in ("skill", "talent", "ultimate") or not isinstance(a.get("level"), int):
            continue
        s = options.start_level_talent if kind == "talent" else options.start_level_skill
        spent += (
            cost(s, min(a["level"], ABILITY_MAX_LEVEL), options.costing_at_creation, options=options)
            if a["level"] > s
            else 0
        )
    return spent


def _parameter_budget(c, *, options: GmOptions) -> list[Problem]:
    """V5: the parameters' development points within the budget."""
    out: list[Problem] = []
    spent_by = parameter_points(c, options=options)
    spent = sum(spent_by.values())
    budget = int(options.param_dp)
    if spent > budget:
        largest = max(spent_by, key=lambda k: (spent_by[k], -TIER3.index(k)))
        over = spent - budget
        out.append(
            Problem(
                "param_overspent",
                T(
                    f"Parameter points overspent: {spent} of {budget} ({over} too many). Lower "
                    f"{label(largest)['en']} or ask the GM for more points.",
                    f"Очки развития параметров превышены: {spent} из {budget} (лишних: {over}). Понизьте "
                    f"{label(largest)['ru']} или попросите у мастера больше очков.",
                ),
                field=largest,
                data={"spent": spent, "budget": budget, "over": over},
            )
        )
    return out


def _ability_starts(c, *, options: GmOptions) -> list[Problem]:
    """A skill or talent taken at creation starts at its starting level (L407: «Стартовый уровень
    навыков при создании персонажей: 3», L419 for talents) and stands on a parameter of the second
    or third tier: the first tier is only for the mightiest superpowers (L397-399, L1726), a
    warning for a superpower, the GM's call (L400)."""
    out: list[Problem] = []
    for a in c.abilities:
        kind, lv = a.get("kind"), a.get("level")
        if kind not in ("skill", "talent") or not isinstance(lv, int):
            continue
        start = int(options.start_level_talent if kind == "talent" else options.start_level_skill)
        if lv < start and not options.allow_below_start:
            out.append(
                Problem(
                    "ability_below_start",
                    T(
                        f"{a['name']} = {lv} is below the starting level {start} of a new "
                        f"{'talent' if kind == 'talent' else 'skill'}; the rules only let you raise it.",
                        f"{a['name']} = {lv} ниже стартового уровня {start} для нового "
                        f"{'таланта' if kind == 'talent' else 'навыка'}; правила позволяют только повышать.",
                    ),
                    field="abilities",
                    data={"ability": a.get("name"), "value": lv, "start": start},
                )
            )
        base = a.get("base_param")
        if base in TIER1:
            power = bool(a.get("is_superpower"))
            pillar = label(base)
            out.append(
                Problem(
                    "ability_on_pillar",
                    T(
                        f"{a['name']} is based on {pillar['en']}, a pillar of the tree: abilities stand on the second or "
                        "third tier; the first is only for the mightiest superpowers, if the GM allows.",
                        f"«{a['name']}» основана на {pillar['ru']} — вершине дерева: основой способностей служат "
                        "параметры второго или третьего уровня; первый — только для самых могущественных "
                        "сверхспособностей, если позволит мастер.",
                    ),
                    field="abilities",
                    severity="warning" if power or options.pillar_base == "allowed" else "error",
                    data={"ability": a.get("name"), "base": base},
                )
            )
    return out


def _creation_dp(c) -> list[Problem]:
    """A new character starts play with no development points: they are awarded by the GM after a
    session or an arc (L278, L284); at creation the GM's creation points (``param_dp``,
    ``ability_dp``) are spent on the tree and the abilities (L462). DP typed into the pools are
    a creation problem (unspent creation points carry into play only by the GM option
    ``keep_unspent_creation_dp``, on entering play)."""
    out: list[Problem] = []
    for pool, name in (
        ("dp", T("DP", "ОР")),
        ("dp_params", T("Parameter DP", "ОР параметров")),
        ("dp_abilities", T("Ability DP", "ОР способностей")),
    ):
        v = int(getattr(c, pool) or 0)
        if v:
            out.append(
                Problem(
                    "creation_dp",
                    T(
                        f"{name['en']} = {v}: a new character starts play with no development points (the GM awards "
                        "them after a session); at creation spend the GM's creation points on the tree and the "
                        "abilities instead. Set it to 0.",
                        f"{name['ru']} = {v}: новый персонаж начинает игру без очков развития (их выдаёт мастер "
                        "после сессии); при создании распределяются очки создания мастера по дереву и способностям. "
                        "Поставьте 0.",
                    ),
                    field=pool,
                    data={"value": v},
                )
            )
    return out


def _ability_budget(c, *, options: GmOptions) -> list[Problem]:
    """V4, V6: abilities within the cap and their development points within the budget."""
    out: list[Problem] = []
    cap = int(options.creation_cap)
    ab_spent = ability_points(c, options=options)  # V6
    for a in c.abilities:
        if a.get("kind") not in ("skill", "talent", "ultimate") or not isinstance(a.get("level"), int):
            continue
        if a["level"] > cap:  # V4
            out.append(
                Problem(
                    "above_cap",
                    T(
                        f"{a['name']} = {a['level']} exceeds the starting cap of {cap} set by the GM.",
                        f"{a['name']} = {a['level']} превышает стартовый предел {cap}, заданный мастером.",
                    ),
                    field="abilities",
                )
            )
    ab_budget = int(options.ability_dp)
    if ab_spent > ab_budget:
        out.append(
            Problem(
                "ability_overspent",
                T(
                    f"Ability points overspent: {ab_spent} of {ab_budget}.",
                    f"Очки развития способностей превышены: {ab_spent} из {ab_budget}.",
                ),
                field="abilities",
                data={"spent": ab_spent, "budget": ab_budget},
            )
        )
    return out


def _ability_counts(c, *, options: GmOptions) -> list[Problem]:
    """V7: the number of skills and talents."""
    out: list[Problem] = []
    # V7: ability counts
    k = sum(1 for a in c.abilities if a.get("kind") == "skill")
    t = sum(1 for a in c.abilities if a.get("kind") == "talent")
    ns, nt = int(options.n_skills), int(options.n_talents)
    bad = (k > ns or t > nt) if options.ability_count_mode == "at_most" else (k != ns or t != nt)
    if bad:
        out.append(
            Problem(
                "ability_count",
                T(
                    f"You have {en_n(k, 'skill', 'skills')} and {en_n(t, 'talent', 'talents')}; this game starts"
                    f" with {en_n(ns, 'skill', 'skills')} and {en_n(nt, 'talent', 'talents')}.",
                    f"У вас навыков: {k}, талантов: {t}; в этой игре на старте навыков {ns}, талантов {nt}.",
                ),
                field="abilities",
                data={"skills": k, "talents": t},
            )
        )
    return out


def _starting_luck(c) -> list[Problem]:
    """V12: starting Luck is 2 × Level."""
    out: list[Problem] = []
    # V12: starting Luck
    if c.luck != c.luck_max:
        out.append(
            Problem(
                "starting_luck",
                T(
                    f"Starting Luck must be {c.luck_max} (2 × Level).",
                    f"Стартовая Удача должна быть {c.luck_max} (2 × Уровень).",
                ),
                field="luck",
                severity="warning" if c.luck_max_override is not None else "error",
            )
        )
    return out


def _ability_shapes(c) -> list[Problem]:
    """V13, V14: a superpower's Sanity cost and the usual tier of an ability's base."""
    out: list[Problem] = []
    for a in c.abilities:
        if a.get("is_superpower") and int(a.get("sanity_cost") or 0) < 1:  # V13
            out.append(
                Problem(
                    "superpower_cost",
                    T(
                        f"Superpower {a.get('name')} must cost at least 1 Sanity per use.",
                        f"Сверхспособность «{a.get('name')}» должна стоить не меньше 1 Рассудка за применение.",
                    ),
                    field="abilities",
                )
            )
        base = a.get("base_param")
        cat = a.get("category")
        if base in PARAMS:  # V14
            if cat == "combat_attack" and tier(base) != 3:
                out.append(
                    Problem(
                        "base_tier_attack",
                        T(
                            f"Attack-only ability {a['name']} is usually based on a tier-III parameter.",
                            f"Чисто атакующая способность «{a['name']}» обычно строится на параметре III уровня.",
                        ),
                        field="abilities",
                        severity="warning",
                    )
                )
            if cat in ("combat_defence", "combat_both") and tier(base) == 3:
                out.append(
                    Problem(
                        "base_tier_defence",
                        T(
                            f"Defence ability {a['name']} is usually based on a tier-II parameter.",
                            f"Защитная способность «{a['name']}» обычно строится на параметре II уровня.",
                        ),
                        field="abilities",
                        severity="warning",
                    )
                )
    return out


def _starting_kit(c, *, options: GmOptions) -> list[Problem]:
    """V15: the starting kit's extra items and weapons."""
    out: list[Problem] = []
    extra = [i for i in c.items if not i.get("is_money")]
    if len(extra) > int(options.starting_extra_items):  # V15
        out.append(
            Problem(
                "starting_kit",
                T(
                    f"Starting kit has {len(extra)} extra items; the GM's default is {options.starting_extra_items}.",
                    f"Дополнительных предметов в стартовом наборе: {len(extra)}; по умолчанию у мастера "
                    f"{options.starting_extra_items}.",
                ),
                field="items",
                severity="warning",
            )
        )
    if len(c.weapons) > 1:
        out.append(
            Problem(
                "starting_weapons",
                T(
                    f"Starting kit has {len(c.weapons)} weapons; the GM's default is 1 basic weapon.",
                    f"Оружия в стартовом наборе: {len(c.weapons)}; по умолчанию — одно базовое.",
                ),
                field="weapons",
                severity="warning",
            )
        )
    return out
