"""The Combat state machine (tabletop_widgets.core.combat): turn pointer, initiative, events,
replay, undo, conditions, damage, for every installed system.

Each ``test_foundry_*`` is the regression test for one tracker bug listed in notes-landscape §3
items 18-19.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core import RuleError
from tabletop_widgets.core.combat import EVENT_TYPES, Combat

SYSTEMS = available_systems()


def make(slug: str, names=("Ann", "Bob", "Cid", "Dan"), seed: int = 1) -> Combat:
    system = get_system(slug)
    combat = Combat(system, rng=random.Random(seed))
    for n in names:
        combat.add(None, system.Character(name=n))
    return combat


def started(slug: str, **kw) -> Combat:
    combat = make(slug, **kw)
    combat.next_turn()
    return combat


def defaults(combat: Combat, cid: str) -> dict:
    return {o.name: o.default for o in combat.system.damage_options(combat.character(cid))}


@pytest.fixture(params=SYSTEMS)
def slug(request):
    return request.param


# ------------------------------------------------------------------------------------------------
# basics
# ------------------------------------------------------------------------------------------------
def test_ids_from_names_are_unique_and_never_reused(slug):
    combat = make(slug, names=("Goblin", "Goblin", "Goblin"))
    assert combat.ids == ["goblin", "goblin_2", "goblin_3"]
    combat.remove("goblin_2")
    combat.add(None, combat.system.Character(name="Goblin"))
    assert combat.ids == ["goblin", "goblin_3", "goblin_4"]
    with pytest.raises(RuleError):
        combat.add("goblin", combat.system.Character())


def test_start_next_wraps_into_a_new_round(slug):
    combat = make(slug)
    assert combat.round == 0 and combat.current is None
    combat.next_turn()
    assert (combat.round, combat.current) == (1, "ann")
    for who in ("bob", "cid", "dan"):
        combat.next_turn()
        assert combat.current == who and combat.round == 1
    combat.next_turn()
    assert (combat.round, combat.current) == (2, "ann")
    combat.previous_turn()
    assert (combat.round, combat.current) == (1, "dan")


def test_previous_at_the_first_turn_is_refused_and_changes_nothing(slug):
    combat = started(slug)
    before, n = combat.state(), len(combat.events)
    with pytest.raises(RuleError) as info:
        combat.previous_turn()
    assert info.value.code == "first_turn"
    assert combat.state() == before and len(combat.events) == n


def test_rename_mid_combat_keeps_the_turn(slug):
    combat = started(slug)
    combat.next_turn()
    combat.rename("bob", "Robert")
    assert combat.name("bob") == "Robert" and combat.current == "bob"
    with pytest.raises(RuleError):
        combat.rename("bob", "  ")


# ------------------------------------------------------------------------------------------------
# the turn pointer bugs other trackers shipped
# ------------------------------------------------------------------------------------------------
def test_foundry_12009_removing_the_last_combatant_on_its_turn_goes_forwards(slug):
    combat = started(slug)
    for _ in range(3):
        combat.next_turn()
    assert combat.current == "dan" and combat.round == 1
    combat.remove("dan")
    # not "cid" (the previous combatant): the next round starts with the first one
    assert combat.current == "ann" and combat.round == 2


def test_removing_the_current_combatant_mid_round_passes_to_the_next(slug):
    combat = started(slug)
    combat.next_turn()
    combat.remove("bob")
    assert combat.current == "cid" and combat.round == 1
    combat.set_defeated("dan", True)
    combat.remove("cid")  # dan is defeated: skipped, the next round starts
    assert combat.current == "ann" and combat.round == 2


def test_removing_everyone_ends_the_combat(slug):
    combat = started(slug, names=("Ann", "Bob"))
    combat.remove("ann")
    combat.remove("bob")
    assert combat.current is None and combat.round == 0 and combat.ids == []


def test_foundry_12747_reordering_emits_no_turn_events_and_keeps_the_turn(slug):
    combat = started(slug)
    combat.next_turn()
    turns = [list(v) for v in combat.state()["turns"].values()]
    n = len(combat.events)
    combat.roll_initiative()
    combat.move("bob", 3)
    combat.move("dan", 0)
    assert combat.current == "bob" and combat.round == 1
    assert [e["type"] for e in combat.events[n:]] == ["initiative", "move", "move"]
    assert [list(v) for v in combat.state()["turns"].values()] == turns


def test_foundry_11480_going_back_skips_defeated(slug):
    combat = started(slug)
    combat.next_turn()
    combat.next_turn()
    assert combat.current == "cid"
    combat.set_defeated("bob", True)
    combat.previous_turn()
    assert combat.current == "ann"


def test_foundry_14472_skip_defeated_when_the_defeated_one_is_first(slug):
    combat = make(slug)
    combat.set_defeated("ann", True)
    combat.next_turn()  # the first turn of the combat
    assert combat.current == "bob"
    for _ in range(3):
        combat.next_turn()  # wrapping into round 2 skips ann again
    assert (combat.round, combat.current) == (2, "bob")
    combat.previous_turn()  # and backwards over the round boundary
    assert (combat.round, combat.current) == (1, "dan")


def test_foundry_12990_swapping_places_keeps_the_marker_on_the_same_combatant(slug):
    combat = started(slug)
    combat.next_turn()
    assert combat.current == "bob"
    combat.move("bob", 2)  # swap bob and cid
    assert combat.ids == ["ann", "cid", "bob", "dan"]
    assert combat.current == "bob"
    combat.next_turn()
    assert combat.current == "dan"


def test_everyone_defeated_refuses_next_without_change(slug):
    combat = started(slug, names=("Ann", "Bob"))
    combat.set_defeated("ann", True)
    combat.set_defeated("bob", True)
    before = combat.state()
    with pytest.raises(RuleError) as info:
        combat.next_turn()
    assert info.value.code == "nobody_can_act" and combat.state() == before


# ------------------------------------------------------------------------------------------------
# initiative: the system's order and tie-breaks, recorded, the same for every viewer
# ------------------------------------------------------------------------------------------------
def test_initiative_follows_the_system_and_records_the_outcome(slug):
    combat = make(slug, seed=5)
    event = combat.roll_initiative()
    system = combat.system
    chars = {cid: combat.character(cid) for cid in ["ann", "bob", "cid", "dan"]}
    expected = system.roll_initiative(chars, rng=random.Random(5))
    assert combat.ids == list(expected.order) == event["order"]
    assert combat.tiebreaks == json.loads(json.dumps([dict(t) for t in expected.tiebreaks], default=list))
    for cid in combat.ids:
        assert event["rolls"][cid]["key"] == json.loads(json.dumps(expected.rolls[cid].key))
        assert combat.combatant(cid).initiative["text"] == dict(expected.rolls[cid].text)


def test_ties_give_the_same_order_to_every_viewer(slug, monkeypatch):
    """Equal characters tie; the GM's roll-off is in the log; players replaying the log (with
    other dice, or with rolling impossible) see exactly the GM's order (acks-core#112)."""
    gm = make(slug, names=("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"), seed=11)
    gm.roll_initiative()
    log = json.loads(json.dumps(gm.events))

    def no_rolling(*_a, **_k):
        raise AssertionError("replay must not roll")

    monkeypatch.setattr(type(gm.system), "roll_initiative", no_rolling)
    for seed in (0, 1, 2):
        viewer = Combat.replay(gm.system, None, log, rng=random.Random(seed))
        assert viewer.ids == gm.ids
        assert viewer.state() == gm.state()


