"""The game sessions of a campaign as seat actions: end tonight's session (its seed revealed),
start the next one, close the table for good; and what a seat reads of them.

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`).
"""

from __future__ import annotations

from typing import Any, Mapping

from .events import validate
from .store import AUDIENCE_ALL, Event, NewEvent, TableInfo, WriteTx


class CampaignActions:
    """End and start game sessions, close the table; the session's number and commitment."""

    # -- sessions and closing -------------------------------------------------------------------
    def end_session(self) -> Event:
        """GM: end tonight's game session. Its fair-dice seed is revealed in a
        ``session.ended`` event (then ``verify_table(store, table_id, session=n)`` checks it);
        until :meth:`start_session`, nothing is rolled. Characters, notes, options and seats
        stay. Returns the event. A player's or observer's seat gets ``PermissionDenied``; a
        session that has already ended, a :class:`~.rules.PlayError` saying so."""
        from .campaign import end_session_events, no_open_session

        self.begin_action("session.manage")
        if not self.state.session_open:
            raise no_open_session(self.state.session)

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("session.manage")
            return end_session_events(self, tx)

        return self.transact(make)[0]

    def start_session(self, *, options: Mapping[str, Any] | None = None) -> Event:
        """GM: open the next game session with a fresh secret seed; its commitment (the new
        :attr:`commitment`) goes to every seat in a ``session.started`` event. The system's
        session rules (``GameSystem.session_started``, with ``options``) run for every
        character in the same write. Characters enter it as the last session left them; seat
        links keep working. Returns the ``session.started`` event."""
        from .campaign import start_session_events, still_open
        from .fairdice import FairDice

        self.begin_action("session.manage")
        if self.state.session_open:
            raise still_open(self.state.session)
        dice = FairDice.new()
        opts = dict(options or {})

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("session.manage")
            return start_session_events(self, tx, dice, opts)

        return self.transact(make)[0]

    def close_table(self) -> TableInfo:
        """GM: close the campaign for good. Ends the open session (its seed is revealed), and
        nothing more is written (then anyone can ``verify``)."""
        self.begin_action("table.close")

        def make(tx: WriteTx) -> list[NewEvent]:
            # the seed of the session this closes: the open one, else the last one (revealed)
            seed = tx.secret_seed().hex() if tx.session.is_open else str(tx.session.seed)
            payload = validate("table.closed", {"seed": seed, "seed_hash": tx.session.seed_hash})
            return [NewEvent("table.closed", self.seat, payload, AUDIENCE_ALL)]

        self.transact(make, close=True)
        return self.table

    # -- trust: the chain head, the commitment, reissued links (issue 14) ----------------------
    @property
    def commitment(self) -> str:
        """The current game session's full dice commitment (sha256 of its secret seed, published
        when the session started; session 1's at the table's creation): a player copies it and
        passes it to ``verify --commitment`` after the session ends."""
        return self.state.commitment or self.table.seed_hash

    @property
    def session_number(self) -> int:
        """The current game session's number (1, 2, ...; the last one started)."""
        return self.state.session

    @property
    def session_open(self) -> bool:
        """Whether tonight's session is open (dice may be rolled)."""
        return self.state.session_open
