"""The declarative character sheet of Threads of Fate (spec §10.1)."""

from __future__ import annotations

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.sheet import OPEN_LARGE, OPEN_SMALL, Field, Section, Sheet, SheetAction
from tabletop_widgets.core.sheet_helpers import (
    NOTES,
    choice,
    derived,
    entries,
    flag,
    labelled,
    longtext,
    notes_section,
    number,
    numbers,
    pick,
    resource,
    text,
)

from .sizes import SIZES, SIZE_LABELS
from .traits import CHARACTERISTICS, CHAR_LABELS, ENTITY_LABELS, ENTITY_TYPES, EXPERT_SKILLS, SKILLS


GM_HELP = T("GM-entered: the fragment does not contain this table", "вводит мастер: во фрагменте нет этой таблицы")


def _gm_number(name: str, label, *, lo: int = 0, hi: int = OPEN_SMALL) -> Field:
    """A number the GM enters because the book's fragment lacks its table."""
    return number(name, label, lo, hi, help=GM_HELP, gm_entered=True)


#: the Expert skills as choices (an Attribute's or a Trick's access, a split skill's parent)
_EXPERT_CHOICES = tuple((s, T(*SKILLS[s][:2])) for s in EXPERT_SKILLS)

_header = Section(
    "header",
    T("Hero", "Герой"),
    (
        text("name", T("Name", "Имя")),
        choice("entity_type", T("Type", "Тип"), pick(ENTITY_TYPES, ENTITY_LABELS), creation_only=True),
        choice("size", T("Size", "Размер"), pick(SIZES, SIZE_LABELS), source="sizes", creation_only=True),
        flag(
            "gm_approved_size",
            T("Size approved by the GM", "Размер согласован с мастером"),
            gm_only=True,  # the GM's agreement (L303), not the player's
        ),
        flag(
            "quadruped", T("Quadruped", "Четвероногое"), help=T("Speed ×2 on the ground", "Скорость ×2 на земле")
        ),  # L318
        flag("flying", T("Flying", "Летает"), help=T("Speed ×3 in flight", "Скорость ×3 в полёте")),  # L319
        _gm_number("size_hp_mult", T("HP multiplier (size)", "Множитель ЕЗ (размер)"), lo=1),
        _gm_number("size_sbp", T("Size bonus/penalty", "БШР"), lo=-10, hi=10),
        derived(
            "gm_missing",
            T("Needs GM values", "Нужны значения мастера"),
            T("values the fragment lacks; the GM enters them", "чего нет во фрагменте; вводит мастер"),
            gm_entered=True,
            labels={"field": T("Field", "Поле листа")},
        ),
        longtext(
            "concept",
            T("Concept", "Концепция"),
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

#: The editable columns after a characteristic's score and modifier:
#: (column, label, column heading, lowest value, help).
_ADDED_COLUMNS = (
    (
        "bonus",
        T("bonus", "бонус"),
        T("Bonus", "Бонус"),
        -OPEN_SMALL,
        T("ordinary bonus; the score stays at most 20", "обычный бонус; не выше 20"),  # L274
    ),
    (
        "implant",
        T("stimulant / implant", "стимулятор / имплантат"),
        T("Stimulant / implant", "Стимулятор / имплантат"),
        0,
        T("may exceed 20", "может превышать 20"),  # L274
    ),
    (
        "drain",
        T("drain", "потеря"),
        T("Drain", "Потеря"),
        0,
        T("poison, disease; at 0 every check with it fails", "яд, болезнь; при 0 — провал всех проверок"),  # L362-363
    ),
)


def _characteristic(c: str) -> tuple[Field, ...]:
    """One row of the characteristics matrix: the score, its derived modifier and the added
    columns."""
    lab = CHAR_LABELS[c]
    return (
        number(
            c,
            lab,
            0,
            NPC_SCORE_MAX,
            column="score",
            row=c,
            column_label=T("Score", "Значение"),
            help=T(
                "1 point = 1 score; 1-18 at creation, at most 20 later",  # L271-276
                "1 очко = 1 единица; при создании 1-18, позже не выше 20",
            ),
            creation_only=True,  # the creation point-buy (L271)
        ),
        derived(
            c + "_mod",
            T(f"{lab['en']} modifier", f"Модификатор: {lab['ru']}"),
            T("(score − 10) / 2, rounded down", "(значение - 10) / 2, с округлением вниз"),  # L295
            column="mod",
            row=c,
            signed=True,
            column_label=T("Modifier", "Модификатор"),
            extra={"check": c},
        ),
        *(
            number(f"{c}_{col}", label, lo, OPEN_SMALL, column=col, row=c, column_label=heading, help=help)
            for col, label, heading, lo, help in _ADDED_COLUMNS
        ),
    )


_chars = Section(
    "characteristics",
    T("Characteristics", "Характеристики"),
    tuple(f for c in CHARACTERISTICS for f in _characteristic(c))
    + (
        derived("effective", T("Effective scores", "Итоговые значения")),
        derived(
            "char_points_spent",
            T("Characteristic points spent", "Потрачено очков характеристик"),
            T("budget 70", "всего 70"),
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
        derived(
            "hp_max",
            T("Health Units (max)", "Единицы Здоровья (макс.)"),
            T("CON × size multiplier; Medium ×3", "Вн × множитель размера; Средний ×3"),
        ),  # L313-314
        derived(
            "speed",
            T("Speed", "Скорость"),
            T(
                "(DEX + CON) / 4, at least 1; ± SBP; ×2 quadruped; ×3 flying; stealthy ÷2",  # L316-319, L403
                "(Лв + Вн) / 4, не меньше 1; ± БШР; ×2 четвероногие; ×3 летающие; скрытно ÷2",
            ),
            extra={"check": "speed"},
        ),
        derived(
            "will",
            T("Will", "Воля"),
            T("(INT + WIS) / 4, at least 1", "(Ин + Мд) / 4, не меньше 1"),
            extra={"check": "will"},
        ),  # L321
        derived(
            "reaction",
            T("Reaction", "Реакция"),
            T("(DEX + WIS) / 4, at least 1; acting order", "(Лв + Мд) / 4, не меньше 1; очерёдность"),
            extra={"check": "reaction"},
        ),  # L323
        derived(
            "speed_stealthy",
            T("Speed (stealthy)", "Скорость (скрытно)"),
            T("moving stealthily halves Speed, rounded down", "скрытное передвижение: Скорость вдвое меньше"),
        ),  # L403
        *numbers(
            0,
            OPEN_SMALL,
            ("speed_drain", T("Speed lost", "Потеря Скорости")),
            ("will_drain", T("Will lost", "Потеря Воли")),
            ("reaction_drain", T("Reaction lost", "Потеря Реакции")),
        ),
    ),
    columns=4,
)

_health = Section(
    "health",
    T("Health", "Здоровье"),
    (
        resource(
            "hp",
            T("Health Units", "Единицы Здоровья"),
            -OPEN_LARGE,
            OPEN_LARGE,
            "hp_max",
            T(
                "at 0 or less the GM decides: unconscious or dying (rules missing)",
                "при 0 и меньше решает мастер: без сознания или при смерти",
            ),
        ),
        _gm_number("dangerous_wound_threshold", T("Dangerous wound threshold", "Порог Опасной раны"), lo=1),
        Field("conditions", T("Conditions", "Состояния"), "tags", source="conditions"),
        flag(
            "medicine_today",
            T("Healed by Medicine today", "Лечился Медициной сегодня"),
            help=T("Medicine heals a patient once a day", "Медицина лечит раз в день"),
        ),  # L439
        flag(
            "medicine_given_today",
            T("Healed someone today", "Лечил сегодня"),
            help=T("used when the GM limits Medicine per medic", "если мастер ограничивает Медицину по лекарю"),
        ),  # A28
        derived(
            "treatment",
            T("Treatment in progress", "Идёт лечение"),
            T(
                "Medicine in combat takes 10 − skill − modifier turns, at least 1; losing HP ≥ Will interrupts it",  # L441
                "Медицина в бою: 10 − Навык − модификатор, не меньше 1 Очереди; потеря ЕЗ ≥ Воли прерывает",
            ),  # L441
            extra={"method": "treatment_status", "persisted": True},
        ),
    ),
    layout="resources",
)

_weapon_items = (
    text("name", T("Weapon", "Оружие")),
    choice(
        "kind",
        T("Kind", "Вид"),
        labelled(
            ("melee", "melee", "ближнее"),
            ("unarmed", "unarmed", "без оружия"),
            ("ranged", "ranged", "стрелковое"),
            ("thrown", "thrown", "метательное"),
            ("bow", "bow", "лук"),
        ),
    ),
    _gm_number("dmb", T("Damage bonus", "БПв"), lo=-OPEN_SMALL),
    flag("light", T("Light", "Лёгкое")),
    flag("cumbersome", T("Cumbersome", "Громоздкое")),
    flag("reload", T("Reload", "Перезарядка")),
    flag("built_in", T("Built-in (robot)", "Встроенное (робот)")),
    flag("equipped", T("In use", "Используется")),
    text("notes", NOTES),
)
_combat = Section(
    "combat",
    T("Combat", "Бой"),
    (
        derived(
            "defense",
            T("Defense", "Защита"),
            T(
                "Base Defense + DEX mod (capped) + armour + shield (+ Martial arts WIS mod)",  # L340
                "БАЗщ + МЛв + БДЗщ + БЩЗщ",
            ),
        ),
        derived("base_defense", T("Base Defense", "Базовая защита"), T("10 - SBP", "10 - БШР")),  # L341
        derived(
            "dexterity_mod_effective",
            T("DEX modifier (after caps)", "МЛв (с ограничением)"),
            T("armour and shields may cap it", "доспех и щит могут ограничивать"),
        ),  # L346
        derived(
            "valor",
            T("Valor", "Доблесть"),
            T(
                "Weapon handling + STR mod + DEX mod + weapon DMB (+1 Veteran)",  # L336, L537
                "Владение оружием + МСл + МЛв + БПв (+1 Ветеран)",
            ),
            extra={"check": "valor"},
        ),  # L336
        derived(
            "valor_unarmed",
            T("Valor (unarmed)", "Доблесть (без оружия)"),
            T(
                "Unarmed combat + STR mod + DEX mod (+1 Martial arts, +1 Veteran)",  # L527, L537
                "Рукопашный бой + МСл + МЛв (+1 Боевые искусства, +1 Ветеран)",
            ),
            extra={"check": "valor_unarmed"},
        ),
        derived(
            "marksmanship",
            T("Marksmanship", "Меткость"),
            T(
                "Shooting + DEX mod + DMB (+STR mod for bows and thrown; +1 Veteran)",  # L338, L537
                "Стрельба + МЛв + БПв (+МСл для луков и метательного; +1 Ветеран)",
            ),
            extra={"check": "marksmanship"},
        ),  # L338
        derived(
            "durability",
            T("Durability", "Прочность"),
            T("subtracted from every Damage", "вычитается из Повреждений"),
        ),  # L347
        _gm_number("durability_gm", T("Durability (entered)", "Прочность (ввод)")),
        text("armour_name", T("Armour", "Доспех")),
        _gm_number("armour_bonus", T("Armour defense bonus", "БДЗщ")),
        _gm_number("armour_max_dex", T("Armour max DEX mod", "Макс. МЛв доспеха"), lo=-OPEN_SMALL),
        text("shield_name", T("Shield", "Щит")),
        _gm_number("shield_bonus", T("Shield defense bonus", "БЩЗщ")),
        _gm_number("shield_max_dex", T("Shield max DEX mod", "Макс. МЛв щита"), lo=-OPEN_SMALL),
        entries("weapons_list", T("Weapons", "Оружие"), *_weapon_items),
        derived(
            "attacks",
            T("Attacks", "Атаки"),
            T(
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


def _skill(s: str) -> Field:
    en, ru, chars_of = SKILLS[s]
    expert = s in EXPERT_SKILLS
    return number(
        s,
        T(en, ru),
        0,
        SKILL_MAX,
        group="expert" if expert else "basic",
        badge=T("E", "Э") if expert else None,
        creation_only=True,  # in play skills grow only by XP (advancement, L369)
        extra={"characteristics": list(chars_of), "checks": [f"{c}+{s}" for c in chars_of]},
        help=T(
            "XP invested; at most Intelligence; 0 XP: Hindrance"  # L370, L379
            + ("; without access: static 5 + modifier" if expert else ""),  # L413
            "вложенные Очки опыта; не выше Интеллекта; 0 — с Помехой"
            + ("; без доступа: 5 + модификатор" if expert else ""),
        ),
    )


_skills = Section(
    "skills",
    T("Skills", "Навыки"),
    tuple(_skill(s) for s in SKILLS)
    + (
        Field(
            "expert_access",
            T("Expert access (Tricks, GM)", "Доступ к Экспертным (Трюки, мастер)"),
            "tags",
            choice_values=list(EXPERT_SKILLS),
        ),
        derived("access", T("Expert skills accessible", "Доступные Экспертные навыки")),
        entries(
            "custom_skills",
            T("GM-added and split skills", "Навыки мастера и разделённые"),
            text("code", T("Code", "Код")),
            text("en", T("Name (en)", "Название (en)")),
            text("ru", T("Name (ru)", "Название (ru)")),
            choice(
                "kind", T("Kind", "Вид"), labelled(("basic", "basic", "основной"), ("expert", "expert", "экспертный"))
            ),
            choice("parent", T("Split from", "Часть навыка"), _EXPERT_CHOICES),
            number("value", T("XP", "ОО"), 0, SKILL_MAX),
            gm_entered=True,
        ),
        derived("skill_cap", T("Skill cap (INT)", "Предел навыка (Ин)")),
        derived("skill_xp_spent", T("XP in skills", "ОО в навыках")),
        derived(
            "creation_xp",
            T("Creation XP", "ОО при создании"),
            T("10 + 5 per refused Attribute", "10 + 5 за каждый отказ от Атрибута"),
        ),  # L263, L268
        derived("creation_xp_left", T("Creation XP left", "Осталось ОО создания")),
    ),
    layout="grid",
    columns=3,
)

_fate = Section(
    "fate",
    T("Fate", "Судьба"),
    (
        resource(
            "threads",
            T("Threads of Fate", "Нити Судьбы"),
            0,
            5,
            help=T("2 at the start of each meeting, at most 5", "2 в начале встречи, не больше 5"),
            pips=True,
        ),  # L164
        number(
            "threads_bought",
            T("Threads bought this meeting", "Куплено Нитей за встречу"),
            0,
            OPEN_SMALL,
            creation_only=True,  # counted by the XP-for-Threads advance (L167-168)
        ),
        number("xp_free", T("Unspent XP", "Свободные ОО"), 0, OPEN_LARGE, creation_only=True),
        number(
            "xp_total",
            T("XP earned", "Заработано ОО"),
            0,
            OPEN_LARGE,
            help=T("awards are GM-entered (rules missing)", "награды вводит мастер"),
            creation_only=True,  # in play the GM's awards add to it
        ),
        number(
            "bonus_xp",
            T("XP for refused Attributes", "ОО за отказ от Атрибутов"),
            0,
            OPEN_LARGE,
            help=T("empty: automatic (5 per refused Attribute)", "пусто: автоматически (5 за отказ)"),
        ),
        entries(
            "xp_log",
            T("XP ledger", "Журнал ОО"),
            text("reason", T("Reason", "Причина")),
            number("amount", T("Amount", "Количество"), -OPEN_LARGE, OPEN_LARGE),
        ),
        flag("gm_caprice_used", T("GM Caprice used this scene", "Каприз мастера в этой сцене")),
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
        entries(
            "attributes",
            T("Attributes", "Атрибуты"),
            choice(
                "code",
                T("Attribute", "Атрибут"),
                labelled(
                    ("augmented", "Augmented", "Аугментированный"),
                    ("combat_robot", "Combat robot", "Боевой робот"),
                    ("martial_arts", "Martial arts", "Боевые искусства"),
                    ("veteran", "Veteran", "Ветеран"),
                    ("custom", "Custom", "Свой"),
                ),
                source="attributes",
            ),
            text("name", T("Name", "Название")),
            choice("expert_access", T("Expert access", "Доступ к Экспертным"), _EXPERT_CHOICES, multiple=True),
            text("dark_side", T("Dark side", "Тёмная сторона")),
            longtext("notes", NOTES),
            source="attributes",
        ),
        entries(
            "changes",
            T("Changes (Augmented)", "Изменения (Аугментированный)"),
            text("name", T("Change", "Изменение")),
            text("effect", T("Effect", "Эффект")),
            gm_entered=True,
        ),
        resource(
            "change_activations_used",
            T("Activations used this meeting", "Активаций за встречу"),
            0,
            OPEN_SMALL,
            "augmented_pool",
        ),
        derived(
            "augmented_pool",
            T("Activations per meeting", "Активаций за встречу (всего)"),
            T("1 + CON mod, at least 1", "1 + МВн, не меньше 1"),
        ),  # L499
        derived(
            "augmented_max_changes", T("Max Changes", "Макс. Изменений"), T("CON mod, at least 1", "МВн, не меньше 1")
        ),  # L498
        derived(
            "robot_max_weapons", T("Built-in weapon slots", "Слоты встроенного оружия"), T("1 + CON mod", "1 + МВн")
        ),  # L512
        derived("martial_arts_active", T("Martial arts benefits active", "Преимущества Боевых искусств")),
    ),
    layout="table",
)

_story = Section(
    "story",
    T("Tricks, Flaws, Facets, Bonds", "Трюки, Недостатки, Грани, Узы"),
    (
        entries(
            "tricks",
            T("Tricks", "Трюки"),
            text("name", T("Trick", "Трюк")),
            text("text", T("Effect", "Эффект")),
            choice("expert_access", T("Grants access to", "Даёт доступ к"), _EXPERT_CHOICES, multiple=True),
            source="referenced_names",
            help=T("2 at creation; 5 XP later", "2 при создании; позже 5 ОО"),
            creation_only=True,  # in play a Trick is bought for XP (advancement, L157)
        ),  # L157, L264
        entries(
            "flaws",
            T("Flaws", "Недостатки"),
            text("name", T("Flaw", "Недостаток")),
            text("text", NOTES),
            help=T(
                "0-2 at creation; bringing one into play is Caprice (+1 Thread)", "0-2; ввод в игру — Каприз (+1 Нить)"
            ),
        ),
        entries(
            "facets",
            T("Facets", "Грани"),
            text("name", T("Facet", "Грань")),
            text("heads", T("Heads", "Орёл")),
            text("tails", T("Tails", "Решка")),
            help=T("one per Attribute; Heads = Move M9, Tails = Caprice C5 (rules missing)", "по одной на Атрибут"),
            creation_only=True,  # picked with the Attributes at creation (L266)
        ),
        entries(
            "bonds",
            T("Bonds", "Узы"),
            text("name", T("Bond", "Узы")),
            text("text", NOTES),
            help=T("0-2 at creation", "0-2 при создании"),
        ),  # L267
        text("roles", T("Role", "Амплуа"), gm_entered=True),
        text("wealth", T("Wealth", "Богатство"), help=GM_HELP, gm_entered=True),
    ),
    layout="table",
)

_notes = notes_section(
    longtext("equipment", T("Equipment", "Снаряжение"), help=GM_HELP, gm_entered=True),
    longtext("notes", NOTES),
    label=T("Equipment and notes", "Снаряжение и заметки"),
)

SHEET = Sheet((_header, _chars, _secondary, _health, _combat, _skills, _fate, _attributes, _story, _notes))
