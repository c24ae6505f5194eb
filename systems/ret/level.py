"""The RET level roll (spec §5.1, §5.4, §5.14): one die chosen by level, natural-1 fail with a d4
degree, natural maximum climbing the ladder d6 -> d8 -> d10 -> d12 -> d20 -> d100; and its exact
distribution (rational arithmetic, no sampling).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.dice.results import Check, Die
from tabletop_widgets.dice.words import word_result


#: Level -> (faces, flat modifier) (spec §3.2). Level 2 is d6-1: the book's table prints d6-3 at
#: L486, a typo contradicted by both advancement tables (L292, L307); spec A1.
LEVEL_DIE: dict[int, tuple[int, int]] = {
    0: (6, -3),
    1: (6, -2),
    2: (6, -1),
    3: (6, 0),
    4: (8, 0),
    5: (10, 0),
    6: (12, 0),
    7: (20, 0),
    8: (100, 0),
}
#: The words of the named parts of a roll (``+3 [skill]``) a reader of each language sees;
#: parameter and condition ids read as their names, a label the player wrote stays as written.
TAG_WORDS: dict[str, dict[str, str]] = {
    "skill": T("skill", "навык"),
    "luck": T("luck", "Удача"),  # the book's capital (L3 +2[luck])
    "bonus": T("bonus", "бонус"),
    "armour": T("armour", "броня"),
    "aim": T("aim", "прицеливание"),
    "cover": T("cover", "укрытие"),
    "ultimate": T("ultimate", "ультимативная"),
    "token": T("token", "жетон"),
    "talent": T("talent", "талант"),
}


@lru_cache(maxsize=None)
def tag_word(tag: str, locale: str) -> str:
    """``tag`` (a part of a roll's breakdown) in ``locale``: see :data:`TAG_WORDS`."""
    if tag in TAG_WORDS:
        return TAG_WORDS[tag].get(locale) or tag
    from . import data  # (lazy: data loads the JSON tables)

    for table in ("parameters", "conditions"):
        for row in data.rows(table):
            if row.get("id") == tag and row.get(locale):
                return str(row[locale]).lower() if locale == "en" else str(row[locale])
    return tag


#: The success ladder (L538, L544).
LADDER = (6, 8, 10, 12, 20, 100)
MIN_LEVEL, MAX_LEVEL = 0, 8
#: d100 re-rolls on a natural 100 (GM option ``d100_reroll_on_max``) are unbounded; rolls and
#: exact odds stop after this many extra d100s (the cut-off mass is reported).
D100_REROLL_DEPTH = 4


def die_label(level: int) -> str:
    """``"d6-3"``, ``"d6"``, ``"d10"``... for a level (clamped to 0..8)."""
    faces, flat = LEVEL_DIE[clamp_level(level)]
    return f"d{faces}" + (f"{flat:+d}" if flat else "")


def clamp_level(level: int) -> int:
    return max(MIN_LEVEL, min(MAX_LEVEL, int(level)))


def level_die(level: int) -> tuple[int, int]:
    """(faces, flat) for a level; out-of-range levels are clamped to 0..8 (spec §5.4, TV-D8)."""
    return LEVEL_DIE[clamp_level(level)]


def luck_award(critical: bool, *, options: GmOptions) -> int:
    """Luck gained on a fail: 1 (critical 3); cinematic games 3 (critical 5) (L358, L533)."""
    if options.cinematic_luck:
        return 5 if critical else 3
    return 3 if critical else 1


def explosion_dice(level: int, *, options: GmOptions) -> tuple[int, ...]:
    """The dice rolled one after another on successive natural maxima after the first die.

    ``die_ladder`` (default): the next bigger die of LADDER. ``level_ladder``: the die of the next
    *level* (spec A4), so level 0 climbs d6 (L1) -> d6 (L2) -> d6 (L3) -> d8 -> ...
    """
    faces, _ = LEVEL_DIE[level]
    if options.penalty_explosion == "level_ladder":
        return tuple(LEVEL_DIE[lv][0] for lv in range(level + 1, MAX_LEVEL + 1))
    return LADDER[LADDER.index(faces) + 1 :]


@dataclass
class LevelRoll:
    """One level roll as rolled.

    chain        ``[(faces, face), ...]``; the first element is the level die
    fail         natural 1 on the first die; ``fail_degree`` the d4 (1 = critical)
    successes    extra dice rolled because of natural maxima (each restores 1 Sanity, L541)
    terminal_max the chain ended on a natural 100 on d100 (a success with no bigger die, L538)
    total        None on a fail (bonuses and Luck cancelled, L531)
    """

    level: int
    base_level: int
    bonus: int
    luck: int
    flat: int
    chain: list[tuple[int, int]]
    fail: bool = False
    fail_degree: int | None = None
    critical: bool = False
    successes: int = 0
    terminal_max: bool = False
    total: int | None = None
    luck_spent: int = 0
    luck_gained: int = 0
    sanity_gained: int = 0
    auto_fail: bool = False
    bonuses: list[tuple[str, int]] = field(default_factory=list)

    @property
    def natural_success(self) -> bool:
        """A natural maximum anywhere in the roll (L538): an explosion or a terminal 100."""
        return self.successes > 0 or self.terminal_max

    def breakdown(self, with_total: bool = True) -> dict[str, str]:
        """``"L3 d6: 6 → d8: 8 → d10: 3 +2 [luck] = 19"`` / ``"L3 d6: 1 → d4: 3 — fail 3"``."""
        head = f"L{self.level} {die_label(self.level)}"
        dice = " → ".join(f"d{f}: {v}" if i else f"{v}" for i, (f, v) in enumerate(self.chain))
        if self.fail:
            if self.auto_fail:
                dice = "—"
            mods = {
                loc: "".join(f" ~~{v:+d} [{tag_word(n, loc)}]~~" for n, v in self.bonuses if v) for loc in ("en", "ru")
            }
            en = f"{head}: {dice}{mods['en']} → d4: {self.fail_degree} — " + (
                "critical fail" if self.critical else f"fail {self.fail_degree}"
            )
            ru = f"{head}: {dice}{mods['ru']} → d4: {self.fail_degree} — " + (
                "крит. провал" if self.critical else f"провал {self.fail_degree}"
            )
            return T(en, ru)
        flat = f" {self.flat:+d}" if self.flat else ""
        tail = " (d100: 100!)" if self.terminal_max else ""
        text = {
            loc: f"{head}: {dice}{flat}"
            + "".join(f" {v:+d} [{tag_word(n, loc)}]" for n, v in self.bonuses if v)
            + (f" = {self.total}" if with_total else "")
            + tail
            for loc in ("en", "ru")
        }
        return T(text["en"], text["ru"])


def resolve_level(base_level: int, shift: int, *, options: GmOptions) -> tuple[int, bool]:
    """(effective level, auto_fail) after die-level shifts (spec §5.4, A37)."""
    raw = int(base_level) + int(shift)
    if raw < MIN_LEVEL and options.below_zero == "auto_fail":
        return MIN_LEVEL, True
    return clamp_level(raw), False


def level_roll(
    level: int,
    *,
    bonus: int = 0,
    luck: int = 0,
    shift: int = 0,
    rng: random.Random | None = None,
    options: GmOptions,
    bonuses: list[tuple[str, int]] | None = None,
) -> LevelRoll:
    """Roll a level roll (spec §5.1). ``luck`` is the Luck declared before the roll."""
    if luck < 0:
        raise RuleError(
            "negative_luck", T("Luck declared cannot be negative", "заявленная Удача не может быть отрицательной")
        )
    rng = rng if rng is not None else random.Random()
    eff, auto_fail = resolve_level(level, shift, options=options)
    faces, flat = LEVEL_DIE[eff]
    named = list(bonuses) if bonuses is not None else ([("bonus", bonus)] if bonus else [])
    if luck:
        named.append(("luck", luck))
    res = LevelRoll(
        level=eff,
        base_level=int(level),
        bonus=int(bonus),
        luck=int(luck),
        flat=flat,
        chain=[],
        luck_spent=int(luck),
        bonuses=named,
    )
    first = 1 if auto_fail else rng.randint(1, faces)
    if not auto_fail:
        res.chain.append((faces, first))
    if first == 1:  # FAIL (L527-533)
        d4 = rng.randint(1, 4)
        res.fail, res.fail_degree, res.critical, res.auto_fail = True, d4, d4 == 1, auto_fail
        res.luck_gained = luck_award(d4 == 1, options=options)
        return res
    total, die, face = first, faces, first
    ladder = list(explosion_dice(eff, options=options))
    while face == die and ladder:  # SUCCESS: climb (L538)
        die = ladder.pop(0)
        face = rng.randint(1, die)  # 1s are ordinary here (L538)
        res.chain.append((die, face))
        total += face
        res.successes += 1
    if die == 100 and face == 100:
        res.terminal_max = True
        if options.d100_reroll_on_max:  # A5 GM option
            extra = 0
            while face == 100 and extra < D100_REROLL_DEPTH:
                face = rng.randint(1, 100)
                res.chain.append((100, face))
                total += face
                res.successes += 1
                extra += 1
            res.terminal_max = face == 100
    res.total = total + flat + int(bonus) + int(luck)
    res.sanity_gained = res.successes + (
        1 if res.terminal_max and options.d100_max_grants_sanity and not options.d100_reroll_on_max else 0
    )
    return res


# ----------------------------------------------------------------------------------------------
# Exact distribution (spec §5.14)
# ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _chain(dice: tuple[int, ...], reroll_100: bool, depth: int) -> tuple:
    """Distribution of the explosion chain rolled on ``dice`` (first die included, all faces plain):
    a tuple of ((sum, extra_dice, terminal_max), probability) plus the truncated mass."""
    n = dice[0]
    out: dict[tuple[int, int, bool], Fraction] = {}
    cut = Fraction(0)
    p = Fraction(1, n)
    for f in range(1, n):
        out[(f, 0, False)] = out.get((f, 0, False), 0) + p
    rest = dice[1:]
    if rest:
        sub, sub_cut = _chain(rest, reroll_100, depth)
        for (s, k, t), q in sub:
            key = (n + s, k + 1, t)
            out[key] = out.get(key, 0) + p * q
        cut += p * sub_cut
    elif n == 100 and reroll_100:
        if depth <= 0:
            cut += p
        else:
            sub, sub_cut = _chain((100,), True, depth - 1)
            for (s, k, t), q in sub:
                key = (100 + s, k + 1, t)
                out[key] = out.get(key, 0) + p * q
            cut += p * sub_cut
    else:
        key = (n, 0, n == 100)
        out[key] = out.get(key, 0) + p
    return tuple(out.items()), cut


def roll_outcomes(
    level: int, *, bonus: int = 0, luck: int = 0, shift: int = 0, options: GmOptions
) -> tuple[dict[tuple, Fraction], Fraction]:
    """Exact outcomes of a level roll: ``{("fail", d4): p, ("ok", total, successes, terminal): p}``
    and the truncated mass (non-zero only with ``d100_reroll_on_max``)."""
    eff, auto_fail = resolve_level(level, shift, options=options)
    faces, flat = LEVEL_DIE[eff]
    out: dict[tuple, Fraction] = {}
    if auto_fail:
        for d4 in range(1, 5):
            out[("fail", d4)] = Fraction(1, 4)
        return out, Fraction(0)
    p_first = Fraction(1, faces)
    for d4 in range(1, 5):
        out[("fail", d4)] = p_first / 4
    add = flat + bonus + luck
    reroll = bool(options.d100_reroll_on_max)
    # the first die: faces 2..n-1 plain; face n continues the chain on the explosion dice
    for f in range(2, faces):
        key = ("ok", f + add, 0, False)
        out[key] = out.get(key, 0) + p_first
    ladder = explosion_dice(eff, options=options)
    cut = Fraction(0)
    if ladder:
        sub, sub_cut = _chain(tuple(ladder), reroll, D100_REROLL_DEPTH - 1)
        for (s, k, t), q in sub:
            key = ("ok", faces + s + add, k + 1, t)
            out[key] = out.get(key, 0) + p_first * q
        cut += p_first * sub_cut
    elif faces == 100 and reroll:
        sub, sub_cut = _chain((100,), True, D100_REROLL_DEPTH - 1)
        for (s, k, t), q in sub:
            key = ("ok", 100 + s + add, k + 1, t)
            out[key] = out.get(key, 0) + p_first * q
        cut += p_first * sub_cut
    else:
        key = ("ok", faces + add, 0, faces == 100)
        out[key] = out.get(key, 0) + p_first
    return out, cut


def chance_at_least(
    level: int, target: int, *, bonus: int = 0, luck: int = 0, shift: int = 0, options: GmOptions
) -> Fraction:
    """P(not a fail and total >= target) (spec §5.14)."""
    outcomes, _ = roll_outcomes(level, bonus=bonus, luck=luck, shift=shift, options=options)
    return sum((p for o, p in outcomes.items() if o[0] == "ok" and o[1] >= target), Fraction(0))


def max_total(level: int, *, options: GmOptions) -> int:
    outcomes, _ = roll_outcomes(level, options=options)
    return max(o[1] for o in outcomes if o[0] == "ok")


def roll_result_for(
    res: LevelRoll,
    expression: str,
    *,
    check: Check | None = None,
    notes=(),
    extra_dice=(),
    breakdown=None,
    total: int | None = None,
    successes: int | None = None,
    extra_details=None,
    show_total: bool | None = None,
):
    """The dice engine's RollResult for a level roll (built with ``word_result``). A fail has no
    total (spec §5.1), so by default its rendering stops at the fail degree."""
    dice = []
    for i, (faces, face) in enumerate(res.chain):
        nxt = i + 1 < len(res.chain)
        d = Die(
            faces=faces,
            value=face,
            exploded=nxt,
            added_by="explode" if i else None,
            crit="success" if face == faces and not (i == 0 and faces == 1) else None,
        )
        if i == 0 and res.fail:
            d.crit = "failure"
        dice.append(d)
    if res.fail:
        dice.append(
            Die(
                faces=4,
                value=res.fail_degree,
                note="✗",  # the fail die: a sign, no language
                crit="failure" if res.critical else None,
            )
        )
    details = {
        "level": res.level,
        "chain": list(res.chain),
        "fail": res.fail,
        "fail_degree": res.fail_degree,
        "critical": res.critical,
        "successes": res.successes,
        "terminal_max": res.terminal_max,
        "luck": res.luck,
    }
    dice.extend(extra_dice)
    details.update(extra_details or {})
    if total is None:
        total = res.total if res.total is not None else 0
    # the engine appends "= total" itself (dice/words.py), so the word's breakdown stops before it
    if show_total is None:
        show_total = not res.fail
    return word_result(
        expression,
        "L",
        total,
        dice,
        breakdown or res.breakdown(with_total=False),
        check=check,
        successes=successes,
        notes=list(notes),
        details=details,
        show_total=show_total,
    )


def level_dice(res: LevelRoll) -> list:
    """The Die objects of a level roll (first die, explosions, fail die)."""
    return list(roll_result_for(res, "").tree.rolled)
