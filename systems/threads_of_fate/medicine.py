"""Medicine and Repair (spec §6.9): healing a patient, reviving, first aid, and a treatment in progress
during combat, saved with the medic (L436-442, L514)."""

from __future__ import annotations


import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.problems import RuleError

from .checks import roll_check
from .entry_limits import check_treatment
from .traits import CHARACTERISTICS


MEDICINE_HEAL_DC = 10  # L439
MEDICINE_REVIVE_DC = 15  # L440


def medicine_heal_amount(total: int, success: bool | None = None) -> int:
    """Medicine vs 10: 1 HP + 1 per full 5 points of margin (L439). ``success``: whether the check
    succeeded (by default: the total reached 10); a success heals at least 1 HP whatever its total
    (L439 "в случае успеха ... 1 ЕЗ": a natural 20 succeeds below 10 too, L114)."""
    if success is None:
        success = total >= MEDICINE_HEAL_DC
    return max(1, 1 + (total - MEDICINE_HEAL_DC) // 5) if success else 0


def medicine_turns(skill: int, modifier: int) -> int:
    """Medicine in combat takes max(1, 10 - skill - modifier) turns (L441)."""
    return max(1, 10 - skill - modifier)


@dataclass
class Treatment:
    """Medicine in progress during combat (L441): interrupted when the medic loses HP >= Will
    (cumulative by default, A29), and must restart. Saved with the medic as ``Character.treatment``
    (:meth:`to_dict` / :meth:`from_dict`), so a saved game resumes the treatment."""

    medic_will: int
    turns_left: int
    hp_lost: int = 0
    interrupted: bool = False
    patient: str = ""
    skill: str = "medicine"
    characteristic: str = "intelligence"
    #: the GM options (A29: how the medic's lost HP count)
    options: GmOptions = field(kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "patient": self.patient,
            "turns_left": self.turns_left,
            "hp_lost": self.hp_lost,
            "medic_will": self.medic_will,
            "interrupted": self.interrupted,
            "skill": self.skill,
            "characteristic": self.characteristic,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, options) -> "Treatment":
        problems = check_treatment(dict(data)) if data else [None]
        if problems:
            raise RuleError("bad_treatment", T("not a saved treatment", "это не сохранённое лечение"))
        return cls(
            data["medic_will"],
            data["turns_left"],
            data["hp_lost"],
            data["interrupted"],
            data["patient"],
            data["skill"],
            data["characteristic"],
            options=options,
        )

    def medic_hit(self, hp_lost: int) -> bool:
        cumulative = self.options.medicine_interrupt == "cumulative"
        self.hp_lost = self.hp_lost + hp_lost if cumulative else hp_lost
        if self.hp_lost >= self.medic_will:
            self.interrupted = True
        return self.interrupted

    def tick(self) -> bool:
        """One turn passes; True when the treatment is complete (roll the check then)."""
        if self.interrupted:
            raise RuleError(
                "treatment_interrupted",
                T("the treatment was interrupted: start again", "лечение прервано: начните заново"),
            )
        self.turns_left = max(0, self.turns_left - 1)
        return self.turns_left == 0


def start_treatment(
    medic, skill: str = "medicine", characteristic: str = "intelligence", patient: str = "", *, options
) -> Treatment:
    if skill not in ("medicine", "repair") or characteristic not in CHARACTERISTICS:
        raise RuleError(
            "bad_option",
            T(
                "treatment uses Medicine or Repair with a characteristic",
                "лечение — это Медицина или Ремонт с характеристикой",
            ),
        )
    m = getattr(medic, characteristic + "_mod")  # A30: the modifier used for the check
    return Treatment(
        medic.will,
        medicine_turns(getattr(medic, skill), m),
        options=options,
        patient=patient,
        skill=skill,
        characteristic=characteristic,
    )


def begin_treatment(
    medic, patient: str = "", *, options, skill: str = "medicine", characteristic: str = "intelligence"
) -> dict:
    """Start Medicine in combat (L441) and save it with the medic; returns ``{trait: (old, new)}``."""
    t = start_treatment(medic, skill, characteristic, patient=patient, options=options)
    old = dict(medic.treatment)
    medic.treatment = t.to_dict()
    return {"treatment": (old, dict(medic.treatment))}


def treatment_turn(medic, *, options) -> dict:
    """One of the medic's turns passes on the saved treatment; ``done`` when the check is due."""
    if not medic.treatment:
        raise RuleError("no_treatment", T("no treatment in progress", "лечение не идёт"))
    t = Treatment.from_dict(medic.treatment, options=options)
    old = dict(medic.treatment)
    done = t.tick()
    medic.treatment = t.to_dict()
    return {"done": done, "changes": {"treatment": (old, dict(medic.treatment))}, "turns_left": t.turns_left}


def end_treatment(medic) -> dict:
    old = dict(medic.treatment)
    medic.treatment = {}
    return {"treatment": (old, {})} if old else {}


# ------------------------------------------------------------------------------------------------
# Medicine (§6.9) and the turn (§6.4)
# ------------------------------------------------------------------------------------------------
def medicine(
    medic,
    patient,
    *,
    options,
    mode: str = "heal",
    characteristic: str | None = None,
    rng: random.Random | None = None,
    **choices,
) -> dict[str, Any]:
    """Medicine on a living patient, Repair on a Combat robot (L436-442, L514).
    ``mode``: ``heal`` (vs 10: 1 HP + 1 per full 5 of margin, once per day per patient),
    ``revive`` (vs 15: consciousness, no HP), ``first_aid`` (the higher of INT/WIS modifiers, L438).
    The HP are returned as ``heal``; apply them with ``apply_healing(patient, n, source=...)``."""
    robot = patient.has_attribute("combat_robot")
    skill = "repair" if robot else "medicine"
    if medic is patient and robot:
        raise RuleError(
            "robot_self_repair",
            T(
                "a Combat robot cannot Repair itself",  # L514
                "Боевой робот не может ремонтировать сам себя",
            ),
        )  # L514
    if mode not in ("heal", "revive", "first_aid"):
        raise RuleError("bad_mode", T("mode is heal, revive or first_aid", "режим: heal, revive или first_aid"))
    once = options.medicine_once_per
    if mode == "heal" and once == "patient" and patient.medicine_today:
        raise RuleError(
            "medicine_once_per_day",
            T(
                "this patient was already healed today",  # L439
                "этого пациента уже лечили сегодня",
            ),
        )  # L439
    if mode == "heal" and once == "medic" and medic.medicine_given_today:
        raise RuleError(
            "medicine_once_per_day",
            T(
                "this medic has already healed today",  # L439, A28
                "этот лекарь уже лечил сегодня",
            ),
        )  # L439, A28
    if characteristic is None:
        if mode == "first_aid":
            characteristic = max(("intelligence", "wisdom"), key=lambda c: getattr(medic, c + "_mod"))
        else:
            characteristic = "intelligence"
    dc = MEDICINE_REVIVE_DC if mode == "revive" else MEDICINE_HEAL_DC
    res = roll_check(medic, f"{characteristic}+{skill}", rng=rng, options=options, difficulty=dc, **choices)
    heal = medicine_heal_amount(res.total, bool(res.success)) if mode == "heal" else 0
    if mode == "heal" and once == "medic":
        medic.medicine_given_today = True
    return {
        "check": res,
        "heal": heal,
        "revived": mode == "revive" and bool(res.success),
        "source": skill,
        "combat_turns": medicine_turns(getattr(medic, skill), getattr(medic, characteristic + "_mod")),
    }
