"""The GM options of R.E.T. (spec §11): every GM-configurable reading with the spec's default, and
what each one means in both languages (the same words as ``docs/systems/ret.md``)."""

from __future__ import annotations

from typing import Any

#: Every GM-configurable reading (spec §4.2, §11) with the spec's default: the system's
#: ``default_rules``, and the one place a default is written.
DEFAULTS: dict[str, Any] = {
    # rolls (spec §11 A4, A5, A37, TV-B8)
    "penalty_explosion": "die_ladder",  # A4: or "level_ladder"
    "d100_max_grants_sanity": False,  # A5
    "d100_reroll_on_max": False,  # A5
    "below_zero": "clamp",  # A37: or "auto_fail"
    "cinematic_luck": False,  # L358, L533: fail/crit awards 1/3, cinematic 3/5
    # advancement / creation (spec §4.2, §7.1)
    "costing": "recommended",  # or "simplified" (L287-315)
    "costing_at_creation": "simplified",  # L464
    "cost_0_to_1": 1,  # A6
    "param_dp": 0,  # A7: GM sets the creation budget (UI suggests 3)
    "ability_dp": 0,
    "start_level_param": 3,  # L463
    "start_level_skill": 3,  # L407
    "start_level_talent": 3,  # L419
    "n_skills": 3,  # L457
    "n_talents": 1,
    "ability_count_mode": "exact",  # V7: or "at_most"
    "creation_cap": 7,  # L285, L465 (example GM value 5)
    "allow_below_start": False,  # A8
    "starting_extra_items": 3,  # L461, V15
    "keep_unspent_creation_dp": False,  # L278, L462: DP come after sessions; leftover creation points?
    "pillar_base": "superpowers",  # L397-400, L1726: a pillar base only for the mightiest superpowers
    "dp_spend_only_between_games": True,  # L280
    # contests and checks
    "double_fail_attack_can_hit": True,  # A9
    "divider_on_fail": "zero",  # A10: or "base"
    "crit_survival_is_death": True,  # A16
    "coma_damage_is_death": True,  # A17
    "noncombat_crit_self_control": "coma",  # A18: or "table_1"
    "threshold_multiplier": 3,  # A21: guaranteed coma/death strictly below -3 x max
    "health_threshold_outcome": "dead",  # A21
    "sanity_threshold_outcome": "coma",
    # combat
    "pcs_win_ties": True,  # A25
    "sanity_extra_turn_from_round": 1,  # L763 (example GM value 2)
    "refusal_extra_turn_from_round": 1,  # L763 (example GM value 3)
    "extra_turn_requires_sanity_ge_3": False,  # A23
    "durability_needs_raw_gt_1": True,  # A12
    "defence_tracks_durability": True,  # A13, L1397
    "head_min_before_double": True,  # A14
    "dual_wield_mode": "multiply",  # A15: or "two_hits"
    "blast_sanity_from": "health_damage",  # A31: or "raw"
    "blast_dodge_fraction": (1, 2),  # A32: half, floor
    "leg_injury_speed": "once",  # A33: or "per_leg"
    "burst_requires_rounds": True,  # A28
    "burst_costs_action": False,  # A28: the book names no action for a burst at one target
    "movement_block_ties": "mover",  # A26: or "blocker"
    "tokens_reach_level_8": True,  # A46
    "armour_penalty_speed": False,  # A52
    "cover_bonus_scope": "physical_defences",  # A55: or "dodge_only"
    "resist_on_first_turn": True,  # A49
    "power_sanity_spent_on_fail": True,  # A44
    "survival_roll_timing": "immediate",  # A20: or "next_turn" (reported to the tracker)
    "defence_refusal_duration": "until_next_turn",  # A22
    "defences_per_round": None,  # A45: unlimited
    "medkit_roll": "healer",  # A30: or "patient_endurance" (who rolls the total)
    "weapon_change_costs_action": False,  # A54: bulky items always cost the action
    "luck_pick": "weighted",  # A39: or "uniform"
    "initiative_speed": None,  # L729: None (off), "tiebreak" or "bonus" (Speed added)
    "extra_turns": "allowed",  # L712: or "forbidden" (fast cinematic fights)
    #   or "not_round_1" (restricted in round 1 only)
    "power_defence": True,  # L1073: a superpower may defend against a physical attack «если мастер считает это уместным»
    "dispel": True,  # L1082: powers may dispel each other «если мастер позволяет это в своей игре»
    "tense_extra_turns": False,  # L700: «обычно ... недоступны» in a tense situation
    "tense_actions": 2,  # L698, L701: the GM may leave one action a turn
    "loot_actions": 1,  # L1141: the GM may allow 2 (one to help, one for loot)
}


