"""The %roll word of RET (spec §5.15): parsing, rolling, exact distributions, errors."""

from fractions import Fraction as F
import random

import pytest
from hypothesis import given, settings, strategies as st

from tabletop_systems.ret import SYSTEM, chance_at_least
from tabletop_systems.ret.checks import FAIL_KEY, contest_chance
from tabletop_widgets.dice import DiceError

from ret_testkit import Scripted

WORD = SYSTEM.dice_words()[0]


def parse(text):
    assert WORD.pattern.match(text)
    return WORD.parse(text, 0, len(text))


def test_word_identity():
    assert WORD.name == "L" and WORD.system == "ret" and WORD.help["ru"]
    assert not WORD.pattern.match("Lx") and WORD.pattern.match("L5")
    for ex in WORD.examples:
        e = parse(ex)
        e.roll(random.Random(1))
        e.distribution()


def test_plain_level():
    e = parse("L5")
    r = e.roll(Scripted(7))
    assert r.total == 7 and r.check is None and r.tree.word == "L"
    d = e.distribution()
    assert d[7] == F(1, 10) and d[FAIL_KEY] == F(1, 10) and d.p_pass is None
    assert parse("L0").roll(Scripted(2)).total == -1


def test_threshold_forms():
    e = parse("L5+3 >= 8")
    r = e.roll(Scripted(5))
    assert r.total == 8 and r.check.passed and r.check.margin == 0
    assert e.distribution().p_pass == chance_at_least(5, 8, bonus=3, options=SYSTEM.rules)
    assert parse("L5 >= medium").distribution().p_pass == F(3, 10)
    assert parse("L5 ≥ 8").distribution().p_pass == F(3, 10)
    assert parse("L3 >= -10").distribution().p_pass == F(5, 6)
    assert parse("L5 >= very high").target == 20


def test_luck_forms():
    e = parse("L3 luck 2")
    assert (e.attacker.luck, e.attacker.bonus) == (2, 0)
    r = e.roll(Scripted(1, 3))
    assert r.tree.details["fail"] and r.tree.details["luck"] == 2
    assert "~~" in r.tree.breakdown["en"]  # cancelled bonus struck through
    e = parse("L3+3 luck 2 >= 8")
    assert e.distribution().p_pass == chance_at_least(3, 8, bonus=3, luck=2, options=SYSTEM.rules)
    e = parse("L3 +3[skill] +2[luck]")
    assert (e.attacker.bonus, e.attacker.luck) == (3, 2)
    r = e.roll(Scripted(3))
    assert r.total == 8 and "[skill]" in r.tree.breakdown["en"] and "[luck]" in r.tree.breakdown["en"]
    assert parse("L3 удача 1").attacker.luck == 1


def test_die_level_shift():
    e = parse("L5 dl-1")
    r = e.roll(Scripted(8, 3))
    assert r.tree.details["level"] == 4 and r.total == 11
    assert parse("L7 dl+3").roll(Scripted(50)).tree.details["level"] == 8
    assert parse("L0 dl-2").roll(Scripted(2)).total == -1


def test_contests():
    e = parse("L3+3 vs L4")
    r = e.roll(Scripted(3, 6, 2))  # 6 vs 6+2=8 -> defender
    assert not r.check.passed and r.check.op == "vs"
    r = parse("L4 vs L3").roll(Scripted(5, 5))  # tie -> defender
    assert not r.check.passed
    d = parse("L4 vs L3").distribution()
    assert d.p_pass == contest_chance({"level": 4}, {"level": 3}, options=SYSTEM.rules) and d.outcome == "hits"
    r = parse("L4 vs L3 x2").roll(Scripted(7, 2, 5))
    assert r.successes == 2 and r.tree.details["hits"] == 2
    d2 = parse("L4 vs L3 x2").distribution()
    assert sum(d2.values()) == 1 and set(d2) <= {0, 1, 2}
    assert d2.p_pass >= d.p_pass


def test_dividers():
    e = parse("L6+3 // 4+2")
    r = e.roll(Scripted(9))
    assert r.total == 12 // 4 + 2
    d = e.distribution()
    assert sum(d.values()) == 1 and d[0] == F(1, 12)  # a fail gives 0 (A10)
    assert parse("L6 /normal").roll(Scripted(10)).total == 10 // 4 + 2
    assert parse("L6 /generous").divider.base == 3
    assert parse("L6 // 3").divider.base == 0


@pytest.mark.parametrize(
    "text,pos",
    [
        ("L9", 1),
        ("L5 >= ", 6),
        ("L5 >= hardish", 6),
        ("L5 luck", 7),
        ("L5 dl 1", 6),
        ("L5 // 0", 6),
        ("L5 /silly", 4),
        ("L5 vs", 5),
        ("L5 vs L3 x0", 10),
        ("L5 +3[skill", 5),
        ("L5 &", 3),
        ("L5 luck 99999", 8),
    ],
)
def test_errors_have_positions(text, pos):
    with pytest.raises(DiceError) as e:
        parse(text)
    assert e.value.position == pos, (e.value.message, e.value.position)
    assert e.value.message and e.value.message_ru


def test_absolute_positions_inside_a_longer_text():
    text = "2#L5 >= nope"
    with pytest.raises(DiceError) as e:
        WORD.parse(text, 2, len(text))
    assert e.value.position == 8
    e = WORD.parse("xxL3+1yy", 2, 6)
    assert e.attacker.bonus == 1


def test_word_uses_system_rules():
    w = SYSTEM.with_rules(divider_on_fail="base").dice_words()[0]
    e = w.parse("L6 /normal", 0, 10)
    assert e.roll(Scripted(1, 3)).total == 2


@settings(max_examples=60, deadline=None)
@given(
    level=st.integers(0, 8),
    bonus=st.integers(-5, 9),
    luck=st.integers(0, 5),
    shift=st.integers(-3, 2),
    target=st.integers(-5, 40),
    seed=st.integers(0, 10**6),
)
def test_word_property(level, bonus, luck, shift, target, seed):
    text = f"L{level}{bonus:+d} luck {luck} dl{shift:+d} >= {target}"
    e = parse(text)
    d = e.distribution()
    assert d.p_pass == chance_at_least(level, target, bonus=bonus, luck=luck, shift=shift, options=SYSTEM.rules)
    assert sum(d.values()) == 1
    r = e.roll(random.Random(seed))
    assert (FAIL_KEY if r.tree.details["fail"] else r.total) in d
    assert r.check.passed == (not r.tree.details["fail"] and r.total >= target)
