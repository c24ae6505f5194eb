"""Attacks and damage before it is applied (spec §6.6-§6.8): hit zones, armour, the contest of
pools, its exact distribution, counterattacks, and whom chance picks."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import (
    T,
)
from tabletop_widgets.dice import Distribution

from . import data
from .actions import block_pool
from .dice import PoolResult, raw_crit_law, read_faces, roll_faces

ZONE_PENALTY = data.column("zones", "penalty")  # L258-L268
HEAD_ZONES = ("head_face", "head_skull")


# -- damage (§6.7-§6.8) ----------------------------------------------------------------------------------
def zone_armour(armour: int, zone: str, helmet: str = "none", *, options: Mapping[str, Any]) -> int:
    """L158: no helmet -> armour does not count on the head; open helmet -> 1 lower (L160);
    closed -> full [DEFAULT A-37]. Other zones count the body armour ([DEFAULT A-20]; OPTION
    neck_armour="none": the neck is unprotected)."""
    if zone == "neck" and options.neck_armour == "none":
        return 0
    if zone in HEAD_ZONES:
        if helmet == "none":
            return 0
        if helmet == "open":
            return max(0, armour - 1)
    return armour


def reaches(dmg: int, max_hp: int, pct: int) -> bool:
    """dmg >= pct% of max HP, exactly (no rounding)."""
    return dmg > 0 and dmg * 100 >= pct * max_hp


@dataclass(frozen=True)
class ZoneEffect:
    kind: str  # limb_broken / limb_severed / tail_severed / decapitated / head_severed / ...
    lethal: bool
    label: Mapping[str, str]

    def wound(self, note: str = "") -> dict:
        return {"zone": self.zone_of(), "kind": self.kind, "note": note}

    def zone_of(self) -> str:
        return {
            "limb_broken": "limb",
            "limb_severed": "limb",
            "tail_severed": "tail",
            "decapitated": "neck",
            "head_severed": "neck",
            "face_lost": "head_face",
            "skull_pierced": "head_skull",
            "skull_pierced_wound": "head_skull",
        }[self.kind]


EFFECT_LABELS = {
    "limb_broken": T("limb broken", "конечность сломана"),
    "limb_severed": T("limb severed", "конечность отрублена"),
    "tail_severed": T("tail severed", "хвост отрублен"),
    "decapitated": T("decapitated: dead", "голова отрублена: смерть"),
    "head_severed": T("head severed (undead survives)", "голова отрублена (нежить выживает)"),
    "face_lost": T("lost an ear, eye or nose", "потеряно ухо, глаз или нос"),
    "skull_pierced": T("skull pierced: dead", "череп пробит: смерть"),
    "skull_pierced_wound": T("skull pierced (survives)", "череп пробит (выживает)"),
}


def zone_effect(
    zone: str, dmg: int, max_hp: int | None, *, spell: bool = False, undead: bool = False, heads: int = 1
) -> ZoneEffect | None:
    """Thresholds of L260-L268 against max HP; spells need double (L316)."""
    if max_hp is None or zone not in ZONE_PENALTY:
        return None
    m = 2 if spell else 1

    def eff(kind, lethal=False):
        return ZoneEffect(kind, lethal, EFFECT_LABELS[kind])

    if zone == "limb":
        if reaches(dmg, max_hp, 50 * m):
            return eff("limb_severed")
        if reaches(dmg, max_hp, 25 * m):
            return eff("limb_broken")
    elif zone == "tail" and reaches(dmg, max_hp, 25 * m):
        return eff("tail_severed")
    elif zone == "neck" and reaches(dmg, max_hp, 25 * m):
        return eff("head_severed") if undead else eff("decapitated", True)
    elif zone == "head_face" and reaches(dmg, max_hp, 25 * m):
        return eff("face_lost")
    elif zone == "head_skull" and reaches(dmg, max_hp, 75 * m):
        return eff("skull_pierced", True) if (heads == 1 and not undead) else eff("skull_pierced_wound")
    return None


@dataclass
class AttackOutcome:
    hit: bool
    damage: int
    raw_damage: int = 0
    armour_pierced: bool = False
    effective_armour: int = 0
    zone: str = "torso"
    zone_effect: ZoneEffect | None = None
    attacker: PoolResult | None = None
    defender: PoolResult | None = None
    attacker_fumble: bool = False
    #: what ``combat.apply_damage`` takes with ``damage`` so the target takes exactly ``damage``
    #: (the zone for its wound; ``doubled``: a transforming target's doubling is already in it, L119)
    apply_options: dict = field(default_factory=dict)


def pierces(att_crits: int, def_crits: int, *, options: Mapping[str, Any]) -> bool:
    """L31, L274: more crits than the defender -> armour ignored (OPTION any_attacker_crit, L232)."""
    if options.armour_pierce_rule == "any_attacker_crit":
        return att_crits > 0
    return att_crits > def_crits


def resolve_attack(
    att: PoolResult,
    dfn: PoolResult | None,
    weapon_damage: int,
    armour: int = 0,
    *,
    zone: str = "torso",
    helmet: str = "none",
    target_max_hp: int | None = None,
    undead: bool = False,
    heads: int = 1,
    transforming: bool = False,
    spell: bool = False,
    options: Mapping[str, Any],
) -> AttackOutcome:
    """Damage = weapon + attacker successes - defender successes - armour (L272), only when the
    attacker has more successes (L37, L272); armour ignored on more crits (L274). [DEFAULT] not
    below 0; doubled on a transforming target (L119); zone effects vs max HP (L256-L268)."""
    dfn = dfn or PoolResult.zero()
    if att.net <= dfn.net:
        return AttackOutcome(False, 0, zone=zone, attacker=att, defender=dfn, attacker_fumble=att.fumble)
    if spell:
        # §6.11: spell damage = brightness (passed as weapon_damage); armour only with the option
        pierced = False
        eff_armour = zone_armour(armour, zone, helmet, options=options) if options.armour_vs_spells else 0
        raw = weapon_damage - eff_armour
    else:
        pierced = pierces(att.crits, dfn.crits, options=options)
        eff_armour = 0 if pierced else zone_armour(armour, zone, helmet, options=options)
        raw = weapon_damage + att.net - dfn.net - eff_armour
    dmg = max(0, raw) if options.damage_floor_zero else raw
    if transforming:
        dmg *= 2  # L119: once, here; apply_options tells apply_damage not to double it again
    return AttackOutcome(
        True,
        dmg,
        raw,
        pierced,
        eff_armour,
        zone,
        zone_effect(zone, dmg, target_max_hp, spell=spell, undead=undead, heads=heads),
        att,
        dfn,
        apply_options={"zone": zone, "spell": spell, "undead": undead, "heads": heads, "doubled": bool(transforming)},
    )


def opposed(active: PoolResult, passive: PoolResult) -> str:
    """L37: more successes wins; ties (incl. 0-0) go to the defender / hider."""
    return "active" if active.net > passive.net else "passive"


def damage_distribution(
    att_pool: int,
    def_pool: int | None,
    weapon_damage: int,
    armour: int = 0,
    *,
    zone: str = "torso",
    helmet: str = "none",
    att_epic: int = 0,
    def_epic: int = 0,
    att_penalty: int = 0,
    def_penalty: int = 0,
    transforming: bool = False,
    options: Mapping[str, Any],
) -> Distribution:
    """Exact law of the damage dealt (0 on a miss); p_pass = P(hit). The zone penalty is
    applied to the attacker's pool here."""
    n_att = max(0, att_pool - ZONE_PENALTY.get(zone, 0))
    la = raw_crit_law(n_att)
    ld = raw_crit_law(max(0, def_pool)) if def_pool is not None else {(0, 0): Fraction(1)}
    out: dict[int, Fraction] = {}
    p_hit = Fraction(0)
    for (ra, ca), pa in la.items():
        for (rd, cd), pd in ld.items():
            a_net = max(0, ra - att_penalty) + att_epic
            d_net = max(0, rd - def_penalty) + def_epic if def_pool is not None else 0
            p = pa * pd
            if a_net <= d_net:
                out[0] = out.get(0, Fraction(0)) + p
                continue
            p_hit += p
            eff = 0 if pierces(ca, cd, options=options) else zone_armour(armour, zone, helmet, options=options)
            raw = weapon_damage + a_net - d_net - eff
            dmg = max(0, raw) if options.damage_floor_zero else raw
            if transforming:
                dmg *= 2
            out[dmg] = out.get(dmg, Fraction(0)) + p
    return Distribution(
        out, p_pass=p_hit, expression=f"ld {n_att} vs ld {def_pool} dmg {weapon_damage} armour {armour}"
    )


