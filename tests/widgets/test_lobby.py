"""The lobby widget asks for the lobby key and checks it, and the seat count, in Python: forged
front-end messages (a raised ``max``, a click on a table without the key) create nothing."""

from __future__ import annotations

import pytest

from tabletop_widgets.table import open_store
from tabletop_widgets.table.lobbykey import FREE_ATTEMPTS, prepare_lobby_key
from tabletop_widgets.widgets.lobby import MAX_PLAYERS, Lobby
from helpers import frontend_click, frontend_update


@pytest.fixture
def store(tmp_path):
    s = open_store(str(tmp_path / "lobby.db"))
    yield s
    s.close()


def test_the_lobby_asks_for_the_key(store):
    key = prepare_lobby_key(store)
    lobby = Lobby(store, base="http://x/t.ipynb")
    assert "tt-lobby-key" in lobby.key._dom_classes and lobby.key.layout.display != "none"
    assert lobby.key.description == "Lobby key"
    frontend_click(lobby.create_button)  # no key typed
    assert lobby.created is None and "Type the lobby key" in lobby.error.value
    frontend_update(lobby.key, value="wrong")
    frontend_click(lobby.create_button)
    assert lobby.created is None and "lobby key is wrong" in lobby.error.value
    assert lobby.key.value == ""  # cleared after a refusal
    lobby.locale = "ru"
    assert "Неверный ключ лобби" in lobby.error.value and lobby.key.description == "Ключ лобби"
    assert store.list_tables() == []
    frontend_update(lobby.key, value=key)
    frontend_click(lobby.create_button)
    assert lobby.created is not None and lobby.error.value == ""
    assert lobby.key.value == ""  # the key does not stay in the page
    assert [t.table_id for t in store.list_tables()] == [lobby.created.table_id]


def test_a_script_guessing_keys_is_slowed_down(store):
    key = prepare_lobby_key(store)
    lobby = Lobby(store)
    for i in range(FREE_ATTEMPTS):
        frontend_update(lobby.key, value=f"guess{i}")
        frontend_click(lobby.create_button)
    assert "try again in" in lobby.error.value
    frontend_update(lobby.key, value=key)  # even the right key waits now
    frontend_click(lobby.create_button)
    assert lobby.created is None and "Too many wrong lobby keys" in lobby.error.value
    assert store.list_tables() == []


def test_without_a_key_set_nothing_is_created(store):
    lobby = Lobby(store)
    frontend_update(lobby.key, value="anything")
    frontend_click(lobby.create_button)
    assert lobby.created is None and "no lobby key yet" in lobby.error.value
    assert store.list_tables() == []


def test_explicit_no_key_mode(store):
    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store)
    assert lobby.key.layout.display == "none" and "without a key" in lobby.key_note.value
    frontend_click(lobby.create_button)
    assert lobby.created is not None


def test_forged_seat_counts_are_refused(store):
    key = prepare_lobby_key(store)
    lobby = Lobby(store)
    # a forged message raises the widget's bound first, then the value
    frontend_update(lobby.players, max=1000)
    frontend_update(lobby.players, value=301)
    assert lobby.players.value == 301
    assert len(lobby.seat_rows) == MAX_PLAYERS  # no 301 rows built in the kernel
    frontend_update(lobby.key, value=key)
    frontend_click(lobby.create_button)
    assert lobby.created is None and "1 to 8 players" in lobby.error.value
    frontend_update(lobby.players, value=2)
    frontend_update(lobby.observers, max=1000)
    frontend_update(lobby.observers, value=300)
    frontend_update(lobby.key, value=key)
    frontend_click(lobby.create_button)
    assert lobby.created is None and "at most 4 observers" in lobby.error.value
    assert store.list_tables() == []
    # a name past the bound: create_table's own check, shown in the player's language
    frontend_update(lobby.observers, value=0)
    frontend_update(lobby.gm_name, value="G" * 500)
    frontend_update(lobby.key, value=key)
    lobby.locale = "ru"
    frontend_click(lobby.create_button)
    assert lobby.created is None and "Имя места" in lobby.error.value
    assert store.list_tables() == []