def test_late_joiner_is_merged_by_initiative_and_the_turn_stays(slug):
    combat = make(slug, seed=3)
    combat.roll_initiative()
    combat.next_turn()
    combat.next_turn()
    cur = combat.current
    combat.add(None, combat.system.Character(name="Zed"))
    assert combat.ids[-1] == "zed"
    combat.roll_initiative(["zed"])
    assert sorted(combat.ids) == ["ann", "bob", "cid", "dan", "zed"]
    assert combat.current == cur
    assert combat.combatant("zed").initiative is not None


def test_initiative_for_an_unknown_id_is_refused(slug):
    combat = make(slug)
    with pytest.raises(RuleError):
        combat.roll_initiative(["nobody"])
    assert combat.events[-1]["type"] == "add"


# ------------------------------------------------------------------------------------------------
# delay
# ------------------------------------------------------------------------------------------------
def test_delay_skips_until_act_now(slug):
    combat = started(slug)
    combat.next_turn()  # bob
    combat.delay()
    assert combat.current == "cid" and combat.combatant("bob").delayed
    combat.next_turn()  # dan
    combat.next_turn()  # round 2: ann (bob is still delaying: skipped next)
    assert (combat.round, combat.current) == (2, "ann")
    combat.next_turn()
    assert combat.current == "cid"
    combat.act_now("bob")  # bob acts now, after cid, and keeps that place
    assert combat.current == "bob" and not combat.combatant("bob").delayed
    assert combat.ids == ["ann", "cid", "bob", "dan"]
    combat.next_turn()
    assert combat.current == "dan"


