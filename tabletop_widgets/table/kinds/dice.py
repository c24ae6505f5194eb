"""The dice kinds: a dice expression rolled (``roll``), a roll that failed after its dice were
drawn (``roll.failed``), a named check of the system (``check``), and a player's latest check
read again after the roll (``check.after``: Life&Death's epic dice)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ...core.i18n import LOCALES, T, tr
from ..events import norm
from ..payload import Payload, optional, text
from ..records import dice_html, is_big, stored_form, summary_html, summary_text
from .base import Kind, Line, both, own_audience, sheets_secret

WORDS = {
    "hidden": T("hidden", "скрыто"),
    "changed_after": T("changed after the roll", "изменено после броска"),
    "failed": T("roll failed (its dice are spent)", "бросок не удался (кубики потрачены)"),
}


def hidden_what(what: dict[str, str], hidden: bool) -> dict[str, str]:
    """A heading marked ``[hidden]`` when only some seats saw it."""
    if not hidden:
        return what
    return {loc: f"[{tr(WORDS['hidden'], loc)}] {what[loc]}" for loc in LOCALES}


def texts_of(p: Any) -> dict[str, str]:
    """The breakdown in every language the table recorded (``texts``), else its one ``text``."""
    texts = p.texts if isinstance(p.texts, Mapping) else {}
    if all(isinstance(texts.get(loc), str) for loc in LOCALES):
        return {loc: texts[loc] for loc in LOCALES}
    return both(p.text or "")


class Replayed:
    """What ``verify`` got by rolling an event again when it is not one outcome to compare: the
    problems found (none: it replays as recorded)."""

    def __init__(self, problems: list[str]):
        self.problems = problems


# --------------------------------------------------------------------------------------------
# roll
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class RollPayload(Payload):
    index: int
    expr: str = text("expression")
    variables: dict | None = optional(omit_none=False)
    label: str | None = optional(omit_none=False, limit="label")
    hidden: bool
    result: dict
    text: str
    texts: dict | None = optional()


class Roll(Kind):
    """A dice expression rolled with the fair-dice stream of roll number ``index``: its outcome."""

    name = "roll"
    Payload = RollPayload
    action = "roll"
    rolls = True
    logged = True

    def audience_for(self, role: str, seat: str, hidden: bool) -> str:
        return own_audience(role, seat, hidden)

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        r = payload.get("result") if isinstance(payload.get("result"), Mapping) else {}
        return {**payload, "total": r.get("total")}

    def line(self, entry, p: RollPayload, ctx) -> Line:
        r = p.result or {}
        expr = p.expr or r.get("expression", "")
        label = f"{p.label} ({expr})" if p.label and expr else p.label or expr
        passed = (r.get("check") or {}).get("passed") if isinstance(r.get("check"), Mapping) else None
        what = hidden_what(both(label), bool(p.hidden))
        if is_big(r):
            return Line(
                "roll",
                ctx.who(entry.get("actor", "")),
                what,
                {loc: summary_text(r, loc) for loc in LOCALES},
                success=passed,
                hidden=bool(p.hidden),
                html={loc: summary_html(r, loc) for loc in LOCALES},
                details=lambda loc: dice_html(r, loc),
            )
        text_ = texts_of(p) if (p.texts or p.text) else both(r.get("text") or "")
        return Line("roll", ctx.who(entry.get("actor", "")), what, text_, success=passed, hidden=bool(p.hidden))

    def replay(self, p: RollPayload, rng, ctx) -> Any:
        from ...dice import roll as dice_roll

        again = dice_roll(p.expr, rng=rng, variables=p.variables)
        # a big roll is stored packed: compare die by die, as the table stores it
        return norm(stored_form(again.to_json(), like=p.result))


# --------------------------------------------------------------------------------------------
# roll.failed
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class FailedPayload(Payload):
    index: int
    what: str
    hidden: bool
    error: str
    expr: str | None = optional()
    variables: dict | None = optional()
    label: str | None = optional()
    check_id: str | None = optional()
    character_id: str | None = optional()
    character: dict | None = optional()
    options: dict | None = optional()


class RollFailed(Kind):
    """A roll (or check) that failed after its dice were drawn: its roll index is spent."""

    name = "roll.failed"
    Payload = FailedPayload
    action = "roll"
    rolls = True
    logged = True
    log_drop = ("character",)

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        return {**super().log_entry(payload), "failed": True}

    def line(self, entry, p: FailedPayload, ctx) -> Line:
        what = hidden_what(both(p.label or p.expr or p.check_id or ""), bool(p.hidden))
        return Line("roll", ctx.who(entry.get("actor", "")), what, both(WORDS["failed"]), hidden=bool(p.hidden))

    def replay(self, p: FailedPayload, rng, ctx) -> Replayed:
        """A spent index must fail again with its stream."""
        from ...dice import roll as dice_roll

        try:
            if p.what == "check":
                system = ctx.system
                model = system.Character.from_dict(p.character or {})
                system.roll_check(model, p.check_id, rng=rng, **(p.options or {}))
            else:
                dice_roll(p.expr or "", rng=rng, variables=p.variables)
        except (ValueError, KeyError, TypeError, ArithmeticError):
            return Replayed([])
        return Replayed([f"roll {p.index} is recorded as failed but succeeds when replayed"])


# --------------------------------------------------------------------------------------------
# check
# --------------------------------------------------------------------------------------------
def check_json(result) -> dict[str, Any]:
    """A ``CheckResult`` as JSON (deterministic: ``verify`` recomputes and compares it)."""
    from ..events import jsonable

    roll = result.roll
    return jsonable(
        {
            "check_id": result.check_id,
            "label": dict(result.label),
            "success": result.success,
            "total": result.total,
            "margin": result.margin,
            "degree": result.degree,
            "degree_label": dict(result.degree_label) if result.degree_label else None,
            "critical": result.critical,
            "outcome": dict(result.outcome),
            "effects": [{"trait": e.trait, "delta": e.delta, "reason": dict(e.reason)} for e in result.effects],
            "roll": roll.to_json() if hasattr(roll, "to_json") else jsonable(roll),
            "details": result.details,
        }
    )


@dataclass(frozen=True, kw_only=True)
class CheckPayload(Payload):
    index: int
    system: str
    check_id: str
    character_id: str
    character: dict
    options: dict
    hidden: bool
    result: dict
    text: str
    texts: dict | None = optional()


def _effects(p: Any, ctx) -> dict[str, str]:
    r = p.result or {}
    return {
        loc: "; ".join(
            f"{ctx.trait_label(x.get('trait'), loc, x.get('reason'))} {x.get('delta'):+}"
            for x in r.get("effects") or ()
            if isinstance(x, Mapping) and isinstance(x.get("delta"), int) and not isinstance(x.get("delta"), bool)
        )
        for loc in LOCALES
    }


def check_odds(p: Any, ctx) -> Fraction | None:
    """The exact chance of success of a recorded check (its sheet and options as rolled), when the
    payload has the sheet (the store's event; the state's log leaves it out)."""
    if not isinstance(p.character, Mapping) or ctx.system is None:
        return None
    try:
        model = ctx.system.Character.from_dict(p.character)
        return ctx.system.chance(model, p.check_id, **(p.options or {}))
    except Exception:  # noqa: BLE001 - a check without pass/fail, or one a newer system reads differently
        return None


def check_line(entry, p: Any, ctx, *, after: bool = False) -> Line:
    r = p.result or {}
    roll = r.get("roll") if isinstance(r.get("roll"), Mapping) else {}
    name = ctx.character_name(p.character_id)
    what = {loc: f"{tr(r.get('label') or {}, loc) or p.check_id} · {name}" for loc in LOCALES}
    if after:
        what = {loc: f"{what[loc]} · {tr(WORDS['changed_after'], loc)}" for loc in LOCALES}
    text_ = texts_of(p) if (p.texts or p.text) else both(roll.get("text") or "")
    return Line(
        "check",
        ctx.who(entry.get("actor", "")),
        hidden_what(what, bool(p.hidden)),
        text_,
        outcome=both(r.get("outcome") or ""),
        success=r.get("success") if isinstance(r.get("success"), bool) else None,
        effects=_effects(p, ctx),
        hidden=bool(p.hidden),
        odds=None if after else check_odds(p, ctx),
    )


def check_entry(kind: Kind, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A check's log entry: its payload without the sheet, with its total and verdict."""
    r = payload.get("result") if isinstance(payload.get("result"), Mapping) else {}
    out = {k: v for k, v in payload.items() if k not in kind.log_drop}
    out.update(total=r.get("total"), success=r.get("success"))
    return out


