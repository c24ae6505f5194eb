"""Seasons attacks for the attack contract (issue #16; spec §6.4, §6.6; L90-101, L504-515,
L741, L762-777): the attacks an attacker can make on a target now, their exact odds, one roll of
one and what applying it changes.

There is one attack roll and no defence roll (L92): attribute + skill + the weapon's bonus, then
the target's Physical Defence and armour are subtracted; each success is one health level of
damage (L93). Every sheet weapon is attacked with its own skill and attribute (the sheet's
fields), and everyone can always fight unarmed (Strength + Melee, L504). What the sheet brings by
itself (the active Problem, relevant conditions, Pain, queued bonuses such as a prepared aim)
counts in the odds and in the roll, exactly like a check in the dice tray.
"""

from __future__ import annotations

import random
import re
from typing import Any, Mapping

from tabletop_widgets.core import AttackOdds, AttackOutcome, AttackSpec, Effect, OptionSpec, RuleError, T
from tabletop_widgets.core.attacks import defeat_chance
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.wording import ru_n
from tabletop_widgets.dice import Distribution

from .checks import plan_distribution, roll_plan
from .combat import attack_preset
from .data import label
from .drama import DRAMA_AGAINST, check_can_spend_drama
from .modifiers import sheet_defaults
from .objects import BROKEN, all_weapons, as_weapon
from .pending import consume_pending
from .pool_plan import HELP_CAP, PoolPlan, build_pool
from .presets import Preset

UNARMED = "unarmed"
#: the check an attack rolls -> (id prefix, contract kind, the kind's words)
ATTACK_KINDS = {
    "unarmed_attack": (UNARMED, "unarmed", T("Unarmed attack", "Безоружная атака")),
    "armed_attack": ("melee", "melee", T("melee", "ближний бой")),
    "thrown_attack": ("thrown", "ranged", T("thrown", "метательная атака")),
    "shooting": ("shooting", "ranged", T("shooting", "стрельба")),
}
#: the situation modifier's range: -1...-3 for range, dusk, cover; +1...+3 when it helps (L770, L776)
SITUATION_LIMIT = 3


# -----------------------------------------------------------------------------------------------
# Which attacks
# -----------------------------------------------------------------------------------------------
def weapon_slug(name: str) -> str:
    """A readable id for a weapon's name: lower case, words joined by ``_`` (``Нож`` -> ``нож``)."""
    return re.sub(r"\W+", "_", str(name).strip().lower()).strip("_") or "weapon"


def attack_plans(attacker) -> dict[str, tuple[Preset, Mapping | None]]:
    """Attack id -> (the check it rolls, the sheet weapon or None), in the sheet's order: the
    unarmed attack, then one per weapon with the weapon's own skill and attribute (``melee:<id>``,
    ``thrown:<id>``, ``shooting:<id>``; a second weapon of the same name gets ``_2``), then two
    per object with an attack bonus, an improvised weapon fought with or thrown (L794-795:
    ``melee:<id>`` Strength + Melee, ``thrown:<id>`` Strength + Ranged)."""
    out: dict[str, tuple[Preset, Mapping | None]] = {UNARMED: (attack_preset(UNARMED), None)}
    seen: dict[str, int] = {}

    def slug_of(name: str) -> str:
        slug = weapon_slug(name)
        seen[slug] = seen.get(slug, 0) + 1
        return slug if seen[slug] == 1 else f"{slug}_{seen[slug]}"

    for weapon in attacker.weapons:
        slug = slug_of(weapon.get("name", ""))
        preset = attack_preset("melee", weapon)
        out[f"{ATTACK_KINDS[preset.id][0]}:{slug}"] = (preset, weapon)
    for obj in attacker.objects:
        if not isinstance(obj, Mapping) or "attack_bonus" not in obj:
            continue
        slug = slug_of(obj.get("name", ""))
        for skill in ("melee", "ranged"):
            weapon = as_weapon(obj, skill)
            preset = attack_preset("melee", weapon)
            out[f"{ATTACK_KINDS[preset.id][0]}:{slug}"] = (preset, weapon)
    return out