def test_delay_alone_is_refused(slug):
    combat = started(slug, names=("Ann",))
    with pytest.raises(RuleError):
        combat.delay()
    with pytest.raises(RuleError):
        combat.act_now("ann")


# ------------------------------------------------------------------------------------------------
# damage and healing through the system's rules
# ------------------------------------------------------------------------------------------------
def test_damage_and_healing_go_through_the_system(slug):
    combat = started(slug)
    system = combat.system
    twin = system.Character(name="Bob")
    expected = system.apply_damage(twin, 3, **defaults(combat, "bob"))
    event = combat.damage("bob", 3, **defaults(combat, "bob"))
    assert combat.combatant("bob").health == system.health(twin)
    assert combat.character("bob").to_dict() == twin.to_dict()
    assert event["changes"] and event["defeated"] == system.is_defeated(twin)
    assert event["notes"] == json.loads(json.dumps([dict(n) for n in expected.notes]))
    system.apply_healing(twin, 2)
    combat.heal("bob", 2)
    assert combat.character("bob").to_dict() == twin.to_dict()


def test_heavy_damage_defeats_by_the_systems_rules_and_is_skipped(slug):
    combat = started(slug)
    for _ in range(6):
        combat.damage("bob", 50, **defaults(combat, "bob"))
    ch = combat.character("bob")
    assert combat.is_defeated("bob") == combat.system.is_defeated(ch)
    if combat.is_defeated("bob"):
        combat.next_turn()
        assert combat.current == "cid"
    combat.set_defeated("bob", False)  # the GM overrides the rules...
    assert not combat.is_defeated("bob")
    combat.set_defeated("bob", None)  # ...and hands back to them
    assert combat.is_defeated("bob") == combat.system.is_defeated(ch)


@pytest.mark.parametrize("amount,options", [(-1, {}), (1.5, {}), (True, {}), (2, {"no_such_option": 1})])
def test_bad_damage_changes_nothing(slug, amount, options):
    combat = started(slug)
    before, n = combat.state(), len(combat.events)
    with pytest.raises(RuleError):
        combat.damage("bob", amount, **options)
    assert combat.state() == before and len(combat.events) == n


def test_replay_of_damage_does_not_call_the_rules(slug, monkeypatch):
    combat = started(slug)
    combat.damage("ann", 4, **defaults(combat, "ann"))
    combat.heal("ann", 1)
    log = json.loads(json.dumps(combat.events))

    def forbidden(*_a, **_k):
        raise AssertionError("replay must not re-run damage rules")

    monkeypatch.setattr(type(combat.system), "apply_damage", forbidden)
    monkeypatch.setattr(type(combat.system), "apply_healing", forbidden)
    again = Combat.replay(combat.system, None, log)
    assert again.state() == combat.state()


# ------------------------------------------------------------------------------------------------
# conditions
# ------------------------------------------------------------------------------------------------
def _timed_condition(combat: Combat):
    """A catalogue condition that does not take its bearer out of the fight (the systems'
    ``condition_changed`` / ``on_turn`` may make some, like a coma, defeat the character)."""
    return neutral_condition(combat.system)


def neutral_condition(system) -> str:
    for spec in system.conditions():
        ch = system.Character(name="Probe")
        system.condition_changed(ch, spec.id, True)
        held = [{"id": spec.id, "uid": 1, "duration": 3, "remaining": 3, "unit": "turns", "data": {}}]
        for _ in range(3):
            for when in ("start", "end"):
                system.on_turn(ch, when, rng=random.Random(0), conditions=held)
        if not system.is_defeated(ch):
            return spec.id
    pytest.skip(f"{system.slug}: every condition takes its bearer out")


