"""Roll plans: what a named check rolls (spec §5) — the level, bonuses, Luck, shift and difficulty —
before any die is thrown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.options import GmOptions

from . import data
from .difficulty import resolve_difficulty
from .dividers import resolve_divider
from .fitting import fits
from .shapes import FLAW_SEVERITIES
from .modifiers import auto_modifiers
from .params import PARAMS, in_branch, label


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

    @property
    def shown_notation(self) -> str:
        """The roll as it is made, die-level shifts included (``L3 dl-1``: a stunned character
        rolls d6-1, not d6), in the notation the ``L`` dice word reads."""
        return self.notation + (f" dl{self.shift:+d}" if self.shift else "")


def ability_label(a: Mapping[str, Any]) -> dict:
    kind = {"skill": T("Skill", "Навык"), "talent": T("Talent", "Талант"), "ultimate": T("Ultimate", "Ультимативная")}[
        a["kind"]
    ]
    return T(f"{kind['en']}: {a['name']}", f"{kind['ru']}: {a['name']}")


def ability_roll(c, a: Mapping[str, Any]) -> tuple[str, int, int, list[tuple[str, int]]]:
    """What rolling ability ``a`` is: ``(base parameter, die level, flat bonus, named parts)``. A
    skill rolls its parameter's die + its level (L560-565); a talent its own level's die + its
    parameter's level (L567-572); an ultimate its parent talent's die + its own level + the
    talent's parameter (L1215)."""
    kind = a.get("kind")
    if kind == "ultimate":
        parent = c.ability(a.get("parent_talent") or "")
        if parent is None:
            raise RuleError(
                "ultimate_parent", T("the ultimate's parent talent is missing", "нет родительского таланта")
            )
        base = str(parent["base_param"])
        return (
            base,
            int(parent["level"]),
            int(a["level"]) + c.value(base),
            [("ultimate", int(a["level"])), (base, c.value(base))],
        )
    base = str(a["base_param"])
    if kind == "skill":
        return base, c.value(base), int(a["level"]), [("skill", int(a["level"]))]
    return base, int(a["level"]), c.value(base), [(base, c.value(base))]


def fitting_ability(c, roll: str, params: tuple[str, ...], role: str) -> Mapping[str, Any]:
    """The ability a roll choice ``"skill:Name"`` names, refused unless it fits a ``role`` roll of
    ``params`` (``fitting.fits``)."""
    kind, _, name = roll.partition(":")
    a = c.ability(name)
    if a is None or a.get("kind") != kind or not fits(c, roll, params, role):
        names = ", ".join(label(p)["en"] for p in params)
        names_ru = ", ".join(label(p)["ru"] for p in params)
        raise RuleError(
            "bad_roll",
            T(
                f"{name or roll} is not an ability of this character that fits a roll of {names}.",
                f"«{name or roll}» — не способность этого персонажа, подходящая для броска: {names_ru}.",
            ),
        )
    return a


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

#: Mind control not held by an opponent is resisted by Perception against Mind or by Will against
#: Emotions, by the nature of the control (L1636): the roll -> its threshold node.
MIND_CONTROL_ROLLS = {"perception": "mind", "will": "emotions"}

#: A resisted state whose catalogue entry has another id.
RESIST_CONDITION = {"mind_control": "mind_controlled"}

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


def int_option(request: Mapping[str, Any], name: str, default: int = 0) -> int:
    v = request.get(name, default)
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


def plan(c, check_id: str, request: Mapping[str, Any], *, options: GmOptions) -> RollPlan:
    """Resolve ``check_id`` + options into what is rolled (no dice yet), with an optional token
    (spec §7.6: a flat bonus or +N die levels on the next related roll, L1476, L1483)."""
    p = _plan(c, check_id, request, options=options)
    name = request.get("token")
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
            # level 8 is closed to player characters only for development (L285): a token may
            # reach it (A46) unless the GM says otherwise
            if not options.tokens_reach_level_8 and not c.is_npc and amount > 0:
                p.shift = min(p.shift, max(0, 7 - p.level))
        else:
            p.bonus += amount
            p.bonuses.append(("token", amount))
            p.notation = _notation(p.level, p.bonus)
        p.extra["token"] = name
    return p


