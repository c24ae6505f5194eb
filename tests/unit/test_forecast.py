"""The fight forecast (``core/combat/forecast.py``): hand-computed and independently enumerated
answers for small duels, the simulation within its stated error of the exact answer, seeds,
defeated and hidden combatants, sides, the round the forecast starts in, an unchanged combat,
and a forecast for a sample fight of every built-in system."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import pytest
from traitlets import Bool, Int, Unicode

from tabletop_widgets.core import AttackOdds, AttackSpec, CharacterModel, Combat, GameSystem, T
from tabletop_widgets.core import available_systems, get_system
from tabletop_widgets.core.combat.forecast import Z95, forecast
from tabletop_widgets.core.system import DamageOutcome
from tabletop_widgets.dice import Distribution


class Duelist(CharacterModel):
    SYSTEM = "duel"
    name = Unicode("").tag(persist=True)
    hp = Int(2).tag(persist=True)
    hp_max = Int(2).tag(persist=True)
    hit = Int(1).tag(persist=True)  # the chance to hit, in sixths
    dmg = Int(1).tag(persist=True)  # the damage of a hit
    is_npc = Bool(False).tag(persist=True)

    def _derive(self):
        pass


class Duel(GameSystem):
    """One attack, "jab": hits with ``hit``/6 for ``dmg``; out at 0 hp."""

    slug = "duel"
    title = T("Duel", "Дуэль")
    Character = Duelist

    def validate(self, character):
        return []

    def checks(self, character):
        return []

    def health(self, character):
        return character.hp, character.hp_max

    def attacks(self, attacker, target):
        return [AttackSpec("jab", T("Jab", "Укол"))]

    def attack_odds(self, attacker, target, attack_id, **options):
        p = Fraction(attacker.hit, 6)
        damage = Distribution({0: 1 - p, attacker.dmg: p}) if attacker.dmg else Distribution({0: 1})
        return AttackOdds("jab", p, damage)

    def apply_damage(self, character, amount, **options):
        old = character.hp
        character.hp = old - amount
        return DamageOutcome({"hp": (old, character.hp)}, defeated=self.is_defeated(character))


DUEL = Duel()


def duel(*fighters, hidden=()):
    """A combat of ``(id, Duelist values)`` in that order."""
    combat = Combat(DUEL)
    for cid, values in fighters:
        combat.add(cid, Duelist(name=cid.title(), **values), hidden=cid in hidden)
    return combat


SIDES = {"a": "party", "b": "other", "c": "party", "d": "other"}


def p_two_hits(r: int) -> float:
    """P(at least 2 hits in r attacks, each hitting with p = 1/2)."""
    return 1 - (1 + r) / 2**r


def one_sided():
    """A (never hurt: it has 100 hp and B does not hit) jabs B (2 hp) for 1 with p = 1/2."""
    return duel(("a", {"hp": 100, "hp_max": 100, "hit": 3}), ("b", {"hp": 2, "hit": 0}))


def test_the_hand_computed_duel():
    f = forecast(one_sided(), rounds=6, sides=SIDES)
    assert f.exact and f.samples == 0 and f.error == 0.0 and f.sides == 2
    b = f.row("b")
    assert b.p_out == pytest.approx([p_two_hits(r) for r in range(1, 7)], abs=1e-12)
    assert f.row("a").p_out == (0.0,) * 6
    assert f.p_over == pytest.approx(b.p_out, abs=1e-12)
    # E[min(T, 6)] = sum of P(T > r) for r = 0..5; P(T > 6) is the mass beyond
    assert f.expected_length == pytest.approx(sum((1 + r) / 2**r for r in range(6)), abs=1e-12)
    assert f.beyond == pytest.approx(7 / 2**6, abs=1e-12)


@lru_cache(maxsize=None)
def enumerated(hp_a: int, hp_b: int, left: int) -> tuple[Fraction, Fraction]:
    """(P(A is out), P(B is out)) after ``left`` more attacks, alternating A (hits 1/2 for 1)
    then B (hits 1/3 for 2), A first: every sequence of hits and misses, summed exactly."""
    if hp_a <= 0 or hp_b <= 0 or left == 0:
        return Fraction(int(hp_a <= 0)), Fraction(int(hp_b <= 0))
    a_turn = left % 2 == 0
    p, hit = (Fraction(1, 2), (hp_a, hp_b - 1)) if a_turn else (Fraction(1, 3), (hp_a - 2, hp_b))
    on_hit, on_miss = enumerated(*hit, left - 1), enumerated(hp_a, hp_b, left - 1)
    return tuple(p * h + (1 - p) * m for h, m in zip(on_hit, on_miss))


def two_sided():
    return duel(("a", {"hp": 3, "hp_max": 3, "hit": 3}), ("b", {"hp": 2, "hit": 2, "dmg": 2}))


def test_a_two_sided_duel_agrees_with_every_sequence_enumerated():
    f = forecast(two_sided(), rounds=5, sides=SIDES)
    assert f.exact
    for r in range(1, 6):
        out_a, out_b = enumerated(3, 2, 2 * r)
        assert f.row("a").p_out[r - 1] == pytest.approx(float(out_a), abs=1e-12)
        assert f.row("b").p_out[r - 1] == pytest.approx(float(out_b), abs=1e-12)
        assert f.p_over[r - 1] == pytest.approx(float(out_a + out_b), abs=1e-12)  # never both


def test_the_simulation_is_within_its_stated_error_of_the_exact_answer():
    """The stated error is a 95% half-width (at the least certain figure): over ten seeds, at
    least 90% of the figures are within it and every one within twice it."""
    exact = forecast(two_sided(), rounds=5, sides=SIDES)
    want = [p for row in exact.rows for p in row.p_out] + list(exact.p_over)
    within, misses = 0, []
    for seed in range(10):
        sim = forecast(two_sided(), rounds=5, samples=2000, seed=seed, sides=SIDES, exact=False)
        assert not sim.exact and sim.samples == 2000 and sim.seed == seed
        got = [p for row in sim.rows for p in row.p_out] + list(sim.p_over)
        assert sim.error == pytest.approx(max(Z95 * math.sqrt(p * (1 - p) / 2000) for p in got))
        assert 0.01 < sim.error < 0.03
        within += sum(abs(p - q) <= sim.error for p, q in zip(got, want))
        misses += [(seed, p, q) for p, q in zip(got, want) if abs(p - q) > 2 * sim.error]
        assert abs(sim.expected_length - exact.expected_length) <= 5 * sim.error
    assert within >= 0.9 * 10 * len(want) and not misses


def test_the_simulation_is_deterministic_under_a_seed():
    one = forecast(two_sided(), samples=500, seed=9, sides=SIDES, exact=False)
    assert one == forecast(two_sided(), samples=500, seed=9, sides=SIDES, exact=False)
    assert one != forecast(two_sided(), samples=500, seed=10, sides=SIDES, exact=False)


def test_past_the_exact_bounds_it_simulates():
    f = forecast(two_sided(), samples=300, sides=SIDES, max_states=1)
    assert not f.exact and f.samples == 300 and f.error > 0


def test_a_defeated_combatant_is_out_at_0():
    combat = duel(("a", {"hit": 3}), ("b", {"hit": 3}), ("c", {"hp": 0}))
    combat.set_defeated("a", True)
    f = forecast(combat, rounds=3, sides=SIDES)
    for cid in ("a", "c"):
        assert f.row(cid).p_out_now == 1.0 and f.row(cid).p_out == (1.0, 1.0, 1.0)
    assert f.row("b").p_out == (0.0, 0.0, 0.0)  # nobody of the party is left to hurt B
    assert f.p_over == (1.0, 1.0, 1.0) and f.expected_length == 0.0 and f.beyond == 0.0


def test_hidden_combatants_are_in_the_gms_forecast():
    combat = duel(("a", {"hit": 3}), ("b", {"hit": 0}), hidden={"b"})
    f = forecast(combat, rounds=4, sides=SIDES)
    assert f.row("b").hidden and f.row("b").p_out == pytest.approx([p_two_hits(r) for r in range(1, 5)])


def test_the_combat_is_unchanged():
    combat = two_sided()
    combat.next_turn()
    combat.damage("b", 1)
    before, events = combat.state(), list(combat.events)
    forecast(combat, sides=SIDES)
    forecast(combat, sides=SIDES, exact=False, samples=200)
    assert combat.state() == before and combat.events == events


def test_round_1_is_the_rest_of_the_current_round():
    """B (1 hp) is jabbed by A with p = 1/2; it is B's turn, so round 1 has no attack by A."""
    combat = duel(("a", {"hp": 100, "hp_max": 100, "hit": 3}), ("b", {"hp": 1, "hit": 0}))
    combat.next_turn()
    combat.next_turn()
    assert combat.current == "b"
    f = forecast(combat, rounds=3, sides=SIDES)
    assert f.row("b").p_out == pytest.approx([0.0, 0.5, 0.75])
    combat.previous_turn()  # A's turn again, A has not attacked
    assert forecast(combat, rounds=1, sides=SIDES).row("b").p_out == pytest.approx([0.5])


