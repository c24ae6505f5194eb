"""Superpowers as the rules see them (spec §7.3, L1146-1217): which abilities are powers, what one
use costs in Sanity, and how a power reaches its target (which decides the defences against it,
L1153-1156).

Plain rules: no dice."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import T

#: how a power reaches its target (the ability's ``delivery``): a projectile or a touch may be
#: dodged (and a touch parried, L1155); a mind attack is met by mental defence (L912, L1156)
DELIVERIES = ("projectile", "touch", "mind")
DELIVERY_WORDS = {
    "projectile": T("Projectile or ray (dodged)", "Снаряд или луч (от него уклоняются)"),
    "touch": T("Touch (dodged or parried)", "Касание (уклонение или парирование)"),
    "mind": T("On the mind (mental defence)", "На сознание (ментальная защита)"),
}
#: a power that says nothing is a projectile, as the book's attack examples are (a fireball,
#: L1073); the GM sets a touch or a mind attack on the sheet
DEFAULT_DELIVERY = "projectile"


def parent_of(c, a: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """An ultimate's parent talent (L1213), or None."""
    if a.get("kind") != "ultimate":
        return None
    return c.ability(a.get("parent_talent") or "")


def is_power(c, a: Mapping[str, Any]) -> bool:
    """Whether using ``a`` is using a superpower: a superpower skill or talent, or an ultimate of
    a superpower talent (L1213: «навык от основного боевого таланта» — the ultimate of a pyromancer
    is a spell, L1158: every use costs Sanity)."""
    if a.get("is_superpower"):
        return True
    parent = parent_of(c, a)
    return bool(parent and parent.get("is_superpower"))


def power_cost(c, a: Mapping[str, Any]) -> int:
    """The Sanity one use of the power ``a`` costs: its own cost, or its parent talent's for an
    ultimate that names none, at least 1 (L1158)."""
    own = a.get("sanity_cost")
    if not own:
        parent = parent_of(c, a)
        own = (parent or {}).get("sanity_cost")
    return max(1, int(own or 1))


def delivery(c, a: Mapping[str, Any]) -> str:
    """How the power ``a`` reaches its target (:data:`DELIVERIES`; an ultimate's from its parent
    talent when it names none)."""
    d = a.get("delivery") or (parent_of(c, a) or {}).get("delivery")
    return d if d in DELIVERIES else DEFAULT_DELIVERY
