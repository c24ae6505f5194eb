"""The Russian interface as a Russian player meets it: every widget of every system opens
directly in Russian (and switched from English), and what it shows after a session of play has
no English in it, no rulebook line markers, and no internal ids."""

from __future__ import annotations

import random
import re

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.widgets import CharacterSheet, DiceTray, RollLog, show_tray
from tabletop_widgets.widgets.tracker import show_combat

from russian_screens import (
    ALLOWED_LATIN,
    BOOK_LATIN,
    MARKER,
    TITLE_LATIN,
    latin_words,
    play_sheet,
    play_tracker,
    wrong_endings,
    play_tray,
    widget_texts,
)

SYSTEMS = available_systems()


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_widget_opens_directly_in_russian(slug):
    """The tray used to crash when built in Russian (its labels were drawn before its parts)."""
    system = get_system(slug)
    character = system.Character(name="Аня")
    tray = DiceTray(character, locale="ru", rng=random.Random(1))
    assert tray.locale == "ru" and tray.locale_toggle.value == "ru"
    assert "Обстановка" in tray.situation_title.value or tray.situation.layout.display == "none"
    assert "Проверки" in tray.checks_title.value
    assert show_tray(character, locale="ru").locale == "ru"
    assert show_tray(locale="ru").locale == "ru"  # notation only
    sheet = CharacterSheet(character, locale="ru")
    assert sheet.locale == "ru"
    tracker = show_combat(system, characters=[system.Character(name="Аня")], locale="ru", rng=random.Random(2))
    assert tracker.locale == "ru" and "Бой" in tracker.title.value
    log = RollLog(locale="ru")
    assert log.locale == "ru"


# -- what a Russian player reads ---------------------------------------------------------------


def _screens(slug: str, *, switch: bool) -> list[str]:
    tray, log, rolled = play_tray(slug, switch=switch)
    sheet = play_sheet(slug, switch=switch)
    tracker, said = play_tracker(slug, switch=switch)
    texts = widget_texts(tray) + [x for r in rolled for x in r] + widget_texts(log)
    texts += widget_texts(sheet) + widget_texts(tracker) + said
    assert len(texts) > 200 and sum(len(t) for t in texts) > 5000  # it did render a session
    return texts


@pytest.fixture(
    scope="module",
    params=[(s, sw) for s in SYSTEMS for sw in (False, True)],
    ids=lambda p: f"{p[0]}-{'switched' if p[1] else 'built'}-ru",
)
def russian_screens(request):
    slug, switch = request.param
    return slug, _screens(slug, switch=switch)


def test_no_english_on_a_russian_screen(russian_screens):
    """A session of play in Russian (every check rolled, a fight with every condition, the
    sheet): no Latin word outside dice notation, the allow-list and the book's own letters."""
    slug, texts = russian_screens
    found = latin_words(texts, ALLOWED_LATIN | BOOK_LATIN.get(slug, set()))
    assert not found, "English on a Russian screen:\n" + "\n".join(f"  {w!r} in: {t}" for w, t in found.items())


def test_no_rulebook_markers_or_ids_on_screen(russian_screens):
    slug, texts = russian_screens
    markers = {m.group(): t for t in texts for m in [MARKER.search(t)] if m}
    assert not markers, markers
    system = get_system(slug)
    ids = {c.id for c in system.conditions() if "_" in c.id}
    shown = {i: t for t in texts for i in ids if re.search(rf"(?<![\w@]){re.escape(i)}(?!\w)", t)}
    assert not shown, shown


def test_the_checker_catches_english_and_markers():
    """The scan itself: it finds what it is meant to find and lets notation through."""
    assert set(latin_words(["Сопротивление: mind_control", "по опции zero_health_outcome"])) == {
        "mind_control",
        "zero_health_outcome",
    }
    assert latin_words(["Бросить: Сила (L3) 2d6+1 >= 8, 4d6kh3; pool 3[Сила] diff 3; t20 vs 10"]) == {}
    assert "OUT" in latin_words(["Вне сюжета OUT"])
    assert MARKER.search("Сила (L742)") and MARKER.search("HP (A-02)") and not MARKER.search("L3 d6")


