"""Reputation, epic dice, experience and levelling (spec §7.3-§7.5), creation operations
(spec §4) and the higher-level start (L373-L378). Operations refuse illegal moves with
RuleError and then change nothing."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.data import DataTables

from . import data
from .model import PARAM_LABELS, PARAMS, PHYSICAL_PARAMS, SKILL_KEY_RE, feature_def

SKILL_XP_TO_LEVEL = 5  # L357
CHAR_XP_PER_LEVEL = 20  # L359


def _param_cap(*, options: Mapping[str, Any]) -> int:
    return 10 if options.allow_params_above_5 else 5


# -- reputation and epic dice (L343-L351) -----------------------------------------------------------------------
def _refuse_above_cap(c, param: str, *, options: Mapping[str, Any]) -> None:
    """One more point of ``param`` must stay within the cap (L59, L377)."""
    cap = _param_cap(options=options)
    if c.param(param) + 1 > cap:
        raise RuleError(
            "E_PARAM_RANGE",
            T(
                f"{PARAM_LABELS[param]['en']} cannot exceed {cap}.",  # L59
                f"{PARAM_LABELS[param]['ru']} не может быть выше {cap}.",
            ),
        )


def change_reputation(rep: int, delta: int, inconspicuous: bool = False) -> int:
    """L343: reputation skips 0 (-1 +1 -> +1) unless the character is Inconspicuous;
    [DEFAULT] symmetric going down."""
    new = rep + delta
    if inconspicuous:
        return new
    if rep > 0 and new <= 0:
        new -= 1
    elif rep < 0 and new >= 0:
        new += 1
    elif rep == 0 and new == 0:
        new = 1
    return new


def campaign_only(c, *, options: Mapping[str, Any]) -> None:
    if c.mode == "quick" or options.mode == "quick":
        raise RuleError(
            "quick_game",
            T(
                "Reputation and epic dice are not used in a quick game.",  # L47, L347
                "В быстрой игре нет репутации и эпик-дайсов.",
            ),
        )  # L47, L347


def apply_reputation_change(c, delta: int, *, options: Mapping[str, Any]) -> tuple[int, int]:
    campaign_only(c, options=options)
    old = c.reputation
    new = change_reputation(old, delta, c.has_feature("inconspicuous"))
    with c.hold_trait_notifications():
        c.reputation = new
        if options.epic_clamp_on_rep_change:
            c.epic_dice = min(c.epic_dice, abs(new))  # §7.4 [DEFAULT]
    return old, new


def award_epic_die(c, *, options: Mapping[str, Any]) -> int:
    """GM award for a heroic act; never above |reputation| (L349)."""
    campaign_only(c, options=options)
    c.epic_dice = min(c.epic_dice + 1, abs(c.reputation))
    return c.epic_dice


def spend_epic_dice(c, k: int, *, options: Mapping[str, Any]) -> int:
    campaign_only(c, options=options)
    if not isinstance(k, int) or k < 0 or k > c.epic_dice:
        raise RuleError(
            "not_enough_epic_dice", T(f"Only {c.epic_dice} epic dice left.", f"Осталось эпик-дайсов: {c.epic_dice}.")
        )
    c.epic_dice -= k
    return k


def starting_reputation(
    alignment: str,
    features: list,
    gm_override: int | None = None,
    *,
    options: Mapping[str, Any],
    tables: DataTables = data.TABLES,
) -> int:
    """§4 step 9: GM override; a bought mutation -> -1 (L97); Inconspicuous -> 0 [DEFAULT];
    else +1 good / -1 evil (L47)."""
    if gm_override is not None:
        return gm_override
    racial_ids = {f.get("id") for f in features if f.get("origin") == "racial"}
    for f in features:
        d = feature_def(tables, str(f.get("id"))) or {}
        if (f.get("kind") or d.get("kind")) == "mutation" and f.get("origin") != "racial":
            if f.get("id") not in racial_ids or options.racial_upgrade_is_mutation:
                return -1
    if any(f.get("id") == "inconspicuous" for f in features):
        return int(options.inconspicuous_start_rep)
    return 1 if alignment == "good" else -1


# -- XP (L355-L359) ---------------------------------------------------------------------------------------------
def skill_cap(c, key: str) -> int | None:
    p = c.skill_param(key)
    if p is None:
        return None
    cap = c.param(p)
    for f in c.features:
        d = feature_def(c.TABLES, str(f.get("id"))) or {}
        caps = f.get("skill_caps") or d.get("skill_caps") or {}
        for k in (key, key.split(":")[0], "*"):
            if k in caps:
                cap = min(cap, int(caps[k]))
    return cap


def end_of_session(
    c,
    awards: Mapping[str, int],
    careless_pick: str | None = None,
    gm_exceptions: bool = False,
    *,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """Award per-skill XP (<= 1 per skill per session unless the GM makes an exception, L355);
    5 XP -> +1 skill level up to its cap (L357); the session total adds to the character's XP
    (L359) and each level gained is a pending improvement (L361)."""
    awards = dict(awards)
    for k, x in awards.items():
        if not SKILL_KEY_RE.match(k):
            raise RuleError("bad_skill", T(f"Malformed skill key {k!r}.", f"Неверный ключ навыка {k!r}."))
        if not isinstance(x, int) or x < 0 or (x > 1 and not gm_exceptions):
            raise RuleError(
                "xp_per_skill",
                T(
                    "At most 1 XP per skill per game session.",  # L355
                    "Не больше 1 опыта на навык за игру.",
                ),
            )  # L355
        if c.skill_param(k) is None:
            raise RuleError(
                "unknown_skill_param",
                T(
                    f"Skill {k} has no known parameter; add it to the data.",
                    f"У навыка {k} не указан параметр; добавьте его в данные.",
                ),
            )
    if c.has_feature("carelessness") and careless_pick:
        if careless_pick in awards:
            awards[careless_pick] = max(0, awards[careless_pick] - 1)  # L355
    skills, sxp = dict(c.skills), dict(c.skill_xp)
    ups = {}
    capped_xp = 0
    for key, x in awards.items():
        cap = skill_cap(c, key)
        lvl = skills.get(key, 0)
        if lvl >= cap:
            capped_xp += x
        cur = min(SKILL_XP_TO_LEVEL, sxp.get(key, 0) + x)
        while cur >= SKILL_XP_TO_LEVEL and lvl < cap:
            lvl += 1
            cur -= SKILL_XP_TO_LEVEL
            ups[key] = lvl
        skills[key] = lvl
        sxp[key] = cur
    total = sum(awards.values())
    if not options.xp_capped_counts_toward_total:
        total -= capped_xp  # XP of skills already at their cap does not count
    before = c.level
    with c.hold_trait_notifications():
        c.skills = skills
        c.skill_xp = sxp
        c.xp = c.xp + total
        c.pending_improvements = c.pending_improvements + (1 + c.xp // CHAR_XP_PER_LEVEL - before)
    return {"session_xp": total, "skill_level_ups": ups, "levels_gained": c.level - before, "awards": awards}


def release_saturated(c, *, options: Mapping[str, Any]) -> dict[str, int]:
    """After a cap rises, saturated skills (5 XP at the cap) level up at once [DEFAULT]."""
    skills, sxp = dict(c.skills), dict(c.skill_xp)
    ups = {}
    for key, x in list(sxp.items()):
        if x >= SKILL_XP_TO_LEVEL:
            cap = skill_cap(c, key)
            if cap is not None and skills.get(key, 0) < cap:
                if options.saturated_xp_on_cap_raise == "apply":
                    skills[key] = skills.get(key, 0) + 1
                    ups[key] = skills[key]
                sxp[key] = 0
    if ups or sxp != c.skill_xp:
        with c.hold_trait_notifications():
            c.skills = skills
            c.skill_xp = sxp
    return ups


# -- level-up choices (L361-L371) ----------------------------------------------------------------------------------
def _need_improvement(c) -> None:
    if c.pending_improvements <= 0:
        raise RuleError("no_improvement", T("No level-up improvement pending.", "Нет доступных улучшений уровня."))


def improve_parameter(c, param: str, *, options: Mapping[str, Any]) -> dict[str, Any]:
    """+1 to a main parameter; derived values and health recalculated (L369); physical
    increases propagate to forms, each form <= 2 x its start (L55, L369)."""
    _need_improvement(c)
    if param not in PARAMS:
        raise RuleError("bad_param", T(f"Unknown parameter {param!r}.", f"Неизвестный параметр {param!r}."))
    _refuse_above_cap(c, param, options=options)
    adv = dict(c.param_advances)
    adv[param] = adv.get(param, 0) + 1
    with c.hold_trait_notifications():
        setattr(c, param, c.param(param) + 1)
        c.param_advances = adv
        c.forms = propagate_to_forms(c.forms, param)
        c.pending_improvements -= 1
    ups = release_saturated(c, options=options)
    return {"param": param, "value": c.param(param), "skill_level_ups": ups}


def propagate_to_forms(forms: list, param: str, steps: int = 1) -> list:
    if param not in PHYSICAL_PARAMS:
        return list(forms)
    out = []
    for f in forms:
        f = dict(f)
        start = f.get(f"start_{param}", f.get(param))
        if start is not None:
            cur = f.get(param, start)
            f[param] = min(cur + steps, 2 * start)
            f.setdefault(f"start_{param}", start)
        out.append(f)
    return out


def improve_feature(c, feature_id: str, *, new: bool = False, note: str = "") -> dict[str, Any]:
    """+1 level of an existing positive feature, -1 level of a negative one, or a new positive
    feature at level I (L367). The GM's veto is outside the model."""
    _need_improvement(c)
    d = feature_def(c.TABLES, feature_id) or {}
    kind = d.get("kind", "positive")
    feats = [dict(f) for f in c.features]
    mine = [f for f in feats if f.get("id") == feature_id]
    if new or not mine:
        if kind != "positive":
            raise RuleError(
                "levelup_feature_kind",
                T(
                    "A new feature at level-up must be positive.",  # L367
                    "Новая особенность при повышении уровня — положительная.",
                ),
            )  # L367
        if mine:
            raise RuleError("feature_exists", T("The character already has this feature.", "Особенность уже есть."))
        feats.append({"id": feature_id, "level": 1, "origin": "levelup", "note": note})
    else:
        f = mine[-1]
        if kind == "negative":
            f["level"] = int(f.get("level", 1)) - 1
            if f["level"] <= 0:
                feats.remove(f)
        elif kind == "positive":
            mx = int(d.get("max_level", 99))
            if int(f.get("level", 1)) + 1 > mx:
                raise RuleError(
                    "feature_max",
                    T(f"{feature_id} is at its maximum level.", f"{feature_id} уже на максимальном уровне."),
                )
            f["level"] = int(f.get("level", 1)) + 1
        else:
            raise RuleError(
                "levelup_feature_kind",
                T(
                    "Level-ups raise positive or lower negative features.",  # L367
                    "Повышение уровня: поднять положительную или снизить отрицательную особенность.",
                ),
            )  # L367
    with c.hold_trait_notifications():
        c.features = feats
        c.pending_improvements -= 1
    return {"feature": feature_id, "level": c.feature_level(feature_id)}


