"""What :func:`.verify.verify_table` checks of blind rolls (:mod:`.kinds.blind`).

A blind roll's ``roll.blind.dice`` is a roll like any other (replayed with its index's stream).
Its ``roll.blind`` must name that roll (its index, its roller, its expression and label unless
the GM hid them), once. A ``roll.reveal`` must reveal a blind roll of this log, once, with the
dice that roll gave: the same as its ``roll.blind.dice`` and, rolled again from the revealed
expression and variables with the session's dice key, the same as the seed gives (what any seat
can check from the reveal alone, once the key is out).
"""

from __future__ import annotations

from typing import Any, Callable

from .events import norm
from .kinds import BLIND_DICE, BLIND_ROLL, ROLL_REVEAL
from .records import PackError, stored_form, unpack_result


class BlindChecks:
    """The blind rolls met so far in one verification, and the checks of each event."""

    def __init__(self) -> None:
        #: roll index -> (its roll.blind.dice payload, actor, the session it was rolled in)
        self.dice: dict[int, tuple[dict, str, int]] = {}
        #: roll.blind seq -> its payload and actor; and the seqs revealed
        self.made: dict[int, tuple[dict, str]] = {}
        self.named: set[int] = set()
        self.revealed: set[int] = set()

    def rolled(self, e, session: int) -> None:
        """A ``roll.blind.dice`` (a roll of session ``session``)."""
        if isinstance(e.roll, int):
            self.dice[e.roll] = (dict(e.payload), e.actor, session)

    def blind(self, e) -> list[str]:
        """A ``roll.blind``: it must name a blind roll of the same roller, once."""
        p = BLIND_ROLL.read(e.payload)
        got = self.dice.get(p.index) if isinstance(p.index, int) else None
        if got is None:
            return [f"tells of blind roll {p.index}, which the log does not hold"]
        dice, actor, _session = got
        problems = []
        if actor != e.actor:
            problems.append(f"tells of blind roll {p.index} as rolled by another seat")
        if p.index in self.named:
            problems.append(f"tells of blind roll {p.index} a second time")
        if not p.notation_hidden and (p.expr != dice.get("expr") or p.label != dice.get("label")):
            problems.append(f"tells of blind roll {p.index} as another expression than was rolled")
        self.named.add(p.index)
        self.made[e.seq] = (dict(e.payload), e.actor)
        return problems

    def reveal(self, e, dice_of: Callable[[int], Any]) -> tuple[list[str], bool]:
        """A ``roll.reveal``: ``(problems, checked against the seed)``; ``dice_of(session)`` is
        that session's fair dice, or None when its rolls are not checked now."""
        p = ROLL_REVEAL.read(e.payload)
        made = self.made.get(p.blind_seq) if isinstance(p.blind_seq, int) else None
        if made is None:
            return [f"reveals event {p.blind_seq}, which is not a blind roll of this log"], False
        if p.blind_seq in self.revealed:
            return [f"reveals blind roll {p.blind_seq} a second time"], False
        self.revealed.add(p.blind_seq)
        blind, roller = made
        rolled = self.dice.get(blind.get("index")) if p.index == blind.get("index") else None
        if rolled is None:
            return [f"reveals blind roll {p.blind_seq} with another roll index ({p.index})"], False
        dice, _actor, session = rolled
        if p.roller != roller or p.expr != dice.get("expr") or norm(p.variables) != norm(dice.get("variables")):
            return [f"reveals blind roll {p.blind_seq} as another roll than was made"], False
        if norm(p.result) != norm(dice.get("result")):
            return [f"reveals blind roll {p.blind_seq} with other dice than it rolled"], False
        fair = dice_of(session)
        if fair is None:
            return [], False
        from ..dice import roll as dice_roll

        try:
            again = dice_roll(p.expr, rng=fair.rng_for(p.index), variables=p.variables)
            want = norm(stored_form(again.to_json(), like=p.result))
            got = norm(unpack_result(p.result))
        except (PackError, ValueError, TypeError, KeyError, ArithmeticError) as exc:
            return [f"cannot roll revealed blind roll {p.index} again: {type(exc).__name__}"], False
        if want != got:
            return [f"revealed blind roll {p.index} does not match the seed"], False
        return [], True


__all__ = ["BlindChecks", "BLIND_DICE"]
