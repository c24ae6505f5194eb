"""The Seasons roll words for ``%roll`` (spec §5.12): ``pool N [diff D] [contest M] [--no-r10]``
and ``rolloff A B C``.

    pool 7                      7 d10, successes on 6+
    pool 3+2+2[lockpicks]-1 diff 4
    pool 5 diff max(2,3,1)      several targets: the highest defence (L51)
    pool 6 contest 4            contest: more successes wins (L59)
    pool 14 --no-r10            the rule of 10 dice off (L55)
    pool 8 diff 3 [threat]
    pool wits+investigation diff 3      a named check of the bound character (%sheet / the tray)
    pool sneak+2[cloak] diff max(2,3)   a preset id, plus extra dice
    rolloff Ann Bob Cid         1d10 each, ties roll again (L730)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.dice import DiceError, DiceWord, Die, check_from, word_result
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import WordContext

from .checks import pool_breakdown
from .initiative import rolloff
from .options import BOOK
from .pool import contest_distribution, contest_winner, pool_distribution, roll_pool
from .pool_plan import build_pool
from .presets import check_id_of, resolve_preset

_INT = re.compile(r"\d+")
_LABEL = re.compile(r"\[([^\[\]]*)\]")
_NAME = re.compile(r"[^\s,]+")
_VAR = re.compile(r"@(?:\{([^{}]+)\}|([A-Za-z_\u0400-\u04FF][\w]*))")
_SIGN = re.compile(r"[+-]")
#: a + or - between terms (``--no-r10`` is a flag, not a minus)
_OPERATOR = re.compile(r"\+|-(?!-)")
#: a named check: ids (``wits+investigation``) or the book's names (``Смекалка+Расследование``)
_CHECK_NAME = re.compile(r"[^\W\d][\w]*(?:\+[^\W\d][\w]*)?")
MAX_POOL = 10_000
#: nothing bound: no ``@name`` values, no character
NOTHING_BOUND = WordContext()


# -----------------------------------------------------------------------------------------------
# Pool arithmetic: sums of whole numbers, (...), max(...), @sheet values, each with a [label]
# -----------------------------------------------------------------------------------------------
def _max(s: Scanner, context: WordContext) -> int:
    """``max(a, b, ...)``, the opening already taken: the highest value (several targets, L51)."""
    values = [_sum(s, context)]
    while s.take(","):
        values.append(_sum(s, context))
    if not s.take(r"\)"):
        raise s.error(T("expected ',' or ')' to close max(", "ожидалась «,» или «)» после max("))
    return max(values)


def _variable(s: Scanner, context: WordContext) -> int:
    """``@name`` / ``@{Имя}``: a whole-number value of the bound sheet."""
    m = _VAR.match(s.text, s.pos, s.end)
    if not m or (not context.variables and context.character is None):
        raise s.error(
            T(
                "sheet variables (@name) need a bound character sheet",
                "переменным листа (@имя) нужен привязанный лист персонажа",
            )
        )
    name = m.group(1) or m.group(2)
    value = context.variables.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise s.error(T(f"unknown sheet variable @{name}", f"неизвестная переменная листа @{name}"))
    s.pos = m.end()
    return value


def _atom(s: Scanner, context: WordContext) -> int:
    if s.at_end():
        raise s.error(T("expected a number here", "здесь ожидалось число"))
    if s.take(re.compile(r"max\(")):
        return _max(s, context)
    if s.take(r"\("):
        value = _sum(s, context)
        if not s.take(r"\)"):
            raise s.error(T("expected ')'", "ожидалась «)»"))
        return value
    if s.text[s.pos] == "@":
        return _variable(s, context)
    m = _INT.match(s.text, s.pos, s.end)
    if not m:
        raise s.error(
            T("expected a whole number, '(' or max(...) here", "здесь ожидалось целое число, «(» или max(...)")
        )
    if len(m.group()) > 6:
        raise s.error(T("number too large", "слишком большое число"))
    s.pos = m.end()
    return int(m.group())


def _term(s: Scanner, context: WordContext, terms: list | None, sign: int) -> int:
    """One signed term; with ``terms``, its (label, value) is added there."""
    value = sign * _atom(s, context)
    m = _LABEL.match(s.text, s.pos, s.end)  # a label sits right after its number
    if m:
        s.pos = m.end()
    if terms is not None:
        terms.append((m.group(1).strip() if m else None, value))
    return value


def _sum(s: Scanner, context: WordContext, terms: list | None = None) -> int:
    """``[+-]term (+|- term)*``; stops before anything else (a keyword, a flag, the end)."""
    sign = s.take(_SIGN)
    total = _term(s, context, terms, -1 if sign and sign.group() == "-" else 1)
    while True:
        here = s.pos
        op = s.take(_OPERATOR)
        if op is None:
            s.pos = here
            return total
        total += _term(s, context, terms, -1 if op.group() == "-" else 1)


@dataclass
class PoolExpression:
    """A parsed ``pool`` word: the pool after difficulty, an optional contest side, the flags."""

    text: str
    base: int
    difficulty: int = 0
    opponent: int | None = None
    rule_of_10: bool = True
    terms: list = field(default_factory=list)
    labels: list = field(default_factory=list)

    @property
    def pool(self) -> int:
        return self.base - self.difficulty

    def trace(self) -> str:
        parts = " ".join(
            f"{'-' if v < 0 else '+'} {abs(v)}" + (f"[{label}]" if label else "") for label, v in self.terms
        )
        parts = parts.lstrip("+ ")
        if self.difficulty:
            parts += f" - {self.difficulty}[diff]"
        return f"{parts} = {self.pool}"

    def roll(self, rng: random.Random | None = None):
        rng = rng if rng is not None else random.Random()
        r = roll_pool(self.pool, rng, rule_of_10=self.rule_of_10)
        dice = r.dice()
        details: dict[str, Any] = {
            "pool": self.pool,
            "trace": self.trace(),
            "impossible": r.impossible,
            "rolled": r.rolled,
            "auto": r.auto,
            "successes": r.successes,
            "faces": list(r.faces),
            "previous_success_bonus": r.previous_success_bonus,
            "labels": list(self.labels),
        }
        breakdown = pool_breakdown(r, self.trace())
        if self.opponent is None:
            check = check_from(r.successes, ">=", 1)  # an impossible pool has 0 successes
            bonus = r.previous_success_bonus
            notes = [T(f"previous-success bonus +{bonus}", f"бонус предыдущих успехов +{bonus}")] if bonus else []
        else:
            o = roll_pool(self.opponent, rng, rule_of_10=self.rule_of_10)
            winner = contest_winner(r.successes, o.successes)
            details.update(
                opponent_pool=self.opponent, opponent_faces=list(o.faces), opponent_successes=o.successes, winner=winner
            )
            dice += [Die(10, f, success=f >= o.threshold, note="vs") for f in o.faces]
            ob = pool_breakdown(o)
            # «соперник: 4 дайса …» (after «против» the count would need the genitive)
            breakdown = T(f"{breakdown['en']}; opponent: {ob['en']}", f"{breakdown['ru']}; соперник: {ob['ru']}")
            check = check_from(r.successes, ">", o.successes)  # more successes wins (L59)
            notes = [{"A": T("A wins", "победа A"), "B": T("B wins", "победа B"), "tie": T("tie", "равенство")}[winner]]
        res = word_result(
            self.text,
            "pool",
            r.successes,
            dice,
            breakdown,
            check=check,
            successes=r.successes,
            details=details,
            notes=notes,
        )
        res.labels = list(self.labels)
        return res

    def distribution(self):
        if self.opponent is None:
            return pool_distribution(self.pool, rule_of_10=self.rule_of_10, expression=self.text)
        return contest_distribution(self.pool, self.opponent, rule_of_10=self.rule_of_10, expression=self.text)


def _named_check(s: Scanner, m: re.Match, terms: list, context: WordContext) -> int:
    """``pool wits+investigation ...`` / ``pool sneak ...``: the bound character's pool for a named
    check (spec §5.13) before the difficulty, which the word's own ``diff`` gives. The sheet's
    defaults apply (active Problem / Advantage, relevant conditions, Pain) except the queued
    bonuses: a %roll line never consumes the queue (use the tray or ``SYSTEM.roll_check``)."""
    name = m.group()
    if context.character is None:
        raise s.error(
            T(
                f"the named check {name!r} needs a bound character (%sheet or the tray's character)",
                f"для именованной проверки {name!r} нужен привязанный персонаж (%sheet или персонаж лотка)",
            )
        )
    try:
        preset = resolve_preset(check_id_of(name))
        if preset.special is not None:
            raise ValueError(f"{name!r} is not a character's pool")
        plan = build_pool(preset, context.character, {"difficulty": 0, "pending": False}, options=BOOK)
    except (ValueError, RuleError) as exc:
        msg = getattr(exc, "message", None)
        en = msg["en"] if isinstance(msg, Mapping) else str(exc)
        ru = msg["ru"] if isinstance(msg, Mapping) else str(exc)
        raise s.error(
            T(f"cannot build the pool of {name!r}: {en}", f"не удалось собрать запас {name!r}: {ru}")
        ) from None
    s.pos = m.end()
    terms.extend((key, value) for key, _lab, value in plan.terms)
    return sum(v for _, _, v in plan.terms)


def _base(s: Scanner, terms: list, context: WordContext) -> int:
    """The pool before the difficulty: a sum, or a named check plus extra bonuses / penalties."""
    if s.at_end():
        raise s.error(
            T(
                "expected the pool size after 'pool', e.g. 'pool 7'",
                "после «pool» ожидался размер запаса, например «pool 7»",
            )
        )
    m = _CHECK_NAME.match(s.text, s.pos, s.end)
    if not m or s.peek(re.compile(r"max\(")):
        return _sum(s, context, terms)
    base = _named_check(s, m, terms, context)
    if s.peek(_OPERATOR):
        base += _sum(s, context, terms)  # extra bonuses / penalties after the check: +2[knife]-1
    return base


def _once(s: Scanner, seen: set, word: str, at: int) -> None:
    if word in seen:
        raise s.error(T(f"'{word}' given twice", f"«{word}» указан дважды"), at)
    seen.add(word)


def _tail(s: Scanner, expr: PoolExpression, context: WordContext) -> None:
    """``diff D``, ``contest M``, ``--no-r10`` and ``[labels]`` in any order, each once."""
    seen: set[str] = set()
    while not s.at_end():
        at = s.pos
        if s.keyword("diff"):
            _once(s, seen, "diff", at)
            expr.difficulty = _sum(s, context)
            if expr.difficulty < 0:
                raise s.error(
                    T(
                        "a difficulty cannot be negative (use a bonus instead)",
                        "сложность не может быть отрицательной (используйте бонус)",
                    ),
                    at,
                )
        elif s.keyword("contest"):
            _once(s, seen, "contest", at)
            expr.opponent = _sum(s, context)
        elif s.keyword("--no-r10"):
            expr.rule_of_10 = False
        elif s.text.startswith("[", s.pos):
            m = s.take(_LABEL)
            if m is None:
                raise s.error(T("unclosed label '['", "незакрытая метка «[»"))
            expr.labels.append(m.group(1).strip())
        else:
            raise s.error(
                T(
                    "expected 'diff', 'contest', '--no-r10', a [label] or the end",
                    "ожидалось «diff», «contest», «--no-r10», [метка] или конец",
                )
            )


def parse_pool(text: str, start: int, end: int, context: WordContext = NOTHING_BOUND) -> PoolExpression:
    """Parse ``text[start:end]``. ``context`` (a ``WordContext``) resolves ``@name`` / ``@{Имя}``
    sheet values (``pool @dexterity+@larceny+2-1 diff 4``) and a named check of the bound character."""
    s = Scanner(text, start, end)
    s.skip_space()
    if not s.keyword("pool"):
        raise s.error(T("expected the word 'pool'", "ожидалось слово «pool»"))
    terms: list = []
    expr = PoolExpression(text=text[start:end].strip(), base=_base(s, terms, context), terms=terms)
    _tail(s, expr, context)
    if abs(expr.pool) > MAX_POOL or (expr.opponent is not None and abs(expr.opponent) > MAX_POOL):
        raise s.error(T(f"a pool above {MAX_POOL} dice is refused", f"запас больше {MAX_POOL} не принимается"), start)
    return expr


@dataclass
class RolloffExpression:
    text: str
    names: list

    def roll(self, rng: random.Random | None = None):
        rng = rng if rng is not None else random.Random()
        keys = {n: () for n in self.names}
        notes: list = []
        order = rolloff(list(self.names), rng, keys, notes)
        dice = [Die(10, v) for n in self.names for v in keys[n]]
        breakdown = T(
            "; ".join(n["en"] for n in notes) + f" → {', '.join(order)}",
            "; ".join(n["ru"] for n in notes) + f" → {', '.join(order)}",
        )
        return word_result(self.text, "rolloff", 0, dice, breakdown, details={"order": order, "rolls": keys})

    def distribution(self):
        raise DiceError(
            "a roll-off has no single distribution (each name rolls 1d10)",
            None,
            self.text,
            message_ru="у переброса нет одного распределения (каждый бросает 1d10)",
        )


def parse_rolloff(text: str, start: int, end: int) -> RolloffExpression:
    s = Scanner(text, start, end)
    if not s.keyword("rolloff"):
        raise s.error(T("expected the word 'rolloff'", "ожидалось слово «rolloff»"))
    names = []
    while not s.at_end():
        m = s.take(_NAME)
        if not m:
            raise s.error(T("expected a name", "ожидалось имя"))
        if m.group() in names:
            raise s.error(T(f"name {m.group()!r} given twice", f"имя {m.group()!r} указано дважды"), m.start())
        names.append(m.group())
        s.take(",")
    if len(names) < 2:
        raise s.error(T("a roll-off needs at least two names", "для переброса нужно хотя бы два имени"))
    return RolloffExpression(text=text[start:end].strip(), names=names)


POOL_WORD = DiceWord(
    name="pool",
    system="seasons",
    pattern=re.compile(r"pool\b"),
    parse=parse_pool,
    help=T(
        "Seasons d10 pool: pool N | pool <attribute>+<skill> (bound character) [diff D | diff max(a,b)] "
        "[contest M] [--no-r10]; successes on 6+",
        "Запас d10 «Времён Года»: pool N | pool <атрибут>+<навык> (привязанный персонаж) [diff D | diff max(a,b)] "
        "[contest M] [--no-r10]; успех на 6+",
    ),
    examples=(
        "pool 7",
        "pool 3+2+2[lockpicks]-1 diff 4",
        "pool 5 diff max(2,3,1)",
        "pool 6 contest 4",
        "pool 14 --no-r10",
        "pool 8 diff 3 [threat]",
    ),
)
ROLLOFF_WORD = DiceWord(
    name="rolloff",
    system="seasons",
    pattern=re.compile(r"rolloff\b"),
    parse=parse_rolloff,
    help=T(
        "Initiative roll-off: rolloff A B C (1d10 each, ties roll again)",
        "Переброс инициативы: rolloff A B C (1d10 каждому, при равенстве — переброс)",
    ),
    examples=("rolloff Ann Bob",),
)
