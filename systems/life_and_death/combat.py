"""Combat (spec §6) as pure functions: initiative, actions, attack/defence, damage, zones,
health states, transformation, conditions."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import (
    ConditionSpec,
    DamageOutcome,
    Effect,
    InitiativeOrder,
    InitiativeRoll,
    OptionSpec,
    RuleError,
    T,
)
from tabletop_widgets.dice import Distribution
from tabletop_widgets.core.wording import ru_n

from . import data
from .dice import PoolResult, raw_crit_law, read_faces, roll_faces
from .options import DEFAULT_RULES

ZONE_PENALTY = {"torso": 0, "limb": 1, "tail": 2, "neck": 3, "head_face": 3, "head_skull": 2}  # L258-L268
HEAD_ZONES = ("head_face", "head_skull")
BLOCK_DIRECTION_DICE = {"front": 0, "side": 1, "above": 1, "back": 2, "below": 2}  # L235


# -- initiative (§6.3) ----------------------------------------------------------------------------------
def initiative_pool(c) -> int:
    """Dex + Alert (+2 Speed, L220; -1 closed helmet, L159 [DEFAULT a die]); floored at 0."""
    return c.initiative_pool


def roll_initiative(
    combatants: Mapping[str, Any],
    *,
    rng: random.Random | None = None,
    rules: Mapping[str, Any] = DEFAULT_RULES,
    epic: Mapping[str, int] | None = None,
    faces: Mapping[str, Sequence[int]] | None = None,
) -> InitiativeOrder:
    """Each combatant rolls its initiative pool; the successes are its initiative (L220).
    Ties [DEFAULT A-06]: higher pool, then higher Dexterity, then a d10 roll-off (repeated until
    it separates; a final fallback on the id keeps the order total). Dice are rolled in the
    order of ``combatants``; roll-off dice only where needed, in order, after all pools."""
    epic = _initiative_epic(combatants, epic, rules)  # checked before any die is rolled
    rng = rng if rng is not None else random.Random()
    results: dict[str, PoolResult] = {}
    for cid, c in combatants.items():
        fs = list(faces[cid]) if faces and cid in faces else roll_faces(c.initiative_pool, rng)
        results[cid] = read_faces(fs, epic=int(epic.get(cid, 0)), pool=c.initiative_pool)
    mode = rules.get("initiative_tiebreak", "pool_dex_random")

    def chain(cid):
        c = combatants[cid]
        if mode == "pool_dex_random":
            return (results[cid].net, c.initiative_pool, c.dexterity)
        return (results[cid].net,)

    # roll-offs among groups still tied after the chain
    rolloff: dict[str, list[int]] = {cid: [] for cid in combatants}
    groups: dict[tuple, list[str]] = {}
    for cid in combatants:
        groups.setdefault(chain(cid), []).append(cid)
    tiebreaks = []
    if mode in ("pool_dex_random", "reroll"):
        for key, ids in groups.items():
            pending = [ids] if len(ids) > 1 else []
            rounds = 0
            while pending and rounds < 20:
                rounds += 1
                nxt = []
                for grp in pending:
                    if mode == "reroll":
                        vals = {cid: read_faces(roll_faces(combatants[cid].initiative_pool, rng)).net for cid in grp}
                    else:
                        vals = {cid: rng.randint(1, 10) for cid in grp}
                    for cid in grp:
                        rolloff[cid].append(vals[cid])
                    sub: dict[int, list[str]] = {}
                    for cid in grp:
                        sub.setdefault(vals[cid], []).append(cid)
                    nxt.extend(g for g in sub.values() if len(g) > 1)
                pending = nxt

    # sort: chain, roll-offs (descending), then id as the deterministic last resort
    def sort_key(cid):
        return chain(cid) + tuple(rolloff[cid])

    order = sorted(combatants, key=lambda cid: (tuple(-x for x in sort_key(cid)), cid))
    for a, b in zip(order, order[1:]):
        ra, rb = results[a].net, results[b].net
        if ra != rb:
            continue
        ca, cb = combatants[a], combatants[b]
        if mode == "pool_dex_random" and ca.initiative_pool != cb.initiative_pool:
            why = T(
                f"{a} before {b}: same successes ({ra}), larger pool ({ca.initiative_pool} > {cb.initiative_pool})",
                f"{a} раньше {b}: успехов поровну ({ra}), пул больше ({ca.initiative_pool} > {cb.initiative_pool})",
            )
        elif mode == "pool_dex_random" and ca.dexterity != cb.dexterity:
            why = T(
                f"{a} before {b}: same successes and pool, higher Dexterity ({ca.dexterity} > {cb.dexterity})",
                f"{a} раньше {b}: успехи и пул равны, Ловкость выше ({ca.dexterity} > {cb.dexterity})",
            )
        elif rolloff[a] != rolloff[b] and rolloff[a]:
            why = T(
                f"{a} before {b}: roll-off {rolloff[a]} vs {rolloff[b]}",
                f"{a} раньше {b}: переброс {rolloff[a]} против {rolloff[b]}",
            )
        elif mode == "simultaneous":
            why = T(
                f"{a} and {b} act simultaneously ({ra} successes)",
                f"{a} и {b} действуют одновременно ({ru_n(ra, 'успех', 'успеха', 'успехов')})",
            )
        else:
            why = T(
                f"{a} before {b}: still tied, ordered by id (GM may swap)",
                f"равенство: {a}, {b} — порядок по имени (мастер может поменять)",
            )
        tiebreaks.append({**why, "ids": [a, b]})  # the tracker shows names for these ids
    rolls = {}
    for cid in combatants:
        r = results[cid]
        n_epic = int(epic.get(cid, 0))
        extra = (
            (f" (+{n_epic} epic)", f" (+{ru_n(n_epic, 'эпик-дайс', 'эпик-дайса', 'эпик-дайсов')})")
            if n_epic
            else ("", "")
        )
        rolls[cid] = InitiativeRoll(
            cid,
            (r.net,) + sort_key(cid)[1:],
            T(
                f"{cid}: ld {r.pool} [{', '.join(map(str, r.faces))}]{extra[0]} = {r.net}",
                f"{cid}: ld {r.pool} [{', '.join(map(str, r.faces))}]{extra[1]} = {r.net}",
            ),
            roll=r,
            # L351 [DEFAULT §6.3]: epic dice spent on the initiative roll leave the sheet; the
            # tracker applies this through apply_effects.
            effects=(Effect("epic_dice", -n_epic, T("epic dice spent on initiative", "эпик-дайсы на инициативу")),)
            if n_epic
            else (),
        )
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=tiebreaks)


def _initiative_epic(combatants: Mapping[str, Any], epic: Any, rules: Mapping[str, Any]) -> dict[str, int]:
    """``epic``: ``{combatant_id: n}`` epic dice each spends on initiative (L351). Refused as a
    whole (RuleError, nothing rolled) on a bad count, an unknown id, too few dice or a quick game."""
    if not epic:
        return {}
    if not isinstance(epic, Mapping):
        raise RuleError(
            "bad_epic",
            T(
                "Initiative epic dice are given per combatant: {id: count}.",
                "Эпик-дайсы на инициативу задаются по участникам: {id: число}.",
            ),
        )
    out = {}
    for cid, n in epic.items():
        if cid not in combatants:
            raise RuleError(
                "bad_epic", T(f"No combatant {cid!r} to spend epic dice.", f"Нет участника {cid!r} для эпик-дайсов.")
            )
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleError(
                "bad_epic",
                T(
                    f"Epic dice for {cid}: a whole number >= 0 (is {n!r}).",
                    f"Эпик-дайсы для {cid}: целое число >= 0 (сейчас {n!r}).",
                ),
            )
        c = combatants[cid]
        if n and (rules.get("mode") == "quick" or getattr(c, "mode", "campaign") == "quick"):
            raise RuleError(
                "epic_in_quick_game",
                T(
                    "Epic dice are not used in a quick game.",  # L347
                    "В быстрой игре эпик-дайсы не используются.",
                ),
            )  # L347
        if n > getattr(c, "epic_dice", 0):
            raise RuleError(
                "not_enough_epic_dice",
                T(f"{cid} has only {c.epic_dice} epic dice.", f"Эпик-дайсов мало: {cid} — только {c.epic_dice}."),
            )
        out[cid] = n
    return out


def initiative_options() -> list[OptionSpec]:
    """Options ``roll_initiative`` takes (the tracker passes them as given)."""
    return [
        OptionSpec(
            "epic",
            T("Epic dice on initiative, per combatant {id: n}", "Эпик-дайсы на инициативу {id: n}"),
            "text",
            {},
            help=T(
                "+1 success each, spent from the sheet",  # L351
                "+1 успех каждый, списываются с листа",
            ),
        )
    ]  # L351


# -- start of combat and coordination (§6.2, L252-L254) ------------------------------------------------
def coordination_pool(c, attackers: int, joint: bool = False) -> int:
    """Dex + Alert - number of simultaneous attackers (L252); joint casting: no minus (L333)."""
    return c.dexterity + c.alertness - (0 if joint else attackers)


def coordinate_attack(
    attackers: Mapping[str, Any],
    order: Sequence[str],
    *,
    rng: random.Random | None = None,
    rules: Mapping[str, Any] = DEFAULT_RULES,
    faces: Mapping[str, Sequence[int]] | None = None,
) -> dict[str, Any]:
    """Simultaneous attack (L252-L254): every attacker rolls coordination; those with no success
    do not attack in round 1 ([DEFAULT A-49] they lose their round-1 action). If nobody
    succeeds, only the attacker first in turn order attacks."""
    rng = rng if rng is not None else random.Random()
    n = len(attackers)
    rolls, ok = {}, []
    skip = rules.get("bound_pattern_iii_skips_coordination") and all(
        c.feature_level("bound_pattern") >= 3 for c in attackers.values()
    )
    for cid, c in attackers.items():
        if skip or n == 1:
            ok.append(cid)
            continue
        pool = coordination_pool(c, n)
        fs = list(faces[cid]) if faces and cid in faces else roll_faces(pool, rng)
        r = read_faces(fs, pool=pool, difficulty=1)
        rolls[cid] = r
        if r.passed:
            ok.append(cid)
    fallback = False
    if not ok:
        first = next(cid for cid in order if cid in attackers)
        ok = [first]
        fallback = True
    return {
        "attack_in_round_1": ok,
        "lose_round_1": [c for c in attackers if c not in ok],
        "rolls": rolls,
        "fallback": fallback,
    }


def p_coordination(c, attackers: int) -> Fraction:
    from .dice import p_net_at_least

    return p_net_at_least(max(0, coordination_pool(c, attackers)), 1)


# -- action economy (§6.4-§6.5) ------------------------------------------------------------------------
ORDINARY = ("attack", "counterattack", "cast", "block", "dodge", "reload", "run", "step", "noncombat_skill", "wait")
FREE = ("talk", "jog")
REACTIONS = ("counterattack", "block", "dodge")


def extra_actions(c, rules: Mapping[str, Any] = DEFAULT_RULES, haste: int = 0) -> int:
    """Speed II grants [DEFAULT] 1 extra action per round (L226); haste effects their own count."""
    return (int(rules.get("speed_ii_extra_actions", 1)) if c.feature_level("speed") >= 2 else 0) + haste


@dataclass
class TurnState:
    """One combatant's per-round allowance (tracker state, spec §3.13)."""

    round: int
    ordinary_left: int
    extra_left: int
    initiator: bool = False
    free_used: set = field(default_factory=set)
    held: bool = False
    transforming: bool = False
    log: list = field(default_factory=list)


