"""Advancement in Threads of Fate (spec §7.4, §7.1.3): what experience buys once the hero is in play.

The fragment prices three things, and only these are offered:

* a skill point: a skill's value is the XP put into it, so +1 costs 1 XP (L369), never above the
  hero's Intelligence (L370); an Expert skill only with access from an Attribute or a Trick (L410-412);
  the GM's own skills (A32) alike;
* a Trick: 5 XP (L157); which Expert skill it opens, if any, is the GM's call (the Trick catalogue
  is not in the fragment);
* Threads of Fate: 1 XP each, as the campaign's ``xp_threads_mode`` allows (L166-169): up to 3 at a
  meeting's start, up to 5 between scenes, or none to buy when unspent XP already count as Threads.

Raising a characteristic or taking an Attribute later has no price in the fragment (§7.4): the GM
changes those on the sheet. Every plan runs the existing rules operation (``fate.raise_skill``,
``fate.buy_trick``, ``fate.buy_threads``) on a scratch copy of the hero, so the checks and the numbers
are those of the operations players already use.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from tabletop_widgets.core.advancement import AdvancePlan, AdvanceSpec, Resource, not_in_play, spend
from tabletop_widgets.core.combat.records import clone_character
from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import OptionSpec
from tabletop_widgets.core.wording import en_n, ru_n
from . import fate
from .traits import EXPERT_SKILLS, SKILLS, TRICK_COST, skill_label

#: the experience a hero has to spend: the creation XP left over, then the GM's awards
XP = Resource("xp_free", T("Experience", "Очки опыта"), T("XP", "ОО"))

SKILL_POINT_COST = 1  # L369: the value of a skill is the XP invested in it
THREAD_COST = 1  # L167-168: 1 Thread for 1 XP

_GROUPS = {
    "basic": T("Skills", "Навыки"),
    "expert": T("Expert skills", "Экспертные навыки"),
    "trick": T("Tricks", "Трюки"),
    "threads": T("Threads of Fate", "Нити Судьбы"),
}

#: the campaign's XP-for-Threads rule (``xp_threads_mode``): (limit per meeting, moment, help)
_THREAD_MODES = {
    "start_3": (
        3,
        "meeting_start",
        T(
            "1 XP per Thread, up to 3 a meeting, bought at the start of the meeting; a hero holds at most 5.",
            "1 ОО за Нить, до 3 за встречу, в начале встречи; у героя не больше 5 Нитей.",
        ),  # L167, L164
    ),
    "between_scenes_5": (
        5,
        "between_scenes",
        T(
            "1 XP per Thread, up to 5 a meeting, bought in the breaks between scenes; a hero holds at most 5.",
            "1 ОО за Нить, до 5 за встречу, в перерывах между сценами; у героя не больше 5 Нитей.",
        ),  # L168, L164
    ),
}


def resources() -> tuple[Resource, ...]:
    return (XP,)


def _short(cost: int, have: int) -> dict[str, str]:
    return T(
        f"Needs {cost} XP; the hero has {have}.",
        f"Нужно ОО: {cost}, у героя {have}.",
    )


# ------------------------------------------------------------------------------------------------
# What can be bought now
# ------------------------------------------------------------------------------------------------
def advance_list(ch, *, options) -> list[AdvanceSpec]:
    """Every skill, a new Trick and (for heroes and personas) Threads, each priced; what the rules
    forbid now is listed ``blocked`` with the reason."""
    specs = [_skill_spec(ch, code) for code in SKILLS]
    specs += [_skill_spec(ch, row["code"], row) for row in _custom_skills(ch)]
    specs.append(_trick_spec(ch))
    if ch.entity_type != "extra":  # extras never hold Threads (L64)
        specs.append(_threads_spec(ch, options=options))
    return specs


def _custom_skills(ch) -> list[Mapping[str, Any]]:
    """The GM's own skills (A32: basic skills the fragment lacks, Expert skills split by field), each
    bought like any skill; a row without a code of its own is left out."""
    seen: set[str] = set()
    out = []
    for row in ch.custom_skills:
        code = str(row.get("code") or "")
        if code and code not in SKILLS and code not in seen:
            seen.add(code)
            out.append(row)
    return out


def _skill_facts(ch, code: str, row: Mapping[str, Any] | None) -> tuple[dict[str, str], int, bool, bool]:
    """(label, value, expert, accessible) of a built-in skill or of the GM's skill ``row``."""
    if row is None:
        expert = code in EXPERT_SKILLS
        return skill_label(code), getattr(ch, code), expert, not expert or ch.has_access(code)
    expert = row.get("kind") == "expert"
    parent = row.get("parent")
    accessible = not expert or ch.has_access(code) or (parent is not None and ch.has_access(parent))
    label = T(str(row.get("en") or code), str(row.get("ru") or row.get("en") or code))
    return label, int(row.get("value", 0)), expert, accessible


