"""The play layer without widgets: the GM's combat sync (replay, fair-dice initiative, refusals,
character push/pull) and the stored roll/check records the views show."""

from __future__ import annotations

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, check, create_table, verify_table
from tabletop_widgets.table.combat_sync import CombatSync, push_characters, record_sheet
from tabletop_widgets.table.records import StoredCheck, StoredRoll, check_changes
from tabletop_widgets.table.rules import PlayError


@pytest.fixture
def made(store):
    system = get_system("ret")
    return create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1")],
        characters={"c1": system.Character(name="Hero").to_dict()},
    )


def join(store, made, seat, **kw):
    return TableSession.join(store, made.table_id, made.tokens[seat], **kw)


def test_only_a_gm_syncs_the_combat(store, made):
    with pytest.raises(PermissionDenied):
        CombatSync(join(store, made, "bob"))


def test_initiative_through_the_sync_is_the_table_s_fair_roll(store, made):
    gm = join(store, made, "gm")
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    sync.combat.add("goblin", get_system("ret").Character(name="Goblin"), name="Goblin")
    event = sync.combat.roll_initiative()
    assert event["type"] == "initiative"
    (init,) = [e for e in gm.events() if e.kind == "initiative"]
    assert init.payload["result"]["order"] == event["order"]
    # a reload (a new GM kernel) replays the same combat, without rolling
    again = CombatSync(join(store, made, "gm"))
    assert again.combat.state() == sync.combat.state()
    gm.close_table()
    assert verify_table(store, made.table_id).ok


def test_a_refused_action_rebuilds_the_combat_from_the_log(store, made):
    now = [0.0]
    gm = join(store, made, "gm", clock=lambda: now[0])
    reloaded, refused = [], []
    sync = CombatSync(gm, on_reload=reloaded.append, on_refused=refused.append)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    before = sync.combat.state()
    gm.rate_limit.tokens = 0  # the seat's budget is spent: the next write is refused
    sync.combat.rename("c1", "Renamed")
    assert refused and isinstance(refused[0], PlayError) and refused[0].code == "rate_limited"
    assert reloaded and reloaded[-1] is sync.combat
    assert sync.combat.state() == before  # the log never had the rename
    with pytest.raises(RuleError):
        sync.table_character("nobody")


def test_character_push_and_pull(store, made):
    gm, bob = join(store, made, "gm"), join(store, made, "bob")
    sync = CombatSync(gm)
    sync.combat.add("c1", sync.table_character("c1")[0], name="Hero")
    hp = get_system("ret").health(sync.combat.character("c1"))[0]
    sync.combat.damage("c1", 2)  # pull: the combat's change becomes a character update
    bob.poll()
    assert get_system("ret").health(bob.character("c1"))[0] < hp
    record_sheet(bob, "c1", dict(bob.state.characters["c1"], name="Hero the Bold"))  # a sheet edit
    gm.poll()
    assert push_characters(gm, sync.combat)  # push: the table's values reach the combat
    assert sync.combat.character("c1").name == "Hero the Bold"
    assert record_sheet(bob, "c1", bob.state.characters["c1"]) is None  # nothing changed: no write


def test_stored_records_show_what_the_table_rolled(store, made):
    bob = join(store, made, "bob")
    rolled = bob.roll("2d6+1")
    r = StoredRoll(rolled.payload["result"], {"en": rolled.payload["text"]})
    assert r.total == rolled.payload["result"]["total"] and len(r.dice) == 2
    assert "2d6+1" in r.html("en") and r.text("ru") == r.text("en")
    luck = bob.state.characters["c1"]["luck"]
    checked = bob.roll(check("mind", luck=1, difficulty=200))
    c = StoredCheck(checked.payload)
    assert c.check_id == "mind" and c.success is False and c.roll is not None
    changes = check_changes(c, bob.state.characters["c1"])
    assert all(before != after for before, after in changes.values())
    assert ("luck" in changes) == (bob.state.characters["c1"]["luck"] != luck)
