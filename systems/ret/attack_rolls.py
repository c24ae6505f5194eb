"""A level roll an attack makes (the attack, a defence, a rider's resistance, noticing a hidden
attacker) before the dice: what ``level.level_roll`` and ``level.roll_outcomes`` take, with the
roll's name and named bonuses for the breakdown."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass
class LevelPlan:
    """A level roll before the dice."""

    label: Mapping[str, str]
    level: int
    bonus: int = 0
    luck: int = 0
    shift: int = 0
    named: list = field(default_factory=list)

    def kwargs(self) -> dict[str, int]:
        return {"level": self.level, "bonus": self.bonus, "luck": self.luck, "shift": self.shift}

    @property
    def notation(self) -> str:
        """The roll as made, die-level shifts included (``L3 dl-1`` rolls d6-1)."""
        return (
            f"L{self.level}"
            + (f"{self.bonus:+d}" if self.bonus else "")
            + (f" dl{self.shift:+d}" if self.shift else "")
        )

    @classmethod
    def of(cls, p) -> "LevelPlan":
        """The level roll of a check's plan (``plan.RollPlan``)."""
        return cls(p.label, p.level, p.bonus, p.luck, p.shift, list(p.bonuses))
