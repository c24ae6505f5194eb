"""Pool building (spec §5.2, §5.8): every term of a check's pool, each bonus and penalty, the
opposition and a contest's other side, as a :class:`PoolPlan` (nothing is rolled here)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.wording import ru_n

from .data import label
from .drama import DRAMA_AGAINST, ONE_DRAMA_PER_CHECK, check_can_spend_drama
from .health import HEALER_CHECKS, check_can_heal
from .modifiers import sheet_defaults
from .objects import weapon_named
from .pool import STANDARD_MODIFIER
from .presets import Preset

AIM_BONUS = 2  # L766
HELP_CAP = 5  # L767
DEFAULT_DIFFICULTY = 3  # L33
#: The largest number an option of a check takes (a bonus, a difficulty, a pool): the book's
#: numbers stay far below it (help +5, tools ±5, L767-L777), and a pool of a million dice from a
#: slip of the keyboard or a forged message would stall the odds (issue #19).
OPTION_MAX = 30
#: Checks whose difficulty is the PATIENT's damaged health levels (L723, L725), given by the
#: option ``patient_damage`` (the roller's own when he tends himself).
PATIENT_CHECKS = ("first_aid", "first_aid_skill", "treatment")


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


#: The option that ticks the sheet's n-th condition (``modifiers.condition_option``).
CONDITION_OPTION = re.compile(r"condition_[1-9][0-9]{0,3}")

KNOWN_OPTIONS = {
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
    "patient_damage",
}


def int_option(opts: Mapping[str, Any], name: str, default: int | None = 0, low: int | None = 0) -> int | None:
    """The check option ``name`` as a whole number within ``low``..OPTION_MAX (``low=None``: ±OPTION_MAX)."""
    v = opts.get(name, default)
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


_BAD_TARGETS = T(
    "Enter the targets' defences as whole numbers of 0 or more, separated by commas (e.g. 2, 3, 1).",
    "Укажите защиты целей целыми числами от 0, через запятую (например: 2, 3, 1).",
)


def targets_of(value) -> list[int]:
    """The defences of several targets (L51): ``"2, 3, 1"`` or a list of whole numbers >= 0."""
    if value in (None, "", ()):
        return []
    if isinstance(value, str):
        items = [x.strip() for x in value.split(",") if x.strip()]
        try:
            vals = [int(x) for x in items]
        except ValueError:
            raise RuleError("bad_option", _BAD_TARGETS, option="targets") from None
    elif isinstance(value, (list, tuple)):
        vals = list(value)
    else:
        raise RuleError("bad_option", _BAD_TARGETS, option="targets")
    if any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= OPTION_MAX for v in vals):
        raise RuleError("bad_option", _BAD_TARGETS, option="targets")
    return vals


def build_pool(preset: Preset, character, opts: Mapping[str, Any], *, options: GmOptions) -> PoolPlan:
    """Every term of the pool for ``character`` making ``preset`` with the check's options ``opts``."""
    unknown = {k for k in set(opts) - KNOWN_OPTIONS if not CONDITION_OPTION.fullmatch(str(k))}
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for check {preset.id!r}")
    if preset.id in HEALER_CHECKS:
        check_can_heal(character, None, HEALER_CHECKS[preset.id])  # out of the story: tends no one (L722)
    plan = PoolPlan(
        rule_of_10=bool(opts.get("rule_of_10", options.rule_of_10)), threshold=int(options.success_threshold)
    )
    _base_terms(plan, preset, character, opts, options=options)
    ap, tool = _gear_terms(plan, preset, character, opts)
    auto = sheet_defaults(preset, character, opts, options=options)
    helpers = _bonus_terms(plan, character, opts, auto, options=options)
    _sheet_penalty_terms(plan, opts, auto)
    _pending_terms(plan, opts, auto, helpers)
    _penalty_terms(plan, preset, character, opts, options=options)
    _opposition_terms(plan, preset, character, opts, ap)
    if options.warn_mundane_over_5:
        for key, val in (("tool", tool), ("armour", int_option(opts, "armour", 0))):
            if val > 5:
                plan.warnings.append(
                    T(
                        f"{key} {val} is above the usual mundane limit of 5",  # L769, L774
                        f"{key} {val} выше обычного предела 5",
                    )
                )  # L769, L774
    return plan


