"""What a ``%roll`` line says: its flags, then the dice text, read in one place for the magic and
the dice page (which takes the same lines).

    --prob 2d6+1 >= 8        the exact odds instead of a roll
    -n 6 4d6kh3              six repetitions (also ``--repeat 6``; the same as ``6#4d6kh3``)
    --seed 7 3d6             seeded dice: the same dice every time
    --locale ru 5d10>=6      the result in Russian
    -- -1d4+10               ``--`` ends the flags

Flags are split off by hand (argparse would eat ``-1d4`` in ``%roll 1d20 -1d4``): a ``-``
followed by a digit or ``d`` is dice, not a flag. A bad flag is a :class:`DiceError` whose
``position`` points into the whole line, with an English and a Russian message.

:func:`meaning` says, in both languages, what a line does beyond its dice (the odds, the
repetitions, advantage, the check, a system's word), for the dice page's echo.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop_widgets.i18n import plural_ru

from . import limits
from .errors import DiceError

#: The flags a line may start with, as the usage text lists them.
FLAGS = ("-n N", "--repeat N", "--seed S", "--prob", "--locale en|ru", "--")

_FLAG = re.compile(r"\s*(--[a-z]*|-n)(?=\s|$)")
_VALUE = re.compile(r"\s+(\S+)")
_WHOLE = re.compile(r"-?\d{1,18}")


@dataclass(frozen=True)
class RollCommand:
    """One ``%roll`` line, read: the flags and the dice text.

    line        the line as typed
    expression  the dice text after the flags (surrounding quotes taken off)
    offset      where ``expression`` starts in ``line`` (to point a dice error into the line)
    repeat      ``-n N``: how many times to roll (1 when not given)
    seed        ``--seed S``, or None
    prob        ``--prob``: the exact odds, nothing rolled
    locale      ``--locale``, or None when not given
    """

    line: str
    expression: str
    offset: int
    repeat: int = 1
    seed: int | None = None
    prob: bool = False
    locale: str | None = None

    @property
    def rolled_text(self) -> str:
        """The notation to roll: the expression, with ``N#`` in front for ``-n N``."""
        return f"{self.repeat}#{self.expression}" if self.repeat > 1 else self.expression


def _error(en: str, ru: str, line: str, pos: int) -> DiceError:
    return DiceError(en, pos, line, message_ru=ru)


def read_command(line: str) -> RollCommand:
    """Read the leading flags of ``line``; the rest is the dice text, untouched (an empty rest is
    allowed here: the caller says "nothing to roll" in its own words)."""
    if not isinstance(line, str):
        raise DiceError("expected the line as text", message_ru="строка броска должна быть текстом")
    opts: dict = {}
    i = 0
    while True:
        m = _FLAG.match(line, i)
        if not m:
            break
        flag, start = m.group(1), m.start(1)
        i = m.end()
        if flag == "--":
            break
        if flag == "--prob":
            opts["prob"] = True
            continue
        if flag not in ("-n", "--repeat", "--seed", "--locale"):
            raise _error(
                f"unknown flag {flag}: the flags are {', '.join(FLAGS)}",
                f"неизвестный флаг {flag}: флаги — {', '.join(FLAGS)}",
                line,
                start,
            )
        v = _VALUE.match(line, i)
        if not v:
            raise _error(f"{flag} needs a value", f"после {flag} нужно значение", line, len(line))
        value, vpos = v.group(1), v.start(1)
        i = v.end()
        opts.update(_flag_value(flag, value, line, vpos))
    rest_start = i
    while rest_start < len(line) and line[rest_start].isspace():
        rest_start += 1
    rest = line[rest_start:].rstrip()
    if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "\"'":
        rest, rest_start = rest[1:-1], rest_start + 1
    return RollCommand(line=line, expression=rest, offset=rest_start, **opts)


def _flag_value(flag: str, value: str, line: str, pos: int) -> dict:
    if flag == "--locale":
        if value not in ("en", "ru"):
            raise _error(
                f"--locale takes en or ru, got {value!r}", f"--locale принимает en или ru, а не {value!r}", line, pos
            )
        return {"locale": value}
    if not _WHOLE.fullmatch(value):
        raise _error(
            f"{flag} takes a whole number, got {value!r}", f"{flag} принимает целое число, а не {value!r}", line, pos
        )
    number = int(value)
    if flag == "--seed":
        return {"seed": number}
    if not 1 <= number <= limits.MAX_REPEAT:
        raise _error(
            f"{flag} must be 1..{limits.MAX_REPEAT}, got {number}",
            f"{flag} — от 1 до {limits.MAX_REPEAT}, а не {number}",
            line,
            pos,
        )
    return {"repeat": number}


