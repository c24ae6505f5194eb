"""Energetics (spec §7.1): spell complexity, level, casting pool, spell parameters, EP cost,
boost, style mixing, joint casting, other facets."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import Effect, RuleError, T

from . import data
from .attacks import ZONE_PENALTY
from .dice import PoolResult, p_net_at_least, read_faces, roll_faces

FORM_COST = {"basic": 0, "simple": 1, "sharpened": 1, "complex": 2}  # L295
FACET_MOD = data.column("facets", "complexity")  # L299
DAMAGE_PRIORITY = tuple(sorted(data.ids("damage_types"), key=data.column("damage_types", "priority").get))  # L328


def mix_cost(sections: Sequence[str]) -> int:
    """L297: +1 for two styles of one section, +2 for styles of different sections. [DEFAULT A-48]
    beyond two: +1 per extra style from an already-used section, +2 per style from a new one."""
    if len(sections) <= 1:
        return 0
    seen = {sections[0]}
    cost = 0
    for s in sections[1:]:
        cost += 1 if s in seen else 2
        seen.add(s)
    return cost


@dataclass
class SpellDesign:
    """What the player describes (L290-L299)."""

    functions: int = 0
    triggers: int = 0
    form: str = "basic"
    pinpoint: bool = False
    transmutation: bool = False
    style_sections: Sequence[str] = ()  # sections of the mixed styles (one entry per style)
    mind_complexity: int = 0  # creating a sentient being (L298)
    facet: str = "umsear"
    complexity_factor: int = 1  # style override, e.g. x2 for Restoration's regeneration (L318)
    brightness: int = 1
    own_reserve: bool = False  # cast from the caster's own EP (L282)
    zone: str = "torso"
    targeted: bool = True
    lowered: Mapping[str, int] = field(default_factory=dict)  # L312: parameters lowered on purpose


def raw_complexity(d: SpellDesign) -> int:
    if not isinstance(d.form, str) or d.form not in FORM_COST:
        raise ValueError(f"unknown spell form {d.form!r}")
    if not isinstance(d.facet, str) or d.facet not in FACET_MOD:
        raise ValueError(f"unknown facet {d.facet!r}")
    c = d.functions + d.triggers + FORM_COST[d.form]  # L293-L295
    c += 3 if d.pinpoint else 0  # L296
    c += 4 if d.transmutation else 0  # L296
    c += mix_cost(list(d.style_sections))  # L297
    c += d.mind_complexity  # L298
    c += FACET_MOD[d.facet]  # L299
    return c * d.complexity_factor  # L318 style override


def spell_complexity(d: SpellDesign, skill_level: int, *, options: Mapping[str, Any]) -> int:
    """L290: never below 0, never above the skill level ([DEFAULT A-47] illegal; OPTION clamp)."""
    c = max(0, raw_complexity(d))
    if c > skill_level:
        if options.spell_complexity_over_skill == "clamp":
            return skill_level
        raise RuleError(
            "E_SPELL_COMPLEXITY",
            T(
                f"Spell complexity {c} exceeds the skill level {skill_level}.",  # L290
                f"Сложность заклинания {c} выше уровня навыка {skill_level}.",
            ),  # L290
            complexity=c,
            skill=skill_level,
        )
    return c


def spell_level(complexity: int, manual: int | None = None, *, options: Mapping[str, Any]) -> int:
    """A-05: [DEFAULT] level = max(1, complexity); options complexity_plus_1 / manual."""
    rule = options.spell_level_rule
    if manual is not None:  # "editable per cast", whatever the rule
        return int(manual)
    if rule == "complexity_plus_1":
        return complexity + 1
    return max(1, complexity)


def casting_pool(
    complexity_param: int, skill_level: int, target_complexity: int = 0, spell_cx: int = 0, zone: str = "torso"
) -> int:
    """L286, L316: Complexity + skill - target complexity - spell complexity - zone penalty."""
    if skill_level > complexity_param:
        raise RuleError(
            "E_SKILL_CAP",
            T(
                "An energetics skill cannot exceed Complexity.",  # L284
                "Навык энергетики не может быть выше Сложности.",
            ),
        )  # L284
    return complexity_param + skill_level - target_complexity - spell_cx - ZONE_PENALTY[zone]


#: The spell parameters a caster may lower on purpose (L312), as a player reads them.
SPELL_PARAMETERS = {
    "damage": T("damage", "урон"),
    "duration_rounds": T("duration, rounds", "длительность, раунды"),
    "max_targets": T("targets", "цели"),
    "cast_range_m": T("casting range, m", "дальность создания, м"),
}


def spell_parameters(brightness: int, lowered: Mapping[str, int] | None = None) -> dict[str, int]:
    """L305-L310: damage b, duration b rounds, b^2 targets, casting range 5b m; each may be
    lowered on purpose, never raised (L312): ``lowered`` gives the values wanted (0: as is)."""
    full = {
        "damage": brightness,
        "duration_rounds": brightness,
        "max_targets": brightness**2,
        "cast_range_m": 5 * brightness,
    }
    out = dict(full)
    for name, value in (lowered or {}).items():
        if name not in full:
            raise RuleError(
                "E_SPELL_PARAM",
                T(f"A spell has no parameter {name!r} to lower.", f"У заклинания нет параметра {name!r}."),
            )
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleError(
                "E_SPELL_PARAM",
                T(
                    f"The {SPELL_PARAMETERS[name]['en']} wanted is a whole number (0: as the brightness gives).",
                    f"Нужное значение «{SPELL_PARAMETERS[name]['ru']}» — целое число (0: как даёт яркость).",
                ),
            )
        if value > full[name]:
            raise RuleError(
                "E_SPELL_PARAM_RAISED",
                T(
                    f"A spell's {SPELL_PARAMETERS[name]['en']} can be lowered, never raised: at most "
                    f"{full[name]} at brightness {brightness}.",  # L312
                    f"Параметр заклинания «{SPELL_PARAMETERS[name]['ru']}» можно понизить, но не повысить: "
                    f"не больше {full[name]} при яркости {brightness}.",
                ),
            )
        if value:
            out[name] = value
    return out


def check_brightness(brightness: int, power: int) -> None:
    if not isinstance(brightness, int) or brightness < 1:
        raise RuleError("E_BRIGHTNESS", T("Brightness must be at least 1.", "Яркость — не меньше 1."))
    if brightness > power:
        raise RuleError(
            "E_BRIGHTNESS",
            T(
                f"Brightness {brightness} exceeds Power {power}.",  # L301
                f"Яркость {brightness} выше параметра Яркость {power}.",
            ),
        )  # L301


def ep_after_cast(ep: int, brightness: int, own_reserve: bool) -> int:
    """L282: from one's own reserve the caster loses EP = brightness; refused if not enough."""
    if not own_reserve:
        return ep
    if brightness > ep:
        raise RuleError(
            "not_enough_ep",
            T(f"Casting costs {brightness} EP; only {ep} left.", f"Заклинание стоит {brightness} EP; осталось {ep}."),
        )
    return ep - brightness