def transformed_damage(amount: int, transforming: bool) -> int:
    return amount * 2 if transforming else amount


def luck_targeting(successes: Mapping[str, int]) -> list[str]:
    """[DEFAULT A-40] the candidate(s) with the fewest Luck successes; several -> they roll again."""
    low = min(successes.values())
    return [k for k, v in successes.items() if v == low]


def pick_luck_target(
    candidates: Mapping[str, Any], rng: random.Random, max_rounds: int = 50, *, options: Mapping[str, Any]
) -> tuple[str | None, list]:
    """Roll Luck for every candidate until one alone has the fewest successes (OPTION
    luck_targeting="gm": no roll, the GM picks -> (None, []))."""
    if options.luck_targeting == "gm":
        return None, []
    pool = dict(candidates)
    history = []
    for _ in range(max_rounds):
        succ = {k: read_faces(roll_faces(c.luck, rng)).net for k, c in pool.items()}
        history.append(succ)
        low = luck_targeting(succ)
        if len(low) == 1:
            return low[0], history
        pool = {k: pool[k] for k in low}
    return sorted(pool)[0], history


def attack(
    attacker,
    attack_check: str,
    defender=None,
    defence_check: str | None = None,
    *,
    weapon_damage: int | None = None,
    armour: int | None = None,
    zone: str = "torso",
    direction: str = "front",
    block: bool = False,
    att_epic: int = 0,
    def_epic: int = 0,
    transforming: bool | None = None,
    undead: bool = False,
    heads: int = 1,
    rng: random.Random | None = None,
    att_faces: Sequence[int] | None = None,
    def_faces: Sequence[int] | None = None,
    options: Mapping[str, Any],
) -> AttackOutcome:
    """One physical attack between two characters (L232-L236, L272-L274): the attacker's check
    (e.g. ``dexterity+swords``) minus the zone penalty vs the defender's block/dodge check
    (``None``: no reaction, 0 successes). Weapon damage defaults to the attacker's equipped
    weapon, else unarmed ``hand_damage``; armour to the defender's ``armour_level``; the helmet
    and ``transforming`` (L119: the damage doubled once, the zone's wound judged on the doubled
    damage, L260) are the defender's. Nothing is applied: pass ``damage`` with
    ``apply_options`` to ``apply_damage`` (which then does not double it again)."""
    from .checks import resolve

    rng = rng if rng is not None else random.Random()
    a_spec = resolve(attacker, attack_check, options=options)
    n_att = a_spec.pool - ZONE_PENALTY[zone]
    a = read_faces(
        list(att_faces) if att_faces is not None else roll_faces(n_att, rng),
        penalty=a_spec.penalty,
        epic=att_epic,
        pool=n_att,
        fumble_basis=options.fumble_basis,
    )
    d = None
    if defender is not None and defence_check is not None:
        d_spec = resolve(defender, defence_check, options=options)
        n_def = block_pool(d_spec.pool, direction) if block else d_spec.pool
        d = read_faces(
            list(def_faces) if def_faces is not None else roll_faces(n_def, rng),
            penalty=d_spec.penalty,
            epic=def_epic,
            pool=n_def,
            fumble_basis=options.fumble_basis,
        )
    if weapon_damage is None:
        w = attacker.worn("weapon")
        weapon_damage = int(w.get("damage", 0)) if w else attacker.hand_damage
    if armour is None:
        armour = defender.armour_level if defender is not None else 0
    helmet = defender.helmet if defender is not None else "none"
    max_hp = defender.hp_max if defender is not None else None
    if transforming is None:
        transforming = bool(getattr(defender, "transforming", False))
    return resolve_attack(
        a,
        d,
        weapon_damage,
        armour,
        zone=zone,
        helmet=helmet,
        target_max_hp=max_hp,
        undead=undead,
        heads=heads,
        transforming=transforming,
        options=options,
    )