def start_turn(
    c, round_no: int, *, initiator: bool = False, rules: Mapping[str, Any] = DEFAULT_RULES, haste: int = 0
) -> TurnState:
    """Round 1: one action, no extra actions even with Speed or haste (L250). Later rounds: two
    ordinary actions + up to two different free actions (L226), extra actions at the end of
    the round (L220, L226)."""
    if round_no <= 1:
        return TurnState(round_no, 1, 0, initiator)
    return TurnState(round_no, 2, extra_actions(c, rules, haste), initiator)


def take_action(
    state: TurnState,
    action: str,
    *,
    rules: Mapping[str, Any] = DEFAULT_RULES,
    extra_phase: bool = False,
    direct_damage_spell: bool = True,
) -> TurnState:
    """Spend an action; refuses illegal moves with RuleError (and changes nothing)."""
    if action in FREE:
        if state.round <= 1 and not rules.get("round1_free_actions", True):
            raise RuleError(
                "no_free_round1", T("No free actions in round 1.", "В первом раунде нет свободных действий.")
            )
        if action in state.free_used:
            raise RuleError(
                "free_twice",
                T(
                    f"Free action {action} already used this turn.",  # L226
                    f"Свободное действие {action} уже было в этом ходу.",
                ),
            )  # L226
        state.free_used.add(action)
        state.log.append(action)
        return state
    if action not in ORDINARY and action not in ("transform", "boost"):
        raise RuleError("unknown_action", T(f"Unknown action {action!r}.", f"Неизвестное действие {action!r}."))
    if state.round <= 1:
        if action == "counterattack":
            raise RuleError(
                "no_counter_round1",
                T(
                    "No counterattacks in round 1.",  # L250
                    "В первом раунде контратаковать нельзя.",
                ),
            )  # L250
        if state.initiator and not (action == "attack" or (action == "cast" and direct_damage_spell)):
            raise RuleError(
                "initiator_round1",
                T(
                    "In round 1 the attackers may only attack or cast direct-damage spells.",  # L250
                    "В первом раунде нападающие только атакуют или создают заклинания прямого урона.",
                ),
            )  # L250
        if (
            not state.initiator
            and rules.get("round1_others") == "block_dodge_only"
            and action not in ("block", "dodge")
        ):
            raise RuleError(
                "others_round1",
                T(
                    "In round 1 the others may only block or dodge.",  # L250
                    "В первом раунде остальные могут только блокировать или уворачиваться.",
                ),
            )  # L250
    if action in ("transform", "boost"):
        if state.ordinary_left <= 0:
            raise RuleError("no_actions", T("No actions left this turn.", "Действий в этом ходу не осталось."))
        state.ordinary_left = 0  # L119: the rest of the turn; L314: the whole round
        state.transforming = action == "transform"
        state.log.append(action)
        return state
    if action in REACTIONS and not rules.get("reactions_consume_actions", True):
        state.log.append(action)
        return state
    if extra_phase or (state.ordinary_left <= 0 and state.extra_left > 0 and action in REACTIONS):
        if state.extra_left <= 0:
            raise RuleError("no_extra", T("No extra actions left.", "Дополнительных действий не осталось."))
        state.extra_left -= 1
    else:
        if state.ordinary_left <= 0:
            raise RuleError(
                "no_actions", T("No ordinary actions left this turn.", "Обычных действий в этом ходу не осталось.")
            )
        state.ordinary_left -= 1
    if action == "wait":
        state.held = True  # converts an ordinary action into a held one
    state.log.append(action)
    return state


