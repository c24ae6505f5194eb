"""A saved character brought to a new table's seat, and the seat links as one chat message
(issue #19, the player's first minutes): plain Python, no widgets."""

from __future__ import annotations

import json

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.table.invite import (
    MAX_CHARACTER_BYTES,
    CharacterFileError,
    invite_message,
    read_character_file,
)


@pytest.mark.parametrize("slug", available_systems())
def test_a_saved_character_reads_back_for_its_game(slug):
    system = get_system(slug)
    hero = system.Character(name="Ярослава")
    saved = json.dumps(hero.to_dict(), ensure_ascii=False, indent=2).encode("utf-8")  # the sheet's Save
    data = read_character_file(system, saved, "ярослава.json")
    assert data == hero.to_dict()
    assert read_character_file(system, b"\xef\xbb\xbf" + saved, "bom.json") == data  # a BOM is fine


def _refusal(system, raw, filename="hero.json") -> CharacterFileError:
    with pytest.raises(CharacterFileError) as err:
        read_character_file(system, raw, filename)
    exc = err.value
    assert exc.message["en"] and exc.message["ru"] and filename in exc.message["ru"]
    return exc


def test_a_bad_file_says_what_is_wrong_in_both_languages():
    ret = get_system("ret")
    exc = _refusal(ret, b'{"system": "ret",\n "name": }')
    assert "не JSON (строка 2, столбец" in exc.text("ru") and "not JSON (line 2, column" in exc.text("en")
    assert "не текст" in _refusal(ret, b"\xff\xfe\x00junk").text("ru")
    assert "нет персонажа" in _refusal(ret, b"[1, 2]").text("ru")
    assert "КБ" in _refusal(ret, b" " * (MAX_CHARACTER_BYTES + 1)).text("ru")
    assert "не получено" in _refusal(ret, 12345).text("ru")  # a forged upload without bytes


def test_a_character_of_another_game_names_both_games():
    seasons_hero = get_system("seasons").Character(name="Аня").to_dict()
    exc = _refusal(get_system("ret"), json.dumps(seasons_hero))
    assert "«Времена Года»" in exc.text("ru") and "«Р.Э.Т. — Разум, Эмоции, Тело»" in exc.text("ru")
    assert "Seasons" in exc.text("en")
    no_game = {k: v for k, v in get_system("ret").Character().to_dict().items() if k != "system"}
    assert "не персонаж, сохранённый с листа" in _refusal(get_system("ret"), json.dumps(no_game)).text("ru")


def test_a_broken_character_names_the_fields_by_the_sheets_words():
    ret = get_system("ret")
    data = ret.Character(name="Аня").to_dict()
    field = next(f for f in ret.sheet.fields() if f.kind == "input" and f.max is not None)
    data[field.name] = "много"
    data["flying_speed"] = 3
    data["strength"] = 5  # computed by the rules
    exc = _refusal(ret, json.dumps(data, ensure_ascii=False))
    ru = exc.text("ru")
    assert f"{field.label['ru']}: Введите целое число" in ru and "flying_speed" in ru
    label = ret.sheet.field("strength").label["ru"]
    assert f"{label}: Это значение вычисляется из других" in ru and "strength" not in ru
    assert len(exc.problems) == 3


def _seats(links):
    return [
        {"role": "gm", "name": "Лена", "link": links[0]},
        {"role": "player", "name": "Пётр", "character": "Ярослава", "link": links[1]},
        {"role": "player", "name": "Ира", "character": "Борис", "link": links[2]},
        {"role": "observer", "name": "Зритель 1", "link": links[3]},
    ]


def test_the_chat_message_has_a_line_per_player_and_the_commitment_never_the_gms_link():
    links = [f"http://h/table.ipynb?table=T&seat=token{i}" for i in range(4)]
    commitment = "ab" * 32
    ru = invite_message(get_system("ret"), "Пятничная игра", _seats(links), commitment, "ru").splitlines()
    assert ru[0].startswith("Ссылки на стол «Пятничная игра» (Р.Э.Т.")
    assert ru[1] == f"Пётр (персонаж: Ярослава): {links[1]}"
    assert ru[2] == f"Ира (персонаж: Борис): {links[2]}"
    assert ru[3] == f"Зритель 1 (зритель): {links[3]}"
    assert ru[4].startswith(f"Печать кубиков: {commitment}.") and "когда мастер закончит сессию" in ru[4]
    assert len(ru) == 5 and not any(links[0] in line for line in ru)
    en = invite_message(get_system("seasons"), "Friday", _seats(links), commitment, "en")
    assert f"Пётр (plays Ярослава): {links[1]}" in en and "when the Storyteller ends the session" in en
    assert links[0] not in en
