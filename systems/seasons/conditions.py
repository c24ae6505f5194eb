"""Seasons conditions (spec §7.3; L684-716): the catalogue (``data/conditions.json``) and the
tracker's own, -3 each and stacking, which checks they hinder, adding and removing them."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import ConditionSpec, DamageOutcome, RuleError, T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.system import record_changes

from .data import TABLES
from .health import TRACKED, ZERO_HEALTH_STATES, finish
from .pool import STANDARD_MODIFIER

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


def condition_catalogue() -> list[ConditionSpec]:
    out = []
    for r in TABLES.rows("conditions"):
        attr, skill = CONDITION_CHECK[r["kind"]]
        out.append(
            ConditionSpec(
                id=r["id"],
                label=T(r["en"], r["ru"]),
                effect=T(f"-3 to {r['applies_to_en']}", f"-3 на {r['applies_to_ru']}"),
                duration=None,
                unit="until_removed",
                ticks_at="start",
                stacks=True,
                data={
                    "kind": r["kind"],
                    "penalty": STANDARD_MODIFIER,
                    "retry_interval": r["retry_interval"],
                    # sickness: an hour for substances, a day for illness (L711)
                    "retry_intervals": dict(r.get("retry_intervals") or {}),
                    # what a successful check does: removes it (L690), or holds it off an hour (L716)
                    "on_success": r.get("on_success", "removed"),
                    "removal_check": f"{attr}+{skill}",
                    "ends": T(r["ends_en"], r["ends_ru"]),
                    "line": r["line"],
                    "group": r.get("group"),
                },
            )
        )
    return out


#: Conditions the tracker may set that are not penalties on the sheet (spec §6.5, §6.9, §10.3).
TRACKER_CONDITIONS = (
    ConditionSpec(
        "fled",
        T("Fled", "Сбежал"),
        T("out of the fight", "вне боя"),  # L90
        data={"out_state": "fled", "line": 90},
    ),
    ConditionSpec(
        "surrendered",
        T("Surrendered", "Сдался"),
        T("out of the fight", "вне боя"),  # L90, L93
        data={"out_state": "surrendered", "line": 93},
    ),
    ConditionSpec(
        "exposed",
        T("Exposed to a threat (fire, acid, electricity)", "Под действием угрозы (огонь, кислота, ток)"),
        T(
            "at the start of each own turn: threat dice - PD, successes = damage",  # L673, L679
            "в начале каждого своего хода: дайсы угрозы - ФЗ, успехи = урон",
        ),  # L673, L679
        unit="until_removed",
        ticks_at="start",
        data={
            "dice": 6,
            "armour_applies": False,
            "line": 679,
            "help": T(
                "data: dice (6 minor ... 10 deadly, more if supernatural), armour_applies",
                "данные: dice (6 незначительная ... 10 смертельная), armour_applies",
            ),
        },
    ),
)


def condition_spec(condition_id: str) -> ConditionSpec:
    spec = next((s for s in (*condition_catalogue(), *TRACKER_CONDITIONS) if s.id == condition_id), None)
    if spec is None:
        raise RuleError("unknown_condition", T(f"no condition {condition_id!r}", f"нет Состояния {condition_id!r}"))
    return spec


_ENTRY_DATA = {
    "removal_difficulty": (
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
        "a whole number >= 0",
        "целое число >= 0",
    ),
    "category": (lambda v: isinstance(v, str), "text", "текст"),
    "applies_to": (lambda v: isinstance(v, str), "text", "текст"),
    "cause": (lambda v: isinstance(v, str), "text", "текст"),
}


def condition_changed(c, condition_id: str, active: bool, *, options: GmOptions, **data: Any) -> DamageOutcome | None:
    """The tracker added (``active``) or removed a catalogue condition (spec §7.3, §10.3).

    Sheet conditions (the -3 ones) are added to / removed from ``c.conditions`` — checks then
    count them automatically (-3 each, stacking, L687, L775); ``data`` may carry
    ``removal_difficulty``, ``category`` (physical / mental / social / all / a skill; sickness:
    the Storyteller's pick, §11 #39), ``applies_to`` and, for sickness, ``cause`` (``substance``:
    retry after an hour, ``illness``: after a day, L711); other keys are the tracker's own and
    ignored. "fled" / "surrendered" set ``out_state`` (defeated, L90, L93). Pain follows damage
    by itself and "exposed" acts in ``on_turn``: neither changes the character here."""
    spec = condition_spec(condition_id)
    if condition_id in ("fled", "surrendered"):
        if active and c.out_state != condition_id and c.out_state not in ZERO_HEALTH_STATES:
            state = condition_id
        elif not active and c.out_state == condition_id:
            state = ""
        else:
            return None
        with record_changes(c, TRACKED) as out:
            c.update(out_state=state)
        return finish(out, c, [spec.label if active else T("back in the fight", "снова в бою")], options=options)
    if condition_id in ("pain", "exposed"):
        return None
    if active:
        bad = [f"{k}: {en}" for k, (test, en, ru) in _ENTRY_DATA.items() if k in data and not test(data[k])]
        if bad:
            raise RuleError(
                "bad_condition_data",
                T("bad condition data: " + "; ".join(bad), "неверные данные Состояния: " + "; ".join(bad)),
            )
        entry = condition_entry(
            condition_id,
            removal_difficulty=data.get("removal_difficulty", 3),
            category=data.get("category", ""),
            applies_to=data.get("applies_to", ""),
            cause=data.get("cause", ""),
        )
        with record_changes(c, ("conditions",)) as out:
            c.update(conditions=[*c.conditions, entry])
        note = T(f"{spec.label['en']}: -3 to {entry['applies_to']}", f"{spec.label['ru']}: -3")
    else:
        idx = [i for i, cond in enumerate(c.conditions) if cond.get("id") == condition_id]
        if not idx:
            return None
        with record_changes(c, ("conditions",)) as out:
            c.update(conditions=[cond for i, cond in enumerate(c.conditions) if i != idx[-1]])
        note = T(f"{spec.label['en']} ends", f"{spec.label['ru']}: проходит")
    return finish(out, c, [note], options=options)


def condition_entry(
    condition_id: str, *, removal_difficulty: int = 3, category: str = "", applies_to: str = "", cause: str = ""
) -> dict[str, Any]:
    """The ``conditions`` list item for a catalogue condition. ``cause`` (sickness only): its
    retry interval, an hour for a substance (the default), a day for an illness (L711)."""
    spec = next((s for s in condition_catalogue() if s.id == condition_id), None)
    if spec is None:
        raise RuleError("unknown_condition", T(f"no condition {condition_id!r}", f"нет Состояния {condition_id!r}"))
    intervals = spec.data["retry_intervals"]
    if cause and cause not in intervals:
        causes = ", ".join(intervals) or "—"
        raise RuleError(
            "bad_condition_cause",
            T(
                f"{spec.label['en']}: the cause is one of: {causes}.",
                f"{spec.label['ru']}: причина — одно из: {causes}.",
            ),
        )
    item = {
        "id": spec.id,
        "name": spec.label["en"],
        "kind": spec.data["kind"],
        "penalty": STANDARD_MODIFIER,
        "applies_to": applies_to or spec.effect["en"],
        "removal_difficulty": removal_difficulty,
        "retry_interval": spec.data["retry_interval"],
        "expires": spec.data["ends"]["en"],
    }
    if intervals:
        item["cause"] = cause or next(iter(intervals))
        item["retry_interval"] = intervals[item["cause"]]
    if category:
        item["category"] = category
    return item


def holds_off(cond: Mapping[str, Any]) -> bool:
    """Whether a success only holds this condition off for an hour (hunger, thirst, fatigue:
    L716) instead of ending it (L690)."""
    spec = next((s for s in condition_catalogue() if s.id == cond.get("id")), None)
    return spec is not None and spec.data.get("on_success") == "held_off"


def is_held_off(cond: Mapping[str, Any]) -> bool:
    """A condition held off for the hour gives no -3 until the hour is over (L716)."""
    return bool(cond.get("held_off"))


def hold_off(c, index: int) -> dict[str, Any]:
    """Mark the condition at ``index`` held off for an hour (L716); returns the new item."""
    held = {**c.conditions[index], "held_off": True}
    c.update(conditions=[held if k == index else cond for k, cond in enumerate(c.conditions)])
    return held


def hour_passes(c) -> dict[str, tuple[Any, Any]]:
    """An hour passes: hunger, thirst and fatigue held off by a success come back (-3 again, a new
    check allowed, L716). Returns the change of ``conditions`` (none when nothing was held off)."""
    if not any(is_held_off(cond) for cond in c.conditions):
        return {}
    old = list(c.conditions)
    c.update(conditions=[{k: v for k, v in cond.items() if k != "held_off"} for cond in c.conditions])
    return {"conditions": (old, list(c.conditions))}


def condition_penalty(c, category: str | None = None, *, include_pain: bool = True) -> int:
    """Total penalty of conditions that fit a check of ``category`` (physical/mental/social):
    -3 each, stacking (L687, L775). A condition's scope is its ``category`` (sickness: the one
    chosen for it, §11 #39) or the catalogue's default (``CONDITION_SCOPES``; free-text
    conditions: all checks). Pain counts for every check while active (L708). Checks count them
    by themselves (``modifiers.sheet_defaults``), also by skill or check id."""
    n = 0
    for cond in c.conditions:
        if cond.get("id") == "pain" or is_held_off(cond):
            continue
        scope = condition_scope(cond)
        if category is None or scope in ("all", category):
            n += 1
    if include_pain and c.pain_active:
        n += 1
    return -STANDARD_MODIFIER * n


__all__ = [
    "CONDITION_CHECK",
    "CONDITION_KINDS",
    "CONDITION_SCOPES",
    "TRACKER_CONDITIONS",
    "condition_catalogue",
    "condition_changed",
    "condition_entry",
    "condition_penalty",
    "condition_scope",
    "condition_spec",
    "hold_off",
    "holds_off",
    "hour_passes",
    "is_held_off",
]
