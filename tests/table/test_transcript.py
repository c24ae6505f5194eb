"""Issue 18: a session's transcript (Markdown and a self-contained HTML page) in the reader's
language, with nothing the reader's seat may not see: a player's never holds a hidden NPC, a
hidden roll or a GM note; the GM's holds them all."""

from __future__ import annotations

import pytest

from tabletop_widgets import get_system
from tabletop_widgets.table import SeatSpec, TableSession, check, create_table
from tabletop_widgets.table.transcript import session_transcript
from tabletop_widgets.widgets.lobby import sample_character
from tabletop_widgets.widgets.table_view import TableView

NPC = "Zzyzxogre"
SECRET = "918273641"
NOTE = "the butler did it"


@pytest.fixture
def played(store):
    system = get_system("ret")
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1")],
        characters={"c1": sample_character(system, "Aria").to_dict(), "npc": sample_character(system, NPC).to_dict()},
        hidden_characters=["npc"],
        title="Crypt",
    )
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    bob = TableSession.join(store, made.table_id, made.tokens["bob"])
    view = TableView(gm, follow=False, animate=False)
    view.bring_into_combat("c1")
    view.bring_into_combat("npc", hidden=True)
    view.tracker.roll_initiative()
    view.tracker.next_turn()
    bob.roll("2d6+100", label="Climb")
    bob.roll(check("mind", difficulty=8))
    gm.roll("1d1+918273640", hidden=True)
    gm.roll(check("mind", "npc"))
    gm.note(NOTE)
    bob.say("I open the door")
    gm.end_session()
    gm.start_session()
    bob.roll("1d4+5000")
    view.close()
    bob.poll()
    return gm, bob


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_players_transcript_holds_only_what_they_may_see(played, fmt):
    gm, bob = played
    text = session_transcript(bob, 1, fmt=fmt)
    assert "2d6+100" in text and "Climb" in text and "I open the door" in text
    assert "Mind" in text and "chance" in text and "%" in text  # a check with its odds
    assert "Round 1" in text and "Aria" in text
    assert bob.state.session_list()[0]["seed_hash"] in text and bob.state.session_list()[0]["seed"] in text
    for secret in (NPC, SECRET, "918273640", NOTE):
        assert secret not in text, secret
    assert "5000" not in text  # session 2 is another transcript
    assert "5000" in session_transcript(bob, 2, fmt=fmt)


def test_the_gms_transcript_holds_everything(played):
    gm, bob = played
    text = session_transcript(gm, 1)
    for seen in (NPC, SECRET, NOTE, "2d6+100", "Round 1"):
        assert seen in text, seen
    assert text.startswith("# Crypt: session 1")


def test_the_readers_language_and_a_self_contained_page(played):
    gm, bob = played
    ru = session_transcript(bob, 1, locale="ru")
    assert "сессия 1" in ru and "Раунд 1" in ru and "шанс" in ru and "говорит" in ru
    page = session_transcript(bob, 1, fmt="html", locale="ru")
    assert page.startswith("<!DOCTYPE html>") and 'lang="ru"' in page
    assert "http" not in page and "<script" not in page and "src=" not in page  # nothing fetched
    with pytest.raises(ValueError, match="no session 3"):
        session_transcript(bob, 3)
    with pytest.raises(ValueError, match="fmt"):
        session_transcript(bob, 1, fmt="pdf")
