"""R.E.T. attacks resolved (spec §6.6-§6.11): the attack roll contested by the target's defence
(ties to the defender, L1047), the damage the target takes through the hit pipeline (Strike
Power + Weapon Damage − armour, at least 1 on any successful attack, head ×2, L1254, L1309,
L1381, L1415), the exact odds of both before the roll, and applying the outcome by the rules.

``setup`` turns an attack id and its options into level-roll plans and damage parameters;
``odds`` computes from the exact level-roll outcomes (``level.roll_outcomes``), never sampling;
``resolve`` rolls once with the given rng and changes no character; ``apply`` applies."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from types import SimpleNamespace
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import AttackCondition, AttackOdds, AttackOutcome, DamageOutcome, Effect, T
from tabletop_widgets.core.combat.records import clone_character
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.dice import Distribution

from .attacks import called_shot_rider, defence_riders, free_steps_after, hidden_attack, plan_attack, resolve_attack
from .checks import Divider, apply_divider, roll_effects
from .contest import score_distribution, win_given
from .damage import compute_hit, is_defeated, raw_damage
from .level import LevelRoll, level_roll, roll_outcomes, roll_result_for
from .model import ability_divider
from .plan import plan
from .turns import TurnState, extra_turn
from .defences import DefencePlan, defence_plan
from .weapon_attacks import (
    BODY_PART_WORDS,
    IMMOBILISE,
    Arm,
    LevelPlan,
    attack_cost,
    attack_plan,
    resistance_plan,
)

#: a superpower without its own divider uses the book's "normal" one, 4 (+2) (L1183-1188)
NORMAL_POWER_DIVIDER = Divider(4, 2)
#: the roll a called shot's rider asks of the target (L827, L833)
RIDER_ROLLS = {"legs": "body_control", "arms": "fine_motor"}
LOCATIONS = {"head": "head", "legs": "legs", "arms": "arms"}


@dataclass
class Setup:
    """One attack with its options, before any die: the rolls and what a hit does."""

    attack_id: str
    label: Mapping[str, str]
    arm: Arm
    attack: LevelPlan
    #: the target's defence: its kind, words, level roll (None: no roll) and Sanity price
    guard: DefencePlan
    body_part: str | None
    location: str
    head: bool
    deals_damage: bool
    power_cost: int
    #: a second one-handed weapon in the other hand (L1239-1244)
    two_weapons: bool = False
    #: what the extra turn the attack is made in costs (``turns.extra_turn``), or None
    extra_turn: Mapping[str, Any] | None = None
    #: an immobilising attack: who holds the target after a hit (``"person"``/``"object"``)
    hold: str | None = None
    #: an attack from hiding (L1127): the target's roll to notice it and the hiding roll to beat
    detection: LevelPlan | None = None
    hide_roll: int = 0

    @property
    def defence(self) -> LevelPlan | None:
        return self.guard.roll

    @property
    def defence_kind(self) -> str:
        return self.guard.kind

    @property
    def mind(self) -> bool:
        """A mind attack: its harm is to Sanity, through no armour (L908, L915)."""
        return self.arm.kind == "power" and self.arm.delivery == "mind"

    def raw(self, attacker, total: int | None, fail: bool, *, options: GmOptions) -> int:
        """Raw damage of a hit: Strike Power + Weapon Damage for melee (and thrown weapons that
        add it), Weapon Damage for ranged (L1254, L1309, L1313); a superpower's base effect +
        its roll through its divider (L1175)."""
        if self.arm.ability is None:
            return raw_damage(attacker.strike_power, self.arm.weapon, self.arm.kind)
        a = self.arm.ability
        fixed = ability_divider(a)
        div = Divider(*fixed) if fixed else NORMAL_POWER_DIVIDER
        base = int(a.get("base_effect") or 0)
        return base + apply_divider(total, div, fail=fail, on_fail=options.divider_on_fail)

    def taken(self, target, raw: int, *, options: GmOptions) -> dict:
        """The hit pipeline on ``target`` (not changed): Health and Sanity lost. Two weapons
        double the damage after armour (A15), or hit twice, the second through the armour the
        first wore (``dual_wield_mode="two_hits"``), as ``damage.apply_damage`` does. A mind
        attack harms Sanity alone, by its roll through its divider (L915, L1097)."""
        if self.mind:
            return {"health_loss": 0, "sanity_loss": max(0, int(raw))}
        mult = 2 if self.head else 1
        hits = 1
        if self.two_weapons:
            if options.dual_wield_mode == "two_hits":
                hits = 2
            else:
                mult *= 2
        lost = {"health_loss": 0, "sanity_loss": 0}
        worn = target
        for _ in range(hits):
            r = compute_hit(
                worn,
                raw,
                location=self.location,
                health_mult=mult,
                sanity_single=self.head,
                armour_applies=not (self.arm.ability or {}).get("ignores_armour"),
                attack=True,
                options=options,
            )
            lost = {k: lost[k] + r[k] for k in lost}
            worn = SimpleNamespace(
                armour=r["armour"], temp_armour=r["temp_armour"], temp_armour_kind=target.temp_armour_kind
            )
        return lost


def setup(
    attacker, target, arm: Arm, called: bool, attack_id: str, opts: Mapping[str, Any], *, options: GmOptions
) -> Setup:
    """The plan of ``attack_id`` (``arm``, a called shot or not) with its checked options."""
    part = opts.get("body_part") if called else None
    two = bool(opts.get("two_weapons"))
    hold = str(opts["hold"]) if attack_id.startswith(f"{IMMOBILISE}:") else None
    cost = attack_cost(attacker, arm)
    mods = plan_attack(
        body_part=part, two_weapons=two, superpower=arm.ability is not None, base_cost=cost, options=options
    )
    att = attack_plan(
        attacker, arm, opts["roll"], luck=int(opts["luck"]), modifier=int(opts["modifier"]), shift=mods.shift
    )
    guard = defence_plan(
        target, opts["defence"], luck=int(opts["defence_luck"]), options=options, attack_cost=mods.sanity_cost
    )
    return Setup(
        attack_id=attack_id,
        label=_label(arm, called, part) if hold is None else _hold_label(arm),
        arm=arm,
        attack=att,
        guard=guard,
        body_part=part,
        location=LOCATIONS.get(part or "", "body"),
        head=part == "head",
        deals_damage=mods.health_mult > 0 and hold is None,  # L845: a hold harms neither Health nor Sanity
        power_cost=mods.sanity_cost,  # a superpower's hold costs its Sanity too (L853)
        two_weapons=two,
        extra_turn=_extra_turn(attacker, int(opts.get("extra_turn") or 0), options=options),
        hold=hold,
        detection=_detection(target, opts, options=options),
        hide_roll=int(opts.get("hide_roll") or 0),
    )


def _detection(target, opts: Mapping[str, Any], *, options: GmOptions) -> LevelPlan | None:
    """The target's roll to notice an attacker in hiding (L1127: «бросок Восприятия или подходящей
    способности»), or None when the attack is not from hiding."""
    if not opts.get("from_hiding"):
        return None
    roll = str(opts.get("detection") or "perception")
    p = LevelPlan.of(plan(target, roll, {}, options=options))
    p.label = T(f"Notice: {p.label['en']}", f"Заметить: {p.label['ru']}")
    return p


def unnoticed(res: LevelRoll | None, hide_roll: int) -> bool:
    """Whether the target failed to notice the hidden attacker: its roll failed or fell short of
    the hiding roll (the hider's roll is the one to beat; a tie notices, as ties go to the
    defending side, L1047)."""
    return res is None or res.fail or (res.total or 0) < hide_roll


def _hold_label(arm: Arm) -> dict[str, str]:
    if arm.kind == "power":
        return T(f"{arm.label['en']}: immobilise", f"{arm.label['ru']}: обездвиживание")
    return T("Immobilise", "Обездвиживание")


def _extra_turn(attacker, number: int, *, options: GmOptions) -> Mapping[str, Any] | None:
    """The price of the ``number``-th extra turn (L757-771) by the turn rules, which refuse it
    when they must (3 Sanity required by the GM, A23). The rounds from which the GM allows extra
    turns (L763) are the GM's to keep: an attack does not know the round."""
    if not number:
        return None
    state = TurnState(speed_left=0, extra_turns_taken=number - 1)
    late = max(2, int(options.sanity_extra_turn_from_round), int(options.refusal_extra_turn_from_round))
    return extra_turn(attacker, state, late, options=options)


