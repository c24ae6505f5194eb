"""Checks of Threads of Fate (spec §5): d20 + modifiers >= difficulty, Advantages/Hindrances,
static values, expert skills without access, Trouble checks, contests, mutual aid, Success with
Trouble. Exact odds are computed here from the kept-die distribution of §5.4."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckResult, CheckSpec, Effect, OptionSpec
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.results import Check, Die
from tabletop_widgets.dice.words import word_result

from .rules import (
    BASIC_SKILLS,
    CHAR_LABELS,
    CHARACTERISTICS,
    SECONDARIES,
    SECONDARY_LABELS,
    SKILLS,
    net_dice,
    rule,
    signed,
    skill_label,
)
from . import tables


# ------------------------------------------------------------------------------------------------
# The kept die (§5.4)
# ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def kept_die_pmf(net: int) -> dict[int, Fraction]:
    """Exact distribution of the kept d20 with ``1 + |net|`` dice, highest kept for net > 0,
    lowest for net < 0 (L108-109)."""
    k = 1 + abs(net)
    den = Fraction(1, 20**k)
    if net >= 0:
        return {x: (x**k - (x - 1) ** k) * den for x in range(1, 21)}
    return {x: ((21 - x) ** k - (20 - x) ** k) * den for x in range(1, 21)}


def roll_kept(net: int, rng: random.Random) -> tuple[int, list[int], int]:
    """Roll ``1 + |net|`` d20 and keep one: (kept value, all dice, index of the kept die)."""
    dice = [rng.randint(1, 20) for _ in range(1 + abs(net))]
    if net > 0:
        idx = max(range(len(dice)), key=lambda i: (dice[i], -i))
    elif net < 0:
        idx = min(range(len(dice)), key=lambda i: (dice[i], i))
    else:
        idx = 0
    return dice[idx], dice, idx


def die_succeeds(x: int, bonus: int, difficulty: int, rules: Mapping[str, Any] | None) -> bool:
    """One kept die value against the difficulty (L98, L114; A4)."""
    if x == 1 and rule(rules, "nat1_auto_fail"):
        return False
    if x == 20 and rule(rules, "nat20_auto_success"):
        return True
    return x + bonus >= difficulty


def succeeds_only_on_20(bonus: int, difficulty: int, rules) -> bool:
    """§5.2: no die below 20 succeeds and a 20 does (L135, L189, L191; A14)."""
    need = difficulty - bonus
    return need == 20 or (need > 20 and bool(rule(rules, "nat20_auto_success")))


def p_success(bonus: int, difficulty: int, net: int, rules=None) -> Fraction:
    """Exact P(success) of a rolled check (§5.4)."""
    return sum((p for x, p in kept_die_pmf(net).items() if die_succeeds(x, bonus, difficulty, rules)), Fraction(0))


# ------------------------------------------------------------------------------------------------
# Resolving a check id (§5.17)
# ------------------------------------------------------------------------------------------------
@dataclass
class Plan:
    """What a check id means for one character."""

    check_id: str
    label: dict
    kind: str  # characteristic | secondary | skill | expert_static | valor | ...
    bonus: int = 0
    auto_hindrance: int = 0  # the automatic 0-XP Hindrance (L379, L380, L412)
    characteristic: str | None = None
    skill: str | None = None
    skill_xp: int | None = None
    drained: bool = False  # characteristic at 0: every check fails (L363)
    parts: list = field(default_factory=list)  # (label, value) for the breakdown
    substitute: bool = False  # A53: a characteristic not listed for the skill


COMBAT_CHECKS = {
    "valor": T("Valor", "Доблесть"),
    "valor_unarmed": T("Valor (unarmed)", "Доблесть (без оружия)"),
    "marksmanship": T("Marksmanship", "Меткость"),
    "defense_check": T("Defense check", "Проверка Защиты"),
}


def _skill_info(ch, code: str):
    """(label, kind, usual characteristics, value, accessible) of a built-in or custom skill."""
    if code in SKILLS:
        kind = "basic" if code in BASIC_SKILLS else "expert"
        return skill_label(code), kind, SKILLS[code][2], getattr(ch, code), (kind == "basic" or ch.has_access(code))
    for s in ch.custom_skills:
        if s.get("code") == code:
            kind = s.get("kind", "basic")
            parent = s.get("parent")
            ok = kind == "basic" or ch.has_access(code) or (parent is not None and ch.has_access(parent))
            return (
                T(s.get("en") or code, s.get("ru") or s.get("en") or code),
                kind,
                tuple(s.get("characteristics") or ()),
                int(s.get("value", 0)),
                ok,
            )
    raise RuleError("unknown_check", T(f"no skill named {code!r}", f"нет навыка {code!r}"))


def _char_value(ch, name: str, rules) -> tuple[int, bool, dict]:
    """(bonus, drained, label) of a primary (its modifier) or secondary (its full value, L325)."""
    if name in CHARACTERISTICS:
        score = ch.effective_score(name)
        m = (
            ch.dexterity_mod_effective
            if (name == "dexterity" and rule(rules, "dex_cap_scope") == "all_checks")
            else getattr(ch, name + "_mod")
        )
        return m, score == 0, CHAR_LABELS[name]
    if name in SECONDARIES:
        value = ch.hp_max if name == "hp" else getattr(ch, name)
        if value is None:
            raise RuleError(
                "needs_gm_value",
                T(
                    f"{SECONDARY_LABELS[name]['en']} needs a GM-entered size value first",
                    f"{SECONDARY_LABELS[name]['ru']}: сначала мастер должен ввести значения размера",
                ),
            )
        return value, value == 0, SECONDARY_LABELS[name]
    raise RuleError("unknown_check", T(f"unknown characteristic {name!r}", f"неизвестная характеристика {name!r}"))


def plan_check(ch, check_id: str, rules=None) -> Plan:
    if check_id in COMBAT_CHECKS:
        plan = _plan_combat(ch, check_id)
        if rule(rules, "dex_cap_scope") == "defense_only" and check_id != "defense_check":
            plan.bonus += ch.dexterity_mod - ch.dexterity_mod_effective  # A31: caps only Defense
        return plan
    if check_id == "trouble":
        return Plan(check_id, T("Trouble check", "Проверка Неприятностей"), "trouble")
    char, plus, skill = check_id.partition("+")
    value, drained, clabel = _char_value(ch, char, rules)
    if not plus:
        kind = "characteristic" if char in CHARACTERISTICS else "secondary"
        return Plan(
            check_id, dict(clabel), kind, bonus=value, characteristic=char, drained=drained, parts=[(clabel, value)]
        )
    slabel, skind, usual, xp, accessible = _skill_info(ch, skill)
    label = T(f"{clabel['en']} + {slabel['en']}", f"{clabel['ru']} + {slabel['ru']}")
    if skind == "expert" and not accessible:
        # L413: no roll, only 5 + modifier of the profile characteristic
        return Plan(
            check_id,
            label,
            "expert_static",
            bonus=value,
            characteristic=char,
            skill=skill,
            skill_xp=0,
            drained=drained,
            parts=[(clabel, value)],
            substitute=char not in usual,
        )
    return Plan(
        check_id,
        label,
        "skill",
        bonus=value + xp,
        auto_hindrance=1 if xp == 0 else 0,
        characteristic=char,
        skill=skill,
        skill_xp=xp,
        drained=drained,
        parts=[(slabel, xp), (clabel, value)],
        substitute=bool(usual) and char not in usual,
    )


def _plan_combat(ch, check_id: str) -> Plan:
    label = COMBAT_CHECKS[check_id]
    veteran = 1 if ch.has_attribute("veteran") else 0  # L537: +1 to Valor and Marksmanship checks
    if check_id == "defense_check":
        if ch.defense is None:
            raise RuleError(
                "needs_gm_value",
                T("Defense needs GM-entered size values", "для Защиты мастер должен ввести значения размера"),
            )
        v = ch.defense - ch.base_defense  # L355: d20 + (DEF - BDEF)
        return Plan(check_id, label, "defense_check", bonus=v, parts=[(T("DEF - BDEF", "Зщ - БАЗщ"), v)])
    if check_id == "marksmanship":
        rating, skill = ch.marksmanship, "shooting"
    elif check_id == "valor_unarmed":
        rating, skill = ch.valor_unarmed, "unarmed"
    else:
        rating, skill = ch.valor, "weapons"
    xp = getattr(ch, skill)
    parts = [(label, rating)] + ([(T("Veteran", "Ветеран"), 1)] if veteran else [])
    return Plan(
        check_id,
        label,
        check_id,
        bonus=rating + veteran,
        auto_hindrance=1 if xp == 0 else 0,  # L380
        skill=skill,
        skill_xp=xp,
        parts=parts,
        drained=False,
    )


# ------------------------------------------------------------------------------------------------
# Static values (§5.6, §5.13)
# ------------------------------------------------------------------------------------------------
def static_value(skill_xp: int, char_mod: int, net: int, rules=None) -> int:
    """10 + skill + modifier, +-5 for Advantage/Hindrance (L111-112; A5, A6)."""
    v = 10 + skill_xp + (char_mod if rule(rules, "static_includes_mod") else 0)
    step = 1 if rule(rules, "static_flat_5") else abs(net)
    return v + (5 * step if net > 0 else -5 * step if net < 0 else 0)


def expert_static(char_mod: int, difficulty: int, net: int = 0, rules=None) -> tuple[int, str]:
    """Expert skill without access (L413): 5 + modifier; critical failure when DC - value >= 10."""
    v = 5 + char_mod
    if rule(rules, "expert_static_adv"):  # A52
        v += 5 if net > 0 else -5 if net < 0 else 0
    if difficulty - v >= 10:
        return v, "critical_failure"
    return v, "success" if v >= difficulty else "failure"


def opposed_difficulty(opp_skill: int, opp_mod: int, rules=None) -> int:
    """Actively opposed check without a Contest: DC = 10 + skill + modifier (L375-376)."""
    return static_value(opp_skill, opp_mod, 0, rules)


# ------------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------------
@dataclass
class Opts:
    difficulty: int = 10
    advantages: int = 0
    hindrances: int = 0
    bonus: int = 0
    static: bool = False
    outside_familiar: bool = False
    bought: str | None = None  # Moves M5/M6 declared before the roll (L189-192)


_KNOWN = {"difficulty", "advantages", "hindrances", "bonus", "static", "outside_familiar", "bought"}
BOUGHT = {"success": 2, "failure": 2, "critical_success": 4, "critical_failure": 4}  # Threads (L189, L191)


def parse_options(options: Mapping[str, Any]) -> Opts:
    unknown = set(options) - _KNOWN
    if unknown:
        raise RuleError(
            "unknown_option",
            T(
                f"unknown option(s): {', '.join(sorted(unknown))}",
                f"неизвестные параметры: {', '.join(sorted(unknown))}",
            ),
        )
    o = Opts(**options)
    for name in ("difficulty", "advantages", "hindrances", "bonus"):
        v = getattr(o, name)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuleError("bad_option", T(f"{name} must be a whole number", f"{name} должно быть целым числом"))
    if o.bought not in (None, "", *BOUGHT):
        raise RuleError(
            "bad_option", T(f"bought must be one of {', '.join(BOUGHT)}", f"bought: одно из {', '.join(BOUGHT)}")
        )
    o.bought = o.bought or None
    if o.advantages < 0 or o.hindrances < 0:
        raise RuleError(
            "bad_option",
            T("Advantages and Hindrances cannot be negative", "Преимуществ и Помех не может быть меньше нуля"),
        )
    return o


def _net(plan: Plan, o: Opts, rules) -> int:
    # §5.17: the automatic Hindrance is merged first, then cancelled and capped (A2)
    return net_dice(o.advantages, o.hindrances + plan.auto_hindrance, rule(rules, "adv_order"))


# ------------------------------------------------------------------------------------------------
# Distribution and roll
# ------------------------------------------------------------------------------------------------
def check_distribution(ch, check_id: str, rules=None, **options) -> Distribution:
    plan = plan_check(ch, check_id, rules)
    if plan.kind == "trouble":
        return trouble_distribution(**options)
    o = parse_options(options)
    bonus = plan.bonus + o.bonus
    if o.bought:
        b = _bought(ch, plan, o, rules)
        return Distribution(
            {b["total"]: Fraction(1)}, p_pass=Fraction(int(b["success"])), expression=check_id, outcome="total"
        )
    fixed = _fixed_outcome(ch, plan, o, rules)
    if fixed is not None:
        value, success, _ = fixed
        return Distribution({value: Fraction(1)}, p_pass=Fraction(int(success)), expression=check_id, outcome="total")
    net = _net(plan, o, rules)
    pmf = kept_die_pmf(net)
    if plan.drained:
        p = Fraction(0)  # L363
    else:
        p = sum((q for x, q in pmf.items() if die_succeeds(x, bonus, o.difficulty, rules)), Fraction(0))
    return Distribution({x + bonus: q for x, q in pmf.items()}, p_pass=p, expression=check_id, outcome="total")


def _fixed_outcome(ch, plan: Plan, o: Opts, rules):
    """(value, success, degree) for checks without a roll, else None."""
    bonus = plan.bonus + o.bonus
    if plan.kind == "expert_static":
        if plan.skill == "survival" and o.outside_familiar:  # L424
            return 5 + bonus, False, "automatic_failure"
        n = net_dice(o.advantages, o.hindrances, rule(rules, "adv_order"))
        v, verdict = expert_static(bonus, o.difficulty, n, rules)
        return v, (verdict == "success" and not plan.drained), verdict
    if o.static:
        if plan.kind != "skill":
            raise RuleError(
                "no_static",
                T(
                    "only skill checks have a static value",  # L111
                    "статичное значение бывает только у Навыков",
                ),
            )  # L111
        auto = plan.auto_hindrance if rule(rules, "static_zero_xp_hindrance") else 0  # A51
        n = net_dice(o.advantages, o.hindrances + auto, rule(rules, "adv_order"))
        v = static_value(plan.skill_xp, plan.bonus - plan.skill_xp, n, rules) + o.bonus
        ok = v >= o.difficulty and not plan.drained
        return v, ok, "success" if ok else "failure"
    return None


def _bought(ch, plan: Plan, o: Opts, rules) -> dict:
    """A result bought with Threads before the roll (Moves M5, M6; L189-192)."""
    cost = BOUGHT[o.bought]
    if ch.entity_type == "extra":
        raise RuleError("extra_no_threads", T("extras cannot use Threads", "статисты не используют Нити"))  # L64
    if ch.threads < cost and rule(rules, "xp_threads_mode") != "xp_as_threads":
        raise RuleError(
            "not_enough_threads",
            T(
                f"this Move needs {cost} Threads; the hero has {ch.threads}",
                f"для этого Хода нужно Нитей: {cost}, у героя {ch.threads}",
            ),
        )
    bonus = plan.bonus + o.bonus
    if o.bought == "success":
        if succeeds_only_on_20(bonus, o.difficulty, rules) or (o.difficulty - bonus > 20):
            raise RuleError(
                "only_on_20",
                T(
                    "a bought success is not allowed when only a 20 succeeds; buy a critical "
                    "success (4 Threads) instead",  # L189-191
                    "купить успех нельзя, если преуспеть можно только на 20; купите критический успех (4 Нити)",
                ),
            )  # L189-191
        return {
            "total": max(o.difficulty, bonus + 1),
            "success": True,
            "label": T("Lucky!: minimal success (2 Threads)", "Повезло!: минимальный успех (2 Нити)"),
        }
    if o.bought == "failure":
        return {
            "total": min(o.difficulty - 1, bonus + 20),
            "success": False,
            "label": T("Lucky!: minimal failure (2 Threads)", "Повезло!: минимальный провал (2 Нити)"),
        }
    if o.bought == "critical_success":
        return {
            "total": 20 + bonus,
            "success": True,
            "die": 20,
            "critical": "success",
            "label": T(
                "Lucky!: critical success, the die counts as 20 (4 Threads)",
                "Повезло!: критический успех, кубик = 20 (4 Нити)",
            ),
        }
    return {
        "total": 1 + bonus,
        "success": False,
        "die": 1,
        "critical": "failure",
        "label": T(
            "Lucky!: critical failure, the die counts as 1 (4 Threads)",
            "Повезло!: критический провал, кубик = 1 (4 Нити)",
        ),
    }


def _dice_objects(dice: list[int], idx: int) -> list[Die]:
    out = []
    for i, v in enumerate(dice):
        crit = ("success" if v == 20 else "failure" if v == 1 else None) if i == idx else None
        out.append(Die(20, v, kept=(i == idx), dropped=(i != idx), crit=crit))
    return out


def notation_for(plan: Plan, o: Opts, rules=None, with_target: bool = True) -> str:
    bonus = plan.bonus + o.bonus
    text = "t20" + (signed(bonus) if bonus else "")
    if o.advantages:
        text += f" adv{o.advantages if o.advantages > 1 else ''}"
    if o.hindrances + plan.auto_hindrance:
        n = o.hindrances + plan.auto_hindrance
        text += f" hin{n if n > 1 else ''}"
    return text + (f" vs {o.difficulty}" if with_target else "")


def roll_check(ch, check_id: str, rng: random.Random | None = None, rules=None, **options) -> CheckResult:
    rng = rng if rng is not None else random.Random()
    plan = plan_check(ch, check_id, rules)
    if plan.kind == "trouble":
        return roll_trouble(rng=rng, rules=rules, character=ch, **options)
    o = parse_options(options)
    bonus = plan.bonus + o.bonus
    common = {
        "requested_advantages": o.advantages,
        "requested_hindrances": o.hindrances,
        "automatic_hindrance": plan.auto_hindrance,
        "skill": plan.skill,
        "skill_xp": plan.skill_xp,
        "characteristic": plan.characteristic,
        "substitute": plan.substitute,
        "kind": plan.kind,
    }
    if o.bought:
        b = _bought(ch, plan, o, rules)
        total, margin = b["total"], b["total"] - o.difficulty
        res = word_result(
            f"{check_id} bought {o.bought}",
            "t20",
            total,
            [],
            b["label"],
            check=Check(">=", o.difficulty, b["success"], margin),
        )
        details = {
            **common,
            "static": False,
            "dice": [],
            "bought": o.bought,
            "kept": b.get("die"),
            "only_on_20": succeeds_only_on_20(bonus, o.difficulty, rules),
            "rerolls": 0,
        }
        if plan.kind in ("valor", "valor_unarmed", "marksmanship"):
            details["damage_before_durability"] = (
                attack_damage(total, o.difficulty, 0, b.get("die") or 0, rules)
                if o.bought.startswith("critical")
                else rule(rules, "min_success_damage")
                if b["success"]
                else 0
            )  # A13
        return CheckResult(
            check_id,
            plan.label,
            b["success"],
            total,
            roll=res,
            margin=margin,
            degree=o.bought,
            degree_label=b["label"],
            critical=b.get("critical"),
            outcome=_outcome(b["success"], b.get("critical"), margin),
            options=dict(options),
            effects=[Effect("threads", -BOUGHT[o.bought], b["label"])],
            details=details,
        )
    fixed = _fixed_outcome(ch, plan, o, rules)
    if fixed is not None:
        value, success, degree = fixed
        crit = "failure" if degree in ("critical_failure",) else None
        res = word_result(
            f"static {check_id} vs {o.difficulty}",
            "t20",
            value,
            [],
            T("static value (no roll)", "статичное значение (без броска)"),
            check=Check(">=", o.difficulty, success, value - o.difficulty),
        )
        return CheckResult(
            check_id,
            plan.label,
            success,
            value,
            roll=res,
            margin=value - o.difficulty,
            degree=degree,
            degree_label=_degree_label(degree),
            critical=crit,
            outcome=_outcome(success, crit, value - o.difficulty, static=True),
            options=dict(options),
            details={**common, "static": True, "dice": [], "only_on_20": False},
        )
    net = _net(plan, o, rules)
    kept, dice, idx = roll_kept(net, rng)
    total = kept + bonus
    success = die_succeeds(kept, bonus, o.difficulty, rules) and not plan.drained
    crit = "success" if kept == 20 else "failure" if kept == 1 else None  # L114, A3: the kept die
    margin = total - o.difficulty
    text = notation_for(plan, o, rules)
    sign = f" {signed(bonus)}" if bonus else ""
    breakdown = T(
        f"{text}: [{', '.join(map(str, dice))}] → {kept}{sign}", f"{text}: [{', '.join(map(str, dice))}] → {kept}{sign}"
    )
    res = word_result(
        text, "t20", total, _dice_objects(dice, idx), breakdown, check=Check(">=", o.difficulty, success, margin)
    )
    details = {
        **common,
        "static": False,
        "dice": dice,
        "kept": kept,
        "net": net,
        "only_on_20": succeeds_only_on_20(bonus, o.difficulty, rules),
        "need": o.difficulty - bonus,
        "drained": plan.drained,
        "bonus": bonus,
        "rerolls": 0,
    }
    if plan.kind in ("valor", "valor_unarmed", "marksmanship"):
        details["damage_before_durability"] = attack_damage(total, o.difficulty, 0, kept, rules)
    if plan.kind == "defense_check":
        details["damage"] = max(0, o.difficulty - total)  # L356
    return CheckResult(
        check_id,
        plan.label,
        success,
        total,
        roll=res,
        margin=margin,
        degree=margin,
        degree_label=T(f"margin {signed(margin)}", f"величина {signed(margin)}"),
        critical=crit,
        outcome=_outcome(success, crit, margin),
        options=dict(options),
        details=details,
    )


def attack_damage(total: int, defense: int, durability: int, kept: int, rules=None, immune: bool = False) -> int:
    """Damage = margin over Defense minus Durability; a natural 20 always costs >= 1 HP (L114, L347, L351; A21)."""
    if immune:
        return 0
    dmg = max(0, max(0, total - defense) - durability)
    if kept == 20:
        dmg = max(dmg, 1)
    return dmg


def _degree_label(degree: str):
    return {
        "success": T("success", "успех"),
        "failure": T("failure", "провал"),
        "critical_failure": T("critical failure", "критический провал"),  # L413
        "automatic_failure": T(
            "automatic failure outside familiar places",  # L424
            "автоматический провал вне знакомых мест",
        ),
    }.get(degree)  # L424


def _outcome(success: bool, crit, margin: int, static: bool = False):
    """«Успех, величина +3»; a critical one says so once («Критический провал, величина −9»,
    not «Провал — Критический провал»)."""
    word = T("Success", "Успех") if success else T("Failure", "Провал")
    tag = T("", "")
    if crit == ("success" if success else "failure"):
        word = T("Critical success", "Критический успех") if success else T("Critical failure", "Критический провал")
    elif crit in ("success", "failure"):  # a crit against the verdict: both are news
        tag = {
            "success": T(" — critical success", " — критический успех"),
            "failure": T(" — critical failure", " — критический провал"),
        }[crit]
    how = T(" (static value)", " (статичное значение)") if static else T("", "")
    return T(
        f"{word['en']}{tag['en']}{how['en']}, margin {signed(margin)}",
        f"{word['ru']}{tag['ru']}{how['ru']}, величина {signed(margin)}",
    )


# ------------------------------------------------------------------------------------------------
# Re-roll (Move M3, L187)
# ------------------------------------------------------------------------------------------------
def reroll(ch, previous: CheckResult, rng: random.Random | None = None, rules=None) -> CheckResult:
    """Re-roll all dice of a check for 1 Thread (returned as an Effect, not applied).
    A die can be re-rolled at most twice; the player keeps whichever result they prefer (A42)."""
    used = previous.details.get("rerolls", 0)
    if previous.details.get("static") or previous.details.get("bought"):
        raise RuleError(
            "no_dice",
            T(
                "there are no dice to re-roll (static value or bought result)",
                "перебрасывать нечего (статичное значение или купленный результат)",
            ),
        )
    if used >= 2:
        raise RuleError(
            "reroll_limit",
            T(
                "a die can be re-rolled at most twice",  # L187
                "любой кубик можно перебросить не более двух раз",
            ),
        )  # L187
    if ch.entity_type == "extra":
        raise RuleError("extra_no_threads", T("extras cannot use Threads", "статисты не используют Нити"))  # L64
    if ch.threads < 1:
        raise RuleError("not_enough_threads", T("a re-roll needs 1 Thread", "для переброса нужна 1 Нить"))
    new = roll_check(ch, previous.check_id, rng=rng, rules=rules, **previous.options)
    new.details["rerolls"] = used + 1
    new.details["candidates"] = previous.details.get("candidates", [previous]) + [new]
    new.effects.append(Effect("threads", -1, T("Lucky!: re-roll", "Повезло!: переброс")))
    return new


# ------------------------------------------------------------------------------------------------
# Trouble check (§5.10)
# ------------------------------------------------------------------------------------------------
def trouble_band(value: int) -> str:
    """Band of a (modified) Trouble value: A 19+, B 13-18, C 7-12, D <= 6 (L503-506)."""
    if value >= 19:
        return "A"
    if value >= 13:
        return "B"
    if value >= 7:
        return "C"
    return "D"


def trouble_value(die: int, margin: int = 0, forced: str | None = None, rules=None) -> int:
    if forced == "worst" and not rule(rules, "catastrophe_controllable"):  # A12
        return 1
    base = 20 if forced == "best" else 1 if forced == "worst" else die
    return base + margin  # L186, L239


def _trouble_opts(options):
    unknown = set(options) - {"margin", "forced", "table", "advantages", "hindrances", "difficulty"}
    if unknown:
        raise RuleError(
            "unknown_option",
            T(
                f"unknown option(s): {', '.join(sorted(unknown))}",
                f"неизвестные параметры: {', '.join(sorted(unknown))}",
            ),
        )
    forced = options.get("forced")
    if forced not in (None, "", "best", "worst"):
        raise RuleError("bad_option", T("forced must be 'best' or 'worst'", "forced: 'best' или 'worst'"))
    table = options.get("table", "general")
    if table not in tables.TROUBLE_TABLES:
        raise RuleError("bad_option", T(f"unknown Trouble table {table!r}", f"нет таблицы Неприятностей {table!r}"))
    return int(options.get("margin", 0)), forced or None, table


def trouble_net(options, rules) -> int:
    adv, hin = options.get("advantages", 0), options.get("hindrances", 0)
    if (adv or hin) and not rule(rules, "trouble_allow_adv"):
        raise RuleError(
            "trouble_no_adv",
            T(
                "Advantages/Hindrances do not apply to a Trouble check",  # A11
                "Преимущества/Помехи не применяются к проверке Неприятностей",
            ),
        )  # A11
    return net_dice(adv, hin, rule(rules, "adv_order"))


def trouble_distribution(rules=None, **options) -> Distribution:
    """Exact distribution of the Trouble value (die + control margin); p_pass = P(best band A)."""
    margin, forced, _ = _trouble_opts(options)
    net = trouble_net(options, rules)
    if forced:
        pmf = {trouble_value(20, margin, forced, rules): Fraction(1)}
    else:
        pmf = {}
        for x, q in kept_die_pmf(net).items():
            v = trouble_value(x, margin, None, rules)
            pmf[v] = pmf.get(v, Fraction(0)) + q
    p_a = sum((q for v, q in pmf.items() if trouble_band(v) == "A"), Fraction(0))
    return Distribution(
        pmf,
        p_pass=p_a,
        expression="trouble",
        outcome="total",
        notes=[T("p_pass is the chance of the best band (19-20)", "p_pass — шанс лучшего варианта (19-20)")],
    )


def trouble_band_odds(margin: int = 0, net: int = 0) -> dict[str, Fraction]:
    out = {b: Fraction(0) for b in "ABCD"}
    for x, q in kept_die_pmf(net).items():
        out[trouble_band(x + margin)] += q
    return out


def roll_trouble(rng: random.Random | None = None, rules=None, character=None, **options) -> CheckResult:
    """A Trouble check: plain d20 (+ control margin), read in four bands (L229-242).
    ``forced="best"`` is the Move "Lucky!" (1 Thread, L186); ``forced="worst"`` the Caprice
    "Catastrophe!" (+1 Thread, L222). The Thread change is returned as an Effect."""
    rng = rng if rng is not None else random.Random()
    margin, forced, table = _trouble_opts(options)
    net = trouble_net(options, rules)
    effects: list[Effect] = []
    if forced:
        dice, idx, die = [], 0, 20 if forced == "best" else 1
        if character is not None and character.entity_type == "extra":
            raise RuleError("extra_no_threads", T("extras cannot use Threads", "статисты не используют Нити"))  # L64
        if forced == "best":
            if character is not None and character.threads < 1:
                raise RuleError("not_enough_threads", T("Lucky! needs 1 Thread", "Для «Повезло!» нужна 1 Нить"))
            effects.append(Effect("threads", -1, T("Lucky!: best Trouble variant", "Повезло!: лучший вариант")))
        else:
            effects.append(Effect("threads", +1, T("Caprice: Catastrophe!", "Каприз: Катастрофа!")))
    else:
        die, dice, idx = roll_kept(net, rng)
    value = trouble_value(die, margin, forced, rules)
    band = trouble_band(value)
    row = tables.trouble_row(table, band, rule(rules, "trouble_band_names"))
    label = T("Trouble check", "Проверка Неприятностей")
    # the reader gets the book's range of the band (19–20, 13–18, ...), not its code letter
    band_range = f"{row['min']}–{row['max']}" if "min" in row and "max" in row else ""
    head = f"{band_range}: " if band_range else ""
    shown = f"[{die}]" + (f" {signed(margin)}" if margin and not (forced == "worst" and value == 1) else "")
    forced_txt = {
        "best": T(" (Lucky!: counts as 20)", " («Повезло!»: считается 20)"),
        "worst": T(" (Catastrophe!: counts as 1)", " («Катастрофа!»: считается 1)"),
    }.get(forced, T("", ""))
    breakdown = T(f"trouble{forced_txt['en']}: {shown}", f"неприятности{forced_txt['ru']}: {shown}")
    res = word_result(
        "trouble" + (f" {signed(margin)}" if margin else "") + (f" {forced}" if forced else ""),
        "trouble",
        value,
        _dice_objects(dice, idx) if dice else [],
        breakdown,
        notes=[T(f"{head}{row['en']}", f"{head}{row['ru']}")],
    )
    return CheckResult(
        "trouble",
        label,
        None,
        value,
        roll=res,
        degree=band,
        degree_label=T(row["en"], row["ru"]),
        outcome=T(f"{head}{row['en']}", f"{head}{row['ru']}"),
        effects=effects,
        options=dict(options),
        details={
            "die": die,
            "dice": dice,
            "margin": margin,
            "forced": forced,
            "band": band,
            "table": table,
            "row": row,
        },
    )


# ------------------------------------------------------------------------------------------------
# Contest, mutual aid, Success with Trouble, group stealth
# ------------------------------------------------------------------------------------------------
def contest_odds(a_bonus: int, b_bonus: int, a_net: int = 0, b_net: int = 0) -> dict[str, Fraction]:
    """Exact P(A wins), P(tie), P(B wins) of a Contest (L150-151): strict higher total wins."""
    out = {"a": Fraction(0), "tie": Fraction(0), "b": Fraction(0)}
    for x, p in kept_die_pmf(a_net).items():
        for y, q in kept_die_pmf(b_net).items():
            a, b = x + a_bonus, y + b_bonus
            out["a" if a > b else "b" if b > a else "tie"] += p * q
    return out


def contest_verdict(a_total: int, b_total: int) -> tuple[str, int]:
    """('a'|'b'|'tie', margin). A tie changes nothing (L151)."""
    if a_total > b_total:
        return "a", a_total - b_total
    if b_total > a_total:
        return "b", b_total - a_total
    return "tie", 0


def helper_difficulty(main_difficulty: int) -> int:
    """Helpers roll against the main difficulty - 5 (L142)."""
    return main_difficulty - 5


def aid_counts(helper_successes: list[bool], rules=None) -> tuple[int, int]:
    """(Advantages, Hindrances) from helpers (L142); each is capped at 2 (L109)."""
    adv = sum(1 for s in helper_successes if s)
    hin = len(helper_successes) - adv
    return min(adv, 2), min(hin, 2)


def success_with_trouble(result: CheckResult, *, gm_allows: bool = True, rules_forbid: bool = False) -> dict:
    """Turn a failed check into a minimal success with Troubles (L120-140). Returns the number of
    Troubles to choose; no Thread is gained (L120)."""
    if result.success:
        raise RuleError(
            "swt_after_failure",
            T(
                "Success with Trouble is only for a failed check",
                "Успех с Неприятностями — только после проваленной проверки",
            ),
        )
    if not gm_allows:
        raise RuleError(
            "swt_forbidden",
            T(
                "the GM forbids Success with Trouble here",  # L136
                "мастер запрещает здесь Успех с Неприятностями",
            ),
        )  # L136
    d = result.details
    n = 1  # L120
    zero_xp = d.get("skill") is not None and (d.get("skill_xp") == 0 or d.get("kind") == "expert_static")
    if zero_xp:
        n += 1  # L134 (A16, R11)
    if (
        d.get("only_on_20")
        or rules_forbid
        or d.get("degree") == "automatic_failure"
        or result.degree == "automatic_failure"
    ):
        n += 1  # L135
    return {
        "troubles": n,
        "threads_gained": 0,
        "outcome": T("minimal success with Trouble", "минимальный успех с Неприятностями"),
        "menu": tables.load("swt_troubles"),
    }


def group_stealth_penalty(helped_sizes: list[str], sbp_of=None) -> int:
    """-1 per helped creature, minus the positive SBP of larger ones (L403)."""
    from .rules import SIZE_SBP

    sbp_of = sbp_of or SIZE_SBP
    p = 0
    for size in helped_sizes:
        s = sbp_of.get(size)
        if s is None:
            raise RuleError(
                "needs_gm_value", T(f"size {size} needs a GM-entered SBP", f"для размера {size} нужен БШР от мастера")
            )
        p -= 1 + max(0, s)
    return p


def grapple_modifier(grappler_size: str, target_size: str, sbp_of=None) -> int:
    """[INFERRED] from L307: SBP(grappler) - SBP(target)."""
    from .rules import SIZE_SBP

    sbp_of = sbp_of or SIZE_SBP
    a, b = sbp_of.get(grappler_size), sbp_of.get(target_size)
    if a is None or b is None:
        raise RuleError(
            "needs_gm_value", T("this size needs a GM-entered SBP", "для этого размера нужен БШР от мастера")
        )
    return a - b


# ------------------------------------------------------------------------------------------------
# The catalogue for the dice tray
# ------------------------------------------------------------------------------------------------
def _options(skill: bool) -> list[OptionSpec]:
    opts = [
        OptionSpec(
            "difficulty",
            T("Difficulty", "Сложность"),
            "int",
            10,
            1,
            60,
            help=T(
                "GM-set; the book's difficulty table is missing", "задаёт мастер; таблицы сложности во фрагменте нет"
            ),
        ),
        OptionSpec("advantages", T("Advantages", "Преимущества"), "int", 0, 0, 6),
        OptionSpec("hindrances", T("Hindrances", "Помехи"), "int", 0, 0, 6),
        OptionSpec("bonus", T("Bonus / penalty", "Бонус / штраф"), "int", 0, -30, 30),
    ]
    if skill:
        opts.append(
            OptionSpec(
                "static",
                T("Static value (no roll)", "Статичное значение (без броска)"),
                "bool",
                False,
                help=T("10 + skill + modifier, ±5", "10 + Навык + модификатор, ±5"),
            )
        )  # L111
    return opts


def list_checks(ch) -> list[CheckSpec]:
    out = []
    g_char = T("Characteristics", "Характеристики")
    for c in CHARACTERISTICS:
        out.append(
            CheckSpec(
                c,
                CHAR_LABELS[c],
                _options(False),
                g_char,
                notation=notation_for(plan_check(ch, c), Opts(), with_target=False),
            )
        )
    g_sec = T("Secondary", "Вторичные")
    for s in SECONDARIES:
        try:
            note = notation_for(plan_check(ch, s), Opts(), with_target=False)
        except RuleError:  # size values not entered yet
            continue
        out.append(CheckSpec(s, SECONDARY_LABELS[s], _options(False), g_sec, notation=note))
    g_sk = T("Skills", "Навыки")
    for code, (en, ru, chars) in SKILLS.items():
        for c in chars:
            try:
                plan = plan_check(ch, f"{c}+{code}")
            except RuleError:
                continue
            out.append(
                CheckSpec(
                    plan.check_id,
                    plan.label,
                    _options(plan.kind == "skill"),
                    g_sk,
                    notation="" if plan.kind == "expert_static" else notation_for(plan, Opts(), with_target=False),
                    help=T("no access: static 5 + modifier", "нет доступа: 5 + модификатор")  # L413
                    if plan.kind == "expert_static"
                    else T("0 XP: check with a Hindrance", "0 ОО: проверка с Помехой")  # L379
                    if plan.auto_hindrance
                    else None,
                )
            )
    for s in ch.custom_skills:
        for c in s.get("characteristics") or ():
            plan = plan_check(ch, f"{c}+{s['code']}")
            out.append(CheckSpec(plan.check_id, plan.label, _options(plan.kind == "skill"), g_sk))
    g_cb = T("Combat", "Бой")
    for cid, lab in COMBAT_CHECKS.items():
        if cid == "defense_check" and ch.defense is None:
            continue
        out.append(
            CheckSpec(
                cid,
                lab,
                _options(False),
                g_cb,
                help=T(
                    "difficulty = target's Defense; Damage = margin - Durability",  # L351
                    "сложность = Защита цели; Повреждения = превышение - Прочность",
                )  # L351
                if cid != "defense_check"
                else T("d20 + (DEF - BDEF); Damage = shortfall", "к20 + (Зщ - БАЗщ); Повреждения = недобор"),
            )
        )  # L355-356
    out.append(
        CheckSpec(
            "trouble",
            T("Trouble check", "Проверка Неприятностей"),
            [
                OptionSpec(
                    "margin",
                    T("Control margin", "Величина контроля"),
                    "int",
                    0,
                    -40,
                    40,
                    help=T("margin of a related check", "величина успеха/провала связанной проверки"),
                ),  # L239
                OptionSpec(
                    "forced",
                    T("Forced result", "Заданный результат"),
                    "choice",
                    "",
                    choices=(
                        ("", T("none", "нет")),
                        ("best", T("Lucky! (1 Thread): 20", "Повезло! (1 Нить): 20")),
                        ("worst", T("Catastrophe! (+1 Thread): 1", "Катастрофа! (+1 Нить): 1")),
                    ),
                ),
                OptionSpec(
                    "table",
                    T("Table", "Таблица"),
                    "choice",
                    "general",
                    choices=tuple((k, T(v["en"], v["ru"])) for k, v in tables.TROUBLE_TABLES.items()),
                ),
            ],
            T("Fate", "Судьба"),
            notation="trouble",
        )
    )
    return out
