"""Inventory economy (spec §7.6, §3.10): costs in inventory points (InvP), weights, money,
enchanted items, helmets, natural armour."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Iterable, Mapping

from tabletop_widgets.core import RuleError, T

from . import data
from .model import RARITY_MULT

CONTAINER_COST = data.column("containers", "cost")  # L166-L168
# L171-L177: the flat-priced effects (friend-or-foe and intent recognition are priced per unit)
EFFECT_COST = {
    r["id"]: r["cost"]
    for r in data.TABLES.rows("enchant_effects")
    if "cost" in r and not {"cost_per_friend", "cost_per_2m_radius"} & set(r)
}
ZERO_WEIGHT = ("potion", "amulet", "artifact", "pet")  # L167, L179
COIN_VALUE = {coin: Fraction(str(v)) for coin, v in data.column("coins", "fire_value").items()}


def _mult(rarity: str) -> int:
    try:
        return RARITY_MULT[rarity]
    except KeyError:
        raise RuleError("bad_rarity", T(f"Unknown rarity {rarity!r}.", f"Неизвестная редкость {rarity!r}.")) from None


def weapon_cost(damage: int, material_rarity: str = "common") -> int:
    """L155: a weapon costs its damage (counting the material) x the material's rarity."""
    return int(damage) * _mult(material_rarity)


def armour_cost(protection: int, rarity: str = "common") -> int:
    """L157: armour costs its protection x rarity."""
    return int(protection) * _mult(rarity)


def simple_item_cost(rarity: str = "common", base: int = 1) -> int:
    """L162: most simple items cost 1 (x rarity)."""
    return int(base) * _mult(rarity)


def item_weight(w: float) -> float:
    """L163: anything lighter than 0.5 kg weighs nothing."""
    return 0.0 if w < 0.5 else float(w)


def helmet_weight(armour_weight_kg: float) -> float:
    """L158: a helmet costs 0 InvP and weighs 0.1 x the armour's weight, rounded to 0.5 kg
    (halves up); no armour -> 0 (A-37)."""
    x = 0.1 * armour_weight_kg
    return math.floor(x * 2 + 0.5 + 1e-9) / 2