#: Words that agree with a character's gender: a screen about «Аня» never says them of her.
GENDERED = re.compile(
    r"(?<![\w-])(выбыл|ранен|погиб|мёртв|сбежал|сдался|невредим|недееспособен|скрыт|переименован)(?![\w-])"
)


def test_endings_and_lists_on_a_russian_screen(russian_screens):
    """Numbers agree with their nouns («2 успеха», «5 Нитей»), lists have no comma before «и»,
    no masculine-only word is said of a character, and an ended condition reads «закончилось: X»."""
    slug, texts = russian_screens
    assert not wrong_endings(texts)
    commas = [t for t in texts if re.search(r",\s+и\s", t)]
    assert not commas, commas[:5]
    gendered = [t for t in texts if GENDERED.search(t)]
    assert not gendered, gendered[:5]
    assert not [t for t in texts if re.search(r"[А-ЯЁ][а-яё]+ закончил(ось|ся|ась)\b", t)]


def test_the_endings_check_catches_bad_agreement():
    assert set(wrong_endings(["(+2 успех)", "2 Нитей", "Осталось 1 шагов", "3 успеха, 5 Нитей, 21 успех"])) == {
        "2 успех",
        "2 Нитей",
        "1 шагов",
    }


@pytest.mark.parametrize(
    "slug,name,trait",
    [
        ("ret", "Сила", "strength"),
        ("seasons", "Сила", "strength"),
        ("life_and_death", "Сила", "might"),
        ("threads_of_fate", "Сила", "strength"),
        ("ret", "{Мелкая моторика}", "fine_motor"),
    ],
)
def test_notation_takes_the_books_names_of_a_characters_numbers(slug, name, trait):
    """``@Сила`` and ``@{Мелкая моторика}`` in the tray's notation are the character's numbers,
    the same as ``@strength``; a Russian reader's tooltip shows that form."""
    system = get_system(slug)
    character = system.Character(name="Аня")
    by_name = DiceTray(character, locale="ru", rng=random.Random(5)).roll(f"1d20 + @{name}")
    by_id = DiceTray(character, locale="ru", rng=random.Random(5)).roll(f"1d20 + @{trait}")
    assert by_name is not None and by_id is not None
    assert by_name.total == by_id.total == by_id.dice[0].value + getattr(character, trait)
    assert "@Сила" in DiceTray(character, locale="ru").notation.tooltip


def test_seasons_pool_word_takes_the_books_names():
    system = get_system("seasons")
    character = system.Character(name="Аня")
    character.wits, character.investigation = 3, 2
    tray = DiceTray(character, locale="ru", rng=random.Random(5))
    by_name = tray.roll("pool Сообразительность+Расследование diff 3")
    by_id = DiceTray(character, locale="ru", rng=random.Random(5)).roll("pool wits+investigation diff 3")
    assert by_name is not None and by_id is not None and by_name.total == by_id.total
    assert len(by_name.dice) == len(by_id.dice) == 5 - 3
    check = next(c for c in tray.checks if c.id == "wits+investigation")
    assert check.notation == "pool 3[wits]+2[investigation] diff 3"  # what %roll shares
    assert check.notation_text("ru") == "pool 3[Сообразительность]+2[Расследование] diff 3"
    assert "pool 3[Сообразительность]+2[Расследование] diff 3" in tray.check_button(check.id).tooltip
    assert tray.roll("pool Смекалка+Расследование") is None  # not a Seasons word
    assert "Сообразительность+Расследование" in tray.error.value


# -- the shared table: the lobby and the GM's and a player's screens ----------------------------

#: Words no Russian screen says: another word for the GM than the book's («ведущий», the badge
#: «ГМ»), calques («зерно» for the dice key, «ядро» for the kernel, «Бюджет», «Ничьи» for
#: tie-breaks) and a commitment named so that no player knows what it is for.
BANNED = re.compile(
    r"[Вв]едущ\w*|\bГМ\b|\b[Зз]ерн(о|а|у|ом|е)\b|\b[Яя]др(о|а|у|ом|е)\b|[Бб]юджет\w*|\b[Нн]ичь(я|и|ей|ю)\b|"
    r"[Оо]бязательств\w*"
)


