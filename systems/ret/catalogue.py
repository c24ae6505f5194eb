"""The named checks the tray offers (spec §5, §10.2): their ids, labels and options."""

from __future__ import annotations


from tabletop_widgets.core import CheckSpec, OptionSpec, RuleError, T
from tabletop_widgets.core.options import GmOptions

from . import data
from .level import die_label
from .params import TREE_ORDER, label, tier
from .plan import ATTACKS, CHOICE_TABLES, DEFENCES, HARM_ROLLS, MENTAL, RESIST, RESIST_CONDITION, ability_label, plan


#: The tree's tiers as the book numbers them: «I уровень вложенности» (L49).
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


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


def catalogue(c, *, options: GmOptions) -> list[CheckSpec]:
    """Every named check of ``c`` the tray offers, group by group."""
    common = _common_options(c)
    return [
        *_parameter_checks(c, common),
        *_ability_checks(c, common, options=options),
        *_combat_checks(c, common),
        *_survival_checks(c),
        *_resist_checks(c),
        *_choice_checks(),
    ]


def _parameter_checks(c, common: list[OptionSpec]) -> list[CheckSpec]:
    """The tree's parameters, tier by tier."""
    out: list[CheckSpec] = []
    g_params = T("Parameters", "Параметры")
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
        out.append(CheckSpec(cid, ability_label(a), opts, group=g_ab, notation=p.notation))
    return out


def _combat_checks(c, common: list[OptionSpec]) -> list[CheckSpec]:
    """Defences, attacks, mental defences and initiative."""
    out: list[CheckSpec] = []
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
    return out


def _survival_checks(c) -> list[CheckSpec]:
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
                notation=f"L{c.value(param)} >= {max(0, -(getattr(c, resource) or 0))}",
                help=T("Endurance vs |Health| when Health < 0", "Выносливость против |Здоровья| при Здоровье < 0")
                if cid == "survival"
                else None,
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
    return out


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
