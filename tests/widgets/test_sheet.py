"""The character sheet without a browser: widgets get a DummyComm outside a kernel, so edits are
driven by fake front-end messages (notes-jupyter §1.1: a simulated message needs 'buffers')."""

from __future__ import annotations

import base64
import json
import re

import ipywidgets as widgets
import pytest
import traitlets

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core.sheet import FIELD_KINDS
from tabletop_widgets.widgets.sheet import MAX_UPLOAD_BYTES, CharacterSheet, show_sheet
from tabletop_widgets.widgets.sheet_fields import DerivedView, ListView, MappingView, ResourceView, ScalarView, TagsView
from helpers import frontend_click, frontend_update

SYSTEMS = available_systems()


def sheet_for(slug, **kw):
    system = get_system(slug)
    character = system.Character(name="Test Hero")
    return CharacterSheet(character, **kw), character, system


def shown_int(control):
    value = control.value
    return None if value == "" else int(value)


# -- every system renders --------------------------------------------------------------------


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_field_of_every_section_is_rendered(slug):
    sheet, character, system = sheet_for(slug)
    assert sheet.system is system
    assert set(sheet.sections) == {s.id for s in system.sheet.sections}
    for f in system.sheet.fields():
        assert f.kind in FIELD_KINDS
        assert f.name in sheet.views, f.name
        assert f"tt-field-{f.name}" in sheet.views[f.name].widget._dom_classes
    assert "tt-sheet" in sheet._dom_classes
    assert sheet.title.value.startswith("<h2>Test Hero</h2>")


@pytest.mark.parametrize("slug", SYSTEMS)
def test_language_switch_relabels_everything(slug):
    sheet, _, system = sheet_for(slug)
    first = system.sheet.sections[0]
    title = sheet.section_titles[first.id][0]
    assert first.label["en"] in title.value
    sheet.locale_toggle.value = "ru"  # the toggle drives the trait
    assert sheet.locale == "ru"
    assert first.label["ru"] in title.value
    f = next(f for f in system.sheet.fields() if f.kind != "derived")
    assert f.label["ru"].split()[0] in sheet.views[f.name].label.value
    sheet.locale = "en"  # and the trait drives the toggle
    assert sheet.locale_toggle.value == "en"
    assert first.label["en"] in title.value
    with pytest.raises(traitlets.TraitError, match="unknown locale 'de'"):
        sheet.locale = "de"


@pytest.mark.parametrize("slug", SYSTEMS)
def test_int_inputs_always_show_what_the_model_kept(slug):
    """Two-way binding with write-back: whatever is typed (accepted, clamped or refused), the
    box ends up showing the model's value, and a refusal is explained next to the field."""
    sheet, character, _ = sheet_for(slug)
    inputs = [
        v
        for v in sheet.views.values()
        if isinstance(v, (ScalarView, ResourceView))
        and isinstance(v.control, (widgets.IntText, widgets.Text))
        and v.field.kind in ("input", "resource")
    ]
    assert inputs
    for view in inputs:
        for typed in (1, 0, -1, 999):
            before = character.to_dict()
            value = typed if isinstance(view.control, widgets.IntText) else str(typed)
            frontend_update(view.control, value=value)
            kept = getattr(character, view.field.name)
            assert shown_int(view.control) == kept, (view.field.name, typed)
            if kept != typed:  # refused or clamped: something said so, or the model clamped
                refused = character.to_dict() == before or kept == before[view.field.name]
                if refused and view.edit_error is not None:
                    assert "tt-field-problem" in view.problem._dom_classes
                    assert view.problem.layout.display is None


@pytest.mark.parametrize("slug", SYSTEMS)
def test_model_changes_reach_the_widgets(slug):
    sheet, character, _ = sheet_for(slug)
    view = next(v for v in sheet.views.values() if isinstance(v, ScalarView) and v.field.kind == "text")
    setattr(character, view.field.name, "Changed from Python")
    assert view.control.value == "Changed from Python"
    frontend_update(view.control, value="Typed in the browser")
    assert getattr(character, view.field.name) == "Typed in the browser"


@pytest.mark.parametrize("slug", SYSTEMS)
def test_save_link_holds_the_characters_json(slug):
    sheet, character, _ = sheet_for(slug)
    frontend_click(sheet.save_button)
    m = re.search(r'download="([^"]+)" href="data:application/json;base64,([^"]+)"', sheet.download.value)
    assert m and m.group(1) == f"Test_Hero.{slug}.json"
    assert json.loads(base64.b64decode(m.group(2))) == character.to_dict()


