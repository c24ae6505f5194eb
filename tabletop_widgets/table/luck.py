"""How lucky was the evening: a seat's rolls of an ended game session, each re-rolled from the
session's revealed seed, with where its total fell in its exact distribution (issue 35).

:func:`luck_of` reads the events a seat may read **from the store** (a player's kernel gets no
hidden roll of another seat, nor the GM's), finds the session as ``verify`` does
(:func:`.verify.sessions_of`), checks the revealed seed against the session's commitment
(:meth:`.fairdice.FairDice.revealed`), and re-rolls every ``roll`` and ``check`` of the seat with
its index's stream through the kind's own ``replay`` (what ``verify`` runs). The total counted is
the re-roll's, never the stored one; a roll whose stored result differs from the re-roll is
flagged (``LuckRoll.matches`` False, and a problem in the report).

A roll's **percentile** is ``P(X < t) + P(X = t) / 2`` for its total ``t`` in its exact
distribution ``X`` (``dice.distribution`` for an expression, ``system.check_distribution`` for a
named check with the sheet and options it was rolled with). Counted: dice expressions and named
checks whose distribution is over their total (or success count). Skipped, with the reason:
initiative, attacks and turn effects (several totals in one roll), failed rolls (no total),
repeated rolls (``6#4d6kh3``: several totals), a roll nothing random decides (one outcome), and a
roll too big for exact odds.

The **evening** (:func:`evening_of`): the mean ``m`` of the counted percentiles is not itself a
percentile of evenings. Under fair dice roll ``i``'s percentile ``U_i`` takes the value
``u_i(k)`` with probability ``P(X_i = k)``; the evening's percentile is ``P(M < m)`` for
``M = mean(U_i)``, the rolls independent ("luckier than N% of evenings with the same rolls").
It is exact (integer convolution) while the sums' support stays small, else estimated by a
simulation of the same rolls seeded from the revealed seed (anyone can repeat it), with its 95%
error stated.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..core.i18n import T
from .events import norm
from .fairdice import FairDice
from .kinds import CHECK, KINDS, ROLL
from .records import PackError, unpack_result
from .rules import PlayError

#: an exact evening: at most this many distinct sums, and this much work, else a simulation
MAX_SUMS = 20_000
MAX_WORK = 3_000_000
#: the simulation's evenings
SAMPLES = 20_000
#: the distribution outcomes where more is luckier (a check's total, a pool's successes)
HIGHER_IS_LUCKIER = ("total", "successes", "hits")

REASONS = {
    "several": T(
        "several totals in one roll (initiative, an attack, a turn's effects)",
        "несколько итогов в одном броске (инициатива, атака, эффекты хода)",
    ),
    "failed": T("the roll failed: it has no total", "бросок не удался: итога нет"),
    "repeated": T("a repeated roll has several totals", "повторный бросок даёт несколько итогов"),
    "fixed": T("nothing random decides it (one possible outcome)", "исход не случаен (он один)"),
    "too_big": T("too big for exact odds", "слишком велик для точных вероятностей"),
    "no_odds": T("it has no exact distribution", "у него нет точного распределения"),
    "not_total": T(
        "its distribution is not of a total where more is luckier",
        "его распределение — не итог, где больше значит удачнее",
    ),
    "outside": T("its total is not an outcome of its distribution", "его итог не входит в его распределение"),
    "no_replay": T("it cannot be rolled again from the seed", "его нельзя перебросить по ключу"),
}


@dataclass(frozen=True)
class LuckRoll:
    """One counted roll: whose, which (roll index, kind, what was rolled), its total from the
    seed, its percentile, and whether the stored result is the re-roll."""

    seat: str
    index: int
    kind: str  # "roll" or "check"
    what: Mapping[str, str]  # the expression or label, or the check's name (en, ru)
    total: int
    percentile: Fraction
    hidden: bool = False
    matches: bool = True
    stored_total: Any = None
    #: the mass an explosion's distribution cut off (the percentile is off by at most this)
    cut: Fraction = Fraction(0)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "index": self.index,
            "kind": self.kind,
            "what": dict(self.what),
            "total": self.total,
            "percentile": float(self.percentile),
            "hidden": self.hidden,
            "matches": self.matches,
        }


@dataclass(frozen=True)
class Skipped:
    """A roll of the seat that is not counted, and why (a key of :data:`REASONS`)."""

    seat: str
    index: int
    kind: str
    reason: str

    @property
    def why(self) -> Mapping[str, str]:
        return REASONS[self.reason]


@dataclass(frozen=True)
class Evening:
    """``P(M < m)`` for the mean ``M`` of the counted rolls' percentiles under fair dice, and
    ``P(M = m)``; ``method`` "exact" (``error`` bounds what explosions cut off) or "simulated"
    (``error``: the 95% half-width, ``samples`` evenings)."""

    below: float
    ties: float
    method: str
    error: float = 0.0
    samples: int = 0
    exact: Fraction | None = None


@dataclass
class SeatLuck:
    """One seat's rolls of the session: the counted ones, the skipped ones, the mean
    percentile and the evening."""

    seat: str
    rolls: list[LuckRoll] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    evening: Evening | None = None

    @property
    def mean(self) -> Fraction | None:
        if not self.rolls:
            return None
        return sum((r.percentile for r in self.rolls), Fraction(0)) / len(self.rolls)

    @property
    def flagged(self) -> list[LuckRoll]:
        """The rolls whose stored result is not what the seed gives."""
        return [r for r in self.rolls if not r.matches]

    def summary(self) -> dict[str, Any]:
        """What a share tells the table: counts and numbers, never a roll's dice or text."""
        ev = self.evening
        return {
            "rolls": len(self.rolls),
            "skipped": len(self.skipped),
            "flagged": len(self.flagged),
            "mean": None if self.mean is None else round(float(self.mean), 6),
            "evening": None if ev is None else round(ev.below, 6),
            "ties": None if ev is None else round(ev.ties, 6),
            "method": None if ev is None else ev.method,
            "error": None if ev is None else round(ev.error, 6),
        }


