"""Issue 18: the lobby is the GM's campaign list. Unlocked with the lobby key (a forged click
before that changes nothing), it opens tonight's session, shows past sessions with their
verification, adds a player (a new link, shown once) and retires one (their link stops)."""

from __future__ import annotations

import html

import pytest

from tabletop_widgets.table import SeatError, SeatSpec, TableSession, create_table, open_store
from tabletop_widgets.table.lobbykey import prepare_lobby_key
from tabletop_widgets.table.seats import parse_query
from tabletop_widgets.widgets.lobby import Lobby
from helpers import frontend_click


@pytest.fixture
def setup(tmp_path):
    from tabletop_widgets import get_system

    ret_sheet = get_system("ret").Character().to_dict()
    store = open_store(tmp_path / "table.db")
    key = prepare_lobby_key(store)
    made = create_table(
        store,
        "ret",
        [SeatSpec("gm", "gm", "Gina"), SeatSpec("bob", "player", "Bob", "c1")],
        characters={"c1": ret_sheet},
        title="Crypt of Tuesdays",
    )
    lobby = Lobby(store, base="http://x/voila/render/table.ipynb")
    yield store, key, made, lobby
    store.close()


def test_nothing_before_the_key_and_a_wrong_key_shows_nothing(setup):
    store, key, made, lobby = setup
    cl = lobby.campaign_list
    assert cl.tools.layout.display == "none" and "Crypt" not in cl.detail.value
    # forged clicks on the hidden tools do nothing
    frontend_click(cl.start_button)
    frontend_click(cl.add_button)
    assert cl.open_tonight() is None and cl.add_player("Mallory") is None and cl.retire("bob") is False
    assert "lobby key first" in cl.message.value
    assert [s.seat for s in store.seats(made.table_id)] == ["gm", "bob"]
    lobby.key.value = "not the key"
    frontend_click(cl.show_button)
    assert not cl.unlocked and cl.tools.layout.display == "none" and "Crypt" not in cl.pick.options


def test_the_gm_runs_the_campaign_from_the_lobby(setup):
    store, key, made, lobby = setup
    gm = TableSession.join(store, made.table_id, made.tokens["gm"])
    gm.roll("1d20")
    gm.end_session()
    cl = lobby.campaign_list
    lobby.key.value = key
    frontend_click(cl.show_button)
    assert cl.unlocked and lobby.key.value == ""  # the key does not stay in the page
    assert cl.pick.value == made.table_id and "Crypt of Tuesdays" in cl.pick.options[0][0]
    assert "session 1 (ended)" in cl.pick.options[0][0]
    assert "✓ verified" in cl.detail.value and 'data-session="1"' in cl.detail.value
    # open tonight's session
    frontend_click(cl.start_button)
    assert "Session 2 is open" in cl.message.value and store.sessions(made.table_id)[-1].n == 2
    assert "session 2 (open)" in cl.pick.options[0][0] and cl.start_button.disabled
    gm.poll()
    assert gm.session_open and gm.session_number == 2  # the GM's page follows
    # add a player: a link shown once, which opens a seat with a character
    cl.player_name.value = "Dana"
    frontend_click(cl.add_button)
    url = html.unescape(cl.detail.value.split('href="')[1].split('"')[0])
    table_id, token = parse_query(url.split("?", 1)[1])
    dana = TableSession.join(store, table_id, token)
    assert dana.name == "Dana" and dana.character_id in dana.state.characters
    # retire Bob: his link stops working
    assert ("Bob", "bob") in cl.retire_pick.options
    cl.retire_pick.value = "bob"
    frontend_click(cl.retire_button)
    assert "Bob left the campaign" in cl.message.value and "retired" in cl.detail.value
    with pytest.raises(SeatError):
        TableSession.join(store, made.table_id, made.tokens["bob"])
    # a new GM link
    frontend_click(cl.gm_link_button)
    url = html.unescape(cl.detail.value.split('href="')[1].split('"')[0])
    new_gm = TableSession.join(store, *parse_query(url.split("?", 1)[1]))
    assert new_gm.role == "gm"
    lobby.locale = "ru"
    assert "сессия 2 (идёт)" in cl.pick.options[0][0] and "Открыть сегодняшнюю сессию" == cl.start_button.description


# trust round 3, item 7: a page unlocked with a key that was rotated since is locked again
@pytest.mark.parametrize("rotate", ["new key", "chosen key", "no key mode"])
def test_rotating_the_lobby_key_locks_pages_unlocked_with_the_old_one(setup, rotate):
    """An open lobby page unlocked before the key was rotated still issued GM links: every
    privileged step now checks that the key it was unlocked with is still the store's, and the
    page says so and locks itself."""
    store, key, made, lobby = setup
    cl = lobby.campaign_list
    lobby.key.value = key
    frontend_click(cl.show_button)
    assert cl.unlocked
    if rotate == "new key":
        prepare_lobby_key(store, renew=True)
    elif rotate == "chosen key":
        prepare_lobby_key(store, key=key)  # the same text set again is a new key all the same
    else:
        prepare_lobby_key(store, disabled=True)
    tokens = {s.seat: s.token_hash for s in store.seats(made.table_id)}
    assert cl.new_gm_link() is None
    assert cl.add_player("Mallory") is None and cl.retire("bob") is False and cl.open_tonight() is None
    assert {s.seat: s.token_hash for s in store.seats(made.table_id)} == tokens  # nothing issued
    assert not cl.unlocked and cl.tools.layout.display == "none"
    assert "lobby key was changed" in cl.message.value
    lobby.locale = "ru"
    assert "Ключ лобби сменился" in html.unescape(cl.message.value)
    cl.reload()  # a forged reload shows nothing either
    assert "Crypt" not in str(cl.pick.options)


def test_a_page_unlocked_with_the_current_key_goes_on(setup):
    store, key, made, lobby = setup
    cl = lobby.campaign_list
    lobby.key.value = key
    frontend_click(cl.show_button)
    other = open_store(store.path)  # another kernel checks the key meanwhile: the same key
    try:
        from tabletop_widgets.table import check_lobby_key

        check_lobby_key(other, key)
    finally:
        other.close()
    assert cl.new_gm_link() is not None and cl.unlocked
