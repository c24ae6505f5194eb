"""The divider (spec §5.7): a roll's total turned into an amount, ``max(0, total) // D + base``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop_widgets.core import RuleError, T

from . import data


@dataclass(frozen=True)
class Divider:
    d: int
    base: int

    def __str__(self) -> str:
        return f"{self.d} (+{self.base})"


def divider_presets() -> dict[str, Divider]:
    return {r["id"]: Divider(r["d"], r["base"]) for r in data.rows("dividers")}


def resolve_divider(value: Any) -> Divider:
    """A Divider, ``(d, base)``, ``"normal"``/``"strict"``/``"generous"`` or ``"4+2"``."""
    if isinstance(value, Divider):
        return value
    if isinstance(value, (list, tuple)) and len(value) == 2:
        d, b = int(value[0]), int(value[1])
    elif isinstance(value, str) and value.strip().lower() in divider_presets():
        return divider_presets()[value.strip().lower()]
    elif isinstance(value, str) and "+" in value:
        a, _, b_ = value.partition("+")
        d, b = int(a.strip().strip("(")), int(b_.strip().strip(")"))
    else:
        raise RuleError(
            "bad_divider",
            T(
                "divider: a preset (strict/normal/generous) or D and base",
                "делитель: строгий/обычный/щедрый или D и основа",
            ),
        )
    if d < 1 or b < 0:
        raise RuleError("bad_divider", T("divider D must be >= 1 and base >= 0", "делитель D >= 1, основа >= 0"))
    return Divider(d, b)


def apply_divider(total: int | None, divider: Divider, *, fail: bool = False, on_fail: str = "zero") -> int:
    """``max(0, total) // D + base`` (L634-636); a fail gives 0 (or the base, A10)."""
    if fail or total is None:
        return divider.base if on_fail == "base" else 0
    return max(0, total) // divider.d + divider.base
