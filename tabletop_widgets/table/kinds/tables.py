"""The roll-table kinds: a roll table rolled at the table (``roll.table``: the table as rolled,
the dice and the entry they picked) and a table the GM keeps in the campaign
(``rolltable.saved``: a table under its name, shared with the players or the GM's own; without a
table, the name is taken away)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.i18n import LOCALES
from ..events import norm
from ..payload import Payload, optional, text
from ..store import AUDIENCE_ALL, AUDIENCE_GM
from .base import Kind, Line, both, own_audience
from .dice import hidden_what, texts_of

#: where the folded state keeps the campaign's tables: ``state.extra[EXTRA]`` is
#: ``{name: {"table": dict, "shared": bool, "seq": int}}``
EXTRA = "roll_tables"


# --------------------------------------------------------------------------------------------
# roll.table
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TableRollPayload(Payload):
    index: int
    #: the table as rolled (``RollTable.to_dict``): ``verify`` rolls it again
    table: dict
    #: the table's title (or its dice) as the log names it, and its dice
    name: str
    expr: str
    hidden: bool
    #: ``TableRoll.to_json()``: each step's dice and the entry they picked
    result: dict
    #: the final entry (None: the total had no row, see ``RollTable.roll``)
    entry: str | None = optional(omit_none=False)
    #: the campaign's name of the table, when it was rolled from the campaign
    saved: str | None = optional()
    text: str
    texts: dict | None = optional()


class TableRollKind(Kind):
    """A roll table rolled with the fair-dice stream of roll number ``index`` (a nested table
    with the same stream, after the outer one): the table, the dice and the entry."""

    name = "roll.table"
    Payload = TableRollPayload
    action = "roll"
    rolls = True
    logged = True
    log_drop = ("table",)

    def audience_for(self, role: str, seat: str, hidden: bool) -> str:
        return own_audience(role, seat, hidden)

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        entry = super().log_entry(payload)
        steps = (payload.get("result") or {}).get("steps") if isinstance(payload.get("result"), Mapping) else None
        first = steps[0] if isinstance(steps, list) and steps and isinstance(steps[0], Mapping) else {}
        return {**entry, "total": first.get("total")}

    def line(self, entry, p: TableRollPayload, ctx) -> Line:
        """``GM — Random encounter (1d6): 4 — Nothing`` (the body: the total and the entry)."""
        expr = p.expr or ""
        name = p.name or expr
        head = f"{name} ({expr})" if expr and name != expr else name
        what = hidden_what(both(head), bool(p.hidden))
        return Line("roll", ctx.who(entry.get("actor", "")), what, texts_of(p), hidden=bool(p.hidden))

    def replay(self, p: TableRollPayload, rng, ctx) -> Any:
        from ...dice import RollTable

        again = RollTable.from_dict(p.table).roll(rng, strict=False)
        return norm(again.to_json())


def roll_texts(rolled) -> dict[str, str]:
    """A table roll's body in every language: ``4 — Nothing`` (a nested roll: ``1 → Wolves
    (1d4): 3 — A pack``)."""
    out = {}
    for loc in LOCALES:
        full = rolled.text(loc)
        head = f"{rolled.table.title} ({rolled.table.expr})" if rolled.table.title else rolled.table.expr
        out[loc] = full[len(head) + 2 :] if full.startswith(head + ": ") else full
    return out


# --------------------------------------------------------------------------------------------
# rolltable.saved
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class SavedPayload(Payload):
    #: the campaign's name of the table (what the GM's page lists and rolls it by)
    name: str = text("title")
    #: the table (``RollTable.to_dict``); None: the name is taken away
    table: dict | None = optional(omit_none=False)
    #: whether the players see it and may roll it
    shared: bool = False


class TableSaved(Kind):
    """A campaign's roll table saved under its name by the GM (shared: every seat sees and may
    roll it; else the GM's only), or taken away (no table)."""

    name = "rolltable.saved"
    Payload = SavedPayload
    action = "rolltable.manage"

    def audience_for(self, shared: bool) -> str:
        return AUDIENCE_ALL if shared else AUDIENCE_GM

    def reduce(self, state, event, p: SavedPayload) -> None:
        tables = state.extra.setdefault(EXTRA, {})
        if not isinstance(p.name, str) or not p.name:
            return
        if isinstance(p.table, Mapping):
            tables[p.name] = {"table": dict(p.table), "shared": bool(p.shared), "seq": event.seq}
        else:
            tables.pop(p.name, None)


KINDS = (TableRollKind(), TableSaved())

__all__ = ["EXTRA", "KINDS", "roll_texts"]
