"""Exact distributions of one dice term with fixed parameters (count, faces, compare points).

The result of :func:`term` is cached (:data:`TERMS`, least recently used first out) on a canonical
description of the term (never on the budget: the running call's ``Budget`` is an argument of
every kernel that spends, None for no limit): the count, the clamped face weights, the modifiers in the engine's stage order with their
compare points resolved to integers, and the explosion limit and cut-off threshold in force. So
``4d6kh3`` inside ``{4d6kh3, 4d6kh3}`` or in a second call is computed once.

How each modifier is done (the engine's order: clamp, explode, reroll, unique, keep/select,
counting):

* clamps transform the face weights;
* ``!!`` (compound) folds an explosion chain into one die value; ``!``/``!p`` chains are followed
  die by die (depth-limited, the rest reported as cut-off mass);
* ``r``/``ro`` are per-die maps (value -> distribution of the value after rerolling);
  ``ra`` (reroll-and-add, once per pool) by inclusion-exclusion over "no die matches";
* additive results (sums, success/failure/double counting, value selectors ``k>3``/``p<3``)
  are the N-fold convolution of one die's contribution;
* keep/drop on identical dice by an order-statistics DP over face values (states: dice placed
  so far, the partial sum as a packed polynomial), never by enumerating faces^N; a single
  extreme die (``kh1``/``kl1``) in closed form;
* keep/drop that needs the whole pool (after a chain explosion or ``ra``) by combining dice
  into pool states that keep only what the keep/drop needs (``PoolSpec``: the k highest values
  for ``kh k``, the n lowest and the total for ``dl n``, ...), within ``MAX_MULTISETS``;
* unique dice (``u``/``uo``) by a sequential DP over the sorted values so far.

Keep/drop over a pool (order statistics, pool states) is in :mod:`.exact_pool`.
"""

from __future__ import annotations

import math
from collections import OrderedDict, namedtuple
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import exact_core as core
from .diceast import MOD_ORDER, compare_fn
from .errors import DiceError
from .exact_core import Budget, W, add, mixture, nfold, point
from .exact_pool import PoolSpec, keep_iid, multiset_value, nfold_join, score_fn

#: the order a term's modifiers are applied in (one table for both engines)
STAGE = MOD_ORDER

_test = compare_fn


def _lt(a: int, b: int, thr: Fraction) -> bool:
    """a/b < thr."""
    return a * thr.denominator < thr.numerator * b


# ---------------------------------------------------------------------------------------------
# per-die building blocks
# ---------------------------------------------------------------------------------------------
def _cond(parts: list[tuple[int, W]], budget: Budget | None) -> W:
    """The conditional mixture of ``parts`` (weights need not sum to anything in particular)."""
    tot = sum(w for w, _ in parts)
    return mixture(parts, tot, 0, budget)


def chain(base: dict, btot: int, test, cap: int, thr: Fraction, elem_first, elem_added, join, budget: Budget | None):
    """One die with a (non-compound or compound) explosion: the element-wise contributions
    ``elem_first(v)`` (the first roll) and ``elem_added(v)`` (each extra roll) joined by
    ``join``. ``test`` decides on the clamped face ``v`` whether another roll follows; at most
    ``cap`` extra rolls; the chain is followed until its remaining mass is below ``thr`` (then
    cut off and reported). ``budget``: the running call's (None: unlimited)."""
    E = [(v, w) for v, w in base.items() if test(v)]
    N = [(v, w) for v, w in base.items() if not test(v)]
    WE = sum(w for _, w in E)
    WN = btot - WE
    if WE == 0 or cap == 0:
        return _cond([(w, elem_first(v)) for v, w in base.items()], budget)
    HF_E = _cond([(w, elem_first(v)) for v, w in E], budget)
    HA_E = _cond([(w, elem_added(v)) for v, w in E], budget)
    HA_all = _cond([(w, elem_added(v)) for v, w in base.items()], budget)
    parts: list[tuple[int, W]] = []  # (k, W) with weight computed at the end
    if WN:
        HF_N = _cond([(w, elem_first(v)) for v, w in N], budget)
        HA_N = _cond([(w, elem_added(v)) for v, w in N], budget)
        parts.append((0, HF_N))
    prefix = HF_E  # first k elements all exploding
    k = 1
    cut_k = None
    while True:
        if budget is not None:
            budget.spend(len(prefix.pmf) + 1, "an explosion")
        if k == cap:
            parts.append((-k, join(prefix, HA_all)))
            break
        if WN:
            parts.append((k, join(prefix, HA_N)))
        # mass still exploding after k extra rolls: (WE/btot)^(k+1)
        if _lt(WE ** (k + 1), btot ** (k + 1), thr):
            cut_k = k
            break
        prefix = join(prefix, HA_E)
        k += 1
    # weights over btot^(K+1), K = the deepest k reached
    K = k
    weighted = []
    for kk, d in parts:
        if kk < 0:  # the capped chain: cap elements exploded, the last one anything
            c = -kk
            weighted.append((WE**c * btot ** (K + 1 - c), d))
        else:
            weighted.append((WE**kk * WN * btot ** (K - kk), d))
    pden = btot ** (K + 1)
    pcut = WE ** (K + 1) if cut_k is not None else 0
    return mixture(weighted, pden, pcut, budget)


