"""Seasons health (spec §6.5, §7.2; L93, L707-709, L720-725): damage, Pain, healing and how a
character leaves the fight. Operations refuse illegal moves with ``RuleError`` before changing
anything and report what changed as a ``DamageOutcome``."""

from __future__ import annotations

from typing import Any

from tabletop_widgets.core import DamageOutcome, RuleError, T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.system import record_changes

STATES = {
    "unhurt": T("unhurt", "без ран"),
    "wounded": T("wounded", "есть раны"),
    "pain": T("in pain (-3 to all checks)", "боль (-3 ко всем проверкам)"),
    "pain_suppressed": T("wounded, pain suppressed", "есть раны, боль подавлена"),
    "out": T("out of the story", "вне сюжета"),
}

ZERO_HEALTH = {
    "storyteller_choice": T(
        "out of the story: the Storyteller decides what it means",  # L722
        "вне сюжета: Рассказчик решает, что это значит",
    ),  # L722
    "death": T("out of the story: dead", "вне сюжета: гибель"),
    "incapacitated": T("out of the story: bedridden by injuries", "вне сюжета: постельный режим из-за ран"),
    "captured": T("out of the story: captured", "вне сюжета: в плену"),
}


#: ``out_state`` labels (spec §6.5, §10.3): the 0-health outcomes of L722 and leaving the fight (L90, L93).
OUT_STATE_LABELS = {
    "": T("in play", "в игре"),
    "out": T("out of the story (the Storyteller decides what it means)", "вне сюжета (решает Рассказчик)"),
    "dead": T("dead", "гибель"),
    "incapacitated": T("bedridden by injuries", "постельный режим из-за ран"),
    "captured": T("captured", "в плену"),
    "fled": T("fled", "бегство"),
    "surrendered": T("surrendered", "сдача"),
}
#: zero_health_outcome (§11 #26) -> out_state
ZERO_HEALTH_STATE = {
    "storyteller_choice": "out",
    "death": "dead",
    "incapacitated": "incapacitated",
    "captured": "captured",
}
#: out_state values that come from 0 health (healing may end them) vs leaving the fight by choice.
ZERO_HEALTH_STATES = ("out", "dead", "incapacitated", "captured")


def health(c) -> tuple[int, int]:
    return c.health_remaining, c.health_max


def health_state_id(c) -> str:
    if c.is_out:
        return "out"
    if c.in_pain:
        return "pain_suppressed" if c.pain_suppressed else "pain"
    return "wounded" if c.damage else "unhurt"


def health_state(c) -> dict[str, str]:
    """The state the tracker shows: ``{"en", "ru", "id"}``; the out_state wins when set."""
    if c.out_state:
        return {**OUT_STATE_LABELS[c.out_state], "id": c.out_state}
    sid = health_state_id(c)
    return {**STATES[sid], "id": sid}


#: the traits damage, healing and leaving the fight may change (recorded in each outcome)
TRACKED = (
    "damage",
    "pain_suppressed",
    "pain_failed_this_scene",
    "damaged_this_scene",
    "first_aid_used_this_scene",
    "out_state",
)


def finish(out: DamageOutcome, c, notes, *, options: GmOptions, **details: Any) -> DamageOutcome:
    """Complete an outcome that ``record_changes`` filled: the notes (and what 0 health means),
    whether ``c`` is defeated, the health state and the details."""
    out.notes.extend(notes)
    if c.is_out:
        key = {v: k for k, v in ZERO_HEALTH_STATE.items()}.get(c.out_state, options.zero_health_outcome)
        out.notes.append(ZERO_HEALTH[key])
    out.defeated = bool(c.defeated)
    out.state = health_state(c)
    out.details = {"health": health(c), "out_state": c.out_state, **details}
    return out


def zero_health_state(outcome: str = "", *, options: GmOptions) -> str:
    """The out_state a character takes on reaching 0 health: ``outcome`` when the GM picks one for
    this blow (out / dead / incapacitated / captured), else the rules option (§11 #26, L722)."""
    if outcome:
        if outcome not in ZERO_HEALTH_STATES:
            raise RuleError(
                "bad_outcome",
                T(
                    f"0-health outcome must be one of {list(ZERO_HEALTH_STATES)}, not {outcome!r}",
                    f"исход при 0 здоровья: одно из {list(ZERO_HEALTH_STATES)}, а не {outcome!r}",
                ),
            )
        return outcome
    return ZERO_HEALTH_STATE[options.zero_health_outcome]


