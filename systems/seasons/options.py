"""The GM options of «Времена Года» (spec §11, §11.1): readings of ambiguous rules and house rules.

``DEFAULTS`` is the system's ``default_rules``; ``DESCRIPTIONS`` says what each option means in
both languages; ``CHOICES`` lists the allowed values of the options that take one of a few.
"""

from __future__ import annotations

from typing import Any

from tabletop_widgets.core.options import GmOptions

from .pool import SUCCESS_THRESHOLD

#: GM-configurable readings of ambiguous rules (spec §11.1) with their defaults.
DEFAULTS: dict[str, Any] = {
    "trait_cap": 5,  # 10 for epic games (L752)
    "success_threshold": SUCCESS_THRESHOLD,  # L39 (fixed by the book; exposed for house rules)
    "rule_of_10": True,  # L55
    "drama_limit": "per_character",  # or "per_check" (L742, §11 #3)
    "drama_after_roll": False,  # L741 (§11 #4)
    "drama_reset": "always",  # or "only_if_lower" (L740, §11 #5)
    "pain_penalises_own_suppression": True,  # L708 (§11 #6)
    "first_aid_in_rounds": False,  # L575 vs L723 (§11 #8)
    "treatment_stacks_with_rest": True,  # L723, L725 (§11 #10)
    "ap_reduces_pd": False,  # L826 (§11 #11)
    "reroll_ties_each_round": False,  # L729-730 (§11 #22)
    "instants_with_normal": True,  # L66 vs L83/L86 (§11 #21)
    "max_advantages_per_check": 1,  # L123 (§11 #17)
    "spec_max_equals_skill": False,  # L139-141 (§11 #18)
    "allow_unspent": False,  # L129, L135, L141 (§11 #19)
    "inspire_bonus": 3,  # L615 (§11 #23)
    "frighten_penalty": 3,  # L624 (§11 #23)
    "repair_restores": "all",  # or "successes" (L792, §11 #28)
    "zero_health_outcome": "storyteller_choice",  # L722 (§11 #26)
    "untrained_penalty": 0,  # §11 #38
    "warn_mundane_over_5": True,  # L769, L774, L777 (§11 #34)
    "ambush_mode": "sneaker_rolls",  # L83 vs L525 (§11 #41)
    "auto_pain": True,  # L708 (§11 #43)
    # Which checks the carried-over successes of L771 reach: the next fitting action of any kind
    # (the book limits which checks PRODUCE them, not which receive them; audit 3), or only checks
    # that need a single success (spec §11 #36, the second reading)
    "previous_successes_reach": "next_fitting",
    # After a FAILED Pain suppression, new damage allows a new try (L708 says so after a success;
    # spec §11 #7 reads it for a failure too); False: the -3 stays to the end of the scene
    "pain_retry_after_new_damage": True,
    # The active Problem / Advantage markers and the sheet's conditions a check can fit come
    # pre-ticked in the tray (spec §10.1 "the active ones pre-fill the dice tray"); False: §11 #43
    # literally, the tray offers them unticked. The queue is always used.
    "auto_sheet_modifiers": False,  # §11 #43: only Pain applies by itself; the rest when ticked
}

