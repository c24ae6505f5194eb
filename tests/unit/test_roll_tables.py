"""Roll tables (issue 35): ``RollTable(expr, entries)`` checked against the exact distribution
(icepool is the oracle of each row's chance), rolled alone and nested, read from Markdown and
CSV, drawn with its chances, stored and read back; bad input refused with a clear message in
both languages."""

from __future__ import annotations

import random
from fractions import Fraction

import icepool
import pytest

from tabletop_widgets.dice import DiceError, RollTable, TableRoll
from tabletop_widgets.dice.tables import MAX_DEPTH, parse_key

from dice_helpers import Scripted

d = icepool.d

ENCOUNTER = {1: "Wolves", 2: "Rain", (3, 5): "Nothing", 6: "A stranger"}


def icepool_chance(die, lo: int, hi: int) -> Fraction:
    den = die.denominator()
    return Fraction(sum(q for k, q in die.items() if lo <= int(k) <= hi), den)


def refused(make, *words: str) -> DiceError:
    with pytest.raises(DiceError) as info:
        make()
    err = info.value
    for w in words:
        assert w in err.text("en"), (w, err.text("en"))
    assert err.text("ru") != err.text("en") and err.message_ru, "a Russian message too"
    return err


# -- the issue's example -------------------------------------------------------------------------
def test_the_issue_example_has_exact_chances():
    table = RollTable("1d6", ENCOUNTER)
    assert table.chances() == {
        "Wolves": Fraction(1, 6),
        "Rain": Fraction(1, 6),
        "Nothing": Fraction(1, 2),
        "A stranger": Fraction(1, 6),
    }
    assert sum(table.chances().values()) == 1
    assert [r.key for r in table.rows()] == ["1", "2", "3–5", "6"]


@pytest.mark.parametrize(
    "expr, rows, die",
    [
        ("2d6", {(2, 4): "a", (5, 6): "b", 7: "c", (8, 9): "d", (10, 12): "e"}, lambda: 2 @ d(6)),
        ("3d6", {(3, 8): "low", (9, 12): "mid", (13, 18): "high"}, lambda: 3 @ d(6)),
        ("4d6kh3", {(3, 9): "weak", (10, 14): "fair", (15, 18): "strong"}, lambda: d(6).highest(4, 3)),
        ("1d20+2", {(3, 12): "miss", (13, 21): "hit", 22: "crit"}, lambda: d(20) + 2),
        ("2d10-1d4", {(-2, 5): "x", (6, 12): "y", (13, 19): "z"}, lambda: 2 @ d(10) - d(4)),
        ("max(1d6,1d8)", {(1, 4): "x", (5, 8): "y"}, lambda: icepool.highest(d(6), d(8))),
    ],
)
def test_row_chances_equal_icepool(expr, rows, die):
    table = RollTable(expr, rows)
    oracle = die()
    for row in table.rows():
        assert row.chance == icepool_chance(oracle, row.lo, row.hi), (expr, row.key)
    assert sum(r.chance for r in table.rows()) == 1


def test_rows_with_equal_entries_sum_into_one_entry():
    table = RollTable("2d6", {(2, 6): "Wolves", 7: "Nothing", (8, 12): "Wolves"})
    oracle = 2 @ d(6)
    assert table.chances() == {
        "Wolves": icepool_chance(oracle, 2, 6) + icepool_chance(oracle, 8, 12),
        "Nothing": Fraction(1, 6),
    }
    assert len(table.rows()) == 3  # the rows stay apart


def test_string_keys_and_ranges_read_as_numbers():
    assert parse_key("3-5") == (3, 5)
    assert parse_key(" 3 – 5 ") == (3, 5)
    assert parse_key("4") == (4, 4)
    assert parse_key("-2--1") == (-2, -1)
    assert parse_key("−2") == (-2, -2)
    assert parse_key((1, 3)) == (1, 3)
    table = RollTable("1d6", {"1": "a", "2-5": "b", "6": "c"})
    assert table.chances()["b"] == Fraction(2, 3)


def test_a_range_may_reach_past_what_the_dice_roll_but_not_only_there():
    table = RollTable("1d6", {(1, 3): "low", (4, 10): "high"})
    assert table.chances()["high"] == Fraction(1, 2)


