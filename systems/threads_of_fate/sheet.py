"""The declarative character sheet of Threads of Fate (spec §10.1)."""

from __future__ import annotations

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_SMALL, Field, Section, Sheet, SheetAction

from .sizes import SIZES, SIZE_LABELS
from .traits import CHARACTERISTICS, CHAR_LABELS, ENTITY_LABELS, ENTITY_TYPES, EXPERT_SKILLS, SKILLS


GM_HELP = T("GM-entered: the fragment does not contain this table", "вводит мастер: во фрагменте нет этой таблицы")


def _gm_number(name: str, label, *, lo: int = 0, hi: int = OPEN_SMALL) -> Field:
    """A number the GM enters because the book's fragment lacks its table."""
    return Field(name, label, "input", min=lo, max=hi, help=GM_HELP, gm_entered=True)


def _choices(keys, labels):
    return tuple((k, labels[k]) for k in keys)


_header = Section(
    "header",
    T("Hero", "Герой"),
    (
        Field("name", T("Name", "Имя"), "text"),
        Field(
            "entity_type", T("Type", "Тип"), "choice", choices=_choices(ENTITY_TYPES, ENTITY_LABELS), creation_only=True
        ),
        Field(
            "size",
            T("Size", "Размер"),
            "choice",
            choices=_choices(SIZES, SIZE_LABELS),
            source="sizes",
            creation_only=True,
        ),
        Field(
            "gm_approved_size",
            T("Size approved by the GM", "Размер согласован с мастером"),
            "flag",
            gm_only=True,  # the GM's agreement (L303), not the player's
        ),
        Field(
            "quadruped",
            T("Quadruped", "Четвероногое"),
            "flag",
            help=T("Speed ×2 on the ground", "Скорость ×2 на земле"),
        ),  # L318
        Field("flying", T("Flying", "Летает"), "flag", help=T("Speed ×3 in flight", "Скорость ×3 в полёте")),  # L319
        _gm_number("size_hp_mult", T("HP multiplier (size)", "Множитель ЕЗ (размер)"), lo=1),
        _gm_number("size_sbp", T("Size bonus/penalty", "БШР"), lo=-10, hi=10),
        Field(
            "gm_missing",
            T("Needs GM values", "Нужны значения мастера"),
            "derived",
            help=T("values the fragment lacks; the GM enters them", "чего нет во фрагменте; вводит мастер"),
            gm_entered=True,
            labels={"field": T("Field", "Поле листа")},
        ),
        Field(
            "concept",
            T("Concept", "Концепция"),
            "longtext",
            help=T(
                "origin, character, loves and hates, friends and foes, family, age, livelihood",  # L249-250
                "происхождение, характер, симпатии, друзья и враги, семья, возраст, занятие",
            ),
        ),
    ),
    columns=2,
)

#: A hero's score is 1-20 (L271-276; the model checks it); an NPC's has no cap in the book (§3.9):
#: 999 is far above any creature of the bestiary.
NPC_SCORE_MAX = 999
#: A skill's value: the model takes 0-99 (the GM's creatures included).
SKILL_MAX = 99

