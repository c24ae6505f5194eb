"""The ``attack`` and Contest forms of ``%roll`` (spec §5.16, §6.5, L150-151)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.results import Check, RollResult
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import WordContext, word_result

from . import checks
from .kept_die import dice_objects
from .plan import net_of
from .form_parts import (
    ATTACK_WORDS,
    DUR,
    NO_CONTEXT,
    check_modifiers,
    difficulty,
    finish,
    options_of,
    signed_number,
    INT,
    TOKEN,
    bound_character,
    dice_error,
    rule_dice_error,
)
from .traits import signed


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
    rules: GmOptions = field(kw_only=True)  # the GM options

    def _opts(self):
        return {
            "advantages": self.advantages,
            "hindrances": self.hindrances,
            "bonus": self.bonus,
            "difficulty": self.defense,
        }

    def _drained(self) -> bool:
        """A bound character's Strength or Dexterity at 0 fails the attack by itself (L363)."""
        if self.character is None:
            return False
        return checks.plan_check(self.character, self.check_id, options=self.rules).drained

    def _damage(self, total: int, kept: int, success: bool) -> int:
        """The Damage of one roll (L351, L114; A13 the minimal hit's; L363 none when drained)."""
        if self._drained() or not (success or kept == 20):
            return 0
        return checks.attack_damage(
            total, self.defense, self.durability, kept, min_success=self.rules.min_success_damage
        )

    def _bonus_net(self) -> tuple[int, int]:
        if self.character is None:
            return self.rating + self.bonus, checks.net_dice(self.advantages, self.hindrances, self.rules.adv_order)
        plan = checks.plan_check(self.character, self.check_id, options=self.rules)
        o = checks.parse_options(self._opts())
        return plan.bonus + o.bonus, net_of(plan, o, options=self.rules)

    def roll(self, rng) -> RollResult:
        try:
            if self.character is not None:
                res = checks.roll_check(self.character, self.check_id, rng=rng, options=self.rules, **self._opts())
                self.character.remember_check(res)
                kept, total = res.details["kept"], res.total
                dice_rr = res.roll
            else:
                bonus, net = self._bonus_net()
                kept, dice, idx = checks.roll_kept(net, rng)
                total = kept + bonus
                dice_rr = None
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        success = checks.die_succeeds(kept, total - kept, self.defense, options=self.rules) and not self._drained()
        # Damage is the margin of a successful attack (L351); a 20 on the die always costs 1 (L114)
        dmg = self._damage(total, kept, success)
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
            raise rule_dice_error(exc, 0, self.text) from None
        pmf = checks.kept_die_pmf(net)
        p = sum(
            (q for x, q in pmf.items() if checks.die_succeeds(x, bonus, self.defense, options=self.rules)), Fraction(0)
        )
        if self._drained():
            p = Fraction(0)  # L363
        return Distribution({x + bonus: q for x, q in pmf.items()}, p_pass=p, expression=self.text, outcome="total")

    def damage_distribution(self) -> Distribution:
        """The Damage; ``p_pass`` = P(the attack succeeds)."""
        try:
            bonus, net = self._bonus_net()
        except RuleError as exc:
            raise rule_dice_error(exc, 0, self.text) from None
        pmf: dict[int, Fraction] = {}
        p = Fraction(0)
        drained = self._drained()
        for x, q in checks.kept_die_pmf(net).items():
            success = checks.die_succeeds(x, bonus, self.defense, options=self.rules) and not drained
            d = self._damage(x + bonus, x, success)
            pmf[d] = pmf.get(d, Fraction(0)) + q
            if success:
                p += q
        return Distribution(pmf, p_pass=p, expression=self.text, outcome="total")


def parse_attack(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> AttackForm:
    """``attack <VAL|VALU|MRK|rating> [+N] [advN] [hinN] vs DEF [dur N]``."""
    sc = Scanner(text, start, end)
    sc.take(ATTACK_PATTERN)
    sc.skip_space()
    pos = sc.pos
    ch, check_id, rating = None, None, 0
    m = sc.take(INT)
    if m:
        rating = int(m.group())
    else:
        m = sc.take(TOKEN)
        if not m or m.group().lower() not in ATTACK_WORDS:
            raise dice_error(
                "expected VAL, VALU, MRK or a rating (a number)",
                "ожидалось VAL, VALU, MRK или значение Доблести/Меткости (число)",
                pos,
                text,
            )
        check_id = ATTACK_WORDS[m.group().lower()]
        ch = bound_character(context, f"attack {m.group()}", pos, text)
        options = options_of(ch, options=options)
    bonus, adv, hin = check_modifiers(sc)
    target = difficulty(sc, required=True)
    dur = 0
    if sc.take(DUR):
        dur = signed_number(sc, "a Durability (a number)", "Прочность (число)")
        if dur < 0:
            raise dice_error("Durability cannot be negative", "Прочность не может быть отрицательной", sc.pos, text)
    finish(sc, "dur N after the Defense", "dur N после Защиты")
    return AttackForm(text[start:end].strip(), target, dur, ch, check_id, rating, bonus, adv, hin, rules=options)


# ------------------------------------------------------------------------------------------------
# contest: d20+8 vs d20+6
# ------------------------------------------------------------------------------------------------
_SIDE = r"[dDtTтТдД]20\s*(?:[+-]\s*\d{1,4}\s*)*(?:(?:adv|hin|dis|пр|пом)\d{0,2}\s*)*"
# As a %roll word the contest must start with this system's own t20: a plain ``d20+8 vs d20+6``
# keeps the generic notation's meaning (a check, ties pass) whatever systems are installed.
CONTEST_PATTERN = re.compile(
    r"[tTтТ]" + _SIDE[len("[dDtTтТдД]") :] + r"(?:vs|против)\s*[dDtTтТдД]20(?![0-9])", re.IGNORECASE
)
D20 = re.compile(r"[dDtTтТдД]20(?![0-9])")


@dataclass
class ContestForm:
    text: str
    a: tuple[int, int, int]  # bonus, advantages, hindrances
    b: tuple[int, int, int]
    rules: GmOptions = field(kw_only=True)  # the GM options

    def net_of(self, side):
        return checks.net_dice(side[1], side[2], self.rules.adv_order)

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


def parse_contest(
    text: str, start: int = 0, end: int | None = None, *, options, context: WordContext = NO_CONTEXT
) -> ContestForm:
    """``d20+8 vs d20+6`` (``t20`` too; ``advN``/``hinN`` per side, netted like a check)."""
    sc = Scanner(text, start, end)
    sides = []
    for i in range(2):
        if not sc.take(D20):
            raise dice_error("expected d20 (or t20)", "ожидалось d20 (или t20)", sc.pos, text)
        sides.append(check_modifiers(sc))
        if i == 0 and not sc.take(re.compile(r"(vs|против)", re.IGNORECASE)):
            raise dice_error("expected vs between the two sides", "ожидалось vs между сторонами", sc.pos, text)
    finish(sc, "nothing after the second side", "ничего после второй стороны")
    ch = context.character
    return ContestForm(text[start:end].strip(), sides[0], sides[1], rules=options_of(ch, options=options))
