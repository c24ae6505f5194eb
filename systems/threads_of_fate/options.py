"""The GM options of Threads of Fate (spec §10.4, §11): each option's default, what it means in both
languages, and the check of a GM's values. Tests cover both readings of each option."""

from __future__ import annotations

from typing import Any, Mapping

from .traits import CHAR_POINTS

#: option -> default (the system's ``default_rules``)
DEFAULTS: dict[str, Any] = {
    "char_points": CHAR_POINTS,
    "nat20_auto_success": True,  # L114, A14
    "nat1_auto_fail": False,  # A4
    "adv_order": "cancel_then_cap",  # A2 ("cap_then_cancel")
    "static_includes_mod": True,  # A5
    "static_flat_5": True,  # A6
    "static_zero_xp_hindrance": True,  # A51
    "expert_static_adv": True,  # A52
    "contest_keep_sbp": False,  # A9
    "refresh_mode": "meeting",  # L164-165 ("milestone")
    "xp_threads_mode": "start_3",  # A18 ("between_scenes_5", "xp_as_threads")
    "thread_overflow": "lost",  # A22: "lost" (the Caprice enters play, the excess Thread is lost) or
    # "refused" (L164 "no more than 5 at one moment": a gain past 5 is refused)
    "trouble_allow_adv": False,  # A11
    "catastrophe_controllable": False,  # A12
    # A13, audit 3: one reading for every minimal hit, a rolled total equal to the Defense and a
    # bought minimal success alike (L189 "минимально необходимый успех"): the book's 0 (L351 "1
    # Повреждение за каждую 1, на которую ... преодолел Защиту"; L359 a hit without Damage); 1 is the
    # house reading that every hit costs at least 1 before Durability
    "min_success_damage": 0,
    "durability_vs_defense_check": True,  # A20
    "initiative_mode": "static",  # A38 ("rolled")
    "robot_dur_base": "hp_multiplier",  # A26 ("sbp")
    "robot_factor_clamp": 0,  # A24 (None: no clamp)
    "veteran_trouble_margin": False,  # A34
    "resistance": "half",  # A39: "half" (round down) or "flat" (minus resistance_flat)
    "resistance_flat": 2,  # A39 "flat" reading: the GM's flat reduction per hit
    "speed_min_after_sbp": 1,  # A7: Speed's floor after SBP (1; 0 lets a Tiny creature stand still)
    "size_table": None,  # X6: campaign size table {size: {"hp_multiplier": n, "sbp": n}}
    "medicine_once_per": "patient",  # A28
    "medicine_interrupt": "cumulative",  # A29 ("single_hit")
    "dex_cap_scope": "all_checks",  # A31 ("defense_only")
    "trouble_band_names": None,  # A33: {"A": {"en","ru"}, ...} overrides
    "difficulty_ladder": None,  # A50: list of {"en","ru","dc"}; None = placeholder ladder
    # -- the readings the audit found without an option (spec §11 "GM option? Yes") ---------------
    "critical_move_timing": "before_roll",  # A17 ("any_time": the 4-Thread critical after the roll too)
    "robot_min_weapons": 0,  # A25: built-in weapons max(this, 1 + mCON)
    "energy_saving_pick": "player",  # A27 ("higher": the larger of 1 + mCON and 1 + mINT)
    "robot_discharge_self": False,  # A40: the robot's own Discharge / Leak hits the robot too
    "persona_caps": "npc",  # A46 ("hero": a persona built as a hero has a hero's caps and budget)
}


def hero_caps(entity_type: str, *, options) -> bool:
    """Whether a character of ``entity_type`` has a hero's characteristic caps and budget (L274-L279):
    heroes always; personas only when the GM builds them as heroes (A46, ``persona_caps``)."""
    return entity_type == "hero" or (entity_type == "persona" and options.persona_caps == "hero")


