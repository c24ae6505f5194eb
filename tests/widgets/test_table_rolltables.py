"""The campaign's roll tables on the table page's Dice tab (issue 35): the GM picks any table
the campaign keeps and rolls it into the log; a player is offered the shared ones only; nothing
is drawn while there is nothing to roll; a forged click is checked again by the session."""

from __future__ import annotations

from tabletop_widgets import get_system
from tabletop_widgets.dice import RollTable
from tabletop_widgets.table import SeatSpec
from tabletop_widgets.widgets.lobby import sample_character
from helpers import SeatPages, frontend_click

ENCOUNTER = {1: "Wolves", 2: "Rain", (3, 5): "Nothing", 6: "A stranger"}


def make_table(tmp_path) -> SeatPages:
    system = get_system("ret")
    chars = {"c1": sample_character(system, "Aria").to_dict()}
    seats = [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1"), SeatSpec("o1", "observer", "Olga")]
    return SeatPages(str(tmp_path / "table.db"), "ret", seats, chars, title="Test table")


def test_the_bar_waits_for_a_table_then_rolls_it_into_the_log(tmp_path):
    t = make_table(tmp_path)
    try:
        gm, p1 = t.view("gm"), t.view("p1")
        bar = gm.tray_area.roll_tables
        assert bar.pick is None and bar.box.layout.display == "none"  # nothing drawn yet
        gm.session.save_roll_table(RollTable("1d6", ENCOUNTER, title="Random encounter"), shared=True)
        gm.session.save_roll_table(RollTable("1d4", {(1, 4): "The traitor"}, title="Betrayal"))
        gm.session.poll()
        assert bar.box.layout.display != "none"
        assert list(bar.pick.options) == [
            ("Betrayal (yours only)", "Betrayal"),
            ("Random encounter", "Random encounter"),
        ]
        bar.pick.value = "Random encounter"
        frontend_click(bar.button)
        (entry,) = [e for e in gm.session.state.log if e["kind"] == "roll.table"]
        assert entry["name"] == "Random encounter" and not entry["hidden"] and bar.status.value == ""
        p1.session.poll()
        mine = p1.tray_area.roll_tables
        assert list(mine.pick.options) == [("Random encounter", "Random encounter")]
        frontend_click(mine.button)
        assert [e["actor"] for e in p1.session.state.log if e["kind"] == "roll.table"] == ["gm", "p1"]
        assert t.view("o1").tray_area is None  # an observer rolls nothing
    finally:
        t.close()


def test_a_taken_away_table_is_no_longer_offered_and_a_refusal_is_said(tmp_path):
    t = make_table(tmp_path)
    try:
        gm, p1 = t.view("gm"), t.view("p1")
        gm.session.save_roll_table(RollTable("1d6", ENCOUNTER, title="Random encounter"), shared=True)
        p1.session.poll()
        bar = p1.tray_area.roll_tables
        assert bar.pick.value == "Random encounter"
        gm.session.end_session()
        frontend_click(bar.button)  # between sessions: refused, in words, nothing written
        assert "Session 1 has ended" in bar.status.value
        assert not [e for e in p1.session.state.log if e["kind"] == "roll.table"]
        p1.choose_locale("ru")
        assert bar.button.description == "Бросить таблицу"
        gm.session.remove_roll_table("Random encounter")
        p1.session.poll()
        assert list(bar.pick.options) == [] and bar.box.layout.display == "none"
    finally:
        t.close()