def banned_words(texts) -> dict[str, str]:
    return {m.group(): t for t in texts for m in [BANNED.search(t)] if m}


def _table_screens(slug: str, tmp_path, *, switch: bool) -> list[str]:
    from russian_screens import play_lobby, play_table

    lobby, store = play_lobby(slug, str(tmp_path / "lobby.db"), switch=switch)
    gm, player, said = play_table(slug, str(tmp_path / "table.db"), switch=switch)
    texts = widget_texts(lobby) + widget_texts(gm) + widget_texts(player) + said
    store.close()
    assert len(texts) > 100 and any("Печать кубиков" in t for t in texts)
    return texts


@pytest.fixture(
    scope="module",
    params=[(s, sw) for s in SYSTEMS for sw in (False, True)],
    ids=lambda p: f"{p[0]}-{'switched' if p[1] else 'built'}-ru",
)
def table_screens(request, tmp_path_factory):
    slug, switch = request.param
    return slug, _table_screens(slug, tmp_path_factory.mktemp(f"{slug}-{switch}"), switch=switch)


def test_the_shared_table_reads_russian(table_screens):
    """The lobby and the GM's and a player's table pages, in Russian: no English, no ids or
    markers, endings agree, nothing gendered said of a name, no banned word."""
    slug, texts = table_screens
    found = latin_words(texts, ALLOWED_LATIN | BOOK_LATIN.get(slug, set()) | TITLE_LATIN)
    assert not found, "English on a Russian screen:\n" + "\n".join(f"  {w!r} in: {t}" for w, t in found.items())
    assert not {m.group(): t for t in texts for m in [MARKER.search(t)] if m}
    assert not wrong_endings(texts)
    assert not [t for t in texts if GENDERED.search(t)]
    assert not [t for t in texts if re.search(r",\s+и\s", t)]
    assert not banned_words(texts), banned_words(texts)


def test_the_gm_is_called_by_the_books_word(table_screens):
    """RET, L&D and Threads say «мастер»; Seasons «Рассказчик» (the lobby, the badge, the notes,
    a refusal); the lobby's words follow the game the GM picks."""
    slug, texts = table_screens
    word = get_system(slug).term("gm_title", "ru")
    assert word == ("Рассказчик" if slug == "seasons" else "Мастер")
    joined = "\n".join(texts)
    assert word in joined and f"Заметки {get_system(slug).term('gm_gen', 'ru')}" in joined
    other = "Рассказчик" if slug != "seasons" else "Мастер"
    assert not re.search(rf"\b{other}\w*", joined, re.I), other


def test_no_banned_word_on_the_play_screens(russian_screens):
    slug, texts = russian_screens
    assert not banned_words(texts), banned_words(texts)


def test_the_banned_check_catches_the_old_words():
    old = [
        "Имя ведущего",
        "Ведущий",
        "ГМ",
        "Обязательство кубиков (SHA-256 секретного зерна)",
        "ни на страницу, ни в их ядро",
        "Бюджет",
        "Ничьи",
    ]
    assert all(banned_words([t]) for t in old)
    assert GENDERED.search("скрыт")
    assert not banned_words(["Имя мастера", "Заметки Рассказчика", "Печать кубиков", "ядрёный"])


def test_the_lobby_words_follow_the_chosen_game(tmp_path):
    from tabletop_widgets.table import open_store, prepare_lobby_key
    from tabletop_widgets.widgets.lobby import Lobby

    store = open_store(str(tmp_path / "l.db"))
    prepare_lobby_key(store, disabled=True)
    lobby = Lobby(store, locale="ru")
    lobby.system.value = "ret"
    assert lobby.gm_name.description == "Имя мастера" and lobby.gm_name.value == "Мастер"
    lobby.system.value = "seasons"
    assert lobby.gm_name.description == "Имя Рассказчика" and lobby.gm_name.value == "Рассказчик"
    lobby.gm_name.value = "Лена"  # a typed name stays
    lobby.system.value = "threads_of_fate"
    assert lobby.gm_name.description == "Имя мастера" and lobby.gm_name.value == "Лена"
    lobby.locale = "en"
    assert lobby.gm_name.description == "Game master's name"
    store.close()