#: What each option means, in both languages.
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "trait_cap": {
        "en": "The highest attribute, skill or specialization a character may have: 5, or 10 in an epic game.",
        "ru": "Наибольшее значение атрибута, навыка или специализации: 5, в эпической игре 10.",
    },
    "success_threshold": {
        "en": "The face a d10 needs to count as a success (6 by the book).",
        "ru": "Сколько должно выпасть на d10, чтобы засчитать успех (по книге 6).",
    },
    "rule_of_10": {
        "en": "Past 10 dice, every further block of 10 dice gives 5 automatic successes.",
        "ru": "Сверх 10 дайсов каждые следующие 10 дайсов дают 5 автоматических успехов.",
    },
    "drama_limit": {
        "en": "One Drama point per character on a check (both sides may spend), or one point per check in all.",
        "ru": "Один пункт Драмы на проверку от каждого персонажа (тратить могут обе стороны) или один на всю проверку.",
    },
    "drama_after_roll": {
        "en": "Drama may also be spent after the dice are rolled (by default it is declared before).",
        "ru": "Драму можно тратить и после броска (по умолчанию — только до него).",
    },
    "drama_reset": {
        "en": "At a new story Drama returns to its starting value, or is only raised to it when lower.",
        "ru": "В новой истории Драма возвращается к начальной или только поднимается до неё, если меньше.",
    },
    "pain_penalises_own_suppression": {
        "en": "Pain's -3 also applies to the check that suppresses it.",
        "ru": "Штраф боли -3 действует и на проверку её подавления.",
    },
    "first_aid_in_rounds": {
        "en": "First aid may be given in round time (by default it takes several minutes).",
        "ru": "Первую помощь можно оказать в бою по раундам (по умолчанию она занимает несколько минут).",
    },
    "treatment_stacks_with_rest": {
        "en": "A day of treatment still gives the night's rest its +1 health level.",
        "ru": "После дня лечения ночь отдыха всё равно восстанавливает 1 уровень здоровья.",
    },
    "ap_reduces_pd": {
        "en": "Armour piercing also lowers the target's Physical Defence, not only armour.",
        "ru": "Бронебойность снижает и физическую защиту цели, а не только броню.",
    },
    "reroll_ties_each_round": {
        "en": "Initiative ties are rolled off again every round (by default once per fight).",
        "ru": "Равную инициативу перебрасывают каждый раунд (по умолчанию один раз за бой).",
    },
    "instants_with_normal": {
        "en": "A round holds one normal action and also distinct instant checks.",
        "ru": "В раунде можно совершить обычное действие и вдобавок разные мгновенные проверки.",
    },
    "max_advantages_per_check": {
        "en": "How many Advantages (+3 each) may count on one check.",
        "ru": "Сколько Преимуществ (+3 каждое) можно учесть в одной проверке.",
    },
    "spec_max_equals_skill": {
        "en": "A specialization may not be rated above its skill.",
        "ru": "Специализация не может быть выше своего навыка.",
    },
    "allow_unspent": {
        "en": "A character may be finalized with creation points left unspent.",
        "ru": "Персонажа можно завершить, не распределив все пункты создания.",
    },
    "inspire_bonus": {
        "en": "Dice a successful Inspire gives each ally's next relevant check.",
        "ru": "Сколько дайсов успешное Воодушевление даёт следующей подходящей проверке каждого союзника.",
    },
    "frighten_penalty": {
        "en": "Dice a successful Frighten takes from each target's next relevant check.",
        "ru": "Сколько дайсов успешное Запугивание отнимает у следующей подходящей проверки каждой цели.",
    },
    "repair_restores": {
        "en": "A successful repair restores all Structure, or one level per success.",
        "ru": "Успешный ремонт восстанавливает всю Структуру или по уровню за каждый успех.",
    },
    "zero_health_outcome": {
        "en": "What 0 health means in this game: the Storyteller decides, death, bedridden or captured.",
        "ru": "Что значит 0 здоровья в этой игре: решает Рассказчик, гибель, постельный режим или плен.",
    },
    "untrained_penalty": {
        "en": "Dice taken off a check made with a skill of 0.",
        "ru": "Сколько дайсов отнимается у проверки с навыком 0.",
    },
    "warn_mundane_over_5": {
        "en": "Warn when a single ordinary bonus or penalty is above 5.",
        "ru": "Предупреждать, когда обычный бонус или штраф из одного источника больше 5.",
    },
    "ambush_mode": {
        "en": "In an ambush the sneakers roll against the observers' Mental Defence, or the observers roll to notice.",
        "ru": "В засаде бросают скрывающиеся против ментальной защиты наблюдателей или наблюдатели — на внимание.",
    },
    "auto_pain": {
        "en": "Pain's -3 applies to every check by itself while it is active.",
        "ru": "Штраф боли -3 сам применяется ко всем проверкам, пока боль не подавлена.",
    },
    "previous_successes_reach": {
        "en": "The bonus dice carried over from a check's extra successes go to the next fitting action of any "
        "kind (an attack, first aid, a contest too), or only to checks that need a single success.",
        "ru": "Бонусные дайсы от лишних успехов прошлой проверки идут к следующему подходящему действию любого "
        "рода (и к атаке, первой помощи, соревнованию) или только к проверкам, где нужен один успех.",
    },
    "pain_retry_after_new_damage": {
        "en": "After a failed try to suppress Pain, new damage allows a new try (otherwise the -3 stays to the "
        "end of the scene).",
        "ru": "После неудачной попытки подавить боль новый урон даёт новую попытку (иначе -3 до конца сцены).",
    },
    "auto_sheet_modifiers": {
        "en": "The dice tray ticks the active Problem, the active Advantage and the conditions a check "
        "can fit beforehand (by the book they count only when ticked; Pain always counts).",
        "ru": "Лоток дайсов заранее отмечает активные Проблему, Преимущество и Состояния, подходящие "
        "проверке (по книге они учитываются, только когда отмечены; Боль — всегда).",
    },
}

#: Allowed values of the options that take one of a few (checked when the system is built).
CHOICES: dict[str, tuple] = {
    "trait_cap": (5, 10),
    "drama_limit": ("per_character", "per_check"),
    "drama_reset": ("always", "only_if_lower"),
    "repair_restores": ("all", "successes"),
    "zero_health_outcome": ("storyteller_choice", "death", "incapacitated", "captured"),
    "ambush_mode": ("sneaker_rolls", "observer_rolls"),
    "previous_successes_reach": ("next_fitting", "single_success_checks"),
}


#: The book's readings (no house rules): for what runs without a system instance (``%roll pool``).
BOOK = GmOptions(DEFAULTS)


def check_choices(*, options: GmOptions) -> None:
    """Refuse an option outside its allowed values (``ValueError`` naming them)."""
    for name, allowed in CHOICES.items():
        if options[name] not in allowed:
            raise ValueError(f"seasons: rules option {name}={options[name]!r}; expected one of {allowed}")


__all__ = ["BOOK", "CHOICES", "DEFAULTS", "DESCRIPTIONS", "check_choices"]
