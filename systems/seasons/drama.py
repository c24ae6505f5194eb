"""Drama points (spec §7.1; L146-147, L737-742): spending on one check, chapter awards, story reset."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core import Effect, RuleError, T

from .pool import STANDARD_MODIFIER


#: L742: "only 1 point per check" read as one point in all (``drama_limit = "per_check"``)
ONE_DRAMA_PER_CHECK = T(
    "only 1 Drama point may be spent on a check",
    "на одну проверку можно потратить только 1 пункт Драмы",
)


def check_can_spend_drama(character) -> None:
    """Refuse an NPC (they have no Drama, L739) and a character with no point left."""
    if not character.is_player_character:
        raise RuleError("npc_drama", T("NPCs have no Drama points", "У неигровых персонажей нет пунктов Драмы"))  # L739
    if character.drama < 1:
        raise RuleError("no_drama", T("no Drama points left", "не осталось пунктов Драмы"))


@dataclass
class DramaLedger:
    """The Drama spent on ONE check. ``per_character`` (default, §11 #3): each character may spend
    1 point on it (the roller for +3, each opponent for -3); ``per_check``: 1 point in total.
    Spending is declared before the dice unless ``drama_after_roll`` (§11 #4)."""

    options: GmOptions
    spenders: dict = field(default_factory=dict)  # spender id -> "boost_own" / "hinder_opponent"
    rolled: bool = False

    def spend(self, spender_id: str, character, mode: str = "boost_own") -> Effect:
        if mode not in ("boost_own", "hinder_opponent"):
            raise ValueError(f"mode must be 'boost_own' or 'hinder_opponent', not {mode!r}")
        if self.rolled and not self.options.drama_after_roll:
            raise RuleError(
                "drama_after_roll", T("Drama is spent before the dice are rolled.", "Драму тратят до броска.")
            )
        check_can_spend_drama(character)
        if spender_id in self.spenders:
            raise RuleError(
                "drama_twice",
                T(
                    "only 1 Drama point per check",  # L742
                    "только 1 пункт Драмы на проверку",
                ),
            )  # L742
        if self.options.drama_limit == "per_check" and self.spenders:
            raise RuleError("drama_per_check", ONE_DRAMA_PER_CHECK)  # L742
        self.spenders[spender_id] = mode
        return Effect("drama", -1, T("Drama spent", "Потрачен пункт Драмы"))

    @property
    def pool_modifier(self) -> int:
        """+3 for the roller's point, -3 for each opponent's point (L741, L763, L773)."""
        return sum(STANDARD_MODIFIER if m == "boost_own" else -STANDARD_MODIFIER for m in self.spenders.values())


#: The ``source`` of a Drama point an opponent spent against a character's next check (L773).
DRAMA_AGAINST = "drama"


def spend_drama_against(spender, opponent, applies_to: str = "", *, options: GmOptions) -> dict[str, dict]:
    """L773: «персонаж может потратить 1 пункт Драмы во время действия противника или соперника,
    чтобы тот получил штраф -3» — any player character, not only the one the action aims at.
    One Drama point comes off ``spender`` and -3 is queued on ``opponent`` for the action being
    made (their next check that fits ``applies_to``; "" any), which uses it up (spec §7.10).

    Refused, with nothing changed: a non-player character or one with no Drama left (L739),
    oneself (that is the +3 on one's own check), a second point of the same spender on that
    action (L742) and, under ``drama_limit = "per_check"``, any second point on it (§11 #3). Returns
    ``{"spender": {trait: (old, new)}, "opponent": {trait: (old, new)}}``."""
    check_can_spend_drama(spender)
    if spender is opponent:
        raise RuleError(
            "drama_against_self",
            T(
                "Against one's own check Drama is the +3 of that check.",
                "На собственную проверку Драма тратится как +3 к ней.",
            ),
        )
    by = str(spender.name or "")
    queued = [p for p in opponent.pending_penalties if p.get("source") == DRAMA_AGAINST]
    if any(p.get("by", "") == by for p in queued):
        raise RuleError("drama_twice", T("only 1 Drama point per check", "только 1 пункт Драмы на проверку"))  # L742
    if options.drama_limit == "per_check" and queued:
        raise RuleError("drama_per_check", ONE_DRAMA_PER_CHECK)  # L742, §11 #3
    old_drama, old_queue = spender.drama, list(opponent.pending_penalties)
    item = {"source": DRAMA_AGAINST, "dice": STANDARD_MODIFIER, "applies_to": applies_to, "by": by}
    opponent.update(pending_penalties=[*old_queue, item])
    spender.update(drama=old_drama - 1)
    return {
        "spender": {"drama": (old_drama, spender.drama)},
        "opponent": {"pending_penalties": (old_queue, list(opponent.pending_penalties))},
    }


def chapter_award(c, *, archetype: int = 0, goal: int = 0, problem: int = 0, extras: int = 0) -> Effect:
    """End-of-chapter Drama (L742): 0-5 each for Archetype, Goal and Problem (0 when it did not come
    up, spec §7.1 default), plus +1 per memorable moment (unlimited)."""
    if not c.is_player_character:
        raise RuleError("npc_drama", T("NPCs have no Drama points", "У неигровых персонажей нет пунктов Драмы"))  # L739
    for name, v in (("archetype", archetype), ("goal", goal), ("problem", problem)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 5:
            word = {"archetype": "Архетип", "goal": "Цель", "problem": "Проблема"}[name]
            raise RuleError("award_range", T(f"{name} award is 0–5, not {v!r}", f"награда ({word}): 0–5, а не {v!r}"))
    if not isinstance(extras, int) or extras < 0:
        raise RuleError("award_range", T("extras are a count >= 0", "дополнительные пункты — число >= 0"))
    total = archetype + goal + problem + extras
    return Effect("drama", total, T(f"chapter award: {total}", f"награда за главу: {total}"))


def new_story_drama(c, *, options: GmOptions) -> int:
    """Drama at the start of a new story (L740): reset to PRE + MAN + COM, both up and down
    (default), or only raised when lower (``drama_reset = "only_if_lower"``)."""
    if options.drama_reset == "only_if_lower":
        return max(c.drama, c.drama_start)
    return c.drama_start


def new_story(c, *, options: GmOptions) -> dict[str, tuple[Any, Any]]:
    """Start of a new story: Drama back to its starting value (L740); NPCs have none (L739)."""
    old = c.drama
    new = new_story_drama(c, options=options) if c.is_player_character else 0
    c.update(drama=new)
    return {"drama": (old, new)} if new != old else {}
