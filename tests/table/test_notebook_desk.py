"""The GM's notebook (issue 35, part 1): ``connect(link)`` joins the live table as the link's seat,
on the store the Voila pages use; ``%table open <link>`` does it in a notebook and shows the seat's
page; ``%roll --table`` rolls with the table's fair dice into the log every seat reads;
``table.check`` and ``table.combat`` work from Python, and what they write other seats see."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.terminal.interactiveshell import TerminalInteractiveShell
from IPython.testing.globalipapp import start_ipython

from tabletop_widgets import get_system
from tabletop_widgets.notebook_table import LiveRoll, take_table_flag
from tabletop_widgets.table import SeatError, SeatSpec, TableSession, connect, create_table, open_store
from tabletop_widgets.table.connect import link_query
from tabletop_widgets.table.seats import PermissionDenied, link
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.table_view import TableView

RET = get_system("ret")


def made_table(store):
    chars = {"ada": sample_character(RET, "Ada").to_dict(), "bo": sample_character(RET, "Bo").to_dict()}
    return create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        characters=chars,
    )


def page_link(made, seat: str) -> str:
    return link(made.table.table_id, made.tokens[seat], "http://127.0.0.1:8866/voila/render/table.ipynb")


class Opened:
    """What a test opens (stores, sessions), closed at its end."""

    def __init__(self, url):
        self.url, self.things = url, []

    def store(self):
        self.things.append(open_store(self.url))
        return self.things[-1]

    def join(self, made, seat):
        return TableSession.join(self.store(), made.table.table_id, made.tokens[seat])

    def connect(self, link_text):
        self.things.append(connect(link_text, self.url))
        return self.things[-1]


@pytest.fixture
def opened(store_url):
    o = Opened(store_url)
    yield o
    for thing in reversed(o.things):
        thing.close()


@pytest.fixture
def table(store_url, opened):
    made = made_table(opened.store())
    return store_url, made


def test_a_link_in_any_shape_a_player_pastes_it(table):
    url, made = table
    full = page_link(made, "ann")
    query = full.split("?", 1)[1]
    for shape in (full, f"  <{full}>  ", f'"{full}"', "?" + query, query, "/voila/render/table.ipynb?" + query):
        s = connect(shape, url)
        assert (s.seat, s.role, s.table_id) == ("ann", "player", made.table.table_id), shape
        s.close()
    assert link_query(full) == query


@pytest.mark.parametrize(
    "bad", ["", "   ", "hello", "http://127.0.0.1:8866/voila/render/table.ipynb", "table=abc", 42, None]
)
def test_what_is_not_a_seat_link_is_refused_before_the_store_is_read(bad, tmp_path):
    db = tmp_path / "never.db"
    with pytest.raises(SeatError) as exc:
        connect(bad, db)
    assert exc.value.code == "not_a_link"
    assert "?table=<id>&seat=<token>" in exc.value.message["en"] and "ссылка места" in exc.value.message["ru"]
    assert not db.exists()  # nothing opened, nothing created


def test_a_wrong_or_replaced_token_says_what_a_page_says(table, opened):
    url, made = table
    wrong = page_link(made, "ann").replace(made.tokens["ann"], "x" * len(made.tokens["ann"]))
    with pytest.raises(SeatError) as exc:
        connect(wrong, url)
    assert exc.value.code == "bad_token"
    gm = opened.connect(page_link(made, "gm"))
    gm.reissue_seat("ann")  # the old link stops working at once
    with pytest.raises(SeatError):
        connect(page_link(made, "ann"), url)


def test_the_store_defaults_to_tabletop_db_as_the_play_pages(tmp_path, monkeypatch):
    db = tmp_path / "play.db"
    store = open_store(db)
    made = made_table(store)
    monkeypatch.setenv("TABLETOP_DB", str(db))
    s = connect(page_link(made, "gm"))
    assert s.role == "gm" and s.table_id == made.table.table_id
    s.close()
    store.close()


def test_check_and_combat_from_python_reach_every_seat(table, opened):
    url, made = table
    gm, ann = opened.connect(page_link(made, "gm")), opened.connect(page_link(made, "ann"))
    event = ann.check("attention")  # Ada's check, with the table's fair dice
    assert event.kind == "check" and event.payload["character_id"] == "ada"
    fight = gm.combat
    fight.add_table_character("ada")
    fight.add_table_character("bo")
    fight.roll_initiative()
    fight.next_turn()
    # another seat (a player's page, in another kernel) follows the fight the notebook runs
    ben = opened.join(made, "ben")
    ben.poll()
    public = ben.state.combat["state"]
    assert {c["name"] for c in public["combatants"].values()} == {"Ada", "Bo"} and public["round"] == 1
    assert public["current"] == fight.current
    # the GM's Voila page (another window of the same seat) and the notebook stay in step
    page = TableView(opened.join(made, "gm"), follow=False)
    assert page.sync.combat.current == fight.current and page.sync.combat.round == 1
    fight.next_turn()
    page.session.poll()
    assert page.sync.combat.current == gm.combat.current
    page.close()
    with pytest.raises(PermissionDenied):
        ann.combat  # noqa: B018 - the fight's desk is the GM's
    # the initiative was the table's fair dice: its outcome is in the log every seat reads
    assert [e.payload["index"] for e in ben.events() if e.kind == "initiative"]


# -- the magics ------------------------------------------------------------------------------
@pytest.fixture
def ip():
    start_ipython()
    shell = TerminalInteractiveShell.instance()
    shell.run_line_magic("load_ext", "tabletop_widgets")
    yield shell
    if shell.user_ns.get("_tt_table") is not None:
        shell.run_line_magic("table", "close")


def test_table_open_gives_table_and_its_page_and_roll_table_writes_to_the_log(ip, table, opened):
    url, made = table
    page = ip.run_line_magic("table", f"open {page_link(made, 'ann')} --db {url}")
    assert isinstance(page, TableView) and page.session.seat == "ann"
    assert ip.user_ns["table"].seat == "ann"
    assert "ann (player)" in repr(ip.run_line_magic("table", ""))
    shown = ip.run_line_magic("roll", "--table 2d6+1")
    assert isinstance(shown, LiveRoll) and 3 <= shown.total <= 13
    assert "fair dice: roll " in repr(shown)
    # the GM's kernel reads it in the log, as a tray roll
    gm = opened.join(made, "gm")
    rolls = [e for e in gm.events() if e.kind == "roll"]
    assert rolls and rolls[-1].actor == "ann" and rolls[-1].payload["expr"] == "2d6+1"
    assert rolls[-1].payload["result"]["total"] == shown.total
    # six at once, in Russian
    six = ip.run_line_magic("roll", "--table -n 2 --locale ru 1d6")
    assert "честные кубики: бросок " in repr(six)
    # the notebook's roll table, rolled at the table: every seat reads the entry
    from tabletop_widgets.dice import RollTable

    ip.user_ns["weather"] = RollTable("1d6", {(1, 3): "Rain", (4, 6): "Sun"}, title="Weather")
    told = ip.run_line_magic("roll", "--table weather")
    assert isinstance(told, LiveRoll) and "Weather" in repr(told) and ("Rain" in repr(told) or "Sun" in repr(told))
    assert [e for e in gm.events() if e.kind == "roll.table"][-1].actor == "ann"
    with pytest.raises(UsageError, match="once at a time"):
        ip.run_line_magic("roll", "--table -n 2 weather")
    ip.run_line_magic("table", "close")
    assert "table" not in ip.user_ns


@pytest.mark.parametrize(
    "line, words",
    [
        ("--table 2d6", "no table joined"),
    ],
)
def test_roll_table_without_a_table_says_how_to_join(ip, line, words):
    with pytest.raises(UsageError, match=words):
        ip.run_line_magic("roll", line)


@pytest.mark.parametrize(
    "line, words",
    [
        ("--table --prob 2d6", "rolls nothing"),
        ("--prob --table 2d6", "rolls nothing"),
        ("--table --seed 3 2d6", "fair dice"),
        ("--table", "nothing to roll"),
        ("--table 2d", r"number of faces after 'd'.*\n +2d\n +\^"),
    ],
)
def test_roll_table_refuses_what_the_table_cannot_roll(ip, table, opened, line, words):
    url, made = table
    ip.run_line_magic("table", f"open {page_link(made, 'ann')} --db {url}")
    with pytest.raises(UsageError, match=words):
        ip.run_line_magic("roll", line)
    assert not [e for e in opened.join(made, "gm").events() if e.kind == "roll"]


@pytest.mark.parametrize(
    "line, words",
    [
        ("open", "needs the seat link"),
        ("open hello", "not a seat link"),
        ("open a b", "one link"),
        ("open x --locale fr", "en or ru"),
        ("page", "no table joined"),
        ("close", "no table joined"),
        ("dance", "unknown command"),
        ("", "no table joined"),
        ('open "unclosed', "No closing quotation"),
    ],
)
def test_table_magic_says_what_was_wrong(ip, line, words):
    with pytest.raises(UsageError, match=words):
        ip.run_line_magic("table", line)


def test_the_table_flag_is_a_flag_only_among_the_leading_flags():
    assert take_table_flag("--table 2d6") == (True, " 2d6")
    assert take_table_flag("-n 3 --table 2d6")[0]
    assert take_table_flag("2d6 --table") == (False, "2d6 --table")
    assert take_table_flag("--tables 2d6")[0] is False
