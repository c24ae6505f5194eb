"""Seasons checks (spec §5): the generic ``"<attribute>+<skill>"`` check, the 80 named presets of
§5.11, pool building with every bonus and penalty of §5.8, rolling and exact odds."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, CheckSpec, Effect, OptionSpec, RuleError, T
from tabletop_widgets.core.i18n import count, tr
from tabletop_widgets.dice import Die, Distribution, check_from, word_result
from tabletop_widgets.core.wording import ru_n

from .pool import PoolRoll, contest_distribution, contest_winner, pool_distribution, roll_pool
from .data import ATTRIBUTE_GROUPS, ATTRIBUTES, SKILLS, TABLES, label, labels
from .pool import STANDARD_MODIFIER

AIM_BONUS = 2  # L766
HELP_CAP = 5  # L767
DEFAULT_DIFFICULTY = 3  # L33

OPPOSITION_LABELS = {
    "difficulty": T("Difficulty", "Сложность"),
    "physical_defence": T("Target's Physical Defence", "ФЗ цели"),
    "social_defence": T("Target's Social Defence", "СЗ цели"),
    "mental_defence": T("Target's Mental Defence", "УЗ цели"),
    "durability": T("Durability", "Прочность"),
    "damage": T("Difficulty = damaged health levels", "Сложность = уровни урона"),
    "contest": T("Difficulty (both sides)", "Сложность (обеим сторонам)"),
}
DURATION_LABELS = {
    "instant": T("instant check", "мгновенная проверка"),
    "normal": T("normal check", "обычная проверка"),
    "extended": T("extended check", "длительная проверка"),
    "per_interval": T("check per interval", "проверка за каждый интервал"),
}


@dataclass(frozen=True)
class Preset:
    """One named check of spec §5.11 (row ``n``), or a generic attribute+skill pair (n = 0)."""

    id: str
    label: Mapping[str, str]
    attribute: str | None = None
    skill: str | None = None
    opposition: str = "difficulty"
    duration: str = "normal"
    gear: str | None = None
    alt_attributes: tuple[str, ...] = ()
    alt_opposition: str | None = None
    armour: bool = False
    armour_piercing: bool = False
    special: str | None = None
    attack: str | None = None
    may_contest: bool = False
    line: int | None = None
    n: int = 0


@lru_cache(maxsize=None)
def presets() -> dict[str, Preset]:
    out = {}
    for r in TABLES.rows("checks"):
        out[r["id"]] = Preset(
            id=r["id"],
            label=T(r["en"], r["ru"]),
            attribute=r.get("attribute"),
            skill=r.get("skill"),
            opposition=r.get("opposition", "difficulty"),
            duration=r.get("duration", "normal"),
            gear=r.get("gear"),
            alt_attributes=tuple(r.get("alt_attributes", ())),
            alt_opposition=r.get("alt_opposition"),
            armour=bool(r.get("armour")),
            armour_piercing=bool(r.get("armour_piercing")),
            special=r.get("special"),
            attack=r.get("attack"),
            may_contest=bool(r.get("may_contest")),
            line=r.get("line"),
            n=r["n"],
        )
    return out


def generic_id(attribute: str, skill: str) -> str:
    return f"{attribute}+{skill}"


def check_id_of(name: str) -> str:
    """A check id from what a player types: the id itself, or the Russian (or English) names of
    the attribute and the skill (``Сообразительность+Расследование``, ``сообразительность+расследование``; a space
    in a name may be typed as ``_``), or a named check's Russian title."""
    if name in presets():
        return name
    words = {}
    for key, lab in labels().items():
        for text in lab.values():
            words.setdefault(text.lower().replace(" ", "_"), key)
    parts = name.split("+")
    ids = [p if p in words.values() else words.get(p.lower().replace(" ", "_"), p) for p in parts]
    if len(ids) == 2:
        return "+".join(ids)
    titles = {tr(p.label, loc).lower().replace(" ", "_"): p.id for p in presets().values() for loc in ("ru", "en")}
    return titles.get(ids[0].lower().replace(" ", "_"), ids[0])


