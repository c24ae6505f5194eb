"""Test helpers for the RET system tests (imported by the test modules of this folder)."""

from __future__ import annotations

import random


class Scripted(random.Random):
    """An rng whose ``randint`` returns the given faces in order (checks each is in range)."""

    def __init__(self, *faces: int):
        super().__init__(0)
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        if not self.faces:
            raise AssertionError(f"rng asked for d{b} but the script is exhausted")
        v = self.faces.pop(0)
        if not a <= v <= b:
            raise AssertionError(f"scripted face {v} does not fit d{b}")
        return v


# tier-III values in the order of spec §9.2
ORDER = [
    "education",
    "wits",
    "attention",
    "intuition",
    "inspiration",
    "charisma",
    "composure",
    "leadership",
    "physique",
    "endurance",
    "fine_motor",
    "body_control",
]


def build(values) -> dict:
    return dict(zip(ORDER, values))


CHARS = {
    "A": build([3] * 12),
    "B": build([5, 4, 3, 6, 2, 7, 6, 3, 7, 6, 3, 4]),
    "C": build([4, 3, 4, 4, 3, 3, 3, 3, 5, 4, 3, 3]),
    "E": build([4, 5, 4, 5, 4, 5, 4, 5, 3, 4, 3, 4]),
    "D": build([7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6]),
}


#: the rules spec's TV-D vectors: the values a character is built from -> its derived values
DERIVED_VECTORS = {
    "TV-D1": (
        CHARS["A"],
        {
            "intellect": 3,
            "perception": 3,
            "empathy": 3,
            "will": 3,
            "strength": 3,
            "agility": 3,
            "mind": 3,
            "emotions": 3,
            "body": 3,
            "level": 3,
            "health_max": 6,
            "sanity_max": 6,
            "luck_max": 6,
            "strike_power": 1,
            "speed": 3,
        },
    ),
    "TV-D2": (
        CHARS["B"],
        {
            "intellect": 4,
            "perception": 4,
            "empathy": 4,
            "will": 4,
            "strength": 6,
            "agility": 3,
            "mind": 4,
            "emotions": 4,
            "body": 4,
            "level": 4,
            "health_max": 8,
            "sanity_max": 8,
            "luck_max": 8,
            "strike_power": 3,
            "speed": 3,
        },
    ),
    "TV-D3": (
        CHARS["C"],
        {
            "intellect": 3,
            "perception": 4,
            "strength": 4,
            "agility": 3,
            "mind": 3,
            "body": 3,
            "level": 3,
            "strike_power": 2,
            "health_max": 6,
        },
    ),
    "TV-D4": (
        CHARS["E"],
        {
            "intellect": 4,
            "perception": 4,
            "empathy": 4,
            "will": 4,
            "strength": 3,
            "agility": 3,
            "mind": 4,
            "emotions": 4,
            "body": 3,
            "level": 3,
            "health_max": 6,
            "sanity_max": 8,
            "luck_max": 6,
        },
    ),
    "TV-D5": (
        CHARS["D"],
        {
            "mind": 7,
            "emotions": 7,
            "body": 6,
            "level": 6,
            "health_max": 12,
            "sanity_max": 14,
            "luck_max": 12,
            "strike_power": 3,
            "speed": 6,
        },
    ),
    "TV-D6": (
        build([0] * 12),
        {
            "mind": 0,
            "body": 0,
            "level": 0,
            "health_max": 0,
            "sanity_max": 0,
            "luck_max": 0,
            "strike_power": 0,
            "speed": 0,
        },
    ),
    "TV-D7": (
        build([7] * 12),
        {"level": 7, "health_max": 14, "sanity_max": 14, "luck_max": 14, "strike_power": 3, "speed": 7},
    ),
}


def healer(divider=(4, 2)):
    """A superpower Heal talent (empathy 3, 1 Sanity a use) with the magnitude ``divider``."""
    from tabletop_systems.ret import Character

    heal = {
        "name": "Heal",
        "kind": "talent",
        "base_param": "empathy",
        "level": 3,
        "is_superpower": True,
        "sanity_cost": 1,
        "divider": list(divider) if isinstance(divider, tuple) else divider,
    }
    return Character(abilities=[heal])


#: TV-B39: a Pyromancer talent and its Firestorm ultimate
PYROMANCER = dict(
    composure=7,
    leadership=7,
    abilities=[
        {"name": "Pyromancer", "kind": "talent", "base_param": "will", "level": 6},
        {"name": "Firestorm", "kind": "ultimate", "parent_talent": "Pyromancer", "level": 5},
    ],
)

#: TV-B65: the weapons whose damage at a roll of 2 the vector lists, in its order
B65_WEAPONS = (
    "unarmed",
    "reinforced_unarmed",
    "blunt",
    "short_blade",
    "blade",
    "heavy_blade",
    "thrown_blunt",
    "thrown_sharp",
    "light_nonfirearm",
)


def d50_fighters() -> dict:
    """TV-D50's five combatants: A (attention and intuition 5), B (7), C, D, E (the defaults)."""
    from tabletop_systems.ret import Character

    return {
        "A": Character(attention=5, intuition=5),
        "B": Character(attention=7, intuition=7),
        "C": Character(),
        "D": Character(),
        "E": Character(),
    }
