"""Recovery (spec §6.8, §7.2; L708, L720-725): Pain suppression, first aid, treatment, rest, and
the scene and day boundaries that reset their once-per-scene / once-per-day limits."""

from __future__ import annotations

import random
from typing import Any

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import CheckResult, DamageOutcome, OptionSpec, RuleError, T

from .checks import roll_check
from .conditions import hour_passes
from .health import apply_healing, check_can_heal

HEALING_SOURCES = {
    "other": T("other / Storyteller", "другое / Рассказчик"),
    "rest": T("night's rest (+1 a night)", "ночь отдыха (+1 за ночь)"),  # L723
    "first_aid": T("first aid (+1 once per scene)", "первая помощь (+1 раз за сцену)"),  # L723-724
    "treatment": T("treatment (+1 per success, once a day)", "лечение (+1 за успех, раз в день)"),  # L725
}
#: the once-per-scene / once-per-day flag a healing source sets
_SOURCE_FLAGS = {"first_aid": "first_aid_used_this_scene", "treatment": "treated_today"}


def healing_options() -> list[OptionSpec]:
    """What the tracker asks when healing: the source (first aid and treatment mark their
    once-per-scene / once-per-day flags, spec §7.2). To roll them, use ``first_aid`` / ``treatment``."""
    return [
        OptionSpec(
            "source",
            T("Healing source", "Источник лечения"),
            kind="choice",
            default="other",
            choices=tuple(HEALING_SOURCES.items()),
            help=T(
                "first aid only in the scene of the damage, once; treatment once a day",
                "первая помощь — только в сцене урона, один раз; лечение — раз в день",
            ),
        )
    ]


_NO_FRESH_DAMAGE = T(
    "first aid only in the scene the damage was taken", "первая помощь — только в сцене получения урона"
)


def check_first_aid_window(patient) -> None:
    """First aid only in the scene the damage was taken, once per patient (L723-724, §11 #9)."""
    if not patient.damaged_this_scene:
        raise RuleError("no_fresh_damage", _NO_FRESH_DAMAGE)
    if patient.first_aid_used_this_scene:
        raise RuleError(
            "first_aid_used",
            T("first aid already attempted this scene", "первая помощь в этой сцене уже оказывалась"),
        )


def _check_treatment_day(patient) -> None:
    if patient.treated_today:
        raise RuleError("treated_today", T("treatment already rolled today", "лечение сегодня уже было"))  # L725


def heal(character, amount: int, source: str = "other", *, options: GmOptions) -> DamageOutcome:
    """Healing the tracker applies: first aid and treatment obey their windows and mark them."""
    if source not in HEALING_SOURCES:
        raise RuleError(
            "bad_healing_source",
            T(
                f"healing source must be one of {sorted(HEALING_SOURCES)}, not {source!r}",
                f"источник лечения: одно из {sorted(HEALING_SOURCES)}, а не {source!r}",
            ),
        )
    if source == "first_aid" and amount:
        check_first_aid_window(character)
        if amount > 1:
            raise RuleError("first_aid_one", T("first aid heals 1 level", "первая помощь лечит 1 уровень"))  # L724
    if source == "treatment" and amount:
        _check_treatment_day(character)
    outcome = apply_healing(character, amount, source, options=options)
    if source in _SOURCE_FLAGS and amount:
        flag = _SOURCE_FLAGS[source]
        old = getattr(character, flag)
        character.update(**{flag: True})
        if not old:
            outcome.changes[flag] = (old, True)
    return outcome


