"""The Seasons character sheet layout (spec §10.1) for the generic CharacterSheet."""

from __future__ import annotations

from tabletop_widgets.core import Field, Section, Sheet, T
from tabletop_widgets.core.sheet import OPEN_SMALL

from .data import ATTRIBUTE_GROUPS, SKILLS, TABLES, label
from .health import OUT_STATE_LABELS

OUT_STATE_CHOICES = tuple((k, v) for k, v in OUT_STATE_LABELS.items())

#: The badge of a character out of the fight.
_OUT_BADGE = T("OUT", "ВНЕ БОЯ")

_GROUP_LABELS = {
    "mental": T("Mental", "Умственные"),
    "social": T("Social", "Социальные"),
    "physical": T("Physical", "Физические"),
}
_ROW_TOTAL = {"mental": "initiative", "social": "drama_start", "physical": "speed"}


def _tiers():
    return tuple((r["id"], T(r["en"], r["ru"])) for r in TABLES.rows("tiers"))


def _skill_choices():
    return tuple((s, label(s)) for s in SKILLS)


#: The highest attribute, skill or specialization the sheet takes: the human cap is 5, an epic game
#: raises it to 10 (L752) and creatures exceed it (L129, L483; ``validate`` reports a character
#: above its cap); 30 is far above any being the book describes.
TRAIT_MAX = 30

_attr_fields = []
for group, names in ATTRIBUTE_GROUPS.items():
    for n in names:
        _attr_fields.append(
            Field(
                n,
                label(n),
                "input",
                min=1,
                max=TRAIT_MAX,
                help=T(
                    "1 weak, 2 average, 3 talent, 4 outstanding, 5 among the best",  # L128
                    "1 слабо, 2 средне, 3 талант, 4 выдающийся, 5 один из лучших",
                ),  # L128
                group=group,
                group_label=_GROUP_LABELS[group],
                dots=True,
                row_total=_ROW_TOTAL[group],
                creation_only=True,  # in play raised only by advancement (L752)
            )
        )

