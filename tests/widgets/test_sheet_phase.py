"""The sheet and a character's phase (issue #17): the sheet shows the phase, shows creation
problems only while the character is created, and has a Finish character action
(``GameSystem.start_play``) that shows the refusal's problems; at a shared table finishing is the
table's seat action (recorded, checked in Python), and in play a player's sheet keeps off what
only creation sets."""

from __future__ import annotations

import json
import random

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.table_view import TableView
from helpers import SeatPages, frontend_click, frontend_update
from characters import RET_ABILITIES, legal_ret

RET = get_system("ret")


def spend_luck(c):
    RET.apply_result(c, RET.roll_check(c, "attention", rng=random.Random(3), luck=2, difficulty=8))
    assert c.luck < c.luck_max


def test_the_sheet_shows_the_phase_and_finishes_the_character():
    c = legal_ret()
    sheet = CharacterSheet(c, locale="en")
    assert "Being created" in sheet.phase_badge.value and "tt-phase-creation" in sheet.phase_badge.value
    assert sheet.finish.widget.layout.display != "none"
    assert sheet.finish.button.description == "Finish character"
    frontend_click(sheet.finish.button)
    assert c.phase == "play"
    assert "In play" in sheet.phase_badge.value and "tt-phase-play" in sheet.phase_badge.value
    assert sheet.finish.widget.layout.display == "none"
    sheet.locale = "ru"
    assert "В игре" in sheet.phase_badge.value and sheet.finish.button.description == "Завершить персонажа"


def test_creation_problems_show_only_in_creation():
    """The audit's finding on the sheet: "Starting Luck must be 6" after a roll with Luck."""
    made = legal_ret()
    spend_luck(made)
    sheet = CharacterSheet(made, locale="en")
    assert [p.code for p in sheet.problems] == ["starting_luck"]
    assert "Starting Luck must be" in sheet.summary.value
    played = legal_ret()
    sheet = CharacterSheet(played, locale="en")
    sheet.finish_character()
    spend_luck(played)
    played.update(dp=4)
    RET.raise_parameter(played, "attention")  # a legal raise with development points
    assert sheet.problems == []
    assert "No problems found" in sheet.summary.value and "Starting Luck" not in sheet.summary.value


def test_a_refusal_shows_the_problems_and_keeps_the_phase():
    c = legal_ret(attention=5)
    sheet = CharacterSheet(c, locale="ru")
    frontend_click(sheet.finish.button)
    assert c.phase == "creation"
    shown = sheet.finish.message.value
    assert "Пока нельзя: сначала исправьте это." in shown
    assert "Очки развития параметров превышены" in shown and "tt-problem-list" in shown
    assert sheet.finish.widget.layout.display != "none"
    sheet.locale = "en"
    assert "Not yet: fix these first." in sheet.finish.message.value
    assert "Parameter points overspent" in sheet.finish.message.value
    c.attention = 3  # fixed: now it goes
    assert sheet.finish_character() and c.phase == "play"


def test_a_forged_finish_from_a_seat_that_may_not_act_changes_nothing():
    c = legal_ret()
    sheet = CharacterSheet(c, locale="en", can=lambda action: action == "save")
    frontend_click(sheet.finish.button)
    assert c.phase == "creation"
    assert "you may not change this" in sheet.finish.message.value


def test_in_play_only_the_gm_changes_what_creation_sets():
    c = legal_ret()
    c.update(phase="play")
    player = CharacterSheet(c, locale="en", can=lambda action: action != "edit_gm")
    view = player.views["attention"]
    assert "tt-badge-creation" in view.label.value
    assert not view.commit(5)
    assert c.attention == 3
    assert player.views["name"].commit("Vera the Bold")  # play goes on
    gm = CharacterSheet(c, locale="en")
    assert gm.views["attention"].commit(4) and c.attention == 4
    # in creation the player builds
    fresh = legal_ret()
    builder = CharacterSheet(fresh, locale="en", can=lambda action: action != "edit_gm")
    assert "tt-badge-creation" not in builder.views["attention"].label.value
    assert builder.views["attention"].commit(4) and fresh.attention == 4


def test_what_a_player_may_no_longer_edit_is_read_only_on_their_sheet():
    c = legal_ret()
    player = CharacterSheet(c, locale="en", can=lambda action: action != "edit_gm")
    attention, name = player.views["attention"], player.views["name"]
    assert not attention.control.disabled, "in creation the player builds"
    player.finish_character()
    assert c.phase == "play"
    assert attention.control.disabled and not name.control.disabled
    frontend_update(attention.control, value=5)  # a forged message to the disabled box
    assert c.attention == 3 and "you may not change this" in attention.problem.value
    luck = player.views["luck"]  # a resource of play: the player spends it
    assert not any(w.disabled for w in (luck.control, luck.minus, luck.plus))
    abilities = player.views["abilities"]  # a list only creation sets: no add, edit or remove
    assert abilities.row_editors and all(w.disabled for w in abilities.editors())
    assert not abilities.remove(0) and len(c.abilities) == len(RET_ABILITIES)
    gm = CharacterSheet(c, locale="en")
    assert not gm.views["attention"].control.disabled
    assert not any(w.disabled for w in gm.views["abilities"].editors())


