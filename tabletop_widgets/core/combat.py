"""The combat state machine: an event-sourced turn tracker keyed by combatant id (no widgets).

A :class:`Combat` is a projection of its event log. Every action (add, remove, rename, reorder,
roll initiative, next/previous turn, delay, act now, damage, healing, conditions, defeated and
hidden flags, undo) becomes one plain JSON-able ``dict`` that records the *outcome* (the dice
rolled, the order that came out, the traits that changed) and goes through :meth:`Combat.apply`.
Replaying the same log (:meth:`Combat.replay`) rebuilds the same state without rolling or
calling a damage rule again, so every viewer of a shared table sees the same order.

Rules come only from the :class:`~tabletop_widgets.core.system.GameSystem`: initiative and its
tie-break chain (``roll_initiative``), damage and healing (``apply_damage`` / ``apply_healing``
with ``damage_options``), health (``health``), defeat (``is_defeated``) and the conditions
catalogue (``conditions``).

Turn pointer decisions (the bugs other trackers shipped, notes-landscape §3 items 18-19):

* the current turn is held by **id**, never by index: reordering, re-rolling initiative, adding
  or removing someone else never moves it, and changing the order emits no turn events;
* removing the combatant whose turn it is passes the turn *forwards* to the next one able to act
  (a new round when it was the last), never back to the previous one;
* next and previous both skip defeated (and delaying) combatants, also when the first in the
  order is defeated;
* equal initiatives are ordered by the system's own tie-break chain, rolled once and recorded in
  the event (with the tie-break notes shown), never re-sorted by name or by the viewer.

Condition durations are counted in turns of one combatant (the bearer, or the one given as
``ticks_on``): each combatant counts the turns it started and ended; an instance added when that
count was ``b`` has ``duration - (count - b)`` left and is active while that is positive
(``ConditionSpec.ticks_at`` says whether starts or ends count). Going back a turn uncounts the
turn, so previous/next are exact inverses for durations too.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any, Callable, Iterable, Mapping

from .i18n import DEFAULT_LOCALE, T, tr
from .problems import RuleError

#: Version of the event format (stored in every event as ``"v"``).
EVENT_VERSION = 1

#: Event types :meth:`Combat.apply` understands.
EVENT_TYPES = ("add", "remove", "rename", "move", "initiative", "next", "prev", "delay", "act_now",
               "end", "damage", "heal", "add_condition", "remove_condition", "set_defeated",
               "set_hidden", "undo")

#: Units whose duration counts down with turns.
COUNTED_UNITS = ("rounds", "turns")


def _err(code: str, en: str, ru: str, **data: Any) -> RuleError:
    return RuleError(code, T(en, ru), **data)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (tuples become lists, dataclasses dicts, sets sorted lists)."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _jcopy(value: Any) -> Any:
    """A deep copy of plain JSON data (several times faster than ``copy.deepcopy``)."""
    return json.loads(json.dumps(value))


def _as_tuple(value: Any) -> Any:
    """Lists back to tuples (recursively) so recorded initiative keys compare like the originals."""
    if isinstance(value, (list, tuple)):
        return tuple(_as_tuple(v) for v in value)
    return value


def _roll_record(roll: Any) -> dict | None:
    """What a system's initiative roll looked like, as text in both locales (plus its data)."""
    if roll is None:
        return None
    if hasattr(roll, "text"):
        out = {"en": roll.text("en"), "ru": roll.text("ru")}
    else:
        out = {"en": str(roll), "ru": str(roll)}
    if hasattr(roll, "dice") and not callable(roll.dice):
        out["dice"] = [{"faces": jsonable(getattr(d, "faces", None)), "value": getattr(d, "value", None),
                        "kept": bool(getattr(d, "kept", True))} for d in roll.dice]
    if hasattr(roll, "total") and isinstance(getattr(roll, "total"), int):
        out["total"] = roll.total
    elif dataclasses.is_dataclass(roll):
        out["data"] = jsonable(roll)
    return out


def _persisted(character) -> dict[str, Any]:
    if hasattr(character, "to_dict"):
        return jsonable(character.to_dict())
    raise TypeError(f"a combatant must be a system Character (with to_dict), not {type(character).__name__}")


