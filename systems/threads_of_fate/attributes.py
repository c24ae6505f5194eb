"""The four Attributes of the fragment (spec §8.6): formulas and their operations."""

from __future__ import annotations

import random
from typing import Any

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from .traits import mod


def _factor(x: int, *, options) -> int:
    clamp = options.robot_factor_clamp  # A24: clamp each factor at 0 before multiplying
    return x if clamp is None else max(clamp, x)


# -- Augmented (L495-506) ------------------------------------------------------------------------
def augmented_pool(con: int) -> int:
    return max(1, 1 + mod(con))  # L499


def augmented_max_changes(con: int) -> int:
    return max(1, mod(con))  # L498


def activate_change(ch, change: str) -> dict:
    """Activate one Augmented Change: a Quick action, lasts the scene, from the shared pool (L499)."""
    if not ch.has_attribute("augmented"):
        raise RuleError(
            "not_augmented",
            T("only an Augmented hero activates Changes", "Изменения активирует только Аугментированный"),
        )
    if change not in [c.get("name") for c in ch.changes]:
        raise RuleError("unknown_change", T(f"the hero has no Change {change!r}", f"у героя нет Изменения {change!r}"))
    if ch.change_activations_used >= ch.augmented_pool:
        raise RuleError(
            "pool_empty",
            T(
                f"all {ch.augmented_pool} activations are used until the next meeting",  # L499
                f"активации израсходованы до следующей встречи (всего {ch.augmented_pool})",
            ),
        )  # L499
    old = ch.change_activations_used
    ch.change_activations_used = old + 1
    return {"change_activations_used": (old, old + 1), "left": ch.augmented_pool - old - 1}


# -- Combat robot (L508-522) ---------------------------------------------------------------------
def robot_repair_full(con: int, intl: int, *, options) -> int:
    return max(4, _factor(1 + mod(con), options=options) * _factor(1 + mod(intl), options=options))  # L516, L519


def robot_repair_half(con: int, intl: int, pick: str = "constitution") -> int:
    """Energy-saving mode: (1 + mCON) or (1 + mINT), minimum 2; the player picks (L520, A27)."""
    return max(2, 1 + (mod(con) if pick == "constitution" else mod(intl)))


def robot_leak_radius(con: int, intl: int, *, options) -> int:
    return max(4, _factor(1 + mod(con), options=options) * _factor(1 + mod(intl), options=options))  # L522


def robot_contamination_damage(con: int) -> int:
    return max(2, mod(con) + 1)  # L521


def robot_durability(size_mult: int, con: int, sbp: int = 0, *, options) -> int:
    """A26: 'size modifier' read as the HP size multiplier (Medium 3) by default, or SBP."""
    base = size_mult if options.robot_dur_base == "hp_multiplier" else sbp
    return base + mod(con)


def robot_max_weapons(con: int, *, options) -> int:
    """L512 "|1 + МВн| орудий", no minimum stated: at least the GM's ``robot_min_weapons`` (A25, 0)."""
    return max(options.robot_min_weapons, 1 + mod(con))


def robot_repair_outcome(ch, band: str, pick: str = "constitution", *, options) -> dict[str, Any]:
    """What the Trouble band of 'Automatic repair processes' without Threads does (L519-522)."""
    con, intl = ch.effective_score("constitution"), ch.effective_score("intelligence")
    if band == "A":
        return {"heal": robot_repair_full(con, intl, options=options), "area_damage": 0, "radius": 0}
    if band == "B":
        if options.energy_saving_pick == "higher":  # A27: the larger of the two, not the player's pick
            pick = "constitution" if mod(con) >= mod(intl) else "intelligence"
        return {"heal": robot_repair_half(con, intl, pick), "area_damage": 0, "radius": 0}
    dmg = robot_contamination_damage(con)
    if band == "C":
        out = {"heal": 1, "area_damage": dmg, "radius": 1, "kind": "contaminating"}
    else:
        out = {
            "heal": 0,
            "area_damage": dmg,
            "radius": robot_leak_radius(con, intl, options=options),
            "kind": "contaminating",
        }
    # A40: "все в N метрах от него" leaves the robot out by default; the GM's reading hits it too,
    # through its resistance to Contaminating Damage (L514)
    out["self_damage"] = _self_contamination(dmg, options=options) if options.robot_discharge_self else 0
    return out


def _self_contamination(dmg: int, *, options) -> int:
    from .combat import resist

    return resist(dmg, options=options)


# -- Martial arts (L524-531) ---------------------------------------------------------------------
def secrets_no_thread_difficulty(hp_lost: int) -> int:
    """'Secrets of mastery' without Threads: Valor check vs 10 + HP that would be lost (L531)."""
    return 10 + hp_lost


# -- Veteran (L533-543) ----------------------------------------------------------------------------
VETERAN_SCROUNGE_DC = 10  # L537


