"""What a character still lacks before play (issue #19): the creation steps in the sheet's
order, in both languages, for every system."""

from __future__ import annotations

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core.creation import creation_steps, is_unfinished


@pytest.mark.parametrize("slug", available_systems())
def test_a_blank_character_has_steps_and_a_finished_one_none(slug):
    system = get_system(slug)
    blank = system.Character()
    steps = creation_steps(system, blank)
    assert steps and is_unfinished(system, blank)
    assert steps[0].field == "name"  # the name first: the sheet starts with it
    for step in steps:
        for loc in ("en", "ru"):
            line = step.text(loc)
            assert line.strip() and ": " in line
        assert step.text("ru") != step.text("en")
    # what the rules count is what they say, nothing added but the name
    problems = system.validate(blank)
    assert len(steps) == len(problems) + 1


def test_steps_follow_the_sheet_order_and_go_away_when_done():
    ret = get_system("ret")
    blank = ret.Character()
    order = [f.name for f in ret.sheet.fields()]
    fields = [s.field for s in creation_steps(ret, blank) if s.field in order]
    assert fields == sorted(fields, key=order.index)
    blank.name = "Vera"
    assert [s.field for s in creation_steps(ret, blank)] == ["abilities"]
    blank.abilities = [
        dict(name="Medicine", kind="skill", base_param="education", level=3, category="support"),
        dict(name="Firearms", kind="skill", base_param="fine_motor", level=3, category="combat_attack"),
        dict(name="Dodge", kind="skill", base_param="agility", level=3, category="combat_defence"),
        dict(name="Sixth sense", kind="talent", base_param="intuition", level=3, category="analytic"),
    ]
    assert creation_steps(ret, blank) == [] and not is_unfinished(ret, blank)