class Check(Kind):
    """A named check of the system for a character (its sheet as rolled, the options, the outcome)."""

    name = "check"
    Payload = CheckPayload
    action = "check"
    rolls = True
    logged = True
    log_drop = ("character",)

    def audience_for(self, state, role: str, seat: str, character_id: str, hidden: bool) -> str:
        """A check carries the sheet it was rolled with (for verify): a GM-only character's checks,
        or one whose sheet has hidden changes, are hidden whatever ``hidden`` says."""
        return own_audience(role, seat, hidden or sheets_secret(state, [character_id]))

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        return check_entry(self, payload)

    def line(self, entry, p: CheckPayload, ctx) -> Line:
        return check_line(entry, p, ctx)

    def replay(self, p: CheckPayload, rng, ctx) -> Any:
        system = ctx.system
        model = system.Character.from_dict(p.character)
        again = system.roll_check(model, p.check_id, rng=rng, **p.options)
        return norm(check_json(again))


# --------------------------------------------------------------------------------------------
# check.after
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class AfterPayload(Payload):
    index: int
    system: str
    check_id: str
    character_id: str
    options: dict
    hidden: bool
    result: dict
    text: str
    texts: dict | None = optional()
    #: the character as the change after the roll was worked out on (its epic dice held then)
    character: dict | None = optional()


class CheckAfter(Kind):
    """A player's latest check read again after the roll (Life&Death: epic dice spent after it):
    the check's roll index, the options, the new outcome. No dice are drawn; ``verify`` works it
    out again from the check's own stream and the character as it was then."""

    name = "check.after"
    Payload = AfterPayload
    action = "check"
    logged = True
    log_drop = ("character",)

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        return check_entry(self, payload)

    def line(self, entry, p: AfterPayload, ctx) -> Line:
        return check_line(entry, p, ctx, after=True)

    def worked_out(self, system, check: Mapping[str, Any], character: Mapping[str, Any], options, rng):
        """The after-roll result of ``check`` (a ``check`` payload rolled again with ``rng``, its
        own stream) on ``character`` with ``options``: ``(the check again, the new result)``;
        the system's ``RuleError`` when it refuses."""
        rolled_as = system.Character.from_dict(check["character"])
        again = system.roll_check(rolled_as, check["check_id"], rng=rng, **check["options"])
        model = system.Character.from_dict(character)
        return again, system.after_roll(model, again, **dict(options))


KINDS = (Roll(), RollFailed(), Check(), CheckAfter())

__all__ = ["KINDS", "Replayed", "check_json", "check_odds", "hidden_what", "texts_of"]
