"""Exact odds: ``distribution(expr) -> Distribution`` for the notation of NOTATION.md.

The result equals the distribution of what ``engine.roll()`` produces (the engine is the
semantic reference), as ``fractions.Fraction`` values, computed without enumerating faces^N:

* independent terms combine by convolution (sums) or pairwise over the supports (``* / // % ^``,
  ``min``/``max``); ``/`` is exact (Fraction outcomes inside) and the total is floored at the end,
  as the engine does; functions round half away from zero;
* dice terms (``exact_dice``): clamps, explosions, rerolls, keep/drop by order statistics,
  value selectors, success/failure/``dbl`` counting by convolution, custom faces, Fate, ``d%``;
* groups ``{a, b}kh1`` / ``{a, b}>=x``: additive modifiers by convolution, keep/drop on the
  members' totals by combining the (independent) members' sorted values, keeping only what the
  keep/drop needs (the k highest for ``kh k``...);
* computed counts, faces and compare points (``(1d4)d6``, ``d(1d6+4)``, ``cs>=(1d4)``) are a
  mixture over the joint distribution of those parameters;
* checks (``2d6+3 >= 8``, ``vs``, ``dc``): a Distribution over the floored totals with
  ``p_pass`` = P(total op target); a dice target is independent of the left side, so
  ``p_pass`` is summed over their joint distribution (cut-off mass never counts as a pass);
* repetition ``6#4d6kh3``: the distribution of **one** repetition, with a note saying so
  (the rolls are independent and identically distributed);
* system words: ``expr.word.distribution()``; a word without exact odds raises ``DiceError``
  saying so.

Depth. Explosions (``!``, ``!p``, ``!!``) are followed die by die until the mass still exploding
is below ``TRUNCATE / dice in the term`` (default ``TRUNCATE`` = 1e-12) or the engine's per-die
limit ``limits.MAX_EXPLOSIONS`` (100) is reached; a finite cap (``xo``, ``x3<5``, ``ro``) is
followed exactly. A reroll until the die stops matching (``r``, ``rr``) is a conditioning and is
computed exactly, with nothing cut off (``1d6r<3`` is 1/4 on each of 3..6; ``roll()`` stops after
100 rerolls of one die, which a die with even a 1-in-2 chance to stop reaches with probability
2^-100). What is cut off is reported as
``Distribution.truncated_mass`` (never renormalised): the whole expression's cut-off mass is below
1e-12 per exploding or rerolling term.

Budget (``exact_core``): ``DiceLimitError`` "too large for exact odds" (``roll()`` still works)
past ``MAX_SUPPORT`` = 200,000 distinct outcomes of any intermediate distribution,
``MAX_WORK`` = 4,000,000 elementary steps, ``MAX_MULTISETS`` = 200,000 pool states of the
multiset enumeration (keep/drop after chain explosions or ``ra``, keep/drop on groups),
``MAX_MIXTURE`` = 20,000 joint values of computed parameters of one term, ``MAX_PACKED`` =
1 MB for one packed polynomial (e.g. ``1000d6`` is refused, ``500d6`` takes 0.3 s), or
``TIME_LIMIT`` = 5 s of wall time (the clock is read at every step of every kernel, between the
multiplications of a packed power, and once more at the end, so no answer comes back after the
limit; ``distribution(..., clock=)`` takes an injected clock for tests).
Every roll of the four rules specs is far inside (the largest, a 40-die Seasons pool, takes
under a millisecond).

Unique dice (``u``, ``uo``) are exact by a sequential DP over the sorted values rolled so far
(within ``MAX_MULTISETS``: fine for ``4d6u`` or ``10d10u``, refused for ``8d20u``); together with
``!``/``!p`` chain explosions or ``ra`` they raise ``DiceError``. So do two ``ra`` in one term,
rerolls after ``ra`` together with keep/drop, and a dice compare point on a group.

Checks: the Distribution is over the totals (``outcome == "total"``); ``margin_distribution()``
gives the distribution of total - target (``outcome == "margin"``).

Errors: where ``roll()`` could fail for some outcomes (a possible division by zero, a computed
count that can be negative, ...) ``distribution()`` raises the ``DiceError`` up front.

Caching: each dice term with fixed parameters is cached (``exact_dice.TERMS``, 2,048 entries)
on a canonical key: count, clamped face weights, modifiers in stage order with resolved compare
points, the explosion limit and the cut-off threshold; whole results are cached too (512
expressions, by text and variables). ``clear_cache()`` empties both. The caches are not
thread-safe; the budget of a call is passed down to every kernel (it is no module global).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from fractions import Fraction

from . import exact_core as core
from . import exact_dice, exact_pool
from . import limits
from .diceast import (
    BinOp,
    Compare,
    left_spine,
    Dice,
    Expression,
    Faces,
    Func,
    Group,
    Node,
    Num,
    Paren,
    Unary,
    Var,
    compare_fn,
)
from .diceast import OPS
from .die_mods import term_clamps
from .distribution import Distribution
from .errors import DiceError, DiceLimitError, variable_value
from .errors import fractional_exponent, power_overflows, too_large, zero_to_negative_power
from .exact_core import W, add, combine, mixture, point

#: explosions / rerolls are followed until the mass still going is below this (per term)
TRUNCATE = Fraction(1, 10**12)

__all__ = ["distribution", "margin_distribution", "clear_cache", "cache_info", "TRUNCATE"]


def clear_cache() -> None:
    """Forget every cached distribution (dice terms and whole expressions)."""
    exact_dice.TERMS.cache_clear()
    _RESULTS.clear()


def cache_info():
    return exact_dice.TERMS.cache_info()


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
class _Ctx:
    __slots__ = ("text", "variables", "budget")

    def __init__(self, text, variables, budget):
        self.text = text
        self.variables = variables
        self.budget = budget

    def err(self, msg, pos=None, ru=None, cls=DiceError):
        return cls(msg, pos, self.text, message_ru=ru)


from .engine import norm_number, round_half_away  # noqa: E402  (one rule for both: rolled and exact)


def _check_abs(ctx, d: W, pos):
    for v in d.pmf:
        if abs(v) > limits.MAX_ABS:
            raise too_large(ctx.err, pos)
    return d


# ---------------------------------------------------------------------------------------------
# the tree
# ---------------------------------------------------------------------------------------------
def _eval(node: Node, ctx: _Ctx) -> W:
    t = type(node)
    if t is Num:
        return point(node.value)
    if t is Dice:
        return _dice(node, ctx)
    if t is BinOp:
        return _binop(node, ctx)
    if t is Unary:
        inner = _eval(node.operand, ctx)
        return inner.map(lambda v: -v) if node.op == "-" else inner
    if t is Paren:
        return _eval(node.inner, ctx)
    if t is Group:
        return _group(node, ctx)
    if t is Func:
        return _func(node, ctx)
    if t is Var:
        return point(_var(node, ctx))
    raise ctx.err(f"cannot evaluate {t.__name__}", node.pos)  # pragma: no cover


def _var(node: Var, ctx: _Ctx):
    v = variable_value(node.name, ctx.variables, node.pos, ctx.err)
    if abs(v) > limits.MAX_ABS:
        raise too_large(ctx.err, node.pos)
    return v


def _binop(node: BinOp, ctx: _Ctx) -> W:
    n, spine = left_spine(node)
    acc = _eval(n, ctx) if type(n) is not BinOp else _power(n, ctx)
    for b in spine:
        right = _eval(b.right, ctx)
        acc = _arith(ctx, b.op, acc, right, b.pos)
    return acc


def _power(node: BinOp, ctx: _Ctx) -> W:
    return _arith(ctx, "^", _eval(node.left, ctx), _eval(node.right, ctx), node.pos)


def _arith(ctx: _Ctx, op: str, a: W, b: W, pos: int) -> W:
    budget = ctx.budget
    if op == "+":
        return _check_abs(ctx, add(a, b, budget), pos)
    if op == "-":
        return _check_abs(ctx, add(a, b.map(lambda v: -v), budget), pos)
    if op == "*":
        return _check_abs(ctx, combine(a, b, lambda x, y: x * y, budget).reduced(), pos)
    if op in ("/", "//", "%"):
        if 0 in b.pmf:
            raise ctx.err(
                "division by zero is possible here (the divisor can be 0): no exact odds",
                pos,
                ru="здесь возможно деление на ноль (делитель может быть 0)",
            )
        if op == "/":
            fn = lambda x, y: norm_number(Fraction(x) / Fraction(y))  # noqa: E731
        elif op == "//":
            fn = lambda x, y: math.floor(Fraction(x) / Fraction(y))  # noqa: E731
        else:

            def fn(x, y):
                return norm_number(Fraction(x) - Fraction(y) * math.floor(Fraction(x) / Fraction(y)))

        return _check_abs(ctx, combine(a, b, fn, budget).reduced(), pos)
    # power
    for e in b.pmf:
        if isinstance(e, Fraction):
            raise fractional_exponent(ctx.err, pos)
        if e < 0 and 0 in a.pmf:
            raise zero_to_negative_power(ctx.err, pos)
        for x in a.pmf:
            if power_overflows(x, e):
                raise too_large(ctx.err, pos, power=True)

    def pw(x, e):
        v = Fraction(x) ** e if e < 0 or isinstance(x, Fraction) else x**e
        return norm_number(v)

    return _check_abs(ctx, combine(a, b, pw, budget).reduced(), pos)


def _func(node: Func, ctx: _Ctx) -> W:
    args = [_eval(a, ctx) for a in node.args]
    name = node.name
    if name == "floor":
        return args[0].map(math.floor)
    if name == "ceil":
        return args[0].map(math.ceil)
    if name == "round":
        return args[0].map(round_half_away)
    if name == "abs":
        return args[0].map(abs)
    fn = min if name == "min" else max
    acc = args[0]
    for b in args[1:]:
        acc = combine(acc, b, fn, ctx.budget).reduced()
    return acc


# ---------------------------------------------------------------------------------------------
# dice terms
# ---------------------------------------------------------------------------------------------
def _int_param(ctx: _Ctx, node: Node, what: str, lo: int, hi: int) -> W:
    d = _eval(node, ctx)
    for v in d.pmf:
        if isinstance(v, Fraction):
            raise ctx.err(
                f"{what} can be {v}, not a whole number", node.pos, ru=f"{what}: может быть {v}, а не целое число"
            )
        if v < lo:
            raise ctx.err(
                f"{what} can be {v}; it must be at least {lo}",
                node.pos,
                ru=f"{what}: может быть {v}, нужно не меньше {lo}",
            )
        if v > hi:
            raise ctx.err(
                f"{what} can be {v:,}; it must be at most {hi:,}",
                node.pos,
                ru=f"{what}: может быть {v:,}, нужно не больше {hi:,}",
                cls=DiceLimitError,
            )
    return d


def _cp_param(ctx: _Ctx, cp: Compare | None):
    """None, an int, or a W over the floored values of a computed compare point."""
    if cp is None or isinstance(cp.value, int):
        return None if cp is None else cp.value
    d = _eval(cp.value, ctx).map(math.floor)
    if len(d.pmf) == 1 and not d.cut:
        return next(iter(d.pmf))
    return d


def _faces(faces: Faces, sides: int | None, mods) -> tuple:
    lo_clamp, hi_clamp = term_clamps(mods)
    if faces.values is not None:
        vals = faces.values
    else:
        if sides > core.MAX_SUPPORT:
            raise core.Budget().too_large(f"a die with more than {core.MAX_SUPPORT:,} faces")
        vals = range(1, sides + 1)
    out: dict = {}
    if lo_clamp is None and hi_clamp is None:
        if faces.values is None:
            return tuple((v, 1) for v in vals)
        for v in vals:
            out[v] = out.get(v, 0) + 1
    else:
        for v in vals:
            if lo_clamp is not None and v < lo_clamp:
                v = lo_clamp
            if hi_clamp is not None and v > hi_clamp:
                v = hi_clamp
            out[v] = out.get(v, 0) + 1
    return tuple(sorted(out.items()))


def _mods_key(mods, cps: list) -> tuple:
    """The modifiers in stage order (stable), crit/sort dropped, compare points resolved."""
    staged = sorted(range(len(mods)), key=lambda i: exact_dice.STAGE[mods[i].kind])
    out = []
    for i in staged:
        m = mods[i]
        if m.kind in ("crit", "sort", "min", "max"):
            continue
        cp = m.cp
        if cp is None:
            out.append((m.kind, m.variant, m.n, None, None))
        else:
            out.append((m.kind, m.variant, m.n, cp.op, cps[i]))
    return tuple(out)


def _all_faces(faces: tuple, op, val) -> bool:
    if op is None:
        return len(faces) == 1
    t = compare_fn(op, val)
    return all(t(v) for v, _ in faces)


def _dice(node: Dice, ctx: _Ctx, extra_mods=()) -> W:
    """A dice term (``extra_mods``: the modifiers of a one-member group around it)."""
    budget = ctx.budget
    params = []  # (slot, W)
    if isinstance(node.count, int):
        count = node.count
    else:
        count = _int_param(ctx, node.count, "the number of dice", 0, limits.MAX_DICE)
        params.append(("count", count))
    faces = node.faces
    sides = faces.sides
    if faces.computed is not None:
        sides = _int_param(ctx, faces.computed, "the number of faces", 1, limits.MAX_FACES)
        params.append(("sides", sides))
    mods = list(node.mods)
    cps = []
    for i, m in enumerate(mods):
        if m.kind in ("crit", "sort"):  # display only: no effect on the value
            cps.append(None)
            continue
        c = _cp_param(ctx, m.cp)
        if isinstance(c, W):
            params.append((i, c))
        cps.append(c)
    # the joint of the random parameters
    joint = [({}, 1)]
    pden = 1
    for slot, d in params:
        if len(d.pmf) == 1 and not d.cut:
            v = next(iter(d.pmf))
            for assign, _ in joint:
                assign[slot] = v
            continue
        pden *= d.den
        joint = [({**assign, slot: v}, w * x) for assign, w in joint for v, x in d.pmf.items()]
        if len(joint) > core.MAX_MIXTURE:
            raise budget.too_large(
                f"more than {core.MAX_MIXTURE:,} combinations of computed counts, faces and compare points"
            )
    # a parameter cut off (it came from an explosion) leaves that mass cut off here too
    pcut = pden - sum(w for _, w in joint)
    parts = []
    for assign, w in joint:
        c = assign.get("count", count)
        s = assign.get("sides", sides)
        res_cps = [assign.get(i, cps[i]) for i in range(len(mods))]
        d = _dice_fixed(ctx, node, c, s, mods, res_cps, extra_mods)
        parts.append((w, d))
    return mixture(parts, pden, pcut, budget)


def _dice_fixed(ctx, node: Dice, count: int, sides, mods, cps, extra_mods) -> W:
    faces = _faces(node.faces, sides, mods)
    if node.faces.computed is not None:
        for m, c in zip(mods, cps):
            op, val = (m.cp.op, c) if m.cp else (None, None)
            if m.kind == "explode" and m.n is None and _all_faces(faces, op, val):
                raise ctx.err(f"'{m.text}' explodes on every face: it would never stop", m.pos)
            if m.kind == "reroll" and m.variant == "until" and _all_faces(faces, op, val):
                raise ctx.err(f"'{m.text}' rerolls every face: it would never stop", m.pos)
    key = _mods_key(mods, cps)
    if extra_mods:
        key = _group_mods(ctx, key, extra_mods)
        if key is None:  # the member counts successes itself: the group's modifiers don't matter
            key = _mods_key(mods, cps)
    if len(faces) > core.MAX_SUPPORT:
        raise ctx.budget.too_large(f"a die with more than {core.MAX_SUPPORT:,} faces")
    if ctx.budget is not None:
        ctx.budget.spend(len(faces))
    return exact_dice.term(count, faces, key, limits.MAX_EXPLOSIONS, TRUNCATE, ctx.budget)


def _group_mods(ctx, key: tuple, gmods) -> tuple | None:
    """A one-member group's modifiers appended to its dice term's (keep/select after the term's
    own; the group's counting replaces none). None: the term counts successes itself."""
    inner_counts = any(k[0] == "success" for k in key)
    g_counts = any(m.kind == "success" for m in gmods)
    if inner_counts and g_counts:
        raise ctx.err("the member already counts successes", None, ru="элемент уже считает успехи")
    if inner_counts:
        return None
    out = list(key)
    staged = sorted(gmods, key=lambda m: exact_dice.STAGE[m.kind])
    counting = []
    if any(m.kind in ("keep", "select") for m in staged):
        # the group's keep/drop is a stage of its own, after the term's
        out.append(("sep", "", None, None, None))
    for m in staged:
        if m.kind in ("keep", "select"):
            c = None if m.cp is None else _cp_const(ctx, m.cp)
            out.append((m.kind, m.variant, m.n, m.cp.op if m.cp else None, c))
        elif m.kind in ("success", "failure"):
            counting.append((m.kind, m.variant, m.n, m.cp.op, _cp_const(ctx, m.cp)))
    return tuple(out + counting)


def _cp_const(ctx, cp: Compare):
    c = _cp_param(ctx, cp)
    if isinstance(c, W):
        raise ctx.err("exact odds: a dice compare point on a group is not supported", cp.pos)
    return c


# ---------------------------------------------------------------------------------------------
# groups
# ---------------------------------------------------------------------------------------------
def _group(node: Group, ctx: _Ctx) -> W:
    members = node.members
    mods = node.mods
    if len(members) == 1 and mods:
        inner = members[0]
        while isinstance(inner, Paren):
            inner = inner.inner
        if isinstance(inner, Dice):
            return _dice(inner, ctx, extra_mods=mods)
        # any other single member ({1d20+5}>15) is one total, like a member of a larger group
    dists = [_eval(m, ctx) for m in members]
    staged = sorted(mods, key=lambda m: exact_dice.STAGE[m.kind])
    stage5 = []
    success = failure = None
    for m in staged:
        if m.kind in ("keep", "select"):
            stage5.append(
                (m.kind, m.variant, m.n, m.cp.op if m.cp else None, None if m.cp is None else _cp_group(ctx, m.cp))
            )
        elif m.kind == "success":
            success = (m.cp.op, _cp_group(ctx, m.cp))
        elif m.kind == "failure":
            failure = (m.cp.op, _cp_group(ctx, m.cp))
    if not any(k[0] == "keep" for k in stage5):
        # additive over the members
        f = exact_pool.score_fn(success, failure, None, [(v, op, t) for _, v, _, op, t in stage5])
        acc = point(0)
        for d in dists:
            acc = add(acc, d.map(f), ctx.budget)
        return acc.map(norm_number).reduced()
    spec = exact_pool.PoolSpec(stage5, success, failure, None, None, ctx.budget)
    pool = None
    for d in dists:
        e = spec.elements(d)
        pool = e if pool is None else spec.join(pool, e)
    return pool.map(spec.value).map(norm_number).reduced()


def _cp_group(ctx, cp: Compare):
    c = _cp_param(ctx, cp)
    if isinstance(c, W):
        raise ctx.err("exact odds: a dice compare point on a group is not supported", cp.pos)
    return c


# ---------------------------------------------------------------------------------------------
# the public entry point
# ---------------------------------------------------------------------------------------------


def _p_pass(total: W, target: W, op: str) -> Fraction:
    test = OPS[op]
    num = 0
    if len(target.pmf) == 1:
        ((t, wt),) = target.pmf.items()
        num = wt * sum(w for v, w in total.pmf.items() if test(v, t))
    else:
        # cumulative sums over the sorted totals
        items = sorted(total.pmf.items())
        vals = [v for v, _ in items]
        cum = [0]
        for _, w in items:
            cum.append(cum[-1] + w)
        import bisect

        for t, wt in target.pmf.items():
            if op in (">=", ">"):
                i = bisect.bisect_left(vals, t) if op == ">=" else bisect.bisect_right(vals, t)
                s = cum[-1] - cum[i]
            elif op in ("<=", "<"):
                i = bisect.bisect_right(vals, t) if op == "<=" else bisect.bisect_left(vals, t)
                s = cum[i]
            else:
                eq = total.pmf.get(t, 0)
                s = eq if op == "=" else cum[-1] - eq
            num += wt * s
    return Fraction(num, total.den * target.den)


def compute(expr: Expression, variables=None, clock=None) -> tuple[W, Fraction | None, list]:
    """The integer-weight distribution of the floored total, ``p_pass`` and notes.
    ``clock`` replaces ``time.monotonic`` for the time budget (tests inject one)."""
    budget = core.Budget(expr.text, clock=clock)
    ctx = _Ctx(expr.text, variables, budget)
    total = _eval(expr.root, ctx).map(math.floor).reduced()
    budget.check()
    p_pass = None
    if expr.check_op is not None:
        target = _eval(expr.check_target, ctx).map(math.floor).reduced()
        budget.check()
        p_pass = _p_pass(total, target, expr.check_op)
    budget.check()  # the last step too: nothing comes back after the limit
    return total, p_pass, []


_RESULTS: "OrderedDict[tuple, tuple]" = OrderedDict()
_RESULTS_SIZE = 512


def _result_key(parsed: Expression, variables):
    if variables:
        try:
            return (parsed.text, tuple(sorted((str(k), v) for k, v in variables.items())))
        except TypeError:
            return None
    return (parsed.text, None)


def distribution(expr, *, variables=None, clock=None) -> Distribution:
    """The exact distribution of ``expr`` (text or a parsed ``Expression``); see the module
    docstring for what is exact, the depth rule and the budget."""
    from .parser import parse

    if isinstance(expr, Expression):
        parsed = expr
    else:
        parsed = parse(expr, variables)
    notes = []
    if parsed.repeat > 1:
        notes.append(
            {
                "en": f"the distribution of one of the {parsed.repeat} rolls",
                "ru": f"распределение одного из {parsed.repeat} бросков",
            }
        )
    if parsed.word is not None:
        try:
            d = parsed.word.distribution()
        except DiceLimitError:
            raise
        except DiceError as exc:
            raise DiceError(
                f"no exact odds for this system roll: {exc.message}",
                exc.position,
                parsed.text,
                message_ru=f"для этого броска системы нет точных вероятностей: {exc.message_ru or exc.message}",
            ) from None
        if notes:
            d.notes = list(d.notes) + notes
        if not d.expression:
            d.expression = parsed.text
        return d
    key = _result_key(parsed, variables)
    hit = _RESULTS.get(key) if key is not None else None
    if clock is not None:
        hit = None  # a test's clock: compute afresh
    if hit is None or hit[4] != (limits.MAX_EXPLOSIONS, TRUNCATE):
        total, p_pass, more = compute(parsed, variables, clock)
        den = total.den
        pmf = {v: Fraction(w, den) for v, w in total.pmf.items() if w}
        cut = Fraction(total.cut, den)
        if cut:
            more = more + [
                {
                    "en": f"explosions/rerolls followed until less than {float(TRUNCATE):g} "
                    f"of the mass was left: {float(cut):.3g} cut off (not renormalised)",
                    "ru": f"взрывы/перебросы прослежены, пока не осталось меньше "
                    f"{float(TRUNCATE):g} вероятности: отсечено {float(cut):.3g}",
                }
            ]
        hit = (pmf, cut, p_pass, more, (limits.MAX_EXPLOSIONS, TRUNCATE))
        if key is not None:
            _RESULTS[key] = hit
            if len(_RESULTS) > _RESULTS_SIZE:
                _RESULTS.popitem(last=False)
    else:
        _RESULTS.move_to_end(key)
    pmf, cut, p_pass, more, _ = hit
    return Distribution.trusted(
        pmf, truncated_mass=cut, p_pass=p_pass, expression=parsed.text, outcome="total", notes=notes + more
    )


def margin_distribution(expr, *, variables=None) -> Distribution:
    """For a check (``2d6+3 >= 8``, ``1d20+5 vs 1d20+3``): the exact distribution of the margin
    ``total - target`` (target dice independent of the total), ``outcome == "margin"``."""
    from .parser import parse

    parsed = expr if isinstance(expr, Expression) else parse(expr, variables)
    if parsed.word is not None or parsed.check_op is None:
        raise DiceError(
            "a margin needs a check such as 2d6+3 >= 8",
            None,
            parsed.text,
            message_ru="разница считается для проверки вида 2d6+3 >= 8",
        )
    budget = core.Budget(parsed.text)
    ctx = _Ctx(parsed.text, variables, budget)
    total = _eval(parsed.root, ctx).map(math.floor)
    target = _eval(parsed.check_target, ctx).map(math.floor)
    p_pass = _p_pass(total.reduced(), target.reduced(), parsed.check_op)
    m = add(total, target.map(lambda v: -v), budget).reduced()
    budget.check()
    pmf, cut = m.fractions()
    return Distribution.trusted(pmf, truncated_mass=cut, p_pass=p_pass, expression=parsed.text, outcome="margin")
