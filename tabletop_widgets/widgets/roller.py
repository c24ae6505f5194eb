"""A plain-ipywidgets dice page: type any notation, roll, see the breakdown and a history.

This is the foundation's dice page (served by ``make play`` through Voila). It knows nothing of
game systems; the polished dice tray comes later. Every widget has a stable ``tt-`` CSS class
(browser tests select by it) and an accessible label or tooltip in both locales.
"""

from __future__ import annotations

import html
import random
import re
from collections import deque
from typing import Any

import ipywidgets as widgets

from tabletop_widgets.dice import DiceError, roll
from tabletop_widgets.front import stylesheet
from tabletop_widgets.i18n import check_locale

from .base import locale_toggle, text_lookup

#: How many past rolls the history keeps (newest first).
HISTORY_LIMIT = 50

#: Every user-facing string of the page, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Dice roller", "ru": "Бросок кубиков"},
    "notation": {"en": "Dice", "ru": "Кубики"},
    "notation_tip": {
        "en": "Dice notation, e.g. 4d6kh3 or 2d6+3 >= 8. Press Enter to roll.",
        "ru": "Запись броска, например 4d6kh3 или 2d6+3 >= 8. Enter — бросить.",
    },
    "placeholder": {"en": "e.g. 4d6kh3, 2d6+3 >= 8, 1d20 adv", "ru": "например 4d6kh3, 2d6+3 >= 8, 1d20 adv"},
    "roll": {"en": "Roll", "ru": "Бросить"},
    "roll_tip": {"en": "Roll the dice (or press Enter in the box)", "ru": "Бросить кубики (или Enter в поле)"},
    "result_tip": {"en": "The last roll and its dice", "ru": "Последний бросок и его кубики"},
    "error_tip": {"en": "What is wrong with the notation", "ru": "Что не так с записью"},
    "history": {"en": "History", "ru": "История"},
    "history_tip": {
        "en": f"Past rolls, newest first (the last {HISTORY_LIMIT})",
        "ru": f"Прошлые броски, новые сверху (последние {HISTORY_LIMIT})",
    },
    "history_empty": {"en": "No rolls yet.", "ru": "Бросков пока не было."},
    "total": {"en": "total", "ru": "итого"},
    "locale_tip": {"en": "Language", "ru": "Язык"},
    "en_tip": {"en": "English", "ru": "English"},
    "ru_tip": {"en": "Русский", "ru": "Русский"},
}

# A small stylesheet for the page (ipywidgets' own classes + ours); no CDN, no external files.
_CSS = stylesheet("roller")  # tabletop_widgets/front/roller.css


_t = text_lookup(TEXTS)


class RollerPage(widgets.VBox):
    """The dice page: notation box, Roll button, result, error, history, locale toggle.

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
    notation, roll_button, result, error, history, locale_toggle
        The widgets (classes ``tt-notation``, ``tt-roll-button``, ``tt-roll-result``,
        ``tt-roll-error``, ``tt-roll-history``, ``tt-locale``).
    last_result
        The latest RollResult (``None`` before the first roll).
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
        self.last_error: DiceError | None = None
        self._history: deque = deque(maxlen=HISTORY_LIMIT)
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
        super().__init__([self.style_block, header, row, self.error, self.result, self.history], **kwargs)
        self.add_class("tt-roller")
        self._render_labels()
        self._render_result()
        self._render_error()
        self._render_history()

    # -- actions ---------------------------------------------------------------------------

    def roll(self, expression: str | None = None):
        """Roll ``expression`` (default: the box's text). Bad notation shows the error with a
        caret and changes nothing else. Returns the RollResult, or ``None`` on a DiceError."""
        text = self.notation.value if expression is None else expression
        try:
            result = roll(text, rng=self.rng, locale=self.locale)
        except DiceError as exc:
            self.last_error = exc
            self._render_error()
            return None
        self.last_error = None
        self.last_result = result
        self._history.appendleft(result)
        self.roll_count += 1
        self._render_result()
        self._render_error()
        self._render_history()
        return result

    @property
    def results(self) -> list:
        """Past rolls, newest first."""
        return list(self._history)

    def set_locale(self, locale: str) -> None:
        """Switch the page to ``"en"`` or ``"ru"`` (the toggle does the same)."""
        self.locale_toggle.value = locale

    # -- handlers --------------------------------------------------------------------------

    def _on_notation_msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self.roll()

    def _on_locale(self, change):
        self.locale = change["new"]
        self._render_labels()
        self._render_result()
        self._render_error()
        self._render_history()

    # -- rendering -------------------------------------------------------------------------

    def _render_labels(self) -> None:
        loc = self.locale
        self.title.value = f"<h2>{html.escape(_t('title', loc))}</h2>"
        self.title.tooltip = _t("title", loc)
        self.notation.description = _t("notation", loc)
        self.notation.placeholder = _t("placeholder", loc)
        self.notation.tooltip = _t("notation_tip", loc)
        self.roll_button.description = _t("roll", loc)
        self.roll_button.tooltip = _t("roll_tip", loc)
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = [_t("en_tip", loc), _t("ru_tip", loc)]
        self.result.tooltip = _t("result_tip", loc)
        self.error.tooltip = _t("error_tip", loc)
        self.history.tooltip = _t("history_tip", loc)

    def _render_result(self) -> None:
        # empty areas are hidden, so that they leave no gap in the page
        self.result.layout.display = "none" if self.last_result is None else None
        if self.last_result is None:
            self.result.value = ""
            return
        # the engine's HTML carries its own role="status" (announced by screen readers)
        self.result.value = f'<div class="tt-roll-box">{self.last_result.html(self.locale)}</div>'

    def _render_error(self) -> None:
        self.error.layout.display = "none" if self.last_error is None else None
        if self.last_error is None:
            self.error.value = ""
            return
        text = self.last_error.caret(self.locale)
        self.error.value = f'<pre role="alert">{html.escape(text)}</pre>'

    def _render_history(self) -> None:
        loc = self.locale
        head = f"<h3>{html.escape(_t('history', loc))}</h3>"
        if not self._history:
            self.history.value = head + f'<p class="tt-empty">{html.escape(_t("history_empty", loc))}</p>'
            return
        items = "".join(f"<li>{_history_line(r, loc)}</li>" for r in self._history)
        # numbered like a log: the newest roll carries the highest number
        self.history.value = (
            f'{head}<ol reversed start="{self.roll_count}" aria-label="{html.escape(_t("history", loc))}">{items}</ol>'
        )


_STRUCK = re.compile(r"~~(.+?)~~")


def _history_line(result, locale: str) -> str:
    """One line of HTML for the history: the one-line breakdown with dropped dice struck
    through; a repetition (``6#4d6kh3``) as its totals and their sum."""
    results = getattr(result, "results", None)
    if results:
        totals = ", ".join(str(r.total) for r in results)
        text = f"{result.expression}: {totals} ({_t('total', locale)} {result.total})"
        return html.escape(text)
    return _STRUCK.sub(r"<s>\1</s>", html.escape(result.text(locale)))


def dice_page(*, seed: int | None = None, rng: random.Random | None = None, locale: str = "en") -> RollerPage:
    """The dice page, ready to display (``notebooks/dice.ipynb`` shows it)."""
    return RollerPage(seed=seed, rng=rng, locale=locale)


__all__ = ["RollerPage", "dice_page", "HISTORY_LIMIT"]