# -- refusals --------------------------------------------------------------------------------
def test_a_gap_is_refused_naming_the_results():
    err = refused(lambda: RollTable("1d6", {1: "a", (2, 4): "b", 6: "c"}), "can roll 5", "no row")
    assert "5" in err.text("ru")


def test_a_gap_in_the_middle_of_2d6_is_refused():
    refused(lambda: RollTable("2d6", {(2, 6): "a", (8, 12): "b"}), "can roll 7")


def test_an_unreachable_row_is_refused():
    refused(lambda: RollTable("1d6", {(1, 6): "a", 7: "b"}), "never rolls", "7", "from 1 to 6")
    refused(lambda: RollTable("2d6", {1: "never", (2, 12): "a"}), "never rolls", "1")


def test_an_unreachable_row_between_possible_results_is_refused():
    # 2d{0,2} rolls 0, 2 or 4: the row 3 is never reached though 2 and 4 are
    refused(lambda: RollTable("2d{0,2}", {(0, 2): "a", 3: "b", 4: "c"}), "never rolls", "3")


def test_overlapping_rows_are_refused():
    refused(lambda: RollTable("1d6", {(1, 4): "a", (4, 6): "b"}), "1–4", "4–6", "overlap")
    refused(lambda: RollTable("1d6", {3: "a", (3, 3): "b", (1, 2): "c", (4, 6): "d"}), "twice")


@pytest.mark.parametrize(
    "key, word",
    [(True, "key"), (1.5, "key"), ("a-b", "key"), ((1, 2, 3), "key"), ((5, 3), "backwards"), ("6-2", "backwards")],
)
def test_bad_keys_are_refused(key, word):
    refused(lambda: RollTable("1d6", {key: "a", (1, 6): "b"}), word)


@pytest.mark.parametrize(
    "expr, words",
    [
        ("1d6+", ("the table's dice", "expected")),
        ("", ("dice expression",)),
        (None, ("dice expression",)),
        ("1d6!", ("without end", "limit")),
        ("2d6 >= 7", ("one number",)),
        ("3#1d6", ("one number",)),
        ("1d6 + @str", ("unknown variable",)),
    ],
)
def test_bad_dice_are_refused(expr, words):
    refused(lambda: RollTable(expr, {(1, 6): "a"}), *words)


@pytest.mark.parametrize(
    "entries, words",
    [
        ({}, ("needs its rows",)),
        ([(1, "a")], ("needs its rows",)),
        ({(1, 6): ""}, ("empty",)),
        ({(1, 6): 3}, ("text or another RollTable",)),
        ({(1, 6): None}, ("text or another RollTable",)),
    ],
)
def test_bad_entries_are_refused(entries, words):
    refused(lambda: RollTable("1d6", entries), *words)


def test_a_limited_explosion_is_a_finite_table():
    table = RollTable("1d6xo", {(1, 5): "plain", (7, 12): "exploded"})
    assert table.chances() == {"plain": Fraction(5, 6), "exploded": Fraction(1, 6)}


# -- rolling ---------------------------------------------------------------------------------
def test_roll_reads_the_entry_of_the_total():
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    for face, entry in [(1, "Wolves"), (2, "Rain"), (3, "Nothing"), (5, "Nothing"), (6, "A stranger")]:
        got = table.roll(Scripted([face]))
        assert isinstance(got, TableRoll)
        assert (got.total, got.entry, got.final) == (face, entry, entry)
        assert got.roll.total == face and got.nested is None and got.chain == [got]
    assert str(table.roll(Scripted([4]))) == "Random encounter (1d6): 4 — Nothing"
    assert str(RollTable("1d6", ENCOUNTER).roll(Scripted([4]))) == "1d6: 4 — Nothing"


def test_roll_is_reproducible_with_a_seed_and_covers_every_entry():
    table = RollTable("1d6", ENCOUNTER)
    assert table.roll(seed=5).to_json() == table.roll(seed=5).to_json()
    rng = random.Random(1)
    seen = {table.roll(rng).entry for _ in range(200)}
    assert seen == set(table.chances())


