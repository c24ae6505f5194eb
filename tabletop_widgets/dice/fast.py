"""A compiled fast path for the most common rolls.

For expressions built only from numbers, plain dice, dice with one keep/drop, a success count or
a plain explosion, groups of those with one keep/drop, ``+ - * //``, signs and parentheses, the
parse tree is compiled once into closures that compute just the value and record every face drawn.
The full result tree (per-die flags, rendering) is built only when someone looks at it, by
replaying the recorded faces through the ordinary evaluator, so both paths agree by construction
(a property test checks that they do). Anything unusual (a limit reached, a division by zero)
abandons the fast path and re-runs the ordinary evaluator on the same faces, so results, notes
and errors are exactly the ordinary ones.
"""

from __future__ import annotations

import operator

from . import limits
from .diceast import ARITH, BinOp, Dice, Expression, Group, Num, Paren, Unary, compare_fn


class Fallback(Exception):
    """The fast path declines: re-run the ordinary evaluator on the recorded faces."""


class ReplayRNG:
    """Feeds recorded ``randrange`` results back, then continues with the real rng."""

    __slots__ = ("rec", "i", "rng")

    def __init__(self, rec, rng=None):
        self.rec = rec
        self.i = 0
        self.rng = rng

    def randrange(self, n):
        i = self.i
        if i < len(self.rec):
            self.i = i + 1
            return self.rec[i]
        if self.rng is None:
            raise AssertionError("replay ran past the recorded faces")
        v = self.rng.randrange(n)
        self.rec.append(v)
        self.i += 1
        return v


def compile_expression(expr: Expression):
    """``fn(randrange, rec) -> value`` for the root, or None when the fast path does not apply."""
    if expr.word is not None or expr.repeat != 1:
        return None
    root = _compile(expr.root)
    if root is None:
        return None
    if expr.check_op is None:
        return root, None
    target = _compile(expr.check_target)
    if target is None:
        return None
    return root, target


def _compile(node):
    t = type(node)
    if t is Num:
        v = node.value
        return lambda rr, rec: v
    if t is Paren:
        return _compile(node.inner)
    if t is Unary:
        inner = _compile(node.operand)
        if inner is None:
            return None
        if node.op == "-":
            return lambda rr, rec: -inner(rr, rec)
        return inner
    if t is BinOp:
        if node.op not in ("+", "-", "*", "//"):
            return None
        a, b = _compile(node.left), _compile(node.right)
        if a is None or b is None:
            return None
        op = node.op
        if op == "+":
            return lambda rr, rec: a(rr, rec) + b(rr, rec)
        if op == "-":
            return lambda rr, rec: a(rr, rec) - b(rr, rec)
        if op == "*":
            return lambda rr, rec: a(rr, rec) * b(rr, rec)

        def floordiv(rr, rec):
            x = a(rr, rec)
            y = b(rr, rec)
            if y == 0:
                raise Fallback
            return x // y

        return floordiv
    if t is Dice:
        return _compile_dice(node)
    if t is Group:
        return _compile_group(node)
    return None


def _compile_dice(node: Dice):
    if not isinstance(node.count, int) or node.faces.computed is not None:
        return None
    n = node.count
    values = node.faces.values
    sides = node.faces.sides
    mods = node.mods
    if values is not None:
        if mods:
            return None
        fv = values
        k = len(fv)

        def custom(rr, rec):
            idx = [rr(k) for _ in range(n)]
            rec.extend(idx)
            return sum(fv[i] for i in idx)

        return custom
    if not mods:
        return _compile_plain(n, sides)
    if len(mods) != 1:
        return None
    return _compile_one_mod(mods[0], n, sides)


def _compile_plain(n: int, sides: int):
    """``NdX`` without modifiers."""
    if n == 1:

        def one(rr, rec):
            v = rr(sides)
            rec.append(v)
            return v + 1

        return one

    def plain(rr, rec):
        idx = [rr(sides) for _ in range(n)]
        rec.extend(idx)
        return sum(idx) + n

    return plain


