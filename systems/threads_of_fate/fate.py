"""Threads of Fate, Moves and Caprices (spec §7.1), and XP purchases (§7.4), as operations.

Every operation checks first and changes nothing when it refuses (``RuleError``); on success it
applies the change and returns ``{trait: (old, new)}`` (plus details where useful).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import Effect
from tabletop_widgets.core.wording import ru_n
from . import data
from .traits import CHARACTERISTICS, CHAR_LABELS, CREATION_MAX, EXPERT_SKILLS, SKILLS, TRICK_COST, skill_label


THREADS_START = 2  # L164
THREADS_CAP = 5  # L164

MOVES = data.rows_by("moves", "id")
CAPRICES = data.rows_by("caprices", "id")


def _uses_threads(ch) -> None:
    if ch.entity_type == "extra":
        raise RuleError(
            "extra_no_threads",
            T(
                "extras cannot hold or use Threads",  # L64
                "статисты не могут иметь и использовать Нити",
            ),
        )  # L64


def set_traits(ch, **values) -> dict[str, tuple[Any, Any]]:
    changes = {k: (getattr(ch, k), v) for k, v in values.items()}
    ch.update(**values)
    return {k: v for k, v in changes.items() if v[0] != v[1]}


# ------------------------------------------------------------------------------------------------
# Threads state (§7.1.1)
# ------------------------------------------------------------------------------------------------
def start_meeting(ch, *, options) -> dict:
    """Start of a game meeting: heroes and personas have 2 Threads (L164); per-meeting counters reset.
    In milestone mode Threads persist (A23)."""
    values: dict[str, Any] = {"threads_bought": 0, "change_activations_used": 0}
    if ch.entity_type == "extra":
        values["threads"] = 0
    elif options.refresh_mode == "meeting":
        values["threads"] = THREADS_START
    return set_traits(ch, **values)


def end_meeting(ch, *, options) -> dict:
    """Unused Threads break at the end of a meeting (L164); not in milestone mode (A23)."""
    if options.refresh_mode == "meeting":
        return set_traits(ch, threads=0)
    return {}


def milestone_refresh(ch) -> dict:
    """Milestone mode (L165): anyone below 2 goes up to 2; above 2 keeps theirs."""
    _uses_threads(ch)
    return set_traits(ch, threads=max(ch.threads, THREADS_START))


def new_day(ch) -> dict:
    """Per-day counters reset: Medicine may heal this patient again (L439, A28)."""
    return set_traits(ch, medicine_today=False, medicine_given_today=False)


def end_scene(ch) -> dict:
    """Clears the per-scene GM-Caprice flag (L209)."""
    return set_traits(ch, gm_caprice_used=False)


def _check_gain(ch, n: int, *, options) -> None:
    """A22 ``thread_overflow="refused"``: L164's "no more than 5 Threads at one moment" read as a refusal:
    a gain that would take the hero past 5 does not happen (nothing changes)."""
    if options.thread_overflow == "refused" and ch.threads + n > THREADS_CAP:
        raise RuleError(
            "threads_cap",
            T(
                f"the hero holds {ch.threads} Threads: gaining {n} would pass 5; "  # L164
                "in this campaign the gain is refused",
                f"у героя {ru_n(ch.threads, 'Нить', 'Нити', 'Нитей')}, ещё {n} — больше 5; "  # L164
                "в этой кампании такое получение запрещено",
            ),
            have=ch.threads,
            n=n,
        )


def gain_threads(ch, n: int = 1, *, options) -> dict:
    """Extend Threads; never more than 5 held (L164). A22 (GM option ``thread_overflow``): ``lost`` (default)
    the excess is lost; ``refused`` a gain past 5 is refused with ``RuleError``."""
    _uses_threads(ch)
    if n < 0:
        raise RuleError("bad_amount", T("gain 0 or more Threads", "можно получить 0 Нитей или больше"))
    _check_gain(ch, n, options=options)
    new = min(THREADS_CAP, ch.threads + n)
    lost = ch.threads + n - new
    out = set_traits(ch, threads=new)
    return {**out, "lost": lost} if lost else out


def spend_threads(ch, n: int, reason: Mapping[str, str] | None = None, *, options) -> dict:
    """Break ``n`` Threads (L173). In ``xp_as_threads`` mode unspent XP covers the shortfall (L169)."""
    _uses_threads(ch)
    if n < 0:
        raise ValueError("n must be >= 0")
    xp_mode = options.xp_threads_mode == "xp_as_threads"
    available = ch.threads + (ch.xp_free if xp_mode else 0)
    if available < n:
        what = reason or T("this", "это")
        raise RuleError(
            "not_enough_threads",
            T(
                f"{what['en']} needs {n} Thread(s); the hero has {ch.threads}",
                f"{what['ru']}: нужно Нитей {n}, у героя {ch.threads}",
            ),
            needed=n,
            have=ch.threads,
        )
    from_threads = min(ch.threads, n)
    values = {"threads": ch.threads - from_threads}
    if n > from_threads:
        values["xp_free"] = ch.xp_free - (n - from_threads)
    return set_traits(ch, **values)


def effect_value(ch, trait: str, old: Any, delta: int) -> Any:
    """The value of ``trait`` once an effect adds ``delta`` to ``old``: Threads within 0-5 (the excess is lost,
    A22; below 0 refused), HP at most the maximum, XP never below 0 (refused)."""
    new = old + delta
    if trait == "threads":
        if new < 0:
            raise RuleError("not_enough_threads", T("not enough Threads", "недостаточно Нитей"))
        return min(THREADS_CAP, new)
    if trait == "hp" and ch.hp_max is not None:
        return min(ch.hp_max, new)
    if trait in ("xp_free", "xp_total") and new < 0:
        raise RuleError("not_enough_xp", T("not enough XP", "недостаточно Очков опыта"))
    return new


def threads_paid_with_xp(ch, effects: Iterable[Effect], *, options) -> list[Effect]:
    """``effects`` with each Threads shortfall that unspent XP covers paid in XP (``xp_as_threads`` mode,
    L169): the Threads go to 0 and the rest becomes an ``xp_free`` effect. Other modes change nothing."""
    effects = list(effects)
    if options.xp_threads_mode != "xp_as_threads":
        return effects
    threads, xp = ch.threads, ch.xp_free
    out = []
    for e in effects:
        short = -(threads + e.delta) if e.trait == "threads" else 0
        if short > 0 and xp >= short:
            out += [Effect("threads", -threads, e.reason), Effect("xp_free", -short, e.reason)]
            threads, xp = 0, xp - short
            continue
        out.append(e)
        if e.trait == "threads":
            threads = min(THREADS_CAP, threads + e.delta)
        elif e.trait == "xp_free":
            xp += e.delta
    return out


# ------------------------------------------------------------------------------------------------
# XP -> Threads (§7.1.3)
# ------------------------------------------------------------------------------------------------
def buy_threads(ch, n: int = 1, *, options, moment: str = "meeting_start") -> dict:
    """Extend Threads for 1 XP each (L166-169). ``moment``: ``meeting_start`` or ``between_scenes``."""
    _uses_threads(ch)
    mode = options.xp_threads_mode
    if n < 1:
        raise RuleError("bad_amount", T("buy at least 1 Thread", "купите хотя бы 1 Нить"))
    if mode == "xp_as_threads":
        raise RuleError(
            "xp_as_threads",
            T(
                "in this campaign unspent XP are used as Threads directly",  # L169
                "в этой кампании Очки опыта используются как Нити напрямую",
            ),
        )  # L169
    limit, when = (3, "meeting_start") if mode == "start_3" else (5, "between_scenes")
    if moment != when:
        raise RuleError(
            "wrong_moment",
            T(
                "Threads can be bought with XP only at the start of a meeting"
                if when == "meeting_start"
                else "Threads can be bought with XP only between scenes",
                "Нити за Очки опыта — только в начале игровой встречи"
                if when == "meeting_start"
                else "Нити за Очки опыта — только в перерывах между сценами",
            ),
        )
    if ch.threads_bought + n > limit:
        raise RuleError(
            "buy_limit",
            T(
                f"at most {limit} Threads per meeting can be bought with XP (max {limit})",
                f"за встречу можно купить не больше {ru_n(limit, 'Нити', 'Нитей', 'Нитей')} за Очки опыта",
            ),
            limit=limit,
        )
    if ch.threads + n > THREADS_CAP:
        raise RuleError("threads_cap", T("a hero holds at most 5 Threads", "у героя не больше 5 Нитей"))  # L164
    if ch.xp_free < n:
        raise RuleError(
            "not_enough_xp", T(f"needs {n} XP; {ch.xp_free} unspent", f"нужно Очков опыта: {n}, есть {ch.xp_free}")
        )
    return set_traits(ch, threads=ch.threads + n, xp_free=ch.xp_free - n, threads_bought=ch.threads_bought + n)


# ------------------------------------------------------------------------------------------------
# Moves (§7.1.4-7.1.5)
# ------------------------------------------------------------------------------------------------
HAND_OF_FATE_BANDS = {1: "B", 2: "C", 3: "D"}  # L204


def move_cost(move_id: str, threads: int | None = None) -> int:
    m = MOVES[move_id]
    cost = m["cost_min"] if threads is None else threads
    if cost < m["cost_min"] or (m["cost_max"] is not None and not m["gm_may_raise"] and cost > m["cost_max"]):
        raise RuleError(
            "bad_cost",
            T(
                f"{move_id} costs {m['cost_min']}"
                + (f"-{m['cost_max']}" if m["cost_max"] != m["cost_min"] else "")
                + " Thread(s)",
                f"{move_id} стоит Нитей: {m['cost_min']}",
            ),
        )
    return cost


def critical_after_roll_options(ch, result, *, options) -> list:
    """The 4-Thread critical Move after the roll (L191-192), offered only under the GM's reading
    ``critical_move_timing="any_time"`` (A17) and for a rolled check of a hero or persona with the
    Threads to pay (or unspent XP in ``xp_as_threads`` mode)."""
    from tabletop_widgets.core.system import OptionSpec

    d = result.details
    if options.critical_move_timing != "any_time" or ch.entity_type == "extra":
        return []
    if d.get("static") or d.get("bought") or not d.get("dice") or result.check_id == "trouble":
        return []
    if ch.threads < 4 and options.xp_threads_mode != "xp_as_threads":
        return []
    return [
        OptionSpec(
            "critical",
            T("Lucky! after the roll (4 Threads)", "Повезло! после броска (4 Нити)"),
            "choice",
            "success",
            choices=(
                ("success", T("critical success: the die counts as 20", "критический успех: кубик = 20")),
                ("failure", T("critical failure: the die counts as 1", "критический провал: кубик = 1")),
            ),
            help=T(
                "Break 4 Threads: the check becomes a critical success or failure, as if the die showed 20 or 1.",
                "Оборвите 4 Нити: проверка становится критическим успехом или провалом, как будто выпало 20 или 1.",
            ),
        )
    ]


def make_move(
    ch,
    move_id: str,
    *,
    options,
    threads: int | None = None,
    variant: str = "success",
    only_on_20: bool = False,
    target: str = "self",
    persona=None,
) -> dict:
    """Break Threads for a Move (L177-204). ``variant`` for M5/M6: ``success`` or ``failure``;
    ``only_on_20``: the check succeeds only on a natural 20 (forbids M5 success, L189);
    ``target``: ``self``, ``extra_or_persona`` or ``other_hero`` (whom the Move helps, L180, A43);
    ``persona``: the persona who gains a Thread from M12 (L201)."""
    if move_id not in MOVES:
        raise RuleError("unknown_move", T(f"no Move {move_id!r}", f"нет Хода {move_id!r}"))
    _uses_threads(ch)
    m = MOVES[move_id]
    cost = move_cost(move_id, threads)
    n = int(move_id[1:])
    if target == "extra_or_persona" and n > 9 and m["target"] != "extra_or_persona":
        raise RuleError(
            "move_target",
            T(
                "for extras and personas only Lucky! and Right place, right time Moves",  # L180
                "для статистов и персон — только Ходы «Повезло!» и «В нужном месте»",
            ),
        )  # L180
    if target == "other_hero" and not (7 <= n <= 9 or n in (13, 14)):
        raise RuleError(
            "move_target",
            T(
                "other heroes can be helped only as in Right place, right time",  # L204
                "другим героям можно помочь только как в «В нужном месте»",
            ),
        )  # L204
    if move_id == "M5" and variant == "success" and only_on_20:
        raise RuleError(
            "only_on_20",
            T(
                "a bought success is not allowed when only a 20 succeeds; use the 4-Thread critical",  # L189
                "купить успех нельзя, если преуспеть можно только на 20; используйте критический успех за 4 Нити",
            ),
        )  # L189
    if ch.threads < cost and options.xp_threads_mode != "xp_as_threads":
        raise RuleError(
            "not_enough_threads",
            T(
                f"{move_id} needs {cost} Thread(s); the hero has {ch.threads}",
                f"{move_id}: нужно Нитей {cost}, у героя {ch.threads}",
            ),
            needed=cost,
        )
    if move_id == "M12" and persona is not None:
        _uses_threads(persona)
    out = spend_threads(ch, cost, T(move_id, move_id), options=options)
    result: dict[str, Any] = {"changes": out, "move": move_id, "cost": cost}
    if move_id == "M5":
        result["forced"] = "minimal_success" if variant == "success" else "minimal_failure"
    if move_id == "M6":
        result["die"] = 20 if variant == "success" else 1
    if move_id == "M14":
        result["band"] = HAND_OF_FATE_BANDS.get(min(cost, 3))
    if move_id == "M12" and persona is not None:
        result["persona_changes"] = gain_threads(persona, 1, options=options)
    return result


def hand_of_fate(contributions: Sequence[tuple[Any, int]], *, options) -> dict:
    """Several heroes pool Threads (L204): 1 -> What a day!, 2 -> Looks like I have a problem!,
    3 (or more, GM) -> Catastrophe! for the chosen extra. All or nothing."""
    total = sum(n for _, n in contributions)
    if total < 1:
        raise RuleError("bad_cost", T("Hand of Fate needs at least 1 Thread", "«Рука Судьбы» требует хотя бы 1 Нить"))
    for ch, n in contributions:
        _uses_threads(ch)
        if ch.threads < n:
            raise RuleError(
                "not_enough_threads",
                T(
                    f"{ch.name or 'a hero'} has only {ch.threads} Thread(s)",
                    f"{ch.name or 'герой'}: только {ru_n(ch.threads, 'Нить', 'Нити', 'Нитей')}",
                ),
            )
    for ch, n in contributions:
        spend_threads(ch, n, T("Hand of Fate", "Рука Судьбы"), options=options)
    band = HAND_OF_FATE_BANDS[min(total, 3)]
    return {"total": total, "band": band, "row": data.trouble_row("general", band)}


def unique_move_cost(without_attribute: str) -> tuple[int, int]:
    """GM guidance for a Unique move costing "1 or more Threads" (L475):
    ``check`` / ``buy_success`` -> 1; ``buy_critical`` -> 2-3; ``impossible`` -> 5."""
    table = {"check": (1, 1), "buy_success": (1, 1), "buy_critical": (2, 3), "impossible": (5, 5)}
    if without_attribute not in table:
        raise KeyError(without_attribute)
    return table[without_attribute]


# ------------------------------------------------------------------------------------------------
# Caprices (§7.1.6)
# ------------------------------------------------------------------------------------------------
def invoke_caprice(
    ch,
    caprice_id: str = "C1",
    *,
    options,
    by: str = "player",
    by_hero=None,
    refuse: bool = False,
    approved: bool = True,
    scene: "Scene | None" = None,
    hero_id: str | None = None,
) -> dict:
    """A Caprice of Fate enters play for ``ch`` (L207-227).

    ``by``: ``player`` (the hero's own player), ``gm`` (once per hero per scene, free, L209) or
    ``other_player`` (Move M13: ``by_hero`` breaks 1 Thread, L203). ``approved``: the GM judges it
    serious enough (L208; C4 needs approval, L225). ``refuse``: the player makes Move M1 (1 Thread):
    the Caprice does not enter play and no Thread is gained (L210-211); with 0 Threads refusal is
    impossible and the Thread is gained.

    ``scene`` (a :class:`Scene`) with ``hero_id``: the GM's once-per-hero-per-scene limit is kept by the
    scene object instead of the character's ``gm_caprice_used`` flag (A45: only GM Caprices count).
    """
    if by not in ("player", "gm", "other_player"):
        raise RuleError("bad_option", T("by is player, gm or other_player", "by: player, gm или other_player"))
    if scene is not None and not hero_id:
        raise RuleError("needs_hero", T("with a scene, say which hero (hero_id)", "со сценой укажите героя (hero_id)"))
    if caprice_id not in CAPRICES:
        raise RuleError("unknown_caprice", T(f"no Caprice {caprice_id!r}", f"нет Каприза {caprice_id!r}"))
    _uses_threads(ch)
    if by == "gm" and scene is not None:
        scene.check_gm_caprice(hero_id)
    elif by == "gm" and ch.gm_caprice_used:
        raise RuleError(
            "gm_caprice_once",
            T(
                "the GM has already used a Caprice on this hero in this scene",  # L209
                "мастер уже применил Каприз к этому герою в этой сцене",
            ),
        )  # L209
    if approved and not (refuse and ch.threads >= 1):
        _check_gain(ch, 1, options=options)  # A22 "refused": checked before anything changes
    if by == "other_player":
        if by_hero is None:
            raise RuleError("needs_hero", T("which hero breaks the Thread (M13)?", "чей герой обрывает Нить (M13)?"))
        _uses_threads(by_hero)
        if by_hero.threads < 1:
            raise RuleError(
                "not_enough_threads", T("Hand of Fate (M13) needs 1 Thread", "«Рука Судьбы» (M13) требует 1 Нить")
            )
    out: dict[str, Any] = {"caprice": caprice_id}
    if by == "gm" and scene is not None:
        scene.record_gm_caprice(hero_id)
        out["scene"] = scene.to_dict()
    elif by == "gm":
        out["changes"] = set_traits(ch, gm_caprice_used=True)
    if by == "other_player":
        out["by_hero_changes"] = spend_threads(by_hero, 1, T("Hand of Fate", "Рука Судьбы"), options=options)
    if not approved:
        out["status"] = "not_in_play"
        return out
    if refuse and ch.threads >= 1:
        out["threads"] = spend_threads(ch, 1, T("Lucky!", "Повезло!"), options=options)
        out["status"] = "refused"
        return out
    out["threads"] = gain_threads(ch, 1, options=options)
    out["status"] = "entered_play"
    return out


def common_trouble(characters: Iterable, *, options) -> dict:
    """GM-initiated Common Trouble "Catastrophe!": +1 Thread to every hero and persona present (L238).
    With ``thread_overflow="refused"`` (A22) a hero already at 5 gains nothing (``{"refused": True}``)."""
    out = {}
    for c in characters:
        if c.entity_type == "extra":
            continue
        if options.thread_overflow == "refused" and c.threads + 1 > THREADS_CAP:
            out[id(c)] = {"refused": True}
        else:
            out[id(c)] = gain_threads(c, 1, options=options)
    return out


# ------------------------------------------------------------------------------------------------
# The scene (L209): the GM's once-per-hero Caprice limit
# ------------------------------------------------------------------------------------------------
@dataclass
class Scene:
    """One scene of play. The GM may use a Caprice once on each hero taking part (L209); players' own
    Caprices and Move M13 do not count (A45). Pure data: ``to_dict`` / ``from_dict`` round-trip (JSON)."""

    name: str = ""
    gm_caprices: list[str] = field(default_factory=list)  # hero ids the GM used a Caprice on

    SCHEMA: ClassVar[int] = 1

    def gm_caprice_available(self, hero_id: str) -> bool:
        return hero_id not in self.gm_caprices

    def check_gm_caprice(self, hero_id: str) -> None:
        if not self.gm_caprice_available(hero_id):
            raise RuleError(
                "gm_caprice_once",
                T(
                    f"the GM has already used a Caprice on {hero_id} in this scene",  # L209
                    f"мастер уже применил Каприз к {hero_id} в этой сцене",
                ),
            )  # L209

    def record_gm_caprice(self, hero_id: str) -> None:
        self.check_gm_caprice(hero_id)
        self.gm_caprices.append(hero_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "threads_of_fate.scene",
            "schema": self.SCHEMA,
            "name": self.name,
            "gm_caprices": list(self.gm_caprices),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Scene":
        ok = (
            isinstance(data, Mapping)
            and data.get("kind") == "threads_of_fate.scene"
            and data.get("schema") == cls.SCHEMA
            and isinstance(data.get("name", ""), str)
            and isinstance(data.get("gm_caprices", []), list)
            and all(isinstance(h, str) for h in data.get("gm_caprices", []))
            and len(set(data.get("gm_caprices", []))) == len(data.get("gm_caprices", []))
        )
        if not ok:
            raise RuleError(
                "bad_scene",
                T(
                    "not a saved Threads of Fate scene (kind, schema 1, name, gm_caprices: distinct hero ids)",
                    "это не сохранённая сцена «Нитей судьбы» (kind, schema 1, name, gm_caprices: разные id героев)",
                ),
            )
        return cls(data.get("name", ""), list(data.get("gm_caprices", [])))


# ------------------------------------------------------------------------------------------------
# XP purchases (§7.4) and creation steps (§4)
# ------------------------------------------------------------------------------------------------
def raise_skill(ch, skill: str, by: int = 1) -> dict:
    """Put XP into a skill, 1 XP per point (L369). At creation the 10 (+bonus) XP budget pays;
    in play unspent XP. Refuses above Intelligence (L370) and Expert skills without access (L412)."""
    if skill not in SKILLS:
        raise RuleError("unknown_skill", T(f"no skill {skill!r}", f"нет навыка {skill!r}"))
    if by < 1:
        raise RuleError("bad_amount", T("raise by at least 1", "повышение хотя бы на 1"))
    lab = skill_label(skill)
    new = getattr(ch, skill) + by
    if skill in EXPERT_SKILLS and not ch.has_access(skill):
        raise RuleError(
            "no_access",
            T(
                f"{lab['en']} is an Expert skill; you need an Attribute or Trick that grants access",
                f"{lab['ru']} — Экспертный навык; нужен Атрибут или Трюк, дающий доступ",
            ),
        )
    if new > ch.skill_cap:
        raise RuleError(
            "skill_cap",
            T(
                f"{lab['en']} {new} would exceed Intelligence {ch.skill_cap}",
                f"{lab['ru']} {new} превысит Интеллект {ch.skill_cap}",
            ),
        )
    if ch.phase == "creation":
        if ch.creation_xp_left < by:
            raise RuleError(
                "not_enough_xp",
                T(
                    f"only {ch.creation_xp_left} creation XP left",
                    f"Очков опыта создания осталось только {ch.creation_xp_left}",
                ),
            )
        return set_traits(ch, **{skill: new})
    if ch.xp_free < by:
        raise RuleError(
            "not_enough_xp", T(f"needs {by} XP; {ch.xp_free} unspent", f"нужно Очков опыта: {by}, есть {ch.xp_free}")
        )
    return set_traits(ch, **{skill: new, "xp_free": ch.xp_free - by})


def buy_trick(ch, name: str, text: str = "", expert_access: Sequence[str] = ()) -> dict:
    """A Trick costs 5 XP (L157); at creation the first two are free choices (L264)."""
    item = {"name": name, "text": text, "expert_access": list(expert_access)}
    if ch.phase == "creation" and len(ch.tricks) < 2:
        return set_traits(ch, tricks=ch.tricks + [item])
    if ch.xp_free < TRICK_COST:
        raise RuleError(
            "not_enough_xp",
            T(
                f"a Trick costs {TRICK_COST} XP; {ch.xp_free} unspent",
                f"цена Трюка в Очках опыта: {TRICK_COST}, есть {ch.xp_free}",
            ),
        )
    return set_traits(ch, tricks=ch.tricks + [item], xp_free=ch.xp_free - TRICK_COST)


def spend_characteristic_point(ch, characteristic: str, by: int = 1, *, options) -> dict:
    """Creation point-buy: 1 point = +1 score (L271); at most 18 at creation (L274)."""

    if characteristic not in CHARACTERISTICS:
        raise RuleError(
            "unknown_characteristic",
            T(f"no characteristic {characteristic!r}", f"нет характеристики {characteristic!r}"),
        )
    if ch.phase != "creation":
        raise RuleError(
            "not_creation",
            T(
                "characteristic points are spent at creation; the XP cost in play is missing (GM)",
                "очки характеристик тратятся при создании; цена в Очках опыта во фрагменте отсутствует",
            ),
        )
    new = getattr(ch, characteristic) + by
    lab = CHAR_LABELS[characteristic]
    budget = options.char_points
    if ch.entity_type == "hero" and new > CREATION_MAX:
        raise RuleError(
            "creation_max",
            T(
                f"{lab['en']} would be {new}; at creation no characteristic may exceed 18",
                f"{lab['ru']} = {new}; при создании не больше 18",
            ),
        )
    if new < 1 and ch.entity_type == "hero":
        raise RuleError(
            "characteristic_min", T(f"{lab['en']} must be at least 1", f"{lab['ru']} не может быть меньше 1")
        )
    if ch.entity_type == "hero" and ch.char_points_spent + by > budget:
        raise RuleError(
            "char_budget",
            T(
                f"only {budget - ch.char_points_spent} characteristic points left",
                f"осталось очков характеристик: {budget - ch.char_points_spent}",
            ),
        )
    return set_traits(ch, **{characteristic: new})


def play_changes(ch) -> dict[str, Any]:
    """What entering play changes besides the phase: the creation XP not spent on skills stays
    the hero's as free XP (L263-268)."""
    return {"xp_free": ch.xp_free + max(0, ch.creation_xp_left)}
