"""Attacks (spec §6.7-§6.10): modifiers of an attack, contests with the defences, their riders."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import Effect, RuleError, T
from tabletop_widgets.core.options import GmOptions

from .checks import Divider, apply_divider, contest
from .level import LevelRoll

BODY_PARTS = ("head", "legs", "arms", "weapon", "special")


@dataclass
class AttackPlan:
    shift: int = 0
    sanity_cost: int = 0
    action_cost: bool = False
    rounds: int = 0
    defences_per_target: int = 1
    area_diameter: int | None = None
    health_mult: int = 1
    sanity_single: bool = False
    notes: list = field(default_factory=list)


def plan_attack(
    *,
    body_part: str | None = None,
    sweep: bool = False,
    spray: str | None = None,
    burst: str | None = None,
    power_area: int | None = None,
    extra_targets: int = 0,
    two_weapons: bool = False,
    superpower: bool = False,
    base_cost: int = 1,
    augment: bool = False,
    augment_shift: int = 0,
    weapon: Mapping[str, Any] | None = None,
    options: GmOptions,
) -> AttackPlan:
    """Die-level shift, Sanity, action and ammunition costs of an attack's modifiers; penalties
    add up (L861, L988, L1247). ``spray``/``burst``: ``"half"`` or ``"full"`` magazine;
    ``power_area``: 2 or 3 (metres)."""
    p = AttackPlan()
    cost = base_cost if superpower else 0
    if body_part:
        _called_shot(p, body_part)
    if augment:  # L982-984
        _augment(p, augment_shift)
        if superpower:
            cost += 1
    if sweep:
        _sweep(p, weapon)
    for mode, kind in ((spray, "spray"), (burst, "burst")):
        if mode is not None:
            _magazine(p, mode, kind, weapon, options=options)
    if power_area is not None:
        if power_area not in (2, 3):
            raise RuleError("bad_area", T("power area is 2 or 3 metres", "область силы — 2 или 3 метра"))
        p.shift -= 1
        p.action_cost = True
        p.area_diameter = power_area
        cost = power_area  # L887-888: 2 / 3 instead of 1
    if extra_targets:
        p.shift -= extra_targets  # L894: -1 per extra target
        p.action_cost = True
        cost = cost * (1 + extra_targets)  # L896
    if two_weapons:
        p.shift -= 1  # L1243, L1297
        if superpower and (power_area or spray or sweep):  # L1248, L1302
            diameter = power_area or (3 if spray == "full" else 2)
            cost = 3 if diameter == 2 else 4
    p.sanity_cost = cost
    return p


def _called_shot(p: AttackPlan, body_part: str) -> None:
    """An aimed attack at a body part (L811-837): -1 level, the action spent."""
    if body_part not in BODY_PARTS:
        raise RuleError(
            "bad_body_part",
            T(f"body part must be one of {', '.join(BODY_PARTS)}", f"часть тела: {', '.join(BODY_PARTS)}"),
        )
    p.shift -= 1
    p.action_cost = True  # L811
    if body_part == "head":
        p.health_mult, p.sanity_single = 2, True  # L818
    if body_part == "weapon":
        p.health_mult = 0  # L837: no damage to the target


def _augment(p: AttackPlan, augment_shift: int) -> None:
    p.action_cost = True
    p.shift -= int(augment_shift)
    p.notes.append(
        T(
            "augmentation: extra effect if the attack wins and the target fails a fitting defence against it",
            "дополнение: эффект, если атака успешна и цель провалит защиту от него",
        )
    )


def _sweep(p: AttackPlan, weapon: Mapping[str, Any] | None) -> None:
    if weapon is not None and not weapon.get("heavy"):
        raise RuleError(
            "sweep_needs_heavy",
            T("A sweep needs a heavy melee weapon.", "Для атаки вокруг себя нужно тяжёлое оружие."),
        )
    p.shift -= 1
    p.action_cost = True  # L868


def _magazine(p: AttackPlan, mode: str, kind: str, weapon: Mapping[str, Any] | None, *, options: GmOptions) -> None:
    """A spray (L877-879) or a burst (L903-904) of half or all the magazine."""
    if weapon is not None and not weapon.get("automatic"):
        raise RuleError("needs_automatic", T("Needs an automatic weapon.", "Нужно автоматическое оружие."))
    if mode not in ("half", "full"):
        raise RuleError("bad_magazine", T("half or full magazine", "половина или весь магазин"))
    p.shift -= 1
    cap = int((weapon or {}).get("capacity", 0))
    ammo = int((weapon or {}).get("ammo", cap))
    need = math.ceil(cap / 2) if mode == "half" else cap  # A28
    if weapon is not None and options.burst_requires_rounds and ammo < need:
        raise RuleError("no_ammo", T(f"Needs {need} rounds; {ammo} left.", f"Нужно патронов: {need}, осталось {ammo}."))
    p.rounds = min(need, ammo) if weapon is not None else need
    if kind == "spray":
        p.action_cost = True  # L877
        p.area_diameter = 2 if mode == "half" else 3  # L878-879
    else:
        p.defences_per_target = 2 if mode == "half" else 3  # L903-904
        if options.burst_costs_action:  # A28: the book names no action for a burst at one target
            p.action_cost = True


def resolve_attack(attack: LevelRoll, defences: Sequence[LevelRoll | None], *, options: GmOptions) -> list[bool]:
    """One attack total against one or more defences (burst: 2-3 against the same total, L903;
    areas: each target defends, A27). ``None`` = defence refused. True = the defence was lost."""
    return [contest(attack, d, options=options) == "attacker" for d in defences]


#: map scale (L707): a token base (2 cm) is one conventional metre, one step
STEP_METRES = 1


def free_steps_after(kind: str, res: LevelRoll, won: bool) -> int:
    """A successful dodge lets the defender move 1 step for free (L1056)."""
    return 1 if kind == "dodge" and won and not res.fail else 0


def defence_riders(kind: str, res: LevelRoll, won: bool) -> list[Effect]:
    """Parry success: Battle Rage +1 Sanity (L1065), capped by apply_effects. (Dodge's free step
    is movement, see :func:`free_steps_after`.)"""
    if not won or res.fail:
        return []
    if kind == "parry":
        return [Effect("sanity", 1, T("Battle Rage", "Боевой Раж"))]
    return []


def aim_bonus(res: LevelRoll, divider: Divider) -> int:
    """Aim (L934-944): a fail gives no bonus; otherwise the divider result, which replaces an
    active aim bonus (never stacks, L940)."""
    return apply_divider(res.total, divider, fail=res.fail, on_fail="zero")


def cover_bonus(res: LevelRoll, divider: Divider) -> int:
    """Take cover / shield cover (L990-1004): the divider result; nothing on a fail (L998)."""
    return apply_divider(res.total, divider, fail=res.fail, on_fail="zero")


def dispel_cost(attacker_cost: int, *, protect_allies: bool = False) -> int:
    """Dispel costs the Sanity the attacker paid (1, or 2/3 for an area), +1 to protect allies
    too (L1085-1086)."""
    return int(attacker_cost) + (1 if protect_allies else 0)


def in_reach(weapon: Mapping[str, Any], distance: int) -> bool:
    """Melee needs adjacency; spears reach 2 steps ("across one metre", L1229)."""
    return distance <= int(weapon.get("reach", 1))


def movement_block(blocker: LevelRoll, mover: LevelRoll, *, options: GmOptions) -> bool:
    """Movement block (L1010-1014): blocker's Physique/Body Control vs the mover's Strength/
    Agility; the mover is the defending side, so ties let the mover through (A26; the GM option
    ``movement_block_ties="blocker"`` stops the mover on a tie instead). True = the
    move stops."""
    if options.movement_block_ties == "blocker":
        return contest(mover, blocker, options=options) == "defender"
    return contest(blocker, mover, options=options) == "attacker"


def hidden_attack(
    attack: LevelRoll,
    detection: LevelRoll | None,
    defence: LevelRoll | None,
    detection_difficulty: int | None = None,
    *,
    options: GmOptions,
) -> bool:
    """An attack from hiding (L1127, L1652): a target that fails to detect the attacker (its
    Perception roll loses to the hide roll, or fails) counts its defence as failed. True = hit."""
    undetected = (
        detection is None
        or detection.fail
        or (detection_difficulty is not None and detection.total < detection_difficulty)
    )
    if undetected:
        return not attack.fail
    return contest(attack, defence, options=options) == "attacker"


def weapon_change_costs_action(*, bulky: bool = False, cinematic: bool = False, options: GmOptions) -> bool:
    """Changing weapons (L965, L1036, A54): free unless the item is bulky; the GM may make every
    change cost the action outside cinematic combat."""
    if bulky:
        return True
    return bool(options.weapon_change_costs_action) and not cinematic


def luck_pick(
    candidates: Mapping[str, int],
    *,
    rng: random.Random | None = None,
    good: bool = True,
    options: GmOptions,
) -> str:
    """A GM random pick among participants using their Luck (L363, A39): for a good event the
    weight is Luck + 1; for a bad one the luckiest are least likely (weight max + 1 - Luck)."""
    rng = rng if rng is not None else random.Random()
    ids = list(candidates)
    if not ids:
        raise RuleError("no_candidates", T("nobody to pick", "не из кого выбирать"))
    if options.luck_pick == "uniform":
        return ids[rng.randint(0, len(ids) - 1)]
    top = max(candidates.values())
    weights = [(candidates[i] + 1) if good else (top + 1 - candidates[i]) for i in ids]
    r = rng.randint(1, sum(weights))
    for i, w in zip(ids, weights):
        r -= w
        if r <= 0:
            return i
    return ids[-1]


#: body-part riders resisted against the same attack total (L816-841): part -> (roll, condition)
CALLED_SHOT_RIDERS = {
    "legs": ("body_control", "off_balance"),  # knock-down (L827)
    "arms": ("fine_motor", "disarmed"),  # disarm: the weapon drops (L833)
    "head": ("endurance", "blinded"),  # blinding etc. when the GM applies it (L821)
}


def called_shot_rider(part: str, attack: LevelRoll, resistance: LevelRoll | None, *, options: GmOptions) -> str | None:
    """The secondary effect of a body-part hit: the target rolls the listed parameter against the
    attacker's original total and wins ties (spec §5.6); returns the effect id or None."""
    if part not in CALLED_SHOT_RIDERS:
        return None
    if contest(attack, resistance, options=options) == "defender":
        return None
    return CALLED_SHOT_RIDERS[part][1]