@dataclass
class LuckReport:
    """:meth:`TableSession.luck_report`: session ``session`` as seat ``seat`` may see it. A
    player's ``seats`` holds their own; the GM's every seat that rolled (the GM's own hidden rolls
    included). ``rolls``, ``mean``, ``evening``, ``skipped`` are ``seat``'s own."""

    session: int
    seat: str
    seats: dict[str, SeatLuck]
    commitment: str
    problems: list[str] = field(default_factory=list)

    @property
    def own(self) -> SeatLuck:
        return self.seats.get(self.seat) or SeatLuck(self.seat)

    @property
    def rolls(self) -> list[LuckRoll]:
        return self.own.rolls

    @property
    def skipped(self) -> list[Skipped]:
        return self.own.skipped

    @property
    def mean(self) -> Fraction | None:
        return self.own.mean

    @property
    def evening(self) -> Evening | None:
        return self.own.evening


# --------------------------------------------------------------------------------------------
# percentiles
# --------------------------------------------------------------------------------------------
def percentile(pmf: Mapping[int, Fraction], total: int) -> Fraction:
    """``P(X < total) + P(X = total) / 2``."""
    below = sum((p for k, p in pmf.items() if k < total), Fraction(0))
    return below + Fraction(pmf.get(total, 0)) / 2


def mid_values(pmf: Mapping[int, Fraction]) -> list[tuple[Fraction, Fraction]]:
    """Each outcome's percentile and its probability, lowest outcome first."""
    out, below = [], Fraction(0)
    for k in sorted(pmf):
        p = Fraction(pmf[k])
        out.append((below + p / 2, p))
        below += p
    return out


def evening_of(
    laws: Sequence[Mapping[int, Fraction]],
    observed: Sequence[Fraction],
    *,
    seed: bytes = b"",
    cut: Fraction = Fraction(0),
) -> Evening | None:
    """``P(mean U < mean observed)`` and ``P(=)`` for independent rolls of these distributions
    (see the module): exact, or a seeded simulation when the sums get too many."""
    if not laws:
        return None
    values = [mid_values(law) for law in laws]
    exact = _exact_evening(values, sum(observed, Fraction(0)))
    if exact is not None:
        below, ties = exact
        return Evening(float(below), float(ties), "exact", error=float(cut), exact=below)
    return _simulated_evening(values, float(sum(observed, Fraction(0))), seed, cut)


