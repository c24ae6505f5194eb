"""Named checks (spec §5.3, §5.7, §5.11): check ids -> pool and success penalty, rolling, exact odds."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, CheckSpec, Effect, OptionSpec, RuleError, T, count
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.dice import Die, Distribution, check_from, word_result
from tabletop_widgets.core.wording import en_n, ru_n

from . import data
from .dice import PoolResult, net_law, read_faces, roll_faces
from .model import PARAM_LABELS, PARAMS, SKILL_PARAMS, SKILL_KEY_RE, skill_def, skill_id_of

HELMET_ALERTNESS_DICE = data.column("helmets", "alertness_dice")  # L159-L160
MAX_POOL = 100  # a sanity limit for exact odds (the rules' pools stay below 20)


@dataclass(frozen=True)
class PoolSpec:
    """How a check id reads for a character: dice, success penalty and why."""

    check_id: str
    pool: int
    penalty: int
    label: Mapping[str, str]
    kind: str  # parameter / skill / untrained / related / initiative / will / coordination
    notes: tuple = ()


def _skill_label(tables: DataTables, key: str) -> dict[str, str]:
    sid, _, spec = key.partition(":")
    d = skill_def(tables, sid)
    en, ru = (d["en"], d["ru"]) if d else (sid.replace("_", " "), sid.replace("_", " "))
    if spec:
        en, ru = f"{en} ({spec})", f"{ru} ({spec})"
    return T(en, ru)


def resolve(
    character,
    check_id: str,
    *,
    dice_mod: int = 0,
    retry: int = 1,
    attackers: int = 1,
    joint: bool = False,
    options: Mapping[str, Any],
) -> PoolSpec:
    """Pool and success penalty for ``check_id`` (§5.11 table). Raises ValueError on a bad id."""
    if not isinstance(check_id, str):
        raise _err(
            "bad_check", f"check id must be a string, got {check_id!r}", f"id проверки — строка, а не {check_id!r}"
        )
    if not isinstance(dice_mod, int) or isinstance(dice_mod, bool):
        raise _err("bad_option", "dice_mod must be a whole number", "dice_mod — целое число")
    if not isinstance(retry, int) or retry < 1:
        raise _err("bad_option", "retry is the attempt number, 1 or more", "retry — номер попытки, от 1")
    retry_dice = retry_penalty(retry, options=options)
    notes = []
    helmet = HELMET_ALERTNESS_DICE.get(character.helmet, 0)
    if check_id in PARAMS:
        pool = character.param(check_id)
        if check_id == "alertness" and helmet:
            pool += helmet  # L159-L160
            notes.append(T(f"helmet {helmet} dice", f"шлем: {ru_n(helmet, 'кубик', 'кубика', 'кубиков')}"))
        spec = PoolSpec(check_id, pool, 0, PARAM_LABELS[check_id], "parameter")
    elif check_id == "initiative":
        spec = PoolSpec(check_id, character.initiative_pool, 0, T("Initiative", "Инициатива"), "initiative")
    elif check_id == "will":
        spec = PoolSpec(check_id, character.will, 0, T("Will", "Сила воли"), "will")
    elif check_id == "coordination":
        # L252: Dex + Alert - number of simultaneous attackers; joint casting: no minus (L333)
        n = 0 if joint else int(attackers)
        spec = PoolSpec(
            check_id, character.dexterity + character.alertness - n, 0, T("Coordination", "Слаженность"), "coordination"
        )
    elif "+" in check_id:
        spec = _skill_pool(character, check_id, helmet, notes, options=options)
    else:
        raise _err(
            "unknown_check",
            f"unknown check id {check_id!r}: use a parameter, parameter+skill, initiative, will or coordination",
            f"неизвестная проверка {check_id!r}: параметр, параметр+навык, initiative, will или coordination",
        )
    pool = spec.pool + dice_mod - retry_dice
    if pool > MAX_POOL:
        raise _err(
            "pool_too_large",
            f"a pool of {pool} dice is too large (at most {MAX_POOL})",
            f"пул из {ru_n(pool, 'кубика', 'кубиков', 'кубиков')} слишком велик (не больше {MAX_POOL})",
        )
    if retry_dice:
        notes.append(T(f"retry -{retry_dice} dice", f"повтор: −{ru_n(retry_dice, 'кубик', 'кубика', 'кубиков')}"))
    return PoolSpec(spec.check_id, pool, spec.penalty, spec.label, spec.kind, spec.notes + tuple(notes))


def _skill_check_parts(character, check_id: str, *, options: Mapping[str, Any]) -> tuple[str, str]:
    """``param+skill key`` split and checked: the parameter bears skills, the key is well formed
    and the skill is rolled with that parameter."""
    param, _, key = check_id.partition("+")
    if param not in PARAMS:
        raise _err(
            "bad_check",
            f"unknown parameter {param!r} in check id {check_id!r}",
            f"неизвестный параметр {param!r} в проверке {check_id!r}",
        )
    if param not in SKILL_PARAMS:
        raise _err(
            "bad_check",
            f"no skills hang off {param}: {check_id!r}",
            f"у параметра {param} нет навыков: {check_id!r}",
        )  # L20, L86
    if not SKILL_KEY_RE.match(key):
        raise _err(
            "bad_check",
            f"malformed skill key {key!r} in {check_id!r} (id or id:specialization)",
            f"неверный ключ навыка {key!r} в {check_id!r} (id или id:специализация)",
        )
    d = skill_def(character.TABLES, skill_id_of(key))
    # the skill's parameter: data, else the sheet's custom_skills, else the reading of an
    # unstated one (A-56, OPTION unstated_skill_params); ad-hoc skills take the one named
    known = character.skill_param_under(key, options=options) if d else None
    if known and known != param:
        raise _err(
            "wrong_param",
            f"{skill_id_of(key)} is rolled with {known}, not {param} (use {known}+{key})",
            f"{skill_id_of(key)} бросается с параметром {known}, а не {param} (пишите {known}+{key})",
        )
    return param, key


def _skill_pool(character, check_id: str, helmet: int, notes: list, *, options: Mapping[str, Any]) -> PoolSpec:
    """``param+skill key``: parameter + level, or untrained (-1 success) unless a related
    specialization spares it (L33)."""
    param, key = _skill_check_parts(character, check_id, options=options)
    base = character.param(param)
    if param == "alertness" and helmet:
        base += helmet  # L159-L160 (Alertness-based skills)
        notes.append(T(f"helmet {helmet} dice", f"шлем: {ru_n(helmet, 'кубик', 'кубика', 'кубиков')}"))
    lvl = character.skill_level(key)
    skill = _skill_label(character.TABLES, key)
    label = T(f"{PARAM_LABELS[param]['en']} + {skill['en']}", f"{PARAM_LABELS[param]['ru']} + {skill['ru']}")
    if lvl > 0:
        spec = PoolSpec(check_id, base + lvl, 0, label, "skill")
    else:
        sid = skill_id_of(key)
        related = [
            k
            for k in character.skills
            if k != key and skill_id_of(k) == sid and ":" in k and character.skill_level(k) > 0
        ]
        if related and ":" in key:
            # L33: a related specialization of the same skill: no success is removed.
            add = max(character.skill_level(k) for k in related) if options.other_spec_adds_level else 0
            spec = PoolSpec(
                check_id,
                base + add,
                0,
                label,
                "related",
                (T("related specialization: no -1", "родственная специализация: без -1"),),
            )
        else:
            spec = PoolSpec(
                check_id, base, 1, label, "untrained", (T("untrained: -1 success", "нет навыка: -1 успех"),)
            )
    return spec


def _err(code: str, en: str, ru: str) -> RuleError:
    """A bilingual refusal; RuleError is a ValueError, so callers catching ValueError still do."""
    return RuleError(code, T(en, ru))


def retry_penalty(attempt: int, *, options: Mapping[str, Any]) -> int:
    """L208: each further attempt out of combat gets -1 die; [DEFAULT] cumulative (attempt k:
    -(k-1)), OPTION retry_penalty="flat" (-1 for every retry). In combat there is none (L210):
    the tracker passes retry=1."""
    if attempt <= 1:
        return 0
    return 1 if options.retry_penalty == "flat" else attempt - 1


def _difficulty(difficulty: Any) -> int:
    if not isinstance(difficulty, int) or isinstance(difficulty, bool) or difficulty < 1:
        raise ValueError(f"difficulty must be a whole number >= 1, got {difficulty!r}")
    return difficulty


def epic_count(epic: Any) -> int:
    """Epic dice asked for: a whole number >= 0."""
    if not isinstance(epic, int) or isinstance(epic, bool) or epic < 0:
        raise ValueError(f"epic dice must be a whole number >= 0, got {epic!r}")
    return epic


_KNOWN_OPTIONS = {"difficulty", "epic", "dice_mod", "retry", "attackers", "joint", "faces", "in_combat"}


def _in_combat(check_id: str, value: Any) -> bool:
    """The ``in_combat`` option: yes or no, and only for a skill check (L240 is about skills)."""
    if not isinstance(value, bool):
        raise _err("bad_option", "In combat: yes or no is needed.", "В бою: нужно «да» или «нет».")
    if value and "+" not in check_id:
        raise _err(
            "bad_option",
            "Only a skill check takes the Alertness roll first in combat.",
            "Бросок Восприятия перед проверкой в бою — только для навыков.",
        )
    return value


def alertness_first_law(character, *, options: Mapping[str, Any]) -> Fraction:
    """The chance that the Alertness roll before a non-combat skill in combat has no success
    (L240: then the skill roll loses a die)."""
    a = resolve(character, "alertness", options=options)
    return net_law(max(0, a.pool)).get(0, Fraction(0))


def with_alertness_first(
    character, spec: PoolSpec, rng: random.Random, *, options: Mapping[str, Any]
) -> tuple[PoolSpec, PoolResult]:
    """L240: a non-combat skill used in combat needs an Alertness roll first (with its helmet
    dice); no success on it -> -1 die on the skill roll. Returns the skill's pool after it and
    the Alertness roll."""
    a = resolve(character, "alertness", options=options)
    r = read_faces(roll_faces(a.pool, rng), pool=a.pool, fumble_basis=options.fumble_basis)
    shown = breakdown(r)
    if r.net == 0:
        note = T(
            f"in combat, Alertness first: {shown['en']}: −1 die", f"в бою сначала Восприятие: {shown['ru']}: −1 кубик"
        )
        return PoolSpec(spec.check_id, spec.pool - 1, spec.penalty, spec.label, spec.kind, spec.notes + (note,)), r
    note = T(f"in combat, Alertness first: {shown['en']}", f"в бою сначала Восприятие: {shown['ru']}")
    return PoolSpec(spec.check_id, spec.pool, spec.penalty, spec.label, spec.kind, spec.notes + (note,)), r


def _split_options(check_options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(check_options) - _KNOWN_OPTIONS
    if unknown:
        raise ValueError(f"unknown check option(s) {sorted(unknown)}; known: {sorted(_KNOWN_OPTIONS)}")
    return dict(check_options)


def distribution(character, check_id: str, *, options: Mapping[str, Any], **check_options: Any) -> Distribution:
    """Exact law of the net successes, with p_pass = P(net >= difficulty) (§5.9, §5.11)."""
    if isinstance(check_id, str) and check_id.startswith("cast:"):
        from .casting import cast_distribution

        return cast_distribution(character, check_id, options=options, **check_options)
    o = _split_options(check_options)
    diff = _difficulty(o.pop("difficulty", 1))
    epic = epic_count(o.pop("epic", 0))
    in_combat = _in_combat(check_id, o.pop("in_combat", False))
    o.pop("faces", None)
    spec = resolve(character, check_id, options=options, **o)
    law = net_law(max(0, spec.pool), spec.penalty, epic)
    if in_combat:  # L240: no success on the Alertness roll first -> one die fewer
        p0 = alertness_first_law(character, options=options)
        law = {k: (1 - p0) * v for k, v in law.items()}
        for k, v in net_law(max(0, spec.pool - 1), spec.penalty, epic).items():
            law[k] = law.get(k, Fraction(0)) + p0 * v
        law = {k: v for k, v in law.items() if v}
    p = sum((v for k, v in law.items() if k >= diff), Fraction(0))
    return Distribution(
        law,
        p_pass=p,
        expression=f"ld {spec.pool}" + (" -1s" if spec.penalty else "") + (f" e{epic}" if epic else "") + f" dc {diff}",
        outcome="total",
    )


def faces_dice(faces: list[int], fumble: bool) -> list[Die]:
    out = []
    for f in faces:
        out.append(
            Die(
                10,
                f,
                success=f >= 6,
                failure=(f == 1 and fumble),
                crit="success" if f == 10 else ("failure" if f == 1 and fumble else None),
            )
        )
    return out


def breakdown(r: PoolResult) -> dict[str, str]:
    """The pool as the book reads it (L31, L192-L196): the successes, the crits among them,
    the ones only when they matter (no success: a critical failure), then what the untrained
    penalty and epic dice make of the count."""
    faces = ", ".join(str(f) for f in r.faces) or "-"
    en = f"ld {r.pool}: [{faces}] → {count(r.raw, 'success', 'en')}"
    ru = f"ld {r.pool}: [{faces}] → {ru_n(r.raw, 'успех', 'успеха', 'успехов')}"
    if r.crits:
        en += f", {en_n(r.crits, 'crit', 'crits')}"
        ru += f", {ru_n(r.crits, 'крит', 'крита', 'критов')}"
    if r.ones and not r.net:
        en += f", {en_n(r.ones, 'one', 'ones')}"
        ru += f", {ru_n(r.ones, 'единица', 'единицы', 'единиц')}"
    if r.penalty or r.epic:
        if r.penalty:
            en += f" − {r.penalty} untrained"
            ru += f" − {r.penalty} без навыка"
        if r.epic:
            en += f" + {en_n(r.epic, 'epic die', 'epic dice')}"
            ru += f" + {ru_n(r.epic, 'эпик-дайс', 'эпик-дайса', 'эпик-дайсов')}"
        en += f" = {count(r.net, 'success', 'en')}"
        ru += f" = {ru_n(r.net, 'успех', 'успеха', 'успехов')}"
    if r.fumble:
        en += " — critical failure"
        ru += " — критический провал"
    return T(en, ru)


OUTCOME_TEXT = {
    "success": T("achieved", "выполнено"),  # L198: «действие считается невыполненным»
    "failure": T("not achieved", "не выполнено"),
    "critical_failure": T("critical failure", "критический провал"),
    "rolled": T("rolled", "брошено"),
}


def roll(
    character, check_id: str, *, rng: random.Random | None = None, options: Mapping[str, Any], **check_options: Any
) -> CheckResult:
    if isinstance(check_id, str) and check_id.startswith("cast:"):
        from .casting import cast_roll

        return cast_roll(character, check_id, options=options, rng=rng, **check_options)
    o = _split_options(check_options)
    diff = _difficulty(o.pop("difficulty", 1))
    epic = epic_count(o.pop("epic", 0))
    in_combat = _in_combat(check_id, o.pop("in_combat", False))
    forced = o.pop("faces", None)
    spec = resolve(character, check_id, options=options, **o)
    if epic:
        if options.mode == "quick" or character.mode == "quick":
            raise RuleError(
                "epic_in_quick_game",
                T(
                    "Epic dice are not used in a quick game.",  # L347
                    "В быстрой игре эпик-дайсы не используются.",
                ),
            )  # L347
        if epic > character.epic_dice:
            raise RuleError(
                "not_enough_epic_dice",
                T(f"Only {character.epic_dice} epic dice left.", f"Осталось эпик-дайсов: {character.epic_dice}."),
            )
    if spec.pool <= 0 and options.pool_nonpositive == "forbid":
        raise RuleError("empty_pool", T("The pool has no dice.", "В пуле нет кубиков."))
    rng = rng if rng is not None else random.Random()
    alertness = None
    if in_combat:
        spec, alertness = with_alertness_first(character, spec, rng, options=options)
    faces = list(forced) if forced is not None else roll_faces(spec.pool, rng)
    r = read_faces(
        faces,
        penalty=spec.penalty,
        epic=epic,
        difficulty=diff,
        pool=spec.pool,
        fumble_basis=options.fumble_basis,
    )
    result = make_result(check_id, spec, r, diff, epic)
    result.details.update(pool_spec=spec, epic_after=epic_offer(character, epic, options=options))
    if alertness is not None:
        result.details["alertness_first"] = {"faces": alertness.faces, "successes": alertness.net}
        result.options["in_combat"] = True
    return result


def epic_offer(character, spent: int, *, options: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the tray offers after a roll (L351: epic dice before *or after* the roll): up to
    ``max`` more epic dice through ``GameSystem.spend_epic_after``; None in a quick game or
    with none left."""
    left = int(character.epic_dice) - spent
    if left <= 0 or options.mode == "quick" or character.mode == "quick":
        return None
    return {
        "max": left,
        "label": T("Spend epic dice now", "Потратить эпик-дайсы сейчас"),
        "help": T("+1 success each, after the roll as well as before", "+1 успех каждый, и после броска тоже"),
    }


