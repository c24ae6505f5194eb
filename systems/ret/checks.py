"""Every roll of spec §5 as a named check: parameter, skill, talent and ultimate rolls, fixed
difficulties, contests, the divider, survival, self-control, Sanity tests, state and flaw
resistance, choice rolls — rolled (with an injected rng) or as exact distributions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, CheckSpec, Effect, OptionSpec, RuleError, T
from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.dice import Distribution
from tabletop_widgets.dice.results import Check, Die
from tabletop_widgets.dice.words import word_result

from . import data
from .level import LevelRoll, chance_at_least, die_label, level_roll, roll_outcomes
from .model import ability_divider
from .params import PARAMS, TREE_ORDER, in_branch, label, tier

#: Key under which fails are kept in total distributions (a fail has no total, L531).
FAIL_KEY = -1000

OUTCOMES = {
    "passed_with_success": T("passed with success", "пройдена с успехом"),
    "passed": T("passed", "пройдена"),
    "not_passed": T("not passed", "не пройдена"),
    "failed": T("failed", "провалена"),
    "critically_failed": T("critically failed", "критически провалена"),
}


def difficulties() -> dict[str, int]:
    return {r["id"]: r["threshold"] for r in data.table("difficulties")}


def resolve_difficulty(value: Any) -> int | None:
    """An int, or a preset name (``"medium"``, ``"Средняя"``) -> threshold (L507-515)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RuleError(
            "bad_difficulty", T("difficulty must be a number or a preset name", "сложность — число или название")
        )
    if isinstance(value, int):
        return value
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    for r in data.table("difficulties"):
        if text in (r["id"], r["en"].lower().replace(" ", "_"), r["ru"].lower()):
            return r["threshold"]
    try:
        return int(text)
    except ValueError:
        raise RuleError(
            "bad_difficulty",
            T(
                f"unknown difficulty {value!r}: use a number or one of {', '.join(difficulties())}",
                f"неизвестная сложность {value!r}: число или одно из {', '.join(difficulties())}",
            ),
        ) from None


# ---------------------------------------------------------------------------------------------
# The divider (spec §5.7)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Divider:
    d: int
    base: int

    def __str__(self) -> str:
        return f"{self.d} (+{self.base})"


def divider_presets() -> dict[str, Divider]:
    return {r["id"]: Divider(r["d"], r["base"]) for r in data.table("dividers")}


def resolve_divider(value: Any) -> Divider:
    """A Divider, ``(d, base)``, ``"normal"``/``"strict"``/``"generous"`` or ``"4+2"``."""
    if isinstance(value, Divider):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2:
        d, b = int(value[0]), int(value[1])
    elif isinstance(value, str) and value.strip().lower() in divider_presets():
        return divider_presets()[value.strip().lower()]
    elif isinstance(value, str) and "+" in value:
        a, _, b_ = value.partition("+")
        d, b = int(a.strip().strip("(")), int(b_.strip().strip(")"))
    else:
        raise RuleError(
            "bad_divider",
            T(
                "divider: a preset (strict/normal/generous) or D and base",
                "делитель: строгий/обычный/щедрый или D и основа",
            ),
        )
    if d < 1 or b < 0:
        raise RuleError("bad_divider", T("divider D must be >= 1 and base >= 0", "делитель D >= 1, основа >= 0"))
    return Divider(d, b)


def apply_divider(total: int | None, divider: Divider, *, fail: bool = False, on_fail: str = "zero") -> int:
    """``max(0, total) // D + base`` (L634-636); a fail gives 0 (or the base, A10)."""
    if fail or total is None:
        return divider.base if on_fail == "base" else 0
    return max(0, total) // divider.d + divider.base


# ---------------------------------------------------------------------------------------------
# Modifiers from the sheet: conditions, armour penalties (spec §5.3, §6.13, §8.10)
# ---------------------------------------------------------------------------------------------
def _cond_catalogue() -> dict[str, dict]:
    return {r["id"]: r for r in data.table("conditions")}


def auto_modifiers(
    c, param: str, role: str = "roll", *, skip: tuple[str, ...] = ()
) -> tuple[int, int, list[tuple[str, int]]]:
    """(die-level shift, flat bonus, named flat parts) that the character's conditions and
    armour put on a roll of ``param`` (role ``roll``/``attack``/``defence``)."""
    cat = _cond_catalogue()
    shift, flat, named = 0, 0, []
    for inst in c.conditions:
        cid = inst.get("id")
        if cid in skip:
            continue
        spec = cat.get(cid, {})
        scopes = inst.get("scope", spec.get("scope", []))
        hit = False
        for s in scopes:
            if s == "all" or s == role:
                hit = True
            elif s.startswith("branch:") and in_branch(param, s[7:]):
                hit = True
            elif s.startswith("defence:") and role == "defence" and in_branch(param, s[8:]):
                hit = True
        if not hit:
            continue
        shift += int(inst.get("shift", spec.get("shift", 0)))
        f = int(inst.get("flat", spec.get("flat", 0)))
        if f:
            flat += f
            named.append((cid, f))
    # armour penalty on the Agility branch: the worst worn piece, never stacked (L1383, L1409-1412)
    if in_branch(param, "agility"):
        pen = min((int(p.get("penalty", 0)) for p in c.armour if p.get("worn", True)), default=0)
        if pen:
            flat += pen
            named.append(("armour", pen))
    return shift, flat, named


# ---------------------------------------------------------------------------------------------
# Roll plans: what a check id rolls
# ---------------------------------------------------------------------------------------------
@dataclass
class RollPlan:
    check_id: str
    label: dict
    kind: str = "level"  # "level" or "choice"
    level: int = 3
    bonus: int = 0
    luck: int = 0
    shift: int = 0
    bonuses: list = field(default_factory=list)
    difficulty: int | None = None
    notation: str = ""
    special: str = ""  # survival / self_control / sanity_test / flaw / ultimate ...
    extra: dict = field(default_factory=dict)