def use_held_action(state: TurnState, action: str, **kw) -> TurnState:
    if not state.held:
        raise RuleError("nothing_held", T("No held action.", "Нет отложенного действия."))
    state.held = False
    state.log.append(action)
    return state


def run_distance(athletics_successes: int, grid: bool = False) -> int:
    """L238: 5 m (or 2 cells) per Athletics success."""
    return max(0, athletics_successes) * (2 if grid else 5)


STEP_M, JOG_M = 3, 2  # L239, L246


def block_pool(pool: int, direction: str = "front") -> int:
    """L235: -1 die against attacks from the side/above, -2 from behind/below."""
    return max(0, pool - BLOCK_DIRECTION_DICE[direction])


def can_dodge_spell(dodger, caster) -> bool:
    """L236: a spell can be dodged only if visible: the dodger has Yinsta's Clairvoyance or the
    caster has Pathos."""
    return dodger.skill_level("clairvoyance") > 0 or caster.has_feature("pathos")


def noncombat_skill_dice(alertness_successes: int) -> int:
    """L240: no success on the preliminary Alertness roll -> -1 die on the skill roll."""
    return -1 if alertness_successes <= 0 else 0


# -- damage (§6.7-§6.8) ----------------------------------------------------------------------------------
def zone_armour(armour: int, zone: str, helmet: str = "none", rules: Mapping[str, Any] = DEFAULT_RULES) -> int:
    """L158: no helmet -> armour does not count on the head; open helmet -> 1 lower (L160);
    closed -> full [DEFAULT A-37]. Other zones count the body armour ([DEFAULT A-20]; OPTION
    neck_armour="none": the neck is unprotected)."""
    if zone == "neck" and rules.get("neck_armour", "body") == "none":
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