#: option -> what it means, in both languages
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "char_points": {
        "en": "Characteristic points a new hero spends (L271).",
        "ru": "Очки характеристик нового героя (L271).",
    },
    "nat20_auto_success": {
        "en": "A natural 20 on the kept die always succeeds (L114).",
        "ru": "20 на оставленном кубике — всегда успех (L114).",
    },
    "nat1_auto_fail": {
        "en": "A natural 1 on the kept die always fails.",
        "ru": "1 на оставленном кубике — всегда провал.",
    },
    "adv_order": {
        "en": "Advantages and Hindrances: cancel first, then cap at 2 (cancel_then_cap), or cap each first.",
        "ru": "Преимущества и Помехи: сначала сократить, потом ограничить двумя (cancel_then_cap) или наоборот.",
    },
    "static_includes_mod": {
        "en": "A static value adds the characteristic modifier (10 + skill + modifier).",
        "ru": "Статичное значение учитывает модификатор характеристики (10 + Навык + модификатор).",
    },
    "static_flat_5": {
        "en": "Advantage or Hindrance moves a static value by 5 once, not 5 per die.",
        "ru": "Преимущество или Помеха меняют статичное значение на 5 один раз, а не на 5 за кубик.",
    },
    "static_zero_xp_hindrance": {
        "en": "A skill with 0 XP gives its automatic Hindrance to static values too.",
        "ru": "Навык с 0 ОО даёт автоматическую Помеху и статичному значению.",
    },
    "expert_static_adv": {
        "en": "Advantages and Hindrances move an Expert skill's value without access by 5.",
        "ru": "Преимущества и Помехи меняют значение Экспертного навыка без доступа на 5.",
    },
    "contest_keep_sbp": {
        "en": "In a Contest the defender keeps the size part of Base Defense.",
        "ru": "В Состязании защитник сохраняет размерную часть Базовой защиты.",
    },
    "refresh_mode": {
        "en": "Threads return to 2 at each meeting (meeting) or at milestones (milestone).",
        "ru": "Нити возвращаются к 2 в начале каждой встречи (meeting) или на вехах (milestone).",
    },
    "xp_threads_mode": {
        "en": "XP buys Threads: 3 at a meeting's start, 5 between scenes, or XP is spent as Threads.",
        "ru": "Нити за Очки опыта: 3 в начале встречи, 5 между сценами или ОО тратятся как Нити.",
    },
    "thread_overflow": {
        "en": "A Thread gained past 5 is lost (lost) or the gain is refused (refused).",
        "ru": "Нить сверх 5 теряется (lost) или её получение запрещено (refused).",
    },
    "trouble_allow_adv": {
        "en": "Advantages and Hindrances apply to Trouble checks.",
        "ru": "Преимущества и Помехи применяются к проверкам Неприятностей.",
    },
    "catastrophe_controllable": {
        "en": "The control margin still moves a Catastrophe! result.",
        "ru": "Величина контроля сдвигает и результат «Катастрофы!».",
    },
    "min_success_damage": {
        "en": "Damage before Durability of a hit that just reaches the Defense, rolled or bought "
        "with Threads (0: the book's 1 per point over the Defense).",
        "ru": "Повреждения до вычета Прочности от попадания, которое ровно достигло Защиты, "
        "выброшенного или купленного за Нити (0: по книге 1 за каждую единицу сверх Защиты).",
    },
    "durability_vs_defense_check": {
        "en": "Durability reduces the Damage of a failed Defense check.",
        "ru": "Прочность уменьшает Повреждения проваленной проверки Защиты.",
    },
    "initiative_mode": {
        "en": "Initiative is the static Reaction (static) or d20 + Reaction (rolled).",
        "ru": "Инициатива — статичная Реакция (static) или к20 + Реакция (rolled).",
    },
    "robot_dur_base": {
        "en": "A Combat robot's Durability starts from the HP size multiplier or from the size bonus.",
        "ru": "Прочность Боевого робота считается от множителя ЕЗ размера или от БШР.",
    },
    "robot_factor_clamp": {
        "en": "Each factor of the robot's repair formulas is at least this (empty: no floor).",
        "ru": "Каждый множитель формул ремонта робота не меньше этого (пусто: без нижней границы).",
    },
    "veteran_trouble_margin": {
        "en": "A Veteran's failed scrounge adds its failure margin to the Trouble check.",
        "ru": "Проваленная добыча Ветерана добавляет величину провала к проверке Неприятностей.",
    },
    "resistance": {
        "en": "Resistance halves Damage (half) or takes a flat amount off (flat).",
        "ru": "Сопротивление делит Повреждения пополам (half) или вычитает число (flat).",
    },
    "resistance_flat": {
        "en": "The flat reduction of Resistance per hit.",
        "ru": "На сколько Сопротивление уменьшает каждое попадание.",
    },
    "speed_min_after_sbp": {
        "en": "Speed's floor after the size bonus (0 lets a Tiny creature stand still).",
        "ru": "Нижняя граница Скорости после БШР (0 — Крошечное существо может стоять на месте).",
    },
    "size_table": {
        "en": "The campaign size table: HP multiplier and size bonus per size.",
        "ru": "Таблица размеров кампании: множитель ЕЗ и БШР для каждого размера.",
    },
    "medicine_once_per": {
        "en": "Medicine heals once a day per patient (patient) or per medic (medic).",
        "ru": "Медицина лечит раз в день на пациента (patient) или на лекаря (medic).",
    },
    "medicine_interrupt": {
        "en": "A medic's lost HP add up to interrupt treatment (cumulative) or one hit must (single_hit).",
        "ru": "Лечение прерывает сумма потерянных ЕЗ (cumulative) или одно попадание (single_hit).",
    },
    "dex_cap_scope": {
        "en": "Armour's DEX cap applies to every check (all_checks) or only to Defense.",
        "ru": "Ограничение МЛв доспехом действует на все проверки (all_checks) или только на Защиту.",
    },
    "trouble_band_names": {
        "en": "The GM's names of the four Trouble bands.",
        "ru": "Названия четырёх вариантов Неприятностей от мастера.",
    },
    "difficulty_ladder": {
        "en": "The GM's difficulty ladder (the book's table is missing).",
        "ru": "Лестница сложностей мастера (таблицы в книге нет).",
    },
    "critical_move_timing": {
        "en": "The 4-Thread critical success or failure is declared before the roll (before_roll) or also after it (any_time).",
        "ru": "Критический успех или провал за 4 Нити объявляют до броска (before_roll) или и после него (any_time).",
    },
    "robot_min_weapons": {
        "en": "A Combat robot's built-in weapons: 1 + CON modifier, at least this many.",
        "ru": "Встроенное оружие Боевого робота: 1 + модификатор Выносливости, но не меньше этого числа.",
    },
    "energy_saving_pick": {
        "en": "Energy-saving mode restores 1 + CON or 1 + INT modifier: the player picks (player) or the higher (higher).",
        "ru": "Энергосберегающий режим восстанавливает 1 + МВн или 1 + МИн: выбирает игрок (player) или большее (higher).",
    },
    "robot_discharge_self": {
        "en": "A robot's own Discharge or Leak also hits the robot (after its resistance).",
        "ru": "Выброс или Утечка робота задевают и самого робота (с учётом Сопротивления).",
    },
    "persona_caps": {
        "en": "Personas follow the NPC rule, no characteristic caps (npc), or a hero's caps and budget (hero).",
        "ru": "Персоны следуют правилу для существ мастера, без пределов характеристик (npc), или пределам и очкам характеристик героя (hero).",
    },
}

