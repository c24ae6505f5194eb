"""The one audience projection: from (state, audience) to what that audience may know.

An :class:`Audience` is a reader of the table: the GM, one player's seat, or an observer. Every
place that hands table data to a reader goes through this module:

* the store query and the follower read only the event audiences in :attr:`Audience.tags`
  (``None``: every event, for the GM), and :func:`visible_events` drops anything else again;
* snapshots are saved and loaded through :func:`project_state`;
* the combat tracker's state goes to players as :func:`project_combat` of the GM's
  :class:`~tabletop_widgets.core.combat.Combat`, and a player's tracker is rebuilt from that
  with :func:`combat_from_view`. A tracker showing a combat to players in one notebook
  (``CombatTracker(audience="player")``) renders the same projection.

What players may know of a combat: the visible combatants' names, places, initiative, health,
conditions and defeat, and the log lines about them. Never a combatant's sheet (notes,
backstory, GM-set values: a table character's sheet reaches players through the table's own
character events, as far as they may see it), never a hidden combatant, and never a number that
counts hidden actions (combat event numbers and condition ids are renumbered, the id counter is
left out). The rule is generic on purpose: anything outside a visible combatant's own name that
mentions a hidden combatant's id or name as a word does not go out.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .seats import audiences_for, view_for
from .kinds.clocks import project_clocks
from .kinds.combat import COMBAT_FORMAT
from .store import AUDIENCE_ALL, AUDIENCE_GM, Event

log = logging.getLogger(__name__)

#: Combat log lines kept in the players' copy.
PUBLIC_COMBAT_EVENTS = 12


@dataclass(frozen=True)
class Audience:
    """A reader of the table: ``role`` (``gm`` / ``player`` / ``observer``) and ``seat``."""

    role: str
    seat: str = ""

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def tags(self) -> list[str] | None:
        """The event audiences this reader may read (``None``: all of them)."""
        return audiences_for(self.role, self.seat)

    @property
    def view(self) -> str:
        """The snapshot view: readers that see the same events share it."""
        return view_for(self.role, self.seat)

    def sees(self, tag: str) -> bool:
        tags = self.tags
        return tags is None or tag in tags


GM = Audience("gm")
#: Any player, as far as the combat goes (combat events go to all or to the GM only).
PLAYERS = Audience("player")


# --------------------------------------------------------------------------------------------
# events and the folded state
# --------------------------------------------------------------------------------------------
def visible_events(events: Iterable[Event], audience: Audience) -> list[Event]:
    return [e for e in events if audience.sees(e.audience)]


def project_state(state, audience: Audience):
    """A copy of a :class:`~tabletop_widgets.table.state.TableState` with only what ``audience``
    may know (what it would hold from the events it may read). Used on snapshots, both ways."""
    data = state.to_json()  # a deep copy already: one copy, not two
    data.pop("format", None)
    out = type(state)(**data)
    out.view = audience.view
    if audience.is_gm:
        return out
    out.log = [x for x in out.log if audience.sees(x.get("audience", AUDIENCE_ALL))]
    out.notes = [x for x in out.notes if audience.sees(x.get("audience", AUDIENCE_GM))]
    hidden = {cid for cid, tag in out.character_audience.items() if not audience.sees(tag)}
    out.characters = {cid: v for cid, v in out.characters.items() if cid not in hidden}
    out.owners = {cid: v for cid, v in out.owners.items() if cid not in hidden}
    out.character_audience = {cid: v for cid, v in out.character_audience.items() if cid not in hidden}
    out.public_characters = {cid: v for cid, v in out.public_characters.items() if cid not in hidden}
    if isinstance(out.combat, Mapping) and "event" in out.combat:  # the GM's copy: never
        out.combat = None
    if out.combat_events:  # the GM's combat log: never
        out.combat_events = []
    locales = out.extra.get("seat_locales")
    if isinstance(locales, Mapping):  # a seat's language is that seat's (and the GM's)
        out.extra["seat_locales"] = {s: v for s, v in locales.items() if s == audience.seat}
    tables = out.extra.get("roll_tables")
    if isinstance(tables, Mapping):  # the campaign's roll tables: the shared ones only
        out.extra["roll_tables"] = {n: t for n, t in tables.items() if isinstance(t, Mapping) and t.get("shared")}
    names = out.extra.get("combat_names")
    if isinstance(names, Mapping):  # the combatants the players' tracker shows, no other
        public = ((out.combat_public or {}).get("state") or {}).get("combatants") or {}
        out.extra["combat_names"] = {c: n for c, n in names.items() if c in public}
    if "clocks" in out.extra:  # a known clock's name and fill, a secret clock: the GM's
        out.extra["clocks"] = project_clocks(out.extra["clocks"], is_gm=False)
    return out


# --------------------------------------------------------------------------------------------
# combat
# --------------------------------------------------------------------------------------------
def secret_combatants(combat) -> set[str]:
    """Ids players must not learn about: hidden now, or hidden when last seen (removed while
    hidden)."""
    flag: dict[str, bool] = {}
    for e in combat.events:
        if e.get("type") == "add":
            flag[e["id"]] = bool(e.get("hidden"))
        elif e.get("type") == "set_hidden":
            flag[e["id"]] = bool(e.get("value"))
    for cid in combat.ids:
        flag[cid] = combat.combatant(cid).hidden
    return {cid for cid, hidden in flag.items() if hidden}


def _secret_pattern(combat, full: Mapping[str, Any], secret: set[str]) -> re.Pattern | None:
    visible_names = {d["name"] for cid, d in full["combatants"].items() if cid not in secret}
    secret_names = {full["combatants"][c]["name"] for c in secret if c in full["combatants"]}
    for e in combat.events:  # names of removed hidden combatants, as they were added or renamed
        if e.get("type") in ("add", "rename") and e.get("id") in secret and e.get("name"):
            secret_names.add(e["name"])
    words = sorted({w for w in {*secret, *(secret_names - visible_names)} if w}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?<![\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])")


def _mentions(value: Any, pattern: re.Pattern | None) -> bool:
    """Whether any text anywhere in ``value`` (JSON data) names a secret id or name."""
    if pattern is None:
        return False
    return bool(pattern.search(json.dumps(value, ensure_ascii=False, default=str)))


def _public_event(e: Mapping[str, Any], secret: set[str], pattern) -> dict | None:
    """One combat event as players may read it, or None."""
    e = copy.deepcopy(dict(e))
    if e.get("type") == "initiative":
        e["ids"] = [c for c in e.get("ids", []) if c not in secret]
        e["order"] = [c for c in e.get("order", []) if c not in secret]
        e["rolls"] = {
            c: ({**r, "text": "?", "roll": None} if _mentions(r, pattern) else r)
            for c, r in (e.get("rolls") or {}).items()
            if c not in secret
        }
        e["tiebreaks"] = [tb for tb in e.get("tiebreaks", []) if not _mentions(tb, pattern)]
        if isinstance(e.get("skip"), Mapping):
            e["skip"] = {c: v for c, v in e["skip"].items() if c not in secret}
    elif e.get("type") == "act_now":
        e["order"] = [c for c in e.get("order", []) if c not in secret]
    if isinstance(e.get("effects"), list):
        e["effects"] = [x for x in e["effects"] if not (isinstance(x, Mapping) and x.get("id") in secret)]
    # never a sheet, never raw trait values (health and notes say what happened), no condition ids
    e.pop("character", None)
    e.pop("uid", None)
    if "changes" in e:
        e["changes"] = {}
    for x in e.get("effects") or ():
        if isinstance(x, dict):
            x.pop("character", None)
            if "changes" in x:
                x["changes"] = {}
    if _mentions(e, pattern):
        return None  # anything still naming a hidden combatant stays with the GM
    return e


def project_combat(combat, audience: Audience = PLAYERS, *, shared: Iterable[str] = ()) -> dict[str, Any]:
    """What ``audience`` may know of ``combat`` (a :class:`Combat`): ``{"format", "state",
    "events"}``, plain JSON for a ``combat.state`` event. The GM gets ``combat.state()`` and
    the whole log.

    For players: hidden combatants removed (a hidden combatant whose turn it is becomes an
    anonymous ``hidden-N`` named ``"?"``), tie-break notes, initiative texts and log lines that
    name a hidden combatant left out, no sheets (combatants carry their ``health``; those in
    ``shared``, table characters the players hold themselves, not even that), combat event
    numbers and condition ids renumbered among what is shown."""
    if audience.is_gm:
        return {"format": COMBAT_FORMAT, "state": combat.state(), "events": copy.deepcopy(combat.events)}
    full = combat.state()
    secret = secret_combatants(combat)
    pattern = _secret_pattern(combat, full, secret)
    alias = {cid: f"hidden-{i}" for i, cid in enumerate([c for c in full["order"] if c in secret], 1)}
    uids: dict[int, int] = {}
    combatants = {
        cid: _public_combatant(combat, cid, full["combatants"][cid], alias, pattern, uids, set(shared))
        for cid in full["order"]
        if cid not in secret
    }
    current = full["current"]
    if current in secret:
        current = alias[current]
        combatants[current] = dict(ANONYMOUS_COMBATANT, conditions=[], health=[0, 0])
    state = _public_combat_state(full, combatants, current, secret, alias, pattern)
    out = {"format": COMBAT_FORMAT, "state": state, "events": _public_events(combat, secret, pattern)}
    guard = {**state, "combatants": {c: {k: v for k, v in d.items() if k != "name"} for c, d in combatants.items()}}
    if _mentions(guard, pattern) or _mentions(out["events"], pattern):
        log.error("public combat state still names a hidden combatant: sending none")
        return {"format": COMBAT_FORMAT, "state": {}, "events": []}
    return out


#: a hidden combatant whose turn it is, as players see it
ANONYMOUS_COMBATANT = {
    "name": "?",
    "hidden": True,
    "delayed": False,
    "defeated": False,
    "initiative": None,
    "conditions": [],
    "skip_until": None,
    "health": [0, 0],
}


def _public_combatant(combat, cid: str, d: Mapping[str, Any], alias, pattern, uids: dict, shared: set) -> dict:
    """A visible combatant as players see it: no sheet (its ``health`` unless the players hold
    the character themselves), initiative text and conditions that name a hidden combatant left
    out, condition ids renumbered among what is shown (``uids``)."""
    c = combat.combatant(cid)
    out = {
        "name": d["name"],
        "follows": bool(d.get("follows")),
        "hidden": False,
        "delayed": bool(d.get("delayed")),
        "defeated": bool(c.defeated),
        "initiative": copy.deepcopy(d.get("initiative")),
        "skip_until": d.get("skip_until"),
        "conditions": [],
    }
    if out["initiative"] and _mentions(out["initiative"], pattern):
        out["initiative"] = {"key": out["initiative"].get("key"), "text": "?", "roll": None}
    for inst in d.get("conditions", []):
        inst = copy.deepcopy(inst)
        inst["uid"] = uids.setdefault(inst.get("uid"), len(uids) + 1)
        if inst.get("ticks_on") in alias:
            inst["ticks_on"] = alias[inst["ticks_on"]]
        if not _mentions({k: v for k, v in inst.items() if k != "ticks_on"}, pattern):
            out["conditions"].append(inst)
    if cid not in shared:
        out["health"] = list(c.health)
    return out


def _public_combat_state(full, combatants: dict, current, secret: set, alias: dict, pattern) -> dict:
    """The tracker's state around the public ``combatants``: the order (a hidden combatant only
    as the anonymous one whose turn it is), tie-breaks and turns that name no hidden one."""
    needed = set(combatants) | {i.get("ticks_on") for d in combatants.values() for i in d["conditions"]}
    turns = {
        alias.get(cid, cid): v
        for cid, v in full["turns"].items()
        if alias.get(cid, cid) in needed and (cid not in secret or cid in alias)
    }
    return {
        "round": full["round"],
        "current": current,
        "order": [alias.get(cid, cid) for cid in full["order"] if cid not in secret or alias.get(cid) == current],
        "tiebreaks": [
            tb for tb in full["tiebreaks"] if not _mentions(tb, pattern) and not (set(_tiebreak_ids(tb)) & secret)
        ],
        "turns": turns,
        "hooked": {k: v for k, v in full.get("hooked", {}).items() if k in turns},
        "combatants": combatants,
    }


def _public_events(combat, secret: set, pattern) -> list[dict]:
    """The combat log's lines players may read, renumbered among them (an undo of a line they
    never saw left out), the last :data:`PUBLIC_COMBAT_EVENTS`."""
    events: list[dict] = []
    number: dict = {}
    for e in combat.events:
        pe = _public_event(e, secret, pattern)
        if pe is None:
            continue
        if pe.get("type") == "undo":
            if pe.get("undoes") not in number:
                continue  # undoing something players never saw
            pe["undoes"] = number[pe["undoes"]]
        number[e.get("seq")] = len(events)
        pe["seq"] = len(events)
        events.append(pe)
    return events[-PUBLIC_COMBAT_EVENTS:]


def attack_names_secret(combat, value: Any) -> bool:
    """Whether ``value`` (an attack event's payload or text meant for players) names a hidden
    combatant of ``combat`` by id or name: then it stays with the GM."""
    full = combat.state()
    secret = secret_combatants(combat)
    return _mentions(jsonable_value(value), _secret_pattern(combat, full, secret))


def jsonable_value(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def _tiebreak_ids(note: Any) -> list[str]:
    ids = note.get("ids") if isinstance(note, Mapping) else None
    if ids is None and isinstance(note, Mapping):
        ids = note.get("pair")
    return [str(i) for i in ids] if isinstance(ids, (list, tuple)) else []


def combat_from_view(system, view: Mapping[str, Any] | None, into=None):
    """A read-only :class:`Combat` showing a projection (``project_combat``'s output); with
    ``into``, that Combat is reloaded in place (a tracker keeps its object)."""
    from ..core.combat import Combat

    view = view or {}
    combat = into if into is not None else Combat(system)
    combat.load_view(view.get("state") or {}, view.get("events") or [])
    return combat


def same_view(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    """Whether two projections show the same thing (then nothing new goes out)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


__all__ = [
    "Audience",
    "attack_names_secret",
    "COMBAT_FORMAT",
    "GM",
    "PLAYERS",
    "PUBLIC_COMBAT_EVENTS",
    "combat_from_view",
    "project_combat",
    "project_state",
    "same_view",
    "secret_combatants",
    "visible_events",
]
