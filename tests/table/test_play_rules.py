"""The session checks every seat action as if the browser were hostile (issue 14, holes 1, 2, 3
and 7): failed rolls spend their index and show no drawn value, check options stay inside what
the check declares, GM-only sheet fields stay the GM's, text has limits and seats a rate limit."""

from __future__ import annotations

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.dice import DiceError
from tabletop_widgets.table import PermissionDenied, SeatSpec, TableSession, check, create_table, verify_table
from tabletop_widgets.table.rules import (
    TEXT_LIMITS,
    PlayDenied,
    PlayError,
    RateLimit,
    check_options,
    gm_only_fields,
    option_problem,
)


def table_for(store, slug="ret", **kw):
    sheet = get_system(slug).Character().to_dict()
    return create_table(
        store,
        slug,
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1")],
        characters={"c1": sheet},
        validate_characters=False,
        **kw,
    )


def join(store, made, seat, **kw):
    return TableSession.join(store, made.table_id, made.tokens[seat], **kw)


# -- hole 1: a failed roll spends its index and shows no drawn value ------------------------------
def test_failed_roll_spends_its_index_and_hides_the_value(store):
    made = table_for(store)
    bob, gm = join(store, made, "bob"), join(store, made, "gm")
    shown = []
    for _ in range(5):  # the probe: each failed attempt takes a new index
        with pytest.raises(PlayError) as exc:
            bob.roll("(1d20 - 100)d6")
        assert exc.value.code == "roll_failed"
        shown += [exc.value.text("en"), exc.value.text("ru")]
    assert store.head(made.table_id).next_roll == 5
    # nothing the seat sees names the drawn value: not the error, not the log
    for drawn in range(-99, -79):
        assert not any(str(drawn) in text for text in shown)
    failed = [x for x in bob.state.log if x.get("failed")]
    assert [x["index"] for x in failed] == [0, 1, 2, 3, 4]
    assert all(str(-99 + d) not in repr(failed) for d in range(20))
    real = bob.roll("1d20")
    assert real.roll == 5  # the real roll cannot reuse a probed index
    # bad notation draws nothing and uses nothing
    with pytest.raises(DiceError):
        bob.roll("1d")
    assert store.head(made.table_id).next_roll == 6
    gm.close_table()
    report = verify_table(store, made.table_id)
    assert report.ok, report.text()
    assert report.checked == 6


def test_verify_catches_a_failed_roll_that_would_have_succeeded(store):
    made = table_for(store)
    bob, gm = join(store, made, "bob"), join(store, made, "gm")
    with pytest.raises(PlayError):
        bob.roll("(1d20 - 100)d6")
    gm.close_table()
    # a log whose failed roll is of an expression that cannot fail does not verify (the kind's
    # replay: it must fail again with its stream)
    from tabletop_widgets.table.fairdice import FairDice
    from tabletop_widgets.table.kinds import ROLL_FAILED

    dice = FairDice.revealed(gm.table.seed, gm.table.seed_hash)
    (e,) = [e for e in store.events(made.table_id) if e.kind == "roll.failed"]
    assert ROLL_FAILED.replay(ROLL_FAILED.read(e.payload), dice.rng_for(0), None).problems == []
    forged = ROLL_FAILED.read({**e.payload, "expr": "1d20"})
    assert ROLL_FAILED.replay(forged, dice.rng_for(0), None).problems


# -- hole 2: check options bounded in Python ---------------------------------------------------------
def _bounded_int_option(system, character):
    for spec in system.checks(character):
        for o in spec.options:
            if o.kind == "int" and not o.gm_only and o.max is not None and o.min is not None:
                return spec, o
    raise AssertionError(f"{system.slug}: no check with a bounded int option")


@pytest.mark.parametrize("slug", sorted(available_systems()))
def test_forged_check_options_are_refused_per_system(store, slug):
    made = table_for(store, slug)
    bob = join(store, made, "bob")
    system = get_system(slug)
    spec, opt = _bounded_int_option(system, system.Character.from_dict(bob.state.characters["c1"]))
    before = store.head(made.table_id)
    for value in (opt.max + 1000, opt.min - 1000, "7", True, 1.5):
        with pytest.raises(PlayError) as exc:
            bob.roll(check(spec.id, "c1", **{opt.name: value}))
        assert exc.value.code == "bad_option"
        assert exc.value.text("en") != exc.value.text("ru")  # both languages, for a player
    with pytest.raises(PlayError) as exc:
        bob.roll(check(spec.id, "c1", no_such_option=1))
    assert exc.value.code == "unknown_option"
    assert store.head(made.table_id) == before  # nothing written, no index used
    # the bounds themselves are accepted (the check is a real one of the system)
    assert option_problem(opt, opt.max) is None and option_problem(opt, opt.min) is None


def test_ret_forged_bonus_shift_difficulty_and_luck(store):
    made = table_for(store)
    bob = join(store, made, "bob")
    luck = bob.state.characters["c1"]["luck"]
    for opts in ({"bonus": 1000}, {"shift": 100}, {"difficulty": -1000}, {"luck": luck + 1}):
        with pytest.raises(PlayError) as exc:
            bob.roll(check("mind", **opts))
        assert exc.value.code == "bad_option", opts
    with pytest.raises(PlayError) as exc:
        bob.roll(check("mind", bonus=1000))
    assert "1000" in exc.value.text("en") and "50" in exc.value.text("ru")
    ok = bob.roll(check("mind", luck=luck, bonus=50, shift=-8, difficulty=200))
    assert ok.payload["options"]["luck"] == luck


