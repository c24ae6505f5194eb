"""Seasons conditions (spec §7.3; L684-716): -3 each, stacking, resisted and shaken off by kind."""

from __future__ import annotations

from typing import Any, Mapping

#: Resist / shake off a condition (L688): kind -> (attribute, skill).
CONDITION_CHECK = {
    "physical": ("stamina", "athletics"),
    "mental": ("resolve", "occult"),
    "social": ("composure", "empathy"),
}
CONDITION_KINDS = tuple(CONDITION_CHECK)

#: Which checks a catalogue condition penalises when its item names no ``category`` (spec §7.3):
#: "all", an attribute group (physical / mental / social), a skill, attribute or check id.
#: Situational ones ("near the phobia's source", "against the manipulator") are read as "all":
#: a condition the tracker lists as active is taken to be relevant now; the tray can override.
CONDITION_SCOPES = {
    "depression": "all",
    "phobia": "all",
    "megalomania": "social",
    "fixation": "mental",
    "paranoia": "social",
    "guilty_conscience": "social",
    "ptsd": "social",
    "multiple_personalities": "mental",
    "memory_lapses": "mental",
    "hallucinations": "investigation",
    "sickness": "physical",  # the Storyteller picks the category per instance (§11 #39)
    "emotional_sway": "all",
    "hunger_thirst_fatigue": "physical",
}


def condition_scope(cond: Mapping[str, Any]) -> str:
    """What a sheet condition hinders: its ``category`` (sickness: the one chosen for it, §11 #39),
    else the catalogue's default; free-text conditions hinder every check."""
    return cond.get("category") or CONDITION_SCOPES.get(cond.get("id", ""), "all")