def _ability_label(a: Mapping[str, Any]) -> dict:
    kind = {"skill": T("Skill", "Навык"), "talent": T("Talent", "Талант"), "ultimate": T("Ultimate", "Ультимативная")}[
        a["kind"]
    ]
    return T(f"{kind['en']}: {a['name']}", f"{kind['ru']}: {a['name']}")


RESIST = {  # condition -> (roll, threshold node) (spec §5.11)
    "unconscious": ("perception", "mind"),
    "rage": ("perception", "mind"),
    "doom": ("will", "emotions"),
    "panic": ("composure", "emotions"),
    "stunned": ("composure", "emotions"),
    "coma": ("endurance", "body"),
    "sudden_death": ("endurance", "body"),
    "trauma": ("endurance", "body"),
    "disease": ("endurance", "body"),
    "mind_control": ("perception", "mind"),
}

#: The tree's tiers as the book numbers them: «I уровень вложенности» (L49).
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}

#: A resisted state whose catalogue entry has another id.
_RESIST_CONDITION = {"mind_control": "mind_controlled"}

CHOICE_TABLES = {
    "loss_of_control": (6, T("Loss of control (d6)", "Потеря контроля (d6)")),
    "fail_die": (4, T("Fail die (d4)", "Куб провала (d4)")),
    "talent_level_d6": (6, T("New talent level (d6)", "Уровень нового таланта (d6)")),
    "new_skill_level_d6": (6, T("New skill level (d6)", "Уровень нового навыка (d6)")),
}

DEFENCES = {"dodge": ("agility", T("Dodge", "Уклонение")), "parry": ("strength", T("Parry", "Парирование"))}
MENTAL = {
    "mental_defence": ("will", "intellect", "perception"),
    "psych_resist": ("empathy", "intellect", "will", "composure"),
}
ATTACKS = {
    "attack_melee": ("physique", T("Melee attack", "Атака в ближнем бою")),
    "attack_ranged": ("fine_motor", T("Ranged attack", "Дистанционная атака")),
}


def _int_opt(options: Mapping[str, Any], name: str, default: int = 0) -> int:
    v = options.get(name, default)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        try:
            v = int(v)
        except (TypeError, ValueError):
            raise RuleError(
                "bad_option", T(f"option {name} must be a whole number", f"параметр {name} должен быть целым числом")
            ) from None
    return v


def plan(c, check_id: str, options: Mapping[str, Any], rules: Mapping[str, Any]) -> RollPlan:
    """Resolve ``check_id`` + options into what is rolled (no dice yet), with an optional token
    (spec §7.6: a flat bonus or +N die levels on the next related roll, L1476, L1483)."""
    p = _plan(c, check_id, options, rules)
    name = options.get("token")
    if name:
        tok = next((t for t in c.tokens if t.get("name") == name), None)
        if tok is None:
            raise RuleError("no_token", T(f"No token named {name}.", f"Нет токена «{name}»."))
        if p.kind == "choice" or p.special == "flaw":
            raise RuleError(
                "token_not_here", T("Tokens do not apply to this roll.", "Токен к этому броску не применяется.")
            )
        targets = tok.get("applies_to") or []
        if isinstance(targets, str):
            targets = [t.strip() for t in targets.split(",") if t.strip()]
        param = p.extra.get("param")
        ability = (p.extra.get("ability") or {}).get("name")
        if targets and not any(t == ability or (param and in_branch(param, t)) or t == check_id for t in targets):
            raise RuleError(
                "token_not_here",
                T(
                    f"Token {name} applies to {', '.join(targets)} only.",
                    f"Токен «{name}» действует только на: {', '.join(targets)}.",
                ),
            )
        amount = int(tok.get("amount", 1))
        if tok.get("kind", "flat") == "die_level":
            p.shift += amount
        else:
            p.bonus += amount
            p.bonuses.append(("token", amount))
            p.notation = _notation(p.level, p.bonus)
        p.extra["token"] = name
    return p


