"""Each system's glossary (``systems/<slug>/glossary.json``: concept -> the book's word, its seed
line and a quote of it, and the synonyms the product must not use) and a check that what a
Russian player reads follows it: the system's Russian strings, its data tables, and the screens
of a session of play (sheet, tray, log, combat tracker) contain none of the banned words."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from tabletop_widgets import available_systems

from russian_screens import play_sheet, play_tracker, play_tray, widget_texts

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"  # the rulebooks, beside the repository on a developer machine
SYSTEMS = available_systems()

#: Words no Russian screen of the product uses, whatever the system: calques and a stray badge.
PRODUCT_BANNED = [r"\bГМ\b", r"\b[Нн]ичь(я|и|ей|ю)\b", r"\b[Бб]юджет\w*", r"\b[Нн]атуральн\w+ (1|20)\b"]


def glossary(slug: str) -> dict:
    return json.loads((ROOT / "systems" / slug / "glossary.json").read_text(encoding="utf-8"))


def _norm(text: str) -> str:
    return text.lower().replace("ё", "е").replace("\u00a0", " ")


def system_ru_strings(slug: str) -> list[tuple[str, str]]:
    """(where, text) of every Russian string of a system: code templates and data values."""
    out = []
    folder = ROOT / "systems" / slug
    for path in sorted(folder.rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.STRING and re.search("[А-Яа-яЁё]", tok.string):
                out.append((f"{path.relative_to(ROOT)}:{tok.start[0]}", tok.string))

    def walk(value, where):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]")
        elif isinstance(value, str) and re.search("[А-Яа-яЁё]", value):
            out.append((where, value))

    for path in sorted((folder / "data").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)))
    return out


@pytest.fixture(scope="module", params=SYSTEMS)
def screens(request):
    slug = request.param
    tray, log, rolled = play_tray(slug)
    texts = widget_texts(tray) + widget_texts(log) + [x for r in rolled for x in r]
    texts += widget_texts(play_sheet(slug))
    tracker, said = play_tracker(slug)
    texts += widget_texts(tracker) + said
    return slug, [("screen", t) for t in texts]


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_system_has_a_glossary_of_its_books_words(slug):
    g = glossary(slug)
    assert g["system"] == slug and len(g["terms"]) >= 5
    concepts = [t["concept"] for t in g["terms"]]
    assert len(concepts) == len(set(concepts)) and "the person running the game" in concepts
    for t in g["terms"]:
        assert t["en"] and t["ru"] and t["book"]
        for pattern in t["banned"]:
            re.compile(pattern)
            assert not re.search(pattern, t["ru"]), (t["ru"], pattern)  # the word is not its own synonym
        if t["line"] is not None:
            # the quote is the book's own text around its word
            assert _norm(t["book"]) in _norm(t["quote"]), t
            seed = SEEDS / g["seed"]
            if seed.exists():  # the books sit beside the repository on a developer machine
                line = seed.read_text(encoding="utf-8").splitlines()[t["line"] - 1]
                assert _norm(t["quote"]) in _norm(line), (t["line"], t["quote"])


def test_the_word_for_the_game_master_is_the_books():
    from tabletop_widgets import get_system

    for slug in SYSTEMS:
        g = {t["concept"]: t for t in glossary(slug)["terms"]}
        word = g["the person running the game"]["ru"]
        assert _norm(get_system(slug).term("gm_title", "ru")) == _norm(word), slug


def banned_uses(slug: str, texts: list[tuple[str, str]]) -> list[str]:
    found = []
    patterns = [(t["concept"], p) for t in glossary(slug)["terms"] for p in t["banned"]]
    patterns += [("product", p) for p in PRODUCT_BANNED]
    for where, text in texts:
        for concept, p in patterns:
            m = re.search(p, text)
            if m:
                found.append(f"{where}: «{m.group()}» ({concept}) in {text[:120]!r}")
    return found


def test_the_systems_strings_use_the_glossary(screens):
    """No banned synonym in a system's Russian strings (code and data) or on its screens."""
    slug, screen_texts = screens
    texts = system_ru_strings(slug)
    assert len(texts) > 100
    found = banned_uses(slug, texts + screen_texts)
    assert not found, "\n".join(found[:40])


def test_the_check_finds_a_banned_word():
    assert banned_uses("seasons", [("x", "Ваш ГМ решает"), ("y", "+рейтинг дайсов"), ("z", "ничья 2:2")])
    assert banned_uses("ret", [("x", "Кубик провала: d4")])
    assert banned_uses("threads_of_fate", [("x", "натуральная 20")])
    assert not banned_uses("seasons", [("x", "Стать мастером боевых искусств"), ("y", "пункты Драмы")])
