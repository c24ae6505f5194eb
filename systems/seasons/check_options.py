"""The options the dice tray shows for a check (spec §10.2), with their ranges and start values."""

from __future__ import annotations


from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import OptionSpec, T

from .data import label
from .modifiers import sheet_defaults
from .objects import all_weapons
from .pool_plan import OPTION_MAX, PATIENT_CHECKS, default_difficulty
from .presets import Preset

OPPOSITION_LABELS = {
    "difficulty": T("Difficulty", "Сложность"),
    "physical_defence": T("Target's Physical Defence", "ФЗ цели"),
    "social_defence": T("Target's Social Defence", "СЗ цели"),
    "mental_defence": T("Target's Mental Defence", "УЗ цели"),
    "durability": T("Durability", "Прочность"),
    "damage": T("Difficulty = damaged health levels", "Сложность = уровни урона"),
    "contest": T("Difficulty (both sides)", "Сложность (обеим сторонам)"),
}


def _o(name, en, ru, kind="int", default=0, min=None, max=None, help=None, choices=()):
    if kind == "int" and not choices and max is None:
        max = OPTION_MAX
    return OptionSpec(
        name=name, label=T(en, ru), kind=kind, default=default, min=min, max=max, help=help, choices=tuple(choices)
    )


def _flag(name, en, ru, default, help=None):
    return _o(name, en, ru, kind="bool", default=default, help=help)


def option_specs(preset: Preset, character, *, options: GmOptions) -> list[OptionSpec]:
    """The options the tray shows for this check (spec §10.2)."""
    if preset.special == "rolloff":
        return []
    opts = _pool_specs(preset) + _opposition_specs(preset, character)
    if preset.special in ("threat", "explosion"):
        return opts
    return opts + _gear_specs(preset, character) + _modifier_specs(preset, character, options=options)


def _pool_specs(preset: Preset) -> list[OptionSpec]:
    """The threat dice of a hazard, or the attributes a check may use instead of its own."""
    opts: list[OptionSpec] = []
    if preset.special in ("threat", "explosion"):
        opts.append(
            _o(
                "dice",
                "Threat dice",
                "Дайсы угрозы",
                default=6,
                min=0,
                help=T(
                    "6 minor ... 10 deadly; more if supernatural",  # L673
                    "6 незначительная ... 10 смертельная; больше для сверхъестественных",
                ),
            )
        )  # L673
    if preset.alt_attributes:
        opts.append(
            _o(
                "attribute",
                "Attribute",
                "Атрибут",
                kind="choice",
                default=preset.attribute,
                choices=[(a, label(a)) for a in (preset.attribute, *preset.alt_attributes)],
            )
        )
    return opts


def _opposition_specs(preset: Preset, character) -> list[OptionSpec]:
    """Difficulty or defences, Durability, armour piercing, armour and a contest's other side."""
    opts: list[OptionSpec] = []
    if preset.id in PATIENT_CHECKS:
        opts.append(
            _o(
                "patient_damage",
                "Patient's damaged health levels",
                "Уровни урона пациента",
                default=None,
                min=0,
                help=T(
                    "the difficulty: the patient's damaged health levels; empty: your own (you tend yourself)",  # L723
                    "сложность: уровни урона пациента; пусто — ваши собственные (помощь себе)",
                ),
            )
        )
    elif (
        preset.opposition in ("difficulty", "physical_defence", "social_defence", "mental_defence", "damage", "contest")
        and preset.special != "explosion"
    ):
        opts.append(
            _o(
                "difficulty",
                *OPPOSITION_LABELS[preset.opposition].values(),
                default=default_difficulty(preset, character),
                min=0,
                help=T(
                    "1-2 easy, 3 default, 4-5 hard, 6-7 very hard, 8-9 human limit, 10+ inhuman",  # L33
                    "1-2 легко, 3 обычно, 4-5 сложно, 6-7 очень сложно, 8-9 предел, 10+ не для людей",
                ),
            )
        )  # L33
    if preset.opposition.endswith("_defence") or preset.alt_opposition:
        opts.append(
            _o(
                "targets",
                "Defences of several targets",
                "Защиты нескольких целей",
                kind="text",
                default="",
                help=T(
                    "comma-separated; the highest is subtracted",  # L51
                    "через запятую; вычитается наибольшая",
                ),
            )
        )  # L51
    if preset.opposition == "durability":
        opts.append(_o("durability", "Durability", "Прочность", default=3, min=0))
    if preset.armour_piercing or preset.armour:
        opts.append(
            _o(
                "armour_piercing",
                "Armour piercing",
                "Бронебойность",
                default=0,
                min=0,
                help=T(
                    "3-10; lowers Durability / armour, never below 0",  # L825-826
                    "3-10; снижает Прочность / броню, не ниже 0",
                ),
            )
        )  # L825-826
    if preset.armour:
        opts.append(_o("armour", "Target's armour", "Броня цели", default=0, min=0))
    if preset.opposition == "contest" or preset.may_contest:
        opts.append(
            _o(
                "opponent_pool",
                "Opponent's pool (contest)",
                "Запас соперника (соревнование)",
                default=0 if preset.opposition == "contest" else None,
                min=0,
            )
        )
    return opts