def improve_surprise(c) -> dict[str, Any]:
    """L371: nothing now; the GM arranges a random bonus next session."""
    _need_improvement(c)
    with c.hold_trait_notifications():
        c.pending_improvements -= 1
        c.surprises_pending += 1
    return {"surprises_pending": c.surprises_pending}


# -- higher-level start (L373-L378) ----------------------------------------------------------------------------------
def high_start(level: int, *, options: Mapping[str, Any]) -> dict[str, int]:
    if not isinstance(level, int) or level < 1:
        raise ValueError("level must be >= 1")
    pts = level if options.highlevel_param_points == "level" else level - 1
    if level == 1:
        pts = 0
    return {"xp": 20 * (level - 1), "param_points": pts, "skill_points": 2 * level if level > 1 else 0}


def start_at_level(c, level: int, *, options: Mapping[str, Any]) -> dict[str, int]:
    """Set XP for a higher-level start (L376); returns the extra points to spend (L377-L378)."""
    h = high_start(level, options=options)
    c.xp = h["xp"]
    return h


# -- creation operations (spec §4) -------------------------------------------------------------------------------------
def spend_param_point(c, param: str, *, options: Mapping[str, Any]) -> None:
    """Step 2: one free age point (+1) into any main parameter (L55); refuses over the allowance or
    above 5 (L59)."""
    a = data.row(c.TABLES, "ages", c.age) if c.age else None
    if not a:
        raise RuleError("no_age", T("Choose an age category first.", "Сначала выберите возраст."))
    if param not in PARAMS:
        raise RuleError("bad_param", T(f"Unknown parameter {param!r}.", f"Неизвестный параметр {param!r}."))
    used = sum(int(v) for v in c.param_points.values())
    if used + 1 > int(a["free_params"]):
        raise RuleError(
            "E_PARAM_POINTS",
            T(
                f"Age {c.age} gives {a['free_params']} parameter points; all spent.",
                f"Очки параметров за возраст: {a['free_params']}, все потрачены.",
            ),
        )
    _refuse_above_cap(c, param, options=options)
    pts = dict(c.param_points)
    pts[param] = pts.get(param, 0) + 1
    with c.hold_trait_notifications():
        c.param_points = pts
        setattr(c, param, c.param(param) + 1)
        c.forms = propagate_to_forms(c.forms, param)


