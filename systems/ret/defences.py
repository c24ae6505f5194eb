"""The defences a target may meet an attack with (spec §6.10, L1039-1111) and the level rolls they
make: dodge and parry with the parameter or a fitting ability (L1043, L1054, L1063); a mental
defence against a mind attack (L1090-1098, L1156); a power defence (L1071-1078) and a dispel
(L1080-1088) with the target's own superpowers; no roll at all.

A defence is one choice value: ``"dodge"``, ``"dodge:skill:Evasion"``, ``"parry"``,
``"mental:will"``, ``"mental:talent:Iron will"``, ``"power:Wind shield"``, ``"dispel:Wind
shield"``, ``"none"`` (its kind before the first colon).

Plain rules: no dice are thrown here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.options import GmOptions

from .attack_rolls import LevelPlan
from .damage import armour_at
from .fitting import fitting_choices
from .params import label as param_label
from .plan import cover_bonus_on, plan
from .powers import is_power, power_cost
from .turns import turn_limits
from .weapons import weapon_stats

#: the parameter each physical defence rolls (L1054, L1063)
DEFENCE_PARAMS = {"dodge": "agility", "parry": "strength"}
#: a mental defence: Will against behaviour influence, Intellect against mind clouding,
#: Perception against external illusions (L1094-1096)
MENTAL_PARAMS = ("will", "intellect", "perception")
#: weapon categories a bare hand may parry (L1066: only unarmed attacks or blunt weapons)
BARE_HAND_PARRIES = ("unarmed", "reinforced_unarmed", "blunt")
KIND_WORDS = {
    "dodge": T("Dodge", "Уклонение"),
    "parry": T("Parry", "Парирование"),
    "mental": T("Mental defence", "Ментальная защита"),
    "power": T("Power defence", "Защита сверхспособностью"),
    "dispel": T("Dispel", "Рассеивание"),
    "none": T("No defence roll", "Без броска защиты"),
}


@dataclass
class DefencePlan:
    """A defence chosen: its kind, its words, its level roll (None: no roll) and the Sanity the
    defender pays for it whatever the roll (a power defence or a dispel, L1077, L1087)."""

    kind: str
    label: Mapping[str, str]
    roll: LevelPlan | None
    sanity_cost: int = 0


def _param_choice(kind: str, param: str, value: str | None = None) -> tuple[str, dict[str, str]]:
    word, p = KIND_WORDS[kind], param_label(param)
    return value or kind, T(f"{word['en']} ({p['en']})", f"{word['ru']} ({p['ru']})")


def _ability_choice(kind: str, choice: str, a_label: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    word = KIND_WORDS[kind]
    return f"{kind}:{choice}", T(f"{word['en']}: {a_label['en']}", f"{word['ru']}: {a_label['ru']}")


def _physical(kind: str, target) -> list[tuple[str, dict[str, str]]]:
    """A dodge or a parry: the parameter, then the target's fitting abilities."""
    param = DEFENCE_PARAMS[kind]
    return [_param_choice(kind, param)] + [
        _ability_choice(kind, v, lab) for v, lab in fitting_choices(target, (param,), "defence")
    ]


def _mental(target) -> list[tuple[str, dict[str, str]]]:
    out = [_param_choice("mental", p, f"mental:{p}") for p in MENTAL_PARAMS]
    return out + [_ability_choice("mental", v, lab) for v, lab in fitting_choices(target, MENTAL_PARAMS, "defence")]


def _powers(kind: str, target, cost_of) -> list[tuple[str, dict[str, str]]]:
    """The target's superpower skills and talents as a power defence or a dispel, with their
    Sanity price."""
    out = []
    word = KIND_WORDS[kind]
    for a in target.abilities:
        if a.get("kind") in ("skill", "talent") and is_power(target, a) and a.get("name"):
            n = cost_of(a)
            out.append(
                (
                    f"{kind}:{a['name']}",
                    T(f"{word['en']}: {a['name']} (−{n} Sanity)", f"{word['ru']}: {a['name']} (−{n} Рассудка)"),
                )
            )
    return out


