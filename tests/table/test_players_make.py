"""Who makes a character in creation at a shared table (issue #17): the GM's table option
``players_build`` (a ``table.option`` event, allowed by default) lets players make their own
characters; while it is off, the table refuses a player's edit or finishing of a character in
creation, naming the GM, and writes nothing. Checked in Python, whatever the browser sends."""

from __future__ import annotations

import pytest

from tabletop_widgets.table.rules import PlayDenied
from tabletop_widgets.table.seats import TABLE_OPTIONS, set_table_option, table_option

from .test_phases import join, table


def test_players_make_their_characters_by_default(store):
    assert TABLE_OPTIONS["players_build"] is True
    made = table(store)
    bob = join(store, made, "bob")
    assert table_option(bob, "players_build") is True
    bob.update_character("c_bob", {"concept": "Medic"}, reason="sheet")
    bob.finish_character("c_bob")
    assert join(store, made, "gm").state.characters["c_bob"]["phase"] == "play"


def test_when_the_gm_prepares_the_characters_a_players_edit_is_refused(store):
    made = table(store)
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    event = set_table_option(gm, "players_build", False)
    assert event.kind == "table.option" and event.payload == {"name": "players_build", "value": False}
    bob.poll()
    before = len(store.events(made.table_id))
    with pytest.raises(PlayDenied) as err:
        bob.update_character("c_bob", {"concept": "Medic"}, reason="sheet")
    assert err.value.code == "players_make"
    assert "GM" in err.value.text("en") and "мастер" in err.value.text("ru")  # RET's word for the GM
    with pytest.raises(PlayDenied):
        bob.set_character("c_bob", {**bob.state.characters["c_bob"], "concept": "Medic"})
    with pytest.raises(PlayDenied):
        bob.finish_character("c_bob")
    assert len(store.events(made.table_id)) == before  # nothing written
    assert rebuild_state(store, made).characters["c_bob"]["phase"] == "creation"

    # the GM still edits and finishes it; then the player plays it as usual
    gm.update_character("c_bob", {"concept": "Medic"}, reason="sheet")
    gm.finish_character("c_bob")
    bob.poll()
    bob.update_character("c_bob", {"notes": "A field medic"}, reason="sheet")
    assert rebuild_state(store, made).characters["c_bob"]["notes"] == "A field medic"

    # the GM allows it again: the next character in creation is the player's to make
    set_table_option(gm, "players_build", True)
    ann = join(store, made, "ann")
    ann.update_character("c_ann", {"concept": "Scout"}, reason="sheet")


def rebuild_state(store, made):
    from tabletop_widgets.table.session import rebuild

    return rebuild(store, made.table_id)
