"""The RET roll word for ``%roll`` (spec §5.15): ``L`` followed by a level digit.

Grammar (spaces are free between parts)::

    expr    := side [ ">=" target ] [ divider ]
             | side "vs" side [ "x" N ]
    side    := "L" level { "+" n ["[" name "]"] | "-" n ["[" name "]"] | "luck" n | "dl" ("+"|"-") n }
    target  := integer | difficulty preset (trivial, low, medium, elevated, high, very_high,
               extreme, impossible)
    divider := "//" D [ "+" base ] | "/" preset (strict, normal, generous)

Examples: ``L5``, ``L0``, ``L5+3 >= 8``, ``L5 >= medium``, ``L3 luck 2``, ``L3+3 luck 2``,
``L5 dl-1``, ``L3+3 vs L4``, ``L4 vs L3 x2``, ``L6+3 // 4+2``, ``L6 /normal``,
``L3 +3[skill] +2[luck]`` (a bonus labelled ``luck`` is declared Luck: burnt on a fail).

Two more words (spec §5.15):

* ``ret_check`` — the bound character's named checks (``variables[CHARACTER_KEY]``, set by
  ``%sheet`` or the tray): ``agility``, ``attention luck 2 >= 8``, ``skill "Lockpicking" luck 1``,
  ``talent Hacking difficulty high dl-1``, ``dodge +2[cover]``, ``ловкость +1``; rolled by the
  system's ``roll_check`` (condition penalties, tokens; Luck/Sanity effects shown, not applied).
* ``prob`` — exact odds instead of a roll: ``prob L5+3 >= 8`` (like ``%roll --prob``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.names import NameIndex, name_key
from tabletop_widgets.dice import DiceError, DiceWord, Distribution
from tabletop_widgets.dice.results import Check
from tabletop_widgets.dice.words import CHARACTER_KEY
from tabletop_widgets.core.options import GmOptions

from .checks import (
    total_distribution,
    Divider,
    apply_divider,
    contest,
    divider_presets,
    level_dice,
    resolve_difficulty,
    roll_result_for,
    score_distribution,
)
from .level import MAX_LEVEL, level_roll, roll_outcomes
from .options import DEFAULTS
from .params import LABELS as _PARAM_LABELS
from .params import TREE_ORDER as _TREE_ORDER

PATTERN = re.compile(r"L\d")
MAX_DEFENCES = 10
MAX_NUMBER = 10_000


@dataclass
class Side:
    level: int
    bonus: int = 0
    luck: int = 0
    shift: int = 0
    bonuses: list = field(default_factory=list)
    text: str = ""

    def kwargs(self) -> dict:
        return {"level": self.level, "bonus": self.bonus, "luck": self.luck, "shift": self.shift}


class _Parser:
    def __init__(self, text: str, start: int, end: int):
        self.text, self.pos, self.end = text, start, end

    def error(self, en: str, ru: str, pos: int | None = None):
        raise DiceError(en, self.pos if pos is None else pos, self.text, message_ru=ru)

    def ws(self):
        while self.pos < self.end and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.pos) and self.pos + len(s) <= self.end

    def peek_word(self, w: str) -> bool:
        self.ws()
        m = re.compile(rf"{w}(?![A-Za-z_])", re.I).match(self.text, self.pos, self.end)
        return m is not None

    def eat(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def number(self, what_en: str, what_ru: str) -> int:
        self.ws()
        m = re.compile(r"\d+").match(self.text, self.pos, self.end)
        if not m:
            self.error(f"expected {what_en} (a whole number)", f"ожидалось {what_ru} (целое число)")
        v = int(m.group())
        if v > MAX_NUMBER:
            self.error(
                f"{what_en} is too large (at most {MAX_NUMBER})", f"{what_ru}: слишком много (максимум {MAX_NUMBER})"
            )
        self.pos = m.end()
        return v

    def name(self) -> str | None:
        self.ws()
        m = re.compile(r"[A-Za-zА-Яа-яЁё_][A-Za-zА-Яа-яЁё_ ]*?(?=\s*(?:$|//|/|>=|≥|\+|-|vs\b|x\d|\[|\]))", re.I).match(
            self.text, self.pos, self.end
        )
        if not m:
            return None
        self.pos = m.end()
        return m.group().strip()

    def side(self) -> Side:
        self.ws()
        begin = self.pos
        if not (self.text.startswith("L", self.pos) or self.text.startswith("l", self.pos)):
            self.error("expected a level roll like L5", "ожидался бросок уровня вида L5")
        self.pos += 1
        m = re.compile(r"\d+").match(self.text, self.pos, self.end)
        if not m:
            self.error("expected a level 0..8 after L", "после L ожидался уровень 0..8")
        lv = int(m.group())
        if lv > MAX_LEVEL:
            self.error(f"level {lv} is out of range: levels are 0..8", f"уровень {lv} вне диапазона 0..8")
        self.pos = m.end()
        side = Side(level=lv)
        while True:
            self.ws()
            if self.pos >= self.end:
                break
            ch = self.text[self.pos]
            if ch in "+-" and not self.text.startswith("->", self.pos):
                sign = 1 if ch == "+" else -1
                self.pos += 1
                n = self.number("a bonus", "бонус")
                tag = None
                if self.eat("["):
                    tag_start = self.pos
                    close = self.text.find("]", self.pos, self.end)
                    if close < 0:
                        self.error("missing ] after the bonus name", "нет ] после названия бонуса", tag_start - 1)
                    tag = self.text[tag_start:close].strip()
                    self.pos = close + 1
                if tag and tag.lower() in ("luck", "удача"):
                    if sign < 0:
                        self.error("Luck cannot be negative", "Удача не может быть отрицательной")
                    side.luck += n
                else:
                    side.bonus += sign * n
                    side.bonuses.append((tag or "bonus", sign * n))
                continue
            if self.peek_word("luck") or self.peek_word("удача"):
                self.pos += 4 if self.text[self.pos] in "lL" else 5
                side.luck += self.number("the Luck declared", "заявленная Удача")
                continue
            if self.peek("dl"):
                self.pos += 2
                self.ws()
                if self.pos < self.end and self.text[self.pos] in "+-":
                    sign = 1 if self.text[self.pos] == "+" else -1
                    self.pos += 1
                else:
                    self.error("expected + or - after dl (a die-level shift)", "после dl ожидался + или -")
                side.shift += sign * self.number("a die-level shift", "сдвиг уровня куба")
                continue
            break
        side.text = self.text[begin : self.pos].strip()
        return side


def parse(text: str, start: int = 0, end: int | None = None, *, options: GmOptions) -> "LevelExpression":
    end = len(text) if end is None else end
    p = _Parser(text, start, end)
    first = p.side()
    expr = LevelExpression(text=text[start:end].strip(), attacker=first, options=options)
    if p.peek_word("vs"):
        p.pos += 2
        expr.defender = p.side()
        if p.peek_word("x") or (p.peek("x") and p.text[p.pos + 1 : p.pos + 2].isdigit()):
            p.pos += 1
            npos = p.pos
            n = p.number("the number of defences", "число защит")
            if not 1 <= n <= MAX_DEFENCES:
                p.error(f"between 1 and {MAX_DEFENCES} defences", f"защит — от 1 до {MAX_DEFENCES}", npos)
            expr.defences = n
    else:
        if p.eat(">=") or p.eat("≥"):
            p.ws()
            tpos = p.pos
            neg = p.eat("-")
            p.ws()
            if p.pos < p.end and p.text[p.pos].isdigit():
                expr.target = (-1 if neg else 1) * p.number("a difficulty", "сложность")
            else:
                name = p.name()
                if not name:
                    p.error(
                        "expected a difficulty: a number or a preset such as medium",
                        "ожидалась сложность: число или название, например medium",
                        tpos,
                    )
                try:
                    expr.target = resolve_difficulty(name)
                except Exception:
                    p.error(f"unknown difficulty {name!r}", f"неизвестная сложность {name!r}", tpos)
        if p.eat("//"):
            p.ws()
            dpos = p.pos
            d = p.number("the divider", "делитель")
            if d < 1:
                p.error("the divider must be at least 1", "делитель должен быть не меньше 1", dpos)
            base = p.number("the divider base", "основа делителя") if p.eat("+") else 0
            expr.divider = Divider(d, base)
        elif p.eat("/"):
            ppos = p.pos
            name = (p.name() or "").lower()
            presets = divider_presets()
            if name not in presets:
                p.error(
                    "expected a divider preset: strict, normal or generous",
                    "ожидался делитель: strict, normal или generous",
                    ppos,
                )
            expr.divider = presets[name]
    p.ws()
    if p.pos < p.end:
        p.error(f"unexpected {p.text[p.pos : p.end]!r}", f"неожиданное {p.text[p.pos : p.end]!r}")
    return expr


@dataclass
class LevelExpression:
    text: str
    attacker: Side
    options: GmOptions
    defender: Side | None = None
    defences: int = 1
    target: int | None = None
    divider: Divider | None = None

    def _roll_side(self, side: Side, rng):
        return level_roll(
            side.level,
            bonus=side.bonus,
            luck=side.luck,
            shift=side.shift,
            rng=rng,
            options=self.options,
            bonuses=side.bonuses,
        )

    def roll(self, rng: random.Random | None = None):
        rng = rng if rng is not None else random.Random()
        att = self._roll_side(self.attacker, rng)
        if self.defender is not None:
            defs = [self._roll_side(self.defender, rng) for _ in range(self.defences)]
            won = [contest(att, d, options=self.options) == "attacker" for d in defs]
            dtotal = defs[0].total if not defs[0].fail else 0
            check = Check(op="vs", target=int(dtotal), passed=any(won), margin=(att.total or 0) - int(dtotal))
            vs = "; ".join(d.breakdown()["en"] for d in defs)
            vs_ru = "; ".join(d.breakdown()["ru"] for d in defs)
            note = T(
                f"attacker wins {sum(won)} of {len(won)}"
                if len(won) > 1
                else ("attacker wins" if won[0] else "defender wins (ties go to the defender)"),
                f"атакующий выигрывает {sum(won)} из {len(won)}"
                if len(won) > 1
                else ("побеждает атакующий" if won[0] else "побеждает защитник (при равенстве — защитник)"),
            )
            extra = [die for d in defs for die in level_dice(d)]
            return roll_result_for(
                att,
                self.text,
                check=check,
                notes=[note],
                extra_dice=extra,
                breakdown=T(f"{att.breakdown(False)['en']} vs {vs}", f"{att.breakdown(False)['ru']} против {vs_ru}"),
                successes=sum(won) if self.defences > 1 else None,
                show_total=False,
                extra_details={
                    "defences": [{"total": d.total, "fail": d.fail, "fail_degree": d.fail_degree} for d in defs],
                    "won": won,
                    "hits": sum(won),
                },
            )
        check = None
        if self.target is not None:
            total = att.total if att.total is not None else 0
            check = Check(
                op=">=", target=self.target, passed=(not att.fail) and total >= self.target, margin=total - self.target
            )
        if self.divider is None:
            return roll_result_for(att, self.text, check=check)
        value = apply_divider(att.total, self.divider, fail=att.fail, on_fail=self.options.divider_on_fail)
        return roll_result_for(
            att,
            self.text,
            total=value,
            extra_details={"divider": str(self.divider), "level_total": att.total},
            breakdown=T(
                f"{att.breakdown()['en']} → // {self.divider.d} + {self.divider.base}",
                f"{att.breakdown()['ru']} → // {self.divider.d} + {self.divider.base}",
            ),
        )

    def distribution(self) -> Distribution:
        a_out, cut = roll_outcomes(options=self.options, **self.attacker.kwargs())
        if self.defender is not None:
            d_out, dcut = roll_outcomes(options=self.options, **self.defender.kwargs())
            a, d = score_distribution(a_out), score_distribution(d_out)
            can_hit = self.options.double_fail_attack_can_hit
            pmf: dict[int, Fraction] = {}
            for ka, pa in a.items():
                q = sum(
                    (
                        pd
                        for kd, pd in d.items()
                        if ((can_hit and ka[1] > kd[1]) if (ka[0] == 0 and kd[0] == 0) else ka > kd)
                    ),
                    Fraction(0),
                )
                # hits ~ Binomial(defences, q) given the attack outcome
                from math import comb

                for h in range(self.defences + 1):
                    pmf[h] = pmf.get(h, 0) + pa * comb(self.defences, h) * q**h * (1 - q) ** (self.defences - h)
            p_pass = 1 - pmf.get(0, Fraction(0))
            return Distribution(pmf, p_pass=p_pass, expression=self.text, outcome="hits")
        if self.divider is not None:
            on_fail = self.options.divider_on_fail
            pmf = {}
            for o, q in a_out.items():
                v = apply_divider(None if o[0] == "fail" else o[1], self.divider, fail=o[0] == "fail", on_fail=on_fail)
                pmf[v] = pmf.get(v, 0) + q
            return Distribution(pmf, truncated_mass=cut, expression=self.text, outcome="divided")
        return total_distribution(a_out, cut, self.target, self.text)


def make_word(*, options: GmOptions) -> DiceWord:

    def _parse(text: str, start: int, end: int) -> LevelExpression:
        return parse(text, start, end, options=options)

    return DiceWord(
        name="L",
        system="ret",
        pattern=PATTERN,
        parse=_parse,
        help=T(
            "RET level roll: L<level>[+mod] [luck N] [dl±N] [>= difficulty] [// D+base | /preset] "
            "or L<level> vs L<level> [xN]",
            "Бросок уровня Р.Э.Т.: L<уровень>[+бонус] [luck N] [dl±N] [>= сложность] [// D+основа | "
            "/пресет] или L<уровень> vs L<уровень> [xN]",
        ),
        examples=(
            "L5",
            "L0",
            "L5+3 >= 8",
            "L5 >= medium",
            "L3 luck 2",
            "L3+3 luck 2",
            "L5 dl-1",
            "L3+3 vs L4",
            "L4 vs L3 x2",
            "L6+3 // 4+2",
            "L6 /normal",
            "L3 +3[skill] +2[luck]",
        ),
    )


# ---------------------------------------------------------------------------------------------
# Character-bound names (spec §5.15: ``%roll agility``, ``%roll skill "Lockpicking" luck 1``)
# ---------------------------------------------------------------------------------------------

#: the named checks a bound character rolls by its code id
NAMED_CHECKS = tuple(_TREE_ORDER) + (
    "dodge",
    "parry",
    "attack_melee",
    "attack_ranged",
    "mental_defence",
    "psych_resist",
    "initiative",
    "survival",
    "self_control",
)
#: single-word Russian labels of the parameters (``%roll ловкость``)
RU_NAMES = {lab["ru"].lower(): pid for pid, lab in _PARAM_LABELS.items() if " " not in lab["ru"]}
RU_NAMES.update({"уклонение": "dodge", "парирование": "parry", "инициатива": "initiative"})
ABILITY_WORDS = {
    "skill": "skill",
    "навык": "skill",
    "talent": "talent",
    "талант": "talent",
    "ultimate": "ultimate",
    "ульта": "ultimate",
}
_ALL_NAMES = sorted(set(NAMED_CHECKS) | set(RU_NAMES) | set(ABILITY_WORDS), key=len, reverse=True)
CHECK_PATTERN = re.compile(r"(?:" + "|".join(re.escape(n) for n in _ALL_NAMES) + r")(?![\w])", re.I)


@lru_cache(maxsize=1)
def check_names() -> NameIndex:
    """The bound character's named checks by id or by the book's name in any language (any
    case, «ё» or «е», ``{Мелкая моторика}`` for a name of several words)."""
    from . import checks as _checks
    from .model import Character as _RetCharacter

    # the names of the fixed checks (abilities excluded) do not depend on the GM's options
    fixed = _checks.catalogue(_RetCharacter(), options=DEFAULTS)
    labels = {c.id: c.label for c in fixed if ":" not in c.id}
    labels.update({pid: lab for pid, lab in _PARAM_LABELS.items()})
    return NameIndex(labels, extra=RU_NAMES)


def _loose(name: str) -> str:
    """A regex for ``name`` that takes «е» for «ё» and a space or ``_`` between words."""
    out = []
    for ch in name:
        out.append("[её]" if ch in "её" else "[ _]+" if ch == " " else re.escape(ch))
    return "".join(out)


@lru_cache(maxsize=1)
def check_pattern() -> re.Pattern:
    """What the check word claims: an id, a name of the book (any case, ё/е, spaces or ``_``),
    ``{a braced name}``, or an ability word."""
    names = sorted(set(check_names().names()) | set(ABILITY_WORDS), key=len, reverse=True)
    return re.compile(r"(?:\{[^{}]{1,80}\}|" + "|".join(_loose(n) for n in names) + r")(?![\w])", re.I)


PROB_PATTERN = re.compile(r"prob(?![\w])", re.I)


def _rule_error(exc: RuleError, pos: int, text: str) -> DiceError:
    return DiceError(exc.message.get("en", str(exc)), pos, text, message_ru=exc.message.get("ru"))


@dataclass
class CheckExpression:
    """A named check of the bound character, rolled by the system's own ``roll_check`` rules
    (automatic condition penalties, tokens, Luck and Sanity effects as notes, not applied)."""

    text: str
    character: Any
    check_id: str
    request: dict
    options: GmOptions

    def roll(self, rng: random.Random | None = None):
        from . import checks as _checks

        rng = rng if rng is not None else random.Random()
        try:
            res = _checks.roll(self.character, self.check_id, self.request, options=self.options, rng=rng)
        except RuleError as exc:
            raise _rule_error(exc, None, self.text) from None
        rr = res.roll
        if rr is None:  # a guaranteed outcome (beyond the -3 x max threshold) or a choice roll
            from tabletop_widgets.dice import word_result

            rr = word_result(self.text, "L", res.total or 0, [], res.outcome, show_total=res.total is not None)
        head = T(f"{res.label['en']}: {res.outcome.get('en', '')}", f"{res.label['ru']}: {res.outcome.get('ru', '')}")
        notes = [head]
        if res.effects:
            en = ", ".join(f"{e.trait} {e.delta:+d}" for e in res.effects)
            notes.append(T(f"effects (not applied): {en}", f"последствия (не применены): {en}"))
        rr.notes = notes + list(rr.notes or [])
        if rr.tree is not None and hasattr(rr.tree, "details"):
            rr.tree.details.update(
                {"check_id": self.check_id, "degree": res.degree, "effects": [(e.trait, e.delta) for e in res.effects]}
            )
        return rr

    def distribution(self) -> Distribution:
        from . import checks as _checks

        try:
            d = _checks.distribution(self.character, self.check_id, self.request, options=self.options)
        except RuleError as exc:
            raise _rule_error(exc, None, self.text) from None
        d.expression = self.text
        return d


def parse_check(
    text: str, start: int = 0, end: int | None = None, *, variables=None, options: GmOptions
) -> CheckExpression:
    """``agility``, ``attention luck 2 >= 8``, ``skill "Lockpicking" luck 1``,
    ``talent Hacking difficulty high dl-1``, ``dodge +2[cover]`` — the bound character's check.

    Options: ``luck N``, ``+N`` / ``-N`` (``[name]`` labels it; ``[luck]`` declares Luck),
    ``dl±N`` or ``shift ±N``, ``>= D`` or ``difficulty D`` (a number or a preset), ``token NAME``."""
    from . import checks as _checks
    from .model import Character as _RetCharacter

    end = len(text) if end is None else end
    p = _Parser(text, start, end)
    p.ws()
    m = check_pattern().match(text, p.pos, end)
    if not m:
        p.error(
            'expected a parameter or ability name such as agility or skill "Lockpicking"',
            'ожидалось имя параметра или способности, например agility или skill "Взлом"',
        )
    word = m.group().lower()
    name_pos = p.pos
    p.pos = m.end()
    braced = word.startswith("{")
    if braced and name_key(word) not in {name_key(w) for w in ABILITY_WORDS} and check_names().id_of(word) is None:
        p.pos = name_pos
        p.error(
            f"unknown check {m.group()}: a parameter of the sheet, by its id or its name",
            f"неизвестная проверка {m.group()}: параметр листа — по коду или по названию",
        )
    if word in ABILITY_WORDS:
        kind = ABILITY_WORDS[word]
        p.ws()
        if p.eat(":"):
            p.ws()
        q = text[p.pos : p.pos + 1] if p.pos < end else ""
        closing = {'"': '"', "'": "'", "«": "»", "“": "”"}.get(q)
        if closing:
            close = text.find(closing, p.pos + 1, end)
            if close < 0:
                p.error(f"missing closing {closing} after the {kind} name", f"нет закрывающей {closing} после имени")
            name = text[p.pos + 1 : close].strip()
            p.pos = close + 1
        else:
            mm = re.compile(r"[^\s\"'«»+\-><=≥\[\]]+").match(text, p.pos, end)
            if not mm:
                p.error(
                    f"expected the {kind}'s name (in quotes when it has spaces)",
                    "ожидалось имя способности (в кавычках, если в нём есть пробелы)",
                )
            name = mm.group()
            p.pos = mm.end()
        if not name:
            p.error(f"the {kind} name is empty", "пустое имя способности")
        check_id = f"{kind}:{name}"
    else:
        check_id = check_names().id_of(word) or RU_NAMES.get(word, word)
    request: dict[str, Any] = {}
    bonuses = 0
    while True:
        p.ws()
        if p.pos >= end:
            break
        ch = text[p.pos]
        opt_pos = p.pos
        if ch in "+-":
            sign = 1 if ch == "+" else -1
            p.pos += 1
            n = p.number("a bonus", "бонус")
            tag = None
            if p.eat("["):
                close = text.find("]", p.pos, end)
                if close < 0:
                    p.error("missing ] after the bonus name", "нет ] после названия бонуса")
                tag = text[p.pos : close].strip().lower()
                p.pos = close + 1
            if tag in ("luck", "удача"):
                if sign < 0:
                    p.error("Luck cannot be negative", "Удача не может быть отрицательной", opt_pos)
                request["luck"] = request.get("luck", 0) + n
            else:
                bonuses += sign * n
            continue
        if p.peek_word("luck") or p.peek_word("удача"):
            p.pos += 4 if text[p.pos] in "lL" else 5
            request["luck"] = request.get("luck", 0) + p.number("the Luck declared", "заявленная Удача")
            continue
        if p.peek("dl") or p.peek_word("shift") or p.peek_word("сдвиг"):
            p.pos += 2 if text.startswith(("dl", "DL", "Dl", "dL"), p.pos) else 5
            p.ws()
            sign = 1
            if p.pos < end and text[p.pos] in "+-":
                sign = 1 if text[p.pos] == "+" else -1
                p.pos += 1
            request["shift"] = request.get("shift", 0) + sign * p.number("a die-level shift", "сдвиг уровня куба")
            continue
        if p.eat(">=") or p.eat("≥") or p.peek_word("difficulty") or p.peek_word("diff") or p.peek_word("сложность"):
            for w in ("difficulty", "diff", "сложность"):
                if p.peek_word(w):
                    p.pos += len(w)
                    break
            p.ws()
            tpos = p.pos
            neg = p.eat("-")
            p.ws()
            if p.pos < end and text[p.pos].isdigit():
                request["difficulty"] = (-1 if neg else 1) * p.number("a difficulty", "сложность")
            else:
                mm = re.compile(r"[A-Za-zА-Яа-яЁё_]+(?:[ _][A-Za-zА-Яа-яЁё]+)?").match(text, p.pos, end)
                dname = mm.group() if mm else ""
                # a two-word preset ("very high") only when it is one; else the first word
                try:
                    request["difficulty"] = resolve_difficulty(dname)
                    p.pos = mm.end()
                except Exception:
                    first = dname.split(" ")[0] if dname else ""
                    try:
                        request["difficulty"] = resolve_difficulty(first)
                        p.pos += len(first)
                    except Exception:
                        p.error(
                            "expected a difficulty: a number or a preset such as medium",
                            "ожидалась сложность: число или название, например medium",
                            tpos,
                        )
            continue
        if p.peek_word("token") or p.peek_word("токен"):
            p.pos += 5
            p.ws()
            mm = re.compile(r"\"([^\"]*)\"|([^\s]+)").match(text, p.pos, end)
            if not mm:
                p.error("expected the token's name", "ожидалось имя токена")
            request["token"] = mm.group(1) if mm.group(1) is not None else mm.group(2)
            p.pos = mm.end()
            continue
        p.error(
            f"unexpected {text[p.pos : end]!r}: expected luck N, +N, dl±N, >= difficulty or token NAME",
            f"неожиданное {text[p.pos : end]!r}: ожидалось luck N, +N, dl±N, >= сложность или token ИМЯ",
        )
    if bonuses:
        request["bonus"] = bonuses
    character = (variables or {}).get(CHARACTER_KEY) if variables is not None else None
    if character is None:
        raise DiceError(
            f"{check_id!r} is a character's check: bind a RET character first (%sheet hero, or roll from the tray)",
            name_pos,
            text,
            message_ru=f"{check_id!r} — проверка персонажа: сначала привяжите персонажа "
            "Р.Э.Т. (%sheet герой или бросок из лотка)",
        )
    if not isinstance(character, _RetCharacter):
        raise DiceError(
            f"the bound character is not a RET character: {check_id!r} is a RET check",
            name_pos,
            text,
            message_ru=f"привязанный персонаж не из Р.Э.Т.: {check_id!r} — проверка Р.Э.Т.",
        )
    kind, sep, ability = check_id.partition(":")
    if sep and character.ability(ability) is None:  # «взлом» for the sheet's «Взлом», ё/е alike
        same = [a for a in character.abilities if name_key(a.get("name", "")) == name_key(ability)]
        if len(same) == 1:
            check_id = f"{kind}:{same[0]['name']}"
    try:
        _checks.plan(character, check_id, request, options=options)
    except RuleError as exc:
        raise _rule_error(exc, name_pos, text) from None
    if request.get("luck", 0) > (character.luck or 0):
        raise DiceError(
            f"only {character.luck} Luck to declare",
            name_pos,
            text,
            message_ru=f"Удачи можно заявить не больше {character.luck}",
        )
    return CheckExpression(
        text=text[start:end].strip(), character=character, check_id=check_id, request=request, options=options
    )


def make_check_word(*, options: GmOptions) -> DiceWord:

    def _parse(text: str, start: int, end: int, variables=None) -> CheckExpression:
        return parse_check(text, start, end, variables=variables, options=options)

    return DiceWord(
        name="ret_check",
        system="ret",
        pattern=check_pattern(),
        parse=_parse,
        help=T(
            'RET check of the bound character: <parameter> | skill "Name" | talent "Name" '
            "[luck N] [+N] [dl±N] [>= difficulty] [token NAME]",
            "Проверка привязанного персонажа Р.Э.Т.: <параметр по названию: Ловкость, {Мелкая моторика}> | "
            'навык "Имя" | талант "Имя" [удача N] [+N] [dl±N] [>= сложность] [token ИМЯ]',
        ),
        examples=(
            "agility",
            "attention luck 2 >= 8",
            'skill "Lockpicking" luck 1',
            'talent "Hacking" difficulty high',
            "dodge +2[cover] dl-1",
        ),
    )


# ---------------------------------------------------------------------------------------------
# ``prob EXPR``: the exact-odds query of spec §5.15 (``%roll prob L5+3 >= 12``), the same as
# ``%roll --prob`` but as a word, so it works wherever notation is accepted
# ---------------------------------------------------------------------------------------------
def _fmt_p(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator} ≈ {float(p) * 100:.2f}%" if p not in (0, 1) else f"{int(p)}"


@dataclass
class ProbExpression:
    text: str
    inner_text: str
    inner: Any
    variables: Any = None

    def distribution(self) -> Distribution:
        from tabletop_widgets.dice.exact import distribution as _dist

        return _dist(self.inner, variables=self.variables)

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


def parse_prob(text: str, start: int = 0, end: int | None = None, *, variables=None) -> ProbExpression:
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
        inner = Parser(inner_text, variables).parse_line()
    except DiceError as exc:
        raise DiceError(
            exc.message, None if exc.position is None else exc.position + pos, text, message_ru=exc.message_ru
        ) from None
    if inner.repeat > 1:
        raise DiceError(
            "prob takes one roll, not a repetition", pos, text, message_ru="prob считает один бросок, без повторений"
        )
    return ProbExpression(text=text[start:end].strip(), inner_text=inner_text.strip(), inner=inner, variables=variables)


def make_prob_word() -> DiceWord:
    def _parse(text: str, start: int, end: int, variables=None) -> ProbExpression:
        return parse_prob(text, start, end, variables=variables)

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