def _plan(c, check_id: str, options: Mapping[str, Any], rules: Mapping[str, Any]) -> RollPlan:
    luck = _int_opt(options, "luck")
    if luck < 0:
        raise RuleError(
            "negative_luck", T("Luck declared cannot be negative", "заявленная Удача не может быть отрицательной")
        )
    bonus = _int_opt(options, "bonus")
    shift = _int_opt(options, "shift")
    use_auto = options.get("auto_modifiers", True)
    diff = resolve_difficulty(options.get("difficulty"))
    named: list[tuple[str, int]] = []
    if bonus:
        named.append(("bonus", bonus))

    def with_auto(param: str, role: str = "roll", skip=()):
        if not use_auto:
            return 0, 0
        s, f, parts = auto_modifiers(c, param, role, skip=skip)
        named.extend(parts)
        return s, f

    if check_id in CHOICE_TABLES:
        if luck:
            raise RuleError(
                "luck_on_choice", T("Luck cannot be used on choice rolls.", "Удачу нельзя добавлять к броскам выбора.")
            )
        faces, lab = CHOICE_TABLES[check_id]
        return RollPlan(
            check_id,
            lab,
            kind="choice",
            extra={"faces": faces, "in_combat": bool(options.get("in_combat", True))},
            notation=f"d{faces}",
        )

    if check_id in ("mental_defence", "psych_resist"):  # L1090-1111
        allowed = MENTAL[check_id]
        param = options.get("param") or allowed[0]
        if param not in allowed:
            raise RuleError(
                "bad_param",
                T(
                    f"{check_id} rolls one of {', '.join(allowed)}",
                    f"{check_id}: бросок одного из {', '.join(allowed)}",
                ),
            )
        if check_id == "mental_defence" and c.has_condition("defence_refused"):
            raise RuleError(
                "defence_refused",
                T(
                    "Defence refused: no mental defence.",  # L913
                    "Отказ от защиты: ментальная защита недоступна.",
                ),
            )  # L913
        s, f = with_auto(param, "defence")
        lab = (
            T("Mental defence", "Ментальная защита")
            if check_id == "mental_defence"
            else T("Psychological resistance", "Сопротивление психологическим воздействиям")
        )
        return RollPlan(
            check_id,
            lab,
            level=c.value(param),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=diff,
            notation=_notation(c.value(param), bonus + f),
            extra={"param": param},
        )
    if check_id in DEFENCES and c.has_condition("defence_refused"):
        raise RuleError(
            "defence_refused",
            T(
                "Defence refused: no defence rolls until your next turn.",
                "Отказ от защиты: защитных бросков нет до вашего следующего хода.",
            ),
        )
    if check_id == "parry" and c.has_condition("panic"):
        raise RuleError("panic_dodge_only", T("In panic only Dodge is allowed.", "В панике доступно только уклонение."))
    if check_id in PARAMS or check_id in DEFENCES or check_id in ATTACKS or check_id == "initiative":
        role = "roll"
        if check_id in DEFENCES:
            param, lab = DEFENCES[check_id]
            role = "defence"
        elif check_id in ATTACKS:
            param, lab = ATTACKS[check_id]
            role = "attack"
        elif check_id == "initiative":
            param, lab = "perception", T("Initiative", "Инициатива")
        else:
            param, lab = check_id, label(check_id)
        s, f = with_auto(param, role)
        if role == "attack" and use_auto and c.aim_bonus:
            f += c.aim_bonus
            named.append(("aim", c.aim_bonus))
        if (
            role == "defence"
            and use_auto
            and c.cover_bonus
            and (check_id == "parry" or not c.cover_shield_only)
            and (check_id == "dodge" or rules.get("cover_bonus_scope") != "dodge_only" or c.cover_shield_only)
        ):
            f += c.cover_bonus
            named.append(("cover", c.cover_bonus))
        return RollPlan(
            check_id,
            lab,
            level=c.value(param),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=diff,
            notation=_notation(c.value(param), bonus + f),
            extra={"param": param},
        )

    kind, _, name = check_id.partition(":")
    if kind in ("skill", "talent", "ultimate") and name:
        a = c.ability(name)
        if a is None or a.get("kind") != kind:
            raise RuleError("unknown_check", T(f"no {kind} named {name!r}", f"нет способности {name!r}"))
        if kind == "skill":  # L560-565
            base = a["base_param"]
            s, f = with_auto(base)
            named.insert(0, ("skill", a["level"]))
            return RollPlan(
                check_id,
                _ability_label(a),
                level=c.value(base),
                bonus=a["level"] + bonus + f,
                luck=luck,
                shift=shift + s,
                bonuses=named,
                difficulty=diff,
                notation=_notation(c.value(base), a["level"] + bonus + f),
                extra={"ability": a, "param": base},
            )
        if kind == "talent":  # L567-572
            base = a["base_param"]
            s, f = with_auto(base)
            named.insert(0, (base, c.value(base)))
            return RollPlan(
                check_id,
                _ability_label(a),
                level=a["level"],
                bonus=c.value(base) + bonus + f,
                luck=luck,
                shift=shift + s,
                bonuses=named,
                difficulty=diff,
                notation=_notation(a["level"], c.value(base) + bonus + f),
                extra={"ability": a, "param": base},
            )
        parent = c.ability(a.get("parent_talent") or "")  # L1211-1217
        if parent is None:
            raise RuleError(
                "ultimate_parent", T("the ultimate's parent talent is missing", "нет родительского таланта")
            )
        if a.get("used") and not options.get("ignore_used"):
            raise RuleError(
                "ultimate_used",
                T(f"{name} was already used this game session.", f"«{name}» уже применена в этой игровой сессии."),
            )
        base = parent["base_param"]
        s, f = with_auto(base)
        named[:0] = [("ultimate", a["level"]), (base, c.value(base))]
        b = a["level"] + c.value(base) + bonus + f
        return RollPlan(
            check_id,
            _ability_label(a),
            level=parent["level"],
            bonus=b,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=diff,
            special="ultimate",
            notation=_notation(parent["level"], b),
            extra={"ability": a, "param": base},
        )

    if check_id == "survival":  # L574-586
        if diff is None and c.health >= 0:
            raise RuleError(
                "no_survival_roll",
                T(
                    "No survival roll: Health is not below 0 (Health exactly 0 triggers nothing).",
                    "Бросок на выживание не нужен: Здоровье не ниже 0.",
                ),
            )
        d = diff if diff is not None else -int(c.health)
        s, f = with_auto("endurance")
        return RollPlan(
            check_id,
            T("Survival roll", "Бросок на выживание"),
            level=c.value("endurance"),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=d,
            special="survival",
            notation=_notation(c.value("endurance"), bonus + f),
            extra={"explicit_difficulty": diff is not None},
        )
    if check_id == "self_control":  # L594-630
        if diff is None and c.sanity >= 0:
            raise RuleError(
                "no_self_control_roll",
                T(
                    "No self-control roll: Sanity is not below 0.",
                    "Бросок на самоконтроль не нужен: Рассудок не ниже 0.",
                ),
            )
        d = diff if diff is not None else -int(c.sanity)
        s, f = with_auto("composure")
        return RollPlan(
            check_id,
            T("Self-control roll", "Бросок на самоконтроль"),
            level=c.value("composure"),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=d,
            special="self_control",
            notation=_notation(c.value("composure"), bonus + f),
            extra={"in_combat": bool(options.get("in_combat", True)), "explicit_difficulty": diff is not None},
        )
    if check_id == "sanity_test":  # L588-592
        param = options.get("param") or "composure"
        if param not in PARAMS:
            raise RuleError("bad_param", T(f"unknown parameter {param!r}", f"неизвестный параметр {param!r}"))
        s, f = with_auto(param)
        harm = _int_opt(options, "harm")
        div = resolve_divider(options.get("divider", "normal"))
        return RollPlan(
            check_id,
            T("Sanity test", "Испытание рассудка"),
            level=c.value(param),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s,
            bonuses=named,
            difficulty=None,
            special="sanity_test",
            notation=_notation(c.value(param), bonus + f),
            extra={"harm": harm, "divider": div, "param": param},
        )
    if kind == "flaw" and name:  # L1656-1670: a CLEAN roll
        fl = next((f for f in c.flaws if f.get("name") == name), None)
        if fl is None:
            raise RuleError("unknown_check", T(f"no flaw named {name!r}", f"нет недостатка {name!r}"))
        base = fl.get("base_param", "composure")
        return RollPlan(
            check_id,
            T(f"Resist flaw: {name}", f"Сопротивление недостатку: {name}"),
            level=c.value(base),
            bonus=0,
            luck=luck,
            shift=shift,
            bonuses=[],
            difficulty=flaw_difficulty(fl, c.sanity),
            special="flaw",
            notation=_notation(c.value(base), 0),
            extra={"flaw": fl, "param": base},
        )
    if kind == "resist" and name in RESIST:  # spec §5.11
        if options.get("first_turn") and not rules.get("resist_on_first_turn", True):
            raise RuleError(
                "resist_first_turn",
                T(
                    "The GM does not allow resisting a state on the first turn after gaining it.",
                    "Мастер не разрешает сопротивляться состоянию в первый ход после его получения.",
                ),
            )
        param, thr = RESIST[name]
        skip = ()
        extra_shift = 0
        if name == "stunned":  # the -1 of Stun applies once, to this roll too (L1568)
            skip, extra_shift = ("stunned",), -1
        s, f = with_auto(param, skip=skip)
        d = diff if diff is not None else c.value(thr)
        cat = _cond_catalogue().get(_RESIST_CONDITION.get(name, name), {})
        return RollPlan(
            check_id,
            T(f"Resist: {cat.get('en', name)}", f"Сопротивление: {cat.get('ru', name)}"),
            level=c.value(param),
            bonus=bonus + f,
            luck=luck,
            shift=shift + s + extra_shift,
            bonuses=named,
            difficulty=d,
            special="resist",
            notation=_notation(c.value(param), bonus + f),
            extra={"condition": name, "param": param},
        )
    raise RuleError("unknown_check", T(f"ret: no check named {check_id!r}", f"ret: нет проверки {check_id!r}"))