def test_condition_ticks_on_the_bearers_turns(slug):
    combat = started(slug)  # ann's turn
    cond = _timed_condition(combat)
    spec = {c.id: c for c in combat.system.conditions()}[cond]
    combat.add_condition("bob", cond, duration=2)
    assert combat.conditions("bob")[0]["remaining"] == 2
    combat.next_turn()  # bob starts
    left_after_start = combat.conditions("bob")[0]["remaining"]
    assert left_after_start == (1 if spec.ticks_at == "start" else 2)
    combat.next_turn()  # bob ends
    assert combat.conditions("bob")[0]["remaining"] == 1
    combat.previous_turn()  # back into bob's turn: the end is uncounted
    assert combat.conditions("bob")[0]["remaining"] == left_after_start
    combat.next_turn()
    for _ in range(4):
        combat.next_turn()  # through bob's next turn: expired
    assert combat.conditions("bob") == []
    assert combat.conditions("bob", include_expired=True)[0]["active"] is False


def test_condition_can_tick_on_another_combatants_turn(slug):
    combat = started(slug)  # ann's turn
    cond = _timed_condition(combat)
    at = {c.id: c for c in combat.system.conditions()}[cond].ticks_at
    combat.add_condition("dan", cond, duration=1, ticks_on="ann")  # e.g. "until the caster's turn"
    combat.add_condition("cid", cond, duration=1, ticks_on="bob")
    combat.next_turn()  # ann ends, bob starts
    if at == "end":
        assert combat.conditions("dan") == []  # ann's turn ended: gone
        assert combat.conditions("cid")[0]["remaining"] == 1  # bob's end is still to come
        combat.next_turn()
        assert combat.conditions("cid") == []
    else:
        assert combat.conditions("cid") == []  # bob's turn started: gone
        for _ in range(2):
            combat.next_turn()  # cid, dan: ann's turns do not move
        assert combat.conditions("dan")[0]["remaining"] == 1
        combat.next_turn()  # round 2, ann starts
        assert combat.conditions("dan") == []


def test_condition_without_duration_stays_and_can_be_removed(slug):
    combat = started(slug)
    specs = combat.system.conditions()
    untimed = next((c for c in specs if c.duration is None), None)
    if untimed is None:
        pytest.skip("every condition of this system is timed")
    combat.add_condition("ann", untimed.id)
    for _ in range(8):
        combat.next_turn()
    inst = combat.conditions("ann")
    assert len(inst) == 1 and inst[0]["remaining"] is None
    if not untimed.stacks:
        with pytest.raises(RuleError):
            combat.add_condition("ann", untimed.id)
    combat.remove_condition("ann", inst[0]["uid"])
    assert combat.conditions("ann") == []


@pytest.mark.parametrize("duration", [0, -2, 1.5, True])
def test_bad_condition_input_is_refused(slug, duration):
    combat = started(slug)
    before = combat.state()
    with pytest.raises(RuleError):
        combat.add_condition("ann", _timed_condition(combat), duration=duration)
    with pytest.raises(RuleError):
        combat.add_condition("ann", "no_such_condition")
    assert combat.state() == before


# ------------------------------------------------------------------------------------------------
# hidden, events, replay, undo
# ------------------------------------------------------------------------------------------------
def test_hidden_combatants_are_left_out_for_players(slug):
    combat = make(slug)
    combat.set_hidden("cid", True)
    assert [c.id for c in combat.combatants(audience="player")] == ["ann", "bob", "dan"]
    assert [c.id for c in combat.combatants()] == ["ann", "bob", "cid", "dan"]


def _busy(slug) -> Combat:
    combat = make(slug, seed=9)
    combat.roll_initiative()
    combat.next_turn()
    first = combat.ids[0]
    combat.damage(first, 2, **defaults(combat, first))
    combat.add_condition(combat.ids[1], _timed_condition(combat), duration=2)
    combat.next_turn()
    combat.delay()
    combat.set_hidden(combat.ids[2], True)
    combat.move(combat.ids[3], 0)
    combat.rename(combat.ids[0], "Zed")
    combat.heal(first, 1)
    combat.set_defeated(combat.ids[1], True)
    combat.add(None, combat.system.Character(name="Late"), position=1)
    combat.remove(combat.ids[-1])
    combat.undo()
    combat.next_turn()
    return combat


def test_every_event_is_plain_json_and_replays_to_the_same_state(slug):
    combat = _busy(slug)
    text = json.dumps(combat.events)
    log = json.loads(text)
    assert log == combat.events
    assert {e["type"] for e in log} <= set(EVENT_TYPES)
    assert [e["seq"] for e in log] == list(range(len(log)))
    again = Combat.replay(combat.system, None, log)
    assert again.state() == combat.state()
    assert again.events == combat.events