def test_sides_from_is_npc_and_else_all_against_all():
    npc = duel(("a", {"hit": 3}), ("b", {"hit": 3, "is_npc": True}), ("c", {"hit": 3}))
    f = forecast(npc, rounds=2)
    assert f.sides == 2 and f.row("a").side == "pc" and f.row("b").side == "npc"
    assert f.row("b").p_out[0] == pytest.approx(0.25)  # both PCs jab the NPC
    assert f.row("c").p_out == (0.0, 0.0)  # the NPC jabs A, the first PC
    free = forecast(duel(("a", {"hit": 3}), ("b", {"hit": 3}), ("c", {"hit": 3})), rounds=2)
    assert free.sides == 3
    # all against all: A jabs B (the first standing other), B and C jab A, nobody C
    assert free.row("a").p_out[0] == pytest.approx(0.25) and free.row("b").p_out[0] == 0.0
    assert free.row("c").p_out == (0.0, 0.0)


@pytest.mark.parametrize("slug", sorted(available_systems()))
def test_every_system_forecasts_a_sample_fight(slug):
    from tabletop_widgets.widgets.lobby import sample_character

    system = get_system(slug)
    combat = Combat(system)
    for cid, name in (("a", "Ann"), ("b", "Bors"), ("c", "Cid"), ("d", "Dag")):
        combat.add(cid, sample_character(system, name))
    before = combat.state()
    f = forecast(combat, rounds=4, samples=200, sides=SIDES)
    assert [r.id for r in f.rows] == ["a", "b", "c", "d"] and f.sides == 2 and f.rounds == 4
    for row in f.rows:
        assert len(row.p_out) == 4 and all(0.0 <= p <= 1.0 for p in row.p_out)
        assert list(row.p_out) == sorted(row.p_out)
    assert list(f.p_over) == sorted(f.p_over)
    assert 0.0 < f.expected_length <= 4.0 and 0.0 <= f.beyond <= 1.0
    assert f.exact or f.error > 0
    assert combat.state() == before


