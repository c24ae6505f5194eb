"""Folded sections of the character sheet are built when first opened, and still bind both ways;
the sheet shares one style and one (unchangeable) layout among its plain pieces, so a notebook
saved with widget state stays small."""

from __future__ import annotations

import json

import ipywidgets as widgets
import pytest
import traitlets
from ipywidgets.widgets import widget as widget_module

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets.sheet import CharacterSheet, starts_open
from tabletop_widgets.widgets.sheet_fields import SharedLayout, html_widget, own_layout
from helpers import frontend_click, frontend_update


def tree(widget):
    out, stack = [], [widget]
    while stack:
        w = stack.pop()
        out.append(w)
        stack.extend(getattr(w, "children", ()) or ())
    return out


def classes(widget):
    return set(widget._dom_classes)


@pytest.fixture
def ret_sheet():
    ret = get_system("ret")
    hero = ret.Character(name="Vera")
    sheet = CharacterSheet(hero)
    yield sheet, hero
    sheet.close()


def test_reference_sections_start_folded_and_unbuilt(ret_sheet):
    sheet, _hero = ret_sheet
    assert sheet.is_open("parameters") and sheet.is_open("resources")
    assert not sheet.is_open("abilities") and not sheet.is_open("notes")
    box = sheet.sections["abilities"]
    title, toggle = box.children  # the card's own children: no box for the head, nothing built
    assert "tt-section-title" in classes(title) and "tt-folded" in classes(box)
    assert "abilities" not in sheet.views.built and "abilities" not in sheet.built_sections
    assert "tt-section-toggle" in classes(toggle) and toggle.description == "Show"


def test_opening_builds_once_and_folding_keeps_the_widgets(ret_sheet):
    sheet, hero = ret_sheet
    box = sheet.sections["abilities"]
    _title, toggle = box.children
    frontend_click(toggle)  # the user opens the section
    assert sheet.is_open("abilities") and len(box.children) > 2  # its parts, after the head
    assert "tt-folded" not in classes(box) and toggle.description == "Hide"
    view = sheet.views.built["abilities"]
    assert view.widget in tree(box)
    # the validation problem found while it was folded shows next to the field now
    assert any(p.field == "abilities" for p in sheet.problems)
    assert "tt-field-problem" in classes(view.problem) and view.problem.layout.display is None
    frontend_click(toggle)  # fold again: same widgets, hidden
    assert not sheet.is_open("abilities") and "tt-folded" in classes(box) and view.widget in tree(box)
    frontend_click(toggle)
    assert sheet.views.built["abilities"] is view
    hero.abilities = [dict(name="Medicine", kind="skill", base_param="education", level=3)]
    assert "Medicine" in "".join(w.value for w in tree(view.widget) if isinstance(w, widgets.HTML))


def test_a_folded_section_with_a_problem_is_marked(ret_sheet):
    sheet, _hero = ret_sheet
    assert "tt-section-has-problem" in classes(sheet.sections["abilities"])
    assert "tt-section-has-problem" not in classes(sheet.sections["notes"])


def test_a_lazily_built_section_binds_both_ways():
    ret = get_system("ret")
    hero = ret.Character(name="Vera")
    sheet = CharacterSheet(hero, open_sections=["identity"])
    assert not sheet.is_open("parameters") and "attention" not in sheet.views.built
    hero.attention = 5  # changed while folded
    sheet.open_section("parameters")
    attention = sheet.views["attention"]
    assert attention.control.value == 5  # model -> widget, from the start
    frontend_update(attention.control, value=6)  # widget -> model
    assert hero.attention == 6
    hero.attention = 4  # model -> widget, live
    assert attention.control.value == 4
    perception = sheet.views["perception"]
    assert ">3</span>" in perception.value.value  # derived: (attention + intuition) // 2
    hero.attention = 5
    assert ">4</span>" in perception.value.value  # derived values follow
    frontend_update(attention.control, value=99)  # a refused edit: shown inline, reverted
    assert hero.attention == 5 and attention.control.value == 5
    assert "99" in attention.problem.value
    sheet.close()


def test_looking_up_a_view_builds_its_section_without_opening_it(ret_sheet):
    sheet, hero = ret_sheet
    assert "notes" in sheet.views and "notes" not in sheet.views.built
    view = sheet.views["notes"]
    assert not sheet.is_open("notes") and "notes" in sheet.built_sections
    frontend_update(view.control, value="Owes the guild 40 crowns")
    assert hero.notes == "Owes the guild 40 crowns"
    with pytest.raises(KeyError):
        sheet.views["no_such_field"]


def test_a_section_opened_after_a_language_switch_speaks_it():
    ret = get_system("ret")
    sheet = CharacterSheet(ret.Character(name="Vera"))
    sheet.locale = "ru"
    _title, toggle = sheet.sections["abilities"].children
    assert toggle.description == "Показать"
    sheet.open_section("abilities")
    assert toggle.description == "Скрыть"
    label = sheet.views["abilities"].label.value
    assert "Способности" in label or "Навыки" in label or any("а" <= ch <= "я" for ch in label)
    sheet.close()


def test_open_sections_all_and_bad_ids():
    ret = get_system("ret")
    hero = ret.Character()
    sheet = CharacterSheet(hero, open_sections="all")
    assert all(sheet.is_open(s) for s in sheet.sections)
    sheet.close()
    with pytest.raises(ValueError, match="unknown section.*nope"):
        CharacterSheet(hero, open_sections=["parameters", "nope"])
    with pytest.raises(KeyError, match="no section 'nope'"):
        CharacterSheet(hero).open_section("nope")


@pytest.mark.parametrize("slug", available_systems())
def test_saved_state_is_smaller_with_folded_sections(slug):
    """The state a notebook saves (every live widget model) grows only when sections open."""
    system = get_system(slug)

    def saved(**kw):
        before = set(widget_module._instances)
        sheet = CharacterSheet(system.Character(name="Hero"), **kw)
        new = [w for k, w in widget_module._instances.items() if k not in before]
        state = widgets.Widget.get_manager_state(drop_defaults=True, widgets=new)
        size = len(json.dumps(state))
        sheet.close()
        return len(new), size

    folded = [s for s in system.sheet.sections if not starts_open(s)]
    assert folded, f"{slug}: no section starts folded"
    n_lazy, size_lazy = saved()
    n_all, size_all = saved(open_sections="all")
    assert n_lazy < n_all and size_lazy < size_all


def test_the_shared_layout_refuses_changes_and_own_layout_detaches():
    a, b = html_widget("a"), html_widget("b")
    assert a.layout is b.layout and isinstance(a.layout, SharedLayout)
    assert a.style is b.style
    with pytest.raises(traitlets.TraitError, match="shared layout cannot change"):
        a.layout.display = "none"
    assert b.layout.display is None
    own_layout(a).display = "none"
    assert a.layout.display == "none" and b.layout.display is None
    assert not isinstance(a.layout, SharedLayout)


def test_the_shared_pieces_are_remade_after_close_all():
    a = html_widget("a")
    widgets.Widget.close_all()
    b = html_widget("b")
    assert b.layout is not a.layout and b.layout.comm is not None and b.style.comm is not None
