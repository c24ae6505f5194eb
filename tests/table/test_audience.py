"""Hole 4 of issue 14: what a player's kernel receives is exactly what the player may know.

Every test plays the GM's side through the play layer (sessions, ``CombatSync``) and then reads
what a player's session actually received: the events handed to it, its folded state, its own
store query and its snapshots. A leak anywhere fails the test."""

from __future__ import annotations

import json

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, Snapshot, TableSession, check, create_table
from tabletop_widgets.table.audience import GM, PLAYERS, Audience, combat_from_view, project_state
from tabletop_widgets.table.combat_sync import CombatSync

NPC_NOTES = "Qqvault-code 7741 under the third stone"
NPC_BACKSTORY = "Qqborn in the sunken city"


@pytest.fixture
def made(store):
    system = get_system("ret")
    hero = system.Character(name="Hero").to_dict()
    npc = system.Character(name="Mossgrim", notes=NPC_NOTES, backstory=NPC_BACKSTORY).to_dict()
    return create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1"), SeatSpec("amy", "player", "Amy")],
        characters={"c1": hero, "npc": npc},
        hidden_characters=["npc"],
    )


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


class Received:
    """Everything a seat's session got handed (followed events), plus its state and query."""

    def __init__(self, session):
        self.session = session
        self.events = list(session.events())
        session.on_events(self.events.extend)

    def everything(self) -> str:
        self.session.poll()
        s = self.session
        blobs = [[e.to_json() for e in self.events], [e.to_json() for e in s.events()], s.state.to_json()]
        snap = s.store.latest_snapshot(s.table_id, s.view)
        if snap is not None:
            blobs.append(dict(snap.state))
        return json.dumps(blobs, ensure_ascii=False, default=str)


def test_a_hidden_check_s_effects_never_reach_players(store, made):
    gm, bob, amy = join(store, made, "gm"), join(store, made, "bob"), join(store, made, "amy")
    got_bob, got_amy = Received(bob), Received(amy)
    luck = gm.state.characters["c1"]["luck"]
    # hidden GM checks with Luck declared, sure to fail, until the Luck held has changed
    # (declared Luck burns, a fail may award some: GM-only character updates)
    for _ in range(20):
        hidden = gm.roll(check("mind", "c1", luck=1, difficulty=200), hidden=True)
        assert hidden.audience == "gm"
        if gm.state.characters["c1"]["luck"] != luck:
            break
    assert gm.state.characters["c1"]["luck"] != luck
    # then the GM acts on the character in the open: a check and the combat
    later = gm.roll(check("mind", "c1", bonus=1))
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    sync.combat.damage("c1", 1)
    # what carries the sheet after the hidden change stays with the GM
    assert later.audience == "gm"
    for got, seat in ((got_bob, bob), (got_amy, amy)):
        text = got.everything()
        assert seat.state.characters["c1"]["luck"] == luck
        for e in got.events:
            for values in (e.payload.get("character"), e.payload.get("changes"), e.payload.get("data")):
                if isinstance(values, dict) and "luck" in values:
                    assert values["luck"] == luck, (e.kind, values)
        assert f'"index": {hidden.roll}' not in text
    # the public combat still shows Bob's character's health, from his own copy of the sheet
    view = json.loads(json.dumps(sync.public_view()))
    assert "c1" in view["state"]["combatants"] and "health" not in view["state"]["combatants"]["c1"]


def test_a_gm_only_npc_in_combat_shows_players_no_sheet(store, made):
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    got = Received(bob)
    sync = CombatSync(gm)
    character, name = sync.table_character("npc")
    sync.combat.add("npc", character, name=name, hidden=False)  # brought in as visible
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    sync.combat.roll_initiative()
    sync.combat.next_turn()
    sync.combat.damage("npc", 2)
    text = got.everything()
    assert "Mossgrim" in text  # players see who they fight...
    assert NPC_NOTES not in text and NPC_BACKSTORY not in text  # ...never its sheet
    assert "Qq" not in text
    # the players' tracker shows the NPC's health all the same
    combat = combat_from_view(bob.system, bob.state.combat)
    assert combat.combatant("npc").health == sync.combat.combatant("npc").health
    assert combat.combatant("npc").health[0] < combat.combatant("npc").health[1]


def test_hidden_combat_actions_leave_no_count_for_players(store, made):
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    got = Received(bob)
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    sync.combat.add("lurker", get_system("ret").Character(name="Lurker"), name="Lurker", hidden=True)
    bob.poll()
    before = len(got.events)
    public_before = json.loads(json.dumps(bob.state.combat))
    for _ in range(3):  # the GM works on the hidden combatant: nothing players see changes
        sync.combat.damage("lurker", 1)
    sync.combat.add_condition("lurker", get_system("ret").conditions()[0].id)
    bob.poll()
    assert len(got.events) == before
    assert bob.state.combat == public_before
    # the next public action: its log lines are numbered among what players saw
    sync.combat.damage("c1", 1)
    bob.poll()
    view = bob.state.combat
    assert [e["seq"] for e in view["events"]] == list(range(len(view["events"])))
    assert "next_uid" not in view["state"]
    assert "lurker" not in got.everything().lower()
    assert len(got.events) == before + 2  # the combat line and Hero's character update


def test_snapshots_go_through_the_projection(store, made):
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    gm.note("the GM's plan")
    gm.roll("1d20", hidden=True)
    bob.poll()
    # a GM-view state saved (by a bug or a forged row) as Bob's snapshot never reaches Bob
    gm_state = gm.state.to_json()
    store.save_snapshot(Snapshot(made.table_id, bob.view, gm.state.version, gm.state.seq, gm_state, 0.0))
    again = join(store, made, "bob")
    assert again.state.notes == [] and "npc" not in again.state.characters
    assert all(x["audience"] in ("all", "seat:bob") for x in again.state.log)
    assert "the GM's plan" not in json.dumps(again.state.to_json())
    projected = project_state(gm.state, Audience("player", "bob"))
    assert projected.to_json() == project_state(projected, Audience("player", "bob")).to_json()
    assert project_state(gm.state, GM).to_json() == gm.state.to_json()


def test_audience_tags_drive_the_store_query(store, made):
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    assert bob.reader == Audience("player", "bob") and bob.audiences == ["all", "seat:bob"]
    assert gm.reader.tags is None and PLAYERS.sees("all") and not PLAYERS.sees("gm")
    secret = gm.roll("1d6", hidden=True)
    mine = bob.roll("1d6", hidden=True)
    seqs = [e.seq for e in bob.events()]
    assert mine.seq in seqs and secret.seq not in seqs