def pierces(att_crits: int, def_crits: int, rules: Mapping[str, Any] = DEFAULT_RULES) -> bool:
    """L31, L274: more crits than the defender -> armour ignored (OPTION any_attacker_crit, L232)."""
    if rules.get("armour_pierce_rule") == "any_attacker_crit":
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
    rules: Mapping[str, Any] = DEFAULT_RULES,
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
        eff_armour = zone_armour(armour, zone, helmet, rules) if rules.get("armour_vs_spells") else 0
        raw = weapon_damage - eff_armour
    else:
        pierced = pierces(att.crits, dfn.crits, rules)
        eff_armour = 0 if pierced else zone_armour(armour, zone, helmet, rules)
        raw = weapon_damage + att.net - dfn.net - eff_armour
    dmg = max(0, raw) if rules.get("damage_floor_zero", True) else raw
    if transforming:
        dmg *= 2
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
    rules: Mapping[str, Any] = DEFAULT_RULES,
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
            eff = 0 if pierces(ca, cd, rules) else zone_armour(armour, zone, helmet, rules)
            raw = weapon_damage + a_net - d_net - eff
            dmg = max(0, raw) if rules.get("damage_floor_zero", True) else raw
            if transforming:
                dmg *= 2
            out[dmg] = out.get(dmg, Fraction(0)) + p
    return Distribution(
        out, p_pass=p_hit, expression=f"ld {n_att} vs ld {def_pool} dmg {weapon_damage} armour {armour}"
    )


# -- applying damage and health states (§6.10-§6.12) -------------------------------------------------------
LETHAL_WOUNDS = ("decapitated", "skull_pierced")
POOL_LABELS = {
    "hp": T("HP", "HP"),
    "ep": T("EP (pattern)", "EP (узор)"),
    "sp": T("SP (soul)", "SP (душа)"),
    "ip": T("IP (idea)", "IP (идея)"),
}


def health_state(c, rules: Mapping[str, Any] = DEFAULT_RULES) -> str:
    """dead (a lethal wound, L264/L268, or the GM's / tracker's ``status``), incapacitated
    (``status``, or HP <= 0 by OPTION zero_hp_state, A-10), wounded, healthy."""
    if any(w.get("kind") in LETHAL_WOUNDS for w in c.wounds) or getattr(c, "status", "") == "dead":
        return "dead"
    if getattr(c, "status", "") == "incapacitated":
        return "incapacitated"
    if c.hp is not None and c.hp <= 0:
        z = rules.get("zero_hp_state", "incapacitated")
        if z != "none":
            return z
    return "healthy" if c.hp == c.hp_max else "wounded"


STATE_LABELS = {
    "healthy": T("healthy", "без ран"),
    "wounded": T("wounded", "есть раны"),
    "incapacitated": T("incapacitated", "недееспособность"),
    "dead": T("dead", "смерть"),
}


def _bad(code: str, en: str, ru: str) -> RuleError:
    return RuleError(code, T(en, ru))


def _amount(amount: Any, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise _bad(
            "bad_amount",
            f"{what} must be a whole number >= 0 (is {amount!r}).",
            f"{'Урон' if what == 'Damage' else 'Лечение'} — целое число >= 0 (сейчас {amount!r}).",
        )
    return amount


def _outcome(c, changes: dict, notes: list, rules: Mapping[str, Any], **details) -> DamageOutcome:
    state = health_state(c, rules)
    return DamageOutcome(
        changes=changes,
        notes=notes,
        defeated=state in ("dead", "incapacitated"),
        state=STATE_LABELS.get(state, T(state, state)),
        details={**details, "state": state},
    )


def apply_damage(
    c,
    amount: int,
    *,
    damage_type: str = "physical",
    zone: str = "torso",
    transforming: bool = False,
    spell: bool = False,
    undead: bool = False,
    heads: int = 1,
    rules: Mapping[str, Any] = DEFAULT_RULES,
    note: str = "",
) -> DamageOutcome:
    """Reduce the pool matching the damage type (§3.4 [DEFAULT]); zone effects add Wounds.
    Doubled while the target transforms (L119): the option, or the character's ``transforming``.
    ``details["wound"]`` names a wound recorded here (the tracker need not add its condition)."""
    _amount(amount, "Damage")
    pools = rules.get("damage_type_pools") or DEFAULT_RULES["damage_type_pools"]
    if damage_type not in pools:
        raise _bad(
            "bad_damage_type",
            f"Unknown damage type {damage_type!r} (known: {', '.join(pools)}).",
            f"Неизвестный тип урона {damage_type!r} (известны: {', '.join(pools)}).",
        )
    if zone not in ZONE_PENALTY:
        raise _bad(
            "bad_zone",
            f"Unknown hit zone {zone!r} (known: {', '.join(ZONE_PENALTY)}).",
            f"Неизвестная зона {zone!r} (известны: {', '.join(ZONE_PENALTY)}).",
        )
    if isinstance(heads, bool) or not isinstance(heads, int) or heads < 1:
        raise _bad("bad_heads", "Heads: a whole number >= 1.", "Голов: целое число >= 1.")
    pool = pools[damage_type]
    doubled = bool(transforming) or bool(getattr(c, "transforming", False))
    dmg = amount * 2 if doubled else amount  # L119
    changes: dict = {}
    notes: list = []
    old = getattr(c, pool)
    new = old - dmg
    if pool != "hp":
        new = max(0, new)
    eff = zone_effect(zone, dmg, c.hp_max, spell=spell, undead=undead, heads=heads) if pool == "hp" else None
    with c.hold_trait_notifications():
        setattr(c, pool, new)
        if eff is not None:
            wounds = list(c.wounds) + [eff.wound(note)]
            changes["wounds"] = (list(c.wounds), wounds)
            c.wounds = wounds
    changes[pool] = (old, getattr(c, pool))
    if doubled:
        notes.append(T("doubled: target is transforming", "удвоено: цель в трансформации"))  # L119
    if eff is not None:
        notes.append(eff.label)
    return _outcome(
        c,
        changes,
        notes,
        rules,
        pool=pool,
        damage=dmg,
        zone_effect=eff.kind if eff else None,
        wound=eff.kind if eff else None,
    )


def damage_options(character) -> list[OptionSpec]:
    """What the tracker offers when dealing damage: the type, the zone and the target's state."""
    return [
        OptionSpec(
            "damage_type",
            T("Damage type", "Тип урона"),
            "choice",
            "physical",
            choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.rows("damage_types")),
        ),
        OptionSpec(
            "zone",
            T("Hit zone", "Зона попадания"),
            "choice",
            "torso",
            choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.rows("zones")),
        ),
        OptionSpec("transforming", T("Target transforming (×2)", "Цель в трансформации (×2)"), "bool", False),
        OptionSpec("spell", T("Spell (thresholds ×2)", "Заклинание (пороги ×2)"), "bool", False),
        OptionSpec("undead", T("Undead", "Нежить"), "bool", False),
        OptionSpec("heads", T("Heads", "Голов"), "int", 1, 1, 9),
    ]


