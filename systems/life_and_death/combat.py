"""Combat (spec §6) as pure functions: health states, applying damage and healing, wounds, the
tracker's conditions and their start/end-of-turn effects.

Initiative lives in ``initiative.py``, the action economy in ``actions.py``, attacks and hit zones
in ``attacks.py``; their names are re-exported here (``combat.roll_initiative`` and the like)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tabletop_widgets.core.system import record_changes
from tabletop_widgets.core import (
    DamageOutcome,
    OptionSpec,
    RuleError,
    T,
)

from . import data
from .actions import (
    BLOCK_DIRECTION_DICE,
    FREE,
    ORDINARY,
    REACTIONS,
    TurnState,
    block_pool,
    can_dodge_spell,
    extra_actions,
    noncombat_skill_dice,
    run_distance,
    start_turn,
    take_action,
    use_held_action,
)
from .attacks import (
    EFFECT_LABELS,
    HEAD_ZONES,
    ZONE_PENALTY,
    AttackOutcome,
    ZoneEffect,
    attack,
    damage_distribution,
    dodge_spell,
    luck_targeting,
    opposed,
    pick_luck_target,
    pierces,
    reaches,
    resolve_attack,
    resolve_counterattack,
    transformed_damage,
    zone_armour,
    zone_effect,
)
from .conditions import CATALOGUE_DATA, CONDITIONS
from .initiative import (
    coordinate_attack,
    coordination_pool,
    initiative_options,
    initiative_pool,
    join_combat,
    p_coordination,
    roll_initiative,
)


# -- applying damage and health states (§6.10-§6.12) -------------------------------------------------------
LETHAL_WOUNDS = ("decapitated", "skull_pierced")
POOL_LABELS = {
    "hp": T("HP", "HP"),
    "ep": T("EP (pattern)", "EP (узор)"),
    "sp": T("SP (soul)", "SP (душа)"),
    "ip": T("IP (idea)", "IP (идея)"),
}


def health_state(c, *, options: Mapping[str, Any]) -> str:
    """dead (a lethal wound, L264/L268, or the GM's / tracker's ``status``), incapacitated
    (``status``, or HP <= 0 by OPTION zero_hp_state, A-10), wounded, healthy."""
    if any(w.get("kind") in LETHAL_WOUNDS for w in c.wounds) or getattr(c, "status", "") == "dead":
        return "dead"
    if getattr(c, "status", "") == "incapacitated":
        return "incapacitated"
    if c.hp is not None and c.hp <= 0:
        z = options.zero_hp_state
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


def damage_pool(damage_type: str, *, options: Mapping[str, Any]) -> str:
    """The pool a damage type hurts or a healing of it restores (OPTION damage_type_pools);
    an unknown type is refused, naming the known ones."""
    pools = options.damage_type_pools
    if damage_type not in pools:
        raise _bad(
            "bad_damage_type",
            f"Unknown damage type {damage_type!r} (known: {', '.join(pools)}).",
            f"Неизвестный тип урона {damage_type!r} (известны: {', '.join(pools)}).",
        )
    return pools[damage_type]


def _outcome(c, changes: dict, notes: list, *, options: Mapping[str, Any], **details) -> DamageOutcome:
    state = health_state(c, options=options)
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
    note: str = "",
    doubled: bool = False,
    options: Mapping[str, Any],
) -> DamageOutcome:
    """Reduce the pool matching the damage type (§3.4 [DEFAULT]); zone effects add Wounds.
    Doubled while the target transforms (L119): the option, or the character's ``transforming``;
    but only once: ``doubled=True`` says ``amount`` already is the doubled damage (an attack's,
    see ``attacks.AttackOutcome.apply_options``), so it is taken as it is.
    ``details["wound"]`` names a wound recorded here (the tracker need not add its condition)."""
    _amount(amount, "Damage")
    pool = damage_pool(damage_type, options=options)
    if zone not in ZONE_PENALTY:
        raise _bad(
            "bad_zone",
            f"Unknown hit zone {zone!r} (known: {', '.join(ZONE_PENALTY)}).",
            f"Неизвестная зона {zone!r} (известны: {', '.join(ZONE_PENALTY)}).",
        )
    if isinstance(heads, bool) or not isinstance(heads, int) or heads < 1:
        raise _bad("bad_heads", "Heads: a whole number >= 1.", "Голов: целое число >= 1.")
    doubling = bool(transforming) or bool(getattr(c, "transforming", False))
    dmg = amount * 2 if doubling and not doubled else amount  # L119: doubled once
    new = getattr(c, pool) - dmg
    if pool != "hp":
        new = max(0, new)
    eff = zone_effect(zone, dmg, c.hp_max, spell=spell, undead=undead, heads=heads) if pool == "hp" else None
    with record_changes(c, ("wounds", pool)) as out, c.hold_trait_notifications():
        setattr(c, pool, new)
        if eff is not None:
            c.wounds = list(c.wounds) + [eff.wound(note)]
    if doubling:
        out.notes.append(T("doubled: target is transforming", "удвоено: цель в трансформации"))  # L119
    if eff is not None:
        out.notes.append(eff.label)
    return _outcome(
        c,
        out.changes,
        out.notes,
        options=options,
        pool=pool,
        damage=dmg,
        zone_effect=eff.kind if eff else None,
        wound=eff.kind if eff else None,
    )


def effect_value(c, trait: str, new: Any) -> Any:
    """The value an effect leaves on ``trait`` (``new`` = the value plus the effect's delta):
    epic dice 0..|reputation| (below 0 refused), EP/SP/IP 0..their maximum, HP at most its
    maximum; other traits as given."""
    if trait == "epic_dice":
        if new < 0:
            raise RuleError("not_enough_epic_dice", T("Not enough epic dice.", "Недостаточно эпик-дайсов."))
        return min(new, abs(c.reputation))
    if trait in ("ep", "sp", "ip"):
        return max(0, min(new, getattr(c, trait + "_max")))
    if trait == "hp":
        return min(new, c.hp_max)
    return new


def damage_options(character) -> list[OptionSpec]:
    """What the tracker offers when dealing damage: the type, the zone and the target's state."""
    return [
        OptionSpec(
            "damage_type",
            T("Damage type", "Тип урона"),
            "choice",
            "physical",
            choices=tuple((r["id"], T(r["en"], r["ru"])) for r in character.TABLES.rows("damage_types")),
        ),
        OptionSpec(
            "zone",
            T("Hit zone", "Зона попадания"),
            "choice",
            "torso",
            choices=tuple((r["id"], T(r["en"], r["ru"])) for r in character.TABLES.rows("zones")),
        ),
        OptionSpec("transforming", T("Target transforming (×2)", "Цель в трансформации (×2)"), "bool", False),
        OptionSpec("spell", T("Spell (thresholds ×2)", "Заклинание (пороги ×2)"), "bool", False),
        OptionSpec("undead", T("Undead", "Нежить"), "bool", False),
        OptionSpec("heads", T("Heads", "Голов"), "int", 1, 1, 9),
    ]


def healing_options(c, *, options: Mapping[str, Any]) -> list[OptionSpec]:
    """What the tracker offers when healing: the pool (HP/EP/SP/IP, §3.4) or, equivalently, the
    damage type being healed (mapped by OPTION damage_type_pools), and whether to lift a state
    the GM set. The seed gives no recovery rules (A-10): amounts are the GM's."""
    pools = options.damage_type_pools
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
    c, amount: int, *, pool: str = "hp", damage_type: str = "", clear_status: bool = False, options: Mapping[str, Any]
) -> DamageOutcome:
    """Restore a pool up to its max (no rules for recovery in the seed, A-10: the GM sets the
    amount). ``damage_type`` picks the pool by OPTION damage_type_pools instead of ``pool``."""
    _amount(amount, "Healing")
    if damage_type:
        pool = damage_pool(damage_type, options=options)
    if pool not in ("hp", "ep", "sp", "ip"):
        raise _bad(
            "bad_pool",
            f"Unknown pool {pool!r} (hp, ep, sp, ip).",
            f"Неизвестный вид здоровья {pool!r}: HP, EP, SP или IP.",
        )
    old = getattr(c, pool)
    with record_changes(c, ("status", pool)) as out, c.hold_trait_notifications():
        setattr(c, pool, min(getattr(c, pool + "_max"), old + amount))
        if clear_status and getattr(c, "status", "") == "incapacitated":
            c.status = ""
            out.notes.append(T("no longer incapacitated (GM)", "недееспособность снята (Мастер)"))
    return _outcome(c, out.changes, out.notes, options=options, pool=pool, healed=getattr(c, pool) - old)