def test_what_earlier_forecasts_learned_changes_no_answer():
    from tabletop_widgets.core.combat.forecast import clear_memo

    clear_memo()
    for exact in (None, False):
        fresh = forecast(two_sided(), samples=300, sides=SIDES, exact=exact)
        again = forecast(two_sided(), samples=300, sides=SIDES, exact=exact)  # from the memo
        clear_memo()
        assert fresh == again == forecast(two_sided(), samples=300, sides=SIDES, exact=exact)


def test_a_fight_nobody_can_be_taken_out_of_says_so():
    from tabletop_widgets.core.combat.forecast import Forecast, ForecastRow, forecast_html

    rows = tuple(
        ForecastRow(id=c, name=c.title(), side="x", hidden=False, p_out_now=0.0, p_out=(0.0,) * 10) for c in ("a", "b")
    )
    f = Forecast(rows=rows, rounds=10, p_over=(0.0,) * 10, expected_length=10.0, beyond=1.0, exact=True)
    assert "nobody is out within 10 rounds" in forecast_html(f, "en")
    assert "никто не выбудет и за 10 раундов" in forecast_html(f, "ru")
    one = Forecast(
        rows=(rows[0], ForecastRow(id="c", name="C", side="y", hidden=False, p_out_now=0.0, p_out=(0.5,) * 10)),
        rounds=10,
        p_over=(0.5,) * 10,
        expected_length=2.0,
        beyond=0.0,
        exact=True,
    )
    assert "nobody is out" not in forecast_html(one, "en")
