"""The ``prob`` word (spec §5.15): the exact odds of a roll instead of rolling it
(``%roll prob L5+3 >= 12``), like ``%roll --prob`` but as a word, so it works wherever notation
is accepted."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tabletop_widgets.core import T
from tabletop_widgets.dice import DiceError, DiceWord, Distribution
from tabletop_widgets.dice.words import WordContext

PROB_PATTERN = re.compile(r"prob(?![\w])", re.I)


def _fmt_p(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ≈ {float(p) * 100:.2f}%" if p not in (0, 1) else f"{int(p)}"


@dataclass
class ProbExpression:
    text: str
    inner_text: str
    inner: Any
    context: WordContext

    def distribution(self) -> Distribution:
        from tabletop_widgets.dice.exact import distribution as _dist

        return _dist(self.inner, variables=self.context)

    def roll(self, rng: random.Random | None = None):
        from tabletop_widgets.dice import word_result

        d = self.distribution()
        if d.p_pass is not None:
            en = f"P({self.inner_text}) = {_fmt_p(d.p_pass)}"
            ru = f"В({self.inner_text}) = {_fmt_p(d.p_pass)}"
            total = int(d.p_pass * 100)
        else:
            rows = sorted(d.items())
            special = getattr(d, "special", None) or {}
            parts_en = [f"{special[k]['en'] if k in special else k}: {_fmt_p(q)}" for k, q in rows[:12]]
            parts_ru = [f"{special[k]['ru'] if k in special else k}: {_fmt_p(q)}" for k, q in rows[:12]]
            more = len(rows) - 12
            en = f"P({self.inner_text}): " + "; ".join(parts_en) + (f"; … {more} more" if more > 0 else "")
            ru = f"В({self.inner_text}): " + "; ".join(parts_ru) + (f"; … ещё {more}" if more > 0 else "")
            total = 0
        return word_result(
            self.text, "prob", total, [], T(en, ru), show_total=False, details={"p_pass": d.p_pass, "distribution": d}
        )


def parse_prob(text: str, start: int = 0, end: int | None = None, *, context: WordContext) -> ProbExpression:
    """``prob EXPR``: ``EXPR`` parsed with the caller's context (the bound character, ``@name``
    values), to be given as exact odds."""
    from tabletop_widgets.dice.parser import Parser

    end = len(text) if end is None else end
    m = PROB_PATTERN.match(text, start, end)
    pos = m.end() if m else start
    while pos < end and text[pos].isspace():
        pos += 1
    if pos >= end:
        raise DiceError(
            "prob needs an expression, e.g. prob L5+3 >= 8",
            pos,
            text,
            message_ru="после prob нужно выражение, например prob L5+3 >= 8",
        )
    inner_text = text[pos:end]
    try:
        inner = Parser(inner_text, context).parse_line()
    except DiceError as exc:
        raise DiceError(
            exc.message, None if exc.position is None else exc.position + pos, text, message_ru=exc.message_ru
        ) from None
    if inner.repeat > 1:
        raise DiceError(
            "prob takes one roll, not a repetition", pos, text, message_ru="prob считает один бросок, без повторений"
        )
    return ProbExpression(text=text[start:end].strip(), inner_text=inner_text.strip(), inner=inner, context=context)


def make_prob_word() -> DiceWord:
    def _parse(text: str, start: int, end: int, context: WordContext) -> ProbExpression:
        return parse_prob(text, start, end, context=context)

    return DiceWord(
        name="prob",
        system="ret",
        pattern=PROB_PATTERN,
        parse=_parse,
        help=T(
            "Exact odds instead of a roll: prob EXPR (e.g. prob L5+3 >= 8)",
            "Точная вероятность вместо броска: prob ВЫРАЖЕНИЕ (например prob L5+3 >= 8)",
        ),
        examples=("prob L5+3 >= 8", "prob L3 luck 2", "prob L4 vs L3"),
    )