def apply_race_and_age(
    c,
    race_params: Mapping[str, int],
    age: str,
    *,
    base_hp: int | None = None,
    race: str = "",
    options: Mapping[str, Any],
) -> list:
    """Steps 1-2: racial values, then the age swap (L62-L76). Returns warnings (overflow clamp)."""
    a = data.row(c.TABLES, "ages", age)
    if a is None:
        raise RuleError("bad_age", T(f"Unknown age category {age!r}.", f"Неизвестный возраст {age!r}."))
    vals = {p: int(race_params.get(p, 1)) for p in PARAMS}
    for p, v in vals.items():
        if not 1 <= v <= 5:
            raise RuleError("E_PARAM_RANGE", T(f"Racial {p} must be 1-5.", f"Расовый параметр {p} — от 1 до 5."))
    warnings = []
    minus_ok = vals[a["minus"]] > 1
    scope = options.age_swap_scope
    if minus_ok:
        vals[a["minus"]] -= 1
    if minus_ok or scope == "minus_only":
        if vals[a["plus"]] + 1 > 5:
            if options.age_swap_overflow == "error":
                raise RuleError(
                    "E_AGE_SWAP_OVERFLOW",
                    T(f"Age bonus would raise {a['plus']} above 5.", f"Возрастной бонус поднимает {a['plus']} выше 5."),
                )
            warnings.append("E_AGE_SWAP_OVERFLOW")
        else:
            vals[a["plus"]] += 1
    with c.hold_trait_notifications():
        c.race_params = {p: int(race_params.get(p, 1)) for p in PARAMS}
        c.age = age
        c.race = race
        c.param_points = {}
        if base_hp is not None:
            c.base_hp = base_hp
        for p, v in vals.items():
            setattr(c, p, v + c.feature_mod(p))
    return warnings


