"""The combat state machine (see the package's docstring): :class:`Combat` is the state of
:class:`.state.CombatState` with the actions that build its events. Each action checks what it
is asked, calls the system's rules and hooks live once (:mod:`.initiative`, :mod:`.harm`,
:mod:`.conditions`, :mod:`.effects`), records their outcome in one event and applies it."""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping

from ..i18n import DEFAULT_LOCALE
from ..problems import RuleError
from . import text
from .conditions import new_condition
from .effects import condition_effect, defeated_after, expiry_effects, turn_effect
from .harm import attack_event, harm_event
from .initiative import initiative_event
from .records import COUNTED_UNITS, EVENT_TYPES, EVENT_VERSION, persisted
from .state import CombatState, combat_error

__all__ = ["COUNTED_UNITS", "EVENT_TYPES", "EVENT_VERSION", "Combat"]


def nobody_error() -> RuleError:
    """The refusal when nobody is able to act."""
    return combat_error(
        "nobody_can_act",
        "Nobody can act: everyone is defeated or delaying.",
        "Никто не может действовать: все выбыли или отложили ход.",
    )


class Combat(CombatState):
    """An event-sourced combat: combatants keyed by id, turn order, rounds, turns and effects.

    Parameters
    ----------
    system : GameSystem
        The rules. Every rule-ish decision goes through it.
    rng : random.Random, optional
        Where initiative dice come from (only when rolling live; replay never rolls).
    """

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
        if cid in self:
            raise combat_error("duplicate_id", f"There is already a combatant {cid!r}.", f"Участник {cid!r} уже есть.")
        pos = len(self.order) if position is None else max(0, min(int(position), len(self.order)))
        self.provide(cid, character)
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
        self.require(cid)
        event = {"type": "remove", "id": cid}
        if self.current == cid:
            rest = [i for i in self.order if i != cid]
            if rest:
                idx = self.order.index(cid)
                nxt, wrapped = self.find_able(idx, +1, exclude=cid)
                if nxt is None:  # nobody able to act: the next one in the order anyway
                    nxt = self.order[(idx + 1) % len(self.order)]
                    wrapped = idx + 1 >= len(self.order)
                event.update(current=nxt, round=self.round + (1 if wrapped else 0))
            else:  # the last one leaves: the combat is over
                event.update(current=None, round=0)
        if event.get("current") is not None:
            twins: dict = {}
            effects = expiry_effects(self, twins, event)
            effects += turn_effect(self, twins, event["current"], "start")
            if effects:
                event["effects"] = effects
        return self.apply(event)

    def rename(self, cid: str, name: str) -> dict:
        """Rename a combatant. When it goes by its character's name, the character is renamed
        too (recorded as ``changes``, undone with the rename): one character, one name."""
        self.require(cid)
        name = str(name).strip()
        if not name:
            raise combat_error("empty_name", "A name cannot be empty.", "Имя не может быть пустым.")
        event: dict[str, Any] = {"type": "rename", "id": cid, "name": name}
        ch = self.character(cid)
        own = getattr(ch, "name", None) if "name" in getattr(ch, "traits", dict)() else None
        if isinstance(own, str) and own == self.name(cid) and own != name:
            event["changes"] = {"name": [own, name]}
        return self.apply(event)

    def move(self, cid: str, to: int) -> dict:
        """Put ``cid`` at place ``to`` of the order (0-based); the current turn stays put."""
        self.require(cid)
        to = max(0, min(int(to), len(self.order) - 1))
        return self.apply({"type": "move", "id": cid, "to": to})

    def roll_initiative(self, ids: Iterable[str] | None = None, **options: Any) -> dict:
        """Roll initiative by the system's rules for ``ids`` (default: everyone). Everyone: the
        order becomes the system's order. Some: they are merged into the current order by their
        keys, after anyone with an equal key. The current turn stays with the same combatant."""
        return self.apply(initiative_event(self, ids, options))

    def next_turn(self) -> dict:
        """End the current turn and start the next one able to act (the first, when starting)."""
        if not self.order:
            raise combat_error("empty", "There is nobody in the combat.", "В бою никого нет.")
        twins: dict = {}
        effects: list = []
        if self.current is None:
            first = max(1, self.round)
            last = first + max([0] + [int(self.skip_until(cid) or 0) for cid in self.order])
            nxt = None
            for rnd in range(first, last + 1):  # everyone sitting out round 1: round 2 starts
                nxt, _ = self.find_able(-1, +1, base=rnd)
                if nxt is not None:
                    break
            if nxt is None:
                raise nobody_error()
            event = {"type": "next", "from": None, "to": nxt, "round": rnd}
        else:
            frm = self.current
            effects += turn_effect(self, twins, frm, "end")
            out = {frm} if effects and defeated_after(self, frm, effects[-1]) else set()
            idx = self.order.index(frm)
            nxt, wrapped = self.find_able(idx, +1, exclude=out)
            if nxt is None and out:  # the end effect took out the last one able to act
                nxt, wrapped = self.find_able(idx, +1)
            if nxt is None:
                raise nobody_error()
            event = {"type": "next", "from": frm, "to": nxt, "round": self.round + (1 if wrapped else 0)}
        effects += expiry_effects(self, twins, event)
        effects += turn_effect(self, twins, event["to"], "start")
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def previous_turn(self) -> dict:
        """Go back to the previous turn of someone able to act (defeated ones are skipped)."""
        if self.current is None:
            raise combat_error("not_started", "The combat has not started.", "Бой ещё не начался.")
        prv, wrapped = self.find_able(self.order.index(self.current), -1)
        if prv is None:
            raise nobody_error()
        new_round = self.round - (1 if wrapped else 0)
        if new_round < 1:
            raise combat_error("first_turn", "This is the first turn of the combat.", "Это первый ход боя.")
        event = {"type": "prev", "from": self.current, "to": prv, "round": new_round}
        effects = expiry_effects(self, {}, event)  # going back never calls on_turn
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def delay(self) -> dict:
        """The current combatant holds their turn: they are skipped until they act with
        :meth:`act_now`; the turn passes to the next one able to act."""
        if self.current is None:
            raise combat_error("not_started", "The combat has not started.", "Бой ещё не начался.")
        idx = self.order.index(self.current)
        nxt, wrapped = self.find_able(idx, +1, exclude=self.current)
        if nxt is None:
            raise combat_error(
                "nobody_else",
                "Nobody else can act: there is no one to delay for.",
                "Больше никто не может действовать: откладывать ход не для кого.",
            )
        event = {"type": "delay", "id": self.current, "to": nxt, "round": self.round + (1 if wrapped else 0)}
        twins: dict = {}
        effects = expiry_effects(self, twins, event) + turn_effect(self, twins, nxt, "start")
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def act_now(self, cid: str) -> dict:
        """A delaying combatant acts now: the current turn ends and ``cid`` takes the place
        right after it in the order (their new initiative) and starts their turn."""
        self.require(cid)
        if not self.entry(cid)["delayed"]:
            raise combat_error(
                "not_delayed", f"{self.name(cid)} is not delaying.", f"{self.name(cid)} не откладывает ход."
            )
        if self.current is None:
            raise combat_error("not_started", "The combat has not started.", "Бой ещё не начался.")
        order = [i for i in self.order if i != cid]
        order.insert(order.index(self.current) + 1, cid)
        event = {"type": "act_now", "id": cid, "from": self.current, "order": order}
        twins: dict = {}
        effects = turn_effect(self, twins, self.current, "end")
        effects += expiry_effects(self, twins, event)
        effects += turn_effect(self, twins, cid, "start")  # not again when the delayed turn had started
        if effects:
            event["effects"] = effects
        return self.apply(event)

    def end(self) -> dict:
        """End the combat: round 0, no current turn (combatants and their state stay)."""
        if not self.started:
            raise combat_error("not_started", "The combat has not started.", "Бой ещё не начался.")
        return self.apply({"type": "end"})

    def damage(self, cid: str, amount: int, **options: Any) -> dict:
        """Damage through ``system.apply_damage`` (options from ``system.damage_options``)."""
        return self.apply(harm_event(self, "damage", cid, amount, options))

    def heal(self, cid: str, amount: int, **options: Any) -> dict:
        """Healing through ``system.apply_healing`` (options from ``system.healing_options``)."""
        return self.apply(harm_event(self, "heal", cid, amount, options))

    def attack(self, attacker_id: str, target_id: str, attack_id: str, **options: Any) -> dict:
        """``attacker_id`` makes the attack ``attack_id`` (one of ``system.attacks(attacker,
        target)``) on ``target_id``: resolved with this combat's dice (``rng``), applied by the
        system's rules (``system.apply_attack``: effects on both sides, then the damage) and
        recorded as one ``"attack"`` event, undoable like every other. ``options`` are the
        attack's own (checked against its ``OptionSpec``s)."""
        return self.attack_with(self.rng, attacker_id, target_id, attack_id, **options)

    def attack_with(self, rng: random.Random, attacker_id: str, target_id: str, attack_id: str, **options: Any) -> dict:
        """:meth:`attack` with the dice from ``rng`` (a table's fair stream for this roll)."""
        return self.apply(attack_event(self, rng, attacker_id, target_id, attack_id, options))

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
        event = {"type": "add_condition", **new_condition(self, cid, condition, duration, ticks_on, data)}
        data = event.get("data") or {}
        entry = condition_effect(self, {}, cid, condition, True, data, uid=event["uid"])
        if entry:
            event["effects"] = [entry]
        return self.apply(event)

    def remove_condition(self, cid: str, uid: int) -> dict:
        self.require(cid)
        inst = next((c for c in self.conditions(cid, include_expired=True) if c["uid"] == uid), None)
        if inst is None:
            raise combat_error(
                "no_condition", "No such condition on this combatant.", "У участника нет такого состояния."
            )
        event = {"type": "remove_condition", "id": cid, "uid": uid}
        if inst["active"]:  # one that ran out was already reported as inactive
            entry = condition_effect(self, {}, cid, inst["id"], False, inst.get("data") or {}, uid=uid)
            if entry:
                event["effects"] = [entry]
        return self.apply(event)

    def set_defeated(self, cid: str, value: bool | None) -> dict:
        """Mark ``cid`` defeated (True) or not (False) by the GM; None follows the rules again."""
        self.require(cid)
        return self.apply({"type": "set_defeated", "id": cid, "value": None if value is None else bool(value)})

    def set_hidden(self, cid: str, value: bool) -> dict:
        self.require(cid)
        return self.apply({"type": "set_hidden", "id": cid, "value": bool(value)})

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