# -- ongoing effects and tracker conditions (§6.10, §6.12) ------------------------------------------------
WOUND_CONDITIONS = {
    "limb_broken": "limb",
    "limb_severed": "limb",
    "tail_severed": "tail",
    "face_lost": "head_face",
    "skull_pierced_wound": "head_skull",
    "head_severed": "neck",
}


def _turn_steps(conditions: Sequence[Mapping[str, Any]], when: str, *, options: Mapping[str, Any]) -> list[tuple]:
    """The ``ongoing_damage`` / ``regeneration`` steps due ``when``, every condition's data
    checked first (bad data -> RuleError before anything is applied)."""
    steps = []
    for inst in conditions or ():
        cid = inst.get("id") if isinstance(inst, Mapping) else None
        if cid not in ("ongoing_damage", "regeneration"):
            continue
        # the catalogue's data are the defaults (amount 1, physical / HP, at the start)
        d = {**dict(CATALOGUE_DATA.get(cid, {})), **dict(inst.get("data") or {})}
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
            pools = options.damage_type_pools
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
    return steps


def on_turn(
    c,
    when: str,
    *,
    rng: random.Random | None = None,
    conditions: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any],
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
    steps = _turn_steps(conditions, when, options=options)
    with record_changes(c, ("transforming", "status", "wounds", "hp", "ep", "sp", "ip")) as out:
        if when == "start" and getattr(c, "transforming", False):
            c.transforming = False
            out.notes.append(
                T(
                    "transformation over: damage no longer doubled",  # L119
                    "трансформация закончилась: урон больше не удваивается",
                )
            )
        for kind, amount, kw in steps:
            if kind == "damage":
                o = apply_damage(c, amount, options=options, **kw)
                out.notes.append(
                    T(
                        f"ongoing damage {amount} ({kw['damage_type']})",
                        f"продолжающийся урон {amount} ({kw['damage_type']})",
                    )
                )
            else:
                o = apply_healing(c, amount, options=options, **kw)
                out.notes.append(
                    T(f"regeneration +{amount} {kw['pool'].upper()}", f"регенерация +{amount} {kw['pool'].upper()}")
                )
            out.notes.extend(n for n in o.notes if n not in out.notes)
    if not out.changes and not out.notes:  # a tick that changes nothing still reports itself
        return None
    return _outcome(c, out.changes, out.notes, options=options)