def _notation(level: int, bonus: int) -> str:
    return f"L{level}" + (f"{bonus:+d}" if bonus else "")


def flaw_difficulty(flaw: Mapping[str, Any], sanity: int) -> int:
    """strength - current Sanity - flaw level (L1660); strength 12/15/20 by severity (L1668-1670)."""
    from .model import FLAW_SEVERITIES

    strength = flaw.get("strength")
    if strength is None:
        strength = FLAW_SEVERITIES[flaw.get("severity", "light")]
    return int(strength) - int(sanity) - int(flaw.get("level", 1))


# ---------------------------------------------------------------------------------------------
# Outcome of a level roll against a difficulty (spec §5.5) and contests (spec §5.6)
# ---------------------------------------------------------------------------------------------
def outcome_code(res: LevelRoll, difficulty: int | None) -> str | None:
    if res.fail:
        return "critically_failed" if res.critical else "failed"
    if difficulty is None:
        return None
    if res.total >= difficulty:  # equality passes (L517, L576)
        return "passed_with_success" if res.natural_success else "passed"
    return "not_passed"


def contest(att: LevelRoll | None, dfn: LevelRoll | None, rules: Mapping[str, Any] | None = None) -> str:
    """'attacker' or 'defender'; ties and equal fail dice go to the defender (L502, L534, L1047)."""
    rules = rules or {}
    if att is None:
        return "defender"
    if dfn is None:  # defence refused (L769, L1046)
        return "defender" if att.fail else "attacker"
    if att.fail and dfn.fail:
        if not rules.get("double_fail_attack_can_hit", True):
            return "defender"
        return "attacker" if att.fail_degree > dfn.fail_degree else "defender"
    if att.fail:
        return "defender"
    if dfn.fail:
        return "attacker"
    return "attacker" if att.total > dfn.total else "defender"


def _score_dist(outcomes: Mapping[tuple, Fraction]) -> dict[tuple, Fraction]:
    """Collapse outcomes to comparable scores: (0, d4) for fails, (1, total) otherwise."""
    out: dict[tuple, Fraction] = {}
    for o, p in outcomes.items():
        key = (0, o[1]) if o[0] == "fail" else (1, o[1])
        out[key] = out.get(key, 0) + p
    return out


def contest_chance(
    att: Mapping[str, Any], dfn: Mapping[str, Any] | None, rules: Mapping[str, Any] | None = None
) -> Fraction:
    """Exact P(attacker wins); ``att``/``dfn`` are ``level_roll`` keyword dicts (``dfn`` None:
    defence refused)."""
    rules = rules or {}
    a_out, _ = roll_outcomes(rules=rules, **att)
    a = _score_dist(a_out)
    if dfn is None:
        return sum((p for k, p in a.items() if k[0] == 1), Fraction(0))
    d_out, _ = roll_outcomes(rules=rules, **dfn)
    d = _score_dist(d_out)
    can_hit = rules.get("double_fail_attack_can_hit", True)
    win = Fraction(0)
    for ka, pa in a.items():
        for kd, pd in d.items():
            if ka[0] == 0 and kd[0] == 0:
                ok = can_hit and ka[1] > kd[1]
            else:
                ok = ka > kd
            if ok:
                win += pa * pd
    return win