def resolve_preset(check_id: str) -> Preset:
    """The preset for a check id; ``"<attribute>+<skill>"`` ids are built on the fly (spec §5.13)."""
    if not isinstance(check_id, str):
        raise ValueError(f"check id must be a string, not {check_id!r}")
    p = presets().get(check_id)
    if p is not None:
        return p
    attr, sep, skill = check_id.partition("+")
    if sep and attr in ATTRIBUTES and skill in SKILLS:
        a, s = label(attr), label(skill)
        return Preset(
            id=check_id, label=T(f"{a['en']} + {s['en']}", f"{a['ru']} + {s['ru']}"), attribute=attr, skill=skill
        )
    raise RuleError(
        "unknown_check",
        T(
            f"seasons: no check named {check_id!r} (use '<attribute>+<skill>' or a preset id)",
            f"нет проверки «{check_id}»: напишите «атрибут+навык», например «Сообразительность+Расследование», "
            f"или название проверки",
        ),
        check_id=check_id,
    )


# -----------------------------------------------------------------------------------------------
# Options
# -----------------------------------------------------------------------------------------------
#: The largest number an option of a check takes (a bonus, a difficulty, a pool): the book's
#: numbers stay far below it (help +5, tools ±5, L767-L777), and a pool of a million dice from a
#: slip of the keyboard or a forged message would stall the odds (issue #19).
OPTION_MAX = 30


def _o(name, en, ru, kind="int", default=0, min=None, max=None, help=None, choices=()):
    if kind == "int" and not choices and max is None:
        max = OPTION_MAX
    return OptionSpec(
        name=name, label=T(en, ru), kind=kind, default=default, min=min, max=max, help=help, choices=tuple(choices)
    )


def option_specs(preset: Preset, character, rules: Mapping[str, Any]) -> list[OptionSpec]:
    """The options the tray shows for this check (spec §10.2)."""
    opts: list[OptionSpec] = []
    if preset.special == "rolloff":
        return opts
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
    if (
        preset.opposition in ("difficulty", "physical_defence", "social_defence", "mental_defence", "damage", "contest")
        and preset.special != "explosion"
    ):
        default = 0 if preset.opposition == "contest" else DEFAULT_DIFFICULTY
        if preset.opposition == "damage":
            default = character.damage
        if preset.special == "threat":
            default = character.physical_defence
        opts.append(
            _o(
                "difficulty",
                *OPPOSITION_LABELS[preset.opposition].values(),
                default=default,
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
    if preset.special in ("threat", "explosion", "rolloff"):
        return opts
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
                choices=[("", T("none", "нет"))] + [(w["name"], T(w["name"], w["name"])) for w in character.weapons],
            )
        )
    auto = sheet_defaults(preset, character, {}, rules)
    opts += [
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
            "Advantage (+3)",
            "Преимущество (+3)",
            min=0,
            max=rules["max_advantages_per_check"],
            default=auto["advantage"],
            help=T(f"active: {character.active_advantage}", f"активное: {character.active_advantage}")
            if auto["advantage"]
            else None,
        ),
        _o("drama", "Spend Drama (+3)", "Потратить Драму (+3)", kind="bool", default=False),
        _o("aim", "Aimed / waited (+2)", "Ожидание (+2)", kind="bool", default=False),
        _o("help", "Helpers (+1 each, max +5)", "Помощь (+1 за помощника, не больше +5)", min=0),
        _o("preparation", "Preparation (+3...+5)", "Предварительные действия (+3...+5)", min=0),
        _o("previous", "Previous successes bonus", "Бонус предыдущих успехов", min=0),
        _o("situation", "Situation (-3...+3)", "Ситуация (-3...+3)", min=-3, max=3),
        _o("bonus", "Other bonus", "Прочий бонус", min=0),
        _o(
            "problem",
            "Problem (-3)",
            "Проблема (-3)",
            kind="bool",
            default=auto["problem"],
            help=T(f"active: {character.active_problem}", f"активная: {character.active_problem}")
            if auto["problem"]
            else None,
        ),
        _o(
            "conditions",
            "Relevant conditions (-3 each)",
            "Подходящие Состояния (-3 каждое)",
            min=0,
            default=auto["conditions"],
            help=T(
                "automatic: " + (", ".join(auto["condition_names"]) or "none"),
                "автоматически: " + (", ".join(auto["condition_names"]) or "нет"),
            ),
        ),
        _o(
            "pending",
            "Use queued bonuses / penalties",
            "Учесть отложенные бонусы / штрафы",
            kind="bool",
            default=True,
            help=T(
                "queued: " + (", ".join(f"{i['source']} {i['dice']:+d}" for i in auto["pending"]) or "none"),
                "в очереди: " + (", ".join(f"{i['source']} {i['dice']:+d}" for i in auto["pending"]) or "нет"),
            ),
        ),
        _o("opponent_drama", "Opponents spending Drama (-3 each)", "Соперники тратят Драму (-3 каждый)", min=0),
        _o("penalty", "Other penalty", "Прочий штраф", min=0),
        _o(
            "pain",
            "Pain (-3, automatic while active)",
            "Боль (-3, автоматически)",
            kind="bool",
            default=bool(rules["auto_pain"] and character.pain_active),
        ),
        _o("rule_of_10", "Rule of 10 dice", "Правило 10 дайсов", kind="bool", default=rules["rule_of_10"]),
    ]
    return opts


