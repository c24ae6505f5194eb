"""RET combat (spec §6) as pure functions the generic tracker drives. The rules live in modules
named after them (initiative, turns, attacks, damage, healing, states); this module holds the end of
a combat and the loot, and names the others' public functions for callers that read
``combat.<name>``."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.options import GmOptions

from .attacks import (
    BODY_PARTS,
    CALLED_SHOT_RIDERS,
    STEP_METRES,
    AttackPlan,
    aim_bonus,
    called_shot_rider,
    cover_bonus,
    defence_riders,
    dispel_cost,
    free_steps_after,
    hidden_attack,
    in_reach,
    luck_pick,
    movement_block,
    plan_attack,
    resolve_attack,
    weapon_change_costs_action,
)
from .damage import (
    able,
    apply_damage,
    armour_at,
    blast,
    compute_hit,
    damage_options,
    effect_value,
    is_defeated,
    raw_damage,
    settle,
    unstabilised_by,
)
from .healing import HEAL_RESOURCES, apply_healing, heal, healing_options, item_spec, use_item
from .initiative import (
    ROLL_OFF_LIMIT,
    initiative_effects,
    initiative_score,
    roll_initiative,
    round_order,
    skips_round_1,
)
from .level import LevelRoll
from .states import DEFEATING, TURN_POINTS, condition_changed, on_turn, tick_conditions
from .turns import ACTS, TurnState, after_act, buy_extra_turn, effective_speed, end_extra_turn, extra_turn, turn_limits


def combat_over(
    combatants: Mapping[str, Any], sides: Mapping[str, str], *, unwilling: Sequence[str] = ()
) -> str | None:
    """The side left standing when the other has nobody able **and** willing to go on (dead,
    unconscious, surrendered, fled: pass the last two as ``unwilling``) (L1135); None while the
    fight goes on, ``"none"`` when nobody is left on either side."""
    standing = {side: False for side in set(sides.values())}
    for cid, c in combatants.items():
        side = sides.get(cid)
        if side is None:
            raise RuleError("no_side", T(f"{cid} has no side", f"у {cid} нет стороны"))
        if cid not in unwilling and able(c):
            standing[side] = True
    left = [s for s, ok in standing.items() if ok]
    if len(left) > 1:
        return None
    return left[0] if left else "none"


LOOT_MODES = ("initiative", "new", "seating")


def loot_queue(
    combatants: Mapping[str, Any],
    *,
    mode: str = "initiative",
    order: Sequence[str] | None = None,
    seating: Sequence[str] | None = None,
    rng: random.Random | None = None,
    options: GmOptions,
    include_unable: bool = False,
) -> dict:
    """The moderated loot queue (L1139-1141): in the fight's initiative ``order``, a ``new``
    initiative roll, or the players' ``seating`` order; only those able to search take part
    (unless ``include_unable``). Each gets ``loot_actions`` actions (the GM may allow two: one
    to help an ally, one for loot, L1141)."""
    if mode not in LOOT_MODES:
        raise RuleError(
            "bad_loot_mode",
            T(f"loot order is one of {', '.join(LOOT_MODES)}", f"порядок добычи: {', '.join(LOOT_MODES)}"),
        )
    new_order = None
    if mode == "initiative":
        if order is None:
            raise RuleError("no_order", T("the initiative order is needed", "нужен порядок инициативы"))
        ids = list(order)
    elif mode == "seating":
        if seating is None:
            raise RuleError("no_seating", T("the seating order is needed", "нужен порядок рассадки"))
        ids = list(seating)
    else:
        new_order = roll_initiative(combatants, rng=rng, options=options)
        ids = list(new_order.order)
    unknown = [i for i in ids if i not in combatants]
    if unknown:
        raise RuleError("unknown_combatant", T(f"unknown: {', '.join(unknown)}", f"неизвестны: {', '.join(unknown)}"))
    queue = [i for i in ids if include_unable or able(combatants[i])]
    return {"queue": queue, "actions": int(options.loot_actions), "initiative": new_order}


def split_loot(money: int, ids: Sequence[str]) -> dict[str, int]:
    """Money split equally (L1142); the remainder goes one by one from the front of the queue."""
    if not ids:
        raise RuleError("no_candidates", T("nobody to share with", "не с кем делить"))
    if money < 0:
        raise RuleError("bad_amount", T("money cannot be negative", "деньги не могут быть отрицательными"))
    q, r = divmod(int(money), len(ids))
    return {i: q + (1 if n < r else 0) for n, i in enumerate(ids)}


def loot_dispute(rolls: Mapping[str, LevelRoll | None]) -> tuple[str | None, list[str]]:
    """A dispute over one trophy (L1144): contest rolls, symmetric (no defender): the best
    (non-fail total, then the milder d4 fail) wins; a tie returns ``(None, tied ids)`` to re-roll
    between them (spec §5.6)."""
    if not rolls:
        raise RuleError("no_candidates", T("nobody claims it", "никто не претендует"))
    score = {i: (initiative_score(r) if r is not None else (0, -1)) for i, r in rolls.items()}
    best = max(score.values())
    top = [i for i, s in score.items() if s == best]
    return (top[0], []) if len(top) == 1 else (None, top)


__all__ = [
    "ACTS",
    "AttackPlan",
    "BODY_PARTS",
    "CALLED_SHOT_RIDERS",
    "DEFEATING",
    "HEAL_RESOURCES",
    "LOOT_MODES",
    "ROLL_OFF_LIMIT",
    "STEP_METRES",
    "TURN_POINTS",
    "TurnState",
    "able",
    "after_act",
    "aim_bonus",
    "apply_damage",
    "apply_healing",
    "armour_at",
    "blast",
    "buy_extra_turn",
    "called_shot_rider",
    "combat_over",
    "compute_hit",
    "condition_changed",
    "cover_bonus",
    "damage_options",
    "effect_value",
    "defence_riders",
    "dispel_cost",
    "effective_speed",
    "end_extra_turn",
    "extra_turn",
    "free_steps_after",
    "heal",
    "healing_options",
    "hidden_attack",
    "in_reach",
    "initiative_effects",
    "initiative_score",
    "is_defeated",
    "item_spec",
    "loot_dispute",
    "loot_queue",
    "luck_pick",
    "movement_block",
    "on_turn",
    "plan_attack",
    "raw_damage",
    "resolve_attack",
    "roll_initiative",
    "round_order",
    "settle",
    "skips_round_1",
    "split_loot",
    "tick_conditions",
    "turn_limits",
    "unstabilised_by",
    "use_item",
    "weapon_change_costs_action",
]
