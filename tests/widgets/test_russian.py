"""The Russian interface as a Russian player meets it: every widget of every system opens
directly in Russian (and switched from English), and what it shows after a session of play has
no English in it, no rulebook line markers, and no internal ids."""
from __future__ import annotations

import random
import re

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets import CharacterSheet, DiceTray, RollLog, show_tray
from tabletop_widgets.widgets.tracker import show_combat

from russian_screens import latin_words, play_sheet, play_tracker, play_tray, widget_texts

SYSTEMS = available_systems()


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_widget_opens_directly_in_russian(slug):
    """The tray used to crash when built in Russian (its labels were drawn before its parts)."""
    system = get_system(slug)
    character = system.Character(name="Аня")
    tray = DiceTray(character, locale="ru", rng=random.Random(1))
    assert tray.locale == "ru" and tray.locale_toggle.value == "ru"
    assert "Обстановка" in tray.situation_title.value or tray.situation.layout.display == "none"
    assert "Проверки" in tray.checks_title.value
    assert show_tray(character, locale="ru").locale == "ru"
    assert show_tray(locale="ru").locale == "ru"          # notation only
    sheet = CharacterSheet(character, locale="ru")
    assert sheet.locale == "ru"
    tracker = show_combat(system, characters=[system.Character(name="Аня")], locale="ru",
                          rng=random.Random(2))
    assert tracker.locale == "ru" and "Бой" in tracker.title.value
    log = RollLog(locale="ru")
    assert log.locale == "ru"