@dataclass
class CastResult:
    outcome: str  # as_designed / basic_spell / nothing / nothing_fumble / gm
    pool: int
    complexity: int
    level: int
    roll: PoolResult
    effects: list = field(default_factory=list)
    parameters: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)


def spell_numbers(
    caster, skill_key: str, design: SpellDesign, level: int | None, *, options: Mapping[str, Any]
) -> tuple[int, int, int]:
    """The caster's skill level, the spell's complexity and its level (L282-L300); refuses a
    level the spell cannot have."""
    skill = caster.skill_level(skill_key)
    cx = spell_complexity(design, skill, options=options)
    return skill, cx, spell_level(cx, level, options=options)


def cast(
    caster,
    skill_key: str,
    design: SpellDesign,
    *,
    target_complexity: int = 0,
    epic: int = 0,
    level: int | None = None,
    rng: random.Random | None = None,
    faces: Sequence[int] | None = None,
    options: Mapping[str, Any],
) -> CastResult:
    """Cast a spell (L35, L194, L282-L316). The EP cost is returned as an Effect (not applied)."""
    check_brightness(design.brightness, caster.power)
    parameters = spell_parameters(design.brightness, design.lowered)  # refuses a raised one (L312)
    skill, cx, lvl = spell_numbers(caster, skill_key, design, level, options=options)
    ep_after_cast(caster.ep, design.brightness, design.own_reserve)  # refuses before rolling
    penalty = 0 if skill > 0 else 1  # [DEFAULT] untrained casting (L33)
    pool = casting_pool(caster.complexity, skill, target_complexity, cx, design.zone)
    rng = rng if rng is not None else random.Random()
    fs = list(faces) if faces is not None else roll_faces(pool, rng)
    r = read_faces(fs, penalty=penalty, epic=epic, difficulty=lvl, pool=pool, fumble_basis=options.fumble_basis)
    effects = []
    if design.own_reserve and (r.passed or options.ep_cost_on_failure):
        effects.append(
            Effect("ep", -design.brightness, T("spell from own reserve", "заклинание из своего запаса"))
        )  # L282
    if epic:
        effects.append(Effect("epic_dice", -epic, T("epic dice spent", "потрачены эпик-дайсы")))
    return CastResult(
        cast_outcome(r, options=options), pool, cx, lvl, r, effects, parameters, cast_notes(r, design, options=options)
    )


