"""Seasons initiative (spec §6.2; L727-731): Intelligence + Wits + Resolve, highest first, ties
broken by 1d10 roll-offs; the order is kept from round to round, late joiners inserted."""

from __future__ import annotations

import random
from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import InitiativeOrder, InitiativeRoll, T
from tabletop_widgets.core.wording import ru_n

MAX_ROLLOFF_ROUNDS = 50


def rolloff(ids: list[str], rng: random.Random, prefix: dict[str, tuple], notes: list, depth: int = 0) -> list[str]:
    """Order tied ids by 1d10 (higher first); equal rolls roll again (L730). After
    MAX_ROLLOFF_ROUNDS equal rounds (practically never) the given order stands, reported."""
    if len(ids) <= 1:
        return list(ids)
    if depth >= MAX_ROLLOFF_ROUNDS:
        notes.append(
            T(
                f"roll-off undecided after {depth} rounds: {', '.join(ids)} keep their listed order",
                f"переброс не решён за {ru_n(depth, 'раунд', 'раунда', 'раундов')}: порядок по списку — {', '.join(ids)}",
            )
        )
        return list(ids)
    rolls = {i: rng.randint(1, 10) for i in ids}
    for i in ids:
        prefix[i] = prefix[i] + (rolls[i],)
    notes.append(
        T(
            "roll-off " + ", ".join(f"{i} {rolls[i]}" for i in ids),
            "переброс " + ", ".join(f"{i} {rolls[i]}" for i in ids),
        )
    )
    out: list[str] = []
    for v in sorted(set(rolls.values()), reverse=True):
        same = [i for i in ids if rolls[i] == v]
        out += rolloff(same, rng, prefix, notes, depth + 1)
    return out


def roll_initiative(combatants: Mapping[str, Any], rng: random.Random | None = None) -> InitiativeOrder:
    """Descending static initiative (L731); ties decided by 1d10 roll-offs, re-rolled while equal
    (L730). Tied groups are resolved from the highest initiative down, members in the given order,
    so the result is deterministic given the rng."""
    rng = rng if rng is not None else random.Random()
    values = {cid: c.initiative for cid, c in combatants.items()}
    keys: dict[str, tuple] = {cid: (v,) for cid, v in values.items()}
    order: list[str] = []
    tiebreaks: list[dict[str, str]] = []
    for v in sorted(set(values.values()), reverse=True):
        tied = [cid for cid in combatants if values[cid] == v]
        if len(tied) > 1:
            notes: list = []
            group = rolloff(tied, rng, keys, notes)
            tiebreaks.append(
                {
                    **T(
                        f"initiative {v} tied ({', '.join(tied)}): "
                        + "; ".join(n["en"] for n in notes)
                        + f" → {', '.join(group)}",
                        f"инициатива {v} равна ({', '.join(tied)}): "
                        + "; ".join(n["ru"] for n in notes)
                        + f" → {', '.join(group)}",
                    ),
                    "ids": list(group),
                }
            )
            order += group
        else:
            order += tied
    rolls = {
        cid: InitiativeRoll(
            cid,
            keys[cid],
            T(
                f"initiative {values[cid]}" + (f", roll-off {list(keys[cid][1:])}" if len(keys[cid]) > 1 else ""),
                f"инициатива {values[cid]}" + (f", переброс {list(keys[cid][1:])}" if len(keys[cid]) > 1 else ""),
            ),
        )
        for cid in combatants
    }
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=tiebreaks)


def initiative_for_round(
    previous: InitiativeOrder,
    combatants: Mapping[str, Any],
    rng: random.Random | None = None,
    *,
    options: GmOptions,
) -> InitiativeOrder:
    """The order of a new round: the same order every round (L729, §11 #22 default), or fresh
    roll-offs for ties when the GM option ``reroll_ties_each_round`` is on."""
    if options.reroll_ties_each_round:
        return roll_initiative(combatants, rng)
    if list(previous.order) == list(combatants) or set(previous.order) == set(combatants):
        return previous
    return keep_order(previous, combatants)


def insert_combatant(order: InitiativeOrder, combatants: Mapping[str, Any], new_id: str) -> InitiativeOrder:
    """Insert a late joiner by initiative value, after everyone with the same value (the book is
    silent, spec §6.2 default)."""
    v = combatants[new_id].initiative
    ids = [i for i in order.order if i != new_id]
    pos = len(ids)
    for k, cid in enumerate(ids):
        if combatants[cid].initiative < v:
            pos = k
            break
    ids.insert(pos, new_id)
    rolls = dict(order.rolls)
    rolls[new_id] = InitiativeRoll(new_id, (v,), T(f"initiative {v} (joined late)", f"инициатива {v} (присоединился)"))
    return InitiativeOrder(
        order=ids,
        rolls=rolls,
        tiebreaks=list(order.tiebreaks)
        + [{**T(f"{new_id} joined at place {pos + 1}", f"{new_id} вступил на место {pos + 1}"), "ids": [new_id]}],
    )


def keep_order(previous: InitiativeOrder, combatants: Mapping[str, Any]) -> InitiativeOrder:
    """The previous order for the combatants still present, late joiners inserted by initiative
    (spec §6.2, §10.3 item 1: "reuse each round; insert late joiners by initiative")."""
    ids = [i for i in previous.order if i in combatants]
    order = InitiativeOrder(
        order=ids,
        rolls={i: r for i, r in previous.rolls.items() if i in combatants},
        tiebreaks=[t for t in previous.tiebreaks if all(i in combatants for i in t.get("ids", ()))],
    )
    for cid in combatants:
        if cid not in ids:
            order = insert_combatant(order, combatants, cid)
    return order


__all__ = ["MAX_ROLLOFF_ROUNDS", "initiative_for_round", "insert_combatant", "keep_order", "roll_initiative", "rolloff"]
