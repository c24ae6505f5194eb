"""Healing (spec §6.12) and items (spec §8.10): Health and Sanity restored, medkits and potions."""

from __future__ import annotations

import copy
import random
from typing import Any, Mapping

from tabletop_widgets.core import DamageOutcome, RuleError, T
from tabletop_widgets.core.data import thaw
from tabletop_widgets.core.system import record_changes
from tabletop_widgets.core.options import GmOptions

from . import data
from .checks import Divider, apply_divider
from .checks import roll as roll_check
from .damage import settle

HEAL_RESOURCES = ("health", "sanity")


def apply_healing(
    c,
    amount: int,
    *,
    options: GmOptions,
    resource: str = "health",
    item: str | None = None,
    stabilise: bool = False,
    fail: bool = False,
    rng: random.Random | None = None,
    in_combat: bool = True,
    healer=None,
) -> DamageOutcome:
    """Restore Health (or Sanity), never above the maximum (L327, L343).

    ``item``: heal with an item of ``healer`` (default ``c``) by :func:`use_item` — ``amount`` is
    then the roll total the item names (0 or None: the item rolls itself with ``rng``);
    ``stabilise``: mark the negative resource stabilised (no survival / self-control roll until
    new harm, A19). Bad options raise before anything changes."""
    if resource not in HEAL_RESOURCES:
        raise RuleError(
            "bad_resource",
            T(f"heal health or sanity, not {resource!r}", f"лечится здоровье или рассудок, а не {resource!r}"),
        )
    try:
        amount = int(amount or 0)
    except (TypeError, ValueError):
        raise RuleError(
            "bad_amount", T("the amount must be a whole number", "количество должно быть целым числом")
        ) from None
    if amount < 0:
        raise RuleError("bad_amount", T("healing cannot be negative", "лечение не может быть отрицательным"))
    if item:
        # the item decides what it restores (a medkit Health, adrenaline Sanity): the resource
        # chosen in the tracker only matters for plain healing, and a different pick is noted
        user = healer if healer is not None else c
        spec = next((item_spec(it) for it in user.items if it.get("name") == item), None)
        own = (spec or {}).get("restores")
        if spec is not None and own not in HEAL_RESOURCES:
            raise RuleError(
                "item_does_not_heal",
                T(
                    f"{item} does not restore Health or Sanity.",
                    f"«{item}» не восстанавливает ни Здоровье, ни Рассудок.",
                ),
            )
        out = use_item(
            user, item, options=options, total=amount or None, fail=fail, in_combat=in_combat, target=c, rng=rng
        )
        if own and own != resource:
            out.notes.append(
                T(f"{item} restores {own}", f"«{item}» восстанавливает {'Здоровье' if own == 'health' else 'Рассудок'}")
            )
        resource = own or resource
    else:
        out = heal(c, amount, resource, options=options)
    if stabilise:
        flag = f"stabilised_{resource}"
        if getattr(c, resource) < 0 and not getattr(c, flag):
            out.changes[flag] = (False, True)
            setattr(c, flag, True)
            out.notes.append(
                T(f"{resource} stabilised", "стабилизирован" if resource == "health" else "рассудок стабилизирован")
            )
        out = settle(c, out, options=options)
    return out


def healing_options(c) -> list:
    from tabletop_widgets.core import OptionSpec

    items = [it for it in c.items if item_spec(it).get("restores") in HEAL_RESOURCES]
    opts = [
        OptionSpec(
            "resource",
            T("Restore", "Восстановить"),
            "choice",
            "health",
            choices=(("health", T("Health", "Здоровье")), ("sanity", T("Sanity", "Рассудок"))),
        ),
        OptionSpec(
            "stabilise",
            T(
                "Stabilise (no survival / self-control roll until new harm)",
                "Стабилизировать (без бросков выживания / самоконтроля до нового вреда)",
            ),
            "bool",
            False,
        ),
    ]
    if items:
        opts.append(
            OptionSpec(
                "item",
                T(
                    "Use an item (the amount is its roll total; 0 rolls it)",
                    "Предмет (количество — итог его броска; 0 — бросить)",
                ),
                "choice",
                "",
                choices=(("", T("none", "нет")),)
                + tuple(
                    (
                        it["name"],
                        T(
                            f"{it['name']} ({item_spec(it)['restores'].capitalize()})",
                            f"{it['name']} ({'Здоровье' if item_spec(it)['restores'] == 'health' else 'Рассудок'})",
                        ),
                    )
                    for it in items
                ),
                help=T("the item decides what it restores", "предмет сам определяет, что восстанавливает"),
            )
        )
    return opts


def heal(c, amount: int, resource: str, *, options: GmOptions) -> DamageOutcome:
    mx = c.health_max if resource == "health" else c.sanity_max
    with record_changes(c, (resource,)) as out:
        old = getattr(c, resource)
        setattr(c, resource, min(mx, old + max(0, amount)) if old < mx else old)
    return settle(c, out, options=options)


def item_spec(it: Mapping[str, Any]) -> dict:
    """An item of ``c.items`` merged over its preset row of the items table (§8.11)."""
    preset = thaw(data.row("items", it["preset"])) if it.get("preset") else {}
    return {**preset, **it}