def _label(arm: Arm, called: bool, part: str | None) -> dict[str, str]:
    if not called:
        return dict(arm.label)
    where = BODY_PART_WORDS[part]
    return T(
        f"{arm.label['en']}, called shot: {where['en'].split(':')[0].lower()}",
        f"{arm.label['ru']}, атака в часть тела: {where['ru'].split(':')[0].lower()}",
    )


# ----------------------------------------------------------------------------------------------
# Exact odds
# ----------------------------------------------------------------------------------------------
def odds(system, attacker, target, s: Setup, *, options: GmOptions) -> AttackOdds:
    """Exact ``p_hit``, the distribution of the Health the target loses (0 on a miss) and the
    chance the hit takes it out of the fight."""
    a_out, a_cut = roll_outcomes(options=options, **s.attack.kwargs())
    d = score_distribution(roll_outcomes(options=options, **s.defence.kwargs())[0]) if s.defence else None
    missed = _p_unnoticed(s, options=options)
    by_raw: dict[int, Fraction] = {}
    p_hit = Fraction(0)
    for ka, pa in score_distribution(a_out).items():
        # unnoticed, the defence counts as failed (L1127): any attack but a fail hits
        win = missed * (1 if ka[0] == 1 else 0) + (1 - missed) * win_given(
            ka, d, can_hit=bool(options.double_fail_attack_can_hit)
        )
        if not win:
            continue
        p_hit += pa * win
        raw = s.raw(attacker, ka[1] if ka[0] else None, ka[0] == 0, options=options)
        by_raw[raw] = by_raw.get(raw, Fraction(0)) + pa * win
    pmf: dict[int, Fraction] = {0: 1 - a_cut - p_hit}
    p_defeat = Fraction(0)
    lost = "sanity_loss" if s.mind else "health_loss"
    for raw, p in by_raw.items():
        loss = s.taken(target, raw, options=options)[lost] if s.deals_damage else 0
        pmf[loss] = pmf.get(loss, Fraction(0)) + p
        if _defeats(system, target, s, raw):
            p_defeat += p
    if is_defeated(target):
        p_defeat = 1 - a_cut
    word = s.guard.label
    notes = [
        T(
            f"{s.attack.label['en']} {s.attack.notation} against {word['en']}; ties go to the defender",
            f"{s.attack.label['ru']} {s.attack.notation} против: {word['ru']}; при равенстве побеждает защита",
        )
    ]
    if s.mind:
        notes.append(T("the damage is to Sanity, through no armour", "урон — Рассудку, броня не защищает"))
    if s.detection is not None:
        notes.append(
            T(
                f"from hiding: the target fails to notice it with probability {float(missed):.0%}"
                f" ({s.detection.label['en']} against {s.hide_roll})",
                f"из скрытности: цель не заметит атаку с вероятностью {float(missed):.0%}"
                f" ({s.detection.label['ru']} против {s.hide_roll})",
            )
        )
    outcome = "sanity_loss" if s.mind else "damage"
    damage = Distribution({k: v for k, v in pmf.items() if v}, truncated_mass=a_cut, outcome=outcome)
    return AttackOdds(s.attack_id, p_hit, damage, p_defeat, notes)


