"""The Combat state machine with the GameSystem hooks, generically: healing options, ongoing
effects at turn starts and ends (``on_turn``), catalogue conditions reflected on the character
(``condition_changed``), initiative that costs resources (``InitiativeRoll.effects``) or loses
rounds (``skip_rounds``), tie-break notes naming combatants by id, and the players' view
(the table's audience projection, ``tabletop_widgets.table.audience.project_combat``).

The rules come from ``Skirmish`` (``tests/fixtures/skirmish.py``, the ``skirmish`` fixture of
``tests/conftest.py``), a small system registered at run time (so these tests do not depend on
what the four real systems do with the hooks); the real systems are checked through the hooks'
behaviour whatever it is (outcomes recorded, replay never calls a hook, undo exact).
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import GameSystem, RuleError
from tabletop_widgets.core.combat import Combat
from tabletop_widgets.table.audience import GM, PLAYERS, project_combat, secret_combatants

from fixtures.skirmish import Skirmish


def fight(system, names=("Ann", "Bob", "Cid"), seed=1, **values) -> Combat:
    combat = Combat(system, rng=random.Random(seed))
    for n in names:
        combat.add(None, system.Character(name=n, **values.get(n.lower(), {})))
    return combat


def replayed(combat: Combat) -> Combat:
    return Combat.replay(combat.system, None, json.loads(json.dumps(combat.events)), rng=random.Random(99))


def check_undo_and_replay(combat: Combat, action):
    """``action`` applies; replay gives the same state without calling a hook; undo restores."""
    before = combat.state()
    event = action()
    after = combat.state()
    n = len(Skirmish.calls)
    assert replayed(combat).state() == after
    assert len(Skirmish.calls) == n, "replay must not call the system's hooks"
    combat.undo()
    assert combat.state() == before
    return event


# ------------------------------------------------------------------------------------------------
# healing options
# ------------------------------------------------------------------------------------------------
def test_healing_options_are_passed_to_the_rules_and_recorded(skirmish):
    combat = fight(skirmish)
    combat.damage("ann", 6)
    event = combat.heal("ann", 2, first_aid=True)
    assert combat.character("ann").hp == 7
    assert event["options"] == {"first_aid": True} and event["changes"] == {"hp": [4, 7]}
    event = check_undo_and_replay(combat, lambda: combat.heal("ann", 3, resource="luck"))
    assert event["changes"] == {"luck": [2, 5]}
    assert combat.character("ann").luck == 2


def test_unknown_or_bad_healing_options_change_nothing(skirmish):
    combat = fight(skirmish)
    before, n = combat.state(), len(combat.events)
    with pytest.raises(RuleError) as info:
        combat.heal("ann", 1, armour=2)  # a damage option, not a healing one
    assert info.value.code == "bad_option" and "healing" in info.value.message["en"]
    assert "лечения" in info.value.message["ru"]
    with pytest.raises(RuleError):
        combat.heal("ann", 1, resource="mana")  # the rules refuse it
    assert combat.state() == before and len(combat.events) == n


# ------------------------------------------------------------------------------------------------
# on_turn
# ------------------------------------------------------------------------------------------------
def test_on_turn_runs_at_the_start_and_end_of_each_turn_once(skirmish):
    combat = fight(skirmish)
    combat.add_condition("ann", "bleeding", data={"amount": 2})
    combat.add_condition("bob", "regen")
    combat.damage("bob", 3)
    combat.next_turn()  # ann starts
    Skirmish.calls.clear()
    event = combat.next_turn()  # ann ends (bleeds 2), bob starts (regen)
    assert [c[:3] for c in Skirmish.calls if c[0] == "on_turn"] == [
        ("on_turn", "Ann", "end"),
        ("on_turn", "Bob", "start"),
    ]
    assert ("on_turn", "Ann", "end", ("bleeding",)) in Skirmish.calls
    assert [(x["id"], x["hook"], x["when"]) for x in event["effects"]] == [
        ("ann", "on_turn", "end"),
        ("bob", "on_turn", "start"),
    ]
    assert event["effects"][0]["changes"] == {"hp": [10, 8]}
    assert event["effects"][1]["health"] == [[7, 10], [8, 10]]
    assert combat.character("ann").hp == 8 and combat.character("bob").hp == 8
    text = combat.describe(event)
    assert "Ann (end of turn): 10→8 / 10" in text and "Bob (start of turn): 7→8 / 10" in text
    assert "конец хода" in combat.describe(event, "ru")
    # back and forth again: the same boundaries are not hooked twice
    Skirmish.calls.clear()
    combat.previous_turn()
    combat.next_turn()
    assert not [c for c in Skirmish.calls if c[0] == "on_turn"]
    assert combat.character("ann").hp == 8
    # the next boundary is
    combat.next_turn()
    assert ("on_turn", "Bob", "end", ("regen",)) in Skirmish.calls


def test_turn_effects_replay_without_hooks_and_undo_exactly(skirmish):
    combat = fight(skirmish)
    combat.add_condition("ann", "bleeding")
    combat.next_turn()
    event = check_undo_and_replay(combat, combat.next_turn)
    assert event["effects"][0]["changes"] == {"hp": [10, 9]}
    assert combat.character("ann").hp == 10 and combat.current == "ann"


def test_delay_then_act_now_does_not_start_the_turn_twice(skirmish):
    combat = fight(skirmish)
    combat.add_condition("ann", "regen")
    combat.damage("ann", 5)
    combat.next_turn()  # ann starts: +1
    assert combat.character("ann").hp == 6
    combat.delay()  # bob starts
    event = combat.act_now("ann")  # bob ends, ann acts: no second start
    assert [(x["id"], x["when"]) for x in event.get("effects", [])] == []
    assert combat.character("ann").hp == 6
    combat.next_turn()
    assert combat.character("ann").hp == 6  # ann's end: regen does nothing at the end


def test_removing_the_current_combatant_starts_the_next_turn(skirmish):
    combat = fight(skirmish)
    combat.add_condition("bob", "regen")
    combat.damage("bob", 5)
    combat.next_turn()
    event = combat.remove("ann")
    assert combat.current == "bob" and combat.character("bob").hp == 6
    assert event["effects"][0]["when"] == "start"
    assert replayed(combat).state() == combat.state()


def test_bleeding_out_at_the_end_of_the_turn_takes_them_out_of_the_search(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob"))
    combat.set_defeated("bob", True)
    combat.add_condition("ann", "bleeding")
    combat.damage("ann", 9)
    combat.next_turn()  # ann: 1 hp
    event = combat.next_turn()  # ann bleeds to 0: nobody else, stays on ann
    assert combat.character("ann").hp == 0 and combat.is_defeated("ann")
    assert event["to"] == "ann" and combat.round == 2
    combat.set_defeated("bob", None)
    combat.heal("bob", 0)
    event = combat.next_turn()  # bob can act now
    assert combat.current == "bob"


def test_an_effect_that_changes_the_verdict_clears_the_gms_mark(skirmish):
    combat = fight(skirmish)
    combat.set_defeated("ann", False)  # the GM keeps ann in
    combat.add_condition("ann", "knocked_out")
    assert combat.is_defeated("ann")  # the rules decide again
    assert combat.combatant("ann").defeated_override is None


def test_conditions_given_to_on_turn_are_those_active_at_the_boundary(skirmish):
    combat = fight(skirmish, names=("Ann",))
    combat.add_condition("ann", "bleeding", duration=1)
    combat.next_turn()
    combat.next_turn()  # ann's end: bleeding (1 turn) bleeds, then ends
    assert combat.character("ann").hp == 9
    assert ("on_turn", "Ann", "end", ("bleeding",)) in Skirmish.calls
    assert combat.conditions("ann") == []


# ------------------------------------------------------------------------------------------------
# condition_changed
# ------------------------------------------------------------------------------------------------
def test_adding_and_removing_a_condition_tells_the_system(skirmish):
    combat = fight(skirmish)
    combat.next_turn()
    event = check_undo_and_replay(combat, lambda: combat.add_condition("bob", "knocked_out"))
    assert event["effects"][0]["changes"] == {"knocked_out": [False, True]}
    assert event["effects"][0]["defeated"] is True
    event = combat.add_condition("bob", "knocked_out")
    assert combat.is_defeated("bob") and combat.character("bob").knocked_out
    assert "knocked out" in json.dumps(event["effects"][0]["state"])
    assert combat.next_turn()["to"] == "cid"  # skipped: defeated by the rules
    uid = combat.conditions("bob")[0]["uid"]
    event = check_undo_and_replay(combat, lambda: combat.remove_condition("bob", uid))
    assert event["effects"][0]["changes"] == {"knocked_out": [True, False]}
    combat.remove_condition("bob", uid)
    assert not combat.is_defeated("bob")
    assert ("condition_changed", "Bob", "knocked_out", False, {}) in Skirmish.calls


def test_condition_data_reaches_the_system(skirmish):
    combat = fight(skirmish)
    combat.add_condition("ann", "weakened", data={"penalty": -3})
    assert combat.character("ann").penalty == -3
    assert combat.conditions("ann")[0]["data"] == {"penalty": -3}
    with pytest.raises(RuleError):
        combat.add_condition("bob", "weakened", data=["not", "a", "mapping"])


def test_a_condition_running_out_and_coming_back_tells_the_system(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob"))
    combat.next_turn()  # ann
    combat.add_condition("bob", "weakened", duration=1)  # ticks at the start of bob's turns
    assert combat.character("bob").penalty == -2
    event = combat.next_turn()  # bob starts: weakened runs out
    assert combat.character("bob").penalty == 0
    ends = [x for x in event["effects"] if x["hook"] == "condition_changed"]
    assert ends and ends[0]["expired"] is True and ends[0]["active"] is False
    assert "Weakened ends" in combat.describe(event)
    event = combat.previous_turn()  # back: weakened again
    assert combat.character("bob").penalty == -2
    assert event["effects"][0]["active"] is True
    assert replayed(combat).state() == combat.state()


def test_removing_an_expired_condition_does_not_report_it_twice(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob"))
    combat.next_turn()
    combat.add_condition("bob", "weakened", duration=1)
    combat.next_turn()
    inst = combat.conditions("bob", include_expired=True)[0]
    assert inst["active"] is False
    Skirmish.calls.clear()
    event = combat.remove_condition("bob", inst["uid"])
    assert "effects" not in event and not Skirmish.calls


# ------------------------------------------------------------------------------------------------
# initiative: skip_rounds and effects
# ------------------------------------------------------------------------------------------------
def test_initiative_effects_go_through_apply_effects_and_are_recorded(skirmish):
    combat = fight(skirmish, bob={"luck": 0})
    event = check_undo_and_replay(combat, lambda: combat.roll_initiative(spend_luck=True))
    by = {x["id"]: x for x in event["effects"]}
    assert set(by) == {"ann", "cid"}  # bob has no Luck to spend
    assert by["ann"]["hook"] == "initiative" and by["ann"]["changes"] == {"luck": [2, 1]}
    assert by["ann"]["notes"][0]["en"] == "Luck spent on initiative"
    combat.roll_initiative(spend_luck=True)
    assert combat.character("ann").luck == 1 and combat.character("bob").luck == 0


def test_initiative_effects_use_the_systems_apply_effects(skirmish, monkeypatch):
    seen = []

    def clamp(character, effects):
        seen.append([e.trait for e in effects])
        return GameSystem.apply_effects(skirmish, character, effects)

    monkeypatch.setattr(skirmish, "apply_effects", clamp)
    fight(skirmish).roll_initiative(spend_luck=True)
    assert seen == [["luck"]] * 3


def test_skip_rounds_sits_out_the_first_rounds(skirmish):
    combat = fight(skirmish, bob={"fumbles": 1, "quick": 20})
    event = combat.roll_initiative()
    assert combat.ids[0] == "bob"  # first in the order...
    assert event["skip"] == {"bob": 1} and event["rolls"]["bob"]["skip_rounds"] == 1
    assert combat.combatant("bob").skip_until == 1
    combat.next_turn()
    assert combat.current != "bob" and combat.round == 1  # ...but sits out round 1
    seen = [combat.current]
    while combat.round == 1:
        combat.next_turn()
        seen.append(combat.current)
    assert "bob" not in seen[:-1] and seen[-1] == "bob" and combat.round == 2
    combat.previous_turn()  # back into round 1: bob skipped again
    assert combat.current != "bob" and combat.round == 1
    assert replayed(combat).state() == combat.state()


def test_everyone_sitting_out_round_one_starts_in_round_two(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob"), ann={"fumbles": 1}, bob={"fumbles": 1})
    combat.roll_initiative()
    combat.next_turn()
    assert combat.round == 2 and combat.current == combat.ids[0]


def test_a_late_joiner_sits_out_its_own_first_round(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob"))
    combat.roll_initiative()
    combat.next_turn()
    combat.next_turn()  # round 1, second turn
    assert combat.round == 1
    combat.add("cid", skirmish.Character(name="Cid", fumbles=1, quick=-50))  # last in the order
    combat.roll_initiative(["cid"])
    assert combat.ids[-1] == "cid" and combat.combatant("cid").skip_until == 1
    combat.next_turn()
    assert combat.round == 2 and combat.current != "cid"


# ------------------------------------------------------------------------------------------------
# tie-break notes and the players' view
# ------------------------------------------------------------------------------------------------
def test_tiebreak_notes_name_their_combatants(skirmish):
    assert Combat.tiebreak_ids({"en": "x", "pair": ("a", "b")}) == ["a", "b"]
    assert Combat.tiebreak_ids({"en": "x", "ids": ["c"]}) == ["c"]
    assert Combat.tiebreak_ids({"en": "x"}) == []


def test_public_state_leaves_hidden_combatants_out(skirmish):
    combat = fight(skirmish, names=("Ann", "Bob", "Cid", "Orc"))
    combat.set_hidden("orc", True)
    combat.add_condition("orc", "bleeding")
    combat.add_condition("ann", "bleeding", ticks_on="orc")
    combat.tiebreaks = [
        {"en": "orc before ann: tie", "ru": "orc раньше ann", "pair": ["orc", "ann"]},
        {"en": "Orc won the roll-off", "ru": "Orc выиграл"},
        {"en": "ann before bob", "ru": "ann раньше bob", "pair": ["ann", "bob"]},
    ]
    combat.move("orc", 0)
    combat.next_turn()  # orc's turn, hidden
    view = project_combat(combat, PLAYERS)
    public = view["state"]
    text = json.dumps(view)
    assert "orc" not in text.lower().replace("hidden-", "")
    assert public["current"] == "hidden-1" and public["combatants"]["hidden-1"]["name"] == "?"
    assert public["order"] == ["hidden-1", "ann", "bob", "cid"]
    assert public["tiebreaks"] == [combat.tiebreaks[2]]
    assert public["combatants"]["ann"]["conditions"][0]["ticks_on"] == "hidden-1"
    assert project_combat(combat, GM)["state"] == combat.state()
    # the log for players: no event about the orc, nothing in the others naming it
    events = view["events"]
    assert all("orc" not in json.dumps(e).lower() for e in events)
    assert len(events) < len(combat.events) and project_combat(combat, GM)["events"] == combat.events
    # a players' copy built from it shows the same as the GM's tracker for players: names,
    # health, conditions; never the sheet
    copy = Combat.from_state(skirmish, public, events)
    assert [c.name for c in copy.combatants()] == ["?", "Ann", "Bob", "Cid"]
    assert [c.id for c in combat.combatants(audience="player")] == ["ann", "bob", "cid"]
    assert copy.combatant("ann").health == combat.combatant("ann").health
    assert "character" not in public["combatants"]["ann"]


def test_events_for_players_drop_hidden_initiative_and_effects(skirmish):
    combat = fight(skirmish, names=("Ann", "Orc"), seed=5)
    combat.set_hidden("orc", True)
    combat.roll_initiative(spend_luck=True)
    combat.remove("orc")  # hidden when it left: still secret
    (init,) = [e for e in project_combat(combat, PLAYERS)["events"] if e["type"] == "initiative"]
    assert init["order"] == ["ann"] and set(init["rolls"]) == {"ann"}
    assert [x["id"] for x in init["effects"]] == ["ann"]
    assert "orc" not in json.dumps(init).lower()
    assert secret_combatants(combat) == {"orc"}


# ------------------------------------------------------------------------------------------------
# the real systems, whatever their hooks do
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", available_systems())
def test_real_systems_hooks_are_recorded_replayed_and_undone(slug):
    system = get_system(slug)
    combat = Combat(system, rng=random.Random(4))
    for n in ("Ann", "Bob", "Cid"):
        combat.add(None, system.Character(name=n))
    combat.roll_initiative()
    for spec in system.conditions()[:3]:
        try:
            combat.add_condition(combat.ids[1], spec.id, duration=2 if spec.unit in ("rounds", "turns") else None)
        except RuleError:
            pass
    states = [combat.state()]
    for _ in range(6):
        try:
            combat.next_turn()
        except RuleError:
            break
        states.append(combat.state())
    ch = combat.character(combat.ids[0])
    combat.heal(combat.ids[0], 1, **{o.name: o.default for o in system.healing_options(ch)})
    states.append(combat.state())
    log = json.loads(json.dumps(combat.events))
    assert Combat.replay(system, None, log, rng=random.Random(77)).state() == combat.state()
    for expected in reversed(states[:-1]):
        combat.undo()
        assert combat.state() == expected
    public = project_combat(combat, PLAYERS)["state"]
    assert set(public["combatants"]) == {c.id for c in combat.combatants(audience="player")}