def attack_list(attacker, target, *, options: GmOptions) -> list[AttackSpec]:
    """Every attack ``attacker`` can make on ``target`` now (none when out of the fight, L90)."""
    if attacker.defeated:
        return []
    out = []
    for attack_id, (preset, weapon) in attack_plans(attacker).items():
        specs = option_specs(preset, attacker, target, options=options)
        broken = bool(weapon and weapon.get("broken"))  # listed with why and what mends it (L792)
        out.append(
            AttackSpec(
                attack_id,
                attack_label(preset, weapon),
                kind=ATTACK_KINDS[preset.id][1],
                options=tuple(specs),
                defender_options=tuple(o.name for o in specs if o.name == "defender_drama"),
                help=attack_help(preset, weapon),
                unavailable=T(f"{weapon['name']}: {BROKEN['en']}", f"{weapon['name']}: {BROKEN['ru']}")
                if broken
                else None,
            )
        )
    return out


def attack_label(preset: Preset, weapon: Mapping | None) -> dict[str, str]:
    words = ATTACK_KINDS[preset.id][2]
    if weapon is None:
        return dict(words)
    name = weapon.get("name", "")
    if weapon.get("improvised"):
        return T(f"{name} (improvised weapon, {words['en']})", f"{name} (импровизированное оружие, {words['ru']})")
    return T(f"{name} ({words['en']})", f"{name} ({words['ru']})")


def attack_help(preset: Preset, weapon: Mapping | None) -> dict[str, str]:
    """What the attack rolls, in the book's words (L92-93, L504-515)."""
    attr, skill = label(preset.attribute), label(preset.skill)
    bonus = int(weapon.get("attack_bonus", 0)) if weapon else 0
    ap = int(weapon.get("armour_piercing", 0)) if weapon else 0
    gear_en = f" + weapon bonus {bonus}" if weapon else ""
    gear_ru = f" + бонус оружия {bonus}" if weapon else ""
    ap_en = f" (armour piercing {ap} lowers the armour)" if ap else ""
    ap_ru = f" (бронебойность {ap} снижает броню)" if ap else ""
    feint_en = feint_ru = ""
    if weapon and preset.skill == "melee" and weapon.get("attribute") == "dexterity":
        # L505-506: damage is Strength + Melee; Dexterity + Melee is the feint, with no damage
        feint_en = (
            " The sheet marks this weapon Dexterity, but a blow that deals damage is Strength + Melee;"
            " Dexterity + Melee is a feint (the dice tray's Touch attack / feint), which deals none."
        )
        feint_ru = (
            " На листе у оружия указана Ловкость, но урон наносит удар Силой + Ближним Боем;"
            " Ловкость + Ближний Бой — это финт (в лотке: «Касательная атака/финт»), он урона не наносит."
        )
    if weapon and weapon.get("improvised"):
        # L794: an object not made for fighting may need repair after the fight
        feint_en = " An object not made for fighting may need repairing after the fight."
        feint_ru = " Предмет, не предназначенный для боя, после схватки может понадобиться чинить."
    return T(
        f"{attr['en']} + {skill['en']}{gear_en} − the target's Physical Defence − the target's armour{ap_en}; "
        f"each success takes one health level.{feint_en}",
        f"{attr['ru']} + {skill['ru']}{gear_ru} − ФЗ цели − броня цели{ap_ru}; "
        f"каждый успех отнимает у цели уровень здоровья.{feint_ru}",
    )


def option_specs(preset: Preset, attacker, target, *, options: GmOptions) -> list[OptionSpec]:
    """The attack's options: what the attacker's sheet brings (specialization, Advantage, Problem,
    conditions: each offered when the sheet has one, pre-set as the dice tray would), Drama
    (player characters only, L739), aim, helpers, the situation, and the target's side."""
    out = _sheet_specs(preset, attacker, options=options)
    if attacker.is_player_character:
        out.append(
            OptionSpec(
                "drama",
                T("Spend a Drama point (+3)", "Потратить пункт Драмы (+3)"),
                kind="bool",
                default=False,
                help=T(f"Drama left: {attacker.drama}", f"осталось Драмы: {attacker.drama}"),
            )
        )
    out += [
        OptionSpec(
            "aim",
            T("Aimed: waited a round (+2)", "Ожидание: выжидал раунд (+2)"),
            kind="bool",
            default=False,
            help=T(
                "the attacker gave up last round's normal action to aim",
                "отказался от обычного действия, чтобы прицелиться",
            ),
        ),
        OptionSpec(
            "help",
            T("Allies helping (+1 each, at most +5)", "Помощь союзников (+1 за каждого, не больше +5)"),
            default=0,
            min=0,
            max=HELP_CAP,
        ),
        OptionSpec(
            "situation",
            T("Situation (range, dusk, cover: −3...+3)", "Ситуация (дальность, сумерки, укрытие: −3...+3)"),
            default=0,
            min=-SITUATION_LIMIT,
            max=SITUATION_LIMIT,
            help=T("the Storyteller's call: far away and at dusk is −2", "решает Рассказчик: далеко и в сумерках — −2"),
        ),
    ]
    return out + _target_specs(target)


