"""The combat seat actions of a shared table: the tracker's state, initiative rolled with the
table's fair dice, attacks rolled with them, and a seat's attack requests (asked, declared,
answered: see :mod:`.attacks` and :mod:`.requests`).

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .attacks import answer_request, ask_request, declare_request, questions
from .campaign import session_ended_denial
from .events import EventError, jsonable
from .fairdice import rng_for
from .kinds import COMBAT_STATE, INITIATIVE, Kind, kind as event_kind
from .kinds.combat import initiative_json, initiative_text
from .rolling import DrawWatch
from .store import AUDIENCE_ALL, AUDIENCE_GM, Event, NewEvent, Request, WriteTx, audience_ok

__all__ = ["CombatActions", "initiative_json", "initiative_text"]


class CombatActions:
    """The tracker's ``combat.state``, initiative and attacks."""

    @property
    def combat(self):
        """The GM's fight as the tracker runs it, for a notebook (``table.combat.next_turn()``,
        ``.attack(...)``, ``.damage(...)``): a :class:`~.combat_sync.TableCombat` whose actions
        write to the table as the tracker's do (the table's fair dice, the defender's seat
        asked). Kept in step with the log: each read takes in what other writers did (the
        GM's Voila page, the resolver). GM only: a player's page shows the fight."""
        self.require("combat")
        sync = self.__dict__.get("_desk_sync")
        if sync is None:
            from .combat_sync import CombatSync

            sync = self._desk_sync = CombatSync(self)
            self.on_events(sync.follow)
        self.poll()
        return sync.combat

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
        audience = INITIATIVE.audience_for(self.state, list(values), hidden)
        secret = audience == AUDIENCE_GM

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
            out = [
                INITIATIVE.new(
                    self.actor,
                    audience,
                    index=index,
                    system=system.slug,
                    ids=list(values),
                    characters=values,
                    options=opts,
                    hidden=bool(secret),
                    result=outcome,
                    text=initiative_text(outcome, names, locale),
                    texts={loc: initiative_text(outcome, names, loc) for loc in ("en", "ru")},
                )
            ]
            if combat is not None:
                states = combat(rng_for(tx.secret_seed(), index), outcome)
                if states is not None:
                    full, public = states
                    out += self._combat_events(full, public)
            return out

        return self.transact(make)

    # -- attacks (see :mod:`.attacks`): requests, answered on the server --------------------------
    def ask_attack(self, attacker_id: str, target_id: str, attack_id: str | None = None, options=None) -> Request:
        """Ask the table which attacks ``attacker_id`` can make on ``target_id`` and, for
        ``attack_id`` with ``options``, the exact odds: an ``odds`` request, answered by the
        resolver (:meth:`offer`). A player asks for their own character only, about a target their
        seat sees."""
        return self._request("attack", lambda: ask_request(self, attacker_id, target_id, attack_id, options))

    def declare_attack(self, attacker_id: str, target_id: str, attack_id: str, options=None) -> Request:
        """Make an attack: a player with their own character on its turn, on a target their seat
        sees; one at a time (an ``attack`` request: the resolver checks it again, asks the
        defender when the attack has defender options, and rolls it with the table's fair dice)."""
        return self._request("attack", lambda: declare_request(self, attacker_id, target_id, attack_id, options))

    def answer_attack(self, request: str, options=None) -> Request:
        """The defender's choices for a pending attack (``request``: a question's, from
        :meth:`questions`): from the seat asked, or the GM (for an absent player or an NPC)."""

        def make():
            found = [r for r in self.requests if r.id == request] if isinstance(request, str) else []
            return answer_request(self, found[0] if found else None, options)

        return self._request(
            "attack", make, again=lambda tx: answer_request(self, self._request_in(tx, request), options)
        )

    def questions(self) -> list[dict[str, Any]]:
        """The defender's questions this seat may answer now, each a dict with a ``"request"`` key
        to pass to :meth:`answer_attack` (a GM: every open one; a player: those asked of it)."""
        return questions(self.requests, self.role, self.seat)

    def offer(self, attacker_id: str, target_id: str, attack_id: str | None = None, options=None) -> dict | None:
        """The table's answer to this seat's ``odds`` request for this (the attacks offered and
        the odds), or None while none is answered (:meth:`ask_attack` asks)."""
        from .attacks import offer_for

        return offer_for(self.requests, attacker_id, target_id, attack_id, options or {})

    def dismiss(self, request: str) -> None:
        """This seat has read a refusal (or an answer): the request goes."""
        from .requests import ANSWERED, REFUSED

        def make(tx: WriteTx) -> list[NewEvent]:
            for r in tx.requests(ids=[request]):
                if r.seat == self.seat and r.state in (ANSWERED, REFUSED):
                    tx.delete_request(r.id)
            return []

        if any(r.id == request for r in self.requests):
            self.transact(make)

    def _request_in(self, tx: WriteTx, request: Any) -> Request | None:
        found = tx.requests(ids=[request]) if isinstance(request, str) else []
        return found[0] if found and self.reader.sees(found[0].audience) else None

    def _request(self, action: str, make: Callable[[], Request], *, again=None) -> Request:
        """A seat's request: checked on the state as this seat has it (refused before the lock),
        then again under the table's lock, and put in the request table."""
        self.begin_action(action)
        if not self.state.session_open:
            raise session_ended_denial(self, action)
        made: list[Request] = [make()]

        def build(tx: WriteTx) -> list[NewEvent]:
            self.require(action)
            if again is not None:
                made[0] = again(tx)
            tx.put_request(made[0])
            return []

        self.transact(build)
        return made[0]

    def write_requests(self, make: Callable[[WriteTx], Sequence[NewEvent]]) -> list[Event]:
        """GM (the resolver's desk): request changes without dice (offers, questions, refusals):
        ``make(tx)`` runs under the table's lock on the caught-up state, changes the requests it
        finds still as it expects, and returns the events to append (none, mostly)."""
        self.begin_action("combat")

        def build(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            return list(make(tx))

        return self.transact(build)

    def roll_attack(
        self,
        roll: Callable[[Callable[[], Any], int], "tuple | None"],
        *,
        kind: "Kind | str" = "attack",
        in_tx: Callable[[WriteTx], bool] | None = None,
    ) -> list[Event]:
        """GM: a tracker action rolled with the table's fair dice (an ``attack``, or a ``turn``'s
        start/end effects). Inside the write transaction ``roll(stream, index)`` gets the next
        roll index and ``stream()``, a fresh stream of it each call (``rng_for(seed, index)``
        noting whether anything was drawn), and returns None (nothing to write) or ``(payload,
        audience, full_state, public_state, public_changed)``: the ``kind`` event (None: no dice
        were drawn, no index used) and who reads it, and the tracker's ``combat.state`` events as
        :meth:`set_combat` writes them. ``in_tx(tx)``, when given, runs first under the lock: it
        removes the requests the roll answers, and returns False when they were answered
        elsewhere meanwhile (nothing is written). An exception aborts the whole write."""
        spec = kind if isinstance(kind, Kind) else event_kind(kind)
        if spec.tracker not in ("attack", "turn"):
            raise ValueError(f"roll_attack writes attack or turn events, not {spec.name!r}")
        self.begin_action("combat")
        if not self.state.session_open:
            raise session_ended_denial(self, "combat")

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("combat")
            if in_tx is not None and not in_tx(tx):
                return []
            index = tx.next_roll
            seed = tx.secret_seed()
            got = roll(lambda: DrawWatch(seed, index), index)
            if got is None:
                return []
            payload, audience, full, public, changed = got
            out = []
            if payload is not None:
                if not audience_ok(audience):
                    raise EventError(f"bad audience {audience!r}")
                out.append(spec.new_json(self.actor, payload, audience))
            events = self._combat_events(full, public)
            out += events if changed else [e for e in events if e.audience == AUDIENCE_GM]
            return out

        return self.transact(make)

    def _combat_events(self, state: Mapping[str, Any], public: Mapping[str, Any] | None) -> list[NewEvent]:
        full = COMBAT_STATE.new(self.actor, AUDIENCE_ALL, state=jsonable(dict(state)))
        if public is None:
            return [full]
        # public first: GM's view applies both and ends on the full state
        return [
            COMBAT_STATE.new(self.actor, AUDIENCE_ALL, state=jsonable(dict(public))),
            COMBAT_STATE.new(self.actor, AUDIENCE_GM, state=jsonable(dict(state))),
        ]
