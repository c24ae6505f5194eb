"""A new condition instance on a combatant as event data: checked against the system's
catalogue (``ConditionSpec``) and the combat, its countdown based on the turns counted so far.
Reads the combat through its public methods only."""

from __future__ import annotations

from typing import Any, Mapping

from ..i18n import tr
from .records import COUNTED_UNITS, jsonable
from .state import combat_error


def checked_duration(duration: Any) -> int:
    """``duration`` as a whole number of 1 or more, or a refusal."""
    if isinstance(duration, bool) or int(duration) != duration or duration < 1:
        raise combat_error(
            "bad_duration", "A duration is a whole number of 1 or more.", "Длительность — целое число от 1."
        )
    return int(duration)


def new_condition(
    combat, cid: str, condition: str, duration: int | None, ticks_on: str | None, data: Mapping[str, Any] | None
) -> dict:
    """A new instance of ``condition`` on ``cid`` as event data (checked; not yet applied)."""
    combat.require(cid)
    spec = combat.condition_spec(condition)
    if spec is None:
        raise combat_error(
            "unknown_condition", f"Unknown condition {condition!r}.", f"Неизвестное состояние {condition!r}."
        )
    ticks_on = ticks_on or cid
    combat.require(ticks_on)
    if duration is None:
        duration = spec.duration if spec.unit in COUNTED_UNITS else None
    if duration is not None:
        duration = checked_duration(duration)
    if not spec.stacks and any(c["id"] == condition for c in combat.conditions(cid)):
        raise combat_error(
            "already_has",
            f"{combat.name(cid)} already has {tr(spec.label)}.",
            f"{combat.name(cid)}: «{tr(spec.label, 'ru')}» уже есть.",
        )
    if data is not None and not isinstance(data, Mapping):
        raise combat_error(
            "bad_data",
            "Condition data is a mapping of names to values.",
            "Данные состояния — словарь «имя: значение».",
        )
    data = jsonable(dict(data or {}))
    unit = spec.unit if duration is None or spec.unit in COUNTED_UNITS else "rounds"
    at = 0 if spec.ticks_at == "start" else 1
    out = {
        "id": cid,
        "condition": condition,
        "uid": combat.next_uid,
        "duration": duration,
        "unit": unit,
        "ticks_at": spec.ticks_at,
        "ticks_on": ticks_on,
        "base": combat.turn_count(ticks_on, at),
    }
    if data:
        out["data"] = data
    return out