def cast_outcome(r: PoolResult, *, options: Mapping[str, Any]) -> str:
    """What a casting roll made (L35, L194): the spell, a basic one, nothing, or the GM's call."""
    if r.passed:
        return "as_designed"
    if r.net >= 1 and options.failed_spell_fallback != "gm":
        return "basic_spell"  # L35: a basic level-1 spell of the same style
    if r.fumble:
        return "nothing_fumble"  # L194: the energy may hurt the caster and allies
    return "nothing" if options.failed_spell_fallback != "gm" else "gm"


def cast_notes(r: PoolResult, design: SpellDesign, *, options: Mapping[str, Any]) -> list:
    """The GM's reminder of a wild pattern after a bright failed cast (L301)."""
    thr = options.wild_pattern_brightness_threshold
    if r.passed or not (thr is None or design.brightness >= thr):
        return []
    return [
        T(
            "GM: a bright failed spell may become a random pattern.",  # L301
            "Мастер: яркое неудачное заклинание может стать случайным узором.",
        )
    ]  # L301


def cast_chance(
    caster,
    skill_key: str,
    design: SpellDesign,
    *,
    target_complexity: int = 0,
    epic: int = 0,
    level: int | None = None,
    options: Mapping[str, Any],
) -> Fraction:
    skill, cx, lvl = spell_numbers(caster, skill_key, design, level, options=options)
    pool = casting_pool(caster.complexity, skill, target_complexity, cx, design.zone)
    return p_net_at_least(max(0, pool), lvl, 0 if skill > 0 else 1, epic)


# -- boost (L314) ------------------------------------------------------------------------------------------
@dataclass
class Spell:
    brightness: int
    casters: Sequence[str] = ("caster",)
    boosted: bool = False
    triggered: bool = False
    dissipated: bool = False
    rounds_left: int | None = None

    def __post_init__(self):
        if self.rounds_left is None:
            self.rounds_left = self.brightness  # L307

    def tick(self) -> bool:
        """End of a round: one round less; True when it dissolves."""
        self.rounds_left -= 1
        if self.rounds_left <= 0:
            self.dissipated = True
        return self.dissipated

    def took_effect(self) -> None:
        """L307: dissolves at once when it leaves an effect or deals damage."""
        self.triggered = True
        self.dissipated = True


def boost_pool(complexity: int, ordinary_actions: int, free_actions: int) -> int:
    return complexity - 2 * ordinary_actions - free_actions  # L314


#: the most actions of each kind a round holds besides the boost (two ordinary, two free: L226)
BOOST_ACTIONS_MAX = 2