def test_a_nested_table_is_rolled_at_once_with_the_same_stream():
    wolves = RollTable("1d4", {(1, 2): "Two wolves", (3, 4): "A pack"}, title="Wolves")
    outer = RollTable("1d6", {1: wolves, (2, 6): "Nothing"}, title="Encounter")
    got = outer.roll(Scripted([1, 3]))
    assert got.entry is wolves and got.final == "A pack"
    assert [s.total for s in got.chain] == [1, 3]
    assert got.nested.table is wolves
    assert str(got) == "Encounter (1d6): 1 → Wolves (1d4): 3 — A pack"
    steps = got.to_json()["steps"]
    assert [s["entry"] for s in steps] == [None, "A pack"] and got.to_json()["entry"] == "A pack"
    assert outer.roll(Scripted([4])).final == "Nothing"


def test_nested_chances_keep_the_table_or_flatten_through_it():
    wolves = RollTable("1d4", {(1, 3): "Two wolves", 4: "A pack"})
    outer = RollTable("1d6", {(1, 2): wolves, (3, 6): "Nothing"})
    assert outer.chances() == {wolves: Fraction(1, 3), "Nothing": Fraction(2, 3)}
    assert outer.chances(flat=True) == {
        "Two wolves": Fraction(1, 3) * Fraction(3, 4),
        "A pack": Fraction(1, 3) * Fraction(1, 4),
        "Nothing": Fraction(2, 3),
    }


def test_nesting_is_limited():
    table = RollTable("1d2", {(1, 2): "end"})
    for _ in range(MAX_DEPTH - 1):
        table = RollTable("1d2", {1: table, 2: "x"})
    assert table.depth() == MAX_DEPTH
    refused(lambda: RollTable("1d2", {1: table, 2: "x"}), "nest")


# -- Markdown and CSV ------------------------------------------------------------------------
MARKDOWN = """Some notes before the table.

# Random encounter

| d6 | Result |
|:---|-------:|
| 1 | Wolves |
| 2 | Rain |
| 3-5 | Nothing |
| 6 | A stranger \\| or two |
"""


def test_markdown_gives_the_dice_title_and_rows():
    table = RollTable.from_markdown(MARKDOWN)
    assert (table.expr, table.title) == ("d6", "Random encounter")
    assert table.chances() == {
        "Wolves": Fraction(1, 6),
        "Rain": Fraction(1, 6),
        "Nothing": Fraction(1, 2),
        "A stranger | or two": Fraction(1, 6),
    }


def test_markdown_expr_and_title_given_win_over_the_header():
    text = "| Roll | Result |\n| --- | --- |\n| 2-7 | Low |\n| 8-12 | High |\n"
    table = RollTable.from_markdown(text, "2d6", title="Weather")
    assert (table.expr, table.title) == ("2d6", "Weather")
    assert table.chances()["Low"] == icepool_chance(2 @ d(6), 2, 7)
    refused(lambda: RollTable.from_markdown(text), "which dice", "expr=")


@pytest.mark.parametrize(
    "text, words",
    [
        ("just words", ("no Markdown table",)),
        ("| d6 | Result |\n| 1 | a |\n", ("line 2", "separator")),
        ("| d6 | Result |\n| --- | --- |\n", ("no rows",)),
        ("| d6 | Result |\n| --- | --- |\n| 1-6 | a | b |\n", ("line 3", "two columns", "has 3")),
        ("| d6 | a | b |\n| --- | --- | --- |\n| 1-6 | a | b |\n", ("line 1", "header has 3")),
        ("| d6 | Result |\n| --- | --- |\n| one | a |\n", ("line 3", "key")),
        ("| d6 | Result |\n| --- | --- |\n| 1-3 | a |\n| 1-3 | b |\n| 4-6 | c |\n", ("line 4", "twice")),
        ("| d6 | Result |\n| --- | --- |\n| 1-3 | a |\n| 4 | b |\n", ("can roll 5, 6",)),
        (
            "| d6 | R |\n| --- | --- |\n| 1-6 | a |\n\ntext\n| d6 | R |\n| --- | --- |\n| 1-6 | a |\n",
            ("more than one",),
        ),
        (42, ("must be text",)),
    ],
)
def test_bad_markdown_is_refused(text, words):
    refused(lambda: RollTable.from_markdown(text), *words)


