"""The sheet's file buttons in a player's words (issue 32 item 11): "Save to a file" and "Load
from a file", never "JSON", and the upload button without the widget's file count "(0)": its
words are drawn by sheet.css per language, kept equal to the sheet's texts here."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.core.i18n import LOCALES
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.sheet_file import TEXTS


def test_the_css_draws_the_load_buttons_words_in_every_language():
    css = files("tabletop_widgets.front").joinpath("sheet.css").read_text(encoding="utf-8")
    for loc in LOCALES:
        (drawn,) = re.findall(rf'\.tt-sheet-load\.tt-load-{loc}::after \{{ content: "([^"]+)"; \}}', css)
        assert drawn == TEXTS["load"][loc]
        assert re.search(rf"\.tt-sheet-load\.tt-load-{loc}[, ][^{{]*\{{ font-size: 0 !important; \}}", css), loc


@pytest.mark.parametrize("locale", LOCALES)
def test_the_file_buttons_speak_to_a_player(locale):
    sheet = CharacterSheet(get_system("ret").Character(name="Aria"), locale=locale)
    part = sheet.file
    assert "JSON" not in part.save_button.description and "JSON" not in part.upload.description
    assert part.upload.description == TEXTS["load"][locale]
    assert f"tt-load-{locale}" in part.upload._dom_classes
    other = "ru" if locale == "en" else "en"
    sheet.locale = other  # switching the language moves the drawn words with it
    assert f"tt-load-{other}" in part.upload._dom_classes and f"tt-load-{locale}" not in part.upload._dom_classes
    assert part.save_button.description == TEXTS["save"][other]


def test_luck_over_its_maximum_says_so():
    """Р.Э.Т.'s Luck may exceed its maximum (the book: declared before a roll, refilled each
    session): "7 / 6" alone reads as a bug, so the sheet adds "+1 over" (its tooltip says why); other resources at
    or under their maximum say nothing more."""
    ch = get_system("ret").Character(name="Aria")
    sheet = CharacterSheet(ch)
    luck = sheet.views["luck"]
    ch.luck = ch.luck_max + 1
    assert "+1 over<" in luck.max_html.value and "tt-res-over" in luck.max_html.value
    assert "1 over its maximum, as the rules allow" in luck.max_html.value  # its tooltip
    sheet.locale = "ru"
    assert "+1 сверх<" in luck.max_html.value and "выше максимума" in luck.max_html.value
    ch.luck = ch.luck_max
    assert "tt-res-over" not in luck.max_html.value
    health = sheet.views["health"]
    assert not health.field.over_max and "tt-res-over" not in health.max_html.value