def check_boost(brightness: int, power: int) -> None:
    """L314: a boosted spell is never brighter than its creator's Power."""
    if brightness + 1 > power:
        raise RuleError(
            "boost_power",
            T(
                f"A boost would make brightness {brightness + 1}, above your Power {power}: choose "
                f"brightness {power - 1} or less to boost it.",  # L314
                f"Усиление дало бы яркость {brightness + 1}, выше вашей Яркости {power}: чтобы усилить, "
                f"выберите яркость не выше {power - 1}.",
            ),
        )


def boost_check_pool(complexity: int, ordinary_actions: int, free_actions: int, *, options) -> int | None:
    """The dice of the boost's Complexity roll (L314: -2 per ordinary, -1 per free action taken in
    the round), or None when the round is idle (the boost then works without a roll). A pool of 0 or
    less succeeds never (A-09), or is refused with ``pool_nonpositive="forbid"``."""
    for n in (ordinary_actions, free_actions):
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= BOOST_ACTIONS_MAX:
            raise RuleError(
                "bad_option",
                T(
                    f"Actions in the boost's round: 0 to {BOOST_ACTIONS_MAX} of each kind.",
                    f"Действий в раунде усиления: от 0 до {BOOST_ACTIONS_MAX} каждого вида.",
                ),
            )
    if ordinary_actions == 0 and free_actions == 0:
        return None
    pool = boost_pool(complexity, ordinary_actions, free_actions)
    if pool <= 0 and options.pool_nonpositive == "forbid":
        raise RuleError(
            "empty_pool",
            T(
                "The boost's Complexity roll has no dice left: act less in that round.",
                "В броске Сложности для усиления не осталось кубиков: действуйте в этом раунде меньше.",
            ),
        )
    return pool


def boost_chance(pool: int | None) -> Fraction:
    """P(the boost works): certain in an idle round, else at least one success on ``pool`` dice."""
    return Fraction(1) if pool is None else p_net_at_least(max(0, pool), 1)


def boost_roll(pool: int | None, rng: random.Random) -> PoolResult | None:
    """The boost's Complexity roll (no untrained penalty: a bare parameter roll, A-55), or None
    when the round is idle."""
    if pool is None:
        return None
    return read_faces(roll_faces(pool, rng), difficulty=1, pool=pool)


def boost_words(roll: PoolResult | None, ok: bool, brightness: int) -> dict:
    """What the boost did, as the player reads it (L314)."""
    how = (
        T("an idle round", "раунд без действий")
        if roll is None
        else T(f"Complexity roll {roll.text('en')}", f"бросок Сложности {roll.text('ru')}")
    )
    if ok:
        return T(f"boosted to brightness {brightness} ({how['en']})", f"усилено до яркости {brightness} ({how['ru']})")
    return T(
        f"the boost failed ({how['en']}): the spell dissipates",
        f"усиление не удалось ({how['ru']}): заклинание рассеивается",
    )


def boost(
    spell: Spell,
    caster,
    ordinary_actions: int = 0,
    free_actions: int = 0,
    *,
    rng: random.Random | None = None,
    faces: Sequence[int] | None = None,
) -> dict[str, Any]:
    """L314: once per spell, single creator, never above the creator's Power; idle -> automatic;
    else a Complexity roll (-2 per ordinary, -1 per free action) needs one success; failure
    dissipates a spell not yet triggered."""
    if spell.boosted:
        raise RuleError("boost_twice", T("A spell can be boosted only once.", "Заклинание усиливают один раз."))  # L314
    if len(spell.casters) != 1:
        raise RuleError(
            "boost_joint",
            T(
                "A jointly created spell cannot be boosted.",  # L314
                "Совместное заклинание нельзя усилить.",
            ),
        )  # L314
    if spell.brightness + 1 > caster.power:
        raise RuleError(
            "boost_power",
            T(
                "Brightness cannot exceed the creator's Power.",  # L314
                "Яркость не может превысить Яркость создателя.",
            ),
        )  # L314
    if ordinary_actions == 0 and free_actions == 0:
        ok, r = True, None
    else:
        pool = boost_pool(caster.complexity, ordinary_actions, free_actions)
        rng = rng if rng is not None else random.Random()
        fs = list(faces) if faces is not None else roll_faces(pool, rng)
        r = read_faces(fs, difficulty=1, pool=pool)
        ok = bool(r.passed)
    if ok:
        spell.brightness += 1
        spell.boosted = True
    elif not spell.triggered:
        spell.dissipated = True
    return {"ok": ok, "roll": r, "brightness": spell.brightness, "dissipated": spell.dissipated}