def _skill_spec(ch, code: str, row: Mapping[str, Any] | None = None) -> AdvanceSpec:
    lab, now, expert, accessible = _skill_facts(ch, code, row)
    room = ch.skill_cap - now
    blocked = None
    if not accessible:
        blocked = T(
            f"{lab['en']} is an Expert skill: XP go into it only with access from an Attribute or a Trick.",
            f"«{lab['ru']}» — Экспертный навык: вкладывать в него ОО можно только с доступом от Атрибута или Трюка.",
        )  # L410-412
    elif room < 1:
        blocked = T(
            f"{lab['en']} is already at the hero's Intelligence ({ch.skill_cap}): a skill cannot go higher.",
            f"«{lab['ru']}» уже равен Интеллекту героя ({ch.skill_cap}): выше Навык не бывает.",
        )  # L370
    elif ch.xp_free < SKILL_POINT_COST:
        blocked = _short(SKILL_POINT_COST, ch.xp_free)
    return AdvanceSpec(
        f"skill:{code}",
        T(f"{lab['en']} {now} → {now + 1}", f"{lab['ru']} {now} → {now + 1}"),
        "raise",
        {XP.trait: SKILL_POINT_COST},
        options=(
            OptionSpec(
                "points",
                T("Points to add", "Сколько единиц добавить"),
                "int",
                1,
                1,
                max(1, room),
                help=T("1 XP each", "по 1 ОО за единицу"),
            ),
        ),
        help=T(
            "A skill's value is the XP put into it: 1 XP per point, never above Intelligence.",
            "Значение Навыка — вложенные в него ОО: 1 ОО за единицу, не выше Интеллекта.",
        ),  # L369-370
        blocked=blocked,
        group=_GROUPS["expert" if expert else "basic"],
    )


def _trick_spec(ch) -> AdvanceSpec:
    access_choices = (("", T("none", "нет")),) + tuple((s, skill_label(s)) for s in EXPERT_SKILLS)
    return AdvanceSpec(
        "trick",
        T("A new Trick", "Новый Трюк"),
        "learn",
        {XP.trait: TRICK_COST},
        options=(
            OptionSpec("name", T("Trick", "Трюк"), "text", ""),
            OptionSpec("text", T("What it does", "Что он даёт"), "text", ""),
            OptionSpec(
                "access",
                T("Opens an Expert skill", "Открывает Экспертный навык"),
                "choice",
                "",
                choices=access_choices,
                help=T("the GM decides whether a Trick opens one", "открывает ли Трюк навык, решает мастер"),
            ),
        ),
        gm_options=("access",),
        help=T(
            "A Trick costs 5 XP. Name it and say what it does; the GM says whether it opens an Expert skill.",
            "Трюк стоит 5 ОО. Назовите его и опишите, что он даёт; откроет ли он Экспертный навык, решает мастер.",
        ),  # L157
        blocked=_short(TRICK_COST, ch.xp_free) if ch.xp_free < TRICK_COST else None,
        group=_GROUPS["trick"],
    )


