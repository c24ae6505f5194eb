"""Scanner: the one scanner for system words; positions are absolute (issue 15)."""

import re

import pytest

from tabletop_widgets.dice import DiceError
from tabletop_widgets.dice.scan import Scanner

T = lambda en, ru: {"en": en, "ru": ru}  # noqa: E731

TEXT = "3#  pool 7 DIFF 2 # comment"
START, END = 4, 17  # "pool 7 DIFF 2"


def test_walks_only_its_slice():
    s = Scanner(TEXT, START, END)
    assert s.pos == START and s.keyword("pool") == "pool"
    assert s.number() == 7
    assert s.keyword("diff") == "diff" and s.number() == 2
    assert s.at_end() and s.pos == END
    assert s.take(r"#") is None  # the comment lies beyond ``end``


def test_error_positions_are_absolute():
    s = Scanner(TEXT, START, END)
    s.keyword("pool")
    s.number()
    with pytest.raises(DiceError) as e:
        raise s.expected(T("a difficulty", "сложность"))
    assert e.value.position == TEXT.index("DIFF") == 11 and e.value.expression == TEXT
    assert e.value.message == "expected a difficulty, found 'D'"
    assert e.value.text("ru") == "ожидалось: сложность; здесь 'D'"
    assert e.value.caret().splitlines()[1] == " " * 11 + "^"


def test_expect_and_peek():
    s = Scanner("xx L5+3", 3)
    assert s.peek(r"l(\d)").group(1) == "5" and s.pos == 3  # peek does not move (text regexes ignore case)
    assert s.expect(re.compile(r"L(\d)"), T("a level", "уровень")).group(1) == "5" and s.pos == 5
    with pytest.raises(DiceError, match="expected a level, found '\\+'") as e:
        s.expect(r"L\d", T("a level", "уровень"))
    assert e.value.position == 5
    assert s.take(r"\+") and s.number() == 3
    with pytest.raises(DiceError, match="found the end of the roll") as e:
        s.expect(r"\d", "a digit")
    assert e.value.position == 7


def test_number_limit_and_missing_number():
    s = Scanner("ld 12345", 0)
    s.keyword("ld")
    with pytest.raises(DiceError) as e:
        s.number(T("the pool size", "размер пула"), maximum=100)
    assert e.value.position == 3 and "at most 100" in e.value.message and "не больше 100" in e.value.text("ru")
    with pytest.raises(DiceError, match="expected a whole number"):
        Scanner("ld x", 3).number()


def test_keywords_are_whole_words_and_case_insensitive():
    s = Scanner("difficulty 3")
    assert s.keyword("diff") is None and s.pos == 0
    assert s.peek_keyword("DIFFICULTY") == "DIFFICULTY" and s.pos == 0
    assert s.keyword("vs", "difficulty") == "difficulty"
    assert Scanner(">= 8").keyword(">=") == ">="


def test_words_bare_and_in_braces():
    s = Scanner("ld Скрытность + {Мелкая  моторика } + stealth_2", 3)
    assert s.word() == "Скрытность" and s.take(r"\+")
    assert s.word() == "Мелкая моторика" and s.take(r"\+")
    assert s.word() == "stealth_2" and s.at_end()
    with pytest.raises(DiceError, match="closing }") as e:
        Scanner("ld {Мелкая", 3).word()
    assert e.value.position == 3
    with pytest.raises(DiceError, match="no name"):
        Scanner("{ }").word()
    with pytest.raises(DiceError, match="expected a skill, found '7'"):
        Scanner("7").word(T("a skill", "навык"))


def test_error_at_a_given_position_with_plain_text():
    err = Scanner("abc def", 4).error("bad", 5)
    assert isinstance(err, DiceError) and err.position == 5 and err.text("ru") == "bad"
