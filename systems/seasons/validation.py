"""Character creation and advancement problems (spec §4.3, §7.5): ``validate`` reports V1-V17
(errors make a sheet illegal, warnings are worth a look) and ``can_finalize`` says whether the
character may leave creation."""

from __future__ import annotations

from typing import Any, Iterable

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import Problem, T
from tabletop_widgets.core.i18n import plural_ru
from tabletop_widgets.core.wording import ru_n

from .data import ATTRIBUTES, SKILLS, budgets, label


def _budget_problems(
    code: str, field: str, spent: int, budget: int, what_en: str, what_ru: str, allow_unspent: bool
) -> list[Problem]:
    if spent > budget:
        over = spent - budget
        return [
            Problem(
                f"{code}_over",
                T(
                    f"You spent {spent} of {budget} {what_en} points ({over} {'point' if over == 1 else 'points'} too many).",
                    f"Распределено {spent} из {ru_n(budget, 'пункта', 'пунктов', 'пунктов')} ({what_ru}): на {ru_n(over, 'пункт', 'пункта', 'пунктов')} больше.",
                ),
                field=field,
                data={"spent": spent, "budget": budget},
            )
        ]
    if spent < budget:
        return [
            Problem(
                f"{code}_unspent",
                T(
                    f"{budget - spent} {what_en} {'point' if budget - spent == 1 else 'points'} unspent ({spent} of {budget}).",
                    f"Не распределено {budget - spent} {plural_ru(budget - spent, 'пункт', 'пункта', 'пунктов')} ({what_ru}): {spent} из {budget}.",
                ),
                field=field,
                severity="warning",
                data={"spent": spent, "budget": budget, "blocks_finalize": not allow_unspent},
            )
        ]
    return []


def _warning(code: str, en: str, ru: str, field: str) -> Problem:
    return Problem(code, T(en, ru), field=field, severity="warning")


def validate(c, *, options: GmOptions, at_creation: bool | None = None) -> list[Problem]:
    """Every problem of the sheet (spec §4.3) by the character's phase. Errors make the sheet
    illegal; warnings are worth a look (unspent points block "finalize" unless ``allow_unspent``).

    Always: the ranges (V1, V3, V5), a specialization's skill and its name (V6, V8), a melee
    weapon marked Dexterity (a warning: it strikes with Strength, L505-506). Only in
    creation (``at_creation``; None: the character's ``phase`` says): the point budgets of the
    tier (V2, V4, V7, L129, L135, L141), the required picks of steps 1-3 (V9-V12, L108-123) and
    the Storyteller's approvals and the child's Problem (V14, V15, §11 #40, L178-186; an
    unapproved tier above Novice blocks play, L185), and the unspent advancement pools, which
    are 0 at creation (errors; they fill in play, L752). In play
    the points a new tier gives (L752) are the character's unspent pools, spent through
    ``SYSTEM.advance`` (``advancement.py``); Drama is spent, Goals, Problems and Advantages change
    (L112, L116, L121). The starting Drama (L147) is not the player's to type: ``start_play``
    sets it (``play_changes``)."""
    if at_creation is None:
        at_creation = getattr(c, "phase", "creation") == "creation"
    out = _trait_problems(c, options=options, budgets_too=at_creation)
    out += _specialization_problems(c, options=options, budget_too=at_creation)
    out += _weapon_problems(c)
    if at_creation:
        out += _pool_problems(c)
        out += _story_problems(c)
        out += _approval_problems(c)
    values = {n: getattr(c, n) for n in c.persisted_traits()}
    out += [p for p in type(c).check_values(values) if p.code == "active_not_listed"]
    return out


def validate_party(characters: Iterable[Any], *, options: GmOptions) -> list[Problem]:
    """Problems between the characters of a party: none in this book (no rule of «Времена
    Года» spans several sheets; each sheet's own problems come from :func:`validate`)."""
    return []