@pytest.mark.parametrize("slug", SYSTEMS)
def test_load_round_trip_and_bad_files_change_nothing(slug):
    sheet, character, system = sheet_for(slug)
    other = system.Character(name="Loaded One")
    upload(sheet, json.dumps(other.to_dict()).encode(), "loaded.json")
    assert character.name == "Loaded One"
    assert "Loaded one" not in sheet.status.value and "loaded.json" in sheet.status.value
    assert sheet.title.value.startswith("<h2>Loaded One</h2>")
    good = character.to_dict()
    other_slug = next(s for s in SYSTEMS if s != slug)
    bad_files = {
        "not json": b"{ this is not json",
        "not utf-8": b"\xff\xfe\x00garbage",
        "a list": b"[1, 2, 3]",
        "wrong system": json.dumps(get_system(other_slug).Character().to_dict()).encode(),
        "unknown field": json.dumps({**good, "no_such_trait": 1}).encode(),
        "bad value": json.dumps({**good, "name": 42}).encode(),
        "too big": b" " * (MAX_UPLOAD_BYTES + 1),
    }
    for what, raw in bad_files.items():
        upload(sheet, raw, f"{what}.json")
        assert character.to_dict() == good, what
        assert "tt-load-error" in sheet.status.value, what
        assert 'role="alert"' in sheet.status.value
    sheet.locale = "ru"
    assert "лист не изменён" in sheet.status.value


def upload(sheet, raw: bytes, name: str):
    """What the browser sends when a file is picked in the FileUpload (content as a buffer)."""
    state = {
        "value": [{"name": name, "type": "application/json", "size": len(raw), "last_modified": 1_700_000_000_000}]
    }
    sheet.upload._handle_msg(
        {
            "content": {"data": {"method": "update", "state": state, "buffer_paths": [["value", 0, "content"]]}},
            "buffers": [memoryview(raw)],
        }
    )
    assert sheet.upload.value == ()  # cleared, so the same file can be picked again


def test_show_sheet_finds_the_system_from_the_character():
    character = get_system("ret").Character(name="X")
    sheet = show_sheet(character, locale="ru")
    assert isinstance(sheet, CharacterSheet)
    assert sheet.system.slug == "ret" and sheet.locale == "ru"
    with pytest.raises(ValueError):
        show_sheet(character, locale="de")


# -- RET: derived values, refused edits, resources ---------------------------------------------


def test_ret_attention_updates_perception_and_mind_live():
    sheet, c, _ = sheet_for("ret")
    attention = sheet.views["attention"].control
    frontend_update(attention, value=7)
    assert c.attention == 7 and c.perception == 5
    assert ">5</span>" in sheet.views["perception"].value.value
    assert ">4</span>" in sheet.views["mind"].value.value
    c.intuition = 5  # a change from Python shows too
    assert ">6</span>" in sheet.views["perception"].value.value


def test_ret_refused_edit_goes_back_and_explains_in_the_sheets_language():
    sheet, c, _ = sheet_for("ret", locale="ru")
    view = sheet.views["attention"]
    frontend_update(view.control, value=99)
    assert c.attention == 3 and view.control.value == 3
    assert view.edit_error is not None
    assert 'role="alert"' in view.problem.value
    assert "Введите целое число от 0 до 7 (а не 99)" in view.problem.value  # the field's range, no trait ids
    sheet.locale = "en"
    assert "Enter a whole number from 0 to 7 (not 99)" in view.problem.value
    frontend_update(view.control, value=4)  # a good edit clears the error
    assert view.edit_error is None and "bad value" not in view.problem.value


def test_validate_problems_show_next_to_their_field_and_in_the_summary():
    sheet, c, system = sheet_for("ret")
    problems = system.validate(c)
    assert problems and sheet.problems == problems
    p = next(p for p in problems if p.field == "abilities")
    assert p.message["en"].split("(")[0].strip()[:20] in sheet.views["abilities"].problem.value
    assert "Sheet check" in sheet.summary.value
    frontend_update(sheet.views["attention"].control, value=7)  # over the DP budget: a new problem
    assert any(p.field == "attention" for p in sheet.problems)
    assert sheet.views["attention"].problem.layout.display is None
    sheet.locale = "ru"
    assert "Проверка листа" in sheet.summary.value


