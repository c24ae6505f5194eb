"""The ``%roll`` forms of spec §5.16 beyond ``t20`` and ``trouble``.

Character-bound (the character comes from ``variables[CHARACTER_KEY]``, bound by ``%sheet`` or the dice
tray; without one the parser raises a clear ``DiceError``):

* ``static perception WIS``, ``static perception adv vs 16`` — the static value (no roll, L111, §5.6)
* ``check dexterity+stealth adv vs 15`` — any named check of §5.17 (re-rollable)
* ``defcheck vs 20`` — hazard Defense check, Damage = shortfall (L354-357)
* ``attack VAL vs 18 dur 2`` (``VAL``, ``VALU``, ``MRK``) — Damage = margin - Durability, nat 20 >= 1 (L351, L114)
* ``reroll`` — re-roll the bound hero's last check for 1 Thread, at most twice (Move M3, L187)

Standalone (no character needed):

* ``attack 7 vs 18 dur 2`` — a numeric rating
* ``d20+8 vs d20+6`` / ``t20+8 adv vs t20+6`` — a Contest: strictly higher wins, a tie is the status quo (L150-151)
* ``dist t20+5 adv vs 15`` (``d20`` is read as ``t20`` here) and ``dist`` before any form above — exact odds

Rules: a bound character's own rules (``Character.rules``: the campaign's GM options) win over the
rules of the system the words were registered from.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.names import NameIndex, name_key
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.errors import DiceError
from tabletop_widgets.dice.results import Check, RollResult
from tabletop_widgets.dice.words import CHARACTER_KEY, DiceWord, word_result

from . import checks, combat, fate
from .kept_die import dice_objects
from .options import rule
from .plan import net_of
from .traits import CHARACTERISTICS, CHAR_LABELS, SECONDARY_LABELS, SKILLS, signed

#: the last check rolled for each character (by ``SYSTEM.roll_check`` or a word), for ``reroll``
_LAST: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def remember(character, result) -> None:
    try:
        _LAST[character] = result
    except TypeError:  # not weak-referenceable: nothing to remember
        pass


def last_check(character):
    try:
        return _LAST.get(character)
    except TypeError:
        return None


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

_WS = re.compile(r"\s*")
_TOKEN = re.compile(r"[A-Za-zА-Яа-яЁё_][A-Za-zА-Яа-яЁё_0-9+]*")
_INT = re.compile(r"-?\d{1,4}(?![0-9])")
_MOD = re.compile(r"([+-])\s*(\d{1,4})(?![0-9])")
_ADV = re.compile(r"(adv|hin|dis|пр|пом)(\d{0,2})(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)
_VS = re.compile(r"(vs|dc|>=|сл)(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)
_DUR = re.compile(r"(dur|пр[чк])(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)


def _err(en: str, ru: str, pos: int, text: str) -> DiceError:
    return DiceError(en, pos, text, message_ru=ru)


def _rule_error(exc: RuleError, pos: int, text: str) -> DiceError:
    return DiceError(exc.message.get("en", str(exc)), pos, text, message_ru=exc.message.get("ru"))


def _bound(variables, what: str, pos: int, text: str):
    ch = (variables or {}).get(CHARACTER_KEY) if isinstance(variables, Mapping) else None
    if ch is None:
        raise _err(
            f"{what} needs a bound character: bind one with %sheet or roll from the dice tray",
            f"для {what} нужен привязанный персонаж: привяжите его через %sheet или бросайте из лотка кубиков",
            pos,
            text,
        )
    if getattr(ch, "SYSTEM", None) != "threads_of_fate":
        raise _err(
            f"{what}: the bound character is not a Threads of Fate character",
            f"{what}: привязанный персонаж не из «Нитей судьбы»",
            pos,
            text,
        )
    return ch


def _rules_of(ch, rules):
    return getattr(ch, "rules", None) if ch is not None else rules


class _Scan:
    """A tiny scanner over ``text[pos:end]`` with absolute positions."""

    def __init__(self, text: str, pos: int, end: int):
        self.text, self.pos, self.end = text, pos, end

    def ws(self) -> None:
        self.pos = _WS.match(self.text, self.pos, self.end).end()

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
            m = self.match(_MOD) if allow_bonus else None
            if m:
                bonus += int(m.group(2)) * (1 if m.group(1) == "+" else -1)
                continue
            m = self.match(_ADV)
            if m:
                n = int(m.group(2)) if m.group(2) else 1
                if m.group(1).lower() in ("adv", "пр"):
                    adv += n
                else:
                    hin += n
                continue
            return bonus, adv, hin

    def number(self, what_en: str, what_ru: str) -> int:
        m = self.match(_INT)
        if not m:
            raise _err(f"expected {what_en}", f"ожидалось: {what_ru}", self.pos, self.text)
        return int(m.group())

    def target(self, required: bool) -> int | None:
        if self.match(_VS):
            return self.number("a difficulty (a number)", "сложность (число)")
        if required:
            raise _err("expected vs N (the difficulty)", "ожидалось vs N (сложность)", self.pos, self.text)
        return None

    def done(self, expected_en: str, expected_ru: str) -> None:
        if not self.at_end():
            raise _err(
                f"unexpected text: expected {expected_en}",
                f"лишний текст: ожидалось {expected_ru}",
                self.pos,
                self.text,
            )


def _check_rollresult(res, text: str, extra_notes=()) -> RollResult:
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


# ------------------------------------------------------------------------------------------------
# check / static
# ------------------------------------------------------------------------------------------------
@dataclass
class CheckForm:
    """A named check of the bound character (``check``) or its static value (``static``)."""

    text: str
    character: Any
    check_id: str
    options: dict
    static: bool = False
    has_target: bool = True
    rules: Mapping[str, Any] | None = None

    def roll(self, rng) -> RollResult:
        try:
            res = checks.roll_check(self.character, self.check_id, rng=rng, rules=self.rules, **self.options)
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        if not self.static:
            remember(self.character, res)
        rr = _check_rollresult(res, self.text)
        if not self.has_target:
            rr.check = None
            rr.notes = [
                T(f"{res.label['en']}: static value {res.total}", f"{res.label['ru']}: статичное значение {res.total}")
            ]
        return rr

    def distribution(self) -> Distribution:
        try:
            d = checks.check_distribution(self.character, self.check_id, rules=self.rules, **self.options)
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        if not self.has_target:
            d = Distribution(dict(d), expression=self.text, outcome="total")
        d.expression = self.text
        return d


def _skill_code(ch, token: str) -> str | None:
    """A skill by its code or its name in either language (any case, «ё» or «е», braces)."""
    t = name_key(token)
    if t.replace(" ", "_") in SKILLS:
        return t.replace(" ", "_")
    for code, (en, ru, _) in SKILLS.items():
        if t in (name_key(en), name_key(ru)):
            return code
    for s in ch.custom_skills:
        if t in (name_key(s.get("code", "")), name_key(s.get("en", "")), name_key(s.get("ru", ""))):
            return s["code"]
    return None


#: characteristics and secondary values by id or the book's name
_CHAR_NAMES = NameIndex({**CHAR_LABELS, **SECONDARY_LABELS})
#: a named check as a player writes it: ``dexterity+stealth``, ``Ловкость+Скрытность``,
#: ``{Ловкость}+{Ловкость рук}``, ``сила``
_NAME_PART = r"(?:\{[^{}]{1,80}\}|[A-Za-zА-Яа-яЁё_][A-Za-zА-Яа-яЁё_0-9]*)"
_ONE_NAME = re.compile(_NAME_PART)
_CHECK_NAME = re.compile(_NAME_PART + r"(?:\s*\+\s*" + _NAME_PART + r")?")


def _check_id_of(ch, written: str) -> str:
    """The check id for what a player wrote: each side of ``+`` by its id or the book's name."""
    parts = [p.strip() for p in written.split("+")]
    ids = []
    for p in parts:
        ids.append(_CHAR_NAMES.id_of(p) or _skill_code(ch, p) or name_key(p).replace(" ", "_"))
    return "+".join(ids)


