"""Exact distributions of one dice term with fixed parameters (count, faces, compare points).

The result of :func:`term` is cached (``functools.lru_cache``) on a canonical description of the
term: the count, the clamped face weights, the modifiers in the engine's stage order with their
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
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from math import comb

from . import exact_core as core
from .diceast import MOD_ORDER, compare_fn
from .errors import DiceError
from .exact_core import W, add, mixture, nfold, point

#: the order a term's modifiers are applied in (one table for both engines)
STAGE = MOD_ORDER

#: the budget of the running distribution() call (set by exact.distribution)
BUDGET: core.Budget | None = None


_test = compare_fn


def _lt(a: int, b: int, thr: Fraction) -> bool:
    """a/b < thr."""
    return a * thr.denominator < thr.numerator * b


# ---------------------------------------------------------------------------------------------
# per-die building blocks
# ---------------------------------------------------------------------------------------------
def _cond(parts: list[tuple[int, W]]) -> W:
    """The conditional mixture of ``parts`` (weights need not sum to anything in particular)."""
    tot = sum(w for w, _ in parts)
    return mixture(parts, tot, 0)


def chain(base: dict, btot: int, test, cap: int, thr: Fraction, elem_first, elem_added, join):
    """One die with a (non-compound or compound) explosion: the element-wise contributions
    ``elem_first(v)`` (the first roll) and ``elem_added(v)`` (each extra roll) joined by
    ``join``. ``test`` decides on the clamped face ``v`` whether another roll follows; at most
    ``cap`` extra rolls; the chain is followed until its remaining mass is below ``thr`` (then
    cut off and reported)."""
    E = [(v, w) for v, w in base.items() if test(v)]
    N = [(v, w) for v, w in base.items() if not test(v)]
    WE = sum(w for _, w in E)
    WN = btot - WE
    if WE == 0 or cap == 0:
        return _cond([(w, elem_first(v)) for v, w in base.items()])
    HF_E = _cond([(w, elem_first(v)) for v, w in E])
    HA_E = _cond([(w, elem_added(v)) for v, w in E])
    HA_all = _cond([(w, elem_added(v)) for v, w in base.items()])
    parts: list[tuple[int, W]] = []  # (k, W) with weight computed at the end
    if WN:
        HF_N = _cond([(w, elem_first(v)) for v, w in N])
        HA_N = _cond([(w, elem_added(v)) for v, w in N])
        parts.append((0, HF_N))
    prefix = HF_E  # first k elements all exploding
    k = 1
    cut_k = None
    while True:
        if BUDGET is not None:
            BUDGET.spend(len(prefix.pmf) + 1, "an explosion")
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
    return mixture(weighted, pden, pcut)


def reroll_fresh(base: dict, btot: int, test, cap: int, thr: Fraction) -> W:
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
        if BUDGET is not None:
            BUDGET.spend(len(base), "rerolls")
    return W(out, den, cut).reduced()


class ElementMap:
    """value -> distribution after the per-die reroll passes (``r``, ``ro``), memoised."""

    def __init__(self, base, btot, passes, thr):
        self.base, self.btot, self.passes, self.thr = base, btot, passes, thr
        self.fresh = [reroll_fresh(base, btot, t, cap, thr) for t, cap in passes]
        self.memo: dict = {}

    def __call__(self, v) -> W:
        r = self.memo.get(v)
        if r is None:
            r = point(v)
            for (test, _), fresh in zip(self.passes, self.fresh):
                r = _apply_pass(r, test, fresh)
            self.memo[v] = r
        return r

    def map_dist(self, d: W) -> W:
        if not self.passes:
            return d
        return mixture([(w, self(v)) for v, w in d.pmf.items()], d.den, d.cut)


def _apply_pass(d: W, test, fresh: W) -> W:
    if not any(test(v) for v in d.pmf):
        return d
    parts = [(w, fresh if test(v) else point(v)) for v, w in d.pmf.items()]
    return mixture(parts, d.den, d.cut)


# ---------------------------------------------------------------------------------------------
# keep/drop: order statistics over identical dice
# ---------------------------------------------------------------------------------------------
def keep_ranks(stage5: list, L: int) -> tuple[int, int] | None:
    """The kept rank range [lo, hi) from the top for L dice after rank keep/drop modifiers that
    each select from the whole pool (keeps: union; drops: taken out); None when what is kept is
    not one contiguous range (``kh1kl1``) or there are value selectors or several stages."""
    keeps = None
    drops: set = set()
    for kind, variant, n, *_ in stage5:
        if kind != "keep":
            return None
        n = min(max(0, n or 0), L)
        chosen = set(range(n)) if variant in ("kh", "dh") else set(range(L - n, L))
        if variant in ("kh", "kl"):
            keeps = chosen if keeps is None else keeps | chosen
        else:
            drops |= chosen
    kept = (set(range(L)) if keeps is None else keeps) - drops
    if not kept:
        return 0, 0
    lo, hi = min(kept), max(kept) + 1
    return (lo, hi) if hi - lo == len(kept) else None


def order_stat_dp(faces: list[tuple[int, int]], N: int, lo: int, hi: int, score) -> W:
    """Sum of ``score(v)`` over the dice of ranks [lo, hi) (from the top) among ``N`` iid dice
    with integer face weights ``faces`` (value, weight). DP over face values from the top:
    state = dice placed so far (< hi), the partial score as a packed polynomial."""
    tot = sum(w for _, w in faces)
    den = tot**N
    if hi <= lo or N == 0:
        return W({0: den}, den, 0) if den else W({0: 1}, 1, 0)
    # choose the cheaper direction
    if N - lo < hi:
        faces = sorted(faces)  # ascending: ranks from the bottom
        lo, hi = N - hi, N - lo
    else:
        faces = sorted(faces, reverse=True)
    scores = [score(v) for v, _ in faces]
    if lo == 0 and hi == 1:
        # a single extreme die: P(top = v) = P(all at or past v)^N - P(all past v)^N
        pmf: dict = {}
        rest = tot
        for (v, w), s in zip(faces, scores):
            nxt = rest - w
            x = rest**N - nxt**N
            if x:
                pmf[s] = pmf.get(s, 0) + x
            rest = nxt
        return W(pmf, den, 0)
    smin = min(0, min(scores))
    smax = max(0, max(scores))
    cnt = hi - lo
    off = cnt * -smin
    nslots = cnt * (smax - smin) + 1
    if BUDGET is not None:
        BUDGET.support(nslots)
    nb = core.slot_bytes(den)
    bits = nb * 8
    if BUDGET is not None:
        size = nslots * nb
        if size > core.MAX_PACKED:
            raise BUDGET.too_large(f"keep/drop needs more than {core.MAX_PACKED // 1_000_000} MB")
        BUDGET.spend(len(faces) * hi * (hi + 1) // 2 * max(1, size // 4096), "keep/drop")
    states = {0: 1 << (off * bits)}
    finished = 0
    below = tot
    for idx, (v, w) in enumerate(faces):
        below -= w
        s = scores[idx]
        new: dict = {}
        if BUDGET is not None:
            BUDGET.spend(len(states) * (hi + 1), "keep/drop")
        for j, poly in states.items():
            if BUDGET is not None:
                BUDGET.spend(0)
            rem = N - j
            need = hi - j  # dice still to place before the kept ranks are full
            first = max(j, lo)
            wc = 1
            for c in range(min(need, rem + 1)):
                if c:
                    wc *= w
                nj = j + c
                counted = nj - first
                p = poly
                if counted > 0 and s:
                    sh = counted * s * bits
                    p = p << sh if sh > 0 else p >> -sh
                p = p * (comb(rem, c) * wc)
                if nj == N:
                    finished += p
                else:
                    new[nj] = new.get(nj, 0) + p
            if need <= rem:
                # c >= need dice at v: the kept ranks fill up here, the rest lie below v
                tail = (w + below) ** rem
                wc = 1
                for c in range(need):
                    if c:
                        wc *= w
                    tail -= comb(rem, c) * wc * below ** (rem - c)
                if tail:
                    counted = hi - first
                    p = poly
                    if counted > 0 and s:
                        sh = counted * s * bits
                        p = p << sh if sh > 0 else p >> -sh
                    finished += p * tail
        states = new
        if not states:
            break
    pmf = core.unpack(finished, -off, nb)
    return W(pmf, den, 0)


# ---------------------------------------------------------------------------------------------
# the term
# ---------------------------------------------------------------------------------------------
def score_fn(success, failure, double, selects_after):
    st = _test(*success) if success else None
    ft = _test(*failure) if failure else None
    dt = _test(*double) if double else None
    # value selectors, as d20 and rpg-dice-roller: within one stage the keeps combine as a
    # union and the drops are taken out; stages (a one-member group's own) apply in turn
    stages: list = [([], [])]
    for variant, op, t in selects_after:
        if variant == "sep":
            stages.append(([], []))
        else:
            stages[-1][0 if variant == "keep" else 1].append(_test(op, t))
    stages = [st for st in stages if st[0] or st[1]]

    def selected(v) -> bool:
        for keeps, drops in stages:
            if keeps and not any(t(v) for t in keeps):
                return False
            if any(t(v) for t in drops):
                return False
        return True

    def score(v):
        if stages and not selected(v):
            return 0
        if st is None:
            return v
        s = 0
        if st(v):
            s = 2 if dt is not None and dt(v) else 1
        if ft is not None and ft(v):
            s -= 1
        return s

    return score


@lru_cache(maxsize=2048)
def term(count: int, faces: tuple, mods: tuple, max_expl: int, thr: Fraction) -> W:
    """The distribution of one dice term. ``faces``: ((value, weight), ...) after clamping;
    ``mods``: ((kind, variant, n, op, value), ...) in stage order (crit/sort removed;
    ``op``/``value`` of the compare point, None for the default)."""
    base = dict(faces)
    btot = sum(base.values())
    hi_face = max(base)
    lo_face = min(base)
    n_dice = max(1, count)
    thr_die = thr / n_dice
    explode = None
    passes_before, ra, passes_after = [], None, []
    unique = None
    stage5 = []
    success = failure = double = None
    for kind, variant, n, op, val in mods:
        if kind == "explode":
            op, val = (op, val) if op else ("=", hi_face)
            cap = max_expl if n is None else min(n, max_expl)
            explode = (variant, _test(op, val), cap)
        elif kind == "reroll":
            op, val = (op, val) if op else ("=", lo_face)
            if variant == "add":
                if ra is not None:
                    raise DiceError("exact odds support one 'ra' per term")
                ra = _test(op, val)
            else:
                # ro: once; r/rr: until the die stops matching, an unbounded reroll, so exactly the
                # die conditioned on not matching (cap None), with no truncated mass
                cap = 1 if variant == "once" else None
                (passes_after if ra is not None else passes_before).append((_test(op, val), cap))
        elif kind == "unique":
            unique = (variant, _test(op, val) if op else None)
        elif kind in ("keep", "select", "sep"):
            stage5.append((kind, variant, n, op, val))
        elif kind == "success":
            success = (op, val)
        elif kind == "failure":
            failure = (op, val)
        elif kind == "double":
            double = (op, val)
    if count == 0:
        return point(0)
    T1 = ElementMap(base, btot, passes_before, thr_die)
    T2 = ElementMap(base, btot, passes_after, thr_die)
    keeps = [m for m in stage5 if m[0] == "keep"]
    chain_explode = explode is not None and explode[0] in ("explode", "penetrate")
    if unique is not None and (chain_explode or ra is not None):
        raise DiceError(
            "exact odds are not available for unique dice ('u', 'uo') together with "
            "'!'/'!p' or 'ra' (each die depends on all the dice before it); "
            "roll() still works",
            message_ru="точные вероятности для уникальных кубиков ('u', 'uo') вместе "
            "с '!'/'!p' или 'ra' не считаются: бросок работает",
        )

    # the single value of one die (no chain of separate dice): compound or no explosion
    def die_value() -> W:
        if explode is None:
            return T1.map_dist(W(dict(base), btot, 0))
        variant, test, cap = explode
        pen = variant == "compound_penetrate"
        v = chain(
            base,
            btot,
            test,
            cap,
            thr_die,
            point,
            (lambda x: point(x - 1)) if pen else point,
            lambda a, b: add(a, b, BUDGET),
        )
        return T1.map_dist(v)

    if explode is not None and explode[0] == "explode_term":
        if keeps or ra is not None or unique is not None:
            raise DiceError(
                "exact odds are not available for Foundry's term-wide explosion "
                "budget (x3<5) together with keep/drop, 'ra' or unique dice; "
                "roll() still works",
                message_ru="точные вероятности для общего лимита взрывов Foundry "
                "(x3<5) вместе с keep/drop, 'ra' или уникальными кубиками "
                "не считаются: бросок работает",
            )
        selects = [("sep" if kind == "sep" else variant, op, val) for kind, variant, n, op, val in stage5]
        return _explode_term(count, base, btot, explode[1], explode[2], T1, score_fn(success, failure, double, selects))

    if unique is not None:
        pool = _unique_pool(die_value(), count, base, btot, 1 if unique[0] == "once" else max_expl, thr_die, unique[1])
        score_all = score_fn(success, failure, double, [])
        return pool.map(lambda vals: _multiset_value(vals, stage5, score_all)).reduced()

    if not keeps and ra is None:
        # additive: N-fold convolution of one die's contribution
        selects = [("sep" if kind == "sep" else variant, op, val) for kind, variant, n, op, val in stage5]
        f = score_fn(success, failure, double, selects)
        if chain_explode:
            variant, test, cap = explode
            pen = variant == "penetrate"
            first = lambda v: T1(v).map(f)  # noqa: E731
            added = (lambda v: T1(v - 1).map(f)) if pen else first
            one = chain(base, btot, test, cap, thr_die, first, added, lambda a, b: add(a, b, BUDGET))
        else:
            one = die_value().map(f)
        return nfold(one.reduced(), count, BUDGET).reduced()

    if ra is not None and not keeps:
        return _with_ra(count, base, btot, explode, T1, T2, ra, stage5, success, failure, double, thr_die)

    # keep/drop present
    if not chain_explode and ra is None:
        D = die_value()
        if all(type(v) is int for v in D.pmf):
            r = _keep_iid(D, count, stage5, success, failure, double)
            if r is not None:
                if D.cut:
                    # r is conditional on no die being cut off: P(none cut) = (live/den)^count
                    lp, dp = D.live**count, D.den**count
                    pmf = {v: w * lp for v, w in r.pmf.items()}
                    tot = r.den * dp
                    r = W(pmf, tot, tot - sum(pmf.values())).reduced()
                return r
        spec = PoolSpec(stage5, success, failure, double, None)
        return nfold_join(spec.elements(D).reduced(), count, spec.join).map(spec.value).reduced()
    if passes_after:
        raise DiceError("exact odds: rerolls after 'ra' combined with keep/drop are not supported; roll() still works")
    # chain explosions (or ra) with keep/drop: the pool as states that keep only what the
    # keep/drop needs (the top k values for kh k, the bottom n and the total for dl n, ...)
    spec = PoolSpec(stage5, success, failure, double, ra)

    def elem(d: W) -> W:
        return spec.elements(d)

    if chain_explode:
        variant, test, cap = explode
        pen = variant == "penetrate"
        first = lambda v: elem(T1(v))  # noqa: E731
        added = (lambda v: elem(T1(v - 1))) if pen else first
        one = chain(base, btot, test, cap, thr_die, first, added, spec.join)
    else:
        one = elem(die_value())
    pool = nfold_join(one.reduced(), count, spec.join)
    if ra is not None:
        extra = spec.elements(W(dict(base), btot, 0), flag=False)
        parts = []
        for st, w in pool.pmf.items():
            parts.append((w, spec.join(point(st), extra) if st[2] else point(st)))
        pool = mixture(parts, pool.den, pool.cut)
    return pool.map(spec.value).reduced()


class PoolSpec:
    """What a pool state keeps for the keep/drop modifiers of a term: ``(values, total, flag)``
    with ``values`` a sorted tuple (the k highest for ``kh k``, the n lowest for ``dl n``...,
    everything when the modifiers are more complex), ``total`` the score of every die (for
    drops: kept = total - dropped) and ``flag`` whether a die matched ``ra``."""

    def __init__(self, stage5, success, failure, double, ra):
        self.ra = ra
        # one rank keep/drop alone keeps only the n dice it needs; anything else (several keep
        # and drop modifiers selecting from the whole pool, value selectors) keeps every value
        simple = len(stage5) == 1 and stage5[0][0] == "keep"
        self.stage5 = stage5
        self.score_all = score_fn(success, failure, double, [])
        if simple:
            self.live = []
            self.score = self.score_all
            _, variant, n, _, _ = stage5[0]
            self.n = max(0, n or 0)
            self.top = variant in ("kh", "dh")
            self.drop = variant in ("dh", "dl")
        else:
            self.live = []
            self.score = None
            self.n = None
            self.top = self.drop = False

    def elements(self, d: W, flag=None) -> W:
        out: dict = {}
        for u, w in d.pmf.items():
            f = bool(self.ra(u)) if (self.ra is not None and flag is None) else False
            if any(t(u) != k for t, k in self.live):
                st = ((), 0, f)
            else:
                st = ((u,), self.score(u) if self.drop and self.n is not None else 0, f)
            out[st] = out.get(st, 0) + w
        return W(out, d.den, d.cut)

    def _merge(self, a, b):
        va, vb = a[0], b[0]
        if not va:
            vals = vb
        elif not vb:
            vals = va
        else:
            vals = tuple(sorted(va + vb))
            n = self.n
            if n is not None and len(vals) > n:
                vals = vals[len(vals) - n :] if self.top else vals[:n]
        return (vals, a[1] + b[1], a[2] or b[2])

    def join(self, a: W, b: W) -> W:
        r = core.combine(a, b, self._merge, BUDGET)
        if len(r.pmf) > core.MAX_MULTISETS:
            raise (BUDGET or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        return r

    def value(self, st):
        vals, total, _ = st
        if self.n is None:
            return _multiset_value(vals, self.stage5, self.score_all)
        if self.drop:
            return total - sum(self.score(v) for v in vals)
        return sum(self.score(v) for v in vals)


def _explode_term(count: int, base: dict, btot: int, test, budget: int, T1, score) -> W:
    """Foundry's ``x3<5``: one budget of ``budget`` explosions for the whole term. The dice are
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
        if BUDGET is not None:
            BUDGET.spend(len(out) * len(faces) + 1, "explosions")
        return out

    for _ in range(count):
        states = roll_one(states, False)
    for _ in range(budget):
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


