"""The exact odds of an attack planned by ``fight.plan`` and one roll of it (the ``core.attacks``
contract's ``attack_odds`` and ``resolve_attack``; spec §6.7-§6.11). The laws and the damage are
those of ``attacks.py`` (``damage_distribution``, ``resolve_attack``), ``dice.py`` and the cast of
``magic.py``; nothing here changes a character."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import AttackCondition, AttackOdds, AttackOutcome, AttackSpec, Effect, T, count, tr
from tabletop_widgets.core.attacks import defeat_chance
from tabletop_widgets.core.wording import en_n, ru_n
from tabletop_widgets.dice import Distribution

from . import checks, data, magic
from .attacks import EFFECT_LABELS, ZONE_PENALTY, damage_distribution, resolve_attack, zone_armour, zone_effect
from .dice import net_law, read_faces, roll_faces
from .fight import NON_STACKING_WOUNDS, WOUND_CONDITION, Plan, damage_options, design, hp_pool, plan, target_cx, weapons


# -- exact odds -----------------------------------------------------------------------------------------
def _spell_law(target, p: Plan, chosen: Mapping[str, Any], *, options: Mapping[str, Any]) -> tuple[Fraction, dict]:
    """(P(hit), damage law) of a spell: the cast passes (net >= level) and beats the dodge."""
    la = net_law(max(0, p.att_pool), p.att_penalty, int(chosen.get("epic", 0)))
    ld = (
        net_law(max(0, p.def_pool), p.def_penalty, int(chosen.get("defence_epic", 0)))
        if p.def_check
        else {0: Fraction(1)}
    )
    p_hit = sum((pa * pd for a, pa in la.items() for d, pd in ld.items() if a >= p.level and a > d), Fraction(0))
    p_hit *= p.p_boost  # a boosted spell works only when its boost does (L314)
    eff = zone_armour(p.armour, chosen["zone"], target.helmet, options=options) if options.armour_vs_spells else 0
    dmg = max(0, p.base_damage - eff) * (2 if target.transforming else 1)  # L276, L119
    law = {0: 1 - p_hit}
    law[dmg] = law.get(dmg, Fraction(0)) + p_hit
    return p_hit, law


def odds(
    system, attacker, target, attack_id: str, chosen: Mapping[str, Any], *, options: Mapping[str, Any]
) -> AttackOdds:
    """The exact odds: P(hit) and the law of the damage the target takes (0 on a miss)."""
    p = plan(attacker, target, attack_id, chosen, options=options)
    if p.spell:
        p_hit, law = _spell_law(target, p, chosen, options=options)
    else:
        d = damage_distribution(
            p.att_pool,
            p.def_pool if p.def_check else None,
            p.base_damage,
            p.armour,
            zone=chosen["zone"],
            helmet=target.helmet,
            att_epic=int(chosen.get("epic", 0)),
            def_epic=int(chosen.get("defence_epic", 0)),
            att_penalty=p.att_penalty,
            def_penalty=p.def_penalty,
            transforming=bool(target.transforming),
            options=options,
        )
        p_hit, law = d.p_pass, {}
        for v, q in d.items():
            law[max(0, v)] = law.get(max(0, v), Fraction(0)) + q  # taken damage is never negative
    law = {k: v for k, v in sorted(law.items()) if v}
    damage = Distribution(law, expression=attack_id)
    dmg_opts = damage_options(target, p, chosen)
    return AttackOdds(
        attack_id,
        p_hit,
        damage,
        defeat_chance(system, target, damage, **dmg_opts),
        _odds_notes(target, p, law, dmg_opts, options=options),
    )


def _odds_notes(target, p: Plan, law: Mapping[int, Fraction], dmg_opts, *, options: Mapping[str, Any]) -> list:
    notes = [T(f"defence: {p.def_label['en']}", f"защита: {p.def_label['ru']}")]
    if target.transforming:
        notes.append(T("the target is transforming: damage doubled", "цель в трансформации: урон удвоен"))  # L119
    if not hp_pool(p, options=options):
        return notes
    wounds: dict[str, Fraction] = {}
    for dmg, q in law.items():
        eff = zone_effect(
            dmg_opts["zone"], dmg, target.hp_max, spell=p.spell, undead=dmg_opts["undead"], heads=dmg_opts["heads"]
        )
        if eff is not None:
            wounds[eff.kind] = wounds.get(eff.kind, Fraction(0)) + q
    for kind, q in wounds.items():
        pct = f"{float(q) * 100:.1f}%"
        notes.append(T(f"{EFFECT_LABELS[kind]['en']}: {pct}", f"{EFFECT_LABELS[kind]['ru']}: {pct}"))
    return notes


# -- one roll ---------------------------------------------------------------------------------------------
def _attack_roll(
    attacker, target, attack_id: str, p: Plan, chosen: Mapping[str, Any], rng, *, options: Mapping[str, Any]
):
    """The attacker's roll: (PoolResult, CheckResult shown, effects on the attacker)."""
    epic = int(chosen.get("epic", 0))
    if p.spell:
        res = magic.cast(
            attacker,
            attack_id.split(":", 1)[1],
            design(chosen),
            target_complexity=target_cx(target, chosen),
            epic=epic,
            rng=rng,
            options=options,
        )
        shown = checks.make_result(
            p.att_check, checks.PoolSpec(p.att_check, res.pool, 0, p.att_label, "cast"), res.roll, res.level, epic
        )
        return res.roll, shown, list(res.effects)
    n = p.att_pool - ZONE_PENALTY[chosen["zone"]]
    r = read_faces(roll_faces(n, rng), penalty=p.att_penalty, epic=epic, pool=n, fumble_basis=options.fumble_basis)
    shown = checks.make_result(
        p.att_check, checks.PoolSpec(p.att_check, n, p.att_penalty, p.att_label, "attack"), r, 1, epic
    )
    shown.outcome = _opposed_verdict(r)
    effects = [Effect("epic_dice", -epic, T("epic dice spent", "потрачены эпик-дайсы"))] if epic else []
    return r, shown, effects


