"""What a seat sees of a combat: each combatant as the tracker shows it, in turn order, without the
hidden ones for players. (What a player's kernel may hold at all is decided by the table's audience
projection, ``tabletop_widgets.table.audience.project_combat``.) Reads the combat through its
public methods only."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass
class Combatant:
    """One combatant as the tracker shows it (a read-only view; change it through events).
    ``skip_until``: the last round it sits out (``InitiativeRoll.skip_rounds``), or None."""

    id: str
    name: str
    character: Any
    hidden: bool
    delayed: bool
    defeated: bool
    defeated_override: bool | None
    initiative: dict | None
    conditions: list[dict]
    health: tuple[int, int]
    skip_until: int | None = None


def combatant_of(combat, cid: str) -> Combatant:
    """What the tracker shows of ``cid`` in ``combat`` (a snapshot: change it through events)."""
    d = combat.entry(cid)
    ch = combat.character(cid)
    return Combatant(
        id=cid,
        name=d["name"],
        character=ch,
        hidden=d["hidden"],
        delayed=d["delayed"],
        defeated=combat.is_defeated(cid),
        defeated_override=d["defeated"],
        initiative=d["initiative"],
        conditions=combat.conditions(cid),
        health=tuple(d["health"]) if d.get("health") else tuple(combat.system.health(ch)),
        skip_until=d.get("skip_until") or None,
    )


def combatants_of(combat, *, audience: str = "gm") -> list[Combatant]:
    """``combat``'s combatants in turn order; ``audience="player"`` leaves out the hidden ones."""
    out = [combatant_of(combat, cid) for cid in combat.order]
    if audience != "gm":
        out = [c for c in out if not c.hidden]
    return out
