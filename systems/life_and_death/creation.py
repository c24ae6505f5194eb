"""The creation wizard (spec §4, L41-L188): the book's steps in order, each saying what it
decides, with the running budgets (age points, skill points per parameter, feature points,
inventory points). Steps follow earlier choices: the reputation is asked in a campaign only,
the forms of a shapeshifter and the familiar of a Bound pattern only when the character has them.

Plain data for ``core.wizard.Wizard``; the rules themselves are ``validation.py``'s.
"""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import T
from tabletop_widgets.core.wizard import Budget, WizardStep

from . import data
from .model import PARAM_LABELS, PARAMS, SKILL_PARAMS


#: The steps every character goes through first, in the book's order (spec §4 steps 0-4).
FIRST_STEPS = (
    WizardStep(
        "game",
        T("Quick game or campaign", "Быстрая игра или кампания"),
        T(
            "A campaign keeps reputation and epic dice; a quick game does without them.",  # L7, L47, L347
            "В кампании есть репутация и эпик-дайсы; в быстрой игре их нет.",
        ),
        ("mode",),
    ),
    WizardStep(
        "race",
        T("Race", "Раса"),
        T(
            "Your race sets the starting value of each of the six parameters (1 to 5) and gives "
            "its racial features. Choose it from the GM's list and enter its six values; its base HP "
            "is the race's, else the house default the GM set (the book gives no number).",  # L43-L45
            "Раса задаёт начальное значение каждого из шести параметров (от 1 до 5) и даёт расовые "
            "особенности. Выберите её из списка Мастера и впишите шесть её значений; базовое HP — "
            "расы, иначе домашнее правило Мастера (в книге числа нет).",
        ),
        ("race", "race_params", "base_hp"),
    ),
    WizardStep(
        "age",
        T("Age", "Возраст"),
        T(
            "The age category moves a point between two parameters (when the race's value allows) "
            "and gives free parameter points and feature points: the younger, the fewer "
            "parameter points and the more feature points.",  # L49-L78
            "Возрастная категория переносит единицу между двумя параметрами (если расовое значение "
            "позволяет) и даёт свободные очки параметров и очки особенностей: чем моложе, тем "
            "меньше очков параметров и больше очков особенностей.",
        ),
        ("age",),
    ),
    WizardStep(
        "parameters",
        T("Parameters", "Параметры"),
        T(
            "Put the age's free points on any parameters, one level each; no parameter goes "
            "above 5. The parameters follow their racial value, the age and these points.",  # L55, L59
            "Распределите свободные очки возраста по любым параметрам, по уровню за очко; выше 5 "
            "параметр не поднимается. Параметры складываются из расы, возраста и этих очков.",
        ),
        ("param_points",) + PARAMS,
        ("param_points",),
    ),
    WizardStep(
        "skills",
        T("Skills", "Навыки"),
        T(
            "Each of Might, Dexterity, Alertness and Complexity gives as many skill points as its "
            "level, for skills of that parameter; no skill goes above its parameter. Energetics "
            "skills hang off Complexity and are all harmonious or all chaotic.",  # L80-L90
            "Сила, Ловкость, Восприятие и Сложность дают столько очков навыков, каков их уровень, на "
            "навыки этого параметра; навык не выше своего параметра. Навыки энергетики — от "
            "Сложности, и все они либо гармонические, либо хаотические.",
        ),
        ("skills", "custom_skills", "direction"),
        tuple(f"skills_{p}" for p in SKILL_PARAMS),
    ),
    WizardStep(
        "features",
        T("Features", "Особенности"),
        T(
            "The age's feature points buy positive features and mutations, a point a level (the "
            "first mutation costs one more). Up to two levels of negative features give a point "
            "each.",  # L92-L104
            "Очки особенностей за возраст покупают положительные особенности и мутации, по очку за "
            "уровень (первая мутация на очко дороже). До двух уровней отрицательных особенностей "
            "дают по очку.",
        ),
        ("features", "affinity"),
        ("feature_points",),
    ),
)


def steps(c, *, options: Mapping[str, Any]) -> list[WizardStep]:
    """The creation steps for ``c`` as it stands."""
    out = list(FIRST_STEPS)
    if c.is_shapeshifter:
        out.append(
            WizardStep(
                "forms",
                T("Forms", "Ипостаси"),
                T(
                    "A shapeshifter has one form, two more per level of Transformation; the forms' tiers "
                    "add up to at most 10 and none is above Luck.",  # L109-L117
                    "У оборотня одна ипостась и ещё две за каждый уровень трансформации; сумма уровней "
                    "ипостасей не больше 10, и ни один не выше Удачи.",
                ),
                ("forms",),
            )
        )
    details = ("name", "faith", "belief")
    if c.mode != "quick" and options.mode != "quick":
        details += ("reputation",)
    out.append(
        WizardStep(
            "details",
            T("Name and faith", "Имя и вера"),
            T(
                "A given name and perhaps a nickname, without hyphens or apostrophes; a patron deity "
                "if you like. In a campaign reputation starts at +1 for a good race and -1 for an evil "
                "one or a mutant.",  # L47, L97, L132-L142
                "Имя и, может быть, прозвище, без дефисов и апострофов; божество-покровитель по желанию. "
                "В кампании репутация начинается с +1 у доброй расы и с -1 у злой или у мутанта.",
            ),
            details,
        )
    )
    out.append(
        WizardStep(
            "inventory",
            T("Inventory", "Инвентарь"),
            T(
                "Ten inventory points (twenty when Well-Stocked) buy weapons, armour, potions, "
                "amulets, simple items, money and pets.",  # L144-L182
                "Десять очков инвентаря (двадцать с «запасливостью») идут на оружие, броню, зелья, "
                "амулеты, простые предметы, деньги и питомцев.",
            ),
            ("inventory", "helmet", "money", "pets"),
            ("inventory",),
        )
    )
    if c.has_feature("bound_pattern"):
        out.append(
            WizardStep(
                "familiar",
                T("Familiar", "Фамильяр"),
                T(
                    "A Bound pattern with a beast makes it your familiar: note the creature here.",  # L184-L188
                    "Связанный узор со зверем делает его вашим фамильяром: запишите существо здесь.",
                ),
                ("familiar",),
            )
        )
    return out


def budgets(c) -> dict[str, Budget]:
    """The running budgets of creation as they stand."""
    age = data.row(c.TABLES, "ages", c.age) if c.age else None
    out = {
        "param_points": Budget(
            T("Age points for parameters", "Очки возраста на параметры"),
            sum(int(v) for v in c.param_points.values()),
            int(age["free_params"]) if age else 0,
        )
    }
    for p in SKILL_PARAMS:
        b = c.skill_budget.get(p, {"used": 0, "budget": 0})
        lab = PARAM_LABELS[p]
        out[f"skills_{p}"] = Budget(
            T(f"Skill points of {lab['en']}", f"Очки навыков: {lab['ru']}"), b["used"], b["budget"]
        )
    fp = c.feature_points
    out["feature_points"] = Budget(T("Feature points", "Очки особенностей"), fp["cost"], fp["available"])
    spent = c.inv_points_spent
    out["inventory"] = Budget(
        T("Inventory points", "Очки инвентаря"), int(spent) if spent == int(spent) else spent, c.inv_points
    )
    return out