# -- pets and familiars (L178-L188) --------------------------------------------------------------------------------
def make_pet(creature: Mapping[str, Any], behaviour: str = "passive", note: str = "") -> dict[str, Any]:
    """A pet: the creature's form parameters, Luck 2, Complexity 0, Power 0, weightless (L179-L182)."""
    if behaviour not in ("aggressive", "passive", "cowardly"):
        raise RuleError(
            "bad_behaviour",
            T(
                "Behaviour: aggressive, passive or cowardly.",  # L180
                "Поведение: агрессивный, пассивный или трусливый.",
            ),
        )  # L180
    return {
        "creature": creature.get("id", ""),
        "behaviour": behaviour,
        "note": note,
        "might": creature.get("might"),
        "dexterity": creature.get("dexterity"),
        "alertness": creature.get("alertness"),
        "luck": 2,
        "complexity": 0,
        "power": 0,
        "weight_kg": 0,
    }


def make_familiar(creature: Mapping[str, Any], master) -> dict[str, Any]:
    """A familiar's own NPC sheet values: the ordinary animal's parameters and skills, plus Power 1,
    Complexity 1, Luck 2 and Bound pattern with the master at the master's level (L186-L188)."""
    lvl = master.feature_level("bound_pattern")
    if lvl <= 0:
        raise RuleError(
            "no_bound_pattern",
            T(
                "A familiar needs the master's Bound pattern.",  # L105
                "Фамильяру нужен «связанный узор» хозяина.",
            ),
        )  # L105
    return {
        "name": creature.get("en", creature.get("id", "")),
        "might": int(creature.get("might") or 1),
        "dexterity": int(creature.get("dexterity") or 1),
        "alertness": int(creature.get("alertness") or 1),
        "power": 1,
        "complexity": 1,
        "luck": 2,
        "skills": dict(creature.get("skills", {})),
        "features": [{"id": "bound_pattern", "level": lvl, "origin": "racial", "note": master.name or "master"}],
        "phase": "play",
    }


def set_skill(character, key: str, level: int) -> None:
    """Set a skill level, refused above its cap (L103, L284) or without the required feature."""
    if not SKILL_KEY_RE.match(key) or not isinstance(level, int) or level < 0:
        raise RuleError(
            "bad_skill", T(f"Bad skill {key!r} / level {level!r}.", f"Неверный навык {key!r} / уровень {level!r}.")
        )
    cap = skill_cap(character, key)
    if cap is not None and level > cap:
        raise RuleError(
            "E_SKILL_CAP",
            T(
                f"{key} ({level}) cannot exceed its parameter ({cap}).",
                f"{key} ({level}) не может быть выше параметра ({cap}).",
            ),
        )
    d = data.row(character.TABLES, "skills", key.split(":")[0]) or {}
    if level and d.get("requires_feature") and not character.has_feature(d["requires_feature"]):
        raise RuleError(
            "E_TRANSFORMATION_NO_SHAPESHIFTER",
            T(
                "Transformation requires the Shapeshifter feature.",
                "Трансформация доступна только с особенностью «оборотень».",
            ),
        )
    skills = dict(character.skills)
    skills[key] = level
    character.skills = skills


def improve(character, choice: str, target: str | None, *, options: Mapping[str, Any], **kw) -> dict[str, Any]:
    """Take a level-up improvement: ``feature`` (target = feature id), ``parameter`` (target =
    parameter) or ``surprise`` (L361-L371)."""
    if choice == "parameter":
        return improve_parameter(character, target, options=options)
    if choice == "feature":
        return improve_feature(character, target, **kw)
    if choice == "surprise":
        return improve_surprise(character)
    raise RuleError(
        "bad_choice", T("Choose feature, parameter or surprise.", "Выберите особенность, параметр или сюрприз.")
    )