def _base_terms(plan: PoolPlan, preset: Preset, character, opts: Mapping[str, Any], *, options: GmOptions) -> None:
    """Attribute + skill (+ specialization) (L24), or the threat / explosion dice (L673, L821)."""
    if preset.special in ("threat", "explosion"):
        dice = int_option(opts, "dice", 6)
        plan.add(
            "threat" if preset.special == "threat" else "explosive",
            T("Threat dice", "Дайсы угрозы") if preset.special == "threat" else T("Explosive", "Взрывчатка"),
            dice,
        )
        return
    attr = opts.get("attribute", preset.attribute)
    if attr != preset.attribute and attr not in preset.alt_attributes:
        raise ValueError(
            f"check {preset.id!r} uses {preset.attribute!r}"
            + (f" or {list(preset.alt_attributes)}" if preset.alt_attributes else "")
            + f", not {attr!r}"
        )
    plan.add(attr, label(attr), getattr(character, attr))
    skill_value = getattr(character, preset.skill)
    plan.add(preset.skill, label(preset.skill), skill_value)
    if skill_value == 0 and options.untrained_penalty:
        plan.add("untrained", T("Untrained", "Без навыка"), -int(options.untrained_penalty))
    spec = opts.get("specialization") or ""
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


def _gear_terms(plan: PoolPlan, preset: Preset, character, opts: Mapping[str, Any]) -> tuple[int, int]:
    """The weapon and tool bonuses; returns (armour piercing, tool bonus)."""
    ap = int_option(opts, "armour_piercing", 0)
    weapon_name = opts.get("weapon") or ""
    if weapon_name:
        weapon = weapon_named(character, weapon_name)  # a weapon, or an object used as one (L795)
        if preset.attack != "unarmed":
            plan.add("weapon", T(f"Weapon: {weapon_name}", f"Оружие: {weapon_name}"), weapon.get("attack_bonus", 0))
            ap = max(ap, weapon.get("armour_piercing", 0))
    tool = int_option(opts, "tool_bonus", 0)
    plan.add("tool", T("Tool / weapon", "Инструмент / оружие"), tool)
    return ap, tool


def _bonus_terms(
    plan: PoolPlan, character, opts: Mapping[str, Any], auto: Mapping[str, Any], *, options: GmOptions
) -> int:
    """The bonuses of L762-771; returns the number of helpers."""
    overridden = {"advantage": "active_advantage", "problem": "active_problem"}
    used_defaults = {
        k: v
        for k, v in auto["notes"].items()
        if not any(opt in opts and note == k for opt, note in overridden.items())
        and not (k == "conditions_applied" and any(CONDITION_OPTION.fullmatch(str(o)) for o in opts))
    }
    if used_defaults:
        plan.notes["sheet_defaults"] = used_defaults
    adv = opts.get("advantage", auto["advantage"])
    adv = int(adv) if isinstance(adv, bool) else int_option(opts, "advantage", auto["advantage"])
    most = options.max_advantages_per_check
    if adv > most:
        raise RuleError(
            "too_many_advantages",
            T(
                f"at most {most} Advantage(s) apply to one check",  # L123
                f"к одной проверке применимо не больше {ru_n(most, 'Преимущества', 'Преимуществ', 'Преимуществ')}",
            ),
        )  # L123
    plan.add("advantage", T("Advantage", "Преимущество"), STANDARD_MODIFIER * adv)
    if opts.get("drama"):
        check_can_spend_drama(character)
        plan.drama_spent = True
        plan.add("drama", T("Drama", "Драма"), STANDARD_MODIFIER)
    if opts.get("aim"):
        plan.add("aim", T("Aim / wait", "Ожидание"), AIM_BONUS)  # at most +2 per check (§11 #33)
    helpers = int_option(opts, "help", 0)
    plan.add("help", T("Help", "Помощь"), min(HELP_CAP, helpers))  # L767: +1 each, max +5
    plan.add("preparation", T("Preparation", "Предварительные действия"), int_option(opts, "preparation", 0))
    plan.add("previous", T("Previous successes", "Предыдущие успехи"), int_option(opts, "previous", 0))
    plan.add("situation", T("Situation", "Ситуация"), int_option(opts, "situation", 0, low=None))
    plan.add("bonus", T("Bonus", "Бонус"), int_option(opts, "bonus", 0))
    return helpers


