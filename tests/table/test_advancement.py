"""Advancement at a shared table (issues #17 and #18): ``TableSession.advance`` and
``TableSession.award`` computed in Python on the character as the table holds it, recorded as
``character.update`` events that replay without the rules, checked as if the browser were
hostile (a player advances only their own character and never sets a GM option; only the GM
awards; unknown ids, forged options, bad amounts and characters in creation are refused and
nothing is written), allowed between sessions, and told in the session transcript. Played with
Lantern (``tests/fixtures``), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tabletop_widgets.core import RuleError, register_system, unregister_system
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, create_table, verify_table
from tabletop_widgets.table.advancement import outcome_of, reason_of
from tabletop_widgets.table.backup import backup_campaign, restore_campaign
from tabletop_widgets.table.rules import PlayDenied, PlayError
from tabletop_widgets.table.session import rebuild
from tabletop_widgets.table.transcript import session_transcript


@pytest.fixture
def lantern(tutored_lantern_system):
    return tutored_lantern_system


def sheet(system, name, phase="play", **kw):
    c = system.Character(name=name, nerve=3, wits=3, **kw)
    c.phase = phase
    return c.to_dict()


@pytest.fixture
def made(lantern, store):
    return create_table(
        store,
        "lantern",
        [
            SeatSpec("gm", "gm", "Gail"),
            SeatSpec("ann", "player", "Ann", "ada"),
            SeatSpec("ben", "player", "Ben", "bo"),
            SeatSpec("nia", "player", "Nia", "new"),
            SeatSpec("eve", "observer", "Eve"),
        ],
        characters={
            "ada": sheet(lantern, "Ada", xp=20),
            "bo": sheet(lantern, "Bo", xp=20),
            "new": sheet(lantern, "Newt", phase="creation", xp=20),
        },
    )


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def count(store, made) -> int:
    return len(store.events(made.table_id))


def test_a_player_advances_their_own_character_and_every_seat_sees_it(store, made):
    ann = join(store, made, "ann")
    event = ann.advance("ada", "raise:nerve")
    assert event.kind == "character.update" and event.audience == "all"
    assert event.payload["changes"] == {"nerve": 4, "xp": 12}
    reason = reason_of(event.payload)
    assert reason == {
        "kind": "advance",
        "advance_id": "raise:nerve",
        "options": {},
        "cost": {"xp": 8},
        "text": {"en": "Nerve 3 → 4 for 8 XP", "ru": "Нервы 3 → 4 за 8 опыта"},
    }
    assert outcome_of(event).line("ru") == "Нервы 3 → 4 за 8 опыта"
    ben, eve = join(store, made, "ben"), join(store, made, "eve")
    assert ben.state.public_characters["ada"]["nerve"] == 4
    assert eve.state.public_characters["ada"]["xp"] == 12
    replayed = rebuild(store, made.table_id).characters["ada"]
    assert (replayed["nerve"], replayed["xp"]) == (4, 12)


def test_the_replay_needs_no_rules(store, made, lantern):
    join(store, made, "ann").advance("ada", "train", trait="nerve")
    unregister_system("lantern")  # the log alone rebuilds the state
    try:
        state = rebuild(store, made.table_id)
    finally:
        register_system(lantern)
    assert (state.characters["ada"]["nerve"], state.characters["ada"]["xp"]) == (4, 12)


def test_options_are_checked_and_recorded(store, made):
    ann = join(store, made, "ann")
    event = ann.advance("ada", "train", trait="nerve")
    assert event.payload["changes"] == {"nerve": 4, "xp": 12}
    assert reason_of(event.payload)["options"] == {"trait": "nerve", "mentor": False}


@pytest.mark.parametrize("mentor", [True, False])
def test_a_player_never_sets_a_gm_option(store, made, mentor):
    ann = join(store, made, "ann")
    before = count(store, made)
    with pytest.raises(PlayDenied) as err:
        ann.advance("ada", "train", trait="nerve", mentor=mentor)
    assert err.value.code == "gm_option"
    assert "only the GM sets this" in err.value.text("en") and "мастер" in err.value.text("ru")
    assert count(store, made) == before


def test_an_option_marked_gm_only_is_the_gms_too(store, made, lantern, monkeypatch):
    import dataclasses

    real = lantern.advancements

    def marked_only(character):  # the mentor marked on its OptionSpec, not in gm_options
        return [dataclasses.replace(s, gm_options=()) for s in real(character)]

    monkeypatch.setattr(lantern, "advancements", marked_only)
    with pytest.raises(PlayDenied) as err:
        join(store, made, "ann").advance("ada", "train", mentor=True)
    assert err.value.code == "gm_option" and err.value.data == {"options": ["mentor"]}


def test_the_gm_sets_a_gm_option_and_advances_anyone(store, made):
    gm = join(store, made, "gm")
    event = gm.advance("bo", "train", trait="wits", mentor=True)
    assert event.payload["changes"] == {"wits": 4, "xp": 16}
    assert reason_of(event.payload)["cost"] == {"xp": 4}


def test_a_player_advances_only_their_own_character(store, made):
    ann, eve = join(store, made, "ann"), join(store, made, "eve")
    before = count(store, made)
    with pytest.raises(PermissionDenied):
        ann.advance("bo", "raise:nerve")
    with pytest.raises(PermissionDenied):
        eve.advance("ada", "raise:nerve")
    assert count(store, made) == before


@pytest.mark.parametrize(
    ("character_id", "advance_id", "options", "code"),
    [
        ("ada", "raise:luck", {}, "unknown_advance"),
        ("ada", ["raise:nerve"], {}, "unknown_advance"),
        ("ada", None, {}, "unknown_advance"),
        ("ada", "train", {"trait": "luck"}, "bad_option"),
        ("ada", "train", {"trait": ["nerve"]}, "bad_option"),
        ("ada", "raise:nerve", {"free": True}, "unknown_option"),
        ("new", "raise:nerve", {}, "not_in_play"),
    ],
)
def test_forged_advances_are_refused_and_nothing_is_written(store, made, character_id, advance_id, options, code):
    gm = join(store, made, "gm")
    before = count(store, made)
    with pytest.raises(RuleError) as err:
        gm.advance(character_id, advance_id, **options)
    assert err.value.code == code
    assert err.value.text("en") != err.value.text("ru")
    assert count(store, made) == before


def test_not_enough_experience_is_refused(store, made):
    ann = join(store, made, "ann")
    ann.advance("ada", "raise:nerve")  # 20 -> 12
    ann.advance("ada", "raise:wits")  # 12 -> 4
    with pytest.raises(RuleError) as err:
        ann.advance("ada", "raise:nerve")  # costs 10, blocked
    assert err.value.code == "advance_blocked" and "Needs 10 XP" in err.value.text("en")
    assert ann.state.characters["ada"]["xp"] == 4


def test_an_unknown_character_is_a_clear_refusal(store, made):
    gm = join(store, made, "gm")
    before = count(store, made)
    with pytest.raises(PlayError) as err:
        gm.advance("zed", "raise:nerve")
    assert err.value.code == "no_character" and "zed" in err.value.text("ru")
    with pytest.raises(PlayError):
        gm.award("zed", "xp", 5)
    assert count(store, made) == before


def test_the_gm_awards_and_the_award_is_recorded(store, made):
    gm = join(store, made, "gm")
    event = gm.award("ada", "xp", 7)
    assert event.payload["changes"] == {"xp": 27}
    assert reason_of(event.payload) == {
        "kind": "award",
        "resource": "xp",
        "amount": 7,
        "text": {"en": "Ada gets 7 XP.", "ru": "Ada получает 7 опыта."},
    }
    assert join(store, made, "ann").state.characters["ada"]["xp"] == 27


def test_only_the_gm_awards(store, made):
    before = count(store, made)
    for seat in ("ann", "eve"):
        with pytest.raises(PlayDenied) as err:
            join(store, made, seat).award("ada", "xp", 5)
        assert err.value.code == "award_gm_only" and "Only the GM" in str(err.value)
    assert count(store, made) == before


@pytest.mark.parametrize(
    ("character_id", "resource", "amount", "code"),
    [
        ("ada", "xp", 0, "bad_award"),
        ("ada", "xp", -3, "bad_award"),
        ("ada", "xp", 2.5, "bad_award"),
        ("ada", "xp", "10", "bad_award"),
        ("ada", "xp", True, "bad_award"),
        ("ada", "xp", 10_001, "bad_award"),
        ("ada", "health", 5, "unknown_resource"),
        ("ada", ["xp"], 5, "unknown_resource"),
        ("new", "xp", 5, "award_not_in_play"),
    ],
)
def test_bad_awards_are_refused_and_nothing_is_written(store, made, character_id, resource, amount, code):
    gm = join(store, made, "gm")
    before = count(store, made)
    with pytest.raises((RuleError, PlayError)) as err:
        gm.award(character_id, resource, amount)
    assert err.value.code == code and err.value.text("ru")
    assert count(store, made) == before


def test_in_play_a_player_does_not_edit_experience_directly(store, made, lantern):
    ann, gm = join(store, made, "ann"), join(store, made, "gm")
    before = count(store, made)
    with pytest.raises(PlayDenied) as err:
        ann.update_character("ada", {"xp": 500})
    assert err.value.code == "resource_edit" and "Experience changes only" in str(err.value)
    assert "Опыт" in err.value.text("ru")
    with pytest.raises(PlayDenied):  # the sheet's JSON Load replaces the whole sheet
        ann.set_character("ada", sheet(lantern, "Ada", xp=999))
    assert count(store, made) == before
    ann.update_character("ada", {"health": 5})  # the rest of play goes on
    gm.update_character("ada", {"xp": 40})  # the GM still may
    ann.poll()
    assert ann.state.characters["ada"]["xp"] == 40


def test_in_creation_a_player_still_sets_experience(store, made):
    nia = join(store, made, "nia")
    nia.update_character("new", {"xp": 3})
    assert nia.state.characters["new"]["xp"] == 3


def test_no_seat_forges_an_advance_line(store, made):
    ann, gm = join(store, made, "ann"), join(store, made, "gm")
    before = count(store, made)
    forged = {"kind": "advance", "advance_id": "raise:nerve", "text": {"en": "Nerve 3 → 5 for free", "ru": "даром"}}
    for seat in (ann, gm):
        with pytest.raises(PlayDenied) as err:
            seat.update_character("ada", {"health": 4}, reason=forged)
        assert err.value.code == "advancement_reason"
    assert count(store, made) == before


def test_between_sessions_the_gm_awards_and_the_player_spends(store, made):
    gm, ann = join(store, made, "gm"), join(store, made, "ann")
    first = gm.commitment
    gm.end_session()
    gm.award("ada", "xp", 10)  # 30
    ann.poll()
    ann.advance("ada", "raise:wits")  # 8: 22
    gm.start_session()
    assert gm.commitment != first
    gm.poll()
    assert (gm.state.characters["ada"]["wits"], gm.state.characters["ada"]["xp"]) == (4, 22)
    report = verify_table(store, made.table_id, session=1)
    assert report.ok
    gm.end_session()
    assert verify_table(store, made.table_id).ok
    fresh = join(store, made, "ann")  # the same link, another kernel
    assert (fresh.state.characters["ada"]["wits"], fresh.state.characters["ada"]["xp"]) == (4, 22)


def test_the_transcript_tells_advances_and_awards(store, made):
    gm, ann = join(store, made, "gm"), join(store, made, "ann")
    ann.advance("ada", "raise:nerve")
    gm.end_session()
    gm.award("ada", "xp", 10)
    ann.poll()
    ann.advance("ada", "raise:wits")
    gm.start_session()
    ann.poll()
    md = session_transcript(ann, 1, fmt="md")
    assert "- **Ann**: Ada: Nerve 3 → 4 for 8 XP" in md
    after = md.split("## After the session", 1)[1]
    assert "- **Gail**: Ada gets 10 XP." in after and "Ada: Wits 3 → 4 for 8 XP" in after
    ru = session_transcript(ann, 1, fmt="html", locale="ru")
    assert "После сессии" in ru and "Ada получает 10 опыта." in ru and "Нервы 3 → 4 за 8 опыта" in ru
    assert "получает" not in session_transcript(ann, 2, fmt="md")


def test_an_advance_survives_a_campaign_backup(store, made, tmp_path, lantern):
    join(store, made, "ann").advance("ada", "raise:nerve")
    path = tmp_path / "campaign.jsonl"
    backup_campaign(store, made.table_id, path)
    from tabletop_widgets.table import open_store

    other = open_store(str(tmp_path / "restored.db"))
    try:
        info = restore_campaign(other, path)
        assert rebuild(other, info.table_id).characters["ada"]["nerve"] == 4
    finally:
        other.close()


def _ret_table(store, **rules):
    from tabletop_widgets import get_system

    ret = get_system("ret")
    vera = ret.Character(name="Vera", dp=6)
    vera.phase = "play"
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "vera")],
        characters={"vera": vera.to_dict()},
        options={"rules": rules} if rules else None,
    )
    first = next(s.id for s in ret.with_rules(**rules).advancements(vera) if s.blocked is None)
    return made, first


def test_ret_development_points_wait_for_the_end_of_the_session(store):
    """RET spends development points before or after a game, not during one (L280): a table
    refuses an advance while the session is open, for the GM too, and takes it between sessions."""
    made, first = _ret_table(store)
    gm, ann = join(store, made, "gm"), join(store, made, "ann")
    before = count(store, made)
    for seat in (ann, gm):
        with pytest.raises(RuleError) as err:
            seat.advance("vera", first)
        assert err.value.code == "advance_after_session"
        assert "not during play" in err.value.text("en") and "не во время" in err.value.text("ru")
    assert count(store, made) == before
    gm.end_session()
    ann.poll()
    ann.advance("vera", first)
    assert reason_of(store.events(made.table_id)[-1].payload)["advance_id"] == first


def test_ret_advances_during_a_session_when_the_gm_allows_it(store):
    """The book says "usually" (L280): with the GM option off, an advance is taken during play."""
    made, first = _ret_table(store, dp_spend_only_between_games=False)
    join(store, made, "ann").advance("vera", first)
    assert reason_of(store.events(made.table_id)[-1].payload)["advance_id"] == first
