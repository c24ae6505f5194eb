"""Replay a table's log and check every roll against the revealed fair-dice seed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .events import jsonable
from .fairdice import FairDice
from .store import Store


@dataclass
class Report:
    table_id: str
    events: int = 0
    rolls: int = 0
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        head = (f"table {self.table_id}: {self.events} events, {self.rolls} rolls, "
                f"{self.checked} checked against the seed")
        notes = "".join("\n  note: " + n for n in self.notes)
        if self.ok:
            return head + ": OK" + notes
        return (head + f": {len(self.problems)} problem(s)" + notes + "\n"
                + "\n".join("  - " + p for p in self.problems))


def _norm(x: Any) -> Any:
    import json
    return json.loads(json.dumps(jsonable(x), sort_keys=True))


def verify_table(store: Store, table_id: str, *, seed_hex: str | None = None) -> Report:
    """Check a table's log. ``seed_hex`` is needed only while the table is open (an operator
    checking with the secret seed); a closed table's revealed seed is used otherwise.
    Raises ``ValueError`` when no seed is available."""
    from ..dice import roll as dice_roll
    from .session import check_json, system_for

    table = store.get_table(table_id)
    rep = Report(table_id)
    seed_hex = seed_hex or table.seed
    if seed_hex is None:
        raise ValueError(f"table {table_id!r} is still open: its seed is revealed when the GM closes it")
    try:
        dice = FairDice.revealed(seed_hex, table.seed_hash)
    except ValueError as exc:
        rep.problems.append(f"seed: {exc} (commitment {table.seed_hash})")
        return rep
    events = store.events(table_id)
    rep.events = len(events)
    if events and events[0].kind == "table.opened":
        from .. import __version__
        rolled_with = (events[0].payload.get("software") or {}).get("tabletop_widgets")
        if rolled_with and rolled_with != __version__:
            rep.notes.append(f"the table was played with tabletop-widgets {rolled_with}, this is "
                             f"{__version__}: a check whose rules changed in between will not replay")
    system = None
    expected_roll = 0
    for n, e in enumerate(events, start=1):
        where = f"event seq={e.seq} version={e.version} ({e.kind})"
        if e.version != n:
            rep.problems.append(f"{where}: expected version {n}: an event is missing or out of order")
        if n == 1 and e.kind != "table.opened":
            rep.problems.append(f"{where}: the log does not start with table.opened")
        if e.kind == "table.opened" and e.payload.get("seed_hash") != table.seed_hash:
            rep.problems.append(f"{where}: published commitment differs from the table's")
        if e.kind == "table.closed" and e.payload.get("seed") != seed_hex:
            rep.problems.append(f"{where}: revealed seed differs from the table's")
        if e.kind not in ("roll", "check"):
            if e.roll is not None:
                rep.problems.append(f"{where}: carries roll index {e.roll} but is not a roll")
            continue
        rep.rolls += 1
        index = e.payload.get("index")
        if e.roll != expected_roll or index != e.roll:
            rep.problems.append(f"{where}: roll index {e.roll} (payload {index}), expected {expected_roll}")
        expected_roll = (e.roll if isinstance(e.roll, int) else expected_roll) + 1
        if not isinstance(index, int):
            continue
        rng = dice.rng_for(index)
        try:
            if e.kind == "roll":
                again = dice_roll(e.payload["expr"], rng=rng, variables=e.payload.get("variables"))
                want = _norm(again.to_json())
            else:
                if system is None:
                    system = system_for(table)
                if e.payload.get("system") != system.slug:
                    rep.problems.append(f"{where}: rolled with system {e.payload.get('system')!r}")
                    continue
                model = system.Character.from_dict(e.payload["character"])
                again = system.roll_check(model, e.payload["check_id"], rng=rng, **e.payload["options"])
                want = _norm(check_json(again))
        except Exception as exc:  # a tampered payload may not even parse
            rep.problems.append(f"{where}: cannot replay roll {index}: {type(exc).__name__}: {exc}")
            continue
        got = _norm(e.payload.get("result"))
        if got != want:
            diff = _first_diff(want, got)
            rep.problems.append(f"{where}: roll {index} does not match the seed ({diff})")
        else:
            rep.checked += 1
    return rep


def _first_diff(want: Any, got: Any, path: str = "result") -> str:
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            if want.get(k) != got.get(k):
                return _first_diff(want.get(k), got.get(k), f"{path}.{k}")
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (a, b) in enumerate(zip(want, got)):
            if a != b:
                return _first_diff(a, b, f"{path}[{i}]")
    return f"{path}: seed gives {want!r}, log has {got!r}"
