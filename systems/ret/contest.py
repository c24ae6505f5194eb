"""Contests (spec §5.6): who wins a roll against a roll, and its exact chance."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions

from .level import LevelRoll, roll_outcomes


def contest(att: LevelRoll | None, dfn: LevelRoll | None, *, options: GmOptions) -> str:
    """'attacker' or 'defender'; ties and equal fail dice go to the defender (L502, L534, L1047)."""
    if att is None:
        return "defender"
    if dfn is None:  # defence refused (L769, L1046)
        return "defender" if att.fail else "attacker"
    if att.fail and dfn.fail:
        if not options.double_fail_attack_can_hit:
            return "defender"
        return "attacker" if att.fail_degree > dfn.fail_degree else "defender"
    if att.fail:
        return "defender"
    if dfn.fail:
        return "attacker"
    return "attacker" if att.total > dfn.total else "defender"


def score_distribution(outcomes: Mapping[tuple, Fraction]) -> dict[tuple, Fraction]:
    """Collapse outcomes to comparable scores: (0, d4) for fails, (1, total) otherwise."""
    out: dict[tuple, Fraction] = {}
    for o, p in outcomes.items():
        key = (0, o[1]) if o[0] == "fail" else (1, o[1])
        out[key] = out.get(key, 0) + p
    return out


def win_given(ka: tuple, d: Mapping[tuple, Fraction] | None, *, can_hit: bool) -> Fraction:
    """P(the attack wins | its score ``ka``) against the defence scores ``d`` (None: no defence
    roll, only a fail misses, L1046). Scores: (0, d4) for a fail, (1, total) otherwise; ties
    to the defender (L1047); two fails: the higher d4 attack may hit (A9)."""
    if d is None:
        return Fraction(1) if ka[0] == 1 else Fraction(0)
    win = Fraction(0)
    for kd, pd in d.items():
        if ka[0] == 0 and kd[0] == 0:
            ok = can_hit and ka[1] > kd[1]
        else:
            ok = ka > kd
        if ok:
            win += pd
    return win


def contest_chance(att: Mapping[str, Any], dfn: Mapping[str, Any] | None, *, options: GmOptions) -> Fraction:
    """Exact P(attacker wins); ``att``/``dfn`` are ``level_roll`` keyword dicts (``dfn`` None:
    defence refused)."""
    a_out, _ = roll_outcomes(options=options, **att)
    a = score_distribution(a_out)
    if dfn is None:
        return sum((p for k, p in a.items() if k[0] == 1), Fraction(0))
    d_out, _ = roll_outcomes(options=options, **dfn)
    d = score_distribution(d_out)
    can_hit = options.double_fail_attack_can_hit
    return sum((pa * win_given(ka, d, can_hit=can_hit) for ka, pa in a.items()), Fraction(0))
