"""The combat tracker widget with the GameSystem hooks, generically (no browser): healing
options as controls, turn effects and condition changes shown, rounds sat out shown in the list,
tie-break notes with names from their ids, the players' view. Rules from ``Skirmish``, a small
system registered at run time (tests/fixtures/skirmish.py); the real systems through
whatever their hooks do."""

from __future__ import annotations

import random

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets.tracker import CombatTracker, show_combat

from helpers import frontend_click, frontend_update


def tracker(system, names=("Ann", "Bob", "Cid"), values=None, **kw) -> CombatTracker:
    values = values or {}
    return show_combat(
        "skirmish" if system.slug == "skirmish" else system,
        characters=[system.Character(name=n, **values.get(n, {})) for n in names],
        rng=random.Random(3),
        **kw,
    )


# ------------------------------------------------------------------------------------------------
# healing options
# ------------------------------------------------------------------------------------------------
def test_healing_options_are_controls_passed_to_the_rules(skirmish):
    t = tracker(skirmish)
    assert t.system is skirmish  # found through the registry
    t.combat.damage("bob", 6)
    t.select("bob")
    t.open_details("options")
    assert list(t._heal_option_widgets) == ["resource", "first_aid"]
    assert [w.description for w in t.heal_options_box.children] == ["Restore", "First aid"]
    assert all("tt-heal-option" in w._dom_classes for w in t.heal_options_box.children)
    assert list(t._option_widgets) == ["armour"]  # damage options apart
    assert t.heal_options_row.layout.display == "" and "Healing" in t.heal_caption.value
    frontend_update(t.amount, value=2)
    frontend_update(t._heal_option_widgets["first_aid"], value=True)
    frontend_click(t.heal_button)
    event = t.combat.events[-1]
    assert event["type"] == "heal" and event["options"] == {"resource": "hp", "first_aid": True}
    assert t.combat.character("bob").hp == 7
    assert "first aid" in t.message
    frontend_update(t._heal_option_widgets["resource"], index=1)  # Luck
    frontend_click(t.heal_button)
    assert t.combat.character("bob").luck == 4 and t.combat.character("bob").hp == 7
    t.locale = "ru"
    assert [w.description for w in t.heal_options_box.children] == ["Восстановить", "Первая помощь"]
    assert t._heal_option_widgets["resource"].value == "luck"  # kept across the rebuild
    assert "Лечение" in t.heal_caption.value


@pytest.mark.parametrize("slug", available_systems())
def test_every_system_shows_its_healing_options(slug):
    system = get_system(slug)
    t = show_combat(system, characters=[system.Character(name="Ann")], rng=random.Random(1))
    t.select("ann")
    t.open_details("options")
    specs = system.healing_options(t.combat.character("ann"))
    assert list(t._heal_option_widgets) == [s.name for s in specs]
    assert t.heal_options_row.layout.display == ("" if specs else "none")
    t.heal_button.click()  # the defaults are accepted by the rules
    assert t.combat.events[-1]["type"] == "heal", t.message


def test_healing_refused_by_the_rules_shows_an_error_and_changes_nothing(skirmish):
    t = tracker(skirmish)
    t.select("ann")
    before = t.combat.state()
    t.heal("ann", 1, resource="mana")
    assert t.combat.state() == before and "tt-error" in t.status.value


# ------------------------------------------------------------------------------------------------
# turn effects and conditions
# ------------------------------------------------------------------------------------------------
def test_turn_effects_are_shown_in_the_status_and_the_log(skirmish):
    t = tracker(skirmish)
    t.add_condition("ann", "bleeding")
    frontend_click(t.next_button)  # ann starts
    frontend_click(t.next_button)  # ann ends: bleeds
    assert t.combat.character("ann").hp == 9
    assert "Ann (end of turn): 10→9 / 10" in t.message and "bleeds" in t.message
    assert "9 / 10" in t._rows["ann"].hp.value
    assert "bleeds" in t.log_view.value
    t.locale = "ru"
    assert "конец хода" in t.log_view.value and "кровоточит" in t.log_view.value
    frontend_click(t.undo_button)
    assert t.combat.character("ann").hp == 10 and "10 / 10" in t._rows["ann"].hp.value


def test_a_condition_that_knocks_out_marks_the_row_defeated(skirmish):
    t = tracker(skirmish)
    t.select("bob")
    frontend_update(t.condition_picker, index=[v for _, v in t.condition_picker.options].index("knocked_out"))
    frontend_click(t.add_condition_button)
    row = t._rows["bob"]
    assert "tt-is-defeated" in row.box._dom_classes and row.defeated.value is True
    assert "knocked out" in t.message
    frontend_click(t.next_button)
    frontend_click(t.next_button)
    assert t.combat.current == "cid"  # bob skipped
    frontend_click(t.conditions_box.children[0])  # remove it: bob is back
    assert "tt-is-defeated" not in row.box._dom_classes


