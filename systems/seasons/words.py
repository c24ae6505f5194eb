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

from tabletop_widgets.core import T
from tabletop_widgets.dice import DiceError, DiceWord, Die, check_from, word_result

from .pool import contest_distribution, contest_winner, pool_distribution, roll_pool
from tabletop_widgets.core import RuleError
from tabletop_widgets.dice.words import CHARACTER_KEY

from .checks import pool_breakdown
from .initiative import rolloff
from .pool_plan import build_pool
from .presets import check_id_of, resolve_preset
from .options import DEFAULTS

_WS = re.compile(r"\s*")
_INT = re.compile(r"\d+")
_LABEL = re.compile(r"\[([^\[\]]*)\]")
_NAME = re.compile(r"[^\s,]+")
MAX_POOL = 10_000


_VAR = re.compile(r"@(?:\{([^{}]+)\}|([A-Za-z_\u0400-\u04FF][\w]*))")


class _Parser:
    def __init__(self, text: str, start: int, end: int, variables: Mapping[str, int] | None = None):
        self.text, self.pos, self.end = text, start, end
        self.variables = variables

    def error(self, en: str, ru: str, pos: int | None = None):
        return DiceError(en, self.pos if pos is None else pos, self.text, message_ru=ru)

    def skip(self) -> None:
        m = _WS.match(self.text, self.pos, self.end)
        self.pos = m.end()

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= self.end

    def keyword(self, word: str) -> bool:
        self.skip()
        if self.text.startswith(word, self.pos) and self.pos + len(word) <= self.end:
            after = self.pos + len(word)
            if after >= self.end or not (self.text[after].isalnum() or self.text[after] == "_"):
                self.pos = after
                return True
        return False

    def label(self) -> str | None:
        m = _LABEL.match(self.text, self.pos, self.end)
        if m:
            self.pos = m.end()
            return m.group(1).strip()
        return None

    def atom(self) -> int:
        self.skip()
        if self.pos >= self.end:
            raise self.error("expected a number here", "здесь ожидалось число")
        if self.text.startswith("max(", self.pos):
            self.pos += 4
            values = [self.sum()]
            self.skip()
            while self.pos < self.end and self.text[self.pos] == ",":
                self.pos += 1
                values.append(self.sum())
                self.skip()
            if self.pos >= self.end or self.text[self.pos] != ")":
                raise self.error("expected ',' or ')' to close max(", "ожидалась «,» или «)» после max(")
            self.pos += 1
            return max(values)
        if self.text[self.pos] == "(":
            self.pos += 1
            v = self.sum()
            self.skip()
            if self.pos >= self.end or self.text[self.pos] != ")":
                raise self.error("expected ')'", "ожидалась «)»")
            self.pos += 1
            return v
        if self.text[self.pos] == "@":
            m = _VAR.match(self.text, self.pos, self.end)
            if self.variables is None or not m:
                raise self.error(
                    "sheet variables (@name) need a bound character sheet",
                    "переменным листа (@имя) нужен привязанный лист персонажа",
                )
            name = m.group(1) or m.group(2)
            value = self.variables.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise self.error(f"unknown sheet variable @{name}", f"неизвестная переменная листа @{name}")
            self.pos = m.end()
            return value
        m = _INT.match(self.text, self.pos, self.end)
        if not m:
            raise self.error(
                "expected a whole number, '(' or max(...) here", "здесь ожидалось целое число, «(» или max(...)"
            )
        if len(m.group()) > 6:
            raise self.error("number too large", "слишком большое число")
        self.pos = m.end()
        return int(m.group())

    def term(self, terms: list | None) -> int:
        v = self.atom()
        lab = self.label()
        if terms is not None:
            terms.append((lab, v))
        return v

    def sum(self, terms: list | None = None) -> int:
        self.skip()
        sign = 1
        if self.pos < self.end and self.text[self.pos] in "+-":
            sign = -1 if self.text[self.pos] == "-" else 1
            self.pos += 1
        first = self.term(terms)
        if terms is not None and sign < 0:
            terms[-1] = (terms[-1][0], -terms[-1][1])
        total = sign * first
        while True:
            save = self.pos
            self.skip()
            if self.pos < self.end and self.text[self.pos] in "+-" and not self.text.startswith("--", self.pos):
                op = self.text[self.pos]
                self.pos += 1
                v = self.term(terms)
                if op == "-":
                    v = -v
                    if terms is not None:
                        terms[-1] = (terms[-1][0], v)
                total += v
            else:
                self.pos = save
                return total


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
            notes = (
                [
                    T(
                        f"previous-success bonus +{r.previous_success_bonus}",
                        f"бонус предыдущих успехов +{r.previous_success_bonus}",
                    )
                ]
                if r.previous_success_bonus
                else []
            )
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
            verdict = {"A": T("A wins", "победа A"), "B": T("B wins", "победа B"), "tie": T("tie", "равенство")}[winner]
            res = word_result(
                self.text,
                "pool",
                r.successes,
                dice,
                breakdown,
                check=check_from(r.successes, ">", o.successes),  # more successes wins (L59)
                successes=r.successes,
                details=details,
                notes=[verdict],
            )
        res.labels = list(self.labels)
        return res

    def distribution(self):
        if self.opponent is None:
            return pool_distribution(self.pool, rule_of_10=self.rule_of_10, expression=self.text)
        return contest_distribution(self.pool, self.opponent, rule_of_10=self.rule_of_10, expression=self.text)