def test_resource_buttons_and_rules_limits():
    sheet, c, _ = sheet_for("ret")
    health = sheet.views["health"]
    frontend_click(health.minus)
    assert c.health == 5 and health.control.value == "5"
    assert 'aria-valuenow="5"' in health.bar.value
    frontend_click(health.plus)
    frontend_click(health.plus)  # above the maximum: refused by the model
    assert c.health == 6 and health.control.value == "6"
    assert health.edit_error is not None
    for _ in range(8):
        frontend_click(health.minus)  # RET Health may go negative
    assert c.health == -2 and "tt-negative" in health.bar.value


def test_clamped_value_is_written_back():
    """Life & Death clamps HP to its maximum in the model: the box shows the clamped value."""
    sheet, c, _ = sheet_for("life_and_death")
    hp = sheet.views["hp"]
    typed = 999 if isinstance(hp.control, widgets.IntText) else "999"
    frontend_update(hp.control, value=typed)
    assert c.hp == c.hp_max == 10
    assert shown_int(hp.control) == 10
    frontend_click(hp.plus)
    assert c.hp == 10 and shown_int(hp.control) == 10
    frontend_click(hp.minus)
    assert c.hp == 9


def test_role_check_blocks_forged_messages():
    allowed = {"edit": False, "edit_gm": False, "save": False, "load": False}
    sheet, c, _ = sheet_for("ret", can=lambda action: allowed[action])
    frontend_update(sheet.views["attention"].control, value=5)
    frontend_click(sheet.views["health"].plus)
    frontend_click(sheet.views["health"].minus)
    frontend_click(sheet.save_button)
    assert c.attention == 3 and c.health == 6
    assert sheet.views["attention"].control.value == 3
    assert "you may not change this" in sheet.views["attention"].problem.value
    assert sheet.download.value == ""
    before = c.to_dict()
    upload(sheet, json.dumps({**before, "name": "Nope"}).encode(), "x.json")
    assert c.to_dict() == before
    allowed["edit"] = True
    frontend_update(sheet.views["attention"].control, value=5)
    assert c.attention == 5
    frontend_update(sheet.views["luck_max_override"].control, value="3")  # a GM field
    assert c.luck_max_override is None


def test_optional_number_box_accepts_empty_and_refuses_words():
    sheet, c, _ = sheet_for("ret")
    box = sheet.views["luck_max_override"]
    frontend_update(box.control, value="4")
    assert c.luck_max_override == 4 and c.luck_max == 4
    frontend_update(box.control, value="four")
    assert c.luck_max_override == 4 and box.control.value == "4"
    assert "whole number" in box.problem.value
    frontend_update(box.control, value="")
    assert c.luck_max_override is None


# -- lists, tags, mappings -------------------------------------------------------------------


def test_list_add_from_data_table_edit_and_remove():
    sheet, c, system = sheet_for("ret")
    weapons = sheet.views["weapons"]
    assert isinstance(weapons, ListView)
    rows = system.data("weapons")
    frontend_update(weapons.picker, index=2)
    frontend_click(weapons.add_button)
    assert len(c.weapons) == 1
    item = c.weapons[0]
    assert item["category"] == rows[2]["id"] and item["name"] == rows[2]["en"]
    assert item["damage"] == rows[2]["damage"]
    assert len(weapons.rows_box.children) == 2  # the header and one row
    # edit: a bad number is refused with a message and the list is unchanged
    row = weapons.rows_box.children[1]
    edit = row.children[1]
    frontend_click(edit)
    assert weapons.form.widget.layout.display is None
    frontend_update(weapons.form.controls["damage"][1], value="lots")
    frontend_click(weapons.form.save)
    assert c.weapons[0]["damage"] == rows[2]["damage"]
    assert "whole number" in weapons.form.error.value
    frontend_update(weapons.form.controls["damage"][1], value="4")
    frontend_update(weapons.form.controls["name"][1], value="Grandpa's club")
    frontend_click(weapons.form.save)
    assert c.weapons[0]["damage"] == 4 and c.weapons[0]["name"] == "Grandpa's club"
    assert weapons.form.widget.layout.display == "none"
    assert "Grandpa&#x27;s club" in weapons.rows_box.children[1].children[0].value
    # an edit the model refuses (an empty name) leaves the list as it was
    frontend_click(weapons.rows_box.children[1].children[1])
    frontend_update(weapons.form.controls["name"][1], value="  ")
    frontend_click(weapons.form.save)
    assert c.weapons[0]["name"] == "Grandpa's club"
    assert weapons.form.error.value and weapons.form.widget.layout.display is None
    frontend_click(weapons.form.cancel)
    frontend_click(weapons.rows_box.children[1].children[2])
    assert c.weapons == []


