"""The tracker makes the selected combatant's panel when a combatant is first selected, and its
folded parts (damage and healing options, conditions, name and order) when first opened; a seat
that may not add combatants gets no form for it. Opened from the front end as a player does."""

from __future__ import annotations

import random

import pytest
from ipywidgets import Widget

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets.tracker import DETAILS, LAZY_PARTS, TEXTS, CombatTracker, show_combat
from helpers import frontend_click, frontend_update


def tracker_for(slug, **kw) -> CombatTracker:
    system = get_system(slug)
    names = ("Ann", "Bob", "Cid")
    return show_combat(system, characters=[system.Character(name=n) for n in names], rng=random.Random(3), **kw)


def _models(widget: Widget, seen: set | None = None) -> set:
    """Every widget model under ``widget`` (children, layouts, styles)."""
    seen = set() if seen is None else seen
    if widget.model_id in seen:
        return seen
    seen.add(widget.model_id)
    for name in widget.keys:
        value = getattr(widget, name, None)
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, Widget):
                _models(item, seen)
    return seen


@pytest.mark.parametrize("slug", available_systems())
def test_the_panel_is_made_on_first_selection_and_its_parts_when_opened(slug):
    t = tracker_for(slug)
    assert t.built_parts() == {"add"}  # the GM's form for adding; no panel yet
    assert t.panel_body.children == ()
    before = len(_models(t))
    t.select("bob")
    assert t.built_parts() == {"add", "harm"}
    assert t.details.selected_index is None
    assert [t.details.get_title(i) for i in range(len(DETAILS))] == [TEXTS[f"{part}_section"]["en"] for part in DETAILS]
    assert all(pane.children == () for pane in t.details.children)
    for index, part in enumerate(DETAILS):
        frontend_update(t.details, selected_index=index)  # a click on the part's header
        assert part in t.built_parts()
        assert t.details.children[index].children, part
    assert len(_models(t)) > before
    # a part made once is not made again
    picker = t.condition_picker
    frontend_update(t.details, selected_index=None)
    frontend_update(t.details, selected_index=DETAILS.index("conditions"))
    assert t.condition_picker is picker


def test_opened_parts_show_the_selected_combatant_and_follow_the_language():
    t = tracker_for("ret")
    t.select("ann")
    frontend_update(t.details, selected_index=DETAILS.index("edit"))
    assert t.rename_text.value == "Ann"
    frontend_update(t.details, selected_index=DETAILS.index("conditions"))
    system = t.system
    assert [v for _, v in t.condition_picker.options] == [c.id for c in system.conditions()]
    t.select("bob")
    assert t.rename_text.value == "Bob"
    t.locale = "ru"
    assert t.details.get_title(DETAILS.index("edit")) == TEXTS["edit_section"]["ru"]
    assert t.rename_button.description == TEXTS["rename"]["ru"]


@pytest.mark.parametrize("slug", available_systems())
def test_damage_with_the_options_folded_applies_the_same_defaults_as_the_controls(slug):
    folded, opened = tracker_for(slug), tracker_for(slug)
    for t in (folded, opened):
        t.select("bob")
        frontend_update(t.amount, value=3)
    opened.open_details("options")
    assert "options" not in folded.built_parts()
    assert folded.damage_option_values() == opened.damage_option_values()
    assert folded.heal_option_values() == opened.heal_option_values()
    frontend_click(folded.damage_button)
    frontend_click(opened.damage_button)
    assert folded.combat.events[-1] == opened.combat.events[-1]
    assert folded.combat.character("bob").to_dict() == opened.combat.character("bob").to_dict()


def test_reading_a_part_as_an_attribute_makes_it():
    t = tracker_for("seasons")
    t.select("cid")
    assert "conditions" not in t.built_parts()
    first = t.condition_picker.options[0][1]  # made on the way
    assert "conditions" in t.built_parts()
    frontend_update(t.condition_picker, index=0)
    frontend_update(t.condition_duration, value=2)
    frontend_click(t.add_condition_button)
    event = t.combat.events[-1]
    assert (event["type"], event["id"], event["condition"], event["duration"]) == ("add_condition", "cid", first, 2)
    assert [b.description.startswith("✕") for b in t.conditions_box.children] == [True]
    with pytest.raises(AttributeError):
        t.no_such_widget  # noqa: B018 - an unknown name is still an AttributeError
    with pytest.raises(ValueError, match="unknown panel part"):
        t.open_details("sheet")


def test_a_seat_that_may_not_act_gets_neither_the_form_nor_the_panels_parts():
    gm = tracker_for("threads_of_fate")
    player = CombatTracker(combat=gm.combat, audience="player", can=lambda action: False)
    assert "add" not in player.built_parts()
    assert player.add_box.children == () and player.add_box.layout.display == "none"
    player.select("ann")  # a player may look at a combatant
    assert player.built_parts() == {"harm"}
    # a forged click on a part's header makes it, and every action in it is still refused
    frontend_update(player.details, selected_index=DETAILS.index("edit"))
    frontend_click(player.remove_button)
    assert "ann" in gm.combat and player.message == TEXTS["not_allowed"]["en"]
    assert set(LAZY_PARTS) >= player.built_parts()