def test_a_mapping_only_creation_sets_is_read_only_for_a_player_in_play():
    from tabletop_widgets.widgets.lobby import sample_character

    ld = get_system("life_and_death")
    c = sample_character(ld, "Mira")
    builder = CharacterSheet(c, locale="en", open_sections="all")
    label, _key = builder.views["skills"].key_options()[0]
    assert builder.views["skills"].add(label, "1"), "in creation the player builds"
    c.phase = "play"
    player = CharacterSheet(c, locale="ru", can=lambda action: action != "edit_gm", open_sections="all")
    skills = player.views["skills"]
    assert skills.entry_editors and all(w.disabled for w in skills.editors())
    assert "создание" in skills.label.value
    before = dict(c.skills)
    key = next(iter(before))
    assert not skills.set_entry(key, "5") and dict(c.skills) == before


def test_the_sheets_json_keeps_the_phase():
    c = legal_ret()
    sheet = CharacterSheet(c, locale="en")
    sheet.finish_character()
    saved = sheet.to_json()
    assert json.loads(saved)["phase"] == "play"
    other = CharacterSheet(RET.Character(), locale="en")
    assert other.load_json(saved, "vera.json")
    assert other.character.phase == "play" and "In play" in other.phase_badge.value
    bad = dict(json.loads(saved), phase="done")
    assert not other.load_json(json.dumps(bad), "bad.json")
    assert other.character.phase == "play"
    assert "creation" in other.status.value and "play" in other.status.value


# ---------------------------------------------------------------------------------------------
# at a shared table
# ---------------------------------------------------------------------------------------------
class Table(SeatPages):
    def __init__(self, tmp_path, characters):
        seats = [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("p1", "player", "Pat", "c1"),
            SeatSpec("p2", "player", "Quinn", "c2"),
        ]
        super().__init__(
            str(tmp_path / "table.db"), "ret", seats, characters, title="Phase table", validate_characters=False
        )


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path, {"c1": legal_ret(attention=5).to_dict(), "c2": legal_ret(name="Quinn").to_dict()})
    yield t
    t.close()


def test_a_player_finishes_at_the_table_through_the_tables_action(table):
    p1, gm = table.view("p1"), table.view("gm")
    sheet = p1.sheet("c1")
    head = p1.session.store.head(table.made.table_id)
    frontend_click(sheet.finish.button)  # refused: the problems show, nothing is written
    assert p1.session.store.head(table.made.table_id) == head
    assert "Parameter points overspent" in sheet.finish.message.value
    assert p1.models["c1"].phase == "creation"
    frontend_update(sheet.views["attention"].control, value=3)  # the player fixes the sheet
    assert p1.session.state.characters["c1"]["attention"] == 3
    frontend_click(sheet.finish.button)
    events = p1.session.events()
    assert events[-1].kind == "character.update" and events[-1].payload["reason"] == "finish"
    assert p1.models["c1"].phase == "play" and "In play" in sheet.phase_badge.value
    gm.session.poll()
    assert gm.models["c1"].phase == "play"
    # in play the player's sheet no longer changes what creation sets; the table refuses it too
    frontend_update(sheet.views["attention"].control, value=4)
    assert p1.session.state.characters["c1"]["attention"] == 3 and p1.models["c1"].attention == 3


def test_the_gm_finishes_a_players_character(table):
    gm, p2 = table.view("gm"), table.view("p2")
    gm.sheet("c2").finish_character()
    assert gm.session.state.characters["c2"]["phase"] == "play"
    p2.session.poll()
    assert p2.models["c2"].phase == "play"
    assert p2.sheet("c2").finish.widget.layout.display == "none"


def test_the_creation_guide_points_to_finish_and_goes_once_in_play(tmp_path):
    store = open_store(str(tmp_path / "guide.db"))
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")],
        characters={"c1": legal_ret(attention=5).to_dict()},
        options={"players_build": True},
        validate_characters=False,
    )
    p1 = TableView(TableSession.join(store, made.table_id, made.tokens["p1"]), follow=False, animate=False)
    wizard = p1.creation_box.children[0]
    while "attention" not in wizard.views:
        assert wizard.next(), wizard.message.value
    assert not wizard.next() and "Parameter points overspent" in wizard.message.value
    assert "Parameter points overspent" in wizard.views["attention"].problem.value
    p1.models["c1"].attention = 3  # through the seat's path: recorded by the table
    assert p1.session.state.characters["c1"]["attention"] == 3
    while not wizard.model.is_last:
        assert wizard.next(), wizard.message.value
    assert "Finish character" in wizard.finish_button.description
    assert p1.session.state.characters["c1"]["phase"] == "creation"
    assert wizard.finish()  # TableSession.finish_character
    assert p1.session.state.characters["c1"]["phase"] == "play"
    assert p1.creation_box.layout.display == "none" and p1.creation_box.children == ()
    assert p1.sheet("c1").character.phase == "play"
    store.close()
