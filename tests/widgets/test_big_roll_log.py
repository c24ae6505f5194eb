"""Issue 21: a big roll at a table, as the seats see it. The GM rolls ``10000d10`` in the tray; the
tray and every seat's log show a summary (total, counts per face, kept and dropped), the widget
state sent for it stays small, and the dice are built only when a reader opens the entry."""

from __future__ import annotations

import json
import sys
from pathlib import Path


from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.widgets.log import RollLog

sys.path.insert(0, str(Path(__file__).parent))
from test_table_view import synced_text, tree  # noqa: E402


def _state_bytes(widget) -> int:
    return len(json.dumps([w.get_state() for w in tree(widget)], default=str))


def _big_entry(view):
    return view.roll_log._entry_views[view.roll_log.entries[-1].n]


def test_a_big_roll_shows_as_a_summary_that_opens_to_the_dice(table):
    gm, p1 = table.view("gm"), table.view("p1")
    before = _state_bytes(p1.roll_log)
    gm.tray.notation.value = "10000d10"
    result = gm.tray.roll()
    assert gm.tray.last_error is None and result is not None and result.big
    # the tray shows the summary, not ten thousand dice
    assert "tt-big-roll" in gm.tray.result_view.value and len(gm.tray.result_view.value) < 5_000
    assert f'= <span class="tt-total">{result.total}</span>' in gm.tray.result_view.value
    p1.session.poll()
    entry = p1.roll_log.entries[-1]
    assert entry.who == "Gail" and entry.details is not None
    assert "10,000 dice" in entry.breakdown["en"] and "10\u00a0000 кубиков" in entry.breakdown["ru"]
    assert entry.breakdown["en"].endswith(f"= {result.total}")
    # what the player's browser got for it: the summary only (no die-by-die list)
    added = _state_bytes(p1.roll_log) - before
    assert 0 < added < 12_000, added  # ten thousand dice are 20,000 characters as bare digits
    values = [d.value for d in result.dice]
    assert " ".join(map(str, values[:30])) not in synced_text(p1.roll_log)
    box = _big_entry(p1)
    toggle, dice = box.children[1], box.children[2]
    assert "tt-log-dice-toggle" in toggle._dom_classes and dice.value == ""
    toggle.click()  # the reader opens it: the dice are built now
    assert dice.layout.display is None and toggle.description == "Hide the dice"
    shown = dice.value.split("</span> ", 1)[1].split("</p>")[0].split(" ")
    assert [int(v) for v in shown] == values
    toggle.click()
    assert dice.layout.display == "none" and toggle.description == "Show the dice"
    # the player's own log in Russian
    p1.locale = "ru"
    assert _big_entry(p1).children[1].description == "Показать кубики"
    assert "кубиков" in synced_text(p1.roll_log)


def test_a_big_roll_with_dropped_dice_counts_them(table):
    gm, p1 = table.view("gm"), table.view("p1")
    gm.tray.roll("3000d6kh3")
    p1.session.poll()
    entry = p1.roll_log.entries[-1]
    assert "3,000 dice, 3 kept, 2,997 dropped" in entry.breakdown["en"]
    assert "оставлено 3, отброшено 2\u00a0997" in entry.breakdown["ru"]
    box = _big_entry(p1)
    box.children[1].click()
    assert box.children[2].value.count("<s>") == 2997


def test_a_plain_log_summarises_a_big_roll_too():
    log = RollLog()
    r = dice_roll("5000d6", seed=3)
    entry = log.add_roll(r, who="Ann")
    assert entry.details is not None and "5,000 dice" in entry.breakdown["en"]
    assert len(log._entry_views[entry.n].children[0].value) < 3_000
    small = log.add_roll(dice_roll("3d6", seed=3), who="Ann")
    assert small.details is None
