"""The combat seat actions of a shared table: the tracker's state, initiative rolled with the
table's fair dice, and attacks (asked, declared, answered, rolled; see :mod:`.attacks`).

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .attacks import answer_events, ask_events, declare_events
from .campaign import session_ended_denial
from .events import EventError, jsonable, validate
from .fairdice import rng_for
from .rolling import DrawWatch
from .store import AUDIENCE_ALL, AUDIENCE_GM, Event, NewEvent, WriteTx, audience_ok


def initiative_json(result) -> dict[str, Any]:
    """A system's ``InitiativeOrder`` as JSON (deterministic: ``verify`` re-rolls and compares):
    the system's order, each combatant's key, text, roll, rounds sat out and effects, and the
    tie-break notes."""
    rolls = {}
    for cid, r in result.rolls.items():
        rolls[str(cid)] = {
            "key": jsonable(r.key),
            "text": jsonable(dict(r.text) if isinstance(r.text, Mapping) else r.text),
            "roll": jsonable(r.roll),
            "skip_rounds": int(getattr(r, "skip_rounds", 0) or 0),
            "effects": [
                {"trait": e.trait, "delta": e.delta, "reason": jsonable(getattr(e, "reason", None))}
                for e in (getattr(r, "effects", ()) or ())
            ],
        }
    return jsonable({"order": [str(c) for c in result.order], "rolls": rolls, "tiebreaks": list(result.tiebreaks)})


def initiative_text(outcome: Mapping[str, Any], names: Mapping[str, str] | None = None, locale: str = "en") -> str:
    """One line for the log: ``Initiative: Aria 14, Goblin 9``."""
    names = names or {}
    parts = []
    for cid in outcome.get("order", []):
        r = (outcome.get("rolls") or {}).get(cid) or {}
        text = r.get("text")
        if isinstance(text, Mapping):
            text = text.get(locale) or text.get("en") or ""
        parts.append(f"{names.get(cid, cid)} {text}".strip())
    head = "Инициатива" if locale == "ru" else "Initiative"
    return f"{head}: " + ", ".join(parts)


class CombatActions:
    """The tracker's ``combat.state``, initiative and attacks."""

    def set_combat(
        self, state: Mapping[str, Any], public: Mapping[str, Any] | None = None, *, public_changed: bool = True
    ) -> list[Event]:
        """The combat tracker after a GM action. With ``public`` (the audience projection:
        no hidden combatants, no sheets...), players get only that; the GM's view gets
        ``state``. ``public_changed=False``: the action changed nothing players see (a hidden
        combatant's turn), so nothing goes to them at all."""
        self.begin_action("combat")
        if public is None and not public_changed:
            raise ValueError("public_changed=False needs the public projection")
        events = self._combat_events(state, public)
        if not public_changed:
            events = [e for e in events if e.audience == AUDIENCE_GM]

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            return events

        return self.transact(make)

    def roll_initiative(
        self,
        characters: Mapping[str, Mapping[str, Any]],
        *,
        options: Mapping[str, Any] | None = None,
        hidden: bool = False,
        combat: Callable[[Any, dict[str, Any]], "tuple[Mapping, Mapping | None] | None"] | None = None,
        names: Mapping[str, str] | None = None,
        locale: str = "en",
    ) -> list[Event]:
        """GM: roll initiative with the table's fair dice and record the outcome.

        ``characters``: ``{combatant_id: sheet values}`` (``Character.to_dict()``) of those who
        roll, in the order given to the system. Inside the write transaction the session takes
        the next roll index ``i``, calls ``system.roll_initiative`` with ``rng_for(seed, i)`` on
        characters rebuilt from those values, and appends an ``initiative`` event (index, ids,
        values, options and the outcome: order, keys, texts, tie-breaks), which ``verify``
        re-rolls and checks.

        ``combat(rng, outcome)``, when given, runs in the same transaction with a fresh
        ``rng_for(seed, i)`` (the same stream) and the recorded outcome: the tracker rolls its
        own Combat with it and returns ``(full_state, public_state)`` for ``combat.state``
        events appended in the same transaction (as :meth:`set_combat` writes them), or
        ``None``. An exception there aborts the whole write.

        ``hidden`` (or any GM-only character among ``characters``): only GM seats get the
        ``initiative`` event. Returns the stored events (the ``initiative`` event first)."""
        self.begin_action("combat")
        if not self.state.session_open:
            raise session_ended_denial(self, "combat")
        if not characters:
            raise EventError("nobody to roll initiative for")
        system = self.system
        values = {str(cid): jsonable(dict(v)) for cid, v in characters.items()}
        opts = jsonable(dict(options or {}))
        secret = hidden or any(
            self.character_audience(cid) == AUDIENCE_GM or self.has_hidden_changes(cid) for cid in values
        )
        audience = AUDIENCE_GM if secret else AUDIENCE_ALL

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            if not self.state.session_open:
                raise session_ended_denial(self, "combat")
            index = tx.next_roll
            models = {cid: system.Character.from_dict(v) for cid, v in values.items()}
            result = system.roll_initiative(models, rng=rng_for(tx.secret_seed(), index), **opts)
            outcome = initiative_json(result)
            if sorted(outcome["order"]) != sorted(values):
                raise EventError("the system's initiative order does not match the combatants")
            payload = validate(
                "initiative",
                {
                    "index": index,
                    "system": system.slug,
                    "ids": list(values),
                    "characters": values,
                    "options": opts,
                    "hidden": bool(secret),
                    "result": outcome,
                    "text": initiative_text(outcome, names, locale),
                },
            )
            out = [NewEvent("initiative", self.seat, payload, audience, roll=index)]
            if combat is not None:
                states = combat(rng_for(tx.secret_seed(), index), outcome)
                if states is not None:
                    full, public = states
                    out += self._combat_events(full, public)
            return out

        return self.transact(make)

    # -- attacks (see :mod:`.attacks`) ----------------------------------------------------------
    def ask_attack(self, attacker_id: str, target_id: str, attack_id: str | None = None, options=None) -> Event:
        """Ask the GM's kernel which attacks ``attacker_id`` can make on ``target_id`` and, for
        ``attack_id`` with ``options``, the exact odds (answered by an ``attack.offer`` to this
        seat: :func:`.attacks.offer_for`). A player asks for their own character only, about a
        target their seat sees."""
        return self._attack_write("attack", lambda: ask_events(self, attacker_id, target_id, attack_id, options))[0]

    def declare_attack(self, attacker_id: str, target_id: str, attack_id: str, options=None) -> Event:
        """Make an attack: a player with their own character on its turn, on a target their seat
        sees (the GM's kernel checks it again, asks the defender when the attack has defender
        options, and rolls it with the table's fair dice)."""
        return self._attack_write("attack", lambda: declare_events(self, attacker_id, target_id, attack_id, options))[0]

    def answer_attack(self, request: str, options=None) -> Event:
        """The defender's choices for a pending attack: from the seat asked, or the GM (for an
        absent player or an NPC)."""
        return self._attack_write("attack", lambda: answer_events(self, request, options))[0]

    def write_attack_events(self, make: Callable[[], Sequence[tuple[str, Mapping[str, Any], str]]]) -> list[Event]:
        """GM: the attack desk's events without dice (offers, questions, refusals): ``make()``
        runs under the table's lock on the caught-up state and returns ``(kind, payload,
        audience)`` triples (none: nothing is written)."""
        return self._attack_write("combat", make)

    def _attack_write(self, action: str, make: Callable[[], Sequence[tuple]]) -> list[Event]:
        self.begin_action(action)
        if action == "attack" and not self.state.session_open:
            raise session_ended_denial(self, action)
        make()  # the checks on the state as this seat has it: refuse before taking the lock

        def build(tx: WriteTx) -> list[NewEvent]:
            self.require(action)
            out = []
            for kind, payload, audience in make():
                if not audience_ok(audience):
                    raise EventError(f"bad audience {audience!r}")
                out.append(NewEvent(kind, self.seat, validate(kind, payload), audience))
            return out

        return self.transact(build)

    def roll_attack(
        self, roll: Callable[[Callable[[], Any], int], "tuple | None"], *, kind: str = "attack"
    ) -> list[Event]:
        """GM: a tracker action rolled with the table's fair dice (an ``attack``, or a ``turn``'s
        start/end effects). Inside the write transaction ``roll(stream, index)`` gets the next
        roll index and ``stream()``, a fresh stream of it each call (``rng_for(seed, index)``
        noting whether anything was drawn), and returns None (nothing to write) or ``(payload,
        hidden, full_state, public_state, public_changed, more)``: the ``kind`` event (None:
        no dice were drawn, no index used), the tracker's ``combat.state`` events as
        :meth:`set_combat` writes them, and further ``(kind, payload, audience)`` triples. An
        exception aborts the whole write."""
        if kind not in ("attack", "turn"):
            raise ValueError(f"roll_attack writes attack or turn events, not {kind!r}")
        self.begin_action("combat")
        if not self.state.session_open:
            raise session_ended_denial(self, "combat")

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            index = tx.next_roll
            seed = tx.secret_seed()
            got = roll(lambda: DrawWatch(seed, index), index)
            if got is None:
                return []
            payload, hidden, full, public, changed, more = got
            out = []
            if payload is not None:
                data = validate(kind, payload)
                out.append(NewEvent(kind, self.seat, data, AUDIENCE_GM if hidden else AUDIENCE_ALL, roll=index))
            events = self._combat_events(full, public)
            out += events if changed else [e for e in events if e.audience == AUDIENCE_GM]
            for k, p, audience in more:
                if not audience_ok(audience):
                    raise EventError(f"bad audience {audience!r}")
                out.append(NewEvent(k, self.seat, validate(k, p), audience))
            return out

        return self.transact(make)

    def _combat_events(self, state: Mapping[str, Any], public: Mapping[str, Any] | None) -> list[NewEvent]:
        full = validate("combat.state", {"state": jsonable(dict(state))})
        if public is None:
            return [NewEvent("combat.state", self.seat, full, AUDIENCE_ALL)]
        pub = validate("combat.state", {"state": jsonable(dict(public))})
        # public first: GM's view applies both and ends on the full state
        return [
            NewEvent("combat.state", self.seat, pub, AUDIENCE_ALL),
            NewEvent("combat.state", self.seat, full, AUDIENCE_GM),
        ]
