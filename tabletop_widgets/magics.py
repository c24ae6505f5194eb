"""IPython magics: ``%roll``, ``%%roll`` (and later ``%sheet``, ``%combat``).

Flags are split off by hand (argparse would eat ``-1d4`` in ``%roll 1d20 -1d4``), and the magics
are registered with ``@no_var_expand`` so ``{3,5}kh1`` arrives intact.
"""

from __future__ import annotations

import html
import os
import random
import re

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, line_magic, magics_class, no_var_expand

from .dice import DiceError, distribution, roll
from .dice.command import check_highlight, read_command
from .notebook_table import roll_at_table, table_magic, take_table_flag

USAGE = """%roll [-n N] [--seed S] [--prob] [--locale en|ru] [--table] [--] EXPR
%roll [-n N] [--seed S] [--prob] [--table] NAME   (NAME: a RollTable variable of the notebook)
%%roll [flags]   (one expression per line; 'label: EXPR' names a line)

Examples:  %roll 4d6kh3    %roll 1d20+5 >= 15    %roll -n 6 4d6kh3    %roll --prob 3d6
           %roll 10d10>=6f1    %roll 1d20 -1d4    %roll {3,5}kh1
"""


def RollMagicError(text: str, cause: DiceError | None = None) -> UsageError:
    """A bad ``%roll``. IPython prints a ``UsageError`` (exactly that class) as a short message
    without a traceback; the DiceError, when there is one, rides along as ``.dice_error``."""
    err = UsageError(text)
    err.dice_error = cause
    err.message = text
    return err


#: How far the expression and its caret are indented under the message.
CARET_INDENT = "    "


def error_text(exc: DiceError, locale: str = "en") -> str:
    """A bad expression as IPython shows it: the message first (it follows IPython's
    ``UsageError: `` on the same line), then the expression and a caret under the problem, each
    on a line of its own and indented alike, so the caret lines up in JupyterLab, Notebook 7 and
    a terminal whatever IPython prints before the first line."""
    parts = exc.caret(locale).split("\n", 2)
    if len(parts) < 3:  # no position to point at: the message alone
        return exc.text(locale)
    shown, caret, message = parts
    return f"{message}\n{CARET_INDENT}{shown}\n{CARET_INDENT}{caret}"


def split_flags(line: str) -> tuple[dict, str]:
    """Take the leading flags off ``line`` (:func:`tabletop_widgets.dice.command.read_command`,
    which the dice page reads its lines with too); the rest is dice text, untouched.

    ``-n N``, ``--seed S``, ``--prob``, ``--locale L``; ``--`` ends the flags. A leading ``-``
    followed by a digit or ``d`` is dice (``%roll -1d4``), not a flag."""
    try:
        command = read_command(line)
    except DiceError as exc:
        locale = "ru" if re.search(r"--locale\s+ru\b", line) else "en"
        raise RollMagicError(f"{error_text(exc, locale)}\n\n{USAGE}", exc) from None
    opts = {"n": command.repeat, "seed": command.seed, "prob": command.prob, "locale": command.locale or "en"}
    return opts, command.expression


def _strip_quotes(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


class CellRolls:
    """The results of ``%%roll``: one labelled row per line."""

    def __init__(self, rows, locale="en"):
        self.rows = rows  # (label, result)
        self.locale = locale

    def __iter__(self):
        return iter(r for _, r in self.rows)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i][1]

    def __repr__(self):
        return "\n".join(f"{label}: {r.text(self.locale)}" for label, r in self.rows)

    def _repr_html_(self):
        body = "".join(
            f"<tr><th style='text-align:right;padding-right:1em'>{html.escape(label)}</th>"
            f"<td>{r.html(self.locale) if hasattr(r, 'html') else r._repr_html_()}</td></tr>"
            for label, r in self.rows
        )
        return f'<table class="tt-roll-table">{body}</table>'

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": repr(self), "text/html": self._repr_html_()}