def _exact_evening(
    values: list[list[tuple[Fraction, Fraction]]], observed: Fraction
) -> tuple[Fraction, Fraction] | None:
    """Integer convolution of the percentiles' laws on their common denominator; None past the
    budget (:data:`MAX_SUMS`, :data:`MAX_WORK`)."""
    scale = 1
    for vs in values:
        for u, _p in vs:
            scale = math.lcm(scale, u.denominator)
    sums: dict[int, int] = {0: 1}
    den, work = 1, 0
    for vs in values:
        pden = 1
        for _u, p in vs:
            pden = math.lcm(pden, p.denominator)
        steps = [(int(u * scale), int(p * pden)) for u, p in vs]
        work += len(sums) * len(steps)
        if work > MAX_WORK:
            return None
        nxt: dict[int, int] = {}
        for s, w in sums.items():
            for u, q in steps:
                nxt[s + u] = nxt.get(s + u, 0) + w * q
        if len(nxt) > MAX_SUMS:
            return None
        sums, den = nxt, den * pden
    target = observed * scale  # an integer: the observed values are on the same lattice
    below = sum(w for s, w in sums.items() if s < target)
    ties = sum(w for s, w in sums.items() if s == target)
    return Fraction(below, den), Fraction(ties, den)


def _simulated_evening(values, observed: float, seed: bytes, cut: Fraction) -> Evening:
    """:data:`SAMPLES` evenings of the same rolls, each roll's percentile drawn from its law,
    with a stream seeded from ``seed`` (the revealed seed, so the estimate can be repeated)."""
    rng = random.Random(int.from_bytes(hmac.new(seed or b"luck", b"luck:evening", hashlib.sha256).digest(), "big"))
    totals = [0.0] * SAMPLES
    for vs in values:
        us = [float(u) for u, _p in vs]
        cum, acc = [], Fraction(0)
        for _u, p in vs:
            acc += p
            cum.append(float(acc))
        for i, u in enumerate(rng.choices(us, cum_weights=cum, k=SAMPLES)):
            totals[i] += u
    eps = 1e-9 * max(1, len(values))
    below = sum(1 for s in totals if s < observed - eps) / SAMPLES
    ties = sum(1 for s in totals if abs(s - observed) <= eps) / SAMPLES
    error = 1.96 * math.sqrt(max(below * (1 - below), 1 / SAMPLES) / SAMPLES) + float(cut)
    return Evening(below, ties, "simulated", error=error, samples=SAMPLES)


# --------------------------------------------------------------------------------------------
# the session's rolls, from the store and the seed
# --------------------------------------------------------------------------------------------
class _Replay:
    """What a kind's ``replay`` asks of its context (as ``verify``'s run gives it)."""

    def __init__(self, system):
        self.system = system
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        self.problems.append(text)


def not_revealed(n: int) -> PlayError:
    return PlayError(
        "luck_not_revealed",
        T(
            f"Session {n}'s dice key is not revealed yet: its luck report comes once the session has ended.",
            f"Ключ кубиков сессии {n} ещё не раскрыт: отчёт об удаче будет, когда сессия закончится.",
        ),
        session=n,
    )


def no_such_session(n: Any) -> PlayError:
    return PlayError(
        "luck_no_session",
        T(f"This campaign has no session {n!r}.", f"В этой кампании нет сессии {n!r}."),
        session=n,
    )


def pick_session(told, n: Any):
    """Session ``n`` of the log's sessions (default: the last one whose seed is revealed); a
    bilingual :class:`PlayError` for no such session, or one whose key is not revealed yet."""
    if n is None:
        ended = [s for s in told if s.seed is not None]
        if not ended:
            raise not_revealed(told[-1].n)
        return ended[-1]
    if not isinstance(n, int) or isinstance(n, bool):
        raise no_such_session(n)
    found = next((s for s in told if s.n == n), None)
    if found is None:
        raise no_such_session(n)
    if found.seed is None:
        raise not_revealed(n)
    return found


