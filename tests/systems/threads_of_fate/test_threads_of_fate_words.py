"""The ``t20`` roll word (spec §5.16)."""

import random
from fractions import Fraction

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, checks
from tabletop_widgets.dice.errors import DiceError


def word(name="t20", system=SYSTEM):
    return {w.name: w for w in system.dice_words()}[name]


def parse(text, start=0):
    return word().parse(text, start, len(text))


def test_pattern_and_examples():
    w = word()
    assert w.name == "t20" and w.system == "threads_of_fate" and w.help["en"] and w.help["ru"]
    for ex in w.examples:
        assert w.pattern.match(ex)
        e = parse(ex)
        e.roll(random.Random(1))
        e.distribution()
    assert not w.pattern.match("t200")
    assert not w.pattern.match("d20+3")


@pytest.mark.parametrize(
    "text,bonus,adv,hin,target,net",
    [
        ("t20+3 adv", 3, 1, 0, None, 1),
        ("t20+7 adv2 hin1", 7, 2, 1, None, 1),
        ("t20+2 hin2 vs 15", 2, 0, 2, 15, -2),
        ("t20+2 adv3 hin1 >= 15", 2, 3, 1, 15, 2),
        ("t20 dis", 0, 0, 1, None, -1),
        ("t20-1+4 adv adv dc 12", 3, 2, 0, 12, 2),
        ("T20 + 5 vs 15", 5, 0, 0, 15, 0),
        ("t20+3 adv5", 3, 5, 0, None, 2),
    ],
)
def test_parse(text, bonus, adv, hin, target, net):
    e = parse(text)
    assert (e.bonus, e.advantages, e.hindrances, e.target, e.net) == (bonus, adv, hin, target, net)


def test_roll_and_check():
    e = parse("t20+3 adv vs 12")
    r = e.roll(random.Random(1))
    kept = [d for d in r.dice if d.kept]
    assert len(r.dice) == 2 and len(kept) == 1 and kept[0].value == max(d.value for d in r.dice)
    assert r.total == kept[0].value + 3
    assert r.check.passed == (r.total >= 12 or kept[0].value == 20) and r.check.margin == r.total - 12


def test_S30_three_dice_at_most():
    r = parse("t20 adv3").roll(random.Random(2))
    assert len(r.dice) == 3


def test_distribution_matches_checks():
    d = parse("t20+5 adv vs 15").distribution()
    assert d.p_pass == Fraction(319, 400) and d.min == 6 and d.max == 25
    assert parse("t20+5 hin2 vs 15").distribution().p_pass == Fraction(1331, 8000)
    assert parse("t20+2 vs 25").distribution().p_pass == Fraction(1, 20)
    assert parse("t20+3").distribution().p_pass is None
    assert parse("t20+3 adv").distribution().mean == Fraction(13825, 1000) + 3


def test_word_follows_gm_rules():
    w = word(system=SYSTEM.with_rules(adv_order="cap_then_cancel", nat20_auto_success=False))
    e = w.parse("t20+2 adv3 hin1 vs 25", 0, 21)
    assert e.net == 1 and e.distribution().p_pass == 0


def test_same_odds_as_the_named_check():
    c = Character(dexterity=14, stealth=3)
    assert parse("t20+5 adv2 hin1 vs 15").distribution().p_pass == SYSTEM.chance(
        c, "dexterity+stealth", difficulty=15, advantages=2, hindrances=1
    )


def test_absolute_positions_in_errors():
    text = "3 + t20+3 frobnicate"
    with pytest.raises(DiceError) as e:
        word().parse(text, 4, len(text))
    assert e.value.position == text.index("frobnicate") and e.value.message_ru
    with pytest.raises(DiceError) as e:
        parse("t20+3 vs 15 adv")
    assert e.value.position == 12
    with pytest.raises(DiceError) as e:
        parse("t20 vs 12 vs 13")
    assert e.value.position == 10
    with pytest.raises(DiceError) as e:
        parse("t20 vs")
    assert e.value.position == 4
    with pytest.raises(DiceError):
        parse("x20")