def nfold_join(one: W, n: int, join) -> W:
    if n == 0:
        return point(((), 0, False))
    result = None
    base = one
    while n:
        if n & 1:
            result = base if result is None else join(result, base)
        n >>= 1
        if n:
            base = join(base, base)
    return result


def _multiset_value(vals: tuple, stage5, score) -> int:
    vals = sorted(vals, reverse=True)  # from the top: rank 0 is the highest
    stage: list = []
    for m in list(stage5) + [("sep",)]:
        if m[0] != "sep":
            stage.append(m)
            continue
        if stage:
            keeps = None
            drops: set = set()
            L = len(vals)
            for kind, variant, n, op, t in stage:
                if kind == "keep":
                    n = min(max(0, n or 0), L)
                    chosen = set(range(n)) if variant in ("kh", "dh") else set(range(L - n, L))
                    is_keep = variant in ("kh", "kl")
                else:
                    test = _test(op, t)
                    chosen = {i for i in range(L) if test(vals[i])}
                    is_keep = variant == "keep"
                if is_keep:
                    keeps = chosen if keeps is None else keeps | chosen
                else:
                    drops |= chosen
            kept = (set(range(L)) if keeps is None else keeps) - drops
            vals = [vals[i] for i in range(L) if i in kept]
        stage = []
    return sum(score(v) for v in vals)


