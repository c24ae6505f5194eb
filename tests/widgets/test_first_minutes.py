"""A player's first minutes at a table (issue #19): a character in creation opens on the creation
wizard when the GM lets players make their characters (the default; else the player is told the
GM prepares it, and the table refuses the player's edits), the tray
starts at the system's usual difficulty and names the character, and every text is written for
the seat that reads it. Front-end messages are forged as a browser sends them."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import PermissionDenied, SeatSpec
from tabletop_widgets.table.seats import set_table_option, table_option
from tabletop_widgets.widgets import CombatTracker, CreationWizard, DiceTray
from tabletop_widgets.widgets.table_view import TableView

from helpers import SeatPages
from test_table_view import frontend_update, synced_text

RET = get_system("ret")
SKILLS = [
    dict(name="Medicine", kind="skill", base_param="education", level=3, category="support"),
    dict(name="Firearms", kind="skill", base_param="fine_motor", level=3, category="combat_attack"),
    dict(name="Dodge", kind="skill", base_param="agility", level=3, category="combat_defence"),
    dict(name="Sixth sense", kind="talent", base_param="intuition", level=3, category="analytic"),
]


class NewTable(SeatPages):
    """A RET table made the way the lobby makes one: Pavel's seat gets a blank character."""

    def __init__(self, tmp_path, **options):
        super().__init__(
            str(tmp_path / "t.db"),
            "ret",
            [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pavel", "c1")],
            {"c1": RET.Character().to_dict()},
            options=options or None,
            validate_characters=False,
        )


@pytest.fixture
def new_table(tmp_path):
    t = NewTable(tmp_path)
    yield t
    t.close()


def test_the_gm_prepares_when_players_may_not_make_their_characters(tmp_path):
    t = NewTable(tmp_path, players_build=False)
    try:
        p1 = t.view("p1")
        assert p1.tabs.selected_index == 0  # the dice: nothing for Pavel to make
        assert "tt-gm-prepares" in p1.creation_box.children[0].value
        assert "preparing your character" in p1.creation_box.children[0].value
        p1.locale = "ru"
        assert "Мастер готовит" in p1.creation_box.children[0].value  # RET calls the GM «мастер»

        # Pavel's sheet edit is refused by the table, naming the GM, and put back
        p1.sheet("c1")
        p1.models["c1"].name = "Aria"
        assert p1.models["c1"].name == "" and t.session("gm").state.characters["c1"]["name"] == ""
        assert "мастер" in p1.status.value

        # the GM lets players make their characters: Pavel's screen turns to the wizard, in Russian
        gm = t.view("gm")
        assert gm.players_build.value is False
        frontend_update(gm.players_build, value=True)
        assert table_option(gm.session, "players_build") is True
        p1.session.poll()
        assert p1.tabs.selected_index == p1._tab_keys.index("your_sheet")
        wizard = p1.creation_box.children[0]
        assert isinstance(wizard, CreationWizard) and "Шаг 1 из" in wizard.progress.value
        frontend_update(wizard.views["name"].control, value="Aria")
        gm.session.poll()
        assert gm.session.state.characters["c1"]["name"] == "Aria"  # the table holds what Pavel did
    finally:
        t.close()


def test_a_new_link_opens_on_the_wizard_by_default(new_table):
    p1 = new_table.view("p1")
    assert table_option(p1.session, "players_build") is True
    assert p1.tabs.selected_index == p1._tab_keys.index("your_sheet")
    wizard = p1.creation_box.children[0]
    assert "tt-wizard" in wizard._dom_classes and "Give your character a name." in wizard.problem_box.value


def test_the_guide_is_a_hook_the_wizard_replaces(new_table, monkeypatch):
    made = []

    def wizard(view, character_id):
        w = widgets.HTML("wizard")
        w.add_class("tt-wizard")
        made.append((view.session.seat, character_id))
        return w

    monkeypatch.setattr(TableView, "creation_guide", wizard)
    set_table_option(new_table.session("gm"), "players_build", True)
    p1 = new_table.view("p1")
    assert made == [("p1", "c1")] and "tt-wizard" in p1.creation_box.children[0]._dom_classes


def test_only_the_gm_decides_who_builds(new_table):
    p1 = new_table.view("p1")
    with pytest.raises(PermissionDenied):
        set_table_option(p1.session, "players_build", False)
    assert not hasattr(p1, "players_build")
    gm = new_table.view("gm")
    gm.session.close_table()
    frontend_update(gm.players_build, value=False)  # a closed table: refused, the box springs back
    assert gm.players_build.value is True and table_option(gm.session, "players_build") is True


# ---------------------------------------------------------------------------------------------
# the tray
# ---------------------------------------------------------------------------------------------
def test_the_tray_starts_at_the_systems_usual_difficulty():
    hero = RET.Character(name="Vera", abilities=SKILLS)
    tray = DiceTray(hero, animate=False, seed=2)
    assert tray.options_for("skill:Medicine")["difficulty"] == RET.usual_options["difficulty"] == 8
    assert tray.chance("skill:Medicine") is not None and tray.chance_text("skill:Medicine") != "—"
    result = tray.roll_check("skill:Medicine")
    assert result.success is not None  # a pass or a fail, not a bare total
    # "no difficulty" is still a choice the player can make
    tray.set_option("difficulty", None)
    assert tray.chance("skill:Medicine") is None
    # a system without a usual value keeps its spec's default
    seasons = get_system("seasons")
    spec = next(o for c in seasons.checks(seasons.Character()) for o in c.options if o.name == "difficulty")
    assert seasons.start_value(spec) == spec.default


def test_the_table_tray_names_the_character_and_rolls_against_the_difficulty(new_table):
    set_table_option(new_table.session("gm"), "players_build", True)
    p1 = new_table.view("p1")
    p1.models["c1"].name = "Aria"
    assert "Aria" in p1.tray.title.value and "Pavel" not in p1.tray.title.value
    p1.models["c1"].abilities = SKILLS
    p1.tray.roll_check("skill:Medicine")
    event = [e for e in p1.session.events() if e.kind == "check"][-1]
    assert event.payload["options"]["difficulty"] == 8 and event.payload["result"]["success"] is not None
    assert p1.roll_log.entries[-1].who == "Pavel"  # the log still says who rolled


# ---------------------------------------------------------------------------------------------
# words for the seat that reads them
# ---------------------------------------------------------------------------------------------
def test_players_are_not_told_to_use_controls_they_do_not_have(new_table):
    p1, gm = new_table.view("p1"), new_table.view("gm")
    assert "add some below" not in synced_text(p1)
    assert "the GM brings the combatants in" in p1.tracker.empty_note.value
    assert "add some below" in gm.tracker.empty_note.value  # the GM has the controls below
    gm.bring_into_combat("c1")
    p1.session.poll()
    (row,) = p1.tracker._rows.values()
    assert "damage" not in row.select.tooltip  # a player cannot damage or heal
    assert "damage" in next(iter(gm.tracker._rows.values())).select.tooltip
    # the same tracker on a play page, where everything is allowed, keeps the GM's words
    assert "add some below" in CombatTracker(RET).empty_note.value


def test_the_gm_lets_npcs_defend_by_their_default_choice(new_table):
    """The Seat links tab's second table option (issue 30): off at first, the GM's box sets it for
    the table (every GM page's box follows), in both languages; a player's page has no such box."""
    gm = new_table.view("gm")
    assert gm.npcs_defend.value is False and table_option(gm.session, "npcs_defend_by_default") is False
    assert "NPCs defend by their default choice" in gm.npcs_defend.description
    frontend_update(gm.npcs_defend, value=True)
    assert table_option(gm.session, "npcs_defend_by_default") is True
    gm.locale = "ru"
    assert "Неигровые персонажи" in gm.npcs_defend.description and "NPC" not in gm.npcs_defend.description
    p1 = new_table.view("p1")
    assert getattr(p1, "npcs_defend", None) is None
