"""The dice seat actions of a shared table: a dice expression or a named check rolled with the
table's fair dice (:meth:`roll`), and a check changed after the roll (:meth:`after_roll`).

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from ..core.i18n import LOCALES
from .after_roll import after_roll_events
from .events import EventError, jsonable
from .kinds import CHARACTER_UPDATE, CHECK, ROLL, ROLL_FAILED, is_kind
from .kinds.dice import check_json
from .rolling import DrawWatch, failed_payload, failed_roll_error, roll_guarded, roll_payload
from .rules import PlayError, check_options, check_text
from .store import Event, NewEvent, WriteTx

if TYPE_CHECKING:  # pragma: no cover
    from ..dice.tables import RollTable


@dataclass(frozen=True)
class CheckRequest:
    """A named check of the table's system: ``check("mind", "c1", difficulty=3)``."""

    check_id: str
    character_id: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def check(check_id: str, character_id: str | None = None, **options: Any) -> CheckRequest:
    return CheckRequest(check_id, character_id, options)


class DiceActions:
    """:meth:`roll` (an expression or a :func:`check`) and :meth:`after_roll`."""

    # -- dice ----------------------------------------------------------------------------------
    def roll(
        self,
        what: "str | CheckRequest | RollTable",
        hidden: bool = False,
        *,
        variables=None,
        label: str | None = None,
        locale: str = "en",
    ) -> Event:
        """Roll a dice expression, a named check (:func:`check`) or a roll table with the table's fair dice
        (stream = the next roll index) and append the outcome. ``hidden``: only the GM (and the
        roller) see it. Returns the stored event (``event.payload["result"]``)."""
        if isinstance(what, CheckRequest):
            return self._roll_check(what, hidden, locale)
        from ..dice.tables import RollTable

        if isinstance(what, RollTable):  # a roll table (:mod:`.session_tables`)
            return self.roll_table(what, hidden, locale)
        if not isinstance(what, str) or not what.strip():
            raise PlayError(
                "no_expression",
                {
                    "en": "Type a dice expression to roll (e.g. 2d6+1).",
                    "ru": "Введите выражение броска (например, 2d6+1).",
                },
            )
        check_text("expression", what)
        check_text("label", label)
        self.begin_action("roll.hidden" if hidden else "roll")
        audience = ROLL.audience_for(self.role, self.seat, hidden)
        from ..dice import roll as dice_roll

        variables = dict(variables) if variables else None
        failed: list[int] = []
        errors: list[BaseException] = []

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("roll.hidden" if hidden else "roll")
            index = tx.next_roll
            rng = DrawWatch(tx.secret_seed(), index)
            result, error = roll_guarded(rng, lambda r: dice_roll(what, rng=r, variables=variables, locale=locale))
            if error is not None:  # the dice are drawn: the index is spent, and recorded
                failed.append(index)
                errors.append(error)
                payload = failed_payload(
                    index, what="roll", hidden=hidden, error=error, expr=what, variables=variables, label=label
                )
                return [ROLL_FAILED.new_json(self.actor, payload, audience)]
            # a big roll is stored packed, with a bounded summary text (issue 21)
            payload = roll_payload(
                index,
                what,
                variables=variables,
                label=label,
                hidden=hidden,
                result=result,
                locale=locale,
            )
            return [ROLL.new_json(self.actor, payload, audience)]

        stored = self.transact(make)
        if failed:
            raise failed_roll_error(failed[0], errors[0])
        return stored[0]

    def _roll_check(self, req: CheckRequest, hidden: bool, locale: str) -> Event:
        cid = req.character_id or self.character_id
        if cid is None:
            raise EventError("which character? pass check(check_id, character_id)")
        self.require("roll.hidden" if hidden else "roll")
        self.begin_action("check", cid)
        audience = CHECK.audience_for(self.state, self.role, self.seat, cid, hidden)
        options = jsonable(dict(req.options))
        failed: list[int] = []

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("check", cid)
            data, model = self._checked_model(req, cid, options)
            index = tx.next_roll
            rng = DrawWatch(tx.secret_seed(), index)
            result, error = roll_guarded(rng, lambda r: self.system.roll_check(model, req.check_id, rng=r, **options))
            if error is not None:  # the dice are drawn: the index is spent, and recorded
                failed.append(index)
                return [self._failed_check_event(req, cid, data, options, index, hidden, error, audience)]
            return self._check_events(req, cid, data, model, options, index, hidden, result, locale, audience)

        stored = self.transact(make)
        if failed:
            raise failed_roll_error(failed[0])
        return stored[0]

    def _checked_model(self, req: CheckRequest, cid: str, options: Mapping[str, Any]):
        """The character as the table holds it (its values and model), with ``options`` checked
        as the check declares them for it (bounds that follow the character, e.g. declared
        Luck <= Luck held, included)."""
        data = self.state.characters.get(cid)
        if data is None:
            raise EventError(f"no character {cid!r} at this table (or not visible to this seat)")
        system = self.system
        model = system.Character.from_dict(data)
        check_options(system.check(model, req.check_id), options, role=self.role, system=system)
        return data, model

    def _failed_check_event(self, req, cid, data, options, index, hidden, error, audience) -> NewEvent:
        payload = failed_payload(
            index,
            what="check",
            hidden=hidden,
            error=error,
            check_id=req.check_id,
            character_id=cid,
            character=jsonable(data),
            options=options,
        )
        return ROLL_FAILED.new_json(self.actor, payload, audience)

    def _check_events(self, req, cid, data, model, options, index, hidden, result, locale, audience) -> list[NewEvent]:
        """The ``check`` event, and a ``character.update`` with the check's effects applied."""
        system = self.system
        payload = {
            "index": index,
            "system": system.slug,
            "check_id": req.check_id,
            "character_id": cid,
            "character": jsonable(data),
            "options": options,
            "hidden": hidden,
            "result": check_json(result),
            "text": result.text(locale),
            "texts": {loc: result.breakdown(loc) for loc in LOCALES},
        }
        out = [CHECK.new_json(self.actor, payload, audience)]
        changes = system.apply_effects(model, result.effects) if result.effects else None
        if changes:
            out.append(
                CHARACTER_UPDATE.new(
                    self.actor,
                    audience,
                    character_id=cid,
                    changes=jsonable({k: v[1] for k, v in changes.items()}),
                    reason={"check": req.check_id, "index": index},
                )
            )
        return out

    def after_roll(self, index: int, *, locale: str = "en", **options: Any) -> Event:
        """Change this seat's latest check (roll ``index``) as the rules allow after the roll
        (``GameSystem.after_roll``: Life&Death's epic dice spent after it), once: recomputed
        from the roll as the table recorded it, written as a ``check.after`` event that every
        seat that saw the check sees, with the effects as a ``character.update``. A refusal
        (someone else's roll, an old one, nothing offered, bad options) writes nothing
        (:mod:`.after_roll`). Returns the ``check.after`` event."""
        entry = next((e for e in reversed(self.state.log) if is_kind(e, CHECK) and e.get("index") == index), None)
        cid = (entry or {}).get("character_id") or self.character_id
        self.begin_action("check", cid)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("check", cid)
            return after_roll_events(self, tx, index, options, locale)

        return self.transact(make)[0]