def _trait_problems(c, *, options: GmOptions, budgets_too: bool = True) -> list[Problem]:
    """V1-V4: attribute and skill ranges, attribute and skill budgets (``budgets_too``)."""
    cap = options.trait_cap
    out: list[Problem] = []
    for name in ATTRIBUTES:  # V1
        v = getattr(c, name)
        if not 1 <= v <= cap:
            lab = label(name)
            out.append(
                Problem(
                    "attribute_range",
                    T(
                        f"{lab['en']} is {v}; human attributes range from 1 to {cap}"
                        + (" (the Storyteller may raise the cap to 10)." if cap < 10 else "."),
                        f"{lab['ru']}: {v}; атрибуты людей от 1 до {cap}"
                        + (" (Рассказчик может поднять предел до 10)." if cap < 10 else "."),
                    ),
                    field=name,
                )
            )
    a_budget, s_budget, _ = budgets(c.tier)
    allow = options.allow_unspent
    if budgets_too:
        out += _budget_problems(
            "attribute_points",
            "attribute_points_spent",
            c.attribute_points_spent,
            a_budget,
            "attribute",
            "атрибуты",
            allow,
        )  # V2
    for name in SKILLS:  # V3
        v = getattr(c, name)
        if not 0 <= v <= cap:
            lab = label(name)
            out.append(
                Problem(
                    "skill_range",
                    T(f"{lab['en']} is {v}; skills range from 0 to {cap}.", f"{lab['ru']}: {v}; навыки от 0 до {cap}."),
                    field=name,
                )
            )
    if budgets_too:
        out += _budget_problems(
            "skill_points", "skill_points_spent", c.skill_points_spent, s_budget, "skill", "навыки", allow
        )  # V4
    return out


def _specialization_problems(c, *, options: GmOptions, budget_too: bool = True) -> list[Problem]:
    """V5-V8: specialization ratings, their skills, duplicates and the budget."""
    cap = options.trait_cap
    out: list[Problem] = []
    seen = set()
    for i, sp in enumerate(c.specializations):
        sk = label(sp["skill"])
        skill_value = getattr(c, sp["skill"])
        top = min(cap, skill_value) if options.spec_max_equals_skill else cap
        if not 1 <= sp["rating"] <= top:  # V5 (and §11 #18 when the GM caps by the skill)
            out.append(
                Problem(
                    "specialization_range",
                    T(
                        f"Specialization '{sp['name']}' must be rated 1–{top}.",
                        f"Специализация «{sp['name']}» должна быть от 1 до {top}.",
                    ),
                    field="specializations",
                    data={"index": i},
                )
            )
        if skill_value < 1:  # V6 (L141)
            out.append(
                Problem(
                    "specialization_without_skill",
                    T(
                        f"You cannot take the specialization '{sp['name']}' in {sk['en']} because {sk['en']} is 0.",
                        f"Нельзя взять специализацию «{sp['name']}» в навыке {sk['ru']}: навык равен 0.",
                    ),
                    field="specializations",
                    data={"index": i},
                )
            )
        key = (sp["skill"], sp["name"].strip().casefold())
        if key in seen:  # V8
            out.append(
                Problem(
                    "specialization_duplicate",
                    T(
                        f"Duplicate specialization '{sp['name']}' in {sk['en']}.",
                        f"Повтор специализации «{sp['name']}» в навыке {sk['ru']}.",
                    ),
                    field="specializations",
                    data={"index": i},
                )
            )
        seen.add(key)
    if not budget_too:
        return out
    out += _budget_problems(
        "specialization_points",
        "specialization_points_spent",
        c.specialization_points_spent,
        budgets(c.tier)[2],
        "specialization",
        "специализации",
        options.allow_unspent,
    )  # V7
    return out


def _weapon_problems(c) -> list[Problem]:
    """A melee weapon marked Dexterity: its blows are Strength + Melee (L92, L505); Dexterity +
    Melee is the feint, which deals no damage (L506). The attack uses Strength; this says so."""
    out: list[Problem] = []
    for i, w in enumerate(c.weapons):
        if not isinstance(w, dict) or w.get("skill", "melee") != "melee" or w.get("attribute") != "dexterity":
            continue
        name = str(w.get("name", "")).strip() or "?"
        out.append(
            Problem(
                "melee_weapon_dexterity",
                T(
                    f"{name}: a melee weapon strikes with Strength (Strength + Melee + its bonus); Dexterity + "
                    "Melee is a feint, which deals no damage. Set its attribute to Strength.",
                    f"{name}: оружие ближнего боя бьёт Силой (Сила + Ближний Бой + бонус оружия); Ловкость + "
                    "Ближний Бой — это финт, он урона не наносит. Укажите атрибут Сила.",
                ),
                field="weapons",
                severity="warning",
                data={"index": i},
            )
        )
    return out


