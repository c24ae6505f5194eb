"""A fight forecast for the GM: how likely each combatant is to be out of the fight within 1, 2,
3... rounds, and how long the fight is expected to last, if everyone keeps to default choices.

:func:`forecast` reads a :class:`~.machine.Combat` as it stands (never changing it) and plays the
rest of the fight forward by these rules:

* **Sides.** The ``sides`` given (``{combatant id: side}``; the tracker passes its play's
  ``side``: at a table a player's character is ``"party"``, the GM's ``"other"``); else the
  characters' ``is_npc`` flag where they have one (PCs against NPCs); else, when neither splits
  the combatants into two sides or more, everyone is on their own side (all against all).
* **Targets.** On its turn a combatant attacks the target the tracker's Attack part preselects:
  the first one in turn order, other than itself, still in the fight and of another side.
* **Attacks.** The system's first attack it offers that can be made now (the one the Attack part
  preselects; from hiding when the attacker is hidden), with its default options, as many times
  a turn as ``system.attacks_per_turn`` allows (one when it says no limit). No resources are
  spent and nobody heals, delays or moves.
* **Odds.** Each attack's damage follows the system's exact ``attack_odds`` for that attacker on
  that target *as they stand now* (later wounds change who is out, not the odds of later
  attacks); each amount is applied to the target's health state through ``system.apply_damage``
  (as :func:`~tabletop_widgets.core.attacks.defeat_chance` does) and ``system.is_defeated``
  says who is out. The GM's defeated mark holds until the combatant is hurt again.
* **Rounds.** Round 1 is the rest of the current round (from the current turn on; the attacks
  already made this turn are counted), or a whole first round in the order as it is when the
  fight has not started. A combatant sitting out a round (``skip_until``) does not act in it;
  one who is delaying acts at its place in the order.
* **Length.** The fight is over when at most one side has anyone still in it. The expected length
  is E[min(T, R)] for T the round it ends in; the chance it lasts beyond R rounds is stated.

It is **exact** (a dynamic programme over the joint health states, in floating point) while the
joint state space stays small (``max_states`` states at any turn and ``max_work`` transitions in
all; a fight whose health alone promises more, :func:`_estimate`, is not tried); otherwise a seeded Monte Carlo of ``samples`` fights over the same distributions, whose
stated error is the largest 95% half-width ``1.96·sqrt(p(1-p)/n)`` of its figures.

Hidden combatants are included: a forecast is for the GM only (a player's tracker never makes
one). Plain Python: no widgets, no I/O.
"""

from __future__ import annotations

import bisect
import json
import math
import random
import weakref
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..attacks import FROM_HIDING, from_hiding
from ..i18n import T
from ..problems import RuleError
from .records import persisted, set_traits

#: the default number of rounds forecast, simulated fights, exact-state and exact-work bounds
ROUNDS = 10
SAMPLES = 2000
MAX_STATES = 3000
MAX_WORK = 100_000
#: the 95% normal quantile of the simulation's stated error
Z95 = 1.96


@dataclass(frozen=True)
class ForecastRow:
    """One combatant's forecast: ``p_out[r - 1]`` is the chance it is out within ``r`` rounds
    (``p_out_now``: already out)."""

    id: str
    name: str
    side: str
    hidden: bool
    p_out_now: float
    p_out: tuple[float, ...]


