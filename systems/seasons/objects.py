"""Objects (spec §7.6; L790-826): Structure = 2 x Size, Durability, armour piercing, damage and repair."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T
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


def object_structure(obj: Mapping[str, Any]) -> int:
    """An object's Structure: its own ``structure_max`` if given, else 2 x Size (L792)."""
    return int(obj.get("structure_max") or structure_max(int(obj.get("size", 1))))


def is_broken(obj: Mapping[str, Any]) -> bool:
    """Structure filled with damage: the object is destroyed until repaired (L792)."""
    return int(obj.get("structure_damage", 0)) >= object_structure(obj)


def as_weapon(obj: Mapping[str, Any], skill: str = "melee") -> dict[str, Any]:
    """An object used as a weapon (L794-795: one fights with it or throws it): its attack bonus,
    Strength + Melee, or Strength + Ranged when thrown (L514); no armour piercing."""
    return {
        "name": obj.get("name", ""),
        "attack_bonus": int(obj.get("attack_bonus", 0)),
        "armour_piercing": 0,
        "skill": skill,
        "attribute": "strength",
        "improvised": True,
        "broken": is_broken(obj),
    }


def improvised_weapons(character) -> list[dict[str, Any]]:
    """The sheet's objects that carry an attack bonus (the book's table of objects, L797-814), as
    weapons (:func:`as_weapon`)."""
    return [as_weapon(o) for o in character.objects if isinstance(o, Mapping) and "attack_bonus" in o]


def all_weapons(character) -> list[Mapping[str, Any]]:
    """The sheet's weapons, then its objects usable as weapons."""
    return [*character.weapons, *improvised_weapons(character)]


#: Why a broken improvised weapon cannot be used, and what mends it (L792).
BROKEN = T(
    "its Structure is used up, it is broken. Repair it first (Dexterity + Crafts, an extended check).",
    "Структура исчерпана, предмет сломан. Сначала почините его (Ловкость + Ремесло, длительная проверка).",
)


def weapon_named(character, name: str) -> Mapping[str, Any]:
    """The weapon (or object used as one) called ``name`` on the sheet; a RuleError a player
    reads when there is none, or when the object is broken (L792)."""
    weapon = next((w for w in all_weapons(character) if w.get("name") == name), None)
    if weapon is None:
        raise RuleError("no_weapon", T(f"no weapon named {name!r} on the sheet", f"на листе нет оружия {name!r}"))
    if weapon.get("broken"):
        raise RuleError("weapon_broken", T(f"{name}: {BROKEN['en']}", f"{name}: {BROKEN['ru']}"))
    return weapon


__all__ = [
    "BROKEN",
    "all_weapons",
    "as_weapon",
    "damage_object",
    "effective_armour",
    "effective_durability",
    "improvised_weapons",
    "is_broken",
    "object_structure",
    "repair_object",
    "structure_max",
    "weapon_named",
]
