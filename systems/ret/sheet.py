"""The RET character sheet layout (spec §10.1) for the generic CharacterSheet widget."""

from __future__ import annotations

from tabletop_widgets.core import T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_MONEY, OPEN_SMALL, Field, Section, Sheet

from .params import LABELS, PARENT, TREE, TREE_ORDER, tier

_FORMULA = {
    node: T(
        f"{LABELS[node]['en']} = ({LABELS[a]['en']} + {LABELS[b]['en']}) // 2",
        f"{LABELS[node]['ru']} = ({LABELS[a]['ru']} + {LABELS[b]['ru']}) // 2",
    )
    for node, (a, b) in TREE.items()
}


def _tree_field(node: str) -> Field:
    if tier(node) == 3:
        return Field(
            node,
            LABELS[node],
            "input",
            min=0,
            max=8,
            help=T(
                "Raised with development points; the die follows the level (3 = d6, 4 = d8, 5 = d10, 6 = d12, 7 = d20)",
                "Повышается очками развития; куб зависит от уровня (3 = d6, 4 = d8, 5 = d10, 6 = d12, 7 = d20)",
            ),
            tier=3,
            parent=PARENT[node],
            die_label=True,
            creation_only=True,  # in play only development points raise it (L278)
            extra={"npc_max": 8},
        )
    return Field(
        node,
        LABELS[node],
        "derived",
        help=_FORMULA[node],
        tier=tier(node),
        parent=PARENT.get(node),
        die_label=True,
    )


_ABILITY_CHOICES = tuple((n, LABELS[n]) for n in TREE_ORDER)

