"""The combat tracker widget without a browser: clicks, fake front-end messages (with the
'buffers' key, notes-jupyter §1.1), every installed system rendered from what it declares."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
import traitlets

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.widgets.tracker import TEXTS, CombatTracker, show_combat
from helpers import frontend_click, frontend_update

SYSTEMS = available_systems()


def tracker_for(slug, names=("Ann", "Bob", "Cid"), **kw) -> CombatTracker:
    system = get_system(slug)
    return show_combat(system, characters=[system.Character(name=n) for n in names], rng=random.Random(3), **kw)


def row(t: CombatTracker, cid: str):
    return t._rows[cid]


def current_rows(t: CombatTracker) -> list[str]:
    return [cid for cid, r in t._rows.items() if "tt-current" in r.box._dom_classes]


@pytest.fixture(params=SYSTEMS)
def slug(request):
    return request.param


def test_every_system_renders_a_tracker(slug):
    t = tracker_for(slug)
    system = t.system
    assert "tt-tracker" in t._dom_classes
    assert [r.box for r in (row(t, c) for c in ["ann", "bob", "cid"])] == list(t.list_box.children)
    for cid in ("ann", "bob", "cid"):
        cur, mx = system.health(t.combat.character(cid))
        assert f"{cur} / {mx}" in row(t, cid).hp.value
        assert 'role="meter"' in row(t, cid).hp.value
    t.select("bob")
    t.open_details("options")  # folded until opened, as a player opens it
    specs = system.damage_options(t.combat.character("bob"))
    assert list(t._option_widgets) == [s.name for s in specs]
    assert [w.description for w in t.options_box.children] == [tr(s.label) for s in specs]
    assert [v for _, v in t.condition_picker.options] == [c.id for c in system.conditions()]
    assert html.escape(tr(system.title)) in t.title.value  # escaped: system text is not markup


def test_next_and_previous_move_the_highlight(slug):
    t = tracker_for(slug)
    assert t.next_button.description == TEXTS["start"]["en"]
    assert current_rows(t) == []
    frontend_click(t.next_button)
    assert current_rows(t) == ["ann"] and "▶" in row(t, "ann").marker.value
    assert t.next_button.description == TEXTS["next"]["en"]
    t.next_button.click()
    assert current_rows(t) == ["bob"]
    assert re.search(r"Round <b class=\"tt-round-number\">1</b>", t.round_label.value)
    t.next_button.click()
    t.next_button.click()
    assert current_rows(t) == ["ann"] and ">2<" in t.round_label.value
    t.prev_button.click()
    assert current_rows(t) == ["cid"]


def test_skip_defeated_both_ways_on_screen(slug):
    t = tracker_for(slug)
    t.next_button.click()
    frontend_update(row(t, "bob").defeated, value=True)
    assert t.combat.is_defeated("bob") and "tt-is-defeated" in row(t, "bob").box._dom_classes
    t.next_button.click()
    assert current_rows(t) == ["cid"]
    t.prev_button.click()
    assert current_rows(t) == ["ann"]


def test_initiative_shows_the_rolls_and_tiebreaks_with_names(slug):
    t = tracker_for(slug, names=("Ann", "Bob", "Cid", "Dan", "Eve"))
    t.initiative_button.click()
    order = t.combat.ids
    assert [r for r in t.list_box.children] == [row(t, c).box for c in order]
    for cid in order:
        text = tr(t.combat.combatant(cid).initiative["text"])
        assert html.escape(t._names_in(text)) in row(t, cid).init.value
    if t.combat.tiebreaks:
        assert t.tiebreak_view.layout.display == ""
        assert TEXTS["tiebreaks"]["en"] in t.tiebreak_view.value
    else:
        assert t.tiebreak_view.layout.display == "none"


def test_tiebreak_text_names_combatants(slug):
    t = tracker_for(slug)
    t.combat.rename("ann", "Annabel")
    t.combat.tiebreaks = [{"en": "ann before bob: roll-off", "ru": "ann раньше bob: переброс"}]
    t.render()
    assert "Annabel before Bob: roll-off" in t.tiebreak_view.value
    t.locale = "ru"
    assert "Annabel раньше Bob: переброс" in t.tiebreak_view.value


def test_damage_and_heal_from_the_panel_use_the_system(slug):
    t = tracker_for(slug)
    system = t.system
    t.select("bob")
    frontend_update(t.amount, value=3)
    twin = system.Character(name="Bob")
    system.apply_damage(twin, 3, **t.damage_option_values())
    frontend_click(t.damage_button)
    assert t.combat.character("bob").to_dict() == twin.to_dict()
    cur, mx = system.health(twin)
    assert f"{cur} / {mx}" in row(t, "bob").hp.value
    assert t.message.startswith("Bob: damage 3")
    full = system.health(system.Character(name="Bob"))
    if (cur, mx) != full:  # the log speaks in health, not in trait names
        assert f"({full[0]}→{cur} / {mx})" in t.message
    system.apply_healing(twin, 3)
    t.heal_button.click()
    assert t.combat.character("bob").to_dict() == twin.to_dict()
    assert t.combat.events[-1]["type"] == "heal"


def test_damage_options_are_passed_to_the_rules(slug):
    t = tracker_for(slug)
    t.select("ann")
    t.open_details("options")
    seen = {}
    real = type(t.system).apply_damage

    def spy(self, character, amount, **options):
        seen.update(options)
        return real(self, character, amount, **options)

    type(t.system).apply_damage = spy
    try:
        for name, w in t._option_widgets.items():
            if hasattr(w, "options") and len(w.options) > 1:
                frontend_update(w, index=1)
            elif isinstance(w.value, bool):
                frontend_update(w, value=not w.value)
        t.damage_button.click()
    finally:
        type(t.system).apply_damage = real
    assert seen == t.damage_option_values()
    assert t.combat.events[-1]["options"] == json.loads(json.dumps(seen))


def test_conditions_picker_with_duration_and_removal(slug):
    t = tracker_for(slug)
    t.next_button.click()
    t.select("bob")
    spec = t.system.conditions()[0]
    t.condition_picker.value = spec.id
    frontend_update(t.condition_duration, value=2)
    t.add_condition_button.click()
    assert [c["id"] for c in t.combat.conditions("bob")] == [spec.id]
    assert tr(spec.label) in row(t, "bob").tags.value and "2 turns" in row(t, "bob").tags.value
    chips = t.conditions_box.children
    assert len(chips) == 1 and "tt-condition-remove" in chips[0]._dom_classes
    frontend_click(chips[0])
    assert t.combat.conditions("bob") == [] and t.conditions_box.children == ()


def test_rename_reorder_remove_and_undo_from_the_panel(slug):
    t = tracker_for(slug)
    t.next_button.click()
    t.select("bob")
    frontend_update(t.rename_text, value="Robert")
    t.rename_button.click()
    assert t.combat.name("bob") == "Robert" and row(t, "bob").select.description == "Robert"
    t.up_button.click()
    assert t.combat.ids == ["bob", "ann", "cid"] and current_rows(t) == ["ann"]
    t.down_button.click()
    t.remove_button.click()
    assert "bob" not in t.combat and t.selected is None and len(t.list_box.children) == 2
    t.undo_button.click()
    assert t.combat.ids == ["ann", "bob", "cid"] and len(t.list_box.children) == 3
    assert current_rows(t) == ["ann"]


def test_add_form_blank_and_copy(slug):
    t = tracker_for(slug)
    t.combat.damage("ann", 1, **{o.name: o.default for o in t.system.damage_options(t.combat.character("ann"))})
    frontend_update(t.new_name, value="Goblin")
    t.new_template.value = "ann"
    t.add_button.click()
    assert t.combat.ids[-1] == "goblin" and t.combat.name("goblin") == "Goblin"
    copy = t.combat.character("goblin").to_dict()
    orig = t.combat.character("ann").to_dict()
    assert {k: v for k, v in copy.items() if k != "name"} == {k: v for k, v in orig.items() if k != "name"}
    assert t.new_name.value == ""
    # Enter in the name box adds a blank one; an empty name is refused with a message
    frontend_update(t.new_name, value="Orc")
    t.new_template.value = ""
    t.new_name._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "submit"}}}, "buffers": []})
    assert t.combat.ids[-1] == "orc"
    n = len(t.combat.events)
    t.add_button.click()
    assert len(t.combat.events) == n and "tt-error" in t.status.value


def test_delay_and_act_now(slug):
    t = tracker_for(slug)
    t.next_button.click()
    assert row(t, "ann").act_now.layout.display == "none"
    t.delay_button.click()
    assert current_rows(t) == ["bob"] and row(t, "ann").act_now.layout.display == ""
    assert TEXTS["delayed"]["en"] in row(t, "ann").tags.value
    frontend_click(row(t, "ann").act_now)
    assert current_rows(t) == ["ann"] and t.combat.ids == ["bob", "ann", "cid"]


def test_hidden_combatants_for_players(slug):
    t = tracker_for(slug)
    frontend_update(row(t, "cid").hidden, value=True)
    assert t.combat.combatant("cid").hidden and "tt-is-hidden" in row(t, "cid").box._dom_classes
    t.initiative_button.click()
    t.combat.tiebreaks = [
        {"en": "cid before ann", "ru": "cid раньше ann"},
        {"en": "ann before bob", "ru": "ann раньше bob"},
    ]
    for _ in range(3):
        t.next_button.click()
    player = CombatTracker(combat=t.combat, audience="player")
    assert len(player.list_box.children) == 2
    for text in (player.log_view.value, player.tiebreak_view.value, player.round_label.value):
        assert "Cid" not in text and "cid" not in text
    assert "Ann before Bob" in player.tiebreak_view.value
    assert "Cid" in t.log_view.value and "Cid before Ann" in t.tiebreak_view.value
    assert all(player._rows[c].hidden.layout.display == "none" for c in ("ann", "bob"))


def test_can_is_asked_in_every_handler(slug):
    asked = []

    def can(action):
        asked.append(action)
        return action not in ("next", "damage", "defeated", "undo", "add")

    t = tracker_for(slug, can=can)
    n = len(t.combat.events)
    t.next_button.disabled = True
    frontend_click(t.next_button)  # a forged click on a disabled button
    assert t.combat.current is None and "tt-error" in t.status.value
    assert t.message == TEXTS["not_allowed"]["en"]
    t.select("bob")
    t.damage_button.click()
    frontend_update(row(t, "bob").defeated, value=True)
    assert row(t, "bob").defeated.value is False  # the refused toggle springs back
    frontend_update(t.new_name, value="Sneaky")
    t.add_button.click()
    t.undo_button.click()
    assert len(t.combat.events) == n
    assert {"next", "damage", "defeated", "undo", "add"} <= set(asked)
    assert t.add_box.layout.display == "none"
    t.delay_button.click()  # allowed but illegal: the rules refuse it
    assert "tt-error" in t.status.value


def test_locale_switches_live(slug):
    t = tracker_for(slug)
    t.next_button.click()
    t.select("ann")
    frontend_update(t.locale_toggle, index=1)  # the front end sends the index
    assert t.locale == "ru"
    assert t.next_button.description == TEXTS["next"]["ru"]
    assert TEXTS["round"]["ru"] in t.round_label.value
    assert row(t, "ann").defeated.description == TEXTS["defeated"]["ru"]
    specs = t.system.damage_options(t.combat.character("ann"))
    assert [w.description for w in t.options_box.children] == [tr(s.label, "ru") for s in specs]
    assert [lab for lab, _ in t.condition_picker.options] == [tr(c.label, "ru") for c in t.system.conditions()]
    t.next_button.click()
    assert t.message.startswith(t.system.term("turn", "ru").lower() + ":")  # Threads: «очередь»
    t.locale = "en"
    assert t.next_button.description == TEXTS["next"]["en"]


def test_a_replayed_combat_renders_the_same(slug):
    t = tracker_for(slug, names=("Ann", "Bob", "Cid", "Dan"))
    t.initiative_button.click()
    t.next_button.click()
    t.next_button.click()
    log = json.loads(json.dumps(t.combat.events))
    viewer = CombatTracker(combat=Combat.replay(t.system, None, log))
    assert [r.select.description for r in (viewer._rows[c] for c in viewer.combat.ids)] == [
        r.select.description for r in (t._rows[c] for c in t.combat.ids)
    ]
    assert current_rows(viewer) == current_rows(t)
    assert viewer.round_label.value == t.round_label.value


def test_bad_construction():
    with pytest.raises(ValueError):
        CombatTracker()
    with pytest.raises(traitlets.TraitError, match="unknown locale 'fr'"):
        CombatTracker(SYSTEMS[0], locale="fr")


def test_texts_exist_in_both_languages():
    for key, text in TEXTS.items():
        assert text.get("en") and text.get("ru"), key


def test_initiative_button_rolls_only_for_late_joiners(slug):
    t = tracker_for(slug)
    t.initiative_button.click()
    t.next_button.click()
    t.next_button.click()
    cur = t.combat.current
    rolls = {c: t.combat.combatant(c).initiative for c in t.combat.ids}
    t.combat.add(None, t.system.Character(name="Zed"))
    assert t.initiative_button.tooltip == TEXTS["initiative_late_tip"]["en"]
    t.initiative_button.click()
    assert t.combat.events[-1]["ids"] == ["zed"]
    assert {c: t.combat.combatant(c).initiative for c in rolls} == rolls
    assert t.combat.current == cur and current_rows(t) == [cur]
    t.initiative_button.click()  # everyone has one now: a full re-roll
    assert sorted(t.combat.events[-1]["ids"]) == sorted(t.combat.ids)
    assert t.combat.current == cur


def test_end_button_and_disabled_states(slug):
    t = tracker_for(slug)
    assert t.prev_button.disabled and t.delay_button.disabled and t.end_button.disabled
    assert t.undo_button.disabled is False  # the adds can be undone
    t.next_button.click()
    assert not t.end_button.disabled
    t.end_button.click()
    assert TEXTS["not_started"]["en"] in t.round_label.value and current_rows(t) == []
    empty = CombatTracker(t.system)
    assert empty.next_button.disabled and empty.empty_note.layout.display == ""
    assert TEXTS["empty"]["en"] in empty.empty_note.value


def test_a_step_made_on_the_combat_is_announced_as_the_trackers_own():
    """A page may play a fight on the Combat, then draw its tracker once (issue 21):
    ``announce`` shows a step in the status line as the tracker's own action would."""
    system = get_system("ret")
    combat = Combat(system, rng=random.Random(5))
    for name in ("Ann", "Bob"):
        combat.add(None, system.Character(name=name))
    combat.roll_initiative()
    combat.next_turn()
    blow = combat.attack(combat.current, next(i for i in combat.ids if i != combat.current), "melee:unarmed")
    t = CombatTracker(combat=combat)
    assert t.status.value == ""
    t.announce(blow)
    assert 'class="tt-msg"' in t.status.value and html.escape(t.describe(blow)) in t.status.value
    assert t.message == t.describe(blow)
    with pytest.raises(ValueError, match="this combat's events"):
        t.announce({"type": "attack", "forged": True})  # not one of its events: nothing shown
    assert t.message == t.describe(blow)
