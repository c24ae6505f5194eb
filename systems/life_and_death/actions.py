"""The action economy of a round (spec §6.4-§6.5): actions, reactions, held actions, movement."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T

from . import data


BLOCK_DIRECTION_DICE = {"front": 0, "side": 1, "above": 1, "back": 2, "below": 2}  # L235

# -- action economy (§6.4-§6.5) ------------------------------------------------------------------------
ORDINARY = tuple(a for a, kind in data.column("actions", "kind").items() if kind == "ordinary")
FREE = tuple(a for a, kind in data.column("actions", "kind").items() if kind == "free")
REACTIONS = tuple(a for a, yes in data.column("actions", "reaction").items() if yes)


def extra_actions(c, haste: int = 0, *, options: Mapping[str, Any]) -> int:
    """Speed II grants [DEFAULT] 1 extra action per round (L226); haste effects their own count."""
    return (int(options.speed_ii_extra_actions) if c.feature_level("speed") >= 2 else 0) + haste


@dataclass
class TurnState:
    """One combatant's per-round allowance (tracker state, spec §3.13)."""

    round: int
    ordinary_left: int
    extra_left: int
    initiator: bool = False
    free_used: set = field(default_factory=set)
    held: bool = False
    transforming: bool = False
    boosting: bool = False
    log: list = field(default_factory=list)

    def boost_roll_actions(self) -> tuple[int, int]:
        """(ordinary, free) actions taken this round besides the boost itself: what the
        Complexity roll of a brightness boost loses, -2 dice per ordinary action and -1 per
        free one (L314; ``magic.boost`` takes the two counts)."""
        ordinary = sum(1 for a in self.log if a not in FREE and a not in ("boost", "transform"))
        free = sum(1 for a in self.log if a in FREE)
        return ordinary, free


def start_turn(c, round_no: int, *, initiator: bool = False, haste: int = 0, options: Mapping[str, Any]) -> TurnState:
    """Round 1: one action, no extra actions even with Speed or haste (L250). Later rounds: two
    ordinary actions + up to two different free actions (L226), extra actions at the end of
    the round (L220, L226)."""
    if round_no <= 1:
        return TurnState(round_no, 1, 0, initiator)
    return TurnState(round_no, 2, extra_actions(c, haste, options=options), initiator)


def take_action(
    state: TurnState,
    action: str,
    *,
    extra_phase: bool = False,
    direct_damage_spell: bool = True,
    options: Mapping[str, Any],
) -> TurnState:
    """Spend an action; refuses illegal moves with RuleError (and changes nothing)."""
    if action in FREE:
        if state.round <= 1 and not options.round1_free_actions:
            raise RuleError(
                "no_free_round1", T("No free actions in round 1.", "В первом раунде нет свободных действий.")
            )
        if action in state.free_used:
            raise RuleError(
                "free_twice",
                T(
                    f"Free action {action} already used this turn.",  # L226
                    f"Свободное действие {action} уже было в этом ходу.",
                ),
            )  # L226
        state.free_used.add(action)
        state.log.append(action)
        return state
    if action not in ORDINARY and action not in ("transform", "boost"):
        raise RuleError("unknown_action", T(f"Unknown action {action!r}.", f"Неизвестное действие {action!r}."))
    if state.round <= 1:
        _check_round1(state, action, direct_damage_spell, options=options)
    if action == "boost":
        # L314: the boost takes the whole round, but acting in it is allowed: each action then
        # costs the Complexity roll dice (TurnState.boost_roll_actions), it is not forbidden.
        if state.boosting:
            raise RuleError(
                "boost_twice", T("A spell can be boosted only once.", "Заклинание усиливают один раз.")
            )  # L314
        state.boosting = True
        state.log.append(action)
        return state
    if action == "transform":
        if state.ordinary_left <= 0:
            raise RuleError("no_actions", T("No actions left this turn.", "Действий в этом ходу не осталось."))
        state.ordinary_left = 0  # L119: the rest of the turn
        state.transforming = True
        state.log.append(action)
        return state
    if action in REACTIONS and not options.reactions_consume_actions:
        state.log.append(action)
        return state
    if extra_phase or (state.ordinary_left <= 0 and state.extra_left > 0 and action in REACTIONS):
        if state.extra_left <= 0:
            raise RuleError("no_extra", T("No extra actions left.", "Дополнительных действий не осталось."))
        state.extra_left -= 1
    else:
        if state.ordinary_left <= 0:
            raise RuleError(
                "no_actions", T("No ordinary actions left this turn.", "Обычных действий в этом ходу не осталось.")
            )
        state.ordinary_left -= 1
    if action == "wait":
        state.held = True  # converts an ordinary action into a held one
    state.log.append(action)
    return state


def _check_round1(state: TurnState, action: str, direct_damage_spell: bool, *, options: Mapping[str, Any]) -> None:
    """Round 1 (L250): no counterattacks; the attackers attack or cast direct damage; the others
    (OPTION round1_others) only block or dodge."""
    if action == "counterattack":
        raise RuleError(
            "no_counter_round1",
            T(
                "No counterattacks in round 1.",  # L250
                "В первом раунде контратаковать нельзя.",
            ),
        )  # L250
    if state.initiator and not (action == "attack" or (action == "cast" and direct_damage_spell)):
        raise RuleError(
            "initiator_round1",
            T(
                "In round 1 the attackers may only attack or cast direct-damage spells.",  # L250
                "В первом раунде нападающие только атакуют или создают заклинания прямого урона.",
            ),
        )  # L250
    if not state.initiator and options.round1_others == "block_dodge_only" and action not in ("block", "dodge"):
        raise RuleError(
            "others_round1",
            T(
                "In round 1 the others may only block or dodge.",  # L250
                "В первом раунде остальные могут только блокировать или уворачиваться.",
            ),
        )  # L250


def use_held_action(state: TurnState, action: str, **kw) -> TurnState:
    if not state.held:
        raise RuleError("nothing_held", T("No held action.", "Нет отложенного действия."))
    state.held = False
    state.log.append(action)
    return state


def run_distance(athletics_successes: int, grid: bool = False) -> int:
    """L238: 5 m (or 2 cells) per Athletics success."""
    return max(0, athletics_successes) * (2 if grid else 5)


STEP_M, JOG_M = 3, 2  # L239, L246


def block_pool(pool: int, direction: str = "front") -> int:
    """L235: -1 die against attacks from the side/above, -2 from behind/below."""
    return max(0, pool - BLOCK_DIRECTION_DICE[direction])


def can_dodge_spell(dodger, caster) -> bool:
    """L236: a spell can be dodged only if visible: the dodger has Yinsta's Clairvoyance or the
    caster has Pathos."""
    return dodger.skill_level("clairvoyance") > 0 or caster.has_feature("pathos")


def noncombat_skill_dice(alertness_successes: int) -> int:
    """L240: no success on the preliminary Alertness roll -> -1 die on the skill roll."""
    return -1 if alertness_successes <= 0 else 0
