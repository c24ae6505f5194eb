"""Conditions and states (spec §6.13): ticks, start- and end-of-turn effects, catalogue conditions
mirrored on the sheet."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from tabletop_widgets.core import DamageOutcome, RuleError, T
from tabletop_widgets.core.options import GmOptions

from . import data
from .damage import apply_damage, settle
from .healing import heal


def tick_conditions(c, *, options: GmOptions, at: str = "start") -> DamageOutcome:
    """Per-turn effects of active states at the start of the bearer's turn (spec §6.13):
    damage over time (burning, poison, bleeding), healing over time (regeneration), and
    durations counting down."""
    cat = data.conditions()
    dot, hot = 0, 0
    kept = []
    expired = []
    for inst in c.conditions:
        spec = cat.get(inst.get("id"), {})
        if spec.get("ticks_at", "end") != at and inst.get("ticks_at", spec.get("ticks_at")) != at:
            kept.append(inst)
            continue
        dot += int(inst.get("dot", spec.get("dot", 0)))
        hot += int(inst.get("hot", spec.get("hot", 0)))
        dur = inst.get("duration", spec.get("duration"))
        if dur is not None:
            dur = int(dur) - 1
            if dur <= 0:
                expired.append(inst.get("id"))
                continue
            inst = {**inst, "duration": dur}
        kept.append(inst)
    c.conditions = kept
    out = DamageOutcome()
    if dot:
        burning = any(x.get("id") == "burning" for x in kept)
        out = apply_damage(c, dot, options=options, armour_applies=burning)
    if hot:
        h = heal(c, hot, "health", options=options)
        out.changes.update(h.changes)
    out.details["expired"] = expired
    out.details["dot"] = dot
    out.details["hot"] = hot
    return out


TURN_POINTS = ("start", "end")


def on_turn(c, when: str, *, options: GmOptions, conditions: Sequence[Mapping[str, Any]] = ()) -> DamageOutcome | None:
    """Ongoing effects of the active states at ``when`` of the bearer's own turn (spec §6.13:
    burning, poison, bleeding as Health damage; regeneration as healing; default at the start,
    L1492-1495). ``conditions`` are the tracker's instances (``{"id", "duration", "data"}``;
    ``data`` may override the amount: ``{"dot": 3}`` or ``{"amount": 3}``); without them the
    character's own list is read. Durations are the tracker's to count: nothing else changes.
    DoT counts as Health damage (survival prompt, coma -> death, L328)."""
    if when not in TURN_POINTS:
        raise RuleError(
            "bad_turn_point", T(f"when is 'start' or 'end', not {when!r}", f"when: 'start' или 'end', а не {when!r}")
        )
    cat = data.conditions()
    insts = (
        list(conditions)
        if conditions
        else [{"id": x.get("id"), "duration": x.get("duration"), "data": x} for x in c.conditions]
    )
    if c.dead:
        return None
    fire, dot, hot, sources = 0, 0, 0, []
    for inst in insts:
        spec = cat.get(inst.get("id"))
        if spec is None:
            continue
        extra = dict(inst.get("data") or {})
        if extra.get("ticks_at", spec.get("ticks_at", "start")) != when:
            continue
        d = int(extra.get("dot", extra.get("amount", spec.get("dot", 0)))) if (spec.get("dot") or "dot" in extra) else 0
        h = int(extra.get("hot", extra.get("amount", spec.get("hot", 0)))) if (spec.get("hot") or "hot" in extra) else 0
        d, h = max(0, d), max(0, h)
        if d or h:
            sources.append(inst["id"])
        if inst["id"] == "burning":
            fire += d
        else:
            dot += d
        hot += h
    if not (fire or dot or hot):
        return None
    out = DamageOutcome()
    # burning: armour applies and wears (L1492); poison and bleeding act inside the body
    for amount, through_armour in ((fire, True), (dot, False)):
        if not amount:
            continue
        part = apply_damage(c, amount, options=options, armour_applies=through_armour)
        for k, (old, new) in part.changes.items():
            first = out.changes.get(k, (old, None))[0]
            out.changes[k] = (first, new)
        out.notes.extend(part.notes)
        out.details["health_loss"] = out.details.get("health_loss", 0) + part.details.get("health_loss", 0)
    if fire or dot:
        out.notes.insert(0, T(f"{', '.join(sources)}: {fire + dot} damage", f"{', '.join(sources)}: урон {fire + dot}"))
    if hot:
        h = heal(c, hot, "health", options=options)
        for k, (old, new) in h.changes.items():
            first = out.changes.get(k, (old, None))[0]
            out.changes[k] = (first, new)
        out.notes.append(T(f"regeneration +{hot}", f"регенерация +{hot}"))
    out = settle(c, out, options=options)
    dot = fire + dot
    out.details.update(dot=dot, hot=hot, sources=sources, when=when)
    return out


#: conditions that end the character's part in the fight (spec §6.12-§6.13)
DEFEATING = ("coma", "unconscious", "doom", "dead")


def condition_changed(c, cid: str, active: bool, *, options: GmOptions, **extra: Any) -> DamageOutcome | None:
    """Mirror a catalogue condition the tracker added/removed on the character, so its die-level
    and flat penalties reach every roll (auto modifiers read ``c.conditions``) and the defeating
    states (coma, unconscious, doom) make the character defeated. ``dead`` sets final death (and
    its removal undoes it: the GM is always right, L13). Leaving cover drops the cover bonus.
    Stacking conditions (bleeding, injuries) add/remove one instance each call. Unknown ids:
    None (a tracker-only marker)."""
    cat = data.conditions()
    if cid not in cat:
        return None
    spec = cat[cid]
    out = DamageOutcome()
    old = [dict(x) for x in c.conditions]
    conds = [dict(x) for x in c.conditions]
    if cid == "dead":
        if bool(c.dead) != bool(active):
            out.changes["dead"] = (c.dead, bool(active))
            c.dead = bool(active)
    elif active:
        if spec.get("stacks") or not any(x.get("id") == cid for x in conds):
            conds.append({"id": cid, "source": "tracker", **{k: v for k, v in extra.items() if v is not None}})
    else:
        idx = [i for i, x in enumerate(conds) if x.get("id") == cid]
        if idx:
            if spec.get("stacks"):
                conds.pop(idx[-1])
            else:
                conds = [x for x in conds if x.get("id") != cid]
        if cid == "in_cover" and (c.cover_bonus or c.cover_shield_only):
            out.changes["cover_bonus"] = (c.cover_bonus, 0)
            c.cover_bonus, c.cover_shield_only = 0, False
    if conds != old:
        out.changes["conditions"] = (old, conds)
        c.conditions = conds
    if not out.changes:
        return None
    if spec.get("shift") or spec.get("flat"):
        out.notes.append(T(f"{spec['en']}: {spec['effect_en']}", f"{spec['ru']}: {spec['effect_ru']}"))
    out = settle(c, out, options=options)
    return out
