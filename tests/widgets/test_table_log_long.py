"""Issue 21: long sessions. A four-hour session is 500-2,000 events, a campaign many times that.
What a table page sends its browser for one new log entry must not grow with the log's length,
and a page opening on a long log must not build (and then drop) a widget per old entry.

The comms are replaced by a spy that counts what each widget would send the browser; the log is
written straight into the store (one transaction), as other seats' kernels would have written it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tabletop_widgets.table import NewEvent, TableSession, open_store
from tabletop_widgets.widgets.log import SHOWN_STEP
from tabletop_widgets.widgets.table_view import TableView

sys.path.insert(0, str(Path(__file__).parent))
from test_table_view import Table  # noqa: E402
from helpers import spy_on_comms  # noqa: E402


@pytest.fixture
def spy(monkeypatch):
    return spy_on_comms(monkeypatch)


def _write_log(table: Table, n: int) -> None:
    """``n`` table-talk lines and rolls' worth of events, in one transaction of the store."""
    with open_store(table.path) as store:
        store.append(
            table.made.table_id,
            [NewEvent("message", ("p1", "p2", "gm")[i % 3], {"text": f"line {i}: onwards"}) for i in range(n)],
        )


def _one_more(table: Table, text: str) -> None:
    with open_store(table.path) as store:
        TableSession.join(store, table.made.table_id, table.made.tokens["p2"]).say(text)


@pytest.mark.parametrize("seat", ["gm", "p1"])
def test_one_new_entry_sends_the_same_whatever_the_log_length(table, spy, seat):
    view = table.view(seat)
    _write_log(table, 80)  # past the window the log draws (an entry falls off with each new one)
    view.session.poll()
    short = [spy.cost(lambda i=i: (_one_more(table, f"short {i}"), view.session.poll())) for i in range(3)]
    _write_log(table, 1500)  # a long evening: more than the state keeps and the log draws
    view.session.poll()
    long = [spy.cost(lambda i=i: (_one_more(table, f"long {i}"), view.session.poll())) for i in range(3)]
    assert view.roll_log.entries[-1].what["en"] == "long 2"
    # the same widgets, the same messages, the same bytes (the texts differ by a character or two)
    assert max(o for o, _, _ in long) == max(o for o, _, _ in short)
    assert max(m for _, m, _ in long) == max(m for _, m, _ in short)
    assert max(b for _, _, b in long) <= max(b for _, _, b in short) + 64
    assert len(view.roll_log.scroll.children) == SHOWN_STEP


def test_a_page_opening_on_a_long_log_builds_only_what_it_shows(table, spy):
    _write_log(table, 10)
    opened_short, _, _ = spy.cost(lambda: TableView(table.session("gm"), follow=False, animate=False))
    _write_log(table, 1500)
    holder = {}
    opened_long, _, _ = spy.cost(lambda: holder.setdefault("v", TableView(table.session("gm"), follow=False)))
    view = holder["v"]
    # the first 10 entries are all drawn; of the long log only the latest SHOWN_STEP: each entry
    # is one widget with its layout and style, and nothing is built for the entries not drawn
    assert opened_long - opened_short <= 3 * (SHOWN_STEP - 10) + 3
    assert len(view.roll_log.scroll.children) == SHOWN_STEP
    assert view.roll_log.entries[-1].what["en"].startswith("line 1499")
    assert view.roll_log.count_view.value.count("500") >= 1  # the table keeps its latest 500


def test_a_log_drawn_at_once_reads_as_the_one_drawn_entry_by_entry(table):
    live = table.view("p1")
    for i in range(3):
        _one_more(table, f"line {i}")
        live.session.poll()
    reloaded = table.view("p1")  # a reload: the same log drawn at once

    def drawn(view):
        log = view.roll_log
        return log.empty_note.value, log.empty_note.layout.display, [w.value for w in log.scroll.children]

    assert drawn(reloaded) == drawn(live)
    assert drawn(live)[0] == "" and len(drawn(live)[2]) == 3
