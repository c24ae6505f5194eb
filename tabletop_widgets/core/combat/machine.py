"""The combat state machine (see the package's docstring): events in, state out, undo, and the
system's hooks called once when an event is made, their outcome recorded in it."""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable, Iterable, Mapping

import traitlets

from ..i18n import DEFAULT_LOCALE, T, tr
from ..problems import RuleError
from . import text
from .projection import Combatant, combatant_of, combatants_of
from .records import as_tuple, clone_character, diff, jcopy, jsonable, persisted, roll_record, set_traits

#: Version of the event format (stored in every event as ``"v"``).
EVENT_VERSION = 1

#: Event types :meth:`Combat.apply` understands.
EVENT_TYPES = (
    "add",
    "remove",
    "rename",
    "move",
    "initiative",
    "next",
    "prev",
    "delay",
    "act_now",
    "end",
    "damage",
    "heal",
    "add_condition",
    "remove_condition",
    "set_defeated",
    "set_hidden",
    "undo",
    "attack",
)

#: Units whose duration counts down with turns.
COUNTED_UNITS = ("rounds", "turns")


def _err(code: str, en: str, ru: str, **data: Any) -> RuleError:
    return RuleError(code, T(en, ru), **data)


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
    ) -> "Combat":
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
        self._need(cid)
        until = self._c[cid].get("skip_until")
        return bool(until) and 1 <= round <= int(until)

    def skip_until(self, cid: str) -> int | None:
        """The last round ``cid`` sits out (None: none), as recorded by its initiative roll."""
        self._need(cid)
        return self._c[cid].get("skip_until") or None

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
        """What the tracker shows of ``cid`` (:func:`.projection.combatant_of`)."""
        return combatant_of(self, cid)

    def combatants(self, *, audience: str = "gm") -> list[Combatant]:
        """Combatants in turn order; ``audience="player"`` leaves out the hidden ones."""
        return combatants_of(self, audience=audience)

    def entry(self, cid: str) -> dict:
        """The combat's own record of ``cid`` as JSON data (a copy): ``name``, ``hidden``,
        ``delayed``, ``defeated`` (the GM's mark), ``initiative``, ``conditions``, ``health``
        (the recorded ``[current, max]`` of a view, when there is one), ``skip_until``."""
        self._need(cid)
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
    def from_state(cls, system, state: Mapping[str, Any], events: Iterable[Mapping] = ()) -> "Combat":
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
        state = jcopy(jsonable(dict(state or {})))
        self._reset()
        self._undo = []
        self._objects = {}
        self.events = jcopy(jsonable(list(events)))
        if not state:
            return
        self.round = int(state.get("round", 0))
        self.current = state.get("current")
        self.order = list(state.get("order", []))
        self.tiebreaks = list(state.get("tiebreaks", []))
        self._next_uid = int(state.get("next_uid", 1))
        self._turns = {k: list(v) for k, v in (state.get("turns") or {}).items()}
        self._hooked = {k: list(v) for k, v in (state.get("hooked") or self._turns).items()}
        for cid, data in (state.get("combatants") or {}).items():
            values = data.pop("character", None) or {}
            ch = self.system.Character()
            try:
                set_traits(ch, values)
            except Exception:  # noqa: BLE001 - an anonymous "?" or a partial character: keep what loads
                pass
            data.setdefault("skip_until", None)
            data.setdefault("conditions", [])
            data.setdefault("initiative", None)
            data.setdefault("delayed", False)
            data.setdefault("hidden", False)
            data.setdefault("defeated", None)
            self._objects[cid] = ch
            self._c[cid] = data
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
        character's renames (a ``rename`` event, ``"follow": true``: a table records it like
        any other), and the views are told to redraw. Changes the combat makes itself (events,
        undo, replay) are not outside changes."""
        if self._applying:
            return
        for cid, o in list(self._objects.items()):
            if o is not obj or cid not in self._c:
                continue
            if change.get("name") == "name":
                old, new = change.get("old"), change.get("new")
                new = new.strip() if isinstance(new, str) else ""
                if new and old == self._c[cid]["name"] and new != old:
                    self.apply({"type": "rename", "id": cid, "name": new, "follow": True})
            for callback in list(self._character_listeners):
                callback(cid)

    # ---------------------------------------------------------------------------------------
    # Actions (each builds one event and applies it)
    # ---------------------------------------------------------------------------------------
    def add(
        self, cid: str | None, character, *, name: str | None = None, hidden: bool = False, position: int | None = None
    ) -> dict:
        """Add a combatant (at the end of the order unless ``position`` is given). Mid-combat
        the current turn stays where it is."""
        name = (name or getattr(character, "name", "") or cid or "").strip()
        cid = cid or self.new_id(name)
        if cid in self._c:
            raise _err("duplicate_id", f"There is already a combatant {cid!r}.", f"Участник {cid!r} уже есть.")
        pos = len(self.order) if position is None else max(0, min(int(position), len(self.order)))
        self._provided[cid] = character
        return self.apply(
            {
                "type": "add",
                "id": cid,
                "name": name or cid,
                "hidden": bool(hidden),
                "position": pos,
                "character": persisted(character),
            }
        )

    def remove(self, cid: str) -> dict:
        """Remove a combatant. When it is their turn, the turn passes forwards."""
        self._need(cid)
        event = {"type": "remove", "id": cid}
        if self.current == cid:
            rest = [i for i in self.order if i != cid]
            if rest:
                idx = self.order.index(cid)
                nxt, wrapped = self._scan(idx, +1, exclude=cid)
                if nxt is None:  # nobody able to act: the next one in the order anyway
                    nxt = self.order[(idx + 1) % len(self.order)]
                    wrapped = idx + 1 >= len(self.order)
                event.update(current=nxt, round=self.round + (1 if wrapped else 0))
            else:  # the last one leaves: the combat is over
                event.update(current=None, round=0)
        if event.get("current") is not None:
            twins: dict = {}
            effects = self._expiry_effects(twins, event)
            effects += self._turn_effect(twins, event["current"], "start")
            if effects:
                event["effects"] = effects
        return self.apply(event)

    def rename(self, cid: str, name: str) -> dict:
        """Rename a combatant. When it goes by its character's name, the character is renamed
        too (recorded as ``changes``, undone with the rename): one character, one name."""
        self._need(cid)
        name = str(name).strip()
        if not name:
            raise _err("empty_name", "A name cannot be empty.", "Имя не может быть пустым.")
        event: dict[str, Any] = {"type": "rename", "id": cid, "name": name}
        ch = self._objects[cid]
        own = getattr(ch, "name", None) if "name" in getattr(ch, "traits", dict)() else None
        if isinstance(own, str) and own == self._c[cid]["name"] and own != name:
            event["changes"] = {"name": [own, name]}
        return self.apply(event)

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
        result = self.system.roll_initiative({cid: self._objects[cid] for cid in ids}, rng=self.rng, **options)
        rolled = list(result.order)
        if sorted(rolled) != sorted(ids):
            raise _err(
                "bad_initiative",
                "The system returned an order that does not match the combatants.",
                "Система вернула порядок, не совпадающий с участниками.",
            )
        rolls = {
            cid: {"key": jsonable(r.key), "text": jsonable(r.text), "roll": roll_record(r.roll)}
            for cid, r in result.rolls.items()
        }
        for cid, r in result.rolls.items():
            if int(getattr(r, "skip_rounds", 0) or 0) > 0:
                rolls[cid]["skip_rounds"] = int(r.skip_rounds)
        if set(ids) == set(self.order):
            order = rolled
        else:
            order = [i for i in self.order if i not in set(ids)]
            for cid in rolled:
                key = as_tuple(rolls[cid]["key"])
                pos = len(order)
                for k, other in enumerate(order):
                    other_init = self._c[other]["initiative"]
                    if other_init is None:
                        continue
                    try:
                        if as_tuple(other_init["key"]) < key:
                            pos = k
                            break
                    except TypeError:
                        continue
                order.insert(pos, cid)
        event = {
            "type": "initiative",
            "ids": ids,
            "order": order,
            "rolls": rolls,
            "tiebreaks": jsonable(list(result.tiebreaks)),
            "options": jsonable(options),
        }
        skip = {}
        for cid, r in rolls.items():
            if r.get("skip_rounds"):
                if not self.started or cid == self.current:
                    first = self.round + 1
                else:  # mid-combat: their first turn is this round if they come after the current one
                    first = self.round + (1 if order.index(cid) < order.index(self.current) else 0)
                skip[cid] = first + r["skip_rounds"] - 1
        if skip:
            event["skip"] = skip
        twins: dict = {}
        effects = []
        for cid, r in result.rolls.items():
            roll_effects = list(getattr(r, "effects", ()) or ())
            if roll_effects:
                reasons = [e.reason for e in roll_effects if getattr(e, "reason", None)]
                entry = self._effect_entry(
                    twins,
                    cid,
                    "initiative",
                    lambda ch, fx=roll_effects: self.system.apply_effects(ch, fx),
                    notes=reasons,
                )
                if entry:
                    effects.append(entry)
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def next_turn(self) -> dict:
        """End the current turn and start the next one able to act (the first, when starting)."""
        if not self.order:
            raise _err("empty", "There is nobody in the combat.", "В бою никого нет.")
        twins: dict = {}
        effects: list = []
        if self.current is None:
            first = max(1, self.round)
            last = first + max([0] + [int(d.get("skip_until") or 0) for d in self._c.values()])
            nxt = None
            for rnd in range(first, last + 1):  # everyone sitting out round 1: round 2 starts
                nxt, _ = self._scan(-1, +1, base=rnd)
                if nxt is not None:
                    break
            if nxt is None:
                raise self._nobody()
            event = {"type": "next", "from": None, "to": nxt, "round": rnd}
        else:
            frm = self.current
            effects += self._turn_effect(twins, frm, "end")
            out = {frm} if effects and self._defeated_after(frm, effects[-1]) else set()
            idx = self.order.index(frm)
            nxt, wrapped = self._scan(idx, +1, exclude=out)
            if nxt is None and out:  # the end effect took out the last one able to act
                nxt, wrapped = self._scan(idx, +1)
            if nxt is None:
                raise self._nobody()
            event = {"type": "next", "from": frm, "to": nxt, "round": self.round + (1 if wrapped else 0)}
        effects += self._expiry_effects(twins, event)
        effects += self._turn_effect(twins, event["to"], "start")
        if effects:
            event["effects"] = effects
        return self.apply(event)

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
        event = {"type": "prev", "from": self.current, "to": prv, "round": new_round}
        effects = self._expiry_effects({}, event)  # going back never calls on_turn
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def delay(self) -> dict:
        """The current combatant holds their turn: they are skipped until they act with
        :meth:`act_now`; the turn passes to the next one able to act."""
        if self.current is None:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        idx = self.order.index(self.current)
        nxt, wrapped = self._scan(idx, +1, exclude=self.current)
        if nxt is None:
            raise _err(
                "nobody_else",
                "Nobody else can act: there is no one to delay for.",
                "Больше никто не может действовать: откладывать ход не для кого.",
            )
        event = {"type": "delay", "id": self.current, "to": nxt, "round": self.round + (1 if wrapped else 0)}
        twins: dict = {}
        effects = self._expiry_effects(twins, event) + self._turn_effect(twins, nxt, "start")
        if effects:
            event["effects"] = effects
        return self.apply(event)

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
        event = {"type": "act_now", "id": cid, "from": self.current, "order": order}
        twins: dict = {}
        effects = self._turn_effect(twins, self.current, "end")
        effects += self._expiry_effects(twins, event)
        effects += self._turn_effect(twins, cid, "start")  # not again when the delayed turn had started
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def end(self) -> dict:
        """End the combat: round 0, no current turn (combatants and their state stay)."""
        if not self.started:
            raise _err("not_started", "The combat has not started.", "Бой ещё не начался.")
        return self.apply({"type": "end"})

    def damage(self, cid: str, amount: int, **options: Any) -> dict:
        """Damage through ``system.apply_damage`` (options from ``system.damage_options``)."""
        return self._harm("damage", cid, amount, options)

    def heal(self, cid: str, amount: int, **options: Any) -> dict:
        """Healing through ``system.apply_healing`` (options from ``system.healing_options``)."""
        return self._harm("heal", cid, amount, options)

    def attack(self, attacker_id: str, target_id: str, attack_id: str, **options: Any) -> dict:
        """``attacker_id`` makes the attack ``attack_id`` (one of ``system.attacks(attacker,
        target)``) on ``target_id``: resolved with this combat's dice (``rng``), applied by the
        system's rules (``system.apply_attack``: effects on both sides, then the damage) and
        recorded as one ``"attack"`` event, undoable like every other. ``options`` are the
        attack's own (checked against its ``OptionSpec``s)."""
        return self.attack_with(self.rng, attacker_id, target_id, attack_id, **options)

    def attack_with(self, rng: random.Random, attacker_id: str, target_id: str, attack_id: str, **options: Any) -> dict:
        """:meth:`attack` with the dice from ``rng`` (a table's fair stream for this roll)."""
        self._need(attacker_id)
        self._need(target_id)
        if attacker_id == target_id:
            raise _err("self_attack", "A combatant cannot attack themselves.", "Нельзя атаковать самого себя.")
        if self.is_defeated(attacker_id):
            name = self.name(attacker_id)
            raise _err("attacker_out", f"{name} is out of the fight.", f"{name} выбывает из боя и не может атаковать.")
        attacker, target = clone_character(self._objects[attacker_id]), clone_character(self._objects[target_id])
        spec, opts = self.system.attack_spec(attacker, target, attack_id, options)
        outcome = self.system.resolve_attack(attacker, target, attack_id, rng=rng, **opts)
        before = {attacker_id: persisted(attacker), target_id: persisted(target)}
        health = {attacker_id: list(self.system.health(attacker)), target_id: list(self.system.health(target))}
        was = {attacker_id: bool(self.system.is_defeated(attacker)), target_id: bool(self.system.is_defeated(target))}
        results = self.system.apply_attack(attacker, target, outcome)
        effects = []
        for cid, twin, result in ((attacker_id, attacker, results[0]), (target_id, target, results[1])):
            changes = diff(before[cid], persisted(twin))
            notes = jsonable(list(getattr(result, "notes", None) or []))
            state = jsonable(getattr(result, "state", None))
            if not changes and not notes and state is None:
                continue
            now = bool(self.system.is_defeated(twin))
            effects.append(
                {
                    "id": cid,
                    "hook": "attack",
                    "changes": changes,
                    "notes": notes,
                    "state": state,
                    "health": [health[cid], list(self.system.health(twin))],
                    "defeated": now,
                    "follow_rules": was[cid] != now,
                }
            )
        conditions = []
        uid = self._next_uid
        for cond in outcome.conditions:
            cid = target_id if cond.on == "target" else attacker_id
            inst = self._new_condition(cid, cond.condition, cond.duration, None, cond.data)
            inst["uid"] = uid
            uid += 1
            conditions.append(inst)
            twins = {attacker_id: attacker, target_id: target}
            entry = self._condition_effect(twins, cid, cond.condition, True, inst.get("data") or {}, uid=inst["uid"])
            if entry:
                effects.append(entry)
        event = {
            "type": "attack",
            "id": attacker_id,
            "target": target_id,
            "attack": spec.id,
            "label": jsonable(spec.label),
            "kind": spec.kind,
            "options": jsonable(opts),
            "hit": bool(outcome.hit),
            "damage": int(outcome.damage),
            "text": jsonable(dict(outcome.text)),
            "dice": {loc: outcome.dice_text(loc) for loc in ("en", "ru")},
            "notes": jsonable(list(outcome.notes)),
        }
        if effects:
            event["effects"] = effects
        if conditions:
            event["conditions"] = conditions
        return self.apply(event)

    def add_condition(
        self,
        cid: str,
        condition: str,
        *,
        duration: int | None = None,
        ticks_on: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> dict:
        """Put a condition from ``system.conditions()`` on ``cid``. ``duration`` (default: the
        catalogue's) counts down at the start or end (``ticks_at``) of the turns of ``ticks_on``
        (default: the bearer). ``data`` (plain JSON, e.g. a penalty the GM chose) is kept with
        the instance and given to ``system.condition_changed(character, id, active, **data)``,
        whose outcome is recorded in the event."""
        event = {"type": "add_condition", **self._new_condition(cid, condition, duration, ticks_on, data)}
        data = event.get("data") or {}
        entry = self._condition_effect({}, cid, condition, True, data, uid=event["uid"])
        if entry:
            event["effects"] = [entry]
        return self.apply(event)

    def remove_condition(self, cid: str, uid: int) -> dict:
        self._need(cid)
        inst = next((c for c in self.conditions(cid, include_expired=True) if c["uid"] == uid), None)
        if inst is None:
            raise _err("no_condition", "No such condition on this combatant.", "У участника нет такого состояния.")
        event = {"type": "remove_condition", "id": cid, "uid": uid}
        if inst["active"]:  # one that ran out was already reported as inactive
            entry = self._condition_effect({}, cid, inst["id"], False, inst.get("data") or {}, uid=uid)
            if entry:
                event["effects"] = [entry]
        return self.apply(event)

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
            self._need(cid)
            set_traits(self._objects[cid], {k: v[1] for k, v in (entry.get("changes") or {}).items()})
            if entry.get("follow_rules"):
                self._c[cid]["defeated"] = None

    def _on_add(self, e: dict) -> None:
        cid = e["id"]
        if cid in self._c:
            raise _err("duplicate_id", f"There is already a combatant {cid!r}.", f"Участник {cid!r} уже есть.")
        obj = self._provided.pop(cid, None)
        if obj is None:
            obj = self.system.Character()
        set_traits(obj, e["character"])
        self._objects[cid] = obj
        self._watch(cid)
        self._c[cid] = {
            "name": e["name"],
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
                self._tick(self.current, 0, +1)
        self._apply_effects(e)

    def _on_rename(self, e: dict) -> None:
        self._need(e["id"])
        old = self._c[e["id"]]["name"]
        self._c[e["id"]]["name"] = e["name"]
        if e.get("follow"):  # the character was renamed: undoing an earlier action keeps it
            for _seq, snap in self._undo:
                for data in (snap["combatants"].get(e["id"]), snap["characters"].get(e["id"])):
                    if data is not None and data.get("name") == old:
                        data["name"] = e["name"]
        if e.get("changes"):
            set_traits(self._objects[e["id"]], {k: v[1] for k, v in e["changes"].items()})

    def _on_move(self, e: dict) -> None:
        cid = e["id"]
        self._need(cid)
        self.order.remove(cid)
        self.order.insert(max(0, min(int(e["to"]), len(self.order))), cid)

    def _on_initiative(self, e: dict) -> None:
        if sorted(e["order"]) != sorted(self.order):
            raise _err(
                "bad_order",
                "The recorded order does not match the combatants.",
                "Записанный порядок не совпадает с участниками.",
            )
        skip = e.get("skip") or {}
        for cid, roll in e["rolls"].items():
            self._need(cid)
            self._c[cid]["initiative"] = roll
            self._c[cid]["skip_until"] = int(skip[cid]) if skip.get(cid) else None
        self.order = list(e["order"])
        self.tiebreaks = list(e.get("tiebreaks", []))
        self._apply_effects(e)

    def _on_next(self, e: dict) -> None:
        to = e["to"]
        self._need(to)
        if e.get("from") is not None:
            self._need(e["from"])
            self._tick(e["from"], 1, +1)
        self.current = to
        self.round = int(e["round"])
        self._tick(to, 0, +1)
        self._apply_effects(e)

    def _on_prev(self, e: dict) -> None:
        self._need(e["from"])
        self._need(e["to"])
        self._tick(e["from"], 0, -1)
        self.current = e["to"]
        self.round = int(e["round"])
        self._tick(e["to"], 1, -1)
        self._apply_effects(e)

    def _on_delay(self, e: dict) -> None:
        cid, to = e["id"], e["to"]
        self._need(cid)
        self._need(to)
        self._tick(cid, 0, -1)  # the turn was not taken: it is not counted
        self._c[cid]["delayed"] = True
        self.current = to
        self.round = int(e["round"])
        self._tick(to, 0, +1)
        self._apply_effects(e)

    def _on_act_now(self, e: dict) -> None:
        cid = e["id"]
        self._need(cid)
        if sorted(e["order"]) != sorted(self.order):
            raise _err(
                "bad_order",
                "The recorded order does not match the combatants.",
                "Записанный порядок не совпадает с участниками.",
            )
        if e.get("from") is not None:
            self._need(e["from"])
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
        self._need(e["id"])
        set_traits(self._objects[e["id"]], {k: v[1] for k, v in e["changes"].items()})

    _on_heal = _on_damage

    def _on_add_condition(self, e: dict) -> None:
        self._need(e["id"])
        inst = {k: e[k] for k in ("uid", "duration", "unit", "ticks_at", "ticks_on", "base")}
        inst["id"] = e["condition"]
        if e.get("data"):
            inst["data"] = dict(e["data"])
        self._c[e["id"]]["conditions"].append(inst)
        self._next_uid = max(self._next_uid, int(e["uid"]) + 1)
        self._apply_effects(e)

    def _on_attack(self, e: dict) -> None:
        self._need(e["id"])
        self._need(e["target"])
        self._apply_effects(e)
        for inst in e.get("conditions") or ():
            self._on_add_condition({**inst, "effects": ()})

    def _on_remove_condition(self, e: dict) -> None:
        self._need(e["id"])
        conds = self._c[e["id"]]["conditions"]
        self._c[e["id"]]["conditions"] = [c for c in conds if c["uid"] != e["uid"]]
        self._apply_effects(e)

    def _on_set_defeated(self, e: dict) -> None:
        self._need(e["id"])
        self._c[e["id"]]["defeated"] = e["value"]

    def _on_set_hidden(self, e: dict) -> None:
        self._need(e["id"])
        self._c[e["id"]]["hidden"] = bool(e["value"])

    def _on_undo(self, e: dict) -> None:
        if not self._undo or self._undo[-1][0] != e["undoes"]:
            raise _err(
                "bad_undo",
                "That action is not the last one that can be undone.",
                "Это действие нельзя отменить: оно не последнее.",
            )
        _, before = self._undo.pop()
        self._restore(before)

    # ---------------------------------------------------------------------------------------
    # Helpers
    # ---------------------------------------------------------------------------------------
    def _need(self, cid: Any) -> None:
        if cid not in self._c:
            raise _err("unknown_combatant", f"No combatant {cid!r}.", f"Нет участника {cid!r}.")

    def _nobody(self) -> RuleError:
        return _err(
            "nobody_can_act",
            "Nobody can act: everyone is defeated or delaying.",
            "Никто не может действовать: все выбыли или отложили ход.",
        )

    def _scan(self, idx: int, step: int, *, exclude: Any = None, base: int | None = None) -> tuple[str | None, bool]:
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

    def _new_condition(
        self, cid: str, condition: str, duration: int | None, ticks_on: str | None, data: Mapping[str, Any] | None
    ) -> dict:
        """A new instance of ``condition`` on ``cid`` as event data (checked; not yet applied)."""
        self._need(cid)
        spec = self._catalogue.get(condition)
        if spec is None:
            raise _err(
                "unknown_condition", f"Unknown condition {condition!r}.", f"Неизвестное состояние {condition!r}."
            )
        ticks_on = ticks_on or cid
        self._need(ticks_on)
        if duration is None:
            duration = spec.duration if spec.unit in COUNTED_UNITS else None
        if duration is not None:
            if isinstance(duration, bool) or int(duration) != duration or duration < 1:
                raise _err(
                    "bad_duration", "A duration is a whole number of 1 or more.", "Длительность — целое число от 1."
                )
            duration = int(duration)
        if not spec.stacks and any(c["id"] == condition for c in self.conditions(cid)):
            raise _err(
                "already_has",
                f"{self.name(cid)} already has {tr(spec.label)}.",
                f"{self.name(cid)}: «{tr(spec.label, 'ru')}» уже есть.",
            )
        if data is not None and not isinstance(data, Mapping):
            raise _err(
                "bad_data",
                "Condition data is a mapping of names to values.",
                "Данные состояния — словарь «имя: значение».",
            )
        data = jsonable(dict(data or {}))
        unit = spec.unit if duration is None or spec.unit in COUNTED_UNITS else "rounds"
        at = 0 if spec.ticks_at == "start" else 1
        out = {
            "id": cid,
            "condition": condition,
            "uid": self._next_uid,
            "duration": duration,
            "unit": unit,
            "ticks_at": spec.ticks_at,
            "ticks_on": ticks_on,
            "base": self._turns.get(ticks_on, [0, 0])[at],
        }
        if data:
            out["data"] = data
        return out

    def _harm(self, kind: str, cid: str, amount: Any, options: Mapping[str, Any]) -> dict:
        self._need(cid)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise _err("bad_amount", "The amount is a whole number of 0 or more.", "Количество — целое число от 0.")
        ch = self._objects[cid]
        specs = self.system.damage_options(ch) if kind == "damage" else self.system.healing_options(ch)
        allowed = {o.name for o in specs}
        if set(options) - allowed:
            bad = ", ".join(sorted(set(options) - allowed))
            if kind == "damage":
                raise _err("bad_option", f"Unknown damage option(s): {bad}.", f"Неизвестные параметры урона: {bad}.")
            raise _err("bad_option", f"Unknown healing option(s): {bad}.", f"Неизвестные параметры лечения: {bad}.")
        twin = clone_character(ch)
        before = persisted(twin)
        health_before = list(self.system.health(twin))
        rule = self.system.apply_damage if kind == "damage" else self.system.apply_healing
        outcome = rule(twin, amount, **dict(options))
        changes = diff(before, persisted(twin))
        return self.apply(
            {
                "type": kind,
                "id": cid,
                "amount": amount,
                "options": jsonable(options),
                "changes": changes,
                "health": [health_before, list(self.system.health(twin))],
                "notes": jsonable(list(getattr(outcome, "notes", []))),
                "state": jsonable(getattr(outcome, "state", None)),
                "defeated": bool(self.system.is_defeated(twin)),
            }
        )

    # ---------------------------------------------------------------------------------------
    # The system's hooks (called live on scratch copies; the outcomes go into the event)
    # ---------------------------------------------------------------------------------------
    def _effect_entry(
        self, twins: dict, cid: str, hook: str, call: Callable[[Any], Any], *, notes: Iterable = (), **info: Any
    ) -> dict | None:
        """Call a hook on ``cid``'s scratch copy (kept in ``twins`` so several hooks in one
        event build on each other); what it changed as an ``effects`` entry, or None."""
        if cid not in twins:
            twins[cid] = clone_character(self._objects[cid])
        twin = twins[cid]
        before = persisted(twin)
        health_before = list(self.system.health(twin))
        was = bool(self.system.is_defeated(twin))
        outcome = call(twin)
        changes = diff(before, persisted(twin))
        all_notes = jsonable(list(notes) + list(getattr(outcome, "notes", None) or []))
        state = jsonable(getattr(outcome, "state", None))
        if not changes and not all_notes and state is None:
            return None
        now = bool(self.system.is_defeated(twin))
        return {
            "id": cid,
            "hook": hook,
            **jsonable(info),
            "changes": changes,
            "notes": all_notes,
            "state": state,
            "health": [health_before, list(self.system.health(twin))],
            "defeated": now,
            "follow_rules": was != now,
        }

    def _defeated_after(self, cid: str, entry: Mapping) -> bool:
        mark = self._c[cid]["defeated"]
        return bool(entry["defeated"]) if entry.get("follow_rules") or mark is None else bool(mark)

    def _hook_conditions(self, cid: str) -> list[dict]:
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
            for i in self.conditions(cid)
        ]

    def _turn_effect(self, twins: dict, cid: str, when: str) -> list[dict]:
        """``system.on_turn`` at the start or end of ``cid``'s turn, unless that boundary
        (this count of started or ended turns) was hooked already (back and forth again)."""
        at = 0 if when == "start" else 1
        if self._turns.get(cid, [0, 0])[at] + 1 <= self._hooked.get(cid, [0, 0])[at]:
            return []
        conditions = self._hook_conditions(cid)
        entry = self._effect_entry(
            twins,
            cid,
            "on_turn",
            lambda ch: self.system.on_turn(ch, when, rng=self.rng, conditions=conditions),
            when=when,
        )
        return [entry] if entry else []

    def _condition_effect(
        self, twins: dict, cid: str, condition: str, active: bool, data: Mapping[str, Any], **info: Any
    ) -> dict | None:
        return self._effect_entry(
            twins,
            cid,
            "condition_changed",
            lambda ch: self.system.condition_changed(ch, condition, active, **dict(data)),
            condition=condition,
            active=active,
            **info,
        )

    def _expiry_effects(self, twins: dict, event: dict) -> list[dict]:
        """``system.condition_changed`` for the conditions a turn event makes run out (or come
        back, going back a turn): the event is tried on the state and the state put back."""

        def actives() -> dict:
            return {
                (cid, i["uid"]): i
                for cid in self.order
                for i in self.conditions(cid, include_expired=True)
                if i["remaining"] is not None
            }

        before = actives()
        if not before:
            return []
        snap = self._snapshot()
        try:
            getattr(self, f"_on_{event['type']}")({k: v for k, v in event.items() if k != "effects"})
            after = actives()
        finally:
            self._restore(snap)
        out = []
        for key, inst in before.items():
            now = after.get(key)
            if now is not None and now["active"] != inst["active"]:
                entry = self._condition_effect(
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
            raise _err(
                "inconsistent",
                "This event would leave the combat inconsistent.",
                "Это событие сделало бы бой несогласованным.",
            )

    # ---------------------------------------------------------------------------------------
    # Text (:mod:`.text`)
    # ---------------------------------------------------------------------------------------
    def describe(self, event: Mapping, locale: str = DEFAULT_LOCALE, *, skip: Iterable[str] = ()) -> str:
        """One line for the log saying what an event did (names as they are now), with what the
        system's hooks did (turn effects, conditions, initiative costs); ids in ``skip``
        (hidden from this reader) are left out of lists."""
        return text.describe(self, event, locale, skip=skip)

    def describe_effect(self, entry: Mapping, locale: str = DEFAULT_LOCALE) -> str:
        """One recorded hook outcome (an ``effects`` entry) in words."""
        return text.describe_effect(self, entry, locale)
