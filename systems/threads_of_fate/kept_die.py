"""The kept die of spec §5.4: 1 + |net| d20, the highest kept for Advantages, the lowest for Hindrances;
its exact distribution and what one kept value means against a difficulty."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

from tabletop_widgets.dice.results import Die


MAX_EXTRA_DICE = 2  # L109


def net_dice(advantages: int, hindrances: int, order: str = "cancel_then_cap") -> int:
    """Net extra dice: + Advantages, - Hindrances; capped at +-2 (L108-109, A2)."""
    if advantages < 0 or hindrances < 0:
        raise ValueError("advantages and hindrances cannot be negative")
    if order == "cancel_then_cap":
        net = advantages - hindrances
    elif order == "cap_then_cancel":
        net = min(advantages, MAX_EXTRA_DICE) - min(hindrances, MAX_EXTRA_DICE)
    else:
        raise ValueError(f"unknown adv_order {order!r}")
    return max(-MAX_EXTRA_DICE, min(MAX_EXTRA_DICE, net))


@lru_cache(maxsize=None)
def kept_die_pmf(net: int) -> dict[int, Fraction]:
    """Exact distribution of the kept d20 with ``1 + |net|`` dice, highest kept for net > 0,
    lowest for net < 0 (L108-109)."""
    k = 1 + abs(net)
    den = Fraction(1, 20**k)
    if net >= 0:
        return {x: (x**k - (x - 1) ** k) * den for x in range(1, 21)}
    return {x: ((21 - x) ** k - (20 - x) ** k) * den for x in range(1, 21)}


def roll_kept(net: int, rng: random.Random) -> tuple[int, list[int], int]:
    """Roll ``1 + |net|`` d20 and keep one: (kept value, all dice, index of the kept die)."""
    dice = [rng.randint(1, 20) for _ in range(1 + abs(net))]
    if net > 0:
        idx = max(range(len(dice)), key=lambda i: (dice[i], -i))
    elif net < 0:
        idx = min(range(len(dice)), key=lambda i: (dice[i], i))
    else:
        idx = 0
    return dice[idx], dice, idx


def die_succeeds(x: int, bonus: int, difficulty: int, *, options) -> bool:
    """One kept die value against the difficulty (L98, L114; A4)."""
    if x == 1 and options.nat1_auto_fail:
        return False
    if x == 20 and options.nat20_auto_success:
        return True
    return x + bonus >= difficulty


def succeeds_only_on_20(bonus: int, difficulty: int, *, options) -> bool:
    """§5.2: no die below 20 succeeds and a 20 does (L135, L189, L191; A14)."""
    need = difficulty - bonus
    return need == 20 or (need > 20 and bool(options.nat20_auto_success))


def p_success(bonus: int, difficulty: int, net: int, *, options) -> Fraction:
    """Exact P(success) of a rolled check (§5.4)."""
    return sum(
        (p for x, p in kept_die_pmf(net).items() if die_succeeds(x, bonus, difficulty, options=options)), Fraction(0)
    )


def dice_objects(dice: list[int], idx: int) -> list[Die]:
    out = []
    for i, v in enumerate(dice):
        crit = ("success" if v == 20 else "failure" if v == 1 else None) if i == idx else None
        out.append(Die(20, v, kept=(i == idx), dropped=(i != idx), crit=crit))
    return out


def attack_damage(
    total: int, defense: int, durability: int, kept: int, immune: bool = False, *, min_success: int = 0
) -> int:
    """Damage = margin over Defense minus Durability; a natural 20 always costs >= 1 HP (L114, L347, L351; A21).
    A hit (the total reaches the Defense, or a natural 20) deals at least ``min_success`` before
    Durability: the GM option ``min_success_damage`` (A13; the book's 0 by default, L351)."""
    if immune:
        return 0
    raw = max(0, total - defense)
    if total >= defense or kept == 20:
        raw = max(raw, min_success)
    dmg = max(0, raw - durability)
    if kept == 20:
        dmg = max(dmg, 1)
    return dmg
