"""Attacks at a shared table (issues 16 and 30), played with the fifth-system example (Lantern's
strike, whose defender may dodge): a player asks for the odds and attacks on their own turn with
their own character; the requests wait in the store's request table and the resolver
(``resolve_pending``, on the server: no GM page needed) checks them again, asks the defender's
seat, and rolls with the table's fair dice, so ``verify`` covers every attack; start/end-of-turn
effects roll with the fair dice too; nothing of a hidden combatant reaches a player through an
attack."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction

import pytest

from tabletop_widgets.core import (
    ConditionSpec,
    DamageOutcome,
    OptionSpec,
    T,
)
from tabletop_widgets.table import (
    CombatSync,
    PermissionDenied,
    SeatSpec,
    TableSession,
    create_table,
    resolve_pending,
    rng_for,
    verify_table,
)
from tabletop_widgets.table.attacks import odds_from_json
from tabletop_widgets.table.kinds.combat import outcome_json
from tabletop_widgets.table.rules import PlayError
from helpers import registered

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"], indirect=True)


def bleeding_lantern():
    """Lantern with one ongoing effect that rolls: bleeding costs 1d3 Health at the start of the
    bearer's turn."""
    from fixtures.fifth_system.system import LanternSystem

    from fixtures.fifth_system import attacks as strike

    class BleedingLantern(LanternSystem):
        def attacks(self, attacker, target):
            """The strike, with a modifier only the GM sets."""
            (spec,) = super().attacks(attacker, target)
            edge = OptionSpec("edge", T("GM's edge", "Перевес ведущего"), kind="int", min=-2, max=2, gm_only=True)
            return [dataclasses.replace(spec, options=(*spec.options, edge))]

        def attack_odds(self, attacker, target, attack_id, **options):
            _spec, opts = self.attack_spec(attacker, target, attack_id, options)
            opts.pop("edge")
            return strike.odds(self, attacker, target, **opts)

        def resolve_attack(self, attacker, target, attack_id, *, rng, **options):
            _spec, opts = self.attack_spec(attacker, target, attack_id, options)
            opts.pop("edge")
            return strike.resolve(attacker, target, rng=rng, **opts)

        def conditions(self):
            return [ConditionSpec("bleeding", T("Bleeding", "Кровотечение"), T("1d3 a turn", "1d3 за ход"))]

        def on_turn(self, character, when, *, rng=None, conditions=()):
            if when != "start" or not any(c["id"] == "bleeding" for c in conditions):
                return None
            lost = rng.randint(1, 3)
            old = character.health
            character.health = max(0, old - lost)
            return DamageOutcome(
                changes={"health": (old, character.health)}, notes=[T(f"bleeds {lost}", f"кровь {lost}")]
            )

    return BleedingLantern()


@pytest.fixture
def lantern():
    with registered(bleeding_lantern()) as system:
        yield system


@pytest.fixture
def table(lantern, store, store_url, open_store_at):
    chars = {
        "ada": lantern.Character(name="Ada", nerve=2, wits=2).to_dict(),
        "bo": lantern.Character(name="Bo", nerve=1, wits=3).to_dict(),
        "spy": lantern.Character(name="Spy", nerve=1, wits=1).to_dict(),
    }
    made = create_table(
        store,
        "lantern",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        characters=chars,
        hidden_characters=["spy"],
    )

    def join(seat):
        return TableSession.join(open_store_at(store_url), made.table_id, made.tokens[seat])

    gm, ann, ben = join("gm"), join("ann"), join("ben")
    sync = CombatSync(gm)
    c = sync.combat
    c.add("ada", sync.table_character("ada")[0], name="Ada")
    c.add("bo", sync.table_character("bo")[0], name="Bo")
    c.add("ogre", lantern.Character(name="Ogre", nerve=1, wits=3), name="Ogre")  # an NPC: the GM's sheet only
    c.add("spy", sync.table_character("spy")[0], name="Spy", hidden=True)
    c.roll_initiative()
    while c.current != "ada":
        c.next_turn()
    for s in (ann, ben):
        s.poll()
    return made, gm, ann, ben, sync


def attacks_of(session):
    return [r for r in session.requests if r.kind == "attack"]


def answer_offer(gm, sync, seat):
    """The server's resolver answers what was asked; the seat's page follows."""
    resolve_pending(gm.store, gm.table_id)
    gm.poll()
    seat.poll()