def _best_characteristic(ch, skill: str) -> str:
    """The usual characteristic with the highest modifier (ties: the first listed, §3.6)."""
    usual = (
        SKILLS[skill][2]
        if skill in SKILLS
        else next((tuple(s.get("characteristics") or ()) for s in ch.custom_skills if s.get("code") == skill), ())
    )
    usual = usual or ("intelligence",)
    return max(usual, key=lambda c: (getattr(ch, c + "_mod"), -usual.index(c)))


STATIC_PATTERN = re.compile(r"(static|статично)(?![\w])", re.IGNORECASE)
CHECK_PATTERN = re.compile(r"(check|проверка)(?![\w])", re.IGNORECASE)


def parse_static(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> CheckForm:
    """``static <skill> [STR|DEX|...] [advN] [hinN] [vs N]`` (L111: 10 + skill + modifier, ±5)."""
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(STATIC_PATTERN)
    ch = _bound(variables, "static", start, text)
    rules = _rules_of(ch, rules)
    m = sc.match(_ONE_NAME)
    skill = _skill_code(ch, m.group()) if m else None
    if skill is None:
        raise _err(
            "expected a skill code such as perception or stealth",
            "ожидался код Навыка, например perception",
            m.start() if m else sc.pos,
            text,
        )
    char = None
    mc = _TOKEN.match(text, _WS.match(text, sc.pos, end).end(), end)
    if mc and mc.group().lower() in CHAR_WORDS:
        char = CHAR_WORDS[mc.group().lower()]
        sc.pos = mc.end()
    char = char or _best_characteristic(ch, skill)
    bonus, adv, hin = sc.options()
    target = sc.target(required=False)
    sc.done("STR/DEX/..., +N, advN, hinN or vs N", "Сл/Лв/..., +N, advN, hinN или vs N")
    check_id = f"{char}+{skill}"
    try:
        plan = checks.plan_check(ch, check_id, rules)
    except RuleError as exc:
        raise _rule_error(exc, start, text) from None
    opts = {"advantages": adv, "hindrances": hin, "bonus": bonus, "difficulty": target if target is not None else 0}
    if plan.kind == "skill":
        opts["static"] = True
    return CheckForm(
        text[start:end].strip(), ch, check_id, opts, static=True, has_target=target is not None, rules=rules
    )


def parse_check(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> CheckForm:
    """``check <check id> [+N] [advN] [hinN] [vs N]``: any check id of §5.17 for the bound character."""
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(CHECK_PATTERN)
    ch = _bound(variables, "check", start, text)
    rules = _rules_of(ch, rules)
    m = sc.match(_CHECK_NAME)
    if not m:
        raise _err(
            "expected a check such as dexterity+stealth or Ловкость+Скрытность",
            "ожидалась проверка, например Ловкость+Скрытность или dexterity+stealth",
            sc.pos,
            text,
        )
    check_id = _check_id_of(ch, m.group())
    try:
        checks.plan_check(ch, check_id, rules)
    except RuleError as exc:
        raise _rule_error(exc, m.start(), text) from None
    bonus, adv, hin = sc.options()
    target = sc.target(required=False)
    sc.done("+N, advN, hinN or vs N", "+N, advN, hinN или vs N")
    opts = {"advantages": adv, "hindrances": hin, "bonus": bonus, "difficulty": target if target is not None else 10}
    return CheckForm(text[start:end].strip(), ch, check_id, opts, has_target=True, rules=rules)


# ------------------------------------------------------------------------------------------------
# defcheck
# ------------------------------------------------------------------------------------------------
DEFCHECK_PATTERN = re.compile(r"defcheck(?![\w])", re.IGNORECASE)


@dataclass
class DefCheckForm:
    text: str
    character: Any
    difficulty: int
    options: dict
    rules: Mapping[str, Any] | None = None

    def roll(self, rng) -> RollResult:
        try:
            res = combat.defense_check(self.character, self.difficulty, rng=rng, rules=self.rules, **self.options)
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        remember(self.character, res)
        dmg = res.details["damage"]
        return _check_rollresult(res, self.text, [T(f"Damage {dmg}", f"Повреждения {dmg}")])

    def distribution(self) -> Distribution:
        try:
            d = checks.check_distribution(
                self.character, "defense_check", rules=self.rules, difficulty=self.difficulty, **self.options
            )
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        d.expression = self.text
        return d


def parse_defcheck(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> DefCheckForm:
    """``defcheck [+N] [advN] [hinN] vs DC``: d20 + (DEF - BDEF) vs DC; Damage = max(0, DC - total) (L355-356)."""
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(DEFCHECK_PATTERN)
    ch = _bound(variables, "defcheck", start, text)
    rules = _rules_of(ch, rules)
    bonus, adv, hin = sc.options()
    target = sc.target(required=True)
    sc.done("nothing after the difficulty", "ничего после сложности")
    if ch.defense is None:
        raise _err(
            "the bound character's Defense needs GM-entered size values",
            "для Защиты персонажа мастер должен ввести значения размера",
            start,
            text,
        )
    return DefCheckForm(
        text[start:end].strip(), ch, target, {"advantages": adv, "hindrances": hin, "bonus": bonus}, rules
    )


# ------------------------------------------------------------------------------------------------
# attack
# ------------------------------------------------------------------------------------------------
ATTACK_PATTERN = re.compile(r"(attack|атака)(?![\w])", re.IGNORECASE)


@dataclass
class AttackForm:
    """``attack VAL vs 18 dur 2`` (the bound character's rating and its automatic Hindrance) or
    ``attack 7 vs 18 dur 2`` (a plain rating). The total is the attack total checked against the Defense;
    the Damage is a note and ``details["damage"]``; :meth:`damage_distribution` gives its exact odds."""

    text: str
    defense: int
    durability: int
    character: Any = None
    check_id: str | None = None
    rating: int = 0
    bonus: int = 0
    advantages: int = 0
    hindrances: int = 0
    rules: Mapping[str, Any] | None = None

    def _opts(self):
        return {
            "advantages": self.advantages,
            "hindrances": self.hindrances,
            "bonus": self.bonus,
            "difficulty": self.defense,
        }

    def _bonus_net(self) -> tuple[int, int]:
        if self.character is None:
            return self.rating + self.bonus, checks.net_dice(
                self.advantages, self.hindrances, rule(self.rules, "adv_order")
            )
        plan = checks.plan_check(self.character, self.check_id, self.rules)
        o = checks.parse_options(self._opts())
        return plan.bonus + o.bonus, net_of(plan, o, self.rules)

    def roll(self, rng) -> RollResult:
        try:
            if self.character is not None:
                res = checks.roll_check(self.character, self.check_id, rng=rng, rules=self.rules, **self._opts())
                remember(self.character, res)
                kept, total = res.details["kept"], res.total
                dice_rr = res.roll
            else:
                bonus, net = self._bonus_net()
                kept, dice, idx = checks.roll_kept(net, rng)
                total = kept + bonus
                dice_rr = None
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        dmg = checks.attack_damage(total, self.defense, self.durability, kept, self.rules)
        success = checks.die_succeeds(kept, total - kept, self.defense, self.rules)
        margin = total - self.defense
        if dice_rr is not None:
            dice_objs = list(dice_rr.tree.rolled) if dice_rr.tree is not None else []
            shown = tuple(d.value for d in dice_objs)
        else:
            dice_objs = dice_objects(dice, idx)
            shown = tuple(dice)
        b = total - kept
        breakdown = T(
            f"attack (Durability {self.durability}): [{', '.join(map(str, shown))}] → {kept} {signed(b)}",
            f"атака (Прочность {self.durability}): [{', '.join(map(str, shown))}] → {kept} {signed(b)}",
        )
        notes = [T(f"Damage {dmg}", f"Повреждения {dmg}")]
        if kept == 20:
            notes.append(T("natural 20: at least 1 Damage", "20 на кубике: не меньше 1 Повреждения"))  # L114
        return word_result(
            self.text,
            "attack",
            total,
            dice_objs,
            breakdown,
            check=Check(">=", self.defense, success, margin),
            notes=notes,
            details={"attack_total": total, "kept": kept, "damage": dmg},
        )

    def distribution(self) -> Distribution:
        """The attack total; ``p_pass`` = P(the attack succeeds against the Defense)."""
        try:
            bonus, net = self._bonus_net()
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        pmf = checks.kept_die_pmf(net)
        p = sum((q for x, q in pmf.items() if checks.die_succeeds(x, bonus, self.defense, self.rules)), Fraction(0))
        return Distribution({x + bonus: q for x, q in pmf.items()}, p_pass=p, expression=self.text, outcome="total")

    def damage_distribution(self) -> Distribution:
        """The Damage; ``p_pass`` = P(the attack succeeds)."""
        try:
            bonus, net = self._bonus_net()
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        pmf: dict[int, Fraction] = {}
        p = Fraction(0)
        for x, q in checks.kept_die_pmf(net).items():
            d = checks.attack_damage(x + bonus, self.defense, self.durability, x, self.rules)
            pmf[d] = pmf.get(d, Fraction(0)) + q
            if checks.die_succeeds(x, bonus, self.defense, self.rules):
                p += q
        return Distribution(pmf, p_pass=p, expression=self.text, outcome="total")


def parse_attack(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> AttackForm:
    """``attack <VAL|VALU|MRK|rating> [+N] [advN] [hinN] vs DEF [dur N]``."""
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(ATTACK_PATTERN)
    sc.ws()
    pos = sc.pos
    ch, check_id, rating = None, None, 0
    m = sc.match(_INT)
    if m:
        rating = int(m.group())
    else:
        m = sc.match(_TOKEN)
        if not m or m.group().lower() not in ATTACK_WORDS:
            raise _err(
                "expected VAL, VALU, MRK or a rating (a number)",
                "ожидалось VAL, VALU, MRK или значение Доблести/Меткости (число)",
                pos,
                text,
            )
        check_id = ATTACK_WORDS[m.group().lower()]
        ch = _bound(variables, f"attack {m.group()}", pos, text)
        rules = _rules_of(ch, rules)
    bonus, adv, hin = sc.options()
    target = sc.target(required=True)
    dur = 0
    if sc.match(_DUR):
        dur = sc.number("a Durability (a number)", "Прочность (число)")
        if dur < 0:
            raise _err("Durability cannot be negative", "Прочность не может быть отрицательной", sc.pos, text)
    sc.done("dur N after the Defense", "dur N после Защиты")
    return AttackForm(text[start:end].strip(), target, dur, ch, check_id, rating, bonus, adv, hin, rules)


# ------------------------------------------------------------------------------------------------
# contest: d20+8 vs d20+6
# ------------------------------------------------------------------------------------------------
_SIDE = r"[dDtTтТдД]20\s*(?:[+-]\s*\d{1,4}\s*)*(?:(?:adv|hin|dis|пр|пом)\d{0,2}\s*)*"
# As a %roll word the contest must start with this system's own t20: a plain ``d20+8 vs d20+6``
# keeps the generic notation's meaning (a check, ties pass) whatever systems are installed.
CONTEST_PATTERN = re.compile(
    r"[tTтТ]" + _SIDE[len("[dDtTтТдД]") :] + r"(?:vs|против)\s*[dDtTтТдД]20(?![0-9])", re.IGNORECASE
)
_D20 = re.compile(r"[dDtTтТдД]20(?![0-9])")


@dataclass
class ContestForm:
    text: str
    a: tuple[int, int, int]  # bonus, advantages, hindrances
    b: tuple[int, int, int]
    rules: Mapping[str, Any] | None = None

    def net_of(self, side):
        return checks.net_dice(side[1], side[2], rule(self.rules, "adv_order"))

    def roll(self, rng) -> RollResult:
        ka, da, ia = checks.roll_kept(self.net_of(self.a), rng)
        kb, db, ib = checks.roll_kept(self.net_of(self.b), rng)
        ta, tb = ka + self.a[0], kb + self.b[0]
        winner, margin = checks.contest_verdict(ta, tb)
        verdict = {
            "a": T(f"the first side wins by {margin}", f"побеждает первая сторона на {margin}"),
            "b": T(f"the second side wins by {margin}", f"побеждает вторая сторона на {margin}"),
            "tie": T("a tie: nothing changes", "равенство: ничего не меняется"),
        }[winner]  # L151
        breakdown = T(
            f"[{', '.join(map(str, da))}] → {ka} {signed(self.a[0])} = {ta} vs "
            f"[{', '.join(map(str, db))}] → {kb} {signed(self.b[0])} = {tb}",
            f"[{', '.join(map(str, da))}] → {ka} {signed(self.a[0])} = {ta} против "
            f"[{', '.join(map(str, db))}] → {kb} {signed(self.b[0])} = {tb}",
        )
        dice = dice_objects(da, ia) + dice_objects(db, ib)
        return word_result(
            self.text,
            "contest",
            ta,
            dice,
            breakdown,
            check=Check(">", tb, ta > tb, ta - tb),
            notes=[verdict],
            details={"a_total": ta, "b_total": tb, "winner": winner},
        )

    def distribution(self) -> Distribution:
        """The margin (first total - second total); ``p_pass`` = P(the first side wins)."""
        pmf: dict[int, Fraction] = {}
        for x, p in checks.kept_die_pmf(self.net_of(self.a)).items():
            for y, q in checks.kept_die_pmf(self.net_of(self.b)).items():
                d = x + self.a[0] - y - self.b[0]
                pmf[d] = pmf.get(d, Fraction(0)) + p * q
        p_win = sum((p for d, p in pmf.items() if d > 0), Fraction(0))
        return Distribution(pmf, p_pass=p_win, expression=self.text, outcome="total")


def parse_contest(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> ContestForm:
    """``d20+8 vs d20+6`` (``t20`` too; ``advN``/``hinN`` per side, netted like a check)."""
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sides = []
    for i in range(2):
        if not sc.match(_D20):
            raise _err("expected d20 (or t20)", "ожидалось d20 (или t20)", sc.pos, text)
        sides.append(sc.options())
        if i == 0 and not sc.match(re.compile(r"(vs|против)", re.IGNORECASE)):
            raise _err("expected vs between the two sides", "ожидалось vs между сторонами", sc.pos, text)
    sc.done("nothing after the second side", "ничего после второй стороны")
    ch = (variables or {}).get(CHARACTER_KEY) if isinstance(variables, Mapping) else None
    return ContestForm(text[start:end].strip(), sides[0], sides[1], _rules_of(ch, rules) if ch is not None else rules)


# ------------------------------------------------------------------------------------------------
# reroll
# ------------------------------------------------------------------------------------------------
REROLL_PATTERN = re.compile(r"(reroll|переброс)(?![\w])", re.IGNORECASE)


@dataclass
class RerollForm:
    """Re-roll the bound hero's last check (Move M3, L187): spends 1 Thread from the hero when rolled
    (through the rules' Thread accounting); a die is re-rolled at most twice; any rolled result may be kept (A42)."""

    text: str
    character: Any
    previous: Any
    rules: Mapping[str, Any] | None = None

    def roll(self, rng) -> RollResult:
        prev = last_check(self.character) or self.previous
        try:
            new = checks.reroll(self.character, prev, rng=rng, rules=self.rules)
            spent = fate.spend_threads(self.character, 1, T("Lucky!: re-roll", "Повезло!: переброс"), rules=self.rules)
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        new.effects = [e for e in new.effects if e.trait != "threads"]  # applied just now
        remember(self.character, new)
        old, now = spent.get("threads", (self.character.threads, self.character.threads))
        return _check_rollresult(
            new,
            self.text,
            [
                T(
                    f"1 Thread spent ({old} → {now}); re-roll {new.details['rerolls']} of 2",
                    f"потрачена 1 Нить ({old} → {now}); переброс {new.details['rerolls']} из 2",
                )
            ],
        )

    def distribution(self) -> Distribution:
        prev = last_check(self.character) or self.previous
        try:
            d = checks.check_distribution(self.character, prev.check_id, rules=self.rules, **prev.options)
        except RuleError as exc:
            raise _rule_error(exc, 0, self.text) from None
        d.expression = self.text
        return d


def parse_reroll(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> RerollForm:
    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(REROLL_PATTERN)
    sc.done("nothing after reroll", "ничего после reroll")
    ch = _bound(variables, "reroll", start, text)
    prev = last_check(ch)
    if prev is None:
        raise _err(
            "nothing to re-roll: roll a check of the bound character first",
            "нечего перебрасывать: сначала сделайте проверку привязанного персонажа",
            start,
            text,
        )
    return RerollForm(text[start:end].strip(), ch, prev, _rules_of(ch, rules))


# ------------------------------------------------------------------------------------------------
# dist
# ------------------------------------------------------------------------------------------------
DIST_PATTERN = re.compile(r"(dist|распр)(?![\w])", re.IGNORECASE)


@dataclass
class DistForm:
    text: str
    inner: Any

    def distribution(self) -> Distribution:
        d = self.inner.distribution()
        d.expression = self.text
        return d

    def roll(self, rng) -> RollResult:
        """No dice: the exact chance (fractions, §5.4) as the verdict."""
        d = self.distribution()
        if d.p_pass is None:
            mean = d.mean
            line = T(f"mean {mean} ≈ {float(mean):.4g}", f"среднее {mean} ≈ {float(mean):.4g}")
        else:
            p = d.p_pass
            line = T(f"P(success) = {p} ≈ {float(p) * 100:.2f}%", f"P(успех) = {p} ≈ {float(p) * 100:.2f}%")
        return word_result(
            self.text, "dist", 0, [], line, show_total=False, details={"p_pass": d.p_pass, "pmf": dict(d)}
        )


def parse_dist(text: str, start: int = 0, end: int | None = None, *, variables=None, rules=None) -> DistForm:
    """``dist <form>``: ``dist t20+5 adv vs 15`` (``d20`` is read as ``t20``), ``dist static ...``,
    ``dist attack VAL vs 18``, ``dist d20+8 vs d20+6``, ``dist check ...``, ``dist defcheck vs 20``."""
    from .words import parse_t20

    end = len(text) if end is None else end
    sc = _Scan(text, start, end)
    sc.match(DIST_PATTERN)
    sc.ws()
    pos = sc.pos
    if pos >= end:
        raise _err(
            "expected a roll after dist, e.g. dist t20+5 adv vs 15",
            "после dist ожидался бросок, например dist t20+5 adv vs 15",
            pos,
            text,
        )
    for pattern, parse in (
        (CONTEST_PATTERN, parse_contest),
        (STATIC_PATTERN, parse_static),
        (CHECK_PATTERN, parse_check),
        (DEFCHECK_PATTERN, parse_defcheck),
        (ATTACK_PATTERN, parse_attack),
        (REROLL_PATTERN, parse_reroll),
    ):
        if pattern.match(text, pos, end):
            return DistForm(text[start:end].strip(), parse(text, pos, end, variables=variables, rules=rules))
    if _D20.match(text, pos, end):
        ch = (variables or {}).get(CHARACTER_KEY) if isinstance(variables, Mapping) else None
        src = text[:pos] + "t20" + text[pos + 3 :]  # d20 inside dist = a Threads check (netting)
        inner = parse_t20(src, pos, end, _rules_of(ch, rules) if ch is not None else rules)
        inner.text = text[pos:end].strip()
        return DistForm(text[start:end].strip(), inner)
    raise _err(
        "dist takes t20/d20, static, check, defcheck, attack or a contest",
        "dist принимает t20/d20, static, check, defcheck, attack или состязание",
        pos,
        text,
    )


# ------------------------------------------------------------------------------------------------
# The DiceWords
# ------------------------------------------------------------------------------------------------
def _word(name, pattern, parse, rules, help_en, help_ru, examples) -> DiceWord:
    def _parse(text, start, end, variables=None):
        return parse(text, start, end, variables=variables, rules=rules)

    return DiceWord(
        name=name, system="threads_of_fate", pattern=pattern, parse=_parse, help=T(help_en, help_ru), examples=examples
    )


def form_words(rules=None) -> list[DiceWord]:
    return [
        _word(
            "tof_static",
            STATIC_PATTERN,
            parse_static,
            rules,
            "Threads of Fate static value of the bound character: static <skill> [STR|DEX|...] [advN|hinN] [vs N]",
            "Статичное значение привязанного персонажа: static <навык> [Сл|Лв|...] [advN|hinN] [vs N]",
            ("static perception WIS", "static perception adv", "static stealth DEX vs 16"),
        ),
        _word(
            "tof_check",
            CHECK_PATTERN,
            parse_check,
            rules,
            "a named check of the bound character: check <id or name> [+N] [advN] [hinN] [vs N]",
            "проверка привязанного персонажа: проверка <название, например Ловкость+Скрытность или "
            "{Ловкость}+{Ловкость рук}> [+N] [advN] [hinN] [vs N]",
            ("check dexterity+stealth adv vs 15", "check will vs 12"),
        ),
        _word(
            "tof_defcheck",
            DEFCHECK_PATTERN,
            parse_defcheck,
            rules,
            "hazard Defense check of the bound character: defcheck vs DC (Damage = shortfall)",
            "Проверка Защиты привязанного персонажа: defcheck vs СЛ (Повреждения = недобор)",
            ("defcheck vs 20",),
        ),
        _word(
            "tof_attack",
            ATTACK_PATTERN,
            parse_attack,
            rules,
            "attack: attack <VAL|VALU|MRK|rating> [advN|hinN] vs DEF [dur N]; Damage = margin - Durability",
            "атака: attack <VAL|VALU|MRK|значение> [advN|hinN] vs Зщ [dur N]; Повреждения = превышение − Прочность",
            ("attack VAL vs 18 dur 2", "attack 7 vs 18 dur 2", "attack MRK adv vs 15"),
        ),
        _word(
            "tof_contest",
            CONTEST_PATTERN,
            parse_contest,
            rules,
            "Contest: d20+A vs d20+B; strictly higher wins, a tie changes nothing",
            "Состязание: d20+A vs d20+B; побеждает больший результат, при равенстве ничего не меняется",
            ("d20+8 vs d20+6", "t20+3 adv vs t20+5"),
        ),
        _word(
            "tof_reroll",
            REROLL_PATTERN,
            parse_reroll,
            rules,
            "re-roll the bound hero's last check for 1 Thread (at most twice)",
            "переброс последней проверки привязанного героя за 1 Нить (не более двух раз)",
            ("reroll",),
        ),
        _word(
            "tof_dist",
            DIST_PATTERN,
            parse_dist,
            rules,
            "exact odds of a Threads of Fate roll: dist t20+5 adv vs 15",
            "точные шансы броска «Нитей судьбы»: dist t20+5 adv vs 15",
            ("dist d20+5 adv vs 15", "dist attack 7 vs 18", "dist d20+8 vs d20+6"),
        ),
    ]
