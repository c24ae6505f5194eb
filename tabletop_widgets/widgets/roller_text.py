"""The dice page's words and the HTML of its parts (the echo, the odds, an error with its caret,
a history line), kept apart from the page's widgets (``roller.py``)."""

from __future__ import annotations

import html
import re
from fractions import Fraction

from tabletop_widgets.dice import DiceError
from tabletop_widgets.dice.command import RollCommand, meaning
from tabletop_widgets.dice.render import pct

from .base import text_lookup

#: How many past rolls the history keeps (newest first).
HISTORY_LIMIT = 50

#: Lines to try, under the box: each fills the box and rolls (what ``%roll`` takes).
EXAMPLES = ("2d6+1 >= 8", "--prob 2d6+1 >= 8", "1d20+5 adv vs 15", "-n 6 4d6kh3", "10d10>=6f1", "L5+3 >= 8")

#: Every user-facing string of the page, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Dice roller", "ru": "Бросок кубиков"},
    "notation": {"en": "Dice", "ru": "Кубики"},
    "notation_tip": {
        "en": "What %roll takes: dice such as 4d6kh3 or 2d6+3 >= 8, and flags such as --prob or -n 6. "
        "Press Enter to roll.",
        "ru": "То же, что принимает %roll: кубики, например 4d6kh3 или 2d6+3 >= 8, и флаги, например --prob или "
        "-n 6. Enter — бросить.",
    },
    "placeholder": {
        "en": "e.g. 4d6kh3, 2d6+3 >= 8, --prob 3d6",
        "ru": "например 4d6kh3, 2d6+3 >= 8, --prob 3d6",
    },
    "roll": {"en": "Roll", "ru": "Бросить"},
    "roll_tip": {"en": "Roll the dice (or press Enter in the box)", "ru": "Бросить кубики (или Enter в поле)"},
    "try": {"en": "Try:", "ru": "Попробуйте:"},
    "try_tip": {"en": "Roll {line}", "ru": "Бросить {line}"},
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
    "typed": {"en": "You typed", "ru": "Вы написали"},
    "means": {"en": "It means", "ru": "Это значит"},
    "odds": {"en": "Odds", "ru": "Шансы"},
    "p_pass": {"en": "chance to pass {p}", "ru": "шанс пройти {p}"},
    "p_pass_each": {"en": "chance to pass {p} each time", "ru": "шанс пройти {p} каждый раз"},
    "average": {"en": "average {mean}", "ru": "в среднем {mean}"},
    "range": {"en": "from {lo} to {hi}", "ru": "от {lo} до {hi}"},
    "at_least": {"en": "{total} or more: {p}", "ru": "{total} или больше: {p}"},
    "each": {"en": "each roll", "ru": "каждый бросок"},
    "no_odds": {"en": "no exact odds for this roll: {why}", "ru": "точных шансов для этого броска нет: {why}"},
    "cut_off": {"en": "explosions cut off: {p}", "ru": "отрезано взрывов: {p}"},
    "in_notebook": {"en": "In a notebook:", "ru": "В блокноте:"},
    "nothing": {
        "en": "nothing to roll: write dice such as 2d6+3 after the flags",
        "ru": "нечего бросать: после флагов напишите кубики, например 2d6+3",
    },
    "caret": {"en": "here", "ru": "здесь"},
    "odds_of": {"en": "exact odds", "ru": "точные шансы"},
}

text = text_lookup(TEXTS)


def nothing_to_roll(command: RollCommand) -> DiceError:
    """The error for a line with flags and no dice."""
    return DiceError(TEXTS["nothing"]["en"], len(command.line), command.line, message_ru=TEXTS["nothing"]["ru"])


def error_html(line: str, position: int | None, message: str, locale: str) -> str:
    """A bad line: the message (it wraps), then the line with the character at ``position``
    marked and a caret drawn under it (CSS), so the caret stays under its character wherever the
    line wraps: the error keeps inside its card on a phone too."""
    msg = f'<p class="tt-roll-error-msg">{html.escape(message)}</p>'
    if position is None:
        return f'<div class="tt-roll-error-box" role="alert">{msg}</div>'
    pos = max(0, min(position, len(line)))
    at = line[pos : pos + 1] or " "
    where = (
        f'<code class="tt-roll-error-line">{html.escape(line[:pos])}'
        f'<span class="tt-caret" title="{html.escape(text("caret", locale))}">{html.escape(at)}</span>'
        f"{html.escape(line[pos + 1 :])}</code>"
    )
    return f'<div class="tt-roll-error-box" role="alert">{msg}{where}</div>'


