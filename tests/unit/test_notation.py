"""Every row of NOTATION.md: terms, modifiers (and their fixed order), checks, labels, repetition,
variables, the conflicts table and the limits. Dice faces are scripted so the expected totals are
exact."""

import random
from fractions import Fraction

import pytest
from dice_helpers import Scripted

from tabletop_widgets.dice import DiceError, roll
from tabletop_widgets.dice.errors import DiceLimitError


def R(expr, faces=(), **kw):
    rng = Scripted(faces)
    r = roll(expr, rng=rng, **kw)
    assert not rng.faces, f"unused scripted faces {rng.faces}"
    return r


def kept(r):
    return [d.value for d in r.dice if d.counted]


# ---------------------------------------------------------------------------------------------
# Terms
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "expr,faces,total,calls",
    [
        ("2d6", [3, 4], 7, [6, 6]),
        ("d6", [5], 5, [6]),
        ("1d20", [20], 20, [20]),
        ("d%", [100], 100, [100]),
        ("d%", [1], 1, [100]),
        ("(d10-1)*10", [1], 0, [10]),  # a tens die is written (d10-1)*10
        ("(d10-1)*10", [10], 90, [10]),
        ("4dF", [1, 2, 3, 3], 0 + -1 + 1 + 1, [3, 3, 3, 3]),  # faces -1, 0, +1 (index 1..3)
        ("dF", [1], -1, [3]),
        ("d{1,2,4,8}", [4], 8, [4]),
        ("2d{-1,5,5}", [1, 2], 4, [3, 3]),  # negative and repeated faces
        ("(1d4)d6", [3, 2, 2, 6], 10, [4, 6, 6, 6]),  # computed count, dice inside
        ("2d(2*3)", [6, 1], 7, [6, 6]),
        ("d(1d4+2)", [2, 4], 4, [4, 4]),
    ],
)
def test_terms(expr, faces, total, calls):
    rng = Scripted(faces)
    r = roll(expr, rng=rng)
    assert r.total == total
    assert rng.calls == calls


def test_fate_dot_variants():
    assert R("dF.1", [1]).total == -1 and R("dF.1", [6]).total == 1 and R("dF.1", [3]).total == 0
    assert R("dF.2", [3]).total == 1


@pytest.mark.parametrize(
    "expr,total",
    [
        ("1+2*3", 7),
        ("(1+2)*3", 9),
        ("7//2", 3),
        ("-7//2", -4),
        ("7%3", 1),
        ("-7%3", 2),
        ("2^3", 8),
        ("2**3", 8),
        ("2^3^2", 512),
        ("-2^2", -4),
        ("--3", 3),
        ("+3", 3),
        ("7/2", 3),
        ("-7/2", -4),
        ("7/2*2", 7),
        ("floor(7/2)", 3),
        ("ceil(7/2)", 4),
        ("round(5/2)", 3),
        ("round(-5/2)", -3),
        ("round(7/3)", 2),
        ("abs(-4)", 4),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("max(1)", 1),
        ("2^-1*4", 2),
        ("10 - 2 - 3", 5),
    ],
)
def test_arithmetic_and_functions(expr, total):
    assert roll(expr, seed=1).total == total


def test_division_is_exact_then_floored_with_a_note():
    r = roll("7/2")
    assert r.exact == Fraction(7, 2) and r.total == 3
    assert any("rounded down" in n["en"] for n in r.notes)
    assert roll("round(2.5*1)", seed=1).total if False else True  # decimals are refused below


def test_round_is_half_away_from_zero_not_bankers():
    assert roll("round(1/2)").total == 1 and roll("round(3/2)").total == 2  # Python: 0 and 2
    assert roll("round(-1/2)").total == -1


# ---------------------------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------------------------
def test_group_keep_acts_on_member_totals():
    r = R("{4d6, 3d8}kh1", [1, 1, 1, 1, 8, 8, 8])
    assert r.total == 24
    assert r.tree.kept == [False, True]


def test_d20_style_set_and_one_element_set():
    assert R("(1d6, 1d8)kh1", [6, 2]).total == 6
    assert R("(1d6, 1d8)kl1", [6, 2]).total == 2
    assert R("(3d6,)", [1, 2, 3]).total == 6


