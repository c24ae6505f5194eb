"""Initiative (spec §6.2, L719-L732): Perception rolls with the tie-break chain, the round order."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import Effect, InitiativeOrder, InitiativeRoll, RuleError, T
from tabletop_widgets.core.options import GmOptions

from .checks import auto_modifiers, roll_result_for
from .level import LevelRoll, level_roll

ROLL_OFF_LIMIT = 3


def initiative_score(res: LevelRoll) -> tuple[int, int]:
    """Sort key (descending): (2, total) normal; (1, d4) non-critical fail, at the end of the queue
    ordered by d4 (L732, L534); (0, 0) critical fail, last and skipping round 1 (L732)."""
    if not res.fail:
        return (2, res.total)
    if not res.critical:
        return (1, res.fail_degree)
    return (0, 0)


def _init_text(res: LevelRoll) -> dict:
    if not res.fail:
        return T(f"{res.total}", f"{res.total}")
    if res.critical:
        return T("critical fail — skips round 1", "крит. провал — пропускает 1-й раунд")
    return T(f"fail {res.fail_degree}", f"провал {res.fail_degree}")


def roll_initiative(
    combatants: Mapping[str, Any],
    *,
    rng: random.Random | None = None,
    options: GmOptions,
    luck: Mapping[str, int] | None = None,
    pcs: Sequence[str] | None = None,
    sides: Mapping[str, str] | None = None,
    group_mode: bool = False,
) -> InitiativeOrder:
    """Perception rolls for ``{id: character}`` (L721). Tie-break chain for equal scores:
    (1) a PC beats an NPC when ``pcs_win_ties`` (L727, A25); (2) roll-off: the tied parties roll
    Perception again, up to three times (L721); (3) final fallback: the order the combatants were
    given (deterministic). Every tie-break used is reported."""
    rng = rng if rng is not None else random.Random()
    luck = luck or {}
    ids = list(combatants)
    _check_declared_luck(combatants, luck)
    rolls: dict[str, LevelRoll] = {}
    for i in ids:
        c = combatants[i]
        s, f, parts = auto_modifiers(c, "perception")
        rolls[i] = level_roll(
            c.value("perception"), bonus=f, luck=int(luck.get(i, 0)), shift=s, rng=rng, options=options, bonuses=parts
        )
    is_pc = {i: (i in pcs) if pcs is not None else not getattr(combatants[i], "is_npc", False) for i in ids}
    primary, pc_key, speed = _tie_keys(combatants, rolls, is_pc, options=options)
    rolloffs, tiebreaks = _roll_offs(combatants, primary, pc_key, rng, options=options)
    pcs_first, by_speed = _priority_notes(primary, pc_key, speed, options.initiative_speed)
    tiebreaks = pcs_first + tiebreaks + by_speed

    def full_key(i):
        ro = tuple(x for pair in rolloffs[i] for x in pair)
        ro = ro + (-99,) * (2 * ROLL_OFF_LIMIT - len(ro))
        return (primary[i],) + pc_key[i] + ro + (-ids.index(i),)

    order = sorted(ids, key=full_key, reverse=True)
    if group_mode and sides:
        order = _group_blocks(order, sides, tiebreaks)
    out_rolls = {i: _initiative_roll(i, rolls[i], full_key(i)) for i in ids}
    return InitiativeOrder(order=order, rolls=out_rolls, tiebreaks=tiebreaks)


def _check_declared_luck(combatants: Mapping[str, Any], luck: Mapping[str, int]) -> None:
    for i, n in luck.items():
        if i not in combatants:
            raise RuleError(
                "unknown_combatant", T(f"Luck declared for unknown {i}", f"Удача заявлена за неизвестного {i}")
            )
        have = int(getattr(combatants[i], "luck", 0) or 0)
        if int(n) < 0 or int(n) > have:
            raise RuleError(
                "not_enough_luck",
                T(f"{i}: Luck declared must be 0..{have}", f"{i}: заявленная Удача должна быть 0..{have}"),
            )


def _tie_keys(
    combatants: Mapping[str, Any],
    rolls: Mapping[str, LevelRoll],
    is_pc: Mapping[str, bool],
    *,
    options: GmOptions,
) -> tuple[dict[str, tuple], dict[str, tuple], dict[str, int]]:
    """(score, PC priority with Speed, Speed) of each combatant: Speed as a bonus or a tie-break
    by the GM's reading of L729."""
    speed_mode = options.initiative_speed
    if speed_mode not in (None, "tiebreak", "bonus"):
        raise RuleError(
            "bad_rule",
            T("initiative_speed is None, 'tiebreak' or 'bonus'", "initiative_speed: None, 'tiebreak' или 'bonus'"),
        )
    ids = list(rolls)
    speed = {i: int(getattr(combatants[i], "speed", 0) or 0) for i in ids}
    primary = {i: initiative_score(rolls[i]) for i in ids}
    if speed_mode == "bonus":  # L729 reading 1: Speed moves a success up the queue
        primary = {i: (s[0], s[1] + speed[i]) if s[0] == 2 else s for i, s in primary.items()}
    pc_first = options.pcs_win_ties
    pc_key = {i: ((1 if is_pc[i] else 0) if pc_first else 0, 0) for i in ids}
    if speed_mode == "tiebreak":  # L729 reading 2: higher Speed first among equals
        pc_key = {i: (pc_key[i][0], speed[i]) for i in ids}
    return primary, pc_key, speed


