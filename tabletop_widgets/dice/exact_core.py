"""Integer-weight distributions and the fast kernels behind :mod:`tabletop_widgets.dice.exact`.

A :class:`W` is an exact distribution kept as integer weights over one common denominator:
``pmf[value] / den`` is the probability of ``value`` and ``cut / den`` is the mass cut off by a
depth limit (explosions, rerolls). Values are ``int`` or ``Fraction`` (after ``/``); weights are
always ``int``, so sums and convolutions never build a ``Fraction`` until the very end.

Convolutions of integer-valued distributions use Kronecker substitution: the weights are packed
into one big integer (a fixed number of bytes per value slot) and multiplied with CPython's
Karatsuba multiplication, then unpacked. The slot is wide enough for the largest possible weight
(the product of the denominators), so no carry ever crosses slots.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from .errors import DiceLimitError

# ---------------------------------------------------------------------------------------------
# budget
# ---------------------------------------------------------------------------------------------
MAX_SUPPORT = 200_000  # distinct outcomes of any intermediate distribution
MAX_WORK = 4_000_000  # elementary steps (pair products, DP transitions) per expression
MAX_MULTISETS = 200_000  # pool states of the generic multiset enumeration
MAX_MIXTURE = 20_000  # joint values of computed counts / faces / compare points per term
TIME_LIMIT = 5.0  # seconds of wall time per expression
MAX_PACKED = 1_000_000  # bytes of one packed polynomial (convolutions, keep/drop DP)


class Budget:
    """Counts work and wall time for one ``distribution()`` call; raises ``DiceLimitError``.

    ``clock`` (default ``time.monotonic``) is read at every step (each ``spend``/``check``):
    every loop of the kernels and every big multiplication of packed polynomials checks, and
    the call checks once more when it has finished, so no result comes back after the limit.
    The largest step between two checks is one multiplication of packed polynomials of at most
    ``MAX_PACKED`` bytes. Tests inject a clock to check this without timing anything."""

    __slots__ = ("work", "deadline", "text", "clock", "limit")

    def __init__(self, text: str = "", *, clock=None, limit: float | None = None):
        self.work = 0
        self.clock = clock or time.monotonic
        self.limit = TIME_LIMIT if limit is None else limit
        self.deadline = self.clock() + self.limit
        self.text = text

    def spend(self, n: int, what: str = "") -> None:
        self.work += n
        if self.work > MAX_WORK:
            raise self.too_large(f"more than {MAX_WORK:,} steps" + (f" ({what})" if what else ""))
        if self.clock() > self.deadline:
            raise self.too_large(f"more than {self.limit:g} s")

    def check(self) -> None:
        """Refuse once the time is up."""
        if self.clock() > self.deadline:
            raise self.too_large(f"more than {self.limit:g} s")

    def support(self, n: int) -> None:
        if n > MAX_SUPPORT:
            raise self.too_large(f"more than {MAX_SUPPORT:,} distinct outcomes")

    def too_large(self, why: str) -> DiceLimitError:
        return DiceLimitError(
            f"too large for exact odds ({why}); roll() still works",
            None,
            self.text or None,
            message_ru=f"слишком сложно для точных вероятностей ({why}); бросок работает",
        )


_NO_BUDGET = None


# ---------------------------------------------------------------------------------------------
# the weight distribution
# ---------------------------------------------------------------------------------------------
class W:
    """``pmf``: value -> int weight; ``den``: the common denominator; ``cut``: the truncated
    weight. Invariant: ``sum(pmf.values()) + cut == den``. Treat as immutable (cached)."""

    __slots__ = ("pmf", "den", "cut")

    def __init__(self, pmf: dict, den: int, cut: int = 0):
        self.pmf = pmf
        self.den = den
        self.cut = cut

    @property
    def live(self) -> int:
        return self.den - self.cut

    def is_int(self) -> bool:
        return all(type(v) is int for v in self.pmf)

    def reduced(self) -> "W":
        g = self.den
        for w in self.pmf.values():
            g = math.gcd(g, w)
            if g == 1:
                return self
        g = math.gcd(g, self.cut)
        if g == 1:
            return self
        return W({v: w // g for v, w in self.pmf.items()}, self.den // g, self.cut // g)

    def scaled(self, k: int) -> "W":
        """The same distribution over denominator ``den * k``."""
        if k == 1:
            return self
        return W({v: w * k for v, w in self.pmf.items()}, self.den * k, self.cut * k)

    def map(self, fn) -> "W":
        out: dict = {}
        for v, w in self.pmf.items():
            u = fn(v)
            out[u] = out.get(u, 0) + w
        return W(out, self.den, self.cut)

    def fractions(self) -> tuple[dict, Fraction]:
        den = self.den
        return {v: Fraction(w, den) for v, w in self.pmf.items() if w}, Fraction(self.cut, den)

    def __repr__(self):  # pragma: no cover - debugging aid
        return f"W({dict(sorted(self.pmf.items()))}, den={self.den}, cut={self.cut})"


def point(v) -> W:
    return W({v: 1}, 1, 0)


ZERO = point(0)


# ---------------------------------------------------------------------------------------------
# packing (Kronecker substitution)
# ---------------------------------------------------------------------------------------------
def slot_bytes(max_weight: int) -> int:
    return max(1, (max_weight.bit_length() + 8) // 8)


def pack(pmf: dict, lo: int, nbytes: int) -> int:
    if not pmf:
        return 0
    hi = max(pmf)
    buf = bytearray((hi - lo + 1) * nbytes)
    for v, w in pmf.items():
        if w:
            o = (v - lo) * nbytes
            buf[o : o + nbytes] = w.to_bytes(nbytes, "little")
    return int.from_bytes(buf, "little")


def unpack(x: int, lo: int, nbytes: int, budget: Budget | None = None) -> dict:
    if x == 0:
        return {}
    b = x.to_bytes((x.bit_length() + 7) // 8, "little")
    out = {}
    frm = int.from_bytes
    v = lo
    for o in range(0, len(b), nbytes):
        w = frm(b[o : o + nbytes], "little")
        if w:
            out[v] = w
        v += 1
        if budget is not None and not v & 0x3FFF:
            budget.check()
    return out


def _span(pmf) -> int:
    return max(pmf) - min(pmf) + 1


# ---------------------------------------------------------------------------------------------
# operations
# ---------------------------------------------------------------------------------------------
def add(a: W, b: W, budget: Budget | None = None) -> W:
    """The distribution of the sum of two independent variables."""
    pa, pb = a.pmf, b.pmf
    den = a.den * b.den
    cut = den - a.live * b.live
    if len(pa) == 1 or len(pb) == 1:
        if len(pa) == 1:
            ((va, wa),) = pa.items()
            return W({va + v: wa * w for v, w in pb.items()}, den, cut)
        ((vb, wb),) = pb.items()
        return W({v + vb: w * wb for v, w in pa.items()}, den, cut)
    if budget is not None:
        budget.spend(len(pa) * len(pb) // 8 + 1, "a sum")
    if len(pa) * len(pb) > 256 and a.is_int() and b.is_int():
        la, lb = min(pa), min(pb)
        if _span(pa) + _span(pb) < 4 * (len(pa) + len(pb)) + 64:
            nb = slot_bytes(a.live * b.live)
            if budget is not None and (_span(pa) + _span(pb)) * nb > MAX_PACKED:
                raise budget.too_large(f"a sum needs more than {MAX_PACKED // 1_000_000} MB")
            xa, xb = pack(pa, la, nb), pack(pb, lb, nb)
            if budget is not None:
                budget.check()
            x = xa * xb
            if budget is not None:
                budget.check()
            return W(unpack(x, la + lb, nb, budget), den, cut)
    out: dict = {}
    get = out.get
    for va, wa in pa.items():
        for vb, wb in pb.items():
            s = va + vb
            out[s] = get(s, 0) + wa * wb
        if budget is not None:
            budget.check()
    if budget is not None:
        budget.support(len(out))
    return W(out, den, cut)


def _power(x: int, n: int, budget: Budget | None) -> int:
    """``x ** n`` by binary powering, the clock checked before every multiplication."""
    if budget is None:
        return x**n
    result = None
    while n:
        if n & 1:
            budget.check()
            result = x if result is None else result * x
        n >>= 1
        if n:
            budget.check()
            x = x * x
    budget.check()
    return result


def nfold(a: W, n: int, budget: Budget | None = None) -> W:
    """The sum of ``n`` independent copies of ``a``."""
    if n == 0:
        return ZERO
    if n == 1:
        return a
    pa = a.pmf
    if len(pa) == 1:
        ((v, w),) = pa.items()
        den = a.den**n
        return W({v * n: w**n}, den, den - w**n)
    den = a.den**n
    live = a.live**n
    if a.is_int():
        lo = min(pa)
        span = max(pa) - lo
        if span * n < 4_000_000 and span + 1 < 4 * len(pa) + 64:
            nb = slot_bytes(live)
            if budget is not None:
                budget.spend(span * n // 64 + 1, "a sum of many dice")
                budget.support(span * n + 1)
                if (span * n + 1) * nb > MAX_PACKED:
                    raise budget.too_large(f"a sum of {n} dice needs more than {MAX_PACKED // 1_000_000} MB")
            x = _power(pack(pa, lo, nb), n, budget)
            return W(unpack(x, lo * n, nb, budget), den, den - live)
    # generic: binary powering with dict convolutions
    result = None
    base = a
    k = n
    while k:
        if k & 1:
            result = base if result is None else add(result, base, budget)
        k >>= 1
        if k:
            base = add(base, base, budget)
    return result


def combine(a: W, b: W, fn, budget: Budget | None = None) -> W:
    """``fn(x, y)`` of independent ``x ~ a``, ``y ~ b`` (pairwise over the supports)."""
    if budget is not None:
        budget.spend(len(a.pmf) * len(b.pmf), "pairs of outcomes")
    out: dict = {}
    get = out.get
    bitems = list(b.pmf.items())
    tick = 0
    for va, wa in a.pmf.items():
        for vb, wb in bitems:
            s = fn(va, vb)
            out[s] = get(s, 0) + wa * wb
        tick += len(bitems)
        if tick > 50_000 and budget is not None:
            tick = 0
            budget.spend(0)
            budget.support(len(out))
    if budget is not None:
        budget.support(len(out))
    den = a.den * b.den
    return W(out, den, den - a.live * b.live)


def mixture(parts: list[tuple[int, W]], pden: int, pcut: int, budget: Budget | None = None) -> W:
    """``sum_i (w_i / pden) * parts_i`` plus ``pcut / pden`` cut off (a mixture over a
    parameter whose own distribution has weights ``w_i`` over ``pden``); ``budget`` is checked
    between the parts."""
    if len(parts) == 1 and pcut == 0 and parts[0][0] == pden:
        return parts[0][1]
    lcm = 1
    for _, d in parts:
        lcm = lcm * d.den // math.gcd(lcm, d.den)
    out: dict = {}
    get = out.get
    cut = pcut * lcm
    for w, d in parts:
        if budget is not None:
            budget.check()
        k = w * (lcm // d.den)
        for v, x in d.pmf.items():
            out[v] = get(v, 0) + k * x
        cut += k * d.cut
    return W(out, pden * lcm, cut).reduced()


def sub_weights(a: W, keep) -> dict:
    """The weights of the outcomes where ``keep(value)`` holds (a sub-distribution)."""
    return {v: w for v, w in a.pmf.items() if keep(v)}
