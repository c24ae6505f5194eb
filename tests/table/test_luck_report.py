"""Issue 35, part 4: how lucky was the evening (``TableSession.luck_report``, ``share_luck``).

Each roll of an ended session is re-rolled from its revealed seed; its percentile
``P(X < t) + P(X = t) / 2`` is checked against a hand computation; the evening's percentile
against a brute-force count over every outcome; who sees which rolls, a tampered stored total,
and sharing (a forged share refused)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from tabletop_widgets.dice import distribution, roll as dice_roll
from tabletop_widgets.table import PermissionDenied, PlayError, SeatSpec, TableSession, create_table
from tabletop_widgets.table import luck as luck_mod
from tabletop_widgets.table.fairdice import rng_for
from tabletop_widgets.table.kinds import LUCK_SHARED, line_of
from tabletop_widgets.table.kinds.base import LineContext
from tabletop_widgets.table.luck import evening_of, mid_values, percentile

from .test_trust import rewrite_chain, sql


@pytest.fixture
def table(store, store_url, open_store_at, ret_sheet):
    made = create_table(
        store,
        "ret",
        [
            SeatSpec("gm", "gm", "Gina"),
            SeatSpec("bob", "player", "Bob", "c_bob"),
            SeatSpec("amy", "player", "Amy", "c_amy"),
            SeatSpec("eve", "observer"),
        ],
        characters={"c_bob": ret_sheet, "c_amy": ret_sheet},
        title="Luck",
    )

    def join(seat):
        return TableSession.join(open_store_at(store_url), made.table_id, made.tokens[seat])

    return made, join


def _seed(store, table_id, n=1) -> bytes:
    return bytes.fromhex(next(s for s in store.sessions(table_id) if s.n == n).seed)


def _hand_1d6(t: int) -> Fraction:
    return Fraction(t - 1, 6) + Fraction(1, 12)


_2D6 = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


def _hand_2d6(t: int) -> Fraction:
    return sum((p for s, p in _2D6.items() if s < t), Fraction(0)) + _2D6[t] / 2


def test_the_percentile_formula_by_hand():
    assert percentile(distribution("1d6"), 4) == Fraction(7, 12)  # 1/2 + 1/12
    assert percentile(distribution("2d6"), 7) == Fraction(15, 36) + Fraction(6, 72) == Fraction(1, 2)
    assert percentile(distribution("1d20"), 20) == Fraction(39, 40)
    assert [u for u, _p in mid_values(distribution("1d4"))] == [
        Fraction(1, 8),
        Fraction(3, 8),
        Fraction(5, 8),
        Fraction(7, 8),
    ]


def test_the_evening_against_every_outcome_counted():
    """Two rolls of 1d6 and one of 2d6: P(mean < observed) and P(=) by brute force."""
    laws = [dict(distribution("1d6")), dict(distribution("1d6")), dict(distribution("2d6"))]
    totals = (5, 2, 9)
    observed = [_hand_1d6(5), _hand_1d6(2), _hand_2d6(9)]
    below = ties = Fraction(0)
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        s = _hand_1d6(a) + _hand_1d6(b) + _hand_2d6(c + d)
        below += Fraction(1, 6**4) if s < sum(observed) else 0
        ties += Fraction(1, 6**4) if s == sum(observed) else 0
    ev = evening_of(laws, observed)
    assert ev.method == "exact" and ev.exact == below and ev.ties == pytest.approx(float(ties))
    assert [percentile(law, t) for law, t in zip(laws, totals)] == observed
    # one roll alone: the evening is P(X < t), the mean percentile is not it
    assert evening_of([laws[0]], [Fraction(7, 12)]).exact == Fraction(1, 2)


def test_a_big_evening_is_simulated_with_its_error_stated(monkeypatch):
    laws = [dict(distribution(e)) for e in ("3d6", "1d20", "2d10", "1d12")]
    observed = [percentile(law, t) for law, t in zip(laws, [12, 15, 9, 8])]
    exact = evening_of(laws, observed)
    assert exact.method == "exact" and exact.error == 0
    monkeypatch.setattr(luck_mod, "MAX_SUMS", 10)
    sim = evening_of(laws, observed, seed=b"k" * 32)
    assert sim.method == "simulated" and sim.samples == luck_mod.SAMPLES and 0 < sim.error < 0.02
    assert abs(sim.below - exact.below) <= sim.error
    assert evening_of(laws, observed, seed=b"k" * 32) == sim  # seeded: anyone repeats it


def test_refused_until_the_key_is_revealed(table):
    _made, join = table
    gm, bob = join("gm"), join("bob")
    bob.roll("1d6")
    for seat in (gm, bob):
        with pytest.raises(PlayError) as err:
            seat.luck_report()
        assert err.value.code == "luck_not_revealed"
        assert "not revealed" in err.value.message["en"] and "не раскрыт" in err.value.message["ru"]
    gm.end_session()
    gm.start_session()
    bob.roll("1d6")
    assert bob.luck_report().session == 1  # the last ended one
    with pytest.raises(PlayError, match="not revealed"):
        bob.luck_report(2)
    with pytest.raises(PlayError, match="no session"):
        bob.luck_report(7)


def test_a_player_sees_their_own_rolls_from_the_seed_the_gm_sees_all(table, store):
    made, join = table
    gm, bob, amy = join("gm"), join("bob"), join("amy")
    b1 = bob.roll("1d6")
    secret = gm.roll("1d20", hidden=True)
    b2 = bob.roll("2d6", hidden=True)  # bob's own hidden roll: his and the GM's
    a1 = amy.roll("1d6")
    gm.roll("1d8")
    gm.end_session()
    seed = _seed(store, made.table_id)

    def again(expr, event):
        return dice_roll(expr, rng=rng_for(seed, event.roll)).total

    report = bob.luck_report()
    assert set(report.seats) == {"bob"} and report.seat == "bob"
    assert [(r.index, r.kind, r.total) for r in report.rolls] == [
        (b1.roll, "roll", again("1d6", b1)),
        (b2.roll, "roll", again("2d6", b2)),
    ]
    assert report.rolls[0].percentile == _hand_1d6(again("1d6", b1))
    assert report.rolls[1].percentile == _hand_2d6(again("2d6", b2)) and report.rolls[1].hidden
    assert report.mean == (report.rolls[0].percentile + report.rolls[1].percentile) / 2
    assert report.evening.method == "exact" and 0 <= report.evening.below <= 1
    assert all(r.matches for r in report.rolls) and not report.problems
    # the GM's hidden roll never reaches a player's report (nor their kernel's reads)
    assert secret.roll not in {r.index for r in report.rolls}
    assert secret.seq not in {e.seq for e in bob.events()}
    assert {r.index for r in amy.luck_report().rolls} == {a1.roll}  # not bob's hidden one
    everyone = gm.luck_report()
    assert set(everyone.seats) == {"bob", "amy", "gm"}
    assert [r.index for r in everyone.seats["bob"].rolls] == [b1.roll, b2.roll]
    gm_rolls = everyone.rolls  # the GM's own, hidden one included
    assert [r.index for r in gm_rolls] == [secret.roll, secret.roll + 3] and gm_rolls[0].hidden
    assert gm_rolls[0].percentile == Fraction(2 * again("1d20", secret) - 1, 40)


def test_checks_count_and_what_has_no_single_total_is_skipped(table):
    _made, join = table
    gm, bob = join("gm"), join("bob")
    ev = bob.check("attention")
    bob.roll("3#1d6")
    bob.roll("5")
    gm.end_session()
    report = bob.luck_report()
    system = bob.system
    model = system.Character.from_dict(ev.payload["character"])
    law = dict(system.check_distribution(model, "attention", **ev.payload["options"]))
    (counted,) = report.rolls
    assert counted.kind == "check" and counted.matches and counted.what["en"] and counted.what["ru"]
    key = counted.total
    assert key in law and counted.percentile == percentile(law, key)
    assert sorted(s.reason for s in report.skipped) == ["fixed", "repeated"]
    assert all(s.why["en"] and s.why["ru"] for s in report.skipped)


def test_a_tampered_stored_total_is_flagged(table, store, store_url, backend):
    made, join = table
    gm, bob = join("gm"), join("bob")
    target = bob.roll("1d20")
    gm.end_session()
    seed = _seed(store, made.table_id)
    true_total = dice_roll("1d20", rng=rng_for(seed, target.roll)).total
    forged = json.loads(json.dumps(target.payload))
    forged["result"]["total"] = forged["result"]["dice"][0]["value"] = true_total % 20 + 1
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), target.seq))
    rewrite_chain(store_url, backend, made.table_id)
    for entry in bob.state.log:  # the kernel's memory is not read either
        if entry.get("kind") == "roll":
            entry["total"] = entry["result"]["total"] = 99
    report = bob.luck_report()
    (r,) = report.rolls
    assert not r.matches and r.total == true_total and r.stored_total == true_total % 20 + 1
    assert r.percentile == Fraction(2 * true_total - 1, 40)  # the seed's total, not the stored one
    assert report.own.flagged == [r] and "not what the seed gives" in report.problems[0]


def test_sharing_is_seen_by_every_seat(table):
    _made, join = table
    gm, bob, amy, eve = join("gm"), join("bob"), join("amy"), join("eve")
    bob.roll("1d6")
    bob.roll("2d6")
    gm.end_session()
    report = bob.luck_report()
    event = bob.share_luck()
    assert event.kind == LUCK_SHARED.name and event.audience == "all" and event.actor == "bob"
    assert event.payload["session"] == 1 and event.payload["rolls"] == 2
    assert event.payload["mean"] == pytest.approx(float(report.mean), abs=1e-6)
    for seat in (gm, amy, eve):
        seat.poll()
        assert seat.shared_luck()["bob"]["evening"] == pytest.approx(report.evening.below, abs=1e-6)
    entry = next(e for e in amy.state.log if e.get("kind") == LUCK_SHARED.name)
    line = line_of(entry, LineContext(amy.state, amy.system))
    assert "Bob" == line.who and "evenings" in line.text["en"] and "вечеров" in line.text["ru"]
    with pytest.raises(PlayError, match="already shared"):
        bob.share_luck()


def test_a_forged_share_is_refused(table):
    _made, join = table
    gm, bob, amy, eve = join("gm"), join("bob"), join("amy"), join("eve")
    bob.roll("1d6")
    amy.roll("1d6")
    gm.end_session()
    bobs = bob.luck_report()
    with pytest.raises(PermissionDenied):
        amy.share_luck(bobs)  # another seat's report
    with pytest.raises(PermissionDenied):
        bob.share_luck(gm.luck_report())  # the GM's: every seat's rolls
    bobs.own.rolls[0] = bobs.own.rolls[0].__class__(**{**bobs.own.rolls[0].__dict__, "percentile": Fraction(1)})
    with pytest.raises(PlayError, match="not the one the table computes"):
        bob.share_luck(bobs)
    for seat in (gm, eve):  # only a player shares their own
        with pytest.raises(PermissionDenied):
            seat.share_luck()
    forged = {"session": 1, "rolls": 9, "skipped": 0, "flagged": 0, "mean": 1.0, "evening": 1.0}
    with pytest.raises(PermissionDenied):  # numbers a page made up: only share_luck writes them
        amy.record(LUCK_SHARED.name, {**forged, "ties": 0.0, "method": "exact", "error": 0.0})
    amy.poll()
    assert amy.shared_luck() == {}


def test_too_big_for_exact_odds_is_skipped_and_an_explosion_counts(table):
    _made, join = table
    gm, bob = join("gm"), join("bob")
    bob.roll("1000d6")
    boom = bob.roll("1d6!")
    gm.end_session()
    report = bob.luck_report()
    assert [s.reason for s in report.skipped] == ["too_big"]
    (r,) = report.rolls
    assert r.index == boom.roll and 0 < r.cut < Fraction(1, 10**11)
    assert report.evening.error == pytest.approx(float(r.cut))


def test_a_shared_report_is_told_in_the_transcript(table):
    from tabletop_widgets.table import session_transcript

    _made, join = table
    gm, bob, amy = join("gm"), join("bob"), join("amy")
    bob.roll("1d20")
    gm.end_session()
    bob.share_luck()
    amy.poll()
    for seat in (gm, amy):
        assert "luck of session 1" in session_transcript(seat, 1, fmt="md", locale="en")
    assert "удача сессии 1" in session_transcript(amy, 1, fmt="md", locale="ru")


def test_a_revealed_key_that_is_not_the_sessions_is_refused(table, store_url, backend):
    made, join = table
    gm, bob = join("gm"), join("bob")
    bob.roll("1d6")
    ended = gm.end_session()
    forged = {**ended.payload, "seed": "00" * 32}
    sql(store_url, backend, "UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), ended.seq))
    rewrite_chain(store_url, backend, made.table_id)
    with pytest.raises(PlayError) as err:
        bob.luck_report()
    assert err.value.code == "luck_bad_seed" and "не совпадает" in err.value.message["ru"]