def coin_weight(fire: int = 0, agate: int = 0, emerald: int = 0, azure: int = 0) -> float:
    """L164: every 20 coins of any denomination weigh 0.5 kg ([DEFAULT] floor)."""
    return 0.5 * ((fire + agate + emerald + azure) // 20)


def money_value(fire: int = 0, agate: int = 0, emerald: int = 0, azure: int = 0) -> Fraction:
    """Value in fire-coins = InvP (L164): 1 InvP = 1 fire = 10 agate; emerald 10 fire; azure 10 emerald."""
    return (
        fire * COIN_VALUE["fire"]
        + agate * COIN_VALUE["agate"]
        + emerald * COIN_VALUE["emerald"]
        + azure * COIN_VALUE["azure"]
    )


def money_for_points(points: int) -> list[dict[str, int]]:
    """Ways to spend whole InvP on a single kind of coin (D-110)."""
    out = [{"fire": points}, {"agate": points * 10}]
    if points % 10 == 0:
        out.append({"emerald": points // 10})
    if points % 100 == 0:
        out.append({"azure": points // 100})
    return out


def enchanted_cost(
    brightness: int,
    spell_level: int,
    container: str = "vial",
    magic_rarity: str = "common",
    effects: Iterable[str] = (),
    friends: int = 0,
    intent_radius_m: float | None = None,
    category: str = "potion",
    scope: str = "base_incl_container",
) -> int:
    """Potion / amulet / artifact cost (L166-L177).

    base = (brightness + spell level + container) x magic rarity ([DEFAULT] the whole base cost is
    multiplied, OPTION enchant_multiplier_scope="spell_only" multiplies brightness + level only);
    then special effects are added; friend-or-foe +1 per friend; intent recognition 2 + 1 per
    *full* 2 m of radius."""
    effects = list(effects)
    if "mental_trigger" in effects and category != "artifact":
        raise RuleError(
            "E_MENTAL_TRIGGER",
            T("Mental triggers are for artifacts only.", "Ментальный триггер — только для артефактов."),
        )
    cont = CONTAINER_COST[container] if isinstance(container, str) else int(container)
    m = _mult(magic_rarity)
    if scope == "spell_only":
        base = (brightness + spell_level) * m + cont
    else:
        base = (brightness + spell_level + cont) * m
    extra = 0
    for e in effects:
        if e not in EFFECT_COST:
            raise RuleError("bad_effect", T(f"Unknown special effect {e!r}.", f"Неизвестный эффект {e!r}."))
        extra += EFFECT_COST[e]
    extra += int(friends)
    if intent_radius_m is not None:
        extra += 2 + int(intent_radius_m // 2)
    return base + extra


def item_cost(it: Mapping[str, Any], scope: str = "base_incl_container") -> Fraction:
    """Cost of one inventory entry: its ``cost`` if given, else computed from its category."""
    qty = int(it.get("qty", 1))
    if "cost" in it:
        return Fraction(it["cost"]).limit_denominator(100) * qty
    cat = it.get("category")
    rarity = it.get("rarity", "common")
    if cat == "weapon":
        c = weapon_cost(int(it.get("damage", 0)), rarity)
    elif cat == "armour":
        c = armour_cost(int(it.get("protection", 0)), rarity)
    elif cat in ("potion", "amulet", "artifact") and "brightness" in it:
        c = enchanted_cost(
            int(it["brightness"]),
            int(it.get("spell_level", 1)),
            it.get("container", {"potion": "vial", "amulet": "pendant"}.get(cat, "object")),
            rarity,
            [e for e in it.get("effects", ()) if e in EFFECT_COST],
            int(it.get("friends", 0)),
            it.get("intent_radius_m"),
            category="artifact",
            scope=scope,
        )
        # (costing only: a misplaced mental trigger or an unknown effect is reported by validate())
    elif cat == "pet":
        c = 0  # GM-entered cost
    else:
        c = simple_item_cost(rarity)
    return Fraction(c) * qty


def inventory_cost(ch) -> Fraction:
    scope = ch.RULES.enchant_multiplier_scope
    total = sum((item_cost(it, scope) for it in ch.inventory), Fraction(0))
    return total + money_value(**{k: int(v) for k, v in ch.money.items()})


def carried_weight(ch) -> float:
    """Everything carried incl. weapons, armour and helmet, plus coins (L127, L163-L164)."""
    total = 0.0
    for it in ch.inventory:
        if it.get("category") in ZERO_WEIGHT:
            continue
        total += item_weight(float(it.get("weight_kg", 0))) * int(it.get("qty", 1))
    if ch.helmet != "none":
        armour = ch.worn("armour")
        total += helmet_weight(float(armour.get("weight_kg", 0)) if armour else 0.0)
    total += coin_weight(**{k: int(v) for k, v in ch.money.items()})
    return total


# -- natural armour (L108) --------------------------------------------------------------------------
_ROMAN = re.compile(r"^(?P<type>.*?)(?P<level>[IVX]+)$")
NATURAL_ARMOUR_TYPES = {"шерсть": "fur", "чешуя": "scales", "панцирь": "shell", "перья": "feathers", "кожа": "hide"}


def roman_to_int(s: str) -> int:
    vals = {"I": 1, "V": 5, "X": 10}
    total = 0
    for i, ch in enumerate(s):
        v = vals[ch]
        if i + 1 < len(s) and vals[s[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


def int_to_roman_repeat(n: int) -> str:
    """The book writes levels as repeated I's (IIII for 4, L108)."""
    return "I" * n


def parse_natural_armour(text: str) -> dict[str, Any]:
    """«шерстьI» -> {type: "fur", level: 1}; «чешуяIIII» -> {type: "scales", level: 4} (L108)."""
    m = _ROMAN.match(text.strip())
    if not m or not m.group("type"):
        raise ValueError(f"not a natural armour notation: {text!r}")
    t = m.group("type").strip()
    return {"type": NATURAL_ARMOUR_TYPES.get(t.lower(), t), "type_ru": t, "level": roman_to_int(m.group("level"))}


def natural_armour_protection(level: int, age: str) -> int:
    """[DEFAULT] protection = level; children and adolescents get 1 less (L108), min 0."""
    if level <= 0:
        return 0
    penalty = 1 if age in ("child", "adolescent") else 0
    return max(0, level - penalty)
