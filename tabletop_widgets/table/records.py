"""What the table recorded, as the views show it: rolls and checks rebuilt from stored events.

The tray, the log and the dice animation show what the table rolled (the event's outcome), not
a roll of their own: :class:`StoredRoll` and :class:`StoredCheck` give them the same reading
interface as a fresh ``RollResult`` / ``CheckResult`` without rolling again.
"""

from __future__ import annotations

import html
from types import SimpleNamespace
from typing import Any, Mapping

from ..dice.results import Die


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def dice_from_json(data: Mapping[str, Any]) -> list[Die]:
    if data.get("results"):
        return [d for sub in data["results"] for d in dice_from_json(sub)]
    out = []
    for d in data.get("dice") or ():
        flags = {k: d[k] for k in ("dropped", "rerolled", "exploded", "success", "failure", "crit") if k in d and d[k]}
        if not d.get("counted", True) and not (flags.get("dropped") or flags.get("rerolled")):
            flags["kept"] = False
        out.append(Die(d.get("faces"), d.get("value"), **flags))
    return out


class StoredRoll:
    """A roll as the table recorded it (``RollResult.to_json()`` plus its texts): what the tray,
    the log and the dice animation need, without rolling again."""

    def __init__(self, data: Mapping[str, Any], texts: Mapping[str, str] | None = None):
        self.data = dict(data or {})
        self.expression = str(self.data.get("expression", ""))
        self.total = self.data.get("total")
        check = self.data.get("check")
        self.passed = check.get("passed") if isinstance(check, Mapping) else None
        self._texts = {k: v for k, v in (texts or {}).items() if v}
        self._texts.setdefault("en", str(self.data.get("text", "")))

    @property
    def dice(self) -> list[Die]:
        return dice_from_json(self.data)

    def text(self, locale: str | None = None) -> str:
        return self._texts.get(locale or "en") or self._texts["en"]

    def html(self, locale: str | None = None, *, css: bool = True, live: bool = True) -> str:
        dice = "".join(
            f'<span class="tt-die{"" if d.counted else " tt-dropped"}'
            f'{" tt-success" if d.success else ""}{" tt-failure" if d.failure else ""}">{_esc(d.value)}</span>'
            for d in self.dice
        )
        total = f' = <span class="tt-total">{_esc(self.total)}</span>' if self.total is not None else ""
        return (
            f'<div class="tt-roll" aria-label="{_esc(self.text(locale))}">'
            f'<span class="tt-term">{_esc(self.expression)}</span>: {dice}{total}</div>'
        )


class StoredCheck:
    """A named check as the table recorded it (``check_json`` of the session)."""

    def __init__(self, payload: Mapping[str, Any]):
        r = payload["result"]
        self.check_id = r.get("check_id")
        self.label = r.get("label") or {}
        self.success = r.get("success")
        self.total = r.get("total")
        self.outcome = r.get("outcome") or {}
        self.critical = r.get("critical")
        self.margin = r.get("margin")
        self.degree = r.get("degree")
        self.degree_label = r.get("degree_label")
        self.details = r.get("details") or {}
        self.options = payload.get("options") or {}
        roll = r.get("roll")
        texts = payload.get("texts") if isinstance(payload.get("texts"), Mapping) else None
        self.roll = StoredRoll(roll, texts) if isinstance(roll, Mapping) else None
        self.effects = [
            SimpleNamespace(trait=e.get("trait"), delta=e.get("delta"), reason=e.get("reason"))
            for e in r.get("effects") or ()
        ]
        self.character_id = payload.get("character_id")
        self.character = payload.get("character") or {}


def check_changes(check: StoredCheck, after: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """``{trait: (before, after)}`` for the traits the check's effects changed: ``before`` from
    the sheet it was rolled with, ``after`` from the character as the table holds it now."""
    return {
        e.trait: (check.character.get(e.trait), after.get(e.trait))
        for e in check.effects
        if check.character.get(e.trait) != after.get(e.trait)
    }


__all__ = ["StoredCheck", "StoredRoll", "check_changes", "dice_from_json"]
