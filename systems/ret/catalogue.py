"""The named checks the tray offers (spec §5, §10.2): their ids, labels and options."""

from __future__ import annotations


from tabletop_widgets.core import CheckSpec, OptionSpec, RuleError, T
from tabletop_widgets.core.options import GmOptions

from . import data
from .level import die_label
from .params import TREE_ORDER, label, tier
from .plan import (
    ATTACKS,
    BREAK_FREE_ROLLS,
    CHOICE_TABLES,
    DEFENCES,
    HARM_ROLLS,
    MENTAL,
    MIND_CONTROL_ROLLS,
    RESIST,
    RESIST_CONDITION,
    SANITY_TEST_ROLLS,
    ability_label,
    plan,
)
from .fitting import fitting_choices


#: The tree's tiers as the book numbers them: «I уровень вложенности» (L49).
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def luck_option(option_id: str, label: dict[str, str], holder, help: dict[str, str]) -> OptionSpec:
    """Luck declared before a roll: from 0 up to the Luck ``holder`` has now."""
    return OptionSpec(option_id, label, "int", 0, min=0, max=max(0, int(holder.luck or 0)), help=help)


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
                    for r in data.rows("difficulties")
                ),
                help=T("total ≥ difficulty passes", "итог ≥ сложности — проверка пройдена"),
            )
        )
    if luck:
        opts.append(
            luck_option(
                "luck",
                T("Luck (declared before the roll)", "Удача (заявляется до броска)"),
                c,
                T("burnt on a fail", "сгорает при провале"),
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


def catalogue(c, *, options: GmOptions) -> list[CheckSpec]:
    """Every named check of ``c`` the tray offers, group by group."""
    common = _common_options(c)
    return [
        *_parameter_checks(c, common, options=options),
        *_ability_checks(c, common, options=options),
        *_combat_checks(c, common, options=options),
        *_survival_checks(c, options=options),
        *_resist_checks(c),
        *_break_free_checks(c),
        *_choice_checks(),
    ]


def shown(c, check_id: str, *, options: GmOptions) -> tuple[str, dict[str, str] | None]:
    """``check_id``'s roll as the character makes it now (the sheet's die-level shifts and flat
    penalties included: a stunned level 3 rolls ``L3 dl-1``, d6-1) and, when the sheet shifts
    the die, a line naming the die actually rolled; ``("", None)`` when it cannot be planned."""
    try:
        p = plan(c, check_id, {}, options=options)
    except RuleError:
        return "", None
    if not p.shift:
        return p.shown_notation, None
    rolled = die_label(p.level + p.shift)
    return p.shown_notation, T(
        f"rolls {rolled}, not {die_label(p.level)}: {p.shift:+d} die level from the sheet's conditions",
        f"бросается {rolled}, а не {die_label(p.level)}: {p.shift:+d} уровень куба от состояний на листе",
    )


def _with(help_text: dict[str, str] | None, extra: dict[str, str] | None) -> dict[str, str] | None:
    if not extra:
        return help_text
    if not help_text:
        return extra
    return T(f"{help_text['en']}; {extra['en']}", f"{help_text['ru']}; {extra['ru']}")


def _parameter_checks(c, common: list[OptionSpec], *, options: GmOptions) -> list[CheckSpec]:
    """The tree's parameters, tier by tier."""
    out: list[CheckSpec] = []
    g_params = T("Parameters", "Параметры")
    for node in TREE_ORDER:
        lv = c.value(node)
        notation, shifted = shown(c, node, options=options)
        out.append(
            CheckSpec(
                node,
                label(node),
                common,
                group=g_params,
                notation=notation or f"L{lv}",
                help=_with(
                    T(
                        f"tier {tier(node)}: {die_label(lv)}",
                        f"{_ROMAN[tier(node)]} уровень вложенности: {die_label(lv)}",
                    ),
                    shifted,
                ),
            )
        )
    return out


def _ability_checks(c, common: list[OptionSpec], *, options: GmOptions) -> list[CheckSpec]:
    """Skills, talents and ultimates (a superpower may be boosted with Sanity)."""
    out: list[CheckSpec] = []
    g_ab = T("Abilities", "Способности")
    for a in c.abilities:
        cid = f"{a['kind']}:{a['name']}"
        try:
            p = plan(c, cid, {}, options=options)
        except RuleError:
            continue
        opts = list(common)
        if a.get("is_superpower"):
            opts.append(
                OptionSpec("extra_sanity", T("Extra Sanity (boost)", "Доп. Рассудок (усиление)"), "int", 0, 0, 20)
            )
            opts.append(
                OptionSpec(
                    "analysis",
                    T("Analysis (no Sanity)", "Анализ (без Рассудка)"),
                    "bool",
                    False,
                    help=T(
                        "Analysing, understanding or theorising with the power costs no Sanity.",
                        "Анализ, понимание ситуации или теоретические размышления силой не тратят Рассудок.",
                    ),
                )
            )
        _notation, shifted = shown(c, cid, options=options)
        out.append(CheckSpec(cid, ability_label(a), opts, group=g_ab, notation=p.shown_notation, help=shifted))
    return out


def _combat_checks(c, common: list[OptionSpec], *, options: GmOptions) -> list[CheckSpec]:
    """Defences, attacks, mental defences and initiative."""
    out: list[CheckSpec] = []
    g_combat = T("Combat", "Бой")
    for cid, (param, lab) in {**DEFENCES, **ATTACKS}.items():
        notation, shifted = shown(c, cid, options=options)
        opts = common + (_defence_roll_option(c, param) if cid in DEFENCES else [])
        out.append(CheckSpec(cid, lab, opts, group=g_combat, notation=notation or f"L{c.value(param)}", help=shifted))
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
                        "param",
                        T("Roll", "Бросок"),
                        "choice",
                        params[0],
                        choices=tuple((x, label(x)) for x in params) + tuple(fitting_choices(c, params, "defence")),
                    )
                ],
                group=g_combat,
                notation=shown(c, cid, options=options)[0] or f"L{c.value(params[0])}",
                help=shown(c, cid, options=options)[1],
            )
        )
    notation, shifted = shown(c, "initiative", options=options)
    out.append(
        CheckSpec(
            "initiative",
            T("Initiative", "Инициатива"),
            _common_options(c, difficulty=False),
            group=g_combat,
            notation=notation or f"L{c.perception}",
            help=shifted,
        )
    )
    return out


