"""Initiative, its tie-breaks and joining a fight, and coordinating an attack (spec §6.2-§6.3)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import (
    Effect,
    InitiativeOrder,
    InitiativeRoll,
    OptionSpec,
    RuleError,
    T,
)
from tabletop_widgets.core.wording import ru_n

from .dice import PoolResult, read_faces, roll_faces


# -- initiative (§6.3) ----------------------------------------------------------------------------------
def initiative_pool(c) -> int:
    """Dex + Alert (+2 Speed, L220; -1 closed helmet, L159 [DEFAULT a die]); floored at 0."""
    return c.initiative_pool


def roll_initiative(
    combatants: Mapping[str, Any],
    *,
    rng: random.Random | None = None,
    epic: Mapping[str, int] | None = None,
    faces: Mapping[str, Sequence[int]] | None = None,
    options: Mapping[str, Any],
) -> InitiativeOrder:
    """Each combatant rolls its initiative pool; the successes are its initiative (L220).
    Ties [DEFAULT A-06]: higher pool, then higher Dexterity, then a d10 roll-off (repeated until
    it separates; a final fallback on the id keeps the order total). Dice are rolled in the
    order of ``combatants``; roll-off dice only where needed, in order, after all pools."""
    epic = _initiative_epic(combatants, epic, options=options)  # checked before any die is rolled
    rng = rng if rng is not None else random.Random()
    results: dict[str, PoolResult] = {}
    for cid, c in combatants.items():
        fs = list(faces[cid]) if faces and cid in faces else roll_faces(c.initiative_pool, rng)
        results[cid] = read_faces(fs, epic=int(epic.get(cid, 0)), pool=c.initiative_pool)
    mode = options.initiative_tiebreak

    def chain(cid):
        c = combatants[cid]
        if mode == "pool_dex_random":
            return (results[cid].net, c.initiative_pool, c.dexterity)
        return (results[cid].net,)

    rolloff = _rolloffs(combatants, chain, mode, rng)

    # sort: chain, roll-offs (descending), then id as the deterministic last resort
    def sort_key(cid):
        return chain(cid) + tuple(rolloff[cid])

    order = sorted(combatants, key=lambda cid: (tuple(-x for x in sort_key(cid)), cid))
    tiebreaks = [
        {**_tie_reason(a, b, combatants, results, rolloff, mode), "ids": [a, b]}  # the tracker shows names
        for a, b in zip(order, order[1:])
        if results[a].net == results[b].net
    ]
    rolls = {
        cid: _initiative_roll(cid, results[cid], int(epic.get(cid, 0)), (results[cid].net,) + sort_key(cid)[1:])
        for cid in combatants
    }
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=tiebreaks)


def _rolloffs(combatants: Mapping[str, Any], chain, mode: str, rng: random.Random) -> dict[str, list[int]]:
    """Roll-offs among the groups still tied after the chain (a d10 each, or the whole pool
    again for ``reroll``), repeated until each group separates (at most 20 rounds)."""
    rolloff: dict[str, list[int]] = {cid: [] for cid in combatants}
    groups: dict[tuple, list[str]] = {}
    for cid in combatants:
        groups.setdefault(chain(cid), []).append(cid)
    if mode not in ("pool_dex_random", "reroll"):
        return rolloff
    for ids in groups.values():
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
    return rolloff


def _tie_reason(a: str, b: str, combatants, results, rolloff, mode: str) -> dict:
    """Why ``a`` goes before ``b`` when their successes are equal."""
    ra = results[a].net
    ca, cb = combatants[a], combatants[b]
    if mode == "pool_dex_random" and ca.initiative_pool != cb.initiative_pool:
        return T(
            f"{a} before {b}: same successes ({ra}), larger pool ({ca.initiative_pool} > {cb.initiative_pool})",
            f"{a} раньше {b}: успехов поровну ({ra}), пул больше ({ca.initiative_pool} > {cb.initiative_pool})",
        )
    if mode == "pool_dex_random" and ca.dexterity != cb.dexterity:
        return T(
            f"{a} before {b}: same successes and pool, higher Dexterity ({ca.dexterity} > {cb.dexterity})",
            f"{a} раньше {b}: успехи и пул равны, Ловкость выше ({ca.dexterity} > {cb.dexterity})",
        )
    if rolloff[a] != rolloff[b] and rolloff[a]:
        return T(
            f"{a} before {b}: roll-off {rolloff[a]} vs {rolloff[b]}",
            f"{a} раньше {b}: переброс {rolloff[a]} против {rolloff[b]}",
        )
    if mode == "simultaneous":
        return T(
            f"{a} and {b} act simultaneously ({ra} successes)",
            f"{a} и {b} действуют одновременно ({ru_n(ra, 'успех', 'успеха', 'успехов')})",
        )
    return T(
        f"{a} before {b}: still tied, ordered by id (GM may swap)",
        f"равенство: {a}, {b} — порядок по имени (мастер может поменять)",
    )


def _initiative_roll(cid: str, r: PoolResult, n_epic: int, key: tuple) -> InitiativeRoll:
    extra = (
        (f" (+{n_epic} epic)", f" (+{ru_n(n_epic, 'эпик-дайс', 'эпик-дайса', 'эпик-дайсов')})") if n_epic else ("", "")
    )
    return InitiativeRoll(
        cid,
        key,
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


def _initiative_epic(combatants: Mapping[str, Any], epic: Any, *, options: Mapping[str, Any]) -> dict[str, int]:
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
        if n and (options.mode == "quick" or getattr(c, "mode", "campaign") == "quick"):
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
    faces: Mapping[str, Sequence[int]] | None = None,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """Simultaneous attack (L252-L254): every attacker rolls coordination; those with no success
    do not attack in round 1 ([DEFAULT A-49] they lose their round-1 action). If nobody
    succeeds, only the attacker first in turn order attacks."""
    rng = rng if rng is not None else random.Random()
    n = len(attackers)
    rolls, ok = {}, []
    skip = options.bound_pattern_iii_skips_coordination and all(
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


def join_combat(
    current: InitiativeOrder,
    combatants: Mapping[str, Any],
    newcomers: Sequence[str],
    *,
    rng: random.Random | None = None,
    options: Mapping[str, Any],
) -> InitiativeOrder:
    """L220: the order holds until new characters join. [DEFAULT A-06] everybody re-rolls
    (OPTION initiative_on_join="insert_newcomers": only the newcomers roll and are slotted in by
    the same key; existing combatants keep their relative order)."""
    if options.initiative_on_join == "reroll_all":
        return roll_initiative(combatants, rng=rng, options=options)
    fresh = roll_initiative({k: combatants[k] for k in newcomers}, rng=rng, options=options)
    rolls = dict(current.rolls)
    rolls.update(fresh.rolls)
    order = list(current.order)
    for nid in fresh.order:
        key = rolls[nid].key
        pos = next((i for i, oid in enumerate(order) if rolls[oid].key < key), len(order))
        order.insert(pos, nid)
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=list(current.tiebreaks) + list(fresh.tiebreaks))
