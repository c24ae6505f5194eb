"""Combat of Threads of Fate (spec §6) as pure functions: what the fragment states plus the GM-entered
defaults it needs (manoeuvres, wound thresholds and equipment values are missing from the book).
Medicine and treatment in progress live in ``medicine`` (re-exported here for ``combat.<name>`` callers)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import (
    CheckResult,
    ConditionSpec,
    DamageOutcome,
    InitiativeOrder,
    InitiativeRoll,
    OptionSpec,
    record_changes,
)
from tabletop_widgets.dice.distribution import Distribution

from .checks import attack_damage, die_succeeds, kept_die_pmf, roll_check, roll_kept
from . import data
from .traits import CHARACTERISTICS
from .medicine import MEDICINE_HEAL_DC as MEDICINE_HEAL_DC
from .medicine import MEDICINE_REVIVE_DC as MEDICINE_REVIVE_DC
from .medicine import Treatment as Treatment
from .medicine import begin_treatment as begin_treatment
from .medicine import end_treatment as end_treatment
from .medicine import medicine as medicine
from .medicine import medicine_heal_amount as medicine_heal_amount
from .medicine import medicine_turns as medicine_turns
from .medicine import start_treatment as start_treatment
from .medicine import treatment_turn as treatment_turn

GM_PROMPT_ZERO = T(
    "0 HP or less: unconscious or dying? The rules are not in this fragment: the GM decides.",
    "0 ЕЗ или меньше: без сознания или при смерти? Правил нет во фрагменте: решает мастер.",
)


def health(ch) -> tuple[int, int]:
    return (ch.hp if ch.hp is not None else 0, ch.hp_max if ch.hp_max is not None else 0)


def is_defeated(ch) -> bool:
    return health(ch)[0] <= 0 or "dead" in ch.conditions or "unconscious" in ch.conditions


# ------------------------------------------------------------------------------------------------
# Attack and Defense check (§6.5, §6.6)
# ------------------------------------------------------------------------------------------------
def durability_of(ch, *, options) -> int:
    """Durability with the GM's reading of the Combat robot's 'size modifier' (A26)."""
    if ch.has_attribute("combat_robot") and options.robot_dur_base == "sbp":
        return max(0, (ch.sbp() or 0) + ch.constitution_mod) + ch.durability_gm
    return ch.durability


def target_immune(target, kind: str | None) -> bool:
    if kind is None:
        return False
    return kind in target.immunities or (kind == "poison" and target.has_attribute("combat_robot"))  # L514


def target_resists(target, kind: str | None) -> bool:
    if kind is None:
        return False
    return kind in target.resistances or (kind == "contaminating" and target.has_attribute("combat_robot"))


def resist(dmg: int, *, options) -> int:
    """Resistance (L514) is not defined in the fragment (A39): halve, rounding down (default), or the
    GM's flat reduction ``resistance_flat`` (``resistance="flat"``); never below 0."""
    if options.resistance == "flat":
        return max(0, dmg - options.resistance_flat)
    return dmg // 2


def damage_taken(target, raw: int, kept: int | None, damage_kind: str | None, *, options) -> int:
    """The Damage a hit costs ``target``: ``raw`` (the margin over the Defense, or a bought minimal
    success's, A13) minus Durability (L347, L351), at least 1 on a natural 20 (L114), nothing when
    immune (A21), reduced when resistant (L514, A39; a natural 20 still costs at least 1)."""
    if target_immune(target, damage_kind):
        return 0
    dmg = max(0, raw - durability_of(target, options=options))
    if kept == 20:
        dmg = max(dmg, 1)
    if dmg and target_resists(target, damage_kind):
        dmg = max(1 if kept == 20 else 0, resist(dmg, options=options))
    return dmg


def attack_lands(kept: int | None, total: int, defense: int, *, options) -> bool:
    """Whether a rolled attack hits: the total reaches the Defense (L351; a natural 1 or 20 as the GM
    options say, A4/A14), and a natural 20 always does, as it always costs at least 1 HP (L114)."""
    if kept is None:
        return total >= defense
    return kept == 20 or die_succeeds(kept, total - kept, defense, options=options)


