"""The one error family of the dice engine."""

from __future__ import annotations

import math
from fractions import Fraction


class DiceError(ValueError):
    """Bad dice input or a breached limit.

    ``position`` is the 0-based index into the expression text where the problem is (``None``
    when it concerns the whole expression); ``expression`` is that text; the message says what
    was expected there. ``caret()`` draws the text with a caret under the position.
    """

    def __init__(
        self, message: str, position: int | None = None, expression: str | None = None, *, message_ru: str | None = None
    ):
        self.message = message
        self.message_ru = message_ru
        self.position = position
        self.expression = expression
        where = f" (at position {position})" if position is not None else ""
        super().__init__(message + where)

    def text(self, locale: str = "en") -> str:
        return (self.message_ru or self.message) if locale == "ru" else self.message

    def caret(self, locale: str = "en") -> str:
        """Two lines: the expression and a caret under the bad position, then the message."""
        msg = self.text(locale)
        if self.expression is None or self.position is None:
            return msg
        pos = max(0, min(self.position, len(self.expression)))
        # keep long inputs readable: a window of 70 characters around the position
        start = max(0, pos - 50)
        shown = self.expression[start : start + 70].replace("\n", " ")
        prefix = "…" if start else ""
        return f"{prefix}{shown}\n{' ' * (len(prefix) + pos - start)}^\n{msg}"


class DiceLimitError(DiceError):
    """A limit of NOTATION.md was breached (too many dice, too deep, too large for exact odds)."""


def variable_value(name: str, variables, pos: int, err):
    """The number ``@name`` stands for in ``variables``: a whole number or a fraction, else the
    error ``err(en, pos, ru=...)`` makes (unknown, or not a number) is raised. Both engines,
    rolled and exact, read variables through it."""
    if variables is None or name not in variables:
        en, ru = unknown_variable(name, variables)
        raise err(en, pos, ru=ru)
    v = variables[name]
    if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
        raise err(
            f"variable @{name} is {v!r}, not a whole number",
            pos,
            ru=f"переменная @{name} равна {v!r}, а не целому числу",
        )
    return v


def unknown_variable(name: str, variables) -> tuple[str, str]:
    """The en and ru messages for ``@name`` missing from ``variables`` (up to 12 known names)."""
    known = sorted(k for k in map(str, variables or {}) if not k.startswith("__"))[:12]
    return (
        f"unknown variable @{name} (known: {', '.join(known) or 'none'})",
        f"неизвестная переменная @{name} ({'известны: ' + ', '.join(known) if known else 'переменных нет'})",
    )


def too_large(err, pos: int, *, power: bool = False) -> DiceError:
    """The refusal of a number beyond ±10^30 at an operation (or a power), as ``err(en, pos,
    ru=..., cls=...)`` makes it. Both engines, rolled and exact, refuse through it."""
    if power:
        return err(
            "number too large (beyond ±10^30) at this power",
            pos,
            ru="слишком большое число (больше ±10^30) в этой степени",
            cls=DiceLimitError,
        )
    return err(
        "number too large (beyond ±10^30) at this operation",
        pos,
        ru="слишком большое число (больше ±10^30) в этой операции",
        cls=DiceLimitError,
    )


def fractional_exponent(err, pos: int) -> DiceError:
    """The refusal of an exponent that is not a whole number."""
    return err("the exponent must be a whole number", pos, ru="показатель степени должен быть целым")


def zero_to_negative_power(err, pos: int) -> DiceError:
    """The refusal of 0 to a negative power."""
    return err("division by zero (0 to a negative power)", pos, ru="деление на ноль (0 в отрицательной степени)")


def power_overflows(base, exponent: int) -> bool:
    """Whether ``base ** exponent`` would be far beyond ±10^30 (checked before computing it)."""
    return abs(base) > 1 and abs(exponent) * math.log2(abs(float(base))) > 110
