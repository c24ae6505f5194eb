"""Advancement (spec §7.1): development-point costs and the operations that spend them, refusing
illegal moves with RuleError and changing nothing on refusal."""

from __future__ import annotations

import copy
import random
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.options import GmOptions

from .model import new_ability
from .shapes import ABILITY_MAX_LEVEL, PC_MAX_LEVEL
from .params import PARAMS, TIER3


def step_cost(level_from: int, scheme: str, *, options: GmOptions) -> int:
    """DP to raise one level from ``level_from`` (spec §7.1: recommended L -> L+1 costs L, L300)."""
    if level_from >= PC_MAX_LEVEL:
        raise RuleError(
            "level_limit",
            T("Level 7 is the limit for player characters", "7-й уровень — предел для персонажей игроков"),
        )
    if level_from < 0:
        raise RuleError("bad_level", T("levels start at 0", "уровни начинаются с 0"))
    if level_from == 0:
        return int(options.cost_0_to_1)  # A6
    return level_from if scheme == "recommended" else 1


def cost(level_from: int, level_to: int, scheme: str, *, options: GmOptions) -> int:
    """Total DP from ``level_from`` to ``level_to`` (0 when not raising)."""
    return sum(step_cost(lv, scheme, options=options) for lv in range(level_from, level_to))


def conversion_cost(scheme: str) -> int:
    """Skill -> talent and talent upgrade: 7 DP recommended, 3 DP simplified (L428, L434)."""
    return 7 if scheme == "recommended" else 3


#: d6 choice tables (spec §8.18): converted/upgraded talent level, new skill level (L430, L436, L1754)
def talent_level_from_d6(d6: int) -> int:
    return 3 if d6 <= 2 else 4 if d6 <= 4 else 5


def new_skill_level_from_d6(d6: int) -> int:
    return 1 if d6 <= 2 else 2 if d6 <= 4 else 3


# ---------------------------------------------------------------------------------------------
# Advancement operations (spec §7.1): refuse illegal moves, change nothing on refusal
# ---------------------------------------------------------------------------------------------
def _pool(what: str, creation: bool, *, options: GmOptions) -> tuple[str, str]:
    scheme = options.costing_at_creation if creation else options.costing
    if scheme == "recommended":
        return scheme, "dp"
    return scheme, ("dp_params" if what == "param" else "dp_abilities")


def _check_play(in_play: bool, *, options: GmOptions) -> None:
    if in_play and options.dp_spend_only_between_games:
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


def raise_parameter(c, param: str, *, options: GmOptions, creation: bool = False, in_play: bool = False) -> dict:
    """+1 level of a tier-III parameter for DP (tiers II/I follow, L278)."""
    _check_play(in_play, options=options)
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
    scheme, pool = _pool("param", creation, options=options)
    amount = step_cost(cur, scheme, options=options)
    return _spend(c, pool, amount, {"target": param, "from": cur, "to": cur + 1}, {param: cur + 1})


def raise_ability(c, name: str, *, options: GmOptions, creation: bool = False, in_play: bool = False) -> dict:
    """+1 level of a skill, talent or ultimate (same tables as parameters, L442)."""
    _check_play(in_play, options=options)
    idx, a = _find(c, name)
    cur = a["level"]
    if cur >= ABILITY_MAX_LEVEL:
        raise RuleError(
            "level_limit", T(f"{name} is already at level 7, the limit.", f"«{name}» уже на 7-м уровне — это предел.")
        )
    scheme, pool = _pool("ability", creation, options=options)
    amount = step_cost(cur, scheme, options=options)
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
    *,
    options: GmOptions,
    d6: int | None = None,
    rng: random.Random | None = None,
    roll_level: bool = False,
    in_play: bool = False,
) -> dict:
    """Skill -> talent (L426-430) or talent upgrade (L432-436), a level-7 ability becoming a
    talent at level 3 (or by the optional d6 choice roll) for 7 / 3 DP. Flaws use
    :func:`convert_flaw`."""
    _check_play(in_play, options=options)
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
    scheme, pool = _pool("ability", False, options=options)
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


def convert_flaw(c, name: str, new_name: str, base_param: str, *, options: GmOptions, in_play: bool = False) -> dict:
    """A flaw turned into a useful talent (L1663); cost as skill -> talent (A35 default)."""
    _check_play(in_play, options=options)
    flaws = [f for f in c.flaws if f.get("name") != name]
    if len(flaws) == len(c.flaws):
        raise RuleError("no_flaw", T(f"No flaw named {name}.", f"Нет недостатка «{name}»."))
    if base_param not in PARAMS:
        raise RuleError("bad_base", T("unknown base parameter", "неизвестная основа"))
    scheme, pool = _pool("ability", False, options=options)
    abilities = copy.deepcopy(c.abilities) + [new_ability(new_name, "talent", base_param, 3, converted_from=name)]
    return _spend(
        c,
        pool,
        conversion_cost(scheme),
        {"target": new_name, "from": f"flaw {name}", "to": 3},
        {"abilities": abilities, "flaws": flaws},
    )