# -----------------------------------------------------------------------------------------------
# What the sheet brings to a check by itself (spec §10.1, §10.2, §7.10, §7.3)
# -----------------------------------------------------------------------------------------------
#: Which checks a catalogue condition penalises when its item names no ``category`` (spec §7.3):
#: "all", an attribute group (physical / mental / social), a skill, attribute or check id.
#: Situational ones ("near the phobia's source", "against the manipulator") are read as "all":
#: a condition the tracker lists as active is taken to be relevant now; the tray can override.
CONDITION_SCOPES = {
    "depression": "all",
    "phobia": "all",
    "megalomania": "social",
    "fixation": "mental",
    "paranoia": "social",
    "guilty_conscience": "social",
    "ptsd": "social",
    "multiple_personalities": "mental",
    "memory_lapses": "mental",
    "hallucinations": "investigation",
    "sickness": "physical",  # the Storyteller picks the category per instance (§11 #39)
    "emotional_sway": "all",
    "hunger_thirst_fatigue": "physical",
}
#: Check kinds that never take sheet modifiers: the hazard or the roll-off rolls, not the character.
_NO_SHEET = ("threat", "explosion", "rolloff")


def attribute_group(attribute: str | None) -> str | None:
    for group, names in ATTRIBUTE_GROUPS.items():
        if attribute in names:
            return group
    return None


def scope_fits(scope: str, preset: "Preset", attribute: str | None) -> bool:
    """Does a modifier aimed at ``scope`` fit this check? "" / "all" fit every check; otherwise the
    check id, its skill, its attribute, its attribute group, or "attack" for attacks."""
    scope = (scope or "").strip().lower()
    if scope in ("", "all"):
        return True
    names = {preset.id, preset.skill, attribute, attribute_group(attribute)}
    if preset.attack:
        names.add("attack")
    return scope in names


def _is_previous(item: Mapping[str, Any]) -> bool:
    return str(item.get("source", "")).strip().lower().replace("_", " ").startswith("previous")


def relevant_conditions(preset: "Preset", character, attribute: str | None, skip: int | None = None) -> list[str]:
    """Names of the character's conditions that penalise this check (-3 each, L687, L775).
    ``skip``: the index of a condition being shaken off (it does not hinder its own removal)."""
    names = []
    for i, cond in enumerate(character.conditions):
        if cond.get("id") == "pain" or i == skip:
            continue  # Pain follows damage (pain_active), never counted twice (L708)
        scope = cond.get("category") or CONDITION_SCOPES.get(cond.get("id", ""), "all")
        if scope_fits(scope, preset, attribute):
            names.append(cond.get("name", cond.get("id", "?")))
    return names


