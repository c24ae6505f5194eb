"""Roll tables at a shared table (issue 35): a :class:`~..dice.RollTable` rolled with the
table's fair dice (``session.roll(table)``), and the campaign's own tables (the GM saves one
under a name, shared with the players or not, lists and rolls them).

* A roll is a ``roll.table`` event under the next roll index: the table as rolled (so
  ``verify`` rolls it again from the revealed seed), each step's dice, the entry. Its log line
  reads "GM — Random encounter (1d6): 4 — Nothing". ``hidden``: the GM and the roller only.
* The campaign keeps its tables as ``rolltable.saved`` events: a shared table goes to every seat
  (players see it and may roll it), the GM's own only to the GM's seats (players never load it).
  A GM's own table is rolled hidden unless the GM says otherwise (the event carries the whole
  table, which would show its rows to every seat).

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.i18n import T
from .events import jsonable
from .kinds import ROLL_TABLE_SAVED, TABLE_ROLL
from .kinds.tables import EXTRA, roll_texts
from .payload import MAX_PAYLOAD_BYTES
from .rolling import DrawWatch
from .rules import PlayError, check_text
from .seats import PermissionDenied, register_action
from .store import AUDIENCE_ALL, Event, NewEvent, WriteTx, dumps

register_action("rolltable.manage", ["gm"])


@dataclass(frozen=True)
class SavedTable:
    """A campaign's roll table as this seat knows it: its name, the table, whether it is shared."""

    name: str
    table: Any
    shared: bool


def _too_big(name: str) -> PlayError:
    return PlayError(
        "roll_table_too_big",
        T(
            f"The roll table {name[:40]} is too large to record at the table: make it shorter.",
            f"Таблица бросков {name[:40]} слишком велика, чтобы записать её за столом: сократите её.",
        ),
    )


def _not_a_table(what: Any, done: str = "saved to the campaign") -> PlayError:
    done_ru = "бросить как таблицу" if done != "saved to the campaign" else "сохранить в кампании"
    return PlayError(
        "not_a_roll_table",
        T(
            f"Only a RollTable can be {done}, not {type(what).__name__}.",
            f"Только RollTable можно {done_ru}, а не {type(what).__name__}.",
        ),
    )


def _fits(data: dict, name: str) -> None:
    if len(dumps(data).encode("utf-8")) > MAX_PAYLOAD_BYTES // 2:
        raise _too_big(name)


