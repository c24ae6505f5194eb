"""Finishing a character at a shared table (issue #17): a seat action recorded as an event,
checked in Python as if the browser were hostile. The GM may finish any character, a player
their own; a refusal lists the creation problems and writes nothing; no edit moves a phase by
itself; once a character is in play a player no longer changes what only creation sets (the GM
still may). Old stored characters without a phase load in creation, and the phase survives a
replay in another kernel and a campaign backup."""

from __future__ import annotations

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core import RuleError
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, verify_table
from tabletop_widgets.table.backup import backup_campaign, restore_campaign
from tabletop_widgets.table.rules import PlayDenied
from tabletop_widgets.table.session import rebuild

from characters import legal_ret

RET = get_system("ret")


def ret_sheet(**kw) -> dict:
    return legal_ret(**kw).to_dict()


def table(store, characters=None, slug="ret", hidden=()):
    characters = characters or {"c_bob": ret_sheet(), "c_ann": ret_sheet(name="Ann"), "npc": ret_sheet(name="Grim")}
    return create_table(
        store,
        slug,
        [
            SeatSpec("gm", "gm", "Gina"),
            SeatSpec("bob", "player", "Bob", "c_bob"),
            SeatSpec("ann", "player", "Ann", "c_ann" if "c_ann" in characters else None),
            SeatSpec("eve", "observer", "Eve"),
        ],
        characters=characters,
        hidden_characters=list(hidden),
        validate_characters=False,
    )


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def test_a_player_finishes_their_own_character(store):
    made = table(store)
    bob = join(store, made, "bob")
    event = bob.finish_character("c_bob")
    assert event.kind == "character.update"
    assert event.payload["changes"] == {"phase": "play"} and event.payload["reason"] == "finish"
    assert bob.state.characters["c_bob"]["phase"] == "play"
    gm = join(store, made, "gm")  # another kernel replays the log
    assert gm.state.characters["c_bob"]["phase"] == "play"
    assert gm.state.characters["c_ann"]["phase"] == "creation"
    gm.end_session()
    assert verify_table(store, made.table_id).ok


def test_only_the_gm_finishes_someone_elses_character(store):
    made = table(store)
    bob, eve, gm = join(store, made, "bob"), join(store, made, "eve"), join(store, made, "gm")
    before = len(store.events(made.table_id))
    with pytest.raises(PermissionDenied):
        bob.finish_character("c_ann")
    with pytest.raises(PermissionDenied):
        eve.finish_character("c_bob")
    assert len(store.events(made.table_id)) == before
    gm.finish_character("c_ann")
    assert rebuild(store, made.table_id).characters["c_ann"]["phase"] == "play"


def test_finishing_a_hidden_character_stays_hidden(store):
    made = table(store, hidden=["npc"])
    gm = join(store, made, "gm")
    event = gm.finish_character("npc")
    assert event.audience == "gm"
    bob = join(store, made, "bob")
    assert "npc" not in bob.state.characters
    with pytest.raises((PermissionDenied, ValueError)):
        bob.finish_character("npc")


def test_a_refusal_lists_the_problems_and_writes_nothing(store):
    made = table(store, {"c_bob": ret_sheet(attention=5)})
    bob = join(store, made, "bob")
    before = len(store.events(made.table_id))
    with pytest.raises(RuleError) as e:
        bob.finish_character("c_bob")
    assert e.value.code == "creation_problems"
    assert [p.code for p in e.value.data["problems"]] == ["param_overspent"]
    assert "Parameter points overspent" in e.value.text("en")
    assert "Очки развития параметров превышены" in e.value.text("ru")
    assert len(store.events(made.table_id)) == before
    assert bob.state.characters["c_bob"]["phase"] == "creation"
    # fixed on the sheet, then finished
    bob.update_character("c_bob", {"attention": 3})
    bob.finish_character("c_bob")
    with pytest.raises(RuleError) as e:
        bob.finish_character("c_bob")
    assert e.value.code == "already_in_play"