# ---------------------------------------------------------------------------------------------
# Rolling
# ---------------------------------------------------------------------------------------------
def roll_result_for(
    res: LevelRoll,
    expression: str,
    *,
    check: Check | None = None,
    notes=(),
    extra_dice=(),
    breakdown=None,
    total: int | None = None,
    successes: int | None = None,
    extra_details=None,
    show_total: bool | None = None,
):
    """The dice engine's RollResult for a level roll (built with ``word_result``). A fail has no
    total (spec §5.1), so by default its rendering stops at the fail degree."""
    dice = []
    for i, (faces, face) in enumerate(res.chain):
        nxt = i + 1 < len(res.chain)
        d = Die(
            faces=faces,
            value=face,
            exploded=nxt,
            added_by="explode" if i else None,
            crit="success" if face == faces and not (i == 0 and faces == 1) else None,
        )
        if i == 0 and res.fail:
            d.crit = "failure"
        dice.append(d)
    if res.fail:
        dice.append(
            Die(
                faces=4,
                value=res.fail_degree,
                note="✗",  # the fail die: a sign, no language
                crit="failure" if res.critical else None,
            )
        )
    details = {
        "level": res.level,
        "chain": list(res.chain),
        "fail": res.fail,
        "fail_degree": res.fail_degree,
        "critical": res.critical,
        "successes": res.successes,
        "terminal_max": res.terminal_max,
        "luck": res.luck,
    }
    dice.extend(extra_dice)
    details.update(extra_details or {})
    if total is None:
        total = res.total if res.total is not None else 0
    # the engine appends "= total" itself (dice/words.py), so the word's breakdown stops before it
    if show_total is None:
        show_total = not res.fail
    return word_result(
        expression,
        "L",
        total,
        dice,
        breakdown or res.breakdown(with_total=False),
        check=check,
        successes=successes,
        notes=list(notes),
        details=details,
        show_total=show_total,
    )


def level_dice(res: LevelRoll) -> list:
    """The Die objects of a level roll (first die, explosions, fail die)."""
    return list(roll_result_for(res, "").tree.rolled)


def _check_of(res: LevelRoll, op: str, target: int | None) -> Check | None:
    if target is None:
        return None
    total = res.total if res.total is not None else 0
    passed = (not res.fail) and total >= target
    return Check(op=op, target=int(target), passed=passed, margin=total - int(target))


def roll(
    c, check_id: str, options: Mapping[str, Any], rules: Mapping[str, Any], rng: random.Random | None = None
) -> CheckResult:
    rng = rng if rng is not None else random.Random()
    p = plan(c, check_id, options, rules)
    if p.kind == "choice":
        return _roll_choice(c, p, rng)
    if p.luck > (c.luck or 0) and not options.get("ignore_pool"):
        raise RuleError(
            "not_enough_luck", T(f"You only have {c.luck} Luck.", f"Удачи не хватает: у вас {c.luck}."), have=c.luck
        )
    threshold = _threshold_outcome(c, p, rules)
    if threshold is not None:
        return threshold
    res = level_roll(
        p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, rng=rng, rules=rules, bonuses=[b for b in p.bonuses]
    )
    code = outcome_code(res, p.difficulty)
    effects: list[Effect] = []
    if res.luck_spent:
        effects.append(Effect("luck", -res.luck_spent, T("Luck declared", "заявленная Удача")))
    if res.luck_gained:
        effects.append(
            Effect(
                "luck",
                res.luck_gained,
                T(
                    "Luck for a critical fail" if res.critical else "Luck for a fail",
                    "Удача за критический провал" if res.critical else "Удача за провал",
                ),
            )
        )
    gain_trait = "health" if p.special == "survival" else "sanity"
    if res.sanity_gained:  # L541-542
        effects.append(
            Effect(
                gain_trait,
                res.sanity_gained,
                T(
                    "success dice" if gain_trait == "sanity" else "success dice (survival)",
                    "кубы успеха" if gain_trait == "sanity" else "кубы успеха (выживание)",
                ),
            )
        )
    expr = (
        p.notation
        + (f" luck {p.luck}" if p.luck else "")
        + (f" dl{p.shift:+d}" if p.shift else "")
        + (f" >= {p.difficulty}" if p.difficulty is not None else "")
    )
    result = CheckResult(
        check_id=check_id,
        label=p.label,
        success=None if code is None else code.startswith("passed"),
        total=res.total,
        roll=None,
        margin=(res.total - p.difficulty) if (res.total is not None and p.difficulty is not None) else None,
        degree=code,
        degree_label=OUTCOMES.get(code) if code else None,
        critical="failure" if res.critical else ("success" if res.natural_success else None),
        effects=effects,
        options=dict(options),
        details={
            "level_roll": res,
            "level": res.level,
            "die": die_label(res.level),
            "chain": res.chain,
            "fail": res.fail,
            "fail_degree": res.fail_degree,
            "successes": res.successes,
            "terminal_max": res.terminal_max,
            "difficulty": p.difficulty,
            "param": p.extra.get("param"),
        },
    )
    result.roll = roll_result_for(res, expr, check=_check_of(res, ">=", p.difficulty))
    _special(c, p, res, result, rules, rng)
    if not result.outcome:
        result.outcome = _verdict(res, code)
    return result


def _verdict(res: LevelRoll, code: str | None) -> dict:
    if res.fail:
        return T(
            "critical fail" if res.critical else f"fail {res.fail_degree}",
            "крит. провал" if res.critical else f"провал {res.fail_degree}",
        )
    base = T(f"total {res.total}", f"итог {res.total}")
    if code:
        base = T(f"{res.total}: {OUTCOMES[code]['en']}", f"{res.total}: {OUTCOMES[code]['ru']}")
    if res.successes:
        base = T(
            base["en"] + f" (+{res.successes} success)",
            base["ru"] + f" (+{ru_n(res.successes, 'успех', 'успеха', 'успехов')})",
        )
    return base