def _sheet_specs(preset: Preset, attacker, *, options: GmOptions) -> list[OptionSpec]:
    """Specialization (L762), Advantage (+3, L764), Problem and conditions (-3 each, L775)."""
    auto = sheet_defaults(preset, attacker, {}, options=options)
    specs = [sp["name"] for sp in attacker.specializations if sp["skill"] == preset.skill]
    out: list[OptionSpec] = []
    if specs:
        out.append(
            OptionSpec(
                "specialization",
                T("Specialization", "Специализация"),
                kind="choice",
                default="",
                choices=(("", T("none", "нет")), *((n, T(n, n)) for n in specs)),
                help=T("its rating is added when it fits the attack", "её значение прибавляется, если подходит"),
            )
        )
    if attacker.advantages:
        out.append(
            OptionSpec(
                "advantage",
                T("An Advantage fits (+3)", "Подходит Преимущество (+3)"),
                kind="bool",
                default=bool(auto["advantage"]),
                help=T("the sheet's: " + ", ".join(attacker.advantages), "на листе: " + ", ".join(attacker.advantages)),
            )
        )
    if attacker.problems:
        out.append(
            OptionSpec(
                "problem",
                T("The Problem hinders (−3)", "Мешает Проблема (−3)"),
                kind="bool",
                default=bool(auto["problem"]),
                help=T("the sheet's: " + ", ".join(attacker.problems), "на листе: " + ", ".join(attacker.problems)),
            )
        )
    hindering = [c for c in attacker.conditions if c.get("id") != "pain"]
    if hindering:
        out.append(
            OptionSpec(
                "conditions",
                T("Conditions that hinder (−3 each)", "Мешающие Состояния (−3 каждое)"),
                default=auto["conditions"],
                min=0,
                max=len(hindering),
                help=T(
                    "on the sheet: " + ", ".join(c.get("name", "?") for c in hindering),
                    "на листе: " + ", ".join(c.get("name", "?") for c in hindering),
                ),
            )
        )
    return out


def _target_specs(target) -> list[OptionSpec]:
    """The target's side: its player's Drama (L741, L773), or the quick-fight rule against a
    rank-and-file NPC (L100)."""
    out: list[OptionSpec] = []
    if target.is_player_character:
        out.append(
            OptionSpec(
                "defender_drama",
                T("The target spends a Drama point (−3)", "Цель тратит пункт Драмы (−3)"),
                kind="bool",
                default=False,
                help=T(f"the target's Drama left: {target.drama}", f"у цели осталось Драмы: {target.drama}"),
            )
        )
    else:
        out.append(
            OptionSpec(
                "quick_fight",
                T("Quick fight: a rank-and-file enemy", "Проходной бой: рядовой противник"),
                kind="bool",
                default=False,
                gm_only=True,
                help=T(
                    "no health track: one success takes the target out",
                    "уровни здоровья не считаются: одного успеха достаточно, чтобы вывести цель из боя",
                ),
            )
        )
    return out


# -----------------------------------------------------------------------------------------------
# The pool
# -----------------------------------------------------------------------------------------------
def check_can_attack(attacker) -> None:
    """An attacker out of the fight cannot attack (L90, L93)."""
    if attacker.defeated:
        name = attacker.name or "The character"
        raise RuleError(
            "attacker_out",
            T(
                f"{name} is out of the fight and cannot attack.",
                f"{attacker.name or 'Персонаж'} выбывает из боя и не может атаковать.",
            ),
        )