def echo_html(command: RollCommand, locale: str) -> str:
    """What the user typed, and what it means when that is more than the dice say."""
    notes = [n.get(locale) or n["en"] for n in meaning(command)]
    typed = (
        f'<div class="tt-roll-echo"><span class="tt-roll-echo-label">{html.escape(text("typed", locale))}</span> '
        f'<code class="tt-roll-typed">{html.escape(command.line.strip())}</code></div>'
    )
    if not notes:
        return typed
    means = "; ".join(html.escape(n) for n in notes)
    return (
        f'{typed}<div class="tt-roll-means"><span class="tt-roll-echo-label">'
        f"{html.escape(text('means', locale))}</span> {means}</div>"
    )


def _number(value) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.2f}".rstrip("0").rstrip(".")
    return str(int(value)) if float(value).is_integer() else f"{float(value):.2f}"


def odds_parts(dist, result, repeated: bool, locale: str) -> list[str]:
    """The odds of what was rolled, from its exact distribution: the chance to pass a check, or
    the average, the range and the chance of this total or more."""
    if dist.p_pass is not None:
        return [text("p_pass_each" if repeated else "p_pass", locale, p=pct(dist.p_pass))]
    parts = []
    try:
        parts.append(text("average", locale, mean=_number(dist.mean)))
        parts.append(text("range", locale, lo=dist.label(dist.min, locale), hi=dist.label(dist.max, locale)))
    except (DiceError, ValueError, TypeError):  # only special outcomes: no mean, no range
        pass
    if not repeated and result is not None:
        parts.append(text("at_least", locale, total=result.total, p=pct(dist.p_ge(result.total))))
    if repeated:
        parts.insert(0, text("each", locale))
    if dist.truncated_mass:
        parts.append(text("cut_off", locale, p=pct(dist.truncated_mass)))
    return parts


def odds_html(dist, error: DiceError | None, result, repeated: bool, locale: str) -> str:
    label = f'<span class="tt-roll-echo-label">{html.escape(text("odds", locale))}</span> '
    if dist is None:
        why = error.text(locale) if error is not None else ""
        return f'<div class="tt-roll-odds tt-roll-no-odds">{label}{html.escape(text("no_odds", locale, why=why))}</div>'
    parts = " · ".join(html.escape(p) for p in odds_parts(dist, result, repeated, locale))
    return f'<div class="tt-roll-odds">{label}{parts}</div>'


def command_html(command: RollCommand, locale: str) -> str:
    """The same line as a notebook command (what to type after ``%load_ext tabletop_widgets``)."""
    return (
        f'<div class="tt-roll-command">{html.escape(text("in_notebook", locale))} '
        f"<code>%roll {html.escape(command.line.strip())}</code></div>"
    )


_STRUCK = re.compile(r"~~(.+?)~~")


def history_line(command: RollCommand, outcome, locale: str) -> str:
    """One line of HTML for the history: what was typed (when the breakdown writes it otherwise),
    then the one-line breakdown with dropped dice struck through; a repetition as its totals and
    their sum; the odds as the chance to pass or the average."""
    typed = command.line.strip()
    if command.prob:
        if outcome.p_pass is not None:
            tail = text("p_pass", locale, p=pct(outcome.p_pass))
        else:
            tail = text("average", locale, mean=_number(outcome.mean))
        return f"{html.escape(typed)}: {html.escape(tail)}"
    results = getattr(outcome, "results", None)
    if results:
        totals = ", ".join(str(r.total) for r in results)
        return html.escape(f"{typed}: {totals} ({text('total', locale)} {outcome.total})")
    body = _STRUCK.sub(r"<s>\1</s>", html.escape(outcome.text(locale)))
    # the typed line first when the breakdown writes it otherwise (adv as 2d20kh1, a word's dice)
    if typed == outcome.expression.strip() and all(n["kind"] == "check" for n in meaning(command)):
        return body
    return f"{html.escape(typed)} → {body}"


__all__ = [
    "EXAMPLES",
    "HISTORY_LIMIT",
    "TEXTS",
    "command_html",
    "echo_html",
    "error_html",
    "history_line",
    "nothing_to_roll",
    "odds_html",
    "odds_parts",
    "text",
]