def outcome_text(r: PoolResult, diff: int) -> dict[str, str]:
    """The verdict against the difficulty, as the book says it (the breakdown counts the
    successes): «выполнено (сложность 1)», «не выполнено (сложность 2)», «критический провал»."""
    outcome = OUTCOME_TEXT[r.outcome]
    if r.fumble or r.passed is None:
        return dict(outcome)
    return T(f"{outcome['en']} (difficulty {diff})", f"{outcome['ru']} (сложность {diff})")


def make_result(check_id: str, spec: PoolSpec, r: PoolResult, diff: int, epic: int) -> CheckResult:
    notation = f"ld {spec.pool}" + (" -1s" if spec.penalty else "") + (f" e{epic}" if epic else "") + f" dc {diff}"
    rr = word_result(
        notation,
        "ld",
        r.net,
        faces_dice(r.faces, r.fumble),
        breakdown(r),
        check=check_from(r.net, ">=", diff),
        successes=r.net,
        notes=list(spec.notes),
        details={"crits": r.crits, "ones": r.ones, "raw": r.raw, "fumble": r.fumble},
    )
    effects = [Effect("epic_dice", -epic, T("epic dice spent", "потрачены эпик-дайсы"))] if epic else []
    return CheckResult(
        check_id=check_id,
        label=spec.label,
        success=r.passed,
        total=r.net,
        roll=rr,
        margin=r.net - diff,
        degree=r.net,
        degree_label=T(count(r.net, "success", "en"), count(r.net, "success", "ru")),
        critical="failure" if r.fumble else ("success" if r.crits and r.passed else None),
        outcome=outcome_text(r, diff),
        effects=effects,
        options={"difficulty": diff, "epic": epic},
        details={
            "faces": r.faces,
            "successes": r.net,
            "passed": r.passed,
            "raw": r.raw,
            "crits": r.crits,
            "ones": r.ones,
            "net": r.net,
            "fumble": r.fumble,
            "pool": spec.pool,
            "penalty": spec.penalty,
            "kind": spec.kind,
            "outcome": r.outcome,
            "difficulty": diff,
            "pool_result": r,
        },
    )


