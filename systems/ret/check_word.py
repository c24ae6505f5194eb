"""The ``ret_check`` word (spec §5.15): the bound character's named checks — ``agility``,
``attention luck 2 >= 8``, ``skill "Lockpicking" luck 1``, ``talent Hacking difficulty high dl-1``,
``dodge +2[cover]``, ``ловкость +1`` — rolled by the system's own check rules (condition
penalties, tokens; Luck and Sanity effects shown, not applied). The character comes from the
word's context (``%sheet``, or the tray)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.names import NameIndex, name_key
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.dice import DiceError, DiceWord, Distribution
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import WordContext

from . import checks
from .checks import resolve_difficulty
from .model import Character
from .options import DEFAULTS
from .params import LABELS, TREE_ORDER
from .words import LUCK_TAGS, MAX_NUMBER, bonus_tag, difficulty_number

#: the named checks a bound character rolls by its code id
NAMED_CHECKS = tuple(TREE_ORDER) + (
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
RU_NAMES = {lab["ru"].lower(): pid for pid, lab in LABELS.items() if " " not in lab["ru"]}
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
    # the names of the fixed checks (abilities excluded) do not depend on the GM's options
    fixed = checks.catalogue(Character(), options=DEFAULTS)
    labels = {c.id: c.label for c in fixed if ":" not in c.id}
    labels.update({pid: lab for pid, lab in LABELS.items()})
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
        rng = rng if rng is not None else random.Random()
        try:
            res = checks.roll(self.character, self.check_id, self.request, options=self.options, rng=rng)
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
        try:
            d = checks.distribution(self.character, self.check_id, self.request, options=self.options)
        except RuleError as exc:
            raise _rule_error(exc, None, self.text) from None
        d.expression = self.text
        return d


def parse_check(
    text: str, start: int = 0, end: int | None = None, *, context: WordContext, options: GmOptions
) -> CheckExpression:
    """``agility``, ``attention luck 2 >= 8``, ``skill "Lockpicking" luck 1``,
    ``talent Hacking difficulty high dl-1``, ``dodge +2[cover]`` — the bound character's check.

    Options: ``luck N``, ``+N`` / ``-N`` (``[name]`` labels it; ``[luck]`` declares Luck),
    ``dl±N`` or ``shift ±N``, ``>= D`` or ``difficulty D`` (a number or a preset), ``token NAME``."""
    sc = Scanner(text, start, end)
    sc.skip_space()
    name_pos = sc.pos
    check_id = _check_id(sc)
    request = _request(sc)
    character = _bound_character(context, check_id, name_pos, text)
    kind, sep, ability = check_id.partition(":")
    if sep and character.ability(ability) is None:  # «взлом» for the sheet's «Взлом», ё/е alike
        same = [a for a in character.abilities if name_key(a.get("name", "")) == name_key(ability)]
        if len(same) == 1:
            check_id = f"{kind}:{same[0]['name']}"
    try:
        checks.plan(character, check_id, request, options=options)
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
        text=text[start : sc.end].strip(), character=character, check_id=check_id, request=request, options=options
    )


def _check_id(sc: Scanner) -> str:
    """The check's name: a parameter or a fixed check by id or the book's name, or an ability
    word and the ability's name (``skill "Safe Cracking"``)."""
    name_pos = sc.pos
    m = sc.take(check_pattern())
    if not m:
        raise sc.error(
            T(
                'expected a parameter or ability name such as agility or skill "Lockpicking"',
                'ожидалось имя параметра или способности, например agility или skill "Взлом"',
            )
        )
    word = m.group().lower()
    if word.startswith("{") and name_key(word) not in {name_key(w) for w in ABILITY_WORDS}:
        if check_names().id_of(word) is None:
            raise sc.error(
                T(
                    f"unknown check {m.group()}: a parameter of the sheet, by its id or its name",
                    f"неизвестная проверка {m.group()}: параметр листа — по коду или по названию",
                ),
                name_pos,
            )
    if word not in ABILITY_WORDS:
        return check_names().id_of(word) or RU_NAMES.get(word, word)
    kind = ABILITY_WORDS[word]
    sc.take(r":")
    return f"{kind}:{_ability_name(sc, kind)}"


#: the quotes an ability's name may be written in
QUOTES = {'"': '"', "'": "'", "«": "»", "“": "”"}


