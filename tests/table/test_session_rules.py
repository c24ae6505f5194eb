"""Issue 18: the systems' rules at the start of a game session (``GameSystem.session_started``),
run by ``start_session`` in the same write and recorded as events: RET refills Luck (never
reducing it), Threads of Fate gives each hero the meeting's 2 Threads, Life and Death reminds the
GM of the surprises owed (a GM-only reminder, never on a player's page), Seasons does nothing."""

from __future__ import annotations

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core.system import GameSystem
from tabletop_widgets.table import SeatSpec, TableSession, create_table, verify_table
from tabletop_widgets.widgets.lobby import sample_character


def _campaign(store, slug, pc: dict, npc: dict | None = None):
    chars = {"pc": pc}
    if npc is not None:
        chars["npc"] = npc
    made = create_table(
        store,
        slug,
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "pc")],
        characters=chars,
        hidden_characters=["npc"] if npc is not None else [],
    )
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    bob = TableSession.join(store, made.table_id, made.tokens["bob"])
    return made, gm, bob


def _rules_updates(session, n):
    return [
        e
        for e in session.events()
        if e.kind == "character.update" and isinstance(e.payload.get("reason"), dict)
        if e.payload["reason"].get("session_rules") == n
    ]


def test_the_base_hook_does_nothing():
    assert GameSystem().session_started(object(), choices={}) is None


def test_ret_refills_luck_at_the_start_of_a_session(store):
    system = get_system("ret")
    pc = sample_character(system, "Aria").to_dict()
    npc = {**sample_character(system, "Goon").to_dict(), "luck": 1}
    made, gm, bob = _campaign(store, "ret", pc, npc)
    full = bob.state.characters["pc"]["luck"]
    bob.update_character("pc", {"luck": 1})  # spent in session 1
    gm.end_session()
    gm.start_session()
    bob.poll()
    assert bob.state.characters["pc"]["luck"] == full  # refilled to its maximum
    (mine,) = _rules_updates(bob, 2)  # the player sees their own refill, not the NPC's
    assert mine.payload["changes"] == {"luck": full} and mine.payload["reason"]["before"] == {"luck": 1}
    assert "Luck refilled" in mine.payload["reason"]["notes"][0]["en"]
    npc_refill = [e for e in _rules_updates(gm, 2) if e.payload["character_id"] == "npc"]
    assert npc_refill and npc_refill[0].audience == "gm"
    # Luck above its maximum is never reduced: no event for it
    bob.update_character("pc", {"luck": full + 3})
    gm.end_session()
    gm.start_session()
    bob.poll()
    assert bob.state.characters["pc"]["luck"] == full + 3
    assert not [e for e in _rules_updates(bob, 3) if e.payload["character_id"] == "pc"]
    gm.end_session()
    assert verify_table(store, made.table_id).ok


def test_threads_of_fate_heroes_start_each_meeting_with_two_threads(store):
    system = get_system("threads_of_fate")
    pc = {**sample_character(system, "Vera").to_dict(), "threads": 0}
    made, gm, bob = _campaign(store, "threads_of_fate", pc)
    gm.end_session()
    gm.start_session()
    bob.poll()
    assert bob.state.characters["pc"]["threads"] == 2
    (update,) = _rules_updates(bob, 2)
    assert update.payload["changes"]["threads"] == 2 and update.payload["reason"]["before"]["threads"] == 0


def test_life_and_death_reminds_the_gm_of_the_surprises_owed(store):
    system = get_system("life_and_death")
    pc = {**sample_character(system, "Miro").to_dict(), "surprises_pending": 1}
    made, gm, bob = _campaign(store, "life_and_death", pc)
    gm.end_session()
    started = gm.start_session()
    reminders = [e for e in gm.events() if e.kind == "session.reminder"]
    assert len(reminders) == 1 and reminders[0].audience == "gm" and reminders[0].version == started.version + 1
    assert (
        "owed 1 surprise this session" in gm.state.notes[-1]["text"] and "сюрпризы" in gm.state.notes[-1]["texts"]["ru"]
    )
    bob.poll()
    assert not [e for e in bob.events() if e.kind == "session.reminder"]
    assert not bob.state.notes
    assert bob.state.characters["pc"]["surprises_pending"] == 1  # the GM clears it when granted


@pytest.mark.parametrize("slug", ["seasons"])
def test_a_system_without_session_rules_writes_nothing_more(store, slug):
    system = get_system(slug)
    made, gm, bob = _campaign(store, slug, sample_character(system, "Lena").to_dict())
    gm.end_session()
    before = store.head(made.table_id).version
    gm.start_session()
    assert store.head(made.table_id).version == before + 1  # session.started only