def healing_options(c, rules: Mapping[str, Any] = DEFAULT_RULES) -> list[OptionSpec]:
    """What the tracker offers when healing: the pool (HP/EP/SP/IP, §3.4) or, equivalently, the
    damage type being healed (mapped by OPTION damage_type_pools), and whether to lift a state
    the GM set. The seed gives no recovery rules (A-10): amounts are the GM's."""
    pools = rules.get("damage_type_pools") or DEFAULT_RULES["damage_type_pools"]
    return [
        OptionSpec(
            "pool",
            T("Pool to restore", "Какое здоровье восстановить"),
            "choice",
            "hp",
            choices=tuple((k, POOL_LABELS[k]) for k in ("hp", "ep", "sp", "ip")),
            help=T(
                "Physical → HP, pattern → EP, spiritual → SP, idea → IP",  # L128-L130, L328
                "Физический → HP, узорный → EP, духовный → SP, идейный → IP",
            ),
        ),  # L128-L130, L328
        OptionSpec(
            "damage_type",
            T("Or: damage type healed", "Или: тип исцеляемого урона"),
            "choice",
            "",
            choices=(("", T("(use the pool)", "(по виду здоровья)")),)
            + tuple(
                (
                    k,
                    T(
                        k,
                        {
                            "physical": "физический",
                            "pattern": "узорный",
                            "spiritual": "духовный",
                            "idea": "идейный",
                        }.get(k, k),
                    ),
                )
                for k in pools
            ),
        ),
        OptionSpec(
            "clear_status",
            T("Also lift 'incapacitated' set by the GM", "Снять «Недееспособность», поставленное Мастером"),
            "bool",
            False,
            gm_only=True,
        ),
    ]


def apply_healing(
    c,
    amount: int,
    *,
    pool: str = "hp",
    damage_type: str = "",
    clear_status: bool = False,
    rules: Mapping[str, Any] = DEFAULT_RULES,
) -> DamageOutcome:
    """Restore a pool up to its max (no rules for recovery in the seed, A-10: the GM sets the
    amount). ``damage_type`` picks the pool by OPTION damage_type_pools instead of ``pool``."""
    _amount(amount, "Healing")
    if damage_type:
        pools = rules.get("damage_type_pools") or DEFAULT_RULES["damage_type_pools"]
        if damage_type not in pools:
            raise _bad(
                "bad_damage_type",
                f"Unknown damage type {damage_type!r} (known: {', '.join(pools)}).",
                f"Неизвестный тип урона {damage_type!r} (известны: {', '.join(pools)}).",
            )
        pool = pools[damage_type]
    if pool not in ("hp", "ep", "sp", "ip"):
        raise _bad(
            "bad_pool",
            f"Unknown pool {pool!r} (hp, ep, sp, ip).",
            f"Неизвестный вид здоровья {pool!r}: HP, EP, SP или IP.",
        )
    old = getattr(c, pool)
    changes: dict = {}
    notes: list = []
    with c.hold_trait_notifications():
        setattr(c, pool, min(getattr(c, pool + "_max"), old + amount))
        if clear_status and getattr(c, "status", "") == "incapacitated":
            c.status = ""
            changes["status"] = ("incapacitated", "")
            notes.append(T("no longer incapacitated (GM)", "недееспособность снята (Мастер)"))
    changes[pool] = (old, getattr(c, pool))
    return _outcome(c, changes, notes, rules, pool=pool, healed=getattr(c, pool) - old)


# -- ongoing effects and tracker conditions (§6.10, §6.12) ------------------------------------------------
WOUND_CONDITIONS = {
    "limb_broken": "limb",
    "limb_severed": "limb",
    "tail_severed": "tail",
    "face_lost": "head_face",
    "skull_pierced_wound": "head_skull",
    "head_severed": "neck",
}