def _threshold_outcome(c, p: RollPlan, rules) -> CheckResult | None:
    """Past -3 x max the outcome is guaranteed, no roll (L325, L341, A21)."""
    mult = rules.get("threshold_multiplier")
    if not mult or p.special not in ("survival", "self_control") or p.extra.get("explicit_difficulty"):
        return None
    cur, mx, outcome = (
        ("health", c.health_max, rules.get("health_threshold_outcome", "dead"))
        if p.special == "survival"
        else ("sanity", c.sanity_max, rules.get("sanity_threshold_outcome", "coma"))
    )
    if getattr(c, cur) >= -mult * mx:
        return None
    state = T("final death", "окончательная смерть") if outcome == "dead" else T("coma", "кома")
    return CheckResult(
        check_id=p.check_id,
        label=p.label,
        success=False,
        total=None,
        outcome=T(f"beyond −{mult}×max: {state['en']}", f"за порогом −{mult}×макс.: {state['ru']}"),
        details={
            "state": outcome,
            "threshold": -mult * mx,
            "add_conditions": [outcome],
            "set": {"dead": True} if outcome == "dead" else {},
        },
    )


def _special(c, p: RollPlan, res: LevelRoll, result: CheckResult, rules, rng) -> None:
    det = result.details
    if p.special == "ultimate":
        det["set_ability_used"] = p.extra["ability"]["name"]
    if p.extra.get("token"):
        det["use_token"] = p.extra["token"]  # one-shot (L1474)
    a = p.extra.get("ability")
    if a and a.get("is_superpower"):  # L1158; spent even on a fail (A44)
        extra = _int_opt(result.options, "extra_sanity")
        cost = int(a.get("sanity_cost") or 1) + extra
        if not res.fail or rules.get("power_sanity_spent_on_fail", True):
            result.effects.append(Effect("sanity", -cost, T("superpower cost", "цена сверхспособности")))
        fixed = ability_divider(a)
        if fixed:
            div = Divider(fixed[0], fixed[1] + extra)  # boost: +1 base per Sanity (L1209)
            det["divider"] = div
            det["magnitude"] = apply_divider(
                res.total, div, fail=res.fail, on_fail=rules.get("divider_on_fail", "zero")
            )
    if p.special == "survival":
        if not res.fail and res.total >= p.difficulty:
            det["state"] = "stabilised"
            det["set"] = {"stabilised_health": True}
            result.outcome = T(
                f"{res.total} ≥ {p.difficulty}: stabilised", f"{res.total} ≥ {p.difficulty}: стабилизирован"
            )
        elif res.fail and res.critical and rules.get("crit_survival_is_death", True):
            det["state"] = "dead"
            det["set"] = {"dead": True}
            det["add_conditions"] = ["dead"]
            result.outcome = T("critical fail: final death", "крит. провал: окончательная смерть")
        else:
            det["state"] = "coma"
            det["add_conditions"] = ["coma"]
            if res.fail:
                det["gm_may_add"] = "serious_trauma"  # L581
            result.outcome = T("coma", "кома")
    elif p.special == "self_control":
        if not res.fail and res.total >= p.difficulty:
            det["state"] = "stabilised"
            det["set"] = {"stabilised_sanity": True}
            result.outcome = T(
                f"{res.total} ≥ {p.difficulty}: stabilised", f"{res.total} ≥ {p.difficulty}: стабилизирован"
            )
        elif (
            res.fail
            and res.critical
            and (p.extra["in_combat"] or rules.get("noncombat_crit_self_control", "coma") == "coma")
        ):
            det["state"] = "coma"
            det["add_conditions"] = ["coma"]
            result.outcome = T("critical fail: coma", "крит. провал: кома")
        else:
            table = "combat" if p.extra["in_combat"] else "noncombat"
            d6 = 1 if res.fail and res.critical else rng.randint(1, 6)  # choice roll, no Luck (L606)
            row = next(r for r in data.table("loss_of_control") if r["table"] == table and r["d6"] == d6)
            det["loss_of_control_d6"] = d6
            det["state"] = row["state"]
            det["add_conditions"] = [row["state"]]
            result.outcome = T(f"loss of control (d6 {d6}): {row['en']}", f"потеря контроля (d6 {d6}): {row['ru']}")
            result.roll.tree.rolled.append(Die(faces=6, value=d6, note="loss of control"))
    elif p.special == "sanity_test":
        div = p.extra["divider"]
        mitigation = apply_divider(res.total, div, fail=res.fail, on_fail=rules.get("divider_on_fail", "zero"))
        loss = max(0, p.extra["harm"] - mitigation)  # clamp at 0 (text silent)
        det.update(mitigation=mitigation, loss=loss, harm=p.extra["harm"], divider=div)
        if loss:
            result.effects.append(Effect("sanity", -loss, T("Sanity test loss", "потеря Рассудка")))
        result.success = loss == 0
        result.outcome = T(f"mitigation {mitigation}: Sanity −{loss}", f"смягчение {mitigation}: Рассудок −{loss}")
    elif p.special == "resist":
        det["condition"] = p.extra["condition"]
        if result.success:
            det["remove_conditions"] = [p.extra["condition"]]


def _roll_choice(c, p: RollPlan, rng) -> CheckResult:
    faces = p.extra["faces"]
    v = rng.randint(1, faces)
    det: dict[str, Any] = {"value": v}
    if p.check_id == "loss_of_control":
        table = "combat" if p.extra["in_combat"] else "noncombat"
        row = next(r for r in data.table("loss_of_control") if r["table"] == table and r["d6"] == v)
        det.update(state=row["state"], add_conditions=[row["state"]])
        outcome = T(row["en"], row["ru"])
    elif p.check_id == "fail_die":
        outcome = T("critical fail" if v == 1 else f"fail {v}", "крит. провал" if v == 1 else f"провал {v}")
        det["critical"] = v == 1
    else:
        from .advancement import new_skill_level_from_d6, talent_level_from_d6

        lv = talent_level_from_d6(v) if p.check_id == "talent_level_d6" else new_skill_level_from_d6(v)
        det["level"] = lv
        outcome = T(f"level {lv}", f"уровень {lv}")
    rr = word_result(f"d{faces}", "choice", v, [Die(faces=faces, value=v)], T(f"d{faces}: {v}", f"d{faces}: {v}"))
    return CheckResult(check_id=p.check_id, label=p.label, success=None, total=v, roll=rr, outcome=outcome, details=det)


