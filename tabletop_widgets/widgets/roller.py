"""The dice page: type what ``%roll`` takes, roll, see the breakdown, its exact odds and a history.

The box reads a line as ``%roll`` does (:func:`tabletop_widgets.dice.command.read_command`): dice
notation and system words (``2d6+3 >= 8``, ``1d20+5 adv vs 15``, ``L5+3 >= 8``) after flags such as
``--prob`` (the exact odds, nothing rolled), ``-n 6`` (six repetitions) or ``--seed 7``. A result
shows what was typed and what it means, the dice, the odds of what was rolled and the same line
as a notebook command. The page knows nothing of game systems. Every widget has a stable ``tt-``
CSS class (browser tests select by it) and an accessible label or tooltip in both locales.
"""

from __future__ import annotations

import html
import random
from collections import deque
from typing import Any

import ipywidgets as widgets

from tabletop_widgets.dice import DiceError, distribution, roll
from tabletop_widgets.dice.command import RollCommand, check_highlight, read_command
from tabletop_widgets.front import stylesheet
from tabletop_widgets.i18n import check_locale

from .base import locale_toggle
from .roller_text import (
    EXAMPLES,
    HISTORY_LIMIT,
    TEXTS,
    command_html,
    echo_html,
    error_html,
    history_line,
    nothing_to_roll,
    odds_html,
    text as _t,
)

# A small stylesheet for the page (ipywidgets' own classes + ours); no CDN, no external files.
_CSS = stylesheet("roller")  # tabletop_widgets/front/roller.css


class _Entry:
    """One line rolled (or its odds shown): the command, and its result or distribution."""

    __slots__ = ("command", "result", "dist", "odds_error")

    def __init__(self, command: RollCommand, result=None, dist=None, odds_error: DiceError | None = None):
        self.command, self.result, self.dist, self.odds_error = command, result, dist, odds_error