def _p_unnoticed(s: Setup, *, options: GmOptions) -> Fraction:
    """P(the target fails to notice the hidden attacker): a fail, or a total below the hiding
    roll (0 when the attack is not from hiding)."""
    if s.detection is None:
        return Fraction(0)
    outcomes, _cut = roll_outcomes(options=options, **s.detection.kwargs())
    return sum((p for o, p in outcomes.items() if o[0] == "fail" or o[1] < s.hide_roll), Fraction(0))


def _defeats(system, target, s: Setup, raw: int) -> bool:
    twin = clone_character(target)
    if s.deals_damage:
        system.apply_damage(twin, raw, **hit_options(s))
    return bool(system.is_defeated(twin))


def hit_options(s: Setup) -> dict[str, Any]:
    """What ``GameSystem.apply_damage`` takes with a hit's raw damage."""
    if s.mind:  # Sanity harm through no armour (L915)
        return {"sanity": True, "attack": True}
    return {
        "location": s.location,
        "head": s.head,
        "dual_wield": s.two_weapons,
        "armour_applies": not (s.arm.ability or {}).get("ignores_armour"),
        "attack": True,
    }


# ----------------------------------------------------------------------------------------------
# One roll
# ----------------------------------------------------------------------------------------------
def _roll(p: LevelPlan, rng: random.Random, *, options: GmOptions) -> LevelRoll:
    return level_roll(p.level, bonus=p.bonus, luck=p.luck, shift=p.shift, rng=rng, options=options, bonuses=p.named)