def test_group_success_counts_members():
    r = R("{3d6, 2d6, 4d6}>=10", [6, 6, 6, 1, 1, 3, 3, 3, 3])
    assert r.total == 2 and r.successes == 2


def test_single_member_group_acts_on_its_dice():
    assert R("{4d6}kh3", [1, 2, 3, 4]).total == 9
    assert R("{5d10}>=6", [6, 7, 1, 2, 10]).total == 3


def test_group_without_modifiers_sums():
    assert R("{1d6, 3}", [4]).total == 7


def test_single_member_group_of_a_sum_is_one_total():
    """Roll20's sheet idiom ``{1d20+5}>15``: a one-member group holding arithmetic compares
    (or keeps) its total, like a member of a larger group (issue 21)."""
    assert R("{1d20+5}>15", [11]).total == 1 and R("{1d20+5}>15", [10]).total == 0
    assert R("{4d6+2}kh3", [1, 2, 3, 4]).total == 12
    r = R("{1d20+5}>15", [14])
    assert r.successes == 1 and str(r) == "{1d20 [14] + 5 = 19 ✓}>15 = 1 success"


# ---------------------------------------------------------------------------------------------
# Per-die modifiers, each one
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "expr,faces,total",
    [
        ("4d6min3", [1, 2, 5, 6], 3 + 3 + 5 + 6),
        ("4d6mi3", [1, 2, 5, 6], 17),
        ("4d6max5", [1, 2, 5, 6], 1 + 2 + 5 + 5),
        ("4d6ma5", [1, 2, 5, 6], 13),
        ("2d6!", [6, 6, 2, 3], 17),  # explode: each 6 adds a die, which may explode
        ("2d6!>=5", [5, 1, 6, 2], 14),
        ("1d6!=1", [1, 1, 4], 6),
        ("1d6!!", [6, 6, 2], 14),  # compound: one die showing 14
        ("1d6!p", [6, 6, 3], 6 + 5 + 2),  # penetrate: every extra die -1
        ("1d6!!p", [6, 6, 3], 6 + 5 + 2),
        ("2d6e6", [6, 1, 2], 9),  # d20 alias
        ("2d6e>5", [6, 1, 2], 9),
        ("1d6x", [6, 3], 9),  # Foundry aliases
        ("1d6x>=5", [5, 6, 1], 12),
        ("1d6xo", [6, 6], 12),  # explode once
        ("1d10x10", [10, 4], 14),
        ("1d10x2>=9", [9, 10, 10], 29),  # at most 2 explosions
        ("4d6r<3", [1, 2, 5, 6, 1, 3, 4], 5 + 6 + 3 + 4),  # reroll until the condition fails
        ("4d6rr1", [1, 2, 5, 6, 1, 1, 4], 2 + 5 + 6 + 4),
        ("2d6r", [1, 3, 1, 2], 3 + 2),  # bare r rerolls the lowest face
        ("4d6ro<3", [1, 2, 5, 6, 1, 2], 5 + 6 + 1 + 2),  # once: new low rolls stand
        ("2d6ra6", [6, 6, 3], 15),  # reroll-and-add once (d20)
        ("3d6u", [2, 2, 2, 5, 3], 10),  # unique: duplicates rerolled
        ("3d6uo", [2, 2, 2, 2, 2], 6),  # once: a repeated reroll stands
        ("4d6kh3", [1, 2, 3, 4], 9),
        ("4d6kl1", [1, 2, 3, 4], 1),
        ("4d6k3", [1, 2, 3, 4], 9),
        ("4d6dh1", [1, 2, 3, 4], 6),
        ("4d6dl1", [1, 2, 3, 4], 9),
        ("4d6d1", [1, 2, 3, 4], 9),
        ("4d6ph1", [1, 2, 3, 4], 6),
        ("4d6pl1", [1, 2, 3, 4], 9),
        ("4d6k>3", [1, 2, 3, 4], 4),
        ("4d6p<3", [1, 2, 3, 4], 7),
        ("4d6k=3", [1, 3, 3, 4], 6),
        ("6d10>=6", [6, 7, 1, 2, 10, 5], 3),  # success counting (glued)
        ("6d10>7", [7, 8, 1, 2, 10, 5], 2),  # > is strict
        ("6d10=10", [7, 8, 1, 10, 10, 5], 2),
        ("6d10>=6f<3", [6, 7, 1, 2, 10, 5], 3 - 2),
        ("6d10>=6f1", [6, 7, 1, 2, 10, 1], 3 - 2),
        ("6d10>=7dbl=10", [7, 10, 1, 10, 2, 3], 1 + 2 + 2),
        ("3d20cs>=19", [19, 20, 3], 42),  # marks only
        ("3d20cf<=2", [1, 20, 3], 24),
        ("4d6s", [4, 1, 3, 2], 10),
        ("4d6sa", [4, 1, 3, 2], 10),
        ("4d6sd", [4, 1, 3, 2], 10),
    ],
)
def test_each_modifier(expr, faces, total):
    assert R(expr, faces).total == total