def _times_ru(n: int) -> str:
    return f"{n} {plural_ru(n, 'раз', 'раза', 'раз')}"


def meaning(command: RollCommand) -> list[dict]:
    """What ``command`` does beyond plain dice, as notes ``{"kind": ..., "en": ..., "ru": ...}``
    (kind: prob, repeat, seed, word, adv or check; a system's word says what it is, from its help). Empty for plain dice, and for text that does not parse (its
    error says what is wrong)."""
    from .parser import parse

    notes: list[dict] = []
    if command.prob:
        notes.append(
            {"kind": "prob", "en": "the exact odds: nothing is rolled", "ru": "точные шансы: ничего не бросается"}
        )
    try:
        expr = parse(command.expression)
    except DiceError:
        return notes
    times = command.repeat * expr.repeat
    if times > 1 and not command.prob:
        notes.append({"kind": "repeat", "en": f"rolled {times} times", "ru": f"бросается {_times_ru(times)}"})
    if command.seed is not None:
        notes.append(
            {
                "kind": "seed",
                "en": f"seed {command.seed}: the same dice every time",
                "ru": f"зерно {command.seed}: каждый раз те же кубики",
            }
        )
    if expr.word is not None:
        word = _word_of(command.expression, expr)
        if word is not None:
            notes.append({"kind": "word", **{loc: f"{word.name}: {_headline(word, loc)}" for loc in ("en", "ru")}})
        return notes
    if expr.adv == "adv":
        notes.append(
            {
                "kind": "adv",
                "en": "adv: two d20, the higher counts (2d20kh1)",
                "ru": "adv: два d20, в зачёт больший (2d20kh1)",
            }
        )
    elif expr.adv == "dis":
        notes.append(
            {
                "kind": "adv",
                "en": "dis: two d20, the lower counts (2d20kl1)",
                "ru": "dis: два d20, в зачёт меньший (2d20kl1)",
            }
        )
    if expr.check_op is not None:
        target = command.expression[expr.check_target.pos : expr.check_target.end].strip()
        sign = {">=": "≥", "<=": "≤", "!=": "≠"}.get(expr.check_op, expr.check_op)
        notes.append(
            {
                "kind": "check",
                "en": f"a check: it passes when the total is {sign} {target}",
                "ru": f"проверка: пройдена, когда итог {sign} {target}",
            }
        )
    return notes


def check_highlight(text: str) -> tuple[str, int] | None:
    """``(op, target)`` when ``text`` is a check against a fixed number (``2d6+1 >= 8``), for the
    picture of its odds: the rows that pass are marked. None otherwise."""
    from .diceast import Num, Unary
    from .parser import parse

    try:
        expr = parse(text)
    except DiceError:
        return None
    target = expr.check_target
    if expr.check_op is None or target is None:
        return None
    if isinstance(target, Num):
        return expr.check_op, target.value
    if isinstance(target, Unary) and target.op == "-" and isinstance(target.operand, Num):
        return expr.check_op, -target.operand.value
    return None


def _headline(word, locale: str) -> str:
    """What a word is, from the head of its help ("RET level roll: L<level>..." says "RET level
    roll"); a word without help is named by its system."""
    help_text = word.help.get(locale) or word.help.get("en") or ""
    head = help_text.split(":", 1)[0].strip()
    if head and len(head) <= 60:
        # after the colon a Russian phrase goes on in lower case; English heads are names here
        return head[0].lower() + head[1:] if locale == "ru" and head[1:2].islower() else head
    return {"en": f"a roll word of {word.system}", "ru": f"слово броска {word.system}"}[locale]


def _word_of(text: str, expr):
    from .words import match_word

    start = len(text) - len(text.lstrip())
    if expr.repeat > 1:
        m = re.match(r"\s*\d+\s*#\s*", text)
        start = m.end() if m else start
    return match_word(text, start)


__all__ = ["FLAGS", "RollCommand", "check_highlight", "meaning", "read_command"]
