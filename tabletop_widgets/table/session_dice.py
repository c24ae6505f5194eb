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
from .kinds import BLIND_DICE, BLIND_ROLL, CHARACTER_UPDATE, CHECK, ROLL, ROLL_FAILED, ROLL_REVEAL, is_kind
from .kinds.blind import blind_entry, dice_entry
from .kinds.dice import check_json
from .rolling import DrawWatch, failed_payload, failed_roll_error, roll_guarded, roll_payload, used_variables
from .rules import PlayError, check_options, check_text
from .store import AUDIENCE_GM, Event, NewEvent, WriteTx

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
        blind: bool = False,
        hide_notation: bool = False,
        variables=None,
        label: str | None = None,
        locale: str = "en",
    ) -> Event:
        """Roll a dice expression, a named check (:func:`check`) or a roll table with the table's fair dice
        (stream = the next roll index) and append the outcome. ``hidden``: only the GM (and the
        roller) see it. Returns the stored event (``event.payload["result"]``).

        ``blind`` (an expression only): every seat that would see the roll sees that it was made,
        by whom and of what, and only the GM sees its result (:mod:`.kinds.blind`), until
        :meth:`reveal`; the event returned is the ``roll.blind`` one (no result: its ``seq`` is
        what :meth:`reveal` takes). ``hide_notation`` (the GM's blind rolls only): the other seats
        do not see what was rolled either, only that the GM rolled blind."""
        _check_blind(self.role, isinstance(what, CheckRequest), blind, hide_notation)
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
        if blind:  # its reveal publishes the numbers it used, no other trait
            variables = used_variables(what, variables)
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
                return [ROLL_FAILED.new_json(self.actor, payload, AUDIENCE_GM if hide_notation else audience)]
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
            if blind:  # the dice for the GM first (a page folding in order finds them), then the fact
                seen = {"expr": None, "label": None} if hide_notation else {"expr": what, "label": label}
                public = BLIND_ROLL.new(
                    self.actor, audience, index=index, notation_hidden=hide_notation, hidden=hidden, **seen
                )
                return [BLIND_DICE.new_json(self.actor, payload, BLIND_DICE.audience_for()), public]
            return [ROLL.new_json(self.actor, payload, audience)]

        stored = self.transact(make)
        if failed:
            raise failed_roll_error(failed[0], errors[0])
        return stored[-1]  # a blind roll's: the public event (the dice are the GM's)

    def reveal(self, seq: int) -> Event:
        """GM: show the result of the blind roll whose ``roll.blind`` event is ``seq`` to every seat
        that saw it made (a ``roll.reveal`` event with its roll index, expression, variables and
        dice, so that any seat checks it once the session's dice key is revealed). Refused (and
        nothing written) for a player, a seq that is not a blind roll, or one revealed already.
        Returns the ``roll.reveal`` event."""
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise EventError(f"reveal takes the blind roll's seq (a number), not {seq!r}")
        self.begin_action(ROLL_REVEAL.action)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require(ROLL_REVEAL.action)
            entry = blind_entry(self.state, seq)
            if entry is None:
                raise _not_blind(seq, any(e.get("seq") == seq for e in self.state.log))
            if entry.get("revealed"):
                raise PlayError(
                    "reveal_again",
                    {
                        "en": f"Blind roll {seq} is already revealed.",
                        "ru": f"Бросок вслепую {seq} уже раскрыт.",
                    },
                )
            dice = dice_entry(self.state, entry.get("index"))
            if dice is None:
                raise _not_blind(seq, True)
            p = BLIND_DICE.read(dice)
            return [
                ROLL_REVEAL.new(
                    self.actor,
                    entry.get("audience") or "all",
                    blind_seq=seq,
                    index=p.index,
                    expr=p.expr,
                    variables=p.variables,
                    label=p.label,
                    result=p.result,
                    text=p.text,
                    texts=p.texts,
                    roller=str(entry.get("actor") or ""),
                )
            ]

        return self.transact(make)[0]

    def check(
        self,
        check_id: str,
        character_id: str | None = None,
        hidden: bool = False,
        *,
        locale: str = "en",
        **options: Any,
    ) -> Event:
        """Roll the named check ``check_id`` of ``character_id`` (default: this seat's
        character) with the table's fair dice: ``table.check("attention")`` is
        ``table.roll(check("attention"))``. ``options`` are the system's check options."""
        return self.roll(check(check_id, character_id, **options), hidden, locale=locale)

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


def _not_blind(seq: int, known: bool) -> PlayError:
    """The refusal of :meth:`DiceActions.reveal` for a seq that is not a blind roll here."""
    if known:
        return PlayError(
            "reveal_not_blind",
            {
                "en": f"Event {seq} is not a blind roll: only a blind roll's result can be revealed.",
                "ru": f"Событие {seq} — не бросок вслепую: раскрыть можно только бросок вслепую.",
            },
        )
    return PlayError(
        "reveal_unknown",
        {
            "en": f"There is no blind roll {seq} at this table (or it is too old for the table's log).",
            "ru": f"Броска вслепую {seq} за этим столом нет (или он слишком давний для журнала стола).",
        },
    )


def _check_blind(role: str, is_check: bool, blind: Any, hide_notation: Any) -> None:
    """:meth:`DiceActions.roll`'s refusals of a blind roll asked for wrongly (nothing written)."""
    if not isinstance(blind, bool) or not isinstance(hide_notation, bool):
        raise EventError("blind and hide_notation are True or False")
    if is_check:
        if blind:
            raise PlayError(
                "blind_check",
                {
                    "en": "A named check cannot be rolled blind (what it changes would tell its result): "
                    "type its dice in the box and roll those blind.",
                    "ru": "Проверку нельзя бросить вслепую (её последствия выдали бы результат): "
                    "наберите её кубики в поле броска и бросьте их вслепую.",
                },
            )
    if hide_notation and not blind:
        raise PlayError(
            "hide_notation_not_blind",
            {
                "en": "Only a blind roll can hide what was rolled.",
                "ru": "Скрыть, что брошено, можно только при броске вслепую.",
            },
        )
    if hide_notation and role != "gm":
        raise PlayError(
            "hide_notation_gm_only",
            {
                "en": "Only the GM hides what a blind roll rolls: everyone sees what you rolled blind.",
                "ru": "Скрыть, что брошено вслепую, может только ведущий: все видят, что вы бросили.",
            },
        )