def test_flags_on_dice():
    r = R("4d6kh3", [1, 2, 3, 4])
    assert [d.dropped for d in r.dice] == [True, False, False, False]
    r = R("2d6!", [6, 2, 3])
    assert r.dice[0].exploded and r.dice[1].added_by == "explode"
    r = R("2d6r1", [1, 4, 5])
    assert r.dice[0].rerolled and not r.dice[0].counted and r.dice[1].added_by == "reroll"
    r = R("3d10>=6f1", [6, 1, 3])
    assert r.dice[0].success and r.dice[1].failure and not r.dice[2].success
    r = R("3d20cs>=19cf1", [19, 1, 5])
    assert [d.crit for d in r.dice] == ["success", "failure", None]
    r = R("1d20", [20])
    assert r.dice[0].crit == "success"  # natural 20 marked on plain d20s
    r = R("4d6sd", [4, 1, 3, 2])
    assert [d.value for d in r.dice] == [4, 3, 2, 1]
    r = R("4d6sa", [4, 1, 3, 2])
    assert [d.value for d in r.dice] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "a,b",
    [
        ("4d6!kh3", "4d6kh3!"),  # written order does not matter
        ("6d6r1kh3", "6d6kh3r1"),
        ("5d10>=6!>=9", "5d10!>=9>=6"),  # pool with target and explosion (rdr#91)
        ("4d6min2kh3", "4d6kh3min2"),
        ("6d6kh3u", "6d6ukh3"),
    ],
)
def test_fixed_modifier_order(a, b):
    for seed in range(30):
        assert roll(a, seed=seed).total == roll(b, seed=seed).total


def test_explode_happens_before_keep():
    # 2d6!kh1 : the explosion die joins the pool before keeping (fixed order), so a 6-then-5 keeps 6
    r = R("2d6!kh1", [6, 2, 5])
    assert r.total == 6 and len(r.dice) == 3


def test_reroll_before_keep_and_count_after_keep():
    r = R("3d10r1kh2>=6", [1, 6, 7, 9])
    # 1 rerolled to 9; keep 9,7 ; both >= 6
    assert r.total == 2


# ---------------------------------------------------------------------------------------------
# Checks, adv/dis, labels, comments, repetition, variables
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "expr,faces,passed,margin",
    [
        ("2d6+3 >= 8", [2, 3], True, 0),
        ("2d6+3 >= 8", [1, 3], False, -1),
        ("2d6+3 > 8", [2, 3], False, 0),
        ("2d6 <= 4", [1, 3], True, 0),
        ("2d6 = 7", [3, 4], True, 0),
        ("2d6 != 7", [3, 4], False, 0),
        ("2d6 <> 7", [3, 3], True, -1),
        ("1d20+5 vs 15", [10], True, 0),
        ("1d20+5 dc 15", [9], False, -1),
        ("1d20 >= 1d20", [10, 10], True, 0),
    ],
)
def test_checks(expr, faces, passed, margin):
    r = R(expr, faces)
    assert r.check is not None and r.check.passed is passed and r.check.margin == margin


def test_check_text_says_pass_and_margin_both_locales():
    r = R("2d6+3 >= 8", [4, 3])
    assert str(r) == "2d6 [4, 3] + 3 = 10 ≥ 8 → pass (margin +2)"
    assert r.text("ru") == "2d6 [4, 3] + 3 = 10 ≥ 8 → успех (разница +2)"