def test_csv_with_a_header_or_rows_only():
    table = RollTable.from_csv('d6,Result\n1,Wolves\n2-5,Nothing\n6,"A stranger, tall"\n', title="Road")
    assert (table.expr, table.title) == ("d6", "Road")
    assert table.chances() == {"Wolves": Fraction(1, 6), "Nothing": Fraction(2, 3), "A stranger, tall": Fraction(1, 6)}
    semi = RollTable.from_csv("2d6;Погода\n2-6;Дождь\n7-12;Ясно\n")
    assert semi.chances()["Дождь"] == icepool_chance(2 @ d(6), 2, 6)
    bare = RollTable.from_csv("1-3\tA\n4-6\tB\n", expr="1d6")
    assert bare.chances() == {"A": Fraction(1, 2), "B": Fraction(1, 2)}


@pytest.mark.parametrize(
    "text, expr, words",
    [
        ("", None, ("empty",)),
        ("1-3,A\n4-6,B\n", None, ("which dice",)),
        ("d6,Result\n1-6,a,b\n", None, ("line 2", "two columns")),
        ("d6,Result\n", None, ("no rows",)),
        ("d6,Result\nx,a\n", None, ("line 2", "key")),
        ("d6,Result\n1-3,a\n", None, ("can roll 4, 5, 6",)),
    ],
)
def test_bad_csv_is_refused(text, expr, words):
    refused(lambda: RollTable.from_csv(text, expr), *words)


# -- showing and storing ---------------------------------------------------------------------
def test_text_and_html_show_each_row_with_its_exact_chance():
    table = RollTable("1d6", ENCOUNTER, title="Random <encounter>")
    text = str(table)
    assert text.splitlines()[0] == "Random <encounter> (1d6)"
    assert "3–5  Nothing" in text and "50.00%" in text and "16.67%" in text
    html = table._repr_html_()
    assert "Random &lt;encounter&gt;" in html and "<encounter>" not in html
    assert html.count("<tr>") == 5  # the header and four rows
    assert "50.00%" in html and 'title="1/2"' in html
    assert "var(--jp-border-color2" in html and "#" not in html.replace("&#x27;", "")  # no colours of its own
    ru = table.html("ru")
    assert "Шанс" in ru and "Запись" in ru
    wolves = RollTable("1d4", {(1, 4): "Wolves"}, title="Wolf pack")
    assert "→ Wolf pack (table 1d4)" in str(RollTable("1d2", {1: wolves, 2: "x"}))


def test_to_dict_and_back_is_the_same_table():
    wolves = RollTable("1d4", {(1, 2): "Two wolves", (3, 4): "A pack"}, title="Wolves")
    outer = RollTable("1d6", {1: wolves, (2, 6): "Nothing"}, title="Encounter")
    data = outer.to_dict()
    assert data["rows"][0]["entry"]["title"] == "Wolves"
    again = RollTable.from_dict(data)
    assert again.to_dict() == data
    assert again.roll(Scripted([1, 4])).final == "A pack"
    assert RollTable.from_dict(RollTable("1d6", ENCOUNTER).to_dict()).chances() == RollTable("1d6", ENCOUNTER).chances()


@pytest.mark.parametrize(
    "data, words",
    [
        (None, ("mapping",)),
        ({"expr": "1d6"}, ("mapping",)),
        ({"format": 9, "expr": "1d6", "rows": []}, ("format 9",)),
        ({"expr": "1d6", "rows": [{"from": "1", "to": 6, "entry": "a"}]}, ("whole numbers",)),
        ({"expr": "1d6", "rows": [{"from": 1, "to": 5, "entry": "a"}]}, ("can roll 6",)),
        ({"expr": "1d6", "rows": [{"from": 1, "to": 6, "entry": "a"}, {"from": 1, "to": 6, "entry": "b"}]}, ("twice",)),
    ],
)
def test_bad_stored_tables_are_refused(data, words):
    refused(lambda: RollTable.from_dict(data), *words)


def test_a_title_is_checked():
    assert RollTable("1d2", {(1, 2): "a"}, title="  Two   words ").title == "Two words"
    refused(lambda: RollTable("1d2", {(1, 2): "a"}, title=3), "title")
    refused(lambda: RollTable("1d2", {(1, 2): "a"}, title="x" * 201), "at most 200")