# ------------------------------------------------------------------------------------------------
# initiative
# ------------------------------------------------------------------------------------------------
def test_rounds_sat_out_are_shown_in_the_list(skirmish):
    t = tracker(skirmish, values={"Bob": {"fumbles": 1}})
    frontend_click(t.initiative_button)
    chip = t._rows["bob"].tags.value
    assert "tt-tag-skip" in chip and "sits out until round 2" in chip
    t.locale = "ru"
    assert "пропускает до раунда 2" in t._rows["bob"].tags.value
    t.locale = "en"
    seen = []
    frontend_click(t.next_button)
    while t.combat.round == 1:
        seen.append(t.combat.current)
        frontend_click(t.next_button)
    assert "bob" not in seen
    assert "tt-tag-skip" not in t._rows["bob"].tags.value  # round 2: no longer sitting out


def test_initiative_effects_are_applied_and_shown(skirmish):
    t = tracker(skirmish, names=("Ann", "Bob"))
    event = t.roll_initiative(spend_luck=True)
    assert t.combat.character("ann").luck == 1 and t.combat.character("bob").luck == 1
    assert [x["hook"] for x in event["effects"]] == ["initiative", "initiative"]
    assert "Luck spent on initiative" in t.message


# ------------------------------------------------------------------------------------------------
# tie-break notes
# ------------------------------------------------------------------------------------------------
def test_tiebreak_notes_show_names_from_their_ids(skirmish):
    t = tracker(skirmish, names=("Ann", "Bob", "Tie"))
    t.combat.rename("ann", "Annabel")
    t.combat.tiebreaks = [
        {"en": "ann before bob: tie on 5", "ru": "ann раньше bob: ничья 5", "pair": ["ann", "bob"]},
        {"en": "bob won the roll-off", "ru": "bob выиграл переброс", "ids": ["bob"]},
        {"en": "decided by Perception", "ru": "решило Восприятие", "ids": ["ann", "bob"]},
    ]
    t.render()
    view = t.tiebreak_view.value
    # only the listed ids are replaced: "tie on 5" keeps its word though a combatant is "tie"
    assert "Annabel before Bob: tie on 5" in view
    assert "Bob won the roll-off" in view
    assert "Annabel · Bob: decided by Perception" in view  # ids not in the text: names in front
    t.locale = "ru"
    assert "Annabel раньше Bob: ничья 5" in t.tiebreak_view.value


def test_tiebreak_notes_without_ids_fall_back_to_whole_words(skirmish):
    t = tracker(skirmish, names=("Ann", "Bob"))
    t.combat.tiebreaks = [{"en": "bob before ann; annex", "ru": "bob раньше ann"}]
    t.render()
    assert "Bob before Ann; annex" in t.tiebreak_view.value


def test_real_tiebreaks_are_shown_with_names(skirmish):
    t = tracker(skirmish, names=("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"))
    for seed in range(40):  # until the dice give a tie
        t.combat.rng = random.Random(seed)
        t.roll_initiative()
        if t.combat.tiebreaks:
            break
    assert t.combat.tiebreaks
    note = t.combat.tiebreaks[0]
    a, b = note["pair"]
    assert f"{t.combat.name(a)} before {t.combat.name(b)}" in t.tiebreak_view.value


# ------------------------------------------------------------------------------------------------
# players
# ------------------------------------------------------------------------------------------------
def test_players_see_no_hidden_combatant_anywhere(skirmish):
    t = tracker(skirmish, names=("Ann", "Bob"))
    t.add_combatant(skirmish.Character(name="Orc"), name="Orc", hidden=True)
    t.add_condition("orc", "bleeding")
    t.combat.tiebreaks = [
        {"en": "orc before ann", "ru": "orc раньше ann", "pair": ["orc", "ann"]},
        {"en": "ann before bob", "ru": "ann раньше bob", "pair": ["ann", "bob"]},
    ]
    t.combat.move("orc", 0)
    player = CombatTracker(combat=t.combat, audience="player")
    for _ in range(3):
        t.next_turn()
    texts = (
        player.log_view.value,
        player.tiebreak_view.value,
        player.round_label.value,
        "".join(r.box.children[1].description for r in player._rows.values()),
    )
    assert all("orc" not in x.lower() for x in texts)
    assert "Ann before Bob" in player.tiebreak_view.value
    assert "Orc before Ann" in t.tiebreak_view.value and "Orc" in t.log_view.value
    # the player's log is the audience projection's: every event about the orc left out
    shown = [e["type"] for e in player.visible_events()]
    assert shown == [
        e["type"]
        for e in t.combat.events
        if e.get("id") != "orc" and "orc" not in (e.get("to"), e.get("from"), e.get("current"))
    ]


@pytest.mark.parametrize("slug", available_systems())
def test_every_system_runs_turns_with_its_hooks(slug):
    system = get_system(slug)
    t = show_combat(system, characters=[system.Character(name=n) for n in ("Ann", "Bob")], rng=random.Random(2))
    t.roll_initiative()
    if system.conditions():
        t.select(t.combat.ids[0])
        t.add_condition_selected()
    for _ in range(4):
        t.next_turn()
    assert "tt-error" not in t.status.value or t.combat.started, t.message
    for e in t.combat.events:
        assert t.describe(e)  # every event, with its effects, in words
    t.locale = "ru"
    assert t.log_view.value
