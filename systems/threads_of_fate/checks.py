"""Checks of Threads of Fate (spec §5): the check list, rolling one (d20 + modifiers >= difficulty with
Advantages/Hindrances, static values, bought results, re-rolls) and its exact distribution.

The parts live in their own modules: the kept die (``kept_die``), what a check id means (``plan``),
Trouble checks (``trouble``), contests and aid (``contests``), sizes (``sizes``); the names below
keep ``checks.<name>`` working for the callers that import them from here."""

from __future__ import annotations

import random
from fractions import Fraction

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckResult, CheckSpec, Effect, OptionSpec
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.results import Check
from tabletop_widgets.dice.words import word_result
from . import data
from .kept_die import attack_damage, dice_objects, die_succeeds, kept_die_pmf, net_dice, roll_kept, succeeds_only_on_20
from .plan import BOUGHT, COMBAT_CHECKS, Opts, Plan, expert_static, net_of, parse_options, plan_check, static_value
from .traits import CHARACTERISTICS, CHAR_LABELS, SECONDARIES, SECONDARY_LABELS, SKILLS, signed
from .trouble import roll_trouble, trouble_distribution
from .contests import aid_counts as aid_counts
from .contests import contest_odds as contest_odds
from .contests import contest_verdict as contest_verdict
from .contests import helper_difficulty as helper_difficulty
from .contests import success_with_trouble as success_with_trouble
from .kept_die import p_success as p_success
from .plan import opposed_difficulty as opposed_difficulty
from .sizes import grapple_modifier as grapple_modifier
from .sizes import group_stealth_penalty as group_stealth_penalty
from .trouble import trouble_band as trouble_band
from .trouble import trouble_band_odds as trouble_band_odds


# ------------------------------------------------------------------------------------------------
# Distribution and roll
# ------------------------------------------------------------------------------------------------
def check_distribution(ch, check_id: str, *, options, **choices) -> Distribution:
    plan = plan_check(ch, check_id, options=options)
    if plan.kind == "trouble":
        return trouble_distribution(options=options, **choices)
    o = parse_options(choices)
    bonus = plan.bonus + o.bonus
    if o.bought:
        b = _bought(ch, plan, o, options=options)
        return Distribution(
            {b["total"]: Fraction(1)}, p_pass=Fraction(int(b["success"])), expression=check_id, outcome="total"
        )
    fixed = _fixed_outcome(ch, plan, o, options=options)
    if fixed is not None:
        value, success, _ = fixed
        return Distribution({value: Fraction(1)}, p_pass=Fraction(int(success)), expression=check_id, outcome="total")
    net = net_of(plan, o, options=options)
    pmf = kept_die_pmf(net)
    if plan.drained:
        p = Fraction(0)  # L363
    else:
        p = sum((q for x, q in pmf.items() if die_succeeds(x, bonus, o.difficulty, options=options)), Fraction(0))
    return Distribution({x + bonus: q for x, q in pmf.items()}, p_pass=p, expression=check_id, outcome="total")


def _fixed_outcome(ch, plan: Plan, o: Opts, *, options):
    """(value, success, degree) for checks without a roll, else None."""
    bonus = plan.bonus + o.bonus
    if plan.kind == "expert_static":
        if plan.skill == "survival" and o.outside_familiar:  # L424
            return 5 + bonus, False, "automatic_failure"
        n = net_dice(o.advantages, o.hindrances, options.adv_order)
        v, verdict = expert_static(bonus, o.difficulty, n, options=options)
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
        auto = plan.auto_hindrance if options.static_zero_xp_hindrance else 0  # A51
        n = net_dice(o.advantages, o.hindrances + auto, options.adv_order)
        v = static_value(plan.skill_xp, plan.bonus - plan.skill_xp, n, options=options) + o.bonus
        ok = v >= o.difficulty and not plan.drained
        return v, ok, "success" if ok else "failure"
    return None


def _bought(ch, plan: Plan, o: Opts, *, options) -> dict:
    """A result bought with Threads before the roll (Moves M5, M6; L189-192)."""
    cost = BOUGHT[o.bought]
    if ch.entity_type == "extra":
        raise RuleError("extra_no_threads", T("extras cannot use Threads", "статисты не используют Нити"))  # L64
    if ch.threads < cost and options.xp_threads_mode != "xp_as_threads":
        raise RuleError(
            "not_enough_threads",
            T(
                f"this Move needs {cost} Threads; the hero has {ch.threads}",
                f"для этого Хода нужно Нитей: {cost}, у героя {ch.threads}",
            ),
        )
    bonus = plan.bonus + o.bonus
    if plan.kind == "expert_static" and o.bought in ("success", "critical_success"):
        raise _no_bought_success(plan, o)
    if plan.drained and o.bought in ("success", "critical_success"):
        raise drained_refusal(plan)
    if o.bought == "success":
        if succeeds_only_on_20(bonus, o.difficulty, options=options) or (o.difficulty - bonus > 20):
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


