"""Casting as a named check (spec §7.1, §10.2 "Cast spell"): ``cast:<skill>`` in the dice tray,
its options (the spell's design, the parameters lowered on purpose), exact odds and the roll."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, OptionSpec, RuleError, T
from tabletop_widgets.dice import Distribution

from .checks import PoolSpec, epic_count, epic_offer, make_result
from .dice import net_law
from .magic import BOOST_ACTIONS_MAX, SPELL_PARAMETERS
from .model import SKILL_KEY_RE

#: the brightness boost's options (L314), on the casting check and on a spell attack alike
BOOST_OPTIONS = ("boost", "boost_actions", "boost_free_actions")

# -- casting as a named check (spec §7.1, §10.2 "Cast spell") -----------------------------------------
_CAST_OPTIONS = {
    "functions",
    "triggers",
    "form",
    "pinpoint",
    "transmutation",
    "style_sections",
    "mind_complexity",
    "facet",
    "complexity_factor",
    "brightness",
    "own_reserve",
    "zone",
    "target_complexity",
    "epic",
    "level",
    "faces",
    *BOOST_OPTIONS,
    *("damage", "duration_rounds", "max_targets", "cast_range_m"),  # lowered on purpose (L312)
}
#: What a cast made, as the tray says it (L35, L194).
VERDICTS = {
    "as_designed": T("spell created as designed", "заклинание создано"),
    "basic_spell": T("only a basic level-1 spell of the style", "вышло лишь базовое заклинание 1-го уровня"),  # L35
    "nothing": T("no spell", "заклинание не создано"),
    "nothing_fumble": T(
        "no spell; the energy escapes control", "заклинания нет; энергия вышла из-под контроля"
    ),  # L194
    "gm": T("failed: the GM decides", "неудача: решает Мастер"),
    "dissipated": T("the boost failed: the spell dissipates", "усиление не удалось: заклинание рассеивается"),  # L314
}


def boost_option_specs() -> tuple[OptionSpec, ...]:
    """The brightness boost (L314): +1 brightness for the whole next round, once, by a lone caster,
    never above the caster's Power; each action taken in that round costs the Complexity roll dice."""
    return (
        OptionSpec(
            "boost",
            T("Boost brightness +1 (the next round)", "Усилить яркость на 1 (следующий раунд)"),
            "bool",
            False,
            help=T(
                "The whole next round raises the spell's brightness by 1, once, never above your Power. "
                "Acting in that round calls for a Complexity roll: a failure dissipates the spell.",
                "Весь следующий раунд повышает яркость заклинания на 1, один раз, не выше вашей Яркости. "
                "Если в этом раунде действовать, нужен бросок Сложности: провал рассеивает заклинание.",
            ),
        ),  # L314
        OptionSpec(
            "boost_actions",
            T("Ordinary actions in the boost's round", "Обычных действий в раунде усиления"),
            "int",
            0,
            0,
            BOOST_ACTIONS_MAX,
            help=T("−2 dice each to the Complexity roll", "−2 кубика за каждое к броску Сложности"),
        ),  # L314
        OptionSpec(
            "boost_free_actions",
            T("Free actions in the boost's round", "Свободных действий в раунде усиления"),
            "int",
            0,
            0,
            BOOST_ACTIONS_MAX,
            help=T("−1 die each to the Complexity roll", "−1 кубик за каждое к броску Сложности"),
        ),  # L314
    )


def boost_plan(character, design, chosen: Mapping[str, Any], *, options: Mapping[str, Any]):
    """(boosted, the boost roll's pool or None, its chance) for the options ``chosen``; refuses a
    boost above the caster's Power (L314) and, by the GM option, a roll with no dice (A-09)."""
    from .magic import boost_chance, boost_check_pool, check_boost

    if not chosen.get("boost"):
        return False, None, Fraction(1)
    check_boost(design.brightness, character.power)
    pool = boost_check_pool(
        character.complexity,
        int(chosen.get("boost_actions", 0)),
        int(chosen.get("boost_free_actions", 0)),
        options=options,
    )
    return True, pool, boost_chance(pool)


def _cast_args(character, check_id: str, check_options: Mapping[str, Any]):
    from .magic import SpellDesign

    unknown = set(check_options) - _CAST_OPTIONS
    if unknown:
        raise ValueError(f"unknown cast option(s) {sorted(unknown)}; known: {sorted(_CAST_OPTIONS)}")
    key = check_id.split(":", 1)[1]
    if not SKILL_KEY_RE.match(key):
        raise ValueError(f"malformed skill key {key!r} in {check_id!r}")
    o = dict(check_options)
    extra = {k: o.pop(k) for k in ("target_complexity", "epic", "level", "faces", *BOOST_OPTIONS) if k in o}
    lowered = {k: o.pop(k) for k in SPELL_PARAMETERS if k in o}
    return key, SpellDesign(**o, lowered={k: v for k, v in lowered.items() if v != 0}), extra


