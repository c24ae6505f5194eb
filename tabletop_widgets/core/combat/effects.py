"""The system's hooks as a combat calls them: live, once, on scratch copies of the characters
(``twins``, so several hooks in one event build on each other), each outcome recorded as one
``"effects"`` entry of the event (what changed, notes, health before and after, the verdict).
Replay only sets the recorded values. Reads the combat through its public methods only."""

from __future__ import annotations

import copy
from typing import Any, Callable, Iterable, Mapping

from .records import clone_character, diff, jsonable, persisted


def effect_record(
    system,
    cid: str,
    hook: str,
    twin: Any,
    before: Mapping,
    health_before: list,
    was: bool,
    outcome: Any,
    *,
    notes: Iterable = (),
    **info: Any,
) -> dict | None:
    """The ``effects`` entry of a hook that turned ``twin`` from ``before`` (its persisted
    values; ``health_before``, defeated ``was``) into what it is now, with the hook's
    ``outcome`` (its ``notes`` after ``notes``, its ``state``); None when nothing came of it."""
    changes = diff(before, persisted(twin))
    all_notes = jsonable(list(notes) + list(getattr(outcome, "notes", None) or []))
    state = jsonable(getattr(outcome, "state", None))
    if not changes and not all_notes and state is None:
        return None
    now = bool(system.is_defeated(twin))
    return {
        "id": cid,
        "hook": hook,
        **jsonable(info),
        "changes": changes,
        "notes": all_notes,
        "state": state,
        "health": [health_before, list(system.health(twin))],
        "defeated": now,
        "follow_rules": was != now,
    }


def effect_entry(
    combat, twins: dict, cid: str, hook: str, call: Callable[[Any], Any], *, notes: Iterable = (), **info: Any
) -> dict | None:
    """Call a hook on ``cid``'s scratch copy (kept in ``twins``); what it changed as an
    ``effects`` entry, or None."""
    system = combat.system
    if cid not in twins:
        twins[cid] = clone_character(combat.character(cid))
    twin = twins[cid]
    before = persisted(twin)
    health_before = list(system.health(twin))
    was = bool(system.is_defeated(twin))
    outcome = call(twin)
    return effect_record(system, cid, hook, twin, before, health_before, was, outcome, notes=notes, **info)


def defeated_after(combat, cid: str, entry: Mapping) -> bool:
    """Whether ``cid`` is out after the effect ``entry``: the GM's mark unless the effect
    changed the system's verdict."""
    mark = combat.entry(cid)["defeated"]
    return bool(entry["defeated"]) if entry.get("follow_rules") or mark is None else bool(mark)


def hook_conditions(combat, cid: str) -> list[dict]:
    """``cid``'s active conditions as ``on_turn`` gets them."""
    return [
        {
            "id": i["id"],
            "uid": i["uid"],
            "duration": i.get("duration"),
            "remaining": i["remaining"],
            "unit": i.get("unit"),
            "data": copy.deepcopy(i.get("data") or {}),
        }
        for i in combat.conditions(cid)
    ]


def turn_effect(combat, twins: dict, cid: str, when: str) -> list[dict]:
    """``system.on_turn`` at the start or end of ``cid``'s turn, unless that boundary (this
    count of started or ended turns) was hooked already (back and forth again)."""
    at = 0 if when == "start" else 1
    if combat.turn_count(cid, at) + 1 <= combat.hooked_count(cid, at):
        return []
    conditions = hook_conditions(combat, cid)
    entry = effect_entry(
        combat,
        twins,
        cid,
        "on_turn",
        lambda ch: combat.system.on_turn(ch, when, rng=combat.rng, conditions=conditions),
        when=when,
    )
    return [entry] if entry else []


def condition_effect(
    combat, twins: dict, cid: str, condition: str, active: bool, data: Mapping[str, Any], **info: Any
) -> dict | None:
    """``system.condition_changed`` for ``condition`` on ``cid`` becoming ``active`` or not."""
    return effect_entry(
        combat,
        twins,
        cid,
        "condition_changed",
        lambda ch: combat.system.condition_changed(ch, condition, active, **dict(data)),
        condition=condition,
        active=active,
        **info,
    )


def expiry_effects(combat, twins: dict, event: dict) -> list[dict]:
    """``system.condition_changed`` for the conditions a turn event makes run out (or come
    back, going back a turn): the event is tried on the state and the state put back."""

    def actives() -> dict:
        return {
            (cid, i["uid"]): i
            for cid in combat.order
            for i in combat.conditions(cid, include_expired=True)
            if i["remaining"] is not None
        }

    before = actives()
    if not before:
        return []
    after = combat.preview(event, actives)
    out = []
    for key, inst in before.items():
        now = after.get(key)
        if now is not None and now["active"] != inst["active"]:
            entry = condition_effect(
                combat,
                twins,
                key[0],
                inst["id"],
                now["active"],
                inst.get("data") or {},
                uid=inst["uid"],
                expired=not now["active"],
            )
            if entry:
                out.append(entry)
    return out
