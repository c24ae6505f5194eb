"""%roll and %%roll through IPython's test shell (globalipapp), rich output via the formatter."""

import pytest
from IPython.core.error import UsageError
from IPython.terminal.interactiveshell import TerminalInteractiveShell
from IPython.testing.globalipapp import start_ipython

from tabletop_widgets.dice import RollResult, roll


@pytest.fixture(scope="module")
def ip():
    start_ipython()  # the process-wide test shell; returns None when another test started it
    shell = TerminalInteractiveShell.instance()
    shell.run_line_magic("load_ext", "tabletop_widgets")
    return shell


def test_line_magic_returns_rich_result(ip):
    r = ip.run_line_magic("roll", "--seed 7 4d6kh3")
    assert isinstance(r, RollResult) and 3 <= r.total <= 18
    data, _ = ip.display_formatter.format(r)
    assert {"text/plain", "text/html", "application/vnd.tabletop.roll+json"} <= set(data)
    assert "tt-die" in data["text/html"] and "4d6kh3 [" in data["text/plain"]
    assert data["application/vnd.tabletop.roll+json"]["total"] == r.total


def test_seed_reproduces(ip):
    a = ip.run_line_magic("roll", "--seed 11 10d10>=6")
    b = ip.run_line_magic("roll", "--seed 11 10d10>=6")
    assert str(a) == str(b)


def test_negative_dice_after_expression_not_eaten_by_argparse(ip):
    r = ip.run_line_magic("roll", "--seed 1 1d20 -1d4")
    assert r.expression == "1d20 -1d4"
    r = ip.run_line_magic("roll", "-1d4+10")
    assert 6 <= r.total <= 9


def test_no_variable_expansion(ip):
    ip.user_ns["x"] = 99
    r = ip.run_line_magic("roll", "{3,5}kh1")
    assert r.total == 5
    r = ip.run_cell("%roll {3,5}kh1 + {x}")
    assert not r.success  # {x} is not expanded to 99: it is a (bad) group of an unknown word


def test_repeat_flag(ip):
    r = ip.run_line_magic("roll", "-n 6 --seed 3 4d6kh3")
    assert len(r.results) == 6


def test_quotes_are_stripped(ip):
    assert ip.run_line_magic("roll", '"2d1+1"').total == 3


def test_locale_ru(ip):
    r = ip.run_line_magic("roll", "--locale ru --seed 2 6d10>=6")
    data, _ = ip.display_formatter.format(r)
    assert any(w in data["text/plain"] for w in ("успех", "успеха", "успехов"))


def test_error_is_short_with_caret_no_traceback(ip, capsys):
    res = ip.run_cell("%roll 2x6")
    assert not res.success and type(res.error_in_exec) is UsageError
    lines = str(res.error_in_exec).splitlines()
    # the message first (after IPython's "UsageError: "), then the expression and its caret on
    # lines of their own, indented alike, the caret under the bad character
    assert lines[0].startswith("unexpected 'x'")
    assert lines[1] == "    2x6" and lines[2] == "     ^"
    assert lines[2].index("^") == lines[1].index("x")
    assert res.error_in_exec.dice_error.position == 1
    err = capsys.readouterr()
    assert "Traceback" not in err.out + err.err


def test_bad_flags(ip):
    for line in ["-n", "-n x 1d6", "-n 0 1d6", "--locale fr 1d6", "--nope 1d6", ""]:
        res = ip.run_cell(f"%roll {line}")
        assert not res.success and type(res.error_in_exec) is UsageError, line


def test_cell_magic_rolls_each_line_with_labels(ip):
    c = ip.run_cell_magic("roll", "--seed 4", "attack: 1d20+5\ndamage: 2d6+3\n\n# a comment line\n4d6kh3")
    assert [label for label, _ in c.rows] == ["attack", "damage", "4d6kh3"]
    assert 6 <= c[0].total <= 25 and 5 <= c[1].total <= 15
    data, _ = ip.display_formatter.format(c)
    assert "attack" in data["text/html"] and "attack: 1d20" in data["text/plain"]


def test_cell_magic_error_names_the_line(ip):
    res = ip.run_cell("%%roll\n1d20\n2d")
    assert not res.success
    lines = str(res.error_in_exec).splitlines()
    assert lines[0].startswith("line 2: expected the number of faces")
    assert lines[1] == "    2d" and lines[2].index("^") == len("    2d")


def caret_column(lines: list[str], expr: str) -> int:
    """Where the caret under the line showing ``expr`` points, as an index into ``expr``."""
    for i, line in enumerate(lines[:-1]):
        if line.strip() == expr and lines[i + 1].strip() == "^":
            return lines[i + 1].index("^") - line.index(expr)
    raise AssertionError(f"no line with {expr!r} and a caret below it in {lines}")