def _pool_options(
    preset: Preset, weapon: Mapping | None, attacker, target, chosen: Mapping[str, Any], *, options: GmOptions
) -> dict[str, Any]:
    """The check options of the attack roll: the target's PD and armour (L92), the weapon's bonus
    and armour piercing (L91, L826) and what was chosen."""
    ap = int(weapon.get("armour_piercing", 0)) if weapon else 0
    defence = target.physical_defence
    if options.ap_reduces_pd:
        defence = max(0, defence - ap)  # GM option §11 #11: AP also lowers PD
    opts: dict[str, Any] = {
        "difficulty": defence,
        "armour": target.armour_penalty,
        "advantage": int(bool(chosen.get("advantage", False))),
        "problem": bool(chosen.get("problem", False)),
        "conditions": int(chosen.get("conditions", 0)),
        "drama": bool(chosen.get("drama", False)),
        "aim": bool(chosen.get("aim", False)),
        "help": int(chosen.get("help", 0)),
        "situation": int(chosen.get("situation", 0)),
        "opponent_drama": int(bool(chosen.get("defender_drama", False))),
    }
    # The attack's own "conditions" option counts the sheet's hindering conditions: none twice.
    for option_name, _name in sheet_defaults(preset, attacker, {}, options=options)["sheet_conditions"]:
        opts[option_name] = False
    if chosen.get("specialization"):
        opts["specialization"] = chosen["specialization"]
    if weapon is not None:
        same_name = [w for w in all_weapons(attacker) if w.get("name") == weapon.get("name")]
        if len(same_name) == 1:
            opts["weapon"] = weapon["name"]  # the pool shows «Weapon: knife»
        else:
            opts["tool_bonus"] = int(weapon.get("attack_bonus", 0))
            opts["armour_piercing"] = ap
    return opts


def _plan_of(attacker, target, attack_id: str, chosen: Mapping[str, Any], *, options: GmOptions):
    """(preset, weapon, check options, PoolPlan) of an offered attack; refuses what the rules forbid now."""
    check_can_attack(attacker)
    preset, weapon = attack_plans(attacker)[attack_id]
    if chosen.get("defender_drama"):
        by = str(target.name or "")
        if any(p.get("source") == DRAMA_AGAINST and p.get("by", "") == by for p in attacker.pending_penalties):
            raise RuleError(
                "drama_twice",
                T(
                    f"{target.name or 'The target'} has already spent a Drama point against this attack.",  # L742
                    f"{target.name or 'Цель'} уже потратил пункт Драмы против этой атаки.",
                ),
            )
        try:
            check_can_spend_drama(target)
        except RuleError as err:
            raise RuleError(
                "defender_no_drama",
                T(
                    f"{target.name or 'The target'} cannot spend Drama against the attack: {err.message['en']}.",
                    f"{target.name or 'Цель'} не может потратить Драму против атаки: {err.message['ru']}.",
                ),
            ) from None
    opts = _pool_options(preset, weapon, attacker, target, chosen, options=options)
    return preset, weapon, opts, build_pool(preset, attacker, opts, options=options)


def _damage(successes: int, target, quick_fight: bool) -> int:
    """The health levels the target loses: one per success (L93), never more than it has left
    (at 0 it is out, L93, L722); in a quick fight one success takes a rank-and-file enemy out
    (L100)."""
    left = max(0, target.health_max - target.damage)
    if successes < 1:
        return 0
    if quick_fight:
        return left
    return min(successes, left)


def pool_text(plan: PoolPlan, locale: str) -> str:
    """«Strength 3 + Melee 2 + Weapon: knife 1 − Physical Defence 3 = 3» for the notes."""
    parts = []
    for _key, lab, value in plan.terms:
        sign = "−" if value < 0 else "+"
        parts.append(f"{sign} {tr(lab, locale)} {abs(value)}")
    if plan.opposition:
        parts.append(f"− {tr(T('the target’s Physical Defence', 'ФЗ цели'), locale)} {plan.opposition}")
    text = " ".join(parts).removeprefix("+ ") or "0"
    return f"{text} = {plan.pool}"


