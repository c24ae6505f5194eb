"""WordContext: the bound character reaches words as a context object (issue 15)."""

import random
import re

import pytest

from tabletop_widgets.dice import DiceError, distribution, roll
from tabletop_widgets.dice.distribution import Distribution
from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import (
    CHARACTER_KEY,
    DiceWord,
    WordContext,
    register_word,
    unregister_word,
    word_context,
    word_result,
)


class Hero:
    def __init__(self, grit):
        self.grit = grit


class GritRoll:
    def __init__(self, text, grit):
        self.text, self.grit = text, grit

    def roll(self, rng):
        return word_result(
            self.text, "grit", self.grit, [], {"en": f"grit {self.grit}", "ru": f"стойкость {self.grit}"}
        )

    def distribution(self):
        return Distribution({self.grit: 1})


SEEN = []


def parse_grit(text, start, end, context):
    SEEN.append(context)
    s = Scanner(text, start, end)
    s.expect(r"grit", "grit")
    if context.character is None:
        raise s.error({"en": "grit needs a bound character", "ru": "для grit нужен персонаж"}, start)
    return GritRoll(text[start:end], context.character.grit + context.variables.get("bonus", 0))


@pytest.fixture()
def grit_word():
    register_word(DiceWord(name="grit", pattern=re.compile(r"grit\b", re.I), parse=parse_grit))
    SEEN.clear()
    yield
    unregister_word("grit")


def test_a_word_declaring_context_receives_the_character(grit_word):
    hero = Hero(4)
    r = roll("grit", rng=random.Random(1), variables=WordContext({"bonus": 2}, hero))
    assert r.total == 6 and SEEN[-1].character is hero and dict(SEEN[-1].variables) == {"bonus": 2}
    assert distribution("grit", variables=WordContext({}, Hero(3))).mean == 3


def test_the_older_mapping_form_still_reaches_it(grit_word):
    hero = Hero(5)
    assert roll("grit", rng=random.Random(1), variables={CHARACTER_KEY: hero}).total == 5
    assert SEEN[-1].character is hero and CHARACTER_KEY not in SEEN[-1].variables


def test_without_a_character_the_word_says_so(grit_word):
    with pytest.raises(DiceError, match="needs a bound character") as e:
        roll("  grit", rng=random.Random(1))
    assert e.value.position == 2 and SEEN[-1].character is None and dict(SEEN[-1].variables) == {}


def test_context_reads_as_the_variables_mapping():
    hero = Hero(1)
    ctx = WordContext({"strength": 3, CHARACTER_KEY: "ignored"}, hero)
    assert ctx["strength"] == 3 and ctx[CHARACTER_KEY] is hero and ctx.character is hero
    assert sorted(ctx) == sorted(["strength", CHARACTER_KEY]) and len(ctx) == 2
    assert dict(WordContext({"a": 1})) == {"a": 1} and not WordContext()
    with pytest.raises(AttributeError):
        ctx.character = None
    with pytest.raises(TypeError):
        ctx.variables["strength"] = 9  # type: ignore[index]
    assert word_context({CHARACTER_KEY: hero, "a": 1}).character is hero and word_context(None).character is None
    assert word_context(ctx) is ctx


def test_variables_roll_through_a_context():
    assert roll("@strength + 1", rng=random.Random(1), variables=WordContext({"strength": 3}, Hero(1))).total == 4


def test_the_tray_and_roll_magic_pass_a_context():
    from tabletop_systems.ret import SYSTEM
    from tabletop_widgets.widgets.tray import DiceTray

    hero = SYSTEM.Character()
    tray = DiceTray(hero)
    ctx = tray.variables()
    assert isinstance(ctx, WordContext) and ctx.character is hero and ctx.variables["attention"] == hero.attention
    tray.close()
