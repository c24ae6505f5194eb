"""Replay a table's log and check every roll against the revealed fair-dice seed.

First the hash chain (:mod:`.chain`): every event's stored hash must be the hash of the previous
one and its own content, so an edited, deleted, renumbered or reordered event breaks a link. A
rewrite that recomputes every later hash keeps the links but changes the head: a player who saved
the head (``TableSession.head``, shown on every seat) passes it as ``head=`` (CLI ``--head``) and
verify fails unless it is one of the chain's links; ``commitment=`` (``--commitment``) must be the
table's dice commitment.

Dice rolls, named checks and initiative (``initiative`` events: ``system.roll_initiative`` re-run
on the recorded sheets with ``rng_for(seed, index)``) are re-rolled and compared; the tracker
states written in an initiative's transaction must show that outcome, and a tracker initiative
with no fair roll behind it is a problem."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import chain
from .events import jsonable
from .fairdice import FairDice
from .records import PackError, stored_form, unpack_result
from .store import Store


@dataclass
class Report:
    table_id: str
    events: int = 0
    rolls: int = 0
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the table's dice commitment and the chain's last hash (the head every seat ends on)
    commitment: str = ""
    head: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        head = (
            f"table {self.table_id}: {self.events} events, {self.rolls} rolls, {self.checked} checked against the seed"
        )
        notes = "".join("\n  note: " + n for n in self.notes)
        hashes = (f"\n  dice commitment: {self.commitment}" if self.commitment else "") + (
            f"\n  head of the log: {self.head}" if self.head else ""
        )
        if self.ok:
            return head + ": OK" + hashes + notes
        return (
            head
            + f": {len(self.problems)} problem(s)"
            + hashes
            + notes
            + "\n"
            + "\n".join("  - " + p for p in self.problems)
        )


def _norm(x: Any) -> Any:
    import json

    return json.loads(json.dumps(jsonable(x), sort_keys=True))


def _saved_hash(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    if not chain.is_hash(text):
        raise ValueError(
            f"the {what} must be the full 64 hexadecimal digits you copied from the table page, not {str(value)[:80]!r}"
        )
    return text


def verify_table(
    store: Store,
    table_id: str,
    session=None,
    *,
    seed_hex: str | None = None,
    commitment: str | None = None,
    head: str | None = None,
) -> Report:
    """Check a table's log: the hash chain, then every roll against the seed.

    ``commitment`` and ``head`` are what a player saved from their seat (``session.commitment``
    and ``session.head``; a ``session`` passed here supplies both): verify fails unless the
    commitment is this table's and the head is one of the chain's links (so nothing before it
    was rewritten, and the log was not cut short before it). ``seed_hex`` is needed only while
    the table is open (an operator checking with the secret seed); a closed table's revealed seed
    is used otherwise. Raises ``ValueError`` when no seed is available or a saved hash is not a
    full hash."""
    from ..dice import roll as dice_roll
    from .rolling import replay_failed
    from .session import check_json, initiative_json, system_for

    if session is not None:
        commitment = session.commitment if commitment is None else commitment
        head = session.head if head is None else head
    commitment = _saved_hash(commitment, "dice commitment")
    head = _saved_hash(head, "head")
    table = store.get_table(table_id)
    rep = Report(table_id, commitment=table.seed_hash)
    seed_hex = seed_hex or table.seed
    if seed_hex is None:
        raise ValueError(f"table {table_id!r} is still open: its seed is revealed when the GM closes it")
    if commitment is not None and commitment != table.seed_hash.lower():
        rep.problems.append(
            f"the dice commitment you saved ({commitment}) is not this table's "
            f"({table.seed_hash}): this is not the table you played, or it was replaced"
        )
    try:
        dice = FairDice.revealed(seed_hex, table.seed_hash)
    except ValueError as exc:
        rep.problems.append(f"seed: {exc} (commitment {table.seed_hash})")
        return rep
    try:
        events = store.events(table_id)
    except ValueError as exc:  # a payload that is no longer JSON
        rep.problems.append(f"the log cannot be read (edited or damaged): {exc}")
        return rep
    rep.events = len(events)
    links = _check_chain(table_id, table.seed_hash, events, rep)
    rep.head = events[-1].hash if events else ""
    if table.is_closed and (not events or events[-1].kind != "table.closed"):
        rep.problems.append(
            "the table is closed but its log does not end with table.closed: the end of the log was cut off"
        )
    if head is not None and head not in links:
        rep.problems.append(
            f"the head you saved ({head}) is not in this log: events up to it were "
            "rewritten, or the log was cut short after it"
        )
    if events and events[0].kind == "table.opened":
        from .. import __version__

        rolled_with = (events[0].payload.get("software") or {}).get("tabletop_widgets")
        if rolled_with and rolled_with != __version__:
            rep.notes.append(
                f"the table was played with tabletop-widgets {rolled_with}, this is "
                f"{__version__}: a check whose rules changed in between will not replay"
            )
    system = None
    expected_roll = 0
    last_initiative: dict | None = None  # the last initiative event, for its combat.state events
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
                rep.problems.append(
                    f"{where}: the tracker's initiative was not rolled with the table's "
                    "fair dice (no initiative event in its transaction)"
                )
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
        if e.kind == "roll.failed":  # spent its index: it must fail again with that stream
            problem = replay_failed(e.payload, rng, lambda: system_for(table))
            if problem:
                rep.problems.append(f"{where}: {problem}")
            else:
                rep.checked += 1
            continue
        try:
            if e.kind == "roll":
                again = dice_roll(e.payload["expr"], rng=rng, variables=e.payload.get("variables"))
                # a big roll is stored packed: compare die by die, as the table stores it
                want = _norm(stored_form(again.to_json(), like=e.payload.get("result")))
            elif e.kind == "initiative":
                if system is None:
                    system = system_for(table)
                if e.payload.get("system") != system.slug:
                    rep.problems.append(f"{where}: rolled with system {e.payload.get('system')!r}")
                    continue
                chars = e.payload["characters"]
                if list(e.payload.get("ids") or []) != list(chars):
                    rep.problems.append(
                        f"{where}: ids {e.payload.get('ids')!r} differ from the characters rolled {list(chars)!r}"
                    )
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
        try:
            got = _norm(unpack_result(e.payload.get("result")))
        except PackError as exc:
            rep.problems.append(f"{where}: the dice of roll {index} cannot be read (edited or damaged): {exc}")
            continue
        if got != want:
            diff = _first_diff(want, got)
            rep.problems.append(f"{where}: roll {index} does not match the seed ({diff})")
        else:
            rep.checked += 1
    return rep


def _check_chain(table_id: str, seed_hash: str, events, rep: Report) -> set[str]:
    """Recompute every link; report each event whose stored hash is not the hash of the previous
    one and its own content. Returns the hashes that check out (a saved head must be one)."""
    prev = chain.genesis(table_id, seed_hash)
    good: set[str] = set()
    intact = True
    for e in events:
        want = chain.hash_of(prev, e)
        if e.hash != want:
            where = f"event seq={e.seq} version={e.version} ({e.kind})"
            if not e.hash:
                rep.problems.append(f"{where}: has no chain hash")
            else:
                rep.problems.append(
                    f"{where}: its chain hash does not match its content and the "
                    "event before it: the log was edited, or an event removed, "
                    "renumbered or moved, here"
                )
            intact = False
        elif intact:
            good.add(want)
        prev = e.hash or want
    return good


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
                    problems.append(
                        f"the tracker's initiative {part} of {cid!r} is "
                        f"{got[cid].get(part)!r}, the seed gives {rolls[cid].get(part)!r}"
                    )
        if _norm(ev.get("tiebreaks") or []) != outcome.get("tiebreaks"):
            problems.append("the tracker's tie-breaks differ from the fair roll's")
        if set(ev.get("ids") or []) == set(ev.get("order") or []) and list(ev.get("order") or []) != outcome.get(
            "order"
        ):
            problems.append(
                f"the tracker's order {ev.get('order')!r} differs from the fair roll's {outcome.get('order')!r}"
            )
    elif e.audience != "gm":
        for cid, d in (st.get("state", {}).get("combatants") or {}).items():
            init = d.get("initiative") if isinstance(d, dict) else None
            if cid in rolls and isinstance(init, dict) and init.get("text") != "?":
                if _norm(init.get("key")) != rolls[cid].get("key"):
                    problems.append(
                        f"the players' tracker shows initiative {init.get('key')!r} for "
                        f"{cid!r}, the seed gives {rolls[cid].get('key')!r}"
                    )
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
