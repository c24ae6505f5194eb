"""The declarative character sheet (spec §10.1) for the generic CharacterSheet widget."""

from __future__ import annotations

from tabletop_widgets.core import Field, Section, Sheet, T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_MONEY, OPEN_SMALL

from .model import PARAM_LABELS, PARAMS

STATUS_CHOICES = (
    ("", T("by HP", "по HP")),
    ("incapacitated", T("incapacitated", "недееспособность")),
    ("dead", T("dead", "смерть")),
)
AGE_CHOICES = (
    ("child", T("Child (<13)", "Ребёнок (<13)")),
    ("adolescent", T("Adolescent (13-18)", "Подросток (13-18)")),
    ("young", T("Young (19-39)", "Юный (19-39)")),
    ("adult", T("Adult (40+)", "Взрослый (40+)")),
)
RARITY_CHOICES = (
    ("common", T("common", "обычный")),
    ("rare", T("rare ×2", "редкий ×2")),
    ("unique", T("unique ×3", "уникальный ×3")),
)
CATEGORY_CHOICES = tuple(
    (k, T(en, ru))
    for k, en, ru in (
        ("weapon", "weapon", "оружие"),
        ("armour", "armour", "броня"),
        ("simple", "simple item", "простой предмет"),
        ("potion", "potion", "зелье"),
        ("amulet", "amulet", "амулет"),
        ("artifact", "artifact", "артефакт"),
        ("pet", "pet", "питомец"),
    )
)
ORIGIN_CHOICES = tuple(
    (k, T(en, ru))
    for k, en, ru in (
        ("racial", "racial", "расовая"),
        ("bought", "bought", "куплена"),
        ("negative", "negative", "отрицательная"),
        ("levelup", "level-up", "за уровень"),
        ("surprise", "surprise", "сюрприз"),
    )
)
ZONE_CHOICES = tuple(
    (k, T(en, ru))
    for k, en, ru in (
        ("torso", "torso", "корпус"),
        ("limb", "leg / arm / wing", "нога / рука / крыло"),
        ("tail", "tail", "хвост"),
        ("neck", "neck", "шея"),
        ("head_face", "head: ear / eye / nose", "голова: ухо / глаз / нос"),
        ("head_skull", "head: skull", "голова: череп"),
    )
)

_PARAM_HELP = {
    "might": T("Stamina, heavy work; HP and carry weight", "Выносливость, тяжёлый труд; HP и вес"),  # L15
    "dexterity": T("Agility, light weapons; Initiative", "Ловкость, лёгкое оружие; инициатива"),  # L16
    "alertness": T("Noticing and reacting; Initiative", "Замечать и реагировать; инициатива"),  # L17
    "complexity": T("Mind; energetics skills; magic defence", "Ум; навыки энергетики; защита от магии"),  # L18
    "power": T("Brightness: spell strength, charisma", "Яркость: сила заклинаний, харизма"),  # L19
    "luck": T("Luck: random targets, search", "Удача: случайные цели, поиск"),  # L20
}

#: Column headers of the parameter layers table (keys of ``parameter_layers``).
_LAYER_LABELS = {
    "racial": T("race", "раса"),
    "age_mod": T("age", "возраст"),
    "points": T("points", "очки"),
    "advances": T("advances", "рост"),
    "base": T("base", "база"),
    "feature_mod": T("features", "особенности"),
    "final": T("final", "итог"),
    "computed_final": T("computed", "по расчёту"),
}