def _set_traits(character, values: Mapping[str, Any]) -> None:
    """Set recorded trait values on a character (exactly, without re-running any rule)."""
    current = jsonable({k: getattr(character, k) for k in values if k not in ("system", "schema")})
    with character.hold_trait_notifications():
        for name, value in values.items():
            if name in ("system", "schema") or current.get(name) == value:
                continue
            trait = character.traits().get(name)
            if trait is not None and type(trait).__name__ == "Tuple":
                value = _as_tuple(value)
            setattr(character, name, copy.deepcopy(value))


def clone_character(character):
    """A copy of a character (same class, same persisted values): a scratch twin for computing
    an outcome without touching the original, or a second goblin."""
    twin = type(character)()
    _set_traits(twin, _persisted(character))
    return twin


def _diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list]:
    return {k: [before.get(k), v] for k, v in after.items() if before.get(k) != v}


@dataclasses.dataclass
class Combatant:
    """One combatant as the tracker shows it (a read-only view; change it through events)."""

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


class Combat:
    """An event-sourced combat: combatants keyed by id, turn order, rounds, turns and effects.

    Parameters
    ----------
    system : GameSystem
        The rules. Every rule-ish decision goes through it.
    rng : random.Random, optional
        Where initiative dice come from (only when rolling live; replay never rolls).
    """

    def __init__(self, system, *, rng: random.Random | None = None):
        self.system = system
        self.rng = rng if rng is not None else random.Random()
        self.events: list[dict] = []
        self._objects: dict[str, Any] = {}      # id -> Character instance (kept after removal)
        self._provided: dict[str, Any] = {}     # instances to use when replaying "add"
        self._undo: list[tuple[int, dict]] = []  # (seq, state before) per undoable event
        self._listeners: list[Callable[[dict], None]] = []
        self._catalogue = {c.id: c for c in system.conditions()}
        self._reset()

    def _reset(self) -> None:
        self.order: list[str] = []
        self.round: int = 0
        self.current: str | None = None
        self.tiebreaks: list[dict] = []
        self._c: dict[str, dict] = {}           # id -> combat-side data of a combatant
        self._turns: dict[str, list[int]] = {}  # id -> [turns started, turns ended]
        self._next_uid = 1

    # ---------------------------------------------------------------------------------------
    # Replay and state
    # ---------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, system, characters: Mapping[str, Any] | None, events: Iterable[Mapping],
               *, rng: random.Random | None = None) -> "Combat":
        """Rebuild a combat from its event log. ``characters`` (``{id: Character}``, optional)
        are the instances to use for the combatants the log adds (their values are set from the
        log); combatants not given are built with ``system.Character``."""
        combat = cls(system, rng=rng)
        combat._provided = dict(characters or {})
        for event in events:
            combat.apply(event)
        return combat

    def state(self) -> dict:
        """Everything but the log, as JSON data (two combats with equal states are the same)."""
        snap = self._snapshot()
        del snap["characters"]
        for cid, data in snap["combatants"].items():
            data["character"] = _persisted(self._objects[cid])
        return snap

    def _snapshot(self, characters: Iterable[str] = ()) -> dict:
        """The combat's own state plus the values of ``characters`` only: the undo stack keeps
        one per event, and only damage and healing change a character (so a long log does not
        hold a copy of every character per event)."""
        return {
            "round": self.round, "current": self.current, "order": list(self.order),
            "tiebreaks": _jcopy(self.tiebreaks), "next_uid": self._next_uid,
            "turns": _jcopy(self._turns), "combatants": _jcopy(self._c),
            "characters": {cid: _persisted(self._objects[cid]) for cid in characters if cid in self._objects},
        }

    def _restore(self, snap: Mapping) -> None:
        self.round = snap["round"]
        self.current = snap["current"]
        self.order = list(snap["order"])
        self.tiebreaks = _jcopy(snap["tiebreaks"])
        self._next_uid = snap["next_uid"]
        self._turns = _jcopy(snap["turns"])
        self._c = _jcopy(snap["combatants"])
        for cid, values in snap["characters"].items():
            _set_traits(self._objects[cid], values)

    # ---------------------------------------------------------------------------------------
    # Reading
    # ---------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.order)

    def __contains__(self, cid: str) -> bool:
        return cid in self._c

    @property
    def ids(self) -> list[str]:
        return list(self.order)

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def character(self, cid: str):
        self._need(cid)
        return self._objects[cid]

    def characters(self) -> dict[str, Any]:
        return {cid: self._objects[cid] for cid in self.order}

    def name(self, cid: str) -> str:
        self._need(cid)
        return self._c[cid]["name"]

    def is_defeated(self, cid: str) -> bool:
        """The GM's mark when set, else the system's ``is_defeated``."""
        self._need(cid)
        mark = self._c[cid]["defeated"]
        if mark is not None:
            return bool(mark)
        return bool(self.system.is_defeated(self._objects[cid]))

    def can_act(self, cid: str) -> bool:
        return not self.is_defeated(cid) and not self._c[cid]["delayed"]

    def conditions(self, cid: str, *, include_expired: bool = False) -> list[dict]:
        """Condition instances on ``cid`` with ``remaining`` (None: no countdown) and ``active``."""
        self._need(cid)
        out = []
        for inst in self._c[cid]["conditions"]:
            remaining = self._remaining(inst)
            active = remaining is None or remaining > 0
            if active or include_expired:
                out.append({**inst, "remaining": remaining, "active": active})
        return out

    def combatant(self, cid: str) -> Combatant:
        self._need(cid)
        d = self._c[cid]
        ch = self._objects[cid]
        return Combatant(id=cid, name=d["name"], character=ch, hidden=d["hidden"], delayed=d["delayed"],
                         defeated=self.is_defeated(cid), defeated_override=d["defeated"],
                         initiative=copy.deepcopy(d["initiative"]), conditions=self.conditions(cid),
                         health=tuple(self.system.health(ch)))

    def combatants(self, *, audience: str = "gm") -> list[Combatant]:
        """Combatants in turn order; ``audience="player"`` leaves out the hidden ones."""
        out = [self.combatant(cid) for cid in self.order]
        if audience != "gm":
            out = [c for c in out if not c.hidden]
        return out

    def new_id(self, base: str) -> str:
        """A fresh id from a name: ``goblin``, ``goblin_2``, ... (never reused in this log)."""
        stem = "".join(ch if ch.isalnum() else "_" for ch in base.strip().lower()).strip("_") or "combatant"
        taken = set(self._objects) | set(self._c)
        if stem not in taken:
            return stem
        n = 2
        while f"{stem}_{n}" in taken:
            n += 1
        return f"{stem}_{n}"

    # ---------------------------------------------------------------------------------------
    # Listeners
    # ---------------------------------------------------------------------------------------
    def observe(self, callback: Callable[[dict], None]) -> Callable[[], None]:
        """Call ``callback(event)`` after every applied event; returns an unsubscribe function."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    # ---------------------------------------------------------------------------------------
    # Actions (each builds one event and applies it)
    # ---------------------------------------------------------------------------------------
    def add(self, cid: str | None, character, *, name: str | None = None, hidden: bool = False,
            position: int | None = None) -> dict:
        """Add a combatant (at the end of the order unless ``position`` is given). Mid-combat
        the current turn stays where it is."""
        name = (name or getattr(character, "name", "") or cid or "").strip()
        cid = cid or self.new_id(name)
        if cid in self._c:
            raise _err("duplicate_id", f"There is already a combatant {cid!r}.",
                       f"Участник {cid!r} уже есть.")
        pos = len(self.order) if position is None else max(0, min(int(position), len(self.order)))
        self._provided[cid] = character
        return self.apply({"type": "add", "id": cid, "name": name or cid, "hidden": bool(hidden),
                           "position": pos, "character": _persisted(character)})

    def remove(self, cid: str) -> dict:
        """Remove a combatant. When it is their turn, the turn passes forwards."""
        self._need(cid)
        event = {"type": "remove", "id": cid}
        if self.current == cid:
            rest = [i for i in self.order if i != cid]
            if rest:
                idx = self.order.index(cid)
                nxt, wrapped = self._scan(idx, +1, exclude=cid)
                if nxt is None:   # nobody able to act: the next one in the order anyway
                    nxt = self.order[(idx + 1) % len(self.order)]
                    wrapped = idx + 1 >= len(self.order)
                event.update(current=nxt, round=self.round + (1 if wrapped else 0))
            else:   # the last one leaves: the combat is over
                event.update(current=None, round=0)
        return self.apply(event)

    def rename(self, cid: str, name: str) -> dict:
        self._need(cid)
        name = str(name).strip()
        if not name:
            raise _err("empty_name", "A name cannot be empty.", "Имя не может быть пустым.")
        return self.apply({"type": "rename", "id": cid, "name": name})

    def move(self, cid: str, to: int) -> dict:
        """Put ``cid`` at place ``to`` of the order (0-based); the current turn stays put."""
        self._need(cid)
        to = max(0, min(int(to), len(self.order) - 1))
        return self.apply({"type": "move", "id": cid, "to": to})

    def roll_initiative(self, ids: Iterable[str] | None = None, **options: Any) -> dict:
        """Roll initiative by the system's rules for ``ids`` (default: everyone). Everyone: the
        order becomes the system's order. Some: they are merged into the current order by their
        keys, after anyone with an equal key. The current turn stays with the same combatant."""
        ids = list(self.order if ids is None else ids)
        for cid in ids:
            self._need(cid)
        if not ids:
            raise _err("nobody", "Nobody to roll initiative for.", "Некому бросать инициативу.")
        result = self.system.roll_initiative({cid: self._objects[cid] for cid in ids}, rng=self.rng,
                                             **options)
        rolled = list(result.order)
        if sorted(rolled) != sorted(ids):
            raise _err("bad_initiative", "The system returned an order that does not match the combatants.",
                       "Система вернула порядок, не совпадающий с участниками.")
        rolls = {cid: {"key": jsonable(r.key), "text": jsonable(r.text), "roll": _roll_record(r.roll)}
                 for cid, r in result.rolls.items()}
        if set(ids) == set(self.order):
            order = rolled
        else:
            order = [i for i in self.order if i not in set(ids)]
            for cid in rolled:
                key = _as_tuple(rolls[cid]["key"])
                pos = len(order)
                for k, other in enumerate(order):
                    other_init = self._c[other]["initiative"]
                    if other_init is None:
                        continue
                    try:
                        if _as_tuple(other_init["key"]) < key:
                            pos = k
                            break
                    except TypeError:
                        continue
                order.insert(pos, cid)
        return self.apply({"type": "initiative", "ids": ids, "order": order, "rolls": rolls,
                           "tiebreaks": jsonable(list(result.tiebreaks)),
                           "options": jsonable(options)})

    def next_turn(self) -> dict:
        """End the current turn and start the next one able to act (the first, when starting)."""
        if not self.order:
            raise _err("empty", "There is nobody in the combat.", "В бою никого нет.")
        if self.current is None:
            nxt, wrapped = self._scan(-1, +1)
            if nxt is None:
                raise self._nobody()
            return self.apply({"type": "next", "from": None, "to": nxt, "round": max(1, self.round)})
        nxt, wrapped = self._scan(self.order.index(self.current), +1)
        if nxt is None:
            raise self._nobody()
        return self.apply({"type": "next", "from": self.current, "to": nxt,
                           "round": self.round + (1 if wrapped else 0)})

    def previous_turn(self) -> dict:
        """Go back to the previous turn of someone able to act (defeated ones are skipped)."""
        if self.current is None:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        prv, wrapped = self._scan(self.order.index(self.current), -1)
        if prv is None:
            raise self._nobody()
        new_round = self.round - (1 if wrapped else 0)
        if new_round < 1:
            raise _err("first_turn", "This is the first turn of the combat.", "Это первый ход боя.")
        return self.apply({"type": "prev", "from": self.current, "to": prv, "round": new_round})

    def delay(self) -> dict:
        """The current combatant holds their turn: they are skipped until they act with
        :meth:`act_now`; the turn passes to the next one able to act."""
        if self.current is None:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        idx = self.order.index(self.current)
        nxt, wrapped = self._scan(idx, +1, exclude=self.current)
        if nxt is None:
            raise _err("nobody_else", "Nobody else can act: there is no one to delay for.",
                       "Больше никто не может действовать: откладывать ход не для кого.")
        return self.apply({"type": "delay", "id": self.current, "to": nxt,
                           "round": self.round + (1 if wrapped else 0)})

    def act_now(self, cid: str) -> dict:
        """A delaying combatant acts now: the current turn ends and ``cid`` takes the place
        right after it in the order (their new initiative) and starts their turn."""
        self._need(cid)
        if not self._c[cid]["delayed"]:
            raise _err("not_delayed", f"{self.name(cid)} is not delaying.", f"{self.name(cid)} не откладывает ход.")
        if self.current is None:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        order = [i for i in self.order if i != cid]
        order.insert(order.index(self.current) + 1, cid)
        return self.apply({"type": "act_now", "id": cid, "from": self.current, "order": order})

    def end(self) -> dict:
        """End the combat: round 0, no current turn (combatants and their state stay)."""
        if not self.started:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        return self.apply({"type": "end"})

    def damage(self, cid: str, amount: int, **options: Any) -> dict:
        """Damage through ``system.apply_damage`` (options from ``system.damage_options``)."""
        return self._harm("damage", cid, amount, options)

    def heal(self, cid: str, amount: int, **options: Any) -> dict:
        """Healing through ``system.apply_healing``."""
        return self._harm("heal", cid, amount, options)

    def add_condition(self, cid: str, condition: str, *, duration: int | None = None,
                      ticks_on: str | None = None) -> dict:
        """Put a condition from ``system.conditions()`` on ``cid``. ``duration`` (default: the
        catalogue's) counts down at the start or end (``ticks_at``) of the turns of ``ticks_on``
        (default: the bearer)."""
        self._need(cid)
        spec = self._catalogue.get(condition)
        if spec is None:
            raise _err("unknown_condition", f"Unknown condition {condition!r}.", f"Неизвестное состояние {condition!r}.")
        ticks_on = ticks_on or cid
        self._need(ticks_on)
        if duration is None:
            duration = spec.duration if spec.unit in COUNTED_UNITS else None
        if duration is not None:
            if isinstance(duration, bool) or int(duration) != duration or duration < 1:
                raise _err("bad_duration", "A duration is a whole number of 1 or more.",
                           "Длительность — целое число от 1.")
            duration = int(duration)
        if not spec.stacks and any(c["id"] == condition for c in self.conditions(cid)):
            raise _err("already_has", f"{self.name(cid)} already has {tr(spec.label)}.",
                       f"У {self.name(cid)} уже есть «{tr(spec.label, 'ru')}».")
        unit = spec.unit if duration is None or spec.unit in COUNTED_UNITS else "rounds"
        at = 0 if spec.ticks_at == "start" else 1
        return self.apply({"type": "add_condition", "id": cid, "condition": condition,
                           "uid": self._next_uid, "duration": duration, "unit": unit,
                           "ticks_at": spec.ticks_at, "ticks_on": ticks_on,
                           "base": self._turns.get(ticks_on, [0, 0])[at]})

    def remove_condition(self, cid: str, uid: int) -> dict:
        self._need(cid)
        if not any(c["uid"] == uid for c in self._c[cid]["conditions"]):
            raise _err("no_condition", "No such condition on this combatant.", "У участника нет такого состояния.")
        return self.apply({"type": "remove_condition", "id": cid, "uid": uid})

    def set_defeated(self, cid: str, value: bool | None) -> dict:
        """Mark ``cid`` defeated (True) or not (False) by the GM; None follows the rules again."""
        self._need(cid)
        return self.apply({"type": "set_defeated", "id": cid, "value": None if value is None else bool(value)})

    def set_hidden(self, cid: str, value: bool) -> dict:
        self._need(cid)
        return self.apply({"type": "set_hidden", "id": cid, "value": bool(value)})

    def undo(self) -> dict:
        """Undo the last action that has not been undone (restores the exact previous state)."""
        if not self._undo:
            raise _err("nothing_to_undo", "Nothing to undo.", "Нечего отменять.")
        return self.apply({"type": "undo", "undoes": self._undo[-1][0]})

    # ---------------------------------------------------------------------------------------
    # Applying events
    # ---------------------------------------------------------------------------------------
    def apply(self, event: Mapping) -> dict:
        """Apply one event (live or from a log): all or nothing. Returns the stored event."""
        event = json.loads(json.dumps(jsonable(dict(event))))
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            raise _err("bad_event", f"Unknown event type {kind!r}.", f"Неизвестный тип события {kind!r}.")
        event.setdefault("v", EVENT_VERSION)
        event["seq"] = len(self.events)
        touched: tuple = ()
        if kind in ("damage", "heal", "remove"):     # the only events after which a character
            touched = (event.get("id"),)              # may differ when undone (remove: re-added)
        elif kind == "undo" and self._undo:
            touched = tuple(self._undo[-1][1]["characters"])
        before = self._snapshot(touched)
        try:
            getattr(self, f"_on_{kind}")(event)
            self._check()
        except Exception:
            self._restore(before)
            raise
        if kind == "undo":
            pass
        else:
            self._undo.append((event["seq"], before))
        self.events.append(event)
        for callback in list(self._listeners):
            callback(event)
        return event

    def _on_add(self, e: dict) -> None:
        cid = e["id"]
        if cid in self._c:
            raise _err("duplicate_id", f"There is already a combatant {cid!r}.", f"Участник {cid!r} уже есть.")
        obj = self._provided.pop(cid, None)
        if obj is None:
            obj = self.system.Character()
        _set_traits(obj, e["character"])
        self._objects[cid] = obj
        self._c[cid] = {"name": e["name"], "hidden": bool(e.get("hidden")), "delayed": False,
                        "defeated": None, "initiative": None, "conditions": []}
        self._turns.setdefault(cid, [0, 0])
        self.order.insert(max(0, min(int(e.get("position", len(self.order))), len(self.order))), cid)

    def _on_remove(self, e: dict) -> None:
        cid = e["id"]
        self._need(cid)
        was_current = self.current == cid
        self.order.remove(cid)
        del self._c[cid]
        if was_current:
            self.current = e.get("current")
            self.round = int(e.get("round", self.round)) if self.current is not None else 0
            if self.current is not None:
                self._need(self.current)
                self._c[self.current]["delayed"] = False
                self._turns[self.current][0] += 1

    def _on_rename(self, e: dict) -> None:
        self._need(e["id"])
        self._c[e["id"]]["name"] = e["name"]

    def _on_move(self, e: dict) -> None:
        cid = e["id"]
        self._need(cid)
        self.order.remove(cid)
        self.order.insert(max(0, min(int(e["to"]), len(self.order))), cid)

    def _on_initiative(self, e: dict) -> None:
        if sorted(e["order"]) != sorted(self.order):
            raise _err("bad_order", "The recorded order does not match the combatants.",
                       "Записанный порядок не совпадает с участниками.")
        for cid, roll in e["rolls"].items():
            self._need(cid)
            self._c[cid]["initiative"] = roll
        self.order = list(e["order"])
        self.tiebreaks = list(e.get("tiebreaks", []))

    def _on_next(self, e: dict) -> None:
        to = e["to"]
        self._need(to)
        if e.get("from") is not None:
            self._need(e["from"])
            self._turns[e["from"]][1] += 1
        self.current = to
        self.round = int(e["round"])
        self._turns[to][0] += 1

    def _on_prev(self, e: dict) -> None:
        self._need(e["from"])
        self._need(e["to"])
        self._turns[e["from"]][0] -= 1
        self.current = e["to"]
        self.round = int(e["round"])
        self._turns[e["to"]][1] -= 1

    def _on_delay(self, e: dict) -> None:
        cid, to = e["id"], e["to"]
        self._need(cid)
        self._need(to)
        self._turns[cid][0] -= 1            # the turn was not taken: it is not counted
        self._c[cid]["delayed"] = True
        self.current = to
        self.round = int(e["round"])
        self._turns[to][0] += 1

    def _on_act_now(self, e: dict) -> None:
        cid = e["id"]
        self._need(cid)
        if sorted(e["order"]) != sorted(self.order):
            raise _err("bad_order", "The recorded order does not match the combatants.",
                       "Записанный порядок не совпадает с участниками.")
        if e.get("from") is not None:
            self._need(e["from"])
            self._turns[e["from"]][1] += 1
        self._c[cid]["delayed"] = False
        self.order = list(e["order"])
        self.current = cid
        self._turns[cid][0] += 1

    def _on_end(self, e: dict) -> None:
        self.round = 0
        self.current = None
        for data in self._c.values():
            data["delayed"] = False

    def _on_damage(self, e: dict) -> None:
        self._need(e["id"])
        _set_traits(self._objects[e["id"]], {k: v[1] for k, v in e["changes"].items()})

    _on_heal = _on_damage

    def _on_add_condition(self, e: dict) -> None:
        self._need(e["id"])
        inst = {k: e[k] for k in ("uid", "duration", "unit", "ticks_at", "ticks_on", "base")}
        inst["id"] = e["condition"]
        self._c[e["id"]]["conditions"].append(inst)
        self._next_uid = max(self._next_uid, int(e["uid"]) + 1)

    def _on_remove_condition(self, e: dict) -> None:
        self._need(e["id"])
        conds = self._c[e["id"]]["conditions"]
        self._c[e["id"]]["conditions"] = [c for c in conds if c["uid"] != e["uid"]]

    def _on_set_defeated(self, e: dict) -> None:
        self._need(e["id"])
        self._c[e["id"]]["defeated"] = e["value"]

    def _on_set_hidden(self, e: dict) -> None:
        self._need(e["id"])
        self._c[e["id"]]["hidden"] = bool(e["value"])

    def _on_undo(self, e: dict) -> None:
        if not self._undo or self._undo[-1][0] != e["undoes"]:
            raise _err("bad_undo", "That action is not the last one that can be undone.",
                       "Это действие нельзя отменить: оно не последнее.")
        _, before = self._undo.pop()
        self._restore(before)

    # ---------------------------------------------------------------------------------------
    # Helpers
    # ---------------------------------------------------------------------------------------
    def _need(self, cid: Any) -> None:
        if cid not in self._c:
            raise _err("unknown_combatant", f"No combatant {cid!r}.", f"Нет участника {cid!r}.")

    def _nobody(self) -> RuleError:
        return _err("nobody_can_act", "Nobody can act: everyone is defeated or delaying.",
                    "Никто не может действовать: все выбыли или отложили ход.")

    def _scan(self, idx: int, step: int, *, exclude: str | None = None) -> tuple[str | None, bool]:
        """The first combatant able to act from ``idx`` in direction ``step`` (wrapping), and
        whether the search wrapped past the end (forwards) or the start (backwards)."""
        n = len(self.order)
        for k in range(1, n + 1):
            raw = idx + step * k
            if idx < 0 and raw >= n:
                break
            cid = self.order[raw % n]
            if cid != exclude and self.can_act(cid):
                return cid, raw >= n or raw < 0
        return None, False

    def _remaining(self, inst: Mapping) -> int | None:
        if inst.get("duration") is None or inst.get("unit") not in COUNTED_UNITS:
            return None
        at = 0 if inst.get("ticks_at") == "start" else 1
        count = self._turns.get(inst["ticks_on"], [0, 0])[at]
        return int(inst["duration"]) - (count - int(inst["base"]))

    def _harm(self, kind: str, cid: str, amount: Any, options: Mapping[str, Any]) -> dict:
        self._need(cid)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise _err("bad_amount", "The amount is a whole number of 0 or more.",
                       "Количество — целое число от 0.")
        ch = self._objects[cid]
        allowed = {o.name for o in self.system.damage_options(ch)} if kind == "damage" else None
        if allowed is not None and set(options) - allowed:
            bad = ", ".join(sorted(set(options) - allowed))
            raise _err("bad_option", f"Unknown damage option(s): {bad}.", f"Неизвестные параметры урона: {bad}.")
        twin = clone_character(ch)
        before = _persisted(twin)
        health_before = list(self.system.health(twin))
        rule = self.system.apply_damage if kind == "damage" else self.system.apply_healing
        outcome = rule(twin, amount, **dict(options))
        changes = _diff(before, _persisted(twin))
        return self.apply({"type": kind, "id": cid, "amount": amount, "options": jsonable(options),
                           "changes": changes, "health": [health_before, list(self.system.health(twin))],
                           "notes": jsonable(list(getattr(outcome, "notes", []))),
                           "state": jsonable(getattr(outcome, "state", None)),
                           "defeated": bool(self.system.is_defeated(twin))})

    def _check(self) -> None:
        """Invariants after every event (a forged or corrupt event is refused by them)."""
        ok = (sorted(self.order) == sorted(self._c) and len(set(self.order)) == len(self.order)
              and (self.current is None) == (self.round == 0)
              and (self.current is None or self.current in self._c) and self.round >= 0)
        if not ok:
            raise _err("inconsistent", "This event would leave the combat inconsistent.",
                       "Это событие сделало бы бой несогласованным.")

    # ---------------------------------------------------------------------------------------
    # Text
    # ---------------------------------------------------------------------------------------
    def describe(self, event: Mapping, locale: str = DEFAULT_LOCALE, *, skip: Iterable[str] = ()) -> str:
        """One line for the log saying what an event did (names as they are now); ids in
        ``skip`` (hidden from this reader) are left out of lists."""
        skip = set(skip)
        ru = locale == "ru"

        def nm(cid):
            if cid is None:
                return "—"
            return self._c[cid]["name"] if cid in self._c else str(cid)

        k = event.get("type")
        who = nm(event.get("id"))
        if k == "add":
            return f"{event['name']} вступает в бой" if ru else f"{event['name']} joins the combat"
        if k == "remove":
            return f"{who} выбывает из списка" if ru else f"{who} leaves the combat"
        if k == "rename":
            return f"переименован: {event['name']}" if ru else f"renamed: {event['name']}"
        if k == "move":
            return f"{who} → место {event['to'] + 1}" if ru else f"{who} → place {event['to'] + 1}"
        if k == "initiative":
            names = ", ".join(nm(c) for c in event["order"] if c not in skip)
            return f"инициатива: {names}" if ru else f"initiative: {names}"
        if k in ("next", "prev", "act_now"):
            return (f"ход: {nm(event.get('to', event.get('id')))}" if ru
                    else f"turn: {nm(event.get('to', event.get('id')))}")
        if k == "delay":
            return (f"{who} откладывает ход; ходит {nm(event['to'])}" if ru
                    else f"{who} delays; {nm(event['to'])} acts")
        if k == "end":
            return "бой окончен" if ru else "combat ended"
        if k in ("damage", "heal"):
            verb = ("урон" if k == "damage" else "лечение") if ru else k.replace("heal", "healing")
            health = event.get("health")
            if health and health[0] != health[1]:
                changes = f"{health[0][0]}→{health[1][0]} / {health[1][1]}"
            else:
                changes = ", ".join(f"{t} {a}→{b}" for t, (a, b) in event["changes"].items()
                                    if not isinstance(a, (list, dict)))
            return f"{who}: {verb} {event['amount']}" + (f" ({changes})" if changes else "")
        if k == "add_condition":
            spec = self._catalogue.get(event["condition"])
            label = tr(spec.label, locale) if spec else event["condition"]
            return f"{who}: + {label}"
        if k == "remove_condition":
            return f"{who}: − {'состояние' if ru else 'condition'}"
        if k == "set_defeated":
            if event["value"] is None:
                return f"{who}: {'по правилам' if ru else 'by the rules'}"
            return f"{who}: {('выбыл' if ru else 'defeated') if event['value'] else ('в строю' if ru else 'back in')}"
        if k == "set_hidden":
            return f"{who}: {('скрыт' if ru else 'hidden') if event['value'] else ('виден' if ru else 'shown')}"
        if k == "undo":
            return f"отмена #{event['undoes']}" if ru else f"undo #{event['undoes']}"
        return str(k)