_char_fields = []
for _c in CHARACTERISTICS:
    lab = CHAR_LABELS[_c]
    _char_fields += [
        Field(
            _c,
            lab,
            "input",
            min=0,
            max=NPC_SCORE_MAX,
            column="score",
            row=_c,
            column_label=T("Score", "Значение"),
            help=T(
                "1 point = 1 score; 1-18 at creation, at most 20 later",  # L271-276
                "1 очко = 1 единица; при создании 1-18, позже не выше 20",
            ),
            creation_only=True,  # the creation point-buy (L271)
        ),
        Field(
            _c + "_mod",
            T(f"{lab['en']} modifier", f"Модификатор: {lab['ru']}"),
            "derived",
            help=T("(score − 10) / 2, rounded down", "(значение - 10) / 2, с округлением вниз"),  # L295
            column="mod",
            row=_c,
            signed=True,
            column_label=T("Modifier", "Модификатор"),
            extra={"check": _c},
        ),
        Field(
            _c + "_bonus",
            T("bonus", "бонус"),
            "input",
            min=-OPEN_SMALL,
            max=OPEN_SMALL,
            column="bonus",
            row=_c,
            column_label=T("Bonus", "Бонус"),
            help=T("ordinary bonus; the score stays at most 20", "обычный бонус; не выше 20"),
        ),  # L274
        Field(
            _c + "_implant",
            T("stimulant / implant", "стимулятор / имплантат"),
            "input",
            min=0,
            max=OPEN_SMALL,
            column="implant",
            row=_c,
            column_label=T("Stimulant / implant", "Стимулятор / имплантат"),
            help=T("may exceed 20", "может превышать 20"),
        ),  # L274
        Field(
            _c + "_drain",
            T("drain", "потеря"),
            "input",
            min=0,
            max=OPEN_SMALL,
            column="drain",
            row=_c,
            column_label=T("Drain", "Потеря"),
            help=T("poison, disease; at 0 every check with it fails", "яд, болезнь; при 0 — провал всех проверок"),
        ),  # L362-363
    ]
_chars = Section(
    "characteristics",
    T("Characteristics", "Характеристики"),
    tuple(_char_fields)
    + (
        Field("effective", T("Effective scores", "Итоговые значения"), "derived"),
        Field(
            "char_points_spent",
            T("Characteristic points spent", "Потрачено очков характеристик"),
            "derived",
            help=T("budget 70", "всего 70"),
            budget=70,
        ),  # L271
    ),
    layout="grid",
    columns=5,
)

_secondary = Section(
    "secondary",
    T("Secondary", "Вторичные"),
    (
        Field(
            "hp_max",
            T("Health Units (max)", "Единицы Здоровья (макс.)"),
            "derived",
            help=T("CON × size multiplier; Medium ×3", "Вн × множитель размера; Средний ×3"),
        ),  # L313-314
        Field(
            "speed",
            T("Speed", "Скорость"),
            "derived",
            extra={"check": "speed"},
            help=T(
                "(DEX + CON) / 4, at least 1; ± SBP; ×2 quadruped; ×3 flying; stealthy ÷2",  # L316-319, L403
                "(Лв + Вн) / 4, не меньше 1; ± БШР; ×2 четвероногие; ×3 летающие; скрытно ÷2",
            ),
        ),
        Field(
            "will",
            T("Will", "Воля"),
            "derived",
            extra={"check": "will"},
            help=T("(INT + WIS) / 4, at least 1", "(Ин + Мд) / 4, не меньше 1"),
        ),  # L321
        Field(
            "reaction",
            T("Reaction", "Реакция"),
            "derived",
            extra={"check": "reaction"},
            help=T("(DEX + WIS) / 4, at least 1; acting order", "(Лв + Мд) / 4, не меньше 1; очерёдность"),
        ),  # L323
        Field(
            "speed_stealthy",
            T("Speed (stealthy)", "Скорость (скрытно)"),
            "derived",
            help=T("moving stealthily halves Speed, rounded down", "скрытное передвижение: Скорость вдвое меньше"),
        ),  # L403
        Field("speed_drain", T("Speed lost", "Потеря Скорости"), "input", min=0, max=OPEN_SMALL),
        Field("will_drain", T("Will lost", "Потеря Воли"), "input", min=0, max=OPEN_SMALL),
        Field("reaction_drain", T("Reaction lost", "Потеря Реакции"), "input", min=0, max=OPEN_SMALL),
    ),
    columns=4,
)