def test_replay_uses_the_given_character_instances(slug):
    combat = _busy(slug)
    mine = {cid: combat.system.Character() for cid in combat.ids}
    again = Combat.replay(combat.system, mine, combat.events)
    for cid in combat.ids:
        assert again.character(cid) is mine[cid]
        assert mine[cid].to_dict() == combat.character(cid).to_dict()


def test_undo_restores_the_exact_previous_state_step_by_step(slug):
    combat = make(slug, seed=4)
    states = [combat.state()]
    steps = [
        lambda c: c.roll_initiative(),
        lambda c: c.next_turn(),
        lambda c: c.damage(c.current, 3, **defaults(c, c.current)),
        lambda c: c.add_condition(c.ids[-1], _timed_condition(c), duration=3),
        lambda c: c.next_turn(),
        lambda c: c.delay(),
        lambda c: c.remove(c.ids[0]),
        lambda c: c.set_hidden(c.ids[0], True),
        lambda c: c.move(c.ids[0], 2),
        lambda c: c.heal(c.ids[0], 1),
    ]
    for step in steps:
        step(combat)
        states.append(combat.state())
    for expected in reversed(states[:-1]):
        combat.undo()
        assert combat.state() == expected
    for _ in range(4):  # the four "add" events of make()
        combat.undo()
    assert combat.ids == [] and not combat.can_undo
    with pytest.raises(RuleError):
        combat.undo()
    # the log kept everything, undos included, and replays to the same (initial) state
    assert Combat.replay(combat.system, None, combat.events).state() == combat.state()


def test_undo_of_a_removal_brings_back_the_same_character_object(slug):
    combat = started(slug)
    bob = combat.character("bob")
    combat.damage("bob", 2, **defaults(combat, "bob"))
    values = bob.to_dict()
    combat.remove("bob")
    combat.undo()
    assert combat.character("bob") is bob and bob.to_dict() == values


@pytest.mark.parametrize(
    "event",
    [
        {"type": "explode"},
        {"type": "next", "from": "ann", "to": "nobody", "round": 1},
        {"type": "move", "id": "nobody", "to": 0},
        {"type": "initiative", "ids": ["ann"], "order": ["ann"], "rolls": {}, "tiebreaks": []},
        {"type": "undo", "undoes": 0},
        {"type": "next", "from": None, "to": "ann", "round": 0},
    ],
)
def test_forged_or_corrupt_events_are_refused_without_change(slug, event):
    combat = make(slug)
    before, n = combat.state(), len(combat.events)
    with pytest.raises(RuleError):
        combat.apply(event)
    assert combat.state() == before and len(combat.events) == n


def test_observers_hear_every_event(slug):
    combat = make(slug, names=())
    heard = []
    stop = combat.observe(heard.append)
    combat.add(None, combat.system.Character(name="Ann"))
    combat.next_turn()
    stop()
    combat.next_turn()
    assert [e["type"] for e in heard] == ["add", "next"]


def test_describe_speaks_both_languages(slug):
    combat = _busy(slug)
    for e in combat.events:
        assert combat.describe(e, "en") and combat.describe(e, "ru")


def test_end_then_a_new_fight_starts_at_round_one(slug):
    combat = started(slug)
    with pytest.raises(RuleError):
        make(slug).end()  # nothing to end before the start
    combat.next_turn()
    combat.delay()
    combat.end()
    assert combat.round == 0 and combat.current is None
    assert not any(c.delayed for c in combat.combatants())
    combat.next_turn()
    assert (combat.round, combat.current) == (1, "ann")


def test_undo_after_an_id_is_reused_restores_the_first_characters_values(slug):
    combat = started(slug)
    combat.damage("bob", 2, **defaults(combat, "bob"))
    first = combat.character("bob").to_dict()
    combat.remove("bob")
    combat.add("bob", combat.system.Character(name="Other Bob"))
    combat.undo()
    combat.undo()
    assert combat.character("bob").to_dict() == first


def test_a_long_fight_replays_exactly(slug):
    """300 turns of eight combatants with damage: the replay of the log is the live state (the
    machine's speed is not asserted: the test machines are noisy)."""
    combat = make(slug, names=[f"N{i}" for i in range(8)])
    combat.roll_initiative()
    for i in range(300):
        combat.next_turn()
        if i % 10 == 0:
            combat.damage(combat.current, 1, **defaults(combat, combat.current))
    again = Combat.replay(combat.system, None, combat.events)
    assert again.state() == combat.state()
    assert combat.state()["round"] >= 300 // 8
