"""Seasons combat and harm (spec §6, §7.2-7.4, §7.6): initiative with roll-offs, attacks,
damage and Pain, quick fights, threats, healing, conditions and objects. Pure functions over
Character models; operations that change a character say so and refuse illegal moves with
``RuleError`` before changing anything."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import ConditionSpec, DamageOutcome, InitiativeOrder, InitiativeRoll, RuleError, T
from tabletop_widgets.core.wording import ru_n

from .conditions import CONDITION_CHECK, condition_scope
from .data import TABLES
from .pool import STANDARD_MODIFIER

# -----------------------------------------------------------------------------------------------
# Health (L93, L707-709, L720-725)
# -----------------------------------------------------------------------------------------------
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


def _snapshot(c, names: Sequence[str]) -> dict[str, Any]:
    return {n: getattr(c, n) for n in names}


_TRACKED = (
    "damage",
    "pain_suppressed",
    "pain_failed_this_scene",
    "damaged_this_scene",
    "first_aid_used_this_scene",
    "out_state",
)


def _changes(before: Mapping[str, Any], c) -> dict[str, tuple[Any, Any]]:
    return {n: (v, getattr(c, n)) for n, v in before.items() if getattr(c, n) != v}


def _outcome(c, before, notes, rules, **details) -> DamageOutcome:
    notes = list(notes)
    if c.is_out:
        key = {v: k for k, v in ZERO_HEALTH_STATE.items()}.get(c.out_state, rules["zero_health_outcome"])
        notes.append(ZERO_HEALTH[key])
    return DamageOutcome(
        changes=_changes(before, c),
        notes=notes,
        defeated=bool(c.defeated),
        state=health_state(c),
        details={"health": health(c), "out_state": c.out_state, **details},
    )


def zero_health_state(rules: Mapping[str, Any], outcome: str = "") -> str:
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
    return ZERO_HEALTH_STATE[rules["zero_health_outcome"]]


def apply_damage(c, amount: int, rules: Mapping[str, Any], outcome: str = "") -> DamageOutcome:
    """Fill ``amount`` health levels (L93). Clamped at Health (§11 #27); new damage ends Pain
    suppression and allows a new attempt (L708, §11 #7); it opens first aid for this scene but
    never re-opens it after an attempt (L723-724, §11 #9)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise ValueError(f"damage must be a whole number >= 0, not {amount!r}")
    state = zero_health_state(rules, outcome)  # refuses a bad outcome before anything changes
    before = _snapshot(c, _TRACKED)
    notes = []
    if amount == 0:
        return _outcome(c, before, [T("no damage", "урона нет")], rules)
    new = min(c.health_max, c.damage + amount)
    if c.damage + amount > c.health_max:
        notes.append(T("damage beyond Health is lost (clamped)", "урон сверх здоровья не учитывается"))
    values = dict(damage=new, pain_suppressed=False, pain_failed_this_scene=False, damaged_this_scene=True)
    if new >= c.health_max and c.out_state not in ZERO_HEALTH_STATES:
        values["out_state"] = state  # 0 health: out of the story, as the genre says (L93, L722)
    c.update(**values)
    if c.in_pain and not before["damage"] * 2 >= c.health_max:
        notes.append(T("Pain: -3 to all checks", "Боль: -3 ко всем проверкам"))  # L708
    return _outcome(c, before, notes, rules, amount=amount)


def apply_healing(c, amount: int, rules: Mapping[str, Any], source: str = "other") -> DamageOutcome:
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
    before = _snapshot(c, _TRACKED)
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
    c.update(**values)
    if before["damage"] * 2 >= c.health_max and not c.in_pain:
        notes.append(T("Pain ends", "Боль проходит"))
    return _outcome(c, before, notes, rules, amount=amount, source=source)


def is_defeated(c) -> bool:
    """0 health, fled or surrendered (L90, L93, L722)."""
    return bool(c.defeated)


def set_out_state(c, state: str, rules: Mapping[str, Any]) -> DamageOutcome:
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
    before = _snapshot(c, _TRACKED)
    c.update(out_state=state)
    return _outcome(c, before, [OUT_STATE_LABELS[state]], rules)


# -----------------------------------------------------------------------------------------------
# Initiative (L727-731): Intelligence + Wits + Resolve, ties broken by 1d10 roll-offs
# -----------------------------------------------------------------------------------------------
MAX_ROLLOFF_ROUNDS = 50


def _rolloff(ids: list[str], rng: random.Random, prefix: dict[str, tuple], notes: list, depth: int = 0) -> list[str]:
    """Order tied ids by 1d10 (higher first); equal rolls roll again (L730). After
    MAX_ROLLOFF_ROUNDS equal rounds (practically never) the given order stands, reported."""
    if len(ids) <= 1:
        return list(ids)
    if depth >= MAX_ROLLOFF_ROUNDS:
        notes.append(
            T(
                f"roll-off undecided after {depth} rounds: {', '.join(ids)} keep their listed order",
                f"переброс не решён за {ru_n(depth, 'раунд', 'раунда', 'раундов')}: порядок по списку — {', '.join(ids)}",
            )
        )
        return list(ids)
    rolls = {i: rng.randint(1, 10) for i in ids}
    for i in ids:
        prefix[i] = prefix[i] + (rolls[i],)
    notes.append(
        T(
            "roll-off " + ", ".join(f"{i} {rolls[i]}" for i in ids),
            "переброс " + ", ".join(f"{i} {rolls[i]}" for i in ids),
        )
    )
    out: list[str] = []
    for v in sorted(set(rolls.values()), reverse=True):
        same = [i for i in ids if rolls[i] == v]
        out += _rolloff(same, rng, prefix, notes, depth + 1)
    return out


def roll_initiative(combatants: Mapping[str, Any], rng: random.Random | None = None) -> InitiativeOrder:
    """Descending static initiative (L731); ties decided by 1d10 roll-offs, re-rolled while equal
    (L730). Tied groups are resolved from the highest initiative down, members in the given order,
    so the result is deterministic given the rng."""
    rng = rng if rng is not None else random.Random()
    values = {cid: c.initiative for cid, c in combatants.items()}
    keys: dict[str, tuple] = {cid: (v,) for cid, v in values.items()}
    order: list[str] = []
    tiebreaks: list[dict[str, str]] = []
    for v in sorted(set(values.values()), reverse=True):
        tied = [cid for cid in combatants if values[cid] == v]
        if len(tied) > 1:
            notes: list = []
            group = _rolloff(tied, rng, keys, notes)
            tiebreaks.append(
                {
                    **T(
                        f"initiative {v} tied ({', '.join(tied)}): "
                        + "; ".join(n["en"] for n in notes)
                        + f" → {', '.join(group)}",
                        f"инициатива {v} равна ({', '.join(tied)}): "
                        + "; ".join(n["ru"] for n in notes)
                        + f" → {', '.join(group)}",
                    ),
                    "ids": list(group),
                }
            )
            order += group
        else:
            order += tied
    rolls = {
        cid: InitiativeRoll(
            cid,
            keys[cid],
            T(
                f"initiative {values[cid]}" + (f", roll-off {list(keys[cid][1:])}" if len(keys[cid]) > 1 else ""),
                f"инициатива {values[cid]}" + (f", переброс {list(keys[cid][1:])}" if len(keys[cid]) > 1 else ""),
            ),
        )
        for cid in combatants
    }
    return InitiativeOrder(order=order, rolls=rolls, tiebreaks=tiebreaks)


def initiative_for_round(
    previous: InitiativeOrder, combatants: Mapping[str, Any], rules: Mapping[str, Any], rng: random.Random | None = None
) -> InitiativeOrder:
    """The order of a new round: the same order every round (L729, §11 #22 default), or fresh
    roll-offs for ties when the GM option ``reroll_ties_each_round`` is on."""
    if rules["reroll_ties_each_round"]:
        return roll_initiative(combatants, rng)
    if list(previous.order) == list(combatants) or set(previous.order) == set(combatants):
        return previous
    return keep_order(previous, combatants)


def insert_combatant(order: InitiativeOrder, combatants: Mapping[str, Any], new_id: str) -> InitiativeOrder:
    """Insert a late joiner by initiative value, after everyone with the same value (the book is
    silent, spec §6.2 default)."""
    v = combatants[new_id].initiative
    ids = [i for i in order.order if i != new_id]
    pos = len(ids)
    for k, cid in enumerate(ids):
        if combatants[cid].initiative < v:
            pos = k
            break
    ids.insert(pos, new_id)
    rolls = dict(order.rolls)
    rolls[new_id] = InitiativeRoll(new_id, (v,), T(f"initiative {v} (joined late)", f"инициатива {v} (присоединился)"))
    return InitiativeOrder(
        order=ids,
        rolls=rolls,
        tiebreaks=list(order.tiebreaks)
        + [{**T(f"{new_id} joined at place {pos + 1}", f"{new_id} вступил на место {pos + 1}"), "ids": [new_id]}],
    )


def keep_order(previous: InitiativeOrder, combatants: Mapping[str, Any]) -> InitiativeOrder:
    """The previous order for the combatants still present, late joiners inserted by initiative
    (spec §6.2, §10.3 item 1: "reuse each round; insert late joiners by initiative")."""
    ids = [i for i in previous.order if i in combatants]
    order = InitiativeOrder(
        order=ids,
        rolls={i: r for i, r in previous.rolls.items() if i in combatants},
        tiebreaks=[t for t in previous.tiebreaks if all(i in combatants for i in t.get("ids", ()))],
    )
    for cid in combatants:
        if cid not in ids:
            order = insert_combatant(order, combatants, cid)
    return order


# -----------------------------------------------------------------------------------------------
# Round economy (L66, L83-86, L90, spec §6.3)
# -----------------------------------------------------------------------------------------------
@dataclass
class RoundActions:
    """What each combatant used this round: one normal action, distinct instant checks once each."""

    rules: Mapping[str, Any]
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
        if not self.rules["instants_with_normal"] and self.instants_used.get(cid):
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
        if not self.rules["instants_with_normal"] and cid in self.normal_used:
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
            check_id in ("first_aid", "first_aid_skill") and self.rules["first_aid_in_rounds"]
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


# -----------------------------------------------------------------------------------------------
# Objects (L790-826)
# -----------------------------------------------------------------------------------------------
def structure_max(size: int) -> int:
    """Structure = 2 x Size (L792) for new objects; printed table values are kept as data (§11 #29)."""
    return 2 * size


def effective_durability(durability: int, armour_piercing: int = 0) -> int:
    """AP lowers Durability, never below 0 (L825, §11 #12)."""
    return max(0, durability - armour_piercing)


def effective_armour(armour: int, armour_piercing: int = 0) -> int:
    """AP also helps against a being's armour (L826): armour - AP, never below 0 (§11 #11)."""
    return max(0, armour - armour_piercing)


def damage_object(obj: Mapping[str, Any], amount: int) -> dict[str, Any]:
    """A copy of ``obj`` with ``amount`` more Structure damage; ``destroyed`` when full (L792)."""
    new = dict(obj)
    smax = obj.get("structure_max") or obj.get("structure") or structure_max(obj["size"])
    new["structure_damage"] = min(smax, obj.get("structure_damage", 0) + amount)
    new["structure_left"] = smax - new["structure_damage"]
    new["destroyed"] = new["structure_damage"] >= smax
    return new


def repair_object(obj: Mapping[str, Any], successes: int, rules: Mapping[str, Any]) -> dict[str, Any]:
    """A successful repair restores all Structure (§11 #28 default) or ``successes`` levels."""
    new = dict(obj)
    if successes < 1:
        return new
    if rules["repair_restores"] == "all":
        new["structure_damage"] = 0
    else:
        new["structure_damage"] = max(0, obj.get("structure_damage", 0) - successes)
    new["destroyed"] = False
    return new


# -----------------------------------------------------------------------------------------------
# Conditions (L684-716)
# -----------------------------------------------------------------------------------------------
_UNITS = {"day": "scene", "hour": "scene", "minute": "rounds", "damage": "until_removed"}


def condition_catalogue() -> list[ConditionSpec]:
    out = []
    for r in TABLES.rows("conditions"):
        attr, skill = CONDITION_CHECK[r["kind"]]
        out.append(
            ConditionSpec(
                id=r["id"],
                label=T(r["en"], r["ru"]),
                effect=T(f"-3 to {r['applies_to_en']}", f"-3 на {r['applies_to_ru']}"),
                duration=None,
                unit="until_removed",
                ticks_at="start",
                stacks=True,
                data={
                    "kind": r["kind"],
                    "penalty": STANDARD_MODIFIER,
                    "retry_interval": r["retry_interval"],
                    "removal_check": f"{attr}+{skill}",
                    "ends": T(r["ends_en"], r["ends_ru"]),
                    "line": r["line"],
                    "group": r.get("group"),
                },
            )
        )
    return out


#: Conditions the tracker may set that are not penalties on the sheet (spec §6.5, §6.9, §10.3).
TRACKER_CONDITIONS = (
    ConditionSpec(
        "fled",
        T("Fled", "Сбежал"),
        T("out of the fight", "вне боя"),  # L90
        data={"out_state": "fled", "line": 90},
    ),
    ConditionSpec(
        "surrendered",
        T("Surrendered", "Сдался"),
        T("out of the fight", "вне боя"),  # L90, L93
        data={"out_state": "surrendered", "line": 93},
    ),
    ConditionSpec(
        "exposed",
        T("Exposed to a threat (fire, acid, electricity)", "Под действием угрозы (огонь, кислота, ток)"),
        T(
            "at the start of each own turn: threat dice - PD, successes = damage",  # L673, L679
            "в начале каждого своего хода: дайсы угрозы - ФЗ, успехи = урон",
        ),  # L673, L679
        unit="until_removed",
        ticks_at="start",
        data={
            "dice": 6,
            "armour_applies": False,
            "line": 679,
            "help": T(
                "data: dice (6 minor ... 10 deadly, more if supernatural), armour_applies",
                "данные: dice (6 незначительная ... 10 смертельная), armour_applies",
            ),
        },
    ),
)


def condition_spec(condition_id: str) -> ConditionSpec:
    spec = next((s for s in (*condition_catalogue(), *TRACKER_CONDITIONS) if s.id == condition_id), None)
    if spec is None:
        raise RuleError("unknown_condition", T(f"no condition {condition_id!r}", f"нет Состояния {condition_id!r}"))
    return spec


_ENTRY_DATA = {
    "removal_difficulty": (
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
        "a whole number >= 0",
        "целое число >= 0",
    ),
    "category": (lambda v: isinstance(v, str), "text", "текст"),
    "applies_to": (lambda v: isinstance(v, str), "text", "текст"),
}


def condition_changed(
    c, condition_id: str, active: bool, rules: Mapping[str, Any], **data: Any
) -> DamageOutcome | None:
    """The tracker added (``active``) or removed a catalogue condition (spec §7.3, §10.3).

    Sheet conditions (the -3 ones) are added to / removed from ``c.conditions`` — checks then
    count them automatically (-3 each, stacking, L687, L775); ``data`` may carry
    ``removal_difficulty``, ``category`` (physical / mental / social / all / a skill; sickness:
    the Storyteller's pick, §11 #39) and ``applies_to``; other keys are the tracker's own and
    ignored. "fled" / "surrendered" set ``out_state`` (defeated, L90, L93). Pain follows damage
    by itself and "exposed" acts in ``on_turn``: neither changes the character here."""
    spec = condition_spec(condition_id)
    before = _snapshot(c, _TRACKED + ("conditions",))
    if condition_id in ("fled", "surrendered"):
        if active and c.out_state != condition_id and c.out_state not in ZERO_HEALTH_STATES:
            c.update(out_state=condition_id)
        elif not active and c.out_state == condition_id:
            c.update(out_state="")
        else:
            return None
        return _outcome(c, before, [spec.label if active else T("back in the fight", "снова в бою")], rules)
    if condition_id in ("pain", "exposed"):
        return None
    if active:
        bad = [f"{k}: {en}" for k, (test, en, ru) in _ENTRY_DATA.items() if k in data and not test(data[k])]
        if bad:
            raise RuleError(
                "bad_condition_data",
                T("bad condition data: " + "; ".join(bad), "неверные данные Состояния: " + "; ".join(bad)),
            )
        entry = condition_entry(
            condition_id,
            removal_difficulty=data.get("removal_difficulty", 3),
            category=data.get("category", ""),
            applies_to=data.get("applies_to", ""),
        )
        c.update(conditions=[*c.conditions, entry])
        note = T(f"{spec.label['en']}: -3 to {entry['applies_to']}", f"{spec.label['ru']}: -3")
    else:
        idx = [i for i, cond in enumerate(c.conditions) if cond.get("id") == condition_id]
        if not idx:
            return None
        c.update(conditions=[cond for i, cond in enumerate(c.conditions) if i != idx[-1]])
        note = T(f"{spec.label['en']} ends", f"{spec.label['ru']}: проходит")
    return _outcome(c, before, [note], rules)


def on_turn(
    system, c, when: str, rng: random.Random | None, conditions: Sequence[Mapping[str, Any]]
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
        # Help is for the helped character's check in round time (L767): queued help that this
        # turn did not use lapses at its end (help given after the turn waits for the next one).
        lapsed = [b for b in c.pending_bonus_dice if str(b.get("source", "")).strip().lower() == "help"]
        if not lapsed:
            return None
        before = _snapshot(c, _TRACKED + ("pending_bonus_dice",))
        c.update(pending_bonus_dice=[b for b in c.pending_bonus_dice if b not in lapsed])
        return _outcome(
            c,
            before,
            [
                T(
                    f"unused help lapses (+{sum(b['dice'] for b in lapsed)})",
                    f"неиспользованная помощь пропадает (+{sum(b['dice'] for b in lapsed)})",
                )
            ],
            system.rules,
            lapsed=lapsed,
        )
    exposures = [cond for cond in conditions if cond.get("id") == "exposed"]
    if not exposures:
        return None
    rng = rng if rng is not None else random.Random()
    before = _snapshot(c, _TRACKED)
    notes, threats = [], []
    for cond in exposures:
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
        result = system.threat(c, dice, rng=rng, armour_applies=bool(data.get("armour_applies", False)))
        damage = result.details.get("damage", 0)
        apply_damage(c, damage, system.rules)
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
    return _outcome(c, before, notes, system.rules, threats=threats)


def condition_entry(
    condition_id: str, *, removal_difficulty: int = 3, category: str = "", applies_to: str = ""
) -> dict[str, Any]:
    """The ``conditions`` list item for a catalogue condition."""
    spec = next((s for s in condition_catalogue() if s.id == condition_id), None)
    if spec is None:
        raise RuleError("unknown_condition", T(f"no condition {condition_id!r}", f"нет Состояния {condition_id!r}"))
    item = {
        "id": spec.id,
        "name": spec.label["en"],
        "kind": spec.data["kind"],
        "penalty": STANDARD_MODIFIER,
        "applies_to": applies_to or spec.effect["en"],
        "removal_difficulty": removal_difficulty,
        "retry_interval": spec.data["retry_interval"],
        "expires": spec.data["ends"]["en"],
    }
    if category:
        item["category"] = category
    return item


def condition_penalty(c, category: str | None = None, *, include_pain: bool = True) -> int:
    """Total penalty of conditions that fit a check of ``category`` (physical/mental/social):
    -3 each, stacking (L687, L775). A condition's scope is its ``category`` (sickness: the one
    chosen for it, §11 #39) or the catalogue's default (``conditions.CONDITION_SCOPES``; free-text
    conditions: all checks). Pain counts for every check while active (L708). Checks count them
    by themselves (``modifiers.sheet_defaults``), also by skill or check id."""
    n = 0
    for cond in c.conditions:
        if cond.get("id") == "pain":
            continue
        scope = condition_scope(cond)
        if category is None or scope in ("all", category):
            n += 1
    if include_pain and c.pain_active:
        n += 1
    return -STANDARD_MODIFIER * n


def interval_checks(duration: int, interval: int) -> int:
    """How many recurring checks an exposure of ``duration`` brings, one at the end of each full
    ``interval`` (L78: 60 minutes in a blizzard, a check every 15 -> 4)."""
    if interval <= 0:
        raise ValueError("interval must be positive")
    return duration // interval
