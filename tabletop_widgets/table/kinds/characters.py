"""The character kinds: a whole sheet (``character.set``) and trait values after a change
(``character.update``: a sheet edit, a check's effects, damage, finishing, an advance, an award)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import copy

from ...core.i18n import LOCALES, tr
from ..payload import Payload, optional
from ..store import AUDIENCE_ALL, AUDIENCE_GM
from .base import Kind, Line, both

#: The reasons (``reason["kind"]``) of the updates an advance or an award writes.
ADVANCE, AWARD = "advance", "award"
REASON_KINDS = frozenset({ADVANCE, AWARD})


def advancement_reason(reason: Any) -> dict[str, Any] | None:
    """An update's ``reason`` when it is an advance's or an award's (``{"kind": "advance",
    "advance_id", "options", "cost", "text"}`` or ``{"kind": "award", "resource", "amount",
    "text"}``), else None."""
    if isinstance(reason, Mapping) and reason.get("kind") in REASON_KINDS:
        return dict(reason)
    return None


def advancement_text(reason: Mapping[str, Any], locale: str) -> str:
    """The line an advance or an award tells: ``"Nerve 3 → 4 for 8 XP"``, ``"Ada gets 12 XP."``."""
    text = reason.get("text")
    return tr(text, locale) if isinstance(text, Mapping) and text else str(reason.get("advance_id") or "")


@dataclass(frozen=True, kw_only=True)
class SetPayload(Payload):
    character_id: str
    data: dict
    owner: str | None = optional()


class CharacterSet(Kind):
    """A whole character sheet (new or replaced)."""

    name = "character.set"
    Payload = SetPayload
    action = "character.edit"
    recordable = True

    def reduce(self, state, event, p: SetPayload) -> None:
        cid = p.character_id
        if not cid:
            return
        state.characters[cid] = copy.deepcopy(p.data or {})
        state.character_audience[cid] = event.audience
        if event.audience == AUDIENCE_ALL:
            state.public_characters[cid] = copy.deepcopy(p.data or {})
        else:
            state.public_characters.pop(cid, None)
        if p.given("owner"):
            state.owners[cid] = p.owner


@dataclass(frozen=True, kw_only=True)
class UpdatePayload(Payload):
    character_id: str
    changes: dict
    reason: str | dict | None = optional(omit_none=False)


class CharacterUpdate(Kind):
    """Trait values after a change: ``{trait: new value}``, and why."""

    name = "character.update"
    Payload = UpdatePayload
    action = "character.edit"
    recordable = True

    def audience_for(self, state, character_id: str, hidden: bool | None = None) -> str:
        """Who sees an update: whoever sees the character (a GM-only NPC's stays the GM's), or
        with ``hidden`` given, the GM alone (True) or everyone (False)."""
        if hidden is None:
            return state.character_audience.get(character_id, AUDIENCE_ALL)
        return AUDIENCE_GM if hidden else AUDIENCE_ALL

    def split(
        self, state, character_id: str, changes: Mapping[str, Any], secret: str = AUDIENCE_GM
    ) -> list[tuple[str, dict[str, Any]]]:
        """``(audience, changes)`` parts of one public update: the traits every seat knows as
        this view does go to everyone; a trait this view knows otherwise (a hidden check's Luck
        spent, then a Luck gained in a public fight) goes to ``secret`` alone (the GM, or the
        GM and the writing player's seat), or the new value would tell the players what was
        hidden. A GM-only character's whole update stays the GM's."""
        base = state.character_audience.get(character_id, AUDIENCE_ALL)
        public = state.public_characters.get(character_id)
        mine = state.characters.get(character_id) or {}
        if base != AUDIENCE_ALL or public is None or public == mine:
            return [(base, dict(changes))]
        differs = {k for k in set(public) | set(mine) if public.get(k) != mine.get(k)}
        parts = [
            (AUDIENCE_ALL, {k: v for k, v in changes.items() if k not in differs}),
            (secret, {k: v for k, v in changes.items() if k in differs}),
        ]
        return [(audience, part) for audience, part in parts if part] or [(base, dict(changes))]

    def logs(self, p: UpdatePayload) -> bool:
        """The log tells advances and awards (the check, the attack or the sheet edit behind any
        other update has its own line, or none)."""
        return advancement_reason(p.reason) is not None

    def reduce(self, state, event, p: UpdatePayload) -> None:
        cid = p.character_id
        if not cid:
            return
        changes = copy.deepcopy(p.changes or {})
        state.characters.setdefault(cid, {}).update(changes)
        if event.audience == AUDIENCE_ALL and cid in state.public_characters:
            state.public_characters[cid].update(copy.deepcopy(changes))

    def line(self, entry, p: UpdatePayload, ctx) -> Line | None:
        """Advances and awards: what the character bought or got."""
        reason = advancement_reason(p.reason)
        if reason is None:
            return None
        name = ctx.character_name(p.character_id)
        texts = {}
        for loc in LOCALES:
            said = advancement_text(reason, loc)
            texts[loc] = said if said.startswith(name) else f"{name}: {said}"
        return Line("advance", ctx.who(entry.get("actor", "")), both(""), texts)


KINDS = (CharacterSet(), CharacterUpdate())

__all__ = ["ADVANCE", "AWARD", "KINDS", "REASON_KINDS", "advancement_reason", "advancement_text"]
