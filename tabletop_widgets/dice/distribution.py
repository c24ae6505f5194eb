"""Exact probability distributions over integer outcomes (values are ``fractions.Fraction``)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterable, Iterator, Mapping

from .diceast import OPS
from .errors import DiceError


class Distribution(Mapping[int, Fraction]):
    """An exact distribution: a read-only mapping ``outcome -> Fraction``.

    The probabilities sum to ``1 - truncated_mass``: for unbounded explosions and rerolls the tail
    beyond the computed depth is cut off and *reported* here, never silently dropped or
    renormalised. ``p_pass`` is the exact chance that a check passes (None when the expression
    is not a check); for checks the outcomes are the totals (``exact.margin_distribution`` gives
    total - target). ``special`` marks outcomes that are not numbers (RET's fail has no total: a
    word files it under a sentinel key with a label, e.g. ``{-1000: {"en": "fail", "ru":
    "провал"}}``); the mean and variance are taken over the numeric outcomes only, and the
    renderings show the label.
    """

    __slots__ = ("_pmf", "_keys", "truncated_mass", "p_pass", "expression", "outcome", "notes", "special")

    def __init__(
        self,
        pmf: Mapping[int, Fraction] | Iterable[tuple[int, Fraction]],
        *,
        truncated_mass: Fraction = Fraction(0),
        p_pass: Fraction | None = None,
        expression: str = "",
        outcome: str = "total",
        notes: Iterable = (),
        special: Mapping[int, Mapping[str, str]] | None = None,
    ):
        self.special = dict(special or {})
        items = pmf.items() if isinstance(pmf, Mapping) else pmf
        clean: dict[int, Fraction] = {}
        for k, p in items:
            p = Fraction(p)
            if p < 0:
                raise ValueError(f"negative probability {p} for outcome {k}")
            if p:
                clean[int(k)] = clean.get(int(k), Fraction(0)) + p
        self._pmf = dict(sorted(clean.items()))
        self._keys = list(self._pmf)
        self.truncated_mass = Fraction(truncated_mass)
        self.p_pass = None if p_pass is None else Fraction(p_pass)
        self.expression = expression
        self.outcome = outcome
        self.notes = list(notes)
        total = sum(self._pmf.values(), Fraction(0)) + self.truncated_mass
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")

    @classmethod
    def trusted(
        cls,
        pmf: dict,
        *,
        truncated_mass: Fraction = Fraction(0),
        p_pass: Fraction | None = None,
        expression: str = "",
        outcome: str = "total",
        notes: Iterable = (),
    ) -> "Distribution":
        """Build without re-validating: ``pmf`` must already map ``int -> Fraction`` (no zeros)
        and sum exactly to ``1 - truncated_mass`` (the exact engine guarantees this by integer
        arithmetic). The dict is copied in sorted order."""
        self = cls.__new__(cls)
        self.special = {}
        self._pmf = dict(sorted(pmf.items()))
        self._keys = list(self._pmf)
        self.truncated_mass = truncated_mass
        self.p_pass = p_pass
        self.expression = expression
        self.outcome = outcome
        self.notes = list(notes)
        return self

    # -- mapping protocol ----------------------------------------------------------------------
    def __getitem__(self, k: int) -> Fraction:
        return self._pmf.get(k, Fraction(0))

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, k) -> bool:
        return k in self._pmf

    def __eq__(self, other) -> bool:
        if isinstance(other, Distribution):
            return self._pmf == other._pmf and self.truncated_mass == other.truncated_mass
        if isinstance(other, Mapping):
            return self._pmf == {k: Fraction(v) for k, v in other.items() if v}
        return NotImplemented

    def __hash__(self):
        return hash(tuple(self._pmf.items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{k}: {v}" for k, v in list(self._pmf.items())[:8])
        more = ", ..." if len(self._pmf) > 8 else ""
        cut = f", truncated_mass={self.truncated_mass}" if self.truncated_mass else ""
        return f"Distribution({{{body}{more}}}{cut})"

    # -- statistics ----------------------------------------------------------------------------
    @property
    def min(self) -> int:
        return self._keys[0]

    @property
    def max(self) -> int:
        return self._keys[-1]

    @property
    def mass(self) -> Fraction:
        return 1 - self.truncated_mass

    def _numeric(self):
        if not self.special:
            return self._pmf.items(), self.mass
        items = [(k, p) for k, p in self._pmf.items() if k not in self.special]
        return items, sum((p for _, p in items), Fraction(0))

    @property
    def mean(self) -> Fraction:
        """Mean of the computed part (conditional on not being cut off when truncated, and on a
        numeric outcome when some outcomes are ``special``)."""
        items, mass = self._numeric()
        if not mass:
            raise DiceError("no numeric outcomes: the mean is undefined")
        return sum((k * p for k, p in items), Fraction(0)) / mass

    @property
    def variance(self) -> Fraction:
        m = self.mean
        items, mass = self._numeric()
        return sum(((k - m) ** 2 * p for k, p in items), Fraction(0)) / mass

    def label(self, k: int, locale: str = "en") -> str:
        """How outcome ``k`` is shown: its number, or the label of a special outcome."""
        if k in self.special:
            lab = self.special[k]
            return lab.get(locale) or lab.get("en") or str(k)
        return str(k)

    @property
    def stdev(self) -> float:
        return math.sqrt(self.variance)

    def chance(self, op: str, target: int) -> Fraction:
        """P(outcome op target), e.g. ``chance(">=", 8)``."""
        try:
            test = OPS[op]
        except KeyError:
            raise DiceError(f"unknown comparison {op!r}: expected one of {', '.join(OPS)}") from None
        return sum((p for k, p in self._pmf.items() if test(k, target)), Fraction(0))

    def p_ge(self, x: int) -> Fraction:
        return self.chance(">=", x)

    def p_le(self, x: int) -> Fraction:
        return self.chance("<=", x)

    def table(self) -> list[tuple[int, Fraction, Fraction]]:
        """Rows ``(value, P(= value), P(>= value))``."""
        rows = []
        tail = self.mass
        for k, p in self._pmf.items():
            rows.append((k, p, tail))
            tail -= p
        return rows

    def map(self, fn) -> "Distribution":
        out: dict[int, Fraction] = {}
        for k, p in self._pmf.items():
            v = fn(k)
            out[v] = out.get(v, Fraction(0)) + p
        return Distribution(out, truncated_mass=self.truncated_mass, expression=self.expression)

    def _repr_html_(self) -> str:
        from .render import distribution_html

        return distribution_html(self, "en")

    def html(self, locale: str = "en", highlight: tuple[str, int] | None = None) -> str:
        from .render import distribution_html

        return distribution_html(self, locale, highlight=highlight)
