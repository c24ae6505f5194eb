"""The widgets' stylesheets ship as package files (tabletop_widgets/front/*.css) with colour roles
for light and dark themes."""

from __future__ import annotations

import re

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.dice.render import ROLL_CSS
from tabletop_widgets.front import HERE, compact, css, stylesheet
from tabletop_widgets.widgets import CombatTracker, DiceTray, Lobby, RollLog, RollerPage, show_sheet

SHEETS = ["sheet", "tray", "tracker", "log", "roller", "table", "lobby", "safety"]


def roles_used(text: str) -> set[str]:
    return set(re.findall(r"var\(--tt-([a-z0-9-]+),", text))


def dark_roles() -> set[str]:
    theme = css("theme")
    block = re.search(r'body\[data-jp-theme-light="false"\]\s*\{(.*?)\}', theme, re.S)
    assert block, "theme.css has no dark block"
    return set(re.findall(r"--tt-([a-z0-9-]+)\s*:", block.group(1)))


@pytest.mark.parametrize("name", SHEETS)
def test_every_colour_role_has_a_dark_value(name):
    used = roles_used(css(name))
    assert used, f"{name}.css uses no colour role"
    missing = used - dark_roles()
    assert not missing, f"{name}.css: roles without a dark value: {sorted(missing)}"


def test_roll_breakdown_roles_have_dark_values_in_both_places():
    used = roles_used(ROLL_CSS)
    own = re.search(r'body\[data-jp-theme-light="false"\]\{(.*?)\}', ROLL_CSS).group(1)
    assert used <= set(re.findall(r"--tt-([a-z0-9-]+):", own))
    assert used <= dark_roles()


@pytest.mark.parametrize("name", SHEETS)
def test_cards_and_text_take_their_colours_from_roles(name):
    """A card's background and the text on it are never a bare light literal (the bug: a light
    card kept under the dark theme's white text)."""
    text = css(name)
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", text):
        bg = re.search(r"background(?:-color)?\s*:\s*(#fff\b|#fbfbfd|#fbf8f1|#fffdf6|#fffaf0)", body)
        assert not bg, f"{name}.css: {selector.strip()} has a bare card background {bg.group(1)}"


def test_stylesheet_is_theme_then_the_named_files_in_one_style_block():
    block = stylesheet("sheet", "log")
    assert block.startswith("<style>") and block.endswith("</style>")
    assert block.count("<style>") == 1
    theme, sheet, log = (compact(css(n)) for n in ("theme", "sheet", "log"))
    assert block.index(theme) < block.index(sheet) < block.index(log)
    assert stylesheet("sheet") is stylesheet("sheet")  # read and joined once
    assert "/*" not in block and "  " not in block and len(block) < sum(len(css(n)) for n in ("theme", "sheet", "log"))


def test_compact_keeps_the_rules():
    text = "/* note */\n.a  .b ,\n.c > .d {\n  color: var(--tt-ink, #111);\n  font-family: 'DejaVu Sans', serif; }\n"
    assert compact(text) == ".a .b,.c > .d{color: var(--tt-ink,#111);font-family: 'DejaVu Sans',serif;}"


def test_every_stylesheet_is_a_shipped_file():
    shipped = {p.stem for p in HERE.glob("*.css")}
    assert set(SHEETS) | {"theme"} <= shipped
    with pytest.raises(FileNotFoundError, match="no bundled file 'nope.css'"):
        css("nope")


def test_widgets_carry_their_stylesheet_and_keep_their_classes():
    ret = get_system("ret")
    hero = ret.Character(name="Hero")
    cases = [
        (show_sheet(hero), "sheet", ".tt-sheet"),
        (DiceTray(hero), "tray", ".tt-dice-tray"),
        (CombatTracker(ret), "tracker", ".tt-tracker"),
        (RollLog(), "log", ".tt-roll-log"),
        (RollerPage(), "roller", ".tt-roller"),
        (Lobby(), "lobby", ".tt-lobby"),
    ]
    for widget, name, cls in cases:
        value = widget.style_block.value
        assert compact(css(name)) in value and compact(css("theme")) in value, name
        assert cls + " " in css(name) or cls + "," in css(name), (name, cls)
        widget.close()


def test_hint_mark_is_a_plain_letter_drawn_as_a_circle_by_css():
    ret = get_system("ret")
    sheet = show_sheet(ret.Character(name="Hero"))
    labels = [v.label.value for v in sheet.views.values() if v.field.help]
    assert labels and all('<span class="tt-help" aria-hidden="true">i</span>' in lab for lab in labels)
    assert all("ⓘ" not in lab for lab in labels)
    rule = re.search(r"\.tt-help\s*\{([^}]*)\}", css("sheet")).group(1)
    assert "border-radius: 50%" in rule and "currentColor" in rule
    sheet.close()


def test_every_widget_font_list_starts_with_the_bundled_symbols():
    """Signs some default fonts lack (✓ ▶ ↶ ...) come from the bundled TT Symbols font: every
    widget's own font list names it first, and theme.css declares it, embedded, for just those
    signs (the browser test tests/ui/test_phone_ui.py checks what is drawn)."""
    import base64

    for name in SHEETS:
        families = re.findall(r"font-family:\s*([^;}]+)", css(name))
        text_fonts = [f for f in families if "Mono" not in f and "monospace" not in f]
        assert text_fonts, name
        assert all(f.strip().startswith("'TT Symbols'") for f in text_fonts), (name, text_fonts)
    face = re.search(r"@font-face\s*\{([^}]*)\}", css("theme")).group(1)
    assert "font-family: 'TT Symbols'" in face
    data = re.search(r"url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\)", face).group(1)
    woff = base64.b64decode(data)
    assert woff[:4] == b"wOFF" and len(woff) < 4096
    ranges = re.search(r"unicode-range:\s*([^;]+);", face).group(1)
    covered: set[int] = set()
    for part in ranges.split(","):
        a, _, b = part.strip().removeprefix("U+").partition("-")
        covered.update(range(int(a, 16), int(b or a, 16) + 1))
    assert {ord(c) for c in "✓✗✖⚠✕▶◀↶⬇"} == covered
    # and the stylesheet a widget carries keeps the face intact through compact()
    assert data in stylesheet("tray")
