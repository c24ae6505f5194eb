"""One character, one state at a table (issue #19), without widgets: what the GM's combat and a
player's tracker copy hold after a sheet edit, on both store backends."""

from __future__ import annotations

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table
from tabletop_widgets.table.audience import combat_from_view
from tabletop_widgets.table.combat_sync import CombatSync, push_characters, record_sheet

RET = get_system("ret")


def _table(store):
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1")],
        characters={"c1": RET.Character(name="Aria").to_dict()},
    )
    return made


def _join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def _player_copy(session):
    """What a player's tracker holds: the players' projection, then the table's characters."""
    combat = combat_from_view(RET, session.state.combat)
    push_characters(session, combat)
    return combat


def test_a_players_rename_reaches_the_gms_combat_and_every_tracker(store_url, open_store_at):
    made = _table(open_store_at(store_url))
    gm = _join(open_store_at(store_url), made, "gm")
    bob = _join(open_store_at(store_url), made, "bob")
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Aria")
    sync.combat.add("ogre", RET.Character(name="Ogre"))
    bob.poll()
    assert _player_copy(bob).name("c1") == "Aria"

    # Bob renames his character on his sheet; a tracker copy holding the old character follows
    mine = _player_copy(bob)
    record_sheet(bob, "c1", dict(bob.state.characters["c1"], name="Aria the Bold"))
    push_characters(bob, mine)
    assert mine.name("c1") == "Aria the Bold"

    # the GM's kernel follows: its combat renames the combatant, and writes nothing (every copy
    # that holds the character's values follows the same way: issue 30)
    gm.poll()
    head = gm.store.head(made.table_id).version
    assert push_characters(gm, sync.combat)
    assert sync.combat.name("c1") == "Aria the Bold"
    assert gm.store.head(made.table_id).version == head
    bob.poll()
    assert _player_copy(bob).name("c1") == "Aria the Bold"
    # a new GM kernel replays the same combat
    assert CombatSync(_join(open_store_at(store_url), made, "gm")).combat.name("c1") == "Aria the Bold"


def test_a_gm_page_opens_after_a_player_renamed_their_character_with_no_gm_page_open(store_url, open_store_at):
    """Issue 30: a player who renamed their character while no GM page was open made every GM
    page fail to open (``RecursionError`` in ``CombatSync``, then ``AttributeError:
    combat_column``) until the name was changed back. Opening writes nothing now."""
    made = _table(open_store_at(store_url))
    gm = _join(open_store_at(store_url), made, "gm")
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Aria")
    sync.combat.add("ogre", RET.Character(name="Ogre"))
    gm.stop()
    bob = _join(open_store_at(store_url), made, "bob")
    record_sheet(bob, "c1", dict(bob.state.characters["c1"], name="Aria the Bold"))
    store = open_store_at(store_url)
    head = store.head(made.table_id).version
    for _ in range(2):  # every GM page that opens
        again = CombatSync(_join(open_store_at(store_url), made, "gm"))
        assert again.combat.name("c1") == "Aria the Bold" and again.combat.name("ogre") == "Ogre"
    assert store.head(made.table_id).version == head  # and nothing was written


def test_a_gm_health_edit_reaches_the_players_tracker(store_url, open_store_at):
    made = _table(open_store_at(store_url))
    gm = _join(open_store_at(store_url), made, "gm")
    bob = _join(open_store_at(store_url), made, "bob")
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Aria")
    bob.poll()
    full = _player_copy(bob).combatant("c1").health
    record_sheet(gm, "c1", dict(gm.state.characters["c1"], health=full[0] - 4))  # the GM's sheet
    bob.poll()
    assert _player_copy(bob).combatant("c1").health == (full[0] - 4, full[1])
    gm.poll()
    push_characters(gm, sync.combat)
    assert sync.combat.combatant("c1").health == (full[0] - 4, full[1])
