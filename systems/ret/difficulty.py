"""Difficulties (spec §5.5): the ladder of thresholds, and a roll's outcome against one."""

from __future__ import annotations

from typing import Any

from tabletop_widgets.core import RuleError, T

from . import data
from .level import LevelRoll

#: Key under which fails are kept in total distributions (a fail has no total, L531).
FAIL_KEY = -1000

OUTCOMES = {
    "passed_with_success": T("passed with success", "пройдена с успехом"),
    "passed": T("passed", "пройдена"),
    "not_passed": T("not passed", "не пройдена"),
    "failed": T("failed", "провалена"),
    "critically_failed": T("critically failed", "критически провалена"),
}


def difficulties() -> dict[str, int]:
    return {r["id"]: r["threshold"] for r in data.rows("difficulties")}


def resolve_difficulty(value: Any) -> int | None:
    """An int, or a preset name (``"medium"``, ``"Средняя"``) -> threshold (L507-515)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RuleError(
            "bad_difficulty", T("difficulty must be a number or a preset name", "сложность — число или название")
        )
    if isinstance(value, int):
        return value
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    for r in data.rows("difficulties"):
        if text in (r["id"], r["en"].lower().replace(" ", "_"), r["ru"].lower()):
            return r["threshold"]
    try:
        return int(text)
    except ValueError:
        raise RuleError(
            "bad_difficulty",
            T(
                f"unknown difficulty {value!r}: use a number or one of {', '.join(difficulties())}",
                f"неизвестная сложность {value!r}: число или одно из {', '.join(difficulties())}",
            ),
        ) from None


def outcome_code(res: LevelRoll, difficulty: int | None) -> str | None:
    if res.fail:
        return "critically_failed" if res.critical else "failed"
    if difficulty is None:
        return None
    if res.total >= difficulty:  # equality passes (L517, L576)
        return "passed_with_success" if res.natural_success else "passed"
    return "not_passed"
