"""Issue #19: developer text never reaches players. A hostile player fuzzes every system's sheet
and tray (random and boundary values into every field through the widgets' Python API, every
check rolled with random options, in both languages); every message produced along the way
(field errors, the sheet check, tooltips, tray errors, the log) is written for a player: no trait
or class names, no snake_case ids, no Python reprs, no rulebook line markers."""

from __future__ import annotations

import pytest

from tabletop_widgets import available_systems

from player_words import developer_text, fuzz_sheet, fuzz_tray, offenders

SYSTEMS = available_systems()


@pytest.mark.parametrize(
    "text",
    [
        "bad value 99: The value of the 'wits' trait of a Character instance should not be greater than 8",
        "check 'mind' has no success or failure",
        "Stunned: −1 die level on all rolls (L620)",
        "see A-02",
        "abilities[0] needs a name",
        "fine_motor must be 0..7",
        "got {'name': 'x'}",
        "expected None",
        "KeyError: 'x'",
    ],
)
def test_the_checker_catches_developer_text(text):
    assert developer_text(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "Wits: Enter a whole number from 0 to 8 (not 99).",
        "Сообразительность: введите целое число от 0 до 8 (а не 99).",
        "Character sheet",
        "Roll Attention (L5+3)",
        'Weapons, "Sword": Damage: Enter a whole number of at least 0 (not -5).',
        "2d6+1 ≥ 8",
    ],
)
def test_the_checker_lets_player_words_through(text):
    assert developer_text(text) is None


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_fuzzed_sheet_speaks_to_players(slug):
    sheet, seen = fuzz_sheet(slug, seed=19, locale="en")
    assert seen.steps > 100 and len(seen.texts) > 1000  # it did play every field
    problems = [t for t in seen.texts if "✖" in t or "⚠" in t]
    assert problems, "the fuzz made no refused edit: it did not reach the messages"
    assert sheet.locale == "ru"
    assert offenders(seen.texts) == {}


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_fuzzed_tray_speaks_to_players(slug):
    tray, seen = fuzz_tray(slug, seed=19, locale="ru")
    assert seen.steps >= min(15, len(tray.checks)) > 3
    assert tray.roll_log.entries, "nothing was rolled"
    assert tray.locale == "en"
    assert offenders(seen.texts) == {}
