"""What the ``%roll`` forms of this system share: the words for characteristics and attacks, a scanner
over the user's text with absolute positions, errors that point into that text, the bound character
and the dressing of a check result as a roll."""

from __future__ import annotations

import re

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.dice.errors import DiceError
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import WordContext
from tabletop_widgets.dice.results import RollResult

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


#: no bound character and no ``@name`` values (a form parsed on its own)
NO_CONTEXT = WordContext()


def bound_character(context: WordContext, what: str, pos: int, text: str):
    """The Threads of Fate character the roll is bound to (``%sheet`` or the dice tray), or a clear error."""
    ch = context.character
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


def options_of(ch, *, options):
    """A bound Threads of Fate character's own GM options (its campaign's) win over the options the words
    were made with; a character of another system (or none) leaves those."""
    return ch.rules if getattr(ch, "SYSTEM", None) == "threads_of_fate" else options


def open_bound_form(text: str, start: int, end: int | None, pattern, context: WordContext, what: str, *, options):
    """Start reading a form of the bound character: (a scanner past the form's word, the character, the
    GM options in force: the character's own)."""
    sc = Scanner(text, start, end)
    sc.take(pattern)
    ch = bound_character(context, what, start, text)
    return sc, ch, options_of(ch, options=options)


def check_modifiers(sc: Scanner, allow_bonus: bool = True) -> tuple[int, int, int]:
    """``+N -N advN hinN disN`` in any order; returns (bonus, advantages, hindrances)."""
    bonus = adv = hin = 0
    while True:
        m = sc.take(MOD) if allow_bonus else None
        if m:
            bonus += int(m.group(2)) * (1 if m.group(1) == "+" else -1)
            continue
        m = sc.take(ADV)
        if m:
            n = int(m.group(2)) if m.group(2) else 1
            if m.group(1).lower() in ("adv", "пр"):
                adv += n
            else:
                hin += n
            continue
        return bonus, adv, hin


def signed_number(sc: Scanner, what_en: str, what_ru: str) -> int:
    """A whole number, possibly negative (up to 4 digits)."""
    m = sc.take(INT)
    if not m:
        raise sc.error(T(f"expected {what_en}", f"ожидалось: {what_ru}"))
    return int(m.group())


def difficulty(sc: Scanner, required: bool) -> int | None:
    """``vs N`` (``dc``, ``>=``, ``сл``): the difficulty, or None when it may be left out."""
    if sc.take(VS):
        return signed_number(sc, "a difficulty (a number)", "сложность (число)")
    if required:
        raise sc.error(T("expected vs N (the difficulty)", "ожидалось vs N (сложность)"))
    return None


def finish(sc: Scanner, expected_en: str, expected_ru: str) -> None:
    """Nothing but spaces may be left."""
    if not sc.at_end():
        raise sc.error(T(f"unexpected text: expected {expected_en}", f"лишний текст: ожидалось {expected_ru}"))


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
