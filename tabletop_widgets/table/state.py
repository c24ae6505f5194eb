"""The folded state of one view of a table: plain JSON data rebuilt from snapshot + events.

``TableState.apply(event)`` folds one event in: its kind's reducer (:meth:`.kinds.base.Kind.reduce`)
and, for a kind the log keeps, its entry in :attr:`TableState.log`. It never rolls or runs rules
(events are outcomes). Widgets bind to this (or to models built from ``characters``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .kinds import KINDS
from .kinds.combat import COMBAT_FORMAT
from .store import Event

LOG_LIMIT = 500  # entries of the shared log kept in the state (older ones stay in the store)
#: the layout of a folded state: a snapshot of another layout is folded again from the log
STATE_FORMAT = 2


@dataclass
class TableState:
    table_id: str
    version: int = 0  # version of the last applied event (versions of unseen events are skipped)
    seq: int = 0  # seq of the last applied event
    system: str = ""
    title: str = ""
    seed_hash: str = ""
    seed: str | None = None  # revealed when closed
    closed: bool = False
    seats: dict[str, dict[str, Any]] = field(default_factory=dict)
    characters: dict[str, dict[str, Any]] = field(default_factory=dict)
    owners: dict[str, str | None] = field(default_factory=dict)
    character_audience: dict[str, str] = field(default_factory=dict)  # "gm" for GM-only characters
    #: characters as every seat knows them (public events only): a character whose values here
    #: differ from ``characters`` has changes this view saw in hidden events
    public_characters: dict[str, dict[str, Any]] = field(default_factory=dict)
    combat: dict[str, Any] | None = None
    #: the GM's combat log (each GM ``combat.state`` event's Combat event, in order) and the
    #: players' latest projection, so that a GM page rebuilds its tracker without reading the
    #: whole table log (issue 21). ``None``: not tracked (a state from an older snapshot)
    combat_events: list[dict[str, Any]] | None = None
    combat_public: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    rolls: int = 0  # roll events this view has seen
    events: int = 0  # events this view has applied
    extra: dict[str, Any] = field(default_factory=dict)  # state of registered kinds
    #: the campaign's game sessions in order: ``{"n", "seed_hash", "first_roll", "started",
    #: "ended", "seed", "rolls"}`` (``ended``/``seed``/``rolls`` are ``None`` while it is open).
    #: Empty in a state folded before sessions existed: see :meth:`session_list`
    sessions: list[dict[str, Any]] = field(default_factory=list)
    #: whose view this is (``"gm"``, ``"seat:<id>"``, ``"observer"``; ``""``: every event, as
    #: ``verify`` and the tools fold it): the fight's lines come from the GM's copy of the
    #: tracker in a GM's view, from the players' projection in any other
    view: str = ""
    #: keep every field of a logged payload (the transcript: a check's sheet gives its odds)
    full_log: bool = False

    def session_list(self) -> list[dict[str, Any]]:
        """The game sessions (at least session 1: a table from before sessions, or a snapshot
        folded then, is one session, open unless the table closed)."""
        if not self.sessions:
            self.sessions.append(
                {
                    "n": 1,
                    "seed_hash": self.seed_hash,
                    "first_roll": 0,
                    "started": None,
                    "ended": None,
                    "seed": None,
                    "rolls": None,
                }
            )
            if self.closed:
                self.sessions[0].update(ended=0.0, seed=self.seed)  # when: not known
        return self.sessions

    @property
    def session(self) -> int:
        """The current game session's number (the last one started; 1 at first)."""
        return int(self.session_list()[-1]["n"])

    @property
    def session_open(self) -> bool:
        """Whether the current game session is open (dice may be rolled)."""
        return not self.closed and self.session_list()[-1]["ended"] is None

    @property
    def commitment(self) -> str:
        """The current game session's dice commitment."""
        return str(self.session_list()[-1]["seed_hash"] or self.seed_hash)

    def apply(self, event: Event) -> None:
        if event.seq <= self.seq:
            return  # already applied (a writer's own event arriving again)
        kind = KINDS.get(event.kind)
        if kind is not None and not kind.legacy:
            p = kind.read(event.payload)
            kind.reduce(self, event, p)
            if kind.rolls:
                self.rolls += 1
            if kind.logs(p):
                payload = p.to_json()
                self.log_event(event, **(payload if self.full_log else kind.log_entry(payload)))
        self.version, self.seq = event.version, event.seq
        self.events += 1

    def to_json(self) -> dict[str, Any]:
        data = copy.deepcopy({k: getattr(self, k) for k in self.__dataclass_fields__})
        data["format"] = STATE_FORMAT
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TableState":
        known = {k: copy.deepcopy(v) for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    @staticmethod
    def readable(data: Any) -> bool:
        """Whether a snapshot's state is of this layout (an older one is folded again from the log)."""
        return isinstance(data, dict) and data.get("format") == STATE_FORMAT

    def log_event(self, event: Event, **entry: Any) -> None:
        self.log.append(
            {
                **entry,
                "seq": event.seq,
                "version": event.version,
                "kind": event.kind,
                "actor": event.actor,
                "audience": event.audience,
                "created": event.created,
            }
        )
        if len(self.log) > LOG_LIMIT and not self.full_log:
            del self.log[: len(self.log) - LOG_LIMIT]


__all__ = ["COMBAT_FORMAT", "LOG_LIMIT", "STATE_FORMAT", "TableState"]