#: a named check: ids (``wits+investigation``) or the book's names (``Смекалка+Расследование``)
_CHECK_NAME = re.compile(r"[^\W\d][\w]*(?:\+[^\W\d][\w]*)?")


def _named_check(p: _Parser, m: re.Match, terms: list) -> int:
    """``pool wits+investigation ...`` / ``pool sneak ...``: the bound character's pool for a named
    check (spec §5.13) before the difficulty, which the word's own ``diff`` gives. The sheet's
    defaults apply (active Problem / Advantage, relevant conditions, Pain) except the queued
    bonuses: a %roll line never consumes the queue (use the tray or ``SYSTEM.roll_check``)."""
    name = m.group()
    character = p.variables.get(CHARACTER_KEY) if p.variables is not None else None
    if character is None:
        raise p.error(
            f"the named check {name!r} needs a bound character (%sheet or the tray's character)",
            f"для именованной проверки {name!r} нужен привязанный персонаж (%sheet или персонаж лотка)",
        )
    try:
        preset = resolve_preset(check_id_of(name))
        if preset.special is not None:
            raise ValueError(f"{name!r} is not a character's pool")
        plan = build_pool(preset, character, {"difficulty": 0, "pending": False}, options=DEFAULTS)
    except (ValueError, RuleError) as exc:
        msg = getattr(exc, "message", None)
        en = msg["en"] if isinstance(msg, Mapping) else str(exc)
        ru = msg["ru"] if isinstance(msg, Mapping) else str(exc)
        raise p.error(f"cannot build the pool of {name!r}: {en}", f"не удалось собрать запас {name!r}: {ru}") from None
    p.pos = m.end()
    for key, _lab, value in plan.terms:
        terms.append((key, value))
    return sum(v for _, _, v in plan.terms)


def parse_pool(text: str, start: int, end: int, variables: Mapping[str, Any] | None = None) -> PoolExpression:
    """Parse ``text[start:end]``. ``variables`` (optional; the DiceWord contract does not pass it
    yet) resolves ``@name`` / ``@{Имя}`` sheet values, e.g. ``pool @dexterity+@larceny+2-1 diff 4``."""
    p = _Parser(text, start, end, variables)
    p.skip()
    if not p.keyword("pool"):
        raise p.error("expected the word 'pool'", "ожидалось слово «pool»")
    terms: list = []
    p.skip()
    if p.pos >= p.end:
        raise p.error(
            "expected the pool size after 'pool', e.g. 'pool 7'",
            "после «pool» ожидался размер запаса, например «pool 7»",
        )
    m = _CHECK_NAME.match(text, p.pos, end)
    if m and not text.startswith("max(", p.pos):
        base = _named_check(p, m, terms)
        p.skip()
        if p.pos < end and text[p.pos] in "+-" and not text.startswith("--", p.pos):
            base += p.sum(terms)  # extra bonuses / penalties after the check: +2[knife]-1
    else:
        base = p.sum(terms)
    expr = PoolExpression(text=text[start:end].strip(), base=base, terms=terms)
    seen = set()
    while not p.at_end():
        kw_pos = p.pos
        if p.keyword("diff"):
            if "diff" in seen:
                raise p.error("'diff' given twice", "«diff» указан дважды", kw_pos)
            seen.add("diff")
            expr.difficulty = p.sum()
            if expr.difficulty < 0:
                raise p.error(
                    "a difficulty cannot be negative (use a bonus instead)",
                    "сложность не может быть отрицательной (используйте бонус)",
                    kw_pos,
                )
        elif p.keyword("contest"):
            if "contest" in seen:
                raise p.error("'contest' given twice", "«contest» указан дважды", kw_pos)
            seen.add("contest")
            expr.opponent = p.sum()
        elif p.keyword("--no-r10"):
            expr.rule_of_10 = False
        elif text.startswith("[", p.pos):
            lab = p.label()
            if lab is None:
                raise p.error("unclosed label '['", "незакрытая метка «[»")
            expr.labels.append(lab)
        else:
            raise p.error(
                "expected 'diff', 'contest', '--no-r10', a [label] or the end",
                "ожидалось «diff», «contest», «--no-r10», [метка] или конец",
            )
    if abs(expr.pool) > MAX_POOL or (expr.opponent is not None and abs(expr.opponent) > MAX_POOL):
        raise p.error(f"a pool above {MAX_POOL} dice is refused", f"запас больше {MAX_POOL} не принимается", start)
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
    p = _Parser(text, start, end)
    p.skip()
    if not p.keyword("rolloff"):
        raise p.error("expected the word 'rolloff'", "ожидалось слово «rolloff»")
    names = []
    while not p.at_end():
        m = _NAME.match(text, p.pos, end)
        if not m:
            raise p.error("expected a name", "ожидалось имя")
        if m.group() in names:
            raise p.error(f"name {m.group()!r} given twice", f"имя {m.group()!r} указано дважды")
        names.append(m.group())
        p.pos = m.end()
        p.skip()
        if p.pos < end and text[p.pos] == ",":
            p.pos += 1
    if len(names) < 2:
        raise p.error("a roll-off needs at least two names", "для переброса нужно хотя бы два имени")
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
