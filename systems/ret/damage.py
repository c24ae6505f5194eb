"""Damage (spec §6.11): the hit pipeline with armour durability and temporary armour, blasts, and
what harm leaves (survival and self-control rolls, thresholds, defeat)."""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from traitlets import Bool

from tabletop_widgets.core import DamageOutcome, Effect, OptionSpec, T
from tabletop_widgets.core.system import record_changes
from tabletop_widgets.core.options import GmOptions

from .checks import Divider, apply_divider
from .level import LevelRoll
from .shapes import armour_locations


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


def _wear(piece: dict, incoming: int, final_after: int, *, options: GmOptions) -> None:
    """Durability -1 when the armour protects from damage above 1 (L1391, A12); defence follows
    durability down (L1392, A13) unless the GM turns that off (L1397)."""
    trigger = incoming > 1 if options.durability_needs_raw_gt_1 else final_after > 1
    if trigger:
        piece["durability"] = max(0, piece["durability"] - 1)
        if options.defence_tracks_durability:
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
    attack: bool = False,
    options: GmOptions,
) -> dict:
    """The hit pipeline of spec §6.11.2 without touching the character: returns the new armour
    list, temp armour, Health and Sanity losses. ``attack``: the hit of a successful attack,
    which deals at least 1 Health whatever its raw damage and the armour (L1381: «при любой
    успешной атаке наносится 1 урона Здоровью»); other damage (burning, which the armour may stop
    entirely while it wears, L1492) has no minimum."""
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
        _wear(piece, incoming, dmg, options=options)
        notes.append(
            T(
                f"{piece.get('name', 'armour')}: −{incoming - dmg}, {before} → ({piece['defence']}, {piece['durability']})",
                f"{piece.get('name', 'броня')}: −{incoming - dmg}, {before} → ({piece['defence']}, {piece['durability']})",
            )
        )
    if dmg < 1 and not temp_used and attack:
        dmg = 1  # minimum 1 on a successful attack (L1381); temporary armour is the exception
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


def _wear_armour(c, hit: Mapping[str, Any]) -> None:
    """Set the armour and temporary armour a hit left."""
    if hit["armour"] != list(c.armour):
        c.armour = hit["armour"]
    if hit["temp_armour"] != c.temp_armour:
        c.temp_armour = hit["temp_armour"]


def apply_damage(
    c,
    amount: int,
    *,
    options: GmOptions,
    location: str = "body",
    head: bool = False,
    dual_wield: bool = False,
    armour_applies: bool = True,
    sanity: bool = False,
    attack: bool = False,
) -> DamageOutcome:
    """Apply a hit of ``amount`` raw damage by the pipeline of spec §6.11.2. ``head``: ×2 Health
    and ×1 Sanity after armour (A14); ``dual_wield``: ×2 (A15; or two hits); ``sanity``: plain
    Sanity harm (no armour); ``attack``: the hit of a successful attack (at least 1 Health even
    from 0 raw damage, L1381)."""
    with record_changes(c, HARMED) as out:
        if sanity:
            _harm_sanity(c, max(0, amount))
        elif c.dead:
            out.notes.append(T("already dead", "смерть уже наступила"))
        else:
            _hit(
                c,
                amount,
                out,
                location=location,
                head=head,
                dual_wield=dual_wield,
                armour_applies=armour_applies,
                attack=attack,
                options=options,
            )
    return settle(c, out, options=options)


#: the traits a hit may change (recorded in its outcome)
HARMED = ("armour", "temp_armour", "dead", "aim_bonus", "health", "stabilised_health", "sanity")


def _harm_sanity(c, amount: int) -> None:
    """Plain Sanity harm: new harm below 0 ends its stabilisation (A19)."""
    old = c.sanity
    c.sanity = old - amount
    if c.sanity < old and c.sanity < 0:
        c.stabilised_sanity = False


def _hit(
    c,
    amount: int,
    out: DamageOutcome,
    *,
    location: str,
    head: bool,
    dual_wield: bool,
    armour_applies: bool,
    options: GmOptions,
    attack: bool = False,
) -> None:
    """One attack's hits (two with ``dual_wield_mode="two_hits"``) through the armour, and what
    the Health and Sanity lost end (aim, a coma, stabilisation)."""
    mult = 2 if head else 1
    if dual_wield and options.dual_wield_mode == "multiply":
        mult *= 2
    hits = 2 if dual_wield and options.dual_wield_mode == "two_hits" else 1
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
            attack=attack,
            options=options,
        )
        _wear_armour(c, r)
        total_h += r["health_loss"]
        total_s += r["sanity_loss"]
        out.notes.extend(r["notes"])
    if _take_losses(c, total_h, total_s, options=options):
        out.notes.append(T("damage in coma: final death", "урон в коме: окончательная смерть"))
    if (total_h or total_s) and c.aim_bonus:
        c.aim_bonus = 0  # aim is lost on any damage (L939)
    out.details["health_loss"] = total_h
    out.details["sanity_loss"] = total_s


