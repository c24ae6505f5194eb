"""What a ``%roll`` line says (tabletop_widgets.dice.command): the one reader of flags that the
magic and the dice page share, and the notes that say what a line means."""

from __future__ import annotations

import pytest

from tabletop_widgets.dice import DiceError
from tabletop_widgets.dice.command import check_highlight, meaning, read_command


@pytest.mark.parametrize(
    "line, expression, offset, repeat, seed, prob, locale",
    [
        ("--prob 2d6+1 >= 8", "2d6+1 >= 8", 7, 1, None, True, None),
        ("-n 6 4d6kh3", "4d6kh3", 5, 6, None, False, None),
        ("--repeat 3 1d6", "1d6", 11, 3, None, False, None),
        ("--seed 7 --locale ru 3d6", "3d6", 21, 1, 7, False, "ru"),
        ("--seed -2 3d6", "3d6", 10, 1, -2, False, None),
        ("-- -1d4+10", "-1d4+10", 3, 1, None, False, None),
        ("1d20 -1d4", "1d20 -1d4", 0, 1, None, False, None),
        ("-1d4+10", "-1d4+10", 0, 1, None, False, None),
        ('"2d1+1"', "2d1+1", 1, 1, None, False, None),
        ("  1d20+5 adv vs 15  ", "1d20+5 adv vs 15", 2, 1, None, False, None),
        ("--prob", "", 6, 1, None, True, None),
    ],
)
def test_flags_come_off_and_the_dice_text_stays_as_typed(line, expression, offset, repeat, seed, prob, locale):
    c = read_command(line)
    assert (c.expression, c.offset, c.repeat, c.seed, c.prob, c.locale) == (
        expression,
        offset,
        repeat,
        seed,
        prob,
        locale,
    )
    assert line[c.offset : c.offset + len(expression)] == expression
    assert c.line == line


def test_repeat_rolls_with_a_count_in_front():
    assert read_command("-n 6 4d6kh3").rolled_text == "6#4d6kh3"
    assert read_command("4d6kh3").rolled_text == "4d6kh3"


@pytest.mark.parametrize(
    "line, pos, en, ru",
    [
        ("--nope 1d6", 0, "unknown flag --nope: the flags are -n N", "неизвестный флаг --nope: флаги —"),
        ("2d6 --x", None, None, None),  # after the dice a "--" is dice text, not a flag
        ("-n", 2, "-n needs a value", "после -n нужно значение"),
        ("-n x 1d6", 3, "-n takes a whole number, got 'x'", "-n принимает целое число, а не 'x'"),
        ("-n 0 1d6", 3, "-n must be 1..100, got 0", "-n — от 1 до 100, а не 0"),
        ("-n 101 1d6", 3, "-n must be 1..100, got 101", "-n — от 1 до 100, а не 101"),
        ("--seed 1.5 2d6", 7, "--seed takes a whole number, got '1.5'", "--seed принимает целое число"),
        ("--locale fr 1d6", 9, "--locale takes en or ru, got 'fr'", "--locale принимает en или ru"),
    ],
)
def test_a_bad_flag_is_a_dice_error_pointing_into_the_line(line, pos, en, ru):
    if en is None:
        assert read_command(line).expression == line
        return
    with pytest.raises(DiceError) as info:
        read_command(line)
    err = info.value
    assert err.position == pos and err.expression == line
    assert err.text("en").startswith(en) and err.text("ru").startswith(ru)
    assert err.caret("en").splitlines()[1].index("^") == pos


def test_meaning_says_what_a_line_does_beyond_its_dice():
    def en(line):
        return [n["en"] for n in meaning(read_command(line))]

    def ru(line):
        return [n["ru"] for n in meaning(read_command(line))]

    assert en("3d6") == [] and en("2d6 +") == []  # plain dice; a bad line's error says the rest
    assert en("--prob 2d6+1 >= 8") == [
        "the exact odds: nothing is rolled",
        "a check: it passes when the total is ≥ 8",
    ]
    assert en("1d20+5 adv vs 15") == [
        "adv: two d20, the higher counts (2d20kh1)",
        "a check: it passes when the total is ≥ 15",
    ]
    assert en("1d20 dis") == ["dis: two d20, the lower counts (2d20kl1)"]
    assert en("-n 6 4d6kh3") == en("6#4d6kh3") == ["rolled 6 times"]
    assert ru("-n 2 4d6kh3") == ["бросается 2 раза"] and ru("-n 5 4d6kh3") == ["бросается 5 раз"]
    assert en("--seed 7 3d6") == ["seed 7: the same dice every time"]
    assert en("2d6 <= 4") == ["a check: it passes when the total is ≤ 4"]


def test_a_system_word_is_named_from_its_help():
    assert [n["en"] for n in meaning(read_command("L5+3 >= 8"))] == ["L: RET level roll"]
    assert [n["ru"] for n in meaning(read_command("L5+3 >= 8"))] == ["L: бросок уровня Р.Э.Т."]
    assert [n["en"] for n in meaning(read_command("pool 7"))] == ["pool: Seasons d10 pool"]
    assert [n["en"] for n in meaning(read_command("t20+3 adv >= 15"))] == ["t20: Threads of Fate check"]


def test_check_highlight_reads_a_fixed_target_only():
    assert check_highlight("2d6+1 >= 8") == (">=", 8)
    assert check_highlight("1d20 vs -2") == (">=", -2)
    assert check_highlight("3d6") is None
    assert check_highlight("1d20 >= 1d6") is None
    assert check_highlight("2d6 +") is None