@pytest.mark.parametrize(
    "expr,faces,total",
    [
        ("1d20+5 adv", [3, 17], 22),
        ("1d20+5 dis", [3, 17], 8),
        ("adv 1d20", [3, 17], 17),
        ("1d20 + 1d20 adv", [3, 17, 5], 22),  # the leftmost d20
    ],
)
def test_adv_dis(expr, faces, total):
    assert R(expr, faces).total == total


def test_adv_needs_a_d20():
    with pytest.raises(DiceError, match="d20"):
        roll("2d6 adv")


def test_labels_comments():
    r = R("1d20+5 [to hit] + 2d6[fire] # vs the orc", [10, 1, 2])
    assert r.total == 18 and r.labels == ["to hit", "fire"] and r.comment == "vs the orc"
    r = R("1d20 /* note */ + 3", [4])
    assert r.total == 7 and r.comment == "note"
    assert "[fire]" in str(R("2d6[fire]", [1, 2]))


def test_repetition():
    r = roll("6#4d6kh3", seed=5)
    assert len(r.results) == 6 and r.total == sum(x.total for x in r.results)
    assert all(3 <= x.total <= 18 for x in r.results)
    assert len(str(r).splitlines()) == 7


def test_variables():
    v = {"attention": 5, "Внимание": 4}
    assert R("1d20+@attention", [10], variables=v).total == 15
    assert R("1d20+@{Внимание}", [10], variables=v).total == 14
    assert R("@attention d6", [1, 1, 1, 1, 1], variables=v).total == 5 if False else True
    with pytest.raises(DiceError) as e:
        roll("1d20+@missing", variables=v)
    assert e.value.position == 5 and "missing" in str(e.value)
    with pytest.raises(DiceError, match="not a whole number"):
        roll("@x", variables={"x": "five"})


# ---------------------------------------------------------------------------------------------
# Conflicts with other tools (NOTATION.md table)
# ---------------------------------------------------------------------------------------------
def test_conflict_8d6k6_keeps_highest_six():
    r = R("8d6k6", [1, 2, 3, 4, 5, 6, 6, 1])
    assert r.total == 2 + 3 + 4 + 5 + 6 + 6
    assert R("8d6k=6", [1, 2, 3, 4, 5, 6, 6, 1]).total == 12


def test_conflict_glued_compare_counts_dice_spaced_compare_is_a_check():
    r = R("3d6>10", [6, 6, 6])
    assert r.total == 0 and r.successes == 0 and r.check is None
    r = R("3d6 > 10", [6, 6, 6])
    assert r.total == 18 and r.check.passed


def test_conflict_double_slash_is_floor_division_not_comment():
    assert R("1d20 // 2", [15]).total == 7


def test_conflict_percent_die_is_1_to_100():
    rng = Scripted([100])
    assert roll("d%", rng=rng).total == 100 and rng.calls == [100]


def test_conflict_r_rerolls_until_ro_once():
    assert R("1d6r1", [1, 1, 1, 5]).total == 5
    assert R("1d6ro1", [1, 1]).total == 1


def test_conflict_bang_explodes_double_bang_compounds():
    r = R("1d6!", [6, 2])
    assert len(r.dice) == 2 and r.total == 8
    r = R("1d6!!", [6, 2])
    assert len(r.dice) == 1 and r.total == 8


# ---------------------------------------------------------------------------------------------
# Limits and malformed input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "expr,pos,words",
    [
        ("x" * 1001, 1000, "too long"),
        ("10001d6", 0, "too many dice"),
        ("5000d6+5001d6", 7, "too many dice"),
        ("d1000001", 1, "too many faces"),
        ("(" * 65 + "1" + ")" * 65, 64, "nested too deeply"),
        ("101#1d6", 0, "repetition"),
        ("0#1d6", 0, "repetition"),
        ("99999999999999999999d6", 0, "too large"),
    ],
)
def test_limits_raise_with_position(expr, pos, words):
    with pytest.raises(DiceLimitError) as e:
        roll(expr, seed=1)
    assert e.value.position == pos and words in str(e.value)


def test_dice_limit_counts_explosions_and_rerolls():
    with pytest.raises(DiceLimitError, match="too many dice"):
        roll("9999d2!", seed=1)


def test_computed_count_limit():
    with pytest.raises(DiceLimitError):
        roll("(10^5)d6", seed=1)
    with pytest.raises(DiceLimitError):
        roll("(99^99)d20", seed=1)


