"""What a seat records by hand at a shared table: outcomes of a free kind (:meth:`record`),
characters (set, update, finish, advance, award), GM notes and messages.

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from typing import Any, Mapping

from .advancement import advance_update, award_update, check_award_role, check_character_write
from .after_roll import KIND as AFTER_ROLL_KIND
from .attacks import ATTACK_KINDS
from .events import EventError, jsonable, kind as event_kind, validate
from .phases import check_phase_edit, check_players_make, finish_changes
from .rules import check_character_texts, check_gm_fields, check_text
from .seats import PermissionDenied, table_option
from .store import AUDIENCE_ALL, AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, Event, NewEvent, WriteTx, audience_ok
from ..core.problems import RuleError

#: kinds that only dedicated methods write (their content must come from the fair dice or the table)
RESERVED_KINDS = frozenset(
    {"roll", "roll.failed", "check", "initiative", "table.opened", "table.closed", "session.started", "session.ended"}
    | ATTACK_KINDS
    | {AFTER_ROLL_KIND}
)


class RecordActions:
    """:meth:`record` and the writes built on it: characters, notes, messages."""

    def record(self, kind: str, payload: Mapping[str, Any], *, audience: str = AUDIENCE_ALL) -> Event:
        """Append an outcome of kind ``kind`` (role-checked, payload validated). Rolls, checks
        and opening/closing have their own methods."""
        if kind in RESERVED_KINDS:
            raise PermissionDenied(kind, self.role, f"use the session's own method for {kind!r}")
        spec = event_kind(kind)
        if spec.action is None:
            raise PermissionDenied(kind, self.role, "written by the table itself")
        data = validate(kind, payload)
        character_id = data.get("character_id") if kind.startswith("character.") else None
        self.require(spec.action, character_id)
        self._check_audience(audience)
        self._check_texts(kind, data)
        self.rate_limit.take()

        def make(tx: WriteTx) -> list[NewEvent]:
            if kind.startswith("character.") and character_id not in self.state.characters:
                self.require("character.create")
            self.require(spec.action, character_id)
            if (
                kind == "character.update"
                and audience != AUDIENCE_GM
                and self.character_audience(character_id) == AUDIENCE_GM
            ):
                raise EventError(
                    f"character {character_id!r} is GM-only: reveal it with "
                    "set_character(..., hidden=False) before public updates"
                )
            if kind.startswith("character."):
                self._validate_character(character_id, data)
            return [NewEvent(kind, self.seat, data, audience)]

        return self.transact(make)[-1]

    @staticmethod
    def _check_texts(kind: str, data: Mapping[str, Any]) -> None:
        if kind == "message":
            check_text("message", data.get("text"))
        elif kind == "note":
            check_text("note", data.get("text"))
            check_text("title", data.get("title"))
        elif kind == "character.set":
            check_character_texts(data["data"])
        elif kind == "character.update":
            check_character_texts(data["changes"])

    def _check_audience(self, audience: str) -> None:
        if not audience_ok(audience):
            raise EventError(f"bad audience {audience!r}")
        if self.role != "gm" and audience not in (AUDIENCE_ALL, SEAT_AUDIENCE_PREFIX + self.seat):
            raise PermissionDenied("audience", self.role, f"cannot address {audience!r}")

    def _validate_character(self, character_id: str, data: Mapping[str, Any]) -> None:
        before = self.state.characters.get(character_id, {})
        if "data" in data:
            merged = dict(data["data"])
        else:
            merged = {**before, **data["changes"]}
        # a character in creation: a player's only when the GM lets players make their own
        check_players_make(self.system, self.role, before, table_option(self, "players_build"))
        # the sheet's GM fields: a player changes none of them, on any path
        if "data" in data:
            check_gm_fields(self.system, self.role, before, data["data"], replace=True)
            check_phase_edit(self.system, self.role, before, data["data"], replace=True)
            check_character_write(self.system, self.role, before, data, replace=True)
        else:
            check_gm_fields(self.system, self.role, before, data["changes"])
            check_phase_edit(self.system, self.role, before, data["changes"])
            check_character_write(self.system, self.role, before, data)
        model = self.system.Character
        errors = [p for p in model.check_dict(merged) if p.severity == "error"]
        if errors:
            raise EventError(f"character {character_id!r}: " + "; ".join(str(p) for p in errors))

    # convenience wrappers --------------------------------------------------------------------
    def set_character(
        self, character_id: str, data: Mapping[str, Any], *, hidden: bool = False, owner: str | None = None
    ) -> Event:
        payload: dict[str, Any] = {"character_id": character_id, "data": jsonable(dict(data))}
        if owner is not None or character_id not in self.state.characters:
            payload["owner"] = owner
        return self.record("character.set", payload, audience=AUDIENCE_GM if hidden else AUDIENCE_ALL)

    def character_audience(self, character_id: str) -> str:
        """Who may see this character: ``"all"``, or ``"gm"`` for a GM-only one (an NPC)."""
        return self.state.character_audience.get(character_id, AUDIENCE_ALL)

    def has_hidden_changes(self, character_id: str) -> bool:
        """Whether this seat knows values of the character that not every seat knows (a
        hidden check's effects): then anything carrying its sheet stays hidden too."""
        public = self.state.public_characters.get(character_id)
        return public is not None and public != self.state.characters.get(character_id)

    def update_character(
        self, character_id: str, changes: Mapping[str, Any], *, reason=None, hidden: bool | None = None
    ) -> Event:
        """Record trait values after a change. By default the update is seen by whoever sees
        the character (a GM-only NPC's damage stays GM-only)."""
        if hidden is None:
            audience = self.character_audience(character_id)
        else:
            audience = AUDIENCE_GM if hidden else AUDIENCE_ALL
        return self.record(
            "character.update",
            {"character_id": character_id, "changes": jsonable(dict(changes)), "reason": reason},
            audience=audience,
        )

    def finish_character(self, character_id: str) -> Event:
        """Finish a character: the system's ``start_play`` on the character as the table holds
        it, recorded as a ``character.update`` (``reason="finish"``) seen by whoever sees the
        character. The GM may finish any character, a player their own (:mod:`.phases`); the
        system's ``RuleError`` (the creation problems, or "already in play") when it refuses,
        and nothing is written."""
        self.begin_action("character.edit", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.edit", character_id)
            data = self.state.characters.get(character_id)
            if data is None:
                raise EventError(f"no character {character_id!r} at this table (or not visible to this seat)")
            check_players_make(self.system, self.role, data, table_option(self, "players_build"))
            changes = finish_changes(self.system, data)
            payload = validate(
                "character.update", {"character_id": character_id, "changes": jsonable(changes), "reason": "finish"}
            )
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self.transact(make)[-1]

    def advance(self, character_id: str, advance_id: str, **options: Any) -> Event:
        """Buy ``advance_id`` (with ``options``) for a character in play: the system's ``advance``
        on the character as the table holds it, recorded as a ``character.update`` whose
        ``reason`` names the advance, its options, cost and text (:mod:`.advancement`), seen by
        whoever sees the character. Between sessions, and during one unless the system's rules
        say advancement waits for the session's end (RET). The GM may advance any
        character, a player their own and without the advance's GM options; a refusal (the
        rules' ``RuleError``, or :class:`~.rules.PlayDenied`) writes nothing."""
        self.begin_action("character.edit", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.edit", character_id)
            waits = self.system.advance_waits_for_session_end()
            if waits and self.state.session_open:
                raise RuleError("advance_after_session", dict(waits))
            data = self.state.characters.get(character_id)
            payload = advance_update(self.system, self.role, character_id, data, advance_id, options)
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self.transact(make)[-1]

    def award(self, character_id: str, resource: str, amount: int) -> Event:
        """The GM gives ``amount`` of ``resource`` (one of the system's advancement resources) to
        a character in play: the system's ``award`` on the character as the table holds it,
        recorded like :meth:`advance`. GM only."""
        check_award_role(self.system, self.role)  # a player hears who gives awards
        self.begin_action("character.award", character_id)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("character.award", character_id)
            data = self.state.characters.get(character_id)
            payload = award_update(self.system, self.role, character_id, data, resource, amount)
            return [NewEvent("character.update", self.seat, payload, self.character_audience(character_id))]

        return self.transact(make)[-1]

    def note(self, text: str, title: str | None = None) -> Event:
        """A GM note: only GM seats ever load it."""
        return self.record("note", {"text": text, "title": title}, audience=AUDIENCE_GM)

    def say(self, text: str) -> Event:
        return self.record("message", {"text": text})