SHEET = Sheet(
    (
        Section(
            "header",
            T("Character", "Персонаж"),
            (
                Field(
                    "name",
                    T("Name", "Имя"),
                    "text",
                    help=T(
                        "Given name + nickname; no hyphens or apostrophes",  # L132
                        "Имя + прозвище; без дефисов и апострофов",
                    ),
                ),  # L132
                Field("race", T("Race", "Раса"), "choice", source="races", creation_only=True),
                Field("age", T("Age category", "Возраст"), "choice", choices=AGE_CHOICES, creation_only=True),
                Field(
                    "mode",
                    T("Game", "Игра"),
                    "choice",
                    choices=(("quick", T("quick game", "быстрая игра")), ("campaign", T("campaign", "кампания"))),
                ),
                Field("level", T("Level", "Уровень"), "derived", help=T("1 + XP // 20", "1 + опыт // 20")),  # L359
                Field("xp", T("XP", "Опыт"), "input", min=0, max=OPEN_LARGE, creation_only=True),  # the GM awards it
                Field("xp_to_next", T("XP to next level", "Опыта до уровня"), "derived"),
                Field(
                    "reputation",
                    T("Reputation", "Репутация"),
                    "input",
                    min=-OPEN_SMALL,
                    max=OPEN_SMALL,
                    help=T(
                        "Never 0 unless Inconspicuous; campaign only",
                        "Не бывает 0 без «неприметности»; только кампания",
                    ),  # L343
                    visible_if="uses_reputation",
                    extra={"campaign_only": True},
                    creation_only=True,  # L341: the GM moves it by deeds and rumours
                ),
                Field(
                    "epic_dice",
                    T("Epic dice", "Эпик-дайсы"),
                    "input",
                    min=0,
                    max=OPEN_SMALL,
                    help=T(
                        "Max = |reputation|; +1 success each", "Максимум = |репутация|; +1 успех каждый"
                    ),  # L349, L351
                    visible_if="uses_reputation",
                    extra={"campaign_only": True},
                    creation_only=True,  # the GM awards them (L349), a check spends them (L351)
                ),
                Field("faith", T("Choice of faith", "Выбор веры"), "choice", source="deities"),
                Field(
                    "affinity",
                    T("Affinity", "Сродство"),
                    "choice",
                    source="sources",
                    help=T("Only with Source affinity", "Только с «сродством с истоком»"),
                ),  # L107
                Field(
                    "direction",
                    T("Energetics direction", "Направление энергетики"),
                    "choice",
                    choices=(
                        ("H", T("harmonious (H)", "гармоническая (H)")),
                        ("C", T("chaotic (C)", "хаотическая (C)")),
                    ),
                ),
                Field("belief", T("Belief / mentality", "Верование / менталитет"), "text"),
            ),
            columns=2,
        ),
        Section(
            "parameters",
            T("Parameters", "Параметры"),
            tuple(
                Field(
                    p,
                    PARAM_LABELS[p],
                    "input",
                    min=1,
                    max=10,
                    help=_PARAM_HELP[p],
                    creation_only=True,  # in play a level-up raises it (L361-371)
                    extra={"layers": ("racial", "age_mod", "points", "advances", "feature_mod")},
                )
                for p in PARAMS
            )
            + (
                Field(
                    "race_params",
                    T("Racial values", "Расовые значения"),
                    "mapping",
                    keys=PARAMS,
                    item_fields=(Field("value", T("Value", "Значение"), "input", min=1, max=5),),
                    help=T(
                        "The race's six starting values (1-5): Might above the racial value adds HP",  # L45, L55
                        "Шесть начальных значений расы (1-5): Сила сверх расовой добавляет HP",
                    ),
                    creation_only=True,
                ),
                Field(
                    "parameter_layers",
                    T("Parameter layers", "Слои параметров"),
                    "derived",
                    help=T(
                        "racial + age + points + advances + features = final",
                        "раса + возраст + очки + рост + особенности = итог",
                    ),  # §3.0
                    labels=_LAYER_LABELS,
                ),
                Field(
                    "param_points",
                    T("Age points per parameter", "Очки возраста по параметрам"),
                    "mapping",
                    help=T("Free points from age: 0/1/2/3", "Свободные очки возраста: 0/1/2/3"),
                    item_fields=(Field("points", T("Points", "Очки"), "input", min=0, max=10),),
                    creation_only=True,
                ),  # L55
                Field(
                    "initiative",
                    T("Initiative", "Инициатива"),
                    "derived",
                    help=T("Dexterity + Alertness", "Ловкость + Восприятие"),
                ),  # L24
                Field(
                    "will", T("Will", "Сила воли"), "derived", help=T("Power + Complexity", "Яркость + Сложность")
                ),  # L25
            ),
            columns=3,
        ),
        Section(
            "health",
            T("Health", "Здоровье"),
            (
                Field(
                    "hp",
                    T("HP", "HP"),
                    "resource",
                    min=-OPEN_LARGE,
                    max=OPEN_LARGE,
                    max_trait="hp_max",
                    help=T("Race base HP + Might above the racial value", "Базовое HP расы + Сила сверх расовой"),
                ),
                Field(
                    "ep",
                    T("EP (pattern)", "EP (узор)"),
                    "resource",
                    min=0,
                    max=OPEN_SMALL,
                    max_trait="ep_max",
                    help=T("Complexity + Power", "Сложность + Яркость"),
                ),  # L128
                Field(
                    "sp",
                    T("SP (soul)", "SP (душа)"),
                    "resource",
                    min=0,
                    max=OPEN_SMALL,
                    max_trait="sp_max",
                    help=T("Complexity + Luck", "Сложность + Удача"),
                ),  # L129
                Field(
                    "ip",
                    T("IP (idea)", "IP (идея)"),
                    "resource",
                    min=0,
                    max=OPEN_SMALL,
                    max_trait="ip_max",
                    help=T("Power + Luck", "Яркость + Удача"),
                ),  # L130
                Field(
                    "base_hp",
                    T("Race base HP", "Базовое HP расы"),
                    "input",
                    min=0,
                    max=OPEN_SMALL,
                    help=T(
                        "Empty: the race's base HP, else the house default of the GM's options "
                        "(10 unless changed): the book gives no number",
                        "Пусто: базовое HP расы, иначе домашнее правило из настроек Мастера "
                        "(10, если не изменено): в книге числа нет",
                    ),
                    creation_only=True,
                ),
                Field("hp_base", T("Base HP in use", "Базовое HP в расчёте"), "derived"),
                Field(
                    "status",
                    T("State", "Состояние"),
                    "choice",
                    choices=STATUS_CHOICES,
                    help=T(
                        "Set by the GM or the tracker; HP ≤ 0 also incapacitates",
                        "Ставит Мастер или трекер; HP ≤ 0 тоже делает недееспособным",
                    ),
                ),
                Field(
                    "transforming",
                    T("Transforming (damage ×2)", "Трансформация (урон ×2)"),
                    "flag",
                    help=T("Until the character's next action", "До следующего действия персонажа"),
                ),  # L119
                Field(
                    "wounds",
                    T("Wounds", "Травмы"),
                    "list",
                    source="wound_kinds",
                    item_fields=(
                        Field("zone", T("Zone", "Зона"), "choice", choices=ZONE_CHOICES),
                        Field("kind", T("Injury", "Травма"), "choice", source="wound_kinds"),
                        Field("note", T("Note", "Заметка"), "text"),
                    ),
                    help=T(
                        "Recorded only: the seed gives wounds no mechanical effect; remove a healed one",
                        "Только запись: механики травм в книге нет; вылеченную удалите",
                    ),
                ),
                Field("wound_count", T("Wounds recorded", "Травм записано"), "derived"),
            ),
            layout="resources",
        ),
        Section(
            "derived",
            T("Additional fields", "Дополнительные поля"),
            (
                Field(
                    "initiative_pool",
                    T("Initiative pool", "Пул инициативы"),
                    "derived",
                    help=T("Initiative + 2 Speed − 1 closed helmet", "Инициатива + 2 скорость − 1 закрытый шлем"),
                ),  # L220, L159
                Field(
                    "magic_defence",
                    T("Magic defence", "Защита от магии"),
                    "derived",
                    help=T("= Complexity", "= Сложность"),
                ),  # L126
                Field(
                    "base_damage",
                    T("Base damage", "Урон"),
                    "derived",
                    help=T("By age: 0/0/1/1", "По возрасту: 0/0/1/1"),
                ),  # L57
                Field(
                    "hand_damage",
                    T("Unarmed damage", "Урон с руки"),
                    "derived",
                    help=T("Base damage + Claws", "Урон + когти"),
                ),  # L131
                Field(
                    "armour_level",
                    T("Armour", "Броня"),
                    "derived",
                    help=T("Worn armour + natural armour", "Надетая броня + природная"),
                ),
                Field(
                    "carry_capacity_kg",
                    T("Carry capacity, kg", "Вес инвентаря, кг"),
                    "derived",
                    help=T("(Might + Athletics) × 5", "(Сила + атлетика) × 5"),
                ),  # L127
                Field("carried_weight_kg", T("Carried, kg", "Несёт, кг"), "derived"),
            ),
            columns=2,
        ),
        Section(
            "skills",
            T("Skills", "Навыки"),
            (
                Field(
                    "skills",
                    T("Skills", "Навыки"),
                    "mapping",
                    source="skills",
                    help=T(
                        "Parameter + skill dice; level ≤ parameter; points per parameter = its level",  # L103, L82
                        "Кубики параметр + навык; уровень ≤ параметра; очков на навыки параметра = его уровень",
                    ),  # L103, L82
                    item_fields=(
                        Field("key", T("Skill", "Навык"), "choice", source="skills"),
                        Field("level", T("Level", "Уровень"), "input", min=0, max=10),
                    ),
                    extra={"group_by": "param"},
                    creation_only=True,  # in play a skill rises with its experience (L357)
                ),
                Field(
                    "skill_budget",
                    T("Skill points used / available", "Очки навыков: потрачено / доступно"),
                    "derived",
                    labels={"used": T("used", "потрачено"), "budget": T("available", "доступно")},
                ),
                Field(
                    "skill_xp",
                    T("Skill XP (0-5)", "Опыт навыков (0-5)"),
                    "mapping",
                    help=T("5 XP → +1 level", "5 опыта → +1 уровень"),
                    item_fields=(Field("xp", T("XP", "Опыт"), "input", min=0, max=5),),
                    creation_only=True,  # the GM gives it (L355)
                ),  # L357
                Field("custom_skills", T("Own skills: parameter", "Свои навыки: параметр"), "mapping"),
            ),
            layout="table",
        ),
        Section(
            "features",
            T("Features", "Особенности"),
            (
                Field(
                    "features",
                    T("Features", "Особенности"),
                    "list",
                    source="features",
                    item_fields=(
                        Field("id", T("Feature", "Особенность"), "choice", source="features"),
                        Field("level", T("Level", "Уровень"), "input", min=0, max=OPEN_SMALL),
                        Field("origin", T("Origin", "Происхождение"), "choice", choices=ORIGIN_CHOICES),
                        Field(
                            "note",
                            T("Partner / container / source / type", "Партнёр / вместилище / исток / тип"),
                            "text",
                        ),
                    ),
                    help=T(
                        "1 point per level; first mutation +1; ≤ 2 negative levels",  # L96-L104
                        "1 очко за уровень; первая мутация +1; ≤ 2 уровней отрицательных",
                    ),
                    creation_only=True,  # in play a level-up changes them (L367)
                ),  # L96-L104
                Field(
                    "feature_points",
                    T("Feature points", "Очки особенностей"),
                    "derived",
                    help=T("age 3/2/1/0 + negative levels", "возраст 3/2/1/0 + уровни отрицательных"),  # L94, L101
                    labels={
                        "age": T("age", "за возраст"),
                        "negative": T("negative features", "за отрицательные"),
                        "available": T("available", "доступно"),
                    },
                ),
                Field("mutant", T("Mutant", "Мутант"), "derived"),
            ),
            layout="table",
        ),
        Section(
            "inventory",
            T("Inventory", "Инвентарь"),
            (
                Field(
                    "inventory",
                    T("Items", "Предметы"),
                    "list",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("category", T("Category", "Категория"), "choice", choices=CATEGORY_CHOICES),
                        Field("rarity", T("Rarity", "Редкость"), "choice", choices=RARITY_CHOICES),
                        Field("damage", T("Damage", "Урон"), "input", min=0, max=OPEN_SMALL),
                        Field("protection", T("Protection", "Защита"), "input", min=0, max=OPEN_SMALL),
                        Field("min_might", T("Min Might", "Мин. Сила"), "input", min=1, max=10),
                        Field("weight_kg", T("Weight, kg", "Вес, кг"), "input", min=0, max=OPEN_LARGE),
                        Field("cost", T("Cost (InvP)", "Цена (ОИ)"), "input", min=0, max=OPEN_LARGE),
                        Field("equipped", T("Main / worn", "Основное / надето"), "flag"),
                    ),
                ),
                Field(
                    "helmet",
                    T("Helmet", "Шлем"),
                    "choice",
                    choices=(
                        ("none", T("none", "нет")),
                        ("open", T("open", "открытый")),
                        ("closed", T("closed", "закрытый")),
                    ),
                    help=T(
                        "Closed: −2 Alertness, −1 initiative; open: −1 Alertness, head armour −1",  # L158-L160
                        "Закрытый: −2 Восприятие, −1 инициатива; открытый: −1 Восприятие, броня головы −1",
                    ),
                ),  # L158-L160
                Field(
                    "money",
                    T("Money", "Деньги"),
                    "mapping",
                    keys=("fire", "agate", "emerald", "azure"),
                    item_fields=(Field("coins", T("Coins", "Монеты"), "input", min=0, max=OPEN_MONEY),),
                    help=T(
                        "1 InvP = 1 fire = 10 agate; emerald = 10 fire; azure = 10 emerald; 20 coins = 0.5 kg",  # L164
                        "1 ОИ = 1 огневик = 10 агатников; изумрудник = 10 огневиков; лазурник = 10 изумрудников; 20 монет = 0,5 кг",
                    ),
                ),  # L164
                Field("inv_points_spent", T("InvP spent", "Потрачено ОИ"), "derived"),
                Field(
                    "inv_points",
                    T("InvP available", "Доступно ОИ"),
                    "derived",
                    help=T("10 (+10 Well-Stocked)", "10 (+10 запасливость)"),
                ),  # L146
            ),
            layout="table",
        ),
        Section(
            "forms",
            T("Forms (Shapeshifter)", "Ипостаси (оборотень)"),
            (
                Field(
                    "forms",
                    T("Forms", "Ипостаси"),
                    "list",
                    source="creatures",
                    item_fields=(
                        Field("creature", T("Creature", "Существо"), "choice", source="creatures"),
                        Field("tier", T("Tier", "Уровень"), "input", min=0, max=OPEN_SMALL),
                        Field("might", PARAM_LABELS["might"], "input", min=1, max=10),
                        Field("dexterity", PARAM_LABELS["dexterity"], "input", min=1, max=10),
                        Field("alertness", PARAM_LABELS["alertness"], "input", min=1, max=10),
                        Field("start_might", T("Start Might", "Нач. Сила"), "input", min=1, max=10),
                        Field("start_dexterity", T("Start Dexterity", "Нач. Ловкость"), "input", min=1, max=10),
                        Field("start_alertness", T("Start Alertness", "Нач. Восприятие"), "input", min=1, max=10),
                    ),
                ),
                Field(
                    "is_shapeshifter",
                    T("Shapeshifter", "Оборотень"),
                    "derived",
                    help=T(
                        "Has the Shapeshifter feature: this section applies",  # L109-L111
                        "Есть особенность «оборотень»: раздел применяется",
                    ),
                ),  # L109-L111
                Field(
                    "max_forms",
                    T("Max forms", "Макс. ипостасей"),
                    "derived",
                    help=T(
                        "1 + 2 × Transformation; Σ tier ≤ 10, tier ≤ Luck",  # L84, L109, L113
                        "1 + 2 × трансформация; Σ уровней ≤ 10, уровень ≤ Удачи",
                    ),
                ),  # L84, L109, L113
            ),
            layout="table",
            visible_if="is_shapeshifter",
        ),
        Section(
            "companions",
            T("Pets and familiar", "Питомцы и фамильяр"),
            (
                Field(
                    "pets",
                    T("Pets", "Питомцы"),
                    "list",
                    item_fields=(
                        Field("creature", T("Creature", "Существо"), "choice", source="creatures"),
                        Field(
                            "behaviour",
                            T("Behaviour", "Поведение"),
                            "choice",
                            choices=(
                                ("aggressive", T("aggressive", "агрессивный")),
                                ("passive", T("passive", "пассивный")),
                                ("cowardly", T("cowardly", "трусливый")),
                            ),
                        ),
                        Field("note", T("Note", "Заметка"), "text"),
                    ),
                ),
                Field("familiar", T("Familiar", "Фамильяр"), "mapping"),
            ),
            layout="table",
        ),
        Section(
            "advancement",
            T("Level-up", "Повышение уровня"),
            (
                Field(
                    "pending_improvements",
                    T("Improvements to choose", "Улучшений к выбору"),
                    "input",
                    min=0,
                    max=OPEN_SMALL,
                    help=T("Feature / parameter / surprise", "Особенность / параметр / сюрприз"),
                    creation_only=True,  # levels bring them (L361)
                ),  # L361-L371
                Field(
                    "surprises_pending",
                    T("Surprises owed by the GM", "Сюрпризов от Мастера"),
                    "input",
                    min=0,
                    max=OPEN_SMALL,
                    creation_only=True,
                ),
            ),
        ),
        Section("notes", T("Notes", "Заметки"), (Field("notes", T("Notes", "Заметки"), "longtext"),), layout="text"),
    )
)