@dataclass
class _Request:
    """A check request with its common options resolved once: the character, declared Luck, flat
    bonus, die-level shift, difficulty, and the named flat parts collected so far."""

    c: Any
    check_id: str
    request: Mapping[str, Any]
    options: GmOptions
    luck: int
    bonus: int
    shift: int
    difficulty: int | None
    use_auto: bool
    named: list = field(default_factory=list)

    @classmethod
    def read(cls, c, check_id: str, request: Mapping[str, Any], *, options: GmOptions) -> "_Request":
        luck = int_option(request, "luck")
        if luck < 0:
            raise RuleError(
                "negative_luck", T("Luck declared cannot be negative", "заявленная Удача не может быть отрицательной")
            )
        bonus = int_option(request, "bonus")
        shift = int_option(request, "shift")
        use_auto = request.get("auto_modifiers", True)
        diff = resolve_difficulty(request.get("difficulty"))
        named: list[tuple[str, int]] = [("bonus", bonus)] if bonus else []
        return cls(c, check_id, request, options, luck, bonus, shift, diff, use_auto, named)

    def auto(self, param: str, role: str = "roll", skip: tuple[str, ...] = ()) -> tuple[int, int]:
        """(shift, flat) the sheet puts on a roll of ``param``; their named parts are collected."""
        if not self.use_auto:
            return 0, 0
        s, f, parts = auto_modifiers(self.c, param, role, skip=skip)
        self.named.extend(parts)
        return s, f

    def level_plan(
        self,
        lab: dict,
        level: int,
        flat: int,
        shift: int = 0,
        *,
        difficulty: Any = "asked",
        special: str = "",
        extra: dict | None = None,
    ) -> RollPlan:
        """A level roll of ``level`` with ``flat`` added (the asked bonus included by the caller)."""
        return RollPlan(
            self.check_id,
            lab,
            level=level,
            bonus=flat,
            luck=self.luck,
            shift=self.shift + shift,
            bonuses=self.named,
            difficulty=self.difficulty if difficulty == "asked" else difficulty,
            special=special,
            notation=_notation(level, flat),
            extra=extra or {},
        )


def _plan(c, check_id: str, request: Mapping[str, Any], *, options: GmOptions) -> RollPlan:
    rq = _Request.read(c, check_id, request, options=options)
    if check_id in CHOICE_TABLES:
        return _plan_choice(rq)
    if check_id in MENTAL:  # L1090-1111
        return _plan_mental(rq)
    if check_id in PARAMS or check_id in DEFENCES or check_id in ATTACKS or check_id == "initiative":
        return _plan_parameter(rq)
    kind, _, name = check_id.partition(":")
    if kind in ("skill", "talent", "ultimate") and name:
        return _plan_ability(rq, kind, name)
    if check_id in ("survival", "self_control"):
        return _plan_harm_roll(rq)
    if check_id == "sanity_test":
        return _plan_sanity_test(rq)
    if kind == "flaw" and name:
        return _plan_flaw(rq, name)
    if kind == "resist" and name == "restrained":
        return _plan_break_free(rq)
    if kind == "resist" and name in RESIST:
        return _plan_resist(rq, name)
    raise RuleError("unknown_check", T(f"ret: no check named {check_id!r}", f"ret: нет проверки {check_id!r}"))


def _plan_choice(rq: _Request) -> RollPlan:
    if rq.luck:
        raise RuleError(
            "luck_on_choice", T("Luck cannot be used on choice rolls.", "Удачу нельзя добавлять к броскам выбора.")
        )
    faces, lab = CHOICE_TABLES[rq.check_id]
    return RollPlan(
        rq.check_id,
        lab,
        kind="choice",
        extra={"faces": faces, "in_combat": bool(rq.request.get("in_combat", True))},
        notation=f"d{faces}",
    )


def _plan_mental(rq: _Request) -> RollPlan:
    allowed = MENTAL[rq.check_id]
    param = rq.request.get("param") or allowed[0]
    if ":" in str(param):  # a fitting ability (L1094-1096, L1105-1106)
        a = fitting_ability(rq.c, str(param), allowed, "defence")
        param = str(a["base_param"])
    else:
        a = None
    if param not in allowed and a is None:
        raise RuleError(
            "bad_param",
            T(
                f"{rq.check_id} rolls one of {', '.join(allowed)}",
                f"{rq.check_id}: бросок одного из {', '.join(allowed)}",
            ),
        )
    if rq.check_id == "mental_defence" and rq.c.has_condition("defence_refused"):
        raise RuleError(
            "defence_refused",
            T(
                "Defence refused: no mental defence.",  # L913
                "Отказ от защиты: ментальная защита недоступна.",
            ),
        )  # L913
    # a mental defence or psychological resistance is not a defence roll of the body: a limb
    # injury's "-1 die level to defence" does not reach it (L1599-1600)
    lab = (
        T("Mental defence", "Ментальная защита")
        if rq.check_id == "mental_defence"
        else T("Psychological resistance", "Сопротивление психологическим воздействиям")
    )
    if a is not None:
        return _ability_defence(rq, a, lab, "mental")
    s, f = rq.auto(param, "mental")
    return rq.level_plan(lab, rq.c.value(param), rq.bonus + f, s, extra={"param": param})


