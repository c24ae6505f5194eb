"""A table seat's tray spends epic dice after the roll (issue #17, L351) through the session:
the amendment every seat sees in its log and on the sheet, once per roll, and a forged click
from a seat that may not is refused."""

from __future__ import annotations

import pytest
from helpers import frontend_custom

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.table import SeatSpec

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


@pytest.fixture
def table(seat_views):
    c = SYSTEM.Character(name="Ayra", race_params=RACE, age="young", reputation=3, epic_dice=3)
    c.phase = "play"
    return seat_views(
        SYSTEM.slug, [SeatSpec("gm", "gm", "Gail"), SeatSpec("p1", "player", "Pat", "c1")], {"c1": c.to_dict()}
    )


def test_a_player_spends_an_epic_die_after_the_roll_at_the_table(table):
    p1, gm = table("p1"), table("gm")
    first = p1.tray.roll_check("might")
    assert p1.tray.after_box.layout.display is None and p1.tray.after_controls["epic"].max == 3
    frontend_custom(p1.tray.after_button, {"event": "click"})
    after = p1.tray.last_result
    assert after.total == first.total + 1 and p1.models["c1"].epic_dice == 2
    assert p1.tray.after_box.layout.display == "none"  # once per roll at a table
    assert "changed after the roll" in p1.roll_log.export_text("en").splitlines()[-1]
    gm.session.poll()
    assert gm.models["c1"].epic_dice == 2
    assert "changed after the roll" in gm.roll_log.export_text("en")
    assert p1.tray.after_roll(epic=1) is None and p1.models["c1"].epic_dice == 2  # a forged second click