def _gear_specs(preset: Preset, character) -> list[OptionSpec]:
    """The specialization and the weapon to use."""
    opts: list[OptionSpec] = []
    if preset.skill:
        specs = [sp["name"] for sp in character.specializations if sp["skill"] == preset.skill]
        opts.append(
            _o(
                "specialization",
                "Specialization",
                "Специализация",
                kind="choice",
                default="",
                choices=[("", T("none", "нет"))] + [(n, T(n, n)) for n in specs],
            )
        )
    if preset.gear == "weapon" or preset.attack in ("melee", "thrown", "shooting"):
        opts.append(
            _o(
                "weapon",
                "Weapon",
                "Оружие",
                kind="choice",
                default="",
                choices=[("", T("none", "нет"))]
                + [(w["name"], T(w["name"], w["name"])) for w in all_weapons(character) if not w.get("broken")],
            )
        )
    return opts


def _tick_help(what_en: str, what_ru: str, *, options: GmOptions) -> dict[str, str]:
    """Why a sheet modifier is (not) ticked: §11 #43, or the Storyteller's ``auto_sheet_modifiers``."""
    if options.auto_sheet_modifiers:
        return T(
            f"{what_en}: ticked by the Storyteller's rules option; untick it where it does not fit",
            f"{what_ru}: отмечено по настройке правил Рассказчика; снимите, где не подходит",
        )
    return T(f"{what_en}: tick it where it fits", f"{what_ru}: отметьте, где подходит")


def _modifier_specs(preset: Preset, character, *, options: GmOptions) -> list[OptionSpec]:
    """Bonuses and penalties (L762-777), pre-filled from the sheet (``sheet_defaults``)."""
    auto = sheet_defaults(preset, character, {}, options=options)
    pain_default = bool(options.auto_pain and character.pain_active)
    return [
        _o(
            "tool_bonus",
            "Tool / weapon / vehicle bonus",
            "Бонус инструмента / оружия / транспорта",
            min=0,
            help=T(
                "+1-2 ordinary, +3 professional, +4-5 rare, +6 fantastic",  # L765
                "+1-2 обычный, +3 профессиональный, +4-5 редкий, +6 фантастический",
            ),
        ),  # L765
        _o(
            "advantage",
            f"Advantage: {auto['active_advantage']} (+3)" if auto["active_advantage"] else "Advantage (+3)",
            f"Преимущество: {auto['active_advantage']} (+3)" if auto["active_advantage"] else "Преимущество (+3)",
            min=0,
            max=options.max_advantages_per_check,
            default=auto["advantage"],
            help=_tick_help("the active Advantage", "активное Преимущество", options=options)
            if auto["active_advantage"]
            else None,
        ),
        _flag("drama", "Spend Drama (+3)", "Потратить Драму (+3)", False),
        _flag("aim", "Aimed / waited (+2)", "Ожидание (+2)", False),
        _o("help", "Helpers (+1 each, max +5)", "Помощь (+1 за помощника, не больше +5)", min=0),
        _o("preparation", "Preparation (+3...+5)", "Предварительные действия (+3...+5)", min=0),
        _o("previous", "Previous successes bonus", "Бонус предыдущих успехов", min=0),
        _o("situation", "Situation (-3...+3)", "Ситуация (-3...+3)", min=-3, max=3),
        _o("bonus", "Other bonus", "Прочий бонус", min=0),
        _flag(
            "problem",
            f"Problem: {auto['active_problem']} (-3)" if auto["active_problem"] else "Problem (-3)",
            f"Проблема: {auto['active_problem']} (-3)" if auto["active_problem"] else "Проблема (-3)",
            auto["problem"],
            _tick_help("the active Problem", "активная Проблема", options=options) if auto["active_problem"] else None,
        ),
        *(
            _flag(
                option_name,
                f"Condition: {name} (-3)",
                f"Состояние: {name} (-3)",
                name in auto["condition_names"],
                _tick_help("a condition on the sheet", "Состояние на листе", options=options),
            )
            for option_name, name in auto["sheet_conditions"]
        ),
        _o(
            "conditions",
            "Other conditions (-3 each)",
            "Другие Состояния (-3 каждое)",
            min=0,
            default=0,
            help=T("conditions not on the sheet", "Состояния, которых нет на листе"),
        ),
        _flag(
            "pending",
            "Use queued bonuses / penalties",
            "Учесть отложенные бонусы / штрафы",
            True,
            T(
                "queued: " + (", ".join(f"{i['source']} {i['dice']:+d}" for i in auto["pending"]) or "none"),
                "в очереди: " + (", ".join(f"{i['source']} {i['dice']:+d}" for i in auto["pending"]) or "нет"),
            ),
        ),
        _o("opponent_drama", "Opponents spending Drama (-3 each)", "Соперники тратят Драму (-3 каждый)", min=0),
        _o("penalty", "Other penalty", "Прочий штраф", min=0),
        _flag("pain", "Pain (-3, automatic while active)", "Боль (-3, автоматически)", pain_default),
        _flag("rule_of_10", "Rule of 10 dice", "Правило 10 дайсов", options.rule_of_10),
    ]


__all__ = ["OPPOSITION_LABELS", "option_specs"]