def option_specs(with_coordination: bool = False) -> tuple[OptionSpec, ...]:
    opts = [
        OptionSpec(
            "difficulty",
            T("Difficulty (successes)", "Сложность (успехов)"),
            "int",
            1,
            1,
            10,
            help=T("1 ordinary ... 5 edge of ability", "1 обычное ... 5 на грани"),
        ),  # L200-L206
        OptionSpec("dice_mod", T("Extra dice ±", "Доп. кубики ±"), "int", 0, -10, 10),
        OptionSpec(
            "retry",
            T("Attempt no. (out of combat)", "Попытка № (вне боя)"),
            "int",
            1,
            1,
            20,
            help=T("Each further attempt: -1 die", "Каждая следующая попытка: -1 кубик"),
        ),  # L208
        OptionSpec(
            "epic",
            T("Epic dice to spend", "Потратить эпик-дайсов"),
            "int",
            0,
            0,
            20,
            help=T("+1 success each", "+1 успех каждый"),
        ),  # L351
    ]
    if with_coordination:
        opts.append(OptionSpec("attackers", T("Simultaneous attackers", "Одновременных атакующих"), "int", 1, 1, 10))
        opts.append(
            OptionSpec("joint", T("Joint casting (no minus)", "Совместное плетение (без минуса)"), "bool", False)
        )
    return tuple(opts)