def _compile_one_mod(m, n: int, sides: int):
    """``NdX`` with one modifier the fast path does: keep/drop, counting successes, explode."""
    if m.kind == "keep":
        lo, hi = _kept_slice(m, n)
        count = hi - lo

        def keepdrop(rr, rec):
            idx = [rr(sides) for _ in range(n)]
            rec.extend(idx)
            idx.sort()
            return sum(idx[lo:hi]) + count

        return keepdrop
    if m.kind == "success" and isinstance(m.cp.value, int):
        test = _tester(m.cp.op, m.cp.value - 1)  # compare on 0-based faces

        def counting(rr, rec):
            idx = [rr(sides) for _ in range(n)]
            rec.extend(idx)
            return sum(1 for i in idx if test(i))

        return counting
    if m.kind == "explode" and m.variant == "explode" and (m.cp is None or isinstance(m.cp.value, int)):
        return _compile_explode(m, n, sides)
    return None


def _compile_explode(m, n: int, sides: int):
    """``NdX!`` (on the highest face or a compare point), at most ``MAX_EXPLOSIONS`` per die."""
    test = _tester("=", sides - 1) if m.cp is None else _tester(m.cp.op, m.cp.value - 1)
    cap = min(m.n if m.n is not None else limits.MAX_EXPLOSIONS, limits.MAX_EXPLOSIONS)

    def explode(rr, rec):
        idx = [rr(sides) for _ in range(n)]
        rec.extend(idx)
        total = sum(idx) + n
        for i in idx:
            k = 0
            while test(i) and k < cap:
                i = rr(sides)
                rec.append(i)
                total += i + 1
                k += 1
            if k == limits.MAX_EXPLOSIONS:
                raise Fallback  # the ordinary path adds the note about the limit
        if len(rec) > limits.MAX_DICE:
            raise Fallback
        return total

    return explode


def _compile_group(node: Group):
    if len(node.members) < 2:
        return None
    members = [_compile(m) for m in node.members]
    if any(m is None for m in members):
        return None
    if not node.mods:
        return lambda rr, rec: sum(m(rr, rec) for m in members)
    if len(node.mods) != 1 or node.mods[0].kind != "keep":
        return None
    lo, hi = _kept_slice(node.mods[0], len(members))

    def group(rr, rec):
        vals = sorted(f(rr, rec) for f in members)
        return sum(vals[lo:hi])

    return group


def _kept_slice(m, n: int) -> tuple[int, int]:
    """The slice of the ascending-sorted values that a keep/drop modifier keeps."""
    keep = max(0, m.n or 0)
    if m.variant == "kh":
        return max(n - keep, 0), n
    if m.variant == "kl":
        return 0, min(keep, n)
    if m.variant == "dh":
        return 0, max(n - keep, 0)
    return min(keep, n), n  # dl


_tester = compare_fn


# --------------------------------------------------------------------------------------------
# the text breakdown straight from the recorded faces
# --------------------------------------------------------------------------------------------
# ``str(result)`` of a fast-path roll without building the result tree: each compiled node gets a
# texter ``tx(it) -> (text, value)`` that consumes the recorded faces in the order the compiled
# closures drew them and writes what ``render.node_text`` writes for the tree the ordinary
# evaluator would build (a property test compares the two strings on random expressions).
def compile_text(expr: Expression):
    """``(root_texter, target_texter or None)`` for an expression whose plan compiled."""
    root = _text(expr.root)
    target = _text(expr.check_target) if expr.check_op is not None else None
    return root, target


def _labelled(fn, label):
    if not label:
        return fn
    suffix = f" [{label}]"

    def tx(it):
        s, v = fn(it)
        return s + suffix, v

    return tx


def _text(node):
    t = type(node)
    if t is Num:
        s0, v0 = str(node.value), node.value
        return _labelled(lambda it: (s0, v0), node.label)
    if t is Paren:
        inner = _text(node.inner)

        def paren(it):
            s, v = inner(it)
            return f"({s})", v

        return _labelled(paren, node.label)
    if t is Unary:
        inner = _text(node.operand)
        op = node.op

        def unary(it):
            s, v = inner(it)
            return op + s, (-v if op == "-" else v)

        return _labelled(unary, node.label)
    if t is BinOp:
        a, b, op = _text(node.left), _text(node.right), node.op
        sep = f" {op} "

        fn = ARITH.get(op, operator.floordiv)  # the compiled path allows + - * //

        def binop(it):
            sa, x = a(it)
            sb, y = b(it)
            return sa + sep + sb, fn(x, y)

        return _labelled(binop, node.label)
    if t is Dice:
        return _labelled(_text_dice(node), node.label)
    return _labelled(_text_group(node), node.label)


