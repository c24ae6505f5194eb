"""Character creation and advancement (spec §4, §7.5): ``validate`` problems V1-V17 and the
point-spending operations, which refuse illegal moves with ``RuleError`` and change nothing."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import Problem, RuleError, T
from tabletop_widgets.core.i18n import plural_ru
from tabletop_widgets.core.wording import ru_n

from .data import ATTRIBUTES, SKILLS, TIERS, budgets, label


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


def validate(c, rules: Mapping[str, Any], *, at_creation: bool = False) -> list[Problem]:
    """Every creation/advancement problem (spec §4.3). Errors make the sheet illegal; warnings
    are worth a look (unspent points block "finalize" unless ``allow_unspent``)."""
    cap = rules["trait_cap"]
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
    a_budget, s_budget, p_budget = budgets(c.tier)
    allow = rules["allow_unspent"]
    out += _budget_problems(
        "attribute_points", "attribute_points_spent", c.attribute_points_spent, a_budget, "attribute", "атрибуты", allow
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
    out += _budget_problems(
        "skill_points", "skill_points_spent", c.skill_points_spent, s_budget, "skill", "навыки", allow
    )  # V4
    seen = set()
    for i, sp in enumerate(c.specializations):
        sk = label(sp["skill"])
        skill_value = getattr(c, sp["skill"])
        top = min(cap, skill_value) if rules["spec_max_equals_skill"] else cap
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
    out += _budget_problems(
        "specialization_points",
        "specialization_points_spent",
        c.specialization_points_spent,
        p_budget,
        "specialization",
        "специализации",
        allow,
    )  # V7
    if not c.archetype.strip():  # V9
        out.append(
            Problem(
                "no_archetype",
                T(
                    "Choose an Archetype (e.g., Detective, Doctor, Rebel).",
                    "Выберите Архетип (например, Детектив, Врач, Мятежник).",
                ),
                field="archetype",
                severity="warning",
            )
        )
    if not c.goal.strip():  # V10
        out.append(
            Problem("no_goal", T("Choose a current Goal.", "Выберите текущую Цель."), field="goal", severity="warning")
        )
    if not [p for p in c.problems if p.strip()]:  # V11
        out.append(
            Problem(
                "no_problem",
                T("Every character has a Problem.", "У каждого персонажа есть Проблема."),
                field="problems",
                severity="warning",
            )
        )
    if not [a for a in c.advantages if a.strip()]:  # V12
        out.append(
            Problem(
                "no_advantage",
                T(
                    "Choose an Advantage (it gives +3 dice when relevant).",
                    "Выберите Преимущество (оно даёт +3 дайса, когда уместно).",
                ),
                field="advantages",
                severity="warning",
            )
        )
    # V13 (size >= 1) is a hard limit of the model itself.
    if c.size in (3, 4) and not any(p.strip().casefold() in ("inexperienced", "неопытный") for p in c.problems):
        out.append(
            Problem(
                "child_inexperienced",
                T(  # V14 (L186)
                    "Children/teens take the Problem 'Inexperienced'.", "Дети и подростки берут Проблему «Неопытный»."
                ),
                field="problems",
                severity="warning",
            )
        )
    if c.size not in (3, 4, 5) and not c.storyteller_approved:  # §11 #40
        out.append(
            Problem(
                "unusual_size",
                T(
                    f"Size {c.size} for a character needs Storyteller approval (adults 5, teens 4, children 3).",
                    f"Размер {c.size} для персонажа — с одобрения Рассказчика (взрослый 5, подросток 4, ребёнок 3).",
                ),
                field="size",
                severity="warning",
            )
        )
    if c.tier != "novice" and not c.storyteller_approved:  # V15
        out.append(
            Problem(
                "tier_needs_approval",
                T(
                    "Experienced/Expert/Hero characters need Storyteller approval.",
                    "Опытным, экспертам и героям нужно одобрение Рассказчика.",
                ),
                field="tier",
                severity="warning",
            )
        )
    if at_creation and c.is_player_character and c.drama != c.drama_start:  # V17
        out.append(
            Problem(
                "starting_drama",
                T(
                    f"Starting Drama must equal Presence + Manipulation + Composure (= {c.drama_start}).",
                    f"Начальная Драма равна Внушительность + Манипулирование + Самообладание (= {c.drama_start}).",
                ),
                field="drama",
            )
        )
    return out


def can_finalize(problems, rules: Mapping[str, Any]) -> bool:
    """No errors, and no unspent points unless the GM allows them (§11 #19)."""
    for p in problems:
        if p.severity == "error":
            return False
        if p.code.endswith("_unspent") and not rules["allow_unspent"]:
            return False
    return True


# -----------------------------------------------------------------------------------------------
# Operations
# -----------------------------------------------------------------------------------------------
def raise_trait(c, name: str, rules: Mapping[str, Any], by: int = 1) -> None:
    """Buy ``by`` dots of an attribute or skill with creation points; refuses past the cap or the
    tier's budget (L129, L135)."""
    if name not in ATTRIBUTES and name not in SKILLS:
        raise RuleError(
            "unknown_trait", T(f"{name!r} is not an attribute or a skill", f"{name!r} — не атрибут и не навык")
        )
    if not isinstance(by, int) or by < 1:
        raise ValueError("by must be a whole number >= 1")
    lab = label(name)
    new = getattr(c, name) + by
    if new > rules["trait_cap"]:
        raise RuleError(
            "over_cap",
            T(
                f"{lab['en']} cannot go above {rules['trait_cap']}.",
                f"{lab['ru']} не может быть выше {rules['trait_cap']}.",
            ),
            trait=name,
        )
    a_budget, s_budget, _ = budgets(c.tier)
    if name in ATTRIBUTES:
        left = a_budget - c.attribute_points_spent
        kind_en, kind_ru = "attribute", "атрибутов"
    else:
        left = s_budget - c.skill_points_spent
        kind_en, kind_ru = "skill", "навыков"
    if by > left:
        raise RuleError(
            "no_points",
            T(
                f"Not enough {kind_en} points: {left} left, {by} needed.",
                f"Не хватает пунктов {kind_ru}: осталось {left}, нужно {by}.",
            ),
            trait=name,
        )
    c.update(**{name: new})


def lower_trait(c, name: str, by: int = 1) -> None:
    """Take back dots (refunds the points); refuses below the floor (attributes 1, skills 0) or when
    a specialization would lose its skill (V6)."""
    if name not in ATTRIBUTES and name not in SKILLS:
        raise RuleError(
            "unknown_trait", T(f"{name!r} is not an attribute or a skill", f"{name!r} — не атрибут и не навык")
        )
    floor = 1 if name in ATTRIBUTES else 0
    new = getattr(c, name) - by
    lab = label(name)
    if new < floor:
        raise RuleError(
            "under_floor",
            T(f"{lab['en']} cannot go below {floor}.", f"{lab['ru']} не может быть ниже {floor}."),
            trait=name,
        )
    if name in SKILLS and new == 0 and any(sp["skill"] == name for sp in c.specializations):
        raise RuleError(
            "specialization_needs_skill",
            T(
                f"Remove the specializations of {lab['en']} first.",
                f"Сначала уберите специализации навыка {lab['ru']}.",
            ),
            trait=name,
        )
    c.update(**{name: new})


def add_specialization(c, skill: str, name: str, rules: Mapping[str, Any], rating: int = 1) -> None:
    """Take a specialization (L137-141): the skill needs 1+ dot, the name must be new in the skill,
    the rating within the cap and the points within the budget."""
    if skill not in SKILLS:
        raise RuleError("unknown_skill", T(f"{skill!r} is not a skill", f"{skill!r} — не навык"))
    lab = label(skill)
    if not isinstance(name, str) or not name.strip():
        raise RuleError(
            "specialization_name", T("A specialization needs a name.", "У специализации должно быть название.")
        )
    if getattr(c, skill) < 1:
        raise RuleError(
            "specialization_without_skill",
            T(
                f"You cannot take the specialization '{name}' in {lab['en']} because {lab['en']} is 0.",
                f"Нельзя взять специализацию «{name}» в навыке {lab['ru']}: навык равен 0.",
            ),
        )
    if any(
        sp["skill"] == skill and sp["name"].strip().casefold() == name.strip().casefold() for sp in c.specializations
    ):
        raise RuleError(
            "specialization_duplicate",
            T(
                f"Duplicate specialization '{name}' in {lab['en']}.",
                f"Повтор специализации «{name}» в навыке {lab['ru']}.",
            ),
        )
    _check_spec_rating(c, skill, rating, rules)
    _check_spec_points(c, rating)
    c.update(specializations=[*c.specializations, {"skill": skill, "name": name.strip(), "rating": rating}])


def raise_specialization(c, skill: str, name: str, rules: Mapping[str, Any], by: int = 1) -> None:
    items = [dict(sp) for sp in c.specializations]
    for sp in items:
        if sp["skill"] == skill and sp["name"] == name:
            _check_spec_rating(c, skill, sp["rating"] + by, rules)
            _check_spec_points(c, by)
            sp["rating"] += by
            c.update(specializations=items)
            return
    raise RuleError("no_specialization", T(f"No specialization '{name}'.", f"Нет специализации «{name}»."))


def _check_spec_rating(c, skill, rating, rules):
    top = min(rules["trait_cap"], getattr(c, skill)) if rules["spec_max_equals_skill"] else rules["trait_cap"]
    if not isinstance(rating, int) or not 1 <= rating <= top:
        raise RuleError(
            "specialization_range",
            T(f"A specialization is rated 1–{top}.", f"Специализация оценивается от 1 до {top}."),
        )


def _check_spec_points(c, needed):
    left = budgets(c.tier)[2] - c.specialization_points_spent
    if needed > left:
        raise RuleError(
            "no_points",
            T(
                f"Not enough specialization points: {left} left, {needed} needed.",
                f"Не хватает пунктов специализаций: осталось {left}, нужно {needed}.",
            ),
        )


def advance_tier(c) -> dict[str, int]:
    """The Storyteller grants the next tier (L746-752): +5 attribute, +10 skill, +6 specialization
    points to spend. Refuses beyond Hero. Returns the new points available."""
    k = TIERS.index(c.tier)
    if k == len(TIERS) - 1:
        raise RuleError("max_tier", T("Hero is the highest tier.", "Герой — высший уровень."))
    c.update(tier=TIERS[k + 1], storyteller_approved=True)
    a, s, p = budgets(c.tier)
    return {
        "attributes": a - c.attribute_points_spent,
        "skills": s - c.skill_points_spent,
        "specializations": p - c.specialization_points_spent,
    }
