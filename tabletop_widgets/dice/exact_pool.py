"""Keep/drop over a pool of dice, for :mod:`.exact_dice` and the groups of :mod:`.exact`: which
ranks are kept, the order-statistics DP over identical dice, and the pool states
(:class:`PoolSpec`) that keep only what the keep/drop needs. Every function that may be costly
takes the running ``budget`` (``exact_core.Budget``, None: unlimited)."""

from __future__ import annotations

from math import comb

from . import exact_core as core
from .diceast import compare_fn
from .exact_core import W, point

_test = compare_fn


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


def order_stat_dp(
    faces: list[tuple[int, int]], N: int, lo: int, hi: int, score, budget: core.Budget | None = None
) -> W:
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
        return _one_extreme(faces, scores, N, tot, den)
    off, nb = _packing(scores, hi - lo, den, len(faces) * hi * (hi + 1) // 2, budget)
    bits = nb * 8
    states = {0: 1 << (off * bits)}
    finished = 0
    below = tot
    for idx, (v, w) in enumerate(faces):
        below -= w
        s = scores[idx]
        new: dict = {}
        if budget is not None:
            budget.spend(len(states) * (hi + 1), "keep/drop")
        for j, poly in states.items():
            if budget is not None:
                budget.spend(0)
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
                tail = _tail_weight(w, below, rem, need)
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


def _one_extreme(faces: list[tuple[int, int]], scores: list, N: int, tot: int, den: int) -> W:
    """A single extreme die: P(top = v) = P(all at or past v)^N - P(all past v)^N."""
    pmf: dict = {}
    rest = tot
    for (v, w), s in zip(faces, scores):
        nxt = rest - w
        x = rest**N - nxt**N
        if x:
            pmf[s] = pmf.get(s, 0) + x
        rest = nxt
    return W(pmf, den, 0)


def _packing(scores: list, cnt: int, den: int, steps: int, budget: core.Budget | None) -> tuple[int, int]:
    """The packed polynomial of ``cnt`` kept scores: its offset (slots below 0) and the bytes per
    slot; the budget is charged for its size and ``steps`` DP steps."""
    smin = min(0, min(scores))
    smax = max(0, max(scores))
    off = cnt * -smin
    nslots = cnt * (smax - smin) + 1
    if budget is not None:
        budget.support(nslots)
    nb = core.slot_bytes(den)
    if budget is not None:
        size = nslots * nb
        if size > core.MAX_PACKED:
            raise budget.too_large(f"keep/drop needs more than {core.MAX_PACKED // 1_000_000} MB")
        budget.spend(steps * max(1, size // 4096), "keep/drop")
    return off, nb


def _tail_weight(w: int, below: int, rem: int, need: int) -> int:
    """The weight of ``need`` or more of ``rem`` dice at a face of weight ``w``, the rest below
    it (total weight ``below``)."""
    tail = (w + below) ** rem
    wc = 1
    for c in range(need):
        if c:
            wc *= w
        tail -= comb(rem, c) * wc * below ** (rem - c)
    return tail


class PoolSpec:
    """What a pool state keeps for the keep/drop modifiers of a term: ``(values, total, flag)``
    with ``values`` a sorted tuple (the k highest for ``kh k``, the n lowest for ``dl n``...,
    everything when the modifiers are more complex), ``total`` the score of every die (for
    drops: kept = total - dropped) and ``flag`` whether a die matched ``ra``."""

    def __init__(self, stage5, success, failure, double, ra, budget: core.Budget | None = None):
        self.ra = ra
        self.budget = budget
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
        r = core.combine(a, b, self._merge, self.budget)
        if len(r.pmf) > core.MAX_MULTISETS:
            raise (self.budget or core.Budget()).too_large(f"more than {core.MAX_MULTISETS:,} pool states")
        return r

    def value(self, st):
        vals, total, _ = st
        if self.n is None:
            return multiset_value(vals, self.stage5, self.score_all)
        if self.drop:
            return total - sum(self.score(v) for v in vals)
        return sum(self.score(v) for v in vals)


def nfold_join(one: W, n: int, join) -> W:
    """``n`` pool elements ``one`` joined with ``join`` (by doubling)."""
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


def multiset_value(vals: tuple, stage5, score) -> int:
    """The score of the dice ``vals`` that the keep/drop and select stages ``stage5`` keep."""
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


def keep_iid(D: W, count: int, stage5, success, failure, double, budget: core.Budget | None = None):
    """Order statistics for rank keep/drop on ``count`` iid dice; None when what is kept is not
    one contiguous rank range (value selectors, ``kh1kl1``, several stages)."""
    ranks = keep_ranks(stage5, count)
    if ranks is None:
        return None
    score = score_fn(success, failure, double, [])
    return order_stat_dp(list(D.pmf.items()), count, ranks[0], ranks[1], score, budget).reduced()
