"""Seasons conditions (spec §7.3; L684-716): -3 each, stacking, resisted and shaken off by kind."""

from __future__ import annotations

#: Resist / shake off a condition (L688): kind -> (attribute, skill).
CONDITION_CHECK = {
    "physical": ("stamina", "athletics"),
    "mental": ("resolve", "occult"),
    "social": ("composure", "empathy"),
}
CONDITION_KINDS = tuple(CONDITION_CHECK)