def use_item(
    c,
    name: str,
    *,
    options: GmOptions,
    total: int | None = None,
    fail: bool = False,
    in_combat: bool = True,
    target=None,
    rng: random.Random | None = None,
    expect: str | None = None,
) -> DamageOutcome:
    """Use an item from ``c.items`` (spec §7.4, §8.11): spend a charge (medkit 5 -> 4, L1461)
    and apply its effect to ``target`` (default ``c``): a fixed amount plus, when the item names
    a roll, its total through the item's divider (healing potion +3; medkit 3 + Fine Motor via 4
    (+2); adrenaline Endurance via 4 (+2)).

    ``total``/``fail`` give the roll as made at the table; with neither, the item rolls itself
    with ``rng``: the user's named parameter, or the patient's Endurance for a medkit when the GM
    reads A30 that way (``medkit_roll="patient_endurance"``). That roll's own effects (Luck for a
    fail, Sanity for success dice) are applied to whoever rolled, like any roll, and reported in
    ``details["roll"]``. Everything is checked before anything changes."""
    target = target if target is not None else c
    items, idx, it, spec = _usable_item(c, name, in_combat=in_combat, expect=expect)
    check, roller = None, None
    if spec.get("divider") and total is None and not fail and spec.get("roll"):
        check, roller = _item_roll(c, target, it, spec, rng, options=options)
        total, fail = check.total, bool(check.details.get("fail"))
    # -- nothing has changed so far; now apply
    if "charges" in it:
        it["charges"] -= 1
    elif spec.get("kind", "single_use") == "single_use":
        items.pop(idx)
    amount = int(spec.get("fixed") or 0)
    if spec.get("divider") and (total is not None or fail):
        amount += apply_divider(total, Divider(*spec["divider"]), fail=fail, on_fail=options.divider_on_fail)
    c.items = items
    out = DamageOutcome()
    roll_changes = {}
    if check is not None and check.effects:
        from .system import SYSTEM as _SYSTEM

        roll_changes = _SYSTEM.apply_effects(roller, check.effects)
    if spec.get("restores") in ("health", "sanity") and amount:
        out = heal(target, amount, spec["restores"], options=options)
    elif spec.get("restores") is None and amount:
        out.details["bonus"] = amount  # e.g. a berserk potion's Body-branch bonus
    if check is not None:
        _report_item_roll(out, name, check, roll_changes, roller is target, target)
    out.details["amount"] = amount
    out.details["charges"] = it.get("charges")
    out.details["total"] = total
    return out


def _usable_item(c, name: str, *, in_combat: bool, expect: str | None) -> tuple[list, int, dict, dict]:
    """(a copy of the items, the item's index, the item, its spec), refusing an item that is
    missing, out of combat only, restores something else, or has no charges left."""
    items = copy.deepcopy(list(c.items))
    idx = next((i for i, it in enumerate(items) if it.get("name") == name), None)
    if idx is None:
        raise RuleError("no_item", T(f"No item named {name}.", f"Нет предмета «{name}»."))
    it = items[idx]
    spec = item_spec(it)
    if in_combat and spec.get("in_combat") is False:
        raise RuleError(
            "out_of_combat_only", T(f"{name} can only be used out of combat.", f"«{name}» применяется только вне боя.")
        )
    if expect is not None and spec.get("restores") != expect:
        raise RuleError(
            "item_restores_other",
            T(
                f"{name} does not restore {expect}.",
                f"«{name}» не восстанавливает {'здоровье' if expect == 'health' else 'рассудок'}.",
            ),
        )
    if "charges" in it and it["charges"] <= 0:
        raise RuleError("no_charges", T(f"{name} has no charges left.", f"«{name}»: зарядов не осталось."))
    return items, idx, it, spec


def _item_roll(c, target, it: Mapping[str, Any], spec: Mapping[str, Any], rng, *, options: GmOptions):
    """The item's own roll, ``(check result, who rolled)``: the patient's for an item whose row
    says ``"roller": "patient"`` (adrenaline: «бросок Выносливости, чтобы понять сколько очков
    Рассудка ему сможет восстановить инъекция адреналина, сделанная союзником», L1120, L1459; a
    berserk potion's Endurance, L1462), else the user's (a medkit's Fine Motor, L1461), or the
    patient's Endurance for a medkit when the GM reads A30 that way."""
    param = spec["roll"]
    roller = target if spec.get("roller") == "patient" else c
    if spec.get("id", it.get("preset")) == "medkit" and options.medkit_roll == "patient_endurance":
        roller, param = target, "endurance"  # A30
    return roll_check(roller, param, {}, options=options, rng=rng if rng is not None else random.Random()), roller


def _report_item_roll(out: DamageOutcome, name: str, check, roll_changes: Mapping, on_target: bool, target) -> None:
    """The item roll's own effects and its line in the outcome's notes."""
    if roll_changes:
        if on_target:
            for k, (old, new) in roll_changes.items():
                first = out.changes.get(k, (old, None))[0]
                out.changes[k] = (first, getattr(target, k))
        out.details["roller_changes"] = roll_changes
    out.details["roll"] = check
    out.notes.append(
        T(
            f"{name}: {check.label['en']} {check.outcome.get('en', '')}",
            f"{name}: {check.label['ru']} {check.outcome.get('ru', '')}",
        )
    )
