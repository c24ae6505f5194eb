"""Every roll of spec §5 as a named check: parameter, skill, talent and ultimate rolls, fixed
difficulties, contests, the divider, survival, self-control, Sanity tests, state and flaw
resistance, choice rolls — rolled (with an injected rng) or as exact distributions."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, Effect, RuleError, T
from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.dice import Distribution
from tabletop_widgets.dice.results import Check, Die
from tabletop_widgets.dice.words import word_result
from tabletop_widgets.core.options import GmOptions

from . import data
from .catalogue import analysis_reveal, catalogue
from .contest import contest, contest_chance, score_distribution
from .difficulty import FAIL_KEY, OUTCOMES, difficulties, outcome_code, resolve_difficulty
from .dividers import Divider, apply_divider, divider_presets, resolve_divider
from .level import LevelRoll, chance_at_least, die_label, level_dice, level_roll, roll_outcomes, roll_result_for
from .model import ability_divider
from .modifiers import auto_modifiers
from .plan import RollPlan, flaw_difficulty, int_option, plan
from .powers import is_power, power_cost


def _check_of(res: LevelRoll, op: str, target: int | None) -> Check | None:
    if target is None:
        return None
    total = res.total if res.total is not None else 0
    passed = (not res.fail) and total >= target
    return Check(op=op, target=int(target), passed=passed, margin=total - int(target))


def roll(
    c, check_id: str, request: Mapping[str, Any], *, options: GmOptions, rng: random.Random | None = None
) -> CheckResult:
    rng = rng if rng is not None else random.Random()
    p = plan(c, check_id, request, options=options)
    if p.kind == "choice":
        return _roll_choice(c, p, rng)
    if p.luck > (c.luck or 0) and not request.get("ignore_pool"):
        raise RuleError(
            "not_enough_luck", T(f"You only have {c.luck} Luck.", f"Удачи не хватает: у вас {c.luck}."), have=c.luck
        )
    threshold = _threshold_outcome(c, p, options=options)
    if threshold is not None:
        return threshold
    res = level_roll(
        p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, rng=rng, options=options, bonuses=[b for b in p.bonuses]
    )
    code = outcome_code(res, p.difficulty)
    effects = roll_effects(res, p.special)
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
        options=dict(request),
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
    _special(c, p, res, result, rng, options=options)
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


def roll_effects(res: LevelRoll, special: str) -> list[Effect]:
    """What a level roll gives back as effects (applied by the caller): declared Luck spent,
    Luck for a fail (L358, L533), Sanity for success dice (Health on a survival roll, L541-542)."""
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
    gain_trait = "health" if special == "survival" else "sanity"
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
    return effects


def _threshold_outcome(c, p: RollPlan, *, options: GmOptions) -> CheckResult | None:
    """Past -3 x max the outcome is guaranteed, no roll (L325, L341, A21)."""
    mult = options.threshold_multiplier
    if not mult or p.special not in ("survival", "self_control") or p.extra.get("explicit_difficulty"):
        return None
    cur, mx, outcome = (
        ("health", c.health_max, options.health_threshold_outcome)
        if p.special == "survival"
        else ("sanity", c.sanity_max, options.sanity_threshold_outcome)
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


def _stabilised(result: CheckResult, total: int, difficulty: int, trait: str) -> None:
    """A survival or self-control roll that passed: Health or Sanity stabilised (L576, L596)."""
    result.details["state"] = "stabilised"
    result.details["set"] = {f"stabilised_{trait}": True}
    result.outcome = T(f"{total} ≥ {difficulty}: stabilised", f"{total} ≥ {difficulty}: стабилизирован")


def _special(c, p: RollPlan, res: LevelRoll, result: CheckResult, rng, *, options: GmOptions) -> None:
    det = result.details
    if p.special == "ultimate":
        det["set_ability_used"] = p.extra["ability"]["name"]
    if p.extra.get("token"):
        det["use_token"] = p.extra["token"]  # one-shot (L1474)
    a = p.extra.get("ability")
    if a and is_power(c, a):  # L1158 (an ultimate of a superpower talent too, L1213); spent even on a fail (A44)
        extra = int_option(result.options, "extra_sanity")
        # analysing, understanding, theorising with a power costs no Sanity (L1159)
        cost = (0 if p.extra.get("analysis") else power_cost(c, a)) + extra
        if cost and (not res.fail or options.power_sanity_spent_on_fail):
            result.effects.append(Effect("sanity", -cost, T("superpower cost", "цена сверхспособности")))
        fixed = ability_divider(a)
        if fixed:
            div = Divider(fixed[0], fixed[1] + extra)  # boost: +1 base per Sanity (L1209)
            det["divider"] = div
            det["magnitude"] = apply_divider(res.total, div, fail=res.fail, on_fail=options.divider_on_fail)
    if p.special == "survival":
        if not res.fail and res.total >= p.difficulty:
            _stabilised(result, res.total, p.difficulty, "health")
        elif res.fail and res.critical and options.crit_survival_is_death:
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
            _stabilised(result, res.total, p.difficulty, "sanity")
        elif res.fail and res.critical and (p.extra["in_combat"] or options.noncombat_crit_self_control == "coma"):
            det["state"] = "coma"
            det["add_conditions"] = ["coma"]
            result.outcome = T("critical fail: coma", "крит. провал: кома")
        else:
            table = "combat" if p.extra["in_combat"] else "noncombat"
            d6 = 1 if res.fail and res.critical else rng.randint(1, 6)  # choice roll, no Luck (L606)
            row = next(r for r in data.rows("loss_of_control") if r["table"] == table and r["d6"] == d6)
            det["loss_of_control_d6"] = d6
            det["state"] = row["state"]
            det["add_conditions"] = [row["state"]]
            result.outcome = T(f"loss of control (d6 {d6}): {row['en']}", f"потеря контроля (d6 {d6}): {row['ru']}")
            result.roll.tree.rolled.append(Die(faces=6, value=d6, note="loss of control"))
    elif p.special == "sanity_test":
        div = p.extra["divider"]
        mitigation = apply_divider(res.total, div, fail=res.fail, on_fail=options.divider_on_fail)
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
        row = next(r for r in data.rows("loss_of_control") if r["table"] == table and r["d6"] == v)
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


def distribution(c, check_id: str, request: Mapping[str, Any], *, options: GmOptions) -> Distribution:
    p = plan(c, check_id, request, options=options)
    if p.kind == "choice":
        n = p.extra["faces"]
        return Distribution({v: Fraction(1, n) for v in range(1, n + 1)}, expression=f"d{n}")
    if _threshold_outcome(c, p, options=options) is not None:  # guaranteed outcome, no roll
        return Distribution(
            {FAIL_KEY: Fraction(1)}, p_pass=Fraction(0), expression=p.notation, special={FAIL_KEY: T("fail", "провал")}
        )
    outcomes, cut = roll_outcomes(p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, options=options)
    if p.special == "sanity_test":
        div, harm = p.extra["divider"], p.extra["harm"]
        on_fail = options.divider_on_fail
        pmf: dict[int, Fraction] = {}
        for o, q in outcomes.items():
            mit = apply_divider(None if o[0] == "fail" else o[1], div, fail=o[0] == "fail", on_fail=on_fail)
            loss = max(0, harm - mit)
            pmf[loss] = pmf.get(loss, 0) + q
        return Distribution(
            pmf, truncated_mass=cut, p_pass=pmf.get(0, Fraction(0)), expression=p.notation, outcome="sanity_loss"
        )
    return total_distribution(outcomes, cut, p.difficulty, p.notation)


def total_distribution(
    outcomes: Mapping[tuple, Fraction], cut: Fraction, difficulty: int | None, expression: str
) -> Distribution:
    """The totals of a level roll's exact outcomes, fails under FAIL_KEY (a fail has no total,
    L531), with P(total >= difficulty) when there is one."""
    pmf: dict[int, Fraction] = {}
    for o, q in outcomes.items():
        k = FAIL_KEY if o[0] == "fail" else o[1]
        pmf[k] = pmf.get(k, 0) + q
    p_pass = None
    if difficulty is not None:
        p_pass = sum((q for o, q in outcomes.items() if o[0] == "ok" and o[1] >= difficulty), Fraction(0))
    return Distribution(
        pmf,
        truncated_mass=cut,
        p_pass=p_pass,
        expression=expression,
        outcome="total",
        notes=[T(f"key {FAIL_KEY} = fail (no total)", f"ключ {FAIL_KEY} = провал (без итога)")],
        special={FAIL_KEY: T("fail", "провал")},
    )


def outcome_distribution(c, check_id: str, request: Mapping[str, Any], *, options: GmOptions) -> dict[str, Fraction]:
    """P of each of the five outcomes of spec §5.5 (difficulty required)."""
    p = plan(c, check_id, request, options=options)
    if p.difficulty is None:
        raise RuleError("no_difficulty", T("a difficulty is needed", "нужна сложность"))
    outcomes, _ = roll_outcomes(p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, options=options)
    out = {k: Fraction(0) for k in OUTCOMES}
    for o, q in outcomes.items():
        if o[0] == "fail":
            out["critically_failed" if o[1] == 1 else "failed"] += q
        elif o[1] >= p.difficulty:
            out["passed_with_success" if (o[2] > 0 or o[3]) else "passed"] += q
        else:
            out["not_passed"] += q
    return out


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
    if det.get("use_token"):  # a token is one-shot (L1474), kept between sessions or not (L1479)
        tokens = list(c.tokens)
        used = next((i for i, t in enumerate(tokens) if t.get("name") == det["use_token"]), None)
        if used is not None:
            tokens.pop(used)
            changes["tokens"] = (list(c.tokens), tokens)
            c.tokens = tokens
    if det.get("set_ability_used"):
        abilities = [dict(a) for a in c.abilities]
        for a in abilities:
            if a.get("name") == det["set_ability_used"]:
                a["used"] = True
        c.abilities = abilities
    return changes


__all__ = [
    "analysis_reveal",
    "Divider",
    "apply_divider",
    "apply_check_state",
    "contest",
    "contest_chance",
    "chance_at_least",
    "plan",
    "roll",
    "roll_effects",
    "distribution",
    "outcome_distribution",
    "catalogue",
    "difficulties",
    "divider_presets",
    "resolve_difficulty",
    "resolve_divider",
    "flaw_difficulty",
    "outcome_code",
    "auto_modifiers",
    "level_dice",
    "roll_result_for",
    "total_distribution",
    "score_distribution",
    "FAIL_KEY",
    "OUTCOMES",
]