IN_COMBAT = OptionSpec(
    "in_combat",
    T("Used in combat (Alertness roll first)", "В бою (сначала бросок Восприятия)"),
    "bool",
    False,
    help=T(
        "A non-combat skill used in a fight: an Alertness roll comes first; with no success on it "
        "this roll loses a die.",  # L240
        "Небоевой навык в бою: сначала бросок Восприятия; если на нём нет успехов, у этого броска на кубик меньше.",
    ),
)


def skill_help(character, key: str, param: str, *, untrained: bool, options: Mapping[str, Any]) -> dict | None:
    """The tray's note on a skill check: untrained (L33), and a parameter that is the house's
    reading (a GM option), not the book's (A-56)."""
    parts = [T("untrained: parameter dice, -1 success", "без навыка: кубики параметра, -1 успех")] if untrained else []
    d = skill_def(character.TABLES, skill_id_of(key)) or {}
    own = character.custom_skills.get(skill_id_of(key)) or character.custom_skills.get(key)
    if d and not d.get("param") and not own and (options.unstated_skill_params or {}).get(skill_id_of(key)) == param:
        lab = PARAM_LABELS[param]
        parts.append(
            T(
                f"{lab['en']} is the house's reading for this skill (a GM option): the book names no parameter",
                f"{lab['ru']} для этого навыка — домашнее правило (настройка Мастера): книга параметр не называет",
            )
        )
    if not parts:
        return None
    return T("; ".join(p["en"] for p in parts), "; ".join(p["ru"] for p in parts))