@dataclass(frozen=True)
class Forecast:
    """The forecast of a fight (see the module's docstring).

    rows             :class:`ForecastRow` per combatant, in turn order
    rounds           R, the rounds forecast
    p_over           ``p_over[r - 1]``: the chance the fight is over within ``r`` rounds
    expected_length  E[min(T, R)] in rounds (T: the round the fight ends in; 0 when it is over)
    beyond           P(T > R): the mass the capped expectation leaves out
    exact            computed without sampling
    samples          fights simulated (0 when exact)
    seed             the simulation's seed
    error            the largest 95% half-width of the simulated figures (0.0 when exact)
    sides            the number of sides
    notes            what the forecast assumed beyond the defaults, ``{"en", "ru"}`` each
    """

    rows: tuple[ForecastRow, ...]
    rounds: int
    p_over: tuple[float, ...]
    expected_length: float
    beyond: float
    exact: bool
    samples: int = 0
    seed: int | None = None
    error: float = 0.0
    sides: int = 0
    notes: tuple[Mapping[str, str], ...] = field(default_factory=tuple)

    def row(self, cid: str) -> ForecastRow:
        return next(r for r in self.rows if r.id == cid)

    # -- showing (a notebook's ``forecast(fight)``; the tracker draws its own part) -----------------
    def html(self, locale: str = "en", shown_rounds: int = 3) -> str:
        """The forecast as a small HTML table (each combatant's chance to be out within 1, 2, 3
        rounds), its expected length and how it was worked out, in ``locale`` ("en" or "ru").
        Its colours are the theme's roles (``var(--tt-ROLE, light)``), so it reads in light and
        dark notebooks alike."""
        from tabletop_widgets.front import stylesheet

        return (
            stylesheet("forecast")
            + _NOTEBOOK_CSS
            + forecast_html(self, locale if locale in _WORDS["combatant"] else "en", shown_rounds)
        )

    def _repr_html_(self) -> str:
        return self.html()

    def text(self, locale: str = "en", shown_rounds: int = 3) -> str:
        """The same as plain lines (a terminal's ``print(forecast(fight).text())``)."""
        loc = locale if locale in _WORDS["combatant"] else "en"
        shown = min(shown_rounds, self.rounds)
        lines = []
        for row in self.rows:
            hidden = f" ({_WORDS['hidden'][loc]})" if row.hidden else ""
            figures = _WORDS["out_now"][loc] if row.p_out_now else "  ".join(_pct(p) for p in row.p_out[:shown])
            lines.append(f"{row.name}{hidden}: {figures}")
        return "\n".join(lines + [_length_text(self, loc)])


#: the words of :meth:`Forecast.html` (the tracker's forecast part says the same)
_WORDS: dict[str, dict[str, str]] = {
    "combatant": {"en": "Combatant", "ru": "Участник"},
    "out_within": {"en": "Out within", "ru": "Выбудет за"},
    "out_now": {"en": "out", "ru": "выбыл"},
    "hidden": {"en": "hidden", "ru": "скрыт"},
    "length": {"en": "Expected length: {length} rounds", "ru": "Ожидаемая длина боя, в раундах: {length}"},
    "beyond": {"en": "({beyond} chance it lasts beyond {rounds})", "ru": "(с вероятностью {beyond} дольше {rounds})"},
    "over": {
        "en": "The fight is over: at most one side is still in it.",
        "ru": "Бой окончен: в нём осталось не больше одной стороны.",
    },
    "stalemate": {
        "en": "By these attacks nobody is out within {n}: what ends this fight is not its damage.",
        "ru": "Этими атаками никто не выбудет и за {n}: бой решит не урон.",
    },
    "exact": {"en": "exact", "ru": "точно"},
    "simulated": {"en": "simulated: ±{error}", "ru": "моделирование: ±{error}"},
    "simulated_tip": {
        "en": "{samples} simulated fights (seed {seed}); ± is the 95% margin of the least certain figure",
        "ru": "{samples} смоделированных боёв (зерно {seed}); ± — 95% погрешность наименее точного числа",
    },
    "assumes": {
        "en": "Everyone attacks the first foe in turn order still standing, with the first attack offered and its"
        " default options; no resources spent. For the GM only: players never see it.",
        "ru": "Каждый атакует первого в порядке ходов противника, который ещё в бою, первой предложенной атакой"
        " с настройками по умолчанию, не тратя ресурсов. Только для ведущего: игроки его не видят.",
    },
}


#: a notebook's own table rules (JupyterLab's rendered HTML right-aligns every cell, fixes the
#: layout and centres the table, with more specific selectors than forecast.css's)
_NOTEBOOK_CSS = (
    "<style>.tt-forecast.tt-forecast-notebook{align-items:flex-start}"
    ".tt-forecast.tt-forecast-notebook .tt-forecast-table{table-layout:auto;width:auto;margin:0}"
    ".tt-forecast.tt-forecast-notebook .tt-forecast-table td{text-align:right}"
    ".tt-forecast.tt-forecast-notebook .tt-forecast-table thead th{text-align:center}"
    ".tt-forecast.tt-forecast-notebook .tt-forecast-table tbody th{text-align:left}</style>"
)


