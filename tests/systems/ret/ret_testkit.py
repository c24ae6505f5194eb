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