def contest_lands(kept: int | None, total: int, defense_total: int, *, options) -> bool:
    """Whether an attack wins its Contest: a strictly higher total (a tie changes nothing, L151; a
    natural 1 fails when the GM option says so, A4), and a natural 20 always lands (L114)."""
    if kept == 20:
        return True
    if kept == 1 and options.nat1_auto_fail:
        return False
    return total > defense_total


def resolve_attack(
    attacker,
    target,
    check_id: str = "valor",
    *,
    options,
    rng: random.Random | None = None,
    damage_kind: str | None = None,
    **choices,
) -> CheckResult:
    """Valor / Marksmanship against the target's Defense (L350-352): Damage = margin - Durability,
    a natural 20 always costs at least 1 HP (L114) unless the target is immune (A21). The Damage is
    reported in ``details`` (apply it with ``apply_damage(..., durability=False)``), with ``hit``."""
    if check_id not in ("valor", "valor_unarmed", "marksmanship"):
        raise RuleError("not_attack", T("attacks use valor, valor_unarmed or marksmanship", "атака — это Дб или Мт"))
    need_defense(target)
    res = roll_check(attacker, check_id, rng=rng, options=options, difficulty=target.defense, **choices)
    kept = res.details.get("kept")
    if res.details.get("bought") in ("success", "failure"):
        raw = res.details["damage_before_durability"]  # A13: a bought minimal success's Damage
    else:
        raw = minimal_hit(max(0, res.total - target.defense), options=options)  # L351, A13
    # L114: a natural 20 always costs at least 1 HP; L363: not when a characteristic at 0 fails the check
    hit = (bool(res.success) or kept == 20) and not res.details.get("drained")
    dmg = damage_taken(target, raw, kept, damage_kind, options=options) if hit else 0
    res.details.update(
        {
            "hit": hit,
            "damage": dmg,
            "target_defense": target.defense,
            "target_durability": durability_of(target, options=options),
            "damage_kind": damage_kind,
            "immune": target_immune(target, damage_kind),
        }
    )
    res.outcome = T(f"{res.outcome['en']}; Damage {dmg}", f"{res.outcome['ru']}; Повреждения {dmg}")
    return res


def minimal_hit(raw: int, *, options) -> int:
    """The Damage of a hit before Durability: its margin over the Defense (L351), at least the GM
    option ``min_success_damage`` (A13: 0 by default, as the book reads a total equal to the Defense;
    the same number for a bought minimal success, L189, so both readings are one)."""
    return max(raw, options.min_success_damage)


def need_defense(target) -> None:
    if target.defense is None:
        raise RuleError(
            "needs_gm_value",
            T(
                "The target's Defense needs the GM's size values first (the book's size table is missing).",
                "Для Защиты цели мастер должен сначала ввести значения размера (таблицы размеров во фрагменте нет).",
            ),
        )


def contest_defense_bonus(target, *, options) -> int:
    """Under the Contest rule the defender rolls d20 in place of Base Defense (L150):
    d20 + mDEX + ADB + SDB; the size part of BDEF is dropped unless ``contest_keep_sbp`` (A9)."""
    need_defense(target)
    bonus = target.defense - target.base_defense
    if options.contest_keep_sbp:
        bonus += target.base_defense - 10
    return bonus