def reroll_fresh(base: dict, btot: int, test, cap: int, thr: Fraction, budget: Budget | None) -> W:
    """The value of a die rerolled because it matched: fresh rolls of the (clamped) die while
    they match, at most ``cap`` rolls in all; cut off when the remaining mass is below ``thr``.
    ``cap`` None: until it stops matching, i.e. the die conditioned on not matching (exact)."""
    match = {v: w for v, w in base.items() if test(v)}
    wm = sum(match.values())
    if cap is None:
        # reroll until it stops matching: the die conditioned on not matching (exact)
        if wm == btot:
            raise DiceError(
                "the reroll matches every face: it would never stop (use ro to reroll once)",
                message_ru="переброс срабатывает на каждой грани: он не закончится (используйте ro)",
            )
        return W({v: w for v, w in base.items() if v not in match}, btot - wm, 0).reduced()
    out: dict = {}
    den = 1
    alive = 1
    k = 1
    cut = 0
    while True:
        # roll number k
        for v in out:
            out[v] *= btot
        den *= btot
        for v, w in base.items():
            if v not in match:
                out[v] = out.get(v, 0) + alive * w
        alive *= wm
        if k == cap:
            for v, w in match.items():
                out[v] = out.get(v, 0) + (alive // wm if wm else 0) * w
            break
        if alive == 0:
            break
        if _lt(alive, den, thr):
            cut = alive
            break
        k += 1
        if budget is not None:
            budget.spend(len(base), "rerolls")
    return W(out, den, cut).reduced()


def compound(base: dict, btot: int, explode: tuple, thr: Fraction, budget: Budget | None) -> W:
    """The value of one die with a compound explosion (``!!``, ``!!p``): ``explode`` is
    ``(variant, test, cap)``; each extra roll adds its value (less one when penetrating)."""
    variant, test, cap = explode
    added = (lambda x: point(x - 1)) if variant == "compound_penetrate" else point
    return chain(base, btot, test, cap, thr, point, added, lambda a, b: add(a, b, budget), budget)


class ElementMap:
    """value -> distribution after the per-die reroll passes (``r``, ``ro``), memoised."""

    def __init__(self, base, btot, passes, thr, budget: Budget | None):
        self.base, self.btot, self.passes, self.thr, self.budget = base, btot, passes, thr, budget
        self.fresh = [reroll_fresh(base, btot, t, cap, thr, budget) for t, cap in passes]
        self.memo: dict = {}

    def __call__(self, v) -> W:
        r = self.memo.get(v)
        if r is None:
            r = point(v)
            for (test, _), fresh in zip(self.passes, self.fresh):
                r = _apply_pass(r, test, fresh, self.budget)
            self.memo[v] = r
        return r

    def map_dist(self, d: W) -> W:
        if not self.passes:
            return d
        return mixture([(w, self(v)) for v, w in d.pmf.items()], d.den, d.cut, self.budget)


def _apply_pass(d: W, test, fresh: W, budget: Budget | None) -> W:
    if not any(test(v) for v in d.pmf):
        return d
    parts = [(w, fresh if test(v) else point(v)) for v, w in d.pmf.items()]
    return mixture(parts, d.den, d.cut, budget)


# ---------------------------------------------------------------------------------------------
# the term
# ---------------------------------------------------------------------------------------------
CacheInfo = namedtuple("CacheInfo", "hits misses maxsize currsize")


class TermCache:
    """The terms computed so far, the least recently used forgotten past ``maxsize``: a term is
    cached on its description (count, faces, modifiers, explosion limit, cut-off), never on the
    budget of the call that computed it (a cached term costs a call nothing)."""

    def __init__(self, maxsize: int):
        self.maxsize = maxsize
        self.terms: OrderedDict[tuple, W] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key: tuple, compute) -> W:
        found = self.terms.get(key)
        if found is not None:
            self.hits += 1
            self.terms.move_to_end(key)
            return found
        self.misses += 1
        made = compute()
        self.terms[key] = made
        if len(self.terms) > self.maxsize:
            self.terms.popitem(last=False)
        return made

    def cache_clear(self) -> None:
        self.terms.clear()
        self.hits = self.misses = 0

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self.terms))


