"""The Seasons character sheet layout (spec §10.1) for the generic CharacterSheet."""

from __future__ import annotations

from tabletop_widgets.core import Section, Sheet, SheetAction, T
from tabletop_widgets.core.sheet import OPEN_SMALL
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
    resource,
    spent_of,
    text,
)

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
            number(
                n,
                label(n),
                1,
                TRAIT_MAX,
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

#: the items of a pending bonus or penalty
_PENDING_ITEMS = (
    text("source", T("Source", "Источник")),
    number("dice", T("Dice", "Дайсы"), -OPEN_SMALL, OPEN_SMALL),
    text("applies_to", T("Applies to", "Для")),
)

SHEET = Sheet(
    (
        Section(
            "header",
            T("Character", "Персонаж"),
            (
                text("name", T("Name", "Имя")),
                choice(
                    "archetype",
                    T("Archetype", "Архетип"),
                    source="archetypes",
                    help=T("one-word role; free text allowed", "роль одним словом; можно своё"),  # L108-111
                    free_text=True,
                ),
                choice(
                    "goal",
                    T("Goal", "Цель"),
                    source="goals",
                    help=T("one active Goal", "одна текущая Цель"),
                    free_text=True,
                ),  # L112
                choice(
                    "tier",
                    T("Tier", "Уровень"),
                    _tiers(),
                    help=T(
                        "budgets 15/25/10 +5/+10/+6 per tier",  # L182-184
                        "пункты 15/25/10, +5/+10/+6 за уровень",
                    ),
                    creation_only=True,  # in play the Storyteller grants the next tier (L746-752)
                ),  # L182-184
                number(
                    "size",
                    T("Size", "Размер"),
                    1,
                    TRAIT_MAX,
                    help=T("adult 5, teenager 4, child 3", "взрослый 5, подросток 4, ребёнок 3"),
                    creation_only=True,
                ),  # L148
                flag(
                    "is_player_character", T("Player character", "Персонаж игрока"), gm_only=True
                ),  # the Storyteller's
                flag(
                    "storyteller_approved",
                    T("Storyteller approved", "Одобрено Рассказчиком"),
                    gm_only=True,  # the tier above Novice and an odd Size are the Storyteller's to allow (L185)
                    help=T(
                        "a tier above Novice or an unusual Size, with the Storyteller's leave",
                        "уровень выше новичка или необычный Размер — с согласия Рассказчика",
                    ),
                ),
            ),
            columns=2,
        ),
        Section(
            "traits",
            T("Problems & Advantages", "Проблемы и Преимущества"),
            (
                entries(
                    "problems",
                    T("Problems (-3)", "Проблемы (-3)"),
                    source="problems",
                    help=T("one relevant Problem per check: -3", "одна подходящая Проблема на проверку: -3"),  # L316
                    badge="-3",
                    free_text=True,
                    extra={"item": "text"},
                ),
                entries(
                    "advantages",
                    T("Advantages (+3)", "Преимущества (+3)"),
                    source="advantages",
                    help=T(
                        "one relevant Advantage per check: +3", "одно подходящее Преимущество на проверку: +3"
                    ),  # L390
                    badge="+3",
                    free_text=True,
                    extra={"item": "text"},
                ),
                choice(
                    "active_problem",
                    T("Active Problem (-3)", "Активная Проблема (-3)"),
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
                choice(
                    "active_advantage",
                    T("Active Advantage (+3)", "Активное Преимущество (+3)"),
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
                number(
                    s,
                    label(s),
                    0,
                    TRAIT_MAX,
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
                entries(
                    "specializations",
                    T("Specializations", "Специализации"),
                    choice("skill", T("Skill", "Навык"), _skill_choices()),
                    text("name", NAME),
                    number("rating", T("Rating", "Значение"), 1, TRAIT_MAX),
                    source="skills",
                    creation_only=True,  # in play taken or raised only by advancement (L752)
                    help=T(
                        "+rating dice when the check involves it; only in skills rated 1+",  # L137-141
                        "+значение в дайсах, если подходит; только в навыках от 1",
                    ),  # L137-141
                ),
            ),
            layout="table",
        ),
        Section(
            "budgets",
            T("Creation points", "Пункты создания"),
            (
                *spent_of(
                    "attribute_points_spent",
                    "attribute_points_budget",
                    T("Attribute points spent", "Пункты атрибутов: распределено"),
                    T("Attribute points", "Пункты атрибутов: всего"),
                    T("sum of (attribute - 1)", "сумма (атрибут - 1)"),
                ),
                *spent_of(
                    "skill_points_spent",
                    "skill_points_budget",
                    T("Skill points spent", "Пункты навыков: распределено"),
                    T("Skill points", "Пункты навыков: всего"),
                    T("sum of skills", "сумма навыков"),
                ),
                *spent_of(
                    "specialization_points_spent",
                    "specialization_points_budget",
                    T("Specialization points spent", "Пункты специализаций: распределено"),
                    T("Specialization points", "Пункты специализаций: всего"),
                    T("sum of specialization ratings", "сумма значений специализаций"),
                ),
                *(
                    number(
                        pool,
                        T(f"Unspent {en} points", f"Не потрачено пунктов {ru}"),
                        0,
                        OPEN_SMALL,
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
                derived(
                    "physical_defence",
                    T("Physical Defence (PD)", "Физическая защита (ФЗ)"),
                    T("= Stamina", "= Выносливость"),
                ),  # L45
                derived(
                    "social_defence",
                    T("Social Defence (SD)", "Социальная защита (СЗ)"),
                    T("= Composure", "= Самообладание"),
                ),  # L45
                derived(
                    "mental_defence", T("Mental Defence (MD)", "Умственная защита (УЗ)"), T("= Resolve", "= Выдержка")
                ),  # L45
                derived(
                    "initiative",
                    T("Initiative", "Инициатива"),
                    T("Intelligence + Wits + Resolve", "Интеллект + Сообразительность + Выдержка"),
                ),  # L172
                derived(
                    "speed",
                    T("Speed (m/round)", "Скорость (м/раунд)"),
                    T("Strength + Dexterity + Stamina", "Сила + Ловкость + Выносливость"),
                ),  # L171
                derived("health_max", T("Health", "Здоровье"), T("Size × 2", "Размер × 2")),  # L173
                derived(
                    "drama_start",
                    T("Starting Drama", "Начальная Драма"),
                    T("Presence + Manipulation + Composure", "Внушительность + Манипулирование + Самообладание"),
                ),  # L147
                derived(
                    "armour_penalty",
                    T("Armour", "Броня"),
                    T("penalty to attacks against you", "штраф атакам против вас"),
                ),  # L774
            ),
            columns=2,
        ),
        Section(
            "status",
            T("Status", "Состояние"),
            (
                resource(
                    "drama",
                    T("Drama", "Драма"),
                    0,
                    OPEN_SMALL,
                    help=T(
                        "spend 1 per check: +3 own / -3 opponent; no maximum",  # L741-742
                        "1 на проверку: +3 себе / -3 противнику; без максимума",
                    ),  # L741-742
                    extra={"reset_to": "drama_start"},
                ),
                resource(
                    "damage",
                    T("Damage", "Урон"),
                    0,
                    2 * TRAIT_MAX,
                    "health_max",
                    T("Pain at half or more, out at full", "Боль с половины, выбывание при полном"),  # L708, L722
                    track=True,
                ),
                derived("health_remaining", T("Health left", "Осталось здоровья")),
                derived(
                    "pain_active",
                    T("Pain (-3 to all checks)", "Боль (-3 ко всем проверкам)"),
                    T("2 × damage ≥ Health and not suppressed", "2 × урон ≥ здоровья и боль не подавлена"),  # L708
                    badge="-3",
                ),
                flag("pain_suppressed", T("Pain suppressed", "Боль подавлена")),
                derived("is_out", T("Out of the story", "Вне сюжета"), badge=_OUT_BADGE),
                choice(
                    "out_state",
                    T("Out of the fight as", "Как выходит из боя"),
                    OUT_STATE_CHOICES,
                    help=T(
                        "at 0 health: as the rules option «At 0 health» says; or fled / surrendered",  # L722, L90, L93 (zero_health_outcome)
                        "при 0 здоровья — как велит настройка правил «При 0 здоровья»; или бегство / сдача",
                    ),
                ),  # L722, L90, L93
                derived(
                    "defeated",
                    T("Defeated", "Вне боя"),
                    T("0 health, fled or surrendered", "0 здоровья, бегство или сдача"),
                    badge=_OUT_BADGE,
                ),
                entries(
                    "conditions",
                    T("Conditions (-3 each)", "Состояния (-3 каждое)"),
                    *named(
                        NAME,
                        choice(
                            "kind",
                            T("Kind", "Вид"),
                            labelled(
                                ("physical", "physical", "физическое"),
                                ("mental", "mental", "ментальное"),
                                ("social", "social", "социальное"),
                            ),
                        ),
                        text("applies_to", T("Applies to", "Действует на")),
                        text("category", T("Category", "Категория")),
                        number("removal_difficulty", T("Removal difficulty", "Сложность снятия"), 0, OPEN_SMALL),
                        choice(
                            "cause",
                            T("Sickness from", "Причина болезни"),
                            labelled(
                                ("", "—", "—"),
                                ("substance", "a substance (retry after an hour)", "вещество (повтор через час)"),
                                ("illness", "an illness (retry after a day)", "болезнь (повтор через день)"),
                            ),
                            default="",
                            help=T(
                                "sickness only: alcohol, a light poison or a drug may be shaken off after an hour,"
                                " an illness after a day",  # L711
                                "только для болезни: алкоголь, лёгкий яд или наркотик можно сбросить через час,"
                                " болезнь — через день",
                            ),
                        ),
                        text("retry_interval", T("Retry every", "Повтор через")),
                        text("expires", T("Ends when", "Проходит")),
                        flag(
                            "held_off",
                            T("Held off for the hour", "Отступило на час"),
                            help=T(
                                "hunger, thirst, fatigue: a success holds it off for an hour (no -3)",  # L716
                                "голод, жажда, усталость: успех отодвигает Состояние на час (без -3)",
                            ),
                        ),
                    ),
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
                ),
            ),
            columns=2,
            # L716: hunger, thirst and fatigue held off by a success come back when the hour is up
            actions=(SheetAction(T("An hour passes", "Прошёл час"), "hour_passes", who="gm"),),
        ),
        Section(
            "recovery",
            T("Recovery", "Восстановление"),
            (
                flag("damaged_this_scene", T("Damaged this scene", "Ранен в этой сцене")),
                flag(
                    "first_aid_used_this_scene",
                    T("First aid attempted", "Первая помощь была"),
                    help=T("once per scene after damage", "раз за сцену после урона"),
                ),  # L723-724
                flag(
                    "treated_today", T("Treated today", "Лечение сегодня было"), help=T("once per day", "раз в день")
                ),  # L725
                flag("pain_failed_this_scene", T("Pain suppression failed", "Подавить боль не удалось")),
            ),
            columns=2,
        ),
        Section(
            "gear",
            T("Gear", "Снаряжение"),
            (
                entries(
                    "weapons",
                    T("Weapons", "Оружие"),
                    *named(
                        NAME,
                        number("attack_bonus", T("Attack bonus", "Бонус атаки"), 0, OPEN_SMALL),
                        number("armour_piercing", T("Armour piercing", "Бронебойность"), 0, OPEN_SMALL),
                        choice("skill", T("Skill", "Навык"), (("melee", label("melee")), ("ranged", label("ranged")))),
                        choice(
                            "attribute",
                            T("Attribute", "Атрибут"),
                            (("strength", label("strength")), ("dexterity", label("dexterity"))),
                        ),
                    ),
                    source="weapons",
                ),
                entries(
                    "armour",
                    T("Armour", "Броня"),
                    *named(
                        NAME,
                        number("penalty", T("Penalty to attackers", "Штраф атакующим"), 0, OPEN_SMALL),
                        flag("worn", T("Worn", "Надета")),
                    ),
                    source="armour",
                ),
                entries(
                    "tools",
                    T("Tools", "Инструменты"),
                    *named(
                        NAME,
                        number("bonus", T("Bonus", "Бонус"), -OPEN_SMALL, OPEN_SMALL),
                        text("applies_to", T("Applies to", "Для")),
                        number("penalty_to_opponents", T("Penalty to opponents", "Штраф соперникам"), 0, OPEN_SMALL),
                    ),
                    source="equipment",
                ),
                entries(
                    "objects",
                    T("Objects", "Предметы"),
                    *named(
                        NAME,
                        number("size", T("Size", "Размер"), 1, OPEN_SMALL),
                        number(
                            "structure_damage",
                            T("Structure damage", "Урон Структуре"),
                            0,
                            2 * OPEN_SMALL,
                            help=T("Structure = Size × 2", "Структура = Размер × 2"),
                        ),  # L792
                        number("durability", T("Durability", "Прочность"), 0, OPEN_SMALL),
                        number(
                            "attack_bonus",
                            T("Attack bonus as a weapon", "Бонус атаки как оружия"),
                            0,
                            OPEN_SMALL,
                            help=T(
                                "fought with or thrown, an object gives its bonus to the attack",  # L795
                                "если им дерутся или его бросают, предмет даёт бонус к атаке",
                            ),
                        ),
                    ),
                    source="improvised_weapons",
                ),
            ),
            layout="grid",
            columns=1,
        ),
        Section(
            "pending",
            T("Pending modifiers", "Отложенные модификаторы"),
            (
                entries(
                    "pending_bonus_dice",
                    T("Bonuses for the next check", "Бонусы к следующей проверке"),
                    *_PENDING_ITEMS,
                    help=T(
                        "aim +2, help +1, previous successes, inspiration, preparation; used up by "  # L766-771
                        "the next check they fit. Applies to: empty = any check, or a check id, skill, "
                        "attribute, physical / mental / social, attack",
                        "ожидание +2, помощь +1, предыдущие успехи, вдохновение, предварительные действия; "  # L766-771
                        "тратятся следующей подходящей проверкой. Для: пусто = любая, или название проверки, навык, "
                        "атрибут, физическая / умственная / социальная, атака",
                    ),
                ),
                entries(
                    "pending_penalties",
                    T("Penalties for the next check", "Штрафы к следующей проверке"),
                    *_PENDING_ITEMS,
                    help=T(
                        "frightened -3...; used up by the next check they fit",  # L624
                        "запуган -3...; тратятся следующей подходящей проверкой",
                    ),  # L624
                ),
            ),
            columns=1,
        ),
        notes_section(columns=1),
    )
)

__all__ = ["SHEET"]