def suppress_pain(character, *, options: GmOptions, rng: random.Random | None = None, **opts: Any) -> CheckResult:
    """Instant STA + Athletics - damage (L708). One attempt per damage event: refused while not in
    Pain, already suppressed, or after a failure this scene until new damage (§11 #7; with
    ``pain_retry_after_new_damage`` off, until the scene ends)."""
    if not character.in_pain:
        raise RuleError("no_pain", T("not in Pain", "боли нет"))
    if character.pain_suppressed:
        raise RuleError("pain_already_suppressed", T("Pain is already suppressed", "боль уже подавлена"))
    if character.pain_failed_this_scene:
        if options.pain_retry_after_new_damage:
            why = T(
                "suppression failed: the -3 stays until the scene ends or new damage",
                "подавление не удалось: -3 до конца сцены или нового урона",
            )
        else:
            why = T("suppression failed: the -3 stays until the scene ends", "подавление не удалось: -3 до конца сцены")
        raise RuleError("pain_failed", why)
    opts.setdefault("difficulty", character.damage)
    result = roll_check(character, "suppress_pain", options=options, rng=rng, **opts)
    if result.success:
        character.update(pain_suppressed=True)
    else:
        character.update(pain_failed_this_scene=True)
    return result


def first_aid(healer, patient, *, options: GmOptions, rng: random.Random | None = None, **opts: Any) -> CheckResult:
    """WIT + Medicine - the patient's damaged levels (L723-724): one attempt per patient per scene
    in which they took damage; success heals 1 level. The check is the tray's ``first_aid`` with
    ``patient_damage``; a healer out of the story gives none (L722)."""
    if patient.damage == 0:
        raise RuleError("no_fresh_damage", _NO_FRESH_DAMAGE)
    check_first_aid_window(patient)
    check_can_heal(healer, patient, "first_aid")  # L722, L724
    opts["patient_damage"] = patient.damage  # the difficulty is the patient's damaged levels (L723)
    result = roll_check(healer, "first_aid", options=options, rng=rng, **opts)
    patient.update(first_aid_used_this_scene=True)
    if result.success:
        result.details["healing"] = apply_healing(patient, 1, "first_aid", options=options)
    return result


def treatment(doctor, patient, *, options: GmOptions, rng: random.Random | None = None, **opts: Any) -> CheckResult:
    """A day of care: INT + Medicine - the patient's damaged levels; success heals one level per
    success (L725). Once per day, success or not; a doctor out of the story treats no one (L722)."""
    _check_treatment_day(patient)
    if patient.damage == 0:
        raise RuleError("no_damage", T("nothing to treat", "нечего лечить"))
    check_can_heal(doctor, patient, "treatment")  # L722, L725
    opts["patient_damage"] = patient.damage  # the difficulty is the patient's damaged levels (L725)
    result = roll_check(doctor, "treatment", options=options, rng=rng, **opts)
    patient.update(treated_today=True)
    if result.success:
        result.details["healing"] = apply_healing(patient, result.total, "treatment", options=options)
    return result


def night_rest(character, *, options: GmOptions) -> DamageOutcome:
    """One health level per night of rest (L723)."""
    return apply_healing(character, 1 if character.damage else 0, "rest", options=options)


def end_scene(character) -> None:
    """Scene end: Pain suppression or failure expires; the first-aid window closes (L708, L723-724)."""
    character.update(
        pain_suppressed=False,
        pain_failed_this_scene=False,
        damaged_this_scene=False,
        first_aid_used_this_scene=False,
    )


def new_day(character, *, treated_yesterday: bool = False, options: GmOptions) -> DamageOutcome:
    """A new day: treatment is possible again. The night's +1 comes with it, also after a day of
    treatment unless ``treatment_stacks_with_rest`` is off (§11 #10). Hunger, thirst and fatigue
    held off for an hour are back (L716)."""
    rest = 1 if character.damage else 0
    if treated_yesterday and not options.treatment_stacks_with_rest:
        rest = 0
    character.update(treated_today=False)
    returned = hour_passes(character)
    outcome = apply_healing(character, rest, "rest", options=options)
    outcome.changes.update(returned)
    return outcome


__all__ = [
    "HEALING_SOURCES",
    "check_first_aid_window",
    "end_scene",
    "first_aid",
    "heal",
    "healing_options",
    "new_day",
    "night_rest",
    "suppress_pain",
    "treatment",
]
