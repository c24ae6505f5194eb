"""Advancement as the book prices it (spec §7.3-§7.5, L345-L371), on the core contract
(``core/advancement.py``), wrapping the rules of ``progression.py``.

* The GM awards **experience** (``xp``, L359): every 20 make a level, and each level gained is
  one **level-up improvement** to choose (``pending_improvements``, L361).
* The GM gives **skill experience** (L355-L357) one point at a time to a skill the character
  used (``skill_xp:<key>``, an advance only the GM makes: ``by_gm``): 5 points raise the skill a
  level, never above its parameter; the point also counts towards the character's experience.
* The GM awards **epic dice** for a heroic act (L349): never more than |reputation|, campaign only.
* A level-up improvement buys one of (L363-L371): ``raise:<parameter>`` (+1, the values that
  follow it recalculated), ``feature:<id>`` (a positive feature +1 level, a negative one -1),
  ``feature:new`` (a new positive feature at level I) or ``surprise`` (the GM's random bonus
  next session).

Nothing here changes a character: :func:`plan` runs the rules on a copy and says what would change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T, clone_character
from tabletop_widgets.core.advancement import AdvancePlan, AdvanceSpec, Resource
from tabletop_widgets.core.system import OptionSpec
from tabletop_widgets.core.wording import counted, ru_n

from . import progression
from .model import PARAM_LABELS, PARAMS, feature_def, skill_def

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


@dataclass(frozen=True)
class CountedResource(Resource):
    """A :class:`Resource` whose price reads with the right plural in both languages."""

    en_forms: tuple[str, str] = ("", "")
    ru_forms: tuple[str, str, str] = ("", "", "")

    def price_text(self, amount: int, locale: str = "en") -> str:
        return counted(amount, self.en_forms, self.ru_forms)["ru" if locale == "ru" else "en"]


XP = CountedResource(
    "xp", T("Experience", "Опыт"), None, ("XP", "XP"), ("очко опыта", "очка опыта", "очков опыта")
)  # L359
IMPROVEMENTS = CountedResource(
    "pending_improvements",
    T("Level-up improvements", "Улучшения за уровень"),
    None,
    ("level-up improvement", "level-up improvements"),
    ("улучшение за уровень", "улучшения за уровень", "улучшений за уровень"),
)  # L361
EPIC_DICE = CountedResource(
    "epic_dice",
    T("Epic dice", "Эпик-дайсы"),
    None,
    ("epic die", "epic dice"),
    ("эпик-дайс", "эпик-дайса", "эпик-дайсов"),
)  # L349
RESOURCES = (XP, IMPROVEMENTS, EPIC_DICE)
ONE_IMPROVEMENT = {"pending_improvements": 1}

GROUPS = {
    "parameter": T("Level-up: a parameter", "За уровень: параметр"),
    "feature": T("Level-up: a feature", "За уровень: особенность"),
    "surprise": T("Level-up: a surprise", "За уровень: сюрприз"),
    "skill_xp": T("Skill experience (the GM gives it)", "Опыт навыков (даёт Мастер)"),
}
BY_GM = OptionSpec(
    "by_gm",
    T("Given by the GM", "Даёт Мастер"),
    "bool",
    False,
    help=T(
        "Skill experience is the GM's to give at the end of a session, one point per skill used.",
        "Опыт навыков даёт Мастер в конце сессии, по одному очку за использованный навык.",
    ),
    gm_only=True,
)


def roman(n: int) -> str:
    return ROMAN[n] if 0 <= n < len(ROMAN) else str(n)


def feature_name(c, fid: str) -> dict[str, str]:
    d = feature_def(c.TABLES, fid)
    return T(d["en"], d["ru"]) if d else T(fid.replace("_", " "), fid.replace("_", " "))


def skill_name(c, key: str) -> dict[str, str]:
    sid, _, spec = key.partition(":")
    d = skill_def(c.TABLES, sid) or {}
    en, ru = (d.get("en") or sid.replace("_", " "), d.get("ru") or sid.replace("_", " "))
    spec = spec.replace("_", " ")
    return T(f"{en} ({spec})" if spec else en, f"{ru} ({spec})" if spec else ru)


def param_cap(*, options: Mapping[str, Any]) -> int:
    return 10 if options.allow_params_above_5 else 5  # L59, L377


def _kind(c, fid: str) -> str:
    return (feature_def(c.TABLES, fid) or {}).get("kind", "positive")


def _no_improvement(c) -> dict[str, str] | None:
    if c.pending_improvements > 0:
        return None
    return T(
        f"No level-up improvement to choose: the next level comes with {c.xp_to_next} more XP.",
        f"Нет улучшения за уровень: следующий уровень — ещё через {ru_n(c.xp_to_next, 'очко опыта', 'очка опыта', 'очков опыта')}.",
    )


# -- the list ----------------------------------------------------------------------------------------
def advance_list(c, *, options: Mapping[str, Any]) -> list:
    """Every advance the book prices for ``c`` now, blocked ones with the reason."""
    out = [_raise_param(c, p, options=options) for p in PARAMS]
    out += _feature_advances(c)
    out.append(
        AdvanceSpec(
            "surprise",
            T("A surprise", "«Сюрприз»"),
            "other",
            dict(ONE_IMPROVEMENT),
            help=T(
                "Nothing now: next session the GM arranges an event that brings a random bonus "
                "(a mutation, an artifact, an amulet, a familiar...).",  # L371
                "Сейчас ничего: в следующей сессии Мастер устроит событие со случайным бонусом "
                "(мутация, артефакт, амулет, фамильяр...).",
            ),
            blocked=_no_improvement(c),
            group=GROUPS["surprise"],
        )
    )
    out += [_skill_xp(c, key, options=options) for key in sorted(c.skills)]
    return out


def _raise_param(c, p: str, *, options: Mapping[str, Any]) -> AdvanceSpec:
    now, lab = c.param(p), PARAM_LABELS[p]
    cap = param_cap(options=options)
    blocked = _no_improvement(c)
    if now >= cap:
        more = "" if cap > 5 else " Above 5 only by agreement with the GM (the GM's option)."
        more_ru = "" if cap > 5 else " Выше 5 — только по договорённости с Мастером (его настройка)."
        blocked = T(f"{lab['en']} is at its top ({cap}).{more}", f"{lab['ru']} уже на максимуме ({cap}).{more_ru}")
    return AdvanceSpec(
        f"raise:{p}",
        T(f"{lab['en']} {now} → {now + 1}", f"{lab['ru']} {now} → {now + 1}"),
        "raise",
        dict(ONE_IMPROVEMENT),
        help=T(
            "A level-up improvement: +1 to a main parameter; the additional values and health are "
            "recalculated, a shapeshifter's forms follow a physical one. The GM may refuse it if it "
            "does not fit the story.",  # L369
            "Улучшение за уровень: +1 к основному параметру; дополнительные параметры и здоровье "
            "пересчитываются, ипостаси оборотня следуют за физическим. Мастер может отказать, если "
            "это не подходит по сюжету.",
        ),
        blocked=blocked,
        group=GROUPS["parameter"],
    )


def _feature_advances(c) -> list:
    out = []
    seen = set()
    for f in c.features:
        fid = str(f.get("id", ""))
        kind = _kind(c, fid)
        if fid in seen or kind not in ("positive", "negative"):
            continue  # L367: positive features go up, negative ones down; mutations are neither
        seen.add(fid)
        name = feature_name(c, fid)
        level = int([g for g in c.features if g.get("id") == fid][-1].get("level", 1))
        top = int((feature_def(c.TABLES, fid) or {}).get("max_level", 99))
        blocked = _no_improvement(c)
        if kind == "positive":
            label = T(
                f"{name['en']} {roman(level)} → {roman(level + 1)}", f"{name['ru']} {roman(level)} → {roman(level + 1)}"
            )
            help_ = T(
                "A level-up improvement: one level more of a positive feature.",
                "Улучшение за уровень: уровень положительной особенности выше на 1.",
            )
            if level >= top:
                blocked = T(
                    f"{name['en']} is at its top level ({roman(top)}).",
                    f"«{name['ru']}» уже на наивысшем уровне ({roman(top)}).",
                )
        else:
            after = T(f"{roman(level - 1)}", f"{roman(level - 1)}") if level > 1 else T("gone", "снята")
            label = T(f"{name['en']} {roman(level)} → {after['en']}", f"{name['ru']} {roman(level)} → {after['ru']}")
            help_ = T(
                "A level-up improvement: one level less of a negative feature.",
                "Улучшение за уровень: уровень отрицательной особенности ниже на 1.",
            )
        out.append(
            AdvanceSpec(
                f"feature:{fid}",
                label,
                "raise",
                dict(ONE_IMPROVEMENT),
                help=help_,
                blocked=blocked,
                group=GROUPS["feature"],
            )
        )
    choices = new_feature_choices(c)
    blocked = _no_improvement(c)
    if not choices:
        blocked = T(
            "There is no positive feature left to take.", "Не осталось положительных особенностей, которые можно взять."
        )
    out.append(
        AdvanceSpec(
            "feature:new",
            T("A new feature (level I)", "Новая особенность (уровень I)"),
            "learn",
            dict(ONE_IMPROVEMENT),
            options=(
                OptionSpec(
                    "feature", T("Feature", "Особенность"), "choice", choices[0][0] if choices else "", choices=choices
                ),
                OptionSpec(
                    "note",
                    T("Partner / container / source / type", "Партнёр / вместилище / исток / тип"),
                    "text",
                    "",
                    help=T("What the feature asks for, if it asks.", "Что требует особенность, если требует."),
                ),
            ),
            help=T(
                "A level-up improvement: a new positive feature at level I. The GM may refuse one "
                "that does not suit the character.",  # L367
                "Улучшение за уровень: новая положительная особенность первого уровня. Мастер может "
                "отказать, если она не подходит персонажу.",
            ),
            blocked=blocked,
            group=GROUPS["feature"],
        )
    )
    return out


def new_feature_choices(c) -> tuple:
    """The positive features ``c`` does not have yet (L367), as ``(id, label)``."""
    return tuple(
        (r["id"], T(r["en"], r["ru"]))
        for r in c.TABLES.rows("features")
        if r.get("kind", "positive") == "positive" and not c.has_feature(r["id"])
    )


def _skill_xp(c, key: str, *, options: Mapping[str, Any]) -> AdvanceSpec:
    name = skill_name(c, key)
    have = int(c.skill_xp.get(key, 0))
    return AdvanceSpec(
        f"skill_xp:{key}",
        T(
            f"{name['en']}: skill XP {have} → {min(have + 1, 5)} of 5",
            f"{name['ru']}: опыт навыка {have} → {min(have + 1, 5)} из 5",
        ),
        "other",
        {},
        options=(BY_GM,),
        gm_options=("by_gm",),
        help=T(
            "The GM gives a skill used on a hard task 1 XP at the end of a session (at most 1 per "
            "skill per session, but for rare exceptions). 5 XP raise the skill by 1, never above its "
            "parameter; the point also adds to the character's experience.",  # L355-L359
            "Мастер даёт навыку, применённому в непростом деле, 1 опыт в конце сессии (не больше 1 "
            "на навык за сессию, за редким исключением). 5 опыта поднимают навык на 1, но не выше "
            "параметра; очко идёт и в общий опыт персонажа.",
        ),
        group=GROUPS["skill_xp"],
    )


# -- the plan -----------------------------------------------------------------------------------------------
def plan(c, advance_id: str, opts: Mapping[str, Any], *, options: Mapping[str, Any]) -> AdvancePlan:
    """What ``advance_id`` would do: the rules of ``progression`` run on a copy of ``c``."""
    kind, _, what = str(advance_id).partition(":")
    twin = clone_character(c)
    if kind == "skill_xp":
        return _plan_skill_xp(c, twin, what, opts, options=options)
    if c.pending_improvements <= 0:
        raise RuleError("no_improvement", _no_improvement(c))
    if kind == "raise":
        out = progression.improve_parameter(twin, what, options=options)
        lab = PARAM_LABELS[what]
        text = T(
            f"{lab['en']} {c.param(what)} → {out['value']} for 1 level-up improvement",
            f"{lab['ru']} {c.param(what)} → {out['value']} за 1 улучшение за уровень",
        )
    elif kind == "feature" and what == "new":
        fid = str(opts.get("feature") or "")
        if fid not in {k for k, _ in new_feature_choices(c)}:
            raise RuleError(
                "feature_not_offered",
                T(
                    "Choose a positive feature the character does not have yet.",
                    "Выберите положительную особенность, которой у персонажа ещё нет.",
                ),
            )
        progression.improve_feature(twin, fid, new=True, note=str(opts.get("note") or "").strip())
        name = feature_name(c, fid)
        text = T(
            f"New feature: {name['en']} I for 1 level-up improvement",
            f"Новая особенность: «{name['ru']}» I за 1 улучшение за уровень",
        )
    elif kind == "feature":
        before = c.feature_level(what)
        progression.improve_feature(twin, what)
        after = twin.feature_level(what)
        name = feature_name(c, what)
        text = T(
            f"{name['en']} {roman(before)} → {roman(after) if after else 'gone'} for 1 level-up improvement",
            f"{name['ru']} {roman(before)} → {roman(after) if after else 'снята'} за 1 улучшение за уровень",
        )
    elif kind == "surprise":
        progression.improve_surprise(twin)
        text = T(
            "A surprise from the GM next session, for 1 level-up improvement",
            "«Сюрприз» от Мастера в следующей сессии за 1 улучшение за уровень",
        )
    else:  # pragma: no cover - advance_spec refuses ids it does not list
        raise RuleError("unknown_advance", T(f"{advance_id!r} is not an advance.", f"«{advance_id}» — не развитие."))
    changes = changed(c, twin)
    changes.pop("pending_improvements", None)  # the price, paid by the contract
    return AdvancePlan(str(advance_id), dict(ONE_IMPROVEMENT), changes, text)


def _plan_skill_xp(c, twin, key: str, opts: Mapping[str, Any], *, options: Mapping[str, Any]) -> AdvancePlan:
    if not opts.get("by_gm"):
        raise RuleError(
            "gm_gives_skill_xp",
            T(
                "Skill experience is given by the GM at the end of a session.",  # L355
                "Опыт навыков даёт Мастер в конце игровой сессии.",
            ),
        )
    name = skill_name(c, key)
    report = progression.end_of_session(twin, {key: 1}, options=options)
    changes = changed(c, twin)
    if not changes:
        raise RuleError(
            "skill_xp_capped",
            T(
                f"{name['en']} is at its cap with 5 XP saved: the point would change nothing.",  # L357
                f"«{name['ru']}» упёрся в предел и накопил 5 опыта: очко ничего не изменит.",
            ),
        )
    up = report["skill_level_ups"].get(key)
    en = f"{name['en']}: +1 skill XP" + (f", the skill rises to {up}" if up else "")
    ru = f"{name['ru']}: +1 опыт навыка" + (f", навык поднимается до {up}" if up else "")
    if report["levels_gained"]:
        en += f"; the character reaches level {twin.level}"
        ru += f"; персонаж получает уровень {twin.level}"
    return AdvancePlan(f"skill_xp:{key}", {}, changes, T(en, ru))


def changed(c, twin) -> dict[str, Any]:
    """``{trait: new value}`` of the persisted traits ``twin`` has changed against ``c``."""
    return {n: getattr(twin, n) for n in c.persisted_traits() if getattr(twin, n) != getattr(c, n)}


# -- awards -------------------------------------------------------------------------------------------------
def award_changes(c, resource: str, amount: int, *, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the GM's award changes: experience brings the level-up improvements of the levels
    it makes (L359, L361); epic dice stop at |reputation| (L349); improvements come only with
    levels."""
    if resource == "xp":
        new_xp = c.xp + amount
        levels = (new_xp // progression.CHAR_XP_PER_LEVEL) - (c.xp // progression.CHAR_XP_PER_LEVEL)
        return {"xp": new_xp, "pending_improvements": c.pending_improvements + levels}
    if resource == "epic_dice":
        progression.campaign_only(c, options=options)
        top = abs(c.reputation)
        if c.epic_dice >= top:
            raise RuleError(
                "epic_dice_cap",
                T(
                    f"The character already has {c.epic_dice} epic dice, as many as |reputation| allows.",  # L349
                    f"У персонажа уже столько эпик-дайсов, сколько позволяет |репутация|: {c.epic_dice}.",
                ),
            )
        return {"epic_dice": min(top, c.epic_dice + amount)}
    raise RuleError(
        "improvements_from_levels",
        T(
            "Level-up improvements come with levels: award experience instead.",  # L359-L361
            "Улучшения за уровень приходят с уровнями: выдайте опыт.",
        ),
    )