def _d(en: str, ru: str) -> dict[str, str]:
    return {"en": en, "ru": ru}


#: What each option means, en and ru (the default's reading first, then the alternatives).
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "penalty_explosion": _d(
        "A maximum at levels 0–2 rolls on up the die ladder (d8, d10...), the flat penalty counted once. "
        '"level_ladder": it rolls the die of the next level instead (d6, d6, d6, then d8...).',
        "Максимум на уровнях 0–2 взрывается вверх по лестнице кубов (d8, d10...), штраф учитывается один раз. "
        "«level_ladder»: бросается куб следующего уровня (d6, d6, d6, затем d8...).",
    ),
    "d100_max_grants_sanity": _d(
        "A natural 100 on the d100 restores no Sanity (no die follows it). True: it restores 1.",
        "Естественные 100 на d100 не восстанавливают Рассудок (за ними нет куба). True: восстанавливают 1.",
    ),
    "d100_reroll_on_max": _d(
        "The chain stops at a natural 100. True: another d100 is rolled and added.",
        "Цепочка останавливается на естественных 100. True: бросается и прибавляется ещё один d100.",
    ),
    "below_zero": _d(
        'Die-level penalties below level 0 still roll d6−3. "auto_fail": such a roll fails outright.',
        "Штрафы к уровню куба ниже 0 всё равно бросают d6−3. «auto_fail»: такой бросок сразу провален.",
    ),
    "cinematic_luck": _d(
        "A fail gives 1 Luck, a critical fail 3. True (cinematic games): 3 and 5.",
        "Провал даёт 1 Удачу, критический провал — 3. True (кинематографичные игры): 3 и 5.",
    ),
    "costing": _d(
        'DP cost of a level in play: raising from level L costs L DP. "simplified": 1 DP a level.',
        "Цена уровня в игре: повышение с уровня L стоит L очков развития. «simplified»: 1 очко за уровень.",
    ),
    "costing_at_creation": _d("The same choice for creation.", "То же при создании персонажа."),
    "cost_0_to_1": _d(
        "DP to raise a level from 0 to 1 (the book's tables leave it blank).",
        "Очки развития за повышение с 0 до 1 (в таблицах книги не указано).",
    ),
    "param_dp": _d(
        "DP for parameters at creation: the GM sets it (the sheet suggests 3).",
        "Очки развития параметров при создании: задаёт мастер (лист предлагает 3).",
    ),
    "ability_dp": _d(
        "DP for skills and talents at creation: the GM sets it (the sheet suggests 3).",
        "Очки развития навыков и талантов при создании: задаёт мастер (лист предлагает 3).",
    ),
    "start_level_param": _d("Starting level of every parameter.", "Стартовый уровень каждого параметра."),
    "start_level_skill": _d("Starting level of a new skill.", "Стартовый уровень нового навыка."),
    "start_level_talent": _d("Starting level of a new talent.", "Стартовый уровень нового таланта."),
    "n_skills": _d("Skills taken at creation.", "Навыков при создании."),
    "n_talents": _d("Talents taken at creation.", "Талантов при создании."),
    "ability_count_mode": _d(
        'Exactly that many skills and talents. "at_most": up to that many.',
        "Ровно столько навыков и талантов. «at_most»: не больше.",
    ),
    "creation_cap": _d(
        "Highest level any parameter or ability may reach at creation (the book's example GM value is 5).",
        "Наибольший уровень параметра или способности при создании (в примере книги мастер ставит 5).",
    ),
    "allow_below_start": _d(
        "Parameters, skills and talents may not start below their starting level. True: they may.",
        "Параметры, навыки и таланты не могут начинать ниже стартового уровня. True: могут.",
    ),
    "starting_extra_items": _d(
        "Items besides the weapon in the starting kit (more is a warning).",
        "Предметов в стартовом наборе помимо оружия (больше — предупреждение).",
    ),
    "keep_unspent_creation_dp": _d(
        "Creation points left unspent are lost: a new character starts play with no development points. True: "
        "they become its development points when it enters play.",
        "Неистраченные очки создания пропадают: новый персонаж начинает игру без очков развития. True: они "
        "становятся его очками развития при входе в игру.",
    ),
    "pillar_base": _d(
        "A skill or talent on a pillar (Mind, Emotions, Body) is a creation error; for a superpower only a warning. "
        '"allowed": a warning for any ability (the GM\'s call).',
        "Навык или талант на вершине дерева (Разум, Эмоции, Тело) — ошибка создания; для сверхспособности только "
        "предупреждение. «allowed»: предупреждение для любой способности (решает мастер).",
    ),
    "dp_spend_only_between_games": _d(
        "Development points are spent between sessions, not during play.",
        "Очки развития тратятся между играми, а не во время игры.",
    ),
    "double_fail_attack_can_hit": _d(
        "When attack and defence both fail, the higher d4 wins, so the attack can still hit. "
        "False: a double fail never hits.",
        "Когда провалены и атака, и защита, побеждает больший d4, так что атака может попасть. "
        "False: при двойном провале попадания нет.",
    ),
    "divider_on_fail": _d(
        'A failed roll through a divider gives 0. "base": it gives the divider\'s base.',
        "Проваленный бросок через делитель даёт 0. «base»: даёт основу делителя.",
    ),
    "crit_survival_is_death": _d(
        "A critical fail on a survival roll is final death. False: coma, as on other fails.",
        "Критический провал броска на выживание — окончательная смерть. False: кома, как при других провалах.",
    ),
    "coma_damage_is_death": _d(
        "Any Health damage to a character in a coma is final death.",
        "Любой урон Здоровью персонажу в коме — окончательная смерть.",
    ),
    "noncombat_crit_self_control": _d(
        'A critical fail on self-control out of combat gives a coma. "table_1": roll on the out-of-combat '
        "table instead.",
        "Критический провал самоконтроля вне боя даёт кому. «table_1»: вместо этого бросок по таблице вне боя.",
    ),
    "threshold_multiplier": _d(
        "Below this many times the maximum (strictly), the outcome is certain.",
        "Ниже стольких максимумов (строго) исход предрешён.",
    ),
    "health_threshold_outcome": _d("What is certain past the Health threshold.", "Что предрешено за порогом Здоровья."),
    "sanity_threshold_outcome": _d("What is certain past the Sanity threshold.", "Что предрешено за порогом Рассудка."),
    "pcs_win_ties": _d(
        "Player characters win initiative ties against the GM's characters. False: roll off.",
        "При равенстве инициативы персонажи игроков ходят раньше персонажей мастера. False: переброс.",
    ),
    "sanity_extra_turn_from_round": _d(
        "First round in which an extra turn may be bought with Sanity (the book's example GM value is 2).",
        "Первый раунд, в котором доп. ход можно купить за Рассудок (в примере книги мастер ставит 2).",
    ),
    "refusal_extra_turn_from_round": _d(
        "First round in which refusing defence buys the second extra turn (the book's example GM value is 3).",
        "Первый раунд, в котором отказ от защиты даёт второй доп. ход (в примере книги мастер ставит 3).",
    ),
    "extra_turn_requires_sanity_ge_3": _d(
        "The 3-Sanity extra turn is allowed even below 3 Sanity. True: at least 3 is needed.",
        "Доп. ход за 3 Рассудка разрешён и при Рассудке ниже 3. True: нужно не меньше 3.",
    ),
    "durability_needs_raw_gt_1": _d(
        "Armour loses durability when the damage before armour is above 1. False: the damage after armour counts.",
        "Броня теряет прочность, когда урон до брони больше 1. False: считается урон после брони.",
    ),
    "defence_tracks_durability": _d(
        "An armour's defence falls with its durability (never above it).",
        "Защита брони падает вместе с прочностью (никогда не выше неё).",
    ),
    "head_min_before_double": _d(
        "On a head hit the minimum of 1 is applied before doubling (so at least 2 Health).",
        "При попадании в голову минимум 1 применяется до удвоения (значит, не меньше 2 Здоровья).",
    ),
    "dual_wield_mode": _d(
        'Two weapons on one target double the damage after armour. "two_hits": they hit twice.',
        "Два оружия по одной цели удваивают урон после брони. «two_hits»: два отдельных попадания.",
    ),
    "blast_sanity_from": _d(
        'An explosion\'s Sanity damage is based on the Health damage it did. "raw": on its damage before armour.',
        "Урон Рассудку от взрыва считается от нанесённого урона Здоровью. «raw»: от урона до брони.",
    ),
    "blast_dodge_fraction": _d(
        "A dodge inside a blast keeps this fraction of the damage (half, rounded down).",
        "Уклонение внутри взрыва оставляет такую долю урона (половину, с округлением вниз).",
    ),
    "leg_injury_speed": _d(
        'An injured leg halves Speed once, whatever the number of legs hurt. "per_leg": once per leg.',
        "Травма ноги делит Скорость пополам один раз, сколько бы ног ни пострадало. «per_leg»: за каждую ногу.",
    ),
    "burst_requires_rounds": _d(
        "A burst needs the rounds in the magazine (half or all of it).",
        "Очереди нужны патроны в магазине (половина или весь).",
    ),
    "burst_costs_action": _d(
        "A burst at one target costs no action (the book names none). True: it costs the turn's action, as a spray "
        "does.",
        "Очередь в одну цель не тратит действие (книга его не называет). True: тратит действие хода, как очередь "
        "по области.",
    ),
    "movement_block_ties": _d(
        'On a tie of a movement block the mover gets through (it is the defending side). "blocker": the move stops.',
        "При равенстве в блокировании движения двигающийся проходит (он защищающаяся сторона). «blocker»: движение "
        "останавливается.",
    ),
    "tokens_reach_level_8": _d(
        "A token's die levels may lift a player character's roll to level 8 (d100): the limit of 7 is for "
        "development. False: a token stops at level 7.",
        "Уровни куба от токена могут поднять бросок персонажа игрока до 8-го уровня (d100): предел 7 — для "
        "развития. False: токен останавливается на 7-м уровне.",
    ),
    "armour_penalty_speed": _d(
        "The armour's penalty is on the Agility branch's rolls, not on Speed. True: it lowers Speed too.",
        "Штраф брони — к броскам ветки Ловкости, а не к Скорости. True: он снижает и Скорость.",
    ),
    "cover_bonus_scope": _d(
        'Cover adds its bonus to dodge, parry and power defence. "dodge_only": to dodge alone.',
        "Укрытие добавляет бонус к уклонению, парированию и защите силой. «dodge_only»: только к уклонению.",
    ),
    "resist_on_first_turn": _d(
        "A character may try to resist a state on the turn it was gained. False: from the next turn.",
        "Сопротивляться состоянию можно в тот же ход, когда оно получено. False: со следующего хода.",
    ),
    "power_sanity_spent_on_fail": _d(
        "The Sanity paid for a superpower is spent even when the roll fails.",
        "Рассудок, заплаченный за сверхспособность, тратится и при провале броска.",
    ),
    "survival_roll_timing": _d(
        'A survival roll is made right after the damage. "next_turn": at the start of the character\'s next turn.',
        "Бросок на выживание делается сразу после урона. «next_turn»: в начале следующего хода персонажа.",
    ),
    "defence_refusal_duration": _d(
        "Refused defence lasts until the start of the character's next turn.",
        "Отказ от защиты действует до начала следующего хода персонажа.",
    ),
    "defences_per_round": _d(
        "No limit on defence rolls per round (one per incoming attack); a number sets the limit.",
        "Бросков защиты за раунд сколько угодно (по одному на атаку); число задаёт предел.",
    ),
    "medkit_roll": _d(
        "A medkit heals 3 + the healer's Fine Motor roll through 4 (+2). \"patient_endurance\": the patient's "
        "Endurance roll counts.",
        "Аптечка лечит 3 + бросок Мелкой моторики лечащего через делитель 4 (+2). «patient_endurance»: "
        "считается бросок Выносливости пациента.",
    ),
    "weapon_change_costs_action": _d(
        "Changing weapons is free (bulky items always cost the action). True: it costs the action.",
        "Смена оружия бесплатна (громоздкие предметы всегда стоят действия). True: стоит действия.",
    ),
    "luck_pick": _d(
        'When the GM picks someone "by Luck", the pick is random, weighted by Luck. "uniform": everyone is '
        "equally likely.",
        "Когда мастер выбирает кого-то «по Удаче», выбор случаен с весом по Удаче. «uniform»: шансы у всех равны.",
    ),
    "initiative_speed": _d(
        'Speed plays no part in initiative. "tiebreak": higher Speed wins ties. "bonus": Speed is added to the roll.',
        "Скорость не влияет на инициативу. «tiebreak»: при равенстве раньше ходит тот, у кого выше Скорость. «bonus»: Скорость "
        "прибавляется к броску.",
    ),
    "extra_turns": _d(
        'Extra turns may be bought. "forbidden" (fast, cinematic fights) or "not_round_1".',
        "Доп. ходы можно покупать. «forbidden» (быстрые кинематографичные бои) или «not_round_1» (не в 1-м раунде).",
    ),
    "power_defence": _d(
        "A target may defend against a physical attack with one of its superpowers (paying its Sanity even if it "
        "fails). False: the GM does not allow it.",
        "Цель может защититься от физической атаки своей сверхспособностью (Рассудок тратится и при неудаче). "
        "False: мастер этого не разрешает.",
    ),
    "dispel": _d(
        "A target may dispel a superpower attack with its own power, paying the Sanity the attacker paid. "
        "False: the GM does not allow it.",
        "Цель может рассеять атаку сверхспособностью своей силой, заплатив столько Рассудка, сколько атакующий. "
        "False: мастер этого не разрешает.",
    ),
    "tense_extra_turns": _d(
        "No extra turns in a tense situation (the book: usually not available). True: they may be bought.",
        "В острой ситуации дополнительных ходов нет (в книге: обычно недоступны). True: их можно покупать.",
    ),
    "tense_actions": _d(
        "Actions a turn has in a tense situation, one of which may be the attack (the GM may leave 1).",
        "Действий за ход в острой ситуации, одно из них может быть атакой (мастер может оставить 1).",
    ),
    "loot_actions": _d(
        "Actions each participant gets in the loot phase after a fight (the GM may allow 2: one to help, one to "
        "search).",
        "Действий у каждого участника в фазе добычи после боя (мастер может разрешить 2: помочь и искать).",
    ),
}