def _opposed_verdict(r) -> dict[str, str]:
    """An opposed roll has no difficulty: its verdict is its successes (the attack's line says who
    won, L37), or a critical failure (L31)."""
    if r.fumble:
        return T("critical failure", "критический провал")
    return T(count(r.net, "success", "en"), count(r.net, "success", "ru"))


def _defence_roll(p: Plan, chosen: Mapping[str, Any], rng, *, options: Mapping[str, Any]):
    """The defender's reaction: (PoolResult or None, CheckResult shown or None, effects)."""
    if not p.def_check:
        return None, None, []
    epic = int(chosen.get("defence_epic", 0))
    r = read_faces(
        roll_faces(p.def_pool, rng),
        penalty=p.def_penalty,
        epic=epic,
        pool=p.def_pool,
        fumble_basis=options.fumble_basis,
    )
    shown = checks.make_result(
        p.def_check, checks.PoolSpec(p.def_check, p.def_pool, p.def_penalty, p.def_label, "defence"), r, 1, epic
    )
    shown.outcome = _opposed_verdict(r)
    effects = (
        [Effect("epic_dice", -epic, T("epic dice spent on the defence", "эпик-дайсы потрачены на защиту"))]
        if epic
        else []
    )
    return r, shown, effects


def resolve(
    attacker, target, spec: AttackSpec, chosen: Mapping[str, Any], *, rng: random.Random, options: Mapping[str, Any]
) -> AttackOutcome:
    """Roll the attack once with ``rng`` (the attacker's dice, then the defender's): hit, the damage
    the target takes, the effects on both sides, the wound as a condition, a line of text."""
    p = plan(attacker, target, spec.id, chosen, options=options)
    a, a_shown, a_effects = _attack_roll(attacker, target, spec.id, p, chosen, rng, options=options)
    boost = _boost_roll(attacker, p, a, rng)
    d, d_shown, d_effects = _defence_roll(p, chosen, rng, options=options)
    dmg_opts = damage_options(target, p, chosen)
    out = resolve_attack(
        a,
        d,
        p.base_damage,
        p.armour,
        zone=chosen["zone"],
        helmet=target.helmet,
        target_max_hp=target.hp_max,
        undead=dmg_opts["undead"],
        heads=dmg_opts["heads"],
        transforming=bool(target.transforming),
        spell=p.spell,
        options=options,
    )
    hit = out.hit and a.net >= p.level and (boost is None or boost[0])
    taken = max(0, out.damage) if hit else 0
    wound = out.zone_effect if hit and hp_pool(p, options=options) else None
    conditions = []
    if wound is not None:
        cond = WOUND_CONDITION[wound.kind]
        if not (cond in NON_STACKING_WOUNDS and any(w.get("kind") == wound.kind for w in target.wounds)):
            conditions.append(AttackCondition(cond, "target", data={} if cond == "dead" else {"record": False}))
    notes = []
    if a.fumble:
        notes.append(
            T(
                "critical failure: a mishap may follow (the GM says)",
                "критический провал: возможна неприятная случайность (решает мастер)",
            )
        )  # L194
    return AttackOutcome(
        spec.id,
        hit,
        taken,
        spec.label,
        _with_boost(_text(target, p, a, d, hit, taken, out, wound, chosen), boost),
        [x for x in (a_shown, boost[2] if boost else None, d_shown) if x is not None],
        attacker_effects=a_effects,
        target_effects=d_effects,
        damage_options=dmg_opts,
        conditions=conditions,
        notes=notes,
        details={
            "zone": chosen["zone"],
            "attacker_successes": a.net,
            "defender_successes": d.net if d is not None else None,
            "armour_pierced": bool(hit and out.armour_pierced),
            "wound": wound.kind if wound else None,
            "doubled": bool(target.transforming),
            "boost": None if boost is None else {"ok": boost[0], "brightness": p.base_damage if boost[0] else None},
            "shot_from": _shot_from(attacker, spec.id),
        },
    )


