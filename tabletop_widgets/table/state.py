"""The folded state of one view of a table: plain JSON data rebuilt from snapshot + events.

``TableState.apply(event)`` is the reducer; it never rolls or runs rules (events are outcomes).
Widgets bind to this (or to models built from ``characters``); other packages add reducers for
their own kinds with :func:`reducer`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from .store import Event

#: Version of the combat payloads the table writes in ``combat.state`` events.
COMBAT_FORMAT = 1

LOG_LIMIT = 500  # entries of the shared log kept in the state (older ones stay in the store)
_REDUCERS: dict[str, Callable[["TableState", Event], None]] = {}


def reducer(kind: str):
    """Decorator: ``@reducer("combat.turn") def _(state, event): ...``."""

    def deco(fn):
        _REDUCERS[kind] = fn
        return fn

    return deco


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
        fn = _REDUCERS.get(event.kind)
        if fn is not None:
            fn(self, event)
        self.version, self.seq = event.version, event.seq
        self.events += 1

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy({k: getattr(self, k) for k in self.__dataclass_fields__})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TableState":
        known = {k: copy.deepcopy(v) for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def log_event(self, event: Event, **entry: Any) -> None:
        self.log.append(
            {
                "seq": event.seq,
                "version": event.version,
                "kind": event.kind,
                "actor": event.actor,
                "audience": event.audience,
                "created": event.created,
                **entry,
            }
        )
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]


@reducer("table.opened")
def _opened(state: TableState, e: Event) -> None:
    p = e.payload
    state.system, state.title, state.seed_hash = p["system"], p["title"], p["seed_hash"]
    state.combat_events = []  # tracked from the table's first event
    state.seats = {s["seat"]: {k: v for k, v in s.items() if k != "seat"} for s in p["seats"]}
    state.sessions = [
        {
            "n": 1,
            "seed_hash": p["seed_hash"],
            "first_roll": 0,
            "started": e.created,
            "ended": None,
            "seed": None,
            "rolls": None,
        }
    ]


@reducer("table.closed")
def _closed(state: TableState, e: Event) -> None:
    current = state.session_list()[-1]
    if current["ended"] is None:  # closing the campaign ends its open session
        current.update(ended=e.created, seed=e.payload["seed"])
    state.closed, state.seed = True, e.payload["seed"]
    state.log_event(e, text=f"table closed; seed {e.payload['seed']}")


@reducer("session.ended")
def _session_ended(state: TableState, e: Event) -> None:
    p = e.payload
    current = state.session_list()[-1]
    if current["n"] == p["session"]:
        current.update(ended=e.created, seed=p["seed"], rolls=p["rolls"], first_roll=p["first_roll"])
    state.log_event(e, session=p["session"], seed=p["seed"], seed_hash=p["seed_hash"], rolls=p["rolls"], text="")


@reducer("session.started")
def _session_started(state: TableState, e: Event) -> None:
    p = e.payload
    state.session_list().append(
        {
            "n": p["session"],
            "seed_hash": p["seed_hash"],
            "first_roll": p["first_roll"],
            "started": e.created,
            "ended": None,
            "seed": None,
            "rolls": None,
        }
    )
    state.log_event(e, session=p["session"], seed_hash=p["seed_hash"], text="")


@reducer("roll")
def _roll(state: TableState, e: Event) -> None:
    p = e.payload
    state.rolls += 1
    state.log_event(
        e,
        index=p["index"],
        expr=p["expr"],
        label=p.get("label"),
        hidden=p["hidden"],
        total=p["result"].get("total"),
        text=p["text"],
        texts=p.get("texts"),
        result=p["result"],
    )


@reducer("roll.failed")
def _roll_failed(state: TableState, e: Event) -> None:
    p = e.payload
    state.rolls += 1
    state.log_event(
        e,
        index=p["index"],
        failed=True,
        what=p["what"],
        expr=p.get("expr"),
        check_id=p.get("check_id"),
        character_id=p.get("character_id"),
        label=p.get("label"),
        hidden=p["hidden"],
        text="",
    )


def log_check(state: TableState, e: Event, **extra: Any) -> None:
    """Log a check's outcome: a ``check`` event, or one read again after the roll (``extra``:
    what that event adds)."""
    p = e.payload
    state.log_event(
        e,
        index=p["index"],
        check_id=p["check_id"],
        character_id=p["character_id"],
        hidden=p["hidden"],
        total=p["result"].get("total"),
        success=p["result"].get("success"),
        text=p["text"],
        texts=p.get("texts"),
        result=p["result"],
        **extra,
    )


@reducer("check")
def _check(state: TableState, e: Event) -> None:
    state.rolls += 1
    log_check(state, e)


@reducer("character.set")
def _char_set(state: TableState, e: Event) -> None:
    p = e.payload
    state.characters[p["character_id"]] = copy.deepcopy(p["data"])
    state.character_audience[p["character_id"]] = e.audience
    if e.audience == "all":
        state.public_characters[p["character_id"]] = copy.deepcopy(p["data"])
    else:
        state.public_characters.pop(p["character_id"], None)
    if "owner" in p:
        state.owners[p["character_id"]] = p["owner"]


@reducer("character.update")
def _char_update(state: TableState, e: Event) -> None:
    p = e.payload
    ch = state.characters.setdefault(p["character_id"], {})
    ch.update(copy.deepcopy(p["changes"]))
    if e.audience == "all" and p["character_id"] in state.public_characters:
        state.public_characters[p["character_id"]].update(copy.deepcopy(p["changes"]))


@reducer("combat.state")
def _combat(state: TableState, e: Event) -> None:
    st = e.payload["state"]
    state.combat = copy.deepcopy(st)
    if e.audience == "all":
        state.combat_public = copy.deepcopy(st)
    elif e.audience == "gm" and state.combat_events is not None and isinstance(st.get("event"), dict):
        if st.get("format") == COMBAT_FORMAT:
            state.combat_events.append(copy.deepcopy(st["event"]))


@reducer("note")
def _note(state: TableState, e: Event) -> None:
    state.notes.append(
        {
            "seq": e.seq,
            "actor": e.actor,
            "text": e.payload["text"],
            "title": e.payload.get("title"),
            "audience": e.audience,
        }
    )


@reducer("message")
def _message(state: TableState, e: Event) -> None:
    state.log_event(e, text=e.payload["text"])
