"""What the sheet brings to a check by itself (spec §10.1, §10.2, §7.10, §7.3): the active
Problem and Advantage, the relevant conditions and the queued bonuses and penalties."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.options import GmOptions

from .conditions import condition_scope, is_held_off
from .data import ATTRIBUTE_GROUPS
from .presets import Preset

#: Check kinds that never take sheet modifiers: the hazard or the roll-off rolls, not the character.
_NO_SHEET = ("threat", "explosion", "rolloff")


def attribute_group(attribute: str | None) -> str | None:
    for group, names in ATTRIBUTE_GROUPS.items():
        if attribute in names:
            return group
    return None


def scope_fits(scope: str, preset: Preset, attribute: str | None) -> bool:
    """Does a modifier aimed at ``scope`` fit this check? "" / "all" fit every check; otherwise the
    check id, its skill, its attribute, its attribute group, or "attack" for attacks."""
    scope = (scope or "").strip().lower()
    if scope in ("", "all"):
        return True
    names = {preset.id, preset.skill, attribute, attribute_group(attribute)}
    if preset.attack:
        names.add("attack")
    return scope in names


def _is_previous(item: Mapping[str, Any]) -> bool:
    return str(item.get("source", "")).strip().lower().replace("_", " ").startswith("previous")


def condition_option(index: int) -> str:
    """The check option that ticks the sheet's condition at ``index`` (0-based): ``condition_1``..."""
    return f"condition_{index + 1}"


def fitting_conditions(preset: Preset, character, attribute: str | None) -> list[tuple[int, str]]:
    """``(index, name)`` of the sheet's conditions a check can fit (-3 each when ticked, L687,
    L775), Pain left out (it follows damage, L708) and so is a condition held off for the hour
    (L716). None for hazards and roll-offs."""
    if preset.special in _NO_SHEET:
        return []
    out = []
    for i, cond in enumerate(character.conditions):
        if cond.get("id") == "pain" or is_held_off(cond):
            continue
        if scope_fits(condition_scope(cond), preset, attribute):
            out.append((i, str(cond.get("name", cond.get("id", "?")))))
    return out


def sheet_defaults(preset: Preset, character, opts: Mapping[str, Any], *, options: GmOptions) -> dict[str, Any]:
    """What a check takes from the sheet: the active Problem (-3) and Advantage (+3), the
    conditions it can fit (-3 each, stacking, L687, L775) and the relevant queued
    bonuses/penalties (spec §7.10). The dice tray offers the first three as options of the checks
    they can fit, unticked (§11 #43: only Pain applies by itself); ``auto_sheet_modifiers`` ticks
    them beforehand (spec §10.1 "the active ones pre-fill the dice tray"). The check's options
    ``opts`` decide each (``condition_<n>`` for the n-th condition; ``pending=False`` skips the
    queue).

    ``advantage`` / ``problem`` / ``conditions``: the defaults; ``active_advantage`` /
    ``active_problem``: the markers a check can use ("" for none); ``sheet_conditions``:
    ``[(option name, condition name)]``; ``condition_names``: those ticked by default."""
    out: dict[str, Any] = {
        "advantage": 0,
        "problem": False,
        "conditions": 0,
        "condition_names": [],
        "active_advantage": "",
        "active_problem": "",
        "sheet_conditions": [],
        "pending": [],
        "notes": {},
    }
    if preset.special in _NO_SHEET:
        return out
    attribute = opts.get("attribute", preset.attribute)
    auto = bool(options.auto_sheet_modifiers)
    if character.active_advantage and character.active_advantage in character.advantages:
        out["active_advantage"] = character.active_advantage
        if auto:
            out["advantage"] = 1
            out["notes"]["active_advantage"] = character.active_advantage
    if character.active_problem and character.active_problem in character.problems:
        out["active_problem"] = character.active_problem
        if auto:
            out["problem"] = True
            out["notes"]["active_problem"] = character.active_problem
    out["sheet_conditions"] = [
        (condition_option(i), name) for i, name in fitting_conditions(preset, character, attribute)
    ]
    names = [name for _, name in out["sheet_conditions"]] if auto else []
    out["conditions"], out["condition_names"] = len(names), names
    if names:
        out["notes"]["conditions_applied"] = names
    if opts.get("pending", True):
        out["pending"] = pending_items(preset, character, opts, attribute, options=options)
    return out


def uses_its_successes(preset: Preset, opts: Mapping[str, Any]) -> bool:
    """Whether a check's successes count for themselves (damage, levels healed, a contest's
    comparison, Structure) rather than one success being enough (L771): such a check carries
    nothing over, and under the narrow reading it receives nothing either (§11 #36)."""
    contest = preset.opposition == "contest" or opts.get("opponent_pool") is not None
    return bool(
        preset.attack
        or contest
        or preset.special in ("threat", "explosion")
        or preset.opposition == "durability"
        or preset.id == "treatment"
    )


def pending_items(
    preset: Preset, character, opts: Mapping[str, Any], attribute: str | None, *, options: GmOptions
) -> list[dict[str, Any]]:
    """The queued bonuses and penalties (spec §7.10) that fit this check, with their list index."""
    # L771: the carried-over successes go «к следующему подходящему действию», whatever it is;
    # the GM option previous_successes_reach = single_success_checks keeps them for checks that
    # need a single success (§11 #36: not attacks, damage, treatment or contests, nor first aid).
    no_previous = options.previous_successes_reach == "single_success_checks" and (
        uses_its_successes(preset, opts) or preset.id in ("first_aid", "first_aid_skill")
    )
    aim_given = bool(opts.get("aim"))
    out = []
    for kind, items, sign in (
        ("bonus", character.pending_bonus_dice, 1),
        ("penalty", character.pending_penalties, -1),
    ):
        for i, item in enumerate(items):
            if not scope_fits(item.get("applies_to", ""), preset, attribute):
                continue
            if kind == "bonus" and _is_previous(item) and no_previous:
                continue
            if kind == "bonus" and aim_given and str(item.get("source", "")).lower() == "aim":
                continue  # aim is at most +2 per check (§11 #33): the option already gives it
            entry = {
                "kind": kind,
                "index": i,
                "source": item["source"],
                "dice": sign * item["dice"],
                "applies_to": item.get("applies_to", ""),
            }
            if item.get("by"):
                entry["by"] = item["by"]  # an opponent's Drama (L773)
            out.append(entry)
    return out


__all__ = [
    "attribute_group",
    "condition_option",
    "fitting_conditions",
    "pending_items",
    "scope_fits",
    "sheet_defaults",
    "uses_its_successes",
]