def luck_of(table, events, system, *, seat: str, everyone: bool, session: Any = None) -> LuckReport:
    """The luck report of ``session`` from ``events`` (what the seat may read, from the store):
    ``seat``'s rolls, or (``everyone``: the GM) every seat's. Raises :class:`PlayError` before
    the session's key is revealed, and when the revealed seed is not the session's."""
    from .verify import Report, sessions_of

    told = sessions_of(table, events, Report(table.table_id))  # the problems are verify's to tell
    s = pick_session(told, session)
    try:
        dice = FairDice.revealed(str(s.seed), s.commitment)
    except ValueError:
        raise PlayError(
            "luck_bad_seed",
            T(
                f"Session {s.n}'s revealed dice key does not match its dice commitment: check it with verify.",
                f"Раскрытый ключ кубиков сессии {s.n} не совпадает с её печатью кубиков: проверьте сессию (verify).",
            ),
            session=s.n,
        ) from None
    report = LuckReport(s.n, seat, {}, s.commitment)
    ctx = _Replay(system)
    end = s.end if s.end is not None else len(events) - 1
    laws: dict[str, list] = {}
    for e in events[s.start : end + 1]:
        kind = KINDS.get(e.kind)
        if kind is None or not kind.rolls or not isinstance(e.roll, int):
            continue
        if not everyone and e.actor != seat:
            continue
        mine = report.seats.setdefault(e.actor, SeatLuck(e.actor))
        got = _one_roll(kind, e, dice.rng_for(e.roll), ctx)
        if isinstance(got, str):
            mine.skipped.append(Skipped(e.actor, e.roll, e.kind, got))
            continue
        counted, law = got
        mine.rolls.append(counted)
        laws.setdefault(e.actor, []).append(law)
        if not counted.matches:
            report.problems.append(
                f"roll {counted.index} by {e.actor}: the stored result is not what the seed gives "
                f"(the seed's total {counted.total} is counted)"
            )
    for who, mine in report.seats.items():
        cut = sum((r.cut for r in mine.rolls), Fraction(0))
        key = hmac.new(dice.seed, f"luck:{s.n}:{who}".encode(), hashlib.sha256).digest()
        mine.evening = evening_of(laws.get(who, []), [r.percentile for r in mine.rolls], seed=key, cut=cut)
    return report


def _one_roll(kind, e, rng, ctx: _Replay):
    """A roll counted (``(LuckRoll, its law)``), or the reason (a key of :data:`REASONS`) it is
    skipped."""
    if kind is not ROLL and kind is not CHECK:
        return "failed" if kind.name == "roll.failed" else "several"
    p = kind.read(e.payload)
    try:
        want = kind.replay(p, rng, ctx)  # what verify compares
    except Exception:  # noqa: BLE001 - a tampered payload may not even parse
        return "no_replay"
    if not isinstance(want, Mapping) or not isinstance(want.get("total"), (int, type(None))):
        return "no_replay"
    try:
        stored = norm(unpack_result(e.payload.get("result")))
    except PackError:
        stored = None
    matches = stored == want
    stored_total = stored.get("total") if isinstance(stored, Mapping) else None
    law = _law(kind, p, ctx.system)
    if isinstance(law, str):
        return law
    dist, key = law
    total = want.get(key)
    if total is None and len(dist.special) == 1:
        total = next(iter(dist.special))  # a fail with no total (RET): its own outcome
    pmf = dict(dist.items())
    if len(pmf) < 2:
        return "fixed"
    if not isinstance(total, int) or isinstance(total, bool) or total not in pmf:
        return "outside"
    what = _what(kind, p, want)
    counted = LuckRoll(
        e.actor,
        e.roll,
        kind.name,
        what,
        total,
        percentile(pmf, total),
        hidden=bool(p.hidden),
        matches=matches,
        stored_total=stored_total,
        cut=Fraction(dist.truncated_mass),
    )
    return counted, pmf


def _law(kind, p, system):
    """``(distribution, which result field it is of)`` of a roll, or why it has none."""
    from ..dice import DiceError, DiceLimitError, distribution

    try:
        if kind is ROLL:
            from ..dice.parser import parse

            if parse(p.expr, p.variables).repeat > 1:
                return "repeated"
            dist = distribution(p.expr, variables=p.variables)
        else:
            model = system.Character.from_dict(p.character or {})
            dist = system.check_distribution(model, p.check_id, **dict(p.options or {}))
    except DiceLimitError:
        return "too_big"
    except (DiceError, Exception):  # noqa: BLE001 - a check or word without exact odds
        return "no_odds"
    outcome = getattr(dist, "outcome", "total")
    if outcome == "margin":
        return dist, "margin"
    if outcome not in HIGHER_IS_LUCKIER:
        return "not_total"
    return dist, "total"


def _what(kind, p, want: Mapping[str, Any]) -> dict[str, str]:
    if kind is ROLL:
        expr = p.expr or ""
        label = f"{p.label} ({expr})" if p.label else expr
        return {"en": label, "ru": label}
    label = want.get("label") if isinstance(want.get("label"), Mapping) else {}
    return {loc: str(label.get(loc) or p.check_id) for loc in ("en", "ru")}


__all__ = [
    "Evening",
    "LuckReport",
    "LuckRoll",
    "REASONS",
    "SeatLuck",
    "Skipped",
    "evening_of",
    "luck_of",
    "mid_values",
    "percentile",
    "pick_session",
]