SHEET = Sheet(
    (
        Section(
            "identity",
            T("Identity", "Персонаж"),
            (
                Field("name", T("Name", "Имя"), "text"),
                Field("player", T("Player", "Игрок"), "text"),
                Field("concept", T("Concept", "Концепция"), "text"),
                Field("world", T("Game / world", "Игра / мир"), "text"),
                Field("gender", T("Gender", "Пол"), "text"),
                Field("age", T("Age", "Возраст"), "text", min=0, max=OPEN_LARGE, max_length=40),
                Field("height", T("Height", "Рост"), "text"),
                Field("weight", T("Weight", "Вес"), "text"),
                Field("appearance", T("Appearance", "Внешность"), "longtext"),
                Field("avatar", T("Avatar (image)", "Аватар (изображение)"), "text"),
                Field("theme_music", T("Theme music", "Музыкальная тема"), "text"),
                Field("backstory", T("Backstory", "Квента"), "longtext"),
                Field("is_npc", T("NPC", "Противник"), "flag"),  # the book's word, L1731
                Field(
                    "npc_tier",
                    T("NPC tier", "Категория противника"),
                    "choice",
                    choices=(
                        ("mook", T("Nameless (mook)", "Безымянный")),
                        ("regular", T("Regular", "Обычный")),
                        ("important", T("Important", "Важный")),
                        ("boss", T("Boss", "Босс")),
                    ),
                ),
            ),
            layout="grid",
            columns=2,
        ),
        Section(
            "parameters",
            T("Parameters", "Параметры"),
            tuple(_tree_field(n) for n in TREE_ORDER),
            layout="tree",
            columns=3,
            extra={
                "branches": {
                    "mind": ["intellect", "perception"],
                    "emotions": ["empathy", "will"],
                    "body": ["strength", "agility"],
                }
            },
        ),
        Section(
            "indicators",
            T("Indicators", "Показатели"),
            (
                Field(
                    "level",
                    T("Level", "Уровень"),
                    "derived",
                    help=T("(Mind + Emotions + Body) // 3", "(Разум + Эмоции + Тело) // 3"),
                ),
                Field("strike_power", T("Strike Power", "Сила Удара"), "derived", help=T("Strength // 2", "Сила // 2")),
                Field(
                    "speed",
                    T("Speed", "Скорость"),
                    "derived",
                    help=T("= Agility (steps per turn)", "= Ловкость (шагов за ход)"),
                ),
                Field("health_max", T("Health (max)", "Здоровье (макс.)"), "derived", help=T("2 × Body", "2 × Тело")),
                Field(
                    "sanity_max",
                    T("Sanity (max)", "Рассудок (макс.)"),
                    "derived",
                    help=T("Mind + Emotions", "Разум + Эмоции"),
                ),
                Field(
                    "luck_max",
                    T("Luck (max)", "Удача (макс.)"),
                    "derived",
                    help=T("2 × Level (or the GM's value)", "2 × Уровень (или значение мастера)"),
                ),
                Field(
                    "luck_max_override",
                    T("Luck max set by the GM", "Макс. Удачи от мастера"),
                    "input",
                    min=0,
                    max=OPEN_SMALL,
                    gm_only=True,
                ),
            ),
            layout="grid",
            columns=3,
        ),
        Section(
            "resources",
            T("Resources", "Ресурсы"),
            (
                Field(
                    "health",
                    T("Health", "Здоровье"),
                    "resource",
                    min=-OPEN_LARGE,
                    max=16,
                    max_trait="health_max",
                    help=T(
                        "May go negative: below 0 — survival rolls (Endurance vs |Health|)",
                        "Может быть отрицательным: ниже 0 — броски на выживание (Выносливость против |Здоровья|)",
                    ),
                    extra={"negative_ok": True, "threshold_factor": -3},
                ),
                Field(
                    "sanity",
                    T("Sanity", "Рассудок"),
                    "resource",
                    min=-OPEN_LARGE,
                    max=16,
                    max_trait="sanity_max",
                    help=T(
                        "Spent on extra turns and superpowers; below 0 — self-control rolls",
                        "Тратится на доп. ходы и сверхспособности; ниже 0 — броски на самоконтроль",
                    ),
                    extra={"negative_ok": True, "threshold_factor": -3},
                ),
                Field(
                    "luck",
                    T("Luck", "Удача"),
                    "resource",
                    min=0,
                    max=OPEN_SMALL,
                    max_trait="luck_max",
                    help=T(
                        "Declared before a roll; may exceed the maximum; refilled each game session",
                        "Заявляется до броска; может превышать максимум; восполняется каждую игру",
                    ),
                    extra={"may_exceed_max": True},
                ),
                Field("temp_armour", T("Temporary armour", "Временная броня"), "input", min=0, max=OPEN_SMALL),
                Field(
                    "temp_armour_kind",
                    T("Temporary armour kind", "Вид временной брони"),
                    "choice",
                    choices=(
                        ("skin", T("Skin hardening (after armour)", "Усиление кожи (после брони)")),  # L1426
                        ("shield", T("Energy shield (before armour)", "Энергетический щит (до брони)")),
                    ),
                ),  # L1427
                Field("temp_armour_expiry", T("Expires", "Истекает"), "text"),
                Field("stabilised_health", T("Stabilised (Health)", "Стабилизирован (Здоровье)"), "flag"),
                Field("stabilised_sanity", T("Stabilised (Sanity)", "Стабилизирован (Рассудок)"), "flag"),
                Field("dead", T("Dead", "Смерть"), "flag"),
            ),
            layout="resources",
        ),
        Section(
            "abilities",
            T("Skills and talents", "Навыки и таланты"),
            (
                Field(
                    "abilities",
                    T("Abilities", "Способности"),
                    "list",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field(
                            "kind",
                            T("Kind", "Вид"),
                            "choice",
                            choices=(
                                ("skill", T("Skill", "Навык")),
                                ("talent", T("Talent", "Талант")),
                                ("ultimate", T("Ultimate", "Ультимативная")),
                            ),
                        ),
                        Field("base_param", T("Base parameter", "Основа"), "choice", choices=_ABILITY_CHOICES),
                        Field("level", T("Level", "Уровень"), "input", min=1, max=7),
                        Field("parent_talent", T("Parent talent (ultimate)", "Родительский талант"), "text"),
                        Field("category", T("Category", "Категория"), "choice", source="ability_categories"),
                        Field("is_superpower", T("Superpower", "Сверхспособность"), "flag"),
                        Field("sanity_cost", T("Sanity cost", "Цена в Рассудке"), "input", min=0, max=OPEN_SMALL),
                        Field("divider", T("Divider", "Делитель"), "text", gm_only=True),
                        Field("used", T("Used this session", "Применена в этой игре"), "flag"),
                        Field("restrictions", T("Restrictions", "Ограничения"), "text"),
                        Field("notes", T("Notes", "Заметки"), "text"),
                    ),
                    help=T(
                        "Skill: die of the base parameter + skill level. Talent: own die + base parameter level.",
                        "Навык: куб основы + уровень навыка. Талант: свой куб + уровень основы.",
                    ),
                    creation_only=True,  # in play: development points and the GM's grants (L278, L1749-1757)
                ),
            ),
            layout="table",
        ),
        Section(
            "flaws",
            T("Flaws", "Недостатки"),
            (
                Field(
                    "flaws",
                    T("Flaws", "Недостатки"),
                    "list",
                    source="flaws",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("severity", T("Severity", "Сложность недостатка"), "choice", source="flaws"),  # L1667
                        Field("strength", T("Flaw strength", "Сила недостатка"), "input", min=0, max=OPEN_SMALL),
                        Field("base_param", T("Base parameter", "Основа"), "choice", choices=_ABILITY_CHOICES),
                        Field("level", T("Flaw level", "Уровень недостатка"), "input", min=1, max=7),
                    ),
                    help=T(
                        "Difficulty = strength − current Sanity − flaw level",
                        "Сложность = сила − текущий Рассудок − уровень",
                    ),
                    creation_only=True,  # in play: the GM gives flaws, development points raise them (L1658)
                ),
            ),
            layout="table",
        ),
        Section(
            "equipment",
            T("Equipment", "Снаряжение"),
            (
                Field(
                    "weapons",
                    T("Weapons", "Оружие"),
                    "list",
                    source="weapons",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("category", T("Category", "Категория"), "choice", source="weapons"),
                        Field(
                            "kind",
                            T("Kind", "Тип"),
                            "choice",
                            choices=(
                                ("melee", T("Melee", "Ближний бой")),
                                ("ranged", T("Ranged", "Дистанционное")),
                                ("thrown", T("Thrown", "Метательное")),
                            ),
                        ),
                        Field("damage", T("Weapon Damage", "Урон Оружия"), "input", min=0, max=OPEN_SMALL),
                        Field(
                            "attack_param", T("Attack parameter", "Параметр атаки"), "choice", choices=_ABILITY_CHOICES
                        ),
                        Field("adds_strike_power", T("Adds Strike Power", "Добавляет Силу Удара"), "flag"),
                        Field("one_handed", T("One-handed", "Одноручное"), "flag"),
                        Field("heavy", T("Heavy", "Тяжёлое"), "flag"),
                        Field("automatic", T("Automatic", "Автоматическое"), "flag"),
                        Field("reach", T("Reach (steps)", "Досягаемость (шаги)"), "input", min=1, max=OPEN_SMALL),
                        Field("ammo", T("Ammo", "Боезапас"), "input", min=0, max=OPEN_LARGE),
                        Field("capacity", T("Magazine", "Магазин"), "input", min=0, max=OPEN_LARGE),
                        Field("can_parry", T("Can parry", "Можно парировать"), "flag"),
                        Field("properties", T("Properties", "Свойства"), "text"),
                    ),
                ),
                Field(
                    "armour",
                    T("Armour", "Броня"),
                    "list",
                    source="armour",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("class", T("Class", "Класс"), "choice", source="armour"),
                        Field("locations", T("Covers", "Защищает"), "text"),
                        Field("defence", T("Defence", "Защита"), "input", min=0, max=OPEN_SMALL),
                        Field("durability", T("Durability", "Прочность"), "input", min=0, max=OPEN_LARGE),
                        Field(
                            "durability_max", T("Durability (max)", "Прочность (макс.)"), "input", min=0, max=OPEN_LARGE
                        ),
                        Field(
                            "penalty",
                            T("Agility-branch penalty", "Штраф ветки Ловкости"),
                            "input",
                            min=-OPEN_SMALL,
                            max=0,
                        ),
                        Field("worn", T("Worn", "Надета"), "flag"),
                        Field("properties", T("Properties", "Свойства"), "text"),
                    ),
                ),
                Field(
                    "items",
                    T("Items", "Предметы"),
                    "list",
                    source="items",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("kind", T("Kind", "Вид"), "choice", source="item_kinds"),
                        Field("charges", T("Charges", "Заряды"), "input", min=0, max=OPEN_LARGE),
                        Field("charges_max", T("Charges (max)", "Заряды (макс.)"), "input", min=0, max=OPEN_LARGE),
                        Field("effect", T("Effect", "Эффект"), "text"),
                    ),
                ),
                Field("money", T("Money", "Деньги"), "text", min=0, max=OPEN_MONEY, max_length=80),
            ),
            layout="grid",
            columns=1,
        ),
        Section(
            "conditions",
            T("Conditions", "Состояния"),
            (
                Field(
                    "conditions",
                    T("Active conditions", "Активные состояния"),
                    "list",
                    source="conditions",
                    item_fields=(
                        Field("id", T("Condition", "Состояние"), "choice", source="conditions"),
                        Field("magnitude", T("Magnitude", "Величина"), "input", min=-OPEN_SMALL, max=OPEN_SMALL),
                        Field("duration", T("Duration", "Длительность"), "input", min=0, max=OPEN_LARGE),
                        Field("source", T("Source", "Источник"), "text"),
                        Field("notes", T("Notes", "Заметки"), "text"),
                    ),
                ),
                Field("aim_bonus", T("Aim bonus", "Бонус прицеливания"), "input", min=0, max=OPEN_SMALL),
                Field("cover_bonus", T("Cover bonus", "Бонус укрытия"), "input", min=0, max=OPEN_SMALL),
                Field("cover_shield_only", T("Shield cover (parry only)", "Щит (только парирование)"), "flag"),
            ),
            layout="table",
        ),
        Section(
            "tokens",
            T("Tokens", "Токены"),
            (
                Field(
                    "tokens",
                    T("Tokens", "Токены"),
                    "list",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field(
                            "kind",
                            T("Kind", "Вид"),
                            "choice",
                            choices=(
                                ("flat", T("Flat bonus", "Бонус к значению")),
                                ("die_level", T("+1 die level", "+1 уровень куба")),
                            ),
                        ),
                        Field("amount", T("Amount", "Величина"), "input", min=-OPEN_SMALL, max=OPEN_SMALL),
                        Field("applies_to", T("Applies to", "К чему"), "text"),
                        Field("condition", T("Condition", "Условие"), "text"),
                        Field(
                            "persistent",
                            T("Kept between sessions", "Сохраняется между играми"),
                            "flag",
                            gm_only=True,  # the GM's call (L1479); read when a session starts
                        ),
                    ),
                ),
            ),
            layout="table",
        ),
        Section(
            "development",
            T("Development points", "Очки развития"),
            (
                Field(
                    "dp",
                    T("DP (common pool)", "ОР (общий пул)"),
                    "input",
                    min=0,
                    max=OPEN_LARGE,
                    help=T("Recommended costing: raising L → L+1 costs L", "Рекомендуемый расчёт: с L на L+1 стоит L"),
                    creation_only=True,  # in play: the GM awards, advances spend (L278)
                ),
                Field(
                    "dp_params",
                    T("Parameter DP", "ОР параметров"),
                    "input",
                    min=0,
                    max=OPEN_LARGE,
                    help=T("Simplified costing: 1 DP per level", "Упрощённый расчёт: 1 ОР за уровень"),
                    creation_only=True,
                ),
                Field(
                    "dp_abilities",
                    T("Ability DP", "ОР способностей"),
                    "input",
                    min=0,
                    max=OPEN_LARGE,
                    creation_only=True,
                ),
                Field(
                    "dp_log",
                    T("Spend log", "Журнал трат"),
                    "list",
                    item_fields=(
                        Field("target", T("Target", "Что"), "text"),
                        Field("from", T("From", "С"), "text"),
                        Field("to", T("To", "На"), "text"),
                        Field("cost", T("Cost", "Цена"), "input", min=-OPEN_LARGE, max=OPEN_LARGE),
                        Field("pool", T("Pool", "Пул"), "text"),
                    ),
                    creation_only=True,
                ),
            ),
            layout="grid",
            columns=3,
        ),
        Section("notes", T("Notes", "Заметки"), (Field("notes", T("Notes", "Заметки"), "longtext"),), layout="text"),
    )
)