def _threads_spec(ch, *, options) -> AdvanceSpec:
    mode = options.xp_threads_mode
    label = T("Threads of Fate for XP", "Нити Судьбы за ОО")
    if mode not in _THREAD_MODES:  # xp_as_threads (L169)
        return AdvanceSpec(
            "threads",
            label,
            "other",
            {XP.trait: THREAD_COST},
            help=T(
                "In this campaign unspent XP count as Threads at any moment.",
                "В этой кампании свободные ОО в любой момент служат Нитями.",
            ),
            blocked=T(
                "Nothing to buy: in this campaign unspent XP already count as Threads whenever a Move needs them.",
                "Покупать нечего: в этой кампании свободные ОО и так служат Нитями, когда их требует Ход.",
            ),
            group=_GROUPS["threads"],
        )
    limit, _moment, help_text = _THREAD_MODES[mode]
    left = limit - ch.threads_bought
    room = fate.THREADS_CAP - ch.threads
    blocked = None
    if left < 1:
        blocked = T(
            f"The hero has bought {en_n(limit, 'Thread', 'Threads')} with XP this meeting, the most.",
            f"Герой уже купил за ОО {ru_n(limit, 'Нить', 'Нити', 'Нитей')} на этой встрече, больше нельзя.",
        )  # L167-168
    elif room < 1:
        blocked = T(
            f"The hero holds {fate.THREADS_CAP} Threads, the most anyone holds.",
            f"У героя уже {ru_n(fate.THREADS_CAP, 'Нить', 'Нити', 'Нитей')} — больше не бывает.",
        )  # L164
    elif ch.xp_free < THREAD_COST:
        blocked = _short(THREAD_COST, ch.xp_free)
    return AdvanceSpec(
        "threads",
        label,
        "other",
        {XP.trait: THREAD_COST},
        options=(
            OptionSpec(
                "count", T("Threads", "Нитей"), "int", 1, 1, max(1, min(left, room)), help=T("1 XP each", "по 1 ОО")
            ),
        ),
        help=help_text,
        blocked=blocked,
        group=_GROUPS["threads"],
    )


# ------------------------------------------------------------------------------------------------
# What one advance would do
# ------------------------------------------------------------------------------------------------
def _tried(ch, run: Callable[[Any], Mapping[str, tuple[Any, Any]]]) -> dict[str, Any]:
    """The changes ``run`` (a rules operation) makes on a scratch copy of ``ch``, but the XP it spends
    (the plan's price): ``ch`` itself is never touched."""
    changes = run(clone_character(ch))
    return {name: new for name, (_old, new) in changes.items() if name != XP.trait}


def plan(system, ch, spec: AdvanceSpec, opts: Mapping[str, Any]) -> AdvancePlan:
    """What ``spec`` with ``opts`` would do to ``ch`` (in play); a ``RuleError`` when the rules forbid it
    (the price it cannot pay first, in the words every system uses)."""
    if ch.phase != "play":
        raise not_in_play()
    if spec.id.startswith("skill:"):
        points = int(opts["points"])
        spend(system, ch, {XP.trait: points * SKILL_POINT_COST})
        return _plan_skill(ch, spec.id.split(":", 1)[1], points)
    if spec.id == "trick":
        spend(system, ch, {XP.trait: TRICK_COST})
        return _plan_trick(ch, opts)
    count = int(opts.get("count", 1))
    if system.rules.xp_threads_mode in _THREAD_MODES:
        spend(system, ch, {XP.trait: count * THREAD_COST})
    return _plan_threads(ch, count, options=system.rules)


def _plan_skill(ch, code: str, points: int) -> AdvancePlan:
    row = next((r for r in _custom_skills(ch) if r["code"] == code), None)
    lab, now, _expert, _accessible = _skill_facts(ch, code, row)
    if row is None:
        changes = _tried(ch, lambda twin: fate.raise_skill(twin, code, points))
    else:
        changes = {"custom_skills": _raised_custom(ch, code, points)}
    cost = points * SKILL_POINT_COST
    return AdvancePlan(
        f"skill:{code}",
        {XP.trait: cost},
        changes,
        T(
            f"{lab['en']} {now} → {now + points} for {cost} XP",
            f"{lab['ru']} {now} → {now + points} за {cost} ОО",
        ),
    )