def _ability_defence(rq: _Request, a: Mapping[str, Any], lab: dict, role: str, bonus: int = 0) -> RollPlan:
    """A defence rolled with a fitting ability instead of the parameter (L1043): the ability's
    die and bonus, the sheet's modifiers on its parameter, ``bonus`` (cover) added."""
    base, level, flat, head = ability_roll(rq.c, a)
    s, f = rq.auto(base, role)
    rq.named[:0] = head
    name = T(f"{lab['en']}: {a['name']}", f"{lab['ru']}: {a['name']}")
    return rq.level_plan(name, level, flat + rq.bonus + f + bonus, s, extra={"param": base, "ability": dict(a)})


def _plan_parameter(rq: _Request) -> RollPlan:
    """A parameter roll, a dodge or parry, an attack or initiative."""
    c, check_id = rq.c, rq.check_id
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
    role = "roll"
    roll = rq.request.get("roll") if check_id in DEFENCES else None
    if check_id in DEFENCES:
        param, lab = DEFENCES[check_id]
        role = "defence"
        if roll and roll != param:  # a fitting ability instead of Agility / Strength (L1054, L1063)
            a = fitting_ability(c, str(roll), (param,), "defence")
            return _ability_defence(rq, a, lab, "defence", _cover(rq, check_id))
    elif check_id in ATTACKS:
        param, lab = ATTACKS[check_id]
        role = "attack"
    elif check_id == "initiative":
        param, lab = "perception", T("Initiative", "Инициатива")
    else:
        param, lab = check_id, label(check_id)
    s, f = rq.auto(param, role)
    if role == "attack" and rq.use_auto and c.aim_bonus:
        f += c.aim_bonus
        rq.named.append(("aim", c.aim_bonus))
    if role == "defence":
        f += _cover(rq, check_id)
    return rq.level_plan(lab, c.value(param), rq.bonus + f, s, extra={"param": param})


def cover_bonus_on(c, defence: str, *, options: GmOptions) -> int:
    """The cover bonus a ``defence`` roll (``dodge``, ``parry``, ``power``: a power defence) gets
    (L992, L1644; a shield only for a parry, L1002; A55: ``cover_bonus_scope``)."""
    if (
        c.cover_bonus
        and (defence == "parry" or not c.cover_shield_only)
        and (defence == "dodge" or options.cover_bonus_scope != "dodge_only" or c.cover_shield_only)
    ):
        return int(c.cover_bonus)
    return 0


def _cover(rq: _Request, defence: str) -> int:
    """:func:`cover_bonus_on`, named in the roll's parts."""
    bonus = cover_bonus_on(rq.c, defence, options=rq.options) if rq.use_auto else 0
    if bonus:
        rq.named.append(("cover", bonus))
    return bonus


def _plan_ability(rq: _Request, kind: str, name: str) -> RollPlan:
    """A skill (L560-565), talent (L567-572) or ultimate (L1211-1217) roll."""
    c = rq.c
    a = c.ability(name)
    if a is None or a.get("kind") != kind:
        raise RuleError("unknown_check", T(f"no {kind} named {name!r}", f"нет способности {name!r}"))
    analysis = bool(a.get("is_superpower") and rq.request.get("analysis"))
    if analysis and int_option(rq.request, "extra_sanity"):
        raise RuleError(
            "analysis_boost",
            T(
                "Analysing with a superpower costs no Sanity, so there is nothing to boost: untick one of them.",
                "Анализ сверхспособностью не тратит Рассудок, усиливать нечего: снимите одну из отметок.",
            ),
        )
    plan = _plan_ability_roll(rq, kind, name, a)
    if analysis:  # understanding, theory, an analysis roll: no Sanity (L1159)
        plan.extra["analysis"] = True
    return plan