def drained_words(characteristic: str | None) -> dict:
    """Why a check built on a characteristic at 0 fails (L363): «Strength 0: the check fails by itself»."""
    name = {**CHAR_LABELS, **SECONDARY_LABELS}.get(characteristic or "", T("a characteristic", "характеристика"))
    return T(
        f"{name['en']} 0: the check fails by itself",
        f"{name['ru']} 0: проверка проваливается сама собой",
    )


def drained_refusal(plan: Plan) -> RuleError:
    """No success bought with Threads on a check that fails by itself (L363), as none is on Survival
    outside familiar places (L424); a bought failure stays allowed (L190, L192)."""
    why = drained_words(plan.drained_by)
    return RuleError(
        "drained",
        T(
            f"{why['en']} (a characteristic at 0 fails every check built on it): Threads cannot buy a success.",
            f"{why['ru']} (характеристика на нуле проваливает все проверки с ней): успех за Нити не купить.",
        ),
        characteristic=plan.drained_by,
    )


def _no_bought_success(plan: Plan, o: Opts) -> RuleError:
    """Why Threads cannot buy a success on an Expert skill the hero has no access to: the book leaves
    only Success with Trouble there (L138, L140), and Survival outside familiar places simply fails
    (L424). A bought failure stays allowed (L190, L192)."""
    label = T(*SKILLS[plan.skill][:2]) if plan.skill in SKILLS else plan.label
    if plan.skill == "survival" and o.outside_familiar:
        return RuleError(
            "automatic_failure",
            T(
                f"Without access to {label['en']} the hero fails it outside familiar places: "
                "no success can be bought with Threads.",
                f"Без доступа к навыку «{label['ru']}» герой вне знакомых мест проваливает его: "
                "успех за Нити не купить.",
            ),
            skill=plan.skill,
        )
    return RuleError(
        "no_access_success",
        T(
            f"{label['en']} is an Expert skill the hero has no access to: Threads cannot buy a success "
            "here, only Success with Trouble after the check can.",
            f"«{label['ru']}» — Экспертный навык, к которому у героя нет доступа: успех здесь за Нити "
            "не купить, остаётся только Успех с Неприятностями после проверки.",
        ),
        skill=plan.skill,
    )


def notation_for(plan: Plan, o: Opts, with_target: bool = True) -> str:
    bonus = plan.bonus + o.bonus
    text = "t20" + (signed(bonus) if bonus else "")
    if o.advantages:
        text += f" adv{o.advantages if o.advantages > 1 else ''}"
    if o.hindrances + plan.auto_hindrance:
        n = o.hindrances + plan.auto_hindrance
        text += f" hin{n if n > 1 else ''}"
    return text + (f" vs {o.difficulty}" if with_target else "")


def roll_check(ch, check_id: str, rng: random.Random | None = None, *, options, **choices) -> CheckResult:
    rng = rng if rng is not None else random.Random()
    plan = plan_check(ch, check_id, options=options)
    if plan.kind == "trouble":
        return roll_trouble(rng=rng, options=options, character=ch, **choices)
    o = parse_options(choices)
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
        return _bought_result(ch, check_id, plan, o, choices, common, options=options)
    fixed = _fixed_outcome(ch, plan, o, options=options)
    if fixed is not None:
        return _static_result(check_id, plan, o, choices, common, fixed)
    return _rolled_result(check_id, plan, o, choices, common, rng, options=options)


def _bought_result(ch, check_id: str, plan: Plan, o: Opts, choices, common: dict, *, options) -> CheckResult:
    """A result bought with Threads before the roll (Moves M5, M6): no dice, the Threads as an Effect."""
    bonus = plan.bonus + o.bonus
    b = _bought(ch, plan, o, options=options)
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
        "only_on_20": succeeds_only_on_20(bonus, o.difficulty, options=options),
        "rerolls": 0,
    }
    if plan.kind in ("valor", "valor_unarmed", "marksmanship"):
        details["damage_before_durability"] = (
            attack_damage(total, o.difficulty, 0, b.get("die") or 0, min_success=options.min_success_damage)
            if o.bought.startswith("critical")
            else options.min_success_damage
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
        options=dict(choices),
        effects=[Effect("threads", -BOUGHT[o.bought], b["label"])],
        details=details,
    )


def _static_result(check_id: str, plan: Plan, o: Opts, choices, common: dict, fixed) -> CheckResult:
    """A check without a roll: a static value or an Expert skill without access."""
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
        options=dict(choices),
        details={**common, "static": True, "dice": [], "only_on_20": False},
    )