def _take_losses(c, health_loss: int, sanity_loss: int, *, options: GmOptions) -> bool:
    """Health and Sanity lost: damage in a coma is final death (L328, L1516, returns True); new
    harm ends stabilisation (L576)."""
    died = c.has_condition("coma") and health_loss > 0 and options.coma_damage_is_death
    if died:
        c.dead = True
    if health_loss:
        c.health -= health_loss
        c.stabilised_health = False
    if sanity_loss:
        c.sanity -= sanity_loss
        c.stabilised_sanity = False
    return died


def settle(c, out: DamageOutcome, *, options: GmOptions) -> DamageOutcome:
    mult = options.threshold_multiplier
    if getattr(c, "is_npc", False) and c.npc_tier == "mook" and not c.dead:  # L1739: "on reaching 0"
        if c.health <= 0:
            out.changes["dead"] = (False, True)
            c.dead = True
        elif c.sanity <= 0 and not c.has_condition("coma"):
            c.conditions = list(c.conditions) + [{"id": "coma"}]
            out.details["add_conditions"] = ["coma"]
    if not c.dead and mult and c.health < -mult * c.health_max:  # L325, A21
        if options.health_threshold_outcome == "dead":
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
    out.details["survival_roll_when"] = options.survival_roll_timing  # A20
    out.details["self_control_roll"] = (
        not c.dead and c.sanity < 0 and not c.stabilised_sanity and not c.has_condition("coma")
    )
    out.defeated = not able(c)  # dead, coma, unconscious, doom; a mook at 0 Health
    out.state = _state(c)
    return out


def blast(
    c,
    raw: int,
    *,
    options: GmOptions,
    dodged: bool = False,
    composure: LevelRoll | None = None,
    divider: Divider | None = None,
) -> DamageOutcome:
    """An explosion (L1340-1372): armour applies; a successful dodge that cannot leave the area
    halves the final damage, floor (A32); Sanity loss = Health damage − the Composure roll through
    a divider (A31). An explosion is an area attack (L860): at least 1 Health on a hit (L1381)."""
    r = compute_hit(c, raw, attack=True, options=options)
    health_loss = r["health_loss"]
    if dodged:
        num, den = options.blast_dodge_fraction
        health_loss = health_loss * num // den
    base = health_loss if options.blast_sanity_from == "health_damage" else raw
    mit = 0
    if composure is not None and divider is not None:
        mit = apply_divider(composure.total, divider, fail=composure.fail, on_fail=options.divider_on_fail)
    sanity_loss = max(0, base - mit)
    with record_changes(c, HARMED) as out:
        _wear_armour(c, r)
        _take_losses(c, health_loss, sanity_loss, options=options)
    out.details.update(health_loss=health_loss, sanity_loss=sanity_loss, mitigation=mit)
    out.notes.extend(r["notes"])
    return settle(c, out, options=options)


def able(c) -> bool:
    """Able to continue: not dead, in coma, unconscious or doomed; a mook at 0 Health is out."""
    if c.dead or any(c.has_condition(x) for x in ("coma", "unconscious", "doom")):
        return False
    return not (c.is_npc and c.npc_tier == "mook" and c.health <= 0)


def is_defeated(c) -> bool:
    """Dead, in coma, unconscious or doomed; a mook at 0 Health (L1739). Negative Health alone is
    not defeat: survival rolls decide (L574)."""
    if c.dead or any(c.has_condition(x) for x in ("coma", "unconscious", "doom")):
        return True
    return c.is_npc and c.npc_tier == "mook" and c.health <= 0


def damage_options(c) -> list[OptionSpec]:
    """What the tracker asks with damage: hit location, two weapons, armour, Sanity harm, and
    whether it is the hit of an attack (the minimum of 1, L1381)."""
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
        OptionSpec(
            "attack",
            T("Hit of an attack (at least 1)", "Попадание атаки (не меньше 1)"),
            "bool",
            True,
            help=T(
                "A successful attack always costs at least 1 Health, whatever the armour. Untick it for"
                " ongoing harm such as burning, which the armour may stop entirely.",
                "Успешная атака всегда снимает хотя бы 1 Здоровья, какой бы ни была броня. Снимите отметку"
                " для длящегося вреда вроде горения: его броня может остановить полностью.",
            ),
        ),
    ]


def effect_value(c, trait: str, old: Any, delta: int) -> Any:
    """The value an effect of ``delta`` gives ``trait``: Luck never below 0 (L355) and may exceed
    its maximum; Health/Sanity gains capped at the maximum (L327, L343), losses may go negative; a
    flag is set by a positive effect and cleared by another."""
    if isinstance(c.traits()[trait], Bool):
        return delta > 0
    if trait == "luck":
        return max(0, old + delta)
    if trait in ("health", "sanity") and delta > 0:
        return max(old, min(getattr(c, f"{trait}_max"), old + delta))
    return old + delta


def unstabilised_by(c, effects: Sequence[Effect]) -> list[str]:
    """The resources (``health``, ``sanity``) that ``effects`` harm below 0: new harm ends their
    stabilisation (A19)."""
    out: list[str] = []
    current: dict[str, Any] = {}
    for e in effects:
        if e.trait not in ("health", "sanity") or e.delta > 0:
            continue
        old = current.get(e.trait, getattr(c, e.trait))
        new = current[e.trait] = effect_value(c, e.trait, old, e.delta)
        if new < 0 and new < old and e.trait not in out:
            out.append(e.trait)
    return out