_CHOICES = {
    "adv_order": ("cancel_then_cap", "cap_then_cancel"),
    "refresh_mode": ("meeting", "milestone"),
    "xp_threads_mode": ("start_3", "between_scenes_5", "xp_as_threads"),
    "thread_overflow": ("lost", "refused"),
    "initiative_mode": ("static", "rolled"),
    "robot_dur_base": ("hp_multiplier", "sbp"),
    "resistance": ("half", "flat"),
    "medicine_once_per": ("patient", "medic"),
    "medicine_interrupt": ("cumulative", "single_hit"),
    "dex_cap_scope": ("all_checks", "defense_only"),
    "critical_move_timing": ("before_roll", "any_time"),
    "energy_saving_pick": ("player", "higher"),
    "persona_caps": ("npc", "hero"),
}


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def option_problems(values: Mapping[str, Any]) -> list[str]:
    """Problems with GM-configured option values (bilingual "en / ru" strings); empty when fine."""
    out = []
    for name, allowed in _CHOICES.items():
        if name in values and values[name] not in allowed:
            out.append(
                f"{name} must be one of {', '.join(allowed)} (got {values[name]!r}) / "
                f"{name}: допустимо {', '.join(allowed)} (указано {values[name]!r})"
            )
    for name, lo in (
        ("resistance_flat", 0),
        ("speed_min_after_sbp", 0),
        ("min_success_damage", 0),
        ("robot_min_weapons", 0),
    ):
        v = values.get(name)
        if v is not None and (not _whole(v) or v < lo):
            out.append(
                f"{name} must be a whole number >= {lo} (got {v!r}) / "
                f"{name}: целое число не меньше {lo} (указано {v!r})"
            )
    return out + size_table_problems(values.get("size_table"))


def size_table_problems(table: Any) -> list[str]:
    """Problems with a GM's campaign size table (X6)."""
    from .sizes import SIZE_TABLE_KEYS, SIZES

    if table is None:
        return []
    if not isinstance(table, Mapping):
        return [
            "size_table must map size codes to {hp_multiplier, sbp} / size_table: словарь «размер — {hp_multiplier, sbp}»"
        ]
    out = []
    for size, row in table.items():
        if size not in SIZES:
            out.append(f"size_table: unknown size {size!r} / size_table: неизвестный размер {size!r}")
            continue
        if not isinstance(row, Mapping) or set(row) - set(SIZE_TABLE_KEYS):
            out.append(
                f"size_table[{size}]: only hp_multiplier and sbp / size_table[{size}]: только hp_multiplier и sbp"
            )
            continue
        hm, sb = row.get("hp_multiplier"), row.get("sbp")
        if hm is not None and (not _whole(hm) or hm < 1):
            out.append(
                f"size_table[{size}]: the HP multiplier is a whole number >= 1 (got {hm!r}) / "
                f"size_table[{size}]: множитель ЕЗ — целое не меньше 1 (указано {hm!r})"
            )
        if sb is not None and (not _whole(sb) or not -10 <= sb <= 10):
            out.append(
                f"size_table[{size}]: the size bonus is a whole number -10..10 (got {sb!r}) / "
                f"size_table[{size}]: БШР — целое от -10 до 10 (указано {sb!r})"
            )
    return out