def resolve_counterattack(
    att: PoolResult,
    counter: PoolResult,
    *,
    att_weapon: int,
    counter_weapon: int,
    defender_armour: int = 0,
    attacker_armour: int = 0,
    defence: PoolResult | None = None,
    attacker_defence: PoolResult | None = None,
    options: Mapping[str, Any],
    **kw,
) -> tuple[AttackOutcome, AttackOutcome | None]:
    """A counterattack (L233) against an incoming attack. [DEFAULT A-13] "separate_attack": the
    incoming attack meets the defender's own block/dodge (``defence``, or none), and the
    counterattack is its own attack against the attacker's reaction (``attacker_defence``).
    OPTION "exchange": the counter roll is also the defence; if it wins it hits the attacker.
    Returns (outcome on the defender, outcome on the attacker or None)."""
    if options.counterattack_mode == "exchange":
        incoming = resolve_attack(att, counter, att_weapon, defender_armour, options=options, **kw)
        back = (
            resolve_attack(counter, att, counter_weapon, attacker_armour, options=options)
            if counter.net > att.net
            else None
        )
        return incoming, back
    incoming = resolve_attack(att, defence, att_weapon, defender_armour, options=options, **kw)
    back = resolve_attack(counter, attacker_defence, counter_weapon, attacker_armour, options=options)
    return incoming, back


def dodge_spell(cast_net: int, dodge_net: int) -> bool:
    """[DEFAULT A-21] dodging a visible spell: opposed, ties to the dodger; True = dodged."""
    return cast_net <= dodge_net
