"""Creation and advancement rules V01-V23 (spec §4.2) as Problems."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Mapping, Sequence

from tabletop_widgets.core.problems import Problem
from tabletop_widgets.core.rule_problems import problem
from tabletop_widgets.core.wording import ru_n
from .fate import THREADS_CAP
from .options import hero_caps
from .traits import CHARACTERISTICS, CHAR_LABELS, CREATION_MAX, EXPERT_SKILLS, HERO_MAX, SKILLS, skill_label


def validate(ch, party: Iterable = (), *, options) -> list[Problem]:
    """Every problem of ``ch`` (V01-V22), and V23 against ``party``, by the hero's phase.

    Only in creation: the characteristic points (V01-V03, V06, L271-274), the picks of a new
    hero and the creation XP (V07-V13, L263-268), the size the GM approves (V16, V17, L303) and
    the duplicates "at the start" (V23, L265-267). Always: the characteristics' range (V04,
    V05), the skills under Intelligence and the Expert skills' access (V14, V15), the Combat
    robot, the Augmented hero and Martial arts (V18-V21) and the Threads (V22). In play XP buys
    skills, Tricks and Threads and the hero changes."""
    problems = (
        _characteristic_problems(ch, options=options)
        + _creation_problems(ch)
        + _skill_problems(ch)
        + _body_problems(ch)
        + _threads_problems(ch)
    )
    if ch.phase != "creation":
        return [p for p in problems if p.code not in _CREATION_ONLY]
    return problems + party_duplicates(ch, party)


#: the codes reported only while the hero is being created (V01-V03 and V07-V13 are computed
#: only then; V06 and V16/V17 are about the build and the GM's approval of it)
_CREATION_ONLY = frozenset({"V06", "V16", "V17"})


def _characteristic_problems(ch, *, options) -> list[Problem]:
    """V01-V06: the point budget and the characteristics' ranges (a persona built as a hero, A46, too)."""
    hero = hero_caps(ch.entity_type, options=options)
    creation = ch.phase == "creation"
    npc_sev = "error" if hero else "warning"  # NPC builder: V01-V06 become warnings (L279)
    out: list[Problem] = []
    budget = options.char_points
    spent = ch.char_points_spent
    if creation:
        if spent > budget:
            out.append(
                problem(
                    "V01",
                    f"You have spent {spent} characteristic points; the budget is {budget}. Remove {spent - budget}.",
                    f"Очков характеристик распределено {spent}, а можно {budget}. Уберите {spent - budget}.",
                    "char_points_spent",  # shown beside the points spent, not only in the sheet check
                    npc_sev,
                    spent=spent,
                    budget=budget,
                )
            )
        elif spent < budget and hero:
            out.append(
                problem(
                    "V02",
                    f"{budget - spent} characteristic points are still unspent.",
                    f"Осталось нераспределённых очков характеристик: {budget - spent}.",
                    "char_points_spent",
                    "warning",
                    left=budget - spent,
                )
            )
        for c in CHARACTERISTICS:
            v = getattr(ch, c)
            if v > CREATION_MAX:
                lab = CHAR_LABELS[c]
                out.append(
                    problem(
                        "V03",
                        f"{lab['en']} is {v}; at creation no characteristic may exceed 18.",
                        f"{lab['ru']} = {v}; при создании героя ни одна характеристика не может превышать 18.",
                        c,
                        npc_sev if hero else "warning",
                    )
                )
    for c in CHARACTERISTICS:
        lab = CHAR_LABELS[c]
        capped = getattr(ch, c) + getattr(ch, c + "_bonus")
        if capped < 1 and hero:
            out.append(
                problem("V04", f"{lab['en']} must be at least 1.", f"{lab['ru']} не может быть меньше 1.", c, npc_sev)
            )
        if capped > HERO_MAX and hero:
            out.append(
                problem(
                    "V05",
                    f"{lab['en']} cannot exceed 20 (bonuses are capped too, except stimulants and implants).",
                    f"{lab['ru']} не может превышать 20 (кроме бонусов стимуляторов и имплантатов).",
                    c + "_bonus",
                    npc_sev,
                )
            )
    if budget < 60:
        out.append(
            problem(
                "V06",
                "Heroes built on fewer than 60 points are poorly suited for adventuring.",
                "Герои, собранные меньше чем на 60 очков, плохо приспособлены к приключениям.",
                None,
                "warning",
            )
        )
    return out