def _pct(p: float) -> str:
    """A chance as a whole percent, with "<1%" and ">99%" for the ones that round away."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p:.0%}"


def _num(x: float, locale: str) -> str:
    text = f"{x:.1f}"
    return text.replace(".", ",") if locale == "ru" else text


def _rounds_word(n: int, locale: str) -> str:
    """ "2 rounds", «2 раунда» (:func:`~tabletop_widgets.core.wording.ru_n`)."""
    from ..wording import en_n, ru_n

    return ru_n(n, "раунд", "раунда", "раундов") if locale == "ru" else en_n(n, "round", "rounds")


def _length_text(f: "Forecast", locale: str) -> str:
    if f.expected_length == 0 and f.beyond == 0:
        return _WORDS["over"][locale]
    text = _WORDS["length"][locale].format(length=_num(f.expected_length, locale))
    if f.beyond >= 0.005:
        text += " " + _WORDS["beyond"][locale].format(beyond=_pct(f.beyond), rounds=f.rounds)
    return text


def forecast_html(f: "Forecast", locale: str, shown_rounds: int = 3) -> str:
    """The forecast's table, length and method as HTML in ``locale`` (the tracker's part and
    :meth:`Forecast.html` draw it; its styles are ``forecast.css``)."""
    import html

    esc = html.escape
    shown = max(1, min(int(shown_rounds), f.rounds))
    heads = "".join(f"<th>{esc(_rounds_word(r, locale))}</th>" for r in range(1, shown + 1))
    rows = []
    for row in f.rows:
        name = esc(row.name)
        if row.hidden:
            name += f' <span class="tt-forecast-hidden">{esc(_WORDS["hidden"][locale])}</span>'
        if row.p_out_now:
            cells = f'<td colspan="{shown}" class="tt-forecast-out">{esc(_WORDS["out_now"][locale])}</td>'
        else:
            cells = "".join(f'<td class="{_band(p)}">{esc(_pct(p))}</td>' for p in row.p_out[:shown])
        rows.append(f'<tr><th scope="row">{name}</th>{cells}</tr>')
    table = (
        '<table class="tt-forecast-table"><thead>'
        f'<tr><th rowspan="2">{esc(_WORDS["combatant"][locale])}</th>'
        f'<th colspan="{shown}">{esc(_WORDS["out_within"][locale])}</th></tr>'
        f"<tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    if f.exact:
        how = f'<span class="tt-forecast-how">{esc(_WORDS["exact"][locale])}</span>'
    else:
        tip = esc(_WORDS["simulated_tip"][locale].format(samples=f.samples, seed=f.seed))
        error = esc(_WORDS["simulated"][locale].format(error=_num(f.error * 100, locale) + "%"))
        how = f'<span class="tt-forecast-how" title="{tip}">{error}</span>'
    notes = "".join(f"<li>{esc(n.get(locale) or n.get('en', ''))}</li>" for n in f.notes)
    notes = f'<ul class="tt-forecast-notes">{notes}</ul>' if notes else ""
    summary = f'<div class="tt-forecast-summary">{esc(_length_text(f, locale))} · {how}</div>'
    if f.rows and not any(p for r in f.rows if not r.p_out_now for p in r.p_out):  # a table of zeros, said
        summary += f'<div class="tt-forecast-stalemate">{esc(_WORDS["stalemate"][locale].format(n=_rounds_word(f.rounds, locale)))}</div>'
    assumes = f'<div class="tt-forecast-assumes">{esc(_WORDS["assumes"][locale])}</div>'
    return f'<div class="tt-forecast tt-forecast-notebook" lang="{locale}">{table}{summary}{notes}{assumes}</div>'


def _band(p: float) -> str:
    return "tt-forecast-hi" if p >= 0.67 else "tt-forecast-mid" if p >= 0.33 else "tt-forecast-lo"


# -----------------------------------------------------------------------------------------------
# Health states
# -----------------------------------------------------------------------------------------------
def _key(values: Mapping[str, Any]) -> str:
    """A character's rule-relevant values as a key (its name does not change the rules)."""
    return json.dumps({k: v for k, v in values.items() if k != "name"}, sort_keys=True, default=str)


#: what a refused amount of damage makes of a state (nothing) in the memo
_REFUSED = object()
#: how many outcomes the memo of one system keeps before it starts again
MEMO_SIZE = 50_000
_MEMOS: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def _memo(system, name: str) -> dict:
    """A memo of ``system``'s rules kept across forecasts (the next turn's forecast meets the
    same health states and the same odds): what an amount of damage makes of a character's
    values, and a default attack's distribution for two characters' values. Keyed by values
    only, so it never holds a combat's state; a system that cannot be weakly referenced gets a
    fresh one each time."""
    try:
        memos = _MEMOS.setdefault(system, {})
    except TypeError:
        return {}
    return memos.setdefault(name, {})