def test_a_reroll_stopped_at_its_limit_has_no_row():
    # the exact odds follow r<20 to the end (always 20); roll() stops after 100 rerolls
    table = RollTable("1d20r<20", {20: "Twenty"})
    assert table.chances() == {"Twenty": Fraction(1)}
    assert table.roll(Scripted([3, 20])).final == "Twenty"
    refused(lambda: table.roll(Scripted([1] * 101)), "no row for the result 1")
    got = table.roll(Scripted([1] * 101), strict=False)
    assert got.row is None and got.entry is None and got.final is None
    assert got.to_json()["entry"] is None and str(got) == "1d20r<20: 1 — no row"


# -- %roll NAME ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ip():
    from IPython.terminal.interactiveshell import TerminalInteractiveShell
    from IPython.testing.globalipapp import start_ipython

    start_ipython()  # the process-wide test shell; returns None when another test started it
    shell = TerminalInteractiveShell.instance()
    shell.run_line_magic("load_ext", "tabletop_widgets")
    return shell


def test_roll_magic_rolls_a_table_of_the_notebook(ip):
    table = RollTable("1d6", ENCOUNTER, title="Random encounter")
    ip.user_ns["encounters"] = table
    got = ip.run_line_magic("roll", "--seed 4 encounters")
    assert isinstance(got, TableRoll) and got.to_json() == table.roll(seed=4).to_json()
    data, _ = ip.display_formatter.format(got)
    assert data["text/plain"].startswith("<TableRoll 'Random encounter (1d6): ")
    assert "Random encounter (1d6): " in got._repr_html_() and "1d6 [" in got._repr_html_()
    many = ip.run_line_magic("roll", "-n 3 --seed 4 encounters")
    assert len(many) == 3 and all(isinstance(r, TableRoll) for r in many)
    assert ip.run_line_magic("roll", "--prob encounters") is table


@pytest.mark.parametrize(
    "line, words",
    [
        ("--table encounters", "no table joined"),  # --table rolls at the live table (%table open)
        ("nowhere_at_all", "nowhere_at_all"),  # not a variable: dice text, which does not parse
        ("not_a_table", "not_a_table"),  # a variable, but no RollTable: dice text too
    ],
)
def test_roll_magic_table_errors_say_what_is_wrong(ip, line, words):
    from IPython.core.error import UsageError

    ip.user_ns["not_a_table"] = "1d6"
    ip.user_ns["encounters"] = RollTable("1d6", ENCOUNTER)
    with pytest.raises(UsageError) as err:
        ip.run_line_magic("roll", line)
    assert words in str(err.value)


def test_the_documented_examples_work():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text(encoding="utf-8")
    part = doc.split("## Roll tables", 1)[1].split("\n## ", 1)[0]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    names: dict = {}
    exec(compile(code.replace("print(", "str("), "notation.md", "exec"), names)  # noqa: S102 - our own docs
    assert names["encounters"].chances() == RollTable("1d6", ENCOUNTER).chances()
    markdown = part.split("```markdown\n", 1)[1].split("```", 1)[0]
    table = RollTable.from_markdown(markdown)
    assert (table.title, table.expr) == ("Random encounter", "d6")
    assert table.chances() == names["encounters"].chances()


def test_a_d66_table_of_tens_and_units_needs_no_rows_for_its_gaps():
    rows = {f"{t}1-{t}6": f"row {t}" for t in range(1, 7)}
    table = RollTable("1d6*10+1d6", rows)
    assert table.chances() == {f"row {t}": Fraction(1, 6) for t in range(1, 7)}
    refused(lambda: RollTable("1d6*10+1d6", {**rows, "17-20": "never"}), "never rolls", "17–20")


def test_text_too_long_or_not_text_is_refused_in_both_languages():
    err = refused(lambda: RollTable.from_csv(b"d6,Result"), "must be text", "bytes")
    assert "таблица CSV" in err.text("ru") and "CSV table" not in err.text("ru")
    refused(lambda: RollTable.from_markdown("|" * 200_001), "too long")