# -----------------------------------------------------------------------------------------------
# Odds, one roll, applying it
# -----------------------------------------------------------------------------------------------
def attack_odds(
    system, attacker, target, spec: AttackSpec, chosen: Mapping[str, Any], *, options: GmOptions
) -> AttackOdds:
    """Exact odds (spec §5.4): the successes of the pool are binomial (each d10 succeeds on 6+,
    after the rule of 10), a hit is at least one success, the damage is the successes (L93)."""
    _preset, _weapon, _opts, plan = _plan_of(attacker, target, spec.id, chosen, options=options)
    successes = plan_distribution(plan)
    quick = bool(chosen.get("quick_fight"))
    pmf: dict[int, Any] = {}
    for s, p in successes.items():
        d = _damage(s, target, quick)
        pmf[d] = pmf.get(d, 0) + p
    damage = Distribution(pmf, expression=plan.notation(), outcome="damage")
    p_hit = successes.p_pass  # at least one success; 0 when no dice are left (L34)
    notes = [T(f"pool: {pool_text(plan, 'en')}", f"запас: {pool_text(plan, 'ru')}")]
    if plan.pool <= 0:
        notes.append(T("no dice are left: the attack cannot succeed", "дайсов не осталось: атака не может удаться"))
    notes += list(plan.warnings)
    return AttackOdds(spec.id, p_hit, damage, defeat_chance(system, target, damage), tuple(notes))


def resolve_attack(
    attacker, target, spec: AttackSpec, chosen: Mapping[str, Any], *, rng: random.Random, options: GmOptions
) -> AttackOutcome:
    """Roll the attack once with ``rng``; neither character changes (the queued bonuses the pool
    uses are taken off the sheet when the outcome is applied, :func:`consume_used`)."""
    preset, _weapon, opts, plan = _plan_of(attacker, target, spec.id, chosen, options=options)
    result = roll_plan(preset, plan, rng, opts)  # the roll itself changes no one
    hit = bool(result.success)
    successes = int(result.total or 0) if hit else 0
    quick = bool(chosen.get("quick_fight"))
    damage = _damage(successes, target, quick)
    target_effects = []
    if chosen.get("defender_drama"):
        target_effects.append(
            Effect("drama", -1, T("Drama spent against the attack (−3)", "Драма потрачена против атаки (−3)"))
        )
    notes = []
    if quick and successes > 1:
        more = successes - 1
        pd = target.physical_defence
        notes.append(
            T(
                f"quick fight: up to {more} more rank-and-file enemies with PD {pd} or less go down with this attack",
                f"проходной бой: этой же атакой можно вывести ещё {ru_n(more, 'рядового противника', 'рядовых противников', 'рядовых противников')} с ФЗ не выше {pd}",
            )
        )
    return AttackOutcome(
        attack_id=spec.id,
        hit=hit,
        damage=damage,
        label=dict(spec.label),
        text=_text(result, hit, damage, quick),
        dice=[result],
        attacker_effects=list(result.effects),
        target_effects=target_effects,
        notes=notes,
        details={
            "pool": plan.pool,
            "successes": successes,
            "faces": list(result.details.get("faces", [])),
            "pending_used": list(result.details.get("pending_used", [])),
            "quick_fight": quick,
        },
    )


def _text(result, hit: bool, damage: int, quick: bool) -> dict[str, str]:
    """One line for the log: the pool, the dice, hit or miss and the damage."""
    if not hit:
        verdict = T("miss", "промах")
    elif quick:
        verdict = T("hit: the rank-and-file enemy is out", "попадание: рядовой противник выведен из боя")
    else:
        verdict = T(f"hit, {damage} damage", f"попадание, урон {damage}")
    # (the log puts the attacker, the target and the attack's label before it)
    return {loc: f"{result.breakdown(loc)} — {verdict[loc]}" for loc in ("en", "ru")}


def consume_used(attacker, outcome: AttackOutcome) -> dict[str, tuple[Any, Any]]:
    """Take off the attacker's sheet the queued bonuses / penalties the roll used (spec §7.10)."""
    used = outcome.details.get("pending_used") or []
    if not used:
        return {}
    before = (list(attacker.pending_bonus_dice), list(attacker.pending_penalties))
    consume_pending(attacker, used)
    changes = {}
    if attacker.pending_bonus_dice != before[0]:
        changes["pending_bonus_dice"] = (before[0], list(attacker.pending_bonus_dice))
    if attacker.pending_penalties != before[1]:
        changes["pending_penalties"] = (before[1], list(attacker.pending_penalties))
    return changes


__all__ = [
    "ATTACK_KINDS",
    "UNARMED",
    "attack_list",
    "attack_odds",
    "attack_plans",
    "check_can_attack",
    "consume_used",
    "option_specs",
    "resolve_attack",
    "weapon_slug",
]