def clear_memo() -> None:
    """Forget what earlier forecasts learned of every system's rules (a benchmark's cold start)."""
    _MEMOS.clear()


class _States:
    """The health states met in a forecast, numbered: each one's values and whether it is out,
    and what an amount of damage makes of each (``system.apply_damage`` on a scratch twin, one
    starting state, so a combat's characters are never touched)."""

    def __init__(self, system):
        self.system = system
        self.ids: dict[str, int] = {}
        self.values: list[dict] = []
        self.out: list[bool] = []
        self.kind: list[type] = []
        self.origin: list[int] = []  # the starting state each state comes from
        self.scratch: dict[int, tuple[Any, dict]] = {}  # starting state -> (twin, the values it holds)
        self.moves: dict[tuple[int, int], int] = {}
        self.keys: list[str] = []
        self.memo = _memo(system, "moves")

    def add(self, character) -> int:
        values = persisted(character)
        return self._number(type(character), values, bool(self.system.is_defeated(character)), None)

    def _number(self, kind: type, values: dict, out: bool, origin: int | None) -> int:
        key = _key(values)
        sid = self.ids.get(key)
        if sid is None:
            sid = self.ids[key] = len(self.values)
            self.keys.append(key)
            self.values.append(values)
            self.out.append(out)
            self.kind.append(kind)
            self.origin.append(sid if origin is None else origin)
        return sid

    def after(self, sid: int, amount: int) -> int:
        """The state ``sid`` becomes on taking ``amount`` (a refused amount changes nothing)."""
        move = self.moves.get((sid, amount))
        if move is not None:
            return move
        if amount <= 0:
            self.moves[(sid, amount)] = sid
            return sid
        kind = self.kind[sid]
        known = self.memo.get((kind, self.keys[sid], amount))
        if known is not None:
            nxt = sid if known is _REFUSED else self._number(kind, *known, self.origin[sid])
            self.moves[(sid, amount)] = nxt
            return nxt
        twin = self._twin_at(sid)
        try:
            self.system.apply_damage(twin, int(amount))
        except RuleError:
            nxt, known = sid, _REFUSED
            self.scratch.pop(self.origin[sid], None)  # a refusal may have left it half changed
        else:
            values = persisted(twin)
            known = (values, bool(self.system.is_defeated(twin)))
            nxt = self._number(kind, *known, self.origin[sid])
            self.scratch[self.origin[sid]] = (twin, values)
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[(kind, self.keys[sid], amount)] = known
        self.moves[(sid, amount)] = nxt
        return nxt

    def _twin_at(self, sid: int):
        """A scratch twin set to ``sid``'s values: one per starting state, so only the few values
        a state's damage changed differ from what it holds and are set (setting a value runs
        the model's rules, the slow part of a forecast)."""
        twin, held = self.scratch.get(self.origin[sid]) or (self.kind[sid](), None)
        want = self.values[sid]
        if held is None:
            set_traits(twin, want)
        else:
            changed = {k: v for k, v in want.items() if held.get(k) != v}
            if changed:
                set_traits(twin, changed)
        return twin


