"""RollLog without a browser: entries, filters (text, who), export on demand, locale, roles,
and incremental rendering (a new entry sends the browser only itself: counted in comm bytes)."""

from __future__ import annotations

import base64
import random
import re

from tabletop_widgets import get_system
from tabletop_widgets.dice import roll
from tabletop_widgets.widgets.log import SHOWN_STEP, RollLog
from helpers import frontend_update, spy_on_comms


def shown(log) -> str:
    """The HTML the log draws, oldest first (the scroller's children are newest first)."""
    return log.empty_note.value + "".join(w.value for w in reversed(log.scroll.children))


def test_entries_newest_at_the_bottom_and_export():
    log = RollLog()
    log.add_roll(roll("2d6", seed=1), who="Alice")
    log.add_roll(roll("1d20 >= 10", seed=2), who="Bob")
    html = shown(log)
    assert html.index("Alice") < html.index("Bob")
    assert "column-reverse" in log.style_block.value  # stays scrolled to the newest
    text = log.export_text()
    lines = text.splitlines()
    assert lines[0].startswith("#1 Alice — 2d6:") and lines[1].startswith("#2 Bob — 1d20 >= 10:")
    assert log.export_link.value == ""  # built on demand only
    log.export_button.click()
    data = re.search(r"base64,([A-Za-z0-9+/=]*)", log.export_link.value).group(1)
    assert base64.b64decode(data).decode("utf-8") == text
    assert 'download="rolls.txt"' in log.export_link.value
    log.add_roll(roll("1d4", seed=3), who="Cy")
    assert log.export_link.value == ""  # a stale download is taken away


def test_filters_by_text_and_who():
    log = RollLog()
    log.add_roll(roll("2d6", seed=1), who="Alice")
    log.add_roll(roll("3d8", seed=1), who="Bob")
    log.add_roll(roll("1d4", seed=1), who="Alice")
    assert [w for _, w in log.who_box.options] == ["", "Alice", "Bob"]
    frontend_update(log.who_box, index=1)  # a Dropdown syncs its index
    assert [e.n for e in log.visible_entries()] == [1, 3]
    assert "Bob" not in shown(log)
    frontend_update(log.filter_box, value="1d4")
    assert [e.n for e in log.visible_entries()] == [3]
    assert log.export_text().startswith("#3 Alice")
    frontend_update(log.filter_box, value="zzz")
    assert "No roll matches" in shown(log)


def test_check_results_and_locale():
    system = get_system("threads_of_fate")
    c = system.Character()
    r = system.roll_check(c, "strength", rng=random.Random(3))
    log = RollLog()
    log.add_check(r, who="Aria", effects="Threads −1")
    assert "Strength" in shown(log) and "Threads −1" in log.export_text()
    log.locale = "ru"
    assert "Сила" in shown(log)
    assert log.filter_box.description == "Фильтр"
    assert "Сила" in log.export_text()


def test_empty_and_clear_and_roles():
    log = RollLog(can=lambda a: a != "clear")
    assert "No rolls yet" in shown(log)
    log.add(who="X", what="w", breakdown="b", outcome="o")
    log.clear_button.click()
    assert len(log.entries) == 1  # not allowed
    log2 = RollLog()
    log2.add(who="X", what="w", breakdown="b")
    log2.clear()
    assert log2.entries == [] and "No rolls yet" in shown(log2)


def test_html_is_escaped():
    log = RollLog()
    log.add(who="<script>x</script>", what="<b>", breakdown="<i>")
    assert "<script>" not in shown(log)


def test_a_new_entry_sends_a_bounded_amount(monkeypatch):
    spy = spy_on_comms(monkeypatch)
    log = RollLog()
    big = "N" * 20_000  # a long name in the log's oldest entries

    def cost(i):
        before_m, before_b = spy.messages, spy.bytes
        log.add(who=f"Player {i % 3}", what="2d6", breakdown=f"2d6: 3 4 = {i}")
        return spy.messages - before_m, spy.bytes - before_b

    log.add(who="Big", what=big, breakdown=big)
    early = [cost(i) for i in range(5)]
    for i in range(400):
        log.add(who=f"Player {i % 3}", what="1d20", breakdown=f"1d20: {i}")
    late = [cost(i) for i in range(5)]
    # the same few messages whether the log holds 6 entries or 400, and no byte of the old ones
    assert max(m for m, _ in late) <= max(m for m, _ in early) + 2
    # late, the list of the shown entries' ids is full (about 45 bytes an id)
    assert max(b for _, b in late) < max(b for _, b in early) + SHOWN_STEP * 50
    assert max(b for _, b in late) < 4_000  # (before issue 21's models work: 4,714; 3,248 now)
    assert max(m for m, _ in early) <= 5  # an entry is one model (before: 8 messages)
    # only the latest entries are drawn; "Show earlier" draws more, the export holds them all
    assert len(log.scroll.children) == len(log.shown_entries()) == 50
    assert big not in shown(log)
    log.earlier_button.click()
    assert len(log.scroll.children) == 100
    assert big in log.export_text()