def _defence_roll_option(c, param: str) -> list[OptionSpec]:
    """A dodge or parry rolls the parameter or a fitting ability (L1054, L1063): the choice, when
    the character has such an ability."""
    fitting = fitting_choices(c, (param,), "defence")
    if not fitting:
        return []
    return [
        OptionSpec(
            "roll",
            T("Roll", "Бросок"),
            "choice",
            param,
            choices=((param, label(param)), *fitting),
            help=T("The parameter or a fitting ability.", "Параметр или подходящая способность."),
        )
    ]


def _survival_checks(c, *, options: GmOptions) -> list[CheckSpec]:
    """Survival, self-control, Sanity tests and resisting flaws."""
    out: list[CheckSpec] = []
    g_surv = T("Survival and Sanity", "Выживание и рассудок")
    for cid, (resource, param, lab, _) in HARM_ROLLS.items():
        opts = _common_options(c, difficulty=False)
        if cid == "self_control":
            opts.append(OptionSpec("in_combat", T("In combat", "В бою"), "bool", True))
        out.append(
            CheckSpec(
                cid,
                lab,
                opts,
                group=g_surv,
                notation=f"{shown(c, param, options=options)[0] or f'L{c.value(param)}'} >= "
                f"{max(0, -(getattr(c, resource) or 0))}",
                help=_with(
                    T("Endurance vs |Health| when Health < 0", "Выносливость против |Здоровья| при Здоровье < 0")
                    if cid == "survival"
                    else None,
                    shown(c, param, options=options)[1],
                ),
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
                    SANITY_TEST_ROLLS[0],
                    choices=tuple((x, label(x)) for x in SANITY_TEST_ROLLS)
                    + tuple(fitting_choices(c, SANITY_TEST_ROLLS, "sanity")),
                    help=T(
                        "Composure, Will or a fitting ability (the GM may call for another parameter).",
                        "Самообладание, Воля или подходящая способность (мастер может назвать другой параметр).",
                    ),
                ),
                OptionSpec(
                    "divider",
                    T("Divider", "Делитель"),
                    "choice",
                    "normal",
                    choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.rows("dividers")),
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
    return out


def _resist_checks(c) -> list[CheckSpec]:
    """Resisting a state (spec §5.11) against its threshold node."""
    out: list[CheckSpec] = []
    g_res = T("Resist a state", "Сопротивление состоянию")
    cat = data.conditions()
    for cond, (param, thr) in RESIST.items():
        labels = cat[RESIST_CONDITION.get(cond, cond)]
        opts = _common_options(c)
        helps = [(param, thr)]
        if cond == "mind_control":  # by the nature of the control (L1636)
            helps = list(MIND_CONTROL_ROLLS.items())
            opts = opts + [
                OptionSpec(
                    "param",
                    T("Roll", "Бросок"),
                    "choice",
                    param,
                    choices=tuple(
                        (p, T(f"{label(p)['en']} vs {label(t)['en']}", f"{label(p)['ru']} против {label(t)['ru']}"))
                        for p, t in MIND_CONTROL_ROLLS.items()
                    ),
                    help=T(
                        "Control not held by an opponent: Perception against Mind or Will against Emotions, "
                        "by the nature of the control.",
                        "Контроль, который противник не удерживает: Восприятие против Разума или Воля против "
                        "Эмоций, по характеру контроля.",
                    ),
                )
            ]
        out.append(
            CheckSpec(
                f"resist:{cond}",
                T(f"Resist: {labels['en']}", f"Сопротивление: {labels['ru']}"),
                opts,
                group=g_res,
                help=T(
                    " or ".join(f"{label(p)['en']} vs {label(t)['en']} ({c.value(t)})" for p, t in helps),
                    " или ".join(f"{label(p)['ru']} против {label(t)['ru']} ({c.value(t)})" for p, t in helps),
                ),
            )
        )
    return out


def _break_free_checks(c) -> list[CheckSpec]:
    """Breaking free, while held or bound (L851-852)."""
    inst = next((x for x in c.conditions if x.get("id") == "restrained"), None)
    if inst is None:
        return []
    bound = inst.get("held_by") == "object" and isinstance(inst.get("roll"), int)
    opts = _common_options(c, difficulty=False) + [
        OptionSpec(
            "param",
            T("Roll", "Бросок"),
            "choice",
            BREAK_FREE_ROLLS[0],
            choices=tuple((p, label(p)) for p in BREAK_FREE_ROLLS),
        )
    ]
    if bound:
        how = T(
            f"Bound: an action, a roll of at least the binding roll ({inst['roll']}).",
            f"Связан: действие, бросок не меньше броска связывания ({inst['roll']}).",
        )
    else:
        how = T(
            "Held in person: the attack, a new contest; enter the holder's roll (a tie keeps the hold).",
            "Удерживается лично: атака, новое соревнование; введите бросок удерживающего (при равенстве удержание сохраняется).",
        )
        opts.append(OptionSpec("holder_roll", T("Holder's roll", "Бросок удерживающего"), "int", None, -10, 200))
    return [
        CheckSpec(
            "resist:restrained",
            T("Break free", "Освободиться"),
            opts,
            group=T("Resist a state", "Сопротивление состоянию"),
            help=how,
        )
    ]


def _choice_checks() -> list[CheckSpec]:
    """The d4/d6 choice tables (no Luck)."""
    out: list[CheckSpec] = []
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
