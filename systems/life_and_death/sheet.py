"""The declarative character sheet (spec §10.1) for the generic CharacterSheet widget."""

from __future__ import annotations

from tabletop_widgets.core import Field, Section, Sheet, SheetAction, T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_MONEY, OPEN_SMALL
from tabletop_widgets.core.sheet_helpers import (
    NAME,
    choice,
    derived,
    entries,
    flag,
    labelled,
    named,
    notes_section,
    number,
    numbers,
    resource,
    text,
)

from .model import PARAM_LABELS, PARAMS

STATUS_CHOICES = labelled(
    ("", "by HP", "по HP"),
    ("incapacitated", "incapacitated", "недееспособность"),
    ("dead", "dead", "смерть"),
)
AGE_CHOICES = labelled(
    ("child", "Child (<13)", "Ребёнок (<13)"),
    ("adolescent", "Adolescent (13-18)", "Подросток (13-18)"),
    ("young", "Young (19-39)", "Юный (19-39)"),
    ("adult", "Adult (40+)", "Взрослый (40+)"),
)
RARITY_CHOICES = labelled(
    ("common", "common", "обычный"),
    ("rare", "rare ×2", "редкий ×2"),
    ("unique", "unique ×3", "уникальный ×3"),
)
CATEGORY_CHOICES = labelled(
    ("weapon", "weapon", "оружие"),
    ("armour", "armour", "броня"),
    ("simple", "simple item", "простой предмет"),
    ("potion", "potion", "зелье"),
    ("amulet", "amulet", "амулет"),
    ("artifact", "artifact", "артефакт"),
    ("pet", "pet", "питомец"),
)
#: what a weapon is, for the attack (L155, L237): a bow, a crossbow, a firearm or a thrown weapon
#: attacks at range; "" = a hand weapon
WEAPON_KIND_CHOICES = labelled(
    ("", "hand weapon", "ручное"),
    ("bow", "bow", "лук"),
    ("crossbow", "crossbow", "арбалет"),
    ("firearm", "firearm", "огнестрельное"),
    ("thrown", "thrown", "метательное"),
)
ORIGIN_CHOICES = labelled(
    ("racial", "racial", "расовая"),
    ("bought", "bought", "куплена"),
    ("negative", "negative", "отрицательная"),
    ("levelup", "level-up", "за уровень"),
    ("surprise", "surprise", "сюрприз"),
)
ZONE_CHOICES = labelled(
    ("torso", "torso", "корпус"),
    ("limb", "leg / arm / wing", "нога / рука / крыло"),
    ("tail", "tail", "хвост"),
    ("neck", "neck", "шея"),
    ("head_face", "head: ear / eye / nose", "голова: ухо / глаз / нос"),
    ("head_skull", "head: skull", "голова: череп"),
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

#: the parameters a shapeshifter's form has, and what its creature starts with
_FORM_PARAMS = ("might", "dexterity", "alertness")
_START_LABELS = {
    "might": T("Start Might", "Нач. Сила"),
    "dexterity": T("Start Dexterity", "Нач. Ловкость"),
    "alertness": T("Start Alertness", "Нач. Восприятие"),
}

SHEET = Sheet(
    (
        Section(
            "header",
            T("Character", "Персонаж"),
            (
                text(
                    "name",
                    T("Name", "Имя"),
                    help=T(
                        "Given name + nickname; no hyphens or apostrophes",  # L132
                        "Имя + прозвище; без дефисов и апострофов",
                    ),
                ),  # L132
                choice("race", T("Race", "Раса"), source="races", creation_only=True),
                choice("age", T("Age category", "Возраст"), AGE_CHOICES, creation_only=True),
                choice(
                    "mode",
                    T("Game", "Игра"),
                    labelled(("quick", "quick game", "быстрая игра"), ("campaign", "campaign", "кампания")),
                ),
                derived("level", T("Level", "Уровень"), T("1 + XP // 20", "1 + опыт // 20")),  # L359
                number("xp", T("XP", "Опыт"), 0, OPEN_LARGE, creation_only=True),  # the GM awards it
                derived("xp_to_next", T("XP to next level", "Опыта до уровня")),
                number(
                    "reputation",
                    T("Reputation", "Репутация"),
                    -OPEN_SMALL,
                    OPEN_SMALL,
                    help=T(
                        "Never 0 unless Inconspicuous; campaign only",
                        "Не бывает 0 без «неприметности»; только кампания",
                    ),  # L343
                    visible_if="uses_reputation",
                    extra={"campaign_only": True},
                    creation_only=True,  # L341: the GM moves it by deeds and rumours
                ),
                number(
                    "epic_dice",
                    T("Epic dice", "Эпик-дайсы"),
                    0,
                    OPEN_SMALL,
                    help=T(
                        "Max = |reputation|; +1 success each", "Максимум = |репутация|; +1 успех каждый"
                    ),  # L349, L351
                    visible_if="uses_reputation",
                    extra={"campaign_only": True},
                    creation_only=True,  # the GM awards them (L349), a check spends them (L351)
                ),
                choice("faith", T("Choice of faith", "Выбор веры"), source="deities"),
                choice(
                    "affinity",
                    T("Affinity", "Сродство"),
                    source="sources",
                    help=T("Only with Source affinity", "Только с «сродством с истоком»"),
                ),  # L107
                choice(
                    "direction",
                    T("Energetics direction", "Направление энергетики"),
                    labelled(("H", "harmonious (H)", "гармоническая (H)"), ("C", "chaotic (C)", "хаотическая (C)")),
                ),
                text("belief", T("Belief / mentality", "Верование / менталитет")),
            ),
            columns=2,
        ),
        Section(
            "parameters",
            T("Parameters", "Параметры"),
            tuple(
                number(
                    p,
                    PARAM_LABELS[p],
                    1,
                    10,
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
                    item_fields=(number("value", T("Value", "Значение"), 1, 5),),
                    help=T(
                        "The race's six starting values (1-5): Might above the racial value adds HP",  # L45, L55
                        "Шесть начальных значений расы (1-5): Сила сверх расовой добавляет HP",
                    ),
                    creation_only=True,
                ),
                derived(
                    "parameter_layers",
                    T("Parameter layers", "Слои параметров"),
                    T(
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
                    item_fields=(number("points", T("Points", "Очки"), 0, 10),),
                    creation_only=True,
                ),  # L55
                derived(
                    "initiative", T("Initiative", "Инициатива"), T("Dexterity + Alertness", "Ловкость + Восприятие")
                ),  # L24
                derived("will", T("Will", "Сила воли"), T("Power + Complexity", "Яркость + Сложность")),  # L25
            ),
            columns=3,
        ),
        Section(
            "health",
            T("Health", "Здоровье"),
            (
                resource(
                    "hp",
                    T("HP", "HP"),
                    -OPEN_LARGE,
                    OPEN_LARGE,
                    "hp_max",
                    T("Race base HP + Might above the racial value", "Базовое HP расы + Сила сверх расовой"),
                ),
                resource(
                    "ep",
                    T("EP (pattern)", "EP (узор)"),
                    0,
                    OPEN_SMALL,
                    "ep_max",
                    T("Complexity + Power", "Сложность + Яркость"),
                ),  # L128
                resource(
                    "sp",
                    T("SP (soul)", "SP (душа)"),
                    0,
                    OPEN_SMALL,
                    "sp_max",
                    T("Complexity + Luck", "Сложность + Удача"),
                ),  # L129
                resource(
                    "ip", T("IP (idea)", "IP (идея)"), 0, OPEN_SMALL, "ip_max", T("Power + Luck", "Яркость + Удача")
                ),  # L130
                number(
                    "base_hp",
                    T("Race base HP", "Базовое HP расы"),
                    0,
                    OPEN_SMALL,
                    help=T(
                        "Empty: the race's base HP, else the house default of the GM's options "
                        "(10 unless changed): the book gives no number",
                        "Пусто: базовое HP расы, иначе домашнее правило из настроек Мастера "
                        "(10, если не изменено): в книге числа нет",
                    ),
                    creation_only=True,
                ),
                derived("hp_base", T("Base HP in use", "Базовое HP в расчёте")),
                choice(
                    "status",
                    T("State", "Состояние"),
                    STATUS_CHOICES,
                    help=T(
                        "Set by the GM or the tracker; HP ≤ 0 also incapacitates",
                        "Ставит Мастер или трекер; HP ≤ 0 тоже делает недееспособным",
                    ),
                ),
                flag(
                    "transforming",
                    T("Transforming (damage ×2)", "Трансформация (урон ×2)"),
                    help=T("Until the character's next action", "До следующего действия персонажа"),
                ),  # L119
                entries(
                    "wounds",
                    T("Wounds", "Травмы"),
                    choice("zone", T("Zone", "Зона"), ZONE_CHOICES),
                    choice("kind", T("Injury", "Травма"), source="wound_kinds"),
                    text("note", T("Note", "Заметка")),
                    source="wound_kinds",
                    help=T(
                        "Recorded only: the seed gives wounds no mechanical effect; remove a healed one",
                        "Только запись: механики травм в книге нет; вылеченную удалите",
                    ),
                ),
                derived("wound_count", T("Wounds recorded", "Травм записано")),
            ),
            layout="resources",
        ),
        Section(
            "derived",
            T("Additional fields", "Дополнительные поля"),
            (
                derived(
                    "initiative_pool",
                    T("Initiative pool", "Пул инициативы"),
                    T("Initiative + 2 Speed − 1 closed helmet", "Инициатива + 2 скорость − 1 закрытый шлем"),
                ),  # L220, L159
                derived(
                    "magic_defence", T("Magic defence", "Защита от магии"), T("= Complexity", "= Сложность")
                ),  # L126
                derived("base_damage", T("Base damage", "Урон"), T("By age: 0/0/1/1", "По возрасту: 0/0/1/1")),  # L57
                derived(
                    "hand_damage", T("Unarmed damage", "Урон с руки"), T("Base damage + Claws", "Урон + когти")
                ),  # L131
                derived(
                    "armour_level", T("Armour", "Броня"), T("Worn armour + natural armour", "Надетая броня + природная")
                ),
                derived(
                    "carry_capacity_kg",
                    T("Carry capacity, kg", "Вес инвентаря, кг"),
                    T("(Might + Athletics) × 5", "(Сила + атлетика) × 5"),
                ),  # L127
                derived("carried_weight_kg", T("Carried, kg", "Несёт, кг")),
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
                        choice("key", T("Skill", "Навык"), source="skills"),
                        number("level", T("Level", "Уровень"), 0, 10),
                    ),
                    extra={"group_by": "param"},
                    creation_only=True,  # in play a skill rises with its experience (L357)
                ),
                derived(
                    "skill_budget",
                    T("Skill points used / available", "Очки навыков: потрачено / доступно"),
                    labels={"used": T("used", "потрачено"), "budget": T("available", "доступно")},
                ),
                Field(
                    "skill_xp",
                    T("Skill XP (0-5)", "Опыт навыков (0-5)"),
                    "mapping",
                    help=T("5 XP → +1 level", "5 опыта → +1 уровень"),
                    item_fields=(number("xp", T("XP", "Опыт"), 0, 5),),
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
                entries(
                    "features",
                    T("Features", "Особенности"),
                    choice("id", T("Feature", "Особенность"), source="features"),
                    number("level", T("Level", "Уровень"), 0, OPEN_SMALL),
                    choice("origin", T("Origin", "Происхождение"), ORIGIN_CHOICES),
                    text("note", T("Partner / container / source / type", "Партнёр / вместилище / исток / тип")),
                    source="features",
                    help=T(
                        "1 point per level; first mutation +1; ≤ 2 negative levels",  # L96-L104
                        "1 очко за уровень; первая мутация +1; ≤ 2 уровней отрицательных",
                    ),
                    creation_only=True,  # in play a level-up changes them (L367)
                ),  # L96-L104
                derived(
                    "feature_points",
                    T("Feature points", "Очки особенностей"),
                    T("age 3/2/1/0 + negative levels", "возраст 3/2/1/0 + уровни отрицательных"),  # L94, L101
                    labels={
                        "age": T("age", "за возраст"),
                        "negative": T("negative features", "за отрицательные"),
                        "available": T("available", "доступно"),
                    },
                ),
                derived("mutant", T("Mutant", "Мутант")),
            ),
            layout="table",
        ),
        Section(
            "inventory",
            T("Inventory", "Инвентарь"),
            (
                entries(
                    "inventory",
                    T("Items", "Предметы"),
                    *named(
                        NAME,
                        choice("category", T("Category", "Категория"), CATEGORY_CHOICES),
                        choice("rarity", T("Rarity", "Редкость"), RARITY_CHOICES),
                        *numbers(
                            0,
                            OPEN_SMALL,
                            ("damage", T("Damage", "Урон")),
                            ("protection", T("Protection", "Защита")),
                        ),
                        number("min_might", T("Min Might", "Мин. Сила"), 1, 10),
                        choice("kind", T("Weapon kind", "Вид оружия"), WEAPON_KIND_CHOICES),
                        number(
                            "capacity",
                            T("Shots before reloading", "Выстрелов до перезарядки"),
                            0,
                            OPEN_SMALL,
                            help=T(
                                "A crossbow 1, a quiver its arrows, a firearm its cartridges; 0: never reloaded",
                                "Арбалет 1, колчан — его стрелы, огнестрельное — патроны; 0: не перезаряжается",
                            ),
                        ),  # L237
                        number(
                            "ammo",
                            T("Loaded", "Заряжено"),
                            0,
                            OPEN_SMALL,
                            help=T(
                                "empty: full (a new weapon starts loaded)", "пусто: полностью (новое оружие заряжено)"
                            ),
                        ),
                        *numbers(
                            0,
                            OPEN_LARGE,
                            ("weight_kg", T("Weight, kg", "Вес, кг")),
                            ("cost", T("Cost (InvP)", "Цена (ОИ)")),
                        ),
                        flag("equipped", T("Main / worn", "Основное / надето")),
                    ),
                ),
                choice(
                    "helmet",
                    T("Helmet", "Шлем"),
                    labelled(("none", "none", "нет"), ("open", "open", "открытый"), ("closed", "closed", "закрытый")),
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
                    item_fields=(number("coins", T("Coins", "Монеты"), 0, OPEN_MONEY),),
                    help=T(
                        "1 InvP = 1 fire = 10 agate; emerald = 10 fire; azure = 10 emerald; 20 coins = 0.5 kg",  # L164
                        "1 ОИ = 1 огневик = 10 агатников; изумрудник = 10 огневиков; лазурник = 10 изумрудников; 20 монет = 0,5 кг",
                    ),
                ),  # L164
                derived("inv_points_spent", T("InvP spent", "Потрачено ОИ")),
                derived(
                    "inv_points",
                    T("InvP available", "Доступно ОИ"),
                    T("10 (+10 Well-Stocked)", "10 (+10 запасливость)"),
                ),  # L146
            ),
            layout="table",
            # L237: changing cartridges or the quiver, reloading a crossbow (an ordinary action in a fight)
            actions=(SheetAction(T("Reload", "Перезарядить"), "reload"),),
        ),
        Section(
            "forms",
            T("Forms (Shapeshifter)", "Ипостаси (оборотень)"),
            (
                entries(
                    "forms",
                    T("Forms", "Ипостаси"),
                    choice("creature", T("Creature", "Существо"), source="creatures"),
                    number("tier", T("Tier", "Уровень"), 0, OPEN_SMALL),
                    *numbers(1, 10, *((p, PARAM_LABELS[p]) for p in _FORM_PARAMS)),
                    *numbers(1, 10, *((f"start_{p}", _START_LABELS[p]) for p in _FORM_PARAMS)),
                    source="creatures",
                ),
                derived(
                    "is_shapeshifter",
                    T("Shapeshifter", "Оборотень"),
                    T(
                        "Has the Shapeshifter feature: this section applies",  # L109-L111
                        "Есть особенность «оборотень»: раздел применяется",
                    ),
                ),  # L109-L111
                derived(
                    "max_forms",
                    T("Max forms", "Макс. ипостасей"),
                    T(
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
                entries(
                    "pets",
                    T("Pets", "Питомцы"),
                    choice("creature", T("Creature", "Существо"), source="creatures"),
                    choice(
                        "behaviour",
                        T("Behaviour", "Поведение"),
                        labelled(
                            ("aggressive", "aggressive", "агрессивный"),
                            ("passive", "passive", "пассивный"),
                            ("cowardly", "cowardly", "трусливый"),
                        ),
                    ),
                    text("note", T("Note", "Заметка")),
                ),
                Field("familiar", T("Familiar", "Фамильяр"), "mapping"),
            ),
            layout="table",
        ),
        Section(
            "advancement",
            T("Level-up", "Повышение уровня"),
            (
                number(
                    "pending_improvements",
                    T("Improvements to choose", "Улучшений к выбору"),
                    0,
                    OPEN_SMALL,
                    help=T("Feature / parameter / surprise", "Особенность / параметр / сюрприз"),
                    creation_only=True,  # levels bring them (L361)
                ),  # L361-L371
                number(
                    "surprises_pending",
                    T("Surprises owed by the GM", "Сюрпризов от Мастера"),
                    0,
                    OPEN_SMALL,
                    creation_only=True,
                ),
            ),
        ),
        notes_section(),
    )
)