def _creation_problems(ch) -> list[Problem]:
    """V07-V13: what a new hero picks (Attributes, Tricks, Flaws, Facets, Bonds) and the XP in skills."""
    hero = ch.entity_type == "hero"
    out: list[Problem] = []
    n_attr = len(ch.attributes)
    if ch.phase == "creation":
        if n_attr > 2:
            out.append(
                problem(
                    "V07", "A new hero has at most 2 Attributes.", "У нового героя не больше 2 Атрибутов.", "attributes"
                )
            )
        k = max(0, 2 - n_attr)
        if ch.bonus_xp is not None and ch.bonus_xp != 5 * k:
            out.append(
                problem(
                    "V08",
                    f"Refusing {k} Attribute(s) gives exactly {5 * k} extra XP.",
                    f"Отказ от Атрибутов (их {k}) даёт ровно столько дополнительных Очков опыта: {5 * k}.",
                    "bonus_xp",
                )
            )
        nt = len(ch.tricks)
        if nt != 2 and hero:
            # L264 "Выберите для героя 2 Трюка": fewer is not a lighter build (the book offers XP for
            # refused Attributes, L263, and nothing for Tricks), so play cannot start without both
            out.append(
                problem(
                    "V09",
                    f"Choose exactly 2 Tricks (the hero has {nt}).",
                    f"Выберите 2 Трюка (сейчас {ru_n(nt, 'Трюк', 'Трюка', 'Трюков')}).",
                    "tricks",
                    count=nt,
                )
            )
        if len(ch.flaws) > 2:
            out.append(problem("V10", "At most 2 Flaws at creation.", "Не больше 2 Недостатков при создании.", "flaws"))
        if len(ch.facets) != n_attr and hero:
            out.append(
                problem(
                    "V11",
                    f"Choose {n_attr} Facet(s) — one per Attribute.",
                    f"Выберите Граней столько же, сколько Атрибутов: {n_attr}.",
                    "facets",
                )
            )
        if len(ch.bonds) > 2:
            out.append(problem("V12", "At most 2 Bonds at creation.", "Не больше 2 Уз при создании.", "bonds"))
        if ch.skill_xp_spent > ch.creation_xp and hero:
            out.append(
                problem(
                    "V13",
                    f"You have spent {ch.skill_xp_spent} XP on skills; {ch.creation_xp} are available.",
                    f"Очков опыта на Навыки потрачено {ch.skill_xp_spent}, доступно {ch.creation_xp}.",
                    "skill_xp_spent",
                )
            )
        if hero:
            out += _creation_xp_problems(ch)
    return out


def _creation_xp_problems(ch) -> list[Problem]:
    """V24, V25: a new hero's XP are the creation XP alone (10 for skills, +5 per refused Attribute,
    L263, L268); what is left of them becomes unspent XP when play starts (``play_changes``). More
    unspent XP, or XP already earned, can only be the GM's award in play (audit 3: typed in while
    creating, they were kept)."""
    out: list[Problem] = []
    if ch.xp_free:
        n = ch.xp_free
        out.append(
            problem(
                "V24",
                f"A new hero has no unspent XP besides the creation XP ({ch.creation_xp} for skills; what is "
                f"left of them becomes unspent XP when play starts). The {n} entered can only be the GM's "
                "award, in play.",
                f"У нового героя нет свободных Очков опыта, кроме ОО создания ({ch.creation_xp} на Навыки; их "
                f"остаток станет свободными ОО, когда начнётся игра). Указано {n}: такое даёт только мастер — "
                "наградой в игре.",
                "xp_free",
                entered=n,
            )
        )
    if ch.xp_total:
        n = ch.xp_total
        out.append(
            problem(
                "V25",
                f"A new hero has earned no XP yet ({n} entered): XP are earned in play, by the GM's awards.",
                f"Новый герой ещё не заработал Очков опыта (указано {n}): их зарабатывают в игре, награды даёт мастер.",
                "xp_total",
                entered=n,
            )
        )
    return out


def _skill_problems(ch) -> list[Problem]:
    """V14-V15: no skill above Intelligence, Expert skills only with access."""
    hero = ch.entity_type == "hero"
    out: list[Problem] = []
    for s in list(SKILLS):
        v = getattr(ch, s)
        lab = skill_label(s)
        if v > ch.skill_cap:
            out.append(
                problem(
                    "V14",
                    f"{lab['en']} {v} exceeds Intelligence {ch.skill_cap}; a skill cannot exceed Intelligence.",
                    f"{lab['ru']} {v} больше Интеллекта {ch.skill_cap}: Навык не может превышать Интеллект.",
                    s,
                    "error" if hero else "warning",
                )
            )
        if s in EXPERT_SKILLS and v > 0 and not ch.has_access(s):
            out.append(
                problem(
                    "V15",
                    f"{lab['en']} is an Expert skill; you need an Attribute or Trick that grants access.",
                    f"{lab['ru']} — Экспертный навык; нужен Атрибут или Трюк, дающий к нему доступ.",
                    s,
                )
            )
    for cs in ch.custom_skills:
        v = int(cs.get("value", 0))
        if v > ch.skill_cap:
            out.append(
                problem(
                    "V14",
                    f"{cs.get('en') or cs['code']} {v} exceeds Intelligence {ch.skill_cap}.",
                    f"{cs.get('ru') or cs['code']} {v} больше Интеллекта {ch.skill_cap}.",
                    "custom_skills",
                    "error" if hero else "warning",
                )
            )
    return out


