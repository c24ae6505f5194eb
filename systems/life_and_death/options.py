"""GM-configurable readings of ambiguous rules (spec §11.1 ``LnDRules``): name -> default."""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "mode": "campaign",  # or "quick" (no reputation / epic dice, L47, L347)
    "hp_formula": "race_base_plus_might_delta",  # A-02; or "manual" (hp_max = base_hp as entered)
    "hp_include_feature_might": True,
    "age_swap_scope": "whole_swap",  # A-04; or "minus_only"
    "age_swap_overflow": "clamp",  # A-04; or "error"
    "feature_param_overflow": "clamp",  # §3.1; or "error" / "allow"
    "allow_params_above_5": False,  # L377
    "armour_pierce_rule": "more_crits_than_defender",  # A-03; or "any_attacker_crit" (L232)
    "damage_floor_zero": True,  # §6.7
    "natural_armour_stacking": "add",  # §6.7; or "max"
    "neck_armour": "body",  # §6.7: the neck counts body armour
    "armour_vs_spells": False,  # §6.11
    "spell_level_rule": "max1_complexity",  # A-05; or "complexity_plus_1" / "manual"
    "spell_complexity_over_skill": "illegal",  # A-47; or "clamp"
    "failed_spell_fallback": "basic_if_any_success",  # L35; or "gm"
    "ep_cost_on_failure": True,  # §7.1.1
    "wild_pattern_brightness_threshold": None,  # None = remind on every failed cast
    "joint_cast_roller": "lowest_initiative",  # §7.1.9
    "facet_transition_damage": "both",  # §7.1.10; or "once"
    "damage_type_pools": {"physical": "hp", "pattern": "ep", "spiritual": "sp", "idea": "ip"},
    "retry_penalty": "cumulative",  # A-08; or "flat"
    "pool_nonpositive": "auto_fail",  # A-09; or "forbid"
    "fumble_basis": "net",  # §5.2; or "raw"
    "other_spec_adds_level": False,  # §5.3
    "initiative_tiebreak": "pool_dex_random",  # A-06; or "reroll" / "simultaneous" / "gm"
    "initiative_on_join": "reroll_all",  # A-06; or "insert_newcomers"
    "reactions_consume_actions": True,  # §6.4
    "counterattack_mode": "separate_attack",  # §6.6; or "exchange"
    "speed_ii_extra_actions": 1,  # §6.4
    "round1_others": "block_dodge_only",  # §6.5; or "anything_but_counterattack"
    "round1_free_actions": True,  # §6.5
    "bound_pattern_iii_skips_coordination": False,
    "zero_hp_state": "incapacitated",  # A-10; or "dead" / "none"
    "raise_current_with_max": True,  # §3.4
    "enchant_multiplier_scope": "base_incl_container",  # §7.6; or "spell_only"
    "highlevel_param_points": "level",  # L377; or "level_minus_1"
    "inconspicuous_start_rep": 0,  # §4 step 9
    "racial_upgrade_is_mutation": False,
    "epic_clamp_on_rep_change": True,  # §7.4
    "saturated_xp_on_cap_raise": "apply",  # §7.5; or "discard"
    "xp_capped_counts_toward_total": True,  # §7.5
    "transform_tier_includes_humanoid": False,
    "luck_targeting": "lowest_roll",  # A-40; or "gm"
    "gm_allows_guardians": False,  # L117
    # L373-L376: a character may start above level 1 (the GM's decision); then it records 20 x
    # (level - 1) XP. While creating, more XP (or XP off that ladder) is an error (audit 3).
    "start_level": 1,
    # which check a block and a dodge roll is never stated (L235-L236): "weapon" = the
    # defender's own weapon check; any other value is a skill key rolled with its parameter
    "defence_pools": {"block": "weapon", "dodge": "dodge"},
    # -- readings added when closing the gaps (not in the spec's §11.1 list; see README) --------------
    # A-02 / §3.3: the seed gives no base HP and the race list is absent. A character whose base HP
    # was never entered (``base_hp=None``) and whose race row has none uses this house default;
    # None = no default: the GM must enter it (validate() reports E_BASE_HP_MISSING, hp_max counts 0).
    "default_base_hp": 10,
    # the seed states no parameter for Survival (L324) or Transformation (L84). L86 puts every
    # non-energetics skill under Might, Dexterity or Alertness; [DEFAULT] Survival -> Alertness ("not
    # get into trouble in unfamiliar surroundings", L17), Transformation -> Might (the body, L15, L55).
    # Skill data and the sheet's custom_skills win; {} = not stated: the check id names the parameter.
    "unstated_skill_params": {"survival": "alertness", "transformation": "might"},
    # §8: the lists the seed only names (races, weapons, skills...) are the GM's: house rows by
    # table, {table: [rows]}; a row with the id of a shipped row replaces it.
    "house_rows": {},
}

