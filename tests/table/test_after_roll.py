"""Epic dice spent after the roll at a shared table (issue #17, L351): ``TableSession.after_roll``
amends the player's own latest check once, computed from the roll as the table recorded it,
checked as if the browser were hostile (someone else's roll, an old roll, a roll that offers
nothing, too many dice, forged options: refused for a player, nothing written), seen by every
seat that saw the roll, and ``verify_table`` still passes. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tabletop_systems.life_and_death import SYSTEM
from tabletop_widgets.core import RuleError
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, verify_table
from tabletop_widgets.table.rules import PlayError
from tabletop_widgets.table.session import check, rebuild
from tabletop_widgets.table.transcript import session_transcript

RACE = dict(might=2, dexterity=3, alertness=2, complexity=3, power=2, luck=2)


def sheet(name, **kw):
    c = SYSTEM.Character(name=name, race_params=RACE, age="young", reputation=3, epic_dice=3, **kw)
    c.phase = "play"
    return c.to_dict()


@pytest.fixture
def made(store):
    return create_table(
        store,
        SYSTEM.slug,
        [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("ann", "player", "Ann", "ada"),
            SeatSpec("ben", "player", "Ben", "bo"),
            SeatSpec("eve", "observer", "Eve"),
        ],
        characters={"ada": sheet("Ada"), "bo": sheet("Bo"), "quick": sheet("Quick", mode="quick")},
    )


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def count(store, made) -> int:
    return len(store.events(made.table_id))


def test_a_player_spends_an_epic_die_after_their_roll_and_every_seat_sees_it(store, made):
    ann, eve = join(store, made, "ann"), join(store, made, "eve")
    rolled = ann.roll(check("might", "ada", difficulty=2))
    first = rolled.payload["result"]
    assert first["details"]["epic_after"]["max"] == 3
    event = ann.after_roll(rolled.payload["index"], epic=2)
    assert event.kind == "check.after" and event.audience == "all"
    new = event.payload["result"]
    assert event.payload["options"] == {"epic": 2} and new["details"]["epic_after_spent"] == 2
    assert new["total"] == first["total"] + 2 and new["success"] == (new["total"] >= 2)
    assert ann.state.characters["ada"]["epic_dice"] == 1
    eve.poll()
    assert eve.state.characters["ada"]["epic_dice"] == 1
    line = eve.state.log[-1]
    assert (line["kind"], line["index"], line["total"]) == ("check.after", rolled.payload["index"], new["total"])
    assert rebuild(store, made.table_id).characters["ada"]["epic_dice"] == 1
    told = session_transcript(eve, 1, fmt="md")
    assert "changed after the roll" in told and "изменено после броска" in session_transcript(eve, 1, locale="ru")
    join(store, made, "gm").end_session()
    report = verify_table(store, made.table_id)
    assert not report.problems and report.rolls == 1  # no new dice: the one check


def refused(store, made, call, kind=(PlayError, RuleError, PermissionDenied)):
    before = count(store, made)
    with pytest.raises(kind) as err:
        call()
    assert count(store, made) == before
    return err.value


def test_what_the_rules_or_the_seat_forbid_is_refused_and_nothing_written(store, made):
    ann, ben = join(store, made, "ann"), join(store, made, "ben")
    gm = join(store, made, "gm")
    old = ann.roll(check("might", "ada")).payload["index"]
    latest = ann.roll(check("luck", "ada")).payload["index"]
    ben.poll()
    err = refused(store, made, lambda: ben.after_roll(latest, epic=1))  # someone else's roll
    assert isinstance(err, (PermissionDenied, PlayError))
    gm.poll()
    err = refused(store, made, lambda: gm.after_roll(latest, epic=1))  # the GM sees it, but it is Ann's
    assert err.code == "not_your_roll" and err.text("ru")
    err = refused(store, made, lambda: ann.after_roll(old, epic=1))
    assert err.code == "not_latest_roll" and err.text("ru")
    for options, code in [({"epic": 4}, "bad_option"), ({"epic": 0}, "bad_option"), ({"dice": 1}, "unknown_option")]:
        err = refused(store, made, lambda o=options: ann.after_roll(latest, **o))
        assert err.code == code and err.text("en") and err.text("ru")
    err = refused(store, made, lambda: ann.after_roll(999, epic=1))
    assert err.code == "no_such_check"
    err = refused(store, made, lambda: ann.after_roll("1", epic=1))
    assert err.code == "no_such_check" or err.code == "bad_roll"
    ann.after_roll(latest, epic=1)
    err = refused(store, made, lambda: ann.after_roll(latest, epic=1))  # once per roll
    assert err.code == "already_amended"
    quick = gm.roll(check("might", "quick")).payload["index"]
    err = refused(store, made, lambda: gm.after_roll(quick, epic=1))  # a roll that offers nothing
    assert err.code == "no_after_roll"
    assert ann.state.characters["ada"]["epic_dice"] == 2


def test_a_roll_of_a_finished_session_is_refused(store, made):
    ann, gm = join(store, made, "ann"), join(store, made, "gm")
    index = ann.roll(check("might", "ada")).payload["index"]
    gm.end_session()
    gm.start_session()
    ann.poll()
    err = refused(store, made, lambda: ann.after_roll(index, epic=1))
    assert err.code == "old_roll"