def _keep_iid(D: W, count: int, stage5, success, failure, double):
    """Order statistics for rank keep/drop on ``count`` iid dice; None when what is kept is not
    one contiguous rank range (value selectors, ``kh1kl1``, several stages)."""
    ranks = keep_ranks(stage5, count)
    if ranks is None:
        return None
    score = score_fn(success, failure, double, [])
    return order_stat_dp(list(D.pmf.items()), count, ranks[0], ranks[1], score).reduced()


def _with_ra(count, base, btot, explode, T1, T2, ra, stage5, success, failure, double, thr):
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
            return mixture(parts, d.den, d.cut + excluded)

        return e

    def one(mask):
        e = elem(mask)
        if explode is not None and explode[0] in ("explode", "penetrate"):
            variant, test, cap = explode
            added = (lambda v: e(v - 1)) if variant == "penetrate" else e
            return chain(base, btot, test, cap, thr, e, added, lambda a, b: add(a, b, BUDGET))
        if explode is not None:
            variant, test, cap = explode
            pen = variant == "compound_penetrate"
            v = chain(
                base,
                btot,
                test,
                cap,
                thr,
                point,
                (lambda x: point(x - 1)) if pen else point,
                lambda a, b: add(a, b, BUDGET),
            )
            return mixture([(w, e(x)) for x, w in v.pmf.items()], v.den, v.cut)
        return _cond([(w, e(v)) for v, w in base.items()])

    F = nfold(one(False).reduced(), count, BUDGET)
    X = T2.map_dist(W(dict(base), btot, 0)).map(f)
    no_match = one(True).reduced()
    if not no_match.pmf:
        # every face matches 'ra' (2d1ra1): some die always matches, so the extra die is
        # always rolled
        return add(F, X, BUDGET).reduced()
    R = nfold(no_match, count, BUDGET)
    # bring F and R to one denominator
    den = F.den * R.den // math.gcd(F.den, R.den)
    kf, kr = den // F.den, den // R.den
    diff = {}
    for v, w in F.pmf.items():
        d = w * kf - R.pmf.get(v, 0) * kr
        if d:
            diff[v] = d
    matched = add(W(diff, den, den - sum(diff.values())), X, BUDGET)
    out = dict(matched.pmf)
    scale = matched.den // den
    for v, w in R.pmf.items():
        out[v] = out.get(v, 0) + w * kr * scale
    tot = matched.den
    return W(out, tot, tot - sum(out.values())).reduced()


def _unique_pool(D: W, count: int, base: dict, btot: int, cap: int, thr: Fraction, cp_test=None) -> W:
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
                fresh = reroll_fresh(base, btot, again, cap, thr)
                u = mixture([(w, fresh if again(v) else point(v)) for v, w in D.pmf.items()], D.den, D.cut)
            memo[seen] = u
        return u

    pool = point(())
    for _ in range(count):
        if len(pool.pmf) * len(D.pmf) > core.MAX_MULTISETS:
            raise (BUDGET or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        parts = []
        for state, w in pool.pmf.items():
            u = after(frozenset(state))
            if BUDGET is not None:
                BUDGET.spend(8 * len(u.pmf), "unique dice")
            parts.append((w, u.map(lambda x, st=state: tuple(sorted(st + (x,))))))
        pool = mixture(parts, pool.den, pool.cut)
        if len(pool.pmf) > core.MAX_MULTISETS:
            raise (BUDGET or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        if BUDGET is not None:
            BUDGET.spend(len(pool.pmf), "unique dice")
    return pool