SHEET = Sheet(
    (
        Section(
            "header",
            T("Character", "Персонаж"),
            (
                Field("name", T("Name", "Имя"), "text"),
                Field(
                    "archetype",
                    T("Archetype", "Архетип"),
                    "choice",
                    source="archetypes",
                    help=T("one-word role; free text allowed", "роль одним словом; можно своё"),  # L108-111
                    free_text=True,
                ),
                Field(
                    "goal",
                    T("Goal", "Цель"),
                    "choice",
                    source="goals",
                    help=T("one active Goal", "одна текущая Цель"),
                    free_text=True,
                ),  # L112
                Field(
                    "tier",
                    T("Tier", "Уровень"),
                    "choice",
                    choices=_tiers(),
                    help=T(
                        "budgets 15/25/10 +5/+10/+6 per tier",  # L182-184
                        "пункты 15/25/10, +5/+10/+6 за уровень",
                    ),
                    creation_only=True,  # in play the Storyteller grants the next tier (L746-752)
                ),  # L182-184
                Field(
                    "size",
                    T("Size", "Размер"),
                    "input",
                    min=1,
                    max=TRAIT_MAX,
                    help=T("adult 5, teenager 4, child 3", "взрослый 5, подросток 4, ребёнок 3"),
                    creation_only=True,
                ),  # L148
                Field("is_player_character", T("Player character", "Персонаж игрока"), "flag"),
                Field("storyteller_approved", T("Storyteller approved", "Одобрено Рассказчиком"), "flag"),
            ),
            columns=2,
        ),
        Section(
            "traits",
            T("Problems & Advantages", "Проблемы и Преимущества"),
            (
                Field(
                    "problems",
                    T("Problems (-3)", "Проблемы (-3)"),
                    "list",
                    source="problems",
                    help=T("one relevant Problem per check: -3", "одна подходящая Проблема на проверку: -3"),  # L316
                    badge="-3",
                    free_text=True,
                    extra={"item": "text"},
                ),
                Field(
                    "advantages",
                    T("Advantages (+3)", "Преимущества (+3)"),
                    "list",
                    source="advantages",
                    help=T(
                        "one relevant Advantage per check: +3", "одно подходящее Преимущество на проверку: +3"
                    ),  # L390
                    badge="+3",
                    free_text=True,
                    extra={"item": "text"},
                ),
                Field(
                    "active_problem",
                    T("Active Problem (-3)", "Активная Проблема (-3)"),
                    "choice",
                    help=T(
                        "the Problem relevant now: the dice tray offers it as -3 on every check, unticked: "
                        "tick it where it hinders (a rules option of the Storyteller "
                        "ticks it beforehand); empty = none",  # L316, §11 #43
                        "Проблема, важная сейчас: лоток дайсов предлагает её как -3 к каждой проверке, без "
                        "отметки: отметьте, где она мешает (настройка правил Рассказчика "
                        "отмечает её заранее); пусто = нет",
                    ),  # L316
                    choices_from="problems",
                    allow_empty=True,
                    badge="-3",
                    free_text=True,
                ),
                Field(
                    "active_advantage",
                    T("Active Advantage (+3)", "Активное Преимущество (+3)"),
                    "choice",
                    help=T(
                        "the Advantage relevant now: the dice tray offers it as +3 on every check, unticked: "
                        "tick it where it helps (a rules option of the Storyteller "
                        "ticks it beforehand); empty = none",  # L390, §11 #43
                        "Преимущество, важное сейчас: лоток дайсов предлагает его как +3 к каждой проверке, без "
                        "отметки: отметьте, где оно помогает (настройка правил Рассказчика "
                        "отмечает его заранее); пусто = нет",
                    ),  # L390
                    choices_from="advantages",
                    allow_empty=True,
                    badge="+3",
                    free_text=True,
                ),
            ),
            layout="grid",
            columns=2,
        ),
        Section(
            "attributes",
            T("Attributes", "Атрибуты"),
            tuple(_attr_fields),
            columns=3,
            extra={"rows": {g: list(n) for g, n in ATTRIBUTE_GROUPS.items()}},
        ),
        Section(
            "skills",
            T("Skills", "Навыки"),
            tuple(
                Field(
                    s,
                    label(s),
                    "input",
                    min=0,
                    max=TRAIT_MAX,
                    help=T(
                        "0 untrained, 1 basics, 2 professional, 3 experienced, 4 expert, 5 among the best",  # L134
                        "0 нет, 1 основы, 2 профессионал, 3 опытный, 4 эксперт, 5 один из лучших",
                    ),  # L134
                    dots=True,
                    creation_only=True,  # in play raised only by advancement (L752)
                    extra={"specializations_of": s},
                )
                for s in SKILLS
            ),
            columns=2,
        ),
        Section(
            "specializations",
            T("Specializations", "Специализации"),
            (
                Field(
                    "specializations",
                    T("Specializations", "Специализации"),
                    "list",
                    source="skills",
                    creation_only=True,  # in play taken or raised only by advancement (L752)
                    help=T(
                        "+rating dice when the check involves it; only in skills rated 1+",  # L137-141
                        "+значение в дайсах, если подходит; только в навыках от 1",
                    ),  # L137-141
                    item_fields=(
                        Field("skill", T("Skill", "Навык"), "choice", choices=_skill_choices()),
                        Field("name", T("Name", "Название"), "text"),
                        Field("rating", T("Rating", "Значение"), "input", min=1, max=TRAIT_MAX),
                    ),
                ),
            ),
            layout="table",
        ),
        Section(
            "budgets",
            T("Creation points", "Пункты создания"),
            (
                Field(
                    "attribute_points_spent",
                    T("Attribute points spent", "Пункты атрибутов: распределено"),
                    "derived",
                    budget="attribute_points_budget",
                    help=T("sum of (attribute - 1)", "сумма (атрибут - 1)"),
                ),
                Field("attribute_points_budget", T("Attribute points", "Пункты атрибутов: всего"), "derived"),
                Field(
                    "skill_points_spent",
                    T("Skill points spent", "Пункты навыков: распределено"),
                    "derived",
                    budget="skill_points_budget",
                    help=T("sum of skills", "сумма навыков"),
                ),
                Field("skill_points_budget", T("Skill points", "Пункты навыков: всего"), "derived"),
                Field(
                    "specialization_points_spent",
                    T("Specialization points spent", "Пункты специализаций: распределено"),
                    "derived",
                    budget="specialization_points_budget",
                    help=T("sum of specialization ratings", "сумма значений специализаций"),
                ),
                Field(
                    "specialization_points_budget", T("Specialization points", "Пункты специализаций: всего"), "derived"
                ),
                *(
                    Field(
                        pool,
                        T(f"Unspent {en} points", f"Не потрачено пунктов {ru}"),
                        "input",
                        min=0,
                        max=OPEN_SMALL,
                        gm_only=True,
                        help=T(
                            "from a new tier (+5 / +10 / +6) or the Storyteller; spent on advancement",  # L752
                            "от нового уровня (+5 / +10 / +6) или Рассказчика; тратятся на развитие",
                        ),
                    )
                    for pool, en, ru in (
                        ("attribute_points", "attribute", "атрибутов"),
                        ("skill_points", "skill", "навыков"),
                        ("specialization_points", "specialization", "специализаций"),
                    )
                ),
            ),
            columns=2,
        ),
        Section(
            "derived",
            T("Derived", "Производные"),
            (
                Field(
                    "physical_defence",
                    T("Physical Defence (PD)", "Физическая защита (ФЗ)"),
                    "derived",
                    help=T("= Stamina", "= Выносливость"),
                ),  # L45
                Field(
                    "social_defence",
                    T("Social Defence (SD)", "Социальная защита (СЗ)"),
                    "derived",
                    help=T("= Composure", "= Самообладание"),
                ),  # L45
                Field(
                    "mental_defence",
                    T("Mental Defence (MD)", "Умственная защита (УЗ)"),
                    "derived",
                    help=T("= Resolve", "= Выдержка"),
                ),  # L45
                Field(
                    "initiative",
                    T("Initiative", "Инициатива"),
                    "derived",
                    help=T("Intelligence + Wits + Resolve", "Интеллект + Сообразительность + Выдержка"),
                ),  # L172
                Field(
                    "speed",
                    T("Speed (m/round)", "Скорость (м/раунд)"),
                    "derived",
                    help=T("Strength + Dexterity + Stamina", "Сила + Ловкость + Выносливость"),
                ),  # L171
                Field("health_max", T("Health", "Здоровье"), "derived", help=T("Size × 2", "Размер × 2")),  # L173
                Field(
                    "drama_start",
                    T("Starting Drama", "Начальная Драма"),
                    "derived",
                    help=T(
                        "Presence + Manipulation + Composure",  # L147
                        "Внушительность + Манипулирование + Самообладание",
                    ),
                ),  # L147
                Field(
                    "armour_penalty",
                    T("Armour", "Броня"),
                    "derived",
                    help=T("penalty to attacks against you", "штраф атакам против вас"),
                ),  # L774
            ),
            columns=2,
        ),
        Section(
            "status",
            T("Status", "Состояние"),
            (
                Field(
                    "drama",
                    T("Drama", "Драма"),
                    "resource",
                    min=0,
                    max=OPEN_SMALL,
                    help=T(
                        "spend 1 per check: +3 own / -3 opponent; no maximum",  # L741-742
                        "1 на проверку: +3 себе / -3 противнику; без максимума",
                    ),  # L741-742
                    extra={"reset_to": "drama_start"},
                ),
                Field(
                    "damage",
                    T("Damage", "Урон"),
                    "resource",
                    min=0,
                    max=2 * TRAIT_MAX,
                    max_trait="health_max",
                    help=T(
                        "Pain at half or more, out at full",  # L708, L722
                        "Боль с половины, выбывание при полном",
                    ),  # L708, L722
                    track=True,
                ),
                Field("health_remaining", T("Health left", "Осталось здоровья"), "derived"),
                Field(
                    "pain_active",
                    T("Pain (-3 to all checks)", "Боль (-3 ко всем проверкам)"),
                    "derived",
                    help=T("2 × damage ≥ Health and not suppressed", "2 × урон ≥ здоровья и боль не подавлена"),  # L708
                    badge="-3",
                ),
                Field("pain_suppressed", T("Pain suppressed", "Боль подавлена"), "flag"),
                Field("is_out", T("Out of the story", "Вне сюжета"), "derived", badge=_OUT_BADGE),
                Field(
                    "out_state",
                    T("Out of the fight as", "Как выходит из боя"),
                    "choice",
                    choices=OUT_STATE_CHOICES,
                    help=T(
                        "at 0 health: as the rules option «At 0 health» says; or fled / surrendered",  # L722, L90, L93 (zero_health_outcome)
                        "при 0 здоровья — как велит настройка правил «При 0 здоровья»; или бегство / сдача",
                    ),
                ),  # L722, L90, L93
                Field(
                    "defeated",
                    T("Defeated", "Вне боя"),
                    "derived",
                    help=T("0 health, fled or surrendered", "0 здоровья, бегство или сдача"),
                    badge=_OUT_BADGE,
                ),
                Field(
                    "conditions",
                    T("Conditions (-3 each)", "Состояния (-3 каждое)"),
                    "list",
                    source="conditions",
                    help=T(
                        "each one the dice tray offers as -3 on the checks it can affect, unticked: tick it "  # L687, L775
                        "where it hinders; they stack (a rules option of the Storyteller "
                        "ticks them beforehand; Pain always applies by itself); "
                        "category: physical / mental / social / all / a skill",
                        "лоток дайсов предлагает каждое как -3 на проверки, которые оно может затронуть, без "  # L687, L775
                        "отметки: отметьте, где оно мешает; складываются (настройка правил "
                        "Рассказчика отмечает их заранее; Боль всегда учитывается сама); "
                        "категория: физическое / умственное / социальное / любая проверка / навык",
                    ),
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field(
                            "kind",
                            T("Kind", "Вид"),
                            "choice",
                            choices=(
                                ("physical", T("physical", "физическое")),
                                ("mental", T("mental", "ментальное")),
                                ("social", T("social", "социальное")),
                            ),
                        ),
                        Field("applies_to", T("Applies to", "Действует на"), "text"),
                        Field("category", T("Category", "Категория"), "text"),
                        Field(
                            "removal_difficulty",
                            T("Removal difficulty", "Сложность снятия"),
                            "input",
                            min=0,
                            max=OPEN_SMALL,
                        ),
                        Field("retry_interval", T("Retry every", "Повтор через"), "text"),
                        Field("expires", T("Ends when", "Проходит"), "text"),
                    ),
                ),
            ),
            columns=2,
        ),
        Section(
            "recovery",
            T("Recovery", "Восстановление"),
            (
                Field("damaged_this_scene", T("Damaged this scene", "Ранен в этой сцене"), "flag"),
                Field(
                    "first_aid_used_this_scene",
                    T("First aid attempted", "Первая помощь была"),
                    "flag",
                    help=T("once per scene after damage", "раз за сцену после урона"),
                ),  # L723-724
                Field(
                    "treated_today",
                    T("Treated today", "Лечение сегодня было"),
                    "flag",
                    help=T("once per day", "раз в день"),
                ),  # L725
                Field("pain_failed_this_scene", T("Pain suppression failed", "Подавить боль не удалось"), "flag"),
            ),
            columns=2,
        ),
        Section(
            "gear",
            T("Gear", "Снаряжение"),
            (
                Field(
                    "weapons",
                    T("Weapons", "Оружие"),
                    "list",
                    source="weapons",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("attack_bonus", T("Attack bonus", "Бонус атаки"), "input", min=0, max=OPEN_SMALL),
                        Field("armour_piercing", T("Armour piercing", "Бронебойность"), "input", min=0, max=OPEN_SMALL),
                        Field(
                            "skill",
                            T("Skill", "Навык"),
                            "choice",
                            choices=(("melee", label("melee")), ("ranged", label("ranged"))),
                        ),
                        Field(
                            "attribute",
                            T("Attribute", "Атрибут"),
                            "choice",
                            choices=(("strength", label("strength")), ("dexterity", label("dexterity"))),
                        ),
                    ),
                ),
                Field(
                    "armour",
                    T("Armour", "Броня"),
                    "list",
                    source="armour",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("penalty", T("Penalty to attackers", "Штраф атакующим"), "input", min=0, max=OPEN_SMALL),
                        Field("worn", T("Worn", "Надета"), "flag"),
                    ),
                ),
                Field(
                    "tools",
                    T("Tools", "Инструменты"),
                    "list",
                    source="equipment",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("bonus", T("Bonus", "Бонус"), "input", min=-OPEN_SMALL, max=OPEN_SMALL),
                        Field("applies_to", T("Applies to", "Для"), "text"),
                        Field(
                            "penalty_to_opponents",
                            T("Penalty to opponents", "Штраф соперникам"),
                            "input",
                            min=0,
                            max=OPEN_SMALL,
                        ),
                    ),
                ),
                Field(
                    "objects",
                    T("Objects", "Предметы"),
                    "list",
                    source="improvised_weapons",
                    item_fields=(
                        Field("name", T("Name", "Название"), "text"),
                        Field("size", T("Size", "Размер"), "input", min=1, max=OPEN_SMALL),
                        Field(
                            "structure_damage",
                            T("Structure damage", "Урон Структуре"),
                            "input",
                            min=0,
                            max=2 * OPEN_SMALL,
                            help=T("Structure = Size × 2", "Структура = Размер × 2"),
                        ),  # L792
                        Field("durability", T("Durability", "Прочность"), "input", min=0, max=OPEN_SMALL),
                    ),
                ),
            ),
            layout="grid",
            columns=1,
        ),
        Section(
            "pending",
            T("Pending modifiers", "Отложенные модификаторы"),
            (
                Field(
                    "pending_bonus_dice",
                    T("Bonuses for the next check", "Бонусы к следующей проверке"),
                    "list",
                    help=T(
                        "aim +2, help +1, previous successes, inspiration, preparation; used up by "  # L766-771
                        "the next check they fit. Applies to: empty = any check, or a check id, skill, "
                        "attribute, physical / mental / social, attack",
                        "ожидание +2, помощь +1, предыдущие успехи, вдохновение, предварительные действия; "  # L766-771
                        "тратятся следующей подходящей проверкой. Для: пусто = любая, или название проверки, навык, "
                        "атрибут, физическая / умственная / социальная, атака",
                    ),
                    item_fields=(
                        Field("source", T("Source", "Источник"), "text"),
                        Field("dice", T("Dice", "Дайсы"), "input", min=-OPEN_SMALL, max=OPEN_SMALL),
                        Field("applies_to", T("Applies to", "Для"), "text"),
                    ),
                ),
                Field(
                    "pending_penalties",
                    T("Penalties for the next check", "Штрафы к следующей проверке"),
                    "list",
                    help=T(
                        "frightened -3...; used up by the next check they fit",  # L624
                        "запуган -3...; тратятся следующей подходящей проверкой",
                    ),  # L624
                    item_fields=(
                        Field("source", T("Source", "Источник"), "text"),
                        Field("dice", T("Dice", "Дайсы"), "input", min=-OPEN_SMALL, max=OPEN_SMALL),
                        Field("applies_to", T("Applies to", "Для"), "text"),
                    ),
                ),
            ),
            columns=1,
        ),
        Section(
            "notes",
            T("Notes", "Заметки"),
            (Field("notes", T("Notes", "Заметки"), "longtext"),),
            layout="text",
            columns=1,
        ),
    )
)

__all__ = ["SHEET"]