def _shot_from(attacker, attack_id: str) -> int | None:
    """The inventory index of a weapon the attack spends a shot of (L237), else None."""
    for w in weapons(attacker):
        if w.attack_id == attack_id and w.capacity is not None:
            return w.item
    return None


def _boost_roll(attacker, p: Plan, a, rng):
    """A boosted spell cast as designed is boosted the round after (L314): (works, the roll or
    None, the roll as shown or None); None when there is nothing to boost."""
    if not p.boosted or a.net < p.level:
        return None
    roll = magic.boost_roll(p.boost_pool, rng)
    ok = roll is None or bool(roll.passed)
    shown = None
    if roll is not None:
        label = T("Boost: Complexity", "Усиление: Сложность")
        shown = checks.make_result(
            "complexity", checks.PoolSpec("complexity", p.boost_pool, 0, label, "boost"), roll, 1, 0
        )
    return ok, roll, shown


def _with_boost(text: dict[str, str], boost) -> dict[str, str]:
    if boost is None:
        return text
    ok, roll, _shown = boost
    words = magic.boost_words(roll, ok, 0)
    if ok:  # the brightness is in the damage already; say only that the boost worked
        words = (
            T("boosted", "усилено")
            if roll is None
            else T(f"boosted ({roll.text('en')})", f"усилено ({roll.text('ru')})")
        )
    return T(f"{text['en']}; {words['en']}", f"{text['ru']}; {words['ru']}")


def _text(target, p: Plan, a, d, hit: bool, taken: int, out, wound, chosen) -> dict[str, str]:
    """One line for the log (after the attack's name): the zone, the successes on both sides,
    what it did."""
    zone = data.row(target.TABLES, "zones", chosen["zone"]) or {"en": chosen["zone"], "ru": chosen["zone"]}
    head_en = f"zone: {zone['en']}; {en_n(a.net, 'success', 'successes')}"
    head_ru = f"зона: {zone['ru']}; {ru_n(a.net, 'успех', 'успеха', 'успехов')}"
    if d is not None:
        head_en += f" against {d.net} ({tr(p.def_label, 'en')})"
        head_ru += f" против {d.net} ({tr(p.def_label, 'ru')})"
    if not hit:
        return T(f"{head_en}: miss", f"{head_ru}: промах")
    if taken == 0:
        return T(f"{head_en}: hit, no damage gets through", f"{head_ru}: попадание, но урон не проходит")
    en, ru = f"{head_en}: hit, {taken} damage", f"{head_ru}: попадание, урон {taken}"
    if out.armour_pierced and p.armour:
        en, ru = en + ", armour pierced", ru + ", броня пробита"  # L274
    if out.apply_options.get("doubled"):
        en, ru = en + " (doubled: transforming)", ru + " (удвоен: трансформация)"  # L119
    if wound is not None:
        en, ru = f"{en}; {wound.label['en']}", f"{ru}; {wound.label['ru']}"
    return T(en, ru)
