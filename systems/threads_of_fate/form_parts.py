"""What the ``%roll`` forms of this system share: the words for characteristics and attacks, a scanner
over the user's text with absolute positions, errors that point into that text, the bound character
and the dressing of a check result as a roll."""

from __future__ import annotations

import re
from typing import Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.dice.errors import DiceError
from tabletop_widgets.dice.results import RollResult
from tabletop_widgets.dice.words import CHARACTER_KEY

from .traits import CHARACTERISTICS


CHAR_WORDS = {
    "str": "strength",
    "dex": "dexterity",
    "con": "constitution",
    "int": "intelligence",
    "wis": "wisdom",
    "cha": "charm",
    "сл": "strength",
    "лв": "dexterity",
    "вн": "constitution",
    "ин": "intelligence",
    "мд": "wisdom",
    "об": "charm",
    **{c: c for c in CHARACTERISTICS},
}
ATTACK_WORDS = {
    "val": "valor",
    "valu": "valor_unarmed",
    "mrk": "marksmanship",
    "дб": "valor",
    "мт": "marksmanship",
    "valor": "valor",
    "valor_unarmed": "valor_unarmed",
    "marksmanship": "marksmanship",
}

WS = re.compile(r"\s*")
TOKEN = re.compile(r"[A-Za-zА-Яа-яЁё_][A-Za-zА-Яа-яЁё_0-9+]*")
INT = re.compile(r"-?\d{1,4}(?![0-9])")
MOD = re.compile(r"([+-])\s*(\d{1,4})(?![0-9])")
ADV = re.compile(r"(adv|hin|dis|пр|пом)(\d{0,2})(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)
VS = re.compile(r"(vs|dc|>=|сл)(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)
DUR = re.compile(r"(dur|пр[чк])(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)


def dice_error(en: str, ru: str, pos: int, text: str) -> DiceError:
    return DiceError(en, pos, text, message_ru=ru)


def rule_dice_error(exc: RuleError, pos: int, text: str) -> DiceError:
    return DiceError(exc.message.get("en", str(exc)), pos, text, message_ru=exc.message.get("ru"))


def bound_character(variables, what: str, pos: int, text: str):
    ch = (variables or {}).get(CHARACTER_KEY) if isinstance(variables, Mapping) else None
    if ch is None:
        raise dice_error(
            f"{what} needs a bound character: bind one with %sheet or roll from the dice tray",
            f"для {what} нужен привязанный персонаж: привяжите его через %sheet или бросайте из лотка кубиков",
            pos,
            text,
        )
    if getattr(ch, "SYSTEM", None) != "threads_of_fate":
        raise dice_error(
            f"{what}: the bound character is not a Threads of Fate character",
            f"{what}: привязанный персонаж не из «Нитей судьбы»",
            pos,
            text,
        )
    return ch


def rules_of(ch, rules):
    return getattr(ch, "rules", None) if ch is not None else rules


class FormScanner:
    """A tiny scanner over ``text[pos:end]`` with absolute positions."""

    def __init__(self, text: str, pos: int, end: int):
        self.text, self.pos, self.end = text, pos, end

    def ws(self) -> None:
        self.pos = WS.match(self.text, self.pos, self.end).end()

    def at_end(self) -> bool:
        self.ws()
        return self.pos >= self.end

    def match(self, regex):
        self.ws()
        m = regex.match(self.text, self.pos, self.end)
        if m:
            self.pos = m.end()
        return m

    def options(self, allow_bonus: bool = True) -> tuple[int, int, int]:
        """``+N -N advN hinN disN`` in any order; returns (bonus, advantages, hindrances)."""
        bonus = adv = hin = 0
        while True:
            m = self.match(MOD) if allow_bonus else None
            if m:
                bonus += int(m.group(2)) * (1 if m.group(1) == "+" else -1)
                continue
            m = self.match(ADV)
            if m:
                n = int(m.group(2)) if m.group(2) else 1
                if m.group(1).lower() in ("adv", "пр"):
                    adv += n
                else:
                    hin += n
                continue
            return bonus, adv, hin

    def number(self, what_en: str, what_ru: str) -> int:
        m = self.match(INT)
        if not m:
            raise dice_error(f"expected {what_en}", f"ожидалось: {what_ru}", self.pos, self.text)
        return int(m.group())

    def target(self, required: bool) -> int | None:
        if self.match(VS):
            return self.number("a difficulty (a number)", "сложность (число)")
        if required:
            raise dice_error("expected vs N (the difficulty)", "ожидалось vs N (сложность)", self.pos, self.text)
        return None

    def done(self, expected_en: str, expected_ru: str) -> None:
        if not self.at_end():
            raise dice_error(
                f"unexpected text: expected {expected_en}",
                f"лишний текст: ожидалось {expected_ru}",
                self.pos,
                self.text,
            )


def check_roll_result(res, text: str, extra_notes=()) -> RollResult:
    rr = res.roll
    rr.expression = text
    rr.notes = (
        [T(f"{res.label['en']}: {res.outcome.get('en', '')}", f"{res.label['ru']}: {res.outcome.get('ru', '')}")]
        + list(extra_notes)
        + list(rr.notes or [])
    )
    if rr.tree is not None and hasattr(rr.tree, "details"):
        rr.tree.details.update(
            {
                "check_id": res.check_id,
                "success": res.success,
                "margin": res.margin,
                **{k: v for k, v in res.details.items() if k in ("damage", "raw_damage", "kept")},
            }
        )
    return rr