def _plan_ability_roll(rq: _Request, kind: str, name: str, a: Mapping[str, Any]) -> RollPlan:
    c = rq.c
    if kind == "skill":
        base = a["base_param"]
        s, f = rq.auto(base)
        rq.named.insert(0, ("skill", a["level"]))
        flat = a["level"] + rq.bonus + f
        return rq.level_plan(ability_label(a), c.value(base), flat, s, extra={"ability": a, "param": base})
    if kind == "talent":
        base = a["base_param"]
        s, f = rq.auto(base)
        rq.named.insert(0, (base, c.value(base)))
        flat = c.value(base) + rq.bonus + f
        return rq.level_plan(ability_label(a), a["level"], flat, s, extra={"ability": a, "param": base})
    parent = c.ability(a.get("parent_talent") or "")
    if parent is None:
        raise RuleError("ultimate_parent", T("the ultimate's parent talent is missing", "нет родительского таланта"))
    if a.get("used") and not rq.request.get("ignore_used"):
        raise RuleError(
            "ultimate_used",
            T(f"{name} was already used this game session.", f"«{name}» уже применена в этой игровой сессии."),
        )
    base = parent["base_param"]
    s, f = rq.auto(base)
    rq.named[:0] = [("ultimate", a["level"]), (base, c.value(base))]
    flat = a["level"] + c.value(base) + rq.bonus + f
    return rq.level_plan(
        ability_label(a), parent["level"], flat, s, special="ultimate", extra={"ability": a, "param": base}
    )


#: survival (L574-586) and self-control (L594-630): the resource below 0, the parameter rolled,
#: the label, and the refusal when the resource is not below 0
HARM_ROLLS = {
    "survival": (
        "health",
        "endurance",
        T("Survival roll", "Бросок на выживание"),
        (
            "no_survival_roll",
            T(
                "No survival roll: Health is not below 0 (Health exactly 0 triggers nothing).",
                "Бросок на выживание не нужен: Здоровье не ниже 0.",
            ),
        ),
    ),
    "self_control": (
        "sanity",
        "composure",
        T("Self-control roll", "Бросок на самоконтроль"),
        (
            "no_self_control_roll",
            T("No self-control roll: Sanity is not below 0.", "Бросок на самоконтроль не нужен: Рассудок не ниже 0."),
        ),
    ),
}


def _plan_harm_roll(rq: _Request) -> RollPlan:
    """A survival or a self-control roll: the difficulty is how far below 0 Health or Sanity is,
    unless one is asked."""
    c, diff = rq.c, rq.difficulty
    resource, param, lab, (code, refusal) = HARM_ROLLS[rq.check_id]
    if diff is None and getattr(c, resource) >= 0:
        raise RuleError(code, refusal)
    extra: dict[str, Any] = {"explicit_difficulty": diff is not None}
    if rq.check_id == "self_control":
        extra = {"in_combat": bool(rq.request.get("in_combat", True)), **extra}
    s, f = rq.auto(param)
    d = diff if diff is not None else -int(getattr(c, resource))
    return rq.level_plan(lab, c.value(param), rq.bonus + f, s, difficulty=d, special=rq.check_id, extra=extra)


#: what the GM names for a Sanity test first (L590: «броски Воли, Самообладания»; L178, L592:
#: Composure); any other parameter may be asked, and a fitting ability of these two
SANITY_TEST_ROLLS = ("composure", "will")


def _plan_sanity_test(rq: _Request) -> RollPlan:
    """A Sanity test (L588-592): the harm less the roll through a divider. Composure by default
    (L178, L592), Will, another parameter the GM calls for, or an ability fitting Composure or
    Will (L590: «и иных параметров или подходящих способностей»; L183: mental fortitude)."""
    param = str(rq.request.get("param") or SANITY_TEST_ROLLS[0])
    harm = int_option(rq.request, "harm")
    div = resolve_divider(rq.request.get("divider", "normal"))
    extra: dict[str, Any] = {"harm": harm, "divider": div}
    if ":" in param:
        a = fitting_ability(rq.c, param, SANITY_TEST_ROLLS, "sanity")
        base, level, flat, head = ability_roll(rq.c, a)
        s, f = rq.auto(base)
        rq.named[:0] = head
        flat += f
        extra.update(param=base, ability=dict(a))
    elif param in PARAMS:
        s, f = rq.auto(param)
        level, flat = rq.c.value(param), f
        extra["param"] = param
    else:
        raise RuleError("bad_param", T(f"unknown parameter {param!r}", f"неизвестный параметр {param!r}"))
    return rq.level_plan(
        T("Sanity test", "Испытание рассудка"),
        level,
        rq.bonus + flat,
        s,
        difficulty=None,
        special="sanity_test",
        extra=extra,
    )