def list_checks(character, *, options: Mapping[str, Any]) -> list[CheckSpec]:
    from .casting import cast_option_specs

    out: list[CheckSpec] = []
    opts = option_specs()
    skill_opts = opts + (IN_COMBAT,)
    g_params = T("Parameters", "Параметры")
    for p in PARAMS:
        s = resolve(character, p, options=options)
        out.append(CheckSpec(p, PARAM_LABELS[p], opts, g_params, notation=f"ld {s.pool}"))
    g_skills = T("Skills", "Навыки")
    keys = set(character.skills)
    for r in character.TABLES.rows("skills"):
        # built-in skills, also those whose parameter comes from a reading (A-56 unstated_skill_params);
        # a skill needing a feature (Transformation: Shapeshifter, L84) only for characters who have it
        if not r.get("branched") and (not r.get("requires_feature") or character.has_feature(r["requires_feature"])):
            keys.add(r["id"])
    for key in sorted(keys):
        param = character.skill_param_under(key, options=options)
        if not param:
            continue
        cid = f"{param}+{key}"
        s = resolve(character, cid, options=options)
        out.append(
            CheckSpec(
                cid,
                s.label,
                skill_opts,
                g_skills,
                notation=f"ld {s.pool}" + (" -1s" if s.penalty else ""),
                help=skill_help(character, key, param, untrained=bool(s.penalty), options=options),
            )
        )  # L33
    g_other = T("Other", "Другое")
    out.append(
        CheckSpec(
            "initiative", T("Initiative", "Инициатива"), opts, g_other, notation=f"ld {character.initiative_pool}"
        )
    )
    out.append(CheckSpec("will", T("Will", "Сила воли"), opts, g_other, notation=f"ld {character.will}"))
    for key in sorted(character.skills):
        if character.skill_param_under(key, options=options) == "complexity" and character.skill_level(key) > 0:
            out.append(
                CheckSpec(
                    f"cast:{key}",
                    T(
                        f"Cast: {_skill_label(character.TABLES, key)['en']}",
                        f"Заклинание: {_skill_label(character.TABLES, key)['ru']}",
                    ),
                    cast_option_specs(character),
                    T("Energetics", "Энергетика"),
                    notation=f"ld {character.complexity + character.skill_level(key)}-…",
                    help=T(
                        "Complexity + skill − target complexity − spell complexity; difficulty = spell level",  # L35, L286
                        "Сложность + навык − сложность цели − сложность заклинания; сложность броска = уровень",
                    ),
                )
            )  # L35, L286
    out.append(
        CheckSpec(
            "coordination",
            T("Coordination", "Слаженность"),
            option_specs(True),
            g_other,
            notation=f"ld {character.dexterity + character.alertness}-N",
        )
    )
    return out


class RetryTracker:
    """Out-of-combat retry counts per (character, action under its conditions) (L208-L210).
    ``attempt(...)`` returns the attempt number to pass as ``retry``; ``new_scene()`` resets
    (a scene change or the end of a skip-time)."""

    def __init__(self):
        self.counts: dict[tuple[str, str], int] = {}

    def attempt(self, character_id: str, action_key: str, in_combat: bool = False) -> int:
        if in_combat:
            return 1  # L210: no retry penalty in combat
        k = (character_id, action_key)
        self.counts[k] = self.counts.get(k, 0) + 1
        return self.counts[k]

    def new_scene(self) -> None:
        self.counts.clear()