class RollTableActions:
    """Roll a :class:`~..dice.RollTable`; save, list, take away and roll the campaign's tables."""

    # -- rolling --------------------------------------------------------------------------------
    def roll_table(self, table, hidden: bool = False, locale: str = "en", saved: str | None = None) -> Event:
        """``session.roll(table)`` (the same): the table rolled with the next roll index's stream (a nested
        table with the same stream), as a ``roll.table`` event. A total without a row (a reroll
        that stopped at its limit: see ``RollTable.roll``) is recorded as it came out, its index
        spent, and the seat hears why."""
        from ..dice import RollTable

        if not isinstance(table, RollTable):
            raise _not_a_table(table, "rolled as a table")
        action = "roll.hidden" if hidden else "roll"
        self.begin_action(action)
        audience = TABLE_ROLL.audience_for(self.role, self.seat, hidden)
        data = table.to_dict()
        _fits(data, table.name)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require(action)
            index = tx.next_roll
            # the same stream as rng_for(seed, index); rolled in English: ``verify`` compares the dice's JSON
            rolled = table.roll(DrawWatch(tx.secret_seed(), index), strict=False)
            texts = roll_texts(rolled)
            payload = {
                "index": index,
                "table": data,
                "name": table.name,
                "expr": table.expr,
                "hidden": bool(hidden),
                "result": jsonable(rolled.to_json()),
                "entry": rolled.final,
                "text": texts.get(locale, texts["en"]),
                "texts": texts,
            }
            if saved is not None:
                payload["saved"] = saved
            if len(dumps(payload).encode("utf-8")) > MAX_PAYLOAD_BYTES:  # huge dice: shown no value
                raise _too_big(table.name)
            return [TABLE_ROLL.new_json(self.actor, payload, audience)]

        event = self.transact(make)[0]
        if event.payload.get("entry") is None:
            total = (event.payload["result"]["steps"][-1] or {}).get("total")
            raise PlayError(
                "roll_table_no_row",
                T(
                    f"The dice gave {total}, which no row of {table.name} holds (a reroll stopped at its "
                    f"limit of 100). The roll is in the log as roll number {event.roll}: roll again.",
                    f"Кубики дали {total}, а строки для этого в таблице {table.name} нет (переброс "
                    f"остановился на пределе в 100). Бросок записан в журнал под номером {event.roll}: "
                    f"бросьте ещё раз.",
                ),
                index=event.roll,
            )
        return event

    # -- the campaign's tables --------------------------------------------------------------------
    def saved_roll_tables(self) -> dict[str, SavedTable]:
        """The campaign's tables this seat knows, by name (a player: the shared ones only)."""
        from ..dice import DiceError, RollTable

        out = {}
        for name, item in sorted((self.state.extra.get(EXTRA) or {}).items()):
            try:
                out[name] = SavedTable(name, RollTable.from_dict(item.get("table")), bool(item.get("shared")))
            except (DiceError, AttributeError):  # a table a newer version wrote, or a damaged one
                continue
        return out

    def save_roll_table(self, table, *, name: str | None = None, shared: bool = False) -> Event:
        """GM: keep ``table`` (a :class:`~..dice.RollTable`) in the campaign under ``name`` (its
        title when not given), replacing a table of that name. ``shared``: the players see it
        and may roll it; else it is the GM's own (players never load it). Returns the event."""
        from ..dice import RollTable

        self.begin_action("rolltable.manage")
        if not isinstance(table, RollTable):
            raise _not_a_table(table)
        name = " ".join(str(name if name is not None else table.title or "").split())
        if not name:
            raise PlayError(
                "roll_table_name",
                T(
                    "Give the table a name (name='Random encounter') or a title to save it by.",
                    "Дайте таблице имя (name='Случайная встреча') или название, чтобы её сохранить.",
                ),
            )
        check_text("title", name)
        data = table.to_dict()
        _fits(data, name)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("rolltable.manage")
            out = []
            before = (self.state.extra.get(EXTRA) or {}).get(name)
            if before and before.get("shared") and not shared:  # the players' copy goes away
                out.append(ROLL_TABLE_SAVED.new(self.actor, AUDIENCE_ALL, name=name, table=None, shared=True))
            audience = ROLL_TABLE_SAVED.audience_for(shared)
            out.append(ROLL_TABLE_SAVED.new(self.actor, audience, name=name, table=data, shared=bool(shared)))
            return out

        return self.transact(make)[-1]

    def remove_roll_table(self, name: str) -> Event:
        """GM: take the campaign's table ``name`` away (from every seat that had it)."""
        self.begin_action("rolltable.manage")
        self._saved_item(name)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("rolltable.manage")
            item = self._saved_item(name)
            audience = ROLL_TABLE_SAVED.audience_for(bool(item.get("shared")))
            return [ROLL_TABLE_SAVED.new(self.actor, audience, name=name, table=None, shared=bool(item.get("shared")))]

        return self.transact(make)[0]

    def roll_saved_table(self, name: str, *, hidden: bool | None = None, locale: str = "en") -> Event:
        """Roll the campaign's table ``name`` with the table's fair dice. A player rolls only the
        shared ones; ``hidden`` defaults to False for a shared table and to True for the GM's own
        (the roll's event carries the table)."""
        from ..dice import RollTable

        item = self._saved_item(name)
        shared = bool(item.get("shared"))
        if not shared and self.role != "gm":  # defence: a player never loads the GM's own tables
            raise PermissionDenied("roll", self.role, f"the table {name!r} is the GM's")
        table = RollTable.from_dict(item.get("table"))
        return self.roll_table(table, (not shared) if hidden is None else bool(hidden), locale, saved=name)

    def _saved_item(self, name: str) -> dict:
        tables = self.state.extra.get(EXTRA) or {}
        item = tables.get(name) if isinstance(name, str) else None
        if not isinstance(item, dict):
            known = ", ".join(sorted(tables)[:12]) or "none"
            known_ru = ", ".join(sorted(tables)[:12]) or "нет"
            raise PlayError(
                "no_roll_table",
                T(
                    f"The campaign has no roll table named {str(name)[:60]!r} (its tables: {known}).",
                    f"В кампании нет таблицы бросков {str(name)[:60]!r} (её таблицы: {known_ru}).",
                ),
            )
        return item


__all__ = ["RollTableActions", "SavedTable"]
