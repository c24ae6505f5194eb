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

Two more words of the system (spec §5.15) live in their own modules:

* ``ret_check`` (:mod:`.check_word`) — the bound character's named checks: ``agility``,
  ``attention luck 2 >= 8``, ``skill "Lockpicking" luck 1``.
* ``prob`` (:mod:`.prob_word`) — exact odds instead of a roll: ``prob L5+3 >= 8``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from tabletop_widgets.core import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.dice import DiceWord, Distribution
from tabletop_widgets.dice.results import Check
from tabletop_widgets.dice.scan import Scanner

from .checks import (
    Divider,
    apply_divider,
    contest,
    divider_presets,
    level_dice,
    resolve_difficulty,
    roll_result_for,
    score_distribution,
    total_distribution,
)
from .level import MAX_LEVEL, level_roll, roll_outcomes

PATTERN = re.compile(r"L\d")
MAX_DEFENCES = 10
MAX_NUMBER = 10_000
_DIGITS = re.compile(r"\d+")
#: a bonus labelled so, or the keyword, declares Luck
LUCK_TAGS = ("luck", "удача")


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


def _number(sc: Scanner, en: str, ru: str) -> int:
    return sc.number(T(en, ru), maximum=MAX_NUMBER)


def bonus_tag(sc: Scanner) -> str | None:
    """The ``[name]`` after a bonus (``+2[cover]``), or None."""
    if not sc.take(r"\["):
        return None
    tag_start = sc.pos
    close = sc.text.find("]", sc.pos, sc.end)
    if close < 0:
        raise sc.error(T("missing ] after the bonus name", "нет ] после названия бонуса"), tag_start - 1)
    sc.pos = close + 1
    return sc.text[tag_start:close].strip()


def _level(sc: Scanner) -> int:
    """``L`` and a level 0..8, no space between."""
    if not sc.peek(r"[Ll]"):
        raise sc.error(T("expected a level roll like L5", "ожидался бросок уровня вида L5"))
    sc.pos += 1
    m = _DIGITS.match(sc.text, sc.pos, sc.end)
    if not m:
        raise sc.error(T("expected a level 0..8 after L", "после L ожидался уровень 0..8"))
    lv = int(m.group())
    if lv > MAX_LEVEL:
        raise sc.error(T(f"level {lv} is out of range: levels are 0..8", f"уровень {lv} вне диапазона 0..8"))
    sc.pos = m.end()
    return lv


def _side(sc: Scanner) -> Side:
    """One level roll with its bonuses, declared Luck and die-level shift."""
    sc.skip_space()
    begin = sc.pos
    side = Side(level=_level(sc))
    while not sc.at_end():
        opt_pos = sc.pos
        sign = sc.take(r"[+-](?!>)")
        if sign:
            n = _number(sc, "a bonus", "бонус")
            tag = bonus_tag(sc)
            if tag and tag.lower() in LUCK_TAGS:
                if sign.group() == "-":
                    raise sc.error(T("Luck cannot be negative", "Удача не может быть отрицательной"))
                side.luck += n
            else:
                side.bonus += (1 if sign.group() == "+" else -1) * n
                side.bonuses.append((tag or "bonus", (1 if sign.group() == "+" else -1) * n))
        elif sc.keyword(*LUCK_TAGS):
            side.luck += _number(sc, "the Luck declared", "заявленная Удача")
        elif sc.take(r"dl"):
            shift_sign = sc.take(r"[+-]")
            if not shift_sign:
                raise sc.error(T("expected + or - after dl (a die-level shift)", "после dl ожидался + или -"))
            n = _number(sc, "a die-level shift", "сдвиг уровня куба")
            side.shift += n if shift_sign.group() == "+" else -n
        else:
            sc.pos = opt_pos
            break
    side.text = sc.text[begin : sc.pos].strip()
    return side


def parse(text: str, start: int = 0, end: int | None = None, *, options: GmOptions) -> "LevelExpression":
    sc = Scanner(text, start, end)
    expr = LevelExpression(text=text[start : sc.end].strip(), attacker=_side(sc), options=options)
    if sc.keyword("vs"):
        expr.defender = _side(sc)
        if sc.take(r"x(?=\s*\d)"):
            npos = sc.pos
            n = _number(sc, "the number of defences", "число защит")
            if not 1 <= n <= MAX_DEFENCES:
                raise sc.error(T(f"between 1 and {MAX_DEFENCES} defences", f"защит — от 1 до {MAX_DEFENCES}"), npos)
            expr.defences = n
    else:
        if sc.take(r">=|≥"):
            expr.target = _target(sc)
        expr.divider = _divider(sc)
    if not sc.at_end():
        rest = sc.text[sc.pos : sc.end]
        raise sc.error(T(f"unexpected {rest!r}", f"неожиданное {rest!r}"))
    return expr


def _target(sc: Scanner) -> int:
    """A difficulty after ``>=``: a number (negative allowed) or a preset name."""
    tpos, number = difficulty_number(sc)
    if number is not None:
        return number
    name = _name(sc)
    if not name:
        raise sc.error(
            T(
                "expected a difficulty: a number or a preset such as medium",
                "ожидалась сложность: число или название, например medium",
            ),
            tpos,
        )
    try:
        return resolve_difficulty(name)
    except Exception:
        raise sc.error(T(f"unknown difficulty {name!r}", f"неизвестная сложность {name!r}"), tpos) from None


def difficulty_number(sc: Scanner) -> tuple[int, int | None]:
    """Where a difficulty starts, and its number (a minus sign allowed), or None when a preset's
    name follows instead."""
    sc.skip_space()
    start = sc.pos
    neg = sc.take(r"-")
    if not sc.peek(r"\d"):
        return start, None
    return start, (-1 if neg else 1) * _number(sc, "a difficulty", "сложность")


def _name(sc: Scanner) -> str | None:
    """A preset name: words up to the next operator or the end."""
    m = sc.take(r"[A-Za-zА-Яа-яЁё_][A-Za-zА-Яа-яЁё_ ]*?(?=\s*(?:$|//|/|>=|≥|\+|-|vs\b|x\d|\[|\]))")
    return m.group().strip() if m else None


def _divider(sc: Scanner) -> Divider | None:
    """``// D [+ base]`` or ``/preset``, or None."""
    if sc.take(r"//"):
        sc.skip_space()
        dpos = sc.pos
        d = _number(sc, "the divider", "делитель")
        if d < 1:
            raise sc.error(T("the divider must be at least 1", "делитель должен быть не меньше 1"), dpos)
        base = _number(sc, "the divider base", "основа делителя") if sc.take(r"\+") else 0
        return Divider(d, base)
    if sc.take(r"/"):
        ppos = sc.pos
        name = (_name(sc) or "").lower()
        presets = divider_presets()
        if name not in presets:
            raise sc.error(
                T(
                    "expected a divider preset: strict, normal or generous",
                    "ожидался делитель: strict, normal или generous",
                ),
                ppos,
            )
        return presets[name]
    return None


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


__all__ = ["PATTERN", "LevelExpression", "Side", "parse", "make_word", "bonus_tag", "difficulty_number"]