def defence_choices(arm, target, *, options: GmOptions, attack_cost: int = 0, allowed: str | None = None) -> list:
    """The defences ``target`` may choose against an attack with ``arm`` (``(value, label)``):

    * a mind attack (a superpower whose delivery is ``mind``): mental defence only, never dodge or
      parry (L912, L1156), and none under defence refusal (L913);
    * anything else: a dodge (L1054); a parry against melee and thrown attacks and touch powers
      (L1063, L1155; a bare hand only against unarmed or blunt ones unless the target holds a
      melee weapon or one that can parry, or wears arm armour, L1066, L1414); a power defence
      with one of the target's superpowers (L1073, the GM option ``power_defence``);
    * against a superpower also a dispel (L1082, the GM option ``dispel``; it costs what the
      attacker paid, ``attack_cost``);
    * no roll at all. A target that may not defend (defence refused, unconscious, doom, coma)
      has only "none"; one in panic only dodges (L1548)."""
    allowed = allowed or turn_limits(target)["defence"]
    if allowed == "none" or target.has_condition("defence_refused"):
        return [("none", KIND_WORDS["none"])]
    power = arm.kind == "power"
    mind = power and arm.delivery == "mind"
    out: list = []
    if mind:
        out += _mental(target) if allowed != "dodge_only" else []
    else:
        out += _physical("dodge", target)
        if allowed != "dodge_only":
            if _parry_reaches(arm) and _can_parry(arm, target):
                out += _physical("parry", target)
            if options.power_defence:
                out += _powers("power", target, lambda a: power_cost(target, a))
    if power and allowed != "dodge_only" and options.dispel:
        out += _powers("dispel", target, lambda a: max(1, int(attack_cost)))
    return out + [("none", KIND_WORDS["none"])]


def _parry_reaches(arm) -> bool:
    """A parry meets melee and thrown attacks (L1063: «атак оружием ближнего боя, а также
    дистанционных атак достаточно медленными снарядами») and a power that needs a touch (L1155)."""
    if arm.kind == "power":
        return arm.delivery == "touch"
    return arm.kind in ("melee", "thrown")


def _can_parry(arm, target) -> bool:
    if arm.weapon is not None and arm.weapon.get("category") in BARE_HAND_PARRIES:
        return True
    for w in target.weapons:
        stats = weapon_stats(w)
        if stats["kind"] == "melee" or stats.get("can_parry"):
            return True
    return armour_at(target, "arms") is not None


def words(value: str) -> dict[str, str]:
    """A defence value's words for the log, without the character (``Dodge: Evasion``)."""
    kind, _, rest = value.partition(":")
    word = KIND_WORDS.get(kind, KIND_WORDS["none"])
    if not rest:
        param = DEFENCE_PARAMS.get(kind)
        return _param_choice(kind, param)[1] if param else dict(word)
    name = rest.partition(":")[2] or rest
    if kind == "mental" and ":" not in rest:
        return _param_choice("mental", rest)[1]
    return T(f"{word['en']}: {name}", f"{word['ru']}: {name}")


def defence_plan(target, value: str, *, luck: int, options: GmOptions, attack_cost: int = 0) -> DefencePlan:
    """The level roll of the defence ``value`` (one of :func:`defence_choices`' values, checked
    by the attack's options) with the target's Luck: a dodge or parry through the tray's own check
    (cover, conditions, a fitting ability); a mental defence; a power defence or dispel rolling the
    target's power (cover counts for a power defence, A55), its Sanity paid whatever the roll."""
    kind, _, rest = value.partition(":")
    if kind == "none":
        return DefencePlan("none", KIND_WORDS["none"], None)
    if kind in DEFENCE_PARAMS:
        p = plan(target, kind, {"luck": luck, **({"roll": rest} if rest else {})}, options=options)
        return DefencePlan(kind, words(value), LevelPlan.of(p))
    if kind == "mental":
        p = plan(target, "mental_defence", {"luck": luck, "param": rest}, options=options)
        return DefencePlan(kind, words(value), LevelPlan.of(p))
    a = target.ability(rest)
    if kind not in ("power", "dispel") or a is None or not is_power(target, a):
        raise RuleError("bad_defence", T(f"No defence {value!r}.", f"Нет защиты «{value}»."))
    roll = LevelPlan.of(plan(target, f"{a['kind']}:{a['name']}", {"luck": luck}, options=options))
    if kind == "power":
        cover = cover_bonus_on(target, "power", options=options)
        if cover:
            roll.bonus += cover
            roll.named.append(("cover", cover))
    cost = power_cost(target, a) if kind == "power" else max(1, int(attack_cost))  # L1076, L1085
    word = KIND_WORDS[kind]
    roll.label = T(f"{word['en']}: {a['name']}", f"{word['ru']}: {a['name']}")
    return DefencePlan(kind, roll.label, roll, cost)
