"""The gallery's system switch (tabletop_widgets.widgets.system_switch) without a browser: the
gallery used to show one system, chosen in the URL; the switch shows the part for any of them."""

from __future__ import annotations

import pytest

from tabletop_widgets import available_systems
from tabletop_widgets.widgets.sheet import CharacterSheet, show_sheet
from tabletop_widgets.widgets.system_switch import ORDER, SystemSwitch, in_order, short_title
from tabletop_widgets import get_system
from helpers import frontend_update


def _sheets(calls):
    def build(slug, locale):
        calls.append((slug, locale))
        return show_sheet(get_system(slug).Character(name="Mira"), locale=locale)

    return build


def test_it_offers_every_system_in_the_index_order_and_builds_only_the_chosen_one():
    calls = []
    switch = SystemSwitch(_sheets(calls), "seasons")
    assert switch.systems == in_order(available_systems()) and switch.systems[:4] == list(ORDER)
    assert [value for _, value in switch.choice.options] == switch.systems
    assert [label for label, _ in switch.choice.options][:4] == [
        "R.E.T.",
        "Seasons",
        "Life & Death's Game",
        "Threads of Fate",
    ]
    assert calls == [("seasons", "en")] and switch.choice.value == "seasons"
    assert isinstance(switch.part, CharacterSheet) and switch.box.children == (switch.part,)
    assert "tt-system-switch" in switch._dom_classes and "tt-system-choice" in switch.choice._dom_classes
    assert switch.choice.tooltips[0] == "Show this part for R.E.T."


def test_a_click_shows_another_system_and_closes_the_old_part():
    calls = []
    switch = SystemSwitch(_sheets(calls), "ret")
    old = switch.part
    frontend_update(switch.choice, index=3)  # the browser sends the button's index
    assert switch.slug == "threads_of_fate" and calls[-1] == ("threads_of_fate", "en")
    assert switch.part is not old and old.comm is None  # closed: nothing left in the kernel
    assert switch.part.system.slug == "threads_of_fate"
    switch.select("seasons")
    assert switch.part.system.slug == "seasons"
    with pytest.raises(KeyError):
        switch.select("chess")


def test_the_part_keeps_its_language_and_the_labels_follow_it():
    calls = []
    switch = SystemSwitch(
        _sheets(calls), "ret", caption={"en": "The sheet of each system.", "ru": "Лист каждой системы."}
    )
    assert "The sheet of each system." in switch.caption.value and "Game system" in switch.label.value
    switch.part.locale = "ru"  # the sheet's own EN/RU toggle
    assert switch.locale == "ru" and "Игровая система" in switch.label.value
    assert "Лист каждой системы." in switch.caption.value
    assert [label for label, _ in switch.choice.options][:4] == [
        "Р.Э.Т.",
        "Времена Года",
        "Life&Death’s Game",
        "Нити судьбы",
    ]
    assert switch.choice.value == "ret" and calls == [("ret", "en")]  # relabelled, not rebuilt
    switch.select("life_and_death")
    assert calls[-1] == ("life_and_death", "ru") and switch.part.locale == "ru"


def test_a_forged_choice_is_put_back():
    switch = SystemSwitch(_sheets([]), "ret", systems=["ret", "seasons"])
    part = switch.part
    switch.choice.value = "seasons"
    assert switch.part is not part
    switch._on_choice({"new": "chess"})
    assert switch.choice.value == "seasons" and switch.slug == "seasons"


def test_an_unknown_first_system_opens_on_the_first_one():
    switch = SystemSwitch(_sheets([]), "nope")
    assert switch.slug == "ret"


def test_short_titles_drop_the_subtitle():
    assert short_title("ret", "en") == "R.E.T." and short_title("ret", "ru") == "Р.Э.Т."
    assert short_title("threads_of_fate", "en") == "Threads of Fate"
    assert short_title("threads_of_fate", "ru") == "Нити судьбы"
    assert in_order(["zeta", "threads_of_fate", "alpha", "ret"]) == ["ret", "threads_of_fate", "alpha", "zeta"]