def gained_level(kind: str, *, d6: int | None = None, nascent: bool = False) -> int:
    """The level of an ability gained in play: a skill at 1, or by the d6 table 1-2 -> 1, 3-4 -> 2,
    5-6 -> 3 (L409, L1754); a talent at 3, a nascent one at 1 (L421, L1755)."""
    if kind == "skill":
        return new_skill_level_from_d6(d6) if d6 else 1
    if kind == "talent":
        return 1 if nascent else 3
    raise RuleError("bad_kind", T("An ability is a skill or a talent.", "Способность — это навык или талант."))


def gain_ability(
    c,
    name: str,
    kind: str,
    base_param: str,
    *,
    d6: int | None = None,
    nascent: bool = False,
    **extra: Any,
) -> dict:
    """A new ability granted by the GM in play (L408-409, L420-421, L1749-1755): a skill at level 1
    (or the d6 table 1-2 -> 1, 3-4 -> 2, 5-6 -> 3); a talent at level 3 (1 if nascent). Free."""
    level = gained_level(kind, d6=d6, nascent=nascent)
    if c.ability(name):
        raise RuleError(
            "ability_duplicate", T(f"Two abilities are named {name}.", f"Две способности называются «{name}».")
        )
    a = new_ability(name, kind, base_param, level, **extra)
    c.update(abilities=copy.deepcopy(c.abilities) + [a])
    return a


def start_game_session(c) -> dict:
    """Luck refills up to its maximum, never reduced (L356-357); ultimates become available
    (L1217); a token the GM did not mark "kept between sessions" (``persistent``) is gone (L1479)."""
    changes = {}
    new_luck = max(c.luck, c.luck_max)
    abilities = copy.deepcopy(c.abilities)
    for a in abilities:
        if a.get("kind") == "ultimate":
            a["used"] = False
    tokens = [copy.deepcopy(t) for t in c.tokens if t.get("persistent")]
    changes["luck"] = (c.luck, new_luck)
    if tokens != list(c.tokens):
        changes["tokens"] = (list(c.tokens), tokens)
    c.update(luck=new_luck, abilities=abilities, tokens=tokens)
    return changes


def raise_flaw(c, name: str, *, options: GmOptions, in_play: bool = False) -> dict:
    """+1 level of a flaw (L1658: flaws are skills that can be strengthened, which makes their
    checks easier; same tables as skills, L442; level 7 at most, A35)."""
    _check_play(in_play, options=options)
    idx = next((i for i, f in enumerate(c.flaws) if f.get("name") == name), None)
    if idx is None:
        raise RuleError("no_flaw", T(f"No flaw named {name}.", f"Нет недостатка «{name}»."))
    cur = int(c.flaws[idx].get("level", 1))
    if cur >= ABILITY_MAX_LEVEL:
        raise RuleError(
            "level_limit", T(f"{name} is already at level 7, the limit.", f"«{name}» уже на 7-м уровне — это предел.")
        )
    scheme, pool = _pool("ability", False, options=options)
    flaws = copy.deepcopy(c.flaws)
    flaws[idx]["level"] = cur + 1
    return _spend(
        c, pool, step_cost(cur, scheme, options=options), {"target": name, "from": cur, "to": cur + 1}, {"flaws": flaws}
    )


def buy_ability(
    c,
    name: str,
    kind: str,
    base_param: str,
    price: int,
    *,
    options: GmOptions,
    d6: int | None = None,
    nascent: bool = False,
) -> dict:
    """A new ability bought for development points when the GM offers one before a game (L1757:
    5-7 DP, or 3 ability DP in simplified costing), at the level of an ability gained in play
    (:func:`gain_ability`: a skill at 1 or by the d6, L1754; a talent at 3, a nascent one at 1,
    L1755)."""
    if not str(name).strip():
        raise RuleError("no_name", T("Name the new ability.", "Назовите новую способность."))
    if base_param not in PARAMS:
        raise RuleError(
            "bad_base",
            T(
                "The GM picks the parameter a new ability is based on.",
                "Параметр, на котором основана новая способность, выбирает мастер.",
            ),
        )
    if c.ability(name):
        raise RuleError(
            "ability_duplicate", T(f"Two abilities are named {name}.", f"Две способности называются «{name}».")
        )
    scheme, pool = _pool("ability", False, options=options)
    a = new_ability(name, kind, base_param, gained_level(kind, d6=d6, nascent=nascent))
    amount = int(price) if scheme == "recommended" else 3
    abilities = copy.deepcopy(c.abilities) + [a]
    return _spend(c, pool, amount, {"target": name, "from": "—", "to": a["level"]}, {"abilities": abilities})