def test_a_player_asks_the_odds_and_gets_them_from_the_gm_kernel(table):
    made, gm, ann, ben, sync = table
    assert "ogre" not in ann.state.characters  # the player's kernel never holds the NPC's sheet
    ann.ask_attack("ada", "ogre", "strike", {"aim": True})
    assert ann.offer("ada", "ogre", "strike", {"aim": True}) is None  # not answered yet
    answer_offer(gm, sync, ann)
    offer = ann.offer("ada", "ogre", "strike", {"aim": True})
    assert offer["error"] is None
    (strike,) = offer["attacks"]
    # the defender's choice (dodge) is not the attacker's to set, nor the GM's edge: not offered
    assert [o["name"] for o in strike["options"]] == ["aim", "might"]
    odds = odds_from_json(offer["odds"])
    exact = gm.system.attack_odds(sync.combat.character("ada"), sync.combat.character("ogre"), "strike", aim=True)
    assert odds.p_hit == exact.p_hit == Fraction(21, 36) and dict(odds.damage) == dict(exact.damage)
    assert any("defender" in n["en"] for n in odds.notes)
    # the other player never sees Ann's question or its answer, nor does the log carry them
    ben.poll()
    assert ben.requests == []
    assert not [e for e in gm.events() if e.kind.startswith("attack.")]


def test_asking_for_the_defender_s_choice_or_a_bad_option_gets_an_error_not_odds(table):
    made, gm, ann, ben, sync = table
    ann.ask_attack("ada", "ogre", "strike", {"dodge": True})
    ann.ask_attack("ada", "ogre", "strike", {"aim": 3})
    ann.ask_attack("ada", "ogre", "kick", {})
    answer_offer(gm, sync, ann)
    dodge = ann.offer("ada", "ogre", "strike", {"dodge": True})
    assert dodge["odds"] is None and "defender chooses" in dodge["error"]["en"] and dodge["error"]["ru"]
    assert "yes or no" in ann.offer("ada", "ogre", "strike", {"aim": 3})["error"]["en"]
    assert "kick" in ann.offer("ada", "ogre", "kick", {})["error"]["en"]


def test_a_player_attacks_an_npc_the_gm_answers_the_dodge_and_verify_covers_it(table, store):
    made, gm, ann, ben, sync = table
    ada_before = sync.combat.character("ada").health
    ann.declare_attack("ada", "ogre", "strike", {"aim": True, "might": True})
    assert attacks_of(ann)
    assert sync.attacks.serve() == {}  # the NPC's defence is the GM's to choose: asked first
    gm.poll()
    (q,) = gm.questions()
    assert q["seat"] == "gm" and q["target"] == "ogre" and [o["name"] for o in q["options"]] == ["dodge"]
    assert q["attacker_name"]["en"] == "Ada"
    ann.poll()
    (waiting,) = attacks_of(ann)
    assert waiting.state == "waiting" and waiting.waiting["for"] == "gm"  # what Ann's page says it waits for
    ogre_before = sync.combat.character("ogre").health
    event = sync.attacks.answer(q["request"], {"dodge": True})
    assert event["type"] == "attack" and event["options"] == {"aim": True, "might": True, "dodge": True, "edge": 0}
    # the attack is the table's fair roll: the attack event's index, its stream, the same outcome
    (rolled,) = [e for e in gm.events() if e.kind == "attack"]
    assert rolled.audience == "gm"  # it carries the NPC's sheet
    assert rolled.payload["result"]["hit"] == event["hit"] and rolled.payload["result"]["damage"] == event["damage"]
    assert sync.combat.character("ogre").health == ogre_before - event["damage"]
    assert sync.combat.character("ada").health == ada_before - 1  # all one's might costs 1 Health
    # Ann's page: the request is over, her character's sheet shows the cost, the tracker the line
    ann.poll()
    assert attacks_of(ann) == []
    assert ann.state.characters["ada"]["health"] == ada_before - 1
    (told,) = [e for e in ann.state.combat["events"] if e.get("type") == "attack"]
    assert told["id"] == "ada" and told["target"] == "ogre" and told["damage"] == event["damage"]
    # Ben's page shows the result in the tracker, and never the attack's sheets
    ben.poll()
    assert [e.get("damage") for e in ben.state.combat["events"] if e.get("type") == "attack"] == [event["damage"]]
    assert not [e for e in ben.events() if e.kind.startswith("attack")]
    gm.close_table()
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    seed = bytes.fromhex(store.get_table(made.table_id).seed)
    chars = rolled.payload["characters"]
    again = gm.system.resolve_attack(
        gm.system.Character.from_dict(chars["ada"]),
        gm.system.Character.from_dict(chars["ogre"]),
        "strike",
        rng=rng_for(seed, rolled.roll),
        **rolled.payload["options"],
    )
    assert json.dumps(outcome_json(again), sort_keys=True) == json.dumps(rolled.payload["result"], sort_keys=True)


