"""Seasons combat (spec §6, §7.3-7.4; L66-101, L504-515, L673-690): attacks and threats, damage
as the tracker applies it, the round's action economy, quick fights against mooks, conditions
resisted and shaken off, and the effects at the start and end of a turn. Health lives in
``health``, initiative in ``initiative``, the condition catalogue in ``conditions``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import CheckResult, DamageOutcome, OptionSpec, RuleError, T
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.system import record_changes
from tabletop_widgets.core.wording import ru_n

from .checks import roll_check, roll_preset
from .conditions import condition_entry, hold_off, holds_off, is_held_off
from .health import (
    OUT_STATE_LABELS,
    TRACKED,
    ZERO_HEALTH_STATE,
    ZERO_HEALTH_STATES,
    apply_damage,
    finish,
)
from .modifiers import condition_option, fitting_conditions
from .objects import weapon_named
from .pool_plan import targets_of
from .presets import Preset, presets, resolve_preset

#: attack kind -> the named check it rolls (L504-515)
ATTACK_CHECKS = {
    "unarmed": "unarmed_attack",
    "melee": "armed_attack",
    "thrown": "thrown_attack",
    "shooting": "shooting",
}


# -----------------------------------------------------------------------------------------------
# Attacks, threats, damage (L90-101, L504-515, L673)
# -----------------------------------------------------------------------------------------------
#: the attribute a weapon rolls when the sheet names only its skill (L92)
DEFAULT_ATTRIBUTE = {"melee": "strength", "ranged": "dexterity"}


def attack_preset(kind: str, weapon: Mapping | None = None) -> Preset:
    """The check an attack of ``kind`` rolls (L92, L504-515). A weapon's own ``skill`` and
    ``attribute`` (the sheet's) decide it when given: a pistol (Ranged, Dexterity) shoots and a
    throwing knife (Ranged, Strength) is thrown whatever ``kind`` says; what the weapon leaves
    out comes from ``kind``. Unarmed attacks are Strength + Melee (L504), and so are melee
    weapons, even one marked Dexterity (L505; Dexterity + Melee is the feint, L506)."""
    check_id = ATTACK_CHECKS.get(kind)
    if check_id is None:
        raise ValueError(f"attack kind must be unarmed, melee, thrown or shooting, not {kind!r}")
    base = presets()[check_id]
    if kind == "unarmed" or not weapon:
        return base
    skill = weapon.get("skill") or base.skill
    attribute = weapon.get("attribute") or (base.attribute if skill == base.skill else DEFAULT_ATTRIBUTE[skill])
    if skill == "melee":
        # A blow that deals damage is Strength + Melee (L92, L505) whatever the sheet says;
        # Dexterity + Melee is the feint (L506), a check against a difficulty with no damage.
        check_id, attribute = "armed_attack", "strength"
    else:
        check_id = "thrown_attack" if attribute == "strength" else "shooting"
    preset = presets()[check_id]
    return preset if preset.attribute == attribute else replace(preset, attribute=attribute)


def sheet_weapon(attacker, name: str) -> Mapping:
    """The weapon (or object used as one, L795) called ``name`` on the attacker's sheet, or a
    RuleError a player reads."""
    return weapon_named(attacker, name)


def attack(
    attacker,
    target,
    kind: str = "melee",
    *,
    options: GmOptions,
    weapon: str | Mapping | None = None,
    rng: random.Random | None = None,
    targets_pd: Sequence[int] | None = None,
    **opts: Any,
) -> CheckResult:
    """One attack (L90-93, L504-515): attribute + skill + weapon - target PD - armour (- AP),
    with the weapon's own attribute and skill when the sheet gives them (``attack_preset``).
    ``targets_pd``: the Physical Defences of further targets; the highest of all is subtracted
    (L51). The result's ``details["damage"]`` is the damage to apply (successes); nothing is applied."""
    opts = dict(opts)
    stats: Mapping | None = None
    if isinstance(weapon, Mapping):
        stats = weapon
        if kind != "unarmed":
            opts["tool_bonus"] = opts.get("tool_bonus", 0) + int(weapon.get("attack_bonus", 0))
            opts["armour_piercing"] = max(opts.get("armour_piercing", 0), int(weapon.get("armour_piercing", 0)))
    elif weapon:
        stats = sheet_weapon(attacker, weapon)
        opts["weapon"] = weapon
    preset = attack_preset(kind, stats)
    defence = target.physical_defence
    if options.ap_reduces_pd:
        ap = opts.get("armour_piercing", 0)
        if isinstance(weapon, str):
            ap = max(ap, stats.get("armour_piercing", 0))
        defence = max(0, defence - ap)  # GM option §11 #11: AP also lowers PD
    if targets_pd:
        others = targets_of(list(targets_pd))  # whole numbers >= 0, or a ValueError
        if options.ap_reduces_pd:
            others = [max(0, pd - ap) for pd in others]
        opts.setdefault("targets", [defence, *others])  # several targets: the highest defence (L51)
    opts.setdefault("difficulty", defence)
    opts.setdefault("armour", target.armour_penalty)
    return roll_preset(attacker, preset, options=options, rng=rng, **opts)


def threat(victim, dice: int, *, options: GmOptions, rng: random.Random | None = None, **opts: Any) -> CheckResult:
    """A threat rolls ``dice`` (6-10, more if supernatural) minus the victim's PD (L673);
    ``details["damage"]`` is what to apply."""
    return roll_check(victim, "threat", options=options, rng=rng, dice=dice, **opts)


def damage_options(*, options: GmOptions) -> list[OptionSpec]:
    """What the tracker asks when applying damage: a mook (L100) and what 0 health means this time (L722)."""
    rule_state = ZERO_HEALTH_STATE[options.zero_health_outcome]
    return [
        OptionSpec(
            "quick_fight_mook",
            T("Rank-and-file (quick fight)", "Рядовой (проходной бой)"),
            kind="bool",
            default=False,
            help=T(
                "mooks have no health track: any damage takes them out",  # L100
                "у рядовых нет здоровья: любой урон выводит из боя",
            ),
        ),  # L100
        OptionSpec(
            "outcome",
            T("At 0 health", "При 0 здоровья"),
            kind="choice",
            default="",
            choices=(
                (
                    "",
                    T(
                        f"by the rules: {OUT_STATE_LABELS[rule_state]['en']}",
                        f"по правилам: {OUT_STATE_LABELS[rule_state]['ru']}",
                    ),
                ),
                *((k, OUT_STATE_LABELS[k]) for k in ZERO_HEALTH_STATES),
            ),
            help=T(
                "what going out means this time: genre-dependent (§11 #26)",  # L722
                "что значит выбывание на этот раз: зависит от жанра (§11 #26)",
            ),
        ),
    ]  # L722


def take_damage(
    character, amount: int, *, quick_fight_mook: bool = False, outcome: str = "", options: GmOptions
) -> DamageOutcome:
    """Damage as the tracker applies it: a mook (quick fight) goes out on any damage (L100)."""
    if quick_fight_mook and amount > 0:  # L100: one success takes a mook out
        amount = character.health_max - character.damage
    return apply_damage(character, amount, outcome, options=options)


# -----------------------------------------------------------------------------------------------
# Round economy (L66, L83-86, L90, spec §6.3)
# -----------------------------------------------------------------------------------------------
@dataclass
class RoundActions:
    """What each combatant used this round: one normal action, distinct instant checks once each."""

    options: GmOptions
    normal_used: set = field(default_factory=set)
    instants_used: dict = field(default_factory=dict)

    def use_normal(self, cid: str) -> None:
        if cid in self.normal_used:
            raise RuleError(
                "normal_used",
                T(
                    "only one normal action per round",  # L84, L90
                    "только одно обычное действие за раунд",
                ),
            )  # L84, L90
        if not self.options.instants_with_normal and self.instants_used.get(cid):
            raise RuleError(
                "instants_taken",
                T(
                    "instant actions were taken instead of the normal one",  # L66
                    "вместо обычного действия совершены мгновенные",
                ),
            )  # L66
        self.normal_used.add(cid)

    def use_instant(self, cid: str, check_id: str) -> None:
        used = self.instants_used.setdefault(cid, set())
        if check_id in used:
            raise RuleError(
                "instant_repeated",
                T(
                    "the same instant check only once per round",  # L83
                    "одну и ту же мгновенную проверку — раз в раунд",
                ),
            )  # L83
        if not self.options.instants_with_normal and cid in self.normal_used:
            raise RuleError(
                "normal_taken",
                T(
                    "a normal action was taken this round",  # L66
                    "в этом раунде уже было обычное действие",
                ),
            )  # L66
        used.add(check_id)

    def check_duration(self, duration: str, check_id: str = "") -> None:
        """Extended checks are not allowed in round time (L85-86)."""
        if duration == "extended" and not (
            check_id in ("first_aid", "first_aid_skill") and self.options.first_aid_in_rounds
        ):
            raise RuleError(
                "extended_in_rounds",
                T(
                    "extended checks only in dramatic time",  # L85-86
                    "длительные проверки только в драматическом времени",
                ),
            )  # L85-86

    def new_round(self) -> None:
        self.normal_used.clear()
        self.instants_used.clear()


# -----------------------------------------------------------------------------------------------
# Quick fights (L98-101)
# -----------------------------------------------------------------------------------------------
def quick_fight_takedowns(successes: int, primary_id: str, primary_pd: int, others: Mapping[str, int]) -> list[str]:
    """Mooks taken out by one attack: the primary target on the first success, then one more per
    further success among mooks whose PD is not above the primary's (L100). ``others`` lists
    ``{id: PD}`` in the attacker's order of choice."""
    if successes < 1:
        return []
    eligible = [mid for mid, pd in others.items() if mid != primary_id and pd <= primary_pd]
    return [primary_id] + eligible[: successes - 1]


def quick_fight(successes: int, primary_id: str, mooks: Mapping[str, Any]) -> list[str]:
    """Mooks taken out by one attack (L100): ``mooks`` maps ids to characters (or PDs)."""
    pds = {i: (m if isinstance(m, int) else m.physical_defence) for i, m in mooks.items()}
    return quick_fight_takedowns(successes, primary_id, pds[primary_id], pds)


def ambush_plan(
    ambushers: Mapping[str, Any], observers: Mapping[str, Any], difficulty: int = 3, *, options: GmOptions
) -> dict[str, Any]:
    """Who rolls when beings lie in ambush (§11 #41). ``sneaker_rolls`` (default): each ambusher
    rolls DEX + Larceny minus the highest MD among the observers (L47, L51, L525);
    ``observer_rolls``: each observer rolls the instant RES + Investigation - difficulty (L83)."""
    if options.ambush_mode == "sneaker_rolls":
        md = max(o.mental_defence for o in observers.values())
        return {"check_id": "sneak", "rollers": list(ambushers), "difficulty": md}
    return {"check_id": "notice_clue", "rollers": list(observers), "difficulty": difficulty}


# -----------------------------------------------------------------------------------------------
# Conditions in play (L687-690) and effects at the start / end of a turn (spec §6.9, §7.4)
# -----------------------------------------------------------------------------------------------
def resist_condition(
    character,
    condition_id: str,
    *,
    options: GmOptions,
    difficulty: int = 3,
    rng: random.Random | None = None,
    category: str = "",
    cause: str = "",
    **opts: Any,
) -> CheckResult:
    """Resist a condition as it strikes (L687-690): success -> no effect; failure -> it is added.
    Hunger, thirst and fatigue are only held off by a success: added, held off for the hour (L716).
    ``cause``: a sickness's (substance or illness, L711)."""
    entry = condition_entry(condition_id, removal_difficulty=difficulty, category=category, cause=cause)
    result = roll_check(
        character, f"resist_{entry['kind']}_condition", options=options, rng=rng, difficulty=difficulty, **opts
    )
    if not result.success:
        character.update(conditions=[*character.conditions, entry])
        result.details["condition_added"] = entry
    elif holds_off(entry):
        character.update(conditions=[*character.conditions, entry])
        result.details["condition_held_off"] = hold_off(character, len(character.conditions) - 1)
    return result


def shake_off_condition(
    character, index: int, *, options: GmOptions, rng: random.Random | None = None, **opts: Any
) -> CheckResult:
    """Retry after the condition's interval (L690): success removes it, except hunger, thirst and
    fatigue, which a success only holds off for an hour (L716: they last until the character
    eats, drinks or rests; ``hour_passes`` brings them back)."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(character.conditions):
        raise RuleError("no_condition", T(f"no condition number {index!r}", f"нет Состояния номер {index!r}"))
    cond = character.conditions[index]
    if is_held_off(cond):
        raise RuleError(
            "condition_held_off",
            T(
                f"{cond.get('name', '?')} is held off for this hour: there is nothing to shake off yet.",
                f"{cond.get('name', '?')}: отступило на этот час — снимать пока нечего.",
            ),
        )
    opts.setdefault("difficulty", cond.get("removal_difficulty", 3))
    check_id = f"resist_{cond['kind']}_condition"
    preset = resolve_preset(check_id)
    # The condition being shaken off does not hinder its own removal; the others still do.
    for k, _name in fitting_conditions(preset, character, opts.get("attribute", preset.attribute)):
        opts.setdefault(condition_option(k), k != index)
    result = roll_check(character, check_id, options=options, rng=rng, **opts)
    if result.success and holds_off(cond):
        result.details["condition_held_off"] = hold_off(character, index)
    elif result.success:
        character.update(conditions=[c for k, c in enumerate(character.conditions) if k != index])
        result.details["condition_removed"] = cond
    return result


def on_turn(
    c,
    when: str,
    rng: random.Random | None = None,
    conditions: Sequence[Mapping[str, Any]] = (),
    *,
    options: GmOptions,
) -> DamageOutcome | None:
    """Ongoing effects at the start of the bearer's turn (spec §6.9, §7.4, §10.3 item 5): each
    "exposed" condition rolls its threat dice - PD and the successes are damage (fire, acid,
    electricity: every round while in the zone, L675, L679). At the end of the turn, queued help
    that was not used lapses (L767: help is for this round's check). The -3 conditions have no
    per-turn effect: they last until removed, their retry intervals are a day / an hour / a
    minute (L690), i.e. dramatic time; the tracker's own duration counts them down if given."""
    if when not in ("start", "end"):
        raise ValueError(f"when must be 'start' or 'end', not {when!r}")
    if when == "end":
        return _lapse_help(c, options=options)
    exposures = [cond for cond in conditions if cond.get("id") == "exposed"]
    if not exposures:
        return None
    rng = rng if rng is not None else random.Random()
    notes, threats = [], []
    with record_changes(c, TRACKED) as out:
        for cond in exposures:
            _expose(c, cond, rng, notes, threats, options=options)
    return finish(out, c, notes, options=options, threats=threats)


def _expose(c, cond: Mapping[str, Any], rng: random.Random, notes: list, threats: list, *, options: GmOptions) -> None:
    """One "exposed" condition at the start of the turn: its threat dice - PD, the successes as damage."""
    data = dict(cond.get("data") or {})
    dice = data.get("dice", 6)
    if not isinstance(dice, int) or isinstance(dice, bool) or dice < 0:
        raise RuleError(
            "bad_threat_dice",
            T(
                f"threat dice must be a whole number >= 0, not {dice!r}",
                f"дайсы угрозы: целое число >= 0, а не {dice!r}",
            ),
        )
    result = threat(c, dice, options=options, rng=rng, armour_applies=bool(data.get("armour_applies", False)))
    damage = result.details.get("damage", 0)
    apply_damage(c, damage, options=options)
    threats.append(
        {
            "dice": dice,
            "pool": result.details["pool"],
            "faces": result.details["faces"],
            "successes": result.total,
            "damage": damage,
            "trace": result.details["trace"],
        }
    )
    notes.append(
        T(
            f"threat {dice} dice - PD: {result.details['trace']} → {damage} damage",
            f"угроза: {ru_n(dice, 'дайс', 'дайса', 'дайсов')} − ФЗ: {result.details['trace']} → урон {damage}",
        )
    )


def _lapse_help(c, *, options: GmOptions) -> DamageOutcome | None:
    # Help is for the helped character's check in round time (L767): queued help that this
    # turn did not use lapses at its end (help given after the turn waits for the next one).
    lapsed = [b for b in c.pending_bonus_dice if str(b.get("source", "")).strip().lower() == "help"]
    if not lapsed:
        return None
    with record_changes(c, TRACKED + ("pending_bonus_dice",)) as out:
        c.update(pending_bonus_dice=[b for b in c.pending_bonus_dice if b not in lapsed])
    return finish(
        out,
        c,
        [
            T(
                f"unused help lapses (+{sum(b['dice'] for b in lapsed)})",
                f"неиспользованная помощь пропадает (+{sum(b['dice'] for b in lapsed)})",
            )
        ],
        options=options,
        lapsed=lapsed,
    )


def interval_checks(duration: int, interval: int) -> int:
    """How many recurring checks an exposure of ``duration`` brings, one at the end of each full
    ``interval`` (L78: 60 minutes in a blizzard, a check every 15 -> 4)."""
    if interval <= 0:
        raise ValueError("interval must be positive")
    return duration // interval
