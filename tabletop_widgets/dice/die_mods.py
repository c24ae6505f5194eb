"""What the roller does to the dice of one term: roll a die with the term's clamps, explode,
reroll, make unique, keep/drop, count successes, mark crits. The order of these steps and the
evaluation of compare points are the engine's (``engine.py``); these take the compare point
already evaluated. ``ctx`` is the engine's ``Context`` (``count_dice``, ``note``)."""

from __future__ import annotations

from . import limits
from .diceast import Compare, Dice, Faces, Mod
from .results import Die


def term_clamps(mods) -> tuple[int | None, int | None]:
    """The lowest and highest face the ``min``/``max`` modifiers leave (None: no clamp)."""
    lo_clamp = hi_clamp = None
    for m in mods:
        if m.kind == "min":
            lo_clamp = m.n if lo_clamp is None else max(lo_clamp, m.n)
        elif m.kind == "max":
            hi_clamp = m.n if hi_clamp is None else min(hi_clamp, m.n)
    return lo_clamp, hi_clamp


class Roller:
    """Rolls one kind of die for a term, with the term's clamps."""

    __slots__ = ("rng", "sides", "values", "lo_clamp", "hi_clamp", "label")

    def __init__(self, rng, faces: Faces, sides: int | None, lo_clamp, hi_clamp):
        self.rng = rng
        self.values = faces.values
        self.sides = sides
        self.lo_clamp = lo_clamp
        self.hi_clamp = hi_clamp
        self.label = faces.text if faces.values is not None else sides

    def raw(self) -> int:
        if self.values is None:
            return self.rng.randrange(self.sides) + 1
        return self.values[self.rng.randrange(len(self.values))]

    def clamp(self, v: int) -> int:
        if self.lo_clamp is not None and v < self.lo_clamp:
            v = self.lo_clamp
        if self.hi_clamp is not None and v > self.hi_clamp:
            v = self.hi_clamp
        return v

    def die(self, added_by=None) -> Die:
        r = self.raw()
        v = self.clamp(r)
        return Die(self.label, v, raw=r if r != v else None, added_by=added_by)

    @property
    def hi(self) -> int:
        top = max(self.values) if self.values is not None else self.sides
        return self.clamp(top)

    @property
    def lo(self) -> int:
        bottom = min(self.values) if self.values is not None else 1
        return self.clamp(bottom)


def auto_crits(dice, top):
    for d in dice:
        if d.counted and d.added_by is None:
            if d.value == top:
                d.crit = "success"
            elif d.value == 1:
                d.crit = "failure"


def all_faces(roller: Roller, cp: Compare | None, default: str) -> bool:
    if cp is None:
        return roller.lo == roller.hi
    if roller.values is not None:
        return all(cp.test(roller.clamp(v)) for v in roller.values)
    lo, hi = roller.lo, roller.hi
    if hi - lo <= 4096:
        return all(cp.test(v) for v in range(lo, hi + 1))
    return cp.test(lo) and cp.test(hi) and cp.op not in ("=", "!=")


def tally(dice, success, failure, double):
    """The term's value: the sum of the counted dice, or successes minus failures (marking
    each die) when a success compare point is given; returns (value, successes, failures)."""
    if success is None:
        return sum(d.value for d in dice if d.counted), None, None
    succ = fails = 0
    for d in dice:
        if not d.counted:
            continue
        if success.test(d.value):
            d.success = True
            if double is not None and double.test(d.value):
                d.double = True
                succ += 2
            else:
                succ += 1
        if failure is not None and failure.test(d.value):
            d.failure = True
            fails += 1
    return succ - fails, succ, (fails if failure is not None else None)


def explode(ctx, roller: Roller, dice, m: Mod, node: Dice, cp: Compare | None):
    cp = cp or Compare("=", roller.hi)
    cap = m.n if m.n is not None else limits.MAX_EXPLOSIONS
    cap = min(cap, limits.MAX_EXPLOSIONS)
    variant = m.variant
    out = []
    hit_limit = False
    term_budget = None
    if variant == "explode_term":
        # Foundry's x3<5: one budget of explosions shared by every die of the term
        variant, term_budget = "explode", cap
        cap = limits.MAX_EXPLOSIONS
    for d in dice:
        out.append(d)
        if not d.counted:
            continue
        if term_budget is not None:
            if term_budget <= 0:
                continue
            cap = min(cap, term_budget)
        if variant in ("explode", "penetrate"):
            cur = d
            test_value = d.value
            k = 0
            while cp.test(test_value) and k < cap:
                ctx.count_dice(1, node.pos)
                cur.exploded = True
                nd = roller.die(added_by="explode" if variant == "explode" else "penetrate")
                test_value = nd.value
                if variant == "penetrate":
                    nd.raw = nd.value
                    nd.value -= 1
                out.append(nd)
                cur = nd
                k += 1
            if term_budget is not None:
                term_budget -= k
            elif k == limits.MAX_EXPLOSIONS and cp.test(test_value):
                hit_limit = True
        else:  # compound (optionally penetrating): extra rolls add into the same die
            parts = [d.value]
            last = d.value
            k = 0
            while cp.test(last) and k < cap:
                ctx.count_dice(1, node.pos)
                nd = roller.die()
                last = nd.value
                parts.append(nd.value - 1 if variant == "compound_penetrate" else nd.value)
                k += 1
            if k == limits.MAX_EXPLOSIONS and cp.test(last):
                hit_limit = True
            if k:
                d.exploded = True
                d.raw = d.value
                d.value = sum(parts)
                d.note = "+".join(str(p) for p in parts)
    if hit_limit:
        ctx.note(
            f"a die exploded {limits.MAX_EXPLOSIONS} times: explosions stopped there",
            f"кубик взорвался {limits.MAX_EXPLOSIONS} раз: взрывы остановлены",
        )
    return out


