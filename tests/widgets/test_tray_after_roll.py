"""The dice tray offers what a player may still do to a rolled check (issue #17, L351:
Life&Death's epic dice spent after the roll), checked in the handler as if the browser were
hostile."""

from __future__ import annotations

import random

from helpers import frontend_custom, frontend_update

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.widgets.log import RollLog
from tabletop_widgets.widgets.tray import DiceTray

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def campaigner(**kw):
    return SYSTEM.Character(name="Ayra", race_params=RACE, age="young", reputation=3, epic_dice=3, **kw)


def tray_for(c, **kw):
    log = RollLog(locale="en")
    return DiceTray(c, locale="en", log=log, rng=random.Random(3), animate=False, **kw), log


def test_the_offer_spends_an_epic_die_after_the_roll_and_logs_it():
    c = campaigner(param_points={"might": 1, "luck": 1})
    tray, log = tray_for(c)
    assert tray.after_box.layout.display == "none"
    first = tray.roll_check("might", difficulty=2, faces=[7, 2, 1])
    assert (first.success, tray.after_box.layout.display) == (False, None)
    (control,) = tray.after_controls.values()
    assert (control.min, control.max, control.value) == (1, 3, 1)
    assert tray.after_button.description == "Spend after the roll" and "Epic dice" in control.description
    frontend_custom(tray.after_button, {"event": "click"})
    assert tray.last_result.success is True and c.epic_dice == 2
    assert "✓" in tray.result_view.value and "(3 → 2)" in tray.result_view.value
    line = log.export_text("en").splitlines()[-1]
    assert "after the roll: Epic dice 1" in line and "(3 → 2)" in line
    # the new result's own offer decides: two dice left
    assert tray.after_controls["epic"].max == 2
    tray.locale = "ru"
    assert tray.after_button.description == "Потратить после броска"
    assert tray.after_controls["epic"].description == "Эпик-дайсы"


def test_a_forged_value_is_refused_and_nothing_changes():
    c = campaigner()
    tray, log = tray_for(c)
    tray.roll_check("might", faces=[7, 2])
    before = len(log.entries)
    frontend_update(tray.after_controls["epic"], value=9)  # past the box's bounds: clamped by the widget
    assert tray.after_roll(epic=9) is None and c.epic_dice == 3
    assert "above the highest" in tray.error.value and len(log.entries) == before
    assert tray.after_roll(dice=1) is None and "has no option" in tray.error.value
    tray.locale = "ru"
    assert "нет параметра" in tray.error.value  # the shown refusal follows the language
    assert tray.after_roll(epic=1) is not None and c.epic_dice == 2


def test_a_seat_that_may_not_is_refused_in_the_handler():
    c = campaigner()
    tray, _log = tray_for(c, can=lambda action: action != "after_roll")
    tray.roll_check("might", faces=[7, 2])
    assert tray.after_box.layout.display == "none"
    frontend_custom(tray.after_button, {"event": "click"})
    assert c.epic_dice == 3 and tray.last_result.total == 1


def test_nothing_is_offered_in_a_quick_game_nor_after_a_notation_roll():
    tray, _log = tray_for(campaigner(mode="quick"))
    tray.roll_check("might", faces=[7, 2])
    assert tray.after_box.layout.display == "none" and tray.after_roll(epic=1) is None
    tray2, _log2 = tray_for(campaigner())
    tray2.roll_check("might", faces=[7, 2])
    tray2.roll("1d6")
    assert tray2.after_box.layout.display == "none" and tray2.after_roll(epic=1) is None
    assert "Nothing more can be done" in tray2.error.value
    tray2.locale = "ru"
    assert "больше ничего сделать нельзя" in tray2.error.value
