"""The RET character sheet layout (spec §10.1) for the generic CharacterSheet widget."""

from __future__ import annotations

from tabletop_widgets.core import T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_MONEY, OPEN_SMALL, Field, Section, Sheet, SheetAction
from tabletop_widgets.core.sheet_helpers import (
    NAME,
    NOTES,
    choice,
    derived,
    entries,
    flag,
    labelled,
    longtext,
    named,
    notes_section,
    number,
    numbers,
    pick,
    resource,
    text,
)

from .options import DEFAULTS
from .params import LABELS, PARENT, TIER3, TREE, TREE_ORDER, tier
from .powers import DELIVERY_WORDS

_FORMULA = {
    node: T(
        f"{LABELS[node]['en']} = ({LABELS[a]['en']} + {LABELS[b]['en']}) // 2",
        f"{LABELS[node]['ru']} = ({LABELS[a]['ru']} + {LABELS[b]['ru']}) // 2",
    )
    for node, (a, b) in TREE.items()
}


def _tree_field(node: str) -> Field:
    if tier(node) == 3:
        return number(
            node,
            LABELS[node],
            0,
            8,
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
    return derived(node, LABELS[node], _FORMULA[node], tier=tier(node), parent=PARENT.get(node), die_label=True)


_ABILITY_CHOICES = pick(TREE_ORDER, LABELS)

SHEET = Sheet(
    (
        Section(
            "identity",
            T("Identity", "Персонаж"),
            (
                text("name", T("Name", "Имя")),
                text("player", T("Player", "Игрок")),
                text("concept", T("Concept", "Концепция")),
                text("world", T("Game / world", "Игра / мир")),
                text("gender", T("Gender", "Пол")),
                text("age", T("Age", "Возраст"), min=0, max=OPEN_LARGE, max_length=40),
                text("height", T("Height", "Рост")),
                text("weight", T("Weight", "Вес")),
                longtext("appearance", T("Appearance", "Внешность")),
                text("avatar", T("Avatar (image)", "Аватар (изображение)")),
                text("theme_music", T("Theme music", "Музыкальная тема")),
                longtext("backstory", T("Backstory", "Квента")),
                flag("is_npc", T("NPC", "Противник"), gm_only=True),  # the book's word, L1731; the GM's to say
                choice(
                    "npc_tier",
                    T("NPC tier", "Категория противника"),
                    labelled(
                        ("mook", "Nameless (mook)", "Безымянный"),
                        ("regular", "Regular", "Обычный"),
                        ("important", "Important", "Важный"),
                        ("boss", "Boss", "Босс"),
                    ),
                    gm_only=True,
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
                derived(
                    "level", T("Level", "Уровень"), T("(Mind + Emotions + Body) // 3", "(Разум + Эмоции + Тело) // 3")
                ),
                derived("strike_power", T("Strike Power", "Сила Удара"), T("Strength // 2", "Сила // 2")),
                derived("speed", T("Speed", "Скорость"), T("= Agility (steps per turn)", "= Ловкость (шагов за ход)")),
                derived("health_max", T("Health (max)", "Здоровье (макс.)"), T("2 × Body", "2 × Тело")),
                derived("sanity_max", T("Sanity (max)", "Рассудок (макс.)"), T("Mind + Emotions", "Разум + Эмоции")),
                derived(
                    "luck_max",
                    T("Luck (max)", "Удача (макс.)"),
                    T("2 × Level (or the GM's value)", "2 × Уровень (или значение мастера)"),
                ),
                number(
                    "luck_max_override",
                    T("Luck max set by the GM", "Макс. Удачи от мастера"),
                    0,
                    OPEN_SMALL,
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
                resource(
                    "health",
                    T("Health", "Здоровье"),
                    -OPEN_LARGE,
                    16,
                    "health_max",
                    T(
                        "May go negative: below 0 — survival rolls (Endurance vs |Health|)",
                        "Может быть отрицательным: ниже 0 — броски на выживание (Выносливость против |Здоровья|)",
                    ),
                    extra={"negative_ok": True, "threshold_factor": -3},
                ),
                resource(
                    "sanity",
                    T("Sanity", "Рассудок"),
                    -OPEN_LARGE,
                    16,
                    "sanity_max",
                    T(
                        "Spent on extra turns and superpowers; below 0 — self-control rolls",
                        "Тратится на доп. ходы и сверхспособности; ниже 0 — броски на самоконтроль",
                    ),
                    extra={"negative_ok": True, "threshold_factor": -3},
                ),
                resource(
                    "luck",
                    T("Luck", "Удача"),
                    0,
                    OPEN_SMALL,
                    "luck_max",
                    T(
                        "Declared before a roll; may exceed the maximum; refilled each game session",
                        "Заявляется до броска; может превышать максимум; восполняется каждую игру",
                    ),
                    over_max=True,
                ),
                number("temp_armour", T("Temporary armour", "Временная броня"), 0, OPEN_SMALL),
                choice(
                    "temp_armour_kind",
                    T("Temporary armour kind", "Вид временной брони"),
                    labelled(
                        ("skin", "Skin hardening (after armour)", "Усиление кожи (после брони)"),  # L1426
                        ("shield", "Energy shield (before armour)", "Энергетический щит (до брони)"),  # L1427
                    ),
                ),
                text("temp_armour_expiry", T("Expires", "Истекает")),
                flag("stabilised_health", T("Stabilised (Health)", "Стабилизирован (Здоровье)")),
                flag("stabilised_sanity", T("Stabilised (Sanity)", "Стабилизирован (Рассудок)")),
                flag("dead", T("Dead", "Смерть"), gm_only=True),  # the GM says a character died
            ),
            layout="resources",
        ),
        Section(
            "abilities",
            T("Skills and talents", "Навыки и таланты"),
            (
                entries(
                    "abilities",
                    T("Abilities", "Способности"),
                    *named(
                        NAME,
                        choice(
                            "kind",
                            T("Kind", "Вид"),
                            labelled(
                                ("skill", "Skill", "Навык"),
                                ("talent", "Talent", "Талант"),
                                ("ultimate", "Ultimate", "Ультимативная"),
                            ),
                        ),
                        # a new ability starts as the book starts one at creation: level 3 (L407,
                        # L419), on a parameter of the tree's third tier, not a pillar (L397-400,
                        # L1726); the GM sets its real base (L396, L458)
                        choice("base_param", T("Base parameter", "Основа"), _ABILITY_CHOICES, default=TIER3[0]),
                        number("level", T("Level", "Уровень"), 1, 7, default=DEFAULTS["start_level_skill"]),
                        text("parent_talent", T("Parent talent (ultimate)", "Родительский талант")),
                        choice("category", T("Category", "Категория"), source="ability_categories"),
                        flag("is_superpower", T("Superpower", "Сверхспособность")),
                        number("sanity_cost", T("Sanity cost", "Цена в Рассудке"), 0, OPEN_SMALL),
                        choice(
                            "delivery",
                            T("Superpower reaches by", "Как действует сверхспособность"),
                            tuple(DELIVERY_WORDS.items()),
                            help=T(
                                "A projectile is dodged, a touch dodged or parried, a mind attack met by mental defence.",
                                "От снаряда уклоняются, касание парируют или от него уклоняются, от атаки на сознание"
                                " защищаются ментально.",
                            ),
                        ),
                        text("divider", T("Divider", "Делитель"), gm_only=True),
                        flag("used", T("Used this session", "Применена в этой игре")),
                        text("restrictions", T("Restrictions", "Ограничения")),
                        text("notes", NOTES),
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
                entries(
                    "flaws",
                    T("Flaws", "Недостатки"),
                    *named(
                        NAME,
                        choice("severity", T("Severity", "Сложность недостатка"), source="flaws"),  # L1667
                        number("strength", T("Flaw strength", "Сила недостатка"), 0, OPEN_SMALL),
                        choice("base_param", T("Base parameter", "Основа"), _ABILITY_CHOICES),
                        number("level", T("Flaw level", "Уровень недостатка"), 1, 7),
                    ),
                    source="flaws",
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
                entries(
                    "weapons",
                    T("Weapons", "Оружие"),
                    *named(
                        NAME,
                        choice("category", T("Category", "Категория"), source="weapons"),
                        choice(
                            "kind",
                            T("Kind", "Тип"),
                            labelled(
                                ("melee", "Melee", "Ближний бой"),
                                ("ranged", "Ranged", "Дистанционное"),
                                ("thrown", "Thrown", "Метательное"),
                            ),
                        ),
                        number("damage", T("Weapon Damage", "Урон Оружия"), 0, OPEN_SMALL),
                        choice("attack_param", T("Attack parameter", "Параметр атаки"), _ABILITY_CHOICES),
                        flag("adds_strike_power", T("Adds Strike Power", "Добавляет Силу Удара")),
                        flag("one_handed", T("One-handed", "Одноручное")),
                        flag("heavy", T("Heavy", "Тяжёлое")),
                        flag("automatic", T("Automatic", "Автоматическое")),
                        number("reach", T("Reach (steps)", "Досягаемость (шаги)"), 1, OPEN_SMALL),
                        *numbers(
                            0, OPEN_LARGE, ("ammo", T("Ammo", "Боезапас")), ("capacity", T("Magazine", "Магазин"))
                        ),
                        flag("can_parry", T("Can parry", "Можно парировать")),
                        text("properties", T("Properties", "Свойства")),
                    ),
                    source="weapons",
                ),
                entries(
                    "armour",
                    T("Armour", "Броня"),
                    *named(
                        NAME,
                        choice("class", T("Class", "Класс"), source="armour"),
                        text("locations", T("Covers", "Защищает")),
                        number("defence", T("Defence", "Защита"), 0, OPEN_SMALL),
                        *numbers(
                            0,
                            OPEN_LARGE,
                            ("durability", T("Durability", "Прочность")),
                            ("durability_max", T("Durability (max)", "Прочность (макс.)")),
                        ),
                        number("penalty", T("Agility-branch penalty", "Штраф ветки Ловкости"), -OPEN_SMALL, 0),
                        flag("worn", T("Worn", "Надета")),
                        text("properties", T("Properties", "Свойства")),
                    ),
                    source="armour",
                ),
                entries(
                    "items",
                    T("Items", "Предметы"),
                    *named(
                        NAME,
                        choice("kind", T("Kind", "Вид"), source="item_kinds"),
                        *numbers(
                            0,
                            OPEN_LARGE,
                            ("charges", T("Charges", "Заряды")),
                            ("charges_max", T("Charges (max)", "Заряды (макс.)")),
                        ),
                        text("effect", T("Effect", "Эффект")),
                    ),
                    source="items",
                ),
                text("money", T("Money", "Деньги"), min=0, max=OPEN_MONEY, max_length=80),
            ),
            layout="grid",
            columns=1,
            # reloading one weapon takes an action in a fight (L1287): one press, one weapon
            actions=(SheetAction(T("Reload", "Перезарядить"), "reload"),),
        ),
        Section(
            "conditions",
            T("Conditions", "Состояния"),
            (
                entries(
                    "conditions",
                    T("Active conditions", "Активные состояния"),
                    choice("id", T("Condition", "Состояние"), source="conditions"),
                    number("magnitude", T("Magnitude", "Величина"), -OPEN_SMALL, OPEN_SMALL),
                    number("duration", T("Duration", "Длительность"), 0, OPEN_LARGE),
                    text("source", T("Source", "Источник")),
                    text("notes", NOTES),
                    source="conditions",
                ),
                *numbers(
                    0,
                    OPEN_SMALL,
                    ("aim_bonus", T("Aim bonus", "Бонус прицеливания")),
                    ("cover_bonus", T("Cover bonus", "Бонус укрытия")),
                ),
                flag("cover_shield_only", T("Shield cover (parry only)", "Щит (только парирование)")),
            ),
            layout="table",
        ),
        Section(
            "tokens",
            T("Tokens", "Токены"),
            (
                entries(
                    "tokens",
                    T("Tokens", "Токены"),
                    *named(
                        NAME,
                        choice(
                            "kind",
                            T("Kind", "Вид"),
                            labelled(
                                ("flat", "Flat bonus", "Бонус к значению"),
                                ("die_level", "+1 die level", "+1 уровень куба"),
                            ),
                        ),
                        number("amount", T("Amount", "Величина"), -OPEN_SMALL, OPEN_SMALL),
                        text("applies_to", T("Applies to", "К чему")),
                        text("condition", T("Condition", "Условие")),
                        flag(
                            "persistent",
                            T("Kept between sessions", "Сохраняется между играми"),
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
                number(
                    "dp",
                    T("DP (common pool)", "ОР (общий пул)"),
                    0,
                    OPEN_LARGE,
                    help=T("Recommended costing: raising L → L+1 costs L", "Рекомендуемый расчёт: с L на L+1 стоит L"),
                    creation_only=True,  # in play: the GM awards, advances spend (L278)
                ),
                number(
                    "dp_params",
                    T("Parameter DP", "ОР параметров"),
                    0,
                    OPEN_LARGE,
                    help=T("Simplified costing: 1 DP per level", "Упрощённый расчёт: 1 ОР за уровень"),
                    creation_only=True,
                ),
                number("dp_abilities", T("Ability DP", "ОР способностей"), 0, OPEN_LARGE, creation_only=True),
                entries(
                    "dp_log",
                    T("Spend log", "Журнал трат"),
                    text("target", T("Target", "Что")),
                    text("from", T("From", "С")),
                    text("to", T("To", "На")),
                    number("cost", T("Cost", "Цена"), -OPEN_LARGE, OPEN_LARGE),
                    text("pool", T("Pool", "Пул")),
                    creation_only=True,
                ),
            ),
            layout="grid",
            columns=3,
        ),
        notes_section(),
    )
)