def _ability_name(sc: Scanner, kind: str) -> str:
    """An ability's name: in quotes (any of :data:`QUOTES`) or a bare word."""
    sc.skip_space()
    closing = QUOTES.get(sc.text[sc.pos : sc.pos + 1]) if sc.pos < sc.end else None
    if closing:
        close = sc.text.find(closing, sc.pos + 1, sc.end)
        if close < 0:
            raise sc.error(
                T(f"missing closing {closing} after the {kind} name", f"нет закрывающей {closing} после имени")
            )
        name = sc.text[sc.pos + 1 : close].strip()
        sc.pos = close + 1
    else:
        mm = sc.take(r"[^\s\"'«»+\-><=≥\[\]]+")
        if not mm:
            raise sc.error(
                T(
                    f"expected the {kind}'s name (in quotes when it has spaces)",
                    "ожидалось имя способности (в кавычках, если в нём есть пробелы)",
                )
            )
        name = mm.group()
    if not name:
        raise sc.error(T(f"the {kind} name is empty", "пустое имя способности"))
    return name


def _request(sc: Scanner) -> dict[str, Any]:
    """What the player asks with the check: Luck, bonuses, a die-level shift, a difficulty, a
    token."""
    request: dict[str, Any] = {}
    bonuses = 0
    while not sc.at_end():
        opt_pos = sc.pos
        sign = sc.take(r"[+-]")
        if sign:
            n = sc.number(T("a bonus", "бонус"), maximum=MAX_NUMBER)
            tag = bonus_tag(sc)
            if tag and tag.lower() in LUCK_TAGS:
                if sign.group() == "-":
                    raise sc.error(T("Luck cannot be negative", "Удача не может быть отрицательной"), opt_pos)
                request["luck"] = request.get("luck", 0) + n
            else:
                bonuses += n if sign.group() == "+" else -n
        elif sc.keyword(*LUCK_TAGS):
            request["luck"] = request.get("luck", 0) + sc.number(
                T("the Luck declared", "заявленная Удача"), maximum=MAX_NUMBER
            )
        elif sc.take(r"dl") or sc.keyword("shift", "сдвиг"):
            shift_sign = sc.take(r"[+-]")
            n = sc.number(T("a die-level shift", "сдвиг уровня куба"), maximum=MAX_NUMBER)
            request["shift"] = request.get("shift", 0) + (-n if shift_sign and shift_sign.group() == "-" else n)
        elif sc.take(r">=|≥") or sc.keyword("difficulty", "diff", "сложность"):
            request["difficulty"] = _difficulty(sc)
        elif sc.keyword("token", "токен"):
            mm = sc.take(r"\"([^\"]*)\"|([^\s]+)")
            if not mm:
                raise sc.error(T("expected the token's name", "ожидалось имя токена"))
            request["token"] = mm.group(1) if mm.group(1) is not None else mm.group(2)
        else:
            rest = sc.text[sc.pos : sc.end]
            raise sc.error(
                T(
                    f"unexpected {rest!r}: expected luck N, +N, dl±N, >= difficulty or token NAME",
                    f"неожиданное {rest!r}: ожидалось luck N, +N, dl±N, >= сложность или token ИМЯ",
                )
            )
    if bonuses:
        request["bonus"] = bonuses
    return request


def _difficulty(sc: Scanner) -> int:
    """A difficulty: a number (negative allowed) or a preset, of one or two words ("very high")."""
    tpos, number = difficulty_number(sc)
    if number is not None:
        return number
    mm = sc.peek(r"[A-Za-zА-Яа-яЁё_]+(?:[ _][A-Za-zА-Яа-яЁё]+)?")
    dname = mm.group() if mm else ""
    # a two-word preset ("very high") only when it is one; else the first word
    for candidate in (dname, dname.split(" ")[0] if dname else ""):
        try:
            value = resolve_difficulty(candidate)
        except Exception:
            continue
        if value is not None:
            sc.pos += len(candidate)
            return value
    raise sc.error(
        T(
            "expected a difficulty: a number or a preset such as medium",
            "ожидалась сложность: число или название, например medium",
        ),
        tpos,
    )


def _bound_character(context: WordContext, check_id: str, name_pos: int, text: str) -> Character:
    """The RET character the check is rolled for (the word's context), or a clear error."""
    character = context.character
    if character is None:
        raise DiceError(
            f"{check_id!r} is a character's check: bind a RET character first (%sheet hero, or roll from the tray)",
            name_pos,
            text,
            message_ru=f"{check_id!r} — проверка персонажа: сначала привяжите персонажа "
            "Р.Э.Т. (%sheet герой или бросок из лотка)",
        )
    if not isinstance(character, Character):
        raise DiceError(
            f"the bound character is not a RET character: {check_id!r} is a RET check",
            name_pos,
            text,
            message_ru=f"привязанный персонаж не из Р.Э.Т.: {check_id!r} — проверка Р.Э.Т.",
        )
    return character


def make_check_word(*, options: GmOptions) -> DiceWord:

    def _parse(text: str, start: int, end: int, context: WordContext) -> CheckExpression:
        return parse_check(text, start, end, context=context, options=options)

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