@magics_class
class TabletopMagics(Magics):
    def __init__(self, shell=None):
        super().__init__(shell)
        self.rng = random.Random()

    def _rng(self, seed):
        return random.Random(seed) if seed is not None else self.rng

    def _variables(self):
        """Variables for ``@name``: the bound sheet's character (``%sheet``), when there is one."""
        ns = self.shell.user_ns if self.shell is not None else {}
        char = ns.get("_tt_character")
        if char is None:
            return None
        from .dice.words import WordContext

        try:  # by id and by the sheet's names in both languages (@Сила, @{Мелкая моторика})
            from .core.registry import get_system

            values = dict(get_system(char.SYSTEM).variables(char))
        except (AttributeError, KeyError, LookupError, ValueError):
            values = {
                n: getattr(char, n)
                for n in char.trait_names()
                if isinstance(getattr(char, n), int) and not isinstance(getattr(char, n), bool)
            }
        return WordContext(values, char)

    def _one(self, text: str, opts: dict, rng):
        text = _strip_quotes(text.strip())
        if not text:
            raise RollMagicError("nothing to roll: give an expression such as 1d20+5\n\n" + USAGE)
        try:
            if opts["prob"]:
                dist = distribution(text, variables=self._variables())
                return _ProbView(dist, opts["locale"], check_highlight(text))
            if opts["n"] > 1:
                text = f"{opts['n']}#{text}"
            return roll(text, rng=rng, variables=self._variables(), locale=opts["locale"])
        except DiceError as exc:
            raise RollMagicError(error_text(exc, opts["locale"]), exc) from None

    @no_var_expand
    @line_cell_magic
    def roll(self, line: str, cell: str | None = None):
        """Roll dice. ``%roll 4d6kh3``, ``%roll 1d20+5 >= 15``, ``%roll -n 6 4d6kh3``,
        ``%roll --seed 7 3d6``, ``%roll --prob 2d6+1 >= 8``; ``%%roll`` rolls one line each;
        ``%roll encounters`` rolls the notebook's RollTable ``encounters``; ``--table`` rolls
        at the live table ``%table open`` joined."""
        at_table, line = take_table_flag(line)
        opts, rest = split_flags(line)
        named = self._named_table(rest) if cell is None else None
        if at_table:
            if cell is not None:
                raise RollMagicError("%%roll --table: roll at the table one line at a time (%roll --table EXPR)")
            return roll_at_table(self.shell, opts, named if named is not None else _strip_quotes(rest))
        if named is not None:
            return self._roll_named_table(named, opts)
        rng = self._rng(opts["seed"])
        if cell is None:
            return self._one(rest, opts, rng)
        if rest:
            raise RollMagicError(
                f"%%roll takes flags on its first line, not an expression ({rest!r}); "
                "put expressions on the following lines"
            )
        rows = []
        for lineno, raw in enumerate(cell.splitlines(), 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            label = text
            # "label: expression" (a space after the colon, so word forms such as
            # skill:"Safe Cracking" are not split)
            m = re.match(r"([^:{}\[\]@#]+?)\s*:\s+(\S.*)$", text)
            if m and not re.search(r"\d\s*$", m.group(1)):
                label, text = m.group(1).strip(), m.group(2)
            try:
                rows.append((label, self._one(text, opts, rng)))
            except UsageError as exc:
                raise RollMagicError(f"line {lineno}: {exc.message}", exc.dice_error) from None
        return CellRolls(rows, opts["locale"])

    def _named_table(self, text: str):
        """The notebook's RollTable named ``text`` (``%roll encounters``), or None: a name bound
        to anything else is dice text, and says so when it does not parse."""
        from .dice import RollTable

        name = text.strip()
        ns = self.shell.user_ns if self.shell is not None else {}
        found = ns.get(name) if name.isidentifier() else None
        return found if isinstance(found, RollTable) else None

    def _roll_named_table(self, table, opts: dict):
        """``%roll encounters``: roll the notebook's RollTable (``-n``: that many rolls;
        ``--prob``: the table with each row's exact chance; ``--seed``: the same roll again)."""
        if opts["prob"]:
            return table
        rng = self._rng(opts["seed"])
        rolls = [table.roll(rng, locale=opts["locale"]) for _ in range(opts["n"])]
        return rolls[0] if len(rolls) == 1 else CellRolls([(str(i), r) for i, r in enumerate(rolls, 1)], opts["locale"])

    @no_var_expand
    @line_magic
    def sheet(self, line: str):
        """``%sheet hero``: show the character sheet of ``hero`` (a system's Character) and bind
        it, so ``%roll 1d20+@attention`` reads the character's values."""
        from .core.model import CharacterModel
        from .widgets import show_sheet

        character = _lookup(self.shell, line, "sheet")
        if not isinstance(character, CharacterModel):
            raise UsageError(
                f"%sheet: {line.strip()!r} is a {type(character).__name__}, not a character "
                "(make one with a system's Character class, e.g. tabletop_systems.ret.Character())"
            )
        self.shell.user_ns["_tt_character"] = character
        return show_sheet(character)

    @no_var_expand
    @line_magic
    def table(self, line: str):
        """``%table open <seat link>``: join the live table as that seat (``table`` in the notebook,
        the seat's page shown); ``%table page``, ``%table close``; ``%roll --table EXPR`` rolls
        there (:mod:`tabletop_widgets.notebook_table`)."""
        return table_magic(self.shell, line)

    @no_var_expand
    @line_magic
    def combat(self, line: str):
        """``%combat ret`` (a system's slug): show a combat tracker for that system."""
        from . import available_systems, get_system
        from .widgets import show_combat

        slug = line.strip() or None
        if slug is None:
            raise UsageError(f"%combat needs a system: one of {', '.join(available_systems())}")
        try:
            system = get_system(slug)
        except KeyError as exc:
            raise UsageError(f"%combat: {exc.args[0]}") from None
        return show_combat(system)


def _lookup(shell, line: str, what: str):
    name = line.strip()
    if not name:
        raise UsageError(f"%{what} needs the name of a variable, e.g. %{what} hero")
    if not name.isidentifier():
        raise UsageError(f"%{what}: {name!r} is not a variable name")
    ns = shell.user_ns if shell is not None else {}
    if name not in ns:
        raise UsageError(f"%{what}: no variable named {name!r} in this notebook")
    return ns[name]


class _ProbView:
    """``%roll --prob``: the exact distribution as a table, with the rows that pass a check
    (against a fixed target) highlighted."""

    def __init__(self, dist, locale, highlight=None):
        self.dist = dist
        self.locale = locale
        self.highlight = highlight

    def __repr__(self):
        d = self.dist
        try:
            head = f"{d.expression}: mean {float(d.mean):.3f}"
        except DiceError:
            head = f"{d.expression}:"
        if d.p_pass is not None:
            head += f", P(pass) = {d.p_pass} ≈ {float(d.p_pass):.4%}"
        lines = [head]
        for v, p, ge in d.table()[:40]:
            lines.append(f"{d.label(v, self.locale):>6}  {float(p):8.4%}  ≥ {float(ge):8.4%}")
        if len(d) > 40:
            lines.append(f"… {len(d) - 40} more values")
        if d.truncated_mass:
            lines.append(f"cut off: {float(d.truncated_mass):.2e}")
        return "\n".join(lines)

    def _repr_html_(self):
        return self.dist.html(self.locale, highlight=self.highlight)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"text/plain": repr(self), "text/html": self._repr_html_()}