def sheet_defaults(
    preset: "Preset", character, options: Mapping[str, Any], rules: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The defaults a check takes from the sheet: the active Problem (-3) and Advantage (+3)
    (spec §10.1: "the active ones pre-fill the dice tray"), the relevant conditions (-3 each,
    stacking, L687, L775) and the relevant queued bonuses/penalties (spec §7.10). Explicit options
    override each of them (``pending=False`` skips the queue)."""
    out: dict[str, Any] = {
        "advantage": 0,
        "problem": False,
        "conditions": 0,
        "condition_names": [],
        "pending": [],
        "notes": {},
    }
    if preset.special in _NO_SHEET:
        return out
    attribute = options.get("attribute", preset.attribute)
    # auto_sheet_modifiers off: §11 #43 read literally, Problem / Advantage / conditions count only
    # when ticked in the tray (Pain has its own auto_pain).
    auto_sheet = rules is not None and bool(rules.get("auto_sheet_modifiers", False))
    names: list[str] = []
    if auto_sheet:
        if character.active_advantage and character.active_advantage in character.advantages:
            out["advantage"] = 1
            out["notes"]["active_advantage"] = character.active_advantage
        if character.active_problem and character.active_problem in character.problems:
            out["problem"] = True
            out["notes"]["active_problem"] = character.active_problem
        names = relevant_conditions(preset, character, attribute)
    out["conditions"], out["condition_names"] = len(names), names
    if names:
        out["notes"]["conditions_applied"] = names
    if options.get("pending", True):
        # §11 #36: the previous-success carry-over only helps checks that need a single success
        # (not attacks, damage, treatment or contests).
        contest = preset.opposition == "contest" or options.get("opponent_pool") is not None
        no_previous = bool(preset.attack) or contest or preset.id in ("treatment", "first_aid")
        aim_given = bool(options.get("aim"))
        for kind, items, sign in (
            ("bonus", character.pending_bonus_dice, 1),
            ("penalty", character.pending_penalties, -1),
        ):
            for i, item in enumerate(items):
                if not scope_fits(item.get("applies_to", ""), preset, attribute):
                    continue
                if kind == "bonus" and _is_previous(item) and no_previous:
                    continue
                if kind == "bonus" and aim_given and str(item.get("source", "")).lower() == "aim":
                    continue  # aim is at most +2 per check (§11 #33): the option already gives it
                out["pending"].append(
                    {
                        "kind": kind,
                        "index": i,
                        "source": item["source"],
                        "dice": sign * item["dice"],
                        "applies_to": item.get("applies_to", ""),
                    }
                )
    return out


# -----------------------------------------------------------------------------------------------
# Pool building (spec §5.2, §5.8)
# -----------------------------------------------------------------------------------------------
@dataclass
class PoolPlan:
    """The arithmetic of one check: signed terms with labels, the contest side, warnings."""

    terms: list[tuple[str, Mapping[str, str], int]] = field(default_factory=list)
    opposition: int = 0
    opponent_pool: int | None = None
    rule_of_10: bool = True
    threshold: int = 6
    drama_spent: bool = False
    warnings: list[Mapping[str, str]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def pool(self) -> int:
        # Plain sum, one "<= 0" test at the end: there is no intermediate clamp (L28, spec §5.2).
        return sum(v for _, _, v in self.terms) - self.opposition

    def add(self, key: str, lab: Mapping[str, str], value: int) -> None:
        if value:
            self.terms.append((key, lab, value))

    def trace(self) -> str:
        parts = [f"{'-' if v < 0 else '+'} {abs(v)}" for _, _, v in self.terms]
        if self.opposition:
            parts.append(f"- {self.opposition}")
        text = " ".join(parts).lstrip("+ ") if parts else "0"
        return f"{text} = {self.pool}"

    def notation(self, locale: str | None = None) -> str:
        """The ``pool`` word for this plan; with ``locale``, its bracket labels are the words a
        reader of that language knows (labels are free text: the same roll either way)."""

        def name(k: str, lab: Mapping[str, str]) -> str:
            return (lab.get(locale) or k) if locale and isinstance(lab, Mapping) else k

        body = (
            "".join(f"{'-' if v < 0 else '+'}{abs(v)}[{name(k, lab)}]" for k, lab, v in self.terms).lstrip("+") or "0"
        )
        out = f"pool {body}"
        if self.opposition:
            out += f" diff {self.opposition}"
        if self.opponent_pool is not None:
            out += f" contest {self.opponent_pool}"
        if not self.rule_of_10:
            out += " --no-r10"
        return out


_KNOWN_OPTIONS = {
    "difficulty",
    "targets",
    "durability",
    "armour_piercing",
    "armour",
    "opponent_pool",
    "specialization",
    "weapon",
    "tool_bonus",
    "advantage",
    "drama",
    "aim",
    "help",
    "preparation",
    "previous",
    "situation",
    "bonus",
    "problem",
    "conditions",
    "opponent_drama",
    "penalty",
    "pain",
    "rule_of_10",
    "attribute",
    "dice",
    "armour_applies",
    "pending",
}


def _int_option(options, name, default=0, low=0):
    v = options.get(name, default)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise RuleError("bad_option", T("Enter a whole number.", "Введите целое число."), option=name)
    lo = -OPTION_MAX if low is None else low
    if not lo <= v <= OPTION_MAX:
        raise RuleError(
            "bad_option",
            T(f"Enter a whole number from {lo} to {OPTION_MAX}.", f"Введите целое число от {lo} до {OPTION_MAX}."),
            option=name,
        )
    return int(v)


def _targets(value) -> list[int]:
    if value in (None, "", ()):
        return []
    if isinstance(value, str):
        items = [x.strip() for x in value.split(",") if x.strip()]
        try:
            vals = [int(x) for x in items]
        except ValueError:
            raise ValueError(f"targets must be whole numbers separated by commas, not {value!r}") from None
    else:
        vals = list(value)
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in vals):
        raise ValueError(f"target defences must be whole numbers >= 0, not {value!r}")
    return vals


def build_pool(preset: Preset, character, rules: Mapping[str, Any], options: Mapping[str, Any]) -> PoolPlan:
    """Every term of the pool for ``character`` making ``preset`` with ``options``."""
    unknown = set(options) - _KNOWN_OPTIONS
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for check {preset.id!r}")
    plan = PoolPlan(
        rule_of_10=bool(options.get("rule_of_10", rules["rule_of_10"])), threshold=int(rules["success_threshold"])
    )

    # -- base: attribute + skill (L24), or the threat/explosion dice (L673, L821) ------------
    if preset.special in ("threat", "explosion"):
        dice = _int_option(options, "dice", 6)
        plan.add(
            "threat" if preset.special == "threat" else "explosive",
            T("Threat dice", "Дайсы угрозы") if preset.special == "threat" else T("Explosive", "Взрывчатка"),
            dice,
        )
    else:
        attr = options.get("attribute", preset.attribute)
        if attr != preset.attribute and attr not in preset.alt_attributes:
            raise ValueError(
                f"check {preset.id!r} uses {preset.attribute!r}"
                + (f" or {list(preset.alt_attributes)}" if preset.alt_attributes else "")
                + f", not {attr!r}"
            )
        plan.add(attr, label(attr), getattr(character, attr))
        skill_value = getattr(character, preset.skill)
        plan.add(preset.skill, label(preset.skill), skill_value)
        if skill_value == 0 and rules["untrained_penalty"]:
            plan.add("untrained", T("Untrained", "Без навыка"), -int(rules["untrained_penalty"]))
        spec = options.get("specialization") or ""
        if spec:
            rating = character.specialization_rating(preset.skill, spec)
            if not rating:
                raise RuleError(
                    "no_specialization",
                    T(
                        f"no specialization {spec!r} in {label(preset.skill)['en']}",
                        f"нет специализации {spec!r} в навыке {label(preset.skill)['ru']}",
                    ),
                )
            plan.add("specialization", T(f"Specialization: {spec}", f"Специализация: {spec}"), rating)

    # -- gear -------------------------------------------------------------------------------
    ap = _int_option(options, "armour_piercing", 0)
    weapon_name = options.get("weapon") or ""
    if weapon_name:
        weapon = next((w for w in character.weapons if w["name"] == weapon_name), None)
        if weapon is None:
            raise RuleError(
                "no_weapon", T(f"no weapon named {weapon_name!r} on the sheet", f"на листе нет оружия {weapon_name!r}")
            )
        if preset.attack != "unarmed":
            plan.add("weapon", T(f"Weapon: {weapon_name}", f"Оружие: {weapon_name}"), weapon.get("attack_bonus", 0))
            ap = max(ap, weapon.get("armour_piercing", 0))
    tool = _int_option(options, "tool_bonus", 0)
    plan.add("tool", T("Tool / weapon", "Инструмент / оружие"), tool)

    # -- bonuses (L762-771) -----------------------------------------------------------------
    auto = sheet_defaults(preset, character, options, rules)
    overridden = {"advantage": "active_advantage", "problem": "active_problem", "conditions": "conditions_applied"}
    used_defaults = {
        k: v
        for k, v in auto["notes"].items()
        if not any(opt in options and note == k for opt, note in overridden.items())
    }
    if used_defaults:
        plan.notes["sheet_defaults"] = used_defaults
    adv = options.get("advantage", auto["advantage"])
    adv = int(adv) if isinstance(adv, bool) else _int_option(options, "advantage", auto["advantage"])
    if adv > rules["max_advantages_per_check"]:
        raise RuleError(
            "too_many_advantages",
            T(
                f"at most {rules['max_advantages_per_check']} Advantage(s) apply to one check",  # L123
                f"к одной проверке применимо не больше {ru_n(rules['max_advantages_per_check'], 'Преимущества', 'Преимуществ', 'Преимуществ')}",
            ),
        )  # L123
    plan.add("advantage", T("Advantage", "Преимущество"), STANDARD_MODIFIER * adv)
    if options.get("drama"):
        _check_can_spend_drama(character)
        plan.drama_spent = True
        plan.add("drama", T("Drama", "Драма"), STANDARD_MODIFIER)
    if options.get("aim"):
        plan.add("aim", T("Aim / wait", "Ожидание"), AIM_BONUS)  # at most +2 per check (§11 #33)
    helpers = _int_option(options, "help", 0)
    plan.add("help", T("Help", "Помощь"), min(HELP_CAP, helpers))  # L767: +1 each, max +5
    plan.add("preparation", T("Preparation", "Предварительные действия"), _int_option(options, "preparation", 0))
    plan.add("previous", T("Previous successes", "Предыдущие успехи"), _int_option(options, "previous", 0))
    situation = _int_option(options, "situation", 0, low=None)
    plan.add("situation", T("Situation", "Ситуация"), situation)
    plan.add("bonus", T("Bonus", "Бонус"), _int_option(options, "bonus", 0))

    # -- penalties (L773-777) ---------------------------------------------------------------
    if options.get("problem", auto["problem"]):
        plan.add("problem", T("Problem", "Проблема"), -STANDARD_MODIFIER)
    # Conditions: -3 each, stacking (L687, L775); by default the sheet's relevant ones (sheet_defaults).
    plan.add(
        "conditions",
        T("Conditions", "Состояния"),
        -STANDARD_MODIFIER * _int_option(options, "conditions", auto["conditions"]),
    )
    # Queued bonuses / penalties (spec §7.10): each relevant one is its own term; roll_check consumes them.
    # Aim is at most +2 per check (§11 #33) and help at most +5 (L767), queued or not.
    caps = {"aim": (AIM_BONUS, AIM_BONUS if options.get("aim") else 0), "help": (HELP_CAP, min(HELP_CAP, helpers))}
    capped: dict[str, int] = {}
    for item in auto["pending"]:
        src = str(item["source"]).strip().lower()
        if src in caps and item["dice"] > 0:
            capped[src] = capped.get(src, 0) + item["dice"]
            continue
        plan.add(
            f"pending:{item['source']}", T(f"Queued: {item['source']}", f"Отложено: {item['source']}"), item["dice"]
        )
    for src, total in capped.items():
        cap, already = caps[src]
        value = max(0, min(cap - already, total))
        if value < total:
            plan.warnings.append(T(f"queued {src} capped at +{cap} per check", f"отложенное «{src}» ограничено +{cap}"))
        plan.add(f"pending:{src}", T(f"Queued: {src}", f"Отложено: {src}"), value)
    if auto["pending"]:
        plan.notes["pending_used"] = auto["pending"]
    opp_drama = _int_option(options, "opponent_drama", 0)
    if rules["drama_limit"] == "per_check" and opp_drama + plan.drama_spent > 1:
        raise RuleError(
            "drama_per_check",
            T(
                "only 1 Drama point may be spent on a check",  # L742
                "на одну проверку можно потратить только 1 пункт Драмы",
            ),
        )  # L742
    plan.add("opponent_drama", T("Opponent's Drama", "Драма противника"), -STANDARD_MODIFIER * opp_drama)
    plan.add("penalty", T("Penalty", "Штраф"), -_int_option(options, "penalty", 0))
    pain_default = bool(rules["auto_pain"] and character.pain_active)
    if preset.id == "suppress_pain" and not rules["pain_penalises_own_suppression"]:
        pain_default = False
    if preset.special in ("threat", "explosion"):
        pain_default = False  # the hazard rolls, not the character
    if options.get("pain", pain_default):
        plan.add("pain", T("Pain", "Боль"), -STANDARD_MODIFIER)  # -3 to all checks (L708, §11 #43)

    # -- opposition (L33-51, L793, L819, L825-826) -----------------------------------------
    if preset.opposition == "durability" or preset.special == "explosion":
        durability = _int_option(options, "durability", 3)
        plan.opposition = max(0, durability - ap)  # AP never makes Durability negative (§11 #12)
        plan.notes["durability"] = durability
    else:
        default = DEFAULT_DIFFICULTY
        if preset.opposition == "contest":
            default = 0
        elif preset.opposition == "damage":
            default = character.damage
        elif preset.special == "threat":
            default = character.physical_defence
        difficulty = _int_option(options, "difficulty", default)
        if difficulty is None or difficulty < 0:
            raise ValueError("difficulty must be a whole number >= 0 (spec §11 #37)")
        targets = _targets(options.get("targets"))
        if targets:
            difficulty = max(targets)  # several beings: the highest defence (L51)
            plan.notes["targets"] = targets
        plan.opposition = difficulty
        if preset.armour:
            armour = _int_option(options, "armour", 0)
            if preset.special == "threat" and not options.get("armour_applies"):
                armour = 0  # threats ignore armour unless the Storyteller says it protects (§11 #13)
            plan.add("armour", T("Armour", "Броня"), -max(0, armour - ap))  # §11 #11
        elif preset.special == "threat" and options.get("armour_applies"):
            plan.add("armour", T("Armour", "Броня"), -character.armour_penalty)
    if preset.opposition == "contest" or options.get("opponent_pool") is not None:
        if preset.opposition != "contest" and not preset.may_contest:
            raise ValueError(f"check {preset.id!r} is not a contest")
        opp = _int_option(options, "opponent_pool", 0) or 0
        plan.opponent_pool = opp - plan.opposition  # both sides subtract the same difficulty (§11 #14)

    if rules["warn_mundane_over_5"]:
        for key, val in (("tool", tool), ("armour", _int_option(options, "armour", 0))):
            if val > 5:
                plan.warnings.append(
                    T(
                        f"{key} {val} is above the usual mundane limit of 5",  # L769, L774
                        f"{key} {val} выше обычного предела 5",
                    )
                )  # L769, L774
    return plan


def _check_can_spend_drama(character) -> None:
    if not character.is_player_character:
        raise RuleError("npc_drama", T("NPCs have no Drama points", "У неигровых персонажей нет пунктов Драмы"))  # L739
    if character.drama < 1:
        raise RuleError("no_drama", T("no Drama points left", "не осталось пунктов Драмы"))


# -----------------------------------------------------------------------------------------------
# Rolling and odds
# -----------------------------------------------------------------------------------------------
def plan_distribution(plan: PoolPlan) -> Distribution:
    if plan.opponent_pool is not None:
        return contest_distribution(
            plan.pool,
            plan.opponent_pool,
            rule_of_10=plan.rule_of_10,
            threshold=plan.threshold,
            expression=plan.notation(),
        )
    return pool_distribution(
        plan.pool, rule_of_10=plan.rule_of_10, threshold=plan.threshold, expression=plan.notation()
    )


def pool_breakdown(r: PoolRoll, plan_trace: str = "") -> dict[str, str]:
    # a pool of plain dice has nothing to add up: «5 = 5:» would say the number twice
    head = f"{plan_trace}: " if plan_trace and not re.fullmatch(r"\s*(-?\d+) = \1\s*", plan_trace) else ""
    if r.impossible:
        return T(f"{head}impossible (pool = {r.pool})", f"{head}невозможно (запас = {r.pool})")
    faces = ", ".join(f"{f}*" if f >= r.threshold else str(f) for f in r.faces)
    auto_en = f" + {r.auto} automatic" if r.auto else ""
    auto_ru = f" + {ru_n(r.auto, 'автоматический', 'автоматических', 'автоматических')}" if r.auto else ""
    return T(
        f"{head}{count(r.rolled, 'die')} [{faces}]{auto_en} → {count(r.successes, 'success')}",
        f"{head}{ru_n(r.rolled, 'дайс', 'дайса', 'дайсов')} [{faces}]{auto_ru} → {count(r.successes, 'success', 'ru')}",
    )


def outcome_text(r: PoolRoll) -> dict[str, str]:
    if r.impossible:
        return T(f"impossible (pool = {r.pool})", f"невозможно (запас = {r.pool})")
    if r.success:
        # «3 успеха» says it is a success (no «успех, 3 успеха»)
        return T(count(r.successes, "success"), count(r.successes, "success", "ru"))
    return T("failure", "неудача")


def roll_plan(preset: Preset, plan: PoolPlan, rng: random.Random, options: Mapping[str, Any]) -> CheckResult:
    r = roll_pool(plan.pool, rng, rule_of_10=plan.rule_of_10, threshold=plan.threshold)
    dice: list[Die] = r.dice()
    details: dict[str, Any] = {
        "pool": plan.pool,
        "trace": plan.trace(),
        "terms": [(k, v) for k, _, v in plan.terms],
        "opposition": plan.opposition,
        "impossible": r.impossible,
        "faces": list(r.faces),
        "rolled": r.rolled,
        "auto": r.auto,
        "successes": r.successes,
        "previous_success_bonus": r.previous_success_bonus,
        "warnings": list(plan.warnings),
        "duration": preset.duration,
        **plan.notes,
    }
    success = r.success
    outcome = outcome_text(r)
    check = check_from(r.successes, ">=", 1)  # an impossible pool has 0 successes
    if plan.opponent_pool is not None:  # contest (L57-59)
        o = roll_pool(plan.opponent_pool, rng, rule_of_10=plan.rule_of_10, threshold=plan.threshold)
        winner = contest_winner(r.successes, o.successes)
        details.update(
            opponent_pool=o.pool,
            opponent_faces=list(o.faces),
            opponent_auto=o.auto,
            opponent_successes=o.successes,
            winner=winner,
        )
        dice += [Die(10, f, success=f >= o.threshold, note="vs") for f in o.faces]
        success = winner == "A"
        outcome = {
            "A": T(f"wins the contest {r.successes}:{o.successes}", f"побеждает {r.successes}:{o.successes}"),
            "B": T(f"loses the contest {r.successes}:{o.successes}", f"проигрывает {r.successes}:{o.successes}"),
            "tie": T(f"tie {r.successes}:{o.successes}", f"равенство {r.successes}:{o.successes}"),
        }[winner]
        check = check_from(r.successes, ">=", o.successes + 1)  # (a tie reads «не хватило 1», not 0)
        if preset.id == "hold_door":
            # The holder needs MORE successes (L820); on a tie the status quo holds (§11 #16).
            details["door_held"] = winner != "B"
    if preset.attack and success:
        details["damage"] = r.successes  # each success is one health level (L93)
    if preset.special == "threat" and not r.impossible:
        details["damage"] = r.successes  # L673
    if (preset.opposition == "durability" or preset.special == "explosion") and success:
        details["structure_damage"] = r.successes  # L819, L821
    effects = []
    if plan.drama_spent:
        effects.append(Effect("drama", -1, T("Drama spent (+3)", "Потрачена Драма (+3)")))
    roll = word_result(
        plan.notation(),
        "pool",
        r.successes,
        dice,
        pool_breakdown(r, plan.trace()),
        check=check,
        successes=r.successes,
        details=details,
    )
    margin = r.successes - details["opponent_successes"] if plan.opponent_pool is not None else None
    return CheckResult(
        check_id=preset.id,
        label=preset.label,
        success=success,
        total=r.successes,
        roll=roll,
        margin=margin,
        degree=r.successes,
        degree_label=T(count(r.successes, "success"), count(r.successes, "success", "ru")),
        critical=None,
        outcome=outcome,
        effects=effects,
        options=dict(options),
        details=details,
    )


def roll_rolloff(preset: Preset, rng: random.Random) -> CheckResult:
    face = rng.randint(1, 10)
    roll = word_result("1d10", "rolloff", face, [Die(10, face)], T(f"1d10 [{face}]", f"1d10 [{face}]"))
    return CheckResult(
        check_id=preset.id,
        label=preset.label,
        success=None,
        total=face,
        roll=roll,
        outcome=T(f"rolled {face}", f"выпало {face}"),
        details={"faces": [face]},
    )


def rolloff_distribution() -> Distribution:
    return Distribution({k: Fraction(1, 10) for k in range(1, 11)}, expression="1d10")


def preset_spec(preset: Preset, character, rules: Mapping[str, Any]) -> CheckSpec:
    group = T("Attribute + skill", "Атрибут + навык")
    if preset.n:
        sk = label(preset.skill) if preset.skill else T("Rules", "Правила")
        group = sk
    notation = ""
    shown = None
    if preset.special != "rolloff":
        try:
            plan = build_pool(preset, character, rules, {})
            notation = plan.notation()
            shown = {loc: plan.notation(loc) for loc in ("en", "ru")}
        except (ValueError, RuleError):
            notation = ""
    else:
        notation = "1d10"
    help_text = None
    if preset.line:
        # (the rulebook line, preset.line, stays in the data for traceability)
        help_text = DURATION_LABELS.get(preset.duration)
    return CheckSpec(
        id=preset.id,
        label=preset.label,
        options=tuple(option_specs(preset, character, rules)),
        group=group,
        notation=notation,
        help=help_text,
        shown_notation=shown,
    )


__all__ = [
    "CONDITION_SCOPES",
    "relevant_conditions",
    "sheet_defaults",
    "scope_fits",
    "attribute_group",
    "Preset",
    "PoolPlan",
    "presets",
    "resolve_preset",
    "generic_id",
    "build_pool",
    "option_specs",
    "plan_distribution",
    "roll_plan",
    "roll_rolloff",
    "rolloff_distribution",
    "preset_spec",
]