def apply_damage(c, amount: int, outcome: str = "", *, options: GmOptions) -> DamageOutcome:
    """Fill ``amount`` health levels (L93). Clamped at Health (§11 #27); new damage ends Pain
    suppression and allows a new attempt, also after a failed one unless the GM option
    ``pain_retry_after_new_damage`` is off (L708, §11 #7); it opens first aid for this scene but
    never re-opens it after an attempt (L723-724, §11 #9)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise ValueError(f"damage must be a whole number >= 0, not {amount!r}")
    state = zero_health_state(outcome, options=options)  # refuses a bad outcome before anything changes
    if amount == 0:
        with record_changes(c, TRACKED) as out:
            pass
        return finish(out, c, [T("no damage", "урона нет")], options=options)
    old_damage = c.damage
    notes = []
    new = min(c.health_max, c.damage + amount)
    if c.damage + amount > c.health_max:
        notes.append(T("damage beyond Health is lost (clamped)", "урон сверх здоровья не учитывается"))
    values = dict(damage=new, pain_suppressed=False, damaged_this_scene=True)
    if options.pain_retry_after_new_damage:  # §11 #7: a new try at the new difficulty (L708)
        values["pain_failed_this_scene"] = False
    if new >= c.health_max and c.out_state not in ZERO_HEALTH_STATES:
        values["out_state"] = state  # 0 health: out of the story, as the genre says (L93, L722)
    with record_changes(c, TRACKED) as out:
        c.update(**values)
    if c.in_pain and not old_damage * 2 >= c.health_max:
        notes.append(T("Pain: -3 to all checks", "Боль: -3 ко всем проверкам"))  # L708
    return finish(out, c, notes, options=options, amount=amount)


def apply_healing(c, amount: int, source: str = "other", *, options: GmOptions) -> DamageOutcome:
    """Remove ``amount`` levels of damage, never below 0 (spec §7.2). Pain ends by itself when the
    damage drops below half (L708). ``source`` is only reported (rest / first_aid / treatment)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise ValueError(f"healing must be a whole number >= 0, not {amount!r}")
    if amount and c.out_state == "dead":
        raise RuleError(
            "dead",
            T(
                "the dead do not heal (clear the 'dead' state first if the Storyteller allows)",
                "мёртвые не лечатся (сначала снимите «погиб», если Рассказчик позволит)",
            ),
        )
    old_damage = c.damage
    values: dict[str, Any] = dict(damage=max(0, c.damage - amount))
    notes = []
    if values["damage"] < c.health_max and c.out_state in ("out", "incapacitated"):
        values["out_state"] = ""  # back above 0 health: back in play (a captive stays captured)
        notes.append(T("back in play", "снова в игре"))
    elif c.out_state == "captured" and values["damage"] < c.health_max:
        notes.append(
            T(
                "healed, but still captured until rescued",  # L722
                "вылечен, но в плену до спасения",
            )
        )  # L722
    with record_changes(c, TRACKED) as out:
        c.update(**values)
    if old_damage * 2 >= c.health_max and not c.in_pain:
        notes.append(T("Pain ends", "Боль проходит"))
    return finish(out, c, notes, options=options, amount=amount, source=source)


#: The checks a healer rolls (first aid L575, L723; treatment L576, L725): a healer out of the
#: story rolls none of them (L722, L724-725).
HEALER_CHECKS = {
    "first_aid": "first_aid",
    "first_aid_skill": "first_aid",
    "treatment": "treatment",
    "treat_illness": "treatment",
}

_HEAL_VERBS = {
    # what -> (en: "cannot ... anyone", ru: "не может ...")
    "first_aid": ("give anyone first aid", "никому оказать первую помощь"),
    "treatment": ("treat anyone", "никого лечить"),
}


def out_of_the_story(c) -> bool:
    """No health left (L722), or dead (the Storyteller's mark, L722)."""
    return bool(c.is_out or c.out_state == "dead")


def check_can_heal(healer, patient=None, what: str = "first_aid") -> None:
    """A character out of the story (no health left, or dead) tends no one (L722): a healer is
    «в сознании и не лишен всех уровней здоровья» (L724-725). Tending oneself then is refused
    with ``cannot_treat_self`` (someone else must), tending another with ``healer_out``."""
    if not out_of_the_story(healer):
        return
    if healer is patient:
        en, ru = {
            "first_aid": ("first aid", "оказать себе первую помощь"),
            "treatment": ("treatment", "лечить себя самостоятельно"),
        }[what]
        raise RuleError(
            "cannot_treat_self",
            T(
                f"{healer.name or 'The character'} has no health left: {en} must come from someone else.",
                f"{healer.name or 'Персонаж'}: уровней здоровья не осталось — {ru} нельзя, "
                "это может сделать только кто-то другой.",
            ),
        )
    en, ru = _HEAL_VERBS[what]
    raise RuleError(
        "healer_out",
        T(
            f"{healer.name or 'The character'} is out of the story (no health left, or dead) and cannot {en}.",
            f"{healer.name or 'Персонаж'} выбывает из сюжета (здоровья не осталось или погиб) и не может {ru}.",
        ),
    )


def is_defeated(c) -> bool:
    """0 health, fled or surrendered (L90, L93, L722)."""
    return bool(c.defeated)


def set_out_state(c, state: str, *, options: GmOptions) -> DamageOutcome:
    """Mark how the character left the fight (``fled``, ``surrendered``, or a 0-health outcome), or
    ``""`` to bring them back (only possible with health left)."""
    if state not in OUT_STATE_LABELS:
        raise RuleError(
            "bad_out_state",
            T(
                f"out state must be one of {sorted(OUT_STATE_LABELS)}, not {state!r}",
                f"состояние выбывания: одно из {sorted(OUT_STATE_LABELS)}, а не {state!r}",
            ),
        )
    if state == "" and c.is_out:
        raise RuleError("still_out", T("no health left: heal first", "здоровья нет: сначала лечение"))  # L722
    with record_changes(c, TRACKED) as out:
        c.update(out_state=state)
    return finish(out, c, [OUT_STATE_LABELS[state]], options=options)