_health = Section(
    "health",
    T("Health", "Здоровье"),
    (
        Field(
            "hp",
            T("Health Units", "Единицы Здоровья"),
            "resource",
            min=-OPEN_LARGE,
            max=OPEN_LARGE,
            max_trait="hp_max",
            help=T(
                "at 0 or less the GM decides: unconscious or dying (rules missing)",
                "при 0 и меньше решает мастер: без сознания или при смерти",
            ),
        ),
        _gm_number("dangerous_wound_threshold", T("Dangerous wound threshold", "Порог Опасной раны"), lo=1),
        Field("conditions", T("Conditions", "Состояния"), "tags", source="conditions"),
        Field(
            "medicine_today",
            T("Healed by Medicine today", "Лечился Медициной сегодня"),
            "flag",
            help=T("Medicine heals a patient once a day", "Медицина лечит раз в день"),
        ),  # L439
        Field(
            "medicine_given_today",
            T("Healed someone today", "Лечил сегодня"),
            "flag",
            help=T("used when the GM limits Medicine per medic", "если мастер ограничивает Медицину по лекарю"),
        ),  # A28
        Field(
            "treatment",
            T("Treatment in progress", "Идёт лечение"),
            "derived",
            help=T(
                "Medicine in combat takes 10 − skill − modifier turns, at least 1; losing HP ≥ Will interrupts it",  # L441
                "Медицина в бою: 10 − Навык − модификатор, не меньше 1 Очереди; потеря ЕЗ ≥ Воли прерывает",
            ),  # L441
            extra={"method": "treatment_status", "persisted": True},
        ),
    ),
    layout="resources",
)

_weapon_items = (
    Field("name", T("Weapon", "Оружие"), "text"),
    Field(
        "kind",
        T("Kind", "Вид"),
        "choice",
        choices=(
            ("melee", T("melee", "ближнее")),
            ("unarmed", T("unarmed", "без оружия")),
            ("ranged", T("ranged", "стрелковое")),
            ("thrown", T("thrown", "метательное")),
            ("bow", T("bow", "лук")),
        ),
    ),
    _gm_number("dmb", T("Damage bonus", "БПв"), lo=-OPEN_SMALL),
    Field("light", T("Light", "Лёгкое"), "flag"),
    Field("cumbersome", T("Cumbersome", "Громоздкое"), "flag"),
    Field("reload", T("Reload", "Перезарядка"), "flag"),
    Field("built_in", T("Built-in (robot)", "Встроенное (робот)"), "flag"),
    Field("equipped", T("In use", "Используется"), "flag"),
    Field("notes", T("Notes", "Заметки"), "text"),
)
_combat = Section(
    "combat",
    T("Combat", "Бой"),
    (
        Field(
            "defense",
            T("Defense", "Защита"),
            "derived",
            help=T(
                "Base Defense + DEX mod (capped) + armour + shield (+ Martial arts WIS mod)",  # L340
                "БАЗщ + МЛв + БДЗщ + БЩЗщ",
            ),
        ),
        Field("base_defense", T("Base Defense", "Базовая защита"), "derived", help=T("10 - SBP", "10 - БШР")),  # L341
        Field(
            "dexterity_mod_effective",
            T("DEX modifier (after caps)", "МЛв (с ограничением)"),
            "derived",
            help=T("armour and shields may cap it", "доспех и щит могут ограничивать"),
        ),  # L346
        Field(
            "valor",
            T("Valor", "Доблесть"),
            "derived",
            extra={"check": "valor"},
            help=T(
                "Weapon handling + STR mod + DEX mod + weapon DMB (+1 Veteran)",  # L336, L537
                "Владение оружием + МСл + МЛв + БПв (+1 Ветеран)",
            ),
        ),  # L336
        Field(
            "valor_unarmed",
            T("Valor (unarmed)", "Доблесть (без оружия)"),
            "derived",
            extra={"check": "valor_unarmed"},
            help=T(
                "Unarmed combat + STR mod + DEX mod (+1 Martial arts, +1 Veteran)",  # L527, L537
                "Рукопашный бой + МСл + МЛв (+1 Боевые искусства, +1 Ветеран)",
            ),
        ),
        Field(
            "marksmanship",
            T("Marksmanship", "Меткость"),
            "derived",
            extra={"check": "marksmanship"},
            help=T(
                "Shooting + DEX mod + DMB (+STR mod for bows and thrown; +1 Veteran)",  # L338, L537
                "Стрельба + МЛв + БПв (+МСл для луков и метательного; +1 Ветеран)",
            ),
        ),  # L338
        Field(
            "durability",
            T("Durability", "Прочность"),
            "derived",
            help=T("subtracted from every Damage", "вычитается из Повреждений"),
        ),  # L347
        _gm_number("durability_gm", T("Durability (entered)", "Прочность (ввод)")),
        Field("armour_name", T("Armour", "Доспех"), "text"),
        _gm_number("armour_bonus", T("Armour defense bonus", "БДЗщ")),
        _gm_number("armour_max_dex", T("Armour max DEX mod", "Макс. МЛв доспеха"), lo=-OPEN_SMALL),
        Field("shield_name", T("Shield", "Щит"), "text"),
        _gm_number("shield_bonus", T("Shield defense bonus", "БЩЗщ")),
        _gm_number("shield_max_dex", T("Shield max DEX mod", "Макс. МЛв щита"), lo=-OPEN_SMALL),
        Field("weapons_list", T("Weapons", "Оружие"), "list", item_fields=_weapon_items),
        Field(
            "attacks",
            T("Attacks", "Атаки"),
            "derived",
            help=T(
                "Valor or Marksmanship per weapon; 0 XP in the skill: Hindrance",  # L380
                "Доблесть или Меткость по оружию; 0 ОО в навыке — Помеха",
            ),
            labels={
                "skill": T("Skill", "Навык"),
                "rating": T("Valor / Marksmanship", "Доблесть / Меткость"),
                "hindrance": T("Hindrance", "Помеха"),
                "dmb": T("DMB", "БПв"),
            },
        ),
        Field("immunities", T("Immunities", "Иммунитеты"), "tags", choice_values=["poison", "contaminating"]),
        Field("resistances", T("Resistances", "Сопротивления"), "tags", choice_values=["poison", "contaminating"]),
    ),
    columns=3,
)