def condition_changed(
    c, condition_id: str, active: bool, data: Mapping[str, Any] | None = None, *, options: Mapping[str, Any]
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
    with record_changes(c, ("transforming", "status", "wounds")) as out:
        if condition_id == "transforming":
            c.transforming = bool(active)
        elif condition_id in ("dead", "incapacitated"):
            _set_state(c, condition_id, active)
        elif condition_id in WOUND_CONDITIONS:
            _wound_condition(c, condition_id, active, data, out.notes)
    if not out.changes:
        return None
    return _outcome(c, out.changes, out.notes, options=options)


def _set_state(c, state: str, active: bool) -> None:
    """``dead`` / ``incapacitated`` set or lifted; lifting one leaves the other (a lethal wound
    keeps the character dead); incapacitating the dead changes nothing."""
    old = c.status
    if active and not (state == "incapacitated" and old == "dead"):
        c.status = state
    elif not active and old == state:
        c.status = ""


def _wound_condition(c, condition_id: str, active: bool, data: Mapping[str, Any], notes: list) -> None:
    """A wound condition added (a Wounds entry, unless ``record=False``) or removed (the latest
    entry of its kind)."""
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
        c.wounds = wounds


def add_wound(c, kind: str, zone: str | None = None, note: str = "") -> dict:
    """Record a wound (A-36: no mechanical effect; a lethal kind makes the character dead).
    ``kind`` is a ``wound_kinds`` id or free text (then ``zone`` is needed). Returns the entry."""
    row = data.row(c.TABLES, "wound_kinds", kind) if isinstance(kind, str) else None
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


#: Combat's own names, then those of ``actions``, ``attacks`` and ``initiative`` reached through it.
__all__ = [
    "LETHAL_WOUNDS",
    "POOL_LABELS",
    "health_state",
    "STATE_LABELS",
    "apply_damage",
    "damage_options",
    "effect_value",
    "healing_options",
    "apply_healing",
    "WOUND_CONDITIONS",
    "on_turn",
    "condition_changed",
    "add_wound",
    "remove_wound",
    "CONDITIONS",
    "ZONE_PENALTY",
    "zone_effect",
    "BLOCK_DIRECTION_DICE",
    "FREE",
    "ORDINARY",
    "REACTIONS",
    "TurnState",
    "block_pool",
    "can_dodge_spell",
    "extra_actions",
    "noncombat_skill_dice",
    "run_distance",
    "start_turn",
    "take_action",
    "use_held_action",
    "EFFECT_LABELS",
    "HEAD_ZONES",
    "AttackOutcome",
    "ZoneEffect",
    "attack",
    "damage_distribution",
    "dodge_spell",
    "luck_targeting",
    "opposed",
    "pick_luck_target",
    "pierces",
    "reaches",
    "resolve_attack",
    "resolve_counterattack",
    "transformed_damage",
    "zone_armour",
    "coordinate_attack",
    "coordination_pool",
    "initiative_options",
    "initiative_pool",
    "join_combat",
    "p_coordination",
    "roll_initiative",
]