def on_turn(
    c,
    when: str,
    *,
    rng: random.Random | None = None,
    conditions: Sequence[Mapping[str, Any]] = (),
    rules: Mapping[str, Any] = DEFAULT_RULES,
) -> DamageOutcome | None:
    """Per-turn effects at the start/end of the character's own turn.

    * L119: a transformation lasts "until the character's next action": the start of its next
      turn clears ``transforming`` (damage is no longer doubled).
    * The seed has no bleeding, burning or regeneration rules (A-10). [DEFAULT] the GM records an
      ongoing effect of a spell or style (L305 "unless the style says otherwise", L318
      "accelerated regeneration") as the condition ``ongoing_damage`` (data ``amount``,
      ``damage_type``, ``when``) or ``regeneration`` (data ``amount``, ``pool``, ``when``);
      ``when`` defaults to ``"start"``. They apply here, in the order the tracker lists them.
    Bad condition data -> RuleError, nothing applied."""
    if when not in ("start", "end"):
        raise _bad("bad_when", f"'when' is start or end (is {when!r}).", f"'when' — start или end (сейчас {when!r}).")
    steps = []
    for inst in conditions or ():
        cid = inst.get("id") if isinstance(inst, Mapping) else None
        if cid not in ("ongoing_damage", "regeneration"):
            continue
        # the catalogue's data are the defaults (amount 1, physical / HP, at the start)
        d = {**dict(_CATALOGUE_DATA.get(cid, {})), **dict(inst.get("data") or {})}
        at = d.get("when", "start")
        if at not in ("start", "end"):
            raise _bad(
                "bad_when",
                f"{cid}: 'when' is start or end (is {at!r}).",
                f"{cid}: 'when' — start или end (сейчас {at!r}).",
            )
        amount = _amount(d.get("amount", 0), "Damage" if cid == "ongoing_damage" else "Healing")
        if cid == "ongoing_damage":
            dt = d.get("damage_type", "physical")
            pools = rules.get("damage_type_pools") or DEFAULT_RULES["damage_type_pools"]
            if dt not in pools:
                raise _bad(
                    "bad_damage_type", f"{cid}: unknown damage type {dt!r}.", f"{cid}: неизвестный тип урона {dt!r}."
                )
            if at == when and amount:
                steps.append(("damage", amount, {"damage_type": dt}))
        else:
            pool = d.get("pool", "hp")
            if pool not in ("hp", "ep", "sp", "ip"):
                raise _bad("bad_pool", f"{cid}: unknown pool {pool!r}.", f"{cid}: неизвестный вид здоровья {pool!r}.")
            if at == when and amount:
                steps.append(("heal", amount, {"pool": pool}))
    changes: dict = {}
    notes: list = []
    if when == "start" and getattr(c, "transforming", False):
        c.transforming = False
        changes["transforming"] = (True, False)
        notes.append(
            T(
                "transformation over: damage no longer doubled",  # L119
                "трансформация закончилась: урон больше не удваивается",
            )
        )  # L119
    for kind, amount, kw in steps:
        if kind == "damage":
            o = apply_damage(c, amount, rules=rules, **kw)
            notes.append(
                T(
                    f"ongoing damage {amount} ({kw['damage_type']})",
                    f"продолжающийся урон {amount} ({kw['damage_type']})",
                )
            )
        else:
            o = apply_healing(c, amount, rules=rules, **kw)
            notes.append(
                T(f"regeneration +{amount} {kw['pool'].upper()}", f"регенерация +{amount} {kw['pool'].upper()}")
            )
        for k, (a, b) in o.changes.items():
            changes[k] = (changes[k][0] if k in changes else a, b)
        notes.extend(n for n in o.notes if n not in notes)
    if not changes:
        return None
    return _outcome(c, changes, notes, rules)


def condition_changed(
    c,
    condition_id: str,
    active: bool,
    data: Mapping[str, Any] | None = None,
    *,
    rules: Mapping[str, Any] = DEFAULT_RULES,
) -> DamageOutcome | None:
    """Reflect a catalogue condition the tracker added (``active``) or removed on the character:

    * ``transforming`` -> ``c.transforming`` (damage doubled, L119);
    * ``dead`` / ``incapacitated`` -> ``c.status`` (defeated; removing lifts only that state —
      a lethal wound keeps the character dead);
    * a wound condition (``limb_broken``...) -> a Wounds entry ``{zone, kind, note}`` (data
      ``note``; data ``record=False`` when ``apply_damage`` already recorded it); removing it
      removes the latest entry of that kind;
    * the others (held action, not participating, spells, ongoing effects) leave the sheet alone.
    """
    data = dict(data or {})
    known = {s.id for s in CONDITIONS}
    if condition_id not in known:
        raise _bad(
            "unknown_condition", f"Unknown condition {condition_id!r}.", f"Неизвестное состояние {condition_id!r}."
        )
    changes: dict = {}
    notes: list = []
    if condition_id == "transforming":
        if bool(c.transforming) != bool(active):
            changes["transforming"] = (c.transforming, bool(active))
            c.transforming = bool(active)
    elif condition_id in ("dead", "incapacitated"):
        old = c.status
        if active and not (condition_id == "incapacitated" and old == "dead"):
            new = condition_id
        elif not active and old == condition_id:
            new = ""
        else:
            new = old
        if new != old:
            c.status = new
            changes["status"] = (old, new)
    elif condition_id in WOUND_CONDITIONS:
        note = data.get("note", "")
        if not isinstance(note, str):
            raise _bad("bad_note", "A wound note is text.", "Заметка о травме — текст.")
        wounds = list(c.wounds)
        if active and data.get("record", True):
            wounds.append({"zone": WOUND_CONDITIONS[condition_id], "kind": condition_id, "note": note})
            spec = next((x for x in CONDITIONS if x.id == condition_id), None)
            what = spec.label if spec is not None else T("wound", "травма")
            notes.append(T(f"wound recorded: {what['en']}", f"травма записана: {what['ru']}"))
        elif not active:
            idx = next((i for i in range(len(wounds) - 1, -1, -1) if wounds[i].get("kind") == condition_id), None)
            if idx is not None:
                del wounds[idx]
                notes.append(T(f"wound removed: {condition_id}", f"травма снята: {condition_id}"))
        if wounds != list(c.wounds):
            changes["wounds"] = (list(c.wounds), wounds)
            c.wounds = wounds
    if not changes:
        return None
    return _outcome(c, changes, notes, rules)