# -----------------------------------------------------------------------------------------------
# The plan: who is in it, who acts when, with what odds
# -----------------------------------------------------------------------------------------------
class _Plan:
    """Everything the forecast reads from the combat, once: the combatants in turn order, their
    sides and starting states, the turns of each round and each attack's damage distribution."""

    def __init__(self, combat, rounds: int, sides: Mapping[str, Any] | None):
        self.combat = combat
        self.system = combat.system
        self.ids = list(combat.order)
        self.states = _States(self.system)
        self.chars = [combat.character(cid) for cid in self.ids]
        self.start = tuple(self.states.add(ch) for ch in self.chars)
        self.mark = [combat.entry(cid)["defeated"] for cid in self.ids]
        self.hidden = [bool(combat.entry(cid)["hidden"]) for cid in self.ids]
        self.side = _sides(combat, self.ids, self.chars, sides)
        self.schedule = self._schedule(rounds)
        self._odds = _memo(self.system, "odds")
        self._pairs: dict[tuple[int, int], list[tuple[int, float]] | None] = {}
        self._moves: dict[tuple[int, int, int], list[tuple[int, float]]] = {}
        self.notes: list[Mapping[str, str]] = []

    # -- who is out, who is targeted --------------------------------------------------------------
    def is_out(self, i: int, sid: int) -> bool:
        """Combatant ``i`` in state ``sid`` is out: the GM's mark while unhurt, else the rules."""
        if self.mark[i] is not None and sid == self.start[i]:
            return bool(self.mark[i])
        return self.states.out[sid]

    def outs(self, state: Sequence[int]) -> tuple[bool, ...]:
        return tuple(self.is_out(i, s) for i, s in enumerate(state))

    def over(self, outs: Sequence[bool]) -> bool:
        """At most one side has anyone still in the fight."""
        return len({self.side[i] for i, out in enumerate(outs) if not out}) <= 1

    def target(self, i: int, outs: Sequence[bool]) -> int | None:
        """The Attack part's first target: the first standing one of another side."""
        mine = self.side[i]
        return next((j for j, out in enumerate(outs) if j != i and not out and self.side[j] != mine), None)

    # -- turns -----------------------------------------------------------------------------------
    def _schedule(self, rounds: int) -> list[list[tuple[int, int]]]:
        """``(combatant, attacks)`` per turn of each forecast round (see the module's docstring)."""
        combat = self.combat
        base = combat.round if combat.started else 1
        out = []
        for r in range(rounds):
            rnd = base + r
            turns = []
            first = self.ids.index(combat.current) if (r == 0 and combat.current in self.ids) else 0
            for i in range(first, len(self.ids)):
                if combat.skips(self.ids[i], rnd):
                    continue
                try:
                    n = self.system.attacks_per_turn(self.chars[i], rnd)
                except (RuleError, TypeError, ValueError):
                    n = 1
                n = 1 if n is None else max(0, int(n))
                if r == 0 and i == first and combat.current in self.ids:
                    n = max(0, n - combat.attacks_this_turn(combat.current))
                if n:
                    turns.append((i, n))
            out.append(turns)
        return out

    # -- odds --------------------------------------------------------------------------------------
    def damage(self, i: int, j: int) -> list[tuple[int, float]] | None:
        """``[(amount, p)]`` of ``i``'s default attack on ``j`` (None: it has none)."""
        if (i, j) in self._pairs:
            return self._pairs[(i, j)]
        a, t = self.chars[i], self.chars[j]
        key = (type(a), self.states.keys[self.start[i]], type(t), self.states.keys[self.start[j]], self.hidden[i])
        if key not in self._odds:
            if len(self._odds) >= MEMO_SIZE:
                self._odds.clear()
            self._odds[key] = self._default_odds(i, j)
        self._pairs[(i, j)] = self._odds[key]
        return self._odds[key]

    def _default_odds(self, i: int, j: int) -> list[tuple[int, float]] | None:
        a, t = self.chars[i], self.chars[j]
        try:
            specs = list(self.system.attacks(a, t))
        except RuleError:
            return None
        if self.hidden[i]:
            specs = [from_hiding(s) for s in specs]
        spec = next((s for s in specs if not s.unavailable), None)
        if spec is None:
            return None
        options = {o.name: o.default for o in spec.options if o.name == FROM_HIDING and o.default}
        try:
            odds = self.system.attack_odds(a, t, spec.id, **options)
        except (RuleError, NotImplementedError):
            return None
        pmf: dict[int, float] = {}
        for amount, p in odds.damage.items():
            pmf[int(amount)] = pmf.get(int(amount), 0.0) + float(p)
        rest = 1.0 - sum(pmf.values())  # a truncated tail or rounding: counted as no damage
        if rest > 0:
            pmf[0] = pmf.get(0, 0.0) + rest
        return sorted((k, p) for k, p in pmf.items() if p > 0)

    def moves(self, i: int, j: int, sid: int) -> list[tuple[int, float]]:
        """``[(j's next state, p)]`` after one attack of ``i`` on ``j`` in state ``sid``."""
        key = (i, j, sid)
        got = self._moves.get(key)
        if got is None:
            merged: dict[int, float] = {}
            for amount, p in self.damage(i, j) or [(0, 1.0)]:
                nxt = self.states.after(sid, amount)
                merged[nxt] = merged.get(nxt, 0.0) + p
            got = self._moves[key] = sorted(merged.items())
        return got