TERMS = TermCache(2048)


def term(count: int, faces: tuple, mods: tuple, max_expl: int, thr: Fraction, budget: Budget | None = None) -> W:
    """The distribution of one dice term. ``faces``: ((value, weight), ...) after clamping;
    ``mods``: ((kind, variant, n, op, value), ...) in stage order (crit/sort removed;
    ``op``/``value`` of the compare point, None for the default). ``budget``: the running
    ``distribution()`` call's, spent while the term is computed (None: unlimited); the result
    is cached in :data:`TERMS`."""
    return TERMS.get((count, faces, mods, max_expl, thr), lambda: _term(count, faces, mods, max_expl, thr, budget))


@dataclass
class TermMods:
    """A term's modifiers as the exact kernels read them: the explosion ``(variant, test, cap)``,
    the per-die rerolls before and after ``ra`` (``(test, cap)``), ``ra``'s test, unique dice
    ``(variant, test)``, the keep/select/sep stage and the counting compare points."""

    explode: tuple | None = None
    passes_before: list = field(default_factory=list)
    ra: Any = None
    passes_after: list = field(default_factory=list)
    unique: tuple | None = None
    stage5: list = field(default_factory=list)
    success: tuple | None = None
    failure: tuple | None = None
    double: tuple | None = None

    @property
    def chain_explode(self) -> bool:
        """``!``/``!p``: an explosion followed die by die (not folded into one value)."""
        return self.explode is not None and self.explode[0] in ("explode", "penetrate")

    def selects(self) -> list:
        """The stage-5 modifiers as ``score_fn`` reads value selectors."""
        return [("sep" if kind == "sep" else variant, op, val) for kind, variant, n, op, val in self.stage5]


def term_mods(mods: tuple, hi_face: int, lo_face: int, max_expl: int) -> TermMods:
    """Read a term's canonical modifiers (``(kind, variant, n, op, val)`` in stage order)."""
    t = TermMods()
    for kind, variant, n, op, val in mods:
        if kind == "explode":
            op, val = (op, val) if op else ("=", hi_face)
            cap = max_expl if n is None else min(n, max_expl)
            t.explode = (variant, _test(op, val), cap)
        elif kind == "reroll":
            op, val = (op, val) if op else ("=", lo_face)
            if variant == "add":
                if t.ra is not None:
                    raise DiceError("exact odds support one 'ra' per term")
                t.ra = _test(op, val)
            else:
                # ro: once; r/rr: until the die stops matching, an unbounded reroll, so exactly the
                # die conditioned on not matching (cap None), with no truncated mass
                cap = 1 if variant == "once" else None
                (t.passes_after if t.ra is not None else t.passes_before).append((_test(op, val), cap))
        elif kind == "unique":
            t.unique = (variant, _test(op, val) if op else None)
        elif kind in ("keep", "select", "sep"):
            t.stage5.append((kind, variant, n, op, val))
        elif kind == "success":
            t.success = (op, val)
        elif kind == "failure":
            t.failure = (op, val)
        elif kind == "double":
            t.double = (op, val)
    return t