def test_roll_is_deterministic():
    a = parse("t20+1 hin2").roll(random.Random(9))
    b = parse("t20+1 hin2").roll(random.Random(9))
    assert [d.value for d in a.dice] == [d.value for d in b.dice] and a.total == b.total
    assert a.total == min(d.value for d in a.dice) + 1


def test_check_result_roll_is_a_word_result():
    r = SYSTEM.roll_check(Character(stealth=2), "dexterity+stealth", difficulty=12, rng=random.Random(3))
    assert r.roll.tree.word == "t20" and r.roll.check.target == 12
    assert (
        checks.notation_for(
            checks.plan_check(Character(stealth=2), "dexterity+stealth", options=SYSTEM.rules),
            checks.parse_options({"difficulty": 12, "advantages": 1}),
        )
        == "t20+2 adv vs 12"
    )


def trouble(text):
    return word("trouble").parse(text, 0, len(text))


@pytest.mark.parametrize(
    "text,margin,forced,table",
    [
        ("trouble", 0, None, "general"),
        ("trouble +3", 3, None, "general"),
        ("trouble -2", -2, None, "general"),
        ("trouble best", 0, "best", "general"),
        ("trouble worst veteran", 0, "worst", "veteran"),
        ("Неприятности +1 augmented", 1, None, "augmented"),
    ],
)
def test_trouble_word_parse(text, margin, forced, table):
    e = trouble(text)
    assert (e.margin, e.forced, e.table) == (margin, forced, table)


def test_trouble_word_roll_and_odds():
    r = trouble("trouble best -4").roll(random.Random(1))
    assert r.total == 16 and r.notes[-1]["en"].startswith("13–18: ")  # band B, by its range
    assert trouble("trouble").distribution().p_pass == Fraction(1, 10)
    assert trouble("trouble +3").distribution().p_pass == Fraction(5, 20)
    with pytest.raises(DiceError) as e:
        trouble("trouble best worst")
    assert e.value.position == 13
    with pytest.raises(DiceError) as e:
        trouble("trouble 3")
    assert e.value.position == 8


@pytest.fixture
def engine_words():
    from tabletop_widgets.dice import register_word, registered_words, unregister_word

    before = {w.name: w for w in registered_words()}
    for w in SYSTEM.dice_words():
        register_word(w)
    yield
    for w in SYSTEM.dice_words():
        unregister_word(w.name)
        if w.name in before:
            register_word(before[w.name])


def test_through_the_generic_engine(engine_words):
    from tabletop_widgets.dice import distribution, roll

    r = roll("t20+3 adv vs 12", seed=1)
    assert r.check is not None and len(r.dice) == 2
    assert distribution("t20+3 adv vs 12").p_pass == checks.p_success(3, 12, 1, options=SYSTEM.rules)
    t = roll("trouble +3 veteran", seed=2)
    assert t.total == [d for d in t.dice if d.kept][0].value + 3
    assert "t20" in r.text() and r.text("ru")


def test_results_render_in_both_locales():
    c = Character(intelligence=14, perception=4, threads=4, weapons=2)
    results = [
        SYSTEM.roll_check(c, "dexterity+stealth", difficulty=12, advantages=2, rng=random.Random(1)),
        SYSTEM.roll_check(c, "wisdom+perception", difficulty=12, static=True),
        SYSTEM.roll_check(c, "intelligence+science", difficulty=17),
        SYSTEM.roll_check(c, "wisdom+perception", difficulty=12, bought="critical_success"),
        SYSTEM.roll_check(c, "trouble", margin=-2, rng=random.Random(2)),
        SYSTEM.roll_trouble(c, forced="worst"),
        SYSTEM.attack(c, Character(), rng=random.Random(3)),
    ]
    for r in results:
        en, ru = r.text("en"), r.text("ru")
        assert en and ru and r._repr_html_()
