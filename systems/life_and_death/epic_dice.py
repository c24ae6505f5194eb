"""Epic dice spent after the roll (L351: "before or after rolling the dice"): the same dice read
again with more epic successes, as a new check result whose only effect is the epic dice spent."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import CheckResult, Effect, OptionSpec, RuleError, T

from .casting import VERDICTS
from .checks import epic_offer, make_result
from .dice import PoolResult, read_faces
from .magic import cast_outcome


def spend_after(character, previous: CheckResult, epic: Any, *, options: Mapping[str, Any]) -> CheckResult:
    """``previous`` (a check or a cast of ``character``, its own effects already applied) with
    ``epic`` more epic dice: each adds one success (L351), a campaign's only (L347). Refused
    with a reason a player reads; nothing is rolled again."""
    if options.mode == "quick" or character.mode == "quick":
        raise RuleError(
            "epic_in_quick_game",
            T("Epic dice are not used in a quick game.", "В быстрой игре эпик-дайсы не используются."),  # L347
        )
    if isinstance(epic, bool) or not isinstance(epic, int) or epic < 1:
        raise RuleError("bad_epic", T("Spend at least one epic die.", "Потратьте хотя бы один эпик-дайс."))
    if epic > character.epic_dice:
        raise RuleError(
            "not_enough_epic_dice",
            T(f"Only {character.epic_dice} epic dice left.", f"Осталось эпик-дайсов: {character.epic_dice}."),
        )
    before = (previous.details or {}).get("pool_result")
    spec = (previous.details or {}).get("pool_spec")
    if not isinstance(before, PoolResult) or spec is None:
        raise RuleError(
            "no_pool",
            T(
                "Epic dice add successes to a roll of this game's dice; this result has none.",
                "Эпик-дайсы добавляют успехи к броску кубиков этой игры; здесь его нет.",
            ),
        )
    r = read_faces(
        before.faces,
        penalty=before.penalty,
        epic=before.epic + epic,
        difficulty=before.difficulty,
        pool=before.pool,
        fumble_basis=options.fumble_basis,
    )
    if previous.check_id.startswith("cast:"):
        out = make_result(previous.check_id, spec, r, before.difficulty, 0)
        verdict = cast_outcome(r, options=options)
        kept = ("spell_complexity", "spell_level", "spell", "spell_design")
        out.details.update({k: previous.details[k] for k in kept if k in previous.details}, cast_outcome=verdict)
        out.outcome = dict(VERDICTS[verdict])
    else:
        out = make_result(previous.check_id, spec, r, before.difficulty, before.epic + epic)
        if "alertness_first" in previous.details:
            out.details["alertness_first"] = previous.details["alertness_first"]
            out.options["in_combat"] = True
    out.effects = [Effect("epic_dice", -epic, T("epic dice spent after the roll", "эпик-дайсы потрачены после броска"))]
    out.details.update(pool_spec=spec, epic_after_spent=epic, epic_after=epic_offer(character, epic, options=options))
    return out


def after_roll_options(character, result: CheckResult, *, options: Mapping[str, Any]) -> list[OptionSpec]:
    """The tray's offer after ``result`` (L351): one whole-number option ``epic``, 1 to the
    dice the roll offers and the character still has; none when the roll offers none."""
    offer = (result.details or {}).get("epic_after")
    if not offer or options.mode == "quick" or character.mode == "quick":
        return []
    most = min(int(offer["max"]), int(character.epic_dice))
    if most < 1:
        return []
    return [
        OptionSpec(
            "epic",
            T("Epic dice", "Эпик-дайсы"),
            default=1,
            min=1,
            max=most,
            help=offer.get("help"),
        )
    ]
