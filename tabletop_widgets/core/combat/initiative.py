"""Rolling initiative as an event: the system's ``roll_initiative`` rolls live once, and the event
records the rolls, the order that came out (merged into the current one when only some rolled),
the rounds a combatant sits out and the roll's effects, so replay never rolls again. Reads the
combat through its public methods only."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .effects import effect_entry
from .records import as_tuple, jsonable, roll_record
from .state import combat_error


def roll_records(result: Any) -> dict[str, dict]:
    """Each combatant's roll as event data: its key, text and dice (and ``skip_rounds``)."""
    rolls = {
        cid: {"key": jsonable(r.key), "text": jsonable(r.text), "roll": roll_record(r.roll)}
        for cid, r in result.rolls.items()
    }
    for cid, r in result.rolls.items():
        if int(getattr(r, "skip_rounds", 0) or 0) > 0:
            rolls[cid]["skip_rounds"] = int(r.skip_rounds)
    return rolls


def merged_order(combat, ids: list[str], rolled: list[str], rolls: Mapping[str, dict]) -> list[str]:
    """The new order: the system's when everyone rolled; else those who rolled merged into the
    current order by their keys, after anyone with an equal key."""
    if set(ids) == set(combat.order):
        return rolled
    order = [i for i in combat.order if i not in set(ids)]
    for cid in rolled:
        key = as_tuple(rolls[cid]["key"])
        pos = len(order)
        for k, other in enumerate(order):
            other_init = combat.entry(other)["initiative"]
            if other_init is None:
                continue
            try:
                if as_tuple(other_init["key"]) < key:
                    pos = k
                    break
            except TypeError:
                continue
        order.insert(pos, cid)
    return order


def skipped_rounds(combat, order: list[str], rolls: Mapping[str, dict]) -> dict[str, int]:
    """The last round each combatant whose roll says ``skip_rounds`` sits out: counted from
    their first turn (this round mid-combat when they come after the current one)."""
    skip = {}
    for cid, r in rolls.items():
        if r.get("skip_rounds"):
            if not combat.started or cid == combat.current:
                first = combat.round + 1
            else:
                first = combat.round + (1 if order.index(cid) < order.index(combat.current) else 0)
            skip[cid] = first + r["skip_rounds"] - 1
    return skip


def roll_effects(combat, result: Any) -> list[dict]:
    """The effects each roll carries (``InitiativeRoll.effects``) through ``system.apply_effects``."""
    twins: dict = {}
    effects = []
    for cid, r in result.rolls.items():
        carried = list(getattr(r, "effects", ()) or ())
        if carried:
            reasons = [e.reason for e in carried if getattr(e, "reason", None)]
            entry = effect_entry(
                combat,
                twins,
                cid,
                "initiative",
                lambda ch, fx=carried: combat.system.apply_effects(ch, fx),
                notes=reasons,
            )
            if entry:
                effects.append(entry)
    return effects


def initiative_event(combat, ids: Iterable[str] | None, options: Mapping[str, Any]) -> dict:
    """The ``"initiative"`` event of ``ids`` (default: everyone) rolling by the system's rules
    with the combat's dice (checked; not yet applied)."""
    ids = list(combat.order if ids is None else ids)
    for cid in ids:
        combat.require(cid)
    if not ids:
        raise combat_error("nobody", "Nobody to roll initiative for.", "Некому бросать инициативу.")
    result = combat.system.roll_initiative({cid: combat.character(cid) for cid in ids}, rng=combat.rng, **options)
    rolled = list(result.order)
    if sorted(rolled) != sorted(ids):
        raise combat_error(
            "bad_initiative",
            "The system returned an order that does not match the combatants.",
            "Система вернула порядок, не совпадающий с участниками.",
        )
    rolls = roll_records(result)
    order = merged_order(combat, ids, rolled, rolls)
    event = {
        "type": "initiative",
        "ids": ids,
        "order": order,
        "rolls": rolls,
        "tiebreaks": jsonable(list(result.tiebreaks)),
        "options": jsonable(options),
    }
    skip = skipped_rounds(combat, order, rolls)
    if skip:
        event["skip"] = skip
    effects = roll_effects(combat, result)
    if effects:
        event["effects"] = effects
    return event
