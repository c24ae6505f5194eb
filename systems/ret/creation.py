"""Making a character step by step (spec §4.1, L450-470), for the creation wizard
(``core/wizard.py``): the book's steps in its order, each saying what it decides, with the
running budgets the GM set (spec §4.2)."""

from __future__ import annotations

from tabletop_widgets.core import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.wording import en_n, ru_n
from tabletop_widgets.core.wizard import Budget, WizardStep

from .params import TIER3
from .validation import ability_points, parameter_points

IDENTITY = (
    "name",
    "player",
    "concept",
    "world",
    "gender",
    "age",
    "height",
    "weight",
    "appearance",
    "avatar",
    "theme_music",
)
INDICATORS = ("level", "health_max", "sanity_max", "luck_max", "strike_power", "speed", "luck")


def _names(c, kind: str) -> str:
    return ", ".join(str(a.get("name")) for a in c.abilities if a.get("kind") == kind)


IDENTITY_STEP = WizardStep(
    "identity",
    T("Idea and identity", "Идея и образ"),
    T(
        "Start from an idea: a hero you would like to play, within what the GM's world asks for. "
        "Give the character a name, and if you like a look, an age, an avatar and a theme tune.",
        "Начните с идеи: герой, которого хочется сыграть, в рамках требований мира мастера. "
        "Дайте персонажу имя и, если хотите, внешность, возраст, аватар и музыкальную тему.",
    ),
    IDENTITY,
)

BACKSTORY_STEP = WizardStep(
    "backstory",
    T("Backstory", "Квента"),
    T(
        "A short life story up to the start of play (the «quenta»): where the character comes from and "
        "what it learned on the way. Its abilities will grow out of it.",
        "Краткая предыстория до начала игры (квента): откуда персонаж и чему научился в пути. "
        "Из неё вырастут его способности.",
    ),
    ("backstory",),
)

INDICATORS_STEP = WizardStep(
    "indicators",
    T("Indicators", "Показатели"),
    T(
        "Health, Sanity, Luck, Level, Strike Power and Speed come from the tree; Luck starts full. "
        "Finish the character, then introduce it at the table: its look and first impression.",
        "Здоровье, Рассудок, Удача, Уровень, Сила Удара и Скорость следуют из дерева; Удача в начале "
        "полная. Завершите персонажа и представьте его за столом: внешность и первое впечатление.",
    ),
    INDICATORS,
)


def _abilities_step(*, options: GmOptions) -> WizardStep:
    """The skills and the talent agreed with the GM (L456-460)."""
    ns, nt = int(options.n_skills), int(options.n_talents)
    return WizardStep(
        "abilities",
        T("Skills and a talent", "Навыки и талант"),
        T(
            f"Choose with the GM {en_n(ns, 'skill', 'skills')} and {en_n(nt, 'talent', 'talents')}, "
            "starting at level "
            f"{int(options.start_level_skill)}. A skill adds its level to a parameter's roll; a talent "
            "rolls its own die and adds its parameter. The GM sets the parameter each ability is based "
            "on and agrees any superpower (its limits and Sanity cost).",
            f"Выберите вместе с мастером {ru_n(ns, 'навык', 'навыка', 'навыков')} и "
            f"{ru_n(nt, 'талант', 'таланта', 'талантов')} со стартовым уровнем "
            f"{int(options.start_level_skill)}. Навык прибавляет свой уровень к броску параметра; талант "
            "бросает свой куб и прибавляет уровень основы. Основу каждой способности выбирает мастер, он же "
            "согласует сверхспособности (их границы и цену в Рассудке).",
        ),
        ("abilities",),
        ("skills", "talents"),
    )


def _kit_step(*, options: GmOptions) -> WizardStep:
    """The starting kit, when the GM allows one (L461)."""
    return WizardStep(
        "kit",
        T("Starting kit", "Стартовое снаряжение"),
        T(
            f"If the GM allows: some money, one basic weapon and "
            f"{en_n(int(options.starting_extra_items), 'more item', 'more items')}.",
            f"Если мастер разрешает: немного денег, одно базовое оружие и ещё "
            f"{ru_n(int(options.starting_extra_items), 'предмет', 'предмета', 'предметов')}.",
        ),
        ("money", "weapons", "items"),
        ("items",),
    )


def _points_step(c, *, options: GmOptions) -> WizardStep:
    """The development points on the tree and the abilities (L462-465)."""
    start, cap = int(options.start_level_param), int(options.creation_cap)
    picked = T("", "")
    skills, talents = _names(c, "skill"), _names(c, "talent")
    if skills or talents:
        picked = T(
            f" Your skills: {skills or 'none yet'}; talents: {talents or 'none yet'}.",
            f" Ваши навыки: {skills or 'пока нет'}; таланты: {talents or 'пока нет'}.",
        )
    scheme = (
        T("each level costs 1 point", "каждый уровень стоит 1 очко")
        if options.costing_at_creation == "simplified"
        else T("raising from level L costs L points", "повышение с уровня L стоит L очков")
    )
    return WizardStep(
        "points",
        T("Development points", "Очки развития"),
        T(
            f"Every parameter starts at {start}. Spend the GM's parameter points on the twelve parameters of "
            f"the tree's third tier and the ability points on your skills and talents ({scheme['en']}; "
            f"at most level {cap} at the start). The upper tiers follow by themselves.{picked['en']}",
            f"Каждый параметр начинается с {start}. Распределите очки развития параметров мастера по "
            f"двенадцати параметрам третьего уровня дерева, а очки способностей — по навыкам и талантам "
            f"({scheme['ru']}; на старте не выше {cap}-го уровня). Верхние уровни пересчитываются сами."
            f"{picked['ru']}",
        ),
        (*TIER3, "abilities"),
        ("param_dp", "ability_dp"),
    )


def steps(c, *, options: GmOptions) -> list[WizardStep]:
    """The book's creation order: the idea and who the character is (L452-454), the backstory
    (L455), the abilities agreed with the GM (L456-460), the starting kit (L461), the development
    points on the tree and on the abilities (L462-465), then the indicators to write down
    (L466)."""
    return [
        IDENTITY_STEP,
        BACKSTORY_STEP,
        _abilities_step(options=options),
        _kit_step(options=options),
        _points_step(c, options=options),
        INDICATORS_STEP,
    ]


def budgets(c, *, options: GmOptions) -> dict[str, Budget]:
    """The running budgets: skills and talents picked of the number the game starts with (L457),
    the extra items of the kit (L461), the parameter and ability development points spent of what
    the GM gave (L462)."""
    extra = [i for i in c.items if not i.get("is_money")]
    return {
        "skills": Budget(
            T("Skills", "Навыки"), sum(1 for a in c.abilities if a.get("kind") == "skill"), int(options.n_skills)
        ),
        "talents": Budget(
            T("Talents", "Таланты"), sum(1 for a in c.abilities if a.get("kind") == "talent"), int(options.n_talents)
        ),
        "items": Budget(T("Extra items", "Доп. предметы"), len(extra), int(options.starting_extra_items)),
        "param_dp": Budget(
            T("Parameter points", "Очки параметров"),
            sum(parameter_points(c, options=options).values()),
            int(options.param_dp),
        ),
        "ability_dp": Budget(
            T("Ability points", "Очки способностей"), ability_points(c, options=options), int(options.ability_dp)
        ),
    }
