"""Objects (spec §7.6; L790-826): Structure = 2 x Size, Durability, armour piercing, damage and repair."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions


def structure_max(size: int) -> int:
    """Structure = 2 x Size (L792) for new objects; printed table values are kept as data (§11 #29)."""
    return 2 * size


def effective_durability(durability: int, armour_piercing: int = 0) -> int:
    """AP lowers Durability, never below 0 (L825, §11 #12)."""
    return max(0, durability - armour_piercing)


def effective_armour(armour: int, armour_piercing: int = 0) -> int:
    """AP also helps against a being's armour (L826): armour - AP, never below 0 (§11 #11)."""
    return max(0, armour - armour_piercing)


def damage_object(obj: Mapping[str, Any], amount: int) -> dict[str, Any]:
    """A copy of ``obj`` with ``amount`` more Structure damage; ``destroyed`` when full (L792)."""
    new = dict(obj)
    smax = obj.get("structure_max") or obj.get("structure") or structure_max(obj["size"])
    new["structure_damage"] = min(smax, obj.get("structure_damage", 0) + amount)
    new["structure_left"] = smax - new["structure_damage"]
    new["destroyed"] = new["structure_damage"] >= smax
    return new


def repair_object(obj: Mapping[str, Any], successes: int, *, options: GmOptions) -> dict[str, Any]:
    """A successful repair restores all Structure (§11 #28 default) or ``successes`` levels."""
    new = dict(obj)
    if successes < 1:
        return new
    if options.repair_restores == "all":
        new["structure_damage"] = 0
    else:
        new["structure_damage"] = max(0, obj.get("structure_damage", 0) - successes)
    new["destroyed"] = False
    return new


__all__ = ["damage_object", "effective_armour", "effective_durability", "repair_object", "structure_max"]