def _shown(p: LevelPlan, res: LevelRoll):
    return roll_result_for(res, p.notation)


@dataclass
class _Rolled:
    """The dice of one attack: noticing it (from hiding), the attack, the defence."""

    seen: LevelRoll | None
    hidden: bool
    attack: LevelRoll
    defence: LevelRoll | None
    won: bool


def _roll_all(s: Setup, rng: random.Random, *, options: GmOptions) -> _Rolled:
    """Noticing a hidden attacker first (L1127), the attack, then the defence, which an unnoticed
    attack skips: the target «даже не защищался» (L1131), its defence counts as failed."""
    seen = _roll(s.detection, rng, options=options) if s.detection else None
    hidden = s.detection is not None and unnoticed(seen, s.hide_roll)
    ares = _roll(s.attack, rng, options=options)
    dres = _roll(s.defence, rng, options=options) if s.defence and not hidden else None
    if s.detection is not None:
        won = hidden_attack(ares, None if hidden else seen, dres, s.hide_roll, options=options)
    else:
        won = resolve_attack(ares, [dres], options=options)[0]
    return _Rolled(seen, hidden, ares, dres, bool(won))


def _defender_notes(s: Setup, r: _Rolled, theirs: list, notes: list) -> None:
    """What the defence earns or costs: noticing a hidden attacker or not, a power defence's or
    dispel's Sanity (spent even on a failed roll, L1077, L1087), Battle Rage (L1065), the dodge's
    free step (L1056)."""
    if s.detection is not None:
        notes.append(
            T(
                "the target did not notice the attack: its defence counts as failed",
                "цель не заметила атаку: её защита считается проваленной",
            )
            if r.hidden
            else T("the target noticed the attack and defends", "цель заметила атаку и защищается")
        )
    dres = r.defence
    if dres is None:
        return
    if s.guard.sanity_cost:
        theirs.append(Effect("sanity", -s.guard.sanity_cost, T(s.guard.label["en"], s.guard.label["ru"])))
    rage = defence_riders(s.defence_kind, dres, not r.won)
    if rage:
        theirs += rage
        notes.append(
            T("Battle Rage: the parry restores 1 Sanity", "Боевой Раж: парирование восстанавливает 1 Рассудка")
        )
    if free_steps_after(s.defence_kind, dres, not r.won):
        notes.append(T("the dodge allows 1 free step", "уклонение даёт 1 свободный шаг"))