def _roll_offs(
    combatants: Mapping[str, Any],
    primary: Mapping[str, tuple],
    pc_key: Mapping[str, tuple],
    rng: random.Random,
    *,
    options: GmOptions,
) -> tuple[dict[str, list], list[dict]]:
    """Roll-offs of Perception among the groups still tied after the PC priority (L721), up to
    ROLL_OFF_LIMIT times; each one reported."""
    ids = list(primary)
    rolloffs: dict[str, list] = {i: [] for i in ids}
    tiebreaks: list[dict] = []
    groups: dict[tuple, list[str]] = {}
    for i in ids:
        groups.setdefault((primary[i], pc_key[i]), []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        pending = [members]
        for _ in range(ROLL_OFF_LIMIT):
            nxt = []
            for grp in pending:
                for m in grp:
                    r = level_roll(combatants[m].value("perception"), rng=rng, options=options)
                    rolloffs[m].append(initiative_score(r))
                by: dict[tuple, list[str]] = {}
                for m in grp:
                    by.setdefault(rolloffs[m][-1], []).append(m)
                nxt.extend(g for g in by.values() if len(g) > 1)
            pending = nxt
            if not pending:
                break
        names = ", ".join(members)
        tiebreaks.append(
            {
                **T(
                    f"tie {names}: roll-off of Perception"
                    + ("; still tied — kept in the given order" if pending else ""),
                    f"равенство: {names} — переброс Восприятия"
                    + ("; снова равенство — порядок как задан" if pending else ""),
                ),
                "ids": list(members),
                "kind": "roll_off",
            }
        )
    return rolloffs, tiebreaks


def _priority_notes(
    primary: Mapping[str, tuple], pc_key: Mapping[str, tuple], speed: Mapping[str, int], speed_mode: str | None
) -> tuple[list[dict], list[dict]]:
    """The ties that PC priority (L727) and Speed (L729) broke, in that order: the PC notes first."""
    by_primary: dict[tuple, list[str]] = {}
    for i in primary:
        by_primary.setdefault(primary[i], []).append(i)
    pcs_first: list[dict] = []
    by_speed: list[dict] = []
    for members in by_primary.values():
        if len({pc_key[m][0] for m in members}) > 1:
            pcs_first.insert(
                0,
                {
                    **T(
                        f"tie {', '.join(members)}: player characters act first",  # L727
                        f"равенство: {', '.join(members)} — персонажи игроков ходят первыми",
                    ),  # L727
                    "ids": list(members),
                    "kind": "pcs_first",
                },
            )
        if speed_mode == "tiebreak" and len({speed[m] for m in members}) > 1:
            by_speed.append(
                {
                    **T(
                        f"tie {', '.join(members)}: higher Speed acts first",  # L729
                        f"равенство: {', '.join(members)} — первым ходит тот, у кого выше Скорость",
                    ),  # L729
                    "ids": list(members),
                    "kind": "speed",
                }
            )
    return pcs_first, by_speed


def _group_blocks(order: list[str], sides: Mapping[str, str], tiebreaks: list[dict]) -> list[str]:
    """Group mode (L721, L723): the sides act as blocks, the side of the best roll first, then
    alternating; inside a block the usual order."""
    blocks: dict[str, list[str]] = {}
    for i in order:
        blocks.setdefault(sides.get(i, "opponents"), []).append(i)
    order = [i for side in blocks for i in blocks[side]]
    tiebreaks.append(
        {
            **T(f"group mode: {' → '.join(blocks)}", f"групповой режим: {' → '.join(blocks)}"),
            "ids": list(order),
            "kind": "group_mode",
        }
    )
    return order


def _initiative_roll(cid: str, res: LevelRoll, key: tuple) -> InitiativeRoll:
    rr = roll_result_for(
        res,
        f"L{res.level}",
        extra_details={
            "effects": initiative_effects(res),  # Luck/Sanity as data, not applied
            "skips_round_1": res.fail and res.critical,
        },
    )
    return InitiativeRoll(
        combatant_id=cid,
        key=key,
        text=_init_text(res),
        roll=rr,
        skip_rounds=1 if (res.fail and res.critical) else 0,  # L732
        effects=tuple(initiative_effects(res)),
    )


def initiative_effects(res: LevelRoll) -> list[Effect]:
    """Initiative rolls gain Luck on fails and Sanity on successes like any roll (spec §6.2)."""
    out = []
    if res.luck_spent:
        out.append(Effect("luck", -res.luck_spent, T("Luck declared", "заявленная Удача")))
    if res.luck_gained:
        out.append(Effect("luck", res.luck_gained, T("Luck for a fail", "Удача за провал")))
    if res.sanity_gained:
        out.append(Effect("sanity", res.sanity_gained, T("success dice", "кубы успеха")))
    return out


def skips_round_1(order: InitiativeOrder, cid: str) -> bool:
    return order.rolls[cid].skip_rounds > 0 or order.rolls[cid].key[0] == (0, 0)


def round_order(order: InitiativeOrder, round_no: int, initiator: str | None = None) -> list[str]:
    """Turn order of a round: in round 1 the initiator acts first (L731) — once only (A24) — and
    critical initiative fails skip their turn (L732)."""
    ids = list(order.order)
    ids = [
        i
        for i in ids
        if i == initiator or not (order.rolls[i].skip_rounds >= round_no or (round_no == 1 and skips_round_1(order, i)))
    ]
    if round_no == 1:
        if initiator in ids:
            ids.remove(initiator)
            ids.insert(0, initiator)
    return ids