def _pending_terms(plan: PoolPlan, opts: Mapping[str, Any], auto: Mapping[str, Any], helpers: int) -> None:
    """Queued bonuses / penalties (spec §7.10): each relevant one is its own term; the roll consumes
    them. Aim is at most +2 per check (§11 #33) and help at most +5 (L767), queued or not."""
    caps = {"aim": (AIM_BONUS, AIM_BONUS if opts.get("aim") else 0), "help": (HELP_CAP, min(HELP_CAP, helpers))}
    capped: dict[str, int] = {}
    for item in auto["pending"]:
        src = str(item["source"]).strip().lower()
        if src in caps and item["dice"] > 0:
            capped[src] = capped.get(src, 0) + item["dice"]
            continue
        plan.add(f"pending:{item['source']}", _pending_label(item), item["dice"])
    for src, total in capped.items():
        cap, already = caps[src]
        value = max(0, min(cap - already, total))
        if value < total:
            plan.warnings.append(T(f"queued {src} capped at +{cap} per check", f"отложенное «{src}» ограничено +{cap}"))
        plan.add(f"pending:{src}", T(f"Queued: {src}", f"Отложено: {src}"), value)
    if auto["pending"]:
        plan.notes["pending_used"] = auto["pending"]


def _pending_label(item: Mapping[str, Any]) -> dict[str, str]:
    """How a queued item reads in the pool: an opponent's Drama names who spent it (L773)."""
    if item["source"] == DRAMA_AGAINST:
        by = item.get("by") or "?"
        return T(f"Drama spent against it: {by}", f"Драма против: {by}")
    return T(f"Queued: {item['source']}", f"Отложено: {item['source']}")


def _sheet_penalty_terms(plan: PoolPlan, opts: Mapping[str, Any], auto: Mapping[str, Any]) -> None:
    """The Problem and the conditions (L773-775): each of the sheet's conditions the check can fit
    as its own -3 when ticked (``condition_<n>``; ``auto_sheet_modifiers`` ticks them by default),
    and ``conditions`` more not on the sheet."""
    if opts.get("problem", auto["problem"]):
        plan.add("problem", T("Problem", "Проблема"), -STANDARD_MODIFIER)
    fitting = dict(auto["sheet_conditions"])
    for name in opts:
        if CONDITION_OPTION.fullmatch(str(name)) and name not in fitting:
            raise RuleError(
                "no_such_condition",
                T(
                    "That condition is not on the sheet or cannot affect this check.",
                    "Такого Состояния нет на листе, или оно не влияет на эту проверку.",
                ),
                option=name,
            )
    ticked = []
    for option_name, cond_name in auto["sheet_conditions"]:
        value = opts.get(option_name, cond_name in auto["condition_names"])
        if not isinstance(value, bool):
            raise RuleError(
                "bad_option", T("Tick it or leave it.", "Отметьте или снимите отметку."), option=option_name
            )
        if value:
            ticked.append(cond_name)
            plan.add(option_name, T(f"Condition: {cond_name}", f"Состояние: {cond_name}"), -STANDARD_MODIFIER)
    if ticked:
        plan.notes["conditions_ticked"] = ticked
    # Conditions not on the sheet: -3 each, stacking (L687, L775).
    plan.add(
        "conditions", T("Other conditions", "Другие состояния"), -STANDARD_MODIFIER * int_option(opts, "conditions", 0)
    )