def veteran_scrounge(ch, rng: random.Random | None = None, *, options) -> dict[str, Any]:
    """WIS check vs 10 for free food or items of price <= 5; on failure a Trouble check on the
    Veteran table (L537-542). The failure margin is not applied by default (A34)."""
    from .checks import roll_check, roll_trouble

    if not ch.has_attribute("veteran"):
        raise RuleError("not_veteran", T("only a Veteran scrounges this way", "так добывать может только Ветеран"))
    rng = rng if rng is not None else random.Random()
    check = roll_check(ch, "wisdom", rng=rng, options=options, difficulty=VETERAN_SCROUNGE_DC)
    out: dict[str, Any] = {"check": check, "trouble": None}
    if not check.success:
        margin = check.margin if options.veteran_trouble_margin else 0
        out["trouble"] = roll_trouble(rng=rng, options=options, margin=margin, table="veteran")
    return out


# -- Unique moves, with and without Threads (§7.3, §8.6) ------------------------------------------------
def _thread_effect(ch, label):
    from tabletop_widgets.core.system import Effect

    if ch.entity_type == "extra":
        raise RuleError(
            "extra_no_threads",
            T(
                "extras make Unique moves only without Threads",  # L64
                "статисты совершают Уникальные ходы только без Нитей",
            ),
        )  # L64
    if ch.threads < 1:
        raise RuleError(
            "not_enough_threads", T("this Unique move needs 1 Thread", "этот Уникальный ход требует 1 Нить")
        )
    return Effect("threads", -1, label)


def steel_and_flesh(
    ch,
    *,
    options,
    with_threads: bool = True,
    difficulty: int = 15,
    check_id: str = "strength+athletics",
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """Augmented 'Steel and flesh' (L500-506). With a Thread: the STR/Athletics check counts as a
    natural 20 with critical effects. Without: INT check (GM difficulty), then a Trouble check
    +- the INT margin on the Augmented table (no 'Lucky!' best variant, L478)."""
    from .checks import roll_check, roll_trouble

    if not ch.has_attribute("augmented"):
        raise RuleError(
            "not_augmented", T("only an Augmented hero has this move", "этот Ход есть только у Аугментированного")
        )
    if with_threads:
        eff = _thread_effect(ch, T("Steel and flesh (1 Thread)", "Сталь и плоть (1 Нить)"))
        return {"works": True, "die": 20, "critical": "success", "check_id": check_id, "swt": 0, "effects": [eff]}
    rng = rng if rng is not None else random.Random()
    check = roll_check(ch, "intelligence", rng=rng, options=options, difficulty=difficulty)
    trouble = roll_trouble(rng=rng, options=options, margin=check.margin, table="augmented")
    row = trouble.details["row"]
    notes = []
    if difficulty > 20:  # L477, A50
        notes.append(
            T(
                "a Unique move without Threads should not need more than 20",
                "сложность Уникального хода без Нитей рекомендуется не выше 20",
            )
        )
    return {"works": row["works"], "swt": row["swt"], "check": check, "trouble": trouble, "effects": [], "notes": notes}


def automatic_repair(
    ch, *, options, with_threads: bool = True, pick: str = "constitution", rng: random.Random | None = None
) -> dict[str, Any]:
    """Combat robot 'Automatic repair processes' (L516-522), a Quick action."""
    from .checks import roll_trouble

    if not ch.has_attribute("combat_robot"):
        raise RuleError("not_robot", T("only a Combat robot has this move", "этот Ход есть только у Боевого робота"))
    con, intl = ch.effective_score("constitution"), ch.effective_score("intelligence")
    if with_threads:
        eff = _thread_effect(ch, T("Automatic repair (1 Thread)", "Ремонтные процессы (1 Нить)"))
        return {"heal": robot_repair_full(con, intl, options=options), "area_damage": 0, "radius": 0, "effects": [eff]}
    trouble = roll_trouble(rng=rng, options=options, table="combat_robot")
    return {**robot_repair_outcome(ch, trouble.degree, pick, options=options), "trouble": trouble, "effects": []}


def secrets_of_mastery(
    ch,
    hp_lost: int,
    *,
    options,
    with_threads: bool = True,
    check_id: str = "valor_unarmed",
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """Martial arts 'Secrets of mastery' (L529-531), a Quick action: ignore the HP loss of an
    attacking manoeuvre. Without Threads: Valor vs 10 + HP lost; failure: takes the Damage and falls."""
    from .checks import roll_check

    if not ch.has_attribute("martial_arts"):
        raise RuleError(
            "not_martial", T("only a Martial artist has this move", "этот Ход есть только у мастера Боевых искусств")
        )
    if not ch.martial_arts_active:
        raise RuleError(
            "martial_suspended",
            T(
                "not usable with a Cumbersome weapon or DEX-capping armour/shield",  # L530
                "неприменим с Громоздким оружием или доспехом/щитом, ограничивающим МЛв",
            ),
        )
    if with_threads:
        eff = _thread_effect(ch, T("Secrets of mastery (1 Thread)", "Секреты мастерства (1 Нить)"))
        return {"ignored": True, "hp_lost": 0, "prone": False, "effects": [eff]}
    check = roll_check(ch, check_id, rng=rng, options=options, difficulty=secrets_no_thread_difficulty(hp_lost))
    return {
        "ignored": bool(check.success),
        "hp_lost": 0 if check.success else hp_lost,
        "prone": not check.success,
        "check": check,
        "effects": [],
    }