def reroll(ctx, roller: Roller, dice, m: Mod, node: Dice, cp: Compare | None):
    cp = cp or Compare("=", roller.lo)
    out = []
    if m.variant == "add":
        # d20's ra: reroll the first matching die once and add the new die (both count)
        done = False
        for d in dice:
            out.append(d)
            if not done and d.counted and cp.test(d.value):
                ctx.count_dice(1, node.pos)
                out.append(roller.die(added_by="reroll"))
                done = True
        return out
    cap = 1 if m.variant == "once" else limits.MAX_EXPLOSIONS
    out, hit_limit = reroll_while(ctx, roller, dice, node, cap, lambda v, seen: cp.test(v))
    if hit_limit and m.variant == "until":
        ctx.note(
            f"a die was rerolled {limits.MAX_EXPLOSIONS} times: rerolls stopped there",
            f"кубик переброшен {limits.MAX_EXPLOSIONS} раз: перебросы остановлены",
        )
    return out


def unique(ctx, roller: Roller, dice, m: Mod, node: Dice, cp: Compare | None):
    cap = 1 if m.variant == "once" else limits.MAX_EXPLOSIONS
    if cp is None:
        again = lambda v, seen: v in seen  # noqa: E731
    else:  # u<=4: only the duplicates that match are rerolled
        again = lambda v, seen: v in seen and cp.test(v)  # noqa: E731
    out, hit_limit = reroll_while(ctx, roller, dice, node, cap, again)
    if hit_limit and m.variant == "until":
        ctx.note(
            "some dice could not be made unique (not enough faces): duplicates kept",
            "не все кубики удалось сделать разными (мало граней): повторы оставлены",
        )
    return out


def reroll_while(ctx, roller: Roller, dice, node: Dice, cap: int, again):
    """Reroll each counted die while ``again(value, values_settled_so_far)`` holds, at most
    ``cap`` times; the replaced rolls stay in the list, struck. Returns the new list and whether
    some die still wanted a reroll when the cap stopped it."""
    out = []
    seen: set = set()
    hit_limit = False
    for d in dice:
        out.append(d)
        if not d.counted:
            continue
        cur = d
        k = 0
        while again(cur.value, seen) and k < cap:
            ctx.count_dice(1, node.pos)
            cur.rerolled = True
            cur.kept = False
            cur = roller.die(added_by="reroll")
            out.append(cur)
            k += 1
        if k == cap and again(cur.value, seen):
            hit_limit = True
        seen.add(cur.value)
    return out, hit_limit


def chosen_indexes(values: list, m: Mod, cp) -> set:
    """The indexes (into ``values``) that one keep/drop modifier selects from the whole pool."""
    idx = range(len(values))
    if m.kind == "select":
        return {i for i in idx if cp.test(values[i])}
    n = min(max(0, m.n or 0), len(values))
    # one order for every modifier, so that highest and lowest never pick the same tied die
    # (as d20: ties sort by position): the lowest n are the first n, the highest the last n
    order = sorted(idx, key=lambda i: (values[i], i))
    return set(order[len(order) - n :] if m.variant in ("kh", "dh") else order[:n])


def kept_indexes(values: list, mods, cps) -> set:
    """Keep/drop as d20 and rpg-dice-roller do: each modifier selects from the whole pool; the
    keeps combine as a union (all when there is none) and the drops are taken out of it
    (``3d6kh2dl1`` keeps two dice, ``3d10k1d1`` the highest, ``4d6kh1kl1`` the extremes)."""
    keeps = None
    drops: set = set()
    for m, cp in zip(mods, cps):
        chosen = chosen_indexes(values, m, cp)
        if (m.kind == "select" and m.variant == "keep") or m.variant in ("kh", "kl"):
            keeps = chosen if keeps is None else keeps | chosen
        else:
            drops |= chosen
    kept = set(range(len(values))) if keeps is None else keeps
    return kept - drops


def select_dice(dice, mods, cps) -> None:
    live = [d for d in dice if d.counted]
    kept = kept_indexes([d.value for d in live], mods, cps)
    for i, d in enumerate(live):
        if i not in kept:
            d.dropped = True
            d.kept = False
