"""Core numbers and small formulas of Threads of Fate (spec §3, §5.2, §11): one place to look."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.i18n import T

CHARACTERISTICS = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charm")
CHAR_LABELS = {
    "strength": T("Strength", "Сила"),
    "dexterity": T("Dexterity", "Ловкость"),
    "constitution": T("Constitution", "Выносливость"),
    "intelligence": T("Intelligence", "Интеллект"),
    "wisdom": T("Wisdom", "Мудрость"),
    "charm": T("Charm", "Обаяние"),
}
SECONDARIES = ("hp", "speed", "will", "reaction")
SECONDARY_LABELS = {
    "hp": T("Health Units", "Единицы Здоровья"),
    "speed": T("Speed", "Скорость"),
    "will": T("Will", "Воля"),
    "reaction": T("Reaction", "Реакция"),
}

# §3.6: code -> (en, ru, usual characteristics)
BASIC_SKILLS = {
    "athletics": ("Athletics", "Атлетика", ("strength", "dexterity", "constitution")),
    "weapons": ("Weapon handling", "Владение оружием", ("dexterity", "intelligence", "wisdom")),
    "sleight": ("Sleight of hand", "Ловкость рук", ("dexterity", "intelligence")),
    "perception": ("Perception", "Наблюдательность", ("intelligence", "wisdom")),
    "communication": ("Communication", "Общение", ("strength", "constitution", "intelligence", "wisdom", "charm")),
    "unarmed": ("Unarmed combat", "Рукопашный бой", ("dexterity", "intelligence", "wisdom")),
    "stealth": ("Stealth", "Скрытность", ("dexterity", "intelligence")),
    "shooting": ("Shooting", "Стрельба", ("dexterity", "intelligence", "wisdom")),
}
EXPERT_SKILLS = {
    "warfare": ("Warfare", "Военное дело", ("intelligence", "wisdom", "charm")),
    "survival": ("Survival", "Выживание", ("intelligence", "wisdom")),
    "performance": ("Performance", "Выступление", ("charm",)),
    "art": ("Art", "Искусство", ("intelligence", "wisdom", "charm")),
    "medicine": ("Medicine", "Медицина", ("intelligence", "wisdom")),
    "science": ("Science", "Наука", ("intelligence", "wisdom")),
    "animals": (
        "Animal handling",
        "Обращение с животными",
        ("strength", "dexterity", "intelligence", "wisdom", "charm"),
    ),
    "repair": ("Repair", "Ремонт", ("dexterity", "intelligence", "wisdom")),
    "trade": ("Trade", "Торговля", ("intelligence", "wisdom", "charm")),
    "driving": ("Driving", "Управление транспортом", ("dexterity",)),
}
SKILLS = {**BASIC_SKILLS, **EXPERT_SKILLS}


def skill_label(code: str) -> dict[str, str]:
    en, ru, _ = SKILLS[code]
    return T(en, ru)


ENTITY_TYPES = ("hero", "persona", "extra")
ENTITY_LABELS = {"hero": T("Hero", "Герой"), "persona": T("Persona", "Персона"), "extra": T("Extra", "Статист")}

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
SIZE_LABELS = {
    "tiny": T("Tiny", "Крошечный"),
    "small": T("Small", "Маленький"),
    "medium": T("Medium", "Средний"),
    "large": T("Large", "Большой"),
    "huge": T("Huge", "Огромный"),
    "gargantuan": T("Gargantuan", "Громадный"),
}
# §3.5: only the cells recoverable from the fragment (the size table is missing, X6).
# None = "needs a GM value". signed SBP: + for large creatures.
SIZE_SBP: dict[str, int | None] = {"tiny": -2, "small": -1, "medium": 0, "large": 1, "huge": None, "gargantuan": None}
SIZE_HP_MULT: dict[str, int | None] = {
    "tiny": None,
    "small": None,
    "medium": 3,
    "large": None,
    "huge": None,
    "gargantuan": None,
}
SIZE_MEDIUM_COUNT = {"tiny": None, "small": None, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}  # L310

CHAR_POINTS = 70  # L271
CREATION_MAX = 18  # L274
HERO_MAX = 20  # L274, L276
CREATION_XP = 10  # L268
REFUSED_ATTRIBUTE_XP = 5  # L263
TRICK_COST = 5  # L157
THREADS_START = 2  # L164
THREADS_CAP = 5  # L164
MAX_EXTRA_DICE = 2  # L109
MAX_REROLLS = 2  # L187

#: GM-configurable readings (spec §10.4, §11). Tests cover both readings of each.
DEFAULT_RULES: dict[str, Any] = {
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
    "min_success_damage": 1,  # A13
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
}


SIZE_TABLE_KEYS = ("hp_multiplier", "sbp")


def check_rules(rules: Mapping[str, Any]) -> list[str]:
    """Problems with GM-configured rule values (bilingual "en / ru" strings); empty when fine."""
    out = []
    choices = {
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
    }
    for name, allowed in choices.items():
        if name in rules and rules[name] not in allowed:
            out.append(
                f"{name} must be one of {', '.join(allowed)} (got {rules[name]!r}) / "
                f"{name}: допустимо {', '.join(allowed)} (указано {rules[name]!r})"
            )
    for name, lo in (("resistance_flat", 0), ("speed_min_after_sbp", 0)):
        v = rules.get(name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < lo):
            out.append(
                f"{name} must be a whole number >= {lo} (got {v!r}) / "
                f"{name}: целое число не меньше {lo} (указано {v!r})"
            )
    table = rules.get("size_table")
    if table is not None:
        if not isinstance(table, Mapping):
            out.append(
                "size_table must map size codes to {hp_multiplier, sbp} / "
                "size_table: словарь «размер — {hp_multiplier, sbp}»"
            )
        else:
            for size, row in table.items():
                if size not in SIZES:
                    out.append(f"size_table: unknown size {size!r} / size_table: неизвестный размер {size!r}")
                    continue
                if not isinstance(row, Mapping) or set(row) - set(SIZE_TABLE_KEYS):
                    out.append(
                        f"size_table[{size}]: only hp_multiplier and sbp / "
                        f"size_table[{size}]: только hp_multiplier и sbp"
                    )
                    continue
                hm, sb = row.get("hp_multiplier"), row.get("sbp")
                if hm is not None and (not isinstance(hm, int) or isinstance(hm, bool) or hm < 1):
                    out.append(
                        f"size_table[{size}]: the HP multiplier is a whole number >= 1 (got {hm!r}) / "
                        f"size_table[{size}]: множитель ЕЗ — целое не меньше 1 (указано {hm!r})"
                    )
                if sb is not None and (not isinstance(sb, int) or isinstance(sb, bool) or not -10 <= sb <= 10):
                    out.append(
                        f"size_table[{size}]: the size bonus is a whole number -10..10 (got {sb!r}) / "
                        f"size_table[{size}]: БШР — целое от -10 до 10 (указано {sb!r})"
                    )
    return out


def size_values(size: str, rules: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
    """(hp_multiplier, sbp) of a size class: the campaign table (GM-entered once per size, X6) over the
    cells the fragment gives (§3.5)."""
    row = ((rules or {}).get("size_table") or {}).get(size) or {}
    hm = row.get("hp_multiplier")
    sb = row.get("sbp")
    return (hm if hm is not None else SIZE_HP_MULT.get(size), sb if sb is not None else SIZE_SBP.get(size))


def mod(score: int) -> int:
    """Characteristic modifier, floor((score - 10) / 2) (L295; floor per L154, X1)."""
    return (score - 10) // 2


def net_dice(advantages: int, hindrances: int, order: str = "cancel_then_cap") -> int:
    """Net extra dice: + Advantages, - Hindrances; capped at +-2 (L108-109, A2)."""
    if advantages < 0 or hindrances < 0:
        raise ValueError("advantages and hindrances cannot be negative")
    if order == "cancel_then_cap":
        net = advantages - hindrances
    elif order == "cap_then_cancel":
        net = min(advantages, MAX_EXTRA_DICE) - min(hindrances, MAX_EXTRA_DICE)
    else:
        raise ValueError(f"unknown adv_order {order!r}")
    return max(-MAX_EXTRA_DICE, min(MAX_EXTRA_DICE, net))


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def rule(rules: Mapping[str, Any] | None, name: str):
    return (rules or DEFAULT_RULES).get(name, DEFAULT_RULES[name])