def add_wound(c, kind: str, zone: str | None = None, note: str = "") -> dict:
    """Record a wound (A-36: no mechanical effect; a lethal kind makes the character dead).
    ``kind`` is a ``wound_kinds`` id or free text (then ``zone`` is needed). Returns the entry."""
    row = data.row("wound_kinds", kind) if isinstance(kind, str) else None
    if not isinstance(kind, str) or not kind.strip():
        raise _bad("bad_wound", "A wound needs a kind.", "У травмы должен быть вид.")
    if zone is None:
        zone = (row or {}).get("zone", "")
    entry = {"zone": zone, "kind": kind.strip(), "note": note}
    c.update(wounds=list(c.wounds) + [entry])  # all-or-nothing: ValidationError on a bad zone
    return entry


def remove_wound(c, index: int) -> dict:
    """Remove the wound at ``index`` (0-based; a healed or mistaken entry). Returns it."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(c.wounds):
        raise _bad(
            "bad_wound_index",
            f"No wound #{index!r} (there are {len(c.wounds)}).",
            f"Нет травмы №{index!r} (всего {len(c.wounds)}).",
        )
    wounds = list(c.wounds)
    gone = wounds.pop(index)
    c.wounds = wounds
    return gone


def transformed_damage(amount: int, transforming: bool) -> int:
    return amount * 2 if transforming else amount


def luck_targeting(successes: Mapping[str, int]) -> list[str]:
    """[DEFAULT A-40] the candidate(s) with the fewest Luck successes; several -> they roll again."""
    low = min(successes.values())
    return [k for k, v in successes.items() if v == low]


def pick_luck_target(
    candidates: Mapping[str, Any], rng: random.Random, max_rounds: int = 50, rules: Mapping[str, Any] = DEFAULT_RULES
) -> tuple[str | None, list]:
    """Roll Luck for every candidate until one alone has the fewest successes (OPTION
    luck_targeting="gm": no roll, the GM picks -> (None, []))."""
    if rules.get("luck_targeting", "lowest_roll") == "gm":
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


CONDITIONS = [
    ConditionSpec(
        "transforming",
        T("Transforming", "Трансформация"),
        T(
            "All damage taken is doubled until the character's next action.",  # L119
            "Весь получаемый урон удваивается до следующего действия персонажа.",
        ),  # L119
        duration=1,
        unit="turns",
        ticks_at="start",
    ),
    ConditionSpec(
        "incapacitated",
        T("Incapacitated", "Недееспособность"),
        T(
            "HP 0 or less: cannot act; the GM rules on death [DEFAULT].",
            "HP 0 или меньше: не действует; о смерти решает Мастер [по умолчанию].",
        ),
        unit="until_removed",
    ),
    ConditionSpec(
        "dead",
        T("Dead", "Смерть"),
        T(
            "Decapitated or skull pierced.",  # L264, L268
            "Голова отрублена или череп пробит.",
        ),
        unit="until_removed",
    ),  # L264, L268
    ConditionSpec(
        "limb_broken",
        T("Limb broken", "Конечность сломана"),
        T("Wound entry; no mechanical effect in the text (GM).", "Травма; механики в тексте нет (Мастер)."),
        unit="until_removed",
        stacks=True,
    ),
    ConditionSpec(
        "limb_severed",
        T("Limb severed", "Конечность отрублена"),
        T("Wound entry.", "Травма."),  # L260
        unit="until_removed",
        stacks=True,
    ),
    ConditionSpec(
        "tail_severed",
        T("Tail severed", "Хвост отрублен"),
        T("Wound entry.", "Травма."),  # L262
        unit="until_removed",
    ),
    ConditionSpec(
        "face_lost",
        T("Lost ear/eye/nose", "Потеря уха/глаза/носа"),
        T("Wound entry.", "Травма."),  # L266
        unit="until_removed",
        stacks=True,
    ),
    ConditionSpec(
        "skull_pierced_wound",
        T("Skull pierced (survived)", "Череп пробит (выжил)"),
        T("Undead or many-headed: wound entry.", "Нежить или многоглавый: травма."),
        unit="until_removed",
    ),  # L268
    ConditionSpec(
        "head_severed",
        T("Head severed (undead)", "Голова отрублена (нежить)"),
        T("Undead survives decapitation: wound entry.", "Нежить переживает: травма."),
        unit="until_removed",
    ),  # L264
    ConditionSpec(
        "delayed_action",
        T("Holding an action", "Отложенное действие"),
        T(
            "May act at any later moment of the round; lost at its end.",  # L241
            "Может действовать в любой момент раунда; пропадает в конце раунда.",
        ),  # L241
        duration=1,
        unit="rounds",
        ticks_at="end",
    ),
    ConditionSpec(
        "not_participating",
        T("Not participating", "Не участвует"),
        T("Takes no actions until joining the combat.", "Не действует, пока не вступит в бой."),  # L214
        unit="until_removed",
    ),
    ConditionSpec(
        "failed_coordination",
        T("Failed coordination", "Провал слаженности"),
        T("Does not attack in round 1.", "Не атакует в первом раунде."),  # L252
        duration=1,
        unit="rounds",
        ticks_at="end",
    ),
    ConditionSpec(
        "ongoing_damage",
        T("Ongoing damage", "Продолжающийся урон"),
        T(
            "GM-set per-turn damage of a spell or style: how much, its type, and when it comes.",
            "Урон каждый ход от заклинания или стиля: сколько, какого типа и когда, задаёт Мастер.",
        ),
        duration=None,
        unit="rounds",
        ticks_at="end",
        stacks=True,
        data={"amount": 1, "damage_type": "physical", "when": "start"},
    ),
    ConditionSpec(
        "regeneration",
        T("Regeneration", "Регенерация"),
        T(
            "GM-set per-turn healing, e.g. an accelerated-regeneration spell: how much, which health, and when it comes.",  # L318
            "Лечение каждый ход, например заклинание ускоренной регенерации: сколько, какое здоровье и когда, задаёт Мастер.",
        ),  # L318
        duration=None,
        unit="rounds",
        ticks_at="end",
        stacks=True,
        data={"amount": 1, "pool": "hp", "when": "start"},
    ),
    ConditionSpec(
        "spell_active",
        T("Spell active", "Действует заклинание"),
        T(
            "Lasts brightness rounds, or ends at once when it takes effect.",  # L307
            "Длится «яркость» раундов или кончается, как только подействует.",
        ),  # L307
        duration=None,
        unit="rounds",
        ticks_at="end",
        stacks=True,
    ),
]


def join_combat(
    current: InitiativeOrder,
    combatants: Mapping[str, Any],
    newcomers: Sequence[str],
    *,
    rng: random.Random | None = None,
    rules: Mapping[str, Any] = DEFAULT_RULES,
) -> InitiativeOrder:
    """L220: the order holds until new characters join. [DEFAULT A-06] everybody re-rolls
    (OPTION initiative_on_join="insert_newcomers": only the newcomers roll and are slotted in by
    the same key; existing combatants keep their relative order)."""
    if rules.get("initiative_on_join", "reroll_all") == "reroll_all":
        return roll_initiative(combatants, rng=rng, rules=rules)
    fresh = roll_initiative({k: combatants[k] for k in newcomers}, rng=rng, rules=rules)
    rolls = dict(current.rolls)
    rolls.update(fresh.rolls)
    order = list(current.order)
    for nid in fresh.order:
        key = rolls[nid].key
        pos = next((i for i, oid in enumerate(order) if rolls[oid].key < key), len(order))
        order.insert(pos, nid)
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=list(current.tiebreaks) + list(fresh.tiebreaks))


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
    transforming: bool = False,
    undead: bool = False,
    heads: int = 1,
    rng: random.Random | None = None,
    att_faces: Sequence[int] | None = None,
    def_faces: Sequence[int] | None = None,
    rules: Mapping[str, Any] = DEFAULT_RULES,
) -> AttackOutcome:
    """One physical attack between two characters (L232-L236, L272-L274): the attacker's check
    (e.g. ``dexterity+swords``) minus the zone penalty vs the defender's block/dodge check
    (``None``: no reaction, 0 successes). Weapon damage defaults to the attacker's equipped
    weapon, else unarmed ``hand_damage``; armour to the defender's ``armour_level``; the helmet
    is the defender's. Nothing is applied: pass ``damage`` to ``apply_damage``."""
    from .checks import resolve

    rng = rng if rng is not None else random.Random()
    a_spec = resolve(attacker, attack_check, rules)
    n_att = a_spec.pool - ZONE_PENALTY[zone]
    a = read_faces(
        list(att_faces) if att_faces is not None else roll_faces(n_att, rng),
        penalty=a_spec.penalty,
        epic=att_epic,
        pool=n_att,
        fumble_basis=rules.get("fumble_basis", "net"),
    )
    d = None
    if defender is not None and defence_check is not None:
        d_spec = resolve(defender, defence_check, rules)
        n_def = block_pool(d_spec.pool, direction) if block else d_spec.pool
        d = read_faces(
            list(def_faces) if def_faces is not None else roll_faces(n_def, rng),
            penalty=d_spec.penalty,
            epic=def_epic,
            pool=n_def,
            fumble_basis=rules.get("fumble_basis", "net"),
        )
    if weapon_damage is None:
        w = attacker.worn("weapon")
        weapon_damage = int(w.get("damage", 0)) if w else attacker.hand_damage
    if armour is None:
        armour = defender.armour_level if defender is not None else 0
    helmet = defender.helmet if defender is not None else "none"
    max_hp = defender.hp_max if defender is not None else None
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
        rules=rules,
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
    rules: Mapping[str, Any] = DEFAULT_RULES,
    **kw,
) -> tuple[AttackOutcome, AttackOutcome | None]:
    """A counterattack (L233) against an incoming attack. [DEFAULT A-13] "separate_attack": the
    incoming attack meets the defender's own block/dodge (``defence``, or none), and the
    counterattack is its own attack against the attacker's reaction (``attacker_defence``).
    OPTION "exchange": the counter roll is also the defence; if it wins it hits the attacker.
    Returns (outcome on the defender, outcome on the attacker or None)."""
    if rules.get("counterattack_mode", "separate_attack") == "exchange":
        incoming = resolve_attack(att, counter, att_weapon, defender_armour, rules=rules, **kw)
        back = (
            resolve_attack(counter, att, counter_weapon, attacker_armour, rules=rules)
            if counter.net > att.net
            else None
        )
        return incoming, back
    incoming = resolve_attack(att, defence, att_weapon, defender_armour, rules=rules, **kw)
    back = resolve_attack(counter, attacker_defence, counter_weapon, attacker_armour, rules=rules)
    return incoming, back


def dodge_spell(cast_net: int, dodge_net: int) -> bool:
    """[DEFAULT A-21] dodging a visible spell: opposed, ties to the dodger; True = dodged."""
    return cast_net <= dodge_net


_CATALOGUE_DATA = {s.id: s.data for s in CONDITIONS}