def _sides(combat, ids: Sequence[str], chars: Sequence[Any], sides: Mapping[str, Any] | None) -> list[str]:
    """Each combatant's side (see the module's docstring)."""
    if sides:
        given = [sides.get(cid) for cid in ids]
        if len({s for s in given if s is not None}) >= 2:
            return [str(s) if s is not None else f"own:{cid}" for s, cid in zip(given, ids)]
    if chars and all("is_npc" in getattr(ch, "trait_names", lambda: [])() for ch in chars):
        flags = ["npc" if getattr(ch, "is_npc", False) else "pc" for ch in chars]
        if len(set(flags)) >= 2:
            return flags
    return [f"own:{cid}" for cid in ids]


# -----------------------------------------------------------------------------------------------
# Exact: a dynamic programme over joint states
# -----------------------------------------------------------------------------------------------
class _TooBig(Exception):
    """The joint state space outgrew the exact bounds."""


def _attack_step(plan: _Plan, dist: dict, i: int, cache: dict) -> tuple[dict, int]:
    """``dist`` after one attack by combatant ``i`` (the work done: transitions followed)."""
    new: dict[tuple, float] = {}
    work = 0
    for state, p in dist.items():
        outs = cache.get(state)
        if outs is None:
            outs = cache[state] = plan.outs(state)
        j = None if outs[i] or plan.over(outs) else plan.target(i, outs)
        if j is None:
            new[state] = new.get(state, 0.0) + p
            continue
        for nxt, q in plan.moves(i, j, state[j]):
            work += 1
            succ = state if nxt == state[j] else state[:j] + (nxt,) + state[j + 1 :]
            new[succ] = new.get(succ, 0.0) + p * q
    return new, work


def _exact(plan: _Plan, max_states: int, max_work: int) -> tuple[list[list[float]], list[float]]:
    """Per round, each combatant's P(out) and P(over), exactly (:class:`_TooBig` past the bounds)."""
    dist: dict[tuple, float] = {plan.start: 1.0}
    cache: dict[tuple, tuple[bool, ...]] = {}
    work = 0
    p_out: list[list[float]] = []
    p_over: list[float] = []
    n = len(plan.ids)
    for turns in plan.schedule:
        for i, attacks in turns:
            for _ in range(attacks):
                dist, done = _attack_step(plan, dist, i, cache)
                work += done
                if len(dist) > max_states or work > max_work:
                    raise _TooBig
        outs_by = [0.0] * n
        over = 0.0
        for state, p in dist.items():
            outs = cache.get(state)
            if outs is None:
                outs = cache[state] = plan.outs(state)
            for k in range(n):
                if outs[k]:
                    outs_by[k] += p
            if plan.over(outs):
                over += p
        p_out.append([min(1.0, x) for x in outs_by])
        p_over.append(min(1.0, over))
    return p_out, p_over


# -----------------------------------------------------------------------------------------------
# Simulated: seeded Monte Carlo over the same distributions
# -----------------------------------------------------------------------------------------------
def _simulate(plan: _Plan, samples: int, seed: int | None) -> tuple[list[list[float]], list[float]]:
    """Per round, each combatant's share of ``samples`` fights it is out in, and the share over."""
    rng = random.Random(seed)
    n, rounds = len(plan.ids), len(plan.schedule)
    out_counts = [[0] * rounds for _ in range(n)]
    over_counts = [0] * rounds
    tables: dict[tuple[int, int], tuple[list[float], list[int]]] = {}
    start_outs = list(plan.outs(plan.start))
    for _ in range(samples):
        state = list(plan.start)
        outs = list(start_outs)
        over = plan.over(outs)
        for r, turns in enumerate(plan.schedule):
            if not over:
                over = _sim_round(plan, turns, state, outs, rng, tables)
            for k in range(n):
                if outs[k]:
                    out_counts[k][r] += 1
            if over:
                over_counts[r] += 1
    return (
        [[out_counts[k][r] / samples for k in range(n)] for r in range(rounds)],
        [c / samples for c in over_counts],
    )


