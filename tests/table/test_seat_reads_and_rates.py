"""Issue 31, items 8 and 9, on SQLite and PostgreSQL: a retired (or reissued) seat's open page
reads nothing more of the table (its token is checked in every read, not only on writes), and
the rate limit is the seat's, whatever number of pages (kernels, servers) it has open."""

from __future__ import annotations

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import (
    PlayError,
    SeatError,
    SeatRevoked,
    SeatSpec,
    TableSession,
    create_table,
    retire_seat,
)
from tabletop_widgets.table.rules import RATE_LIMITS
from tabletop_widgets.widgets.lobby import sample_character

RET = get_system("ret")


@pytest.fixture
def made(store):
    return create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        characters={"ada": sample_character(RET, "Ada").to_dict(), "bo": sample_character(RET, "Bo").to_dict()},
    )


def join(store, made, seat, **kw):
    return TableSession.join(store, made.table_id, made.tokens[seat], **kw)


def test_a_retired_players_open_page_reads_nothing_more(store, made):
    """The bug: Ben's page, open when the GM retired his seat, went on reading the chat and the
    session's start and end. Now its next read finds the seat gone: nothing is read, its page is
    told once, and it writes nothing either."""
    gm, ben = join(store, made, "gm"), join(store, made, "ben")
    told = []
    ben.on_revoked(lambda: told.append(True))
    gm.say("before")
    ben.poll()
    assert any(line.get("text") == "before" for line in ben.state.log)
    retire_seat(store, made.table_id, "ben")
    gm.say("the secret plan")
    gm.end_session()
    assert ben.poll() == [] and ben.revoked and told == [True]
    assert not any("secret plan" in str(line) for line in ben.state.log)
    assert ben.requests == [] and ben.refresh_requests() is False
    with pytest.raises(SeatRevoked):
        ben.events()
    before = len(store.events(made.table_id))
    with pytest.raises(SeatError) as err:
        ben.say("still here?")
    assert err.value.code == "link_replaced"
    assert len(store.events(made.table_id)) == before


def test_a_reissued_link_stops_the_old_page_reading_and_the_gms_own_reissue_does_not(store, made):
    gm, ann = join(store, made, "gm"), join(store, made, "ann")
    token = gm.reissue_seat("ann")
    gm.say("after the new link")
    assert ann.poll() == [] and ann.revoked
    fresh = TableSession.join(store, made.table_id, token)
    assert any(line.get("text") == "after the new link" for line in fresh.state.log)
    gm.reissue_seat("gm")  # the GM's own new link: this page holds it and reads on
    gm.say("still reading")
    assert not gm.revoked and gm.events()


def test_the_rate_limit_is_the_seats_not_the_pages(store, made):
    """The bug: four pages of one seat accepted 80 chat lines at once where one seat may send
    about 20. Now every page of Ann draws on one bucket in the store (no time passes here)."""
    burst, _per_second = RATE_LIMITS["player"]
    pages = [join(store, made, "ann", wall_clock=lambda: 1000.0) for _ in range(4)]
    accepted = 0
    for i in range(30):
        for page in pages:
            try:
                page.say(f"line {i}")
                accepted += 1
            except PlayError as exc:
                assert exc.code == "rate_limited" and "wait" in str(exc.message["en"]).lower()
    assert accepted == burst
    lines = [e for e in store.events(made.table_id) if e.kind == "message"]
    assert len(lines) == burst  # nothing half-written
    # Ben's bucket is his own, and time refills Ann's
    join(store, made, "ben", wall_clock=lambda: 1000.0).say("mine")
    join(store, made, "ann", wall_clock=lambda: 1003.0).say("after a pause")