@pytest.mark.parametrize(
    "source, expr, pos, head",
    [
        ("%roll 1d20 + 2x6\n", "1d20 + 2x6", 8, "UsageError: unexpected 'x'"),
        ("%%roll --seed 1\nhit: 1d20\ndamage: 2d6 ++\n", "2d6 ++", 6, "UsageError: line 2: unexpected end"),
        ("%roll --locale ru 3d6 >> 4\n", "3d6 >> 4", 5, "UsageError: "),
    ],
)
def test_terminal_ipython_prints_the_caret_under_the_problem(tmp_path, source, expr, pos, head):
    """Terminal IPython (a real ``ipython`` process, as a user runs it) prints ``UsageError: ``
    and then our text: the caret must still sit under the problem."""
    import os
    import subprocess
    import sys

    script = tmp_path / "roll.ipy"
    script.write_text(source, encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "IPython",
            "--no-banner",
            "--colors=NoColor",
            "--InteractiveShellApp.extensions=tabletop_widgets",
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    text = out.stdout + out.stderr
    lines = text.splitlines()
    assert any(line.startswith(head) for line in lines), text
    assert "Traceback" not in text
    assert caret_column(lines, expr) == pos, text


def test_cell_magic_rejects_expression_on_first_line(ip):
    res = ip.run_cell("%%roll 1d20\n2d6")
    assert not res.success


def test_display_hook_runs(ip, capsys):
    res = ip.run_cell("%roll --seed 5 1d1+1")
    assert res.success and res.result.total == 2


def test_sheet_magic_shows_and_binds(ip):
    from tabletop_systems.ret import Character
    from tabletop_widgets.widgets import CharacterSheet

    ip.user_ns["hero"] = Character(attention=6)
    w = ip.run_line_magic("sheet", "hero")
    assert isinstance(w, CharacterSheet)
    r = ip.run_line_magic("roll", "1d1+@attention")
    assert r.total == 7


@pytest.mark.parametrize("line", ["", "nope", "1x", "x"])
def test_sheet_magic_errors(ip, line):
    ip.user_ns["x"] = 5
    res = ip.run_cell(f"%sheet {line}")
    assert not res.success and type(res.error_in_exec) is UsageError


def test_combat_magic(ip):
    from tabletop_widgets.widgets import CombatTracker

    assert isinstance(ip.run_line_magic("combat", "seasons"), CombatTracker)
    for line in ["", "nope"]:
        res = ip.run_cell(f"%combat {line}")
        assert not res.success and type(res.error_in_exec) is UsageError


def test_cell_labels_need_a_space_after_the_colon(ip):
    c = ip.run_cell_magic("roll", "--seed 1", "hit: 1d20")
    assert [label for label, _ in c.rows] == ["hit"]
    res = ip.run_cell("%%roll\nx:1d6")
    assert not res.success  # "x:1d6" is one expression (and not valid notation)


# -- commands shown where a page hides code (first-evening issue, item 6) --------------------


def _outputs(ip, source):
    from IPython.utils.capture import capture_output

    with capture_output() as cap:
        ip.run_cell(source)
    return [o.data for o in cap.outputs]


def test_show_commands_shows_each_cell_above_its_output(ip):
    """A Voila page strips the cells' code: the tutorial showed results without the ``%roll``
    lines. ``show_commands`` puts each cell's command above its output."""
    from tabletop_widgets.magics import show_commands

    hook = show_commands(ip, always=True)
    try:
        assert show_commands(ip, always=True) is hook  # one hook, however often it is called
        (first,) = _outputs(ip, "# NBVAL_IGNORE_OUTPUT\n%roll --seed 1 1d20+5")
        assert first["text/plain"] == "%roll --seed 1 1d20+5"
        assert '<pre class="tt-command"' in first["text/html"] and "%roll --seed 1 1d20+5" in first["text/html"]
        assert "NBVAL" not in first["text/html"]
        assert ip.run_cell("%roll --seed 1 1d20+5").result.total == roll("1d20+5", seed=1).total  # the roll still runs
        shown = _outputs(ip, "x = '<b>'\nprint(len(x))")[0]
        assert "&lt;b&gt;" in shown["text/html"] and "<b>" not in shown["text/html"]
        assert _outputs(ip, "# NBVAL_IGNORE_OUTPUT\n") == []
    finally:
        ip.events.unregister("pre_run_cell", hook)
        del ip._tt_show_commands
    assert _outputs(ip, "y = 1") == []


def test_show_commands_only_where_code_is_hidden(ip, monkeypatch):
    from tabletop_widgets.magics import show_commands, sources_hidden

    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    assert not sources_hidden() and show_commands(ip) is None  # a notebook shows its code itself
    monkeypatch.setenv("VOILA_KERNEL_ID", "k1")
    assert sources_hidden()
    hook = show_commands(ip, magics_only=True)
    try:
        assert hook is not None
        assert _outputs(ip, "z = 2") == []  # a cell that builds the page shows nothing more
        assert _outputs(ip, "%load_ext tabletop_widgets\nimport html") == []  # nor one that starts with a magic
        shown = _outputs(ip, "# a comment first\n%roll --seed 3 1d6")[0]
        assert shown["text/plain"].endswith("%roll --seed 3 1d6")
    finally:
        ip.events.unregister("pre_run_cell", hook)
        del ip._tt_show_commands
