"""RollLog without a browser: entries, filters (text, who), export, locale, roles."""
from __future__ import annotations

import base64
import random
import re

from tabletop_widgets import get_system
from tabletop_widgets.dice import roll
from tabletop_widgets.widgets.log import RollLog


def frontend_update(widget, **state):
    widget._handle_msg({"content": {"data": {"method": "update", "state": state,
                                             "buffer_paths": []}}, "buffers": []})


def test_entries_newest_at_the_bottom_and_export():
    log = RollLog()
    log.add_roll(roll("2d6", seed=1), who="Alice")
    log.add_roll(roll("1d20 >= 10", seed=2), who="Bob")
    html = log.list_view.value
    assert html.index("Alice") < html.index("Bob")
    assert "column-reverse" in log.style_block.value  # stays scrolled to the newest
    text = log.export_text()
    lines = text.splitlines()
    assert lines[0].startswith("#1 Alice — 2d6:") and lines[1].startswith("#2 Bob — 1d20 >= 10:")
    data = re.search(r"base64,([A-Za-z0-9+/=]*)", log.export_link.value).group(1)
    assert base64.b64decode(data).decode("utf-8") == text
    assert 'download="rolls.txt"' in log.export_link.value


def test_filters_by_text_and_who():
    log = RollLog()
    log.add_roll(roll("2d6", seed=1), who="Alice")
    log.add_roll(roll("3d8", seed=1), who="Bob")
    log.add_roll(roll("1d4", seed=1), who="Alice")
    assert [w for _, w in log.who_box.options] == ["", "Alice", "Bob"]
    frontend_update(log.who_box, index=1)  # a Dropdown syncs its index
    assert [e.n for e in log.visible_entries()] == [1, 3]
    assert "Bob" not in log.list_view.value
    frontend_update(log.filter_box, value="1d4")
    assert [e.n for e in log.visible_entries()] == [3]
    assert log.export_text().startswith("#3 Alice")
    frontend_update(log.filter_box, value="zzz")
    assert "No roll matches" in log.list_view.value


def test_check_results_and_locale():
    system = get_system("threads_of_fate")
    c = system.Character()
    r = system.roll_check(c, "strength", rng=random.Random(3))
    log = RollLog()
    log.add_check(r, who="Aria", effects="Threads −1")
    assert "Strength" in log.list_view.value and "Threads −1" in log.export_text()
    log.locale = "ru"
    assert "Сила" in log.list_view.value
    assert log.filter_box.description == "Фильтр"
    assert "Сила" in log.export_text()


def test_empty_and_clear_and_roles():
    log = RollLog(can=lambda a: a != "clear")
    assert "No rolls yet" in log.list_view.value
    log.add(who="X", what="w", breakdown="b", outcome="o")
    log.clear_button.click()
    assert len(log.entries) == 1  # not allowed
    log2 = RollLog()
    log2.add(who="X", what="w", breakdown="b")
    log2.clear()
    assert log2.entries == [] and "No rolls yet" in log2.list_view.value


def test_html_is_escaped():
    log = RollLog()
    log.add(who="<script>x</script>", what="<b>", breakdown="<i>")
    assert "<script>" not in log.list_view.value