#: What each option means, for the GM (en/ru); the full table is in docs/systems/life_and_death.md.
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "mode": {
        "en": 'The full game. "quick": the short sheet, without reputation and epic dice.',
        "ru": "Полная игра. «quick»: короткий лист, без репутации и эпик-дайсов.",
    },
    "hp_formula": {
        "en": "Maximum HP = the race's base HP + the difference between the character's Might and the race's. \"manual\": the base HP as entered.",
        "ru": "Максимум HP = базовое HP расы + разница между Силой персонажа и Силой расы. «manual»: базовое HP, как введено.",
    },
    "hp_include_feature_might": {
        "en": "Might gained from features also raises HP.",
        "ru": "Сила, полученная от особенностей, тоже повышает HP.",
    },
    "age_swap_scope": {
        "en": 'The age category\'s condition "if the racial value is above 1" decides the whole swap. "minus_only": it only decides the minus.',
        "ru": "Условие возрастной категории «если расовое значение больше 1» решает весь обмен. «minus_only»: только минус.",
    },
    "age_swap_overflow": {
        "en": 'A parameter pushed past 5 by the age swap is held at 5 (with a warning). "error": the build is refused.',
        "ru": "Параметр, который возрастной обмен поднимает выше 5, остаётся на 5 (с предупреждением). «error»: сборка отклоняется.",
    },
    "feature_param_overflow": {
        "en": 'The same for a feature that raises a parameter past 5; or "error", or "allow".',
        "ru": "То же для особенности, поднимающей параметр выше 5; или «error», или «allow».",
    },
    "allow_params_above_5": {
        "en": "Parameters stay at 5 or below on level-up.",
        "ru": "При повышении уровня параметры не поднимаются выше 5.",
    },
    "armour_pierce_rule": {
        "en": 'Armour is ignored when the attacker rolled more 10s than the defender. "any_attacker_crit": when the attacker rolled any 10.',
        "ru": "Броня не учитывается, если у атакующего больше десяток, чем у защитника. «any_attacker_crit»: если у атакующего есть хоть одна десятка.",
    },
    "damage_floor_zero": {
        "en": "Damage after armour never goes below 0.",
        "ru": "Урон после брони не бывает меньше 0.",
    },
    "natural_armour_stacking": {
        "en": 'Natural armour adds to worn armour. "max": the better one counts.',
        "ru": "Естественная броня складывается с надетой. «max»: считается лучшая.",
    },
    "neck_armour": {
        "en": "The neck is protected by body armour.",
        "ru": "Шею защищает броня тела.",
    },
    "armour_vs_spells": {
        "en": "Armour does not reduce spell damage.",
        "ru": "Броня не снижает урон заклинаний.",
    },
    "spell_level_rule": {
        "en": 'A spell\'s level (the successes it needs) is its complexity, at least 1. "complexity_plus_1" or "manual".',
        "ru": "Уровень заклинания (нужные ему успехи) равен его сложности, но не меньше 1. «complexity_plus_1» или «manual».",
    },
    "spell_complexity_over_skill": {
        "en": 'A spell more complex than the caster\'s skill is refused. "clamp": held at the skill.',
        "ru": "Заклинание сложнее навыка заклинателя отклоняется. «clamp»: сложность ограничивается навыком.",
    },
    "failed_spell_fallback": {
        "en": 'A failed cast with at least one success still makes a basic level-1 spell. "gm": the GM decides.',
        "ru": "Проваленное заклинание хотя бы с одним успехом всё же даёт базовое заклинание первого уровня. «gm»: решает Мастер.",
    },
    "ep_cost_on_failure": {
        "en": "EP are paid even when the cast fails.",
        "ru": "EP тратятся и при провале заклинания.",
    },
    "wild_pattern_brightness_threshold": {
        "en": "The GM is reminded of spontaneous wild patterns on every failed cast; a number limits it to casts at least that bright.",
        "ru": "Мастеру напоминают о спонтанных диких узорах при каждом проваленном заклинании; число ограничивает это заклинаниями не слабее этой яркости.",
    },
    "joint_cast_roller": {
        "en": "In a joint casting, the participant with the lowest initiative rolls.",
        "ru": "При совместном колдовстве бросает участник с наименьшей инициативой.",
    },
    "facet_transition_damage": {
        "en": 'A failed passage between facets hurts in the facet left and in the one entered. "once".',
        "ru": "Неудачный переход между гранями ранит и в покинутой грани, и в новой. «once».",
    },
    "damage_type_pools": {
        "en": "Which health pool each damage type lowers.",
        "ru": "Какой запас здоровья снижает каждый тип урона.",
    },
    "retry_penalty": {
        "en": 'Attempt k loses k − 1 dice. "flat": every retry loses one die.',
        "ru": "Попытка k теряет k − 1 кубов. «flat»: каждая повторная попытка теряет один куб.",
    },
    "pool_nonpositive": {
        "en": 'A pool of 0 or fewer dice rolls nothing (no successes, no critical failure; epic dice still count). "forbid": the tray refuses the roll.',
        "ru": "Пул из 0 и меньше кубов ничего не бросает (нет успехов, нет критического провала; эпик-дайсы всё равно считаются). «forbid»: лоток отказывает в броске.",
    },
    "fumble_basis": {
        "en": 'A critical failure is judged after the untrained minus and epic dice. "raw": on the dice as rolled.',
        "ru": "Критический провал определяется после минуса за необученность и эпик-дайсов. «raw»: по кубам как выпали.",
    },
    "other_spec_adds_level": {
        "en": "Another specialization of the same skill only spares the untrained minus. True: its level is added too.",
        "ru": "Другая специализация того же навыка только снимает минус за необученность. True: её уровень тоже прибавляется.",
    },
    "initiative_tiebreak": {
        "en": 'Initiative ties go to the bigger pool, then the higher Dexterity, then a roll-off. Or "reroll", "simultaneous", "gm".',
        "ru": "При равной инициативе выше тот, у кого больше пул, затем выше Ловкость, затем переброс. Или «reroll», «simultaneous», «gm».",
    },
    "initiative_on_join": {
        "en": 'When someone joins a fight everybody rolls initiative again. "insert_newcomers": only the newcomers roll.',
        "ru": "Когда в бой вступает новый участник, все перебрасывают инициативу. «insert_newcomers»: бросают только новички.",
    },
    "reactions_consume_actions": {
        "en": "Block, dodge and counterattack use one of the reacting character's actions; with none left, its defence counts as 0 successes.",
        "ru": "Блок, уклонение и контратака тратят одно действие реагирующего; если действий не осталось, его защита — 0 успехов.",
    },
    "counterattack_mode": {
        "en": 'A counterattack is an attack of its own. "exchange": it is also the defence, and hurts the attacker when it wins.',
        "ru": "Контратака — отдельная атака. «exchange»: она же и защита, и ранит атакующего, если побеждает.",
    },
    "speed_ii_extra_actions": {
        "en": "Extra actions per round from Speed II.",
        "ru": "Дополнительные действия за раунд от Скорости II.",
    },
    "round1_others": {
        "en": 'In round 1 those who did not start the fight may only block or dodge. "anything_but_counterattack".',
        "ru": "В первом раунде те, кто не начинал бой, могут только блокировать или уклоняться. «anything_but_counterattack».",
    },
    "round1_free_actions": {
        "en": "Free actions (talk, jog) are allowed in round 1.",
        "ru": "Свободные действия (разговор, пробежка) разрешены в первом раунде.",
    },
    "bound_pattern_iii_skips_coordination": {
        "en": "Bound pattern III does not spare the coordination roll.",
        "ru": "Связанный узор III не избавляет от броска на согласованность.",
    },
    "zero_hp_state": {
        "en": 'A character at 0 HP or below is incapacitated. "dead" or "none".',
        "ru": "Персонаж с 0 HP и меньше выведен из строя. «dead» или «none».",
    },
    "raise_current_with_max": {
        "en": "When a maximum rises, the current value rises with it.",
        "ru": "Когда растёт максимум, текущее значение растёт вместе с ним.",
    },
    "enchant_multiplier_scope": {
        "en": "An enchanted item's rarity multiplier applies to the container's cost as well. \"spell_only\".",
        "ru": "Множитель редкости зачарованного предмета применяется и к цене вместилища. «spell_only».",
    },
    "highlevel_param_points": {
        "en": 'A character starting above level 1 gets as many parameter points as its level. "level_minus_1": one fewer.',
        "ru": "Персонаж, начинающий выше первого уровня, получает столько очков параметров, каков его уровень. «level_minus_1»: на одно меньше.",
    },
    "inconspicuous_start_rep": {
        "en": "Starting reputation of a character with the Inconspicuous feature.",
        "ru": "Начальная репутация персонажа с особенностью «неприметность».",
    },
    "racial_upgrade_is_mutation": {
        "en": "Raising a racial feature (Claws I → II) does not make the character a mutant.",
        "ru": "Улучшение расовой особенности (Когти I → II) не делает персонажа мутантом.",
    },
    "epic_clamp_on_rep_change": {
        "en": "When reputation drops, epic dice above the new limit are lost.",
        "ru": "Когда репутация падает, эпик-дайсы сверх нового предела теряются.",
    },
    "saturated_xp_on_cap_raise": {
        "en": 'A skill that stopped at its cap levels up with its saved XP when the cap rises. "discard".',
        "ru": "Навык, упёршийся в предел, повышается на сохранённый опыт, когда предел растёт. «discard».",
    },
    "xp_capped_counts_toward_total": {
        "en": "XP earned by a capped skill still counts towards the character's level.",
        "ru": "Опыт навыка, упёршегося в предел, всё равно идёт в уровень персонажа.",
    },
    "transform_tier_includes_humanoid": {
        "en": "The humanoid form does not count towards a shapeshifter's total of form tiers.",
        "ru": "Гуманоидная форма не входит в сумму уровней ипостасей оборотня.",
    },
    "luck_targeting": {
        "en": 'When chance picks a victim, the lowest Luck roll is picked. "gm": the GM picks.',
        "ru": "Когда жертву выбирает случай, выбирается худший бросок Удачи. «gm»: выбирает Мастер.",
    },
    "gm_allows_guardians": {
        "en": "A shapeshifter may not take one of the nine Guardian forms unless the GM allows it (also per form).",
        "ru": "Оборотень не может взять одну из девяти форм Хранителей без разрешения Мастера (можно разрешить и для одной формы).",
    },
    "defence_pools": {
        "en": 'A block rolls the defender\'s own weapon check and a dodge Dexterity + Dodge (the book says neither). A skill key in place of "weapon" or "dodge": that skill, with its parameter.',
        "ru": "Блок бросается проверкой оружия защищающегося, уворот — Ловкость + уворот (книга не говорит ни того, ни другого). Ключ навыка вместо «weapon» или «dodge»: этот навык с его параметром.",
    },
    "start_level": {
        "en": "New characters start at level 1 with 0 XP. A higher number: the GM lets them start up to that level, with 20 XP per level above the first.",
        "ru": "Новые персонажи начинают на 1-м уровне с 0 опыта. Число больше: Мастер разрешает начать до этого уровня, с 20 опыта за каждый уровень после первого.",
    },
    "default_base_hp": {
        "en": "House rule, not the book's: base HP 10 when neither the character nor its race row gives one (the book has no number). None: the GM must enter it.",
        "ru": "Домашнее правило, не из книги: базовое HP 10, когда его не дают ни персонаж, ни строка расы (в книге числа нет). None: Мастер должен ввести его сам.",
    },
    "unstated_skill_params": {
        "en": "House rule, not the book's: Survival is rolled with Alertness and Transformation with Might (the book names no parameter for them). {}: the check id must name it.",
        "ru": "Домашнее правило, не из книги: Выживание бросается с Восприятием, Трансформация — с Силой (книга не называет их параметр). {}: параметр называет сама проверка.",
    },
    "house_rows": {
        "en": "The GM's own rows for the data tables (races, weapons, skills...), by table; a row with the id of a book row replaces it.",
        "ru": "Свои строки Мастера для таблиц данных (расы, оружие, навыки...) по таблицам; строка с id строки из книги заменяет её.",
    },
}

#: The options whose default is the house's reading, not the book's: a GM sees them marked so.
HOUSE_DEFAULTS: tuple[str, ...] = ("default_base_hp", "unstated_skill_params")

#: The name the tests and notebooks import.
DEFAULT_RULES = DEFAULTS
