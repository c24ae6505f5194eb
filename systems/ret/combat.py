"""RET combat (spec §6) as pure functions the generic tracker drives: initiative with its
tie-break chain, the turn economy with extra turns, attack modifiers, contests of attack and
defence, damage with armour durability and temporary armour, healing, condition ticks."""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import DamageOutcome, Effect, InitiativeOrder, InitiativeRoll, OptionSpec, RuleError, T
from tabletop_widgets.core.wording import ru_n

from . import data
from .checks import Divider, apply_divider, auto_modifiers, contest, roll_result_for
from .level import LevelRoll, level_roll
from .model import armour_locations


def _state_word(cond_id: str, locale: str) -> str:
    """A condition's name from the catalogue, for messages (never its id)."""
    row = next((r for r in data.table("conditions") if r.get("id") == cond_id), None)
    return row.get(locale) or row.get("en") if row else ("состояние" if locale == "ru" else "a condition")


# ---------------------------------------------------------------------------------------------
# Initiative (spec §6.2, L719-L732)
# ---------------------------------------------------------------------------------------------
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
    rules: Mapping[str, Any] | None = None,
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
    rules = rules or {}
    luck = luck or {}
    ids = list(combatants)
    is_pc = {i: (i in pcs) if pcs is not None else not getattr(combatants[i], "is_npc", False) for i in ids}
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
    rolls: dict[str, LevelRoll] = {}
    for i in ids:
        c = combatants[i]
        s, f, parts = auto_modifiers(c, "perception")
        rolls[i] = level_roll(
            c.value("perception"), bonus=f, luck=int(luck.get(i, 0)), shift=s, rng=rng, rules=rules, bonuses=parts
        )
    speed_mode = rules.get("initiative_speed")
    if speed_mode not in (None, "tiebreak", "bonus"):
        raise RuleError(
            "bad_rule",
            T("initiative_speed is None, 'tiebreak' or 'bonus'", "initiative_speed: None, 'tiebreak' или 'bonus'"),
        )
    speed = {i: int(getattr(combatants[i], "speed", 0) or 0) for i in ids}
    primary = {i: initiative_score(rolls[i]) for i in ids}
    if speed_mode == "bonus":  # L729 reading 1: Speed moves a success up the queue
        primary = {i: (s[0], s[1] + speed[i]) if s[0] == 2 else s for i, s in primary.items()}
    pc_key = {i: (1 if is_pc[i] else 0) if rules.get("pcs_win_ties", True) else 0 for i in ids}
    if speed_mode == "tiebreak":  # L729 reading 2: higher Speed first among equals
        pc_key = {i: (pc_key[i], speed[i]) for i in ids}
    else:
        pc_key = {i: (pc_key[i], 0) for i in ids}
    rolloffs: dict[str, list] = {i: [] for i in ids}
    tiebreaks: list[dict] = []
    # roll-offs among groups still tied after the PC priority
    groups: dict[tuple, list[str]] = {}
    for i in ids:
        groups.setdefault((primary[i], pc_key[i]), []).append(i)
    for key, members in groups.items():
        if len(members) < 2:
            continue
        pending = [members]
        for _ in range(ROLL_OFF_LIMIT):
            nxt = []
            for grp in pending:
                for m in grp:
                    c = combatants[m]
                    r = level_roll(c.value("perception"), rng=rng, rules=rules)
                    rolloffs[m].append(initiative_score(r))
                by: dict[tuple, list[str]] = {}
                for m in grp:
                    by.setdefault(rolloffs[m][-1], []).append(m)
                nxt.extend(g for g in by.values() if len(g) > 1)
            names = ", ".join(members)
            pending = nxt
            if not pending:
                break
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
    # PC-over-NPC ties reported
    by_primary: dict[tuple, list[str]] = {}
    for i in ids:
        by_primary.setdefault(primary[i], []).append(i)
    for score, members in by_primary.items():
        if len({pc_key[m][0] for m in members}) > 1:
            tiebreaks.insert(
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
            tiebreaks.append(
                {
                    **T(
                        f"tie {', '.join(members)}: higher Speed acts first",  # L729
                        f"равенство: {', '.join(members)} — первым ходит тот, у кого выше Скорость",
                    ),  # L729
                    "ids": list(members),
                    "kind": "speed",
                }
            )

    def full_key(i):
        ro = tuple(x for pair in rolloffs[i] for x in pair)
        ro = ro + (-99,) * (2 * ROLL_OFF_LIMIT - len(ro))
        return (primary[i],) + pc_key[i] + ro + (-ids.index(i),)

    order = sorted(ids, key=full_key, reverse=True)
    if group_mode and sides:
        # group mode (L721, L723): the sides act as blocks, the side of the best roll first,
        # then alternating; inside a block the usual order
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
    out_rolls = {}
    for i in ids:
        res = rolls[i]
        rr = roll_result_for(
            res,
            f"L{res.level}",
            extra_details={
                "effects": initiative_effects(res),  # Luck/Sanity as data, not applied
                "skips_round_1": res.fail and res.critical,
            },
        )
        out_rolls[i] = InitiativeRoll(
            combatant_id=i,
            key=full_key(i),
            text=_init_text(res),
            roll=rr,
            skip_rounds=1 if (res.fail and res.critical) else 0,  # L732
            effects=tuple(initiative_effects(res)),
        )
    return InitiativeOrder(order=order, rolls=out_rolls, tiebreaks=tiebreaks)


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


# ---------------------------------------------------------------------------------------------
# Turn economy and extra turns (spec §6.3-§6.4)
# ---------------------------------------------------------------------------------------------
@dataclass
class TurnState:
    speed_left: int
    attack_available: bool = True
    action_available: bool = True
    social_available: bool = True
    extra_turns_taken: int = 0
    defence_refused: bool = False
    sanity_went_negative: bool = False
    failed_self_control: bool = False
    actions_left: int = 1

    @classmethod
    def start(cls, c, rules: Mapping[str, Any] | None = None, *, tense: bool = False) -> "TurnState":
        """A fresh turn: Speed steps, an attack, an action, a social gesture (L742); a tense
        situation gives two actions instead (L694-701)."""
        st = cls(speed_left=effective_speed(c, rules))
        if tense:
            st.attack_available = False
            st.actions_left = 2
        return st

    def use(self, slot: str) -> None:
        if slot == "attack":
            if not self.attack_available:
                raise RuleError(
                    "no_attack", T("The attack of this turn is already used.", "Атака этого хода уже использована.")
                )
            self.attack_available = False
        elif slot == "action":
            if not self.action_available or self.actions_left <= 0:
                raise RuleError(
                    "no_action", T("The action of this turn is already used.", "Действие этого хода уже использовано.")
                )
            self.actions_left -= 1
            self.action_available = self.actions_left > 0
        elif slot == "social":
            if not self.social_available:
                raise RuleError(
                    "no_social", T("The social gesture is already used.", "Социальное взаимодействие уже использовано.")
                )
            self.social_available = False
        else:
            raise ValueError(slot)

    def move(self, steps: int) -> None:
        if steps < 0 or steps > self.speed_left:
            raise RuleError(
                "no_speed",
                T(
                    f"Only {self.speed_left} steps of movement left.",
                    f"Движения осталось только на {ru_n(self.speed_left, 'шаг', 'шага', 'шагов')}.",
                ),
            )
        self.speed_left -= steps


def buy_extra_turn(c, state: TurnState, round_no: int, rules: Mapping[str, Any]) -> list[Effect]:
    """Up to two extra turns (L757-771): the first costs 3 Sanity (may go below 0, L762; a
    self-control roll then follows at the end of that extra turn), the second costs refusing all
    defence and needs a stabilised (or non-negative) Sanity. Speed is not refreshed (L760)."""
    effects: list[Effect] = []
    mode = rules.get("extra_turns", "allowed")
    if mode == "forbidden" or (mode == "not_round_1" and round_no <= 1):
        raise RuleError(
            "extra_turns_off",
            T(
                "The GM does not allow extra turns in this fight."
                if mode == "forbidden"
                else "No extra turns in round 1 of this fight.",
                "Мастер не разрешает доп. ходы в этом бою."
                if mode == "forbidden"
                else "В 1-м раунде этого боя доп. ходов нет.",
            ),
        )
    blocked = [x.get("id") for x in c.conditions if x.get("id") in ("rage", "panic", "doom", "unconscious", "coma")]
    if blocked and not (blocked == ["stunned"]):
        raise RuleError(
            "no_extra_turns",
            T(
                f"No extra turns while {_state_word(blocked[0], 'en')}.",
                f"Дополнительные ходы запрещены: {_state_word(blocked[0], 'ru')}.",
            ),
        )
    if state.extra_turns_taken == 0:
        if round_no < int(rules.get("sanity_extra_turn_from_round", 1)):
            raise RuleError(
                "extra_turn_round",
                T(
                    f"Extra turns for Sanity are allowed from round {rules['sanity_extra_turn_from_round']}.",
                    f"Доп. ходы за Рассудок разрешены с {rules['sanity_extra_turn_from_round']}-го раунда.",
                ),
            )
        if rules.get("extra_turn_requires_sanity_ge_3") and c.sanity < 3:
            raise RuleError(
                "extra_turn_sanity", T("You need 3 Sanity for an extra turn.", "Для доп. хода нужно 3 Рассудка.")
            )
        effects.append(Effect("sanity", -3, T("extra turn", "дополнительный ход")))
        state.sanity_went_negative = c.sanity - 3 < 0
    elif state.extra_turns_taken == 1:
        if round_no < int(rules.get("refusal_extra_turn_from_round", 1)):
            raise RuleError(
                "refusal_round",
                T(
                    f"Refusing defence for an extra turn is allowed from round {rules['refusal_extra_turn_from_round']}.",
                    f"Отказ от защиты ради доп. хода разрешён с {rules['refusal_extra_turn_from_round']}-го раунда.",
                ),
            )
        if state.failed_self_control:
            raise RuleError(
                "self_control_failed", T("Self-control failed; your turn ends.", "Самоконтроль провален — ход окончен.")
            )
        state.defence_refused = True
    else:
        raise RuleError(
            "extra_turn_limit", T("At most two extra turns per turn.", "Не больше двух дополнительных ходов за ход.")
        )
    state.extra_turns_taken += 1
    state.attack_available = state.action_available = state.social_available = True
    state.actions_left = 1
    return effects


def effective_speed(c, rules: Mapping[str, Any] | None = None) -> int:
    """Speed = Agility (L387); a leg injury halves it, floor (L1600, A33: once, or per leg)."""
    rules = rules or {}
    legs = sum(1 for x in c.conditions if x.get("id") == "injury_leg")
    speed = c.speed
    if legs:
        times = legs if rules.get("leg_injury_speed", "once") == "per_leg" else 1
        for _ in range(times):
            speed //= 2
    return speed


# ---------------------------------------------------------------------------------------------
# Attack modifiers (spec §6.7)
# ---------------------------------------------------------------------------------------------
BODY_PARTS = ("head", "legs", "arms", "weapon", "special")


@dataclass
class AttackPlan:
    shift: int = 0
    sanity_cost: int = 0
    action_cost: bool = False
    rounds: int = 0
    defences_per_target: int = 1
    area_diameter: int | None = None
    health_mult: int = 1
    sanity_single: bool = False
    notes: list = field(default_factory=list)


def plan_attack(
    *,
    body_part: str | None = None,
    sweep: bool = False,
    spray: str | None = None,
    burst: str | None = None,
    power_area: int | None = None,
    extra_targets: int = 0,
    two_weapons: bool = False,
    superpower: bool = False,
    base_cost: int = 1,
    augment: bool = False,
    augment_shift: int = 0,
    weapon: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
) -> AttackPlan:
    """Die-level shift, Sanity, action and ammunition costs of an attack's modifiers; penalties
    add up (L861, L988, L1247). ``spray``/``burst``: ``"half"`` or ``"full"`` magazine;
    ``power_area``: 2 or 3 (metres)."""
    rules = rules or {}
    p = AttackPlan()
    cost = base_cost if superpower else 0
    if body_part:
        if body_part not in BODY_PARTS:
            raise RuleError(
                "bad_body_part",
                T(f"body part must be one of {', '.join(BODY_PARTS)}", f"часть тела: {', '.join(BODY_PARTS)}"),
            )
        p.shift -= 1
        p.action_cost = True  # L811
        if body_part == "head":
            p.health_mult, p.sanity_single = 2, True  # L818
        if body_part == "weapon":
            p.health_mult = 0  # L837: no damage to the target
    if augment:  # L982-984
        p.action_cost = True
        p.shift -= int(augment_shift)
        if superpower:
            cost += 1
        p.notes.append(
            T(
                "augmentation: extra effect if the attack wins and the target fails a fitting defence against it",
                "дополнение: эффект, если атака успешна и цель провалит защиту от него",
            )
        )
    if sweep:
        if weapon is not None and not weapon.get("heavy"):
            raise RuleError(
                "sweep_needs_heavy",
                T("A sweep needs a heavy melee weapon.", "Для атаки вокруг себя нужно тяжёлое оружие."),
            )
        p.shift -= 1
        p.action_cost = True  # L868
    for mode, kind in ((spray, "spray"), (burst, "burst")):
        if mode is None:
            continue
        if weapon is not None and not weapon.get("automatic"):
            raise RuleError("needs_automatic", T("Needs an automatic weapon.", "Нужно автоматическое оружие."))
        if mode not in ("half", "full"):
            raise RuleError("bad_magazine", T("half or full magazine", "половина или весь магазин"))
        p.shift -= 1
        cap = int((weapon or {}).get("capacity", 0))
        ammo = int((weapon or {}).get("ammo", cap))
        need = math.ceil(cap / 2) if mode == "half" else cap  # A28
        if weapon is not None and rules.get("burst_requires_rounds", True) and ammo < need:
            raise RuleError(
                "no_ammo", T(f"Needs {need} rounds; {ammo} left.", f"Нужно патронов: {need}, осталось {ammo}.")
            )
        p.rounds = min(need, ammo) if weapon is not None else need
        if kind == "spray":
            p.action_cost = True  # L877
            p.area_diameter = 2 if mode == "half" else 3  # L878-879
        else:
            p.defences_per_target = 2 if mode == "half" else 3  # L903-904
    if power_area is not None:
        if power_area not in (2, 3):
            raise RuleError("bad_area", T("power area is 2 or 3 metres", "область силы — 2 или 3 метра"))
        p.shift -= 1
        p.action_cost = True
        p.area_diameter = power_area
        cost = power_area  # L887-888: 2 / 3 instead of 1
    if extra_targets:
        p.shift -= extra_targets  # L894: -1 per extra target
        p.action_cost = True
        cost = cost * (1 + extra_targets)  # L896
    if two_weapons:
        p.shift -= 1  # L1243, L1297
        if superpower and (power_area or spray or sweep):  # L1248, L1302
            diameter = power_area or (3 if spray == "full" else 2)
            cost = 3 if diameter == 2 else 4
    p.sanity_cost = cost
    return p


def resolve_attack(
    attack: LevelRoll, defences: Sequence[LevelRoll | None], rules: Mapping[str, Any] | None = None
) -> list[bool]:
    """One attack total against one or more defences (burst: 2-3 against the same total, L903;
    areas: each target defends, A27). ``None`` = defence refused. True = the defence was lost."""
    return [contest(attack, d, rules) == "attacker" for d in defences]


#: map scale (L707): a token base (2 cm) is one conventional metre, one step
STEP_METRES = 1


def free_steps_after(kind: str, res: LevelRoll, won: bool) -> int:
    """A successful dodge lets the defender move 1 step for free (L1056)."""
    return 1 if kind == "dodge" and won and not res.fail else 0


def defence_riders(kind: str, res: LevelRoll, won: bool) -> list[Effect]:
    """Parry success: Battle Rage +1 Sanity (L1065), capped by apply_effects. (Dodge's free step
    is movement, see :func:`free_steps_after`.)"""
    if not won or res.fail:
        return []
    if kind == "parry":
        return [Effect("sanity", 1, T("Battle Rage", "Боевой Раж"))]
    return []


# ---------------------------------------------------------------------------------------------
# Damage (spec §6.11)
# ---------------------------------------------------------------------------------------------
def raw_damage(strike_power: int, weapon: Mapping[str, Any] | None, kind: str | None = None) -> int:
    """Melee: Strike Power + Weapon Damage (L1254); thrown weapons that add Strike Power likewise
    (L1313); ranged: Weapon Damage (L1309)."""
    w = weapon or {"damage": 0, "kind": "melee"}
    kind = kind or w.get("kind", "melee")
    dmg = int(w.get("damage", 0))
    if kind == "melee" or (kind == "thrown" and w.get("adds_strike_power", True)):
        return strike_power + dmg
    return dmg


def armour_at(c, location: str) -> tuple[int, dict] | None:
    """(index, piece) of the worn armour covering ``location``, not broken; pieces do not stack
    (L1412): the one with the highest defence protects."""
    best = None
    for i, p in enumerate(c.armour):
        if not p.get("worn", True) or location not in (armour_locations(p) or []):
            continue
        if p.get("durability", 0) <= 0 or p.get("defence", 0) <= 0:
            continue
        if best is None or p["defence"] > best[1]["defence"]:
            best = (i, p)
    return best


def _wear(piece: dict, incoming: int, final_after: int, rules: Mapping[str, Any]) -> None:
    """Durability -1 when the armour protects from damage above 1 (L1391, A12); defence follows
    durability down (L1392, A13) unless the GM turns that off (L1397)."""
    trigger = incoming > 1 if rules.get("durability_needs_raw_gt_1", True) else final_after > 1
    if trigger:
        piece["durability"] = max(0, piece["durability"] - 1)
        if rules.get("defence_tracks_durability", True):
            piece["defence"] = min(piece["defence"], piece["durability"])
        elif piece["durability"] == 0:
            piece["defence"] = 0  # L1393


def compute_hit(
    c,
    raw: int,
    *,
    location: str = "body",
    health_mult: int = 1,
    sanity_single: bool = False,
    armour_applies: bool = True,
    rules: Mapping[str, Any] | None = None,
) -> dict:
    """The hit pipeline of spec §6.11.2 without touching the character: returns the new armour
    list, temp armour, Health and Sanity losses."""
    rules = rules or {}
    armour = copy.deepcopy(list(c.armour))
    temp, kind = int(c.temp_armour), c.temp_armour_kind
    dmg = max(0, int(raw))
    temp_used = False
    notes = []
    if temp and kind == "shield" and dmg > 0:  # energy shield first (L1427)
        a = min(temp, dmg)
        temp -= a
        dmg -= a
        temp_used = a > 0
        notes.append(T(f"energy shield absorbs {a}", f"энергетический щит поглощает {a}"))
    found = armour_at(c, location) if armour_applies else None
    if found and dmg > 0:
        idx, _ = found
        piece = armour[idx]
        incoming = dmg
        dmg = max(0, dmg - piece["defence"])
        before = (piece["defence"], piece["durability"])
        _wear(piece, incoming, dmg, rules)
        notes.append(
            T(
                f"{piece.get('name', 'armour')}: −{incoming - dmg}, {before} → ({piece['defence']}, {piece['durability']})",
                f"{piece.get('name', 'броня')}: −{incoming - dmg}, {before} → ({piece['defence']}, {piece['durability']})",
            )
        )
    if dmg < 1 and not temp_used and raw > 0:
        dmg = 1  # minimum 1 (L1381)
    if temp and kind == "skin" and dmg > 0:  # skin: after armour (L1426)
        a = min(temp, dmg)
        temp -= a
        dmg -= a
        notes.append(T(f"skin armour absorbs {a}", f"усиление кожи поглощает {a}"))
    return {
        "armour": armour,
        "temp_armour": temp,
        "base": dmg,
        "health_loss": dmg * health_mult,
        "sanity_loss": dmg if sanity_single else 0,
        "notes": notes,
    }


def _state(c) -> dict:
    if c.dead:
        return T("dead", "смерть")
    if c.has_condition("coma"):
        return T("coma", "кома")
    if c.health < 0:
        return T("dying", "при смерти") if not c.stabilised_health else T("stabilised", "стабилизирован")
    return T("active", "в строю")


def apply_damage(
    c,
    amount: int,
    rules: Mapping[str, Any],
    *,
    location: str = "body",
    head: bool = False,
    dual_wield: bool = False,
    armour_applies: bool = True,
    sanity: bool = False,
) -> DamageOutcome:
    """Apply a hit of ``amount`` raw damage by the pipeline of spec §6.11.2. ``head``: ×2 Health
    and ×1 Sanity after armour (A14); ``dual_wield``: ×2 (A15; or two hits); ``sanity``: plain
    Sanity harm (no armour)."""
    out = DamageOutcome()
    if sanity:
        old = c.sanity
        c.sanity = c.sanity - max(0, amount)
        out.changes["sanity"] = (old, c.sanity)
        if c.sanity < old and c.sanity < 0:
            c.stabilised_sanity = False  # A19
        return _finish(c, out, rules)
    if c.dead:
        out.notes.append(T("already dead", "смерть уже наступила"))
        return _finish(c, out, rules)
    mult = 2 if head else 1
    if dual_wield and rules.get("dual_wield_mode", "multiply") == "multiply":
        mult *= 2
    hits = 2 if dual_wield and rules.get("dual_wield_mode") == "two_hits" else 1
    if head:
        location = "head"
    total_h, total_s = 0, 0
    for _ in range(hits):
        r = compute_hit(
            c,
            amount,
            location=location,
            health_mult=mult,
            sanity_single=head,
            armour_applies=armour_applies,
            rules=rules,
        )
        if r["armour"] != list(c.armour):
            out.changes["armour"] = (copy.deepcopy(list(c.armour)), r["armour"])
            c.armour = r["armour"]
        if r["temp_armour"] != c.temp_armour:
            out.changes["temp_armour"] = (c.temp_armour, r["temp_armour"])
            c.temp_armour = r["temp_armour"]
        total_h += r["health_loss"]
        total_s += r["sanity_loss"]
        out.notes.extend(r["notes"])
    if c.has_condition("coma") and total_h > 0 and rules.get("coma_damage_is_death", True):
        out.changes["dead"] = (c.dead, True)  # L328, L1516
        c.dead = True
        out.notes.append(T("damage in coma: final death", "урон в коме: окончательная смерть"))
    if (total_h or total_s) and c.aim_bonus:
        out.changes["aim_bonus"] = (c.aim_bonus, 0)  # aim is lost on any damage (L939)
        c.aim_bonus = 0
    if total_h:
        old = c.health
        c.health = old - total_h
        out.changes["health"] = (old, c.health)
        if c.stabilised_health:
            c.stabilised_health = False  # new Health damage (L576)
            out.changes["stabilised_health"] = (True, False)
    if total_s:
        old = c.sanity
        c.sanity = old - total_s
        out.changes["sanity"] = (old, c.sanity)
        c.stabilised_sanity = False
    out.details["health_loss"] = total_h
    out.details["sanity_loss"] = total_s
    return _finish(c, out, rules)


def _finish(c, out: DamageOutcome, rules: Mapping[str, Any]) -> DamageOutcome:
    mult = rules.get("threshold_multiplier", 3)
    if getattr(c, "is_npc", False) and c.npc_tier == "mook" and not c.dead:  # L1739: "on reaching 0"
        if c.health <= 0:
            out.changes["dead"] = (False, True)
            c.dead = True
        elif c.sanity <= 0 and not c.has_condition("coma"):
            c.conditions = list(c.conditions) + [{"id": "coma"}]
            out.details["add_conditions"] = ["coma"]
    if not c.dead and mult and c.health < -mult * c.health_max:  # L325, A21
        if rules.get("health_threshold_outcome", "dead") == "dead":
            out.changes["dead"] = (False, True)
            c.dead = True
        elif not c.has_condition("coma"):
            c.conditions = list(c.conditions) + [{"id": "coma"}]
    out.details["survival_roll"] = (
        not c.dead
        and c.health < 0
        and not c.stabilised_health
        and not c.has_condition("coma")
        and not (c.is_npc and c.npc_tier == "mook")
    )
    out.details["survival_difficulty"] = -c.health if c.health < 0 else None
    out.details["survival_roll_when"] = rules.get("survival_roll_timing", "immediate")  # A20
    out.details["self_control_roll"] = (
        not c.dead and c.sanity < 0 and not c.stabilised_sanity and not c.has_condition("coma")
    )
    out.defeated = not able(c)  # dead, coma, unconscious, doom; a mook at 0 Health
    out.state = _state(c)
    return out


def blast(
    c,
    raw: int,
    rules: Mapping[str, Any],
    *,
    dodged: bool = False,
    composure: LevelRoll | None = None,
    divider: Divider | None = None,
) -> DamageOutcome:
    """An explosion (L1340-1372): armour applies; a successful dodge that cannot leave the area
    halves the final damage, floor (A32); Sanity loss = Health damage − the Composure roll through
    a divider (A31)."""
    r = compute_hit(c, raw, rules=rules)
    health_loss = r["health_loss"]
    if dodged:
        num, den = rules.get("blast_dodge_fraction", (1, 2))
        health_loss = health_loss * num // den
    base = health_loss if rules.get("blast_sanity_from", "health_damage") == "health_damage" else raw
    mit = 0
    if composure is not None and divider is not None:
        mit = apply_divider(composure.total, divider, fail=composure.fail, on_fail=rules.get("divider_on_fail", "zero"))
    sanity_loss = max(0, base - mit)
    out = DamageOutcome()
    if r["armour"] != list(c.armour):
        out.changes["armour"] = (copy.deepcopy(list(c.armour)), r["armour"])
        c.armour = r["armour"]
    if r["temp_armour"] != c.temp_armour:
        out.changes["temp_armour"] = (c.temp_armour, r["temp_armour"])
        c.temp_armour = r["temp_armour"]
    if c.has_condition("coma") and health_loss > 0 and rules.get("coma_damage_is_death", True):
        out.changes["dead"] = (c.dead, True)
        c.dead = True
    if health_loss:
        out.changes["health"] = (c.health, c.health - health_loss)
        c.health -= health_loss
        c.stabilised_health = False
    if sanity_loss:
        out.changes["sanity"] = (c.sanity, c.sanity - sanity_loss)
        c.sanity -= sanity_loss
        c.stabilised_sanity = False
    out.details.update(health_loss=health_loss, sanity_loss=sanity_loss, mitigation=mit)
    out.notes.extend(r["notes"])
    return _finish(c, out, rules)


HEAL_RESOURCES = ("health", "sanity")


def apply_healing(
    c,
    amount: int,
    rules: Mapping[str, Any] | None = None,
    *,
    resource: str = "health",
    item: str | None = None,
    stabilise: bool = False,
    fail: bool = False,
    rng: random.Random | None = None,
    in_combat: bool = True,
    healer=None,
) -> DamageOutcome:
    """Restore Health (or Sanity), never above the maximum (L327, L343).

    ``item``: heal with an item of ``healer`` (default ``c``) by :func:`use_item` — ``amount`` is
    then the roll total the item names (0 or None: the item rolls itself with ``rng``);
    ``stabilise``: mark the negative resource stabilised (no survival / self-control roll until
    new harm, A19). Bad options raise before anything changes."""
    if resource not in HEAL_RESOURCES:
        raise RuleError(
            "bad_resource",
            T(f"heal health or sanity, not {resource!r}", f"лечится здоровье или рассудок, а не {resource!r}"),
        )
    try:
        amount = int(amount or 0)
    except (TypeError, ValueError):
        raise RuleError(
            "bad_amount", T("the amount must be a whole number", "количество должно быть целым числом")
        ) from None
    if amount < 0:
        raise RuleError("bad_amount", T("healing cannot be negative", "лечение не может быть отрицательным"))
    if item:
        # the item decides what it restores (a medkit Health, adrenaline Sanity): the resource
        # chosen in the tracker only matters for plain healing, and a different pick is noted
        user = healer if healer is not None else c
        spec = next((_item_spec(it) for it in user.items if it.get("name") == item), None)
        own = (spec or {}).get("restores")
        if spec is not None and own not in HEAL_RESOURCES:
            raise RuleError(
                "item_does_not_heal",
                T(
                    f"{item} does not restore Health or Sanity.",
                    f"«{item}» не восстанавливает ни Здоровье, ни Рассудок.",
                ),
            )
        out = use_item(user, item, rules, total=amount or None, fail=fail, in_combat=in_combat, target=c, rng=rng)
        if own and own != resource:
            out.notes.append(
                T(f"{item} restores {own}", f"«{item}» восстанавливает {'Здоровье' if own == 'health' else 'Рассудок'}")
            )
        resource = own or resource
    else:
        out = _heal(c, amount, rules, resource)
    if stabilise:
        flag = f"stabilised_{resource}"
        if getattr(c, resource) < 0 and not getattr(c, flag):
            out.changes[flag] = (False, True)
            setattr(c, flag, True)
            out.notes.append(
                T(f"{resource} stabilised", "стабилизирован" if resource == "health" else "рассудок стабилизирован")
            )
        out = _finish(c, out, rules or {})
    return out


def healing_options(c) -> list:
    from tabletop_widgets.core import OptionSpec

    items = [it for it in c.items if _item_spec(it).get("restores") in HEAL_RESOURCES]
    opts = [
        OptionSpec(
            "resource",
            T("Restore", "Восстановить"),
            "choice",
            "health",
            choices=(("health", T("Health", "Здоровье")), ("sanity", T("Sanity", "Рассудок"))),
        ),
        OptionSpec(
            "stabilise",
            T(
                "Stabilise (no survival / self-control roll until new harm)",
                "Стабилизировать (без бросков выживания / самоконтроля до нового вреда)",
            ),
            "bool",
            False,
        ),
    ]
    if items:
        opts.append(
            OptionSpec(
                "item",
                T(
                    "Use an item (the amount is its roll total; 0 rolls it)",
                    "Предмет (количество — итог его броска; 0 — бросить)",
                ),
                "choice",
                "",
                choices=(("", T("none", "нет")),)
                + tuple(
                    (
                        it["name"],
                        T(
                            f"{it['name']} ({_item_spec(it)['restores'].capitalize()})",
                            f"{it['name']} ({'Здоровье' if _item_spec(it)['restores'] == 'health' else 'Рассудок'})",
                        ),
                    )
                    for it in items
                ),
                help=T("the item decides what it restores", "предмет сам определяет, что восстанавливает"),
            )
        )
    return opts


def _heal(c, amount: int, rules: Mapping[str, Any] | None, resource: str) -> DamageOutcome:
    out = DamageOutcome()
    mx = c.health_max if resource == "health" else c.sanity_max
    old = getattr(c, resource)
    new = min(mx, old + max(0, amount)) if old < mx else old
    setattr(c, resource, new)
    out.changes[resource] = (old, new)
    return _finish(c, out, rules or {})


def tick_conditions(c, rules: Mapping[str, Any], *, at: str = "start") -> DamageOutcome:
    """Per-turn effects of active states at the start of the bearer's turn (spec §6.13):
    damage over time (burning, poison, bleeding), healing over time (regeneration), and
    durations counting down."""
    cat = {r["id"]: r for r in data.table("conditions")}
    dot, hot = 0, 0
    kept = []
    expired = []
    for inst in c.conditions:
        spec = cat.get(inst.get("id"), {})
        if spec.get("ticks_at", "end") != at and inst.get("ticks_at", spec.get("ticks_at")) != at:
            kept.append(inst)
            continue
        dot += int(inst.get("dot", spec.get("dot", 0)))
        hot += int(inst.get("hot", spec.get("hot", 0)))
        dur = inst.get("duration", spec.get("duration"))
        if dur is not None:
            dur = int(dur) - 1
            if dur <= 0:
                expired.append(inst.get("id"))
                continue
            inst = {**inst, "duration": dur}
        kept.append(inst)
    c.conditions = kept
    out = DamageOutcome()
    if dot:
        burning = any(x.get("id") == "burning" for x in kept)
        out = apply_damage(c, dot, rules, armour_applies=burning)
    if hot:
        h = _heal(c, hot, rules, "health")
        out.changes.update(h.changes)
    out.details["expired"] = expired
    out.details["dot"] = dot
    out.details["hot"] = hot
    return out


def aim_bonus(res: LevelRoll, divider: Divider, rules: Mapping[str, Any] | None = None) -> int:
    """Aim (L934-944): a fail gives no bonus; otherwise the divider result, which replaces an
    active aim bonus (never stacks, L940)."""
    return apply_divider(res.total, divider, fail=res.fail, on_fail="zero")


def cover_bonus(res: LevelRoll, divider: Divider) -> int:
    """Take cover / shield cover (L990-1004): the divider result; nothing on a fail (L998)."""
    return apply_divider(res.total, divider, fail=res.fail, on_fail="zero")


def dispel_cost(attacker_cost: int, *, protect_allies: bool = False) -> int:
    """Dispel costs the Sanity the attacker paid (1, or 2/3 for an area), +1 to protect allies
    too (L1085-1086)."""
    return int(attacker_cost) + (1 if protect_allies else 0)


def in_reach(weapon: Mapping[str, Any], distance: int) -> bool:
    """Melee needs adjacency; spears reach 2 steps ("across one metre", L1229)."""
    return distance <= int(weapon.get("reach", 1))


def _item_spec(it: Mapping[str, Any]) -> dict:
    """An item of ``c.items`` merged over its preset row of the items table (§8.11)."""
    preset = data.row("items", it["preset"]) if it.get("preset") else {}
    return {**preset, **it}


def use_item(
    c,
    name: str,
    rules: Mapping[str, Any] | None = None,
    *,
    total: int | None = None,
    fail: bool = False,
    in_combat: bool = True,
    target=None,
    rng: random.Random | None = None,
    expect: str | None = None,
) -> DamageOutcome:
    """Use an item from ``c.items`` (spec §7.4, §8.11): spend a charge (medkit 5 -> 4, L1461)
    and apply its effect to ``target`` (default ``c``): a fixed amount plus, when the item names
    a roll, its total through the item's divider (healing potion +3; medkit 3 + Fine Motor via 4
    (+2); adrenaline Endurance via 4 (+2)).

    ``total``/``fail`` give the roll as made at the table; with neither, the item rolls itself
    with ``rng``: the user's named parameter, or the patient's Endurance for a medkit when the GM
    reads A30 that way (``medkit_roll="patient_endurance"``). That roll's own effects (Luck for a
    fail, Sanity for success dice) are applied to whoever rolled, like any roll, and reported in
    ``details["roll"]``. Everything is checked before anything changes."""
    from . import checks as _checks

    rules = rules or {}
    target = target if target is not None else c
    items = copy.deepcopy(list(c.items))
    idx = next((i for i, it in enumerate(items) if it.get("name") == name), None)
    if idx is None:
        raise RuleError("no_item", T(f"No item named {name}.", f"Нет предмета «{name}»."))
    it = items[idx]
    spec = _item_spec(it)
    if in_combat and spec.get("in_combat") is False:
        raise RuleError(
            "out_of_combat_only", T(f"{name} can only be used out of combat.", f"«{name}» применяется только вне боя.")
        )
    if expect is not None and spec.get("restores") != expect:
        raise RuleError(
            "item_restores_other",
            T(
                f"{name} does not restore {expect}.",
                f"«{name}» не восстанавливает {'здоровье' if expect == 'health' else 'рассудок'}.",
            ),
        )
    if "charges" in it and it["charges"] <= 0:
        raise RuleError("no_charges", T(f"{name} has no charges left.", f"«{name}»: зарядов не осталось."))
    check = None
    roller = None
    if spec.get("divider") and total is None and not fail and spec.get("roll"):
        param = spec["roll"]
        roller = c
        if spec.get("id", it.get("preset")) == "medkit" and rules.get("medkit_roll", "healer") == "patient_endurance":
            roller, param = target, "endurance"  # A30
        check = _checks.roll(roller, param, {}, rules, rng if rng is not None else random.Random())
        total, fail = check.total, bool(check.details.get("fail"))
    # -- nothing has changed so far; now apply
    if "charges" in it:
        it["charges"] -= 1
    elif spec.get("kind", "single_use") == "single_use":
        items.pop(idx)
    amount = int(spec.get("fixed") or 0)
    if spec.get("divider") and (total is not None or fail):
        amount += apply_divider(
            total, Divider(*spec["divider"]), fail=fail, on_fail=rules.get("divider_on_fail", "zero")
        )
    c.items = items
    out = DamageOutcome()
    roll_changes = {}
    if check is not None and check.effects:
        from .system import SYSTEM as _SYSTEM

        roll_changes = _SYSTEM.apply_effects(roller, check.effects)
    if spec.get("restores") in ("health", "sanity") and amount:
        out = _heal(target, amount, rules, spec["restores"])
    elif spec.get("restores") is None and amount:
        out.details["bonus"] = amount  # e.g. a berserk potion's Body-branch bonus
    if roll_changes:
        if roller is target:
            for k, (old, new) in roll_changes.items():
                first = out.changes.get(k, (old, None))[0]
                out.changes[k] = (first, getattr(target, k))
        out.details["roller_changes"] = roll_changes
    if check is not None:
        out.details["roll"] = check
        out.notes.append(
            T(
                f"{name}: {check.label['en']} {check.outcome.get('en', '')}",
                f"{name}: {check.label['ru']} {check.outcome.get('ru', '')}",
            )
        )
    out.details["amount"] = amount
    out.details["charges"] = it.get("charges")
    out.details["total"] = total
    return out


def movement_block(blocker: LevelRoll, mover: LevelRoll, rules: Mapping[str, Any] | None = None) -> bool:
    """Movement block (L1010-1014): blocker's Physique/Body Control vs the mover's Strength/
    Agility; the mover is the defending side, so ties let the mover through (A26). True = the
    move stops."""
    return contest(blocker, mover, rules) == "attacker"


def hidden_attack(
    attack: LevelRoll,
    detection: LevelRoll | None,
    defence: LevelRoll | None,
    detection_difficulty: int | None = None,
    rules: Mapping[str, Any] | None = None,
) -> bool:
    """An attack from hiding (L1127, L1652): a target that fails to detect the attacker (its
    Perception roll loses to the hide roll, or fails) counts its defence as failed. True = hit."""
    undetected = (
        detection is None
        or detection.fail
        or (detection_difficulty is not None and detection.total < detection_difficulty)
    )
    if undetected:
        return not attack.fail
    return contest(attack, defence, rules) == "attacker"


def weapon_change_costs_action(
    *, bulky: bool = False, cinematic: bool = False, rules: Mapping[str, Any] | None = None
) -> bool:
    """Changing weapons (L965, L1036, A54): free unless the item is bulky; the GM may make every
    change cost the action outside cinematic combat."""
    rules = rules or {}
    if bulky:
        return True
    return bool(rules.get("weapon_change_costs_action")) and not cinematic


def luck_pick(
    candidates: Mapping[str, int],
    *,
    rng: random.Random | None = None,
    good: bool = True,
    rules: Mapping[str, Any] | None = None,
) -> str:
    """A GM random pick among participants using their Luck (L363, A39): for a good event the
    weight is Luck + 1; for a bad one the luckiest are least likely (weight max + 1 - Luck)."""
    rng = rng if rng is not None else random.Random()
    ids = list(candidates)
    if not ids:
        raise RuleError("no_candidates", T("nobody to pick", "не из кого выбирать"))
    if (rules or {}).get("luck_pick", "weighted") == "uniform":
        return ids[rng.randint(0, len(ids) - 1)]
    top = max(candidates.values())
    weights = [(candidates[i] + 1) if good else (top + 1 - candidates[i]) for i in ids]
    r = rng.randint(1, sum(weights))
    for i, w in zip(ids, weights):
        r -= w
        if r <= 0:
            return i
    return ids[-1]


#: body-part riders resisted against the same attack total (L816-841): part -> (roll, condition)
CALLED_SHOT_RIDERS = {
    "legs": ("body_control", "off_balance"),  # knock-down (L827)
    "arms": ("fine_motor", "disarmed"),  # disarm: the weapon drops (L833)
    "head": ("endurance", "blinded"),  # blinding etc. when the GM applies it (L821)
}


def called_shot_rider(
    part: str, attack: LevelRoll, resistance: LevelRoll | None, rules: Mapping[str, Any] | None = None
) -> str | None:
    """The secondary effect of a body-part hit: the target rolls the listed parameter against the
    attacker's original total and wins ties (spec §5.6); returns the effect id or None."""
    if part not in CALLED_SHOT_RIDERS:
        return None
    if contest(attack, resistance, rules) == "defender":
        return None
    return CALLED_SHOT_RIDERS[part][1]


# ---------------------------------------------------------------------------------------------
# Tracker hooks (core contract): per-turn effects, catalogue conditions mirrored on the sheet
# ---------------------------------------------------------------------------------------------
TURN_POINTS = ("start", "end")


def on_turn(
    c, when: str, rules: Mapping[str, Any], *, conditions: Sequence[Mapping[str, Any]] = ()
) -> DamageOutcome | None:
    """Ongoing effects of the active states at ``when`` of the bearer's own turn (spec §6.13:
    burning, poison, bleeding as Health damage; regeneration as healing; default at the start,
    L1492-1495). ``conditions`` are the tracker's instances (``{"id", "duration", "data"}``;
    ``data`` may override the amount: ``{"dot": 3}`` or ``{"amount": 3}``); without them the
    character's own list is read. Durations are the tracker's to count: nothing else changes.
    DoT counts as Health damage (survival prompt, coma -> death, L328)."""
    if when not in TURN_POINTS:
        raise RuleError(
            "bad_turn_point", T(f"when is 'start' or 'end', not {when!r}", f"when: 'start' или 'end', а не {when!r}")
        )
    cat = {r["id"]: r for r in data.table("conditions")}
    insts = (
        list(conditions)
        if conditions
        else [{"id": x.get("id"), "duration": x.get("duration"), "data": x} for x in c.conditions]
    )
    if c.dead:
        return None
    fire, dot, hot, sources = 0, 0, 0, []
    for inst in insts:
        spec = cat.get(inst.get("id"))
        if spec is None:
            continue
        extra = dict(inst.get("data") or {})
        if extra.get("ticks_at", spec.get("ticks_at", "start")) != when:
            continue
        d = int(extra.get("dot", extra.get("amount", spec.get("dot", 0)))) if (spec.get("dot") or "dot" in extra) else 0
        h = int(extra.get("hot", extra.get("amount", spec.get("hot", 0)))) if (spec.get("hot") or "hot" in extra) else 0
        d, h = max(0, d), max(0, h)
        if d or h:
            sources.append(inst["id"])
        if inst["id"] == "burning":
            fire += d
        else:
            dot += d
        hot += h
    if not (fire or dot or hot):
        return None
    out = DamageOutcome()
    # burning: armour applies and wears (L1492); poison and bleeding act inside the body
    for amount, through_armour in ((fire, True), (dot, False)):
        if not amount:
            continue
        part = apply_damage(c, amount, rules, armour_applies=through_armour)
        for k, (old, new) in part.changes.items():
            first = out.changes.get(k, (old, None))[0]
            out.changes[k] = (first, new)
        out.notes.extend(part.notes)
        out.details["health_loss"] = out.details.get("health_loss", 0) + part.details.get("health_loss", 0)
    if fire or dot:
        out.notes.insert(0, T(f"{', '.join(sources)}: {fire + dot} damage", f"{', '.join(sources)}: урон {fire + dot}"))
    if hot:
        h = _heal(c, hot, rules, "health")
        for k, (old, new) in h.changes.items():
            first = out.changes.get(k, (old, None))[0]
            out.changes[k] = (first, new)
        out.notes.append(T(f"regeneration +{hot}", f"регенерация +{hot}"))
    out = _finish(c, out, rules)
    dot = fire + dot
    out.details.update(dot=dot, hot=hot, sources=sources, when=when)
    return out


#: conditions that end the character's part in the fight (spec §6.12-§6.13)
DEFEATING = ("coma", "unconscious", "doom", "dead")


def condition_changed(c, cid: str, active: bool, rules: Mapping[str, Any], **extra: Any) -> DamageOutcome | None:
    """Mirror a catalogue condition the tracker added/removed on the character, so its die-level
    and flat penalties reach every roll (auto modifiers read ``c.conditions``) and the defeating
    states (coma, unconscious, doom) make the character defeated. ``dead`` sets final death (and
    its removal undoes it: the GM is always right, L13). Leaving cover drops the cover bonus.
    Stacking conditions (bleeding, injuries) add/remove one instance each call. Unknown ids:
    None (a tracker-only marker)."""
    cat = {r["id"]: r for r in data.table("conditions")}
    if cid not in cat:
        return None
    spec = cat[cid]
    out = DamageOutcome()
    old = [dict(x) for x in c.conditions]
    conds = [dict(x) for x in c.conditions]
    if cid == "dead":
        if bool(c.dead) != bool(active):
            out.changes["dead"] = (c.dead, bool(active))
            c.dead = bool(active)
    elif active:
        if spec.get("stacks") or not any(x.get("id") == cid for x in conds):
            conds.append({"id": cid, "source": "tracker", **{k: v for k, v in extra.items() if v is not None}})
    else:
        idx = [i for i, x in enumerate(conds) if x.get("id") == cid]
        if idx:
            if spec.get("stacks"):
                conds.pop(idx[-1])
            else:
                conds = [x for x in conds if x.get("id") != cid]
        if cid == "in_cover" and (c.cover_bonus or c.cover_shield_only):
            out.changes["cover_bonus"] = (c.cover_bonus, 0)
            c.cover_bonus, c.cover_shield_only = 0, False
    if conds != old:
        out.changes["conditions"] = (old, conds)
        c.conditions = conds
    if not out.changes:
        return None
    if spec.get("shift") or spec.get("flat"):
        out.notes.append(T(f"{spec['en']}: {spec['effect_en']}", f"{spec['ru']}: {spec['effect_ru']}"))
    out = _finish(c, out, rules)
    return out


# ---------------------------------------------------------------------------------------------
# What a move, an attack or an action cancels (spec §6.8-§6.9, §10 automation)
# ---------------------------------------------------------------------------------------------
ACTS = ("move", "attack", "action", "noise", "heal", "defence")


def after_act(c, act: str, *, leaves_cover: bool | None = None, reveals: bool | None = None) -> DamageOutcome:
    """Bookkeeping after the character ``act``\\ s (one of :data:`ACTS`):

    * cover (L994-995): a move or an attack cancels the cover declaration and its bonus; healing
      and other actions inside the cover do not (``leaves_cover`` overrides the GM's call);
    * hidden (L1129, L1654): an attack or noise reveals the position (``reveals`` overrides);
    * aim (L939): any non-defensive action other than the aimed attack loses the aim bonus;
    * movement block (L1014): a later attack cancels it.

    Returns the trait changes and ``details["remove_conditions"]`` for the tracker's own list."""
    if act not in ACTS:
        raise RuleError("bad_act", T(f"act is one of {', '.join(ACTS)}", f"действие: {', '.join(ACTS)}"))
    out = DamageOutcome()
    removed = []
    cover_off = leaves_cover if leaves_cover is not None else act in ("move", "attack")
    if cover_off and (c.cover_bonus or c.has_condition("in_cover")):
        if c.cover_bonus:
            out.changes["cover_bonus"] = (c.cover_bonus, 0)
            c.cover_bonus, c.cover_shield_only = 0, False
        removed.append("in_cover")
    hide_off = reveals if reveals is not None else act in ("attack", "noise")
    if hide_off and c.has_condition("hidden"):
        removed.append("hidden")
    if act == "action" and c.aim_bonus:
        out.changes["aim_bonus"] = (c.aim_bonus, 0)
        c.aim_bonus = 0
    if act == "attack" and c.has_condition("movement_block"):
        removed.append("movement_block")
    if removed:
        old = [dict(x) for x in c.conditions]
        new = [x for x in old if x.get("id") not in removed]
        if new != old:
            out.changes["conditions"] = (old, new)
            c.conditions = new
    out.details["remove_conditions"] = removed
    for r in removed:
        out.notes.append(
            {
                "in_cover": T("leaves cover", "выходит из укрытия"),
                "hidden": T("reveals the position", "раскрывает позицию"),
                "movement_block": T("movement block cancelled", "блок передвижения отменён"),
            }[r]
        )
    return out


def extra_turn(c, state: TurnState, round_no: int, rules: Mapping[str, Any]) -> dict:
    """Buy the next extra turn (spec §6.4) and say what the tracker must do: ``effects`` (3
    Sanity for the first, applied through ``apply_effects``), ``add_conditions`` (the second
    refuses defence: ``defence_refused`` until the start of the next turn, A22, visible to all),
    ``self_control_at_end`` (Sanity went below 0: a self-control roll at the end of this extra
    turn, L762). Refused purchases raise before anything changes."""
    snapshot = copy.copy(state)
    try:
        effects = buy_extra_turn(c, state, round_no, rules)
    except RuleError:
        state.__dict__.update(snapshot.__dict__)
        raise
    add = ["defence_refused"] if state.extra_turns_taken == 2 else []
    duration = None if rules.get("defence_refusal_duration", "until_next_turn") != "until_next_turn" else 1
    return {
        "number": state.extra_turns_taken,
        "effects": effects,
        "add_conditions": add,
        "condition_duration": duration if add else None,
        "self_control_at_end": state.extra_turns_taken == 1 and state.sanity_went_negative,
        "speed_left": state.speed_left,
        "note": T(
            f"extra turn {state.extra_turns_taken}" + (": 3 Sanity" if not add else ": defence refused"),
            f"доп. ход {state.extra_turns_taken}" + (": 3 Рассудка" if not add else ": отказ от защиты"),
        ),
    }


def end_extra_turn(state: TurnState, self_control_passed: bool | None) -> bool:
    """Record the self-control roll made at the end of the 3-Sanity extra turn (L762). Returns
    whether a second extra turn (defence refusal) may still be declared."""
    if self_control_passed is False:
        state.failed_self_control = True
    return state.extra_turns_taken == 1 and not state.failed_self_control


# ---------------------------------------------------------------------------------------------
# End of combat and loot (spec §6.14, L1133-1144)
# ---------------------------------------------------------------------------------------------
def able(c) -> bool:
    """Able to continue: not dead, in coma, unconscious or doomed; a mook at 0 Health is out."""
    if c.dead or any(c.has_condition(x) for x in ("coma", "unconscious", "doom")):
        return False
    return not (c.is_npc and c.npc_tier == "mook" and c.health <= 0)


def combat_over(
    combatants: Mapping[str, Any], sides: Mapping[str, str], *, unwilling: Sequence[str] = ()
) -> str | None:
    """The side left standing when the other has nobody able **and** willing to go on (dead,
    unconscious, surrendered, fled: pass the last two as ``unwilling``) (L1135); None while the
    fight goes on, ``"none"`` when nobody is left on either side."""
    standing = {side: False for side in set(sides.values())}
    for cid, c in combatants.items():
        side = sides.get(cid)
        if side is None:
            raise RuleError("no_side", T(f"{cid} has no side", f"у {cid} нет стороны"))
        if cid not in unwilling and able(c):
            standing[side] = True
    left = [s for s, ok in standing.items() if ok]
    if len(left) > 1:
        return None
    return left[0] if left else "none"


LOOT_MODES = ("initiative", "new", "seating")


def loot_queue(
    combatants: Mapping[str, Any],
    *,
    mode: str = "initiative",
    order: Sequence[str] | None = None,
    seating: Sequence[str] | None = None,
    rng: random.Random | None = None,
    rules: Mapping[str, Any] | None = None,
    include_unable: bool = False,
) -> dict:
    """The moderated loot queue (L1139-1141): in the fight's initiative ``order``, a ``new``
    initiative roll, or the players' ``seating`` order; only those able to search take part
    (unless ``include_unable``). Each gets ``loot_actions`` actions (the GM may allow two: one
    to help an ally, one for loot, L1141)."""
    rules = rules or {}
    if mode not in LOOT_MODES:
        raise RuleError(
            "bad_loot_mode",
            T(f"loot order is one of {', '.join(LOOT_MODES)}", f"порядок добычи: {', '.join(LOOT_MODES)}"),
        )
    new_order = None
    if mode == "initiative":
        if order is None:
            raise RuleError("no_order", T("the initiative order is needed", "нужен порядок инициативы"))
        ids = list(order)
    elif mode == "seating":
        if seating is None:
            raise RuleError("no_seating", T("the seating order is needed", "нужен порядок рассадки"))
        ids = list(seating)
    else:
        new_order = roll_initiative(combatants, rng=rng, rules=rules)
        ids = list(new_order.order)
    unknown = [i for i in ids if i not in combatants]
    if unknown:
        raise RuleError("unknown_combatant", T(f"unknown: {', '.join(unknown)}", f"неизвестны: {', '.join(unknown)}"))
    queue = [i for i in ids if include_unable or able(combatants[i])]
    return {"queue": queue, "actions": int(rules.get("loot_actions", 1)), "initiative": new_order}


def split_loot(money: int, ids: Sequence[str]) -> dict[str, int]:
    """Money split equally (L1142); the remainder goes one by one from the front of the queue."""
    if not ids:
        raise RuleError("no_candidates", T("nobody to share with", "не с кем делить"))
    if money < 0:
        raise RuleError("bad_amount", T("money cannot be negative", "деньги не могут быть отрицательными"))
    q, r = divmod(int(money), len(ids))
    return {i: q + (1 if n < r else 0) for n, i in enumerate(ids)}


def loot_dispute(rolls: Mapping[str, LevelRoll | None]) -> tuple[str | None, list[str]]:
    """A dispute over one trophy (L1144): contest rolls, symmetric (no defender): the best
    (non-fail total, then the milder d4 fail) wins; a tie returns ``(None, tied ids)`` to re-roll
    between them (spec §5.6)."""
    if not rolls:
        raise RuleError("no_candidates", T("nobody claims it", "никто не претендует"))
    score = {i: (initiative_score(r) if r is not None else (0, -1)) for i, r in rolls.items()}
    best = max(score.values())
    top = [i for i, s in score.items() if s == best]
    return (top[0], []) if len(top) == 1 else (None, top)


# ---------------------------------------------------------------------------------------------
# What the active states allow this turn (spec §6.13 table; §10 "condition action limits")
# ---------------------------------------------------------------------------------------------
_LIMITS = {
    # state: (turn, move, attack, action, social, extra_turns, defence)
    "dead": (False, False, False, False, False, False, "none"),
    "coma": (False, False, False, False, False, False, "none"),  # L1512-1520
    "unconscious": (False, False, False, False, False, False, "none"),  # L1522-1530
    "doom": (True, False, False, False, True, False, "none"),  # L1532-1540: beg / bargain
    "panic": (True, True, False, False, True, False, "dodge_only"),  # L1542-1550: flee
    "rage": (True, True, True, False, True, False, "any"),  # L1552-1561
}
_DEF_RANK = {"any": 3, "limited": 2, "dodge_only": 1, "none": 0}


def turn_limits(c) -> dict:
    """What the character may do on its turn given its states: ``turn`` (has one at all),
    ``move``/``attack``/``action``/``social``, ``extra_turns``, ``defence`` (``any``,
    ``limited``, ``dodge_only`` or ``none``), ``psych_resist`` (unconscious: immune to
    psychological influence, so nothing to resist) and the bilingual ``reasons``. A state's
    resistance roll on the bearer's own turn is always allowed (it spends the action on a
    success, L1497); ``stunned`` retries may use extra turns (L1570)."""
    out = {
        "turn": True,
        "move": True,
        "attack": True,
        "action": True,
        "social": True,
        "extra_turns": True,
        "defence": "any",
        "psych_resist": True,
        "reasons": [],
    }
    cat = {r["id"]: r for r in data.table("conditions")}
    ids = [x.get("id") for x in c.conditions] + (["dead"] if c.dead else [])
    for cid in dict.fromkeys(ids):
        lim = _LIMITS.get(cid)
        spec = cat.get(cid, {})
        if lim is None:
            d = spec.get("defence")
            if d in _DEF_RANK and _DEF_RANK[d] < _DEF_RANK[out["defence"]]:
                out["defence"] = d
                ru = {"none": "нет", "dodge_only": "только уклонение", "limited": "ограничена"}[d]
                out["reasons"].append(T(f"{spec['en']}: defence {d.replace('_', ' ')}", f"{spec['ru']}: защита — {ru}"))
            continue
        for k, allowed in zip(("turn", "move", "attack", "action", "social", "extra_turns"), lim[:6]):
            out[k] = out[k] and allowed
        if _DEF_RANK[lim[6]] < _DEF_RANK[out["defence"]]:
            out["defence"] = lim[6]
        if cid == "unconscious":
            out["psych_resist"] = False
        label = spec or {"en": cid, "ru": cid, "effect_en": "", "effect_ru": ""}
        out["reasons"].append(
            T(f"{label['en']}: {label.get('effect_en', '')}", f"{label['ru']}: {label.get('effect_ru', '')}")
        )
    if not out["turn"]:
        out.update(move=False, attack=False, action=False, social=False, extra_turns=False)
    return out


def is_defeated(c) -> bool:
    """Dead, in coma, unconscious or doomed; a mook at 0 Health (L1739). Negative Health alone is
    not defeat: survival rolls decide (L574)."""
    if c.dead or any(c.has_condition(x) for x in ("coma", "unconscious", "doom")):
        return True
    return c.is_npc and c.npc_tier == "mook" and c.health <= 0


def damage_options(c) -> list[OptionSpec]:
    """What the tracker asks with damage: hit location, two weapons, armour, Sanity harm."""
    return [
        OptionSpec(
            "location",
            T("Hit location", "Куда попали"),
            "choice",
            "body",
            choices=(
                ("body", T("Body", "Тело")),
                ("head", T("Head (×2 Health, ×1 Sanity)", "Голова (×2 Здоровья, ×1 Рассудка)")),
                ("arms", T("Arms", "Руки")),
                ("legs", T("Legs", "Ноги")),
            ),
        ),
        OptionSpec("dual_wield", T("Two weapons (×2)", "Два оружия (×2)"), "bool", False),
        OptionSpec(
            "armour_applies",
            T("Armour applies", "Броня защищает"),
            "bool",
            True,
            help=T("off for powers that ignore armour", "выкл. для сил, игнорирующих броню"),
        ),
        OptionSpec("sanity", T("Sanity harm (mental)", "Урон Рассудку"), "bool", False),
    ]