def test_with_npcs_defending_by_default_an_attack_on_an_npc_never_waits_for_the_gm(table, store):
    """The GM's table option "NPCs defend by their default choice": a player's attack on the
    Ogre is rolled by the resolver at once with the Ogre's default dodge (no question on the GM's
    page, no waiting); a player may not set the option."""
    from tabletop_widgets.table import PermissionDenied
    from tabletop_widgets.table.seats import set_table_option

    made, gm, ann, ben, sync = table
    with pytest.raises(PermissionDenied):
        set_table_option(ann, "npcs_defend_by_default", True)
    set_table_option(gm, "npcs_defend_by_default", True)
    ann.declare_attack("ada", "ogre", "strike", {})
    resolve_pending(store, made.table_id)
    gm.poll()
    assert gm.questions() == []
    (rolled,) = [e for e in gm.events() if e.kind == "attack"]
    assert rolled.actor == "ann" and rolled.payload["options"]["dodge"] is False  # the default
    ann.poll()
    assert attacks_of(ann) == []


@SQLITE_ONLY
def test_verify_finds_an_edited_attack(table, store, store_url):
    import sqlite3

    made, gm, ann, ben, sync = table
    sync.attacks.attack("ada", "ogre", "strike", {"dodge": False})
    gm.close_table()
    assert verify_table(store, made.table_id).ok
    (rolled,) = [e for e in gm.events() if e.kind == "attack"]
    forged = dict(rolled.payload, result={**rolled.payload["result"], "damage": 99})
    with sqlite3.connect(store_url) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(forged), rolled.seq))
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any("does not match the seed" in p for p in rep.problems)


def test_a_player_may_not_attack_with_another_character_off_turn_or_a_hidden_target(table):
    made, gm, ann, ben, sync = table
    with pytest.raises(PermissionDenied) as other:
        ann.declare_attack("bo", "ogre", "strike")
    assert "own character" in other.value.message["en"] and other.value.message["ru"]
    with pytest.raises(PermissionDenied) as turn:
        ben.declare_attack("bo", "ogre", "strike")  # Ada's turn, not Bo's
    assert "own turn" in turn.value.message["en"]
    with pytest.raises(PlayError) as hidden:
        ann.declare_attack("ada", "spy", "strike")
    assert hidden.value.message["en"] == "There is no such target in the fight."
    with pytest.raises(PlayError):
        ann.ask_attack("ada", "spy")
    with pytest.raises(PlayError):
        ann.declare_attack("ada", "ogre", "strike", {"aim": [1, 2]})
    with pytest.raises(PermissionDenied):  # an observer-like forged call for the GM's desk
        ann.write_requests(lambda tx: [])
    assert not [e for e in gm.events() if e.kind.startswith("attack")]


def test_the_gm_kernel_refuses_what_the_page_could_not_check(table):
    """A forged declaration reaching the log (an attack not offered, the defender's option) is
    refused by the GM's kernel with a message for the player; nothing is rolled."""
    made, gm, ann, ben, sync = table

    def refusal():
        (refused,) = attacks_of(ann)
        assert refused.state == "refused"
        ann.dismiss(refused.id)  # the page has said so: the request goes
        assert attacks_of(ann) == []
        return refused.answer["message"]

    ann.declare_attack("ada", "ogre", "kick")
    answer_offer(gm, sync, ann)
    message = refusal()
    assert "kick" in message["en"] and message["ru"]
    ann.declare_attack("ada", "ogre", "strike", {"dodge": False})
    answer_offer(gm, sync, ann)
    assert "defender chooses" in refusal()["en"]
    ann.declare_attack("ada", "ogre", "strike", {"edge": 2})  # what only the GM sets
    answer_offer(gm, sync, ann)
    message = refusal()
    assert "only the GM sets" in message["en"] and "задаёт только" in message["ru"]
    # the turn moved on before the resolver saw the declaration: refused, not rolled
    ann.declare_attack("ada", "ogre", "strike")
    gm.poll()
    sync.combat.next_turn()
    answer_offer(gm, sync, ann)
    assert "own turn" in refusal()["en"]
    assert not [e for e in gm.events() if e.kind == "attack"]


