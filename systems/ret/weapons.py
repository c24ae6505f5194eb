"""The sheet's weapons as the rules read them (spec §3.6, §8.7-§8.8): a weapon's row of the book's
tables fills in what the sheet leaves blank (its kind, Weapon Damage, attack parameter)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from tabletop_widgets.core import RuleError, T

from . import data
from .params import PARAMS

#: the bare-hands attack every character has (weapon table row ``unarmed``, L1270)
UNARMED = "unarmed"
#: attack roll by weapon kind when neither the weapon nor its category names one (L802-806)
KIND_PARAM = {"melee": "physique", "ranged": "fine_motor", "thrown": "fine_motor"}
#: what a row of the book's tables holds that is not a weapon's own value (a row's ``ammo`` is
#: what a weapon bought from the list starts with: the sheet's own count is the one spent)
_ROW_ONLY = ("id", "en", "ru", "damage_range", "ability_en", "ability_ru", "ammo")


def weapon_stats(w: Mapping[str, Any]) -> dict[str, Any]:
    """A sheet weapon with what it leaves blank taken from its category's row (§8.7-§8.8): kind,
    Weapon Damage, the attack parameter (a heavy melee weapon rolls Strength, L1231, L1275)."""
    row: Mapping[str, Any] = data.by_id("weapons").get(w.get("category") or "", {})
    out = {k: v for k, v in row.items() if k not in _ROW_ONLY}
    out.update({k: v for k, v in w.items() if v is not None and v != ""})
    out.setdefault("kind", "melee")
    out.setdefault("damage", 0)
    if out.get("attack_param") not in PARAMS:  # blank (or not a parameter): by kind
        heavy_melee = out["kind"] == "melee" and out.get("heavy")
        out["attack_param"] = "strength" if heavy_melee else KIND_PARAM.get(out["kind"], "physique")
    out.setdefault("alt_params", [])
    out.setdefault("ability_params", [])
    return out


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def magazine(w: Mapping[str, Any]) -> tuple[int, int | None] | None:
    """``(rounds left, magazine size or None when not written)`` of a ranged weapon whose
    ammunition the sheet counts (L1283-1287: ranged weapons «требуют наличие боезапаса» and spend
    it), or None: a melee or thrown weapon, or one whose ammunition is not written (the GM counts
    it). A written magazine of 0 counts nothing (a weapon typed in without one)."""
    stats = weapon_stats(w)
    ammo, cap = _int(w.get("ammo")), _int(stats.get("capacity"))
    if stats["kind"] != "ranged" or ammo is None or cap == 0:
        return None
    return ammo, cap


def empty(w: Mapping[str, Any]) -> bool:
    """A ranged weapon whose counted ammunition is spent (it cannot fire until reloaded)."""
    mag = magazine(w)
    return mag is not None and mag[0] <= 0


def _full(mag: tuple[int, int | None]) -> bool:
    return mag[1] is not None and mag[0] >= mag[1]


#: why an empty gun cannot fire, as the attack list shows it
EMPTY = T("empty: reload (an action)", "пусто: перезарядите (действие)")


def reload(c, weapon: str | int | None = None) -> dict[str, Any]:
    """Reload one weapon (L1287: «Перезарядка одного оружия тратит 1 действие хода»): its
    magazine filled to its size. ``weapon``: its name or its index on the sheet; None: the first
    ranged weapon that is not full, an empty one first. Refused (a ``RuleError``, nothing
    changed) when there is nothing to reload. Returns ``{"weapon", "ammo": (old, new),
    "note"}``; in a fight the tracker spends the turn's action."""
    counted = [(i, w, magazine(w)) for i, w in enumerate(c.weapons)]
    counted = [(i, w, m) for i, w, m in counted if m is not None]
    if weapon is not None:
        picked = [x for x in counted if x[0] == weapon or x[1].get("name") == weapon]
        if not picked:
            raise RuleError(
                "no_such_magazine",
                T(
                    f"{weapon} is not a weapon with a magazine on this sheet.",
                    f"«{weapon}» — не оружие с магазином на этом листе.",
                ),
            )
    else:
        picked = sorted((x for x in counted if not _full(x[2])), key=lambda x: (x[2][0] > 0, x[0]))
    if picked and picked[0][2][1] is None:
        raise RuleError(
            "no_magazine_size",
            T(
                f"Write the magazine size of {picked[0][1].get('name')} on the sheet to reload it.",
                f"Чтобы перезарядить «{picked[0][1].get('name')}», впишите на листе размер магазина.",
            ),
        )
    if not picked or _full(picked[0][2]):
        raise RuleError(
            "nothing_to_reload",
            T(
                "Nothing to reload: every magazine written on the sheet is full.",
                "Перезаряжать нечего: все магазины на листе полны.",
            ),
        )
    i, w, (left, size) = picked[0]
    assert size is not None
    weapons = copy.deepcopy(list(c.weapons))
    weapons[i]["ammo"] = size
    c.weapons = weapons
    name = str(w.get("name") or "")
    return {
        "weapon": name,
        "ammo": (left, size),
        "note": T(
            f"{name} reloaded: {size} rounds. In a fight reloading takes the turn's action.",
            f"«{name}» перезаряжено: патронов {size}. В бою перезарядка тратит действие хода.",
        ),
    }
