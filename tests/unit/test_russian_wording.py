"""Russian numbers with nouns and lists: every ``{number} noun`` in a Russian template goes
through the plural helper (``core.wording.ru_n``), and lists have no comma before «и»."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from tabletop_widgets.core.wording import counted, join_ru, ru_n

ROOT = Path(__file__).resolve().parents[2]
#: Where the Russian message templates live (the dice parser's messages are the dice layer's).
TEMPLATE_DIRS = ["systems", "tabletop_widgets/core", "tabletop_widgets/widgets", "tabletop_widgets/table"]

#: Count nouns of the four books and the product (stems, any case and number): a number put
#: straight before one of these in a template skipped the plural helper.
COUNT_NOUNS = re.compile(
    r"(?i)^(успех|провал|кубик|куб\b|куба|кубов|дайс|очк|очко|пункт|нит[иьея]|шаг|ход[аов]*\b|раунд|"
    r"очеред|активаци|изменени|орудий|орудия|оружи|патрон|преимуществ|проблем|удач|эпик|"
    r"автоматическ|дополнительн|защит|пар\b|байт|урон|атрибут|доп\b|участник|персонаж|бросок|"
    r"броск|взрыв|переброс|уровн|успех|единиц|ранени|состояни|действи|минут|час|дн[ея]й|"
    r"предмет|навык|талант|особенност|мутаци|опыт|очков|кубиков)"
)  # (abbreviations: ОО, ОИ, Б do not decline)
#: ``{expr} word`` in a string: the placeholder, then the word after it.
_PLACEHOLDER_WORD = re.compile(r"\{([^{}:!]+)(?:![rsa])?(?::[^{}]*)?\}\s+(?:-|—)?\s*([А-Яа-яЁё][\w-]*)")
#: A placeholder that is not a number (names, labels, joined lists, formatted text).
_NOT_A_NUMBER = re.compile(
    r"name|label|lab\b|\['ru'\]|\[\"ru\"\]|join|who|title|text|what|ru\b|"
    r"breakdown|note|id\b|_id|cid|key|spec|param|condition|kind|source|"
    r"ids|word|culprit|action|suffix|closing|sign|change|verdict|shown",
    re.I,
)


def _ru_templates():
    for folder in TEMPLATE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            src = path.read_text(encoding="utf-8")
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type == tokenize.STRING and re.search("[А-Яа-яЁё]", tok.string):
                    yield f"{path.relative_to(ROOT)}:{tok.start[0]}", tok.string


def bare_counts(items) -> list[str]:
    """``file:line: {n} noun`` for every number placed straight before a count noun."""
    bad = []
    for where, text in items:
        for m in _PLACEHOLDER_WORD.finditer(text):
            expr, word = m.group(1), m.group(2)
            if _NOT_A_NUMBER.search(expr) or "ru_n(" in expr or "plural" in expr or "count(" in expr:
                continue
            if COUNT_NOUNS.match(word):
                bad.append(f"{where}: {{{expr}}} {word}")
    return bad


def test_every_number_before_a_noun_goes_through_the_plural_helper():
    templates = list(_ru_templates())
    assert len(templates) > 1000  # it did read the project's Russian strings
    bad = bare_counts(templates)
    assert not bad, "numbers before nouns without ru_n():\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "template",
    [
        'f"нужно {n} Очков опыта"',
        'f"у героя {ch.threads} Нитей"',
        'f"({ra} успехов)"',
        'f"Осталось только {self.speed_left} шагов"',
        'f"все {ch.augmented_pool} активации"',
        'f" (+{res.successes} успех)"',
    ],
)
def test_the_scan_catches_the_reported_cases(template):
    assert bare_counts([("x.py:1", template)])


@pytest.mark.parametrize(
    "template",
    [
        "f\"у героя {ru_n(ch.threads, 'Нить', 'Нити', 'Нитей')}\"",
        'f"{name} получает урон"',
        "f\"Навыки {plab[p]['ru']}: потрачено\"",
        'f"нужно Очков опыта: {n}"',
    ],
)
def test_the_scan_lets_good_templates_through(template):
    assert not bare_counts([("x.py:1", template)])


@pytest.mark.parametrize(
    "n,text",
    [
        (1, "1 Нить"),
        (2, "2 Нити"),
        (5, "5 Нитей"),
        (11, "11 Нитей"),
        (21, "21 Нить"),
        (22, "22 Нити"),
        (0, "0 Нитей"),
        (-3, "-3 Нити"),
    ],
)
def test_ru_n(n, text):
    assert ru_n(n, "Нить", "Нити", "Нитей") == text


def test_counted_gives_both_languages():
    assert counted(1, ("Thread", "Threads"), ("Нить", "Нити", "Нитей")) == {"en": "1 Thread", "ru": "1 Нить"}
    assert counted(3, ("Thread", "Threads"), ("Нить", "Нити", "Нитей")) == {"en": "3 Threads", "ru": "3 Нити"}


def test_join_ru_has_no_comma_before_i():
    assert join_ru(["Бег", "Спорт", "и ещё 235"][:2] + ["ещё 235"]) == "Бег, Спорт и ещё 235"
    assert join_ru(["Бег"]) == "Бег" and join_ru([]) == ""
    assert join_ru(["Сила", "Ловкость"], "или") == "Сила или Ловкость"


#: A preposition that declines what follows it, right before a player-chosen name: «У {name}
#: уже есть», «раньше {who}», «за {character}» would need «у Ани», «раньше Веры», «за Аню».
_DECLINED_NAME = re.compile(
    r"(?i)(?<![\w])(у|за|для|от|к|ко|с|со|раньше|позже|против|перед|после|о|об)\s+[«\"']?"
    r"\{[^{}]*(name|who|character|culprit|actor|player)[^{}]*\}"
)


def declined_names(items) -> list[str]:
    return [f"{where}: {m.group()}" for where, text in items for m in _DECLINED_NAME.finditer(text)]


def test_no_template_declines_a_players_name():
    """A name a player chose is never declined (no «У Аня уже есть», «Гоша раньше Вера»):
    templates put it where its nominative reads right («Аня: уже есть …»)."""
    bad = declined_names(_ru_templates())
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "template",
    ['f"У {self.name(cid)} уже есть"', 'f"{a} раньше {who}"', '"{name} (играет за {character})"'],
)
def test_the_declension_scan_catches_the_reported_cases(template):
    assert declined_names([("x.py:1", template)])


def test_the_declension_scan_lets_good_templates_through():
    assert not declined_names(
        [("x.py:1", 'f"{self.name(cid)}: «Яд» уже есть"'), ("y", '"{name} (персонаж: {character})"')]
    )