def test_an_npc_attacks_a_player_who_answers_their_own_dodge(table):
    made, gm, ann, ben, sync = table
    assert sync.attacks.attack("ogre", "bo", "strike", {"aim": True}) is None  # Ben's seat is asked
    ben.poll()
    (q,) = ben.questions()
    assert q["seat"] == "ben" and q["attacker_name"]["en"] == "Ogre"
    ann.poll()
    assert ann.questions() == [] and ann.requests == []  # not Ann's question: her kernel never even sees it
    with pytest.raises(PlayError) as not_hers:
        ann.answer_attack(q["request"], {"dodge": True})
    assert "not asked of your seat" in not_hers.value.message["en"]
    with pytest.raises(PlayError):
        ben.answer_attack(q["request"], {"aim": False})  # not the defender's choice
    with pytest.raises(PlayError):
        ben.answer_attack(q["request"], {"dodge": "yes"})
    ben.answer_attack(q["request"], {"dodge": True})
    gm.poll()
    (event,) = sync.attacks.serve().values()
    assert event["options"] == {"aim": True, "might": False, "dodge": True, "edge": 0}
    ben.poll()
    assert ben.questions() == [] and ben.requests == []


def test_the_gm_answers_for_an_absent_player(table):
    made, gm, ann, ben, sync = table
    sync.attacks.attack("ogre", "bo", "strike")
    gm.poll()
    (q,) = gm.questions()
    event = sync.attacks.answer(q["request"], {"dodge": False})
    assert event["type"] == "attack"
    ben.poll()
    assert ben.questions() == []
    with pytest.raises(PlayError):  # answered already
        ben.answer_attack(q["request"], {"dodge": True})


def test_a_hidden_attacker_is_never_named_to_a_player(table):
    made, gm, ann, ben, sync = table
    sync.attacks.attack("spy", "bo", "strike")
    ben.poll()
    (q,) = ben.questions()
    assert q["attacker_name"] == {"en": "Someone unseen", "ru": "Кто-то невидимый"}
    ben.answer_attack(q["request"], {"dodge": True})
    resolve_pending(gm.store, gm.table_id)
    for s in (ann, ben):
        s.poll()
        seen = json.dumps([e.payload for e in s.events()], ensure_ascii=False)
        assert "Spy" not in seen and '"spy"' not in seen
        assert "Spy" not in json.dumps(s.state.to_json(), ensure_ascii=False)
        assert "Spy" not in json.dumps([r.to_json() for r in s.requests], ensure_ascii=False)


def test_turn_effects_roll_with_the_fair_dice_and_verify(table, store):
    made, gm, ann, ben, sync = table
    sync.combat.add_condition("bo", "bleeding")
    before = sync.combat.character("bo").health
    while sync.combat.current != "bo":
        sync.combat.next_turn()
    after = sync.combat.character("bo").health
    assert 1 <= before - after <= 3
    (turn,) = [e for e in gm.events() if e.kind == "turn"]
    assert turn.audience == "all"  # Bo's sheet is every seat's
    (call,) = turn.payload["calls"]
    assert call["when"] == "start" and call["character"]["health"] == before and call["after"]["health"] == after
    ben.poll()
    assert ben.state.characters["bo"]["health"] == after
    # turns that draw nothing use no roll index
    rolls = [e.roll for e in gm.events() if e.roll is not None]
    assert rolls == list(range(len(rolls)))
    gm.close_table()
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.rolls == rep.checked == len(rolls)


def test_the_tracker_s_attack_button_goes_through_the_table(table):
    """The GM's tracker calls ``combat.attack``: at a table that is the fair roll (or a question
    to the defender's seat), never the kernel's own dice."""
    made, gm, ann, ben, sync = table
    event = sync.combat.attack("ada", "ogre", "strike", dodge=True)
    assert event["type"] == "attack"
    assert [e.kind for e in gm.events()][-3:] == ["attack", "combat.state", "combat.state"] or [
        e.kind for e in gm.events()
    ][-2:] == ["attack", "combat.state"]
    assert sync.combat.attack("ogre", "ada", "strike") is None  # Ann is asked for Ada's dodge
    ann.poll()
    assert ann.questions()