class RollerPage(widgets.VBox):
    """The dice page: notation box, Roll button, examples, result, error, history, locale toggle.

    Parameters
    ----------
    seed : int, optional
        Seed of the page's own ``random.Random`` (tests use it for reproducible dice).
    rng : random.Random, optional
        The generator to roll with; takes precedence over ``seed``.
    locale : {"en", "ru"}
        The starting language; the toggle switches it at any time.

    Attributes
    ----------
    notation, roll_button, examples, result, error, history, locale_toggle
        The widgets (classes ``tt-notation``, ``tt-roll-button``, ``tt-roll-examples``,
        ``tt-roll-result``, ``tt-roll-error``, ``tt-roll-history``, ``tt-locale``).
    last_result
        The latest RollResult (``None`` before the first roll, and after ``--prob``).
    last_distribution
        The exact odds shown for the latest line (of what it rolled, or what ``--prob`` asked).
    results
        Past RollResults, newest first, at most :data:`HISTORY_LIMIT`.
    last_error
        The DiceError shown in the error area (``None`` when there is none).
    """

    def __init__(self, *, seed: int | None = None, rng: random.Random | None = None, locale: str = "en", **kwargs: Any):
        check_locale(locale)
        self.rng = rng if rng is not None else random.Random(seed)
        self.locale = locale
        self.last_result = None
        self.last_distribution = None
        self.last_error: DiceError | None = None
        self._last: _Entry | None = None
        self._error_line = ""  # the line the error is about, and where in it
        self._error_at: int | None = None
        self._history: deque[_Entry] = deque(maxlen=HISTORY_LIMIT)
        self.roll_count = 0

        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-title")
        self.locale_toggle = locale_toggle(locale, button_width="48px")
        self.notation = widgets.Text(
            layout=widgets.Layout(flex="1 1 auto", width="auto"), style={"description_width": "initial"}
        )
        self.notation.add_class("tt-notation")
        self.roll_button = widgets.Button(button_style="primary")
        self.roll_button.add_class("tt-roll-button")
        self.try_label = widgets.HTML()
        self.try_label.add_class("tt-roll-try")
        self.example_buttons = [self._example_button(line) for line in EXAMPLES]
        self.examples = widgets.HBox([self.try_label, *self.example_buttons])
        self.examples.add_class("tt-roll-examples")
        self.result = widgets.HTML()
        self.result.add_class("tt-roll-result")
        self.error = widgets.HTML()
        self.error.add_class("tt-roll-error")
        self.history = widgets.HTML()
        self.history.add_class("tt-roll-history")

        header = widgets.HBox([self.title, self.locale_toggle])
        header.add_class("tt-roller-header")
        row = widgets.HBox([self.notation, self.roll_button])
        row.add_class("tt-roll-row")

        self.roll_button.on_click(lambda _button: self.roll())
        # Enter in the box: the front end sends {"event": "submit"} (Text.on_submit is
        # deprecated in ipywidgets 8, the message itself is not).
        self.notation.on_msg(self._on_notation_msg)
        self.locale_toggle.observe(self._on_locale, names="value")

        # the error sits right under the box it is about; a stale result stays below it
        parts = [self.style_block, header, row, self.examples, self.error, self.result, self.history]
        super().__init__(parts, **kwargs)
        self.add_class("tt-roller")
        self._render_all()

    def _example_button(self, line: str) -> widgets.Button:
        button = widgets.Button(description=line, layout=widgets.Layout(width="auto"))
        button.add_class("tt-roll-example")

        def on_click(_button, line=line):
            self.notation.value = line
            self.roll()

        button.on_click(on_click)
        return button

    # -- actions ---------------------------------------------------------------------------

    def roll(self, expression: str | None = None):
        """Roll ``expression`` (default: the box's text), a line as ``%roll`` takes it. With
        ``--prob`` it shows the exact odds instead. Bad input shows the error with a caret and
        changes nothing else. Returns the RollResult (the Distribution for ``--prob``), or
        ``None`` on a DiceError."""
        line = self.notation.value if expression is None else expression
        try:
            entry = self._run(line)
        except DiceError as exc:
            self.last_error = exc
            self._error_line, self._error_at = _where(line, exc)
            self._render_error()
            return None
        self.last_error = None
        self._last = entry
        self.last_result = entry.result
        self.last_distribution = entry.dist
        self._history.appendleft(entry)
        self.roll_count += 1
        self._render_result()
        self._render_error()
        self._render_history()
        return entry.result if entry.result is not None else entry.dist

    def _run(self, line: str) -> _Entry:
        command = read_command(line)
        if not command.expression:
            raise nothing_to_roll(command)
        if command.prob:
            return _Entry(command, dist=distribution(command.expression))
        rng = random.Random(command.seed) if command.seed is not None else self.rng
        result = roll(command.rolled_text, rng=rng, locale=command.locale or self.locale)
        try:  # the odds of what was rolled; a roll too large for exact odds still rolls
            return _Entry(command, result=result, dist=distribution(command.expression))
        except DiceError as exc:
            return _Entry(command, result=result, odds_error=exc)

    @property
    def results(self) -> list:
        """Past rolls, newest first (lines with ``--prob`` rolled nothing: they are not here)."""
        return [e.result for e in self._history if e.result is not None]

    def set_locale(self, locale: str) -> None:
        """Switch the page to ``"en"`` or ``"ru"`` (the toggle does the same)."""
        self.locale_toggle.value = locale

    # -- handlers --------------------------------------------------------------------------

    def _on_notation_msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self.roll()

    def _on_locale(self, change):
        self.locale = change["new"]
        self._render_all()

    # -- rendering -------------------------------------------------------------------------

    def _render_all(self) -> None:
        self._render_labels()
        self._render_result()
        self._render_error()
        self._render_history()

    def _render_labels(self) -> None:
        loc = self.locale
        self.title.value = f"<h2>{html.escape(_t('title', loc))}</h2>"
        self.title.tooltip = _t("title", loc)
        self.notation.description = _t("notation", loc)
        self.notation.placeholder = _t("placeholder", loc)
        self.notation.tooltip = _t("notation_tip", loc)
        self.roll_button.description = _t("roll", loc)
        self.roll_button.tooltip = _t("roll_tip", loc)
        self.try_label.value = html.escape(_t("try", loc))
        for button in self.example_buttons:
            button.tooltip = _t("try_tip", loc, line=button.description)
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = [_t("en_tip", loc), _t("ru_tip", loc)]
        self.result.tooltip = _t("result_tip", loc)
        self.error.tooltip = _t("error_tip", loc)
        self.history.tooltip = _t("history_tip", loc)

    def _render_result(self) -> None:
        # empty areas are hidden, so that they leave no gap in the page
        entry = self._last
        self.result.layout.display = "none" if entry is None else None
        if entry is None:
            self.result.value = ""
            return
        loc = entry.command.locale or self.locale
        if entry.result is None:  # --prob: the odds are the result
            body = entry.dist.html(loc, highlight=check_highlight(entry.command.expression))
        else:
            # the engine's HTML carries its own role="status" (announced by screen readers)
            repeated = bool(getattr(entry.result, "results", None))
            body = entry.result.html(loc) + odds_html(entry.dist, entry.odds_error, entry.result, repeated, loc)
        self.result.value = (
            f'<div class="tt-roll-box">{echo_html(entry.command, loc)}{body}{command_html(entry.command, loc)}</div>'
        )

    def _render_error(self) -> None:
        self.error.layout.display = "none" if self.last_error is None else None
        if self.last_error is None:
            self.error.value = ""
            return
        self.error.value = error_html(self._error_line, self._error_at, self.last_error.text(self.locale), self.locale)

    def _render_history(self) -> None:
        loc = self.locale
        head = f"<h3>{html.escape(_t('history', loc))}</h3>"
        if not self._history:
            self.history.value = head + f'<p class="tt-empty">{html.escape(_t("history_empty", loc))}</p>'
            return
        items = "".join(
            f"<li>{history_line(e.command, e.result if e.result is not None else e.dist, loc)}</li>"
            for e in self._history
        )
        # numbered like a log: the newest roll carries the highest number
        self.history.value = (
            f'{head}<ol reversed start="{self.roll_count}" aria-label="{html.escape(_t("history", loc))}">{items}</ol>'
        )


def _where(line: str, exc: DiceError) -> tuple[str, int | None]:
    """The line an error is about and the index in it to mark: a flag's error points into the
    line; a dice error into the dice text, which starts after the flags (and, with ``-n N``,
    was rolled with ``N#`` in front)."""
    if exc.position is None:
        return line, None
    if exc.expression == line:
        return line, exc.position
    try:
        command = read_command(line)
    except DiceError:
        return line, None
    shift = len(command.rolled_text) - len(command.expression) if exc.expression == command.rolled_text else 0
    if exc.expression not in (command.expression, command.rolled_text):
        return (exc.expression or line), exc.position
    return line, command.offset + max(0, exc.position - shift)


def dice_page(*, seed: int | None = None, rng: random.Random | None = None, locale: str = "en") -> RollerPage:
    """The dice page, ready to display (``notebooks/dice.ipynb`` shows it)."""
    return RollerPage(seed=seed, rng=rng, locale=locale)


__all__ = ["RollerPage", "dice_page", "HISTORY_LIMIT", "TEXTS"]