def _rolled_result(check_id: str, plan: Plan, o: Opts, choices, common: dict, rng, *, options) -> CheckResult:
    """The kept die rolled against the difficulty (§5.4)."""
    bonus = plan.bonus + o.bonus
    net = net_of(plan, o, options=options)
    kept, dice, idx = roll_kept(net, rng)
    total = kept + bonus
    success = die_succeeds(kept, bonus, o.difficulty, options=options) and not plan.drained
    crit = "success" if kept == 20 else "failure" if kept == 1 else None  # L114, A3: the kept die
    margin = total - o.difficulty
    text = notation_for(plan, o)
    sign = f" {signed(bonus)}" if bonus else ""
    breakdown = T(
        f"{text}: [{', '.join(map(str, dice))}] → {kept}{sign}", f"{text}: [{', '.join(map(str, dice))}] → {kept}{sign}"
    )
    res = word_result(
        text, "t20", total, dice_objects(dice, idx), breakdown, check=Check(">=", o.difficulty, success, margin)
    )
    details = {
        **common,
        "static": False,
        "dice": dice,
        "kept": kept,
        "net": net,
        "only_on_20": succeeds_only_on_20(bonus, o.difficulty, options=options),
        "need": o.difficulty - bonus,
        "drained": plan.drained,
        "drained_by": plan.drained_by,
        "bonus": bonus,
        "rerolls": 0,
    }
    if plan.kind in ("valor", "valor_unarmed", "marksmanship"):
        details["damage_before_durability"] = (
            0 if plan.drained else attack_damage(total, o.difficulty, 0, kept, min_success=options.min_success_damage)
        )  # L351, A13; L363
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
        outcome=_drained_outcome(plan, _outcome(success, crit, margin)),
        options=dict(choices),
        details=details,
    )


def _drained_outcome(plan: Plan, outcome: dict) -> dict:
    """The verdict, saying why when a characteristic at 0 failed the check (L363)."""
    if not plan.drained:
        return outcome
    why = drained_words(plan.drained_by)
    return T(f"{outcome['en']} ({why['en']})", f"{outcome['ru']} ({why['ru']})")


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
def reroll(ch, previous: CheckResult, rng: random.Random | None = None, *, options) -> CheckResult:
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
    new = roll_check(ch, previous.check_id, rng=rng, options=options, **previous.options)
    new.details["rerolls"] = used + 1
    new.details["candidates"] = previous.details.get("candidates", [previous]) + [new]
    new.effects.append(Effect("threads", -1, T("Lucky!: re-roll", "Повезло!: переброс")))
    return new


# ------------------------------------------------------------------------------------------------
# The catalogue for the dice tray
# ------------------------------------------------------------------------------------------------
def check_options(skill: bool) -> list[OptionSpec]:
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


def list_checks(ch, *, options) -> list[CheckSpec]:
    """The named checks the dice tray offers ``ch``: characteristics, secondary values, skills, combat, Trouble."""
    return (
        _attribute_checks(ch, options=options)
        + _skill_checks(ch, options=options)
        + _combat_checks(ch)
        + [_trouble_check()]
    )


def _attribute_checks(ch, *, options) -> list[CheckSpec]:
    out = []
    g_char = T("Characteristics", "Характеристики")
    for c in CHARACTERISTICS:
        out.append(
            CheckSpec(
                c,
                CHAR_LABELS[c],
                check_options(False),
                g_char,
                notation=notation_for(plan_check(ch, c, options=options), Opts(), with_target=False),
            )
        )
    g_sec = T("Secondary", "Вторичные")
    for s in SECONDARIES:
        try:
            note = notation_for(plan_check(ch, s, options=options), Opts(), with_target=False)
        except RuleError:  # size values not entered yet
            continue
        out.append(CheckSpec(s, SECONDARY_LABELS[s], check_options(False), g_sec, notation=note))
    return out


def _skill_checks(ch, *, options) -> list[CheckSpec]:
    out = []
    g_sk = T("Skills", "Навыки")
    for code, (en, ru, chars) in SKILLS.items():
        for c in chars:
            try:
                plan = plan_check(ch, f"{c}+{code}", options=options)
            except RuleError:
                continue
            opts = check_options(plan.kind == "skill")
            if plan.kind == "expert_static" and code == "survival":
                opts.append(
                    OptionSpec(
                        "outside_familiar",
                        T("Outside familiar places", "Вне знакомых мест"),
                        "bool",
                        False,
                        help=T(
                            "without access, Survival fails there automatically",  # L424
                            "без доступа Выживание там проваливается автоматически",
                        ),
                    )
                )
            out.append(
                CheckSpec(
                    plan.check_id,
                    plan.label,
                    opts,
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
            plan = plan_check(ch, f"{c}+{s['code']}", options=options)
            out.append(CheckSpec(plan.check_id, plan.label, check_options(plan.kind == "skill"), g_sk))
    return out


def _combat_checks(ch) -> list[CheckSpec]:
    out = []
    g_cb = T("Combat", "Бой")
    for cid, lab in COMBAT_CHECKS.items():
        if cid == "defense_check" and ch.defense is None:
            continue
        out.append(
            CheckSpec(
                cid,
                lab,
                check_options(False),
                g_cb,
                help=T(
                    "difficulty = target's Defense; Damage = margin - Durability",  # L351
                    "сложность = Защита цели; Повреждения = превышение - Прочность",
                )  # L351
                if cid != "defense_check"
                else T("d20 + (DEF - BDEF); Damage = shortfall", "к20 + (Зщ - БАЗщ); Повреждения = недобор"),
            )
        )  # L355-356
    return out


def _trouble_check() -> CheckSpec:
    return CheckSpec(
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
                choices=tuple((k, T(v["en"], v["ru"])) for k, v in data.TROUBLE_TABLES.items()),
            ),
        ],
        T("Fate", "Судьба"),
        notation="trouble",
    )