_skill_fields = []
for _s, (_en, _ru, _chars_of) in SKILLS.items():
    expert = _s in EXPERT_SKILLS
    _skill_fields.append(
        Field(
            _s,
            T(_en, _ru),
            "input",
            min=0,
            max=SKILL_MAX,
            group="expert" if expert else "basic",
            badge=T("E", "Э") if expert else None,
            creation_only=True,  # in play skills grow only by XP (advancement, L369)
            extra={"characteristics": list(_chars_of), "checks": [f"{c}+{_s}" for c in _chars_of]},
            help=T(
                "XP invested; at most Intelligence; 0 XP: Hindrance"  # L370, L379
                + ("; without access: static 5 + modifier" if expert else ""),  # L413
                "вложенные Очки опыта; не выше Интеллекта; 0 — с Помехой"
                + ("; без доступа: 5 + модификатор" if expert else ""),
            ),
        )
    )
_skills = Section(
    "skills",
    T("Skills", "Навыки"),
    tuple(_skill_fields)
    + (
        Field(
            "expert_access",
            T("Expert access (Tricks, GM)", "Доступ к Экспертным (Трюки, мастер)"),
            "tags",
            choice_values=list(EXPERT_SKILLS),
        ),
        Field("access", T("Expert skills accessible", "Доступные Экспертные навыки"), "derived"),
        Field(
            "custom_skills",
            T("GM-added and split skills", "Навыки мастера и разделённые"),
            "list",
            item_fields=(
                Field("code", T("Code", "Код"), "text"),
                Field("en", T("Name (en)", "Название (en)"), "text"),
                Field("ru", T("Name (ru)", "Название (ru)"), "text"),
                Field(
                    "kind",
                    T("Kind", "Вид"),
                    "choice",
                    choices=(("basic", T("basic", "основной")), ("expert", T("expert", "экспертный"))),
                ),
                Field(
                    "parent",
                    T("Split from", "Часть навыка"),
                    "choice",
                    choices=tuple((s, T(*SKILLS[s][:2])) for s in EXPERT_SKILLS),
                ),
                Field("value", T("XP", "ОО"), "input", min=0, max=SKILL_MAX),
            ),
            gm_entered=True,
        ),
        Field("skill_cap", T("Skill cap (INT)", "Предел навыка (Ин)"), "derived"),
        Field("skill_xp_spent", T("XP in skills", "ОО в навыках"), "derived"),
        Field(
            "creation_xp",
            T("Creation XP", "ОО при создании"),
            "derived",
            help=T("10 + 5 per refused Attribute", "10 + 5 за каждый отказ от Атрибута"),
        ),  # L263, L268
        Field("creation_xp_left", T("Creation XP left", "Осталось ОО создания"), "derived"),
    ),
    layout="grid",
    columns=3,
)

