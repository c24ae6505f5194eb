"""Seasons checks (spec §5): the check list, rolling one (the pool and a contest's other side)
and its exact distribution. What a check id means is in ``presets``, the pool's terms in
``pool_plan``, the tray's options in ``check_options``."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import CheckResult, CheckSpec, Effect, RuleError, T
from tabletop_widgets.core.i18n import count
from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.dice import Die, Distribution, check_from, word_result

from .check_options import option_specs
from .data import ATTRIBUTES, SKILLS, label
from .modifiers import uses_its_successes
from .pending import consume_pending
from .pool import PoolRoll, contest_distribution, contest_winner, pool_distribution, roll_pool
from .pool_plan import PoolPlan, build_pool
from .presets import Preset, generic_id, presets, resolve_preset

DURATION_LABELS = {
    "instant": T("instant check", "мгновенная проверка"),
    "normal": T("normal check", "обычная проверка"),
    "extended": T("extended check", "длительная проверка"),
    "per_interval": T("check per interval", "проверка за каждый интервал"),
}


def check_specs(character, *, options: GmOptions) -> list[CheckSpec]:
    """The 80 named checks of §5.11, then every attribute+skill pair (spec §5.13)."""
    out = [preset_spec(p, character, options=options) for p in presets().values()]
    out += [
        preset_spec(resolve_preset(generic_id(a, s)), character, options=options) for a in ATTRIBUTES for s in SKILLS
    ]
    return out


def roll_check(
    character, check_id: str, *, options: GmOptions, rng: random.Random | None = None, **opts: Any
) -> CheckResult:
    """Roll a check. Besides the check's options ``opts``, the sheet brings by itself
    (``modifiers.sheet_defaults``) Pain (``auto_pain``) and the relevant queued bonuses/penalties,
    which this roll CONSUMES (removed from the character, listed in ``details["pending_consumed"]``;
    ``pending=False`` keeps them; ``restore_pending`` puts them back). The active Problem (-3) and
    Advantage (+3) and each condition the check can fit (-3, ``condition_<n>``) count when ticked
    (§11 #43), or by default under ``auto_sheet_modifiers``. Explicit options override each
    default. Threats, explosions and roll-offs take nothing from the sheet."""
    return roll_preset(character, resolve_preset(check_id), options=options, rng=rng, **opts)


def roll_preset(
    character, preset: Preset, *, options: GmOptions, rng: random.Random | None = None, **opts: Any
) -> CheckResult:
    """:func:`roll_check` for a :class:`Preset` itself (an attack made with a sheet weapon's own
    attribute, ``attacks.weapon_preset``)."""
    rng = rng if rng is not None else random.Random()
    if preset.special == "rolloff":
        return roll_rolloff(preset, rng)
    plan = build_pool(preset, character, opts, options=options)
    result = roll_plan(preset, plan, rng, opts)
    used = plan.notes.get("pending_used", [])
    if used:
        # The queue is consumed by the roll (spec §7.10 "consumed by the next relevant check");
        # what was taken is reported so the log/undo can show it (``restore_pending``).
        result.details["pending_consumed"] = consume_pending(character, used)
    return result


def check_distribution(character, check_id: str, *, options: GmOptions, **opts: Any) -> Distribution:
    """The exact distribution of a check's successes (or a contest's margin)."""
    preset = resolve_preset(check_id)
    if preset.special == "rolloff":
        return rolloff_distribution()
    return plan_distribution(build_pool(preset, character, opts, options=options))


def plan_distribution(plan: PoolPlan) -> Distribution:
    if plan.opponent_pool is not None:
        return contest_distribution(
            plan.pool,
            plan.opponent_pool,
            rule_of_10=plan.rule_of_10,
            threshold=plan.threshold,
            expression=plan.notation(),
        )
    return pool_distribution(
        plan.pool, rule_of_10=plan.rule_of_10, threshold=plan.threshold, expression=plan.notation()
    )


def pool_breakdown(r: PoolRoll, plan_trace: str = "") -> dict[str, str]:
    # a pool of plain dice has nothing to add up: «5 = 5:» would say the number twice
    head = f"{plan_trace}: " if plan_trace and not re.fullmatch(r"\s*(-?\d+) = \1\s*", plan_trace) else ""
    if r.impossible:
        return T(f"{head}impossible (pool = {r.pool})", f"{head}невозможно (запас = {r.pool})")
    faces = ", ".join(f"{f}*" if f >= r.threshold else str(f) for f in r.faces)
    auto_en = f" + {r.auto} automatic" if r.auto else ""
    auto_ru = f" + {ru_n(r.auto, 'автоматический', 'автоматических', 'автоматических')}" if r.auto else ""
    return T(
        f"{head}{count(r.rolled, 'die')} [{faces}]{auto_en} → {count(r.successes, 'success')}",
        f"{head}{ru_n(r.rolled, 'дайс', 'дайса', 'дайсов')} [{faces}]{auto_ru} → {count(r.successes, 'success', 'ru')}",
    )


def outcome_text(r: PoolRoll) -> dict[str, str]:
    if r.impossible:
        return T(f"impossible (pool = {r.pool})", f"невозможно (запас = {r.pool})")
    if r.success:
        # «3 успеха» says it is a success (no «успех, 3 успеха»)
        return T(count(r.successes, "success"), count(r.successes, "success", "ru"))
    return T("failure", "неудача")


def roll_plan(preset: Preset, plan: PoolPlan, rng: random.Random, opts: Mapping[str, Any]) -> CheckResult:
    """Roll a built pool (and a contest's other side); ``opts`` are the check's options, kept on the result."""
    r = roll_pool(plan.pool, rng, rule_of_10=plan.rule_of_10, threshold=plan.threshold)
    dice: list[Die] = r.dice()
    details: dict[str, Any] = {
        "pool": plan.pool,
        "trace": plan.trace(),
        "terms": [(k, v) for k, _, v in plan.terms],
        "opposition": plan.opposition,
        "impossible": r.impossible,
        "faces": list(r.faces),
        "rolled": r.rolled,
        "auto": r.auto,
        "successes": r.successes,
        # every success but the first carries over (L771), unless the check uses its successes
        "previous_success_bonus": 0 if uses_its_successes(preset, opts) else r.previous_success_bonus,
        "warnings": list(plan.warnings),
        "duration": preset.duration,
        **plan.notes,
    }
    success = r.success
    outcome = outcome_text(r)
    check = check_from(r.successes, ">=", 1)  # an impossible pool has 0 successes
    if plan.opponent_pool is not None:  # contest (L57-59)
        success, outcome, check = _contest(preset, plan, r, rng, details, dice)
    if preset.attack and success:
        details["damage"] = r.successes  # each success is one health level (L93)
    if preset.special == "threat" and not r.impossible:
        details["damage"] = r.successes  # L673
    if (preset.opposition == "durability" or preset.special == "explosion") and success:
        details["structure_damage"] = r.successes  # L819, L821
    effects = []
    if plan.drama_spent:
        effects.append(Effect("drama", -1, T("Drama spent (+3)", "Потрачена Драма (+3)")))
    roll = word_result(
        plan.notation(),
        "pool",
        r.successes,
        dice,
        pool_breakdown(r, plan.trace()),
        check=check,
        successes=r.successes,
        details=details,
    )
    margin = r.successes - details["opponent_successes"] if plan.opponent_pool is not None else None
    return CheckResult(
        check_id=preset.id,
        label=preset.label,
        success=success,
        total=r.successes,
        roll=roll,
        margin=margin,
        degree=r.successes,
        degree_label=T(count(r.successes, "success"), count(r.successes, "success", "ru")),
        critical=None,
        outcome=outcome,
        effects=effects,
        options=dict(opts),
        details=details,
    )


def _contest(
    preset: Preset, plan: PoolPlan, r: PoolRoll, rng: random.Random, details: dict[str, Any], dice: list[Die]
) -> tuple[bool, dict[str, str], Any]:
    """Roll the other side of a contest (L57-59): adds its dice and details; returns
    (success, outcome text, the check for the result)."""
    o = roll_pool(plan.opponent_pool, rng, rule_of_10=plan.rule_of_10, threshold=plan.threshold)
    winner = contest_winner(r.successes, o.successes)
    details.update(
        opponent_pool=o.pool,
        opponent_faces=list(o.faces),
        opponent_auto=o.auto,
        opponent_successes=o.successes,
        winner=winner,
    )
    dice += [Die(10, f, success=f >= o.threshold, note="vs") for f in o.faces]
    success = winner == "A"
    outcome = {
        "A": T(f"wins the contest {r.successes}:{o.successes}", f"побеждает {r.successes}:{o.successes}"),
        "B": T(f"loses the contest {r.successes}:{o.successes}", f"проигрывает {r.successes}:{o.successes}"),
        "tie": T(f"tie {r.successes}:{o.successes}", f"равенство {r.successes}:{o.successes}"),
    }[winner]
    check = check_from(r.successes, ">=", o.successes + 1)  # (a tie reads «не хватило 1», not 0)
    if preset.id == "hold_door":
        # The holder needs MORE successes (L820); on a tie the status quo holds (§11 #16).
        details["door_held"] = winner != "B"
    return success, outcome, check


def roll_rolloff(preset: Preset, rng: random.Random) -> CheckResult:
    face = rng.randint(1, 10)
    roll = word_result("1d10", "rolloff", face, [Die(10, face)], T(f"1d10 [{face}]", f"1d10 [{face}]"))
    return CheckResult(
        check_id=preset.id,
        label=preset.label,
        success=None,
        total=face,
        roll=roll,
        outcome=T(f"rolled {face}", f"выпало {face}"),
        details={"faces": [face]},
    )


def rolloff_distribution() -> Distribution:
    return Distribution({k: Fraction(1, 10) for k in range(1, 11)}, expression="1d10")


def preset_spec(preset: Preset, character, *, options: GmOptions) -> CheckSpec:
    group = T("Attribute + skill", "Атрибут + навык")
    if preset.n:
        sk = label(preset.skill) if preset.skill else T("Rules", "Правила")
        group = sk
    notation = ""
    shown = None
    if preset.special != "rolloff":
        try:
            plan = build_pool(preset, character, {}, options=options)
            notation = plan.notation()
            shown = {loc: plan.notation(loc) for loc in ("en", "ru")}
        except (ValueError, RuleError):
            notation = ""
    else:
        notation = "1d10"
    help_text = None
    if preset.line:
        # (the rulebook line, preset.line, stays in the data for traceability)
        help_text = DURATION_LABELS.get(preset.duration)
    return CheckSpec(
        id=preset.id,
        label=preset.label,
        options=tuple(option_specs(preset, character, options=options)),
        group=group,
        notation=notation,
        help=help_text,
        shown_notation=shown,
    )


__all__ = [
    "DURATION_LABELS",
    "check_distribution",
    "check_specs",
    "outcome_text",
    "plan_distribution",
    "pool_breakdown",
    "preset_spec",
    "presets",
    "resolve_preset",
    "roll_check",
    "roll_plan",
    "roll_preset",
    "roll_rolloff",
    "rolloff_distribution",
]