def _sim_round(plan: _Plan, turns, state: list[int], outs: list[bool], rng: random.Random, tables: dict) -> bool:
    """Play one round of one simulated fight in place; whether the fight is over after it."""
    for i, attacks in turns:
        for _ in range(attacks):
            if outs[i]:
                break
            j = plan.target(i, outs)
            if j is None:
                return plan.over(outs)
            table = tables.get((i, j))
            if table is None:  # the amounts of i's attack on j, drawn as they come
                amounts = plan.damage(i, j) or [(0, 1.0)]
                cum, acc = [], 0.0
                for _amount, q in amounts:
                    acc += q
                    cum.append(acc)
                table = tables[(i, j)] = (cum, [a for a, _q in amounts])
            cum, amounts = table
            k = min(bisect.bisect_right(cum, rng.random() * cum[-1]), len(amounts) - 1)
            state[j] = plan.states.after(state[j], amounts[k])  # only the outcomes drawn are worked out
            outs[j] = plan.is_out(j, state[j])
            if outs[j] and plan.over(outs):
                return True
    return plan.over(outs)


# -----------------------------------------------------------------------------------------------
# The forecast
# -----------------------------------------------------------------------------------------------
def forecast(
    combat,
    rounds: int = ROUNDS,
    samples: int = SAMPLES,
    seed: int | None = 0,
    *,
    sides: Mapping[str, Any] | None = None,
    max_states: int = MAX_STATES,
    max_work: int = MAX_WORK,
    exact: bool | None = None,
) -> Forecast:
    """The forecast of ``combat`` as it stands (see the module's docstring); ``combat`` is not
    changed. ``exact``: None tries the exact computation within ``max_states``/``max_work`` and
    simulates past them; True insists on it (no bounds); False always simulates."""
    rounds = max(1, int(rounds))
    samples = max(1, int(samples))
    plan = _Plan(combat, rounds, sides)
    start_outs = plan.outs(plan.start)
    result = None
    if exact is None and _estimate(plan) > max_states:
        exact = False  # too many states to try: simulated at once
    if exact is not False:
        bound = (math.inf, math.inf) if exact else (max_states, max_work)
        try:
            result = _exact(plan, *bound)
        except _TooBig:
            result = None
    is_exact = result is not None
    if result is None:
        result = _simulate(plan, samples, seed)
    p_out, p_over = result
    over_now = plan.over(start_outs)
    rows = tuple(
        ForecastRow(
            id=cid,
            name=combat.name(cid),
            side=plan.side[i],
            hidden=plan.hidden[i],
            p_out_now=1.0 if start_outs[i] else 0.0,
            p_out=tuple(p_out[r][i] for r in range(rounds)),
        )
        for i, cid in enumerate(plan.ids)
    )
    length = 0.0 if over_now else 1.0 + sum(1.0 - p_over[r] for r in range(rounds - 1))
    beyond = 0.0 if over_now else 1.0 - p_over[-1]
    error = 0.0
    if not is_exact:
        figures = [p for row in rows for p in row.p_out] + list(p_over)
        error = max((Z95 * math.sqrt(p * (1 - p) / samples) for p in figures), default=0.0)
    notes = []
    if any(plan.damage(i, j) is None for i in range(len(plan.ids)) for j in _foes(plan, i)):
        notes.append(
            T("some have no attack on their target: they do nothing", "у кого-то нет атаки на цель: он бездействует")
        )
    return Forecast(
        rows=rows,
        rounds=rounds,
        p_over=tuple(p_over),
        expected_length=length,
        beyond=max(0.0, beyond),
        exact=is_exact,
        samples=0 if is_exact else samples,
        seed=None if is_exact else seed,
        error=error,
        sides=len(set(plan.side)),
        notes=tuple(notes),
    )


def _estimate(plan: _Plan) -> int:
    """A guess at the joint states the exact computation meets, from the health each combatant
    shows: attacks go to the first foe standing, so a side is mostly one hurt member at a time,
    about the sum over its members of (health + 1) states; the sides multiply."""
    per_side: dict[str, int] = {}
    for i, ch in enumerate(plan.chars):
        try:
            current = max(0, int(plan.system.health(ch)[0]))
        except (NotImplementedError, TypeError, ValueError, IndexError):
            current = 0
        per_side[plan.side[i]] = per_side.get(plan.side[i], 0) + current + 1
    return math.prod(per_side.values())


def _foes(plan: _Plan, i: int) -> list[int]:
    """The combatants ``i`` attacked in the forecast (the odds already worked out)."""
    return [j for (a, j) in plan._pairs if a == i]