def cast_option_specs(character) -> tuple[OptionSpec, ...]:
    forms = tuple(
        (k, T(k, r))
        for k, r in (("basic", "базовая"), ("simple", "простая"), ("sharpened", "заострённая"), ("complex", "сложная"))
    )
    facets = tuple((r["id"], T(r["en"], r["ru"])) for r in character.TABLES.rows("facets"))
    zones = tuple((r["id"], T(r["en"], r["ru"])) for r in character.TABLES.rows("zones"))
    return (
        OptionSpec("brightness", T("Brightness", "Яркость"), "int", 1, 1, max(1, character.power)),
        *boost_option_specs(),
        OptionSpec("functions", T("Functions / effects", "Функции / эффекты"), "int", 0, 0, 10),
        OptionSpec("triggers", T("Triggers", "Триггеры"), "int", 0, 0, 10),
        OptionSpec("form", T("Form", "Форма"), "choice", "basic", choices=forms),
        OptionSpec("pinpoint", T("Pinpoint (+3)", "Точечное (+3)"), "bool", False),
        OptionSpec("transmutation", T("Transmutation (+4)", "Трансмутация (+4)"), "bool", False),
        OptionSpec("mind_complexity", T("Sentient mind complexity", "Сложность разума"), "int", 0, 0, 10),
        OptionSpec("facet", T("Facet", "Грань"), "choice", "umsear", choices=facets),
        OptionSpec("target_complexity", T("Target complexity", "Сложность цели"), "int", 0, 0, 10),
        OptionSpec("zone", T("Zone", "Зона"), "choice", "torso", choices=zones),
        OptionSpec("own_reserve", T("From own EP", "Из своего запаса EP"), "bool", False),
        OptionSpec("level", T("Spell level (override)", "Уровень (вручную)"), "int", 0, 0, 10),
        OptionSpec("epic", T("Epic dice to spend", "Потратить эпик-дайсов"), "int", 0, 0, 20),
    ) + lowering_specs(character)


def lowering_specs(character) -> tuple[OptionSpec, ...]:
    """The spell parameters a caster may lower on purpose, never raise (L312): 0 is "as the
    brightness gives"; the top is what the caster's Power allows (the cast checks the brightness
    chosen)."""
    top = max(1, character.power)
    tops = {"damage": top, "duration_rounds": top, "max_targets": top**2, "cast_range_m": 5 * top}
    return tuple(
        OptionSpec(
            name,
            T(f"Lower {label['en']} to", f"Понизить: {label['ru']}"),
            "int",
            0,
            0,
            tops[name],
            help=T(
                "0: as the brightness gives. A spell's parameters may be lowered on purpose, never raised.",  # L312
                "0: как даёт яркость. Параметры заклинания можно сознательно понизить, но не повысить.",
            ),
        )
        for name, label in SPELL_PARAMETERS.items()
    )


def cast_distribution(character, check_id: str, *, options: Mapping[str, Any], **check_options: Any) -> Distribution:
    from .magic import casting_pool, spell_complexity, spell_level

    key, design, extra = _cast_args(character, check_id, check_options)
    skill = character.skill_level(key)
    cx = spell_complexity(design, skill, options=options)
    lvl = spell_level(cx, extra.get("level") or None, options=options)
    pool = casting_pool(character.complexity, skill, int(extra.get("target_complexity", 0)), cx, design.zone)
    pen = 0 if skill > 0 else 1
    law = net_law(max(0, pool), pen, int(extra.get("epic", 0)))
    _boosted, _pool, p_boost = boost_plan(character, design, extra, options=options)
    # a boosted spell works when the cast passes and then the boost does (L314)
    p = sum((v for k, v in law.items() if k >= lvl), Fraction(0)) * p_boost
    return Distribution(law, p_pass=p, expression=f"ld {pool} dc {lvl}", outcome="total")


def cast_roll(
    character, check_id: str, *, rng: random.Random | None = None, options: Mapping[str, Any], **check_options: Any
) -> CheckResult:
    from .magic import cast

    key, design, extra = _cast_args(character, check_id, check_options)
    epic = epic_count(extra.get("epic", 0))
    if epic > character.epic_dice:
        raise RuleError(
            "not_enough_epic_dice",
            T(f"Only {character.epic_dice} epic dice left.", f"Осталось эпик-дайсов: {character.epic_dice}."),
        )
    boosted, boost_pool, _p = boost_plan(character, design, extra, options=options)  # refused before rolling
    rng = rng if rng is not None else random.Random()
    res = cast(
        character,
        key,
        design,
        target_complexity=int(extra.get("target_complexity", 0)),
        epic=epic,
        level=extra.get("level") or None,
        rng=rng,
        faces=extra.get("faces"),
        options=options,
    )
    spec = PoolSpec(
        check_id, res.pool, res.roll.penalty, T(f"Cast ({key})", f"Заклинание ({key})"), "cast", tuple(res.notes)
    )
    out = make_result(check_id, spec, res.roll, res.level, 0)
    out.effects = list(res.effects)
    out.outcome = dict(VERDICTS[res.outcome])
    out.details.update(
        cast_outcome=res.outcome,
        spell_complexity=res.complexity,
        spell_level=res.level,
        spell=res.parameters,
        pool_spec=spec,
        spell_design=design,
        # epic dice after a boosted cast would re-read the cast without the boost: before the roll only
        epic_after=None if boosted else epic_offer(character, epic, options=options),
    )
    if boosted and res.outcome == "as_designed":
        _boost(out, design, boost_pool, rng)
    return out


def _boost(out: CheckResult, design, pool: int | None, rng: random.Random) -> None:
    """The boost of a spell cast as designed, the round after (L314): brightness + 1 (its damage,
    duration, targets and range follow, L305-L310), or, the Complexity roll failed, the spell
    dissipates before it works. The EP paid stay the brightness created (the boost costs a round)."""
    from .magic import boost_roll, boost_words, spell_parameters

    roll = boost_roll(pool, rng)
    ok = roll is None or bool(roll.passed)
    words = boost_words(roll, ok, design.brightness + 1)
    out.details["boost"] = {
        "ok": ok,
        "faces": [] if roll is None else list(roll.faces),
        "pool": pool,
        "brightness": design.brightness + 1 if ok else design.brightness,
    }
    if ok:
        out.details["spell"] = spell_parameters(design.brightness + 1, design.lowered)
        out.outcome = T(f"{out.outcome['en']}; {words['en']}", f"{out.outcome['ru']}; {words['ru']}")
        return
    out.success = False
    out.details["cast_outcome"] = "dissipated"
    out.outcome = dict(words)