def contest_attack(
    attacker,
    target,
    check_id: str = "valor",
    *,
    options,
    rng: random.Random | None = None,
    damage_kind: str | None = None,
    **choices,
) -> dict[str, Any]:
    """An attack under the Contest rule (L150-151, §5.8): Damage = attacker total - defender total
    (minus Durability) when positive; a tie changes nothing (L151), but a natural 20 always costs at
    least 1 HP (L114). A bought minimal success (Lucky!, L189) wins without the defender's roll and
    deals ``min_success_damage`` (A13); a bought critical success counts the die as 20 (L191)."""
    from .checks import contest_verdict

    rng = rng if rng is not None else random.Random()
    d_bonus = contest_defense_bonus(target, options=options)
    res = roll_check(attacker, check_id, rng=rng, options=options, difficulty=0, **choices)
    bought = res.details.get("bought")
    kept = res.details.get("kept")
    d_dice: list[int] = []
    d_total = None
    if bought in ("success", "failure"):
        winner, margin = ("a", 1) if bought == "success" else ("b", 1)
        hit, raw = bought == "success", options.min_success_damage
    elif bought == "critical_failure":
        winner, margin, hit, raw = "b", 1, False, 0
    else:
        d_kept, d_dice, _ = roll_kept(0, rng)
        d_total = d_kept + d_bonus
        winner, margin = contest_verdict(res.total, d_total)
        hit = contest_lands(kept, res.total, d_total, options=options) and not res.details.get("drained")
        if res.details.get("drained"):
            winner, margin = "b", max(1, d_total - res.total)  # L363: the attacker's check fails by itself
        raw = minimal_hit(max(0, res.total - d_total), options=options)
    dmg = damage_taken(target, raw, kept, damage_kind, options=options) if hit else 0
    return {
        "attack": res,
        "defense_dice": d_dice,
        "defense_bonus": d_bonus,
        "defense_total": d_total,
        "winner": winner,
        "margin": margin,
        "hit": hit,
        "damage": dmg,
    }


def attack_damage_distribution(bonus: int, defense: int, durability: int = 0, net: int = 0) -> Distribution:
    """Exact distribution of the Damage of one attack (§6.5)."""
    pmf: dict[int, Fraction] = {}
    for x, p in kept_die_pmf(net).items():
        d = attack_damage(x + bonus, defense, durability, x)
        pmf[d] = pmf.get(d, Fraction(0)) + p
    p_hit = sum((p for d, p in pmf.items() if d > 0), Fraction(0))
    return Distribution(pmf, p_pass=p_hit, expression="attack damage", outcome="total")


def defense_check(ch, difficulty: int, *, options, rng: random.Random | None = None, **choices) -> CheckResult:
    """Hazard Defense check (L354-357): d20 + (DEF - BDEF) vs DC; 1 Damage per point short,
    reduced by Durability by default (A20)."""
    res = roll_check(ch, "defense_check", rng=rng, options=options, difficulty=difficulty, **choices)
    raw = max(0, difficulty - res.total)
    dmg = max(0, raw - durability_of(ch, options=options)) if options.durability_vs_defense_check else raw
    res.details.update({"raw_damage": raw, "damage": dmg})
    return res


# ------------------------------------------------------------------------------------------------
# Damage and healing (§6.7-6.9)
# ------------------------------------------------------------------------------------------------
def damage_options() -> list[OptionSpec]:
    return [
        OptionSpec(
            "kind",
            T("Damage kind", "Вид Повреждений"),
            "choice",
            "",
            choices=(
                ("", T("ordinary", "обычные")),
                ("poison", T("Poison", "Ядовитые")),
                ("contaminating", T("Contaminating", "Загрязняющие")),
            ),
        ),
        OptionSpec(
            "durability",
            T("Subtract Durability", "Вычесть Прочность"),
            "bool",
            True,
            help=T(
                "off when the amount already had Durability taken off (attack results)",
                "выключите, если Прочность уже учтена (результат атаки)",
            ),
        ),
        OptionSpec("natural20", T("Natural 20 (at least 1)", "20 на кубике (не меньше 1)"), "bool", False),
        OptionSpec("ignore_protection", T("Ignore protection (Harm)", "Без учёта защиты (Ущерб)"), "bool", False),
    ]