def resolve(system, attacker, target, s: Setup, *, rng: random.Random, options: GmOptions) -> AttackOutcome:
    """Roll the attack and the defence once; neither character changes."""
    r = _roll_all(s, rng, options=options)
    seen, hidden, ares, dres, won = r.seen, r.hidden, r.attack, r.defence, r.won
    dice = ([_shown(s.detection, seen)] if seen else []) + [_shown(s.attack, ares)]
    dice += [_shown(s.defence, dres)] if dres else []
    mine = list(roll_effects(ares, ""))
    if s.power_cost and (not ares.fail or options.power_sanity_spent_on_fail):  # L1158, A44
        mine.append(Effect("sanity", -s.power_cost, T("superpower cost", "цена сверхспособности")))
    theirs = list(roll_effects(seen, "")) if seen else []
    theirs += list(roll_effects(dres, "")) if dres else []
    notes: list[dict[str, str]] = []
    _defender_notes(s, r, theirs, notes)
    paid = _pay_extra_turn(s, mine, notes)
    raw, hit, conditions = None, None, []
    if won:
        raw = s.raw(attacker, ares.total, ares.fail, options=options)
        hit = s.taken(target, raw, options=options) if s.deals_damage else None
        conditions = _rider(target, s, ares, rng, dice, theirs, notes, options=options)
        if s.hold:
            conditions.append(_held(s.hold, ares, notes))
    conditions = paid + conditions
    if ares.critical:
        notes.append(
            T(
                "critical fail: the GM may damage or knock the weapon away",
                "критический провал: мастер может повредить или выбить оружие",
            )
        )
    damage = int(hit["sanity_loss" if s.mind else "health_loss"]) if hit else 0
    return AttackOutcome(
        attack_id=s.attack_id,
        hit=bool(won),
        damage=damage,
        label=s.label,
        text=_text(s, ares, dres, won, hit, hidden),
        dice=dice,
        attacker_effects=mine,
        target_effects=theirs,
        # ``damage`` is already past the armour: a caller of the generic ``apply_damage`` path
        # must not take the armour off again (``apply`` here runs the raw hit instead)
        damage_options={"sanity": True} if s.mind else {"location": "body", "armour_applies": False, "attack": True},
        conditions=conditions,
        notes=notes,
        details={
            "raw": raw,
            "hit": hit_options(s),
            "deals_damage": s.deals_damage,
            "sanity_loss": int(hit["sanity_loss"]) if hit else 0,
            "body_part": s.body_part,
            "weapon_index": s.arm.index,
            "spends_ammo": s.arm.kind == "ranged" and isinstance((s.arm.weapon or {}).get("ammo"), int),
            "aim_used": int(attacker.aim_bonus or 0),
            # an ultimate is used up for the game session (L1217)
            "ultimate": s.arm.ability["name"] if (s.arm.ability or {}).get("kind") == "ultimate" else None,
            "attack_total": ares.total,
            "unnoticed": hidden if s.detection is not None else None,
            "defence_total": dres.total if dres else None,
        },
    )


def _pay_extra_turn(s: Setup, mine: list, notes: list) -> list[AttackCondition]:
    """An attack in a bought extra turn pays for it: 3 Sanity (a self-control roll at the end of
    that extra turn if Sanity falls below 0, L762), or the defence refused (L769)."""
    bought = s.extra_turn
    if not bought:
        return []
    mine += bought["effects"]
    notes.append(bought["note"])
    if bought["self_control_at_end"]:
        notes.append(
            T(
                "Sanity below 0: a self-control roll at the end of this extra turn",
                "Рассудок ниже 0: бросок на самоконтроль в конце этого доп. хода",
            )
        )
    return [AttackCondition(c, on="attacker", duration=bought["condition_duration"]) for c in bought["add_conditions"]]


def _rider(target, s: Setup, ares: LevelRoll, rng, dice: list, theirs: list, notes: list, *, options) -> list:
    """A called shot at the legs or arms: the target rolls against the same attack total and
    wins ties (L827, L833); legs lost: Off-balance; arms lost: the weapon drops."""
    param = RIDER_ROLLS.get(s.body_part or "")
    if param is None:
        if s.head:
            notes.append(
                T(
                    "the GM may ask an Endurance roll against blinding",
                    "мастер может попросить бросок Выносливости против ослепления",
                )
            )
        return []
    p = resistance_plan(target, param, options=options)
    res = _roll(p, rng, options=options)
    dice.append(_shown(p, res))
    theirs += roll_effects(res, "")
    rider = called_shot_rider(s.body_part, ares, res, options=options)
    if rider == "off_balance":
        return [AttackCondition("off_balance", on="target")]
    if rider == "disarmed":
        notes.append(T("the target drops its weapon", "цель роняет оружие"))
    return []


def _held(hold: str, ares: LevelRoll, notes: list) -> AttackCondition:
    """The Restrained condition of a hold that hit, with who holds and the roll to beat: a bond
    is broken against the binding roll, which must be remembered (L852)."""
    roll = int(ares.total) if ares.total is not None else 0
    if hold == "object":
        notes.append(
            T(
                f"bound: breaking free takes an action and a roll of at least {roll} (or cutting the bond)",
                f"связан: освободиться — действие и бросок не меньше {roll} (или разрезать путы)",
            )
        )
    else:
        notes.append(
            T(
                "held: breaking free takes the attack, a new contest with the holder",
                "удерживается: вырваться — атака, новое соревнование с удерживающим",
            )
        )
    return AttackCondition("restrained", on="target", data={"held_by": hold, "roll": roll})


