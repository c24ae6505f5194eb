"""Character creation and advancement (spec §4, §7.5): the point-spending operations, which
refuse illegal moves with ``RuleError`` and change nothing (the problems are in ``validation``)."""

from __future__ import annotations


from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import RuleError, T

from .data import ATTRIBUTES, SKILLS, TIERS, budgets, label


def raise_trait(c, name: str, by: int = 1, *, options: GmOptions) -> None:
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
    if new > options.trait_cap:
        raise RuleError(
            "over_cap",
            T(
                f"{lab['en']} cannot go above {options['trait_cap']}.",
                f"{lab['ru']} не может быть выше {options['trait_cap']}.",
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


def add_specialization(c, skill: str, name: str, rating: int = 1, *, options: GmOptions) -> None:
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
    _check_spec_rating(c, skill, rating, options=options)
    _check_spec_points(c, rating)
    c.update(specializations=[*c.specializations, {"skill": skill, "name": name.strip(), "rating": rating}])


def raise_specialization(c, skill: str, name: str, by: int = 1, *, options: GmOptions) -> None:
    """Raise a specialization's rating by ``by`` within the cap and the budget."""
    items = [dict(sp) for sp in c.specializations]
    for sp in items:
        if sp["skill"] == skill and sp["name"] == name:
            _check_spec_rating(c, skill, sp["rating"] + by, options=options)
            _check_spec_points(c, by)
            sp["rating"] += by
            c.update(specializations=items)
            return
    raise RuleError("no_specialization", T(f"No specialization '{name}'.", f"Нет специализации «{name}»."))


def _check_spec_rating(c, skill: str, rating: int, *, options: GmOptions) -> None:
    cap = options.trait_cap
    top = min(cap, getattr(c, skill)) if options.spec_max_equals_skill else cap
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
    points to spend. Refuses beyond Hero. Returns the points available now. In creation the tier's
    budgets grow (step 8, L178-184); in play the points go to the character's unspent pools,
    spent through ``SYSTEM.advance`` (``advancement.py``)."""
    k = TIERS.index(c.tier)
    if k == len(TIERS) - 1:
        raise RuleError("max_tier", T("Hero is the highest tier.", "Герой — высший уровень."))
    if getattr(c, "phase", "creation") == "play":
        c.update(**tier_step_changes(c))
        return {
            "attributes": c.attribute_points,
            "skills": c.skill_points,
            "specializations": c.specialization_points,
        }
    c.update(tier=TIERS[k + 1], storyteller_approved=True)
    a, s, p = budgets(c.tier)
    return {
        "attributes": a - c.attribute_points_spent,
        "skills": s - c.skill_points_spent,
        "specializations": p - c.specialization_points_spent,
    }


def tier_step_changes(c) -> dict:
    """What the next tier changes on a character in play (L752): the tier, and +5 / +10 / +6
    to its unspent attribute, skill and specialization points (the difference of the tiers'
    budgets, L749-751)."""
    k = TIERS.index(c.tier)
    new = TIERS[k + 1]
    gain = [b - a for a, b in zip(budgets(c.tier), budgets(new))]
    return {
        "tier": new,
        "storyteller_approved": True,
        "attribute_points": c.attribute_points + gain[0],
        "skill_points": c.skill_points + gain[1],
        "specialization_points": c.specialization_points + gain[2],
    }
