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


# -- the player's first minutes: a saved character for a seat, the links to copy ---------------
def _upload(lobby, row, content: bytes, name="hero.json"):
    """What the browser sends when the GM picks a file in the row's file field (content as a buffer)."""
    state = {
        "value": [{"name": name, "type": "application/json", "size": len(content), "last_modified": 1_700_000_000_000}]
    }
    lobby.seat_files[row][0]._handle_msg(
        {
            "content": {"data": {"method": "update", "state": state, "buffer_paths": [["value", 0, "content"]]}},
            "buffers": [memoryview(content)],
        }
    )


def test_a_saved_character_joins_its_seat(store):
    import json

    from tabletop_widgets import get_system

    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store, locale="ru", base="http://x/t.ipynb")
    hero = get_system("ret").Character(name="Ярослава")
    _upload(lobby, 0, json.dumps(hero.to_dict(), ensure_ascii=False).encode(), "ярослава.json")
    assert lobby.seat_rows[0][1].value == "Ярослава"  # the character field takes the file's name
    assert "Загружен: ярослава.json" in lobby.seat_files[0][1].value
    assert lobby.seat_files[0][0].value == ()  # the same file may be picked again
    made = lobby.create()
    assert made is not None
    from tabletop_widgets.table import TableSession

    s = TableSession.join(store, made.table_id, made.tokens["p1"])
    assert s.state.characters["c1"] == hero.to_dict()


def test_a_bad_character_file_creates_nothing_and_says_why(store):
    import json

    from tabletop_widgets import get_system

    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store, locale="ru")
    _upload(lobby, 1, b"{not json", "broken.json")
    assert "«broken.json» не подходит: это не JSON" in lobby.seat_files[1][1].value
    # a RET character, then the GM picks another game: the file is refused at once and at create
    _upload(lobby, 0, json.dumps(get_system("ret").Character(name="Ярослава").to_dict()).encode(), "y.json")
    assert "Загружен: y.json" in lobby.seat_files[0][1].value
    lobby.system.value = "seasons"
    assert "это персонаж игры «Р.Э.Т." in lobby.seat_files[0][1].value
    assert lobby.create() is None
    assert "Игрок 1: Файл «y.json» не подходит" in lobby.error.value
    assert store.list_tables() == []
    lobby.locale = "en"
    assert "The file “y.json” cannot be used: this character is for" in lobby.error.value


def test_every_link_has_a_copy_button_and_copy_all_is_a_chat_message(store):
    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store, base="http://x/t.ipynb")
    lobby.observers.value = 1
    made = lobby.create()
    links = made.links("http://x/t.ipynb")
    assert {s: b.text for s, b in lobby.copy_buttons.items()} == links  # one per seat: GM, p1, p2, o1
    assert lobby.copy_buttons["p1"].label == "Copy: Player 1"
    message = lobby.copy_all.text
    assert f"Player 1 (plays Aria): {links['p1']}" in message and f"Player 2 (plays Boris): {links['p2']}" in message
    assert links["o1"] in message and links["gm"] not in message  # the GM's link stays the GM's
    assert made.seed_hash in message.splitlines()[-1]
    lobby.locale = "ru"  # the GM's language
    assert lobby.copy_buttons["gm"].label == "Копировать: Мастер"
    assert lobby.copy_all.label == "Скопировать всё сообщением" and "Ссылки на стол" in lobby.copy_all.text
    assert "Печать кубиков" in lobby.copy_all.text and links["gm"] not in lobby.copy_all.text


def test_forged_character_files_attach_nothing(store):
    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store)
    assert lobby.attach_character(0, 12345, "x.json") is False  # no bytes at all
    assert "no file content was received" in lobby.seat_files[0][1].value
    assert lobby.attach_character(99, b"{}", "x.json") is False  # a row the lobby does not have
    assert lobby.attach_character(-1, b"{}", "x.json") is False
    locked = Lobby(store, can=lambda action: False)
    assert locked.attach_character(0, b"{}", "x.json") is False
    made = lobby.create()
    assert made is not None  # the refused files left the sample characters in place


def test_switching_to_russian_after_the_links_keeps_the_characters_names(store):
    """The first evening, item 15: the GM created the table with the English sample names, then
    switched the lobby to Russian; the prefilled characters were renamed (Aria became Аня) under
    links already sent with the old names. Once the links are shown, the form shows the table
    as it was made, in any language."""
    import html

    key = prepare_lobby_key(store)
    lobby = Lobby(store, base="http://x/t.ipynb")
    frontend_update(lobby.key, value=key)
    frontend_click(lobby.create_button)
    made = lobby.created
    assert made is not None
    names = [c.value for _p, c in lobby.seat_rows]
    players = [p.value for p, _c in lobby.seat_rows]
    title, gm = lobby.table_title.value, lobby.gm_name.value
    assert names == ["Aria", "Boris"]
    lobby.locale = "ru"
    assert [c.value for _p, c in lobby.seat_rows] == names
    assert [p.value for p, _c in lobby.seat_rows] == players
    assert (lobby.table_title.value, lobby.gm_name.value) == (title, gm)
    links = html.unescape(lobby.links.value)
    assert "персонаж: Aria" in links and "Аня" not in links
    # a new table made from the form again starts from the samples of the language it is in now
    lobby.players.value = 3
    assert lobby.seat_rows[2][1].value == "Вера"