def _text(
    s: Setup, ares: LevelRoll, dres: LevelRoll | None, won: bool, hit: dict | None, unseen: bool = False
) -> dict[str, str]:
    """One line for the log after the attack's name (which the log shows): the body part, the
    attack roll, the defence roll, the verdict."""
    att = ares.breakdown()
    if unseen:
        vs = T("unnoticed: defence failed", "не замечена: защита провалена")
    elif dres is None:
        vs = T("no defence roll", "без броска защиты")
    else:
        dfn = dres.breakdown()
        word = s.guard.label
        vs = T(f"{word['en']}: {dfn['en']}", f"{word['ru']}: {dfn['ru']}")
    if not won:
        verdict = T("miss", "промах")
    elif s.hold:
        verdict = T("hit: Restrained", "попадание: цель удерживается")
    elif hit is None:
        verdict = T("hit, no damage to the target", "попадание, цель урона не получает")
    else:
        h, sa = hit["health_loss"], hit["sanity_loss"]
        verdict = T(f"hit: −{h} Health", f"попадание: −{h} Здоровья")
        if sa:
            verdict = T(f"{verdict['en']}, −{sa} Sanity", f"{verdict['ru']}, −{sa} Рассудка")
    where = T("", "")
    if s.body_part:
        part = BODY_PART_WORDS[s.body_part]
        where = T(f"{part['en'].split(':')[0]}: ", f"{part['ru'].split(':')[0]}: ")
    return T(
        f"{where['en']}{att['en']}; {vs['en']} — {verdict['en']}",
        f"{where['ru']}{att['ru']}; {vs['ru']} — {verdict['ru']}",
    )


# ----------------------------------------------------------------------------------------------
# Applying an outcome
# ----------------------------------------------------------------------------------------------
def apply(system, attacker, target, outcome: AttackOutcome) -> tuple[DamageOutcome, DamageOutcome]:
    """Both sides' effects (all or none), the aim bonus used up (L936), a round spent from a
    ranged weapon's magazine (L1284), then the hit through the damage pipeline with its raw
    damage (armour worn, head ×2 and Sanity, at least 1 Health; coma, survival as for any
    damage)."""
    det = outcome.details
    mine = DamageOutcome(changes=system.apply_effects(attacker, outcome.attacker_effects))
    theirs = DamageOutcome(changes=system.apply_effects(target, outcome.target_effects))
    if det.get("aim_used") and attacker.aim_bonus:
        mine.changes["aim_bonus"] = (attacker.aim_bonus, 0)
        attacker.aim_bonus = 0
    if det.get("spends_ammo") and det.get("weapon_index") is not None:
        old = copy.deepcopy(list(attacker.weapons))
        new = copy.deepcopy(old)
        w = new[det["weapon_index"]]
        w["ammo"] = max(0, int(w.get("ammo") or 0) - 1)
        attacker.weapons = new
        mine.changes["weapons"] = (old, new)
    if attacker.has_condition("hidden"):  # an attack reveals the hider's position (L1129)
        old = [dict(x) for x in attacker.conditions]
        attacker.conditions = [x for x in old if x.get("id") != "hidden"]
        mine.changes["conditions"] = (old, list(attacker.conditions))
        mine.notes.append(T("the attack reveals the position", "атака раскрывает позицию"))
    if det.get("ultimate"):
        old = copy.deepcopy(list(attacker.abilities))
        attacker.abilities = [dict(a, used=True) if a.get("name") == det["ultimate"] else a for a in old]
        mine.changes["abilities"] = (old, list(attacker.abilities))
    if outcome.hit and det.get("deals_damage") and det.get("raw") is not None:
        hurt = system.apply_damage(target, int(det["raw"]), **dict(det["hit"]))
        theirs.changes.update(hurt.changes)
        theirs.notes.extend(hurt.notes)
        theirs.details.update(hurt.details)
        theirs.state, theirs.defeated = hurt.state, hurt.defeated
    return mine, theirs
