"""Issue 21: a GM page opening on a long log reads the snapshot and the events after it, never the
whole log (the combat tracker rebuilds from the GM's combat log kept in the state), and rebuilds
the same fight as a replay of the whole log would."""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop_widgets.table import NewEvent, TableSession, open_store
from tabletop_widgets.table.combat_sync import CombatSync
from tabletop_widgets.widgets.table_view import TableView

sys.path.insert(0, str(Path(__file__).parent))
from test_table_view import Table  # noqa: E402


class CountingStore:
    """A store whose ``events`` counts the events it hands out (everything else passes)."""

    def __init__(self, store):
        self._store = store
        self.read = 0

    def events(self, *args, **kwargs):
        got = self._store.events(*args, **kwargs)
        self.read += len(got)
        return got

    def __getattr__(self, name):
        return getattr(self._store, name)


def _fight(table: Table) -> None:
    gm = table.view("gm")
    gm.bring_into_combat("c1")
    gm.bring_into_combat("c2", hidden=True)
    gm.tracker.add_combatant(name="Goblin")
    gm.tracker.roll_initiative()
    for _ in range(3):
        gm.tracker.next_turn()
    gm.close()


def test_a_gm_page_on_a_long_log_reads_only_what_follows_its_snapshot(tmp_path):
    table = Table(tmp_path)
    try:
        _fight(table)
        with open_store(table.path) as store:
            store.append(
                table.made.table_id,
                [NewEvent("message", "p1", {"text": f"line {i}"}) for i in range(3000)],
            )
            TableSession.join(store, table.made.table_id, table.made.tokens["gm"])  # played along: a snapshot
            store.append(table.made.table_id, [NewEvent("message", "p2", {"text": f"late {i}"}) for i in range(20)])
        counting = CountingStore(open_store(table.path))
        table.stores.append(counting._store)
        view = TableView(
            TableSession.join(counting, table.made.table_id, table.made.tokens["gm"]), follow=False, animate=False
        )
        assert counting.read <= 20 + 5, counting.read  # the events after the snapshot, not 3,000
        assert view.roll_log.entries[-1].what["en"] == "late 19"
        # the same fight as a replay of the whole log: combatants, order, round, hidden flags
        fresh = view.sync.combat
        session = view.session
        session.state.combat_events = None  # as a state from an older snapshot: read the log
        from_log = CombatSync(session).combat
        assert fresh.events == from_log.events
        assert fresh.state() == from_log.state() and fresh.order == from_log.order
        assert fresh.combatant("c2").hidden
    finally:
        table.close()


def test_players_never_hold_the_gms_combat_log(tmp_path):
    table = Table(tmp_path)
    try:
        _fight(table)
        p1 = table.session("p1")
        assert p1.state.combat_events == []
        assert p1.snapshot().state["combat_events"] == []
        gm = table.session("gm")
        assert gm.state.combat_events and any(ev.get("hidden") for ev in gm.state.combat_events)
    finally:
        table.close()