def test_no_edit_moves_the_phase_of_a_players_character(store):
    """A forged update, a whole sheet loaded from a file: a player's phase changes only by
    finishing (which checks the rules)."""
    made = table(store, {"c_bob": ret_sheet(attention=5)})
    bob = join(store, made, "bob")
    with pytest.raises(PlayDenied) as e:
        bob.update_character("c_bob", {"phase": "play"})
    assert e.value.code == "phase_edit" and "Finish character" in e.value.text("en")
    assert "Завершить персонажа" in e.value.text("ru")
    with pytest.raises(PlayDenied):
        bob.set_character("c_bob", {**ret_sheet(attention=5), "phase": "play"})
    assert bob.state.characters["c_bob"]["phase"] == "creation"
    gm = join(store, made, "gm")
    gm.update_character("c_bob", {"phase": "play"})  # the GM's word
    with pytest.raises(PlayDenied):
        bob.update_character("c_bob", {"phase": "creation"})  # nor back, by a player
    gm.update_character("c_bob", {"phase": "creation"})
    assert rebuild(store, made.table_id).characters["c_bob"]["phase"] == "creation"


def test_in_play_a_player_keeps_off_what_creation_sets(store):
    made = table(store)
    bob, gm = join(store, made, "bob"), join(store, made, "gm")
    bob.update_character("c_bob", {"attention": 4})  # in creation: the player builds
    bob.update_character("c_bob", {"attention": 3})
    bob.finish_character("c_bob")
    with pytest.raises(PlayDenied) as e:
        bob.update_character("c_bob", {"attention": 4, "notes": "cheat"})
    assert e.value.code == "creation_field" and e.value.data["fields"] == ["attention"]
    assert "Attention" in e.value.text("en") and "Внимание" in e.value.text("ru")
    with pytest.raises(PlayDenied):
        bob.set_character("c_bob", {**bob.state.characters["c_bob"], "attention": 4})
    assert bob.state.characters["c_bob"]["attention"] == 3
    bob.update_character("c_bob", {"luck": 4, "notes": "spent Luck on the lock"})  # play goes on
    gm.update_character("c_bob", {"attention": 4})  # the GM still may
    assert rebuild(store, made.table_id).characters["c_bob"]["attention"] == 4


def test_old_stored_characters_load_in_creation(store):
    old = ret_sheet()
    del old["phase"]
    made = table(store, {"c_bob": old})
    bob = join(store, made, "bob")
    assert "phase" not in bob.state.characters["c_bob"]
    model = RET.Character.from_dict(bob.state.characters["c_bob"])
    assert model.phase == "creation"
    model.notes = "edited"
    bob.update_character("c_bob", {"phase": "creation", "notes": "edited"})  # the sheet's diff
    bob.finish_character("c_bob")
    assert bob.state.characters["c_bob"]["phase"] == "play"


def test_an_old_ld_character_in_play_by_its_stage(store):
    ld = get_system("life_and_death")
    old = ld.Character(name="Arin").to_dict()
    del old["phase"]
    old["stage"] = "play"
    made = table(store, {"c_bob": old}, slug="life_and_death")
    bob = join(store, made, "bob")
    with pytest.raises(RuleError):
        bob.finish_character("c_bob")  # already in play
    with pytest.raises(PlayDenied):
        bob.update_character("c_bob", {"might": 2})
    bob.update_character("c_bob", {"phase": "play", "notes": "the sheet's diff names the phase"})


def test_the_phase_survives_a_campaign_backup(store, tmp_path, open_store_at):
    made = table(store)
    join(store, made, "bob").finish_character("c_bob")
    join(store, made, "gm").end_session()
    path = tmp_path / "campaign.jsonl"
    backup_campaign(store, made.table_id, path)
    other = open_store_at(str(tmp_path / "restored.db"))
    restore_campaign(other, path)
    restored = rebuild(other, made.table_id)
    assert restored.characters["c_bob"]["phase"] == "play"
    assert restored.characters["c_ann"]["phase"] == "creation"
    assert verify_table(other, made.table_id).ok