def _body_problems(ch) -> list[Problem]:
    """V16-V21: size, the Combat robot, the Augmented hero and Martial arts."""
    hero = ch.entity_type == "hero"
    out: list[Problem] = []
    robot = ch.has_attribute("combat_robot")
    if hero and ch.size != "medium" and not ch.gm_approved_size:
        out.append(
            problem(
                "V16",
                "Tiny, Small or Large heroes need the GM's approval.",
                "Крошечный, Маленький или Большой герой — только по договорённости с мастером.",
                "size",
            )
        )
    if hero and ch.size in ("huge", "gargantuan"):
        out.append(
            problem(
                "V17",
                "Huge and Gargantuan heroes are not recommended.",
                "Огромные и Громадные герои не рекомендуются.",
                "size",
                "warning" if robot else "error",
            )
        )
    if robot:
        if ch.armour_name or ch.armour_bonus or ch.armour_max_dex is not None:
            out.append(
                problem(
                    "V18",
                    "A Combat robot cannot wear armour (a shield is allowed).",
                    "Боевой робот не может носить доспех (щит — может).",
                    "armour_name",
                )
            )
        built = sum(1 for w in ch.weapons_list if w.get("built_in"))
        if built > ch.robot_max_weapons:
            n = ch.robot_max_weapons
            out.append(
                problem(
                    "V19",
                    f"A Combat robot can have at most {n} built-in weapons.",
                    f"В Боевого робота можно встроить не больше {ru_n(n, 'орудия', 'орудий', 'орудий')}.",
                    "weapons_list",
                )
            )
    if ch.has_attribute("augmented") and len(ch.changes) > ch.augmented_max_changes:
        n = ch.augmented_max_changes
        out.append(
            problem(
                "V20",
                f"Augmented heroes may have at most {n} Changes (CON modifier, minimum 1).",
                f"Не больше {ru_n(n, 'Изменения', 'Изменений', 'Изменений')} (модификатор Выносливости, минимум 1).",
                "changes",
            )
        )
    if ch.has_attribute("martial_arts"):
        bad = [w.get("name", "") for w in ch.weapons_list if w.get("cumbersome") and w.get("equipped", True)]
        if ch.armour_max_dex is not None:
            bad.append(ch.armour_name or "armour")
        if ch.shield_max_dex is not None:
            bad.append(ch.shield_name or "shield")
        for item in bad:
            out.append(
                problem(
                    "V21",
                    f"Martial arts benefits are suspended while using this item ({item}).",
                    f"Преимущества Боевых искусств теряются при использовании этого предмета ({item}).",
                    "weapons_list",
                    "warning",
                    item=item,
                )
            )
    return out


def _threads_problems(ch) -> list[Problem]:
    """V22: 0-5 Threads; extras hold none (L64)."""
    out: list[Problem] = []
    if not 0 <= ch.threads <= THREADS_CAP:
        out.append(problem("V22", "Threads must be between 0 and 5.", "Нитей может быть от 0 до 5.", "threads"))
    elif ch.entity_type == "extra" and ch.threads:
        out.append(problem("V22", "Extras cannot hold Threads.", "У статистов не бывает Нитей.", "threads"))  # L64
    return out


def party_duplicates(ch, party: Iterable) -> list[Problem]:
    """V23: a Flaw, Facet or Bond another hero already has (warning)."""
    out = []
    for key in ("flaws", "facets", "bonds"):
        mine = {str(i.get("name", "")).strip().lower(): i.get("name", "") for i in getattr(ch, key)}
        for other in party:
            if other is ch:
                continue
            for item in getattr(other, key):
                nm = str(item.get("name", "")).strip().lower()
                if nm and nm in mine:
                    x = mine[nm]
                    out.append(
                        problem(
                            "V23",
                            f"Another hero already has {x}; duplicates are not recommended at start.",
                            f"{x} уже есть у другого героя; на старте повторять не рекомендуется.",
                            key,
                            "warning",
                        )
                    )
    return out


def validate_party(characters: Mapping[Any, Any] | Sequence, *, options) -> list[Problem]:
    """Every character's problems with the rest of the party in view (V23 duplicates), for a party given
    as ``{id: character}`` (or a list, ids being the positions); each problem's ``data["character"]`` is
    the character's id."""
    party = dict(characters) if isinstance(characters, Mapping) else dict(enumerate(characters))
    members = list(party.values())
    return [
        dataclasses.replace(p, data={**p.data, "character": cid})
        for cid, ch in party.items()
        for p in validate(ch, members, options=options)
    ]
