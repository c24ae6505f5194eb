"""Replay a table's log and check every roll against its game session's revealed seed.

A campaign's log tells its sessions (:mod:`.campaign`): session 1 from ``table.opened``, each
next one from its ``session.started`` (its commitment and first roll index), each ending with
``session.ended`` (its revealed seed and how many rolls it had) or ``table.closed``. A roll's
stream is ``rng_for(seed of its session, index)``; a roll outside every session is a problem.
``verify_table(store, table_id, session=n)`` checks the chain up to the end of session ``n``
and that session's rolls; without ``session``, the whole chain and every ended session's rolls.

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
from .events import norm
from .fairdice import FairDice
from .kinds import BLIND_DICE, BLIND_ROLL, CHARACTER_UPDATE, CHECK, CHECK_AFTER, COMBAT_STATE, KINDS, ROLL_REVEAL
from .kinds import TABLE_OPENED
from .kinds.dice import Replayed, check_json
from .records import PackError, unpack_result
from .state import TableState
from .store import Store
from .verify_blind import BlindChecks
from .verify_combat import attack_matches, combat_event, combat_matches


@dataclass
class Report:
    table_id: str
    events: int = 0
    rolls: int = 0
    checked: int = 0
    #: blind rolls' reveals checked against the seed (:mod:`.verify_blind`)
    reveals: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the dice commitment (the session's when one session was verified, else session 1's, which
    #: the chain starts from) and the chain's last hash in what was checked
    commitment: str = ""
    head: str = ""
    #: the game sessions whose rolls were checked, and every session's commitment
    sessions: list[int] = field(default_factory=list)
    commitments: dict[int, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        which = ""
        if self.sessions:
            which = (" session " if len(self.sessions) == 1 else " sessions ") + ", ".join(map(str, self.sessions))
        head = (
            f"table {self.table_id}{which}: {self.events} events, {self.rolls} rolls, "
            f"{self.checked} checked against the seed"
        ) + (f", {self.reveals} revealed blind roll(s) checked" if self.reveals else "")
        notes = "".join("\n  note: " + n for n in self.notes)
        hashes = (f"\n  dice commitment: {self.commitment}" if self.commitment else "") + (
            f"\n  head of the log: {self.head}" if self.head else ""
        )
        if len(self.commitments) > 1:
            hashes += "".join(f"\n  session {n} commitment: {c}" for n, c in sorted(self.commitments.items()))
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


def _saved_hash(value: str | None, what: str) -> str | None:
    if value is None:
        return None
    text = str(value).strip().lower()
    if not chain.is_hash(text):
        raise ValueError(
            f"the {what} must be the full 64 hexadecimal digits you copied from the table page, not {str(value)[:80]!r}"
        )
    return text


@dataclass
class _Session:
    """A game session as the log tells it."""

    n: int
    commitment: str
    first_roll: int
    start: int  # index (in the log) of its first event
    end: int | None = None  # index of the event that ended it (session.ended or table.closed)
    seed: str | None = None  # revealed in the log
    claimed_rolls: int | None = None
    claimed_first: int | None = None


def sessions_of(table, events, rep: Report) -> list[_Session]:
    """The sessions the log tells of, with the problems of its session events."""
    first = events[0].payload.get("seed_hash") if events and events[0].kind == "table.opened" else None
    out = [_Session(1, str(first or table.seed_hash), 0, 0)]
    next_roll = 0
    for i, e in enumerate(events):
        where = f"event seq={e.seq} version={e.version} ({e.kind})"
        cur = out[-1]
        if e.roll is not None and isinstance(e.roll, int):
            next_roll = e.roll + 1
        if e.kind == "session.ended":
            p = e.payload
            if cur.end is not None:
                rep.problems.append(f"{where}: ends session {p.get('session')} but no session is open")
                continue
            if p.get("session") != cur.n:
                rep.problems.append(f"{where}: ends session {p.get('session')}, the open one is {cur.n}")
            if p.get("seed_hash") != cur.commitment:
                rep.problems.append(f"{where}: commitment differs from the one session {cur.n} started with")
            cur.end, cur.seed = i, p.get("seed")
            cur.claimed_rolls, cur.claimed_first = p.get("rolls"), p.get("first_roll")
        elif e.kind == "table.closed":
            if cur.end is None:
                cur.end, cur.seed = i, e.payload.get("seed")
            elif e.payload.get("seed") != cur.seed:
                rep.problems.append(f"{where}: revealed seed differs from session {cur.n}'s")
            if e.payload.get("seed_hash") != cur.commitment:
                rep.problems.append(f"{where}: published commitment differs from session {cur.n}'s")
        elif e.kind == "session.started":
            p = e.payload
            if cur.end is None:
                rep.problems.append(f"{where}: starts a session while session {cur.n} is open")
            if p.get("session") != cur.n + 1:
                rep.problems.append(f"{where}: starts session {p.get('session')} after session {cur.n}")
            if p.get("first_roll") != next_roll:
                rep.problems.append(
                    f"{where}: says the session's first roll is number {p.get('first_roll')}, the log is at {next_roll}"
                )
            out.append(_Session(cur.n + 1, str(p.get("seed_hash")), next_roll, i))
    return out


def verify_table(
    store: Store,
    table_id: str,
    session=None,
    *,
    seed_hex: str | None = None,
    commitment: str | None = None,
    head: str | None = None,
    seat=None,
) -> Report:
    """Check a table's log: the hash chain, then every roll against its session's seed.

    ``session``: the game session to verify (numbered from 1): the chain from the table's start
    to that session's end, and that session's rolls. Without it, every session that has ended:
    the whole chain, and the rolls of each ended session. (A :class:`TableSession` passed as
    ``session``, or as ``seat``, supplies ``commitment`` and ``head``, as before campaigns.)

    ``commitment`` and ``head`` are what a player saved from their seat (``session.commitment``
    and ``session.head``): verify fails unless the commitment is the verified session's (any
    session's, without ``session``) and the head is one of the checked chain's links (so nothing
    before it was rewritten, and the log was not cut short before it). ``seed_hex`` is needed
    only for a session still open (an operator checking with the secret seed); an ended
    session's revealed seed is used otherwise. Raises ``ValueError`` when there is no such
    session, no seed is available, or a saved hash is not a full hash."""
    number, commitment, head = _saved_hashes(session, seat, commitment, head)
    table = store.get_table(table_id)
    rep = Report(table_id, commitment=table.seed_hash)
    try:
        events = store.events(table_id)
    except ValueError as exc:  # a payload that is no longer JSON
        rep.problems.append(f"the log cannot be read (edited or damaged): {exc}")
        return rep
    run = _Verification(store, table, events, rep, seed_hex)
    run.choose_sessions(number)
    if not run.reveal_seeds():
        return rep
    run.check_saved_commitment(commitment, number)
    run.check_chain(number, head)
    run.check_rolls()
    run.check_claimed_rolls()
    return rep


def _saved_hashes(session, seat, commitment: str | None, head: str | None) -> tuple[int | None, str | None, str | None]:
    """The session number to verify, and the commitment and head a player saved (taken from a
    :class:`TableSession` passed as ``session`` or ``seat`` unless given), checked as full hashes."""
    number: int | None = None
    if isinstance(session, int) and not isinstance(session, bool):
        number = session
    elif session is not None:
        seat = session
    if seat is not None:
        commitment = seat.commitment if commitment is None else commitment
        head = seat.head if head is None else head
    return number, _saved_hash(commitment, "dice commitment"), _saved_hash(head, "head")


class _Verification:
    """One run of :func:`verify_table`: the table's log and sessions, and the report it fills,
    step by step."""

    def __init__(self, store: Store, table, events, rep: Report, seed_hex: str | None):
        self.table, self.events, self.rep, self.seed_hex = table, events, rep, seed_hex
        self.told = sessions_of(table, events, rep)
        rep.commitments = {s.n: s.commitment for s in self.told}
        self.by_n = {s.n: s for s in self.told}
        self.stored = {s.n: s for s in store.sessions(table.table_id)}
        # a session the store holds as ended (its seed revealed) whose end the log lacks: checked
        # with the store's seed, and the missing end is a problem
        self.cut = {
            s.n
            for s in self.told
            if s.end is None
            and ((s.n in self.stored and not self.stored[s.n].is_open) or (table.is_closed and s is self.told[-1]))
        }
        self.targets: list[_Session] = []
        self.dice: dict[int, FairDice] = {}
        self._system = None
        # the walk over the events: the next roll index, each session's rolls, and the last
        # fair roll whose transaction may hold tracker states (see _check_combat_state)
        self.expected_roll = 0
        self.rolls_in: dict[int, list[int]] = {}
        self.last_initiative: dict | None = None
        # the GM's view folded as the walk goes (a change after the roll is worked out on the
        # character as it was then), each check by its roll index, and what an event owes the
        # next one (a change after the roll's spending)
        self.state = TableState(table.table_id)
        self.checks: dict[int, dict] = {}
        self.owed: tuple[str, dict, str] | None = None
        self.blind = BlindChecks()
        self._where = ""

    def ended(self, s: _Session) -> bool:
        return s.end is not None or s.n in self.cut

    # -- which sessions, with which seeds -------------------------------------------------------
    def choose_sessions(self, number: int | None) -> None:
        """The sessions whose rolls are checked: ``number``, or every ended one (and the open
        one when the operator gives its seed). Raises ``ValueError`` for no such session or no
        seed to check with."""
        table_id, told, rep = self.table.table_id, self.told, self.rep
        if number is not None:
            if number not in self.by_n:
                raise ValueError(
                    f"table {table_id!r} has no session {number} (its sessions are 1 to {told[-1].n})"
                    if number >= 1
                    else f"sessions are numbered from 1, not {number}"
                )
            self.targets = [self.by_n[number]]
            if not self.ended(self.targets[0]) and self.seed_hex is None:
                raise ValueError(
                    f"session {number} of table {table_id!r} is still open: its seed is revealed when the GM ends it"
                )
            rep.commitment = self.targets[0].commitment
        else:
            self.targets = [s for s in told if self.ended(s)]
            if not self.targets and self.seed_hex is None:
                raise ValueError(
                    f"table {table_id!r} is still open: the seed of session {told[-1].n} is revealed "
                    "when the GM ends the session"
                )
            if self.seed_hex is not None and not self.ended(told[-1]):
                self.targets.append(told[-1])
        rep.sessions = [s.n for s in self.targets]
        for n in sorted(self.cut & set(rep.sessions)):
            if not self.table.is_closed:
                rep.problems.append(
                    f"the store says session {n} has ended, but the log has no end for it: "
                    "the end of the log was cut off"
                )

    def _seed_copies(self, s: _Session) -> list[tuple[str, str | None]]:
        """Every copy of a session's seed: the open session's from the operator, an ended one's
        as the store and the log reveal it."""
        if not self.ended(s):
            return [("the seed given", self.seed_hex)]
        copies = []
        row = self.stored.get(s.n)
        if row is not None and row.seed is not None:
            copies.append(("the store's seed", row.seed))
        if s.n == 1 and self.table.seed is not None:
            copies.append(("the table's seed", self.table.seed))
        if s.seed is not None:
            copies.append(("the seed in the log", s.seed))
        return copies

    def reveal_seeds(self) -> bool:
        """The fair dice of every checked session: every copy of its seed must match the
        commitment the session started with. False (reported) when one does not, or none is
        known: then nothing more is checked."""
        rep = self.rep
        for s in self.targets:
            copies = self._seed_copies(s)
            row = self.stored.get(s.n)
            if row is not None and row.seed_hash != s.commitment:
                rep.problems.append(
                    f"session {s.n}: the store's commitment ({row.seed_hash}) is not the one published in the log "
                    f"({s.commitment})"
                )
            for what, seed in copies:
                try:
                    fd = FairDice.revealed(str(seed), s.commitment)
                except ValueError as exc:
                    rep.problems.append(f"session {s.n}, {what}: {exc} (commitment {s.commitment})")
                    return False
                self.dice.setdefault(s.n, fd)
            if s.n not in self.dice:
                rep.problems.append(f"session {s.n}: its seed was never revealed")
                return False
        return True

    def check_saved_commitment(self, commitment: str | None, number: int | None) -> None:
        """The dice commitment a player saved must be the verified session's (any session's,
        without ``number``)."""
        if commitment is None:
            return
        allowed = {self.targets[0].commitment} if number is not None else {s.commitment for s in self.told}
        if commitment not in {c.lower() for c in allowed}:
            self.rep.problems.append(
                f"the dice commitment you saved ({commitment}) is not "
                + (f"session {number}'s ({self.targets[0].commitment})" if number is not None else "this table's")
                + ": this is not the table you played, or it was replaced"
            )

    # -- the chain ------------------------------------------------------------------------------
    def check_chain(self, number: int | None, head: str | None) -> None:
        """The chain from the start to the end of the verified session (all of it for every
        session): its links, its end, the head a player saved; and a note when the table was
        played with another version of the software."""
        rep, table = self.rep, self.table
        upto = len(self.events)
        if number is not None and self.targets[0].end is not None:
            upto = self.targets[0].end + 1
        events = self.events = self.events[:upto]
        rep.events = len(events)
        links = _check_chain(table.table_id, table.seed_hash, events, rep)
        rep.head = events[-1].hash if events else ""
        if number is None and table.is_closed and (not events or events[-1].kind != "table.closed"):
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

    # -- the events, one by one -----------------------------------------------------------------
    def check_rolls(self) -> None:
        """Every event in order: versions, the tracker's states, roll indices, and every roll of
        a checked session replayed with its seed."""
        owner: list[_Session | None] = []  # which session each event belongs to (None: between)
        for i in range(len(self.events)):
            inside = [s for s in self.told if s.start <= i and (s.end is None or i <= s.end)]
            owner.append(inside[-1] if inside else None)
        wanted = {s.n for s in self.targets}
        for n, e in enumerate(self.events, start=1):
            self._check_event(n, e, owner[n - 1] if n - 1 < len(owner) else None, wanted)

    def _check_event(self, n: int, e, sess: _Session | None, wanted: set[int]) -> None:
        rep = self.rep
        where = self._where = f"event seq={e.seq} version={e.version} ({_plain(e.kind)})"
        if e.version != n:
            rep.problems.append(f"{where}: expected version {n}: an event is missing or out of order")
        if n == 1 and e.kind != TABLE_OPENED.name:
            rep.problems.append(f"{where}: the log does not start with table.opened")
        if e.kind == TABLE_OPENED.name and e.payload.get("seed_hash") != self.table.seed_hash:
            rep.problems.append(f"{where}: published commitment differs from the table's")
        self._check_owed(e, where)
        try:
            self._check_kind(e, where, sess, wanted)
        finally:
            self.state.apply(e)

    def _check_kind(self, e, where: str, sess: _Session | None, wanted: set[int]) -> None:
        rep = self.rep
        kind = KINDS.get(e.kind)
        if kind is None:
            rep.problems.append(f"{where}: an event of a kind this software does not know")
            return
        if kind is COMBAT_STATE:
            self._check_combat_state(e, where)
            return
        if kind is CHECK_AFTER:
            self._check_after(e, where, sess, wanted)
            return
        if kind in (BLIND_ROLL, ROLL_REVEAL) and e.roll is None:
            if kind is BLIND_ROLL:
                problems, checked = self.blind.blind(e), False
            else:
                problems, checked = self.blind.reveal(e, lambda n: self.dice.get(n) if n in wanted else None)
            rep.problems.extend(f"{where}: {_plain(p)}" for p in problems)
            rep.reveals += int(checked)
            return
        if not kind.rolls:
            if e.roll is not None:
                rep.problems.append(f"{where}: carries roll index {e.roll} but is not a roll")
            return
        index = e.payload.get("index")
        if e.roll != self.expected_roll or index != e.roll:
            rep.problems.append(
                f"{where}: roll index {e.roll} (payload {_plain(index)}), expected {self.expected_roll}"
            )
        self.expected_roll = (e.roll if isinstance(e.roll, int) else self.expected_roll) + 1
        if sess is None:
            rep.problems.append(f"{where}: rolled between game sessions (no session was open)")
            return
        self.rolls_in.setdefault(sess.n, []).append(e.roll if isinstance(e.roll, int) else -1)
        if kind is CHECK and isinstance(index, int):
            self.checks[index] = dict(e.payload)
        if kind is BLIND_DICE:
            self.blind.rolled(e, sess.n)
        if sess.n not in wanted:
            if getattr(kind, "tracker", None):  # its tracker states: a session not checked now
                self.last_initiative = {"next_version": e.version + 1, "outcome": None}
            return
        rep.rolls += 1
        if isinstance(index, int):
            self._check_roll(kind, e, where, index, self.dice[sess.n].rng_for(index))

    # -- a check changed after the roll ---------------------------------------------------------
    def _check_after(self, e, where: str, sess: _Session | None, wanted: set[int]) -> None:
        """A ``check.after`` is worked out again: the check it changes (by its roll index) rolled
        again with that index's stream, read again by the system's ``after_roll`` with the
        recorded options on the character as it was then; the result must be the recorded one,
        and the event right after it must spend what it cost (its ``character.update``)."""
        rep = self.rep
        p = CHECK_AFTER.read(e.payload)
        check = self.checks.get(p.index) if isinstance(p.index, int) else None
        if check is None or check.get("character_id") != p.character_id:
            rep.problems.append(
                f"{where}: changes check {_plain(p.index)}, which is not a check of that character here"
            )
            return
        if sess is None or sess.n not in wanted or sess.n not in self.dice:
            return
        character = p.character if isinstance(p.character, dict) else self.state.characters.get(p.character_id)
        if not isinstance(character, dict):
            rep.problems.append(f"{where}: the character it changes is not in the log")
            return
        system = self._system_of(e, where)
        if system is None:
            return
        try:
            rng = self.dice[sess.n].rng_for(p.index)
            _again, result = CHECK_AFTER.worked_out(system, check, character, p.options or {}, rng)
        except Exception as exc:  # a tampered payload may not even parse
            rep.problems.append(f"{where}: cannot work out the change after check {p.index}: {_plain(exc)}")
            return
        want = norm(check_json(result))
        if want != norm(p.result):
            diff = _first_diff(want, norm(p.result))
            rep.problems.append(
                f"{where}: the change after check {p.index} is not what the rules give ({_plain(diff)})"
            )
            return
        rep.checked += 1
        if result.effects:
            model = system.Character.from_dict(character)
            changes = system.apply_effects(model, result.effects)
            owed = {k: norm(v[1]) for k, v in changes.items()}
            self.owed = (p.character_id, owed, f"the change after check {p.index}")

    def _check_owed(self, e, where: str) -> None:
        """What the event before this one owed (a change after the roll's spending) must be this
        event: a ``character.update`` of that character with those values."""
        if self.owed is None:
            return
        cid, owed, what = self.owed
        self.owed = None
        got = CHARACTER_UPDATE.read(e.payload) if e.kind == CHARACTER_UPDATE.name else None
        if got is None or got.character_id != cid or {k: norm(v) for k, v in (got.changes or {}).items()} != owed:
            self.rep.problems.append(f"{where}: {what} spends {_plain(owed)} but the log does not record it")

    def _check_combat_state(self, e, where: str) -> None:
        """A tracker state written in an initiative's (attack's) transaction must show that
        outcome; a tracker initiative or attack needs its own fair roll."""
        last = self.last_initiative
        rolled_attack = isinstance(last, dict) and last.get("attack") is not None
        if isinstance(last, dict) and e.version == last["next_version"] and (not rolled_attack or last["left"] > 0):
            last["next_version"] += 1
            if rolled_attack:
                # the players' state (when it changed), then the GM's, which ends the
                # transaction and carries the attack
                last["left"] = 0 if e.audience == "gm" else last["left"] - 1
                problems = attack_matches(e, last["attack"])
            elif combat_event(e, "attack") is not None:
                problems = [
                    "the tracker's attack was not rolled with the table's fair dice (no attack event in its transaction)"
                ]
            elif last["outcome"] is not None:
                problems = combat_matches(e, last["outcome"])
            else:
                problems = []
        elif combat_event(e, "initiative") is not None:
            problems = [
                "the tracker's initiative was not rolled with the table's "
                "fair dice (no initiative event in its transaction)"
            ]
        elif combat_event(e, "attack") is not None:
            problems = [
                "the tracker's attack was not rolled with the table's fair dice (no attack event in its transaction)"
            ]
        else:
            problems = []
        self.rep.problems.extend(f"{where}: {problem}" for problem in problems)

    def _check_roll(self, kind, e, where: str, index: int, rng) -> None:
        """Replay one roll with its stream (its kind's ``replay``) and compare it with what the
        log holds."""
        rep = self.rep
        if "system" in kind.Payload.fields() and self._system_of(e, where) is None:
            return  # rolled with the rules of another system: said so
        try:
            want = kind.replay(kind.read(e.payload), rng, self)
        except Exception as exc:  # a tampered payload may not even parse
            rep.problems.append(f"{where}: cannot replay roll {index}: {_plain(exc)}")
            return
        tracker = getattr(kind, "tracker", None)
        if tracker is not None:
            self.last_initiative = {"next_version": e.version + 1, "outcome": None}
            if tracker == "initiative":
                self.last_initiative["outcome"] = want
            elif tracker == "attack":
                self.last_initiative.update(attack=want, left=2)
        if isinstance(want, Replayed):
            rep.problems.extend(f"{where}: roll {index}: {_plain(p)}" for p in want.problems)
            rep.checked += 0 if want.problems else 1
            return
        try:
            got = norm(unpack_result(e.payload.get("result")))
        except PackError as exc:
            rep.problems.append(f"{where}: the dice of roll {index} cannot be read (edited or damaged): {_plain(exc)}")
            return
        if got != want:
            rep.problems.append(f"{where}: roll {index} does not match the seed ({_plain(_first_diff(want, got))})")
        else:
            rep.checked += 1

    # -- what a kind's replay asks of the verification --------------------------------------------
    @property
    def system(self):
        """The table's system with its rule options (the checks, attacks and turns rolled with it)."""
        from .session import system_for

        if self._system is None:
            self._system = system_for(self.table)
        return self._system

    def problem(self, text: str) -> None:
        """A problem a replay found on the way (reported at the event it replays)."""
        self.rep.problems.append(f"{self._where}: {_plain(text)}")

    def _system_of(self, e, where: str):
        """The table's system, or None (reported) when the event was rolled with another."""
        if e.payload.get("system") != self.system.slug:
            self.rep.problems.append(f"{where}: rolled with system {_plain(repr(e.payload.get('system')))}")
            return None
        return self.system

    def check_claimed_rolls(self) -> None:
        """What each ended session said of its rolls: the indices it used, no more, no fewer."""
        for s in self.targets:
            if s.claimed_rolls is None:
                continue
            got = self.rolls_in.get(s.n, [])
            if s.claimed_first != s.first_roll or s.claimed_rolls != len(got):
                self.rep.problems.append(
                    f"session {s.n}: its end says {s.claimed_rolls} roll(s) from number {s.claimed_first}, "
                    f"the log has {len(got)} from number {s.first_roll}"
                )


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


def _plain(value) -> str:
    """A value from the log as a problem may quote it: no control characters (a hostile store's
    terminal escapes never reach the reader), at most 200 characters."""
    if isinstance(value, Exception):
        value = f"{type(value).__name__}: {value}"
    text = "".join(ch if ch.isprintable() else "?" for ch in str(value))
    return text if len(text) <= 200 else text[:199] + "…"
