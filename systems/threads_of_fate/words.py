"""The ``t20`` roll word for ``%roll`` (spec §5.16): ``t20+3 adv``, ``t20+7 adv2 hin1``,
``t20+2 hin2 vs 15``, ``t20+2 adv3 hin1 >= 15``. Advantages and Hindrances are netted and capped
like a real check (§5.2; ``hin`` and ``dis`` are synonyms); a plain ``d20 adv`` keeps its generic
meaning in the shared notation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.results import Check, RollResult
from tabletop_widgets.dice.words import DiceWord, word_result
from .kept_die import net_dice
from .traits import signed


PATTERN = re.compile(r"[tTтТ]20(?![0-9])")
_MOD = re.compile(r"\s*([+-])\s*(\d{1,4})")
_ADV = re.compile(r"(adv|hin|dis|пр|пом)(\d{0,2})(?![A-Za-zА-Яа-я0-9])", re.IGNORECASE)
_CMP = re.compile(r"(vs|dc|>=|сл)\s*(-?\d{1,4})(?![0-9])", re.IGNORECASE)


@dataclass
class T20Expression:
    text: str
    bonus: int
    advantages: int
    hindrances: int
    target: int | None
    rules: GmOptions = field(kw_only=True)  # the GM options

    @property
    def net(self) -> int:
        return net_dice(self.advantages, self.hindrances, self.rules.adv_order)

    def roll(self, rng) -> RollResult:
        from .checks import dice_objects, die_succeeds, roll_kept

        kept, dice, idx = roll_kept(self.net, rng)
        total = kept + self.bonus
        check = None
        notes = []
        if kept == 20:
            notes.append(T("Critical success (natural 20)", "Критический успех (20 на кубике)"))
        elif kept == 1:
            notes.append(T("Critical failure (natural 1)", "Критический провал (1 на кубике)"))
        if self.target is not None:
            ok = die_succeeds(kept, self.bonus, self.target, options=self.rules)
            check = Check(">=", self.target, ok, total - self.target)
            need = self.target - self.bonus
            if need == 20 or (need > 20 and self.rules.nat20_auto_success):
                notes.append(T("succeeds only on a 20", "успех только на 20"))
        net = self.net
        how = (
            T("", "")
            if net == 0
            else (
                T(f" keep highest of {1 + net}", f" лучший из {1 + net}")
                if net > 0
                else T(f" keep lowest of {1 - net}", f" худший из {1 - net}")
            )
        )
        sign = f" {signed(self.bonus)}" if self.bonus else ""
        shown = ", ".join(str(d) for d in dice)
        breakdown = T(f"t20{how['en']}: [{shown}] → {kept}{sign}", f"t20{how['ru']}: [{shown}] → {kept}{sign}")
        return word_result(
            self.text,
            "t20",
            total,
            dice_objects(dice, idx),
            breakdown,
            check=check,
            notes=notes,
            details={"kept": kept, "dice": dice, "net": net, "bonus": self.bonus},
        )

    def distribution(self) -> Distribution:
        from .checks import die_succeeds, kept_die_pmf

        pmf = kept_die_pmf(self.net)
        p = None
        if self.target is not None:
            p = sum(
                (q for x, q in pmf.items() if die_succeeds(x, self.bonus, self.target, options=self.rules)), Fraction(0)
            )
        return Distribution(
            {x + self.bonus: q for x, q in pmf.items()}, p_pass=p, expression=self.text, outcome="total"
        )


def parse_t20(text: str, start: int = 0, end: int | None = None, *, options) -> T20Expression:
    sc = Scanner(text, start, end)
    if not sc.take(PATTERN):
        raise sc.error(T("expected t20", "ожидалось t20"), start)
    bonus = 0
    while mm := sc.take(_MOD):
        bonus += int(mm.group(2)) * (1 if mm.group(1) == "+" else -1)
    adv = hin = 0
    target = None
    while not sc.at_end():
        pos = sc.pos
        if ma := sc.take(_ADV):
            if target is not None:
                raise sc.error(
                    T(
                        "Advantages and Hindrances go before the difficulty",
                        "Преимущества и Помехи пишутся до сложности",
                    ),
                    pos,
                )
            n = int(ma.group(2)) if ma.group(2) else 1
            if ma.group(1).lower() in ("adv", "пр"):
                adv += n
            else:
                hin += n
        elif mc := sc.take(_CMP):
            if target is not None:
                raise sc.error(T("only one difficulty per roll", "сложность указывается один раз"), pos)
            target = int(mc.group(2))
        else:
            raise sc.error(
                T(
                    "expected +N, -N, adv[N], hin[N], dis[N] or vs N",
                    "ожидалось +N, -N, adv[N], hin[N], dis[N] или vs N",
                )
            )
    return T20Expression(text[start:end].strip(), bonus, adv, hin, target, rules=options)


def t20_word(*, options) -> DiceWord:
    return DiceWord(
        name="t20",
        system="threads_of_fate",
        pattern=PATTERN,
        parse=lambda text, start, end: parse_t20(text, start, end, options=options),
        help=T(
            "Threads of Fate check: t20[+mod] [advN] [hinN|disN] [vs DC]; Advantages and Hindrances cancel 1:1, "
            "at most 2 count (3 dice)",
            "Проверка «Нитей судьбы»: t20[+мод] [advN] [hinN|disN] [vs СЛ]; Преимущества и Помехи взаимно "
            "сокращаются, учитывается не больше 2 (3 кубика)",
        ),
        examples=("t20+3 adv", "t20+7 adv2 hin1", "t20+2 hin2 vs 15", "t20+2 adv3 hin1 >= 15", "t20-1 dis vs 12"),
    )


# ---------------------------------------------------------------------------------------------------
# ``trouble [+N|-N] [best|worst] [augmented|combat_robot|veteran]`` (§5.16)
# ---------------------------------------------------------------------------------------------------
TROUBLE_PATTERN = re.compile(r"(trouble|неприятности)(?![A-Za-zА-Яа-я0-9_])", re.IGNORECASE)
_TWORD = re.compile(r"(best|worst|general|augmented|combat_robot|veteran)(?![A-Za-z0-9_])", re.IGNORECASE)


@dataclass
class TroubleExpression:
    text: str
    margin: int
    forced: str | None
    table: str
    rules: GmOptions = field(kw_only=True)  # the GM options

    def _opts(self):
        return {"margin": self.margin, "forced": self.forced, "table": self.table}

    def roll(self, rng) -> RollResult:
        from .checks import roll_trouble

        return roll_trouble(rng=rng, options=self.rules, **self._opts()).roll

    def distribution(self) -> Distribution:
        from .checks import trouble_distribution

        return trouble_distribution(options=self.rules, **self._opts())


def parse_trouble(text: str, start: int = 0, end: int | None = None, *, options) -> TroubleExpression:
    sc = Scanner(text, start, end)
    if not sc.take(TROUBLE_PATTERN):
        raise sc.error(T("expected trouble", "ожидалось trouble"), start)
    margin, forced, table = 0, None, "general"
    while not sc.at_end():
        pos = sc.pos
        if mm := sc.take(_MOD):
            margin += int(mm.group(2)) * (1 if mm.group(1) == "+" else -1)
        elif mw := sc.take(_TWORD):
            word = mw.group(1).lower()
            if word in ("best", "worst"):
                if forced:
                    raise sc.error(T("best and worst exclude each other", "best и worst нельзя указать вместе"), pos)
                forced = word
            else:
                table = word
        else:
            raise sc.error(
                T(
                    "expected +N, -N, best, worst or a table name (augmented, combat_robot, veteran)",
                    "ожидалось +N, -N, best, worst или таблица (augmented, combat_robot, veteran)",
                )
            )
    return TroubleExpression(text[start:end].strip(), margin, forced, table, rules=options)


def trouble_word(*, options) -> DiceWord:
    return DiceWord(
        name="trouble",
        system="threads_of_fate",
        pattern=TROUBLE_PATTERN,
        parse=lambda text, start, end: parse_trouble(text, start, end, options=options),
        help=T(
            "Trouble check: trouble [+margin|-margin] [best|worst] [augmented|combat_robot|veteran]; "
            "bands 19-20 / 13-18 / 7-12 / 1-6",
            "Проверка Неприятностей: trouble [+величина|-величина] [best|worst] [таблица]; "
            "варианты 19-20 / 13-18 / 7-12 / 1-6",
        ),
        examples=("trouble", "trouble +3", "trouble -2", "trouble best", "trouble worst", "trouble veteran"),
    )