def test_a_hidden_combatant_s_bleeding_stays_with_the_gm(table, store):
    made, gm, ann, ben, sync = table
    sync.combat.add_condition("spy", "bleeding")
    while sync.combat.current != "spy":
        sync.combat.next_turn()
    (turn,) = [e for e in gm.events() if e.kind == "turn"]
    assert turn.audience == "gm" and turn.payload["hidden"] is True
    for s in (ann, ben):
        s.poll()
        assert not [e for e in s.events() if e.kind == "turn"]
        assert "Spy" not in json.dumps([e.payload for e in s.events()], ensure_ascii=False)
    gm.close_table()
    assert verify_table(store, made.table_id).ok


def test_attack_events_are_written_only_by_the_table_s_own_methods(table):
    made, gm, ann, ben, sync = table
    payload = {"request": "a1", "attacker": "ada", "target": "ogre", "attack": "strike", "options": {}}
    for seat in (gm, ann):
        with pytest.raises(PermissionDenied):
            seat.record("attack.declared", payload)  # an old log's request kind: no one writes it
    with pytest.raises(PermissionDenied):
        gm.record("attack", {"index": 0})


def test_verify_flags_a_tracker_attack_not_rolled_with_the_fair_dice(table, store):
    """A GM page that applied an attack with its own dice and wrote only the tracker state (no
    attack event in the transaction) is caught."""
    from tabletop_widgets.core import Combat

    made, gm, ann, ben, sync = table
    own = Combat(gm.system, rng=random.Random(1))
    own.add("a", gm.system.Character(name="A"), name="A")
    own.add("b", gm.system.Character(name="B"), name="B")
    event = own.attack("a", "b", "strike")
    gm.set_combat({"format": 1, "event": event})
    gm.close_table()
    rep = verify_table(store, made.table_id)
    assert not rep.ok and any("not rolled with the table's fair dice" in p for p in rep.problems)


def test_a_whole_fight_with_hidden_attacks_verifies(table, store):
    """Attacks whose transaction writes only the GM's tracker state (nothing players see
    changed), turns and undos in between: verify checks each attack and flags none."""
    made, gm, ann, ben, sync = table
    sync.combat.add_condition("ogre", "bleeding")
    for _ in range(3):
        # the table's seed is drawn fresh: without this, unlucky dice knock the Ogre out before
        # its third attack (healing is one more GM-only event for verify to check)
        sync.combat.heal("ogre", 20)
        sync.attacks.attack("spy", "ogre", "strike", {"dodge": False})  # a hidden NPC on an NPC
        sync.combat.next_turn()
        sync.attacks.attack("ogre", "spy", "strike", {"dodge": True})
        sync.combat.undo()
    gm.close_table()
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
    assert rep.checked == rep.rolls and len([e for e in gm.events() if e.kind == "attack"]) == 6


def test_a_seat_reads_only_its_own_requests_and_the_questions_asked_of_it(table):
    """The request table's audience filter is in the store's query, as for events: a player's
    seat reads its own requests and the questions asked of it; an observer-like seat none."""
    made, gm, ann, ben, sync = table
    ann.ask_attack("ada", "ogre")
    ann.declare_attack("ada", "ogre", "strike")
    sync.attacks.attack("ogre", "bo", "strike")  # Ben is asked
    sync.attacks.serve()  # Ann's attack on the Ogre: the GM is asked for the Ogre's dodge
    gm.poll()
    assert len(gm.questions()) == 2
    for s in (ann, ben):
        s.poll()
    assert {r.seat for r in ann.requests} == {"ann"}
    assert [r.kind for r in ben.requests] == ["defence"] and ben.requests[0].seat == "ben"
    assert all(r.audience in ("seat:ann",) for r in ann.requests)
    raw = gm.store.requests(made.table_id, audiences=["all"])
    assert raw == []  # nothing is for everyone


def test_delaying_rolls_the_next_turn_s_effects_with_the_fair_dice(table, store):
    """``delay`` (and ``act_now``) start turns too: their bleeding rolls with the table's dice."""
    made, gm, ann, ben, sync = table
    order = sync.combat.order
    nxt = order[(order.index("ada") + 1) % len(order)]
    sync.combat.add_condition(nxt, "bleeding")
    before = sync.combat.character(nxt).health
    sync.combat.delay()  # Ada waits: the next one's turn starts, and they bleed
    assert sync.combat.current == nxt and sync.combat.character(nxt).health < before
    (turn,) = [e for e in gm.events() if e.kind == "turn"]
    assert turn.payload["calls"][-1]["when"] == "start"
    gm.close_table()
    rep = verify_table(store, made.table_id)
    assert rep.ok, rep.text()