def _refuse_unsupported(t: TermMods, keeps: list) -> None:
    """Combinations the exact kernels do not do (``roll()`` still rolls them)."""
    if t.unique is not None and (t.chain_explode or t.ra is not None):
        raise DiceError(
            "exact odds are not available for unique dice ('u', 'uo') together with "
            "'!'/'!p' or 'ra' (each die depends on all the dice before it); "
            "roll() still works",
            message_ru="точные вероятности для уникальных кубиков ('u', 'uo') вместе "
            "с '!'/'!p' или 'ra' не считаются: бросок работает",
        )
    if t.explode is not None and t.explode[0] == "explode_term" and (keeps or t.ra is not None or t.unique is not None):
        raise DiceError(
            "exact odds are not available for Foundry's term-wide explosion "
            "budget (x3<5) together with keep/drop, 'ra' or unique dice; "
            "roll() still works",
            message_ru="точные вероятности для общего лимита взрывов Foundry "
            "(x3<5) вместе с keep/drop, 'ra' или уникальными кубиками "
            "не считаются: бросок работает",
        )


def _term(count: int, faces: tuple, mods: tuple, max_expl: int, thr: Fraction, budget: Budget | None) -> W:
    base = dict(faces)
    btot = sum(base.values())
    t = term_mods(mods, max(base), min(base), max_expl)
    if count == 0:
        return point(0)
    thr_die = thr / max(1, count)
    T1 = ElementMap(base, btot, t.passes_before, thr_die, budget)
    T2 = ElementMap(base, btot, t.passes_after, thr_die, budget)
    keeps = [m for m in t.stage5 if m[0] == "keep"]
    _refuse_unsupported(t, keeps)

    # the single value of one die (no chain of separate dice): compound or no explosion
    def die_value() -> W:
        if t.explode is None:
            return T1.map_dist(W(dict(base), btot, 0))
        return T1.map_dist(compound(base, btot, t.explode, thr_die, budget))

    if t.explode is not None and t.explode[0] == "explode_term":
        score = score_fn(t.success, t.failure, t.double, t.selects())
        return _explode_term(count, base, btot, t.explode[1], t.explode[2], T1, score, budget)
    if t.unique is not None:
        cap = 1 if t.unique[0] == "once" else max_expl
        pool = _unique_pool(die_value(), count, base, btot, cap, thr_die, t.unique[1], budget)
        score_all = score_fn(t.success, t.failure, t.double, [])
        return pool.map(lambda vals: multiset_value(vals, t.stage5, score_all)).reduced()
    if not keeps and t.ra is None:
        return _additive_term(count, base, btot, t, T1, die_value, thr_die, budget)
    if t.ra is not None and not keeps:
        return _with_ra(
            count, base, btot, t.explode, T1, T2, t.ra, t.stage5, t.success, t.failure, t.double, thr_die, budget
        )
    if not t.chain_explode and t.ra is None:
        return _kept_term(count, t, die_value(), budget)
    if t.passes_after:
        raise DiceError("exact odds: rerolls after 'ra' combined with keep/drop are not supported; roll() still works")
    return _pooled_term(count, base, btot, t, T1, die_value, thr_die, budget)


def _additive_term(count: int, base: dict, btot: int, t: TermMods, T1, die_value, thr_die, budget) -> W:
    """Sums and counts: the N-fold convolution of one die's contribution."""
    f = score_fn(t.success, t.failure, t.double, t.selects())
    if t.chain_explode:
        variant, test, cap = t.explode
        pen = variant == "penetrate"
        first = lambda v: T1(v).map(f)  # noqa: E731
        added = (lambda v: T1(v - 1).map(f)) if pen else first
        one = chain(base, btot, test, cap, thr_die, first, added, lambda a, b: add(a, b, budget), budget)
    else:
        one = die_value().map(f)
    return nfold(one.reduced(), count, budget).reduced()


