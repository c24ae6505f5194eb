"""The ``%roll`` forms of spec §5.16 beyond ``t20`` and ``trouble``.

Character-bound (the character comes from the roll's ``WordContext``, bound by ``%sheet`` or the dice
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
from dataclasses import dataclass, field
from typing import Any

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.names import NameIndex, name_key
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.results import RollResult
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import DiceWord, WordContext, word_result

from . import checks, combat, fate
from .attack_forms import ATTACK_PATTERN, CONTEST_PATTERN, D20, parse_attack, parse_contest
from .form_parts import (
    CHAR_WORDS,
    NO_CONTEXT,
    open_bound_form,
    check_modifiers,
    difficulty,
    finish,
    options_of,
    TOKEN,
    WS,
    bound_character,
    check_roll_result,
    dice_error,
    rule_dice_error,
)
from .traits import CHAR_LABELS, SECONDARY_LABELS, SKILLS


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
    rules: GmOptions = field(kw_only=True)  # the GM options

    def roll(self, rng) -> RollResult:
        try:
            res = checks.roll_check(self.character, self.check_id, rng=rng, options=self.rules, **self.options)
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        if not self.static:
            self.character.remember_check(res)
        rr = check_roll_result(res, self.text)
        if not self.has_target:
            rr.check = None
            rr.notes = [
                T(f"{res.label['en']}: static value {res.total}", f"{res.label['ru']}: статичное значение {res.total}")
            ]
        return rr

    def distribution(self) -> Distribution:
        try:
            d = checks.check_distribution(self.character, self.check_id, options=self.rules, **self.options)
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
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


def parse_static(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> CheckForm:
    """``static <skill> [STR|DEX|...] [advN] [hinN] [vs N]`` (L111: 10 + skill + modifier, ±5)."""
    sc, ch, options = open_bound_form(text, start, end, STATIC_PATTERN, context, "static", options=options)
    m = sc.take(_ONE_NAME)
    skill = _skill_code(ch, m.group()) if m else None
    if skill is None:
        raise dice_error(
            "expected a skill code such as perception or stealth",
            "ожидался код Навыка, например perception",
            m.start() if m else sc.pos,
            text,
        )
    char = None
    mc = TOKEN.match(text, WS.match(text, sc.pos, sc.end).end(), sc.end)
    if mc and mc.group().lower() in CHAR_WORDS:
        char = CHAR_WORDS[mc.group().lower()]
        sc.pos = mc.end()
    char = char or _best_characteristic(ch, skill)
    bonus, adv, hin = check_modifiers(sc)
    target = difficulty(sc, required=False)
    finish(sc, "STR/DEX/..., +N, advN, hinN or vs N", "Сл/Лв/..., +N, advN, hinN или vs N")
    check_id = f"{char}+{skill}"
    try:
        plan = checks.plan_check(ch, check_id, options=options)
    except RuleError as exc:
        raise rule_dice_error(exc, start, text) from None
    opts = {"advantages": adv, "hindrances": hin, "bonus": bonus, "difficulty": target if target is not None else 0}
    if plan.kind == "skill":
        opts["static"] = True
    return CheckForm(
        text[start:end].strip(), ch, check_id, opts, static=True, has_target=target is not None, rules=options
    )


def parse_check(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> CheckForm:
    """``check <check id> [+N] [advN] [hinN] [vs N]``: any check id of §5.17 for the bound character."""
    sc, ch, options = open_bound_form(text, start, end, CHECK_PATTERN, context, "check", options=options)
    m = sc.take(_CHECK_NAME)
    if not m:
        raise dice_error(
            "expected a check such as dexterity+stealth or Ловкость+Скрытность",
            "ожидалась проверка, например Ловкость+Скрытность или dexterity+stealth",
            sc.pos,
            text,
        )
    check_id = _check_id_of(ch, m.group())
    try:
        checks.plan_check(ch, check_id, options=options)
    except RuleError as exc:
        raise rule_dice_error(exc, m.start(), text) from None
    bonus, adv, hin = check_modifiers(sc)
    target = difficulty(sc, required=False)
    finish(sc, "+N, advN, hinN or vs N", "+N, advN, hinN или vs N")
    opts = {"advantages": adv, "hindrances": hin, "bonus": bonus, "difficulty": target if target is not None else 10}
    return CheckForm(text[start:end].strip(), ch, check_id, opts, has_target=True, rules=options)


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
    rules: GmOptions = field(kw_only=True)  # the GM options

    def roll(self, rng) -> RollResult:
        try:
            res = combat.defense_check(self.character, self.difficulty, rng=rng, options=self.rules, **self.options)
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        self.character.remember_check(res)
        dmg = res.details["damage"]
        return check_roll_result(res, self.text, [T(f"Damage {dmg}", f"Повреждения {dmg}")])

    def distribution(self) -> Distribution:
        try:
            d = checks.check_distribution(
                self.character, "defense_check", options=self.rules, difficulty=self.difficulty, **self.options
            )
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        d.expression = self.text
        return d


def parse_defcheck(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> DefCheckForm:
    """``defcheck [+N] [advN] [hinN] vs DC``: d20 + (DEF - BDEF) vs DC; Damage = max(0, DC - total) (L355-356)."""
    sc, ch, options = open_bound_form(text, start, end, DEFCHECK_PATTERN, context, "defcheck", options=options)
    bonus, adv, hin = check_modifiers(sc)
    target = difficulty(sc, required=True)
    finish(sc, "nothing after the difficulty", "ничего после сложности")
    if ch.defense is None:
        raise dice_error(
            "the bound character's Defense needs GM-entered size values",
            "для Защиты персонажа мастер должен ввести значения размера",
            start,
            text,
        )
    return DefCheckForm(
        text[start:end].strip(), ch, target, {"advantages": adv, "hindrances": hin, "bonus": bonus}, rules=options
    )


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
    rules: GmOptions = field(kw_only=True)  # the GM options

    def roll(self, rng) -> RollResult:
        prev = self.character.last_check or self.previous
        try:
            new = checks.reroll(self.character, prev, rng=rng, options=self.rules)
            spent = fate.spend_threads(
                self.character, 1, T("Lucky!: re-roll", "Повезло!: переброс"), options=self.rules
            )
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        new.effects = [e for e in new.effects if e.trait != "threads"]  # applied just now
        self.character.remember_check(new)
        old, now = spent.get("threads", (self.character.threads, self.character.threads))
        return check_roll_result(
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
        prev = self.character.last_check or self.previous
        try:
            d = checks.check_distribution(self.character, prev.check_id, options=self.rules, **prev.options)
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        d.expression = self.text
        return d


def parse_reroll(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> RerollForm:
    sc = Scanner(text, start, end)
    sc.take(REROLL_PATTERN)
    finish(sc, "nothing after reroll", "ничего после reroll")
    ch = bound_character(context, "reroll", start, text)
    prev = ch.last_check
    if prev is None:
        raise dice_error(
            "nothing to re-roll: roll a check of the bound character first",
            "нечего перебрасывать: сначала сделайте проверку привязанного персонажа",
            start,
            text,
        )
    return RerollForm(text[start:end].strip(), ch, prev, rules=options_of(ch, options=options))


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


def parse_dist(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> DistForm:
    """``dist <form>``: ``dist t20+5 adv vs 15`` (``d20`` is read as ``t20``), ``dist static ...``,
    ``dist attack VAL vs 18``, ``dist d20+8 vs d20+6``, ``dist check ...``, ``dist defcheck vs 20``."""
    from .words import parse_t20

    end = len(text) if end is None else end
    sc = Scanner(text, start, end)
    sc.take(DIST_PATTERN)
    sc.skip_space()
    pos = sc.pos
    if pos >= end:
        raise dice_error(
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
            return DistForm(text[start:end].strip(), parse(text, pos, end, context=context, options=options))
    if D20.match(text, pos, end):
        ch = context.character
        src = text[:pos] + "t20" + text[pos + 3 :]  # d20 inside dist = a Threads check (netting)
        inner = parse_t20(src, pos, end, options=options_of(ch, options=options))
        inner.text = text[pos:end].strip()
        return DistForm(text[start:end].strip(), inner)
    raise dice_error(
        "dist takes t20/d20, static, check, defcheck, attack or a contest",
        "dist принимает t20/d20, static, check, defcheck, attack или состязание",
        pos,
        text,
    )


# ------------------------------------------------------------------------------------------------
# The DiceWords
# ------------------------------------------------------------------------------------------------
def _word(name, pattern, parse, help_en, help_ru, examples, *, options) -> DiceWord:
    def _parse(text, start, end, context):
        return parse(text, start, end, context=context, options=options)

    return DiceWord(
        name=name, system="threads_of_fate", pattern=pattern, parse=_parse, help=T(help_en, help_ru), examples=examples
    )


def form_words(*, options) -> list[DiceWord]:
    return [
        _word(
            "tof_static",
            STATIC_PATTERN,
            parse_static,
            "Threads of Fate static value of the bound character: static <skill> [STR|DEX|...] [advN|hinN] [vs N]",
            "Статичное значение привязанного персонажа: static <навык> [Сл|Лв|...] [advN|hinN] [vs N]",
            ("static perception WIS", "static perception adv", "static stealth DEX vs 16"),
            options=options,
        ),
        _word(
            "tof_check",
            CHECK_PATTERN,
            parse_check,
            "a named check of the bound character: check <id or name> [+N] [advN] [hinN] [vs N]",
            "проверка привязанного персонажа: проверка <название, например Ловкость+Скрытность или "
            "{Ловкость}+{Ловкость рук}> [+N] [advN] [hinN] [vs N]",
            ("check dexterity+stealth adv vs 15", "check will vs 12"),
            options=options,
        ),
        _word(
            "tof_defcheck",
            DEFCHECK_PATTERN,
            parse_defcheck,
            "hazard Defense check of the bound character: defcheck vs DC (Damage = shortfall)",
            "Проверка Защиты привязанного персонажа: defcheck vs СЛ (Повреждения = недобор)",
            ("defcheck vs 20",),
            options=options,
        ),
        _word(
            "tof_attack",
            ATTACK_PATTERN,
            parse_attack,
            "attack: attack <VAL|VALU|MRK|rating> [advN|hinN] vs DEF [dur N]; Damage = margin - Durability",
            "атака: attack <VAL|VALU|MRK|значение> [advN|hinN] vs Зщ [dur N]; Повреждения = превышение − Прочность",
            ("attack VAL vs 18 dur 2", "attack 7 vs 18 dur 2", "attack MRK adv vs 15"),
            options=options,
        ),
        _word(
            "tof_contest",
            CONTEST_PATTERN,
            parse_contest,
            "Contest: d20+A vs d20+B; strictly higher wins, a tie changes nothing",
            "Состязание: d20+A vs d20+B; побеждает больший результат, при равенстве ничего не меняется",
            ("d20+8 vs d20+6", "t20+3 adv vs t20+5"),
            options=options,
        ),
        _word(
            "tof_reroll",
            REROLL_PATTERN,
            parse_reroll,
            "re-roll the bound hero's last check for 1 Thread (at most twice)",
            "переброс последней проверки привязанного героя за 1 Нить (не более двух раз)",
            ("reroll",),
            options=options,
        ),
        _word(
            "tof_dist",
            DIST_PATTERN,
            parse_dist,
            "exact odds of a Threads of Fate roll: dist t20+5 adv vs 15",
            "точные шансы броска «Нитей судьбы»: dist t20+5 adv vs 15",
            ("dist d20+5 adv vs 15", "dist attack 7 vs 18", "dist d20+8 vs d20+6"),
            options=options,
        ),
    ]
