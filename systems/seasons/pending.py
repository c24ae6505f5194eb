"""Carried modifiers (spec §7.10; L766-771, L615, L624): bonuses and penalties queued on a
character for a later relevant check, consumed by the roll that uses them."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from tabletop_widgets.core.options import GmOptions


def add_pending(character, source: str, dice: int, applies_to: str = "", by: str = "") -> None:
    """Queue a bonus (dice > 0) or penalty (dice < 0) for a later relevant check (L766-771, L615,
    L624); ``by``: who caused a penalty (an opponent's Drama, L773)."""
    if not isinstance(dice, int) or isinstance(dice, bool) or dice == 0:
        raise ValueError("dice must be a non-zero whole number")
    if dice > 0:
        character.update(
            pending_bonus_dice=[
                *character.pending_bonus_dice,
                {"source": source, "dice": dice, "applies_to": applies_to},
            ]
        )
    else:
        item = {"source": source, "dice": -dice, "applies_to": applies_to}
        if by:
            item["by"] = by
        character.update(pending_penalties=[*character.pending_penalties, item])


def take_pending(character, applies_to: str = "") -> int:
    """Consume the queued modifiers that fit ``applies_to`` (those with no target fit any check);
    returns their net dice, to pass as ``bonus``/``penalty`` of the check."""

    def fits(item):
        return not item.get("applies_to") or item.get("applies_to") == applies_to

    bonus = [b for b in character.pending_bonus_dice if fits(b)]
    pen = [p for p in character.pending_penalties if fits(p)]
    character.update(
        pending_bonus_dice=[b for b in character.pending_bonus_dice if not fits(b)],
        pending_penalties=[p for p in character.pending_penalties if not fits(p)],
    )
    return sum(b["dice"] for b in bonus) - sum(p["dice"] for p in pen)


def consume_pending(character, used: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Remove the queued items a roll used (``{"kind", "index", ...}`` as ``sheet_defaults``
    lists them) and return what was taken, without the indexes (for the log and ``restore_pending``)."""
    drop = {(u["kind"], u["index"]) for u in used}
    character.update(
        pending_bonus_dice=[b for i, b in enumerate(character.pending_bonus_dice) if ("bonus", i) not in drop],
        pending_penalties=[p for i, p in enumerate(character.pending_penalties) if ("penalty", i) not in drop],
    )
    return [{k: v for k, v in u.items() if k != "index"} for u in used]


def restore_pending(character, consumed: Iterable[Mapping[str, Any]]) -> None:
    """Put back what a roll consumed (``result.details["pending_consumed"]``), e.g. on undo."""
    for item in consumed:
        add_pending(character, item["source"], int(item["dice"]), item.get("applies_to", ""), item.get("by", ""))


def inspire(allies, applies_to: str = "", *, options: GmOptions) -> None:
    """A successful Inspire (L615): each ally's first relevant check gets the bonus (§11 #23:
    ``inspire_bonus``, default +3)."""
    for ally in allies:
        add_pending(ally, "inspired", int(options.inspire_bonus), applies_to)


def frighten(targets, applies_to: str = "", *, options: GmOptions) -> None:
    """A successful Frighten (L624): each target's first relevant check gets the penalty (§11 #23)."""
    for target in targets:
        add_pending(target, "frightened", -int(options.frighten_penalty), applies_to)


__all__ = ["add_pending", "consume_pending", "frighten", "inspire", "restore_pending", "take_pending"]
