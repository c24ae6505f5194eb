"""Creation and advancement (spec §4, §7.1): development-point costs, validation of a build, and
operations that spend points (refusing illegal moves with RuleError and changing nothing)."""

from __future__ import annotations

import copy
import random
from typing import Any, Mapping

from tabletop_widgets.core import Problem, RuleError, T

from .options import DEFAULTS
from .model import ABILITY_MAX_LEVEL, PC_MAX_LEVEL, new_ability
from .params import PARAMS, TIER3, label, tier


def step_cost(level_from: int, scheme: str, rules: Mapping[str, Any]) -> int:
    """DP to raise one level from ``level_from`` (spec §7.1: recommended L -> L+1 costs L, L300)."""
    if level_from >= PC_MAX_LEVEL:
        raise RuleError(
            "level_limit",
            T("Level 7 is the limit for player characters", "7-й уровень — предел для персонажей игроков"),
        )
    if level_from < 0:
        raise RuleError("bad_level", T("levels start at 0", "уровни начинаются с 0"))
    if level_from == 0:
        return int(rules.get("cost_0_to_1", 1))  # A6
    return level_from if scheme == "recommended" else 1


def cost(level_from: int, level_to: int, scheme: str, rules: Mapping[str, Any] | None = None) -> int:
    """Total DP from ``level_from`` to ``level_to`` (0 when not raising)."""
    rules = {**DEFAULTS, **(rules or {})}
    return sum(step_cost(lv, scheme, rules) for lv in range(level_from, level_to))


def conversion_cost(scheme: str) -> int:
    """Skill -> talent and talent upgrade: 7 DP recommended, 3 DP simplified (L428, L434)."""
    return 7 if scheme == "recommended" else 3


#: d6 choice tables (spec §8.18): converted/upgraded talent level, new skill level (L430, L436, L1754)
def talent_level_from_d6(d6: int) -> int:
    return 3 if d6 <= 2 else 4 if d6 <= 4 else 5


def new_skill_level_from_d6(d6: int) -> int:
    return 1 if d6 <= 2 else 2 if d6 <= 4 else 3