# -- mixing (L326-L331) ---------------------------------------------------------------------------------------
def mixed_radius(radii: Sequence[float]) -> int:
    """L330: arithmetic mean of the styles' radii, rounded down."""
    return int(sum(radii) // len(radii))


def mixed_damage_type(types: Sequence[str]) -> str:
    """L328: idea > spiritual > pattern > physical."""
    for t in DAMAGE_PRIORITY:
        if t in types:
            return t
    raise ValueError("no damage type given")


# -- joint casting (L333) ---------------------------------------------------------------------------------------
def joint_cast(
    participants: Mapping[str, Mapping[str, Any]],
    order: Sequence[str],
    *,
    rng: random.Random | None = None,
    faces: Mapping[str, Sequence[int]] | None = None,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """participants: id -> {character, brightness (contribution), complexity (spell complexity
    for that participant)}. Coordination Dex + Alert (no minus); failures lose the action;
    complexity = max, brightness = sum (each <= own Power), created on the turn of the
    lowest initiative among the active."""
    rng = rng if rng is not None else random.Random()
    active, lost = [], []
    for pid, p in participants.items():
        c = p["character"]
        pool = c.dexterity + c.alertness
        fs = list(faces[pid]) if faces and pid in faces else roll_faces(pool, rng)
        (active if read_faces(fs).net >= 1 else lost).append(pid)
    for pid in active:
        p = participants[pid]
        check_brightness(int(p["brightness"]), p["character"].power)
    if not active:
        return {"active": [], "lost_action": lost, "brightness": 0, "complexity": None, "turn_of": None}
    cx = max(int(participants[pid]["complexity"]) for pid in active)
    b = sum(int(participants[pid]["brightness"]) for pid in active)
    turn_of = [pid for pid in order if pid in active][-1]
    # [DEFAULT A-28] the lowest-initiative participant rolls; each pays its own contribution in EP
    roller = turn_of if options.joint_cast_roller == "lowest_initiative" else None
    ep = {pid: -int(participants[pid]["brightness"]) for pid in active if participants[pid].get("own_reserve")}
    return {
        "active": active,
        "lost_action": lost,
        "brightness": b,
        "complexity": cx,
        "turn_of": turn_of,
        "roller": roller,
        "ep_effects": ep,
    }


# -- other facets (L324) -----------------------------------------------------------------------------------------
def physical_spell_other_facet(damage: int, survival_successes: int, negative_effects: Sequence[str] = ()) -> dict:
    """Each Survival success -1 damage; one success also avoids negative effects."""
    return {
        "damage": max(0, damage - survival_successes),
        "effects": [] if survival_successes >= 1 else list(negative_effects),
    }


def facet_transition(
    survival_pool: int, negative_effects: Sequence[str], faces: Sequence[int], *, options: Mapping[str, Any]
) -> dict:
    """All negative effects end; roll Survival minus their number; no success -> 1 damage + 1 per
    die showing 1, in both facets (OPTION facet_transition_damage="once")."""
    pool = max(0, survival_pool - len(negative_effects))
    r = read_faces(list(faces), pool=pool)
    out = {"cleared": list(negative_effects), "pool": pool, "roll": r, "failed": r.net == 0}
    if r.net == 0:
        per = 1 + r.ones
        out["per_facet"] = per
        out["total"] = per * (2 if options.facet_transition_damage == "both" else 1)
    else:
        out["per_facet"] = 0
        out["total"] = 0
    return out