def test_new_blank_item_and_plain_text_lists():
    sheet, c, _ = sheet_for("seasons")
    problems = sheet.views["problems"]  # a list of plain strings from a table
    frontend_update(problems.picker, index=1)
    frontend_click(problems.add_button)
    assert c.problems == [get_system("seasons").data("problems")[1]["en"]]
    frontend_click(problems.new_button)
    frontend_update(problems.form.controls[""][1], value="Afraid of the dark")
    frontend_click(problems.form.save)
    assert c.problems[-1] == "Afraid of the dark"
    pending = sheet.views["pending_bonus_dice"]  # no data table: a blank entry
    frontend_click(pending.new_button)
    frontend_update(pending.form.controls["source"][1], value="aim")
    frontend_update(pending.form.controls["dice"][1], value="2")
    frontend_click(pending.form.save)
    assert c.pending_bonus_dice == [{"source": "aim", "dice": 2, "applies_to": ""}]


def test_tags_add_and_remove():
    sheet, c, _ = sheet_for("threads_of_fate")
    tags = sheet.views["immunities"]
    assert isinstance(tags, TagsView)
    frontend_update(tags.picker, value=tags.picker.options[0])
    frontend_click(tags.add_button)
    assert c.immunities == ["poison"]
    assert len(tags.chips.children) == 1
    frontend_click(tags.chips.children[0])
    assert c.immunities == []


def test_mapping_entries():
    sheet, c, system = sheet_for("life_and_death")
    money = sheet.views["money"]
    assert isinstance(money, MappingView)
    assert len(money.entries.children) == 4  # the declared coins
    frontend_update(money.entries.children[0].children[1], value="12")
    assert c.money == {"fire": 12}
    skills = sheet.views["skills"]
    label = system.data("skills")[0]["en"]
    frontend_update(skills.key_picker, value=label)
    frontend_update(skills.value_box, value="1")
    frontend_click(skills.add_button)
    assert c.skills == {system.data("skills")[0]["id"]: 1}
    frontend_update(skills.value_box, value="x")
    frontend_update(skills.key_picker, value=label)
    frontend_click(skills.add_button)
    assert c.skills == {system.data("skills")[0]["id"]: 1}
    assert "whole number" in skills.problem.value


def test_derived_mapping_and_list_values_render_as_tables():
    sheet, c, _ = sheet_for("threads_of_fate")
    attacks = sheet.views["attacks"]
    assert isinstance(attacks, DerivedView) and "<table" in attacks.value.value
    gm = sheet.views["gm_missing"]
    assert "<table" in gm.value.value
    sheet.locale = "ru"
    assert (
        any("ru" in row and row["ru"] in gm.value.value for row in c.gm_missing if row.get("ru"))
        or "<table" in gm.value.value
    )


def test_section_actions_call_the_rules_and_show_refusals():
    """Threads of Fate declares rules actions on its Fate section (Moves, Caprices, buying
    Threads): the sheet calls the system's method; a RuleError is shown, nothing changes."""
    sheet, c, _ = sheet_for("threads_of_fate")
    bars = {bar.action.method_name: bar for bar in sheet.actions.get("fate", [])}
    assert set(bars) >= {"make_move", "buy_threads"}
    move = bars["make_move"]
    frontend_update(move.picker, index=0)
    threads = c.threads
    frontend_click(move.button)
    assert c.threads < threads
    assert "tt-ok" in move.message.value and move.picker.value in move.message.value
    before = c.to_dict()
    frontend_click(bars["buy_threads"].button)  # no unspent XP: refused by the rules
    assert c.to_dict() == before
    assert 'role="alert"' in bars["buy_threads"].message.value
    sheet.locale = "ru"
    assert "Очков опыта" in bars["buy_threads"].message.value


def test_section_actions_respect_the_role_check():
    sheet, c, _ = sheet_for("threads_of_fate", can=lambda action: action != "act")
    bar = sheet.actions["fate"][0]
    threads = c.threads
    frontend_click(bar.button)
    assert c.threads == threads and "may not" in bar.message.value


def test_closed_sheet_lets_go_of_the_character():
    sheet, c, _ = sheet_for("ret")
    box = sheet.views["attention"].control
    sheet.close()
    c.attention = 5
    assert box.value == 3
    assert sheet.comm is None
