"""An attack in the log the way a GM says it (issue 32 item 8): told by the attacker's name,
not by the seat that pressed the button; who hit whom with what, the score and the damage after
armour in the sentence; the dice in the entry's fold; marked hidden on the GM's page only when
the players heard nothing of it. On SQLite and PostgreSQL."""

from __future__ import annotations

import re

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import CombatSync, LineContext, SeatSpec, TableSession, check, create_table, line_of
from tabletop_widgets.table import resolve_pending
from tabletop_widgets.widgets.lobby import sample_character

RET = get_system("ret")


@pytest.fixture
def made(store):
    chars = {name: sample_character(RET, who).to_dict() for name, who in (("c1", "Aria"), ("c2", "Brann"))}
    chars["npc"] = sample_character(RET, "Zzyzxogre").to_dict()
    seats = [
        SeatSpec("gm", "gm", "Gina"),
        SeatSpec("bob", "player", "Bob", "c1"),
        SeatSpec("cat", "player", "Cat", "c2"),
    ]
    return create_table(store, "ret", seats, characters=chars, hidden_characters=["npc"])


def join(store, made, seat):
    return TableSession.join(store, made.table_id, made.tokens[seat])


def fight(gm, *ids, initiative=True):
    sync = CombatSync(gm)
    for cid in ids:
        sync.combat.add(cid, sync.table_character(cid)[0], hidden=cid == "npc")
    if initiative:
        sync.combat.roll_initiative()
    return sync


def attack(store, made, sync, attacker, target, defender_seat):
    """The GM's attack: the defender's seat answers with its default defence, the resolver rolls."""
    sync.combat.attack(attacker, target, "melee:unarmed")
    resolve_pending(store, made.table_id)
    defender = join(store, made, defender_seat)
    defender.poll()
    for q in defender.questions():
        defender.answer_attack(q["request"], {})
    resolve_pending(store, made.table_id)
    defender.stop()
    sync.session.poll()


def attack_lines(session) -> list:
    session.poll()
    ctx = LineContext(session.state, session.system)
    return [x for x in (line_of(e, ctx) for e in session.state.log) if x is not None and x.style == "attack"]


def test_the_gm_log_tells_each_attack_by_its_attacker(store, made):
    gm = join(store, made, "gm")
    sync = fight(gm, "c1", "c2", "npc")
    attack(store, made, sync, "c1", "c2", "cat")  # between two characters every seat knows
    attack(store, made, sync, "npc", "c1", "bob")  # from an NPC hidden in the fight
    public, secret = attack_lines(gm)
    assert (public.who, secret.who) == ("Aria", "Zzyzxogre")  # not "Gina", the GM's seat
    assert public.what["en"] == "Attack" and not public.hidden
    assert secret.what["en"] == "[hidden] Attack" and secret.hidden
    assert re.fullmatch(
        r"Aria (hits|misses) Brann with Unarmed \(fists, kicks\)(, rolled \d+|, \d+ against \d+)?(: .*)?",
        public.text["en"],
    )
    assert public.text["ru"].startswith("Aria → Brann, Безоружная")  # sample names stay as made
    assert "d6" not in public.text["en"]  # the dice are in the fold
    assert public.details is not None and "d" in public.details("en") and public.details("ru")
    # the player's page: the same sentence by the same name, and nothing of the hidden attack
    (seen,) = attack_lines(join(store, made, "bob"))
    assert seen.who == "Aria" and seen.text == public.text and not seen.hidden


def test_an_attack_the_players_saw_only_as_the_fights_line_is_not_marked_hidden(store, made):
    """A hidden Luck spend keeps Aria's sheet from the players, so the attack's event is the
    GM's; the players still saw it in the fight's public line, so the GM's log does not call it
    hidden."""
    gm = join(store, made, "gm")
    gm.roll(check("perception", "c1", luck=2), hidden=True)
    sync = fight(gm, "c1", "c2", initiative=False)
    attack(store, made, sync, "c2", "c1", "bob")
    (rolled,) = [e for e in store.events(made.table_id) if e.kind == "attack"]
    assert rolled.audience == "gm" and rolled.payload["secret"] is False
    (line,) = attack_lines(gm)
    assert line.who == "Brann" and not line.hidden and line.what["en"] == "Attack"
    cat = join(store, made, "cat")
    cat.poll()
    ctx = LineContext(cat.state, cat.system)
    told = [x for x in (line_of(e, ctx) for e in cat.state.log) if x is not None and x.style == "combat"]
    (fight_line,) = [
        x for x in told if "Brann" in x.text["en"] and "Aria" in x.text["en"] and "Unarmed" in x.text["en"]
    ]
    assert re.search(r"Brann (hits|misses) Aria with Unarmed", fight_line.text["en"])
    assert fight_line.details is not None and fight_line.details("en")  # its dice on demand too