def _crit20(v: int) -> str:
    return "↑" if v == 20 else "↓" if v == 1 else ""


def _text_dice(node: Dice):
    n, head = node.count, node.text + " ["
    values, sides = node.faces.values, node.faces.sides
    if values is not None:  # custom faces, no modifiers

        def custom(it):
            vals = [values[next(it)] for _ in range(n)]
            return head + ", ".join(map(str, vals)) + "]", sum(vals)

        return custom
    d20 = sides == 20
    if not node.mods:

        def plain(it):
            vals = [next(it) + 1 for _ in range(n)]
            if d20:
                return head + ", ".join(f"{v}{_crit20(v)}" for v in vals) + "]", sum(vals)
            return head + ", ".join(map(str, vals)) + "]", sum(vals)

        return plain
    m = node.mods[0]
    if m.kind == "keep":
        return _text_keep(m, n, head, d20)
    if m.kind == "success":
        return _text_counting(m, n, head, d20)
    return _text_explode(m, n, head, d20, sides)


def _text_keep(m, n: int, head: str, d20: bool):
    """The text of ``NdXkh``/``kl``/``dh``/``dl``: the dropped dice struck through."""
    keep, variant = max(0, m.n or 0), m.variant

    def keepdrop(it):
        vals = [next(it) + 1 for _ in range(n)]
        order = sorted(range(n), key=lambda j: (vals[j], j))  # the engine's tie order
        k = min(keep, n)
        chosen = order[n - k :] if variant in ("kh", "dh") else order[:k]
        losers = set(range(n)) - set(chosen) if variant in ("kh", "kl") else set(chosen)
        parts = []
        total = 0
        for j, v in enumerate(vals):
            if j in losers:
                parts.append(f"~~{v}~~")
            else:
                total += v
                parts.append(f"{v}{_crit20(v)}" if d20 else str(v))
        return head + ", ".join(parts) + "]", total

    return keepdrop


def _text_counting(m, n: int, head: str, d20: bool):
    """The text of ``NdX>=t``: each success marked."""
    test = compare_fn(m.cp.op, m.cp.value)

    def counting(it):
        vals = [next(it) + 1 for _ in range(n)]
        parts = []
        count = 0
        for v in vals:
            s = str(v)
            if test(v):
                count += 1
                s += "✓"
            parts.append(s + _crit20(v) if d20 else s)
        return head + ", ".join(parts) + "]", count

    return counting


def _text_explode(m, n: int, head: str, d20: bool, sides: int):
    """The text of a plain explosion (the only other modifier the fast path compiles)."""
    test = compare_fn("=", sides) if m.cp is None else compare_fn(m.cp.op, m.cp.value)
    cap = min(m.n if m.n is not None else limits.MAX_EXPLOSIONS, limits.MAX_EXPLOSIONS)

    def explode(it):
        first = [next(it) + 1 for _ in range(n)]
        parts = []
        total = 0
        for v in first:
            s = f"{v}{_crit20(v)}" if d20 else str(v)
            total += v
            k = 0
            while test(v) and k < cap:
                parts.append(s[: len(str(v))] + "!" + s[len(str(v)) :])
                v = next(it) + 1
                total += v
                s = str(v)
                k += 1
            parts.append(s)
        return head + ", ".join(parts) + "]", total

    return explode


def _text_group(node: Group):
    members = [_text(m) for m in node.members]
    literal = [type(m) is Num for m in node.members]
    suffix = "".join(m.text for m in node.mods) if node.mods else ""
    mod = node.mods[0] if node.mods else None
    count = len(members)

    def group(it):
        texts, vals = [], []
        for f in members:
            s, v = f(it)
            texts.append(s)
            vals.append(v)
        kept = [True] * count
        if mod is not None:
            k = min(max(0, mod.n or 0), count)
            order = sorted(range(count), key=lambda i: (vals[i], i))  # the engine's tie order
            chosen = order[count - k :] if mod.variant in ("kh", "dh") else order[:k]
            for i in set(range(count)) - set(chosen) if mod.variant in ("kh", "kl") else chosen:
                kept[i] = False
        items = []
        for i in range(count):
            item = texts[i] if literal[i] else f"{texts[i]} = {vals[i]}"
            items.append(item if kept[i] else f"~~{item}~~")
        return "{" + ", ".join(items) + "}" + suffix, sum(vals[i] for i in range(count) if kept[i])

    return group
