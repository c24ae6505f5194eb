"""The combat's state and how one event changes it (see the package's docstring): what a combat
holds (the order, the round, the turn pointer, each combatant's record, the turn counts, the undo
stack), reading it, applying an event (all or nothing; undo restores the state before it) and
loading a view of someone else's combat. :class:`.machine.Combat` adds the actions that build the
events (and call the system's hooks); this class never calls a rule but ``is_defeated``."""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterable, Mapping

import traitlets

from ..i18n import T
from ..problems import RuleError
from .projection import Combatant, combatant_of, combatants_of
from .records import COUNTED_UNITS, EVENT_TYPES, EVENT_VERSION, jcopy, jsonable, persisted, set_traits, view_snapshot


#: the events that begin a turn (an attack made before one of them is in an earlier turn)
TURN_EVENTS = frozenset({"next", "prev", "delay", "act_now", "end"})


def combat_error(code: str, en: str, ru: str, **data: Any) -> RuleError:
    """A refusal of the combat, in both languages."""
    return RuleError(code, T(en, ru), **data)


class CombatState:
    """The state of an event-sourced combat: combatants keyed by id, turn order, rounds, turns
    (the parameters are :class:`.machine.Combat`'s)."""

    def __init__(self, system, *, rng: random.Random | None = None):
        self.system = system
        self.rng = rng if rng is not None else random.Random()
        self.events: list[dict] = []
        self._objects: dict[str, Any] = {}  # id -> Character instance (kept after removal)
        self._provided: dict[str, Any] = {}  # instances to use when replaying "add"
        self._undo: list[tuple[int, dict]] = []  # (seq, state before) per undoable event
        self._listeners: list[Callable[[dict], None]] = []
        self._character_listeners: list[Callable[[str], None]] = []
        self._watched: dict[int, Any] = {}  # id(character) -> the character, watched once
        self._applying = 0  # > 0 while an event (or an undo) sets trait values itself
        self._catalogue = {c.id: c for c in system.conditions()}
        self._reset()

    def _reset(self) -> None:
        self.order: list[str] = []
        self.round: int = 0
        self.current: str | None = None
        self.tiebreaks: list[dict] = []
        self._c: dict[str, dict] = {}  # id -> combat-side data of a combatant
        self._turns: dict[str, list[int]] = {}  # id -> [turns started, turns ended]
        self._hooked: dict[str, list[int]] = {}  # id -> highest [started, ended] counts hooked
        self._next_uid = 1

    # ---------------------------------------------------------------------------------------
    # Replay and state
    # ---------------------------------------------------------------------------------------
    @classmethod
    def replay(
        cls,
        system,
        characters: Mapping[str, Any] | None,
        events: Iterable[Mapping],
        *,
        rng: random.Random | None = None,
    ) -> "CombatState":
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
            data["character"] = persisted(self._objects[cid])
        return snap

    def _snapshot(self, characters: Iterable[str] = ()) -> dict:
        """The combat's own state plus the values of ``characters`` only: the undo stack keeps
        one per event, and only damage and healing change a character (so a long log does not
        hold a copy of every character per event)."""
        return {
            "round": self.round,
            "current": self.current,
            "order": list(self.order),
            "tiebreaks": jcopy(self.tiebreaks),
            "next_uid": self._next_uid,
            "turns": jcopy(self._turns),
            "hooked": jcopy(self._hooked),
            "combatants": jcopy(self._c),
            "characters": {cid: persisted(self._objects[cid]) for cid in characters if cid in self._objects},
        }

    def _restore(self, snap: Mapping) -> None:
        self.round = snap["round"]
        self.current = snap["current"]
        self.order = list(snap["order"])
        self.tiebreaks = jcopy(snap["tiebreaks"])
        self._next_uid = snap["next_uid"]
        self._turns = jcopy(snap["turns"])
        self._hooked = jcopy(snap.get("hooked", {}))
        self._c = jcopy(snap["combatants"])
        for cid, values in snap["characters"].items():
            set_traits(self._objects[cid], values)

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
        self.require(cid)
        return self._objects[cid]

    def characters(self) -> dict[str, Any]:
        return {cid: self._objects[cid] for cid in self.order}

    def name(self, cid: str) -> str:
        self.require(cid)
        return self._c[cid]["name"]

    def is_defeated(self, cid: str) -> bool:
        """The GM's mark when set, else the system's ``is_defeated``."""
        self.require(cid)
        mark = self._c[cid]["defeated"]
        if mark is not None:
            return bool(mark)
        return bool(self.system.is_defeated(self._objects[cid]))

    def can_act(self, cid: str, *, round: int | None = None) -> bool:
        """Able to take a turn in ``round`` (default: the current one): not defeated, not
        delaying, not sitting out that round (``InitiativeRoll.skip_rounds``)."""
        return (
            not self.is_defeated(cid)
            and not self._c[cid]["delayed"]
            and not self.skips(cid, self.round if round is None else round)
        )

    def skips(self, cid: str, round: int) -> bool:
        """Whether ``cid`` sits out ``round`` (its initiative roll said so)."""
        self.require(cid)
        until = self._c[cid].get("skip_until")
        return bool(until) and 1 <= round <= int(until)

    def skip_until(self, cid: str) -> int | None:
        """The last round ``cid`` sits out (None: none), as recorded by its initiative roll."""
        self.require(cid)
        return self._c[cid].get("skip_until") or None

    def attacks_this_turn(self, cid: str) -> int:
        """The attacks ``cid`` has made since the current turn started (one undone not counted):
        what a system's ``attacks_per_turn`` is held against."""
        undone: set = set()
        made = 0
        for event in reversed(self.events):
            if event.get("type") == "undo":
                undone.add(event.get("undoes"))
                continue
            if event.get("seq") in undone:
                continue
            if event.get("type") in TURN_EVENTS or (event.get("type") == "remove" and "current" in event):
                break
            if event.get("type") == "attack" and event.get("id") == cid:
                made += 1
        return made

    def conditions(self, cid: str, *, include_expired: bool = False) -> list[dict]:
        """Condition instances on ``cid`` with ``remaining`` (None: no countdown) and ``active``."""
        self.require(cid)
        out = []
        for inst in self._c[cid]["conditions"]:
            remaining = self._remaining(inst)
            active = remaining is None or remaining > 0
            if active or include_expired:
                out.append({**inst, "remaining": remaining, "active": active})
        return out

    def combatant(self, cid: str) -> Combatant:
        """What the tracker shows of ``cid`` (:func:`.projection.combatant_of`)."""
        return combatant_of(self, cid)

    def combatants(self, *, audience: str = "gm") -> list[Combatant]:
        """Combatants in turn order; ``audience="player"`` leaves out the hidden ones."""
        return combatants_of(self, audience=audience)

    def entry(self, cid: str) -> dict:
        """The combat's own record of ``cid`` as JSON data (a copy): ``name``, ``hidden``,
        ``delayed``, ``defeated`` (the GM's mark), ``initiative``, ``conditions``, ``health``
        (the recorded ``[current, max]`` of a view, when there is one), ``skip_until``."""
        self.require(cid)
        return jcopy(self._c[cid])

    def label(self, cid: Any) -> str:
        """The name ``cid`` goes by in the log: its name, or the id itself when the combat does
        not know it."""
        return self._c[cid]["name"] if cid in self._c else str(cid)

    def condition_spec(self, condition: Any):
        """The system's ``ConditionSpec`` with id ``condition``, or None."""
        return self._catalogue.get(condition)

    @staticmethod
    def tiebreak_ids(note: Mapping) -> list[str]:
        """The combatant ids a tie-break note names (its ``"ids"`` or ``"pair"``), or []."""
        ids = note.get("ids") if isinstance(note, Mapping) else None
        if ids is None and isinstance(note, Mapping):
            ids = note.get("pair")
        return [str(i) for i in ids] if isinstance(ids, (list, tuple)) else []

    # ---------------------------------------------------------------------------------------
    # A view of someone else's combat (what players may see is decided by the table's audience
    # projection, ``tabletop_widgets.table.audience.project_combat``; this only shows it)
    # ---------------------------------------------------------------------------------------
    @classmethod
    def from_state(cls, system, state: Mapping[str, Any], events: Iterable[Mapping] = ()) -> "CombatState":
        """A read-only copy from a :meth:`state` or a projection of one (and the log lines to
        show): for a kernel that may not hold the full log. Its actions still work on the
        copy, but undo starts empty."""
        combat = cls(system)
        combat.load_view(state, events)
        return combat

    def load_view(self, state: Mapping[str, Any], events: Iterable[Mapping] = ()) -> None:
        """Replace everything with a :meth:`state` (or a projection of one) and the log lines
        to show. A combatant's ``"character"`` values are set on a fresh ``system.Character``
        as far as they load; a ``"health"`` of ``[current, max]`` is shown instead of the
        system's reading of the character (a projection carries no sheet)."""
        snap, objects = view_snapshot(self.system, state)
        self._reset()
        self._undo = []
        self._objects = objects
        self.events = jcopy(jsonable(list(events)))
        if snap is None:
            return
        self._restore(snap)
        for cid in self._c:
            self._watch(cid)
        self._check()

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

    def observe_characters(self, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback(cid)`` when a combatant's character changes outside the combat (a
        sheet edit, a table update): every view of the combat redraws what the character shows
        (health, the name). Returns an unsubscribe function."""
        self._character_listeners.append(callback)
        return lambda: self._character_listeners.remove(callback) if callback in self._character_listeners else None

    def _watch(self, cid: str) -> None:
        """Follow the character of ``cid`` (a HasTraits model): see :meth:`_character_changed`."""
        obj = self._objects.get(cid)
        if obj is None or not hasattr(obj, "observe") or id(obj) in self._watched:
            return
        self._watched[id(obj)] = obj
        obj.observe(lambda change, o=obj: self._character_changed(o, change), names=traitlets.All)

    def _character_changed(self, obj: Any, change: Mapping[str, Any]) -> None:
        """One character, one state: a combatant named after its character follows the
        character's renames, and the views are told to redraw. Changes the combat makes itself
        (events, undo, replay) are not outside changes.

        The rename is no event: whoever holds the character's values (every page of a table
        pushes them in from the log) gets the same name, so nothing needs writing, and a page
        that opens after a player renamed their character writes nothing as it rebuilds the
        combat (it once recorded the rename there, and a GM page failing to record it could not
        open). A ``rename`` event with ``"follow": true`` in an older log still applies."""
        if self._applying:
            return
        for cid, o in list(self._objects.items()):
            if o is not obj or cid not in self._c:
                continue
            if change.get("name") == "name":
                old, new = change.get("old"), change.get("new")
                new = new.strip() if isinstance(new, str) else ""
                now = self._c[cid]["name"]
                if new and new != now and (self._c[cid].get("follows") or old == now):
                    self._follow_name(cid, now, new)
            for callback in list(self._character_listeners):
                callback(cid)

    def _follow_name(self, cid: str, old: str, new: str) -> None:
        """The combatant ``cid``, named after its character, takes the character's new name; an
        undo of an earlier action keeps it."""
        self._c[cid]["name"] = new
        for _seq, snap in self._undo:
            for data in (snap["combatants"].get(cid), snap["characters"].get(cid)):
                if data is not None and data.get("name") == old:
                    data["name"] = new

    # ---------------------------------------------------------------------------------------
    # What the actions read to build an event
    # ---------------------------------------------------------------------------------------
    def provide(self, cid: str, character: Any) -> None:
        """The instance to use for ``cid`` when its ``"add"`` event is applied."""
        self._provided[cid] = character

    def turn_count(self, cid: str, at: int) -> int:
        """How many turns ``cid`` has started (``at=0``) or ended (1)."""
        return self._turns.get(cid, [0, 0])[at]

    def hooked_count(self, cid: str, at: int) -> int:
        """The highest count of started (``at=0``) or ended (1) turns of ``cid`` whose boundary
        the system's ``on_turn`` has seen."""
        return self._hooked.get(cid, [0, 0])[at]

    @property
    def next_uid(self) -> int:
        """The uid the next condition instance gets."""
        return self._next_uid

    def preview(self, event: Mapping, read: Callable[[], Any]) -> Any:
        """``read()`` with ``event`` applied to the state (without its effects, calling no
        hook, not logged); the state is put back."""
        snap = self._snapshot()
        try:
            getattr(self, f"_on_{event['type']}")({k: v for k, v in event.items() if k != "effects"})
            return read()
        finally:
            self._restore(snap)

    # ---------------------------------------------------------------------------------------
    # Applying events
    # ---------------------------------------------------------------------------------------
    def undo(self) -> dict:
        """Undo the last action that has not been undone (restores the exact previous state)."""
        if not self._undo:
            raise combat_error("nothing_to_undo", "Nothing to undo.", "Нечего отменять.")
        return self.apply({"type": "undo", "undoes": self._undo[-1][0]})

    def apply(self, event: Mapping) -> dict:
        """Apply one event (live or from a log): all or nothing. Returns the stored event."""
        event = json.loads(json.dumps(jsonable(dict(event))))
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            raise combat_error("bad_event", f"Unknown event type {kind!r}.", f"Неизвестный тип события {kind!r}.")
        event.setdefault("v", EVENT_VERSION)
        event["seq"] = len(self.events)
        touched: tuple = ()
        if kind in ("damage", "heal", "remove", "attack") or (kind == "rename" and event.get("changes")):
            touched = (event.get("id"),)  # the events after which a character may differ when
            # undone (remove: re-added; a rename that renamed the character too),
        if isinstance(event.get("effects"), list):  # and those with recorded hook outcomes
            touched += tuple(
                x.get("id") for x in event["effects"] if isinstance(x, Mapping) and isinstance(x.get("id"), str)
            )
        if kind == "undo" and self._undo:
            touched = tuple(self._undo[-1][1]["characters"])
        before = self._snapshot(touched)
        self._applying += 1
        try:
            getattr(self, f"_on_{kind}")(event)
            self._check()
        except Exception:
            self._restore(before)
            raise
        finally:
            self._applying -= 1
        if kind == "undo" or event.get("follow"):
            pass  # a rename following the character is not an action to undo
        else:
            self._undo.append((event["seq"], before))
        self.events.append(event)
        for callback in list(self._listeners):
            callback(event)
        return event

    def _tick(self, cid: str, at: int, delta: int) -> None:
        """Count a turn start (``at=0``) or end (1) of ``cid`` (or uncount it), keeping the
        highest count whose boundary the system's ``on_turn`` has seen."""
        counts = self._turns.setdefault(cid, [0, 0])
        counts[at] += delta
        hooked = self._hooked.setdefault(cid, [0, 0])
        if counts[at] > hooked[at]:
            hooked[at] = counts[at]

    def _apply_effects(self, e: Mapping) -> None:
        """Set the recorded outcomes of the system's hooks (never calling a hook)."""
        for entry in e.get("effects") or ():
            cid = entry["id"]
            self.require(cid)
            set_traits(self._objects[cid], {k: v[1] for k, v in (entry.get("changes") or {}).items()})
            if entry.get("follow_rules"):
                self._c[cid]["defeated"] = None

    def _on_add(self, e: dict) -> None:
        cid = e["id"]
        if cid in self._c:
            raise combat_error("duplicate_id", f"There is already a combatant {cid!r}.", f"Участник {cid!r} уже есть.")
        obj = self._provided.pop(cid, None)
        if obj is None:
            obj = self.system.Character()
        set_traits(obj, e["character"])
        self._objects[cid] = obj
        self._watch(cid)
        self._c[cid] = {
            "name": e["name"],
            # named after its character: it takes the character's renames (see _character_changed)
            "follows": bool(e["name"]) and (e.get("character") or {}).get("name") == e["name"],
            "hidden": bool(e.get("hidden")),
            "delayed": False,
            "defeated": None,
            "initiative": None,
            "conditions": [],
            "skip_until": None,
        }
        self._turns.setdefault(cid, [0, 0])
        self._hooked.setdefault(cid, list(self._turns[cid]))
        self.order.insert(max(0, min(int(e.get("position", len(self.order))), len(self.order))), cid)

    def _on_remove(self, e: dict) -> None:
        cid = e["id"]
        self.require(cid)
        was_current = self.current == cid
        self.order.remove(cid)
        del self._c[cid]
        if was_current:
            self.current = e.get("current")
            self.round = int(e.get("round", self.round)) if self.current is not None else 0
            if self.current is not None:
                self.require(self.current)
                self._c[self.current]["delayed"] = False
                self._tick(self.current, 0, +1)
        self._apply_effects(e)

    def _on_rename(self, e: dict) -> None:
        self.require(e["id"])
        old = self._c[e["id"]]["name"]
        if e.get("follow"):  # an older log's record of a character's rename
            self._follow_name(e["id"], old, e["name"])
        else:
            self._c[e["id"]]["name"] = e["name"]
            # a name of its own, unless the character takes it too (``changes``)
            self._c[e["id"]]["follows"] = bool(e.get("changes"))
        if e.get("changes"):
            set_traits(self._objects[e["id"]], {k: v[1] for k, v in e["changes"].items()})

    def _on_move(self, e: dict) -> None:
        cid = e["id"]
        self.require(cid)
        self.order.remove(cid)
        self.order.insert(max(0, min(int(e["to"]), len(self.order))), cid)

    def _on_initiative(self, e: dict) -> None:
        if sorted(e["order"]) != sorted(self.order):
            raise combat_error(
                "bad_order",
                "The recorded order does not match the combatants.",
                "Записанный порядок не совпадает с участниками.",
            )
        skip = e.get("skip") or {}
        for cid, roll in e["rolls"].items():
            self.require(cid)
            self._c[cid]["initiative"] = roll
            self._c[cid]["skip_until"] = int(skip[cid]) if skip.get(cid) else None
        self.order = list(e["order"])
        self.tiebreaks = list(e.get("tiebreaks", []))
        self._apply_effects(e)

    def _on_next(self, e: dict) -> None:
        to = e["to"]
        self.require(to)
        if e.get("from") is not None:
            self.require(e["from"])
            self._tick(e["from"], 1, +1)
        self.current = to
        self.round = int(e["round"])
        self._tick(to, 0, +1)
        self._apply_effects(e)

    def _on_prev(self, e: dict) -> None:
        self.require(e["from"])
        self.require(e["to"])
        self._tick(e["from"], 0, -1)
        self.current = e["to"]
        self.round = int(e["round"])
        self._tick(e["to"], 1, -1)
        self._apply_effects(e)

    def _on_delay(self, e: dict) -> None:
        cid, to = e["id"], e["to"]
        self.require(cid)
        self.require(to)
        self._tick(cid, 0, -1)  # the turn was not taken: it is not counted
        self._c[cid]["delayed"] = True
        self.current = to
        self.round = int(e["round"])
        self._tick(to, 0, +1)
        self._apply_effects(e)

    def _on_act_now(self, e: dict) -> None:
        cid = e["id"]
        self.require(cid)
        if sorted(e["order"]) != sorted(self.order):
            raise combat_error(
                "bad_order",
                "The recorded order does not match the combatants.",
                "Записанный порядок не совпадает с участниками.",
            )
        if e.get("from") is not None:
            self.require(e["from"])
            self._tick(e["from"], 1, +1)
        self._c[cid]["delayed"] = False
        self.order = list(e["order"])
        self.current = cid
        self._tick(cid, 0, +1)
        self._apply_effects(e)

    def _on_end(self, e: dict) -> None:
        self.round = 0
        self.current = None
        for data in self._c.values():
            data["delayed"] = False

    def _on_damage(self, e: dict) -> None:
        self.require(e["id"])
        set_traits(self._objects[e["id"]], {k: v[1] for k, v in e["changes"].items()})

    _on_heal = _on_damage

    def _on_add_condition(self, e: dict) -> None:
        self.require(e["id"])
        inst = {k: e[k] for k in ("uid", "duration", "unit", "ticks_at", "ticks_on", "base")}
        inst["id"] = e["condition"]
        if e.get("data"):
            inst["data"] = dict(e["data"])
        self._c[e["id"]]["conditions"].append(inst)
        self._next_uid = max(self._next_uid, int(e["uid"]) + 1)
        self._apply_effects(e)

    def _on_attack(self, e: dict) -> None:
        self.require(e["id"])
        self.require(e["target"])
        self._apply_effects(e)
        for inst in e.get("conditions") or ():
            self._on_add_condition({**inst, "effects": ()})

    def _on_remove_condition(self, e: dict) -> None:
        self.require(e["id"])
        conds = self._c[e["id"]]["conditions"]
        self._c[e["id"]]["conditions"] = [c for c in conds if c["uid"] != e["uid"]]
        self._apply_effects(e)

    def _on_set_defeated(self, e: dict) -> None:
        self.require(e["id"])
        self._c[e["id"]]["defeated"] = e["value"]

    def _on_set_hidden(self, e: dict) -> None:
        self.require(e["id"])
        self._c[e["id"]]["hidden"] = bool(e["value"])

    def _on_undo(self, e: dict) -> None:
        if not self._undo or self._undo[-1][0] != e["undoes"]:
            raise combat_error(
                "bad_undo",
                "That action is not the last one that can be undone.",
                "Это действие нельзя отменить: оно не последнее.",
            )
        _, before = self._undo.pop()
        self._restore(before)

    # ---------------------------------------------------------------------------------------
    # Helpers
    # ---------------------------------------------------------------------------------------
    def require(self, cid: Any) -> None:
        """Refuse an id that is not a combatant (in both languages)."""
        if cid not in self._c:
            raise combat_error("unknown_combatant", f"No combatant {cid!r}.", f"Нет участника {cid!r}.")

    def find_able(
        self, idx: int, step: int, *, exclude: Any = None, base: int | None = None
    ) -> tuple[str | None, bool]:
        """The first combatant able to act from ``idx`` in direction ``step`` (wrapping), and
        whether the search wrapped past the end (forwards) or the start (backwards). Whether
        one can act is judged in the round it would act in (``base``, default the current
        round, one more or less after wrapping): someone sitting out a round is skipped only
        in that round. ``exclude``: an id or a set of ids to pass over."""
        n = len(self.order)
        excluded = set(exclude) if isinstance(exclude, (set, frozenset, list, tuple)) else {exclude}
        base = self.round if base is None else base
        for k in range(1, n + 1):
            raw = idx + step * k
            if idx < 0 and raw >= n:
                break
            cid = self.order[raw % n]
            wrapped = raw >= n or raw < 0
            rnd = base + (step if wrapped else 0)
            if cid not in excluded and self.can_act(cid, round=rnd):
                return cid, wrapped
        return None, False

    def _remaining(self, inst: Mapping) -> int | None:
        if inst.get("duration") is None or inst.get("unit") not in COUNTED_UNITS:
            return None
        at = 0 if inst.get("ticks_at") == "start" else 1
        count = self._turns.get(inst["ticks_on"], [0, 0])[at]
        return int(inst["duration"]) - (count - int(inst["base"]))

    def _check(self) -> None:
        """Invariants after every event (a forged or corrupt event is refused by them)."""
        ok = (
            sorted(self.order) == sorted(self._c)
            and len(set(self.order)) == len(self.order)
            and (self.current is None) == (self.round == 0)
            and (self.current is None or self.current in self._c)
            and self.round >= 0
        )
        if not ok:
            raise combat_error(
                "inconsistent",
                "This event would leave the combat inconsistent.",
                "Это событие сделало бы бой несогласованным.",
            )