def apply_damage(
    ch,
    amount: int,
    *,
    options,
    kind: str | None = None,
    durability: bool = True,
    natural20: bool = False,
    ignore_protection: bool = False,
) -> DamageOutcome:
    """Take Damage: Durability (L347), immunity/resistance (L514; A39 halve), natural-20 minimum (L114, A21).
    HP may go below 0; the GM decides what 0 or less means (thresholds missing, A37)."""
    if amount < 0:
        raise RuleError("negative_damage", T("Damage cannot be negative", "Повреждения не могут быть отрицательными"))
    kind = kind or None
    notes = []
    if target_immune(ch, kind) and not ignore_protection:
        dmg = 0
        notes.append(T(f"immune to {kind} Damage", f"Иммунитет к Повреждениям: {kind}"))
    else:
        dmg = amount
        dur = durability_of(ch, options=options)
        if durability and not ignore_protection and dur:
            dmg = max(0, dmg - dur)
            notes.append(T(f"Durability {dur}", f"Прочность {dur}"))
        if target_resists(ch, kind) and not ignore_protection:
            dmg = resist(dmg, options=options)
            if options.resistance == "flat":
                n = options.resistance_flat
                notes.append(T(f"resistant to {kind}: -{n}", f"Сопротивление ({kind}): -{n}"))
            else:
                notes.append(T(f"resistant to {kind}: halved", f"Сопротивление ({kind}): вдвое меньше"))
        if natural20:
            dmg = max(1, dmg)
    with record_changes(ch, ("hp",)) as out:
        new = (ch.hp if ch.hp is not None else 0) - dmg
        ch.hp = new
        if dmg and ch.treatment and not ch.treatment.get("interrupted"):
            _hit_while_treating(ch, dmg, out, options=options)
    out.notes[:0] = notes
    out.defeated = new <= 0
    out.details.update({"damage": dmg, "raw": amount})
    if ch.dangerous_wound_threshold is not None and dmg >= ch.dangerous_wound_threshold:
        out.notes.append(
            T(
                "Dangerous wound (GM-entered threshold): CON check",
                "Опасная рана (порог мастера): проверка Выносливости",
            )
        )
        out.details["dangerous_wound"] = True
    if new <= 0:
        out.state = GM_PROMPT_ZERO
        out.details["gm_prompt"] = True
    return out


def _hit_while_treating(ch, dmg: int, out: DamageOutcome, *, options) -> None:
    """L441: a medic treating in combat who loses HP >= Will is interrupted (A29: cumulative by default)."""
    t = Treatment.from_dict(ch.treatment, options=options)
    before = dict(ch.treatment)
    if t.medic_hit(dmg):
        out.notes.append(
            T("the treatment is interrupted (HP lost >= Will)", "лечение прервано (потеряно ЕЗ не меньше Воли)")
        )
        out.details["treatment_interrupted"] = True
    ch.treatment = t.to_dict()
    out.changes["treatment"] = (before, dict(ch.treatment))  # reported on every hit, changed or not


def apply_healing(ch, amount: int, *, options, source: str | None = None) -> DamageOutcome:
    """Restore HP up to the maximum. A Combat robot cannot be healed by Medicine or anything that
    heals the living; use Repair (L514). Medicine heals a patient once per day (L439, A28)."""
    if amount < 0:
        raise RuleError("negative_healing", T("healing cannot be negative", "лечение не может быть отрицательным"))
    robot = ch.has_attribute("combat_robot")
    if robot and source in ("medicine", "living"):
        raise RuleError(
            "robot_no_medicine",
            T(
                "a Combat robot is repaired, not healed: use Repair",  # L514
                "Боевого робота чинят, а не лечат: используйте Ремонт",
            ),
        )  # L514
    if not robot and source == "repair":
        raise RuleError(
            "repair_living",
            T("Repair restores Combat robots, not living beings", "Ремонт восстанавливает Боевых роботов, а не живых"),
        )
    if source in ("medicine", "repair") and ch.medicine_today and options.medicine_once_per == "patient":  # A28
        raise RuleError(
            "medicine_once_per_day",
            T(
                "this patient was already healed by Medicine today",  # L439
                "этого пациента уже лечили Медициной сегодня",
            ),
        )  # L439
    with record_changes(ch, ("hp", "medicine_today")) as out:
        old = ch.hp if ch.hp is not None else 0
        cap = ch.hp_max if ch.hp_max is not None else old + amount
        new = max(old, min(cap, old + amount))
        ch.hp = new
        if source in ("medicine", "repair"):
            ch.medicine_today = True
    out.defeated = new <= 0
    out.details["healed"] = new - old
    out.state = GM_PROMPT_ZERO if new <= 0 else None
    return out


