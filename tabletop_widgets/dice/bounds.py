"""Static bounds of an expression: the least and greatest total any roll can give.

Interval arithmetic over the parse tree. Explosions and rerolls use the engine's per-die limits,
so the bounds hold for every roll the engine can make (not only likely ones). Returns exact
values (ints or Fractions) before the final floor; ``None`` for a side that cannot be bounded
(e.g. division by an interval containing zero).
"""

from __future__ import annotations

import math
from fractions import Fraction

from . import limits
from .diceast import BinOp, Dice, Expression, Func, Group, Num, Paren, Unary, Var

INF = None


def _mul(a, b):
    (a0, a1), (b0, b1) = a, b
    c = [a0 * b0, a0 * b1, a1 * b0, a1 * b1]
    return min(c), max(c)


def bounds(expr: Expression, variables=None) -> tuple:
    lo, hi = node_bounds(expr.root, variables or {})
    return math.floor(lo), math.floor(hi)


def node_bounds(node, variables):
    t = type(node)
    if t is Num:
        return node.value, node.value
    if t is Var:
        v = variables[node.name]
        return v, v
    if t is Paren:
        return node_bounds(node.inner, variables)
    if t is Unary:
        lo, hi = node_bounds(node.operand, variables)
        return (-hi, -lo) if node.op == "-" else (lo, hi)
    if t is BinOp:
        a = node_bounds(node.left, variables)
        b = node_bounds(node.right, variables)
        op = node.op
        if op == "+":
            return a[0] + b[0], a[1] + b[1]
        if op == "-":
            return a[0] - b[1], a[1] - b[0]
        if op == "*":
            return _mul(a, b)
        if op in ("/", "//"):
            if b[0] <= 0 <= b[1]:
                raise ValueError("unbounded")
            inv = (Fraction(1) / Fraction(b[1]), Fraction(1) / Fraction(b[0]))
            lo, hi = _mul((Fraction(a[0]), Fraction(a[1])), inv)
            return (math.floor(lo), math.floor(hi)) if op == "//" else (lo, hi)
        if op == "%":
            if b[0] > 0:
                return 0, b[1] - 1 if isinstance(b[1], int) else b[1]
            raise ValueError("unbounded")
        if op == "^":
            if a[0] >= 0 and b[0] >= 0 and b[0] == b[1]:
                return a[0] ** b[0], a[1] ** b[0]
            raise ValueError("unbounded")
    if t is Func:
        bs = [node_bounds(x, variables) for x in node.args]
        if node.name in ("floor", "round"):
            return math.floor(bs[0][0]), math.ceil(bs[0][1])
        if node.name == "ceil":
            return math.ceil(bs[0][0]), math.ceil(bs[0][1])
        if node.name == "abs":
            lo, hi = bs[0]
            if lo >= 0:
                return lo, hi
            if hi <= 0:
                return -hi, -lo
            return 0, max(-lo, hi)
        if node.name == "min":
            return min(b[0] for b in bs), min(b[1] for b in bs)
        return max(b[0] for b in bs), max(b[1] for b in bs)
    if t is Dice:
        return _dice_bounds(node, variables)
    if t is Group:
        bs = [node_bounds(m, variables) for m in node.members]
        counting = any(m.kind == "success" for m in node.mods)
        inner = node.members[0] if len(bs) == 1 and node.mods else None
        while isinstance(inner, Paren):
            inner = inner.inner
        if isinstance(inner, Dice):  # a one-member group of dice: its modifiers act on the dice
            n_lo, n_hi = _count_bounds(inner, variables)
            if counting:
                fails = any(m.kind == "failure" for m in node.mods)
                return (-n_hi if fails else 0), n_hi
            return min(0, bs[0][0]), max(0, bs[0][1])
        if counting:
            fails = any(m.kind == "failure" for m in node.mods)
            return (-len(bs) if fails else 0), len(bs)
        lo = sum(min(0, b[0]) for b in bs) if node.mods else sum(b[0] for b in bs)
        hi = sum(max(0, b[1]) for b in bs) if node.mods else sum(b[1] for b in bs)
        return lo, hi
    raise ValueError(f"no bounds for {t.__name__}")


def _count_bounds(node, variables):
    if isinstance(node.count, int):
        return node.count, node.count
    lo, hi = node_bounds(node.count, variables)
    return max(0, math.floor(lo)), max(0, math.floor(hi))


def _dice_bounds(node: Dice, variables):
    n_lo, n_hi = _count_bounds(node, variables)
    if node.faces.computed is not None:
        f_lo, f_hi = node_bounds(node.faces.computed, variables)
        face_lo, face_hi = 1, max(1, math.floor(f_hi))
    else:
        face_lo, face_hi = node.faces.lo, node.faces.hi
    for m in node.mods:
        if m.kind == "min":
            face_lo, face_hi = max(face_lo, m.n), max(face_hi, m.n)
        elif m.kind == "max":
            face_lo, face_hi = min(face_lo, m.n), min(face_hi, m.n)
    kinds = {m.kind: m for m in node.mods}
    # how many dice can end up counted: explosions add up to MAX_EXPLOSIONS per die
    per_die = 1
    compound_extra = 0
    if "explode" in kinds:
        m = kinds["explode"]
        cap = min(m.n if m.n is not None else limits.MAX_EXPLOSIONS, limits.MAX_EXPLOSIONS)
        if m.variant.startswith("compound"):
            compound_extra = cap
        else:
            per_die += cap
    # ``ra`` (reroll-and-add) adds one die; several mods may share the "reroll" kind
    if any(m.kind == "reroll" and m.variant == "add" for m in node.mods):
        n_hi += 1
    max_count = n_hi * per_die
    if "success" in kinds:
        dbl = 2 if "double" in kinds else 1
        fails = "failure" in kinds
        return (-max_count if fails else 0), max_count * dbl
    # a single die's value range (compound: the sum of up to cap+1 rolls; penetrate: -1 per extra)
    pen = 1 if kinds.get("explode") and "penetrate" in kinds["explode"].variant else 0
    die_lo = min(face_lo, face_lo - pen)
    die_hi = face_hi * (1 + compound_extra)
    keep_all = not any(m.kind in ("keep", "select") for m in node.mods) and "unique" not in kinds
    if keep_all:
        lo = min(n_lo * die_lo, max_count * die_lo, 0 if n_lo == 0 else n_lo * die_lo)
        hi = max(max_count * die_hi, n_lo * die_hi)
        if die_lo >= 0:
            lo = n_lo * min(die_lo, face_lo)
        return min(lo, 0) if die_lo < 0 else lo, hi
    # with keep/drop any subset may count
    lo = min(0, max_count * die_lo)
    hi = max(0, max_count * die_hi)
    return lo, hi