# ---------------------------------------------------------------------------------------------
# Validation of a build (spec §4.3 creation-legality rules; shape errors live in the model)
# ---------------------------------------------------------------------------------------------
def validate(c, rules: Mapping[str, Any]) -> list[Problem]:
    rules = {**DEFAULTS, **rules}
    out: list[Problem] = []
    start = int(rules["start_level_param"])
    cap = int(rules["creation_cap"])
    scheme = rules["costing_at_creation"]
    for leaf in TIER3:
        v = getattr(c, leaf)
        name = label(leaf)
        if v < start and not rules["allow_below_start"]:  # V3
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
    # V5: parameter budget
    spent_by = {
        leaf: cost(start, getattr(c, leaf), scheme, rules) if getattr(c, leaf) <= PC_MAX_LEVEL else 0 for leaf in TIER3
    }
    spent = sum(spent_by.values())
    budget = int(rules["param_dp"])
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
    # V6: ability budget
    ab_spent = 0
    for a in c.abilities:
        kind = a.get("kind")
        if kind not in ("skill", "talent", "ultimate") or not isinstance(a.get("level"), int):
            continue
        s = rules["start_level_talent"] if kind == "talent" else rules["start_level_skill"]
        ab_spent += cost(s, min(a["level"], ABILITY_MAX_LEVEL), scheme, rules) if a["level"] > s else 0
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
    ab_budget = int(rules["ability_dp"])
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
    # V7: ability counts
    k = sum(1 for a in c.abilities if a.get("kind") == "skill")
    t = sum(1 for a in c.abilities if a.get("kind") == "talent")
    ns, nt = int(rules["n_skills"]), int(rules["n_talents"])
    bad = (k > ns or t > nt) if rules["ability_count_mode"] == "at_most" else (k != ns or t != nt)
    if bad:
        out.append(
            Problem(
                "ability_count",
                T(
                    f"You have {k} skills and {t} talents; this game starts with {ns} skills and {nt} talent(s).",
                    f"У вас навыков: {k}, талантов: {t}; в этой игре на старте навыков {ns}, талантов {nt}.",
                ),
                field="abilities",
                data={"skills": k, "talents": t},
            )
        )
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
    extra = [i for i in c.items if not i.get("is_money")]
    if len(extra) > int(rules["starting_extra_items"]):  # V15
        out.append(
            Problem(
                "starting_kit",
                T(
                    f"Starting kit has {len(extra)} extra items; the GM's default is {rules['starting_extra_items']}.",
                    f"Дополнительных предметов в стартовом наборе: {len(extra)}; по умолчанию у мастера "
                    f"{rules['starting_extra_items']}.",
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


# ---------------------------------------------------------------------------------------------
# Advancement operations (spec §7.1): refuse illegal moves, change nothing on refusal
# ---------------------------------------------------------------------------------------------
def _pool(rules: Mapping[str, Any], what: str, creation: bool) -> tuple[str, str]:
    scheme = rules["costing_at_creation"] if creation else rules["costing"]
    if scheme == "recommended":
        return scheme, "dp"
    return scheme, ("dp_params" if what == "param" else "dp_abilities")


def _check_play(rules, in_play: bool):
    if in_play and rules["dp_spend_only_between_games"]:
        raise RuleError(
            "dp_in_play",
            T(
                "Development points are spent before or after a game session, not during play.",
                "Очки развития тратятся до или после игры, а не во время неё.",
            ),
        )


def _spend(c, pool: str, amount: int, entry: dict, changes: Mapping[str, Any]) -> dict:
    have = getattr(c, pool)
    if amount > have:
        raise RuleError(
            "dp_insufficient",
            T(
                f"Not enough development points: this costs {amount}, you have {have}.",
                f"Не хватает очков развития: нужно {amount}, есть {have}.",
            ),
            cost=amount,
            have=have,
        )
    log = list(c.dp_log) + [{**entry, "cost": amount, "pool": pool}]
    c.update(**{pool: have - amount, "dp_log": log, **changes})
    return {**entry, "cost": amount, "pool": pool}


def raise_parameter(c, param: str, rules: Mapping[str, Any], *, creation: bool = False, in_play: bool = False) -> dict:
    """+1 level of a tier-III parameter for DP (tiers II/I follow, L278)."""
    rules = {**DEFAULTS, **rules}
    _check_play(rules, in_play)
    if param not in TIER3:
        raise RuleError(
            "not_tier3",
            T(
                f"Only the 12 tier-III parameters can be raised; {param} follows its children.",
                f"Повышать можно только 12 параметров III уровня; {param} вычисляется.",
            ),
            param=param,
        )
    cur = getattr(c, param)
    scheme, pool = _pool(rules, "param", creation)
    amount = step_cost(cur, scheme, rules)
    return _spend(c, pool, amount, {"target": param, "from": cur, "to": cur + 1}, {param: cur + 1})


def raise_ability(c, name: str, rules: Mapping[str, Any], *, creation: bool = False, in_play: bool = False) -> dict:
    """+1 level of a skill, talent or ultimate (same tables as parameters, L442)."""
    rules = {**DEFAULTS, **rules}
    _check_play(rules, in_play)
    idx, a = _find(c, name)
    cur = a["level"]
    if cur >= ABILITY_MAX_LEVEL:
        raise RuleError(
            "level_limit", T(f"{name} is already at level 7, the limit.", f"«{name}» уже на 7-м уровне — это предел.")
        )
    scheme, pool = _pool(rules, "ability", creation)
    amount = step_cost(cur, scheme, rules)
    abilities = copy.deepcopy(c.abilities)
    abilities[idx]["level"] = cur + 1
    return _spend(c, pool, amount, {"target": name, "from": cur, "to": cur + 1}, {"abilities": abilities})


def _find(c, name: str) -> tuple[int, dict]:
    for i, a in enumerate(c.abilities):
        if a.get("name") == name:
            return i, a
    raise RuleError("no_ability", T(f"No ability named {name}.", f"Нет способности «{name}»."))


def convert_ability(
    c,
    name: str,
    new_name: str,
    rules: Mapping[str, Any],
    *,
    d6: int | None = None,
    rng: random.Random | None = None,
    roll_level: bool = False,
    in_play: bool = False,
) -> dict:
    """Skill -> talent (L426-430) or talent upgrade (L432-436), a level-7 ability becoming a
    talent at level 3 (or by the optional d6 choice roll) for 7 / 3 DP. Flaws use
    :func:`convert_flaw`."""
    rules = {**DEFAULTS, **rules}
    _check_play(rules, in_play)
    idx, a = _find(c, name)
    if a.get("kind") not in ("skill", "talent"):
        raise RuleError("not_convertible", T(f"{name} cannot be converted.", f"«{name}» нельзя преобразовать."))
    if a["level"] < ABILITY_MAX_LEVEL:
        raise RuleError(
            "needs_level_7",
            T(
                f"{name} must reach level 7 before it can be converted (it is {a['level']}).",
                f"«{name}» должна достичь 7-го уровня для преобразования (сейчас {a['level']}).",
            ),
        )
    if any(x.get("name") == new_name for x in c.abilities if x is not a):
        raise RuleError(
            "ability_duplicate", T(f"Two abilities are named {new_name}.", f"Две способности называются «{new_name}».")
        )
    if roll_level and d6 is None:
        d6 = (rng or random.Random()).randint(1, 6)
    level = talent_level_from_d6(d6) if d6 is not None else 3
    scheme, pool = _pool(rules, "ability", False)
    amount = conversion_cost(scheme)
    abilities = copy.deepcopy(c.abilities)
    abilities[idx] = new_ability(
        new_name,
        "talent",
        a.get("base_param"),
        level,
        is_superpower=a.get("is_superpower", False),
        sanity_cost=a.get("sanity_cost", 0),
        divider=a.get("divider"),
        converted_from=name,
    )
    entry = {"target": new_name, "from": f"{a['kind']} {name} 7", "to": level, "d6": d6}
    return _spend(c, pool, amount, entry, {"abilities": abilities})


def convert_flaw(
    c, name: str, new_name: str, base_param: str, rules: Mapping[str, Any], *, in_play: bool = False
) -> dict:
    """A flaw turned into a useful talent (L1663); cost as skill -> talent (A35 default)."""
    rules = {**DEFAULTS, **rules}
    _check_play(rules, in_play)
    flaws = [f for f in c.flaws if f.get("name") != name]
    if len(flaws) == len(c.flaws):
        raise RuleError("no_flaw", T(f"No flaw named {name}.", f"Нет недостатка «{name}»."))
    if base_param not in PARAMS:
        raise RuleError("bad_base", T("unknown base parameter", "неизвестная основа"))
    scheme, pool = _pool(rules, "ability", False)
    abilities = copy.deepcopy(c.abilities) + [new_ability(new_name, "talent", base_param, 3, converted_from=name)]
    return _spend(
        c,
        pool,
        conversion_cost(scheme),
        {"target": new_name, "from": f"flaw {name}", "to": 3},
        {"abilities": abilities, "flaws": flaws},
    )


def gain_ability(
    c,
    name: str,
    kind: str,
    base_param: str,
    rules: Mapping[str, Any],
    *,
    d6: int | None = None,
    nascent: bool = False,
    **extra: Any,
) -> dict:
    """A new ability granted by the GM in play (L408-409, L420-421, L1749-1755): a skill at level 1
    (or the d6 table 1-2 -> 1, 3-4 -> 2, 5-6 -> 3); a talent at level 3 (1 if nascent). Free."""
    if kind == "skill":
        level = new_skill_level_from_d6(d6) if d6 is not None else 1
    elif kind == "talent":
        level = 1 if nascent else 3
    else:
        raise RuleError("bad_kind", T("kind must be skill or talent", "вид: навык или талант"))
    if c.ability(name):
        raise RuleError(
            "ability_duplicate", T(f"Two abilities are named {name}.", f"Две способности называются «{name}».")
        )
    a = new_ability(name, kind, base_param, level, **extra)
    c.update(abilities=copy.deepcopy(c.abilities) + [a])
    return a


def start_game_session(c) -> dict:
    """Luck refills up to its maximum, never reduced (L356-357); ultimates become available (L1217)."""
    changes = {}
    new_luck = max(c.luck, c.luck_max)
    abilities = copy.deepcopy(c.abilities)
    for a in abilities:
        if a.get("kind") == "ultimate":
            a["used"] = False
    changes["luck"] = (c.luck, new_luck)
    c.update(luck=new_luck, abilities=abilities)
    return changes
