"""Trouble checks (spec §5.10): a d20 plus the control margin, read in four bands of a table."""

from __future__ import annotations

import random
from fractions import Fraction

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckResult, Effect
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.words import word_result
from . import data
from .kept_die import dice_objects, kept_die_pmf, net_dice, roll_kept
from .traits import signed


def trouble_band(value: int) -> str:
    """Band of a (modified) Trouble value: A 19+, B 13-18, C 7-12, D <= 6 (L503-506)."""
    if value >= 19:
        return "A"
    if value >= 13:
        return "B"
    if value >= 7:
        return "C"
    return "D"


def trouble_value(die: int, margin: int = 0, forced: str | None = None, *, options) -> int:
    if forced == "worst" and not options.catastrophe_controllable:  # A12
        return 1
    base = 20 if forced == "best" else 1 if forced == "worst" else die
    return base + margin  # L186, L239


def _trouble_opts(choices):
    unknown = set(choices) - {"margin", "forced", "table", "advantages", "hindrances", "difficulty"}
    if unknown:
        raise RuleError(
            "unknown_option",
            T(
                f"unknown option(s): {', '.join(sorted(unknown))}",
                f"неизвестные параметры: {', '.join(sorted(unknown))}",
            ),
        )
    forced = choices.get("forced")
    if forced not in (None, "", "best", "worst"):
        raise RuleError("bad_option", T("forced must be 'best' or 'worst'", "forced: 'best' или 'worst'"))
    table = choices.get("table", "general")
    if table not in data.TROUBLE_TABLES:
        raise RuleError("bad_option", T(f"unknown Trouble table {table!r}", f"нет таблицы Неприятностей {table!r}"))
    return int(choices.get("margin", 0)), forced or None, table


def trouble_net(choices, *, options) -> int:
    adv, hin = choices.get("advantages", 0), choices.get("hindrances", 0)
    if (adv or hin) and not options.trouble_allow_adv:
        raise RuleError(
            "trouble_no_adv",
            T(
                "Advantages/Hindrances do not apply to a Trouble check",  # A11
                "Преимущества/Помехи не применяются к проверке Неприятностей",
            ),
        )  # A11
    return net_dice(adv, hin, options.adv_order)


def trouble_distribution(*, options, **choices) -> Distribution:
    """Exact distribution of the Trouble value (die + control margin); p_pass = P(best band A)."""
    margin, forced, _ = _trouble_opts(choices)
    net = trouble_net(choices, options=options)
    if forced:
        pmf = {trouble_value(20, margin, forced, options=options): Fraction(1)}
    else:
        pmf = {}
        for x, q in kept_die_pmf(net).items():
            v = trouble_value(x, margin, None, options=options)
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


def roll_trouble(rng: random.Random | None = None, character=None, *, options, **choices) -> CheckResult:
    """A Trouble check: plain d20 (+ control margin), read in four bands (L229-242).
    ``forced="best"`` is the Move "Lucky!" (1 Thread, L186); ``forced="worst"`` the Caprice
    "Catastrophe!" (+1 Thread, L222). The Thread change is returned as an Effect."""
    rng = rng if rng is not None else random.Random()
    margin, forced, table = _trouble_opts(choices)
    net = trouble_net(choices, options=options)
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
    value = trouble_value(die, margin, forced, options=options)
    band = trouble_band(value)
    row = data.trouble_row(table, band, options.trouble_band_names)
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
        dice_objects(dice, idx) if dice else [],
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
        options=dict(choices),
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