_fate = Section(
    "fate",
    T("Fate", "Судьба"),
    (
        Field(
            "threads",
            T("Threads of Fate", "Нити Судьбы"),
            "resource",
            min=0,
            max=5,
            help=T("2 at the start of each meeting, at most 5", "2 в начале встречи, не больше 5"),
            pips=True,
        ),  # L164
        Field(
            "threads_bought",
            T("Threads bought this meeting", "Куплено Нитей за встречу"),
            "input",
            min=0,
            max=OPEN_SMALL,
            creation_only=True,  # counted by the XP-for-Threads advance (L167-168)
        ),
        Field("xp_free", T("Unspent XP", "Свободные ОО"), "input", min=0, max=OPEN_LARGE, creation_only=True),
        Field(
            "xp_total",
            T("XP earned", "Заработано ОО"),
            "input",
            min=0,
            max=OPEN_LARGE,
            help=T("awards are GM-entered (rules missing)", "награды вводит мастер"),
            creation_only=True,  # in play the GM's awards add to it
        ),
        Field(
            "bonus_xp",
            T("XP for refused Attributes", "ОО за отказ от Атрибутов"),
            "input",
            min=0,
            max=OPEN_LARGE,
            help=T("empty: automatic (5 per refused Attribute)", "пусто: автоматически (5 за отказ)"),
        ),
        Field(
            "xp_log",
            T("XP ledger", "Журнал ОО"),
            "list",
            item_fields=(
                Field("reason", T("Reason", "Причина"), "text"),
                Field("amount", T("Amount", "Количество"), "input", min=-OPEN_LARGE, max=OPEN_LARGE),
            ),
        ),
        Field("gm_caprice_used", T("GM Caprice used this scene", "Каприз мастера в этой сцене"), "flag"),
    ),
    layout="resources",
    # buttons the sheet offers next to the Threads pips (data tables with costs and timing)
    actions=(
        SheetAction(T("Moves of Fate", "Ходы Судьбы"), "make_move", source="moves", cost_field="cost_min"),
        SheetAction(T("Caprices of Fate", "Капризы Судьбы"), "invoke_caprice", source="caprices"),
        SheetAction(T("Buy Threads with XP", "Купить Нити за Очки опыта"), "buy_threads"),
    ),
)