def _kept_term(count: int, t: TermMods, D: W, budget) -> W:
    """Keep/drop on identical single-value dice: order statistics, else pool states."""
    if all(type(v) is int for v in D.pmf):
        r = keep_iid(D, count, t.stage5, t.success, t.failure, t.double, budget)
        if r is not None:
            if D.cut:
                # r is conditional on no die being cut off: P(none cut) = (live/den)^count
                lp, dp = D.live**count, D.den**count
                pmf = {v: w * lp for v, w in r.pmf.items()}
                tot = r.den * dp
                r = W(pmf, tot, tot - sum(pmf.values())).reduced()
            return r
    spec = PoolSpec(t.stage5, t.success, t.failure, t.double, None, budget)
    return nfold_join(spec.elements(D).reduced(), count, spec.join).map(spec.value).reduced()


def _pooled_term(count: int, base: dict, btot: int, t: TermMods, T1, die_value, thr_die, budget) -> W:
    """Chain explosions (or ``ra``) with keep/drop: the pool as states that keep only what the
    keep/drop needs (the top k values for kh k, the bottom n and the total for dl n, ...)."""
    spec = PoolSpec(t.stage5, t.success, t.failure, t.double, t.ra, budget)

    def elem(d: W) -> W:
        return spec.elements(d)

    if t.chain_explode:
        variant, test, cap = t.explode
        pen = variant == "penetrate"
        first = lambda v: elem(T1(v))  # noqa: E731
        added = (lambda v: elem(T1(v - 1))) if pen else first
        one = chain(base, btot, test, cap, thr_die, first, added, spec.join, budget)
    else:
        one = elem(die_value())
    pool = nfold_join(one.reduced(), count, spec.join)
    if t.ra is not None:
        extra = spec.elements(W(dict(base), btot, 0), flag=False)
        parts = []
        for st, w in pool.pmf.items():
            parts.append((w, spec.join(point(st), extra) if st[2] else point(st)))
        pool = mixture(parts, pool.den, pool.cut, budget)
    return pool.map(spec.value).reduced()


def _explode_term(count: int, base: dict, btot: int, test, limit: int, T1, score, budget: Budget | None) -> W:
    """Foundry's ``x3<5``: one budget of ``limit`` explosions for the whole term. The dice are
    rolled; each die that triggers asks for one more die while the budget lasts (the order does
    not change the distribution: every die is independent). Exact, by a walk over (pending
    explosions, total) states: no cut-off (the budget is finite)."""
    faces = []
    for v, w in base.items():
        e = T1(v).map(score)
        faces.append((Fraction(w, btot), bool(test(v)), [(x, Fraction(c, e.den)) for x, c in e.pmf.items()]))
    states: dict = {(0, 0): Fraction(1)}

    def roll_one(states, only_pending: bool) -> dict:
        out: dict = {}
        for (p, tot), q in states.items():
            if only_pending and p == 0:
                out[(p, tot)] = out.get((p, tot), 0) + q
                continue
            p_after = p - 1 if only_pending else p
            for fp, trig, contrib in faces:
                pp = p_after + trig
                for x, cx in contrib:
                    key = (pp, tot + x)
                    out[key] = out.get(key, 0) + q * fp * cx
        if budget is not None:
            budget.spend(len(out) * len(faces) + 1, "explosions")
        return out

    for _ in range(count):
        states = roll_one(states, False)
    for _ in range(limit):
        if all(p == 0 for p, _ in states):
            break
        states = roll_one(states, True)
    pmf: dict = {}
    for (_, tot), q in states.items():
        pmf[tot] = pmf.get(tot, 0) + q
    den = 1
    for q in pmf.values():
        den = den * q.denominator // math.gcd(den, q.denominator)
    return W({v: int(q * den) for v, q in pmf.items() if q}, den, 0).reduced()