def _penalty_terms(plan: PoolPlan, preset: Preset, character, opts: Mapping[str, Any], *, options: GmOptions) -> None:
    """The other penalties of L773-777: opponents' Drama, other penalties, Pain."""
    opp_drama = int_option(opts, "opponent_drama", 0)
    queued = sum(1 for item in plan.notes.get("pending_used", ()) if item["source"] == DRAMA_AGAINST)
    if options.drama_limit == "per_check" and opp_drama + plan.drama_spent + queued > 1:
        raise RuleError("drama_per_check", ONE_DRAMA_PER_CHECK)  # L742
    plan.add("opponent_drama", T("Opponent's Drama", "Драма противника"), -STANDARD_MODIFIER * opp_drama)
    plan.add("penalty", T("Penalty", "Штраф"), -int_option(opts, "penalty", 0))
    pain_default = bool(options.auto_pain and character.pain_active)
    if preset.id == "suppress_pain" and not options.pain_penalises_own_suppression:
        pain_default = False
    if preset.special in ("threat", "explosion"):
        pain_default = False  # the hazard rolls, not the character
    if opts.get("pain", pain_default):
        plan.add("pain", T("Pain", "Боль"), -STANDARD_MODIFIER)  # -3 to all checks (L708, §11 #43)


def default_difficulty(preset: Preset, character) -> int:
    """The difficulty a check starts from: 3 (L33), 0 in a contest, the damage for checks against
    one's own wounds, the target's PD for a threat (L673)."""
    if preset.opposition == "contest":
        return 0
    if preset.opposition == "damage":
        return character.damage
    if preset.special == "threat":
        return character.physical_defence
    return DEFAULT_DIFFICULTY


def patient_difficulty(preset: Preset, character, opts: Mapping[str, Any]) -> int:
    """First aid and treatment subtract the patient's damaged health levels (L723, L725): the
    option ``patient_damage``, the roller's own damage when empty (tending oneself, L724).
    With nothing damaged there is nothing to heal (spec §7.2)."""
    if "difficulty" in opts:
        raise RuleError(
            "patient_difficulty",
            T(
                "The difficulty of first aid and treatment is the patient's damaged health levels: enter those.",
                "Сложность первой помощи и лечения — уровни урона пациента: укажите их.",
            ),
            option="difficulty",
        )
    damage = int_option(opts, "patient_damage", None)
    if damage is None:
        damage = character.damage
    if damage == 0:
        raise RuleError(
            "nothing_to_heal",
            T(
                "Nothing to heal: enter the patient's damaged health levels.",
                "Лечить нечего: укажите уровни урона пациента.",
            ),
            option="patient_damage",
        )
    return damage


def _opposition_terms(plan: PoolPlan, preset: Preset, character, opts: Mapping[str, Any], ap: int) -> None:
    """Difficulty, defences, Durability and armour (L33-51, L793, L819, L825-826); a contest's other side."""
    if preset.opposition == "durability" or preset.special == "explosion":
        durability = int_option(opts, "durability", 3)
        plan.opposition = max(0, durability - ap)  # AP never makes Durability negative (§11 #12)
        plan.notes["durability"] = durability
    elif preset.id in PATIENT_CHECKS:
        plan.opposition = patient_difficulty(preset, character, opts)
    else:
        difficulty = int_option(opts, "difficulty", default_difficulty(preset, character))
        if difficulty is None or difficulty < 0:
            raise ValueError("difficulty must be a whole number >= 0 (spec §11 #37)")
        targets = targets_of(opts.get("targets"))
        if targets:
            difficulty = max(targets)  # several beings: the highest defence (L51)
            plan.notes["targets"] = targets
        plan.opposition = difficulty
        if preset.armour:
            armour = int_option(opts, "armour", 0)
            if preset.special == "threat" and not opts.get("armour_applies"):
                armour = 0  # threats ignore armour unless the Storyteller says it protects (§11 #13)
            plan.add("armour", T("Armour", "Броня"), -max(0, armour - ap))  # §11 #11
        elif preset.special == "threat" and opts.get("armour_applies"):
            plan.add("armour", T("Armour", "Броня"), -character.armour_penalty)
    if preset.opposition == "contest" or opts.get("opponent_pool") is not None:
        if preset.opposition != "contest" and not preset.may_contest:
            raise ValueError(f"check {preset.id!r} is not a contest")
        opp = int_option(opts, "opponent_pool", 0) or 0
        plan.opponent_pool = opp - plan.opposition  # both sides subtract the same difficulty (§11 #14)


__all__ = [
    "CONDITION_OPTION",
    "KNOWN_OPTIONS",
    "OPTION_MAX",
    "PATIENT_CHECKS",
    "PoolPlan",
    "build_pool",
    "default_difficulty",
    "int_option",
    "patient_difficulty",
    "targets_of",
]
