"""What a seat records by hand at a shared table: outcomes of a free kind (:meth:`record`),
characters (set, update, finish, advance, award), GM notes and messages.

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from typing import Any, Mapping

from .advancement import advance_update, award_update, check_award_role, check_character_write
from .events import EventError, jsonable
from .kinds import CHARACTER_KINDS, CHARACTER_SET, CHARACTER_UPDATE, MESSAGE, NOTE, Kind, own_audience
from .kinds import kind as event_kind
from .kinds.talk import MODES
from .phases import check_phase_edit, check_players_make, finish_changes
from .rules import PlayError, check_character_texts, check_gm_fields
from .seats import PermissionDenied, table_option
from .store import AUDIENCE_ALL, AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, Event, NewEvent, WriteTx, audience_ok
from ..core.i18n import T
from ..core.problems import RuleError


class RecordActions:
    """:meth:`record` and the writes built on it: characters, notes, messages."""

    def record(
        self, kind: "Kind | str", payload: Mapping[str, Any], *, audience: str = AUDIENCE_ALL, split: bool = False
    ) -> Event:
        """Append an outcome of ``kind`` (a kind or its name) that has no method of its own
        (role-checked, payload checked with its limits). Rolls, checks, attacks and opening or
        closing have their own methods: their content must come from the fair dice or the table.
        ``split`` (a public ``character.update``): the traits this view knows otherwise than the
        players go to the GM alone, in the same transaction (:meth:`CharacterUpdate.split`)."""
        spec = kind if isinstance(kind, Kind) else event_kind(kind)
        if not spec.recordable:
            why = (
                "written by the table itself"
                if spec.action is None
                else f"use the session's own method for {spec.name!r}"
            )
            raise PermissionDenied(spec.name, self.role, why)
        data = spec.check(payload)
        is_character = spec in CHARACTER_KINDS
        character_id = data.get("character_id") if is_character else None
        self.require(spec.action, character_id)
        self._check_audience(audience)
        if spec is CHARACTER_SET:
            check_character_texts(data["data"])
        elif spec is CHARACTER_UPDATE:
            check_character_texts(data["changes"])
        self.rate_limit.take()

        def make(tx: WriteTx) -> list[NewEvent]:
            if is_character and character_id not in self.state.characters:
                self.require("character.create")
            self.require(spec.action, character_id)
            if (
                spec is CHARACTER_UPDATE
                and audience != AUDIENCE_GM
                and self.character_audience(character_id) == AUDIENCE_GM
            ):
                raise EventError(
                    f"character {character_id!r} is GM-only: reveal it with "
                    "set_character(..., hidden=False) before public updates"
                )
            if is_character:
                self._validate_character(character_id, data)
            if split and spec is CHARACTER_UPDATE and audience == AUDIENCE_ALL:
                secret = own_audience(self.role, self.seat, True)
                parts = CHARACTER_UPDATE.split(self.state, character_id, data["changes"], secret)
                return [spec.new_json(self.actor, {**data, "changes": part}, aud) for aud, part in parts]
            return [spec.new_json(self.actor, data, audience)]

        return self.transact(make)[-1]

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
        return self.record(CHARACTER_SET, payload, audience=AUDIENCE_GM if hidden else AUDIENCE_ALL)

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
        the character (a GM-only NPC's damage stays GM-only), and a trait this seat knows
        otherwise than the players (a hidden check's effect) changes for the GM alone."""
        audience = CHARACTER_UPDATE.audience_for(self.state, character_id, hidden)
        return self.record(
            CHARACTER_UPDATE,
            {"character_id": character_id, "changes": jsonable(dict(changes)), "reason": reason},
            audience=audience,
            split=hidden is None,
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
            audience = self.character_audience(character_id)
            return [
                CHARACTER_UPDATE.new(
                    self.actor, audience, character_id=character_id, changes=jsonable(changes), reason="finish"
                )
            ]

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
            return [CHARACTER_UPDATE.new_json(self.actor, payload, self.character_audience(character_id))]

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
            return [CHARACTER_UPDATE.new_json(self.actor, payload, self.character_audience(character_id))]

        return self.transact(make)[-1]

    def note(self, text: str, title: str | None = None) -> Event:
        """A GM note: only GM seats ever load it."""
        return self.record(NOTE, {"text": text, "title": title}, audience=NOTE.audience_for())

    def say(self, text: str, *, mode: str = "ic", to: str | None = None) -> Event:
        """A chat line: to the whole table, in character (``mode="ic"``) or out of character
        (``"ooc"``); or a whisper (``to``): a player's goes to the GM (``to="gm"``), the GM's
        to one seat. A whisper is read by the GM and that seat only."""
        if mode not in MODES:
            raise PlayError("bad_mode", T("A chat line is in or out of character.", "Реплика — в игре или вне игры."))
        payload: dict[str, Any] = {"text": text, "mode": mode}
        if to is not None:
            self._check_whisper(to)
            payload["to"] = to
        return self.record(MESSAGE, payload, audience=MESSAGE.audience_for(self.role, self.seat, to))

    def _check_whisper(self, to: Any) -> None:
        """A player whispers to the GM only; the GM to a player's seat at this table."""
        from .kinds.talk import WHISPER_TO_GM

        if self.role != "gm":
            if to != WHISPER_TO_GM:
                raise PermissionDenied("message", self.role, "a player whispers to the GM only")
            return
        seat = self.state.seats.get(to) if isinstance(to, str) else None
        if not seat or seat.get("role") != "player":
            raise PlayError(
                "no_such_seat",
                T("Whisper to whom? Choose a player at this table.", "Кому шепнуть? Выберите игрока за этим столом."),
            )