# ------------------------------------------------------------------------------------------------
# Initiative (§6.2, A38)
# ------------------------------------------------------------------------------------------------
TYPE_RANK = {"hero": 2, "persona": 1, "extra": 0}


def roll_initiative(
    combatants: Mapping[str, Any], *, options, rng: random.Random | None = None, mode: str | None = None
) -> InitiativeOrder:
    """Order by Reaction (L323), static by default or d20 + Reaction; ties by DEX score, then heroes
    before personas before extras, then a d20 roll-off standing in for the GM's choice (reported; the
    GM may reorder), then the order the combatants were given."""
    rng = rng if rng is not None else random.Random()
    mode = mode or options.initiative_mode
    if mode not in ("static", "rolled"):
        raise RuleError("bad_mode", T("initiative mode is static or rolled", "порядок: static или rolled"))
    rolls: dict[str, InitiativeRoll] = {}
    n = len(combatants)
    for i, (cid, ch) in enumerate(combatants.items()):
        die = rng.randint(1, 20) if mode == "rolled" else None
        primary = ch.reaction + (die or 0)
        rolloff = rng.randint(1, 20)
        key = (primary, ch.effective_score("dexterity"), TYPE_RANK.get(ch.entity_type, 0), rolloff, n - i)
        text = T(
            f"{'d20 ' + str(die) + ' + ' if die else ''}Reaction {ch.reaction} = {primary}",
            f"{'к20 ' + str(die) + ' + ' if die else ''}Реакция {ch.reaction} = {primary}",
        )
        rolls[cid] = InitiativeRoll(cid, key, text, roll=die)
    order = sorted(rolls, key=lambda c: rolls[c].key, reverse=True)
    names = ("DEX score", "heroes before personas before extras", "d20 roll-off (GM may reorder)", "listed order")
    names_ru = (
        "значение Ловкости",
        "герои перед персонами и статистами",
        "бросок к20 (мастер может поменять)",
        "порядок в списке",
    )
    tiebreaks = []
    for a, b in zip(order, order[1:]):
        ka, kb = rolls[a].key, rolls[b].key
        if ka[0] != kb[0]:
            continue
        for j in range(1, 5):
            if ka[j] != kb[j]:
                tiebreaks.append(
                    {
                        "en": f"{a} before {b}: tie on Reaction {ka[0]}, broken by {names[j - 1]} ({ka[j]} vs {kb[j]})",
                        "ru": f"{a} раньше {b}: равная Реакция {ka[0]}, решил {names_ru[j - 1]} ({ka[j]} против {kb[j]})",
                        "pair": (a, b),
                        "ids": [a, b],
                        "by": names[j - 1],
                    }
                )
                break
    return InitiativeOrder(order, rolls, tiebreaks)


# ------------------------------------------------------------------------------------------------
# Conditions (§6.8)
# ------------------------------------------------------------------------------------------------
def conditions() -> list[ConditionSpec]:
    """The conditions the fragment names (§6.8); most effects are GM-applied (``data["gm_entered"]``)."""
    return [
        ConditionSpec(
            row["id"],
            T(row["en"], row["ru"]),
            T(row["effect"], row["effect_ru"]),
            duration=1 if row["unit"] == "scene" else None,
            unit=row["unit"],
            data={"line": row["line"], "gm_entered": row["gm_entered"]},
        )
        for row in data.rows("conditions")
    ]


