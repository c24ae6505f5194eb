"""The combat's JSON: events and states are plain JSON data; characters go in and out of it by
their persisted values, set back exactly (no rule runs again on replay)."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any, Mapping


#: Version of the event format (stored in every event as ``"v"``).
EVENT_VERSION = 1

#: Event types :meth:`.machine.Combat.apply` understands.
EVENT_TYPES = (
    "add",
    "remove",
    "rename",
    "move",
    "initiative",
    "next",
    "prev",
    "delay",
    "act_now",
    "end",
    "damage",
    "heal",
    "add_condition",
    "remove_condition",
    "set_defeated",
    "set_hidden",
    "undo",
    "attack",
)

#: Units whose duration counts down with turns.
COUNTED_UNITS = ("rounds", "turns")


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (tuples become lists, dataclasses dicts, sets sorted lists)."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def jcopy(value: Any) -> Any:
    """A deep copy of plain JSON data (several times faster than ``copy.deepcopy``)."""
    return json.loads(json.dumps(value))


def as_tuple(value: Any) -> Any:
    """Lists back to tuples (recursively) so recorded initiative keys compare like the originals."""
    if isinstance(value, (list, tuple)):
        return tuple(as_tuple(v) for v in value)
    return value


def roll_record(roll: Any) -> dict | None:
    """What a system's initiative roll looked like, as text in both locales (plus its data)."""
    if roll is None:
        return None
    if hasattr(roll, "text"):
        out = {"en": roll.text("en"), "ru": roll.text("ru")}
    else:
        out = {"en": str(roll), "ru": str(roll)}
    if hasattr(roll, "dice") and not callable(roll.dice):
        out["dice"] = [
            {
                "faces": jsonable(getattr(d, "faces", None)),
                "value": getattr(d, "value", None),
                "kept": bool(getattr(d, "kept", True)),
            }
            for d in roll.dice
        ]
    if hasattr(roll, "total") and isinstance(roll.total, int):
        out["total"] = roll.total
    elif dataclasses.is_dataclass(roll):
        out["data"] = jsonable(roll)
    return out


def persisted(character) -> dict[str, Any]:
    if hasattr(character, "to_dict"):
        return jsonable(character.to_dict())
    raise TypeError(f"a combatant must be a system Character (with to_dict), not {type(character).__name__}")


def set_traits(character, values: Mapping[str, Any]) -> None:
    """Set recorded trait values on a character (exactly, without re-running any rule)."""
    current = jsonable({k: getattr(character, k) for k in values if k not in ("system", "schema")})
    with character.hold_trait_notifications():
        for name, value in values.items():
            if name in ("system", "schema") or current.get(name) == value:
                continue
            _set_trait(character, name, value)
    # A rule run when the notifications were released may have moved a value set above (a
    # current pool that follows its maximum when the maximum changes): set those once more.
    for name, value in values.items():
        if name not in ("system", "schema") and jsonable(getattr(character, name)) != value:
            _set_trait(character, name, value)


def _set_trait(character, name: str, value: Any) -> None:
    trait = character.traits().get(name)
    if trait is not None and type(trait).__name__ == "Tuple":
        value = as_tuple(value)
    setattr(character, name, copy.deepcopy(value))


def clone_character(character):
    """A copy of a character (same class, same persisted values): a scratch twin for computing
    an outcome without touching the original, or a second goblin."""
    twin = type(character)()
    set_traits(twin, persisted(character))
    return twin


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list]:
    return {k: [before.get(k), v] for k, v in after.items() if before.get(k) != v}


#: A combatant's record as a view loads it: what a projection may leave out.
VIEW_DEFAULTS = (
    ("skip_until", None),
    ("conditions", []),
    ("initiative", None),
    ("delayed", False),
    ("hidden", False),
    ("defeated", None),
)


def view_snapshot(system, state: Mapping[str, Any] | None) -> tuple[dict | None, dict[str, Any]]:
    """A combat's state (or a projection of one) as a snapshot the combat restores (None when
    empty), and a fresh ``system.Character`` per combatant with its ``"character"`` values set
    as far as they load (an anonymous "?" or a partial character keeps what loads)."""
    state = jcopy(jsonable(dict(state or {})))
    objects: dict[str, Any] = {}
    if not state:
        return None, objects
    turns = {k: list(v) for k, v in (state.get("turns") or {}).items()}
    combatants = {}
    for cid, data in (state.get("combatants") or {}).items():
        values = data.pop("character", None) or {}
        ch = system.Character()
        try:
            set_traits(ch, values)
        except Exception:  # noqa: BLE001 - keep what loads
            pass
        for key, default in VIEW_DEFAULTS:
            data.setdefault(key, copy.copy(default))
        objects[cid] = ch
        combatants[cid] = data
    snap = {
        "round": int(state.get("round", 0)),
        "current": state.get("current"),
        "order": list(state.get("order", [])),
        "tiebreaks": list(state.get("tiebreaks", [])),
        "next_uid": int(state.get("next_uid", 1)),
        "turns": turns,
        "hooked": {k: list(v) for k, v in (state.get("hooked") or turns).items()},
        "combatants": combatants,
        "characters": {},
    }
    return snap, objects
