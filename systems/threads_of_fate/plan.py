"""What a check id means for one character (spec §5.17): the bonus, the automatic Hindrance, static values
and the options a check takes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from .kept_die import net_dice
from .traits import BASIC_SKILLS, CHARACTERISTICS, CHAR_LABELS, SECONDARIES, SECONDARY_LABELS, SKILLS, skill_label


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
    drained_by: str | None = None  # the characteristic at 0 that fails it (L363)
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


def _char_value(ch, name: str, *, options) -> tuple[int, bool, dict]:
    """(bonus, drained, label) of a primary (its modifier) or secondary (its full value, L325)."""
    if name in CHARACTERISTICS:
        score = ch.effective_score(name)
        m = (
            ch.dexterity_mod_effective
            if (name == "dexterity" and options.dex_cap_scope == "all_checks")
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


def plan_check(ch, check_id: str, *, options) -> Plan:
    if check_id in COMBAT_CHECKS:
        plan = _plan_combat(ch, check_id)
        if options.dex_cap_scope == "defense_only" and check_id != "defense_check":
            plan.bonus += ch.dexterity_mod - ch.dexterity_mod_effective  # A31: caps only Defense
        return plan
    if check_id == "trouble":
        return Plan(check_id, T("Trouble check", "Проверка Неприятностей"), "trouble")
    char, plus, skill = check_id.partition("+")
    value, drained, clabel = _char_value(ch, char, options=options)
    if not plus:
        kind = "characteristic" if char in CHARACTERISTICS else "secondary"
        return Plan(
            check_id,
            dict(clabel),
            kind,
            bonus=value,
            characteristic=char,
            drained=drained,
            drained_by=char if drained else None,
            parts=[(clabel, value)],
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
            drained_by=char if drained else None,
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
        drained_by=char if drained else None,
        parts=[(slabel, xp), (clabel, value)],
        substitute=bool(usual) and char not in usual,
    )


def drained_characteristic(ch, names) -> str | None:
    """The first of ``names`` (characteristics) whose effective score is 0, else None: a check built
    on it fails by itself (L363)."""
    return next((c for c in names if ch.effective_score(c) == 0), None)


def combat_characteristics(check_id: str) -> tuple[str, ...]:
    """The characteristics whose modifiers a combat check adds: Valor Strength and Dexterity (L336),
    Marksmanship Dexterity (L338: a bow's or a thrown weapon's Strength is in its Damage bonus, not
    in the check), the Defense check Dexterity (L340, L355)."""
    return ("strength", "dexterity") if check_id in ("valor", "valor_unarmed") else ("dexterity",)


def _plan_combat(ch, check_id: str) -> Plan:
    label = COMBAT_CHECKS[check_id]
    veteran = 1 if ch.has_attribute("veteran") else 0  # L537: +1 to Valor and Marksmanship checks
    # L363: a Strength or Dexterity at 0 fails every Valor, Marksmanship and Defense check built on it
    drained_by = drained_characteristic(ch, combat_characteristics(check_id))
    if check_id == "defense_check":
        if ch.defense is None:
            raise RuleError(
                "needs_gm_value",
                T("Defense needs GM-entered size values", "для Защиты мастер должен ввести значения размера"),
            )
        v = ch.defense - ch.base_defense  # L355: d20 + (DEF - BDEF)
        return Plan(
            check_id,
            label,
            "defense_check",
            bonus=v,
            parts=[(T("DEF - BDEF", "Зщ - БАЗщ"), v)],
            drained=drained_by is not None,
            drained_by=drained_by,
        )
    if check_id == "marksmanship":
        rating, skill = ch.marksmanship, "shooting"
    elif check_id == "valor_unarmed":
        rating, skill = ch.valor_unarmed, "unarmed"
    else:
        rating, skill = ch.valor, "weapons"
    xp = getattr(ch, skill)
    # the rating already holds the Veteran's +1 (the sheet shows it); the breakdown names it apart
    parts = [(label, rating - veteran)] + ([(T("Veteran", "Ветеран"), 1)] if veteran else [])
    return Plan(
        check_id,
        label,
        check_id,
        bonus=rating,
        auto_hindrance=1 if xp == 0 else 0,  # L380
        skill=skill,
        skill_xp=xp,
        parts=parts,
        drained=drained_by is not None,
        drained_by=drained_by,
    )


# ------------------------------------------------------------------------------------------------
# Static values (§5.6, §5.13)
# ------------------------------------------------------------------------------------------------
def static_value(skill_xp: int, char_mod: int, net: int, *, options) -> int:
    """10 + skill + modifier, +-5 for Advantage/Hindrance (L111-112; A5, A6)."""
    v = 10 + skill_xp + (char_mod if options.static_includes_mod else 0)
    step = 1 if options.static_flat_5 else abs(net)
    return v + (5 * step if net > 0 else -5 * step if net < 0 else 0)


def expert_static(char_mod: int, difficulty: int, net: int = 0, *, options) -> tuple[int, str]:
    """Expert skill without access (L413): 5 + modifier; critical failure when DC - value >= 10."""
    v = 5 + char_mod
    if options.expert_static_adv:  # A52
        v += 5 if net > 0 else -5 if net < 0 else 0
    if difficulty - v >= 10:
        return v, "critical_failure"
    return v, "success" if v >= difficulty else "failure"


def opposed_difficulty(opp_skill: int, opp_mod: int, *, options) -> int:
    """Actively opposed check without a Contest: DC = 10 + skill + modifier (L375-376)."""
    return static_value(opp_skill, opp_mod, 0, options=options)


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


def parse_options(chosen: Mapping[str, Any]) -> Opts:
    unknown = set(chosen) - _KNOWN
    if unknown:
        raise RuleError(
            "unknown_option",
            T(
                f"unknown option(s): {', '.join(sorted(unknown))}",
                f"неизвестные параметры: {', '.join(sorted(unknown))}",
            ),
        )
    o = Opts(**chosen)
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


def net_of(plan: Plan, o: Opts, *, options) -> int:
    # §5.17: the automatic Hindrance is merged first, then cancelled and capped (A2)
    return net_dice(o.advantages, o.hindrances + plan.auto_hindrance, options.adv_order)