def implied_conditions(ch) -> list[str]:
    """Conditions that follow from zero values (L363): CON 0 -> dead; any other characteristic,
    Reaction or Speed at 0 -> immobile; Will 0 -> obedient."""
    out = []
    eff = ch.effective
    if eff.get("constitution", 1) == 0:
        out.append("dead")
    if any(eff.get(c, 1) == 0 for c in CHARACTERISTICS if c != "constitution") or ch.reaction == 0 or ch.speed == 0:
        out.append("immobile")
    if ch.will == 0:
        out.append("obedient")
    if ch.hp is not None and ch.hp <= 0:
        out.append("gm_prompt_zero_hp")
    return out


def turn_slots() -> list[dict[str, Any]]:
    """[DEFAULT] per-turn slots the tracker offers (§6.4): one Manoeuvre, one Quick action."""
    return [
        {"id": "manoeuvre", **T("Manoeuvre", "Маневр"), "count": 1},
        {"id": "quick_action", **T("Quick action", "Быстрое действие"), "count": 1},
    ]


# ------------------------------------------------------------------------------------------------
# Tracker hooks: healing options, turn effects, catalogue conditions
# ------------------------------------------------------------------------------------------------
HEALING_SOURCES = (
    ("", T("other (rest, GM)", "другое (отдых, мастер)")),
    ("medicine", T("Medicine (once a day per patient)", "Медицина (раз в день на пациента)")),
    ("living", T("other means that heal the living", "иные средства для живых")),
    ("repair", T("Repair (Combat robot)", "Ремонт (Боевой робот)")),
)


def healing_options(ch) -> list[OptionSpec]:
    """The tracker's healing choices; ``apply_healing(ch, n, source=...)`` accepts them. A Combat robot is
    only repaired (L514); a living being is never repaired."""
    robot = ch.has_attribute("combat_robot")
    allowed = [c for c in HEALING_SOURCES if (c[0] in ("", "repair")) == robot or c[0] == ""]
    return [
        OptionSpec(
            "source",
            T("Healing by", "Чем лечат"),
            "choice",
            "",
            choices=tuple(allowed),
            help=T(
                "Medicine and Repair heal a patient once a day",  # L439, L514
                "Медицина и Ремонт лечат пациента раз в день",
            ),
        )
    ]  # L439, L514


def on_turn(ch, when: str, *, options, rng=None, conditions=()) -> DamageOutcome | None:
    """The fragment has no per-turn damage or regeneration. At the end of the medic's own turn a saved
    treatment (L441) counts one turn down; when it is complete the Medicine check is due."""
    if when not in ("start", "end"):
        raise RuleError("bad_option", T("when is 'start' or 'end'", "when: 'start' или 'end'"))
    if when != "end" or not ch.treatment or ch.treatment.get("interrupted"):
        return None
    r = treatment_turn(ch, options=options)
    note = (
        T("treatment complete: roll the Medicine check now", "лечение завершено: бросьте проверку Медицины")  # L441
        if r["done"]
        else T(f"treatment: {r['turns_left']} turn(s) left", f"лечение: осталось очередей {r['turns_left']}")
    )
    return DamageOutcome(
        changes=r["changes"],
        notes=[note],
        defeated=is_defeated(ch),
        details={"treatment_done": r["done"], "turns_left": r["turns_left"]},
    )


def condition_changed(ch, condition_id: str, active: bool, **data) -> DamageOutcome | None:
    """The tracker added/removed a catalogue condition: mirror it in ``Character.conditions`` (which
    ``is_defeated`` reads: dead and unconscious defeat the character, §6.8)."""
    known = {c.id for c in conditions()}
    if condition_id not in known:
        raise RuleError(
            "unknown_condition",
            T(f"no condition {condition_id!r} in the catalogue", f"нет состояния {condition_id!r} в каталоге"),
        )
    old = list(ch.conditions)
    if active and condition_id not in old:
        new = old + [condition_id]
    elif not active and condition_id in old:
        new = [c for c in old if c != condition_id]
    else:
        return None
    ch.conditions = new
    state = None
    if condition_id in ("dead", "unconscious") and active:
        state = next(c.label for c in conditions() if c.id == condition_id)
    return DamageOutcome(changes={"conditions": (old, list(new))}, defeated=is_defeated(ch), state=state)