# -- commands shown where code is hidden -----------------------------------------------------

#: Lines a shown command leaves out: nbval's markers, which say nothing to a reader.
_MARKER = re.compile(r"^\s*#\s*NBVAL_\w+\s*$")

#: How a shown command looks: the notebook's own code colours, so it reads in light and dark themes.
COMMAND_STYLE = (
    "margin:4px 0 6px;padding:6px 10px;border-left:3px solid var(--jp-brand-color1,#1976d2);"
    "border-radius:4px;background:var(--jp-cell-editor-background,#f5f5f5);"
    "color:var(--jp-content-font-color1,#222);font-family:var(--jp-code-font-family,monospace);"
    "font-size:var(--jp-code-font-size,13px);line-height:1.45;white-space:pre-wrap;overflow-wrap:anywhere"
)
COMMAND_LABEL = {"en": "The command", "ru": "Команда"}


def sources_hidden() -> bool:
    """Whether this kernel runs a Voila page (Voila sets ``VOILA_KERNEL_ID`` in the kernel before
    the first cell; the project's ``voila.json`` strips the cells' code from its pages)."""
    return bool(os.environ.get("VOILA_KERNEL_ID")) or os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


def command_bundle(source: str) -> dict | None:
    """The display of one cell's command (``text/html`` and ``text/plain``), or None when the
    cell has nothing to show (empty, or only nbval markers)."""
    lines = [line for line in source.splitlines() if not _MARKER.match(line)]
    code = "\n".join(lines).strip("\n")
    if not code.strip():
        return None
    label = " / ".join(COMMAND_LABEL.values())
    shown = (
        f'<pre class="tt-command" aria-label="{html.escape(label)}" style="{COMMAND_STYLE}">'
        f"<code>{html.escape(code)}</code></pre>"
    )
    return {"text/html": shown, "text/plain": code}


def _all_magic(code: str) -> bool:
    """Whether every line of ``code`` (comments aside) is a line magic, or the cell is a cell magic."""
    lines = [ln.strip() for ln in code.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(lines) and (lines[0].startswith("%%") or all(ln.startswith("%") for ln in lines))


def show_commands(shell=None, *, magics_only: bool = False, always: bool = False):
    """Show each cell's code above its output from the next cell on, where the page hides code:
    a Voila page strips the cells' sources, so a tutorial's reader would see results without the
    ``%roll`` lines that made them. In a notebook (where the code is in view) nothing changes,
    unless ``always``. ``magics_only`` shows only the cells made of magics (``%roll`` lines, a
    ``%%roll`` cell), for a page whose other cells only build its widgets.

    Returns the ``pre_run_cell`` hook registered (``shell.events.unregister`` removes it), or
    None when nothing was registered. Calling it again does not register a second one."""
    from IPython import get_ipython
    from IPython.display import display

    shell = shell if shell is not None else get_ipython()
    if shell is None or not (always or sources_hidden()):
        return None
    old = getattr(shell, "_tt_show_commands", None)
    if old is not None:
        return old

    def hook(info):
        if getattr(info, "silent", False) or info.raw_cell is None:
            return
        bundle = command_bundle(info.raw_cell)
        if bundle is None:
            return
        if magics_only and not _all_magic(bundle["text/plain"]):
            return
        display(bundle, raw=True)

    shell.events.register("pre_run_cell", hook)
    shell._tt_show_commands = hook
    return hook


def load_ipython_extension(ipython):
    ipython.register_magics(TabletopMagics)


def unload_ipython_extension(ipython):
    # IPython keeps no public unregister; re-registering on reload replaces the class
    pass