#: The unspent advancement pools (L752) and their words.
_POOLS = (
    ("attribute_points", "attribute", "атрибутов"),
    ("skill_points", "skill", "навыков"),
    ("specialization_points", "specialization", "специализаций"),
)


def _pool_problems(c) -> list[Problem]:
    """At creation the unspent advancement points are 0 (the book's start): they come in play
    from a new tier the Storyteller grants (L752), or from creation points the Storyteller let
    stay unspent, which ``start_play`` moves there (§11 #19). A number typed in creation would
    start play with points the book never gave (errors: they block start_play)."""
    out: list[Problem] = []
    for pool, en, ru in _POOLS:
        n = getattr(c, pool)
        if n:
            out.append(
                Problem(
                    "advancement_points_at_creation",
                    T(
                        f"Unspent {en} points: {n}. They come in play, with a new tier the Storyteller grants "
                        f"(+5 / +10 / +6); at creation spend the tier's {en} points on the sheet and leave this at 0.",
                        f"Не потрачено пунктов {ru}: {n}. Они появляются в игре, с новым уровнем опыта от "
                        "Рассказчика (+5 / +10 / +6); при создании распределите пункты уровня на листе, а здесь "
                        "оставьте 0.",
                    ),
                    field=pool,
                    data={"value": n},
                )
            )
    return out


def _story_problems(c) -> list[Problem]:
    """V9-V12: Archetype, Goal, Problem and Advantage (warnings)."""
    rows = (
        (
            not c.archetype.strip(),  # V9
            "no_archetype",
            "Choose an Archetype (e.g., Detective, Doctor, Rebel).",
            "Выберите Архетип (например, Детектив, Врач, Мятежник).",
            "archetype",
        ),
        (not c.goal.strip(), "no_goal", "Choose a current Goal.", "Выберите текущую Цель.", "goal"),  # V10
        (
            not [p for p in c.problems if p.strip()],  # V11
            "no_problem",
            "Every character has a Problem.",
            "У каждого персонажа есть Проблема.",
            "problems",
        ),
        (
            not [a for a in c.advantages if a.strip()],  # V12
            "no_advantage",
            "Choose an Advantage (it gives +3 dice when relevant).",
            "Выберите Преимущество (оно даёт +3 дайса, когда уместно).",
            "advantages",
        ),
    )
    return [_warning(code, en, ru, field) for failed, code, en, ru, field in rows if failed]


def _approval_problems(c) -> list[Problem]:
    """V13-V15: what needs the Storyteller's approval (size, tier). V13 (size >= 1) is a hard
    limit of the model itself."""
    inexperienced = any(p.strip().casefold() in ("inexperienced", "неопытный") for p in c.problems)
    rows = (
        (
            c.size in (3, 4) and not inexperienced,  # V14 (L186)
            "child_inexperienced",
            "Children/teens take the Problem 'Inexperienced'.",
            "Дети и подростки берут Проблему «Неопытный».",
            "problems",
        ),
        (
            c.size not in (3, 4, 5) and not c.storyteller_approved,  # §11 #40
            "unusual_size",
            f"Size {c.size} for a character needs Storyteller approval (adults 5, teens 4, children 3).",
            f"Размер {c.size} для персонажа — с одобрения Рассказчика (взрослый 5, подросток 4, ребёнок 3).",
            "size",
        ),
        (
            c.tier != "novice" and not c.storyteller_approved,  # V15
            "tier_needs_approval",
            "Experienced/Expert/Hero characters need Storyteller approval.",
            "Опытным, экспертам и героям нужно одобрение Рассказчика.",
            "tier",
        ),
    )
    out = [_warning(code, en, ru, field) for failed, code, en, ru, field in rows if failed]
    for p in out:
        if p.code == "tier_needs_approval":
            # L185: the higher tier is the Storyteller's to allow; without it play does not start
            p.data["blocks_finalize"] = True
    return out


def can_finalize(problems, *, options: GmOptions) -> bool:
    """No errors, and no unspent points unless the GM allows them (§11 #19)."""
    for p in problems:
        if p.severity == "error":
            return False
        if p.code.endswith("_unspent") and not options.allow_unspent:
            return False
        if p.code == "tier_needs_approval":
            return False
    return True


__all__ = ["can_finalize", "validate", "validate_party"]
