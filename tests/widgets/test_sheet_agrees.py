"""Issue #19: what a sheet says agrees with itself. After any edit sequence, in every system, the
sheet check at the top lists exactly the problems shown next to the fields (plus the whole
character's), counts all of them, and says "No problems found" only when no field shows one."""

from __future__ import annotations

import html
import random
import re

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets import CharacterSheet
from tabletop_widgets.widgets.sheet_fields import ListView, MappingView, ResourceView, ScalarView

from player_words import junk_numbers

_ITEM = re.compile(r'<li class="tt-(error|warning)" data-field="([^"]*)">(.*?)</li>', re.S)


def _items(value: str) -> list[tuple[str, str, str]]:
    """``(severity, field, text)`` of every problem line in an HTML list."""
    out = []
    for severity, field, body in _ITEM.findall(value):
        text = html.unescape(re.sub(r"<[^>]+>", "", body)).strip()
        out.append((severity, field, text))
    return out


def _banner(sheet: CharacterSheet) -> tuple[list[tuple[str, str, str]], dict[str, int]]:
    value = sheet.summary.value
    counts = {"error": 0, "warning": 0}
    m = re.search(r"<summary>.*?</summary>", value, re.S)
    if m:
        head = m.group()
        for mark, key in (("✖", "error"), ("⚠", "warning")):
            c = re.search(mark + r" (\d+)", head)
            counts[key] = int(c.group(1)) if c else 0
    return _items(value), counts


def _beside_fields(sheet: CharacterSheet) -> list[tuple[str, str, str]]:
    out = []
    for name, view in sheet.views.items():
        if "tt-has-problem" not in view.widget._dom_classes:
            continue
        out.extend((sev, field or name, text.lstrip("✖⚠ ").strip()) for sev, field, text in _items(view.problem.value))
    return out


def assert_agrees(sheet: CharacterSheet) -> None:
    banner, counts = _banner(sheet)
    fields = _beside_fields(sheet)
    # the banner's lines name their field's label first ("Wits: ..."): compare the message part
    placed = {(sev, field, text) for sev, field, text in fields}
    listed = {(sev, field) for sev, field, _text in banner}
    for sev, field, text in placed:
        assert any(b[0] == sev and b[1] == field and b[2].endswith(text) for b in banner), (
            f"shown beside {field!r} but not in the sheet check: {text!r}\n{sheet.summary.value}"
        )
    for sev, field, text in banner:
        if field:  # a problem of a field shows next to it
            assert any(p[0] == sev and p[1] == field and text.endswith(p[2]) for p in placed), (
                f"in the sheet check but not beside {field!r}: {text!r}"
            )
    assert counts["error"] == sum(1 for b in banner if b[0] == "error")
    assert counts["warning"] == sum(1 for b in banner if b[0] == "warning")
    if not banner:
        assert "tt-clean" in sheet.summary.value and not placed
    else:
        assert "tt-clean" not in sheet.summary.value
    assert listed >= {(sev, field) for sev, field, _ in placed}


def _edit(sheet: CharacterSheet, rng: random.Random) -> None:
    """One edit a player (or a forged message) makes: a number in or out of range, a choice."""
    views = [v for v in (sheet.views[n] for n in sheet.views) if isinstance(v, (ScalarView, ResourceView, MappingView))]
    view = rng.choice(views)
    if isinstance(view, MappingView):
        keys = view.key_options()
        if keys:
            view.add(rng.choice(keys)[0], str(rng.choice([0, 1, 3, -1, 10**40])))
        return
    ctl = view.control
    if hasattr(ctl, "options") and getattr(ctl, "options", None):
        ctl.index = rng.randrange(len(ctl.options))
    elif isinstance(ctl.value, bool):
        ctl.value = not ctl.value
    elif isinstance(ctl.value, int):
        ctl.value = rng.choice(junk_numbers(view.field.min, view.field.max))
    elif isinstance(ctl.value, str) and view.field.kind in ("input", "resource"):
        ctl.value = str(rng.choice(junk_numbers(view.field.min, view.field.max) + [3]))
    elif isinstance(ctl.value, str):
        ctl.value = rng.choice(["", "Мирон", "x" * 30])


@pytest.mark.parametrize("slug", available_systems())
def test_banner_and_fields_agree_after_edits(slug):
    system = get_system(slug)
    sheet = CharacterSheet(system.Character(name="Мирон"), system, open_sections="all")
    rng = random.Random(19)
    assert_agrees(sheet)
    refused = 0
    for step in range(60):
        _edit(sheet, rng)
        refused += sum(1 for n in sheet.views if sheet.views[n].edit_error is not None)
        assert_agrees(sheet)
        if step % 20 == 19:
            sheet.locale = "ru" if sheet.locale == "en" else "en"
            assert_agrees(sheet)
    assert refused  # the sequence did make refused edits (they must be counted too)
    lists = [sheet.views[n] for n in sheet.views if isinstance(sheet.views[n], ListView)]
    for view in lists[:3]:  # an entry with a bad number, refused: beside the list and in the check
        view.open_form(None)
        for _name, (f, ctl, _lab) in view.form.controls.items():
            if f is not None and f.kind == "input":
                ctl.value = str(10**40)
        view.save_form()
        assert_agrees(sheet)


def test_a_refused_edit_is_counted_by_the_sheet_check():
    """The bug as filed: "✓ No problems found" while a red error showed beside a field."""
    system = get_system("ret")
    c = system.Character(name="Мирон", dp_params=100)
    sheet = CharacterSheet(c, system, open_sections="all")
    problems_before = len(sheet.problems)
    sheet.views["wits"].control.value = 10**40
    assert sheet.views["wits"].edit_error is not None
    banner, counts = _banner(sheet)
    assert "tt-clean" not in sheet.summary.value
    assert counts["error"] == problems_before + 1
    assert any(field == "wits" and "0" in text and "7" in text for _sev, field, text in banner)
    sheet.views["wits"].control.value = 4  # a good edit clears it everywhere
    assert all(field != "wits" or "7" not in text for _sev, field, text in _banner(sheet)[0])
    assert_agrees(sheet)


def test_a_rule_problem_of_a_field_not_on_the_sheet_shows_beside_the_field_that_shows_it():
    """A problem about a value the sheet shows inside another field (a resource's maximum, a
    budget) is placed beside that field, not only in the folded sheet check."""
    for slug in available_systems():
        system = get_system(slug)
        sheet = CharacterSheet(system.Character(name="Мирон"), system, open_sections="all")
        for home, p in sheet.shown_problems():
            if p.field is not None and home is None:
                names = {n for s in system.sheet.sections for f in s.fields for n in (f.name, f.max_trait) if n}
                assert p.field not in names, (slug, p.field)
        assert_agrees(sheet)


def test_the_new_form_starts_an_item_at_the_systems_declared_defaults():
    """A new R.E.T. ability in the sheet's New form starts as the book starts one (level 3 on a
    third-tier parameter, not a pillar: L407, L1726), the core's ``new_item``, not the widget's
    own blanks (level 1 on the first parameter)."""
    from tabletop_widgets.core.sheet import new_item

    system = get_system("ret")
    sheet = CharacterSheet(system.Character(name="Мирон"), system, open_sections="all")
    view = sheet.views["abilities"]
    view.open_form(None)
    shown = {name: ctl.value for name, (f, ctl, _lab) in view.form.controls.items() if f is not None}
    expected = new_item(view.field)
    assert expected["level"] == 3 and expected["base_param"] not in ("body", "mind", "spirit")
    assert str(shown["level"]) == "3" and shown["base_param"] == expected["base_param"]