# ---------------------------------------------------------------------------------------------
# Exact distributions (spec §5.14)
# ---------------------------------------------------------------------------------------------
def distribution(c, check_id: str, options: Mapping[str, Any], rules: Mapping[str, Any]) -> Distribution:
    p = plan(c, check_id, options, rules)
    if p.kind == "choice":
        n = p.extra["faces"]
        return Distribution({v: Fraction(1, n) for v in range(1, n + 1)}, expression=f"d{n}")
    if _threshold_outcome(c, p, rules) is not None:  # guaranteed outcome, no roll
        return Distribution(
            {FAIL_KEY: Fraction(1)}, p_pass=Fraction(0), expression=p.notation, special={FAIL_KEY: T("fail", "провал")}
        )
    outcomes, cut = roll_outcomes(p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, rules=rules)
    if p.special == "sanity_test":
        div, harm = p.extra["divider"], p.extra["harm"]
        on_fail = rules.get("divider_on_fail", "zero")
        pmf: dict[int, Fraction] = {}
        for o, q in outcomes.items():
            mit = apply_divider(None if o[0] == "fail" else o[1], div, fail=o[0] == "fail", on_fail=on_fail)
            loss = max(0, harm - mit)
            pmf[loss] = pmf.get(loss, 0) + q
        return Distribution(
            pmf, truncated_mass=cut, p_pass=pmf.get(0, Fraction(0)), expression=p.notation, outcome="sanity_loss"
        )
    pmf = {}
    for o, q in outcomes.items():
        k = FAIL_KEY if o[0] == "fail" else o[1]
        pmf[k] = pmf.get(k, 0) + q
    p_pass = None
    if p.difficulty is not None:
        p_pass = sum((q for o, q in outcomes.items() if o[0] == "ok" and o[1] >= p.difficulty), Fraction(0))
    return Distribution(
        pmf,
        truncated_mass=cut,
        p_pass=p_pass,
        expression=p.notation,
        outcome="total",
        notes=[T(f"key {FAIL_KEY} = fail (no total)", f"ключ {FAIL_KEY} = провал (без итога)")],
        special={FAIL_KEY: T("fail", "провал")},
    )


def outcome_distribution(c, check_id: str, options: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Fraction]:
    """P of each of the five outcomes of spec §5.5 (difficulty required)."""
    p = plan(c, check_id, options, rules)
    if p.difficulty is None:
        raise RuleError("no_difficulty", T("a difficulty is needed", "нужна сложность"))
    outcomes, _ = roll_outcomes(p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, rules=rules)
    out = {k: Fraction(0) for k in OUTCOMES}
    for o, q in outcomes.items():
        if o[0] == "fail":
            out["critically_failed" if o[1] == 1 else "failed"] += q
        elif o[1] >= p.difficulty:
            out["passed_with_success" if (o[2] > 0 or o[3]) else "passed"] += q
        else:
            out["not_passed"] += q
    return out


# ---------------------------------------------------------------------------------------------
# The check catalogue the tray offers
# ---------------------------------------------------------------------------------------------
def _common_options(c, *, difficulty=True, luck=True) -> list[OptionSpec]:
    opts = []
    if difficulty:
        opts.append(
            OptionSpec(
                "difficulty",
                T("Difficulty", "Сложность"),
                "int",
                None,
                -10,
                200,
                choices=tuple(
                    (r["threshold"], T(f"{r['en']} ({r['threshold']})", f"{r['ru']} ({r['threshold']})"))
                    for r in data.table("difficulties")
                ),
                help=T("total ≥ difficulty passes", "итог ≥ сложности — проверка пройдена"),
            )
        )
    if luck:
        opts.append(
            OptionSpec(
                "luck",
                T("Luck (declared before the roll)", "Удача (заявляется до броска)"),
                "int",
                0,
                0,
                max(0, c.luck or 0),
                help=T("burnt on a fail", "сгорает при провале"),
            )
        )
    opts.append(OptionSpec("bonus", T("Situational bonus", "Ситуативный бонус"), "int", 0, -20, 50))
    opts.append(
        OptionSpec(
            "shift",
            T("Die-level shift", "Сдвиг уровня куба"),
            "int",
            0,
            -8,
            8,
            help=T("penalties add up; the level is clamped to 0..8", "штрафы складываются; уровень ограничен 0..8"),
        )
    )
    if c.tokens:
        opts.append(
            OptionSpec(
                "token",
                T("Use a token", "Использовать токен"),
                "choice",
                "",
                choices=(("", T("none", "нет")),) + tuple((t["name"], T(t["name"], t["name"])) for t in c.tokens),
            )
        )
    return opts