def test_gm_only_check_option_is_the_gms():
    system = get_system("ret")
    character = system.Character()
    specs = [(c, o) for c in system.checks(character) for o in c.options if o.gm_only]
    assert specs, "ret declares a GM-only check option"
    spec, opt = specs[0]
    with pytest.raises(PlayDenied) as exc:
        check_options(spec, {opt.name: opt.default}, role="player")
    assert isinstance(exc.value, PermissionDenied) and "задаёт только мастер" in exc.value.text("ru")
    check_options(spec, {opt.name: opt.default}, role="gm")
    # the refusal says the table's book's word: Seasons calls the GM «Рассказчик»
    with pytest.raises(PlayDenied) as exc:
        check_options(spec, {opt.name: opt.default}, role="player", system=get_system("seasons"))
    assert "задаёт только Рассказчик" in exc.value.text("ru") and "Storyteller" in exc.value.text("en")


# -- hole 3: GM-only fields ------------------------------------------------------------------------
def test_players_cannot_change_gm_only_fields_on_any_path(store):
    made = table_for(store)
    bob, gm = join(store, made, "bob"), join(store, made, "gm")
    assert "luck_max_override" in gm_only_fields(bob.system)
    before = store.head(made.table_id)
    with pytest.raises(PlayDenied) as exc:
        bob.update_character("c1", {"luck_max_override": 40})
    assert "GM" in exc.value.text("en") and "меняет только мастер" in exc.value.text("ru")
    data = dict(bob.state.characters["c1"], luck_max_override=40)  # the sheet's JSON Load
    with pytest.raises(PermissionDenied):
        bob.set_character("c1", data)
    assert store.head(made.table_id) == before
    # other fields stay the player's, and the GM sets GM fields
    bob.update_character("c1", {"name": "Bobby"})
    gm.update_character("c1", {"luck_max_override": 3})
    bob.poll()
    assert bob.state.characters["c1"]["luck_max_override"] == 3
    bob.set_character("c1", dict(bob.state.characters["c1"], name="Bob"))  # unchanged GM field: fine
    without = {k: v for k, v in bob.state.characters["c1"].items() if k != "luck_max_override"}
    with pytest.raises(PermissionDenied):
        bob.set_character("c1", without)  # leaving the GM's value out would reset it


@pytest.mark.parametrize(
    "slug,field,value",
    [
        ("ret", "is_npc", True),
        ("ret", "dead", True),
        ("ret", "npc_tier", "boss"),
        ("seasons", "is_player_character", False),
    ],
)
def test_a_player_cannot_make_their_own_character_an_npc_or_dead(store, slug, field, value):
    """Issue 32 item 11: a player's own sheet let them tick "NPC" and "Dead" (Seasons: untick
    "Player character", which takes away their Drama); those are the GM's to say."""
    made = table_for(store, slug)
    bob = join(store, made, "bob")
    assert field in gm_only_fields(bob.system)
    before = store.head(made.table_id)
    with pytest.raises(PlayDenied):
        bob.update_character("c1", {field: value})
    assert store.head(made.table_id) == before
    join(store, made, "gm").update_character("c1", {field: value})


# -- hole 7: text limits and the rate limit ---------------------------------------------------------
def test_text_limits_by_field(store):
    made = table_for(store)
    bob, gm = join(store, made, "bob"), join(store, made, "gm")
    before = store.head(made.table_id)
    cases = [
        (lambda: bob.say("x" * (TEXT_LIMITS["message"][0] + 1)), "message"),
        (lambda: bob.update_character("c1", {"name": "N" * 120_000}), "name"),
        (lambda: bob.roll("1d6", label="L" * 500), "label"),
        (lambda: gm.note("n" * 100_000), "note"),
        (lambda: bob.roll("1d6" + "+1" * 400), "expression"),
    ]
    for action, field in cases:
        with pytest.raises(PlayError) as exc:
            action()
        assert exc.value.code == "too_long" and exc.value.data["field"] == field
        assert "long" in exc.value.text("en") and "длинн" in exc.value.text("ru")
    assert store.head(made.table_id) == before
    bob.say("x" * TEXT_LIMITS["message"][0])


def test_rate_limit_allows_a_burst_and_stops_a_script(store):
    now = [1000.0]
    made = table_for(store)
    bob = join(store, made, "bob", clock=lambda: now[0], wall_clock=lambda: now[0])
    burst = bob.rate_limit.burst
    for i in range(burst):
        bob.say(f"burst {i}")
    with pytest.raises(PlayError) as exc:
        bob.say("one too many")
    assert exc.value.code == "rate_limited" and "подождите" in exc.value.text("ru")
    with pytest.raises(PlayError):
        bob.roll("1d6")  # every action shares the seat's budget
    now[0] += 1.0  # time passes: the seat may act again at the sustained rate
    bob.say("later")
    written = [x for x in bob.state.log if x["kind"] == "message"]
    assert len(written) == burst + 1


def test_rate_limit_bucket():
    now = [0.0]
    limit = RateLimit(3, 1.0, clock=lambda: now[0])
    for _ in range(3):
        limit.take()
    with pytest.raises(PlayError):
        limit.take()
    now[0] += 2.0
    limit.take()
    limit.take()
    with pytest.raises(PlayError):
        limit.take()
