"""Modifiers from the sheet (spec §5.3, §6.13, §8.10): what conditions and armour put on a roll."""

from __future__ import annotations

from . import data
from .params import in_branch


def auto_modifiers(
    c, param: str, role: str = "roll", *, skip: tuple[str, ...] = ()
) -> tuple[int, int, list[tuple[str, int]]]:
    """(die-level shift, flat bonus, named flat parts) that the character's conditions and
    armour put on a roll of ``param`` (role ``roll``/``attack``/``defence``/``mental``: a mental
    defence or psychological resistance, which a condition scoped to ``defence`` does not reach)."""
    cat = data.conditions()
    shift, flat, named = 0, 0, []
    for inst in c.conditions:
        cid = inst.get("id")
        if cid in skip:
            continue
        spec = cat.get(cid, {})
        scopes = inst.get("scope", spec.get("scope", []))
        hit = False
        for s in scopes:
            if s == "all" or s == role:
                hit = True
            elif s.startswith("branch:") and in_branch(param, s[7:]):
                hit = True
            elif s.startswith("defence:") and role == "defence" and in_branch(param, s[8:]):
                hit = True
        if not hit:
            continue
        shift += int(inst.get("shift", spec.get("shift", 0)))
        f = int(inst.get("flat", spec.get("flat", 0)))
        if f:
            flat += f
            named.append((cid, f))
    # armour penalty on the Agility branch: the worst worn piece, never stacked (L1383, L1409-1412)
    if in_branch(param, "agility"):
        pen = min((int(p.get("penalty", 0)) for p in c.armour if p.get("worn", True)), default=0)
        if pen:
            flat += pen
            named.append(("armour", pen))
    return shift, flat, named