_attributes = Section(
    "attributes",
    T("Attributes", "Атрибуты"),
    (
        Field(
            "attributes",
            T("Attributes", "Атрибуты"),
            "list",
            source="attributes",
            item_fields=(
                Field(
                    "code",
                    T("Attribute", "Атрибут"),
                    "choice",
                    source="attributes",
                    choices=tuple(
                        (k, T(en, ru))
                        for k, en, ru in (
                            ("augmented", "Augmented", "Аугментированный"),
                            ("combat_robot", "Combat robot", "Боевой робот"),
                            ("martial_arts", "Martial arts", "Боевые искусства"),
                            ("veteran", "Veteran", "Ветеран"),
                            ("custom", "Custom", "Свой"),
                        )
                    ),
                ),
                Field("name", T("Name", "Название"), "text"),
                Field(
                    "expert_access",
                    T("Expert access", "Доступ к Экспертным"),
                    "choice",
                    choices=tuple((s, T(*SKILLS[s][:2])) for s in EXPERT_SKILLS),
                    multiple=True,
                ),
                Field("dark_side", T("Dark side", "Тёмная сторона"), "text"),
                Field("notes", T("Notes", "Заметки"), "longtext"),
            ),
        ),
        Field(
            "changes",
            T("Changes (Augmented)", "Изменения (Аугментированный)"),
            "list",
            item_fields=(
                Field("name", T("Change", "Изменение"), "text"),
                Field("effect", T("Effect", "Эффект"), "text"),
            ),
            gm_entered=True,
        ),
        Field(
            "change_activations_used",
            T("Activations used this meeting", "Активаций за встречу"),
            "resource",
            min=0,
            max=OPEN_SMALL,
            max_trait="augmented_pool",
        ),
        Field(
            "augmented_pool",
            T("Activations per meeting", "Активаций за встречу (всего)"),
            "derived",
            help=T("1 + CON mod, at least 1", "1 + МВн, не меньше 1"),
        ),  # L499
        Field(
            "augmented_max_changes",
            T("Max Changes", "Макс. Изменений"),
            "derived",
            help=T("CON mod, at least 1", "МВн, не меньше 1"),
        ),  # L498
        Field(
            "robot_max_weapons",
            T("Built-in weapon slots", "Слоты встроенного оружия"),
            "derived",
            help=T("1 + CON mod", "1 + МВн"),
        ),  # L512
        Field("martial_arts_active", T("Martial arts benefits active", "Преимущества Боевых искусств"), "derived"),
    ),
    layout="table",
)

_story = Section(
    "story",
    T("Tricks, Flaws, Facets, Bonds", "Трюки, Недостатки, Грани, Узы"),
    (
        Field(
            "tricks",
            T("Tricks", "Трюки"),
            "list",
            source="referenced_names",
            item_fields=(
                Field("name", T("Trick", "Трюк"), "text"),
                Field("text", T("Effect", "Эффект"), "text"),
                Field(
                    "expert_access",
                    T("Grants access to", "Даёт доступ к"),
                    "choice",
                    choices=tuple((s, T(*SKILLS[s][:2])) for s in EXPERT_SKILLS),
                    multiple=True,
                ),
            ),
            help=T("2 at creation; 5 XP later", "2 при создании; позже 5 ОО"),
            creation_only=True,  # in play a Trick is bought for XP (advancement, L157)
        ),  # L157, L264
        Field(
            "flaws",
            T("Flaws", "Недостатки"),
            "list",
            item_fields=(Field("name", T("Flaw", "Недостаток"), "text"), Field("text", T("Notes", "Заметки"), "text")),
            help=T(
                "0-2 at creation; bringing one into play is Caprice (+1 Thread)", "0-2; ввод в игру — Каприз (+1 Нить)"
            ),
        ),
        Field(
            "facets",
            T("Facets", "Грани"),
            "list",
            item_fields=(
                Field("name", T("Facet", "Грань"), "text"),
                Field("heads", T("Heads", "Орёл"), "text"),
                Field("tails", T("Tails", "Решка"), "text"),
            ),
            help=T("one per Attribute; Heads = Move M9, Tails = Caprice C5 (rules missing)", "по одной на Атрибут"),
            creation_only=True,  # picked with the Attributes at creation (L266)
        ),
        Field(
            "bonds",
            T("Bonds", "Узы"),
            "list",
            item_fields=(Field("name", T("Bond", "Узы"), "text"), Field("text", T("Notes", "Заметки"), "text")),
            help=T("0-2 at creation", "0-2 при создании"),
        ),  # L267
        Field("roles", T("Role", "Амплуа"), "text", gm_entered=True),
        Field("wealth", T("Wealth", "Богатство"), "text", help=GM_HELP, gm_entered=True),
    ),
    layout="table",
)

_notes = Section(
    "notes",
    T("Equipment and notes", "Снаряжение и заметки"),
    (
        Field("equipment", T("Equipment", "Снаряжение"), "longtext", help=GM_HELP, gm_entered=True),
        Field("notes", T("Notes", "Заметки"), "longtext"),
    ),
    layout="text",
)

SHEET = Sheet((_header, _chars, _secondary, _health, _combat, _skills, _fate, _attributes, _story, _notes))