def _plan_flaw(rq: _Request, name: str) -> RollPlan:
    """Resisting a flaw (L1656-1670): a CLEAN roll, no bonus and no sheet modifiers."""
    c = rq.c
    fl = next((f for f in c.flaws if f.get("name") == name), None)
    if fl is None:
        raise RuleError("unknown_check", T(f"no flaw named {name!r}", f"нет недостатка {name!r}"))
    base = fl.get("base_param", "composure")
    rq.named = []
    return rq.level_plan(
        T(f"Resist flaw: {name}", f"Сопротивление недостатку: {name}"),
        c.value(base),
        0,
        difficulty=flaw_difficulty(fl, c.sanity),
        special="flaw",
        extra={"flaw": fl, "param": base},
    )


def _plan_resist(rq: _Request, name: str) -> RollPlan:
    """Resisting a state (spec §5.11) against the value of its threshold node."""
    if rq.request.get("first_turn") and not rq.options.resist_on_first_turn:
        raise RuleError(
            "resist_first_turn",
            T(
                "The GM does not allow resisting a state on the first turn after gaining it.",
                "Мастер не разрешает сопротивляться состоянию в первый ход после его получения.",
            ),
        )
    param, thr = RESIST[name]
    if name == "mind_control":
        param = rq.request.get("param") or param
        if param not in MIND_CONTROL_ROLLS:
            raise RuleError(
                "bad_param",
                T(
                    "Mind control is resisted by Perception (against Mind) or by Will (against Emotions).",
                    "Контролю разума сопротивляются Восприятием (против Разума) или Волей (против Эмоций).",
                ),
            )
        thr = MIND_CONTROL_ROLLS[param]
    skip: tuple[str, ...] = ()
    extra_shift = 0
    if name == "stunned":  # the -1 of Stun applies once, to this roll too (L1568)
        skip, extra_shift = ("stunned",), -1
    s, f = rq.auto(param, skip=skip)
    d = rq.difficulty if rq.difficulty is not None else rq.c.value(thr)
    cat = data.conditions().get(RESIST_CONDITION.get(name, name), {})
    return rq.level_plan(
        T(f"Resist: {cat.get('en', name)}", f"Сопротивление: {cat.get('ru', name)}"),
        rq.c.value(param),
        rq.bonus + f,
        s + extra_shift,
        difficulty=d,
        special="resist",
        extra={"condition": name, "param": param},
    )


#: what a held or bound character may roll to break free (L851-852)
BREAK_FREE_ROLLS = ("physique", "body_control")


def _plan_break_free(rq: _Request) -> RollPlan:
    """Breaking free of an immobilising attack (L851-852, L1626-1627): bound by an object, a roll
    against the binding roll, which the Restrained condition keeps (a fixed check: a tie frees);
    held by a person, a new contest with the holder's roll (a tie keeps the hold, L502)."""
    c = rq.c
    inst = next((x for x in c.conditions if x.get("id") == "restrained"), None)
    if inst is None:
        raise RuleError("not_restrained", T("The character is not held or bound.", "Персонажа никто не удерживает."))
    param = rq.request.get("param") or BREAK_FREE_ROLLS[0]
    if param not in BREAK_FREE_ROLLS:
        raise RuleError(
            "bad_param",
            T("Break free with Physique or Body Control.", "Вырваться можно Телосложением или Контролем тела."),
        )
    held_by = inst.get("held_by", "person")
    if rq.difficulty is not None:
        difficulty = rq.difficulty
    elif held_by == "object" and isinstance(inst.get("roll"), int):
        difficulty = int(inst["roll"])
    else:
        holder = rq.request.get("holder_roll")
        if isinstance(holder, bool) or not isinstance(holder, int):
            raise RuleError(
                "holder_roll_needed",
                T(
                    "Held in person: breaking free is a new contest, so enter the holder's roll.",
                    "Удержание лично: вырваться — новое соревнование, введите бросок удерживающего.",
                ),
            )
        difficulty = holder + 1  # the holder wins a tie (L502)
    s, f = rq.auto(param)
    return rq.level_plan(
        T("Break free", "Освободиться"),
        c.value(param),
        rq.bonus + f,
        s,
        difficulty=difficulty,
        special="resist",
        extra={"condition": "restrained", "param": param, "held_by": held_by},
    )


def _notation(level: int, bonus: int) -> str:
    return f"L{level}" + (f"{bonus:+d}" if bonus else "")


def flaw_difficulty(flaw: Mapping[str, Any], sanity: int) -> int:
    """strength - current Sanity - flaw level (L1660); strength 12/15/20 by severity (L1668-1670)."""
    strength = flaw.get("strength")
    if strength is None:
        strength = FLAW_SEVERITIES[flaw.get("severity", "light")]
    return int(strength) - int(sanity) - int(flaw.get("level", 1))