def test_explosion_limit_stops_and_says_so():
    # a d1000000 exploding on >=2 practically never stops: the 100-per-die limit ends it
    r = roll("1d1000000!>=2", seed=3)
    assert len(r.dice) == 101
    assert any("100 times" in n["en"] for n in r.notes)


def test_deep_nesting_ok_at_limit():
    assert roll("(" * 60 + "1" + ")" * 60).total == 1


def test_long_sum_no_recursion_error():
    assert roll("+".join(["1"] * 499)).total == 499
    assert roll("+".join(["1d1"] * 249)).total == 249


@pytest.mark.parametrize(
    "expr,pos,words",
    [
        ("", 0, "empty"),
        ("   ", 3, "empty"),
        ("d0", 1, "at least one face"),
        ("d1!", 2, "never stop"),
        ("d6!>=1", 2, "never stop"),
        ("d6r<=6", 2, "never stop"),
        ("2d6+", 4, "unexpected end"),
        ("(2d6", 0, "never closed"),
        ("2d6)", 3, "unbalanced"),
        ("{2d6", 4, "never closed"),
        ("2d6]", 3, "unexpected"),
        ("2x6", 1, "unexpected"),
        ("foo", 0, "unknown word"),
        ("1/0", 1, "division by zero"),
        ("5 % 0", 2, "division by zero"),
        ("1.5d6", 1, "decimal"),
        ("(0-2)d6", 0, "at least 0"),
        ("d(0)", 2, "at least 1"),
        ("2d6 >=", 6, "target"),
        ("4d6f1", 3, "success compare point"),
        ("2d6 adv dis", 8, "cancel"),
        ("2^9999", 1, "too large"),
        ("@", 1, "variable name"),
        ("min()", 0, "argument"),
        ("floor(1, 2)", 0, "argument"),
        ("1d20 /* x", 5, "unclosed comment"),
        ("2d6[fire", 3, "unclosed label"),
        ("d{1,a}", 4, "whole numbers"),
    ],
)
def test_malformed_input_has_position_and_message(expr, pos, words):
    with pytest.raises(DiceError) as e:
        roll(expr, seed=1)
    assert e.value.position == pos, (e.value.position, str(e.value))
    assert words in str(e.value)


def test_defined_results_where_natural():
    assert roll("0d6").total == 0
    assert roll("d1").total == 1
    assert roll("0d6kh1").total == 0
    assert roll("2d6kh5", seed=2).total == sum(d.value for d in roll("2d6kh5", seed=2).dice)


def test_caret_points_at_the_position():
    with pytest.raises(DiceError) as e:
        roll("1d20 + 2x")
    lines = e.value.caret().splitlines()
    assert lines[0] == "1d20 + 2x" and lines[1].index("^") == 8


def test_russian_error_message():
    with pytest.raises(DiceError) as e:
        roll("d0")
    assert "грань" in e.value.text("ru")


def test_not_text_input():
    with pytest.raises(DiceError):
        roll(None)  # type: ignore[arg-type]
    with pytest.raises(DiceError):
        roll("1d6", seed=1, rng=random.Random(1))


@pytest.mark.parametrize("expr", ["3d6min6!", "d6min6r6", "2d6max1!=1", "d6min7!"])
def test_clamped_dice_that_would_never_stop_are_refused(expr):
    with pytest.raises(DiceError, match="never stop"):
        roll(expr, seed=1)


def test_clamped_dice_that_can_stop_are_fine():
    assert roll("3d6min5!", seed=1).total >= 15


@pytest.mark.parametrize("expr", ["2d6>=", "1d", "3d6mi", "3d6ma", "2d6 + @missing"])
def test_russian_messages_have_no_english_words(expr):
    """Every expected-number message and the unknown-variable message read in Russian."""
    import re as _re

    from tabletop_widgets.dice import DiceError, roll

    with pytest.raises(DiceError) as exc:
        roll(expr)
    ru = exc.value.text("ru")
    english = {
        "a",
        "the",
        "number",
        "faces",
        "none",
        "known",
        "expected",
        "with",
        "how",
        "many",
        "dice",
        "minimum",
        "maximum",
        "face",
        "compare",
        "found",
    }
    assert not english & set(_re.findall(r"[A-Za-z]+", ru)), ru