def catalogue(c) -> list[CheckSpec]:
    out: list[CheckSpec] = []
    g_params = T("Parameters", "Параметры")
    common = _common_options(c)
    for node in TREE_ORDER:
        lv = c.value(node)
        out.append(
            CheckSpec(
                node,
                label(node),
                common,
                group=g_params,
                notation=f"L{lv}",
                help=T(
                    f"tier {tier(node)}: {die_label(lv)}", f"{_ROMAN[tier(node)]} уровень вложенности: {die_label(lv)}"
                ),
            )
        )
    g_ab = T("Abilities", "Способности")
    for a in c.abilities:
        cid = f"{a['kind']}:{a['name']}"
        try:
            p = plan(c, cid, {}, {})
        except RuleError:
            continue
        opts = list(common)
        if a.get("is_superpower"):
            opts.append(
                OptionSpec("extra_sanity", T("Extra Sanity (boost)", "Доп. Рассудок (усиление)"), "int", 0, 0, 20)
            )
        out.append(CheckSpec(cid, _ability_label(a), opts, group=g_ab, notation=p.notation))
    g_combat = T("Combat", "Бой")
    for cid, (param, lab) in {**DEFENCES, **ATTACKS}.items():
        out.append(CheckSpec(cid, lab, common, group=g_combat, notation=f"L{c.value(param)}"))
    for cid, params in MENTAL.items():
        lab = (
            T("Mental defence", "Ментальная защита")
            if cid == "mental_defence"
            else T("Psychological resistance", "Сопротивление психологическим воздействиям")
        )
        out.append(
            CheckSpec(
                cid,
                lab,
                common
                + [
                    OptionSpec(
                        "param", T("Roll", "Бросок"), "choice", params[0], choices=tuple((x, label(x)) for x in params)
                    )
                ],
                group=g_combat,
                notation=f"L{c.value(params[0])}",
            )
        )
    out.append(
        CheckSpec(
            "initiative",
            T("Initiative", "Инициатива"),
            _common_options(c, difficulty=False),
            group=g_combat,
            notation=f"L{c.perception}",
        )
    )
    g_surv = T("Survival and Sanity", "Выживание и рассудок")
    out.append(
        CheckSpec(
            "survival",
            T("Survival roll", "Бросок на выживание"),
            _common_options(c, difficulty=False),
            group=g_surv,
            notation=f"L{c.value('endurance')} >= {max(0, -(c.health or 0))}",
            help=T("Endurance vs |Health| when Health < 0", "Выносливость против |Здоровья| при Здоровье < 0"),
        )
    )
    out.append(
        CheckSpec(
            "self_control",
            T("Self-control roll", "Бросок на самоконтроль"),
            _common_options(c, difficulty=False) + [OptionSpec("in_combat", T("In combat", "В бою"), "bool", True)],
            group=g_surv,
            notation=f"L{c.value('composure')} >= {max(0, -(c.sanity or 0))}",
        )
    )
    out.append(
        CheckSpec(
            "sanity_test",
            T("Sanity test", "Испытание рассудка"),
            _common_options(c, difficulty=False)
            + [
                OptionSpec("harm", T("Sanity harm", "Вред Рассудку"), "int", 0, 0, 200),
                OptionSpec(
                    "param",
                    T("Roll", "Бросок"),
                    "choice",
                    "composure",
                    choices=tuple((x, label(x)) for x in ("composure", "will")),
                ),
                OptionSpec(
                    "divider",
                    T("Divider", "Делитель"),
                    "choice",
                    "normal",
                    choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.table("dividers")),
                    gm_only=True,
                ),
            ],
            group=g_surv,
        )
    )
    for f in c.flaws:
        out.append(
            CheckSpec(
                f"flaw:{f['name']}",
                T(f"Resist flaw: {f['name']}", f"Сопротивление: {f['name']}"),
                _common_options(c, difficulty=False)[:1],
                group=g_surv,
            )
        )
    g_res = T("Resist a state", "Сопротивление состоянию")
    cat = _cond_catalogue()
    for cond, (param, thr) in RESIST.items():
        labels = cat[_RESIST_CONDITION.get(cond, cond)]
        out.append(
            CheckSpec(
                f"resist:{cond}",
                T(f"Resist: {labels['en']}", f"Сопротивление: {labels['ru']}"),
                _common_options(c),
                group=g_res,
                help=T(
                    f"{label(param)['en']} vs {label(thr)['en']} ({c.value(thr)})",
                    f"{label(param)['ru']} против {label(thr)['ru']} ({c.value(thr)})",
                ),
            )
        )
    g_choice = T("Choice rolls (no Luck)", "Броски выбора (без Удачи)")
    for cid, (faces, lab) in CHOICE_TABLES.items():
        opts = [OptionSpec("in_combat", T("In combat", "В бою"), "bool", True)] if cid == "loss_of_control" else []
        out.append(CheckSpec(cid, lab, opts, group=g_choice, notation=f"d{faces}"))
    return out


def analysis_reveal(total: int | None, tiers) -> list:
    """Analysis rolls (L503): reveal every ``(threshold, info)`` tier with threshold <= total;
    a fail reveals nothing."""
    if total is None:
        return []
    return [info for threshold, info in sorted(tiers, key=lambda t: t[0]) if threshold <= total]


__all__ = [
    "analysis_reveal",
    "Divider",
    "apply_divider",
    "contest",
    "contest_chance",
    "chance_at_least",
    "plan",
    "roll",
    "distribution",
    "catalogue",
    "resolve_difficulty",
    "resolve_divider",
    "flaw_difficulty",
    "outcome_code",
    "auto_modifiers",
    "FAIL_KEY",
    "OUTCOMES",
]


def apply_check_state(c, result: CheckResult) -> dict[str, tuple[Any, Any]]:
    """Apply what a check's result changes besides its resource effects (stabilised flags,
    conditions gained or removed, a token used, an ultimate marked used); ``{trait: (old, new)}``."""
    changes: dict[str, tuple[Any, Any]] = {}
    det = result.details
    for k, v in (det.get("set") or {}).items():
        changes[k] = (getattr(c, k), v)
        setattr(c, k, v)
    conds = list(c.conditions)
    for cid in det.get("add_conditions") or []:
        if cid != "dead" and not any(x.get("id") == cid for x in conds):
            conds.append({"id": cid, "source": result.check_id})
    removed = set(det.get("remove_conditions") or [])
    conds = [x for x in conds if x.get("id") not in removed]
    if conds != list(c.conditions):
        changes["conditions"] = (list(c.conditions), conds)
        c.conditions = conds
    if det.get("use_token"):
        tokens = [t for t in c.tokens if t.get("name") != det["use_token"] or t.get("persistent_uses")]
        changes["tokens"] = (list(c.tokens), tokens)
        c.tokens = tokens
    if det.get("set_ability_used"):
        abilities = [dict(a) for a in c.abilities]
        for a in abilities:
            if a.get("name") == det["set_ability_used"]:
                a["used"] = True
        c.abilities = abilities
    return changes
