"""Replay a table's log and check every roll against the revealed fair-dice seed.

Dice rolls, named checks and initiative (``initiative`` events: ``system.roll_initiative`` re-run
on the recorded sheets with ``rng_for(seed, index)``) are re-rolled and compared; the tracker
states written in an initiative's transaction must show that outcome, and a tracker initiative
with no fair roll behind it is a problem."""
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
    from .rolling import replay_failed
    from .session import check_json, initiative_json, system_for

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
    last_initiative: dict | None = None   # the last initiative event, for its combat.state events
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
        if e.kind == "combat.state":
            if isinstance(last_initiative, dict) and e.version == last_initiative["next_version"]:
                # a tracker state written in the initiative's transaction must show that outcome
                last_initiative["next_version"] += 1
                for problem in _combat_matches(e, last_initiative["outcome"]):
                    rep.problems.append(f"{where}: {problem}")
            elif _combat_initiative(e) is not None:
                rep.problems.append(f"{where}: the tracker's initiative was not rolled with the table's "
                                    "fair dice (no initiative event in its transaction)")
            continue
        if e.kind not in ("roll", "check", "initiative", "roll.failed"):
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
        if e.kind == "roll.failed":   # spent its index: it must fail again with that stream
            problem = replay_failed(e.payload, rng, lambda: system_for(table))
            if problem:
                rep.problems.append(f"{where}: {problem}")
            else:
                rep.checked += 1
            continue
        try:
            if e.kind == "roll":
                again = dice_roll(e.payload["expr"], rng=rng, variables=e.payload.get("variables"))
                want = _norm(again.to_json())
            elif e.kind == "initiative":
                if system is None:
                    system = system_for(table)
                if e.payload.get("system") != system.slug:
                    rep.problems.append(f"{where}: rolled with system {e.payload.get('system')!r}")
                    continue
                chars = e.payload["characters"]
                if list(e.payload.get("ids") or []) != list(chars):
                    rep.problems.append(f"{where}: ids {e.payload.get('ids')!r} differ from the "
                                        f"characters rolled {list(chars)!r}")
                models = {cid: system.Character.from_dict(v) for cid, v in chars.items()}
                again = system.roll_initiative(models, rng=rng, **e.payload["options"])
                want = _norm(initiative_json(again))
                last_initiative = {"next_version": e.version + 1, "outcome": want}
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


def _combat_initiative(e) -> dict | None:
    """The Combat ``initiative`` event a GM's ``combat.state`` carries, if any."""
    st = e.payload.get("state") if isinstance(e.payload, dict) else None
    ev = st.get("event") if isinstance(st, dict) else None
    return ev if isinstance(ev, dict) and ev.get("type") == "initiative" else None


def _combat_matches(e, outcome: dict) -> list[str]:
    """Whether a ``combat.state`` written with an initiative roll shows that roll's outcome:
    the GM's copy carries the Combat event (keys, texts, tie-breaks of every combatant rolled);
    the players' projection shows the keys of the visible ones."""
    problems = []
    rolls = outcome.get("rolls") or {}
    st = e.payload.get("state") or {}
    ev = _combat_initiative(e)
    if ev is not None:
        got = ev.get("rolls") or {}
        if sorted(got) != sorted(rolls):
            problems.append(f"the tracker rolled {sorted(got)!r}, the fair dice {sorted(rolls)!r}")
        for cid in sorted(set(got) & set(rolls)):
            for part in ("key", "text"):
                if _norm(got[cid].get(part)) != rolls[cid].get(part):
                    problems.append(f"the tracker's initiative {part} of {cid!r} is "
                                    f"{got[cid].get(part)!r}, the seed gives {rolls[cid].get(part)!r}")
        if _norm(ev.get("tiebreaks") or []) != outcome.get("tiebreaks"):
            problems.append("the tracker's tie-breaks differ from the fair roll's")
        if set(ev.get("ids") or []) == set(ev.get("order") or []) and list(ev.get("order") or []) != outcome.get("order"):
            problems.append(f"the tracker's order {ev.get('order')!r} differs from the fair roll's "
                            f"{outcome.get('order')!r}")
    elif e.audience != "gm":
        for cid, d in (st.get("state", {}).get("combatants") or {}).items():
            init = d.get("initiative") if isinstance(d, dict) else None
            if cid in rolls and isinstance(init, dict) and init.get("text") != "?":
                if _norm(init.get("key")) != rolls[cid].get("key"):
                    problems.append(f"the players' tracker shows initiative {init.get('key')!r} for "
                                    f"{cid!r}, the seed gives {rolls[cid].get('key')!r}")
    return problems


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