def _raised_custom(ch, code: str, points: int) -> list[dict[str, Any]]:
    """The GM's skill list with ``code`` raised by ``points``: refused, like a built-in skill, above
    Intelligence (L370) and for an Expert skill without access (L412)."""
    row = next(r for r in _custom_skills(ch) if r["code"] == code)
    lab, now, _expert, accessible = _skill_facts(ch, code, row)
    if not accessible:
        raise RuleError(
            "no_access",
            T(
                f"{lab['en']} is an Expert skill; you need an Attribute or Trick that grants access",
                f"{lab['ru']} — Экспертный навык; нужен Атрибут или Трюк, дающий доступ",
            ),
        )
    if now + points > ch.skill_cap:
        raise RuleError(
            "skill_cap",
            T(
                f"{lab['en']} {now + points} would exceed Intelligence {ch.skill_cap}",
                f"{lab['ru']} {now + points} превысит Интеллект {ch.skill_cap}",
            ),
        )
    return [{**r, "value": now + points} if r is row else dict(r) for r in ch.custom_skills]


def _plan_trick(ch, opts: Mapping[str, Any]) -> AdvancePlan:
    name = str(opts.get("name") or "").strip()
    if not name:
        raise RuleError("trick_name", T("Name the Trick first.", "Сначала назовите Трюк."))
    taken = {str(t.get("name", "")).strip().lower() for t in ch.tricks}
    if name.lower() in taken:
        raise RuleError(
            "trick_taken",
            T(f"The hero already has the Trick {name}.", f"У героя уже есть Трюк «{name}»."),
            name=name,
        )
    access = opts.get("access") or ""
    text = str(opts.get("text") or "").strip()
    changes = _tried(ch, lambda twin: fate.buy_trick(twin, name, text, [access] if access else []))
    notes = []
    if access:
        lab = skill_label(access)
        notes.append(
            T(
                f"It opens the Expert skill {lab['en']} (the GM agreed).",
                f"Он открывает Экспертный навык «{lab['ru']}» (с согласия мастера).",
            )
        )
    return AdvancePlan(
        "trick",
        {XP.trait: TRICK_COST},
        changes,
        T(f"The Trick {name} for {TRICK_COST} XP", f"Трюк «{name}» за {TRICK_COST} ОО"),
        notes,
    )


def _plan_threads(ch, count: int, *, options) -> AdvancePlan:
    mode = options.xp_threads_mode
    if mode not in _THREAD_MODES:
        raise _xp_as_threads()
    _limit, moment, help_text = _THREAD_MODES[mode]
    changes = _tried(ch, lambda twin: fate.buy_threads(twin, count, moment=moment, options=options))
    cost = count * THREAD_COST
    return AdvancePlan(
        "threads",
        {XP.trait: cost},
        changes,
        T(
            f"Threads of Fate {ch.threads} → {ch.threads + count} for {cost} XP",
            f"Нити Судьбы {ch.threads} → {ch.threads + count} за {cost} ОО",
        ),
        [help_text],
    )


def _xp_as_threads() -> RuleError:
    return RuleError(
        "xp_as_threads",
        T(
            "In this campaign unspent XP already count as Threads: there are none to buy.",
            "В этой кампании свободные ОО и так служат Нитями: покупать их не нужно.",
        ),  # L169
    )


def award_changes(ch, resource: str, amount: int) -> dict[str, int]:
    """The GM's XP award: unspent XP and the running total of XP earned both grow."""
    return {XP.trait: ch.xp_free + amount, "xp_total": ch.xp_total + amount}


__all__ = ["SKILL_POINT_COST", "THREAD_COST", "XP", "advance_list", "award_changes", "plan", "resources"]