def _with_ra(count, base, btot, explode, T1, T2, ra, stage5, success, failure, double, thr, budget):
    """Additive terms with reroll-and-add: total = sum of the dice + (one extra die if any die
    matches). By inclusion-exclusion: S = F^N with the part R^N where no die matches taken out,
    convolved with the extra die, plus R^N."""
    selects = [("sep" if kind == "sep" else variant, op, val) for kind, variant, n, op, val in stage5]
    f = score_fn(success, failure, double, selects)

    def elem(mask):
        def e(v):
            d = T1(v)
            parts = []
            excluded = 0
            for u, w in d.pmf.items():
                if mask and ra(u):
                    excluded += w
                    continue
                parts.append((w, T2(u).map(f)))
            if not parts:
                return W({}, 1, 1)
            return mixture(parts, d.den, d.cut + excluded, budget)

        return e

    def one(mask):
        e = elem(mask)
        if explode is not None and explode[0] in ("explode", "penetrate"):
            variant, test, cap = explode
            added = (lambda v: e(v - 1)) if variant == "penetrate" else e
            return chain(base, btot, test, cap, thr, e, added, lambda a, b: add(a, b, budget), budget)
        if explode is not None:
            v = compound(base, btot, explode, thr, budget)
            return mixture([(w, e(x)) for x, w in v.pmf.items()], v.den, v.cut, budget)
        return _cond([(w, e(v)) for v, w in base.items()], budget)

    F = nfold(one(False).reduced(), count, budget)
    X = T2.map_dist(W(dict(base), btot, 0)).map(f)
    no_match = one(True).reduced()
    if not no_match.pmf:
        # every face matches 'ra' (2d1ra1): some die always matches, so the extra die is
        # always rolled
        return add(F, X, budget).reduced()
    R = nfold(no_match, count, budget)
    # bring F and R to one denominator
    den = F.den * R.den // math.gcd(F.den, R.den)
    kf, kr = den // F.den, den // R.den
    diff = {}
    for v, w in F.pmf.items():
        d = w * kf - R.pmf.get(v, 0) * kr
        if d:
            diff[v] = d
    matched = add(W(diff, den, den - sum(diff.values())), X, budget)
    out = dict(matched.pmf)
    scale = matched.den // den
    for v, w in R.pmf.items():
        out[v] = out.get(v, 0) + w * kr * scale
    tot = matched.den
    return W(out, tot, tot - sum(out.values())).reduced()


def _unique_pool(D: W, count: int, base: dict, btot: int, cap: int, thr: Fraction, cp_test, budget: Budget | None) -> W:
    """``u``/``uo``: the dice in order; a die showing a value already seen is rerolled (fresh
    rolls of the clamped die) while it shows a seen value, at most ``cap`` times. States: the
    sorted tuple of the values so far (the seen set is its set)."""
    memo: dict = {}

    def after(seen: frozenset) -> W:
        u = memo.get(seen)
        if u is None:
            # u<=4 (rpg-dice-roller): only a duplicate that matches is rerolled
            again = seen.__contains__ if cp_test is None else (lambda v: v in seen and cp_test(v))
            if not any(again(v) for v in D.pmf):
                u = D
            else:
                fresh = reroll_fresh(base, btot, again, cap, thr, budget)
                u = mixture([(w, fresh if again(v) else point(v)) for v, w in D.pmf.items()], D.den, D.cut, budget)
            memo[seen] = u
        return u

    pool = point(())
    for _ in range(count):
        if len(pool.pmf) * len(D.pmf) > core.MAX_MULTISETS:
            raise (budget or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        parts = []
        for state, w in pool.pmf.items():
            u = after(frozenset(state))
            if budget is not None:
                budget.spend(8 * len(u.pmf), "unique dice")
            parts.append((w, u.map(lambda x, st=state: tuple(sorted(st + (x,))))))
        pool = mixture(parts, pool.den, pool.cut, budget)
        if len(pool.pmf) > core.MAX_MULTISETS:
            raise (budget or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        if budget is not None:
            budget.spend(len(pool.pmf), "unique dice")
    return pool
